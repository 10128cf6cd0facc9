/* test_daemon_threads.c - a fight in its own thread, through fake-discord:
 * /combat start thread:true opens a public thread from the channel; the
 * commands sent there act on the fight, its tracker lives there, and the
 * end archives it. Missing permissions (known from app_permissions, or a
 * 403 from Discord) leave the fight in the channel with a clear word to
 * the GM; a thread deleted by hand ends nothing: the fight goes on in the
 * channel, which is told. */
#include "tracker_util.h"

#include <stdlib.h>

/* Every permission fake-discord grants by default but Create Public
 * Threads (1 << 35). */
#define NO_THREAD_PERMS "2248439106096705"

/* /combat <sub> as user, sent in channel. */
static json_t *in(struct harness *h, const char *channel, const char *user,
                  const char *sub, json_t *opts)
{
    return combat_in(h, channel, user, NULL, sub, opts);
}

/* From channel: Goblin (GM's) and Aria (Alice's, first), then begin;
 * returns the tracker's message id, posted in channel (static buffer). */
static const char *set_up(struct harness *h, const char *channel,
                          long long *since);

static json_t *start_opts(bool thread)
{
    return json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:b}]", "name", "system",
                     "value", "generic", "name", "name", "value",
                     "Bridge ambush", "name", "thread", "value", thread);
}

/* The whole callback as text, for looking into. */
static bool says(json_t *cb, const char *needle)
{
    char *s = json_dumps(cb, 0);
    bool yes = s != NULL && strstr(s, needle) != NULL;
    free(s);
    return yes;
}

/* Start with thread:true and wait for the thread: its id into id. */
static void start_in_thread(struct harness *h, long long *since, char *id,
                            size_t cap)
{
    json_t *cb = in(h, CHANNEL, GM, "start", start_opts(true));
    assert_true(says(cb, "a thread of its own"));
    json_decref(cb);
    json_t *r = harness_wait_request(h, "POST", "/channels/" CHANNEL
                                     "/threads", since, WAIT_MS);
    assert_non_null(r);
    assert_int_equal(json_integer_value(json_object_get(r, "status")), 201);
    json_t *body = json_object_get(r, "body");
    assert_string_equal(json_string_value(json_object_get(body, "name")),
                        "Bridge ambush");
    assert_int_equal(json_integer_value(json_object_get(body, "type")), 11);
    snprintf(id, cap, "%s", json_string_value(json_object_get(
                 json_object_get(r, "response"), "id")));
    json_decref(r);
    /* fray says in the thread what it is for */
    char part[96];
    snprintf(part, sizeof part, "/channels/%s/messages", id);
    r = harness_wait_request(h, "POST", part, since, WAIT_MS);
    assert_non_null(r);
    assert_true(says(r, "This thread is the fight's"));
    json_decref(r);
}

/* The next message posted in channel whose embed shows needle. */
static json_t *wait_post(struct harness *h, const char *channel,
                         long long *since, const char *needle)
{
    char part[96], text[8192];
    snprintf(part, sizeof part, "/channels/%s/messages", channel);
    for (;;) {
        json_t *r = harness_wait_request(h, NULL, part, since, WAIT_MS);
        if (r == NULL) {
            harness_dump_log(h);
            fail_msg("nothing in %s showing \"%s\"", channel, needle);
        }
        embed_text(json_object_get(r, "body"), text, sizeof text);
        if (strstr(text, needle) != NULL)
            return r;
        json_decref(r);
    }
}

static const char *set_up(struct harness *h, const char *channel,
                          long long *since)
{
    static char id[32];
    ok(in(h, channel, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                           "name", "name", "value", "Goblin",
                                           "name", "hp", "value", 7, "name",
                                           "init", "value", "=5")));
    ok(in(h, channel, ALICE, "join", json_pack(
        "[{s:s,s:s},{s:s,s:i},{s:s,s:s}]", "name", "name", "value", "Aria",
        "name", "hp", "value", 20, "name", "init", "value", "=30")));
    ok(in(h, channel, GM, "begin", NULL));
    json_t *post = wait_post(h, channel, since, "round 1");
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(
                 json_object_get(post, "response"), "id")));
    json_decref(post);
    return id;
}

