/* Tests for the factions ruleset: the turn structure (alternation, passes,
 * automatic passes, fast and slow phases, the ambush bonus turn), the
 * chapter's fast/slow example, and fights: saves, attacks, reactions,
 * counters, morale. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "rs_factions.h"
#include "test_rs_factions.h"
#include "turn.h"

/* ---- the chapter's example -------------------------------------------- */

/* Seed 23 draws a 9 for round 1's fast action threshold: the first roll of
 * the fight (the Players hold the initiative, so no faction is drawn). */
enum { EXAMPLE_SEED = 23 };

/* Balthasar (WIT 12), Sybilla (6), Theobald (9) against two bandits (8) and
 * their leader (10); the Players have the initiative; the threshold is 9.
 * Fast: Theobald, then the leader; the Players pass though Balthasar could
 * act; a bandit dodges Theobald's attack out of turn. Slow: Sybilla, the
 * bandit who did not dodge, Balthasar. */
static void test_example_fast_and_slow(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, EXAMPLE_SEED);
    assert_int_equal(fx_begin(f, "Players"), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);
    assert_string_equal(f->r->rolls[0].label, "fast action threshold");
    assert_string_equal(rs_fx_detail(&f->r->rolls[0]), "[9]");
    assert_int_equal(FAC_E(f->e)->fat, 9);
    assert_int_equal(f->e->phase, FAC_PH_FAST);
    assert_string_equal(fx_acting(f), "Players");

    /* Sybilla's WIT 6 is below 9: not in the fast phase. */
    assert_int_equal(fx_pick(f, "Sybilla"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Theobald"), ENG_OK);
    /* Theobald attacks Bandit 1, who dodges although it could not act in
     * this phase (WIT 8 < 9); AGI 20 always passes. */
    assert_int_equal(fx_attack(f, "Theobald", "Bandit 1", "1d6",
                               "react=dodge"), ENG_OK);
    assert_true(fx_who(f, "Bandit 1")->flags & ENC_CF_ACTED);
    assert_int_equal(f->e->current, fx_who(f, "Theobald")->id);
    assert_int_equal(fx_next(f), ENG_OK);

    assert_string_equal(fx_acting(f), "Bandits");
    assert_int_equal(fx_pick(f, "Bandit 2"), ENG_STATE);  /* WIT 8 */
    assert_int_equal(fx_pick(f, "Leader"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);

    assert_string_equal(fx_acting(f), "Players");
    assert_int_equal(fx_pass(f), ENG_OK);  /* Balthasar could act */
    /* The bandits have nobody fast left: they pass on their own, and with
     * both factions passing in a row the slow phase opens. */
    assert_true(fx_has_text(f, "Bandits: pass (nobody left to act)"));
    assert_int_equal(f->e->phase, FAC_PH_SLOW);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Players");

    assert_int_equal(fx_pick(f, "Sybilla"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Bandits");
    assert_int_equal(fx_pick(f, "Bandit 1"), ENG_STATE); /* it dodged */
    assert_int_equal(fx_pick(f, "Leader"), ENG_STATE);   /* it acted */
    assert_int_equal(fx_pick(f, "Bandit 2"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Players");
    assert_int_equal(fx_pick(f, "Balthasar"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Nobody is left: both factions pass automatically, round 2 opens. */
    assert_int_equal(f->e->round, 2);

    assert_string_equal(f->log, "R:1 T:Theobald T:Bandit 1 T:Leader "
                        "T:Sybilla "
                        "T:Bandit 2 T:Balthasar R:2 ");
}

/* The GM may give the threshold rolled at the table. */
static void test_fat_set_by_gm(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, 11);
    assert_int_equal(fx_begin(f, "Players"), ENG_OK);
    fx_opts(f, "value", "12", NULL, NULL);
    assert_int_equal(fx_action(f, "threshold", false, 5), ENG_PERM);
    fx_opts(f, "value", "12", NULL, NULL);
    assert_int_equal(fx_action(f, "threshold", true, 1), ENG_OK);
    assert_int_equal(FAC_E(f->e)->fat, 12);
    assert_int_equal(f->e->phase, FAC_PH_FAST);
    /* Only Balthasar (12) is fast; the bandits pass on their own. */
    assert_int_equal(fx_pick(f, "Theobald"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Balthasar"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->phase, FAC_PH_SLOW);
    assert_string_equal(fx_acting(f), "Players");
    /* Someone took a turn this round: too late to change it. */
    fx_opts(f, "value", "3", NULL, NULL);
    assert_int_equal(fx_action(f, "threshold", true, 1), ENG_STATE);
}

/* Each round rolls a new threshold openly; a seed shows which. */
static void test_fat_rolled_each_round(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, 5);
    assert_int_equal(fx_begin(f, "Bandits"), ENG_OK);
    int64_t fat = f->r->rolls[0].total;
    assert_int_equal(FAC_E(f->e)->fat, fat);
    assert_true(fat >= 1 && fat <= 20);
    /* Everyone passes (manually or automatically) through both phases. */
    for (int i = 0; i < 8 && f->e->round == 1; i++)
        assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    int last = f->r->nrolls - 1;
    assert_string_equal(f->r->rolls[last].label, "fast action threshold");
    int64_t fat2 = f->r->rolls[last].total;
    assert_int_equal(FAC_E(f->e)->fat, fat2);
    /* Nobody has WIT above 12: a higher threshold leaves the fast phase
     * empty, every faction passes on its own and the slow phase opens. */
    assert_int_equal(f->e->phase, fat2 > 12 ? FAC_PH_SLOW : FAC_PH_FAST);
}

/* ---- alternation and passes --------------------------------------------- */

static void fx_two_sides(struct fx *f)
{
    fx_add(f, "Ann", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Ben", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    fx_add(f, "Dan", "Blue", "wit=10 hp=5", 0);
}

static void test_round_ends_when_all_pass_in_a_row(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pass(f), ENG_OK);          /* Red passes */
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);   /* breaks the chain */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pass(f), ENG_OK);          /* 1 in a row */
    assert_int_equal(f->e->round, 1);
    /* Red's earlier pass forfeits nothing: Blue passing hands it back. */
    assert_int_equal(fx_pass(f), ENG_OK);          /* 2 in a row: ends */
    assert_int_equal(f->e->round, 2);
    assert_true(fx_has_text(f, "Round 1 ends"));
    /* New round: everyone may act again; the holder decides first. */
    assert_string_equal(fx_acting(f), "Red");
    assert_false(fx_who(f, "Cat")->flags & ENC_CF_ACTED);
}

static void test_pass_does_not_forfeit_later_turns(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);           /* Red */
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);    /* Blue */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);    /* Red after passing */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(f->log, "R:1 T:Cat T:Ann ");
}

static void test_automatic_pass(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Solo", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    fx_add(f, "Dan", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Solo"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Red has nobody left: it passes on its own, Blue decides again. */
    assert_true(fx_has_text(f, "Red: pass (nobody left to act)"));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(FAC_E(f->e)->passes, 1);
    assert_int_equal(fx_pick(f, "Dan"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Both have nobody: two automatic passes end the round. */
    assert_int_equal(f->e->round, 2);
    assert_string_equal(f->log, "R:1 T:Solo T:Cat T:Dan R:2 ");
}

static void test_three_factions_need_three_passes(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    fx_add(f, "Gus", "Green", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Green");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(f->e->round, 1);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
}

static void test_pick_and_pass_are_checked(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 42);
    fx_add(f, "Ben", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ann")), ENG_STATE);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_STATE);     /* not Blue's go */
    assert_string_equal(f->d.msg,
                        "the decision is with Red now, not with Blue");
    assert_int_equal(fx_next(f), ENG_STATE);            /* nobody's turn */
    /* A player may pick their own character, not the GM's. */
    c = fx_call(f, false, 42);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ben")), ENG_PERM);
    c = fx_call(f, false, 7);
    assert_int_equal(rs_factions.ops->pass(&c), ENG_PERM);
    c = fx_call(f, false, 42);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ann")), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_STATE);            /* turn running */
    assert_int_equal(fx_pick(f, "Ben"), ENG_STATE);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);               /* Blue */
    assert_int_equal(fx_pick(f, "Ann"), ENG_STATE);     /* acted */
}

static void test_down_characters_pass_automatically(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    fx_who(f, "Cat")->flags |= ENC_CF_DOWN;
    fx_who(f, "Dan")->flags |= ENC_CF_DOWN;
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    /* Blue holds the initiative but nobody there can act. */
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pick(f, "Ben"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    /* If nobody at all can act, the fight waits instead of spinning. */
    fx_who(f, "Ann")->flags |= ENC_CF_DOWN;
    fx_who(f, "Ben")->flags |= ENC_CF_DOWN;
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_true(fx_has_text(f, "Nobody is able to act"));
    assert_int_equal(f->e->acting_side, -1);
    assert_int_equal(fx_pass(f), ENG_STATE);
}

static void test_holder_drawn_at_random(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    eng_rng_seed(&f->rng, 99);
    assert_int_equal(fx_begin(f, NULL), ENG_OK);
    assert_string_equal(f->r->rolls[0].label,
                        "faction holding the initiative");
    /* 1 is the first side made (Red), 2 the second (Blue). */
    const char *want = f->r->rolls[0].total == 1 ? "Red" : "Blue";
    assert_true(f->r->rolls[0].total == 1 || f->r->rolls[0].total == 2);
    assert_string_equal(fx_acting(f), want);
    assert_int_equal(FAC_E(f->e)->holder, f->r->rolls[0].total - 1);
}

static void test_holder_chooses_first_faction(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 42);
    fx_add(f, "Cat", "Blue", "hp=5", 43);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "first", false, 43), ENG_PERM);
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "first", false, 42), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    fx_opts(f, "side", "Red", NULL, NULL);
    assert_int_equal(fx_action(f, "first", true, 1), ENG_STATE);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Next round the holder (Red) starts again unless it chooses. */
    assert_int_equal(f->e->round, 2);
    assert_string_equal(fx_acting(f), "Red");
    /* A pass already made in the phase cannot be undone by choosing. */
    assert_int_equal(fx_pass(f), ENG_OK);
    fx_opts(f, "side", "Red", NULL, NULL);
    assert_int_equal(fx_action(f, "first", true, 1), ENG_STATE);
}

static void test_ambush_bonus_turn(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    fx_opts(f, "first", "Blue", "surprise", "Cat");
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->begin(&c), ENG_OK);
    fx_log(f);
    f->nopts = 0;
    assert_int_equal(f->e->phase, FAC_PH_AMBUSH);
    assert_int_equal(f->e->round, 0);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_CONCEALED));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Dan"), ENG_STATE);   /* not concealed */
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Red has no ambusher, nor has Blue now: round 1 begins, and Cat may
     * act again in it. */
    assert_int_equal(f->e->round, 1);
    assert_int_equal(f->e->phase, FAC_PH_ROUND);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_string_equal(f->log, "T:Cat R:1 T:Cat ");
}

