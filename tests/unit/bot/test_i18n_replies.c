/* The first replies through the translation layer (docs/internals/i18n.md):
 * whose language each speaks, end to end from the request. /help is
 * private, so the reader's language (Discord's locale); /config
 * language: sets the server's public one, which wins over Discord's
 * guild_locale and is announced in it; the console's parser errors speak
 * --lang, with Polish's three plural forms; a Discord payload's locale
 * and guild_locale reach the request. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_fixture.h"
#include "cmd_parse.h"
#include "cmd_validate.h"
#include "interaction.h"

#define ADMIN 150
#define ALICE 201

static void test_i18n_help_speaks_the_reader(void **state)
{
    struct cmd_fx *f = *state;
    f->guild_lang = I18N_FR;            /* the server's does not matter */
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "fray in einer Minute");
    cmd_fx_has(f, "Die SL beginnt einen Kampf");
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, ALICE, "help", NULL, "topic", "nope", NULL));
    cmd_fx_has(f, "brak pomocy o nope; tematy to");
    f->lang = I18N_EN;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, NULL));
    cmd_fx_has(f, "fray in one minute");
    /* the pseudo-language shows the page went through the catalog */
    f->lang = I18N_PSEUDO;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, NULL));
    cmd_fx_has(f, "[ƒŕáý îñ öñé ɱîñüţé");
    /* every page speaks it (test_i18n_help.c has the others) */
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "dice", NULL));
    cmd_fx_has(f, "Behalten/Streichen");
}

static void test_i18n_config_language(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = ADMIN;
    f->lang = I18N_EN;                  /* the admin reads English */
    f->guild_lang = I18N_FR;            /* Discord says the server's French */
    enum i18n_lang l = cmd_config_language(f->store, CMD_FX_GUILD, I18N_FR);
    assert_int_equal(l, I18N_FR);
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "language", "de",
                            NULL));     /* Manage Server only */
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "language", "de",
                           NULL));
    /* public, and in the table's new language */
    assert_false(f->reply.ephemeral);
    cmd_fx_has(f, "frays öffentliche Nachrichten sind hier auf Deutsch");
    assert_int_equal(cmd_config_language(f->store, CMD_FX_GUILD, I18N_FR),
                     I18N_DE);
    /* "server" forgets it: Discord's language of the server again */
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "language", "server",
                           NULL));
    cmd_fx_has(f, "suivent ici la langue du serveur sur Discord : "
                  "Fran\xC3\xA7" "ais");
    assert_int_equal(cmd_config_language(f->store, CMD_FX_GUILD, I18N_PL),
                     I18N_PL);
    /* one setting at a time; an unknown code says the known ones */
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "language", "de",
                            "writeback", "false", NULL));
    cmd_fx_has(f, "set language: on its own");
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "language", "qps",
                            NULL));
}

static void parse_error(enum i18n_lang lang, const char *line, size_t len,
                        const char *want)
{
    struct cmd_parsed *p = malloc(sizeof *p);
    char err[CMD_VALIDATE_ERR_MAX];
    assert_non_null(p);
    assert_false(cmd_parse_line_in(p, line, len, lang, err, sizeof err));
    if (strcmp(err, want) != 0)
        fail_msg("%s: got '%s', want '%s'", i18n_code(lang), err, want);
    free(p);
}

static void test_i18n_console_parser(void **state)
{
    (void)state;
    parse_error(I18N_EN, "/roll dice:\"2d6", 15,
                "unterminated quote in option `dice`");
    parse_error(I18N_DE, "/roll dice:\"2d6", 15,
                "nicht geschlossenes Anführungszeichen in Option `dice`");
    parse_error(I18N_ES, "   ", 3, "no se dio ningún comando (prueba /help)");
    /* CMD_MAX_LINE (4096) picks Polish's third form; the catalog's
     * Plural-Forms chose it, not the code */
    _Static_assert(CMD_MAX_LINE == 4096, "the messages below say 4096");
    static char longline[CMD_MAX_LINE + 2];
    memset(longline, 'x', sizeof longline);
    parse_error(I18N_PL, longline, sizeof longline,
                "linia za długa (limit to 4096 bajtów)");
    parse_error(I18N_FR, longline, sizeof longline,
                "ligne trop longue (limite : 4096 octets)");
    /* the request carries the language for the command's replies */
    struct cmd_parsed *p = malloc(sizeof *p);
    char err[CMD_VALIDATE_ERR_MAX];
    assert_non_null(p);
    assert_true(cmd_parse_line_in(p, "/help", 5, I18N_PT_BR, err,
                                  sizeof err));
    assert_int_equal(p->req.lang, I18N_PT_BR);
    assert_true(cmd_parse_line(p, "/help", 5, err, sizeof err));
    assert_int_equal(p->req.lang, I18N_EN);
    free(p);
}

