/*
 * Tests for fake-discord itself: REST auth, validation and violations,
 * scripted 429s and buckets, command registration, and the gateway (HELLO,
 * IDENTIFY/READY, heartbeats, interactions and callbacks, RESUME replay,
 * close codes) through a minimal lws websocket client driven from the test
 * thread, plus a small load run. Hermetic: one fake-discord child on
 * 127.0.0.1, started once for the group.
 */
#include "support.h"

#include "fake_client.h"
#include "fake_ws.h"

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define TOKEN       "test-token"
#define HB_MS       200
#define WAIT_MS     3000
#define RESUME_PATH "/resume/?v=10&encoding=json"

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Connect, HELLO, IDENTIFY, READY; returns READY's d (borrowed). */
static json_t *session(struct fake_ws *w, int port)
{
    json_t *d = fake_ws_session(w, port, TOKEN, WAIT_MS);
    assert_non_null(d);
    return d;
}

/* ---- REST helpers ---- */

static const char *const bot_headers[] = {
    "Authorization: Bot " TOKEN, "User-Agent: DiscordBot (https://x, 0.1)",
    NULL
};

static json_t *rest(int port, const char *method, const char *path,
                    const char *body, int *status, struct fake_resp *keep)
{
    struct fake_resp r;
    char full[512];
    snprintf(full, sizeof full, "/api/v10%s", path);
    assert_int_equal(fake_request(port, method, full, bot_headers, body, &r),
                     0);
    *status = r.status;
    json_t *j = r.body_len ? json_loadb(r.body, r.body_len, 0, NULL) : NULL;
    if (keep)
        *keep = r;
    else
        fake_resp_free(&r);
    return j;
}

static long long violations_of(int port, const char *kind)
{
    json_t *s = fake_stats(port);
    json_t *v = json_object_get(json_object_get(s, "violations_by_kind"),
                                kind);
    long long n = json_is_integer(v) ? json_integer_value(v) : 0;
    json_decref(s);
    return n;
}

/* Fail with the violation list in the log when there is any. */
static void assert_no_violations(int port)
{
    json_t *v = fake_get_json(port, "/_test/violations", NULL);
    if (json_integer_value(json_object_get(v, "count")) != 0) {
        char *d = json_dumps(v, JSON_INDENT(1));
        print_error("violations: %s\n", d);
        free(d);
    }
    assert_int_equal(json_integer_value(json_object_get(v, "count")), 0);
    json_decref(v);
}

/* ---- fixture ---- */

static int group_setup(void **state)
{
    /* FAKE_VERBOSE=1 in the environment makes the server log to stderr. */
    const char *const args[] = {
        "--token", TOKEN, "--heartbeat-ms", "200", "--identify-gap-ms", "0",
        getenv("FAKE_VERBOSE") ? "--verbose" : NULL, NULL
    };
    struct fake_proc *p = calloc(1, sizeof *p);
    if (p == NULL || fake_server_start(p, args) != 0) {
        free(p);
        return -1;
    }
    *state = p;
    return 0;
}

static int group_teardown(void **state)
{
    struct fake_proc *p = *state;
    int st = fake_server_stop(p);
    free(p);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int reset(void **state)
{
    struct fake_proc *p = *state;
    fake_fault(p->port, "{\"kind\":\"invalidate\"}");
    return fake_reset(p->port);
}

/* ---- REST ---- */

static void test_rest_auth_and_headers(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_resp r;
    assert_int_equal(fake_request(port, "GET", "/api/v10/gateway/bot", NULL,
                                  NULL, &r), 0);
    assert_int_equal(r.status, 401);
    assert_non_null(strstr(r.body, "401: Unauthorized"));
    fake_resp_free(&r);
    assert_int_equal(violations_of(port, "unauthorized"), 1);

    int st;
    json_t *j = rest(port, "GET", "/gateway/bot", NULL, &st, &r);
    assert_int_equal(st, 200);
    char url[64], v[32];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d", port);
    assert_string_equal(json_string_value(json_object_get(j, "url")), url);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(j, "session_start_limit"), "max_concurrency")), 1);
    assert_non_null(fake_resp_header(&r, "X-RateLimit-Limit", v, sizeof v));
    assert_non_null(fake_resp_header(&r, "x-ratelimit-bucket", v, sizeof v));
    assert_non_null(fake_resp_header(&r, "X-RateLimit-Reset-After", v,
                                     sizeof v));
    fake_resp_free(&r);
    json_decref(j);

    json_t *recs = fake_get_json(port, "/_test/requests?since=0", NULL);
    assert_int_equal(json_array_size(json_object_get(recs, "requests")), 2);
    json_decref(recs);
}

