/* Tests for the tactical ruleset through its ops, as the command layer
 * calls them: turns and action points, pending resist tests and the
 * chapter's Knockdown examples, direct damage follow-ups, armour, stacks,
 * expiry and shake-off tests, bursts, blasts and exertion
 * (engine/rs_tactical*.c). Outcomes of seeded rolls are checked against the
 * dice faces recorded in the result, so each test reasons from the faces. */
#include "support.h"

#include "test_rs_tactical.h"

/* Successes of roll i at the default face 4, from its faces. */
static int fx_successes(struct fx *f, int i)
{
    int faces[64];
    int n = fx_faces(f, i, faces, 64);
    assert_true(n > 0);
    return tac_pool_successes(faces, n, TAC_FACE);
}

/* A (initiative 20) against B (10) and C (5). */
static struct fx *fx_trio(uint64_t seed, const char *b_stats)
{
    struct fx *f = fx_new(seed);
    fx_add(f, "A", "hp=20 stamina=2 endurance=2 fortitude=1 aim=2 "
                   "dexterity=2 ammo=10");
    fx_add(f, "B", b_stats);
    fx_add(f, "C", "hp=20 endurance=2 fortitude=1");
    fx_init(f, "A", 20);
    fx_init(f, "B", 10);
    fx_init(f, "C", 5);
    return f;
}

static void fx_begin(struct fx *f)
{
    assert_int_equal(rs_tactical.ops->begin(fx_call(f, NULL)), ENG_OK);
}

/* ---- turns and action points -------------------------------------------- */

static void test_tac_order_and_ap(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    assert_int_equal(rs_settings_apply(fx_call(f, NULL), &rs_tactical,
                                       "ap=4"), ENG_OK);
    assert_int_equal(rs_settings_apply(fx_call(f, NULL), &rs_tactical,
                                       "ap=11"), ENG_RANGE);
    assert_int_equal(rs_settings_apply(fx_call(f, NULL), &rs_tactical,
                                       "pace=1"), ENG_INVALID);
    assert_true(strstr(f->d.msg, "its settings: ap, face") != NULL);
    fx_begin(f);
    assert_string_equal(fx_current(f), "A");
    assert_int_equal(fx_ap(f, "A"), 4);
    /* Three attacks of 1 AP and one /act of 1 spend the four. */
    for (int i = 0; i < 3; i++)
        assert_int_equal(fx_attack(f, "A", "B", NULL, "1", NULL), ENG_OK);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "reload",
                                                     NULL), "act"), ENG_OK);
    assert_int_equal(fx_ap(f, "A"), 0);
    assert_int_equal(fx_attack(f, "A", "B", NULL, "1", NULL), ENG_STATE);
    assert_true(strstr(f->d.msg, "0 AP left") != NULL);
    char buf[32];
    rs_fx_status(&rs_tactical, f->e, fx_by(f, "A"), buf, sizeof buf);
    assert_string_equal(buf, "AP 0/4");
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_current(f), "B");
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_current(f), "C");
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_current(f), "A");
    assert_int_equal(f->e->round, 2);
    assert_int_equal(fx_ap(f, "A"), 4);
    fx_free(f);
}

/* Stunned: one AP fewer at the start of the next turn, then gone. */
static void test_tac_stunned_loses_ap(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "effect", "Stun(2)",
                                                     NULL), "effect apply"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Stun test"), 2);
    /* pool:0 fails for certain. */
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "pool", "0", NULL),
                                             "effect trigger"), ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Stun test"), -1);
    assert_true(fx_cond(f, "B", "Stunned") >= 0);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    assert_int_equal(fx_ap(f, "B"), TAC_AP - 1);
    assert_int_equal(fx_cond(f, "B", "Stunned"), -1);
    fx_next(f);
    fx_next(f);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    assert_int_equal(fx_ap(f, "B"), TAC_AP);
    fx_free(f);
}

/* Surprised on begin: everyone but the ambushing side; no actions,
 * passive evasion 1, gone after its first turn. */
