/*
 * dice_bounds.c - the range of totals an expression can produce.
 *
 * Interval arithmetic over the postfix nodes. Each dice term gives the
 * range of its subtotal from how many dice can count (explosions add up to
 * DICE_MAX_EXPLODE per die, never past DICE_MAX_DICE) and the faces. The
 * result is sound (every successful roll lands inside) but not always
 * tight: rerolls, for instance, are ignored. A counted die lies between
 * the term's minN and maxN (the faces themselves without them).
 */
#include "dice_int.h"

struct span {
    int64_t lo, hi;
};

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return a > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return (a > 0) == (b > 0) ? INT64_MAX : INT64_MIN;
    return r;
}

static int64_t sat_neg(int64_t a)
{
    return a == INT64_MIN ? INT64_MAX : -a;
}

static int64_t min4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

static int64_t max4(int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t m = a > b ? a : b;
    m = m > c ? m : c;
    return m > d ? m : d;
}

/* Truncating division that saturates the one overflowing case. */
static int64_t sat_div(int64_t a, int64_t b)
{
    return (a == INT64_MIN && b == -1) ? INT64_MAX : a / b;
}

static struct span term_span(const struct dice_term *t)
{
    /* dice that may count before keep/drop */
    int64_t live_lo = t->count, live_hi = t->count;
    bool compound = false;
    if (t->explode.cmp != DICE_CMP_NONE) {
        int64_t per = t->explode_kind == DICE_EXPLODE_ONCE ? 1
                                                           : DICE_MAX_EXPLODE;
        live_hi = (int64_t)t->count * (1 + per);
        compound = t->explode_kind == DICE_EXPLODE_COMPOUND;
    }
    if (t->reroll_add.cmp != DICE_CMP_NONE)
        live_hi++;
    if (live_hi > DICE_MAX_DICE)
        live_hi = DICE_MAX_DICE;
    int64_t k_lo = live_lo, k_hi = live_hi, n = t->keep_n;
    switch ((enum dice_keep)t->keep) {
    case DICE_KEEP_ALL:
        break;
    case DICE_KEEP_HIGH:
    case DICE_KEEP_LOW:
        k_lo = live_lo < n ? live_lo : n;
        k_hi = live_hi < n ? live_hi : n;
        break;
    case DICE_DROP_HIGH:
    case DICE_DROP_LOW:
        k_lo = live_lo > n ? live_lo - n : 0;
        k_hi = live_hi > n ? live_hi - n : 0;
        break;
    case DICE_KEEP_MATCH:
    case DICE_DROP_MATCH:
        k_lo = 0;
        break;
    }
    /* a kept chain of compounded dice is worth up to all of them */
    if (compound && t->keep != DICE_KEEP_ALL) {
        k_lo = 0;
        k_hi = live_hi;
    }
    struct span s;
    if (t->success.cmp != DICE_CMP_NONE || t->failure.cmp != DICE_CMP_NONE) {
        int64_t wins = t->twice.cmp != DICE_CMP_NONE ? 2 * k_hi : k_hi;
        s.lo = t->failure.cmp != DICE_CMP_NONE && !t->count_failures ? -k_hi
                                                                       : 0;
        s.hi = t->count_failures ? k_hi
               : t->success.cmp != DICE_CMP_NONE ? wins : 0;
        return s;
    }
    /* a penetrating bonus die may count one below the lowest face */
    int64_t f_lo = t->raise_to, f_hi = t->lower_to;
    if (t->explode_kind == DICE_EXPLODE_PENETRATE && !t->has_min &&
        t->explode.cmp != DICE_CMP_NONE)
        f_lo--;
    s.lo = min4(k_lo * f_lo, k_hi * f_lo, k_lo * f_hi, k_hi * f_hi);
    s.hi = max4(k_lo * f_lo, k_hi * f_lo, k_lo * f_hi, k_hi * f_hi);
    return s;
}

/* Quotient range of a / b when b's range excludes zero: truncating
 * division is monotonic in each argument on such a box, so the corners
 * hold the extremes. If b's range straddles zero, only |a| bounds it. */
static enum eng_err div_span(struct span a, struct span b, struct span *out)
{
    if (b.lo == 0 && b.hi == 0)
        return ENG_DIVZERO;
    if (b.lo <= 0 && b.hi >= 0) {
        int64_t m = sat_neg(a.lo) > a.hi ? sat_neg(a.lo) : a.hi;
        m = m < 0 ? 0 : m;
        out->lo = -m;
        out->hi = m;
        return ENG_OK;
    }
    int64_t q1 = sat_div(a.lo, b.lo), q2 = sat_div(a.lo, b.hi);
    int64_t q3 = sat_div(a.hi, b.lo), q4 = sat_div(a.hi, b.hi);
    out->lo = min4(q1, q2, q3, q4);
    out->hi = max4(q1, q2, q3, q4);
    return ENG_OK;
}

enum eng_err dice_expr_bounds(const struct dice_expr *e, int64_t *min,
                              int64_t *max)
{
    struct span st[DICE_MAX_TERMS];
    int sp = 0;
    for (uint16_t i = 0; i < e->n_nodes; i++) {
        const struct dice_node *n = &e->nodes[i];
        struct span *top = sp > 0 ? &st[sp - 1] : st;
        struct span a = sp > 1 ? top[-1] : *top, b = *top, r;
        switch ((enum dice_op)n->op) {
        case DICE_OP_NUM:
            st[sp++] = (struct span){n->num, n->num};
            continue;
        case DICE_OP_DICE:
            st[sp++] = term_span(&e->terms[n->term]);
            continue;
        case DICE_OP_NEG:
            *top = (struct span){sat_neg(b.hi), sat_neg(b.lo)};
            continue;
        case DICE_OP_ADD:
            r = (struct span){sat_add(a.lo, b.lo), sat_add(a.hi, b.hi)};
            break;
        case DICE_OP_SUB:
            r = (struct span){sat_add(a.lo, sat_neg(b.hi)),
                              sat_add(a.hi, sat_neg(b.lo))};
            break;
        case DICE_OP_MUL: {
            int64_t p1 = sat_mul(a.lo, b.lo), p2 = sat_mul(a.lo, b.hi);
            int64_t p3 = sat_mul(a.hi, b.lo), p4 = sat_mul(a.hi, b.hi);
            r = (struct span){min4(p1, p2, p3, p4), max4(p1, p2, p3, p4)};
            break;
        }
        case DICE_OP_DIV:
            if (div_span(a, b, &r) != ENG_OK)
                return ENG_DIVZERO;
            break;
        case DICE_OP_CMP:
            r = (struct span){0, 1};
            break;
        default:
            return ENG_INVALID;
        }
        top[-1] = r;
        sp--;
    }
    *min = st[0].lo;
    *max = st[0].hi;
    return ENG_OK;
}
