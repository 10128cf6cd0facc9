/* Tests for the resolve ruleset's fights: Defend lapsing after a miss, Aim,
 * Help and its limit, range penalties, the 7-over armour rule, Resolve 0,
 * Fallen Fate ignores with the half-Resolve exception, and each fate. */
#include "support.h"

#include <stdlib.h>

#include "eng_alloc.h"
#include "test_rs_resolve.h"
#include "turn.h"

/* Ana (player, 10) acts first, then Bo (player, 11), then the Goon. */
static void rf_party(struct rf *f)
{
    rf_add(f, "Ana", 10, "init=90 defense=10 ar=2 stamina=2 control=1 "
           "tactics=3 agility=2 resolve=10");
    rf_add(f, "Bo", 11, "init=80 defense=10 search=2 resolve=10");
    rf_add(f, "Goon", 0, "init=1 defense=10 ar=4 ar_energy=1 resolve=6");
    assert_int_equal(rf_begin(f), ENG_OK);
    assert_string_equal(rf_current(f), "Ana");
}

static const struct enc_event *rf_event(struct rf *f, enum enc_ev kind)
{
    for (int i = 0; i < f->r->nev; i++)
        if (f->r->ev[i].kind == kind)
            return &f->r->ev[i];
    return NULL;
}

/* The amount of ev's modifier whose reason is reason; fails without. */
static int64_t rf_mod(const struct enc_event *ev, const char *reason)
{
    for (int i = 0; i < ev->nmods; i++)
        if (strcmp(ev->mods[i].reason, reason) == 0) {
            assert_true(ev->mods[i].has_amount);
            return ev->mods[i].amount;
        }
    fail_msg("no modifier \"%s\"", reason);
    return 0;
}

/* ---- Defend -------------------------------------------------------------- */

static void test_defend_rule(void **state)
{
    (void)state;
    struct rsv_hit_out o;
    /* 12 would hit Defense 10; Defend's +4 makes it miss and lapses. */
    rsv_hit(&(struct rsv_hit_in){.attack = 12, .defense = 10,
                                 .defend_bonus = 4, .damage = 5}, &o);
    assert_false(o.hit);
    assert_true(o.defend_lapses);
    /* A miss anyway: the bonus stays. */
    rsv_hit(&(struct rsv_hit_in){.attack = 9, .defense = 10,
                                 .defend_bonus = 4}, &o);
    assert_false(o.hit);
    assert_false(o.defend_lapses);
    /* Beats the raised Defense: a hit, the bonus stays. */
    rsv_hit(&(struct rsv_hit_in){.attack = 14, .defense = 10,
                                 .defend_bonus = 4, .damage = 5}, &o);
    assert_true(o.hit);
    assert_false(o.defend_lapses);
    assert_int_equal(o.loss, 5);
}

static void test_defend_lapses_after_a_miss(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_opts(f, "skill", "agility", NULL);
    assert_int_equal(rf_do(f, 10, "defend"), ENG_OK);
    const struct enc_cond *q = enc_cond_find(rf_who(f, "Ana"), RSV_DEFENDING);
    assert_non_null(q);
    assert_int_equal(q->value, 4);                     /* 2 x agility 2 */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* Bo */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* Goon */
    /* 12 against 10 + 4: a miss that only Defend caused. */
    assert_int_equal(rf_attack(f, RF_GM, "Goon", "Ana", "12", "5", NULL),
                     ENG_OK);
    const struct enc_event *ev = rf_event(f, ENC_EV_ATTACK);
    assert_string_equal(ev->outcome, "miss");
    assert_int_equal(ev->target, 14);
    assert_null(enc_cond_find(rf_who(f, "Ana"), RSV_DEFENDING));
    assert_int_equal(rf_resolve(f, "Ana"), 10);
    /* Defense is back to 10 at once: the next hit lands (the GM may use a
     * held attack to show it; momentum gives the Goon a second action). */
    f->nopts = 0;
    assert_int_equal(rf_do(f, RF_GM, "momentum"), ENG_OK);
    assert_int_equal(rf_attack(f, RF_GM, "Goon", "Ana", "12", "5", NULL),
                     ENG_OK);
    assert_string_equal(rf_event(f, ENC_EV_ATTACK)->outcome, "hit");
    assert_int_equal(rf_resolve(f, "Ana"), 10 - (5 - 2));
}

