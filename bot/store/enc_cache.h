/*
 * enc_cache.h - decoded encounters kept in memory between commands.
 *
 * Decoding a stored document on every command costs far more than the
 * command itself, so the command layer keeps the committed state of
 * recently used channels here, keyed by channel, each with its version
 * (struct encounter.version). The cache is bounded three ways: at most
 * ENC_CACHE_MAX_ENTRIES encounters, at most ENC_CACHE_MAX_BYTES of them
 * (struct sizes, combatants included), least recently used evicted first;
 * and enc_cache_expire() drops what was not used for ENC_CACHE_IDLE_MS, so
 * a quiet channel's fight leaves memory and is decoded again when it
 * resumes.
 *
 * What a cached entry means is the caller's contract (cmd.c): it is what
 * was last committed (or read inside the transaction that is still open);
 * whoever rolls back or fails a commit drops the entries it may have put.
 *
 * Ownership: enc_cache_put() takes the encounter; enc_cache_get() returns
 * a pointer owned by the cache, borrowed until the next call on the cache.
 * Not thread-safe: one cache per store.
 */
#ifndef ENC_CACHE_H
#define ENC_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "enc.h"

/* Encounters kept. Far more than the channels fighting at once on one
 * process, and the hash table is sized for it. */
#define ENC_CACHE_MAX_ENTRIES 2048
/* Bytes of encounters kept: a generic 8-combatant fight is about 30 KB, so
 * 1,000 active ones fit; a few 64-combatant ones (about 200 KB) do not
 * crowd out the rest. */
#define ENC_CACHE_MAX_BYTES (32u << 20)
/* Unused for this long: dropped by enc_cache_expire(). */
#define ENC_CACHE_IDLE_MS (15 * 60 * 1000)

struct enc_cache;

/* A cache holding at most max_entries encounters and max_bytes bytes
 * (0: the ENC_CACHE_MAX_* defaults). BOT_NOMEM, *out NULL, on no memory. */
enum bot_err enc_cache_new(size_t max_entries, size_t max_bytes,
                           struct enc_cache **out);
void enc_cache_free(struct enc_cache *c);      /* NULL is a no-op */

/* The cached encounter of channel, or NULL; marks it used at now_ms. */
const struct encounter *enc_cache_get(struct enc_cache *c, uint64_t channel,
                                      int64_t now_ms);

/* Keep e (taken, even on failure) as channel's state, replacing what was
 * there, and evict beyond the limits. An encounter larger than the whole
 * byte budget is not kept. */
void enc_cache_put(struct enc_cache *c, uint64_t channel,
                   struct encounter *e, int64_t now_ms);

/* Forget channel's entry (archived, rolled back, or suspect). */
void enc_cache_drop(struct enc_cache *c, uint64_t channel);

/* Forget everything (a failed outer commit). */
void enc_cache_clear(struct enc_cache *c);

/* Drop entries last used before now_ms - ENC_CACHE_IDLE_MS. Returns how
 * many were dropped. */
size_t enc_cache_expire(struct enc_cache *c, int64_t now_ms);

/* Entries and bytes held, for tests and benchmarks. */
size_t enc_cache_count(const struct enc_cache *c);
size_t enc_cache_bytes(const struct enc_cache *c);

/* Bytes an encounter takes in the cache. */
size_t enc_cache_cost(const struct encounter *e);

#endif
