/*
 * store_pg_int.h - the PostgreSQL backend's state and the helpers its files
 * share (store_pg.c: connection, transactions, encounters, interactions,
 * kv; store_pg_schema.c: schema, migrations, SQLSTATE mapping;
 * store_pg_export.c: export and import for `fray migrate`).
 *
 * Every statement is prepared once per connection (again after a
 * reconnect) from one table, with explicit parameter types; parameters and
 * results travel in binary format, so documents are sent as they are and
 * never quoted into SQL.
 *
 * Internal to store_pg*.c and their tests. Ownership: as in store.h.
 */
#ifndef STORE_PG_INT_H
#define STORE_PG_INT_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "store_backend.h"

#define STORE_PG_MAX_PARAMS 11

/* The columns of a macro row, in the order store_pg_macro.c reads them. */
#define PG_MACRO_COLS                                                          \
    "guild, user_id, name, dice, by_user, created_ms, updated_ms"

/* The bytes one enc_change row counts for (store.h "bounds"). */
#define STORE_PG_LINE_BYTES                                                    \
    "octet_length(text) + octet_length(detail) + octet_length(gm_detail)"     \
    " + octet_length(by_name)"
/* The columns of an encounter's history count, in the order
 * store_pg_hist_row reads them. */
#define STORE_PG_HIST_COLS                                                     \
    "id, channel, guild, (ended_ms IS NULL)::int4::int8, hist_bytes,"         \
    " hist_lines, hist_folded"

/* Statements: name, parameter types (i = int8, t = text, b = bytea), SQL.
 * Comments give the parameters and the columns returned. */
