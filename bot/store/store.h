/*
 * store.h - durable state: encounters, their history, and bot bookkeeping.
 *
 * Two backends behind one interface (store.c dispatches, store_backend.h):
 * an SQLite database file in WAL mode (store_sqlite.c, the default) and a
 * PostgreSQL database shared by several processes (store_pg.c), chosen by
 * the location given to store_open(). Encounters are kept
 * as serialized documents (enc_json.c) keyed by channel, one row per version:
 * the newest row is the live state, older rows are the undo history (at least
 * ENC_UNDO_DEPTH kept), and ending an encounter archives it rather than
 * deleting it. Interaction ids are recorded in the same transaction as the
 * change they caused, so a command is applied at most once even when the
 * gateway replays it. A small key/value table keeps bot state such as the
 * gateway session (for resume) and the hash of the registered commands.
 *
 * Transactions: the command layer calls store_begin(), loads, saves,
 * records, and store_commit(); only after the commit returns BOT_OK does it
 * reply. store_rollback() undoes everything since store_begin(). Begin/commit
 * pairs nest: the outermost pair is the real transaction, inner pairs are
 * savepoints. That is group commit: the dispatcher opens one outer
 * transaction for the commands that arrived together, each command runs in
 * its own inner pair (a failed one rolls back alone), and the replies go out
 * after the outer commit, one fsync for the batch. Every function that
 * writes more than one row is atomic by itself, in or out of a transaction:
 * inside one, a save that fails after it has written leaves the caller's
 * level unusable (every call fails with that error until the level is
 * rolled back; committing it rolls it back), while a refusal (conflict,
 * nothing to undo) leaves it usable.
 * If SQLite has to abandon the open transaction (disk full, I/O error), every
 * call until the outermost store_rollback() or store_commit() fails with
 * that error, and store_commit() does not commit.
 *
 * Undo: the kept versions of an encounter are exactly the live version and
 * its undo chain, the up to ENC_UNDO_DEPTH versions that /combat undo steps
 * back to, newest first. store_enc_load_before(live) is the next undo target;
 * store_enc_save_undo() stores the restored document as a new version
 * (append-only, no redo) and consumes one step of the chain, so
 * ENC_UNDO_DEPTH undos in a row work and the next one finds nothing.
 * A plain store_enc_save() pushes the previous live version onto the chain.
 *
 * Durability: each outermost commit is on disk when store_commit() returns,
 * power loss included (WAL, synchronous=FULL; docs/internals/store.md).
 *
 * Concurrency (PostgreSQL): several processes may write the same
 * encounters. Every save checks, in the same statement, that the version it
 * replaces is still the live one, and recording an interaction id another
 * process already recorded fails; both give BOT_CONFLICT, as do the
 * server's serialization failures and deadlocks. The caller rolls back and
 * retries the command on fresh state. A lost connection gives BOT_DB; the
 * next call outside a transaction reconnects once.
 *
 * Ownership: strings passed in are borrowed; strings returned through char **
 * are malloc'd and the caller frees them. Not thread-safe: one store per
 * thread.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "eng_limits.h"
#include "i18n.h"

struct store;

#define STORE_MAX_DOC (4u << 20)      /* one serialized encounter, bytes */
#define STORE_MAX_KV_VALUE 65536      /* one key/value row, bytes */
#define STORE_MAX_KV_KEY 128          /* key of a key/value row, bytes */
#define STORE_MAX_INTERACTION_ID 64   /* a snowflake is at most 20 digits */

/* Longest database location store_open and store_inspect take, in bytes: a
 * file path or a PostgreSQL conninfo or URI. Far beyond a real one (SQLite's
 * unix VFS stops at 512-byte paths), and small enough that a message naming
 * it twice fits one log line (LOG_MAX_LINE). */
#define STORE_MAX_LOCATION 2048
/* Room for a location as store_location_redact shows it: "***" can be
 * longer than the secret it stands for. */
#define STORE_MAX_SHOWN (2 * STORE_MAX_LOCATION)
/* Room for a server's or SQLite's own reason (libpq's names the socket
 * path it tried). */
#define STORE_MAX_REASON 1024
/* Room for any error message of the store. One names the location at most
 * twice (the database and its lock file) beside a reason, so an err buffer
 * of this size never cuts a path: size every one with it. */
#define STORE_MAX_ERR (2 * STORE_MAX_SHOWN + STORE_MAX_REASON)
#define STORE_MAX_CHANGE_TEXT 1024    /* one line of a fight's history */
/* What one change showed, in full (its events with every die): a command's
 * events fill one reply of at most RENDER_ENC_MAX_EVENTS_TEXT (4000) bytes
 * before Discord folds it; a little more leaves room for the heading. */
#define STORE_MAX_CHANGE_DETAIL 8192
/* A display name as Discord allows it (32 characters), in bytes. */
#define STORE_MAX_CHANGE_NAME 128
#define STORE_BUSY_TIMEOUT_MS 5000    /* wait on a reader such as a backup */

