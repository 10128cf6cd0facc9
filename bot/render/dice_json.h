/*
 * dice_json.h - a dice roll as structured JSON (jansson), for
 * `fray roll --json` and anything else that wants data instead of prose.
 *
 * Shape of one expression's object:
 *   {"expr": "6x 4d6kh3 # stats", "label": "stats" | null,
 *    "rolls": [{"total": 13,
 *               "terms": [{"text": "4d6kh3", "column": 1, "sides": 6,
 *                          "fudge": false, "counting": false,
 *                          "successes": 0, "failures": 0, "subtotal": 13,
 *                          "dice": [{"value": 6, "rolled": 6,
 *                                    "shown": "6", "kept": true,
 *                                    "dropped": false, "rerolled": false,
 *                                    "exploded": false, "bonus": false,
 *                                    "success": false, "failure": false,
 *                                    "max": true, "min": false,
 *                                    "raised": false, "lowered": false},
 *                                   ...]}]}]}
 * or, when it failed,
 *   {"expr": "1d6+*3", "error": {"code": "SYNTAX", "message": "...",
 *                                "column": 5, "length": 1}}
 * "kept" means the die counts towards its term: not dropped by keep/drop
 * and not rerolled away. "value" is what the die counts for and "rolled"
 * the face it showed: they differ when minN raised it ("raised") or maxN
 * lowered it ("lowered"). "max" and "min" mark a natural top or bottom
 * face, of "rolled". "shown" is the die as every other surface shows it,
 * with the same marks (render_dice.h): "(3)", "8*", "1x", "6!", "1→10".
 * Columns are 1-based byte columns.
 *
 * Ownership: arguments are borrowed; each function returns a new reference
 * the caller releases with json_decref(), or NULL when out of memory.
 */
#ifndef DICE_JSON_H
#define DICE_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "dice.h"

/* The n results of one expression, rolled from src[0, len). */
json_t *dice_json_rolls(const char *src, size_t len,
                        const struct dice_result *res, size_t n);

/* A parse or roll error for the expression src[0, len). */
json_t *dice_json_error(const char *src, size_t len,
                        const struct dice_diag *diag);

#endif
