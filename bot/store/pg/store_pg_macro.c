/*
 * store_pg_macro.c - saved rolls (macros) for the PostgreSQL backend
 * (store.h; the table is schema version 4 in store_pg_schema.c, the
 * statements are the MACRO_* rows of store_pg_int.h).
 *
 * Two processes saving the same name at once: the primary key lets one
 * insert win; the other finds the row (BOT_CONFLICT without replace, an
 * update with it), as on SQLite.
 */
#include <stdint.h>
#include <string.h>

#include "store_pg_int.h"

/* A text column of a binary result into buf (cap bytes, NUL included);
 * the store wrote it within its limit, so the cut never happens on a row
 * fray saved. */
static void text_col(const PGresult *r, int row, int col, char *buf,
                     size_t cap)
{
    size_t len = (size_t)PQgetlength(r, row, col);
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, PQgetvalue(r, row, col), len);
    buf[len] = '\0';
}

/* Row `row` of a PG_MACRO_COLS result into *m. */
static void macro_row(const PGresult *r, int row, struct store_macro *m)
{
    m->guild = (uint64_t)store_pg_i64(r, row, 0);
    m->user = (uint64_t)store_pg_i64(r, row, 1);
    text_col(r, row, 2, m->name, sizeof m->name);
    text_col(r, row, 3, m->dice, sizeof m->dice);
    m->by = (uint64_t)store_pg_i64(r, row, 4);
    m->created_ms = store_pg_i64(r, row, 5);
    m->updated_ms = store_pg_i64(r, row, 6);
}

static enum bot_err each_row(const PGresult *r, store_macro_fn *fn, void *ctx)
{
    enum bot_err e = BOT_OK;
    struct store_macro m;
    for (int i = 0; i < PQntuples(r) && e == BOT_OK; i++) {
        macro_row(r, i, &m);
        e = fn(ctx, &m);
    }
    return e;
}

static void scope_args(struct pg_args *a, uint64_t guild, uint64_t user,
                       const char *text)
{
    store_pg_arg_i64(a, (int64_t)guild);
    store_pg_arg_i64(a, (int64_t)user);
    if (text != NULL)
        store_pg_arg_text(a, text);
}

enum bot_err store_pg_macro_put(struct store *base,
                                const struct store_macro *m, bool replace)
{
    struct pg_args a = {0};
    long n = 0;
    scope_args(&a, m->guild, m->user, m->name);
    store_pg_arg_text(&a, m->dice);
    store_pg_arg_i64(&a, (int64_t)m->by);
    store_pg_arg_i64(&a, m->created_ms);
    store_pg_arg_i64(&a, m->updated_ms);
    enum bot_err e = store_pg_run(PG(base),
                                  replace ? PGS_MACRO_SET : PGS_MACRO_ADD, &a,
                                  "saving a macro", &n);
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_CONFLICT, "macro %s exists", m->name);
    return e;
}

enum bot_err store_pg_macro_get(struct store *base, uint64_t guild,
                                uint64_t user, const char *name,
                                struct store_macro *out)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    scope_args(&a, guild, user, name);
    enum bot_err e = store_pg_exec(PG(base), PGS_MACRO_GET, &a,
                                   "reading a macro", &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(base, BOT_NOTFOUND, "no macro %s", name);
    else if (e == BOT_OK)
        macro_row(r, 0, out);
    PQclear(r);
    return e;
}

enum bot_err store_pg_macro_delete(struct store *base, uint64_t guild,
                                   uint64_t user, const char *name)
{
    struct pg_args a = {0};
    long n = 0;
    scope_args(&a, guild, user, name);
    enum bot_err e = store_pg_run(PG(base), PGS_MACRO_DEL, &a,
                                  "deleting a macro", &n);
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_NOTFOUND, "no macro %s", name);
    return e;
}

enum bot_err store_pg_macro_count(struct store *base, uint64_t guild,
                                  uint64_t user, int64_t *n)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    scope_args(&a, guild, user, NULL);
    enum bot_err e = store_pg_exec(PG(base), PGS_MACRO_COUNT, &a,
                                   "counting macros", &r);
    if (e == BOT_OK)
        *n = store_pg_i64(r, 0, 0);
    PQclear(r);
    return e;
}

enum bot_err store_pg_macro_list(struct store *base, uint64_t guild,
                                 uint64_t user, const char *prefix,
                                 size_t max, store_macro_fn *fn, void *ctx)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    scope_args(&a, guild, user, prefix);
    store_pg_arg_i64(&a, max > INT64_MAX ? INT64_MAX : (int64_t)max);
    enum bot_err e = store_pg_exec(PG(base), PGS_MACRO_LIST, &a,
                                   "listing macros", &r);
    if (e == BOT_OK)
        e = each_row(r, fn, ctx);
    PQclear(r);
    return e;
}

enum bot_err store_pg_macro_export(struct store *base, store_macro_fn *fn,
                                   void *ctx)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec(PG(base), PGS_MACRO_EXPORT, NULL,
                                   "exporting macros", &r);
    if (e == BOT_OK)
        e = each_row(r, fn, ctx);
    PQclear(r);
    return e;
}
