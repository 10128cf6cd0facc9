/* Tests for the resolve ruleset's turn structure: initiative scores (players
 * roll 1D + rank, NPCs rank + 3 or + 6), ties, delaying, the per-turn
 * action limits and late joiners. Attacks and fates are in
 * test_rs_resolve_fight.c. */
#include "support.h"

#include <stdlib.h>

#include "eng_alloc.h"
#include "test_rs_resolve.h"
#include "turn.h"

/* ---- initiative ---------------------------------------------------------- */

static void test_init_score_rules(void **state)
{
    (void)state;
    /* A player: 1D + rank. */
    assert_int_equal(rsv_init_score(true, false, 3, 4), 7);
    assert_int_equal(rsv_init_score(true, true, 3, 4), 7);
    /* NPCs do not roll: rank + 3, a major NPC rank + 6. */
    assert_int_equal(rsv_init_score(false, false, 3, 6), 6);
    assert_int_equal(rsv_init_score(false, true, 3, 1), 9);
    /* Highest first. */
    assert_true(rsv_init_order(8, false, 1, 7, true, 2) < 0);
    /* A tie: the player character goes first whoever joined first. */
    assert_true(rsv_init_order(7, false, 1, 7, true, 2) > 0);
    assert_true(rsv_init_order(7, true, 2, 7, false, 1) < 0);
    /* Tied players (or NPCs): join order. */
    assert_true(rsv_init_order(7, true, 1, 7, true, 2) < 0);
    assert_true(rsv_init_order(7, false, 3, 7, false, 2) > 0);
}

static void test_begin_seeded_order(void **state)
{
    struct rf *f = *state;
    eng_rng_seed(&f->rng, 7);
    rf_opts(f, "major", "true", NULL);
    rf_add(f, "Boss", 0, "init=1");
    f->nopts = 0;
    rf_add(f, "Goon", 0, "init=2");
    rf_add(f, "Ana", 10, "init=2");
    rf_add(f, "Bo", 11, "init=5");
    assert_true(rf_who(f, "Boss")->flags & ENC_CF_MAJOR);
    assert_false(rf_who(f, "Goon")->flags & ENC_CF_MAJOR);
    assert_int_equal(rf_begin(f), ENG_OK);

    /* Only the players rolled 1D, in the order they were added: seed 7
     * gives Ana a 5 and Bo a 2. */
    assert_int_equal(f->r->nrolls, 2);
    assert_string_equal(rs_fx_detail(&f->r->rolls[0]), "[5]");
    assert_string_equal(rs_fx_detail(&f->r->rolls[1]), "[2]");
    assert_int_equal(rf_who(f, "Ana")->init[0], 2 + 5);
    assert_int_equal(rf_who(f, "Bo")->init[0], 5 + 2);
    assert_int_equal(rf_who(f, "Boss")->init[0], 1 + 6);     /* major */
    assert_int_equal(rf_who(f, "Goon")->init[0], 2 + 3);

    /* A three-way tie at 7: the players first, in join order, then the
     * major NPC although it joined before them; the Goon's 5 last. */
    for (int i = 0; i < 4; i++)
        assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(f->log,
                        "R:1 T:Ana T:Bo T:Boss T:Goon R:2 T:Ana ");
}

static void test_begin_needs_someone(void **state)
{
    struct rf *f = *state;
    assert_int_equal(rf_begin(f), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "nobody"));
}

static void test_init_rank_from_add(void **state)
{
    struct rf *f = *state;
    struct enc_combatant *g = rf_add(f, "Guard", 0, NULL);
    enc_copy(g->init_expr, sizeof g->init_expr, "4");
    struct enc_combatant *x = rf_add(f, "Bad", 0, NULL);
    enc_copy(x->init_expr, sizeof x->init_expr, "1d6");
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(rs_resolve.ops->setup(&c, x), ENG_RANGE);
    assert_non_null(strstr(f->d.msg, "initiative rank"));
    enc_copy(x->init_expr, sizeof x->init_expr, "");
    /* A major NPC by stat, set after it was added. */
    rf_add(f, "Chief", 0, "init=0");
    assert_int_equal(enc_stat_set(rf_who(f, "Chief"), "major", 1, &f->d),
                     ENG_OK);
    assert_int_equal(rf_begin(f), ENG_OK);
    assert_int_equal(rf_who(f, "Chief")->init[0], 6);
    assert_int_equal(rf_who(f, "Guard")->init[0], 7);
    assert_int_equal(rf_who(f, "Bad")->init[0], 3);
}

/* ---- delaying ------------------------------------------------------------ */

/* Four NPCs in a known order: A 9, B 8, C 7, D 6. */
static void rf_four(struct rf *f)
{
    rf_add(f, "A", 0, "init=6");
    rf_add(f, "B", 0, "init=5");
    rf_add(f, "C", 0, "init=4");
    rf_add(f, "D", 0, "init=3");
    assert_int_equal(rf_begin(f), ENG_OK);
}

