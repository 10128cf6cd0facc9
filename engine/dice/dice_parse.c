/*
 * dice_parse.c - recursive-descent parser from source to the postfix form.
 *
 * Each parse function opens with its production. Depth (parentheses and
 * unary signs) is bounded by DICE_MAX_DEPTH, so recursion on the C stack is
 * too. Every limit is checked as soon as the number it limits is read,
 * before anything is rolled.
 */
#include "dice_int.h"

#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"

/* A span shown inside a message is clipped so the message fits. */
#define DICE_MSG_SPAN 24

#define TRY(x)                                                              \
    do {                                                                    \
        enum eng_err try_err_ = (x);                                        \
        if (try_err_ != ENG_OK)                                             \
            return try_err_;                                                \
    } while (0)

static enum eng_err next(struct dice_parser *p)
{
    p->prev_end = (uint16_t)(p->tok.pos + p->tok.len);
    return dice__lex(&p->lx, &p->tok, p->diag);
}

/* "`kl` is a second keep or drop at column 7" about token t, or
 * "unexpected `kl` at column 7" when what is NULL. Long spans are clipped
 * so that the message fits. */
static enum eng_err fail_at(struct dice_parser *p, enum eng_err code,
                            const struct dice_tok *t, const char *what)
{
    bool clip = t->len > DICE_MSG_SPAN;
    int shown = clip ? DICE_MSG_SPAN : (int)t->len;
    const char *text = p->lx.src + t->pos, *more = clip ? "..." : "";
    if (what == NULL)
        return dice__fail(p->diag, code, t->pos, t->len,
                          "unexpected `%.*s%s` at column %u", shown, text,
                          more, t->pos + 1u);
    return dice__fail(p->diag, code, t->pos, t->len,
                      "`%.*s%s` %s at column %u", shown, text, more, what,
                      t->pos + 1u);
}

static enum eng_err unexpected(struct dice_parser *p)
{
    const struct dice_tok *t = &p->tok;
    if (t->kind == DICE_T_END)
        return dice__fail(p->diag, ENG_SYNTAX, t->pos, 0,
                          "unexpected end of expression at column %u",
                          t->pos + 1u);
    /* every other modifier is also a comparison, a sign or a letter that
     * reads differently out of place; min and max can only be misplaced */
    if (t->kind == DICE_T_MIN || t->kind == DICE_T_MAX)
        return fail_at(p, ENG_SYNTAX, t, "applies to dice only");
    return fail_at(p, ENG_SYNTAX, t, NULL);
}

static enum eng_err emit(struct dice_parser *p, enum dice_op op,
                         const struct dice_tok *at, int64_t num, uint16_t term)
{
    if (p->expr.n_nodes == DICE_MAX_NODES)
        return dice__limit(p->diag, at->pos, at->len, "expression too complex",
                           DICE_MAX_NODES);
    struct dice_node *n = &p->nodes[p->expr.n_nodes++];
    n->op = (uint8_t)op;
    n->pos = at->pos;
    n->len = at->len;
    n->term = term;
    n->num = num;
    return ENG_OK;
}

static enum eng_err count_operand(struct dice_parser *p,
                                 const struct dice_tok *at)
{
    if (++p->n_operands > DICE_MAX_TERMS)
        return dice__limit(p->diag, at->pos, at->len, "too many terms",
                           DICE_MAX_TERMS);
    return ENG_OK;
}

static enum eng_err enter(struct dice_parser *p)
{
    if (++p->depth > DICE_MAX_DEPTH)
        return dice__limit(p->diag, p->tok.pos, p->tok.len,
                           "nesting too deep", DICE_MAX_DEPTH);
    return ENG_OK;
}

/* Add n dice to the expression's known dice, at most DICE_MAX_DICE. */
static enum eng_err add_dice(struct dice_parser *p, int32_t n, size_t pos,
                             size_t len)
{
    p->n_dice += n;
    if (p->n_dice > DICE_MAX_DICE)
        return dice__limit(p->diag, pos, len, "too many dice", DICE_MAX_DICE);
    return ENG_OK;
}

