/* Tests for eng_rng: reproducibility, bounds and uniformity. */
#include "support.h"

#include "eng_rng.h"

static void test_rng_same_seed_same_sequence(void **state)
{
    (void)state;
    struct eng_rng a, b;
    eng_rng_seed(&a, 42);
    eng_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(eng_rng_next(&a), eng_rng_next(&b));
}

static void test_rng_different_seed_differs(void **state)
{
    (void)state;
    struct eng_rng a, b;
    eng_rng_seed(&a, 1);
    eng_rng_seed(&b, 2);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += eng_rng_next(&a) == eng_rng_next(&b);
    assert_true(same < 2);
}

static void test_rng_below_stays_in_bounds(void **state)
{
    (void)state;
    struct eng_rng r;
    eng_rng_seed(&r, 7);
    static const uint64_t bounds[] = {1, 2, 3, 6, 7, 20, 100, 10000,
                                      UINT64_C(0x8000000000000001)};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        for (int i = 0; i < 10000; i++)
            assert_true(eng_rng_below(&r, bounds[b]) < bounds[b]);
    for (int i = 0; i < 10000; i++) {
        int64_t v = eng_rng_range(&r, -1, 1);
        assert_true(v >= -1 && v <= 1);
    }
}

/* Chi-square over a d7 (a bound that does not divide 2^64) with 10^5 draws;
 * 6 degrees of freedom, critical value 22.46 at p = 0.001. */
static void test_rng_below_is_uniform(void **state)
{
    (void)state;
    struct eng_rng r;
    eng_rng_seed(&r, 12345);
    enum { N = 100000, K = 7 };
    long counts[K] = {0};
    for (int i = 0; i < N; i++)
        counts[eng_rng_below(&r, K)]++;
    double expect = (double)N / K, chi = 0;
    for (int k = 0; k < K; k++)
        chi += (counts[k] - expect) * (counts[k] - expect) / expect;
    assert_true(chi < 22.46);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_same_seed_same_sequence),
        cmocka_unit_test(test_rng_different_seed_differs),
        cmocka_unit_test(test_rng_below_stays_in_bounds),
        cmocka_unit_test(test_rng_below_is_uniform),
    };
    return cmocka_run_group_tests_name("rng", tests, NULL, NULL);
}
