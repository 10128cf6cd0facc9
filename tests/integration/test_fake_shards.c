/*
 * test_fake_shards.c - fake-discord's sharding, driven by raw gateway
 * clients (fake_ws): /gateway/bot reports the configured shard count and
 * max_concurrency, IDENTIFY's shard is checked (4010, 4011), identifies are
 * limited per max_concurrency bucket, and interactions go to the session
 * whose shard owns their guild, or to the shard(s) a test names.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "fake_client.h"
#include "fake_ws.h"

#define WAIT_MS 8000

/* (g >> 22) % 2: G0 is on shard 0 of 2, G1 on shard 1 */
#define G0 "4194304000"              /* 1000 << 22 */
#define G1 "4198498304"              /* 1001 << 22 */

static void config(int port, const char *json)
{
    int status = 0;
    json_t *r = fake_post_json(port, "/_test/config", json, &status);
    assert_int_equal(status, 200);
    json_decref(r);
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

/* Connect, take HELLO and IDENTIFY with shard (a JSON value, or NULL for
 * none). Returns the connection open and identified (not waited for). */
static void identify(struct fake_ws *w, int port, const char *shard)
{
    char msg[256];
    json_t *hello;
    assert_int_equal(fake_ws_init(w), 0);
    assert_true(fake_ws_connect(w, port, "/?v=10&encoding=json", WAIT_MS));
    hello = fake_ws_expect(w, 10, NULL, WAIT_MS);
    assert_non_null(hello);
    snprintf(msg, sizeof msg,
             "{\"op\":2,\"d\":{\"token\":\"fake-token\",\"intents\":0,"
             "\"properties\":{\"os\":\"linux\",\"browser\":\"t\","
             "\"device\":\"t\"}%s%s}}",
             shard ? ",\"shard\":" : "", shard ? shard : "");
    fake_ws_send(w, msg);
}

static json_t *inject(int port, const char *desc)
{
    json_t *r = fake_inject(port, desc);
    if (r == NULL)
        fail_msg("fake refused %s", desc);
    return r;
}

/* The next interaction w receives; its id must be want. */
static void expect_ix(struct fake_ws *w, const json_t *want)
{
    json_t *m = fake_ws_expect(w, 0, "INTERACTION_CREATE", WAIT_MS);
    const char *id;
    assert_non_null(m);
    id = json_string_value(json_object_get(json_object_get(m, "d"), "id"));
    assert_non_null(id);
    assert_string_equal(id, json_string_value(json_object_get(want, "id")));
}

static void test_fake_gateway_bot_reports_config(void **state)
{
    struct fake_proc fp;
    const char *const hdr[] = {"Authorization: Bot fake-token", NULL};
    struct fake_resp resp;
    json_t *j;
    (void)state;
    assert_int_equal(fake_server_start(&fp, NULL), 0);
    config(fp.port, "{\"shards\":3,\"max_concurrency\":2}");
    assert_int_equal(fake_request(fp.port, "GET", "/api/v10/gateway/bot", hdr,
                                  NULL, &resp),
                     0);
    assert_int_equal(resp.status, 200);
    j = json_loads(resp.body, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "shards")), 3);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(j, "session_start_limit"),
                         "max_concurrency")),
                     2);
    json_decref(j);
    fake_resp_free(&resp);
    fake_server_stop(&fp);
}

