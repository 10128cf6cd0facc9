/*
 * enc.h - an encounter: one channel's fight, its combatants and turn state.
 *
 * Pure engine code: no I/O, no globals, not thread-safe (one owner per
 * encounter). Every change goes through a function here or in turn.h that
 * validates first and changes nothing on error, then appends what happened to
 * a struct enc_result for the renderers. The rules of a game system plug in
 * through rs.h; this file knows none of them.
 *
 * Identity: a combatant's id is stable for the encounter's life and never
 * reused, so conditions, turn order and ruleset state refer to ids, not array
 * positions. Names are unique within the encounter, compared without regard
 * to ASCII case.
 *
 * Ownership: enc_new() returns an encounter the caller frees with
 * enc_free(). Pointers into it (combatants, sides) are borrowed until the
 * next call that adds or removes combatants. String arguments are copied.
 */
#ifndef ENC_H
#define ENC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "enc_clock.h"
#include "enc_event.h"
#include "eng_err.h"
#include "eng_limits.h"

struct rs_system;

/* Initiative values one combatant may hold (the cards ruleset deals several
 * cards to one creature). */
#define ENC_MAX_INIT 4
/* Numbered slots a ruleset kept its state in before typed state (rs.h
 * struct rs_state_spec); read only to upgrade old documents. */
/* Turn order entries: every combatant's every initiative value. */
#define ENC_MAX_ORDER (ENC_MAX_COMBATANTS * ENC_MAX_INIT)
/* Initiative expression kept on a combatant ("d20+3"), in bytes. */
#define ENC_MAX_INIT_EXPR 64
/* Tracks one system's damage changes (rs_system.harm), each tallied on
 * its own for the summary at the end. */
#define ENC_MAX_HARM 4
/* Ruleset id, in bytes. */
#define ENC_MAX_RS_ID 15
/* One setting key / value, in bytes. */
#define ENC_MAX_SETTING_KEY 24
#define ENC_MAX_SETTING_VALUE 64

enum enc_status {
    ENC_ST_SETUP = 0,        /* combatants being added; no turns yet */
    ENC_ST_RUNNING,          /* /combat begin was given */
    ENC_ST_ENDED,
};

enum enc_expire {
    ENC_EXPIRE_END = 0,      /* at the end of the anchor's turn */
    ENC_EXPIRE_START,        /* at the start of the anchor's turn */
};

struct enc_cond {
    char name[ENC_MAX_COND_NAME + 1];
    int32_t value;           /* a value or a number of stacks; 0 = a flag */
    int32_t cap;             /* most stacks allowed; 0 = no cap */
    int32_t rounds;          /* anchor turns left; 0 = until removed */
    uint32_t anchor;         /* combatant whose turn counts it down */
    enum enc_expire expire;
    uint32_t source;         /* who caused it; 0 = nobody in particular */
    uint64_t applied_turn;   /* enc.turn_seq when it was applied */
};

struct enc_stat {
    char name[ENC_MAX_STAT_NAME + 1];
    int64_t value;
};

struct enc_track {
    char name[ENC_MAX_STAT_NAME + 1];
    int64_t cur;
    int64_t max;             /* 0 = no maximum */
};

/* An attack a combatant carries (a saved character's weapon): what
 * /attack with:<name> fills in, each string as /attack takes it. Roll and
 * damage are the system's to read (dice, or a number where the system
 * counts a pool or a weight), options its /attack tokens; each is checked
 * by the system when the attack is made, as if typed. The fight's copy:
 * changing the sheet later does not change it. */
struct enc_attack {
    char name[ENC_MAX_ATTACK_NAME + 1];
    char roll[ENC_MAX_ATTACK_EXPR + 1];     /* "": the system's own roll */
    char damage[ENC_MAX_ATTACK_EXPR + 1];   /* "": none */
    char options[ENC_MAX_ATTACK_OPTS + 1];  /* "": none */
};

/* When a resource (enc_res.h) fills up again. */
enum enc_reset {
    ENC_RESET_NEVER = 0,     /* only when restored by hand */
    ENC_RESET_TURN,          /* at the start of its holder's turn */
    ENC_RESET_ROUND,         /* at the start of each round */
};

/* A named count a combatant spends and gets back: legendary actions,
 * reactions, spell slots, a recharge ability. */
struct enc_res {
    char name[ENC_MAX_RES_NAME + 1];
    int32_t cur;
    int32_t max;             /* 1..ENC_MAX_RES_VALUE */
    int32_t reset;           /* enum enc_reset */
    int32_t recharge;        /* 0: refills at its reset point; 2..6: a d6
                                rolled there refills it on this or more */
};

/* A countdown (enc_cd.h): a named count the fight runs down, announced
 * when it reaches zero. */