#define STORE_PG_STMT_MAP(X)                                                   \
    /* $1 channel -> id, version, undo */                                      \
    X(LIVE, "i",                                                               \
      "SELECT id, version, undo FROM encounter"                                \
      " WHERE channel = $1 AND ended_ms IS NULL")                              \
    /* $1 channel -> version, doc */                                           \
    X(LIVE_DOC, "i",                                                           \
      "SELECT v.version, v.doc FROM encounter e"                               \
      " JOIN enc_version v ON v.enc = e.id AND v.version = e.version"          \
      " WHERE e.channel = $1 AND e.ended_ms IS NULL")                          \
    /* $1 channel, $2 version -> version, doc, packed, enc: the kept rows    \
     * from the live one down to the newest below $2 (store_hist.h: each     \
     * packed row needs the one above it) */                                 \
    X(BEFORE_DOC, "ii",                                                        \
      "SELECT v.version, v.doc, v.packed, e.id FROM encounter e"               \
      " JOIN enc_version v ON v.enc = e.id"                                    \
      " WHERE e.channel = $1 AND e.ended_ms IS NULL"                           \
      " AND v.version >= (SELECT max(w.version) FROM enc_version w"            \
      " WHERE w.enc = e.id AND w.version < $2) ORDER BY v.version DESC")       \
    /* $1 channel, $2 version, $3 undo, $4 now -> id; no row when another      \
     * process has a live encounter in the channel */                          \
    X(ENC_INSERT, "iibi",                                                      \
      "INSERT INTO encounter (channel, version, undo, created_ms,"             \
      " updated_ms) VALUES ($1, $2, $3, $4, $4)"                               \
      " ON CONFLICT (channel) WHERE ended_ms IS NULL DO NOTHING"               \
      " RETURNING id")                                                         \
    /* $1 id, $2 version, $3 undo, $4 now, $5 the version replaced; no row     \
     * changed when another process saved or archived meanwhile */             \
    X(ENC_UPDATE, "iibii",                                                     \
      "UPDATE encounter SET version = $2, undo = $3, updated_ms = $4"          \
      " WHERE id = $1 AND version = $5 AND ended_ms IS NULL")                  \
    /* $1 channel, $2 now */                                                   \
    X(ENC_REOPEN, "iii",                                                       \
      "UPDATE encounter SET ended_ms = NULL, updated_ms = $2"                  \
      " WHERE id = (SELECT id FROM encounter WHERE channel = $1"               \
      " AND ended_ms IS NOT NULL AND ended_ms >= $3"                           \
      " ORDER BY ended_ms DESC, id DESC LIMIT 1)"                              \
      " AND NOT EXISTS (SELECT 1 FROM encounter WHERE channel = $1"            \
      " AND ended_ms IS NULL)")                                                \
    X(ENC_ARCHIVE, "ii",                                                       \
      "UPDATE encounter SET ended_ms = $2, updated_ms = $2"                    \
      " WHERE channel = $1 AND ended_ms IS NULL")                              \
    /* $1 channel, $2 version, $3 by, $4 at, $5 secret (0/1), $6 text,     \
     * $7 detail, $8 gm_detail, $9 by_name; no row when there is no live     \
     * encounter or the line exists */                                         \
    X(CHG_ADD, "iiiiitttt",                                                    \
      "INSERT INTO enc_change (enc, version, by_user, at_ms, secret, text,"    \
      " detail, gm_detail, by_name)"                                           \
      " SELECT id, $2, $3, $4, $5 <> 0, $6, $7, $8, $9 FROM encounter"         \
      " WHERE channel = $1 AND ended_ms IS NULL ON CONFLICT DO NOTHING")       \
    /* $1 channel, $2 after, $3 limit -> version, by, at, secret, text */     \
    X(CHG_NEW, "iii",                                                          \
      "SELECT c.version, c.by_user, c.at_ms, c.secret::int4::int8, c.text,"    \
      " c.detail, c.gm_detail, c.by_name"                                      \
      " FROM encounter e JOIN enc_change c ON c.enc = e.id"                    \
      " WHERE e.channel = $1 AND e.ended_ms IS NULL AND c.version > $2"        \
      " ORDER BY c.version DESC LIMIT $3")                                     \
    X(CHG_OLD, "iii",                                                          \
      "SELECT c.version, c.by_user, c.at_ms, c.secret::int4::int8, c.text,"    \
      " c.detail, c.gm_detail, c.by_name"                                      \
      " FROM encounter e JOIN enc_change c ON c.enc = e.id"                    \
      " WHERE e.channel = $1 AND e.ended_ms IS NULL AND c.version > $2"        \
      " ORDER BY c.version LIMIT $3")                                          \
    X(CHG_COUNT, "ii",                                                         \
      "SELECT count(*) FROM encounter e JOIN enc_change c ON c.enc = e.id"     \
      " WHERE e.channel = $1 AND e.ended_ms IS NULL AND c.version > $2")       \
    /* $1 channel, $2 bytes -> STORE_PG_HIST_COLS */                           \
    X(HIST_NOTE, "ii",                                                         \
      "UPDATE encounter SET hist_bytes = hist_bytes + $2,"                     \
      " hist_lines = hist_lines + 1"                                           \
      " WHERE channel = $1 AND ended_ms IS NULL"                               \
      " RETURNING " STORE_PG_HIST_COLS)                                        \
    X(HIST_INFO, "i",                                                          \
      "SELECT " STORE_PG_HIST_COLS " FROM encounter"                           \
      " WHERE channel = $1 AND ended_ms IS NULL")                              \
    X(ENC_LIST, "",                                                            \
      "SELECT channel FROM encounter WHERE ended_ms IS NULL"                   \
      " ORDER BY channel")                                                     \
    X(COUNTS, "",                                                              \
      "SELECT count(*) FILTER (WHERE ended_ms IS NULL),"                       \
      " count(*) FILTER (WHERE ended_ms IS NOT NULL) FROM encounter")          \
    /* $1 enc, $2 version, $3 now, $4 doc */                                   \
    X(VER_INSERT, "iiit",                                                      \
      "INSERT INTO enc_version (enc, version, created_ms, doc)"                \
      " VALUES ($1, $2, $3, $4)")                                              \
    /* $1 enc, $2 version, $3 packed doc (store_hist.h) */                     \
    X(VER_PACK, "iib",                                                         \
      "UPDATE enc_version SET doc = NULL, packed = $3"                         \
      " WHERE enc = $1 AND version = $2")                                      \
    /* $1 enc, $2 version, $3 now, $4 packed doc */                            \
    X(VER_INSERT_PACKED, "iiib",                                               \
      "INSERT INTO enc_version (enc, version, created_ms, packed)"             \
      " VALUES ($1, $2, $3, $4)")                                              \
    /* $1 enc, $2 version */                                                   \
    X(VER_DELETE, "ii",                                                        \
      "DELETE FROM enc_version WHERE enc = $1 AND version = $2")               \
    X(IX_SEEN, "t", "SELECT 1 FROM interaction WHERE id = $1")                 \
    /* no row inserted when the id is already recorded */                      \
    X(IX_RECORD, "tiii",                                                       \
      "INSERT INTO interaction (id, channel, version, created_ms)"             \
      " VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING")                  \
    /* $1 before, $2 limit: the oldest first, a bounded batch */               \
    X(IX_PRUNE, "ii",                                                          \
      "DELETE FROM interaction WHERE id IN (SELECT id FROM interaction"        \
      " WHERE created_ms < $1 ORDER BY created_ms LIMIT $2)")                  \
    X(KV_GET, "t", "SELECT value FROM kv WHERE key = $1")                      \
    X(KV_SET, "tt",                                                            \
      "INSERT INTO kv (key, value) VALUES ($1, $2)"                            \
      " ON CONFLICT (key) DO UPDATE SET value = excluded.value")               \
    X(KV_DELETE, "t", "DELETE FROM kv WHERE key = $1")                         \
    X(KV_SCAN, "t", "SELECT key, value FROM kv WHERE left(key, length($1))"    \
                    " = $1 ORDER BY key")                                      \
    /* roll records by interaction (store.h): $1 id, $2 channel, $3 value;     \
     * n one past the last row's */                                            \
    X(ROLLREC_PUT, "iit",                                                      \
      "INSERT INTO roll_rec (id, channel, n, value) VALUES ($1, $2,"           \
      " coalesce((SELECT n FROM roll_rec ORDER BY id DESC LIMIT 1), 0) + 1,"   \
      " $3) ON CONFLICT (id) DO UPDATE SET channel = excluded.channel,"        \
      " value = excluded.value")                                               \
    X(ROLLREC_GET, "ii",                                                       \
      "SELECT value FROM roll_rec WHERE id = $1 AND channel = $2")             \
    X(ROLLREC_AGE, "i", "DELETE FROM roll_rec WHERE id < $1")                  \
    X(ROLLREC_ROWS, "",                                                        \
      "SELECT coalesce((SELECT n FROM roll_rec ORDER BY id DESC LIMIT 1)"      \
      " - (SELECT n FROM roll_rec ORDER BY id LIMIT 1) + 1, 0)")               \
    /* $1 how many of the lowest ids */                                        \
    X(ROLLREC_CAP, "i",                                                        \
      "DELETE FROM roll_rec WHERE id IN (SELECT id FROM roll_rec"              \
      " ORDER BY id LIMIT $1)")                                                \
    /* encounters whose live version is missing from enc_version */            \
    X(INTEGRITY, "",                                                           \
      "SELECT count(*) FROM encounter e WHERE NOT EXISTS"                      \
      " (SELECT 1 FROM enc_version v"                                          \
      " WHERE v.enc = e.id AND v.version = e.version)")                        \
    X(EXP_ENC, "",                                                             \
      "SELECT id, channel, version, undo, created_ms, updated_ms,"             \
      " ended_ms, guild FROM encounter ORDER BY id")                           \
    X(EXP_VER, "i",                                                            \
      "SELECT version, created_ms, doc, packed FROM enc_version"               \
      " WHERE enc = $1 ORDER BY version")                                      \
    X(EXP_CHG, "i",                                                            \
      "SELECT version, by_user, at_ms, secret::int4::int8, text, detail,"      \
      " gm_detail, by_name FROM enc_change"                                    \
      " WHERE enc = $1 ORDER BY version")                                      \
    /* $1 enc, $2 version, $3 by, $4 at, $5 secret (0/1), $6 text,         \
     * $7 detail, $8 gm_detail, $9 by_name */                                  \
    X(IMP_CHG, "iiiiitttt",                                                    \
      "INSERT INTO enc_change (enc, version, by_user, at_ms, secret, text,"    \
      " detail, gm_detail, by_name)"                                           \
      " VALUES ($1, $2, $3, $4, $5 <> 0, $6, $7, $8, $9)")                     \
    X(EXP_IX, "",                                                              \
      "SELECT id, channel, version, created_ms FROM interaction"               \
      " ORDER BY id COLLATE \"C\"")                                            \
    X(EXP_KV, "", "SELECT key, value FROM kv ORDER BY key COLLATE \"C\"")      \
    /* $1 channel, $2 version, $3 undo, $4 created, $5 updated, $6 ended       \
     * (NULL: live), $7 guild -> id; no row when the channel has a live one */ \
    X(IMP_ENC, "iibiiii",                                                      \
      "INSERT INTO encounter (channel, version, undo, created_ms,"             \
      " updated_ms, ended_ms, guild) VALUES ($1, $2, $3, $4, $5, $6, $7)"      \
      " ON CONFLICT DO NOTHING RETURNING id")                                  \
    /* retention and quotas (store_pg_prune.c) */                              \
    /* $1 channel, $2 guild */                                                 \
    X(SET_GUILD, "ii",                                                         \
      "UPDATE encounter SET guild = $2"                                        \
      " WHERE channel = $1 AND ended_ms IS NULL")                              \
    /* $1 guild -> live, archived */                                           \
    X(GUILD_COUNT, "i",                                                        \
      "SELECT count(*) FILTER (WHERE ended_ms IS NULL),"                       \
      " count(*) FILTER (WHERE ended_ms IS NOT NULL)"                          \
      " FROM encounter WHERE guild = $1")                                      \
    /* $1 quota, $2 keep after, $3 limit -> id, version: a server's archived   \
     * encounters beyond its newest $1, oldest first */                        \
    X(PRUNE_QUOTA, "iii",                                                      \
      "SELECT id, version FROM (SELECT id, version, ended_ms, row_number()"    \
      " OVER (PARTITION BY guild ORDER BY ended_ms DESC, id DESC) AS rn"       \
      " FROM encounter WHERE ended_ms IS NOT NULL AND guild <> 0) q"           \
      " WHERE rn > $1 AND ended_ms < $2 ORDER BY ended_ms, id LIMIT $3")       \
    /* $1 ended before, $2 keep history (0/1), $3 limit -> id, version */      \
    X(PRUNE_TRIM, "iii",                                                       \
      "SELECT id, version FROM encounter e"                                    \
      " WHERE ended_ms IS NOT NULL AND ended_ms < $1"                          \
      " AND (length(undo) > 0 OR ($2 = 0 AND EXISTS"                           \
      " (SELECT 1 FROM enc_change c WHERE c.enc = e.id)))"                     \
      " ORDER BY ended_ms, id LIMIT $3")                                       \
    X(DEL_CHG, "i", "DELETE FROM enc_change WHERE enc = $1")                   \
    X(DEL_VER, "i", "DELETE FROM enc_version WHERE enc = $1")                  \
    X(DEL_ENC, "i", "DELETE FROM encounter WHERE id = $1")                     \
    /* $1 enc, $2 its final version */                                         \
    X(TRIM_VER, "ii",                                                          \
      "DELETE FROM enc_version WHERE enc = $1 AND version <> $2")              \
    /* $1 enc, $2 1 to keep the history's count, 0 when it went */           \
    X(TRIM_UNDO, "ii", "UPDATE encounter SET undo = '\\x',"                     \
      " hist_bytes = hist_bytes * $2, hist_lines = hist_lines * $2"            \
      " WHERE id = $1")                                                        \
    X(SIZE, "", "SELECT pg_database_size(current_database())")               \
    /* ---- saved rolls (macros), store_pg_macro.c ---- */                    \
    /* $1 guild, $2 user, $3 name, $4 dice, $5 by, $6 created, $7 updated;    \
     * no row changed when the scope has the name (MACRO_ADD) */              \
    X(MACRO_ADD, "iittiii",                                                    \
      "INSERT INTO macro (" PG_MACRO_COLS ")"                                  \
      " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING")           \
    X(MACRO_SET, "iittiii",                                                    \
      "INSERT INTO macro (" PG_MACRO_COLS ")"                                  \
      " VALUES ($1, $2, $3, $4, $5, $6, $7)"                                   \
      " ON CONFLICT (guild, user_id, name) DO UPDATE SET"                      \
      " dice = excluded.dice, by_user = excluded.by_user,"                     \
      " updated_ms = excluded.updated_ms")                                     \
    /* $1 guild, $2 user, $3 name -> PG_MACRO_COLS */                          \
    X(MACRO_GET, "iit",                                                        \
      "SELECT " PG_MACRO_COLS " FROM macro"                                    \
      " WHERE guild = $1 AND user_id = $2 AND name = $3")                      \
    X(MACRO_DEL, "iit",                                                        \
      "DELETE FROM macro WHERE guild = $1 AND user_id = $2 AND name = $3")     \
    X(MACRO_COUNT, "ii",                                                       \
      "SELECT count(*) FROM macro WHERE guild = $1 AND user_id = $2")          \
    /* $1 guild, $2 user, $3 prefix, $4 limit -> PG_MACRO_COLS; names are     \
     * [a-z0-9_] in "C" order, and '{' follows 'z' */                         \
    X(MACRO_LIST, "iiti",                                                      \
      "SELECT " PG_MACRO_COLS " FROM macro"                                    \
      " WHERE guild = $1 AND user_id = $2"                                     \
      " AND name >= $3 AND name < $3 || '{' ORDER BY name LIMIT $4")           \
    X(MACRO_EXPORT, "",                                                        \
      "SELECT " PG_MACRO_COLS " FROM macro ORDER BY guild, user_id, name")   \
    /* turn clock timers (store_pg_timer.c) */                                 \
    /* $1 channel, $2 guild, $3 due, $4 language code */                       \
    X(TIMER_SET, "iiit",                                                       \
      "INSERT INTO clock_timer (channel, guild, due_ms, lang)"                 \
      " VALUES ($1, $2, $3, $4) ON CONFLICT (channel) DO UPDATE"               \
      " SET guild = excluded.guild, due_ms = excluded.due_ms,"                 \
      " lang = excluded.lang")                                                 \
    X(TIMER_CLEAR, "i", "DELETE FROM clock_timer WHERE channel = $1")          \
    /* $1 shard id, $2 shard count -> due */                                   \
    X(TIMER_NEXT, "ii",                                                        \
      "SELECT due_ms FROM clock_timer WHERE ($2 <= 1"                          \
      " OR (guild >> 22) % $2 = $1) ORDER BY due_ms LIMIT 1")                  \
    /* $1 shard id, $2 shard count, $3 now, $4 limit                         \
     * -> channel, guild, due, lang */                                         \
    X(TIMER_DUE, "iiii",                                                       \
      "SELECT channel, guild, due_ms, lang FROM clock_timer"                   \
      " WHERE due_ms <= $3"                                                    \
      " AND ($2 <= 1 OR (guild >> 22) % $2 = $1)"                              \
      " ORDER BY due_ms, channel LIMIT $4")                                    \
    /* $1 channel, $2 due: removes the row only while it is still that */      \
    X(TIMER_CLAIM, "ii",                                                       \
      "DELETE FROM clock_timer WHERE channel = $1 AND due_ms = $2")