/* surprise: may name a whole faction. */
static void test_ambush_by_faction(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    fx_opts(f, "first", "Red", "surprise", "Blue, Cat");
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->begin(&c), ENG_OK);
    f->nopts = 0;
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_CONCEALED));
    assert_non_null(enc_cond_find(fx_who(f, "Dan"), FAC_COND_CONCEALED));
    assert_null(enc_cond_find(fx_who(f, "Ann"), FAC_COND_CONCEALED));
    /* Red holds the initiative but has no ambusher: it passes on its own. */
    assert_true(fx_has_text(f, "Red: pass (nobody left to act)"));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Dan"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->phase, FAC_PH_AMBUSH);  /* Cat may still go */
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Red");
}

static void test_begin_is_checked(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 0);
    assert_int_equal(fx_begin(f, NULL), ENG_STATE);     /* one faction */
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Green"), ENG_NOTFOUND);
    fx_opts(f, "surprise", "Ann, Nobody", NULL, NULL);
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->begin(&c), ENG_NOTFOUND);
    assert_int_equal(f->e->status, ENC_ST_SETUP);
    assert_int_equal(fx_who(f, "Ann")->nconds, 0);
}

static void test_settings_and_stats(void **state)
{
    struct fx *f = *state;
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "phases=maybe"),
                     ENG_INVALID);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "save=under"),
                     ENG_INVALID);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "impaired=1d"),
                     ENG_SYNTAX);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "colour=red"),
                     ENG_INVALID);
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "impaired=1d3"),
                     ENG_OK);
    assert_string_equal(rs_setting_text(f->e, &rs_factions, "impaired"),
                        "1d3");
    assert_int_equal(rs_settings_apply(&c, &rs_factions, "phases=on"),
                     ENG_OK);
    /* With phases on, a combatant needs a wit score. */
    int s = enc_side_get(f->e, "Red", &f->d);
    uint32_t id;
    assert_int_equal(enc_add(f->e, "Ann", 1, 0, s, &f->d, &id), ENG_OK);
    struct enc_combatant *w = enc_by_id(f->e, id);
    assert_int_equal(rs_factions.ops->setup(&c, w), ENG_INVALID);
    assert_int_equal(enc_stat_set(w, "wit", 10, &f->d), ENG_OK);
    assert_int_equal(rs_factions.ops->setup(&c, w), ENG_OK);
    /* The declared stats and their bounds; a misspelt one is refused. */
    assert_int_equal(rs_stat_check(&c, &rs_factions, w, "wit", 31),
                     ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_factions, w, "armour", 21),
                     ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_factions, w, "agi", 14), ENG_OK);
    assert_int_equal(rs_stat_check(&c, &rs_factions, w, "agl", 14),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "did you mean agi"));
    assert_int_equal(rs_action(&rs_factions, &c, "dance"), ENG_NOTFOUND);
}

/* ---- pure rules --------------------------------------------------------- */

static void test_rule_fast(void **state)
{
    (void)state;
    assert_true(fac_rule_fast(9, 9));    /* matches */
    assert_true(fac_rule_fast(12, 9));
    assert_false(fac_rule_fast(8, 9));
    assert_false(fac_rule_fast(6, 9));
}


/* ---- saves and attacks -------------------------------------------------- */

/* A save with a score of 20 always passes and one of 0 always fails
 * (1d20 <= score), so these fights do not depend on the seed. */

/* Ann and Ben (Red) against Cat and Dan (Blue), Red deciding. */
static void fx_duel(struct fx *f, const char *ann, const char *cat)
{
    fx_add(f, "Ann", "Red", ann, 0);
    fx_add(f, "Ben", "Red", "str=10 agi=20 wit=10 hp=10", 0);
    fx_add(f, "Cat", "Blue", cat, 0);
    fx_add(f, "Dan", "Blue", "str=10 agi=10 wit=10 hp=10", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
}

static void test_rule_save(void **state)
{
    (void)state;
    assert_true(fac_rule_save(12, 12, false));   /* equal passes */
    assert_true(fac_rule_save(1, 12, false));
    assert_false(fac_rule_save(13, 12, false));
    assert_false(fac_rule_save(12, 12, true));   /* save=below */
    assert_true(fac_rule_save(11, 12, true));
}

static void test_rule_hit(void **state)
{
    (void)state;
    static const struct {
        unsigned how;
        enum eng_err err;
        bool need;
    } cases[] = {
        {FAC_AT_MELEE, ENG_OK, false},
        {FAC_AT_MELEE | FAC_AT_UNSEEN, ENG_OK, true},
        {FAC_AT_MELEE | FAC_AT_CHALLENGING, ENG_OK, true},
        {FAC_AT_RANGED, ENG_OK, false},
        {FAC_AT_RANGED | FAC_AT_FAR, ENG_OK, true},
        {FAC_AT_RANGED | FAC_AT_MOVING, ENG_OK, true},
        {FAC_AT_RANGED | FAC_AT_CHALLENGING, ENG_OK, true},
        {FAC_AT_RANGED | FAC_AT_FAR | FAC_AT_MOVING, ENG_STATE, true},
        {FAC_AT_RANGED | FAC_AT_UNSEEN, ENG_STATE, false},
        {FAC_AT_INDIRECT | FAC_AT_FAR, ENG_OK, true},
        {FAC_AT_INDIRECT | FAC_AT_FAR | FAC_AT_UNSEEN, ENG_OK, true},
        {FAC_AT_INDIRECT, ENG_STATE, true},
        {FAC_AT_INDIRECT | FAC_AT_FAR | FAC_AT_MOVING, ENG_STATE, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool need = !cases[i].need;
        const char *why;
        assert_int_equal(fac_rule_hit(cases[i].how, &need, &why),
                         cases[i].err);
        if (cases[i].err == ENG_OK)
            assert_int_equal(need, cases[i].need);
        else
            assert_non_null(why);
    }
}

static void test_rule_damage_and_counter(void **state)
{
    (void)state;
    assert_int_equal(fac_rule_damage(5, 2, false, false), 3);
    assert_int_equal(fac_rule_damage(5, 2, true, false), 2);   /* cover */
    assert_int_equal(fac_rule_damage(5, 2, true, true), 3);    /* pierces */
    assert_int_equal(fac_rule_damage(2, 3, false, false), 0);
    assert_int_equal(fac_rule_counter(4, 4), FAC_FIRST_BOTH);
    assert_int_equal(fac_rule_counter(0, 0), FAC_FIRST_BOTH);
    assert_int_equal(fac_rule_counter(5, 4), FAC_FIRST_TARGET);
    assert_int_equal(fac_rule_counter(1, 4), FAC_FIRST_ATTACKER);
}

static void test_rule_morale_thresholds(void **state)
{
    (void)state;
    assert_true(fac_rule_morale_group(4, 2));    /* exactly half */
    assert_false(fac_rule_morale_group(4, 3));
    assert_false(fac_rule_morale_group(3, 2));   /* 2 of 3 is more */
    assert_true(fac_rule_morale_group(3, 1));
    assert_false(fac_rule_morale_group(1, 0));   /* alone: the hp rule */
    assert_true(fac_rule_morale_lone(4, 8));     /* exactly half */
    assert_false(fac_rule_morale_lone(5, 8));
    assert_true(fac_rule_morale_lone(3, 7));
    assert_false(fac_rule_morale_lone(4, 7));
    assert_false(fac_rule_morale_lone(0, 0));    /* no maximum known */
}

static void test_attack_hits_automatically(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10",
            "str=10 agi=10 wit=10 hp=10 armour=1");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", NULL), ENG_OK);
    /* No save to hit: the only roll is the damage; armour 1 takes 1. */
    assert_int_equal(f->r->nrolls, 1);
    assert_int_equal(fx_hp(f, "Cat"), 6);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "cover"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 3);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "cover penetrates"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), -1);
    assert_true(fx_who(f, "Cat")->flags & ENC_CF_DOWN);
    /* Armed attacks need the weapon's dice. */
    assert_int_equal(fx_attack(f, "Ann", "Dan", NULL, NULL), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "5", "sideways"),
                     ENG_INVALID);
    struct rs_call c = fx_call(f, true, 1);
    struct rs_attack a = {.attacker = fx_who(f, "Ann"),
                          .target = fx_who(f, "Dan"), .roll = "1d20",
                          .damage = "5"};
    assert_int_equal(rs_factions.ops->attack(&c, &a), ENG_INVALID);
    assert_int_equal(fx_hp(f, "Dan"), 10);
}

