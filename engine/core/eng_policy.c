/* eng_policy.c - the text policy (eng_policy.h). */
#include "eng_policy.h"

#include <stdint.h>

/* Marks the words below for the catalogs (as rs_kit.h's N_, which this
 * floor does not include): enc_check_name() shows them translated. */
#ifndef N_
#define N_(s) s
#endif

/* The code point at s[i] (well-formed UTF-8, checked by the caller) and
 * its length in *n. */
static uint32_t next_cp(const unsigned char *s, size_t *n)
{
    if (s[0] < 0x80) {
        *n = 1;
        return s[0];
    }
    size_t need = s[0] >= 0xF0 ? 3 : s[0] >= 0xE0 ? 2 : 1;
    uint32_t cp = s[0] & (0x3F >> need);
    for (size_t k = 1; k <= need; k++)
        cp = (cp << 6) | (s[k] & 0x3F);
    *n = need + 1;
    return cp;
}

/* They reorder the text around them on screen: a label can make a roll
 * read backwards, a name can pass for another. */
static bool is_bidi(uint32_t cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* They show nothing, or a blank: "Ann" and "An\u200Bn" would be two
 * combatants that read the same. */
static bool is_invisible(uint32_t cp)
{
    return cp == 0x00AD || cp == 0x034F || cp == 0x115F || cp == 0x1160 ||
           cp == 0x180E || (cp >= 0x200B && cp <= 0x200D) ||
           (cp >= 0x2060 && cp <= 0x2064) || cp == 0x3164 ||
           cp == 0xFEFF || cp == 0xFFA0;
}

/* Pictographs an emoji sequence joins with U+200D (family, profession and
 * flag sequences), and the variation selector that may end one. */
static bool is_pictograph(uint32_t cp)
{
    return (cp >= 0x1F000 && cp <= 0x1FAFF) ||
           (cp >= 0x2600 && cp <= 0x27BF) || cp == 0xFE0F;
}

const char *eng_policy_check(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t prev = 0;
    size_t n;
    for (size_t i = 0; i < len; i += n) {
        uint32_t cp = next_cp(p + i, &n);
        if (is_bidi(cp))
            return N_("a character that changes text direction");
        if (cp == 0x200D && is_pictograph(prev) && i + n < len) {
            size_t m;
            if (is_pictograph(next_cp(p + i + n, &m))) {
                prev = cp;
                continue;
            }
        }
        if (is_invisible(cp))
            return N_("an invisible (zero-width) character");
        prev = cp;
    }
    return NULL;
}
