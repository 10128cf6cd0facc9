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

#include "eng_err.h"
#include "eng_limits.h"

/* Initiative values one combatant may hold (the cards ruleset deals several
 * cards to one creature). */
#define ENC_MAX_INIT 4
/* Scratch slots a ruleset may use on the encounter, a side, a combatant. */
#define ENC_RS_SLOTS 16
/* Turn order entries: every combatant's every initiative value. */
#define ENC_MAX_ORDER (ENC_MAX_COMBATANTS * ENC_MAX_INIT)
/* Events one command may produce. */
#define ENC_MAX_EVENTS 128
/* Initiative expression kept on a combatant ("d20+3"), in bytes. */
#define ENC_MAX_INIT_EXPR 64
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

#define ENC_CF_DOWN   (1u << 0)  /* out of the fight: turns are skipped */
#define ENC_CF_ACTED  (1u << 1)  /* has taken its turn this round/phase */
#define ENC_CF_MAJOR  (1u << 2)  /* a major NPC (resolve ruleset) */
#define ENC_CF_DEAD   (1u << 3)

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
    struct enc_stat stats[ENC_MAX_STATS];
    int nstats;
    struct enc_track tracks[ENC_MAX_TRACKS];
    int ntracks;
    struct enc_cond conds[ENC_MAX_CONDITIONS];
    int nconds;
    char note[ENC_MAX_NOTE + 1];
    int64_t rs[ENC_RS_SLOTS]; /* the ruleset's own per-combatant state */
};

struct enc_side {
    char name[ENC_MAX_SIDE_NAME + 1];
    int64_t rs[ENC_RS_SLOTS]; /* the ruleset's own per-side state */
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

struct encounter {
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
    uint64_t tracker_msg;    /* the front end's tracker message, 0 = none */

    struct enc_setting settings[ENC_MAX_SETTINGS];
    int nsettings;
    struct enc_side sides[ENC_MAX_SIDES];
    int nsides;

    struct enc_combatant *cs;  /* combatants, in display order */
    int ncs;
    int cs_cap;
    uint32_t next_id;
    uint32_t next_join;

    struct enc_slot order[ENC_MAX_ORDER]; /* fixed-order rulesets */
    int norder;
    int turn_idx;            /* index into order of the current turn; -1 */

