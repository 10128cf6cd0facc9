/* test_l10n_cards.c - the cards system's results in the table's language
 * (docs/internals/i18n.md): the deal of initiative cards, a readied dodge
 * and an attack it stops, in German and Polish, each a whole sentence of
 * the catalogs with the reaction's word, the roll's label and the
 * modifiers' reasons looked up too. English stays as it was. */
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

#define PLAYER 10                /* Ana's owner */

struct fight {
    RS_FX_STATE;
};

static void fight_new(struct fight *f)
{
    memset(f, 0, sizeof *f);
    rs_fx_init(&f->fx, rs_find("cards"), 7, &f->result);
    static const struct {
        const char *name;
        uint64_t owner;
        const char *stats;
    } who[] = {
        {"Ana", PLAYER, "strike=2 damage=2 hp=6"},
        {"Orc", 0, "finesse=4 hp=6"},
    };
    for (size_t i = 0; i < sizeof who / sizeof who[0]; i++)
        assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
            .name = who[i].name, .owner = who[i].owner,
            .stats = who[i].stats,
            .flags = RS_FX_LIKE_ADD | RS_FX_HP_TRACK,
        }));
}

/* The last call's events as lang's table reads them; caller frees. */
static char *events(const struct fight *f, enum i18n_lang lang)
{
    return l10n_fx_events(f->e, f->r, lang);
}

/* The deal: each card drawn is a whole sentence, "card" and "cards" as the
 * language says them. */
static void test_deal_in_german_and_polish(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    assert_int_equal(rs_fx_begin(&f.fx, RS_FX_GM, true), ENG_OK);

    char *en = events(&f, I18N_EN);
    l10n_fx_has(en, "**Ana** draws card ");
    l10n_fx_has(en, "**Orc** draws card ");
    free(en);

    char *de = events(&f, I18N_DE);
    l10n_fx_has(de, "**Ana** zieht Karte ");
    l10n_fx_has(de, "**Orc** zieht Karte ");
    l10n_fx_lacks(de, "draws");
    free(de);

    char *pl = events(&f, I18N_PL);
    l10n_fx_has(pl, "**Ana** ciągnie kartę ");
    l10n_fx_lacks(pl, "draws");
    free(pl);
    rs_fx_cleanup(&f.fx);
}

/* The Orc readies a dodge against Ana, and her attack (two sure
 * successes against its four) misses: the dodge's name, the sentence
 * that lets the Orc swap cards, the outcome and the modifier's reason
 * are all the language's. */
static void test_dodge_and_attack_in_german_and_polish(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    assert_int_equal(rs_fx_begin(&f.fx, RS_FX_GM, true), ENG_OK);
    /* Every face a success: the pools' counts are their sizes. */
    assert_int_equal(enc_setting_set(f.e, "success", "1", &f.d), ENG_OK);

    rs_fx_opts(&f.fx, "name", "Orc", "kind", "dodge", "against", "Ana",
               NULL);
    assert_int_equal(rs_fx_action(&f.fx, RS_FX_GM, true, "react"), ENG_OK);
    char *en = events(&f, I18N_EN);
    l10n_fx_has(en, "**Orc** readies a dodge against **Ana**");
    free(en);
    char *de = events(&f, I18N_DE);
    l10n_fx_has(de, "**Orc** bereitet eine Reaktion vor (Ausweichen) gegen "
                    "**Ana**");
    free(de);
    char *pl = events(&f, I18N_PL);
    l10n_fx_has(pl, "**Orc** przygotowuje reakcję (unik) przeciw **Ana**");
    free(pl);

    rs_fx_opts(&f.fx, NULL);
    assert_int_equal(rs_fx_attack(&f.fx, RS_FX_GM, true, "Ana", "Orc", NULL,
                                  NULL, "free"),
                     ENG_OK);
    en = events(&f, I18N_EN);
    l10n_fx_has(en, "**miss**");
    l10n_fx_has(en, "dodge \xE2\x88\x92");
    l10n_fx_has(en, "**Orc** rolled more successes than the attack and may "
                    "swap cards with **Ana**");
    free(en);

    de = events(&f, I18N_DE);
    l10n_fx_has(de, "**verfehlt**");
    l10n_fx_has(de, "Ausweichen \xE2\x88\x92");
    l10n_fx_has(de, "**Orc** hat mehr Erfolge gewürfelt als der Angriff und "
                    "darf mit **Ana** Karten tauschen");
    l10n_fx_lacks(de, "rolled more");
    free(de);

    pl = events(&f, I18N_PL);
    l10n_fx_has(pl, "unik \xE2\x88\x92");
    l10n_fx_has(pl, "**Orc** wyrzuca więcej sukcesów niż atak i może "
                    "zamienić się kartami (z: **Ana**)");
    l10n_fx_lacks(pl, "rolled more");
    free(pl);
    rs_fx_cleanup(&f.fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deal_in_german_and_polish),
        cmocka_unit_test(test_dodge_and_attack_in_german_and_polish),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
