/*
 * store_pg_schema.c - the PostgreSQL schema, its migrations, and the
 * mapping of SQLSTATEs to bot_err. The tables mirror SQLite's
 * (store_sqlite_schema.c; docs/internals/store.md): the same columns, the
 * same partial unique index making one live encounter per channel, so the
 * two backends differ only in SQL dialect.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg_int.h"

/* Serializes migrations between processes opening the same database:
 * pg_advisory_xact_lock key, "fray" in ASCII. */
#define STORE_PG_MIGRATE_LOCK 0x66726179

/*
 * Version 1: as SQLite's version 1. channel holds the snowflake's 64 bits
 * as a signed bigint; undo is the chain as little-endian int64s (bytea);
 * ids come from an identity column, never reused.
 */
static const char pg_schema_v1[] =
    "CREATE TABLE encounter ("
    "  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  channel    bigint NOT NULL,"
    "  version    bigint NOT NULL CHECK (version >= 1),"
    "  undo       bytea NOT NULL DEFAULT '\\x',"
    "  created_ms bigint NOT NULL,"
    "  updated_ms bigint NOT NULL,"
    "  ended_ms   bigint"
    ");"
    "CREATE UNIQUE INDEX encounter_live ON encounter(channel)"
    "  WHERE ended_ms IS NULL;"
    "CREATE INDEX encounter_ended ON encounter(ended_ms)"
    "  WHERE ended_ms IS NOT NULL;"
    "CREATE TABLE enc_version ("
    "  enc        bigint NOT NULL REFERENCES encounter(id),"
    "  version    bigint NOT NULL,"
    "  created_ms bigint NOT NULL,"
    "  doc        text NOT NULL,"
    "  PRIMARY KEY (enc, version)"
    ");"
    "CREATE TABLE interaction ("
    "  id         text PRIMARY KEY,"
    "  channel    bigint NOT NULL,"
    "  version    bigint NOT NULL,"
    "  created_ms bigint NOT NULL"
    ");"
    "CREATE INDEX interaction_created ON interaction(created_ms);"
    "CREATE TABLE kv ("
    "  key   text PRIMARY KEY,"
    "  value text NOT NULL"
    ");";

/* Version 2: as SQLite's version 2, each encounter's history. */
static const char pg_schema_v2[] =
    "CREATE TABLE enc_change ("
    "  enc     bigint NOT NULL REFERENCES encounter(id),"
    "  version bigint NOT NULL,"
    "  by_user bigint NOT NULL,"
    "  at_ms   bigint NOT NULL,"
    "  secret  boolean NOT NULL,"
    "  text    text NOT NULL,"
    "  PRIMARY KEY (enc, version)"
    ");";

/* Version 3: as SQLite's version 3, each encounter's server. */
static const char pg_schema_v3[] =
    "ALTER TABLE encounter ADD COLUMN guild bigint NOT NULL DEFAULT 0;"
    "CREATE INDEX encounter_guild ON encounter(guild, ended_ms);";

/* Version 4: as SQLite's version 4, saved rolls (macros). */
static const char pg_schema_v4[] =
    "CREATE TABLE macro ("
    "  guild      bigint NOT NULL,"
    "  user_id    bigint NOT NULL,"
    "  name       text COLLATE \"C\" NOT NULL,"
    "  dice       text NOT NULL,"
    "  by_user    bigint NOT NULL,"
    "  created_ms bigint NOT NULL,"
    "  updated_ms bigint NOT NULL,"
    "  PRIMARY KEY (guild, user_id, name)"
    ");";
/* Version 5: as SQLite's version 5, saved characters and NPC templates. */
static const char pg_schema_v5[] =
    "CREATE TABLE sheet ("
    "  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  kind       bigint NOT NULL,"
    "  guild      bigint NOT NULL,"
    "  owner      bigint NOT NULL,"
    "  name       text NOT NULL,"
    "  name_key   text NOT NULL,"
    "  system     text NOT NULL,"
    "  created_ms bigint NOT NULL,"
    "  updated_ms bigint NOT NULL,"
    "  undo_tag   text,"
    "  undo_doc   text,"
    "  doc        text NOT NULL,"
    "  UNIQUE (kind, guild, owner, name_key)"
    ");"
    "CREATE INDEX sheet_undo ON sheet(guild, undo_tag)"
    "  WHERE undo_tag IS NOT NULL;"
    "CREATE TABLE sheet_use ("
    "  guild bigint NOT NULL,"
    "  owner bigint NOT NULL,"
    "  sheet bigint NOT NULL REFERENCES sheet(id),"
    "  PRIMARY KEY (guild, owner)"
    ");"
    "CREATE INDEX sheet_use_sheet ON sheet_use(sheet);";

