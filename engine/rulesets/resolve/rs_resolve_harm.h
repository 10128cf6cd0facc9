/*
 * rs_resolve_harm.h - Resolve lost and regained in the `resolve` ruleset,
 * and what follows: Wounded, defeated, a Fallen Fate to choose, leaving the
 * fight (rs_resolve_harm.c; the layers are listed in rs_resolve.h).
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_RESOLVE_HARM_H
#define RS_RESOLVE_HARM_H

#include "rs_resolve.h"

/* Take loss Resolve from who (never below 0) and apply what follows:
 * Wounded, defeated, or a Fallen Fate to choose. */
void rsv_damage(struct rs_call *c, struct enc_combatant *who, int64_t loss);

/* Regain amount Resolve, up to the maximum; a defeated minor NPC healed
 * above 0 is back up. */
void rsv_regain(struct rs_call *c, struct enc_combatant *who,
                int64_t amount);

/* Take who out of the fight for reason (its turns are skipped from now). */
void rsv_take_out(struct rs_call *c, struct enc_combatant *who,
                  enum rsv_out reason);

/* The after_track operation: /combat hp changed Resolve. */
void rsv_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);

#endif
