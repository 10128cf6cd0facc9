/*
 * rs_resolve.h - the base of the `resolve` ruleset, private to
 * engine/rulesets/resolve/ and its tests: its limits, its typed state, the
 * chapter's rules as pure functions, and what a combatant is (player
 * character, major or significant NPC, Wounded, out of the fight).
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
 * The files are layers; each uses only the ones above it in this list, so
 * the ruleset's files depend on each other without a cycle:
 *
 *   rs_resolve.c        this header: rules, state, kinds, action limits
 *   rs_resolve_harm.c   Resolve lost and regained, Wounded, defeat, leaving
 *                       the fight (rs_resolve_harm.h)
 *   rs_resolve_turn.c   initiative and the turn loop (rs_resolve_turn.h)
 *   rs_resolve_fight.c  /attack and /check         } the handlers the
 *   rs_resolve_act.c    the turn's own commands    } declaration wires
 *   rs_resolve_fate.c   the Fallen Fates           } (rs_resolve_cmds.h)
 *   rs_resolve_sheet.c  setup, stats, the tracker  }
 *   rs_resolve_decl.c   the declaration (rs.h): commands, options,
 *                       conditions, settings, stats, state, operations
 *
 * The arithmetic is split into pure functions of values already rolled
 * (rsv_init_score, rsv_hit, rsv_after_damage, ...) so the chapter's rules
 * can be tested with exact numbers; the operations roll and then call them.
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
/* Largest rank, attribute, pool or defense a stat may hold. */
#define RSV_MAX_RANK 100
/* Largest armor rating. */
#define RSV_MAX_ARMOR 1000
/* Actions per turn (one Action) and in all, free actions included. */
#define RSV_ACTIONS 1
#define RSV_MAX_TOTAL 2
/* The most extra actions the momentum setting may give. */
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
/* Names in one list option (witnesses:). */
#define RSV_MAX_NAMES 8
/* Bytes of a list of names in one option: RSV_MAX_NAMES of the longest. */
#define RSV_MAX_NAMES_TEXT (RSV_MAX_NAMES * (ENC_MAX_NAME + 1))
/* Bytes of a list of helpers (help: two names). */
#define RSV_MAX_HELP_TEXT (RSV_MAX_HELPS * (ENC_MAX_NAME + 1))
/* Bytes of a note, a destination or a declared trigger. */
#define RSV_MAX_NOTE 80
/* Bytes of a damage type: ar_<type> must fit a stat name. */
#define RSV_MAX_TYPE (ENC_MAX_STAT_NAME - 3)

/* Names the ruleset gives things. */
#define RSV_RESOLVE "hp"            /* the Resolve track */
#define RSV_FP "fp"                 /* the Force Points stat */
/* Fallen Fate ignores spent since the last rest: a stat, so a saved
 * character keeps it from one fight to the next ("Until they Rest"). */
#define RSV_IGNORES_SPENT "ignores_spent"
/* The conditions' names, marked for the catalogs where they are defined:
 * the tracker and the help look them up under the "condition" context. */
#define RSV_WOUNDED NC_("condition", "Wounded")
#define RSV_DEFENDING NC_("condition", "Defending")
#define RSV_AIM NC_("condition", "Aiming")
#define RSV_AIM_RANGE NC_("condition", "Aiming at range")
/* What older documents called the two aims: a fight saved mid-aim keeps
 * its bonus. */
#define RSV_AIM_OLD "Aim"
#define RSV_AIM_RANGE_OLD "Aim (range)"

/* The range bands, nearest first: the choices of /attack's range=. */
extern const char *const rsv_ranges[];

/* ---- typed state (the field tables are in rs_resolve_decl.c) ------------- */

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

/* Each combatant's. */
struct rsv_comb {
    bool moved;              /* the Move is spent this turn */
    int32_t actions;         /* Actions taken this turn */
    int32_t frees;           /* free actions taken this turn */
    bool momentum;           /* Gain Momentum this turn */
    int32_t held;            /* enum rsv_held: held for a trigger */
    bool fired;              /* a held attack was triggered: may attack */
    bool help;               /* a Help action is ready */
    int32_t help_rank;       /* the rank it adds */
    bool rally;              /* the unused help may restore Resolve now */
    int32_t ignores_used;    /* ignores spent, as fights before the
                                RSV_IGNORES_SPENT stat counted them */
    int32_t fate;            /* enum rsv_fate_due */
    int32_t fate_damage;     /* the damage that called for it */
    int32_t out;             /* enum rsv_out: why it left the fight */
    bool resume;             /* its turn was started, then delayed */
};

