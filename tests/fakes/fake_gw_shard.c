/*
 * fake_gw_shard.c - sharding as Discord does it: IDENTIFY's "shard" checked
 * (4010 invalid, 4011 required), one IDENTIFY per 5 s per max_concurrency
 * bucket (id % max_concurrency), and events routed to the session whose
 * shard owns the guild: (guild_id >> 22) % count, no guild -> shard 0.
 * Several sessions, one per shard, live side by side.
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int at_least_1(int v)
{
    return v < 1 ? 1 : v;
}

static void shard_fail(struct fake_gw_conn *c, int code, const char *reason,
                       const char *detail)
{
    char kind[16];
    snprintf(kind, sizeof kind, "gw_%d", code);
    fake_violation(c->srv, kind, -1, "conn %d: %s", c->id, detail);
    fake_gw_close(c, code, reason, false);
}

bool fake_gw_shard_check(struct fake_gw_conn *c, const json_t *shard,
                         int *id, int *count, bool *sharded)
{
    struct fake_server *s = c->srv;
    json_t *ji = json_array_get(shard, 0), *jn = json_array_get(shard, 1);
    json_int_t i = json_integer_value(ji), n = json_integer_value(jn);
    char detail[96];

    *id = 0;
    *count = 1;
    *sharded = shard != NULL && !json_is_null(shard);
    if (*sharded &&
        (!json_is_array(shard) || json_array_size(shard) != 2 ||
         !json_is_integer(ji) || !json_is_integer(jn) || n < 1 ||
         n > FAKE_GW_MAX_SHARDS || i < 0 || i >= n)) {
        char *text = fake_dump(shard);
        snprintf(detail, sizeof detail, "invalid shard %.60s",
                 text ? text : "?");
        free(text);
        shard_fail(c, 4010, "Invalid shard.", detail);
        return false;
    }
    if (*sharded) {
        *id = (int)i;
        *count = (int)n;
    }
    if (s->require_shards > 1 && *count < s->require_shards) {
        snprintf(detail, sizeof detail,
                 "identified with %d shard(s), %d required", *count,
                 s->require_shards);
        shard_fail(c, 4011, "Sharding required.", detail);
        return false;
    }
    return true;
}

bool fake_gw_identify_slot(struct fake_gw_conn *c, int shard_id)
{
    struct fake_server *s = c->srv;
    int mc = at_least_1(s->max_concurrency);
    int bucket = shard_id % mc;
    int64_t now = fake_now_us();
    int64_t *last;

    if (bucket >= FAKE_GW_MAX_CONCURRENCY)
        bucket %= FAKE_GW_MAX_CONCURRENCY;   /* shares a tracked slot */
    last = &s->bucket_identify_us[bucket];
    if (s->opt.identify_gap_ms > 0 && *last &&
        now - *last < (int64_t)s->opt.identify_gap_ms * 1000) {
        fake_violation(s, "identify_too_fast", -1,
                       "conn %d: identify of shard %d %.0f ms after the "
                       "previous one of bucket %d (max_concurrency %d)",
                       c->id, shard_id, (double)(now - *last) / 1000.0,
                       bucket, mc);
        fake_gw_send_op(c, 9, json_false());
        return false;
    }
    *last = now;
    return true;
}

static bool owns(const struct fake_session *ss, int shard)
{
    return ss->alive && ss->shard_id == shard;
}

/* The session for shard: the current one if it runs that shard (unsharded
 * fakes behave as before), else the newest live session of that shard. */
static struct fake_session *session_of(struct fake_server *s, int shard)
{
    struct fake_session *best = NULL;
    if (s->current && owns(s->current, shard))
        return s->current;
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++) {
        struct fake_session *ss = s->sessions[i];
        if (ss && ss->sharded && owns(ss, shard) &&
            (best == NULL || ss->created_us > best->created_us))
            best = ss;
    }
    return best;
}

/* Discord's routing for an event of guild (NULL: no guild): the newest
 * session whose [id, count] owns it; the current session first. */
static struct fake_session *route(struct fake_server *s, const char *guild)
{
    uint64_t g = guild ? strtoull(guild, NULL, 10) : 0;
    struct fake_session *cur = s->current, *best = NULL;
    if (cur && cur->alive &&
        (int)((g >> 22) % (uint64_t)at_least_1(cur->shard_count)) ==
            cur->shard_id)
        return cur;
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++) {
        struct fake_session *ss = s->sessions[i];
        if (ss && ss->alive && ss->sharded &&
            (int)((g >> 22) % (uint64_t)at_least_1(ss->shard_count)) ==
                ss->shard_id &&
            (best == NULL || ss->created_us > best->created_us))
            best = ss;
    }
    return best;
}

static int64_t deliver(struct fake_server *s, struct fake_session *ss,
                       const char *t, json_t *d, long ix, bool *live)
{
    bool now = ss && ss->alive && ss->conn &&
               ss->conn->state == FAKE_GW_READY;
    int64_t seq = fake_gw_dispatch_to(s, ss, t, json_incref(d), ix);
    if (seq >= 0) {
        *live = *live || now;
        if (ix >= 0 && (size_t)ix < s->nix)
            s->ix[ix].deliveries++;
    }
    return seq;
}

int64_t fake_gw_dispatch_routed(struct fake_server *s, const json_t *force,
                                const char *t, json_t *d, long ix,
                                bool *live)
{
    int64_t first = -1;
    *live = false;
    if (json_is_integer(force)) {
        first = deliver(s, session_of(s, (int)json_integer_value(force)), t,
                        d, ix, live);
    } else if (json_is_array(force)) {
        size_t i;
        const json_t *v;
        json_array_foreach(force, i, v) {
            int64_t seq = deliver(s, session_of(s, (int)json_integer_value(v)),
                                  t, d, ix, live);
            if (first < 0)
                first = seq;
        }
    } else {
        first = deliver(s, route(s, json_string_value(
                                        json_object_get(d, "guild_id"))),
                        t, d, ix, live);
    }
    json_decref(d);
    return first;
}

void fake_gw_shard_config(struct fake_server *s, const json_t *body)
{
    json_t *v;
    if ((v = json_object_get(body, "shards")) && json_integer_value(v) >= 1 &&
        json_integer_value(v) <= FAKE_GW_MAX_SHARDS)
        s->shards = (int)json_integer_value(v);
    if ((v = json_object_get(body, "max_concurrency")) &&
        json_integer_value(v) >= 1 &&
        json_integer_value(v) <= FAKE_GW_MAX_CONCURRENCY)
        s->max_concurrency = (int)json_integer_value(v);
    if ((v = json_object_get(body, "require_shards")) &&
        json_integer_value(v) >= 0 &&
        json_integer_value(v) <= FAKE_GW_MAX_SHARDS)
        s->require_shards = (int)json_integer_value(v);
}

json_t *fake_gw_shards_json(const struct fake_server *s)
{
    json_t *list = json_array();
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++) {
        const struct fake_session *ss = s->sessions[i];
        if (ss == NULL || !ss->alive)
            continue;
        json_array_append_new(list, json_pack(
            "{s:s,s:[i,i],s:b,s:b,s:I}", "session_id", ss->id, "shard",
            ss->shard_id, at_least_1(ss->shard_count), "sharded",
            ss->sharded, "ready",
            ss->conn != NULL && ss->conn->state == FAKE_GW_READY, "seq",
            (json_int_t)ss->seq));
    }
    return json_pack("{s:i,s:i,s:i,s:o}", "shards", at_least_1(s->shards),
                     "max_concurrency", at_least_1(s->max_concurrency),
                     "require_shards", s->require_shards, "sessions", list);
}
