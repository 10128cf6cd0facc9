/*
 * rs_cards.h - the `cards` ruleset, private to engine/rs_cards*.c and its
 * tests.
 *
 * Initiative is a deck of ten cards, 1 to 10, dealt once at /combat begin
 * without replacement; the lowest card acts first and the order is the same
 * every round. A group of identical NPCs shares one card; a creature with the
 * `cards` stat holds several and takes a turn on each. Two player characters
 * may swap cards at the start of a round, before anybody has acted; extra
 * successes in an attack, a dodge or a parry buy a forced swap with the
 * opponent, usable at any time. An ambush (or the Director's word) lets one
 * side draw an extra card and keep the best.
 *
 * Each turn gives one slow and one fast maneuver (or two fast); reactions
 * are fast maneuvers that may be spent at any time in the round, before or
 * after one's own turn, so the budget is counted per round. Tests roll a
 * pool of dice (the `die` setting, default d6) and count the faces at or
 * above the `success` setting (default 6); the combatant's Harm (the
 * `harm` and `mental` tracks) takes that many dice away.
 *
 * The arithmetic is split into pure functions of values already rolled
 * (cards_attack_outcome, cards_breakfree, cards_fear_harm, ...) so the
 * chapter's rules can be tested with exact numbers; the ops roll and then
 * call them.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_CARDS_H
#define RS_CARDS_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "rs.h"
#include "rs_kit.h"

/* ---- limits and constants ------------------------------------------------ */

/* Cards in the initiative deck, numbered 1 to CARDS_DECK. */
#define CARDS_DECK 10
/* Cards one creature may hold (one turn each). */
#define CARDS_MAX_HELD ENC_MAX_INIT
/* Pool die and success face by default, and the largest die allowed. */
#define CARDS_DIE 6
#define CARDS_SUCCESS 6
#define CARDS_MAX_DIE 100
/* Dice in one pool (a stat, an option or a toxicity), at most. */
#define CARDS_MAX_POOL 50
/* Successes a test may require. */
#define CARDS_MAX_NEED 20
/* Weapon damage, in Harm. */
#define CARDS_MAX_DAMAGE 50
/* Zones: a zone number and a weapon's range, at most. */
#define CARDS_MAX_ZONE 100
/* Fear: the most allies' dice, and Mental Harm on failure by position. */
#define CARDS_FEAR_MAX_ALLIES 3
#define CARDS_FEAR_CONTROLLED 2
#define CARDS_FEAR_RISKY 3
#define CARDS_FEAR_DESPERATE 4
/* Falling: shorter falls do nothing; one die for each CARDS_FALL_STEP feet. */
#define CARDS_FALL_MIN 10
#define CARDS_FALL_STEP 5
#define CARDS_MAX_FALL 1000
/* Fire intensity and poison toxicity, at most. */
#define CARDS_MAX_INTENSITY 20
#define CARDS_MAX_TOXICITY 30
/* The /attack options text, and one word of it, in bytes. */
#define CARDS_MAX_OPTIONS 256
#define CARDS_MAX_WORD 40
/* A maneuver's label, in bytes. */
#define CARDS_MAX_LABEL 48

/* Names the ruleset gives things. */
#define CARDS_HARM "harm"            /* Physical Harm track */
#define CARDS_MENTAL "mental"        /* Mental Harm track */
#define CARDS_HELD "Held"
#define CARDS_SILENCED "Silenced"
#define CARDS_BURNING "Burning"
#define CARDS_POISONED "Poisoned"
#define CARDS_FLED "Fled"
#define CARDS_SEVERE "Severe Mental Harm"

/* ---- scratch slots ------------------------------------------------------- */

/* On the encounter. */
enum {
    CE_DIE = 0,              /* pool die sides; 0 = CARDS_DIE */
    CE_SUCCESS,              /* success face; 0 = CARDS_SUCCESS */
    CE_ROUND_ACTED,          /* somebody acted in the current round */
    CE_AMBUSH_SIDE,          /* the ambushing side + 1; 0 = none */
    CE_AMBUSH_RESULT,        /* enum cards_ambush_result */
    CE_AMBUSH_BONUS,         /* dice on the ambushers' first maneuver */
    CE_OFFER_A,              /* a swap one player offered: a's id */
    CE_OFFER_B,              /* ... with b */
    CE_OFFER_ROUND,          /* ... in this round */
};

