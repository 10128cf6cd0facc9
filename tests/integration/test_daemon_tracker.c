/* test_daemon_tracker.c - the live tracker through fake-discord: posted and
 * pinned at /combat begin, edited after each kind of change (turn, hp,
 * conditions, order), rapid changes coalesced into one edit, a refused pin
 * told once, a deleted tracker posted again, finished and unpinned at the
 * end; its buttons and menu act, and a stale click changes nothing. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define ALICE "1100000000000000302"
#define BOB "1100000000000000303"
#define CHANNEL "1100000000000000200"
#define WAIT_MS 4000

/* Run /combat <sub> as user with options (a JSON array, stolen; NULL for
 * none); returns the callback body. */
static json_t *combat(struct harness *h, const char *user, const char *sub,
                      json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                             "command", "name", "combat", "user_id", user,
                             "options", "name", sub, "options",
                             opts ? opts : json_array());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static void ok(json_t *cb)
{
    json_t *data = json_object_get(cb, "data");
    if (json_integer_value(json_object_get(data, "flags")) & 64) {
        char *s = json_dumps(cb, 0);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* GM starts a generic fight: two goblins, Aria (Alice, acts first: init
 * =30) and Bryn (Bob), then begins it. */
static void fight(struct harness *h, const char *system)
{
    ok(combat(h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                        "value", system)));
    ok(combat(h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:i},"
                                      "{s:s,s:s}]",
                                      "name", "name", "value", "Goblin",
                                      "name", "count", "value", 2,
                                      "name", "hp", "value", 7,
                                      "name", "init", "value", "=5")));
    ok(combat(h, ALICE, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                          "name", "name", "value", "Aria",
                                          "name", "hp", "value", 20,
                                          "name", "init", "value", "=30")));
    ok(combat(h, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18,
                                        "name", "init", "value", "=20")));
}

/* The tracker's embed text (title, description, footer) in a request body
 * or a message. */
static void embed_text(json_t *body, char *out, size_t cap)
{
    json_t *e = json_array_get(json_object_get(body, "embeds"), 0);
    snprintf(out, cap, "%s\n%s\n%s",
             json_string_value(json_object_get(e, "title")),
             json_string_value(json_object_get(e, "description")),
             json_string_value(json_object_get(json_object_get(e, "footer"),
                                               "text")));
}

/* Whether text has needle; "@Name" means: Name's turn is running (the
 * tracker line with the turn marker names them). */
static bool shows(const char *text, const char *needle)
{
    if (needle[0] != '@')
        return strstr(text, needle) != NULL;
    const char *cur = strstr(text, "\xE2\x96\xB6 ");
    char name[80];
    snprintf(name, sizeof name, "**%s**", needle + 1);
    if (cur == NULL)
        return false;
    const char *eol = strchr(cur, '\n');
    const char *hit = strstr(cur, name);
    return hit != NULL && (eol == NULL || hit < eol);
}

/* Wait for an edit of the tracker whose embed shows needle. */
static json_t *wait_edit(struct harness *h, const char *msg_id,
                         long long *since, const char *needle)
{
    char part[96], text[8192];
    snprintf(part, sizeof part, "/channels/" CHANNEL "/messages/%s", msg_id);
    for (;;) {
        json_t *r = harness_wait_request(h, "PATCH", part, since, WAIT_MS);
        if (!r) {
            harness_dump_log(h);
            fail_msg("no tracker edit showing \"%s\"", needle);
        }
        embed_text(json_object_get(r, "body"), text, sizeof text);
        if (shows(text, needle)) {
            assert_int_equal(json_integer_value(json_object_get(r, "status")),
                             200);
            return r;
        }
        json_decref(r);
    }
}

/* Begin the fight and return the tracker's message id (static buffer). */
static const char *begin(struct harness *h, long long *since)
{
    static char id[32];
    ok(combat(h, GM, "begin", NULL));
    json_t *post = harness_wait_request(h, "POST", "/channels/" CHANNEL
                                        "/messages", since, WAIT_MS);
    assert_non_null(post);
    assert_int_equal(json_integer_value(json_object_get(post, "status")), 200);
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(
                 json_object_get(post, "response"), "id")));
    json_decref(post);
    return id;
}