static void test_tac_surprised_first_round(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20 passive_evasion=4");
    int crew = enc_side_get(f->e, "crew", &f->d);
    fx_by(f, "A")->side = crew;
    fx_by(f, "C")->side = crew;
    fx_by(f, "B")->side = enc_side_get(f->e, "drones", &f->d);
    assert_int_equal(rs_tactical.ops->begin(fx_call(f, "surprise", "crew",
                                                    NULL)), ENG_OK);
    assert_int_equal(fx_cond(f, "A", "Surprised"), -1);
    assert_int_equal(fx_cond(f, "C", "Surprised"), -1);
    assert_int_equal(tac_passive_evasion(tac_table_builtin(),
                                         fx_by(f, "B")), 1);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    assert_int_equal(fx_ap(f, "B"), 0);
    assert_true(fx_cond(f, "B", "Surprised") >= 0);
    fx_next(f);
    assert_int_equal(fx_cond(f, "B", "Surprised"), -1);
    assert_int_equal(tac_passive_evasion(tac_table_builtin(),
                                         fx_by(f, "B")), 4);
    fx_free(f);
    f = fx_trio(1, "hp=20");
    assert_int_equal(rs_tactical.ops->begin(fx_call(f, "surprise", "Zed",
                                                    NULL)), ENG_NOTFOUND);
    fx_free(f);
}

/* ---- the chapter's Knockdown examples ----------------------------------- */

/* Example 1: A hits B with Knockdown(2) and triggers it; B rolls. Hit
 * again with Knockdown(2) this turn, B passes automatically. */
static void test_tac_knockdown_example_1(void **state)
{
    (void)state;
    struct fx *f = fx_trio(7, "hp=20 endurance=2 fortitude=2");
    fx_begin(f);
    assert_int_equal(fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), 2);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B", NULL),
                                             "effect trigger"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST,
                                          "B: resists Knockdown");
    assert_non_null(ev);
    int s = fx_successes(f, ev->rolls[0]);
    assert_int_equal(ev->target, 2);
    assert_int_equal(fx_cond(f, "B", "Prone") >= 0, s < 2);
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), -1);
    assert_int_equal(fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(2)"),
                     ENG_OK);
    assert_true(fx_said(f, "passes automatically"));
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), -1);
    assert_int_equal(f->r.nrolls, 0);
    /* The next turn, the protection is over. */
    fx_next(f);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "effect",
                                                     "Knockdown(2)", NULL),
                                             "effect apply"), ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), 2);
    fx_free(f);
}

/* Example 2: two Knockdown(2) hits before the trigger make Knockdown(3). */
static void test_tac_knockdown_example_2(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    assert_int_equal(fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), 3);
    assert_int_equal(fx_ap(f, "A"), 1);
    fx_free(f);
}

/* Example 3: Knockdown(2) then Knockdown(4) make Knockdown(4). */
static void test_tac_knockdown_example_3(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(2)");
    fx_attack(f, "A", "B", NULL, NULL, "effects=Knockdown(4)");
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), 4);
    fx_free(f);
}

/* A test not triggered is rolled when the turn ends. */
static void test_tac_pending_rolled_at_turn_end(void **state)
{
    (void)state;
    struct fx *f = fx_trio(3, "hp=20 endurance=3 fortitude=1");
    fx_begin(f);
    fx_attack(f, "A", "B", NULL, NULL, "effects=Slow(3)");
    assert_int_equal(fx_cond(f, "B", "Slow test"), 3);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_cond(f, "B", "Slow test"), -1);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST, "B: resists Slow");
    assert_non_null(ev);
    assert_int_equal(ev->target, 3);
    assert_int_equal(fx_cond(f, "B", "Slowed") >= 0,
                     fx_successes(f, ev->rolls[0]) < 3);
    /* Only the inflicter (or the GM) decides when to roll. */
    fx_attack(f, "B", "C", NULL, NULL, "effects=Slow(1)");
    fx_by(f, "B")->owner = 55;
    fx_by(f, "C")->owner = 66;
    f->c.is_gm = false;
    f->c.user = 66;
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C", NULL),
                                             "effect trigger"), ENG_PERM);
    f->c.user = 55;
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C", NULL),
                                             "effect trigger"), ENG_OK);
    fx_free(f);
}

/* A hidden NPC's dice and numbers are the GM's; the attacker's own roll
 * against it stays public, its defence does not. */
