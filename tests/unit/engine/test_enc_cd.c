/*
 * Tests for countdowns (enc_cd.h): a rounds countdown set before the fight
 * or during a round counts down as each later round starts and falls
 * (announced, gone) at zero; a turns one counts its combatant's turn ends,
 * not the turn it was set in, and a skipped turn; in teams a member's turn
 * is its pick; pause, resume and advance; a hidden one's and a hidden
 * combatant's sentences are the GM's; a leaver's countdown counts rounds;
 * the refusals and limits; a packed and a cloned fight keep them.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "enc_cd.h"
#include "enc_pack.h"
#include "rs.h"
#include "rs_fixture.h"
#include "test_fx_value.h"
#include "rs_teams.h"

static enum eng_err add(struct fx *f, const char *name, int32_t n,
                        const char *of, bool hidden)
{
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    return enc_cd_add(c, name, n, of ? rs_fx_who(&f->fx, of)->id : 0,
                      hidden);
}

/* What is left of the countdown called name; 0 when it is gone. */
static int32_t left(struct fx *f, const char *name)
{
    struct enc_cd *x = enc_cd_find(f->e, name);
    return x != NULL ? x->left : 0;
}

/* A round of the two: Ann's turn, the Dragon's. */
static void round_of_two(struct fx *f)
{
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
}

static void test_rounds_fall_as_a_round_starts(void **state)
{
    (void)state;
    struct fx *f = two(1);
    assert_int_equal(add(f, "The bridge falls", 2, NULL, false), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "The bridge falls in 2 rounds"));
    assert_false(f->r.ev[0].secret);
    /* Round 1 starting does not count: it was set before it. */
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "The bridge falls"), 2);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "The bridge falls"), 2);   /* same round */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(left(f, "The bridge falls"), 1);
    assert_false(rs_fx_said(&f->fx, "The bridge falls!"));
    round_of_two(f);
    assert_int_equal(f->e->round, 3);
    assert_true(rs_fx_said(&f->fx, "The bridge falls!"));
    assert_null(enc_cd_find(f->e, "the bridge falls"));
    assert_int_equal(f->e->ncds, 0);
    fx_free(f);
}

static void test_turns_count_its_turn_ends(void **state)
{
    (void)state;
    struct fx *f = two(2);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Ann");
    /* Set during Ann's turn: this one does not count. */
    assert_int_equal(add(f, "Ward", 1, "Ann", false), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Ward in 1 turn of Ann"));
    assert_int_equal(add(f, "Ritual", 2, "Dragon", false), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "Ward"), 1);
    assert_int_equal(left(f, "Ritual"), 2);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "Ritual"), 1);             /* Dragon's end */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Ward!"));           /* Ann's next */
    assert_null(enc_cd_find(f->e, "Ward"));
    /* The Dragon is down: its skipped turn still counts. */
    rs_fx_who(&f->fx, "Dragon")->flags |= ENC_CF_DOWN;
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Ritual!"));
    assert_int_equal(f->e->ncds, 0);
    fx_free(f);
}

static void test_pause_resume_advance(void **state)
{
    (void)state;
    struct fx *f = two(3);
    assert_int_equal(add(f, "Flood", 3, NULL, false), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_pause(c, "flood", true), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Flood is paused, in 3 rounds"));
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_pause(c, "Flood", true), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "paused already"));
    round_of_two(f);
    assert_int_equal(left(f, "Flood"), 3);              /* paused */
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_pause(c, "Flood", false), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Flood counts down again"));
    round_of_two(f);
    assert_int_equal(left(f, "Flood"), 2);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_advance(c, "Flood", 1), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Flood in 1 round (advanced by the GM)"));
    assert_int_equal(left(f, "Flood"), 1);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_advance(c, "Flood", 5), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Flood!"));
    assert_int_equal(f->e->ncds, 0);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_advance(c, "Flood", 1), ENG_NOTFOUND);
    assert_non_null(strstr(f->d.msg, "no countdown called Flood"));
    fx_free(f);
}

static bool all_secret(const struct fx *f)
{
    for (int i = 0; i < f->r.nev; i++)
        if (f->r.ev[i].kind == ENC_EV_SAY && !f->r.ev[i].secret)
            return false;
    return f->r.nev > 0;
}

static void test_hidden_ones_are_secret(void **state)
{
    (void)state;
    struct fx *f = two(4);
    assert_int_equal(add(f, "Eclipse", 1, NULL, true), ENG_OK);
    assert_true(all_secret(f));
    rs_fx_who(&f->fx, "Dragon")->hidden = true;
    assert_int_equal(add(f, "Wings", 1, "Dragon", false), ENG_OK);
    assert_true(all_secret(f));
    assert_true(enc_cd_secret(f->e, enc_cd_find(f->e, "Wings")));
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    /* Both fell in that call: the Dragon's turn ended, round 2 began. */
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_SAY, "Wings!");
    assert_non_null(ev);
    assert_true(ev->secret);
    ev = rs_fx_find(&f->fx, ENC_EV_SAY, "Eclipse!");
    assert_non_null(ev);
    assert_true(ev->secret);
    fx_free(f);
}

