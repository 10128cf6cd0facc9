/*
 * store_sqlite_timer.c - the turn clocks' timers for the SQLite backend
 * (store.h, "turn clock timers").
 *
 * An SQLite database has one writer at a time (the file lock in
 * store_sqlite.c), so a claim is simply the conditional delete; it stays
 * the same statement as PostgreSQL's so both backends behave alike. The
 * statements run a few times per fired timer or changed clock, so they are
 * prepared per call, as the prune ones are.
 */
#include <sqlite3.h>

#include "store_sqlite_int.h"

/* Prepare sql and bind ?1.. to the n values of v. */
static enum bot_err prep(struct store_sqlite *s, const char *sql,
                         const int64_t *v, int n, sqlite3_stmt **st,
                         const char *what)
{
    enum bot_err e = store_sq_prepare(s, sql, st, what);
    if (e != BOT_OK)
        return e;
    for (int i = 0; i < n; i++)
        sqlite3_bind_int64(*st, i + 1, v[i]);
    return BOT_OK;
}

/* Run a statement without rows, text (when not NULL) bound after the n
 * values; the rows it changed into *changed. */
static enum bot_err run(struct store_sqlite *s, const char *sql,
                        const int64_t *v, int n, const char *text,
                        int *changed, const char *what)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = prep(s, sql, v, n, &st, what);
    if (e != BOT_OK)
        return e;
    if (text != NULL)
        sqlite3_bind_text(st, n + 1, text, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    else if (changed != NULL)
        *changed = sqlite3_changes(s->db);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_timer_set(struct store *base, uint64_t channel,
                                uint64_t guild, int64_t due_ms,
                                const char *lang)
{
    int64_t v[3] = {(int64_t)channel, (int64_t)guild, due_ms};
    if (due_ms == 0)
        return run(SQ(base), "DELETE FROM clock_timer WHERE channel = ?1", v,
                   1, NULL, NULL, "clearing the clock's timer");
    return run(SQ(base),
               "INSERT INTO clock_timer (channel, guild, due_ms, lang)"
               " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (channel) DO UPDATE"
               " SET guild = excluded.guild, due_ms = excluded.due_ms,"
               " lang = excluded.lang",
               v, 3, lang, NULL, "setting the clock's timer");
}

/* The shard filter of the reading statements: ?1 id, ?2 count. */
#define SHARD_SQL "(?2 <= 1 OR (guild >> 22) % ?2 = ?1)"

enum bot_err store_sq_timer_next(struct store *base, int shard_id,
                                 int shard_count, int64_t *due_ms)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    int64_t v[2] = {shard_id, shard_count};
    enum bot_err e = prep(s, "SELECT due_ms FROM clock_timer WHERE "
                          SHARD_SQL " ORDER BY due_ms LIMIT 1",
                          v, 2, &st, "reading the next timer");
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *due_ms = sqlite3_column_int64(st, 0);
    else if (rc == SQLITE_DONE)
        e = store__fail(base, BOT_NOTFOUND, "no timer");
    else
        e = store_sq_fail_rc(s, rc, "reading the next timer");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_timer_due(struct store *base, int shard_id,
                                int shard_count, int64_t now_ms,
                                struct store_timer *out, size_t max,
                                size_t *n)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    int64_t v[4] = {shard_id, shard_count, now_ms, (int64_t)max};
    enum bot_err e = prep(s, "SELECT channel, guild, due_ms, lang"
                          " FROM clock_timer WHERE due_ms <= ?3 AND "
                          SHARD_SQL
                          " ORDER BY due_ms, channel LIMIT ?4",
                          v, 4, &st, "reading the due timers");
    if (e != BOT_OK)
        return e;
    int rc = SQLITE_DONE;
    while (*n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        out[*n] = (struct store_timer){
            .channel = (uint64_t)sqlite3_column_int64(st, 0),
            .guild = (uint64_t)sqlite3_column_int64(st, 1),
            .due_ms = sqlite3_column_int64(st, 2),
        };
        store_timer_lang_of((const char *)sqlite3_column_text(st, 3),
                            &out[(*n)++]);
    }
    if (*n < max && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "reading the due timers");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_timer_claim(struct store *base, uint64_t channel,
                                  int64_t due_ms, bool *claimed)
{
    int64_t v[2] = {(int64_t)channel, due_ms};
    int n = 0;
    enum bot_err e = run(SQ(base), "DELETE FROM clock_timer"
                         " WHERE channel = ?1 AND due_ms = ?2", v, 2, NULL, &n,
                         "claiming the clock's timer");
    *claimed = e == BOT_OK && n == 1;
    return e;
}
