/* test_daemon_gateway.c - gateway faults: a dropped connection resumes with
 * no lost or doubled interaction; zombie; op 7; op 9 true and false; a
 * server heartbeat request; the zlib-stream transport and a broken
 * stream. */
#include "support.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon_harness.h"

static const char *const fast_hb[] = {"--heartbeat-ms", "400", NULL};

static void test_gw_drop_resume_no_loss(void **state)
{
    struct harness h;
    char b[32];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    harness_roll_answered(&h);
    assert_int_equal(fake_fault(h.fake.port, "{\"kind\":\"drop\"}"), 200);
    harness_roll(&h, b);          /* lands while the connection is gone */
    json_decref(harness_callback(&h, b));
    harness_wait_stat(&h, "resumes_ok", 1);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    assert_int_equal(fake_stat(h.fake.port, "callbacks"), 3);
    assert_int_equal(fake_stat(h.fake.port, "callbacks_rejected"), 0);
    assert_int_equal(fake_stat(h.fake.port, "violations"), 0);
    harness_stop(&h);
}

static void test_gw_zombie_closes_and_resumes(void **state)
{
    struct harness h;
    (void)state;

    harness_start(&h, fast_hb, NULL, true);
    assert_int_equal(fake_fault(h.fake.port, "{\"kind\":\"zombie\",\"count\":1}"),
                     200);
    harness_wait_stat(&h, "resumes_ok", 1);
    assert_int_equal(fake_stat(h.fake.port, "last_client_close"), 4900);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_stop(&h);
}

static void test_gw_op7_resumes_at_resume_url(void **state)
{
    struct harness h;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port, "{\"kind\":\"op7\"}"), 200);
    harness_wait_stat(&h, "resumes_ok", 1);
    assert_true(fake_stat(h.fake.port, "resumes_on_resume_url") >= 1);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_stop(&h);
}

static void test_gw_op9_true_resumes(void **state)
{
    struct harness h;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"op9\",\"resumable\":true}"),
                     200);
    harness_wait_stat(&h, "resumes_ok", 1);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_stop(&h);
}

static void test_gw_op9_false_new_session(void **state)
{
    struct harness h;
    const char *const args[] = {"--identify-gap-ms", "0", NULL};
    (void)state;

    harness_start(&h, args, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"op9\",\"resumable\":false}"),
                     200);
    harness_wait_stat(&h, "identifies", 2);
    assert_int_equal(fake_wait_ready(h.fake.port, 8000), 0);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "violations"), 0);
    harness_stop(&h);
}

static void test_gw_server_heartbeat_request(void **state)
{
    struct harness h;
    long long before;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    before = fake_stat(h.fake.port, "heartbeats");
    assert_int_equal(fake_fault(h.fake.port, "{\"kind\":\"op1\"}"), 200);
    harness_wait_stat(&h, "heartbeats", before + 1);
    harness_stop(&h);
}

/* How long fray takes from a fault to RESUMED, printed: a dropped
 * connection (seen at once), op 7, and a zombie (no ACK for one heartbeat:
 * fray must notice by itself). The bound only catches a hang: the zombie
 * needs up to one interval to the next beat, then the ACK deadline. */
#define TIMING_HB_MS 3000
#define TIMING_BOUND_MS (3 * TIMING_HB_MS + 5000)

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static long long time_to_resumed(struct harness *h, const char *fault,
                                 long long *resumes)
{
    long long t0 = mono_ms(), ms;
    assert_int_equal(fake_fault(h->fake.port, fault), 200);
    harness_wait_stat(h, "resumes_ok", ++*resumes);
    ms = mono_ms() - t0;
    assert_true(ms < TIMING_BOUND_MS);
    return ms;
}

