/*
 * Tests for fake-discord's validators (tests/fakes/fake_validate.c and
 * fake_commands.c, compiled into this test): each Discord limit at and past
 * its boundary, the shape of the 50035 error tree, callback type rules and
 * the allowed_mentions violations.
 */
#include "support.h"

#include "fake.h"

#include <stdlib.h>
#include <string.h>

/* {"content": <n copies of unit>} with allowed_mentions. */
static json_t *content_msg(const char *unit, size_t n)
{
    size_t ul = strlen(unit);
    char *s = malloc(ul * n + 1);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * ul, unit, ul);
    s[ul * n] = '\0';
    json_t *m = json_pack("{s:s,s:{s:[]}}", "content", s, "allowed_mentions",
                          "parse");
    free(s);
    return m;
}

static json_t *repeat(char c, size_t n)
{
    char *s = malloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    json_t *j = json_string(s);
    free(s);
    return j;
}

/* The first error code at a dotted path of an errors tree, or NULL. */
static const char *err_code(const json_t *errs, const char *path)
{
    const json_t *node = errs;
    for (const char *p = path; *p;) {
        char part[64];
        size_t n = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        node = json_object_get(node, part);
        p += n + (p[n] == '.');
    }
    return json_string_value(json_object_get(
        json_array_get(json_object_get(node, "_errors"), 0), "code"));
}

static void test_content_limit_counts_code_points(void **state)
{
    (void)state;
    json_t *m = content_msg("x", FAKE_MSG_CONTENT_MAX);
    assert_null(fake_validate_message(m, true, NULL));
    json_decref(m);
    m = content_msg("\xc3\xa9", FAKE_MSG_CONTENT_MAX);      /* é: 2 bytes */
    assert_null(fake_validate_message(m, true, NULL));
    json_decref(m);
    m = content_msg("x", FAKE_MSG_CONTENT_MAX + 1);
    json_t *e = fake_validate_message(m, true, NULL);
    assert_non_null(e);
    assert_string_equal(err_code(e, "content"), "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);
}

static void test_empty_message(void **state)
{
    (void)state;
    bool empty = false;
    json_t *m = json_pack("{s:s,s:{s:[]}}", "content", "  ", "allowed_mentions",
                          "parse");
    assert_null(fake_validate_message(m, true, &empty));
    assert_true(empty);
    assert_null(fake_validate_message(m, false, &empty));
    assert_false(empty);
    json_decref(m);
}

static void test_embed_limits(void **state)
{
    (void)state;
    json_t *m = json_pack("{s:[{s:o,s:o}]}", "embeds", "title",
                          repeat('t', FAKE_EMBED_TITLE_MAX), "description",
                          repeat('d', FAKE_EMBED_DESC_MAX));
    assert_null(fake_validate_message(m, true, NULL));
    json_decref(m);

    m = json_pack("{s:[{s:o,s:{s:o},s:{s:o}}]}", "embeds", "title",
                  repeat('t', FAKE_EMBED_TITLE_MAX + 1), "footer", "text",
                  repeat('f', FAKE_FOOTER_MAX + 1), "author", "name",
                  repeat('a', FAKE_AUTHOR_MAX + 1));
    json_t *e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "embeds.0.title"), "BASE_TYPE_MAX_LENGTH");
    assert_string_equal(err_code(e, "embeds.0.footer.text"),
                        "BASE_TYPE_MAX_LENGTH");
    assert_string_equal(err_code(e, "embeds.0.author.name"),
                        "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);

    /* 26 fields; a field without a value; a value over 1024 */
    json_t *fields = json_array();
    for (int i = 0; i < FAKE_EMBED_FIELDS_MAX + 1; i++)
        json_array_append_new(fields, json_pack("{s:s,s:s}", "name", "n",
                                                "value", "v"));
    json_object_del(json_array_get(fields, 0), "value");
    json_object_set_new(json_array_get(fields, 1), "value",
                        repeat('v', FAKE_FIELD_VALUE_MAX + 1));
    m = json_pack("{s:[{s:o}]}", "embeds", "fields", fields);
    e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "embeds.0.fields"), "BASE_TYPE_MAX_LENGTH");
    assert_string_equal(err_code(e, "embeds.0.fields.0.value"),
                        "BASE_TYPE_REQUIRED");
    assert_string_equal(err_code(e, "embeds.0.fields.1.value"),
                        "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);

    /* 6000 in total across embeds; each one alone is fine */
    m = json_pack("{s:[{s:o},{s:o}]}", "embeds", "description",
                  repeat('a', 3000), "description", repeat('b', 3000));
    assert_null(fake_validate_message(m, true, NULL));
    json_decref(m);
    m = json_pack("{s:[{s:o},{s:o}]}", "embeds", "description",
                  repeat('a', 3000), "description", repeat('b', 3001));
    e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "embeds"), "MAX_EMBED_SIZE_EXCEEDED");
    json_decref(e);
    json_decref(m);

    m = json_pack("{s:[{},{},{},{},{},{},{},{},{},{},{}]}", "embeds");
    e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "embeds"), "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);
}

