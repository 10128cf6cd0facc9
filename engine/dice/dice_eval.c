/*
 * dice_eval.c - roll a parsed expression.
 *
 * One pass over the postfix nodes with a value stack of at most
 * DICE_MAX_TERMS entries. Dice land directly in the caller's result, so a
 * roll never allocates; the dice budget (DICE_MAX_DICE) is checked before
 * each die, which bounds explosions and rerolls as they happen.
 */
#include "dice_int.h"

/* The k-th largest of keys[0, n) (1 <= k <= n), by quickselect with a
 * Hoare partition in descending order. Reorders keys. */
static int32_t kth_largest(int32_t *keys, int n, int k)
{
    int lo = 0, hi = n - 1, want = k - 1;
    while (lo < hi) {
        int32_t pivot = keys[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (keys[i] > pivot)
                i++;
            while (keys[j] < pivot)
                j--;
            if (i <= j) {
                int32_t tmp = keys[i];
                keys[i++] = keys[j];
                keys[j--] = tmp;
            }
        }
        /* keys[lo, j] >= pivot, keys[i, hi] <= pivot, between: == pivot */
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            return keys[want];
    }
    return keys[want];
}

/* Dice with at most this many faces choose their kept dice by counting
 * faces; larger dice by quickselect. */
#define DICE_KEEP_COUNT_FACES 100

/* How many of live dice term t keeps. */
static uint32_t kept_count(const struct dice_term *t, uint32_t live)
{
    uint32_t want = (uint32_t)t->keep_n;
    if (t->keep == DICE_KEEP_HIGH || t->keep == DICE_KEEP_LOW)
        return want < live ? want : live;
    return want < live ? live - want : 0;
}

/* Dice are compared by key: the face, negated when the lowest are kept, so
 * that the dice to keep always have the largest keys. */
static int32_t key_sign(const struct dice_term *t)
{
    return t->keep == DICE_KEEP_HIGH || t->keep == DICE_DROP_LOW ? 1 : -1;
}

/* Drop the dice (not rerolled) whose key is below cut, and those at the cut
 * after the first ties of them. Bitwise, not logical, operators: faces are
 * random, so branches on them would mispredict. */
static void drop_past_cut(const struct dice_term *t, struct dice_die *d,
                          uint32_t n, int32_t cut, uint32_t ties)
{
    int32_t sign = key_sign(t);
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].flags & DICE_DIE_REROLLED)
            continue;
        int32_t key = sign * d[i].value;
        unsigned at = (key == cut) & (ties > 0);
        ties -= at;
        d[i].flags |= (uint16_t)(!((key > cut) | at) * DICE_DIE_DROPPED);
    }
}

/* Keep/drop on dice with many faces: the cut is the k-th largest key, by
 * quickselect over a copy of the keys. */
__attribute__((noinline))  /* its scratch array stays off the hot frame */
static void keep_by_select(const struct dice_term *t, struct dice_die *d,
                           uint32_t n)
{
    int32_t keys[DICE_MAX_DICE], sign = key_sign(t);
    uint32_t live = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!(d[i].flags & DICE_DIE_REROLLED))
            keys[live++] = sign * d[i].value;
    uint32_t k = kept_count(t, live), above = 0;
    int32_t cut = k == 0 ? INT32_MAX : kth_largest(keys, (int)live, (int)k);
    for (uint32_t i = 0; i < live; i++)
        above += keys[i] > cut;
    drop_past_cut(t, d, n, cut, k - above);
}

/* Keep/drop on dice with few faces: the cut is found by walking a
 * histogram of faces from the best one. */
static void keep_by_count(const struct dice_term *t, struct dice_die *d,
                          uint32_t n)
{
    uint16_t hist[DICE_KEEP_COUNT_FACES];
    for (int32_t f = 0; f < t->sides; f++)
        hist[f] = 0;
    uint32_t live = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].flags & DICE_DIE_REROLLED)
            continue;
        hist[d[i].value - t->face_min]++;
        live++;
    }
    uint32_t k = kept_count(t, live), better = 0;
    int32_t sign = key_sign(t), cut = sign > 0 ? t->sides - 1 : 0;
    while (better + hist[cut] < k) {
        better += hist[cut];
        cut -= sign;
    }
    drop_past_cut(t, d, n, sign * (cut + t->face_min), k - better);
}

/* Does t penetrate ("!p")? Its bonus dice may count one below the lowest
 * face, outside keep_by_count()'s histogram. */
