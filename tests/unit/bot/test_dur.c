/* The duration parser (dur.h): what /combat clock and the console's :time
 * accept, what they refuse and why, and how durations are written back. */
#include "support.h"

#include <string.h>

#include "dur.h"

static void test_dur_accepts(void **state)
{
    (void)state;
    int64_t ms = 0;
    assert_int_equal(dur_parse("30m", &ms), DUR_OK);
    assert_int_equal(ms, 30 * 60 * 1000);
    assert_int_equal(dur_parse("4h", &ms), DUR_OK);
    assert_int_equal(ms, 4 * 3600 * 1000);
    assert_int_equal(dur_parse("1d", &ms), DUR_OK);
    assert_int_equal(ms, 24 * 3600 * 1000);
    assert_int_equal(dur_parse("1h30m", &ms), DUR_OK);
    assert_int_equal(ms, 90 * 60 * 1000);
    assert_int_equal(dur_parse("2D6H", &ms), DUR_OK);
    assert_int_equal(ms, (48 + 6) * INT64_C(3600000));
    /* the bounds themselves */
    assert_int_equal(dur_parse("1m", &ms), DUR_OK);
    assert_int_equal(ms, 60000);
    assert_int_equal(dur_parse("30d", &ms), DUR_OK);
    assert_int_equal(ms, 30 * INT64_C(86400000));
    assert_int_equal(dur_parse("43200m", &ms), DUR_OK);
    assert_int_equal(ms, DUR_MAX_MS);
    assert_int_equal(dur_parse("720h", &ms), DUR_OK);
    assert_int_equal(ms, DUR_MAX_MS);
}

static void test_dur_refuses(void **state)
{
    (void)state;
    int64_t ms = 77;
    assert_int_equal(dur_parse("", &ms), DUR_EMPTY);
    assert_int_equal(dur_parse(NULL, &ms), DUR_EMPTY);
    assert_int_equal(dur_parse("4", &ms), DUR_NO_UNIT);
    assert_int_equal(dur_parse("1h30", &ms), DUR_NO_UNIT);
    assert_int_equal(dur_parse("h", &ms), DUR_NO_NUMBER);
    assert_int_equal(dur_parse("4x", &ms), DUR_BAD_UNIT);
    assert_int_equal(dur_parse("10s", &ms), DUR_BAD_UNIT);
    assert_int_equal(dur_parse("4 h", &ms), DUR_BAD_UNIT);
    assert_int_equal(dur_parse("-4h", &ms), DUR_BAD_UNIT);
    assert_int_equal(dur_parse("30m1h", &ms), DUR_ORDER);
    assert_int_equal(dur_parse("1h1h", &ms), DUR_ORDER);
    assert_int_equal(dur_parse("123456m", &ms), DUR_DIGITS);
    assert_int_equal(dur_parse("0m", &ms), DUR_TOO_SHORT);
    assert_int_equal(dur_parse("31d", &ms), DUR_TOO_LONG);
    assert_int_equal(dur_parse("30d1m", &ms), DUR_TOO_LONG);
    assert_int_equal(dur_parse("1d1d1d1d1d1d1d1d", &ms), DUR_ORDER);
    assert_int_equal(dur_parse("1d2h3m4d5h6m7d8h9m", &ms),
                     DUR_TOO_LONG_TEXT);
    /* a refusal leaves the output alone */
    assert_int_equal(ms, 77);
    /* every refusal has its own words */
    for (int e = DUR_EMPTY; e <= DUR_TOO_LONG; e++) {
        assert_non_null(dur_strerror((enum dur_err)e));
        assert_null(strchr(dur_strerror((enum dur_err)e), '\n'));
        for (int f = DUR_EMPTY; f < e; f++)
            assert_string_not_equal(dur_strerror((enum dur_err)e),
                                    dur_strerror((enum dur_err)f));
    }
}

static void test_dur_format(void **state)
{
    (void)state;
    char b[DUR_MAX_TEXT + 1];
    dur_format(90 * 60 * 1000, b, sizeof b);
    assert_string_equal(b, "1h30m");
    dur_format(DUR_MS_DAY, b, sizeof b);
    assert_string_equal(b, "1d");
    dur_format(DUR_MAX_MS - DUR_MS_MINUTE, b, sizeof b);
    assert_string_equal(b, "29d23h59m");
    dur_format(59999, b, sizeof b);
    assert_string_equal(b, "0m");
    /* what dur_format writes, dur_parse reads back */
    int64_t ms = 0;
    dur_format(DUR_MS_DAY + 2 * DUR_MS_HOUR + 3 * DUR_MS_MINUTE, b, sizeof b);
    assert_int_equal(dur_parse(b, &ms), DUR_OK);
    assert_int_equal(ms, DUR_MS_DAY + 2 * DUR_MS_HOUR + 3 * DUR_MS_MINUTE);
    dur_format_rough(5 * DUR_MS_HOUR + 59 * DUR_MS_MINUTE, b, sizeof b);
    assert_string_equal(b, "5 h");
    dur_format_rough(59 * DUR_MS_MINUTE, b, sizeof b);
    assert_string_equal(b, "59 min");
    dur_format_rough(3 * DUR_MS_DAY, b, sizeof b);
    assert_string_equal(b, "3 d");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dur_accepts),
        cmocka_unit_test(test_dur_refuses),
        cmocka_unit_test(test_dur_format),
    };
    return cmocka_run_group_tests_name("dur", tests, NULL, NULL);
}