static void test_message_validation(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    char *big = malloc(2001 + 128);
    memset(big, 'x', 2001);
    big[2001] = '\0';
    char *body = malloc(2200);
    snprintf(body, 2200, "{\"content\":\"%s\",\"allowed_mentions\":"
             "{\"parse\":[]}}", big);
    int st;
    json_t *j = rest(port, "POST", "/channels/42/messages", body, &st, NULL);
    assert_int_equal(st, 400);
    assert_int_equal(json_integer_value(json_object_get(j, "code")), 50035);
    json_t *e = json_array_get(json_object_get(json_object_get(
        json_object_get(j, "errors"), "content"), "_errors"), 0);
    assert_string_equal(json_string_value(json_object_get(e, "code")),
                        "BASE_TYPE_MAX_LENGTH");
    json_decref(j);
    free(big);
    free(body);

    /* 11 embeds and an over-long title */
    j = rest(port, "POST", "/channels/42/messages",
             "{\"embeds\":[{},{},{},{},{},{},{},{},{},{},{}],"
             "\"allowed_mentions\":{\"parse\":[]}}", &st, NULL);
    assert_int_equal(st, 400);
    json_decref(j);
    j = rest(port, "POST", "/channels/42/messages",
             "{\"content\":\"\",\"allowed_mentions\":{\"parse\":[]}}", &st,
             NULL);
    assert_int_equal(st, 400);
    assert_int_equal(json_integer_value(json_object_get(j, "code")), 50006);
    json_decref(j);

    /* six buttons in a row */
    j = rest(port, "POST", "/channels/42/messages",
             "{\"content\":\"hi\",\"allowed_mentions\":{\"parse\":[]},"
             "\"components\":[{\"type\":1,\"components\":["
             "{\"type\":2,\"style\":1,\"custom_id\":\"a\",\"label\":\"a\"},"
             "{\"type\":2,\"style\":1,\"custom_id\":\"b\",\"label\":\"b\"},"
             "{\"type\":2,\"style\":1,\"custom_id\":\"c\",\"label\":\"c\"},"
             "{\"type\":2,\"style\":1,\"custom_id\":\"d\",\"label\":\"d\"},"
             "{\"type\":2,\"style\":1,\"custom_id\":\"e\",\"label\":\"e\"},"
             "{\"type\":2,\"style\":1,\"custom_id\":\"f\",\"label\":\"f\"}"
             "]}]}", &st, NULL);
    assert_int_equal(st, 400);
    json_decref(j);
    assert_true(violations_of(port, "invalid_form_body") >= 3);

    /* valid: a message, then an edit and a pin */
    j = rest(port, "POST", "/channels/42/messages",
             "{\"content\":\"ok\",\"allowed_mentions\":{\"parse\":[]},"
             "\"embeds\":[{\"title\":\"t\",\"fields\":[{\"name\":\"n\","
             "\"value\":\"v\"}]}]}", &st, NULL);
    assert_int_equal(st, 200);
    char mid[32], path[128];
    snprintf(mid, sizeof mid, "%s", json_string_value(json_object_get(j,
                                                                      "id")));
    json_decref(j);
    snprintf(path, sizeof path, "/channels/42/messages/%s", mid);
    json_decref(rest(port, "PATCH", path, "{\"content\":\"edited\","
                     "\"allowed_mentions\":{\"parse\":[]}}", &st, NULL));
    assert_int_equal(st, 200);
    snprintf(path, sizeof path, "/channels/42/pins/%s", mid);
    json_decref(rest(port, "PUT", path, NULL, &st, NULL));
    assert_int_equal(st, 204);
    assert_int_equal(violations_of(port, "allowed_mentions_missing"), 0);
}

