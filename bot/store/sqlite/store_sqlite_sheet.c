/*
 * store_sqlite_sheet.c - saved sheets (characters and NPC templates) for
 * the SQLite backend (store.h "saved sheets"; the tables are schema
 * version 4 in store_sqlite_schema.c).
 *
 * These run once per /character or /npc command, not per fight turn, so
 * their statements are prepared per call rather than kept with the hot
 * ones in store_sqlite.c.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_sqlite_int.h"

/* A whole row, in the order row_borrow() reads it. */
#define SHEET_COLS                                                             \
    "kind, guild, owner, name, system, created_ms, updated_ms, undo_tag,"     \
    " undo_doc, doc, EXISTS (SELECT 1 FROM sheet_use u WHERE u.sheet ="       \
    " sheet.id)"
/* The row a key names: ?1 kind, ?2 guild, ?3 owner, ?4 name_key. */
#define SHEET_BY_KEY "kind = ?1 AND guild = ?2 AND owner = ?3 AND name_key = ?4"

/* Bind ?1..?3 (and ?4 when k->name is not NULL) to k. */
static void bind_key(sqlite3_stmt *st, const struct store_sheet_key *k)
{
    sqlite3_bind_int64(st, 1, (sqlite3_int64)k->kind);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)k->guild);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)k->owner);
    if (k->name != NULL)
        sqlite3_bind_text(st, 4, k->name, -1, SQLITE_STATIC);
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *v)
{
    if (v != NULL)
        sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static char *col_text(sqlite3_stmt *st, int col)
{
    return (char *)sqlite3_column_text(st, col);
}

/* The current SHEET_COLS row of st into sh, its strings borrowed from st
 * until the next step; the document (and undo) only when with_doc. */
static void row_borrow(sqlite3_stmt *st, bool with_doc, struct store_sheet *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->kind = (enum store_sheet_kind)sqlite3_column_int64(st, 0);
    sh->guild = (uint64_t)sqlite3_column_int64(st, 1);
    sh->owner = (uint64_t)sqlite3_column_int64(st, 2);
    sh->name = col_text(st, 3);
    sh->system = col_text(st, 4);
    sh->created_ms = sqlite3_column_int64(st, 5);
    sh->updated_ms = sqlite3_column_int64(st, 6);
    if (with_doc) {
        sh->undo_tag = col_text(st, 7);
        sh->undo_doc = col_text(st, 8);
        sh->doc = col_text(st, 9);
    }
    sh->used = sqlite3_column_int64(st, 10) != 0;
}

/* Step st, a statement without rows; the rows it changed into *n. */
static enum bot_err finish(struct store_sqlite *s, sqlite3_stmt *st,
                           int64_t *n, const char *what)
{
    int rc = sqlite3_step(st);
    enum bot_err e = rc == SQLITE_DONE ? BOT_OK : store_sq_fail_rc(s, rc, what);
    if (e == BOT_OK && n != NULL)
        *n = sqlite3_changes(s->db);
    sqlite3_finalize(st);
    return e;
}

/* Insert sh under key with its times and undo as given; a taken name
 * leaves no row (*n 0) rather than failing the transaction. */
static enum bot_err insert_row(struct store_sqlite *s,
                               const struct store_sheet *sh, const char *key,
                               int64_t *n)
{
    sqlite3_stmt *st = NULL;
    const char *what = "saving a sheet";
    enum bot_err e =
        store_sq_prepare(s,
                         "INSERT INTO sheet (kind, guild, owner, name_key,"
                         " name, system, created_ms, updated_ms, undo_tag,"
                         " undo_doc, doc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
                         " ?8, ?9, ?10, ?11) ON CONFLICT DO NOTHING",
                         &st, what);
    if (e != BOT_OK)
        return e;
    struct store_sheet_key k = {sh->kind, sh->guild, sh->owner, key};
    bind_key(st, &k);
    sqlite3_bind_text(st, 5, sh->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, sh->system, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, sh->created_ms);
    sqlite3_bind_int64(st, 8, sh->updated_ms);
    bind_text_or_null(st, 9, sh->undo_tag);
    bind_text_or_null(st, 10, sh->undo_doc);
    sqlite3_bind_text(st, 11, sh->doc, -1, SQLITE_STATIC);
    return finish(s, st, n, what);
}

static enum bot_err taken(struct store *base, const struct store_sheet *sh)
{
    return store__fail(base, BOT_CONFLICT, "a sheet named %s exists already",
                       sh->name);
}


static enum bot_err use_write(struct store_sqlite *s, uint64_t guild,
                              uint64_t owner, const char *key, int64_t *n)
{
    sqlite3_stmt *st = NULL;
    const char *what = "choosing the character used";
    enum bot_err e =
        store_sq_prepare(s,
                         "INSERT INTO sheet_use (guild, owner, sheet)"
                         " SELECT guild, owner, id FROM sheet WHERE kind = 1"
                         " AND guild = ?1 AND owner = ?2 AND name_key = ?3"
                         " ON CONFLICT (guild, owner) DO UPDATE"
                         " SET sheet = excluded.sheet",
                         &st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)owner);
    sqlite3_bind_text(st, 3, key, -1, SQLITE_STATIC);
    return finish(s, st, n, what);
}

