/* test_daemon_ctxmenu.c - a posted roll's message menus through
 * fake-discord (issue 31 part 4; docs/commands.md, "A roll's menus").
 *
 * Discord's side is the fake's to check: the three MESSAGE commands are
 * registered by Discord's rules, a menu's interaction carries the message
 * as Discord resolves it (with the interaction_metadata of the /roll that
 * posted it), and every answer of fray's is checked (violations stay 0).
 * What the docs promise: Reroll posts the same dice again with a link to
 * the original, and a reroll is rerollable; Explain answers privately
 * with the dice, the total and the marks, after a restart too; Apply
 * damage is the GM's, asks who takes it (one or more) and applies the
 * total to each through the system's rules (teams: endurance before
 * health); refused privately: a
 * message that is not a roll of fray's, a player's Apply damage, a choice
 * after the fight ended, a target that died meanwhile. Reroll and Explain
 * work in a user's own install, in a group DM. A roll's record is found
 * before it is written and is on disk a moment after, crash or not. */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon_harness.h"
#include "ix_record_util.h"

#define GM "1100000000000000401"
#define ALICE "1100000000000000402"
#define SEED "42"
#define MESSAGE_COMMAND 3

/* The GM sends more commands at once than a player may: a fight, a
 * roll, its menu, two more fights. */
#define CONF "[limits]\nuser_burst = 1000\nchannel_burst = 1000\n"

static void start(struct harness *h)
{
    setenv("FRAY_SEED", SEED, 1);
    harness_start_conf(h, NULL, NULL, true, CONF);
}

static json_t *roll(struct harness *h, const char *user, const char *dice)
{
    return command(h, user, "roll",
                   json_pack("[{s:s,s:s}]", "name", "dice", "value", dice));
}

/* The menu called name on message mid as user, with more description
 * fields (extra, may be NULL); the callback record. */
