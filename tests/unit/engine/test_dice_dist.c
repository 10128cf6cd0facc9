/* Distribution tests for dice_roll, with fixed seeds. Every expected
 * probability is derived analytically in the comment next to it; each
 * chi-square statistic is compared with the critical value at p = 0.001 for
 * its degrees of freedom, so a correct roller fails about once in a thousand
 * seeds (and these seeds are fixed), while a biased one fails at once. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "dice.h"

enum { ROLLS = 100000 };

/* Roll src ROLLS times from seed, calling tally with each result. */
static void roll_many(const char *src, uint64_t seed,
                      void (*tally)(const struct dice_result *r, void *ctx),
                      void *ctx)
{
    struct dice_expr *e = NULL;
    struct dice_diag d;
    assert_int_equal(dice_parse(src, strlen(src), &e, &d), ENG_OK);
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    struct eng_rng rng;
    eng_rng_seed(&rng, seed);
    for (int i = 0; i < ROLLS; i++) {
        assert_int_equal(dice_roll(e, &rng, r, &d), ENG_OK);
        tally(r, ctx);
    }
    free(r);
    dice_expr_free(e);
}

/* Counts of totals in [lo, lo + n), with anything outside counted too. */
struct hist {
    int64_t lo;
    int n;
    long count[128];
    long outside;
};

static void tally_total(const struct dice_result *r, void *ctx)
{
    struct hist *h = ctx;
    int64_t k = r->total - h->lo;
    if (k >= 0 && k < h->n)
        h->count[k]++;
    else
        h->outside++;
}

static double chi_square(const long *obs, const double *p, int k)
{
    double chi = 0;
    for (int i = 0; i < k; i++) {
        double expect = p[i] * ROLLS;
        chi += (obs[i] - expect) * (obs[i] - expect) / expect;
    }
    return chi;
}

/* 1dN for N = 6, 20, 100: each face 1/N. Critical values at p = 0.001:
 * 5 df 20.52, 19 df 43.82, 99 df 148.23. */
static void check_uniform(const char *src, int sides, double critical)
{
    struct hist h = {.lo = 1, .n = sides};
    roll_many(src, 7, tally_total, &h);
    assert_int_equal(h.outside, 0);
    double p[128];
    for (int i = 0; i < sides; i++)
        p[i] = 1.0 / sides;
    double chi = chi_square(h.count, p, sides);
    print_message("%s: chi-square %.2f (critical %.2f)\n", src, chi, critical);
    assert_true(chi < critical);
}

static void test_dice_dist_uniform_faces(void **state)
{
    (void)state;
    check_uniform("1d6", 6, 20.52);
    check_uniform("1d20", 20, 43.82);
    check_uniform("d%", 100, 148.23);
}

static void tally_sum(const struct dice_result *r, void *ctx)
{
    double *acc = ctx;
    acc[0] += (double)r->total;
    acc[1] += (double)r->n_dice;
}

/* 4d6kh3: the exact mean is 15869/1296 = 12.2446 (sum over the 1296
 * ordered outcomes of the three highest faces) and the standard deviation
 * is about 2.85, so the mean of 10^5 rolls has a standard error of 0.009.
 * A tolerance of 0.05 (over 5 standard errors) never trips on a correct
 * roller, while keeping the lowest three (mean 8.76) or all four (14) is far
 * outside. */
static void test_dice_dist_keep_highest_mean(void **state)
{
    (void)state;
    double acc[2] = {0, 0};
    roll_many("4d6kh3", 11, tally_sum, acc);
    double mean = acc[0] / ROLLS;
    print_message("4d6kh3 mean %.4f (exact %.4f)\n", mean, 15869.0 / 1296);
    assert_true(mean > 15869.0 / 1296 - 0.05 && mean < 15869.0 / 1296 + 0.05);
}

/* 10d10>=8 counts successes: Binomial(10, 0.3), mean 3, variance 2.1, so
 * the standard error over 10^5 rolls is 0.0046; tolerance 0.025. */
static void test_dice_dist_success_mean(void **state)
{
    (void)state;
    double acc[2] = {0, 0};
    roll_many("10d10>=8", 12, tally_sum, acc);
    double mean = acc[0] / ROLLS;
    assert_true(mean > 3 - 0.025 && mean < 3 + 0.025);
    assert_true(acc[1] == 10.0 * ROLLS);
}

/* 1d6! totals 6a + r with a sixes then a final r in 1..5, probability
 * (1/6)^a * 1/6; a total divisible by 6 is impossible. Buckets: r for
 * a = 0 (1/6 each), r for a = 1 (1/36 each), and a >= 2 together:
 * sum over a >= 2 of 5 (1/6)^(a+1) = 1/36. 10 df: critical 29.59. The
 * number of dice is 1 plus a geometric count of sixes, mean 1.2. */
struct explode_tally {
    long bucket[11];
    long multiple_of_6;
    double dice;
};

static void tally_explode(const struct dice_result *r, void *ctx)
{
    struct explode_tally *t = ctx;
    int64_t a = r->total / 6, rem = r->total % 6;
    t->dice += r->n_dice;
    if (rem == 0)
        t->multiple_of_6++;
    else if (a < 2)
        t->bucket[a * 5 + rem - 1]++;
    else
        t->bucket[10]++;
}

