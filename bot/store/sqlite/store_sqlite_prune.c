/*
 * store_sqlite_prune.c - retention, per-server quotas and the database's
 * size for the SQLite backend (store.h, "retention and quotas").
 *
 * These run a few times an hour (the daemon's prune timer) or once per
 * /combat start, so their statements are prepared per call rather than
 * kept with the hot ones in store_sqlite.c.
 *
 * Space: a new database is created with auto_vacuum=INCREMENTAL
 * (store_sqlite.c), so after a prune the freed pages are handed back to
 * the file system a bounded number at a time (STORE_VACUUM_PAGES) and the
 * file shrinks at the next WAL checkpoint. A database created before that
 * keeps auto_vacuum=NONE: SQLite reuses its free pages, so it stops
 * growing, but it only shrinks after a one-off VACUUM with fray stopped
 * (docs/internals/store.md).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_sqlite_int.h"

/* Run sql with ?1 = a (and ?2 = b), a statement without rows; the rows it
 * changed into *changed (may be NULL). */
static enum bot_err exec2(struct store_sqlite *s, const char *sql, int64_t a,
                          int64_t b, int64_t *changed, const char *what)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s, sql, &st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, a);
    if (sqlite3_bind_parameter_count(st) >= 2)
        sqlite3_bind_int64(st, 2, b);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    else if (changed != NULL)
        *changed += sqlite3_changes(s->db);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_enc_set_guild(struct store *base, uint64_t channel,
                                     uint64_t guild)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    int64_t n = 0;
    store_sq_live_hist_forget(s, 0); /* the count's row names the server */
    if (e == BOT_OK)
        e = exec2(s,
                  "UPDATE encounter SET guild = ?2"
                  " WHERE channel = ?1 AND ended_ms IS NULL",
                  (int64_t)channel, (int64_t)guild, &n,
                  "setting the encounter's server");
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    return e;
}

enum bot_err store_sq_guild_count(struct store *base, uint64_t guild,
                                   int64_t *live, int64_t *archived)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_guard(s);
    if (e == BOT_OK)
        e = store_sq_prepare(s,
                             "SELECT count(*) FILTER (WHERE ended_ms IS NULL),"
                             " count(*) FILTER (WHERE ended_ms IS NOT NULL)"
                             " FROM encounter WHERE guild = ?1",
                             &st, "counting the server's encounters");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *live = sqlite3_column_int64(st, 0);
        *archived = sqlite3_column_int64(st, 1);
    } else {
        e = store_sq_fail_rc(s, rc, "counting the server's encounters");
    }
    sqlite3_finalize(st);
    return e;
}

/* Up to max encounter ids (and their final versions) from a query whose
 * ?1..?3 are a, b, c, into ids[] / vers[]; their number into *n. */