static void test_defend_ends_at_next_turn_start(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_opts(f, "rank", "3", NULL);
    assert_int_equal(rf_do(f, 10, "defend"), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    /* A miss anyway keeps it. */
    assert_int_equal(rf_attack(f, RF_GM, "Goon", "Ana", "9", "5", NULL),
                     ENG_OK);
    assert_non_null(enc_cond_find(rf_who(f, "Ana"), RSV_DEFENDING));
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* R2: Ana */
    assert_null(enc_cond_find(rf_who(f, "Ana"), RSV_DEFENDING));
    /* skill: must name a stat the character has. */
    rf_opts(f, "skill", "hide", NULL);
    assert_int_equal(rf_do(f, 10, "defend"), ENG_NOTFOUND);
    /* Defend uses Agility, Athletics or Hide only. */
    rf_opts(f, "skill", "tactics", NULL);
    assert_int_equal(rf_do(f, 10, "defend"), ENG_INVALID);
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "defend"), ENG_INVALID);
}

/* ---- Aim and Help -------------------------------------------------------- */

static void test_aim_adds_rank_once(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_opts(f, "skill", "tactics", NULL);
    assert_int_equal(rf_do(f, 10, "aim"), ENG_OK);
    /* Aiming took the action. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "7", NULL, NULL),
                     ENG_STATE);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* R2: Ana */
    /* 7 + tactics 3 = 10: hits Defense 10. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "7", NULL, NULL),
                     ENG_OK);
    const struct enc_event *ev = rf_event(f, ENC_EV_ATTACK);
    assert_int_equal(ev->value, 10);
    assert_string_equal(ev->outcome, "hit");
    assert_int_equal(rf_mod(ev, "Aim"), 3);
    assert_null(enc_cond_find(rf_who(f, "Ana"), RSV_AIM));
}

static void test_help_limit_and_use(void **state)
{
    struct rf *f = *state;
    rf_add(f, "H1", 0, "init=9 lore=1");
    rf_add(f, "H2", 0, "init=8 lore=2");
    rf_add(f, "H3", 0, "init=7 lore=4");
    rf_add(f, "Ana", 10, "init=0 defense=10 resolve=10");
    rf_add(f, "Goon", 0, "init=-9 defense=20 resolve=5");
    assert_int_equal(rf_begin(f), ENG_OK);
    for (int i = 0; i < 3; i++) {
        rf_opts(f, "skill", "lore", NULL);
        assert_int_equal(rf_do(f, RF_GM, "assist"), ENG_OK);
        assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    }
    assert_string_equal(rf_current(f), "Ana");
    /* Three helps on one roll: refused, nothing spent. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "15", NULL,
                               "help=H1,H2,H3"), ENG_LIMIT);
    assert_non_null(strstr(f->d.msg, "at most 2"));
    assert_true(rsv_st(rf_who(f, "H1"))->help);
    /* Two: 15 + 1 + 4 = 20 hits Defense 20. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "15", NULL,
                               "help=H1,H3"), ENG_OK);
    const struct enc_event *ev = rf_event(f, ENC_EV_ATTACK);
    assert_int_equal(ev->value, 20);
    assert_string_equal(ev->outcome, "hit");
    /* Each help shows as what it added. */
    assert_int_equal(ev->nmods, 2);
    assert_string_equal(ev->mods[0].reason, "help");
    assert_int_equal(ev->mods[0].amount, 1);
    assert_int_equal(ev->mods[1].amount, 4);
    assert_false(rsv_st(rf_who(f, "H1"))->help);
    assert_true(rsv_st(rf_who(f, "H2"))->help);
    /* A spent help cannot be used again; a roll cannot help itself. */
    rf_opts(f, "roll", "3", "help", "H1", NULL);
    assert_int_equal(rf_do(f, 10, "check"), ENG_STATE);
    rf_opts(f, "roll", "3", "help", "Ana", NULL);
    assert_int_equal(rf_do(f, 10, "check"), ENG_INVALID);
    /* An attribute check may use a help too. */
    rf_opts(f, "roll", "3", "dc", "5", "help", "H2", NULL);
    assert_int_equal(rf_do(f, 10, "check"), ENG_OK);
    ev = rf_event(f, ENC_EV_TEST);
    assert_int_equal(ev->value, 5);
    assert_int_equal(ev->target, 5);
    assert_string_equal(ev->outcome, "success");
    assert_int_equal(rf_mod(ev, "help"), 2);
}