enum bot_err store_sq_import_sheet(struct store *base,
                                   const struct store_sheet *sh,
                                   const char *key)
{
    struct store_sqlite *s = SQ(base);
    int64_t n = 0;
    enum bot_err e = store_sq_op_begin(s);
    if (e == BOT_OK)
        e = insert_row(s, sh, key, &n);
    if (e == BOT_OK && n == 0)
        e = taken(base, sh);
    if (e == BOT_OK && sh->used && sh->kind == STORE_SHEET_CHAR)
        e = use_write(s, sh->guild, sh->owner, key, NULL);
    return store_sq_op_end(s, e);
}

static enum bot_err no_sheet(struct store *base,
                             const struct store_sheet_key *k)
{
    return store__fail(base, BOT_NOTFOUND, "no sheet named %s", k->name);
}

enum bot_err store_sq_sheet_get(struct store *base,
                                const struct store_sheet_key *k,
                                struct store_sheet *out)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    const char *what = "reading a sheet";
    enum bot_err e = store_sq_prepare(
        s, "SELECT " SHEET_COLS " FROM sheet WHERE " SHEET_BY_KEY, &st, what);
    if (e != BOT_OK)
        return e;
    bind_key(st, k);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        struct store_sheet row;
        row_borrow(st, true, &row);
        e = store__sheet_copy(base, &row, out);
    } else {
        e = rc == SQLITE_DONE ? no_sheet(base, k)
                              : store_sq_fail_rc(s, rc, what);
    }
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_sheet_update(struct store *base,
                                   const struct store_sheet_key *k,
                                   const char *doc, const char *undo_tag,
                                   const char *undo_doc, int64_t now_ms)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e =
        store_sq_prepare(s,
                         "UPDATE sheet SET doc = ?5, undo_tag = ?6,"
                         " undo_doc = ?7, updated_ms = ?8 WHERE " SHEET_BY_KEY,
                         &st, "saving a sheet");
    if (e != BOT_OK)
        return e;
    bind_key(st, k);
    sqlite3_bind_text(st, 5, doc, -1, SQLITE_STATIC);
    bind_text_or_null(st, 6, undo_tag);
    bind_text_or_null(st, 7, undo_doc);
    sqlite3_bind_int64(st, 8, now_ms);
    int64_t n = 0;
    e = finish(s, st, &n, "saving a sheet");
    return e == BOT_OK && n == 0 ? no_sheet(base, k) : e;
}

/* Run sql, whose ?1..?4 are k; rows changed into *n. */
static enum bot_err by_key(struct store_sqlite *s, const char *sql,
                           const struct store_sheet_key *k, int64_t *n,
                           const char *what)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s, sql, &st, what);
    if (e != BOT_OK)
        return e;
    bind_key(st, k);
    return finish(s, st, n, what);
}

enum bot_err store_sq_sheet_delete(struct store *base,
                                   const struct store_sheet_key *k)
{
    struct store_sqlite *s = SQ(base);
    int64_t n = 0;
    enum bot_err e = store_sq_op_begin(s);
    if (e == BOT_OK)
        e = by_key(s,
                   "DELETE FROM sheet_use WHERE sheet IN (SELECT id FROM"
                   " sheet WHERE " SHEET_BY_KEY ")",
                   k, NULL, "deleting a sheet");
    if (e == BOT_OK)
        e = by_key(s, "DELETE FROM sheet WHERE " SHEET_BY_KEY, k, &n,
                   "deleting a sheet");
    if (e == BOT_OK && n == 0)
        e = no_sheet(base, k);
    return store_sq_op_end(s, e);
}

/* The first column of sql's one row (?1..?3 = k, ?4 the prefix when
 * k->name is set) into *n. */