enum store_pg_stmt {
#define STORE_PG_STMT_ENUM_(n, types, sql) PGS_##n,
    STORE_PG_STMT_MAP(STORE_PG_STMT_ENUM_)
#undef STORE_PG_STMT_ENUM_
        PGS__COUNT
};

struct store_pg {
    struct store base; /* first: store.c sees this part */
    PGconn *conn;
    int depth;            /* store_begin() nesting; 0 = autocommit */
    enum bot_err aborted; /* why the server dropped the open transaction */
    int aborted_depth;    /* the nesting level it happened at */
    bool prepared;        /* the statements exist on this connection */
};

#define PG(base) ((struct store_pg *)(base))

/* Parameters of one statement, binary format. */
struct pg_args {
    int n;
    const char *val[STORE_PG_MAX_PARAMS];
    int len[STORE_PG_MAX_PARAMS];
    int fmt[STORE_PG_MAX_PARAMS];
    unsigned char num[STORE_PG_MAX_PARAMS][8];
};

void store_pg_arg_i64(struct pg_args *a, int64_t v);
void store_pg_arg_text(struct pg_args *a, const char *s);
void store_pg_arg_bytes(struct pg_args *a, const void *p, size_t n);
void store_pg_arg_null(struct pg_args *a);
/* Append a history line's version, by, at, secret (0/1), text, detail,
 * gm_detail and by_name (borrowed), as CHG_ADD takes them after its
 * first. */
