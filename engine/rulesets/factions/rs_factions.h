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
 * Split: rs_factions.c holds the turn structure, settings and the
 * descriptor; rs_factions_attack.c holds /attack; rs_factions_fight.c holds
 * the pure rules, saves, reactions, morale and the commands of the ruleset.
 *
 * Ownership: all arguments are borrowed for the call.
 */
#ifndef RS_FACTIONS_H
#define RS_FACTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "rs.h"
#include "rs_kit.h"

/* ---- limits -------------------------------------------------------------- */

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
/* Attack options text, in bytes. */
#define FAC_MAX_OPTIONS 200
/* Words in the attack options text. */
#define FAC_MAX_WORDS 16
/* Steps the turn flow may take in one command (auto-passes, phase ends):
 * a bound, not a rule; two rounds of every faction passing fit easily. */
#define FAC_FLOW_STEPS (8 * ENC_MAX_SIDES + 16)

/* ---- state kept in the rs[] scratch slots --------------------------------- */

enum fac_eslot {
    FAC_E_HOLDER = 0,        /* side holding the initiative */
    FAC_E_FIRST,             /* side acting first this round (its phases) */
    FAC_E_PASSES,            /* bit per side: passed since the phase's
                                last activation */
    FAC_E_FAT,               /* fast action threshold this round; 0 = none */
    FAC_E_ROUND_ACTS,        /* activations (picks) so far this round */
    FAC_E_PHASE_ACTS,        /* activations so far this phase */
    FAC_E_PHASE_PASSED,      /* passes chosen (not automatic) this phase */
    FAC_E_TURN,              /* id whose activated turn runs; 0 = none */
};
_Static_assert(ENC_MAX_SIDES < 63, "FAC_E_PASSES holds a bit per side");

/* The attack waiting for its target's answer (see rs_factions_react.c):
 * FAC_E_PEND_ATT = 0 when there is none. Its damage dice are kept in the
 * attacker's slots from FAC_C_PEND_DMG. */
enum fac_eslot_pending {
    FAC_E_PEND_ATT = 8,      /* the attacker's id */
    FAC_E_PEND_TGT,          /* the target's id (after a hide) */
    FAC_E_PEND_FLAGS,        /* FAC_PF_* */
};

enum fac_sslot {
    FAC_S_START = 0,         /* the faction's original number */
};

enum fac_cslot {
    FAC_C_MORALE = 0,        /* enum fac_morale */
    FAC_C_GEAR,              /* FAC_GEAR_* bits: used in this fight */
    FAC_C_REACTED,           /* rounds in which it reacted (for display) */
    FAC_C_PEND_DMG,          /* a waiting attack's damage dice, as text */
};
/* Slots (8 bytes each) that hold the waiting attack's damage dice. */
#define FAC_C_PEND_DMG_SLOTS 12
enum fac_cslot_more {
    /* damage left hp at half or less (the lone character's morale) */
    FAC_C_HALVED = FAC_C_PEND_DMG + FAC_C_PEND_DMG_SLOTS,
};
/* Longest damage dice an attack that waits for an answer can keep. */
#define FAC_MAX_PENDING_DAMAGE (FAC_C_PEND_DMG_SLOTS * 8 - 1)
_Static_assert(FAC_C_PEND_DMG + FAC_C_PEND_DMG_SLOTS <= FAC_C_HALVED &&
               FAC_C_HALVED < ENC_RS_SLOTS,
               "the waiting attack's dice fit the combatant's slots");
_Static_assert(FAC_E_PEND_FLAGS < ENC_RS_SLOTS, "encounter slots");

/* FAC_E_PEND_FLAGS: what the waiting attack keeps of its options. */
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
#define FAC_COND_CONCEALED "Concealed"
#define FAC_COND_BROKEN "Broken"
#define FAC_COND_SURRENDERED "Surrendered"
#define FAC_COND_GRABBED "Grabbed"
#define FAC_COND_DISARMED "Disarmed"

/* ---- pure rules ---------------------------------------------------------- */

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

/* ---- shared between the files ------------------------------------------------ */

/* An attack's options (the /attack options text, parsed). */
struct fac_atk {
    unsigned how;            /* FAC_AT_* */
    bool impaired, unarmed, cover, penetrates, final, opportunity;
    bool unaware, damaged, disarm, grapple, blast;
    bool wait;               /* pause for the target's answer anyway */
    bool stunt;              /* an alternative effect is proposed */
    bool peek;               /* the attacker peeks from behind a barrier:
                                cover against a counter */
    char react[16];          /* "", "dodge", "counter", "none" */
    char counter[64];        /* the countering weapon's dice */
    char guard[ENC_MAX_NAME + 1];
    char hide[ENC_MAX_NAME + 1];
    char by[ENC_MAX_NAME + 1];  /* blast: the one target who counters */
    char dodgers[FAC_MAX_WORDS][ENC_MAX_NAME + 1]; /* blast: who dodges */
    int ndodgers;
    int64_t zone;            /* blast: target zone, -1 = the attacker's */
    int64_t neighbours[FAC_MAX_NEIGHBOURS];
    int nneigh;
};

/* Parse the /attack options text into o (rs_factions_opts.c). */
enum eng_err fac_parse_atk(struct rs_call *c, const char *text,
                           struct fac_atk *o);

/* How the target answers an attack that stands. */
enum fac_rx {
    FAC_RX_NONE = 0,
    FAC_RX_DODGE,
    FAC_RX_COUNTER,          /* with the countering weapon's dice */
    FAC_RX_ACCEPT,           /* accepts the proposed stunt */
};

