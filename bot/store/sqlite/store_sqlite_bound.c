/*
 * store_sqlite_bound.c - the bounds on a fight's history for the SQLite
 * backend: the sizes of a fight's lines, a fold, and a server's total
 * (store_bound.c has the rules). A fold happens once in many changes, so
 * these statements are prepared per call.
 */
#include <sqlite3.h>

#include "store_sqlite_int.h"
#include "store_sqlite_schema.h"

enum bot_err store_sq_hist_sizes(struct store *base, int64_t id,
                                 int64_t oldest, store_hist_size_fn *fn,
                                 void *ctx)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(
        s, oldest > 0 ? "SELECT version, at_ms, " STORE_SQ_LINE_BYTES
                        " FROM enc_change WHERE enc = ?1"
                        " ORDER BY version LIMIT ?2"
                      : "SELECT version, at_ms, " STORE_SQ_LINE_BYTES
                        " FROM enc_change WHERE enc = ?1"
                        " ORDER BY version DESC",
        &st, "measuring the history");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, id);
    if (oldest > 0)
        sqlite3_bind_int64(st, 2, oldest);
    int rc;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        e = fn(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
               sqlite3_column_int64(st, 2));
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "measuring the history");
    sqlite3_finalize(st);
    return e;
}

/* One prepared-per-call statement with int64 parameters ?1.. */
static enum bot_err run_i(struct store_sqlite *s, const char *sql,
                          const int64_t *v, int n, const char *what)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s, sql, &st, what);
    if (e != BOT_OK)
        return e;
    for (int i = 0; i < n; i++)
        sqlite3_bind_int64(st, i + 1, v[i]);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

static enum bot_err insert_summary(struct store_sqlite *s, int64_t id,
                                   const struct store_change_rec *c)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(
        s, "INSERT INTO enc_change (enc, version, by_user, at_ms, secret,"
           " text, detail, gm_detail, by_name)"
           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        &st, "folding the history");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, id);
    store_sq_bind_change(st, c);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "folding the history");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_hist_fold(struct store *base, int64_t id, int64_t upto,
                                const struct store_change_rec *summary,
                                int64_t bytes, int64_t lines)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_op_begin(s);
    if (e != BOT_OK)
        return e;
    store_sq_live_hist_forget(s, id);
    int64_t del[2] = {id, upto};
    e = run_i(s, "DELETE FROM enc_change WHERE enc = ?1 AND version <= ?2",
              del, 2, "folding the history");
    if (e == BOT_OK)
        e = insert_summary(s, id, summary);
    int64_t set[4] = {id, bytes, lines, upto};
    if (e == BOT_OK)
        e = run_i(s, "UPDATE encounter SET hist_bytes = ?2, hist_lines = ?3,"
                     " hist_folded = ?4 WHERE id = ?1",
                  set, 4, "folding the history");
    return store_sq_op_end(s, e);
}

enum bot_err store_sq_hist_server(struct store *base, uint64_t guild,
                                  int64_t *total, struct store_hist_row *most)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(
        s, "SELECT " STORE_SQ_HIST_COLS ", sum(hist_bytes) OVER ()"
           " FROM encounter WHERE guild = ?1"
           " ORDER BY hist_bytes DESC, id LIMIT 1",
        &st, "counting the server's history");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
    int rc = sqlite3_step(st);
    *total = 0;
    *most = (struct store_hist_row){0};
    if (rc == SQLITE_ROW) {
        store_sq_hist_row(st, most);
        *total = sqlite3_column_int64(st, 7);
    } else if (rc != SQLITE_DONE) {
        e = store_sq_fail_rc(s, rc, "counting the server's history");
    }
    sqlite3_finalize(st);
    return e;
}
