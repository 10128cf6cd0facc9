#include "eng_text.h"

#include <string.h>

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* Names are compared in every lookup of every command (commands, options,
 * systems, combatants): bytes that are equal, the usual case, are not
 * folded at all. */
int eng_text_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        if (x != y) {
            x = lower(x);
            y = lower(y);
            if (x != y)
                return x - y;
        } else if (x == 0) {
            return 0;
        }
    }
}

int eng_text_ncasecmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int x = lower((unsigned char)a[i]), y = lower((unsigned char)b[i]);
        if (x != y || x == 0)
            return x - y;
    }
    return 0;
}

void eng_text_lower(char *s)
{
    for (; *s; s++)
        *s = (char)lower((unsigned char)*s);
}

void eng_text_copy(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n);
    if (len >= n) {
        len = n - 1;
        /* Back off a partial UTF-8 sequence at the cut. */
        size_t i = len;
        while (i > 0 && ((unsigned char)src[i] & 0xC0) == 0x80)
            i--;
        len = i;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

bool eng_text_valid_utf8(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c == 0)
            return false;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (len - i <= need)
            return false;
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += need + 1;
    }
    return true;
}

const char *eng_text_parse_int(const char *s, int64_t *out)
{
    bool neg = false;
    if (*s == '+' || *s == '-') {
        neg = *s == '-';
        s++;
    }
    if (*s < '0' || *s > '9')
        return NULL;
    int64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        int digit = *s - '0';
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, neg ? -digit : digit, &v))
            return NULL;
    }
    *out = v;
    return s;
}

bool eng_text_to_int(const char *s, int64_t *out)
{
    while (*s == ' ')
        s++;
    int64_t v;
    const char *end = eng_text_parse_int(s, &v);
    if (end == NULL)
        return false;
    while (*end == ' ')
        end++;
    if (*end != '\0')
        return false;
    *out = v;
    return true;
}

size_t eng_text_distance(const char *a, const char *b)
{
    enum { MAXN = 64 };
    size_t n = strnlen(a, MAXN), m = strnlen(b, MAXN);
    size_t row[MAXN + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t cost = lower((unsigned char)a[i - 1]) ==
                          lower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diag + cost;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (up + 1 < best)
                best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

bool eng_text_to_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1", "y"};
    static const char *const no[] = {"false", "no", "off", "0", "n"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (eng_text_casecmp(s, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (eng_text_casecmp(s, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

char *eng_text_i64(int64_t v, char buf[ENG_TEXT_I64_MAX])
{
    char *p = buf + ENG_TEXT_I64_MAX;
    /* unsigned, so INT64_MIN negates without overflow */
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *--p = '-';
    return p;
}
