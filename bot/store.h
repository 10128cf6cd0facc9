/*
 * store.h - durable state: encounters, their history, and bot bookkeeping.
 *
 * One SQLite database file in WAL mode (store_sqlite.c). Encounters are kept
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
 * reply. store_rollback() undoes everything since store_begin().
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

struct store;

#define STORE_MAX_DOC (4u << 20)      /* one serialized encounter, bytes */
#define STORE_MAX_KV_VALUE 65536      /* one key/value row, bytes */

/* Open (creating and migrating) the database at path; ":memory:" works for
 * tests. Takes an exclusive lock so a second process on the same file fails
 * with BOT_LOCKED. On failure *out is NULL and err holds a one-line reason. */
enum bot_err store_open(const char *path, struct store **out,
                        char *err, size_t errlen);
void store_close(struct store *s);            /* NULL is a no-op */

enum bot_err store_begin(struct store *s);
enum bot_err store_commit(struct store *s);
void store_rollback(struct store *s);

/* The live encounter of a channel: its document and version.
 * BOT_NOTFOUND when the channel has none. */
enum bot_err store_enc_load(struct store *s, uint64_t channel,
                            char **doc, int64_t *version);

/* Save a new version of a channel's encounter. version must be one more than
 * the live version (or 1 for a new encounter), else BOT_CONFLICT. Trims the
 * history to the newest ENC_UNDO_DEPTH + 1 versions. */
enum bot_err store_enc_save(struct store *s, uint64_t channel,
                            int64_t version, const char *doc);

/* The document of the newest version older than `version` still kept, for
 * undo. BOT_NOTFOUND when there is none. */
enum bot_err store_enc_load_before(struct store *s, uint64_t channel,
                                   int64_t version, char **doc,
                                   int64_t *found_version);

/* End the channel's encounter: move it and its history to the archive.
 * BOT_NOTFOUND when there is none. */
enum bot_err store_enc_archive(struct store *s, uint64_t channel,
                               int64_t now_ms);

/* Interactions applied at most once. seen: *seen true if id was recorded.
 * record: remember id (with the channel and version it produced). */
enum bot_err store_interaction_seen(struct store *s, const char *id,
                                    bool *seen);
enum bot_err store_interaction_record(struct store *s, const char *id,
                                      uint64_t channel, int64_t version,
                                      int64_t now_ms);

/* Bot bookkeeping. get: BOT_NOTFOUND when the key is absent. */
enum bot_err store_kv_get(struct store *s, const char *key, char **value);
enum bot_err store_kv_set(struct store *s, const char *key,
                          const char *value);

/* Counts for benchmarks and tests. */
enum bot_err store_enc_count(struct store *s, int64_t *live,
                             int64_t *archived);

/* The last SQLite error message, for the operator's log. Never NULL. */
const char *store_errmsg(const struct store *s);

#endif