static void test_impaired_damage(void **state)
{
    struct fx *f = *state;
    fx_setting(f, "impaired", "2");   /* a fixed impaired die, for the test */
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "unarmed"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 8);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "9", "impaired"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 6);
    struct enc_cond_req q = {.name = FAC_COND_CONCEALED};
    assert_int_equal(enc_cond_add(f->e, fx_who(f, "Cat"), &q, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "9", NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 4);   /* concealment impairs */
    /* Without the setting the impaired die is 1d4. */
    enc_setting_set(f->e, "impaired", "1d4", &f->d);
    assert_int_equal(fx_attack(f, "Ann", "Dan", NULL, "unarmed"), ENG_OK);
    assert_string_equal(f->r->rolls[0].label, "damage (impaired)");
    assert_int_equal(fx_hp(f, "Dan"), 10 - f->r->rolls[0].total);
}

static void test_wit_save_to_hit(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=0 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "ranged far moving"),
                     ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "ranged unseen"),
                     ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "indirect"), ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "melee ranged"),
                     ENG_INVALID);
    /* WIT 0 always fails: the attack misses, no damage, and the dodge the
     * target chose is not needed, so its turn is not spent. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "ranged far "
                               "react=dodge"), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);
    assert_string_equal(f->r->rolls[0].label, "WIT save");
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_false(fx_acted(f, "Cat"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "unseen"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 10);
    fx_who(f, "Ann")->stats[2].value = 20;   /* wit 20 always passes */
    assert_string_equal(fx_who(f, "Ann")->stats[2].name, "wit");
    /* The save passes: the attack stands and waits for Cat's answer. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "indirect far"), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);
    assert_true(fx_has_text(f, "The attack on Cat stands"));
    assert_int_equal(fx_hp(f, "Cat"), 10);
    /* Ann's next command finishes it as if Cat did not react. */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_true(fx_has_text(f, "Cat does not react"));
    assert_int_equal(fx_hp(f, "Cat"), 5);
    assert_int_equal(FAC_E(f->e)->pend_att, 0);
}

static void test_dodge(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=20 wit=10 hp=10");
    /* AGI 20 passes: the attack misses; the dodge spends Cat's turn. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "react=dodge"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_true(fx_acted(f, "Cat"));
    assert_int_equal(f->e->current, fx_who(f, "Ann")->id);
    /* Once the turn is spent there is no second reaction: the attack
     * lands without it, and the reply says why. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "dodge"), ENG_OK);
    assert_true(fx_has_text(f, "Cat cannot dodge (already took a turn this "
                            "round)"));
    assert_int_equal(fx_hp(f, "Cat"), 5);
    fx_who(f, "Dan")->stats[1].value = 0;    /* agi 0 always fails */
    assert_int_equal(fx_attack(f, "Ann", "Dan", "5", "dodge"), ENG_OK);
    assert_int_equal(fx_hp(f, "Dan"), 5);
    assert_true(fx_acted(f, "Dan"));
    /* Blue has nobody left for the round. */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_true(fx_has_text(f, "Blue: pass (nobody left to act)"));
    assert_string_equal(fx_acting(f), "Red");
}

static void test_counter(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=5");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "react=counter"),
                     ENG_INVALID);             /* the counter's dice? */
    /* A tie: both are hit at the same time. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "counter=3"), ENG_OK);
    assert_true(fx_has_text(f, "both are hit at once"));
    assert_int_equal(fx_hp(f, "Ann"), 7);
    assert_int_equal(fx_hp(f, "Cat"), 2);
    assert_true(fx_acted(f, "Cat"));
    /* The attacker suffers more: hit first, still standing, then hits. */
    assert_int_equal(fx_attack(f, "Ann", "Dan", "2", "counter=4"), ENG_OK);
    assert_true(fx_has_text(f, "the attacker is hit first"));
    assert_int_equal(fx_hp(f, "Ann"), 3);
    assert_int_equal(fx_hp(f, "Dan"), 8);
}

static void test_counter_first_hit_fells(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=5");
    /* Cat suffers 6 and Ann 2: Cat is hit first and falls before her
     * counter lands. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "react=counter "
                               "counter=2"), ENG_OK);
    assert_true(fx_has_text(f, "the target is hit first"));
    assert_true(fx_has_text(f, "Cat falls before the counter lands"));
    assert_int_equal(fx_hp(f, "Cat"), -1);
    assert_int_equal(fx_hp(f, "Ann"), 10);
}

static void test_counter_against_nonlethal(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=0 agi=10 wit=10 hp=10");
    /* A grapple inflicts no damage: it is resolved after the counter. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "grapple counter=4"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Ann"), 6);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_GRABBED));
    assert_int_equal(fx_hp(f, "Cat"), 10);
}

static void test_disarm_and_grapple_saves(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=20 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "disarm"), ENG_OK);
    assert_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_DISARMED));
    fx_who(f, "Dan")->stats[0].value = 0;
    assert_int_equal(fx_attack(f, "Ann", "Dan", NULL, "disarm"), ENG_OK);
    assert_non_null(enc_cond_find(fx_who(f, "Dan"), FAC_COND_DISARMED));
    assert_int_equal(fx_attack(f, "Ann", "Dan", NULL, "disarm ranged"),
                     ENG_STATE);
}

static void test_guard_and_hide(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_pass(f), ENG_STATE);   /* Ann's turn runs */
    /* Dan guards Cat: he becomes the target and spends his turn; a guard
     * cannot also dodge, so the dodge is left out. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "guard=Dan dodge"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Dan cannot dodge (a guard has spent the "
                            "reaction)"));
    assert_int_equal(fx_hp(f, "Dan"), 6);
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_true(fx_acted(f, "Dan"));
    assert_false(fx_acted(f, "Cat"));
    /* Dan has acted: he cannot guard again, and Cat is hit. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "guard=Dan"), ENG_OK);
    assert_true(fx_has_text(f, "Dan cannot guard"));
    assert_int_equal(fx_hp(f, "Dan"), 6);
    assert_int_equal(fx_hp(f, "Cat"), 6);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Ben's turn: Dan and Cat have acted, so Cat cannot hide now. */
    assert_int_equal(fx_pick(f, "Ben"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ben", "Cat", "4", "hide=Dan"), ENG_OK);
    assert_true(fx_has_text(f, "Cat cannot hide (already took a turn"));
    assert_int_equal(fx_hp(f, "Cat"), 2);
    assert_int_equal(fx_attack(f, "Ben", "Cat", "4", "hide=Nobody"),
                     ENG_NOTFOUND);
}

static void test_hide_behind_then_dodge(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=10", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=10 wit=10 hp=10", 0);
    fx_add(f, "Dan Two", "Blue", "str=10 agi=20 wit=10 hp=10", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    /* Cat hides behind Dan Two (her reaction); he may react in turn. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4",
                               "hide=\"Dan Two\" react=dodge"), ENG_OK);
    assert_true(fx_acted(f, "Cat"));
    assert_true(fx_acted(f, "Dan Two"));
    assert_int_equal(fx_hp(f, "Dan Two"), 10);  /* AGI 20 dodges */
    assert_int_equal(fx_hp(f, "Cat"), 10);
}

static void test_surprise_and_opportunity(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=20 wit=10 hp=10");
    struct enc_cond_req q = {.name = FAC_COND_CONCEALED};
    assert_int_equal(enc_cond_add(f->e, fx_who(f, "Ann"), &q, f->r, &f->d),
                     ENG_OK);
    /* A concealed attacker takes the target by surprise: no reaction,
     * but the attack lands and reveals Ann. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "dodge"), ENG_OK);
    assert_true(fx_has_text(f, "Cat cannot dodge (taken by surprise)"));
    assert_false(fx_acted(f, "Cat"));
    assert_int_equal(fx_hp(f, "Cat"), 7);
    assert_null(enc_cond_find(fx_who(f, "Ann"), FAC_COND_CONCEALED));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "unaware dodge"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Cat cannot dodge (unaware of the "
                            "attacker)"));
    assert_int_equal(fx_hp(f, "Cat"), 4);
    /* Dan's opportunity attack on Ann spends his turn; it cannot be
     * reacted to. */
    assert_int_equal(fx_attack(f, "Dan", "Ann", "2", "opportunity dodge"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Ann cannot dodge (an opportunity attack "
                            "cannot be reacted to)"));
    assert_true(fx_acted(f, "Dan"));
    assert_int_equal(fx_hp(f, "Ann"), 8);
    assert_int_equal(f->e->current, fx_who(f, "Ann")->id);
    assert_int_equal(fx_attack(f, "Dan", "Ann", "2", "opportunity"),
                     ENG_STATE);
}

static void test_final_blow(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=2");
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "final"), ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", NULL), ENG_OK);
    assert_true(fx_who(f, "Cat")->flags & ENC_CF_DOWN);
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "final ranged"),
                     ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "final"), ENG_OK);
    assert_true(fx_who(f, "Cat")->flags & ENC_CF_DEAD);
}