/* Open (creating and migrating) the database at path.
 * A path starting with "postgres://" or "postgresql://", or a libpq
 * "key=value ..." conninfo (one containing '='), opens PostgreSQL (see
 * store_location_is_server); anything else is an SQLite file, and
 * ":memory:" works for tests. SQLite takes an exclusive lock (flock on "<path>.lock", held until
 * store_close) so a second opener of the same file, in this process or
 * another, fails with BOT_LOCKED; ":memory:" takes none. A database from a
 * newer fray is refused (BOT_DB), a file that is not a database gives
 * BOT_DB_CORRUPT. On failure *out is NULL and err (if errlen > 0) holds a
 * one-line reason naming the file (a server location without its
 * password). */
enum bot_err store_open(const char *path, struct store **out,
                        char *err, size_t errlen);
void store_close(struct store *s);            /* NULL is a no-op */

/* A second connection to the database store_open() opened at path, for
 * reading on another thread (the daemon's /combat log worker): SQLite
 * takes no lock, runs no migration, creates nothing and opens the file
 * read-only (WAL lets it read committed data while the first connection
 * writes; the busy timeout covers a checkpoint); PostgreSQL opens a
 * second connection. Only the reading calls may be used on it. ":memory:"
 * has none (BOT_INVALID). Closed with store_close(). */
enum bot_err store_open_reader(const char *path, struct store **out,
                               char *err, size_t errlen);

/* What `fray check` says about a database, read without changing it. */
struct store_info {
    const char *backend;     /* "sqlite", "postgres" (static) */
    int schema;              /* its schema version; 0: no schema yet */
    int schema_current;      /* the version this fray writes */
    int64_t bytes;           /* on disk: the SQLite file and its WAL, or
                                PostgreSQL's pg_database_size() */
};

/* Look at the database at location read-only: no lock, no migration, no
 * file created, so it works while `fray run` holds the database.
 * BOT_NOTFOUND when an SQLite file does not exist yet (fray creates it at
 * its first start); other failures as store_open(), with err naming the
 * database (a server location without its password). */
enum bot_err store_inspect(const char *location, struct store_info *info,
                           char *err, size_t errlen);

/* See "Transactions" above. store_commit() on failure has rolled the
 * transaction back. store_rollback() with no transaction open is a no-op. */
enum bot_err store_begin(struct store *s);
enum bot_err store_commit(struct store *s);
void store_rollback(struct store *s);

/* The live encounter of a channel: its document and version.
 * BOT_NOTFOUND when the channel has none. */
enum bot_err store_enc_load(struct store *s, uint64_t channel,
                            char **doc, int64_t *version);

/* Save a new version of a channel's encounter. version must be one more than
 * the live version (or 1 for a new encounter, also after an archive), else
 * BOT_CONFLICT. The previous live version becomes the first undo step; the
 * oldest step beyond ENC_UNDO_DEPTH is deleted, so at most ENC_UNDO_DEPTH + 1
 * versions are kept. doc over STORE_MAX_DOC bytes: BOT_LIMIT. */
enum bot_err store_enc_save(struct store *s, uint64_t channel,
                            int64_t version, const char *doc);

/* The document of the newest version older than `version` still kept, for
 * undo: with `version` the live version this is the undo target.
 * BOT_NOTFOUND when there is none (nothing left to undo). */
enum bot_err store_enc_load_before(struct store *s, uint64_t channel,
                                   int64_t version, char **doc,
                                   int64_t *found_version);

/* ---- the fight's history --------------------------------------------------
 *
 * Each change to an encounter leaves one line in its history: the version
 * it made, who made it, when, whether it is the GM's alone, and what it
 * did in words, and (from schema 4 on) everything it showed, for
 * /combat recap and /combat log. The history is a log beside the
 * documents: undo adds to it and never takes from it, and it stays with
 * the encounter in the archive. Reads give "" for an absent detail.
 */
struct store_change_rec {
    int64_t version;
    uint64_t by;       /* the user who made it */
    int64_t at_ms;
    bool secret;       /* it involves a hidden combatant: the GM's */
    const char *text;  /* one line, at most STORE_MAX_CHANGE_TEXT bytes;
                          borrowed */
    const char *detail;    /* what everyone was shown, in full (markdown,
                              the rolls with their dice), at most
                              STORE_MAX_CHANGE_DETAIL bytes; "" or NULL
                              when the line says it all (older lines);
                              borrowed */
    const char *gm_detail; /* what the GM alone was shown (hidden numbers),
                              "" or NULL when it is `detail`; borrowed */
    const char *by_name;   /* by's display name then, at most
                              STORE_MAX_CHANGE_NAME bytes; "" or NULL when
                              not known; borrowed */
};

typedef enum bot_err store_change_fn(void *ctx,
                                     const struct store_change_rec *r);

/* Add the line of the change that made version r->version of the
 * channel's live encounter (after its save, in the same transaction).
 * BOT_NOTFOUND with no live encounter, BOT_CONFLICT when that version has
 * its line already. Keeps the bounds below, folding the oldest lines of a
 * fight when one is passed (store_hist_last_fold() says what went). */
enum bot_err store_change_add(struct store *s, uint64_t channel,
                              const struct store_change_rec *r);

/* store_enc_save() of doc as `version` and then store_change_add() of its
 * line (line->version == version), as one step: a backend may count the
 * line in the save's own write of the encounter row (the SQLite backend
 * does, inside a transaction, once it knows the fight's count). The
 * results, the fold (store_hist_last_fold) and the errors are those of
 * the two calls; after an error the caller's transaction is to be rolled
 * back, as after a failed save. */