static json_t *thread_state(struct harness *h, const char *id)
{
    json_t *all = fake_get_json(h->fake.port, "/_test/threads", NULL);
    json_t *t = json_incref(json_object_get(all, id));
    json_decref(all);
    assert_non_null(t);
    return t;
}

static void test_fight_in_a_thread_start_to_end(void **st)
{
    struct harness h;
    char t[32];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    long long since = harness_last_request(&h);
    start_in_thread(&h, &since, t, sizeof t);

    /* the fight is set up and played from the thread, its tracker posted
     * there */
    char mid[32];
    snprintf(mid, sizeof mid, "%s", set_up(&h, t, &since));
    ok(in(&h, t, ALICE, "next", NULL));
    char part[96];
    snprintf(part, sizeof part, "/channels/%s/messages/%s", t, mid);
    json_t *edit = harness_wait_request(&h, "PATCH", part, &since, WAIT_MS);
    assert_non_null(edit);
    json_decref(edit);
    /* in the parent the same fight answers, and says where it runs */
    json_t *cb = in(&h, CHANNEL, GM, "status", NULL);
    char where[48];
    snprintf(where, sizeof where, "<#%s>", t);
    assert_true(says(cb, where));
    assert_true(says(cb, "Aria"));
    json_decref(cb);
    /* a turn moved on from the parent: its notice pings in the thread,
     * the answer in the parent pings nobody */
    cb = in(&h, CHANNEL, GM, "next", NULL);
    assert_true(says(cb, "it is your turn"));
    assert_int_equal(json_array_size(json_object_get(json_object_get(
        json_object_get(cb, "data"), "allowed_mentions"), "users")), 0);
    json_decref(cb);
    snprintf(part, sizeof part, "/channels/%s/messages", t);
    json_t *note = NULL;
    while ((note = harness_wait_request(&h, "POST", part, &since,
                                        WAIT_MS)) != NULL &&
           !says(note, "it is your turn"))
        json_decref(note);
    assert_non_null(note);
    json_t *users = json_object_get(json_object_get(json_object_get(
        note, "body"), "allowed_mentions"), "users");
    assert_int_equal(json_array_size(users), 1);
    assert_string_equal(json_string_value(json_array_get(users, 0)), ALICE);
    json_decref(note);

    /* the end archives the thread */
    ok(in(&h, t, GM, "end", json_pack("[{s:s,s:b}]", "name", "confirm",
                                      "value", 1)));
    snprintf(part, sizeof part, "/channels/%s", t);
    json_t *arch = NULL;
    while ((arch = harness_wait_request(&h, "PATCH", part, &since,
                                        WAIT_MS)) != NULL &&
           strstr(json_string_value(json_object_get(arch, "path")),
                  "/messages/") != NULL)
        json_decref(arch);
    assert_non_null(arch);
    assert_true(json_is_true(json_object_get(json_object_get(arch, "body"),
                                             "archived")));
    json_decref(arch);
    json_t *th = thread_state(&h, t);
    assert_true(json_is_true(json_object_get(json_object_get(
        th, "thread_metadata"), "archived")));
    json_decref(th);
    /* the channel's next fight is its own, without the old thread */
    cb = in(&h, CHANNEL, GM, "start", start_opts(false));
    assert_false(says(cb, where));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The turn clock of a fight in its thread speaks in the thread, where the
 * tracker and the turns are: the reminder (its link names the thread's
 * tracker message), the deadline and the turn it starts (its player
 * mentioned); the parent channel hears none of it. */
static void test_thread_fight_clock_in_thread(void **st)
{
    struct harness h;
    char t[32], mid[32], part[96], link[128];
    (void)st;
    harness_start_conf(&h, NULL, NULL, true,
                       "[fights]\nclock_speed = 3600\n");
    long long since = harness_last_request(&h);
    start_in_thread(&h, &since, t, sizeof t);
    snprintf(mid, sizeof mid, "%s", set_up(&h, t, &since));
    ok(in(&h, t, BOB, "join", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:s}]",
                                        "name", "name", "value", "Bryn",
                                        "name", "hp", "value", 18, "name",
                                        "init", "value", "=20")));
    long long mark = harness_last_request(&h);
    /* Aria first: reminded after an hour (a second here), moved on after
     * two */
    ok(in(&h, t, GM, "clock", json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:b}]",
                                        "name", "remind", "value", "1h",
                                        "name", "act", "value", "2h",
                                        "name", "auto", "value", 1)));
    snprintf(part, sizeof part, "/channels/%s/messages", t);
    snprintf(link, sizeof link, "/%s/%s", t, mid);
    bool reminded = false, turned = false;
    while (!(reminded && turned)) {
        json_t *r = harness_wait_request(&h, "POST", part, &since, WAIT_MS);
        if (r == NULL) {
            harness_dump_log(&h);
            fail_msg("in the thread: reminder %d, turn %d", reminded,
                     turned);
        }
        if (says(r, "still waiting")) {
            reminded = true;
            if (!says(r, link))
                fail_msg("the reminder's link is not the thread's "
                         "tracker (%s)", link);
        }
        if (says(r, "it is your turn")) {
            turned = true;
            assert_true(says(r, "<@" BOB ">"));
        }
        json_decref(r);
    }
    /* the parent channel heard none of it */
    json_t *all = harness_requests(&h, "POST", "/channels/" CHANNEL
                                   "/messages", &mark);
    size_t i;
    json_t *r;
    json_array_foreach(all, i, r)
        if (says(r, "still waiting") || says(r, "has waited") ||
            says(r, "it is your turn"))
            fail_msg("the clock spoke in the parent channel");
    json_decref(all);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A combat command from channel in a server whose Discord speaks German
 * (guild_locale "de"; the GM's own locale English). */
static json_t *in_german_server(struct harness *h, const char *channel,
                                const char *sub, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[{s:s, s:o}]}",
                             "type", "command", "name", "combat", "user_id",
                             GM, "channel_id", channel, "locale", "en-US",
                             "guild_locale", "de", "options", "name", sub,
                             "options", opts ? opts : json_array());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* The thread's first post and the channel's pointer to the thread speak
 * the table's language, as every public message does. */