static void test_allowed_mentions_violations(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    int st;
    json_decref(rest(port, "POST", "/channels/7/messages",
                     "{\"content\":\"no mentions field\"}", &st, NULL));
    assert_int_equal(st, 200);          /* Discord would accept it */
    assert_int_equal(violations_of(port, "allowed_mentions_missing"), 1);
    json_decref(rest(port, "POST", "/channels/7/messages",
                     "{\"content\":\"@everyone\",\"allowed_mentions\":"
                     "{\"parse\":[\"everyone\"]}}", &st, NULL));
    assert_int_equal(violations_of(port, "allowed_mentions_unsafe"), 1);
    json_decref(rest(port, "POST", "/channels/7/messages",
                     "{\"content\":\"x\",\"allowed_mentions\":"
                     "{\"parse\":[\"users\"]}}", &st, NULL));
    assert_int_equal(violations_of(port, "allowed_mentions_unsafe"), 1);
}

static void test_fault_429(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    assert_int_equal(fake_fault(port, "{\"kind\":\"rest\",\"path\":"
                                "\"/channels/\",\"status\":429,"
                                "\"retry_after\":0.05,\"count\":2}"), 200);
    const char *msg = "{\"content\":\"x\",\"allowed_mentions\":{\"parse\":[]}}";
    for (int i = 0; i < 2; i++) {
        struct fake_resp r;
        int st;
        json_t *j = rest(port, "POST", "/channels/9/messages", msg, &st, &r);
        assert_int_equal(st, 429);
        char v[32];
        assert_string_equal(fake_resp_header(&r, "retry-after", v, sizeof v),
                            "1");
        assert_string_equal(fake_resp_header(&r, "x-ratelimit-scope", v,
                                             sizeof v), "user");
        assert_true(json_number_value(json_object_get(j, "retry_after")) ==
                    0.05);
        assert_true(json_is_false(json_object_get(j, "global")));
        fake_resp_free(&r);
        json_decref(j);
        fake_sleep_ms(60);              /* honour retry_after */
    }
    int st;
    json_decref(rest(port, "POST", "/channels/9/messages", msg, &st, NULL));
    assert_int_equal(st, 200);
    assert_int_equal(fake_stat(port, "rest_429"), 2);
    assert_no_violations(port);

    /* coming back before retry_after is a violation */
    fake_fault(port, "{\"kind\":\"rest\",\"path\":\"/channels/\","
                     "\"status\":429,\"retry_after\":5,\"count\":1}");
    json_decref(rest(port, "POST", "/channels/9/messages", msg, &st, NULL));
    assert_int_equal(st, 429);
    json_decref(rest(port, "POST", "/channels/9/messages", msg, &st, NULL));
    assert_int_equal(st, 200);
    assert_int_equal(violations_of(port, "retry_after_ignored"), 1);

    /* a 5xx fault and a delayed answer */
    fake_fault(port, "{\"kind\":\"rest\",\"path\":\"/gateway/bot\","
                     "\"status\":502,\"count\":1}");
    fake_fault(port, "{\"kind\":\"delay\",\"path\":\"/gateway/bot\","
                     "\"ms\":150,\"count\":1}");
    json_decref(rest(port, "GET", "/gateway/bot", NULL, &st, NULL));
    assert_int_equal(st, 502);
    json_decref(rest(port, "GET", "/gateway/bot", NULL, &st, NULL));
    assert_int_equal(st, 200);
}

