/*
 * Tests for the end of a fight: /combat end asks before it acts (a button
 * for the GM, or confirm:true), ends with a summary (rounds, who fell,
 * damage dealt and taken, hits, turns; test_cmd_tally.c has the rest), and /combat reopen brings back a fight ended
 * by mistake within the configured time. An old fight's buttons do
 * nothing to the next fight in the channel.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "enc_json.h"
#include "interaction.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

static int64_t stored_version(struct cmd_fx *f)
{
    char *doc = NULL;
    int64_t v = -1;
    if (store_enc_load(f->store, 1, &doc, &v) != BOT_OK)
        return -1;
    free(doc);
    return v;
}

/* Goblin (GM's, 7 hp, ac 13), a hidden Shade (GM's, 9 hp), Aria (Alice,
 * 20 hp) and Bryn (Bob, 18 hp); Aria goes first. */
static void fight(struct cmd_fx *f)
{
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
}

static void test_end_asks_first(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    int64_t v = stored_version(f);
    assert_true(cmd_fx_run(f, GM, "combat", "end", NULL));
    /* only the GM sees the question, and nothing has happened yet */
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.changed);
    cmd_fx_has(f, "/combat reopen");
    assert_int_equal(stored_version(f), v);
    /* the button ends this fight at this version, and says so */
    const struct msg_button *b = cmd_fx_button(f, "End the fight");
    assert_non_null(b);
    struct custom_id cid;
    assert_true(custom_id_parse(b->custom_id, &cid));
    assert_string_equal(cid.command, "combat");
    assert_string_equal(cid.sub, "end");
    assert_int_equal(cid.fight, cmd_fx_fight(f->store));
    assert_int_equal(cid.version, v);
    assert_string_equal(cid.opt_name, "confirm");
    assert_string_equal(cid.opt_value, "true");
    /* confirm:false is the same question */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "false", NULL));
    assert_true(f->reply.ephemeral);
    assert_int_equal(stored_version(f), v);
    /* a player may not end it, with or without confirm */
    assert_false(cmd_fx_run(f, ALICE, "combat", "end", "confirm", "true",
                            NULL));
    assert_int_equal(stored_version(f), v);
    /* pressing the button ends it */
    f->press = true;
    f->press_fight = cid.fight;
    f->press_version = cid.version;
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(f->reply.changed);
    assert_int_equal(stored_version(f), -1);
}

/* The summary counts what happened: the rounds, who fell, the damage each
 * one dealt and took, with the hidden Shade's line for the GM only. */
static void test_end_summary(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    /* round 1: Aria hits the Goblin for 5 (a roll that cannot miss ac 13)
     * and then the Shade for 9; it falls */
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                           "target", "Goblin", "roll", "18", "damage", "5",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-9", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    /* round 2: the GM takes 3 more off the Goblin, which had 2 left: it
     * falls, having lost 7 */
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblin", "change",
                           "-3", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "2 rounds");
    cmd_fx_has(f, "Goblin fell");
    cmd_fx_has(f, "Aria: dealt 5 damage, took 0; 1 hit, 0 misses; 2 turns.");
    cmd_fx_has(f, "Goblin: dealt 0 damage, took 7; 1 turn.");
    /* Bryn did nothing and took nothing: his turn is all there is */
    cmd_fx_has(f, "Bryn: dealt 0 damage, took 0; 1 turn.");
    /* the players never read of the Shade; the GM's copy has it all */
    assert_null(strstr(f->text, "Shade"));
    if (strstr(f->gm_text, "Shade fell") == NULL ||
        strstr(f->gm_text, "Shade: dealt 0 damage, took 9") == NULL)
        fail_msg("the GM's copy lacks the Shade:\n%s", f->gm_text);
}

static void test_reopen(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblin", "change",
                           "-2", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    /* nothing to reopen while the fight is on */
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    cmd_fx_has(f, "still on");
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    /* undo has no fight to act on; it points at reopen */
    assert_false(cmd_fx_run(f, GM, "combat", "undo", NULL));
    cmd_fx_has(f, "/combat reopen");
    /* a player may not bring it back */
    assert_false(cmd_fx_run(f, BOB, "combat", "reopen", NULL));
    cmd_fx_has(f, "only the GM");
    assert_int_equal(stored_version(f), -1);
    /* the GM may: everything as it was before the end */
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    assert_true(f->reply.changed);
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "5/7");
    cmd_fx_has(f, "Bryn");
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    /* and it can be ended again and reopened again */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    /* past the window it stays archived */
    f->now_ms += CMD_REOPEN_MS;
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    cmd_fx_has(f, "60 minutes");
}

/* The window is the configured one. */
static void test_reopen_window_configured(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.reopen_ms = 5 * 60 * 1000;
    fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "end", NULL));
    cmd_fx_has(f, "5 minutes");
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    f->now_ms += 4 * 60 * 1000;
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    f->now_ms += 5 * 60 * 1000;
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
}

/* Reopening brings back the latest fight, never an older one, and never
 * over a new fight. */
static void test_reopen_latest_only(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           "name", "Second", NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Wolf", "hp", "4",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Wolf");
    assert_null(strstr(f->text, "Goblin"));
}

/* A button of the first fight does nothing to the second, though the
 * second has reached the same version. */
static void test_old_fight_button_refused(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    uint64_t first = cmd_fx_fight(f->store);
    int64_t v = stored_version(f);
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    fight(f);
    assert_true(cmd_fx_fight(f->store) != first);
    assert_int_equal(stored_version(f), v);
    f->press = true;
    f->press_fight = first;
    f->press_version = v;
    assert_false(cmd_fx_run(f, GM, "combat", "undo", NULL));
    cmd_fx_has(f, "earlier fight");
    assert_true(f->reply.ephemeral);
    assert_int_equal(stored_version(f), v);
    /* the same button of this fight works */
    f->press = true;
    f->press_fight = cmd_fx_fight(f->store);
    f->press_version = v;
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
}

/* Each undo names the change it took back, also when undos follow one
 * another; a hidden combatant's change is named to the GM only. */
static void test_undo_names_what_it_undid(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblin", "change",
                           "-1", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-2", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "condition", "name", "Aria",
                           "condition", "Blessed", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    cmd_fx_has(f, "Undid: Aria is now Blessed");
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    assert_null(strstr(f->text, "Shade"));
    cmd_fx_has(f, "only the GM sees");
    if (strstr(f->gm_text, "Undid: Shade") == NULL)
        fail_msg("the GM's copy does not name the Shade:\n%s", f->gm_text);
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    cmd_fx_has(f, "Undid: Goblin: hp 7");
    /* history names who made each change */
    assert_true(cmd_fx_run(f, BOB, "combat", "history", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Undid: Goblin");
    assert_null(strstr(f->text, "Shade"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                                 cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_end_asks_first),
        T(test_end_summary),
        T(test_reopen),
        T(test_reopen_window_configured),
        T(test_reopen_latest_only),
        T(test_old_fight_button_refused),
        T(test_undo_names_what_it_undid),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_end", tests, NULL, NULL);
}
