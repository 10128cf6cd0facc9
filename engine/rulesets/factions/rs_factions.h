/*
 * rs_factions.h - private interface of the `factions` ruleset.
 *
 * Factions (the encounter's sides) alternate: the faction whose decision it
 * is either activates one of its characters who has not acted this round or
 * passes, and a phase ends when every faction has passed one after another.
 * A round is one phase, or with the optional fast/slow rule (setting
 * phases=on) a fast phase for characters whose WIT meets the d20 fast action
 * threshold, then a slow phase for everyone who has not acted. Concealed
 * ambushers get a bonus phase before round 1. Saves are a d20 against STR,
 * AGI or WIT. The pure rule functions (fac_rule_*) take dice values and
 * return outcomes, so the chapter's examples are tested without dice.
 *
 * The files are layers; each calls only the ones above it in this list, so
 * no two depend on each other (of the ruleset's headers, each includes
 * only this one):
 *
 *   rs_factions_rules.c   pure rules and small predicates
 *   rs_factions_harm.c    saves, spending reactions, harm and gear
 *   rs_factions_strike.c  an attack that stands: reaction, effect, damage
 *   rs_factions_saves.c   morale, group saves, /test /chase /morale
 *                         /durability
 *   rs_factions_wait.c    an attack waiting for its target's answer
 *   rs_factions_turns.c   the turn flow: begin, pick, pass, next, /first,
 *                         /threshold, /surrender
 *   rs_factions_attack.c  /attack: the plan, its save to hit, blasts
 *   rs_factions_react.c   /react
 *   rs_factions.c         setup, stat checks, the tracker line, the ops
 *   rs_factions_decl.c    the declaration (rs.h)
 *
 * Ownership: all arguments are borrowed for the call.
 */
#ifndef RS_FACTIONS_H
#define RS_FACTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "eng_limits.h"
#include "rs.h"
#include "rs_kit.h"

/* ---- limits ------------------------------------------------------------- */

/* Attribute scores (STR, AGI, WIT) accepted; saves are a d20 under them. */
#define FAC_MAX_ATTR 30
/* Armour value accepted (body armour, and what a shield adds). */
#define FAC_MAX_ARMOUR 20
/* Damage before armour reduction that destroys a damaged shield or a
 * damaged suit of armour (the chapter's gear degradation rule). */
#define FAC_BREAK_DAMAGE 8
/* Zone numbers accepted for blast attacks. */
#define FAC_MAX_ZONE 99
/* Neighbouring zones one blast may deviate into. */
#define FAC_MAX_NEIGHBOURS 12
/* Text of a blast's dodgers:, of /combat begin surprise: and of
 * neighbours:, in bytes (the options text as a whole is shorter still). */
#define FAC_MAX_LIST RS_MAX_TOKENS_TEXT
/* Steps the turn flow may take in one command (auto-passes, phase ends):
 * a bound, not a rule; two rounds of every faction passing fit easily. */
#define FAC_FLOW_STEPS (8 * ENC_MAX_SIDES + 16)
/* Threshold of the fast action phase: a d20. */
#define FAC_MAX_FAT 20

/* ---- typed state -------------------------------------------------------- */

/* On the encounter. The fields before fat_next were numbered slots 0-10 of
 * older documents (rs_factions_decl.c names them for the upgrade). */
struct fac_enc {
    int32_t holder;          /* side holding the initiative */
    int32_t first;           /* side acting first this round (its phases) */
    int64_t passes;          /* bit per side: passed since the phase's
                                last activation */
    int32_t fat;             /* fast action threshold this round; 0 = none */
    int32_t round_acts;      /* activations (picks) so far this round */
    int32_t phase_acts;      /* activations so far this phase */
    int32_t phase_passed;    /* passes chosen (not automatic) this phase */
    uint32_t turn;           /* id whose activated turn runs; 0 = none */
    uint32_t pend_att;       /* the attack waiting for an answer: its
                                attacker (0: none waits) */
    uint32_t pend_tgt;       /* its target (after a hide) */
    int32_t pend_flags;      /* FAC_PF_*: what it keeps of its options */
    int32_t fat_next;        /* a threshold the GM gave for round 1, before
                                it opened; 0: roll it */
};
_Static_assert(ENC_MAX_SIDES < 63, "fac_enc.passes holds a bit per side");

