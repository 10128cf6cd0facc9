/*
 * rs_kit.h - the pieces every ruleset shares, so no helper exists twice.
 *
 *  - options: binding text to declared specs (rs_bind), one tokenizer for
 *    "key key=value key=\"two words\"" lists (rs_tokens), typed access;
 *  - who may act for whom;
 *  - sentences as data: RS_SAY(c, who, "{} dodges ({} against {})", ...)
 *    with typed, per-value secret arguments;
 *  - rolls recorded with every die (rs_roll) and tests/attacks as events
 *    with their comparison, modifiers and outcome;
 *  - conditions through the system's table (rs_cond_give: the one path the
 *    GM's /combat condition and a rule's effect both take);
 *  - settings read with their declared defaults;
 *  - typed state access (RS_STATE);
 *  - small shared rules: hp at 0 is down, group initiative, comma lists.
 *
 * Ownership: arguments are borrowed for the call. Text recorded in events
 * is copied into the call's result.
 */
#ifndef RS_KIT_H
#define RS_KIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "dice.h"
#include "enc.h"
#include "rs.h"

/* ---- options ------------------------------------------------------------- */

/* Most tokens in one options: or settings: text. */
#define RS_MAX_TOKENS 32
/* Longest options: or settings: text, in bytes. */
#define RS_MAX_TOKENS_TEXT 400

/* One "key" or "key=value" of an options text. The strings point into the
 * caller's buffer. */
struct rs_token {
    const char *key;
    const char *value;       /* "" for a bare key */
};

/* Split text into tokens: words separated by spaces or commas, each
 * "key", "key=value" or key="value with spaces" (or 'single quotes').
 * buf (of size n) receives the unquoted copies. Fails naming the limit or
 * the unclosed quote. */
enum eng_err rs_tokens(const char *text, char *buf, size_t n,
                       struct rs_token *out, int max, int *count,
                       struct enc_diag *d);

/* Bind options given as text to specs (ended by name == NULL): every given
 * option must be declared (else the error names the valid ones), given
 * once (COUNT may repeat), well typed and in bounds; combatants and sides
 * must exist (the sender sees "did you mean" only for names it may see);
 * OWN combatants must be ones the sender may act for. Required options
 * missing fail too. what names the command for messages ("/test", "attack
 * option"). out has room for max. */
enum eng_err rs_bind(const struct rs_call *c, const char *what,
                     const struct rs_opt_spec *specs,
                     const struct rs_opt *given, int ngiven,
                     struct rs_arg *out, int max, int *nout,
                     struct enc_diag *d);

/* The same for a tokens text (/attack options:, /combat start settings:). */
enum eng_err rs_bind_tokens(const struct rs_call *c, const char *what,
                            const struct rs_opt_spec *specs,
                            const char *text, char *buf, size_t n,
                            struct rs_arg *out, int max, int *nout,
                            struct enc_diag *d);

/* Run command cmd of system s for call c: bind c's options to the
 * command's specs (c->args for the call), refuse it before the fight has
 * begun when it says RS_CMD_RUNNING, run it, and end the turn after a
 * success when it says RS_CMD_ENDS_TURN. The GM-only rule is the caller's
 * to check, since only the caller knows who the GM is. */
enum eng_err rs_cmd_run(struct rs_call *c, const struct rs_system *s,
                        const struct rs_cmd *cmd);

/* rs_cmd_run() for the command named by verb ("act", "effect trigger");
 * ENG_NOTFOUND (d set) when s has no such command. */
enum eng_err rs_action(const struct rs_system *s, struct rs_call *c,
                       const char *verb);

/* The bound option named name, or NULL. */
const struct rs_arg *rs_arg(const struct rs_call *c, const char *name);
const struct rs_arg *rs_arg_in(const struct rs_arg *args, int n,
                               const char *name);
/* Typed reads of bound options; absent gives dflt. */
const char *rs_arg_text(const struct rs_call *c, const char *name,
                        const char *dflt);
int64_t rs_arg_int(const struct rs_call *c, const char *name, int64_t dflt);
bool rs_arg_bool(const struct rs_call *c, const char *name, bool dflt);
struct enc_combatant *rs_arg_who(const struct rs_call *c, const char *name);

/* The option named name as given (text), or NULL. */
const char *rs_opt(const struct rs_opt *opts, int nopts, const char *name);

