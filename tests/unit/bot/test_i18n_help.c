/* Validation errors, the command layer's refusals and /help in the
 * reader's language (docs/internals/i18n.md): each is a private reply, so
 * Discord's locale (req.lang) picks it whatever the server speaks; counts
 * take the catalog's plural forms (Polish has three); English is the
 * literal text, unchanged. */
#include "support.h"

#include <string.h>

#include "cmd_fixture.h"
#include "cmd_validate.h"
#include "eng_limits.h"

#define ALICE 201
#define GM 202

static void test_validation_errors_speak_the_reader(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_FR;            /* the server's does not matter */
    f->lang = I18N_DE;
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6", "bogus",
                            "1", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "unbekannte Option bogus für /roll (Optionen: dice,");
    cmd_fx_has(f, "Versuch: /help");
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dce", "2d6", NULL));
    cmd_fx_has(f, "(meintest du dice?)");
    assert_false(cmd_fx_run(f, ALICE, "combat", "strat", NULL));
    cmd_fx_has(f, "unbekannter Unterbefehl strat für /combat (meintest du "
                  "start?)");
    assert_false(cmd_fx_run(f, ALICE, "rol", NULL, NULL));
    cmd_fx_has(f, "unbekannter Befehl /rol (meintest du /roll?)");
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, ALICE, "combat", "add", "name", "Orc", "hp",
                            "lots", NULL));
    cmd_fx_has(f, "opcja hp musi być liczbą całkowitą, a jest lots");
    assert_false(cmd_fx_run(f, ALICE, "combat", "add", "name", "Orc", "name",
                            "Elf", NULL));
    cmd_fx_has(f, "opcja name podana dwa razy");
    /* the longest wordings fit in any language: the pseudo-language
     * closes each message with ']', which a cut would lose */
    f->lang = I18N_PSEUDO;
    static const char *const longest[][6] = {
        {"combat", "add", "bogus", "1", NULL, NULL},
        {"roll", NULL, "label", "x", NULL, NULL},
        {"combat", "add", "side", "x", "hp", "-99999999999"}};
    for (size_t i = 0; i < sizeof longest / sizeof longest[0]; i++) {
        const char *const *a = longest[i];
        assert_false(cmd_fx_run(f, ALICE, a[0], a[1], a[2], a[3], a[4],
                                a[5], NULL));
        const char *nl = strchr(f->text, '\n');
        if (nl == NULL || nl == f->text || nl[-1] != ']')
            fail_msg("cut or untranslated: %s", f->text);
    }
    /* the same refusals in English, word for word as before */
    f->lang = I18N_EN;
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6", "bogus",
                            "1", NULL));
    cmd_fx_has(f, "unknown option bogus for /roll (options: dice,");
    cmd_fx_has(f, "Try: /help");
    assert_false(cmd_fx_run(f, ALICE, "rol", NULL, NULL));
    cmd_fx_has(f, "unknown command /rol (did you mean /roll?)");
}

/* Polish's three forms, chosen by the catalog's Plural-Forms from the
 * declared limit: 1024 takes "bajty", 100 "bajtów". */
static void test_validation_plurals(void **state)
{
    struct cmd_fx *f = *state;
    static char longdice[CMD_MAX_OPT_VALUE + 8], label[DICE_MAX_LABEL + 2];
    _Static_assert(CMD_MAX_OPT_VALUE == 1024 && DICE_MAX_LABEL == 100,
                   "the forms below are 1024's and 100's");
    memset(longdice, '1', sizeof longdice - 1);
    memset(label, 'x', sizeof label - 1);
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", longdice, NULL));
    cmd_fx_has(f, "opcja dice jest za długa (limit to 1024 bajty)");
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6", "label",
                            label, NULL));
    cmd_fx_has(f, "opcja label jest za długa (limit to 100 bajtów)");
    f->lang = I18N_DE;
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6", "label",
                            label, NULL));
    cmd_fx_has(f, "Option label ist zu lang (die Grenze ist 100 Bytes)");
    /* the singular, where a limit of one would say it */
    static const char one[] = "option `%s` is too long (limit is %lld byte)";
    static const char many[] = "option `%s` is too long (limit is %lld bytes)";
    assert_string_equal(i18n_nget(I18N_PL, one, many, 1),
                        "opcja `%s` jest za długa (limit to %lld bajt)");
    assert_string_equal(i18n_nget(I18N_DE, one, many, 1),
                        "Option `%s` ist zu lang (die Grenze ist %lld Byte)");
}

/* The command layer's own refusals: no fight here, the GM's commands, a
 * stale button. */
static void test_refusals_speak_the_reader(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    cmd_fx_has(f, "na tym kanale nie ma walki");
    cmd_fx_has(f, "Spróbuj: /combat start system:generic");
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    f->lang = I18N_DE;
    assert_false(cmd_fx_run(f, ALICE, "combat", "end", NULL));
    cmd_fx_has(f, "nur die SL darf /combat end benutzen");
    f->press = true;
    f->press_fight = cmd_fx_fight(f->store) + 1;
    f->press_version = 1;
    assert_false(cmd_fx_run(f, GM, "combat", "next", NULL));
    cmd_fx_has(f, "Dieser Button stammt aus einem früheren Kampf");
}

/* Every /help page, and the generated lists, in the reader's language;
 * the names stay English, with one line on what Discord shows. */
static void test_help_pages_speak_the_reader(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_FR;
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "dice", NULL));
    cmd_fx_has(f, "Würfel");
    cmd_fx_has(f, "Behalten/Streichen: 4d6kh3 behält die höchsten 3");
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "permissions",
                           NULL));
    cmd_fx_has(f, "Wer was darf");
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "combat", NULL));
    cmd_fx_has(f, "Befehle");
    cmd_fx_has(f, "Dein Discord zeigt Befehle und Optionen auf Deutsch "
                  "(/kampf für /combat)");
    cmd_fx_has(f, "/combat start");              /* the names: English */
    cmd_fx_has(f, "Jedes Regelsystem hat eigene Befehle");
    assert_true(strstr(f->text, "Each rule system") == NULL);
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "systems", NULL));
    cmd_fx_has(f, "Regelsysteme");
    f->lang = I18N_PL;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "generic", NULL));
    cmd_fx_has(f, "Statystyki (stats:)");
    cmd_fx_has(f, "Rozpocznij walkę poleceniem /combat start "
                  "system:generic");
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "permissions",
                           NULL));
    cmd_fx_has(f, "Kto może co");
    /* English: the pages as they were, and no note on names */
    f->lang = I18N_EN;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "combat", NULL));
    cmd_fx_has(f, "Each rule system has commands of its own");
    assert_true(strstr(f->text, "Your Discord shows") == NULL);
    /* the pseudo-language: every page went through the catalog */
    f->lang = I18N_PSEUDO;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "dice", NULL));
    assert_true(strstr(f->text, "Keep/drop") == NULL);
    assert_true(strstr(f->text, "Limits: 1000 dice") == NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_validation_errors_speak_the_reader, cmd_fx_setup_discord,
            cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_validation_plurals,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_refusals_speak_the_reader,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_help_pages_speak_the_reader,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("i18n_help", tests, NULL, NULL);
}
