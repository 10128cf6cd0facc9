/*
 * rs_teams.h - the `teams` ruleset, private to engine/rulesets/teams and its
 * tests.
 *
 * Teams (the encounter's sides) alternate: the acting team picks one member
 * who has not acted this round, that member takes a turn of three actions,
 * then play passes to the next team in initiative order that still has
 * someone able to act. A team that has run out is skipped; the round ends
 * when everybody able has acted. An optional surprise round lets one team
 * (and whoever cannot be surprised) act alone first. A character who falls
 * unconscious during their own turn loses the rest of it.
 *
 * Attacks are a test (attribute die + combat skill die + proficiency)
 * against evasion with a d20 luck die beside it for criticals and, for
 * thrown and projectile weapons, stray shots; damage is the test plus the
 * weapon's damage less the damage reduction for its type, and goes to
 * endurance, then health.
 *
 * The rules are split so the arithmetic can be tested with the chapter's own
 * numbers: te_attack_resolve() and te_damage_apply() are pure functions of
 * values already rolled; the ops roll and then call them.
 *
 * Ownership: arguments are borrowed for the call.
 */
#ifndef RS_TEAMS_H
#define RS_TEAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "rs.h"
#include "rs_kit.h"

extern const struct rs_system rs_teams;

/* ---- limits ------------------------------------------------------------- */

/* Actions per turn, and the most a setting may give. */
#define TE_ACTIONS 3
#define TE_MAX_ACTIONS 10
/* Reactions per round, and the most Wait may pile up. */
#define TE_REACTIONS 1
#define TE_MAX_REACTIONS 5
/* Cost of the longest extended action, in actions. */
#define TE_MAX_ACTION_COST 30
/* Allies one character may Command in one turn (3 actions, 1 each). */
#define TE_MAX_COMMANDS 3
/* Tests rolled for double advantage: the most dice sets ever kept from. */
#define TE_MAX_TESTS 3
/* Characters named adjacent to a target for a stray shot. */
#define TE_MAX_ADJACENT 8
/* Largest die a stat may name (d4..d12 in play; room for house rules). */
#define TE_MAX_DIE 100
/* What a label of an action under way may hold, in bytes (as much as fit
 * in the "busy: <label>" condition of fights saved before typed state). */
#define TE_MAX_LABEL 26
/* An item's name in block=/parry=: its stats are <item>_block etc. */
#define TE_MAX_ITEM (ENC_MAX_STAT_NAME - 7)
/* Death test difficulty at the start and its rise after each success. */
#define TE_DEATH_DC 10
#define TE_DEATH_STEP 5
/* Multiple attack penalty per earlier attack. */
#define TE_MAP 2
/* The luck die, and the critical threshold when a weapon gives none. */
#define TE_LUCK_DIE 20
#define TE_CRIT_DEFAULT 20
/* Durability of an item without one: metal, anything else. */
#define TE_DUR_METAL 10
#define TE_DUR_OTHER 4
/* Size of a medium creature, the default. */
#define TE_SIZE_MEDIUM 4

/* ---- typed state (declared field by field in rs_teams_decl.c) ----------- */

/* On the encounter. */
struct te_enc {
    int32_t norder;          /* teams in initiative order */
    int32_t order[ENC_MAX_SIDES]; /* side indexes, first to last */
    bool surprise;           /* the surprise round is running */
    int32_t surpriser;       /* side index + 1 that has surprise; 0 none */
};

/* On each combatant. */
struct te_comb {
    int32_t actions;         /* actions left this turn */
    int32_t reactions;       /* reactions left */
    bool moved;              /* Move used this turn */
    bool stepped;            /* Step used this turn */
    int32_t attacks;         /* attacks made this round (the penalty) */
    uint32_t commanded[TE_MAX_COMMANDS]; /* allies commanded this turn */
    int32_t busy;            /* actions an action under way still needs */
    int32_t fortify;         /* pending fortify-or-fall difficulty; 0 none */
    char busy_label[TE_MAX_LABEL + 1]; /* what is under way */
};

#define TE_ENC(e) RS_STATE(struct te_enc, e)
#define TE_C(who) RS_STATE(struct te_comb, who)

/* Condition names the ruleset sets and reads (declared in te_conds). */
#define TE_COND_GUARD "guarding"
#define TE_COND_COVER "in cover"
#define TE_COND_WAIT "waiting"
#define TE_COND_READY "readied"
#define TE_COND_PRONE "prone"