static void test_tac_hidden_rolls_are_secret(void **state)
{
    (void)state;
    struct fx *f = fx_trio(3, "hp=20 endurance=2 fortitude=1");
    fx_by(f, "B")->hidden = true;
    fx_begin(f);
    /* 40 dice: at least one success (all below 4 is 1 in 2^40). */
    assert_int_equal(fx_attack(f, "A", "B", "40", NULL,
                               "effects=Knockdown(2)"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_ATTACK, "");
    assert_non_null(ev);
    assert_string_equal(ev->outcome, "hit");
    assert_false(ev->value_secret);
    assert_true(ev->target_secret);
    assert_false(f->r.rolls[ev->rolls[0]].secret);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B", NULL),
                               "effect trigger"), ENG_OK);
    ev = fx_event(f, ENC_EV_TEST, "B: resists Knockdown");
    assert_non_null(ev);
    assert_true(ev->value_secret);
    assert_true(f->r.rolls[ev->rolls[0]].secret);
    fx_free(f);
}

/* ---- direct damage ------------------------------------------------------ */

static void test_tac_direct_damage_followups(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20 av=21");
    fx_begin(f);
    /* Shock(3): 3 direct damage past the armour; a test of 3. */
    assert_int_equal(fx_attack(f, "A", "B", NULL, NULL, "effects=Shock(3)"), ENG_OK);
    assert_int_equal(fx_track(f, "B", "hp"), 17);
    assert_int_equal(fx_track(f, "B", "av"), 21);
    assert_int_equal(fx_cond(f, "B", "Shock test"), 3);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "pool", "0", NULL),
                                             "effect trigger"), ENG_OK);
    assert_true(fx_cond(f, "B", "Stunned") >= 0);
    /* Scorch(2): a Willpower test of 2, or Afraid; Frost(1): Slowed. */
    fx_attack(f, "A", "B", NULL, NULL, "effects=Scorch(2),Frost(1)");
    assert_int_equal(fx_track(f, "B", "hp"), 14);
    assert_int_equal(fx_cond(f, "B", "Scorch test"), 2);
    assert_int_equal(fx_cond(f, "B", "Frost test"), 1);
    fx_free(f);

    /* Shock doubles against mechanical units. */
    f = fx_trio(1, "hp=20 mech=1");
    fx_begin(f);
    fx_attack(f, "A", "B", NULL, NULL, "effects=Shock(3)");
    assert_int_equal(fx_track(f, "B", "hp"), 14);
    assert_int_equal(fx_cond(f, "B", "Shock test"), 6);
    fx_free(f);

    /* No HP lost (already at 0): no follow-up test. */
    f = fx_trio(1, "hp=0");
    fx_begin(f);
    fx_attack(f, "A", "B", NULL, NULL, "effects=Shock(3)");
    assert_int_equal(fx_cond(f, "B", "Shock test"), -1);
    fx_free(f);
}

/* ---- armour, stacks and caps -------------------------------------------- */

static void test_tac_attack_through_armour(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20 av=21");
    fx_begin(f);
    assert_int_equal(fx_attack(f, "A", "B", NULL, "30", NULL), ENG_OK);
    assert_int_equal(fx_track(f, "B", "hp"), 11);
    assert_int_equal(fx_track(f, "B", "av"), 19);
    /* Demolish with take-your-time: one AV per 5 absorbed. */
    fx_attack(f, "A", "B", NULL, "19", "effects=Demolish tyt");
    assert_int_equal(fx_track(f, "B", "hp"), 11);
    assert_int_equal(fx_track(f, "B", "av"), 16);
    /* Corroded adds its stacks to the damage (cap 3). */
    for (int i = 0; i < 4; i++)
        assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                         "effect",
                                                         "Sunder", NULL),
                                                 "effect apply"), ENG_OK);
    assert_int_equal(fx_cond(f, "C", "Vulnerable"), 4);
    fx_free(f);
}

static void test_tac_stack_caps(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(fx_give(f, "B", "Acid", 0), ENG_OK);
        assert_int_equal(fx_give(f, "B", "Corroded", 0), ENG_OK);
        assert_int_equal(fx_give(f, "B", "Warded", 0), ENG_OK);
        assert_int_equal(fx_give(f, "B", "Poisoned", 0), ENG_OK);
    }
    assert_int_equal(fx_cond(f, "B", "Acid"), 3);
    assert_int_equal(fx_cond(f, "B", "Corroded"), 3);
    assert_int_equal(fx_cond(f, "B", "Warded"), 4);
    assert_int_equal(fx_cond(f, "B", "Poisoned"), 5);
    /* Corroded 3: a 4-damage attack deals 7 (Warded removed first: it
     * would take dice off). */
    enc_cond_remove(f->e, fx_by(f, "B"), "Warded", &f->r, &f->d);
    fx_attack(f, "A", "B", NULL, "4", NULL);
    assert_int_equal(fx_track(f, "B", "hp"), 13);
    const struct enc_event *dv = fx_event(f, ENC_EV_DAMAGE, "");
    int64_t amount = 0;
    assert_true(fx_mod(dv, "Corroded", &amount));
    assert_int_equal(amount, 3);
    fx_free(f);
}

