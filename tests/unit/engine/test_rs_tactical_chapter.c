/* The tactical chapter's rules that fray used to get wrong (issue 20),
 * each test written from the chapter's words (../shared/rules/tactical.txt)
 * and our rules README: conditions follow the table however they are
 * given; conditions change the tests they touch, shown on the roll; ties
 * in opposed tests change nothing; passive evasion is not the Evasion
 * skill; a scattered blast is one attack; the tracker's AP; cyborgs and
 * implanted humans; and the effects are /attack option words. */
#include "support.h"

#include "test_rs_tactical.h"

/* Vex (first, a player's strong character) and Drone. */
static struct fx *fx_two(uint64_t seed, const char *vex, const char *drone)
{
    struct fx *f = fx_new(seed);
    fx_add(f, "Vex", vex);
    fx_add(f, "Drone", drone);
    fx_init(f, "Vex", 20);
    fx_init(f, "Drone", 10);
    assert_int_equal(rs_tactical.ops->begin(fx_call(f, NULL)), ENG_OK);
    return f;
}

/* /test name:Vex attr:ATTR roll:5: its event. */
static const struct enc_event *fx_test5(struct fx *f, const char *attr)
{
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "Vex",
                                                     "attr", attr, "roll",
                                                     "5", NULL), "test"),
                     ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST, "tests");
    assert_non_null(ev);
    return ev;
}

/* ---- conditions follow the table however they are applied --------------- */

/* "1 points of Direct Damage per stack of Acid (up to 3)", "+X damage
 * modifier (Up to 3)", "Warded can only stack up to Warded(4)": through
 * the GM's /combat condition too. */
