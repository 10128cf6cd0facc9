/* test_daemon_metrics.c - [metrics] listen: scrape /metrics while fray runs
 * against fake-discord and check its counts against what the test sent and
 * what the fake saw: interactions by outcome, the latency histogram, REST
 * responses by route and status, identifies and resumes, the gateway's
 * state. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define METRICS_WAIT_MS 10000
#define N_OK 12
#define N_REFUSED 3

/* The value of the sample whose name and labels are exactly `series`;
 * -1 when it is not on the page. */
static double sample(const char *page, const char *series)
{
    size_t n = strlen(series);
    for (const char *p = page; p && *p; p = strchr(p, '\n'), p = p ? p + 1
                                                                  : NULL)
        if (strncmp(p, series, n) == 0 && p[n] == ' ')
            return strtod(p + n + 1, NULL);
    return -1;
}

static char *scrape(int port, const char *path, int *status)
{
    struct fake_resp r;
    char *page;
    assert_int_equal(fake_request(port, "GET", path, NULL, NULL, &r), 0);
    *status = r.status;
    page = strdup(r.body ? r.body : "");
    fake_resp_free(&r);
    return page;
}

/* Scrape until series reaches want (fray counts a callback once its
 * answer came back, a moment after the fake recorded it). */
static char *scrape_until(int port, const char *series, double want)
{
    int status;
    for (int waited = 0;; waited += 50) {
        char *page = scrape(port, "/metrics", &status);
        assert_int_equal(status, 200);
        if (sample(page, series) >= want || waited >= METRICS_WAIT_MS)
            return page;
        free(page);
        fake_sleep_ms(50);
    }
}

static void expect_sample(const char *page, const char *series, double want)
{
    double v = sample(page, series);
    if (v != want)
        fail_msg("%s is %g, want %g; the page:\n%s", series, v, want, page);
}

static void roll(struct harness *h, const char *dice)
{
    char desc[160];
    json_t *d, *cb;
    snprintf(desc, sizeof desc, "{\"name\":\"roll\",\"options\":[{\"name\":"
             "\"dice\",\"value\":\"%s\"}]}", dice);
    d = json_loads(desc, 0, NULL);
    cb = harness_interact(h, d);
    json_decref(cb);
    json_decref(d);
}

static void test_metrics_count_what_was_sent(void **state)
{
    struct harness h;
    char *page, want[160];
    int port, status;
    (void)state;

    /* one user sends every roll: the limits are test_daemon_flood's */
    harness_start_conf(&h, NULL, NULL, true,
                       "[metrics]\nlisten = 127.0.0.1:0\n"
                       "[limits]\nuser_per_minute = 0\n");
    port = harness_log_port(&h, "metrics");
    for (int i = 0; i < N_OK; i++)
        roll(&h, "1d20+2");
    for (int i = 0; i < N_REFUSED; i++)
        roll(&h, "1d");                  /* bad dice: answered, refused */

    page = scrape_until(port, "fray_interaction_latency_seconds_count",
                        N_OK + N_REFUSED);
    expect_sample(page, "fray_interactions_total{command=\"roll\","
                        "outcome=\"ok\"}", N_OK);
    expect_sample(page, "fray_interactions_total{command=\"roll\","
                        "outcome=\"refused\"}", N_REFUSED);
    expect_sample(page, "fray_interaction_latency_seconds_count",
                  N_OK + N_REFUSED);
    expect_sample(page, "fray_interaction_latency_seconds_bucket"
                        "{le=\"+Inf\"}", N_OK + N_REFUSED);
    /* what fray says it sent is what the fake says it received */
    expect_sample(page, "fray_rest_requests_total{method=\"POST\",route="
                        "\"/interactions/:id/:token/callback\",status="
                        "\"204\"}", (double)fake_stat(h.fake.port,
                                                      "callbacks"));
    expect_sample(page, "fray_rest_requests_total{method=\"GET\",route="
                        "\"/gateway/bot\",status=\"200\"}", 1);
    expect_sample(page, "fray_gateway_identifies_total",
                  (double)fake_stat(h.fake.port, "identifies"));
    expect_sample(page, "fray_gateway_state{state=\"ready\"}", 1);
    expect_sample(page, "fray_gateway_state{state=\"connecting\"}", 0);
    expect_sample(page, "fray_store_commit_seconds_count", N_OK + N_REFUSED);
    assert_true(sample(page, "process_resident_memory_bytes") > 1e6);
    snprintf(want, sizeof want, "fray_build_info{version=\"%s\"",
             FRAY_VERSION);
    assert_non_null(strstr(page, want));
    free(page);

    /* a dropped connection: fray resumes, and says so */
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"close\",\"code\":4000}"), 200);
    harness_wait_stat(&h, "resumes_ok", 1);
    page = scrape_until(port, "fray_gateway_resumed_total", 1);
    expect_sample(page, "fray_gateway_resumes_total",
                  (double)fake_stat(h.fake.port, "resumes"));
    expect_sample(page, "fray_gateway_resumed_total", 1);
    expect_sample(page, "fray_gateway_identifies_total", 1);
    free(page);

    /* nothing else is served */
    free(scrape(port, "/", &status));
    assert_int_equal(status, 404);
    free(scrape(port, "/metrics/../etc", &status));
    assert_int_equal(status, 404);
    /* nor a WebSocket: an upgraded connection would be outside the
     * listener's limits (clients at once, idle time) */
    assert_true(harness_upgrade_refused(port, "/metrics"));
    free(scrape(port, "/metrics", &status));
    assert_int_equal(status, 200);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics_count_what_was_sent),
    };
    return cmocka_run_group_tests_name("daemon_metrics", tests, NULL, NULL);
}
