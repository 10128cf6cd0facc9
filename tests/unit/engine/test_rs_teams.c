/* Tests for the teams ruleset: team alternation, rounds, surprise, the
 * unconscious, and the action economy (engine/rulesets/teams/rs_teams.c,
 * rs_teams_act.c). */
#include "support.h"

#include <stdio.h>

#include "eng_buf.h"
#include "test_rs_teams.h"

/* Roland, Clementine, Petra (players) against a captain and two guards. */
static struct fx *fx_party(void)
{
    struct fx *f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=12 endurance=12 stamina=3");
    fx_add(f, "Clementine", "players", "hp=12 endurance=12 stamina=3");
    fx_add(f, "Petra", "players", "hp=12 endurance=12 stamina=3");
    fx_add(f, "Captain", "guards", "hp=12 endurance=12");
    fx_add(f, "Guard 1", "guards", "hp=12 endurance=12");
    fx_add(f, "Guard 2", "guards", "hp=12 endurance=12");
    return f;
}

/* The chapter's example: the players start the fight, so they go first;
 * Roland, then the captain, then Clementine, then a guard. */
static void test_teams_alternate_picks(void **state)
{
    (void)state;
    struct fx *f = fx_party();
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "first", "players",
                                                 NULL)), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "players"));
    assert_string_equal(fx_current(f), "");
    /* The guards cannot pick while it is the players' turn to. */
    assert_int_equal(fx_pick(f, "Captain"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Roland"), ENG_OK);
    assert_string_equal(fx_current(f), "Roland");
    assert_int_equal(TE_C(fx_by(f, "Roland"))->actions, 3);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "guards"));
    assert_int_equal(fx_pick(f, "Captain"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Roland has acted: he cannot go again this round. */
    assert_int_equal(fx_pick(f, "Roland"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Clementine"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Guard 1"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Each team has one member left: they start without a pick. */
    assert_string_equal(fx_current(f), "Petra");
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_current(f), "Guard 2");
    assert_int_equal(f->e->round, 1);
    assert_int_equal(fx_next(f), ENG_OK);
    /* A new round: the players pick again, in any order. */
    assert_int_equal(f->e->round, 2);
    assert_true(fx_said(f, "players picks"));
    assert_int_equal(fx_pick(f, "Petra"), ENG_OK);
    fx_free(f);
}

/* Four players against two guards: after two turns each, the players take
 * the rest of the round in a row. */
static void test_teams_outnumbered_team_runs_out(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "players", "hp=5");
    fx_add(f, "B", "players", "hp=5");
    fx_add(f, "C", "players", "hp=5");
    fx_add(f, "D", "players", "hp=5");
    fx_add(f, "G1", "guards", "hp=5");
    fx_add(f, "G2", "guards", "hp=5");
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "first", "players",
                                                 NULL)), ENG_OK);
    assert_int_equal(fx_pick(f, "A"), ENG_OK);
    fx_next(f);
    assert_int_equal(fx_pick(f, "G1"), ENG_OK);
    fx_next(f);
    assert_int_equal(fx_pick(f, "B"), ENG_OK);
    fx_next(f);
    assert_string_equal(fx_current(f), "G2");
    fx_next(f);
    /* The guards are out: play stays with the players. */
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "players"));
    assert_int_equal(fx_pick(f, "D"), ENG_OK);
    fx_next(f);
    assert_string_equal(fx_current(f), "C");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    fx_free(f);
}

/* Roland is knocked out before his turn; Clementine revives him, the
 * guards take a turn, and the players may then give Roland his turn. */
