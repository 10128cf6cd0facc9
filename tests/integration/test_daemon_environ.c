/* test_daemon_environ.c - once fray has read DISCORD_TOKEN it clears it:
 * while fray is connected, /proc/<pid>/environ (the process's initial
 * environment block, which unsetenv alone leaves as it was) no longer holds
 * the token, and fray still answers with the token it kept. The environment is never printed: it would put the token in the
 * test log. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon_harness.h"

#define ENVIRON_MAX (1 << 20)   /* far more than any test environment */

/* /proc/<pid>/environ into a heap buffer (NUL-separated); *n its length.
 * NULL with errno set when it cannot be read. */
static char *read_environ(pid_t pid, size_t *n)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *buf = malloc(ENVIRON_MAX);
    assert_non_null(buf);
    size_t len = 0;
    ssize_t r;
    while (len < ENVIRON_MAX &&
           (r = read(fd, buf + len, ENVIRON_MAX - len)) > 0)
        len += (size_t)r;
    int saved = errno;
    close(fd);
    if (r < 0 && len == 0) {
        free(buf);
        errno = saved;
        return NULL;
    }
    *n = len;
    return buf;
}

static bool holds(const char *buf, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; k > 0 && i + k <= n; i++)
        if (memcmp(buf + i, s, k) == 0)
            return true;
    return false;
}

static void test_token_gone_from_environ(void **state)
{
    struct harness h;
    size_t n = 0;
    (void)state;

    harness_start(&h, NULL, NULL, true);   /* connected: READY seen */
    char *env = read_environ(h.fray, &n);
    if (!env) {
        /* Only a process with CAP_SYS_PTRACE may read the environment of
         * one that is not dumpable (fray makes itself so): then nobody
         * else can read the token there either. */
        assert_int_equal(errno, EACCES);
        assert_true(geteuid() != 0);
        print_message("environ unreadable (not dumpable); nothing to see\n");
    } else {
        assert_true(n > 0);
        assert_true(holds(env, n, "DISCORD_API_BASE="));   /* read right */
        if (holds(env, n, h.token))
            fail_msg("/proc/%ld/environ still holds the token",
                     (long)h.fray);
        /* the name may stay in the block, but with nothing after it */
        const char *var = "DISCORD_TOKEN=";
        for (size_t i = 0; i < n; i += strnlen(env + i, n - i) + 1)
            if (strncmp(env + i, var, strlen(var)) == 0 &&
                env[i + strlen(var)] != '\0')
                fail_msg("/proc/%ld/environ still holds a DISCORD_TOKEN "
                         "value", (long)h.fray);
        free(env);
    }
    harness_roll_answered(&h);             /* the kept copy still works */
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_gone_from_environ),
    };
    return cmocka_run_group_tests_name("daemon_environ", tests, NULL, NULL);
}