/* On each side. */
struct fac_side {
    int32_t start;           /* the faction's original number */
};

/* On each combatant. */
struct fac_comb {
    int32_t morale;          /* enum fac_morale */
    int32_t gear;            /* FAC_GEAR_* bits: used in this fight */
    int64_t reacted;         /* the round its turn went on a reaction;
                                FAC_NO_ROUND after an activation */
    char pend_dmg[DICE_MAX_EXPR_LEN + 1]; /* damage dice of its attack
                                             that waits for an answer */
    bool halved;             /* damage left hp at half or less (the lone
                                character's morale trigger) */
};

#define FAC_E(e) RS_STATE(struct fac_enc, (e))
#define FAC_S(e, i) RS_STATE(struct fac_side, &(e)->sides[(i)])
#define FAC_C(w) RS_STATE(struct fac_comb, (w))

/* fac_comb.reacted when the turn was an activation: no round. */
#define FAC_NO_ROUND (-1)

/* fac_enc.pend_flags: what the waiting attack keeps of its options. */
#define FAC_PF_IMPAIRED   (1 << 0)
#define FAC_PF_UNARMED    (1 << 1)
#define FAC_PF_COVER      (1 << 2)
#define FAC_PF_PENETRATES (1 << 3)
#define FAC_PF_DAMAGED    (1 << 4)
#define FAC_PF_DISARM     (1 << 5)
#define FAC_PF_GRAPPLE    (1 << 6)
#define FAC_PF_STUNT      (1 << 7)
#define FAC_PF_SURPRISED  (1 << 8)
#define FAC_PF_PEEK       (1 << 9)

/* e->phase */
enum fac_phase {
    FAC_PH_ROUND = 0,        /* a plain round (fast/slow rule off) */
    FAC_PH_AMBUSH,           /* the concealed ambushers' bonus turn */
    FAC_PH_FAST,
    FAC_PH_SLOW,
};

enum fac_morale {
    FAC_MOR_UNTESTED = 0,
    FAC_MOR_STEADY,          /* passed: exempt for the rest of the fight */
    FAC_MOR_BROKEN,          /* failed: must surrender or retreat */
};

#define FAC_GEAR_WEAPON (1 << 0) /* attacked with a weapon */
#define FAC_GEAR_ARMOUR (1 << 1) /* was hit while wearing armour */
#define FAC_GEAR_SHIELD (1 << 2) /* was hit while carrying a shield */

/* Stats of the gear rules: a shield adds its value to armour; the damaged
 * flags (0/1) mark gear that the next hard hit destroys. */
#define FAC_STAT_ARMOUR "armour"
#define FAC_STAT_SHIELD "shield"
#define FAC_STAT_ARMOUR_DAMAGED "armour_damaged"
#define FAC_STAT_SHIELD_DAMAGED "shield_damaged"

/* Condition names the ruleset gives and reads. */
#define FAC_COND_CONCEALED NC_("condition", "Concealed")
#define FAC_COND_BROKEN NC_("condition", "Broken")
#define FAC_COND_SURRENDERED NC_("condition", "Surrendered")
#define FAC_COND_GRABBED NC_("condition", "Grabbed")
#define FAC_COND_DISARMED NC_("condition", "Disarmed")

/* ---- rs_factions_rules.c: pure rules and predicates --------------------- */

/* Whether a save roll passes against attribute attr: at or below it by
 * default (README), strictly below with strict (setting save=below). */
bool fac_rule_save(int64_t roll, int64_t attr, bool strict);

/* Whether a character with WIT wit may take its turn in the fast phase. */
bool fac_rule_fast(int64_t wit, int64_t fat);

/* A group reduced to half or less of its original number (start > 1). */
bool fac_rule_morale_group(int64_t start, int64_t now);

/* A lone character at half its maximum health or less. */
bool fac_rule_morale_lone(int64_t hp, int64_t max);

/* Damage left after armour; cover adds 1 unless the attack penetrates. */
int64_t fac_rule_damage(int64_t raw, int64_t armour, bool cover,
                        bool penetrates);

/* Which damaged item a hit of raw damage (before armour) destroys: a
 * damaged shield first, else damaged armour; one item per hit. */
