/* test_shard.c - the shard setting, Discord's routing rule, the identify
 * bucket and the cross-process identify slots (bot/discord/shard.c). */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "shard.h"
#include "store.h"

static void expect_parse_error(const char *text, const char *want)
{
    struct shard sh = {.id = 7, .count = 9};
    char why[256] = "";
    assert_false(shard_parse(text, &sh, why, sizeof why));
    if (!strstr(why, want))
        fail_msg("error \"%s\" for \"%s\" lacks \"%s\"", why, text, want);
    assert_int_equal(sh.id, 7);             /* untouched on failure */
    assert_int_equal(sh.count, 9);
}

static void test_shard_parse_forms(void **state)
{
    struct shard sh;
    char why[256], text[SHARD_TEXT_MAX];
    (void)state;
    assert_true(shard_parse("1/2", &sh, why, sizeof why));
    assert_int_equal(sh.id, 1);
    assert_int_equal(sh.count, 2);
    shard_format(&sh, text, sizeof text);
    assert_string_equal(text, "1/2");
    assert_true(shard_parse("0/1", &sh, why, sizeof why));
    assert_false(shard_is_sharded(&sh));
    assert_true(shard_parse("auto", &sh, why, sizeof why));
    assert_int_equal(sh.count, 0);
    shard_format(&sh, text, sizeof text);
    assert_string_equal(text, "auto");
    assert_true(shard_parse("65535/65536", &sh, why, sizeof why));
    assert_int_equal(sh.count, SHARD_MAX_COUNT);
}

static void test_shard_parse_errors(void **state)
{
    (void)state;
    expect_parse_error("3/2", "shard 3/2: the id must be below the count");
    expect_parse_error("2/2", "shard 2/2: the id must be below the count");
    expect_parse_error("0/0", "shard 0/0: the count must be 1..65536");
    expect_parse_error("0/65537", "the count must be 1..65536");
    expect_parse_error("1", "\"1\" is not ID/COUNT (e.g. 0/2) or auto");
    expect_parse_error("-1/2", "is not ID/COUNT");
    expect_parse_error("1/2x", "is not ID/COUNT");
    expect_parse_error(" 1/2", "is not ID/COUNT");
    expect_parse_error("/2", "is not ID/COUNT");
    expect_parse_error("Auto", "is not ID/COUNT");
    expect_parse_error("99999999999999999999/2", "is not ID/COUNT");
}

static void test_shard_config_key(void **state)
{
    struct cfg c;
    char err[CFG_MAX_ERR] = "";
    (void)state;
    assert_int_equal(cfg_load_string(&c, "t.conf", "", err, sizeof err),
                     BOT_OK);
    assert_int_equal(c.shard.id, 0);
    assert_int_equal(c.shard.count, 1);
    assert_int_equal(cfg_load_string(&c, "t.conf", "[gateway]\nshard = 1/4\n",
                                     err, sizeof err),
                     BOT_OK);
    assert_int_equal(c.shard.id, 1);
    assert_int_equal(c.shard.count, 4);
    assert_int_equal(cfg_load_string(&c, "t.conf",
                                     "[gateway]\n\nshard = 3/2\n", err,
                                     sizeof err),
                     BOT_CONFIG);
    assert_string_equal(err, "t.conf:3: [gateway] shard: shard 3/2: the id "
                             "must be below the count");
}

static void test_shard_env_replaces_id(void **state)
{
    struct shard sh = {.id = 0, .count = 4};
    char why[256] = "";
    (void)state;
    assert_true(shard_apply_env(&sh, NULL, why, sizeof why));
    assert_true(shard_apply_env(&sh, "", why, sizeof why));
    assert_int_equal(sh.id, 0);
    assert_true(shard_apply_env(&sh, "3", why, sizeof why));
    assert_int_equal(sh.id, 3);
    assert_false(shard_apply_env(&sh, "4", why, sizeof why));
    assert_string_equal(why, "shard 4/4: the id must be below the count "
                             "(FRAY_SHARD_ID=4)");
    assert_false(shard_apply_env(&sh, "x1", why, sizeof why));
    assert_non_null(strstr(why, "FRAY_SHARD_ID=\"x1\" is not a shard id"));
    assert_int_equal(sh.id, 3);
    sh = (struct shard){.id = 0, .count = 0};      /* auto: checked later */
    assert_true(shard_apply_env(&sh, "5", why, sizeof why));
    assert_int_equal(sh.id, 5);
}

static void test_shard_auto_takes_the_recommendation(void **state)
{
    struct shard sh = {.id = 1, .count = 0};
    char why[256] = "";
    (void)state;
    assert_true(shard_settle(&sh, 3, why, sizeof why));
    assert_int_equal(sh.count, 3);
    assert_true(shard_settle(&sh, 9, why, sizeof why));  /* settled once */
    assert_int_equal(sh.count, 3);
    sh = (struct shard){.id = 0, .count = 0};
    assert_true(shard_settle(&sh, 0, why, sizeof why));  /* missing: 1 */
    assert_int_equal(sh.count, 1);
    sh = (struct shard){.id = 2, .count = 0};
    assert_false(shard_settle(&sh, 2, why, sizeof why));
    assert_non_null(strstr(why, "shard 2/auto: Discord recommends 2 "
                                "shard(s), so ids 0..1"));
    assert_int_equal(sh.count, 0);
}

