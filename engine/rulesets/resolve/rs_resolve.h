/*
 * rs_resolve.h - the `resolve` ruleset, private to engine/rs_resolve*.c and
 * its tests.
 *
 * Everyone acts once a round in a fixed order of initiative scores, highest
 * first: a player character's score is 1D + its initiative rank, rolled once
 * at the start; an NPC's is its rank + 3 (+ 6 for a major NPC), not rolled.
 * Player characters win ties against NPCs; tied players keep the order they
 * joined in until one of them delays. At the start of its turn a character
 * may delay to act right after someone who has not acted yet this round; the
 * new place is kept in later rounds.
 *
 * A turn is one Move, one Action and free actions, at most two actions in
 * all (Gain Momentum lifts both limits by the `momentum` setting). Attacks
 * roll a d6 pool against Defense, with range bands taking dice away; a hit
 * rolls damage less the Armor Rating (halved when the attack beats Defense
 * by 7 or more, unless the weapon is Piercing) off Resolve, which is the
 * `hp` track. At Resolve 0 a player character or significant NPC is
 * Wounded (a condition), a minor NPC is defeated. A Wounded player
 * character who takes more damage chooses a Fallen Fate or spends one of
 * its ignores.
 *
 * The arithmetic is split into pure functions of values already rolled
 * (rsv_init_score, rsv_hit, rsv_after_damage, ...) so the chapter's rules
 * can be tested with exact numbers; the ops roll and then call them.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_RESOLVE_H
#define RS_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "rs.h"
#include "rs_kit.h"

/* ---- limits and constants ------------------------------------------------ */

/* What NPCs add to their initiative rank instead of rolling. */
#define RSV_NPC_INIT 3
#define RSV_MAJOR_INIT 6
/* Largest rank, attribute or defense a stat may hold. */
#define RSV_MAX_RANK 100
/* Largest armor rating. */
#define RSV_MAX_ARMOR 1000
/* Actions per turn (one Action) and in all, free actions included. */
#define RSV_ACTIONS 1
#define RSV_MAX_TOTAL 2
/* What Gain Momentum adds to both limits by default, and the most a setting
 * may give. */
#define RSV_MOMENTUM 1
#define RSV_MAX_MOMENTUM 5
/* Help actions one roll may benefit from. */
#define RSV_MAX_HELPS 2
/* Beating Defense by this much halves the Armor Rating. */
#define RSV_OVERKILL 7
/* Desperate Push: 2D, dies on this or less. */
#define RSV_PUSH_DICE "2D"
#define RSV_PUSH_DIES_AT 7
/* Tragic Demise: what each witnessing ally regains. */
#define RSV_DEMISE_DICE "2D"
#define RSV_DEMISE_FP 1
/* Times a character may take Never the Same in its life. */
#define RSV_MAX_NEVER 2
/* Dice Never the Same takes away in all. */
#define RSV_NEVER_DICE 2
/* Unused help: the Resolve one character regains. */
#define RSV_HELP_REGAIN 1
/* The /attack options text, and one word of it, in bytes. */
#define RSV_MAX_OPTIONS 256
#define RSV_MAX_WORD 80
/* Names in one list option (help:, witnesses:). */
#define RSV_MAX_NAMES 8
/* A declared trigger for a held action, in bytes. */
#define RSV_MAX_TRIGGER 80

/* Names the ruleset gives things. */
#define RSV_RESOLVE "hp"            /* the Resolve track */
#define RSV_WOUNDED "Wounded"
#define RSV_DEFENDING "Defending"
#define RSV_AIM "Aim"
#define RSV_AIM_RANGE "Aim (range)"

/* ---- per-combatant state (enc_combatant.rs) ------------------------------ */

enum rsv_cslot {
    RSV_C_MOVED = 0,         /* the Move is spent this turn */
    RSV_C_ACTIONS,           /* Actions taken this turn */
    RSV_C_FREE,              /* free actions taken this turn */
    RSV_C_MOMENTUM,          /* Gain Momentum this turn */
    RSV_C_HELD,              /* enum rsv_held: an action held for a trigger */
    RSV_C_FIRED,             /* a held attack was triggered: may attack now */
    RSV_C_HELP,              /* a Help action is ready (1) */
    RSV_C_HELP_RANK,         /* the rank it adds */
    RSV_C_RALLY,             /* the unused help may restore 1 Resolve now */
    RSV_C_IGNORES_USED,      /* Fallen Fate ignores spent since resting */
    RSV_C_FATE,              /* enum rsv_fate_due: a fate is to be chosen */
    RSV_C_FATE_DAMAGE,       /* the damage that called for it */
    RSV_C_OUT,               /* enum rsv_out: why it left the fight */
    RSV_C_RESUME,            /* its turn was started, then delayed */
};

