/*
 * Tests for fake-discord's load generator in rate mode (open loop) and with
 * a command mix: what it injects and how it counts, never how fast (timing
 * belongs to bench/). The test plays the bot through the minimal websocket
 * client and answers every INTERACTION_CREATE with a callback.
 */
#include "support.h"

#include "fake_client.h"
#include "fake_ws.h"

#include <stdio.h>
#include <string.h>

#define TOKEN   "test-token"
#define WAIT_MS 5000
#define COUNT   30
#define CHANNELS 3

static int group_setup(void **state)
{
    static struct fake_proc fk;
    const char *const args[] = {"--token", TOKEN, "--identify-gap-ms", "0",
                                NULL};
    if (fake_server_start(&fk, args) != 0)
        return -1;
    *state = &fk;
    return 0;
}

static int group_teardown(void **state)
{
    return fake_server_stop(*state);
}

/* Send a type-5 callback for interaction d; assert the HTTP status. */
static void callback(int port, const json_t *d, int want_status)
{
    char path[512];
    snprintf(path, sizeof path, "/api/v10/interactions/%s/%s/callback",
             json_string_value(json_object_get(d, "id")),
             json_string_value(json_object_get(d, "token")));
    struct fake_resp r;
    assert_int_equal(fake_request(port, "POST", path, NULL, "{\"type\":5}",
                                  &r), 0);
    assert_int_equal(r.status, want_status);
    fake_resp_free(&r);
}