static void test_blast(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "wit=0 zone=1 hp=10", 0);
    fx_add(f, "Ben", "Red", "wit=10 zone=1 hp=10", 0);
    fx_add(f, "Cat", "Blue", "wit=10 zone=1 hp=10 armour=1", 0);
    fx_add(f, "Dan", "Blue", "wit=10 zone=4 hp=10", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    /* A melee blast hits Ann's zone, not Ann. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "blast"), ENG_OK);
    assert_int_equal(fx_hp(f, "Ann"), 10);
    assert_int_equal(fx_hp(f, "Ben"), 7);
    assert_int_equal(fx_hp(f, "Cat"), 8);
    assert_int_equal(fx_hp(f, "Dan"), 10);
    /* A ranged blast beyond half range with WIT 0 misses zone 1 and
     * deviates into its only listed neighbour, zone 4. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "blast ranged far "
                               "zone=1 neighbours=4"), ENG_OK);
    assert_true(fx_has_text(f, "The blast deviates into zone 4"));
    assert_int_equal(fx_hp(f, "Dan"), 7);
    assert_int_equal(fx_hp(f, "Ben"), 7);
    /* A ranged blast aimed at the attacker's own zone hits the attacker. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "blast ranged zone=1"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Ann"), 7);
}

/* ---- morale, surrender, group saves ------------------------------------- */

/* End the round by passing until it changes. */
static void fx_end_round(struct fx *f)
{
    int round = f->e->round;
    for (int i = 0; i < 8 && f->e->round == round; i++) {
        if (f->e->current != 0)
            assert_int_equal(fx_next(f), ENG_OK);
        else
            assert_int_equal(fx_pass(f), ENG_OK);
    }
    assert_int_equal(f->e->round, round + 1);
}

static void test_morale_group_at_half(void **state)
{
    struct fx *f = *state;
    fx_add(f, "R1", "Red", "wit=20 hp=5", 0);
    fx_add(f, "R2", "Red", "wit=0 hp=5", 0);
    fx_add(f, "R3", "Red", "wit=20 hp=5 fearless=1", 0);
    fx_add(f, "R4", "Red", "wit=20 hp=5", 0);
    fx_add(f, "B1", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    fx_who(f, "R4")->flags |= ENC_CF_DOWN;       /* 3 of 4: no check */
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check"));
    fx_who(f, "R1")->flags |= ENC_CF_DOWN;       /* 2 of 4: exactly half */
    fx_end_round(f);
    assert_true(fx_has_text(f, "Morale check for Red"));
    assert_true(fx_has_text(f, "R3 is immune to fear"));
    assert_non_null(enc_cond_find(fx_who(f, "R2"), FAC_COND_BROKEN));
    assert_int_equal(FAC_C(fx_who(f, "R2"))->morale, FAC_MOR_BROKEN);
    assert_true(fx_has_text(f, "R2 must surrender or retreat"));
    /* Blue (1 of 1, unharmed) made no check. */
    assert_false(fx_has_text(f, "Morale check for Blue"));
}

static void test_morale_steady_is_exempt(void **state)
{
    struct fx *f = *state;
    fx_add(f, "R1", "Red", "wit=20 hp=5", 0);
    fx_add(f, "R2", "Red", "wit=20 hp=5", 0);
    fx_add(f, "R3", "Red", "wit=20 hp=5", 0);
    fx_add(f, "B1", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    fx_who(f, "R1")->flags |= ENC_CF_DOWN;       /* 2 of 3: more than half */
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check"));
    fx_who(f, "R2")->flags |= ENC_CF_DOWN;       /* 1 of 3 */
    fx_end_round(f);
    assert_true(fx_has_text(f, "Morale check for Red"));
    assert_int_equal(FAC_C(fx_who(f, "R3"))->morale, FAC_MOR_STEADY);
    fx_end_round(f);                             /* passed: exempt */
    assert_false(fx_has_text(f, "Morale check"));
}

static void test_morale_lone_at_half_health(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Solo", "Red", "wit=0 hp=8", 0);
    fx_add(f, "B1", "Blue", "wit=10 hp=5", 0);
    fx_add(f, "B2", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    assert_int_equal(fx_pick(f, "B1"), ENG_OK);
    assert_int_equal(fx_attack(f, "B1", "Solo", "3", NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Solo"), 5);       /* above half */
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check"));
    assert_int_equal(fx_pick(f, "B1"), ENG_OK);
    assert_int_equal(fx_attack(f, "B1", "Solo", "1", NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Solo"), 4);       /* exactly half */
    fx_end_round(f);
    assert_true(fx_has_text(f, "Morale check for Red"));
    assert_non_null(enc_cond_find(fx_who(f, "Solo"), FAC_COND_BROKEN));
    /* Morale can be switched off when the encounter starts. */
    enc_setting_set(f->e, "morale", "off", &f->d);
    FAC_C(fx_who(f, "Solo"))->morale = FAC_MOR_UNTESTED;
    enc_cond_remove(f->e, fx_who(f, "Solo"), FAC_COND_BROKEN, f->r, NULL);
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check"));
}

/* "Characters who are immune to fear are also immune to morale": a check
 * that would roll for nobody is not announced as a check; the table is
 * told why instead. */
static void test_morale_nobody_to_roll(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Solo", "Red", "wit=0 hp=8 fearless=1", 0);
    fx_add(f, "B1", "Blue", "wit=20 hp=5", 0);     /* always passes */
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    assert_int_equal(fx_pick(f, "B1"), ENG_OK);
    assert_int_equal(fx_attack(f, "B1", "Solo", "4", NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Solo"), 4);       /* half: morale is due */
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check for Red"));
    assert_false(fx_has_text(f, "Solo is immune to fear"));
    assert_true(fx_has_text(f, "No morale check for Red: every member still "
                               "in the fight is immune to fear"));
    assert_null(enc_cond_find(fx_who(f, "Solo"), FAC_COND_BROKEN));

    /* The GM's /morale on a side whose members all passed already. */
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "morale", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "Morale check for Blue"));
    assert_int_equal(FAC_C(fx_who(f, "B1"))->morale, FAC_MOR_STEADY);
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "morale", true, 1), ENG_OK);
    assert_int_equal(f->r->nrolls, 0);
    assert_false(fx_has_text(f, "Morale check for Blue"));
    assert_true(fx_has_text(f, "No morale check for Blue: nobody in the "
                               "fight is still subject to morale"));
}

static void test_surrender_and_harm(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_next(f), ENG_OK);
    /* Blue decides; Cat surrenders, which takes her turn. */
    fx_opts(f, "name", "Cat", NULL, NULL);
    assert_int_equal(fx_action(f, "surrender", true, 1), ENG_OK);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_SURRENDERED));
    assert_true(fx_acted(f, "Cat"));
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pick(f, "Ben"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ben", "Cat", "1", NULL), ENG_OK);
    assert_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_SURRENDERED));
    assert_true(fx_has_text(f, "may fight again"));
}

static void test_group_save_and_chase(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Fast", "Red", "agi=20 wit=20 str=20 hp=5", 7);
    fx_add(f, "Slow", "Red", "agi=0 wit=0 str=0 hp=5", 0);
    fx_add(f, "B1", "Blue", "agi=10 wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    fx_opts(f, "side", "Red", NULL, NULL);
    assert_int_equal(fx_action(f, "chase", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "Fast escapes"));
    assert_true(fx_has_text(f, "Slow is reached by the pursuers"));
    fx_opts(f, "side", "Red", "save", "str");
    assert_int_equal(fx_action(f, "test", true, 1), ENG_OK);
    assert_int_equal(f->r->nrolls, 2);
    assert_true(fx_has_text(f, "Fast: STR save"));
    fx_opts(f, "name", "Fast", "save", "luck");
    assert_int_equal(fx_action(f, "test", false, 7), ENG_INVALID);
    fx_opts(f, "name", "Slow", "save", "wit");
    assert_int_equal(fx_action(f, "test", false, 7), ENG_PERM);
    fx_opts(f, "name", "B1", "save", "str");
    assert_int_equal(fx_action(f, "test", true, 1), ENG_STATE); /* no str */
    fx_opts(f, "name", "Fast", "save", "WIT");
    assert_int_equal(fx_action(f, "test", false, 7), ENG_OK);
    assert_string_equal(f->r->ev[0].outcome, "pass"); /* WIT 20 passes */
}

static void test_react_command(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    fx_opts(f, "name", "Dan", "kind", "opportunity");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_OK);
    assert_true(fx_acted(f, "Dan"));
    assert_int_equal(f->e->current, fx_who(f, "Ann")->id);
    /* The reaction is Dan's turn: its boundaries ran. */
    assert_int_equal(f->r->ev[0].kind, ENC_EV_TURN);
    assert_int_equal(f->r->ev[0].who, fx_who(f, "Dan")->id);
    fx_opts(f, "name", "Dan", "kind", "dodge");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_STATE);
    fx_opts(f, "name", "Cat", "kind", "wave");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_INVALID);
    fx_opts(f, "name", "Cat", "kind", "other");
    assert_int_equal(fx_action(f, "react", false, 9), ENG_PERM);
    /* Blue decides next; when its last character reacts out of order
     * while it is deciding, it passes on its own. */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    fx_opts(f, "name", "Cat", "kind", "guard");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_STATE);
    assert_string_equal(f->d.msg, "no attack is waiting for an answer");
    assert_false(fx_acted(f, "Cat"));
    fx_opts(f, "name", "Cat", "kind", "other");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "Blue: pass (nobody left to act)"));
    assert_string_equal(fx_acting(f), "Red");
}

