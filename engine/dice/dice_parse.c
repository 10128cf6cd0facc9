/*
 * dice_parse.c - recursive-descent parser from source to the postfix form.
 *
 * Each parse function opens with its production. Depth (parentheses and
 * unary signs) is bounded by DICE_MAX_DEPTH, so recursion on the C stack is
 * too. Every limit is checked as soon as the number it limits is read,
 * before anything is rolled.
 */
#include "dice_int.h"

#include <string.h>

#include "eng_alloc.h"

/* A span shown inside a message is clipped so the message fits. */
#define DICE_MSG_SPAN 24


/* Read the next token. A note in brackets ("3d6 [fire]") is skipped:
 * it stays in the source, which the result's spans show around it. */
enum eng_err dice__next(struct dice_parser *p)
{
    p->prev_end = (uint16_t)(p->tok.pos + p->tok.len);
    for (;;) {
        TRY(dice__lex(&p->lx, &p->tok, p->diag));
        if (p->tok.kind != DICE_T_ANNOT)
            return ENG_OK;
        p->annot_end = (uint16_t)(p->tok.pos + p->tok.len);
    }
}

/* Where the expression ends: after the last token, or after the notes in
 * brackets that follow it ("1d4 [piercing]"). */
static uint16_t expr_end(const struct dice_parser *p)
{
    bool noted = p->annot_end > p->prev_end && p->annot_end <= p->tok.pos;
    return noted ? p->annot_end : p->prev_end;
}

void dice__note(struct dice_parser *p, enum dice_note n)
{
    p->expr.notes |= (uint32_t)n;
}

bool dice__dialect_is(const struct dice_parser *p, enum dice_dialect d)
{
    return p->dialect == (uint8_t)d;
}

/* Does the current token follow the previous one without a space? */
bool dice__adjacent(const struct dice_parser *p)
{
    return p->tok.pos == p->prev_end;
}

/* "`kl` is a second keep or drop at column 7" about token t, or
 * "unexpected `kl` at column 7" when what is NULL. Long spans are clipped
 * so that the message fits. */
enum eng_err dice__fail_at(struct dice_parser *p, enum eng_err code,
                            const struct dice_tok *t, const char *what)
{
    bool clip = t->len > DICE_MSG_SPAN;
    int shown = clip ? DICE_MSG_SPAN : (int)t->len;
    const char *text = p->lx.src + t->pos, *more = clip ? "..." : "";
    if (what == NULL)
        return dice__fail(p->diag, code, t->pos, t->len,
                          "unexpected `%.*s%s` at column %u", shown, text,
                          more, t->pos + 1u);
    /* what is a predicate of the span ("is a second keep or drop"), its
     * own catalog message */
    return dice__fail(p->diag, code, t->pos, t->len,
                      "`%.*s%s` %s at column %u", shown, text, more,
                      dice__tr(p->diag, what), t->pos + 1u);
}