/* The encounter's. */
struct rsv_enc {
    uint32_t blaze;          /* who takes a Blaze of Glory turn; 0: none */
};

static inline struct rsv_comb *rsv_st(const struct enc_combatant *who)
{
    return RS_STATE(struct rsv_comb, who);
}

static inline struct rsv_enc *rsv_est(const struct encounter *e)
{
    return RS_STATE(struct rsv_enc, e);
}

/* ---- pure rules ---------------------------------------------------------- */

enum rsv_range {
    RSV_RANGE_NONE = 0,      /* not given: no penalty */
    RSV_RANGE_CLOSE,         /* rsv_ranges[0] */
    RSV_RANGE_SHORT,
    RSV_RANGE_MEDIUM,
    RSV_RANGE_LONG,
    RSV_RANGE_EXTREME,
};

/* A combatant's initiative score: for a player character die (1..6) + rank;
 * for an NPC rank + 3, or + 6 when major (die ignored). */
int64_t rsv_init_score(bool pc, bool major, int64_t rank, int die);

/* Order two combatants: < 0 when a acts first. Higher score first; on a tie
 * a player character before an NPC; then join order. */
int rsv_init_order(int64_t score_a, bool pc_a, uint32_t join_a,
                   int64_t score_b, bool pc_b, uint32_t join_b);

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

/* ---- what a combatant is ------------------------------------------------- */

/* A player character: owned by a player, or given the stat pc=1. */
bool rsv_is_pc(const struct enc_combatant *who);
/* A major NPC: major:true at /combat add, or the stat major=1. */
bool rsv_is_major(const struct enc_combatant *who);
/* A significant NPC: major, or the stat significant=1. */
bool rsv_is_significant(const struct enc_combatant *who);
bool rsv_is_wounded(struct enc_combatant *who);
/* Whether who is out of the fight for good (escaped, removed, dead). */
bool rsv_is_out(const struct enc_combatant *who);
/* Fallen Fate ignores who has in all, and left until it rests. */
int64_t rsv_ignores_of(const struct enc_combatant *who);
int64_t rsv_ignores_left(const struct enc_combatant *who);
/* who's Aim condition (RSV_AIM, or the name older documents used), or
 * NULL; range: the one spent on range. */
struct enc_cond *rsv_aim(struct enc_combatant *who, bool range);

/* ---- a turn's limits ----------------------------------------------------- */

/* The action limits of who this turn. */
int64_t rsv_actions_max(const struct encounter *e,
                        const struct enc_combatant *who);
int64_t rsv_total_max(const struct encounter *e,
                      const struct enc_combatant *who);
/* Fail unless who may take one more Action (free = false) or free action
 * this turn; does not spend it. what (marked N_()) says
 * what for, in the refusal's words. */
enum eng_err rsv_check_action(struct rs_call *c,
                              const struct enc_combatant *who, bool free,
                              const char *what);
void rsv_spend_action(struct enc_combatant *who, bool free);
/* Whether who has done anything yet this turn. */
bool rsv_turn_untouched(const struct enc_combatant *who);
/* The combatant whose turn it is, checked as one the sender may act for;
 * NULL with c->d saying why otherwise. */
struct enc_combatant *rsv_current(struct rs_call *c);

/* ---- shared pieces ------------------------------------------------------- */

/* Give who the system's condition q (rs_cond_give: its declared start,
 * cap and duration). */
enum eng_err rsv_give(struct rs_call *c, struct enc_combatant *who,
                      const struct rs_cond_give *q);
/* Remove who's condition name when it has it. */
void rsv_take(struct rs_call *c, struct enc_combatant *who,
              const char *name);
/* Remove who's Aims, whatever they are called. */
void rsv_take_aims(struct rs_call *c, struct enc_combatant *who);

/* The combatants named in list ("Ana, Bo"), at most max, none named twice,
 * into out; opt names the option for messages. A player is told "did you
 * mean" only for names they may see. */
enum eng_err rsv_names(struct rs_call *c, const char *opt, const char *list,
                       int max, struct enc_combatant **out, int *n);

/* Prompts in the declaration's prompts: a Fallen Fate that may be
 * ignored, and one that must be taken. */
#define RSV_PROMPT_FATE 0
#define RSV_PROMPT_FATE_MUST 1
#define RSV_NPROMPTS 2

#endif
