/* test_daemon_installs.c - fray installed by a user for themselves
 * (discord-interface-2026.md 3.3 and 3.4) through fake-discord: /roll is
 * answered in a server fray is not a member of and in a group DM, only
 * through the interaction (the fake records any request to that server's
 * channel as a user_install_channel violation); a fight there is refused
 * plainly, and nothing is sent to the channel. */
#include "tracker_util.h"

/* A channel of a server fray is not in. */
#define FOREIGN "1100000000000000777"

/* /name with opts (taken; NULL none) as Alice, from her own install of
 * fray, in channel: context 0 a server's channel, 2 a group DM. */
static json_t *by_user(struct harness *h, const char *channel, int context,
                       const char *name, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:o}", "type",
                             "command", "name", name, "user_id", ALICE,
                             "channel_id", channel, "install", "user",
                             "context", context, "options",
                             opts ? opts : json_array());
    if (context != 0)
        json_object_set_new(desc, "dm", json_true());
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

/* Nothing was sent to channel since *from but through interactions. */
static void nothing_in(struct harness *h, const char *channel)
{
    char path[64];
    long long from = 0;
    snprintf(path, sizeof path, "/channels/%s", channel);
    json_t *reqs = harness_requests(h, NULL, path, &from);
    if (json_array_size(reqs) != 0) {
        char *d = json_dumps(reqs, 0);
        fail_msg("requests to a user install's channel: %s", d);
    }
    json_decref(reqs);
}

static void test_user_install_rolls_without_the_bot(void **st)
{
    struct harness h;
    char text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    /* in a server's channel, fray not a member there */
    json_t *cb = by_user(&h, FOREIGN, 0, "roll",
                         json_pack("[{s:s,s:s}]", "name", "dice", "value",
                                   "2d6+3"));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "2d6"));
    json_decref(cb);
    /* a secret roll: privately, with no copy posted anywhere */
    cb = by_user(&h, FOREIGN, 0, "roll",
                 json_pack("[{s:s,s:s},{s:s,s:b}]", "name", "dice", "value",
                           "1d20", "name", "secret", "value", 1));
    assert_int_equal(flags_of(cb) & 64, 64);
    json_decref(cb);
    /* in a group DM */
    cb = by_user(&h, "1100000000000000778", 2, "roll",
                 json_pack("[{s:s,s:s}]", "name", "dice", "value", "1d8"));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "1d8"));
    json_decref(cb);
    /* the help too */
    cb = by_user(&h, FOREIGN, 0, "help", NULL);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    json_decref(cb);
    harness_wait_stat(&h, "answered", 4);
    nothing_in(&h, FOREIGN);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_user_install_refuses_a_fight(void **st)
{
    struct harness h;
    (void)st;
    harness_start(&h, NULL, NULL, true);
    json_t *cb = by_user(&h, FOREIGN, 0, "combat",
                         json_pack("[{s:s,s:[{s:s,s:s}]}]", "name", "start",
                                   "options", "name", "system", "value",
                                   "generic"));
    assert_int_equal(flags_of(cb) & 64, 64);
    assert_non_null(content_of(cb));
    assert_non_null(strstr(content_of(cb), "installed here only by you"));
    json_decref(cb);
    /* a character's change needs the server too; reading them does not */
    cb = by_user(&h, FOREIGN, 0, "character",
                 json_pack("[{s:s,s:[]}]", "name", "list", "options"));
    assert_null(strstr(content_of(cb) ? content_of(cb) : "",
                       "installed here only by you"));
    json_decref(cb);
    cb = by_user(&h, FOREIGN, 0, "character",
                 json_pack("[{s:s,s:[{s:s,s:s}]}]", "name", "delete",
                           "options", "name", "name", "value", "Aria"));
    assert_non_null(strstr(content_of(cb), "installed here only by you"));
    json_decref(cb);
    nothing_in(&h, FOREIGN);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_install_rolls_without_the_bot),
        cmocka_unit_test(test_user_install_refuses_a_fight),
    };
    return cmocka_run_group_tests_name("daemon_installs", tests, NULL, NULL);
}