enum bot_err store_enc_save_line(struct store *s, uint64_t channel,
                                 int64_t version, const char *doc,
                                 const struct store_change_rec *line);

/* ---- bounds on a fight's history (issue 33) -------------------------------
 *
 * A running fight's history lines are bounded per fight (bytes and lines)
 * and per server (bytes of every fight it keeps, live or archived). Past a
 * bound, store_change_add() folds the oldest lines of a fight into one
 * summary line at the version of the newest line folded (by 0, by_name
 * STORE_FOLD_BY, its text saying why): down to STORE_FOLD_KEEP_PCT percent
 * of the fight's bound, so a fold happens once in many changes, never at
 * each. The server's bound folds its fight with the most history (down by
 * as much as the server is over, and to STORE_FOLD_KEEP_PCT of the
 * bound); it is checked each time a fight's history crosses a step of
 * STORE_HIST_SERVER_STEP bytes, so one fight can pass it by that much at
 * most. Bytes are those of a line's text, detail, GM detail and author
 * name. The undo chain (ENC_UNDO_DEPTH versions) is bounded by itself; an
 * undo that would return to a state older than the fold is the command
 * layer's to refuse (store_hist_info's folded_to).
 */
#define STORE_HIST_FIGHT_BYTES (1 << 20)        /* default per fight */
#define STORE_HIST_FIGHT_LINES 2000             /* default per fight */
#define STORE_HIST_SERVER_BYTES (64LL << 20)    /* default per server */
/* The least a bound may be: a fight keeps at least twice its undo chain's
 * lines, and room for lines of STORE_MAX_CHANGE_DETAIL twice over. */
#define STORE_HIST_MIN_LINES (2 * ENC_UNDO_DEPTH)
#define STORE_HIST_MIN_BYTES (64 << 10)
#define STORE_HIST_SERVER_STEP (64 << 10)
#define STORE_FOLD_KEEP_PCT 75
#define STORE_FOLD_BY "fray"
/* The summary's text, by why it folded (store_fold_why), in English: the
 * store knows no language. The command layer reads its numbers back with
 * the same format and shows it in the reader's (cmd_change_line()). */
#define STORE_FOLD_FIGHT_TEXT                                                 \
    N_("Older changes (up to version %lld) were folded into this summary: " \
       "a fight keeps at most %lld KB and %lld changes of history, so undo " \
       "cannot go back past them")
#define STORE_FOLD_SERVER_TEXT                                                \
    N_("Older changes (up to version %lld) were folded into this summary: " \
       "this server's fights keep at most %lld MB of history, and this "    \
       "fight had the most")

struct store_hist_bounds {
    int64_t fight_bytes;     /* 0: STORE_HIST_FIGHT_BYTES */
    int64_t fight_lines;     /* 0: STORE_HIST_FIGHT_LINES */
    int64_t server_bytes;    /* 0: STORE_HIST_SERVER_BYTES */
};

/* Set the bounds store_change_add() keeps (copied; values below the
 * STORE_HIST_MIN_* are raised to them). A new store has the defaults. */
void store_hist_set_bounds(struct store *s, const struct store_hist_bounds *b);

/* What the channel's live fight keeps of its history: bytes and lines,
 * and the version its oldest lines were folded up to (0: none).
 * BOT_NOTFOUND when the channel has no live fight. */
struct store_hist_info {
    int64_t bytes;
    int64_t lines;
    int64_t folded_to;
};
enum bot_err store_hist_info(struct store *s, uint64_t channel,
                             struct store_hist_info *out);

/* What the last store_change_add() folded, for the notice to the GM. */
enum store_fold_why {
    STORE_FOLD_NONE = 0,
    STORE_FOLD_FIGHT,        /* the fight passed its own bound */
    STORE_FOLD_SERVER,       /* the server passed its bound */
};
struct store_fold {
    enum store_fold_why why;
    bool this_fight;         /* the fight folded is the one changed */
    int64_t upto;            /* its lines up to this version went */
    int64_t lines;           /* how many lines went */
    int64_t limit;           /* the bound passed: bytes */
    int64_t limit_lines;     /* STORE_FOLD_FIGHT: the lines bound */
};
void store_hist_last_fold(const struct store *s, struct store_fold *out);

/* The lines of the channel's live encounter made after version `after`
 * (0: all), newest first or oldest first, at most max of them, each to fn
 * (its record borrowed for the call); *total (when not NULL) is how many
 * there are after `after`. */
enum bot_err store_change_list(struct store *s, uint64_t channel,
                               int64_t after, bool newest_first, size_t max,
                               size_t *total, store_change_fn *fn, void *ctx);

/* End the channel's encounter: move it and its kept history to the archive
 * (kept, not deleted, until retention or the archive quota below; the
 * channel may start a new encounter at version 1).
 * BOT_NOTFOUND when there is none. */
enum bot_err store_enc_archive(struct store *s, uint64_t channel,
                               int64_t now_ms);

/* Make the channel's encounter that ended most recently, at since_ms or
 * later, live again (its saved versions and undo chain as they were).
 * BOT_NOTFOUND when none ended that recently or the channel has a live
 * encounter. */
enum bot_err store_enc_reopen(struct store *s, uint64_t channel,
                              int64_t now_ms, int64_t since_ms);

