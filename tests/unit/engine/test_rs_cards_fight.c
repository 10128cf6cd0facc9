/* Tests for the cards ruleset's fighting: success pools and Harm, tests,
 * attacks with dodge and parry, extra successes, ranges in zones, holding
 * and breaking free, fleeing and chasing. Turn structure is in
 * test_rs_cards.c, special effects in test_rs_cards_effects.c. */
#include "support.h"

#include "test_rs_cards.h"
#include "turn.h"

/* ---- the chapter's rules with exact numbers ------------------------------ */

static void test_harm_takes_dice(void **state)
{
    (void)state;
    /* An NPC hit for 3 takes 3 Harm points and rolls 3 fewer dice. */
    assert_int_equal(cards_pool(5, 0, 3), 2);
    assert_int_equal(cards_pool(2, 0, 3), 0);
    assert_int_equal(cards_pool(4, 1, 0), 5);
}

static void test_attack_outcomes(void **state)
{
    (void)state;
    /* One success hits for the weapon's damage. */
    struct cards_hit h = cards_attack_outcome(1, 0, 1, 2, -1, false);
    assert_true(h.hit);
    assert_int_equal(h.harm, 2);
    assert_int_equal(h.extra, 0);
    /* Each extra success may add one Harm... */
    h = cards_attack_outcome(3, 0, 1, 2, -1, false);
    assert_int_equal(h.extra, 2);
    assert_int_equal(h.harm, 4);
    /* ... or not, when the attacker chooses so. */
    h = cards_attack_outcome(3, 0, 1, 2, 1, false);
    assert_int_equal(h.harm, 3);
    /* ... or one buys a swap of cards. */
    h = cards_attack_outcome(3, 0, 1, 2, -1, true);
    assert_true(h.attacker_swap);
    assert_int_equal(h.harm, 3);
    h = cards_attack_outcome(1, 0, 1, 2, -1, true);
    assert_false(h.attacker_swap);
    /* A dodge takes one success off per success. */
    h = cards_attack_outcome(3, 2, 1, 2, -1, false);
    assert_true(h.hit);
    assert_int_equal(h.net, 1);
    assert_int_equal(h.harm, 2);
    assert_false(h.defender_swap);
    /* All taken off: a miss. */
    h = cards_attack_outcome(2, 2, 1, 2, -1, false);
    assert_false(h.hit);
    assert_int_equal(h.harm, 0);
    assert_false(h.defender_swap);
    /* More than needed: the defender may swap. */
    h = cards_attack_outcome(2, 3, 1, 2, -1, false);
    assert_false(h.hit);
    assert_true(h.defender_swap);
    /* Darkness: an extra success needed to hit. */
    h = cards_attack_outcome(1, 0, 2, 2, -1, false);
    assert_false(h.hit);
    h = cards_attack_outcome(2, 0, 2, 2, -1, false);
    assert_true(h.hit);
    assert_int_equal(h.harm, 2);
}

static void test_weapon_ranges(void **state)
{
    (void)state;
    /* A sling, 0-1: the same zone or the next one. */
    assert_true(cards_in_range(0, 1, 0));
    assert_true(cards_in_range(0, 1, 1));
    assert_false(cards_in_range(0, 1, 2));
    /* A longbow, 1-3: not in the same zone. */
    assert_false(cards_in_range(1, 3, 0));
    assert_true(cards_in_range(1, 3, 1));
    assert_true(cards_in_range(1, 3, 3));
    assert_false(cards_in_range(1, 3, 4));
}

static void test_hold_and_flee_rules(void **state)
{
    (void)state;
    /* Without a hold reaction one success breaks free. */
    assert_true(cards_breakfree(1, 0, false));
    assert_false(cards_breakfree(0, 0, false));
    /* Against a hold: more than the holder; a tie keeps the hold. */
    assert_false(cards_breakfree(2, 2, true));
    assert_true(cards_breakfree(3, 2, true));
    assert_false(cards_breakfree(1, 2, true));
    /* Each chase success takes one flee success off. */
    assert_true(cards_flee(2, 1));
    assert_false(cards_flee(2, 2));
    assert_false(cards_flee(0, 0));
    assert_true(cards_flee(1, 0));
}

