/* test_l10n_misc.c - the last English of bot/ in German and Polish
 * (docs/internals/i18n.md, "What is converted"): the console's own lines,
 * dice notes and errors (every path: /roll, /macro, an attack's roll),
 * the short units of a duration (Polish days take their plural), a
 * recap's month, the shared web page, the daemon's unreadable-text
 * refusal (every catalog's fits its buffer) and "someone unseen" in a
 * refusal. English stays as it was. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "cmd_fixture.h"
#include "cmd_share.h"
#include "console.h"
#include "console_fixture.h"
#include "daemon_int.h"
#include "dice.h"
#include "dur.h"
#include "eng_rng.h"
#include "i18n.h"
#include "l10n_fixture.h"
#include "msg.h"
#include "render_dice.h"
#include "render_web.h"
#include "rs_kit.h"
#include "sbuf.h"
#include "store.h"

/* What line printed (console_fx_say). */
static const char *say(struct console_fx *s, const char *line)
{
    return console_fx_say(s, line);
}

static void test_console_lines(void **state)
{
    (void)state;
    struct console_fx s;
    console_fx_open(&s, 42, I18N_DE);
    l10n_fx_has(say(&s, ":gm maybe"), "Aufruf: :gm on|off");
    l10n_fx_has(say(&s, ":frobnicate"),
                "unbekannter Konsolenbefehl :frobnicate (versuch :help)");
    l10n_fx_has(say(&s, ":as"),
                "ein Benutzer braucht einen Namen (Aufruf: :as NAME)");
    l10n_fx_has(say(&s, ":time +4x"), "die Einheiten sind d (Tage)");
    const char *help = say(&s, ":help");
    l10n_fx_has(help, "Konsolenbefehle:");
    /* a console-only command's description, marked for the catalogs */
    l10n_fx_has(help, "Die Würfel eines geposteten Wurfs neu würfeln");
    console_fx_close(&s);

    /* the interactive welcome: translated, its command lines as typed */
    const char *welcome = i18n_get(I18N_DE, CONSOLE_WELCOME);
    l10n_fx_has(welcome, "fray-Konsole: du bist");
    l10n_fx_has(welcome, "  /combat start system:generic\n");

    console_fx_open(&s, 42, I18N_PL);
    l10n_fx_has(say(&s, ":gm maybe"), "użycie: :gm on|off");
    l10n_fx_has(say(&s, ":frobnicate"),
                "nieznane polecenie konsoli :frobnicate (spróbuj :help)");
    console_fx_close(&s);

    console_fx_open(&s, 42, I18N_EN);
    l10n_fx_has(say(&s, ":gm maybe"), "usage: :gm on|off\n");
    l10n_fx_has(say(&s, ":frobnicate"),
                "unknown console command :frobnicate (try :help)\n");
    console_fx_close(&s);
}

static void rough(enum i18n_lang lang, int64_t ms, const char *want)
{
    char buf[32];
    dur_format_rough_in(lang, ms, buf, sizeof buf);
    assert_string_equal(buf, want);
}

/* "4 h" as each table writes it. German and Polish keep the SI signs: an
 * abbreviation's period would double at a sentence's end, and a day's
 * word takes the case of the sentence around it ("seit 2 Tagen", "od 1
 * dnia"), which one format cannot; Spanish days take their plural. */
static void test_duration_units(void **state)
{
    (void)state;
    rough(I18N_EN, 4 * DUR_MS_HOUR, "4 h");
    rough(I18N_EN, 30 * DUR_MS_MINUTE, "30 min");
    rough(I18N_EN, 3 * DUR_MS_DAY, "3 d");
    rough(I18N_DE, 4 * DUR_MS_HOUR, "4 h");
    rough(I18N_DE, 30 * DUR_MS_MINUTE, "30 min");
    rough(I18N_DE, 3 * DUR_MS_DAY, "3 d");
    rough(I18N_ES, 3 * DUR_MS_DAY, "3 d\xC3\xAD" "as");
    rough(I18N_PL, 4 * DUR_MS_HOUR, "4 h");
    rough(I18N_PL, 2 * DUR_MS_DAY, "2 d");
    char en[32];
    dur_format_rough(4 * DUR_MS_HOUR, en, sizeof en);
    assert_string_equal(en, "4 h");
    assert_string_equal(i18n_get(I18N_PL, dur_strerror(DUR_TOO_LONG)),
                        "najdłuższy czas trwania to 30d");
}