/* Interactions applied at most once. seen: *seen true if id was recorded.
 * record: remember id (with the channel and version it produced); an id
 * already recorded gives BOT_CONFLICT. Record in the same transaction as the
 * save, so both are committed or neither. */
enum bot_err store_interaction_seen(struct store *s, const char *id,
                                    bool *seen);
enum bot_err store_interaction_record(struct store *s, const char *id,
                                      uint64_t channel, int64_t version,
                                      int64_t now_ms);

/* Bot bookkeeping. get: BOT_NOTFOUND when the key is absent. Keys over
 * STORE_MAX_KV_KEY or values over STORE_MAX_KV_VALUE bytes: BOT_LIMIT. */
enum bot_err store_kv_get(struct store *s, const char *key, char **value);
enum bot_err store_kv_set(struct store *s, const char *key,
                          const char *value);
/* Outside any transaction: key=value committed without waiting for the
 * disk. A crash of the process keeps it (the kernel has it); a crash of
 * the machine may take it back to what the last flushed commit held. For
 * what that costs nothing to lose: the gateway's resume point after a
 * group of commands that changed nothing (docs/internals/daemon.md).
 * PostgreSQL: the same as store_kv_set(). */
enum bot_err store_kv_set_unsynced(struct store *s, const char *key,
                                   const char *value);

/* Outside any transaction: fn(s, ctx) in a transaction of its own,
 * committed without waiting for the disk, like store_kv_set_unsynced():
 * a crash of the process keeps it, a crash of the machine may take it
 * back. fn's error rolls it back and is returned. For what is not worth a
 * flush of its own: the records of rolls a group that changed nothing
 * answered (cmd_rollrec.h). PostgreSQL: an ordinary transaction. */
typedef enum bot_err store_txn_fn(struct store *s, void *ctx);
enum bot_err store_run_unsynced(struct store *s, store_txn_fn *fn,
                                void *ctx);

/* Whether the outermost transaction open now has written anything yet
 * (true when the backend cannot tell). */
bool store_wrote(struct store *s);

/* Counts for benchmarks and tests. */
enum bot_err store_enc_count(struct store *s, int64_t *live,
                             int64_t *archived);

/* The last error, for the operator's log: one line saying what failed and
 * the database's reason; never a document, a value or a password. Never
 * NULL. */
const char *store_errmsg(const struct store *s);

/* Undo: save doc, the document store_enc_load_before(live) returned, as
 * version live + 1 (else BOT_CONFLICT). The undone live version and the
 * restored one leave the history and the undo chain loses its first step.
 * BOT_NOTFOUND when there is nothing to undo. */
enum bot_err store_enc_save_undo(struct store *s, uint64_t channel,
                                 int64_t version, const char *doc);

/* Channels with a live encounter, for startup and benchmarks: up to max of
 * them into channels[], their number into *n. BOT_LIMIT when there are more
 * than max (the first max are still written). */
enum bot_err store_enc_list(struct store *s, uint64_t *channels, size_t max,
                            size_t *n);

/* SQLite: PRAGMA integrity_check. PostgreSQL: the store's own invariants
 * (every encounter's live version is kept, at most one live encounter per
 * channel). *ok true when nothing is wrong; the first problem goes to
 * store_errmsg(). */
enum bot_err store_integrity_check(struct store *s, bool *ok);

/* Forget interactions recorded before before_ms, the oldest first, at
 * most max of them (1..STORE_PRUNE_BATCH_MAX); how many went into *pruned
 * (may be NULL). An interaction's token expires after 15 minutes, so an
 * older replay could not be answered anyway; keep somewhat longer
 * (STORE_INTERACTION_KEEP_MS) to be safe. */
enum bot_err store_interaction_prune(struct store *s, int64_t before_ms,
                                     size_t max, int64_t *pruned);

/* A short setting read on every command (the user's, else the server's
 * dice syntax, and the server's language): keys looked up together, an absent key no error and no
 * message formatted, the value copied, not allocated. key NULL: not
 * looked up. found false and value "" when absent; a value of
 * STORE_KV_SHORT bytes or more is found with value "" (no short setting
 * is that long). */
#define STORE_KV_SHORT 32
#define STORE_KV_SHORT_MAX 3 /* keys a call reads */
struct store_kv_short {
    const char *key;
    bool found;
    char value[STORE_KV_SHORT];
};
enum bot_err store_kv_get_short(struct store *s, struct store_kv_short *kv,
                                size_t n);

/* Delete a key; absent keys are not an error. */
enum bot_err store_kv_delete(struct store *s, const char *key);

/* Every key starting with prefix, in key order: fn gets each key and value
 * borrowed for the call; a return other than BOT_OK stops the scan, which
 * returns it. */
typedef enum bot_err store_kv_fn(void *ctx, const char *key,
                                 const char *value);
enum bot_err store_kv_scan(struct store *s, const char *prefix,
                           store_kv_fn *fn, void *ctx);

/* The greatest key starting with prefix into key[STORE_MAX_KV_KEY + 1],
 * its value not read; BOT_NOTFOUND when there is none. For a writer that
 * numbers its keys: the last number is in the last key, with no count
 * row to keep (cmd_rollrec.h). */
enum bot_err store_kv_last(struct store *s, const char *prefix, char *key);

/* Delete every key starting with prefix that sorts before below (which
 * starts with prefix): a range, not a key at a time after a scan. */
