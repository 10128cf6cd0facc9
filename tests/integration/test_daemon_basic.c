/* test_daemon_basic.c - fray run against fake-discord: answer a /roll,
 * SIGTERM, kill -9 and restart (resume, nothing lost), 429 honoured, a bad
 * token, a database that cannot be opened. */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon_harness.h"

static void test_daemon_answers_roll(void **state)
{
    struct harness h;
    char id[32];
    json_t *cb, *data, *am;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    harness_roll(&h, id);
    cb = harness_callback(&h, id);
    data = json_object_get(json_object_get(cb, "body"), "data");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "body"), "type")), 4);
    am = json_object_get(data, "allowed_mentions");
    assert_non_null(am);
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    json_decref(cb);
    /* registration happened once, with a valid body */
    assert_true(fake_stat(h.fake.port, "command_puts") == 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_daemon_sigterm_clean(void **state)
{
    struct harness h;
    char id[32];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    harness_roll(&h, id);
    json_decref(harness_callback(&h, id));
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 6000), 0);
    /* closed resumably, not with 1000 */
    assert_int_equal(fake_stat(h.fake.port, "last_client_close"), 4900);
    harness_stop(&h);
}

static void test_daemon_kill9_restart_resumes(void **state)
{
    struct harness h;
    char a[32], b[32];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    harness_roll(&h, a);
    json_decref(harness_callback(&h, a));
    kill(h.fray, SIGKILL);
    assert_true(harness_wait_exit(&h, 3000) >= 0);
    /* sent while fray is down: must arrive after the restart, once */
    harness_roll(&h, b);
    harness_start_fray(&h, NULL);
    json_decref(harness_callback(&h, b));
    assert_int_equal(fake_wait_stat(h.fake.port, "resumes_ok", 1, 5000), 0);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    assert_int_equal(fake_stat(h.fake.port, "callbacks"), 2);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_daemon_honours_429(void **state)
{
    struct harness h;
    char id[32];
    json_t *cb;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"rest\",\"path\":\"/callback\","
                                "\"status\":429,\"retry_after\":0.4,"
                                "\"count\":1}"),
                     200);
    harness_roll(&h, id);
    cb = harness_callback(&h, id);
    json_decref(cb);
    assert_true(fake_stat(h.fake.port, "rest_429") >= 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_daemon_bad_token_exits_14(void **state)
{
    struct harness h;
    (void)state;

    harness_start(&h, NULL, "wrong-token", false);
    harness_allow_violation(&h, "unauthorized");
    assert_int_equal(harness_wait_exit(&h, 6000), 14);
    assert_true(harness_violations_of(&h, "unauthorized") >= 1);
    harness_stop(&h);
}

/* GET /gateway/bot goes out before the store opens (its answer waits for
 * the loop): a database that cannot be opened still stops fray with exit
 * status 4, and the answer, if it came, starts no gateway session. */
static void test_daemon_bad_database_exits_4(void **state)
{
    struct harness h;
    char side[HARNESS_PATH_MAX + 8];
    FILE *f;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 6000), 0);
    f = fopen(h.db, "w");
    assert_non_null(f);
    for (int i = 0; i < 64; i++)
        fputs("this is not a database. ", f);
    fclose(f);
    snprintf(side, sizeof side, "%s-wal", h.db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", h.db);
    unlink(side);
    harness_start_fray(&h, NULL);
    assert_int_equal(harness_wait_exit(&h, 6000), 4);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daemon_answers_roll),
        cmocka_unit_test(test_daemon_sigterm_clean),
        cmocka_unit_test(test_daemon_kill9_restart_resumes),
        cmocka_unit_test(test_daemon_honours_429),
        cmocka_unit_test(test_daemon_bad_token_exits_14),
        cmocka_unit_test(test_daemon_bad_database_exits_4),
    };
    return cmocka_run_group_tests_name("daemon_basic", tests, NULL, NULL);
}
