/* test_cmd_xfer.c - /macro, /character and /npc export and import in the
 * console
 * (docs/export-format.md): an export imported and exported again is the
 * same bytes; import is all or nothing, and each malformed file is
 * refused naming the item and field; a name already taken needs
 * replace:true; one user's export holds only their own saved rolls; a
 * sheet is checked against its system and written as the sheet codec
 * writes it; the character quota holds for imports. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_fixture.h"
#include "sbuf.h"
#include "xfer.h"

#define ANN 2001
#define BOB 2002

/* Each test's own directory for the files it writes and reads: made from
 * this mkdtemp(3) template by setup, removed by teardown. */
#define DIR_TEMPLATE "/tmp/fray-cmd-xfer-XXXXXX"
static char dir[sizeof DIR_TEMPLATE];

static const char *path_of(const char *name)
{
    static char p[4][128];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void put(const char *name, const char *text)
{
    FILE *f = fopen(path_of(name), "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *get(const char *name)
{
    char *buf, err[XFER_ERR_MAX];
    size_t len;
    if (xfer_read_file(path_of(name), &buf, &len, I18N_EN, err, sizeof err) != BOT_OK)
        fail_msg("%s", err);
    return buf;
}

static int setup(void **state)
{
    memcpy(dir, DIR_TEMPLATE, sizeof dir);
    if (mkdtemp(dir) == NULL)
        return -1;
    return cmd_fx_setup(state);
}

static int teardown(void **state)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return cmd_fx_teardown(state);
}

#define ENVELOPE(items)                                                      \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\",\"items\":["    \
    items "]}"

static void test_macro_round_trip_identical(void **state)
{
    struct cmd_fx *f = *state;
    char *a, *b;

    put("in.json", ENVELOPE("{\"name\":\"stealth\",\"dice\":\"1d20+7 # "
                            "Stealth\"},{\"dice\":\"8d6\",\"name\":"
                            "\"fireball\"},{\"name\":\"a\",\"dice\":\"d20 # "
                            "\\\"quoted\\\" \\u00fc\"}"));
    assert_true(cmd_fx_run(f, ANN, "macro", "import", "file",
                           path_of("in.json"), NULL));
    cmd_fx_has(f, "Imported 3 saved rolls");
    assert_true(cmd_fx_run(f, ANN, "macro", "export", "file",
                           path_of("a.json"), NULL));
    cmd_fx_has(f, "Exported 3 saved rolls");
    a = get("a.json");
    /* the documented layout: fixed key order, names in order */
    assert_string_equal(a, "{\n"
                           "  \"fray\": \"export\",\n"
                           "  \"version\": 1,\n"
                           "  \"kind\": \"macros\",\n"
                           "  \"items\": [\n"
                           "    {\n"
                           "      \"name\": \"a\",\n"
                           "      \"dice\": \"d20 # \\\"quoted\\\" "
                           "\xc3\xbc\"\n"
                           "    },\n"
                           "    {\n"
                           "      \"name\": \"fireball\",\n"
                           "      \"dice\": \"8d6\"\n"
                           "    },\n"
                           "    {\n"
                           "      \"name\": \"stealth\",\n"
                           "      \"dice\": \"1d20+7 # Stealth\"\n"
                           "    }\n"
                           "  ]\n"
                           "}\n");
    assert_true(cmd_fx_run(f, ANN, "macro", "import", "file",
                           path_of("a.json"), "replace", "true", NULL));
    assert_true(cmd_fx_run(f, ANN, "macro", "export", "file",
                           path_of("b.json"), NULL));
    b = get("b.json");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Each file is refused with its reason, and nothing is saved: the export
 * afterwards still holds only the one roll saved before. */
static void test_macro_import_refusals(void **state)
{
    struct cmd_fx *f = *state;
    static const struct {
        const char *text, *says;
    } bad[] = {
        {ENVELOPE("{\"name\":\"ok\",\"dice\":\"d6\"},{\"name\":\"b\","
                  "\"dice\":\"d6\"},{\"name\":\"c\",\"dice\":\"2d\"}"),
         "item 3 (c): dice: nothing was saved"},
        {ENVELOPE("{\"name\":\"2fast\",\"dice\":\"d6\"}"),
         "item 1 (2fast): "},
        {ENVELOPE("{\"name\":\"x\",\"dice\":\"d6\",\"owner\":\"5\"}"),
         "item 1: field owner is not one fray knows"},
        {ENVELOPE("{\"name\":\"x\"}"), "item 1: dice is missing"},
        {ENVELOPE("{\"name\":\"x\",\"dice\":6}"), "item 1: dice is not "
                                                 "text"},
        {ENVELOPE("{\"name\":\"x\",\"dice\":\"d6\"},{\"name\":\"x\","
                  "\"dice\":\"d8\"}"),
         "items 1 and 2 are both called x"},
        {ENVELOPE("{\"name\":\"keep\",\"dice\":\"d4\"}"),
         "you already have a saved roll called keep"},
        {"{\"fray\":\"export\",\"version\":1,\"kind\":\"templates\","
         "\"items\":[]}",
         "holds templates, not macros"},
        {"{\"fray\":\"export\",\"version\":7,\"kind\":\"macros\","
         "\"items\":[]}",
         "newer fray (version 7"},
        {"not json", "not JSON"},
    };
    char *before, *after;

    put("keep.json", ENVELOPE("{\"name\":\"keep\",\"dice\":\"d12\"}"));
    assert_true(cmd_fx_run(f, ANN, "macro", "import", "file",
                           path_of("keep.json"), NULL));
    assert_true(cmd_fx_run(f, ANN, "macro", "export", "file",
                           path_of("before.json"), NULL));
    before = get("before.json");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put("bad.json", bad[i].text);
        if (cmd_fx_run(f, ANN, "macro", "import", "file",
                       path_of("bad.json"), NULL))
            fail_msg("accepted: %s", bad[i].text);
        cmd_fx_has(f, bad[i].says);
        cmd_fx_has(f, "othing was changed");
        assert_true(f->reply.ephemeral);
    }
    assert_true(cmd_fx_run(f, ANN, "macro", "export", "file",
                           path_of("after.json"), NULL));
    after = get("after.json");
    assert_string_equal(after, before);
    free(before);
    free(after);
}

static void test_macro_import_files(void **state)
{
    struct cmd_fx *f = *state;
    char *big = malloc(XFER_MAX_BYTES + 2);
    assert_non_null(big);
    memset(big, ' ', XFER_MAX_BYTES + 1);
    big[XFER_MAX_BYTES + 1] = '\0';
    put("big.json", big);
    free(big);
    assert_false(cmd_fx_run(f, ANN, "macro", "import", "file",
                            path_of("big.json"), NULL));
    cmd_fx_has(f, "bigger than the 262144 bytes");
    assert_false(cmd_fx_run(f, ANN, "macro", "import", "file",
                            path_of("missing.json"), NULL));
    cmd_fx_has(f, "cannot open");
    assert_false(cmd_fx_run(f, ANN, "macro", "export", "file",
                            path_of("no/such/dir.json"), NULL));
    cmd_fx_has(f, "cannot write");
}

/* Bob's export is Bob's: none of Ann's saved rolls. */
static void test_macro_export_is_your_own(void **state)
{
    struct cmd_fx *f = *state;
    char *bob;
    put("in.json", ENVELOPE("{\"name\":\"stealth\",\"dice\":\"d20\"}"));
    assert_true(cmd_fx_run(f, ANN, "macro", "import", "file",
                           path_of("in.json"), NULL));
    assert_true(cmd_fx_run(f, BOB, "macro", "export", "file",
                           path_of("bob.json"), NULL));
    cmd_fx_has(f, "Exported 0 saved rolls");
    bob = get("bob.json");
    assert_null(strstr(bob, "stealth"));
    free(bob);
}

#define SHEETS(kind, items)                                                  \
    "{\"fray\":\"export\",\"version\":1,\"kind\":\"" kind "\","        \
    "\"items\":[" items "]}"
/* Keys in another order than the codec writes them, on purpose. */
#define ARIA                                                                 \
    "{\"sheet\":{\"note\":\"a \\\"quoted\\\" note\",\"attacks\":[{\"name\":" \
    "\"Longsword\",\"roll\":\"\",\"damage\":\"1d8+3\",\"options\":\"\"}],"  \
    "\"init\":\"+3\",\"tracks\":{\"hp\":{\"cur\":18,\"max\":24}},"         \
    "\"stats\":{\"attack\":5,\"ac\":15},\"system\":\"generic\",\"v\":1},"   \
    "\"name\":\"Aria\"}"
#define BRUNO                                                                \
    "{\"name\":\"bruno\",\"sheet\":{\"v\":1,\"system\":\"teams\","       \
    "\"stats\":{\"str\":6}}}"

/* Characters: export -> import -> export is the same bytes, in name
 * order (case ignored), the sheet as the codec writes it. */
static void test_character_round_trip(void **state)
{
    struct cmd_fx *f = *state;
    char *a, *b;

    put("in.json", SHEETS("characters", BRUNO "," ARIA));
    assert_true(cmd_fx_run(f, ANN, "character", "import", "file",
                           path_of("in.json"), NULL));
    cmd_fx_has(f, "Imported 2 characters");
    assert_true(cmd_fx_run(f, ANN, "character", "export", "file",
                           path_of("a.json"), NULL));
    a = get("a.json");
    assert_true(strstr(a, "\"Aria\"") < strstr(a, "\"bruno\""));
    assert_non_null(strstr(a, "\"damage\": \"1d8+3\""));
    assert_true(cmd_fx_run(f, ANN, "character", "import", "file",
                           path_of("a.json"), "replace", "true", NULL));
    assert_true(cmd_fx_run(f, ANN, "character", "export", "file",
                           path_of("b.json"), NULL));
    b = get("b.json");
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* templates are another kind: the same file is refused there (to a
     * template manager: the console's --gm) */
    f->gm = ANN;
    assert_false(cmd_fx_run(f, ANN, "npc", "import", "file",
                            path_of("a.json"), NULL));
    cmd_fx_has(f, "holds characters, not templates");
}

static void test_character_import_refusals(void **state)
{
    struct cmd_fx *f = *state;
    static const struct {
        const char *text, *says;
    } bad[] = {
        {SHEETS("characters", ARIA ",{\"name\":\"Axe\",\"sheet\":{\"v\":1,"
                "\"system\":\"generic\",\"attacks\":[{\"name\":\"Axe\","
                "\"damage\":\"1d8+\"}]}}"),
         "item 2 (Axe): Axe: damage \"1d8+\""},
        {SHEETS("characters", "{\"name\":\"F\",\"sheet\":{\"v\":1,"
                "\"system\":\"factions\",\"stats\":{\"wis\":3}}}"),
         "item 1 (F): the factions system has no stat wis"},
        {SHEETS("characters", "{\"name\":\"D\",\"sheet\":{\"v\":1,"
                "\"system\":\"dnd\"}}"),
         "item 1 (D):"},
        {SHEETS("characters", "{\"name\":\"123\",\"sheet\":{\"v\":1,"
                "\"system\":\"generic\"}}"),
         "item 1: the name cannot be only digits"},
        {SHEETS("characters", "{\"name\":\"N\",\"sheet\":\"x\"}"),
         "item 1 (N): sheet is not an object"},
        {SHEETS("characters", ARIA "," ARIA), "items 1 and 2 are both "
                                             "called Aria"},
        /* what /character create refuses, refused with the field named */
        {SHEETS("characters", "{\"name\":\"H\",\"sheet\":{\"v\":1,"
                "\"system\":\"generic\",\"tracks\":{\"hp\":{\"cur\":"
                "1000000,\"max\":1}}}}"),
         "item 1 (H): hp: its current 1000000 is over its maximum 1"},
        {SHEETS("characters", "{\"name\":\"@everyone\",\"sheet\":{\"v\":1,"
                "\"system\":\"generic\"}}"),
         "item 1: a name cannot look like a mention"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put("bad.json", bad[i].text);
        if (cmd_fx_run(f, ANN, "character", "import", "file",
                       path_of("bad.json"), NULL))
            fail_msg("accepted: %s", bad[i].text);
        cmd_fx_has(f, bad[i].says);
        cmd_fx_has(f, "othing was changed");
    }
    assert_true(cmd_fx_run(f, ANN, "character", "export", "file",
                           path_of("none.json"), NULL));
    cmd_fx_has(f, "Exported 0 characters");
    /* templates go through the same validator as /npc create */
    f->gm = ANN;
    put("bad.json", SHEETS("templates", "{\"name\":\"Lich\",\"sheet\":"
                           "{\"v\":1,\"system\":\"generic\",\"tracks\":"
                           "{\"hp\":{\"cur\":5,\"max\":1}}}}"));
    assert_false(cmd_fx_run(f, ANN, "npc", "import", "file",
                            path_of("bad.json"), NULL));
    cmd_fx_has(f, "item 1 (Lich): hp: its current 5 is over its maximum 1");
}

/* 51 characters: past the quota of 50, refused whole. */
static void test_character_import_quota(void **state)
{
    struct cmd_fx *f = *state;
    struct sbuf sb;
    sbuf_init(&sb, 1 << 20);
    sbuf_add(&sb, "{\"fray\":\"export\",\"version\":1,\"kind\":"
                  "\"characters\",\"items\":[");
    for (int i = 0; i < 51; i++)
        sbuf_addf(&sb, "%s{\"name\":\"Hero %d\",\"sheet\":{\"v\":1,"
                       "\"system\":\"generic\"}}", i ? "," : "", i);
    sbuf_add(&sb, "]}");
    put("many.json", sbuf_str(&sb));
    sbuf_cleanup(&sb);
    assert_false(cmd_fx_run(f, ANN, "character", "import", "file",
                            path_of("many.json"), NULL));
    cmd_fx_has(f, "51 characters, over the limit of 50");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_macro_round_trip_identical,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_macro_import_refusals, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_macro_import_files, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_macro_export_is_your_own, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_character_round_trip, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_character_import_refusals,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_character_import_quota, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("cmd_xfer", tests, NULL, NULL);
}
