/*
 * Tests for resources (enc_res.h): a turn resource comes back at the start
 * of its holder's turn and not before, a round resource at each new round,
 * a never resource only by hand; a recharge rolls a d6 at its reset point
 * and refills on recharge or more (seeded, the die recorded); the limits
 * and the refusals; a hidden holder's sentences are the GM's; a packed
 * and a cloned fight keep them.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "enc_pack.h"
#include "enc_res.h"
#include "rs.h"
#include "rs_fixture.h"
#include "test_fx_value.h"
#include "rs_teams.h"

static enum eng_err add(struct fx *f, const char *who, const char *name,
                        int32_t max, enum enc_reset reset, int32_t recharge)
{
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    return enc_res_add(c, rs_fx_who(&f->fx, who), name, max, reset,
                       recharge);
}

static enum eng_err spend(struct fx *f, const char *who, const char *name,
                          int32_t n)
{
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    return enc_res_spend(c, rs_fx_who(&f->fx, who), name, n);
}

static int32_t left(struct fx *f, const char *who, const char *name)
{
    struct enc_res *x = enc_res_find(rs_fx_who(&f->fx, who), name);
    assert_non_null(x);
    return x->cur;
}

static void test_turn_resource_back_at_its_turn(void **state)
{
    (void)state;
    struct fx *f = two(1);
    assert_int_equal(add(f, "Dragon", "Legendary", 3, ENC_RESET_TURN, 0),
                     ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Ann");
    assert_int_equal(spend(f, "Dragon", "legendary", 2), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "1 of 3 left"));
    assert_int_equal(left(f, "Dragon", "Legendary"), 1);
    /* Spending more than is left is refused and changes nothing. */
    assert_int_equal(spend(f, "Dragon", "Legendary", 2), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "1 of 3"));
    assert_int_equal(left(f, "Dragon", "Legendary"), 1);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Dragon");
    assert_int_equal(left(f, "Dragon", "Legendary"), 3);
    assert_true(rs_fx_said(&f->fx, "gets back 2 Legendary: 3 of 3 left"));
    fx_free(f);
}

static void test_round_and_never(void **state)
{
    (void)state;
    struct fx *f = two(2);
    assert_int_equal(add(f, "Ann", "Reaction", 1, ENC_RESET_ROUND, 0),
                     ENG_OK);
    assert_int_equal(add(f, "Ann", "Slots", 2, ENC_RESET_NEVER, 0), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(spend(f, "Ann", "Reaction", 1), ENG_OK);
    assert_int_equal(spend(f, "Ann", "Slots", 1), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "Ann", "Reaction"), 0);   /* same round */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(left(f, "Ann", "Reaction"), 1);
    assert_int_equal(left(f, "Ann", "Slots"), 1);      /* never */
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_res_restore(c, rs_fx_who(&f->fx, "Ann"), "Slots",
                                     0), ENG_OK);
    assert_int_equal(left(f, "Ann", "Slots"), 2);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_res_restore(c, rs_fx_who(&f->fx, "Ann"), "Slots",
                                     1), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "has all 2 Slots already"));
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_res_remove(c, rs_fx_who(&f->fx, "Ann"), "Slots"),
                     ENG_OK);
    assert_null(enc_res_find(rs_fx_who(&f->fx, "Ann"), "Slots"));
    fx_free(f);
}

/* Over seeds, a recharge 5-6 refills exactly when its d6 shows 5 or 6,
 * and the die is recorded under "recharge". */
static void test_recharge_rolls_its_die(void **state)
{
    (void)state;
    int refilled = 0, kept = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        struct fx *f = two(seed);
        assert_int_equal(add(f, "Dragon", "Breath", 1, ENC_RESET_TURN, 5),
                         ENG_OK);
        assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
        assert_int_equal(spend(f, "Dragon", "Breath", 1), ENG_OK);
        assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
        int i = rs_fx_roll(&f->fx, "recharge", 0);
        assert_true(i >= 0);
        int64_t face = f->r.rolls[i].total;
        assert_true(face >= 1 && face <= 6);
        assert_int_equal(left(f, "Dragon", "Breath"), face >= 5 ? 1 : 0);
        assert_true(rs_fx_said(&f->fx, face >= 5 ? "regains Breath: recharge"
                                                 : "does not regain Breath"));
        refilled += face >= 5;
        kept += face < 5;
        /* Full, it rolls nothing at its next turn. */
        if (face >= 5) {
            assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
            assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
            assert_int_equal(rs_fx_roll(&f->fx, "recharge", 0), -1);
        }
        fx_free(f);
    }
    assert_true(refilled > 0 && kept > 0);
}