/* What a name is looked up for. A player may aim an attack at a hidden
 * combatant (the attack is seen by all), but naming one for anything else
 * (to act for it, change it, anchor to it) must answer exactly as a name
 * nobody has: a refusal would confirm it is there. */
enum rs_who_as {
    RS_WHO_ACT,        /* to act for, change or refer to it: hides */
    RS_WHO_TARGET,     /* as an attack's target: finds a hidden one */
};

/* The one lookup of a combatant by a name the sender typed: NULL when
 * there is none, and for RS_WHO_ACT when it is hidden and the sender may
 * not act for it. */
struct enc_combatant *rs_who(const struct rs_call *c, const char *name,
                              enum rs_who_as as);
/* The answer for a name rs_who() did not find, the same for a hidden one
 * as for one nobody has: "[opt: ]no combatant named X (did you mean Y?)".
 * A player is not read the name back (it may be a hidden one's, typed
 * right): "no combatant by that name". */
enum eng_err rs_fail_nobody(const struct rs_call *c, const char *opt,
                            const char *name);

/* Before the sender adds a combatant named name: when a hidden one they
 * may not act for has that name, it yields it, taking "name 2" (or the
 * next free number), and the GM alone is told. A player's join then goes
 * through as it would for a free name, so it cannot confirm the hidden one
 * is there. ENG_OK when nothing had to move. */
enum eng_err rs_who_yield(struct rs_call *c, const char *name);

/* Find a combatant named by option opt (e.g. "name", "target") through
 * rs_who(); fails with rs_fail_nobody() or "opt: is required". */
enum eng_err rs_opt_combatant(struct rs_call *c, const char *opt,
                              enum rs_who_as as,
                              struct enc_combatant **out);
/* Boolean option (true/false/yes/no/on/off); absent gives dflt. */
enum eng_err rs_opt_bool(struct rs_call *c, const char *opt, bool dflt,
                         bool *out);

/* The closest of names (n of them) to word, for "did you mean"; NULL when
 * none is close. */
const char *rs_closest(const char *word, const char *const *names, int n);

/* ---- who may act ---------------------------------------------------------- */

/* Whether the sender may act for who: the GM, or the player who owns it. */
bool rs_may_act(const struct rs_call *c, const struct enc_combatant *who);
/* who's name as the sender may read it in a refusal: "someone unseen" (in
 * the refusal's language, c->d's translator) for
 * a hidden combatant the sender may not act for, whose name a player never
 * reads back, even one they typed. */
const char *rs_name_for(const struct rs_call *c,
                        const struct enc_combatant *who);
/* rs_may_act() or fail with a short message saying who may do it. */
enum eng_err rs_require_actor(struct rs_call *c,
                              const struct enc_combatant *who);

/* ---- sentences ------------------------------------------------------------- */

/* Longest template a sentence keeps for translation, in bytes. */
#define ENC_MAX_SAY_FMT 1024

/* Marks a word the ruleset picks at run time (hit ? N_("hit") : N_("miss"))
 * or declares in a table (NC_("condition", "Prone"))
 * for extraction into the catalogs (scripts/po-template); the text stays
 * English, and the renderer looks it up in the reader's language. The
 * same definition as bot/base/i18n.h's, which the engine cannot include. */
#ifndef N_
#define N_(s) s
#endif
#ifndef NC_
#define NC_(ctx, s) s
#endif

/* One argument of a sentence: build them with the RS_A_* macros. */
struct rs_say_arg {
    enum enc_part_kind kind;
    bool secret;
    uint32_t id;
    int64_t n;
    const char *s;
    const char *ctx;         /* a declared word's catalog context */
    const struct enc_tmpl *sub; /* s built from a template (rs_a_text) */
};

#define RS_A_WHO(c)                                                       \
    ((struct rs_say_arg){.kind = ENC_PART_WHO, .id = (c)->id,             \
                         .s = (c)->name})
#define RS_A_NUM(v) ((struct rs_say_arg){.kind = ENC_PART_NUM, .n = (v)})
/* A number only the GM may see when secret is true (a hidden NPC's). */
#define RS_A_SECRET(v, hide)                                              \
    ((struct rs_say_arg){.kind = ENC_PART_NUM, .secret = (hide),          \
                         .n = (v)})