static void test_dice_dist_exploding(void **state)
{
    (void)state;
    struct explode_tally t;
    memset(&t, 0, sizeof t);
    roll_many("1d6!", 13, tally_explode, &t);
    double p[11];
    for (int i = 0; i < 5; i++) {
        p[i] = 1.0 / 6;
        p[5 + i] = 1.0 / 36;
    }
    p[10] = 1.0 / 36;
    double chi = chi_square(t.bucket, p, 11);
    print_message("1d6! chi-square %.2f (critical 29.59)\n", chi);
    assert_int_equal(t.multiple_of_6, 0);
    assert_true(chi < 29.59);
    /* extra dice per roll: mean (1/6)/(5/6) = 0.2, variance
     * (1/6)/(5/6)^2 = 0.24, standard error 0.0015; tolerance 0.01 */
    double mean_dice = t.dice / ROLLS;
    assert_true(mean_dice > 1.19 && mean_dice < 1.21);
}

/* 1d6r1 rerolls every 1: uniform on 2..6 (1/5 each), never 1; 4 df,
 * critical 18.47. 1d6ro1 rerolls once: P(1) = 1/36, P(k) = 1/6 + 1/36 =
 * 7/36 for k = 2..6; 5 df, critical 20.52. */
static void test_dice_dist_rerolls(void **state)
{
    (void)state;
    struct hist h = {.lo = 1, .n = 6};
    roll_many("1d6r1", 14, tally_total, &h);
    assert_int_equal(h.outside, 0);
    assert_int_equal(h.count[0], 0);
    double p5[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
    double chi = chi_square(h.count + 1, p5, 5);
    print_message("1d6r1 chi-square %.2f (critical 18.47)\n", chi);
    assert_true(chi < 18.47);

    memset(&h, 0, sizeof h);
    h.lo = 1;
    h.n = 6;
    roll_many("1d6ro1", 15, tally_total, &h);
    double p6[6] = {1.0 / 36, 7.0 / 36, 7.0 / 36, 7.0 / 36, 7.0 / 36,
                    7.0 / 36};
    chi = chi_square(h.count, p6, 6);
    print_message("1d6ro1 chi-square %.2f (critical 20.52)\n", chi);
    assert_true(chi < 20.52);
}

/* 1d20 adv is the higher of two d20: P(k) = (k^2 - (k-1)^2) / 400 =
 * (2k - 1) / 400; 19 df, critical 43.82. */
static void test_dice_dist_advantage(void **state)
{
    (void)state;
    struct hist h = {.lo = 1, .n = 20};
    roll_many("1d20 adv", 16, tally_total, &h);
    assert_int_equal(h.outside, 0);
    double p[20];
    for (int k = 1; k <= 20; k++)
        p[k - 1] = (2.0 * k - 1) / 400;
    double chi = chi_square(h.count, p, 20);
    print_message("1d20 adv chi-square %.2f (critical 43.82)\n", chi);
    assert_true(chi < 43.82);
}

/* 1d20min10: faces 1..10 all count 10, so P(10) = 10/20 and P(t) = 1/20
 * for t = 11..20 (11 buckets, 10 df: critical 29.59). The faces shown
 * (dice_die.rolled) stay uniform over 1..20 (19 df: 43.82), and a die is
 * flagged raised exactly when it showed less than 10. 1d20max10 mirrors
 * it: P(10) = 11/20, P(t) = 1/20 for t = 1..9 (9 df: 27.88). */
struct clamp_tally {
    struct hist total;
    long rolled[20];
    long misflagged;
    int32_t bound;
    bool is_min;
};

static void tally_clamp(const struct dice_result *r, void *ctx)
{
    struct clamp_tally *t = ctx;
    tally_total(r, &t->total);
    const struct dice_die *d = &r->dice[0];
    if (d->rolled >= 1 && d->rolled <= 20)
        t->rolled[d->rolled - 1]++;
    bool moved = t->is_min ? d->rolled < t->bound : d->rolled > t->bound;
    unsigned flag = t->is_min ? DICE_DIE_RAISED : DICE_DIE_LOWERED;
    int32_t want = moved ? t->bound : d->rolled;
    t->misflagged += r->n_dice != 1 || d->value != want ||
                     ((d->flags & flag) != 0) != moved;
}

static void check_clamp(const char *src, bool is_min, double critical)
{
    struct clamp_tally t;
    memset(&t, 0, sizeof t);
    t.bound = 10;
    t.is_min = is_min;
    t.total.lo = is_min ? 10 : 1;
    t.total.n = is_min ? 11 : 10;
    roll_many(src, 21, tally_clamp, &t);
    assert_int_equal(t.total.outside, 0);
    assert_int_equal(t.misflagged, 0);
    double p[128], uniform[20];
    for (int i = 0; i < t.total.n; i++)
        p[i] = 1.0 / 20;
    p[is_min ? 0 : 9] = is_min ? 10.0 / 20 : 11.0 / 20;
    for (int i = 0; i < 20; i++)
        uniform[i] = 1.0 / 20;
    double chi = chi_square(t.total.count, p, t.total.n);
    double chi_rolled = chi_square(t.rolled, uniform, 20);
    print_message("%s: chi-square %.2f (critical %.2f), faces shown %.2f "
                  "(critical 43.82)\n", src, chi, critical, chi_rolled);
    assert_true(chi < critical);
    assert_true(chi_rolled < 43.82);
}

static void test_dice_dist_min_max(void **state)
{
    (void)state;
    check_clamp("1d20min10", true, 29.59);
    check_clamp("1d20max10", false, 27.88);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice_dist_uniform_faces),
        cmocka_unit_test(test_dice_dist_keep_highest_mean),
        cmocka_unit_test(test_dice_dist_success_mean),
        cmocka_unit_test(test_dice_dist_exploding),
        cmocka_unit_test(test_dice_dist_rerolls),
        cmocka_unit_test(test_dice_dist_advantage),
        cmocka_unit_test(test_dice_dist_min_max),
    };
    return cmocka_run_group_tests_name("dice_dist", tests, NULL, NULL);
}