/* ---- fixtures ------------------------------------------------------------ */

/* Ana (user 10) and an Orc, begun; `sure` makes every die a success (the
 * success face is 1) so counts equal pools. Returns with the Orc's turn. */
static void cf_duel(struct cf *f, bool sure, const char *ana,
                    const char *orc)
{
    cf_add(f, "Ana", 10, ana);
    cf_add(f, "Orc", 0, orc);
    assert_int_equal(cf_begin(f), ENG_OK);
    if (sure)
        cf_sure(f);
    for (int i = 0; i < 3 && strcmp(cf_current(f), "Orc") != 0; i++)
        assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), "Orc");
}

/* ---- tests --------------------------------------------------------------- */

static void test_test_rolls_pool_less_harm(void **state)
{
    struct cf *f = *state;
    eng_rng_seed(&f->rng, 5);
    cf_add(f, "Ana", 10, "finesse=5");
    enc_track(cf_who(f, "Ana"), CARDS_HARM)->cur = 1;
    enc_track(cf_who(f, "Ana"), CARDS_MENTAL)->cur = 1;
    cf_opts(f, "name", "Ana", "skill", "finesse", "need", "2", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    /* Five dice less two Harm: three dice, and the test says why. */
    int faces[8];
    assert_int_equal(cf_faces_n(f, "finesse", 0, faces, 8), 3);
    int s = cf_succ(f, "finesse");
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_TEST, "finesse");
    assert_non_null(ev);
    assert_int_equal(ev->value, s);
    assert_int_equal(ev->target, 2);
    assert_int_equal(ev->nmods, 1);
    assert_string_equal(ev->mods[0].reason, "Harm");
    assert_int_equal(ev->mods[0].amount, -2);
    assert_string_equal(ev->mods[0].unit, "dice");
    assert_true(cf_said(f, s >= 2 ? ": passes" : ": fails"));
    /* harm:false keeps every die; pool: overrides the stat. */
    cf_opts(f, "name", "Ana", "pool", "4", "harm", "false", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    assert_int_equal(cf_faces_n(f, "test", 0, faces, 8), 4);
    /* roll: is counted as given. */
    cf_opts(f, "name", "Ana", "roll", "3d6>=1", "need", "3", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    assert_true(cf_said(f, "Ana: test 3 against 3: passes"));
    /* Own dice are counted as they fall: nothing to add or take away. */
    cf_opts(f, "name", "Ana", "roll", "3d6>=1", "bonus", "1", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "pool", "2", "skill", "finesse", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "roll", "3d6>=", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_SYNTAX);
    /* Refusals. */
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "skill", "sneak", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_STATE);
    assert_non_null(strstr(f->d.hint, "sneak=3"));
    cf_opts(f, "name", "Ana", "pool", "51", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_RANGE);
    cf_opts(f, "name", "Ana", "pool", "2", NULL);
    assert_int_equal(cf_do(f, 11, "test"), ENG_PERM);
    cf_opts(f, "name", "Ana", "pool", "2", "maneuver", "slow", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_STATE);
}

static void test_test_seeded_outcome(void **state)
{
    struct cf *f = *state;
    eng_rng_seed(&f->rng, 4);
    cf_add(f, "Ana", 10, NULL);
    cf_opts(f, "name", "Ana", "pool", "4", "need", "2", "label", "climb",
            NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    /* Seed 4 rolls [2, 6, 3, 6]: two sixes, exactly what is needed. */
    assert_int_equal(cf_succ(f, "climb"), 2);
    assert_true(cf_said(f, "Ana: climb 2 against 2: passes"));
    /* Zero dice: nothing to roll, a failure. */
    cf_opts(f, "name", "Ana", "pool", "0", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    assert_string_equal(rs_fx_detail(&f->r->rolls[0]), "no dice");
    assert_true(cf_said(f, "test 0 against 1: fails"));
}

static void test_npc_harm_points_example(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "strike=2", "strike=5");
    assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), "Ana");
    /* Ana hits the Orc for 3: one success, no extra spent. */
    assert_int_equal(cf_attack(f, 10, "Ana", "Orc", "1", "3", NULL), ENG_OK);
    assert_int_equal(cf_harm(f, "Orc", CARDS_HARM), 3);
    /* Its next test has 3 fewer dice. */
    cf_opts(f, "name", "Orc", "skill", "strike", NULL);
    assert_int_equal(cf_do(f, CF_GM, "test"), ENG_OK);
    assert_int_equal(cf_dice_n(f, "strike", 0), 2);
    assert_int_equal(rs_fx_find(&f->fx, ENC_EV_TEST, "strike")->value, 2);
}