static bool penetrates(const struct dice_term *t)
{
    return t->explode.cmp != DICE_CMP_NONE &&
           t->explode_kind == DICE_EXPLODE_PENETRATE;
}

/* Mark the dice that keep/drop removes, among the dice not rerolled. Ties
 * at the cut keep the earlier die. Keeping one die or dropping one (adv,
 * 4d6kh3) needs only the best or worst key, found in one pass. */
static void apply_keep(const struct dice_term *t, struct dice_die *d,
                       uint32_t n)
{
    int32_t sign = key_sign(t), best = INT32_MIN, worst = INT32_MAX;
    uint32_t live = 0, n_worst = 0;     /* dice at the worst key */
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].flags & DICE_DIE_REROLLED)
            continue;
        int32_t key = sign * d[i].value;
        live++;
        best = key > best ? key : best;
        n_worst = key < worst ? 1 : n_worst + (key == worst);
        worst = key < worst ? key : worst;
    }
    uint32_t k = kept_count(t, live);
    if (k == 1)
        drop_past_cut(t, d, n, best, 1);
    else if (k + 1 == live)
        drop_past_cut(t, d, n, worst, n_worst - 1);
    else if (t->sides <= DICE_KEEP_COUNT_FACES && !penetrates(t))
        keep_by_count(t, d, n);
    else
        keep_by_select(t, d, n);
}

/* Avrae's selectors: keep (or drop) the dice whose value matches. */
static void keep_match(const struct dice_term *t, struct dice_die *d,
                       uint32_t n)
{
    unsigned keep = t->keep == DICE_KEEP_MATCH;
    for (uint32_t i = 0; i < n; i++) {
        unsigned hit = dice__match(t->keep_sel, d[i].value);
        unsigned live = !(d[i].flags & DICE_DIE_REROLLED);
        d[i].flags |= (uint16_t)((live & (hit ^ keep)) * DICE_DIE_DROPPED);
    }
}

/* A compounding term ("5d6!!") keeps and counts chains: a die that stands
 * with the compounded dice after it, as one die worth their sum. Fills
 * head[] with each chain's first die and sum[] with its worth; returns
 * how many chains there are. */
static uint32_t chains(const struct dice_die *d, uint32_t n, uint16_t *head,
                       int32_t *sum)
{
    uint32_t u = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].flags & DICE_DIE_REROLLED)
            continue;
        if ((d[i].flags & DICE_DIE_COMPOUNDED) && u > 0) {
            sum[u - 1] += d[i].value;
            continue;
        }
        head[u] = (uint16_t)i;
        sum[u++] = d[i].value;
    }
    return u;
}

/* Mark chain c (of u, heads in head[]) dropped: its first die and the
 * compounded dice after it. */
static void drop_chain(struct dice_die *d, uint32_t n, const uint16_t *head,
                       uint32_t u, uint32_t c)
{
    uint32_t end = c + 1 < u ? head[c + 1] : n;
    d[head[c]].flags |= DICE_DIE_DROPPED;
    for (uint32_t i = head[c] + 1u; i < end; i++)
        if (d[i].flags & DICE_DIE_COMPOUNDED)
            d[i].flags |= DICE_DIE_DROPPED;
}

/* Keep/drop for a compounding term, chain by chain. Ties at the cut keep
 * the chain rolled first, as apply_keep() does. */
__attribute__((noinline))
static void keep_chains(const struct dice_term *t, struct dice_die *d,
                        uint32_t n)
{
    uint16_t head[DICE_MAX_DICE];
    int32_t sum[DICE_MAX_DICE], keys[DICE_MAX_DICE];
    uint32_t u = chains(d, n, head, sum);
    if (t->keep == DICE_KEEP_MATCH || t->keep == DICE_DROP_MATCH) {
        bool keep = t->keep == DICE_KEEP_MATCH;
        for (uint32_t c = 0; c < u; c++)
            if (dice__match(t->keep_sel, sum[c]) != keep)
                drop_chain(d, n, head, u, c);
        return;
    }
    int32_t sign = key_sign(t);
    for (uint32_t c = 0; c < u; c++)
        keys[c] = sign * sum[c];
    uint32_t k = kept_count(t, u), above = 0;
    int32_t cut = k == 0 ? INT32_MAX : kth_largest(keys, (int)u, (int)k);
    for (uint32_t c = 0; c < u; c++)
        above += sign * sum[c] > cut;
    uint32_t ties = k - above;
    for (uint32_t c = 0; c < u; c++) {
        int32_t key = sign * sum[c];
        bool at = key == cut && ties > 0;
        ties -= at;
        if (!(key > cut || at))
            drop_chain(d, n, head, u, c);
    }
}

