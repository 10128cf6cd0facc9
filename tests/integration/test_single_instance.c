/* test_single_instance.c - a second `fray run` on the same database refuses
 * to start: exit status 4, one log line naming the database, the lock file
 * and the pid holding it; it never connects to Discord, and the first
 * keeps answering. Once the first has stopped, the database is free. */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "daemon.h"
#include "daemon_harness.h"

#define SECOND_EXIT_MS 10000

/* Start a second fray on h's database; returns its exit status and its
 * output in out (caller frees). */
static int run_second(struct harness *h, char **out)
{
    char log[HARNESS_PATH_MAX + 16];
    pid_t pid;
    int st = 0;
    FILE *f;
    size_t cap = 0;

    snprintf(log, sizeof log, "%s/second.log", h->dir);
    pid = harness_spawn_fray(h, log);
    assert_true(pid > 0);
    if (fake_proc_wait(pid, SECOND_EXIT_MS, &st) != 0) {
        fake_proc_stop(pid, SIGKILL, 1000, NULL);
        fail_msg("the second fray did not stop by itself");
    }
    f = fopen(log, "r");
    assert_non_null(f);
    *out = NULL;
    if (getdelim(out, &cap, '\0', f) <= 0)
        fail_msg("the second fray said nothing");
    fclose(f);
    fprintf(stderr, "second fray said:\n%s", *out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_second_daemon_refuses(void **state)
{
    struct harness h;
    char id[32], lockpath[HARNESS_PATH_MAX + 8], pid[32];
    char *said = NULL;
    json_t *cb;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(run_second(&h, &said), DAEMON_EXIT_STORE);
    /* clear: what, which file, who holds it, what to do */
    snprintf(lockpath, sizeof lockpath, "%s.lock", h.db);
    snprintf(pid, sizeof pid, "pid %ld", (long)h.fray);
    assert_non_null(strstr(said, h.db));
    assert_non_null(strstr(said, lockpath));
    assert_non_null(strstr(said, pid));
    assert_non_null(strstr(said, "in use by another fray"));
    assert_non_null(strstr(said, "stop it first"));
    free(said);

    /* the second never reached Discord; the first still answers */
    assert_int_equal(fake_stat(h.fake.port, "connections"), 1);
    assert_int_equal(fake_stat(h.fake.port, "identifies"), 1);
    assert_int_equal(kill(h.fray, 0), 0);
    harness_roll(&h, id);
    cb = harness_callback(&h, id);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "body"), "type")), 4);
    json_decref(cb);
    harness_stop(&h);
}

static void test_database_free_after_stop(void **state)
{
    struct harness h;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 6000), 0);
    /* the lock went with the process: a new one starts, resumes and
     * answers */
    harness_start_fray(&h, NULL);
    harness_roll_answered(&h);
    assert_int_equal(fake_stat(h.fake.port, "resumes_ok"), 1);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_daemon_refuses),
        cmocka_unit_test(test_database_free_after_stop),
    };
    return cmocka_run_group_tests_name("single_instance", tests, NULL, NULL);
}
