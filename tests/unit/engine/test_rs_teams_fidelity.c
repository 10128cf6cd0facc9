/* The teams ruleset against its chapter where a reading of the rules found
 * fray departing from it (issue 20): each test is written from the
 * chapter's words. They use only the ops, the commands and the events, so
 * they also build against the ruleset as it was before, to show the
 * departure. */
#include "support.h"

#include "test_rs_teams.h"

/* /attack with options: given as text, as a caller that does not bind
 * them (the ruleset binds them itself): the stray test takes this path. */
static enum eng_err fx_attack_text(struct fx *f, const char *atk,
                                   const char *tgt, const char *roll,
                                   const char *dmg, const char *opts)
{
    struct rs_attack a = {fx_by(f, atk), fx_by(f, tgt), roll, dmg, opts,
                          NULL, 0};
    return rs_teams.ops->attack(fx_call(f, NULL), &a);
}

static enum eng_err fx_act(struct fx *f, const char *action)
{
    return rs_action(&rs_teams, fx_call(f, "action", action, NULL), "act");
}

static enum eng_err fx_damage(struct fx *f, const char *who,
                              const char *amount)
{
    return rs_action(&rs_teams, fx_call(f, "name", who, "amount", amount,
                                        NULL), "damage");
}

/* Whether ev, its outcome or any of its modifiers mention s. */
static bool fx_ev_says(struct fx *f, const struct enc_event *ev,
                       const char *s)
{
    char buf[1024];
    if (strstr(rs_fx_text(&f->fx, ev, buf, sizeof buf), s) != NULL)
        return true;
    for (int i = 0; i < ev->nmods; i++)
        if (strstr(ev->mods[i].reason, s) != NULL)
            return true;
    return false;
}

static const struct enc_mod *fx_mod(const struct enc_event *ev,
                                    const char *reason)
{
    for (int i = 0; ev != NULL && i < ev->nmods; i++)
        if (strstr(ev->mods[i].reason, reason) != NULL)
            return &ev->mods[i];
    return NULL;
}

/* "If at any time a character becomes unable to act (such as by becoming
 * unconscious), they lose the ability to take a turn." Knocked out during
 * her own turn, Roland loses the rest of it: her player's /act is refused
 * and the turn passes to the guards. The same when she chooses to fall
 * rather than fortify. */
static void test_teams_unconscious_loses_rest_of_turn(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=5 endurance=0");
    fx_add(f, "Petra", "players", "hp=12");
    fx_add(f, "Guard", "guards", "hp=12");
    fx_by(f, "Roland")->owner = 77;
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_pick(f, "Roland"), ENG_OK);
    assert_int_equal(fx_act(f, "move"), ENG_OK);
    /* A trap (the GM's damage) knocks her out mid-turn. */
    assert_int_equal(fx_damage(f, "Roland", "5"), ENG_OK);
    assert_true(fx_by(f, "Roland")->flags & ENC_CF_DOWN);
    assert_string_equal(fx_current(f), "Guard");
    f->c.is_gm = false;
    f->c.user = 77;
    assert_int_not_equal(fx_act(f, "move"), ENG_OK);
    f->c.is_gm = true;
    f->c.user = RS_FX_GM;
    fx_free(f);

    /* Choosing to fall rather than fortify, on her own turn. */
    f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=10 con=1 stamina=2");
    fx_add(f, "Petra", "players", "hp=12");
    fx_add(f, "Guard", "guards", "hp=12");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_pick(f, "Roland"), ENG_OK);
    assert_int_equal(fx_damage(f, "Roland", "3"), ENG_OK);
    assert_string_equal(fx_current(f), "Roland");
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "Roland",
                                                  NULL), "fall"), ENG_OK);
    assert_string_equal(fx_current(f), "Guard");
    fx_next(f);
    /* Her turn is spent: the players have Petra left, not Roland. */
    assert_string_equal(fx_current(f), "Petra");
    fx_free(f);
}

/* "they must either become unconscious or fortify ... Fortifying in this
 * way is still a reaction", and the reaction costs 1 stamina: with no
 * reaction (or no stamina) left there is no fortifying, so they fall at
 * once. */
