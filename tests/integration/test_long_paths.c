/* test_long_paths.c - a message that names a path says all of it. Every
 * path here is over 300 bytes long (a deep build folder, as CI makes):
 * `fray run`, `fray console` and `fray migrate` on a database another fray
 * holds, and `fray run` on a config with a mistake, must each print the
 * whole path (and the whole lock file path), not a cut one. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "store.h"

/* Three folders of 110 bytes make a database path of about 400 bytes:
 * long, yet under the 512 bytes SQLite's unix VFS takes. */
#define DIR_PART 110   /* bytes of each nested folder name */
#define DIR_DEPTH 3
#define OUT_MAX (64 * 1024)

struct fix {
    char top[256];         /* mkdtemp folder, removed afterwards */
    char deep[1024];       /* top plus DIR_DEPTH long folder names */
    char db[1100], lock[1100], conf[1100];
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    char part[DIR_PART + 1];
    assert_non_null(f);
    mkdir(FRAY_TEST_ARTIFACTS, 0700);
    snprintf(f->top, sizeof f->top, "%s/long-paths-XXXXXX",
             FRAY_TEST_ARTIFACTS);
    assert_non_null(mkdtemp(f->top));
    memset(part, 'p', DIR_PART);
    part[DIR_PART] = '\0';
    snprintf(f->deep, sizeof f->deep, "%s", f->top);
    for (int i = 0; i < DIR_DEPTH; i++) {
        size_t n = strlen(f->deep);
        snprintf(f->deep + n, sizeof f->deep - n, "/%d%s", i, part);
        assert_int_equal(mkdir(f->deep, 0700), 0);
    }
    snprintf(f->db, sizeof f->db, "%s/fray.db", f->deep);
    snprintf(f->lock, sizeof f->lock, "%s.lock", f->db);
    snprintf(f->conf, sizeof f->conf, "%s/fray.conf", f->deep);
    assert_true(strlen(f->db) > 300);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->top);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", f->top);
    free(f);
    return 0;
}

/* Run fray with args (a shell fragment; the paths here need no quoting),
 * env ("NAME=value ...", or "") and stdin from /dev/null; its exit status,
 * and stdout and stderr in out (caller frees). */
static int run_fray(const char *env, const char *args, char **out)
{
    size_t cap = strlen(env) + strlen(args) + 256;
    char *cmd = malloc(cap);
    assert_non_null(cmd);
    snprintf(cmd, cap,
             "DISCORD_TOKEN=long-paths-dummy-token "
             "DISCORD_API_BASE=http://127.0.0.1:1/api/v10 %s "
             "'%s' %s </dev/null 2>&1", env, FRAY_BINARY, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    *out = calloc(1, OUT_MAX);
    assert_non_null(*out);
    size_t n = fread(*out, 1, OUT_MAX - 1, p);
    (*out)[n] = '\0';
    int st = pclose(p);
    free(cmd);
    fprintf(stderr, "fray %.40s... said:\n%s", args, *out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
}

/* The lock refusal, whole: what, which files, who, what to do. */
static void assert_lock_message(const struct fix *f, const char *out)
{
    char pid[48];
    snprintf(pid, sizeof pid, "pid %ld holds %s", (long)getpid(), f->lock);
    assert_non_null(strstr(out, f->db));
    assert_non_null(strstr(out, "in use by another fray"));
    assert_non_null(strstr(out, pid));
    assert_non_null(strstr(out, f->lock));
    assert_non_null(strstr(out, "); stop it first"));
}

static void test_long_path_locked_database(void **state)
{
    struct fix *f = *state;
    struct store *s = NULL;
    char err[8192], *out = NULL, args[4096], env[1200];

    /* this process holds the database, as a running fray would */
    assert_int_equal(store_open(f->db, &s, err, sizeof err), BOT_OK);

    /* a config line is short: the folder comes from $STATE_DIRECTORY, as
     * under systemd */
    write_file(f->conf, "[store]\npath = fray.db\n");
    snprintf(env, sizeof env, "STATE_DIRECTORY=%s", f->deep);
    snprintf(args, sizeof args, "run --config %s", f->conf);
    assert_int_equal(run_fray(env, args, &out), DAEMON_EXIT_STORE);
    assert_lock_message(f, out);
    free(out);

    snprintf(args, sizeof args, "console --db %s", f->db);
    assert_int_not_equal(run_fray("", args, &out), 0);
    assert_lock_message(f, out);
    free(out);

    snprintf(args, sizeof args, "migrate --from %s --to %s/copy.db", f->db,
             f->deep);
    assert_int_not_equal(run_fray("", args, &out), 0);
    assert_lock_message(f, out);
    free(out);

    store_close(s);
}

static void test_long_path_config_error(void **state)
{
    struct fix *f = *state;
    char *out = NULL, args[4096], want[1400];

    /* one folder deeper: a config path of about 550 bytes */
    char deeper[1200], conf[1300];
    snprintf(deeper, sizeof deeper, "%s/%0150d", f->deep, 0);
    assert_int_equal(mkdir(deeper, 0700), 0);
    snprintf(conf, sizeof conf, "%s/fray.conf", deeper);
    write_file(conf, "[store]\nno_such_key = 1\n");
    snprintf(args, sizeof args, "run --config %s", conf);
    assert_int_equal(run_fray("", args, &out), DAEMON_EXIT_CONFIG);
    snprintf(want, sizeof want, "%s:2: [store] no_such_key: unknown key",
             conf);
    assert_non_null(strstr(out, want));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_long_path_locked_database,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_path_config_error, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("long_paths", tests, NULL, NULL);
}