enum bot_err store_kv_delete_below(struct store *s, const char *prefix,
                                   const char *below);

/* ---- roll records by interaction (cmd_rollrec.h) ----------------------
 * A posted roll's record on Discord, in a table of its own keyed by the id
 * of the interaction that asked for the roll (a snowflake: time-ordered,
 * so consecutive rolls from any channels append to the same last page),
 * with its channel beside it. value is the record (at most
 * STORE_MAX_KV_VALUE bytes, copied). id must be positive. */
enum bot_err store_rollrec_put(struct store *s, int64_t id, uint64_t channel,
                               const char *value);
/* The record with this id written from channel into *value (heap, the
 * caller frees); BOT_NOTFOUND when there is none, or it is another
 * channel's (no message formatted: a miss is an ordinary answer). */
enum bot_err store_rollrec_get(struct store *s, int64_t id, uint64_t channel,
                               char **value);
/* Drop every record with an id below `below` (one range of the lowest
 * ids), then, while the table holds more than max_rows, the lowest ids, at
 * most batch (>= 1) of them. The count is the span of a running number
 * written with each row (read from the first and last rows), not a scan:
 * close, not exact, when rows arrived out of id order. How many went into
 * *dropped (may be NULL). */
enum bot_err store_rollrec_trim(struct store *s, int64_t below,
                                int64_t max_rows, int64_t batch,
                                int64_t *dropped);

/* The live version of a channel's encounter without its document: cheap,
 * for a cache to check that what it holds is still current. BOT_NOTFOUND
 * when the channel has none. */
enum bot_err store_enc_version(struct store *s, uint64_t channel,
                               int64_t *version);

/* True when other processes may write the same encounters (a shared
 * server database: PostgreSQL). False for SQLite, whose file lock makes
 * this process the only writer, so what it last saved is still the live
 * state. */
bool store_shared(const struct store *s);

/* True when location names a database server (PostgreSQL) rather than an
 * SQLite file. */
bool store_location_is_server(const char *location);

/* location with every secret replaced by "***", for logs and messages:
 * the password and sslpassword conninfo keys, a URI's userinfo password
 * and its ?password= and ?sslpassword= parameters ("postgres://u:***@h/db",
 * "host=h password=*** sslpassword=*** dbname=d"). Cut to fit
 * cap (cap > 0). */
void store_location_redact(const char *location, char *out, size_t cap);

/* The backend's name: "sqlite" or "postgres". */
const char *store_backend_name(const struct store *s);

/* ---- retention and quotas ------------------------------------------------
 *
 * An encounter belongs to the server (guild) it was started in, 0 when
 * that is not known (a DM, the console, or a fight started before fray
 * kept it). Quotas count per server; guild 0 is never counted or pruned by
 * a quota.
 *
 * Retention: an archived encounter that ended long ago keeps only its
 * final version (the state it ended in); its undo chain goes, and its
 * history lines go too unless asked to keep them. A server with more
 * archived encounters than its quota loses the oldest ones whole. Neither
 * ever touches a live encounter or one that ended at or after
 * keep_after_ms (what /combat reopen can still bring back).
 */

/* An interaction id is kept this long: longer than Discord's 15-minute
 * token, so the "already done" check covers every replay it can send. */
#define STORE_INTERACTION_KEEP_MS (60 * 60 * 1000)
/* Rows (interactions) or encounters one prune call handles at most: each
 * call is one short transaction, so the event loop never waits long; the
 * caller calls again while there is more. */
#define STORE_PRUNE_BATCH_MAX 500

/* Remember which server the channel's live encounter belongs to.
 * BOT_NOTFOUND when the channel has none. */
enum bot_err store_enc_set_guild(struct store *s, uint64_t channel,
                                 uint64_t guild);

/* The live and archived encounters of a server (guild != 0). */
enum bot_err store_guild_count(struct store *s, uint64_t guild, int64_t *live,
                               int64_t *archived);

struct store_prune_cfg {
    int64_t trim_before_ms;  /* archived ones that ended before this keep
                                only their final version */
    int64_t keep_after_ms;   /* ones that ended at or after this are never
                                touched (the reopen window) */
    bool keep_history;       /* trimmed ones keep their history lines */
    int64_t max_archived;    /* per server; beyond it the oldest archived
                                ones are deleted; 0: no quota */
    size_t batch;            /* encounters per call,
                                1..STORE_PRUNE_BATCH_MAX */
};

struct store_prune_stats {
    int64_t trimmed;         /* encounters cut to their final version */
    int64_t deleted;         /* encounters deleted by the archive quota */
    int64_t versions;        /* documents removed */
    int64_t changes;         /* history lines removed */
    bool more;               /* the batch was full: call again */
};

/* Apply retention and the archive quota to at most cfg->batch encounters,
 * the oldest first (quota deletions before trims), in one transaction
 * (or savepoint); adds what it did to *st (zero it first). SQLite then
 * gives back up to STORE_VACUUM_PAGES free pages to the file system
 * (incremental auto_vacuum, docs/internals/store.md). Running it twice,
 * or from two processes on one PostgreSQL database, is harmless: the
 * second finds nothing left to do. */
enum bot_err store_enc_prune(struct store *s, const struct store_prune_cfg *cfg,
                             struct store_prune_stats *st);

/* Pages of the SQLite file one prune call gives back at most (4 KiB
 * each): bounds the time a call spends moving pages. */