static void test_thread_notices_in_table_language(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    long long since = harness_last_request(&h);
    ok(in_german_server(&h, CHANNEL, "start", start_opts(true)));
    json_t *r = harness_wait_request(&h, "POST", "/channels/" CHANNEL
                                     "/threads", &since, WAIT_MS);
    assert_non_null(r);
    char id[32], part[96];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(
                 json_object_get(r, "response"), "id")));
    json_decref(r);
    snprintf(part, sizeof part, "/channels/%s/messages", id);
    r = harness_wait_request(&h, "POST", part, &since, WAIT_MS);
    assert_non_null(r);
    assert_true(says(r, "Dieser Thread geh\u00f6rt dem Kampf") ||
                says(r, "Dieser Thread gehört dem Kampf"));
    assert_false(says(r, "This thread is the fight's"));
    json_decref(r);
    /* a command in the channel is answered there, pointing at the thread */
    json_t *cb = in_german_server(&h, CHANNEL, "status", NULL);
    char want[96];
    snprintf(want, sizeof want, "l\\u00e4uft in seinem Thread <#%s>", id);
    char want_raw[96];
    snprintf(want_raw, sizeof want_raw, "läuft in seinem Thread <#%s>", id);
    assert_true(says(cb, want) || says(cb, want_raw));
    assert_false(says(cb, "runs in its thread"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_thread_permission_missing(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    /* fray may not create threads here: app_permissions says so */
    json_t *p = fake_post_json(h.fake.port, "/_test/threads",
                               "{\"perms\":{\"channel_id\":\"" CHANNEL
                               "\",\"permissions\":\"" NO_THREAD_PERMS "\"}}",
                               NULL);
    json_decref(p);
    long long since = harness_last_request(&h);
    json_t *cb = in(&h, CHANNEL, GM, "start", start_opts(true));
    assert_true(says(cb, "Create Public Threads"));
    /* only the one missing is named, as docs/commands.md says */
    assert_false(says(cb, "Send Messages in Threads"));
    assert_true(says(cb, "runs in this channel"));
    json_decref(cb);
    /* the fight runs here: nobody asked Discord for a thread */
    ok(in(&h, CHANNEL, GM, "status", NULL));
    json_t *r = harness_requests(&h, "POST", "/threads", &since);
    assert_int_equal(json_array_size(r), 0);
    json_decref(r);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_thread_refused_by_discord(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    /* app_permissions allowed it, Discord refuses all the same */
    assert_int_equal(fake_fault(h.fake.port,
                                "{\"kind\":\"rest\",\"path\":\"/threads\","
                                "\"method\":\"POST\",\"status\":403,"
                                "\"body\":{\"code\":50013,\"message\":"
                                "\"Missing Permissions\"}}"), 200);
    long long since = harness_last_request(&h);
    ok(in(&h, CHANNEL, GM, "start", start_opts(true)));
    /* the GM hears it privately, through the start's interaction */
    json_t *r = harness_wait_request(&h, "POST", "/webhooks/", &since,
                                     WAIT_MS);
    assert_non_null(r);
    json_t *body = json_object_get(r, "body");
    assert_true(json_integer_value(json_object_get(body, "flags")) & 64);
    assert_non_null(strstr(json_string_value(json_object_get(body,
                                                             "content")),
                           "could not open a thread"));
    json_decref(r);
    /* and the fight runs in the channel */
    json_t *cb = in(&h, CHANNEL, GM, "status", NULL);
    assert_false(says(cb, "<#"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_thread_deleted_by_hand(void **st)
{
    struct harness h;
    char t[32];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    long long since = harness_last_request(&h);
    start_in_thread(&h, &since, t, sizeof t);
    set_up(&h, t, &since);

    /* someone deletes the thread */
    char del[64];
    snprintf(del, sizeof del, "{\"delete\":\"%s\"}", t);
    json_decref(fake_post_json(h.fake.port, "/_test/threads", del, NULL));
    /* the next change, from the channel: the fight is all there */
    ok(in(&h, CHANNEL, ALICE, "next", NULL));
    /* Discord answers 10003; fray tells the channel and shows the
     * tracker there */
    char part[96];
    snprintf(part, sizeof part, "/channels/%s/messages", CHANNEL);
    json_t *r;
    bool told = false;
    while (!told && (r = harness_wait_request(&h, "POST", part, &since,
                                              WAIT_MS)) != NULL) {
        told = says(r, "thread was deleted");
        json_decref(r);
    }
    assert_true(told);
    json_decref(wait_post(&h, CHANNEL, &since, "Goblin"));
    /* from now on the channel is the fight's place, without a word about
     * the thread */
    json_t *cb = in(&h, CHANNEL, GM, "status", NULL);
    assert_true(says(cb, "Aria"));
    assert_false(says(cb, "<#"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fight_in_a_thread_start_to_end),
        cmocka_unit_test(test_thread_notices_in_table_language),
        cmocka_unit_test(test_thread_permission_missing),
        cmocka_unit_test(test_thread_fight_clock_in_thread),
        cmocka_unit_test(test_thread_refused_by_discord),
        cmocka_unit_test(test_thread_deleted_by_hand),
    };
    return cmocka_run_group_tests_name("daemon_threads", tests, NULL, NULL);
}
