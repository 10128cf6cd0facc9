/*
 * rs.h - rulesets: how a game system runs a fight, declared in one place.
 *
 * A ruleset is one struct rs_system in its own folder (engine/rulesets/<id>)
 * plus one line in the compiled-in registry (engine/core/rs.c). The system
 * declares everything a front end needs to know about it, as data:
 *
 *  - its commands (struct rs_cmd): verb, typed options with limits and
 *    choices, who may use them, whether they need a running fight and
 *    whether they end the turn, and the function that runs them;
 *  - options it adds to the core commands (struct rs_ext: /combat add
 *    major:, /combat begin first:) and the tokens of /attack's options:;
 *  - its conditions (struct rs_cond_spec): stacks, cap, start value,
 *    duration and what they do;
 *  - its settings with bounds (struct rs_setting_spec), its stats and
 *    tracks (struct rs_stat_spec), its help pages (struct rs_help);
 *  - its own typed state on the encounter, each side and each combatant
 *    (struct rs_state_spec: a struct size and a field table, as nginx's
 *    ngx_command_t names fields by offsetof).
 *
 * The command table, Discord registration, autocomplete, /help and the
 * command reference in docs/ are generated from these declarations
 * (bot/cmd/). Behaviour that differs per system plugs in through the
 * versioned operations table struct rs_ops; the shared pieces every system
 * uses (options, rolls, sentences, conditions, settings) are the kit
 * (rs_kit.h), so no helper exists twice.
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
#include "eng_buf.h"
#include "eng_rng.h"

#define RS_OPS_VERSION 4
#define RS_SYSTEM_VERSION 1

/* ---- options: one declaration for commands, /attack tokens, settings ---- */

/* How an option's value is typed on Discord: Discord's own option types. */
enum rs_opt_type {
    RS_OPT_STRING = 3,
    RS_OPT_INTEGER = 4,
    RS_OPT_BOOLEAN = 5,
    RS_OPT_CHANNEL = 7,
    RS_OPT_ROLE = 8,
    RS_OPT_ATTACHMENT = 11,  /* a file: an upload on Discord, a path in the
                                console (the import commands) */
};

/* What a value names: how it is checked, completed and bound. */
enum rs_val {
    RS_VAL_TEXT = 0,         /* free text within the length bounds */
    RS_VAL_DICE,             /* a dice expression (checked when rolled) */
    RS_VAL_CHOICE,           /* one of choices[] (ASCII case ignored) */
    RS_VAL_COMBATANT,        /* a combatant the sender may see */
    RS_VAL_OWN,              /* a combatant the sender may act for */
    RS_VAL_SIDE,             /* a side of the encounter */
    RS_VAL_SIDE_ANY,         /* a side, existing or new */
    RS_VAL_CONDITION,        /* a condition (the system's or custom) */
    RS_VAL_SYSTEM,           /* a ruleset id */
    RS_VAL_SYSTEMS,          /* a comma-separated list of ruleset ids */
    RS_VAL_HELP,             /* a /help topic */
    RS_VAL_FLAG,             /* /attack token without a value: "sneak" */
    RS_VAL_COUNT,            /* a flag that may repeat: "adv adv" */
    RS_VAL_NAMES,            /* comma-separated combatant names */
    RS_VAL_STATS,            /* "key=value key=value" stats */
    RS_VAL_SETTINGS,         /* "key=value ..." of the system's settings */
    RS_VAL_CHANNEL,          /* a Discord channel */
    RS_VAL_ATTACK_OPTS,      /* /attack options: the system's tokens */
    RS_VAL_MACRO,            /* the name of a saved roll (bot/cmd_macro) */
    RS_VAL_DICE_MACRO,       /* dice, or @name of a saved roll and what
                                follows it ("@stealth+2") */
    RS_VAL_CHARACTER,        /* a saved character of the sender's */
    RS_VAL_ATTACK,           /* a saved attack of the attacking combatant */
    RS_VAL_TEMPLATE,         /* an NPC template of the server */
    RS_VAL_SERVER_COND,      /* a condition of the server's own */
    RS_VAL_RESOURCE,         /* a resource of the combatant in name:
                                (enc_res.h) */
    RS_VAL_COUNTDOWN,        /* a countdown of the fight (enc_cd.h) */
};

