/*
 * render_dice.h - dice results and dice errors as text for people.
 *
 * Two styles: Discord markdown (dropped dice struck through, natural
 * maximum bold, natural minimum in italics, user text escaped) and plain
 * text for the terminal. Output always fits the caller's buffer and, for
 * Discord, RENDER_DISCORD_MAX characters: when the full listing is too
 * long, detail goes step by step (long pools become counts per face, then
 * dice are left out, then only totals remain) and a note says so.
 *
 * Ownership: every argument is borrowed for the call; nothing is kept.
 */
#ifndef RENDER_DICE_H
#define RENDER_DICE_H

#include <stddef.h>

#include "dice.h"

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

enum render_dice_style {
    RENDER_DICE_TEXT,           /* terminal */
    RENDER_DICE_DISCORD,        /* Discord markdown */
};

/* Render the n results of one expression (n > 1 for a repeat prefix such
 * as "6x 4d6kh3"), one line each. src[0, len) is the source they were rolled
 * from: their spans point into it. Writes at most cap - 1 bytes plus a NUL
 * (and at most RENDER_DISCORD_MAX for Discord) and returns the length. If
 * even the totals do not fit, the output is cut at a character boundary. */
size_t render_dice(char *buf, size_t cap, enum render_dice_style style,
                   const char *src, size_t len, const struct dice_result *res,
                   size_t n);

/* Render a parse or roll error as three lines: the message, the source
 * and a caret line marking diag's span, e.g.
 *     error: unexpected `*` at column 5
 *       1d6+*3
 *           ^
 * (Discord puts the last two in a code block). Control characters and
 * invalid UTF-8 in the source show as '?'. Returns the length written. */
size_t render_dice_error(char *buf, size_t cap, enum render_dice_style style,
                         const char *src, size_t len,
                         const struct dice_diag *diag);

#endif
