/* test_daemon_pickers.c - the /attack target picker through fake-discord
 * (issue 31; docs/commands.md, /attack).
 *
 * Discord's side (reference 2.x: a message's string select, its
 * MESSAGE_COMPONENT answer with data.values) is the fake's to check: it
 * refuses a select whose value is not among the message's options, and
 * every answer of fray's is checked against Discord's rules (violations
 * stay 0). What the docs promise: /attack without target: answers the
 * sender alone with a select of whom the attacker may attack, never a
 * hidden combatant for a player, the hidden one too for the GM; choosing
 * attacks exactly as typing target: would (the same reply with the same
 * seed); a choice whose target went down meanwhile is refused; a forged
 * picker (another fight, or an attacker that is not the sender's) is
 * refused and changes nothing; the turn notice's Attack button opens the
 * same picker for the player whose turn it is, and nobody else. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define ALICE "1100000000000000302"
#define BOB "1100000000000000303"
#define SEED "42"
#define EPHEMERAL 64
#define STRING_SELECT 3

/* Inject desc (taken); the whole callback record (caller decrefs). */
static json_t *interact(struct harness *h, json_t *desc)
{
    char *text = json_dumps(desc, JSON_COMPACT);
    json_decref(desc);
    assert_non_null(text);
    json_t *r = fake_inject(h->fake.port, text);
    if (r == NULL)
        fail_msg("fake-discord refused %s", text);
    free(text);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

static json_t *command(struct harness *h, const char *user, const char *name,
                       json_t *opts)
{
    return interact(h, json_pack("{s:s, s:s, s:s, s:o}", "type", "command",
                                 "name", name, "user_id", user, "options",
                                 opts ? opts : json_array()));
}

static json_t *combat(struct harness *h, const char *user, const char *sub,
                      json_t *opts)
{
    return command(h, user, "combat",
                   json_pack("[{s:s, s:o}]", "name", sub, "options",
                             opts ? opts : json_array()));
}

static json_t *data_of(json_t *cb)
{
    return json_object_get(json_object_get(cb, "body"), "data");
}

static bool ephemeral(json_t *cb)
{
    return (json_integer_value(json_object_get(data_of(cb), "flags")) &
            EPHEMERAL) != 0;
}

static void ok(json_t *cb)
{
    if (ephemeral(cb)) {
        char *s = json_dumps(cb, 0);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* Generic fight: Goblin (GM), Shade (the GM's, hidden), Aria (Alice,
 * first), Bryn (Bob). The record of /combat begin, Aria's turn notice. */
static json_t *fight_begun(struct harness *h)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", "generic")));
    ok(combat(h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},"
                                      "{s:s,s:s}]",
                                      "name", "name", "value", "Goblin",
                                      "name", "hp", "value", 7, "name",
                                      "init", "value", "=10", "name",
                                      "stats", "value", "ac=5")));
    json_decref(combat(h, GM, "add",
                       json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},"
                                 "{s:s,s:b}]",
                                 "name", "name", "value", "Shade",
                                 "name", "hp", "value", 9, "name",
                                 "init", "value", "=1", "name",
                                 "hidden", "value", 1)));
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},"
                                          "{s:s,s:s}]",
                                          "name", "name", "value", "Aria",
                                          "name", "hp", "value", 20, "name",
                                          "init", "value", "=30", "name",
                                          "stats", "value",
                                          "ac=12 attack=3")));
    ok(combat(h, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18,
                                        "name", "init", "value", "=20")));
    json_t *begin = combat(h, GM, "begin", NULL);
    assert_false(ephemeral(begin));
    return begin;
}

static void fight(struct harness *h)
{
    json_decref(fight_begun(h));
}

/* The one string select of a callback's message, or fail. */
static json_t *select_of(json_t *cb)
{
    json_t *rows = json_object_get(data_of(cb), "components");
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *cs = json_object_get(json_array_get(rows, i), "components");
        for (size_t k = 0; k < json_array_size(cs); k++) {
            json_t *c = json_array_get(cs, k);
            if (json_integer_value(json_object_get(c, "type")) ==
                STRING_SELECT)
                return c;
        }
    }
    char *s = json_dumps(cb, 0);
    fail_msg("no select in %s", s);
    return NULL;
}