/* Roll one die of t into d, marking natural extremes. */
static void roll_die(const struct dice_term *t, struct eng_rng *rng,
                     struct dice_die *d, uint16_t flags)
{
    int32_t v = t->face_min + (int32_t)eng_rng_below(rng, (uint64_t)t->sides);
    /* branch-free: the faces are random, so branches would mispredict */
    unsigned marks = (unsigned)(t->face_min == 1 && t->sides > 1);
    flags |= (uint16_t)((marks & (v == t->sides)) * DICE_DIE_MAX |
                        (marks & (v == 1)) * DICE_DIE_MIN);
    d->value = v;
    d->flags = flags;
    d->rolled = (int16_t)v;
}

/* minN and maxN: a die that stands (not rerolled) counts as N when its
 * face is past N, and is flagged so the face it showed stays in view. Done
 * after rerolls and explosions, which look at the face as rolled, and
 * before keep/drop and counting, which see the raised or lowered value. */
static void apply_clamp(const struct dice_term *t, struct dice_die *d,
                        uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].flags & DICE_DIE_REROLLED)
            continue;
        if (d[i].value < t->raise_to) {
            d[i].value = t->raise_to;
            d[i].flags |= DICE_DIE_RAISED;
        } else if (d[i].value > t->lower_to) {
            d[i].value = t->lower_to;
            d[i].flags |= DICE_DIE_LOWERED;
        }
    }
}

/* What die i counts for when conditions look at it: its value, or on a
 * compounding term the sum of its chain. */
static int32_t worth(const struct dice_die *d, uint32_t n, uint32_t i,
                     bool compound)
{
    int32_t v = d[i].value;
    for (uint32_t j = i + 1; compound && j < n &&
                             (d[j].flags & DICE_DIE_COMPOUNDED); j++)
        v += (d[j].flags & DICE_DIE_REROLLED) ? 0 : d[j].value;
    return v;
}

/* Sum the counted dice of group g, or count its successes and failures,
 * flagging them; botches and Roll20's critical marks are flagged and
 * counted without changing the sum. Branch-free, as faces are random. */
static void tally(const struct dice_term *t, struct dice_group *g,
                  struct dice_die *d)
{
    int64_t sum = 0;
    int32_t wins = 0, losses = 0, botches = 0;
    bool compound = t->extras & DICE_EXTRA_CHAINS;
    g->successes = g->failures = g->botches = 0;
    if (!g->counting && !(t->extras & DICE_EXTRA_MARKS)) {
        /* the common case, a loop of its own that the compiler unrolls */
        for (uint32_t i = 0; i < g->count; i++)
            sum += (int32_t)!(d[i].flags & DICE_DIE_UNCOUNTED) * d[i].value;
        g->subtotal = sum;
        return;
    }
    for (uint32_t i = 0; i < g->count; i++) {
        unsigned counted = !(d[i].flags & DICE_DIE_UNCOUNTED);
        sum += (int32_t)counted * d[i].value;
        if (compound && (d[i].flags & DICE_DIE_COMPOUNDED))
            continue;           /* its chain's first die speaks for it */
        int32_t v = worth(d, g->count, i, compound);
        unsigned win = counted & dice__match(t->success, v);
        unsigned twice = win & dice__match(t->twice, v);
        unsigned loss = counted & dice__match(t->failure, v);
        unsigned botch = counted & dice__match(t->botch, v);
        unsigned crit = counted & dice__match(t->crit, v);
        unsigned fumble = counted & dice__match(t->fumble, v);
        d[i].flags |= (uint16_t)((win | crit) * DICE_DIE_SUCCESS |
                                 twice * DICE_DIE_TWICE |
                                 (loss | fumble) * DICE_DIE_FAILURE |
                                 botch * DICE_DIE_BOTCH);
        wins += (int32_t)(win + twice);
        losses += (int32_t)loss;
        botches += (int32_t)botch;
    }
    g->successes = wins;
    g->failures = losses;
    g->botches = botches;
    g->subtotal = !g->counting      ? sum
                  : t->count_failures ? (int64_t)losses
                                      : (int64_t)wins - losses;
}

