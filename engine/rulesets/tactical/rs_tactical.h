/*
 * rs_tactical.h - the `tactical` ruleset, private to engine/rs_tactical*.c
 * and its tests.
 *
 * Initiative is rolled (1d20 + init, highest first, a fixed order). Each
 * turn a combatant has action points (setting `ap`, default 3) that attacks
 * and actions spend. Tests are pools of d6 counting the dice at or above the
 * success face (setting `face`, default 4); "Endurance(Fortitude 2)" means a
 * pool of the endurance and fortitude stats that needs 2 successes.
 *
 * Attack qualities ("effects": Knockdown(2), Shock(1)...) and the conditions
 * they give are data: struct tac_table, built in (tac_table_builtin()) or
 * parsed from a group's file (tac_table_parse(), the text handed over by the
 * front end; the engine does no I/O). An effect that calls for a resist test
 * leaves a pending test on the target, kept as a condition "<Effect> test"
 * whose value is the difficulty; the attacker triggers it (/effect trigger)
 * within the turn, or it is rolled when the turn ends.
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
/* The options text of /attack, in bytes. */
#define TAC_MAX_OPTIONS 256
/* Effects and conditions in one table (the resist mask is 64 bits). */
#define TAC_MAX_EFFECTS 64
#define TAC_MAX_CONDS 64
/* An effect, condition, attribute or skill name, in bytes. The pending test
 * condition appends " test" and must fit ENC_MAX_COND_NAME. */
#define TAC_MAX_NAME 20
/* The effects file, in bytes and in lines; one line, in bytes. */
#define TAC_MAX_FILE 16384
#define TAC_MAX_LINE 200
/* Stamina a maneuver may cost, and AP an action may cost. */
#define TAC_MAX_COST 10
/* Rounds in a minute (a round is six seconds): Vulnerable, Warded. */
#define TAC_MINUTE_ROUNDS 10
/* Armour loses 1 AV per this much damage absorbed from one attack
 * (Demolish with take-your-time: per TAC_DEMOLISH_PER). */
#define TAC_AV_PER 10
#define TAC_DEMOLISH_PER 5
/* Blast aim test difficulty bounds. */
#define TAC_BLAST_MIN 2
#define TAC_BLAST_MAX 5
/* Area evasion test: Dexterity(Evasion 2) halves the damage. */
#define TAC_AREA_EVADE 2
/* Most +D from expending Vulnerable. */
#define TAC_MAX_VULN_DICE 4

_Static_assert(TAC_MAX_NAME + 5 <= ENC_MAX_COND_NAME,
               "a pending test's condition name must fit");
_Static_assert(TAC_MAX_EFFECTS <= 64, "the resist mask is one int64");

/* ---- ruleset slots --------------------------------------------------------
 * Per combatant (who->rs[]). */
enum {
    TAC_C_AP = 0,            /* action points left this turn */
    TAC_C_RESIST_MASK,       /* effects rolled against during ... */
    TAC_C_RESIST_TURN,       /* ... this turn (e->turn_seq) */
    TAC_C_MANEUVER_TURN,     /* turn_seq of the last maneuver */
    TAC_C_EXERT_TURN,        /* turn_seq it exerted at 0 stamina */
    TAC_C_BREAK_ROUND,       /* round of its last Break attempt */
    TAC_C_OUT,               /* why it is out of the fight: TAC_OUT_* */
    TAC_C_HAS_AP,            /* 1 once its AP were set for a turn */
};
/* Reasons a combatant is out of the fight (TAC_C_OUT bits). */
#define TAC_OUT_HP       (1 << 0)
#define TAC_OUT_COND     (1 << 1)  /* a condition at its "out" value */
#define TAC_OUT_TIMED    (1 << 2)  /* Shutdown: until a timed condition ends */
#define TAC_OUT_KO       (1 << 3)  /* Knockout: until the GM wakes it */

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
#define TAC_FXF_MECH_ONLY   (1u << 1)  /* mechanical targets only [mech] */
#define TAC_FXF_ORGANIC     (1u << 2)  /* non-mechanical only [organic] */
#define TAC_FXF_MECH_DOUBLE (1u << 3)  /* double direct damage vs mech
                                          [mech-double] */
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

/* Condition flags. */
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
#define TAC_CDF_STEP       (1u << 7)  /* starts at `start`, +1 per new dose
                                         (Poisoned) [step] */
#define TAC_CDF_DISADV     (1u << 8)  /* one die fewer on every test
                                         [disadvantage] */
#define TAC_CDF_NEXT_TEST  (1u << 9)  /* ... on its next test only, then
                                         ends [next-test] */