/* Read a count that must lie in [1, limit]: dice, sides, keep, repeat. */
static enum eng_err read_count(struct dice_parser *p, const struct dice_tok *t,
                               int64_t limit, const char *too_many,
                               const char *too_few, int32_t *out)
{
    *out = 0;   /* set on every path: callers read it only on ENG_OK, but
                   -O3 cannot always see that */
    if (t->too_big || t->num > limit)
        return dice__limit(p->diag, t->pos, t->len, too_many, (long)limit);
    if (t->num < 1)
        return dice__fail(p->diag, ENG_RANGE, t->pos, t->len,
                          "%s at column %u", too_few, t->pos + 1u);
    *out = (int32_t)t->num;
    return ENG_OK;
}

static bool is_cmp(enum dice_tok_kind k)
{
    return k == DICE_T_EQ || k == DICE_T_LT || k == DICE_T_LE ||
           k == DICE_T_GT || k == DICE_T_GE;
}

/* cond -> ('=' | '<' | '<=' | '>' | '>=') '-'? NUM | '-'? NUM
 * The operator may be left out (meaning '=') unless need_cmp. */
static enum eng_err parse_cond(struct dice_parser *p, struct dice_cond *c,
                               bool need_cmp)
{
    static const uint8_t cmp_of[] = {
        [DICE_T_EQ] = DICE_CMP_EQ, [DICE_T_LT] = DICE_CMP_LT,
        [DICE_T_LE] = DICE_CMP_LE, [DICE_T_GT] = DICE_CMP_GT,
        [DICE_T_GE] = DICE_CMP_GE,
    };
    c->cmp = DICE_CMP_EQ;
    if (is_cmp(p->tok.kind)) {
        c->cmp = cmp_of[p->tok.kind];
        TRY(next(p));
    } else if (need_cmp)
        return unexpected(p);
    bool neg = p->tok.kind == DICE_T_MINUS;
    if (neg)
        TRY(next(p));
    if (p->tok.kind != DICE_T_NUM)
        return unexpected(p);
    if (p->tok.too_big || p->tok.num > INT32_MAX)
        return fail_at(p, ENG_OVERFLOW, &p->tok, "is too large");
    c->value = neg ? -(int32_t)p->tok.num : (int32_t)p->tok.num;
    return next(p);
}

/* Does c hold for every face in [lo, hi]? Each condition holds on an
 * interval of faces, so checking both ends is enough. */
static bool matches_all(struct dice_cond c, int32_t lo, int32_t hi)
{
    return dice__match(c, lo) && dice__match(c, hi);
}

/* adv and dis apply to a single d20 with no keep/drop of its own. */
static bool is_single_d20(const struct dice_term *t)
{
    return t->count == 1 && t->sides == 20 && t->face_min == 1 &&
           t->keep == DICE_KEEP_ALL;
}

/* Turn a single d20 into two, keeping the higher (adv) or lower (dis). */
static enum eng_err apply_adv(struct dice_parser *p, struct dice_term *t,
                              const struct dice_tok *at)
{
    t->count = 2;
    t->keep = at->kind == DICE_T_ADV ? DICE_KEEP_HIGH : DICE_KEEP_LOW;
    t->keep_n = 1;
    return add_dice(p, 1, at->pos, at->len);
}

/* A span [pos, prev_end) as a token, for fail_at(). */
static struct dice_tok span_from(const struct dice_parser *p, uint16_t pos)
{
    struct dice_tok s = {.pos = pos, .len = (uint16_t)(p->prev_end - pos)};
    return s;
}

/* clamp -> ('min' | 'max') '-'? NUM
 * The bound must be a face of the die (-1, 0 or 1 for Fudge dice), and a
 * term's minimum may not lie above its maximum. */