#define RS_A_TEXT(str) ((struct rs_say_arg){.kind = ENC_PART_TEXT, .s = (str)})
#define RS_A_USER(str) ((struct rs_say_arg){.kind = ENC_PART_USER, .s = (str)})
#define RS_A_STRONG(str)                                                  \
    ((struct rs_say_arg){.kind = ENC_PART_STRONG, .s = (str)})
/* A word the ruleset declares in a table under a catalog context
 * (NC_("condition", "Prone")): looked up in that context. A name a group
 * renamed or a user typed is RS_A_USER, shown as given. */
#define RS_A_WORD(cx, str)                                                \
    ((struct rs_say_arg){.kind = ENC_PART_TEXT, .s = (str), .ctx = (cx)})
#define RS_A_ROLL(idx)                                                    \
    ((struct rs_say_arg){.kind = ENC_PART_ROLL, .n = (idx)})
#define RS_A_SIDE(e, i)                                                   \
    ((struct rs_say_arg){.kind = ENC_PART_SIDE, .n = (i),                 \
                         .s = (e)->sides[(i)].name})

/* Emit a sentence about who (may be NULL): fmt's "{}" take the arguments
 * in order; the rest of fmt is the ruleset's own words. fmt is also the
 * catalogs' message (scripts/po-template extracts RS_SAY's, rs_say0's and
 * rs_say_args's literal templates, and RS_A_TEXT's and RS_A_STRONG's
 * words): a translation may take the arguments in another order with
 * "{1}", "{2}"... (1-based). The event is for
 * the GM only when who is hidden (secret numbers inside are marked per
 * argument). Returns the event, for rolls and modifiers to be attached. */
struct enc_event *rs_say_args(struct rs_call *c,
                              const struct enc_combatant *who,
                              const char *fmt, const struct rs_say_arg *args,
                              int nargs);
#define RS_SAY(c, who, fmt, ...)                                             \
    rs_say_args((c), (who), (fmt), (const struct rs_say_arg[]){__VA_ARGS__}, \
                (int)(sizeof((const struct rs_say_arg[]){__VA_ARGS__}) /     \
                      sizeof(struct rs_say_arg)))
/* A sentence without arguments. */
struct enc_event *rs_say0(struct rs_call *c, const struct enc_combatant *who,
                          const char *text);

/* ---- rolls, tests, attacks ------------------------------------------------- */

/* What one roll gave: the total and, for d20 systems, the natural face of
 * the first kept d20 (0 when there is none). */
struct rs_rolled {
    int64_t total;
    int natural;
    int roll_idx;            /* index in the result's rolls, or -1 */
    int64_t successes;       /* counted successes when the roll counts */
    int64_t dice_sum;        /* sum of the non-counting dice terms alone */
};

/* Parse and roll expr for who (NULL: the GM's own roll), record it with
 * every die under label (secret when who is hidden). On a bad expression,
 * fails with d naming what ("bad damage dice `1d`: ..."). */
enum eng_err rs_roll(struct rs_call *c, const struct enc_combatant *who,
                     const char *label, const char *expr,
                     struct rs_rolled *out);

/* A test or attack as an event: kind ENC_EV_TEST or ENC_EV_ATTACK, who
 * (and other for attacks), label (what for), the rolls used, and the
 * comparison. Add modifiers with rs_mod(). The value is secret when who is
 * hidden, the target when other (or, for tests, who) is. */
struct enc_event *rs_test_event(struct rs_call *c, enum enc_ev kind,
                                const struct enc_combatant *who,
                                const struct enc_combatant *other,
                                const char *label, int64_t value,
                                int64_t target, const char *outcome);
/* Attach a roll to an event (idx from rs_rolled.roll_idx). */
void rs_ev_roll(struct rs_call *c, struct enc_event *ev, int idx);
/* Attach a modifier: reason, amount and unit ("", "dice"); without an
 * amount use rs_mod_note(). Returns it (NULL when the result is full),
 * for rs_mod_unit(). */
struct enc_mod *rs_mod(struct rs_call *c, struct enc_event *ev,
                       const char *reason, int64_t amount, const char *unit);
struct enc_mod *rs_mod_note(struct rs_call *c, struct enc_event *ev,
                            const char *reason);

/* A label, outcome or reason with numbers or names inside, as a
 * sentence is: a template whose "{}" take the arguments (RS_A_*), the
 * template being the catalogs' message (scripts/po-template extracts
 * RS_T's). English is the template filled, as the ruleset printed it
 * before; the renderer draws the template's translation in another
 * language. RS_T0 is one without arguments. */
