/* Encounter documents: round trip, and damaged documents refused. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_json.h"

static struct encounter *sample(void)
{
    struct encounter *e = enc_new("generic", "Bridge", 77);
    struct enc_diag d;
    uint32_t ids[3];
    assert_int_equal(enc_add(e, "Goblin", 3, 0, -1, &d, ids), ENG_OK);
    assert_int_equal(enc_side_get(e, "heroes", &d), 0);
    assert_int_equal(enc_add(e, "@everyone \"quoted\" \xC3\xA9", 1,
                             UINT64_C(123456789012345678), 0, &d, NULL),
                     ENG_OK);
    struct enc_combatant *c = enc_by_id(e, ids[1]);
    c->hidden = true;
    c->init[0] = 17;
    c->init[1] = -3;
    c->ninit = 2;
    assert_int_equal(enc_stat_set(c, "ac", 13, &d), ENG_OK);
    assert_int_equal(enc_track_set(c, "hp", 4, 7, &d), ENG_OK);
    struct enc_result r;
    enc_result_init(&r);
    struct enc_cond_req q = {.name = "Poisoned", .value = 2, .cap = 3,
                             .rounds = 4, .expire = ENC_EXPIRE_START};
    assert_int_equal(enc_cond_add(e, c, &q, &r, &d), ENG_OK);
    snprintf(c->note, sizeof c->note, "line one");
    c->rs[3] = -42;
    e->rs[15] = 9;
    e->sides[0].rs[0] = 5;
    e->order[0] = (struct enc_slot){ids[1], 1};
    e->norder = 1;
    e->turn_idx = 0;
    e->current = ids[1];
    e->status = ENC_ST_RUNNING;
    e->round = 3;
    e->turn_seq = UINT64_C(9007199254740993); /* > 2^53 */
    assert_int_equal(enc_setting_set(e, "phases", "on", &d), ENG_OK);
    return e;
}

static void test_enc_json_round_trip(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    assert_int_equal(back->turn_seq, UINT64_C(9007199254740993));
    assert_string_equal(back->cs[3].name, "@everyone \"quoted\" \xC3\xA9");
    assert_int_equal(back->cs[3].owner, UINT64_C(123456789012345678));
    assert_int_equal(back->cs[1].conds[0].cap, 3);
    assert_int_equal(back->cs[1].conds[0].expire, ENC_EXPIRE_START);
    assert_int_equal(back->cs[1].rs[3], -42);
    assert_int_equal(back->cs[1].ninit, 2);
    free(doc);
    free(doc2);
    enc_free(e);
    enc_free(back);
}

static void test_enc_json_refuses_damage(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "[]", "{", "null", "{\"v\":1}",
        "{\"v\":99,\"ruleset\":\"generic\"}",
    };
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct encounter *out = (struct encounter *)(uintptr_t)1;
        assert_int_not_equal(enc_json_load(bad[i], &out, err, sizeof err),
                             BOT_OK);
        assert_ptr_equal(out, (struct encounter *)(uintptr_t)1);
        assert_true(strlen(err) > 0);
    }
    /* Every out-of-range value in an otherwise good document is refused. */
    struct encounter *e = sample();
    char *doc = enc_json_dump(e);
    enc_free(e);
    static const char *const swaps[][2] = {
        {"\"hp\",\"cur\":4", "\"hp\",\"cur\":4000000000"},
        {"\"side\":0", "\"side\":5"},
        {"\"rounds\":4", "\"rounds\":-1"},
        {"\"name\":\"Goblin 1\"", "\"name\":7"},
    };
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++) {
        const char *at = strstr(doc, swaps[i][0]);
        if (at == NULL)
            fail_msg("sample lacks %s", swaps[i][0]);
        size_t pre = (size_t)(at - doc);
        char *bent = malloc(strlen(doc) + 64);
        snprintf(bent, strlen(doc) + 64, "%.*s%s%s", (int)pre, doc,
                 swaps[i][1], at + strlen(swaps[i][0]));
        struct encounter *out = NULL;
        assert_int_equal(enc_json_load(bent, &out, err, sizeof err),
                         BOT_INVALID);
        assert_null(out);
        free(bent);
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_json_round_trip),
        cmocka_unit_test(test_enc_json_refuses_damage),
    };
    return cmocka_run_group_tests_name("enc_json", tests, NULL, NULL);
}
