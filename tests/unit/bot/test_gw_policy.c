/* test_gw_policy.c - the gateway's pure decisions: close codes, backoff,
 * the send limit, URL handling. */
#include "support.h"

#include <string.h>

#include "eng_rng.h"
#include "gw.h"

static void test_gw_close_codes(void **state)
{
    (void)state;
    assert_int_equal(gw_close_next(4000), GW_NEXT_RESUME);
    assert_int_equal(gw_close_next(4001), GW_NEXT_RESUME);
    assert_int_equal(gw_close_next(4008), GW_NEXT_RESUME);
    assert_int_equal(gw_close_next(1000), GW_NEXT_RESUME);
    assert_int_equal(gw_close_next(1006), GW_NEXT_RESUME);
    assert_int_equal(gw_close_next(4003), GW_NEXT_NEW_SESSION);
    assert_int_equal(gw_close_next(4005), GW_NEXT_NEW_SESSION);
    assert_int_equal(gw_close_next(4007), GW_NEXT_NEW_SESSION);
    assert_int_equal(gw_close_next(4009), GW_NEXT_NEW_SESSION);
    for (int c = 4010; c <= 4014; c++)
        assert_int_equal(gw_close_next(c), GW_NEXT_FATAL);
    assert_int_equal(gw_close_next(4004), GW_NEXT_FATAL);
}

static void test_gw_backoff_grows_jitters_caps(void **state)
{
    struct eng_rng rng;
    (void)state;
    eng_rng_seed(&rng, 7);
    for (int a = 0; a < 20; a++) {
        int64_t cap = 1000;
        for (int i = 0; i < a && cap < 60000; i++)
            cap *= 2;
        if (cap > 60000)
            cap = 60000;
        for (int k = 0; k < 50; k++) {
            int64_t d = gw_backoff_ms(a, 1000, 60000, &rng);
            assert_true(d <= cap);
            assert_true(d >= cap / 2);
        }
    }
}

static void test_gw_send_window(void **state)
{
    struct gw_sendwin w;
    int ok = 0;
    (void)state;
    memset(&w, 0, sizeof w);
    for (int i = 0; i < 200; i++)
        ok += gw_sendwin_take(&w, 1000 + i, false);
    assert_int_equal(ok, GW_SEND_LIMIT - GW_SEND_RESERVED);
    /* heartbeats still have their reserved slots */
    for (int i = 0; i < GW_SEND_RESERVED; i++)
        assert_true(gw_sendwin_take(&w, 2000, true));
    assert_false(gw_sendwin_take(&w, 2000, true));
    /* a minute later the window is free again */
    assert_true(gw_sendwin_take(&w, 1000 + GW_SEND_WINDOW_MS + 300, false));
}

static void test_gw_url_split(void **state)
{
    bool tls;
    char host[64], path[128];
    int port;
    (void)state;
    assert_true(gw_url_split("wss://gateway.discord.gg", &tls, host,
                             sizeof host, &port, path, sizeof path));
    assert_true(tls);
    assert_string_equal(host, "gateway.discord.gg");
    assert_int_equal(port, 443);
    assert_string_equal(path, "/" GW_QUERY);
    assert_true(gw_url_split("wss://gateway.discord.gg/", &tls, host,
                             sizeof host, &port, path, sizeof path));
    assert_string_equal(path, "/" GW_QUERY);
    assert_true(gw_url_split("ws://127.0.0.1:4321/resume", &tls, host,
                             sizeof host, &port, path, sizeof path));
    assert_false(tls);
    assert_int_equal(port, 4321);
    assert_string_equal(path, "/resume" GW_QUERY);
    assert_true(gw_url_split("ws://h/x?v=9", &tls, host, sizeof host, &port,
                             path, sizeof path));
    assert_string_equal(path, "/x" GW_QUERY);
    assert_false(gw_url_split("http://h/", &tls, host, sizeof host, &port,
                              path, sizeof path));
    assert_false(gw_url_split("ws://:80/", &tls, host, sizeof host, &port,
                              path, sizeof path));
    assert_false(gw_url_split("ws://h:99999/", &tls, host, sizeof host, &port,
                              path, sizeof path));
    assert_false(gw_url_split("ws://user@h/", &tls, host, sizeof host, &port,
                              path, sizeof path));
}

/* Half the interval, within 1..5 s, never past the interval itself. */
static void test_gw_ack_deadline(void **state)
{
    (void)state;
    assert_int_equal(gw_ack_deadline_ms(41250), GW_ACK_DEADLINE_MAX_MS);
    assert_int_equal(gw_ack_deadline_ms(3000), 1500);
    assert_int_equal(gw_ack_deadline_ms(1500), GW_ACK_DEADLINE_MIN_MS);
    assert_int_equal(gw_ack_deadline_ms(400), 400);
    assert_int_equal(gw_ack_deadline_ms(100), 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gw_close_codes),
        cmocka_unit_test(test_gw_backoff_grows_jitters_caps),
        cmocka_unit_test(test_gw_send_window),
        cmocka_unit_test(test_gw_url_split),
        cmocka_unit_test(test_gw_ack_deadline),
    };
    return cmocka_run_group_tests_name("gw_policy", tests, NULL, NULL);
}
