/* test_xfer.c - the exchange format's envelope (xfer.h, and what
 * docs/export-format.md promises of it): the fixed layout, a file read
 * and written again is the same bytes, and every malformed or oversized
 * file is refused with a message naming what is wrong. The console's file
 * helpers refuse missing, oversized and badly named files. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xfer.h"

static char *dump_ok(const json_t *doc)
{
    char err[XFER_ERR_MAX] = "";
    char *t = xfer_dump(doc, I18N_EN, err, sizeof err);
    assert_non_null(t);
    return t;
}

static void refused(const char *text, enum xfer_kind want,
                    enum bot_err code, const char *part)
{
    json_t *root = NULL, *items = NULL;
    char err[XFER_ERR_MAX] = "";
    assert_int_equal(xfer_parse(text, strlen(text), want, &root, &items,
                                I18N_EN, err, sizeof err),
                     code);
    assert_null(root);
    assert_null(items);
    if (strstr(err, part) == NULL)
        fail_msg("error \"%s\" does not say \"%s\"", err, part);
}

static void test_xfer_layout(void **state)
{
    json_t *doc = xfer_doc_new(XFER_MACROS);
    char *t;
    (void)state;
    json_array_append_new(json_object_get(doc, "items"),
                          json_pack("{s:s,s:s}", "name", "stealth", "dice",
                                    "1d20+7 # Stealth"));
    t = dump_ok(doc);
    /* the documented example, byte for byte */
    assert_string_equal(t, "{\n"
                           "  \"fray\": \"export\",\n"
                           "  \"version\": 1,\n"
                           "  \"kind\": \"macros\",\n"
                           "  \"items\": [\n"
                           "    {\n"
                           "      \"name\": \"stealth\",\n"
                           "      \"dice\": \"1d20+7 # Stealth\"\n"
                           "    }\n"
                           "  ]\n"
                           "}\n");
    free(t);
    json_decref(doc);
}

static void test_xfer_round_trip(void **state)
{
    json_t *doc = xfer_doc_new(XFER_CHARACTERS), *root, *items;
    char err[XFER_ERR_MAX], *a, *b;
    (void)state;
    json_array_append_new(json_object_get(doc, "items"),
                          json_pack("{s:s,s:s,s:{s:i,s:s}}", "name",
                                    "Zoë \"the\" Bold", "system", "generic",
                                    "sheet", "hp", 24, "note", "a\nb"));
    a = dump_ok(doc);
    assert_int_equal(xfer_parse(a, strlen(a), XFER_CHARACTERS, &root,
                                &items, I18N_EN, err, sizeof err),
                     BOT_OK);
    assert_int_equal(json_array_size(items), 1);
    b = dump_ok(root);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_decref(items);
    json_decref(root);
    json_decref(doc);
}

static void test_xfer_refusals(void **state)
{
    char big[XFER_MAX_BYTES + 8];
    (void)state;
    refused("{\"fray\": \"export\", ", XFER_MACROS, BOT_INVALID,
            "not JSON (line 1");
    refused("[1, 2]", XFER_MACROS, BOT_INVALID, "not a fray export");
    refused("{\"fray\": \"other\"}", XFER_MACROS, BOT_INVALID,
            "not a fray export");
    refused("{\"fray\":\"export\",\"version\":2,\"kind\":\"macros\","
            "\"items\":[]}",
            XFER_MACROS, BOT_INVALID, "newer fray (version 2; this one "
                                      "reads 1)");
    refused("{\"fray\":\"export\",\"version\":\"1\",\"kind\":\"macros\","
            "\"items\":[]}",
            XFER_MACROS, BOT_INVALID, "`version`");
    refused("{\"fray\":\"export\",\"version\":1,\"kind\":\"templates\","
            "\"items\":[]}",
            XFER_CHARACTERS, BOT_INVALID, "holds templates, not characters");
    refused("{\"fray\":\"export\",\"version\":1,\"kind\":\"spells\","
            "\"items\":[]}",
            XFER_MACROS, BOT_INVALID, "something else, not macros");
    refused("{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\","
            "\"items\":[],\"owner\":\"me\"}",
            XFER_MACROS, BOT_INVALID, "`owner`");
    refused("{\"fray\":\"export\",\"version\":1,\"kind\":\"macros\","
            "\"items\":{}}",
            XFER_MACROS, BOT_INVALID, "`items` is not a list");
    refused("{\"fray\":\"export\",\"fray\":\"export\"}", XFER_MACROS,
            BOT_INVALID, "not JSON");
    /* over the size limit: refused before parsing */
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    refused(big, XFER_MACROS, BOT_LIMIT, "over the 262144");
}