static void test_teams_unconscious_then_revived_may_act(void **state)
{
    (void)state;
    struct fx *f = fx_party();
    rs_teams.ops->begin(fx_call(f, "first", "guards", NULL));
    assert_int_equal(fx_pick(f, "Guard 1"), ENG_OK);
    /* The guard drops Roland (the GM applies the damage). */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "Roland",
                                                  "amount", "24", NULL),
                                          "damage"), ENG_OK);
    assert_true(fx_by(f, "Roland")->flags & ENC_CF_DOWN);
    fx_next(f);
    assert_int_equal(fx_pick(f, "Roland"), ENG_STATE);
    assert_true(strstr(f->d.msg, "unconscious") != NULL);
    assert_int_equal(fx_pick(f, "Clementine"), ENG_OK);
    /* The test needs both its roll and its difficulty (or neither). */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action",
                                                  "resuscitate", "target",
                                                  "Roland", "roll", "10",
                                                  NULL), "act"),
                     ENG_INVALID);
    /* Resuscitate: two actions, she goes prone, the test succeeds. */
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action",
                                                  "resuscitate", "target",
                                                  "Roland", "roll", "10",
                                                  "difficulty", "8", NULL),
                                          "act"), ENG_OK);
    assert_false(fx_by(f, "Roland")->flags & ENC_CF_DOWN);
    assert_int_equal(TE_C(fx_by(f, "Clementine"))->actions, 1);
    assert_non_null(enc_cond_find(fx_by(f, "Clementine"), TE_COND_PRONE));
    fx_next(f);
    assert_int_equal(fx_pick(f, "Captain"), ENG_OK);
    fx_next(f);
    assert_int_equal(fx_pick(f, "Roland"), ENG_OK);
    fx_free(f);
}

/* A team whose only members are unconscious is skipped. */
static void test_teams_all_down_team_is_skipped(void **state)
{
    (void)state;
    struct fx *f = fx_new(3);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "B", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    fx_by(f, "X")->flags |= ENC_CF_DOWN;
    assert_int_equal(fx_pick(f, "A"), ENG_OK);
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    fx_free(f);
}

/* Three teams: order: is needed; first: puts its team on top. */
static void test_teams_begin_order(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "B", "blue", "hp=5");
    fx_add(f, "C", "green", "hp=5");
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "first", "green",
                                                 NULL)), ENG_INVALID);
    assert_int_equal(rs_teams.ops->begin(fx_call(f, NULL)), ENG_INVALID);
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "first", "nobody",
                                                 NULL)), ENG_NOTFOUND);
    assert_int_equal(f->e->status, ENC_ST_SETUP);
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "first", "green",
                                                 "order", "red, blue",
                                                 NULL)), ENG_OK);
    assert_string_equal(fx_current(f), "C");
    fx_next(f);
    assert_string_equal(fx_current(f), "A");
    fx_next(f);
    assert_string_equal(fx_current(f), "B");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(fx_current(f), "C");
    fx_free(f);
}

/* The goblins surprise the players: a whole round alone, except
 * Clementine, who cannot be surprised and acts in the normal order. */
static void test_teams_surprise_round(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=5");
    fx_add(f, "Clementine", "players", "hp=5 nosurprise=1");
    fx_add(f, "Goblin 1", "goblins", "hp=5");
    fx_add(f, "Goblin 2", "goblins", "hp=5");
    assert_int_equal(rs_teams.ops->begin(fx_call(f, "surprise", "goblins",
                                                 NULL)), ENG_OK);
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "goblins"));
    assert_int_equal(fx_pick(f, "Goblin 1"), ENG_OK);
    fx_next(f);
    /* Clementine takes the players' turn; Roland may not. */
    assert_string_equal(fx_current(f), "Clementine");
    fx_next(f);
    assert_string_equal(fx_current(f), "Goblin 2");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    assert_true(fx_said(f, "surprise round is over"));
    /* Normal rounds: the goblins started it and go first. */
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "goblins"));
    fx_free(f);
}