static void test_gw_time_to_resumed(void **state)
{
    struct harness h;
    static const char *const hb[] = {"--heartbeat-ms", "3000", NULL};
    long long resumes = 0, drop, op7, zombie[3];
    (void)state;

    harness_start(&h, hb, NULL, true);
    drop = time_to_resumed(&h, "{\"kind\":\"drop\"}", &resumes);
    op7 = time_to_resumed(&h, "{\"kind\":\"op7\"}", &resumes);
    for (int i = 0; i < 3; i++)
        zombie[i] = time_to_resumed(&h, "{\"kind\":\"zombie\",\"count\":1}",
                                    &resumes);
    printf("time to RESUMED (heartbeat %d ms): drop %lld ms, op 7 %lld ms, "
           "zombie %lld / %lld / %lld ms\n", TIMING_HB_MS, drop, op7,
           zombie[0], zombie[1], zombie[2]);
    fflush(stdout);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    harness_stop(&h);
}

/* The query of the n-th connection (1-based) the fake saw. */
static void conn_query(struct harness *h, int n, char *out, size_t cap)
{
    json_t *all = fake_get_json(h->fake.port, "/_test/connections", NULL);
    const char *q = json_string_value(
        json_object_get(json_array_get(all, (size_t)n - 1), "query"));
    assert_non_null(q);
    snprintf(out, cap, "%s", q);
    json_decref(all);
}

/* fray asks for zlib-stream (gateway.compress, on by default) and reads
 * what comes compressed: rolls are answered, nothing is a violation. */
static void test_gw_zlib_stream_by_default(void **state)
{
    struct harness h;
    char q[256];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    conn_query(&h, 1, q, sizeof q);
    assert_string_equal(q, "v=10&encoding=json&compress=zlib-stream");
    for (int i = 0; i < 5; i++)
        harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "violations"), 0);
    harness_stop(&h);
}

/* gateway.compress = false: plain text frames, as before. */
static void test_gw_compress_off(void **state)
{
    struct harness h;
    char q[256];
    (void)state;

    harness_start_conf(&h, NULL, NULL, true,
                       "[gateway]\ncompress = false\n");
    conn_query(&h, 1, q, sizeof q);
    assert_string_equal(q, "v=10&encoding=json");
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "violations"), 0);
    harness_stop(&h);
}

/* A binary frame that breaks the stream (a deflate block of the reserved
 * type 3: inflate refuses it): fray closes with 1007, resumes on a fresh
 * stream, and loses nothing. (Bytes that happen to inflate cannot be told
 * from the server's: they come out as text that is not a payload.) */
static void test_gw_broken_stream_resumes(void **state)
{
    struct harness h;
    char b[32], q[256];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    harness_roll_answered(&h);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"raw\",\"as_is\":true,"
                                "\"hex\":\"070000ffff\"}"),
                     200);
    harness_wait_stat(&h, "resumes_ok", 1);
    assert_int_equal(fake_stat(h.fake.port, "last_client_close"), 1007);
    conn_query(&h, 2, q, sizeof q);
    assert_string_equal(q, "v=10&encoding=json&compress=zlib-stream");
    harness_roll(&h, b);
    json_decref(harness_callback(&h, b));
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    assert_int_equal(harness_log_count(&h, "compressed stream unreadable "
                                           "(not a zlib stream)"), 1);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gw_drop_resume_no_loss),
        cmocka_unit_test(test_gw_zombie_closes_and_resumes),
        cmocka_unit_test(test_gw_op7_resumes_at_resume_url),
        cmocka_unit_test(test_gw_op9_true_resumes),
        cmocka_unit_test(test_gw_op9_false_new_session),
        cmocka_unit_test(test_gw_server_heartbeat_request),
        cmocka_unit_test(test_gw_time_to_resumed),
        cmocka_unit_test(test_gw_zlib_stream_by_default),
        cmocka_unit_test(test_gw_compress_off),
        cmocka_unit_test(test_gw_broken_stream_resumes),
    };
    return cmocka_run_group_tests_name("daemon_gateway", tests, NULL, NULL);
}
