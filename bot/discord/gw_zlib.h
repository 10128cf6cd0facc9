/*
 * gw_zlib.h - Discord's zlib-stream transport compression, the receiving
 * side: one inflate context lives as long as one gateway connection, and
 * every binary message the server sends is a piece of one zlib stream.
 *
 * Why: the websocket layer reads a frame's payload a byte at a time, and a
 * compressed INTERACTION_CREATE is a quarter of its text or less (the
 * shared window remembers the last one); the inflate costs less than the
 * bytes it spares (bench/README.md, "Gateway compression").
 *
 * A payload ends where the bytes received so far end in the Z_SYNC_FLUSH
 * marker (00 00 ff ff); until then they are kept. Ownership: the struct is
 * the caller's (inside struct gw); gw_zin_cleanup() frees what it holds.
 */
#ifndef GW_ZLIB_H
#define GW_ZLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

#include "sbuf.h"

/* Bytes inflated at a time; the text is appended to the caller's sbuf. */
#define GW_ZIN_CHUNK 16384

enum gw_zin_res {
    GW_ZIN_MORE,      /* no whole payload yet: wait for the next message */
    GW_ZIN_TEXT,      /* out holds one payload's text */
    GW_ZIN_BAD,       /* not a zlib stream, or one broken mid-way */
    GW_ZIN_BIG,       /* compressed or inflated, more than max bytes */
    GW_ZIN_NOMEM,
};

struct gw_zin {
    z_stream zs;
    bool live;        /* inflateInit() succeeded; inflateEnd() owed */
    struct sbuf in;   /* compressed bytes since the last marker */
    size_t max;       /* most bytes a payload may take, either way */
};

/* No allocation yet; max bounds the compressed and the inflated payload. */
void gw_zin_init(struct gw_zin *z, size_t max);
/* A new connection: a fresh stream (the server starts one), nothing kept.
 * False when zlib cannot have its memory. */
bool gw_zin_reset(struct gw_zin *z);
void gw_zin_cleanup(struct gw_zin *z);

/* One whole websocket message's bytes (the fragments put together by the
 * caller, or given one after the other: a payload may span messages).
 * On GW_ZIN_TEXT, out was emptied and holds the payload's text; on BAD
 * and BIG the stream cannot go on: the connection must be dropped, and
 * gw_zin_reset() called for the next. */
enum gw_zin_res gw_zin_feed(struct gw_zin *z, const void *in, size_t len,
                            struct sbuf *out);

/* Human words for a result, for the log. */
const char *gw_zin_str(enum gw_zin_res r);

#endif
