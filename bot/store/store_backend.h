/*
 * store_backend.h - what a store backend implements (store.c dispatches).
 *
 * Internal to store*.c and their tests; the rest of the bot sees store.h.
 * A backend is one `const struct store_ops` listed in store.c's registry
 * (SQLite, PostgreSQL). Its own state is a struct whose FIRST member is
 * `struct store`, so store.c and the backend convert pointers both ways.
 *
 * Arguments reaching an op are already checked by store.c: documents,
 * keys, values and interaction ids are non-NULL and within the STORE_MAX_*
 * limits. Ops report failures through store__fail() (or by writing
 * s->errmsg), so store_errmsg() works the same for every backend. The
 * semantics of each op are those of the store.h function of the same name.
 *
 * Ownership: as in store.h. Records handed to export callbacks are
 * borrowed for the call.
 */
#ifndef STORE_BACKEND_H
#define STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define STORE_OPS_VERSION 1
#define STORE_MAX_ERRMSG 256

/* The part of every backend's store that store.c reads. */
struct store {
    const struct store_ops *ops;
    char errmsg[STORE_MAX_ERRMSG]; /* store_errmsg(): one line, no document */
    struct store_hist_bounds hist; /* store_hist_set_bounds(), filled in */
    struct store_fold fold;        /* what the last change_add folded */
};

/* A fight's history as its encounter row counts it (store_bound.c). */
struct store_hist_row {
    int64_t id;              /* the encounter's id */
    uint64_t channel;
    uint64_t guild;
    bool live;
    int64_t bytes, lines, folded_to;
};

/* One history line's size, newest first, for planning a fold. */
typedef enum bot_err store_hist_size_fn(void *ctx, int64_t version,
                                        int64_t at_ms, int64_t bytes);

