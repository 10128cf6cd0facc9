/*
 * eng_policy.h - the one text policy for every piece of user text.
 *
 * Names, notes, conditions, fight names, roll and saved-roll labels, every
 * option of every command, and every text field of an imported file pass
 * through eng_policy_check(): the command table's check (cmd_validate.c),
 * enc_check_name() and the import reader (xfer.c) call it, so a character
 * refused in one place is refused in all. Refused, never stripped: a user
 * is told which character to take out, and what is stored is what they
 * typed. docs/internals/text-policy.md gives the list and why.
 *
 * Pure, no state; borrows its argument.
 */
#ifndef ENG_POLICY_H
#define ENG_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/* What s[0..len) (well-formed UTF-8) holds that no user text may, as a
 * phrase ("a character that changes text direction", "an invisible
 * (zero-width) character"), or NULL when it is fine. Refused: the bidi
 * controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) and
 * the zero-width or blank characters (U+00AD, U+034F, U+115F, U+1160,
 * U+180E, U+200B..U+200D, U+2060..U+2064, U+3164, U+FEFF, U+FFA0); a
 * zero-width joiner between two pictographs (an emoji sequence) is let
 * through. */
const char *eng_policy_check(const char *s, size_t len);

#endif /* ENG_POLICY_H */