#define STORE_VACUUM_PAGES 2048

/* The database's size in bytes, for the log: SQLite page_count *
 * page_size (the file without its WAL), PostgreSQL pg_database_size(). */
enum bot_err store_size(struct store *s, int64_t *bytes);

/* ---- saved sheets: characters and NPC templates ----------------------------
 *
 * A sheet is a named document kept outside any fight: a player's character
 * (owner = the player) or a server's NPC template (owner = 0). Its document
 * is a sheet in the JSON form of sheet_json.h; the store keeps it as text
 * and never looks inside. A name is unique per kind, server and owner with
 * ASCII letters' case ignored ("Aria" and "ARIA" are one character); it is
 * kept as first typed. A player "uses" at most one of their characters per
 * server (what /combat join takes when no character is named).
 *
 * Undo of a write-back: when a fight's result is written back to a sheet,
 * the sheet keeps the document from before with a tag naming that
 * write-back (undo_tag / undo_doc); store_sheet_tagged() finds the sheets
 * one write-back changed, so the GM can put them back. Saving with no tag
 * forgets the kept document.
 */

enum store_sheet_kind {
    STORE_SHEET_CHAR = 1,    /* a player's character */
    STORE_SHEET_NPC = 2,     /* a server's NPC template */
    STORE_SHEET_COND = 3,    /* a server's own condition (cmd_srvcond.c):
                                owner 0, system "all", a small document
                                with its description and default rounds */
};

/* Longest sheet name, in bytes: a combatant's name (the sheet joins a
 * fight under it). */
#define STORE_MAX_SHEET_NAME ENC_MAX_NAME
/* One sheet's document, in bytes: stats, a few attacks, a note; far
 * beyond a real sheet (sheet_json.h bounds each part). */
#define STORE_MAX_SHEET_DOC 32768
/* A ruleset id (enc.h's ENC_MAX_RS_ID, checked in store_sheet.c) and a
 * write-back tag, in bytes. */
#define STORE_MAX_SHEET_SYSTEM 15
#define STORE_MAX_SHEET_TAG 64
/* Rows one store_sheet_list() call hands out at most: Discord's 25
 * autocomplete choices, and a /character list page. */
#define STORE_MAX_SHEET_LIST 25

/* Which sheet: the kind, the server, the owner (0 for a template) and the
 * name as the user typed it. */
struct store_sheet_key {
    enum store_sheet_kind kind;
    uint64_t guild;
    uint64_t owner;
    const char *name;
};

/* A sheet's row. From store_sheet_get() its strings are malloc'd and
 * store_sheet_cleanup() frees them; handed to a callback, or to
 * store_sheet_create()/store_import_sheet(), they are borrowed. */
struct store_sheet {
    enum store_sheet_kind kind;
    uint64_t guild;
    uint64_t owner;          /* the player; 0 for a template */
    char *name;
    char *system;            /* its ruleset id */
    char *doc;               /* NULL in store_sheet_list() rows */
    char *undo_tag;          /* the last write-back; NULL: none kept */
    char *undo_doc;          /* the document before it; NULL likewise */
    int64_t created_ms, updated_ms;
    bool used;               /* a character its owner uses in guild */
};

typedef enum bot_err store_sheet_fn(void *ctx, const struct store_sheet *sh);

/* Free a store_sheet_get() row's strings and zero it; NULL is a no-op. */
void store_sheet_cleanup(struct store_sheet *sh);

/* Add sh (kind, guild, owner, name, system, doc; created and updated at
 * now_ms; no undo kept, not used). A name the key already has (case
 * ignored): BOT_CONFLICT. Names over STORE_MAX_SHEET_NAME, documents over
 * STORE_MAX_SHEET_DOC: BOT_LIMIT; empty ones: BOT_INVALID. */
enum bot_err store_sheet_create(struct store *s, const struct store_sheet *sh,
                                int64_t now_ms);

/* The sheet k names into *out (zeroed first; free with
 * store_sheet_cleanup()). BOT_NOTFOUND when there is none. */
enum bot_err store_sheet_get(struct store *s, const struct store_sheet_key *k,
                             struct store_sheet *out);

/* Replace the document of the sheet k names (updated at now_ms), and keep
 * undo_doc under undo_tag (both NULL: keep nothing; a kept one is
 * forgotten). BOT_NOTFOUND when there is none. */
enum bot_err store_sheet_update(struct store *s, const struct store_sheet_key *k,
                                const char *doc, const char *undo_tag,
                                const char *undo_doc, int64_t now_ms);

/* Delete the sheet k names (a character stops being used). BOT_NOTFOUND
 * when there is none. A fight's copy of it is not touched. */
enum bot_err store_sheet_delete(struct store *s, const struct store_sheet_key *k);

/* How many sheets of k's kind, server and owner exist (k->name unused),
 * for the quotas. */
enum bot_err store_sheet_count(struct store *s, const struct store_sheet_key *k,
                               int64_t *n);

/* The sheets of k's kind, server and owner whose name starts with
 * k->name (case ignored; "" for all), in name order (case ignored), at
 * most max (1..STORE_MAX_SHEET_LIST) of them, to fn without their
 * documents; *total (when not NULL) is how many match. */