struct store_ops {
    int version;      /* STORE_OPS_VERSION */
    const char *name; /* "sqlite", "postgres": for messages */
    /* True when `location` names a database of this backend. The last
     * backend in the registry (SQLite) claims everything. */
    bool (*claims)(const char *location);
    enum bot_err (*open)(const char *location, struct store **out, char *err,
                         size_t errlen);
    /* store_open_reader(); NULL: open serves (a server database takes a
     * second connection the same way) */
    enum bot_err (*open_reader)(const char *location, struct store **out,
                                char *err, size_t errlen);
    void (*close)(struct store *s);
    /* store_inspect(): read-only, without a struct store */
    enum bot_err (*inspect)(const char *location, struct store_info *info,
                            char *err, size_t errlen);
    enum bot_err (*begin)(struct store *s);
    enum bot_err (*commit)(struct store *s);
    void (*rollback)(struct store *s);
    enum bot_err (*enc_load)(struct store *s, uint64_t channel, char **doc,
                             int64_t *version);
    /* store_enc_save (undo false) and store_enc_save_undo (undo true) */
    enum bot_err (*enc_save)(struct store *s, uint64_t channel, int64_t version,
                             const char *doc, bool undo);
    enum bot_err (*enc_load_before)(struct store *s, uint64_t channel,
                                    int64_t version, char **doc,
                                    int64_t *found_version);
    enum bot_err (*enc_reopen)(struct store *s, uint64_t channel,
                               int64_t now_ms, int64_t since_ms);
    enum bot_err (*enc_archive)(struct store *s, uint64_t channel,
                                int64_t now_ms);
    enum bot_err (*change_add)(struct store *s, uint64_t channel,
                               const struct store_change_rec *r);
    enum bot_err (*change_list)(struct store *s, uint64_t channel,
                                int64_t after, bool newest_first, size_t max,
                                size_t *total, store_change_fn *fn,
                                void *ctx);
    enum bot_err (*enc_version)(struct store *s, uint64_t channel,
                                int64_t *version);
    enum bot_err (*enc_count)(struct store *s, int64_t *live,
                              int64_t *archived);
    enum bot_err (*enc_list)(struct store *s, uint64_t *channels, size_t max,
                             size_t *n);
    enum bot_err (*interaction_seen)(struct store *s, const char *id,
                                     bool *seen);
    enum bot_err (*interaction_record)(struct store *s, const char *id,
                                       uint64_t channel, int64_t version,
                                       int64_t now_ms);
    enum bot_err (*interaction_prune)(struct store *s, int64_t before_ms,
                                      size_t max, int64_t *pruned);
    enum bot_err (*kv_get)(struct store *s, const char *key, char **value);
    enum bot_err (*kv_set)(struct store *s, const char *key, const char *value);
    /* store_kv_set_unsynced(), store_wrote(); NULL: kv_set, and true */
    enum bot_err (*kv_set_unsynced)(struct store *s, const char *key,
                                    const char *value);
    bool (*wrote)(struct store *s);
    /* store_run_unsynced(): whether commits wait for the disk, outside
     * any transaction; NULL: they always do */
    enum bot_err (*set_synced)(struct store *s, bool synced);
    enum bot_err (*kv_delete)(struct store *s, const char *key);
    enum bot_err (*kv_scan)(struct store *s, const char *prefix,
                            store_kv_fn *fn, void *ctx);
    /* store_kv_get_short(), n <= STORE_KV_SHORT_MAX, keys checked and
     * kv[].found/value cleared; NULL: store.c calls kv_get per key */
    enum bot_err (*kv_get_short)(struct store *s, struct store_kv_short *kv,
                                 size_t n);
    /* store_kv_last(), store_kv_delete_below(); NULL: store.c does them
     * with kv_scan and kv_delete (right, and slower) */
    enum bot_err (*kv_last)(struct store *s, const char *prefix, char *key);
    enum bot_err (*kv_delete_below)(struct store *s, const char *prefix,
                                    const char *below);
    enum bot_err (*integrity_check)(struct store *s, bool *ok);
    bool shared; /* store_shared() */
    /* store_export(): every row, in the order store.h states. */
    enum bot_err (*export_all)(struct store *s,
                               const struct store_export_cb *cb, void *ctx);
    /* store_import_encounter(), store_import_interaction() */
    enum bot_err (*import_encounter)(struct store *s,
                                     const struct store_enc_rec *r);
    enum bot_err (*import_interaction)(struct store *s,
                                       const struct store_ix_rec *r);
    /* retention and quotas (store.h) */
    enum bot_err (*enc_set_guild)(struct store *s, uint64_t channel,
                                  uint64_t guild);
    enum bot_err (*guild_count)(struct store *s, uint64_t guild,
                                int64_t *live, int64_t *archived);
    enum bot_err (*enc_prune)(struct store *s,
                              const struct store_prune_cfg *cfg,
                              struct store_prune_stats *st);
    enum bot_err (*size)(struct store *s, int64_t *bytes);

