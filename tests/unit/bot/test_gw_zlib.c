/* test_gw_zlib.c - the gateway's zlib-stream: payloads inflated as Discord
 * sends them (one stream a connection, each payload flushed to the
 * 00 00 ff ff marker), split payloads, broken streams and the limit. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "gw_zlib.h"

#define T_MAX 65536

/* The server's side: one deflate stream, one Z_SYNC_FLUSH a payload. */
struct t_srv {
    z_stream zs;
    unsigned char out[2 * T_MAX];
    size_t len;
};

static void srv_open(struct t_srv *s)
{
    memset(s, 0, sizeof *s);
    assert_int_equal(deflateInit(&s->zs, Z_DEFAULT_COMPRESSION), Z_OK);
}

static void srv_send(struct t_srv *s, const char *text, size_t n)
{
    s->zs.next_in = (Bytef *)(uintptr_t)text;
    s->zs.avail_in = (uInt)n;
    s->zs.next_out = s->out;
    s->zs.avail_out = sizeof s->out;
    assert_int_equal(deflate(&s->zs, Z_SYNC_FLUSH), Z_OK);
    assert_int_equal(s->zs.avail_in, 0);
    s->len = sizeof s->out - s->zs.avail_out;
}

/* An INTERACTION_CREATE of the shape Discord sends, numbered n. */
static void t_interaction(char *buf, size_t cap, int n)
{
    snprintf(buf, cap,
             "{\"op\":0,\"s\":%d,\"t\":\"INTERACTION_CREATE\",\"d\":{"
             "\"type\":2,\"id\":\"13%016d\",\"application_id\":"
             "\"1100000000000000100\",\"token\":\"aW50ZXJhY3Rpb246%08d\","
             "\"channel_id\":\"1100000000000000200\",\"guild_id\":"
             "\"1100000000000000300\",\"guild_locale\":\"en-US\","
             "\"locale\":\"en-US\",\"member\":{\"user\":{\"id\":"
             "\"1100000000000000400\",\"username\":\"alice\"},"
             "\"roles\":[],\"permissions\":\"2248473465835073\"},"
             "\"data\":{\"id\":\"1100000000000000500\",\"name\":\"roll\","
             "\"type\":1,\"options\":[{\"name\":\"dice\",\"type\":3,"
             "\"value\":\"1d20+%d\"}]}}}",
             n, n, n, n % 10);
}

static void test_gw_zin_payloads_in_order(void **state)
{
    (void)state;
    struct t_srv srv;
    struct gw_zin z;
    struct sbuf out;
    char text[2048];
    size_t first = 0;

    srv_open(&srv);
    gw_zin_init(&z, T_MAX);
    sbuf_init(&out, T_MAX + 1);
    assert_true(gw_zin_reset(&z));
    for (int n = 1; n <= 5; n++) {
        t_interaction(text, sizeof text, n);
        srv_send(&srv, text, strlen(text));
        assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out),
                         GW_ZIN_TEXT);
        assert_int_equal(out.len, strlen(text));
        assert_string_equal(sbuf_str(&out), text);
        if (n == 1)
            first = srv.len;
        else    /* the shared window: a like payload costs far less */
            assert_true(srv.len * 2 < first);
    }
    deflateEnd(&srv.zs);
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

/* A payload may come in several websocket messages: only the one that
 * ends in the marker completes it. */
static void test_gw_zin_split_payload(void **state)
{
    (void)state;
    struct t_srv srv;
    struct gw_zin z;
    struct sbuf out;
    char text[2048];

    srv_open(&srv);
    gw_zin_init(&z, T_MAX);
    sbuf_init(&out, T_MAX + 1);
    assert_true(gw_zin_reset(&z));
    t_interaction(text, sizeof text, 42);
    srv_send(&srv, text, strlen(text));
    size_t half = srv.len / 2;
    assert_int_equal(gw_zin_feed(&z, srv.out, half, &out), GW_ZIN_MORE);
    assert_int_equal(gw_zin_feed(&z, srv.out + half, srv.len - half, &out),
                     GW_ZIN_TEXT);
    assert_string_equal(sbuf_str(&out), text);
    deflateEnd(&srv.zs);
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

/* Bytes that are not zlib, even ending in the marker, are refused; a
 * reset (the next connection) reads a new stream. */
static void test_gw_zin_broken_then_reset(void **state)
{
    (void)state;
    static const unsigned char junk[] = {'{', '"', 'o', 'p', '"', ':', '1',
                                         '}', 0x00, 0x00, 0xff, 0xff};
    struct t_srv srv;
    struct gw_zin z;
    struct sbuf out;
    char text[2048];

    gw_zin_init(&z, T_MAX);
    sbuf_init(&out, T_MAX + 1);
    assert_int_equal(gw_zin_feed(&z, junk, sizeof junk, &out), GW_ZIN_BAD);
    assert_true(gw_zin_reset(&z));
    assert_int_equal(gw_zin_feed(&z, junk, sizeof junk, &out), GW_ZIN_BAD);

    /* A stream cut short and then a second stream's header: broken. */
    srv_open(&srv);
    assert_true(gw_zin_reset(&z));
    t_interaction(text, sizeof text, 1);
    srv_send(&srv, text, strlen(text));
    assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out), GW_ZIN_TEXT);
    deflateEnd(&srv.zs);
    srv_open(&srv);
    srv_send(&srv, text, strlen(text));
    assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out), GW_ZIN_BAD);

    /* After the reset the new stream reads. */
    assert_true(gw_zin_reset(&z));
    assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out), GW_ZIN_TEXT);
    assert_string_equal(sbuf_str(&out), text);
    deflateEnd(&srv.zs);
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

/* A small message that inflates past the limit (a zip bomb) stops at the
 * limit, as does a compressed payload that never ends. */
static void test_gw_zin_limit(void **state)
{
    (void)state;
    struct t_srv srv;
    struct gw_zin z;
    struct sbuf out;
    static char big[T_MAX + 1];

    memset(big, ' ', sizeof big);
    srv_open(&srv);
    gw_zin_init(&z, T_MAX);
    sbuf_init(&out, T_MAX + 1);
    assert_true(gw_zin_reset(&z));
    srv_send(&srv, big, sizeof big);
    assert_true(srv.len < 1024);
    assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out), GW_ZIN_BIG);
    assert_true(out.len <= T_MAX);

    /* exactly the limit is fine */
    assert_true(gw_zin_reset(&z));
    deflateEnd(&srv.zs);
    srv_open(&srv);
    srv_send(&srv, big, T_MAX);
    assert_int_equal(gw_zin_feed(&z, srv.out, srv.len, &out), GW_ZIN_TEXT);
    assert_int_equal(out.len, T_MAX);

    /* compressed bytes without a marker pile up only to the limit */
    assert_true(gw_zin_reset(&z));
    size_t fed = 0;
    enum gw_zin_res r = GW_ZIN_MORE;
    while (r == GW_ZIN_MORE && fed <= 2 * T_MAX) {
        r = gw_zin_feed(&z, big, 4096, &out);
        fed += 4096;
    }
    assert_int_equal(r, GW_ZIN_BIG);
    assert_true(fed <= T_MAX + 4096);
    deflateEnd(&srv.zs);
    gw_zin_cleanup(&z);
    sbuf_cleanup(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gw_zin_payloads_in_order),
        cmocka_unit_test(test_gw_zin_split_payload),
        cmocka_unit_test(test_gw_zin_broken_then_reset),
        cmocka_unit_test(test_gw_zin_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
