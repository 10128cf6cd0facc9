/* Tests for dice_roll behaviour that case files cannot state briefly:
 * natural max/min marks, keep/drop on large pools, the explosion cap and
 * the dice budget while rolling, and the spans a result reports. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"

struct fixture {
    struct dice_result *res;
    struct eng_rng rng;
};

static int setup(void **state)
{
    struct fixture *f = malloc(sizeof *f);
    if (f == NULL)
        return -1;
    f->res = malloc(sizeof *f->res);
    eng_rng_seed(&f->rng, 4242);
    *state = f;
    return f->res == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    free(f->res);
    free(f);
    return 0;
}

static enum eng_err roll(struct fixture *f, const char *src,
                         struct dice_diag *d)
{
    return dice_eval_string(src, strlen(src), &f->rng, f->res, d);
}

static void test_dice_eval_marks_natural_extremes(void **state)
{
    struct fixture *f = *state;
    int maxes = 0, mins = 0;
    for (int i = 0; i < 2000; i++) {
        assert_int_equal(roll(f, "1d20", NULL), ENG_OK);
        const struct dice_die *d = &f->res->dice[0];
        assert_int_equal(!!(d->flags & DICE_DIE_MAX), d->value == 20);
        assert_int_equal(!!(d->flags & DICE_DIE_MIN), d->value == 1);
        maxes += d->value == 20;
        mins += d->value == 1;
    }
    assert_true(maxes > 0 && mins > 0);
    /* Fudge dice and one-sided dice have no natural extremes */
    for (int i = 0; i < 200; i++) {
        assert_int_equal(roll(f, "4dF+1d1", NULL), ENG_OK);
        for (unsigned k = 0; k < f->res->n_dice; k++)
            assert_int_equal(f->res->dice[k].flags &
                                 (DICE_DIE_MAX | DICE_DIE_MIN),
                             0);
    }
}

/* On a large pool, exactly the requested number count, and every counted
 * die is at least (kh) or at most (kl) every dropped one. */
static void check_keep(struct fixture *f, const char *src, unsigned kept,
                       bool high)
{
    for (int rep = 0; rep < 20; rep++) {
        assert_int_equal(roll(f, src, NULL), ENG_OK);
        const struct dice_result *r = f->res;
        int32_t worst_kept = high ? INT32_MAX : INT32_MIN;
        int32_t best_dropped = high ? INT32_MIN : INT32_MAX;
        unsigned n_kept = 0;
        int64_t sum = 0;
        for (unsigned k = 0; k < r->n_dice; k++) {
            int32_t v = r->dice[k].value;
            if (r->dice[k].flags & DICE_DIE_DROPPED) {
                best_dropped = high ? (v > best_dropped ? v : best_dropped)
                                    : (v < best_dropped ? v : best_dropped);
            } else {
                n_kept++;
                sum += v;
                worst_kept = high ? (v < worst_kept ? v : worst_kept)
                                  : (v > worst_kept ? v : worst_kept);
            }
        }
        assert_int_equal(n_kept, kept);
        assert_int_equal(sum, r->total);
        if (high)
            assert_true(worst_kept >= best_dropped);
        else
            assert_true(worst_kept <= best_dropped);
    }
}

static void test_dice_eval_keep_large_pools(void **state)
{
    struct fixture *f = *state;
    check_keep(f, "1000d6kh500", 500, true);
    check_keep(f, "1000d100kl7", 7, false);
    check_keep(f, "999d10000dl998", 1, true);
    check_keep(f, "300d3dh299", 1, false);
    check_keep(f, "50d20k", 1, true);
}

/* Which dice keep/drop should drop, the slow obvious way: sort the dice
 * by face (best first; an equal earlier die first) and keep the first k. */
static void reference_drops(const struct dice_die *d, int n, bool high, int k,
                            bool *dropped)
{
    int order[DICE_MAX_DICE];
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) {       /* insertion sort, stable */
        int x = order[i], j = i - 1;
        while (j >= 0 && (high ? d[order[j]].value < d[x].value
                               : d[order[j]].value > d[x].value)) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
    for (int i = 0; i < n; i++)
        dropped[order[i]] = i >= k;
}

/* Every keep/drop form on pools of 1 to 40 dice against the reference
 * above: d3 and d6 (many ties) take the counting code, d1000 and d10000
 * the quickselect. */
