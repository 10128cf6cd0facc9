/*
 * test_daemon_commands.c - the command surface a server sees, through the
 * fake Discord: the core commands are global; a server that plays only
 * generic sees nothing more (at most 8 top-level commands in all); a
 * server's systems bring their commands into that server only, each verb
 * once and none named like a core command; starting a fight of a system
 * the server does not play yet adds it.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define GUILD "1100000000000000100"
#define ADMIN "8"

/* /name as the GM (an admin); a refusal fails the test. */
static void slash(struct harness *h, const char *name, json_t *opts)
{
    json_t *cb = harness_slash(h, GM, ADMIN, name, opts);
    if (json_integer_value(json_object_get(json_object_get(cb, "data"),
                                           "flags")) & 64 &&
        strcmp(name, "config") != 0) {
        char *s = json_dumps(cb, 0);
        fail_msg("/%s refused: %s", name, s);
    }
    json_decref(cb);
}

static void test_generic_server_sees_the_short_list(void **st)
{
    (void)st;
    struct harness h;
    char global[512], guild[1024];
    size_t ng, nl;
    harness_start(&h, NULL, NULL, true);
    harness_wait_stat(&h, "command_puts", 1);
    slash(&h, "config", json_pack("[{s:s, s:s}]", "name", "systems",
                                  "value", "generic"));
    harness_wait_stat(&h, "command_puts", 2);
    harness_command_names(&h, "global", global, sizeof global, &ng);
    harness_command_names(&h, GUILD, guild, sizeof guild, &nl);
    assert_string_equal(global, "roll,combat,attack,character,npc,config,"
                                "macro,Reroll,Explain,Apply damage,help");
    assert_int_equal(nl, 0);
    /* eight slash commands; a roll's three menus are in its Apps menu */
    assert_true(ng + nl <= 8 + 3);

    /* teams and cards: their verbs, once each, in this server */
    slash(&h, "config", json_pack("[{s:s, s:s}]", "name", "systems",
                                  "value", "teams,cards"));
    harness_wait_stat(&h, "command_puts", 3);
    harness_command_names(&h, GUILD, guild, sizeof guild, &nl);
    assert_string_equal(guild, "act,react,test,fall,wake,damage,swap,ambush,"
                               "maneuver,flee,fear,hazard,extinguish");
    /* no verb means two things: cards' falling is /hazard fall */
    assert_null(strstr(guild, "roll,"));

    /* a fight of a system the server does not play yet brings it in */
    slash(&h, "combat", json_pack("[{s:s, s:[{s:s, s:s}]}]", "name", "start",
                                  "options", "name", "system", "value",
                                  "resolve"));
    harness_wait_stat(&h, "command_puts", 4);
    harness_command_names(&h, GUILD, guild, sizeof guild, &nl);
    assert_non_null(strstr(guild, "delay"));
    assert_non_null(strstr(guild, "fate"));
    assert_non_null(strstr(guild, "act,"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_server_sees_the_short_list),
    };
    return cmocka_run_group_tests_name("daemon_commands", tests, NULL, NULL);
}
