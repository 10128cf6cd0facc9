/*
 * shard.c - the shard setting, Discord's routing rule and the identify
 * bucket gate.
 */
#include "shard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

/* Digits only, value in [min, max]. */
static bool parse_num(const char *p, size_t n, long min, long max, long *out)
{
    char buf[16], *end;
    long v;

    if (n == 0 || n >= sizeof buf)
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    errno = 0;
    v = strtol(buf, &end, 10);
    if (errno == ERANGE || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool shard_parse(const char *text, struct shard *out, char *why,
                 size_t whylen)
{
    const char *slash = strchr(text, '/');
    long id, count;

    if (strcmp(text, "auto") == 0) {
        *out = (struct shard){.id = 0, .count = 0};
        return true;
    }
    if (!slash || !parse_num(text, (size_t)(slash - text), 0, LONG_MAX / 2,
                             &id) ||
        !parse_num(slash + 1, strlen(slash + 1), 0, LONG_MAX / 2, &count)) {
        snprintf(why, whylen, "\"%.40s\" is not ID/COUNT (e.g. 0/2) or auto",
                 text);
        return false;
    }
    if (count < 1 || count > SHARD_MAX_COUNT) {
        snprintf(why, whylen, "shard %ld/%ld: the count must be 1..%d", id,
                 count, SHARD_MAX_COUNT);
        return false;
    }
    if (id >= count) {
        snprintf(why, whylen, "shard %ld/%ld: the id must be below the count",
                 id, count);
        return false;
    }
    *out = (struct shard){.id = (int)id, .count = (int)count};
    return true;
}

void shard_format(const struct shard *sh, char *buf, size_t cap)
{
    if (sh->count == 0)
        snprintf(buf, cap, "auto");
    else
        snprintf(buf, cap, "%d/%d", sh->id, sh->count);
}

bool shard_apply_env(struct shard *sh, const char *env, char *why,
                     size_t whylen)
{
    long id;

    if (env == NULL || *env == '\0')
        return true;
    if (!parse_num(env, strlen(env), 0, SHARD_MAX_COUNT - 1, &id)) {
        snprintf(why, whylen, "%s=\"%.20s\" is not a shard id (0..%d)",
                 SHARD_ENV_ID, env, SHARD_MAX_COUNT - 1);
        return false;
    }
    if (sh->count > 0 && id >= sh->count) {
        snprintf(why, whylen,
                 "shard %ld/%d: the id must be below the count (%s=%s)", id,
                 sh->count, SHARD_ENV_ID, env);
        return false;
    }
    sh->id = (int)id;
    return true;
}

bool shard_settle(struct shard *sh, int64_t recommended, char *why,
                  size_t whylen)
{
    if (sh->count == 0) {
        if (recommended < 1)
            recommended = 1;
        if (recommended > SHARD_MAX_COUNT)
            recommended = SHARD_MAX_COUNT;
        if (sh->id >= recommended) {
            snprintf(why, whylen,
                     "shard %d/auto: Discord recommends %lld shard(s), so "
                     "ids 0..%lld; this process is not needed (stop it, or "
                     "set a fixed shard = ID/COUNT everywhere)",
                     sh->id, (long long)recommended,
                     (long long)recommended - 1);
            return false;
        }
        sh->count = (int)recommended;
    }
    return true;
}

bool shard_is_sharded(const struct shard *sh)
{
    return sh->count > 1;
}

int shard_bucket(const struct shard *sh, int64_t max_concurrency)
{
    if (max_concurrency < 1)
        max_concurrency = 1;
    return (int)(sh->id % max_concurrency);
}

int shard_of_guild(uint64_t guild_id, int count)
{
    if (count < 1)
        count = 1;
    return (int)((guild_id >> 22) % (uint64_t)count);
}

bool shard_kv_key(const struct shard *sh, const char *base, char *out,
                  size_t cap)
{
    int n = shard_is_sharded(sh)
                ? snprintf(out, cap, "%s:%d/%d", base, sh->id, sh->count)
                : snprintf(out, cap, "%s", base);
    return n >= 0 && (size_t)n < cap;
}

/* ---- identify slots ---- */

static int64_t slot_start(int64_t slot)
{
    return slot * SHARD_IDENTIFY_SLOT_MS;
}

enum bot_err shard_identify_gate(struct store *s, const struct shard *sh,
                                 int64_t max_concurrency, int64_t wall_ms,
                                 int64_t *held, int64_t *wait_ms)
{
    int bucket = shard_bucket(sh, max_concurrency);
    int64_t slot;

    *wait_ms = 0;
    if (*held >= 0) {
        int64_t start = slot_start(*held);
        if (wall_ms < start) {
            *wait_ms = start - wall_ms;
            return BOT_OK;
        }
        if (wall_ms - start <= SHARD_IDENTIFY_LATE_MS) {
            *held = -1;              /* used now */
            return BOT_OK;
        }
        *held = -1;                  /* woke too late: claim a later one */
    }
    /* The current slot only while its start is recent enough. */
    slot = wall_ms / SHARD_IDENTIFY_SLOT_MS;
    if (wall_ms - slot_start(slot) > SHARD_IDENTIFY_LATE_MS)
        slot++;
    for (int i = 0; i < SHARD_IDENTIFY_TRIES; i++, slot++) {
        char key[STORE_MAX_INTERACTION_ID];
        enum bot_err e;

        snprintf(key, sizeof key, "%s%lld:%d:%lld", SHARD_CLAIM_PREFIX,
                 (long long)(max_concurrency < 1 ? 1 : max_concurrency),
                 bucket, (long long)slot);
        e = store_interaction_record(s, key, 0, 0, wall_ms);
        if (e == BOT_CONFLICT)
            continue;                /* another process has that slot */
        if (e != BOT_OK)
            return e;
        if (slot_start(slot) > wall_ms) {
            *held = slot;
            *wait_ms = slot_start(slot) - wall_ms;
        }
        return BOT_OK;
    }
    return BOT_LIMIT;
}