/* /roll's note on how a comparison after dice reads, and a dice error, in
 * the reader's language; English as before. */
static void test_dice_note_and_error(void **state)
{
    (void)state;
    const char *src = "6d10>=7f1";
    struct dice_expr *e = NULL;
    struct dice_diag d = {0};
    struct dice_result r;
    struct eng_rng rng;
    char buf[2048];
    eng_rng_seed(&rng, 42);
    assert_int_equal(dice_parse(src, strlen(src), &e, &d), ENG_OK);
    assert_int_equal(dice_roll(e, &rng, &r, &d), ENG_OK);
    render_dice(buf, sizeof buf, RENDER_DICE_TEXT, I18N_DE, src, strlen(src),
                &r, 1);
    l10n_fx_has(buf, "(ein Vergleich nach Würfeln zählt die Würfel");
    render_dice(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, src, strlen(src),
                &r, 1);
    l10n_fx_has(buf, "(a comparison after dice counts the dice that meet it");
    dice_expr_free(e);

    assert_int_not_equal(dice_parse("1d6+", 4, &e, &d), ENG_OK);
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_PL, "1d6+", 4,
                      &d);
    assert_memory_equal(buf, "błąd: ", strlen("błąd: "));
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, "1d6+", 4,
                      &d);
    assert_memory_equal(buf, "error: ", strlen("error: "));
}

/* A dice error reads the same in every path, in the reader's language:
 * /roll, a saved roll's dice (/macro save) and an attack's roll (the
 * engine's refusal quotes the dice's message in the same language). */
static void test_dice_errors_every_path(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_DE;
    assert_false(cmd_fx_run(f, 1, "roll", NULL, "dice", "1d6+", NULL));
    cmd_fx_has(f, "Fehler: unerwartetes Ende des Ausdrucks in Spalte 5");
    assert_false(cmd_fx_run(f, 1, "roll", NULL, "dice", "2d6kh1kl1", NULL));
    cmd_fx_has(f, "kl ist eine zweite Regel zum Behalten oder Verwerfen "
                  "(Spalte 7)");
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, 1, "macro", "save", "name", "oops", "dice",
                            "1d20+", NULL));
    cmd_fx_has(f, "b\xC5\x82\xC4\x85" "d: nieoczekiwany koniec wyra\xC5\xBC"
                  "enia w kolumnie 6");
    assert_false(cmd_fx_run(f, 1, "roll", NULL, "dice", "0d6", NULL));
    cmd_fx_has(f, "potrzeba co najmniej 1 ko\xC5\x9B" "ci (kolumna 1)");
    cmd_fx_generic_fight(f, 1, 2, 3);
    f->lang = I18N_DE;
    assert_false(cmd_fx_run(f, 2, "attack", NULL, "attacker", "Aria",
                            "target", "Goblin", "roll", "1d20+", NULL));
    cmd_fx_has(f, "unerwartetes Ende des Ausdrucks in Spalte 6");
    f->lang = I18N_EN;
    assert_false(cmd_fx_run(f, 1, "roll", NULL, "dice", "1d6+", NULL));
    cmd_fx_has(f, "error: unexpected end of expression at column 5");
}

/* A recap's time names its month as the reader writes it (the fixture's
 * clock: 14 November 2023, 22:13 UTC). */
static void test_recap_month(void **state)
{
    struct cmd_fx *f = *state;
    cmd_fx_generic_fight(f, 1, 2, 3);
    f->lang = I18N_DE;          /* alice: what came after her join */
    assert_true(cmd_fx_run(f, 2, "combat", "recap", NULL));
    cmd_fx_has(f, "14. Nov. 22:13 UTC");
    f->lang = I18N_PL;          /* bob: the same */
    assert_true(cmd_fx_run(f, 3, "combat", "recap", NULL));
    cmd_fx_has(f, "14 lis 22:13 UTC");
    f->lang = I18N_EN;
    assert_true(cmd_fx_run(f, 1, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, 2, "combat", "recap", NULL));
    cmd_fx_has(f, "14 Nov 22:13 UTC");
}

/* A shared page speaks the table's language when the link was made (kept
 * with the link): its headings, the tracker's words and lang="de". */