    /* ---- saved rolls (macros), store.h --------------------------------
     * store.c has checked the name (store_macro_name_ok), the scope and
     * the dice's length; get/delete/list with a name that cannot be one
     * never reach the backend. */
    enum bot_err (*macro_put)(struct store *s, const struct store_macro *m,
                              bool replace);
    enum bot_err (*macro_get)(struct store *s, uint64_t guild, uint64_t user,
                              const char *name, struct store_macro *out);
    enum bot_err (*macro_delete)(struct store *s, uint64_t guild,
                                 uint64_t user, const char *name);
    enum bot_err (*macro_count)(struct store *s, uint64_t guild,
                                uint64_t user, int64_t *n);
    enum bot_err (*macro_list)(struct store *s, uint64_t guild,
                               uint64_t user, const char *prefix, size_t max,
                               store_macro_fn *fn, void *ctx);
    /* store_macro_export(): every scope, by guild, user, name */
    enum bot_err (*macro_export)(struct store *s, store_macro_fn *fn,
                                 void *ctx);
    /* ---- end of the macros block ---- */
    /* ---- saved sheets (store.h): characters and NPC templates ----------
     * k->name reaching these is the folded key (store__sheet_fold: ASCII
     * lowercased), never the name as typed; import gets the name as typed
     * in sh->name and its key apart (store_sheet_create() is an import
     * stamped now, in store_sheet.c). Names, documents and tags
     * are within their STORE_MAX_SHEET_* limits, max within
     * 1..STORE_MAX_SHEET_LIST. */
    enum bot_err (*sheet_get)(struct store *s, const struct store_sheet_key *k,
                              struct store_sheet *out);
    enum bot_err (*sheet_update)(struct store *s,
                                 const struct store_sheet_key *k,
                                 const char *doc, const char *undo_tag,
                                 const char *undo_doc, int64_t now_ms);
    enum bot_err (*sheet_delete)(struct store *s,
                                 const struct store_sheet_key *k);
    enum bot_err (*sheet_count)(struct store *s,
                                const struct store_sheet_key *k, int64_t *n);
    enum bot_err (*sheet_list)(struct store *s, const struct store_sheet_key *k,
                               size_t max, size_t *total, store_sheet_fn *fn,
                               void *ctx);
    /* key NULL: no character used */
    enum bot_err (*sheet_use_set)(struct store *s, uint64_t guild,
                                  uint64_t owner, const char *key);
    enum bot_err (*sheet_use_get)(struct store *s, uint64_t guild,
                                  uint64_t owner, char **name);
    enum bot_err (*sheet_tagged)(struct store *s, uint64_t guild,
                                 const char *tag, store_sheet_fn *fn,
                                 void *ctx);
    /* store_export()'s sheets: characters, then templates, by id */
    enum bot_err (*export_sheets)(struct store *s, store_sheet_fn *fn,
                                  void *ctx);
    enum bot_err (*import_sheet)(struct store *s, const struct store_sheet *sh,
                                 const char *key);
    /* ---- turn clock timers (store.h): appended; every backend has them.
     * store.c checks the shard and batch arguments first. ---- */
    enum bot_err (*timer_set)(struct store *s, uint64_t channel,
                              uint64_t guild, int64_t due_ms,
                              const char *lang);
    enum bot_err (*timer_next)(struct store *s, int shard_id,
                               int shard_count, int64_t *due_ms);
    enum bot_err (*timer_due)(struct store *s, int shard_id, int shard_count,
                              int64_t now_ms, struct store_timer *out,
                              size_t max, size_t *n);
    enum bot_err (*timer_claim)(struct store *s, uint64_t channel,
                                int64_t due_ms, bool *claimed);
    /* ---- the bounds on history (store_bound.c): appended ----
     * hist_note: add a line of `bytes` to the live fight's count and read
     * its row back; hist_info: read it (live fight; BOT_NOTFOUND: none);
     * hist_sizes: the sizes of encounter id's lines, newest first, or
     * with oldest > 0 its `oldest` oldest lines, oldest first;
     * hist_fold: delete its lines up to `upto`, add `summary` (version
     * upto) and set its count to bytes, lines and folded_to upto;
     * hist_server: the guild's total and its fight with the most. */
    enum bot_err (*hist_note)(struct store *s, uint64_t channel,
                              int64_t bytes, struct store_hist_row *out);
    enum bot_err (*hist_info)(struct store *s, uint64_t channel,
                              struct store_hist_row *out);
    enum bot_err (*hist_sizes)(struct store *s, int64_t id, int64_t oldest,
                               store_hist_size_fn *fn, void *ctx);
    enum bot_err (*hist_fold)(struct store *s, int64_t id, int64_t upto,
                              const struct store_change_rec *summary,
                              int64_t bytes, int64_t lines);
    enum bot_err (*hist_server)(struct store *s, uint64_t guild,
                                int64_t *total, struct store_hist_row *most);
    /* ---- roll records by interaction (store.h): appended; store.c
     * checks ids, values and the batch first. ---- */
    enum bot_err (*rollrec_put)(struct store *s, int64_t id, uint64_t channel,
                                const char *value);
    enum bot_err (*rollrec_get)(struct store *s, int64_t id, uint64_t channel,
                                char **value);
    enum bot_err (*rollrec_trim)(struct store *s, int64_t below,
                                 int64_t max_rows, int64_t batch,
                                 int64_t *dropped);
    /* ---- store_enc_save_line: appended; NULL: store.c makes the calls
     * (enc_save, change_add, hist_note). A plain save of doc, then line
     * (its size `bytes`) added and counted, the count after it in *row.
     * store.c has checked both. ---- */
    enum bot_err (*enc_save_line)(struct store *s, uint64_t channel,
                                  int64_t version, const char *doc,
                                  const struct store_change_rec *line,
                                  int64_t bytes, struct store_hist_row *row);
};