/* The message as fake-discord holds it now. */
static json_t *message(struct harness *h, const char *id)
{
    json_t *all = fake_get_json(h->fake.port, "/_test/messages?channel_id="
                                CHANNEL, NULL), *m;
    size_t i;
    json_array_foreach(all, i, m) {
        if (strcmp(json_string_value(json_object_get(m, "id")), id) == 0) {
            json_incref(m);
            json_decref(all);
            return m;
        }
    }
    json_decref(all);
    return NULL;
}

/* The custom_id of the button labelled label on message m, or NULL. */
static const char *button(json_t *m, const char *label)
{
    json_t *row, *c;
    size_t i, k;
    json_array_foreach(json_object_get(m, "components"), i, row)
        json_array_foreach(json_object_get(row, "components"), k, c) {
            const char *l = json_string_value(json_object_get(c, "label"));
            if (l && strcmp(l, label) == 0)
                return json_string_value(json_object_get(c, "custom_id"));
        }
    return NULL;
}

static json_t *click(struct harness *h, const char *user, const char *msg_id,
                     const char *custom_id, const char *value)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:i}", "type",
                             "component", "user_id", user, "message_id",
                             msg_id, "custom_id", custom_id,
                             "component_type", value ? 3 : 2);
    if (value)
        json_object_set_new(desc, "values", json_pack("[s]", value));
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

