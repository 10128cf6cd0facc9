/* test_text_policy.c - the one text policy (eng_policy.h) in every place
 * user text enters: a command's options as both front ends check them
 * (cmd_validate), a name (enc_check_name) and an imported file (xfer).
 * Each refused character is refused in each place, with words that say
 * what to take out; the characters an emoji sequence needs pass. */
#include "support.h"

#include <string.h>

#include "cmd.h"
#include "cmd_table.h"
#include "cmd_validate.h"
#include "enc.h"
#include "eng_policy.h"
#include "xfer.h"

#define ZWSP "\xe2\x80\x8b"
#define RLO "\xe2\x80\xae"

/* Every character the policy refuses, in UTF-8, and a word of the reason. */
static const struct {
    const char *ch, *why;
} refused[] = {
    {"\xd8\x9c", "direction"},         /* U+061C arabic letter mark */
    {"\xe2\x80\x8e", "direction"},     /* U+200E */
    {"\xe2\x80\x8f", "direction"},     /* U+200F */
    {"\xe2\x80\xaa", "direction"},     /* U+202A */
    {"\xe2\x80\xab", "direction"},     /* U+202B */
    {"\xe2\x80\xac", "direction"},     /* U+202C */
    {"\xe2\x80\xad", "direction"},     /* U+202D */
    {RLO, "direction"},                /* U+202E */
    {"\xe2\x81\xa6", "direction"},     /* U+2066 */
    {"\xe2\x81\xa7", "direction"},     /* U+2067 */
    {"\xe2\x81\xa8", "direction"},     /* U+2068 */
    {"\xe2\x81\xa9", "direction"},     /* U+2069 */
    {"\xc2\xad", "invisible"},         /* U+00AD soft hyphen */
    {"\xcd\x8f", "invisible"},         /* U+034F */
    {"\xe1\x85\x9f", "invisible"},     /* U+115F */
    {"\xe1\x85\xa0", "invisible"},     /* U+1160 */
    {"\xe1\xa0\x8e", "invisible"},     /* U+180E */
    {ZWSP, "invisible"},               /* U+200B */
    {"\xe2\x80\x8c", "invisible"},     /* U+200C */
    {"\xe2\x80\x8d", "invisible"},     /* U+200D, not in an emoji */
    {"\xe2\x81\xa0", "invisible"},     /* U+2060 */
    {"\xe2\x81\xa4", "invisible"},     /* U+2064 */
    {"\xe3\x85\xa4", "invisible"},     /* U+3164 */
    {"\xef\xbb\xbf", "invisible"},     /* U+FEFF */
    {"\xef\xbe\xa0", "invisible"},     /* U+FFA0 */
};
#define NREFUSED (sizeof refused / sizeof refused[0])

static void test_policy_refuses_each(void **state)
{
    char text[64];
    (void)state;
    for (size_t i = 0; i < NREFUSED; i++) {
        snprintf(text, sizeof text, "An%sn", refused[i].ch);
        const char *why = eng_policy_check(text, strlen(text));
        if (why == NULL || strstr(why, refused[i].why) == NULL)
            fail_msg("character %zu: \"%s\"", i, why ? why : "(passed)");
    }
}

static void test_policy_lets_text_through(void **state)
{
    static const char *const fine[] = {
        "Ann", "Ren\xc3\xa9" "e", "\xe6\x97\xa5\xe6\x9c\xac",
        "1d20+2 # Stealth", "\xf0\x9f\x90\x89 Dragon",
        /* family: man ZWJ woman ZWJ girl */
        "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d"
        "\xf0\x9f\x91\xa7",
        /* a heart with its variation selector, ZWJ, fire */
        "\xe2\x9d\xa4\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x94\xa5",
    };
    (void)state;
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++)
        if (eng_policy_check(fine[i], strlen(fine[i])) != NULL)
            fail_msg("\"%s\" refused", fine[i]);
    /* a joiner with a pictograph on one side only hides something */
    const char *half = "\xf0\x9f\x90\x89\xe2\x80\x8d" "A";
    assert_non_null(eng_policy_check(half, strlen(half)));
}

/* Every option of every command: /roll's label, a saved roll's label, a
 * name, a note, through cmd_validate as Discord and the console call it. */
