/* The encounter cache: lookup, replacement, LRU eviction by count and by
 * packed bytes, idle expiry, and copies equal to what was put whether it
 * was still unpacked or packed. */
#include "support.h"

#include <stdlib.h>

#include "enc_cache.h"
#include "rs.h"

/* A copy of channel's cached encounter, NULL when there is none. */
static struct encounter *copy(struct enc_cache *c, uint64_t channel,
                              int64_t now)
{
    struct encounter *e = NULL;
    assert_int_equal(enc_cache_copy(c, channel, now, &e), BOT_OK);
    return e;
}

/* The version of channel's entry, -1 when there is none. */
static int64_t version(struct enc_cache *c, uint64_t channel, int64_t now)
{
    int64_t v = -1;
    if (!enc_cache_version(c, channel, now, &v))
        return -1;
    return v;
}

static struct encounter *fight(int64_t version, int combatants)
{
    struct encounter *e = enc_new(rs_find("generic"), "test", 1);
    assert_non_null(e);
    struct enc_diag d;
    if (combatants > 0)
        assert_int_equal(enc_add(e, "Orc", combatants, 0, -1, &d, NULL),
                         ENG_OK);
    e->version = version;
    return e;
}

static void test_enc_cache_get_put_drop(void **state)
{
    (void)state;
    struct enc_cache *c = NULL;
    assert_int_equal(enc_cache_new(0, 0, &c), BOT_OK);
    assert_int_equal(version(c, 7, 0), -1);
    assert_null(copy(c, 7, 0));
    enc_cache_put(c, 7, fight(3, 2), 0);
    /* A copy of the unpacked entry, then of the packed one. */
    for (int packed = 0; packed < 2; packed++) {
        if (packed)
            enc_cache_put(c, 8, fight(1, 1), 0);
        struct encounter *e = copy(c, 7, 1);
        assert_non_null(e);
        assert_int_equal(e->version, 3);
        assert_int_equal(e->ncs, 2);
        assert_string_equal(e->cs[1].name, "Orc 2");
        enc_free(e);
    }
    enc_cache_drop(c, 8);
    /* A put replaces, it does not add. */
    enc_cache_put(c, 7, fight(4, 2), 2);
    assert_int_equal(enc_cache_count(c), 1);
    assert_int_equal(version(c, 7, 3), 4);
    assert_int_equal(version(c, 8, 3), -1);
    enc_cache_drop(c, 7);
    enc_cache_drop(c, 7);
    assert_int_equal(version(c, 7, 4), -1);
    assert_int_equal(enc_cache_count(c), 0);
    assert_int_equal(enc_cache_bytes(c), 0);
    enc_cache_free(c);
    enc_cache_free(NULL);
}

/* The hot entry keeps the document it was saved as, only when that
 * document was written from it, and loses it as soon as the entry is
 * packed, replaced or dropped. */
static struct enc_json_doc doc_of(const struct encounter *e)
{
    struct enc_json_doc d = {0};
    assert_true(enc_json_dump_doc(e, NULL, NULL, &d));
    return d;
}

/* Put channel's entry back as a command does, its document with it. */
static void put_with_doc(struct enc_cache *c, uint64_t channel, int64_t now)
{
    struct encounter *e = copy(c, channel, now);
    struct enc_json_doc d = doc_of(e);
    enc_cache_put(c, channel, e, now);
    enc_cache_keep_doc(c, channel, &d);
    assert_null(d.text);
}

static void test_enc_cache_keeps_hot_doc(void **state)
{
    (void)state;
    struct enc_cache *c = NULL;
    const struct enc_json_doc *got = NULL;
    assert_int_equal(enc_cache_new(0, 0, &c), BOT_OK);
    struct encounter *e = fight(3, 2);
    struct enc_json_doc d = doc_of(e);
    enc_cache_put(c, 7, e, 0);
    assert_null(enc_cache_hot_doc(c, 7, &got));
    assert_null(got);
    /* Not kept: another version's, or for another channel. */
    d.version = 2;
    enc_cache_keep_doc(c, 7, &d);
    assert_non_null(d.text);
    d.version = 3;
    enc_cache_keep_doc(c, 8, &d);
    assert_non_null(d.text);
    assert_null(enc_cache_hot_doc(c, 7, &got));
    /* Kept, taken from the caller. */
    char *text = d.text;
    enc_cache_keep_doc(c, 7, &d);
    assert_null(d.text);
    const struct encounter *hot = enc_cache_hot_doc(c, 7, &got);
    assert_ptr_equal(hot, e);
    assert_ptr_equal(got->text, text);
    assert_null(enc_cache_hot_doc(c, 8, &got));
    /* Another channel's put packs the entry: its document goes. */
    enc_cache_put(c, 8, fight(1, 1), 0);
    assert_null(enc_cache_hot_doc(c, 7, &got));
    /* A put on the same channel replaces the document too. */
    put_with_doc(c, 8, 1);
    assert_non_null(enc_cache_hot_doc(c, 8, &got));
    enc_cache_put(c, 8, fight(2, 1), 2);
    assert_null(enc_cache_hot_doc(c, 8, &got));
    put_with_doc(c, 8, 3);
    enc_cache_drop(c, 8);
    assert_null(enc_cache_hot_doc(c, 8, &got));
    enc_cache_free(c);
}

