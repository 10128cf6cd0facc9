/* Tests for eng_text's comparison and number helpers: case-insensitive
 * comparison folds ASCII letters only and orders like the folded bytes
 * (what every lookup relies on), and eng_text_i64 writes what printf's
 * PRId64 does, the extremes included. */
#include "support.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

static void test_casecmp_folds_ascii_only(void **state)
{
    (void)state;
    static const struct {
        const char *a, *b;
        int want; /* sign */
    } cases[] = {
        {"combat", "combat", 0},   {"Combat", "cOMBAT", 0},
        {"", "", 0},               {"a", "", 1},
        {"", "a", -1},             {"abc", "abd", -1},
        {"ABD", "abc", 1},         {"hp", "hp2", -1},
        {"Zo\xC3\xAB", "zo\xC3\xAB", 0},
        {"\xC3\x89", "\xC3\xA9", -1}, /* É and é: not ASCII, not folded */
        {"[", "a", -1},            /* '[' sorts before letters, folded */
        {"_", "A", -1},            /* 'A' folds to 'a', after '_' */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(sign(eng_text_casecmp(cases[i].a, cases[i].b)),
                         cases[i].want);
        assert_int_equal(sign(eng_text_casecmp(cases[i].b, cases[i].a)),
                         -cases[i].want);
    }
}

static void test_i64_as_printf(void **state)
{
    (void)state;
    static const int64_t vals[] = {0,         1,          -1,
                                   9,         10,         -10,
                                   123456789, INT64_MAX,  INT64_MIN,
                                   INT64_MIN + 1};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char buf[ENG_TEXT_I64_MAX], want[32], got[32];
        const char *p = eng_text_i64(vals[i], buf);
        size_t n = (size_t)(buf + sizeof buf - p);
        memcpy(got, p, n);
        got[n] = '\0';
        snprintf(want, sizeof want, "%" PRId64, vals[i]);
        assert_string_equal(got, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_casecmp_folds_ascii_only),
        cmocka_unit_test(test_i64_as_printf),
    };
    return cmocka_run_group_tests_name("eng_text", tests, NULL, NULL);
}