static void test_leaver_counts_rounds(void **state)
{
    (void)state;
    struct fx *f = two(5);
    rs_fx_who(&f->fx, "Dragon")->hidden = true;
    assert_int_equal(add(f, "Wings", 3, "Dragon", false), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    uint32_t id = rs_fx_who(&f->fx, "Dragon")->id;
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_remove(f->e, id, c->r, c->d), ENG_OK);
    const struct enc_event *ev =
        rs_fx_find(&f->fx, ENC_EV_SAY, "Wings now counts rounds");
    assert_non_null(ev);
    assert_true(ev->secret);
    struct enc_cd *x = enc_cd_find(f->e, "Wings");
    assert_int_equal(x->of, 0);
    assert_int_equal(x->left, 3);
    /* Still the GM's, without the hidden Dragon to say so. */
    assert_true(enc_cd_secret(f->e, x));
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(left(f, "Wings"), 2);
    fx_free(f);
}

static void test_refusals_and_limits(void **state)
{
    (void)state;
    struct fx *f = two(6);
    assert_int_equal(add(f, "Gate", 0, NULL, false), ENG_LIMIT);
    assert_int_equal(add(f, "Gate", ENC_MAX_CD_COUNT + 1, NULL, false),
                     ENG_LIMIT);
    assert_int_equal(add(f, "Gate", -2, NULL, false), ENG_LIMIT);
    assert_int_equal(add(f, "", 2, NULL, false), ENG_INVALID);
    char longname[ENC_MAX_CD_NAME + 2];
    memset(longname, 'g', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(add(f, longname, 2, NULL, false), ENG_LIMIT);
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_add(c, "Gate", 2, 999, false), ENG_NOTFOUND);
    assert_int_equal(add(f, "Gate", ENC_MAX_CD_COUNT, NULL, false), ENG_OK);
    assert_int_equal(add(f, "gate", 2, NULL, false), ENG_EXISTS);
    char name[8];
    for (int i = 1; i < ENC_MAX_COUNTDOWNS; i++) {
        snprintf(name, sizeof name, "C%d", i);
        assert_int_equal(add(f, name, 1, NULL, false), ENG_OK);
    }
    assert_int_equal(add(f, "One more", 1, NULL, false), ENG_LIMIT);
    assert_non_null(strstr(f->d.msg, "limit is 8"));
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_advance(c, "Gate", 0), ENG_INVALID);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_pause(c, "Gate", false), ENG_STATE);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_remove(c, "Nothing"), ENG_NOTFOUND);
    c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_remove(c, "C3"), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Countdown removed: C3"));
    assert_int_equal(f->e->ncds, ENC_MAX_COUNTDOWNS - 1);
    assert_null(enc_cd_find(f->e, "C3"));
    assert_non_null(enc_cd_find(f->e, "C4"));
    fx_free(f);
}

/* teams: a member's turn is its pick, a round when every team has gone. */
static void test_teams_pick_is_a_turn(void **state)
{
    (void)state;
    struct fx *f = fx_new(&rs_teams, 7);
    rs_fx_opts(&f->fx, NULL);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Kai", .owner = 7, .side = "players"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Guard", .side = "guards"}));
    assert_int_equal(add(f, "Alarm", 1, "Guard", false), ENG_OK);
    assert_int_equal(add(f, "Dawn", 1, NULL, false), ENG_OK);
    rs_fx_opts(&f->fx, "first", "players", NULL);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    rs_fx_opts(&f->fx, NULL);
    if (strcmp(rs_fx_current(&f->fx), "Kai") != 0)
        assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Kai"), ENG_OK);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(left(f, "Alarm"), 1);
    if (strcmp(rs_fx_current(&f->fx), "Guard") != 0)
        assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Guard"),
                         ENG_OK);
    assert_int_equal(left(f, "Dawn"), 1);
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "Alarm!"));
    assert_true(rs_fx_said(&f->fx, "Dawn!"));
    assert_int_equal(f->e->round, 2);
    fx_free(f);
}

static void test_pack_and_clone_keep_them(void **state)
{
    (void)state;
    struct fx *f = two(8);
    assert_int_equal(add(f, "Flood", 3, NULL, true), ENG_OK);
    assert_int_equal(add(f, "Ritual", 2, "Dragon", false), ENG_OK);
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    assert_int_equal(enc_cd_pause(c, "Ritual", true), ENG_OK);
    struct enc_pack *p = enc_pack(f->e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    struct encounter *k = enc_clone(f->e);
    assert_non_null(u);
    assert_non_null(k);
    struct encounter *both[] = {u, k};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(both[i]->ncds, 2);
        assert_string_equal(both[i]->cds[0].name, "Flood");
        assert_int_equal(both[i]->cds[0].left, 3);
        assert_int_equal(both[i]->cds[0].flags, ENC_CDF_HIDDEN);
        assert_string_equal(both[i]->cds[1].name, "Ritual");
        assert_int_equal(both[i]->cds[1].of,
                         rs_fx_who(&f->fx, "Dragon")->id);
        assert_int_equal(both[i]->cds[1].flags, ENC_CDF_PAUSED);
        /* what follows them is whole */
        assert_int_equal(both[i]->norder, f->e->norder);
        assert_int_equal(both[i]->turn_idx, f->e->turn_idx);
        assert_int_equal(both[i]->ncs, 2);
    }
    enc_free(u);
    enc_free(k);
    enc_pack_free(p);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounds_fall_as_a_round_starts),
        cmocka_unit_test(test_turns_count_its_turn_ends),
        cmocka_unit_test(test_pause_resume_advance),
        cmocka_unit_test(test_hidden_ones_are_secret),
        cmocka_unit_test(test_leaver_counts_rounds),
        cmocka_unit_test(test_refusals_and_limits),
        cmocka_unit_test(test_teams_pick_is_a_turn),
        cmocka_unit_test(test_pack_and_clone_keep_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
