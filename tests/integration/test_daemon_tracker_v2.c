/* test_daemon_tracker_v2.c - the live tracker as a Components V2 message
 * through fake-discord, which checks every body against Discord's V2 rules
 * (discord-interface-2026.md 1.1 to 1.5): posted with the flag and nothing
 * classic beside it; a row's Attack button acts for the clicker through
 * /attack, and refuses a player whose turn it is not as /attack does; a
 * classic tracker left by an older fray converts on its next edit
 * (content null, embeds [], the flag set), with no violation; a
 * countdown shows on it and is announced when it falls, a hidden one to
 * the GM alone. */
#include "tracker_util.h"

#include <signal.h>

#include "cmd.h"
#include "store.h"

/* The fight of tracker_util.h, the goblins given an armour class so an
 * attack can hit them, begun: tid gets the tracker's id. */
static void armed_fight(struct harness *h, long long *since, char tid[32])
{
    harness_start(h, NULL, NULL, true);
    *since = harness_last_request(h);
    fight(h, "generic");
    for (int i = 1; i <= 2; i++) {
        char name[16];
        snprintf(name, sizeof name, "Goblin %d", i);
        ok(combat(h, GM, "set", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value", name, "name",
                                          "stats", "value", "ac=10")));
    }
    snprintf(tid, 32, "%s", begin(h, since));
}

/* The id of the first Attack button on the tracker tid, into id. */
static void attack_id(struct harness *h, const char *tid, char id[128])
{
    json_t *m = message(h, tid);
    snprintf(id, 128, "%s", button(m, "Attack"));
    json_decref(m);
}

/* Run /<name> <sub> as user with options (stolen); the callback body. */
static json_t *cmd2(struct harness *h, const char *user, const char *name,
                    const char *sub, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                             "command", "name", name, "user_id", user,
                             "options", "name", sub, "options", opts);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* The generic fight with Aria as Alice's saved character, who carries two
 * saved attacks (Longsword, Bow) or one (Longsword), and armoured
 * goblins; begun: tid gets the tracker's id. */
static void saved_fight(struct harness *h, bool two, long long *since,
                        char tid[32])
{
    harness_start(h, NULL, NULL, true);
    *since = harness_last_request(h);
    /* a character's answers are private: checked by the join below */
    json_decref(cmd2(h, ALICE, "character", "create",
            json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:s},{s:s,s:s}]",
                      "name", "name", "value", "Aria", "name", "hp", "value",
                      20, "name", "stats", "value", "ac=12 attack=3", "name",
                      "attack", "value", "Longsword", "name", "damage",
                      "value", "1d8+3")));
    if (two)
        json_decref(cmd2(h, ALICE, "character", "set",
                json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:s}]",
                          "name", "name", "value", "Aria", "name", "attack",
                          "value", "Bow", "name", "roll", "value", "1d20+4",
                          "name", "damage", "value", "1d6")));
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", "generic")));
    ok(combat(h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:i},"
                                      "{s:s,s:s},{s:s,s:s}]",
                                      "name", "name", "value", "Goblin",
                                      "name", "count", "value", 2,
                                      "name", "hp", "value", 7,
                                      "name", "init", "value", "=5",
                                      "name", "stats", "value", "ac=10")));
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:s}]",
                                          "name", "character", "value",
                                          "Aria", "name", "init", "value",
                                          "=30")));
    ok(combat(h, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18,
                                        "name", "init", "value", "=20")));
    snprintf(tid, 32, "%s", begin(h, since));
}

/* The tracker's Attack button when the clicker's combatant has two saved
 * attacks: a private select of them with the goblin fixed; the choice
 * attacks that goblin with it. Bob's click is refused as his typed
 * /attack would be; with one saved attack the click attacks at once. */