static void test_tac_caps_hold_however_given(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    assert_int_equal(fx_give(f, "Drone", "Acid", 5), ENG_OK);
    assert_int_equal(fx_give(f, "Drone", "Corroded", 5), ENG_OK);
    assert_int_equal(fx_give(f, "Drone", "Warded", 6), ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Acid"), 3);
    assert_int_equal(fx_cond(f, "Drone", "Corroded"), 3);
    assert_int_equal(fx_cond(f, "Drone", "Warded"), 4);
    fx_free(f);
}

/* Poison's value is the difficulty of the test to shake it off, which our
 * README starts at 2 ("Endurance[Fortitude 2]"), +1 per dose, at most 5. */
static void test_tac_poisoned_starts_at_two(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    assert_int_equal(fx_give(f, "Drone", "Poisoned", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Poisoned"), 2);
    assert_int_equal(fx_give(f, "Drone", "Poisoned", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Poisoned"), 3);
    fx_free(f);
}

/* A condition that stacks gains a stack each time it is given again. */
static void test_tac_repeated_condition_stacks(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    for (int i = 0; i < 2; i++)
        assert_int_equal(fx_give(f, "Drone", "Acid", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Acid"), 2);
    assert_int_equal(fx_give(f, "Drone", "Exhausted", 0), ENG_OK);
    assert_int_equal(fx_give(f, "Drone", "Exhausted", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Exhausted"), 2);
    fx_free(f);
}

/* "If a character reaches Exhaustion(5) they are knocked Out of the
 * Fight": at once, not at the next turn. */
static void test_tac_exhausted_five_out_at_once(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    assert_int_equal(fx_give(f, "Drone", "Exhausted", 5), ENG_OK);
    assert_true(fx_by(f, "Drone")->flags & ENC_CF_DOWN);
    assert_non_null(fx_event(f, ENC_EV_DOWN, ""));
    fx_free(f);
}

/* ---- conditions that change tests change them --------------------------- */

/* "A grappled character ... has Major Disadvantage on all Strength and
 * Dexterity based skill tests - except those to break out of the
 * grapple." */
static void test_tac_grappled_major_disadvantage(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20 strength=2 grapple=2",
                          "hp=20 strength=0 grapple=0");
    assert_int_equal(fx_give(f, "Vex", "Grappled", 0), ENG_OK);
    int64_t amount = 0;
    const struct enc_event *ev = fx_test5(f, "strength");
    assert_int_equal(fx_ev_dice(f, ev), 3);
    assert_true(fx_mod(ev, "Grappled", &amount));
    assert_int_equal(amount, -2);
    assert_int_equal(fx_ev_dice(f, fx_test5(f, "dexterity")), 3);
    ev = fx_test5(f, "endurance");
    assert_int_equal(fx_ev_dice(f, ev), 5);
    assert_false(fx_mod(ev, "Grappled", NULL));
    /* Breaking out: Strength(Grapple) of 4 dice, no disadvantage. */
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "break",
                                                     "target", "Drone",
                                                     NULL), "act"), ENG_OK);
    ev = fx_event(f, ENC_EV_TEST, "tries to break free");
    assert_int_equal(fx_ev_dice(f, ev), 4);
    assert_false(fx_mod(ev, "Grappled", NULL));
    fx_free(f);
}

/* "A wounded character has Disadvantage on all tests using their wounded
 * characteristic ... Penalties from several wounds on the same
 * characteristic do not stack." An Injury (our reading: the same, for its
 * characteristic) and "if this character takes another Injury of the same
 * type they receive a wound instead". */
static void test_tac_wounds_and_injuries(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    int64_t amount = 0;
    assert_int_equal(fx_give(f, "Vex", "Strength Injury", 0), ENG_OK);
    const struct enc_event *ev = fx_test5(f, "strength");
    assert_int_equal(fx_ev_dice(f, ev), 4);
    assert_true(fx_mod(ev, "Strength Injury", &amount));
    assert_int_equal(amount, -1);
    assert_int_equal(fx_ev_dice(f, fx_test5(f, "dexterity")), 5);
    /* The second Strength Injury is a Strength Wound. */
    assert_int_equal(fx_give(f, "Vex", "Strength Injury", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Vex", "Strength Wound"), 1);
    assert_true(fx_said(f, "a second one is Strength Wound instead"));
    assert_int_equal(fx_ev_dice(f, fx_test5(f, "strength")), 3);
    /* More wounds there do not add to the penalty. */
    assert_int_equal(fx_give(f, "Vex", "Strength Wound", 0), ENG_OK);
    assert_int_equal(fx_cond(f, "Vex", "Strength Wound"), 2);
    ev = fx_test5(f, "strength");
    assert_int_equal(fx_ev_dice(f, ev), 3);
    assert_true(fx_mod(ev, "Strength Wound", &amount));
    assert_int_equal(amount, -1);
    /* A wound of another kind: its own characteristic only. */
    assert_int_equal(fx_give(f, "Vex", "Insight Wound", 0), ENG_OK);
    assert_int_equal(fx_ev_dice(f, fx_test5(f, "insight")), 4);
    fx_free(f);
}

/* "Attacks against a character that is flanked have an advantage." */
static void test_tac_flanked_gives_attackers_advantage(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    assert_int_equal(fx_give(f, "Drone", "Flanked", 0), ENG_OK);
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1", NULL), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_ATTACK, "");
    assert_int_equal(fx_ev_dice(f, ev), 4);
    int64_t amount = 0;
    assert_true(fx_mod(ev, "Flanked: advantage", &amount));
    assert_int_equal(amount, 1);
    /* A burst is an attack too: one die more. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", "burst=3"),
                     ENG_OK);
    ev = fx_event(f, ENC_EV_ATTACK, "");
    assert_int_equal(fx_ev_dice(f, ev), 4);
    assert_true(fx_mod(ev, "Flanked: advantage", NULL));
    fx_free(f);
}

/* "Any melee attack against a Prone character gains Major Advantage";
 * prone characters have "an advantage on ranged attacks" (our reading:
 * against them, a disadvantage for the ranged attacker) and their "cover
 * is increased by one degree"; "Prone characters are also considered
 * Flanked, so flanking them provides no further benefits." */
static void test_tac_prone_melee_and_ranged(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=40");
    assert_int_equal(fx_give(f, "Drone", "Prone", 0), ENG_OK);
    assert_int_equal(fx_give(f, "Drone", "Flanked", 0), ENG_OK);
    /* It matters how the attack is made: say it. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1", NULL),
                     ENG_INVALID);
    assert_true(strstr(f->d.msg, "say melee or ranged") != NULL);
    assert_int_equal(fx_ap(f, "Vex"), TAC_AP);
    int64_t amount = 0;
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1", "melee"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_ATTACK, "");
    assert_int_equal(fx_ev_dice(f, ev), 5);
    assert_true(fx_mod(ev, "Prone: major advantage (melee)", &amount));
    assert_int_equal(amount, 2);
    assert_false(fx_mod(ev, "Flanked", NULL));
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1", "ranged"),
                     ENG_OK);
    ev = fx_event(f, ENC_EV_ATTACK, "");
    assert_int_equal(fx_ev_dice(f, ev), 2);
    assert_true(fx_mod(ev, "Prone: disadvantage (ranged)", &amount));
    assert_int_equal(amount, -1);
    assert_true(fx_mod(ev, "Prone: cover one degree better", NULL));
    assert_false(fx_mod(ev, "Flanked", NULL));
    fx_free(f);
}

/* ---- opposed tests: a tie changes nothing (README decision) -------------- */

static void test_tac_opposed_tie_drags_nobody(void **state)
{
    (void)state;
    /* Pools of 0 on both sides: 0 against 0, every time. */
    struct fx *f = fx_two(1, "hp=20 strength=0 athletics=0 grapple=0",
                          "hp=20 endurance=0 fortitude=0 strength=0 "
                          "grapple=0");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "Drone",
                                                     "effect", "Grip",
                                                     "attacker", "Vex",
                                                     NULL), "effect apply"),
                     ENG_OK);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "drag",
                                                     "target", "Drone",
                                                     NULL), "act"), ENG_OK);
    assert_true(fx_said(f, "Drone is not dragged: a tie moves nobody"));
    assert_false(fx_said(f, "is dragged up to"));
    fx_next(f);
    /* Drone tries to break the grip: a tie, and the grip holds. */
    assert_string_equal(fx_current(f), "Drone");
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "action", "break",
                                                     "target", "Vex", NULL),
                               "act"), ENG_OK);
    assert_true(fx_said(f, "tie: the grip stays"));
    assert_true(fx_cond(f, "Drone", "Immobilized") >= 0);
    fx_free(f);
}