#define ENC_CDF_HIDDEN (1u << 0) /* the GM's alone: row and announcement */
#define ENC_CDF_PAUSED (1u << 1) /* does not count down until resumed */
struct enc_cd {
    char name[ENC_MAX_CD_NAME + 1];
    int32_t left;            /* 1..ENC_MAX_CD_COUNT; at 0 it is gone */
    int32_t total;           /* as it was set, for "2 of 3" */
    uint32_t of;             /* 0: counts rounds; else the combatant whose
                                turns count it */
    uint32_t flags;          /* ENC_CDF_* */
    uint64_t set_turn;       /* enc.turn_seq when set: the turn it was set
                                in does not count (as a condition's) */
};

/* What an event of the order is (enc_entry.h). */
enum enc_entry_kind {
    ENC_ENTRY_LAIR = 0,      /* at a fixed place every round */
    ENC_ENTRY_HAZARD,        /* at a place of its own (a count it rolled,
                                a card it drew) every round */
    ENC_ENTRY_ONCE,          /* at its place in one round, then gone */
};

/* Where in a round an event sits. */
enum enc_entry_at {
    ENC_ENTRY_COUNT = 0,     /* at an initiative count or card: count */
    ENC_ENTRY_START,         /* at the start of the round */
    ENC_ENTRY_END,           /* at the end of the round */
};

/* An entry in the order that is not a combatant: a lair action, a
 * hazard, a one-shot. It is never a target and never on a side; the turn
 * stops on it when its place comes (enc_entry.h). Called an entry here
 * because enc_event is what a change reports. */
struct enc_entry {
    uint32_t id;             /* from next_id, as a combatant's */
    char name[ENC_MAX_ENTRY_NAME + 1];
    char note[ENC_MAX_ENTRY_NOTE + 1];  /* "" for none */
    char dice[ENC_MAX_ENTRY_DICE + 1];  /* rolled when it comes up; "" */
    int32_t kind;            /* enum enc_entry_kind */
    int32_t at;              /* enum enc_entry_at */
    int64_t count;           /* ENC_ENTRY_COUNT: the count or card */
    int32_t round;           /* ENC_ENTRY_ONCE: the round it comes in */
    int32_t fired;           /* the last round it came up in (or whose
                                place had passed when it was added) */
    bool hidden;             /* the GM's alone: players see nothing */
};

#define ENC_CF_DOWN   (1u << 0)  /* out of the fight: turns are skipped */
#define ENC_CF_ACTED  (1u << 1)  /* has taken its turn this round/phase */
#define ENC_CF_MAJOR  (1u << 2)  /* a major NPC (resolve ruleset) */
#define ENC_CF_DEAD   (1u << 3)

/* enc_clone copies a combatant in parts: everything before stats, the used
 * entries of stats, tracks, conds, attacks and res, the note up to its end, and
 * everything from dealt on. A new field goes before stats or after dealt.
 * enc_pack (enc_pack.h) keeps the same parts, strings up to their ends;
 * st stays the last field. */
struct enc_combatant {
    uint32_t id;
    char name[ENC_MAX_NAME + 1];
    uint64_t owner;          /* the player's user id; 0 = the GM's NPC */
    int side;                /* index into enc.sides, -1 for none */
    bool hidden;             /* numbers shown to the GM only */
    uint32_t group;          /* combatants with the same group > 0 share
                                initiative */
    uint32_t flags;          /* ENC_CF_* */
    uint32_t join_seq;       /* order of arrival, for stable ties */
    char init_expr[ENC_MAX_INIT_EXPR + 1]; /* as given; "" = ruleset default */
    int64_t init[ENC_MAX_INIT];
    int ninit;
    int64_t init_tie;        /* tie-breaker kept once drawn (roll-off) */
    char sheet[ENC_MAX_NAME + 1]; /* the owner's saved character it came
                                     from (its name), "" for none: where
                                     the fight's result is written back */
    struct enc_stat stats[ENC_MAX_STATS];
    int nstats;
    struct enc_track tracks[ENC_MAX_TRACKS];
    int ntracks;
    struct enc_cond conds[ENC_MAX_CONDITIONS];
    int nconds;
    char note[ENC_MAX_NOTE + 1];
    struct enc_attack attacks[ENC_MAX_ATTACKS]; /* its saved attacks */
    int nattacks;
    struct enc_res res[ENC_MAX_RES]; /* its resources (enc_res.h) */
    int nres;
    int64_t dealt, taken;    /* damage dealt and taken in this fight, for
                                the summary at its end */
    int32_t falls;           /* times it went down */
    int64_t harm[ENC_MAX_HARM]; /* taken, per track of its system's harm
                                   declaration (rs.h), in that order */
    int32_t hits, misses, crits; /* its attacks' outcomes (enc_event.hit);
                                    a critical is a hit too */
    int32_t turns;           /* turns it started */
    int32_t waits;           /* turns whose wait for its first action
                                was timed */
    int64_t wait_ms;         /* those waits, summed */
    int64_t wait_max_ms;     /* and the longest */
    int64_t dealt_unseen;    /* of dealt, what the players were not shown
                                (to hidden combatants): the summary then
                                shows them no total */
    void *st;                /* the ruleset's typed state (rs.h), or NULL */
};

