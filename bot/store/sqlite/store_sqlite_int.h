/*
 * store_sqlite_int.h - the SQLite backend's state and the helpers its files
 * share (store_sqlite.c: statements and transactions; store_sqlite_export.c:
 * export and import for `fray migrate`).
 *
 * Internal to store_sqlite*.c. Ownership: as in store.h; nothing here
 * allocates for the caller except store_sq_column_dup().
 */
#ifndef STORE_SQLITE_INT_H
#define STORE_SQLITE_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "eng_limits.h"
#include "store_backend.h"

/* One statement per STORE_STMT_MAP row in store_sqlite.c. */
#define STORE_SQ_NSTMT 54

/* Channels whose last save is remembered (store_sqlite_live.c): the
 * fights of one group commit, about; a miss costs two reads. */
#define STORE_SQ_LIVE_SLOTS 16
/* Longest live document remembered, bytes: the benchmark's 8-combatant
 * fight is 2.4 KB; a 4 MiB one (STORE_MAX_DOC) is read back instead of
 * kept 16 times over. */
#define STORE_SQ_LIVE_MAX_DOC 65536

/* Versions that fell off the end of a full undo chain are deleted
 * together once this many wait (docs/internals/store.md, "Trimming in
 * batches"): one delete of the oldest rows dirties their pages once
 * instead of at every command (10,800 instructions a save, 6% of a
 * durable command). Readers never see them: the kept versions are those
 * at or above the floor (store_sq_kept_floor). */
#define STORE_SQ_TRIM_BATCH 16

/* What a save wrote: the channel's live encounter row (id, version, undo
 * chain), the live version's text, and how many fallen-off versions wait
 * below the chain's end. Written at transaction depth `depth`: rolling
 * that level back drops it. */
struct store_sq_live {
    bool valid;
    int depth;
    int pending;
    uint64_t channel;
    int64_t id;
    int64_t version;
    struct undo_chain undo;
    char *doc; /* owned; len bytes and a NUL, cap allocated */
    size_t len, cap;
    /* The fight's history count as the database holds it, once a line
     * was counted (store_sq_live_hist): the next one is added by id and
     * not read back. */
    bool hist_known;
    struct store_hist_row hist;
};

struct store_sqlite {
    struct store base; /* first: store.c sees this part */
    sqlite3 *db;
    sqlite3_stmt *stmt[STORE_SQ_NSTMT];
    int lock_fd;          /* flock'd "<path>.lock"; -1 for ":memory:" */
    bool reader;          /* store_open_reader(): read-only, no lock */
    int depth;            /* store_begin() nesting; 0 = autocommit */
    sqlite3_int64 changes0; /* sqlite3_total_changes64() at the outermost
                               begin: store_wrote() */
    enum bot_err aborted; /* why SQLite dropped the open transaction */
    /* The transaction level a save inside it left half written (0: none):
     * every call fails with broken_err until that level is rolled back,
     * and committing it rolls it back (store_sqlite.c, sq_enc_save). */
    int broken;
    enum bot_err broken_err;
    struct store_sq_live live[STORE_SQ_LIVE_SLOTS]; /* store_sqlite_live.c */
};

#define SQ(base) ((struct store_sqlite *)(base))

/* Record a failed SQLite call in the store's message; the mapped code. */
enum bot_err store_sq_fail_rc(struct store_sqlite *s, int rc, const char *what);
/* Fail fast while the caller's transaction is lost (see store.h). */
enum bot_err store_sq_guard(struct store_sqlite *s);
/* A statement prepared once for one call (the rarer queries: saved
 * sheets and rolls, timers, export, prune), after the guard; on failure
 * the store's message says what. The caller finalizes *st. */
enum bot_err store_sq_prepare(struct store_sqlite *s, const char *sql,
                              sqlite3_stmt **st, const char *what);
/* A savepoint around one multi-row write: atomic in or out of a
 * transaction. op_end releases it on BOT_OK, else rolls it back; returns e
 * or the release's error. */