struct rs_opt_spec {
    const char *name;        /* lowercase, 1..32: [a-z0-9_-] */
    enum rs_opt_type type;
    enum rs_val val;
    bool required;
    int64_t min, max;        /* integers: bounds; strings: length, bytes */
    const char *const *choices; /* RS_VAL_CHOICE: NULL-terminated */
    const char *help;        /* one line, at most 100 characters */
};

/* Declaring options reads as a table (nginx's directives do the same). */
#define RS_STR(n, req, val, maxlen, help) \
    {n, RS_OPT_STRING, val, req, 1, maxlen, NULL, help}
#define RS_TEXT(n, req, maxlen, help) \
    RS_STR(n, req, RS_VAL_TEXT, maxlen, help)
#define RS_INT(n, req, lo, hi, help) \
    {n, RS_OPT_INTEGER, RS_VAL_TEXT, req, lo, hi, NULL, help}
#define RS_BOOL(n, help) \
    {n, RS_OPT_BOOLEAN, RS_VAL_TEXT, false, 0, 1, NULL, help}
#define RS_CHOICE(n, req, list, help) \
    {n, RS_OPT_STRING, RS_VAL_CHOICE, req, 1, 32, list, help}
#define RS_FLAG(n, help) \
    {n, RS_OPT_BOOLEAN, RS_VAL_FLAG, false, 0, 1, NULL, help}
#define RS_COUNT(n, hi, help) \
    {n, RS_OPT_INTEGER, RS_VAL_COUNT, false, 0, hi, NULL, help}
#define RS_WHO(n, req, help) \
    {n, RS_OPT_STRING, RS_VAL_COMBATANT, req, 1, ENC_MAX_NAME, NULL, help}
#define RS_OWN(n, req, help) \
    {n, RS_OPT_STRING, RS_VAL_OWN, req, 1, ENC_MAX_NAME, NULL, help}
#define RS_SIDE(n, req, help) \
    {n, RS_OPT_STRING, RS_VAL_SIDE, req, 1, ENC_MAX_SIDE_NAME, NULL, help}
#define RS_DICE(n, req, help) \
    {n, RS_OPT_STRING, RS_VAL_DICE, req, 1, DICE_MAX_EXPR_LEN, NULL, help}
/* A file to read: its path in the console, at most RS_FILE_PATH_MAX
 * bytes; on Discord the value is the attachment's id. */
#define RS_FILE_PATH_MAX 255
#define RS_FILE(n, req, help) \
    {n, RS_OPT_ATTACHMENT, RS_VAL_TEXT, req, 1, RS_FILE_PATH_MAX, NULL, help}
#define RS_OPT_END {0}

/* Options one command may have: Discord's cap. */
#define RS_MAX_OPTS 25

/* One option as given, after binding to its spec (rs_kit.h). */
struct rs_arg {
    const struct rs_opt_spec *spec;
    const char *text;        /* as given (borrowed) */
    int64_t i;               /* INTEGER, COUNT; BOOLEAN/FLAG as 0/1 */
    struct enc_combatant *who; /* COMBATANT, OWN */
    int side;                /* SIDE: index, or -1 */
};

/* ---- commands ------------------------------------------------------------ */

#define RS_CMD_GM_ONLY   (1u << 0) /* only the encounter's GM */
#define RS_CMD_RUNNING   (1u << 1) /* only once the fight has begun */
#define RS_CMD_READONLY  (1u << 2) /* changes nothing (no new version) */
#define RS_CMD_ENDS_TURN (1u << 3) /* a success ends the acting turn */
#define RS_CMD_EPHEMERAL (1u << 4) /* the reply is private by default */

struct rs_call;

typedef enum eng_err rs_cmd_fn(struct rs_call *c);

