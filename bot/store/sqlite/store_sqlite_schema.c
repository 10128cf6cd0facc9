/*
 * store_sqlite_schema.c - the SQLite schema, its migrations, and the mapping
 * of SQLite result codes to bot_err. docs/internals/store.md explains the
 * tables; this file is the truth.
 */
#include <sqlite3.h>
#include <stdio.h>

#include "store_sqlite_schema.h"

/*
 * Version 1.
 *
 * encounter: one row per encounter ever started. ended_ms is NULL while it is
 *   the channel's live encounter (at most one per channel, enforced by the
 *   partial unique index) and the end time once archived. id is
 *   AUTOINCREMENT, never reused, so the history of an archived encounter and
 *   of a new one in the same channel never collide. version is the live
 *   version; undo is the undo chain of the live version (the versions an
 *   undo steps back to, newest first, at most ENC_UNDO_DEPTH), as
 *   little-endian int64s. channel holds the Discord snowflake's 64 bits as a
 *   signed integer.
 * enc_version: the kept documents of each encounter: exactly the live
 *   version and its undo chain (store_sqlite.c keeps this invariant), so at
 *   most ENC_UNDO_DEPTH + 1 rows per encounter. doc is last in the row so the
 *   other columns never need the document's overflow pages.
 * interaction: Discord interaction ids already applied, with the channel
 *   and version they produced; pruned by age (interaction_created).
 * kv: bot bookkeeping (gateway session, command hash).
 */
static const char schema_v1[] =
    "CREATE TABLE encounter ("
    "  id         INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  channel    INTEGER NOT NULL,"
    "  version    INTEGER NOT NULL CHECK (version >= 1),"
    "  undo       BLOB NOT NULL DEFAULT x'',"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  ended_ms   INTEGER"
    ");"
    "CREATE UNIQUE INDEX encounter_live ON encounter(channel)"
    "  WHERE ended_ms IS NULL;"
    "CREATE INDEX encounter_ended ON encounter(ended_ms)"
    "  WHERE ended_ms IS NOT NULL;"
    "CREATE TABLE enc_version ("
    "  enc        INTEGER NOT NULL REFERENCES encounter(id),"
    "  version    INTEGER NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  doc        TEXT NOT NULL,"
    "  PRIMARY KEY (enc, version)"
    ");"
    "CREATE TABLE interaction ("
    "  id         TEXT PRIMARY KEY,"
    "  channel    INTEGER NOT NULL,"
    "  version    INTEGER NOT NULL,"
    "  created_ms INTEGER NOT NULL"
    ") WITHOUT ROWID;"
    "CREATE INDEX interaction_created ON interaction(created_ms);"
    "CREATE TABLE kv ("
    "  key   TEXT PRIMARY KEY,"
    "  value TEXT NOT NULL"
    ");";

/*
 * Version 2: each encounter's history, one line per change (the version it
 * made, who, when, whether it is the GM's alone, what it did), kept apart
 * from the documents so that they hold the state alone and stay small.
 * Rows are never removed by undo; they go with their encounter.
 */
static const char schema_v2[] =
    "CREATE TABLE enc_change ("
    "  enc     INTEGER NOT NULL REFERENCES encounter(id),"
    "  version INTEGER NOT NULL,"
    "  by_user INTEGER NOT NULL,"
    "  at_ms   INTEGER NOT NULL,"
    "  secret  INTEGER NOT NULL,"
    "  text    TEXT NOT NULL,"
    "  PRIMARY KEY (enc, version)"
    ") WITHOUT ROWID;";

/*
 * Version 3: the server (guild) each encounter was started in, for the
 * per-server quotas; 0 when not known (DMs, the console, and every
 * encounter from before this step). The index serves the quota counts and
 * the archive quota's "oldest beyond N per server".
 */
static const char schema_v3[] =
    "ALTER TABLE encounter ADD COLUMN guild INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX encounter_guild ON encounter(guild, ended_ms);";

/*
 * Version 4: saved rolls (macros). A scope is a user's own (guild 0,
 * user_id the owner) or a server's (guild the server, user_id 0); name is
 * lower case, unique within its scope (the primary key, which also serves
 * the per-scope count, the name lookup and the prefix search of
 * autocomplete). dice is the text as saved, "# label" included.
 */
