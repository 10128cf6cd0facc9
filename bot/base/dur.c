/*
 * dur.c - durations as users type them (dur.h).
 */
#include "dur.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const messages[] = {
    [DUR_OK] = "ok",
    [DUR_EMPTY] = N_("a duration is needed, such as 30m, 4h, 1d or 1h30m"),
    [DUR_TOO_LONG_TEXT] = N_("that duration is too long to read; write "
                             "it as days, hours and minutes, such as "
                             "1d12h"),
    [DUR_NO_NUMBER] = N_("each unit needs a number before it, such as 4h"),
    [DUR_NO_UNIT] = N_("each number needs a unit after it: d (days), "
                      "h (hours) or m (minutes)"),
    [DUR_BAD_UNIT] = N_("the units are d (days), h (hours) and m "
                        "(minutes)"),
    [DUR_ORDER] = N_("write each unit once, largest first, such as "
                     "1d6h30m"),
    [DUR_DIGITS] = N_("a number in a duration has at most 5 digits"),
    [DUR_TOO_SHORT] = N_("the shortest duration is 1m"),
    [DUR_TOO_LONG] = N_("the longest duration is 30d"),
};

const char *dur_strerror(enum dur_err err)
{
    if ((size_t)err < sizeof messages / sizeof messages[0] &&
        messages[err] != NULL)
        return messages[err];
    return N_("that is not a duration");
}

/* The unit's rank (bigger first) and length; -1 when c is not a unit. */
static int unit_rank(char c, int64_t *ms)
{
    switch (c) {
    case 'd': case 'D': *ms = DUR_MS_DAY; return 0;
    case 'h': case 'H': *ms = DUR_MS_HOUR; return 1;
    case 'm': case 'M': *ms = DUR_MS_MINUTE; return 2;
    default: return -1;
    }
}

enum dur_err dur_parse(const char *text, int64_t *ms)
{
    if (text == NULL || text[0] == '\0')
        return DUR_EMPTY;
    if (strlen(text) > DUR_MAX_TEXT)
        return DUR_TOO_LONG_TEXT;
    int64_t total = 0;
    int last = -1;
    const char *p = text;
    while (*p != '\0') {
        int64_t n = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            if (++digits > DUR_MAX_DIGITS)
                return DUR_DIGITS;
            n = n * 10 + (*p++ - '0');
        }
        int64_t unit = 0;
        int rank = unit_rank(*p, &unit);
        if (digits == 0)
            return rank >= 0 ? DUR_NO_NUMBER : DUR_BAD_UNIT;
        if (*p == '\0')
            return DUR_NO_UNIT;
        if (rank < 0)
            return DUR_BAD_UNIT;
        if (rank <= last)
            return DUR_ORDER;
        last = rank;
        total += n * unit;       /* 99999d fits int64 ms many times over */
        p++;
    }
    if (total < DUR_MIN_MS)
        return DUR_TOO_SHORT;
    if (total > DUR_MAX_MS)
        return DUR_TOO_LONG;
    *ms = total;
    return DUR_OK;
}

void dur_format(int64_t ms, char *buf, size_t n)
{
    int64_t m = ms > 0 ? ms / DUR_MS_MINUTE : 0;
    int64_t d = m / (24 * 60), h = m / 60 % 24;
    m %= 60;
    size_t at = 0;
    buf[0] = '\0';
    if (d > 0)
        at += (size_t)snprintf(buf + at, n - at, "%lldd", (long long)d);
    if (h > 0 && at < n)
        at += (size_t)snprintf(buf + at, n - at, "%lldh", (long long)h);
    if ((m > 0 || at == 0) && at < n)
        snprintf(buf + at, n - at, "%lldm", (long long)m);
}

void dur_format_rough(int64_t ms, char *buf, size_t n)
{
    dur_format_rough_in(I18N_EN, ms, buf, n);
}

void dur_format_rough_in(enum i18n_lang lang, int64_t ms, char *buf, size_t n)
{
    if (ms < 0)
        ms = 0;
    /* the short units a table writes ("4 Std.", "4 godz."); days, always
     * two or more here, take the language's plural */
    if (ms < DUR_MS_HOUR) {
        snprintf(buf, n, i18n_get(lang, "%lld min"),
                 (long long)(ms / DUR_MS_MINUTE));
    } else if (ms < 2 * DUR_MS_DAY) {
        snprintf(buf, n, i18n_get(lang, "%lld h"),
                 (long long)(ms / DUR_MS_HOUR));
    } else {
        long long d = ms / DUR_MS_DAY;
        snprintf(buf, n, i18n_nget(lang, "%lld d", "%lld d",
                                   (unsigned long)d), d);
    }
}