/* ---- per-encounter state (encounter.rs) ---------------------------------- */

enum rsv_eslot {
    RSV_E_BLAZE = 0,         /* id taking a Blaze of Glory turn, 0 = none */
};

enum rsv_held {
    RSV_HELD_NONE = 0,
    RSV_HELD_ATTACK,
    RSV_HELD_ITEM,
    RSV_HELD_SKILL,
};

enum rsv_fate_due {
    RSV_FATE_NONE = 0,
    RSV_FATE_MAY_IGNORE,     /* a fate is due; an ignore may be spent */
    RSV_FATE_MUST,           /* a fate is due and cannot be ignored */
};

enum rsv_out {
    RSV_OUT_NONE = 0,
    RSV_OUT_ESCAPED,
    RSV_OUT_REMOVED,         /* Never the Same */
    RSV_OUT_DEAD,
};

enum rsv_range {
    RSV_RANGE_NONE = 0,      /* not given: no penalty */
    RSV_RANGE_CLOSE,
    RSV_RANGE_SHORT,
    RSV_RANGE_MEDIUM,
    RSV_RANGE_LONG,
    RSV_RANGE_EXTREME,
};

/* ---- pure rules ---------------------------------------------------------- */

/* A combatant's initiative score: for a player character die (1..6) + rank;
 * for an NPC rank + 3, or + 6 when major (die ignored). */
int64_t rsv_init_score(bool pc, bool major, int64_t rank, int die);

/* Order two combatants: < 0 when a acts first. Higher score first; on a tie
 * a player character before an NPC; then join order. */
int rsv_init_order(int64_t score_a, bool pc_a, uint32_t join_a,
                   int64_t score_b, bool pc_b, uint32_t join_b);

/* The range band named s (close, short, medium, long, extreme); false when
 * s names none. */
bool rsv_range_parse(const char *s, enum rsv_range *out);

/* Dice a ranged attack loses at range r: close 1, long 1, extreme 2;
 * aim_range (an Aim spent on range) ignores up to 1 of it at long or
 * extreme. Melee attacks lose none. */
int rsv_range_penalty(enum rsv_range r, bool ranged, bool aim_range);

/* An attack whose dice are rolled: what it did. */
struct rsv_hit_in {
    int64_t attack;          /* the attack total, aim and help included */
    int64_t defense;         /* the target's Defense without Defend */
    int64_t defend_bonus;    /* its Defend bonus, 0 when not defending */
    int64_t armor;           /* Armor Rating against the damage type */
    bool piercing;           /* the weapon has the Piercing quality */
    int64_t damage;          /* the damage roll (used only on a hit) */
};
struct rsv_hit_out {
    bool hit;
    bool defend_lapses;      /* the Defend bonus turned a hit into a miss */
    bool armor_halved;       /* beat Defense by 7 or more, not Piercing */
    int64_t armor;           /* the Armor Rating that applied */
    int64_t loss;            /* Resolve lost: damage - armor, at least 0 */
};
void rsv_hit(const struct rsv_hit_in *in, struct rsv_hit_out *out);

/* What damage does to a character's standing. */
enum rsv_after {
    RSV_AFTER_NONE = 0,      /* nothing beyond the Resolve lost */
    RSV_AFTER_WOUNDED,       /* Resolve reached 0: now Wounded */
    RSV_AFTER_DEFEATED,      /* a minor NPC at 0, or a Wounded NPC hit */
    RSV_AFTER_FATE,          /* a fate is due; an ignore may be spent */
    RSV_AFTER_FATE_MUST,     /* a fate is due and cannot be ignored */
};
struct rsv_after_in {
    int64_t resolve_after;   /* Resolve once the damage is off */
    int64_t max;             /* maximum Resolve (0 = none) */
    int64_t loss;            /* the damage taken */
    bool wounded;            /* Wounded before this damage */
    bool pc;                 /* a player character */
    bool significant;        /* a significant (or major) NPC */
    int64_t ignores_left;
};
enum rsv_after rsv_after_damage(const struct rsv_after_in *in);

/* Fallen Fate ignores a character has until it rests: the higher of its
 * Stamina and Control ranks. */