static bool offers(json_t *sel, const char *value)
{
    json_t *opts = json_object_get(sel, "options");
    for (size_t i = 0; i < json_array_size(opts); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(opts, i),
                                                     "value")),
                   value) == 0)
            return true;
    return false;
}

/* user's picker for attacker: the callback record (private, a select). */
static json_t *picker(struct harness *h, const char *user,
                      const char *attacker)
{
    json_t *cb = command(h, user, "attack",
                         json_pack("[{s:s,s:s}]", "name", "attacker",
                                   "value", attacker));
    assert_true(ephemeral(cb));
    select_of(cb);
    return cb;
}

/* Choose values (a JSON array) on the picker of record pick as user
 * (checked by the fake against the message fray sent: among its options,
 * within its min and max, unless forge); the answer's record. */
static json_t *choose_values(struct harness *h, json_t *pick,
                             const char *cid, const char *values,
                             const char *user, bool forge)
{
    const char *mid = json_string_value(json_object_get(
        pick, "original_message_id"));
    char extra[96];
    int st = 0;
    assert_non_null(mid);
    snprintf(extra, sizeof extra,
             "{\"user_id\":\"%s\",\"component_type\":3}", user);
    json_t *r = fake_inject_component(h->fake.port, mid, cid, values, forge,
                                      extra, &st);
    if (r == NULL || st != 200)
        fail_msg("fake-discord refused the choice %s (status %d)", values,
                 st);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

/* Choose value alone, as choose_values(). */
static json_t *choose(struct harness *h, json_t *pick, const char *cid,
                      const char *value, const char *user, bool forge)
{
    char values[160];
    snprintf(values, sizeof values, "[\"%s\"]", value);
    return choose_values(h, pick, cid, values, user, forge);
}

static const char *cid_of(json_t *pick)
{
    return json_string_value(json_object_get(select_of(pick), "custom_id"));
}

static const char *description(json_t *cb)
{
    return json_string_value(json_object_get(
        json_array_get(json_object_get(data_of(cb), "embeds"), 0),
        "description"));
}

static void start(struct harness *h)
{
    setenv("FRAY_SEED", SEED, 1);
    harness_start(h, NULL, NULL, true);
}

static void test_picker_hidden_only_for_gm(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight(&h);
    json_t *p = picker(&h, ALICE, "Aria");
    char *all = json_dumps(p, 0);
    json_t *sel = select_of(p);
    assert_true(offers(sel, "Goblin"));
    assert_true(offers(sel, "Bryn"));
    assert_false(offers(sel, "Aria"));
    assert_null(strstr(all, "Shade"));          /* not a label, value, id */
    free(all);
    json_decref(p);
    p = picker(&h, GM, "Goblin");
    assert_true(offers(select_of(p), "Shade"));
    assert_true(offers(select_of(p), "Aria"));
    json_decref(p);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The same fight on two frays with the same seed: one picks, one types. */
static void test_picker_choice_is_the_typed_attack(void **st)
{
    struct harness a, b;
    (void)st;
    start(&a);
    fight(&a);
    json_t *p = picker(&a, ALICE, "Aria");
    json_t *chosen = choose(&a, p, cid_of(p), "Goblin", ALICE, false);
    assert_false(ephemeral(chosen));
    start(&b);
    fight(&b);
    json_t *typed = command(&b, ALICE, "attack",
                            json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "attacker", "value", "Aria", "name",
                                      "target", "value", "Goblin"));
    assert_false(ephemeral(typed));
    assert_non_null(description(chosen));
    assert_non_null(strstr(description(chosen), "**Aria** attacks "
                                                "**Goblin**"));
    assert_string_equal(description(chosen), description(typed));
    json_decref(p);
    json_decref(chosen);
    json_decref(typed);
    harness_assert_no_violations(&a);
    harness_assert_no_violations(&b);
    harness_stop(&a);
    harness_stop(&b);
}

static void test_picker_target_down_meanwhile(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight(&h);
    json_t *p = picker(&h, ALICE, "Aria");
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Goblin", "name",
                                      "change", "value", "=0")));
    json_t *r = choose(&h, p, cid_of(p), "Goblin", ALICE, false);
    assert_true(ephemeral(r));
    assert_non_null(strstr(json_string_value(json_object_get(data_of(r),
                                                             "content")),
                           "can no longer be attacked"));
    json_decref(p);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_picker_forged_refused(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    fight(&h);
    json_t *p = picker(&h, ALICE, "Aria");
    /* another fight's picker */
    json_t *r = choose(&h, p, "v2:attack:999999.*:target:attacker=Aria",
                       "Goblin", ALICE, true);
    assert_true(ephemeral(r));
    assert_non_null(strstr(json_string_value(json_object_get(data_of(r),
                                                             "content")),
                           "earlier fight"));
    json_decref(r);
    /* this fight's, for an attacker that is Bob's */
    char forged[128];
    snprintf(forged, sizeof forged, "%s", cid_of(p));
    char *at = strstr(forged, "attacker=Aria");
    assert_non_null(at);
    snprintf(at, sizeof forged - (size_t)(at - forged), "attacker=Bryn");
    r = choose(&h, p, forged, "Goblin", ALICE, true);
    assert_true(ephemeral(r));
    json_decref(r);
    /* a value the picker never offered (the hidden one), forged */
    r = choose(&h, p, cid_of(p), "Shade", ALICE, true);
    assert_true(ephemeral(r));
    char *all = json_dumps(r, 0);
    assert_null(strstr(all, "hp 9"));
    free(all);
    json_decref(r);
    /* nothing changed: the real picker still attacks */
    r = choose(&h, p, cid_of(p), "Goblin", ALICE, false);
    assert_false(ephemeral(r));
    json_decref(r);
    json_decref(p);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The button labelled label under comps: in action rows, a V2
 * container, or beside a Section (its accessory); NULL if none. */
static json_t *button_in(json_t *comps, const char *label)
{
    for (size_t i = 0; i < json_array_size(comps); i++) {
        json_t *c = json_array_get(comps, i);
        const char *l = json_string_value(json_object_get(c, "label"));
        if (l != NULL && strcmp(l, label) == 0)
            return c;
        json_t *acc = json_object_get(c, "accessory");
        l = json_string_value(json_object_get(acc, "label"));
        if (l != NULL && strcmp(l, label) == 0)
            return acc;
        json_t *in = button_in(json_object_get(c, "components"), label);
        if (in != NULL)
            return in;
    }
    return NULL;
}

/* The button of a callback's message labelled label, or fail. */
static json_t *button_of(json_t *cb, const char *label)
{
    json_t *b = button_in(json_object_get(data_of(cb), "components"), label);
    if (b == NULL) {
        char *s = json_dumps(cb, 0);
        fail_msg("no %s button in %s", label, s);
    }
    return b;
}

/* Click the button of record msg as user; the answer's record. */
static json_t *click(struct harness *h, json_t *msg, json_t *button,
                     const char *user)
{
    const char *mid = json_string_value(json_object_get(
        msg, "original_message_id"));
    char extra[96];
    int st = 0;
    snprintf(extra, sizeof extra, "{\"user_id\":\"%s\"}", user);
    json_t *r = fake_inject_component(
        h->fake.port, mid,
        json_string_value(json_object_get(button, "custom_id")), NULL, false,
        extra, &st);
    if (r == NULL || st != 200)
        fail_msg("fake-discord refused the click (status %d)", st);
    json_t *cb = harness_callback(h, json_string_value(json_object_get(r,
                                                                       "id")));
    json_decref(r);
    return cb;
}

/* The turn notice's Attack button opens the attacker's picker for its
 * player; for someone who may not act for the attacker it is refused. */
static void test_turn_notice_attack_button(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    json_t *begin = fight_begun(&h);
    /* the notice is V2 (docs/internals/v2.md): the Attack button beside
     * it, a ping for Alice alone */
    assert_true(json_integer_value(json_object_get(data_of(begin),
                                                   "flags")) & 32768);
    assert_null(json_object_get(data_of(begin), "content"));
    json_t *am = json_object_get(data_of(begin), "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    assert_int_equal(json_array_size(json_object_get(am, "users")), 1);
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(am, "users"), 0)), ALICE);
    json_t *attack = button_of(begin, "Attack");
    json_t *p = click(&h, begin, attack, ALICE);
    assert_true(ephemeral(p));
    json_t *sel = select_of(p);
    assert_true(offers(sel, "Goblin"));
    assert_false(offers(sel, "Shade"));
    json_t *r = choose(&h, p, cid_of(p), "Goblin", ALICE, false);
    assert_false(ephemeral(r));
    assert_non_null(strstr(description(r), "**Aria** attacks **Goblin**"));
    json_decref(r);
    json_decref(p);
    p = click(&h, begin, attack, BOB);
    assert_true(ephemeral(p));
    assert_int_equal(json_array_size(json_object_get(data_of(p),
                                                     "components")), 0);
    json_decref(p);
    json_decref(begin);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A tactical fight: Drone and Wasp (visible), Shade (the GM's, hidden),
 * Aria (Alice, first). */
static void area_fight(struct harness *h)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", "tactical")));
    static const char *const npcs[][3] = {
        {"Drone", "init=1", "0"}, {"Wasp", "init=2", "0"},
        {"Shade", "init=3", "1"},
    };
    for (size_t i = 0; i < sizeof npcs / sizeof npcs[0]; i++)
        json_decref(combat(h, GM, "add",
                           json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:i},"
                                     "{s:s,s:s},{s:s,s:b}]",
                                     "name", "name", "value", npcs[i][0],
                                     "name", "side", "value", "drones",
                                     "name", "hp", "value", 12,
                                     "name", "stats", "value", npcs[i][1],
                                     "name", "hidden", "value",
                                     npcs[i][2][0] == '1')));
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:i},"
                                          "{s:s,s:s}]",
                                          "name", "name", "value", "Aria",
                                          "name", "side", "value", "crew",
                                          "name", "hp", "value", 20,
                                          "name", "stats", "value",
                                          "init=30")));
    ok(combat(h, GM, "begin", NULL));
}

