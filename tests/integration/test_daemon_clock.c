/* test_daemon_clock.c - the turn clock (/combat clock) through
 * fake-discord: a reminder reaches the player whose turn it is, and only
 * them (allowed_mentions.users is theirs alone, nothing parsed), with a
 * link to the tracker; a timer that fell due while fray was stopped fires
 * once when it starts again, saying it is late; a clock armed in a German
 * server (Discord's guild_locale, no /config language:) posts in German.
 *
 * Time: [fights] clock_speed (a test-only key) runs the turn clock an
 * hour a second, and clock_offset_s starts a restarted fray hours ahead,
 * so nothing here waits for real hours; every wait is for a request,
 * with a generous limit. */
#include "tracker_util.h"

#include <signal.h>
#include <stdlib.h>

#define CLOCK_WAIT_MS 30000
#define CLOCK_MAX_SKIPPED 40       /* messages without the needle */

/* A posted message's body as text (malloc'd): its content, or its
 * Components V2 text displays (a turn notice is drawn so). */
static char *body_text(const json_t *r)
{
    return json_dumps(json_object_get(r, "body"), 0);
}

/* The next message fray posts in the fight's channel whose content has
 * needle (others are skipped), or a failed test. */
static json_t *wait_post(struct harness *h, long long *since,
                         const char *needle)
{
    for (int skipped = 0;; skipped++) {
        if (skipped == CLOCK_MAX_SKIPPED) {
            harness_dump_log(h);
            fail_msg("%d messages, none saying \"%s\"", skipped, needle);
        }
        json_t *r = harness_wait_request(h, "POST", "/channels/" CHANNEL
                                         "/messages", since, CLOCK_WAIT_MS);
        if (r == NULL) {
            harness_dump_log(h);
            fail_msg("no message saying \"%s\"", needle);
        }
        char *c = body_text(r);
        bool has = c != NULL && strstr(c, needle) != NULL;
        free(c);
        if (has)
            return r;
        json_decref(r);
    }
}

/* How many messages since *since have needle in their content. */
static size_t count_posts(struct harness *h, long long since,
                          const char *needle)
{
    json_t *all = harness_requests(h, "POST", "/channels/" CHANNEL
                                   "/messages", &since);
    size_t n = 0, i;
    json_t *r;
    json_array_foreach(all, i, r) {
        char *c = body_text(r);
        n += c != NULL && strstr(c, needle) != NULL;
        free(c);
    }
    json_decref(all);
    return n;
}

static json_t *clock_opts(const char *remind, const char *act)
{
    return json_pack("[{s:s,s:s},{s:s,s:s}]", "name", "remind", "value",
                     remind, "name", "act", "value", act);
}

/* fray with the clock at an hour a second, the generic fight begun; the
 * tracker's message id (static). */
static const char *fast_fight(struct harness *h, long long *since)
{
    harness_start_conf(h, NULL, NULL, true,
                       "[fights]\nclock_speed = 3600\n");
    fight(h, "generic");
    *since = harness_last_request(h);
    return begin(h, since);
}