enum eng_err dice__unexpected(struct dice_parser *p)
{
    const struct dice_tok *t = &p->tok;
    if (t->kind == DICE_T_END)
        return dice__fail(p->diag, ENG_SYNTAX, t->pos, 0,
                          "unexpected end of expression at column %u",
                          t->pos + 1u);
    /* every other modifier is also a comparison, a sign or a letter that
     * reads differently out of place; min and max can only be misplaced */
    if (t->kind == DICE_T_MIN || t->kind == DICE_T_MAX)
        return dice__fail_at(p, ENG_SYNTAX, t, "applies to dice only");
    return dice__fail_at(p, ENG_SYNTAX, t, NULL);
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
enum eng_err dice__add_dice(struct dice_parser *p, int32_t n, size_t pos,
                             size_t len)
{
    p->n_dice += n;
    if (p->n_dice > DICE_MAX_DICE)
        return dice__limit(p->diag, pos, len, "too many dice", DICE_MAX_DICE);
    return ENG_OK;
}

/* Read a count that must lie in [1, limit]: dice, sides, keep, repeat. */
enum eng_err dice__read_count(struct dice_parser *p, const struct dice_tok *t,
                               int64_t limit, const char *too_many,
                               const char *too_few, int32_t *out)
{
    *out = 0;   /* set on every path: callers read it only on ENG_OK, but
                   -O3 cannot always see that */
    if (t->too_big || t->num > limit)
        return dice__limit(p->diag, t->pos, t->len, too_many, (long)limit);
    if (t->num < 1)
        return dice__fail(p->diag, ENG_RANGE, t->pos, t->len,
                          "%s at column %u", dice__tr(p->diag, too_few),
                          t->pos + 1u);
    *out = (int32_t)t->num;
    return ENG_OK;
}

bool dice__is_cmp(enum dice_tok_kind k)
{
    return k == DICE_T_EQ || k == DICE_T_LT || k == DICE_T_LE ||
           k == DICE_T_GT || k == DICE_T_GE;
}

/* cond -> ('=' | '<' | '<=' | '>' | '>=') '-'? NUM | '-'? NUM
 * A bare number compares as bare says (DICE_CMP_EQ for "r1", DICE_CMP_GE
 * for Dice Maiden's "e6"); with bare DICE_CMP_NONE the operator is
 * required. */
enum eng_err dice__parse_cond(struct dice_parser *p, struct dice_cond *c,
                               uint8_t bare)
{
    static const uint8_t cmp_of[] = {
        [DICE_T_EQ] = DICE_CMP_EQ, [DICE_T_LT] = DICE_CMP_LT,
        [DICE_T_LE] = DICE_CMP_LE, [DICE_T_GT] = DICE_CMP_GT,
        [DICE_T_GE] = DICE_CMP_GE,
    };
    c->cmp = bare;
    if (dice__is_cmp(p->tok.kind)) {
        c->cmp = cmp_of[p->tok.kind];
        TRY(dice__next(p));
    } else if (bare == DICE_CMP_NONE)
        return dice__unexpected(p);
    bool neg = p->tok.kind == DICE_T_MINUS;
    if (neg)
        TRY(dice__next(p));
    if (p->tok.kind != DICE_T_NUM)
        return dice__unexpected(p);
    if (p->tok.too_big || p->tok.num > INT32_MAX)
        return dice__fail_at(p, ENG_OVERFLOW, &p->tok, "is too large");
    c->value = neg ? -(int32_t)p->tok.num : (int32_t)p->tok.num;
    return dice__next(p);
}

/* A condition that may be left out: cond, or dflt when no comparison or
 * number follows. */
enum eng_err dice__opt_cond(struct dice_parser *p, struct dice_cond *c,
                             uint8_t bare, struct dice_cond dflt)
{
    if (dice__is_cmp(p->tok.kind) || p->tok.kind == DICE_T_NUM)
        return dice__parse_cond(p, c, bare);
    *c = dflt;
    return ENG_OK;
}

/* dice -> NUM? ('d' | 'D') (NUM | '%')? modifier* | NUM? 'dF' modifier*
 *       | alias modifier*
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
    /* a copy of a blank term, not memset: at this size memset becomes
     * "rep stos", whose start-up cost was a fifth of parsing "1d20" */
    static const struct dice_term blank;
    *t = blank;
    t->count = 1;
    if (count != NULL)
        TRY(dice__read_count(p, count, DICE_MAX_DICE, "too many dice",
                       N_("need at least 1 die"), &t->count));
    t->face_min = 1;
    if (dice__is_alias(p->tok.kind)) {
        TRY(dice__parse_alias(p, t, count != NULL));
    } else if (p->tok.kind == DICE_T_DF) {
        t->sides = 3;
        t->face_min = -1;
        TRY(dice__next(p));
    } else {
        bool upper = p->tok.upper;
        TRY(dice__next(p));
        if (p->tok.kind == DICE_T_NUM) {
            TRY(dice__read_count(p, &p->tok, DICE_MAX_SIDES, "too many sides",
                           N_("need at least 1 side"), &t->sides));
            TRY(dice__next(p));
        } else if (p->tok.kind == DICE_T_PERCENT) {
            t->sides = 100;
            TRY(dice__next(p));
        } else if (upper)
            t->sides = 6;
        else
            return dice__unexpected(p);
    }
    t->raise_to = t->face_min;
    t->lower_to = t->face_min + t->sides - 1;
    TRY(dice__add_dice(p, t->count, start, p->prev_end - start));
    for (bool more = true; more;)
        TRY(dice__parse_modifier(p, t, &more));
    /* "1d10t10" in Sidekick, "10d10ds10": the doubled face succeeds */
    if (t->twice.cmp != DICE_CMP_NONE && t->success.cmp == DICE_CMP_NONE)
        t->success = t->twice;
    t->extras = (uint8_t)(
        (t->botch.cmp != DICE_CMP_NONE || t->crit.cmp != DICE_CMP_NONE ||
                 t->fumble.cmp != DICE_CMP_NONE
             ? DICE_EXTRA_MARKS : 0) |
        (t->reroll_add.cmp != DICE_CMP_NONE ? DICE_EXTRA_ADD : 0) |
        (t->explode.cmp != DICE_CMP_NONE &&
                 t->explode_kind == DICE_EXPLODE_COMPOUND
             ? DICE_EXTRA_CHAINS : 0));
    t->pos = start;
    t->len = (uint16_t)(p->prev_end - start);
    struct dice_tok whole = {.pos = start,
                             .len = (uint16_t)(p->prev_end - start)};
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
        TRY(dice__next(p));
        TRY(parse_expr(p));
        if (p->tok.kind == DICE_T_END)
            return dice__fail(p->diag, ENG_SYNTAX, t.pos, 1,
                              "unclosed `(` at column %u", t.pos + 1u);
        if (p->tok.kind != DICE_T_RPAREN)
            return dice__unexpected(p);
        p->depth--;
        return dice__next(p);
    case DICE_T_NUM:
        TRY(dice__next(p));
        if (p->tok.kind == DICE_T_D || p->tok.kind == DICE_T_DF ||
            (dice__is_alias(p->tok.kind) && dice__adjacent(p)))
            return parse_dice(p, &t);
        TRY(count_operand(p, &t));
        if (t.too_big)
            return dice__fail_at(p, ENG_OVERFLOW, &t, "is too large");
        return emit(p, DICE_OP_NUM, &t, t.num, 0);
    case DICE_T_D:
    case DICE_T_DF:
        return parse_dice(p, NULL);
    default:
        if (dice__is_alias(t.kind))
            return parse_dice(p, NULL);
        return dice__unexpected(p);
    }
}

