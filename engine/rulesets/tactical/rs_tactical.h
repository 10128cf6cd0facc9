/*
 * rs_tactical.h - the `tactical` ruleset, private to
 * engine/rulesets/tactical/ and its tests.
 *
 * Initiative is rolled (the kit's d20 + init, highest first, a fixed
 * order). Each turn a combatant has action points (setting `ap`, default 3)
 * that attacks and actions spend. Tests are pools of d6 counting the dice at
 * or above the success face (setting `face`, default 4); "Endurance
 * (Fortitude 2)" means a pool of the endurance and fortitude stats that
 * needs 2 successes. Every test is an ENC_EV_TEST event with its dice and
 * every modifier that changed the pool (conditions included).
 *
 * Attack qualities ("effects": Knockdown(2), Shock(1)...) and the conditions
 * are data: struct tac_table, built in (tac_table_builtin()) or parsed from
 * a group's file (tac_table_parse(), the text handed over by the front end;
 * the engine does no I/O). The table's conditions are also the system's
 * declared conditions (struct rs_cond_spec, through ops->data_conds), so
 * the GM's /combat condition and the rules give them the same way. An
 * effect that calls for a resist test leaves a pending test on the target,
 * kept as a condition "<Effect> test" whose value is the difficulty; the
 * attacker triggers it (/effect trigger) within the turn, or it is rolled
 * when the turn ends.
 *
 * The arithmetic is in pure functions of values already rolled, so the
 * chapter's examples are tests: tac_pool_successes(), tac_stack_difficulty(),
 * tac_armour(), tac_burst(), tac_blast_difficulty(), tac_scatter().
 *
 * Ownership: arguments are borrowed for the call; a parsed table is the
 * caller's, released with tac_table_free().
 */
#ifndef RS_TACTICAL_H
#define RS_TACTICAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "enc.h"
#include "rs.h"
#include "rs_kit.h"

extern const struct rs_system rs_tactical;

/* ---- limits and defaults ------------------------------------------------ */

/* Action points per turn by default, and the most a setting may give. */
#define TAC_AP 3
#define TAC_MAX_AP 10
/* Success face of the d6 pool by default (a die at or above it counts). */
#define TAC_FACE 4
/* Dice in one test pool or burst pool. */
#define TAC_MAX_POOL 40
/* Difficulty of one test (successes needed). */
#define TAC_MAX_DIFFICULTY 20
/* The value X of one effect, as in Knockdown(X). */
#define TAC_MAX_X 100
/* Effects one attack may carry. */
#define TAC_MAX_ATTACK_FX 8
/* Targets one area attack may strike. */
#define TAC_MAX_TARGETS 16
/* The effects= text of one attack, in bytes. */
#define TAC_MAX_FX_TEXT 200
/* The also= list of an area attack, in bytes. */
#define TAC_MAX_ALSO 400
/* Effects and conditions in one table (the resist mask is 64 bits). */
#define TAC_MAX_EFFECTS 64
#define TAC_MAX_CONDS 64
/* Declared conditions: the table's, then one pending test per effect. */
#define TAC_MAX_SPECS (TAC_MAX_CONDS + TAC_MAX_EFFECTS)
/* An effect, condition, attribute or skill name, in bytes. The pending test
 * condition appends " test" and must fit ENC_MAX_COND_NAME. */
#define TAC_MAX_NAME 20
/* A condition's help line, in bytes (what /help and the docs show). */
#define TAC_MAX_HELP 160
/* A test's label ("resists Knockdown with Endurance(Fortitude)"): two
 * names and an effect's, with the words around them. */
#define TAC_MAX_LABEL (3 * TAC_MAX_NAME + 48)
/* The effects file, in bytes; one line, in bytes. */
#define TAC_MAX_FILE 16384
#define TAC_MAX_LINE 320
/* Stamina a maneuver may cost, and AP an action may cost. */
#define TAC_MAX_COST 10
/* Rounds in a minute (a round is six seconds): Vulnerable, Warded. */
#define TAC_MINUTE_ROUNDS 10
/* Armour loses 1 AV per this much damage absorbed from one attack
 * (Demolish with take-your-time: per TAC_DEMOLISH_PER). */