static void test_attack_button_saved_attacks(void **st)
{
    struct harness h;
    long long since;
    char tid[32], id[128], sel_id[128], text[8192];
    (void)st;
    saved_fight(&h, true, &since, tid);
    attack_id(&h, tid, id);
    json_t *cb = click(&h, BOB, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "Aria's turn"));
    assert_null(component_find(json_object_get(json_object_get(cb, "data"),
                                               "components"), 3, NULL));
    json_decref(cb);
    cb = click(&h, ALICE, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "Which of Aria's attacks?"));
    json_t *sel = component_find(json_object_get(json_object_get(cb, "data"),
                                                 "components"), 3, NULL);
    assert_non_null(sel);
    assert_int_equal(json_array_size(json_object_get(sel, "options")), 2);
    snprintf(sel_id, sizeof sel_id, "%s",
             json_string_value(json_object_get(sel, "custom_id")));
    assert_non_null(strstr(sel_id, "target=Goblin"));
    json_decref(cb);
    cb = click(&h, ALICE, tid, sel_id, "Bow");
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "Aria"));
    assert_non_null(strstr(text, "Goblin"));
    assert_non_null(strstr(text, "]+4"));      /* the Bow's 1d20+4 */
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);

    saved_fight(&h, false, &since, tid);
    attack_id(&h, tid, id);
    cb = click(&h, ALICE, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 0);     /* no select: it attacks */
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "**Aria** attacks **Goblin"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The running turn's row has a Spend button when it has resources
 * (issue 32, item 3): Alice's click answers her alone with a select of
 * Aria's, what is left beside each; her choice spends one in public and
 * the tracker is edited to show it; the old button is stale then. Rows
 * not running a turn have none. */
static void test_spend_button(void **st)
{
    struct harness h;
    long long since;
    char tid[32], id[128], sel_id[128], text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    ok(combat(&h, ALICE, "resource",
              json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:i},"
                        "{s:s,s:s}]", "name", "name", "value", "Aria",
                        "name", "resource", "value", "Reaction", "name",
                        "action", "value", "add", "name", "max", "value", 1,
                        "name", "reset", "value", "round")));
    ok(combat(&h, BOB, "resource",
              json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s},{s:s,s:i}]",
                        "name", "name", "value", "Bryn", "name", "resource",
                        "value", "Luck", "name", "action", "value", "add",
                        "name", "max", "value", 2)));
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    json_t *m = message(&h, tid);
    snprintf(id, sizeof id, "%s", button(m, "Spend"));
    embed_text(m, text, sizeof text);
    assert_non_null(strstr(text, "Reaction 1/1"));
    /* one Spend only: Aria's, whose turn it is, not Bryn's */
    assert_non_null(strstr(id, "combat/resource"));
    assert_non_null(strstr(id, "name=Aria"));
    json_decref(m);
    json_t *cb = click(&h, ALICE, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "Which of Aria's resources?"));
    json_t *sel = component_find(json_object_get(json_object_get(cb, "data"),
                                                 "components"), 3, NULL);
    assert_non_null(sel);
    json_t *opts = json_object_get(sel, "options");
    assert_int_equal(json_array_size(opts), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(opts, 0), "label")),
                        "Reaction (1 of 1 left)");
    snprintf(sel_id, sizeof sel_id, "%s",
             json_string_value(json_object_get(sel, "custom_id")));
    json_decref(cb);
    cb = click(&h, ALICE, tid, sel_id, "Reaction");
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "spends 1 Reaction: 0 of 1 left"));
    json_decref(cb);
    json_t *e = wait_edit(&h, tid, &since, "Reaction 0/1");
    assert_non_null(e);
    json_decref(e);
    cb = click(&h, ALICE, tid, id, NULL);     /* stale now */
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_null(component_find(json_object_get(json_object_get(cb, "data"),
                                               "components"), 3, NULL));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* /combat countdown with options (stolen) as the GM. */
static json_t *countdown(struct harness *h, json_t *opts)
{
    return combat(h, GM, "countdown", opts);
}

/* Countdowns (issue 32, item 2) through fake-discord: a visible one on
 * the V2 tracker and announced to the channel when it falls as round 2
 * starts; a hidden one answered to the GM alone, never on the public
 * tracker or in the public reply of the turn it falls in. */
