/* test_daemon_flood.c - one user cannot flood, through fake-discord:
 *  - 400 secret rolls sent at once by one player: past the [limits]
 *    buckets each is told, privately, to slow down; the GM channel gets a
 *    handful of posts carrying every roll that was made, and Discord's
 *    rate limits are never broken;
 *  - the same flood with no limits configured: every roll is made, and the
 *    GM channel still gets a bounded number of posts, the copies folded
 *    into them (or counted in their note), none lost;
 *  - a flood of commands against a fight: the refused ones change nothing
 *    (the stored fight took exactly the accepted ones);
 *  - a flood of autocomplete requests: past the limit the choices are
 *    empty, at once;
 *  - autocomplete in a freshly started fray fills the encounter cache
 *    instead of decoding the fight at every keystroke.
 * No timing is asserted beyond "within a generous bound". */
#include "support.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "daemon_harness.h"
#include "enc_json.h"
#include "store.h"

#define FLOOD 400
#define PLAYER "1100000000000000302"
#define GM "1100000000000000301"
#define GM_CHANNEL "1100000000000000777"
#define ADMIN_PERMS "8"
#define SETTLE_MS 7000             /* no GM post for this long: done
                                      (Discord refills 5 posts in 5 s) */
#define SETTLE_MAX_MS 60000
#define MAX_GM_POSTS 40            /* 400 copies, folded */
#define NO_LIMITS "[limits]\nuser_per_minute = 0\nchannel_per_minute = 0\n" \
                  "secret_per_minute = 0\nautocomplete_per_minute = 0\n"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_gm_channel(struct harness *h)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:i, s:s}]}",
                             "type", "command", "name", "config", "user_id",
                             GM, "permissions", ADMIN_PERMS, "options",
                             "name", "gm-channel", "type", 7, "value",
                             GM_CHANNEL);
    json_t *cb = harness_interact(h, desc);
    const char *text = json_string_value(json_object_get(
        json_object_get(cb, "data"), "content"));
    assert_non_null(text);
    assert_non_null(strstr(text, "<#" GM_CHANNEL ">"));
    json_decref(cb);
    json_decref(desc);
}

/* Inject n copies of desc back to back; their ids go to ids[n][32]. */
static void inject_many(struct harness *h, json_t *desc, int n,
                        char (*ids)[32])
{
    char *text = json_dumps(desc, JSON_COMPACT);
    for (int i = 0; i < n; i++) {
        json_t *r = fake_inject(h->fake.port, text);
        assert_non_null(r);
        snprintf(ids[i], 32, "%s", json_string_value(json_object_get(r, "id")));
        json_decref(r);
    }
    free(text);
}

/* The callback body of id ({"type", "data"}; caller decrefs). */
static json_t *answer_of(struct harness *h, const char *id)
{
    json_t *cb = harness_callback(h, id);
    json_t *body = json_incref(json_object_get(cb, "body"));
    json_decref(cb);
    return body;
}

/* Whether body is the "slow down" answer: private, at once, a time. */
static bool slowed(const json_t *body)
{
    const json_t *data = json_object_get(body, "data");
    const char *text = json_string_value(json_object_get(data, "content"));
    if (text == NULL || strstr(text, "Slow down") == NULL)
        return false;
    assert_int_equal(json_integer_value(json_object_get(body, "type")), 4);
    assert_int_equal(json_integer_value(json_object_get(data, "flags")), 64);
    assert_non_null(strstr(text, "try again in "));
    return true;
}

/* Wait until no GM-channel post came for SETTLE_MS; returns the posts and
 * the copies they carry (a folded post says how many it stands for). */
static void gm_posts(struct harness *h, long long since, int *posts,
                     int *copies)
{
    int64_t start = now_ms(), last = now_ms();
    *posts = *copies = 0;
    while (now_ms() - last < SETTLE_MS && now_ms() - start < SETTLE_MAX_MS) {
        json_t *rs = harness_requests(h, "POST", "/channels/" GM_CHANNEL
                                      "/messages", &since);
        for (size_t i = 0; i < json_array_size(rs); i++) {
            const json_t *e = json_array_get(json_object_get(
                json_object_get(json_array_get(rs, i), "body"), "embeds"), 0);
            const char *title = json_string_value(json_object_get(e,
                                                                  "title"));
            int n = 0;
            if (title && sscanf(title, "%d secret copies at once", &n) == 1) {
                const char *desc = json_string_value(json_object_get(
                    e, "description"));
                const char *foot = json_string_value(json_object_get(
                    json_object_get(e, "footer"), "text"));
                assert_non_null(desc);
                assert_true(strlen(desc) <= 4096);
                if (*posts == 1)   /* the first fold, to see its shape */
                    print_message("  \"%s\": %zu bytes of text%s%s\n",
                                  title, strlen(desc), foot ? "; " : "",
                                  foot ? foot : "");
                *copies += n;
            } else {
                *copies += 1;
            }
            (*posts)++;
            last = now_ms();
        }
        json_decref(rs);
        fake_sleep_ms(200);
    }
}