/* Finish an attack that stands (its save to hit, if any, passed): the
 * reaction rx, checked but not yet spent, then the stunt, the non-lethal
 * save or the damage. counter is the countering dice for FAC_RX_COUNTER. */
enum eng_err fac_finish(struct rs_call *c, struct enc_combatant *att,
                        struct enc_combatant *tgt, const char *damage,
                        const struct fac_atk *o, enum fac_rx rx,
                        const char *counter);

/* Whether a counter's "dice" name a non-lethal counter (disarm, grapple);
 * *disarm tells which. */
bool fac_counter_nonlethal(const char *counter, bool *disarm);

/* Whether who could still react: able to act and no turn taken. */
bool fac_may_react(const struct enc_combatant *who);

/* Pause an attack that stands until its target answers (/react) or the
 * next command that moves the fight on. */
enum eng_err fac_pending_store(struct rs_call *c, struct enc_combatant *att,
                               struct enc_combatant *tgt, const char *damage,
                               const struct fac_atk *o, bool surprised);

/* Finish a waiting attack as if its target did not react (a no-op when
 * none waits). Every command that moves the fight on calls it first. */
enum eng_err fac_pending_flush(struct rs_call *c);

/* /react while an attack waits: the target's (or a guard's) answer. Sets
 * *handled when the reaction belonged to the waiting attack. */
enum eng_err fac_react_pending(struct rs_call *c, struct enc_combatant *who,
                               const char *kind, bool *handled);

/* Sides that take part: those with at least one combatant. */
int fac_factions(const struct encounter *e);

/* Roll a save of who against attribute attr ("str", "agi", "wit"), recorded
 * under label; *pass gets the outcome. Fails when who lacks the stat. */
enum eng_err fac_save(struct rs_call *c, struct enc_combatant *who,
                      const char *attr, const char *label, bool *pass);

/* Whether who has the condition named name. */
bool fac_has_cond(const struct enc_combatant *w, const char *name);

/* Fail with a hint when who has no score attr ("str", "agi", "wit"). */
enum eng_err fac_need_attr(struct rs_call *c, const struct enc_combatant *who,
                           const char *attr);

/* Take amount from who's hp (from is the source), with the events and the
 * track rule (down at 0, harm ends a surrender). */
void fac_hurt(struct rs_call *c, struct enc_combatant *from,
              struct enc_combatant *who, int64_t amount, int roll);

/* who's armour value: body armour plus shield. */
int64_t fac_armour(const struct enc_combatant *who);

/* A damaging hit lands: raw damage (before armour) may destroy damaged
 * gear, then amount (after armour, worked out with the gear as it was when
 * the blow came) is taken from hp. */
void fac_land(struct rs_call *c, struct enc_combatant *from,
              struct enc_combatant *who, int64_t raw, int64_t amount,
              int roll);

/* Still fighting for its side's numbers: not down, not dead, not broken,
 * not surrendered. */
bool fac_in_fight(const struct enc_combatant *who);

/* The morale phase at the end of a round. */
void fac_morale_phase(struct rs_call *c);

/* Mark who as reacting: refuses one who already acted this round; spends
 * the turn (turn boundaries run, so durations stay exact) and restores the
 * turn that was running. */
enum eng_err fac_check_react(struct rs_call *c, struct enc_combatant *who);
void fac_spend_reaction(struct rs_call *c, struct enc_combatant *who,
                        const char *what);

/* The turn flow after the current turn ended or a faction passed (fresh =
 * false), or when a phase has just opened (fresh = true). */
enum eng_err fac_flow(struct rs_call *c, bool fresh);

/* After something out of order (a reaction while a faction is deciding):
 * if the deciding faction has nobody left to act, it passes on its own and
 * the flow goes on. */
enum eng_err fac_recheck(struct rs_call *c);

/* Before a command that moves the fight on: finish a waiting attack and
 * catch up with what changed outside the ruleset (see rs_factions.c). */
enum eng_err fac_sync(struct rs_call *c);

/* End the running turn and hand the decision to the next faction. */
enum eng_err fac_end_turn(struct rs_call *c);

/* Activate who for its faction (the checks and the turn start of
 * /combat pick). */
enum eng_err fac_activate(struct rs_call *c, struct enc_combatant *who);

/* A character's harm while surrendered lets it fight again. */
void fac_harmed(struct rs_call *c, struct enc_combatant *who);

/* The op in rs_factions_attack.c. */
enum eng_err fac_attack(struct rs_call *c, const struct rs_attack *a);

void fac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);

/* Verbs of rs_factions_fight.c that need the turn flow. */
enum eng_err fac_cmd_first(struct rs_call *c);
enum eng_err fac_cmd_fat(struct rs_call *c);
enum eng_err fac_cmd_surrender(struct rs_call *c);

/* Emit a text event (printf format). */
void fac_say(struct rs_call *c, uint32_t who, bool secret, const char *fmt,
             ...) __attribute__((format(printf, 4, 5)));


/* ---- the system's surface (rs_factions_decl.c) ------------------------------ */

extern const struct rs_ops fac_ops;

/* Command handlers, run through the command table. */
enum eng_err fac_cmd_test(struct rs_call *c);
enum eng_err fac_cmd_chase(struct rs_call *c);
enum eng_err fac_cmd_react(struct rs_call *c);
enum eng_err fac_cmd_morale(struct rs_call *c);
enum eng_err fac_cmd_durability(struct rs_call *c);

#endif
