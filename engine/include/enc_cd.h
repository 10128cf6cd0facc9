/*
 * enc_cd.h - countdowns: named counts the fight runs down ("The bridge
 * falls" in 3 rounds, the ritual after 4 of the Cultist's turns).
 *
 * A countdown counts rounds or the turns of one combatant. A rounds
 * countdown counts down when a new round starts (turn.h turn_round); a
 * turns one at the end of its combatant's turn (turn_end), or when that
 * turn is skipped (a downed combatant's turn still passes time, as for a
 * condition timed on it). Whatever a system calls a turn counts: a card,
 * an activation, a pick, a reaction that spends a turn. The round or turn
 * it was set in does not count, so "rounds:3" set in round 1 runs out as
 * round 4 starts, and "turns:1" set during X's turn at the end of X's
 * next one. A paused countdown does not count down.
 *
 * At zero it is announced ("The bridge falls!") and gone. A hidden one
 * (hidden by the GM, or counting a hidden combatant's turns) is the GM's
 * alone: its sentences are secret. When its combatant leaves the fight it
 * goes on counting rounds, and says so (still hidden if they were): a
 * combatant has about one turn a round in every system, and the GM may
 * advance or remove it from there.
 *
 * Every change reports itself as a sentence and changes nothing on error.
 * Undo restores a saved encounter, so countdowns come back with it.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef ENC_CD_H
#define ENC_CD_H

#include "enc.h"

struct rs_call;

/* The fight's countdown called name (ASCII case ignored); NULL when none. */
struct enc_cd *enc_cd_find(struct encounter *e, const char *name);

/* Whether x is the GM's alone: hidden by the GM, or counting the turns of
 * a hidden combatant (looked at now, so hiding one later hides it too). */
bool enc_cd_secret(const struct encounter *e, const struct enc_cd *x);

/* Start a countdown of count (1..ENC_MAX_CD_COUNT) rounds, or of turns of
 * the combatant of (0: rounds). Refused: a bad or taken name, a count out
 * of range, an unknown combatant, ENC_MAX_COUNTDOWNS running. Hidden when
 * hidden is true or of is a hidden combatant. */
enum eng_err enc_cd_add(struct rs_call *c, const char *name, int32_t count,
                        uint32_t of, bool hidden);
/* Count it down by n (1..ENC_MAX_CD_COUNT) now, paused or not; at zero it
 * is announced and gone. */
enum eng_err enc_cd_advance(struct rs_call *c, const char *name, int32_t n);
/* Stop or restart its counting; refused when it is so already. */
enum eng_err enc_cd_pause(struct rs_call *c, const char *name, bool paused);
enum eng_err enc_cd_remove(struct rs_call *c, const char *name);

/* The ticks, called by turn.h's machinery: a round starts; who's turn
 * ends (or is skipped). Cheap when the fight has none. */
void enc_cd_round(struct rs_call *c);
void enc_cd_turn(struct rs_call *c, uint32_t who);
/* Combatant id leaves the fight: its countdowns go on in rounds. */
void enc_cd_leave(struct rs_call *c, uint32_t id);

#endif
