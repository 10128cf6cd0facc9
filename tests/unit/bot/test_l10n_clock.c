/* The turn clock's posts and the history lines in the table's language
 * (issue 35; docs/internals/i18n.md). A timer fires with no interaction,
 * so its row keeps the language the command that armed it saw: Discord's
 * guild_locale in a server that set no /config language:, the reader's
 * (the console's --lang) with no server. Each test sets the reader apart
 * from the table (a Polish reader at a German table), so a post in the
 * wrong one shows; history lines are stored text, written in the table's
 * language when they are stored, but for the fold's summary, which the
 * store writes in English and the reader reads in theirs. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "dur.h"
#include "store.h"

#define GM 100
#define ALICE 201
#define BOB 202

/* Fire the one timer due at now into *r; fail unless it fired. */
static void fire_at(struct cmd_fx *f, int64_t now, enum i18n_lang want,
                    struct cmd_reply *r)
{
    struct store_timer t[4];
    size_t n = 0;
    bool fired = false;
    assert_int_equal(store_timer_due(f->store, 0, 1, now, t, 4, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(t[0].lang, want);
    assert_true(cmd_clock_fire(&f->ctx, &t[0], now, CMD_SRC_DISCORD, r,
                               &fired));
    assert_true(fired);
}

static void has(const char *text, const char *needle)
{
    if (text == NULL || strstr(text, needle) == NULL)
        fail_msg("no \"%s\" in: %s", needle, text != NULL ? text : "(null)");
}

/* The generic fight at the hidden Shade's turn, its clock set with
 * option opt (remind or act) at 1h, fired two hours on into *r as a timer
 * of language want. */
static void shade_clock_fired(struct cmd_fx *f, const char *opt,
                              enum i18n_lang want, struct cmd_reply *r)
{
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    for (int i = 0; i < 3; i++)         /* Bryn, the Goblin, the Shade */
        assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", opt, "1h", NULL));
    fire_at(f, began + 2 * DUR_MS_HOUR, want, r);
}

/* A German server (guild_locale, no /config language:): the reminder,
 * the deadline's move-on and the turn it starts speak German to the
 * table, and the history keeps German lines, an undo's too. */
static void test_clock_german_guild_locale(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    f->guild_lang = I18N_DE;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", "act",
                           "1d", "auto", "true", NULL));
    struct cmd_reply r;
    fire_at(f, began + 5 * DUR_MS_HOUR, I18N_DE, &r);
    has(r.msg.content, "Erinnerung: Aria ist am Zug (seit 5 h).");
    assert_null(strstr(r.msg.content, "still waiting"));
    cmd_reply_cleanup(&r);
    fire_at(f, began + 25 * DUR_MS_HOUR, I18N_DE, &r);
    has(r.msg.content, "die Uhr lässt den Kampf weitergehen.");
    cmd_reply_cleanup(&r);
    f->now_ms = began + 26 * DUR_MS_HOUR;
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "Zuguhr: eine Erinnerung");
    cmd_fx_has(f, "Zuguhr: Frist abgelaufen, es geht weiter");
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "Rückgängig gemacht: Zuguhr: Frist abgelaufen, es geht "
                  "weiter");
}

/* No server (the console): the timer keeps the reader's language, so
 * `fray console --lang pl` hears the clock in Polish; a hidden
 * combatant's turn stays unseen in it. */
static void test_clock_console_polish_unseen(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    struct cmd_reply r;
    shade_clock_fired(f, "remind", I18N_PL, &r);
    has(r.msg.content, "wciąż czekamy: tura _ktoś niewidoczny_");
    assert_null(strstr(r.msg.content, "Shade"));
    cmd_reply_cleanup(&r);
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "Zegar: przypomnienie");
}

/* With a GM channel, the deadline's notice is the GM's copy, names whole
 * (the hidden Shade's too), in the table's language. */
static void test_clock_gm_copy_german(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    /* as /config gm-channel:#555 keeps it (the fixture has no channel
     * list to pick from) */
    char key[64];
    snprintf(key, sizeof key, "gm_channel:%d", CMD_FX_GUILD);
    assert_int_equal(store_kv_set(f->store, key, "555"), BOT_OK);
    struct cmd_reply r;
    shade_clock_fired(f, "act", I18N_DE, &r);
    assert_int_equal(r.gm_channel, 555);
    assert_non_null(r.gm_copy);
    has(r.gm_copy->content, "Im Kampf: Shade ist seit 2 h am Zug. ");
    assert_true(r.msg.content == NULL ||
                strstr(r.msg.content, "Shade") == NULL);
    cmd_reply_cleanup(&r);
}

/* The server's /config language: still wins over what the timer row
 * keeps, even when set after the clock was armed. */
static void test_clock_config_language_wins(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    f->manager = 150;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", NULL));
    assert_true(cmd_fx_run(f, f->manager, "config", NULL, "language", "pl",
                           NULL));
    struct cmd_reply r;
    fire_at(f, began + 5 * DUR_MS_HOUR, I18N_DE, &r);
    has(r.msg.content, "wciąż czekamy: tura Aria (od 5 h).");
    cmd_reply_cleanup(&r);
}

/* The fold's summary line, which the store writes knowing no language,
 * reads in the reader's language in /combat history and the log, its
 * numbers as the store wrote them. */
static void test_fold_summary_in_reader_language(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_DE;
    store_hist_set_bounds(f->store, &(struct store_hist_bounds){
        .fight_bytes = STORE_HIST_MIN_BYTES});
    cmd_fx_siege(f, GM);
    struct store_hist_info hist = {0};
    for (int i = 1; i <= 60 && hist.folded_to == 0; i++) {
        cmd_fx_siege_attack(f, GM, i);
        assert_int_equal(store_hist_info(f->store, 1, &hist), BOT_OK);
    }
    assert_true(hist.folded_to > 0);
    char want[256];
    snprintf(want, sizeof want, "Ältere Änderungen (bis Version %lld) "
             "wurden zu dieser Zusammenfassung verdichtet: ein Kampf behält "
             "höchstens 64 KB", (long long)hist.folded_to);
    assert_true(cmd_fx_run(f, GM, "combat", "history", "count", "50",
                           NULL));
    cmd_fx_has(f, want);
    assert_null(strstr(f->text, "Older changes"));
    assert_true(cmd_fx_run(f, GM, "combat", "log", NULL));
    /* (the log's markdown escapes the parentheses) */
    has(f->reply.file.data, "wurden zu dieser Zusammenfassung verdichtet: "
                            "ein Kampf behält höchstens 64 KB und 2000 "
                            "Änderungen Verlauf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clock_german_guild_locale,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_clock_console_polish_unseen,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_clock_gm_copy_german,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_clock_config_language_wins,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_fold_summary_in_reader_language,
                                        cmd_fx_setup, cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("l10n_clock", tests, NULL, NULL);
}
