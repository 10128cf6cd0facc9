/* Tests for the tactical ruleset's individual effects and conditions
 * through the ops: Shutdown, Knockout, Deadly, Grip and Break, Magnetize,
 * Knockback, disadvantage from conditions, and option errors
 * (engine/rulesets/tactical/rs_tactical_fx.c, rs_tactical_atk.c, rs_tactical_act.c). */
#include "support.h"

#include "test_rs_tactical.h"

static int fx_ndice(struct fx *f, int i)
{
    int faces[64];
    return fx_faces(f, i, faces, 64);
}

/* A (first) and a mechanical drone D. */
static struct fx *fx_pair(uint64_t seed, const char *d_stats)
{
    struct fx *f = fx_new(seed);
    fx_add(f, "A", "hp=20 strength=3 grapple=1 endurance=2 fortitude=1");
    fx_add(f, "D", d_stats);
    fx_init(f, "A", 20);
    fx_init(f, "D", 10);
    assert_int_equal(rs_tactical.ops->begin(fx_call(f, NULL)), ENG_OK);
    return f;
}

static enum eng_err fx_trigger(struct fx *f, const char *who,
                               const char *pool)
{
    return rs_action(&rs_tactical, fx_call(f, "name", who, "pool", pool,
                                           NULL), "effect trigger");
}

/* Shutdown(2) on a mech with pool 0: out for d3 + 2 rounds, its turns are
 * skipped, and it is back when the time runs out. */
static void test_tac_shutdown_rounds(void **state)
{
    (void)state;
    struct fx *f = fx_pair(3, "hp=10 mech=1");
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL,
                               "effects=Shutdown(2)"), ENG_OK);
    assert_int_equal(fx_trigger(f, "D", "0"), ENG_OK);
    int i = fx_roll(f, "d3");
    assert_true(i >= 0);
    int64_t rounds = f->r.rolls[i].total + 2;
    assert_true(rounds >= 3 && rounds <= 5);
    assert_int_equal(fx_cond(f, "D", "Shutdown"), 0);
    assert_true(fx_by(f, "D")->flags & ENC_CF_DOWN);
    /* Each round D's turn is skipped and counts down once. */
    for (int64_t r = 0; r < rounds; r++) {
        assert_true(fx_by(f, "D")->flags & ENC_CF_DOWN);
        fx_next(f);
        assert_string_equal(fx_current(f), "A");
    }
    assert_int_equal(fx_cond(f, "D", "Shutdown"), -1);
    assert_false(fx_by(f, "D")->flags & ENC_CF_DOWN);
    fx_next(f);
    assert_string_equal(fx_current(f), "D");
    fx_free(f);
}

/* Damage wakes a shut-down unit; Shutdown leaves organics alone. */
static void test_tac_shutdown_wakes_on_damage(void **state)
{
    (void)state;
    struct fx *f = fx_pair(3, "hp=10 mech=1");
    fx_attack(f, "A", "D", NULL, NULL, "effects=Shutdown(1)");
    fx_trigger(f, "D", "0");
    assert_true(fx_by(f, "D")->flags & ENC_CF_DOWN);
    fx_attack(f, "A", "D", NULL, "1", NULL);
    assert_int_equal(fx_cond(f, "D", "Shutdown"), -1);
    assert_false(fx_by(f, "D")->flags & ENC_CF_DOWN);
    fx_attack(f, "D", "A", NULL, NULL, "effects=Shutdown(1)");
    assert_true(fx_said(f, "Shutdown does not affect A: it works only on "
                        "machines"));
    assert_int_equal(fx_cond(f, "A", "Shutdown test"), -1);
    fx_free(f);
}

/* Knockout: capped at 4, major disadvantage when Stunned, Unconscious
 * takes the target out until the GM clears it. */
