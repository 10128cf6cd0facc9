/* Tests for the teams ruleset's attacks, damage and death
 * (engine/rulesets/teams/rs_teams_combat.c, rs_teams_attack.c): the
 * chapter's worked examples fed to the pure functions with the example's
 * numbers, then the same scenes through the ops with seeded or fixed
 * dice. */
#include "support.h"

#include "test_rs_teams.h"

/* ---- pure: attacks ------------------------------------------------------- */

static struct te_attack_in spear(int64_t test, int64_t luck)
{
    /* Boudica's spear: damage 4, critical 8 at 19+, piercing; her test is
     * 2d6+1; the enemy has evasion 6 and physical reduction 8. */
    return (struct te_attack_in){
        .tests = {test}, .ntests = 1, .luck = luck, .map = TE_MAP,
        .evasion = 6, .deflection = 8, .damage = 4, .crit_damage = 8,
        .crit_threshold = 19, .reducible = true,
    };
}

static void test_teams_boudica_just_hits(void **state)
{
    (void)state;
    struct te_attack_in in = spear(6, 7);
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_true(out.hit);
    assert_false(out.crit);
    assert_int_equal(out.raw, 10);
    assert_int_equal(out.damage, 2);
    in.tests[0] = 5;
    te_attack_resolve(&in, &out);
    assert_false(out.hit);
    assert_int_equal(out.damage, 0);
}

static void test_teams_boudica_critical(void **state)
{
    (void)state;
    struct te_attack_in in = spear(6, 19);
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_true(out.crit);
    assert_int_equal(out.raw, 14);
    assert_int_equal(out.damage, 6);
    /* A critical cannot miss. */
    in.tests[0] = 2;
    te_attack_resolve(&in, &out);
    assert_true(out.hit);
    assert_int_equal(out.damage, 2); /* 2 + 8 - 8 */
    in.luck = 18;
    te_attack_resolve(&in, &out);
    assert_false(out.hit);
}

static void test_teams_agnessa_stray_and_penalty(void **state)
{
    (void)state;
    struct te_attack_in in = spear(9, 1);
    in.stray_possible = true;
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_true(out.stray);
    assert_false(out.hit);
    in.luck = 2;
    te_attack_resolve(&in, &out);
    assert_false(out.stray);
    /* Her second attack this round: 5 - 2 = 3, short of evasion 4. */
    in = spear(5, 10);
    in.evasion = 4;
    in.prior_attacks = 1;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.result, 3);
    assert_false(out.hit);
    in.prior_attacks = 0;
    te_attack_resolve(&in, &out);
    assert_true(out.hit);
}

static void test_teams_advantage_keeps_best(void **state)
{
    (void)state;
    assert_int_equal(te_advantage(1, 0), 1);   /* sneak */
    assert_int_equal(te_advantage(2, 0), 2);   /* sneak + flank */
    assert_int_equal(te_advantage(3, 0), 2);
    assert_int_equal(te_advantage(1, 1), 0);
    assert_int_equal(te_advantage(0, 1), -1);
    struct te_attack_in in = spear(3, 10);
    in.tests[1] = 7;
    in.ntests = 2;
    in.adv = 1;
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.kept, 7);
    assert_true(out.hit);
    in.adv = -1;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.kept, 3);
    assert_false(out.hit);
    in.tests[2] = 9;
    in.ntests = 3;
    in.adv = 2;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.kept, 9);
}

/* Fabian (medium, 4) against a small goblin (3): evasion counts 1 higher
 * and deflection 1 lower. */
static void test_teams_fabian_size(void **state)
{
    (void)state;
    struct te_attack_in in = spear(6, 10);
    in.size_diff = 4 - 3;
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.evasion, 7);
    assert_int_equal(out.deflection, 7);
    assert_false(out.hit);
    in.tests[0] = 7;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.damage, 7 + 4 - 7);
    /* Smaller: the other way round. */
    in.size_diff = -1;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.evasion, 5);
    assert_int_equal(out.deflection, 9);
}

