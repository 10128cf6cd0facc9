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
    DICE_T_MIN,                 /* minN, miN: faces below N count as N */
    DICE_T_MAX,                 /* maxN, maN: faces above N count as N */
    /* other bots' words (docs/dice.md, "Other bots' dice") */
    DICE_T_E,                   /* e: explode (once, or Avrae's again) */
    DICE_T_IE,                  /* ie: explode again and again */
    DICE_T_XO,                  /* xo: explode once (Foundry) */
    DICE_T_RR,                  /* rr: reroll again and again */
    DICE_T_IR,                  /* ir: the same, Dice Maiden's spelling */
    DICE_T_RA,                  /* ra: reroll one die and add (Avrae) */
    DICE_T_P,                   /* p: drop by selector (Avrae) */
    DICE_T_PH,
    DICE_T_PL,
    DICE_T_T,                   /* t: target (Dice Maiden) */
    DICE_T_TL,                  /* tl: target, that face or lower */
    DICE_T_DS,                  /* ds: double success */
    DICE_T_B,                   /* b: botch (Dice Maiden) */
    DICE_T_CS,                  /* cs: count successes (Foundry) */
    DICE_T_CF,                  /* cf: count failures (Foundry) */
    DICE_T_EVEN,
    DICE_T_ODD,
    DICE_T_COMMA,
    DICE_T_ANNOT,               /* [text]: a note on a term, skipped */
    DICE_T_LINLINE,             /* [[ of an inline roll */
    DICE_T_RINLINE,             /* ]] */
    /* Dice Maiden's aliases for plain dice (dice_alias.c) */
    DICE_T_COD,                 /* 4cod, 4cod8, 4codr */
    DICE_T_WOD,                 /* 4wod8 */
    DICE_T_WH,                  /* 3wh4+ */
    DICE_T_YZ,                  /* 6yz */
    DICE_T_SR,                  /* sr6 */
    DICE_T_SP,                  /* sp4 */
    DICE_T_SNM,                 /* snm5 */
};

/* Is k one of Dice Maiden's aliases? Those from DICE_T_COD to DICE_T_YZ
 * follow a count ("4cod"); the others take theirs after ("sr6"). */
static inline bool dice__is_alias(enum dice_tok_kind k)
{
    return k >= DICE_T_COD && k <= DICE_T_SNM;
}

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

/* s in the reader's language (diag's translator), or s itself: a format
 * keeps its conversions, so the compiler checks the call as the literal. */
const char *dice__tr(const struct dice_diag *diag, const char *s)
    __attribute__((format_arg(2)));

/* Report a limit: "too many dice (limit is 1000)" (what translated). */
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
    DICE_OP_CMP,                /* Avrae's comparison of totals: num holds
                                 * the enum dice_cmp; pushes 1 or 0 */
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
    DICE_CMP_NE,
    DICE_CMP_EVEN,
    DICE_CMP_ODD,
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
    DICE_DROP_LOW,              /* dlN, dN, plN */
    DICE_KEEP_MATCH,            /* Avrae's k3, k>3: keep the dice matching
                                 * keep_sel */
    DICE_DROP_MATCH,            /* Avrae's p3, p<3 */
};

/* Work a term needs beyond rolling, keeping and summing (dice_term.extras). */
enum dice_extra {
    DICE_EXTRA_MARKS = 1u << 0,   /* botches or Roll20's critical marks */
    DICE_EXTRA_ADD = 1u << 1,     /* Avrae's ra */
    DICE_EXTRA_CHAINS = 1u << 2,  /* compounding: keep and count chains */
};

