/* test_daemon_tracker.c - the live tracker through fake-discord: posted and
 * pinned at /combat begin, edited after each kind of change (turn, hp,
 * conditions, order, undo), finished and unpinned at the end; its buttons
 * and menu act, and a stale click changes nothing. */
#include "tracker_util.h"

static void test_tracker_posted_pinned_and_edited(void **st)
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
    assert_non_null(button(m, "Undo (GM)"));
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
    ok(combat(&h, GM, "end", json_pack("[{s:s, s:b}]", "name", "confirm",
                                       "value", 1)));
    e = wait_edit(&h, tid, &since, "finished");
    json_t *fin = json_object_get(json_object_get(e, "body"), "components");
    assert_null(component_find(fin, 2, NULL));
    assert_null(component_find(fin, 3, NULL));
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

static void test_tracker_buttons_act_and_stale_click_refused(void **st)
{
    struct harness h;
    long long since;
    char text[8192], stale[128];
    (void)st;

    char tid[32];
    start_fight(&h, NULL, &since, tid);
    json_t *m = message(&h, tid);
    snprintf(stale, sizeof stale, "%s", button(m, "End turn"));
    assert_non_null(strstr(stale, "v2:combat/next:"));
    json_decref(m);

    /* Aria's player ends her turn from the tracker: a new public message
     * (the tracker itself is edited, not replaced) */
    json_t *cb = click(&h, ALICE, tid, stale, NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    /* public (not 64): Bryn's turn notice, a V2 message (32768) */
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(cb, "data"), "flags")), 32768);
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
    snprintf(undo, sizeof undo, "%s", button(m, "Undo (GM)"));
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
    json_t *sel = component_find(json_object_get(m, "components"), 3, NULL);
    assert_non_null(sel);
    char sid[128];
    snprintf(sid, sizeof sid, "%s",
             json_string_value(json_object_get(sel, "custom_id")));
    assert_non_null(strstr(sid, "v2:combat/pick:"));
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
        cmocka_unit_test(test_tracker_posted_pinned_and_edited),
        cmocka_unit_test(test_tracker_buttons_act_and_stale_click_refused),
        cmocka_unit_test(test_tracker_alternating_menu_and_pass),
    };
    return cmocka_run_group_tests_name("daemon_tracker", tests, NULL, NULL);
}