/* Alice's picker for Aria's area attack (template=2): a multi-select. */
static json_t *area_picker(struct harness *h)
{
    json_t *cb = command(h, ALICE, "attack",
                         json_pack("[{s:s,s:s},{s:s,s:s}]", "name", "damage",
                                   "value", "2d6", "name", "options",
                                   "value", "template=2"));
    assert_true(ephemeral(cb));
    return cb;
}

/* An area attack's picker is a multi-select of the visible targets (min 1,
 * max the two there are); choosing both hits both, the first as target. */
static void test_area_multi_select(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    area_fight(&h);
    json_t *p = area_picker(&h);
    json_t *sel = select_of(p);
    assert_int_equal(json_integer_value(json_object_get(sel, "min_values")),
                     1);
    assert_int_equal(json_integer_value(json_object_get(sel, "max_values")),
                     2);
    char *all = json_dumps(p, 0);
    assert_null(strstr(all, "Shade"));
    free(all);
    json_t *r = choose_values(&h, p, cid_of(p), "[\"Wasp\",\"Drone\"]",
                              ALICE, false);
    assert_false(ephemeral(r));
    const char *d = description(r);
    assert_non_null(d);
    assert_non_null(strstr(d, "Wasp"));
    assert_non_null(strstr(d, "Drone"));
    assert_null(strstr(d, "Shade"));
    json_decref(r);
    json_decref(p);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* One of the chosen died between the picker and the choice: refused, and
 * nobody is hit. */
static void test_area_target_died_meanwhile(void **st)
{
    struct harness h;
    (void)st;
    start(&h);
    area_fight(&h);
    json_t *p = area_picker(&h);
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Drone", "name",
                                      "change", "value", "=0")));
    json_t *r = choose_values(&h, p, cid_of(p), "[\"Wasp\",\"Drone\"]",
                              ALICE, false);
    assert_true(ephemeral(r));
    const char *c = json_string_value(json_object_get(data_of(r),
                                                      "content"));
    assert_non_null(strstr(c, "Drone can no longer be attacked"));
    assert_non_null(strstr(c, "nothing happened"));
    json_decref(r);
    /* Wasp is untouched: the same picker, Wasp alone, still hits */
    r = choose_values(&h, p, cid_of(p), "[\"Wasp\"]", ALICE, false);
    assert_false(ephemeral(r));
    json_decref(r);
    json_decref(p);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_picker_hidden_only_for_gm),
        cmocka_unit_test(test_picker_choice_is_the_typed_attack),
        cmocka_unit_test(test_picker_target_down_meanwhile),
        cmocka_unit_test(test_picker_forged_refused),
        cmocka_unit_test(test_turn_notice_attack_button),
        cmocka_unit_test(test_area_multi_select),
        cmocka_unit_test(test_area_target_died_meanwhile),
    };
    return cmocka_run_group_tests_name("daemon_pickers", tests, NULL, NULL);
}
