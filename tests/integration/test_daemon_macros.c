/* test_daemon_macros.c - saved rolls through the real daemon and
 * fake-discord: "@name" in /roll in a DM with the bot, autocomplete of
 * "@" in /roll's dice and of /macro delete's name, and every quota
 * refusal ([macros] in fray.conf), each answered privately and changing
 * nothing. */
#include "tracker_util.h"

#define ADMIN "1100000000000000304"
#define ADMIN_PERMS "8"

/* /macro sub with options [{name, value}...] (taken). */
static json_t *macro_opts(const char *sub, json_t *opts)
{
    return json_pack("[{s:s, s:o}]", "name", sub, "options", opts);
}

static json_t *save_opts(const char *name, const char *dice, bool server)
{
    json_t *o = json_pack("[{s:s,s:s},{s:s,s:s}]", "name", "name", "value",
                          name, "name", "dice", "value", dice);
    if (server)
        json_array_append_new(o, json_pack("{s:s,s:b}", "name", "server",
                                           "value", 1));
    return macro_opts("save", o);
}

/* In a server's channel, as user with perms (NULL: none). */
static json_t *guild_macro(struct harness *h, const char *user,
                           const char *perms, json_t *opts)
{
    return harness_slash(h, user, perms, "macro", opts);
}

/* The callback is a private answer whose content holds needle. */
static void private_says(json_t *cb, const char *needle)
{
    const char *text = content_of(cb);
    if ((flags_of(cb) & 64) == 0 || text == NULL ||
        strstr(text, needle) == NULL) {
        char *d = json_dumps(cb, 0);
        fail_msg("wanted a private answer with \"%s\", got %s", needle, d);
    }
    json_decref(cb);
}

static void test_macro_in_a_dm(void **st)
{
    struct harness h;
    char text[8192];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    /* A server-wide one, made in the server, does not reach the DM. */
    private_says(guild_macro(&h, ADMIN, ADMIN_PERMS,
                             save_opts("volley", "4d6", true)),
                 "Everyone in this server can use it");
    private_says(dm(&h, "macro", save_opts("Dodge", "1d20+3 # Dodge",
                                           false)),
                 "Saved `@dodge`");

    json_t *cb = dm(&h, "roll", json_pack("[{s:s,s:s}]", "name", "dice",
                                          "value", "@dodge+1"));
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 4);
    assert_int_equal(flags_of(cb) & 64, 0);
    embeds_text(cb, text, sizeof text);
    assert_non_null(strstr(text, "`@dodge` (your own saved roll)"));
    assert_non_null(strstr(text, "1d20"));
    assert_non_null(strstr(text, "+3+1"));
    assert_non_null(strstr(text, "Dodge"));
    json_decref(cb);

    private_says(dm(&h, "roll", json_pack("[{s:s,s:s}]", "name", "dice",
                                          "value", "@volley")),
                 "only your own work");
    private_says(dm(&h, "macro", save_opts("x", "1d4", true)),
                 "server-wide saved rolls belong to a server; a DM has none");
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

/* The choices of an autocomplete, as "value|value|...". */
static void choices(struct harness *h, json_t *desc, char *out, size_t cap)
{
    json_t *cb = harness_interact(h, desc), *c;
    size_t i, n = 0;
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 8);
    out[0] = '\0';
    json_array_foreach(json_object_get(json_object_get(cb, "data"),
                                       "choices"), i, c) {
        int w = snprintf(out + n, cap - n, "%s%s", i ? "|" : "",
                         json_string_value(json_object_get(c, "value")));
        if (w < 0 || (size_t)w >= cap - n)
            break;
        n += (size_t)w;
    }
    json_decref(cb);
}

static void test_macro_autocomplete(void **st)
{
    struct harness h;
    char got[1024];
    (void)st;
    harness_start(&h, NULL, NULL, true);
    private_says(guild_macro(&h, ALICE, NULL,
                             save_opts("stealth", "1d20+7", false)),
                 "Saved");
    private_says(guild_macro(&h, ALICE, NULL,
                             save_opts("strength", "1d20+2", false)),
                 "Saved");
    private_says(guild_macro(&h, ADMIN, ADMIN_PERMS,
                             save_opts("stun", "1d6", true)),
                 "Saved");

    json_t *desc = json_pack("{s:s, s:s, s:s, s:[{s:s,s:s,s:b}]}", "type",
                             "autocomplete", "name", "roll", "user_id",
                             ALICE, "options", "name", "dice", "value",
                             "@st", "focused", 1);
    choices(&h, desc, got, sizeof got);
    json_decref(desc);
    assert_string_equal(got, "@stealth|@strength|@stun");

    /* /macro delete offers Alice her own only. */
    desc = json_pack("{s:s, s:s, s:s, s:[{s:s, s:[{s:s,s:s,s:b}]}]}",
                     "type", "autocomplete", "name", "macro", "user_id",
                     ALICE, "options", "name", "delete", "options", "name",
                     "name", "value", "s", "focused", 1);
    choices(&h, desc, got, sizeof got);
    json_decref(desc);
    assert_string_equal(got, "stealth|strength");
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

static void test_macro_quota_refusals(void **st)
{
    struct harness h;
    char text[8192];
    (void)st;
    harness_start_conf(&h, NULL, NULL, true,
                       "[macros]\nmax_per_server = 1\nmax_per_user = 1\n");
    /* A user's own: one allowed, in the server or a DM alike. */
    private_says(guild_macro(&h, ALICE, NULL, save_opts("a", "1d4", false)),
                 "Saved");
    private_says(guild_macro(&h, ALICE, NULL, save_opts("b", "1d6", false)),
                 "you have 1 saved rolls of your own (the limit is 1); "
                 "delete one first with /macro delete");
    private_says(dm(&h, "macro", save_opts("c", "1d8", false)),
                 "you have 1 saved rolls of your own (the limit is 1)");
    /* The server's: one allowed. */
    private_says(guild_macro(&h, ADMIN, ADMIN_PERMS,
                             save_opts("s1", "2d6", true)),
                 "Saved");
    private_says(guild_macro(&h, ADMIN, ADMIN_PERMS,
                             save_opts("s2", "3d6", true)),
                 "this server has 1 server-wide saved rolls (the limit is "
                 "1); delete one first with /macro delete server:true");

    /* Nothing refused was saved. */
    json_t *cb = guild_macro(&h, ALICE, NULL,
                             json_pack("[{s:s, s:[]}]", "name", "list",
                                       "options"));
    assert_int_equal(flags_of(cb) & 64, 64);
    embeds_text(cb, text, sizeof text);
    json_decref(cb);
    assert_non_null(strstr(text, "Your saved rolls (1 of 1)\n`@a` 1d4\n"));
    assert_null(strstr(text, "`@b`"));
    assert_null(strstr(text, "`@c`"));
    assert_non_null(strstr(text, "This server's saved rolls (1 of 1)\n"
                                 "`@s1` 2d6\n"));
    assert_null(strstr(text, "`@s2`"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macro_in_a_dm),
        cmocka_unit_test(test_macro_autocomplete),
        cmocka_unit_test(test_macro_quota_refusals),
    };
    return cmocka_run_group_tests_name("daemon_macros", tests, NULL, NULL);
}
