/* A server's own conditions through the command layer (issue 32, item
 * 6): only managers save, delete, export and import them (/config
 * condition:, delete-condition:, export-conditions:, file:), anyone reads
 * them (/help topic:conditions) and gives them; a system's own name is
 * refused with the reason; limits; a fight gives one for its saved rounds
 * unless the GM times it; autocomplete and the picker offer them after
 * the system's; export and import round trip through the one validator. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "cmd_srvcond.h"

#define GM 100
#define ADMIN 150
#define ALICE 201
#define BOB 202

#define MARKED                                                               \
    "condition", "Marked", "condition-text",                                 \
        "Attacks against it roll twice", "condition-rounds", "2"

static void test_srvcond_who_saves(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, MARKED, NULL));
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, MARKED, NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Saved. Marked: Attacks against it roll twice "
                  "(2 rounds unless the GM says otherwise)");
    /* anyone reads them */
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "conditions",
                           NULL));
    cmd_fx_has(f, "- Marked: Attacks against it roll twice (2 rounds");
    /* set again: changed, in the spelling first saved */
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "MARKED",
                           "condition-rounds", "1", NULL));
    cmd_fx_has(f, "Changed. Marked (1 round unless");
    /* one thing at a time, and not with another setting */
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Dazed",
                            "writeback", "false", NULL));
    cmd_fx_has(f, "give one of condition:, delete-condition:");
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Dazed",
                            "delete-condition", "Marked", NULL));
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "delete-condition",
                            "Marked", NULL));
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "delete-condition",
                           "marked", NULL));
    cmd_fx_has(f, "Deleted the condition marked");
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "delete-condition",
                            "Marked", NULL));
    cmd_fx_has(f, "no condition of its own called Marked");
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "conditions",
                           NULL));
    cmd_fx_has(f, "none yet");
}

static void test_srvcond_refuses_system_names(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    /* generic's own, and another system's (teams' Guarding): never
     * shadowed, whichever system the server plays */
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition",
                            "poisoned", NULL));
    cmd_fx_has(f, "is a condition of the generic rules");
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition",
                            "Guarding", NULL));
    cmd_fx_has(f, "never shadows a system's");
    /* limits and the text policy */
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition",
                            "Dazed\xE2\x80\x8B", NULL));
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Dazed",
                            "condition-rounds", "1001", NULL));
}

static void test_srvcond_limit(void **state)
{
    struct cmd_fx *f = *state;
    char name[16];
    f->manager = ADMIN;
    for (int i = 0; i < SRVCOND_MAX_PER_SERVER; i++) {
        snprintf(name, sizeof name, "Mark%d", i);
        assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "condition", name,
                               NULL));
    }
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Over",
                            NULL));
    cmd_fx_has(f, "the most it may (limit is 100)");
    /* changing one is no new one */
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Mark0",
                           "condition-rounds", "3", NULL));
    /* the help page names the first ones and says how many more */
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "conditions",
                           NULL));
    cmd_fx_has(f, "(75 more");
}

static void test_srvcond_in_a_fight(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, MARKED, NULL));
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    /* typed in another case: its saved spelling, its saved rounds, no
     * custom:true needed, its description heading the reply */
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Goblin",
                           "condition", "marked", NULL));
    cmd_fx_has(f, "Marked: Attacks against it roll twice");
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Marked (2r)");
    /* the GM's rounds win */
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Bryn",
                           "condition", "Marked", "rounds", "4", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Marked (4r)");
    /* undone like any change */
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    assert_null(strstr(f->text, "Marked (4r)"));
    /* given to the hidden Shade, the reply tells nothing of it */
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Shade",
                           "condition", "Marked", NULL));
    assert_null(strstr(f->text, "Attacks against it"));
    /* a near miss of nothing saved is still refused */
    assert_false(cmd_fx_run(f, GM, "combat", "condition", "name", "Bryn",
                            "condition", "Poisned", NULL));
}

static void test_srvcond_offered(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, MARKED, NULL));
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_string_equal(cmd_fx_complete(f, ALICE, "combat", "condition",
                                        "condition", "mar", NULL, NULL),
                        "Marked");
    assert_string_equal(cmd_fx_complete(f, ADMIN, "config", NULL,
                                        "delete-condition", "", NULL, NULL),
                        "Marked");
    /* the picker: the system's first, then the server's */
    assert_true(cmd_fx_run(f, ALICE, "combat", "condition", "name", "Aria",
                           NULL));
    cmd_fx_has(f, "Which condition does Aria get?");
    assert_true(f->reply.msg.select.noptions > 1);
    assert_string_equal(
        f->reply.msg.select.options[f->reply.msg.select.noptions - 1].value,
        "Marked");
}

static void test_srvcond_export_import(void **state)
{
    struct cmd_fx *f = *state;
    char file[1024];
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, MARKED, NULL));
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "condition", "Inspired",
                           NULL));
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "export-conditions",
                            "true", NULL));
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "export-conditions",
                           "true", NULL));
    cmd_fx_has(f, "Exported 2 conditions as fray-conditions.json; "
                  "/config file: with this file brings them back");
    assert_non_null(f->reply.file.data);
    assert_non_null(strstr(f->reply.file.data, "\"kind\": \"conditions\""));
    assert_non_null(strstr(f->reply.file.data,
                           "\"description\": \"Attacks against it roll "
                           "twice\""));
    snprintf(file, sizeof file, "%s", f->reply.file.data);
    /* the same names: refused without replace:true, whole */
    f->file = file;
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "file", "x", NULL));
    cmd_fx_has(f, "replace:true");
    f->file = file;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "file", "x", "replace",
                           "true", NULL));
    cmd_fx_has(f, "Imported 2 conditions");
    /* exported again: the same bytes */
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "export-conditions",
                           "true", NULL));
    assert_string_equal(f->reply.file.data, file);
    /* a system's own name in a file: the validator of condition: */
    f->file = "{\"fray\":\"export\",\"version\":1,\"kind\":\"conditions\","
              "\"items\":[{\"name\":\"Prone\",\"rounds\":1}]}";
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "file", "x", NULL));
    cmd_fx_has(f, "item 1 (Prone): Prone is a condition of the");
    cmd_fx_has(f, "nothing was changed");
    /* another kind of file is refused */
    f->file = "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\","
              "\"items\":[]}";
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "file", "x", NULL));
    cmd_fx_has(f, "holds macros, not conditions");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, cmd_fx_setup_discord, \
                                             cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_srvcond_who_saves),
        T(test_srvcond_refuses_system_names),
        T(test_srvcond_limit),
        T(test_srvcond_in_a_fight),
        T(test_srvcond_offered),
        T(test_srvcond_export_import),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_srvcond", tests, NULL, NULL);
}