struct enc_side {
    char name[ENC_MAX_SIDE_NAME + 1];
    void *st;                /* the ruleset's typed state (rs.h), or NULL */
};

struct enc_setting {
    char key[ENC_MAX_SETTING_KEY + 1];
    char value[ENC_MAX_SETTING_VALUE + 1];
};

/* One entry of a fixed turn order: a combatant acting on one of its
 * initiative values. */
struct enc_slot {
    uint32_t id;
    int init_idx;
};

/* enc_clone copies an encounter in parts: everything before settings, the
 * used settings, everything from nsettings to entries, the used entries,
 * everything from nentries to cds, the used countdowns, everything from
 * ncds to order, the used order, and everything from norder on. A new
 * field goes anywhere but inside those four arrays' places. enc_pack
 * (enc_pack.h) keeps the same parts, the used sides and strings up to
 * their ends; st stays the last field. */
struct encounter {
    const struct rs_system *sys; /* its ruleset (static) */
    char ruleset[ENC_MAX_RS_ID + 1];
    char name[ENC_MAX_ENC_NAME + 1];
    uint64_t gm;             /* the user who started it */
    int64_t version;         /* bumped by the command layer on each change */
    enum enc_status status;
    int32_t round;           /* 0 before begin */
    int32_t phase;           /* the ruleset's phase within the round */
    uint32_t current;        /* whose turn it is; 0 = nobody (e.g. a side
                                must pick) */
    int acting_side;         /* alternating rulesets: the side to act; -1 */
    uint64_t turn_seq;       /* counts turn starts; conditions use it */
    bool notices;            /* mention the owner when a turn starts */
    bool trust;              /* players may change the hp and conditions
                                of any combatant they can see */
    uint64_t tracker_msg;    /* the front end's tracker message, 0 = none */
    uint64_t fight_id;       /* drawn when the fight starts, carried by its
                                buttons so an old fight's button never acts
                                on a new one; 0 for fights from before */
    struct enc_clock clock;  /* the turn clock (enc_clock.h) */

    struct enc_setting settings[ENC_MAX_SETTINGS];
    int nsettings;
    struct enc_side sides[ENC_MAX_SIDES];
    int nsides;
    struct enc_entry entries[ENC_MAX_ENTRIES]; /* events of the order */
    int nentries;
    uint32_t entry_on;       /* the event the turn stopped on; 0 = none
                                (then current says whose turn it is) */

    struct enc_combatant *cs;  /* combatants, in display order */
    int ncs;
    int cs_cap;
    uint32_t next_id;
    uint32_t next_join;

    struct enc_cd cds[ENC_MAX_COUNTDOWNS]; /* its countdowns (enc_cd.h) */
    int ncds;

    struct enc_slot order[ENC_MAX_ORDER]; /* fixed-order rulesets */
    int norder;
    int turn_idx;            /* index into order of the current turn; -1 */

    void *st;                /* the ruleset's typed state (rs.h), or NULL */
};

/* ---- lifecycle ----------------------------------------------------------- */

/* A new encounter in setup for ruleset sys, with the ruleset's state
 * zeroed. NULL on no memory. */
struct encounter *enc_new(const struct rs_system *sys, const char *name,
                          uint64_t gm);
void enc_free(struct encounter *e);
/* A deep copy (typed state included); NULL on no memory. */
struct encounter *enc_clone(const struct encounter *e);
/* Whether b holds what a does, as far as enc_clone() copies a combatant
 * (its typed state compared by sp's size): true means whatever is made of
 * one is made of the other. Bytes past a text's end count, so false may
 * mean only those differ. */
struct rs_state_spec;
bool enc_comb_same(const struct rs_state_spec *sp,
                   const struct enc_combatant *a,
                   const struct enc_combatant *b);

/* ---- lookup -------------------------------------------------------------- */

struct enc_combatant *enc_by_id(struct encounter *e, uint32_t id);
const struct enc_combatant *enc_by_id_c(const struct encounter *e,
                                        uint32_t id);
/* By name, ignoring ASCII case. NULL if none. */
struct enc_combatant *enc_by_name(struct encounter *e, const char *name);
/* The known name closest to name (edit distance), for "did you mean";
 * NULL when nothing is close. Only names viewer may see are candidates:
 * all of them when all is true (the GM), else every combatant but the
 * hidden ones viewer does not own. */
const char *enc_closest_name(const struct encounter *e, const char *name,
                             uint64_t viewer, bool all);
