#include "sbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbuf_init(struct sbuf *s, size_t max)
{
    s->buf = NULL;
    s->len = 0;
    s->cap = 0;
    s->max = max;
    s->err = SBUF_OK;
}

void sbuf_cleanup(struct sbuf *s)
{
    free(s->buf);
    sbuf_init(s, s->max);
}

void sbuf_reset(struct sbuf *s)
{
    s->len = 0;
    s->err = SBUF_OK;
    if (s->buf != NULL)
        s->buf[0] = '\0';
}

size_t sbuf_utf8_cut(const char *s, size_t n)
{
    /* Back up over continuation bytes; if the lead byte's sequence does not
     * fit in n, drop it too. */
    size_t i = n;
    while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
        i--;
    if (i == 0)
        return n;
    unsigned char lead = (unsigned char)s[i - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return (n - (i - 1) >= need) ? n : i - 1;
}

static bool sbuf_grow(struct sbuf *s, size_t extra)
{
    size_t want = s->len + extra + 1;
    if (want <= s->cap)
        return true;
    size_t ncap = s->cap ? s->cap : SBUF_FIRST_CAP;
    while (ncap < want)
        ncap *= 2;
    if (ncap > s->max + 1)
        ncap = s->max + 1;
    char *nb = realloc(s->buf, ncap);
    if (nb == NULL) {
        s->err = SBUF_NOMEM;
        return false;
    }
    s->buf = nb;
    s->cap = ncap;
    return true;
}

void sbuf_addn_grow(struct sbuf *s, const char *str, size_t n)
{
    if (s->err != SBUF_OK)
        return;
    if (n > s->max - s->len) {
        n = sbuf_utf8_cut(str, s->max - s->len);
        s->err = SBUF_TRUNCATED;
    }
    enum sbuf_err keep = s->err;
    if (!sbuf_grow(s, n))
        return;
    memcpy(s->buf + s->len, str, n);
    s->len += n;
    s->buf[s->len] = '\0';
    s->err = keep;
}

void sbuf_vaddf(struct sbuf *s, const char *fmt, va_list ap)
{
    if (s->err != SBUF_OK)
        return;
    char small[256];
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(small, sizeof small, fmt, cp);
    va_end(cp);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        sbuf_addn(s, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (big == NULL) {
        s->err = SBUF_NOMEM;
        return;
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    sbuf_addn(s, big, (size_t)n);
    free(big);
}

void sbuf_addf(struct sbuf *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbuf_vaddf(s, fmt, ap);
    va_end(ap);
}

const char *sbuf_str(const struct sbuf *s)
{
    return s->buf != NULL ? s->buf : "";
}

enum sbuf_err sbuf_error(const struct sbuf *s)
{
    return s->err;
}

char *sbuf_take(struct sbuf *s)
{
    char *b = s->buf;
    if (b == NULL)
        b = calloc(1, 1);
    sbuf_init(s, s->max);
    return b;
}
