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

/* Roll src, read in dialect, ROLLS times from seed, calling tally with
 * each result. */
static void roll_many_as(const char *src, enum dice_dialect dialect,
                         uint64_t seed,
                         void (*tally)(const struct dice_result *r, void *ctx),
                         void *ctx)
{
    struct dice_expr *e = NULL;
    struct dice_diag d = {0};
    assert_int_equal(dice_parse_as(src, strlen(src), dialect, &e, &d),
                     ENG_OK);
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

static void roll_many(const char *src, uint64_t seed,
                      void (*tally)(const struct dice_result *r, void *ctx),
                      void *ctx)
{
    roll_many_as(src, DICE_DIALECT_FRAY, seed, tally, ctx);
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

/* The totals of src (in dialect) against p over [lo, lo + n): buckets
 * with p = 0 must stay empty, the others pass chi-square at p = 0.001
 * (critical for their df); totals past the last bucket are counted in it
 * when the last p covers the tail (tail true), else must not occur. */
static void check_totals(const char *src, enum dice_dialect dialect,
                         uint64_t seed, int64_t lo, int n, const double *p,
                         bool tail, double critical)
{
    struct hist h = {.lo = lo, .n = 128};
    roll_many_as(src, dialect, seed, tally_total, &h);
    assert_int_equal(h.outside, 0);
    long obs[128];
    double want[128];
    int k = 0;
    for (int i = 0; i < 128; i++) {
        if (i >= n) {
            if (!tail)
                assert_int_equal(h.count[i], 0);
            else
                obs[k - 1] += h.count[i];
            continue;
        }
        if (p[i] == 0) {
            assert_int_equal(h.count[i], 0);
            continue;
        }
        obs[k] = h.count[i];
        want[k++] = p[i];
    }
    double chi = chi_square(obs, want, k);
    print_message("%s: chi-square %.2f over %d buckets (critical %.2f)\n",
                  src, chi, k, critical);
    assert_true(chi < critical);
}

/* 1d6e6 (explode once, on 6 or more): 1..5 each 1/6; a 6 adds one d6 that
 * does not explode, so 7..12 each 1/36; 6 never. 11 buckets, 10 df:
 * 29.59. Foundry's 1d6xo is the same die. Avrae reads e6 as !6: the tail
 * (a second six) must then occur, 13.. with 1/36 together. */
static void test_dice_dist_explode_once(void **state)
{
    (void)state;
    double p[12] = {1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 0};
    for (int i = 6; i < 12; i++)
        p[i] = 1.0 / 36;
    check_totals("1d6e6", DICE_DIALECT_FRAY, 31, 1, 12, p, false, 29.59);
    check_totals("1d6xo", DICE_DIALECT_FOUNDRY, 32, 1, 12, p, false, 29.59);
    /* Avrae: 7..11 each 1/36, 12 never, 13 and past 1/36 together */
    p[11] = 0;
    double q[13];
    memcpy(q, p, sizeof p);
    q[12] = 1.0 / 36;
    check_totals("1d6e6", DICE_DIALECT_AVRAE, 33, 1, 13, q, true, 29.59);
}

/* 2d6!!kh1: each die compounds into a chain X with P(X = 6a + r) =
 * (1/6)^(a+1), r = 1..5, so F(x) = P(X <= x) is x/6 below 6 and
 * 5/6 + (x - 6)/36 for 7..11; the higher of two is F(x)^2 - F(x-1)^2.
 * Buckets 1..5, 7..11 and 13 and past (1 - F(11)^2): 10 df, 29.59. An
 * explosion that did not compound would keep a single face, never past 6. */
static double chain_cdf(int x)
{
    return x < 6 ? x / 6.0 : 5.0 / 6 + (x - 6) / 36.0;
}

static void test_dice_dist_compound(void **state)
{
    (void)state;
    double p[13] = {0};
    for (int x = 1; x <= 11; x++)
        if (x != 6)
            p[x - 1] = chain_cdf(x) * chain_cdf(x) -
                       chain_cdf(x == 7 ? 5 : x - 1) *
                           chain_cdf(x == 7 ? 5 : x - 1);
    p[12] = 1 - chain_cdf(11) * chain_cdf(11);
    check_totals("2d6!!kh1", DICE_DIALECT_FRAY, 34, 1, 13, p, true, 29.59);
}

/* 1d6!p: 1..5 each 1/6; a 6 then r (bonus dice count one less) gives
 * 6 + (r - 1) = 6..10, each 1/36; two sixes and more 11 and past, 1/36
 * together. 11 buckets, 10 df: 29.59. */
static void test_dice_dist_penetrate(void **state)
{
    (void)state;
    double p[11];
    for (int i = 0; i < 5; i++) {
        p[i] = 1.0 / 6;
        p[5 + i] = 1.0 / 36;
    }
    p[10] = 1.0 / 36;
    check_totals("1d6!p", DICE_DIALECT_FRAY, 35, 1, 11, p, true, 29.59);
}

/* Dice Maiden's 1d6 r2 rerolls a 1 or 2 once: P(1) = P(2) = 2/6 * 1/6 =
 * 1/18, P(k) = 1/6 + 1/18 = 4/18 for 3..6 (5 df: 20.52). Its 1d6 ir2
 * rerolls until 3 or more: 3..6 each 1/4 (3 df: 16.27). Foundry's 1d6r
 * rerolls a 1 once: 1/36 and 7/36 (5 df: 20.52). */
static void test_dice_dist_other_rerolls(void **state)
{
    (void)state;
    double once[6] = {1.0 / 18, 1.0 / 18, 4.0 / 18, 4.0 / 18, 4.0 / 18,
                      4.0 / 18};
    check_totals("1d6 r2", DICE_DIALECT_DICE_MAIDEN, 36, 1, 6, once, false,
                 20.52);
    double again[6] = {0, 0, 0.25, 0.25, 0.25, 0.25};
    check_totals("1d6 ir2", DICE_DIALECT_FRAY, 37, 1, 6, again, false,
                 16.27);
    check_totals("1d6rr<3", DICE_DIALECT_FRAY, 38, 1, 6, again, false,
                 16.27);
    double first[6] = {1.0 / 36, 7.0 / 36, 7.0 / 36, 7.0 / 36, 7.0 / 36,
                       7.0 / 36};
    check_totals("1d6r", DICE_DIALECT_FOUNDRY, 39, 1, 6, first, false,
                 20.52);
}

/* Avrae's 1d20ra1: a 1 gets one more d20, added. Totals 2..20 each
 * 1/20 + 1/400 (the face itself, or 1 + that face minus one), 21 1/400,
 * 1 never: 20 buckets, 19 df: 43.82. */
static void test_dice_dist_reroll_add(void **state)
{
    (void)state;
    double p[21] = {0};
    for (int k = 2; k <= 20; k++)
        p[k - 1] = 1.0 / 20 + 1.0 / 400;
    p[20] = 1.0 / 400;
    check_totals("1d20ra1", DICE_DIALECT_AVRAE, 40, 1, 21, p, false, 43.82);
}

/* Dice Maiden's +d20 is the higher of two d20, as 1d20 adv: (2k - 1)/400;
 * its -d20 the lower: (41 - 2k)/400. fray reads +d20 so too. 19 df:
 * 43.82. */
static void test_dice_dist_maiden_advantage(void **state)
{
    (void)state;
    double adv[20], dis[20];
    for (int k = 1; k <= 20; k++) {
        adv[k - 1] = (2.0 * k - 1) / 400;
        dis[k - 1] = (41.0 - 2 * k) / 400;
    }
    check_totals("+d20", DICE_DIALECT_FRAY, 41, 1, 20, adv, false, 43.82);
    check_totals("-d20", DICE_DIALECT_DICE_MAIDEN, 42, 1, 20, dis, false,
                 43.82);
}

/* Means, each with its standard error s over 10^5 rolls and a tolerance
 * over 5 s. */
static void check_mean(const char *src, enum dice_dialect dialect,
                       uint64_t seed, double exact, double tolerance)
{
    double acc[2] = {0, 0};
    roll_many_as(src, dialect, seed, tally_sum, acc);
    double mean = acc[0] / ROLLS;
    print_message("%s: mean %.4f (exact %.4f)\n", src, mean, exact);
    assert_true(mean > exact - tolerance && mean < exact + tolerance);
}

/* Keep and drop by face (Avrae): 4d6k>3 keeps the 4s, 5s and 6s, mean
 * 4 * 15/6 = 10 (a die's variance 77/6 - 6.25 = 6.58, s = 0.016); 4d6p<3
 * drops the 1s and 2s, mean 4 * 18/6 = 12 (s = 0.017); 4d6p1 drops the
 * 1s, mean 4 * 20/6 = 13.33 (s = 0.013). Drop the lowest, 4d6d1, is
 * 4d6kh3: 15869/1296. Tolerance 0.1. */
static void test_dice_dist_keep_by_face(void **state)
{
    (void)state;
    check_mean("4d6k>3", DICE_DIALECT_AVRAE, 43, 10, 0.1);
    check_mean("4d6p<3", DICE_DIALECT_FRAY, 44, 12, 0.1);
    check_mean("4d6p1", DICE_DIALECT_FRAY, 45, 40.0 / 3, 0.1);
    check_mean("4d6d1", DICE_DIALECT_FRAY, 46, 15869.0 / 1296, 0.05);
}

/* Counting. Dice Maiden's 6d10 t7 is Binomial(6, 0.4): mean 2.4 (s =
 * 0.0038). Foundry's 5d10cf<3 counts the failures alone, Binomial(5,
 * 0.2): 1 (s = 0.0028). 6d6even and 6d6odd: 3 (s = 0.0039). 4d10 t8ds10:
 * each die 0.3 + 0.1 (a 10 counts twice), 1.6 (s = 0.0034). Sidekick's
 * 1d10t10: 2 with 1/10, else 0: 0.2 (s = 0.0019). Roll20's 1d20cs>10 only
 * marks dice: the total stays the die, 10.5 (s = 0.018). Dice Maiden's
 * 4d10 b1 counts botches without subtracting them: 22 (s = 0.018).
 * Tolerance 0.05, or 0.1 for the sums. */
static void test_dice_dist_counting(void **state)
{
    (void)state;
    check_mean("6d10 t7", DICE_DIALECT_DICE_MAIDEN, 47, 2.4, 0.05);
    check_mean("5d10cf<3", DICE_DIALECT_FOUNDRY, 48, 1, 0.05);
    check_mean("6d6even", DICE_DIALECT_FRAY, 49, 3, 0.05);
    check_mean("6d6odd", DICE_DIALECT_FRAY, 50, 3, 0.05);
    check_mean("4d10 t8ds10", DICE_DIALECT_FRAY, 51, 1.6, 0.05);
    check_mean("1d10t10", DICE_DIALECT_SIDEKICK, 52, 0.2, 0.05);
    check_mean("1d20cs>10", DICE_DIALECT_ROLL20, 53, 10.5, 0.1);
    check_mean("4d10 b1", DICE_DIALECT_DICE_MAIDEN, 54, 22, 0.1);
}

/* Dice Maiden's aliases. A die of 4cod (d10, 8 or more succeeds, 10s
 * explode) succeeds with 0.3 and adds a die with 0.1, so a die's chain
 * counts s = 0.3 + 0.1 s = 1/3, and 4cod 4/3 (s = 0.0033). 4wod8
 * (4d10 f1 t8): 4 * (0.3 - 0.1) = 0.8. 6yz and sr6 (d6, 6 or 5 and up):
 * 1 and 2. snm5 (d6, 6s explode, 4 and up): a chain s = 0.5 + s/6 =
 * 0.6, 3. sp4 is 4cod. dndstats is 4d6 k3 six times: each result
 * 15869/1296. Tolerance 0.05. */
static void test_dice_dist_aliases(void **state)
{
    (void)state;
    check_mean("4cod", DICE_DIALECT_DICE_MAIDEN, 57, 4.0 / 3, 0.05);
    check_mean("4wod8", DICE_DIALECT_DICE_MAIDEN, 58, 0.8, 0.05);
    check_mean("6yz", DICE_DIALECT_DICE_MAIDEN, 59, 1, 0.05);
    check_mean("sr6", DICE_DIALECT_DICE_MAIDEN, 60, 2, 0.05);
    check_mean("snm5", DICE_DIALECT_DICE_MAIDEN, 61, 3, 0.05);
    check_mean("sp4", DICE_DIALECT_DICE_MAIDEN, 62, 4.0 / 3, 0.05);
    check_mean("dndstats", DICE_DIALECT_DICE_MAIDEN, 63, 15869.0 / 1296,
               0.05);
}

/* Avrae's comparison of totals: 1d20 >= 11 is 1 with probability 1/2
 * (s = 0.0016); 2d6 > 7 with 15/36 (s = 0.0016). Tolerance 0.01. */
static void test_dice_dist_compare_totals(void **state)
{
    (void)state;
    check_mean("1d20 >= 11", DICE_DIALECT_AVRAE, 55, 0.5, 0.01);
    check_mean("2d6 > 7", DICE_DIALECT_AVRAE, 56, 15.0 / 36, 0.01);
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
        cmocka_unit_test(test_dice_dist_explode_once),
        cmocka_unit_test(test_dice_dist_compound),
        cmocka_unit_test(test_dice_dist_penetrate),
        cmocka_unit_test(test_dice_dist_other_rerolls),
        cmocka_unit_test(test_dice_dist_reroll_add),
        cmocka_unit_test(test_dice_dist_maiden_advantage),
        cmocka_unit_test(test_dice_dist_keep_by_face),
        cmocka_unit_test(test_dice_dist_counting),
        cmocka_unit_test(test_dice_dist_compare_totals),
        cmocka_unit_test(test_dice_dist_aliases),
    };
    return cmocka_run_group_tests_name("dice_dist", tests, NULL, NULL);
}
