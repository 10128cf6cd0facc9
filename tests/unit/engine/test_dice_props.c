/* Property test: 10^4 generated valid expressions (and 10^4 more with the
 * other bots' modifiers, in every dialect) each parse, and every
 * roll of them lands within dice_expr_bounds() and keeps the result's own
 * invariants (faces in range, a raised or lowered die flagged as such,
 * subtotals equal to what the flags say). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"

enum {
    EXPRESSIONS = 10000,
    ROLLS_EACH = 5,
    GEN_DEPTH = 3,
};

struct gen {
    struct eng_rng rng;
    char buf[DICE_MAX_EXPR_LEN * 2];
    size_t len;
};

static int64_t pick(struct gen *g, int64_t lo, int64_t hi)
{
    return eng_rng_range(&g->rng, lo, hi);
}

__attribute__((format(printf, 2, 3)))
static void emit(struct gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->buf + g->len, sizeof g->buf - g->len, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof g->buf - g->len)
        g->len += (size_t)n;
    else
        g->len = sizeof g->buf;     /* marks the expression too long */
}

/* A dice term with random, always valid, modifiers. */
static void gen_dice(struct gen *g)
{
    static const int sides[] = {2, 3, 4, 6, 8, 10, 12, 20, 100};
    int count = (int)pick(g, 1, 6);
    bool fudge = pick(g, 0, 9) == 0;
    int s = fudge ? 3 : sides[pick(g, 0, 8)];
    int lo = fudge ? -1 : 1, hi = fudge ? 1 : s;
    if (fudge)
        emit(g, "%ddF", count);
    else
        emit(g, "%dd%d", count, s);
    if (pick(g, 0, 3) == 0) {
        static const char *const keep[] = {"kh", "kl", "dh", "dl", "k"};
        emit(g, "%s%d", keep[pick(g, 0, 4)], (int)pick(g, 1, 7));
    }
    if (pick(g, 0, 5) == 0) {
        emit(g, ">=%d", (int)pick(g, lo, hi));
        if (pick(g, 0, 1))
            emit(g, "f%d", lo);
    }
    if (hi > lo && pick(g, 0, 4) == 0)
        emit(g, "%s<%d", pick(g, 0, 1) ? "r" : "ro", (int)pick(g, lo + 1, hi));
    if (pick(g, 0, 3) == 0) {
        /* minN and/or maxN, each a face, the minimum not above the
         * maximum, in either order */
        int mn = (int)pick(g, lo, hi), mx = (int)pick(g, mn, hi);
        int which = (int)pick(g, 0, 3);
        if (which == 0 || which == 2)
            emit(g, "min%d", mn);
        if (which != 0)
            emit(g, "max%d", mx);
        if (which == 3)
            emit(g, "min%d", mn);
    }
    if (hi > lo && pick(g, 0, 4) == 0) {
        /* explode on the top face(s) only, never on every face;
         * last, as a comparison right after '!' would belong to it */
        if (pick(g, 0, 1))
            emit(g, "!");
        else
            emit(g, "!>=%d", (int)pick(g, lo + 1, hi));
    }
}

static enum dice_dialect gen_dialect;  /* what the terms will be read as */

/* A dice term with the other bots' modifiers (docs/dice.md, "Other bots'
 * dice"), valid in every dialect: one keep or drop, one explosion, one
 * reroll, counting, a [note]. */
