/*
 * snowflake.c - Discord ids as decimal text (snowflake.h).
 */
#include "snowflake.h"

#include <string.h>

bool snowflake_parse(const char *s, uint64_t *out)
{
    static const char max[] = "18446744073709551615"; /* UINT64_MAX */
    size_t n = s ? strlen(s) : 0;
    uint64_t v = 0;

    /* digits only (no sign, no space, nothing after), and no overflow:
     * by hand, as strtoull() accepts more and costs more on every id. Only
     * a number as long as UINT64_MAX can pass it. */
    if (n == 0 || n > sizeof max - 1 ||
        (n == sizeof max - 1 && strcmp(s, max) > 0))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)s[i] - (unsigned)'0';
        if (d > 9)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}