void store_pg_arg_change(struct pg_args *a, const struct store_change_rec *c);

/* Run prepared statement id. On success the result (PGRES_TUPLES_OK or
 * PGRES_COMMAND_OK; binary columns) goes to *out, cleared by the caller
 * with PQclear. On failure *out is NULL, the store's message says `what`
 * and the server's reason (never a parameter), and the error is mapped. */
enum bot_err store_pg_exec(struct store_pg *s, enum store_pg_stmt id,
                           const struct pg_args *a, const char *what,
                           PGresult **out);
/* A history row (version, by_user, at_ms, secret, text) of result r into
 * c; its text borrows from r. */
void store_pg_change_row(const PGresult *r, int row,
                         struct store_change_rec *c);
/* An int8 column of row 0.. of a binary result. */
int64_t store_pg_i64(const PGresult *r, int row, int col);
/* Copy a text column of a binary result into a fresh heap string. */
enum bot_err store_pg_text_dup(struct store_pg *s, const PGresult *r, int row,
                               int col, char **out);
/* Fail fast while the caller's transaction is lost; reconnect once when
 * outside a transaction and the connection is gone. */
enum bot_err store_pg_ready(struct store_pg *s);
/* Make a multi-statement write atomic: BEGIN when no transaction is open
 * (store_pg_op_end commits it, or rolls back on error); inside one, the
 * statements only fail by aborting the transaction, which the caller's
 * rollback undoes. */