static void gen_other_dice(struct gen *g)
{
    static const int sides[] = {2, 4, 6, 10, 20};
    int count = (int)pick(g, 1, 6), s = sides[pick(g, 0, 4)];
    emit(g, "%dd%d", count, s);
    switch (pick(g, 0, 5)) {
    case 0:
        emit(g, "d%d", (int)pick(g, 1, 4));
        break;
    case 1:
        emit(g, "%s%d", pick(g, 0, 1) ? "pl" : "ph", (int)pick(g, 1, 4));
        break;
    case 2:
        emit(g, "p%s%d", pick(g, 0, 1) ? "<" : ">", (int)pick(g, 1, s));
        break;
    default:
        break;
    }
    switch (pick(g, 0, 7)) {
    case 0:
        emit(g, "e%d", (int)pick(g, 1, s));     /* once: any face */
        break;
    case 1:
        emit(g, gen_dialect == DICE_DIALECT_DICE_MAIDEN ? "ie" : "!!");
        break;
    case 2:
        emit(g, gen_dialect == DICE_DIALECT_DICE_MAIDEN ? "x" : "!p");
        break;
    case 3:
        emit(g, "xo");
        break;
    case 4:
        emit(g, "ie%d", (int)pick(g, 2, s));
        break;
    default:
        break;
    }
    if (s > 2 && pick(g, 0, 3) == 0)
        emit(g, "%s%d", pick(g, 0, 1) ? "ir" : "rr", (int)pick(g, 1, s - 1));
    if (pick(g, 0, 5) == 0)
        emit(g, "ra%d", (int)pick(g, 1, s));
    if (pick(g, 0, 4) == 0)
        emit(g, "mi%d", (int)pick(g, 1, s));
    switch (pick(g, 0, 6)) {
    case 0:
        /* Sidekick reads t as a double success: no ds after it */
        if (pick(g, 0, 1))
            emit(g, " t%d", (int)pick(g, 1, s));
        else
            emit(g, " tl%dds1", (int)pick(g, 1, s));
        break;
    case 1:
        emit(g, "cs>%d", (int)pick(g, 0, s));
        break;
    case 2:
        emit(g, "cf<%d", (int)pick(g, 1, s));
        break;
    case 3:
        emit(g, "even");
        break;
    case 4:
        emit(g, " b%d", (int)pick(g, 1, s));
        break;
    default:
        break;
    }
    if (pick(g, 0, 4) == 0)
        emit(g, " [note]");
}

static bool gen_other;          /* terms from gen_other_dice() */

/* expr -> term, or two exprs joined by an operator, maybe in parentheses */
static void gen_expr(struct gen *g, int depth)
{
    if (depth == 0 || pick(g, 0, 2) == 0) {
        if (pick(g, 0, 2) == 0)
            emit(g, "%d", (int)pick(g, 0, 20));
        else if (gen_other)
            gen_other_dice(g);
        else
            gen_dice(g);
        return;
    }
    static const char ops[] = "+-*/";
    bool paren = pick(g, 0, 2) == 0;
    if (pick(g, 0, 6) == 0)
        emit(g, "-");
    if (paren)
        emit(g, "(");
    gen_expr(g, depth - 1);
    emit(g, " %c ", ops[pick(g, 0, 3)]);
    gen_expr(g, depth - 1);
    if (paren)
        emit(g, ")");
}

/* The result agrees with itself: faces in range, subtotals as flagged. */
static void check_invariants(const char *src, const struct dice_result *r)
{
    for (unsigned i = 0; i < r->n_groups; i++) {
        const struct dice_group *gr = &r->groups[i];
        int32_t lo = gr->fudge ? -1 : 1, hi = gr->fudge ? 1 : gr->sides;
        int64_t sum = 0, net = 0, fails = 0;
        for (unsigned k = gr->first; k < gr->first + gr->count; k++) {
            const struct dice_die *d = &r->dice[k];
            /* a penetrating bonus die ("!p") counts one below its face */
            bool penetrated = (d->flags & DICE_DIE_BONUS) &&
                              (d->flags & DICE_DIE_LOWERED) &&
                              (d->value == d->rolled - 1 ||
                               (d->flags & DICE_DIE_RAISED));
            if (d->value < lo - penetrated || d->value > hi)
                fail_msg("%s: face %d outside [%d, %d]", src, (int)d->value,
                         (int)lo, (int)hi);
            /* a die minN raised counts more than it showed, one maxN
             * lowered less, any other die what it showed */
            bool raised = d->flags & DICE_DIE_RAISED;
            bool lowered = d->flags & DICE_DIE_LOWERED;
            if (!penetrated &&
                (d->rolled < lo || d->rolled > hi || (raised && lowered) ||
                 (raised && d->value <= d->rolled) ||
                 (lowered && d->value >= d->rolled) ||
                 (!raised && !lowered && d->value != d->rolled)))
                fail_msg("%s: die %u counts %d, showed %d, flags %#x", src, k,
                         (int)d->value, (int)d->rolled, d->flags);
            if (d->flags & DICE_DIE_UNCOUNTED)
                continue;
            sum += d->value;
            net += !!(d->flags & DICE_DIE_SUCCESS) +
                   !!(d->flags & DICE_DIE_TWICE) -
                   !!(d->flags & DICE_DIE_FAILURE);
            fails += !!(d->flags & DICE_DIE_FAILURE);
        }
        /* Foundry's cf counts the failures alone */
        if (gr->subtotal != (gr->counting ? net : sum) &&
            !(gr->counting && gr->subtotal == fails && net == -fails))
            fail_msg("%s: group %u subtotal %lld", src, i,
                     (long long)gr->subtotal);
    }
}