enum fac_break {
    FAC_BREAK_NONE = 0,
    FAC_BREAK_SHIELD,
    FAC_BREAK_ARMOUR,
};
enum fac_break fac_rule_break(int64_t raw, bool shield_damaged,
                              bool armour_damaged);

/* A counter: who is hit first. */
enum fac_first {
    FAC_FIRST_TARGET = 0,    /* the countering target suffers more */
    FAC_FIRST_ATTACKER,      /* the attacker suffers more */
    FAC_FIRST_BOTH,          /* a tie: both at the same time */
};
enum fac_first fac_rule_counter(int64_t to_target, int64_t to_attacker);

/* How an attack may be made. */
#define FAC_AT_MELEE       (1u << 0)
#define FAC_AT_RANGED      (1u << 1)
#define FAC_AT_INDIRECT    (1u << 2)
#define FAC_AT_FAR         (1u << 3)  /* beyond half range */
#define FAC_AT_MOVING      (1u << 4)
#define FAC_AT_UNSEEN      (1u << 5)  /* the target is not visible */
#define FAC_AT_CHALLENGING (1u << 6)  /* the GM calls for the save */

/* Whether the attack needs a WIT save to hit (*need), or ENG_STATE with a
 * reason in *why when the text rules it out. */
enum eng_err fac_rule_hit(unsigned how, bool *need, const char **why);

/* word (a reason or a name marked N_()) in the language of d's reader,
 * for a refusal's "%s": enc_fail() translates only its format. */
const char *fac_diag_word(const struct enc_diag *d, const char *word);

/* The system itself, for the kit's conditions and settings. It is found
 * through the registry so that the rules do not depend on the file that
 * declares them (rs_factions_decl.c depends on every other file). */
const struct rs_system *fac_sys(void);

/* A setting as a number (bools 0/1) with its declared default. */
int64_t fac_setting(const struct encounter *e, const char *key);

/* Whether who has the condition named name. */
bool fac_has_cond(const struct enc_combatant *w, const char *name);

/* Members of side; sides that take part (with at least one member). */
int fac_side_size(const struct encounter *e, int side);
int fac_factions(const struct encounter *e);

/* Still fighting for its side's numbers: not down, not dead, not broken,
 * not surrendered. */
bool fac_in_fight(const struct enc_combatant *who);

/* Whether who could still react: able to act and no turn taken. */
bool fac_may_react(const struct enc_combatant *who);

/* who's armour value: body armour plus shield. */
int64_t fac_armour(const struct enc_combatant *who);

/* Whether a counter's "dice" name a non-lethal counter (disarm, grapple);
 * *disarm tells which. */
bool fac_counter_nonlethal(const char *counter, bool *disarm);

/* ---- rs_factions_harm.c: saves, reactions, harm ------------------------- */

/* Fail with a hint when who has no score attr ("str", "agi", "wit"). */
enum eng_err fac_need_attr(struct rs_call *c, const struct enc_combatant *who,
                           const char *attr);

/* Roll who's save against attribute attr ("str", "agi", "wit") without an
 * event: the roll is who's, recorded with its dice. */
struct fac_saved {
    struct rs_rolled roll;
    int64_t score;
    bool pass;
};
enum eng_err fac_save_roll(struct rs_call *c, const struct enc_combatant *who,
                           const char *attr, struct fac_saved *out);

/* A save as a test event labelled label ("AGI save to dodge"); *pass gets
 * the outcome. Fails when who lacks the score. */
enum eng_err fac_save(struct rs_call *c, struct enc_combatant *who,
                      const char *attr, const char *label, bool *pass);

/* Give who a condition through the system's table. */
enum eng_err fac_give(struct rs_call *c, struct enc_combatant *who,
                      const char *cond, uint32_t source);

/* Why who cannot react now ("out of the fight", "already took a turn this
 * round"), or NULL. */
const char *fac_react_block(const struct enc_combatant *who);

/* Mark who as reacting: refuses a sender who may not act for who, and one
 * who cannot react (fac_react_block). */
enum eng_err fac_check_react(struct rs_call *c, struct enc_combatant *who);

/* Spend who's turn on a reaction (what: "dodges", "guards Cat"): its turn
 * boundaries run, so durations stay exact, and the turn that was running
 * carries on. */
void fac_spend_reaction(struct rs_call *c, struct enc_combatant *who,
                        const char *what, const struct enc_combatant *other);