static void test_teams_no_reaction_left_means_falling(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Boudica", "players", "hp=12 con=4 stamina=3");
    fx_add(f, "Tired", "players", "hp=12 con=4 stamina=0");
    fx_add(f, "Guard", "guards", "hp=12");
    rs_teams.ops->begin(fx_call(f, "first", "guards", NULL));
    /* Boudica has spent her reaction dodging. */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "Boudica",
                                                  "reaction", "dodge", NULL),
                               "react"), ENG_OK);
    assert_int_equal(fx_damage(f, "Boudica", "5"), ENG_OK);
    assert_true(fx_by(f, "Boudica")->flags & ENC_CF_DOWN);
    assert_null(fx_ev(f, ENC_EV_PROMPT));
    assert_int_equal(fx_track(f, "Boudica", TE_STAMINA), 2);
    /* Tired has her reaction but no stamina to pay for it. */
    assert_int_equal(fx_damage(f, "Tired", "5"), ENG_OK);
    assert_true(fx_by(f, "Tired")->flags & ENC_CF_DOWN);
    assert_null(fx_ev(f, ENC_EV_PROMPT));
    fx_free(f);
}

/* "If your weapon is thrown or fires a projectile and your target is
 * within 1m of other characters ... If your luck roll results in a 1 or
 * less, then your attack randomly targets one of those adjacent
 * characters instead." A melee attack never strays: naming neighbours
 * does not make it ranged. */
static void test_teams_only_thrown_and_projectile_stray(void **state)
{
    (void)state;
    struct fx *f = fx_new(5);
    fx_add(f, "Agnessa", "players", "hp=12 luck=-19");
    fx_add(f, "Ally", "players", "hp=12 endurance=5");
    fx_add(f, "Enemy", "foes", "hp=12 endurance=5");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_pick(f, "Agnessa"), ENG_OK);
    assert_int_not_equal(fx_attack_text(f, "Agnessa", "Enemy", "20", "3",
                                   "adjacent=Ally"), ENG_OK);
    assert_non_null(strstr(f->d.msg, "thrown"));
    assert_int_equal(fx_track(f, "Ally", TE_ENDURANCE), 5);
    /* Thrown, it may. */
    assert_int_equal(fx_attack_text(f, "Agnessa", "Enemy", "20", "3",
                               "thrown adjacent=Ally"), ENG_OK);
    assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->other, fx_by(f, "Ally")->id);
    assert_true(fx_said(f, "strays to Ally"));
    assert_int_equal(fx_track(f, "Enemy", TE_ENDURANCE), 5);
    fx_free(f);
}

/* "Attacks get a -2 penalty for each attack made before it during the
 * same round": the reply shows the test's dice, the luck die's, and the
 * penalty with its amount. */
static void test_teams_reply_shows_dice_and_penalty(void **state)
{
    (void)state;
    struct fx *f = fx_new(3);
    fx_add(f, "Agnessa", "players", "hp=12");
    fx_add(f, "Enemy", "foes", "hp=12 endurance=40 evasion=4");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "2d6", "1", NULL),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "2d6", "1", NULL),
                     ENG_OK);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_non_null(ev);
    assert_true(ev->nrolls >= 2);
    const struct enc_roll *test = &f->r.rolls[ev->rolls[0]];
    assert_string_equal(test->label, "attack test");
    assert_int_equal(test->ndice, 2);
    assert_string_equal(f->r.rolls[ev->rolls[1]].label, "luck die");
    assert_int_equal(f->r.rolls[ev->rolls[1]].ndice, 1);
    assert_true(ev->has_cmp);
    assert_int_equal(ev->value, test->total - 2);
    const struct enc_mod *m = fx_mod(ev, "multiple attack penalty");
    assert_non_null(m);
    assert_true(m->has_amount);
    assert_int_equal(m->amount, -2);
    fx_free(f);
}

