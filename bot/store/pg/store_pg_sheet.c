/*
 * store_pg_sheet.c - saved sheets (characters and NPC templates) for the
 * PostgreSQL backend (store.h "saved sheets"; the tables are schema
 * version 4 in store_pg_schema.c, as SQLite's).
 *
 * These run once per /character or /npc command, not per fight turn, so
 * they are sent unprepared (store_pg_exec_sql) rather than added to the
 * statements every connection prepares. A taken name is an INSERT ... ON
 * CONFLICT DO NOTHING that inserts nothing, never an SQL error, so it does
 * not abort the caller's transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "store_pg_int.h"

#define SHEET_COLS                                                             \
    "kind, guild, owner, name, system, created_ms, updated_ms, undo_tag,"     \
    " undo_doc, doc, EXISTS (SELECT 1 FROM sheet_use u WHERE u.sheet ="       \
    " sheet.id)::int4::int8"
/* $1 kind, $2 guild, $3 owner, $4 name_key */
#define SHEET_BY_KEY "kind = $1 AND guild = $2 AND owner = $3 AND name_key = $4"

static void arg_key(struct pg_args *a, const struct store_sheet_key *k)
{
    store_pg_arg_i64(a, (int64_t)k->kind);
    store_pg_arg_i64(a, (int64_t)k->guild);
    store_pg_arg_i64(a, (int64_t)k->owner);
    if (k->name != NULL)
        store_pg_arg_text(a, k->name);
}

static void arg_text_or_null(struct pg_args *a, const char *v)
{
    if (v != NULL)
        store_pg_arg_text(a, v);
    else
        store_pg_arg_null(a);
}

static char *col_text(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

/* Row `row` of a SHEET_COLS result into sh, borrowed from r. */
static void row_borrow(const PGresult *r, int row, bool with_doc,
                       struct store_sheet *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->kind = (enum store_sheet_kind)store_pg_i64(r, row, 0);
    sh->guild = (uint64_t)store_pg_i64(r, row, 1);
    sh->owner = (uint64_t)store_pg_i64(r, row, 2);
    sh->name = col_text(r, row, 3);
    sh->system = col_text(r, row, 4);
    sh->created_ms = store_pg_i64(r, row, 5);
    sh->updated_ms = store_pg_i64(r, row, 6);
    if (with_doc) {
        sh->undo_tag = col_text(r, row, 7);
        sh->undo_doc = col_text(r, row, 8);
        sh->doc = col_text(r, row, 9);
    }
    sh->used = store_pg_i64(r, row, 10) != 0;
}

/* Run sql (no rows wanted); the rows it changed into *n. */
static enum bot_err run(struct store *base, const char *sql, const char *types,
                        const struct pg_args *a, long *n, const char *what)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec_sql(PG(base), sql, types, a, what, &r);
    if (e == BOT_OK && n != NULL)
        *n = strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return e;
}

static enum bot_err insert_row(struct store *base, const struct store_sheet *sh,
                               const char *key, long *n)
{
    struct pg_args a = {0};
    struct store_sheet_key k = {sh->kind, sh->guild, sh->owner, key};
    arg_key(&a, &k);
    store_pg_arg_text(&a, sh->name);
    store_pg_arg_text(&a, sh->system);
    store_pg_arg_i64(&a, sh->created_ms);
    store_pg_arg_i64(&a, sh->updated_ms);
    arg_text_or_null(&a, sh->undo_tag);
    arg_text_or_null(&a, sh->undo_doc);
    store_pg_arg_text(&a, sh->doc);
    return run(base,
               "INSERT INTO sheet (kind, guild, owner, name_key, name, system,"
               " created_ms, updated_ms, undo_tag, undo_doc, doc) VALUES ($1,"
               " $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
               " ON CONFLICT DO NOTHING",
               "iiitttiittt", &a, n, "saving a sheet");
}

static enum bot_err taken(struct store *base, const struct store_sheet *sh)
{
    return store__fail(base, BOT_CONFLICT, "a sheet named %s exists already",
                       sh->name);
}