#define TAC_AV_PER 10
#define TAC_DEMOLISH_PER 5
/* Blast aim test difficulty bounds, and its factors. */
#define TAC_BLAST_MIN 2
#define TAC_BLAST_MAX 5
#define TAC_MAX_FACTORS 5
/* Blast radius and template length, in 5 ft steps. */
#define TAC_MAX_BLAST 20
#define TAC_MAX_TEMPLATE 40
/* Area evasion test: Dexterity(Evasion 2) halves the damage. */
#define TAC_AREA_EVADE 2
/* Most +D from expending Vulnerable. */
#define TAC_MAX_VULN_DICE 4
/* Dice a major advantage or disadvantage counts for. */
#define TAC_MAJOR 2
/* Knockback: 5 ft per success missed; a collision matters from 15 ft and
 * hurts per 5 ft past the first 10. */
#define TAC_PUSH_STEP 5
#define TAC_COLLIDE_FROM 15
#define TAC_COLLIDE_FREE 10

_Static_assert(TAC_MAX_NAME + 5 <= ENC_MAX_COND_NAME,
               "a pending test's condition name must fit");
_Static_assert(TAC_MAX_EFFECTS <= 64, "the resist mask is one int64");

/* ---- typed state ----------------------------------------------------------
 * Per combatant. Each field names the numbered slot older fray kept it in
 * (rs_tactical_decl.c), so a fight saved before typed state plays on. */
struct tac_comb {
    int64_t ap;              /* action points left this turn */
    int64_t resist_mask;     /* effects rolled against during ... */
    int64_t resist_turn;     /* ... this turn (e->turn_seq) */
    int64_t maneuver_turn;   /* turn_seq of its last maneuver */
    int64_t exert_turn;      /* turn_seq it exerted at 0 stamina */
    int64_t break_round;     /* round of its last Break attempt */
    int64_t scatter_turn;    /* turn_seq its blast scattered: the placed
                                attack that follows has been paid for */
};

#define TAC_ST(who) RS_STATE(struct tac_comb, who)

/* ---- the effects and conditions table ----------------------------------- */

enum tac_fx_kind {
    TAC_FX_RESIST = 0,       /* a test to resist, or the fail condition */
    TAC_FX_DIRECT,           /* X direct damage; HP lost sets a test */
    TAC_FX_APPLY,            /* gives its condition, no test */
    TAC_FX_NOTE,             /* changes the attack itself (Serrated...) */
};

/* Effect flags (the file's bare words in brackets). */
#define TAC_FXF_CRIT_HP     (1u << 0)  /* only on a critical hit that took
                                          HP [crit-hp] */
#define TAC_FXF_MECH_ONLY   (1u << 1)  /* mechanical units, not cyborgs
                                          or implanted humans [mech] */
#define TAC_FXF_ORGANIC     (1u << 2)  /* all but mechanical units: living
                                          targets, cyborgs and implanted
                                          humans [organic] */
#define TAC_FXF_MECH_DOUBLE (1u << 3)  /* double direct damage against
                                          mechanical units, cyborgs
                                          included [mech-double] */
#define TAC_FXF_STUN_MAJOR  (1u << 4)  /* Stunned targets test with major
                                          disadvantage [stunned-major] */
#define TAC_FXF_OUT         (1u << 5)  /* failing: out of the fight [out] */
#define TAC_FXF_OUT_ROUNDS  (1u << 6)  /* ... for d3 + missed rounds
                                          [out-rounds] */
#define TAC_FXF_PUSH        (1u << 7)  /* pushed 5 ft per missed success
                                          [push] */
#define TAC_FXF_PULL        (1u << 8)  /* pulled up to 15 ft [pull] */
#define TAC_FXF_NO_DAMAGE   (1u << 9)  /* instead of damage [no-damage] */
#define TAC_FXF_CRIT_DIE    (1u << 10) /* +1D on a critical [crit-die] */
#define TAC_FXF_DEMOLISH    (1u << 11) /* AV -1 per 5 absorbed, take your
                                          time [demolish] */
#define TAC_FXF_WOUND       (1u << 12) /* failing: a wound [wound] */

struct tac_test_def {
    char attr[TAC_MAX_NAME + 1];   /* "" = none */
    char skill[TAC_MAX_NAME + 1];
};