static enum bot_err pick(struct store_sqlite *s, const char *sql, int64_t a,
                         int64_t b, int64_t c, int64_t *ids, int64_t *vers,
                         size_t max, size_t *n, const char *what)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s, sql, &st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, a);
    sqlite3_bind_int64(st, 2, b);
    sqlite3_bind_int64(st, 3, c);
    int rc;
    *n = 0;
    while (*n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        ids[*n] = sqlite3_column_int64(st, 0);
        vers[*n] = sqlite3_column_int64(st, 1);
        (*n)++;
    }
    if (*n < max && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

/* The archive quota: a server's archived encounters beyond the newest
 * max_archived, oldest first, none that ended at or after keep_after. */
static const char quota_sql[] =
    "SELECT id, version FROM (SELECT id, version, ended_ms, row_number()"
    " OVER (PARTITION BY guild ORDER BY ended_ms DESC, id DESC) AS rn"
    " FROM encounter WHERE ended_ms IS NOT NULL AND guild <> 0)"
    " WHERE rn > ?1 AND ended_ms < ?2 ORDER BY ended_ms, id LIMIT ?3";

/* Retention: archived encounters that ended before ?1 and still have
 * more than their final version (an undo chain is exactly the other kept
 * versions), or history lines when they go too (?2 = 0). */
static const char trim_sql[] =
    "SELECT id, version FROM encounter e"
    " WHERE ended_ms IS NOT NULL AND ended_ms < ?1"
    " AND (length(undo) > 0 OR (?2 = 0 AND EXISTS"
    " (SELECT 1 FROM enc_change c WHERE c.enc = e.id)))"
    " ORDER BY ended_ms, id LIMIT ?3";

static enum bot_err delete_one(struct store_sqlite *s, int64_t id,
                               struct store_prune_stats *st)
{
    enum bot_err e = exec2(s, "DELETE FROM enc_change WHERE enc = ?1", id, 0,
                           &st->changes, "deleting an encounter's history");
    if (e == BOT_OK)
        e = exec2(s, "DELETE FROM enc_version WHERE enc = ?1", id, 0,
                  &st->versions, "deleting an encounter's versions");
    if (e == BOT_OK)
        e = exec2(s, "DELETE FROM encounter WHERE id = ?1", id, 0, NULL,
                  "deleting an encounter");
    if (e == BOT_OK)
        st->deleted++;
    return e;
}

static enum bot_err trim_one(struct store_sqlite *s, int64_t id,
                             int64_t version, bool keep_history,
                             struct store_prune_stats *st)
{
    enum bot_err e = exec2(s,
                           "DELETE FROM enc_version"
                           " WHERE enc = ?1 AND version <> ?2",
                           id, version, &st->versions,
                           "trimming an encounter's versions");
    if (e == BOT_OK && !keep_history)
        e = exec2(s, "DELETE FROM enc_change WHERE enc = ?1", id, 0,
                  &st->changes, "trimming an encounter's history");
    if (e == BOT_OK)
        e = exec2(s, "UPDATE encounter SET undo = x'',"
                     " hist_bytes = hist_bytes * ?2,"
                     " hist_lines = hist_lines * ?2 WHERE id = ?1",
                  id, keep_history ? 1 : 0, NULL,
                  "trimming an encounter's undo chain");
    if (e == BOT_OK)
        st->trimmed++;
    return e;
}

static enum bot_err prune_batch(struct store_sqlite *s,
                                const struct store_prune_cfg *cfg,
                                struct store_prune_stats *st)
{
    int64_t ids[STORE_PRUNE_BATCH_MAX], vers[STORE_PRUNE_BATCH_MAX];
    size_t n = 0, done = 0;
    int64_t limit = (int64_t)cfg->batch;
    enum bot_err e = BOT_OK;
    if (cfg->max_archived > 0) {
        e = pick(s, quota_sql, cfg->max_archived, cfg->keep_after_ms, limit,
                 ids, vers, cfg->batch, &n, "finding fights over the quota");
        for (size_t i = 0; i < n && e == BOT_OK; i++)
            e = delete_one(s, ids[i], st);
        done = n;
    }
    if (e == BOT_OK && done < cfg->batch) {
        int64_t before = cfg->trim_before_ms < cfg->keep_after_ms
                             ? cfg->trim_before_ms
                             : cfg->keep_after_ms;
        e = pick(s, trim_sql, before, cfg->keep_history, limit - (int64_t)done,
                 ids, vers, cfg->batch - done, &n,
                 "finding fights past retention");
        for (size_t i = 0; i < n && e == BOT_OK; i++)
            e = trim_one(s, ids[i], vers[i], cfg->keep_history, st);
        done += n;
    }
    if (e == BOT_OK)
        st->more = done == cfg->batch;
    return e;
}

enum bot_err store_sq_enc_prune(struct store *base,
                                 const struct store_prune_cfg *cfg,
                                 struct store_prune_stats *st)
{
    struct store_sqlite *s = SQ(base);
    struct store_prune_stats got = {0};
    enum bot_err e = store_sq_op_begin(s);
    if (e != BOT_OK)
        return e;
    /* Only ended fights are cut, but a remembered save is cheap to lose
     * and a wrong one would break a chain. */
    store_sq_live_drop(s);
    e = store_sq_op_end(s, prune_batch(s, cfg, &got));
    if (e != BOT_OK)
        return e;
    st->trimmed += got.trimmed;
    st->deleted += got.deleted;
    st->versions += got.versions;
    st->changes += got.changes;
    st->more = got.more;
    /* Give freed pages back, also those a pass before this one left;
     * outside a caller's transaction only, where it is its own short
     * write. A no-op without auto_vacuum or free pages. */
    if (s->depth == 0) {
        char sql[48];
        snprintf(sql, sizeof sql, "PRAGMA incremental_vacuum(%d)",
                 STORE_VACUUM_PAGES);
        int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            e = store_sq_fail_rc(s, rc, "giving free pages back");
    }
    return e;
}

enum bot_err store_sq_size(struct store *base, int64_t *bytes)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s,
                                      "SELECT c.page_count * z.page_size"
                                      " FROM pragma_page_count() c,"
                                      " pragma_page_size() z",
                                      &st, "reading the database size");
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *bytes = sqlite3_column_int64(st, 0);
    else
        e = store_sq_fail_rc(s, rc, "reading the database size");
    sqlite3_finalize(st);
    return e;
}
