/*
 * rs.h - rulesets: how a game system runs a fight.
 *
 * A ruleset is a descriptor (struct rs_system) plus a versioned table of
 * operations (struct rs_ops) in a compiled-in registry (rs.c). The
 * encounter model (enc.h) and the turn machinery (turn.h) are shared; a
 * ruleset supplies what differs: which stats and tracks a combatant has, how
 * initiative is drawn and ordered, what "next" means (a fixed order, a side
 * picking one of its members, factions passing), what an attack is, and any
 * commands of its own.
 *
 * Optional slots may be NULL; the comment on each says what happens then.
 * New slots go at the end only, and RS_OPS_VERSION goes up with them, so a
 * ruleset written for an older table keeps working (SQLite's vfs rule).
 *
 * Every operation validates before it changes anything: on error the
 * encounter is exactly as it was and d says why. The command layer works on
 * a copy and saves it only on success, so a ruleset may also fail late.
 *
 * Ownership: all arguments are borrowed for the call; descriptors are static.
 */
#ifndef RS_H
#define RS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "enc.h"
#include "eng_rng.h"

#define RS_OPS_VERSION 2

/* An option given to a command, as text (name:value). */
struct rs_opt {
    const char *name;
    const char *value;
};

/* Look an option up by name; NULL when absent. */
const char *rs_opt(const struct rs_opt *opts, int nopts, const char *name);

/* What a command asks of the ruleset, with who is asking. */
struct rs_call {
    struct encounter *e;
    struct eng_rng *rng;
    struct enc_result *r;
    struct enc_diag *d;
    uint64_t user;           /* who sent the command */
    bool is_gm;              /* the sender may do everything */
    const struct rs_opt *opts;
    int nopts;
    const void *data;        /* the group's data for this ruleset, parsed by
                                data_parse from its file; NULL: built in */
};

/* /attack, already resolved to combatants. */
struct rs_attack {
    struct enc_combatant *attacker;
    struct enc_combatant *target;
    const char *roll;        /* the attack roll expression, or NULL */
    const char *damage;      /* the damage expression, or NULL */
    const char *options;     /* ruleset-specific options text, or NULL */
};

struct rs_ops {
    int version;             /* RS_OPS_VERSION it was written for */

    /* Validate and complete a combatant just added (stats already set from
     * the command: defaults, tracks from stats, hp). Required. */
    enum eng_err (*setup)(struct rs_call *c, struct enc_combatant *who);

    /* Validate a change to stats (name, new value) before it is applied.
     * NULL: any integer stat is accepted. */
    enum eng_err (*check_stat)(struct rs_call *c, struct enc_combatant *who,
                               const char *name, int64_t value);

    /* Validate one encounter setting at /combat start (and default the
     * rest). NULL: no settings are accepted. */
    enum eng_err (*setting)(struct rs_call *c, const char *key,
                            const char *value);

    /* Roll or draw initiative and start round 1. The rs_call options are
     * /combat begin's (first, surprise, order...). Required. */
    enum eng_err (*begin)(struct rs_call *c);

    /* End the current turn and move on, as the ruleset defines it.
     * Required. */
    enum eng_err (*next)(struct rs_call *c);

    /* A side (or its members' owners) chooses who acts next: alternating
     * rulesets. NULL: the command is refused as not part of this system. */
    enum eng_err (*pick)(struct rs_call *c, struct enc_combatant *who);

    /* A side passes: alternating rulesets. NULL: refused. */
    enum eng_err (*pass)(struct rs_call *c);

    /* Resolve an attack and apply its effects. NULL: refused. */
    enum eng_err (*attack)(struct rs_call *c, const struct rs_attack *a);

    /* A combatant joined or was added after the fight began: give it a place
     * in the order. NULL: it acts from the next round, last. */
    enum eng_err (*late_join)(struct rs_call *c, struct enc_combatant *who);

    /* A track changed (hp set or damaged): mark down/up and emit events.
     * NULL: the generic rule (hp <= 0 is down). */
    void (*after_track)(struct rs_call *c, struct enc_combatant *who,
                        const char *track, int64_t before);

