/*
 * randtok.c - link tokens from getrandom (randtok.h).
 */
#include "randtok.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

_Static_assert(RANDTOK_BYTES % 3 == 0, "no padding in a token");

bool randtok_new(char *out, size_t cap)
{
    unsigned char raw[RANDTOK_BYTES];
    size_t got = 0;

    if (cap < RANDTOK_LEN + 1)
        return false;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    for (size_t i = 0, o = 0; i < sizeof raw; i += 3) {
        unsigned v = (unsigned)raw[i] << 16 | (unsigned)raw[i + 1] << 8 |
                     raw[i + 2];
        out[o++] = b64url[v >> 18 & 63];
        out[o++] = b64url[v >> 12 & 63];
        out[o++] = b64url[v >> 6 & 63];
        out[o++] = b64url[v & 63];
    }
    out[RANDTOK_LEN] = '\0';
    memset(raw, 0, sizeof raw);
    return true;
}

bool randtok_valid(const char *s)
{
    size_t n = strspn(s, b64url);
    return n == RANDTOK_LEN && s[n] == '\0';
}
