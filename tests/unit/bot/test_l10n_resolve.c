/* test_l10n_resolve.c - the resolve system's results in the table's
 * language (docs/internals/i18n.md): an attack with its armour and the
 * damage off Resolve, then Wounded and the Fallen Fate it brings, read in
 * English (unchanged), German and Polish (the damage count in Polish
 * takes its plural form). */
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "l10n_fixture.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "sbuf.h"

#define KIRA_OWNER 10            /* Kira's player */

struct lr {
    RS_FX_STATE;
};

static int lr_setup(void **state)
{
    struct lr *f = test_calloc(1, sizeof *f);
    const struct rs_system *rs = rs_find("resolve");
    assert_non_null(rs);
    rs_fx_init(&f->fx, rs, 7, &f->result);
    /* Kira (a player, stamina 2: two Fallen Fate ignores) acts first. */
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Kira", .owner = KIRA_OWNER, .flags = RS_FX_LIKE_ADD,
        .stats = "init=90 defense=10 stamina=2 resolve=10"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Trooper", .flags = RS_FX_LIKE_ADD,
        .stats = "init=1 defense=10 ar=2 resolve=6"}));
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Kira");
    *state = f;
    return 0;
}

static int lr_teardown(void **state)
{
    struct lr *f = *state;
    rs_fx_cleanup(&f->fx);
    test_free(f);
    return 0;
}

/* The last call's events as lang's table reads them; caller frees. */
static char *events(struct lr *f, enum i18n_lang lang)
{
    return l10n_fx_events(f->e, f->r, lang);
}

/* Kira hits the Trooper: 12 against Defense 10, 5 damage less its Armor
 * Rating 2 off Resolve. */
static void test_attack_in_german_and_polish(void **state)
{
    struct lr *f = *state;
    assert_int_equal(rs_fx_attack(&f->fx, KIRA_OWNER, false, "Kira",
                                  "Trooper", "12", "5", NULL),
                     ENG_OK);
    char *en = events(f, I18N_EN);
    l10n_fx_has(en, "**Kira** attacks **Trooper**: 12 vs 10");
    l10n_fx_has(en, "**hit**");
    l10n_fx_has(en, "(armour \xE2\x88\x92" "2)");
    l10n_fx_has(en, "**Trooper** takes **3** damage");
    free(en);

    char *de = events(f, I18N_DE);
    l10n_fx_has(de, "**Kira** greift **Trooper** an: 12 gegen 10");
    l10n_fx_has(de, "**Treffer**");
    l10n_fx_has(de, "(Rüstung \xE2\x88\x92" "2)");
    l10n_fx_has(de, "**Trooper** erleidet **3** Schaden");
    free(de);

    char *pl = events(f, I18N_PL);
    l10n_fx_has(pl, "**trafienie**");
    l10n_fx_has(pl, "(pancerz \xE2\x88\x92" "2)");
    l10n_fx_has(pl, "**Trooper** otrzymuje **3** obrażenia");
    free(pl);
}

/* The GM's damage takes Kira's Resolve to 0 (Wounded), and more brings
 * the choice of a Fallen Fate: the system's own sentence and condition. */
static void test_fallen_fate_in_german_and_polish(void **state)
{
    struct lr *f = *state;
    rs_fx_opts(&f->fx, "name", "Kira", "amount", "10", NULL);
    assert_int_equal(rs_fx_action(&f->fx, RS_FX_GM, true, "damage"),
                     ENG_OK);
    char *de = events(f, I18N_DE);
    l10n_fx_has(de, "**Verwundet**");
    free(de);
    char *pl = events(f, I18N_PL);
    l10n_fx_has(pl, "**Kira** ma teraz stan **Ranny**");
    free(pl);

    rs_fx_opts(&f->fx, "name", "Kira", "amount", "1", NULL);
    assert_int_equal(rs_fx_action(&f->fx, RS_FX_GM, true, "damage"),
                     ENG_OK);
    char *en = events(f, I18N_EN);
    l10n_fx_has(en, "**Kira** is Wounded and hurt again: choose a Fallen "
                    "Fate, or ignore it (2 ignores left)");
    free(en);
    de = events(f, I18N_DE);
    l10n_fx_has(de, "**Kira** ist verwundet und wird erneut verletzt: wähle "
                    "einen Schicksalsschlag oder ignoriere ihn (noch 2-mal "
                    "ignorierbar)");
    l10n_fx_has(de, "welcher Schicksalsschlag?");
    free(de);
    pl = events(f, I18N_PL);
    l10n_fx_has(pl, "**Kira** jest Ranny i znów oberwał: wybierz Fatalny "
                    "Los albo go zignoruj (pozostałe ignorowania: 2)");
    free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attack_in_german_and_polish,
                                        lr_setup, lr_teardown),
        cmocka_unit_test_setup_teardown(test_fallen_fate_in_german_and_polish,
                                        lr_setup, lr_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
