/*
 * rs_cards.h - the `cards` ruleset, private to engine/rulesets/cards and its
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
 * Each turn gives one slow and one fast maneuver (or two fast). Reactions
 * are fast maneuvers that may be spent at any time in the round, before or
 * after one's own turn, so they draw on what the round's turns give; what
 * is spent on one's own turn comes from that turn alone, so a creature with
 * two cards cannot spend both turns' maneuvers on the first. Tests roll a
 * pool of dice (the `die` setting, default d6) and count the faces at or
 * above the `success` setting (default 6); the combatant's Harm (the
 * `harm` and `mental` tracks) takes that many dice away.
 *
 * The arithmetic is split into pure functions of values already rolled
 * (cards_attack_outcome, cards_breakfree, cards_fear_harm, ...) so the
 * chapter's rules can be tested with exact numbers; the commands roll and
 * then call them.
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
/* The largest pool die allowed. */
#define CARDS_MAX_DIE 100
/* Dice in one pool (a stat, an option or a toxicity), at most; a pool with
 * its bonuses may reach twice that. */
#define CARDS_MAX_POOL 50
/* Successes a test may require. */
#define CARDS_MAX_NEED 20
/* Weapon damage, in Harm. */
#define CARDS_MAX_DAMAGE 50
/* Zones: a zone number and a weapon's range, at most. */
#define CARDS_MAX_ZONE 100
/* Fear: the most player characters' dice, and Mental Harm on failure by
 * position. */
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
/* A label a user gives (a maneuver, a test), in bytes. */
#define CARDS_MAX_LABEL 48
/* A skill's name, in bytes. */
#define CARDS_MAX_SKILL 20
/* A weapon's range as typed ("0-1"), in bytes. */
#define CARDS_MAX_RANGE 9

/* Names the ruleset gives things. */
#define CARDS_HARM "harm"            /* Physical Harm track */
#define CARDS_MENTAL "mental"        /* Mental Harm track */
#define CARDS_HELD NC_("condition", "Held")
#define CARDS_SILENCED NC_("condition", "Silenced")
#define CARDS_BURNING NC_("condition", "Burning")
#define CARDS_POISONED NC_("condition", "Poisoned")
#define CARDS_FLED NC_("condition", "Fled")
#define CARDS_SEVERE NC_("condition", "Severe Mental Harm")

/* ---- typed state --------------------------------------------------------- */

/* On the encounter. */
struct cards_enc {
    bool round_acted;        /* somebody acted in the current round */
    int32_t ambush_side;     /* the ambushing side + 1; 0 = none */
    int32_t ambush_result;   /* enum cards_ambush_result */
    int32_t ambush_bonus;    /* dice on each ambusher's first maneuver */
    uint32_t offer_a;        /* a swap a player offered: a's id */
    uint32_t offer_b;        /* ... to b */
    int32_t offer_round;     /* ... in this round */
};

/* On a combatant. Fire's intensity is its Burning condition's value. */
struct cards_comb {
    int32_t slow;            /* slow maneuvers spent this round */
    int32_t fast;            /* fast maneuvers (reactions too) this round */
    int32_t turn_slow;       /* of those, spent on the turn running now */
    int32_t turn_fast;
    int32_t played;          /* bit k: its turn on card k is taken */
    int32_t def_succ;        /* a reaction readied: its successes */
    int32_t def_kind;        /* enum cards_react; 0 = none pending */
    uint32_t def_vs;         /* against whom (id); 0 = anybody */
    uint32_t swap_vs;        /* may force a swap with this id; 0 = none */
    int32_t first_bonus;     /* dice on the first maneuver (ambush) */
    int32_t next_bonus;      /* dice on the next test (fear in control) */
    int32_t fire_need;       /* Finesse successes that put the fire out */
    int32_t fire_saved;      /* successes saved towards that */
    int32_t fire_round;      /* round the fire was caught in */
    int32_t poison_left;     /* Harm the poison gives at the next round */
    int32_t poison_round;    /* round it was taken in */
    int64_t break_seq;       /* turn_seq + 1 of the last break-free try */
};

