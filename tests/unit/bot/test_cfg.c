/* test_cfg.c - the configuration schema, its errors and the example file. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static void test_cfg_defaults_are_valid(void **state)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;
    assert_int_equal(cfg_load_string(&c, "empty", "", err, sizeof err),
                     BOT_OK);
    assert_string_equal(c.db_path, "fray.db");
    assert_int_equal(c.log_level, LOG_LVL_INFO);
    assert_true(c.register_commands);
    assert_int_equal(c.ndev_guilds, 0);
    assert_int_equal(c.rest_timeout_ms, 15000);
    assert_int_equal(c.reopen_minutes, 60);
    assert_true(c.rest_global_per_sec <= 50);
    assert_true(c.gw_identify_spacing_ms >= 5000);
}

static void test_cfg_reads_values(void **state)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    const char *text = "[store]\npath = /tmp/x.db\n"
                       "[log]\nlevel = debug\n"
                       "[discord]\ndev_guilds = 1100000000000000100, 2\n"
                       "dev_guilds = 3\nregister_commands = no\n"
                       "[rest]\ntimeout_ms = 2500 ; inline comment\n"
                       "[fights]\nreopen_minutes = 15\n";
    (void)state;
    assert_int_equal(cfg_load_string(&c, "t.conf", text, err, sizeof err),
                     BOT_OK);
    assert_string_equal(c.db_path, "/tmp/x.db");
    assert_int_equal(c.log_level, LOG_LVL_DEBUG);
    assert_int_equal(c.ndev_guilds, 3);
    assert_true(c.dev_guilds[0] == UINT64_C(1100000000000000100));
    assert_true(c.dev_guilds[2] == 3);
    assert_false(c.register_commands);
    assert_int_equal(c.rest_timeout_ms, 2500);
    assert_int_equal(c.reopen_minutes, 15);
}

static void expect_error(const char *text, const char *want)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    assert_int_equal(cfg_load_string(&c, "t.conf", text, err, sizeof err),
                     BOT_CONFIG);
    if (!strstr(err, want))
        fail_msg("error \"%s\" lacks \"%s\"", err, want);
}

static void test_cfg_errors_name_file_line_key(void **state)
{
    (void)state;
    expect_error("[rest]\n\ntimeout_ms = 0\n",
                 "t.conf:3: [rest] timeout_ms: 0 is out of range (100..600000)");
    expect_error("[rest]\ntimeout_ms = 12x\n",
                 "t.conf:2: [rest] timeout_ms: \"12x\" is not an integer");
    expect_error("[fights]\nreopen_minutes = 0\n",
                 "t.conf:2: [fights] reopen_minutes: 0 is out of range");
    expect_error("[store]\npth = x\n", "t.conf:2: [store] pth: unknown key");
    expect_error("[nope]\na = b\n", "t.conf:2: [nope] a: unknown key");
    expect_error("[log]\nlevel = loud\n", "t.conf:2: [log] level:");
    expect_error("[discord]\nregister_commands = maybe\n",
                 "t.conf:2: [discord] register_commands:");
    expect_error("[discord]\ndev_guilds = 12, abc\n",
                 "t.conf:2: [discord] dev_guilds: expected a guild id");
    expect_error("[store]\npath\n", "t.conf:2: syntax error");
    expect_error("[gateway]\nbackoff_min_ms = 50000\nbackoff_max_ms = 2000\n",
                 "backoff_min_ms: larger than backoff_max_ms");
}

static void test_cfg_long_line_refused(void **state)
{
    char text[1024];
    (void)state;
    snprintf(text, sizeof text, "[store]\npath = /%0600d\n", 0);
    expect_error(text, "t.conf:2: line too long");
}

static void test_cfg_missing_file(void **state)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;
    assert_int_equal(cfg_load(&c, "/nonexistent/fray.conf", err, sizeof err),
                     BOT_IO);
    assert_non_null(strstr(err, "/nonexistent/fray.conf"));
}

/* config/fray.conf.example is generated from the table and must match it;
 * FRAY_REGEN=1 rewrites it. */
static void test_cfg_example_matches_schema(void **state)
{
    const char *path = FRAY_SOURCE_DIR "/config/fray.conf.example";
    char *gen = NULL, *have;
    size_t genlen = 0;
    FILE *mem = open_memstream(&gen, &genlen);
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;

    assert_non_null(mem);
    cfg_write_example(mem);
    fclose(mem);
    if (getenv("FRAY_REGEN")) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(gen, f);
        fclose(f);
    }
    assert_int_equal(cfg_load(&c, path, err, sizeof err), BOT_OK);
    {
        FILE *f = fopen(path, "r");
        long n;
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        rewind(f);
        have = calloc(1, (size_t)n + 1);
        assert_int_equal(fread(have, 1, (size_t)n, f), (size_t)n);
        fclose(f);
    }
    if (strcmp(gen, have) != 0)
        fail_msg("config/fray.conf.example is stale: run FRAY_REGEN=1 "
                 "test_cfg");
    free(gen);
    free(have);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfg_defaults_are_valid),
        cmocka_unit_test(test_cfg_reads_values),
        cmocka_unit_test(test_cfg_errors_name_file_line_key),
        cmocka_unit_test(test_cfg_long_line_refused),
        cmocka_unit_test(test_cfg_missing_file),
        cmocka_unit_test(test_cfg_example_matches_schema),
    };
    return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}
