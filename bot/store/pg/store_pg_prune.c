/*
 * store_pg_prune.c - retention, per-server quotas and the database's size
 * for the PostgreSQL backend (store.h, "retention and quotas").
 *
 * Several fray processes may prune the same database at once: each batch
 * is one transaction of plain DELETEs and UPDATEs by id, so the second
 * process waits on the first one's row locks and then finds nothing left
 * to delete. Pruning twice is harmless, only wasted work. Freed space is
 * reused by PostgreSQL after its autovacuum; the files shrink only after
 * a VACUUM FULL the operator runs (docs/internals/store.md).
 */
#include <stdlib.h>

#include "store_pg_int.h"

enum bot_err store_pg_enc_set_guild(struct store *base, uint64_t channel,
                                    uint64_t guild)
{
    struct pg_args a = {0};
    long n = 0;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, (int64_t)guild);
    enum bot_err e = store_pg_run(PG(base), PGS_SET_GUILD, &a,
                                  "setting the encounter's server", &n);
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    return e;
}

enum bot_err store_pg_guild_count(struct store *base, uint64_t guild,
                                  int64_t *live, int64_t *archived)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, (int64_t)guild);
    enum bot_err e = store_pg_exec(PG(base), PGS_GUILD_COUNT, &a,
                                   "counting the server's encounters", &r);
    if (e == BOT_OK) {
        *live = store_pg_i64(r, 0, 0);
        *archived = store_pg_i64(r, 0, 1);
    }
    PQclear(r);
    return e;
}

/* Run a picking statement (?1..?3 = x, y, limit); its rows in *out. */
static enum bot_err pick(struct store_pg *s, enum store_pg_stmt id, int64_t x,
                         int64_t y, int64_t limit, const char *what,
                         PGresult **out)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, x);
    store_pg_arg_i64(&a, y);
    store_pg_arg_i64(&a, limit);
    return store_pg_exec(s, id, &a, what, out);
}

/* Statement id with ?1 = enc (and ?2 = version when with_version). */
static enum bot_err by_enc(struct store_pg *s, enum store_pg_stmt id,
                           int64_t enc, int64_t version, bool with_version,
                           int64_t *changed, const char *what)
{
    struct pg_args a = {0};
    long n = 0;
    store_pg_arg_i64(&a, enc);
    if (with_version)
        store_pg_arg_i64(&a, version);
    enum bot_err e = store_pg_run(s, id, &a, what, &n);
    if (e == BOT_OK && changed != NULL)
        *changed += n;
    return e;
}

static enum bot_err delete_some(struct store_pg *s, const PGresult *r,
                                struct store_prune_stats *st)
{
    enum bot_err e = BOT_OK;
    for (int i = 0; i < PQntuples(r) && e == BOT_OK; i++) {
        int64_t id = store_pg_i64(r, i, 0);
        e = by_enc(s, PGS_DEL_CHG, id, 0, false, &st->changes,
                   "deleting an encounter's history");
        if (e == BOT_OK)
            e = by_enc(s, PGS_DEL_VER, id, 0, false, &st->versions,
                       "deleting an encounter's versions");
        if (e == BOT_OK)
            e = by_enc(s, PGS_DEL_ENC, id, 0, false, NULL,
                       "deleting an encounter");
        if (e == BOT_OK)
            st->deleted++;
    }
    return e;
}

static enum bot_err trim_some(struct store_pg *s, const PGresult *r,
                              bool keep_history, struct store_prune_stats *st)
{
    enum bot_err e = BOT_OK;
    for (int i = 0; i < PQntuples(r) && e == BOT_OK; i++) {
        int64_t id = store_pg_i64(r, i, 0);
        e = by_enc(s, PGS_TRIM_VER, id, store_pg_i64(r, i, 1), true,
                   &st->versions, "trimming an encounter's versions");
        if (e == BOT_OK && !keep_history)
            e = by_enc(s, PGS_DEL_CHG, id, 0, false, &st->changes,
                       "trimming an encounter's history");
        if (e == BOT_OK)
            e = by_enc(s, PGS_TRIM_UNDO, id, keep_history ? 1 : 0, true,
                       NULL, "trimming an encounter's undo chain");
        if (e == BOT_OK)
            st->trimmed++;
    }
    return e;
}

static enum bot_err prune_batch(struct store_pg *s,
                                const struct store_prune_cfg *cfg,
                                struct store_prune_stats *st)
{
    PGresult *r = NULL;
    int64_t limit = (int64_t)cfg->batch, done = 0;
    enum bot_err e = BOT_OK;
    if (cfg->max_archived > 0) {
        e = pick(s, PGS_PRUNE_QUOTA, cfg->max_archived, cfg->keep_after_ms,
                 limit, "finding fights over the quota", &r);
        if (e == BOT_OK) {
            done = PQntuples(r);
            e = delete_some(s, r, st);
        }
        PQclear(r);
        r = NULL;
    }
    if (e == BOT_OK && done < limit) {
        int64_t before = cfg->trim_before_ms < cfg->keep_after_ms
                             ? cfg->trim_before_ms
                             : cfg->keep_after_ms;
        e = pick(s, PGS_PRUNE_TRIM, before, cfg->keep_history,
                 limit - done, "finding fights past retention", &r);
        if (e == BOT_OK) {
            done += PQntuples(r);
            e = trim_some(s, r, cfg->keep_history, st);
        }
        PQclear(r);
    }
    if (e == BOT_OK)
        st->more = done == limit;
    return e;
}

enum bot_err store_pg_enc_prune(struct store *base,
                                const struct store_prune_cfg *cfg,
                                struct store_prune_stats *st)
{
    struct store_pg *s = PG(base);
    struct store_prune_stats got = {0};
    enum bot_err e = store_pg_op_begin(s);
    if (e != BOT_OK)
        return e;
    e = store_pg_op_end(s, prune_batch(s, cfg, &got));
    if (e == BOT_OK) {
        st->trimmed += got.trimmed;
        st->deleted += got.deleted;
        st->versions += got.versions;
        st->changes += got.changes;
        st->more = got.more;
    }
    return e;
}

enum bot_err store_pg_size(struct store *base, int64_t *bytes)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec(PG(base), PGS_SIZE, NULL,
                                   "reading the database size", &r);
    if (e == BOT_OK)
        *bytes = store_pg_i64(r, 0, 0);
    PQclear(r);
    return e;
}
