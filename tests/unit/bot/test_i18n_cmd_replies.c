/* The replies of the fight's commands in the reader's and the table's
 * language (issue 35; docs/internals/i18n.md): a refusal or a private
 * answer speaks the reader's (Discord's locale), a public result, the
 * tracker's controls, a proposal's notice and the end's numbers the
 * server's. Each test sets the reader and the server apart (a Polish
 * reader at a German table), so a reply in the wrong one shows. Plural
 * forms come from each catalog: Polish has three. */
#include "support.h"

#include <string.h>

#include "cmd_fixture.h"
#include "cmd_form.h"
#include "dur.h"
#include "form.h"
#include "store.h"

#define GM 100
#define ALICE 201
#define BOB 202

static bool tracker_has_button(const struct cmd_fx *f, const char *label)
{
    const struct msg *t = f->reply.tracker;
    for (int i = 0; t != NULL && i < t->nbuttons; i++)
        if (strcmp(t->buttons[i].label, label) == 0)
            return true;
    return false;
}

/* The brief's case: req.lang = pl, guild_lang = de. */
static void test_private_reader_public_table(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    f->guild_lang = I18N_DE;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_false(f->reply.ephemeral);
    cmd_fx_has(f, "Neuer Kampf");
    cmd_fx_has(f, "Die SL fügt NSC mit /combat add hinzu");
    /* the refusal is the reader's */
    assert_false(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                            NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "na tym kanale już trwa walka; MG może ją zakończyć");
    assert_false(cmd_fx_run(f, GM, "combat", "begin", NULL));
    cmd_fx_has(f, "nie ma jeszcze z kim walczyć\nSpróbuj: /combat add");
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Goblin", "hp",
                           "7", "count", "2", NULL));
    cmd_fx_has(f, "Neue Kämpfer");
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "20", NULL));
    cmd_fx_has(f, "Neuer Kämpfer");
    /* the live tracker is the table's: German controls */
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    cmd_fx_has(f, "Würfelt Initiative!");
    assert_non_null(f->reply.tracker);
    assert_true(tracker_has_button(f, "Zug beenden"));
    assert_true(tracker_has_button(f, "Rückgängig (SL)"));
    assert_false(tracker_has_button(f, "End turn"));
    /* a player's refusal: Polish; the history, private, too */
    assert_false(cmd_fx_run(f, ALICE, "combat", "set", "name", "Aria",
                            NULL));
    cmd_fx_has(f, "nie ma czego zmienić");
    assert_true(cmd_fx_run(f, ALICE, "combat", "history", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Co się wydarzyło");
    /* the same reader and table in English: the English words */
    f->lang = I18N_EN;
    f->guild_lang = I18N_EN;
    assert_false(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                            NULL));
    cmd_fx_has(f, "there is already a fight in this channel; the GM can end "
                  "it with /combat end");
}

/* The end's question counts minutes: each Polish form, then German. */
static void test_end_minutes_plural(void **state)
{
    struct cmd_fx *f = *state;
    static const struct { int64_t minutes; const char *want; } pl[] = {
        {1, "przez 1 minutę możesz ją przywrócić"},
        {3, "przez 3 minuty możesz ją przywrócić"},
        {5, "przez 5 minut możesz ją przywrócić"},
        {22, "przez 22 minuty możesz ją przywrócić"},
        {60, "przez 60 minut możesz ją przywrócić"}};
    f->lang = I18N_PL;
    f->guild_lang = I18N_DE;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++) {
        f->ctx.reopen_ms = pl[i].minutes * 60 * 1000;
        assert_true(cmd_fx_run(f, GM, "combat", "end", NULL));
        assert_true(f->reply.ephemeral);
        cmd_fx_has(f, pl[i].want);
        assert_non_null(cmd_fx_button(f, "Zakończ walkę"));
    }
    f->lang = I18N_DE;
    f->ctx.reopen_ms = 60 * 1000;
    assert_true(cmd_fx_run(f, GM, "combat", "end", NULL));
    cmd_fx_has(f, "innerhalb von 1 Minute mit /combat reopen");
    f->ctx.reopen_ms = 2 * 60 * 1000;
    assert_true(cmd_fx_run(f, GM, "combat", "end", NULL));
    cmd_fx_has(f, "innerhalb von 2 Minuten mit /combat reopen");
}

/* The end's numbers are public: the table's words and plurals. */
static void test_end_numbers_in_table_language(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_DE;                  /* the GM reads German ... */
    f->guild_lang = I18N_PL;            /* ... at a Polish table */
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));   /* round 2 */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true",
                           NULL));
    assert_false(f->reply.ephemeral);
    cmd_fx_has(f, "Trwała 2 rundy.");
    cmd_fx_has(f, "Goblin: zadane obrażenia: 0, otrzymane: 0; 1 tura.");
    cmd_fx_has(f, "Aria: zadane obrażenia: 0, otrzymane: 0; 2 tury.");
    cmd_fx_has(f, "Koniec");
    /* the reopen window's refusal is the reader's, with its plural */
    f->ctx.reopen_ms = 1;
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    cmd_fx_has(f, "in den letzten 0 Minuten kein Kampf");
}