static void test_tac_knockout(void **state)
{
    (void)state;
    struct fx *f = fx_pair(5, "hp=10 endurance=3 fortitude=2");
    fx_attack(f, "A", "D", NULL, NULL, "effects=Knockout(6)");
    assert_int_equal(fx_cond(f, "D", "Knockout test"), 4);
    assert_int_equal(fx_give(f, "D", "Stunned", 0), ENG_OK);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D", NULL),
                                             "effect trigger"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST,
                                          "D: resists Knockout");
    assert_non_null(ev);
    assert_int_equal(ev->target, 4);
    /* 5 dice, two fewer for the major disadvantage, shown as such. */
    assert_int_equal(fx_ev_dice(f, ev), 3);
    int64_t amount = 0;
    assert_true(fx_mod(ev, "Stunned: major disadvantage", &amount));
    assert_int_equal(amount, -2);
    /* 3 dice cannot make 4 successes. */
    assert_true(fx_by(f, "D")->flags & ENC_CF_DOWN);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D",
                                                     "condition",
                                                     "Unconscious", NULL),
                                             "effect clear"), ENG_OK);
    assert_false(fx_by(f, "D")->flags & ENC_CF_DOWN);
    /* Mechanical units are not knocked out. */
    enc_stat_set(fx_by(f, "D"), "mech", 1, &f->d);
    fx_next(f);
    fx_attack(f, "A", "D", NULL, NULL, "effects=Knockout(2)");
    assert_int_equal(fx_cond(f, "D", "Knockout test"), -1);
    fx_free(f);
}

/* Deadly works only on a critical hit that took hp, at most 3. */
static void test_tac_deadly(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20 av=5");
    fx_attack(f, "A", "D", NULL, "4", "effects=Deadly(5) crit");
    assert_int_equal(fx_cond(f, "D", "Deadly test"), -1);
    fx_attack(f, "A", "D", NULL, "9", "effects=Deadly(5)");
    assert_int_equal(fx_cond(f, "D", "Deadly test"), -1);
    fx_attack(f, "A", "D", NULL, "9", "effects=Deadly(5) crit");
    assert_int_equal(fx_cond(f, "D", "Deadly test"), 3);
    fx_trigger(f, "D", "0");
    assert_int_equal(fx_cond(f, "D", "Endurance Wound"), 1);
    fx_free(f);
}

/* Grip: Immobilized instead of damage; Break once per round. */
static void test_tac_grip_and_break(void **state)
{
    (void)state;
    struct fx *f = fx_pair(8, "hp=20 strength=2 grapple=1");
    assert_int_equal(fx_attack(f, "A", "D", NULL, "10", "effects=Grip"),
                     ENG_OK);
    assert_int_equal(fx_track(f, "D", "hp"), 20);
    assert_true(fx_cond(f, "D", "Immobilized") >= 0);
    fx_next(f);
    struct rs_call *c = fx_call(f, "action", "break", "target", "A", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_OK);
    const struct enc_event *mine = fx_event(f, ENC_EV_TEST,
                                            "tries to break free with "
                                            "Strength(Grapple)");
    const struct enc_event *theirs = fx_event(f, ENC_EV_TEST,
                                              "holds on with "
                                              "Strength(Grapple)");
    assert_non_null(mine);
    assert_non_null(theirs);
    int fa[16], fb[16];
    int na = fx_faces(f, mine->rolls[0], fa, 16);
    int nb = fx_faces(f, theirs->rolls[0], fb, 16);
    bool wins = tac_pool_successes(fa, na, 4) > tac_pool_successes(fb, nb, 4);
    assert_int_equal(fx_cond(f, "D", "Immobilized") == -1, wins);
    if (!wins) {
        c = fx_call(f, "action", "break", "target", "A", NULL);
        assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_STATE);
        assert_true(strstr(f->d.msg, "once per round") != NULL);
    }
    fx_free(f);
}

static void test_tac_magnetize(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20");
    fx_attack(f, "A", "D", NULL, NULL, "effects=Magnetize");
    assert_true(fx_cond(f, "D", "Magnetized") >= 0);
    /* A conductor attack hits without its roll. */
    assert_int_equal(fx_attack(f, "A", "D", "0", "3", "conductor"), ENG_OK);
    assert_true(fx_mod(fx_event(f, ENC_EV_ATTACK, ""), "Magnetized: a "
                       "conductor attack hits", NULL));
    assert_int_equal(fx_track(f, "D", "hp"), 17);
    fx_next(f);
    struct rs_call *c = fx_call(f, "action", "unmagnetize", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "act"), ENG_OK);
    assert_int_equal(fx_cond(f, "D", "Magnetized"), -1);
    assert_int_equal(fx_ap(f, "D"), TAC_AP - 2);
    /* A pool of 0 always misses. */
    fx_next(f);
    assert_int_equal(fx_attack(f, "A", "D", "0", "3", NULL), ENG_OK);
    assert_int_equal(fx_track(f, "D", "hp"), 17);
    fx_free(f);
}

/* Knockback: pushed 5 ft per success missed. */
static void test_tac_knockback(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20");
    fx_attack(f, "A", "D", NULL, NULL, "effects=Knockback(3)");
    fx_trigger(f, "D", "0");
    assert_true(fx_said(f, "pushed straight back 15 ft"));
    fx_free(f);
}