static void test_durability_list(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "agi=10 wit=10 hp=10 armour=2");
    assert_int_equal(fx_action(f, "durability", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "No weapon or armour was used"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", NULL), ENG_OK);
    assert_int_equal(fx_action(f, "durability", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "Ann: durability roll for weapon"));
    assert_true(fx_has_text(f, "Cat: durability roll for armour"));
    assert_int_equal(enc_stat_set(fx_who(f, "Dan"), "shield", 1, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "5", NULL), ENG_OK);
    assert_int_equal(fx_action(f, "durability", true, 1), ENG_OK);
    assert_true(fx_has_text(f, "Dan: durability roll for shield"));
}


/* ---- results are data --------------------------------------------------- */

/* Every roll of the last call is shown: attached to one of its events or
 * inline in a sentence. */
static void fx_assert_rolls_shown(struct fx *f)
{
    assert_true(f->r->nrolls > 0);
    for (int i = 0; i < f->r->nrolls; i++) {
        bool shown = false;
        for (int k = 0; k < f->r->nev && !shown; k++) {
            const struct enc_event *ev = &f->r->ev[k];
            for (int j = 0; j < ev->nrolls; j++)
                shown |= ev->rolls[j] == i;
            for (int j = 0; j < ev->nparts; j++)
                shown |= ev->parts[j].kind == ENC_PART_ROLL &&
                         ev->parts[j].n == i;
        }
        if (!shown)
            fail_msg("roll %d (%s) is shown nowhere", i,
                     f->r->rolls[i].label);
    }
}

/* The initiative draw, the threshold, a counter blow that never lands, a
 * blast that nobody takes and one that deviates: each shows its dice. */
static void test_every_roll_is_shown(void **state)
{
    struct fx *f = *state;
    fx_setting(f, "phases", "on");
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=20 hp=10 zone=1", 0);
    fx_add(f, "Ben", "Red", "str=10 agi=10 wit=0 hp=10 zone=1", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=20 wit=20 hp=5 zone=2", 0);
    fx_add(f, "Dan", "Blue", "str=10 agi=20 wit=20 hp=10 zone=2", 0);
    assert_int_equal(fx_begin(f, NULL), ENG_OK);
    assert_int_equal(f->r->nrolls, 2);       /* the draw, the threshold */
    fx_assert_rolls_shown(f);
    if (strcmp(fx_acting(f), "Red") != 0)
        assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    /* Cat suffers 6 and falls before her counter's 2 lands. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "counter=1d2"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Cat falls before the counter lands"));
    fx_assert_rolls_shown(f);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "1d6", "blast ranged "
                               "zone=7"), ENG_OK);
    assert_true(fx_has_text(f, "nobody takes it"));
    fx_assert_rolls_shown(f);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "1d6", "blast ranged "
                               "zone=2 dodgers=Dan"), ENG_OK);
    assert_int_equal(fx_hp(f, "Dan"), 10);     /* AGI 20 dodges */
    fx_assert_rolls_shown(f);
    /* Ben's WIT 0 misses: the blast deviates into zone 2. */
    assert_int_equal(fx_attack(f, "Ben", "Dan", "1d6", "blast ranged far "
                               "zone=5 neighbours=2"), ENG_OK);
    assert_true(fx_has_text(f, "The blast deviates into zone 2"));
    fx_assert_rolls_shown(f);
}

/* Damage shows what reduced it: armour, cover, the impaired die. */
static void test_damage_shows_its_modifiers(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10",
            "str=10 agi=10 wit=10 hp=20 armour=2");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "cover"), ENG_OK);
    const struct enc_event *dv = rs_fx_find(&f->fx, ENC_EV_DAMAGE, "");
    assert_non_null(dv);
    assert_int_equal(dv->a, 3);
    assert_int_equal(dv->nmods, 2);
    assert_string_equal(dv->mods[0].reason, "armour");
    assert_int_equal(dv->mods[0].amount, -2);
    assert_string_equal(dv->mods[1].reason, "cover");
    assert_int_equal(dv->mods[1].amount, -1);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "holdback"), ENG_OK);
    dv = rs_fx_find(&f->fx, ENC_EV_DAMAGE, "");
    assert_non_null(dv);
    assert_string_equal(dv->mods[0].reason, "impaired");
    assert_false(dv->mods[0].has_amount);
}

/* Every option given is used or refused: a blast's zone on a single
 * attack, a single attack's ways on a blast. An unarmed blast rolls the
 * impaired die; a damaged weapon breaks on a blast's 1 too. */
static void test_options_are_used_or_refused(void **state)
{
    struct fx *f = *state;
    fx_setting(f, "impaired", "1d1");
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=10 zone=1", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=10 wit=10 hp=10 zone=1", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "zone=2"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "neighbours=2/3"),
                     ENG_INVALID);
    static const char *const not_blast[] = {"wait", "stunt", "final",
                                            "disarm", "grapple",
                                            "opportunity"};
    for (size_t i = 0; i < sizeof not_blast / sizeof not_blast[0]; i++) {
        char opts[64];
        snprintf(opts, sizeof opts, "blast %s", not_blast[i]);
        assert_int_equal(fx_attack(f, "Ann", "Cat", "3", opts), ENG_INVALID);
    }
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "blast unarmed"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 9);           /* the 1d1 die */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d1+1", "blast damaged"),
                     ENG_OK);
    assert_true(fx_has_text(f, "The damaged weapon of Ann breaks on the 1"));
    assert_int_equal(fx_hp(f, "Cat"), 7);
}

/* A hidden NPC's dice are the GM's: its saves, and the numbers of a hit on
 * it; the attacker's own damage roll stays public. */