/* ---- attacks ------------------------------------------------------------- */

static void test_attack_hits_for_weapon_plus_extra(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "finesse=0", "strike=3 damage=2");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    /* Three successes: 2 + 2 extra. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 4);
    bool atk = false, dmg = false;
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        if (ev->kind == ENC_EV_ATTACK) {
            atk = true;
            assert_int_equal(ev->value, 3);
            assert_int_equal(ev->target, 1);
            assert_string_equal(ev->outcome, "hit: 4 Physical Harm");
        }
        if (ev->kind == ENC_EV_DAMAGE) {
            dmg = true;
            assert_int_equal(ev->a, 4);
            assert_string_equal(ev->text, "Physical Harm");
        }
    }
    assert_true(atk && dmg);
    /* The slow maneuver is spent: no second attack this turn. */
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_STATE);
}

static void test_attack_extra_and_mental(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, NULL, "cast=3 damage=1");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "cast mental extra=1"), ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_MENTAL), 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 0);
}

static void test_attack_seeded(void **state)
{
    struct cf *f = *state;
    cf_duel(f, false, NULL, "strike=4 damage=1");
    eng_rng_seed(&f->rng, 4);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    /* Seed 4: [2, 6, 3, 6], two successes: a hit for 1 + 1 extra. */
    assert_int_equal(cf_succ(f, "strike"), 2);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
}

static void test_dodge_removes_successes(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "finesse=2", "strike=3 damage=2");
    /* Declared before the attack is rolled, out of Ana's turn. */
    cf_opts(f, "name", "Ana", "kind", "dodge", "against", "Orc", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "Ana readies a dodge against Orc: 2"));
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    /* 3 - 2 = 1: a hit for the weapon alone, the dodge shown. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_ATTACK, "");
    assert_non_null(ev);
    assert_int_equal(ev->value, 1);
    bool dodge = false;
    for (int i = 0; i < ev->nmods; i++)
        dodge |= strcmp(ev->mods[i].reason, "dodge") == 0 &&
                 ev->mods[i].amount == -2;
    assert_true(dodge);
    /* The dodge was used up. */
    assert_int_equal(cf_st(f, "Ana")->def_kind, 0);
}

static void test_dodge_all_removed_is_a_miss_and_swap(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "finesse=3", "strike=2 damage=2");
    cf_opts(f, "name", "Ana", "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 0);
    assert_true(cf_said(f, "may swap cards with Orc"));
    /* The forced swap is Ana's to make, now, mid-round. */
    int64_t a = cf_who(f, "Ana")->init[0], o = cf_who(f, "Orc")->init[0];
    cf_opts(f, "a", "Ana", "b", "Orc", NULL);
    assert_int_equal(cf_do(f, 10, "swap"), ENG_OK);
    assert_int_equal(cf_who(f, "Ana")->init[0], o);
    assert_int_equal(cf_who(f, "Orc")->init[0], a);
}

static void test_parry_not_against_shots(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "strike=2 force=1", "shoot=2 damage=1");
    cf_opts(f, "name", "Ana", "kind", "parry", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "readies a parry: 2"));
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, "shoot"),
                     ENG_OK);
    /* Two successes unopposed: 1 + 1. The parry is still there. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
    assert_int_equal(cf_st(f, "Ana")->def_kind, CARDS_R_PARRY);
    /* Only one reaction of that kind pending; unarmed parry uses Force. */
    cf_opts(f, "name", "Ana", "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "already has a parry"));
}

