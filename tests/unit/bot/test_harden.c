/* test_harden.c - harden_process() leaves the process not dumpable. Each
 * case runs in a child process, since the change is process-wide and the
 * test runner itself must stay as it was. */
#include "support.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harden.h"

/* Exit statuses of the child, to tell what went wrong. */
enum { CHILD_OK = 0, CHILD_SETUP = 2, CHILD_CALL = 3, CHILD_DUMPABLE = 4 };

static int child_status(void)
{
    char err[256];
    /* start dumpable, as a process run by hand is */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0 ||
        prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 1)
        return CHILD_SETUP;
    if (harden_process(err, sizeof err) != BOT_OK)
        return CHILD_CALL;
    if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
        return CHILD_DUMPABLE;
    return CHILD_OK;
}

static void test_harden_not_dumpable(void **state)
{
    int st = 0;
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(child_status());
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), CHILD_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_harden_not_dumpable),
    };
    return cmocka_run_group_tests_name("harden", tests, NULL, NULL);
}