static enum eng_err parse_clamp(struct dice_parser *p, struct dice_term *t,
                                const struct dice_tok *m)
{
    bool is_min = m->kind == DICE_T_MIN;
    int32_t face_max = t->face_min + t->sides - 1;
    if (is_min ? t->has_min : t->has_max)
        return fail_at(p, ENG_SYNTAX, m,
                       is_min ? "is a second minimum" : "is a second maximum");
    TRY(next(p));
    bool neg = p->tok.kind == DICE_T_MINUS;
    if (neg)
        TRY(next(p));
    if (p->tok.kind == DICE_T_END)
        return unexpected(p);
    if (p->tok.kind != DICE_T_NUM)
        return fail_at(p, ENG_SYNTAX, &p->tok, NULL);
    bool huge = p->tok.too_big || p->tok.num > DICE_MAX_SIDES;
    int32_t v = huge ? 0 : (int32_t)p->tok.num;
    v = neg ? -v : v;
    TRY(next(p));
    struct dice_tok s = span_from(p, m->pos);
    char what[64], die[16];
    if (t->face_min == 1)
        snprintf(die, sizeof die, "d%d", (int)t->sides);
    else
        snprintf(die, sizeof die, "dF");
    if (huge ? !neg : v > face_max) {
        snprintf(what, sizeof what, "is above the highest face of a %s", die);
        return fail_at(p, ENG_RANGE, &s, what);
    }
    if (huge || v < t->face_min) {
        snprintf(what, sizeof what, "is below the lowest face of a %s", die);
        return fail_at(p, ENG_RANGE, &s, what);
    }
    if (is_min && t->has_max && v > t->lower_to) {
        snprintf(what, sizeof what, "is above the term's maximum of %d",
                 (int)t->lower_to);
        return fail_at(p, ENG_RANGE, &s, what);
    }
    if (!is_min && t->has_min && v < t->raise_to) {
        snprintf(what, sizeof what, "is below the term's minimum of %d",
                 (int)t->raise_to);
        return fail_at(p, ENG_RANGE, &s, what);
    }
    if (is_min) {
        t->has_min = true;
        t->raise_to = v;
    } else {
        t->has_max = true;
        t->lower_to = v;
    }
    return ENG_OK;
}

/* modifier -> ('kh' | 'kl' | 'k' | 'dh' | 'dl') NUM?
 *           | '!' cond? | ('r' | 'ro') cond | 'f' cond
 *           | ('=' | '<' | '<=' | '>' | '>=') NUM | clamp | 'adv' | 'dis'
 * adv and dis are modifiers of a single d20 only. */
static enum eng_err parse_modifier(struct dice_parser *p, struct dice_term *t,
                                   bool *more)
{
    static const uint8_t keep_of[] = {
        [DICE_T_KH] = DICE_KEEP_HIGH, [DICE_T_K] = DICE_KEEP_HIGH,
        [DICE_T_KL] = DICE_KEEP_LOW,  [DICE_T_DH] = DICE_DROP_HIGH,
        [DICE_T_DL] = DICE_DROP_LOW,
    };
    struct dice_tok m = p->tok;
    int32_t face_max = t->face_min + t->sides - 1;
    *more = true;
    switch (m.kind) {
    case DICE_T_KH:
    case DICE_T_KL:
    case DICE_T_K:
    case DICE_T_DH:
    case DICE_T_DL:
        if (t->keep != DICE_KEEP_ALL)
            return fail_at(p, ENG_SYNTAX, &m, "is a second keep or drop");
        TRY(next(p));
        t->keep = keep_of[m.kind];
        t->keep_n = 1;
        if (p->tok.kind == DICE_T_NUM) {
            TRY(read_count(p, &p->tok, DICE_MAX_DICE, "keep or drop too large",
                           "keep or drop needs at least 1", &t->keep_n));
            TRY(next(p));
        }
        return ENG_OK;
    case DICE_T_BANG:
        if (t->explode.cmp != DICE_CMP_NONE)
            return fail_at(p, ENG_SYNTAX, &m, "is a second explosion");
        TRY(next(p));
        /* "!5" is "!=5"; "!-1" stays a subtraction ("3d6!-1") */
        if (is_cmp(p->tok.kind) || p->tok.kind == DICE_T_NUM)
            TRY(parse_cond(p, &t->explode, false));
        else
            t->explode = (struct dice_cond){DICE_CMP_EQ, face_max};
        if (matches_all(t->explode, t->face_min, face_max)) {
            struct dice_tok s = span_from(p, m.pos);
            return fail_at(p, ENG_RANGE, &s, "explodes on every face");
        }
        return ENG_OK;
    case DICE_T_R:
    case DICE_T_RO:
        if (t->reroll.cmp != DICE_CMP_NONE)
            return fail_at(p, ENG_SYNTAX, &m, "is a second reroll");
        TRY(next(p));
        TRY(parse_cond(p, &t->reroll, false));
        t->reroll_once = m.kind == DICE_T_RO;
        if (!t->reroll_once && matches_all(t->reroll, t->face_min, face_max)) {
            struct dice_tok s = span_from(p, m.pos);
            return fail_at(p, ENG_RANGE, &s, "rerolls every face");
        }
        return ENG_OK;
    case DICE_T_EQ:
    case DICE_T_LT:
    case DICE_T_LE:
    case DICE_T_GT:
    case DICE_T_GE:
        if (t->success.cmp != DICE_CMP_NONE)
            return fail_at(p, ENG_SYNTAX, &m, "is a second success condition");
        return parse_cond(p, &t->success, true);
    case DICE_T_F:
        if (t->failure.cmp != DICE_CMP_NONE)
            return fail_at(p, ENG_SYNTAX, &m, "is a second failure condition");
        TRY(next(p));
        return parse_cond(p, &t->failure, false);
    case DICE_T_MIN:
    case DICE_T_MAX:
        return parse_clamp(p, t, &m);
    case DICE_T_ADV:
    case DICE_T_DIS:
        /* on anything but a d20, leave it to apply_trailing_adv() */
        if (!is_single_d20(t)) {
            *more = false;
            return ENG_OK;
        }
        TRY(apply_adv(p, t, &m));
        return next(p);
    default:
        *more = false;
        return ENG_OK;
    }
}