/* Version 6: as SQLite's version 6, the turn clocks' timers. */
static const char pg_schema_v6[] =
    "CREATE TABLE clock_timer ("
    "  channel bigint PRIMARY KEY,"
    "  guild   bigint NOT NULL,"
    "  due_ms  bigint NOT NULL"
    ");"
    "CREATE INDEX clock_timer_due ON clock_timer(due_ms);";

/* Version 7: as SQLite's version 7, what each change showed. */
static const char pg_schema_v7[] =
    "ALTER TABLE enc_change ADD COLUMN detail text NOT NULL DEFAULT '';"
    "ALTER TABLE enc_change ADD COLUMN gm_detail text NOT NULL DEFAULT '';"
    "ALTER TABLE enc_change ADD COLUMN by_name text NOT NULL DEFAULT '';";

/* Version 8: older kept versions are packed (store_hist.h). A text column
 * cannot hold the bytes, so they get a column of their own; a row holds
 * exactly one of the two, and the rows from before keep their text. */
static const char pg_schema_v8[] =
    "ALTER TABLE enc_version ALTER COLUMN doc DROP NOT NULL,"
    "  ADD COLUMN packed bytea,"
    "  ADD CONSTRAINT enc_version_one_form"
    "    CHECK ((doc IS NULL) <> (packed IS NULL));";

/* Version 9: as SQLite's version 9, each encounter counts its history. */
static const char pg_schema_v9[] =
    "ALTER TABLE encounter ADD COLUMN hist_bytes bigint NOT NULL DEFAULT 0,"
    "  ADD COLUMN hist_lines bigint NOT NULL DEFAULT 0,"
    "  ADD COLUMN hist_folded bigint NOT NULL DEFAULT 0;"
    "UPDATE encounter e SET hist_bytes = c.bytes, hist_lines = c.n"
    "  FROM (SELECT enc, sum(" STORE_PG_LINE_BYTES ") AS bytes,"
    "  count(*) AS n FROM enc_change GROUP BY enc) c WHERE c.enc = e.id;";

/* Version 10: as SQLite's version 10, the records of posted rolls by the
 * interaction that asked for them; the primary key's index is in id
 * order, so a group's rolls touch its last leaf. */
static const char pg_schema_v10[] =
    "CREATE TABLE roll_rec ("
    "  id      bigint PRIMARY KEY,"
    "  channel bigint NOT NULL,"
    "  n       bigint NOT NULL,"
    "  value   text NOT NULL"
    ");";

/* Version 11: as SQLite's version 11, the language of each turn clock's
 * posts. */
static const char pg_schema_v11[] =
    "ALTER TABLE clock_timer ADD COLUMN lang text NOT NULL DEFAULT '';";

/* Append steps, never edit a shipped one; steps[i] goes to version i + 1. */
static const struct {
    const char *what;
    const char *sql;
} pg_steps[] = {
    {"initial schema", pg_schema_v1},
    {"each encounter's history", pg_schema_v2},
    {"each encounter's server", pg_schema_v3},
    {"saved rolls (macros)", pg_schema_v4},
    {"saved characters and NPC templates", pg_schema_v5},
    {"turn clock timers", pg_schema_v6},
    {"what each change showed", pg_schema_v7},
    {"packed history", pg_schema_v8},
    {"each encounter's history counted", pg_schema_v9},
    {"roll records by interaction", pg_schema_v10},
    {"each turn clock's language", pg_schema_v11},
};

#define PG_NSTEPS ((int)(sizeof pg_steps / sizeof pg_steps[0]))

/* Run sql with no parameters; on failure one line into err. */
static enum bot_err exec_plain(PGconn *conn, const char *sql, const char *where,
                               const char *step, char *err, size_t errlen,
                               PGresult **keep)
{
    PGresult *r = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        if (keep)
            *keep = r;
        else
            PQclear(r);
        return BOT_OK;
    }
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    enum bot_err e =
        store_pg_map_state(PQresultErrorField(r, PG_DIAG_SQLSTATE));
    snprintf(err, errlen, "database %s: %s: %s", where, step,
             msg ? msg : "connection lost");
    PQclear(r);
    return e;
}