static void test_delay_moves_turn(void **state)
{
    struct rf *f = *state;
    rf_four(f);
    assert_string_equal(rf_current(f), "A");
    rf_opts(f, "after", "C", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_OK);
    assert_true(rf_said(f, "delays"));
    /* A's turn paused, it did not end. */
    for (int i = 0; i < f->r->nev; i++)
        assert_int_not_equal(f->r->ev[i].kind, ENC_EV_TURN_END);
    assert_false(rf_who(f, "A")->flags & ENC_CF_ACTED);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    /* A acts right after C, and keeps that place in round 2. */
    assert_string_equal(f->log,
                        "R:1 T:A T:B T:C T:A T:D R:2 T:B ");
}

static void test_delay_refusals(void **state)
{
    struct rf *f = *state;
    rf_four(f);
    /* Not after oneself. */
    rf_opts(f, "after", "A", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_INVALID);
    /* Not after someone unknown. */
    rf_opts(f, "after", "Zed", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_NOTFOUND);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* B */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* C */
    /* A and B have acted this round. */
    rf_opts(f, "after", "A", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "already acted"));
    /* Only at the start of the turn. */
    f->nopts = 0;
    assert_int_equal(rf_do(f, RF_GM, "move"), ENG_OK);
    rf_opts(f, "after", "D", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "start of the turn"));
    assert_string_equal(rf_current(f), "C");
    /* Not after someone who cannot act. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* D */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* R2: A */
    rf_who(f, "C")->flags |= ENC_CF_DOWN;
    rf_opts(f, "after", "C", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_STATE);
    /* Only the GM or the owner. */
    rf_opts(f, "after", "B", NULL);
    assert_int_equal(rf_do(f, 55, "delay"), ENG_PERM);
    assert_string_equal(rf_current(f), "A");
}

static void test_delay_counts_start_once(void **state)
{
    struct rf *f = *state;
    rf_add(f, "A", 0, "init=6");
    rf_add(f, "B", 0, "init=5");
    rf_add(f, "C", 0, "init=4");
    /* Two of A's turn starts: the one in round 1 and the one in round 2. */
    struct enc_cond_req q = {.name = "Dazed", .rounds = 2,
                             .expire = ENC_EXPIRE_START};
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(enc_cond_add(f->e, rf_who(f, "A"), &q, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(rf_begin(f), ENG_OK);
    (void)c;
    assert_int_equal(enc_cond_find(rf_who(f, "A"), "Dazed")->rounds, 1);
    rf_opts(f, "after", "B", NULL);
    assert_int_equal(rf_do(f, RF_GM, "delay"), ENG_OK);
    /* A's delayed turn resumes: the same turn, not a second start. */
    assert_string_equal(rf_current(f), "B");
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "A");
    assert_non_null(enc_cond_find(rf_who(f, "A"), "Dazed"));
    assert_int_equal(enc_cond_find(rf_who(f, "A"), "Dazed")->rounds, 1);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* C */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* R2: B */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* A */
    assert_string_equal(rf_current(f), "A");
    assert_null(enc_cond_find(rf_who(f, "A"), "Dazed"));
}

/* ---- the turn's limits --------------------------------------------------- */

static void test_turn_limits(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=90");
    rf_add(f, "Goon", 0, "init=1");
    assert_int_equal(rf_begin(f), ENG_OK);
    assert_string_equal(rf_current(f), "Ana");
    /* The owner acts; someone else may not. */
    f->nopts = 0;
    assert_int_equal(rf_do(f, 77, "move"), ENG_PERM);
    assert_int_equal(rf_do(f, 10, "move"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "move"), ENG_STATE);
    rf_opts(f, "kind", "dash", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
    /* One Action a turn. */
    rf_opts(f, "kind", "item", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "action"));
    /* A free action makes two in all: the limit. */
    rf_opts(f, "kind", "free", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "act"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "limit"));
    /* The refusal reads as a sentence: "cannot take", not "cannot takes"
     * (issue 20's grammar item; 4b56786 said the latter). */
    assert_non_null(strstr(f->d.msg, "cannot take a free action"));
    assert_null(strstr(f->d.msg, "cannot takes"));
    char buf[128];
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Ana"), buf, sizeof buf);
    assert_non_null(strstr(buf, "actions 1/1, total 2/2"));
    /* Gain Momentum: one more of each (the default setting). */
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "momentum"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "momentum"), ENG_STATE);
    rf_opts(f, "kind", "item", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
    rf_opts(f, "kind", "free", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_STATE);
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Ana"), buf, sizeof buf);
    assert_non_null(strstr(buf, "actions 2/2, total 3/3 (momentum)"));
    rf_opts(f, "kind", "nap", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_INVALID);
    /* A new turn starts fresh. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "Ana");
    rf_opts(f, "kind", "item", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
}

static void test_momentum_setting(void **state)
{
    struct rf *f = *state;
    /* Declared settings: bounds and names are the kit's to check. */
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(rs_settings_apply(&c, &rs_resolve, "momentum=9"),
                     ENG_RANGE);
    c = rf_call(f, RF_GM);
    assert_int_equal(rs_settings_apply(&c, &rs_resolve, "colour=1"),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "momentum, min_dice"));
    c = rf_call(f, RF_GM);
    assert_int_equal(rs_setting_int(f->e, &rs_resolve, "momentum"), 1);
    assert_int_equal(rs_settings_apply(&c, &rs_resolve, "momentum=0"),
                     ENG_OK);
    assert_int_equal(rs_setting_int(f->e, &rs_resolve, "momentum"), 0);
    rf_add(f, "Ana", 10, "init=1");
    assert_int_equal(rf_begin(f), ENG_OK);
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "momentum"), ENG_OK);
    rf_opts(f, "kind", "dash", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "act"), ENG_STATE);
}