static void test_tracker_posted_pinned_and_edited_on_every_change(void **st)
{
    struct harness h;
    long long since;
    char text[8192];
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    /* nothing is posted while the fight is being set up */
    json_decref(harness_requests(&h, NULL, NULL, &since));
    const char *id = begin(&h, &since);
    char tid[32];
    snprintf(tid, sizeof tid, "%s", id);
    json_t *pin = harness_wait_request(&h, "PUT", "/pins/", &since, WAIT_MS);
    assert_non_null(pin);
    assert_int_equal(json_integer_value(json_object_get(pin, "status")), 204);
    json_decref(pin);
    json_t *m = message(&h, tid);
    assert_true(json_is_true(json_object_get(m, "pinned")));
    embed_text(m, text, sizeof text);
    assert_non_null(strstr(text, "round 1"));
    assert_non_null(button(m, "End turn"));
    assert_non_null(button(m, "Undo"));
    json_decref(m);

    /* turn */
    ok(combat(&h, ALICE, "next", NULL));
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));
    /* hp */
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Goblin 1", "name",
                                      "change", "value", "-3")));
    json_decref(wait_edit(&h, tid, &since, "hp 4/7"));
    /* conditions */
    ok(combat(&h, BOB, "condition", json_pack("[{s:s,s:s},{s:s,s:s}]",
                                              "name", "name", "value", "Bryn",
                                              "name", "condition", "value",
                                              "Poisoned")));
    json_decref(wait_edit(&h, tid, &since, "Poisoned"));
    /* order: a late arrival joins it */
    ok(combat(&h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                       "name", "value", "Ogre", "name",
                                       "init", "value", "=10")));
    json_decref(wait_edit(&h, tid, &since, "Ogre"));
    /* undo (GM) */
    ok(combat(&h, GM, "undo", NULL));
    json_t *e = wait_edit(&h, tid, &since, "Goblin 1");
    embed_text(json_object_get(e, "body"), text, sizeof text);
    assert_null(strstr(text, "Ogre"));
    json_decref(e);

    /* the end: a last edit without buttons, then unpinned */
    ok(combat(&h, GM, "end", NULL));
    e = wait_edit(&h, tid, &since, "finished");
    assert_int_equal(json_array_size(json_object_get(
                         json_object_get(e, "body"), "components")), 0);
    json_decref(e);
    json_t *unpin = harness_wait_request(&h, "DELETE", "/pins/", &since,
                                         WAIT_MS);
    assert_non_null(unpin);
    json_decref(unpin);
    m = message(&h, tid);
    assert_false(json_is_true(json_object_get(m, "pinned")));
    json_decref(m);
    /* one tracker for the whole fight */
    long long from = 0;
    json_t *posts = harness_requests(&h, "POST", "/channels/" CHANNEL
                                     "/messages", &from);
    assert_int_equal(json_array_size(posts), 1);
    json_decref(posts);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_coalesces_rapid_changes(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    char tid[32];
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    /* seven changes right after the tracker was posted */
    ok(combat(&h, ALICE, "next", NULL));
    for (int i = 0; i < 6; i++)
        ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value", "Bryn", "name",
                                          "change", "value", "-1")));
    json_decref(wait_edit(&h, tid, &since, "hp 12/18"));
    fake_sleep_ms(1500);
    char part[96];
    snprintf(part, sizeof part, "/channels/" CHANNEL "/messages");
    long long from = 0;
    json_t *edits = harness_requests(&h, NULL, part, &from);
    /* the post and then at most one write a second: here a single edit
     * carries all seven changes */
    assert_true(json_array_size(edits) >= 2);
    assert_true(json_array_size(edits) <= 3);
    for (size_t i = 1; i < json_array_size(edits); i++) {
        double a = json_number_value(json_object_get(
            json_array_get(edits, i - 1), "t_ms"));
        double b = json_number_value(json_object_get(
            json_array_get(edits, i), "t_ms"));
        assert_true(b - a >= 900);
    }
    json_decref(edits);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_pin_refused_told_once(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"rest\",\"path\":\"/pins/\","
                                "\"method\":\"PUT\",\"status\":403,"
                                "\"count\":-1,\"body\":{\"code\":50013,"
                                "\"message\":\"Missing Permissions\"}}"),
                     200);
    since = harness_last_request(&h);
    fight(&h, "generic");
    char tid[32];
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    /* the GM is told, privately, through the begin interaction */
    json_t *note = harness_wait_request(&h, "POST", "/webhooks/", &since,
                                        WAIT_MS);
    assert_non_null(note);
    json_t *body = json_object_get(note, "body");
    assert_int_equal(json_integer_value(json_object_get(body, "flags")), 64);
    assert_non_null(strstr(json_string_value(json_object_get(body,
                                                             "content")),
                           "could not pin"));
    json_decref(note);
    /* the fight carries on, unpinned; no second try, no second notice */
    ok(combat(&h, ALICE, "next", NULL));
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));
    long long from = 0;
    json_t *pins = harness_requests(&h, "PUT", "/pins/", &from);
    assert_int_equal(json_array_size(pins), 1);
    json_decref(pins);
    from = 0;
    json_t *notes = harness_requests(&h, "POST", "/webhooks/", &from);
    assert_int_equal(json_array_size(notes), 1);
    json_decref(notes);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_deleted_is_posted_again(void **st)
{
    struct harness h;
    long long since;
    struct fake_resp r;
    char path[128];
    const char *auth[] = {"Authorization: Bot fake-token",
                          "User-Agent: DiscordBot (test, 1)", NULL};
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    char tid[32];
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    json_decref(harness_wait_request(&h, "PUT", "/pins/", &since, WAIT_MS));
    /* someone deletes the tracker */
    snprintf(path, sizeof path, "/api/v10/channels/" CHANNEL "/messages/%s",
             tid);
    assert_int_equal(fake_request(h.fake.port, "DELETE", path, auth, NULL,
                                  &r), 0);
    assert_int_equal(r.status, 204);
    fake_resp_free(&r);
    since = harness_last_request(&h);
    /* the next change finds it gone and posts a new one, pinned */
    ok(combat(&h, ALICE, "next", NULL));
    json_t *post = harness_wait_request(&h, "POST", "/channels/" CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(post);
    const char *nid = json_string_value(json_object_get(
        json_object_get(post, "response"), "id"));
    assert_string_not_equal(nid, tid);
    char text[8192];
    embed_text(json_object_get(post, "body"), text, sizeof text);
    assert_true(shows(text, "@Bryn"));
    json_t *pin = harness_wait_request(&h, "PUT", nid, &since, WAIT_MS);
    assert_non_null(pin);
    json_decref(pin);
    json_decref(post);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_buttons_act_and_stale_click_refused(void **st)
{
    struct harness h;
    long long since;
    char text[8192], stale[128];
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    char tid[32];
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    json_t *m = message(&h, tid);
    snprintf(stale, sizeof stale, "%s", button(m, "End turn"));
    assert_non_null(strstr(stale, "v1:combat/next:"));
    json_decref(m);

    /* Aria's player ends her turn from the tracker: a new public message
     * (the tracker itself is edited, not replaced) */
    json_t *cb = click(&h, ALICE, tid, stale, NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "data"), "flags")), 0);
    json_decref(cb);
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));

    /* the same button again is stale: refused privately with the current
     * tracker, and nothing changes */
    cb = click(&h, BOB, tid, stale, NULL);
    json_t *data = json_object_get(cb, "data");
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(json_integer_value(json_object_get(data, "flags")), 64);
    assert_non_null(strstr(json_string_value(json_object_get(data,
                                                             "content")),
                           "older state"));
    embed_text(data, text, sizeof text);
    assert_true(shows(text, "@Bryn"));
    json_decref(cb);
    fake_sleep_ms(1300);
    char part[96];
    snprintf(part, sizeof part, "/messages/%s", tid);
    json_t *more = harness_requests(&h, "PATCH", part, &since);
    assert_int_equal(json_array_size(more), 0);
    json_decref(more);

    /* Undo on the tracker is the GM's */
    m = message(&h, tid);
    char undo[128];
    snprintf(undo, sizeof undo, "%s", button(m, "Undo"));
    json_decref(m);
    cb = click(&h, BOB, tid, undo, NULL);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "data"), "flags")), 64);
    json_decref(cb);
    ok(click(&h, GM, tid, undo, NULL));
    json_decref(wait_edit(&h, tid, &since, "@Aria"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_alternating_menu_and_pass(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    ok(combat(&h, GM, "start", json_pack("[{s:s,s:s}]", "name", "system",
                                         "value", "factions")));
    ok(combat(&h, ALICE, "join", json_pack(
        "[{s:s,s:s},{s:s,s:s},{s:s,s:i},{s:s,s:s}]", "name", "name",
        "value", "Balthasar", "name", "side", "value", "Players", "name",
        "hp", "value", 10, "name", "stats", "value",
        "str=9 agi=11 wit=12")));
    ok(combat(&h, GM, "add", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s},{s:s,s:i},{s:s,s:s}]", "name",
        "name", "value", "Bandit", "name", "count", "value", 2, "name",
        "side", "value", "Bandits", "name", "hp", "value", 6, "name",
        "stats", "value", "str=10 agi=10 wit=8")));
    ok(combat(&h, GM, "begin", json_pack("[{s:s,s:s}]", "name", "first",
                                         "value", "Players")));
    json_t *post = harness_wait_request(&h, "POST", "/channels/" CHANNEL
                                        "/messages", &since, WAIT_MS);
    assert_non_null(post);
    char tid[32];
    snprintf(tid, sizeof tid, "%s", json_string_value(json_object_get(
                 json_object_get(post, "response"), "id")));
    json_decref(post);
    json_t *m = message(&h, tid);
    /* the acting side chooses: a menu of its members, and Pass */
    json_t *row, *sel = NULL;
    size_t i;
    json_array_foreach(json_object_get(m, "components"), i, row) {
        json_t *c = json_array_get(json_object_get(row, "components"), 0);
        if (json_integer_value(json_object_get(c, "type")) == 3)
            sel = c;
    }
    assert_non_null(sel);
    char sid[128];
    snprintf(sid, sizeof sid, "%s",
             json_string_value(json_object_get(sel, "custom_id")));
    assert_non_null(strstr(sid, "v1:combat/pick:"));
    json_t *opts = json_object_get(sel, "options");
    assert_int_equal(json_array_size(opts), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(opts, 0), "value")),
                        "Balthasar");
    assert_non_null(button(m, "Pass"));
    assert_null(button(m, "End turn"));
    json_decref(m);
    /* picking from the menu starts Balthasar's turn */
    ok(click(&h, ALICE, tid, sid, "Balthasar"));
    json_t *e = wait_edit(&h, tid, &since, "@Balthasar");
    json_decref(e);
    m = message(&h, tid);
    assert_non_null(button(m, "End turn"));
    json_decref(m);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracker_posted_pinned_and_edited_on_every_change),
        cmocka_unit_test(test_tracker_coalesces_rapid_changes),
        cmocka_unit_test(test_tracker_pin_refused_told_once),
        cmocka_unit_test(test_tracker_deleted_is_posted_again),
        cmocka_unit_test(test_tracker_buttons_act_and_stale_click_refused),
        cmocka_unit_test(test_tracker_alternating_menu_and_pass),
    };
    return cmocka_run_group_tests_name("daemon_tracker", tests, NULL, NULL);
}
