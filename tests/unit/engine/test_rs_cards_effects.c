/* Tests for the cards ruleset's special effects: fear, fire, poison and
 * falling, with the chapter's numbers and through the commands, and the
 * round-start ticks of fire and poison. */
#include "support.h"

#include "test_rs_cards.h"
#include "turn.h"

/* ---- the chapter's rules with exact numbers ------------------------------ */

static void test_fear_rules(void **state)
{
    (void)state;
    /* One die per player character around, at most three. */
    assert_int_equal(cards_fear_allies(0), 0);
    assert_int_equal(cards_fear_allies(2), 2);
    assert_int_equal(cards_fear_allies(5), 3);
    int bonus;
    /* Passing in control gives +1 to a next roll; otherwise nothing. */
    assert_int_equal(cards_fear_harm(CARDS_CONTROLLED, 2, 2, &bonus), 0);
    assert_int_equal(bonus, 1);
    assert_int_equal(cards_fear_harm(CARDS_RISKY, 3, 2, &bonus), 0);
    assert_int_equal(bonus, 0);
    assert_int_equal(cards_fear_harm(CARDS_DESPERATE, 2, 2, &bonus), 0);
    assert_int_equal(bonus, 0);
    /* Failing: 2, 3 or 4 Mental Harm by position. */
    assert_int_equal(cards_fear_harm(CARDS_CONTROLLED, 1, 2, &bonus), 2);
    assert_int_equal(bonus, 0);
    assert_int_equal(cards_fear_harm(CARDS_RISKY, 0, 1, &bonus), 3);
    assert_int_equal(cards_fear_harm(CARDS_DESPERATE, 2, 3, &bonus), 4);
}

static void test_fire_poison_fall_rules(void **state)
{
    (void)state;
    /* Each Endure success takes one point off the fire's damage. */
    assert_int_equal(cards_fire_damage(3, 1), 2);
    assert_int_equal(cards_fire_damage(3, 4), 0);
    /* Poison: win nothing, tie one Harm, lose the Director's successes. */
    assert_int_equal(cards_poison_harm(2, 3), 0);
    assert_int_equal(cards_poison_harm(2, 2), 1);
    assert_int_equal(cards_poison_harm(3, 1), 3);
    assert_int_equal(cards_poison_harm(0, 0), 1);
    /* Falling: from 10 feet, one die per 5 feet; Harm per success beyond
     * the Endure successes. */
    assert_int_equal(cards_fall_dice(5), 0);
    assert_int_equal(cards_fall_dice(9), 0);
    assert_int_equal(cards_fall_dice(10), 2);
    assert_int_equal(cards_fall_dice(25), 5);
    assert_int_equal(cards_fall_harm(3, 1), 2);
    assert_int_equal(cards_fall_harm(1, 2), 0);
}

/* ---- fear ---------------------------------------------------------------- */

/* Ana and three more player characters and an NPC; sure dice (every die a
 * success) when sure. */
static void cf_party(struct cf *f, bool sure)
{
    cf_add(f, "Ana", 10, "endure=1 zone=0");
    cf_add(f, "Bo", 11, "zone=0");
    cf_add(f, "Cy", 12, "zone=1");
    cf_add(f, "Dee", 13, "zone=0");
    cf_add(f, "Orc", 0, "zone=0");
    if (sure)
        cf_sure(f);
}

static void test_fear_counts_player_characters(void **state)
{
    struct cf *f = *state;
    cf_party(f, true);
    /* Dee has Severe Mental Harm and does not count. */
    struct enc_cond_req q = {.name = CARDS_SEVERE};
    assert_int_equal(enc_cond_add(f->e, cf_who(f, "Dee"), &q, f->r, &f->d),
                     ENG_OK);
    /* Out of combat, everybody in the scene: Ana, Bo and Cy, so 1 + 3
     * dice against a Fear value of 5: 3 Mental Harm when risky. */
    cf_opts(f, "name", "Ana", "value", "5", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "fear", 0), 4);
    assert_true(cf_said(f, "Ana: fear 4 against 5: afraid: 3 Mental Harm"));
    assert_int_equal(cf_harm(f, "Ana", CARDS_MENTAL), 3);
    /* The dice of those present are shown as such. */
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_TEST, "fear");
    assert_non_null(ev);
    assert_int_equal(ev->nmods, 1);
    assert_int_equal(ev->mods[0].amount, 3);
    assert_non_null(strstr(ev->mods[0].reason, "player characters"));
    /* In combat only those in Ana's zone: Ana and Bo: 1 + 2. */
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    enc_track(cf_who(f, "Ana"), CARDS_MENTAL)->cur = 0;
    cf_opts(f, "name", "Ana", "value", "2", "position", "desperate", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "fear", 0), 3);
    assert_true(cf_said(f, "keeps control"));
    assert_int_equal(cf_harm(f, "Ana", CARDS_MENTAL), 0);
    /* The GM may say how many are around; at most three count. */
    cf_opts(f, "name", "Ana", "value", "5", "position", "controlled",
            "allies", "6", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "fear", 0), 4);
    assert_int_equal(cf_harm(f, "Ana", CARDS_MENTAL), 2);
}

