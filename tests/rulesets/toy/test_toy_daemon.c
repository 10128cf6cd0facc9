/*
 * test_toy_daemon.c - the toy rule system in the real daemon (fray-toy)
 * through the fake Discord: a server that plays it gets its command
 * registered in that server, /help explains it, and autocomplete offers
 * its choices: all from the folder and the registry line alone.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000301"
#define GUILD "1100000000000000100"
#define ADMIN "8"

static json_t *slash(struct harness *h, const char *name, json_t *opts)
{
    return harness_slash(h, GM, ADMIN, name, opts);
}

static const char *reply_text(json_t *cb, char *buf, size_t n)
{
    char *s = json_dumps(json_object_get(cb, "data"), 0);
    snprintf(buf, n, "%s", s ? s : "");
    free(s);
    return buf;
}

static void test_toy_server_commands(void **st)
{
    (void)st;
    struct harness h;
    char buf[8192], names[1024];
    harness_start(&h, NULL, NULL, true);
    json_decref(slash(&h, "config", json_pack("[{s:s, s:s}]", "name",
                                              "systems", "value", "toy")));
    harness_wait_stat(&h, "command_puts", 2);
    harness_command_names(&h, GUILD, names, sizeof names, NULL);
    assert_string_equal(names, "poke");
    harness_command_names(&h, "global", names, sizeof names, NULL);
    assert_string_equal(names, "roll,combat,attack,character,npc,config,"
                               "macro,Reroll,Explain,Apply damage,help");

    json_t *cb = slash(&h, "help", json_pack("[{s:s, s:s}]", "name",
                                             "topic", "value", "toy"));
    assert_non_null(strstr(reply_text(cb, buf, sizeof buf), "/poke"));
    json_decref(cb);

    /* the fight's /poke offers its declared words as choices */
    json_decref(slash(&h, "combat", json_pack("[{s:s, s:[{s:s, s:s}]}]",
                                              "name", "start", "options",
                                              "name", "system", "value",
                                              "toy")));
    json_t *desc = json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:[{s:s, s:s}, "
                     "{s:s, s:s, s:b}]}]}",
                     "type", "autocomplete", "name", "combat", "user_id", GM,
                     "permissions", ADMIN, "options", "name", "condition",
                     "options", "name", "name", "value", "x", "name",
                     "condition", "value", "wob", "focused", 1);
    cb = harness_interact(&h, desc);
    json_decref(desc);
    assert_non_null(strstr(reply_text(cb, buf, sizeof buf), "Wobbly"));
    json_decref(cb);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_server_commands),
    };
    return cmocka_run_group_tests_name("toy_daemon", tests, NULL, NULL);
}