static json_t *button(const char *id)
{
    return json_pack("{s:i,s:i,s:s,s:s}", "type", 2, "style", 1, "custom_id",
                     id, "label", "go");
}

static void test_components(void **state)
{
    (void)state;
    json_t *rows = json_array();
    for (int i = 0; i < FAKE_ROWS_MAX + 1; i++) {
        char id[8];
        snprintf(id, sizeof id, "b%d", i);
        json_array_append_new(rows, json_pack("{s:i,s:[o]}", "type", 1,
                                              "components", button(id)));
    }
    json_t *m = json_pack("{s:s,s:o}", "content", "x", "components", rows);
    json_t *e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "components"), "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);

    /* duplicate custom_id, a 101-char id, a link button with a custom_id */
    json_t *longid = repeat('i', FAKE_CUSTOM_ID_MAX + 1);
    m = json_pack("{s:[{s:i,s:[o,o,o,{s:i,s:i,s:s,s:s,s:s}]}]}",
                  "components", "type", 1, "components", button("a"),
                  button("a"), button(json_string_value(longid)), "type", 2,
                  "style", 5, "url", "https://example.org", "custom_id", "x",
                  "label", "l");
    json_decref(longid);
    e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "components.0.components.1.custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED");
    assert_string_equal(err_code(e, "components.0.components.2.custom_id"),
                        "BASE_TYPE_MAX_LENGTH");
    assert_string_equal(err_code(e, "components.0.components.3.custom_id"),
                        "BUTTON_LINK_CUSTOM_ID");
    json_decref(e);
    json_decref(m);

    /* a select shares no row; 26 options */
    json_t *opts = json_array();
    for (int i = 0; i < FAKE_SELECT_OPTIONS_MAX + 1; i++)
        json_array_append_new(opts, json_pack("{s:s,s:s}", "label", "l",
                                              "value", "v"));
    m = json_pack("{s:[{s:i,s:[{s:i,s:s,s:o},o]}]}", "components", "type", 1,
                  "components", "type", 3, "custom_id", "pick", "options",
                  opts, button("b"));
    e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "components.0.components"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED");
    assert_string_equal(err_code(e, "components.0.components.0.options"),
                        "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(m);
}

static void test_allowed_mentions(void **state)
{
    (void)state;
    json_t *m = json_pack("{s:s,s:{s:[s],s:[s]}}", "content", "x",
                          "allowed_mentions", "parse", "users", "users", "1");
    json_t *e = fake_validate_message(m, true, NULL);
    assert_string_equal(err_code(e, "allowed_mentions"),
                        "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE");
    json_decref(e);
    json_decref(m);

    struct fake_server s;
    memset(&s, 0, sizeof s);
    s.violations = json_array();
    s.vcounts = json_object();
    m = json_pack("{s:s}", "content", "x");
    fake_check_mentions(&s, m, -1, "t");
    json_decref(m);
    m = json_pack("{s:s,s:{s:[s,s]}}", "content", "x", "allowed_mentions",
                  "parse", "users", "roles");
    fake_check_mentions(&s, m, -1, "t");
    json_decref(m);
    m = json_pack("{s:s,s:{s:[s]}}", "content", "x", "allowed_mentions",
                  "parse", "users");
    fake_check_mentions(&s, m, -1, "t");
    json_decref(m);
    assert_int_equal(json_integer_value(json_object_get(
        s.vcounts, "allowed_mentions_missing")), 1);
    assert_int_equal(json_integer_value(json_object_get(
        s.vcounts, "allowed_mentions_unsafe")), 1);
    assert_int_equal(json_array_size(s.violations), 2);
    json_decref(s.violations);
    json_decref(s.vcounts);
}