static const char schema_v4[] =
    "CREATE TABLE macro ("
    "  guild      INTEGER NOT NULL,"
    "  user_id    INTEGER NOT NULL,"
    "  name       TEXT NOT NULL,"
    "  dice       TEXT NOT NULL,"
    "  by_user    INTEGER NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (guild, user_id, name)"
    ") WITHOUT ROWID;";

/*
 * Version 5: saved sheets, kept outside any fight (store.h "saved
 * sheets"). sheet: a player's character (kind 1, owner the player) or a
 * server's NPC template (kind 2, owner 0); name as typed, name_key with
 * ASCII letters lowercased so a name is unique per kind, server and owner
 * whatever its case; undo_tag/undo_doc the document before the last
 * write-back of a fight and which one (NULL: none kept); doc last in the
 * row. sheet_use: the character each player uses in each server.
 */
static const char schema_v5[] =
    "CREATE TABLE sheet ("
    "  id         INTEGER PRIMARY KEY AUTOINCREMENT,"
    "  kind       INTEGER NOT NULL,"
    "  guild      INTEGER NOT NULL,"
    "  owner      INTEGER NOT NULL,"
    "  name       TEXT NOT NULL,"
    "  name_key   TEXT NOT NULL,"
    "  system     TEXT NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  undo_tag   TEXT,"
    "  undo_doc   TEXT,"
    "  doc        TEXT NOT NULL,"
    "  UNIQUE (kind, guild, owner, name_key)"
    ");"
    "CREATE INDEX sheet_undo ON sheet(guild, undo_tag)"
    "  WHERE undo_tag IS NOT NULL;"
    "CREATE TABLE sheet_use ("
    "  guild INTEGER NOT NULL,"
    "  owner INTEGER NOT NULL,"
    "  sheet INTEGER NOT NULL REFERENCES sheet(id),"
    "  PRIMARY KEY (guild, owner)"
    ") WITHOUT ROWID;"
    "CREATE INDEX sheet_use_sheet ON sheet_use(sheet);";

/*
 * Version 6: the turn clocks' timers (store.h), one row per channel whose
 * fight has one to come; the index on due_ms gives the daemon the next one
 * without reading the others.
 */
static const char schema_v6[] =
    "CREATE TABLE clock_timer ("
    "  channel INTEGER PRIMARY KEY,"
    "  guild   INTEGER NOT NULL,"
    "  due_ms  INTEGER NOT NULL"
    ");"
    "CREATE INDEX clock_timer_due ON clock_timer(due_ms);";

/*
 * Version 7: what each change showed, in full, for /combat recap and
 * /combat log: the public text (every roll with its dice) and, when
 * hidden numbers made it differ, the GM's; and the author's display name
 * then. "" for lines from before.
 */
static const char schema_v7[] =
    "ALTER TABLE enc_change ADD COLUMN detail TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE enc_change ADD COLUMN gm_detail TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE enc_change ADD COLUMN by_name TEXT NOT NULL DEFAULT '';";

/*
 * Version 8: older kept versions are packed (store_hist.h). They go into
 * enc_version.doc as BLOBs beside the TEXT of the live version and of every
 * row written before, so no table changes; the step exists so that an
 * older fray, which would read a BLOB as text, refuses the file instead.
 */
static const char schema_v8[] =
    "-- enc_version.doc: TEXT (a whole document) or BLOB (packed)";

/*
 * Version 9: each encounter counts its history (store.h, "bounds on a
 * fight's history"): the bytes and lines it keeps, and the version its
 * oldest lines were folded up to (0: none), so a bound is checked without
 * reading the lines. Filled in from the lines already there.
 */
static const char schema_v9[] =
    "ALTER TABLE encounter ADD COLUMN hist_bytes INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE encounter ADD COLUMN hist_lines INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE encounter ADD COLUMN hist_folded INTEGER NOT NULL DEFAULT 0;"
    "UPDATE encounter SET"
    " hist_bytes = (SELECT coalesce(sum(" STORE_SQ_LINE_BYTES "), 0)"
    "  FROM enc_change WHERE enc = encounter.id),"
    " hist_lines = (SELECT count(*) FROM enc_change"
    "  WHERE enc = encounter.id);";

/*
 * Version 10: the records of posted rolls on Discord (cmd_rollrec.h), by
 * the interaction that asked for the roll. id is that snowflake as the
 * rowid: time-ordered, so a group of rolls from any channels appends to
 * the table's last page, and age is a range of the lowest ids. channel is
 * checked at each lookup (a record is found from its own channel only);
 * n is a running number, one more than the last row's, so the trim reads
 * how many rows there are from the first and last rows. The console's
 * records, and those written before this step (until they age out), stay
 * `roll:` rows of kv.
 */