static enum bot_err use_write(struct store *base, uint64_t guild,
                              uint64_t owner, const char *key, long *n)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)guild);
    store_pg_arg_i64(&a, (int64_t)owner);
    store_pg_arg_text(&a, key);
    return run(base,
               "INSERT INTO sheet_use (guild, owner, sheet)"
               " SELECT guild, owner, id FROM sheet WHERE kind = 1"
               " AND guild = $1 AND owner = $2 AND name_key = $3"
               " ON CONFLICT (guild, owner) DO UPDATE"
               " SET sheet = excluded.sheet",
               "iit", &a, n, "choosing the character used");
}

enum bot_err store_pg_import_sheet(struct store *base,
                                   const struct store_sheet *sh,
                                   const char *key)
{
    long n = 0;
    enum bot_err e = store_pg_op_begin(PG(base));
    if (e == BOT_OK)
        e = insert_row(base, sh, key, &n);
    if (e == BOT_OK && n == 0)
        e = taken(base, sh);
    if (e == BOT_OK && sh->used && sh->kind == STORE_SHEET_CHAR)
        e = use_write(base, sh->guild, sh->owner, key, NULL);
    return store_pg_op_end(PG(base), e);
}

static enum bot_err no_sheet(struct store *base,
                             const struct store_sheet_key *k)
{
    return store__fail(base, BOT_NOTFOUND, "no sheet named %s", k->name);
}

enum bot_err store_pg_sheet_get(struct store *base,
                                const struct store_sheet_key *k,
                                struct store_sheet *out)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    arg_key(&a, k);
    enum bot_err e = store_pg_exec_sql(
        PG(base), "SELECT " SHEET_COLS " FROM sheet WHERE " SHEET_BY_KEY,
        "iiit", &a, "reading a sheet", &r);
    if (e == BOT_OK && PQntuples(r) == 0) {
        e = no_sheet(base, k);
    } else if (e == BOT_OK) {
        struct store_sheet row;
        row_borrow(r, 0, true, &row);
        e = store__sheet_copy(base, &row, out);
    }
    PQclear(r);
    return e;
}

enum bot_err store_pg_sheet_update(struct store *base,
                                   const struct store_sheet_key *k,
                                   const char *doc, const char *undo_tag,
                                   const char *undo_doc, int64_t now_ms)
{
    struct pg_args a = {0};
    arg_key(&a, k);
    store_pg_arg_text(&a, doc);
    arg_text_or_null(&a, undo_tag);
    arg_text_or_null(&a, undo_doc);
    store_pg_arg_i64(&a, now_ms);
    long n = 0;
    enum bot_err e = run(base,
                         "UPDATE sheet SET doc = $5, undo_tag = $6,"
                         " undo_doc = $7, updated_ms = $8 WHERE " SHEET_BY_KEY,
                         "iiitttti", &a, &n, "saving a sheet");
    return e == BOT_OK && n == 0 ? no_sheet(base, k) : e;
}

enum bot_err store_pg_sheet_delete(struct store *base,
                                   const struct store_sheet_key *k)
{
    struct pg_args a = {0};
    arg_key(&a, k);
    long n = 0;
    enum bot_err e = store_pg_op_begin(PG(base));
    if (e == BOT_OK)
        e = run(base,
                "DELETE FROM sheet_use WHERE sheet IN (SELECT id FROM sheet"
                " WHERE " SHEET_BY_KEY ")",
                "iiit", &a, NULL, "deleting a sheet");
    if (e == BOT_OK)
        e = run(base, "DELETE FROM sheet WHERE " SHEET_BY_KEY, "iiit", &a, &n,
                "deleting a sheet");
    if (e == BOT_OK && n == 0)
        e = no_sheet(base, k);
    return store_pg_op_end(PG(base), e);
}

/* The first column of sql's one row into *n. */
static enum bot_err count_of(struct store *base, const char *sql,
                             const char *types, const struct pg_args *a,
                             int64_t *n)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec_sql(PG(base), sql, types, a,
                                       "counting sheets", &r);
    if (e == BOT_OK)
        *n = store_pg_i64(r, 0, 0);
    PQclear(r);
    return e;
}

enum bot_err store_pg_sheet_count(struct store *base,
                                  const struct store_sheet_key *k, int64_t *n)
{
    struct pg_args a = {0};
    struct store_sheet_key all = *k;
    all.name = NULL;
    arg_key(&a, &all);
    return count_of(base,
                    "SELECT count(*) FROM sheet WHERE kind = $1"
                    " AND guild = $2 AND owner = $3",
                    "iii", &a, n);
}