static void test_xfer_too_many_items(void **state)
{
    json_t *doc = xfer_doc_new(XFER_MACROS);
    char *t;
    (void)state;
    for (int i = 0; i < XFER_MAX_ITEMS + 1; i++)
        json_array_append_new(json_object_get(doc, "items"), json_integer(i));
    t = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    refused(t, XFER_MACROS, BOT_LIMIT, "501 items (limit is 500)");
    free(t);
    json_decref(doc);
}

static void test_xfer_items(void **state)
{
    static const char *const allowed[] = {"name", "dice", NULL};
    char err[XFER_ERR_MAX], longname[64];
    json_t *ok = json_pack("{s:s,s:s}", "name", "a", "dice", "d20");
    json_t *extra = json_pack("{s:s,s:s}", "name", "a", "owner", "x");
    json_t *num = json_pack("{s:i}", "name", 3);
    (void)state;
    assert_true(xfer_item_fields(ok, 0, allowed, I18N_EN, err, sizeof err));
    assert_false(xfer_item_fields(extra, 1, allowed, I18N_EN, err, sizeof err));
    assert_string_equal(err, "item 2: field `owner` is not one fray knows");
    json_t *three = json_integer(3);
    assert_false(xfer_item_fields(three, 4, allowed, I18N_EN, err, sizeof err));
    assert_string_equal(err, "item 5 is not an object");
    json_decref(three);
    assert_null(xfer_item_str(num, 2, "name", 32, I18N_EN, err, sizeof err));
    assert_string_equal(err, "item 3: `name` is not text");
    assert_null(xfer_item_str(ok, 0, "note", 32, I18N_EN, err, sizeof err));
    assert_string_equal(err, "item 1: `note` is missing");
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    json_object_set_new(ok, "name", json_string(longname));
    assert_null(xfer_item_str(ok, 0, "name", 32, I18N_EN, err, sizeof err));
    assert_string_equal(err, "item 1: `name` is too long (limit is 32 "
                             "bytes)");
    json_decref(ok);
    json_decref(extra);
    json_decref(num);
}

static void test_xfer_files(void **state)
{
    char dir[] = "/tmp/fray-xfer-XXXXXX", path[128], err[XFER_ERR_MAX];
    char longpath[XFER_MAX_PATH + 2], *buf;
    size_t len;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/aria.json", dir);
    assert_int_equal(xfer_read_file(path, &buf, &len, I18N_EN, err, sizeof err),
                     BOT_INVALID);
    assert_non_null(strstr(err, "cannot open"));
    /* an export holds a player's sheets or a server's templates: for its
     * owner only (0600), whatever the umask lets through */
    mode_t old = umask(022);
    assert_int_equal(xfer_write_file(path, "{}\n", I18N_EN, err, sizeof err), BOT_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    /* written again over a file another made readable: 0600 again */
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(xfer_write_file(path, "{}\n", I18N_EN, err, sizeof err), BOT_OK);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    umask(old);
    assert_int_equal(xfer_read_file(path, &buf, &len, I18N_EN, err, sizeof err),
                     BOT_OK);
    assert_int_equal(len, 3);
    assert_string_equal(buf, "{}\n");
    free(buf);
    /* one byte over the limit */
    f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < XFER_MAX_BYTES + 1; i++)
        fputc(' ', f);
    fclose(f);
    assert_int_equal(xfer_read_file(path, &buf, &len, I18N_EN, err, sizeof err),
                     BOT_LIMIT);
    assert_null(buf);
    assert_non_null(strstr(err, "bigger than the 262144 bytes"));
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = '\0';
    assert_int_equal(xfer_read_file(longpath, &buf, &len, I18N_EN, err, sizeof err),
                     BOT_INVALID);
    assert_non_null(strstr(err, "limit is 255 bytes"));
    assert_int_equal(xfer_read_file("", &buf, &len, I18N_EN, err, sizeof err),
                     BOT_INVALID);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xfer_layout),
        cmocka_unit_test(test_xfer_round_trip),
        cmocka_unit_test(test_xfer_refusals),
        cmocka_unit_test(test_xfer_too_many_items),
        cmocka_unit_test(test_xfer_items),
        cmocka_unit_test(test_xfer_files),
    };
    return cmocka_run_group_tests_name("xfer", tests, NULL, NULL);
}
