/*
 * rs_roll.h - rolling dice for a ruleset and recording the roll.
 *
 * Rulesets roll through rs_roll() so every roll of a command is kept in the
 * command's result with a short, readable detail line (the expression with
 * each dice term replaced by its faces: "1d20+5" -> "[14]+5"). Dropped dice
 * are written ~~struck~~ and natural extremes **bold** (markdown; the text
 * renderer strips it).
 *
 * Ownership: arguments are borrowed; the dice result lives on the heap for
 * the call only (it is about 10 KiB, too big for deep stacks).
 */
#ifndef RS_ROLL_H
#define RS_ROLL_H

#include "dice.h"
#include "rs.h"

/* What one roll gave: the total and, for d20 systems, the natural face of
 * the first kept d20 (0 when there is none). */
struct rs_rolled {
    int64_t total;
    int natural;
    int roll_idx;            /* index in the result's rolls, or -1 */
    int64_t successes;       /* counted successes when the roll counts */
    int64_t dice_sum;        /* sum of the non-counting dice terms alone */
};

/* Parse and roll expr, record it under label. On a bad expression, fails
 * with d naming what (e.g. "bad damage dice: unexpected `*` at column 5"). */
enum eng_err rs_roll(struct rs_call *c, const char *what, const char *label,
                     const char *expr, struct rs_rolled *out);

/* Format a rolled result into buf as "[14]+5" (see above). */
void rs_roll_detail(const char *src, const struct dice_result *res, char *buf,
                    size_t n);

#endif
