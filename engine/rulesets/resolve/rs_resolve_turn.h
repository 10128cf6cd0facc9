/*
 * rs_resolve_turn.h - initiative and the turn loop of the `resolve`
 * ruleset: scores, the fixed order with delays, Blaze of Glory turns
 * (rs_resolve_turn.c; the layers are listed in rs_resolve.h).
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_RESOLVE_TURN_H
#define RS_RESOLVE_TURN_H

#include "rs_resolve.h"

/* The operations (rs.h struct rs_ops). */
enum eng_err rsv_begin(struct rs_call *c);
enum eng_err rsv_next(struct rs_call *c);
enum eng_err rsv_late_join(struct rs_call *c, struct enc_combatant *who);
/* The turn clock ran out (rs_ops.timeout; rs_resolve_act.c): a player
 * character who has not moved or acted is treated as delaying, after the
 * next combatant in the order who has not acted this round; anyone else
 * loses the turn. */
enum eng_err rsv_timeout(struct rs_call *c);
/* Refused: the order is fixed; the message points at /delay. */
enum eng_err rsv_pick(struct rs_call *c, struct enc_combatant *who);

/* Blaze of Glory: end the current turn and start who's at once. */
void rsv_blaze_turn(struct rs_call *c, struct enc_combatant *who);

/* Delay: move who's turn, the current one, to right after target's. */
enum eng_err rsv_delay_turn(struct rs_call *c, struct enc_combatant *who,
                            struct enc_combatant *target);

#endif
