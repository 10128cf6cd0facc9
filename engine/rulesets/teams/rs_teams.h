/*
 * rs_teams.h - the `teams` ruleset, private to engine/rs_teams*.c and its
 * tests.
 *
 * Teams (the encounter's sides) alternate: the acting team picks one member
 * who has not acted this round, that member takes a turn of three actions,
 * then play passes to the next team in initiative order that still has
 * someone able to act. A team that has run out is skipped; the round ends
 * when everybody able has acted. An optional surprise round lets one team
 * (and whoever cannot be surprised) act alone first.
 *
 * Attacks are a test (attribute die + combat skill die + proficiency)
 * against evasion with a d20 luck die beside it for criticals and stray
 * shots; damage is the test plus the weapon's damage less the damage
 * reduction for its type, and goes to endurance, then health.
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

/* ---- limits -------------------------------------------------------------- */

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
/* The options text of /attack, in bytes. */
#define TE_MAX_OPTIONS 256
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

/* ---- scratch slots ------------------------------------------------------- */

/* encounter rs[] */
enum {
    TE_E_NORDER = 0,         /* teams in initiative order */
    TE_E_ORDER = 1,          /* .. TE_E_ORDER + ENC_MAX_SIDES - 1: sides */
    TE_E_SURPRISE = TE_E_ORDER + ENC_MAX_SIDES, /* 1 during the surprise
                                                   round */
    TE_E_SURPRISER,          /* side index + 1 that has surprise; 0 none */
};
_Static_assert(TE_E_SURPRISER < ENC_RS_SLOTS, "teams encounter slots");

/* combatant rs[] */
enum {
    TE_C_ACTIONS = 0,        /* actions left this turn */
    TE_C_REACTIONS,          /* reactions left */
    TE_C_MOVED,              /* Move used this turn */
    TE_C_STEPPED,            /* Step used this turn */
    TE_C_ATTACKS,            /* attacks made this round (the penalty) */
    TE_C_CMD,                /* .. + TE_MAX_COMMANDS - 1: ids commanded */
    TE_C_EXT = TE_C_CMD + TE_MAX_COMMANDS, /* actions an extended action
                                              still needs; 0 none */
    TE_C_FORTIFY,            /* pending fortify-or-fall difficulty; 0 none */
    TE_C_TURNS,              /* turns taken in this fight */
};
_Static_assert(TE_C_TURNS < ENC_RS_SLOTS, "teams combatant slots");

/* Condition names the ruleset sets and reads. */
#define TE_COND_GUARD "guarding"
#define TE_COND_COVER "in cover"
#define TE_COND_WAIT "waiting"
#define TE_COND_READY "readied"
#define TE_COND_PRONE "prone"
#define TE_COND_BUSY "busy: "    /* prefix of an extended action */

/* Track names. Health is "hp" so /combat hp works on it. */
#define TE_HEALTH "hp"
#define TE_ENDURANCE "endurance"
#define TE_STAMINA "stamina"
#define TE_FOCUS "focus"

/* ---- damage types -------------------------------------------------------- */

enum te_dmg_class {
    TE_DMG_TYPELESS = 0,
    TE_DMG_PHYSICAL,
    TE_DMG_ELEMENTAL,
};

/* The class of a damage type or class name ("piercing", "physical");
 * false when unknown. */
bool te_damage_class(const char *name, enum te_dmg_class *out);

/* ---- pure resolution ----------------------------------------------------- */

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

/* ---- shared between the rs_teams*.c files -------------------------------- */

/* The int setting key or dflt. */
int64_t te_setting_int(const struct encounter *e, const char *key,
                       int64_t dflt);
/* A combatant may take a turn: conscious and alive. */
bool te_can_act(const struct enc_combatant *who);
/* Emit a text event about who (secret when hidden). */
void te_say(struct rs_call *c, const struct enc_combatant *who,
            const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* End the current turn and pass play on (the /combat next rule). */
void te_end_turn(struct rs_call *c);
/* After anything that may have knocked out or woken someone while a team
 * is choosing: move play on if that team has nobody left to pick. */
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
/* Deal damage through te_damage_apply() and handle what follows: events,
 * unconsciousness, the fortify choice and the death test. */
enum eng_err te_deal_damage(struct rs_call *c, struct enc_combatant *who,
                            int64_t amount, bool nonlethal);
/* Roll a luck test (1d20 + luck) against dc. */
enum eng_err te_luck_test(struct rs_call *c, struct enc_combatant *who,
                          const char *label, int64_t dc, bool *passed);
/* The test expression from the stats: 1d<attr>+1d<skill>+<bonus>, the
 * skill and bonus optional. Fails naming the stat that is missing. */
enum eng_err te_stat_expr(struct rs_call *c, const struct enc_combatant *who,
                          const char *attr, const char *skill,
                          const char *bonus, char *buf, size_t n);

enum eng_err te_attack(struct rs_call *c, const struct rs_attack *a);

/* Index of the fortify-or-fall choice in rs_teams.prompts. */
#define TE_PROMPT_FORTIFY 0


/* ---- the system's surface (rs_teams_decl.c) ------------------------------ */

extern const struct rs_ops te_ops;
extern const struct rs_prompt te_prompts[];

/* Command handlers, run through the command table. */
enum eng_err te_act(struct rs_call *c);
enum eng_err te_react(struct rs_call *c);
enum eng_err te_test(struct rs_call *c);
enum eng_err te_fall(struct rs_call *c);
enum eng_err te_wake_cmd(struct rs_call *c);
enum eng_err te_damage_cmd(struct rs_call *c);

#endif
