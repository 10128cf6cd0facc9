/* test_daemon_tracker_life.c - what happens to the live tracker around it:
 * rapid changes coalesce into one edit a second, a refused pin is told
 * once and the fight goes on unpinned, a deleted tracker is posted again by
 * the next change, a restarted fray keeps editing the same message, and
 * SIGTERM sends a pending edit before exiting. */
#include "tracker_util.h"

#include <signal.h>

static void test_tracker_coalesces_rapid_changes(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    char tid[32];
    start_fight(&h, NULL, &since, tid);
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

    char tid[32];
    start_fight(&h,
                "{\"kind\":\"rest\",\"path\":\"/pins/\",\"method\":\"PUT\","
                "\"status\":403,\"count\":-1,\"body\":{\"code\":50013,"
                "\"message\":\"Missing Permissions\"}}",
                &since, tid);
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
    char path[128], bot[TSCAN_TOKEN_CAP + 32];
    const char *auth[] = {bot, "User-Agent: DiscordBot (test, 1)", NULL};
    (void)st;

    char tid[32];
    start_fight(&h, NULL, &since, tid);
    snprintf(bot, sizeof bot, "Authorization: Bot %s", h.token);
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

static void test_tracker_survives_restart(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    char tid[32];
    start_fight(&h, NULL, &since, tid);
    json_decref(harness_wait_request(&h, "PUT", "/pins/", &since, WAIT_MS));
    kill(h.fray, SIGKILL);
    assert_true(harness_wait_exit(&h, 3000) >= 0);
    harness_start_fray(&h, NULL);
    assert_int_equal(fake_wait_stat(h.fake.port, "resumes_ok", 1, 8000), 0);
    /* the same message is edited; nothing new is posted or pinned */
    ok(combat(&h, ALICE, "next", NULL));
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));
    json_t *posts = harness_requests(&h, "POST", "/channels/", &since);
    assert_int_equal(json_array_size(posts), 0);
    json_decref(posts);
    /* and the end still unpins it */
    ok(combat(&h, GM, "end", json_pack("[{s:s, s:b}]", "name", "confirm",
                                       "value", 1)));
    json_decref(wait_edit(&h, tid, &since, "finished"));
    json_t *unpin = harness_wait_request(&h, "DELETE", tid, &since, WAIT_MS);
    assert_non_null(unpin);
    json_decref(unpin);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_tracker_pending_edit_sent_on_sigterm(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    char tid[32];
    start_fight(&h, NULL, &since, tid);
    /* within the second after the post: the edit waits for its turn */
    ok(combat(&h, ALICE, "next", NULL));
    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 6000), 0);
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracker_coalesces_rapid_changes),
        cmocka_unit_test(test_tracker_pin_refused_told_once),
        cmocka_unit_test(test_tracker_deleted_is_posted_again),
        cmocka_unit_test(test_tracker_survives_restart),
        cmocka_unit_test(test_tracker_pending_edit_sent_on_sigterm),
    };
    return cmocka_run_group_tests_name("daemon_tracker_life", tests, NULL,
                                       NULL);
}
