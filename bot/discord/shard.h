/*
 * shard.h - which of the bot's shards this process runs.
 *
 * Discord splits a big bot's gateway traffic into shards: the events of a
 * guild go to shard (guild_id >> 22) % count, events without a guild (DMs)
 * to shard 0 (discord-protocol.md section 6). fray runs ONE shard per
 * process; several processes (systemd's fray@ID.service, one per shard)
 * share one PostgreSQL store, so a channel's fight survives whichever
 * process handles the next command.
 *
 * The shard comes from `[gateway] shard`: "ID/COUNT" (fixed), or "auto":
 * COUNT is the `shards` Discord recommends in GET /gateway/bot, read once at
 * startup. In both forms $FRAY_SHARD_ID, when set, replaces the ID, so one
 * config file serves every instance of a template unit. "auto" with several
 * processes is only safe while they all read the same recommendation; a
 * fixed COUNT is the way to run several (docs/internals/daemon.md).
 *
 * IDENTIFY is limited per bucket (id % max_concurrency): one per 5 s. A
 * process runs one shard, so its own spacing covers its bucket; processes
 * that share a store also claim identify slots in it (shard_identify_gate),
 * so shards of one bucket never identify within 5 s of each other.
 *
 * Ownership: plain values, nothing allocated; strings are borrowed.
 */
#ifndef SHARD_H
#define SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"

struct store;

/* Shard counts accepted. Discord's largest bots run tens of thousands of
 * shards; the bound keeps ids and counts small numbers in keys and logs. */
#define SHARD_MAX_COUNT 65536
#define SHARD_ENV_ID "FRAY_SHARD_ID"       /* replaces the config's ID */
#define SHARD_TEXT_MAX 24                  /* "65535/65536", "auto" */

/* Discord: max_concurrency identifies per 5 s, one per bucket. A slot is a
 * little longer, and an identify may start only in the first
 * SHARD_IDENTIFY_LATE_MS of its slot, so two identifies of a bucket in
 * consecutive slots are at least 5000 ms apart. */
#define SHARD_IDENTIFY_WINDOW_MS 5000
#define SHARD_IDENTIFY_LATE_MS 500
#define SHARD_IDENTIFY_SLOT_MS (SHARD_IDENTIFY_WINDOW_MS + SHARD_IDENTIFY_LATE_MS)
#define SHARD_IDENTIFY_TRIES 64            /* slots tried per claim */
#define SHARD_CLAIM_PREFIX "identify:"     /* never a snowflake */

struct shard {
    int id;
    int count;                             /* 0: auto, not yet known */
};

/* "ID/COUNT" or "auto" -> *out. On error why names the problem, e.g.
 * "shard 3/2: the id must be below the count", and *out is untouched. */
bool shard_parse(const char *text, struct shard *out, char *why,
                 size_t whylen);

/* "2/4", "auto" or "0/1" into buf (at least SHARD_TEXT_MAX bytes). */
void shard_format(const struct shard *sh, char *buf, size_t cap);

/* $FRAY_SHARD_ID (env may be NULL or ""): replace the id, then check it
 * against a known count. false with why on a bad value. */
bool shard_apply_env(struct shard *sh, const char *env, char *why,
                     size_t whylen);

/* For "auto": take the count from GET /gateway/bot's `shards` (a missing or
 * bad value counts as 1) and check the id against it. A fixed count is
 * kept. false with why when the id is not below the count. */
bool shard_settle(struct shard *sh, int64_t recommended, char *why,
                  size_t whylen);

/* True when IDENTIFY must carry the shard (count above 1). */
bool shard_is_sharded(const struct shard *sh);

/* The identify bucket: id % max_concurrency (a value below 1 counts as 1). */
int shard_bucket(const struct shard *sh, int64_t max_concurrency);

/* Discord's routing: the shard a guild's events go to; guild 0 (a DM) goes
 * to shard 0. count below 1 counts as 1. */
int shard_of_guild(uint64_t guild_id, int count);

/* A per-shard store key: base itself when not sharded (so one process
 * keeps the keys it always had), else "base:ID/COUNT". false when it does
 * not fit in cap. */
bool shard_kv_key(const struct shard *sh, const char *base, char *out,
                  size_t cap);

/* Cross-process identify gate on a shared store. Claims the earliest free
 * identify slot of this shard's bucket (an interaction-id row named
 * SHARD_CLAIM_PREFIX..., unique across processes) and says how long to wait
 * before identifying. *held is the slot this process holds (-1: none):
 * call again when the wait is over; it returns *wait_ms 0 while the slot's
 * start is less than SHARD_IDENTIFY_LATE_MS ago, and claims a fresh slot
 * when it is later than that. A store error is returned with *wait_ms 0
 * (identify anyway: Discord answers an over-limit identify with op 9). */
enum bot_err shard_identify_gate(struct store *s, const struct shard *sh,
                                 int64_t max_concurrency, int64_t wall_ms,
                                 int64_t *held, int64_t *wait_ms);

#endif
