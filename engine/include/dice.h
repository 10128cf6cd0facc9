/*
 * dice.h - the dice language: parse an expression, roll it, bound it.
 *
 * Pure engine code: no I/O, no globals, not thread-safe per object (an
 * expression may be rolled from several threads at once, each with its own
 * RNG and result). The language is described in docs/dice.md; every limit it
 * enforces is named in eng_limits.h and checked before any work is done.
 *
 * Ownership:
 *  - Every pointer argument is borrowed for the duration of the call.
 *  - dice_parse() returns an expression the caller releases with
 *    dice_expr_free(); it copies what it keeps (the label), so the source
 *    may be freed right after parsing. dice_expr_free(NULL) is a no-op.
 *  - struct dice_result is caller-allocated (about 10 KiB: put it on the
 *    heap or reuse one) and holds every die rolled, so rolling never
 *    allocates. Its label pointer borrows from the expression (dice_roll)
 *    or from the source (dice_eval_string).
 *  - On failure *out is untouched; a result's contents are unspecified
 *    after a failed roll.
 *
 * Errors: every fallible function returns an enum eng_err and, when diag is
 * not NULL, fills it with the code, the byte span of the culprit in the
 * source (0-based pos, len) and a lowercase message without a trailing
 * period, such as "unexpected `*` at column 5" or
 * "too many dice (limit is 1000)".
 */
#ifndef DICE_H
#define DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng_err.h"
#include "eng_limits.h"
#include "eng_rng.h"

/* The reader's language for a diag's message: fmt (a printf format, or a
 * phrase the message takes) as the reader reads it, with the same
 * conversions, or fmt itself; static text. The front end passes its
 * catalog lookup in, as enc_diag's translator: the engine stays pure. */
typedef const char *(*dice_tr_fn)(const void *ctx, const char *fmt)
    __attribute__((format_arg(2)));

/* Bytes of a message: the longest English is under 100, a translation
 * (the pseudo-language's 40 % more, two bytes an accented letter) under
 * 300. */
#define DICE_MAX_MSG 320

/* Where and why parsing or rolling failed. msg is always NUL-terminated.
 * The caller sets tr before parsing or rolling: NULL (English, as a
 * zeroed diag has it) or a translator with its tr_ctx; the rest is
 * written on failure. */
struct dice_diag {
    enum eng_err code;
    uint16_t pos, len;          /* culprit: source bytes [pos, pos + len) */
    char msg[DICE_MAX_MSG];
    dice_tr_fn tr;              /* NULL: English */
    const void *tr_ctx;         /* tr's argument (borrowed) */
};

/* A parsed expression: opaque, immutable once parsed. */
struct dice_expr;

/* Whose reading of the dice language to follow where the bots fray's users
 * come from disagree (docs/dice.md, "Other bots' dice"). Every dialect
 * reads every form; they differ only in what a few letters mean, such as
 * whether `e6` explodes once (Dice Maiden) or again and again (Avrae's
 * d20). DICE_DIALECT_FRAY is the default, and what dice_parse() reads. */
enum dice_dialect {
    DICE_DIALECT_FRAY,
    DICE_DIALECT_DICE_MAIDEN,
    DICE_DIALECT_ROLL20,
    DICE_DIALECT_FOUNDRY,
    DICE_DIALECT_AVRAE,
    DICE_DIALECT_SIDEKICK,
    DICE_DIALECT_COUNT
};

/* The dialect's short name ("fray", "dicemaiden", "roll20", "foundry",
 * "avrae", "sidekick"), or NULL if d is out of range. */
const char *dice_dialect_name(enum dice_dialect d);

/* The bot's name as people write it ("Dice Maiden"), or NULL. */
const char *dice_dialect_title(enum dice_dialect d);

/* The dialect named name[0, len), as dice_dialect_name() spells it (any
 * case); false if none is. */
bool dice_dialect_parse(const char *name, size_t len, enum dice_dialect *out);