/* Each row of r to fn, borrowed. */
static enum bot_err each_row(const PGresult *r, bool with_doc,
                             store_sheet_fn *fn, void *ctx)
{
    enum bot_err e = BOT_OK;
    for (int i = 0; e == BOT_OK && i < PQntuples(r); i++) {
        struct store_sheet row;
        row_borrow(r, i, with_doc, &row);
        e = fn(ctx, &row);
    }
    return e;
}

/* Run sql and hand each row to fn. */
static enum bot_err rows(struct store *base, const char *sql,
                         const char *types, const struct pg_args *a,
                         bool with_doc, store_sheet_fn *fn, void *ctx,
                         const char *what)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec_sql(PG(base), sql, types, a, what, &r);
    if (e == BOT_OK)
        e = each_row(r, with_doc, fn, ctx);
    PQclear(r);
    return e;
}

#define SHEET_PREFIX                                                           \
    " FROM sheet WHERE kind = $1 AND guild = $2 AND owner = $3"                \
    " AND left(name_key, length($4)) = $4"

enum bot_err store_pg_sheet_list(struct store *base,
                                 const struct store_sheet_key *k, size_t max,
                                 size_t *total, store_sheet_fn *fn, void *ctx)
{
    struct pg_args a = {0};
    arg_key(&a, k);
    enum bot_err e = BOT_OK;
    if (total != NULL) {
        int64_t n = 0;
        e = count_of(base, "SELECT count(*)" SHEET_PREFIX, "iiit", &a, &n);
        *total = (size_t)n;
    }
    if (e != BOT_OK)
        return e;
    store_pg_arg_i64(&a, (int64_t)max);
    return rows(base,
                "SELECT " SHEET_COLS SHEET_PREFIX
                " ORDER BY name_key COLLATE \"C\" LIMIT $5",
                "iiiti", &a, false, fn, ctx, "listing sheets");
}

enum bot_err store_pg_sheet_use_set(struct store *base, uint64_t guild,
                                    uint64_t owner, const char *key)
{
    if (key == NULL) {
        struct pg_args a = {0};
        store_pg_arg_i64(&a, (int64_t)guild);
        store_pg_arg_i64(&a, (int64_t)owner);
        return run(base,
                   "DELETE FROM sheet_use WHERE guild = $1 AND owner = $2",
                   "ii", &a, NULL, "forgetting the character used");
    }
    long n = 0;
    enum bot_err e = use_write(base, guild, owner, key, &n);
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_NOTFOUND, "no character named %s", key);
    return e;
}

enum bot_err store_pg_sheet_use_get(struct store *base, uint64_t guild,
                                    uint64_t owner, char **name)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, (int64_t)guild);
    store_pg_arg_i64(&a, (int64_t)owner);
    enum bot_err e = store_pg_exec_sql(
        PG(base),
        "SELECT c.name FROM sheet_use u JOIN sheet c ON c.id = u.sheet"
        " WHERE u.guild = $1 AND u.owner = $2",
        "ii", &a, "reading the character used", &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(base, BOT_NOTFOUND, "no character used");
    else if (e == BOT_OK)
        e = store_pg_text_dup(PG(base), r, 0, 0, name);
    PQclear(r);
    return e;
}

enum bot_err store_pg_sheet_tagged(struct store *base, uint64_t guild,
                                   const char *tag, store_sheet_fn *fn,
                                   void *ctx)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)guild);
    store_pg_arg_text(&a, tag);
    return rows(base,
                "SELECT " SHEET_COLS " FROM sheet WHERE guild = $1"
                " AND undo_tag = $2 ORDER BY id",
                "it", &a, true, fn, ctx, "reading a write-back's sheets");
}

enum bot_err store_pg_export_sheets(struct store *base, store_sheet_fn *fn,
                                    void *ctx)
{
    struct pg_args a = {0};
    return rows(base, "SELECT " SHEET_COLS " FROM sheet ORDER BY kind, id", "",
                &a, true, fn, ctx, "exporting sheets");
}
