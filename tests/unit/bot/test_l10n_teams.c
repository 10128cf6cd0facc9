/* test_l10n_teams.c - the teams system's results in the table's language
 * (docs/internals/i18n.md): the team order, an attack's modifiers and
 * outcome, and a sentence whose count takes its noun ("2 actions") read
 * in German and Polish, as the catalogs translate them; English stays as
 * the transcripts have it; the fortify question's buttons through the
 * command layer; the tracker's status line and head (rs_ops.status and
 * tracker_head in the reader's language, a count's Polish form "akcje:
 * 3"). */
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "i18n.h"
#include "l10n_fixture.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "sbuf.h"

struct fx {
    RS_FX_STATE_BY_VALUE;
};

/* Roland and Cat (players) against a guard (guards), players first: the
 * players pick who acts. */
static struct fx *fight(void)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, rs_find("teams"), 7, &f->r);
    rs_fx_opts(&f->fx, NULL);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Roland", .side = "players", .stats = "hp=12"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Cat", .side = "players", .stats = "hp=12"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Guard", .side = "guards",
        .stats = "hp=12 endurance=40 evasion=6 pdr=2"}));
    rs_fx_opts(&f->fx, "first", "players", NULL);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    return f;
}

static void fight_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* The last call's events as lang's table reads them; caller frees. */
static char *said(const struct fx *f, enum i18n_lang lang)
{
    return l10n_fx_events(f->e, &f->r, lang);
}

static void assert_says(const struct fx *f, enum i18n_lang lang,
                        const char *want)
{
    char *s = said(f, lang);
    l10n_fx_has(s, want);
    free(s);
}

/* The begin names the order of the teams: one template a count. */
static void test_team_order(void **state)
{
    (void)state;
    struct fx *f = fight();
    assert_says(f, I18N_EN, "team order: players, guards");
    assert_says(f, I18N_DE, "Team players wählt, wer als Nächstes handelt");
    assert_says(f, I18N_DE, "Team-Reihenfolge: players, guards");
    assert_says(f, I18N_PL, "kolejność drużyn: players, guards");
    fight_free(f);
}

/* A flanking spear thrust that cannot miss (a test of 20 against 6): the
 * outcome, the advantage's reason and the damage reduction's are the
 * catalog's words. */
static void test_attack_in_german_and_polish(void **state)
{
    (void)state;
    struct fx *f = fight();
    rs_fx_opts(&f->fx, NULL);
    assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Roland"), ENG_OK);
    assert_int_equal(rs_fx_attack(&f->fx, RS_FX_GM, true, "Roland", "Guard",
                                  "20", "4", "flank type=piercing"),
                     ENG_OK);
    assert_says(f, I18N_EN, "flanking: advantage");
    assert_says(f, I18N_EN, "physical damage reduction");
    assert_says(f, I18N_DE, "Flankieren: Vorteil");
    assert_says(f, I18N_DE, "physische Schadensreduktion");
    assert_says(f, I18N_PL, "oskrzydlenie: przewaga");
    assert_says(f, I18N_PL, "redukcja obrażeń fizycznych");
    char *de = said(f, I18N_DE);
    assert_null(strstr(de, "flanking"));
    free(de);
    fight_free(f);
}

/* A count with its noun: German takes the plural, Polish puts the noun
 * first ("akcje: 2") so that one word serves 2-4 and the singular reads
 * "akcja: 1". */
static void test_actions_left(void **state)
{
    (void)state;
    struct fx *f = fight();
    rs_fx_opts(&f->fx, NULL);
    assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Roland"), ENG_OK);
    rs_fx_opts(&f->fx, "action", "move", NULL);
    assert_int_equal(rs_fx_action(&f->fx, RS_FX_GM, true, "act"), ENG_OK);
    assert_says(f, I18N_EN, "**Roland**: move (2 actions left)");
    assert_says(f, I18N_DE, "**Roland**: move (noch 2 Aktionen)");
    assert_says(f, I18N_PL, "**Roland**: move (akcje w zapasie: 2)");
    rs_fx_opts(&f->fx, "action", "interact", NULL);
    assert_int_equal(rs_fx_action(&f->fx, RS_FX_GM, true, "act"), ENG_OK);
    assert_says(f, I18N_EN, "**Roland**: interact (1 action left)");
    assert_says(f, I18N_DE, "**Roland**: interact (noch 1 Aktion)");
    assert_says(f, I18N_PL, "**Roland**: interact (akcja w zapasie: 1)");
    fight_free(f);
}

