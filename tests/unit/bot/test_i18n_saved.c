/* The replies of saved things and dice in the reader's language
 * (docs/internals/i18n.md): /character, /npc, /macro, /config, /roll and
 * its reroll and explain, the exports. A private reply (a refusal, a
 * saved sheet, a setting) speaks the reader's locale (req.lang); a roll
 * for all speaks the server's (cmd_public_lang()): a Polish reader at a
 * German table is refused in Polish and rolls in German. Counts take
 * each language's plural forms (Polish's three). English is what the
 * other suites read, unchanged. The fixture reads replies as the console
 * shows them: markdown (`code`, **bold**) is taken off. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"

#define ADMIN 150
#define ALICE 201

/* Fail unless the GM's copy of the last reply contains needle. */
static void gm_has(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->gm_text, needle) == NULL)
        fail_msg("expected \"%s\" in the GM's copy:\n%s", needle,
                 f->gm_text);
}

static void create(struct cmd_fx *f, const char *name)
{
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", name,
                           "system", "generic", "hp", "24", "stats",
                           "ac=15", NULL));
}

static void test_i18n_character_speaks_the_reader(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_DE;
    f->guild_lang = I18N_FR;            /* private: the server's is not read */
    create(f, "Aria");
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Gespeichert.\nAria (generic)");
    cmd_fx_has(f, "Werte: ac 15");
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "ARIA",
                            "system", "generic", NULL));
    cmd_fx_has(f, "du hast in diesem Server schon einen Charakter namens "
                  "ARIA");
    f->lang = I18N_PL;
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "Twoje postacie na tym serwerze:\n- Aria (generic): "
                  "ta, której używasz");
    assert_false(cmd_fx_run(f, ALICE, "character", "set", "name", "Aria",
                            NULL));
    cmd_fx_has(f, "nie ma czego zmienić");
    f->lang = I18N_FR;
    assert_true(cmd_fx_run(f, ALICE, "character", "delete", "name", "Aria",
                           NULL));
    cmd_fx_has(f, "Aria supprimé. Un combat qu'il a rejoint garde sa copie.");
    f->lang = I18N_EN;
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "Your characters in this server: none yet.");
}

/* With max_chars at max, one more character is refused saying want. */
static void refused_at(struct cmd_fx *f, int64_t max, const char *want)
{
    f->ctx.max_chars = max;
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "Z",
                            "system", "generic", NULL));
    cmd_fx_has(f, want);
    f->ctx.max_chars = 10;
}

/* The quota's refusal counts characters: Polish picks one of three forms
 * by the count (1 postać, 3 postacie, 5 postaci), the catalog's
 * Plural-Forms choosing. */
static void test_i18n_character_quota_plurals(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    create(f, "A");
    refused_at(f, 1, "masz 1 postać na tym serwerze");
    create(f, "B");
    create(f, "C");
    refused_at(f, 3, "masz 3 postacie na tym serwerze");
    create(f, "D");
    create(f, "E");
    refused_at(f, 5, "masz 5 postaci na tym serwerze");
    f->lang = I18N_DE;
    refused_at(f, 5, "du hast 5 Charaktere in diesem Server");
    f->lang = I18N_EN;
    refused_at(f, 5, "you have 5 characters in this server, the most one "
                     "player may keep");
}

/* A Polish reader at a German table: the refusal is theirs, the roll is
 * the table's; a secret roll is the roller's, its GM copy the table's;
 * /config language: outranks Discord's guild_locale. */
static void test_i18n_roll_public_and_private(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    f->guild_lang = I18N_DE;
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6 fire",
                            "label", "ice", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "fire po kościach to etykieta");
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d20",
                           "label", "Angriff", NULL));
    assert_false(f->reply.ephemeral);
    cmd_fx_has(f, "tester würfelt: Angriff");
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d20",
                           "secret", "true", NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "tester rzuca w tajemnicy");
    gm_has(f, "tester würfelt geheim");
    /* explain is the reader's own */
    assert_true(cmd_fx_run(f, ALICE, "explain", NULL, NULL));
    cmd_fx_has(f, "(tajny)");
    cmd_fx_has(f, "Oznaczenia: (3) kość, która się nie liczy");
    f->manager = ADMIN;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "language", "fr",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d20", NULL));
    cmd_fx_has(f, "tester lance");
    f->lang = I18N_EN;
    f->guild_lang = I18N_EN;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "language", "server",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d20",
                           "label", "Attack", NULL));
    cmd_fx_has(f, "tester rolls: Attack");
}