enum dice_explode {
    DICE_EXPLODE_AGAIN,         /* !, ie, x, Avrae's e: bonus dice explode too */
    DICE_EXPLODE_ONCE,          /* e, xo: one bonus die at most per die */
    DICE_EXPLODE_COMPOUND,      /* !!: the chain adds up to one die */
    DICE_EXPLODE_PENETRATE,     /* !p: each bonus die counts one less */
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
    uint8_t explode_kind;       /* enum dice_explode, with explode */
    uint8_t extras;             /* enum dice_extra: set once parsed, so a
                                 * plain term pays one test for them all */
    bool count_failures;        /* cf: the value is the failures alone */
    struct dice_cond explode, reroll, success, failure;
    struct dice_cond keep_sel;  /* DICE_KEEP_MATCH, DICE_DROP_MATCH */
    struct dice_cond reroll_add;  /* ra: first die matching gets a bonus */
    struct dice_cond twice;     /* ds: a success matching counts twice */
    struct dice_cond botch;     /* b: counted as botches, not subtracted */
    struct dice_cond crit, fumble;  /* Roll20's cs, cf: marks only */
    uint16_t pos, len;          /* the term's text */
};

struct dice_expr {
    const struct dice_node *nodes;
    const struct dice_term *terms;
    uint16_t n_nodes, n_terms;
    uint16_t repeat;
    uint16_t expr_pos, expr_len;
    uint16_t label_pos, label_len;
    uint32_t notes;             /* enum dice_note bits */
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
    uint16_t annot_end;         /* end of the last [note] skipped */
    struct dice_diag *diag;
    uint8_t dialect;            /* enum dice_dialect */
    int depth;
    int n_operands;             /* numbers and dice terms, for the limit */
    int32_t n_dice;             /* dice known before rolling */
    struct dice_expr expr;      /* points into nodes[] and terms[] below */
    struct dice_node nodes[DICE_MAX_NODES];
    struct dice_term terms[DICE_MAX_TERMS];
};

#define TRY(x)                                                              \
    do {                                                                    \
        enum eng_err try_err_ = (x);                                        \
        if (try_err_ != ENG_OK)                                             \
            return try_err_;                                                \
    } while (0)

/* Parser helpers shared by dice_parse.c and dice_mod.c (dice_parse.c). */
enum eng_err dice__next(struct dice_parser *p);
void dice__note(struct dice_parser *p, enum dice_note n);
bool dice__dialect_is(const struct dice_parser *p, enum dice_dialect d);
bool dice__adjacent(const struct dice_parser *p);
enum eng_err dice__fail_at(struct dice_parser *p, enum eng_err code,
                           const struct dice_tok *t, const char *what);
enum eng_err dice__unexpected(struct dice_parser *p);
enum eng_err dice__add_dice(struct dice_parser *p, int32_t n, size_t pos,
                            size_t len);
enum eng_err dice__read_count(struct dice_parser *p, const struct dice_tok *t,
                              int64_t limit, const char *too_many,
                              const char *too_few, int32_t *out);
bool dice__is_cmp(enum dice_tok_kind k);
enum eng_err dice__parse_cond(struct dice_parser *p, struct dice_cond *c,
                              uint8_t bare);
enum eng_err dice__opt_cond(struct dice_parser *p, struct dice_cond *c,
                            uint8_t bare, struct dice_cond dflt);

/* The modifiers of a dice term (dice_mod.c): read one into t, or set
 * *more false when the current token is none. */
enum eng_err dice__parse_modifier(struct dice_parser *p, struct dice_term *t,
                                  bool *more);
/* Dice Maiden's alias at the current token into t (dice_alias.c): its
 * dice, target, explosion and failures, reading the number after it. A
 * count before it was read into t->count already when counted. */
enum eng_err dice__parse_alias(struct dice_parser *p, struct dice_term *t,
                               bool counted);

/* Is t a single d20 with no keep/drop, as adv and dis need? */
bool dice__is_single_d20(const struct dice_term *t);
/* Turn t into two d20, keeping the higher (adv at) or the lower. */
enum eng_err dice__apply_adv(struct dice_parser *p, struct dice_term *t,
                             const struct dice_tok *at);

/* Parse src into p (dice_parse.c). p->expr is valid on ENG_OK. */
enum eng_err dice__parse_into(struct dice_parser *p, const char *src,
                              size_t len, enum dice_dialect dialect,
                              struct dice_diag *diag);

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
    case DICE_CMP_NE:
        return v != c.value;
    case DICE_CMP_EVEN:
        return (v & 1) == 0;
    case DICE_CMP_ODD:
        return (v & 1) != 0;
    }
    return false;
}

#endif
