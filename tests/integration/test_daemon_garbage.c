/* test_daemon_garbage.c - garbage from the network, end to end: fray
 * against fake-discord's raw, big and odd-HELLO gateway faults and 429s
 * with absurd retry_after values. Pass: fray keeps answering, and each
 * reaction is the bounded one fray's log names (heartbeat interval
 * clamped, a too-big message closed with 1009 and resumed, a retry wait
 * cut to RL_MAX_WAIT_MS). The handler-level cases are unit tests
 * (tests/unit/bot/test_net_garbage.c). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "daemon_harness.h"
#include "rest_ratelimit.h"

#define WAIT_MS 10000
#define BIG_FRAME_BYTES (16 * 1024 * 1024)

/* Wait until fray's log holds needle; fail (with the log) otherwise. */
static void wait_log(struct harness *h, const char *needle)
{
    for (int waited = 0; waited < WAIT_MS; waited += 50) {
        FILE *f = fopen(h->log, "r");
        char line[4096];
        bool found = false;
        while (f && !found && fgets(line, sizeof line, f))
            found = strstr(line, needle) != NULL;
        if (f)
            fclose(f);
        if (found)
            return;
        fake_sleep_ms(50);
    }
    harness_dump_log(h);
    fail_msg("fray never logged \"%s\"", needle);
}

static void fault_ok(struct harness *h, const char *json)
{
    int st = fake_fault(h->fake.port, json);
    if (st != 200)
        fail_msg("fault %s: HTTP %d", json, st);
}

static void config_ok(struct harness *h, const char *json)
{
    int st = 0;
    json_t *r = fake_post_json(h->fake.port, "/_test/config", json, &st);
    json_decref(r);
    if (st != 200)
        fail_msg("config %s: HTTP %d", json, st);
}

/* Malformed frames of every kind are dropped on the same connection:
 * fray answers afterwards without reconnecting. */
static void test_garbage_frames_ignored(void **state)
{
    static const char *const frames[] = {
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":0,\\\"s\\\":\"}",
        "{\"kind\":\"raw\",\"text\":\"not json at all\"}",
        "{\"kind\":\"raw\",\"text\":\"\"}",
        "{\"kind\":\"raw\",\"text\":\"[1,2,3]\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":\\\"0\\\",\\\"t\\\":"
        "\\\"INTERACTION_CREATE\\\",\\\"d\\\":{}}\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":0,\\\"s\\\":-7,\\\"t\\\":5,"
        "\\\"d\\\":[]}\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":0,\\\"s\\\":\\\"x\\\",\\\"t\\\":"
        "\\\"INTERACTION_CREATE\\\",\\\"d\\\":[]}\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":0,\\\"s\\\":null,\\\"t\\\":"
        "\\\"INTERACTION_CREATE\\\",\\\"d\\\":{\\\"id\\\":5,\\\"type\\\":"
        "\\\"2\\\",\\\"token\\\":[],\\\"member\\\":7}}\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":11,\\\"d\\\":\\\"ack\\\"}\"}",
        "{\"kind\":\"raw\",\"text\":\"{\\\"op\\\":[10]}\"}",
        /* invalid UTF-8: 0xff, an overlong '/', a lone surrogate */
        "{\"kind\":\"raw\",\"hex\":\"7b226f70223a302c2274223a22ff227d\"}",
        "{\"kind\":\"raw\",\"hex\":\"7b226f70223a302c2274223a22c0af227d\"}",
        "{\"kind\":\"raw\",\"hex\":\"7b226f70223a302c2274223a22eda080227d\"}",
    };
    struct harness h;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++)
        fault_ok(&h, frames[i]);
    harness_roll_answered(&h);
    wait_log(&h, "not a payload");
    assert_int_equal(fake_stat(h.fake.port, "connections"), 1);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* HELLO intervals of 0, negative, 2^31 and a string: each connection
 * takes a clamped interval (logged) and the session carries on. */
