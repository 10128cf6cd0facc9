/* What a resolve reply shows the table (issue 20): each test is written
 * from the chapter's words (../shared/rules/resolve.txt) and reads only
 * the events, rolls and modifiers a front end renders, never the ruleset's
 * own state, so it runs against any version of the ruleset.
 *
 *  - "Instead of rolling, NPCs add +3 to their Initiative rank": an NPC's
 *    score is not a roll, and the log says so; a player's 1D and rank show.
 *  - Desperate Push "Roll 2D": the two dice are shown.
 *  - Tragic Demise: "All your allies who witness the death immediately
 *    regain 2D Resolve and 1 Force Point": each ally's 2D and Force Point
 *    are shown, and Force Points are on the tracker.
 *  - A blow beating Defense by 7 or more counts half the Armor Rating
 *    (README decision): the reply shows the armour that applied.
 *  - Sentences name who they are about; counts agree with their nouns. */
#include "support.h"

#include <stdlib.h>

#include "test_rs_resolve.h"

/* Whether ev uses roll idx (attached or inline). */
static bool ev_uses(const struct enc_event *ev, int idx)
{
    for (int k = 0; k < ev->nrolls; k++)
        if (ev->rolls[k] == idx)
            return true;
    for (int k = 0; k < ev->nparts; k++)
        if (ev->parts[k].kind == ENC_PART_ROLL && ev->parts[k].n == idx)
            return true;
    return false;
}

/* Whether roll idx is shown: some event of the last call uses it. */
static bool rs_shown(const struct rf *f, int idx)
{
    for (int i = 0; i < f->r->nev; i++)
        if (ev_uses(&f->r->ev[i], idx))
            return true;
    return false;
}

/* Whether ev is about combatant id: its subject or a name in it. */
static bool ev_about(const struct enc_event *ev, uint32_t id)
{
    if (ev->who == id)
        return true;
    for (int k = 0; k < ev->nparts; k++)
        if (ev->parts[k].kind == ENC_PART_WHO && ev->parts[k].id == id)
            return true;
    return false;
}

/* Whether roll idx is n dice of sides faces, all of them kept. */
static bool roll_is(const struct rf *f, int idx, int n, int sides)
{
    const struct enc_roll *r = &f->r->rolls[idx];
    return r->nterms == 1 && r->terms[0].count == n &&
           r->terms[0].sides == sides && r->ndice == n;
}

static int64_t roll_faces_sum(const struct rf *f, int idx)
{
    const struct enc_roll *r = &f->r->rolls[idx];
    int64_t sum = 0;
    for (int k = 0; k < r->ndice; k++)
        sum += r->dice[k].value;
    return sum;
}

/* ---- initiative ---------------------------------------------------------- */

static void test_npcs_have_a_score_and_do_not_roll(void **state)
{
    struct rf *f = *state;
    rf_opts(f, "major", "true", NULL);
    rf_add(f, "Boss", 0, "init=1");
    f->nopts = 0;
    rf_add(f, "Goon", 0, "init=2");
    rf_add(f, "Ana", 10, "init=2");
    assert_int_equal(rf_begin(f), ENG_OK);
    uint32_t boss = rf_who(f, "Boss")->id, goon = rf_who(f, "Goon")->id;
    uint32_t ana = rf_who(f, "Ana")->id;

    /* Only the player rolled: one initiative roll event, hers, with one
     * die of six faces, and her rank shown as what it adds. */
    int inits = 0;
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        if (ev->kind != ENC_EV_INIT)
            continue;
        inits++;
        assert_int_equal(ev->who, ana);
        assert_int_equal(ev->nrolls, 1);
        assert_true(roll_is(f, ev->rolls[0], 1, 6));
        int64_t die = roll_faces_sum(f, ev->rolls[0]);
        assert_int_equal(ev->a, die + 2);
        bool rank_shown = false;
        for (int k = 0; k < ev->nmods; k++)
            rank_shown |= ev->mods[k].has_amount && ev->mods[k].amount == 2;
        assert_true(rank_shown);
    }
    assert_int_equal(inits, 1);
    assert_int_equal(f->r->nrolls, 1);

    /* The log gives each NPC's score and says it was not rolled. */
    char text[512];
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_SAY,
                                            "initiative score 5");
    assert_non_null(ev);
    assert_true(ev_about(ev, goon));
    assert_non_null(strstr(rs_fx_text(&f->fx, ev, text, sizeof text),
                           "not roll"));
    ev = rs_fx_find(&f->fx, ENC_EV_SAY, "initiative score 7");
    assert_non_null(ev);
    assert_true(ev_about(ev, boss));
    assert_non_null(strstr(rs_fx_text(&f->fx, ev, text, sizeof text),
                           "major"));
    assert_int_equal(rf_who(f, "Goon")->init[0], 5);
    assert_int_equal(rf_who(f, "Boss")->init[0], 7);
}

