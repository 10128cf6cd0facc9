/* test_l10n_kit.c - the engine kit's sentences and refusals in the
 * table's and the reader's language (docs/internals/i18n.md): a
 * countdown, a resource spent and an event joining the order, each one
 * whole template of the catalogs (Polish takes its numbers after a colon,
 * so a count needs no plural form), and a name's refusal naming its field
 * in the reader's words. English stays as it was. */
#include "support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "enc_cd.h"
#include "enc_entry.h"
#include "enc_res.h"
#include "i18n.h"
#include "l10n_fixture.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "rs_kit.h"
#include "sbuf.h"

/* The shared ruleset fixture (rs_fixture.h), a generic fight with the
 * GM's Drake; the events of every call gather in r until it ends. */
struct fight {
    RS_FX_STATE_BY_VALUE;
    uint32_t drake;
};

static void fight_new(struct fight *f)
{
    rs_fx_init(&f->fx, rs_find("generic"), 42, &f->r);
    f->drake = 0;
    assert_int_equal(enc_add(f->e, "Drake", 1, 0, -1, &f->d, &f->drake),
                     ENG_OK);
}

/* The standing call, as the GM: it keeps the events gathered so far. */
static struct rs_call fight_call(struct fight *f)
{
    return f->fx.c;
}

/* The events of f as lang's players read them; caller frees. */
static char *events(const struct fight *f, enum i18n_lang lang)
{
    return l10n_fx_events(f->e, &f->r, lang);
}

static void assert_lines(const struct fight *f, enum i18n_lang lang,
                         const char *const *want, int n)
{
    char *s = events(f, lang);
    for (int i = 0; i < n; i++)
        l10n_fx_has(s, want[i]);
    free(s);
}

/* A dragon's lair: a countdown of three rounds, three legendary actions
 * with one spent, a lair action at the start of each round. */
static void lair_fight(struct fight *f)
{
    fight_new(f);
    struct rs_call c = fight_call(f);
    assert_int_equal(enc_cd_add(&c, "Collapse", 3, 0, false), ENG_OK);
    struct enc_combatant *drake = enc_by_id(f->e, f->drake);
    assert_int_equal(enc_res_add(&c, drake, "Legendary", 3, ENC_RESET_TURN,
                                 0),
                     ENG_OK);
    assert_int_equal(enc_res_spend(&c, drake, "Legendary", 1), ENG_OK);
    struct enc_entry_req q = {.name = "Tremor", .kind = ENC_ENTRY_LAIR,
                              .at = "start"};
    assert_int_equal(enc_entry_add(&c, &q), ENG_OK);
}

static void test_kit_sentences_in_english(void **state)
{
    (void)state;
    struct fight f;
    lair_fight(&f);
    const char *const want[] = {
        " in ", " rounds",
        "Legendary", "left",
        "Tremor", (" joins the order: a lair action at the start of each "
                   "round"),
    };
    assert_lines(&f, I18N_EN, want, 6);
    rs_fx_cleanup(&f.fx);
}

static void test_kit_sentences_in_german_and_polish(void **state)
{
    (void)state;
    struct fight f;
    lair_fight(&f);
    const char *const de[] = {
        "Collapse", " Runden",
        "Drake", " verbraucht ", "Legendary", ": noch ",
        "Tremor", (" kommt in die Reihenfolge: Hortaktion am Anfang jeder "
                   "Runde"),
    };
    assert_lines(&f, I18N_DE, de, 8);
    /* Polish: "rundy: 3" reads right for 2-4 and 5+ alike. */
    const char *const pl[] = {
        "Collapse", " \xE2\x80\x94 pozosta\xC5\x82" "e rundy: ",
        " zu\xC5\xBC" "ywa ", ": zosta\xC5\x82" "o ",
        " do\xC5\x82\xC4\x85" "cza do kolejki: akcja legowiska, "
        "pocz\xC4\x85tek ka\xC5\xBC" "dej rundy",
    };
    assert_lines(&f, I18N_PL, pl, 5);
    rs_fx_cleanup(&f.fx);
}

/* An event's place in a sentence is the table's too: a hazard at count 5,
 * and a one-shot at a round's start. */
static void test_kit_event_places(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    struct rs_call c = fight_call(&f);
    struct enc_entry_req q = {.name = "Turret", .kind = ENC_ENTRY_HAZARD,
                              .at = "5"};
    assert_int_equal(enc_entry_add(&c, &q), ENG_OK);
    struct enc_entry_req o = {.name = "Bridge", .kind = ENC_ENTRY_ONCE,
                              .at = "start", .round = 3};
    assert_int_equal(enc_entry_add(&c, &o), ENG_OK);
    const char *const en[] = {"a hazard at count 5",
                              "at the start of round 3"};
    assert_lines(&f, I18N_EN, en, 2);
    const char *const de[] = {"Gefahr", "Initiative 5", "Anfang von Runde 3"};
    assert_lines(&f, I18N_DE, de, 3);
    const char *const pl[] = {"inicjatywa 5", "pocz\xC4\x85tek rundy 3"};
    assert_lines(&f, I18N_PL, pl, 2);
    char *s = events(&f, I18N_DE);
    l10n_fx_lacks(s, "count 5");
    free(s);
    rs_fx_cleanup(&f.fx);
}

/* A bad name's refusal names its field in the reader's words, in quotes
 * (so the field's gender never bends the sentence). */
static void test_name_refusal_names_the_field(void **state)
{
    (void)state;
    struct enc_diag d = {0};
    assert_int_equal(enc_check_name("", N_("countdown name"), 32, &d),
                     ENG_INVALID);
    assert_string_equal(d.msg, "the countdown name is empty");
    enum i18n_lang de = I18N_DE, pl = I18N_PL;
    d = (struct enc_diag){.tr = l10n_fx_diag_tr, .tr_ctx = &de};
    assert_int_equal(enc_check_name("42", N_("countdown name"), 32, &d),
                     ENG_INVALID);
    assert_string_equal(d.msg, "das Feld \xE2\x80\x9E" "Countdown-Name"
                               "\xE2\x80\x9C darf nicht nur aus Ziffern "
                               "bestehen");
    d = (struct enc_diag){.tr = l10n_fx_diag_tr, .tr_ctx = &pl};
    assert_int_equal(enc_check_name(" x", N_("side name"), 32, &d),
                     ENG_INVALID);
    assert_string_equal(d.msg, "pole \xE2\x80\x9E" "nazwa strony"
                               "\xE2\x80\x9D zaczyna si\xC4\x99 lub "
                               "ko\xC5\x84" "czy spacj\xC4\x85");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kit_sentences_in_english),
        cmocka_unit_test(test_kit_sentences_in_german_and_polish),
        cmocka_unit_test(test_kit_event_places),
        cmocka_unit_test(test_name_refusal_names_the_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