static void test_hidden_rolls_are_secret(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    fx_who(f, "Cat")->hidden = true;
    fx_opts(f, "name", "Cat", "save", "agi");
    assert_int_equal(fx_action(f, "test", true, 1), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);
    assert_true(f->r->rolls[0].secret);
    assert_true(f->r->ev[0].value_secret && f->r->ev[0].target_secret);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6", NULL), ENG_OK);
    int roll = rs_fx_roll(&f->fx, "damage", 0);
    assert_true(roll >= 0);
    assert_false(f->r->rolls[roll].secret);
    const struct enc_event *dv = rs_fx_find(&f->fx, ENC_EV_DAMAGE, "");
    assert_non_null(dv);
    assert_true(dv->secret);
    const struct enc_event *said = rs_fx_find(&f->fx, ENC_EV_SAY,
                                              "Ann rolls");
    assert_non_null(said);
    assert_false(said->secret);
}

/* ---- gear degradation --------------------------------------------------- */

static void test_rule_break(void **state)
{
    (void)state;
    assert_int_equal(fac_rule_break(7, true, true), FAC_BREAK_NONE);
    assert_int_equal(fac_rule_break(8, true, true), FAC_BREAK_SHIELD);
    assert_int_equal(fac_rule_break(8, false, true), FAC_BREAK_ARMOUR);
    assert_int_equal(fac_rule_break(12, true, false), FAC_BREAK_SHIELD);
    assert_int_equal(fac_rule_break(30, false, false), FAC_BREAK_NONE);
}

/* Damaged shields and armour are destroyed by a hit of 8 or more before
 * armour, the shield first, one item per hit; the blow that breaks an item
 * is still reduced by it. */
static void test_damaged_gear_breaks(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10",
            "agi=10 wit=10 hp=30 armour=2 armour_damaged=1 shield=1 "
            "shield_damaged=1");
    struct enc_combatant *cat = fx_who(f, "Cat");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "7", NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 26);           /* 7 - 3 */
    assert_non_null(enc_stat(cat, "shield"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "8", NULL), ENG_OK);
    assert_true(fx_has_text(f, "The damaged shield of Cat is destroyed by 8"));
    assert_int_equal(fx_hp(f, "Cat"), 21);           /* 8 - 3 */
    assert_null(enc_stat(cat, "shield"));
    assert_null(enc_stat(cat, "shield_damaged"));
    assert_int_equal(enc_stat_or(cat, "armour", 0), 2);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "9", NULL), ENG_OK);
    assert_true(fx_has_text(f, "The damaged armour of Cat is destroyed by 9"));
    assert_int_equal(fx_hp(f, "Cat"), 14);           /* 9 - 2 */
    assert_null(enc_stat(cat, "armour"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "8", NULL), ENG_OK);
    assert_false(fx_has_text(f, "destroyed"));
    assert_int_equal(fx_hp(f, "Cat"), 6);            /* no armour left */
    /* Armour that is not damaged holds. */
    assert_int_equal(enc_stat_set(fx_who(f, "Dan"), "armour", 1, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "12", NULL), ENG_OK);
    assert_false(fx_has_text(f, "destroyed"));
    assert_int_equal(enc_stat_or(fx_who(f, "Dan"), "armour", 0), 1);
    /* The flags are 0 or 1; a shield is bounded like armour. */
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_stat_check(&c, &rs_factions, cat, "armour_damaged",
                                   2), ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_factions, cat, "shield", 21),
                     ENG_RANGE);
}

/* A counter's blow can break the attacker's damaged armour; one who falls
 * first breaks nothing with their own blow. */
static void test_counter_breaks_attacker_armour(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=20 armour=1 armour_damaged=1",
            "str=10 agi=10 wit=10 hp=20");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "counter=8"), ENG_OK);
    assert_true(fx_has_text(f, "The damaged armour of Ann is destroyed by 8"));
    assert_int_equal(fx_hp(f, "Ann"), 13);           /* 8 - 1 */
    assert_int_equal(fx_hp(f, "Cat"), 17);
    assert_null(enc_stat(fx_who(f, "Ann"), "armour"));
}

/* A damaged weapon breaks on a 1 on the damage die, the impaired die
 * included when the blow is held back; an unarmed blow has no weapon. */
static void test_damaged_weapon_on_a_one(void **state)
{
    struct fx *f = *state;
    fx_setting(f, "impaired", "1d1");
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "agi=10 wit=10 hp=30");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d1+2", "damaged"), ENG_OK);
    assert_true(fx_has_text(f, "The damaged weapon of Ann breaks on the 1"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6", "improvised impaired"),
                     ENG_OK);
    assert_true(fx_has_text(f, "The damaged weapon of Ann breaks on the 1"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", NULL, "unarmed damaged"),
                     ENG_OK);
    assert_false(fx_has_text(f, "breaks"));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "2", "damaged"), ENG_OK);
    assert_false(fx_has_text(f, "breaks"));          /* no die at all */
}

/* ---- an attack that waits for its target's answer ----------------------- */

static enum eng_err fx_react(struct fx *f, const char *name, const char *kind,
                             const char *k3, const char *v3)
{
    fx_opts(f, "name", name, "kind", kind);
    if (k3 != NULL)
        f->opts[f->nopts++] = (struct rs_opt){k3, v3};
    return fx_action(f, "react", true, 1);
}

static bool fx_pending(struct fx *f)
{
    return FAC_E(f->e)->pend_att != 0;
}

/* Ann's WIT 20 always passes her save to hit: the attack stands before
 * anyone has to choose, and Cat chooses after seeing it. */
static void test_pending_dodge_after_the_save(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=20 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "ranged far"), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);               /* the save only */
    assert_true(fx_pending(f));
    assert_false(fx_acted(f, "Cat"));
    assert_int_equal(fx_hp(f, "Cat"), 10);
    /* Only the target answers dodge; a player answers for their own. */
    assert_int_equal(fx_react(f, "Dan", "dodge", NULL, NULL), ENG_STATE);
    fx_opts(f, "name", "Cat", "kind", "dodge");
    assert_int_equal(fx_action(f, "react", false, 9), ENG_PERM);
    assert_true(fx_pending(f));
    char st[64];
    rs_fx_status(&rs_factions, f->e, fx_who(f, "Cat"), st, sizeof st);
    assert_string_equal(st, "attacked: may react");
    assert_int_equal(fx_react(f, "Cat", "dodge", NULL, NULL), ENG_OK);
    assert_false(fx_pending(f));
    rs_fx_status(&rs_factions, f->e, fx_who(f, "Cat"), st, sizeof st);
    assert_string_equal(st, "reacted");
    assert_true(fx_acted(f, "Cat"));
    assert_int_equal(fx_hp(f, "Cat"), 10);           /* AGI 20 dodges */
    assert_string_equal(f->r->rolls[0].label, "AGI save");
    assert_int_equal(f->e->current, fx_who(f, "Ann")->id);
    /* With nothing waiting, none and accept have nothing to answer. */
    assert_int_equal(fx_react(f, "Dan", "none", NULL, NULL), ENG_STATE);
}

static void test_pending_counter(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "2", "ranged moving"),
                     ENG_OK);
    assert_true(fx_pending(f));
    assert_int_equal(fx_react(f, "Cat", "counter", NULL, NULL), ENG_INVALID);
    assert_int_equal(fx_react(f, "Cat", "counter", "counter", "4"), ENG_OK);
    assert_true(fx_has_text(f, "the attacker is hit first"));
    assert_int_equal(fx_hp(f, "Ann"), 6);
    assert_int_equal(fx_hp(f, "Cat"), 8);
    assert_true(fx_acted(f, "Cat"));
    assert_false(fx_pending(f));
}

/* Cat hides behind Dan, who becomes the target and answers in turn; a
 * guard takes the blow at once. */
static void test_pending_hide_and_guard(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "challenging"), ENG_OK);
    assert_int_equal(fx_react(f, "Cat", "hide", NULL, NULL), ENG_INVALID);
    assert_int_equal(fx_react(f, "Cat", "hide", "behind", "Ann"),
                     ENG_INVALID);
    assert_int_equal(fx_react(f, "Cat", "hide", "behind", "Dan"), ENG_OK);
    assert_true(fx_acted(f, "Cat"));
    assert_true(fx_pending(f));
    assert_int_equal(FAC_E(f->e)->pend_tgt, fx_who(f, "Dan")->id);
    assert_true(fx_has_text(f, "The attack on Dan stands"));
    assert_int_equal(fx_react(f, "Cat", "none", NULL, NULL), ENG_STATE);
    assert_int_equal(fx_react(f, "Dan", "none", NULL, NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Dan"), 7);
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_false(fx_acted(f, "Dan"));                /* none costs nothing */
    /* A guard steps in and takes the blow; it cannot also dodge or
     * counter, so the attack lands at once. */
    fx_add(f, "Eve", "Blue", "str=10 agi=10 wit=10 hp=10", 0);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "4", "challenging"), ENG_OK);
    assert_true(fx_pending(f));
    assert_int_equal(fx_react(f, "Ann", "guard", NULL, NULL), ENG_INVALID);
    assert_int_equal(fx_react(f, "Dan", "guard", NULL, NULL), ENG_INVALID);
    assert_int_equal(fx_react(f, "Cat", "guard", NULL, NULL), ENG_STATE);
    assert_int_equal(fx_react(f, "Eve", "guard", NULL, NULL), ENG_OK);
    assert_false(fx_pending(f));
    assert_true(fx_acted(f, "Eve"));
    assert_int_equal(fx_hp(f, "Eve"), 6);
    assert_int_equal(fx_hp(f, "Dan"), 7);
}

