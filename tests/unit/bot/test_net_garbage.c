/* test_net_garbage.c - garbage from the network: the gateway's handler
 * gets truncated JSON, wrong types in every field it reads, invalid UTF-8
 * and out-of-range HELLO intervals; the REST rate limiter gets huge,
 * negative and malformed Retry-After / X-RateLimit-Reset-After values.
 * Each must end in a bounded reaction: no crash, the heartbeat interval
 * inside GW_HEARTBEAT_MIN_MS..heartbeat_max_ms (and logged when changed),
 * every wait at most RL_MAX_WAIT_MS.
 *
 * The gw runs on a real lws context that is never serviced (as in
 * tests/fuzz/fuzz_gw_message.c): timers are scheduled, none fires. The
 * end-to-end versions (a 16 MiB frame, a 429 with a huge retry_after)
 * are in tests/integration/test_daemon_garbage.c. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "eng_rng.h"
#include "gw_int.h"
#include "log.h"
#include "rest_ratelimit.h"

#define TOKEN "garbage-token.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

struct rig {
    struct lws_context *ctx;
    struct log lg;
    char *logbuf;
    size_t loglen;
    FILE *logf;
    struct eng_rng rng;
    struct gw_opts o;
    struct gw *gw;
    int dispatches;
};

static bool on_dispatch(void *ud, const char *t, json_t *d)
{
    struct rig *r = ud;
    (void)d;
    assert_non_null(t);
    r->dispatches++;
    return true;
}

static void on_ready(void *ud, const char *app)
{
    (void)ud;
    assert_non_null(app);
}

static void on_fatal(void *ud, int code)
{
    (void)ud;
    fail_msg("fatal close %d from garbage", code);
}

static int rig_setup(void **state)
{
    struct rig *r = calloc(1, sizeof *r);
    struct lws_context_creation_info info;
    struct cfg c;

    assert_non_null(r);
    lws_set_log_level(0, NULL);
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.fd_limit_per_thread = 16;
    r->ctx = lws_create_context(&info);
    assert_non_null(r->ctx);
    r->logf = open_memstream(&r->logbuf, &r->loglen);
    assert_non_null(r->logf);
    log_init(&r->lg, r->logf, LOG_LVL_DEBUG);
    log_set_journal(&r->lg, false);
    eng_rng_seed(&r->rng, 11);
    cfg_defaults(&c);
    r->o.token = TOKEN;
    r->o.log = &r->lg;
    r->o.rng = &r->rng;
    r->o.ctx = r->ctx;
    r->o.backoff_min_ms = c.gw_backoff_min_ms;
    r->o.backoff_max_ms = c.gw_backoff_max_ms;
    r->o.heartbeat_max_ms = c.gw_heartbeat_max_ms;
    r->o.max_payload = c.gw_max_payload;
    r->o.identify_spacing_ms = c.gw_identify_spacing_ms;
    r->o.ready_timeout_ms = c.gw_ready_timeout_ms;
    r->o.hooks = (struct gw_hooks){on_dispatch, on_ready, on_fatal, r};
    assert_int_equal(gw_new(&r->o, &r->gw), BOT_OK);
    r->gw->state = GW_ST_READY;
    snprintf(r->gw->session_id, sizeof r->gw->session_id, "s1");
    snprintf(r->gw->resume_url, sizeof r->gw->resume_url, "ws://127.0.0.1:1");
    r->gw->seq = 5;
    *state = r;
    return 0;
}

static int rig_teardown(void **state)
{
    struct rig *r = *state;
    gw_detach(r->gw);
    gw_free(r->gw);
    lws_context_destroy(r->ctx);
    log_cleanup(&r->lg);
    fclose(r->logf);
    free(r->logbuf);
    free(r);
    return 0;
}

static void feed(struct rig *r, const char *frame, size_t len)
{
    char *copy = malloc(len ? len : 1);   /* exactly the frame, no NUL */
    assert_non_null(copy);
    memcpy(copy, frame, len);
    gw_on_message(r->gw, copy, len);
    free(copy);
    assert_true(r->gw->seq >= 0);
    assert_true(r->gw->state >= GW_ST_IDLE && r->gw->state <= GW_ST_STOPPED);
}

static bool logged(struct rig *r, const char *what)
{
    fflush(r->logf);
    return r->logbuf && strstr(r->logbuf, what) != NULL;
}

/* Wrong types in every field the handler reads leave the session alone:
 * seq never moves backwards or negative, no hook sees a bad event. */
