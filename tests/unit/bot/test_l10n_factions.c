/* test_l10n_factions.c - the factions system's results in the table's
 * language (docs/internals/i18n.md): a dodged attack and a hit through
 * armour, as the engine says them, rendered in German and Polish from the
 * catalogs' templates (the reaction, the save with its label and outcome,
 * the attack's outcome, the armour's reason) and a refusal's reason in
 * the reader's, and English unchanged. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "l10n_fixture.h"
#include "render_enc.h"
#include "sbuf.h"

#include "../engine/test_rs_factions.h"

#define EM "\xE2\x80\x94"

/* The last call's events as lang's players read them; caller frees. */
static char *events(const struct fx *f, enum i18n_lang lang)
{
    return l10n_fx_events(f->e, f->r, lang);
}

/* Ann (Red) attacks; Cat's AGI 20 always dodges, Dan's AGI 0 never does
 * and his armour 1 takes a point off the 5 damage. */
static void duel(struct fx *f)
{
    fx_add(f, "Ann", "Red", "str=10 agi=10 wit=10 hp=10", 0);
    fx_add(f, "Cat", "Blue", "str=10 agi=20 wit=10 hp=10", 0);
    fx_add(f, "Dan", "Blue", "str=10 agi=0 wit=10 hp=10 armour=1", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
}

/* Cat dodges: her reaction spends her turn, her AGI save has its label
 * and outcome, and the attack's outcome says it was dodged. */
static void test_dodge_in_german_and_polish(void **state)
{
    struct fx *f = *state;
    duel(f);
    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", "dodge"), ENG_OK);

    char *en = events(f, I18N_EN);
    l10n_fx_has(en, "**Cat** reacts: dodge (turn spent)");
    l10n_fx_has(en, "**Cat** AGI save to dodge: 15 vs 20 ([15]) " EM
                    " **pass**");
    l10n_fx_has(en, "**Ann** attacks **Cat**: **dodged**");
    free(en);

    char *de = events(f, I18N_DE);
    l10n_fx_has(de, "**Cat** reagiert: Ausweichen (Zug verbraucht)");
    l10n_fx_has(de, "**Cat** GES-Rettungswurf zum Ausweichen: 15 gegen 20 "
                    "([15]) " EM " **bestanden**");
    l10n_fx_has(de, "**Ann** greift **Cat** an: **ausgewichen**");
    free(de);

    char *pl = events(f, I18N_PL);
    l10n_fx_has(pl, "**Cat** reaguje: unik (tura zużyta)");
    l10n_fx_has(pl, "**Cat** rzut obronny na ZRĘ na unik: 15 przeciw 20 "
                    "([15]) " EM " **zdany**");
    l10n_fx_has(pl, "**Ann** atakuje: **Cat**: **uniknięty**");
    free(pl);
}

/* Dan fails his dodge and takes the hit less his armour (the reason in
 * the table's words); Cat, who did not react, takes the whole 5: the
 * Polish lines take the "few" and the "many" form of the count. */
static void test_hit_in_german_and_polish(void **state)
{
    struct fx *f = *state;
    duel(f);
    assert_int_equal(fx_attack(f, "Ann", "Dan", "5", "dodge"), ENG_OK);

    char *en = events(f, I18N_EN);
    l10n_fx_has(en, "**Dan** AGI save to dodge: 15 vs 0 ([15]) " EM
                    " **fail**");
    l10n_fx_has(en, "**Ann** attacks **Dan**: **hit**");
    l10n_fx_has(en, "**Dan** takes **4** damage (armour \xE2\x88\x92" "1)");
    free(en);

    char *de = events(f, I18N_DE);
    l10n_fx_has(de, "([15]) " EM " **misslungen**");
    l10n_fx_has(de, "**Ann** greift **Dan** an: **Treffer**");
    l10n_fx_has(de, "**Dan** erleidet **4** Schaden (Rüstung \xE2\x88\x92"
                    "1)");
    free(de);

    char *pl = events(f, I18N_PL);
    l10n_fx_has(pl, "([15]) " EM " **niezdany**");
    l10n_fx_has(pl, "**Ann** atakuje: **Dan**: **trafienie**");
    l10n_fx_has(pl, "**Dan** otrzymuje **4** obrażenia (pancerz "
                    "\xE2\x88\x92" "1)");
    free(pl);

    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", NULL), ENG_OK);
    pl = events(f, I18N_PL);
    l10n_fx_has(pl, "**Cat** otrzymuje **5** obrażeń");
    free(pl);
}

/* Ann's ranged attack on Cat beyond half range while moving, refused,
 * as a reader of lang gets it (fx_attack() with the refusal's
 * translator set as cmd_diag_lang() sets it); returns the refusal. */
static const char *refused_as(struct fx *f, const enum i18n_lang *lang)
{
    struct rs_call c = fx_call(f, true, 1);
    f->d.tr = l10n_fx_diag_tr;
    f->d.tr_ctx = lang;
    struct rs_attack a = {.attacker = fx_who(f, "Ann"),
                          .target = fx_who(f, "Cat"), .damage = "5",
                          .options = "ranged far moving"};
    struct rs_arg args[RS_MAX_TOKENS];
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    assert_int_equal(rs_bind_tokens(&c, "/attack options:",
                                    rs_factions.attack_opts, a.options, buf,
                                    sizeof buf, args, RS_MAX_TOKENS,
                                    &a.nargs, c.d),
                     ENG_OK);
    a.args = args;
    assert_int_equal(rs_factions.ops->attack(&c, &a), ENG_STATE);
    return f->d.msg;
}

/* A refusal whose reason the rules give reads whole in the reader's
 * language: the format and the reason both. */
static void test_refusal_reason_in_german_and_polish(void **state)
{
    struct fx *f = *state;
    duel(f);
    static const enum i18n_lang en = I18N_EN, de = I18N_DE, pl = I18N_PL;
    assert_string_equal(refused_as(f, &en), "a ranged attack beyond half "
                                            "range is not possible while "
                                            "moving");
    assert_string_equal(refused_as(f, &de), "ein Fernkampfangriff jenseits "
                                            "halber Reichweite ist in "
                                            "Bewegung nicht möglich");
    assert_string_equal(refused_as(f, &pl), "atak dystansowy poza połową "
                                            "zasięgu nie jest możliwy w "
                                            "ruchu");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dodge_in_german_and_polish,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_hit_in_german_and_polish,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(
            test_refusal_reason_in_german_and_polish, fx_setup,
            fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