static void test_fear_controlled_pass_gives_bonus(void **state)
{
    struct cf *f = *state;
    cf_party(f, true);
    cf_opts(f, "name", "Ana", "value", "1", "position", "controlled",
            "allies", "0", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_true(cf_said(f, "keeps control: +1 die on the next roll"));
    assert_int_equal(cf_st(f, "Ana")->next_bonus, 1);
    /* The next test has one die more, once, and says why. */
    cf_opts(f, "name", "Ana", "pool", "2", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "test", 0), 3);
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_TEST, "test");
    assert_string_equal(ev->mods[0].reason, "calm after a fear test");
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "test", 0), 2);
}

static void test_fear_seeded_and_refusals(void **state)
{
    struct cf *f = *state;
    cf_party(f, false);
    eng_rng_seed(&f->rng, 4);
    /* Out of combat: Ana's Endure 1 + four player characters, three of
     * whom count. Seed 4 rolls [2, 6, 3, 6]: two successes against a Fear
     * value of 3, desperate: 4 Mental Harm. */
    cf_opts(f, "name", "Ana", "value", "3", "position", "desperate", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "fear", 0), 4);
    assert_int_equal(cf_succ(f, "fear"), 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_MENTAL), 4);
    cf_opts(f, "name", "Ana", "value", "2", "position", "risky", NULL);
    assert_int_equal(cf_do(f, 10, "fear"), ENG_PERM);
    cf_opts(f, "name", "Ana", "value", "2", "position", "calm", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_INVALID);
    cf_opts(f, "name", "Bo", "value", "1", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_STATE);
}

/* ---- fire ---------------------------------------------------------------- */

/* Ana and an Orc, begun, sure dice; returns in round 1. */
static void cf_pair(struct cf *f, const char *ana)
{
    cf_add(f, "Ana", 10, ana);
    cf_add(f, "Orc", 0, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    cf_sure(f);
}

/* Move on until round n starts; the last call's events are that round's
 * first message. */
static void cf_to_round(struct cf *f, int n)
{
    while (f->e->round < n)
        assert_int_equal(cf_next(f), ENG_OK);
}

static void test_fire_burns_each_round(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=3");
    cf_opts(f, "name", "Ana", "intensity", "3", "need", "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_OK);
    /* Catching fire: one Physical Harm at once. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_BURNING));
    /* Not again in the round it was caught in. */
    assert_int_equal(cf_next(f), ENG_OK);
    if (f->e->round == 1)
        assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    /* Round 2 starts: Endure 3 - 1 Harm = 2 successes: 3 - 2 = 1. */
    cf_to_round(f, 2);
    assert_true(cf_said(f, "Ana: endures the fire 2 against 3: burns: 1 "
                           "Physical Harm"));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
    /* The tick comes after the new round's event. */
    int round_ev = -1, burn_ev = -1;
    for (int i = 0; i < f->r->nev; i++) {
        if (f->r->ev[i].kind == ENC_EV_ROUND)
            round_ev = i;
        char text[512];
        if (strstr(rs_fx_text(&f->fx, &f->r->ev[i], text, sizeof text),
                   "burns") != NULL)
            burn_ev = i;
    }
    assert_true(round_ev >= 0 && burn_ev > round_ev);
    /* Round 3: Endure 3 - 2 = 1 success: 2 Harm. */
    cf_to_round(f, 3);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 4);
}

static void test_extinguish_saves_successes(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=0 finesse=2");
    cf_opts(f, "name", "Ana", "intensity", "1", "need", "3", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_OK);
    /* A burning character only puts it out, flees or shouts. */
    while (strcmp(cf_current(f), "Ana") != 0)
        assert_int_equal(cf_next(f), ENG_OK);
    int64_t harm = cf_harm(f, "Ana", CARDS_HARM);
    /* Finesse 2 less the Harm: the successes add up across turns. */
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "extinguish"), ENG_OK);
    int64_t saved = 2 - harm;
    assert_int_equal(cf_st(f, "Ana")->fire_saved, saved);
    assert_true(cf_said(f, ": still burning"));
    /* A slow maneuver: once a turn. */
    assert_int_equal(cf_do(f, 10, "extinguish"), ENG_STATE);
    assert_int_equal(cf_next(f), ENG_OK);
    while (strcmp(cf_current(f), "Ana") != 0)
        assert_int_equal(cf_next(f), ENG_OK);
    harm = cf_harm(f, "Ana", CARDS_HARM);
    cf_opts(f, "name", "Ana", "pool", "5", NULL);
    assert_int_equal(cf_do(f, 10, "extinguish"), ENG_OK);
    assert_true(saved + 5 - harm >= 3);
    assert_true(cf_said(f, "the fire is out"));
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_BURNING));
    assert_int_equal(cf_st(f, "Ana")->fire_saved, 0);
    assert_int_equal(cf_do(f, 10, "extinguish"), ENG_STATE);
}