static void test_gw_wrong_types_ignored(void **state)
{
    static const char *const frames[] = {
        "{\"op\":0,\"s\":6,\"t\":\"READ",                 /* truncated */
        "{\"op\":",
        "",
        "[]",
        "null",
        "\"op\"",
        "{\"op\":\"0\",\"s\":7,\"t\":\"X\",\"d\":{}}",     /* op a string */
        "{\"op\":0.5,\"s\":7,\"t\":\"X\",\"d\":{}}",
        "{\"op\":-1}",
        "{\"op\":99999999999999999999}",
        "{\"op\":true}",
        "{\"op\":0,\"s\":-3,\"t\":\"X\",\"d\":{}}",       /* s negative */
        "{\"op\":0,\"s\":\"9\",\"t\":\"X\",\"d\":{}}",    /* s a string */
        "{\"op\":0,\"s\":null,\"t\":7,\"d\":{}}",         /* t a number */
        "{\"op\":0,\"s\":null,\"t\":null,\"d\":[]}",
        "{\"op\":0,\"s\":null,\"t\":[\"READY\"],\"d\":1}",
        "{\"op\":0,\"s\":null,\"t\":\"READY\",\"d\":[]}", /* d an array */
        ("{\"op\":0,\"s\":null,\"t\":\"READY\",\"d\":{\"session_id\":5,"
         "\"resume_gateway_url\":[],\"application\":\"x\"}}"),
        "{\"op\":11,\"d\":{}}",
        "{\"op\":1,\"d\":[1,2]}",
    };
    struct rig *r = *state;

    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        int64_t before = r->gw->seq;
        feed(r, frames[i], strlen(frames[i]));
        assert_true(r->gw->seq >= before);
    }
    assert_int_equal(r->gw->seq, 5);      /* no frame carried a usable s */
    assert_true(logged(r, "not a payload"));
    assert_true(logged(r, "malformed READY"));

    /* op 9 whose d is not the boolean true: not resumable, so a new
     * session after the 1-5 s wait, not a tight reconnect loop */
    feed(r, "{\"op\":9,\"d\":\"true\"}", 19);
    assert_int_equal(r->gw->next, GW_NEXT_NEW_SESSION);
    assert_int_equal(r->gw->state, GW_ST_WAITING);
    assert_true(r->gw->next_delay_ms >= GW_INVALID_MIN_MS &&
                r->gw->next_delay_ms <= GW_INVALID_MAX_MS);
}

/* Invalid UTF-8 is a JSON error: the frame is dropped and logged. */
static void test_gw_invalid_utf8_dropped(void **state)
{
    static const char bad[] = "{\"op\":0,\"s\":8,\"t\":\"\xff\xfe\",\"d\":{}}";
    static const char overlong[] = "{\"op\":0,\"s\":8,\"t\":\"\xc0\xaf\"}";
    static const char nul[] = "{\"op\":0,\"s\":8,\"t\":\"A\0B\",\"d\":{}}";
    struct rig *r = *state;

    feed(r, bad, sizeof bad - 1);
    feed(r, overlong, sizeof overlong - 1);
    feed(r, nul, sizeof nul - 1);
    assert_int_equal(r->gw->seq, 5);
    assert_int_equal(r->dispatches, 0);
    assert_true(logged(r, "not a payload"));
}

/* Every HELLO interval ends inside GW_HEARTBEAT_MIN_MS..heartbeat_max_ms,
 * with a warning whenever it differs from what the server sent. */
static void test_gw_hello_interval_clamped(void **state)
{
    static const struct {
        const char *d;
        int64_t want;               /* -1: heartbeat_max_ms */
        bool warns;
    } cases[] = {
        {"{\"heartbeat_interval\":41250}", 41250, false},
        {"{\"heartbeat_interval\":0}", GW_HEARTBEAT_MIN_MS, true},
        {"{\"heartbeat_interval\":-5}", GW_HEARTBEAT_MIN_MS, true},
        {"{\"heartbeat_interval\":1}", GW_HEARTBEAT_MIN_MS, true},
        {"{\"heartbeat_interval\":2147483648}", -1, true},
        {"{\"heartbeat_interval\":9223372036854775807}", -1, true},
        {"{\"heartbeat_interval\":1e300}", -1, true},
        {"{\"heartbeat_interval\":\"41250\"}", GW_HEARTBEAT_MIN_MS, true},
        {"{\"heartbeat_interval\":null}", GW_HEARTBEAT_MIN_MS, true},
        {"{\"heartbeat_interval\":[41250]}", GW_HEARTBEAT_MIN_MS, true},
        {"{}", GW_HEARTBEAT_MIN_MS, true},
        {"[]", GW_HEARTBEAT_MIN_MS, true},
    };
    struct rig *r = *state;
    char frame[160];

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t want = cases[i].want < 0 ? r->o.heartbeat_max_ms
                                         : cases[i].want;
        fflush(r->logf);
        size_t mark = r->loglen;
        snprintf(frame, sizeof frame, "{\"op\":10,\"d\":%s}", cases[i].d);
        r->gw->state = GW_ST_HELLO;
        feed(r, frame, strlen(frame));
        if (r->gw->heartbeat_ms != want)
            fail_msg("HELLO d=%s: interval %lld, want %lld", cases[i].d,
                     (long long)r->gw->heartbeat_ms, (long long)want);
        fflush(r->logf);
        bool warned = strstr(r->logbuf + mark, "heartbeat_interval") != NULL;
        if (warned != cases[i].warns)
            fail_msg("HELLO d=%s: warning %s", cases[i].d,
                     warned ? "logged but not expected" : "missing");
    }
}