static void test_unused_help_rallies(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_opts(f, "skill", "tactics", NULL);
    assert_int_equal(rf_do(f, 10, "assist"), ENG_OK);
    assert_true(rf_said(f, "Ana readies a help: +3"));
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* Bo */
    assert_int_equal(rf_attack(f, 11, "Bo", "Ana", "12", "4", NULL), ENG_OK);
    assert_int_equal(rf_resolve(f, "Ana"), 8);         /* 4 - armor 2 */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* Goon */
    f->nopts = 0;
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_INVALID);
    rf_opts(f, "name", "Bo", "amount", "3", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* R2: Ana */
    assert_true(rf_said(f, "help went unused"));
    /* Not a Wounded character; Ana herself is fine. */
    struct enc_cond_req q = {.name = RSV_WOUNDED};
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(enc_cond_add(f->e, rf_who(f, "Bo"), &q, c.r, c.d),
                     ENG_OK);
    rf_opts(f, "target", "Bo", NULL);
    assert_int_equal(rf_do(f, 10, "rally"), ENG_STATE);
    rf_opts(f, "target", "Ana", NULL);
    assert_int_equal(rf_do(f, 10, "rally"), ENG_OK);
    assert_int_equal(rf_resolve(f, "Ana"), 9);
    assert_int_equal(rf_do(f, 10, "rally"), ENG_STATE);
}

/* ---- range --------------------------------------------------------------- */

static void test_range_penalties(void **state)
{
    (void)state;
    assert_int_equal(rsv_range_penalty(RSV_RANGE_CLOSE, true, false), 1);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_CLOSE, false, false), 0);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_SHORT, true, false), 0);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_MEDIUM, true, false), 0);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_LONG, true, false), 1);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_EXTREME, true, false), 2);
    /* Aim ignores up to 1D, at long range or further only. */
    assert_int_equal(rsv_range_penalty(RSV_RANGE_LONG, true, true), 0);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_EXTREME, true, true), 1);
    assert_int_equal(rsv_range_penalty(RSV_RANGE_CLOSE, true, true), 1);
    /* The choices of range= name the bands in the enum's order. */
    assert_string_equal(rsv_ranges[RSV_RANGE_CLOSE - 1], "close");
    assert_string_equal(rsv_ranges[RSV_RANGE_EXTREME - 1], "extreme");
    assert_null(rsv_ranges[RSV_RANGE_EXTREME]);
}

