/*
 * jw.c - JSON text written straight into a buffer.
 */
#include "jw.h"

#include <stdlib.h>

#include "eng_text.h"

void jw_init(struct jw *w, size_t max)
{
    *w = (struct jw){.max = max};
}

void jw_init_buf(struct jw *w, char *buf, size_t cap, size_t max)
{
    *w = (struct jw){.buf = buf,
                     .cap = cap < max + 1 ? cap : max + 1,
                     .max = max,
                     .borrowed = true};
}

void jw_cleanup(struct jw *w)
{
    if (!w->borrowed)
        free(w->buf);
    jw_init(w, w->max);
}

const char *jw_text(struct jw *w, size_t *len)
{
    if (w->bad || !jw_room(w, 0))
        return NULL;
    w->buf[w->len] = '\0';
    if (len)
        *len = w->len;
    return w->buf;
}

char *jw_take(struct jw *w, size_t *len)
{
    char *out = NULL;
    size_t n = 0;
    const char *text = jw_text(w, &n);
    if (text != NULL && w->borrowed) {
        if ((out = malloc(n + 1)) != NULL)
            memcpy(out, text, n + 1);
    } else if (text != NULL) {
        out = w->buf;
        w->buf = NULL;
    }
    if (out != NULL && len)
        *len = n;
    jw_cleanup(w);
    return out;
}

/* Doubling keeps the copies amortized; the first size fits a small fight
 * or a reply in one allocation. */
bool jw_room(struct jw *w, size_t n)
{
    if (w->len + n < w->cap)
        return true;
    if (w->bad || n > w->max - w->len) {
        w->bad = true;
        return false;
    }
    size_t cap = w->cap ? w->cap : JW_FIRST_CAP;
    while (cap <= w->len + n)
        cap *= 2;
    if (cap > w->max + 1) /* the fast path never passes the ceiling */
        cap = w->max + 1;
    char *b = w->borrowed ? malloc(cap) : realloc(w->buf, cap);
    if (b == NULL) {
        w->bad = true;
        return false;
    }
    if (w->borrowed && w->len > 0)
        memcpy(b, w->buf, w->len);
    w->buf = b;
    w->cap = cap;
    w->borrowed = false;
    return true;
}

/* "00" to "99": two digits a division, half the divisions of one. */
static const char jw_pairs[] = "00010203040506070809101112131415161718192021222324"
                               "25262728293031323334353637383940414243444546474849"
                               "50515253545556575859606162636465666768697071727374"
                               "75767778798081828384858687888990919293949596979899";

/* u's decimal digits, ending just before end; the first of them. */
static char *jw_digits(char *end, uint64_t u)
{
    char *p = end;
    while (u >= 100) {
        p -= 2;
        memcpy(p, jw_pairs + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10) {
        p -= 2;
        memcpy(p, jw_pairs + 2 * u, 2);
    } else {
        *--p = (char)('0' + u);
    }
    return p;
}

void jw_i64_any(struct jw *w, int64_t v)
{
    char buf[24];
    /* Work in unsigned so INT64_MIN negates without overflow. */
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *p = jw_digits(buf + sizeof buf, u);
    if (v < 0)
        *--p = '-';
    jw_raw(w, p, (size_t)(buf + sizeof buf - p));
}

void jw_u64_str(struct jw *w, uint64_t v)
{
    char buf[24];
    char *p = buf + sizeof buf;
    *--p = '"';
    p = jw_digits(p, v);
    *--p = '"';
    jw_raw(w, p, (size_t)(buf + sizeof buf - p));
}

#define JW_ONES 0x0101010101010101ULL
#define JW_HIGHS 0x8080808080808080ULL

/* How many of s's first n bytes go out as they are, eight at a time
 * (a document's strings are names and keys, and a byte-wise test cost a
 * tenth of writing one); *high when one of them is above ASCII. A word
 * with a byte below 0x20, a '"' or a '\\' ends the count at the word's
 * start: the byte loop finds which. */
static size_t jw_plain_run(const char *s, size_t n, bool *high)
{
    size_t i = 0;
    uint64_t hi = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        uint64_t q = x ^ (JW_ONES * '"'), b = x ^ (JW_ONES * '\\');
        uint64_t stop = ((x - JW_ONES * 0x20) | (q - JW_ONES) |
                         (b - JW_ONES)) & ~x & JW_HIGHS;
        /* ~x drops the high bytes, which never stop the run; q and b
         * differ from x only below the high bit, so ~x is theirs too */
        if (stop != 0)
            break;
        hi |= x;
    }
    *high = (hi & JW_HIGHS) != 0;
    return i;
}

/* The first byte of s[i..n) that jansson escapes (a byte below 0x20, '"'
 * or '\\'), or n; *high when one before it is above ASCII. */
static size_t jw_escape_at(const char *s, size_t i, size_t n, bool *high)
{
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x80)
            *high = true;
        else if (c < 0x20 || c == '"' || c == '\\')
            break;
    }
    return i;
}

/* As jansson writes a string: '"' and '\\' escaped, control characters as
 * \b \f \n \r \t or \u00XX, everything else (UTF-8 included) as is. */
void jw_strn(struct jw *w, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    bool high;
    size_t i = jw_escape_at(s, jw_plain_run(s, n, &high), n, &high);
    if (i == n) { /* nothing to escape: one reservation, one copy */
        if (w->len + n + 2 < w->cap || jw_room(w, n + 2)) {
            char *p = w->buf + w->len;
            *p = '"';
            memcpy(p + 1, s, n);
            p[n + 1] = '"';
            w->len += n + 2;
        }
    } else {
        size_t run = 0;
        JW_LIT(w, "\"");
        for (; i < n; i = jw_escape_at(s, i + 1, n, &high)) {
            unsigned char c = (unsigned char)s[i];
            jw_raw(w, s + run, i - run);
            run = i + 1;
            char esc[6] = {'\\', 0};
            size_t len = 2;
            switch (c) {
            case '"':
                esc[1] = '"';
                break;
            case '\\':
                esc[1] = '\\';
                break;
            case '\b':
                esc[1] = 'b';
                break;
            case '\f':
                esc[1] = 'f';
                break;
            case '\n':
                esc[1] = 'n';
                break;
            case '\r':
                esc[1] = 'r';
                break;
            case '\t':
                esc[1] = 't';
                break;
            default:
                memcpy(esc + 1, "u00", 3);
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                len = 6;
                break;
            }
            jw_raw(w, esc, len);
        }
        jw_raw(w, s + run, n - run);
        JW_LIT(w, "\"");
    }
    if (high && !eng_text_valid_utf8(s, n))
        w->bad = true;
}

void jw_i64_array(struct jw *w, const int64_t *v, int n)
{
    JW_LIT(w, "[");
    for (int i = 0; i < n; i++) {
        if (i > 0)
            JW_LIT(w, ",");
        jw_i64(w, v[i]);
    }
    JW_LIT(w, "]");
}
