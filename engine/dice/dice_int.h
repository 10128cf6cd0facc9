/*
 * dice_int.h - private to dice_*.c: tokens, the compact parsed form, and
 * the helpers the lexer, parser, roller and bounds share.
 *
 * A parsed expression is a postfix (RPN) array of nodes plus an array of
 * dice terms, held in one allocation (dice_parse) or on the stack
 * (dice_eval_string). Rolling walks the nodes once with a small value stack.
 * Ownership as in dice.h: nothing here allocates except dice_parse().
 */
#ifndef DICE_INT_H
#define DICE_INT_H

#include <stdarg.h>

#include "dice.h"

/* ---- lexer (dice_lex.c) ------------------------------------------------- */

enum dice_tok_kind {
    DICE_T_END,
    DICE_T_NUM,
    DICE_T_PLUS,
    DICE_T_MINUS,
    DICE_T_STAR,
    DICE_T_SLASH,
    DICE_T_LPAREN,
    DICE_T_RPAREN,
    DICE_T_BANG,
    DICE_T_PERCENT,
    DICE_T_HASH,
    DICE_T_EQ,
    DICE_T_LT,
    DICE_T_LE,
    DICE_T_GT,
    DICE_T_GE,
    /* words, matched case-insensitively, longest first */
    DICE_T_D,                   /* d or D: tok.upper tells which */
    DICE_T_DF,                  /* dF: Fudge dice */
    DICE_T_KH,
    DICE_T_KL,
    DICE_T_K,                   /* same as kh */
    DICE_T_DH,
    DICE_T_DL,
    DICE_T_R,
    DICE_T_RO,
    DICE_T_F,                   /* failures */
    DICE_T_X,                   /* repeat prefix */
    DICE_T_ADV,
    DICE_T_DIS,
    DICE_T_MIN,                 /* minN: faces below N count as N */
    DICE_T_MAX,                 /* maxN: faces above N count as N */
};

struct dice_tok {
    enum dice_tok_kind kind;
    uint16_t pos, len;
    bool upper;                 /* DICE_T_D written as capital D */
    bool too_big;               /* DICE_T_NUM did not fit in int64 */
    int64_t num;                /* DICE_T_NUM value */
};

struct dice_lexer {
    const char *src;
    size_t len;
    size_t at;                  /* next byte to read */
};

static inline bool dice__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

/* Check the whole input before any parsing: not empty, at most
 * DICE_MAX_EXPR_LEN bytes, no NUL, valid UTF-8. */
enum eng_err dice__check_input(const char *src, size_t len,
                               struct dice_diag *diag);

/* Read the next token into *t. Returns ENG_SYNTAX (with diag) on a
 * character that starts no token. */
enum eng_err dice__lex(struct dice_lexer *lx, struct dice_tok *t,
                       struct dice_diag *diag);

/* Fill diag (if not NULL) and return code: the one place messages are
 * formatted, so they share one shape. */
enum eng_err dice__fail(struct dice_diag *diag, enum eng_err code, size_t pos,
                        size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Report a limit: "too many dice (limit is 1000)". */
enum eng_err dice__limit(struct dice_diag *diag, size_t pos, size_t len,
                         const char *what, long limit);

/* ---- parsed form --------------------------------------------------------- */

enum dice_op {
    DICE_OP_NUM,                /* push num */
    DICE_OP_DICE,               /* roll terms[term], push its subtotal */
    DICE_OP_NEG,
    DICE_OP_ADD,
    DICE_OP_SUB,
    DICE_OP_MUL,
    DICE_OP_DIV,
};

struct dice_node {
    uint8_t op;                 /* enum dice_op */
    uint16_t pos, len;          /* source span, for runtime errors */
    uint16_t term;              /* DICE_OP_DICE: index into terms */
    int64_t num;                /* DICE_OP_NUM: the value */
};

enum dice_cmp {
    DICE_CMP_NONE,              /* no condition */
    DICE_CMP_EQ,
    DICE_CMP_LT,
    DICE_CMP_LE,
    DICE_CMP_GT,
    DICE_CMP_GE,
};

struct dice_cond {
    uint8_t cmp;                /* enum dice_cmp */
    int32_t value;
};

enum dice_keep {
    DICE_KEEP_ALL,
    DICE_KEEP_HIGH,             /* khN, kN */
    DICE_KEEP_LOW,              /* klN */
    DICE_DROP_HIGH,             /* dhN */
    DICE_DROP_LOW,              /* dlN */
};

struct dice_term {
    int32_t count;              /* dice rolled before explosions/rerolls */
    int32_t sides;              /* faces per die */
    int32_t face_min;           /* 1, or -1 for Fudge dice */
    int32_t keep_n;             /* with keep != DICE_KEEP_ALL */
    uint8_t keep;               /* enum dice_keep */
    bool reroll_once;           /* roN: at most one reroll per die */
    bool has_min, has_max;      /* minN, maxN written */
    int32_t raise_to;           /* minN: N, else face_min */
    int32_t lower_to;           /* maxN: N, else the top face */
    struct dice_cond explode, reroll, success, failure;
    uint16_t pos, len;          /* the term's text */
};

struct dice_expr {
    const struct dice_node *nodes;
    const struct dice_term *terms;
    uint16_t n_nodes, n_terms;
    uint16_t repeat;
    uint16_t expr_pos, expr_len;
    uint16_t label_pos, label_len;
    char label[DICE_MAX_LABEL + 1];
};

/* Every node stands for at least one source byte, so this many always
 * suffice. */
#define DICE_MAX_NODES DICE_MAX_EXPR_LEN

/* Parser state, with room for the largest expression: dice_parse() copies
 * the used part into one allocation, dice_eval_string() rolls it in place. */
struct dice_parser {
    struct dice_lexer lx;
    struct dice_tok tok;        /* current token */
    uint16_t prev_end;          /* end of the token before it */
    struct dice_diag *diag;
    int depth;
    int n_operands;             /* numbers and dice terms, for the limit */
    int32_t n_dice;             /* dice known before rolling */
    struct dice_expr expr;      /* points into nodes[] and terms[] below */
    struct dice_node nodes[DICE_MAX_NODES];
    struct dice_term terms[DICE_MAX_TERMS];
};

/* Parse src into p (dice_parse.c). p->expr is valid on ENG_OK. */
enum eng_err dice__parse_into(struct dice_parser *p, const char *src,
                              size_t len, struct dice_diag *diag);

/* Does face v satisfy condition c? (false for DICE_CMP_NONE) */
static inline bool dice__match(struct dice_cond c, int32_t v)
{
    switch ((enum dice_cmp)c.cmp) {
    case DICE_CMP_NONE:
        return false;
    case DICE_CMP_EQ:
        return v == c.value;
    case DICE_CMP_LT:
        return v < c.value;
    case DICE_CMP_LE:
        return v <= c.value;
    case DICE_CMP_GT:
        return v > c.value;
    case DICE_CMP_GE:
        return v >= c.value;
    }
    return false;
}

#endif
