/*
 * Tests for how a condition's name is taken (issue 19): a name the system
 * knows, or one already in the fight, is accepted; a misspelling of
 * either gets "did you mean" and is refused, unless the sender insists
 * (custom:true); a player is never offered a condition only a hidden
 * combatant has.
 */
#include "support.h"

#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"

enum { GM = 100, ALICE = 200 };

static void fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "hp", "9",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Shade", "hp",
                           "9", "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "9", NULL));
}

static bool give(struct cmd_fx *f, uint64_t user, const char *who,
                 const char *cond, bool custom)
{
    return cmd_fx_run(f, user, "combat", "condition", "name", who,
                      "condition", cond, custom ? "custom" : NULL, "true",
                      NULL);
}

static void test_misspelt_common_condition(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_false(give(f, GM, "Orc", "Blesed", false));
    cmd_fx_has(f, "did you mean Blessed");
    cmd_fx_has(f, "custom:true");
    assert_false(give(f, GM, "Orc", "Poisned", false));
    cmd_fx_has(f, "did you mean Poisoned");
    /* the GM insists */
    assert_true(give(f, GM, "Orc", "Blesed", true));
    cmd_fx_has(f, "Orc is now Blesed");
    /* the right names, in any case */
    assert_true(give(f, GM, "Orc", "blessed", false));
    cmd_fx_has(f, "Orc is now Blessed");
}

static void test_fights_own_conditions_are_known(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    /* a name nothing is close to needs no insisting */
    assert_true(give(f, GM, "Orc", "Glowing Runes", false));
    /* once in the fight it is known, in its first spelling */
    assert_true(give(f, ALICE, "Aria", "glowing runes", false));
    cmd_fx_has(f, "Aria is now Glowing Runes");
    /* and a misspelling of it is caught */
    assert_false(give(f, ALICE, "Aria", "Glowing Rune", false));
    cmd_fx_has(f, "did you mean Glowing Runes");
}

static void test_hidden_conditions_not_offered(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(give(f, GM, "Shade", "Shadowbound", true));
    /* a player's near miss is not matched against the unseen Shade's */
    assert_true(give(f, ALICE, "Aria", "Shadowbund", false));
    assert_null(strstr(f->text, "Shadowbound"));
    /* the GM is offered it */
    assert_false(give(f, GM, "Orc", "Shadowbond", false));
    cmd_fx_has(f, "did you mean Shadowbound");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                                 cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_misspelt_common_condition),
        T(test_fights_own_conditions_are_known),
        T(test_hidden_conditions_not_offered),
    };
#undef T
    return cmocka_run_group_tests_name("conditions", tests, NULL, NULL);
}
