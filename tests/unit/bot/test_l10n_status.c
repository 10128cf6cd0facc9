/* test_l10n_status.c - track names in the table's language
 * (docs/internals/i18n.md): a declared track by its system's catalog word
 * and a GM's own track as typed, in a track's change and in the sheet
 * write-back's sentence with its track list, through the command layer,
 * in German and Polish; English stays as the transcripts have it. The
 * systems' status words and heads: test_l10n_teams (a count's Polish form,
 * "akcje: 3"). */
#include "support.h"

#include <stdint.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "i18n.h"
#include "render_enc.h"
#include "rs.h"

#define GM 100
#define ALICE 201

/* A track the system declares has its word; one a GM made, and every
 * track in English, shows as typed. */
static void test_track_names(void **state)
{
    (void)state;
    const struct rs_system *teams = rs_find("teams");
    const struct rs_system *generic = rs_find("generic");
    assert_string_equal(render_track_name(teams, "hp", I18N_DE),
                        "Gesundheit");
    assert_string_equal(render_track_name(generic, "hp", I18N_DE), "TP");
    assert_string_equal(render_track_name(generic, "hp", I18N_PL), "PW");
    assert_string_equal(render_track_name(rs_find("cards"), "mental",
                                          I18N_PL), "psychiczne");
    assert_string_equal(render_track_name(teams, "mana", I18N_DE), "mana");
    assert_string_equal(render_track_name(teams, "hp", I18N_EN), "hp");
    assert_string_equal(render_track_name(NULL, "hp", I18N_DE), "hp");
}

/* The end writes Aria's hp back to her sheet: the table's sentence, its
 * track by the table's word; the hp change's line too. */
static void test_writeback_in_each_language(void **state)
{
    static const struct {
        enum i18n_lang lang;
        const char *amount, *change, *kept;
    } want[] = {   /* each end changes the sheet, so each writes back */
        {I18N_EN, "-7", "Aria: hp 24 \xE2\x86\x92 17",
         "Aria's saved sheet keeps it: hp 17/24."},
        {I18N_DE, "-6", "Aria: TP 24 \xE2\x86\x92 18",
         "Der gespeicherte Bogen von Aria behält das: TP 18/24."},
        {I18N_PL, "-5", "Aria: PW 24 \xE2\x86\x92 19",
         "Zapisana karta postaci Aria to zachowuje: PW 19/24."},
    };
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           "system", "generic", "hp", "24", NULL));
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        f->guild_lang = want[i].lang;
        assert_true(cmd_fx_run(f, GM, "combat", "start", "system",
                               "generic", NULL));
        assert_true(cmd_fx_run(f, ALICE, "combat", "join", "character",
                               "Aria", "hp", "24", NULL));
        assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Aria",
                               "change", want[i].amount, NULL));
        cmd_fx_has(f, want[i].change);
        assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true",
                               NULL));
        cmd_fx_has(f, want[i].kept);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_track_names),
        cmocka_unit_test_setup_teardown(test_writeback_in_each_language,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
