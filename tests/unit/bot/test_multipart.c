/*
 * Tests for the multipart/form-data builder (bot/discord/multipart.c): the
 * body Discord takes for a message with files, byte for byte as RFC 7578
 * and Discord's "Uploading Files" describe it: a payload_json part, then
 * files[n] parts with their file names, each delimited by a boundary that
 * occurs in none of them, closed by "--boundary--".
 */
#include "support.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multipart.h"

/* The boundary the body's Content-Type names, into b. */
static void boundary_of(const struct mp_body *m, char *b, size_t cap)
{
    const char *prefix = "multipart/form-data; boundary=";
    assert_memory_equal(m->content_type, prefix, strlen(prefix));
    snprintf(b, cap, "%s", m->content_type + strlen(prefix));
    assert_true(strlen(b) >= 1 && strlen(b) <= 70);
}

static void test_mp_body_layout(void **state)
{
    (void)state;
    const char *payload = "{\"content\":\"hi\"}";
    const char data[] = "# Log\n\nv1";
    struct mp_file f = {"fight-log.md", "text/markdown", data,
                        sizeof data - 1};
    struct mp_body m;
    assert_int_equal(mp_build(payload, &f, 1, &m), BOT_OK);
    char b[80], want[1024];
    boundary_of(&m, b, sizeof b);
    int n = snprintf(want, sizeof want,
                     "--%s\r\n"
                     "Content-Disposition: form-data; name=\"payload_json\""
                     "\r\nContent-Type: application/json\r\n\r\n"
                     "{\"content\":\"hi\"}\r\n"
                     "--%s\r\n"
                     "Content-Disposition: form-data; name=\"files[0]\"; "
                     "filename=\"fight-log.md\"\r\n"
                     "Content-Type: text/markdown\r\n\r\n"
                     "# Log\n\nv1\r\n"
                     "--%s--\r\n", b, b, b);
    assert_int_equal(m.len, (size_t)n);
    assert_memory_equal(m.data, want, m.len);
    /* the same input, the same bytes */
    struct mp_body again;
    assert_int_equal(mp_build(payload, &f, 1, &again), BOT_OK);
    assert_int_equal(again.len, m.len);
    assert_memory_equal(again.data, m.data, m.len);
    mp_body_free(&again);
    mp_body_free(&m);
}

/* A binary file (NULs, CR LF, dashes): its bytes arrive whole, and the
 * boundary occurs in no part. */
static void test_mp_binary_content(void **state)
{
    (void)state;
    char data[256];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)i;
    memcpy(data + 40, "\r\n--fray-\r\n--", 14);
    struct mp_file f = {"a.bin", "application/octet-stream", data,
                        sizeof data};
    struct mp_body m;
    assert_int_equal(mp_build("{}", &f, 1, &m), BOT_OK);
    char b[80];
    boundary_of(&m, b, sizeof b);
    assert_null(memmem(data, sizeof data, b, strlen(b)));
    const char *start = memmem(m.data, m.len, data, sizeof data);
    assert_non_null(start);
    /* right after it, the closing delimiter */
    char close[100];
    int n = snprintf(close, sizeof close, "\r\n--%s--\r\n", b);
    assert_int_equal(m.len - (size_t)(start - m.data), sizeof data + (size_t)n);
    assert_memory_equal(start + sizeof data, close, (size_t)n);
    mp_body_free(&m);
}

static void test_mp_declare(void **state)
{
    (void)state;
    json_t *cb = json_pack("{s:i,s:{s:s}}", "type", 4, "data", "content",
                           "x");
    struct mp_file f[2] = {{"a.md", "text/markdown", "a", 1},
                           {"b.md", "text/markdown", "b", 1}};
    assert_true(mp_declare(json_object_get(cb, "data"), f, 2));
    json_t *list = json_object_get(json_object_get(cb, "data"),
                                   "attachments");
    assert_int_equal(json_array_size(list), 2);
    /* Discord's OpenAPI description wants a string id; "0" and "1"
     * satisfy it and the docs (issue 33, finding 8). */
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(list, 0), "id")), "0");
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(list, 1), "id")), "1");
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(list, 0), "filename")), "a.md");
    json_t *str = json_string("not an object");
    assert_false(mp_declare(str, f, 1));
    json_decref(str);
    json_decref(cb);
}

static void test_mp_limits(void **state)
{
    (void)state;
    struct mp_file f[MP_MAX_FILES + 1];
    struct mp_body m;
    for (int i = 0; i <= MP_MAX_FILES; i++)
        f[i] = (struct mp_file){"a.md", "text/markdown", "a", 1};
    assert_int_equal(mp_build("{}", f, MP_MAX_FILES + 1, &m), BOT_LIMIT);
    assert_null(m.data);
    assert_int_equal(mp_build("{}", f, MP_MAX_FILES, &m), BOT_OK);
    mp_body_free(&m);
    /* names that would break out of the part's header */
    const char *bad[] = {"a\".md", "a\r\nX: y", "", "a\\b", NULL};
    for (int i = 0; bad[i] != NULL; i++) {
        struct mp_file g = {bad[i], "text/markdown", "a", 1};
        assert_int_equal(mp_build("{}", &g, 1, &m), BOT_LIMIT);
    }
    char longname[MP_MAX_FILENAME + 2];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    struct mp_file g = {longname, "text/markdown", "a", 1};
    assert_int_equal(mp_build("{}", &g, 1, &m), BOT_LIMIT);
    struct mp_file t = {"a.md", "text/markdown\r\nX: y", "a", 1};
    assert_int_equal(mp_build("{}", &t, 1, &m), BOT_LIMIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp_body_layout),
        cmocka_unit_test(test_mp_binary_content),
        cmocka_unit_test(test_mp_declare),
        cmocka_unit_test(test_mp_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