enum bot_err store_pg_op_begin(struct store_pg *s);
enum bot_err store_pg_op_end(struct store_pg *s, enum bot_err e);

/* store_pg_schema.c */
/* Create or migrate the schema (one transaction, serialized between
 * processes by an advisory lock). err names `where` (the redacted
 * location). */
enum bot_err store_pg_migrate(PGconn *conn, const char *where, char *err,
                              size_t errlen);
/* store_pg_err.c: a failed result's SQLSTATE to the bot's error code. */
enum bot_err store_pg_map_state(const char *sqlstate);

/* store_pg_err.c: the first line of libpq's connection message (no
 * password in it) into buf. */
const char *store_pg_conn_reason(PGconn *conn, char *buf, size_t cap);

/* store_inspect(): the schema version and the size, read-only. */
enum bot_err store_pg_inspect(const char *location, struct store_info *info,
                              char *err, size_t errlen);
/* The number of schema steps this build knows (its current version). */
int store_pg_schema_current(void);

/* store_pg_bound.c: the bounds on history, the store_ops hist_* slots. */
void store_pg_hist_row(const PGresult *r, int row, struct store_hist_row *h);
enum bot_err store_pg_hist_note(struct store *base, uint64_t channel,
                                int64_t bytes, struct store_hist_row *out);