static void test_garbage_hello_intervals_clamped(void **state)
{
    static const struct {
        const char *value;
        const char *logged;
    } cases[] = {
        {"0", "heartbeat_interval 0 is outside"},
        {"-41250", "heartbeat_interval -41250 is outside"},
        {"2147483648", "heartbeat_interval 2147483648 is outside"},
        {"\"fast\"", "heartbeat_interval not an integer is outside"},
    };
    struct harness h;
    char body[128];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(body, sizeof body, "{\"hello_heartbeat_interval\":%s}",
                 cases[i].value);
        config_ok(&h, body);
        fault_ok(&h, "{\"kind\":\"close\",\"code\":4000,"
                     "\"invalidate\":false}");
        harness_wait_stat(&h, "resumes_ok", (long long)i + 1);
        wait_log(&h, cases[i].logged);
        harness_roll_answered(&h);
    }
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    config_ok(&h, "{\"hello_heartbeat_interval\":null}");
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A 16 MiB frame (over max_payload_bytes, 4 MiB by default): fray closes
 * with 1009 and resumes; nothing is lost. */
static void test_garbage_big_frame_closes_and_resumes(void **state)
{
    struct harness h;
    char fault[64];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    snprintf(fault, sizeof fault, "{\"kind\":\"big\",\"bytes\":%d}",
             BIG_FRAME_BYTES);
    fault_ok(&h, fault);
    harness_wait_stat(&h, "resumes_ok", 1);
    /* the close code itself may not reach the fake: it is still busy
     * writing the 16 MiB when fray gives up on the connection */
    wait_log(&h, "closing with 1009");
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* 429s on the interaction callback with absurd retry_after values: a huge
 * one is cut to RL_MAX_WAIT_MS (that reply waits; the next interaction,
 * another bucket, is answered), a string or negative one falls back to
 * the default wait, as does an unparsable Retry-After header. */
static void test_garbage_429_retry_after(void **state)
{
    struct harness h;
    char id[32], want[96];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    fault_ok(&h, "{\"kind\":\"rest\",\"path\":\"/callback\",\"status\":429,"
                 "\"retry_after\":0,\"count\":1,\"body\":{\"message\":\"x\","
                 "\"retry_after\":1e12,\"global\":false}}");
    harness_roll(&h, id);
    snprintf(want, sizeof want, "retry after %d ms (the maximum)",
             RL_MAX_WAIT_MS);
    wait_log(&h, want);
    harness_roll_answered(&h);

    fault_ok(&h, "{\"kind\":\"rest\",\"path\":\"/callback\",\"status\":429,"
                 "\"retry_after\":0,\"count\":1,\"body\":{\"message\":\"x\","
                 "\"retry_after\":\"NaN\"},\"headers\":{\"Retry-After\":"
                 "\"1e12\",\"X-RateLimit-Reset-After\":\"-3\"}}");
    harness_roll_answered(&h);
    wait_log(&h, "retry after 1000 ms (no usable retry_after)");
    fault_ok(&h, "{\"kind\":\"rest\",\"path\":\"/callback\",\"status\":429,"
                 "\"retry_after\":0,\"count\":1,\"body\":{\"message\":\"x\","
                 "\"retry_after\":-5},\"headers\":{\"Retry-After\":\"-5\","
                 "\"X-RateLimit-Reset-After\":\"-3\"}}");
    harness_roll_answered(&h);

    /* an empty bucket that resets in 3 years: cut to RL_MAX_WAIT_MS for
     * that interaction's callback; others keep going */
    fault_ok(&h, "{\"kind\":\"rest\",\"path\":\"/callback\",\"status\":429,"
                 "\"retry_after\":0,\"count\":1,\"headers\":{"
                 "\"X-RateLimit-Reset-After\":\"99999999.5\","
                 "\"X-RateLimit-Remaining\":\"0\",\"X-RateLimit-Limit\":"
                 "\"1\"}}");
    harness_roll(&h, id);
    harness_wait_stat(&h, "rest_429", 4);
    harness_roll_answered(&h);
    harness_stop(&h);
}

/* /roll (or its autocomplete) whose dice text has MARK replaced in the
 * frame by to: what the user typed holds what jansson refuses to read. */
static json_t *roll_patched(struct harness *h, const char *type,
                            const char *to)
{
    json_t *opt = json_pack("{s:s,s:i,s:s}", "name", "dice", "type", 3,
                            "value", "1d20 MARK");
    if (strcmp(type, "autocomplete") == 0)
        json_object_set_new(opt, "focused", json_true());
    json_t *desc = json_pack("{s:s,s:s,s:s,s:[o],s:[[s,s]]}", "type", type,
                             "name", "roll", "user_id", "4242", "options",
                             opt, "patch", "MARK", to);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static bool says_unreadable(json_t *cb)
{
    const char *c = json_string_value(
        json_object_get(json_object_get(cb, "data"), "content"));
    return c != NULL && strstr(c, "cannot read") != NULL;
}

/* A \u0000 or a lone surrogate in what a user typed made jansson refuse
 * the whole frame, and the interaction went unanswered. Now the user is
 * told, privately, and nothing runs; an autocomplete offers nothing. A
 * whole surrogate pair (an emoji) and an escaped backslash are ordinary
 * text. */
static void test_unreadable_text_answered(void **state)
{
    static const char *const bad[] = {"\\u0000", "\\ud800", "\\udc00x",
                                      "\\ud83c and more"};
    struct harness h;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *cb = roll_patched(&h, "command", bad[i]);
        if (!says_unreadable(cb))
            fail_msg("%s: not refused as unreadable", bad[i]);
        assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
        assert_int_equal(json_integer_value(json_object_get(
            json_object_get(cb, "data"), "flags")) & 64, 64);
        json_decref(cb);
    }
    json_t *cb = roll_patched(&h, "autocomplete", "\\u0000");
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 8);
    assert_int_equal(json_array_size(json_object_get(
        json_object_get(cb, "data"), "choices")), 0);
    json_decref(cb);
    static const char *const fine[] = {"\\ud83c\\udfb2", "\\\\u0000"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        cb = roll_patched(&h, "command", fine[i]);
        if (says_unreadable(cb))
            fail_msg("%s: refused as unreadable", fine[i]);
        json_decref(cb);
    }
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The callback's content, ephemeral and a message, saying it could not be
 * read. */
static void refused_unread(json_t *cb, const char *what)
{
    const char *c = json_string_value(
        json_object_get(json_object_get(cb, "data"), "content"));
    if (c == NULL || strstr(c, "could not be read") == NULL)
        fail_msg("%s: answered \"%s\"", what, c ? c : "(nothing)");
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(cb, "data"), "flags")) & 64, 64);
}