/* ---- Fallen Fates -------------------------------------------------------- */

static void test_desperate_push_shows_its_dice(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=9 resolve=10");
    rf_add(f, "Goon", 0, "init=1 resolve=10");
    assert_int_equal(rf_begin(f), ENG_OK);
    rf_fate_due(f, "Ana");
    rf_opts(f, "name", "Ana", "fate", "push", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    /* "Roll 2D": one roll of two six-sided dice, and it is shown. */
    int pushes = 0;
    for (int i = 0; i < f->r->nrolls; i++) {
        if (!roll_is(f, i, 2, 6))
            continue;
        pushes++;
        assert_true(rs_shown(f, i));
        int64_t sum = roll_faces_sum(f, i);
        assert_int_equal(f->r->rolls[i].total, sum);
        /* 7 or less dies; 8 or more lives. */
        assert_int_equal((rf_who(f, "Ana")->flags & ENC_CF_DEAD) != 0,
                         sum <= 7);
    }
    assert_int_equal(pushes, 1);
}

static void test_tragic_demise_shows_dice_and_force_points(void **state)
{
    struct rf *f = *state;
    rf_heroes(f);
    rf_fate_due(f, "Cy");
    rf_opts(f, "name", "Cy", "fate", "tragic", NULL);
    assert_int_equal(rf_do(f, 12, "fate"), ENG_OK);

    /* Each ally who saw it: a line about them with their 2D shown and the
     * Force Point they gained. */
    const char *allies[] = {"Ana", "Bo"};
    for (int a = 0; a < 2; a++) {
        uint32_t id = rf_who(f, allies[a])->id;
        bool dice = false, fp = false;
        for (int i = 0; i < f->r->nev; i++) {
            const struct enc_event *ev = &f->r->ev[i];
            if (!ev_about(ev, id) || ev->kind == ENC_EV_HP)
                continue;
            char text[512];
            fp |= strstr(rs_fx_text(&f->fx, ev, text, sizeof text),
                          "Force Point") != NULL;
            for (int r = 0; r < f->r->nrolls; r++)
                dice |= roll_is(f, r, 2, 6) && ev_uses(ev, r);
        }
        assert_true(dice);
        assert_true(fp);
    }
    /* The Goon is no ally: nothing for it. */
    uint32_t goon = rf_who(f, "Goon")->id;
    for (int i = 0; i < f->r->nev; i++)
        assert_false(ev_about(&f->r->ev[i], goon));

    assert_int_equal(enc_stat_or(rf_who(f, "Ana"), "fp", 0), 1);
    assert_int_equal(enc_stat_or(rf_who(f, "Bo"), "fp", 0), 2);
}

static void test_force_points_are_on_the_tracker(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=9 resolve=10 fp=2");
    rf_add(f, "Bo", 11, "init=8 resolve=10");
    rf_add(f, "Goon", 0, "init=1 resolve=10");
    assert_int_equal(rf_begin(f), ENG_OK);
    char buf[256];
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Ana"), buf, sizeof buf);
    assert_non_null(strstr(buf, "FP 2"));
    /* A player character has Force Points even before gaining one. */
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Bo"), buf, sizeof buf);
    assert_non_null(strstr(buf, "FP 0"));
    /* An NPC without the stat has none to show. */
    rs_fx_status(&rs_resolve, f->e, rf_who(f, "Goon"), buf, sizeof buf);
    assert_null(strstr(buf, "FP"));
}

/* ---- armour -------------------------------------------------------------- */

/* The Armor Rating the damage event of the last call says applied: minus
 * its armour modifier; fails when there is none. */
static int64_t armour_shown(const struct rf *f)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        if (ev->kind != ENC_EV_DAMAGE)
            continue;
        for (int k = 0; k < ev->nmods; k++)
            if (ev->mods[k].has_amount &&
                strstr(ev->mods[k].reason, "armo") != NULL)
                return -ev->mods[k].amount;
    }
    fail_msg("no armour modifier on the damage");
    return -1;
}