static void test_defence_against_someone_else_stays(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Imp", 0, NULL);
    cf_duel(f, true, "finesse=2", "strike=1 damage=1");
    cf_opts(f, "name", "Ana", "kind", "dodge", "against", "Imp", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 1);
    assert_int_equal(cf_st(f, "Ana")->def_kind, CARDS_R_DODGE);
}

static void test_attack_ranges_and_zones(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "zone=2", "zone=0 strike=2 shoot=2 damage=1");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_RANGE);
    assert_non_null(strstr(f->d.msg, "same zone"));
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "shoot range=0-1"), ENG_RANGE);
    assert_non_null(strstr(f->d.msg, "out of the weapon's range 0-1"));
    /* Refused attacks spent nothing. */
    assert_int_equal(cf_st(f, "Orc")->slow, 0);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "shoot range=1-3"), ENG_OK);
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 2);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "shoot range=3-1"), ENG_RANGE);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "shoot range=x"), ENG_INVALID);
    /* distance= overrides the zones. */
    cf_st(f, "Orc")->slow = cf_st(f, "Orc")->turn_slow = 0;
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "distance=0"), ENG_OK);
}

static void test_attack_refusals(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, NULL, "strike=2");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_STATE);
    assert_non_null(strstr(f->d.hint, "damage=2"));
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "x", NULL),
                     ENG_RANGE);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "1", "bogus"),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "grapple"));
    /* Options that do not go together are refused, not ignored. */
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "1",
                               "shoot cast"), ENG_INVALID);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "1", "mouth"),
                     ENG_INVALID);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "1",
                               "grapple mental"), ENG_INVALID);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", "3d6>=6", "1",
                               "bonus=2"), ENG_INVALID);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, "1", "need"),
                     ENG_INVALID);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Orc", NULL, "1", NULL),
                     ENG_INVALID);
    assert_int_equal(cf_attack(f, 10, "Ana", "Orc", "2", "1", "free"),
                     ENG_PERM);
    /* Not Ana's turn. */
    assert_int_equal(cf_attack(f, 10, "Ana", "Orc", "2", "1", NULL),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "not the turn of Ana"));
    /* The GM's free attack takes no maneuver and can come any time. */
    assert_int_equal(cf_attack(f, CF_GM, "Ana", "Orc", "2", "1", "free"),
                     ENG_OK);
    assert_int_equal(cf_harm(f, "Orc", CARDS_HARM), 2);
    assert_int_equal(cf_st(f, "Ana")->slow, 0);
    f->e->status = ENC_ST_SETUP;
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", "1", "1", NULL),
                     ENG_STATE);
}

/* A hidden NPC's numbers are the GM's: its roll, what changed it, its
 * dodge; the attacker's own roll against it stays public. */
static void test_hidden_numbers_are_the_gms(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "strike=2 damage=1", "strike=3 finesse=3 damage=1");
    struct enc_combatant *orc = cf_who(f, "Orc");
    orc->hidden = true;
    enc_track(orc, CARDS_HARM)->cur = 1;
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_ATTACK, "");
    assert_non_null(ev);
    assert_true(ev->value_secret);
    assert_true(f->r->rolls[ev->rolls[0]].secret);
    assert_string_equal(ev->mods[0].reason, "Harm");
    assert_true(ev->mods[0].secret);
    /* The Orc dodges Ana's attack: Ana's roll is public, its dodge not. */
    cf_opts(f, "name", "Orc", "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    assert_true(f->r->ev[0].secret);
    assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(cf_attack(f, 10, "Ana", "Orc", NULL, NULL, NULL),
                     ENG_OK);
    ev = rs_fx_find(&f->fx, ENC_EV_ATTACK, "");
    assert_false(ev->value_secret);
    assert_false(f->r->rolls[ev->rolls[0]].secret);
    bool dodge = false;
    for (int i = 0; i < ev->nmods; i++)
        if (strcmp(ev->mods[i].reason, "dodge") == 0)
            dodge = ev->mods[i].secret;
    assert_true(dodge);
}

