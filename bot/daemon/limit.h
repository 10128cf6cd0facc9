/*
 * limit.h - token buckets that keep one user (or one channel) from
 * crowding out everyone else.
 *
 * A bucket holds up to `burst` tokens and gains `per_min` of them a
 * minute; a command takes one. The daemon (daemon_ix.c) keeps one table
 * and asks it, before anything else happens to an interaction, for the
 * buckets the interaction draws on (limit_kind below). Over the limit the
 * user is told when to try again and nothing else is done.
 *
 * Time is an argument (monotonic milliseconds), never read here, so the
 * unit tests drive it with a made-up clock. Tokens are counted in
 * thousandths, so slow rates refill without rounding to nothing.
 *
 * Memory is bounded: at most LIMIT_MAX_ENTRIES buckets. A full bucket
 * holds no information (a new one would be the same), so a full table
 * first forgets buckets that have refilled; if none has, it forgets the
 * least recently used one (that key starts over with a full bucket: the
 * table errs on the side of letting people through).
 *
 * Ownership: limit_new() returns a table the caller frees with
 * limit_free(); nothing is borrowed past a call. Not thread-safe (the
 * daemon's loop thread only).
 */
#ifndef LIMIT_H
#define LIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Buckets kept at once: users and channels active in the last minutes of
 * one process, with room to spare; about 40 bytes each. */
#define LIMIT_MAX_ENTRIES 8192

/* What a bucket limits; a key is (kind, id). */
enum limit_kind {
    LIMIT_USER_COMMANDS = 0,     /* commands and clicks of one user */
    LIMIT_CHANNEL_COMMANDS,      /* commands and clicks in one channel */
    LIMIT_USER_AUTOCOMPLETE,     /* autocomplete requests of one user */
    LIMIT_USER_SECRET,           /* secret rolls (a GM-channel copy each)
                                    of one user */
    LIMIT_NKINDS
};

struct limit_rate {
    int64_t burst;               /* tokens a full bucket holds; */
    int64_t per_min;             /* tokens gained a minute; 0: no limit */
};

struct limit;

/* A table of at most cap buckets (0: LIMIT_MAX_ENTRIES). NULL: no memory. */
struct limit *limit_new(size_t cap);
void limit_free(struct limit *l);            /* NULL is a no-op */

/* Milliseconds until a token is in (kind, id)'s bucket, 0 if one is now.
 * Takes nothing. */
int64_t limit_wait_ms(struct limit *l, enum limit_kind kind, uint64_t id,
                      const struct limit_rate *rate, int64_t now_ms);

/* Take a token from (kind, id)'s bucket. Returns false, taking nothing,
 * when there is none (or no memory to track the key: then true, since a
 * limit that cannot be kept must not refuse). */
bool limit_take(struct limit *l, enum limit_kind kind, uint64_t id,
                const struct limit_rate *rate, int64_t now_ms);

/* Buckets held, for tests. */
size_t limit_count(const struct limit *l);

#endif