/* On a combatant. */
enum {
    CC_SLOW = 0,             /* slow maneuvers spent this round */
    CC_FAST,                 /* fast maneuvers (and reactions) spent */
    CC_PLAYED,               /* bit k: turn on card k taken this round */
    CC_DEF_SUCC,             /* a reaction rolled in advance: successes */
    CC_DEF_KIND,             /* enum cards_react, 0 = none pending */
    CC_DEF_VS,               /* against whom (id), 0 = anybody */
    CC_SWAP_VS,              /* may force a swap with this id, 0 = none */
    CC_FIRST_BONUS,          /* dice on the first maneuver (ambush) */
    CC_NEXT_BONUS,           /* dice on the next test (fear in control) */
    CC_FIRE,                 /* fire intensity, 0 = not burning */
    CC_FIRE_NEED,            /* successes needed to put it out */
    CC_FIRE_SAVED,           /* successes saved towards that */
    CC_FIRE_ROUND,           /* round it was caught in */
    CC_POISON_LEFT,          /* Harm the poison gives at the next round */
    CC_POISON_ROUND,         /* round it was taken in */
    CC_BREAK_SEQ,            /* turn_seq + 1 of the last break-free try */
};

enum cards_ambush_result {
    CARDS_AMBUSH_NONE = 0,
    CARDS_AMBUSH_WON,        /* the ambushers draw an extra card */
    CARDS_AMBUSH_LOST,       /* everybody else does */
    CARDS_AMBUSH_GRANTED,    /* the Director gave the ambushers the draw */
};

enum cards_react {
    CARDS_R_NONE = 0,
    CARDS_R_DODGE,
    CARDS_R_PARRY,
    CARDS_R_BREAKFREE,
    CARDS_R_HOLD,
    CARDS_R_CHASE,
    CARDS_R_RESIST,
    CARDS_R_OTHER,
};

enum cards_position {
    CARDS_CONTROLLED = 0,
    CARDS_RISKY,
    CARDS_DESPERATE,
};

/* ---- pure rules (tested with the chapter's numbers) ---------------------- */

/* Successes among faces: each face at or above success counts. */
int cards_count(const int *faces, int n, int success);

/* Dice actually rolled: base + bonus - harm, never below 0. */
int cards_pool(int base, int bonus, int harm);

/* Whether one more maneuver fits this round's budget: `turns` turns give
 * `turns` slow and `turns` fast maneuvers, and a slow one may be taken as a
 * fast one instead. */
bool cards_may_spend(int slow_used, int fast_used, int turns, bool slow);

/* An attack's outcome from the attack's and the defence's successes. */
struct cards_hit {
    bool hit;
    int net;                 /* attack successes left after the defence */
    int extra;               /* successes beyond need */
    int harm;                /* weapon damage + extra spent on damage */
    bool attacker_swap;      /* one extra success bought a swap */
    bool defender_swap;      /* the defence rolled more than needed */
};
/* to_damage: extra successes to turn into Harm (-1: all that are left);
 * buy_swap: spend one extra success on a forced swap first. */
struct cards_hit cards_attack_outcome(int attack, int defence, int need,
                                      int weapon, int to_damage,
                                      bool buy_swap);

/* Whether a range lo..hi reaches distance zones. */
bool cards_in_range(int lo, int hi, int distance);

/* Holding: whether the held breaks free. Without a hold reaction one
 * success is enough; with one, more successes than the holder's. */
bool cards_breakfree(int held, int holder, bool holder_reacted);

/* Fleeing: whether the fleer gets away once the chasers' successes are
 * taken off. */
bool cards_flee(int flee, int chase);

/* Ambush: the Sneak successes less the Track/Read successes; succeeds with
 * one left, each one more is an extra success. */
bool cards_ambush(int sneak, int watch, int *extra);

/* Fear: dice from player characters around (capped), and the Mental Harm
 * of a failed test by position (0 when passed). bonus is set to 1 when a
 * controlled pass gives +1 to a next roll. */
int cards_fear_allies(int pcs);
int cards_fear_harm(enum cards_position pos, int successes, int need,
                    int *bonus);

/* Fire: the damage of one round once the Endure successes are taken off. */
int cards_fire_damage(int intensity, int endure);