struct rs_cmd {
    const char *verb;        /* "act", "effect" */
    const char *sub;         /* "trigger" for /effect trigger; or NULL */
    unsigned flags;          /* RS_CMD_* */
    const char *help;        /* one line, at most 100 characters */
    const char *example;     /* one typical use, for /help and docs */
    rs_cmd_fn *run;
    struct rs_opt_spec opts[RS_MAX_OPTS]; /* ends at name == NULL */
};

/* Options a system adds to a core command ("combat add", "combat begin",
 * "combat start"): accepted only in that system's fights. */
#define RS_MAX_EXT_OPTS 8
struct rs_ext {
    const char *command;     /* "combat add"; NULL ends the list */
    struct rs_opt_spec opts[RS_MAX_EXT_OPTS];
};

/* ---- conditions ---------------------------------------------------------- */

#define RS_COND_STACKS (1u << 0) /* a second dose adds to the value */
#define RS_COND_VALUE  (1u << 1) /* holds a number (a level, a bonus) */
#define RS_COND_SYSTEM (1u << 2) /* set by the rules only, never by hand
                                    (bookkeeping such as "busy: reload") */
#define RS_COND_LASTS  (1u << 3) /* outlasts the fight (until a rest or
                                    healing): a saved character keeps it */
#define RS_COND_TIMED  (1u << 4) /* the chapter fixes how long it lasts (its
                                    rounds and expire, said in its help):
                                    the GM may not time it otherwise */
#define RS_COND_REST   (1u << 5) /* with RS_COND_LASTS: ends when the
                                    character rests (/character rest) */

struct rs_cond_spec {
    const char *name;        /* as shown ("Poisoned") */
    unsigned flags;          /* RS_COND_* */
    int32_t start;           /* value when first given without one
                                (Poisoned starts at 2); 0: 1 stack or a
                                flag */
    int32_t cap;             /* most stacks; 0 = no cap */
    int32_t rounds;          /* default duration; 0 = until removed */
    enum enc_expire expire;
    const char *help;        /* what it does, one line */
};

/* ---- settings, stats, help ------------------------------------------------ */

enum rs_set_type {
    RS_SET_INT = 0,
    RS_SET_BOOL,
    RS_SET_CHOICE,
    RS_SET_DICE,             /* a dice expression (read with
                                rs_setting_text) */
};

struct rs_setting_spec {
    const char *key;         /* NULL ends the list */
    enum rs_set_type type;
    int64_t min, max;
    const char *const *choices;
    const char *dflt;        /* as text, shown in help */
    const char *help;
};

/* RS_POOL: a track with no maximum, set to the value given (temporary
 * hit points); fray makes the track from the stat on join, add and set. */
enum rs_stat_kind { RS_STAT = 0, RS_TRACK, RS_POOL };

/* A count the system's rules keep themselves (teams' reaction, tactical's
 * action points): a resource (enc_res.h) of that name is refused with
 * why, so the table spends it through the rules. */
struct rs_kept {
    const char *name;        /* NULL ends the list; ASCII case ignored */
    const char *why;         /* a clause: "each member has one a round" */
};

struct rs_stat_spec {
    const char *name;        /* NULL ends the list; a track's (RS_TRACK,
                                RS_POOL) is marked NC_("ID track", "hp")
                                (ID: the system's): the tracker shows its
                                catalog word, short */
    enum rs_stat_kind kind;
    int64_t min, max;
    const char *help;
};

/* A track damage changes, for the fight's tallies (the end's summary and
 * /combat log): what a combatant took is what these tracks lost, or, for a
 * track that counts harm upwards (up), gained. Tracks spent by choice
 * (stamina, ammunition) are not listed. */
struct rs_harm_spec {
    const char *track;       /* NULL ends the list */
    bool up;                 /* damage raises it (a harm track) */
};

/* A stat the rules change for good (or until the character rests) that a
 * saved character keeps after a fight, beside its tracks and lasting
 * conditions: written back when the fight ends, a stat the fight no longer
 * has (armour destroyed) removed from the sheet. */
