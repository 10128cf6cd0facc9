/* test_token_scan.c - the token-hygiene scan can fail: a token planted in
 * a file (whole, cut short, across a read boundary, deep in a tree) is
 * found and the file named; clean files, the skipped token file and a
 * near miss are not; fresh tokens are random and fray accepts them. */
#include "support.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "token.h"
#include "token_scan.h"

struct fixture {
    char dir[64];
    char tok[TSCAN_TOKEN_CAP];
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (f == NULL)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/fray-tscan-XXXXXX");
    if (mkdtemp(f->dir) == NULL || tscan_token_new(f->tok) != 0) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", f->dir);
    free(f);
    return 0;
}

/* Write pre + tok[0..toklen) + post to dir/name. */
static void plant(const struct fixture *f, const char *name,
                  size_t pre, size_t toklen, const char *post)
{
    char path[PATH_MAX];
    FILE *out;
    snprintf(path, sizeof path, "%s/%s", f->dir, name);
    out = fopen(path, "wb");
    assert_non_null(out);
    for (size_t i = 0; i < pre; i++)
        fputc('x', out);
    fwrite(f->tok, 1, toklen, out);
    fputs(post, out);
    fclose(out);
}

static void test_tscan_finds_planted_token(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX];
    long bad = -1;

    plant(f, "clean.log", 100, 0, "nothing secret here\n");
    assert_int_equal(tscan_path(f->dir, f->tok, NULL, NULL, &bad), 0);
    assert_int_equal(bad, 0);

    plant(f, "leak.log", 10, strlen(f->tok), "\n");
    snprintf(path, sizeof path, "%s/leak.log", f->dir);
    assert_int_equal(tscan_file(path, f->tok), 1);
    assert_int_equal(tscan_path(f->dir, f->tok, NULL, NULL, &bad), 1);
}

static void test_tscan_finds_token_cut_short(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX];

    /* "Authorization: Bot <first 16 bytes>..." cut by a line limit */
    plant(f, "cut.log", 0, TSCAN_NEEDLE_LEN, "...\n");
    snprintf(path, sizeof path, "%s/cut.log", f->dir);
    assert_int_equal(tscan_file(path, f->tok), 1);
    /* one byte short of the needle is not a leak */
    plant(f, "near.log", 0, TSCAN_NEEDLE_LEN - 1, "\n");
    snprintf(path, sizeof path, "%s/near.log", f->dir);
    assert_int_equal(tscan_file(path, f->tok), 0);
}

static void test_tscan_finds_token_across_reads(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX];

    /* 64 KiB reads: start the token 5 bytes before the first boundary,
     * and in a larger file near the end */
    plant(f, "split.bin", 64 * 1024 - 5, strlen(f->tok), "");
    snprintf(path, sizeof path, "%s/split.bin", f->dir);
    assert_int_equal(tscan_file(path, f->tok), 1);
    plant(f, "late.bin", 5 * 64 * 1024 + 17, strlen(f->tok), "tail");
    snprintf(path, sizeof path, "%s/late.bin", f->dir);
    assert_int_equal(tscan_file(path, f->tok), 1);
}

static void test_tscan_walks_tree_and_skips(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX], skip[PATH_MAX];
    char *report = NULL;
    size_t report_len = 0;
    FILE *rep = open_memstream(&report, &report_len);

    snprintf(path, sizeof path, "%s/a", f->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/a/b", f->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    plant(f, "a/b/fray.db", 4096, strlen(f->tok), "");
    plant(f, "token", 0, strlen(f->tok), "");
    snprintf(skip, sizeof skip, "%s/token", f->dir);
    assert_non_null(rep);
    assert_int_equal(tscan_path(f->dir, f->tok, skip, rep, NULL), 1);
    fclose(rep);
    /* the file is named, the token is not printed */
    assert_non_null(strstr(report, "a/b/fray.db"));
    assert_null(strstr(report, f->tok));
    free(report);
    assert_int_equal(tscan_path(f->dir, f->tok, NULL, NULL, NULL), 2);
}

static void test_tscan_token_roundtrip_and_fresh(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX], back[TSCAN_TOKEN_CAP], other[TSCAN_TOKEN_CAP];
    char err[128], copy[TOKEN_MAX_LEN + 8];
    struct stat st;

    snprintf(path, sizeof path, "%s/sub/token", f->dir);
    assert_int_equal(tscan_token_save(path, f->tok), 0);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(tscan_token_load(path, back), 0);
    assert_string_equal(back, f->tok);
    assert_int_equal(tscan_token_new(other), 0);
    assert_string_not_equal(other, f->tok);
    assert_int_not_equal(memcmp(other, f->tok, TSCAN_NEEDLE_LEN), 0);
    /* fray takes it as a token */
    snprintf(copy, sizeof copy, "%s", f->tok);
    assert_int_equal(token_clean(copy, err, sizeof err), BOT_OK);
    assert_string_equal(copy, f->tok);
}

static void test_tscan_missing_path(void **state)
{
    struct fixture *f = *state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/absent", f->dir);
    assert_int_equal(tscan_path(path, f->tok, NULL, NULL, NULL), -1);
    assert_int_equal(tscan_token_load(path, f->tok), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tscan_finds_planted_token,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tscan_finds_token_cut_short,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tscan_finds_token_across_reads,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tscan_walks_tree_and_skips,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tscan_token_roundtrip_and_fresh,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_tscan_missing_path, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("token_scan", tests, NULL, NULL);
}