static enum bot_err migrate_in_tx(PGconn *conn, const char *where, char *err,
                                  size_t errlen)
{
    char sql[96];
    PGresult *r = NULL;
    snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock(%d)",
             STORE_PG_MIGRATE_LOCK);
    enum bot_err e = exec_plain(conn, sql, where, "locking for migration", err,
                                errlen, NULL);
    if (e == BOT_OK)
        e = exec_plain(conn,
                       "CREATE TABLE IF NOT EXISTS fray_schema ("
                       " version integer NOT NULL)",
                       where, "creating fray_schema", err, errlen, NULL);
    if (e == BOT_OK)
        e = exec_plain(conn, "SELECT version FROM fray_schema", where,
                       "reading the schema version", err, errlen, &r);
    if (e != BOT_OK)
        return e;
    int version = PQntuples(r) > 0 ? atoi(PQgetvalue(r, 0, 0)) : 0;
    bool had_row = PQntuples(r) > 0;
    PQclear(r);
    if (version > PG_NSTEPS) {
        snprintf(err, errlen,
                 "database %s has schema version %d, newer than this fray "
                 "understands (%d): run a newer fray",
                 where, version, PG_NSTEPS);
        return BOT_DB;
    }
    for (int i = version; i < PG_NSTEPS && e == BOT_OK; i++) {
        char step[96];
        snprintf(step, sizeof step, "migration to schema version %d (%s)",
                 i + 1, pg_steps[i].what);
        e = exec_plain(conn, pg_steps[i].sql, where, step, err, errlen, NULL);
    }
    if (e == BOT_OK && version < PG_NSTEPS) {
        snprintf(sql, sizeof sql,
                 had_row ? "UPDATE fray_schema SET version = %d"
                         : "INSERT INTO fray_schema VALUES (%d)",
                 PG_NSTEPS);
        e = exec_plain(conn, sql, where, "setting the schema version", err,
                       errlen, NULL);
    }
    return e;
}

enum bot_err store_pg_migrate(PGconn *conn, const char *where, char *err,
                              size_t errlen)
{
    enum bot_err e = exec_plain(conn, "BEGIN", where, "starting migration", err,
                                errlen, NULL);
    if (e != BOT_OK)
        return e;
    e = migrate_in_tx(conn, where, err, errlen);
    if (e == BOT_OK)
        return exec_plain(conn, "COMMIT", where, "committing migration", err,
                          errlen, NULL);
    PQclear(PQexec(conn, "ROLLBACK"));
    return e;
}

int store_pg_schema_current(void)
{
    return PG_NSTEPS;
}

/* `fray check`: a read-only session; no fray_schema table yet is version
 * 0 (fray creates it at its first start). */
enum bot_err store_pg_inspect(const char *location, struct store_info *info,
                              char *err, size_t errlen)
{
    char where[STORE_MAX_SHOWN], reason[STORE_MAX_REASON];
    const char *const keys[] = {"fallback_application_name", "dbname", NULL};
    const char *const vals[] = {"fray", location, NULL};
    PGresult *r = NULL;
    enum bot_err e;

    store_location_redact(location, where, sizeof where);
    info->schema_current = PG_NSTEPS;
    PGconn *conn = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        snprintf(err, errlen, "cannot connect to database %s: %s", where,
                 store_pg_conn_reason(conn, reason, sizeof reason));
        PQfinish(conn);
        return conn ? BOT_DB : BOT_NOMEM;
    }
    e = exec_plain(conn, "SET SESSION CHARACTERISTICS AS TRANSACTION "
                   "READ ONLY", where, "starting a read-only session", err,
                   errlen, NULL);
    if (e == BOT_OK)
        e = exec_plain(conn, "SELECT pg_database_size(current_database()), "
                       "to_regclass('fray_schema') IS NOT NULL", where,
                       "reading the size", err, errlen, &r);
    if (e == BOT_OK) {
        bool has_schema = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
        info->bytes = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
        PQclear(r);
        r = NULL;
        if (has_schema)
            e = exec_plain(conn, "SELECT version FROM fray_schema", where,
                           "reading the schema version", err, errlen, &r);
        if (e == BOT_OK && r && PQntuples(r) > 0)
            info->schema = atoi(PQgetvalue(r, 0, 0));
    }
    PQclear(r);
    PQfinish(conn);
    return e;
}
