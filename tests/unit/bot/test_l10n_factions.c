/* test_l10n_factions.c - the factions system's results in the table's
 * language (docs/internals/i18n.md): a dodged attack and a hit through
 * armour, as the engine says them, rendered in German and Polish from the
 * catalogs' templates (the reaction, the save with its label and outcome,
 * the attack's outcome, the armour's reason), and English unchanged. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "render_enc.h"
#include "sbuf.h"

#include "../engine/test_rs_factions.h"

#define EM "\xE2\x80\x94"

/* The last call's events as lang's players read them; caller frees. */
static char *events(const struct fx *f, enum i18n_lang lang)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    render_events_text(&b, f->e, f->r, false, lang);
    char *s = sbuf_take(&b);
    sbuf_cleanup(&b);
    assert_non_null(s);
    if (getenv("FRAY_TEST_DUMP") != NULL)
        fprintf(stderr, "--- %s\n%s\n", i18n_code(lang), s);
    return s;
}

static void assert_has(const char *text, const char *want)
{
    if (strstr(text, want) == NULL)
        fail_msg("\"%s\" not in:\n%s", want, text);
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
    assert_has(en, "**Cat** reacts: dodge (turn spent)");
    assert_has(en, "**Cat** AGI save to dodge: 15 vs 20 ([15]) " EM
                   " **pass**");
    assert_has(en, "**Ann** attacks **Cat**: **dodged**");
    free(en);

    char *de = events(f, I18N_DE);
    assert_has(de, "**Cat** reagiert: Ausweichen (Zug verbraucht)");
    assert_has(de, "**Cat** GES-Rettungswurf zum Ausweichen: 15 gegen 20 "
                   "([15]) " EM " **bestanden**");
    assert_has(de, "**Ann** greift **Cat** an: **ausgewichen**");
    free(de);

    char *pl = events(f, I18N_PL);
    assert_has(pl, "**Cat** reaguje: unik (tura zużyta)");
    assert_has(pl, "**Cat** rzut obronny na ZRĘ na unik: 15 przeciw 20 "
                   "([15]) " EM " **zdany**");
    assert_has(pl, "**Ann** atakuje: **Cat**: **uniknięty**");
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
    assert_has(en, "**Dan** AGI save to dodge: 15 vs 0 ([15]) " EM
                   " **fail**");
    assert_has(en, "**Ann** attacks **Dan**: **hit**");
    assert_has(en, "**Dan** takes **4** damage (armour \xE2\x88\x92" "1)");
    free(en);

    char *de = events(f, I18N_DE);
    assert_has(de, "([15]) " EM " **misslungen**");
    assert_has(de, "**Ann** greift **Dan** an: **Treffer**");
    assert_has(de, "**Dan** erleidet **4** Schaden (Rüstung \xE2\x88\x92"
                   "1)");
    free(de);

    char *pl = events(f, I18N_PL);
    assert_has(pl, "([15]) " EM " **niezdany**");
    assert_has(pl, "**Ann** atakuje: **Dan**: **trafienie**");
    assert_has(pl, "**Dan** otrzymuje **4** obrażenia (pancerz "
                   "\xE2\x88\x92" "1)");
    free(pl);

    assert_int_equal(fx_attack(f, "Ann", "Cat", "5", NULL), ENG_OK);
    pl = events(f, I18N_PL);
    assert_has(pl, "**Cat** otrzymuje **5** obrażeń");
    free(pl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dodge_in_german_and_polish,
                                        fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_hit_in_german_and_polish,
                                        fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