/* Acid burns one direct damage per stack at the start of each turn. */
static void test_tac_acid_each_turn(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20 av=30");
    fx_begin(f);
    assert_int_equal(fx_give(f, "B", "Acid", 2), ENG_OK);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    assert_int_equal(fx_track(f, "B", "hp"), 18);
    fx_free(f);
}

/* Warded spends -1D per stack on the next hit; Vulnerable adds +1D per
 * stack (at most 4) to a sneak attack and is spent. */
static void test_tac_warded_and_vulnerable(void **state)
{
    (void)state;
    struct fx *f = fx_trio(2, "hp=40");
    fx_begin(f);
    assert_int_equal(fx_give(f, "B", "Vulnerable", 5), ENG_OK);
    assert_int_equal(fx_attack(f, "A", "B", NULL, "10", "sneak"), ENG_OK);
    int i = fx_roll(f, "Vulnerable");
    assert_true(i >= 0);
    int faces[8];
    assert_int_equal(fx_faces(f, i, faces, 8), 4);
    int64_t extra = f->r.rolls[i].total;
    assert_int_equal(fx_track(f, "B", "hp"), 40 - 10 - extra);
    assert_int_equal(fx_cond(f, "B", "Vulnerable"), -1);
    assert_int_equal(fx_give(f, "B", "Warded", 2), ENG_OK);
    int64_t before = fx_track(f, "B", "hp");
    fx_attack(f, "A", "B", NULL, "20", NULL);
    i = fx_roll(f, "Warded");
    assert_true(i >= 0);
    assert_int_equal(fx_track(f, "B", "hp"),
                     before - (20 - f->r.rolls[i].total));
    assert_int_equal(fx_cond(f, "B", "Warded"), -1);
    fx_free(f);
}

/* ---- durations and shake-off tests -------------------------------------- */

/* Blinded from Blinding lasts until the end of B's next turn. */
static void test_tac_blinded_until_end_of_next_turn(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    fx_attack(f, "A", "B", NULL, NULL, "effects=Blinding(2)");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B", "pool",
                                                     "0", NULL),
                               "effect trigger"), ENG_OK);
    assert_true(fx_cond(f, "B", "Blinded") >= 0);
    fx_next(f);                         /* B's turn */
    assert_true(fx_cond(f, "B", "Blinded") >= 0);
    fx_next(f);                         /* B's turn ends */
    assert_int_equal(fx_cond(f, "B", "Blinded"), -1);
    fx_free(f);
}

/* Afraid: an Insight(Willpower 2) test at the end of each of B's turns. */
static void test_tac_afraid_shake_off(void **state)
{
    (void)state;
    struct fx *f = fx_trio(5, "hp=20 insight=2 willpower=1");
    fx_begin(f);
    assert_int_equal(fx_give(f, "B", "Afraid", 0), ENG_OK);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    int rounds = 0;
    while (fx_cond(f, "B", "Afraid") >= 0 && rounds < 20) {
        fx_next(f);                     /* B's turn ends: the test */
        const struct enc_event *ev = fx_event(f, ENC_EV_TEST,
                                              "B: shakes off Afraid with "
                                              "Insight(Willpower)");
        assert_non_null(ev);
        assert_int_equal(fx_cond(f, "B", "Afraid") == -1,
                         fx_successes(f, ev->rolls[0]) >= 2);
        fx_next(f);
        fx_next(f);
        rounds++;
    }
    assert_int_equal(fx_cond(f, "B", "Afraid"), -1);
    fx_free(f);
}

/* ---- bursts and blasts -------------------------------------------------- */