#define RS_LAST_ALL  "*"         /* stat: every stat the sheet holds (an
                                    open-stats system whose rules may lower
                                    any attribute) */
#define RS_LAST_REST (1u << 0)   /* until the character rests: /character
                                    rest sets it back to rest */
struct rs_lasting {
    const char *stat;        /* a declared stat; RS_LAST_ALL; or "*suffix":
                                every stat of the fight whose name ends in
                                suffix (an open-stats system's items, such
                                as teams' "<item>_dur"); NULL ends */
    unsigned flags;          /* RS_LAST_* */
    int64_t rest;            /* RS_LAST_REST: its value after a rest */
    const char *why;         /* the chapter's words, quoted on its page */
};

struct rs_help {
    const char *kind;        /* what kind of game it plays, in one or two
                                sentences: turn structure and dice */
    const char *turns;       /* how a turn goes, with the commands */
    const char *attacks;     /* how attacks and damage work; or NULL */
    const char *clock;       /* what the turn clock's automatic move-on
                                does in this system (rs_ops.timeout); NULL:
                                the turn is skipped */
};

/* ---- typed state ---------------------------------------------------------- */

enum rs_field_type {
    RS_F_I64 = 0,            /* int64_t */
    RS_F_I32,                /* int32_t */
    RS_F_U32,                /* uint32_t (combatant ids) */
    RS_F_BOOL,               /* bool */
    RS_F_STR,                /* char[size], NUL-terminated */
};

/* One field of a ruleset's state struct, stored under its name. count > 1
 * makes it an array of that many elements (not for RS_F_STR). A document
 * saved before typed state kept the field in numbered int64 slots: legacy
 * is its first slot + 1 (0: none), and for RS_F_STR the text was copied
 * into consecutive slots in the host's (little-endian) byte order. */
struct rs_field {
    const char *name;
    enum rs_field_type type;
    size_t offset, size;     /* size: of one element */
    int count;
    int legacy;
};

