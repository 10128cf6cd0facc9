/* test_render_l10n.c - results and the tracker in the table's language
 * (docs/internals/i18n.md): the core events' words, plural counts by each
 * language's rule (Polish has three forms), the engine's sentences from
 * their templates with reordered arguments, and every catalog's templates
 * keeping the English one's placeholders. English stays as it was. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "msg.h"
#include "render_enc.h"
#include "rs.h"
#include "rs_kit.h"
#include "sbuf.h"

struct fight {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result r;
    struct enc_diag d;
    uint32_t aria, gob;
};

static void fight_new(struct fight *f)
{
    memset(f, 0, sizeof *f);
    f->e = enc_new(rs_find("generic"), "Road", 1);
    assert_non_null(f->e);
    enc_result_init(&f->r);
    eng_rng_seed(&f->rng, 42);
    assert_int_equal(enc_add(f->e, "Aria", 1, 7, -1, &f->d, &f->aria),
                     ENG_OK);
    assert_int_equal(enc_add(f->e, "Goblin", 1, 0, -1, &f->d, &f->gob),
                     ENG_OK);
    assert_int_equal(enc_track_set(enc_by_id(f->e, f->gob), "hp", 12, 12,
                                   &f->d),
                     ENG_OK);
}

static struct rs_call fight_call(struct fight *f)
{
    return (struct rs_call){.e = f->e, .rng = &f->rng, .r = &f->r,
                            .d = &f->d, .user = f->e->gm, .is_gm = true};
}

static void fight_free(struct fight *f)
{
    enc_result_cleanup(&f->r);
    enc_free(f->e);
}

/* The events of f as lang's players read them; caller frees. */
static char *events(const struct fight *f, enum i18n_lang lang)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    render_events_text(&b, f->e, &f->r, false, lang);
    char *s = sbuf_take(&b);
    sbuf_cleanup(&b);
    assert_non_null(s);
    return s;
}

static void assert_has(const char *text, const char *want)
{
    if (strstr(text, want) == NULL)
        fail_msg("\"%s\" not in:\n%s", want, text);
}

/* A fight's lines in German and Polish: whole sentences of the
 * catalog with names, numbers in bold, and the plural form the count
 * takes in each language (Polish: 1, 2-4 and 5+ differ). */
static void test_events_in_german_and_polish(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    enc_emit(&f.r, ENC_EV_ADDED, f.aria);
    enc_emit(&f.r, ENC_EV_ROUND, 0)->a = 2;
    enc_emit(&f.r, ENC_EV_TURN, f.aria);
    static const int64_t dmg[] = {1, 3, 7};
    for (size_t i = 0; i < 3; i++) {
        struct enc_event *ev = enc_emit(&f.r, ENC_EV_DAMAGE, f.aria);
        ev->other = f.gob;
        ev->a = dmg[i];
    }
    static const int64_t rounds[] = {1, 3, 5};
    for (size_t i = 0; i < 3; i++) {
        struct enc_event *ev = enc_emit(&f.r, ENC_EV_COND_ADD, f.gob);
        ev->text = "Prone";
        ev->b = rounds[i];
    }
    struct rs_call c = fight_call(&f);
    const struct enc_combatant *aria = enc_by_id_c(f.e, f.aria);
    const struct enc_combatant *gob = enc_by_id_c(f.e, f.gob);
    struct enc_event *hit = rs_test_event(&c, ENC_EV_ATTACK, aria, gob, NULL,
                                          17, 13, "hit");
    rs_mod(&c, hit, "attack stat", 5, "");
    enc_emit(&f.r, ENC_EV_DOWN, f.gob);

    char *en = events(&f, I18N_EN);
    assert_has(en, "**Aria** joins the fight");
    assert_has(en, "__**Round 2**__");
    assert_has(en, "**Goblin** takes **7** damage");
    assert_has(en, "**Goblin** is now **Prone** (3 rounds)");
    assert_has(en, "**Aria** attacks **Goblin**: 17 vs 13 (attack stat +5)"
                   " \xE2\x80\x94 **hit**");
    free(en);

    char *de = events(&f, I18N_DE);
    assert_has(de, "**Aria** tritt dem Kampf bei");
    assert_has(de, "__**Runde 2**__");
    assert_has(de, "\xE2\x96\xB6 **Aria** ist am Zug");
    assert_has(de, "**Goblin** erleidet **7** Schaden");
    assert_has(de, "**Goblin** ist jetzt **Liegend** (1 Runde)");
    assert_has(de, "**Goblin** ist jetzt **Liegend** (3 Runden)");
    assert_has(de, "**Aria** greift **Goblin** an: 17 gegen 13 "
                   "(Angriffswert +5) \xE2\x80\x94 **Treffer**");
    assert_has(de, "**Goblin** ist **am Boden**!");
    free(de);

    char *pl = events(&f, I18N_PL);
    assert_has(pl, "**Aria** dołącza do walki");
    assert_has(pl, "__**Runda 2**__");
    assert_has(pl, "**Goblin** otrzymuje **1** obrażenie");
    assert_has(pl, "**Goblin** otrzymuje **3** obrażenia");
    assert_has(pl, "**Goblin** otrzymuje **7** obrażeń");
    assert_has(pl, "**Goblin** ma teraz stan **Powalony** (1 runda)");
    assert_has(pl, "**Goblin** ma teraz stan **Powalony** (3 rundy)");
    assert_has(pl, "**Goblin** ma teraz stan **Powalony** (5 rund)");
    assert_has(pl, "\xE2\x80\x94 **trafienie**");
    free(pl);
    fight_free(&f);
}