static void test_teams_typeless_and_minimum(void **state)
{
    (void)state;
    struct te_attack_in in = spear(6, 10);
    in.damage = 0;
    in.deflection = 50;
    struct te_attack_out out;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.damage, 1);        /* at least 1 */
    in.reducible = false;
    te_attack_resolve(&in, &out);
    assert_int_equal(out.damage, 6);        /* typeless: not reduced */
    enum te_dmg_class k;
    assert_true(te_damage_class("Piercing", &k));
    assert_int_equal(k, TE_DMG_PHYSICAL);
    assert_true(te_damage_class("void", &k));
    assert_int_equal(k, TE_DMG_ELEMENTAL);
    assert_true(te_damage_class("psychic", &k));
    assert_int_equal(k, TE_DMG_TYPELESS);
    assert_false(te_damage_class("sonic", &k));
}

/* ---- pure: damage and death ---------------------------------------------- */

/* Boudica: endurance 12, health 12, constitution 4. */
static void test_teams_boudica_injuries(void **state)
{
    (void)state;
    struct te_body b = {12, 12, 12, 12, 4};
    struct te_damage_out o;
    te_damage_apply(&b, 7, false, &o);
    assert_int_equal(b.endurance, 5);
    assert_true(o.harmed);
    assert_false(o.bloodied);
    assert_int_equal(o.fortify_dc, 0);
    te_damage_apply(&b, 10, false, &o);
    assert_int_equal(b.endurance, 0);
    assert_int_equal(o.to_health, 5);
    assert_int_equal(b.health, 7);
    assert_int_equal(o.fortify_dc, 5);      /* missing 5 > con 4 */
    assert_true(o.bloodied);
    assert_false(o.unconscious);
    te_damage_apply(&b, 8, false, &o);
    assert_int_equal(b.health, 0);
    assert_true(o.unconscious);
    assert_true(o.risk_death);              /* 8 exceeded the 7 left */
    assert_int_equal(o.fortify_dc, 0);
}

static void test_teams_fortify_only_past_constitution(void **state)
{
    (void)state;
    struct te_body b = {0, 10, 12, 12, 4};
    struct te_damage_out o;
    te_damage_apply(&b, 4, false, &o);      /* missing 4, not more than 4 */
    assert_int_equal(o.fortify_dc, 0);
    te_damage_apply(&b, 1, false, &o);
    assert_int_equal(o.fortify_dc, 5);
    /* Exactly to zero does not risk death. */
    struct te_body z = {0, 0, 5, 5, 1};
    te_damage_apply(&z, 5, false, &o);
    assert_true(o.unconscious);
    assert_false(o.risk_death);
}

static void test_teams_nonlethal_first_time_only(void **state)
{
    (void)state;
    struct te_body b = {0, 0, 7, 12, 4};
    struct te_damage_out o;
    te_damage_apply(&b, 8, true, &o);
    assert_true(o.unconscious);
    assert_false(o.risk_death);
    te_damage_apply(&b, 1, true, &o);
    assert_true(o.risk_death);
}

static void test_teams_block_arithmetic(void **state)
{
    (void)state;
    struct te_block_out o;
    te_block_apply(10, 3, 10, &o);
    assert_int_equal(o.to_item, 7);
    assert_int_equal(o.through, 0);
    assert_int_equal(o.durability, 3);
    te_block_apply(20, 3, 4, &o);
    assert_int_equal(o.to_item, 4);
    assert_int_equal(o.through, 13);
    assert_int_equal(o.durability, 0);
    te_block_apply(2, 5, 4, &o);
    assert_int_equal(o.to_item, 1);         /* at least 1 */
}

/* ---- through the ops ----------------------------------------------------- */

/* Two one-member teams, attacker first; A's turn is running. */
static struct fx *fx_duel(uint64_t seed, const char *a, const char *b)
{
    struct fx *f = fx_new(seed);
    fx_add(f, "A", "red", a);
    fx_add(f, "B", "blue", b);
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_string_equal(fx_current(f), "A");
    return f;
}

/* Whether an attack event's outcome is a hit (critical or not). */
static bool fx_hit(const struct enc_event *ev)
{
    return ev != NULL && ev->outcome != NULL &&
           strstr(ev->outcome, "hit") != NULL;
}

static const struct enc_roll *fx_roll(struct fx *f, const char *label)
{
    for (int i = 0; i < f->r.nrolls; i++)
        if (strcmp(f->r.rolls[i].label, label) == 0)
            return &f->r.rolls[i];
    return NULL;
}

