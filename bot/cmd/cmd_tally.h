/*
 * cmd_tally.h - a fight's numbers (internal to bot/cmd_*.c): what each
 * combatant dealt and took, per track its system's damage changes, its
 * hits, misses and criticals, the turns it took and, in play by post, how
 * long its turns waited.
 *
 * The numbers live on the combatants (enc.h, from dealt on), so they are
 * saved, undone and reopened with the rest of the fight: a command adds
 * its own events' share after it ran, and an undo adds nothing, since the
 * state it restores carries the numbers of that time. What counts as
 * damage is the system's declaration (rs_system.harm), never a test of
 * which system it is.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef CMD_TALLY_H
#define CMD_TALLY_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "i18n.h"
#include "rs.h"

struct sbuf;

/* A wait this long or longer is play by post's, not a table's: the
 * summary says how long turns waited once one did (or the turn clock is
 * set). */
#define CMD_TALLY_PBP_WAIT_MS (60LL * 60 * 1000)

/* Add res's share (one command's events, applied to e) to e's
 * combatants. */
void cmd_tally_add(struct encounter *e, const struct enc_result *res);

/* The wait w0 (a combatant's turn, which began at e->clock.wait_ms) is
 * over for the tally at now: its owner acted, or the fight moved on.
 * Counted once per wait, the first time (e->clock.acted_ms still 0). */
void cmd_tally_wait(struct encounter *e, const struct enc_wait *w0,
                    int64_t now);

/* The fight's numbers as sentences in c's result: how long it lasted, who
 * fell, and one line per combatant with anything to say, a hidden one's
 * for the GM only, in lang. The end's summary (the table's language) and
 * /combat log (its file's) both say them. */
void cmd_tally_say(struct rs_call *c, enum i18n_lang lang);

/* Room /combat log keeps for its numbers when it fits the history in a
 * file: a heading and a line per combatant (a name of at most
 * ENC_MAX_NAME bytes, escaped, and the numbers). */
#define CMD_TALLY_LOG_ROOM (64 + ENC_MAX_COMBATANTS * 512)

/* /combat log's last section: a heading and cmd_tally_say's sentences as
 * markdown, as a viewer sees them (gm: hidden numbers too), appended to
 * out. Returns false when memory ran out. */
bool cmd_tally_log(struct encounter *e, bool gm, enum i18n_lang lang,
                   struct sbuf *out);

#endif
