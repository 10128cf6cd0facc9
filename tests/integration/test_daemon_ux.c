/* test_daemon_ux.c - what players see, through fake-discord: the turn
 * notice mentions exactly the player whose turn starts; autocomplete offers
 * only what the user may see and act for; a secret roll is private and
 * copied to the GM channel (and a hidden NPC's attack shows numbers only
 * there); an interaction that waited too long is deferred and answered by
 * editing @original; a 5xx callback is retried. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define ALICE "1100000000000000302"
#define BOB "1100000000000000303"
#define GM_CHANNEL "1100000000000000777"
#define ADMIN_PERMS "8"
#define MANAGE_SERVER_PERMS "32"
#define MANAGE_CHANNELS_PERMS "16"
/* fake-discord's everyday member permissions plus Manage Channels (16), as
 * a channel overwrite on the member's own room grants it */
#define ROOM_MANAGER_PERMS "2248473465835089"
#define BOB_ROOM "1100000000000000888"
#define WAIT_MS 4000

static json_t *command(struct harness *h, const char *user, const char *name,
                       json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:o}", "type", "command",
                             "name", name, "user_id", user, "options",
                             opts ? opts : json_array());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static json_t *combat(struct harness *h, const char *user, const char *sub,
                      json_t *opts)
{
    return command(h, user, "combat",
                   json_pack("[{s:s, s:o}]", "name", sub, "options",
                             opts ? opts : json_array()));
}

/* A hidden NPC's arrival is for the GM's eyes: the reply is private and
 * names it. */
static void private_to_gm(json_t *cb, const char *name)
{
    json_t *data = json_object_get(cb, "data");
    char *s = json_dumps(data, 0);
    assert_true(json_integer_value(json_object_get(data, "flags")) & 64);
    assert_non_null(strstr(s, name));
    free(s);
    json_decref(cb);
}

static void ok(json_t *cb)
{
    if (json_integer_value(json_object_get(json_object_get(cb, "data"),
                                           "flags")) & 64) {
        char *s = json_dumps(cb, 0);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* Generic fight: Goblin (GM), Aria (Alice, first), Bryn (Bob, second),
 * Shade (a hidden NPC of the GM, last). Returns the begin reply. */
static json_t *fight(struct harness *h)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", "generic")));
    ok(combat(h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                      "name", "name", "value", "Goblin",
                                      "name", "hp", "value", 7, "name",
                                      "init", "value", "=10")));
    private_to_gm(combat(h, GM, "add",
                         json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},"
                                   "{s:s,s:s},{s:s,s:b}]",
                                   "name", "name", "value", "Shade",
                                   "name", "hp", "value", 9, "name",
                                   "init", "value", "=1", "name",
                                   "stats", "value", "attack=4",
                                   "name", "hidden", "value", 1)),
                  "Shade");
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s},"
                                          "{s:s,s:s}]",
                                          "name", "name", "value", "Aria",
                                          "name", "hp", "value", 20, "name",
                                          "init", "value", "=30", "name",
                                          "stats", "value", "ac=12")));
    ok(combat(h, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18,
                                        "name", "init", "value", "=20")));
    return combat(h, GM, "begin", NULL);
}

/* The text a message body shows: its content, or a V2 message's Text
 * Displays (a turn's notice, docs/internals/v2.md), into out. */
static void shown_text(json_t *comps, char *out, size_t cap, size_t *at)
{
    for (size_t i = 0; i < json_array_size(comps); i++) {
        json_t *k = json_array_get(comps, i);
        const char *t = json_string_value(json_object_get(k, "content"));
        if (json_integer_value(json_object_get(k, "type")) == 10 && t &&
            *at < cap) {
            int n = snprintf(out + *at, cap - *at, "%s\n", t);
            *at += n > 0 ? (size_t)n : 0;
        }
        shown_text(json_object_get(k, "components"), out, cap, at);
    }
}

/* allowed_mentions of a callback: parse must be empty and users exactly
 * the one id given (NULL: nobody), whose mention the text holds. */
static void assert_mentions(json_t *cb, const char *user)
{
    json_t *data = json_object_get(cb, "data");
    json_t *am = json_object_get(data, "allowed_mentions");
    static char shown[16384];
    size_t at = 0;
    const char *content = json_string_value(json_object_get(data,
                                                            "content"));
    shown[0] = '\0';
    if (content != NULL)
        at = (size_t)snprintf(shown, sizeof shown, "%s\n", content);
    shown_text(json_object_get(data, "components"), shown, sizeof shown,
               &at);
    content = shown;
    assert_non_null(am);
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    json_t *users = json_object_get(am, "users");
    if (user == NULL) {
        assert_int_equal(json_array_size(users), 0);
        assert_null(strstr(content, "<@"));
        return;
    }
    assert_int_equal(json_array_size(users), 1);
    assert_string_equal(json_string_value(json_array_get(users, 0)), user);
    char mention[40];
    snprintf(mention, sizeof mention, "<@%s>", user);
    assert_non_null(content);
    assert_non_null(strstr(content, mention));
}