static void test_i18n_macros_npcs_and_settings(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_FR;
    assert_true(cmd_fx_run(f, ALICE, "macro", "save", "name", "stealth",
                           "dice", "1d20+7", NULL));
    cmd_fx_has(f, "@stealth enregistré : 1d20+7\nIl est à vous");
    assert_true(cmd_fx_run(f, ALICE, "macro", "list", NULL));
    cmd_fx_has(f, "Vos jets enregistrés (1 sur ");
    f->lang = I18N_ES;
    assert_false(cmd_fx_run(f, ALICE, "macro", "save", "name", "stealth",
                            "dice", "1d20+8", NULL));
    cmd_fx_has(f, "ya tienes @stealth (1d20+7); da replace:true");
    assert_false(cmd_fx_run(f, ALICE, "npc", "list", NULL));
    cmd_fx_has(f, "las plantillas de PNJ las gestionan los miembros con "
                  "Gestionar servidor");
    f->manager = ADMIN;
    f->lang = I18N_PT_BR;
    assert_true(cmd_fx_run(f, ADMIN, "npc", "list", NULL));
    cmd_fx_has(f, "Modelos de PdM deste servidor: nenhum ainda.");
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ADMIN, "config", NULL, "dice", "roll20",
                           NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Gespeichert. Die Würfel dieses Servers werden, wo die "
                  "Bots sich uneinig sind");
    f->lang = I18N_PL;
    assert_false(cmd_fx_run(f, ADMIN, "config", NULL, "dice", "fray",
                            "writeback", "false", NULL));
    cmd_fx_has(f, "ustaw dice: osobno");
}

/* An export says how many, in the reader's plural. */
static void test_i18n_export_counts(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PL;
    create(f, "Aria");
    create(f, "Bryn");
    assert_true(cmd_fx_run(f, ALICE, "character", "export", NULL));
    cmd_fx_has(f, "Wyeksportowano 2 postacie jako fray-characters.json");
    f->lang = I18N_DE;
    assert_true(cmd_fx_run(f, ALICE, "character", "export", NULL));
    cmd_fx_has(f, "2 Charaktere als fray-characters.json exportiert");
    /* an import's refusal, from the file reader to the item's check */
    f->lang = I18N_PL;
    f->file = "not json";
    assert_false(cmd_fx_run(f, ALICE, "character", "import", "file", "x",
                            NULL));
    cmd_fx_has(f, "plik nie jest w formacie JSON (wiersz 1");
    cmd_fx_has(f, "; nic nie zmieniono");
    f->file = "{\"fray\":\"export\",\"version\":1,\"kind\":"
              "\"characters\",\"items\":[{\"name\":\"Cyra\"}]}";
    assert_false(cmd_fx_run(f, ALICE, "character", "import", "file", "x",
                            NULL));
    cmd_fx_has(f, "element 1 (Cyra): brak sheet; nic nie zmieniono");
}

/* The pseudo-language shows a reply went through the catalog. */
static void test_i18n_pseudo(void **state)
{
    struct cmd_fx *f = *state;
    f->lang = I18N_PSEUDO;
    create(f, "Aria");
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "[Ýöüŕ çĥáŕáçţéŕš îñ ţĥîš šéŕṽéŕ: ");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                              cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_i18n_character_speaks_the_reader),
        T(test_i18n_character_quota_plurals),
        T(test_i18n_roll_public_and_private),
        T(test_i18n_macros_npcs_and_settings),
        T(test_i18n_export_counts),
        T(test_i18n_pseudo),
    };
#undef T
    return cmocka_run_group_tests_name("i18n_saved", tests, NULL, NULL);
}
