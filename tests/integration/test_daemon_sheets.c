/* test_daemon_sheets.c - saved characters and NPC templates through the
 * real daemon and fake-discord: autocomplete of /combat join character:
 * (the sender's characters only) and of /attack with: (the attacker's
 * saved attacks, for whoever may act for it), and every quota refusal of
 * the config file's [sheets] section: the characters one player keeps in a
 * server and the templates a server keeps. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"

#define GM "1100000000000000401"
#define ALICE "1100000000000000402"
#define BOB "1100000000000000403"
#define MANAGE_SERVER_PERMS "32"

#define QUOTAS                                                                \
    "[sheets]\n"                                                              \
    "max_characters_per_user = 1\n"                                           \
    "max_templates_per_server = 1\n"

/* /name sub with options opts as user (perms: NULL for fake-discord's
 * everyday member permissions); the callback. */
static json_t *sub_command(struct harness *h, const char *user,
                           const char *perms, const char *name,
                           const char *sub, json_t *opts)
{
    return harness_slash(h, user, perms, name,
                         json_pack("[{s:s, s:o}]", "name", sub, "options",
                                   opts ? opts : json_array()));
}

/* /command create name:<name> system:generic as user: the callback. */
static json_t *create(struct harness *h, const char *user, const char *perms,
                      const char *command, const char *name)
{
    return sub_command(h, user, perms, command, "create",
                       json_pack("[{s:s,s:s},{s:s,s:s}]", "name", "name",
                                 "value", name, "name", "system", "value",
                                 "generic"));
}

/* The callback's data (content and embeds) as JSON text into buf; the
 * callback is freed. */
static const char *content(json_t *cb, char *buf, size_t cap)
{
    char *s = json_dumps(json_object_get(cb, "data"), 0);
    snprintf(buf, cap, "%s", s ? s : "");
    free(s);
    json_decref(cb);
    return buf;
}

/* The choices autocomplete offers user for option opt (typed so far) of
 * /name sub (sub NULL: /name), with one more option given (other: NULL
 * for none), comma-separated into out. */
static void complete(struct harness *h, const char *user, const char *name,
                     const char *sub, const char *opt, const char *typed,
                     const char *other, const char *other_value, char *out,
                     size_t cap)
{
    json_t *list = json_pack("[{s:s, s:s, s:b}]", "name", opt, "value",
                             typed, "focused", 1);
    if (other != NULL)
        json_array_append_new(list, json_pack("{s:s, s:s}", "name", other,
                                              "value", other_value));
    harness_complete(h, user, name, sub, list, out, cap);
}

static void test_sheets_through_the_daemon(void **st)
{
    struct harness h;
    char got[2048];
    (void)st;

    harness_start_conf(&h, NULL, NULL, true, QUOTAS);
    content(sub_command(&h, ALICE, NULL, "character", "create",
                        json_pack("[{s:s,s:s},{s:s,s:s},{s:s,s:i},"
                                  "{s:s,s:s},{s:s,s:s},{s:s,s:s}]",
                                  "name", "name", "value", "Aria", "name",
                                  "system", "value", "generic", "name", "hp",
                                  "value", 24, "name", "init", "value", "=30",
                                  "name", "attack", "value", "Longsword",
                                  "name", "damage", "value", "1d8+3")),
            got, sizeof got);
    assert_non_null(strstr(got, "Longsword"));
    /* the quota of characters per player and server: 1 here */
    content(create(&h, ALICE, NULL, "character", "Brim"), got, sizeof got);
    assert_non_null(strstr(got, "you have 1 character in this server, the "
                                "most one player may keep"));
    content(create(&h, BOB, NULL, "character", "Bex"), got, sizeof got);
    assert_non_null(strstr(got, "Saved."));

    /* character: offers the sender's own characters only */
    complete(&h, ALICE, "combat", "join", "character", "", NULL, NULL, got,
             sizeof got);
    assert_string_equal(got, "Aria");
    complete(&h, BOB, "combat", "join", "character", "a", NULL, NULL, got,
             sizeof got);
    assert_string_equal(got, "");

    /* with: offers the attacker's saved attacks to who may act for it */
    content(sub_command(&h, GM, NULL, "combat", "start",
                        json_pack("[{s:s,s:s}]", "name", "system", "value",
                                  "generic")),
            got, sizeof got);
    content(sub_command(&h, ALICE, NULL, "combat", "join",
                        json_pack("[{s:s,s:s}]", "name", "character",
                                  "value", "Aria")),
            got, sizeof got);
    if (strstr(got, "**Aria** joins the fight") == NULL)
        fail_msg("join: %s", got);
    content(sub_command(&h, GM, NULL, "combat", "begin", NULL), got,
            sizeof got);
    complete(&h, ALICE, "attack", NULL, "with", "long", NULL, NULL, got,
             sizeof got);
    assert_string_equal(got, "Longsword");
    complete(&h, BOB, "attack", NULL, "with", "", "attacker", "Aria", got,
             sizeof got);
    assert_string_equal(got, "");

    /* the quota of NPC templates per server: 1 here */
    content(create(&h, GM, MANAGE_SERVER_PERMS, "npc", "Bandit"), got,
            sizeof got);
    assert_non_null(strstr(got, "Saved."));
    content(create(&h, GM, MANAGE_SERVER_PERMS, "npc", "Orc"), got,
            sizeof got);
    assert_non_null(strstr(got, "this server has 1 NPC template, the most "
                                "it may keep"));
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sheets_through_the_daemon),
    };
    return cmocka_run_group_tests_name("daemon_sheets", tests, NULL, NULL);
}