    /* A ruleset command (/combat delay, /test, /react ...): verb names it.
     * NULL, or ENG_NOTFOUND from it: the command is not in this system. */
    enum eng_err (*action)(struct rs_call *c, const char *verb);

    /* A short per-combatant status for the tracker (actions left, cards),
     * written into buf. NULL: nothing extra. */
    void (*status)(const struct encounter *e, const struct enc_combatant *who,
                   char *buf, size_t n);

    /* Methods above are valid for version 1. */

    /* Parse the text of the ruleset's data file (rs_system.data_file) that
     * a group edits to rename or extend the ruleset's tables; the front end
     * reads the file and passes the result to every call as rs_call.data.
     * NULL: the ruleset has no data file. */
    enum eng_err (*data_parse)(const char *text, size_t len, void **out,
                               struct enc_diag *d);
    void (*data_free)(void *data);
};

/* A choice a ruleset puts to a player (ENC_EV_PROMPT): each answer is one
 * of the ruleset's commands with one option set: opt:value, or, when opt is
 * NULL, name:<the prompted combatant>. Front ends show the answers as
 * buttons or as the commands to type. */
#define RS_PROMPT_CHOICES 5
struct rs_prompt_choice {
    const char *label;       /* "Fortify"; NULL ends the list */
    const char *command;     /* "test" (a command of the table) */
    const char *opt;         /* option the answer sets, or NULL for name */
    const char *value;
};
struct rs_prompt {
    struct rs_prompt_choice choice[RS_PROMPT_CHOICES];
};

#define RS_F_SIDES_REQUIRED (1u << 0) /* every combatant needs a side */
#define RS_F_ALTERNATING    (1u << 1) /* sides take turns picking */

struct rs_system {
    const char *id;          /* stable key stored with the encounter */
    const char *title;       /* shown to users */
    const char *summary;     /* one line for /help */
    unsigned flags;          /* RS_F_* */
    const char *const *verbs; /* ruleset commands, NULL-terminated */
    const struct rs_ops *ops;
    const struct rs_prompt *prompts; /* indexed by ENC_EV_PROMPT's a */
    int nprompts;
    const char *data_file;   /* file name under the rules directory (see
                                data_parse), or NULL */
};

/* The ruleset with this id (ASCII case ignored); NULL if none. */
const struct rs_system *rs_find(const char *id);

/* The ruleset's place in rs_all(), or -1. */
int rs_index(const struct rs_system *s);

/* Every ruleset, in display order. */
const struct rs_system *const *rs_all(size_t *n);

/* A comma-separated list of ids for messages ("generic, teams") into buf
 * of size n (cut at a whole id when too small). */
void rs_ids(char *buf, size_t n);

/* Whether the sender may act for who: the GM, or the player who owns it. */
bool rs_may_act(const struct rs_call *c, const struct enc_combatant *who);

/* rs_may_act() or fail with a short message saying who may do it. */
enum eng_err rs_require_actor(struct rs_call *c,
                              const struct enc_combatant *who);

/* Find a combatant named by option opt (e.g. "name", "target"); fails with
 * "no combatant named X (did you mean Y?)" or "opt is required". */
enum eng_err rs_opt_combatant(struct rs_call *c, const char *opt,
                              struct enc_combatant **out);

/* Integer option opt within [lo, hi]; absent gives dflt. Fails with a
 * message naming the option and the bounds. */
enum eng_err rs_opt_int(struct rs_call *c, const char *opt, int64_t lo,
                        int64_t hi, int64_t dflt, int64_t *out);

/* Boolean option (true/false/yes/no/on/off); absent gives dflt. */
enum eng_err rs_opt_bool(struct rs_call *c, const char *opt, bool dflt,
                         bool *out);

/* The generic rule for a track change: hp at or below 0 marks the combatant
 * down (its turns are skipped), above 0 brings it back. */
void rs_default_after_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t before);

#endif