enum bot_err store_pg_hist_info(struct store *base, uint64_t channel,
                                struct store_hist_row *out);
enum bot_err store_pg_hist_sizes(struct store *base, int64_t id,
                                 int64_t oldest,
                                 store_hist_size_fn *fn, void *ctx);
enum bot_err store_pg_hist_fold(struct store *base, int64_t id, int64_t upto,
                                const struct store_change_rec *summary,
                                int64_t bytes, int64_t lines);
enum bot_err store_pg_hist_server(struct store *base, uint64_t guild,
                                  int64_t *total, struct store_hist_row *most);

/* store_pg_export.c: the export and import ops. */
enum bot_err store_pg_export(struct store *base,
                             const struct store_export_cb *cb, void *ctx);
enum bot_err store_pg_import_encounter(struct store *base,
                                       const struct store_enc_rec *r);
enum bot_err store_pg_import_interaction(struct store *base,
                                         const struct store_ix_rec *r);

/* store_pg_prune.c: retention, quotas and size. */
enum bot_err store_pg_enc_set_guild(struct store *base, uint64_t channel,
                                    uint64_t guild);
enum bot_err store_pg_guild_count(struct store *base, uint64_t guild,
                                  int64_t *live, int64_t *archived);
enum bot_err store_pg_enc_prune(struct store *base,
                                const struct store_prune_cfg *cfg,
                                struct store_prune_stats *st);
