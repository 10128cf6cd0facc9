/*
 * enc_cache.h - encounters kept in memory between commands, packed.
 *
 * Decoding a stored document on every command costs far more than the
 * command itself, so the command layer keeps the committed state of
 * recently used channels here, keyed by channel, each with its version
 * (struct encounter.version). An entry is the encounter packed into one
 * block (enc_pack.h: only what is used, about a tenth of the working
 * struct), and a command works on the copy enc_unpack() makes of it;
 * only the entry last put stays unpacked, until another is put. The
 * cache is bounded three ways: at most ENC_CACHE_MAX_ENTRIES encounters,
 * at most ENC_CACHE_MAX_BYTES of packed ones (their blocks and entries;
 * the one unpacked encounter is bounded by ENC_MAX_COMBATANTS instead),
 * least recently used evicted first; and enc_cache_expire() drops what was
 * not used for ENC_CACHE_IDLE_MS, so a quiet channel's fight leaves memory
 * and is decoded again when it resumes.
 *
 * What a cached entry means is the caller's contract (cmd.c): it is what
 * was last committed (or read inside the transaction that is still open);
 * whoever rolls back or fails a commit drops the entries it may have put.
 *
 * Ownership: enc_cache_put() takes the encounter; enc_cache_copy() returns
 * a copy the caller frees with enc_free(). Not thread-safe: one cache per
 * store.
 */
#ifndef ENC_CACHE_H
#define ENC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "enc.h"
#include "enc_json.h"
#include "enc_pack.h"

/* Encounters kept: more than the channels fighting at once on one process
 * (10,000 active fights is the aim), and the hash table is sized for it
 * (128 KiB of buckets). */
#define ENC_CACHE_MAX_ENTRIES 16384
/* Bytes of encounters kept: a packed 8-combatant fight is about 2 KB, so
 * 10,000 active ones fit; a few 64-combatant ones (about 15 KB) do not
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

/* Whether channel has an entry; its version goes to *version, and it is
 * marked used at now_ms. */
bool enc_cache_version(struct enc_cache *c, uint64_t channel, int64_t now_ms,
                       int64_t *version);

/* A working copy of channel's encounter into *out, marked used at now_ms,
 * or NULL when there is none. BOT_NOMEM, *out NULL, on no memory. */
enum bot_err enc_cache_copy(struct enc_cache *c, uint64_t channel,
                            int64_t now_ms, struct encounter **out);

/* Keep e (taken, even on failure; NULL is a no-op) as channel's state,
 * replacing what was there, and evict beyond the limits. e stays unpacked
 * until another channel's encounter is put; then it is packed, or not
 * kept when it alone is over the byte budget or on no memory. */
void enc_cache_put(struct enc_cache *c, uint64_t channel,
                   struct encounter *e, int64_t now_ms);

/* Keep doc (its text taken: doc is left empty) as the document the hot
 * entry's encounter was saved as, when that entry is channel's and doc was
 * written from it (its version and combatants); else doc is left as it
 * is. One document is kept, the hot entry's, until that entry is packed,
 * replaced or dropped: the next command on the channel copies from it the
 * combatants it left alone (enc_json_dump_doc()). */
void enc_cache_keep_doc(struct enc_cache *c, uint64_t channel,
                        struct enc_json_doc *doc);
/* The hot entry's encounter and its document (*doc), when that entry is
 * channel's and its document is kept; else NULL. Borrowed until the next
 * call that changes the cache. */
const struct encounter *enc_cache_hot_doc(const struct enc_cache *c,
                                          uint64_t channel,
                                          const struct enc_json_doc **doc);
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

/* Bytes e takes in the cache once packed: its block and its entry. */
size_t enc_cache_cost(const struct encounter *e);

#endif