static void test_bucket_exhaustion(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    int st;
    json_decref(fake_post_json(port, "/_test/ratelimit", "{\"class\":"
                               "\"msg_create\",\"limit\":2,\"window_ms\":"
                               "60000}", &st));
    assert_int_equal(st, 200);
    const char *msg = "{\"content\":\"x\",\"allowed_mentions\":{\"parse\":[]}}";
    struct fake_resp r;
    char v[32];
    json_decref(rest(port, "POST", "/channels/5/messages", msg, &st, &r));
    assert_string_equal(fake_resp_header(&r, "x-ratelimit-remaining", v,
                                         sizeof v), "1");
    fake_resp_free(&r);
    json_decref(rest(port, "POST", "/channels/5/messages", msg, &st, &r));
    assert_string_equal(fake_resp_header(&r, "x-ratelimit-remaining", v,
                                         sizeof v), "0");
    fake_resp_free(&r);
    /* another channel is another bucket */
    json_decref(rest(port, "POST", "/channels/6/messages", msg, &st, NULL));
    assert_int_equal(st, 200);
    json_decref(rest(port, "POST", "/channels/5/messages", msg, &st, NULL));
    assert_int_equal(st, 429);
    assert_int_equal(violations_of(port, "bucket_exhausted"), 1);

    /* the global limit: the 4th non-exempt request in a second */
    json_decref(fake_post_json(port, "/_test/ratelimit",
                               "{\"global_limit\":3}", &st));
    for (int i = 0; i < 3; i++) {
        json_decref(rest(port, "GET", "/users/@me", NULL, &st, NULL));
        assert_int_equal(st, 200);
    }
    json_t *j = rest(port, "GET", "/gateway/bot", NULL, &st, &r);
    assert_int_equal(st, 429);
    assert_string_equal(fake_resp_header(&r, "x-ratelimit-global", v,
                                         sizeof v), "true");
    assert_string_equal(fake_resp_header(&r, "x-ratelimit-scope", v,
                                         sizeof v), "global");
    assert_true(json_is_true(json_object_get(j, "global")));
    fake_resp_free(&r);
    json_decref(j);
    assert_int_equal(violations_of(port, "global_rate_limit"), 1);
}

static void test_commands(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    int st;
    /* more writes than the realistic 5 per 20 s bucket allows */
    json_decref(fake_post_json(port, "/_test/ratelimit", "{\"class\":"
                               "\"commands_put\",\"limit\":50,"
                               "\"window_ms\":1000}", &st));
    assert_int_equal(st, 200);
    json_t *j = rest(port, "PUT", "/applications/1100000000000000001/commands",
                     "[{\"name\":\"roll\",\"description\":\"Roll dice\","
                     "\"options\":[{\"type\":3,\"name\":\"expr\","
                     "\"description\":\"Dice\",\"required\":true}]},"
                     "{\"name\":\"init\",\"description\":\"Initiative\","
                     "\"options\":[{\"type\":1,\"name\":\"add\","
                     "\"description\":\"Add\",\"options\":[{\"type\":4,"
                     "\"name\":\"bonus\",\"description\":\"b\"}]}]}]",
                     &st, NULL);
    assert_int_equal(st, 200);
    assert_int_equal(json_array_size(j), 2);
    assert_non_null(json_string_value(json_object_get(json_array_get(j, 0),
                                                      "id")));
    json_decref(j);
    j = rest(port, "GET", "/applications/1100000000000000001/commands", NULL,
             &st, NULL);
    assert_int_equal(json_array_size(j), 2);
    char roll_id[32];
    snprintf(roll_id, sizeof roll_id, "%s", json_string_value(
        json_object_get(json_array_get(j, 0), "id")));
    json_decref(j);

    /* POST is an upsert by name: 201 new, 200 (same id) when it exists */
    j = rest(port, "POST", "/applications/1100000000000000001/commands",
             "{\"name\":\"end\",\"description\":\"End\"}", &st, NULL);
    assert_int_equal(st, 201);
    json_decref(j);
    j = rest(port, "POST", "/applications/1100000000000000001/commands",
             "{\"name\":\"roll\",\"description\":\"Roll again\"}", &st,
             NULL);
    assert_int_equal(st, 200);
    assert_string_equal(json_string_value(json_object_get(j, "id")), roll_id);
    json_decref(j);
    j = rest(port, "GET", "/applications/1100000000000000001/commands", NULL,
             &st, NULL);
    assert_int_equal(json_array_size(j), 3);
    json_decref(j);

    static const char *const bad[] = {
        "[{\"name\":\"Roll\",\"description\":\"x\"}]",
        "[{\"name\":\"roll\",\"description\":\"\"}]",
        "[{\"name\":\"a\",\"description\":\"x\",\"options\":[{\"type\":3,"
        "\"name\":\"o\",\"description\":\"d\"},{\"type\":3,\"name\":\"p\","
        "\"description\":\"d\",\"required\":true}]}]",
        "[{\"name\":\"a\",\"description\":\"x\",\"options\":[{\"type\":1,"
        "\"name\":\"s\",\"description\":\"d\",\"options\":[{\"type\":1,"
        "\"name\":\"t\",\"description\":\"d\"}]}]}]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = rest(port, "PUT",
                 "/applications/1100000000000000001/guilds/77/commands",
                 bad[i], &st, NULL);
        assert_int_equal(st, 400);
        assert_int_equal(json_integer_value(json_object_get(j, "code")),
                         50035);
        json_decref(j);
    }
    assert_int_equal(fake_stat(port, "command_puts"), 1);
}