int enc_side_find(const struct encounter *e, const char *name);
/* The side index named name, adding it when new. -1 with d set when the
 * name is invalid or ENC_MAX_SIDES are used. */
int enc_side_get(struct encounter *e, const char *name, struct enc_diag *d);
struct enc_combatant *enc_current(struct encounter *e);

/* ---- names, stats, tracks ------------------------------------------------ */

/* Check a name a user gave: 1..ENC_MAX_NAME bytes of valid UTF-8, no control
 * characters, no leading/trailing space, nothing the text policy refuses
 * (eng_policy.h: no zero-width characters, no text direction controls),
 * not only digits. */
enum eng_err enc_check_name(const char *name, const char *what,
                            size_t max, struct enc_diag *d);

/* Add combatant(s). With count > 1 the names become "name 1".."name N"
 * (count <= ENC_MAX_COUNT). The new combatants' ids go to ids_out (room for
 * count) when non-NULL. Ruleset setup is the caller's job (see rs.h). */
enum eng_err enc_add(struct encounter *e, const char *name, int count,
                     uint64_t owner, int side, struct enc_diag *d,
                     uint32_t *ids_out);
/* Remove a combatant; its turn slot, conditions it anchors and the current
 * turn are fixed up so durations stay exact (see enc.c), and countdowns of
 * its turns count rounds from then on (enc_cd.h). */
enum eng_err enc_remove(struct encounter *e, uint32_t id,
                        struct enc_result *r, struct enc_diag *d);

int64_t *enc_stat(struct enc_combatant *c, const char *name);
int64_t enc_stat_or(const struct enc_combatant *c, const char *name,
                    int64_t dflt);
enum eng_err enc_stat_set(struct enc_combatant *c, const char *name,
                          int64_t value, struct enc_diag *d);
/* Remove a stat; false when there was none. */
bool enc_stat_remove(struct enc_combatant *c, const char *name);
struct enc_track *enc_track(struct enc_combatant *c, const char *name);
const struct enc_track *enc_track_c(const struct enc_combatant *c,
                                    const char *name);
enum eng_err enc_track_set(struct enc_combatant *c, const char *name,
                           int64_t cur, int64_t max, struct enc_diag *d);
/* Remove a track; false when there was none. */
bool enc_track_remove(struct enc_combatant *c, const char *name);

/* Parse "ac=13 hp=7 init=+2" into name/value pairs (at most max). Names are
 * lowercased; values are integers within +-ENC_MAX_VALUE. */
struct enc_kv {
    char name[ENC_MAX_STAT_NAME + 1];
    int64_t value;
};
enum eng_err enc_parse_stats(const char *text, struct enc_kv *out, int max,
                             int *n, struct enc_diag *d);

/* Settings: "key=value" strings the ruleset interprets. */
const char *enc_setting(const struct encounter *e, const char *key);
enum eng_err enc_setting_set(struct encounter *e, const char *key,
                             const char *value, struct enc_diag *d);

/* ---- saved attacks ------------------------------------------------------- */

/* c's attack called name (ASCII case ignored); NULL when none. */
const struct enc_attack *enc_attack_find(const struct enc_combatant *c,
                                         const char *name);

/* ---- conditions ---------------------------------------------------------- */

struct enc_cond_req {
    const char *name;
    int32_t value;           /* stacks or value; 0 = a flag */
    int32_t cap;             /* 0 = no cap */
    int32_t rounds;          /* 0 = until removed */
    uint32_t anchor;         /* 0 = the holder itself */
    enum enc_expire expire;
    uint32_t source;
};

/* Give c the condition q->name with exactly q->value (creating it, or
 * replacing the value of the one it has), capped at q->cap when that is
 * > 0, with q's duration. The rules of a system (start values, stacking)
 * are the kit's (rs_kit.h rs_cond_give); this only stores and reports. */
enum eng_err enc_cond_set(struct encounter *e, struct enc_combatant *c,
                          const struct enc_cond_req *q, struct enc_result *r,
                          struct enc_diag *d);
/* Add a condition or, when the holder has it already, add to its stacks
 * (up to the cap) and refresh its duration. */
enum eng_err enc_cond_add(struct encounter *e, struct enc_combatant *c,
                          const struct enc_cond_req *q, struct enc_result *r,
                          struct enc_diag *d);
enum eng_err enc_cond_remove(struct encounter *e, struct enc_combatant *c,
                             const char *name, struct enc_result *r,
                             struct enc_diag *d);
struct enc_cond *enc_cond_find(struct enc_combatant *c, const char *name);

/* ---- small helpers for the rulesets -------------------------------------- */

/* ASCII case-insensitive equality. */
bool enc_name_eq(const char *a, const char *b);
/* Copy src into dst (size n), always terminated, cut on a UTF-8 boundary. */
void enc_copy(char *dst, size_t n, const char *src);

#endif