#define RS_FIELD(st, f, t, leg) \
    {#f, t, offsetof(st, f), sizeof(((st *)0)->f), 1, leg}
#define RS_FIELD_ARR(st, f, t, n, leg) \
    {#f, t, offsetof(st, f), sizeof(((st *)0)->f[0]), n, leg}

struct rs_state_spec {
    size_t size;             /* 0: no state of this kind */
    const struct rs_field *fields;
    int nfields;
};

/* ---- calls and operations ------------------------------------------------- */

/* An option given to a command, as text (name:value). */
struct rs_opt {
    const char *name;
    const char *value;
};

/* What a command asks of the ruleset, with who is asking. */
struct rs_call {
    struct encounter *e;
    struct eng_rng *rng;
    struct enc_result *r;
    struct enc_diag *d;
    uint64_t user;           /* who sent the command */
    bool is_gm;              /* the sender may do everything */
    const struct rs_opt *opts; /* the options as given */
    int nopts;
    const struct rs_arg *args; /* the same, bound to their specs; NULL
                                  when not bound */
    int nargs;
    const void *data;        /* the group's data for this ruleset, parsed by
                                data_parse from its file; NULL: built in */
};

/* /attack, already resolved to combatants. */
struct rs_attack {
    struct enc_combatant *attacker;
    struct enc_combatant *target;
    const char *roll;        /* the attack roll expression, or NULL */
    const char *damage;      /* the damage expression, or NULL */
    const char *options;     /* the options: text, or NULL */
    const struct rs_arg *args; /* options: bound to attack_opts */
    int nargs;
};

struct rs_ops {
    int version;             /* RS_OPS_VERSION it was written for */

    /* Validate and complete a combatant just added (stats already set from
     * the command: defaults, tracks from stats, hp). Required. */
    enum eng_err (*setup)(struct rs_call *c, struct enc_combatant *who);

    /* Validate a change to stats (name, new value) before it is applied.
     * NULL: the declared bounds (rs_system.stats) are enough. */
    enum eng_err (*check_stat)(struct rs_call *c, struct enc_combatant *who,
                               const char *name, int64_t value);

    /* Check one setting at /combat start beyond its declared bounds.
     * NULL: the declaration is enough. */
    enum eng_err (*setting)(struct rs_call *c, const char *key,
                            const char *value);

    /* Roll or draw initiative and start round 1. The call's options are
     * /combat begin's. Required. */
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

    /* What the tracker shows for who besides name, tracks and conditions
     * (actions left, cards), appended to out in the reader's language: each
     * piece's format (N_-marked, its numbers as conversions) passes through
     * tr as enc_entry_place()'s does (enc_tr(); tr NULL: English). A count
     * is a format of its own per English form ("%d action", "%d actions"):
     * tr has no plural lookup (docs/internals/i18n.md). NULL: nothing. */
    void (*status)(const struct encounter *e, const struct enc_combatant *who,
                   struct eng_buf *out, enc_tr_fn tr, const void *tr_ctx);

    /* Parse the text of the ruleset's data file (rs_system.data_file) that
     * a group edits to rename or extend the ruleset's tables; the front end
     * reads the file and passes the result to every call as rs_call.data.
     * NULL: the ruleset has no data file. */
    enum eng_err (*data_parse)(const char *text, size_t len, void **out,
                               struct enc_diag *d);
    void (*data_free)(void *data);

    /* The conditions a group's data declares (tactical's table), in place
     * of rs_system.conds. NULL: the static list is all. */
    const struct rs_cond_spec *(*data_conds)(const void *data, int *n);

    /* A condition was given or its value changed (before: the old value,
     * or INT32_MIN when new): effects that take hold at once. NULL: none. */
    enum eng_err (*cond_changed)(struct rs_call *c, struct enc_combatant *who,
                                 struct enc_cond *q, int32_t before);

    /* Damage of amount is about to come off who's track (the GM's
     * /combat hp with a minus, or the ruleset's own attack): take off
     * first what something else soaks up (generic's temporary hit
     * points), with its events, and return what is left for the track.
     * NULL: nothing soaks. */
    int64_t (*soak)(struct rs_call *c, struct enc_combatant *who,
                    const char *track, int64_t amount);

    /* What the tracker shows above the list about the fight as a whole
     * (which side picks next), as plain text appended to out: the renderer
     * escapes it; in the reader's language through tr, as status. NULL:
     * nothing. */
    void (*tracker_head)(const struct encounter *e, struct eng_buf *out,
                         enc_tr_fn tr, const void *tr_ctx);

    /* ---- version 4 ---- */

    /* The turn clock ran out (/combat clock act: auto:true) on the
     * current wait: move the fight on as the system's rules allow, with a
     * sentence in the log saying what was done and why (rs_help.clock
     * says it to users). NULL: as next, the current turn is skipped. */
    enum eng_err (*timeout)(struct rs_call *c);
};

/* A choice a ruleset puts to a player (ENC_EV_PROMPT): each answer is one
 * of the ruleset's commands with one option set: opt:value, or, when opt is
 * NULL, name:<the prompted combatant>. Front ends show the answers as
 * buttons or as the commands to type. */
#define RS_PROMPT_CHOICES 5
struct rs_prompt_choice {
    const char *label;       /* "Fortify"; NULL ends the list */
    const char *command;     /* "test" (a command of the system) */
    const char *opt;         /* option the answer sets, or NULL for name */
    const char *value;
};
struct rs_prompt {
    struct rs_prompt_choice choice[RS_PROMPT_CHOICES];
};

/* An area attack: one attack that hits several combatants the attacker
 * names (tactical blast= and template=). The front ends offer its
 * targets as one multi-select: the first chosen is target:, the rest go
 * into the attack option more, as "a,b,c". A system whose area attacks
 * find their own victims (a factions blast hits a zone) declares none. */
struct rs_area {
    const char *more;          /* the attack option (RS_VAL_NAMES) that
                                  names everyone else in the area */
    const char *const *when;   /* attack options (NULL-ended) that make an
                                  attack an area one when given */
    int max_targets;           /* the target and the others, at most */
};

/* Where a system's turn structure lets an event of the order sit
 * (/combat event, enc_entry.h). Every event may go at the start or the
 * end of a round; counts adds at:<count>, a place among the combatants'
 * own counts or cards. */
struct rs_entry_spec {
    bool counts;             /* at:<count> places it in the order */
    bool low_first;          /* the order runs lowest count first (cards) */
    int64_t lo, hi;          /* at:'s counts */
    bool unique;             /* a count is held once (a card of one deck):
                                at: must be free, and a hazard without at:
                                draws a free one */
    const char *hazard_roll; /* what a hazard without at: rolls for its
                                count; NULL: it needs at: (or draws, when
                                unique) */
    int64_t lair_at;         /* a lair action's count without at:; 0: the
                                start of the round */
    const char *why;         /* where events go here and why: help, the
                                ruleset's page and refusals say it */
};

#define RS_F_SIDES_REQUIRED (1u << 0) /* every combatant needs a side */
#define RS_F_ALTERNATING    (1u << 1) /* sides take turns picking */
#define RS_F_OPEN_STATS     (1u << 2) /* stats beyond the declared ones are
                                         accepted (a free-form tracker) */

struct rs_system {
    int version;             /* RS_SYSTEM_VERSION */
    const char *id;          /* stable key stored with the encounter */
    const char *title;       /* shown to users */
    const char *summary;     /* one line for lists */
    unsigned flags;          /* RS_F_* */
    const struct rs_ops *ops;
    const struct rs_help *help;

    const struct rs_cmd *cmds;      /* its own commands */
    int ncmds;
    const struct rs_ext *exts;      /* options on core commands */
    const struct rs_opt_spec *attack_opts; /* /attack options: tokens;
                                              ends at name == NULL */
    const struct rs_cond_spec *conds;
    int nconds;
    const struct rs_setting_spec *settings; /* ends at key == NULL */
    const struct rs_stat_spec *stats;       /* ends at name == NULL */
    const struct rs_kept *kept;             /* ends at name == NULL */

    struct rs_state_spec enc_state;   /* on the encounter */
    struct rs_state_spec side_state;  /* on each side */
    struct rs_state_spec comb_state;  /* on each combatant */

    const struct rs_prompt *prompts;  /* indexed by ENC_EV_PROMPT's a */
    int nprompts;
    const char *data_file;   /* file name under the rules directory (see
                                data_parse), or NULL */
    int rank;                /* where lists show it, lowest first: the
                                generated registry is in this order
                                (cmake/rs_registry.cmake reads the
                                `.rank = N,` line of rs_<id>_decl.c) */
    const struct rs_area *area; /* its area attacks; NULL: none */
    const struct rs_harm_spec *harm; /* the tracks damage changes, in the
                                        order it reaches them (what soaks
                                        first comes first), at most
                                        ENC_MAX_HARM; NULL: "hp", down */
    const struct rs_lasting *lasts; /* what a saved character keeps beyond
                                       tracks and lasting conditions; NULL:
                                       nothing more */
    const struct rs_entry_spec *entries; /* where events of the order go;
                                            NULL: the start or end of a
                                            round only */
};

/* ---- the registry ---------------------------------------------------------- */

/* The ruleset with this id (ASCII case ignored); NULL if none. */
const struct rs_system *rs_find(const char *id);

/* The ruleset's place in rs_all(), or -1. */
int rs_index(const struct rs_system *s);

/* Every ruleset, in display order. */
const struct rs_system *const *rs_all(size_t *n);

/* The system's command verb (and sub, which may be NULL): "act", or
 * "effect" "trigger". NULL when it has none. */
const struct rs_cmd *rs_cmd_find(const struct rs_system *s, const char *verb,
                                 const char *sub);

/* The options s adds to core command ("combat add"), or NULL. */
const struct rs_opt_spec *rs_ext_opts(const struct rs_system *s,
                                      const char *command);

#endif
