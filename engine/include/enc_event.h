/*
 * enc_event.h - what a change did, as values the front ends render.
 *
 * Every engine call that changes an encounter appends to a struct
 * enc_result: events (who did what to whom), the rolls they used with every
 * die's face and flags, the modifiers that changed a roll with their
 * reasons, the numbers compared and the outcome. Nothing here is text for a
 * particular screen: bot/render/ turns events into Discord markdown or
 * terminal lines, and decides what a viewer may see.
 *
 * Secrecy is per value. An event marked secret is for the GM only as a
 * whole; otherwise each part, roll, modifier and compared number carries its
 * own flag, so a hidden combatant's numbers can be left out of a public
 * reply while the rest of the line stays.
 *
 * No text is cut at a fixed size. Strings, sentences, rolls and modifiers
 * live in the result's arena, which grows up to ENC_MAX_RESULT_BYTES; past
 * that (or past ENC_MAX_EVENTS / ENC_MAX_ROLLS) the result is marked
 * truncated and the renderers say that more happened than is shown. When
 * memory runs out the result is marked nomem: the command layer then
 * refuses the whole command, so a half-recorded change is never saved.
 *
 * Ownership: a result owns everything reachable from it. enc_result_init()
 * prepares caller storage, enc_result_reset() empties it for reuse and
 * enc_result_cleanup() frees the arena. Pointers into a result (events,
 * rolls, strings) are valid until the next reset or cleanup; an event
 * pointer stays valid while more events are emitted.
 */
#ifndef ENC_EVENT_H
#define ENC_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "eng_err.h"

/* Events one command may produce. A round change in a 64-combatant fight
 * with conditions running out stays well under this. */
#define ENC_MAX_EVENTS 512
/* Rolls one command may record. */
#define ENC_MAX_ROLLS 128
/* Bytes of arena one result may use (sentences, rolls, modifiers). */
#define ENC_MAX_RESULT_BYTES (1024 * 1024)
/* Parts in one sentence, and modifiers and rolls on one event. */
#define ENC_MAX_PARTS 64
#define ENC_MAX_MODS 16
#define ENC_MAX_EVENT_ROLLS 16
/* Longest diagnostic or hint, in bytes. Messages are built from bounded
 * pieces (names are at most ENC_MAX_NAME bytes) so they always fit; a
 * diagnostic that would not is marked cut, and a test fails on it. */
#define ENC_MAX_DIAG 512
/* Longest text built from a template (a label, an outcome, a reason),
 * in bytes: the labels and outcomes kept before were cut at 200. */
#define ENC_MAX_TMPL_TEXT 200
/* Longest template kept for one, in bytes (a sentence's may be longer:
 * ENC_MAX_SAY_FMT). */
#define ENC_MAX_TMPL_FMT 200

enum enc_ev {
    ENC_EV_SAY = 0,          /* a ruleset's sentence: parts */
    ENC_EV_ADDED,            /* who */
    ENC_EV_REMOVED,          /* who (name in text) */
    ENC_EV_INIT,             /* who rolled a = initiative (rolls) */
    ENC_EV_BEGIN,            /* the fight started */
    ENC_EV_ROUND,            /* a = round number */
    ENC_EV_TURN,             /* who's turn starts */
    ENC_EV_TURN_END,         /* who's turn ends */
    ENC_EV_SKIP,             /* who is skipped (down) */
    ENC_EV_HP,               /* who: track text changed from a to b */
    ENC_EV_DOWN,             /* who went down */
    ENC_EV_UP,               /* who is back up */
    ENC_EV_COND_ADD,         /* who gained text (a = value, b = rounds;
                                c = 0, or the boundary + 1 of other's
                                turn that counts b down) */
    ENC_EV_COND_EXPIRE,      /* who lost text: its duration ran out */
    ENC_EV_COND_REMOVE,      /* who lost text: removed */
    ENC_EV_ATTACK,           /* who attacked other: cmp, outcome */
    ENC_EV_DAMAGE,           /* who dealt a damage to other */
    ENC_EV_STAT,             /* who's stats changed (text: what) */
    ENC_EV_NOTE,             /* who's note changed */
    ENC_EV_END,              /* the fight ended */
    ENC_EV_ROLL,             /* a roll: text = label, a = total */
    ENC_EV_PROMPT,           /* who's player must choose: parts = the
                                question, a = index into the ruleset's
                                prompts (rs.h) */
    ENC_EV_TEST,             /* who made a test: text = what it was for,
                                cmp, outcome */
};