/* The bytes a history line counts for (store.h "bounds"). */
int64_t store__change_bytes(const struct store_change_rec *r);
/* The count of an imported encounter's history: bytes, lines, and the
 * version of its summary line when its oldest line is one (by 0, by_name
 * STORE_FOLD_BY). */
void store__hist_of_rec(const struct store_enc_rec *r,
                        struct store_hist_row *out);
/* After line r was added to the channel's live fight: count it, and fold
 * what a bound passed asks for (store_bound.c). */
enum bot_err store__hist_bound(struct store *s, uint64_t channel,
                               const struct store_change_rec *r);
/* The same once the line of `added` bytes is counted: row is the fight's
 * count after it. */
enum bot_err store__hist_bound_row(struct store *s, uint64_t channel,
                                   const struct store_hist_row *row,
                                   int64_t added);

extern const struct store_ops store_sqlite_ops;
extern const struct store_ops store_pg_ops;

/* An encounter's history gathered for an export: the lines, their text
 * owned. */
struct change_buf {
    struct store_change_rec *v;
    size_t n, cap;
};
/* Append a copy of r; BOT_NOMEM (with the store's message) when out of
 * memory. free: the lines and their text, and the buffer emptied. */
enum bot_err store__change_push(struct store *s, struct change_buf *b,
                                const struct store_change_rec *r);
void store__change_free(struct change_buf *b);

/* The undo chain of a live version: versions, newest first. */
struct undo_chain {
    size_t n;
    int64_t v[ENC_UNDO_DEPTH];
};

/* The undo chain as stored in encounter.undo (both backends): len / 8
 * little-endian int64s. decode: BOT_DB_CORRUPT on a bad length. */
void store__undo_encode(const struct undo_chain *u,
                        unsigned char buf[ENC_UNDO_DEPTH * 8]);
enum bot_err store__undo_decode(struct store *s, const void *blob, int len,
                                struct undo_chain *u);

/* What a save of `version` over the channel's live encounter (found or
 * not, live version and chain `old`) must do, by store.h's undo rules
 * (plain save: push; undo: pop): *next the new chain, drop[0..*ndrop) the
 * versions to delete. BOT_CONFLICT when version is not the live one + 1
 * (1 with none), BOT_NOTFOUND for an undo with nothing to undo; the
 * store's message says so. Both backends use it, so the rules live in
 * one place. */
enum bot_err store__plan_save(struct store *s, uint64_t channel, bool found,
                              int64_t live, const struct undo_chain *old,
                              int64_t version, bool undo,
                              struct undo_chain *next, int64_t drop[2],
                              size_t *ndrop);

/* Set s->errmsg from a format and return e. */
enum bot_err store__fail(struct store *s, enum bot_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A sheet name's key: ASCII letters lowercased, the rest as is, into
 * out (room for STORE_MAX_SHEET_NAME + 1). */
void store__sheet_fold(const char *name, char *out);
/* A deep copy of a borrowed row into *dst (free with store_sheet_cleanup);
 * BOT_NOMEM (with the store's message) leaves *dst zeroed. */
enum bot_err store__sheet_copy(struct store *s, const struct store_sheet *src,
                               struct store_sheet *dst);

/* A key's value found by kv_get_short: found, and value copied when it
 * is shorter than STORE_KV_SHORT (else left ""). */
void store__kv_short_put(struct store_kv_short *kv, const char *value,
                         size_t len);

/* Wall clock in ms, for created/updated stamps. */
int64_t store__now_ms(void);

/* A timer row's language from its stored code into t->lang: English for
 * "" (a row from before schema 11) or a code this fray does not know. */
void store_timer_lang_of(const char *code, struct store_timer *t);

#endif