/* Poison: Harm from the opposed roll (toxicity dice against Endure). */
int cards_poison_harm(int toxin, int endure);

/* Falling: dice the Director rolls (0 under CARDS_FALL_MIN feet) and the
 * Harm: each success beyond the Endure successes. */
int cards_fall_dice(int feet);
int cards_fall_harm(int fall, int endure);

/* ---- shared between the ruleset's files ---------------------------------- */

int cards_die(const struct encounter *e);
int cards_success(const struct encounter *e);

/* Total Harm on who (physical + mental). */
int cards_harm_of(const struct enc_combatant *who);

/* Roll a pool of n dice (n may be 0: nothing is rolled and nothing
 * succeeds), recorded under label; successes to *succ. */
enum eng_err cards_roll_pool(struct rs_call *c, const char *label, int n,
                             int *succ, int *roll_idx);

/* A test for who: base dice plus bonus, less Harm when harm is true, plus
 * one-shot bonuses (ambush on the first maneuver, a controlled fear pass)
 * when they apply and consume is true. Emits the roll event. */
enum eng_err cards_test(struct rs_call *c, struct enc_combatant *who,
                        const char *label, int base, int bonus, bool harm,
                        bool maneuver, int *succ);

/* The pool of a named skill stat; fails naming the stat when absent. */
enum eng_err cards_skill(struct rs_call *c, struct enc_combatant *who,
                         const char *skill, int *out);

/* A test's base pool from the options: pool:N, or skill:<stat>, or the
 * default skill. */
enum eng_err cards_opt_pool(struct rs_call *c, struct enc_combatant *who,
                            const char *dflt_skill, int *base);

/* Spend a maneuver: slow or fast; reaction: may be out of turn. Fails when
 * the budget is spent or it is not who's turn. */
enum eng_err cards_spend(struct rs_call *c, struct enc_combatant *who,
                         bool slow, bool reaction);

/* Add Harm to who (mental or physical), with events and the down rule. */
void cards_add_harm(struct rs_call *c, struct enc_combatant *who, int amount,
                    bool mental, uint32_t source);

/* The down rule for a Harm track: at or past its maximum (when it has
 * one) the combatant is out. */
void cards_after_track(struct rs_call *c, struct enc_combatant *who,
                       const char *track, int64_t before);

/* The zone distance between two combatants: -1 when unknown. */
int cards_distance(const struct enc_combatant *a,
                   const struct enc_combatant *b);

/* Emit a text event (printf format). */
void cards_say(struct rs_call *c, uint32_t who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The card deck and turn order (rs_cards_turn.c). */
void cards_round_start(struct rs_call *c);
enum eng_err cards_begin(struct rs_call *c);
enum eng_err cards_next(struct rs_call *c);
enum eng_err cards_late_join(struct rs_call *c, struct enc_combatant *who);
enum eng_err cards_do_swap(struct rs_call *c);
enum eng_err cards_do_ambush(struct rs_call *c);

/* The option name: as a combatant the sender may act for. */
enum eng_err cards_actor(struct rs_call *c, struct enc_combatant **who);

/* A held character may only parry, break free or shout; a burning one may
 * only put the fire out, flee or shout: refuse what (e.g. "attack") unless
 * held_ok / fire_ok. */
enum eng_err cards_may(struct rs_call *c, struct enc_combatant *who,
                       const char *what, bool held_ok, bool fire_ok);

/* Command handlers. */
enum eng_err cards_do_test(struct rs_call *c);
enum eng_err cards_do_maneuver(struct rs_call *c);
enum eng_err cards_do_react(struct rs_call *c);
enum eng_err cards_do_flee(struct rs_call *c);
enum eng_err cards_attack(struct rs_call *c, const struct rs_attack *a);
enum eng_err cards_do_fear(struct rs_call *c);
enum eng_err cards_do_fire(struct rs_call *c);
enum eng_err cards_do_extinguish(struct rs_call *c);
enum eng_err cards_do_poison(struct rs_call *c);
enum eng_err cards_do_fall(struct rs_call *c);
/* Round-start ticks: fire and poison. */
void cards_effects_tick(struct rs_call *c);


/* ---- the system's surface (rs_cards_decl.c) ------------------------------ */

extern const struct rs_ops cards_ops;

/* Command handlers, run through the command table. */

#endif
