/* test_daemon_logthread.c - /combat log is written off the loop (issue
 * 33): through fake-discord, with the log worker held by the test hook
 * ([fights] log_hold_file: while that file exists the worker waits before
 * writing), a log is acknowledged at once (type 5) and a bystander's /roll
 * is answered while the log is not yet written; its file then replaces the
 * "thinking" message. Three logs of one fight state asked for while one is
 * being written are one log, the same file for each. Past
 * DAEMON_LOG_QUEUE_MAX (4) different logs waiting, the next is refused,
 * privately, with "try again in a moment". */
#include "tracker_util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Logs the worker takes at once (DAEMON_LOG_QUEUE_MAX, daemon_int.h). */
#define QUEUE_MAX 4

static char hold_path[HARNESS_PATH_MAX];

/* Start with the hook, and extra (more of fray.conf, "" for none). */
static void start_with(struct harness *h, const char *extra)
{
    char conf[HARNESS_PATH_MAX + 128];
    snprintf(hold_path, sizeof hold_path, "%s/logthread-hold-%ld",
             FRAY_TEST_ARTIFACTS, (long)getpid());
    snprintf(conf, sizeof conf, "[fights]\nlog_hold_file = %s\n%s",
             hold_path, extra);
    harness_start_conf(h, NULL, NULL, true, conf);
    fight(h, "generic");
}

static void start(struct harness *h)
{
    start_with(h, "");
}

static void hold(bool on)
{
    if (on) {
        FILE *f = fopen(hold_path, "w");
        assert_non_null(f);
        fclose(f);
    } else {
        assert_int_equal(unlink(hold_path), 0);
    }
}

/* /combat log as user (gm: the GM's copy); returns the callback's type. */
static long long ask_log(struct harness *h, const char *user, bool gm)
{
    json_t *cb = combat(h, user, "log",
                        gm ? json_pack("[{s:s,s:b}]", "name", "gm", "value",
                                       1)
                           : NULL);
    long long type = json_integer_value(json_object_get(cb, "type"));
    json_decref(cb);
    return type;
}

/* The next request after *since that carried a file: its content (heap). */
static char *next_file(struct harness *h, long long *since)
{
    for (;;) {
        json_t *r = harness_wait_request(h, NULL, NULL, since, WAIT_MS);
        if (r == NULL) {
            harness_dump_log(h);
            fail_msg("no request with a file");
        }
        json_t *f = json_array_get(json_object_get(r, "files"), 0);
        if (f != NULL) {
            assert_non_null(strstr(json_string_value(json_object_get(r,
                                                                     "path")),
                                   "/messages/@original"));
            char *c = strdup(json_string_value(json_object_get(f,
                                                               "content")));
            json_decref(r);
            return c;
        }
        json_decref(r);
    }
}

/* Requests with a file recorded after *since (moved on). */
static size_t files_sent(struct harness *h, long long *since)
{
    json_t *all = harness_requests(h, NULL, NULL, since);
    size_t n = 0, i;
    json_t *r;
    json_array_foreach(all, i, r)
        n += json_array_size(json_object_get(r, "files")) > 0;
    json_decref(all);
    return n;
}