static void test_reminder_mentions_only_the_owner(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    char tid[32];
    snprintf(tid, sizeof tid, "%s", fast_fight(&h, &since));
    /* Aria (Alice) acts first; an hour is a second here, two days 48 s:
     * the deadline does not come during the test. */
    ok(combat(&h, GM, "clock", clock_opts("1h", "2d")));
    json_t *r = wait_post(&h, &since, "still waiting");
    json_t *body = json_object_get(r, "body");
    const char *content = json_string_value(json_object_get(body,
                                                            "content"));
    assert_non_null(strstr(content, "<@" ALICE ">"));
    assert_null(strstr(content, "<@" BOB ">"));
    assert_null(strstr(content, "<@" GM ">"));
    assert_non_null(strstr(content, "Aria's turn"));
    assert_non_null(strstr(content, "https://discord.com/channels/"));
    assert_non_null(strstr(content, tid));
    json_t *am = json_object_get(body, "allowed_mentions");
    assert_int_equal(json_array_size(json_object_get(am, "parse")), 0);
    json_t *users = json_object_get(am, "users");
    assert_int_equal(json_array_size(users), 1);
    assert_string_equal(json_string_value(json_array_get(users, 0)), ALICE);
    assert_int_equal(json_integer_value(json_object_get(r, "status")), 200);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* Replace "clock_offset_s = ..." in the harness's config, or add it. */
static void set_offset(struct harness *h, long long seconds)
{
    FILE *f = fopen(h->conf, "a");
    assert_non_null(f);
    fprintf(f, "\n[fights]\nclock_offset_s = %lld\n", seconds);
    fclose(f);
}

static void stop_fray(struct harness *h)
{
    kill(h->fray, SIGTERM);
    if (harness_wait_exit(h, CLOCK_WAIT_MS) != 0) {
        harness_dump_log(h);
        fail_msg("fray did not stop cleanly");
    }
}

static void test_restart_fires_late_once(void **st)
{
    struct harness h;
    long long since, mark;
    (void)st;

    harness_start(&h, NULL, NULL, true);
    fight(&h, "generic");
    since = harness_last_request(&h);
    begin(&h, &since);
    /* Due a minute after Aria's turn began: fray is stopped before. */
    ok(combat(&h, GM, "clock", clock_opts("1m", "30d")));
    stop_fray(&h);
    mark = harness_last_request(&h);
    assert_int_equal(count_posts(&h, mark, "still waiting"), 0);

    /* Back three hours later: the reminder comes now, late, saying so. */
    set_offset(&h, 3 * 3600);
    harness_start_fray(&h, NULL);
    since = mark;
    json_t *r = wait_post(&h, &since, "still waiting");
    const char *content = json_string_value(json_object_get(
        json_object_get(r, "body"), "content"));
    assert_non_null(strstr(content, "late by 2 h"));
    assert_non_null(strstr(content, "fray was down"));
    json_decref(r);

    /* Never twice: another restart finds nothing to fire. A command's
     * answer after READY shows the start (and its timers) are behind. */
    stop_fray(&h);
    harness_start_fray(&h, NULL);
    harness_roll_answered(&h);
    assert_int_equal(count_posts(&h, mark, "still waiting"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A turn the clock starts (act: ran out, auto:true) is announced as one
 * /combat next starts: its player is mentioned, alone; with /combat
 * notices off, nobody is. */
static void test_clock_started_turn_mentions_player(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    fast_fight(&h, &since);
    /* Aria's hour runs out in a second: the clock moves on to Bryn */
    ok(combat(&h, GM, "clock", json_pack("[{s:s,s:s},{s:s,s:b}]", "name",
                                         "act", "value", "1h", "name",
                                         "auto", "value", 1)));
    json_t *r = wait_post(&h, &since, "it is your turn");
    json_t *body = json_object_get(r, "body");
    char *content = body_text(r);
    assert_non_null(strstr(content, "<@" BOB ">, it is your turn"));
    assert_null(strstr(content, "<@" ALICE ">"));
    free(content);
    json_t *users = json_object_get(json_object_get(body,
                                                    "allowed_mentions"),
                                    "users");
    /* Bryn's player, and the GM told of the deadline: not Aria's */
    bool bob = false;
    for (size_t i = 0; i < json_array_size(users); i++) {
        const char *u = json_string_value(json_array_get(users, i));
        bob = bob || strcmp(u, BOB) == 0;
        assert_string_not_equal(u, ALICE);
    }
    assert_true(bob);
    json_decref(r);
    /* notices off: the next turns the clock starts mention nobody */
    ok(combat(&h, GM, "settings", json_pack("[{s:s,s:b}]", "name", "notices",
                                           "value", 0)));
    long long mark = harness_last_request(&h);
    /* Bryn's hour, then each goblin's: the third starts Aria's turn */
    for (int i = 0; i < 3; i++)
        json_decref(wait_post(&h, &since, "moves the fight on"));
    assert_int_equal(count_posts(&h, mark, "it is your turn"), 0);
    assert_int_equal(count_posts(&h, mark, "<@" ALICE ">"), 0);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A timer has no interaction: the clock set in a server whose Discord
 * speaks German (guild_locale "de", the GM's own locale English, no
 * /config language:) reminds the table in German, as the command that
 * armed it would have answered the table. */
static void test_german_server_clock_posts_german(void **st)
{
    struct harness h;
    long long since;
    (void)st;

    fast_fight(&h, &since);
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:o}]}",
                             "type", "command", "name", "combat", "user_id",
                             GM, "locale", "en-US", "guild_locale", "de",
                             "options", "name", "clock", "options",
                             clock_opts("1h", "2d"));
    ok(harness_interact(&h, desc));
    json_decref(desc);
    json_t *r = wait_post(&h, &since, "Erinnerung: Aria");
    char *content = body_text(r);
    assert_non_null(strstr(content, "<@" ALICE ">"));
    assert_non_null(strstr(content, "Aria ist am Zug"));
    assert_null(strstr(content, "still waiting"));
    free(content);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reminder_mentions_only_the_owner),
        cmocka_unit_test(test_restart_fires_late_once),
        cmocka_unit_test(test_clock_started_turn_mentions_player),
        cmocka_unit_test(test_german_server_clock_posts_german),
    };
    return cmocka_run_group_tests_name("daemon_clock", tests, NULL, NULL);
}
