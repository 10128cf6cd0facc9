/*
 * fuzz_store_hist.c - the packed history's decoder and encoder
 * (store_hist.h): what a damaged or hostile database row can make of the
 * reader, and whether what the writer packs always comes back.
 *
 * Input: two bytes (little-endian) giving the length k of the first part,
 * then k bytes of a newer document, then the rest.
 *  - decode: the rest as a stored packed row against the newer document;
 *  - round trip: the rest as an older document, packed against the newer
 *    one and read back (when it holds no NUL, as documents never do).
 *
 * Properties checked:
 *  - a row either decodes to a terminated text of the length its header
 *    states, without a NUL, or gives BOT_DB_CORRUPT (BOT_NOMEM when out of
 *    memory) with a one-line message naming the version;
 *  - pack then unpack gives the older document back byte for byte.
 */
#include <string.h>

#include "fuzz.h"
#include "store.h"
#include "store_hist.h"

/* The struct store the functions report through, opened once. */
static struct store *the_store(void)
{
    static struct store *s;
    char err[256];
    if (!s && store_open(":memory:", &s, err, sizeof err) != BOT_OK)
        abort();
    return s;
}

static void check_error(struct store *s, enum bot_err e)
{
    const char *msg = store_errmsg(s);
    FUZZ_CHECK(e == BOT_DB_CORRUPT || e == BOT_NOMEM);
    FUZZ_CHECK(msg[0] != '\0' && strchr(msg, '\n') == NULL);
    FUZZ_CHECK(e != BOT_DB_CORRUPT || strstr(msg, "version 2") != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct store *s = the_store();
    if (size < 2)
        return 0;
    size_t k = (size_t)data[0] | (size_t)data[1] << 8;
    if (k > size - 2)
        k = size - 2;
    const uint8_t *newer = data + 2, *rest = data + 2 + k;
    size_t nrest = size - 2 - k;

    struct store_hist_walk w = {.enc = 1};
    FUZZ_CHECK(store__hist_feed(s, &w, 3, false, newer, k) == BOT_OK);
    FUZZ_CHECK(w.len == k && w.doc[k] == '\0');
    char *newer_text = w.doc;          /* may hold NULs: bytes as stored */
    w.doc = NULL;

    struct store_hist_walk d = {.enc = 1, .doc = newer_text, .len = k};
    enum bot_err e = store__hist_feed(s, &d, 2, true, rest, nrest);
    if (e == BOT_OK) {
        FUZZ_CHECK(d.version == 2);
        FUZZ_CHECK(d.len <= STORE_MAX_DOC && d.doc[d.len] == '\0');
        FUZZ_CHECK(strlen(d.doc) == d.len);
        store__hist_walk_done(&d);
    } else {
        check_error(s, e);
        free(newer_text);
    }

    if (memchr(rest, '\0', nrest) == NULL && memchr(newer, '\0', k) == NULL) {
        char *older = malloc(nrest + 1), *nw = malloc(k + 1);
        FUZZ_CHECK(older && nw);
        memcpy(older, rest, nrest);
        older[nrest] = '\0';
        memcpy(nw, newer, k);
        nw[k] = '\0';
        unsigned char *p = NULL;
        size_t n = 0;
        FUZZ_CHECK(store__hist_pack(s, older, nrest, nw, k, &p, &n) ==
                   BOT_OK);
        struct store_hist_walk r = {.enc = 1, .doc = nw, .len = k};
        FUZZ_CHECK(store__hist_feed(s, &r, 2, true, p, n) == BOT_OK);
        FUZZ_CHECK(r.len == nrest && memcmp(r.doc, older, nrest) == 0);
        store__hist_walk_done(&r);
        free(p);
        free(older);
    }
    return 0;
}