enum bot_err store_pg_size(struct store *base, int64_t *bytes);

/* The turn clocks' timers (store_pg_timer.c). */
enum bot_err store_pg_timer_set(struct store *base, uint64_t channel,
                                uint64_t guild, int64_t due_ms,
                                const char *lang);
enum bot_err store_pg_timer_next(struct store *base, int shard_id,
                                 int shard_count, int64_t *due_ms);
enum bot_err store_pg_timer_due(struct store *base, int shard_id,
                                int shard_count, int64_t now_ms,
                                struct store_timer *out, size_t max,
                                size_t *n);
enum bot_err store_pg_timer_claim(struct store *base, uint64_t channel,
                                  int64_t due_ms, bool *claimed);
/* Run statement id without rows wanted; the rows it changed into
 * *changed when not NULL. */
enum bot_err store_pg_run(struct store_pg *s, enum store_pg_stmt id,
                          const struct pg_args *a, const char *what,
                          long *changed);

/* store_pg_macro.c: saved rolls, the store_ops macro_* slots. */
enum bot_err store_pg_macro_put(struct store *base,
                                const struct store_macro *m, bool replace);
enum bot_err store_pg_macro_get(struct store *base, uint64_t guild,
                                uint64_t user, const char *name,
                                struct store_macro *out);
enum bot_err store_pg_macro_delete(struct store *base, uint64_t guild,
                                   uint64_t user, const char *name);
enum bot_err store_pg_macro_count(struct store *base, uint64_t guild,
                                  uint64_t user, int64_t *n);
enum bot_err store_pg_macro_list(struct store *base, uint64_t guild,
                                 uint64_t user, const char *prefix,
                                 size_t max, store_macro_fn *fn, void *ctx);
enum bot_err store_pg_macro_export(struct store *base, store_macro_fn *fn,
                                   void *ctx);
/* Run sql unprepared, for statements used once per command rather than
 * per turn (store_pg_sheet.c): types as the statement map's letters, one
 * per parameter in a (a->n of them). Results and errors as
 * store_pg_exec(). */
enum bot_err store_pg_exec_sql(struct store_pg *s, const char *sql,
                               const char *types, const struct pg_args *a,
                               const char *what, PGresult **out);

/* Saved sheets (store_pg_sheet.c): the ops of the same names. */
enum bot_err store_pg_sheet_get(struct store *base,
                                const struct store_sheet_key *k,
                                struct store_sheet *out);
enum bot_err store_pg_sheet_update(struct store *base,
                                   const struct store_sheet_key *k,
                                   const char *doc, const char *undo_tag,
                                   const char *undo_doc, int64_t now_ms);
enum bot_err store_pg_sheet_delete(struct store *base,
                                   const struct store_sheet_key *k);
enum bot_err store_pg_sheet_count(struct store *base,
                                  const struct store_sheet_key *k, int64_t *n);
enum bot_err store_pg_sheet_list(struct store *base,
                                 const struct store_sheet_key *k, size_t max,
                                 size_t *total, store_sheet_fn *fn, void *ctx);
enum bot_err store_pg_sheet_use_set(struct store *base, uint64_t guild,
                                    uint64_t owner, const char *key);
enum bot_err store_pg_sheet_use_get(struct store *base, uint64_t guild,
                                    uint64_t owner, char **name);
enum bot_err store_pg_sheet_tagged(struct store *base, uint64_t guild,
                                   const char *tag, store_sheet_fn *fn,
                                   void *ctx);
enum bot_err store_pg_export_sheets(struct store *base, store_sheet_fn *fn,
                                    void *ctx);
enum bot_err store_pg_import_sheet(struct store *base,
                                   const struct store_sheet *sh,
                                   const char *key);

/* Test hook: the live connection (to kill its backend). Borrowed. */
PGconn *store__pg_conn(struct store *s);

#endif
