/* Tests for the factions ruleset written from the chapter's words
 * (../shared/rules/factions.txt) where an earlier fray departed from it
 * (issue 20): reactions that cannot be used, the ambushers' initiative,
 * the fast action threshold given before round 1, and reactions with no
 * attack to answer. They use only the ruleset's public surface (its ops,
 * its declared commands and options) and the events it records. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "test_rs_factions.h"

/* Whether an event of the last call has both words in its text. */
static bool fx_said2(struct fx *f, const char *a, const char *b)
{
    for (int i = 0; i < f->r->nev; i++) {
        char text[1024];
        rs_fx_text(&f->fx, &f->r->ev[i], text, sizeof text);
        if (strstr(text, a) != NULL && strstr(text, b) != NULL)
            return true;
    }
    return false;
}

/* Saves the last call made (no dodge was rolled, say). */
static int fx_tests(struct fx *f)
{
    int n = 0;
    for (int i = 0; i < f->r->nev; i++)
        n += f->r->ev[i].kind == ENC_EV_TEST;
    return n;
}

/* Thieves ambush the Watch: Cat is concealed, the Thieves hold the
 * initiative; Cat's bonus turn is running. */
static void fx_ambush(struct fx *f)
{
    fx_add(f, "Cat", "Thieves", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Dan", "Thieves", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Guard", "Watch", "str=10 agi=20 wit=10 hp=20", 0);
    fx_add(f, "Sergeant", "Watch", "str=10 agi=20 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Thieves", "surprise", "Cat"),
                     ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
}

/* ---- an impossible reaction doesn't cancel the attack ------------------- */

/* "Enemies attacked by a concealed character are taken by surprise and
 * can't react": a dodge given with the attack cannot be used, but the
 * attack itself hits, and the reply says why the dodge was not made. */
static void test_surprised_target_is_still_hit(void **state)
{
    struct fx *f = *state;
    fx_ambush(f);
    assert_int_equal(fx_attack(f, "Cat", "Guard", "1d6", "dodge"), ENG_OK);
    assert_true(fx_hp(f, "Guard") < 20);
    assert_false(fx_who(f, "Guard")->flags & ENC_CF_ACTED);
    assert_true(fx_said2(f, "Guard", "surprise"));
    assert_int_equal(fx_tests(f), 0);
}

/* "Targets who are unaware of their attacker can't react": a counter
 * given with an attack on an unaware target is not made; the attack hits
 * and the attacker takes nothing. */
static void test_unaware_target_is_still_hit(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=10 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Red", NULL, NULL), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6",
                               "unaware counter=1d6"), ENG_OK);
    assert_true(fx_hp(f, "Cat") < 20);
    assert_int_equal(fx_hp(f, "Ann"), 20);
    assert_false(fx_who(f, "Cat")->flags & ENC_CF_ACTED);
    assert_true(fx_said2(f, "Cat", "unaware"));
}

/* "Each character can only take turn once per round" and a reaction is
 * that turn: a target who already acted cannot dodge, and the attack
 * lands. */
static void test_target_who_acted_is_still_hit(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=20 wit=10 hp=20", 0);
    fx_add(f, "Dan", "Blue", "str=10 agi=20 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Blue", NULL, NULL), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6", "dodge"), ENG_OK);
    assert_true(fx_hp(f, "Cat") < 20);
    assert_true(fx_said2(f, "Cat", "already"));
    assert_int_equal(fx_tests(f), 0);
}

/* The same for a guard: "A character who is nearby the target of an
 * attack can react by guarding them" uses the guard's turn; a guard who
 * has already acted cannot, and the original target is hit. */
static void test_guard_who_acted_leaves_the_target_hit(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Ben", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=20 wit=10 hp=20", 0);
    fx_add(f, "Dan", "Blue", "str=10 agi=20 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Blue", NULL, NULL), ENG_OK);
    assert_int_equal(fx_pick(f, "Dan"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6", "guard=Dan"),
                     ENG_OK);
    assert_true(fx_hp(f, "Cat") < 20);
    assert_int_equal(fx_hp(f, "Dan"), 20);
    assert_true(fx_said2(f, "Dan", "already"));
}

/* A blast by a concealed attacker: its targets are surprised, so the
 * dodges named with it are not made, and everyone in the zone is hit. */
