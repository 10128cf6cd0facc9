/* test_hidden_join.c - a player joins under a hidden combatant's name
 * (issue 33): the join goes through as it would for a free name, so it
 * confirms nothing; the hidden one takes "Name 2", which the GM reads
 * (in the GM's copy of the join and in the private status) and the
 * player never does. */
#include "support.h"

#include <string.h>

#include "cmd_fixture.h"

#define GM 100
#define ALICE 200

static void test_join_renames_the_hidden_one(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Shadow Assassin",
                           "hp", "30", "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name",
                           "shadow assassin", "hp", "12", NULL));
    cmd_fx_has(f, "shadow assassin joins the fight");
    assert_null(strstr(f->text, "Shadow Assassin"));
    assert_null(strstr(f->text, "Assassin 2"));
    /* the GM's copy says what became of the hidden one */
    assert_non_null(strstr(f->gm_text, "Shadow Assassin 2"));
    assert_true(cmd_fx_run(f, GM, "combat", "status", "private", "true",
                           NULL));
    cmd_fx_has(f, "Shadow Assassin 2 (hidden)");
    cmd_fx_has(f, "shadow assassin hp 12/12");
    /* the player's view: their own, and someone unseen */
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    assert_null(strstr(f->text, "Shadow Assassin"));
    /* a visible one's name is refused as before: no secret there */
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "hp", "5",
                           NULL));
    assert_false(cmd_fx_run(f, ALICE, "combat", "join", "name", "orc", "hp",
                            "5", NULL));
    cmd_fx_has(f, "already a combatant named orc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_join_renames_the_hidden_one,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("hidden_join", tests, NULL, NULL);
}
