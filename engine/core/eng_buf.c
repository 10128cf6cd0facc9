/*
 * eng_buf.c - growable strings with a ceiling (eng_buf.h).
 */
#include "eng_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"
#include "eng_text.h"

void eng_buf_init(struct eng_buf *b, size_t max)
{
    b->s = NULL;
    b->len = b->cap = 0;
    b->max = max;
    b->cut = b->nomem = false;
}

void eng_buf_cleanup(struct eng_buf *b)
{
    eng_free(b->s);
    eng_buf_init(b, b->max);
}

/* Room for n more bytes and the NUL, never past max. Returns how many of
 * the n bytes fit. */
static size_t room(struct eng_buf *b, size_t n)
{
    if (b->nomem)
        return 0;
    if (b->len + n > b->max) {
        b->cut = true;
        n = b->max - b->len;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = eng_realloc(b->s, cap);
        if (s == NULL) {
            b->nomem = true;
            return 0;
        }
        b->s = s;
        b->cap = cap;
    }
    return n;
}

void eng_buf_add(struct eng_buf *b, const char *s)
{
    size_t want = strlen(s);
    size_t n = room(b, want);
    if (n < want) {
        /* Cut on a character, never inside one. */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    if (b->s == NULL)
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void eng_buf_addf(struct eng_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        eng_buf_add(b, small);
        return;
    }
    char *big = eng_malloc((size_t)n + 1);
    if (big == NULL) {
        b->nomem = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    eng_buf_add(b, big);
    eng_free(big);
}

const char *eng_buf_str(const struct eng_buf *b)
{
    return b->s != NULL ? b->s : "";
}