/* dice -> NUM? ('d' | 'D') (NUM | '%')? modifier* | NUM? 'dF' modifier*
 * A capital D without sides means six sides ("3D+1"). count is the NUM
 * already read, or NULL. */
static enum eng_err parse_dice(struct dice_parser *p,
                               const struct dice_tok *count)
{
    const struct dice_tok *first = count != NULL ? count : &p->tok;
    uint16_t start = first->pos;
    TRY(count_operand(p, first));
    uint16_t idx = p->expr.n_terms;
    struct dice_term *t = &p->terms[idx];
    memset(t, 0, sizeof *t);
    t->count = 1;
    if (count != NULL)
        TRY(read_count(p, count, DICE_MAX_DICE, "too many dice",
                       "need at least 1 die", &t->count));
    t->face_min = 1;
    if (p->tok.kind == DICE_T_DF) {
        t->sides = 3;
        t->face_min = -1;
        TRY(next(p));
    } else {
        bool upper = p->tok.upper;
        TRY(next(p));
        if (p->tok.kind == DICE_T_NUM) {
            TRY(read_count(p, &p->tok, DICE_MAX_SIDES, "too many sides",
                           "need at least 1 side", &t->sides));
            TRY(next(p));
        } else if (p->tok.kind == DICE_T_PERCENT) {
            t->sides = 100;
            TRY(next(p));
        } else if (upper)
            t->sides = 6;
        else
            return unexpected(p);
    }
    t->raise_to = t->face_min;
    t->lower_to = t->face_min + t->sides - 1;
    TRY(add_dice(p, t->count, start, p->prev_end - start));
    for (bool more = true; more;)
        TRY(parse_modifier(p, t, &more));
    t->pos = start;
    t->len = (uint16_t)(p->prev_end - start);
    struct dice_tok whole = span_from(p, start);
    TRY(emit(p, DICE_OP_DICE, &whole, 0, idx));
    p->expr.n_terms++;
    return ENG_OK;
}

static enum eng_err parse_expr(struct dice_parser *p);

/* primary -> '(' expr ')' | NUM | dice */
static enum eng_err parse_primary(struct dice_parser *p)
{
    struct dice_tok t = p->tok;
    switch (t.kind) {
    case DICE_T_LPAREN:
        TRY(enter(p));
        TRY(next(p));
        TRY(parse_expr(p));
        if (p->tok.kind == DICE_T_END)
            return dice__fail(p->diag, ENG_SYNTAX, t.pos, 1,
                              "unclosed `(` at column %u", t.pos + 1u);
        if (p->tok.kind != DICE_T_RPAREN)
            return unexpected(p);
        p->depth--;
        return next(p);
    case DICE_T_NUM:
        TRY(next(p));
        if (p->tok.kind == DICE_T_D || p->tok.kind == DICE_T_DF)
            return parse_dice(p, &t);
        TRY(count_operand(p, &t));
        if (t.too_big)
            return fail_at(p, ENG_OVERFLOW, &t, "is too large");
        return emit(p, DICE_OP_NUM, &t, t.num, 0);
    case DICE_T_D:
    case DICE_T_DF:
        return parse_dice(p, NULL);
    default:
        return unexpected(p);
    }
}