static void test_range_removes_dice(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "4D+1", NULL,
                               "range=extreme"), ENG_OK);
    int faces[8];
    assert_int_equal(rf_faces(f, "attack", faces, 8), 2);
    const struct enc_event *ev = rf_event(f, ENC_EV_ATTACK);
    assert_int_equal(ev->value, faces[0] + faces[1] + 1);
    /* The penalty shows as the dice it took. */
    assert_int_equal(ev->nmods, 1);
    assert_string_equal(ev->mods[0].reason, "extreme range");
    assert_int_equal(ev->mods[0].amount, -2);
    assert_string_equal(ev->mods[0].unit, "dice");
    /* A melee attack is never at long range; a penalty needs a plain
     * pool. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D", NULL,
                               "melee range=long"), ENG_INVALID);
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D!", NULL,
                               "range=long"), ENG_INVALID);
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D", NULL, "bogus"),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "melee, ranged, piercing, range, "
                           "type, help"));
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D", NULL,
                               "range=far"), ENG_INVALID);
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D", NULL,
                               "melee ranged"), ENG_INVALID);
    /* Aim spent on range: 4D at long range keeps all four dice. */
    rf_opts(f, "range", "true", NULL);
    assert_int_equal(rf_do(f, 11, "aim"), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* R2: Bo */
    assert_string_equal(rf_current(f), "Bo");
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "4D", NULL,
                               "range=long"), ENG_OK);
    assert_int_equal(rf_faces(f, "attack", faces, 8), 4);
    ev = rf_event(f, ENC_EV_ATTACK);
    assert_int_equal(ev->nmods, 1);
    assert_false(ev->mods[0].has_amount);
    assert_non_null(strstr(ev->mods[0].reason, "Aim"));
    assert_null(enc_cond_find(rf_who(f, "Bo"), RSV_AIM_RANGE));
    /* Close range: ranged -1D, melee none (1D floor by default). */
    f->nopts = 0;
    assert_int_equal(rf_do(f, 11, "momentum"), ENG_OK);
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "1D", NULL,
                               "range=close"), ENG_OK);
    assert_int_equal(rf_faces(f, "attack", faces, 8), 1);
    /* The floor kept the one die: no dice were taken. */
    assert_int_equal(rf_event(f, ENC_EV_ATTACK)->nmods, 0);

}

static void test_min_dice_setting(void **state)
{
    struct rf *f = *state;
    struct rs_call c = rf_call(f, RF_GM);
    /* Declared bounds: 0 or 1. */
    assert_int_equal(rs_settings_apply(&c, &rs_resolve, "min_dice=2"),
                     ENG_RANGE);
    /* min_dice=0 lets a penalty take the last die, leaving the bonus. */
    c = rf_call(f, RF_GM);
    assert_int_equal(rs_settings_apply(&c, &rs_resolve, "min_dice=0"),
                     ENG_OK);
    rf_party(f);
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "1D+2", NULL,
                               "range=close"), ENG_OK);
    const struct enc_event *ev = rf_event(f, ENC_EV_ATTACK);
    assert_int_equal(ev->value, 2);
    assert_int_equal(rf_mod(ev, "close range"), -1);
    assert_int_equal(ev->nrolls, 1);
    assert_int_equal(f->r->rolls[ev->rolls[0]].ndice, 0);
}

/* ---- armour -------------------------------------------------------------- */

static void test_seven_over_halves_armor(void **state)
{
    (void)state;
    struct rsv_hit_out o;
    /* Beats 10 by 7: armor 5 counts as 2; 8 damage takes 6. */
    rsv_hit(&(struct rsv_hit_in){.attack = 17, .defense = 10, .armor = 5,
                                 .damage = 8}, &o);
    assert_true(o.hit);
    assert_true(o.armor_halved);
    assert_int_equal(o.armor, 2);
    assert_int_equal(o.loss, 6);
    /* By 6: full armor. */
    rsv_hit(&(struct rsv_hit_in){.attack = 16, .defense = 10, .armor = 5,
                                 .damage = 8}, &o);
    assert_false(o.armor_halved);
    assert_int_equal(o.loss, 3);
    /* Piercing: no halving. */
    rsv_hit(&(struct rsv_hit_in){.attack = 17, .defense = 10, .armor = 5,
                                 .piercing = true, .damage = 8}, &o);
    assert_false(o.armor_halved);
    assert_int_equal(o.loss, 3);
    /* The margin is over Defense as raised by Defend. */
    rsv_hit(&(struct rsv_hit_in){.attack = 17, .defense = 8,
                                 .defend_bonus = 4, .armor = 5,
                                 .damage = 8}, &o);
    assert_false(o.armor_halved);
    /* Armor never heals. */
    rsv_hit(&(struct rsv_hit_in){.attack = 10, .defense = 10, .armor = 5,
                                 .damage = 2}, &o);
    assert_int_equal(o.loss, 0);
}