static void test_i18n_plural_forms_from_catalogs(void **state)
{
    (void)state;
    static const char one[] = "line too long (limit is %d byte)";
    static const char many[] = "line too long (limit is %d bytes)";
    static const struct { unsigned long n; const char *want; } pl[] = {
        {1, "linia za długa (limit to %d bajt)"},
        {3, "linia za długa (limit to %d bajty)"},
        {22, "linia za długa (limit to %d bajty)"},
        {5, "linia za długa (limit to %d bajtów)"},
        {12, "linia za długa (limit to %d bajtów)"},
        {0, "linia za długa (limit to %d bajtów)"}};
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++)
        assert_string_equal(i18n_nget(I18N_PL, one, many, pl[i].n),
                            pl[i].want);
    /* French: 0 is singular; German: 0 is plural */
    assert_string_equal(i18n_nget(I18N_FR, one, many, 0),
                        "ligne trop longue (limite : %d octet)");
    assert_string_equal(i18n_nget(I18N_DE, one, many, 0),
                        "Zeile zu lang (Grenze: %d Bytes)");
    assert_ptr_equal(i18n_nget(I18N_EN, one, many, 1), one);
    assert_ptr_equal(i18n_nget(I18N_EN, one, many, 2), many);
    assert_ptr_equal(i18n_nget(I18N_DE, "no such", "no such ones", 2),
                     "no such ones");
}

static void test_i18n_interaction_locales(void **state)
{
    (void)state;
    static const char frame[] =
        "{\"id\":\"1200000000000000001\",\"application_id\":"
        "\"1100000000000000001\",\"type\":2,\"token\":\"t\",\"version\":1,"
        "\"guild_id\":\"1100000000000000100\",\"channel_id\":"
        "\"1100000000000000200\",\"member\":{\"user\":{\"id\":"
        "\"1100000000000000300\",\"username\":\"alice\"},\"roles\":[],"
        "\"permissions\":\"0\"},\"locale\":\"%s\",\"guild_locale\":\"%s\","
        "\"data\":{\"id\":\"1300000000000000001\",\"name\":\"help\","
        "\"type\":1}}";
    static const struct { const char *loc, *gloc; enum i18n_lang l, g; }
    cases[] = {{"pl", "fr", I18N_PL, I18N_FR},
               {"es-419", "pt-BR", I18N_ES, I18N_PT_BR},
               {"ja", "en-US", I18N_EN, I18N_EN},
               {"qps", "x", I18N_EN, I18N_EN}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], why[256];
        snprintf(text, sizeof text, frame, cases[i].loc, cases[i].gloc);
        json_t *d = json_loads(text, 0, NULL);
        assert_non_null(d);
        struct interaction it;
        if (interaction_decode(d, 1000, &it, why, sizeof why) != BOT_OK)
            fail_msg("%s", why);
        json_decref(d);
        assert_int_equal(it.req.lang, cases[i].l);
        assert_int_equal(it.req.guild_lang, cases[i].g);
        interaction_cleanup(&it);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_i18n_help_speaks_the_reader,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_i18n_config_language,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test(test_i18n_console_parser),
        cmocka_unit_test(test_i18n_plural_forms_from_catalogs),
        cmocka_unit_test(test_i18n_interaction_locales),
    };
    return cmocka_run_group_tests_name("i18n_replies", tests, NULL, NULL);
}