/* Hiding behind a character one holds grabbed: it has no say and cannot
 * react, so the attack lands on it at once. */
static void test_pending_hide_behind_the_grabbed(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=10 wit=10 hp=10");
    struct enc_cond_req q = {.name = FAC_COND_GRABBED,
                             .source = fx_who(f, "Cat")->id};
    assert_int_equal(enc_cond_add(f->e, fx_who(f, "Ben"), &q, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "ranged far"), ENG_OK);
    assert_int_equal(fx_react(f, "Cat", "hide", "behind", "Ben"), ENG_OK);
    assert_true(fx_has_text(f, "Ben is held by Cat and has no say"));
    assert_false(fx_pending(f));
    assert_int_equal(fx_hp(f, "Ben"), 7);
    assert_false(fx_acted(f, "Ben"));
}

/* A stunt is proposed after the save and before any reaction; the target
 * accepts it (no damage, no reaction) or answers as to any attack. */
static void test_pending_stunt(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "stunt dodge"),
                     ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "stunt"), ENG_OK);
    assert_int_equal(f->r->nrolls, 0);               /* no save needed */
    assert_true(fx_has_text(f, "Ann proposes a stunt to Cat"));
    assert_int_equal(fx_react(f, "Cat", "accept", NULL, NULL), ENG_OK);
    assert_true(fx_has_text(f, "Cat accepts the stunt of Ann"));
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_false(fx_acted(f, "Cat"));
    assert_false(fx_pending(f));
    /* Refused by the attacker's next attack: it goes on as normal. */
    assert_int_equal(fx_attack(f, "Ann", "Dan", "5", "stunt"), ENG_OK);
    assert_int_equal(fx_react(f, "Cat", "accept", NULL, NULL), ENG_STATE);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1", NULL), ENG_OK);
    assert_true(fx_has_text(f, "Dan does not take up the stunt"));
    assert_int_equal(fx_hp(f, "Dan"), 5);
    assert_int_equal(fx_hp(f, "Cat"), 9);
    /* Without a stunt there is nothing to accept. */
    assert_int_equal(fx_attack(f, "Ann", "Dan", "1", "wait"), ENG_OK);
    assert_int_equal(fx_react(f, "Dan", "accept", NULL, NULL), ENG_STATE);
    assert_int_equal(fx_react(f, "Dan", "none", NULL, NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Dan"), 4);
}

/* No pause when nobody can choose: a surprised target, a target whose turn
 * is spent; a surprised target may still accept a stunt but not react. */
static void test_pending_only_when_the_target_can_answer(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "2", "ranged far unaware"),
                     ENG_OK);
    assert_false(fx_pending(f));
    assert_int_equal(fx_hp(f, "Cat"), 8);
    fx_opts(f, "name", "Cat", "kind", "other");
    assert_int_equal(fx_action(f, "react", true, 1), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "2", "ranged far"), ENG_OK);
    assert_false(fx_pending(f));
    assert_int_equal(fx_hp(f, "Cat"), 6);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "2", "unaware stunt"),
                     ENG_OK);
    assert_true(fx_pending(f));
    assert_int_equal(fx_react(f, "Dan", "dodge", NULL, NULL), ENG_STATE);
    assert_int_equal(fx_react(f, "Dan", "accept", NULL, NULL), ENG_OK);
    assert_int_equal(fx_hp(f, "Dan"), 10);
}