/* Boudica's spear with real dice, over several seeds: the outcome follows
 * from the test and luck the roll log shows. */
static void test_teams_seeded_spear(void **state)
{
    (void)state;
    int hits = 0, misses = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        struct fx *f = fx_duel(seed, "hp=12 endurance=40",
                               "hp=12 endurance=40 evasion=6 pdr=8");
        assert_int_equal(fx_attack(f, "A", "B", "2d6+1", "4",
                                   "type=piercing threshold=19 crit=8"),
                         ENG_OK);
        int64_t test = fx_roll(f, "attack test")->total;
        int64_t luck = fx_roll(f, "luck die")->total;
        assert_true(test >= 3 && test <= 13);
        assert_true(luck >= 1 && luck <= 20);
        bool crit = luck >= 19;
        bool hit = crit || test >= 6;
        const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
        assert_int_equal(fx_hit(ev), hit);
        int64_t dmg = test + (crit ? 8 : 4) - 8;
        if (dmg < 1)
            dmg = 1;
        assert_int_equal(fx_track(f, "B", TE_ENDURANCE),
                         hit ? 40 - dmg : 40);
        assert_int_equal(TE_C(fx_by(f, "A"))->actions, 2);
        hits += hit;
        misses += !hit;
        fx_free(f);
    }
    assert_true(hits > 0 && misses > 0);
}

/* Agnessa's luck die comes up 1 (a luck of -19 makes sure) with her ally
 * next to the target: the ally is hit instead. */
static void test_teams_agnessa_hits_her_ally(void **state)
{
    (void)state;
    struct fx *f = fx_new(5);
    fx_add(f, "Agnessa", "players", "hp=12 luck=-19");
    fx_add(f, "Ally", "players", "hp=12 endurance=5");
    fx_add(f, "Enemy", "foes", "hp=12 endurance=5");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_pick(f, "Agnessa"), ENG_OK);
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "20", "3",
                               "ranged adjacent=Ally"), ENG_OK);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_int_equal(ev->other, fx_by(f, "Ally")->id);
    assert_true(fx_said(f, "strays to Ally"));
    assert_int_equal(fx_track(f, "Ally", TE_ENDURANCE), 0);
    assert_int_equal(fx_track(f, "Enemy", TE_ENDURANCE), 5);
    /* Without anyone adjacent the shot goes where it was aimed. */
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "20", "3", "ranged"),
                     ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->other,
                     fx_by(f, "Enemy")->id);
    fx_free(f);
}

/* Her second attack in the round takes -2: 5 becomes 3 and misses
 * evasion 4; in the next round the penalty is gone. */
static void test_teams_multiple_attack_penalty(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12 luck=-5", "hp=12 endurance=20 evasion=4");
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    assert_true(fx_hit(fx_ev(f, ENC_EV_ATTACK)));
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_int_equal(ev->value, 3);
    assert_false(fx_hit(ev));
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->value, 1);
    /* Out of actions. */
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_STATE);
    fx_next(f);
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->value, 5);
    fx_free(f);
}

/* Fabian's sneak attack rolls the test twice and keeps the better; sneak
 * and flank together roll three times. */
static void test_teams_fabian_sneak_attack(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct fx *f = fx_duel(seed, "hp=12 luck=-5",
                               "hp=12 endurance=50 evasion=30");
        assert_int_equal(fx_attack(f, "A", "B", "1d6+1d6", "1", "sneak"),
                         ENG_OK);
        int64_t t1 = f->r.rolls[rs_fx_roll(&f->fx, "attack test", 0)].total;
        int64_t t2 = f->r.rolls[rs_fx_roll(&f->fx, "attack test", 1)].total;
        assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->value, t1 > t2 ? t1 : t2);
        assert_int_equal(fx_attack(f, "A", "B", "1d6+1d6", "1",
                                   "sneak flank"), ENG_OK);
        int n = 0;
        for (int i = 0; i < f->r.nrolls; i++)
            n += strncmp(f->r.rolls[i].label, "attack test", 11) == 0;
        assert_int_equal(n, 3);
        fx_free(f);
    }
}