enum bot_err store_sq_op_begin(struct store_sqlite *s);
enum bot_err store_sq_op_end(struct store_sqlite *s, enum bot_err e);
/* Copy a text column into a fresh heap string (*out, caller frees). */
enum bot_err store_sq_column_dup(struct store_sqlite *s, sqlite3_stmt *st,
                                 int col, char **out);

/* The remembered saves (store_sqlite_live.c). find: the channel's slot
 * if it holds what the database holds, else NULL (borrowed until the next
 * put or drop). put: remember a save that succeeded (doc is copied; a
 * document past STORE_SQ_LIVE_MAX_DOC, or no memory, leaves the slot
 * empty). drop: forget every slot; call it wherever rows may have changed
 * or been rolled back behind the saves' back. free: at close. */
const struct store_sq_live *store_sq_live_find(struct store_sqlite *s,
                                               uint64_t channel);
void store_sq_live_put(struct store_sqlite *s, uint64_t channel, int64_t id,
                       int64_t version, const struct undo_chain *undo,
                       int pending, const char *doc, size_t len);
void store_sq_live_drop(struct store_sqlite *s);
/* hist: the channel's slot, if it holds the live row `row` is of, now
 * holds its history count (at the current level). hist_forget: the slots
 * of encounter id (0: every slot) forget theirs. */
void store_sq_live_hist(struct store_sqlite *s, uint64_t channel,
                        const struct store_hist_row *row);
void store_sq_live_hist_forget(struct store_sqlite *s, int64_t id);
/* The channel's slot, if its count is known, counts a line of `bytes`
 * more (written with the save: sq_enc_save_line). */
void store_sq_live_hist_add(struct store_sqlite *s, uint64_t channel,
                            int64_t bytes);
/* The transaction level `depth` (1 = outermost) ends: committed, its slots
 * now belong to the level below; rolled back, its slots are dropped. */
void store_sq_live_level_end(struct store_sqlite *s, int depth, bool commit);
void store_sq_live_free(struct store_sqlite *s);

/* The lowest version a live encounter keeps: its chain's end, or the live
 * version when the chain is empty. Rows below it are fallen-off versions
 * waiting for the next trim, never read. */
int64_t store_sq_kept_floor(const struct undo_chain *undo, int64_t live);

/* store_inspect() (store_sqlite_inspect.c). */
enum bot_err store_sq_inspect(const char *path, struct store_info *info,
                              char *err, size_t errlen);

/* The export and import ops (store_sqlite_export.c). */
/* A history row (version, by_user, at_ms, secret, text) of st's current
 * result into r; its text borrows from st until the next step. */
void store_sq_change_row(sqlite3_stmt *st, struct store_change_rec *r);

enum bot_err store_sq_export(struct store *base,
                             const struct store_export_cb *cb, void *ctx);
enum bot_err store_sq_import_encounter(struct store *base,
                                       const struct store_enc_rec *r);
enum bot_err store_sq_import_interaction(struct store *base,
                                         const struct store_ix_rec *r);

/* The columns of an encounter's history count, in the order
 * store_sq_hist_row reads them. */
#define STORE_SQ_HIST_COLS                                                     \
    "id, channel, guild, ended_ms IS NULL, hist_bytes, hist_lines,"           \
    " hist_folded"
void store_sq_hist_row(sqlite3_stmt *st, struct store_hist_row *r);
/* Bind a history line's version, by, at, secret, text, detail, gm_detail
 * and by_name to ?2..?9 (?1 is the caller's: channel or encounter); its
 * strings are borrowed until the statement is reset. */
void store_sq_bind_change(sqlite3_stmt *st, const struct store_change_rec *r);

/* The bounds on history (store_sqlite_bound.c): the store_ops
 * hist_sizes, hist_fold and hist_server slots; hist_note and hist_info,
 * run at every change, are prepared statements of store_sqlite.c. */
enum bot_err store_sq_hist_sizes(struct store *base, int64_t id,
                                 int64_t oldest,
                                 store_hist_size_fn *fn, void *ctx);