/* A combatant of the waiting attack leaves: the attack is dropped. */
static void test_pending_dropped_when_a_combatant_leaves(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=20 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "2", "wait"), ENG_OK);
    assert_true(fx_pending(f));
    assert_int_equal(enc_remove(f->e, fx_who(f, "Cat")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_true(fx_has_text(f, "The waiting attack is dropped"));
    assert_false(fx_pending(f));
}

/* ---- combatants removed mid-round --------------------------------------- */

static void fx_three_factions(struct fx *f)
{
    fx_add(f, "Ann", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    fx_add(f, "Gus", "Green", "hp=5", 0);
    fx_add(f, "Hal", "Green", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
}

/* Red passes; Blue loses its last member while deciding. Blue is no
 * faction any more and does not pass: Green must still pass before the
 * round ends (the GM's pass meant for Blue is absorbed). */
static void test_removed_faction_does_not_pass(void **state)
{
    struct fx *f = *state;
    fx_three_factions(f);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(enc_remove(f->e, fx_who(f, "Cat")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Green");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
}

/* The same, when Green's player simply picks: the pick is Green's. */
static void test_removed_faction_then_pick(void **state)
{
    struct fx *f = *state;
    fx_three_factions(f);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(enc_remove(f->e, fx_who(f, "Cat")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_pick(f, "Gus"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Gus's turn broke the chain: Red and Green both pass again. */
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Green");
    assert_int_equal(f->e->round, 1);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
}

/* Green passes, then Green's only member leaves while Red decides: its
 * pass leaves the chain with it, so Red's pass does not end the round
 * before Blue has passed too. */
static void test_removed_passed_faction_leaves_the_chain(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    fx_add(f, "Gus", "Green", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Green"), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);            /* Green */
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(enc_remove(f->e, fx_who(f, "Gus")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);            /* Red */
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pass(f), ENG_OK);            /* Blue */
    assert_int_equal(f->e->round, 2);
}

/* The character whose turn runs leaves: the turn is over and the next
 * faction decides; the /combat next meant to end it succeeds. */
static void test_removed_current_character(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(enc_remove(f->e, fx_who(f, "Ann")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_true(fx_has_text(f, "The running turn ended"));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(FAC_E(f->e)->turn, 0);
    /* Blue's player may pick straight away after such a removal too. */
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(enc_remove(f->e, fx_who(f, "Cat")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_pick(f, "Ben"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Dan"), ENG_OK);
}

/* ---- harm, lone morale, peeking ----------------------------------------- */

/* Harm frees a surrendering character only, and only harm by an enemy: a
 * broken character retreating stays broken; an ally's blow frees nobody. */
static void test_harm_frees_only_the_surrendering(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    struct enc_cond_req broken = {.name = FAC_COND_BROKEN};
    assert_int_equal(enc_cond_add(f->e, fx_who(f, "Cat"), &broken, f->r,
                                  &f->d), ENG_OK);
    FAC_C(fx_who(f, "Cat"))->morale = FAC_MOR_BROKEN;
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1", NULL), ENG_OK);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_BROKEN));
    assert_int_equal(FAC_C(fx_who(f, "Cat"))->morale, FAC_MOR_BROKEN);
    struct enc_cond_req sur = {.name = FAC_COND_SURRENDERED};
    assert_int_equal(enc_cond_add(f->e, fx_who(f, "Cat"), &sur, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Dan", "Cat", "1", NULL), ENG_OK);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_SURRENDERED));
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1", NULL), ENG_OK);
    assert_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_SURRENDERED));
    assert_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_BROKEN));
    assert_true(fx_has_text(f, "Cat was harmed while surrendering"));
}

/* A character fighting alone checks morale after damage leaves it at half
 * health or less, not merely for being there. */
static void test_morale_lone_needs_damage(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Solo", "Red", "wit=0 hp=8", 0);
    fx_add(f, "B1", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    enc_track(fx_who(f, "Solo"), "hp")->cur = 3;   /* set, not damaged */
    fx_end_round(f);
    assert_false(fx_has_text(f, "Morale check"));
    assert_int_equal(fx_pick(f, "B1"), ENG_OK);
    assert_int_equal(fx_attack(f, "B1", "Solo", "1", NULL), ENG_OK);
    fx_end_round(f);
    assert_true(fx_has_text(f, "Morale check for Red"));
}

/* An attacker peeking from behind a barrier can be countered, and the
 * barrier counts as cover for it. */
static void test_counter_against_a_peeking_attacker(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1", "peek counter=3"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Ann"), 8);            /* 3 - 1 for cover */
    assert_int_equal(fx_hp(f, "Cat"), 9);
}

/* Non-lethal attacks can be used to counter, and come after the damage. */
static void test_nonlethal_counter(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "str=0 agi=10 wit=10 hp=10", "str=0 agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "counter=grapple"),
                     ENG_OK);
    assert_true(fx_has_text(f, "the non-lethal counter comes last"));
    assert_int_equal(fx_hp(f, "Cat"), 7);
    assert_int_equal(fx_hp(f, "Ann"), 10);
    assert_non_null(enc_cond_find(fx_who(f, "Ann"), FAC_COND_GRABBED));
    /* Both non-lethal: the attack's, then the counter's (STR 0 always
     * fails the save). */
    assert_int_equal(enc_stat_set(fx_who(f, "Dan"), "str", 0, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Dan", NULL, "disarm "
                               "counter=disarm"), ENG_OK);
    assert_non_null(enc_cond_find(fx_who(f, "Dan"), FAC_COND_DISARMED));
    assert_non_null(enc_cond_find(fx_who(f, "Ann"), FAC_COND_DISARMED));
    /* The attack's save first, then the counter's. */
    const struct enc_event *first = rs_fx_find(&f->fx, ENC_EV_TEST,
                                               "Dan: STR save against disarm");
    const struct enc_event *then = rs_fx_find(&f->fx, ENC_EV_TEST,
                                              "Ann: STR save against disarm");
    assert_non_null(first);
    assert_non_null(then);
    assert_true(first < then);
}

/* One taken down by the damage lands no non-lethal counter; the counter
 * needs the attacker's STR to be known. */
static void test_nonlethal_counter_after_a_fall(void **state)
{
    struct fx *f = *state;
    fx_duel(f, "agi=10 wit=10 hp=10", "str=10 agi=10 wit=10 hp=2");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "counter=grapple"),
                     ENG_STATE);                       /* Ann has no str */
    assert_int_equal(enc_stat_set(fx_who(f, "Ann"), "str", 0, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "3", "counter=grapple"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Cat falls before the counter lands"));
    assert_null(enc_cond_find(fx_who(f, "Ann"), FAC_COND_GRABBED));
}

/* A blast's targets react before its damage: any of them may dodge, one
 * may counter; reactions of those it does not reach are not spent. */
static void test_blast_reactions(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 wit=20 zone=1 hp=10", 0);
    fx_add(f, "Ben", "Red", "agi=0 wit=10 zone=2 hp=10", 0);
    fx_add(f, "Cat", "Blue", "agi=20 wit=10 zone=2 hp=10", 0);
    fx_add(f, "Dan", "Blue", "agi=10 wit=10 zone=2 hp=10", 0);
    fx_add(f, "Eve", "Blue", "agi=20 wit=10 zone=5 hp=10", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "dodge"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "counter=2"), ENG_INVALID);   /* by whom? */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "guard=Dan"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "dodgers=Cat counter=2 by=Cat"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "dodgers=Cat"),
                     ENG_INVALID);                /* not a blast */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "dodgers=Cat,Nobody"), ENG_NOTFOUND);
    /* Zone 2: Cat dodges (AGI 20), Ben fails his (AGI 0), Dan counters;
     * Eve in zone 5 named a dodge she does not need. */
    assert_int_equal(fx_attack(f, "Ann", "Cat", "4", "blast ranged zone=2 "
                               "dodgers=Cat,Ben,Eve counter=6 by=Dan"),
                     ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 10);
    assert_int_equal(fx_hp(f, "Ben"), 6);
    assert_true(fx_acted(f, "Cat"));
    assert_true(fx_acted(f, "Ben"));
    assert_true(fx_has_text(f, "Eve is not in zone 2"));
    assert_false(fx_acted(f, "Eve"));
    /* Dan's counter: Ann suffers 6, Dan 4: Ann is hit first, stands. */
    assert_true(fx_has_text(f, "the attacker is hit first"));
    assert_int_equal(fx_hp(f, "Ann"), 4);
    assert_int_equal(fx_hp(f, "Dan"), 6);
    assert_true(fx_acted(f, "Dan"));
    /* A melee blast cannot miss: no dodging it; the blast goes on. */
    assert_int_equal(enc_stat_set(fx_who(f, "Eve"), "zone", 1, &f->d),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Eve", "4", "blast dodgers=Eve"),
                     ENG_OK);
    assert_true(fx_has_text(f, "Eve cannot dodge (a melee blast cannot "
                            "miss)"));
    assert_false(fx_acted(f, "Eve"));
    assert_int_equal(fx_hp(f, "Eve"), 6);
}

/* Armour can't be changed during a fight (the GM may correct it); a
 * shield can be picked up. */
static void test_armour_fixed_during_the_fight(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "wit=10 hp=5 armour=1", 7);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    struct enc_combatant *ann = fx_who(f, "Ann");
    struct rs_call c = fx_call(f, false, 7);
    assert_int_equal(rs_factions.ops->check_stat(&c, ann, "armour", 2),
                     ENG_OK);                      /* not begun yet */
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    c = fx_call(f, false, 7);
    assert_int_equal(rs_factions.ops->check_stat(&c, ann, "armour", 2),
                     ENG_STATE);
    assert_int_equal(rs_factions.ops->check_stat(&c, ann, "armour", 1),
                     ENG_OK);                      /* unchanged */
    assert_int_equal(rs_factions.ops->check_stat(&c, ann, "shield", 1),
                     ENG_OK);
    c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->check_stat(&c, ann, "armour", 2),
                     ENG_OK);
}

/* Concealment (a partly obscured target) impairs the damage. */
static void test_concealment_impairs(void **state)
{
    struct fx *f = *state;
    fx_setting(f, "impaired", "1");
    fx_duel(f, "str=10 agi=10 wit=10 hp=10", "agi=10 wit=10 hp=10");
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "concealment"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 9);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "6", "holdback"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 8);
}

/* The faction holding the initiative leaves: the next round opens with
 * the next faction deciding, and nobody passes for the gone one. */
static void test_removed_holder(void **state)
{
    struct fx *f = *state;
    fx_three_factions(f);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(enc_remove(f->e, fx_who(f, "Ann")->id, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Green");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(fx_acting(f), "Blue");
    assert_false(fx_has_text(f, "Red: pass"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(x) cmocka_unit_test_setup_teardown(x, fx_setup, fx_teardown)
        T(test_example_fast_and_slow),
        T(test_fat_set_by_gm),
        T(test_fat_rolled_each_round),
        T(test_round_ends_when_all_pass_in_a_row),
        T(test_pass_does_not_forfeit_later_turns),
        T(test_automatic_pass),
        T(test_three_factions_need_three_passes),
        T(test_pick_and_pass_are_checked),
        T(test_down_characters_pass_automatically),
        T(test_holder_drawn_at_random),
        T(test_holder_chooses_first_faction),
        T(test_ambush_bonus_turn),
        T(test_ambush_by_faction),
        T(test_begin_is_checked),
        T(test_settings_and_stats),
        cmocka_unit_test(test_rule_fast),
        cmocka_unit_test(test_rule_save),
        cmocka_unit_test(test_rule_hit),
        cmocka_unit_test(test_rule_damage_and_counter),
        cmocka_unit_test(test_rule_morale_thresholds),
        T(test_attack_hits_automatically),
        T(test_impaired_damage),
        T(test_wit_save_to_hit),
        T(test_dodge),
        T(test_counter),
        T(test_counter_first_hit_fells),
        T(test_counter_against_nonlethal),
        T(test_disarm_and_grapple_saves),
        T(test_guard_and_hide),
        T(test_hide_behind_then_dodge),
        T(test_surprise_and_opportunity),
        T(test_final_blow),
        T(test_blast),
        T(test_morale_group_at_half),
        T(test_morale_steady_is_exempt),
        T(test_morale_lone_at_half_health),
        T(test_morale_nobody_to_roll),
        T(test_surrender_and_harm),
        T(test_group_save_and_chase),
        T(test_react_command),
        T(test_durability_list),
        cmocka_unit_test(test_rule_break),
        T(test_damaged_gear_breaks),
        T(test_counter_breaks_attacker_armour),
        T(test_damaged_weapon_on_a_one),
        T(test_pending_dodge_after_the_save),
        T(test_pending_counter),
        T(test_pending_hide_and_guard),
        T(test_pending_hide_behind_the_grabbed),
        T(test_pending_stunt),
        T(test_pending_only_when_the_target_can_answer),
        T(test_pending_dropped_when_a_combatant_leaves),
        T(test_removed_faction_does_not_pass),
        T(test_removed_faction_then_pick),
        T(test_removed_passed_faction_leaves_the_chain),
        T(test_removed_current_character),
        T(test_harm_frees_only_the_surrendering),
        T(test_morale_lone_needs_damage),
        T(test_counter_against_a_peeking_attacker),
        T(test_nonlethal_counter),
        T(test_nonlethal_counter_after_a_fall),
        T(test_blast_reactions),
        T(test_armour_fixed_during_the_fight),
        T(test_concealment_impairs),
        T(test_removed_holder),
        T(test_every_roll_is_shown),
        T(test_damage_shows_its_modifiers),
        T(test_options_are_used_or_refused),
        T(test_hidden_rolls_are_secret),
#undef T
    };
    return cmocka_run_group_tests_name("rs_factions", tests, NULL, NULL);
}
