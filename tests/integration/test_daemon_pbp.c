/* test_daemon_pbp.c - play-by-post through fake-discord: /combat log
 * arrives as a Markdown attachment (multipart: payload_json declaring it,
 * files[0] holding it), read back from the fake and checked against the
 * fight's own replies (the rolls with their dice, who did what, nothing
 * hidden in a player's copy); /combat recap of a long fight fits one
 * message within Discord's limits and says what it left out. */
#include "tracker_util.h"

#include <stdlib.h>

/* Notes the GM writes while a player is away: more than one recap holds
 * (each line of it is some 90 bytes, one message some 5,400). */
#define RECAP_NOTES 90

/* /combat <sub> as user, whose display name is gname. */
static json_t *as(struct harness *h, const char *user, const char *gname,
                  const char *sub, json_t *opts)
{
    return combat_in(h, NULL, user, gname, sub, opts);
}

/* The first embed's description of a callback (its data). */
static const char *description(json_t *cb)
{
    json_t *e = json_array_get(json_object_get(json_object_get(cb, "data"),
                                               "embeds"), 0);
    return json_string_value(json_object_get(e, "description"));
}

/* The next request after *since that carried a file; fails without. */
static json_t *wait_file(struct harness *h, long long *since)
{
    for (;;) {
        json_t *r = harness_wait_request(h, NULL, NULL, since, WAIT_MS);
        if (r == NULL) {
            harness_dump_log(h);
            fail_msg("no request with a file");
        }
        if (json_array_size(json_object_get(r, "files")) > 0)
            return r;
        json_decref(r);
    }
}

/* Bridge ambush: two goblins, a hidden Shade (4321 hp), Aria (Alice),
 * Bryn (Bob); Aria attacks, the GM hurts the Shade. Returns the attack's
 * reply text (heap). */
static char *ambush(struct harness *h)
{
    ok(as(h, GM, "Gamemaster", "start", json_pack(
        "[{s:s,s:s},{s:s,s:s}]", "name", "system", "value", "generic",
        "name", "name", "value", "Bridge ambush")));
    ok(as(h, GM, "Gamemaster", "add", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:s}]", "name", "name", "value",
        "Goblin", "name", "hp", "value", 7, "name", "init", "value", "=5",
        "name", "stats", "value", "ac=13")));
    /* what only the hidden one does is answered to the GM privately */
    json_decref(as(h, GM, "Gamemaster", "add", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:b}]", "name", "name", "value",
        "Shade", "name", "hp", "value", 4321, "name", "init", "value", "=4",
        "name", "hidden", "value", 1)));
    ok(as(h, ALICE, "Aria's player", "join", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:s}]", "name", "name", "value",
        "Aria", "name", "hp", "value", 20, "name", "init", "value", "=30",
        "name", "stats", "value", "ac=15 attack=5")));
    ok(as(h, BOB, "Bryn's player", "join", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s}]", "name", "name", "value", "Bryn",
        "name", "hp", "value", 18, "name", "init", "value", "=20")));
    ok(as(h, GM, "Gamemaster", "begin", NULL));
    json_t *desc = json_pack("{s:s,s:s,s:s,s:s,s:[{s:s,s:s},{s:s,s:s}]}",
                             "type", "command", "name", "attack", "user_id",
                             ALICE, "global_name", "Aria's player", "options",
                             "name", "target", "value", "Goblin", "name",
                             "damage", "value", "2d8+4");
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    const char *d = description(cb);
    assert_non_null(d);
    char *attack = strdup(d);
    json_decref(cb);
    json_decref(as(h, GM, "Gamemaster", "hp", json_pack(
        "[{s:s,s:s},{s:s,s:s}]", "name", "name", "value", "Shade", "name",
        "change", "value", "-37")));
    return attack;
}