static void test_refusals_and_limits(void **state)
{
    (void)state;
    struct fx *f = two(3);
    assert_int_equal(add(f, "Ann", "Ki", 0, ENC_RESET_NEVER, 0), ENG_LIMIT);
    assert_int_equal(add(f, "Ann", "Ki", ENC_MAX_RES_VALUE + 1,
                         ENC_RESET_NEVER, 0), ENG_LIMIT);
    assert_int_equal(add(f, "Ann", "Ki", 2, ENC_RESET_TURN, 7), ENG_INVALID);
    assert_int_equal(add(f, "Ann", "Ki", 2, ENC_RESET_NEVER, 5), ENG_INVALID);
    assert_int_equal(add(f, "Ann", "", 2, ENC_RESET_NEVER, 0), ENG_INVALID);
    char longname[ENC_MAX_RES_NAME + 2];
    memset(longname, 'k', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(add(f, "Ann", longname, 2, ENC_RESET_NEVER, 0),
                     ENG_LIMIT);
    assert_int_equal(add(f, "Ann", "Ki", 2, ENC_RESET_NEVER, 0), ENG_OK);
    assert_int_equal(add(f, "Ann", "ki", 2, ENC_RESET_NEVER, 0), ENG_EXISTS);
    char name[8];
    for (int i = 1; i < ENC_MAX_RES; i++) {
        snprintf(name, sizeof name, "R%d", i);
        assert_int_equal(add(f, "Ann", name, 1, ENC_RESET_NEVER, 0), ENG_OK);
    }
    assert_int_equal(add(f, "Ann", "One more", 1, ENC_RESET_NEVER, 0),
                     ENG_LIMIT);
    assert_int_equal(spend(f, "Ann", "Nothing", 1), ENG_NOTFOUND);
    assert_int_equal(spend(f, "Ann", "Ki", 0), ENG_INVALID);
    fx_free(f);
}

/* teams declares its own stats (a die size) and counts (rs_kept): a
 * resource of either name is refused with the reason. */
static void test_system_stat_refused(void **state)
{
    (void)state;
    struct fx *f = fx_new(&rs_teams, 4);
    rs_fx_opts(&f->fx, NULL);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){.name = "Kai"}));
    const char *stat = rs_teams.stats[0].name;
    assert_int_equal(add(f, "Kai", stat, 2, ENC_RESET_NEVER, 0),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "rules keep"));
    /* and what its rules count without a stat: one reaction a round */
    assert_int_equal(add(f, "Kai", "Reaction", 1, ENC_RESET_ROUND, 0),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "one reaction a round"));
    assert_int_equal(add(f, "Kai", "Rally", 1, ENC_RESET_ROUND, 0), ENG_OK);
    fx_free(f);
}

static void test_hidden_holder_is_secret(void **state)
{
    (void)state;
    struct fx *f = two(5);
    rs_fx_who(&f->fx, "Dragon")->hidden = true;
    assert_int_equal(add(f, "Dragon", "Breath", 1, ENC_RESET_TURN, 5),
                     ENG_OK);
    assert_true(f->r.nev > 0);
    for (int i = 0; i < f->r.nev; i++)
        assert_true(f->r.ev[i].secret);
    assert_int_equal(spend(f, "Dragon", "Breath", 1), ENG_OK);
    for (int i = 0; i < f->r.nev; i++)
        assert_true(f->r.ev[i].secret);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    int i = rs_fx_roll(&f->fx, "recharge", 0);
    assert_true(i >= 0);
    assert_true(f->r.rolls[i].secret);
    fx_free(f);
}

static void test_pack_and_clone_keep_them(void **state)
{
    (void)state;
    struct fx *f = two(6);
    assert_int_equal(add(f, "Dragon", "Legendary", 3, ENC_RESET_TURN, 0),
                     ENG_OK);
    assert_int_equal(add(f, "Dragon", "Breath", 1, ENC_RESET_ROUND, 5),
                     ENG_OK);
    assert_int_equal(spend(f, "Dragon", "Legendary", 1), ENG_OK);
    struct enc_pack *p = enc_pack(f->e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    struct encounter *k = enc_clone(f->e);
    assert_non_null(u);
    assert_non_null(k);
    struct encounter *both[] = {u, k};
    for (int i = 0; i < 2; i++) {
        struct enc_combatant *d = enc_by_name(both[i], "Dragon");
        assert_int_equal(d->nres, 2);
        assert_string_equal(d->res[0].name, "Legendary");
        assert_int_equal(d->res[0].cur, 2);
        assert_int_equal(d->res[1].recharge, 5);
        assert_int_equal(d->res[1].reset, ENC_RESET_ROUND);
        assert_int_equal(d->dealt, 0);
    }
    enc_free(u);
    enc_free(k);
    enc_pack_free(p);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn_resource_back_at_its_turn),
        cmocka_unit_test(test_round_and_never),
        cmocka_unit_test(test_recharge_rolls_its_die),
        cmocka_unit_test(test_refusals_and_limits),
        cmocka_unit_test(test_system_stat_refused),
        cmocka_unit_test(test_hidden_holder_is_secret),
        cmocka_unit_test(test_pack_and_clone_keep_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