/* Fabian (size 4) against a goblin (size 3) with evasion 5: a 5 misses. */
static void test_teams_fabian_size_through_attack(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12 luck=-5 size=4",
                           "hp=12 evasion=5 size=3");
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->target, 6);
    assert_false(fx_hit(fx_ev(f, ENC_EV_ATTACK)));
    fx_free(f);
}

static void test_teams_attack_from_stats(void **state)
{
    (void)state;
    struct fx *f = fx_duel(3, "hp=12 str=6 combat=6 prof=1 luck=-5",
                           "hp=12 endurance=30 evasion=99");
    assert_int_equal(fx_attack(f, "A", "B", NULL, "4", NULL), ENG_OK);
    assert_non_null(strstr(rs_fx_detail(fx_roll(f, "attack test")), "+1"));
    int64_t t = fx_roll(f, "attack test")->total;
    assert_true(t >= 3 && t <= 13);
    assert_int_equal(fx_attack(f, "A", "B", NULL, "4", "attr=dex"),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "dex"));
    assert_int_equal(fx_attack(f, "A", "B", NULL, "4", "bogus"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "B", NULL, "4", "type=sonic"),
                     ENG_INVALID);
    fx_free(f);
}

static void test_teams_attack_turn_and_permission(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12", "hp=12 evasion=1");
    assert_int_equal(fx_attack(f, "B", "A", "5", "1", NULL), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "not B's turn"));
    fx_by(f, "A")->owner = 50;
    f->c.is_gm = false;
    f->c.user = 51;
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_PERM);
    f->c.user = 50;
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", "free"), ENG_PERM);
    fx_free(f);
}

/* A metal shield (durability 10) blocks 14: 3 off, 10 to the shield, the
 * last 1 gets through; the broken shield cannot block again. */
static void test_teams_block_with_shield(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12 luck=-5",
                           "hp=12 endurance=10 stamina=3 evasion=1 "
                           "shield_block=3 shield_metal=1");
    assert_int_equal(fx_attack(f, "A", "B", "10", "4",
                               "type=slashing block=shield"), ENG_OK);
    struct enc_combatant *b = fx_by(f, "B");
    assert_int_equal(*enc_stat(b, "shield_dur"), 0);
    assert_int_equal(fx_track(f, "B", TE_ENDURANCE), 9);
    assert_int_equal(fx_track(f, "B", TE_STAMINA), 2);
    assert_int_equal(TE_C(b)->reactions, 0);
    TE_C(b)->reactions = 1;
    assert_int_equal(fx_attack(f, "A", "B", "10", "4",
                               "type=slashing block=shield"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "broken"));
    fx_free(f);
}

/* Parry with an item that has no parry value: +1 deflection, 1 durability
 * off its default 4. */
static void test_teams_parry_with_dagger(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12 luck=-5",
                           "hp=12 endurance=10 stamina=1 evasion=1 pdr=2");
    assert_int_equal(fx_attack(f, "A", "B", "5", "1",
                               "type=piercing parry=dagger"), ENG_OK);
    assert_int_equal(*enc_stat(fx_by(f, "B"), "dagger_dur"), 3);
    assert_int_equal(fx_track(f, "B", TE_ENDURANCE), 10 - (5 + 1 - 3));
    /* No stamina left for another reaction. */
    TE_C(fx_by(f, "B"))->reactions = 1;
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", "parry=dagger"),
                     ENG_STATE);
    fx_free(f);
}

/* A guarding target gets +1 evasion; a prone one gives melee attackers
 * advantage. */
