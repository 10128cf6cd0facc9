/* NPC templates through the command layer (commands from Discord in a
 * server): who may manage them (Manage Server, or the role /config
 * npc-role: names; not a player, not the fight's GM as such); /npc save
 * from a fight's combatant (its GM only: a hidden NPC's numbers stay
 * the GM's), create, show, list, delete; /combat add template: with
 * count:, hidden: and options overriding the template; the template
 * quota; autocomplete of template: for those who may use it. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "store.h"

#define GM 100
#define ADMIN 150
#define ALICE 201
#define ROLE 777

#define BANDIT                                                                \
    "name", "Bandit", "system", "generic", "hp", "11", "stats",               \
        "ac=12 attack=3", "attack", "Scimitar", "damage", "1d6+1"

static void test_npc_who_manages(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    assert_false(cmd_fx_run(f, ALICE, "npc", "create", BANDIT, NULL));
    cmd_fx_has(f, "NPC templates are managed by members with Manage Server");
    assert_false(cmd_fx_run(f, ALICE, "npc", "list", NULL));
    /* a fight's GM is not a template manager for starting a fight */
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_false(cmd_fx_run(f, GM, "npc", "create", BANDIT, NULL));
    assert_true(cmd_fx_run(f, ADMIN, "npc", "create", BANDIT, NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Scimitar: damage 1d6+1");
    /* the role the managers choose */
    f->role_user = ALICE;
    f->role = ROLE;
    assert_false(cmd_fx_run(f, ALICE, "npc", "list", NULL));
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "npc-role", "777",
                            NULL));
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "npc-role", "777",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "npc", "list", NULL));
    cmd_fx_has(f, "Bandit (generic)");
    assert_true(cmd_fx_run(f, ALICE, "npc", "delete", "name", "bandit",
                           NULL));
    assert_false(cmd_fx_run(f, ALICE, "npc", "show", "name", "Bandit",
                            NULL));
    cmd_fx_has(f, "this server has no NPC template named Bandit");
    /* forgetting the role: its members lose the templates again, and only
     * a manager may forget it */
    assert_false(
        cmd_fx_run(f, ALICE, "config", NULL, "clear-npc-role", "true", NULL));
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "clear-npc-role", "true",
                            "npc-role", "777", NULL));
    cmd_fx_has(f, "not both");
    assert_true(
        cmd_fx_run(f, ADMIN, "config", NULL, "clear-npc-role", "true", NULL));
    cmd_fx_has(f, "Forgotten.");
    assert_false(cmd_fx_run(f, ALICE, "npc", "list", NULL));
    cmd_fx_has(f, "NPC templates are managed by members with Manage Server");
    assert_true(
        cmd_fx_run(f, ADMIN, "config", NULL, "clear-npc-role", "true", NULL));
    cmd_fx_has(f, "No NPC role was set.");
}

static void test_npc_save_from_fight(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    f->gm = GM;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Shade", "hp",
                           "9", "stats", "ac=14", "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-4", NULL));
    /* Manage Server alone does not see a hidden NPC's numbers */
    assert_false(cmd_fx_run(f, ADMIN, "npc", "save", "from", "Shade",
                            "name", "Shade", NULL));
    cmd_fx_has(f, "only this fight's GM may save");
    assert_true(cmd_fx_run(f, GM, "npc", "save", "from", "Shade", "name",
                           "Shade", NULL));
    cmd_fx_has(f, "hp 9/9"); /* a template starts fresh */
    cmd_fx_has(f, "ac 14");
    assert_false(cmd_fx_run(f, GM, "npc", "save", "from", "Shade", "name",
                            "SHADE", NULL));
    cmd_fx_has(f, "has a template named SHADE already");
    /* hidden follows /combat add hidden:, the options override */
    assert_true(cmd_fx_run(f, GM, "combat", "add", "template", "shade",
                           "count", "2", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "template", "Shade",
                           "name", "Wraith", "hp", "20", "hidden", "true",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "Shade 1 hp 9/9");
    cmd_fx_has(f, "Shade 2 hp 9/9");
    assert_null(strstr(f->text, "Wraith"));
    assert_true(cmd_fx_run(f, GM, "combat", "status", "private", "true",
                           NULL));
    cmd_fx_has(f, "Wraith (hidden) hp 20/20");
    assert_false(cmd_fx_run(f, GM, "combat", "add", "template", "Ghoul",
                            NULL));
    cmd_fx_has(f, "no NPC template named Ghoul");
}

static void test_npc_quota(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    f->ctx.max_templates = 1;
    assert_true(cmd_fx_run(f, ADMIN, "npc", "create", BANDIT, NULL));
    assert_false(cmd_fx_run(f, ADMIN, "npc", "create", "name", "Orc",
                            "system", "generic", NULL));
    cmd_fx_has(f, "this server has 1 NPC template, the most it may keep; "
                  "delete one first with /npc delete");
}

static void test_npc_complete(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "npc", "create", BANDIT, NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    /* the fight's GM without the rights to read templates learns none */
    assert_string_equal(cmd_fx_complete(f, GM, "combat", "add", "template",
                                        "ba", NULL, NULL),
                        "");
    assert_string_equal(cmd_fx_complete(f, ADMIN, "combat", "add",
                                        "template", "ba", NULL, NULL),
                        "Bandit");
    assert_string_equal(cmd_fx_complete(f, ADMIN, "npc", "show", "name", "",
                                        NULL, NULL),
                        "Bandit");
    /* a player learns no template names */
    assert_string_equal(cmd_fx_complete(f, ALICE, "combat", "add",
                                        "template", "", NULL, NULL),
                        "");
}

/* Using a template takes the rights reading it does (/npc show): a
 * fight's GM without them reads what a name nobody has gives. */
static void test_npc_add_needs_rights(void **state)
{
    struct cmd_fx *f = *state;
    char missing[256];
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "npc", "create", BANDIT, NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_false(cmd_fx_run(f, GM, "npc", "show", "name", "Bandit", NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "add", "template", "Nobody",
                            NULL));
    snprintf(missing, sizeof missing, "%s", f->text);
    assert_false(cmd_fx_run(f, GM, "combat", "add", "template", "Bandit",
                            NULL));
    cmd_fx_has(f, "no NPC template named Bandit");
    /* the same words, but for the name typed */
    char *at = strstr(missing, "Nobody");
    assert_non_null(at);
    char want[300];
    snprintf(want, sizeof want, "%.*sBandit%s", (int)(at - missing), missing,
             at + strlen("Nobody"));
    assert_string_equal(f->text, want);
    assert_true(cmd_fx_run(f, GM, "combat", "status", "private", "true",
                           NULL));
    assert_null(strstr(f->text, "Bandit"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, cmd_fx_setup_discord, \
                                             cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_npc_who_manages),
        T(test_npc_save_from_fight),
        T(test_npc_quota),
        T(test_npc_complete),
        T(test_npc_add_needs_rights),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_npc", tests, NULL, NULL);
}