#define CARDS_E(e) RS_STATE(struct cards_enc, (e))
#define CARDS_C(who) RS_STATE(struct cards_comb, (who))

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

/* A reaction's name as said ("break free"); "" for none. */
const char *cards_react_name(int32_t kind);

enum cards_position {
    CARDS_CONTROLLED = 0,
    CARDS_RISKY,
    CARDS_DESPERATE,
};

/* ---- pure rules (tested with the chapter's numbers) ---------------------- */

/* Dice actually rolled: base + bonus - harm, never below 0. */
int cards_pool(int base, int bonus, int harm);

/* What is left to spend: slow ones (each may be taken as a fast one) and
 * fast ones. turns is the number of cards held; on one's own turn
 * (own_turn) that turn's one slow and one fast bound it too. */
struct cards_budget {
    int slow, fast;          /* spent this round */
    int turn_slow, turn_fast; /* spent on the turn running now */
    int turns;
};
void cards_left(const struct cards_budget *b, bool own_turn, int *slow,
                int *fast);

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

/* Fear: dice from the player characters present (capped), and the Mental
 * Harm of a failed test by position (0 when passed). bonus is set to 1 when
 * a controlled pass gives +1 to a next roll. */
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

extern const struct rs_system rs_cards;

int cards_die(const struct encounter *e);
int cards_success(const struct encounter *e);

/* Total Harm on who (physical + mental). */
int cards_harm_of(const struct enc_combatant *who);

/* A pool test rolled for who (NULL: the GM's own dice): what went into
 * the pool, and what it gave. */
struct cards_roll {
    int base;                /* dice before anything else */
    int bonus;               /* dice added (bonus: given) */
    int harm;                /* dice Harm took away */
    int ambush;              /* dice from an ambush's extra successes */
    int calm;                /* a die from a fear test passed in control */
    int dice;                /* rolled */
    int succ;                /* successes */
    int roll_idx;            /* the roll in the result */
    bool own;                /* the player's own dice (roll:"4d6>=6"),
                                counted as they fell: nothing added or
                                taken away */
    bool secret;             /* a hidden combatant's: its dice and what
                                changed them are the GM's */
};

/* Roll a pool for who: base plus bonus, less Harm when harm is true, plus
 * the one-shot bonuses (an ambush's on the first maneuver when maneuver is
 * true, a calm fear test's on the next test), which are then used up.
 * Records the roll under label with every die. */
enum eng_err cards_roll_test(struct rs_call *c, struct enc_combatant *who,
                             const char *label, int base, int bonus,
                             bool harm, bool maneuver, struct cards_roll *out);
/* The GM's pool of n dice (poison, a fall, watchers): no Harm, no
 * bonuses. */
enum eng_err cards_roll_gm(struct rs_call *c, const char *label, int n,
                           struct cards_roll *out);
/* Attach r to ev with what changed its pool, each with its amount. */
void cards_ev_pool(struct rs_call *c, struct enc_event *ev,
                   const struct cards_roll *r);
/* Modifiers counted in dice or successes, in the right number ("+1 die",
 * "-2 successes"); for 0 a note saying so (a dodge that took nothing
 * off). secret: the number is the GM's (a hidden defender's). */
/* The same with a reason built from a template (rs_kit.h). */
void cards_mod_dice_t(struct rs_call *c, struct enc_event *ev,
                      struct rs_text why, int n, bool secret);
void cards_mod_succ_t(struct rs_call *c, struct enc_event *ev,
                      struct rs_text why, int n, bool secret);
void cards_mod_dice(struct rs_call *c, struct enc_event *ev, const char *why,
                    int n, bool secret);
void cards_mod_succ(struct rs_call *c, struct enc_event *ev, const char *why,
                    int n, bool secret);
/* A test of who as an event: r's successes against need, the outcome, the
 * roll and its modifiers. */