/* Track names. Health is "hp" so /combat hp works on it. */
#define TE_HEALTH "hp"
#define TE_ENDURANCE "endurance"
#define TE_STAMINA "stamina"
#define TE_FOCUS "focus"

/* ---- damage types ------------------------------------------------------- */

enum te_dmg_class {
    TE_DMG_TYPELESS = 0,
    TE_DMG_PHYSICAL,
    TE_DMG_ELEMENTAL,
};

/* The class of a damage type or class name ("piercing", "physical");
 * false when unknown. */
bool te_damage_class(const char *name, enum te_dmg_class *out);
/* Every name te_damage_class() knows, NULL-terminated (the type= choices). */
extern const char *const te_type_names[];

/* ---- pure resolution ---------------------------------------------------- */

/* An attack with its dice already rolled. */
struct te_attack_in {
    int64_t tests[TE_MAX_TESTS]; /* test totals rolled, before the penalty */
    int ntests;              /* 1, or 2..3 with advantage/disadvantage */
    int adv;                 /* > 0 keep the best, < 0 keep the worst */
    int64_t luck;            /* luck roll: d20 face + luck modifier */
    int64_t prior_attacks;   /* attacks the attacker made earlier this
                                round */
    int64_t map;             /* penalty per earlier attack */
    int64_t evasion;         /* the target's, bonuses included */
    int64_t deflection;      /* the target's reduction for the type */
    int64_t size_diff;       /* attacker size - target size */
    int64_t damage;          /* weapon damage */
    int64_t crit_damage;     /* weapon critical damage */
    int64_t crit_threshold;  /* luck at or above: critical */
    bool reducible;          /* physical or elemental */
    bool stray_possible;     /* thrown/projectile with someone adjacent */
};

struct te_attack_out {
    int kept_idx;            /* which of tests[] was kept */
    int64_t kept;            /* the test kept, before the penalty */
    int64_t result;          /* after the penalty */
    int64_t evasion;         /* after size */
    int64_t deflection;      /* after size, never below 0 */
    bool crit;
    bool stray;              /* luck 1 or less: a random adjacent target */
    bool hit;
    int64_t raw;             /* result + damage, before reduction */
    int64_t damage;          /* dealt, at least 1 on a hit */
};

/* Resolve a hit: keep the test (advantage), apply the penalty, compare
 * with evasion (a critical cannot miss), work out the damage. When stray
 * is set the caller picks the new target and resolves again against it
 * with stray_possible cleared. */
void te_attack_resolve(const struct te_attack_in *in,
                       struct te_attack_out *out);

/* A body taking damage. */
struct te_body {
    int64_t endurance, endurance_max;
    int64_t health, health_max;
    int64_t con;
};

struct te_damage_out {
    int64_t to_endurance;    /* taken off endurance */
    int64_t to_health;       /* taken off health */
    bool harmed;             /* endurance at half or less */
    bool bloodied;           /* health below maximum */
    bool unconscious;        /* health reached 0 */
    bool risk_death;         /* a death test is due */
    int64_t fortify_dc;      /* > 0: fortify against this or fall */
};

/* Apply amount to b: endurance first, the rest to health. Health reaching
 * 0 knocks out; damage beyond the remaining health risks death unless it
 * is nonlethal and the character was not already at 0. Losing health with
 * more missing than constitution (and still standing) asks for a fortify
 * test against the missing health. */
void te_damage_apply(struct te_body *b, int64_t amount, bool nonlethal,
                     struct te_damage_out *out);

/* Block with an item: the item's block value replaces the reduction, at
 * least 1 goes to its durability, and whatever exceeds the durability
 * reaches the character. */
struct te_block_out {
    int64_t to_item;         /* durability lost */
    int64_t through;         /* damage that reaches the character */
    int64_t durability;      /* the item's durability afterwards */
};
void te_block_apply(int64_t raw, int64_t block, int64_t durability,
                    struct te_block_out *out);

/* The advantage count from what the attack has going for it: sneak and
 * flank each +1, disadvantages -1 each; clamped to +-2 (three tests). */
int te_advantage(int adv, int dis);

/* ---- shared between the rs_teams*.c files ------------------------------- */

/* A setting, or its declared default. */
int64_t te_setting(const struct encounter *e, const char *key);
/* A combatant may take a turn: conscious and alive. */
bool te_can_act(const struct enc_combatant *who);
/* Give who a condition of the table (te_conds) through the kit's one
 * path, with its declared duration. */