/* The dice of a term that rerolls or explodes, from res->dice[*n] on:
 * each die rerolled while it matches (or once), then exploded while its
 * last face matches (or once), a compounding chain's bonus dice flagged so
 * and a penetrating one's counting one less. The dice budget is checked
 * before each die. */
__attribute__((noinline))
static enum eng_err roll_chains(const struct dice_term *t,
                                struct eng_rng *rng, struct dice_result *res,
                                uint32_t *n_io, struct dice_diag *diag)
{
    uint32_t n = *n_io;
    int reroll_cap = t->reroll.cmp == DICE_CMP_NONE ? 0
                     : t->reroll_once                ? 1
                                                     : DICE_MAX_REROLL;
    int explode_cap = t->explode.cmp == DICE_CMP_NONE            ? 0
                      : t->explode_kind == DICE_EXPLODE_ONCE ? 1
                                                             : DICE_MAX_EXPLODE;
    bool penetrate = penetrates(t);
    uint16_t chained = (t->extras & DICE_EXTRA_CHAINS)
                           ? DICE_DIE_BONUS | DICE_DIE_COMPOUNDED
                           : DICE_DIE_BONUS;
    for (int32_t i = 0; i < t->count; i++) {
        uint16_t bonus = 0;
        for (int explosions = 0;; explosions++) {
            for (int rerolls = 0;; rerolls++) {
                if (n == DICE_MAX_DICE)
                    return dice__limit(diag, t->pos, t->len, "too many dice",
                                       DICE_MAX_DICE);
                roll_die(t, rng, &res->dice[n++], bonus);
                if (rerolls == reroll_cap ||
                    !dice__match(t->reroll, res->dice[n - 1].value))
                    break;
                res->dice[n - 1].flags |= DICE_DIE_REROLLED;
            }
            struct dice_die *last = &res->dice[n - 1];
            bool again = explosions < explode_cap &&
                         dice__match(t->explode, last->value);
            if (penetrate && bonus != 0) {  /* "!p": one less, face kept */
                last->value--;
                last->flags |= DICE_DIE_LOWERED;
            }
            if (!again)
                break;
            last->flags |= DICE_DIE_EXPLODED;
            bonus = chained;
        }
    }
    *n_io = n;
    return ENG_OK;
}

/* Avrae's "ra": the first die of the term (from res->n_dice) that matches
 * gets one bonus die, added at *n. */
__attribute__((noinline))
static enum eng_err reroll_add(const struct dice_term *t, struct eng_rng *rng,
                               struct dice_result *res, uint32_t *n,
                               struct dice_diag *diag)
{
    for (uint32_t i = res->n_dice; i < *n; i++) {
        struct dice_die *d = &res->dice[i];
        if ((d->flags & (DICE_DIE_REROLLED | DICE_DIE_BONUS)) ||
            !dice__match(t->reroll_add, d->value))
            continue;
        if (*n == DICE_MAX_DICE)
            return dice__limit(diag, t->pos, t->len, "too many dice",
                               DICE_MAX_DICE);
        d->flags |= DICE_DIE_EXPLODED;
        roll_die(t, rng, &res->dice[(*n)++], DICE_DIE_BONUS);
        break;
    }
    return ENG_OK;
}

/* Roll term t as the next group of res and give its subtotal. */
static enum eng_err roll_term(const struct dice_term *t, struct eng_rng *rng,
                              struct dice_result *res, struct dice_diag *diag,
                              int64_t *out)
{
    struct dice_group *g = &res->groups[res->n_groups++];
    uint32_t n = res->n_dice;
    bool plain = t->reroll.cmp == DICE_CMP_NONE &&
                 t->explode.cmp == DICE_CMP_NONE;
    if (plain && t->count > DICE_MAX_DICE - (int32_t)n)
        return dice__limit(diag, t->pos, t->len, "too many dice",
                           DICE_MAX_DICE);
    for (int32_t i = 0; plain && i < t->count; i++)
        roll_die(t, rng, &res->dice[n++], 0);
    if (!plain)
        TRY(roll_chains(t, rng, res, &n, diag));
    if (t->extras & DICE_EXTRA_ADD)
        TRY(reroll_add(t, rng, res, &n, diag));
    struct dice_die *d = &res->dice[res->n_dice];
    uint32_t count = n - res->n_dice;
    g->pos = t->pos;
    g->len = t->len;
    g->first = res->n_dice;
    g->count = (uint16_t)count;
    g->sides = t->sides;
    g->fudge = t->face_min != 1;
    g->counting = t->success.cmp != DICE_CMP_NONE ||
                  t->failure.cmp != DICE_CMP_NONE;
    res->n_dice = (uint16_t)n;
    if (t->has_min || t->has_max)
        apply_clamp(t, d, count);
    if (t->keep != DICE_KEEP_ALL) {
        if (t->extras & DICE_EXTRA_CHAINS)
            keep_chains(t, d, count);
        else if (t->keep == DICE_KEEP_MATCH || t->keep == DICE_DROP_MATCH)
            keep_match(t, d, count);
        else
            apply_keep(t, d, count);
    }
    tally(t, g, d);
    *out = g->subtotal;
    return ENG_OK;
}