static void test_first_maneuver_bonus(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, NULL, "strike=2 damage=0");
    cf_st(f, "Orc")->first_bonus = 2;
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    /* Two dice + 2 for the ambush's extra successes: four successes, three
     * extra. */
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 3);
    assert_int_equal(cf_st(f, "Orc")->first_bonus, 0);
    /* The attack says where its dice came from. */
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_ATTACK, "");
    assert_non_null(ev);
    assert_string_equal(ev->mods[0].reason, "ambush");
    assert_int_equal(ev->mods[0].amount, 2);
    /* Not on a later maneuver: spending one first loses it. */
    cf_st(f, "Ana")->first_bonus = 2;
    assert_int_equal(cf_next(f), ENG_OK);
    cf_opts(f, "name", "Ana", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_OK);
    assert_int_equal(cf_st(f, "Ana")->first_bonus, 0);
}

static void test_harm_limit_puts_out(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "hp=3", "strike=1 damage=3");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_OK);
    assert_true(cf_who(f, "Ana")->flags & ENC_CF_DOWN);
    /* Healing Harm through the track brings it back. */
    struct enc_track *t = enc_track(cf_who(f, "Ana"), CARDS_HARM);
    t->cur = 1;
    struct rs_call c = cf_call(f, CF_GM);
    rs_cards.ops->after_track(&c, cf_who(f, "Ana"), CARDS_HARM, 3);
    assert_false(cf_who(f, "Ana")->flags & ENC_CF_DOWN);
    rs_cards.ops->after_track(&c, cf_who(f, "Ana"), "other", 3);
}

/* ---- holding ------------------------------------------------------------- */

static void test_grapple_and_break_free(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "force=1 strike=1", "force=2");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "grapple"), ENG_OK);
    struct enc_cond *q = enc_cond_find(cf_who(f, "Ana"), CARDS_HELD);
    assert_non_null(q);
    assert_int_equal(q->source, cf_who(f, "Orc")->id);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_SILENCED));
    assert_int_equal(cf_harm(f, "Ana", CARDS_HARM), 0);
    assert_int_equal(cf_next(f), ENG_OK);
    /* Held: no attacks, no fleeing, no dodging; a parry is allowed. */
    assert_int_equal(cf_attack(f, 10, "Ana", "Orc", NULL, "1", NULL),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "held"));
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "flee"), ENG_STATE);
    cf_opts(f, "name", "Ana", "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
    /* The holder reacts with a hold: Force 2 against Ana's 1, held. */
    cf_opts(f, "name", "Orc", "kind", "hold", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    cf_opts(f, "name", "Ana", "kind", "breakfree", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "Ana: tries to break free 1 against 2: still held"));
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_HELD));
    /* Once per turn. */
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "this turn"));
    /* Next turn, no hold reaction: one success is enough. */
    assert_int_equal(cf_next(f), ENG_OK);
    cf_opts(f, "name", "Ana", "kind", "breakfree", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "1 against 1: breaks free"));
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_HELD));
}

static void test_hold_tie_keeps_hold(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "force=2", "force=2");
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "grapple mouth"), ENG_OK);
    /* Two successes: held, and the extra one covers the mouth. */
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_SILENCED));
    cf_opts(f, "name", "Orc", "kind", "hold", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    cf_opts(f, "name", "Ana", "kind", "breakfree", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "tries to break free 2 against 2: still held"));
    /* Nobody holds Ana's opponent: a hold reaction is refused. */
    cf_opts(f, "name", "Ana", "kind", "hold", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
}

static void test_break_free_as_defence(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "force=2", "force=2");
    cf_opts(f, "name", "Ana", "kind", "breakfree", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL,
                               "grapple"), ENG_OK);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_HELD));
}

/* ---- fleeing ------------------------------------------------------------- */