static const char schema_v10[] =
    "CREATE TABLE roll_rec ("
    "  id      INTEGER PRIMARY KEY,"
    "  channel INTEGER NOT NULL,"
    "  n       INTEGER NOT NULL,"
    "  value   TEXT NOT NULL"
    ");";

/*
 * Version 11: the language a turn clock's posts fall back to when the
 * server set none (store.h, struct store_timer): the code of the table's
 * language as the command that armed the timer saw it. '' for the rows
 * from before, which keep speaking English as they did.
 */
static const char schema_v11[] =
    "ALTER TABLE clock_timer ADD COLUMN lang TEXT NOT NULL DEFAULT '';";

const struct store_migration store_schema_steps[] = {
    {1, "initial schema", schema_v1},
    {2, "each encounter's history", schema_v2},
    {3, "each encounter's server", schema_v3},
    {4, "saved rolls (macros)", schema_v4},
    {5, "saved characters and NPC templates", schema_v5},
    {6, "turn clock timers", schema_v6},
    {7, "what each change showed", schema_v7},
    {8, "packed history", schema_v8},
    {9, "each encounter's history counted", schema_v9},
    {10, "roll records by interaction", schema_v10},
    {11, "each turn clock's language", schema_v11},
};
const size_t store_schema_nsteps =
    sizeof store_schema_steps / sizeof store_schema_steps[0];

enum bot_err store__map_rc(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return BOT_OK;
    case SQLITE_FULL:
        return BOT_DB_FULL;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return BOT_DB_BUSY;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return BOT_DB_CORRUPT;
    case SQLITE_NOMEM:
        return BOT_NOMEM;
    case SQLITE_TOOBIG:
        return BOT_LIMIT;
    default:
        return BOT_DB;
    }
}

enum bot_err store__user_version(struct sqlite3 *db, int *version)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *version = sqlite3_column_int(st, 0);
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return store__map_rc(rc);
}

/* Run the steps after `from` and set user_version; inside a transaction. */
static int migrate_steps(struct sqlite3 *db, const char *path,
                         const struct store_migration *steps, size_t n,
                         int from, char *err, size_t errlen)
{
    for (size_t i = (size_t)from; i < n; i++) {
        int rc = sqlite3_exec(db, steps[i].sql, NULL, NULL, NULL);
        if (rc != SQLITE_OK) {
            snprintf(err, errlen,
                     "database %s: migration to schema version %d (%s) "
                     "failed: %s",
                     path, steps[i].version, steps[i].what, sqlite3_errmsg(db));
            return rc;
        }
    }
    char sql[48];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", steps[n - 1].version);
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        snprintf(err, errlen, "database %s: cannot set schema version: %s",
                 path, sqlite3_errmsg(db));
    return rc;
}

enum bot_err store__migrate(struct sqlite3 *db, const char *path,
                            const struct store_migration *steps, size_t n,
                            char *err, size_t errlen)
{
    err[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (steps[i].version != (int)i + 1) {
            snprintf(err, errlen, "migration table out of order at %zu", i);
            return BOT_INVALID;
        }
    int latest = n ? steps[n - 1].version : 0;

    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "database %s: %s", path, sqlite3_errmsg(db));
        return store__map_rc(rc);
    }
    int version = 0;
    enum bot_err e = store__user_version(db, &version);
    if (e != BOT_OK) {
        snprintf(err, errlen, "database %s: cannot read schema version: %s",
                 path, sqlite3_errmsg(db));
    } else if (version > latest) {
        snprintf(err, errlen,
                 "database %s has schema version %d, newer than this fray "
                 "understands (%d): run a newer fray or restore a backup",
                 path, version, latest);
        e = BOT_DB;
    } else if (version < 0) {
        snprintf(err, errlen, "database %s has an invalid schema version %d",
                 path, version);
        e = BOT_DB;
    } else if (version < latest) {
        rc = migrate_steps(db, path, steps, n, version, err, errlen);
        if (rc == SQLITE_OK)
            rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        if (rc != SQLITE_OK && !err[0])
            snprintf(err, errlen, "database %s: migration not committed: %s",
                     path, sqlite3_errmsg(db));
        e = store__map_rc(rc);
        if (e == BOT_OK)
            return BOT_OK;
    } else {
        return store__map_rc(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL));
    }
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return e;
}