/* The pure clamp, straight. */
static void test_gw_hello_interval_fn(void **state)
{
    bool clamped;
    json_t *v;
    (void)state;

    v = json_integer(100);
    assert_int_equal(gw_hello_interval_ms(v, 60000, &clamped), 100);
    assert_false(clamped);
    json_decref(v);
    v = json_integer(60001);
    assert_int_equal(gw_hello_interval_ms(v, 60000, &clamped), 60000);
    assert_true(clamped);
    json_decref(v);
    assert_int_equal(gw_hello_interval_ms(NULL, 60000, &clamped),
                     GW_HEARTBEAT_MIN_MS);
    assert_true(clamped);
}

static bool header(struct rl_headers *h, const char *line)
{
    return rl_parse_header(h, line, strlen(line));
}

/* Huge values are cut to RL_MAX_WAIT_MS; negative, exponent, NaN-like and
 * empty ones are refused (the default wait applies). */
static void test_rl_absurd_headers(void **state)
{
    static const char *const refused[] = {
        "Retry-After: -5\r\n",     "Retry-After: 1e12\r\n",
        "Retry-After: NaN\r\n",    "Retry-After: inf\r\n",
        "Retry-After: \r\n",       "Retry-After: 0x10\r\n",
        "Retry-After: 1.5.2\r\n",
    };
    struct rl_headers h;
    int64_t ms;
    (void)state;

    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        memset(&h, 0, sizeof h);
        if (header(&h, refused[i]) || h.has_retry_after)
            fail_msg("accepted %s", refused[i]);
    }
    memset(&h, 0, sizeof h);
    assert_true(header(&h, "Retry-After: 1000000000000\r\n"));
    assert_int_equal(h.retry_after_ms, RL_MAX_WAIT_MS);
    assert_true(header(&h, "X-RateLimit-Reset-After: "
                           "99999999999999999999999999.5\r\n"));
    assert_int_equal(h.reset_after_ms, RL_MAX_WAIT_MS);
    memset(&h, 0, sizeof h);
    assert_false(header(&h, "X-RateLimit-Reset-After: -1\r\n"));
    assert_false(h.has_reset_after);
    assert_true(rl_parse_seconds("300.001", 7, &ms));
    assert_int_equal(ms, RL_MAX_WAIT_MS);
    assert_true(rl_parse_seconds("299.999", 7, &ms));
    assert_int_equal(ms, 299999);
    assert_int_equal(rl_wait_clamp(-1), 0);
    assert_int_equal(rl_wait_clamp(INT64_MAX), RL_MAX_WAIT_MS);
}

/* A 429 and a bucket reset built from absurd headers never make a wait
 * longer than RL_MAX_WAIT_MS, for the bucket and for the global pause. */
static void test_rl_absurd_429_wait_bounded(void **state)
{
    static struct rl rl;
    struct rl_headers h;
    char key[RL_MAX_KEY];
    bool exempt;
    const int64_t t0 = 1000000;
    (void)state;

    rl_init(&rl, 50);
    assert_true(rl_route_key("POST", "/channels/1/messages", key, sizeof key,
                             &exempt));
    memset(&h, 0, sizeof h);
    assert_true(header(&h, "X-RateLimit-Limit: 5\r\n"));
    assert_true(header(&h, "X-RateLimit-Remaining: 0\r\n"));
    assert_true(header(&h, "X-RateLimit-Reset-After: 999999999999\r\n"));
    assert_true(header(&h, "Retry-After: 999999999999\r\n"));
    rl_on_send(&rl, key, exempt, t0);
    rl_on_response(&rl, key, 429, &h, t0);
    assert_true(rl_wait_ms(&rl, key, exempt, t0) > 0);
    assert_true(rl_wait_ms(&rl, key, exempt, t0) <=
                RL_MAX_WAIT_MS + RL_RESET_MARGIN_MS);
    assert_int_equal(rl_wait_ms(&rl, key, exempt,
                                t0 + RL_MAX_WAIT_MS + RL_RESET_MARGIN_MS),
                     0);

    h.global = true;
    rl_on_send(&rl, key, exempt, t0);
    rl_on_response(&rl, key, 429, &h, t0);
    assert_true(rl_wait_ms(&rl, "GET /gateway/bot", false, t0) <=
                RL_MAX_WAIT_MS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gw_wrong_types_ignored,
                                        rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_gw_invalid_utf8_dropped,
                                        rig_setup, rig_teardown),
        cmocka_unit_test_setup_teardown(test_gw_hello_interval_clamped,
                                        rig_setup, rig_teardown),
        cmocka_unit_test(test_gw_hello_interval_fn),
        cmocka_unit_test(test_rl_absurd_headers),
        cmocka_unit_test(test_rl_absurd_429_wait_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