/* Marks a text the front end translates (bot/base/i18n.h's N_(), which
 * the engine cannot include): extracted into the catalogs, English here. */
#ifndef N_
#define N_(s) s
#endif

/* How fray read a form that another bot reads differently: one bit each,
 * set in dice_result.notes; dice_note_text() says it in words (English, a
 * catalog message: the front end translates it). */
#define DICE_NOTES(X)                                                       \
    X(DICE_NOTE_E_ONCE, N_("`e` read as Dice Maiden's: each die explodes "  \
      "once, on that face or higher (Avrae's `e` explodes again and again " \
      "on that face: fray's `!`)"))                                         \
    X(DICE_NOTE_E_AGAIN, N_("`e` read as Avrae's: a die explodes again and " \
      "again, on that face only (Dice Maiden's `e` explodes once: fray's "  \
      "`e`)"))                                                              \
    X(DICE_NOTE_R_AGAIN, N_("`r` read as Roll20's: a die showing that face " \
      "is rolled again while it does (Foundry rerolls once, Dice Maiden "   \
      "that face or lower once: fray's `ro`)"))                             \
    X(DICE_NOTE_R_ONCE, N_("`r` read as a single reroll (Roll20 rerolls "   \
      "while the die matches: fray's `rr`)"))                               \
    X(DICE_NOTE_AT_MOST, N_("a bare number after `r` or `f` read as Dice "  \
      "Maiden's: that face or lower (elsewhere that face only: fray's "     \
      "`<=`)"))                                                             \
    X(DICE_NOTE_K_HIGHEST, N_("`k` and a number read as keep the highest "  \
      "(Avrae's `k3` keeps the dice showing 3)"))                           \
    X(DICE_NOTE_K_FACE, N_("`k` read as Avrae's: keep the dice showing that " \
      "face (elsewhere `k3` keeps the highest three: fray's `kh3`)"))       \
    X(DICE_NOTE_CMP_COUNT, N_("a comparison after dice counts the dice that " \
      "meet it, as in Roll20 (Avrae's d20 compares the total, 1 or 0)"))    \
    X(DICE_NOTE_CMP_TOTAL, N_("a comparison read as Avrae's: 1 if the "    \
      "totals meet it, else 0 (Roll20 counts the dice that meet it)"))      \
    X(DICE_NOTE_F_EQUAL, N_("`f` and a number read as Roll20's: only that " \
      "face fails (Dice Maiden's `f3` fails 3 or lower: fray's `f<=3`)"))   \
    X(DICE_NOTE_T_TARGET, N_("`t` read as Dice Maiden's target: dice "     \
      "showing that face or higher succeed (Sidekick's `t` counts a face "  \
      "twice: fray's `ds`)"))                                               \
    X(DICE_NOTE_T_TWICE, N_("`t` read as Sidekick's: a die showing that "  \
      "face counts twice (Dice Maiden's `t` is a target)"))                 \
    X(DICE_NOTE_CS_COUNT, N_("`cs`/`cf` read as Foundry's: they count the " \
      "successes or failures (Roll20's only mark critical dice)"))          \
    X(DICE_NOTE_CS_MARK, N_("`cs`/`cf` read as Roll20's: they only mark "   \
      "critical dice (Foundry's count them)"))                              \
    X(DICE_NOTE_PLUS_ADV, N_("`+d20` read as Dice Maiden's advantage: two " \
      "dice, keep the higher (fray: `d20 adv`)"))                           \
    X(DICE_NOTE_MINUS_NEG, N_("`-d20` read as a negative die (Dice Maiden's " \
      "`-d20` is disadvantage: fray's `d20 dis`)"))                         \
    X(DICE_NOTE_MINUS_DIS, N_("`-d20` read as Dice Maiden's disadvantage: " \
      "two dice, keep the lower (fray: `d20 dis`)"))                        \
    X(DICE_NOTE_BANG_EXPLODE, N_("`!` read as an explosion (Dice Maiden "   \
      "starts a comment with `! `: fray's `# `)"))                          \
    X(DICE_NOTE_BANG_COMMENT, N_("`! ` read as Dice Maiden's comment "      \
      "(elsewhere `!` explodes; fray's comment is `# `)"))