static void test_armor_by_type_end_to_end(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    /* Goon: ar 4, ar_energy 1. 17 beats 10 by 7: 4 -> 2; 6 - 2 = 4. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "17", "6", NULL),
                     ENG_OK);
    assert_int_equal(rf_event(f, ENC_EV_DAMAGE)->a, 4);
    assert_int_equal(rf_mod(rf_event(f, ENC_EV_DAMAGE),
                            "half armour (Defense beaten by 7 or more)"), -2);
    assert_int_equal(rf_resolve(f, "Goon"), 2);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    /* Energy, Piercing, 11: armor 1, 2 - 1 = 1. */
    assert_int_equal(rf_attack(f, 11, "Bo", "Goon", "11", "2",
                               "type=energy piercing"), ENG_OK);
    assert_int_equal(rf_resolve(f, "Goon"), 1);
}

/* ---- secrecy ------------------------------------------------------------- */

static void test_hidden_npc_numbers_are_the_gms(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=90 defense=10 resolve=10");
    struct enc_combatant *sniper = rf_add(f, "Sniper", 0,
                                          "init=1 defense=12 ar=2 resolve=6");
    sniper->hidden = true;
    assert_int_equal(rf_begin(f), ENG_OK);
    /* Its score is said to the GM only. */
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_SAY,
                                            "initiative score 4");
    assert_non_null(ev);
    assert_true(ev->secret);
    /* Ana's own roll is public; the Sniper's Defense and armour are not. */
    assert_int_equal(rf_attack(f, 10, "Ana", "Sniper", "4D+10", "5", NULL),
                     ENG_OK);
    ev = rf_event(f, ENC_EV_ATTACK);
    assert_false(ev->secret);
    assert_false(ev->value_secret);
    assert_true(ev->target_secret);
    assert_false(f->r->rolls[ev->rolls[0]].secret);
    ev = rf_event(f, ENC_EV_DAMAGE);
    assert_true(ev->nmods > 0);
    assert_true(ev->mods[0].secret);
    /* The Sniper's own attack roll is the GM's. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_attack(f, RF_GM, "Sniper", "Ana", "3D", NULL, NULL),
                     ENG_OK);
    ev = rf_event(f, ENC_EV_ATTACK);
    assert_true(ev->value_secret);
    assert_true(f->r->rolls[ev->rolls[0]].secret);
}

/* ---- Resolve 0, Wounded, ignores ----------------------------------------- */

static void test_after_damage_rule(void **state)
{
    (void)state;
    struct rsv_after_in in = {.resolve_after = 0, .max = 10, .loss = 3,
                              .pc = true, .ignores_left = 2};
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_WOUNDED);
    in.pc = false;
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_DEFEATED);
    in.significant = true;
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_WOUNDED);
    /* Wounded and hit again: a fate, ignorable up to half of 10. */
    in = (struct rsv_after_in){.max = 10, .loss = 5, .wounded = true,
                               .pc = true, .ignores_left = 1};
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_FATE);
    in.loss = 6;
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_FATE_MUST);
    in.loss = 5;
    in.ignores_left = 0;
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_FATE_MUST);
    /* Max 11: half is 5 (rounded down), so 6 cannot be ignored. */
    in = (struct rsv_after_in){.max = 11, .loss = 6, .wounded = true,
                               .pc = true, .ignores_left = 3};
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_FATE_MUST);
    /* No damage, no fate. */
    in.loss = 0;
    assert_int_equal(rsv_after_damage(&in), RSV_AFTER_NONE);
    assert_int_equal(rsv_ignores(2, 3), 3);
    assert_int_equal(rsv_ignores(4, 1), 4);
}