/* unary -> ('-' | '+') unary | primary */
static enum eng_err parse_unary(struct dice_parser *p)
{
    struct dice_tok t = p->tok;
    if (t.kind != DICE_T_MINUS && t.kind != DICE_T_PLUS)
        return parse_primary(p);
    TRY(enter(p));
    TRY(next(p));
    TRY(parse_unary(p));
    p->depth--;
    return t.kind == DICE_T_MINUS ? emit(p, DICE_OP_NEG, &t, 0, 0) : ENG_OK;
}

/* mul -> unary (('*' | '/') unary)* */
static enum eng_err parse_mul(struct dice_parser *p)
{
    TRY(parse_unary(p));
    while (p->tok.kind == DICE_T_STAR || p->tok.kind == DICE_T_SLASH) {
        struct dice_tok op = p->tok;
        TRY(next(p));
        TRY(parse_unary(p));
        TRY(emit(p, op.kind == DICE_T_STAR ? DICE_OP_MUL : DICE_OP_DIV, &op,
                 0, 0));
    }
    return ENG_OK;
}

/* expr -> mul (('+' | '-') mul)* */
static enum eng_err parse_expr(struct dice_parser *p)
{
    TRY(parse_mul(p));
    while (p->tok.kind == DICE_T_PLUS || p->tok.kind == DICE_T_MINUS) {
        struct dice_tok op = p->tok;
        TRY(next(p));
        TRY(parse_mul(p));
        TRY(emit(p, op.kind == DICE_T_PLUS ? DICE_OP_ADD : DICE_OP_SUB, &op,
                 0, 0));
    }
    return ENG_OK;
}

/* An adv/dis that no d20 just before took ("1d20+5 adv") applies to the
 * expression's one 1d20. */
static enum eng_err apply_trailing_adv(struct dice_parser *p,
                                       const struct dice_tok *at)
{
    struct dice_term *found = NULL;
    for (uint16_t i = 0; i < p->expr.n_terms; i++) {
        if (!is_single_d20(&p->terms[i]))
            continue;
        if (found != NULL)
            return fail_at(p, ENG_SYNTAX, at, "is ambiguous with two 1d20");
        found = &p->terms[i];
    }
    if (found == NULL)
        return fail_at(p, ENG_SYNTAX, at, "needs a 1d20 to apply to");
    return apply_adv(p, found, at);
}