static void test_half_armour_is_shown(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=9");
    rf_add(f, "Goon", 0, "init=1 defense=10 ar=5 resolve=20");
    assert_int_equal(rf_begin(f), ENG_OK);
    /* 17 beats Defense 10 by 7: AR 5 counts as 2 (rounded down). */
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "17", "8", NULL),
                     ENG_OK);
    assert_int_equal(armour_shown(f), 2);
    assert_int_equal(rf_resolve(f, "Goon"), 20 - 6);
    /* 16 beats it by 6: the full 5. */
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "momentum"), ENG_OK);
    assert_int_equal(rf_attack(f, 10, "Ana", "Goon", "16", "8", NULL),
                     ENG_OK);
    assert_int_equal(armour_shown(f), 5);
    assert_int_equal(rf_resolve(f, "Goon"), 14 - 3);
}

/* ---- words --------------------------------------------------------------- */

/* Every sentence about someone names them. */
static void assert_sentences_named(struct rf *f)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        if ((ev->kind != ENC_EV_SAY && ev->kind != ENC_EV_PROMPT) ||
            ev->who == 0)
            continue;
        bool named = false;
        for (int k = 0; k < ev->nparts; k++)
            named |= ev->parts[k].kind == ENC_PART_WHO &&
                     ev->parts[k].id == ev->who;
        if (!named) {
            char text[512];
            fail_msg("a sentence does not name its subject: \"%s\"",
                     rs_fx_text(&f->fx, ev, text, sizeof text));
        }
    }
}

static void test_sentences_name_their_subject(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=9 resolve=10 stamina=2 tactics=2 agility=1");
    rf_add(f, "Goon", 0, "init=1 resolve=10 defense=9");
    assert_int_equal(rf_begin(f), ENG_OK);
    f->nopts = 0;
    assert_int_equal(rf_do(f, 10, "move"), ENG_OK);
    assert_sentences_named(f);
    rf_opts(f, "skill", "tactics", NULL);
    assert_int_equal(rf_do(f, 10, "aim"), ENG_OK);
    assert_sentences_named(f);
    rf_fate_due(f, "Ana");
    assert_sentences_named(f);
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    assert_sentences_named(f);
    rf_opts(f, "name", "Ana", "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_sentences_named(f);
    rf_opts(f, "name", "Ana", "fate", "push", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    assert_sentences_named(f);
}

static void test_ignores_left_count_right(void **state)
{
    struct rf *f = *state;
    rf_add(f, "Ana", 10, "init=9 resolve=10 stamina=2");
    rf_add(f, "Goon", 0, "init=1 resolve=10");
    assert_int_equal(rf_begin(f), ENG_OK);
    rf_fate_due(f, "Ana");
    assert_true(rf_said(f, "2 ignores left"));
    rf_opts(f, "name", "Ana", "fate", "ignore", NULL);
    assert_int_equal(rf_do(f, 10, "fate"), ENG_OK);
    /* Two ignores, one spent: "1 ignore left", not "1 ignores". */
    assert_true(rf_said(f, "1 ignore left"));
    assert_false(rf_said(f, "1 ignores"));
    rf_opts(f, "name", "Ana", "amount", "1", NULL);
    assert_int_equal(rf_do(f, RF_GM, "damage"), ENG_OK);
    assert_true(rf_said(f, "1 ignore left"));
    assert_false(rf_said(f, "1 ignores"));
}

static void test_fixed_order_points_at_delay(void **state)
{
    struct rf *f = *state;
    rf_add(f, "A", 0, "init=5");
    rf_add(f, "B", 0, "init=4");
    assert_int_equal(rf_begin(f), ENG_OK);
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(rs_resolve.ops->pick(&c, rf_who(f, "B")), ENG_STATE);
    /* The framework's verb is /delay. */
    assert_non_null(strstr(f->d.hint, "/delay after:"));
    assert_null(strstr(f->d.hint, "/combat delay"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, rf_setup, rf_teardown)
        T(test_npcs_have_a_score_and_do_not_roll),
        T(test_desperate_push_shows_its_dice),
        T(test_tragic_demise_shows_dice_and_force_points),
        T(test_force_points_are_on_the_tracker),
        T(test_half_armour_is_shown),
        T(test_sentences_name_their_subject),
        T(test_ignores_left_count_right),
        T(test_fixed_order_points_at_delay),
#undef T
    };
    return cmocka_run_group_tests_name("rs_resolve_show", tests, NULL, NULL);
}