/* Payloads only a forger sends, but each still an interaction: an option
 * past every limit, an attachment of negative size. They got no answer at
 * all; now a private one, and nothing runs. */
static void test_unreadable_payload_answered(void **state)
{
    struct harness h;
    char *dice = malloc(CMD_MAX_OPT_VALUE + 64);
    (void)state;
    assert_non_null(dice);
    memset(dice, '1', CMD_MAX_OPT_VALUE + 63);
    dice[CMD_MAX_OPT_VALUE + 63] = '\0';

    harness_start(&h, NULL, NULL, true);
    json_t *desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:s}]}", "type",
                             "command", "name", "roll", "user_id", "4242",
                             "options", "name", "dice", "type", 3, "value",
                             dice);
    json_t *cb = harness_interact(&h, desc);
    refused_unread(cb, "a dice: past its limit");
    json_decref(cb);
    json_decref(desc);

    int st = 0;
    json_t *a = fake_post_json(h.fake.port, "/_test/attachment",
                               "{\"filename\":\"m.json\",\"content\":\"{}\","
                               "\"content_type\":\"application/json\","
                               "\"size\":-5}", &st);
    assert_int_equal(st, 200);
    desc = json_pack("{s:s,s:s,s:s,s:[{s:s,s:i,s:[{s:s,s:i,s:s}]}]}", "type",
                     "command", "name", "macro", "user_id", "4242",
                     "options", "name", "import", "type", 1, "options",
                     "name", "file", "type", 11, "value",
                     json_string_value(json_object_get(a, "id")));
    cb = harness_interact(&h, desc);
    refused_unread(cb, "an attachment of size -5");
    json_decref(cb);
    json_decref(desc);
    json_decref(a);
    harness_roll_answered(&h);
    harness_assert_no_violations(&h);
    harness_stop(&h);
    free(dice);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_garbage_frames_ignored),
        cmocka_unit_test(test_garbage_hello_intervals_clamped),
        cmocka_unit_test(test_garbage_big_frame_closes_and_resumes),
        cmocka_unit_test(test_garbage_429_retry_after),
        cmocka_unit_test(test_unreadable_text_answered),
        cmocka_unit_test(test_unreadable_payload_answered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
