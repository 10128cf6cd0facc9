/*
 * render_enc.h - encounters and their events as messages.
 *
 * The engine reports what a command did as events (enc.h); this module turns
 * them into lines of a message, and draws the tracker: round, whose turn,
 * the order with initiative, hp and conditions with the rounds they have
 * left. Hidden combatants' numbers appear only in the GM's view; everyone
 * else sees a label (healthy, hurt, bloodied, down).
 *
 * Ownership: arguments are borrowed; the msg gets its own copies.
 */
#ifndef RENDER_ENC_H
#define RENDER_ENC_H

#include <stdbool.h>

#include "enc.h"
#include "msg.h"

/* Longest events text in one embed description (Discord allows 4096; the
 * Discord renderer trims further if it must). */
#define RENDER_ENC_MAX_EVENTS_TEXT 4000

/* Add an embed listing what happened. gm_view shows hidden numbers. Returns
 * true when some event was secret, i.e. the GM's view differs. */
bool render_events(struct msg *m, const struct encounter *e,
                   const struct enc_result *res, bool gm_view,
                   const char *title);

/* Add the tracker embed for e. */
void render_tracker(struct msg *m, const struct encounter *e, bool gm_view);

/* "healthy", "hurt", "bloodied" or "down" for a combatant's hp. */
const char *render_health_label(const struct enc_combatant *c);

#endif
