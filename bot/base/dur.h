/*
 * dur.h - durations as users type them: "30m", "4h", "1d", "1h30m".
 *
 * A duration is one or more parts, each a whole number and a unit (d, h
 * or m; "s" is refused: no clock in fray is that fine), largest unit
 * first, each unit at most once, no spaces or signs. The result must lie
 * between DUR_MIN_MS and DUR_MAX_MS. Errors name what is wrong in a short
 * sentence the command layer shows as it is.
 *
 * Ownership: nothing allocates; buffers are the caller's.
 */
#ifndef DUR_H
#define DUR_H

#include <stddef.h>
#include <stdint.h>

#include "i18n.h"

#define DUR_MS_MINUTE INT64_C(60000)
#define DUR_MS_HOUR (60 * DUR_MS_MINUTE)
#define DUR_MS_DAY (24 * DUR_MS_HOUR)
/* Shortest clock: a minute (a turn clock is for play-by-post, not for a
 * live table's seconds). */
#define DUR_MIN_MS DUR_MS_MINUTE
/* Longest: 30 days, a long fight's pause; well inside int64 ms. */
#define DUR_MAX_MS (30 * DUR_MS_DAY)
/* Text of one duration, in bytes ("30d" .. "29d23h59m"). */
#define DUR_MAX_TEXT 16
/* Digits of one part: "43200m" is the longest that can be in range. */
#define DUR_MAX_DIGITS 5

enum dur_err {
    DUR_OK = 0,
    DUR_EMPTY,          /* nothing given */
    DUR_TOO_LONG_TEXT,  /* more than DUR_MAX_TEXT bytes */
    DUR_NO_NUMBER,      /* a unit without a number before it */
    DUR_NO_UNIT,        /* a number without a unit after it */
    DUR_BAD_UNIT,       /* a unit other than d, h, m */
    DUR_ORDER,          /* a unit repeated or after a smaller one */
    DUR_DIGITS,         /* more than DUR_MAX_DIGITS digits */
    DUR_TOO_SHORT,      /* under DUR_MIN_MS */
    DUR_TOO_LONG,       /* over DUR_MAX_MS */
};

/* Parse text into *ms. On error *ms is untouched. */
enum dur_err dur_parse(const char *text, int64_t *ms);

/* What err means, one short sentence without the value (no newline): a
 * catalog message (marked N_()), English; i18n_get() it for a reader. */
const char *dur_strerror(enum dur_err err);

/* ms as the shortest duration text ("1h30m", "2d", "0m" for under a
 * minute), whole minutes, rounded down. */
void dur_format(int64_t ms, char *buf, size_t n);

/* ms as a rough span for people: "12 min", "5 h", "3 d" (rounded down;
 * "0 min" under a minute). */
void dur_format_rough(int64_t ms, char *buf, size_t n);

/* The same in lang's short units ("5 Std.", "3 dni"); English is
 * dur_format_rough()'s. 32 bytes hold any language's. */
void dur_format_rough_in(enum i18n_lang lang, int64_t ms, char *buf, size_t n);

#endif
