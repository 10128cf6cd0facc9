/*
 * enc_res.h - resources: named counts a combatant spends and gets back.
 *
 * Legendary actions, reactions, spell slots, a recharge ability: anything
 * a system does not already keep as a stat or track of its own (those
 * names are refused, with the declaration's help as the reason). Each has
 * a maximum and a reset point (enum enc_reset): the start of its holder's
 * turn (turn.h turn_start, so whatever a system calls a turn: a card, an
 * activation, a pick), the start of each round, or never. A recharge
 * resource rolls a d6 at its reset point instead and refills only on
 * recharge or more; the die is recorded like every roll.
 *
 * Every change reports itself as a sentence (secret when the holder is
 * hidden) and changes nothing on error. Undo restores a saved encounter,
 * so the counts come back with it.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef ENC_RES_H
#define ENC_RES_H

#include "enc.h"

struct rs_call;

/* c's resource called name (ASCII case ignored); NULL when none. */
struct enc_res *enc_res_find(struct enc_combatant *c, const char *name);

/* Give who a new resource, full. Refused: a bad or taken name, a name its
 * system keeps already, max outside 1..ENC_MAX_RES_VALUE, recharge not 0
 * or 2..6, or ENC_MAX_RES held. */
enum eng_err enc_res_add(struct rs_call *c, struct enc_combatant *who,
                         const char *name, int32_t max, enum enc_reset reset,
                         int32_t recharge);
/* Spend n (>= 1) of it; refused when fewer are left. */
enum eng_err enc_res_spend(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int32_t n);
/* Give back n (>= 1), or fill it when n is 0; never past its maximum.
 * Refused when it is full. */
enum eng_err enc_res_restore(struct rs_call *c, struct enc_combatant *who,
                             const char *name, int32_t n);
enum eng_err enc_res_remove(struct rs_call *c, struct enc_combatant *who,
                            const char *name);

/* The reset points, called by turn.h's machinery: who's turn starts; a
 * round starts (everyone's round resources). Cheap when nobody has any. */
void enc_res_turn(struct rs_call *c, struct enc_combatant *who);
void enc_res_round(struct rs_call *c);

/* "turn", "round" or "never". */
const char *enc_reset_word(enum enc_reset reset);

#endif