static void test_shard_routing_and_buckets(void **state)
{
    /* Discord's example ids: 1100000000000000100 >> 22 = 262260173163 */
    uint64_t g = UINT64_C(1100000000000000100);
    struct shard sh = {.id = 5, .count = 8};
    (void)state;
    assert_int_equal(shard_of_guild(g, 1), 0);
    assert_int_equal(shard_of_guild(g, 2), (int)((g >> 22) % 2));
    assert_int_equal(shard_of_guild(g, 7), (int)((g >> 22) % 7));
    assert_int_equal(shard_of_guild(0, 16), 0);             /* a DM */
    assert_int_equal(shard_of_guild((uint64_t)3 << 22, 2), 1);
    assert_int_equal(shard_of_guild((uint64_t)3 << 22, 0), 0);
    assert_int_equal(shard_bucket(&sh, 1), 0);
    assert_int_equal(shard_bucket(&sh, 0), 0);
    assert_int_equal(shard_bucket(&sh, 4), 1);
    assert_int_equal(shard_bucket(&sh, 16), 5);
}

static void test_shard_kv_keys(void **state)
{
    struct shard one = {.id = 0, .count = 1}, two = {.id = 1, .count = 2};
    char key[64], tiny[8];
    (void)state;
    assert_true(shard_kv_key(&one, "gw.seq", key, sizeof key));
    assert_string_equal(key, "gw.seq");          /* as before sharding */
    assert_true(shard_kv_key(&two, "gw.seq", key, sizeof key));
    assert_string_equal(key, "gw.seq:1/2");
    assert_false(shard_kv_key(&two, "gw.seq", tiny, sizeof tiny));
}

/* Two processes of one bucket share a store: the second gets the next
 * slot, at least SHARD_IDENTIFY_WINDOW_MS after the first identify. */
static void test_shard_identify_slots(void **state)
{
    struct store *s = NULL;
    char err[256];
    struct shard a = {.id = 0, .count = 2}, b = {.id = 1, .count = 2};
    struct shard c = {.id = 1, .count = 2};
    int64_t slot = SHARD_IDENTIFY_SLOT_MS;
    int64_t t0 = 1000 * slot + 100;     /* early in a slot */
    int64_t ha = -1, hb = -1, hc = -1, wa, wb, wc;
    (void)state;

    assert_int_equal(store_open(":memory:", &s, err, sizeof err), BOT_OK);
    /* a: the current slot, at once */
    assert_int_equal(shard_identify_gate(s, &a, 1, t0, &ha, &wa), BOT_OK);
    assert_int_equal(wa, 0);
    assert_int_equal(ha, -1);
    /* b, same bucket with max_concurrency 1: waits for the next slot */
    assert_int_equal(shard_identify_gate(s, &b, 1, t0 + 10, &hb, &wb),
                     BOT_OK);
    assert_int_equal(hb, 1001);
    assert_int_equal(t0 + 10 + wb, 1001 * slot);
    assert_true(t0 + 10 + wb - t0 >= SHARD_IDENTIFY_WINDOW_MS);
    /* woken on time: goes, and gives the slot up */
    assert_int_equal(shard_identify_gate(s, &b, 1, 1001 * slot + 20, &hb,
                                         &wb),
                     BOT_OK);
    assert_int_equal(wb, 0);
    assert_int_equal(hb, -1);
    /* with max_concurrency 2 shard 1 is in bucket 1: no wait */
    assert_int_equal(shard_identify_gate(s, &c, 2, t0 + 10, &hc, &wc),
                     BOT_OK);
    assert_int_equal(wc, 0);
    /* late in a slot: the next one, never the current */
    hc = -1;
    assert_int_equal(shard_identify_gate(s, &c, 2, 2000 * slot +
                                         SHARD_IDENTIFY_LATE_MS + 1, &hc,
                                         &wc),
                     BOT_OK);
    assert_int_equal(hc, 2001);
    /* woken too late for the held slot: claims a later one */
    assert_int_equal(shard_identify_gate(s, &c, 2, 2001 * slot +
                                         SHARD_IDENTIFY_LATE_MS + 5, &hc,
                                         &wc),
                     BOT_OK);
    assert_int_equal(hc, 2002);
    assert_int_equal(wc, 2002 * slot - (2001 * slot +
                                        SHARD_IDENTIFY_LATE_MS + 5));
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shard_parse_forms),
        cmocka_unit_test(test_shard_parse_errors),
        cmocka_unit_test(test_shard_config_key),
        cmocka_unit_test(test_shard_env_replaces_id),
        cmocka_unit_test(test_shard_auto_takes_the_recommendation),
        cmocka_unit_test(test_shard_routing_and_buckets),
        cmocka_unit_test(test_shard_kv_keys),
        cmocka_unit_test(test_shard_identify_slots),
    };
    return cmocka_run_group_tests_name("shard", tests, NULL, NULL);
}