enum bot_err store_sheet_list(struct store *s, const struct store_sheet_key *k,
                              size_t max, size_t *total, store_sheet_fn *fn,
                              void *ctx);

/* The character owner uses in guild: set it to the one named name (NULL:
 * none). BOT_NOTFOUND when owner has no such character. */
enum bot_err store_sheet_use_set(struct store *s, uint64_t guild,
                                 uint64_t owner, const char *name);
/* Its name into *name (malloc'd). BOT_NOTFOUND when none is used. */
enum bot_err store_sheet_use_get(struct store *s, uint64_t guild,
                                 uint64_t owner, char **name);

/* Every sheet of guild whose kept undo carries tag, with its documents,
 * to fn (borrowed for the call). */
enum bot_err store_sheet_tagged(struct store *s, uint64_t guild,
                                const char *tag, store_sheet_fn *fn,
                                void *ctx);

/* Every sheet of every server with its document, as store_export() gives
 * them (characters, then templates), without the rest of the store: the
 * export commands (cmd_xfer.c) keep the sender's. A scan of all sheets, for
 * a rare command; a per-owner listing would spare it. */
enum bot_err store_sheet_export(struct store *s, store_sheet_fn *fn,
                                void *ctx);

/* Add a sheet exactly as exported (times, undo, used), for `fray migrate`.
 * A name the key already has: BOT_CONFLICT. */
enum bot_err store_import_sheet(struct store *s, const struct store_sheet *sh);
/* ---- turn clock timers ----------------------------------------------------
 *
 * One row per channel whose live fight has a turn clock with something
 * still to come: when its next reminder or deadline falls due
 * (enc_clock_next() of its live state). The command layer keeps the row
 * equal to that in the transaction that saves the state, so undo, reopen
 * and the end move or clear it with the fight. A daemon asks for the
 * earliest due time (an index on it), arms one timer in its loop for that,
 * and fires a due row by claiming it: a delete conditional on the due time
 * it read, in the same transaction as what firing changes. Of several
 * processes on one PostgreSQL store only the one whose delete removed the
 * row fires it (the other's waits on the row lock and then deletes
 * nothing); a crash before the commit leaves the row for the next start.
 *
 * Sharding: a shard (shard_id of shard_count) sees only the rows of its
 * guilds, by Discord's rule (guild >> 22) % shard_count == shard_id;
 * shard_count <= 1 sees every row (the console, guild 0).
 */
struct store_timer {
    uint64_t channel;
    uint64_t guild;          /* 0: not known (the console) */
    int64_t due_ms;          /* wall clock, ms since the epoch */
    enum i18n_lang lang;     /* the table's language when no /config
                                language: is set, as the command that armed
                                the timer saw it (Discord's guild_locale,
                                the console's --lang); English for a row
                                from before schema 11 */
};

/* Due rows one store_timer_due() call returns at most. */
#define STORE_TIMER_BATCH_MAX 100

/* Set the channel's timer to due_ms with the language its posts fall back
 * to (struct store_timer), or remove it when due_ms is 0. The row keeps
 * the language's code (i18n_code()), never its number. */
enum bot_err store_timer_set(struct store *s, uint64_t channel,
                             uint64_t guild, int64_t due_ms,
                             enum i18n_lang lang);

/* The earliest due time of the shard's rows; BOT_NOTFOUND when none. */
enum bot_err store_timer_next(struct store *s, int shard_id, int shard_count,
                              int64_t *due_ms);

/* The shard's rows due at or before now_ms, the earliest first, at most
 * max (1..STORE_TIMER_BATCH_MAX) into out; how many into *n. */
enum bot_err store_timer_due(struct store *s, int shard_id, int shard_count,
                             int64_t now_ms, struct store_timer *out,
                             size_t max, size_t *n);

/* Take the channel's row if it is still due at due_ms: *claimed says
 * whether this call removed it. Call inside the transaction that applies
 * what the timer does. */
enum bot_err store_timer_claim(struct store *s, uint64_t channel,
                               int64_t due_ms, bool *claimed);

/* ---- export and import, for `fray migrate` ------------------------------ */

/* One kept version of an encounter. */
struct store_ver_rec {
    int64_t version;
    int64_t created_ms;
    const char *doc;   /* borrowed: valid during the callback / import call */
};

/* One encounter, live or archived, with everything the store keeps of it. */
struct store_enc_rec {
    uint64_t channel;
    uint64_t guild;    /* its server; 0: not known */
    int64_t version;   /* the live (for an archived one: final) version */
    int64_t created_ms, updated_ms;
    bool ended;        /* archived; then ended_ms is when */
    int64_t ended_ms;
    size_t nundo;      /* the undo chain, newest first */
    int64_t undo[ENC_UNDO_DEPTH];
    size_t nver;       /* kept versions, oldest first; one is `version` */
    struct store_ver_rec ver[ENC_UNDO_DEPTH + 1];
    size_t nchange;    /* its history, oldest first */
    const struct store_change_rec *change;
};

/* One recorded interaction. */
struct store_ix_rec {
    const char *id;    /* borrowed */
    uint64_t channel;
    int64_t version;
    int64_t created_ms;
};

/* Export callbacks: each gets a record borrowed for the call; a return
 * other than BOT_OK stops the export, which returns it. */
