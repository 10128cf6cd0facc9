/* test_jw.c - the JSON writer against jansson: the same values give the
 * same bytes as json_dumps(JSON_COMPACT), bad text is refused, and a
 * writer on a caller's buffer moves to the heap without losing a byte. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jw.h"

/* What jansson writes for one value. */
static char *jansson_of(json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
    assert_non_null(s);
    return s;
}

static void assert_writes(void (*put)(struct jw *, const void *),
                          const void *arg, json_t *want)
{
    struct jw w;
    char *expected = jansson_of(want), *got;
    jw_init(&w, 1 << 20);
    put(&w, arg);
    got = jw_take(&w, NULL);
    assert_non_null(got);
    assert_string_equal(got, expected);
    free(got);
    free(expected);
}

static void put_str(struct jw *w, const void *s)
{
    jw_str(w, s);
}

static void put_i64(struct jw *w, const void *v)
{
    jw_i64(w, *(const int64_t *)v);
}

static void test_jw_strings_as_jansson(void **state)
{
    static const char *const cases[] = {
        "",
        "plain",
        "quote \" and backslash \\",
        "tab\tnew\nline\rcr",
        "\b\f\x01\x1f\x7f",
        "slash / stays",
        "caf\xc3\xa9 \xe2\x80\xa6 \xf0\x9f\x8e\xb2",
        "<@&123> @everyone",
        /* longer than a word: the eight-byte scan, a byte to escape or
         * above ASCII in each place of a word and in the tail */
        "Goblin Archer Number Seven",
        "\"at the start of a long string",
        "a long string ending in a quote\"",
        "abcdefg\\hijklmnop",
        "abcdefgh\x1fijklmnop",
        "abcdefghijklmno\n",
        "12345678\x7f\x20\x21 over the control range",
        "d\xc3\xa9j\xc3\xa0 vu, then \"quoted\" \xe2\x80\xa6 done",
        "ascii word then caf\xc3\xa9",
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_writes(put_str, cases[i], json_string(cases[i]));
}

static void test_jw_numbers_as_jansson(void **state)
{
    static const int64_t cases[] = {0,         7,         10,      99,
                                    100,       101,       999,     1000,
                                    -1,        -100,      -10,     -1000,
                                    123456789, 10203040,  9909,    INT64_MAX,
                                    INT64_MIN, INT64_MIN + 1};
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_writes(put_i64, &cases[i], json_integer(cases[i]));
}

static void test_jw_object_as_jansson(void **state)
{
    struct jw w;
    int64_t a[] = {1, -2, 300};
    char *got;
    (void)state;
    jw_init(&w, 1 << 20);
    JW_LIT(&w, "{");
    JW_KEY1(&w, "id");
    jw_u64_str(&w, UINT64_MAX);
    JW_STR(&w, "name", "Orc \"Big\"");
    JW_BOOL(&w, "hidden", true);
    JW_BOOL(&w, "down", false);
    JW_KEY(&w, "rolls");
    jw_i64_array(&w, a, 3);
    JW_I64(&w, "hp", -4);
    JW_LIT(&w, "}");
    got = jw_take(&w, NULL);
    char *want = jansson_of(json_pack("{s:s, s:s, s:b, s:b, s:[i,i,i], s:i}",
                                      "id", "18446744073709551615", "name",
                                      "Orc \"Big\"", "hidden", 1, "down", 0,
                                      "rolls", 1, -2, 300, "hp", -4));
    assert_string_equal(got, want);
    free(got);
    free(want);
}

static void test_jw_refuses_bad_text_and_overflow(void **state)
{
    struct jw w;
    size_t len = 99;
    (void)state;
    jw_init(&w, 1 << 20);
    jw_str(&w, "ok");
    jw_str(&w, "broken \xc3 text"); /* a cut sequence */
    assert_null(jw_text(&w, &len));
    assert_null(jw_take(&w, &len));
    assert_int_equal(len, 99); /* untouched on failure */
    jw_init(&w, 1 << 20);
    jw_str(&w, "a whole word \xc3 then a cut sequence in the next");
    assert_null(jw_take(&w, &len));

    jw_init(&w, 16); /* a ceiling of 16 bytes */
    jw_str(&w, "0123456789");
    assert_non_null(jw_text(&w, NULL));
    jw_str(&w, "0123456789");
    assert_null(jw_take(&w, NULL));
}

static void test_jw_caller_buffer_moves_to_heap(void **state)
{
    char stack[32];
    struct jw w;
    size_t len = 0;
    char *big = malloc(10001);
    (void)state;
    memset(big, 'x', 10000);
    big[10000] = '\0';

    jw_init_buf(&w, stack, sizeof stack, 1 << 20);
    jw_str(&w, "short");
    const char *t = jw_text(&w, &len);
    assert_ptr_equal(t, stack); /* no allocation yet */
    assert_string_equal(t, "\"short\"");
    char *copy = jw_take(&w, &len); /* heap, not the stack */
    assert_ptr_not_equal(copy, stack);
    assert_string_equal(copy, "\"short\"");
    assert_int_equal(len, 7);
    free(copy);

    jw_init_buf(&w, stack, sizeof stack, 1 << 20);
    JW_LIT(&w, "[");
    jw_str(&w, "first");
    JW_LIT(&w, ",");
    jw_str(&w, big); /* outgrows the stack */
    JW_LIT(&w, "]");
    t = jw_text(&w, &len);
    assert_non_null(t);
    assert_ptr_not_equal(t, stack);
    assert_int_equal(len, 1 + 7 + 1 + 10002 + 1);
    assert_memory_equal(t, "[\"first\",\"xxx", 13);
    assert_string_equal(t + len - 3, "x\"]");
    jw_cleanup(&w); /* frees the heap copy */
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jw_strings_as_jansson),
        cmocka_unit_test(test_jw_numbers_as_jansson),
        cmocka_unit_test(test_jw_object_as_jansson),
        cmocka_unit_test(test_jw_refuses_bad_text_and_overflow),
        cmocka_unit_test(test_jw_caller_buffer_moves_to_heap),
    };
    return cmocka_run_group_tests_name("jw", tests, NULL, NULL);
}