/* ---- gateway ---- */

static void test_gateway_session_and_interaction(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);
    json_t *ready = session(&w, port);
    assert_int_equal(w.hb_ms, HB_MS);
    assert_int_equal(w.seq, 1);
    const char *rurl = json_string_value(json_object_get(ready,
                                                         "resume_gateway_url"));
    assert_non_null(strstr(rurl, "/resume"));
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(ready, "application"), "id")), "1100000000000000001");
    assert_non_null(fake_ws_expect(&w, 11, NULL, WAIT_MS));   /* the ACK */
    assert_int_equal(fake_wait_ready(port, WAIT_MS), 0);

    json_t *inj = fake_inject(port, "{\"name\":\"roll\",\"options\":["
                              "{\"name\":\"expr\",\"value\":\"2d6\"}],"
                              "\"permissions\":\"8\"}");
    assert_non_null(inj);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    json_t *d = json_object_get(ev, "d");
    const char *id = json_string_value(json_object_get(d, "id"));
    const char *tok = json_string_value(json_object_get(d, "token"));
    assert_string_equal(id, json_string_value(json_object_get(inj, "id")));
    assert_int_equal(json_integer_value(json_object_get(d, "type")), 2);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(d, "member"), "permissions")), "8");
    json_t *opt = json_array_get(json_object_get(json_object_get(d, "data"),
                                                 "options"), 0);
    assert_int_equal(json_integer_value(json_object_get(opt, "type")), 3);

    char path[512];
    snprintf(path, sizeof path, "/interactions/%s/%s/callback", id, tok);
    int st;
    json_decref(rest(port, "POST", path, "{\"type\":4,\"data\":{\"content\":"
                     "\"7\",\"allowed_mentions\":{\"parse\":[]}}}", &st,
                     NULL));
    assert_int_equal(st, 204);
    json_t *again = rest(port, "POST", path, "{\"type\":4,\"data\":{"
                         "\"content\":\"7\",\"allowed_mentions\":"
                         "{\"parse\":[]}}}", &st, NULL);
    assert_int_equal(st, 400);
    assert_int_equal(json_integer_value(json_object_get(again, "code")),
                     40060);
    json_decref(again);

    json_t *cb = fake_wait_callback(port, id, WAIT_MS);
    assert_non_null(cb);
    assert_true(json_real_value(json_object_get(cb, "latency_ms")) >= 0.0);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(cb, "body"), "type")), 4);
    json_decref(cb);

    snprintf(path, sizeof path,
             "/webhooks/1100000000000000001/%s/messages/@original", tok);
    json_t *m = rest(port, "PATCH", path, "{\"content\":\"8\","
                     "\"allowed_mentions\":{\"parse\":[]}}", &st, NULL);
    assert_int_equal(st, 200);
    assert_string_equal(json_string_value(json_object_get(m, "content")), "8");
    json_decref(m);
    snprintf(path, sizeof path, "/webhooks/1100000000000000001/%s", tok);
    json_t *m_followup = rest(port, "POST", path, "{\"content\":\"follow\","
                              "\"allowed_mentions\":{\"parse\":[]}}", &st,
                              NULL);
    assert_int_equal(st, 200);
    json_decref(inj);

    /* a button on the message the bot sent: defer the update, then edit
     * @original, which is that message */
    char body[256];
    const char *mid = json_string_value(json_object_get(m_followup, "id"));
    snprintf(body, sizeof body, "{\"type\":\"component\",\"custom_id\":"
             "\"next\",\"message_id\":\"%s\"}", mid);
    inj = fake_inject(port, body);
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    d = json_object_get(ev, "d");
    assert_int_equal(json_integer_value(json_object_get(d, "type")), 3);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(d, "message"), "content")), "follow");
    snprintf(path, sizeof path, "/interactions/%s/%s/callback",
             json_string_value(json_object_get(d, "id")),
             json_string_value(json_object_get(d, "token")));
    json_decref(rest(port, "POST", path, "{\"type\":6}", &st, NULL));
    assert_int_equal(st, 204);
    snprintf(path, sizeof path,
             "/webhooks/1100000000000000001/%s/messages/@original",
             json_string_value(json_object_get(d, "token")));
    m = rest(port, "PATCH", path, "{\"content\":\"turn 2\",\"components\":"
             "[],\"allowed_mentions\":{\"parse\":[]}}", &st, NULL);
    assert_int_equal(st, 200);
    assert_string_equal(json_string_value(json_object_get(m, "id")), mid);
    json_decref(m);
    json_decref(m_followup);
    json_decref(inj);
    inj = fake_inject(port, "{\"name\":\"roll\",\"dm\":true}");
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    d = json_object_get(ev, "d");
    assert_non_null(json_object_get(d, "user"));
    assert_null(json_object_get(d, "member"));
    json_decref(inj);
    assert_int_equal(violations_of(port, "callback_double"), 1);
    assert_int_equal(fake_stat(port, "violations"), 1);

    assert_true(fake_ws_close(&w, 1000, WAIT_MS));
    fake_ws_free(&w);
}