static void test_teams_surprised_member_cannot_be_picked(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Roland", "players", "hp=5");
    fx_add(f, "Petra", "players", "hp=5");
    fx_add(f, "Clementine", "players", "hp=5 nosurprise=1");
    fx_add(f, "Goblin 1", "goblins", "hp=5");
    fx_add(f, "Goblin 2", "goblins", "hp=5");
    rs_teams.ops->begin(fx_call(f, "surprise", "goblins", NULL));
    fx_pick(f, "Goblin 1");
    fx_next(f);
    assert_string_equal(fx_current(f), "Clementine");
    fx_next(f);
    assert_string_equal(fx_current(f), "Goblin 2");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(fx_pick(f, "Roland"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Goblin 2"), ENG_OK);
    fx_free(f);
}

static void test_teams_pick_rules(void **state)
{
    (void)state;
    struct fx *f = fx_party();
    assert_int_equal(fx_pick(f, "Roland"), ENG_STATE); /* not begun */
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_int_equal(fx_next(f), ENG_STATE);           /* nobody's turn */
    assert_non_null(strstr(f->d.msg, "players"));
    /* A player who does not own Petra cannot pick her. */
    fx_by(f, "Petra")->owner = 77;
    f->c.is_gm = false;
    f->c.user = 78;
    assert_int_equal(fx_pick(f, "Petra"), ENG_PERM);
    f->c.user = 77;
    assert_int_equal(fx_pick(f, "Petra"), ENG_OK);
    assert_int_equal(fx_pick(f, "Roland"), ENG_STATE); /* Petra's turn */
    fx_free(f);
}

/* Conditions until the next turn end at the start of it. */
static void test_teams_guard_ends_turn_until_next(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_string_equal(fx_current(f), "A");
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action", "guard",
                                                  NULL), "act"), ENG_OK);
    assert_string_equal(fx_current(f), "X");
    assert_non_null(enc_cond_find(fx_by(f, "A"), TE_COND_GUARD));
    fx_next(f);
    assert_string_equal(fx_current(f), "A");
    assert_null(enc_cond_find(fx_by(f, "A"), TE_COND_GUARD));
    fx_free(f);
}

static void test_teams_wait_gives_extra_reaction(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5 stamina=3");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action", "wait",
                                                  NULL), "act"), ENG_OK);
    struct enc_combatant *a = fx_by(f, "A");
    assert_int_equal(TE_C(a)->reactions, 2);
    /* Two reactions on X's turn, the third is refused. */
    for (int i = 0; i < 2; i++)
        assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "A",
                                                      "reaction", "dodge",
                                                      NULL), "react"),
                         ENG_OK);
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "name", "A",
                                                  "reaction", "dodge",
                                                  NULL), "react"),
                     ENG_STATE);
    assert_int_equal(fx_track(f, "A", TE_STAMINA), 1);
    fx_next(f);
    /* Back to one reaction at the start of A's own turn. */
    assert_int_equal(TE_C(a)->reactions, 1);
    /* Waiting given by the GM is an extra reaction too, once. */
    struct rs_cond_give q = {.name = "Waiting", .rounds = -1};
    assert_int_equal(rs_cond_give(fx_call(f, NULL), &rs_teams, a, &q, false),
                     ENG_OK);
    assert_int_equal(TE_C(a)->reactions, 2);
    assert_int_equal(rs_cond_give(fx_call(f, NULL), &rs_teams, a, &q, false),
                     ENG_OK);
    assert_int_equal(TE_C(a)->reactions, 2);
    assert_int_equal(enc_cond_find(a, TE_COND_WAIT)->rounds, 1);
    fx_free(f);
}

static void test_teams_action_economy(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5 stamina=1 focus=3");
    fx_add(f, "B", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    fx_pick(f, "A");
#define ACT(...) rs_action(&rs_teams, fx_call(f, __VA_ARGS__, NULL), "act")
    assert_int_equal(ACT("action", "sprint"), ENG_STATE); /* not moved */
    assert_int_equal(ACT("action", "move"), ENG_OK);
    assert_int_equal(ACT("action", "move"), ENG_STATE);   /* once */
    assert_int_equal(ACT("action", "step"), ENG_OK);      /* free */
    assert_int_equal(ACT("action", "step"), ENG_STATE);
    assert_int_equal(ACT("action", "sprint"), ENG_OK);
    assert_int_equal(fx_track(f, "A", TE_STAMINA), 0);
    assert_int_equal(ACT("action", "command", "target", "B"), ENG_OK);
    assert_int_equal(fx_track(f, "A", TE_FOCUS), 1);
    assert_int_equal(TE_C(fx_by(f, "A"))->actions, 0);
    assert_int_equal(ACT("action", "interact"), ENG_STATE);
    assert_true(strstr(f->d.msg, "no actions left") != NULL);
    assert_int_equal(ACT("action", "drop_prone"), ENG_OK);
    assert_int_equal(ACT("action", "fly"), ENG_INVALID);
    /* An option the action does not use is refused, not ignored. */
    assert_int_equal(ACT("action", "step", "cost", "2"), ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "cost: is not used by action:step"));
    assert_int_equal(ACT("action", "drop_item", "target", "B"),
                     ENG_INVALID);
#undef ACT
    fx_free(f);
}

