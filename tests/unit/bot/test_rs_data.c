/*
 * Rulesets' data files: a group's file renames or extends a ruleset's
 * table without recompiling; a bad file is refused with its line; a
 * missing one leaves the built-in table.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "eng_rng.h"
#include "render_text.h"
#include "rs_data.h"
#include "sbuf.h"
#include "store.h"

static char dir[64];

static void write_file(const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/tactical-effects.conf", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/fray-rules-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/tactical-effects.conf", dir);
    unlink(path);
    rmdir(dir);
    return 0;
}

static void test_rs_data_missing_file_is_builtin(void **state)
{
    (void)state;
    struct rs_data_set set;
    char err[256] = "";
    assert_int_equal(rs_data_load(dir, &set, err, sizeof err), BOT_OK);
    assert_null(rs_data_get(&set, rs_find("tactical")));
    rs_data_free(&set);
}

static void test_rs_data_bad_file_names_line(void **state)
{
    (void)state;
    write_file("rename Knockdown Trip\nbogus line here\n");
    struct rs_data_set set;
    char err[256] = "";
    assert_int_equal(rs_data_load(dir, &set, err, sizeof err), BOT_CONFIG);
    assert_non_null(strstr(err, "tactical-effects.conf"));
    assert_non_null(strstr(err, "line 2"));
    for (int i = 0; i < RS_DATA_MAX_SYSTEMS; i++)
        assert_null(set.data[i]);
}

/* Runs /attack with a renamed effect through the command layer: with the
 * group's file the new name works and the old one is unknown. */
static bool attack_with(const struct rs_data_set *set, const char *effects,
                        char *text, size_t n)
{
    struct store *st = NULL;
    char err[128];
    assert_int_equal(store_open(":memory:", &st, err, sizeof err), BOT_OK);
    struct eng_rng rng;
    eng_rng_seed(&rng, 5);
    struct cmd_ctx ctx = {.store = st, .rng = &rng, .rs_data = set};
    static const char *const script[][6] = {
        {"combat", "start", "system", "tactical", NULL, NULL},
        {"combat", "add", "name", "Vex", "stats", "init=30 endurance=1"},
        {"combat", "add", "name", "Drone", "stats", "endurance=1"},
        {"combat", "begin", NULL, NULL, NULL, NULL},
    };
    struct cmd_reply reply;
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
        struct cmd_req req = {.command = script[i][0], .sub = script[i][1],
                              .channel_id = 1, .user_id = 7,
                              .expect_version = -1};
        for (int k = 2; k < 6 && script[i][k]; k += 2) {
            req.opts[req.nopts].name = script[i][k];
            req.opts[req.nopts].value = script[i][k + 1];
            req.nopts++;
        }
        cmd_exec(&ctx, &req, &reply);
        assert_false(reply.is_error);
        cmd_reply_cleanup(&reply);
    }
    struct cmd_req req = {.command = "attack", .channel_id = 1, .user_id = 7,
                          .expect_version = -1, .nopts = 3};
    req.opts[0] = (struct cmd_opt){"target", "Drone"};
    req.opts[1] = (struct cmd_opt){"damage", "1"};
    char options[64];
    snprintf(options, sizeof options, "effects=%s", effects);
    req.opts[2] = (struct cmd_opt){"options", options};
    cmd_exec(&ctx, &req, &reply);
    bool ok = !reply.is_error;
    struct sbuf b;
    sbuf_init(&b, n - 1);
    render_text(&reply.msg, NULL, &b);
    snprintf(text, n, "%s", sbuf_str(&b));
    sbuf_cleanup(&b);
    cmd_reply_cleanup(&reply);
    store_close(st);
    return ok;
}

static void test_rs_data_rename_reaches_the_ruleset(void **state)
{
    (void)state;
    char text[4096];
    assert_true(attack_with(NULL, "Knockdown(2)", text, sizeof text));
    assert_false(attack_with(NULL, "Trip(2)", text, sizeof text));

    write_file("# our table\nrename Knockdown Trip\n");
    struct rs_data_set set;
    char err[256] = "";
    assert_int_equal(rs_data_load(dir, &set, err, sizeof err), BOT_OK);
    assert_non_null(rs_data_get(&set, rs_find("tactical")));
    assert_true(attack_with(&set, "Trip(2)", text, sizeof text));
    assert_non_null(strstr(text, "Trip"));
    assert_false(attack_with(&set, "Knockdown(2)", text, sizeof text));
    rs_data_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_rs_data_missing_file_is_builtin,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_rs_data_bad_file_names_line,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_rs_data_rename_reaches_the_ruleset, setup, teardown),
    };
    return cmocka_run_group_tests_name("rs_data", tests, NULL, NULL);
}
