/* test_limit.c - the token buckets (limit.h) on a made-up clock: a burst,
 * then the refill rate, keys that do not share, no limit at 0, slow rates
 * that still refill, and a bounded table that forgets idle keys first. */
#include "support.h"

#include "limit.h"

static void test_limit_burst_then_rate(void **state)
{
    struct limit *l = limit_new(0);
    struct limit_rate r = {.burst = 5, .per_min = 60};   /* one a second */
    int64_t t = 1000;
    (void)state;
    assert_non_null(l);
    for (int i = 0; i < 5; i++)
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t));
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t));
    assert_int_equal(limit_wait_ms(l, LIMIT_USER_COMMANDS, 7, &r, t), 1000);
    assert_int_equal(limit_wait_ms(l, LIMIT_USER_COMMANDS, 7, &r, t + 400),
                     600);
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t + 999));
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t + 1000));
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t + 1000));
    /* a long pause refills to the burst, not beyond */
    t += 3600 * 1000;
    for (int i = 0; i < 5; i++)
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t));
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 7, &r, t));
    limit_free(l);
}

static void test_limit_keys_are_separate(void **state)
{
    struct limit *l = limit_new(0);
    struct limit_rate r = {.burst = 1, .per_min = 1};
    (void)state;
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 0));
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 0));
    /* another user, the same id as a channel, another kind: all fresh */
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 2, &r, 0));
    assert_true(limit_take(l, LIMIT_CHANNEL_COMMANDS, 1, &r, 0));
    assert_true(limit_take(l, LIMIT_USER_SECRET, 1, &r, 0));
    assert_int_equal(limit_wait_ms(l, LIMIT_USER_AUTOCOMPLETE, 1, &r, 0), 0);
    assert_int_equal(limit_count(l), 4);
    limit_free(l);
}

static void test_limit_zero_is_no_limit(void **state)
{
    struct limit *l = limit_new(0);
    struct limit_rate r = {.burst = 3, .per_min = 0};
    (void)state;
    for (int i = 0; i < 1000; i++)
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, 9, &r, 0));
    assert_int_equal(limit_wait_ms(l, LIMIT_USER_COMMANDS, 9, &r, 0), 0);
    assert_int_equal(limit_count(l), 0);
    limit_free(l);
}

/* One token a minute asked every 10 ms: the level still climbs. */
static void test_limit_slow_rate_refills(void **state)
{
    struct limit *l = limit_new(0);
    struct limit_rate r = {.burst = 1, .per_min = 1};
    int64_t t = 0;
    (void)state;
    assert_true(limit_take(l, LIMIT_USER_SECRET, 3, &r, t));
    while (!limit_take(l, LIMIT_USER_SECRET, 3, &r, t)) {
        assert_true(limit_wait_ms(l, LIMIT_USER_SECRET, 3, &r, t) > 0);
        t += 10;
        assert_true(t <= 60000);
    }
    assert_int_equal(t, 60000);
    limit_free(l);
}

/* A full table forgets buckets that refilled (they hold nothing), and a
 * bucket that is still empty survives. */
static void test_limit_bounded_table(void **state)
{
    struct limit *l = limit_new(64);
    struct limit_rate r = {.burst = 2, .per_min = 60};
    (void)state;
    /* user 1 empties its bucket */
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 0));
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 0));
    /* 63 users take one each at time 0: the table is full */
    for (uint64_t u = 100; u < 163; u++)
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, u, &r, 0));
    assert_int_equal(limit_count(l), 64);
    /* 1.5 s later the 63 are full again; user 1 is not (1.5 of 2) */
    for (uint64_t u = 1000; u < 1063; u++)
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, u, &r, 1500));
    assert_int_equal(limit_count(l), 64);
    assert_true(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 1500));
    assert_false(limit_take(l, LIMIT_USER_COMMANDS, 1, &r, 1500));
    /* busy keys only: the oldest go, the table stays bounded */
    for (uint64_t u = 5000; u < 6000; u++) {
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, u, &r, 1600));
        assert_true(limit_take(l, LIMIT_USER_COMMANDS, u, &r, 1600));
        assert_true(limit_count(l) <= 64);
    }
    limit_free(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limit_burst_then_rate),
        cmocka_unit_test(test_limit_keys_are_separate),
        cmocka_unit_test(test_limit_zero_is_no_limit),
        cmocka_unit_test(test_limit_slow_rate_refills),
        cmocka_unit_test(test_limit_bounded_table),
    };
    return cmocka_run_group_tests_name("limit", tests, NULL, NULL);
}
