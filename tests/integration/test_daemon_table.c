/* test_daemon_table.c - what the table sees through fake-discord (issue
 * 19): /roll and /help answer in a DM with the bot, a fight's commands
 * there are refused plainly; a button of an earlier fight does nothing to
 * the next fight in the channel; the end asks first and sums the fight
 * up; the turn notice and the tracker, as the fake recorded them. */
#include "tracker_util.h"

static void test_roll_and_help_in_a_dm(void **st)
{
    struct harness h;
    char text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    json_t *cb = dm(&h, "roll", json_pack("[{s:s,s:s}]", "name", "dice",
                                          "value", "2d6+3 fire"));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "rolls: fire"));
    assert_non_null(strstr(text, "2d6"));
    json_decref(cb);
    cb = dm(&h, "help", NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    /* it says what works here, and how fights run elsewhere */
    assert_non_null(strstr(content_of(cb), "`/roll`"));
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "/combat start"));
    json_decref(cb);
    /* a fight needs a server's channel: said, not ignored */
    cb = dm(&h, "combat", json_pack("[{s:s,s:[{s:s,s:s}]}]", "name", "start",
                                    "options", "name", "system", "value",
                                    "generic"));
    if ((flags_of(cb) & 64) == 0) {
        char *d = json_dumps(cb, 0);
        fail_msg("/combat start in a DM: %s", d);
    }
    assert_non_null(content_of(cb));
    assert_non_null(strstr(content_of(cb), "server"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_old_fight_button_does_nothing(void **st)
{
    struct harness h;
    long long since;
    char text[8192], undo[128], end[128];
    (void)st;
    char tid[32];
    start_fight(&h, NULL, &since, tid);
    json_t *m = message(&h, tid);
    snprintf(undo, sizeof undo, "%s", button(m, "Undo (GM)"));
    json_decref(m);
    ok(combat(&h, ALICE, "next", NULL));
    json_decref(wait_edit(&h, tid, &since, "@Bryn"));

    /* the end asks first, privately, with a button; nothing ends yet */
    json_t *cb = combat(&h, GM, "end", NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "/combat reopen"));
    const char *b = button(json_object_get(cb, "data"), "End the fight");
    assert_non_null(b);
    snprintf(end, sizeof end, "%s", b);
    json_decref(cb);
    /* the button ends it, with the summary */
    cb = click(&h, GM, tid, end, NULL);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "It lasted 1 round"));
    json_decref(cb);
    json_decref(wait_edit(&h, tid, &since, "finished"));

    /* a second fight in the channel reaches the same version */
    fight(&h, "generic");
    const char *tid2 = begin(&h, &since);
    char second[32];
    snprintf(second, sizeof second, "%s", tid2);
    ok(combat(&h, ALICE, "next", NULL));
    json_decref(wait_edit(&h, second, &since, "@Bryn"));
    /* the first fight's Undo: refused, and nothing changes */
    cb = click(&h, GM, tid, undo, NULL);
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(strstr(content_of(cb), "earlier fight"));
    json_decref(cb);
    fake_sleep_ms(1300);
    char part[96];
    snprintf(part, sizeof part, "/messages/%s", second);
    json_t *more = harness_requests(&h, "PATCH", part, &since);
    assert_int_equal(json_array_size(more), 0);
    json_decref(more);
    m = message(&h, second);
    embed_text(m, text, sizeof text);
    assert_true(shows(text, "@Bryn"));
    json_decref(m);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The turn notice pings the player and says where they stand; the
 * tracker's footer says the round and whose turn it is, and its Undo
 * button says whose it is. */
static void test_turn_notice_and_tracker_json(void **st)
{
    struct harness h;
    long long since;
    char text[8192];
    (void)st;
    char tid[32];
    harness_start(&h, NULL, NULL, true);
    since = harness_last_request(&h);
    fight(&h, "generic");
    ok(combat(&h, BOB, "condition", json_pack(
        "[{s:s,s:s},{s:s,s:s},{s:s,s:i}]", "name", "name", "value", "Bryn",
        "name", "condition", "value", "Blessed", "name", "rounds", "value",
        3)));
    snprintf(tid, sizeof tid, "%s", begin(&h, &since));
    json_t *cb = combat(&h, ALICE, "next", NULL);
    /* the notice is V2: its text in the container's Text Displays */
    static char c[8192];
    embed_text(json_object_get(cb, "data"), c, sizeof c);
    assert_non_null(strstr(c, "<@" BOB ">, it is your turn: **Bryn** hp "
                              "18/18"));
    assert_non_null(strstr(c, "Blessed (3r)"));
    json_t *am = json_object_get(json_object_get(cb, "data"),
                                 "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(am, "users"), 0)), BOB);
    json_decref(cb);
    json_t *e = wait_edit(&h, tid, &since, "@Bryn");
    embed_text(json_object_get(e, "body"), text, sizeof text);
    assert_non_null(strstr(text, "round 1 \xC2\xB7 Bryn's turn"));
    assert_null(strstr(text, "version"));
    assert_non_null(button(json_object_get(e, "body"), "Undo (GM)"));
    json_decref(e);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roll_and_help_in_a_dm),
        cmocka_unit_test(test_old_fight_button_does_nothing),
        cmocka_unit_test(test_turn_notice_and_tracker_json),
    };
    return cmocka_run_group_tests_name("daemon_table", tests, NULL, NULL);
}