/* Dice Maiden's "+d20" and "-d20" at the start of an expression: two
 * dice, keep the higher (lower). fray reads "+d20" so; "-d20" only in Dice
 * Maiden's dialect (elsewhere it is a negative die). sign is the '+' or
 * '-' just read, the current token the 'd' right after it. */
static enum eng_err parse_maiden_adv(struct dice_parser *p,
                                     const struct dice_tok *sign,
                                     bool *negate)
{
    bool maiden = dice__dialect_is(p, DICE_DIALECT_DICE_MAIDEN);
    bool plus = sign->kind == DICE_T_PLUS;
    uint16_t idx = p->expr.n_terms;
    TRY(parse_dice(p, NULL));
    struct dice_term *t = &p->terms[idx];
    bool bare = t->count == 1 && t->face_min == 1 && t->sides > 1 &&
                t->keep == DICE_KEEP_ALL;
    *negate = !plus;
    if (!bare)
        return ENG_OK;
    if (!plus && !maiden) {
        if (dice__dialect_is(p, DICE_DIALECT_FRAY))
            dice__note(p, DICE_NOTE_MINUS_NEG);
        return ENG_OK;
    }
    if (plus && !maiden && !dice__dialect_is(p, DICE_DIALECT_FRAY))
        return ENG_OK;
    dice__note(p, plus ? DICE_NOTE_PLUS_ADV : DICE_NOTE_MINUS_DIS);
    *negate = false;
    t->count = 2;
    t->keep = plus ? DICE_KEEP_HIGH : DICE_KEEP_LOW;
    t->keep_n = 1;
    return dice__add_dice(p, 1, sign->pos, sign->len);
}

/* unary -> ('-' | '+') unary | primary */
static enum eng_err parse_unary(struct dice_parser *p)
{
    struct dice_tok t = p->tok;
    if (t.kind != DICE_T_MINUS && t.kind != DICE_T_PLUS)
        return parse_primary(p);
    bool first = t.pos == p->expr.expr_pos && p->expr.n_nodes == 0;
    TRY(enter(p));
    TRY(dice__next(p));
    bool negate = t.kind == DICE_T_MINUS;
    if (first && dice__adjacent(p) && p->tok.kind == DICE_T_D && !p->tok.upper)
        TRY(parse_maiden_adv(p, &t, &negate));
    else
        TRY(parse_unary(p));
    p->depth--;
    return negate ? emit(p, DICE_OP_NEG, &t, 0, 0) : ENG_OK;
}