struct tac_fx {
    char name[TAC_MAX_NAME + 1];
    enum tac_fx_kind kind;
    struct tac_test_def test[2];   /* the second is an alternative */
    int ntests;
    int max;                       /* highest difficulty; 0 = none */
    int fixed;                     /* a fixed difficulty (Pulse); 0 = X */
    char cond[TAC_MAX_NAME + 1];   /* condition on failure / applied */
    int rounds;                    /* its duration; 0 = its default */
    unsigned flags;                /* TAC_FXF_* */
};

/* Condition flags: tactical's own rules for a condition. */
#define TAC_CDF_DOT        (1u << 0)  /* 1 direct damage per stack at the
                                         start of each turn [dot] */
#define TAC_CDF_EVASION1   (1u << 1)  /* passive evasion is 1 [evasion1] */
#define TAC_CDF_NO_AP      (1u << 2)  /* no actions on its turn [no-ap] */
#define TAC_CDF_LOSE_AP    (1u << 3)  /* loses 1 AP at the start of its next
                                         turn, then ends [lose-ap] */
#define TAC_CDF_DMG_TAKEN  (1u << 4)  /* +stacks damage taken [damage] */
#define TAC_CDF_VULNERABLE (1u << 5)  /* expended for +1D per stack
                                         [vulnerable] */
#define TAC_CDF_WARD       (1u << 6)  /* -1D per stack on the next hit
                                         [ward] */
#define TAC_CDF_DISADV     (1u << 8)  /* a disadvantage on tests of attrs
                                         (all tests when none) [disadvantage] */
#define TAC_CDF_NEXT_TEST  (1u << 9)  /* ... on its next test only, then
                                         ends [next-test] */
#define TAC_CDF_PER_STACK  (1u << 11) /* one die fewer per stack, on tests
                                         of attrs [per-stack] */
#define TAC_CDF_MAJOR      (1u << 12) /* its disadvantage is major: two dice
                                         [major] */
#define TAC_CDF_FLANKED    (1u << 13) /* attacks against the holder have an
                                         advantage [flanked] */
#define TAC_CDF_PRONE      (1u << 14) /* melee attacks against the holder
                                         have a major advantage, ranged ones
                                         a disadvantage; it counts as
                                         flanked [prone] */
#define TAC_CDF_NO_EVADE   (1u << 15) /* cannot evade an area attack
                                         [no-evade] */
#define TAC_CDF_HELD       (1u << 16) /* held: /act action:break frees, and
                                         its disadvantage does not count on
                                         that test [held] */
#define TAC_CDF_MAGNET     (1u << 17) /* conductor attacks hit the holder;
                                         2 AP clear it [magnet] */

/* Tactical's rules for one condition of the table. Its name, stacking,
 * cap, start value, duration and help are the kit's struct rs_cond_spec at
 * the same index of the table's cs[] (rs_tactical_data.c). */
struct tac_cond_def {
    int out;                       /* value that takes it out; 0 = never */
    struct tac_test_def shake;     /* end-of-turn test to remove it */
    int shake_difficulty;          /* 0 = no such test */
    char attrs[3][TAC_MAX_NAME + 1]; /* tests its disadvantage touches;
                                        none = every test */
    int nattrs;
    char becomes[TAC_MAX_NAME + 1]; /* a second dose gives this condition
                                       instead ("" = none): a second
                                       Injury of a kind is a Wound */
    unsigned flags;                /* TAC_CDF_* */
};

struct tac_table {
    struct tac_fx fx[TAC_MAX_EFFECTS];
    int nfx;
    /* The declared conditions: cs[0..ncd) are the table's, with tactical's
     * rules in cd[] at the same index; cs[ncd..nspec) are the pending
     * tests, one per effect that has a test (RS_COND_SYSTEM). */
    struct rs_cond_spec cs[TAC_MAX_SPECS];
    struct tac_cond_def cd[TAC_MAX_CONDS];
    int ncd, nspec;
    /* Text the cs[] of a parsed table point at (the built-in table's point
     * at literals). */
    char names[TAC_MAX_SPECS][ENC_MAX_COND_NAME + 1];
    char helps[TAC_MAX_SPECS][TAC_MAX_HELP + 1];
};