int64_t rsv_ignores(int64_t stamina, int64_t control);

/* Desperate Push: true when a 2D total of roll survives. */
bool rsv_push_survives(int64_t roll);

/* ---- shared by the ruleset's files --------------------------------------- */

/* A player character: owned by a player, or given the stat pc=1. */
bool rsv_is_pc(const struct enc_combatant *who);
/* A major NPC: major:true at /combat add, or the stat major=1. */
bool rsv_is_major(const struct enc_combatant *who);
/* A significant NPC: major, or the stat significant=1. */
bool rsv_is_significant(const struct enc_combatant *who);
bool rsv_is_wounded(struct enc_combatant *who);
/* Per-encounter setting value, or dflt. */
int64_t rsv_setting_int(const struct encounter *e, const char *key,
                        int64_t dflt);

/* The action limits of who this turn. */
int64_t rsv_actions_max(const struct encounter *e,
                        const struct enc_combatant *who);
int64_t rsv_total_max(const struct encounter *e,
                      const struct enc_combatant *who);
/* Fail unless who may take one more Action (free = false) or free action
 * this turn; does not spend it. */
enum eng_err rsv_check_action(struct rs_call *c,
                              const struct enc_combatant *who, bool free,
                              const char *what);
void rsv_spend_action(struct enc_combatant *who, bool free);
/* The combatant whose turn it is, checked as the one the sender may act
 * for; fails with a message otherwise. */
enum eng_err rsv_require_current(struct rs_call *c,
                                 struct enc_combatant **out);

/* The combatant named by option opt, checked as one the sender may act
 * for. */
enum eng_err rsv_named_actor(struct rs_call *c, const char *opt,
                             struct enc_combatant **out);

/* Emit a text event for who (0 = nobody), printf style. */
void rsv_say(struct rs_call *c, const struct enc_combatant *who,
             const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Take loss Resolve from who (never below 0) and apply what follows:
 * Wounded, defeated, or a Fallen Fate to choose. */
void rsv_damage(struct rs_call *c, struct enc_combatant *who, int64_t loss);
/* Regain amount Resolve, up to the maximum. */
void rsv_regain(struct rs_call *c, struct enc_combatant *who,
                int64_t amount);
/* Whether who is out of the fight for good (escaped, removed, dead). */
bool rsv_is_out(const struct enc_combatant *who);
/* Take who out of the fight for reason. */
void rsv_take_out(struct rs_call *c, struct enc_combatant *who,
                  enum rsv_out reason);

/* Blaze of Glory: end the current turn and start who's at once. */
void rsv_blaze_turn(struct rs_call *c, struct enc_combatant *who);
/* Delay: move the current combatant's turn to right after target's. */
enum eng_err rsv_delay_turn(struct rs_call *c, struct enc_combatant *who,
                            struct enc_combatant *target);

/* End the current turn and start the next (the next op). */
enum eng_err rsv_next(struct rs_call *c);

enum eng_err rsv_attack(struct rs_call *c, const struct rs_attack *a);
enum eng_err rsv_check(struct rs_call *c);
enum eng_err rsv_fate(struct rs_call *c);
void rsv_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);

/* Prompts in rs_resolve.prompts: a Fallen Fate that may be ignored, and
 * one that must be taken. */
#define RSV_PROMPT_FATE 0
#define RSV_PROMPT_FATE_MUST 1


/* ---- the system's surface (rs_resolve_decl.c) ------------------------------ */

extern const struct rs_ops rsv_ops;
extern const struct rs_prompt rsv_prompts[];

/* Command handlers, run through the command table. */
enum eng_err rsv_cmd_delay(struct rs_call *c);
enum eng_err rsv_cmd_move(struct rs_call *c);
enum eng_err rsv_cmd_act(struct rs_call *c);
enum eng_err rsv_cmd_momentum(struct rs_call *c);
enum eng_err rsv_cmd_defend(struct rs_call *c);
enum eng_err rsv_cmd_aim(struct rs_call *c);
enum eng_err rsv_cmd_help(struct rs_call *c);
enum eng_err rsv_cmd_rally(struct rs_call *c);
enum eng_err rsv_cmd_hold(struct rs_call *c);
enum eng_err rsv_cmd_trigger(struct rs_call *c);
enum eng_err rsv_cmd_escape(struct rs_call *c);
enum eng_err rsv_cmd_damage(struct rs_call *c);
enum eng_err rsv_cmd_rest(struct rs_call *c);

#endif