/* A proposal: the proposer reads their own language, the GM's notice
 * with its buttons is the table's, and so is the history line of its
 * approval (written once, in the table's language then). */
static void test_proposal_languages(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    f->guild_lang = I18N_DE;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, BOB, "combat", "hp", "name", "Aria",
                           "change", "-3", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Wysłano do MG do zatwierdzenia (propozycja 1)");
    assert_non_null(f->reply.notice);
    assert_non_null(strstr(f->reply.notice->content,
                           "**Vorschlag 1** von"));
    assert_int_equal(f->reply.notice->nbuttons, 2);
    assert_string_equal(f->reply.notice->buttons[0].label, "Annehmen");
    assert_string_equal(f->reply.notice->buttons[1].label, "Ablehnen");
    assert_true(cmd_fx_run(f, GM, "combat", "proposal", NULL));
    cmd_fx_has(f, "Propozycje czekające na MG:");
    assert_true(cmd_fx_run(f, GM, "combat", "proposal", "approve", "1",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "Aria: TP 20 → 17 (vorgeschlagen von tester)");
}

/* A form speaks its reader's language: its title and the option names
 * and descriptions registration gives them. */
static void test_form_in_reader_language(void **state)
{
    (void)state;
    struct cmd_form_in in = {.fight = 1, .lang = I18N_DE};
    struct form fm;
    assert_true(cmd_form_build("combat", "add", &in, &fm));
    assert_string_equal(fm.title, "Zum Kampf hinzufügen");
    bool hp = false;
    for (int i = 0; i < fm.nfields; i++)
        hp |= strcmp(fm.fields[i].label, "Trefferpunkte (TP)") == 0;
    assert_true(hp);
    in.lang = I18N_EN;
    assert_true(cmd_form_build("combat", "add", &in, &fm));
    assert_string_equal(fm.title, "Add to the fight");
}

/* The console reads --lang for both: the clock's public sentence and
 * its private view. */
static void test_clock_words(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", "act",
                           "1d", "auto", "true", NULL));
    cmd_fx_has(f, "Zegar: osoba, której jest tura, dostaje przypomnienie "
                  "po 4h; po 1d MG dostaje powiadomienie, a tura przechodzi "
                  "dalej.");
    f->lang = I18N_FR;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Minuteur : la personne dont c'est le tour reçoit un "
                  "rappel après 4h ; après 1d, le MJ est prévenu et le tour "
                  "passe.");
}

/* A timer has no interaction: the clock's post speaks the server's
 * /config language:, whoever reads it. */
static void test_clock_post_in_server_setting(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = 150;
    f->lang = I18N_EN;
    f->guild_lang = I18N_EN;
    assert_true(cmd_fx_run(f, f->manager, "config", NULL, "language", "pl",
                           NULL));
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", "act",
                           "1d", NULL));
    cmd_fx_has(f, "Zegar: osoba, której jest tura");
    int64_t now = began + 5 * DUR_MS_HOUR;
    struct store_timer t[4];
    size_t n = 0;
    assert_int_equal(store_timer_due(f->store, 0, 1, now, t, 4, &n), BOT_OK);
    assert_int_equal(n, 1);
    struct cmd_reply r;
    bool fired = false;
    assert_true(cmd_clock_fire(&f->ctx, &t[0], now, CMD_SRC_DISCORD, &r,
                               &fired));
    assert_true(fired);
    assert_non_null(r.msg.content);
    if (strstr(r.msg.content, "wciąż czekamy: tura Aria (od 5 h).") == NULL)
        fail_msg("got: %s", r.msg.content);
    assert_non_null(r.tracker);
    bool polish = false;
    for (int i = 0; i < r.tracker->nbuttons; i++)
        polish |= strcmp(r.tracker->buttons[i].label, "Zakończ turę") == 0;
    assert_true(polish);
    cmd_reply_cleanup(&r);
}

/* The turn notice that pings the next player speaks the table's language
 * (Discord only: the console has no pings). */
static void test_turn_notice_in_table_language(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_DE;
    cmd_fx_generic_fight(f, GM, ALICE, BOB);
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    assert_non_null(strstr(f->reply.msg.content,
                           "<@202>, du bist am Zug: "));
    assert_null(strstr(f->reply.msg.content, "your turn"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_private_reader_public_table,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_end_minutes_plural,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_end_numbers_in_table_language,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_proposal_languages,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test(test_form_in_reader_language),
        cmocka_unit_test_setup_teardown(test_clock_words, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_clock_post_in_server_setting,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_turn_notice_in_table_language,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("i18n_cmd_replies", tests, NULL,
                                       NULL);
}