static void test_teams_guard_and_prone_defence(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=12 luck=-5");
    fx_add(f, "B", "blue", "hp=12 endurance=20 evasion=5");
    rs_teams.ops->begin(fx_call(f, "first", "blue", NULL));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action", "guard",
                                                  NULL), "act"), ENG_OK);
    assert_string_equal(fx_current(f), "A");
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", NULL), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->target, 6);
    assert_false(fx_hit(fx_ev(f, ENC_EV_ATTACK)));
    /* Prone (given as the GM gives it): melee advantage, ranged
     * disadvantage; in cover too, ranged: double disadvantage. */
    assert_int_equal(te_cond(fx_call(f, NULL), fx_by(f, "B"),
                             TE_COND_PRONE), ENG_OK);
    assert_int_equal(fx_attack(f, "A", "B", "1d6", "1", NULL), ENG_OK);
    assert_true(rs_fx_roll(&f->fx, "attack test", 1) >= 0);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_string_equal(ev->mods[0].reason,
                        "prone target, melee attack: advantage");
    assert_int_equal(te_cond(fx_call(f, NULL), fx_by(f, "B"),
                             TE_COND_COVER), ENG_OK);
    assert_int_equal(fx_attack(f, "A", "B", "1d6", "1", "thrown"), ENG_OK);
    ev = fx_ev(f, ENC_EV_ATTACK);
    assert_string_equal(ev->mods[0].reason,
                        "prone target, ranged attack: disadvantage");
    assert_string_equal(ev->mods[1].reason, "target in cover: disadvantage");
    assert_string_equal(ev->mods[2].reason,
                        "double disadvantage: worst of 3");
    assert_true(rs_fx_roll(&f->fx, "attack test", 2) >= 0);
    fx_free(f);
}

/* Boudica's injuries and death, with the GM applying the damage: 7, then
 * 10 (she fortifies with a 7 against 5), then 8, and the death test's d20
 * comes up 1 (seed 9 rolls a 1 first). */
static void test_teams_boudica_dies(void **state)
{
    (void)state;
    struct fx *f = fx_new(9);
    fx_add(f, "Boudica", "players", "hp=12 endurance=12 stamina=2 con=4 "
           "str=6 athletics=4 fortitude=1");
    fx_add(f, "Enemy", "foes", "hp=12");
    rs_teams.ops->begin(fx_call(f, "first", "foes", NULL));
#define DMG(n) rs_action(&rs_teams, fx_call(f, "name", "Boudica", "amount", \
                                            n, NULL), "damage")
    assert_int_equal(DMG("7"), ENG_OK);
    assert_int_equal(fx_track(f, "Boudica", TE_ENDURANCE), 5);
    assert_true(fx_said(f, "harmed"));
    assert_int_equal(DMG("10"), ENG_OK);
    assert_int_equal(fx_track(f, "Boudica", TE_HEALTH), 7);
    assert_true(fx_said(f, "fortify against 5"));
    struct enc_combatant *b = fx_by(f, "Boudica");
    assert_int_equal(TE_C(b)->fortify, 5);
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "Boudica",
                                                  "roll", "7", NULL),
                                          "test"), ENG_OK);
    assert_int_equal(TE_C(b)->fortify, 0);
    assert_false(b->flags & ENC_CF_DOWN);
    assert_int_equal(fx_track(f, "Boudica", TE_STAMINA), 1);
    assert_int_equal(TE_C(b)->reactions, 0);
    assert_int_equal(DMG("8"), ENG_OK);
    assert_int_equal(fx_track(f, "Boudica", TE_HEALTH), 0);
    assert_int_equal(fx_roll(f, "death test")->total, 1);
    assert_true(b->flags & ENC_CF_DOWN);
    assert_true(b->flags & ENC_CF_DEAD);
#undef DMG
    fx_free(f);
}

/* Seed 1's first d20 is 15: she cheats death and the difficulty rises to
 * 15 for good. */
static void test_teams_cheat_death(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Boudica", "players", "hp=7 con=4");
    fx_add(f, "Enemy", "foes", "hp=12");
    rs_teams.ops->begin(fx_call(f, "first", "foes", NULL));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "Boudica",
                                                  "amount", "8", NULL),
                                          "damage"), ENG_OK);
    assert_int_equal(fx_roll(f, "death test")->total, 15);
    struct enc_combatant *b = fx_by(f, "Boudica");
    assert_true(b->flags & ENC_CF_DOWN);
    assert_false(b->flags & ENC_CF_DEAD);
    assert_int_equal(*enc_stat(b, "death_dc"), 15);
    fx_free(f);
}