/* Generate EXPRESSIONS expressions (other bots' terms when other, read in
 * a dialect picked per expression) and check every roll of them. */
static void check_generated(bool other, uint64_t seed)
{
    struct gen g;
    gen_other = other;
    eng_rng_seed(&g.rng, seed);
    struct eng_rng roll_rng;
    eng_rng_seed(&roll_rng, 77);
    struct dice_result *r = malloc(sizeof *r);
    assert_non_null(r);
    long made = 0, rolled = 0, refused = 0, tight = 0;
    while (made < EXPRESSIONS) {
        g.len = 0;
        gen_dialect = other
            ? (enum dice_dialect)pick(&g, 0, DICE_DIALECT_COUNT - 1)
            : DICE_DIALECT_FRAY;
        gen_expr(&g, GEN_DEPTH);
        if (g.len > DICE_MAX_EXPR_LEN)
            continue;
        made++;
        struct dice_expr *e = NULL;
        struct dice_diag d = {0};
        if (dice_parse_as(g.buf, g.len, gen_dialect, &e, &d) != ENG_OK)
            fail_msg("generated `%s` does not parse: %s", g.buf, d.msg);
        int64_t lo, hi;
        if (dice_expr_bounds(e, &lo, &hi) != ENG_OK) {
            dice_expr_free(e);
            continue;           /* a divisor that is always zero */
        }
        for (int i = 0; i < ROLLS_EACH; i++) {
            enum eng_err err = dice_roll(e, &roll_rng, r, &d);
            if (err != ENG_OK) {
                /* a divisor that happened to be zero, a product that
                 * overflowed, or explosions past the dice limit ("1d2!r<2"
                 * always explodes); anything else is a bug */
                if (err != ENG_DIVZERO && err != ENG_OVERFLOW &&
                    err != ENG_LIMIT)
                    fail_msg("`%s`: %s", g.buf, d.msg);
                refused++;
                continue;
            }
            rolled++;
            if (r->total < lo || r->total > hi)
                fail_msg("`%s` rolled %lld outside [%lld, %lld]", g.buf,
                         (long long)r->total, (long long)lo, (long long)hi);
            tight += r->total == lo || r->total == hi;
            check_invariants(g.buf, r);
        }
        dice_expr_free(e);
    }
    free(r);
    print_message("%ld expressions, %ld rolls checked, %ld refused, %ld at a "
                  "bound\n", made, rolled, refused, tight);
    /* most rolls must have been checked for the property to mean much, and
     * bounds that no roll ever reaches would be suspiciously loose */
    assert_true(rolled > (long)EXPRESSIONS * ROLLS_EACH * 8 / 10);
    assert_true(tight > rolled / 10);
}

static void test_dice_props_total_within_bounds(void **state)
{
    (void)state;
    check_generated(false, 2024);
}

/* The same with the other bots' modifiers, in every dialect. */
static void test_dice_props_other_bots_within_bounds(void **state)
{
    (void)state;
    check_generated(true, 2026);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dice_props_total_within_bounds),
        cmocka_unit_test(test_dice_props_other_bots_within_bounds),
    };
    return cmocka_run_group_tests_name("dice_props", tests, NULL, NULL);
}