    int64_t rs[ENC_RS_SLOTS]; /* the ruleset's own encounter state */
};

/* ---- what a change did, for the renderers ------------------------------ */

enum enc_ev {
    ENC_EV_TEXT = 0,         /* a ruleset message in text */
    ENC_EV_ADDED,            /* who */
    ENC_EV_REMOVED,          /* who (name in text) */
    ENC_EV_INIT,             /* who rolled a = initiative (text: the roll) */
    ENC_EV_BEGIN,            /* the fight started */
    ENC_EV_ROUND,            /* a = round number */
    ENC_EV_TURN,             /* who's turn starts */
    ENC_EV_TURN_END,         /* who's turn ends */
    ENC_EV_SKIP,             /* who is skipped (down) */
    ENC_EV_HP,               /* who: track text changed from a to b */
    ENC_EV_DOWN,             /* who went down */
    ENC_EV_UP,               /* who is back up */
    ENC_EV_COND_ADD,         /* who gained text (a = value, b = rounds) */
    ENC_EV_COND_EXPIRE,      /* who lost text: its duration ran out */
    ENC_EV_COND_REMOVE,      /* who lost text: removed */
    ENC_EV_ATTACK,           /* who attacked other: a = roll, b = target
                                number, c = hit (1) or miss (0) */
    ENC_EV_DAMAGE,           /* who dealt a damage to other */
    ENC_EV_STAT,             /* who's stats changed */
    ENC_EV_NOTE,             /* who's note changed */
    ENC_EV_END,              /* the fight ended */
    ENC_EV_ROLL,             /* a roll: text = label, a = total */
    ENC_EV_PROMPT,           /* who's player must choose: text = the
                                question, a = index into the ruleset's
                                prompts (rs.h) */
};

struct enc_event {
    enum enc_ev kind;
    uint32_t who;
    uint32_t other;
    int64_t a, b, c;
    int roll;                /* index into enc_result.rolls, or -1 */
    bool secret;             /* GM only (hidden combatant's numbers) */
    char text[96];
};

/* A dice roll made during a change, kept as text so the engine needs no
 * renderer: "1d20+5 = [14]+5 = 19". The front end may re-render from the
 * expression and the seed if it wants detail. */
#define ENC_MAX_ROLLS 32
#define ENC_MAX_ROLL_TEXT 200
struct enc_roll {
    char label[48];
    char detail[ENC_MAX_ROLL_TEXT];
    int64_t total;
};

struct enc_result {
    struct enc_event ev[ENC_MAX_EVENTS];
    int nev;
    bool truncated;          /* more events happened than fit */
    struct enc_roll rolls[ENC_MAX_ROLLS];
    int nrolls;
};

/* A diagnostic for the user: what was wrong, in one short lowercase line
 * (no trailing period), and, when helpful, the command that would work. */
struct enc_diag {
    enum eng_err code;
    char msg[160];
    char hint[120];
};

void enc_result_init(struct enc_result *r);
/* Append an event; returns it (a scratch slot when full, marking the result
 * truncated) so the caller can fill it in unconditionally. */
struct enc_event *enc_emit(struct enc_result *r, enum enc_ev kind,
                           uint32_t who);
/* Append a roll; returns its index or -1 when full. */
int enc_add_roll(struct enc_result *r, const char *label, const char *detail,
                 int64_t total);

/* Set d and return d->code. msg is a printf format. */
enum eng_err enc_fail(struct enc_diag *d, enum eng_err code, const char *fmt,
                      ...) __attribute__((format(printf, 3, 4)));
void enc_hint(struct enc_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- lifecycle ----------------------------------------------------------- */

/* A new encounter in setup for ruleset id (validated by the caller through
 * rs_find()). NULL on no memory. */
struct encounter *enc_new(const char *ruleset, const char *name, uint64_t gm);
void enc_free(struct encounter *e);
/* A deep copy; NULL on no memory. */
struct encounter *enc_clone(const struct encounter *e);

/* ---- lookup -------------------------------------------------------------- */

struct enc_combatant *enc_by_id(struct encounter *e, uint32_t id);
const struct enc_combatant *enc_by_id_c(const struct encounter *e,
                                        uint32_t id);
/* By name, ignoring ASCII case. NULL if none. */
struct enc_combatant *enc_by_name(struct encounter *e, const char *name);
/* The known name closest to name (edit distance), for "did you mean";
 * NULL when nothing is close. */
const char *enc_closest_name(const struct encounter *e, const char *name);
int enc_side_find(const struct encounter *e, const char *name);
/* The side index named name, adding it when new. -1 with d set when the
 * name is invalid or ENC_MAX_SIDES are used. */
int enc_side_get(struct encounter *e, const char *name, struct enc_diag *d);
struct enc_combatant *enc_current(struct encounter *e);

/* ---- names, stats, tracks ------------------------------------------------ */

/* Check a name a user gave: 1..ENC_MAX_NAME bytes of valid UTF-8, no control
 * characters, no leading/trailing space, not only digits. */
enum eng_err enc_check_name(const char *name, const char *what,
                            size_t max, struct enc_diag *d);

/* Add combatant(s). With count > 1 the names become "name 1".."name N"
 * (count <= ENC_MAX_COUNT). The new combatants' ids go to ids_out (room for
 * count) when non-NULL. Ruleset setup is the caller's job (see rs.h). */
enum eng_err enc_add(struct encounter *e, const char *name, int count,
                     uint64_t owner, int side, struct enc_diag *d,
                     uint32_t *ids_out);
/* Remove a combatant; its turn slot, conditions it anchors and the current
 * turn are fixed up so durations stay exact (see enc.c). */
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