static void test_gateway_resume_replay(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);
    json_t *ready = session(&w, port);
    char sid[64];
    snprintf(sid, sizeof sid, "%s", json_string_value(json_object_get(
        ready, "session_id")));
    long long seq = w.seq;

    /* drop the TCP connection, then dispatch while disconnected */
    assert_int_equal(fake_fault(port, "{\"kind\":\"drop\"}"), 200);
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 0);
    json_t *inj = fake_inject(port, "{\"name\":\"roll\"}");
    assert_non_null(inj);
    assert_true(json_is_false(json_object_get(inj, "delivered")));

    assert_true(fake_ws_connect(&w, port, RESUME_PATH, WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    w.hb_ms = HB_MS;
    char buf[256];
    snprintf(buf, sizeof buf, "{\"op\":6,\"d\":{\"token\":\"%s\","
             "\"session_id\":\"%s\",\"seq\":%lld}}", TOKEN, sid, seq);
    fake_ws_send(&w, buf);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    assert_string_equal(json_string_value(json_object_get(
        json_object_get(ev, "d"), "id")),
        json_string_value(json_object_get(inj, "id")));
    assert_non_null(fake_ws_expect(&w, 0, "RESUMED", WAIT_MS));
    assert_int_equal(fake_stat(port, "resumes_ok"), 1);
    assert_int_equal(fake_stat(port, "resumes_on_resume_url"), 1);
    json_decref(inj);

    /* server close 4000 keeps the session; op 9 after invalidation */
    assert_int_equal(fake_fault(port, "{\"kind\":\"close\",\"code\":4000}"),
                     200);
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4000);
    fake_fault(port, "{\"kind\":\"invalidate\"}");
    assert_true(fake_ws_connect(&w, port, RESUME_PATH, WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    fake_ws_send(&w, buf);
    json_t *op9 = fake_ws_expect(&w, 9, NULL, WAIT_MS);
    assert_non_null(op9);
    assert_true(json_is_false(json_object_get(op9, "d")));
    assert_int_equal(fake_stat(port, "resumes_failed"), 1);
    assert_true(fake_ws_close(&w, 4000, WAIT_MS));
    fake_ws_free(&w);
}

static void test_gateway_close_codes(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);

    assert_true(fake_ws_connect(&w, port, "/?v=10&encoding=json", WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    fake_ws_identify(&w, "wrong-token");
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4004);

    assert_true(fake_ws_connect(&w, port, "/?v=10&encoding=json", WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    fake_ws_send(&w, "{\"op\":3,\"d\":{}}");
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4003);

    session(&w, port);
    fake_ws_identify(&w, TOKEN);
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4005);

    assert_true(fake_ws_connect(&w, port, "/?v=9&encoding=json", WAIT_MS));
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4012);

    session(&w, port);
    assert_int_equal(fake_fault(port, "{\"kind\":\"op7\",\"close_after_ms\":"
                                "0}"), 200);
    assert_non_null(fake_ws_expect(&w, 7, NULL, WAIT_MS));
    assert_int_equal(fake_fault(port, "{\"kind\":\"zombie\",\"on\":true}"),
                     200);
    long long acks = fake_stat(port, "acks");
    fake_sleep_ms(3 * HB_MS);
    for (int i = 0; i < 50; i++)
        fake_ws_service(&w);
    assert_int_equal(fake_stat(port, "acks"), acks);
    assert_true(fake_stat(port, "acks_skipped") >= 1);
    assert_int_equal(fake_fault(port, "{\"kind\":\"op9\",\"resumable\":"
                                "false}"), 200);
    json_t *op9 = fake_ws_expect(&w, 9, NULL, WAIT_MS);
    assert_non_null(op9);
    assert_true(json_is_false(json_object_get(op9, "d")));
    assert_true(fake_ws_close(&w, 4000, WAIT_MS));

    assert_int_equal(violations_of(port, "gw_4004"), 1);
    assert_int_equal(violations_of(port, "gw_4003"), 1);
    assert_int_equal(violations_of(port, "gw_4005"), 1);
    fake_ws_free(&w);
}

static void test_gateway_limits(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);

    /* a payload over 4096 bytes, sent in one message */
    assert_true(fake_ws_connect(&w, port, "/?v=10&encoding=json", WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    char *big = malloc(5000);
    memset(big, ' ', 4999);
    memcpy(big, "{\"op\":1,\"d\":null}", 17);
    big[4999] = '\0';
    fake_ws_send(&w, big);
    free(big);
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4002);

    /* 121 sends inside 60 s */
    session(&w, port);
    w.hb_ms = 0;
    for (int i = 0; i < 125 && !w.closed; i++) {
        fake_ws_send(&w, "{\"op\":1,\"d\":1}");
        if (w.nout > FAKE_WS_MAX_OUT / 2)
            for (int k = 0; k < 20; k++)
                fake_ws_service(&w);
    }
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    assert_int_equal(w.close_code, 4008);

    /* no heartbeat: closed after interval * 1.5 + grace, session kept */
    char sid[64], buf[256];
    snprintf(sid, sizeof sid, "%s", json_string_value(json_object_get(
        session(&w, port), "session_id")));
    w.hb_ms = 0;
    long long t0 = mono_ms();
    while (!w.closed && mono_ms() - t0 < WAIT_MS)
        fake_ws_service(&w);
    assert_true(w.closed);
    assert_int_equal(w.close_code, 4000);
    assert_int_equal(violations_of(port, "hb_missed"), 1);
    assert_true(fake_ws_connect(&w, port, RESUME_PATH, WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    snprintf(buf, sizeof buf, "{\"op\":6,\"d\":{\"token\":\"%s\","
             "\"session_id\":\"%s\",\"seq\":%lld}}", TOKEN, sid, w.seq);
    fake_ws_send(&w, buf);
    assert_non_null(fake_ws_expect(&w, 0, "RESUMED", WAIT_MS));
    assert_true(fake_ws_close(&w, 4000, WAIT_MS));

    /* identify spacing enforced with op 9 false */
    int st;
    json_decref(fake_post_json(port, "/_test/config",
                               "{\"identify_gap_ms\":5000}", &st));
    assert_true(fake_ws_connect(&w, port, "/?v=10&encoding=json", WAIT_MS));
    assert_non_null(fake_ws_expect(&w, 10, NULL, WAIT_MS));
    fake_ws_identify(&w, TOKEN);
    json_t *op9 = fake_ws_expect(&w, 9, NULL, WAIT_MS);
    assert_non_null(op9);
    assert_true(json_is_false(json_object_get(op9, "d")));
    assert_int_equal(violations_of(port, "identify_too_fast"), 1);
    json_decref(fake_post_json(port, "/_test/config",
                               "{\"identify_gap_ms\":0}", &st));
    assert_true(fake_ws_close(&w, 4000, WAIT_MS));
    assert_int_equal(violations_of(port, "gw_4002"), 1);
    assert_int_equal(violations_of(port, "gw_4008"), 1);
    fake_ws_free(&w);
}

static void test_gateway_zlib_stream(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);
    assert_true(fake_ws_connect(&w, port,
                                "/?v=10&encoding=json&compress=zlib-stream",
                                WAIT_MS));
    json_t *hello = fake_ws_expect(&w, 10, NULL, WAIT_MS);
    assert_non_null(hello);
    w.hb_ms = HB_MS;
    fake_ws_identify(&w, TOKEN);
    assert_non_null(fake_ws_expect(&w, 0, "READY", WAIT_MS));
    assert_int_equal(fake_wait_ready(port, WAIT_MS), 0);
    for (int i = 0; i < 3; i++) {       /* one deflate context throughout */
        json_t *inj = fake_inject(port, "{\"name\":\"roll\"}");
        assert_non_null(inj);
        json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
        assert_non_null(ev);
        assert_string_equal(json_string_value(json_object_get(
            json_object_get(ev, "d"), "id")),
            json_string_value(json_object_get(inj, "id")));
        json_decref(inj);
    }
    assert_true(fake_ws_close(&w, 4000, WAIT_MS));
    assert_int_equal(fake_stat(port, "violations"), 0);
    fake_ws_free(&w);
}

static void test_load_latency(void **state)
{
    int port = ((struct fake_proc *)*state)->port;
    struct fake_ws w;
    assert_int_equal(fake_ws_init(&w), 0);
    session(&w, port);
    int st;
    json_decref(fake_post_json(port, "/_test/load", "{\"count\":40,"
                               "\"channels\":4,\"concurrency\":4}", &st));
    assert_int_equal(st, 200);
    int answered = 0;
    long long end = mono_ms() + 2 * WAIT_MS;
    while (answered < 40 && mono_ms() < end) {
        json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
        assert_non_null(ev);
        json_t *d = json_object_get(ev, "d");
        char path[512];
        snprintf(path, sizeof path, "/api/v10/interactions/%s/%s/callback",
                 json_string_value(json_object_get(d, "id")),
                 json_string_value(json_object_get(d, "token")));
        struct fake_resp r;
        assert_int_equal(fake_request(port, "POST", path, NULL,
                                      "{\"type\":5}", &r), 0);
        assert_int_equal(r.status, 204);
        fake_resp_free(&r);
        answered++;
    }
    json_t *load = fake_get_json(port, "/_test/load", NULL);
    assert_int_equal(json_integer_value(json_object_get(load, "answered")),
                     40);
    assert_true(json_is_false(json_object_get(load, "active")));
    json_decref(load);
    json_t *s = fake_stats(port);
    json_t *lat = json_object_get(s, "latency_ms");
    assert_int_equal(json_integer_value(json_object_get(lat, "count")), 40);
    assert_true(json_real_value(json_object_get(lat, "p99")) >=
                json_real_value(json_object_get(lat, "p50")));
    json_decref(s);
    fake_ws_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_rest_auth_and_headers, reset),
        cmocka_unit_test_setup(test_message_validation, reset),
        cmocka_unit_test_setup(test_allowed_mentions_violations, reset),
        cmocka_unit_test_setup(test_fault_429, reset),
        cmocka_unit_test_setup(test_bucket_exhaustion, reset),
        cmocka_unit_test_setup(test_commands, reset),
        cmocka_unit_test_setup(test_gateway_session_and_interaction, reset),
        cmocka_unit_test_setup(test_gateway_resume_replay, reset),
        cmocka_unit_test_setup(test_gateway_close_codes, reset),
        cmocka_unit_test_setup(test_gateway_limits, reset),
        cmocka_unit_test_setup(test_gateway_zlib_stream, reset),
        cmocka_unit_test_setup(test_load_latency, reset),
    };
    return cmocka_run_group_tests_name("fake_discord", tests, group_setup,
                                       group_teardown);
}