static void test_minor_npc_defeated(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_add(f, "Lt", 0, "init=0 defense=1 significant=1 resolve=3");
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "30", "20", NULL),
                     ENG_OK);
    assert_true(rf_who(f, "Goon")->flags & ENC_CF_DOWN);
    assert_false(rsv_is_wounded(rf_who(f, "Goon")));
    /* Down is down: no more attacks on it. */
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "momentum"), ENG_OK);
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "30", "20", NULL),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "already down"));
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_attack(f, 11, "Bo", "Lt", "30", "3", NULL), ENG_OK);
    /* A significant NPC is Wounded and fights on... */
    assert_true(rsv_is_wounded(rf_who(f, "Lt")));
    assert_false(rf_who(f, "Lt")->flags & ENC_CF_DOWN);
    /* ...until hurt again: defeated, unless the GM grants a fate. */
    rf_opts(f, "name", "Lt", "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_true(rf_who(f, "Lt")->flags & ENC_CF_DOWN);
    assert_int_equal(rsv_st(rf_who(f, "Lt"))->fate, RSV_FATE_NONE);
    rf_opts(f, "name", "Lt", "fate", "tragic", NULL);
    assert_int_equal(rf_do(f, 11, "fate"), ENG_PERM);
    assert_int_equal(rf_do(f, RF_GM, "fate"), ENG_OK);
    assert_true(rf_who(f, "Lt")->flags & ENC_CF_DEAD);
}

static void test_wound_ignores(void **state)
{
    struct rf *f = *state;
    rf_party(f);           /* Ana: resolve 10, stamina 2, control 1 */
    rf_opts(f, "name", "Ana", "amount", "10", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_true(rsv_is_wounded(rf_who(f, "Ana")));
    assert_false(rf_who(f, "Ana")->flags & ENC_CF_DOWN);
    char buf[128];
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Ana"), buf, sizeof buf);
    assert_non_null(strstr(buf, "ignores 2/2"));
    /* More damage: a fate is due; the fight waits for it. */
    rf_opts(f, "name", "Ana", "amount", "5", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_int_equal(rsv_st(rf_who(f, "Ana"))->fate, RSV_FATE_MAY_IGNORE);
    assert_int_equal(rf_next(f, RF_GM), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "Fallen Fate"));
    /* Only Ana's player or the GM chooses. */
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 11, "fate"), ENG_PERM);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    assert_int_equal(rsv_st(rf_who(f, "Ana"))->fate, RSV_FATE_NONE);
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Ana"), buf, sizeof buf);
    assert_non_null(strstr(buf, "ignores 1/2"));
    /* 6 is more than half of 10: cannot be ignored. */
    rf_opts(f, "name", "Ana", "amount", "6", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "more than half"));
    /* The GM settles it another way for this test, then Ana rests. */
    rsv_st(rf_who(f, "Ana"))->fate = RSV_FATE_NONE;
    rf_opts(f, "name", "Ana", "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    /* No ignores left: even a small hit must be answered. */
    rf_opts(f, "name", "Ana", "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_int_equal(rsv_st(rf_who(f, "Ana"))->fate, RSV_FATE_MUST);
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "no ignores left"));
    rf_opts(f, "name", "Ana", NULL);
    assert_int_equal(rf_do(f, 10, "rest"), ENG_PERM);
    assert_int_equal(rf_do(f, RF_GM, "rest"), ENG_OK);
    assert_int_equal(rsv_st(rf_who(f, "Ana"))->ignores_used, 0);
}

static void test_hp_track_change_counts(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    /* /combat hp sets the track and calls after_track. */
    struct enc_track *t = enc_track(rf_who(f, "Goon"), RSV_RESOLVE);
    t->cur = 0;
    struct rs_call c = rf_call(f, RF_GM);
    rs_resolve.ops->after_track(&c, rf_who(f, "Goon"), "hp", 6);
    assert_true(rf_who(f, "Goon")->flags & ENC_CF_DOWN);
    t->cur = 2;
    c = rf_call(f, RF_GM);
    rs_resolve.ops->after_track(&c, rf_who(f, "Goon"), "hp", 0);
    assert_false(rf_who(f, "Goon")->flags & ENC_CF_DOWN);
}

/* ---- the four fates ------------------------------------------------------ */