/* A hit landing on who: the roll, and what reduces it. */
struct fac_hit {
    struct enc_combatant *from;
    int roll;                /* roll index, or -1 */
    int64_t raw;             /* before armour */
    int64_t armour;          /* who's armour as the blow came */
    bool cover, penetrates;
    bool impaired;           /* the impaired die, not the weapon's */
};

/* Fill h's armour from who as it is now. */
void fac_hit_armour(struct fac_hit *h, const struct enc_combatant *who);

/* The damage a hit does after armour. */
int64_t fac_hit_amount(const struct fac_hit *h);

/* A damaging hit lands: its raw damage may destroy damaged gear, then the
 * damage after armour (worked out with the gear as it was when the blow
 * came) is taken from hp, with the events and the track rule. */
void fac_land(struct rs_call *c, struct enc_combatant *who,
              const struct fac_hit *h);

/* A character's harm while surrendered lets it fight again. */
void fac_harmed(struct rs_call *c, struct enc_combatant *who);

void fac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);

/* ---- rs_factions_strike.c: an attack that stands ------------------------ */

/* How the target answers an attack that stands. */
enum fac_rx {
    FAC_RX_NONE = 0,         /* no reaction (or none given yet) */
    FAC_RX_DODGE,
    FAC_RX_COUNTER,          /* with the countering weapon's dice */
    FAC_RX_ACCEPT,           /* accepts the proposed stunt */
    FAC_RX_DECLINE,          /* react=none: takes the hit, no waiting */
};

/* An attack's options, read from /attack options: (rs_factions_attack.c)
 * or from a waiting attack's flags. Strings and combatants are borrowed
 * for the call. */
struct fac_atk {
    unsigned how;            /* FAC_AT_* */
    bool impaired, unarmed, cover, penetrates, final, opportunity;
    bool unaware, damaged, disarm, grapple, blast;
    bool wait;               /* pause for the target's answer anyway */
    bool stunt;              /* an alternative effect is proposed */
    bool peek;               /* the attacker peeks from behind a barrier:
                                cover against a counter */
    enum fac_rx react;       /* the reaction given with the attack */
    const char *counter;     /* the countering weapon's dice, or NULL */
    struct enc_combatant *guard, *hide;
    struct enc_combatant *by;  /* blast: the one target who counters */
    const char *dodgers;     /* blast: who dodges, comma-separated */
    int64_t zone;            /* blast: target zone, -1 = the attacker's */
    int64_t neighbours[FAC_MAX_NEIGHBOURS];
    int nneigh;
};

/* Whether the attacker's target is taken by surprise: it is unaware, or
 * the attacker is concealed. */
bool fac_surprised(const struct enc_combatant *att, const struct fac_atk *o);

/* Say why who's reaction (what: "dodge", "guard") is not made (why:
 * "taken by surprise"): the attack goes on without it. */
void fac_say_no_reaction(struct rs_call *c, const struct enc_combatant *who,
                         const char *what, const char *why);

/* The attack event (no dice: its save to hit, if any, has its own), with
 * what it did for the tallies. */
struct enc_event *fac_attack_event(struct rs_call *c,
                                   const struct enc_combatant *att,
                                   const struct enc_combatant *tgt,
                                   const char *outcome, enum enc_hit hit);

/* Roll the damage of one blow: the weapon's dice, or the impaired die. */
enum eng_err fac_roll_damage(struct rs_call *c,
                             const struct enc_combatant *who,
                             const char *weapon, bool impaired,
                             struct rs_rolled *out);

/* Record gear use for the durability rolls after the fight. */
void fac_gear(struct enc_combatant *att, struct enc_combatant *tgt,
              const struct fac_atk *o);

/* A damaged weapon (or improvised one) breaks on a 1 on its damage die:
 * say so when dmg shows it. */
void fac_weapon_check(struct rs_call *c, const struct enc_combatant *att,
                      const struct fac_atk *o, const struct rs_rolled *dmg);

/* Concealed attacker: attacking reveals it. */
void fac_reveal(struct rs_call *c, struct enc_combatant *att);

/* Damage both ways (a counter): pre, when not NULL, is the attack's
 * damage already rolled (a blast's single roll). */
