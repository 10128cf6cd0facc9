/*
 * sbuf.h - a growable string with a ceiling.
 *
 * Every text the bot builds (replies, JSON fragments, log lines) goes through
 * an sbuf whose maximum is fixed at init, so no input can grow a buffer
 * without bound. Errors are sticky (like SQLite's sqlite3_str): append calls
 * never fail loudly; the caller checks sbuf_error() once at the end. On
 * overflow the text is cut at the ceiling on a UTF-8 boundary and the error is
 * SBUF_TRUNCATED, so a renderer can still show what fit.
 *
 * Ownership: the sbuf owns its buffer until sbuf_take() hands it to the
 * caller (who frees it with free()) or sbuf_cleanup() releases it.
 */
#ifndef SBUF_H
#define SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum sbuf_err { SBUF_OK = 0, SBUF_NOMEM, SBUF_TRUNCATED };

/* The first allocation of an sbuf: a reply line or a tracker row fits, and
 * a whole reply grows in two or three steps instead of six (each growth is
 * a realloc on every command's path). */
#define SBUF_FIRST_CAP 512

struct sbuf {
    char *buf;          /* always NUL-terminated once anything was added */
    size_t len;         /* bytes used, without the NUL */
    size_t cap;         /* bytes allocated */
    size_t max;         /* ceiling on len */
    enum sbuf_err err;  /* sticky */
};

void sbuf_init(struct sbuf *s, size_t max);
void sbuf_cleanup(struct sbuf *s);
void sbuf_reset(struct sbuf *s);           /* empty it, keep the memory */

/* sbuf_addn when the bytes do not fit in the room there is: it grows the
 * buffer, cuts at the ceiling and keeps the errors sticky. */
void sbuf_addn_grow(struct sbuf *s, const char *str, size_t n);

/* Inline: nearly every append is a few bytes into room already there (a
 * reply's pieces, a tracker row's), and the call cost more than the copy
 * (about 60 instructions an append, 4% of a command). cap counts the NUL
 * and never passes max + 1, so fitting under cap is within the ceiling. */
static inline void sbuf_addn(struct sbuf *s, const char *str, size_t n)
{
    if (s->err == SBUF_OK && n < s->cap - s->len) {
        memcpy(s->buf + s->len, str, n);
        s->len += n;
        s->buf[s->len] = '\0';
    } else {
        sbuf_addn_grow(s, str, n);
    }
}

static inline void sbuf_add(struct sbuf *s, const char *str)
{
    sbuf_addn(s, str, strlen(str));
}

static inline void sbuf_addc(struct sbuf *s, char c)
{
    sbuf_addn(s, &c, 1);
}
void sbuf_addf(struct sbuf *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* The text so far; "" when empty. Borrowed until the next call. */
const char *sbuf_str(const struct sbuf *s);
enum sbuf_err sbuf_error(const struct sbuf *s);

/* Hand the buffer to the caller (never NULL unless out of memory) and leave
 * the sbuf empty. */
char *sbuf_take(struct sbuf *s);

/* Length of the longest prefix of s[0..n) that does not end inside a UTF-8
 * sequence. */
size_t sbuf_utf8_cut(const char *s, size_t n);

#endif
