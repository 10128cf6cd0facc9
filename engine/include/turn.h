/*
 * turn.h - the shared turn machinery rulesets build on.
 *
 * Turn boundaries are where conditions run out, so every ruleset starts and
 * ends turns through turn_start()/turn_end(), whatever decides who goes
 * next. For rulesets with a fixed order each round (generic, resolve, cards,
 * tactical) turn_order_build() and turn_fixed_next() do the whole job; the
 * alternating ones (teams, factions) call turn_start()/turn_end() from their
 * own pick and pass logic.
 *
 * Duration rule: a condition with `rounds` N counts down at each matching
 * boundary (start or end) of its anchor's turn that comes after the turn in
 * which it was applied; at 0 it is removed. So "rounds:1, ends at the end of
 * X's turn" applied during X's own turn lasts to the end of X's next turn,
 * and undo, which restores a saved encounter, is exact by construction.
 *
 * Events of the order (enc_entry.h) stop a fixed walk at their places:
 * the start and end of each round and before the slots they precede.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef TURN_H
#define TURN_H

#include "enc.h"
#include "enc_entry.h"
#include "rs.h"

/* Order two slots: < 0 when a acts before b. Must be a total order (break
 * ties by join order last) so a given seed always gives the same order. */
typedef int turn_cmp_fn(const struct encounter *e, const struct enc_slot *a,
                        const struct enc_slot *b);

/* Rebuild e->order from every combatant's initiative values, sorted by cmp
 * (stable). Does not change whose turn it is. */
void turn_order_build(struct encounter *e, turn_cmp_fn *cmp);

/* Make who the current combatant: counts the turn and runs start-of-turn
 * expiry, emitting ENC_EV_TURN, then who's turn resources come back. */
void turn_start(struct rs_call *c, struct enc_combatant *who);

/* A new round: e->round counted on, ENC_EV_ROUND, and every resource
 * that comes back each round comes back (enc_res.h), and rounds
 * countdowns count down (enc_cd.h). Every system starts its rounds here. */
void turn_round(struct rs_call *c);

/* End the current turn (if any): end-of-turn expiry, the countdowns that
 * count its combatant's turns (enc_cd.h), ENC_EV_TURN_END, no current
 * combatant afterwards. */
void turn_end(struct rs_call *c);

/* A skipped turn still passes time: conditions timed on who count down at
 * both boundaries, and countdowns of its turns. Emits ENC_EV_SKIP. */
void turn_skip(struct rs_call *c, struct enc_combatant *who);

/* Fixed order: end the current turn and start the next slot's, wrapping into
 * a new round (ENC_EV_ROUND) after the last, skipping combatants that are
 * down. When nobody can act, ends with no current combatant and says so.
 * round_start (may be NULL) runs at the start of each new round. */
void turn_fixed_next(struct rs_call *c,
                     void (*round_start)(struct rs_call *c));

/* Fixed order: start round 1 at the first slot. */
void turn_fixed_begin(struct rs_call *c,
                      void (*round_start)(struct rs_call *c));

/* What a fixed order does when a combatant that is down (not dead) comes
 * up: skip it with the usual word, skip it having said something of its
 * own (a death save), or give it its turn. */
enum turn_down { TURN_DOWN_SKIP, TURN_DOWN_QUIET, TURN_DOWN_TURN };
typedef enum turn_down turn_down_fn(struct rs_call *c,
                                    struct enc_combatant *who);

/* turn_fixed_next() and turn_fixed_begin() asking down (may be NULL: skip)
 * about each downed combatant whose slot comes up. down may roll and
 * change who (a death save that brings them back). */
void turn_fixed_next_down(struct rs_call *c,
                          void (*round_start)(struct rs_call *c),
                          turn_down_fn *down);
void turn_fixed_begin_down(struct rs_call *c,
                           void (*round_start)(struct rs_call *c),
                           turn_down_fn *down);

/* The whole next op of a fixed-order system without round rules:
 * turn_fixed_next() with no round_start. */
enum eng_err turn_op_next(struct rs_call *c);

/* Begin a fixed-order fight whose initiative is already rolled: refuse an
 * empty fight, sort the order by cmp and start round 1. */
enum eng_err turn_fixed_start(struct rs_call *c, turn_cmp_fn *cmp);

/* The count or card of order slot idx (0 when its combatant is gone):
 * what an event of the order (enc_entry.h) is placed against. */
int64_t turn_slot_value(const struct encounter *e, int idx);

/* Whether who can take a turn (not down, not dead). */
bool turn_can_act(const struct enc_combatant *who);

#endif