static json_t *menu(struct harness *h, const char *name, const char *mid,
                    const char *user, const char *extra)
{
    char desc[512];
    int st = 0;
    snprintf(desc, sizeof desc, "{\"user_id\":\"%s\"%s%s}", user,
             extra ? "," : "", extra ? extra : "");
    json_t *r = fake_inject_context_menu(h->fake.port, MESSAGE_COMMAND, name,
                                         mid, desc, &st);
    if (r == NULL || st != 200)
        fail_msg("fake-discord refused the menu %s (status %d)", name, st);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

static const char *mid_of(json_t *cb)
{
    const char *mid = json_string_value(json_object_get(
        cb, "original_message_id"));
    assert_non_null(mid);
    return mid;
}

/* Everything the answer shows, as text. */
static char *text_of(json_t *cb)
{
    return json_dumps(data_of(cb), 0);
}

static void has(json_t *cb, const char *needle)
{
    char *t = text_of(cb);
    if (strstr(t, needle) == NULL)
        fail_msg("`%s` is not in %s", needle, t);
    free(t);
}

/* The three menus are registered as MESSAGE commands, by Discord's rules
 * (the fake refuses a PUT that breaks one). */
static void test_ctxmenu_registered(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    harness_wait_stat(&h, "command_puts", 1);
    json_t *c = fake_get_json(h.fake.port, "/_test/commands", NULL);
    json_t *global = json_object_get(json_object_get(c, "scopes"), "global");
    int menus = 0;
    for (size_t i = 0; i < json_array_size(global); i++) {
        json_t *cmd = json_array_get(global, i);
        if (json_integer_value(json_object_get(cmd, "type")) != 3)
            continue;
        const char *name = json_string_value(json_object_get(cmd, "name"));
        assert_true(strcmp(name, "Reroll") == 0 ||
                    strcmp(name, "Explain") == 0 ||
                    strcmp(name, "Apply damage") == 0);
        menus++;
    }
    assert_int_equal(menus, 3);
    json_decref(c);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_ctxmenu_reroll_and_explain(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    json_t *first = roll(&h, ALICE, "2d6+3 fire");
    assert_false(ephemeral(first));
    /* anyone may reroll a public roll: the link names the original */
    json_t *re = menu(&h, "Reroll", mid_of(first), GM, NULL);
    assert_false(ephemeral(re));
    char link[160];
    snprintf(link, sizeof link, "/%s)", mid_of(first));
    has(re, "Reroll of [the roll](https://discord.com/channels/");
    has(re, link);
    has(re, "rerolls: fire");
    /* a reroll is a roll: rerollable, explainable */
    json_t *again = menu(&h, "Reroll", mid_of(re), ALICE, NULL);
    assert_false(ephemeral(again));
    json_t *why = menu(&h, "Explain", mid_of(re), ALICE, NULL);
    assert_true(ephemeral(why));
    has(why, "Dice: `2d6+3`");
    has(why, "Total: **");
    has(why, "A reroll of an earlier roll");
    json_decref(why);
    /* answered means on disk: a restarted fray still knows the roll */
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 5000), 0);
    harness_start_fray(&h, NULL);
    why = menu(&h, "Explain", mid_of(first), GM, NULL);
    assert_true(ephemeral(why));
    has(why, "Roll by");
    has(why, "For: fire");
    json_decref(why);
    json_decref(first);
    json_decref(re);
    json_decref(again);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* Is the record of the roll asked for by interaction id in the table? */
static bool recorded(struct harness *h, const char *id)
{
    return harness_db_has(h, "SELECT 1 FROM roll_rec WHERE id = ?1", id);
}

/* A roll's record waits for a write it can ride (cmd_rollq.h), a second
 * at most after the answer with no other command to ride: found by its
 * menu meanwhile, on disk after, and so still there after a crash. */
static void test_ctxmenu_roll_kept_across_a_crash(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    json_t *first = roll(&h, ALICE, "1d20+4 spear");
    const char *id = json_string_value(json_object_get(first, "id"));
    assert_non_null(id);
    /* asked at once: answered from the records not yet written */
    json_t *why = menu(&h, "Explain", mid_of(first), GM, NULL);
    assert_true(ephemeral(why));
    has(why, "For: spear");
    json_decref(why);
    /* no other command comes: the daemon's tick writes it, on a loaded
     * machine later than the second; wait for the row, not a time */
    struct timespec pause = {0, 50 * 1000 * 1000};
    for (int i = 0; i < 1200 && !recorded(&h, id); i++)
        nanosleep(&pause, NULL);
    assert_true(recorded(&h, id));
    kill(h.fray, SIGKILL);
    assert_true(harness_wait_exit(&h, 5000) >= 0);
    harness_start_fray(&h, NULL);
    why = menu(&h, "Explain", mid_of(first), GM, NULL);
    assert_true(ephemeral(why));
    has(why, "For: spear");
    has(why, "Dice: `1d20+4`");
    json_decref(why);
    json_decref(first);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_ctxmenu_not_a_roll(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    /* someone's own message */
    json_t *cb = menu(&h, "Explain", "1100000000000009999", ALICE,
                      "\"target_message\":{\"content\":\"hello\","
                      "\"author\":{\"id\":\"" ALICE "\","
                      "\"username\":\"alice\"}}");
    assert_true(ephemeral(cb));
    has(cb, "not a roll fray posted");
    json_decref(cb);
    /* fray's own message that is not a roll (the help) */
    json_t *help = command(&h, ALICE, "help", NULL);
    cb = menu(&h, "Reroll", mid_of(help), ALICE, NULL);
    assert_true(ephemeral(cb));
    has(cb, "does not remember that roll");
    json_decref(cb);
    json_decref(help);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A teams fight: damage comes off endurance before health, through the
 * system's own /damage. */
static void teams_fight(struct harness *h)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", "teams")));
    ok(combat(h, GM, "add",
              json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:s}]",
                        "name", "name", "value", "Brute", "name", "hp",
                        "value", 20, "name", "stats", "value",
                        "endurance=5", "name", "side", "value", "foes")));
    ok(combat(h, GM, "add",
              json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]", "name", "name",
                        "value", "Thug", "name", "hp", "value", 10, "name",
                        "side", "value", "foes")));
    ok(combat(h, GM, "begin", NULL));
}

