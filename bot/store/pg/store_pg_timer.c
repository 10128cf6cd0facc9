/*
 * store_pg_timer.c - the turn clocks' timers for the PostgreSQL backend
 * (store.h, "turn clock timers").
 *
 * A claim is a DELETE conditional on the due time read: when two processes
 * claim one row, the second waits on the first's row lock and, once that
 * commits, deletes nothing, so exactly one fires it. When the first rolls
 * back, the row is back and the second gets it.
 */
#include <stdlib.h>

#include "store_pg_int.h"

enum bot_err store_pg_timer_set(struct store *base, uint64_t channel,
                                uint64_t guild, int64_t due_ms,
                                const char *lang)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)channel);
    if (due_ms == 0)
        return store_pg_run(PG(base), PGS_TIMER_CLEAR, &a,
                            "clearing the clock's timer", NULL);
    store_pg_arg_i64(&a, (int64_t)guild);
    store_pg_arg_i64(&a, due_ms);
    store_pg_arg_text(&a, lang);
    return store_pg_run(PG(base), PGS_TIMER_SET, &a,
                        "setting the clock's timer", NULL);
}

enum bot_err store_pg_timer_next(struct store *base, int shard_id,
                                 int shard_count, int64_t *due_ms)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, shard_id);
    store_pg_arg_i64(&a, shard_count);
    enum bot_err e = store_pg_exec(PG(base), PGS_TIMER_NEXT, &a,
                                   "reading the next timer", &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(base, BOT_NOTFOUND, "no timer");
    else if (e == BOT_OK)
        *due_ms = store_pg_i64(r, 0, 0);
    PQclear(r);
    return e;
}

enum bot_err store_pg_timer_due(struct store *base, int shard_id,
                                int shard_count, int64_t now_ms,
                                struct store_timer *out, size_t max,
                                size_t *n)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, shard_id);
    store_pg_arg_i64(&a, shard_count);
    store_pg_arg_i64(&a, now_ms);
    store_pg_arg_i64(&a, (int64_t)max);
    enum bot_err e = store_pg_exec(PG(base), PGS_TIMER_DUE, &a,
                                   "reading the due timers", &r);
    for (int i = 0; e == BOT_OK && i < PQntuples(r) && *n < max; i++) {
        out[*n] = (struct store_timer){
            .channel = (uint64_t)store_pg_i64(r, i, 0),
            .guild = (uint64_t)store_pg_i64(r, i, 1),
            .due_ms = store_pg_i64(r, i, 2),
        };
        store_timer_lang_of(PQgetvalue(r, i, 3), &out[(*n)++]);
    }
    PQclear(r);
    return e;
}

enum bot_err store_pg_timer_claim(struct store *base, uint64_t channel,
                                  int64_t due_ms, bool *claimed)
{
    struct pg_args a = {0};
    long n = 0;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, due_ms);
    enum bot_err e = store_pg_run(PG(base), PGS_TIMER_CLAIM, &a,
                                  "claiming the clock's timer", &n);
    *claimed = e == BOT_OK && n == 1;
    return e;
}
