/*
 * store_hist.c - kept versions stored as a delta against the next newer
 * one (see store_hist.h for the format and why the chain stays readable).
 *
 * The delta is a list of steps over the newer document, each: copy C
 * bytes of it, skip S bytes of it, then L bytes given literally. Two
 * versions of a fight are the same document with a few numbers and
 * words changed in place, so the encoder walks both texts side by side
 * and, at each difference, looks for the nearest place where they agree
 * again. It only ever copies bytes it has compared equal, so what it
 * writes decodes to the older document whatever it found; a difference it
 * cannot get past (a large block added or moved) costs literal bytes, not
 * correctness. It costs about one instruction a byte; deflate with the
 * newer version as its dictionary cost twenty times as much for a delta
 * four times the size (bench/README.md, "History on disk").
 */
#include <stdlib.h>
#include <string.h>

#include "store_hist.h"

/* Bytes that must agree for the two texts to count as back in step. */
#define HIST_SYNC 8
/* How far ahead (older + newer bytes) the cheap search for the next
 * agreement looks: a changed number or word is well inside it. */
#define HIST_NEAR 48
/* The wider search, for an insertion: up to this many bytes of the older
 * text are tried, each looked for this far ahead in the newer one. */
#define HIST_FAR_OLD 32
#define HIST_FAR_NEW 65536
#define HIST_VARINT_MAX 5     /* LEB128 of a value up to STORE_MAX_DOC */
/* The searches' budget, in bytes compared: this many per byte of the
 * older text, plus a floor. Past it the rest of the older text goes in as
 * it is, so two documents unlike each other cost a bounded time. */
#define HIST_WORK_PER_BYTE 16
#define HIST_WORK_MIN (4 * HIST_FAR_NEW)

static enum bot_err nomem(struct store *s)
{
    return store__fail(s, BOT_NOMEM, "out of memory packing history");
}

/* Growing output of the encoder. */
struct hbuf {
    unsigned char *p;
    size_t n, cap;
    bool failed;
};

static void hb_reserve(struct hbuf *b, size_t more)
{
    if (b->failed || b->n + more <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more)
        cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return;
    }
    b->p = p;
    b->cap = cap;
}

static void hb_varint(struct hbuf *b, size_t v)
{
    hb_reserve(b, HIST_VARINT_MAX);
    if (b->failed)
        return;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        b->p[b->n++] = (unsigned char)(c | (v ? 0x80 : 0));
    } while (v);
}

static void hb_step(struct hbuf *b, size_t copy, size_t skip,
                    const char *lit, size_t nlit)
{
    hb_varint(b, copy);
    hb_varint(b, skip);
    hb_varint(b, nlit);
    hb_reserve(b, nlit);
    if (!b->failed && nlit) {
        memcpy(b->p + b->n, lit, nlit);
        b->n += nlit;
    }
}

/* Where older[i..] and newer[j..] agree again: *a older bytes and *b newer
 * bytes on. False when no place was found. */
static bool resync(const char *older, size_t olen, size_t i,
                   const char *newer, size_t nlen, size_t j, size_t *a,
                   size_t *b, size_t *work)
{
    /* The nearest first, by the sum of the two steps. */
    for (size_t d = 1; d <= HIST_NEAR; d++) {
        *work += (d + 1) * HIST_SYNC;
        for (size_t x = 0; x <= d; x++) {
            size_t y = d - x;
            if (i + x + HIST_SYNC > olen || j + y + HIST_SYNC > nlen)
                continue;
            if (memcmp(older + i + x, newer + j + y, HIST_SYNC) == 0) {
                *a = x;
                *b = y;
                return true;
            }
        }
    }
    /* Something inserted into the newer text: find older's next bytes
     * further on. */
    size_t span = nlen - j < HIST_FAR_NEW ? nlen - j : HIST_FAR_NEW;
    for (size_t x = 0; x < HIST_FAR_OLD && i + x + HIST_SYNC <= olen; x++) {
        *work += span;
        const char *hit = memmem(newer + j, span, older + i + x, HIST_SYNC);
        if (hit) {
            *a = x;
            *b = (size_t)(hit - (newer + j));
            return true;
        }
    }
    return false;
}

