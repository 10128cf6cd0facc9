/*
 * render_dice.h - dice results and dice errors as text for people: the one
 * place that says how a die looks, for /roll (Discord and the console),
 * `fray roll`, and the rolls inside events (render_roll.h).
 *
 * The marks, the same characters in every surface:
 *
 *   (3)    a die that does not count (dropped, or rerolled: "(1r)")
 *   8*     a success          1x     a failure
 *   6!     an explosion       1→10   a face min raised (max lowered) and
 *                                    what it counts for
 *   + 0 -  Fudge faces
 *
 * Markdown (Discord, and the console, which takes it apart again:
 * render_text.h) adds emphasis around them: a die that does not count is
 * struck through, a success or a natural maximum bold, a failure or a
 * natural minimum in italics ("~~(3)~~", "**8\***", "_1x_", "**6**!"), and
 * user text is escaped. Plain text (`fray roll`) is the same without it.
 *
 * Output always fits the caller's buffer and, for Discord,
 * RENDER_DISCORD_MAX characters: when the full listing is too long, detail
 * goes step by step (long pools become counts per face, then dice are left
 * out, then only totals remain) and a note says so.
 *
 * Ownership: every argument is borrowed for the call; nothing is kept.
 */
#ifndef RENDER_DICE_H
#define RENDER_DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dice.h"
#include "i18n.h"

/* Discord's limit on one message's content, in characters. */
#define RENDER_DISCORD_MAX 2000
/* Pools with more dice than this are shown as counts per face, once the
 * full listing does not fit. */
#define RENDER_DICE_LIST_MAX 30
/* Faces a per-face count lists; larger dice show only how many rolled. */
#define RENDER_DICE_HIST_MAX 20
/* Between the face a die showed and what minN/maxN made it count for:
 * "1→10" (UTF-8, as Discord and terminals show it). */
#define RENDER_DICE_ARROW "\xE2\x86\x92"

/* Longest text of one die with its marks (render_dice_die). */
#define RENDER_DICE_DIE_MAX 64
/* Longest text of one pool's counts (render_dice_counts). */
#define RENDER_DICE_COUNTS_MAX 1024

enum render_dice_style {
    RENDER_DICE_TEXT,           /* terminal, as is (`fray roll`) */
    RENDER_DICE_DISCORD,        /* markdown, within RENDER_DISCORD_MAX */
    RENDER_DICE_MARKDOWN,       /* markdown without Discord's limit: the
                                   console, which shows it as text */
};

/* One dice term's dice, as a roll (struct dice_group) and a recorded roll
 * (struct enc_term) both describe them. */
struct render_dice_term {
    const struct dice_die *dice;    /* its count dice */
    unsigned count;
    int32_t sides;
    bool fudge;
    bool counting;                  /* successes and failures counted */
};

/* One die of t with its marks (above), markdown or plain, into buf[cap]
 * (at most RENDER_DICE_DIE_MAX needed). Returns the length. */
size_t render_dice_die(char *buf, size_t cap, bool markdown,
                       const struct render_dice_term *t,
                       const struct dice_die *d);

/* A pool too long to list: "1000 dice; 1: 160, 2: 170, ..." (counted dice
 * per face, for Fudge dice and dice of up to RENDER_DICE_HIST_MAX faces),
 * the counted dice themselves when few are ("100 dice; counted 99, 97, 95;
 * 97 not counted"), a counting pool's "; 12 successes, 3 failures", or
 * just "N dice". Into buf[cap] (RENDER_DICE_COUNTS_MAX holds the longest);
 * returns the length. */
size_t render_dice_counts(char *buf, size_t cap, bool markdown,
                          const struct render_dice_term *t);

/* Render the n results of one expression (n > 1 for a repeat prefix such
 * as "6x 4d6kh3"), one line each. src[0, len) is the source they were rolled
 * from: their spans point into it. Writes at most cap - 1 bytes plus a NUL
 * (and at most RENDER_DISCORD_MAX for Discord) and returns the length. If
 * even the totals do not fit, the output is cut at a character boundary. */
size_t render_dice(char *buf, size_t cap, enum render_dice_style style,
                   enum i18n_lang lang, const char *src, size_t len,
                   const struct dice_result *res, size_t n);

/* Render a parse or roll error as three lines: the message, the source
 * and a caret line marking diag's span, e.g.
 *     error: unexpected `*` at column 5
 *       1d6+*3
 *           ^
 * (Discord puts the last two in a code block). Control characters and
 * invalid UTF-8 in the source show as '?'. Returns the length written. */
size_t render_dice_error(char *buf, size_t cap, enum render_dice_style style,
                         enum i18n_lang lang, const char *src, size_t len,
                         const struct dice_diag *diag);

#endif