static void test_teams_command_once_per_target_and_focus(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5 focus=4");
    fx_add(f, "B", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    fx_pick(f, "A");
#define ACT(...) rs_action(&rs_teams, fx_call(f, __VA_ARGS__, NULL), "act")
    assert_int_equal(ACT("action", "command", "target", "X"), ENG_INVALID);
    assert_int_equal(ACT("action", "command", "target", "B"), ENG_OK);
    assert_int_equal(ACT("action", "command", "target", "B"), ENG_STATE);
    assert_true(strstr(f->d.msg, "already commanded") != NULL);
    assert_int_equal(fx_track(f, "A", TE_FOCUS), 2);
#undef ACT
    fx_free(f);
}

/* Petra fires (1 action), seeks cover (1), starts a 2-action reload with
 * her last action, and must finish it first next turn. */
static void test_teams_extended_action_carries_over(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "Petra", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
#define ACT(...) rs_action(&rs_teams, fx_call(f, __VA_ARGS__, NULL), "act")
    assert_int_equal(ACT("action", "interact"), ENG_OK); /* the shot */
    assert_int_equal(ACT("action", "seek_cover"), ENG_OK);
    assert_int_equal(ACT("action", "other", "cost", "2", "label", "reload"),
                     ENG_OK);
    struct enc_combatant *p = fx_by(f, "Petra");
    assert_int_equal(TE_C(p)->actions, 0);
    assert_int_equal(TE_C(p)->busy, 1);
    assert_string_equal(TE_C(p)->busy_label, "reload");
    fx_next(f);
    fx_next(f);
    assert_string_equal(fx_current(f), "Petra");
    assert_true(fx_said(f, "still busy"));
    assert_int_equal(ACT("action", "move"), ENG_STATE);
    assert_int_equal(ACT("action", "continue"), ENG_OK);
    assert_true(fx_said(f, "finishes reload"));
    assert_int_equal(TE_C(p)->actions, 2);
    assert_string_equal(TE_C(p)->busy_label, "");
    assert_int_equal(ACT("action", "move"), ENG_OK);
    /* A new long task, abandoned next turn at no cost. */
    assert_int_equal(ACT("action", "short_task"), ENG_OK);
    assert_int_equal(TE_C(p)->busy, 2);
    fx_next(f);
    fx_next(f);
    assert_int_equal(ACT("action", "abandon"), ENG_OK);
    assert_int_equal(TE_C(p)->actions, 3);
    assert_int_equal(TE_C(p)->busy, 0);
#undef ACT
    fx_free(f);
}

static void test_teams_settings(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    struct rs_call *c = fx_call(f, NULL);
    assert_int_equal(rs_settings_apply(c, &rs_teams, "actions=0"),
                     ENG_RANGE);
    assert_int_equal(rs_settings_apply(c, &rs_teams, "advantage=maybe"),
                     ENG_INVALID);
    assert_int_equal(rs_settings_apply(c, &rs_teams, "colour=red"),
                     ENG_INVALID);
    assert_int_equal(rs_settings_apply(c, &rs_teams, "actions=4"), ENG_OK);
    /* Unset settings read as their declared defaults. */
    assert_int_equal(te_setting(f->e, "map"), TE_MAP);
    assert_int_equal(te_setting(f->e, "advantage"), 0);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(TE_C(fx_by(f, "A"))->actions, 4);
    fx_free(f);
}

static void test_teams_setup_stats(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    struct enc_combatant *a = fx_add(f, "A", "red",
                                     "hp=12 endurance=10 str=6");
    assert_null(enc_stat(a, "hp"));
    assert_int_equal(enc_track(a, "hp")->max, 12);
    assert_int_equal(enc_track(a, "endurance")->cur, 10);
    /* The declared bounds, then the system's own rule (a die has two
     * sides or more); an item's stats are free. */
    assert_int_equal(rs_stat_check(fx_call(f, NULL), &rs_teams, a, "str", 7),
                     ENG_OK);
    assert_int_equal(rs_stat_check(fx_call(f, NULL), &rs_teams, a, "str", 1),
                     ENG_RANGE);
    assert_int_equal(rs_stat_check(fx_call(f, NULL), &rs_teams, a, "str",
                                   TE_MAX_DIE + 1), ENG_RANGE);
    assert_int_equal(rs_stat_check(fx_call(f, NULL), &rs_teams, a, "size",
                                   -1), ENG_RANGE);
    assert_int_equal(rs_stat_check(fx_call(f, NULL), &rs_teams, a,
                                   "shield_block", 3), ENG_OK);
    fx_free(f);
}

/* The choosing team loses its last able members: play moves on at once
 * (knocked out) or at /combat next (removed). */
static void test_teams_choosing_team_empties(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "B", "red", "hp=5");
    fx_add(f, "C", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    fx_add(f, "Y", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    fx_pick(f, "A");
    fx_next(f);
    assert_string_equal(fx_current(f), "");
#define DMG(n) rs_action(&rs_teams, fx_call(f, "name", n, "amount", "5", \
                                            NULL), "damage")
    assert_int_equal(DMG("X"), ENG_OK);
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "blue"));
    assert_int_equal(DMG("Y"), ENG_OK);
    assert_int_equal(f->e->acting_side, enc_side_find(f->e, "red"));