/* The built-in table (the chapter's effects with the names of our README
 * and every condition). Static; never freed. rs_tactical declares its
 * conditions as this table's cs[]. */
extern const struct tac_table tac_builtin;
#define TAC_BUILTIN_NSPEC 52
const struct tac_table *tac_table_builtin(void);

/* Parse an effects file's text (len bytes; see docs/rulesets/tactical.md for
 * the format) on top of base (NULL: the built-in table; a `reset` line
 * empties it). On success *out is a new table the caller frees with
 * tac_table_free(); on error *out is untouched and d says which line and
 * why ("line 3: unknown flag `fast`"). */
enum eng_err tac_table_parse(const char *text, size_t len,
                             const struct tac_table *base,
                             struct tac_table **out, struct enc_diag *d);
void tac_table_free(struct tac_table *t);

const struct tac_fx *tac_fx_find(const struct tac_table *t, const char *name);
int tac_fx_index(const struct tac_table *t, const struct tac_fx *fx);
/* The table's condition called name: its index in cs[]/cd[], or -1. */
int tac_cond_index(const struct tac_table *t, const char *name);
/* Its tactical rules, or NULL (pending tests and the GM's own have none). */
const struct tac_cond_def *tac_cond_def(const struct tac_table *t,
                                        const char *name);
/* The effect whose pending test is the condition called name, or NULL. */
const struct tac_fx *tac_pending_fx(const struct tac_table *t,
                                    const char *name);

/* The table the ops use for this call: the group's, else the built-in. */
const struct tac_table *tac_table_for(const struct rs_call *c);

/* rs_ops.data_parse/data_free/data_conds: a group's file read over the
 * built-in table, and its conditions for the kit. */
enum eng_err tac_data_parse(const char *text, size_t len, void **out,
                            struct enc_diag *d);
void tac_data_free(void *data);
const struct rs_cond_spec *tac_data_conds(const void *data, int *n);

/* ---- pure rules --------------------------------------------------------- */

/* Successes among n d6 faces: faces at or above face. */
int tac_pool_successes(const int *faces, int n, int face);

/* A pending test of difficulty cur (0 = none yet) hit again by the same
 * effect with value x: the new difficulty. The chapter: it rises to x, or
 * by 1 when cur already meets or exceeds x. max (0 = none) caps it. */
int tac_stack_difficulty(int cur, int x, int max);

/* Damage through armour: AV absorbs first, then DR, the rest is HP lost.
 * per is TAC_AV_PER or TAC_DEMOLISH_PER. Direct damage skips armour. */
struct tac_armour_out {
    int64_t av_absorbed, dr_absorbed, hp_lost;
    int64_t av_loss;               /* AV lost: one per `per` absorbed */
};
struct tac_armour_out tac_armour(int64_t av, int64_t dr, int64_t damage,
                                 int64_t per, bool direct);

/* A burst: each face strictly above evasion is a hit; hits beyond ammo are
 * discarded; damage = kept hits x weapon damage. */
struct tac_burst_out {
    int hits, kept, discarded, misses;
    int64_t damage;
};
struct tac_burst_out tac_burst(const int *faces, int n, int64_t evasion,
                               int64_t ammo, int64_t weapon_damage);
/* The same from the count of hits among n dice. */
struct tac_burst_out tac_burst_count(int hits, int n, int64_t ammo,
                                     int64_t weapon_damage);

/* Blast aim difficulty: 2 + factors, kept within 2..5. */
int tac_blast_difficulty(int factors);

/* Scatter after a failed aim test: direction is the d6 face (1 north, 4
 * south); distance in feet is 5 x (d3 when failed by 1, d6 when by 2 or
 * more). d3 and d6 are the faces rolled; fail_by 0 means no scatter. */
struct tac_scatter_out {
    int direction;
    int feet;
};
struct tac_scatter_out tac_scatter(int fail_by, int d6_direction, int d3,
                                   int d6_distance);

/* Dice in a test pool after advantages (+1 each) and disadvantages (-1
 * each), never below 0. */
int tac_pool_size(int base, int adv, int dis);

/* What a body is for the effects that care (the `mech` and `cyborg`
 * stats): Shock doubles against machines and cyborgs, Knockout spares
 * only machines, Shutdown takes only machines. */