static void test_dice_eval_keep_matches_reference(void **state)
{
    struct fixture *f = *state;
    static const char *const kinds[] = {"kh", "kl", "dh", "dl"};
    for (int n = 1; n <= 40; n++) {
        for (int kind = 0; kind < 4; kind++) {
            for (int m = 1; m <= n + 1; m += (n > 8 ? 3 : 1)) {
                char src[32];
                static const int faces[] = {3, 6, 1000, 10000};
                snprintf(src, sizeof src, "%dd%d%s%d", n, faces[n % 4],
                         kinds[kind], m);
                assert_int_equal(roll(f, src, NULL), ENG_OK);
                bool high = kind == 0 || kind == 3;
                int k = kind < 2 ? (m < n ? m : n) : (m < n ? n - m : 0);
                bool want[DICE_MAX_DICE];
                reference_drops(f->res->dice, n, high, k, want);
                for (int i = 0; i < n; i++)
                    if (want[i] !=
                        !!(f->res->dice[i].flags & DICE_DIE_DROPPED))
                        fail_msg("%s: die %d (%d) dropped %d, want %d", src,
                                 i + 1, (int)f->res->dice[i].value,
                                 !want[i], want[i]);
            }
        }
    }
}

/* 1d6r<6! rerolls every face but 6, so every die explodes: the chain stops
 * after DICE_MAX_EXPLODE explosions, with 101 counted sixes. */
static void test_dice_eval_explosion_cap(void **state)
{
    struct fixture *f = *state;
    struct dice_diag d = {0};
    assert_int_equal(roll(f, "1d6r<6!", &d), ENG_OK);
    unsigned counted = 0, exploded = 0;
    for (unsigned k = 0; k < f->res->n_dice; k++) {
        const struct dice_die *die = &f->res->dice[k];
        if (die->flags & DICE_DIE_UNCOUNTED)
            continue;
        assert_int_equal(die->value, 6);
        counted++;
        exploded += !!(die->flags & DICE_DIE_EXPLODED);
    }
    assert_int_equal(exploded, DICE_MAX_EXPLODE);
    assert_int_equal(counted, DICE_MAX_EXPLODE + 1);
    assert_int_equal(f->res->total, 6 * (DICE_MAX_EXPLODE + 1));
}

/* Rerolls count against DICE_MAX_DICE while rolling: 1000 dice that reroll
 * everything but a 6 need about 6000 rolls. */
static void test_dice_eval_budget_while_rolling(void **state)
{
    struct fixture *f = *state;
    struct dice_diag d = {0};
    assert_int_equal(roll(f, "1000d6r<6", &d), ENG_LIMIT);
    assert_string_equal(d.msg, "too many dice (limit is 1000)");
    assert_int_equal(d.pos, 0);
    assert_int_equal(d.len, 9);
    assert_int_equal(roll(f, "1000d6", &d), ENG_OK);
    assert_int_equal(f->res->n_dice, DICE_MAX_DICE);
}

static void test_dice_eval_result_spans(void **state)
{
    struct fixture *f = *state;
    struct dice_diag d = {0};
    const char *src = " 3x 2d6 + 1d20 adv # hits";
    assert_int_equal(roll(f, src, &d), ENG_OK);
    const struct dice_result *r = f->res;
    assert_int_equal(r->expr_pos, 4);
    assert_int_equal(r->expr_len, strlen("2d6 + 1d20 adv"));
    assert_int_equal(r->n_groups, 2);
    assert_int_equal(r->groups[0].pos, 4);
    assert_int_equal(r->groups[0].len, 3);
    assert_int_equal(r->groups[1].pos, 10);
    /* adv right after the d20 is its modifier, part of its text */
    assert_int_equal(r->groups[1].len, strlen("1d20 adv"));
    assert_int_equal(r->groups[1].count, 2);
    assert_int_equal(r->label_len, 4);
    assert_memory_equal(r->label, "hits", 4);
    assert_int_equal(r->total, r->groups[0].subtotal + r->groups[1].subtotal);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dice_eval_marks_natural_extremes,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_dice_eval_keep_large_pools, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_dice_eval_keep_matches_reference,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_dice_eval_explosion_cap, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_dice_eval_budget_while_rolling,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_dice_eval_result_spans, setup,
                                        teardown),
    };
    return cmocka_run_group_tests_name("dice_eval", tests, NULL, NULL);
}
