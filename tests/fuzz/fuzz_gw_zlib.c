/*
 * fuzz_gw_zlib.c - the gateway's zlib-stream reader (gw_zlib.c) on any
 * bytes, and on the server's own stream of any text.
 *
 * Input: a first byte that picks the mode and where to cut, then data.
 *  - Mode "bytes" (first byte even): the data goes to gw_zin_feed() as
 *    received messages, cut every (first byte / 2 + 1) bytes: a hostile
 *    or broken server. Property: no crash, no read past the input, a
 *    payload never longer than the limit, and a refused stream stays
 *    refused until gw_zin_reset().
 *  - Mode "round trip" (first byte odd): the data is the text of payloads
 *    separated by '\n', deflated as Discord does (one stream, a
 *    Z_SYNC_FLUSH each) and fed back, each payload's bytes cut in two at
 *    (first byte / 2) mod its length. Property: every payload comes back
 *    byte for byte (those over the limit as GW_ZIN_BIG, which ends the
 *    stream, as does a payload whose compressed form alone is over it:
 *    text a server sends compresses, random bytes may not).
 */
#include <string.h>
#include <zlib.h>

#include "fuzz.h"
#include "gw_zlib.h"

#define FZ_MAX 4096                  /* small, so the limit is reached */

static void bytes_mode(const uint8_t *d, size_t n, size_t cut)
{
    struct gw_zin z;
    struct sbuf out;
    bool refused = false;

    gw_zin_init(&z, FZ_MAX);
    sbuf_init(&out, FZ_MAX + 1);
    FUZZ_CHECK(gw_zin_reset(&z));
    for (size_t at = 0; at < n; at += cut) {
        size_t len = n - at < cut ? n - at : cut;
        enum gw_zin_res r = gw_zin_feed(&z, d + at, len, &out);
        if (r == GW_ZIN_TEXT)
            FUZZ_CHECK(out.len <= FZ_MAX);
        if (r == GW_ZIN_BAD || r == GW_ZIN_BIG) {
            refused = true;
            break;
        }
    }
    if (refused) {      /* the next connection starts clean */
        FUZZ_CHECK(gw_zin_reset(&z));
        FUZZ_CHECK(z.in.len == 0);
    }
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

static void round_trip(const uint8_t *d, size_t n, size_t cut)
{
    static unsigned char zbuf[2 * FZ_MAX + 65536];
    z_stream zs;
    struct gw_zin z;
    struct sbuf out;

    memset(&zs, 0, sizeof zs);
    FUZZ_CHECK(deflateInit(&zs, Z_DEFAULT_COMPRESSION) == Z_OK);
    gw_zin_init(&z, FZ_MAX);
    sbuf_init(&out, FZ_MAX + 1);
    FUZZ_CHECK(gw_zin_reset(&z));
    size_t at = 0;
    while (at <= n) {
        const uint8_t *nl = at < n ? memchr(d + at, '\n', n - at) : NULL;
        size_t len = (nl ? (size_t)(nl - d) : n) - at;
        if (len == 0) {     /* no payload is empty (nor flushes anew) */
            if (nl == NULL)
                break;
            at++;
            continue;
        }
        zs.next_in = (Bytef *)(uintptr_t)(d + at);
        zs.avail_in = (uInt)len;
        zs.next_out = zbuf;
        zs.avail_out = sizeof zbuf;
        FUZZ_CHECK(deflate(&zs, Z_SYNC_FLUSH) == Z_OK);
        FUZZ_CHECK(zs.avail_in == 0);
        size_t zl = sizeof zbuf - zs.avail_out;
        size_t c = zl > 0 ? cut % zl : 0;
        enum gw_zin_res r = GW_ZIN_MORE;
        size_t early = 0;
        if (c > 0) {
            r = gw_zin_feed(&z, zbuf, c, &out);
            /* a cut may fall right after 00 00 ff ff inside the data:
             * what came out so far is the payload's beginning */
            if (r == GW_ZIN_TEXT) {
                early = out.len;
                FUZZ_CHECK(early <= len && memcmp(out.buf, d + at,
                                                  early) == 0);
            }
        }
        if (r != GW_ZIN_BIG && r != GW_ZIN_BAD)
            r = gw_zin_feed(&z, zbuf + c, zl - c, &out);
        if (len > FZ_MAX) {
            FUZZ_CHECK(r == GW_ZIN_BIG);
            break;
        }
        if (r == GW_ZIN_BIG) {  /* the compressed form alone over it */
            FUZZ_CHECK(zl > FZ_MAX);
            break;
        }
        FUZZ_CHECK(r == GW_ZIN_TEXT);
        /* with what came out before the cut, the whole payload */
        FUZZ_CHECK(early + out.len == len);
        FUZZ_CHECK(out.len == 0 ||
                   memcmp(out.buf, d + at + early, out.len) == 0);
        if (nl == NULL)
            break;
        at += len + 1;
    }
    deflateEnd(&zs);
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t cut = (size_t)(data[0] / 2) + 1;
    if (data[0] % 2 == 0)
        bytes_mode(data + 1, size - 1, cut);
    else
        round_trip(data + 1, size - 1, cut);
    return 0;
}