static void test_flee_and_chase(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "finesse=2", "finesse=2");
    assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), "Ana");
    /* The Orc chases (a reaction, out of its turn): 2 against 2. */
    cf_opts(f, "name", "Orc", "kind", "chase", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_INVALID);
    cf_opts(f, "name", "Orc", "kind", "chase", "against", "Ana", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "flee"), ENG_OK);
    assert_true(cf_said(f, "The chase keeps Ana in the fight"));
    assert_true(cf_said(f, "Ana: tries to flee 0 against 1: stays"));
    assert_false(cf_who(f, "Ana")->flags & ENC_CF_DOWN);
    /* Next round, no chase: away. */
    assert_int_equal(cf_next(f), ENG_OK);
    if (strcmp(cf_current(f), "Ana") != 0)
        assert_int_equal(cf_next(f), ENG_OK);
    cf_opts(f, "name", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "flee"), ENG_OK);
    assert_true(cf_said(f, "leaves the fight"));
    assert_true(cf_who(f, "Ana")->flags & ENC_CF_DOWN);
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_FLED));
    /* Gone: no more reactions. */
    cf_opts(f, "name", "Ana", "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "out of the fight"));
}

static void test_chase_needs_same_zone(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "finesse=2 zone=1", "finesse=2 zone=2");
    cf_opts(f, "name", "Orc", "kind", "chase", "against", "Ana", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "zone"));
    cf_opts(f, "name", "Orc", "kind", "fly", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_INVALID);
    cf_opts(f, "name", "Orc", "kind", "dodge", "against", "Orc", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_INVALID);
}

static void test_resist_and_other_reactions(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, "endure=2", NULL);
    cf_opts(f, "name", "Ana", "kind", "resist", "skill", "endure", "need",
            "3", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "resist the magic 2 against 3: does not resist"));
    cf_opts(f, "name", "Ana", "kind", "other", "label", "duck", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_OK);
    assert_true(cf_said(f, "Ana reacts: duck"));
    assert_int_equal(cf_do(f, 10, "react"), ENG_STATE);
    /* Options of other kinds are refused, not ignored. */
    cf_opts(f, "name", "Ana", "kind", "dodge", "need", "2", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "kind", "dodge", "unarmed", "true", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "kind", "other", "pool", "2", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_INVALID);
    cf_opts(f, "name", "Ana", "kind", "resist", "against", "Orc", NULL);
    assert_int_equal(cf_do(f, 10, "react"), ENG_INVALID);
}

static void test_burning_limits_actions(void **state)
{
    struct cf *f = *state;
    cf_duel(f, true, NULL, "strike=2 damage=1");
    struct enc_cond_req q = {.name = CARDS_BURNING, .value = 2};
    assert_int_equal(enc_cond_add(f->e, cf_who(f, "Orc"), &q, f->r, &f->d),
                     ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", NULL, NULL, NULL),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "burning"));
    cf_opts(f, "name", "Orc", "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    cf_opts(f, "name", "Orc", "kind", "shout", "label", "Fire!", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_true(cf_said(f, "Orc uses a shout: Fire!"));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, cf_setup, cf_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_harm_takes_dice),
        T(test_attack_outcomes),
        T(test_weapon_ranges),
        T(test_hold_and_flee_rules),
        T(test_test_rolls_pool_less_harm),
        T(test_test_seeded_outcome),
        T(test_npc_harm_points_example),
        T(test_attack_hits_for_weapon_plus_extra),
        T(test_attack_extra_and_mental),
        T(test_attack_seeded),
        T(test_dodge_removes_successes),
        T(test_dodge_all_removed_is_a_miss_and_swap),
        T(test_parry_not_against_shots),
        T(test_defence_against_someone_else_stays),
        T(test_attack_ranges_and_zones),
        T(test_attack_refusals),
        T(test_hidden_numbers_are_the_gms),
        T(test_first_maneuver_bonus),
        T(test_harm_limit_puts_out),
        T(test_grapple_and_break_free),
        T(test_hold_tie_keeps_hold),
        T(test_break_free_as_defence),
        T(test_flee_and_chase),
        T(test_chase_needs_same_zone),
        T(test_resist_and_other_reactions),
        T(test_burning_limits_actions),
    };
    return cmocka_run_group_tests_name("rs_cards_fight", tests, NULL, NULL);
}