enum tac_body { TAC_LIVING = 0, TAC_MACHINE, TAC_CYBORG };
enum tac_body tac_body(const struct enc_combatant *who);
/* Whether an effect with flags fx_flags touches body b, and the doubling
 * of direct damage. */
bool tac_fx_touches(unsigned fx_flags, enum tac_body b);
bool tac_fx_doubles(unsigned fx_flags, enum tac_body b);

/* ---- tests ---------------------------------------------------------------- */

/* A test to roll. */
struct tac_roll {
    struct enc_combatant *who;
    const struct tac_test_def *def; /* attribute and skill; NULL: none */
    int pool;                /* dice instead of the stats; -1: the stats */
    const char *dice;        /* a dice expression instead (roll:), or NULL */
    int adv, dis;            /* the player's own (adv:, dis:) */
    bool exert;              /* one advantage more, for stamina */
    int difficulty;          /* successes needed; 0: count them */
    bool burst;              /* count dice above over (passive evasion)
                                instead of at the success face */
    int64_t over;
    const char *why;         /* what for: "tests", or a template with one
                                hole for why_name ("resists {}") */
    const char *why_name;    /* the effect's or condition's name; NULL
                                none */
    const char *why_ctx;     /* why_name's catalog context ("condition"),
                                NULL: a name as typed */
    const char *hit;         /* ENC_EV_ATTACK: the outcome when it passes
                                ("critical hit"); NULL: "hit" */
    bool crit;               /* ENC_EV_ATTACK: a pass is a critical hit */
    unsigned skip;           /* TAC_CDF_* of conditions that do not count
                                (held, on a test to break free) */
    enum enc_ev kind;        /* ENC_EV_TEST, or ENC_EV_ATTACK with other */
    const struct enc_combatant *other;
};

struct tac_rolled {
    int64_t successes;       /* hits, for a burst */
    int dice;                /* dice rolled (a pool; 0 for dice given) */
    int fail_by;             /* difficulty - successes when short, else 0 */
    struct enc_event *ev;    /* the test's event, for more modifiers */
};

/* Roll t: the pool of attribute + skill (or t->pool, or t->dice), with
 * advantages and disadvantages and those of who's conditions, each
 * recorded as a modifier on the test's event; spends Distracted-like
 * conditions. extra (n of them) are more modifiers in dice from the
 * caller (Flanked, Prone on an attack). */
struct tac_mod {
    const char *reason;      /* a template with one hole for cond ("{}:
                                advantage"), or the reason when cond is
                                NULL */
    const char *cond;        /* a condition's name; NULL none */
    int dice;                /* + advantage, - disadvantage */
};
enum eng_err tac_test_roll(struct rs_call *c, const struct tac_roll *t,
                           const struct tac_mod *extra, int nextra,
                           struct tac_rolled *out);

/* rs_tactical_data.c: "Endurance" from "endurance" into buf (size n);
 * returns buf. */
const char *tac_title(const char *s, char *buf, size_t n);

/* A condition's name as a template's argument: looked up as the
 * declared condition (a group's own name misses and shows as given). */
#define TAC_A_COND(name) RS_A_WORD("condition", (name))

/* ---- shared by the ruleset files ---------------------------------------- */

int tac_setting_ap(const struct encounter *e);
int tac_setting_face(const struct encounter *e);

int64_t tac_passive_evasion(const struct tac_table *t,
                            struct enc_combatant *who);
/* The first condition of who whose rules have flag, or NULL. */
const struct enc_cond *tac_flagged(const struct tac_table *t,
                                   struct enc_combatant *who, unsigned flag);
/* A condition's stacks: a flag counts as 1. */
int64_t tac_stacks(const struct enc_cond *k);

/* Give who the condition named name through the kit (rs_cond_give: the
 * table's start value, stacks, cap and duration, then cond_changed).
 * rounds < 0: the condition's default, and a refreshed timed condition
 * keeps the longer time left. */
enum eng_err tac_cond_give(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int rounds, uint32_t source);
/* Remove who's condition called name, then see whether who is still out. */
enum eng_err tac_cond_remove(struct rs_call *c, struct enc_combatant *who,
                             const char *name);