static void test_fire_commands(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=1");
    cf_opts(f, "name", "Ana", "intensity", "2", NULL);
    assert_int_equal(cf_do(f, 10, "hazard fire"), ENG_PERM);
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "intensity", "21", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_RANGE);
    cf_opts(f, "name", "Ana", "out", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_STATE);
    cf_opts(f, "name", "Ana", "intensity", "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_OK);
    /* A stronger fire: no new Harm for catching it. */
    cf_opts(f, "name", "Ana", "intensity", "4", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    assert_int_equal(enc_cond_find(cf_who(f, "Ana"), CARDS_BURNING)->value,
                     4);
    cf_opts(f, "name", "Ana", "out", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fire"), ENG_OK);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_BURNING));
    cf_to_round(f, 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
}

/* The GM's /combat condition takes the same path as the rules: a fire
 * given by hand hurts at once and burns each round; Fled puts out of the
 * fight. */
static void test_conditions_by_hand_take_hold(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=0");
    struct rs_call c = cf_call(f, CF_GM);
    struct rs_cond_give q = {.name = "burning", .value = 2,
                             .value_given = true, .rounds = -1};
    assert_int_equal(rs_cond_give(&c, &rs_cards, cf_who(f, "Ana"), &q,
                                  false), ENG_OK);
    /* The declared spelling, and catching fire's Harm. */
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_BURNING));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    assert_true(cf_said(f, "Ana catches fire (intensity 2)"));
    cf_to_round(f, 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 3);
    /* Taking the condition away puts the fire out. */
    assert_int_equal(enc_cond_remove(f->e, cf_who(f, "Ana"), CARDS_BURNING,
                                     f->r, &f->d), ENG_OK);
    cf_to_round(f, 3);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 3);
    /* A misspelt condition gets a suggestion. */
    c = cf_call(f, CF_GM);
    q = (struct rs_cond_give){.name = "Severe", .rounds = -1};
    assert_int_equal(rs_cond_give(&c, &rs_cards, cf_who(f, "Ana"), &q,
                                  false), ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "Severe Mental Harm"));
    /* Fled: out of the fight at once. */
    c = cf_call(f, CF_GM);
    q = (struct rs_cond_give){.name = "fled", .rounds = -1};
    assert_int_equal(rs_cond_give(&c, &rs_cards, cf_who(f, "Orc"), &q,
                                  false), ENG_OK);
    assert_true(cf_who(f, "Orc")->flags & ENC_CF_DOWN);
}

/* ---- poison -------------------------------------------------------------- */

