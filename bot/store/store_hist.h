/*
 * store_hist.h - how the kept versions of an encounter are written
 * (issue 23, target 3), shared by both backends.
 *
 * The live version is stored whole, as its JSON text. Every older kept
 * version (the undo chain) is stored packed: as a delta against the next
 * newer kept version's document (store_hist.c), so a version costs what
 * changed, not the whole fight. The chain is ordered like the
 * versions (store.h: the undo chain is newest first and every step below
 * the live one), so "the next newer kept version" is the one an undo
 * reaches just before it, and the chain's rule keeps every packed row
 * readable:
 *   - a plain save packs the old live version against the new document;
 *     the version that falls off the old end has nothing depending on it;
 *   - an undo drops the live version and the chain's head, so the new head
 *     is packed again against the restored document (the store does not
 *     assume that document is byte for byte the one it kept);
 *   - retention keeps the live version alone, the archive quota deletes
 *     everything.
 * A row written before this (plain text) reads as it always did, wherever
 * it is in the chain: SQLite tells the two apart by the value's type (TEXT
 * or BLOB), PostgreSQL by its column (doc or packed).
 *
 * A packed row: byte 0 STORE_HIST_TAG, bytes 1-4 the document's length
 * (little-endian), then steps of three LEB128 numbers, copy C bytes of the
 * newer document, skip S bytes of it, L literal bytes, each followed by
 * its L bytes. A row that does not decode to exactly that many bytes of
 * text, or reaches outside the newer document, gives BOT_DB_CORRUPT
 * naming the encounter and the version.
 *
 * Ownership: documents and packed rows returned are malloc'd and the
 * caller's. No state: any store may call these.
 */
#ifndef STORE_HIST_H
#define STORE_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store_backend.h"

#define STORE_HIST_TAG 0x01   /* never the first byte of JSON text */
#define STORE_HIST_HEAD 5     /* tag and length */

/* older packed against newer: *out malloc'd, *outlen bytes. */
enum bot_err store__hist_pack(struct store *s, const char *older,
                              size_t olen, const char *newer, size_t nlen,
                              unsigned char **out, size_t *outlen);

/* Reading an encounter's kept rows newest first (the live one first):
 * after each store__hist_feed, w->doc is the document of the row fed. */
struct store_hist_walk {
    int64_t enc;      /* the encounter, for messages */
    int64_t version;  /* the row fed last; 0 before the first */
    char *doc;        /* its document, NUL-terminated, owned */
    size_t len;
};

enum bot_err store__hist_feed(struct store *s, struct store_hist_walk *w,
                              int64_t version, bool packed, const void *bytes,
                              size_t n);
void store__hist_walk_done(struct store_hist_walk *w);

/* A backend's reading of the channel's live encounter: its kept rows from
 * the live one down to the newest below `below`, fed to w newest first
 * (none fed when no kept version is below `below`). */
typedef enum bot_err store_hist_walk_fn(struct store *s, uint64_t channel,
                                        int64_t below,
                                        struct store_hist_walk *w);

/* store_enc_load_before() through the backend's walk. */
enum bot_err store__hist_load_before(struct store *s, store_hist_walk_fn *walk,
                                     uint64_t channel, int64_t version,
                                     char **doc, int64_t *found_version);

/* A save's new chain `next` (store__plan_save): its head packed against
 * the new live document, read before anything is written; *out NULL when
 * the chain is empty. A head that is not kept gives `gone`: BOT_DB_CORRUPT
 * for a store with one writer, BOT_CONFLICT where another process may have
 * moved the chain meanwhile. */
enum bot_err store__hist_head_pack(struct store *s, store_hist_walk_fn *walk,
                                   uint64_t channel,
                                   const struct undo_chain *next,
                                   const char *doc, enum bot_err gone,
                                   unsigned char **out, size_t *outlen);

/* An export: ver[0..n) as read (packed[i] and len[i] say how each row is
 * stored; every doc is malloc'd) become plain documents in place. */
enum bot_err store__hist_unpack_all(struct store *s, int64_t enc,
                                    struct store_ver_rec *ver, size_t n,
                                    const bool *packed, const size_t *len);

/* An import: ver[i] as it is to be stored. *out NULL: the live version,
 * stored as its text. Else *out (malloc'd) holds ver[i] packed against
 * the next newer version in ver. */
enum bot_err store__hist_pack_rec(struct store *s,
                                  const struct store_ver_rec *ver, size_t n,
                                  size_t i, unsigned char **out,
                                  size_t *outlen);

#endif