static void test_countdown_on_tracker(void **st)
{
    struct harness h;
    long long since;
    char tid[32], text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    ok(countdown(&h, json_pack("[{s:s,s:s},{s:s,s:i}]", "name", "name",
                               "value", "The bridge falls", "name",
                               "rounds", "value", 1)));
    json_t *cb = countdown(&h, json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:b}]",
                                         "name", "name", "value", "Eclipse",
                                         "name", "rounds", "value", 1,
                                         "name", "hidden", "value", 1));
    assert_int_equal(flags_of(cb) & 64, 64);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "Eclipse in 1 round"));
    json_decref(cb);
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    json_t *m = message(&h, tid);
    embed_text(m, text, sizeof text);
    assert_non_null(strstr(text, "The bridge falls** in 1 round"));
    assert_null(strstr(text, "Eclipse"));
    json_decref(m);
    /* Aria, Bryn, the goblins: round 2 starts on the fourth. */
    ok(combat(&h, ALICE, "next", NULL));
    ok(combat(&h, BOB, "next", NULL));
    ok(combat(&h, GM, "next", NULL));
    cb = combat(&h, GM, "next", NULL);
    assert_int_equal(flags_of(cb) & 64, 0);
    /* the turn's notice (V2) carries what happened */
    embed_text(json_object_get(cb, "data"), text, sizeof text);
    assert_non_null(strstr(text, "The bridge falls!"));
    assert_null(strstr(text, "Eclipse"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* Whether callback cb is a turn notice drawn as V2 for user: the flag,
 * no content or embeds, the mention in its text and only that user in
 * allowed_mentions, the Attack button beside it. */
static void notice_for(json_t *cb, const char *user)
{
    json_t *data = json_object_get(cb, "data");
    char text[8192], mention[40];
    assert_true(json_integer_value(json_object_get(data, "flags")) & 32768);
    assert_null(json_object_get(data, "content"));
    assert_null(json_object_get(data, "embeds"));
    embed_text(data, text, sizeof text);
    snprintf(mention, sizeof mention, "<@%s>, it is your turn", user);
    assert_non_null(strstr(text, mention));
    json_t *am = json_object_get(data, "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    assert_int_equal(json_array_size(json_object_get(am, "users")), 1);
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(am, "users"), 0)), user);
    assert_non_null(button(data, "Attack"));
}

/* Turn notices through the fake: V2 with no violation, each pinging only
 * the player whose turn it is; an NPC's turn pings nobody. */
