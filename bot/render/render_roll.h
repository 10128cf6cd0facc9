/*
 * render_roll.h - one recorded roll (enc_event.h struct enc_roll) as
 * markdown, for the events: the expression with each dice term replaced by
 * its faces, "[**20**, 3, ~~(1)~~]+5". Each die has the marks of
 * render_dice.h, the same as /roll and `fray roll` show.
 * A term of more than RENDER_ROLL_FACES dice shows its counts
 * (render_dice_counts), so a 50-die pool stays one short line.
 * Counting terms add their successes.
 *
 * Ownership: arguments are borrowed; text is appended to the caller's sbuf.
 */
#ifndef RENDER_ROLL_H
#define RENDER_ROLL_H

#include "enc_event.h"
#include "i18n.h"
#include "sbuf.h"

/* Dice of one term listed face by face before counts take over. */
#define RENDER_ROLL_FACES 40

/* The faces of r ("[14]+5"); a roll without dice (a card drawn) adds
 * nothing. A counting term's successes are counted in lang's words. */
void render_roll_faces(struct sbuf *b, const struct enc_roll *r,
                       enum i18n_lang lang);

/* "label 19 ([14]+5)" in short, or with the total bold and the label
 * left out when bare is true: "**19** ([14]+5)". The label is looked up
 * in lang's catalog (a ruleset's word; a user's misses and stays). */
void render_roll(struct sbuf *b, const struct enc_roll *r, bool bare,
                 enum i18n_lang lang);

/* v in decimal with a plain '-', right-aligned in width columns like
 * printf's "%*" PRId64 (0: no padding). The renderers write a number per
 * die, track and modifier: snprintf cost ten times this. */
void render_int(struct sbuf *b, int64_t v, int width);

#endif
