/* test_daemon_prune.c - the daemon prunes the store on its timer: the
 * first pass after READY (never before it), then with
 * [store] prune_interval_s = 1 a pass every second; it forgets an
 * interaction id older than an hour, cuts a fight that ended long ago to
 * its final version, and logs what it did and the database's size. */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon_harness.h"
#include "store.h"

static void test_daemon_prunes_on_timer(void **state)
{
    struct harness h;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true,
                       "[store]\nprune_interval_s = 1\n");
    harness_wait_log(&h, "prune: ", 2); /* after READY, then a second later */
    harness_wait_log(&h, "bytes", 2);
    /* startup reaches READY without a pass over the store */
    int ready = harness_log_line(&h, "-> ready (READY)");
    assert_true(ready > 0);
    assert_true(harness_log_line(&h, "prune: ") > ready);
    kill(h.fray, SIGTERM);
    assert_true(harness_wait_exit(&h, 5000) == 0);

    /* What the next start finds: an interaction of long ago and a fight
     * that ended long ago with five versions. */
    struct store *s = NULL;
    char err[256];
    assert_int_equal(store_open(h.db, &s, err, sizeof err), BOT_OK);
    assert_int_equal(store_interaction_record(s, "7", 5, 1, 1000), BOT_OK);
    for (int v = 1; v <= 5; v++)
        assert_int_equal(store_enc_save(s, 5, v, "{}"), BOT_OK);
    assert_int_equal(store_enc_archive(s, 5, 1000), BOT_OK);
    store_close(s);

    harness_start_fray(&h, NULL);
    harness_wait_log(&h, "prune: 1 interactions forgotten, 1 ended fights cut to "
                 "their final state, 0 deleted over the archive quota "
                 "(4 versions, 0 history lines); database ", 1);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daemon_prunes_on_timer),
    };
    return cmocka_run_group_tests_name("daemon_prune", tests, NULL, NULL);
}