static json_t *secret_roll(void)
{
    return json_pack("{s:s, s:s, s:s, s:[{s:s,s:s},{s:s,s:b}]}", "type",
                     "command", "name", "roll", "user_id", PLAYER, "options",
                     "name", "dice", "value", "1d20", "name", "secret",
                     "value", 1);
}

static void test_flood_secret_rolls_slowed_down(void **state)
{
    static char ids[FLOOD][32];
    struct harness h;
    int made = 0, posts, copies;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    set_gm_channel(&h);
    long long since = harness_last_request(&h);
    json_t *desc = secret_roll();
    int64_t t0 = now_ms();
    inject_many(&h, desc, FLOOD, ids);
    json_decref(desc);
    for (int i = 0; i < FLOOD; i++) {
        json_t *body = answer_of(&h, ids[i]);
        if (!slowed(body))
            made++;
        json_decref(body);
    }
    int64_t secs = (now_ms() - t0) / 1000 + 1;
    /* the default secret bucket: 5 at once, 20 a minute */
    print_message("flood of %d secret rolls: %d made in about %lld s\n",
                  FLOOD, made, (long long)secs);
    assert_true(made >= 5);
    assert_true(made <= 5 + 1 + secs * 20 / 60);
    gm_posts(&h, since, &posts, &copies);
    print_message("GM channel: %d posts for %d copies\n", posts, copies);
    assert_int_equal(copies, made);
    assert_true(posts <= made);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_flood_secret_rolls_folded(void **state)
{
    static char ids[FLOOD][32];
    struct harness h;
    int posts, copies;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, NO_LIMITS);
    set_gm_channel(&h);
    long long since = harness_last_request(&h);
    json_t *desc = secret_roll();
    inject_many(&h, desc, FLOOD, ids);
    json_decref(desc);
    for (int i = 0; i < FLOOD; i++) {
        json_t *body = answer_of(&h, ids[i]);
        assert_false(slowed(body));
        json_decref(body);
    }
    int64_t t0 = now_ms();
    gm_posts(&h, since, &posts, &copies);
    print_message("GM channel: %d posts for %d copies, settled in %lld ms\n",
                  posts, copies, (long long)(now_ms() - t0 - SETTLE_MS));
    assert_int_equal(copies, FLOOD);
    assert_true(posts <= MAX_GM_POSTS);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

#define HP_FLOOD 60
#define START_HP 1000

static json_t *combat_desc(const char *sub, json_t *opts)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                     "command", "name", "combat", "user_id", GM,
                     "permissions", ADMIN_PERMS, "options", "name", sub,
                     "options", opts);
}