static void test_enc_cache_evicts_least_recent(void **state)
{
    (void)state;
    struct enc_cache *c = NULL;
    assert_int_equal(enc_cache_new(3, 0, &c), BOT_OK);
    for (uint64_t ch = 1; ch <= 3; ch++)
        enc_cache_put(c, ch, fight((int64_t)ch, 1), (int64_t)ch);
    /* Touch 1: now 2 is the least recently used. */
    assert_true(version(c, 1, 10) >= 0);
    enc_cache_put(c, 4, fight(4, 1), 11);
    assert_int_equal(enc_cache_count(c), 3);
    assert_int_equal(version(c, 2, 12), -1);
    assert_true(version(c, 1, 12) >= 0);
    assert_true(version(c, 3, 12) >= 0);
    assert_true(version(c, 4, 12) >= 0);
    enc_cache_free(c);
}

static void test_enc_cache_byte_budget(void **state)
{
    (void)state;
    struct encounter *probe = fight(1, 8);
    size_t one = enc_cache_cost(probe);
    enc_free(probe);
    struct enc_cache *c = NULL;
    /* Room for two and a half 8-combatant fights. */
    assert_int_equal(enc_cache_new(100, one * 5 / 2, &c), BOT_OK);
    for (uint64_t ch = 1; ch <= 5; ch++)
        enc_cache_put(c, ch, fight(1, 8), 0);
    /* Two packed, and the last put, unpacked, outside the budget. */
    assert_int_equal(enc_cache_count(c), 3);
    assert_true(enc_cache_bytes(c) <= one * 5 / 2);
    assert_true(version(c, 5, 0) >= 0);
    assert_true(version(c, 4, 0) >= 0);
    assert_true(version(c, 3, 0) >= 0);
    /* One fight bigger than the whole budget is simply not kept. */
    struct encounter *big = fight(1, ENC_MAX_COUNT);
    struct enc_diag d;
    assert_int_equal(enc_add(big, "Goblin", ENC_MAX_COUNT, 0, -1, &d, NULL),
                     ENG_OK);
    assert_true(enc_cache_cost(big) > one * 5 / 2);
    enc_cache_put(c, 9, big, 0);
    enc_cache_put(c, 10, fight(1, 8), 0);    /* packs 9: too big */
    assert_int_equal(version(c, 9, 0), -1);
    assert_true(version(c, 10, 0) >= 0);
    enc_cache_free(c);
}

static void test_enc_cache_expires_idle(void **state)
{
    (void)state;
    struct enc_cache *c = NULL;
    assert_int_equal(enc_cache_new(0, 0, &c), BOT_OK);
    enc_cache_put(c, 1, fight(1, 1), 1000);
    enc_cache_put(c, 2, fight(1, 1), 2000);
    enc_cache_put(c, 3, fight(1, 1), 3000);
    assert_true(version(c, 1, 5000) >= 0);   /* used again */
    assert_int_equal(enc_cache_expire(c, 2500 + ENC_CACHE_IDLE_MS), 1);
    assert_int_equal(version(c, 2, 0), -1);
    assert_int_equal(enc_cache_count(c), 2);
    assert_int_equal(enc_cache_expire(c, 10000 + ENC_CACHE_IDLE_MS), 2);
    assert_int_equal(enc_cache_count(c), 0);
    enc_cache_clear(c);
    enc_cache_free(c);
}

static void test_enc_cache_many_channels(void **state)
{
    (void)state;
    struct enc_cache *c = NULL;
    assert_int_equal(enc_cache_new(64, 0, &c), BOT_OK);
    /* Snowflake-like keys that share their low bits. */
    for (uint64_t i = 0; i < 200; i++)
        enc_cache_put(c, (i << 22) | 7, fight((int64_t)i, 0), (int64_t)i);
    assert_int_equal(enc_cache_count(c), 64);
    for (uint64_t i = 136; i < 200; i++)
        assert_int_equal(version(c, (i << 22) | 7, 300),
                         (int64_t)i);
    assert_int_equal(version(c, (135u << 22) | 7, 300), -1);
    enc_cache_clear(c);
    assert_int_equal(enc_cache_count(c), 0);
    enc_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_cache_get_put_drop),
        cmocka_unit_test(test_enc_cache_keeps_hot_doc),
        cmocka_unit_test(test_enc_cache_evicts_least_recent),
        cmocka_unit_test(test_enc_cache_byte_budget),
        cmocka_unit_test(test_enc_cache_expires_idle),
        cmocka_unit_test(test_enc_cache_many_channels),
    };
    return cmocka_run_group_tests_name("enc_cache", tests, NULL, NULL);
}