#define DICE_NOTE_BIT_(name, text) name##_BIT_,
enum { DICE_NOTES(DICE_NOTE_BIT_) DICE_NOTE_COUNT };
#undef DICE_NOTE_BIT_
#define DICE_NOTE_FLAG_(name, text) name = 1u << name##_BIT_,
enum dice_note { DICE_NOTES(DICE_NOTE_FLAG_) };
#undef DICE_NOTE_FLAG_
_Static_assert(DICE_NOTE_COUNT <= 32, "notes fit dice_result.notes");

/* The words for one note bit (a single enum dice_note), without a trailing
 * period; NULL for anything else. */
const char *dice_note_text(enum dice_note note);

/* Flags on one die of a result. A die "counts" towards its term when it has
 * neither DICE_DIE_DROPPED nor DICE_DIE_REROLLED. */
enum dice_die_flag {
    DICE_DIE_DROPPED = 1u << 0,     /* removed by keep/drop */
    DICE_DIE_REROLLED = 1u << 1,    /* rolled again; the next die replaces it */
    DICE_DIE_EXPLODED = 1u << 2,    /* exploded: the next die was added */
    DICE_DIE_BONUS = 1u << 3,       /* added by an explosion */
    DICE_DIE_SUCCESS = 1u << 4,     /* counted as a success */
    DICE_DIE_FAILURE = 1u << 5,     /* counted as a failure */
    DICE_DIE_MAX = 1u << 6,         /* natural maximum face (not Fudge dice) */
    DICE_DIE_MIN = 1u << 7,         /* natural minimum face (not Fudge dice) */
    DICE_DIE_RAISED = 1u << 8,      /* raised by minN: rolled holds the face */
    DICE_DIE_LOWERED = 1u << 9,     /* lowered by maxN, or by one as a
                                     * penetrating bonus die (!p): rolled
                                     * holds the face */
    DICE_DIE_COMPOUNDED = 1u << 10, /* added into the die before it (!!):
                                     * the chain counts as one die */
    DICE_DIE_BOTCH = 1u << 11,      /* counted as a botch (Dice Maiden's b) */
    DICE_DIE_TWICE = 1u << 12,      /* a success that counts twice (ds) */
};

#define DICE_DIE_UNCOUNTED (DICE_DIE_DROPPED | DICE_DIE_REROLLED)

/* value is what the die counts for; rolled is the face it showed. They
 * differ only on a die flagged DICE_DIE_RAISED or DICE_DIE_LOWERED. The
 * natural-extreme flags (DICE_DIE_MAX, DICE_DIE_MIN) describe rolled. */
struct dice_die {
    int32_t value;              /* the face: 1..sides, or -1/0/+1 for dF */
    uint16_t flags;             /* enum dice_die_flag bits */
    int16_t rolled;             /* the face as rolled, before minN/maxN */
};

_Static_assert(DICE_MAX_SIDES <= INT16_MAX, "a face fits dice_die.rolled");

/* One dice term ("4d6kh3") of a result, in source order. */
struct dice_group {
    uint16_t pos, len;          /* the term's text in the source */
    uint16_t first, count;      /* its dice: result dice[first, first+count) */
    int32_t sides;              /* faces per die (3 for Fudge dice) */
    bool fudge;                 /* faces are -1, 0, +1 */
    bool counting;              /* subtotal is successes - failures, or
                                 * the failures alone (Foundry's cf) */
    int32_t successes, failures;  /* successes include the doubled ones */
    int32_t botches;            /* shown, never subtracted */
    int64_t subtotal;           /* sum of counted dice, or the net count */
};

