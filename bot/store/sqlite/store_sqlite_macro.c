/*
 * store_sqlite_macro.c - saved rolls (macros) for the SQLite backend
 * (store.h; the table is schema version 4 in store_sqlite_schema.c).
 *
 * A macro is read when a command names it or autocomplete asks, a few
 * times a minute at most: the statements are prepared per call, like the
 * prune ones, rather than kept with the per-command ones in
 * store_sqlite.c. Names are lower-case ASCII, so the binary collation
 * orders them and "name >= p AND name < p || '{'" ('{' follows 'z', the
 * greatest name character) is a prefix search on the primary key.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "store_sqlite_int.h"

#define MACRO_COLS "guild, user_id, name, dice, by_user, created_ms, updated_ms"

/* The row of st (MACRO_COLS) into *m. */
static void macro_row(sqlite3_stmt *st, struct store_macro *m)
{
    const unsigned char *name = sqlite3_column_text(st, 2);
    const unsigned char *dice = sqlite3_column_text(st, 3);
    m->guild = (uint64_t)sqlite3_column_int64(st, 0);
    m->user = (uint64_t)sqlite3_column_int64(st, 1);
    snprintf(m->name, sizeof m->name, "%s", name ? (const char *)name : "");
    snprintf(m->dice, sizeof m->dice, "%s", dice ? (const char *)dice : "");
    m->by = (uint64_t)sqlite3_column_int64(st, 4);
    m->created_ms = sqlite3_column_int64(st, 5);
    m->updated_ms = sqlite3_column_int64(st, 6);
}

/* Every row of a prepared query to fn, at most max; finalizes st. */
static enum bot_err each_row(struct store_sqlite *s, sqlite3_stmt *st,
                             size_t max, store_macro_fn *fn, void *ctx,
                             const char *what)
{
    enum bot_err e = BOT_OK;
    struct store_macro m;
    size_t n = 0;
    int rc;
    while (e == BOT_OK && n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        macro_row(st, &m);
        e = fn(ctx, &m);
        n++;
    }
    if (e == BOT_OK && n < max && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, what);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_macro_put(struct store *base,
                                 const struct store_macro *m, bool replace)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(
        s,
        replace ? "INSERT INTO macro (" MACRO_COLS ")"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                  " ON CONFLICT (guild, user_id, name) DO UPDATE SET"
                  " dice = excluded.dice, by_user = excluded.by_user,"
                  " updated_ms = excluded.updated_ms"
                : "INSERT INTO macro (" MACRO_COLS ")"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                  " ON CONFLICT DO NOTHING",
        &st, "saving a macro");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)m->guild);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)m->user);
    sqlite3_bind_text(st, 3, m->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, m->dice, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)m->by);
    sqlite3_bind_int64(st, 6, m->created_ms);
    sqlite3_bind_int64(st, 7, m->updated_ms);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "saving a macro");
    else if (sqlite3_changes(s->db) == 0)
        e = store__fail(base, BOT_CONFLICT, "macro %s exists", m->name);
    sqlite3_finalize(st);
    return e;
}

/* A statement on one scope: ?1 guild, ?2 user, ?3 text (name or prefix). */
static enum bot_err scoped(struct store_sqlite *s, const char *sql,
                           uint64_t guild, uint64_t user, const char *text,
                           sqlite3_stmt **st, const char *what)
{
    enum bot_err e = store_sq_prepare(s, sql, st, what);
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(*st, 1, (sqlite3_int64)guild);
    sqlite3_bind_int64(*st, 2, (sqlite3_int64)user);
    if (text != NULL)
        sqlite3_bind_text(*st, 3, text, -1, SQLITE_STATIC);
    return BOT_OK;
}

enum bot_err store_sq_macro_get(struct store *base, uint64_t guild,
                                 uint64_t user, const char *name,
                                 struct store_macro *out)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = scoped(s,
                            "SELECT " MACRO_COLS " FROM macro WHERE"
                            " guild = ?1 AND user_id = ?2 AND name = ?3",
                            guild, user, name, &st, "reading a macro");
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        macro_row(st, out);
    else if (rc == SQLITE_DONE)
        e = store__fail(base, BOT_NOTFOUND, "no macro %s", name);
    else
        e = store_sq_fail_rc(s, rc, "reading a macro");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_macro_delete(struct store *base, uint64_t guild,
                                    uint64_t user, const char *name)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = scoped(s,
                            "DELETE FROM macro WHERE guild = ?1"
                            " AND user_id = ?2 AND name = ?3",
                            guild, user, name, &st, "deleting a macro");
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "deleting a macro");
    else if (sqlite3_changes(s->db) == 0)
        e = store__fail(base, BOT_NOTFOUND, "no macro %s", name);
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_macro_count(struct store *base, uint64_t guild,
                                   uint64_t user, int64_t *n)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = scoped(s,
                            "SELECT count(*) FROM macro"
                            " WHERE guild = ?1 AND user_id = ?2",
                            guild, user, NULL, &st, "counting macros");
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    else
        e = store_sq_fail_rc(s, rc, "counting macros");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_macro_list(struct store *base, uint64_t guild,
                                  uint64_t user, const char *prefix,
                                  size_t max, store_macro_fn *fn, void *ctx)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = scoped(s,
                            "SELECT " MACRO_COLS " FROM macro"
                            " WHERE guild = ?1 AND user_id = ?2"
                            " AND name >= ?3 AND name < ?3 || '{'"
                            " ORDER BY name",
                            guild, user, prefix, &st, "listing macros");
    return e != BOT_OK ? e
                       : each_row(s, st, max, fn, ctx, "listing macros");
}

enum bot_err store_sq_macro_export(struct store *base, store_macro_fn *fn,
                                    void *ctx)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s,
                                      "SELECT " MACRO_COLS " FROM macro"
                                      " ORDER BY guild, user_id, name",
                                      &st, "exporting macros");
    return e != BOT_OK ? e
                       : each_row(s, st, SIZE_MAX, fn, ctx,
                                  "exporting macros");
}