/* ---- passive evasion and the Evasion skill -------------------------------- */

/* An area attack's "Dexterity[Evasion 2] test" rolls Dexterity + the
 * Evasion skill; a burst hits "greater than the target's passive
 * evasion". Two numbers, two stats. */
static void test_tac_passive_evasion_is_not_the_skill(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20 aim=0",
                          "hp=40 dexterity=1 evasion=1 passive_evasion=6");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "2", "template=2"),
                     ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST, "Drone: evades");
    assert_non_null(ev);
    assert_int_equal(fx_ev_dice(f, ev), 2);
    /* The burst counts dice above 6: none can hit. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "2", "burst=6"),
                     ENG_OK);
    int i = fx_roll(f, "burst");
    assert_true(i >= 0);
    assert_string_equal(f->r.rolls[i].expr, "6d6>6");
    assert_int_equal(f->r.rolls[i].total, 0);
    fx_free(f);
}

/* ---- a blast that scatters -------------------------------------------- */

/* A blast is one attack: when it scatters, placing it where it landed
 * costs no second attack's AP. */
static void test_tac_scattered_blast_costs_one_attack(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=40");
    /* roll:0 cannot pass the aim test. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", "0", "4",
                               "blast=1 factors=3"), ENG_OK);
    assert_true(fx_said(f, "The blast scatters"));
    assert_int_equal(fx_ap(f, "Vex"), TAC_AP - 1);
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "4",
                               "blast=1 placed"), ENG_OK);
    assert_int_equal(fx_ap(f, "Vex"), TAC_AP - 1);
    assert_int_equal(fx_track(f, "Drone", "hp"), 36);
    /* Placed once: the next placed blast is a new attack. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "4",
                               "blast=1 placed"), ENG_OK);
    assert_int_equal(fx_ap(f, "Vex"), TAC_AP - 2);
    fx_free(f);
}

/* roll: is the aim test's pool: 40 dice pass a difficulty of 5 (the chance
 * of fewer than 5 fours or better in 40 d6 is below 1 in 10^7); with the
 * stats' single die it could not. */
static void test_tac_blast_aim_honours_roll(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20 dexterity=1 aim=0", "hp=40");
    assert_int_equal(fx_attack(f, "Vex", "Drone", "40", "4",
                               "blast=1 factors=3"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_TEST, "aims the blast");
    assert_non_null(ev);
    assert_int_equal(fx_ev_dice(f, ev), 40);
    assert_int_equal(ev->target, 5);
    assert_true(fx_said(f, "lands where it was aimed"));
    assert_int_equal(fx_track(f, "Drone", "hp"), 36);
    fx_free(f);
}

/* The scatter instruction reads whole: how far, which way, and the attack
 * to make once the GM has placed the blast. */
static void test_tac_scatter_instruction_is_whole(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=40");
    assert_int_equal(fx_attack(f, "Vex", "Drone", "0", "4",
                               "blast=2 effects=Knockdown(1)"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_SAY, "scatters");
    assert_non_null(ev);
    char text[1024];
    rs_fx_text(&f->fx, ev, text, sizeof text);
    assert_non_null(strstr(text, "attack again with options:\"blast=2 "
                                 "placed effects=Knockdown(1) also=...\" "
                                 "naming everyone inside; that attack costs "
                                 "no AP."));
    fx_free(f);
}

/* Knockback: "If a character is knocked back 15 feet or more and they
 * collide ..., they take d3 points of direct damage per 5 feet traveled
 * after the first 10. The character they collide with are hit by a damage
 * test that deals 1D damage for every 5 feet traveled after the first
 * 10." The note says all of it. */
static void test_tac_knockback_note_is_whole(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=40");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, NULL,
                               "effects=Knockback(4)"), ENG_OK);
    assert_int_equal(rs_action(&rs_tactical, fx_call(f, "name", "Drone",
                                                     "pool", "0", NULL),
                               "effect trigger"), ENG_OK);
    const struct enc_event *ev = fx_event(f, ENC_EV_SAY, "pushed");
    char text[1024];
    rs_fx_text(&f->fx, ev, text, sizeof text);
    assert_string_equal(text, "Drone is pushed straight back 20 ft. If they "
                        "hit an object or someone on the way, they take 1d3 "
                        "direct damage for each 5 ft travelled past the "
                        "first 10 (up to 2d3), and whoever they hit takes 1D "
                        "damage for each 5 ft past the first 10 (the GM "
                        "rolls both)");
    fx_free(f);
}

/* ---- the tracker ---------------------------------------------------------- */

/* The tracker shows the AP of the one acting, not what others had left
 * at the end of their turn. */
static void test_tac_tracker_ap_acting_only(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=20");
    char buf[64];
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", NULL), ENG_OK);
    rs_fx_status(&rs_tactical, f->e, fx_by(f, "Vex"), buf, sizeof buf);
    assert_string_equal(buf, "AP 2/3");
    rs_fx_status(&rs_tactical, f->e, fx_by(f, "Drone"), buf, sizeof buf);
    assert_string_equal(buf, "");
    fx_next(f);
    rs_fx_status(&rs_tactical, f->e, fx_by(f, "Vex"), buf, sizeof buf);
    assert_string_equal(buf, "");
    rs_fx_status(&rs_tactical, f->e, fx_by(f, "Drone"), buf, sizeof buf);
    assert_string_equal(buf, "AP 3/3");
    fx_free(f);
}

/* ---- cyborgs and implanted humans ----------------------------------------- */

/* Shutdown: "Mechanical units (that are not cyborgs or implanted humans)";
 * Knockout: "Non-mechanical characters hit (other than cyborgs and
 * implanted humans)" - our reading: cyborgs are knocked out like the
 * living; Shock: "Mechanical units receive twice the direct HP damage" -
 * a cyborg counts as one (Shutdown's words make it a mechanical unit). */
static void test_tac_cyborgs(void **state)
{
    (void)state;
    struct fx *f = fx_two(1, "hp=20", "hp=40 cyborg=1");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, NULL,
                               "effects=Shock(3),Knockout(2),Shutdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_track(f, "Drone", "hp"), 34);
    assert_int_equal(fx_cond(f, "Drone", "Knockout test"), 2);
    assert_int_equal(fx_cond(f, "Drone", "Shutdown test"), -1);
    assert_true(fx_said(f, "cyborgs and implanted humans do not shut "
                        "down"));
    fx_free(f);
    /* A machine: Shock doubles, Shutdown works, Knockout does not. */
    f = fx_two(1, "hp=20", "hp=40 mech=1");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, NULL,
                               "effects=Shock(3),Knockout(2),Shutdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_track(f, "Drone", "hp"), 34);
    assert_int_equal(fx_cond(f, "Drone", "Knockout test"), -1);
    assert_int_equal(fx_cond(f, "Drone", "Shutdown test"), 2);
    fx_free(f);
    /* The living: Shock single, Knockout works, Shutdown does not. */
    f = fx_two(1, "hp=20", "hp=40");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, NULL,
                               "effects=Shock(3),Knockout(2),Shutdown(2)"),
                     ENG_OK);
    assert_int_equal(fx_track(f, "Drone", "hp"), 37);
    assert_int_equal(fx_cond(f, "Drone", "Knockout test"), 2);
    assert_int_equal(fx_cond(f, "Drone", "Shutdown test"), -1);
    fx_free(f);
}