struct rs_text {
    const char *fmt;
    const char *other;       /* RS_TN: the plural template; NULL none */
    int64_t count;
    const struct rs_say_arg *args;
    int nargs;
};
#define RS_T(fmt, ...) RS_TN((fmt), NULL, 1, __VA_ARGS__)
#define RS_T0(fmt) ((struct rs_text){(fmt), NULL, 1, NULL, 0})
/* A plural pair ("{} success", "{} successes"): English takes one when
 * n is 1, as it printed before; another language its own form for n. */
#define RS_TN(one, other, n, ...)                                         \
    ((struct rs_text){(one), (other), (n),                                \
                      (const struct rs_say_arg[]){__VA_ARGS__},           \
                      (int)(sizeof((const struct rs_say_arg[]){__VA_ARGS__}) / \
                            sizeof(struct rs_say_arg))})
/* A declared word alone as a text (a modifier whose reason is a
 * condition's name): looked up in ctx, not as a template. */
#define RS_T_WORD(ctx, str)                                               \
    ((struct rs_text){"{}", NULL, 1,                                      \
                      (const struct rs_say_arg[]){RS_A_WORD(ctx, str)}, 1})
/* An argument that is itself a template ("resists {}" inside "{} with
 * {}({})"), made in c's result. */
struct rs_say_arg rs_a_text(struct rs_call *c, struct rs_text t);
/* ev's label (a test's "what for") and outcome from templates. */
void rs_ev_label(struct rs_call *c, struct enc_event *ev, struct rs_text t);
void rs_ev_outcome(struct rs_call *c, struct enc_event *ev,
                   struct rs_text t);
/* A modifier whose reason is a template; has_amount false: a note. */
struct enc_mod *rs_mod_t(struct rs_call *c, struct enc_event *ev,
                         struct rs_text reason, bool has_amount,
                         int64_t amount, const char *unit, bool secret);

/* A modifier's unit as a plural pair of templates, the amount in its
 * hole ("{} die", "{} dice"): English shows the amount and the unit
 * given to rs_mod() as before ("+1 dice"), another language the form of
 * the pair for the amount. RS_UNIT's two are one catalog message
 * (scripts/po-template); rs_dice and rs_successes are the kit's. */
struct rs_unit {
    const char *one, *other;
};
#define RS_UNIT(one, other) {(one), (other)} /* an initializer */
extern const struct rs_unit rs_dice, rs_successes;
/* Give m (may be NULL) u's forms; returns m. */
struct enc_mod *rs_mod_unit(struct enc_mod *m, struct rs_unit u);
/* Mark roll idx as rolled but not kept (advantage's other dice). */
void rs_roll_drop(struct rs_call *c, int idx);

/* Roll expr as who's one initiative value (init[0]) and report it: an
 * ENC_EV_INIT event with the roll, secret when who is hidden. */
enum eng_err rs_roll_initiative(struct rs_call *c, struct enc_combatant *who,
                                const char *expr);

/* ---- conditions ------------------------------------------------------------ */

/* The spec of the condition called name in the call's system (its data
 * file's table when it has one), or NULL. */
const struct rs_cond_spec *rs_cond_spec(const struct rs_call *c,
                                        const struct rs_system *s,
                                        const char *name);
/* Every condition the system declares (data file first), for lists. */
const struct rs_cond_spec *rs_cond_specs(const struct rs_system *s,
                                         const void *data, int *n);

/* What giving a condition asks for. value 0 means "one dose": the spec's
 * start value for a new condition, one more stack for one that stacks. */
struct rs_cond_give {
    const char *name;
    int32_t value;
    bool value_given;        /* value is a number the GM typed */
    int32_t rounds;          /* -1: the spec's default */
    uint32_t anchor;         /* 0: the holder */
    enum enc_expire expire;
    bool expire_given;
    uint32_t source;
    int32_t cap;             /* 0: the spec's (a custom condition: none) */
};

/* Give who a condition through the system's table: the declared name's
 * spelling, start value, stacking, cap and default duration, then the
 * system's cond_changed hook. A name the system does not declare is a
 * custom condition (no rules) unless it is close to a declared one: then
 * it fails with "did you mean", unless custom is true. */
enum eng_err rs_cond_give(struct rs_call *c, const struct rs_system *s,
                          struct enc_combatant *who,
                          const struct rs_cond_give *q, bool custom);