/* How many bytes a and b agree on from the start, n at most; eight at a
 * time, since that is nearly all of the encoder's work. */
static size_t common(const char *a, const char *b, size_t n)
{
    size_t c = 0;
    for (; c + 8 <= n; c += 8) {
        uint64_t x, y;
        memcpy(&x, a + c, 8);
        memcpy(&y, b + c, 8);
        if (x != y)
            break;
    }
    while (c < n && a[c] == b[c])
        c++;
    return c;
}

static void encode(struct hbuf *out, const char *older, size_t olen,
                   const char *newer, size_t nlen)
{
    size_t i = 0, j = 0, work = 0;
    size_t budget = HIST_WORK_PER_BYTE * olen + HIST_WORK_MIN;
    while (i < olen && !out->failed) {
        size_t c = common(older + i, newer + j,
                          olen - i < nlen - j ? olen - i : nlen - j);
        i += c;
        j += c;
        size_t a = olen - i, b = 0;
        if (i < olen && (work > budget || !resync(older, olen, i, newer, nlen,
                                                  j, &a, &b, &work))) {
            a = olen - i;   /* no way back into step: the rest as it is */
            b = 0;
        }
        hb_step(out, c, b, older + i, a);
        i += a;
        j += b;
    }
}

enum bot_err store__hist_pack(struct store *s, const char *older,
                              size_t olen, const char *newer, size_t nlen,
                              unsigned char **out, size_t *outlen)
{
    struct hbuf b = {0};
    hb_reserve(&b, STORE_HIST_HEAD);
    if (!b.failed) {
        b.p[0] = STORE_HIST_TAG;
        for (int k = 0; k < 4; k++)
            b.p[1 + k] = (unsigned char)(olen >> (8 * k));
        b.n = STORE_HIST_HEAD;
    }
    encode(&b, older, olen, newer, nlen);
    if (b.failed) {
        free(b.p);
        return nomem(s);
    }
    *out = b.p;
    *outlen = b.n;
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

/* The next LEB128 value of p[*k..n), at most STORE_MAX_DOC. */
static bool get_varint(const unsigned char *p, size_t n, size_t *k,
                       size_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 7 * HIST_VARINT_MAX; shift += 7) {
        if (*k >= n)
            return false;
        unsigned char c = p[(*k)++];
        *v |= (size_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return *v <= STORE_MAX_DOC;
    }
    return false;
}

/* The delta p[k..n) applied to newer into doc (len bytes); NULL when
 * well formed, else what is wrong. */
static const char *decode(const unsigned char *p, size_t n, size_t k,
                          const char *newer, size_t nlen, char *doc,
                          size_t len)
{
    size_t o = 0, j = 0;
    while (k < n) {
        size_t copy, skip, lit;
        if (!get_varint(p, n, &k, &copy) || !get_varint(p, n, &k, &skip) ||
            !get_varint(p, n, &k, &lit))
            return "bad step";
        if (copy > nlen - j || copy > len - o)
            return "copy out of range";
        memcpy(doc + o, newer + j, copy);
        o += copy;
        j += copy;
        if (skip > nlen - j)
            return "skip out of range";
        j += skip;
        if (lit > n - k || lit > len - o)
            return "literal out of range";
        memcpy(doc + o, p + k, lit);
        o += lit;
        k += lit;
    }
    return o == len ? NULL : "wrong length";
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
    if (len > STORE_MAX_DOC)
        return corrupt(s, enc, version, "length out of range");
    char *doc = malloc(len + 1);
    if (!doc)
        return nomem(s);
    const char *why = decode(p, n, STORE_HIST_HEAD, newer, nlen, doc, len);
    if (!why && memchr(doc, '\0', len) != NULL)
        why = "a NUL byte in the text";
    if (why) {
        free(doc);
        return corrupt(s, enc, version, why);
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