/* Everything one roll produced. */
struct dice_result {
    int64_t total;
    uint16_t n_dice, n_groups;
    uint16_t expr_pos, expr_len;  /* the expression in the source, without
                                   * repeat prefix or label */
    const char *label;          /* borrowed, not NUL-terminated; NULL if none */
    uint16_t label_len;
    uint32_t notes;             /* enum dice_note bits: how fray read forms
                                 * other bots read differently */
    struct dice_group groups[DICE_MAX_TERMS];
    struct dice_die dice[DICE_MAX_DICE];
};

/* A plain "NdX+M" expression, as recognised by dice_expr_simple(). */
struct dice_simple {
    int32_t count;              /* 0 when the expression is a bare number */
    int32_t sides;
    int64_t modifier;
};

/* Parse src[0, len). src need not be NUL-terminated; a NUL byte inside len
 * is an error. Returns ENG_OK with *out set, ENG_NOMEM, or the error the
 * expression deserves (ENG_SYNTAX, ENG_LIMIT, ENG_RANGE, ENG_OVERFLOW,
 * ENG_INVALID) with diag filled. */
enum eng_err dice_parse(const char *src, size_t len, struct dice_expr **out,
                        struct dice_diag *diag);

/* dice_parse() as dialect d reads src. */
enum eng_err dice_parse_as(const char *src, size_t len, enum dice_dialect d,
                           struct dice_expr **out, struct dice_diag *diag);

/* Release an expression from dice_parse(). NULL is a no-op. */
void dice_expr_free(struct dice_expr *e);

/* Roll e once into res (the repeat prefix is the caller's loop: see
 * dice_expr_repeat()). Never allocates. Returns ENG_OK, ENG_LIMIT when
 * explosions and rerolls take the dice past DICE_MAX_DICE, ENG_DIVZERO or
 * ENG_OVERFLOW. */
enum eng_err dice_roll(const struct dice_expr *e, struct eng_rng *rng,
                       struct dice_result *res, struct dice_diag *diag);

/* Parse and roll once in one call, without touching the heap: the parsed
 * form lives on the stack. A repeat prefix is checked but not acted on
 * (use dice_parse for repeats). res->label borrows from src. */
enum eng_err dice_eval_string(const char *src, size_t len, struct eng_rng *rng,
                              struct dice_result *res, struct dice_diag *diag);

/* dice_eval_string() as dialect d reads src. */
enum eng_err dice_eval_string_as(const char *src, size_t len,
                                 enum dice_dialect d, struct eng_rng *rng,
                                 struct dice_result *res,
                                 struct dice_diag *diag);

/* How many separate results the expression asks for ("6x 4d6kh3" gives 6),
 * 1 without a repeat prefix. */
unsigned dice_expr_repeat(const struct dice_expr *e);

/* The label after '#', trimmed, borrowed from e; NULL with *len = 0 if
 * none. */
const char *dice_expr_label(const struct dice_expr *e, size_t *len);

/* "2d6+3 fire": when src[0, len) does not parse whole but a prefix does
 * that ends at a space followed by a word, the longest such prefix is the
 * dice (*dice_len bytes) and the words from *label_at say what the roll is
 * for. False when src parses whole or has no such prefix. */
bool dice_split_label(const char *src, size_t len, size_t *dice_len,
                      size_t *label_at);

/* dice_split_label() as dialect d reads the dice. */
bool dice_split_label_as(const char *src, size_t len, enum dice_dialect d,
                         size_t *dice_len, size_t *label_at);

/* The smallest and largest total a roll of e can produce, computed from the
 * expression alone (saturating at the int64 range). A roll that succeeds
 * always lands in [*min, *max]. Returns ENG_OK; ENG_DIVZERO when a divisor
 * can only be zero. */
enum eng_err dice_expr_bounds(const struct dice_expr *e, int64_t *min,
                              int64_t *max);

/* True when e is a bare number or plain "NdX", "NdX+M" or "NdX-M" with no
 * modifiers (what a minimal roller understands); fills *out. */
bool dice_expr_simple(const struct dice_expr *e, struct dice_simple *out);

#endif