/* rs_ops.cond_changed: what takes hold at once (out of the fight at
 * Exhausted 5, a second Injury of a kind becomes a Wound). */
enum eng_err tac_cond_changed(struct rs_call *c, struct enc_combatant *who,
                              struct enc_cond *q, int32_t before);

/* Damage to who: an ENC_EV_DAMAGE event from source, for the caller to add
 * modifiers and rolls to, then tac_damage_apply() with the amount. */
struct enc_event *tac_damage_event(struct rs_call *c,
                                   const struct enc_combatant *who,
                                   uint32_t source);
/* Apply amount to who (dv from tac_damage_event, or NULL for a new one):
 * through AV/DR unless direct, wakes a shut-down unit, marks out of the
 * fight at 0 HP. *hp_lost gets the HP lost. */
enum eng_err tac_damage_apply(struct rs_call *c, struct enc_event *dv,
                              struct enc_combatant *who, uint32_t source,
                              int64_t amount, bool direct, int64_t per,
                              int64_t *hp_lost);

/* An effect with value x hits who (from source, crit and hp_lost for
 * Deadly); creates or raises a pending test, deals direct damage, or gives
 * its condition. */
enum eng_err tac_fx_hit(struct rs_call *c, struct enc_combatant *who,
                        uint32_t source, const struct tac_fx *fx, int x,
                        bool crit, int64_t hp_lost);

/* Roll who's pending test against fx now (trigger), applying the outcome.
 * pool_override < 0: from stats. alt picks the alternative test (-1 = the
 * bigger pool). */
enum eng_err tac_fx_resolve(struct rs_call *c, struct enc_combatant *who,
                            const struct tac_fx *fx, int pool_override,
                            int alt);

/* Roll every pending test left on anyone (the turn is ending). */
enum eng_err tac_fx_resolve_all(struct rs_call *c);

/* Whether who is out of the fight (0 hp, or a condition at its out value):
 * set or clear its down flag, with the event. */
void tac_out_update(struct rs_call *c, struct enc_combatant *who);

/* "Name" or "Name(X)" naming an effect of t: its effect and X. need_x:
 * refuse a bare name for an effect that takes a value. what names the
 * option for messages. */
enum eng_err tac_fx_word(struct rs_call *c, const char *word, bool need_x,
                         const char *what, const struct tac_fx **fx, int *x);

/* The ops' pieces in other files. */
enum eng_err tac_attack(struct rs_call *c, const struct rs_attack *a);
/* Spend n AP of who (the current combatant) on what; fails when it has
 * too few. what is the rules' word (N_()), shown in the table's language,
 * or, when user_text, the action as the user typed it. */
enum eng_err tac_spend_ap(struct rs_call *c, struct enc_combatant *who,
                          int n, const char *what, bool user_text);
/* Exert for a physical test: spends 1 stamina, or at 0 stamina during its
 * own turn marks Exhausted(+1) at the end of the turn. */
enum eng_err tac_exert(struct rs_call *c, struct enc_combatant *who);
/* A track of who changed from before to its value now: the event. */
void tac_track_event(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before, int64_t now);

/* ---- the system's surface (rs_tactical_decl.c) ------------------------------ */


/* Command handlers, run through the command table. */
enum eng_err tac_test(struct rs_call *c);
enum eng_err tac_act(struct rs_call *c);
enum eng_err tac_trigger(struct rs_call *c);
enum eng_err tac_apply(struct rs_call *c);
enum eng_err tac_clear(struct rs_call *c);
enum eng_err tac_set_ap(struct rs_call *c);
enum eng_err tac_takedown(struct rs_call *c);

/* The ops that rs_tactical_decl.c lists in tac_ops: rs_tactical.c, */
enum eng_err tac_setup(struct rs_call *c, struct enc_combatant *who);
void tac_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before);
void tac_status(const struct encounter *e,
                const struct enc_combatant *who, struct eng_buf *out, enc_tr_fn tr,
                const void *tr_ctx);
/* and rs_tactical_turn.c. */
enum eng_err tac_begin(struct rs_call *c);
enum eng_err tac_next(struct rs_call *c);
enum eng_err tac_timeout(struct rs_call *c);

#endif
