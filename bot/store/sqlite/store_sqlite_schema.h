/*
 * store_sqlite_schema.h - the SQLite backend's schema and its migrations.
 *
 * Internal to the SQLite store (store_sqlite*.c) and its tests; the rest of
 * the bot sees only store.h. The schema version lives in PRAGMA user_version.
 * Migration steps form one table applied in order; a database whose version
 * is newer than the table knows is refused, never touched.
 *
 * Ownership: everything is borrowed; nothing here allocates for the caller.
 */
#ifndef STORE_SQLITE_SCHEMA_H
#define STORE_SQLITE_SCHEMA_H

#include <stddef.h>

#include "bot_err.h"

struct sqlite3;
struct store;

/* The bytes one enc_change row counts for (store.h "bounds"): its text,
 * details and author name, as bytes (length() of TEXT counts
 * characters). */
#define STORE_SQ_LINE_BYTES                                                    \
    "length(CAST(text AS BLOB)) + length(CAST(detail AS BLOB))"               \
    " + length(CAST(gm_detail AS BLOB)) + length(CAST(by_name AS BLOB))"

/* One forward step: run `sql` to go from version - 1 to `version`. */
struct store_migration {
    int version;      /* 1, 2, 3, ... : steps[i].version == i + 1 */
    const char *what; /* for the operator: "initial schema" */
    const char *sql;  /* one or more statements */
};

/* The schema this build writes; append steps, never edit a shipped one. */
extern const struct store_migration store_schema_steps[];
extern const size_t store_schema_nsteps;

/* Bring db (opened from `path`, named in messages) up to the last of
 * steps[0..n): every missing step in order, then user_version, all in one
 * transaction, so a failure leaves the database at its old version.
 * A version newer than steps[n - 1] is refused with BOT_DB. On failure err
 * (errlen > 0) holds one line. */
enum bot_err store__migrate(struct sqlite3 *db, const char *path,
                            const struct store_migration *steps, size_t n,
                            char *err, size_t errlen);

/* PRAGMA user_version of db into *version. */
enum bot_err store__user_version(struct sqlite3 *db, int *version);

/* SQLite result code (primary or extended) to the bot's error code. */
enum bot_err store__map_rc(int rc);

/* Test hook: the store's connection, to inspect rows or set
 * PRAGMA max_page_count. Borrowed; valid until store_close(). */
struct sqlite3 *store__db(struct store *s);

#endif