#define TAC_CDF_STACKS     (1u << 10) /* a dose adds a stack [stacks] */
#define TAC_CDF_PER_STACK  (1u << 11) /* one die fewer per stack, on tests
                                         of `attrs` [per-stack] */

struct tac_cond_def {
    char name[TAC_MAX_NAME + 1];
    int cap;                       /* most stacks; 0 = no cap */
    int start;                     /* first value; 0 = 1 stack or a flag */
    int out;                       /* value that takes it out; 0 = never */
    int rounds;                    /* default duration in its holder's
                                      turns (ends at the end); 0 = none */
    struct tac_test_def shake;     /* end-of-turn test to remove it */
    int shake_difficulty;          /* 0 = no such test */
    char attrs[3][TAC_MAX_NAME + 1]; /* tests its disadvantage touches;
                                        none = every test */
    int nattrs;
    unsigned flags;                /* TAC_CDF_* */
};

struct tac_table {
    struct tac_fx fx[TAC_MAX_EFFECTS];
    int nfx;
    struct tac_cond_def cd[TAC_MAX_CONDS];
    int ncd;
};

/* The built-in table (the chapter's effects with the names of our README
 * and every condition). Static; never freed. */
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
const struct tac_cond_def *tac_cond_def(const struct tac_table *t,
                                        const char *name);

/* The table the ops use for this call (the built-in one until the command
 * layer can hand over a group's table). */
const struct tac_table *tac_table_for(const struct rs_call *c);

/* rs_ops.data_parse/data_free: a group's file read over the built-in
 * table. */
enum eng_err tac_data_parse(const char *text, size_t len, void **out,
                            struct enc_diag *d);
void tac_data_free(void *data);

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

/* ---- shared by the ruleset files ---------------------------------------- */

/* Settings, with defaults. */
int tac_setting_ap(const struct encounter *e);
int tac_setting_face(const struct encounter *e);

bool tac_is_mech(const struct enc_combatant *who);
int64_t tac_passive_evasion(const struct tac_table *t,
                            struct enc_combatant *who);

/* Roll a test for who: the pool of attr + skill stats (or pool_override
 * >= 0), plus adv, minus dis and one per disadvantage condition; records
 * the roll under label. *successes gets the count. */
enum eng_err tac_roll_test(struct rs_call *c, struct enc_combatant *who,
                           const struct tac_test_def *t, int pool_override,
                           int adv, int dis, const char *label,
                           int64_t *successes);

/* Give who the condition named name (stacks as the table says); rounds < 0
 * means the condition's default duration. */
enum eng_err tac_cond_give(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int stacks, int rounds,
                           uint32_t source);

/* Apply damage to who: through AV/DR unless direct, adds Corroded, wakes a
 * Shutdown unit, marks out of the fight at 0 HP. *hp_lost gets HP lost. */
enum eng_err tac_damage(struct rs_call *c, struct enc_combatant *who,
                        uint32_t source, int64_t amount, bool direct,
                        int64_t per, int64_t *hp_lost);

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

/* Re-derive who's out-of-the-fight flag from TAC_C_OUT. */
void tac_out_update(struct rs_call *c, struct enc_combatant *who);
/* Conditions with an `out` value: set or clear TAC_OUT_COND. */
void tac_out_conds(struct rs_call *c, struct enc_combatant *who);

/* Emit a text event. */
void tac_say(struct rs_call *c, uint32_t who, bool secret, const char *fmt,
             ...) __attribute__((format(printf, 4, 5)));

/* The ops' pieces in other files. */
enum eng_err tac_attack(struct rs_call *c, const struct rs_attack *a);
/* Spend n AP of who (the current combatant); fails when it has too few. */
enum eng_err tac_spend_ap(struct rs_call *c, struct enc_combatant *who,
                          int n, const char *what);
/* Exert for a physical test: spends 1 stamina, or at 0 stamina during its
 * own turn marks Exhausted(+1) at the end of the turn. */
enum eng_err tac_exert(struct rs_call *c, struct enc_combatant *who);


/* ---- the system's surface (rs_tactical_decl.c) ------------------------------ */

extern const struct rs_ops tac_ops;

/* Command handlers, run through the command table. */
enum eng_err tac_test(struct rs_call *c);
enum eng_err tac_act(struct rs_call *c);
enum eng_err tac_trigger(struct rs_call *c);
enum eng_err tac_apply(struct rs_call *c);
enum eng_err tac_clear(struct rs_call *c);
enum eng_err tac_set_ap(struct rs_call *c);
enum eng_err tac_takedown(struct rs_call *c);

#endif