/* ---- effects are /attack words; /attack has no tactical option ------------ */

static void test_tac_effects_are_attack_tokens(void **state)
{
    (void)state;
    assert_null(rs_ext_opts(&rs_tactical, "attack"));
    struct fx *f = fx_two(1, "hp=20", "hp=40");
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1",
                               "effects=\"Knockdown(2) Stun(1)\" crit"),
                     ENG_OK);
    assert_int_equal(fx_cond(f, "Drone", "Knockdown test"), 2);
    assert_int_equal(fx_cond(f, "Drone", "Stun test"), 1);
    /* Accepted and ignored is not an option: each refusal names why. */
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", "factors=2"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", "need=2"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", "adv"),
                     ENG_INVALID);
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1",
                               "template=2"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Vex", "Drone", "3", "1",
                               "melee ranged"), ENG_INVALID);
    assert_int_equal(fx_attack(f, "Vex", "Drone", NULL, "1", "crit miss"),
                     ENG_INVALID);
    assert_int_equal(fx_ap(f, "Vex"), TAC_AP - 1);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tac_caps_hold_however_given),
        cmocka_unit_test(test_tac_poisoned_starts_at_two),
        cmocka_unit_test(test_tac_repeated_condition_stacks),
        cmocka_unit_test(test_tac_exhausted_five_out_at_once),
        cmocka_unit_test(test_tac_grappled_major_disadvantage),
        cmocka_unit_test(test_tac_wounds_and_injuries),
        cmocka_unit_test(test_tac_flanked_gives_attackers_advantage),
        cmocka_unit_test(test_tac_prone_melee_and_ranged),
        cmocka_unit_test(test_tac_opposed_tie_drags_nobody),
        cmocka_unit_test(test_tac_passive_evasion_is_not_the_skill),
        cmocka_unit_test(test_tac_scattered_blast_costs_one_attack),
        cmocka_unit_test(test_tac_blast_aim_honours_roll),
        cmocka_unit_test(test_tac_scatter_instruction_is_whole),
        cmocka_unit_test(test_tac_knockback_note_is_whole),
        cmocka_unit_test(test_tac_tracker_ap_acting_only),
        cmocka_unit_test(test_tac_cyborgs),
        cmocka_unit_test(test_tac_effects_are_attack_tokens),
    };
    return cmocka_run_group_tests_name("rs_tactical_chapter", tests, NULL,
                                       NULL);
}