struct enc_event *cards_test_event(struct rs_call *c,
                                   const struct enc_combatant *who,
                                   const char *label,
                                   const struct cards_roll *r, int64_t need,
                                   const char *outcome);

/* The pool of a named skill stat; fails naming the stat when absent. */
enum eng_err cards_skill(struct rs_call *c, struct enc_combatant *who,
                         const char *skill, int *out);

/* A test's base pool from the options: pool:N, or skill:<stat>, or the
 * default skill (NULL: one of them is required). */
enum eng_err cards_opt_pool(struct rs_call *c, struct enc_combatant *who,
                            const char *dflt_skill, int *base);

/* Refuse option b given together with option a, saying why. */
enum eng_err cards_not_both(struct rs_call *c, const char *a, const char *b,
                            const char *why);

/* Spend a maneuver: slow or fast; reaction: may be out of turn. Fails when
 * the round's or the turn's budget is spent or it is not who's turn. */
enum eng_err cards_spend(struct rs_call *c, struct enc_combatant *who,
                         bool slow, bool reaction);

/* Add Harm to who (mental or physical), with events and the down rule. */
void cards_add_harm(struct rs_call *c, struct enc_combatant *who, int amount,
                    bool mental, uint32_t source);

/* The down rule for a Harm track: at or past its maximum (when it has
 * one) the combatant is out. */
void cards_after_track(struct rs_call *c, struct enc_combatant *who,
                       const char *track, int64_t before);

/* Conditions given through the table that take hold at once: catching
 * fire, fleeing. */
enum eng_err cards_cond_changed(struct rs_call *c, struct enc_combatant *who,
                                struct enc_cond *q, int32_t before);

/* Give who one of the ruleset's conditions. */
enum eng_err cards_give(struct rs_call *c, struct enc_combatant *who,
                        const char *name, int32_t value, uint32_t source);

/* The zone distance between two combatants: -1 when unknown. */
int cards_distance(const struct enc_combatant *a,
                   const struct enc_combatant *b);

/* The card deck and turn order (rs_cards_turn.c). */
void cards_round_start(struct rs_call *c);
enum eng_err cards_begin(struct rs_call *c);
enum eng_err cards_next(struct rs_call *c);
enum eng_err cards_late_join(struct rs_call *c, struct enc_combatant *who);
/* Rebuild the order after cards changed hands or a combatant joined; the
 * running turn keeps its slot. */
void cards_reorder(struct encounter *e);
/* After a swap at the start of a round: start the round again from the
 * lowest card held by someone able to act. */
void cards_restart_round(struct rs_call *c);
/* The order slot of who's running turn, or -1 when it is not its turn. */
int cards_turn_card(const struct encounter *e,
                    const struct enc_combatant *who);

/* A held character may only parry, break free or shout; a burning one may
 * only put the fire out, flee or shout: refuse what (e.g. "attack") unless
 * held_ok / fire_ok. */
enum eng_err cards_may(struct rs_call *c, struct enc_combatant *who,
                       const char *what, bool held_ok, bool fire_ok);
/* Whether who's mouth is covered (held so, or silenced by the GM). */
bool cards_silenced(const struct enc_combatant *who);

/* The tracker's extra words for who. */
void cards_status(const struct encounter *e, const struct enc_combatant *who,
                  struct eng_buf *out, enc_tr_fn tr,
                  const void *tr_ctx);

/* Command handlers (the command table is in rs_cards_decl.c). */
enum eng_err cards_do_swap(struct rs_call *c);
enum eng_err cards_do_ambush(struct rs_call *c);
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

/* rs_cards.c: the ops that rs_cards_decl.c lists in cards_ops. */
enum eng_err cards_setup(struct rs_call *c, struct enc_combatant *who);
enum eng_err cards_check_stat(struct rs_call *c,
                              struct enc_combatant *who,
                              const char *name, int64_t value);
enum eng_err cards_setting(struct rs_call *c, const char *key,
                           const char *value);
enum eng_err cards_timeout(struct rs_call *c);

#endif