static void test_callback_rules(void **state)
{
    (void)state;
    struct { const char *body; int ix_type; bool ok; bool empty; } cases[] = {
        { "{\"type\":4,\"data\":{\"content\":\"x\"}}", 2, true, false },
        { "{\"type\":5}", 2, true, false },
        { "{\"type\":5,\"data\":{\"flags\":64}}", 2, true, false },
        { "{\"type\":5,\"data\":{\"flags\":4}}", 2, false, false },
        { "{\"type\":6}", 2, false, false },
        { "{\"type\":6}", 3, true, false },
        { "{\"type\":7,\"data\":{}}", 3, true, false },
        { "{\"type\":8,\"data\":{\"choices\":[]}}", 2, false, false },
        { "{\"type\":8,\"data\":{\"choices\":[{\"name\":\"a\",\"value\":1}]}}",
          4, true, false },
        { "{\"type\":4,\"data\":{\"content\":\"x\"}}", 4, false, false },
        { "{\"type\":4,\"data\":{}}", 2, true, true },
        { "{\"type\":4}", 2, true, true },
        { "{\"type\":4,\"data\":{\"content\":\"x\",\"flags\":2}}", 2, false,
          false },
        { "{\"type\":3}", 2, false, false },
        { "{\"type\":9,\"data\":{\"custom_id\":\"m\",\"title\":\"t\","
          "\"components\":[{}]}}", 2, true, false },
        { "{\"type\":9,\"data\":{\"custom_id\":\"m\",\"title\":\"t\","
          "\"components\":[]}}", 2, false, false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *b = json_loads(cases[i].body, 0, NULL);
        assert_non_null(b);
        bool empty = false;
        json_t *e = fake_validate_callback(b, cases[i].ix_type, &empty);
        if (cases[i].ok != (e == NULL) || cases[i].empty != empty)
            fail_msg("case %zu (%s on type %d): ok %d empty %d", i,
                     cases[i].body, cases[i].ix_type, e == NULL, empty);
        json_decref(e);
        json_decref(b);
    }
    json_t *b = json_pack("{s:i,s:{s:o}}", "type", 8, "data", "choices",
                          json_array());
    for (int i = 0; i < FAKE_CHOICES_MAX + 1; i++)
        json_array_append_new(json_object_get(json_object_get(b, "data"),
                                              "choices"),
                              json_pack("{s:s,s:s}", "name", "n", "value",
                                        "v"));
    bool empty;
    json_t *e = fake_validate_callback(b, 4, &empty);
    assert_string_equal(err_code(e, "data.choices"), "BASE_TYPE_MAX_LENGTH");
    json_decref(e);
    json_decref(b);
}

static void check_commands(const char *json, bool ok)
{
    json_t *a = json_loads(json, 0, NULL);
    assert_non_null(a);
    json_t *e = fake_validate_commands(a);
    if (ok != (e == NULL)) {
        char *d = e ? json_dumps(e, JSON_COMPACT) : NULL;
        fail_msg("%s: expected %s, got %s", json, ok ? "valid" : "invalid",
                 d ? d : "valid");
    }
    json_decref(e);
    json_decref(a);
}

static void test_command_rules(void **state)
{
    (void)state;
    check_commands("[{\"name\":\"roll\",\"description\":\"Roll\",\"options\":"
                   "[{\"type\":3,\"name\":\"expr\",\"description\":\"e\","
                   "\"required\":true},{\"type\":4,\"name\":\"times\","
                   "\"description\":\"n\",\"choices\":[{\"name\":\"one\","
                   "\"value\":1}]}]},"
                   "{\"name\":\"init\",\"description\":\"i\",\"options\":["
                   "{\"type\":2,\"name\":\"set\",\"description\":\"g\","
                   "\"options\":[{\"type\":1,\"name\":\"a\",\"description\":"
                   "\"s\"}]},{\"type\":1,\"name\":\"show\",\"description\":"
                   "\"s\"}]},"
                   "{\"name\":\"w\xc3\xbcrfeln\",\"description\":\"d\"},"
                   "{\"name\":\"Roll It\",\"type\":2}]", true);
    check_commands("[{\"name\":\"Roll\",\"description\":\"d\"}]", false);
    check_commands("[{\"name\":\"W\xc3\x9crfeln\",\"description\":\"d\"}]",
                   false);
    check_commands("[{\"name\":\"roll dice\",\"description\":\"d\"}]", false);
    check_commands("[{\"name\":\"\",\"description\":\"d\"}]", false);
    check_commands("[{\"name\":\"abcdefghijklmnopqrstuvwxyz0123456\","
                   "\"description\":\"d\"}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\"},"
                   "{\"name\":\"a\",\"description\":\"e\"}]", false);
    check_commands("[{\"name\":\"u\",\"type\":2,\"description\":\"no\"}]",
                   false);
    /* nesting: group in group, subcommand in subcommand, mixed levels */
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":2,\"name\":\"g\",\"description\":\"d\","
                   "\"options\":[{\"type\":2,\"name\":\"h\",\"description\":"
                   "\"d\"}]}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":1,\"name\":\"s\",\"description\":\"d\","
                   "\"options\":[{\"type\":1,\"name\":\"t\",\"description\":"
                   "\"d\"}]}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":1,\"name\":\"s\",\"description\":\"d\"},{"
                   "\"type\":3,\"name\":\"x\",\"description\":\"d\"}]}]",
                   false);
    /* option rules */
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":3,\"name\":\"x\",\"description\":\"d\"},{"
                   "\"type\":3,\"name\":\"x\",\"description\":\"d\"}]}]",
                   false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":5,\"name\":\"x\",\"description\":\"d\","
                   "\"choices\":[{\"name\":\"t\",\"value\":true}]}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":3,\"name\":\"x\",\"description\":\"d\","
                   "\"autocomplete\":true,\"choices\":[{\"name\":\"t\","
                   "\"value\":\"t\"}]}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":4,\"name\":\"x\",\"description\":\"d\","
                   "\"choices\":[{\"name\":\"t\",\"value\":\"t\"}]}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":4,\"name\":\"x\",\"description\":\"d\","
                   "\"min_length\":1}]}]", false);
    check_commands("[{\"name\":\"a\",\"description\":\"d\",\"options\":[{"
                   "\"type\":12,\"name\":\"x\",\"description\":\"d\"}]}]",
                   false);
}

