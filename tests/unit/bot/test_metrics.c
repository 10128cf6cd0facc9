/* test_metrics.c - the metrics' pieces: histogram buckets, the text
 * format, label escaping, the command cap, [metrics] listen and the REST
 * route templates that keep label values few. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "rest.h"

static char *render_hist(const struct metrics_hist *h)
{
    struct sbuf sb;
    sbuf_init(&sb, METRICS_MAX_PAGE);
    metrics_write_hist(&sb, "t", h);
    return sbuf_take(&sb);
}

static void expect_in(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("missing \"%s\" in:\n%s", want, text);
}

static void test_hist_buckets_are_cumulative(void **state)
{
    struct metrics_hist h = {0};
    char *t;
    (void)state;
    metrics_hist_add(&h, 40);        /* <= 50 us */
    metrics_hist_add(&h, 50);        /* the bound itself is in */
    metrics_hist_add(&h, 51);        /* <= 100 us */
    metrics_hist_add(&h, 2400);      /* <= 2.5 ms */
    metrics_hist_add(&h, 60000000);  /* over 10 s */
    t = render_hist(&h);
    expect_in(t, "t_bucket{le=\"0.00005\"} 2\n");
    expect_in(t, "t_bucket{le=\"0.0001\"} 3\n");
    expect_in(t, "t_bucket{le=\"0.002\"} 3\n");
    expect_in(t, "t_bucket{le=\"0.0025\"} 4\n");
    expect_in(t, "t_bucket{le=\"10\"} 4\n");
    expect_in(t, "t_bucket{le=\"+Inf\"} 5\n");
    expect_in(t, "t_sum 60.002541\n");
    expect_in(t, "t_count 5\n");
    free(t);
}

static void test_interactions_by_command_and_outcome(void **state)
{
    struct metrics m;
    struct sbuf sb;
    char name[16];
    (void)state;
    metrics_init(&m);
    metrics_interaction(&m, "roll", METRICS_OK, 300);
    metrics_interaction(&m, "roll", METRICS_OK, 300);
    metrics_interaction(&m, "roll", METRICS_REFUSED, 300);
    metrics_interaction(&m, "combat", METRICS_FAILED, 0);
    metrics_interaction(&m, "we\"ird\\\n", METRICS_OK, 300);
    /* more names than slots: the last slot counts them as "other" */
    for (int i = 0; i < METRICS_MAX_COMMANDS + 10; i++) {
        snprintf(name, sizeof name, "c%d", i);
        metrics_interaction(&m, name, METRICS_OK, 300);
    }
    sbuf_init(&sb, METRICS_MAX_PAGE);
    metrics_write_interactions(&sb, &m);
    expect_in(sbuf_str(&sb),
              "fray_interactions_total{command=\"roll\",outcome=\"ok\"} 2\n");
    expect_in(sbuf_str(&sb), "{command=\"roll\",outcome=\"refused\"} 1\n");
    expect_in(sbuf_str(&sb), "{command=\"combat\",outcome=\"failed\"} 1\n");
    expect_in(sbuf_str(&sb), "{command=\"we\\\"ird\\\\\\n\",outcome=\"ok\"} 1");
    expect_in(sbuf_str(&sb), "{command=\"other\",outcome=\"ok\"} 14\n");
    assert_int_equal(m.ncommands, METRICS_MAX_COMMANDS);
    /* a failed callback has no latency to count */
    assert_int_equal(m.latency.n, 4 + METRICS_MAX_COMMANDS + 10);
    sbuf_cleanup(&sb);
}

static void expect_listen(const char *spec, const char *host, int port,
                          bool loopback)
{
    char h[METRICS_HOST_MAX], why[128];
    int p = -1;
    bool lo = !loopback;
    if (!metrics_listen_parse(spec, h, sizeof h, &p, &lo, why, sizeof why))
        fail_msg("%s: %s", spec, why);
    assert_string_equal(h, host);
    assert_int_equal(p, port);
    assert_int_equal(lo, loopback);
}

static void test_listen_parse(void **state)
{
    char h[METRICS_HOST_MAX], why[128];
    int p;
    bool lo;
    (void)state;
    expect_listen("9464", "127.0.0.1", 9464, true);
    expect_listen("127.0.0.1:9464", "127.0.0.1", 9464, true);
    expect_listen("127.8.9.10:1", "127.8.9.10", 1, true);
    expect_listen("localhost:9464", "127.0.0.1", 9464, true);
    expect_listen("[::1]:9464", "::1", 9464, true);
    expect_listen("0.0.0.0:9464", "0.0.0.0", 9464, false);
    expect_listen("[::]:9464", "::", 9464, false);
    expect_listen("192.0.2.1:80", "192.0.2.1", 80, false);
    assert_false(metrics_listen_parse("", h, sizeof h, &p, &lo, why,
                                      sizeof why));
    assert_false(metrics_listen_parse("127.0.0.1:65536", h, sizeof h, &p,
                                      &lo, why, sizeof why));
    assert_false(metrics_listen_parse(":9464", h, sizeof h, &p, &lo, why,
                                      sizeof why));
    assert_false(metrics_listen_parse("example.com:9464", h, sizeof h, &p,
                                      &lo, why, sizeof why));
    assert_non_null(strstr(why, "not an IP address"));
}

static void test_route_templates(void **state)
{
    char out[REST_STATS_ROUTE_MAX];
    (void)state;
    rest_route_template("/channels/1100000000000000200/messages", out,
                        sizeof out);
    assert_string_equal(out, "/channels/:id/messages");
    rest_route_template("/interactions/1234/aW50ZXJhY3Rpb246MTIzNDp0b2tlbjpsb25nZXJ0aGFuNDA/callback?with_response=true",
                        out, sizeof out);
    assert_string_equal(out, "/interactions/:id/:token/callback");
    rest_route_template("/webhooks/11/aW50ZXJhY3Rpb246MTIzNDp0b2tlbjpsb25nZXJ0aGFuNDA/messages/@original",
                        out, sizeof out);
    assert_string_equal(out, "/webhooks/:id/:token/messages/@original");
    rest_route_template("/gateway/bot", out, sizeof out);
    assert_string_equal(out, "/gateway/bot");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_buckets_are_cumulative),
        cmocka_unit_test(test_interactions_by_command_and_outcome),
        cmocka_unit_test(test_listen_parse),
        cmocka_unit_test(test_route_templates),
    };
    return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