/* One piece of a sentence. */
enum enc_part_kind {
    ENC_PART_TEXT = 0,       /* the ruleset's own words: plain text */
    ENC_PART_USER,           /* words a user typed (a label, an item):
                                renderers escape them */
    ENC_PART_WHO,            /* a combatant, by id; s keeps its name in
                                case it leaves the fight in the same
                                command */
    ENC_PART_SIDE,           /* a side (team, faction): s is its name */
    ENC_PART_NUM,            /* a number */
    ENC_PART_ROLL,           /* a roll of the result (n is its index),
                                shown with its total and dice */
    ENC_PART_STRONG,         /* the ruleset's words, emphasised: an
                                outcome such as "hit" */
};

struct enc_part {
    enum enc_part_kind kind;
    bool secret;             /* only the GM may see this value */
    bool lit;                /* TEXT: a piece of the sentence's template
                                (enc_event.fmt) between its holes, not an
                                argument */
    uint32_t id;             /* WHO */
    int64_t n;               /* NUM, ROLL (index), SIDE (index) */
    const char *s;           /* TEXT, USER, STRONG; WHO and SIDE names */
    const char *ctx;         /* TEXT, STRONG: the catalog context the word
                                is declared in ("condition"); NULL none */
    const struct enc_tmpl *sub; /* TEXT: s is itself built from this
                                template ("resists {}" in "{} with {}");
                                NULL none */
};

/* A ruleset's text built from a template and its arguments: a test's
 * label ("{} with {}({})"), an outcome ("fails by {}"), a modifier's
 * reason. The field it belongs to keeps the English, drawn as before;
 * in another language the renderer draws fmt's translation (the catalog
 * message) with its holes filled as a sentence's are: "{}" the next
 * argument, "{N}" the Nth. Every part of args is an argument. */
struct enc_tmpl {
    const char *fmt;
    const char *fmt_other;   /* with fmt a plural pair ("{} success",
                                "{} successes") chosen by count; NULL
                                none */
    int64_t count;
    const struct enc_part *args;
    int nargs;
};

/* Something that changed a roll or a number, with its reason:
 * "multiple attack penalty" -2, "Harm" -3 dice, "advantage: best of 3". */
struct enc_mod {
    const char *reason;
    const struct enc_tmpl *reason_t; /* reason's template; NULL: reason is
                                the catalog's message itself */
    int64_t amount;
    bool has_amount;         /* false: the reason says it all */
    const char *unit;        /* "", "dice", "successes"... as English
                                shows it */
    const char *unit_one, *unit_other; /* the amount with its unit as a
                                plural pair ("{} die", "{} dice") another
                                language draws; NULL: unit is looked up
                                as a word */
    bool secret;
};

/* One dice term of a roll ("4d6kh3"), its dice in the roll's dice[]. */
struct enc_term {
    uint16_t pos, len;       /* the term's text in the roll's expr */
    uint16_t first, count;
    int32_t sides;
    bool fudge;
    bool counting;           /* subtotal counts successes - failures */
    int64_t subtotal;
};

#define ENC_ROLL_DROPPED (1u << 0) /* rolled but not kept (advantage) */