static void test_turn_notice_mentions_exactly_one_user(void **st)
{
    struct harness h;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    json_t *cb = fight(&h);
    assert_mentions(cb, ALICE);             /* Aria goes first */
    json_decref(cb);
    cb = combat(&h, ALICE, "next", NULL);
    assert_mentions(cb, BOB);
    json_decref(cb);
    cb = combat(&h, BOB, "next", NULL);     /* the Goblin: an NPC */
    assert_mentions(cb, NULL);
    json_decref(cb);
    /* the GM switches notices off: no one is mentioned any more */
    ok(combat(&h, GM, "settings", json_pack("[{s:s,s:b}]", "name", "notices",
                                           "value", 0)));
    cb = combat(&h, GM, "next", NULL);      /* Shade */
    json_decref(cb);
    cb = combat(&h, GM, "next", NULL);      /* round 2: Aria */
    assert_mentions(cb, NULL);
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The choices autocomplete offers user for option opt of /combat sub (or
 * /name when sub is NULL) with typed text, as a comma-separated list. */
static void complete(struct harness *h, const char *user, const char *name,
                     const char *sub, const char *opt, const char *typed,
                     char *out, size_t cap)
{
    harness_complete(h, user, name, sub,
                     json_pack("[{s:s, s:s, s:b}]", "name", opt, "value",
                               typed, "focused", 1),
                     out, cap);
}

static void test_autocomplete_filtered_by_ownership(void **st)
{
    struct harness h;
    char got[2048];
    (void)st;

    harness_start(&h, NULL, NULL, true);
    json_decref(fight(&h));
    /* a player's own combatants where the command acts for one */
    complete(&h, ALICE, "combat", "hp", "name", "", got, sizeof got);
    assert_string_equal(got, "Aria");
    complete(&h, BOB, "combat", "condition", "name", "", got, sizeof got);
    assert_string_equal(got, "Bryn");
    /* targets: everyone the player can see, not the hidden Shade */
    complete(&h, ALICE, "attack", NULL, "target", "", got, sizeof got);
    assert_string_equal(got, "Goblin,Aria,Bryn");
    /* the GM may act for anyone, hidden or not */
    complete(&h, GM, "combat", "hp", "name", "", got, sizeof got);
    assert_string_equal(got, "Goblin,Shade,Aria,Bryn");
    /* best matches first */
    complete(&h, GM, "combat", "hp", "name", "r", got, sizeof got);
    assert_string_equal(got, "Aria,Bryn");
    complete(&h, GM, "combat", "hp", "name", "br", got, sizeof got);
    assert_string_equal(got, "Bryn");
    /* conditions, ruleset ids, help topics */
    complete(&h, ALICE, "combat", "condition", "condition", "poi", got,
             sizeof got);
    assert_string_equal(got, "Poisoned");
    complete(&h, GM, "combat", "start", "system", "fac", got, sizeof got);
    assert_string_equal(got, "factions");
    complete(&h, GM, "help", NULL, "topic", "d", got, sizeof got);
    assert_true(strncmp(got, "dice", 4) == 0);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static json_t *config_gm_channel(struct harness *h, const char *perms)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:i, s:s}]}",
                             "type", "command", "name", "config", "user_id",
                             GM, "permissions", perms, "options", "name",
                             "gm-channel", "type", 7, "value", GM_CHANNEL);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static void test_secret_roll_private_and_in_gm_channel(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    /* only admins set the GM channel */
    json_t *cb = config_gm_channel(&h, "0");
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "data"), "flags")), 64);
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_object_get(cb, "data"), "content")),
                           "needs the Manage Server permission"));
    json_decref(cb);
    cb = config_gm_channel(&h, ADMIN_PERMS);
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_object_get(cb, "data"), "content")),
                           "<#" GM_CHANNEL ">"));
    json_decref(cb);

    since = harness_last_request(&h);
    cb = command(&h, ALICE, "roll",
                 json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:b}]", "name", "dice",
                           "value", "3d6", "name", "label", "value",
                           "Stealth", "name", "secret", "value", 1));
    json_t *data = json_object_get(cb, "data");
    assert_int_equal(json_integer_value(json_object_get(data, "flags")), 64);
    json_decref(cb);
    json_t *copy = harness_wait_request(&h, "POST", "/channels/" GM_CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(copy);
    json_t *e = json_array_get(json_object_get(json_object_get(copy, "body"),
                                               "embeds"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(e, "title")),
                           "rolls in secret: Stealth"));
    json_decref(copy);
    /* nothing public went anywhere else */
    json_t *others = harness_requests(&h, "POST", "/messages", &since);
    assert_int_equal(json_array_size(others), 0);
    json_decref(others);
    /* an open roll is not copied */
    ok(command(&h, ALICE, "roll", json_pack("[{s:s,s:s}]", "name", "dice",
                                            "value", "1d20")));
    fake_sleep_ms(300);
    others = harness_requests(&h, "POST", "/channels/" GM_CHANNEL, &since);
    assert_int_equal(json_array_size(others), 0);
    json_decref(others);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* /config gm-channel:<channel> as user with perms; resolved (may be NULL)
 * is merged over the channel Discord resolves. */