/* The engine's sentence in a language that reorders its arguments: the
 * Polish template takes them as {1} {3} {2} {5} {4}, and the ruleset's
 * words among them (success, failure) come from the catalog too. */
static void test_sentence_template_reordered(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    struct rs_call c = fight_call(&f);
    const struct enc_combatant *aria = enc_by_id_c(f.e, f.aria);
    RS_SAY(&c, aria, "{} has {} {} and {} {} of 3.", RS_A_WHO(aria),
           RS_A_NUM(2), RS_A_TEXT("successes"), RS_A_NUM(1),
           RS_A_TEXT("failure"));
    char *en = events(&f, I18N_EN);
    assert_string_equal(en, "**Aria** has 2 successes and 1 failure of 3.");
    free(en);
    char *de = events(&f, I18N_DE);
    assert_string_equal(de, "**Aria** hat 2 Erfolge und 1 Fehlschlag von 3.");
    free(de);
    char *pl = events(&f, I18N_PL);
    assert_string_equal(pl, "**Aria** \xE2\x80\x94 sukcesy: 2, porażka: 1 "
                            "(na 3).");
    free(pl);
    /* A sentence no catalog has (a front end's own) stays English. */
    enc_result_reset(&f.r);
    RS_SAY(&c, aria, "{} hums {}.", RS_A_WHO(aria), RS_A_USER("a tune"));
    char *miss = events(&f, I18N_DE);
    assert_string_equal(miss, "**Aria** hums a tune.");
    free(miss);
    fight_free(&f);
}

/* The tracker in German and Polish: title, a hidden combatant unnamed
 * with its health label, and the footer. */
static void test_tracker_in_german_and_polish(void **state)
{
    (void)state;
    struct fight f;
    fight_new(&f);
    enc_by_id(f.e, f.gob)->hidden = true;
    struct msg m;
    msg_init(&m);
    render_tracker(&m, f.e, false, I18N_DE);
    assert_true(m.nembeds >= 1);
    const struct msg_embed *em = &m.embeds[m.nembeds - 1];
    assert_string_equal(em->title, "Road \xE2\x80\x94 Vorbereitung");
    assert_has(em->description, "_Jemand Unsichtbares_ (unverletzt)");
    assert_null(strstr(em->description, "Goblin"));
    assert_has(em->footer, "Generisches W20");
    msg_cleanup(&m);

    msg_init(&m);
    render_tracker(&m, f.e, false, I18N_PL);
    em = &m.embeds[m.nembeds - 1];
    assert_string_equal(em->title, "Road \xE2\x80\x94 przygotowania");
    assert_has(em->description, "_Ktoś niewidoczny_ (zdrowy)");
    msg_cleanup(&m);
    fight_free(&f);
}

/* The placeholders of a template: "{}" in order, or "{N}" by number.
 * Returns how many; *positional says which kind (mixed: -1). */
static int holes(const char *s, unsigned *seen, bool *positional, bool *bad)
{
    int n = 0, plain = 0, pos = 0;
    *seen = 0;
    for (const char *p = s; (p = strchr(p, '{')) != NULL; p++) {
        if (p[1] == '}') {
            plain++;
            n++;
        } else if (p[1] >= '1' && p[1] <= '9' && p[2] == '}') {
            pos++;
            n++;
            *seen |= 1u << (p[1] - '1');
        }
    }
    *positional = pos > 0;
    *bad = plain > 0 && pos > 0;
    return n;
}

static uint32_t u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Every catalog's translation of a "{}" template has the English one's
 * placeholders: as many "{}", or each of {1}..{n} (a reordering). */
static void test_catalog_templates_keep_placeholders(void **state)
{
    (void)state;
    int checked = 0;
    for (int l = I18N_DE; l < I18N_COUNT; l++) {
        size_t len = 0;
        const unsigned char *mo = i18n_catalog((enum i18n_lang)l, &len);
        assert_non_null(mo);
        assert_int_equal(u32(mo), 0x950412deu); /* the build's own order */
        uint32_t n = u32(mo + 8), orig = u32(mo + 12), tr = u32(mo + 16);
        for (uint32_t i = 0; i < n; i++) {
            const char *id = (const char *)mo + u32(mo + orig + 8 * i + 4);
            const char *to = (const char *)mo + u32(mo + tr + 8 * i + 4);
            if (strstr(id, "{}") == NULL)
                continue;
            unsigned want_seen, seen;
            bool pos, bad;
            int want = holes(id, &want_seen, &pos, &bad);
            int got = holes(to, &seen, &pos, &bad);
            bool ok = !bad && (pos ? seen == (1u << want) - 1 && got >= want
                                   : got == want);
            if (!ok)
                fail_msg("%s: \"%s\" -> \"%s\": placeholders differ",
                         i18n_code((enum i18n_lang)l), id, to);
            checked++;
        }
    }
    assert_true(checked >= 5 * 9);   /* the generic system's, at least */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_in_german_and_polish),
        cmocka_unit_test(test_sentence_template_reordered),
        cmocka_unit_test(test_tracker_in_german_and_polish),
        cmocka_unit_test(test_catalog_templates_keep_placeholders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