static void test_escape_takes_the_turn(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=90");
    rf_add(f, "Goon", 0, "init=1");
    assert_int_equal(rf_begin(f), ENG_OK);
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "move"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "escape"), ENG_STATE);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "Ana");
    assert_int_equal(rf_do(f, 10, "escape"), ENG_OK);
    /* The turn ended with the escape; Ana's turns are skipped from now. */
    assert_string_equal(rf_current(f), "Goon");
    assert_true(rsv_is_out(rf_who(f, "Ana")));
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "Goon");
}

static void test_hold_and_trigger(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=90 attack=3");
    rf_add(f, "Goon", 0, "init=1 defense=1");
    assert_int_equal(rf_begin(f), ENG_OK);
    rf_opts(f, "action", "attack", NULL);
    assert_int_equal(rf_do(f, 10, "hold"), ENG_INVALID);
    rf_opts(f, "action", "attack", "trigger", "the door opens", NULL);
    assert_int_equal(rf_do(f, 10, "hold"), ENG_OK);
    /* Holding ends the turn at once. */
    assert_string_equal(rf_current(f), "Goon");
    /* Not triggered yet: no attack out of turn. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "3D", NULL, NULL),
                     ENG_STATE);
    rf_opts(f, "name", "Ana", NULL);
    assert_int_equal(rf_do(f, 10, "trigger"), ENG_OK);
    assert_int_equal(rf_do(f, 10, "trigger"), ENG_STATE);
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "3D", NULL, NULL),
                     ENG_OK);
    /* Once only. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "3D", NULL, NULL),
                     ENG_STATE);
    /* An untriggered hold lapses at the start of the holder's next turn. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    rf_opts(f, "action", "item", "trigger", "x", NULL);
    assert_int_equal(rf_do(f, 10, "hold"), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "Ana");
    assert_true(rf_said(f, "lapses"));
    rf_opts(f, "name", "Ana", NULL);
    assert_int_equal(rf_do(f, 10, "trigger"), ENG_STATE);
}

/* ---- joining late -------------------------------------------------------- */

static void test_late_join_slots_in(void **state)
{
    struct rf *f = *state;
    rf_four(f);                              /* A 9, B 8, C 7, D 6 */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);          /* B */
    rf_add(f, "E", 0, "init=4");             /* 7: after C, before D */
    rf_add(f, "F", 0, "init=7");             /* 10: already passed */
    assert_true(rf_who(f, "F")->flags & ENC_CF_ACTED);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(f->log,
                        "R:1 T:A T:B T:C T:E T:D R:2 T:F ");
}

static void test_pick_and_unknown_verb(void **state)
{
    struct rf *f = *state;
    rf_four(f);
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(rs_resolve.ops->pick(&c, rf_who(f, "B")), ENG_STATE);
    assert_int_equal(rf_do(f, RF_GM, "combat dance"), ENG_NOTFOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_score_rules),
#define T(fn) cmocka_unit_test_setup_teardown(fn, rf_setup, rf_teardown)
        T(test_begin_seeded_order),
        T(test_begin_needs_someone),
        T(test_init_rank_from_add),
        T(test_delay_moves_turn),
        T(test_delay_refusals),
        T(test_delay_counts_start_once),
        T(test_turn_limits),
        T(test_momentum_setting),
        T(test_escape_takes_the_turn),
        T(test_hold_and_trigger),
        T(test_late_join_slots_in),
        T(test_pick_and_unknown_verb),
#undef T
    };
    return cmocka_run_group_tests_name("rs_resolve", tests, NULL, NULL);
}
