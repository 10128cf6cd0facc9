/*
 * Tests, numbered outcomes, modifiers' units and reasons with a name or a
 * number in the table's language (docs/internals/i18n.md, "Tests,
 * numbered outcomes, reasons and units"): a tactical test's label built
 * from its why, attribute and skill, its conditions' penalties and its
 * "fails by N"; a cards test's "passes, N extra successes" and its bonus
 * in dice, each a plural form of the language (Polish has three). English
 * stays as the transcripts have it.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"

enum { GM = 100, ALICE = 200 };

static void has_not(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) != NULL)
        fail_msg("the reply has \"%s\":\n%s", needle, f->text);
}

/* tests/transcripts/tactical_fight.txt's test: Vex, Grappled and
 * Poisoned, exerts on a Strength(Athletics) test and has no dice left. */
static void tactical_test(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "tactical",
                           "name", "Hangar", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Vex",
                           "hp", "20", "stats",
                           "init=3 stamina=3 strength=2", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Vex",
                           "condition", "Grappled", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Vex",
                           "condition", "Poisoned", NULL));
    assert_true(cmd_fx_run(f, ALICE, "test", NULL, "attr", "strength",
                           "skill", "athletics", "difficulty", "2",
                           "exert", "true", NULL));
}

static void test_tactical_test_in_german(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    tactical_test(f);
    cmd_fx_has(f, "Vex macht eine Probe \xE2\x80\x93 Stärke(Athletik): "
                  "0 gegen 2 (Verausgaben: Vorteil +1 Würfel \xC2\xB7 "
                  "Gepackt \xE2\x88\x92" "2 Würfel \xC2\xB7 ");
    cmd_fx_has(f, "\xE2\x80\x94 misslungen um 2");
    has_not(f, "dice");
    has_not(f, "fails");
}

static void test_tactical_test_in_polish(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_PL;
    tactical_test(f);
    /* one die, two dice: "kość", "kości" */
    cmd_fx_has(f, "Vex wykonuje test \xE2\x80\x93 Siła(Atletyka): "
                  "0 przeciw 2 (wysiłek: przewaga +1 kość \xC2\xB7 "
                  "Pochwycony \xE2\x88\x92" "2 kości \xC2\xB7 ");
    cmd_fx_has(f, "niezdany o 2");
    has_not(f, "dice");
}

static void test_tactical_test_in_english(void **state)
{
    struct cmd_fx *f = *state;
    tactical_test(f);
    cmd_fx_has(f, "Vex tests with Strength(Athletics): 0 vs 2 (exert: "
                  "advantage +1 dice \xC2\xB7 Grappled \xE2\x88\x92" "2 dice "
                  "\xC2\xB7 Poisoned \xE2\x88\x92" "1 dice \xC2\xB7 no dice "
                  "left in the pool) \xE2\x80\x94 fails by 2");
}

/* A cards test where every face succeeds: finesse + bonus dice, one
 * needed, so the extra successes are the pool less one. */
static void cards_test(struct cmd_fx *f, const char *finesse,
                       const char *bonus)
{
    char stats[32];
    snprintf(stats, sizeof stats, "finesse=%s", finesse);
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "cards",
                           "name", "Mine", "settings", "success=1", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Ana",
                           "hp", "4", "stats", stats, NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    assert_true(cmd_fx_run(f, ALICE, "test", NULL, "name", "Ana", "skill",
                           "finesse", "need", "1", "bonus", bonus, NULL));
}

/* Polish's three forms: 1, 2-4, 5 and more. */
static void test_cards_counts_in_polish(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_PL;
    cards_test(f, "5", "1");
    cmd_fx_has(f, "premia +1 kość)");
    cmd_fx_has(f, "zdany, 5 dodatkowych sukcesów");
    has_not(f, "passes");
}

static void test_cards_few_in_polish(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_PL;
    cards_test(f, "2", "2");
    cmd_fx_has(f, "premia +2 kości)");
    cmd_fx_has(f, "zdany, 3 dodatkowe sukcesy");
}

static void test_cards_counts_in_german(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    cards_test(f, "1", "1");
    cmd_fx_has(f, "Bonus +1 Würfel)");
    cmd_fx_has(f, "bestanden, 1 zusätzlicher Erfolg");
    has_not(f, "extra");
}

static void test_cards_counts_in_english(void **state)
{
    struct cmd_fx *f = *state;
    cards_test(f, "1", "1");
    cmd_fx_has(f, "bonus +1 die)");
    cmd_fx_has(f, "passes, 1 extra success");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                              cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_tactical_test_in_german),
        T(test_tactical_test_in_polish),
        T(test_tactical_test_in_english),
        T(test_cards_counts_in_polish),
        T(test_cards_few_in_polish),
        T(test_cards_counts_in_german),
        T(test_cards_counts_in_english),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
