/*
 * store_pg_bound.c - the bounds on a fight's history for the PostgreSQL
 * backend (store_bound.c has the rules). hist_note and hist_info run at
 * every change and are prepared; a fold happens once in many changes, so
 * its statements are sent unprepared (store_pg_exec_sql).
 */
#include <libpq-fe.h>

#include "store_pg_int.h"

void store_pg_hist_row(const PGresult *r, int row, struct store_hist_row *h)
{
    *h = (struct store_hist_row){
        .id = store_pg_i64(r, row, 0),
        .channel = (uint64_t)store_pg_i64(r, row, 1),
        .guild = (uint64_t)store_pg_i64(r, row, 2),
        .live = store_pg_i64(r, row, 3) != 0,
        .bytes = store_pg_i64(r, row, 4),
        .lines = store_pg_i64(r, row, 5),
        .folded_to = store_pg_i64(r, row, 6),
    };
}

static enum bot_err hist_row(struct store *base, enum store_pg_stmt id,
                            const struct pg_args *a, uint64_t channel,
                            struct store_hist_row *out)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec(PG(base), id, a, "counting the history",
                                   &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    else if (e == BOT_OK)
        store_pg_hist_row(r, 0, out);
    PQclear(r);
    return e;
}

enum bot_err store_pg_hist_note(struct store *base, uint64_t channel,
                                int64_t bytes, struct store_hist_row *out)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, bytes);
    return hist_row(base, PGS_HIST_NOTE, &a, channel, out);
}

enum bot_err store_pg_hist_info(struct store *base, uint64_t channel,
                                struct store_hist_row *out)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)channel);
    return hist_row(base, PGS_HIST_INFO, &a, channel, out);
}

enum bot_err store_pg_hist_sizes(struct store *base, int64_t id,
                                 int64_t oldest, store_hist_size_fn *fn,
                                 void *ctx)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, id);
    if (oldest > 0)
        store_pg_arg_i64(&a, oldest);
    enum bot_err e = store_pg_exec_sql(
        PG(base),
        oldest > 0 ? "SELECT version, at_ms, (" STORE_PG_LINE_BYTES ")::int8"
                     " FROM enc_change WHERE enc = $1 ORDER BY version"
                     " LIMIT $2"
                   : "SELECT version, at_ms, (" STORE_PG_LINE_BYTES ")::int8"
                     " FROM enc_change WHERE enc = $1 ORDER BY version DESC",
        oldest > 0 ? "ii" : "i", &a, "measuring the history", &r);
    for (int i = 0; e == BOT_OK && i < PQntuples(r); i++)
        e = fn(ctx, store_pg_i64(r, i, 0), store_pg_i64(r, i, 1),
               store_pg_i64(r, i, 2));
    PQclear(r);
    return e;
}

/* One unprepared statement without rows wanted. */
static enum bot_err run_sql(struct store_pg *s, const char *sql,
                            const char *types, const struct pg_args *a)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec_sql(s, sql, types, a,
                                       "folding the history", &r);
    PQclear(r);
    return e;
}

enum bot_err store_pg_hist_fold(struct store *base, int64_t id, int64_t upto,
                                const struct store_change_rec *c,
                                int64_t bytes, int64_t lines)
{
    struct store_pg *s = PG(base);
    enum bot_err e = store_pg_op_begin(s);
    if (e != BOT_OK)
        return e;
    struct pg_args a = {0};
    store_pg_arg_i64(&a, id);
    store_pg_arg_i64(&a, upto);
    e = run_sql(s, "DELETE FROM enc_change WHERE enc = $1 AND version <= $2",
                "ii", &a);
    a.n = 0;
    store_pg_arg_i64(&a, id);
    store_pg_arg_change(&a, c);
    if (e == BOT_OK)
        e = run_sql(s, "INSERT INTO enc_change (enc, version, by_user, at_ms,"
                       " secret, text, detail, gm_detail, by_name)"
                       " VALUES ($1, $2, $3, $4, $5 <> 0, $6, $7, $8, $9)",
                    "iiiiitttt", &a);
    a.n = 0;
    store_pg_arg_i64(&a, id);
    store_pg_arg_i64(&a, bytes);
    store_pg_arg_i64(&a, lines);
    store_pg_arg_i64(&a, upto);
    if (e == BOT_OK)
        e = run_sql(s, "UPDATE encounter SET hist_bytes = $2,"
                       " hist_lines = $3, hist_folded = $4 WHERE id = $1",
                    "iiii", &a);
    return store_pg_op_end(s, e);
}

enum bot_err store_pg_hist_server(struct store *base, uint64_t guild,
                                  int64_t *total, struct store_hist_row *most)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, (int64_t)guild);
    enum bot_err e = store_pg_exec_sql(
        PG(base), "SELECT " STORE_PG_HIST_COLS ","
                  " (sum(hist_bytes) OVER ())::int8 FROM encounter"
                  " WHERE guild = $1 ORDER BY hist_bytes DESC, id LIMIT 1",
        "i", &a, "counting the server's history", &r);
    *total = 0;
    *most = (struct store_hist_row){0};
    if (e == BOT_OK && PQntuples(r) > 0) {
        store_pg_hist_row(r, 0, most);
        *total = store_pg_i64(r, 0, 7);
    }
    PQclear(r);
    return e;
}