/* label -> any text up to the end, trimmed; no control characters */
static enum eng_err parse_label(struct dice_parser *p)
{
    const char *s = p->lx.src;
    size_t a = p->lx.at, b = p->lx.len;
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
        b--;
    for (size_t i = a; i < b; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
            return dice__fail(p->diag, ENG_SYNTAX, i, 1,
                              "control character in label at column %zu",
                              i + 1);
    if (b - a > DICE_MAX_LABEL)
        return dice__limit(p->diag, a + DICE_MAX_LABEL, b - a - DICE_MAX_LABEL,
                           "label too long", DICE_MAX_LABEL);
    memcpy(p->expr.label, s + a, b - a);
    p->expr.label[b - a] = '\0';
    p->expr.label_pos = (uint16_t)a;
    p->expr.label_len = (uint16_t)(b - a);
    p->lx.at = p->lx.len;
    return next(p);
}

/* Does the source open with a repeat prefix, digits then 'x'? Looking at
 * the bytes spares lexing the token after the number twice. */
static bool has_repeat(const struct dice_lexer *lx)
{
    const char *s = lx->src;
    size_t i = 0, n = lx->len, digits;
    while (i < n && dice__is_space(s[i]))
        i++;
    for (digits = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        ;
    if (i == digits)
        return false;
    while (i < n && dice__is_space(s[i]))
        i++;
    return i < n && (s[i] == 'x' || s[i] == 'X');
}

/* input -> (NUM 'x')? expr ('adv' | 'dis')? ('#' label)? END */
static enum eng_err parse_input(struct dice_parser *p)
{
    TRY(next(p));
    if (has_repeat(&p->lx)) {
        struct dice_tok num = p->tok;
        int32_t n;
        TRY(read_count(p, &num, DICE_MAX_REPEAT, "too many repeats",
                       "need at least 1 repeat", &n));
        p->expr.repeat = (uint16_t)n;
        TRY(next(p));           /* the x */
        TRY(next(p));
    }
    p->expr.expr_pos = p->tok.pos;
    TRY(parse_expr(p));
    if (p->tok.kind == DICE_T_ADV || p->tok.kind == DICE_T_DIS) {
        struct dice_tok at = p->tok;
        TRY(apply_trailing_adv(p, &at));
        TRY(next(p));
    }
    p->expr.expr_len = (uint16_t)(p->prev_end - p->expr.expr_pos);
    if (p->tok.kind == DICE_T_HASH)
        TRY(parse_label(p));
    if (p->tok.kind != DICE_T_END)
        return unexpected(p);
    return ENG_OK;
}

enum eng_err dice__parse_into(struct dice_parser *p, const char *src,
                              size_t len, struct dice_diag *diag)
{
    p->lx = (struct dice_lexer){.src = src, .len = len, .at = 0};
    p->tok = (struct dice_tok){.kind = DICE_T_END};
    p->prev_end = 0;
    p->diag = diag;
    p->depth = 0;
    p->n_operands = 0;
    p->n_dice = 0;
    p->expr.nodes = p->nodes;
    p->expr.terms = p->terms;
    p->expr.n_nodes = 0;
    p->expr.n_terms = 0;
    p->expr.repeat = 1;
    p->expr.label_len = 0;
    p->expr.label[0] = '\0';
    TRY(dice__check_input(src, len, diag));
    return parse_input(p);
}

enum eng_err dice_parse(const char *src, size_t len, struct dice_expr **out,
                        struct dice_diag *diag)
{
    struct dice_parser p;
    TRY(dice__parse_into(&p, src, len, diag));
    _Static_assert(sizeof(struct dice_expr) % _Alignof(struct dice_node) == 0,
                   "nodes follow the header");
    _Static_assert(sizeof(struct dice_node) % _Alignof(struct dice_term) == 0,
                   "terms follow the nodes");
    size_t nodes_size = p.expr.n_nodes * sizeof(struct dice_node);
    size_t terms_size = p.expr.n_terms * sizeof(struct dice_term);
    size_t size = sizeof(struct dice_expr) + nodes_size + terms_size;
    char *block = eng_malloc(size);
    if (block == NULL)
        return dice__fail(diag, ENG_NOMEM, 0, 0, "out of memory");
    struct dice_expr *e = (struct dice_expr *)block;
    struct dice_node *nodes = (struct dice_node *)(block + sizeof *e);
    struct dice_term *terms = (struct dice_term *)(block + sizeof *e +
                                                   nodes_size);
    *e = p.expr;
    memcpy(nodes, p.nodes, nodes_size);
    memcpy(terms, p.terms, terms_size);
    e->nodes = nodes;
    e->terms = terms;
    *out = e;
    return ENG_OK;
}

void dice_expr_free(struct dice_expr *e)
{
    eng_free(e);
}

unsigned dice_expr_repeat(const struct dice_expr *e)
{
    return e->repeat;
}

const char *dice_expr_label(const struct dice_expr *e, size_t *len)
{
    *len = e->label_len;
    return e->label_len > 0 ? e->label : NULL;
}

static bool term_is_plain(const struct dice_term *t)
{
    return t->face_min == 1 && t->keep == DICE_KEEP_ALL &&
           t->explode.cmp == DICE_CMP_NONE && t->reroll.cmp == DICE_CMP_NONE &&
           t->success.cmp == DICE_CMP_NONE && t->failure.cmp == DICE_CMP_NONE &&
           !t->has_min && !t->has_max;
}

bool dice_expr_simple(const struct dice_expr *e, struct dice_simple *out)
{
    const struct dice_node *n = e->nodes;
    struct dice_simple s = {0, 0, 0};
    if (e->n_nodes == 1 && n[0].op == DICE_OP_NUM) {
        s.modifier = n[0].num;
        *out = s;
        return true;
    }
    if (e->n_nodes != 1 && e->n_nodes != 3)
        return false;
    if (n[0].op != DICE_OP_DICE || !term_is_plain(&e->terms[n[0].term]))
        return false;
    if (e->n_nodes == 3) {
        if (n[1].op != DICE_OP_NUM ||
            (n[2].op != DICE_OP_ADD && n[2].op != DICE_OP_SUB))
            return false;
        s.modifier = n[2].op == DICE_OP_ADD ? n[1].num : -n[1].num;
    }
    s.count = e->terms[n[0].term].count;
    s.sides = e->terms[n[0].term].sides;
    *out = s;
    return true;
}