/* Answer one INTERACTION_CREATE; returns its data.name and channel. */
static void answer_one(struct fake_ws *w, int port, char *name, size_t ncap,
                       char *chan, size_t ccap)
{
    json_t *ev = fake_ws_expect(w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    json_t *d = json_object_get(ev, "d");
    snprintf(name, ncap, "%s", json_string_value(json_object_get(
        json_object_get(d, "data"), "name")));
    snprintf(chan, ccap, "%s",
             json_string_value(json_object_get(d, "channel_id")));
    callback(port, d, 204);
}

/* GET /_test/load once the run is over (new reference). */
static json_t *load_when_done(int port)
{
    json_t *load = NULL;
    for (int tries = 0; tries < WAIT_MS / 50; tries++) {
        json_decref(load);
        load = fake_get_json(port, "/_test/load", NULL);
        if (json_is_false(json_object_get(load, "active")))
            break;
        fake_sleep_ms(50);
    }
    assert_true(json_is_false(json_object_get(load, "active")));
    return load;
}

/* Play the bot: a fresh session on a reset fake. */
static void bot_session(struct fake_ws *w, int port)
{
    assert_int_equal(fake_ws_init(w), 0);
    assert_non_null(fake_ws_session(w, port, TOKEN, WAIT_MS));
    assert_int_equal(fake_reset(port), 0);
}

/* POST /_test/load; it must be accepted. */
static void start_load(int port, const char *spec)
{
    int st;
    json_decref(fake_post_json(port, "/_test/load", spec, &st));
    assert_int_equal(st, 200);
}

/* Every one of COUNT is injected and answered, the mix alternates, the
 * channels rotate, and the run's summary has the rate fields. */
static void test_rate_mode_counts(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    bot_session(&w, port);
    start_load(port,
               "{\"count\":30,\"channels\":3,\"rate\":500,\"spacing\":"
               "\"poisson\",\"concurrency\":4,\"commands\":[{\"name\":"
               "\"roll\",\"options\":[{\"name\":\"dice\",\"value\":"
               "\"1d20\"}]},{\"name\":\"help\"}]}");

    int rolls = 0, helps = 0;
    char chans[CHANNELS][32] = {{0}};
    int nchans = 0;
    for (int i = 0; i < COUNT; i++) {
        char name[32], chan[32];
        answer_one(&w, port, name, sizeof name, chan, sizeof chan);
        rolls += strcmp(name, "roll") == 0;
        helps += strcmp(name, "help") == 0;
        bool seen = false;
        for (int k = 0; k < nchans; k++)
            seen |= strcmp(chans[k], chan) == 0;
        if (!seen) {
            assert_true(nchans < CHANNELS);
            snprintf(chans[nchans++], sizeof chans[0], "%s", chan);
        }
    }
    assert_int_equal(rolls, COUNT / 2);
    assert_int_equal(helps, COUNT / 2);
    assert_int_equal(nchans, CHANNELS);

    assert_int_equal(fake_wait_stat(port, "answered", COUNT, WAIT_MS), 0);
    json_t *load = load_when_done(port);
    assert_string_equal(json_string_value(json_object_get(load, "mode")),
                        "rate");
    assert_string_equal(json_string_value(json_object_get(load, "spacing")),
                        "poisson");
    assert_int_equal(json_number_value(json_object_get(load, "rate")), 500);
    assert_int_equal(json_integer_value(json_object_get(load, "injected")),
                     COUNT);
    assert_int_equal(json_integer_value(json_object_get(load, "answered")),
                     COUNT);
    assert_int_equal(json_integer_value(json_object_get(load, "missed")), 0);
    assert_int_equal(json_integer_value(json_object_get(load, "concurrency")),
                     4);
    assert_true(json_is_integer(json_object_get(load, "capped")));
    assert_true(json_is_number(json_object_get(load, "max_lag_ms")));
    assert_true(json_is_number(json_object_get(load, "per_second")));
    assert_true(json_is_number(json_object_get(load, "injected_per_second")));
    json_t *lat = json_object_get(load, "latency_ms");
    assert_int_equal(json_integer_value(json_object_get(lat, "count")),
                     COUNT);
    assert_true(json_number_value(json_object_get(lat, "p99")) >=
                json_number_value(json_object_get(lat, "p50")));
    size_t nworst = json_array_size(json_object_get(lat, "worst"));
    assert_true(nworst >= 1 && nworst <= 10);
    json_decref(load);
    fake_ws_free(&w);
}

/* Answer one interaction on time and the other after the 3 s deadline:
 * one answered, one missed, and the run ends (whether the deadline scan or
 * the refused late callback sees it first). */
static void test_late_answer_counts_missed(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    bot_session(&w, port);
    start_load(port, "{\"count\":2,\"rate\":1000,\"concurrency\":2}");
    char name[32], chan[32];
    answer_one(&w, port, name, sizeof name, chan, sizeof chan);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    fake_sleep_ms(3000 + 300);          /* past the 3 s window */
    callback(port, json_object_get(ev, "d"), 404);  /* 10062: too late */
    json_t *load = load_when_done(port);
    assert_int_equal(json_integer_value(json_object_get(load, "answered")),
                     1);
    assert_int_equal(json_integer_value(json_object_get(load, "missed")), 1);
    json_decref(load);
    fake_ws_free(&w);
}

/* Bad rate, spacing and command lists are refused before anything is
 * injected. */
static void test_rate_mode_refusals(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    bot_session(&w, port);
    static const char *const bad[] = {
        "{\"count\":5,\"rate\":-1}",
        "{\"count\":5,\"rate\":\"fast\"}",
        "{\"count\":5,\"rate\":10,\"spacing\":\"bursty\"}",
        "{\"count\":5,\"commands\":[]}",
        "{\"count\":5,\"commands\":{\"name\":\"roll\"}}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st;
        json_decref(fake_post_json(port, "/_test/load", bad[i], &st));
        assert_int_equal(st, 409);
    }
    assert_int_equal(fake_stat(port, "injected"), 0);
    fake_ws_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_mode_counts),
        cmocka_unit_test(test_rate_mode_refusals),
        cmocka_unit_test(test_late_answer_counts_missed),
    };
    return cmocka_run_group_tests_name("fake_load", tests, group_setup,
                                       group_teardown);
}