/* Choosing to fall instead of fortifying. */
static void test_teams_fall_instead_of_fortify(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=10 con=1 stamina=2");
    fx_add(f, "B", "red", "hp=10 stamina=1");
    fx_add(f, "X", "blue", "hp=10");
    rs_teams.ops->begin(fx_call(f, "first", "blue", NULL));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "A", NULL),
                                          "fall"), ENG_STATE);
    rs_action(&rs_teams, fx_call(f, "name", "A", "amount", "3", NULL),
                         "damage");
    assert_int_equal(TE_C(fx_by(f, "A"))->fortify, 3);
    /* The choice comes first: no other reaction before it. */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "A",
                                                  "reaction", "dodge", NULL),
                               "react"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "must first fortify"));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "A", NULL),
                                          "fall"), ENG_OK);
    assert_true(fx_by(f, "A")->flags & ENC_CF_DOWN);
    assert_int_equal(fx_track(f, "A", TE_STAMINA), 2);
    /* B's owed test settled by hand (/react): B stays conscious. */
    rs_action(&rs_teams, fx_call(f, "name", "B", "amount", "3", NULL),
                         "damage");
    assert_int_equal(TE_C(fx_by(f, "B"))->fortify, 3);
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "B",
                                                  "reaction", "fortify",
                                                  NULL), "react"), ENG_OK);
    assert_int_equal(TE_C(fx_by(f, "B"))->fortify, 0);
    assert_false(fx_by(f, "B")->flags & ENC_CF_DOWN);
    fx_next(f);
    /* Red has only B to give a turn to. */
    assert_string_equal(fx_current(f), "B");
    fx_free(f);
}

static void test_teams_killing_strike(void **state)
{
    (void)state;
    struct fx *f = fx_duel(1, "hp=12 combat=6", "hp=5 con=3");
    rs_action(&rs_teams, fx_call(f, "name", "B", "amount", "5", NULL),
                         "damage");
    assert_true(fx_by(f, "B")->flags & ENC_CF_DOWN);
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action",
                                                  "killing_strike", "target",
                                                  "B", "roll", "3", NULL),
                                          "act"), ENG_OK);
    assert_true(fx_by(f, "B")->flags & ENC_CF_DEAD);
    assert_int_equal(TE_C(fx_by(f, "A"))->actions, 0);
    fx_free(f);
}

/* Intercept: the ally takes the attack and blocks as a free reaction (the
 * stamina is still paid). A dodge that reaches the result turns a hit into
 * a miss; resist costs focus. */
static void test_teams_intercept_dodge_resist(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=12 luck=-5");
    fx_add(f, "B", "blue", "hp=12 endurance=10 stamina=2 focus=1 evasion=1");
    fx_add(f, "C", "blue", "hp=12 endurance=10 stamina=2 evasion=1 "
           "shield_block=20");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(fx_attack(f, "A", "B", "5", "1",
                               "intercept=C block=shield"), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->other, fx_by(f, "C")->id);
    assert_int_equal(TE_C(fx_by(f, "C"))->reactions, 0);
    assert_int_equal(fx_track(f, "C", TE_STAMINA), 0);
    assert_int_equal(*enc_stat(fx_by(f, "C"), "shield_dur"), 3);
    assert_int_equal(fx_track(f, "B", TE_ENDURANCE), 10);
    assert_int_equal(fx_track(f, "C", TE_ENDURANCE), 10);
    /* B dodges A's second attack, 5 less the penalty, with a 5. */
    assert_int_equal(fx_attack(f, "A", "B", "5", "1", "dodge=5"), ENG_OK);
    assert_false(fx_hit(fx_ev(f, ENC_EV_ATTACK)));
    assert_string_equal(fx_ev(f, ENC_EV_ATTACK)->outcome, "dodged");
    assert_non_null(rs_fx_find(&f->fx, ENC_EV_TEST,
                               "B: dodge test 5 against 3: dodged"));
    assert_int_equal(fx_track(f, "B", TE_ENDURANCE), 10);
    assert_int_equal(fx_track(f, "B", TE_STAMINA), 1);
    /* Reaction spent: resist is refused until B's own turn. */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "B", "kind",
                                                  "resist", "roll", "4",
                                                  "difficulty", "3", NULL),
                                          "test"), ENG_STATE);
    fx_next(f);
    assert_int_equal(fx_pick(f, "B"), ENG_OK);
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "B", "kind",
                                                  "resist", "roll", "4",
                                                  "difficulty", "3", NULL),
                                          "test"), ENG_OK);
    assert_true(fx_said(f, "success"));
    assert_int_equal(fx_track(f, "B", TE_FOCUS), 0);
    fx_free(f);
}