static void expect_ok(struct harness *h, json_t *desc)
{
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    if (json_integer_value(json_object_get(json_object_get(cb, "data"),
                                           "flags")) & 64) {
        char *s = json_dumps(cb, 0);
        harness_dump_log(h);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

/* Refused commands change nothing: the fight took exactly the accepted
 * ones. */
static void test_flood_commands_change_nothing(void **state)
{
    static char ids[HP_FLOOD][32];
    struct harness h;
    int made = 0, slow = 0;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    expect_ok(&h, combat_desc("start", json_pack("[{s:s,s:s}]", "name",
                                                 "system", "value",
                                                 "generic")));
    expect_ok(&h, combat_desc("add", json_pack("[{s:s,s:s},{s:s,s:i}]",
                                               "name", "name", "value", "Orc",
                                               "name", "hp", "value",
                                               START_HP)));
    json_t *hit = combat_desc("hp", json_pack("[{s:s,s:s},{s:s,s:s}]",
                                              "name", "name", "value", "Orc",
                                              "name", "change", "value",
                                              "-1"));
    inject_many(&h, hit, HP_FLOOD, ids);
    json_decref(hit);
    for (int i = 0; i < HP_FLOOD; i++) {
        json_t *body = answer_of(&h, ids[i]);
        if (slowed(body))
            slow++;
        else
            made++;
        json_decref(body);
    }
    print_message("%d hp changes: %d made, %d slowed down\n", HP_FLOOD, made,
                  slow);
    assert_true(slow > 0);
    assert_true(made >= 8);        /* the user's burst, less the setup */

    kill(h.fray, SIGTERM);
    assert_int_equal(harness_wait_exit(&h, 15000), 0);
    char path[600], err[256], *doc = NULL;
    int64_t version = 0;
    struct store *db = NULL;
    struct encounter *e = NULL;
    snprintf(path, sizeof path, "%s/fray.db", h.dir);
    assert_int_equal(store_open(path, &db, err, sizeof err), BOT_OK);
    assert_int_equal(store_enc_load(db, UINT64_C(1100000000000000200), &doc,
                                    &version), BOT_OK);
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    assert_int_equal(version, 2 + made);
    assert_int_equal(enc_track(enc_by_name(e, "Orc"), "hp")->cur,
                     START_HP - made);
    enc_free(e);
    free(doc);
    store_close(db);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

#define AC_FLOOD 80

/* Past the autocomplete bucket the choices come back empty. */
static void test_flood_autocomplete_empty(void **state)
{
    static char ids[AC_FLOOD][32];
    struct harness h;
    int full = 0, empty = 0;
    (void)state;

    harness_start(&h, NULL, NULL, true);
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s,s:s,s:b}]}", "type",
                             "autocomplete", "name", "help", "user_id",
                             PLAYER, "options", "name", "topic", "value",
                             "d", "focused", 1);
    int64_t t0 = now_ms();
    inject_many(&h, desc, AC_FLOOD, ids);
    json_decref(desc);
    for (int i = 0; i < AC_FLOOD; i++) {
        json_t *body = answer_of(&h, ids[i]);
        assert_int_equal(json_integer_value(json_object_get(body, "type")),
                         8);
        if (json_array_size(json_object_get(json_object_get(body, "data"),
                                            "choices")) > 0)
            full++;
        else
            empty++;
        json_decref(body);
    }
    int64_t secs = (now_ms() - t0) / 1000 + 1;
    print_message("%d autocompletes: %d answered, %d empty\n", AC_FLOOD, full,
                  empty);
    assert_true(full >= 20);
    assert_true(full <= 20 + 1 + secs * 300 / 60);
    assert_int_equal(full + empty, AC_FLOOD);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* A port free a moment ago, for fray's /metrics. */
static int free_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), port;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

/* The value of metric name (no labels) on fray's /metrics page, or -1. */
static double metric(int port, const char *name)
{
    struct fake_resp r;
    double v = -1;
    size_t n = strlen(name);
    assert_int_equal(fake_request(port, "GET", "/metrics", NULL, NULL, &r),
                     0);
    for (const char *p = r.body; p && *p; p = strchr(p, '\n'),
                    p = p ? p + 1 : NULL)
        if (strncmp(p, name, n) == 0 && p[n] == ' ')
            v = strtod(p + n + 1, NULL);
    fake_resp_free(&r);
    return v;
}

/* Autocomplete in a fray whose cache is cold (just restarted) decodes the
 * fight once and keeps it: the next keystrokes read the cache. */
static void test_flood_autocomplete_fills_cache(void **state)
{
    struct harness h;
    char conf[96];
    int port = free_port();
    (void)state;

    snprintf(conf, sizeof conf, "[metrics]\nlisten = 127.0.0.1:%d\n", port);
    harness_start_conf(&h, NULL, NULL, true, conf);
    expect_ok(&h, combat_desc("start", json_pack("[{s:s,s:s}]", "name",
                                                 "system", "value",
                                                 "generic")));
    expect_ok(&h, combat_desc("add", json_pack("[{s:s,s:s},{s:s,s:i}]",
                                               "name", "name", "value", "Orc",
                                               "name", "count", "value", 2)));
    kill(h.fray, SIGKILL);
    assert_true(harness_wait_exit(&h, 3000) >= 0);
    harness_start_fray(&h, NULL);
    assert_int_equal(fake_wait_stat(h.fake.port, "resumes_ok", 1, 8000), 0);
    assert_int_equal(metric(port, "fray_encounters_cached"), 0);
    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:[{s:s,s:s,s:b}]}]}",
                             "type", "autocomplete", "name", "combat",
                             "user_id", GM, "options", "name", "hp",
                             "options", "name", "name", "value", "Or",
                             "focused", 1);
    for (int i = 0; i < 3; i++) {
        json_t *cb = harness_interact(&h, desc);
        assert_int_equal(json_array_size(json_object_get(
                             json_object_get(cb, "data"), "choices")), 2);
        json_decref(cb);
    }
    json_decref(desc);
    assert_int_equal(metric(port, "fray_encounters_cached"), 1);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flood_secret_rolls_slowed_down),
        cmocka_unit_test(test_flood_secret_rolls_folded),
        cmocka_unit_test(test_flood_commands_change_nothing),
        cmocka_unit_test(test_flood_autocomplete_empty),
        cmocka_unit_test(test_flood_autocomplete_fills_cache),
    };
    return cmocka_run_group_tests_name("daemon_flood", tests, NULL, NULL);
}