static void test_poison_wanes_each_round(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=1");
    cf_opts(f, "name", "Ana", "toxicity", "4", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    /* 4 against 1: four Harm, then 3, 2, 1 in the rounds after. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 4);
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_POISONED));
    cf_to_round(f, 2);
    assert_true(cf_said(f, "The poison works in Ana: 3 Harm."));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 7);
    cf_to_round(f, 3);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 9);
    cf_to_round(f, 4);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 10);
    assert_true(cf_said(f, "run its course"));
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_POISONED));
    cf_to_round(f, 5);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 10);
}

static void test_poison_tie_win_and_antidote(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=2");
    /* A tie: one Harm, nothing later. */
    cf_opts(f, "name", "Ana", "toxicity", "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_POISONED));
    /* pool:3 less 1 Harm = 2 against toxicity 1: resisted. */
    cf_opts(f, "name", "Ana", "toxicity", "1", "pool", "3", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    assert_true(cf_said(f, "resists the poison"));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    /* An antidote cancels what is left. */
    cf_opts(f, "name", "Ana", "toxicity", "5", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 6);
    cf_opts(f, "name", "Ana", "antidote", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_POISONED));
    cf_to_round(f, 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 6);
    cf_opts(f, "name", "Ana", "antidote", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_STATE);
    cf_opts(f, "name", "Ana", "antidote", "true", "toxicity", "3", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_INVALID);
    /* The GM taking Poisoned away ends the poison too. */
    cf_opts(f, "name", "Ana", "toxicity", "5", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    int64_t now = cf_harm(f, "Ana", CARDS_HARM);
    assert_int_equal(enc_cond_remove(f->e, cf_who(f, "Ana"), CARDS_POISONED,
                                     f->r, &f->d), ENG_OK);
    cf_to_round(f, 3);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), now);
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "toxicity", "3", NULL);
    assert_int_equal(cf_do(f, 10, "hazard poison"), ENG_PERM);
}

static void test_poison_seeded(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "endure=2");
    eng_rng_seed(&f->rng, 4);
    cf_opts(f, "name", "Ana", "toxicity", "4", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    /* Seed 4: the toxicity's [2, 6, 3, 6] (2) against Endure [2, 4] (0):
     * two Harm. */
    assert_int_equal(cf_succ(f, "toxicity"), 2);
    assert_int_equal(cf_succ(f, "endure"), 0);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
    assert_int_equal(cf_st(f, "Ana")->poison_left, 1);
}

/* ---- falling ------------------------------------------------------------- */

static void test_falling(void **state)
{
    struct cf *f = *state;
    cf_pair(f, "endure=1");
    cf_opts(f, "name", "Ana", "feet", "20", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_OK);
    /* Four dice (20 feet) against one: three Harm. */
    assert_true(cf_said(f, "Ana: endures the fall 1 against 4: 3 Physical "
                           "Harm"));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 3);
    cf_opts(f, "name", "Ana", "feet", "8", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_OK);
    assert_true(cf_said(f, "less than 10 feet"));
    assert_int_equal(f->r->nrolls, 0);
    cf_opts(f, "name", "Ana", "feet", "30", "soft", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_OK);
    cf_opts(f, "name", "Ana", "feet", "30", "soft", "true", "pool", "3",
            NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_INVALID);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 3);
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "feet", "20", NULL);
    assert_int_equal(cf_do(f, 10, "hazard fall"), ENG_PERM);
}

static void test_falling_seeded(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "endure=2");
    eng_rng_seed(&f->rng, 4);
    cf_opts(f, "name", "Ana", "feet", "20", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_OK);
    /* Seed 4: the fall's [2, 6, 3, 6] against Endure [2, 4]: 2 Harm. */
    assert_int_equal(cf_succ(f, "fall"), 2);
    assert_int_equal(cf_succ(f, "endure"), 0);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
}

static void test_ended_fight_refuses(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "endure=2");
    f->e->status = ENC_ST_ENDED;
    cf_opts(f, "name", "Ana", "feet", "20", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_STATE);
    f->e->status = ENC_ST_SETUP;
    cf_opts(f, "name", "Ana", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, cf_setup, cf_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_fear_rules),
        T(test_fire_poison_fall_rules),
        T(test_fear_counts_player_characters),
        T(test_fear_controlled_pass_gives_bonus),
        T(test_fear_seeded_and_refusals),
        T(test_fire_burns_each_round),
        T(test_extinguish_saves_successes),
        T(test_fire_commands),
        T(test_conditions_by_hand_take_hold),
        T(test_poison_wanes_each_round),
        T(test_poison_tie_win_and_antidote),
        T(test_poison_seeded),
        T(test_falling),
        T(test_falling_seeded),
        T(test_ended_fight_refuses),
    };
    return cmocka_run_group_tests_name("rs_cards_effects", tests, NULL,
                                       NULL);
}