static void test_turn_notice_v2(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    fight(&h, "generic");
    json_t *cb = combat(&h, GM, "begin", NULL);
    notice_for(cb, ALICE);
    json_decref(cb);
    cb = combat(&h, ALICE, "next", NULL);
    notice_for(cb, BOB);
    json_decref(cb);
    cb = combat(&h, BOB, "next", NULL);          /* a goblin's turn */
    json_t *am = json_object_get(json_object_get(cb, "data"),
                                 "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "users")), 0);
    json_decref(cb);
    assert_int_equal(harness_violations_of(&h, "v2_with_content"), 0);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_posted_as_v2(void **st)
{
    struct harness h;
    long long since;
    char tid[32], text[8192];
    (void)st;
    armed_fight(&h, &since, tid);
    json_t *m = message(&h, tid);
    assert_true(json_integer_value(json_object_get(m, "flags")) & 32768);
    assert_null(strstr(json_string_value(json_object_get(m, "content"))
                           ? json_string_value(json_object_get(m, "content"))
                           : "", "round"));
    assert_int_equal(json_array_size(json_object_get(m, "embeds")), 0);
    embed_text(m, text, sizeof text);
    assert_non_null(strstr(text, "round 1"));
    assert_true(shows(text, "@Aria"));
    /* Aria's turn: an Attack on each goblin, none on Bryn */
    const char *a = button(m, "Attack");
    assert_non_null(a);
    assert_non_null(strstr(a, "v2:attack:"));
    assert_non_null(strstr(a, ":target=Goblin"));
    assert_non_null(button(m, "End turn"));
    json_decref(m);
    assert_int_equal(harness_violations_of(&h, "v2_with_content"), 0);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_attack_button(void **st)
{
    struct harness h;
    long long since;
    char tid[32], id[128], text[8192];
    (void)st;
    armed_fight(&h, &since, tid);
    attack_id(&h, tid, id);
    /* Bob clicks it on Aria's turn: refused, privately, nothing changes */
    json_t *cb = click(&h, BOB, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "Aria's turn"));
    json_decref(cb);
    /* Alice clicks it: Aria attacks that goblin, a new public message,
     * and the tracker is edited to the new version */
    cb = click(&h, ALICE, tid, id, NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "Aria"));
    assert_non_null(strstr(text, "Goblin"));
    json_decref(cb);
    json_t *e = harness_wait_request(&h, "PATCH", tid, &since, WAIT_MS);
    assert_non_null(e);
    assert_true(json_integer_value(json_object_get(json_object_get(e, "body"),
                                                   "flags")) & 32768);
    json_decref(e);
    /* the old button is stale now: refused with the current state */
    cb = click(&h, ALICE, tid, id, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A click on a V2 message of fray's that is not the live tracker (an
 * older copy) is answered with a new message: an update would turn that
 * V2 message classic, which Discord refuses. */
static void test_click_on_other_v2_message(void **st)
{
    struct harness h;
    long long since;
    char tid[32], id[128], body[1024], oid[32];
    int status = 0;
    (void)st;
    armed_fight(&h, &since, tid);
    json_t *m = message(&h, tid);
    snprintf(id, sizeof id, "%s", button(m, "End turn"));
    json_decref(m);
    snprintf(body, sizeof body, "{\"flags\":32768,\"components\":[{"
             "\"type\":17,\"components\":[{\"type\":10,\"content\":"
             "\"an older tracker\"},{\"type\":1,\"components\":[{"
             "\"type\":2,\"style\":1,\"label\":\"End turn\","
             "\"custom_id\":\"%s\"}]}]}],\"allowed_mentions\":{"
             "\"parse\":[]}}", id);
    json_t *other = fake_rest(h.fake.port, h.token, "POST",
                              "/channels/" CHANNEL "/messages", body,
                              &status);
    assert_int_equal(status, 200);
    snprintf(oid, sizeof oid, "%s",
             json_string_value(json_object_get(other, "id")));
    json_decref(other);
    json_t *cb = click(&h, ALICE, oid, id, NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    json_decref(cb);
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_classic_tracker_converts_on_edit(void **st)
{
    struct harness h;
    long long since;
    char tid[32];
    int status = 0;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    (void)begin(&h, &since);
    /* an older fray's classic tracker: an embed and buttons */
    json_t *old = fake_rest(h.fake.port, h.token, "POST",
                            "/channels/" CHANNEL "/messages",
                            "{\"embeds\":[{\"title\":\"Fight \\u2014 round "
                            "1\",\"description\":\"\\u25b6 **Aria**\"}],"
                            "\"components\":[{\"type\":1,\"components\":[{"
                            "\"type\":2,\"style\":1,\"label\":\"End turn\","
                            "\"custom_id\":\"v2:combat/next:1.1\"}]}],"
                            "\"allowed_mentions\":{\"parse\":[]}}", &status);
    assert_int_equal(status, 200);
    snprintf(tid, sizeof tid, "%s",
             json_string_value(json_object_get(old, "id")));
    json_decref(old);
    /* fray, stopped, finds it as the channel's tracker when it comes back */
    kill(h.fray, SIGKILL);
    assert_true(harness_wait_exit(&h, 3000) >= 0);
    struct store *s = NULL;
    char err[256], val[64];
    assert_int_equal(store_open(h.db, &s, err, sizeof err), BOT_OK);
    snprintf(val, sizeof val, "%s", tid);
    assert_int_equal(store_kv_set(s, CMD_TRACKER_KV_PREFIX CHANNEL, val),
                     BOT_OK);
    store_close(s);
    harness_start_fray(&h, NULL);
    assert_int_equal(fake_wait_stat(h.fake.port, "resumes_ok", 1, 8000), 0);
    since = harness_last_request(&h);
    ok(combat(&h, ALICE, "next", NULL));
    json_t *e = wait_edit(&h, tid, &since, "@Bryn");
    json_t *body = json_object_get(e, "body");
    assert_true(json_is_null(json_object_get(body, "content")));
    assert_int_equal(json_array_size(json_object_get(body, "embeds")), 0);
    assert_true(json_integer_value(json_object_get(body, "flags")) & 32768);
    json_decref(e);
    json_t *m = message(&h, tid);
    assert_true(json_integer_value(json_object_get(m, "flags")) & 32768);
    assert_int_equal(json_array_size(json_object_get(m, "embeds")), 0);
    json_decref(m);
    assert_int_equal(harness_violations_of(&h, "v2_switch_not_emptied"), 0);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracker_posted_as_v2),
        cmocka_unit_test(test_attack_button),
        cmocka_unit_test(test_attack_button_saved_attacks),
        cmocka_unit_test(test_spend_button),
        cmocka_unit_test(test_countdown_on_tracker),
        cmocka_unit_test(test_turn_notice_v2),
        cmocka_unit_test(test_click_on_other_v2_message),
        cmocka_unit_test(test_classic_tracker_converts_on_edit),
    };
    /* every roll of every fray these tests start replays */
    setenv("FRAY_SEED", "31", 1);
    return cmocka_run_group_tests_name("daemon_tracker_v2", tests, NULL,
                                       NULL);
}