static enum bot_err count_of(struct store_sqlite *s, const char *sql,
                             const struct store_sheet_key *k, int64_t *n)
{
    sqlite3_stmt *st = NULL;
    const char *what = "counting sheets";
    enum bot_err e = store_sq_prepare(s, sql, &st, what);
    if (e != BOT_OK)
        return e;
    bind_key(st, k);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    else
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_sheet_count(struct store *base,
                                  const struct store_sheet_key *k, int64_t *n)
{
    struct store_sheet_key all = *k;
    all.name = NULL;
    return count_of(SQ(base),
                    "SELECT count(*) FROM sheet WHERE kind = ?1"
                    " AND guild = ?2 AND owner = ?3",
                    &all, n);
}

/* Each row of st to fn, borrowed; with_doc as row_borrow. */
static enum bot_err each_row(struct store_sqlite *s, sqlite3_stmt *st,
                             bool with_doc, store_sheet_fn *fn, void *ctx,
                             const char *what)
{
    enum bot_err e = BOT_OK;
    int rc;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_sheet row;
        row_borrow(st, with_doc, &row);
        e = fn(ctx, &row);
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

#define SHEET_PREFIX                                                           \
    " FROM sheet WHERE kind = ?1 AND guild = ?2 AND owner = ?3"                \
    " AND substr(name_key, 1, length(?4)) = ?4"

enum bot_err store_sq_sheet_list(struct store *base,
                                 const struct store_sheet_key *k, size_t max,
                                 size_t *total, store_sheet_fn *fn, void *ctx)
{
    struct store_sqlite *s = SQ(base);
    const char *what = "listing sheets";
    enum bot_err e = BOT_OK;
    if (total != NULL) {
        int64_t n = 0;
        e = count_of(s, "SELECT count(*)" SHEET_PREFIX, k, &n);
        *total = (size_t)n;
    }
    sqlite3_stmt *st = NULL;
    if (e == BOT_OK)
        e = store_sq_prepare(
            s, "SELECT " SHEET_COLS SHEET_PREFIX " ORDER BY name_key LIMIT ?5",
            &st, what);
    if (e != BOT_OK)
        return e;
    bind_key(st, k);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)max);
    return each_row(s, st, false, fn, ctx, what);
}

enum bot_err store_sq_sheet_use_set(struct store *base, uint64_t guild,
                                    uint64_t owner, const char *key)
{
    struct store_sqlite *s = SQ(base);
    if (key == NULL) {
        sqlite3_stmt *st = NULL;
        enum bot_err e =
            store_sq_prepare(s,
                             "DELETE FROM sheet_use WHERE guild = ?1"
                             " AND owner = ?2",
                             &st,
                             "forgetting the "
                             "character used");
        if (e != BOT_OK)
            return e;
        sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)owner);
        return finish(s, st, NULL, "forgetting the character used");
    }
    int64_t n = 0;
    enum bot_err e = use_write(s, guild, owner, key, &n);
    if (e == BOT_OK && n == 0)
        e = store__fail(base, BOT_NOTFOUND, "no character named %s", key);
    return e;
}

enum bot_err store_sq_sheet_use_get(struct store *base, uint64_t guild,
                                    uint64_t owner, char **name)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    const char *what = "reading the character used";
    enum bot_err e =
        store_sq_prepare(s,
                         "SELECT c.name FROM sheet_use u JOIN sheet c"
                         " ON c.id = u.sheet WHERE u.guild = ?1"
                         " AND u.owner = ?2",
                         &st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)owner);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        e = store_sq_column_dup(s, st, 0, name);
    else if (rc == SQLITE_DONE)
        e = store__fail(base, BOT_NOTFOUND, "no character used");
    else
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_sheet_tagged(struct store *base, uint64_t guild,
                                   const char *tag, store_sheet_fn *fn,
                                   void *ctx)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    const char *what = "reading a write-back's sheets";
    enum bot_err e =
        store_sq_prepare(s,
                         "SELECT " SHEET_COLS " FROM sheet WHERE guild = ?1"
                         " AND undo_tag = ?2 ORDER BY id",
                         &st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)guild);
    sqlite3_bind_text(st, 2, tag, -1, SQLITE_STATIC);
    return each_row(s, st, true, fn, ctx, what);
}

enum bot_err store_sq_export_sheets(struct store *base, store_sheet_fn *fn,
                                    void *ctx)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    const char *what = "exporting sheets";
    enum bot_err e = store_sq_prepare(s,
                                      "SELECT " SHEET_COLS " FROM sheet"
                                      " ORDER BY kind, id",
                                      &st, what);
    return e != BOT_OK ? e : each_row(s, st, true, fn, ctx, what);
}