static void test_command_size_and_counts(void **state)
{
    (void)state;
    /* 25 options, each 32-char name + 100-char description, 25 choices of
     * 100 + 100: far beyond 8000 */
    json_t *opts = json_array();
    for (int i = 0; i < FAKE_CMD_OPTIONS_MAX; i++) {
        char name[40];
        snprintf(name, sizeof name, "opt%02d", i);
        json_t *choices = json_array();
        for (int k = 0; k < 3; k++)
            json_array_append_new(choices, json_pack(
                "{s:o,s:o}", "name", repeat('n', 100), "value",
                repeat('v', 100)));
        json_array_append_new(opts, json_pack(
            "{s:i,s:s,s:o,s:o}", "type", 3, "name", name, "description",
            repeat('d', 100), "choices", choices));
    }
    json_t *a = json_pack("[{s:s,s:s,s:o}]", "name", "big", "description",
                          "d", "options", opts);
    json_t *e = fake_validate_commands(a);
    assert_string_equal(err_code(e, "0"), "APPLICATION_COMMAND_TOO_LARGE");
    json_decref(e);
    json_decref(a);

    a = json_array();
    for (int i = 0; i < FAKE_CMD_CHAT_MAX + 1; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        json_array_append_new(a, json_pack("{s:s,s:s}", "name", name,
                                           "description", "d"));
    }
    e = fake_validate_commands(a);
    assert_non_null(e);
    json_decref(e);
    json_array_remove(a, 0);
    assert_null(fake_validate_commands(a));
    json_decref(a);
}

static void test_error_tree_shape(void **state)
{
    (void)state;
    json_t *errs = json_object();
    fake_err_add(errs, "embeds.0.title", "BASE_TYPE_MAX_LENGTH", "m");
    fake_err_add(errs, "embeds.0.title", "OTHER", "n");
    json_t *body = fake_form_error(errs);
    assert_int_equal(json_integer_value(json_object_get(body, "code")), 50035);
    assert_string_equal(json_string_value(json_object_get(body, "message")),
                        "Invalid Form Body");
    json_t *list = json_object_get(json_object_get(json_object_get(
        json_object_get(json_object_get(body, "errors"), "embeds"), "0"),
        "title"), "_errors");
    assert_int_equal(json_array_size(list), 2);
    json_decref(body);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_limit_counts_code_points),
        cmocka_unit_test(test_empty_message),
        cmocka_unit_test(test_embed_limits),
        cmocka_unit_test(test_components),
        cmocka_unit_test(test_allowed_mentions),
        cmocka_unit_test(test_callback_rules),
        cmocka_unit_test(test_command_rules),
        cmocka_unit_test(test_command_size_and_counts),
        cmocka_unit_test(test_error_tree_shape),
    };
    return cmocka_run_group_tests_name("fake_validate", tests, NULL, NULL);
}