static void test_fate_never_the_same(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    struct enc_combatant *ana = rf_who(f, "Ana");
    assert_int_equal(enc_stat_set(ana, "strength", 4, &f->d), ENG_OK);
    rf_fate_due(f, "Ana");
    rf_opts(f, "name", "Ana", "fate", "never", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_INVALID);
    rf_opts(f, "name", "Ana", "fate", "never", "attrs", "luck", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_NOTFOUND);
    rf_opts(f, "name", "Ana", "fate", "never", "attrs", "agility,agility",
            NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_INVALID);
    /* Two attributes: -1D each. */
    rf_opts(f, "name", "Ana", "fate", "never", "attrs", "agility,strength",
            NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    ana = rf_who(f, "Ana");
    assert_int_equal(enc_stat_or(ana, "agility", 0), 1);
    assert_int_equal(enc_stat_or(ana, "strength", 0), 3);
    assert_int_equal(enc_stat_or(ana, "nts", 0), 1);
    /* Removed from the encounter: her turns are skipped. */
    assert_true(rsv_is_out(ana));
    assert_false(ana->flags & ENC_CF_DEAD);
    assert_string_equal(rf_current(f), "Ana");
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(rf_current(f), "Bo");
    /* One attribute: -2D; and twice in a life at most. */
    struct enc_combatant *bo = rf_who(f, "Bo");
    assert_int_equal(enc_stat_set(bo, "nts", 1, &f->d), ENG_OK);
    rf_fate_due(f, "Bo");
    rf_opts(f, "name", "Bo", "fate", "never", "attrs", "search", NULL);
    assert_int_equal(rf_do(f, 11, "fate"), ENG_OK);
    assert_int_equal(enc_stat_or(rf_who(f, "Bo"), "search", 9), 0);
    assert_int_equal(enc_stat_or(rf_who(f, "Bo"), "nts", 0), 2);
    rf_add(f, "Cy", 12, "init=0 nts=2 might=3 resolve=4");
    rf_fate_due(f, "Cy");
    rf_opts(f, "name", "Cy", "fate", "never", "attrs", "might", NULL);
    assert_int_equal(rf_do(f, 12, "fate"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "2 times"));
}

static void test_fate_desperate_push(void **state)
{
    struct rf *f = *state;
    assert_false(rsv_push_survives(7));
    assert_true(rsv_push_survives(8));
    assert_false(rsv_push_survives(2));
    /* Seeded: read the two faces; 8 or more lives, 7 or less dies. */
    int lived = 0, died = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        rf_teardown(state);
        rf_setup(state);
        f = *state;
        rf_party(f);
        eng_rng_seed(&f->rng, seed);
        rf_fate_due(f, "Ana");
        rf_opts(f, "name", "Ana", "fate", "push", NULL);
        assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
        int faces[2];
        assert_int_equal(rf_faces(f, "Desperate Push", faces, 2), 2);
        int sum = faces[0] + faces[1];
        struct enc_combatant *ana = rf_who(f, "Ana");
        if (sum >= 8) {
            lived++;
            assert_false(ana->flags & ENC_CF_DEAD);
            assert_false(rsv_is_wounded(ana));
            /* From 0, up to the maximum of 10. */
            assert_int_equal(rf_resolve(f, "Ana"), sum > 10 ? 10 : sum);
        } else {
            died++;
            assert_true(ana->flags & ENC_CF_DEAD);
            assert_int_equal(rf_resolve(f, "Ana"), 0);
        }
        assert_int_equal(rsv_st(ana)->fate, RSV_FATE_NONE);
    }
    /* These six seeds show both outcomes. */
    assert_true(lived > 0);
    assert_true(died > 0);
}

static void test_fate_blaze_of_glory(void **state)
{
    struct rf *f = *state;
    rf_party(f);                         /* Ana, Bo, Goon */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);       /* Bo */
    /* During Bo's turn Ana, Wounded, is hurt again and blazes. */
    rf_fate_due(f, "Ana");
    rf_opts(f, "name", "Ana", "fate", "blaze", NULL);
    f->log[0] = '\0';
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    /* Bo's turn ended; Ana takes one now. */
    assert_true(rf_who(f, "Bo")->flags & ENC_CF_ACTED);
    assert_string_equal(rf_current(f), "Ana");
    rf_opts(f, "kind", "dash", NULL);
    assert_int_equal(rf_do(f, 10, "act"), ENG_OK);
    rf_opts(f, "after", "Goon", NULL);
    assert_int_equal(rf_do(f, 10, "delay"), ENG_STATE);
    /* At its end she dies, and play goes on after Bo's turn. */
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_true(rf_who(f, "Ana")->flags & ENC_CF_DEAD);
    assert_string_equal(rf_current(f), "Goon");
    assert_int_equal(rf_next(f, RF_GM), ENG_OK);
    assert_string_equal(f->log, "T:Ana T:Goon R:2 T:Bo ");
}

