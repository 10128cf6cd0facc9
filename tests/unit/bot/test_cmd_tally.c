/*
 * Tests for the fight's numbers (cmd_tally.h): damage dealt and taken on
 * every track the system's declaration says damage changes, with a
 * breakdown when more than one took it; hits, misses and criticals; turns
 * taken; how long turns waited in play by post. Said by /combat end and
 * /combat log, hidden combatants' lines the GM's only, and taken back
 * by /combat undo.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "cmd_tally.h"
#include "enc_json.h"
#include "rs.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

#define HOUR (60LL * 60 * 1000)

static void has_not(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) != NULL)
        fail_msg("the reply has \"%s\":\n%s", needle, f->text);
}

/* cmd_fx_generic_fight: the Goblin, a hidden Shade, Aria and Bryn. */
static void generic_fight(struct cmd_fx *f)
{
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
}

/* Aria attacks the Goblin with a fixed roll (18 hits its ac 13, 2
 * misses) for 5 damage. */
static void aria_attacks(struct cmd_fx *f, const char *roll)
{
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                           "target", "Goblin", "roll", roll, "damage", "5",
                           NULL));
}

/* The case: a teams /damage of 8 through 6 endurance took 8, 6
 * of it endurance and 2 health, not "took 2". */
static void test_tally_teams_damage_through_endurance(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "teams",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Boudica",
                           "side", "players", "hp", "12", "stats",
                           "endurance=6 con=4 evasion=5", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Guard", "side",
                           "guards", "hp", "10", "stats",
                           "endurance=8 evasion=6", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", "first", "players",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Boudica",
                           "amount", "8", NULL));
    /* Endurance alone: no breakdown. */
    assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Guard", "amount",
                           "3", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Boudica: dealt 0 damage, took 8 (endurance -6, hp -2)");
    cmd_fx_has(f, "Guard: dealt 0 damage, took 3; 0 turns.");
}

/* Generic: an attack's damage counts once (temporary hit points first,
 * then hit points, broken down); the GM's /combat hp counts as taken;
 * hits and misses are the attacker's; turns are counted as they start. */
static void test_tally_generic_attacks_and_turns(void **state)
{
    struct cmd_fx *f = *state;
    generic_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "set", "name", "Goblin", "stats",
                           "temp=3", NULL));
    /* Aria: a hit for 5 (3 temporary, 2 hp), then a miss */
    aria_attacks(f, "18");
    aria_attacks(f, "2");
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Bryn", "change",
                           "-4", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Aria: dealt 5 damage, took 0; 1 hit, 1 miss; 1 turn.");
    cmd_fx_has(f, "Goblin: dealt 0 damage, took 5 (temp -3, hp -2); 1 turn.");
    cmd_fx_has(f, "Bryn: dealt 0 damage, took 4; 1 turn.");
    /* nobody's turns waited as play by post's do */
    has_not(f, "waited");
}

/* The end's numbers and the log's are one text; a hidden combatant's line
 * is in the GM's copy only. */
static void test_tally_log_and_hidden(void **state)
{
    struct cmd_fx *f = *state;
    generic_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-2", NULL));
    aria_attacks(f, "18");
    assert_true(cmd_fx_run(f, BOB, "combat", "log", NULL));
    const char *d = f->reply.file.data;
    assert_non_null(d);
    const char *n = strstr(d, "## The numbers so far");
    assert_non_null(n);
    assert_non_null(strstr(n, "**Aria**: dealt 5 damage, took 0; 1 hit, 0 "
                              "misses; 1 turn."));
    assert_null(strstr(d, "Shade"));
    /* once Aria has hurt the Shade (the GM plays it out: a player
     * cannot name what they cannot see), her total is the GM's to read */
    assert_true(cmd_fx_run(f, GM, "combat", "set", "name", "Shade", "stats",
                           "ac=5", NULL));
    assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Aria",
                           "target", "Shade", "roll", "18", "damage", "3",
                           NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "log", NULL));
    n = strstr(f->reply.file.data, "## The numbers so far");
    assert_non_null(n);
    if (strstr(n, "**Aria**: dealt ? damage, took 0; 2 hits") == NULL)
        fail_msg("no hidden total in:\n%s", n);
    assert_null(strstr(f->reply.file.data, "Shade"));
    assert_true(cmd_fx_run(f, GM, "combat", "log", "gm", "true", NULL));
    n = strstr(f->reply.file.data, "## The numbers so far");
    assert_non_null(strstr(n, "**Aria**: dealt 8 damage, took 0; 2 hits"));
    assert_non_null(n);
    assert_non_null(strstr(n, "**Shade**: dealt 0 damage, took 5; 0 "
                              "turns."));
    /* the console is the GM's own screen: the end shows it all there */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Shade: dealt 0 damage, took 5; 0 turns.");
}

/* Play by post: a turn waits from its start to its owner's first action,
 * or to its end when they never act; the summary says how long. */
static void test_tally_play_by_post_waits(void **state)
{
    struct cmd_fx *f = *state;
    generic_fight(f);
    /* Aria's turn began at begin; Alice acts 3 hours on, then again */
    f->now_ms += 3 * HOUR;
    aria_attacks(f, "2");
    f->now_ms += 2 * HOUR;
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    /* Bryn's turn: Bob ends it 5 hours on without acting before */
    f->now_ms += 5 * HOUR;
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Aria: dealt 0 damage, took 0; 0 hits, 1 miss; 1 turn, "
                  "waited 3 h on average, 3 h at most.");
    cmd_fx_has(f, "Bryn: dealt 0 damage, took 0; 1 turn, waited 5 h on "
                  "average, 5 h at most.");
}