/* mul -> unary (('*' | '/') unary)* */
static enum eng_err parse_mul(struct dice_parser *p)
{
    TRY(parse_unary(p));
    while (p->tok.kind == DICE_T_STAR || p->tok.kind == DICE_T_SLASH) {
        struct dice_tok op = p->tok;
        TRY(dice__next(p));
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
        TRY(dice__next(p));
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
        if (!dice__is_single_d20(&p->terms[i]))
            continue;
        if (found != NULL)
            return dice__fail_at(p, ENG_SYNTAX, at, "is ambiguous with two 1d20");
        found = &p->terms[i];
    }
    if (found == NULL)
        return dice__fail_at(p, ENG_SYNTAX, at, "needs a 1d20 to apply to");
    return dice__apply_adv(p, found, at);
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
    return dice__next(p);
}

/* Does the source open with a repeat prefix, digits then 'x' (*x set),
 * or Dice Maiden's sets, "6 4d6" (digits, a space, then digits or '(';
 * in Dice Maiden's dialect "6 d20" as well)? Looking at the bytes spares
 * lexing the token after the number twice. */
static bool has_repeat(const struct dice_lexer *lx, bool maiden, bool *x)
{
    const char *s = lx->src;
    size_t i = lx->at, n = lx->len, digits;
    *x = false;
    while (i < n && dice__is_space(s[i]))
        i++;
    for (digits = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        ;
    if (i == digits)
        return false;
    size_t end = i;
    while (i < n && dice__is_space(s[i]))
        i++;
    if (i < n && (s[i] == 'x' || s[i] == 'X'))
        return *x = true;
    if (i == end || i == n)
        return false;
    return (s[i] >= '0' && s[i] <= '9') || s[i] == '(' ||
           (maiden && (s[i] == 'd' || s[i] == 'D'));
}

/* The first byte of the source at the lexer after spaces, 0 at its end. */
static char first_byte(const struct dice_lexer *lx)
{
    size_t i = lx->at;
    while (i < lx->len && dice__is_space(lx->src[i]))
        i++;
    return i < lx->len ? lx->src[i] : 0;
}

/* Does the source at the lexer open with the word w (lowercase, any case)
 * and then, after spaces, the byte c? Sets *after past c. */
static bool opens_with(const struct dice_lexer *lx, const char *w, char c,
                       size_t *after)
{
    const char *s = lx->src;
    size_t i = lx->at, n = lx->len;
    while (i < n && dice__is_space(s[i]))
        i++;
    for (; *w != '\0'; w++, i++)
        if (i >= n || (s[i] | 0x20) != *w)
            return false;
    while (i < n && dice__is_space(s[i]))
        i++;
    if (c != 0 && (i >= n || s[i] != c))
        return false;
    *after = c != 0 ? i + 1 : i;
    return true;
}

/* The comparison a token (and the one after it) spells in Avrae's d20, or
 * DICE_CMP_NONE: '==' or '=', '!=', '<', '<=', '>', '>='. */
static uint8_t cmp_at(const struct dice_parser *p)
{
    const char *s = p->lx.src;
    switch (p->tok.kind) {
    case DICE_T_EQ:
        return DICE_CMP_EQ;
    case DICE_T_LT:
        return DICE_CMP_LT;
    case DICE_T_LE:
        return DICE_CMP_LE;
    case DICE_T_GT:
        return DICE_CMP_GT;
    case DICE_T_GE:
        return DICE_CMP_GE;
    case DICE_T_BANG:
        return p->lx.at < p->lx.len && s[p->lx.at] == '=' ? DICE_CMP_NE
                                                          : DICE_CMP_NONE;
    default:
        return DICE_CMP_NONE;
    }
}

/* cmp -> expr (('==' | '!=' | '<' | '<=' | '>' | '>=') expr)?
 * Avrae's dialect only: a comparison of totals, 1 or 0. */
static enum eng_err parse_cmp(struct dice_parser *p)
{
    TRY(parse_expr(p));
    uint8_t c = cmp_at(p);
    if (!dice__dialect_is(p, DICE_DIALECT_AVRAE) || c == DICE_CMP_NONE)
        return ENG_OK;
    struct dice_tok op = p->tok;
    TRY(dice__next(p));
    /* the second '=' of "==" and the '=' of "!=" */
    if ((c == DICE_CMP_EQ || c == DICE_CMP_NE) && dice__adjacent(p) &&
        p->tok.kind == DICE_T_EQ) {
        op.len = (uint16_t)(p->tok.pos + p->tok.len - op.pos);
        TRY(dice__next(p));
    }
    TRY(parse_expr(p));
    dice__note(p, DICE_NOTE_CMP_TOTAL);
    return emit(p, DICE_OP_CMP, &op, c, 0);
}

/* body -> cmp ('adv' | 'dis')? */
static enum eng_err parse_body(struct dice_parser *p)
{
    TRY(parse_cmp(p));
    if (p->tok.kind == DICE_T_ADV || p->tok.kind == DICE_T_DIS) {
        struct dice_tok at = p->tok;
        TRY(apply_trailing_adv(p, &at));
        TRY(dice__next(p));
    }
    return ENG_OK;
}

/* repeat -> NUM 'x' | NUM (NUM | '(')    (Dice Maiden's sets: "6 4d6")
 * The count, already the current token, as the expression's repeat. */
static enum eng_err parse_repeat(struct dice_parser *p, bool x)
{
    struct dice_tok num = p->tok;
    int32_t n;
    TRY(dice__read_count(p, &num, DICE_MAX_REPEAT, "too many repeats",
                   N_("need at least 1 repeat"), &n));
    p->expr.repeat = (uint16_t)n;
    if (x)
        TRY(dice__next(p));           /* the x */
    return dice__next(p);
}

/* sidekick -> 'repeat' '(' body ',' NUM ')'    (Sidekick's repeat) */
static enum eng_err parse_sidekick_repeat(struct dice_parser *p, size_t at)
{
    p->lx.at = at;
    TRY(dice__next(p));
    p->expr.expr_pos = p->tok.pos;
    TRY(parse_body(p));
    p->expr.expr_len = (uint16_t)(expr_end(p) - p->expr.expr_pos);
    if (p->tok.kind != DICE_T_COMMA)
        return dice__unexpected(p);
    TRY(dice__next(p));
    if (p->tok.kind != DICE_T_NUM)
        return dice__unexpected(p);
    TRY(parse_repeat(p, false));
    if (p->tok.kind == DICE_T_COMMA)
        return dice__fail_at(p, ENG_SYNTAX, &p->tok,
                       "starts Sidekick's options, which fray does not read "
                       "(it shows every roll)");
    if (p->tok.kind != DICE_T_RPAREN)
        return dice__unexpected(p);
    return dice__next(p);
}

/* inline -> '[[' ('/r' | '/roll')? body ']]'    (Roll20's and Foundry's)
 * Narrows the lexer to the inside of the brackets when the source, which
 * opens with '[', is one inline roll; false otherwise. */
static bool open_inline(struct dice_parser *p)
{
    size_t at, end = p->lx.len;
    const char *s = p->lx.src;
    if (!opens_with(&p->lx, "", '[', &at) || at >= end || s[at] != '[')
        return false;
    while (end > at && dice__is_space(s[end - 1]))
        end--;
    if (end < at + 3 || s[end - 1] != ']' || s[end - 2] != ']')
        return false;
    p->lx.at = at + 1;
    p->lx.len = end - 2;
    /* Foundry's "[[/r 1d20]]": the command, then a space */
    static const char *const cmds[] = {"/roll", "/r"};
    for (size_t c = 0; c < 2; c++) {
        size_t after;
        if (opens_with(&p->lx, cmds[c], 0, &after) && after < p->lx.len &&
            dice__is_space(s[after - 1])) {
            p->lx.at = after;
            break;
        }
    }
    return true;
}

/* Does the source open with Dice Maiden's "dndstats", a word of its own?
 * Sets *at to its first byte. */
static bool is_dndstats(const struct dice_lexer *lx, size_t *at)
{
    size_t i = lx->at, end;
    while (i < lx->len && dice__is_space(lx->src[i]))
        i++;
    if (!opens_with(lx, "dndstats", 0, &end))
        return false;
    size_t w = i + 8;
    char next = w < lx->len ? lx->src[w] : ' ';
    *at = i;
    return dice__is_space(next) || next == '#';
}

/* dndstats -> 'dndstats'    (Dice Maiden's "6 4d6 k3": six ability
 * scores) The word stands for the term, so the result shows it. */
static enum eng_err parse_dndstats(struct dice_parser *p, size_t at)
{
    struct dice_tok word = {.pos = (uint16_t)at, .len = 8};
    TRY(count_operand(p, &word));
    struct dice_term *t = &p->terms[p->expr.n_terms];
    static const struct dice_term blank;
    *t = blank;
    t->count = 4;
    t->sides = 6;
    t->face_min = t->raise_to = 1;
    t->lower_to = 6;
    t->keep = DICE_KEEP_HIGH;
    t->keep_n = 3;
    t->pos = word.pos;
    t->len = word.len;
    TRY(dice__add_dice(p, 4, at, 8));
    TRY(emit(p, DICE_OP_DICE, &word, 0, p->expr.n_terms));
    p->expr.n_terms++;
    p->expr.repeat = 6;
    p->expr.expr_pos = word.pos;
    p->expr.expr_len = word.len;
    p->lx.at = at + 8;
    p->tok = word;
    return dice__next(p);
}

/* input -> inline | (repeat | sidekick)? body (('#' | DM '!') label)? END
 *        | 'dndstats' ('#' label)? END
 * What the input opens with is decided from its first byte, so a plain
 * expression pays one look for all three. */
static enum eng_err parse_input(struct dice_parser *p)
{
    size_t at;
    bool maiden = dice__dialect_is(p, DICE_DIALECT_DICE_MAIDEN), x;
    char c = first_byte(&p->lx);
    if (c == '[' && open_inline(p))
        c = first_byte(&p->lx);
    if ((c == 'r' || c == 'R') && opens_with(&p->lx, "repeat", '(', &at)) {
        TRY(parse_sidekick_repeat(p, at));
    } else if ((c == 'd' || c == 'D') && is_dndstats(&p->lx, &at)) {
        TRY(parse_dndstats(p, at));
    } else {
        bool rep = c >= '0' && c <= '9' && has_repeat(&p->lx, maiden, &x);
        TRY(dice__next(p));
        if (rep)
            TRY(parse_repeat(p, x));
        p->expr.expr_pos = p->tok.pos;
        TRY(parse_body(p));
        p->expr.expr_len = (uint16_t)(expr_end(p) - p->expr.expr_pos);
    }
    if (p->tok.kind == DICE_T_BANG && maiden) {
        dice__note(p, DICE_NOTE_BANG_COMMENT);
        TRY(parse_label(p));
    } else if (p->tok.kind == DICE_T_HASH)
        TRY(parse_label(p));
    if (p->tok.kind != DICE_T_END)
        return dice__unexpected(p);
    return ENG_OK;
}

enum eng_err dice__parse_into(struct dice_parser *p, const char *src,
                              size_t len, enum dice_dialect dialect,
                              struct dice_diag *diag)
{
    p->lx = (struct dice_lexer){.src = src, .len = len, .at = 0};
    p->tok = (struct dice_tok){.kind = DICE_T_END};
    p->prev_end = 0;
    p->annot_end = 0;
    p->diag = diag;
    p->dialect = (uint8_t)(dialect < DICE_DIALECT_COUNT ? dialect
                                                         : DICE_DIALECT_FRAY);
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
    p->expr.notes = 0;
    p->expr.expr_pos = 0;
    TRY(dice__check_input(src, len, diag));
    return parse_input(p);
}

enum eng_err dice_parse(const char *src, size_t len, struct dice_expr **out,
                        struct dice_diag *diag)
{
    return dice_parse_as(src, len, DICE_DIALECT_FRAY, out, diag);
}

enum eng_err dice_parse_as(const char *src, size_t len, enum dice_dialect d,
                           struct dice_expr **out, struct dice_diag *diag)
{
    struct dice_parser p;
    TRY(dice__parse_into(&p, src, len, d, diag));
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
    const struct dice_cond *conds[] = {
        &t->explode, &t->reroll, &t->success, &t->failure, &t->keep_sel,
        &t->reroll_add, &t->twice, &t->botch, &t->crit, &t->fumble,
    };
    for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
        if (conds[i]->cmp != DICE_CMP_NONE)
            return false;
    return t->face_min == 1 && t->keep == DICE_KEEP_ALL && !t->has_min &&
           !t->has_max;
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