enum bot_err store_sq_hist_fold(struct store *base, int64_t id, int64_t upto,
                                const struct store_change_rec *summary,
                                int64_t bytes, int64_t lines);
enum bot_err store_sq_hist_server(struct store *base, uint64_t guild,
                                  int64_t *total,
                                  struct store_hist_row *most);

/* Retention, quotas and size (store_sqlite_prune.c). */
enum bot_err store_sq_enc_set_guild(struct store *base, uint64_t channel,
                                    uint64_t guild);
enum bot_err store_sq_guild_count(struct store *base, uint64_t guild,
                                  int64_t *live, int64_t *archived);
enum bot_err store_sq_enc_prune(struct store *base,
                                const struct store_prune_cfg *cfg,
                                struct store_prune_stats *st);
enum bot_err store_sq_size(struct store *base, int64_t *bytes);

/* Saved rolls (store_sqlite_macro.c): the store_ops macro_* slots. */
enum bot_err store_sq_macro_put(struct store *base,
                                const struct store_macro *m, bool replace);
enum bot_err store_sq_macro_get(struct store *base, uint64_t guild,
                                uint64_t user, const char *name,
                                struct store_macro *out);
enum bot_err store_sq_macro_delete(struct store *base, uint64_t guild,
                                   uint64_t user, const char *name);
enum bot_err store_sq_macro_count(struct store *base, uint64_t guild,
                                  uint64_t user, int64_t *n);
enum bot_err store_sq_macro_list(struct store *base, uint64_t guild,
                                 uint64_t user, const char *prefix,
                                 size_t max, store_macro_fn *fn, void *ctx);
enum bot_err store_sq_macro_export(struct store *base, store_macro_fn *fn,
                                   void *ctx);
/* Saved sheets (store_sqlite_sheet.c): the ops of the same names. */
enum bot_err store_sq_sheet_get(struct store *base,
                                const struct store_sheet_key *k,
                                struct store_sheet *out);
enum bot_err store_sq_sheet_update(struct store *base,
                                   const struct store_sheet_key *k,
                                   const char *doc, const char *undo_tag,
                                   const char *undo_doc, int64_t now_ms);
enum bot_err store_sq_sheet_delete(struct store *base,
                                   const struct store_sheet_key *k);
enum bot_err store_sq_sheet_count(struct store *base,
                                  const struct store_sheet_key *k, int64_t *n);
enum bot_err store_sq_sheet_list(struct store *base,
                                 const struct store_sheet_key *k, size_t max,
                                 size_t *total, store_sheet_fn *fn, void *ctx);
enum bot_err store_sq_sheet_use_set(struct store *base, uint64_t guild,
                                    uint64_t owner, const char *key);
enum bot_err store_sq_sheet_use_get(struct store *base, uint64_t guild,
                                    uint64_t owner, char **name);
enum bot_err store_sq_sheet_tagged(struct store *base, uint64_t guild,
                                   const char *tag, store_sheet_fn *fn,
                                   void *ctx);
enum bot_err store_sq_export_sheets(struct store *base, store_sheet_fn *fn,
                                    void *ctx);
enum bot_err store_sq_import_sheet(struct store *base,
                                   const struct store_sheet *sh,
                                   const char *key);
/* The turn clocks' timers (store_sqlite_timer.c). */
enum bot_err store_sq_timer_set(struct store *base, uint64_t channel,
                                uint64_t guild, int64_t due_ms,
                                const char *lang);
enum bot_err store_sq_timer_next(struct store *base, int shard_id,
                                 int shard_count, int64_t *due_ms);
enum bot_err store_sq_timer_due(struct store *base, int shard_id,
                                int shard_count, int64_t now_ms,
                                struct store_timer *out, size_t max,
                                size_t *n);
enum bot_err store_sq_timer_claim(struct store *base, uint64_t channel,
                                  int64_t due_ms, bool *claimed);

#endif