/* /combat undo takes the numbers back with the change. */
static void test_tally_undo(void **state)
{
    struct cmd_fx *f = *state;
    generic_fight(f);
    aria_attacks(f, "18");
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    aria_attacks(f, "2");
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Aria: dealt 0 damage, took 0; 0 hits, 1 miss; 1 turn.");
    has_not(f, "Goblin: dealt 0 damage, took 5");
}

/* The counting itself, from events: a critical is a hit too; a system
 * whose harm counts up (cards) takes what its tracks gained; a track
 * spent by choice (teams' stamina) is not damage. */
static void test_tally_events(void **state)
{
    (void)state;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct encounter *e = enc_new(rs_find("cards"), "t", GM);
    assert_non_null(e);
    uint32_t ann = 0, bo = 0;
    assert_int_equal(enc_add(e, "Ann", 1, 0, -1, &d, &ann), ENG_OK);
    assert_int_equal(enc_add(e, "Bo", 1, 0, -1, &d, &bo), ENG_OK);
    struct enc_combatant *a, *b;
    struct enc_result *r = malloc(sizeof *r);
    assert_non_null(r);
    enc_result_init(r);
    enc_emit(r, ENC_EV_ATTACK, ann)->hit = ENC_HIT_CRIT;
    enc_emit(r, ENC_EV_ATTACK, ann)->hit = ENC_HIT_MISS;
    enc_emit(r, ENC_EV_ATTACK, ann)->hit = ENC_HIT_NONE;
    struct enc_event *dv = enc_emit(r, ENC_EV_DAMAGE, ann);
    dv->other = bo;
    dv->a = 2;
    struct enc_event *hv = enc_emit(r, ENC_EV_HP, bo);
    hv->text = "harm";
    hv->a = 1;
    hv->b = 3;
    /* healed: not damage */
    hv = enc_emit(r, ENC_EV_HP, ann);
    hv->text = "harm";
    hv->a = 2;
    hv->b = 0;
    enc_emit(r, ENC_EV_TURN, bo);
    cmd_tally_add(e, r);
    /* another command: mental harm with no damage event (a rule's own)
     * is taken too */
    enc_result_reset(r);
    hv = enc_emit(r, ENC_EV_HP, bo);
    hv->text = "mental";
    hv->a = 0;
    hv->b = 1;
    cmd_tally_add(e, r);
    a = enc_by_id(e, ann);
    b = enc_by_id(e, bo);
    assert_int_equal(a->hits, 1);
    assert_int_equal(a->crits, 1);
    assert_int_equal(a->misses, 1);
    assert_int_equal(a->dealt, 2);
    assert_int_equal(a->taken, 0);
    assert_int_equal(b->taken, 3);
    assert_int_equal(b->harm[0], 2);
    assert_int_equal(b->harm[1], 1);
    assert_int_equal(b->turns, 1);
    enc_result_cleanup(r);
    free(r);
    enc_free(e);
}

/* Saved and loaded with the fight; a document from before the numbers
 * (no "numbers") still loads, with zeros. */
static void test_tally_saved(void **state)
{
    (void)state;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct encounter *e = enc_new(rs_find("teams"), "t", GM);
    assert_non_null(e);
    uint32_t id = 0;
    assert_int_equal(enc_add(e, "Ann", 1, 0, -1, &d, &id), ENG_OK);
    struct enc_combatant *a = enc_by_id(e, id);
    a->taken = 8;
    a->harm[0] = 6;
    a->harm[1] = 2;
    a->hits = 3;
    a->crits = 1;
    a->turns = 4;
    a->waits = 2;
    a->wait_ms = 5 * HOUR;
    a->wait_max_ms = 3 * HOUR;
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    struct encounter *back = NULL;
    char err[128];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    const struct enc_combatant *x = &back->cs[0];
    assert_int_equal(x->taken, 8);
    assert_int_equal(x->harm[0], 6);
    assert_int_equal(x->harm[1], 2);
    assert_int_equal(x->hits, 3);
    assert_int_equal(x->crits, 1);
    assert_int_equal(x->misses, 0);
    assert_int_equal(x->turns, 4);
    assert_int_equal(x->waits, 2);
    assert_int_equal(x->wait_ms, 5 * HOUR);
    assert_int_equal(x->wait_max_ms, 3 * HOUR);
    enc_free(back);
    /* the same document without its numbers: an older fray's */
    char *p = strstr(doc, ",\"numbers\":[");
    assert_non_null(p);
    char *end = strchr(p, ']');
    memmove(p, end + 1, strlen(end + 1) + 1);
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    assert_int_equal(back->cs[0].taken, 8);
    assert_int_equal(back->cs[0].hits, 0);
    assert_int_equal(back->cs[0].harm[0], 0);
    enc_free(back);
    /* a bad one is refused, not half read: a negative count */
    char *good = enc_json_dump(e);
    assert_non_null(good);
    p = strstr(good, "\"numbers\":[4");
    assert_non_null(p);
    size_t at = (size_t)(p - good) + 11, len = strlen(good);
    char *bad = malloc(len + 2);
    assert_non_null(bad);
    memcpy(bad, good, at);
    bad[at] = '-';
    memcpy(bad + at + 1, good + at, len - at + 1);
    free(good);
    assert_int_not_equal(enc_json_load(bad, &back, err, sizeof err), BOT_OK);
    assert_non_null(strstr(err, "numbers"));
    free(bad);
    free(doc);
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_tally_teams_damage_through_endurance, cmd_fx_setup,
            cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_tally_generic_attacks_and_turns,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_tally_log_and_hidden,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_tally_play_by_post_waits,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_tally_undo, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test(test_tally_events),
        cmocka_unit_test(test_tally_saved),
    };
    return cmocka_run_group_tests_name("cmd_tally", tests, NULL, NULL);
}