/* Secrecy per value: a hidden attacker's dice and result are the GM's;
 * against a hidden target the attacker's own roll stays public while the
 * target's evasion, what changed it and the damage it took are the GM's. */
static void test_teams_hidden_numbers(void **state)
{
    (void)state;
    struct fx *f = fx_new(4);
    fx_add(f, "Boudica", "players", "hp=12 endurance=30 evasion=1");
    fx_add(f, "Goblin", "foes", "hp=12 endurance=30 evasion=2 size=3");
    fx_by(f, "Goblin")->hidden = true;
    rs_teams.ops->begin(fx_call(f, "first", "foes", NULL));
    assert_int_equal(fx_attack(f, "Goblin", "Boudica", "2d6", "1", "adv"),
                     ENG_OK);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_true(ev->value_secret);
    assert_false(ev->target_secret);
    for (int i = 0; i < ev->nrolls; i++)
        assert_true(f->r.rolls[ev->rolls[i]].secret);
    /* What changed the hidden goblin's roll is the GM's; what changed
     * Boudica's evasion (the goblin is smaller) is not. */
    for (int i = 0; i < ev->nmods; i++)
        assert_int_equal(ev->mods[i].secret,
                         strstr(ev->mods[i].reason, "evasion") == NULL);
    assert_true(ev->nmods >= 2);
    fx_next(f);
    assert_int_equal(fx_attack(f, "Boudica", "Goblin", "2d6", "1", NULL),
                     ENG_OK);
    ev = fx_ev(f, ENC_EV_ATTACK);
    assert_false(ev->value_secret);
    assert_true(ev->target_secret);
    for (int i = 0; i < ev->nrolls; i++)
        assert_false(f->r.rolls[ev->rolls[i]].secret);
    const struct enc_mod *size = NULL;
    for (int i = 0; i < ev->nmods; i++)
        if (strstr(ev->mods[i].reason, "evasion") != NULL)
            size = &ev->mods[i];
    assert_non_null(size);
    assert_true(size->secret);
    const struct enc_event *dv = fx_ev(f, ENC_EV_DAMAGE);
    if (dv != NULL)
        assert_true(dv->secret);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teams_boudica_just_hits),
        cmocka_unit_test(test_teams_boudica_critical),
        cmocka_unit_test(test_teams_agnessa_stray_and_penalty),
        cmocka_unit_test(test_teams_advantage_keeps_best),
        cmocka_unit_test(test_teams_fabian_size),
        cmocka_unit_test(test_teams_typeless_and_minimum),
        cmocka_unit_test(test_teams_boudica_injuries),
        cmocka_unit_test(test_teams_fortify_only_past_constitution),
        cmocka_unit_test(test_teams_nonlethal_first_time_only),
        cmocka_unit_test(test_teams_block_arithmetic),
        cmocka_unit_test(test_teams_seeded_spear),
        cmocka_unit_test(test_teams_agnessa_hits_her_ally),
        cmocka_unit_test(test_teams_multiple_attack_penalty),
        cmocka_unit_test(test_teams_fabian_sneak_attack),
        cmocka_unit_test(test_teams_fabian_size_through_attack),
        cmocka_unit_test(test_teams_attack_from_stats),
        cmocka_unit_test(test_teams_attack_turn_and_permission),
        cmocka_unit_test(test_teams_block_with_shield),
        cmocka_unit_test(test_teams_parry_with_dagger),
        cmocka_unit_test(test_teams_guard_and_prone_defence),
        cmocka_unit_test(test_teams_boudica_dies),
        cmocka_unit_test(test_teams_cheat_death),
        cmocka_unit_test(test_teams_fall_instead_of_fortify),
        cmocka_unit_test(test_teams_killing_strike),
        cmocka_unit_test(test_teams_intercept_dodge_resist),
        cmocka_unit_test(test_teams_hidden_numbers),
    };
    return cmocka_run_group_tests_name("rs_teams_combat", tests, NULL, NULL);
}
