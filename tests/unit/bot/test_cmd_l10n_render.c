/*
 * Whose language the results and the engine's refusals speak through the
 * command layer (docs/internals/i18n.md, "Whose language"): a public
 * result the server's (guild_locale here), a refusal the sender's
 * (Discord's locale), English by default as before.
 */
#include "support.h"

#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

static void has_not(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) != NULL)
        fail_msg("the reply has \"%s\":\n%s", needle, f->text);
}

/* A Polish table read by a German player: Aria's attack is posted in
 * Polish; the engine's refusal of her next command is hers, in German. */
static void test_results_public_refusal_private(void **state)
{
    struct cmd_fx *f = *state;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    f->guild_lang = I18N_PL;
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                           "target", "Goblin", "roll", "18", "damage", "5",
                           NULL));
    cmd_fx_has(f, "Aria atakuje: Goblin");
    cmd_fx_has(f, "trafienie");
    cmd_fx_has(f, "Goblin otrzymuje 5 obrażeń");
    has_not(f, "attacks");
    /* the generic system refuses an attack on a target with no ac */
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Crate", "hp",
                           "5", NULL));
    assert_false(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                            "target", "Crate", NULL));
    cmd_fx_has(f, "Crate hat keinen ac-Wert");
}

/* English readers and tables read what they always did. */
static void test_english_unchanged(void **state)
{
    struct cmd_fx *f = *state;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                           "target", "Goblin", "roll", "18", "damage", "5",
                           NULL));
    cmd_fx_has(f, "Aria attacks Goblin");
    cmd_fx_has(f, "Goblin takes 5 damage");
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Crate", "hp",
                           "5", NULL));
    assert_false(cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Aria",
                            "target", "Crate", NULL));
    cmd_fx_has(f, "Crate has no ac to hit");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_results_public_refusal_private,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_english_unchanged,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
