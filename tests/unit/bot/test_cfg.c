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
    /* retention stays above reopen_minutes' largest value (7 days) */
    expect_error("[fights]\nretention_days = 7\n",
                 "t.conf:2: [fights] retention_days: 7 is out of range "
                 "(8..3650)");
    expect_error("[fights]\nmax_live_per_server = 0\n",
                 "[fights] max_live_per_server: 0 is out of range");
    expect_error("[fights]\nmax_archived_per_server = -1\n",
                 "[fights] max_archived_per_server: -1 is out of range");
    expect_error("[fights]\nkeep_history = sometimes\n",
                 "t.conf:2: [fights] keep_history:");
    expect_error("[store]\nprune_interval_s = 0\n",
                 "[store] prune_interval_s: 0 is out of range (1..86400)");
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
    expect_error("[log]\nformat = fancy\n",
                 "[log] format: \"fancy\" is not auto, journal or plain");
    expect_error("[metrics]\nlisten = 127.0.0.1:http\n",
                 "[metrics] listen: \"http\" is not a port");
    expect_error("[metrics]\nlisten = myhost:9464\n",
                 "[metrics] listen: \"myhost\" is not an IP address");
}

/* Metrics stay on loopback unless the config says public in so many
 * words. */
static void test_cfg_metrics_public_needs_consent(void **state)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;
    expect_error("[metrics]\nlisten = 0.0.0.0:9464\n",
                 "0.0.0.0 is not a loopback address; set [metrics] public");
    expect_error("[metrics]\nlisten = 192.0.2.7:9464\npublic = false\n",
                 "not a loopback address");
    expect_error("[metrics]\nlisten = [2001:db8::1]:9464\n",
                 "not a loopback address");
    assert_int_equal(cfg_load_string(&c, "t.conf",
                                     "[metrics]\nlisten = 0.0.0.0:9464\n"
                                     "public = true\n", err, sizeof err),
                     BOT_OK);
    assert_true(c.metrics_public);
    assert_int_equal(cfg_load_string(&c, "t.conf",
                                     "[metrics]\nlisten = [::1]:9464\n"
                                     "[log]\nformat = journal\n", err,
                                     sizeof err),
                     BOT_OK);
    assert_string_equal(c.metrics_listen, "[::1]:9464");
    assert_string_equal(c.log_format, "journal");
    assert_int_equal(cfg_load_string(&c, "t.conf", "", err, sizeof err),
                     BOT_OK);
    assert_string_equal(c.metrics_listen, "");     /* off by default */
    assert_false(c.metrics_public);
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

/* A file generated from the table must match it; FRAY_REGEN=1 rewrites
 * it. */
static void check_generated(const char *path, void (*write)(FILE *f))
{
    char *gen = NULL, *have;
    size_t genlen = 0;
    FILE *mem = open_memstream(&gen, &genlen);

    assert_non_null(mem);
    write(mem);
    fclose(mem);
    if (getenv("FRAY_REGEN")) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(gen, f);
        fclose(f);
    }
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
        fail_msg("%s is stale: run FRAY_REGEN=1 test_cfg", path);
    free(gen);
    free(have);
}

/* config/fray.conf.example lists every key with its default, and loads. */
static void test_cfg_example_matches_schema(void **state)
{
    const char *path = FRAY_SOURCE_DIR "/config/fray.conf.example";
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;

    check_generated(path, cfg_write_example);
    assert_int_equal(cfg_load(&c, path, err, sizeof err), BOT_OK);
}

/* fray.conf(5) documents every key: generated from the table too. */
static void test_cfg_man_page_matches_schema(void **state)
{
    struct cfg_key_doc k;
    char *page;
    (void)state;

    check_generated(FRAY_SOURCE_DIR "/docs/man/fray.conf.5", cfg_write_man);
    page = support_read_data("../../docs/man/fray.conf.5", NULL);
    assert_non_null(page);
    for (size_t i = 0; cfg_key_doc(i, &k); i++) {
        char want[96];
        snprintf(want, sizeof want, ".B %s\n", k.name);
        if (!strstr(page, want))
            fail_msg("fray.conf.5 lacks [%s] %s", k.section, k.name);
    }
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cfg_defaults_are_valid),
        cmocka_unit_test(test_cfg_reads_values),
        cmocka_unit_test(test_cfg_errors_name_file_line_key),
        cmocka_unit_test(test_cfg_long_line_refused),
        cmocka_unit_test(test_cfg_metrics_public_needs_consent),
        cmocka_unit_test(test_cfg_missing_file),
        cmocka_unit_test(test_cfg_example_matches_schema),
        cmocka_unit_test(test_cfg_man_page_matches_schema),
    };
    return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}