#undef DMG
    assert_int_equal(fx_pick(f, "B"), ENG_OK);
    fx_next(f);
    /* Only C is left to act anywhere. */
    assert_string_equal(fx_current(f), "C");
    fx_free(f);

    f = fx_new(1);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "B", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    fx_add(f, "Y", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    fx_pick(f, "A");
    fx_next(f);
    fx_pick(f, "X");
    fx_next(f);
    fx_next(f);  /* B, the only one left on red */
    assert_string_equal(fx_current(f), "Y");
    struct enc_combatant *y = fx_by(f, "Y");
    uint32_t yid = y->id;
    f->e->current = 0;   /* as enc_remove leaves it */
    assert_int_equal(enc_remove(f->e, yid, &f->r, &f->d), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    fx_free(f);
}

/* A readied attack goes off on someone else's turn as a reaction. */
static void test_teams_readied_attack(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5 luck=-5");
    fx_add(f, "X", "blue", "hp=5 endurance=9 evasion=1");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_int_equal(rs_action(&rs_teams, fx_call(f, "action", "ready",
                                                  NULL), "act"), ENG_OK);
    assert_string_equal(fx_current(f), "X");
    /* Options given as text, unbound: the ruleset binds them itself. */
    struct rs_attack a = {fx_by(f, "A"), fx_by(f, "X"), "3", "1", NULL,
                          NULL, 0};
    assert_int_equal(rs_teams.ops->attack(fx_call(f, NULL), &a), ENG_STATE);
    a.options = "reaction";
    assert_int_equal(rs_teams.ops->attack(fx_call(f, NULL), &a), ENG_OK);
    assert_int_equal(TE_C(fx_by(f, "A"))->reactions, 0);
    assert_null(enc_cond_find(fx_by(f, "A"), TE_COND_READY));
    assert_int_equal(fx_track(f, "X", TE_ENDURANCE), 5);
    assert_int_equal(rs_teams.ops->attack(fx_call(f, NULL), &a), ENG_STATE);
    fx_free(f);
}

/* A team that arrives mid-fight goes last and its members may act in the
 * current round; the tracker line shows actions and reactions. */
static void test_teams_late_join_and_status(void **state)
{
    (void)state;
    struct fx *f = fx_new(1);
    fx_add(f, "A", "red", "hp=5");
    fx_add(f, "X", "blue", "hp=5");
    rs_teams.ops->begin(fx_call(f, "first", "red", NULL));
    assert_string_equal(fx_current(f), "A");
    struct enc_combatant *w = fx_add(f, "W", "wolves", "hp=5 endurance=4");
    assert_int_equal(rs_teams.ops->late_join(fx_call(f, NULL), w), ENG_OK);
    char buf[128];
    rs_fx_status(&rs_teams, f->e, fx_by(f, "A"), buf, sizeof buf);
    assert_string_equal(buf, "3 actions · 1 reaction");
    fx_next(f);
    assert_string_equal(fx_current(f), "X");
    fx_next(f);
    assert_string_equal(fx_current(f), "W");
    rs_action(&rs_teams, fx_call(f, "name", "W", "amount", "3", NULL),
                         "damage");
    rs_fx_status(&rs_teams, f->e, fx_by(f, "W"), buf, sizeof buf);
    assert_string_equal(buf, "3 actions · 1 reaction · harmed");
    fx_next(f);
    assert_int_equal(f->e->round, 2);
    rs_fx_status(&rs_teams, f->e, fx_by(f, "W"), buf, sizeof buf);
    assert_string_equal(buf, "1 reaction · harmed");
    fx_free(f);
}

/* The tracker's line over the list says which team picks next: the one
 * choosing now, or the one after the running turn (a new round's first
 * when everyone has acted). */
static void test_teams_tracker_says_who_picks_next(void **state)
{
    (void)state;
    struct fx *f = fx_party();
    char buf[128];
    struct eng_buf b;
#define HEAD()                                                             \
    (eng_buf_init(&b, sizeof buf),                                         \
     rs_teams.ops->tracker_head(f->e, &b, NULL, NULL),                     \
     snprintf(buf, sizeof buf, "%s", eng_buf_str(&b)), eng_buf_cleanup(&b), \
     buf)
    assert_string_equal(HEAD(), "");                 /* not begun */
    rs_teams.ops->begin(fx_call(f, "first", "players", NULL));
    assert_string_equal(HEAD(), "Team players picks who acts next.");
    assert_int_equal(fx_pick(f, "Roland"), ENG_OK);
    assert_string_equal(HEAD(), "Next: team guards picks.");
    fx_next(f);
    assert_string_equal(HEAD(), "Team guards picks who acts next.");
    assert_int_equal(fx_pick(f, "Captain"), ENG_OK);
    fx_next(f);
    fx_pick(f, "Clementine");
    fx_next(f);
    fx_pick(f, "Guard 1");
    fx_next(f);
    /* Petra is the players' last; then Guard 2, then a new round. */
    assert_string_equal(fx_current(f), "Petra");
    assert_string_equal(HEAD(), "Next: team guards picks.");
    fx_next(f);
    assert_string_equal(fx_current(f), "Guard 2");
    assert_string_equal(HEAD(), "Next: round 2, team players picks first.");
#undef HEAD
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teams_alternate_picks),
        cmocka_unit_test(test_teams_outnumbered_team_runs_out),
        cmocka_unit_test(test_teams_unconscious_then_revived_may_act),
        cmocka_unit_test(test_teams_all_down_team_is_skipped),
        cmocka_unit_test(test_teams_begin_order),
        cmocka_unit_test(test_teams_surprise_round),
        cmocka_unit_test(test_teams_surprised_member_cannot_be_picked),
        cmocka_unit_test(test_teams_pick_rules),
        cmocka_unit_test(test_teams_guard_ends_turn_until_next),
        cmocka_unit_test(test_teams_wait_gives_extra_reaction),
        cmocka_unit_test(test_teams_action_economy),
        cmocka_unit_test(test_teams_command_once_per_target_and_focus),
        cmocka_unit_test(test_teams_extended_action_carries_over),
        cmocka_unit_test(test_teams_settings),
        cmocka_unit_test(test_teams_setup_stats),
        cmocka_unit_test(test_teams_choosing_team_empties),
        cmocka_unit_test(test_teams_readied_attack),
        cmocka_unit_test(test_teams_late_join_and_status),
        cmocka_unit_test(test_teams_tracker_says_who_picks_next),
    };
    return cmocka_run_group_tests_name("rs_teams", tests, NULL, NULL);
}
