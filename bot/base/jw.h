/*
 * jw.h - JSON text written straight into a buffer.
 *
 * The hot documents (the encounter saved after every command, the body of
 * every interaction answer) are written as text rather than built as a
 * jansson tree and dumped: the tree cost a malloc per value and a second
 * walk to print it. The bytes are what json_dumps(JSON_COMPACT |
 * JSON_PRESERVE_ORDER) makes of the same values in the same order, so a
 * reader cannot tell the two apart (test_jw.c holds it to jansson).
 *
 * Errors are sticky: no memory, text past the ceiling or a string that is
 * not UTF-8 marks the writer bad; the caller checks once, at jw_take().
 * Keys given as literals are written unescaped: they must be plain ASCII.
 *
 * Ownership: the writer owns its buffer until jw_take() hands it over (the
 * caller frees it) or jw_cleanup() frees it. A writer started on the
 * caller's buffer (jw_init_buf) writes there until it outgrows it, then
 * moves to the heap; jw_take() always returns heap memory.
 */
#ifndef JW_H
#define JW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JW_FIRST_CAP 4096 /* a small fight or a whole reply */

struct jw {
    char *buf;
    size_t len, cap; /* cap includes room for the NUL */
    size_t max;      /* ceiling on len */
    bool bad;        /* no memory, too long, or not UTF-8 */
    bool borrowed;   /* buf is the caller's (jw_init_buf) */
};

void jw_init(struct jw *w, size_t max);
/* Start on buf (cap bytes, the caller's, e.g. on its stack): a text that
 * fits costs no allocation. */
void jw_init_buf(struct jw *w, char *buf, size_t cap, size_t max);
void jw_cleanup(struct jw *w);

/* The text so far, NUL-terminated, in place (valid until the next write
 * or jw_cleanup()); NULL when the writer went bad. */
const char *jw_text(struct jw *w, size_t *len);

/* The text, NUL-terminated, its length in *len (may be NULL); NULL when
 * the writer went bad (its buffer is freed either way). */
char *jw_take(struct jw *w, size_t *len);

/* Room for n more bytes and the NUL; false (and bad) when there is none. */
bool jw_room(struct jw *w, size_t n);

/* Inline so that literal pieces become a few stores, not a call. */
static inline void jw_raw(struct jw *w, const char *s, size_t n)
{
    if (w->len + n < w->cap || jw_room(w, n)) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
    }
}

#define JW_LIT(w, lit) jw_raw((w), (lit), sizeof(lit) - 1)

void jw_i64_any(struct jw *w, int64_t v);

/* Inline, as are the keys below: a document is mostly small numbers and
 * keys, and a call for each cost a tenth of writing an encounter. */
static inline void jw_i64(struct jw *w, int64_t v)
{
    /* one or two digits without the division loop */
    if (v >= 0 && v < 10) {
        char c = (char)('0' + v);
        jw_raw(w, &c, 1);
    } else if (v >= 10 && v < 100) {
        char two[2] = {(char)('0' + v / 10), (char)('0' + v % 10)};
        jw_raw(w, two, 2);
    } else {
        jw_i64_any(w, v);
    }
}

static inline void jw_bool(struct jw *w, bool v)
{
    if (v)
        JW_LIT(w, "true");
    else
        JW_LIT(w, "false");
}

void jw_i64_array(struct jw *w, const int64_t *v, int n);

/* A number beyond 2^53 as a decimal string, so every reader keeps it
 * exact (snowflakes, version counters). */
void jw_u64_str(struct jw *w, uint64_t v);

/* A JSON string of s's first n bytes, or of s (NUL-terminated). */
void jw_strn(struct jw *w, const char *s, size_t n);

static inline void jw_str(struct jw *w, const char *s)
{
    jw_strn(w, s, strlen(s));
}

/* "key": with a separating comma unless first, in one write. */
static inline void jw_key(struct jw *w, const char *lit, size_t n, bool first)
{
    if (w->len + n + 4 >= w->cap && !jw_room(w, n + 4))
        return;
    char *p = w->buf + w->len;
    if (!first)
        *p++ = ',';
    *p++ = '"';
    memcpy(p, lit, n);
    p += n;
    *p++ = '"';
    *p++ = ':';
    w->len = (size_t)(p - w->buf);
}

#define JW_KEY(w, lit) jw_key((w), (lit), sizeof(lit) - 1, false)
#define JW_KEY1(w, lit) jw_key((w), (lit), sizeof(lit) - 1, true)

/* ,"key":value members (never the first of an object). */
#define JW_I64(w, lit, v) (JW_KEY(w, lit), jw_i64((w), (v)))
#define JW_U64(w, lit, v) (JW_KEY(w, lit), jw_u64_str((w), (v)))
#define JW_STR(w, lit, v) (JW_KEY(w, lit), jw_str((w), (v)))
#define JW_BOOL(w, lit, v) (JW_KEY(w, lit), jw_bool((w), (v)))

#endif
