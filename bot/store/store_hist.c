/*
 * store_hist.c - kept versions packed against the next newer one (see
 * store_hist.h for the format and why the chain stays readable).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store_hist.h"

/* Level 1 (deflate's fast path): the dictionary already holds nearly all
 * of an older version, so the slower levels find the same long matches
 * and cost more CPU for a few bytes (bench/README.md, "History on disk"). */
#define HIST_LEVEL 1
/* A 32 KiB window, so a fight's whole document is the dictionary; a
 * smaller hash table (memLevel 5: 4,096 heads) than the default because
 * deflateReset clears it on every save, and documents are a few KiB. */
#define HIST_WBITS (-15)      /* raw deflate: the row's header is ours */
#define HIST_MEMLEVEL 5

struct store_hist {
    z_stream def, inf;
    bool def_ok, inf_ok;
};

void store__hist_free(struct store_hist *h)
{
    if (!h)
        return;
    if (h->def_ok)
        deflateEnd(&h->def);
    if (h->inf_ok)
        inflateEnd(&h->inf);
    free(h);
}

static struct store_hist *hist_get(struct store *s)
{
    if (!s->hist)
        s->hist = calloc(1, sizeof *s->hist);
    return s->hist;
}

static enum bot_err nomem(struct store *s)
{
    return store__fail(s, BOT_NOMEM, "out of memory packing history");
}