/* Avrae's comparison of two totals: 1 or 0. */
static int64_t compare(uint8_t cmp, int64_t a, int64_t b)
{
    switch ((enum dice_cmp)cmp) {
    case DICE_CMP_EQ:
        return a == b;
    case DICE_CMP_NE:
        return a != b;
    case DICE_CMP_LT:
        return a < b;
    case DICE_CMP_LE:
        return a <= b;
    case DICE_CMP_GT:
        return a > b;
    case DICE_CMP_GE:
        return a >= b;
    default:
        return 0;
    }
}

static enum eng_err overflow(const struct dice_node *n, struct dice_diag *diag)
{
    return dice__fail(diag, ENG_OVERFLOW, n->pos, n->len,
                      "arithmetic overflow at column %u", n->pos + 1u);
}

enum eng_err dice_roll(const struct dice_expr *e, struct eng_rng *rng,
                       struct dice_result *res, struct dice_diag *diag)
{
    int64_t st[DICE_MAX_TERMS];
    int sp = 0;
    res->n_dice = 0;
    res->n_groups = 0;
    res->expr_pos = e->expr_pos;
    res->expr_len = e->expr_len;
    res->label = e->label_len > 0 ? e->label : NULL;
    res->label_len = e->label_len;
    res->notes = e->notes;
    for (uint16_t i = 0; i < e->n_nodes; i++) {
        const struct dice_node *n = &e->nodes[i];
        int64_t *top = sp > 0 ? &st[sp - 1] : st;
        switch ((enum dice_op)n->op) {
        case DICE_OP_NUM:
            st[sp++] = n->num;
            break;
        case DICE_OP_DICE: {
            enum eng_err err = roll_term(&e->terms[n->term], rng, res, diag,
                                         &st[sp]);
            if (err != ENG_OK)
                return err;
            sp++;
            break;
        }
        case DICE_OP_NEG:
            if (*top == INT64_MIN)
                return overflow(n, diag);
            *top = -*top;
            break;
        case DICE_OP_ADD:
            if (__builtin_add_overflow(top[-1], top[0], &top[-1]))
                return overflow(n, diag);
            sp--;
            break;
        case DICE_OP_SUB:
            if (__builtin_sub_overflow(top[-1], top[0], &top[-1]))
                return overflow(n, diag);
            sp--;
            break;
        case DICE_OP_MUL:
            if (__builtin_mul_overflow(top[-1], top[0], &top[-1]))
                return overflow(n, diag);
            sp--;
            break;
        case DICE_OP_DIV:
            if (top[0] == 0)
                return dice__fail(diag, ENG_DIVZERO, n->pos, n->len,
                                  "division by zero at column %u",
                                  n->pos + 1u);
            if (top[-1] == INT64_MIN && top[0] == -1)
                return overflow(n, diag);
            top[-1] /= top[0];
            sp--;
            break;
        case DICE_OP_CMP:
            top[-1] = compare((uint8_t)n->num, top[-1], top[0]);
            sp--;
            break;
        }
    }
    res->total = st[0];
    return ENG_OK;
}

enum eng_err dice_eval_string(const char *src, size_t len, struct eng_rng *rng,
                              struct dice_result *res, struct dice_diag *diag)
{
    return dice_eval_string_as(src, len, DICE_DIALECT_FRAY, rng, res, diag);
}

enum eng_err dice_eval_string_as(const char *src, size_t len,
                                 enum dice_dialect d, struct eng_rng *rng,
                                 struct dice_result *res,
                                 struct dice_diag *diag)
{
    struct dice_parser p;
    enum eng_err err = dice__parse_into(&p, src, len, d, diag);
    if (err != ENG_OK)
        return err;
    err = dice_roll(&p.expr, rng, res, diag);
    if (res->label != NULL)
        res->label = src + p.expr.label_pos;
    return err;
}