static void test_fake_routes_interactions_by_guild(void **state)
{
    struct fake_proc fp;
    struct fake_ws w0, w1;
    json_t *a, *b, *dm, *forced, *both, *ready, *shards;
    (void)state;
    assert_int_equal(fake_server_start(&fp, NULL), 0);
    config(fp.port, "{\"max_concurrency\":2}");   /* buckets 0 and 1 */
    identify(&w0, fp.port, "[0,2]");
    ready = fake_ws_expect(&w0, 0, "READY", WAIT_MS);
    assert_non_null(ready);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(
                         json_object_get(ready, "d"), "shard"), 1)),
                     2);
    identify(&w1, fp.port, "[1,2]");
    assert_non_null(fake_ws_expect(&w1, 0, "READY", WAIT_MS));
    shards = fake_get_json(fp.port, "/_test/shards", NULL);
    assert_int_equal(json_array_size(json_object_get(shards, "sessions")), 2);
    json_decref(shards);

    a = inject(fp.port, "{\"name\":\"roll\",\"guild_id\":\"" G0 "\"}");
    b = inject(fp.port, "{\"name\":\"roll\",\"guild_id\":\"" G1 "\"}");
    dm = inject(fp.port, "{\"name\":\"roll\",\"dm\":true}");
    forced = inject(fp.port,
                    "{\"name\":\"roll\",\"guild_id\":\"" G0 "\",\"shard\":1}");
    both = inject(fp.port, "{\"name\":\"roll\",\"guild_id\":\"" G1 "\","
                           "\"shard\":[0,1]}");
    /* each session gets exactly its own, in order: nothing else between */
    expect_ix(&w0, a);
    expect_ix(&w0, dm);                      /* no guild: shard 0 */
    expect_ix(&w0, both);
    expect_ix(&w1, b);
    expect_ix(&w1, forced);
    expect_ix(&w1, both);
    assert_int_equal(fake_stat(fp.port, "violations"), 0);
    json_decref(a);
    json_decref(b);
    json_decref(dm);
    json_decref(forced);
    json_decref(both);
    fake_ws_free(&w0);
    fake_ws_free(&w1);
    fake_server_stop(&fp);
}

static void test_fake_limits_identify_per_bucket(void **state)
{
    struct fake_proc fp;
    struct fake_ws w0, w1;
    json_t *op9;
    (void)state;
    assert_int_equal(fake_server_start(&fp, NULL), 0);
    /* max_concurrency 1: shards 0 and 1 share bucket 0 */
    identify(&w0, fp.port, "[0,2]");
    assert_non_null(fake_ws_expect(&w0, 0, "READY", WAIT_MS));
    identify(&w1, fp.port, "[1,2]");
    op9 = fake_ws_expect(&w1, 9, NULL, WAIT_MS);
    assert_non_null(op9);
    assert_true(json_is_false(json_object_get(op9, "d")));
    assert_int_equal(violations_of(fp.port, "identify_too_fast"), 1);
    fake_ws_free(&w0);
    fake_ws_free(&w1);
    fake_server_stop(&fp);
}

static void expect_close(int port, const char *shard, int code)
{
    struct fake_ws w;
    identify(&w, port, shard);
    assert_true(fake_ws_wait_closed(&w, WAIT_MS));
    if (w.close_code != code)
        fail_msg("shard %s: closed with %d, expected %d",
                 shard ? shard : "(none)", w.close_code, code);
    fake_ws_free(&w);
}

static void test_fake_checks_the_shard(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    const char *const args[] = {"--identify-gap-ms", "0", NULL};
    (void)state;
    assert_int_equal(fake_server_start(&fp, args), 0);
    expect_close(fp.port, "[2,2]", 4010);
    expect_close(fp.port, "[0]", 4010);
    expect_close(fp.port, "[0,0]", 4010);
    expect_close(fp.port, "\"0/2\"", 4010);
    config(fp.port, "{\"require_shards\":2}");
    expect_close(fp.port, NULL, 4011);
    expect_close(fp.port, "[0,1]", 4011);
    assert_int_equal(violations_of(fp.port, "gw_4010"), 4);
    assert_int_equal(violations_of(fp.port, "gw_4011"), 2);
    identify(&w, fp.port, "[1,2]");
    assert_non_null(fake_ws_expect(&w, 0, "READY", WAIT_MS));
    fake_ws_free(&w);
    fake_server_stop(&fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fake_gateway_bot_reports_config),
        cmocka_unit_test(test_fake_routes_interactions_by_guild),
        cmocka_unit_test(test_fake_limits_identify_per_bucket),
        cmocka_unit_test(test_fake_checks_the_shard),
    };
    return cmocka_run_group_tests_name("fake_shards", tests, NULL, NULL);
}