static json_t *config_as(struct harness *h, const char *user,
                         const char *perms, const char *channel,
                         json_t *resolved)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:i, s:s}]}",
                             "type", "command", "name", "config", "user_id",
                             user, "permissions", perms, "options", "name",
                             "gm-channel", "type", 7, "value", channel);
    if (resolved != NULL)
        json_object_set_new(desc, "resolved", resolved);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* A private refusal whose text has want. */
static void refused(json_t *cb, const char *want)
{
    json_t *data = json_object_get(cb, "data");
    const char *text = json_string_value(json_object_get(data, "content"));
    assert_int_equal(json_integer_value(json_object_get(data, "flags")), 64);
    if (text == NULL || strstr(text, want) == NULL)
        fail_msg("expected a refusal with \"%s\", got: %s", want,
                 text ? text : "(no content)");
    json_decref(cb);
}

/* member.permissions includes the channel's overwrites: a member whose
 * Manage Channels is a grant on their own room (what temporary-voice bots
 * give) must not move the server's GM channel there, and every secret roll
 * after stays where the server's managers put it. The channel must be one
 * Discord resolved, of this server, and a text channel. */
static void test_config_refuses_channel_scoped_manage_channels(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    refused(config_as(&h, BOB, ROOM_MANAGER_PERMS, BOB_ROOM, NULL),
            "needs the Manage Server permission");
    refused(config_as(&h, BOB, MANAGE_CHANNELS_PERMS, BOB_ROOM, NULL),
            "Manage Server");
    /* the server's managers may */
    const char *const managers[] = {ADMIN_PERMS, MANAGE_SERVER_PERMS};
    for (size_t i = 0; i < 2; i++) {
        json_t *cb = config_as(&h, GM, managers[i], GM_CHANNEL, NULL);
        assert_non_null(strstr(json_string_value(json_object_get(
                                   json_object_get(cb, "data"), "content")),
                               "<#" GM_CHANNEL ">"));
        json_decref(cb);
    }
    /* still refused after the GM channel is set */
    refused(config_as(&h, BOB, ROOM_MANAGER_PERMS, BOB_ROOM, NULL),
            "Manage Server");
    /* an administrator, but the channel is not one the server's GM notes
     * can go to */
    json_t *voice = json_pack("{s:{s:{s:i}}}", "channels", BOB_ROOM, "type",
                              2);
    refused(config_as(&h, GM, ADMIN_PERMS, BOB_ROOM, voice),
            "not a text channel");
    json_t *elsewhere = json_pack("{s:{s:{s:s}}}", "channels", BOB_ROOM,
                                  "guild_id", "1100000000000000999");
    refused(config_as(&h, GM, ADMIN_PERMS, BOB_ROOM, elsewhere),
            "of this server");

    since = harness_last_request(&h);
    json_decref(command(&h, ALICE, "roll",
                        json_pack("[{s:s,s:s},{s:s,s:b}]", "name", "dice",
                                  "value", "1d20", "name", "secret", "value",
                                  1)));
    json_t *copy = harness_wait_request(&h, "POST", "/channels/" GM_CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(copy);
    json_decref(copy);
    json_t *leaked = harness_requests(&h, "POST", "/channels/" BOB_ROOM,
                                      &since);
    assert_int_equal(json_array_size(leaked), 0);
    json_decref(leaked);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_hidden_attack_numbers_only_in_gm_channel(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    json_decref(config_gm_channel(&h, ADMIN_PERMS));
    json_decref(fight(&h));
    since = harness_last_request(&h);
    json_t *cb = command(&h, GM, "attack",
                         json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:s}]", "name",
                                   "attacker", "value", "Shade", "name",
                                   "target", "value", "Aria", "name",
                                   "damage", "value", "1d6"));
    json_t *data = json_object_get(cb, "data");
    assert_int_equal(json_integer_value(json_object_get(data, "flags")), 0);
    const char *pub = json_string_value(json_object_get(
        json_array_get(json_object_get(data, "embeds"), 0), "description"));
    /* the table sees an unseen attacker and the outcome, never its name */
    assert_non_null(strstr(pub, "_Someone unseen_ attacks **Aria**"));
    assert_null(strstr(pub, "Shade"));
    assert_null(strstr(pub, " vs "));
    json_decref(cb);
    json_t *copy = harness_wait_request(&h, "POST", "/channels/" GM_CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(copy);
    const char *gm = json_string_value(json_object_get(
        json_array_get(json_object_get(json_object_get(copy, "body"),
                                       "embeds"), 0), "description"));
    assert_non_null(strstr(gm, "**Shade** attacks **Aria**"));
    assert_non_null(strstr(gm, " vs 12"));
    json_decref(copy);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A raw /roll (or other) interaction whose snowflake says it was made
 * age_ms ago. */
static json_t *old_interaction(struct harness *h, const char *command_json,
                               int age_ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long ms = (unsigned long long)ts.tv_sec * 1000 +
                            (unsigned long long)ts.tv_nsec / 1000000 -
                            (unsigned long long)age_ms;
    unsigned long long id = ((ms - 1420070400000ull) << 22) | 7;
    char desc[2048];
    snprintf(desc, sizeof desc,
             "{\"raw\":{\"id\":\"%llu\",\"type\":2,"
             "\"guild_id\":\"1100000000000000100\","
             "\"channel_id\":\"1100000000000000200\","
             "\"member\":{\"user\":{\"id\":\"" ALICE "\","
             "\"username\":\"alice\"},\"permissions\":\"0\"},"
             "\"data\":%s}}", id, command_json);
    json_t *r = fake_inject(h->fake.port, desc);
    assert_non_null(r);
    return r;
}

static void test_old_interaction_is_deferred(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    /* public: type 5, then @original is edited with the answer */
    json_t *r = old_interaction(&h, "{\"name\":\"roll\",\"type\":1,"
                                "\"options\":[{\"name\":\"dice\",\"type\":3,"
                                "\"value\":\"2d6\"}]}", 2000);
    const char *rid = json_string_value(json_object_get(r, "id"));
    json_t *cb = harness_callback(&h, rid);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "body"), "type")), 5);
    json_decref(cb);
    json_decref(r);
    json_t *edit = harness_wait_request(&h, "PATCH", "/messages/@original",
                                        &since, WAIT_MS);
    assert_non_null(edit);
    assert_int_equal(json_integer_value(json_object_get(edit, "status")), 200);
    assert_non_null(json_object_get(json_object_get(edit, "body"), "embeds"));
    json_decref(edit);

    /* acknowledged in public but refused: a private followup, and the
     * "thinking" message is deleted */
    r = old_interaction(&h, "{\"name\":\"combat\",\"type\":1,\"options\":"
                        "[{\"name\":\"next\",\"type\":1,\"options\":[]}]}",
                        2000);
    json_decref(harness_callback(&h, json_string_value(
                                         json_object_get(r, "id"))));
    json_decref(r);
    /* the two go out together and may be recorded in either order: each
     * is looked for from here */
    long long since_del = since;
    json_t *fu = harness_wait_request(&h, "POST", "/webhooks/", &since,
                                      WAIT_MS);
    assert_non_null(fu);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(fu, "body"), "flags")), 64);
    json_decref(fu);
    json_t *del = harness_wait_request(&h, "DELETE", "/messages/@original",
                                       &since_del, WAIT_MS);
    assert_non_null(del);
    json_decref(del);
    if (since_del > since)
        since = since_del;
    /* a fresh interaction is still answered at once */
    char id[32];
    harness_roll(&h, id);
    cb = harness_callback(&h, id);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "body"), "type")), 4);
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_callback_5xx_retried(void **st)
{
    struct harness h;
    char id[32];
    (void)st;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"rest\",\"path\":\"/callback\","
                                "\"status\":502,\"count\":2}"),
                     200);
    harness_roll(&h, id);
    json_t *cb = harness_callback(&h, id);
    json_decref(cb);
    assert_int_equal(fake_stat(h.fake.port, "rest_5xx"), 2);
    long long from = 0;
    json_t *tries = harness_requests(&h, "POST", "/callback", &from);
    assert_int_equal(json_array_size(tries), 3);   /* 502, 502, 204 */
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(tries, 2), "status")), 204);
    json_decref(tries);
    assert_int_equal(fake_stat(h.fake.port, "answered"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn_notice_mentions_exactly_one_user),
        cmocka_unit_test(test_autocomplete_filtered_by_ownership),
        cmocka_unit_test(test_secret_roll_private_and_in_gm_channel),
        cmocka_unit_test(test_hidden_attack_numbers_only_in_gm_channel),
        cmocka_unit_test(test_config_refuses_channel_scoped_manage_channels),
        cmocka_unit_test(test_old_interaction_is_deferred),
        cmocka_unit_test(test_callback_5xx_retried),
    };
    return cmocka_run_group_tests_name("daemon_ux", tests, NULL, NULL);
}