static void test_surprised_blast_targets_are_still_hit(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Cat", "Thieves", "str=10 agi=10 wit=20 hp=20 zone=1", 0);
    fx_add(f, "Guard", "Watch", "str=10 agi=20 wit=10 hp=20 zone=2", 0);
    fx_add(f, "Sergeant", "Watch", "str=10 agi=20 wit=10 hp=20 zone=2", 0);
    assert_int_equal(fx_begin_with(f, "first", "Thieves", "surprise", "Cat"),
                     ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    const char *opts = rs_factions.attack_opts != NULL
                           ? "blast ranged zone=2 dodgers=Guard"
                           : "blast ranged zone=2 dodge=Guard";
    assert_int_equal(fx_attack(f, "Cat", "Guard", "1d6", opts), ENG_OK);
    assert_true(fx_hp(f, "Guard") < 20);
    assert_true(fx_hp(f, "Sergeant") < 20);
    assert_false(fx_who(f, "Guard")->flags & ENC_CF_ACTED);
    assert_true(fx_said2(f, "Guard", "surprise"));
}

/* ---- ambushers take the initiative -------------------------------------- */

/* "Initiative is held by the faction which started the fight": an ambush
 * started it, so without first: the ambushers hold the initiative, with
 * no draw, and the reply says why. Whatever the seed. */
static void test_ambushers_hold_the_initiative(void **state)
{
    struct fx *f = *state;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rs_fx_cleanup(&f->fx);
        rs_fx_init(&f->fx, &rs_factions, seed, &f->result);
        fx_add(f, "Guard", "Watch", "str=10 agi=10 wit=10 hp=20", 0);
        fx_add(f, "Cat", "Thieves", "str=10 agi=10 wit=10 hp=20", 0);
        assert_int_equal(fx_begin_with(f, "surprise", "Cat", NULL, NULL),
                         ENG_OK);
        assert_int_equal(rs_fx_roll(&f->fx, "faction holding the "
                                    "initiative", 0), -1);
        assert_true(fx_said2(f, "initiative", "ambush"));
        /* After Cat's bonus turn round 1 opens with the holder deciding. */
        assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
        assert_int_equal(fx_next(f), ENG_OK);
        assert_int_equal(f->e->round, 1);
        assert_string_equal(fx_acting(f), "Thieves");
    }
}

/* first: still names the faction that started the fight when the GM says
 * so, ambush or not. */
static void test_first_overrides_the_ambush(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Guard", "Watch", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Thieves", "str=10 agi=10 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "surprise", "Cat", "first", "Watch"),
                     ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Watch");
}

/* ---- the threshold can be set before round 1 ---------------------------- */

/* "At the beginning of each round the GM openly rolls a d20": a GM who
 * rolled 9 at the table gives it when the fight begins, fray rolls
 * nothing for round 1, and whatever its dice would have said, nobody sees
 * a slow phase before anyone could act. */
static void test_threshold_given_at_begin(void **state)
{
    struct fx *f = *state;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        rs_fx_cleanup(&f->fx);
        rs_fx_init(&f->fx, &rs_factions, seed, &f->result);
        fx_example_cast(f);
        assert_int_equal(fx_begin_with(f, "first", "Players", "threshold", "9"),
                         ENG_OK);
        assert_int_equal(rs_fx_roll(&f->fx, "fast action threshold", 0),
                         -1);
        assert_false(rs_fx_said(&f->fx, "slow phase"));
        assert_true(rs_fx_said(&f->fx, "9"));
        assert_int_equal(fx_pick(f, "Sybilla"),
                         ENG_STATE);
        assert_int_equal(fx_pick(f, "Theobald"),
                         ENG_OK);
    }
}

/* With an ambush the bonus turn comes first; the threshold given at begin
 * is round 1's. Round 2 rolls its own. */