static void test_tac_burst_short_of_ammo(void **state)
{
    (void)state;
    struct fx *f = fx_trio(11, "hp=100 passive_evasion=2");
    fx_begin(f);
    struct enc_track *ammo = enc_track(fx_by(f, "A"), "ammo");
    ammo->cur = 2;
    /* Pool: burst 6 + aim 2 = 8 dice above evasion 2. */
    assert_int_equal(fx_attack(f, "A", "B", NULL, "4", "burst=6"), ENG_OK);
    int i = fx_roll(f, "burst");
    assert_true(i >= 0);
    int faces[16];
    if (fx_faces(f, i, faces, 16) != 8)
        fail_msg("%s", rs_fx_detail(&f->r.rolls[i]));
    struct tac_burst_out b = tac_burst(faces, 8, 2, 2, 4);
    assert_true(b.kept <= 2);
    assert_int_equal(fx_track(f, "B", "hp"), 100 - b.damage);
    assert_int_equal(ammo->cur, 0);
    assert_int_equal(fx_said(f, "lost: not enough ammunition"),
                     b.discarded > 0);
    fx_free(f);
}

static void test_tac_blast_scatter_and_area(void **state)
{
    (void)state;
    struct fx *f = fx_trio(4, "hp=20 dexterity=0 evasion=0");
    enc_stat_set(fx_by(f, "C"), "dexterity", 2, &f->d);
    enc_stat_set(fx_by(f, "C"), "evasion", 1, &f->d);
    fx_begin(f);
    /* roll:0: the aim test fails by the whole difficulty (2 + 1). */
    assert_int_equal(fx_attack(f, "A", "B", "0", "6", "blast=2 factors=1"),
                     ENG_OK);
    int d = fx_roll(f, "distance");
    assert_true(d >= 0);
    int64_t dist = f->r.rolls[d].total;
    assert_true(dist >= 1 && dist <= 6);
    char want[48];
    snprintf(want, sizeof want, "scatters %lld \xC3\x97 5 = %lld ft",
             (long long)dist, (long long)(5 * dist));
    assert_true(fx_said(f, want));
    assert_int_equal(fx_track(f, "B", "hp"), 20);
    /* Placed: B (no dice to evade) and C both take the damage; C may halve
     * it with Dexterity(Evasion 2). */
    assert_int_equal(fx_attack(f, "A", "B", NULL, "6",
                               "blast=2 placed also=C "
                               "effects=Knockdown(1)"), ENG_OK);
    assert_int_equal(fx_track(f, "B", "hp"), 14);
    assert_int_equal(fx_cond(f, "B", "Knockdown test"), 1);
    assert_int_equal(fx_cond(f, "C", "Knockdown test"), 1);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST, "C: evades");
    assert_non_null(ev);
    bool halved = fx_successes(f, ev->rolls[0]) >= 2;
    assert_int_equal(fx_track(f, "C", "hp"), halved ? 17 : 14);
    /* A prone target cannot evade. */
    assert_int_equal(fx_give(f, "C", "Prone", 0), ENG_OK);
    fx_next(f);
    fx_next(f);
    fx_next(f);
    fx_attack(f, "A", "B", NULL, "2", "template=3 also=C");
    assert_null(fx_event(f, ENC_EV_TEST, "C: evades"));
    assert_true(fx_said(f, "C is Prone and cannot evade"));
    fx_free(f);
}

/* ---- stamina and exertion ----------------------------------------------- */

static void test_tac_exert_at_zero_stamina(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    struct rs_call *c;
    c = fx_call(f, "attr", "endurance", "skill", "fortitude", "difficulty",
                "1", "exert", "true", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_track(f, "A", "stamina"), 1);
    c = fx_call(f, "attr", "endurance", "exert", "true", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_track(f, "A", "stamina"), 0);
    /* At 0: allowed on its own turn, Exhausted(+1) when the turn ends. */
    c = fx_call(f, "attr", "endurance", "exert", "true", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_cond(f, "A", "Exhausted"), -1);
    /* Not a physical test: no exertion. */
    c = fx_call(f, "attr", "insight", "exert", "true", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_INVALID);
    fx_next(f);
    assert_int_equal(fx_cond(f, "A", "Exhausted"), 1);
    /* Out of its turn at 0 stamina: refused. */
    c = fx_call(f, "name", "A", "attr", "endurance", "exert", "true", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_STATE);
    fx_free(f);
}