static void test_log_is_an_attachment(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    char *attack = ambush(&h);
    /* the attack showed its roll and each damage die */
    assert_non_null(strstr(attack, "**Aria** attacks **Goblin**"));
    assert_non_null(strstr(attack, "(["));

    long long since = harness_last_request(&h);
    json_t *cb = as(&h, BOB, "Bryn's player", "log", NULL);
    json_t *r = wait_file(&h, &since);
    json_t *files = json_object_get(r, "files");
    assert_int_equal(json_array_size(files), 1);
    json_t *f = json_array_get(files, 0);
    assert_string_equal(json_string_value(json_object_get(f, "field")),
                        "files[0]");
    assert_string_equal(json_string_value(json_object_get(f, "filename")),
                        "Bridge-ambush-log.md");
    assert_int_equal(json_integer_value(json_object_get(r, "status")) / 100,
                     2);
    /* declared in the payload: the callback's data, or the webhook
     * message's body when the answer was deferred */
    json_t *body = json_object_get(r, "body");
    json_t *msg = json_object_get(body, "data") ? json_object_get(body, "data")
                                                : body;
    json_t *att = json_array_get(json_object_get(msg, "attachments"), 0);
    assert_int_equal(json_integer_value(json_object_get(att, "id")), 0);
    assert_string_equal(json_string_value(json_object_get(att, "filename")),
                        "Bridge-ambush-log.md");
    /* posted for everyone */
    assert_false(json_integer_value(json_object_get(msg, "flags")) & 64);

    const char *log = json_string_value(json_object_get(f, "content"));
    assert_non_null(log);
    assert_int_equal((size_t)json_integer_value(json_object_get(f, "size")),
                     strlen(log));
    assert_non_null(strstr(log, "# Bridge ambush"));
    /* the attack as the table saw it, dice and all */
    if (strstr(log, attack) == NULL)
        fail_msg("the log lacks the attack as it was shown:\n%s\n---\n%s",
                 attack, log);
    /* who did what: the display names of the day */
    assert_non_null(strstr(log, "Gamemaster"));
    assert_non_null(strstr(log, "Aria's player"));
    assert_non_null(strstr(log, "Bryn's player"));
    const char *join = strstr(log, "**Bryn** joins the fight");
    assert_non_null(join);
    /* the heading just above Bryn's arrival names Bob's player */
    const char *head = join;
    while (head > log && strncmp(head, "## v", 4) != 0)
        head--;
    assert_true(strncmp(head, "## v", 4) == 0);
    assert_true(strstr(head, "Bryn's player") < join);
    /* nothing of the hidden one */
    assert_null(strstr(log, "Shade"));
    assert_null(strstr(log, "4321"));
    assert_null(strstr(log, "4284"));
    json_decref(r);
    json_decref(cb);

    /* the GM's copy: private, with the hidden numbers */
    cb = as(&h, GM, "Gamemaster", "log", json_pack("[{s:s,s:b}]", "name",
                                                   "gm", "value", 1));
    r = wait_file(&h, &since);
    log = json_string_value(json_object_get(json_array_get(
        json_object_get(r, "files"), 0), "content"));
    assert_non_null(strstr(log, "Shade"));
    assert_non_null(strstr(log, "4284"));
    json_decref(r);
    json_decref(cb);
    free(attack);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_recap_of_a_long_fight_fits(void **st)
{
    struct harness h;
    (void)st;
    /* a busy GM: the limits are test_daemon_flood's, not this test's */
    harness_start_conf(&h, NULL, NULL, true,
                       "[limits]\nuser_per_minute = 0\n"
                       "channel_per_minute = 0\n");
    free(ambush(&h));
    /* the GM keeps the fight busy while Alice is away */
    for (int i = 0; i < RECAP_NOTES; i++)
        ok(as(&h, GM, "Gamemaster", "set", json_pack(
            "[{s:s,s:s},{s:s,s:s}]", "name", "name", "value", "Goblin",
            "name", "note", "value", i % 2 ? "guarding the left stair with "
            "a rusty spear and a grudge" : "shouting for help from the "
            "tower, loudly")));
    json_t *cb = as(&h, ALICE, "Aria's player", "recap", NULL);
    json_t *data = json_object_get(cb, "data");
    /* private, within one message (the fake refuses anything over
     * Discord's limits, and the test fails on its violation) */
    assert_true(json_integer_value(json_object_get(data, "flags")) & 64);
    json_t *embeds = json_object_get(data, "embeds");
    assert_true(json_array_size(embeds) >= 1);
    assert_true(json_array_size(embeds) <= 10);
    char *all = json_dumps(embeds, 0);
    if (strstr(all, "earlier changes are not shown here") == NULL)
        fail_msg("no note on what was left out: %s", all);
    assert_non_null(strstr(all, "/combat log"));
    /* the newest change is there (8 changes before the notes); the
     * hidden one's is not */
    char newest[32];
    snprintf(newest, sizeof newest, "`v%d`", 8 + RECAP_NOTES);
    assert_non_null(strstr(all, newest));
    assert_null(strstr(all, "Shade"));
    free(all);
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_is_an_attachment),
        cmocka_unit_test(test_recap_of_a_long_fight_fits),
    };
    return cmocka_run_group_tests_name("daemon_pbp", tests, NULL, NULL);
}