enum eng_err te_cond(struct rs_call *c, struct enc_combatant *who,
                     const char *name);
/* End the current turn and pass play on (the /combat next rule). */
void te_end_turn(struct rs_call *c);
/* After anything that may have knocked out or woken someone: the current
 * character, now unconscious, loses the rest of the turn; a choosing team
 * with nobody left to pick passes play on. */
void te_settle(struct rs_call *c);
/* Knock out / wake / kill, with events. */
void te_knock_out(struct rs_call *c, struct enc_combatant *who);
void te_wake(struct rs_call *c, struct enc_combatant *who);
void te_kill(struct rs_call *c, struct enc_combatant *who);
/* Whether who has amount of a track (stamina, focus); fails saying how
 * much is left. Changes nothing. */
enum eng_err te_check_track(struct rs_call *c, const struct enc_combatant *who,
                            const char *track, int64_t amount,
                            const char *what);
/* Spend amount from a track (stamina, focus) or fail saying how much is
 * left. */
enum eng_err te_spend_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t amount,
                            const char *what);
/* Whether who may take n reactions now: conscious, not owing a fortify
 * test first (unless fortify: this is it), with n reactions left. Fails
 * saying why. */
enum eng_err te_may_react(struct rs_call *c, const struct enc_combatant *who,
                          int n, bool fortify);
/* Deal damage through te_damage_apply() and handle what follows: events,
 * unconsciousness, the fortify choice (or the fall, with no reaction left)
 * and the death test. */
enum eng_err te_deal_damage(struct rs_call *c, struct enc_combatant *who,
                            int64_t amount, bool nonlethal);
/* The luck die's expression for who: 1d20 + the luck stat (n >= 48). */
void te_luck_expr(const struct enc_combatant *who, char *buf, size_t n);
/* Roll who's luck test (1d20 + luck) against dc as a test event. */
enum eng_err te_luck_test(struct rs_call *c, struct enc_combatant *who,
                          const char *label, int64_t dc, bool *passed);
/* The test expression from the stats: 1d<attr>+1d<skill>+<bonus>, the
 * skill and bonus optional. Fails naming the stat that is missing. */
enum eng_err te_stat_expr(struct rs_call *c, const struct enc_combatant *who,
                          const char *attr, const char *skill,
                          const char *bonus, char *buf, size_t n);
/* Sentences with a count whose noun agrees with it: "{} action(s)". */
const char *te_plural(int64_t n, const char *one, const char *many);

/* Index of the fortify-or-fall choice in rs_teams.prompts. */
#define TE_PROMPT_FORTIFY 0

/* ---- the system's surface (rs_teams_decl.c) ----------------------------- */

extern const struct rs_prompt te_prompts[];

/* Operations (rs_teams.c, rs_teams_attack.c). */
enum eng_err te_attack(struct rs_call *c, const struct rs_attack *a);

/* Command handlers, run through the command table. */
enum eng_err te_act(struct rs_call *c);
enum eng_err te_react(struct rs_call *c);
enum eng_err te_test(struct rs_call *c);
enum eng_err te_fall(struct rs_call *c);
enum eng_err te_wake_cmd(struct rs_call *c);
enum eng_err te_damage_cmd(struct rs_call *c);

/* rs_teams.c: the ops that rs_teams_decl.c lists in te_ops. */
enum eng_err te_setup(struct rs_call *c, struct enc_combatant *who);
enum eng_err te_check_stat(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int64_t value);
enum eng_err te_begin(struct rs_call *c);
enum eng_err te_next(struct rs_call *c);
enum eng_err te_pick(struct rs_call *c, struct enc_combatant *who);
enum eng_err te_late_join(struct rs_call *c, struct enc_combatant *who);
void te_after_track(struct rs_call *c, struct enc_combatant *who,
                    const char *track, int64_t before);
void te_status(const struct encounter *e,
               const struct enc_combatant *who, struct eng_buf *out, enc_tr_fn tr,
               const void *tr_ctx);
enum eng_err te_cond_changed(struct rs_call *c,
                             struct enc_combatant *who,
                             struct enc_cond *q, int32_t before);
void te_head(const struct encounter *e, struct eng_buf *out, enc_tr_fn tr,
             const void *tr_ctx);
enum eng_err te_timeout(struct rs_call *c);

#endif