/* Exhausted takes a die per stack off Endurance tests, not Insight ones;
 * Distracted takes one off the next test and ends. */
static void test_tac_condition_disadvantage(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20");
    assert_int_equal(fx_give(f, "A", "Exhausted", 2), ENG_OK);
    struct rs_call *c = fx_call(f, "roll", "5", "attr", "endurance", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_ndice(f, 0), 3);
    c = fx_call(f, "roll", "5", "attr", "insight", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_ndice(f, 0), 5);
    assert_int_equal(fx_give(f, "A", "Distracted", 0), ENG_OK);
    c = fx_call(f, "roll", "5", "attr", "insight", NULL);
    assert_int_equal(rs_action(&rs_tactical, c, "test"), ENG_OK);
    assert_int_equal(fx_ndice(f, 0), 4);
    assert_int_equal(fx_cond(f, "A", "Distracted"), -1);
    fx_free(f);
}

/* Rage: Berserk until the end of the target's next turn; the shake-off
 * test is not rolled at the end of the turn it runs out anyway. Two
 * pending tests need effect: to trigger one. */
static void test_tac_rage_and_two_pending(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20 insight=2 willpower=2");
    fx_attack(f, "A", "D", NULL, NULL, "effects=Rage(2),Fear(1)");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D", NULL),
                                             "effect trigger"),
                     ENG_INVALID);
    assert_true(strstr(f->d.msg, "give effect:") != NULL);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D",
                                                     "effect", "Rage",
                                                     "pool", "0", NULL),
                                             "effect trigger"), ENG_OK);
    assert_true(fx_cond(f, "D", "Berserk") >= 0);
    assert_int_equal(fx_cond(f, "D", "Fear test"), 1);
    fx_next(f);                         /* Fear rolled as A's turn ends */
    assert_non_null(fx_event(f, ENC_EV_TEST, "D: resists Fear"));
    assert_string_equal(fx_current(f), "D");
    fx_next(f);
    assert_null(fx_event(f, ENC_EV_TEST, "shakes off Berserk"));
    assert_int_equal(fx_cond(f, "D", "Berserk"), -1);
    fx_free(f);
}

static void test_tac_option_errors(void **state)
{
    (void)state;
    struct fx *f = fx_pair(1, "hp=20");
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "effects=Zap(2)"),
                     ENG_NOTFOUND);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "effects=Knockdown"),
                     ENG_INVALID);
    /* An effect is not an option word of its own. */
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "Knockdown(2)"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL,
                               "effects=Knockdown(x)"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "wobble"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "burst=2 blast=1"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "ap=11"), ENG_RANGE);
    assert_int_equal(fx_attack(f, "A", "D", NULL, NULL, "also=D"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "A", "D", NULL, "1",
                               "template=1 also=\"Nobody Here\""),
                     ENG_NOTFOUND);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D", NULL),
                                             "effect trigger"), ENG_STATE);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, NULL), "dance"),
                     ENG_NOTFOUND);
    /* /act refuses options its action has no use for. */
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "reload",
                                                     "stamina", "1", NULL),
                               "act"), ENG_INVALID);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "reload",
                                                     "target", "D", NULL),
                               "act"), ENG_INVALID);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "break",
                                                     "target", "D", "cost",
                                                     "1", NULL), "act"),
                     ENG_INVALID);
    /* AP are set for the one acting: D's would be replaced at its turn. */
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D",
                                                     "value", "1", NULL),
                               "ap"), ENG_STATE);
    /* Nothing was spent by the refused attacks. */
    assert_int_equal(fx_ap(f, "A"), TAC_AP);
    f->c.is_gm = false;
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "D",
                                                     "effect", "Stun(1)",
                                                     NULL), "effect apply"),
                     ENG_PERM);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tac_shutdown_rounds),
        cmocka_unit_test(test_tac_shutdown_wakes_on_damage),
        cmocka_unit_test(test_tac_knockout),
        cmocka_unit_test(test_tac_deadly),
        cmocka_unit_test(test_tac_grip_and_break),
        cmocka_unit_test(test_tac_magnetize),
        cmocka_unit_test(test_tac_knockback),
        cmocka_unit_test(test_tac_condition_disadvantage),
        cmocka_unit_test(test_tac_rage_and_two_pending),
        cmocka_unit_test(test_tac_option_errors),
    };
    return cmocka_run_group_tests_name("rs_tactical_fx", tests, NULL, NULL);
}