struct store_export_cb {
    enum bot_err (*encounter)(void *ctx, const struct store_enc_rec *r);
    enum bot_err (*interaction)(void *ctx, const struct store_ix_rec *r);
    enum bot_err (*kv)(void *ctx, const char *key, const char *value);
    /* every saved sheet (characters, then templates, each in the order
     * they were made), after the key/value rows; NULL: skip them */
    store_sheet_fn *sheet;
};

/* Every row: the encounters in the order they were started (so a
 * channel's archived ones come before its live one), then the interactions
 * by id, then the key/value rows by key, then the saved sheets. Reads one consistent snapshot
 * when called inside store_begin()/store_commit(). */
enum bot_err store_export(struct store *s, const struct store_export_cb *cb,
                          void *ctx);

/* Add an encounter exactly as exported elsewhere (timestamps, versions,
 * undo chain, archive state). The record must be consistent: its live
 * version and every undo step among its kept versions, else BOT_INVALID;
 * a live encounter for a channel that has one: BOT_CONFLICT. Atomic. */
enum bot_err store_import_encounter(struct store *s,
                                    const struct store_enc_rec *r);

/* Add a recorded interaction as exported; an id already recorded:
 * BOT_CONFLICT. */
enum bot_err store_import_interaction(struct store *s,
                                      const struct store_ix_rec *r);

/* ---- saved rolls (macros) -------------------------------------------------
 *
 * A macro is a dice expression saved under a name. Its scope is either a
 * user's own (guild 0, user = its owner), usable anywhere the user talks
 * to fray, DMs included, or a server's (guild = the server, user 0), made
 * by its managers and usable by everyone there. A name is unique within
 * its scope and compared without case: the store keeps it in lower case
 * and refuses any other form (store_macro_name_ok), so callers lower it
 * first. The dice text is kept as given, a trailing "# label" included;
 * the store bounds its length, the command layer checks it with the dice
 * parser before saving. Quotas are the caller's: store_macro_count() in
 * the same transaction as the store_macro_put() (on a shared PostgreSQL
 * database, two processes saving at once may pass a quota by one each).
 */

/* Longest macro name in bytes. Names are [a-z][a-z0-9_]*: no character
 * of the dice language ('+', '-', space, '#', digits first...), so
 * "@stealth+2" always ends the name at the '+'. */
#define STORE_MACRO_NAME_MAX 32
/* Longest dice text of a macro, its "# label" included: what the dice
 * parser accepts in one expression. */
#define STORE_MACRO_DICE_MAX DICE_MAX_EXPR_LEN

struct store_macro {
    uint64_t guild;          /* the server; 0 for a user's own */
    uint64_t user;           /* the owner of a user's own; 0 for a server's */
    uint64_t by;             /* who saved it last */
    int64_t created_ms;      /* first saved */
    int64_t updated_ms;      /* last saved */
    char name[STORE_MACRO_NAME_MAX + 1];  /* lower case */
    char dice[STORE_MACRO_DICE_MAX + 1];
};

/* Whether name is a macro name as the store keeps it: 1 to
 * STORE_MACRO_NAME_MAX bytes of [a-z0-9_], starting with a letter. */
bool store_macro_name_ok(const char *name);

/* Each macro found, borrowed for the call; a return other than BOT_OK
 * stops the scan, which returns it. */
typedef enum bot_err store_macro_fn(void *ctx, const struct store_macro *m);

/* Save m in its scope (guild, user) under m->name. A name the scope
 * already has: BOT_CONFLICT, unless replace, which changes its dice, by
 * and updated_ms and keeps created_ms. A bad name, a scope that is both
 * or neither (guild and user both 0 or both set), or empty dice:
 * BOT_INVALID; dice over STORE_MACRO_DICE_MAX bytes: BOT_LIMIT. */
enum bot_err store_macro_put(struct store *s, const struct store_macro *m,
                             bool replace);

/* The macro name of scope (guild, user) into *out. BOT_NOTFOUND when the
 * scope has none so called (a name that cannot be one included). */
enum bot_err store_macro_get(struct store *s, uint64_t guild, uint64_t user,
                             const char *name, struct store_macro *out);

/* Delete the macro name of scope (guild, user). BOT_NOTFOUND when there
 * is none. */
enum bot_err store_macro_delete(struct store *s, uint64_t guild,
                                uint64_t user, const char *name);

/* How many macros scope (guild, user) has, for its quota. */
enum bot_err store_macro_count(struct store *s, uint64_t guild, uint64_t user,
                               int64_t *n);

/* The macros of scope (guild, user) whose name starts with prefix ("" for
 * all), in name order, at most max of them (max >= 1), each to fn. A
 * prefix no name can start with finds nothing. For /macro list and the
 * autocomplete of @names. */
enum bot_err store_macro_list(struct store *s, uint64_t guild, uint64_t user,
                              const char *prefix, size_t max,
                              store_macro_fn *fn, void *ctx);

/* `fray migrate`: every macro of every scope, ordered by guild, user and
 * name, each to fn. Inside store_begin()/store_commit() for one
 * consistent snapshot. */
enum bot_err store_macro_export(struct store *s, store_macro_fn *fn,
                                void *ctx);

/* Add a macro exactly as exported elsewhere (its timestamps and by kept):
 * store_macro_put() without replace, so one the scope has already is
 * BOT_CONFLICT. */
enum bot_err store_import_macro(struct store *s, const struct store_macro *m);

#endif