static void test_fate_tragic_demise(void **state)
{
    struct rf *f = *state;
    rf_heroes(f);
    rf_opts(f, "name", "Goon", "amount", "6", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    rf_opts(f, "name", "Cy", "fate", "tragic", NULL);
    assert_int_equal(rf_do(f, 12, "fate"), ENG_STATE);
    rf_fate_due(f, "Cy");
    rf_opts(f, "name", "Cy", "fate", "tragic", NULL);
    assert_int_equal(rf_do(f, 12, "fate"), ENG_OK);
    assert_true(rf_who(f, "Cy")->flags & ENC_CF_DEAD);
    /* Each ally rolled 2D: Ana (full) stays at 10, Bo regains the faces
     * (up to 10); the Goon, a foe, gains nothing. */
    int ana[2], bo[2];
    /* Rolled for each ally in the order they joined: Ana, then Bo. */
    assert_int_equal(rs_fx_faces(&f->fx, rs_fx_roll(&f->fx, "Resolve regained",
                                                    0), ana, 2), 2);
    assert_int_equal(rs_fx_faces(&f->fx, rs_fx_roll(&f->fx, "Resolve regained",
                                                    1), bo, 2), 2);
    assert_int_equal(rf_resolve(f, "Ana"), 10);
    int64_t want = 4 + bo[0] + bo[1];
    assert_int_equal(rf_resolve(f, "Bo"), want > 10 ? 10 : want);
    assert_int_equal(rf_resolve(f, "Goon"), 4);
    assert_int_equal(enc_stat_or(rf_who(f, "Ana"), "fp", 0), 1);
    assert_int_equal(enc_stat_or(rf_who(f, "Bo"), "fp", 0), 2);
    assert_int_equal(enc_stat_or(rf_who(f, "Goon"), "fp", 0), 0);
}

static void test_fate_tragic_witnesses(void **state)
{
    struct rf *f = *state;
    rf_party(f);
    rf_opts(f, "name", "Bo", "amount", "5", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    rf_fate_due(f, "Ana");
    rf_opts(f, "name", "Ana", "fate", "tragic", "witnesses", "Nobody", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_NOTFOUND);
    assert_false(rf_who(f, "Ana")->flags & ENC_CF_DEAD);
    rf_opts(f, "name", "Ana", "fate", "tragic", "witnesses", "Goon", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    /* The GM named the Goon alone as a witness: Bo gets nothing. */
    assert_int_equal(rf_resolve(f, "Bo"), 5);
    assert_int_equal(enc_stat_or(rf_who(f, "Goon"), "fp", 0), 1);
    rf_opts(f, "name", "Ana", "fate", "push", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_STATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defend_rule),
        cmocka_unit_test(test_range_penalties),
        cmocka_unit_test(test_seven_over_halves_armor),
        cmocka_unit_test(test_after_damage_rule),
#define T(fn) cmocka_unit_test_setup_teardown(fn, rf_setup, rf_teardown)
        T(test_defend_lapses_after_a_miss),
        T(test_defend_ends_at_next_turn_start),
        T(test_aim_adds_rank_once),
        T(test_help_limit_and_use),
        T(test_unused_help_rallies),
        T(test_range_removes_dice),
        T(test_min_dice_setting),
        T(test_armor_by_type_end_to_end),
        T(test_hidden_npc_numbers_are_the_gms),
        T(test_minor_npc_defeated),
        T(test_wound_ignores),
        T(test_hp_track_change_counts),
        T(test_fate_never_the_same),
        T(test_fate_desperate_push),
        T(test_fate_blaze_of_glory),
        T(test_fate_tragic_demise),
        T(test_fate_tragic_witnesses),
#undef T
    };
    return cmocka_run_group_tests_name("rs_resolve_fight", tests, NULL, NULL);
}
