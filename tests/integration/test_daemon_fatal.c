/* test_daemon_fatal.c - each fatal close code stops fray with its own exit
 * status (10 + code - 4000), which fray.service lists in
 * RestartPreventExitStatus=; a resumable code does not stop it. */
#include "support.h"

#include <stdio.h>

#include "daemon_harness.h"

static void test_fatal_codes_exit_distinctly(void **state)
{
    static const int codes[] = {4004, 4010, 4011, 4012, 4013, 4014};
    (void)state;

    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        struct harness h;
        char fault[96];
        int st;
        harness_start(&h, NULL, NULL, true);
        snprintf(fault, sizeof fault, "{\"kind\":\"close\",\"code\":%d}",
                 codes[i]);
        assert_int_equal(fake_fault(h.fake.port, fault), 200);
        st = harness_wait_exit(&h, 5000);
        if (st != 10 + codes[i] - 4000) {
            harness_dump_log(&h);
            fail_msg("close %d: exit status %d, want %d", codes[i], st,
                     10 + codes[i] - 4000);
        }
        harness_stop(&h);
    }
}

static void test_resumable_close_keeps_running(void **state)
{
    struct harness h;
    char id[32];
    (void)state;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"close\",\"code\":4000}"),
                     200);
    assert_int_equal(fake_wait_stat(h.fake.port, "resumes_ok", 1, 8000), 0);
    harness_roll(&h, id);
    json_decref(harness_callback(&h, id));
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fatal_codes_exit_distinctly),
        cmocka_unit_test(test_resumable_close_keeps_running),
    };
    return cmocka_run_group_tests_name("daemon_fatal", tests, NULL, NULL);
}