struct enc_roll {
    const char *label;       /* what it was for: "attack", "luck" */
    const char *expr;        /* the expression rolled, without its label */
    int64_t total;
    bool secret;
    unsigned flags;          /* ENC_ROLL_* */
    const struct enc_term *terms;
    int nterms;
    const struct dice_die *dice;
    int ndice;
};

/* What an attack (ENC_EV_ATTACK) did to its target, for the fight's
 * tallies; the outcome's words are for people. */
enum enc_hit {
    ENC_HIT_NONE = 0,        /* neither (a stunt, not an attack at all) */
    ENC_HIT_MISS,
    ENC_HIT_HIT,
    ENC_HIT_CRIT,            /* a critical hit */
};

/* Fields in an order that leaves no padding: a result holds
 * ENC_MAX_EVENTS of them, cleared for every command. */
struct enc_event {
    enum enc_ev kind;
    uint32_t who;
    uint32_t other;
    int nparts;
    int64_t a, b, c;
    const char *text;        /* core events' word (a condition, a track,
                                a label); NULL when none */
    const struct enc_part *parts; /* SAY, PROMPT: the sentence */
    const char *fmt;         /* SAY: the sentence's template ("{} hits
                                {}"), the English the catalogs translate
                                (its arguments are the parts not lit); NULL
                                when none */
    const struct enc_tmpl *text_t;    /* TEST: text's template; NULL: text
                                is the catalog's message itself */
    const struct enc_tmpl *outcome_t; /* the same for outcome */
    const int *rolls;        /* rolls it used: indices into the result */
    int nrolls;
    int nmods;
    const struct enc_mod *mods;
    bool secret;             /* the whole event is for the GM only */
    bool has_cmp;            /* value was compared with target */
    bool value_secret, target_secret;
    enum enc_hit hit;        /* ATTACK: what it did to the target */
    int64_t value, target;
    const char *outcome;     /* "hit", "fails by 2"; NULL when none */
};

struct enc_arena_chunk;

struct enc_result {
    struct enc_event ev[ENC_MAX_EVENTS];
    int nev;
    struct enc_roll rolls[ENC_MAX_ROLLS];
    int nrolls;
    bool truncated;          /* more happened than could be recorded */
    bool nomem;              /* memory ran out while recording */
    struct enc_arena_chunk *arena;
    size_t arena_bytes;
};

/* A diagnostic for the user: what was wrong, in one short lowercase line
 * (no trailing period), and, when helpful, the command that would work. */
/* The reader's language for a diagnostic: fmt (a printf format) as the
 * reader reads it, taking the same conversions (the catalogs are checked
 * by msgfmt --check), or fmt itself. The front end passes it in, as it
 * does the RNG: pure, no I/O, returns static text. */
typedef const char *(*enc_tr_fn)(const void *ctx, const char *fmt)
    __attribute__((format_arg(2)));

/* fmt in tr's language, or fmt itself when tr is NULL (English). The
 * attribute lets the compiler check what it returns as the literal it is
 * (clang -Wformat-nonliteral). */
__attribute__((format_arg(3)))
static inline const char *enc_tr(enc_tr_fn tr, const void *tr_ctx,
                                 const char *fmt)
{
    return tr != NULL ? tr(tr_ctx, fmt) : fmt;
}

struct enc_diag {
    enum eng_err code;
    bool cut;                /* a message did not fit (a bug: see above) */
    char msg[ENC_MAX_DIAG];
    char hint[ENC_MAX_DIAG];
    enc_tr_fn tr;            /* NULL: English (the engine's own text) */
    const void *tr_ctx;      /* tr's argument (borrowed) */
};

void enc_result_init(struct enc_result *r);
/* Forget every event and roll and free the arena; r stays usable. */
void enc_result_reset(struct enc_result *r);
void enc_result_cleanup(struct enc_result *r);

/* Arena memory for the result: n bytes, aligned for any field. NULL (and
 * r->nomem or r->truncated set) when it cannot be had. */