enum eng_err fac_counter(struct rs_call *c, struct enc_combatant *att,
                         struct enc_combatant *tgt, const char *damage,
                         const struct fac_atk *o, const char *counter,
                         const struct rs_rolled *pre);

/* Finish an attack that stands (its save to hit, if any, passed): the
 * reaction rx, checked but not yet spent, then the stunt, the non-lethal
 * save or the damage. counter is the countering dice for FAC_RX_COUNTER. */
enum eng_err fac_finish(struct rs_call *c, struct enc_combatant *att,
                        struct enc_combatant *tgt, const char *damage,
                        const struct fac_atk *o, enum fac_rx rx,
                        const char *counter);

/* ---- rs_factions_saves.c: morale and group saves ------------------------ */

/* The morale phase at the end of a round. */
void fac_morale_phase(struct rs_call *c);

/* ---- rs_factions_wait.c: an attack waiting for its answer --------------- */

/* Pause an attack that stands until its target answers (/react) or the
 * next command that moves the fight on. */
enum eng_err fac_pending_store(struct rs_call *c, struct enc_combatant *att,
                               struct enc_combatant *tgt, const char *damage,
                               const struct fac_atk *o, bool surprised);

/* Finish a waiting attack as if its target did not react (a no-op when
 * none waits). Every command that moves the fight on calls it first. */
enum eng_err fac_pending_flush(struct rs_call *c);

/* The answers /react gives a waiting attack. */
enum fac_kind {
    FAC_K_DODGE = 0,         /* the order of /react kind:'s choices */
    FAC_K_COUNTER,
    FAC_K_HIDE,
    FAC_K_GUARD,
    FAC_K_OPPORTUNITY,
    FAC_K_OTHER,
    FAC_K_NONE,
    FAC_K_ACCEPT,
};

/* /react while an attack waits: the target's (or a guard's) answer. Sets
 * *handled when the reaction belonged to the waiting attack; fails when
 * it answers an attack and none waits. */
enum eng_err fac_react_pending(struct rs_call *c, struct enc_combatant *who,
                               enum fac_kind kind, bool *handled);

/* ---- rs_factions_turns.c: the turn flow --------------------------------- */

/* After something out of order (a reaction while a faction is deciding):
 * if the deciding faction has nobody left to act, it passes on its own and
 * the flow goes on. */
enum eng_err fac_recheck(struct rs_call *c);

/* Before a command that moves the fight on: finish a waiting attack and
 * catch up with what changed outside the ruleset (a combatant removed). */
enum eng_err fac_sync(struct rs_call *c);

/* Whether who may take its turn now, in the current phase. */
bool fac_eligible(const struct encounter *e, const struct enc_combatant *w);

enum eng_err fac_begin(struct rs_call *c);
enum eng_err fac_next(struct rs_call *c);
enum eng_err fac_pick(struct rs_call *c, struct enc_combatant *who);
enum eng_err fac_pass(struct rs_call *c);
enum eng_err fac_late_join(struct rs_call *c, struct enc_combatant *who);

/* ---- rs_factions_attack.c ----------------------------------------------- */

enum eng_err fac_attack(struct rs_call *c, const struct rs_attack *a);

/* ---- the system's surface (rs_factions.c, rs_factions_decl.c) ----------- */


/* Command handlers, run through the command table. */
enum eng_err fac_cmd_test(struct rs_call *c);
enum eng_err fac_cmd_chase(struct rs_call *c);
enum eng_err fac_cmd_react(struct rs_call *c);
enum eng_err fac_cmd_morale(struct rs_call *c);
enum eng_err fac_cmd_durability(struct rs_call *c);
enum eng_err fac_cmd_first(struct rs_call *c);
enum eng_err fac_cmd_threshold(struct rs_call *c);
enum eng_err fac_cmd_surrender(struct rs_call *c);

/* The ops that rs_factions_decl.c lists in fac_ops: rs_factions.c, */
enum eng_err fac_setup(struct rs_call *c, struct enc_combatant *who);
enum eng_err fac_check_stat(struct rs_call *c,
                            struct enc_combatant *who,
                            const char *name, int64_t value);
/* rs_factions_status.c, */
void fac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out, enc_tr_fn tr,
                const void *tr_ctx);
/* and rs_factions_turns.c. */
enum eng_err fac_timeout(struct rs_call *c);

#endif