/* With the penalty set to 0 (map=0) there is no penalty to mention. */
static void test_teams_reply_no_penalty_with_map_zero(void **state)
{
    (void)state;
    struct fx *f = fx_new(3);
    assert_int_equal(enc_setting_set(f->e, "map", "0", &f->d), ENG_OK);
    fx_add(f, "Agnessa", "players", "hp=12");
    fx_add(f, "Enemy", "foes", "hp=12 endurance=40 evasion=40");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "5", "1", NULL),
                     ENG_OK);
    assert_int_equal(fx_attack(f, "Agnessa", "Enemy", "5", "1", NULL),
                     ENG_OK);
    for (int i = 0; i < f->r.nev; i++)
        assert_false(fx_ev_says(f, &f->r.ev[i], "multiple attack"));
    fx_free(f);
}

/* "Attacks made against enemies who cannot see you or who are surrounded
 * on two opposite sides, are made with advantage ... both ... double
 * advantage." The reply says which, and shows every test rolled with the
 * ones not kept marked. */
static void test_teams_reply_shows_advantage(void **state)
{
    (void)state;
    static const struct {
        const char *opts;
        const char *says;
        int ntests;
    } cases[] = {
        {"sneak", "advantage: best of 2", 2},
        {"sneak flank", "double advantage: best of 3", 3},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct fx *f = fx_new(7);
        fx_add(f, "Fabian", "players", "hp=12");
        fx_add(f, "Goblin", "foes", "hp=12 endurance=40 evasion=40");
        rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
        assert_int_equal(fx_attack(f, "Fabian", "Goblin", "1d6+1d6", "1",
                                   cases[k].opts), ENG_OK);
        const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
        assert_non_null(fx_mod(ev, cases[k].says));
        if (k == 0)
            assert_null(fx_mod(ev, "double"));
        int tests = 0, dropped = 0;
        int64_t best = INT64_MIN;
        for (int i = 0; i < ev->nrolls; i++) {
            const struct enc_roll *r = &f->r.rolls[ev->rolls[i]];
            if (strcmp(r->label, "attack test") != 0)
                continue;
            tests++;
            dropped += (r->flags & ENC_ROLL_DROPPED) != 0;
            best = r->total > best ? r->total : best;
        }
        assert_int_equal(tests, cases[k].ntests);
        assert_int_equal(dropped, cases[k].ntests - 1);
        assert_int_equal(ev->value, best);
        fx_free(f);
    }
}

/* The attack test rolls of the last attack: how many, how many were not
 * kept, and the lowest and highest. */
static int fx_tests(struct fx *f, int *dropped, int64_t *lo, int64_t *hi)
{
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    int n = 0;
    *dropped = 0;
    *lo = INT64_MAX;
    *hi = INT64_MIN;
    for (int i = 0; ev != NULL && i < ev->nrolls; i++) {
        const struct enc_roll *r = &f->r.rolls[ev->rolls[i]];
        if (strcmp(r->label, "attack test") != 0)
            continue;
        n++;
        *dropped += (r->flags & ENC_ROLL_DROPPED) != 0;
        *lo = r->total < *lo ? r->total : *lo;
        *hi = r->total > *hi ? r->total : *hi;
    }
    return n;
}

/* The options /attack declares do what they say through the same binding
 * the command layer uses: adv rolls a second test and keeps the better
 * (it once rolled one), twice a third; dis keeps the worse; they cancel;
 * the advantage=off setting rolls one. Words it does not declare are
 * refused, never ignored. */