/* Too much health lost: the fortify-or-fall question's buttons speak the
 * table's language (Polish here), English when it is. */
static void fortify_prompt(struct cmd_fx *f)
{
    enum { GM = 100 };
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "teams",
                           "name", "Gate", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Boudica", "side",
                           "players", "hp", "12", "stats",
                           "endurance=1 stamina=3 con=4", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Guard", "side",
                           "guards", "hp", "10", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", "first", "players",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Boudica",
                           "amount", "7", NULL));
}

static void test_fortify_buttons_in_polish(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_PL;
    fortify_prompt(f);
    cmd_fx_has(f, "Boudica musi się zahartować przeciw 6 albo straci "
                  "przytomność");
    assert_non_null(cmd_fx_button(f, "Zahartuj się"));
    assert_non_null(cmd_fx_button(f, "Strać przytomność"));
    assert_null(cmd_fx_button(f, "Fortify"));
}

static void test_fortify_buttons_in_english(void **state)
{
    struct cmd_fx *f = *state;
    fortify_prompt(f);
    cmd_fx_has(f, "Boudica must fortify against 6 or fall unconscious");
    assert_non_null(cmd_fx_button(f, "Fortify"));
    assert_non_null(cmd_fx_button(f, "Fall unconscious"));
}

/* name's tracker line (or, name NULL, the tracker's head) as lang's table
 * reads it; caller frees. */
static char *line(struct fx *f, const char *name, enum i18n_lang lang)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    if (name != NULL)
        render_combatant(&b, f->e, rs_fx_who(&f->fx, name), lang);
    else
        render_tracker_head(&b, f->e, lang);
    char *s = sbuf_take(&b);
    sbuf_cleanup(&b);
    assert_non_null(s);
    return s;
}

static void assert_line(struct fx *f, const char *name, enum i18n_lang lang,
                        const char *want)
{
    char *s = line(f, name, lang);
    if (strstr(s, want) == NULL)
        fail_msg("\"%s\" not in:\n%s", want, s);
    free(s);
}

/* The head names the team that picks; a member's line its reactions and,
 * on its turn, its actions: a count of one and of many in each language. */
static void test_teams_line_and_head(void **state)
{
    (void)state;
    struct fx *f = fight();
    assert_line(f, NULL, I18N_EN, "Team players picks who acts next.");
    assert_line(f, NULL, I18N_DE, "Team players wählt, wer als Nächstes "
                                  "handelt.");
    assert_line(f, NULL, I18N_PL, "Drużyna players wybiera, kto działa "
                                  "następny.");
    assert_line(f, "Guard", I18N_EN, "hp 12/12 endurance 40/40 \xC2\xB7 "
                                     "1 reaction");
    assert_line(f, "Guard", I18N_DE, "Gesundheit 12/12 Ausdauer 40/40 "
                                     "\xC2\xB7 1 Reaktion");
    assert_line(f, "Guard", I18N_PL, "zdrowie 12/12 wytrzymałość 40/40 "
                                     "\xC2\xB7 1 reakcja");
    assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Roland"), ENG_OK);
    assert_line(f, "Roland", I18N_EN, "3 actions \xC2\xB7 1 reaction");
    assert_line(f, "Roland", I18N_DE, "3 Aktionen \xC2\xB7 1 Reaktion");
    assert_line(f, "Roland", I18N_PL, "akcje: 3 \xC2\xB7 1 reakcja");
    assert_line(f, NULL, I18N_DE, "Als Nächstes wählt Team guards.");
    assert_line(f, NULL, I18N_PL, "Następnie wybiera drużyna guards.");
    fight_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_team_order),
        cmocka_unit_test(test_teams_line_and_head),
        cmocka_unit_test(test_attack_in_german_and_polish),
        cmocka_unit_test(test_actions_left),
        cmocka_unit_test_setup_teardown(test_fortify_buttons_in_polish,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_fortify_buttons_in_english,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