static void test_tac_maneuver_at_zero_stamina(void **state)
{
    (void)state;
    struct fx *f = fx_trio(9, "hp=20");
    fx_begin(f);
    struct rs_call *c = fx_call(f, "action", "maneuver", "cost", "1",
                                "stamina", "2", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_OK);
    assert_int_equal(fx_track(f, "A", "stamina"), 0);
    /* One per turn. */
    c = fx_call(f, "action", "maneuver", "stamina", "1", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_STATE);
    fx_next(f);
    fx_next(f);
    fx_next(f);
    /* At 0 stamina: Fortitude(Endurance) against the cost of 1. */
    c = fx_call(f, "action", "maneuver", "stamina", "1", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST,
                                          "A: pushes through a maneuver");
    assert_non_null(ev);
    bool pass = fx_successes(f, ev->rolls[0]) >= 1;
    assert_int_equal(fx_cond(f, "A", "Exhausted") == 1, pass);
    assert_int_equal(fx_ap(f, "A"), pass ? 2 : 3);
    fx_free(f);
}

/* Exhausted(5) takes a combatant out of the fight; lowering it brings it
 * back. */
static void test_tac_exhausted_five_is_out(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    fx_begin(f);
    assert_int_equal(fx_give(f, "B", "Exhausted", 4), ENG_OK);
    assert_false(fx_by(f, "B")->flags & ENC_CF_DOWN);
    assert_int_equal(fx_give(f, "B", "Exhausted", 0), ENG_OK);
    assert_true(fx_by(f, "B")->flags & ENC_CF_DOWN);
    fx_next(f);
    assert_string_equal(fx_current(f), "C");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "condition",
                                                     "Exhausted", "by", "1",
                                                     NULL), "effect clear"),
                     ENG_OK);
    assert_false(fx_by(f, "B")->flags & ENC_CF_DOWN);
    assert_int_equal(fx_cond(f, "B", "Exhausted"), 4);
    fx_free(f);
}

/* Takedown bonuses before the fight. */
static void test_tac_takedown(void **state)
{
    (void)state;
    struct fx *f = fx_trio(1, "hp=20");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "bonus", "hp", "amount",
                                                     "5", NULL),
                                             "takedown"), ENG_OK);
    assert_int_equal(fx_track(f, "B", "hp"), 15);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "bonus", "surprised",
                                                     NULL),
                                             "takedown"), ENG_OK);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "bonus", "hat", NULL),
                                             "takedown"), ENG_INVALID);
    /* An injury or a wound is to one characteristic; an injury only to a
     * physical one. */
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                     "bonus", "injury",
                                                     "kind", "dexterity",
                                                     NULL), "takedown"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "C", "Dexterity Injury"), 0);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                     "bonus", "wound",
                                                     "kind", "insight",
                                                     NULL), "takedown"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "C", "Insight Wound"), 1);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                     "bonus", "injury",
                                                     "kind", "insight",
                                                     NULL), "takedown"),
                     ENG_INVALID);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                     "bonus", "wound", NULL),
                               "takedown"), ENG_INVALID);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "C",
                                                     "bonus", "unarmed",
                                                     "amount", "2", NULL),
                               "takedown"), ENG_INVALID);
    fx_begin(f);
    fx_next(f);
    assert_int_equal(fx_ap(f, "B"), 0);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "B",
                                                     "bonus", "wound", "kind",
                                                     "strength", NULL),
                                             "takedown"), ENG_STATE);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tac_order_and_ap),
        cmocka_unit_test(test_tac_stunned_loses_ap),
        cmocka_unit_test(test_tac_surprised_first_round),
        cmocka_unit_test(test_tac_knockdown_example_1),
        cmocka_unit_test(test_tac_knockdown_example_2),
        cmocka_unit_test(test_tac_knockdown_example_3),
        cmocka_unit_test(test_tac_pending_rolled_at_turn_end),
        cmocka_unit_test(test_tac_hidden_rolls_are_secret),
        cmocka_unit_test(test_tac_direct_damage_followups),
        cmocka_unit_test(test_tac_attack_through_armour),
        cmocka_unit_test(test_tac_stack_caps),
        cmocka_unit_test(test_tac_acid_each_turn),
        cmocka_unit_test(test_tac_warded_and_vulnerable),
        cmocka_unit_test(test_tac_blinded_until_end_of_next_turn),
        cmocka_unit_test(test_tac_afraid_shake_off),
        cmocka_unit_test(test_tac_burst_short_of_ammo),
        cmocka_unit_test(test_tac_blast_scatter_and_area),
        cmocka_unit_test(test_tac_exert_at_zero_stamina),
        cmocka_unit_test(test_tac_maneuver_at_zero_stamina),
        cmocka_unit_test(test_tac_exhausted_five_is_out),
        cmocka_unit_test(test_tac_takedown),
    };
    return cmocka_run_group_tests_name("rs_tactical_ops", tests, NULL, NULL);
}