void *enc_result_alloc(struct enc_result *r, size_t n);
/* A copy of s (at most max bytes, cut on a UTF-8 boundary) in the arena;
 * "" when it cannot be had. */
const char *enc_result_strdup(struct enc_result *r, const char *s,
                              size_t max);

/* Append an event and return it, zeroed but for kind and who. When
 * ENC_MAX_EVENTS are used the result is marked truncated and a scratch
 * event is returned, so callers never need a check. */
struct enc_event *enc_emit(struct enc_result *r, enum enc_ev kind,
                           uint32_t who);
/* Set ev->text to a copy of printf(fmt, ...). */
void enc_event_text(struct enc_result *r, struct enc_event *ev,
                    const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Attach roll idx (from enc_add_roll) to ev. */
void enc_event_roll(struct enc_result *r, struct enc_event *ev, int idx);
/* Attach a modifier and return it (NULL when it could not be recorded).
 * reason and unit are copied. */
struct enc_mod *enc_event_mod(struct enc_result *r, struct enc_event *ev,
                   const char *reason, int64_t amount, bool has_amount,
                   const char *unit, bool secret);
/* Record the comparison and its outcome (outcome copied). */
void enc_event_cmp(struct enc_result *r, struct enc_event *ev, int64_t value,
                   bool value_secret, int64_t target, bool target_secret,
                   const char *outcome);
/* A template in r's arena (fmt and args copied, strings included; an
 * argument's sub-template must already live in r), its
 * English in *english: fmt's holes filled with the arguments' words as
 * given and numbers in decimal ("" when memory ran out). NULL when it
 * cannot be had. */
const struct enc_tmpl *enc_tmpl_make(struct enc_result *r, const char *fmt,
                                     const struct enc_part *args, int nargs,
                                     const char **english);
/* The hole of a template (or a sentence's translation) at p, a '{':
 * the argument it takes ("{}": *next, counted on; "{N}": N - 1), *end
 * set past it; -1 when p starts no hole (a brace of the text). */
int enc_tmpl_hole(const char *p, int *next, const char **end);
/* The same for a plural pair: English fills one when count is 1, other
 * otherwise; another language takes its own form for count. */
const struct enc_tmpl *enc_tmpl_make_n(struct enc_result *r,
                                       const char *one, const char *other,
                                       int64_t count,
                                       const struct enc_part *args,
                                       int nargs, const char **english);
/* Append parts to ev's sentence (copied, strings included). */
void enc_event_parts(struct enc_result *r, struct enc_event *ev,
                     const struct enc_part *parts, int n);
/* Append one part whose string already lives in r's arena (not copied). */
void enc_event_part_arena(struct enc_result *r, struct enc_event *ev,
                          const struct enc_part *part);

/* Record a roll: a copy of the dice of res, the expression src[pos..pos+len)
 * and the label. Returns its index, or -1 when the result is full. */
int enc_add_roll(struct enc_result *r, const char *label, const char *expr,
                 size_t expr_len, const struct dice_result *res, bool secret);
/* A roll without a dice expression (a card drawn, a number chosen at
 * random): label and total only. */
int enc_add_plain_roll(struct enc_result *r, const char *label,
                       int64_t total, bool secret);

/* Give a dice diag (dice.h) d's translator, so a dice error quoted in
 * d's refusal speaks the same language; d may be NULL (English). Sets
 * only the translator: the rest is written when something fails. */
struct dice_diag;
void enc_diag_dice(const struct enc_diag *d, struct dice_diag *dd);

/* Set d and return d->code. msg is a printf format, looked up through
 * d->tr first when set. */
enum eng_err enc_fail(struct enc_diag *d, enum eng_err code, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));
void enc_hint(struct enc_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A declared word or sentence (marked N_() where declared) that a refusal
 * shows as an argument, in d's language: s itself in English or when d is
 * NULL. */
const char *enc_diag_word(const struct enc_diag *d, const char *s)
    __attribute__((format_arg(2)));

#endif
