/*
 * gw_zlib.c - inflating the gateway's zlib-stream (see gw_zlib.h).
 */
#include "gw_zlib.h"

#include <stdint.h>
#include <string.h>

static const unsigned char zin_marker[4] = {0x00, 0x00, 0xff, 0xff};

void gw_zin_init(struct gw_zin *z, size_t max)
{
    memset(z, 0, sizeof *z);
    z->max = max;
    /* +1: sbuf refuses at max; a payload of exactly max bytes is fine */
    sbuf_init(&z->in, max + 1);
}

bool gw_zin_reset(struct gw_zin *z)
{
    sbuf_reset(&z->in);
    if (z->live)
        return inflateReset(&z->zs) == Z_OK;
    memset(&z->zs, 0, sizeof z->zs);
    z->live = inflateInit(&z->zs) == Z_OK;
    return z->live;
}

void gw_zin_cleanup(struct gw_zin *z)
{
    if (z->live)
        inflateEnd(&z->zs);
    z->live = false;
    sbuf_cleanup(&z->in);
}

static bool ends_in_marker(const void *p, size_t len)
{
    return len >= sizeof zin_marker &&
           memcmp((const unsigned char *)p + len - sizeof zin_marker,
                  zin_marker, sizeof zin_marker) == 0;
}

/* Inflate the bytes of one whole payload into out. */
static enum gw_zin_res inflate_payload(struct gw_zin *z, const void *in,
                                       size_t len, struct sbuf *out)
{
    unsigned char chunk[GW_ZIN_CHUNK];

    sbuf_reset(out);
    z->zs.next_in = (Bytef *)(uintptr_t)in;
    z->zs.avail_in = (uInt)len;
    for (;;) {
        z->zs.next_out = chunk;
        z->zs.avail_out = sizeof chunk;
        int rc = inflate(&z->zs, Z_SYNC_FLUSH);
        size_t got = sizeof chunk - z->zs.avail_out;
        if (got > 0) {
            if (out->len + got > z->max)
                return GW_ZIN_BIG;
            sbuf_addn(out, (const char *)chunk, got);
            if (sbuf_error(out) != SBUF_OK)
                return GW_ZIN_NOMEM;
        }
        /* The server's stream never ends: Z_STREAM_END is as broken as
         * Z_DATA_ERROR. Z_BUF_ERROR only says nothing more could be done. */
        if (rc == Z_MEM_ERROR)
            return GW_ZIN_NOMEM;
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return GW_ZIN_BAD;
        if (z->zs.avail_in == 0 && z->zs.avail_out != 0)
            break;
        if (rc == Z_BUF_ERROR && got == 0)
            return GW_ZIN_BAD;     /* input left that makes no progress */
    }
    return GW_ZIN_TEXT;
}

enum gw_zin_res gw_zin_feed(struct gw_zin *z, const void *in, size_t len,
                            struct sbuf *out)
{
    if (!z->live)
        return GW_ZIN_BAD;
    if (z->in.len + len > z->max)
        return GW_ZIN_BIG;
    /* The usual case, a payload in one message: inflated where it lies. */
    if (z->in.len == 0 && ends_in_marker(in, len))
        return inflate_payload(z, in, len, out);
    sbuf_addn(&z->in, in, len);
    if (sbuf_error(&z->in) != SBUF_OK)
        return GW_ZIN_NOMEM;
    if (!ends_in_marker(z->in.buf, z->in.len))
        return GW_ZIN_MORE;
    enum gw_zin_res r = inflate_payload(z, z->in.buf, z->in.len, out);
    sbuf_reset(&z->in);
    return r;
}

const char *gw_zin_str(enum gw_zin_res r)
{
    switch (r) {
    case GW_ZIN_MORE: return "waiting for the rest";
    case GW_ZIN_TEXT: return "a payload";
    case GW_ZIN_BAD: return "not a zlib stream";
    case GW_ZIN_BIG: return "over the payload limit";
    case GW_ZIN_NOMEM: return "out of memory";
    }
    return "?";
}