static void test_shared_page_in_table_language(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.web_url = "https://fray.example.org";
    cmd_fx_generic_fight(f, 1, 2, 3);
    f->lang = I18N_DE;          /* the console's table: its reader's */
    assert_true(cmd_fx_run(f, 1, "combat", "share", NULL));
    const char *p = strstr(f->text, "https://fray.example.org/s/");
    assert_non_null(p);
    char tok[RANDTOK_LEN + 1];
    snprintf(tok, sizeof tok, "%s", p + strlen("https://fray.example.org/s/"));
    struct cmd_share_view v;
    assert_int_equal(cmd_share_view_load(f->store, tok, &v), BOT_OK);
    assert_int_equal(v.lang, I18N_DE);
    struct sbuf frag, page;
    sbuf_init(&frag, RENDER_WEB_MAX);
    sbuf_init(&page, RENDER_WEB_MAX);
    render_web_fight(&frag, v.enc, v.change, v.nchanges, v.lang);
    render_web_page(&page, "x", sbuf_str(&frag), false, true, v.lang);
    l10n_fx_has(sbuf_str(&frag), "<h2>Letzte \xC3\x84nderungen</h2>");
    l10n_fx_lacks(sbuf_str(&frag), "Last changes");
    l10n_fx_has(sbuf_str(&page), "<html lang=\"de\">");
    sbuf_cleanup(&frag);
    sbuf_cleanup(&page);
    cmd_share_view_cleanup(&v);
}

/* The refusal of unreadable text fits its buffer in every language, the
 * pseudo-language's 40 % too; a refused file's reason is translated. */
static void test_unreadable_refusal_fits(void **state)
{
    (void)state;
    for (int l = 0; l < I18N_COUNT; l++) {
        const char *t = i18n_get((enum i18n_lang)l, DAEMON_UNREADABLE_TEXT);
        if (strlen(t) >= DAEMON_REFUSAL_MAX)
            fail_msg("%s: %zu bytes", i18n_code((enum i18n_lang)l),
                     strlen(t));
    }
    l10n_fx_has(i18n_get(I18N_DE, DAEMON_UNREADABLE_TEXT),
                "Bitte tippe ihn noch einmal.");
    /* an import's file refused: the reason in the user's words */
    assert_string_equal(i18n_get(I18N_PL, att_strerror(ATT_E_EMPTY)),
                        "plik jest pusty");
    assert_string_equal(att_strerror(ATT_E_EMPTY), "the file is empty");
}

/* A hidden combatant a player may not act for is "someone unseen" in the
 * refusal's language. */
static void test_someone_unseen_in_refusal(void **state)
{
    (void)state;
    struct enc_combatant shade;
    memset(&shade, 0, sizeof shade);
    strcpy(shade.name, "Shade");
    shade.hidden = true;
    enum i18n_lang pl = I18N_PL;
    struct enc_diag d;
    memset(&d, 0, sizeof d);
    struct rs_call c = {.d = &d, .user = 7};
    assert_string_equal(rs_name_for(&c, &shade), "someone unseen");
    d.tr = l10n_fx_diag_tr;
    d.tr_ctx = &pl;
    assert_string_equal(rs_name_for(&c, &shade), "ktoś niewidoczny");
    c.is_gm = true;
    assert_string_equal(rs_name_for(&c, &shade), "Shade");
}

/* The console marks a reply Discord would shorten (the l10n gate counts
 * the marks a translation adds): content over 2,000 characters is; a
 * short one is not. */
static void test_console_marks_overflow(void **state)
{
    (void)state;
    struct msg m;
    char big[2101];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    msg_init(&m);
    assert_true(msg_set_content(&m, "%s", "a short reply"));
    assert_false(console_discord_shortens(&m));
    msg_cleanup(&m);
    msg_init(&m);
    assert_true(msg_set_content(&m, "%s", big));
    assert_true(console_discord_shortens(&m));
    msg_cleanup(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_console_lines),
        cmocka_unit_test(test_duration_units),
        cmocka_unit_test(test_dice_note_and_error),
        cmocka_unit_test_setup_teardown(test_dice_errors_every_path,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_recap_month, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_shared_page_in_table_language,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test(test_unreadable_refusal_fits),
        cmocka_unit_test(test_someone_unseen_in_refusal),
        cmocka_unit_test(test_console_marks_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