/* ---- stats ---------------------------------------------------------------------- */

/* Check a stat before it is set on who: a name the system declares (or
 * any, for a system with RS_F_OPEN_STATS), within its declared bounds,
 * then the system's own check_stat. Fails naming the valid stats. */
enum eng_err rs_stat_check(struct rs_call *c, const struct rs_system *s,
                           struct enc_combatant *who, const char *name,
                           int64_t value);
/* What s declares name to be (RS_STAT for a name it does not declare). */
enum rs_stat_kind rs_stat_kind(const struct rs_system *s, const char *name);
/* Turn every stat of who that s declares RS_POOL into its track (no
 * maximum; a value of 0 removes it). */
enum eng_err rs_stat_pools(const struct rs_system *s,
                           struct enc_combatant *who, struct enc_diag *d);

/* ---- settings ---------------------------------------------------------------- */

/* Check and store "key=value ..." settings for system s on c->e: every key
 * declared, every value within its bounds, then the system's own check. */
enum eng_err rs_settings_apply(struct rs_call *c, const struct rs_system *s,
                               const char *text);
/* A setting as an integer (booleans 0/1, choices their index): the stored
 * value, else the declared default. */
int64_t rs_setting_int(const struct encounter *e, const struct rs_system *s,
                       const char *key);
/* A setting as its text (a dice setting's expression): the stored value,
 * else the declared default; NULL when neither exists. */
const char *rs_setting_text(const struct encounter *e,
                            const struct rs_system *s, const char *key);

/* ---- typed state ------------------------------------------------------------- */

/* A combatant's, side's or the encounter's state struct of the ruleset. */
#define RS_STATE(type, holder) ((type *)(holder)->st)

/* ---- small shared rules ----------------------------------------------------- */

/* hp at or below 0 marks the combatant down (its turns are skipped), above
 * 0 brings it back. */
void rs_default_after_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t before);
/* The first combatant before who in display order sharing its group, or
 * NULL: group members share one initiative draw. */
const struct enc_combatant *rs_group_lead(const struct encounter *e,
                                          const struct enc_combatant *who);
/* Next comma-separated item of *p into buf (trimmed); false at the end.
 * Fails (returns false, *err set) when an item is longer than n - 1. */
bool rs_list_next(const char **p, char *buf, size_t n, bool *too_long);
/* An integer setting-like word: "3", "+2", "-1". */
bool rs_int_word(const char *s, int64_t *out);
/* who's initiative number: init: given at /combat add as a whole number,
 * else its init stat, else 0 (a modifier, a rank). */
int64_t rs_init_number(const struct enc_combatant *who);

/* ---- the turn clock (kit_clock.c) ------------------------------------------ */

/* The turn clock ran out on the running turn (rs_ops.timeout): say so in
 * the log, fmt holding one {} for the combatant (shown unseen to players
 * when hidden), and end the turn with the system's own next. ENG_STATE
 * when no turn is running. */
enum eng_err rs_clock_end_turn(struct rs_call *c, const char *fmt);

/* ---- rolled initiative (kit_init.c) -------------------------------------- */

/* Roll who's initiative: 1d20 + its init stat, or its init_expr (dice, a
 * modifier, or "=N" taken as is), as who (secret when hidden); draws the
 * tie-breaker kept for the fight. */
enum eng_err rs_d20_roll(struct rs_call *c, struct enc_combatant *who);
/* rs_d20_roll() for everyone; a group shares its first member's roll. */
enum eng_err rs_d20_roll_all(struct rs_call *c);
/* The order (turn.h turn_order_build): highest first, then the higher
 * modifier, the kept roll-off, the order of arrival. */
int rs_d20_cmp(const struct encounter *e, const struct enc_slot *a,
               const struct enc_slot *b);
/* A combatant joining a running fight rolls and takes its place; the
 * current turn stays where it is. */
enum eng_err rs_d20_late_join(struct rs_call *c, struct enc_combatant *who);

/* ---- stats that become tracks (kit_track.c) ------------------------------ */

/* The stat named stat, when who has it, becomes the full track named track
 * (current = maximum = its value) and the stat is dropped. A negative value
 * is refused. */
enum eng_err rs_stat_to_track(struct rs_call *c, struct enc_combatant *who,
                              const char *stat, const char *track);

#endif