static void test_options_refused(void **state)
{
    static const struct {
        const char *command, *sub, *opt, *before, *after;
    } places[] = {
        {"roll", NULL, "dice", "1d20+2 # ", "Stealth"},
        {"macro", "save", "dice", "1d20+7 # Ste", "alth"},
        {"combat", "join", "name", "An", "n"},
        {"combat", "set", "note", "lurk", "ing"},
        {"combat", "start", "name", "Ambu", "sh"},
    };
    char value[96], err[CMD_VALIDATE_ERR_MAX];
    (void)state;
    for (size_t p = 0; p < sizeof places / sizeof places[0]; p++) {
        for (size_t i = 0; i < NREFUSED; i++) {
            struct cmd_req req;
            struct cmd_spec spec;
            memset(&req, 0, sizeof req);
            req.command = places[p].command;
            req.sub = places[p].sub;
            snprintf(value, sizeof value, "%s%s%s", places[p].before,
                     refused[i].ch, places[p].after);
            req.opts[0] = (struct cmd_opt){places[p].opt, value};
            req.nopts = 1;
            if (strcmp(places[p].command, "macro") == 0)
                req.opts[req.nopts++] = (struct cmd_opt){"name", "stealth"};
            if (strcmp(places[p].sub ? places[p].sub : "", "set") == 0)
                req.opts[req.nopts++] = (struct cmd_opt){"name", "Ann"};
            if (cmd_validate(&req, &spec, err, sizeof err))
                fail_msg("/%s %s %s: character %zu passes", req.command,
                         req.sub ? req.sub : "", places[p].opt, i);
            if (strstr(err, places[p].opt) == NULL ||
                strstr(err, refused[i].why) == NULL)
                fail_msg("/%s %s: \"%s\"", req.command,
                         req.sub ? req.sub : "", err);
        }
    }
}

/* A zero-width space inside a name makes a look-alike of another. */
static void test_names_refused(void **state)
{
    struct enc_diag d;
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(enc_check_name("An" ZWSP "n", "name", ENC_MAX_NAME, &d),
                     ENG_INVALID);
    assert_non_null(strstr(d.msg, "invisible"));
    assert_int_equal(enc_check_name("Ann\xe2\x80\x8f", "name", ENC_MAX_NAME,
                                    &d),
                     ENG_INVALID);
    assert_non_null(strstr(d.msg, "direction"));
    assert_int_equal(enc_check_name("Ann", "name", ENC_MAX_NAME, &d), ENG_OK);
}

/* An imported file: a field's text, written as a JSON escape or raw, and
 * a field's name, in any kind of file. */
static void test_import_refused(void **state)
{
    static const char *const files[] = {
        "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\",\"items\":"
        "[{\"name\":\"sneak\",\"dice\":\"1d20 # \\u202eStealth\"}]}",
        "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\",\"items\":"
        "[{\"name\":\"sn\\u200beak\",\"dice\":\"1d20\"}]}",
        "{\"fray\":\"export\",\"version\":1,\"kind\":\"characters\","
        "\"items\":[{\"name\":\"Ann\",\"system\":\"generic\",\"sheet\":"
        "{\"attacks\":[{\"name\":\"Cl" RLO "aw\"}]}}]}",
        "{\"fray\":\"export\",\"version\":1,\"kind\":\"templates\","
        "\"items\":[{\"na\\u2066me\":\"Orc\"}]}",
    };
    static const enum xfer_kind kinds[] = {XFER_MACROS, XFER_MACROS,
                                           XFER_CHARACTERS, XFER_TEMPLATES};
    static const char *const says[] = {("`dice` contains a character that "
                                        "changes text direction"),
                                       "`name` contains an invisible",
                                       "`name` contains a character",
                                       "a field's name"};
    (void)state;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        json_t *root = NULL, *items = NULL;
        char err[XFER_ERR_MAX] = "";
        assert_int_equal(xfer_parse(files[i], strlen(files[i]), kinds[i],
                                    &root, &items, I18N_EN, err, sizeof err),
                         BOT_INVALID);
        assert_null(root);
        if (strstr(err, "item 1") == NULL || strstr(err, says[i]) == NULL)
            fail_msg("file %zu: \"%s\"", i, err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_refuses_each),
        cmocka_unit_test(test_policy_lets_text_through),
        cmocka_unit_test(test_options_refused),
        cmocka_unit_test(test_names_refused),
        cmocka_unit_test(test_import_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