enum bot_err store__hist_pack(struct store *s, const char *older,
                              size_t olen, const char *newer, size_t nlen,
                              unsigned char **out, size_t *outlen)
{
    struct store_hist *h = hist_get(s);
    if (!h)
        return nomem(s);
    z_stream *z = &h->def;
    if (!h->def_ok) {
        if (deflateInit2(z, HIST_LEVEL, Z_DEFLATED, HIST_WBITS, HIST_MEMLEVEL,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            return nomem(s);
        h->def_ok = true;
    } else if (deflateReset(z) != Z_OK) {
        return store__fail(s, BOT_DB, "packing history: deflate reset");
    }
    /* Both lengths are at most STORE_MAX_DOC (store.c checks documents). */
    if (deflateSetDictionary(z, (const Bytef *)newer, (uInt)nlen) != Z_OK)
        return store__fail(s, BOT_DB, "packing history: dictionary refused");
    size_t cap = STORE_HIST_HEAD + deflateBound(z, (uLong)olen);
    unsigned char *buf = malloc(cap);
    if (!buf)
        return nomem(s);
    buf[0] = STORE_HIST_TAG;
    for (int i = 0; i < 4; i++)
        buf[1 + i] = (unsigned char)(olen >> (8 * i));
    z->next_in = (Bytef *)(uintptr_t)older;
    z->avail_in = (uInt)olen;
    z->next_out = buf + STORE_HIST_HEAD;
    z->avail_out = (uInt)(cap - STORE_HIST_HEAD);
    if (deflate(z, Z_FINISH) != Z_STREAM_END) {
        free(buf);
        return store__fail(s, BOT_DB, "packing history: deflate failed");
    }
    *out = buf;
    *outlen = cap - z->avail_out;
    return BOT_OK;
}

static enum bot_err corrupt(struct store *s, int64_t enc, int64_t version,
                            const char *why)
{
    return store__fail(s, BOT_DB_CORRUPT,
                       "encounter %lld, version %lld: the kept version "
                       "cannot be read (%s)",
                       (long long)enc, (long long)version, why);
}

/* packed[0..n) against newer: a malloc'd NUL-terminated document. */
static enum bot_err unpack(struct store *s, int64_t enc, int64_t version,
                           const unsigned char *p, size_t n,
                           const char *newer, size_t nlen, char **out,
                           size_t *outlen)
{
    if (n < STORE_HIST_HEAD || p[0] != STORE_HIST_TAG)
        return corrupt(s, enc, version, "unknown format");
    size_t len = 0;
    for (int i = 0; i < 4; i++)
        len |= (size_t)p[1 + i] << (8 * i);
    if (len == 0 || len > STORE_MAX_DOC)
        return corrupt(s, enc, version, "length out of range");
    struct store_hist *h = hist_get(s);
    if (!h)
        return nomem(s);
    z_stream *z = &h->inf;
    if (!h->inf_ok) {
        if (inflateInit2(z, HIST_WBITS) != Z_OK)
            return nomem(s);
        h->inf_ok = true;
    } else if (inflateReset(z) != Z_OK) {
        return corrupt(s, enc, version, "inflate reset");
    }
    if (inflateSetDictionary(z, (const Bytef *)newer, (uInt)nlen) != Z_OK)
        return corrupt(s, enc, version, "dictionary refused");
    char *doc = malloc(len + 1);
    if (!doc)
        return nomem(s);
    z->next_in = (Bytef *)(uintptr_t)(p + STORE_HIST_HEAD);
    z->avail_in = (uInt)(n - STORE_HIST_HEAD);
    z->next_out = (Bytef *)doc;
    z->avail_out = (uInt)len;
    int rc = inflate(z, Z_FINISH);
    if (rc != Z_STREAM_END || z->avail_out != 0 || z->avail_in != 0 ||
        memchr(doc, '\0', len) != NULL) {
        free(doc);
        return corrupt(s, enc, version,
                       rc == Z_STREAM_END ? "wrong length" : "bad data");
    }
    doc[len] = '\0';
    *out = doc;
    *outlen = len;
    return BOT_OK;
}

enum bot_err store__hist_feed(struct store *s, struct store_hist_walk *w,
                              int64_t version, bool packed, const void *bytes,
                              size_t n)
{
    char *doc = NULL;
    size_t len = n;
    enum bot_err e = BOT_OK;
    if (!packed) {
        doc = malloc(n + 1);
        if (!doc)
            return nomem(s);
        memcpy(doc, bytes, n);
        doc[n] = '\0';
    } else if (!w->doc) {
        e = corrupt(s, w->enc, version, "no newer version is kept");
    } else {
        e = unpack(s, w->enc, version, bytes, n, w->doc, w->len, &doc, &len);
    }
    if (e != BOT_OK)
        return e;
    free(w->doc);
    w->doc = doc;
    w->len = len;
    w->version = version;
    return BOT_OK;
}

void store__hist_walk_done(struct store_hist_walk *w)
{
    free(w->doc);
    w->doc = NULL;
}

enum bot_err store__hist_unpack_all(struct store *s, int64_t enc,
                                    struct store_ver_rec *ver, size_t n,
                                    const bool *packed, const size_t *len)
{
    /* Rows come oldest first; each packed one needs its newer neighbour. */
    for (size_t i = n; i-- > 0;) {
        if (!packed[i])
            continue;
        if (i + 1 == n)
            return corrupt(s, enc, ver[i].version, "no newer version is kept");
        char *doc = NULL;
        size_t dlen = 0;
        enum bot_err e = unpack(s, enc, ver[i].version,
                                (const unsigned char *)ver[i].doc, len[i],
                                ver[i + 1].doc, strlen(ver[i + 1].doc), &doc,
                                &dlen);
        if (e != BOT_OK)
            return e;
        free((char *)ver[i].doc);
        ver[i].doc = doc;
    }
    return BOT_OK;
}

enum bot_err store__hist_pack_rec(struct store *s,
                                  const struct store_ver_rec *ver, size_t n,
                                  size_t i, unsigned char **out,
                                  size_t *outlen)
{
    const struct store_ver_rec *newer = NULL;
    for (size_t k = 0; k < n; k++)
        if (ver[k].version > ver[i].version &&
            (!newer || ver[k].version < newer->version))
            newer = &ver[k];
    *out = NULL;
    if (!newer)
        return BOT_OK;
    return store__hist_pack(s, ver[i].doc, strlen(ver[i].doc), newer->doc,
                            strlen(newer->doc), out, outlen);
}

enum bot_err store__hist_load_before(struct store *s, store_hist_walk_fn *walk,
                                     uint64_t channel, int64_t version,
                                     char **doc, int64_t *found_version)
{
    struct store_hist_walk w = {0};
    enum bot_err e = walk(s, channel, version, &w);
    if (e == BOT_OK && !w.doc)
        e = store__fail(s, BOT_NOTFOUND, "loading an earlier version: none");
    if (e == BOT_OK) {
        *doc = w.doc;
        *found_version = w.version;
        w.doc = NULL;
    }
    store__hist_walk_done(&w);
    return e;
}

enum bot_err store__hist_head_pack(struct store *s, store_hist_walk_fn *walk,
                                   uint64_t channel,
                                   const struct undo_chain *next,
                                   const char *doc, enum bot_err gone,
                                   unsigned char **out, size_t *outlen)
{
    struct store_hist_walk w = {0};
    *out = NULL;
    if (next->n == 0)
        return BOT_OK;
    enum bot_err e = walk(s, channel, next->v[0] + 1, &w);
    if (e == BOT_OK && (!w.doc || w.version != next->v[0]))
        e = store__fail(s, gone,
                        "channel %llu: version %lld of the undo chain is "
                        "not kept", (unsigned long long)channel,
                        (long long)next->v[0]);
    if (e == BOT_OK)
        e = store__hist_pack(s, w.doc, w.len, doc, strlen(doc), out, outlen);
    store__hist_walk_done(&w);
    return e;
}