static void test_teams_attack_options_declared(void **state)
{
    (void)state;
    static const struct {
        const char *opts;
        int ntests;
        int keep;                /* 1 the highest, -1 the lowest */
    } cases[] = {
        {"adv", 2, 1}, {"adv adv", 3, 1}, {"dis", 2, -1},
        {"dis,dis", 3, -1}, {"adv dis", 1, 1}, {"sneak dis", 1, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct fx *f = fx_new(11 + k);
        fx_add(f, "A", "red", "hp=12 luck=-5");
        fx_add(f, "B", "blue", "hp=12 endurance=90 evasion=90");
        rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
        assert_int_equal(fx_attack(f, "A", "B", "1d20", "1",
                                         cases[k].opts), ENG_OK);
        int dropped;
        int64_t lo, hi;
        assert_int_equal(fx_tests(f, &dropped, &lo, &hi), cases[k].ntests);
        assert_int_equal(dropped, cases[k].ntests - 1);
        assert_int_equal(fx_ev(f, ENC_EV_ATTACK)->value,
                         cases[k].keep > 0 ? hi : lo);
        fx_free(f);
    }
    struct fx *f = fx_new(3);
    fx_add(f, "A", "red", "hp=12 luck=-5");
    fx_add(f, "B", "blue", "hp=12 endurance=90 evasion=90");
    assert_int_equal(enc_setting_set(f->e, "advantage", "off", &f->d),
                     ENG_OK);
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(fx_attack(f, "A", "B", "1d20", "1", "adv"),
                     ENG_OK);
    int dropped;
    int64_t lo, hi;
    assert_int_equal(fx_tests(f, &dropped, &lo, &hi), 1);
    assert_non_null(fx_mod(fx_ev(f, ENC_EV_ATTACK), "advantage is off"));
    /* Refused at once, and nothing spent. */
    static const char *const bad[] = {
        "maneuver", "adv=x", "adv adv adv", "threshold=0", "type=sonic",
        "attr=luck", "intercept=Nobody", "adjacent", "sneak sneak",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_not_equal(fx_attack(f, "A", "B", "1d20", "1",
                                             bad[k]), ENG_OK);
        assert_true(f->d.msg[0] != '\0');
    }
    assert_int_equal(f->r.nrolls, 0);
    fx_free(f);
}

/* threshold=, crit= and nonlethal through /attack: a luck at the threshold
 * is a critical with the critical damage; nonlethal damage to 0 does not
 * risk death. */
static void test_teams_attack_options_crit_nonlethal(void **state)
{
    (void)state;
    struct fx *f = fx_new(2);
    fx_add(f, "A", "red", "hp=12");
    fx_add(f, "B", "blue", "hp=7 evasion=90");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(fx_attack(f, "A", "B", "1", "1",
                                     "threshold=1 crit=10 nonlethal"),
                     ENG_OK);
    const struct enc_event *ev = fx_ev(f, ENC_EV_ATTACK);
    assert_string_equal(ev->outcome, "critical hit");
    assert_true(rs_fx_roll(&f->fx, "critical damage", 0) >= 0);
    assert_true(rs_fx_roll(&f->fx, "weapon damage", 0) < 0);
    assert_int_equal(fx_ev(f, ENC_EV_DAMAGE)->a, 1 + 10);
    assert_true(fx_by(f, "B")->flags & ENC_CF_DOWN);
    assert_true(rs_fx_roll(&f->fx, "death test", 0) < 0);
    fx_free(f);
}

/* The picking refusal names the teams without "players's". */
static void test_teams_message_grammar(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=5");
    fx_add(f, "Petra", "players", "hp=5");
    fx_add(f, "Guard 1", "guards", "hp=5");
    fx_add(f, "Guard 2", "guards", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_pick(f, "Guard 1"), ENG_STATE);
    assert_null(strstr(f->d.msg, "s's"));
    assert_non_null(strstr(f->d.msg, "players"));
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teams_unconscious_loses_rest_of_turn),
        cmocka_unit_test(test_teams_no_reaction_left_means_falling),
        cmocka_unit_test(test_teams_only_thrown_and_projectile_stray),
        cmocka_unit_test(test_teams_reply_shows_dice_and_penalty),
        cmocka_unit_test(test_teams_reply_no_penalty_with_map_zero),
        cmocka_unit_test(test_teams_reply_shows_advantage),
        cmocka_unit_test(test_teams_attack_options_declared),
        cmocka_unit_test(test_teams_attack_options_crit_nonlethal),
        cmocka_unit_test(test_teams_message_grammar),
    };
    return cmocka_run_group_tests_name("rs_teams_fidelity", tests, NULL,
                                       NULL);
}