static void test_threshold_given_at_begin_waits_for_round_1(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    assert_int_equal(fx_begin_with(f, "surprise", "Leader", "threshold", "9"),
                     ENG_OK);
    assert_int_equal(f->e->round, 0);
    assert_int_equal(fx_pick(f, "Leader"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_int_equal(rs_fx_roll(&f->fx, "fast action threshold", 0), -1);
    assert_false(rs_fx_said(&f->fx, "slow phase"));
    /* The ambushers hold the initiative: the Bandits decide first. */
    assert_string_equal(fx_acting(f), "Bandits");
    assert_int_equal(fx_pick(f, "Bandit 1"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Leader"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Sybilla"),
                     ENG_STATE);
    assert_int_equal(fx_pick(f, "Theobald"), ENG_OK);
}

/* Without the optional rule there is no threshold to give. */
static void test_threshold_at_begin_needs_phases(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin_with(f, "first", "Red", "threshold", "9"),
                     ENG_STATE);
    assert_int_equal(f->e->status, ENC_ST_SETUP);
}

/* ---- a dodge is not "0 vs 0" -------------------------------------------- */

/* "Dodge. Make an AGI save: on a pass the attack misses": with no attack
 * waiting there is nothing to miss, so the dodge is refused and the
 * character keeps its turn. */
static void test_dodge_without_an_attack_is_refused(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=10 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Red", NULL, NULL), ENG_OK);
    fx_opts(f, "name", "Cat", "kind", "dodge");
    assert_int_equal(fx_action(f, "react", true, RS_FX_GM), ENG_STATE);
    assert_false(fx_who(f, "Cat")->flags & ENC_CF_ACTED);
    assert_int_equal(f->r->nrolls, 0);
    assert_false(rs_fx_said(&f->fx, "misses"));
}

/* A dodged attack is shown with the AGI save that dodged it, never as an
 * attack compared with nothing: an attack event that carries rolls also
 * carries the comparison. */
static void test_dodged_attack_shows_its_save(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=20 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Red", NULL, NULL), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "1d6", "dodge"), ENG_OK);
    assert_int_equal(fx_hp(f, "Cat"), 20);
    int atk = 0, test = 0;
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        if (ev->kind == ENC_EV_ATTACK) {
            atk++;
            assert_true(ev->nrolls == 0 || ev->has_cmp);
            assert_true(ev->has_cmp || (ev->a == 0 && ev->b == 0));
        }
        if (ev->kind == ENC_EV_TEST && ev->has_cmp && ev->target == 20) {
            test++;
            assert_true(ev->nrolls == 1);
            assert_true(ev->value >= 1 && ev->value <= 20);
        }
    }
    assert_int_equal(atk, 1);
    assert_int_equal(test, 1);
}

/* The ambusher's bonus turn is a turn taken, not a reaction: the tracker
 * says "acted". A reaction in the same bonus turn still says "reacted". */
static void test_ambush_turn_shows_acted(void **state)
{
    struct fx *f = *state;
    fx_ambush(f);
    char buf[256];
    rs_fx_status(&rs_factions, f->e, fx_who(f, "Cat"), buf, sizeof buf);
    assert_non_null(strstr(buf, "acted"));
    assert_null(strstr(buf, "reacted"));
}

/* ---- grammar in generated text ------------------------------------------ */

/* Faction names are often plural ("Players"): nothing fray writes may
 * make them "Players's" or give them a verb that needs a singular. */
static void test_no_broken_possessives(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Players", "str=10 agi=10 wit=10 hp=20", 0);
    fx_add(f, "Bob", "Bandits", "str=10 agi=10 wit=10 hp=20", 0);
    assert_int_equal(fx_begin_with(f, "first", "Players", NULL, NULL), ENG_OK);
    for (int i = 0; i < f->r->nev; i++) {
        char text[1024];
        rs_fx_text(&f->fx, &f->r->ev[i], text, sizeof text);
        assert_null(strstr(text, "s's"));
        assert_null(strstr(text, "Players holds"));
    }
    assert_int_equal(fx_pick(f, "Bob"), ENG_STATE);
    assert_null(strstr(f->d.msg, "s's"));
    assert_int_equal(fx_pass(f), ENG_OK);
    for (int i = 0; i < f->r->nev; i++) {
        char text[1024];
        rs_fx_text(&f->fx, &f->r->ev[i], text, sizeof text);
        assert_null(strstr(text, "Players passes"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, fx_setup, fx_teardown)
        T(test_surprised_target_is_still_hit),
        T(test_unaware_target_is_still_hit),
        T(test_target_who_acted_is_still_hit),
        T(test_guard_who_acted_leaves_the_target_hit),
        T(test_surprised_blast_targets_are_still_hit),
        T(test_ambushers_hold_the_initiative),
        T(test_first_overrides_the_ambush),
        T(test_threshold_given_at_begin),
        T(test_threshold_given_at_begin_waits_for_round_1),
        T(test_threshold_at_begin_needs_phases),
        T(test_dodge_without_an_attack_is_refused),
        T(test_dodged_attack_shows_its_save),
        T(test_ambush_turn_shows_acted),
        T(test_no_broken_possessives),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