static void test_ctxmenu_apply_damage(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    teams_fight(&h);
    json_t *r = roll(&h, GM, "8");
    /* a player may not */
    json_t *cb = menu(&h, "Apply damage", mid_of(r), ALICE, NULL);
    assert_true(ephemeral(cb));
    has(cb, "GM");
    json_decref(cb);
    /* the GM picks the target; the system's damage takes endurance first */
    json_t *pick = menu(&h, "Apply damage", mid_of(r), GM, NULL);
    assert_true(ephemeral(pick));
    has(pick, "Who takes the 8 damage?");
    assert_int_equal(json_integer_value(json_object_get(select_of(pick),
                                                        "max_values")), 2);
    /* both: each takes all of it, as the system takes damage */
    json_t *done = choose_values(&h, pick, cid_of(pick),
                                 "[\"Brute\",\"Thug\"]", GM, false);
    assert_false(ephemeral(done));
    has(done, "endurance 5");
    has(done, "hp 20");
    has(done, "**Thug**: hp 10 → **2**");
    json_decref(done);
    /* the fight ends: its list is refused */
    ok(combat(&h, GM, "end", json_pack("[{s:s,s:b}]", "name", "confirm",
                                       "value", 1)));
    cb = choose(&h, pick, cid_of(pick), "Brute", GM, false);
    assert_true(ephemeral(cb));
    has(cb, "there is no fight in this channel");
    json_decref(cb);
    /* nor does it reach the next fight, with a Brute of its own */
    teams_fight(&h);
    cb = choose(&h, pick, cid_of(pick), "Brute", GM, false);
    assert_true(ephemeral(cb));
    has(cb, "earlier fight");
    json_decref(cb);
    ok(combat(&h, GM, "end", json_pack("[{s:s,s:b}]", "name", "confirm",
                                       "value", 1)));
    cb = menu(&h, "Apply damage", mid_of(r), GM, NULL);
    assert_true(ephemeral(cb));
    has(cb, "no fight in this channel");
    json_decref(cb);
    json_decref(pick);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* Generic: a target that died between the list and the choice. */
static void test_ctxmenu_apply_target_died(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    ok(combat(&h, GM, "start", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                         "system", "value", "generic",
                                         "name", "settings", "value",
                                         "death_saves=on")));
    ok(combat(&h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:i}]", "name",
                                           "name", "value", "Aria", "name",
                                           "hp", "value", 7)));
    json_t *r = roll(&h, GM, "3");
    json_t *pick = menu(&h, "Apply damage", mid_of(r), GM, NULL);
    /* down, then three hits while down: three failed death saves */
    for (int i = 0; i < 4; i++)
        ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value", "Aria", "name",
                                          "change", "value",
                                          i == 0 ? "=0" : "-1")));
    json_t *cb = choose(&h, pick, cid_of(pick), "Aria", GM, false);
    assert_true(ephemeral(cb));
    has(cb, "Aria is dead");
    json_decref(cb);
    json_decref(pick);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A user's own install, in a group DM: the menus on /roll work there. */
static void test_ctxmenu_user_install(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    const char *where = "\"channel_id\":\"1100000000000007001\","
                        "\"install\":\"user\",\"context\":2,\"dm\":true";
    json_t *r = interact(&h, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:b,"
                                       "s:[{s:s,s:s}]}",
                                       "type", "command", "name", "roll",
                                       "user_id", ALICE, "channel_id",
                                       "1100000000000007001", "install",
                                       "user", "context", 2, "dm", 1,
                                       "options", "name", "dice", "value",
                                       "d20"));
    json_t *re = menu(&h, "Reroll", mid_of(r), ALICE, where);
    assert_false(ephemeral(re));
    has(re, "https://discord.com/channels/@me/");
    json_t *why = menu(&h, "Explain", mid_of(r), ALICE, where);
    assert_true(ephemeral(why));
    has(why, "Dice: `d20`");
    json_decref(why);
    json_decref(re);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctxmenu_registered),
        cmocka_unit_test(test_ctxmenu_reroll_and_explain),
        cmocka_unit_test(test_ctxmenu_roll_kept_across_a_crash),
        cmocka_unit_test(test_ctxmenu_not_a_roll),
        cmocka_unit_test(test_ctxmenu_apply_damage),
        cmocka_unit_test(test_ctxmenu_apply_target_died),
        cmocka_unit_test(test_ctxmenu_user_install),
    };
    return cmocka_run_group_tests_name("daemon_ctxmenu", tests, NULL, NULL);
}