/* How many lines of fray's log hold needle. */
static int log_lines(struct harness *h, const char *needle)
{
    char line[1024];
    int n = 0;
    FILE *f = fopen(h->log, "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        n += strstr(line, needle) != NULL;
    if (f != NULL)
        fclose(f);
    return n;
}

static void test_log_is_written_off_the_loop(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    hold(true);
    long long since = harness_last_request(&h);
    /* acknowledged at once: "thinking", the file to come */
    assert_int_equal(ask_log(&h, BOB, false), 5);
    /* a bystander is answered while the log waits on the worker */
    harness_roll_answered(&h);
    assert_int_equal(files_sent(&h, &since), 0);
    hold(false);
    char *log = next_file(&h, &since);
    assert_non_null(strstr(log, "**Bryn** joins the fight"));
    /* the numbers, counted on the loop when asked, end the worker's file */
    const char *numbers = strstr(log, "## The numbers so far");
    assert_non_null(numbers);
    assert_null(strstr(numbers + 1, "joins the fight"));
    free(log);
    harness_stop(&h);
}

static void test_logs_of_one_fight_are_written_once(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    hold(true);
    long long since = harness_last_request(&h);
    assert_int_equal(ask_log(&h, BOB, false), 5);
    assert_int_equal(ask_log(&h, ALICE, false), 5);
    assert_int_equal(ask_log(&h, GM, false), 5);
    hold(false);
    char *a = next_file(&h, &since);
    char *b = next_file(&h, &since);
    char *c = next_file(&h, &since);
    assert_string_equal(a, b);
    assert_string_equal(a, c);
    /* one log written, for the three of them */
    assert_int_equal(log_lines(&h, "written once for 3 requests"), 1);
    assert_int_equal(log_lines(&h, "written once for"), 1);
    free(a);
    free(b);
    free(c);
    harness_stop(&h);
}

static void test_a_full_log_queue_says_try_again(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    hold(true);
    long long since = harness_last_request(&h);
    /* QUEUE_MAX different logs: each after a change, so each its own */
    for (int i = 0; i < QUEUE_MAX; i++) {
        assert_int_equal(ask_log(&h, GM, i % 2 == 1), 5);
        ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value", "Aria", "name",
                                          "change", "value", "-1")));
    }
    json_t *cb = combat(&h, BOB, "log", NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_true(flags_of(cb) & 64);
    assert_non_null(strstr(content_of(cb), "try again in a moment"));
    json_decref(cb);
    hold(false);
    for (int i = 0; i < QUEUE_MAX; i++)
        free(next_file(&h, &since));
    /* room again: the refused one asked anew gets its log */
    assert_int_equal(ask_log(&h, BOB, false), 5);
    free(next_file(&h, &since));
    harness_stop(&h);
}

/* The body of the next request with a file, or of the next carrying
 * text, after *since (heap); fails without. */
static char *next_text(struct harness *h, long long *since,
                       const char *needle)
{
    for (;;) {
        json_t *r = harness_wait_request(h, NULL, NULL, since, WAIT_MS);
        if (r == NULL) {
            harness_dump_log(h);
            fail_msg("no request holding \"%s\"", needle);
        }
        char *body = json_dumps(r, 0);
        json_decref(r);
        if (body != NULL && strstr(body, needle) != NULL)
            return body;
        free(body);
    }
}

static void test_stopping_tells_a_log_not_written(void **st)
{
    struct harness h;
    (void)st;
    /* a short grace: the second log is still waiting when it ends */
    start_with(&h, "[daemon]\nshutdown_grace_ms = 200\n");
    hold(true);
    long long since = harness_last_request(&h);
    assert_int_equal(ask_log(&h, BOB, false), 5);      /* held */
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Aria", "name",
                                      "change", "value", "-1")));
    assert_int_equal(ask_log(&h, ALICE, false), 5);    /* waits */
    kill(h.fray, SIGTERM);
    /* the one held is written once fray stops; the other is told */
    long long from = since;
    free(next_text(&h, &from, "did not write the log; ask again"));
    from = since;
    free(next_file(&h, &from));
    int rc = harness_wait_exit(&h, 15000);
    if (rc != 0) {
        harness_dump_log(&h);
        fail_msg("fray exited with %d", rc);
    }
    hold(false);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_is_written_off_the_loop),
        cmocka_unit_test(test_logs_of_one_fight_are_written_once),
        cmocka_unit_test(test_a_full_log_queue_says_try_again),
        cmocka_unit_test(test_stopping_tells_a_log_not_written),
    };
    return cmocka_run_group_tests_name("daemon_logthread", tests, NULL, NULL);
}
