/*
 * cmd_macro.h - saved rolls (macros) in the command layer: what /roll and
 * autocomplete use of them. The /macro handlers themselves are listed
 * with the others in cmd_run.h.
 *
 * A saved roll is used as "@name" at the start of /roll's dice, followed
 * by nothing or by what a player adds to a roll: "+2", "-1", "+1d4",
 * "adv", "dis", a "# label" or plain words naming it. The macro's own
 * dice come first, so "@stealth+2" with stealth "1d20+7 # Stealth" rolls
 * "1d20+7+2 # Stealth". Anything that would bind tighter than the
 * macro's last term ("*2", "/2", a comparison) or a second "@" is refused
 * with a message saying what may follow. The sender's own macro wins
 * over the server's of the same name; in a DM only their own exist.
 *
 * Ownership: everything is borrowed for the call; results are written to
 * caller-provided structs.
 */
#ifndef CMD_MACRO_H
#define CMD_MACRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eng_limits.h"
#include "i18n.h"
#include "store.h"

struct cmd_run;
struct cmd_ctx;
struct cmd_req;

/* Quotas unless the config says otherwise ([macros] in fray.conf): saved
 * rolls one server keeps for everyone, and one user keeps for themself
 * (across every server: a user's own are not tied to one). */
#define CMD_MACRO_MAX_PER_SERVER 500
#define CMD_MACRO_MAX_PER_USER 100
/* Saved rolls /macro list shows of each scope, and autocomplete offers. */
#define CMD_MACRO_LIST_MAX 1000
/* A name as typed: the name and a leading '@'. */
#define CMD_MACRO_NAME_OPT (STORE_MACRO_NAME_MAX + 1)

/* The rules of a saved roll as a user gives one, for /macro save and any
 * other way in (an import): name as typed ("@Stealth" is "stealth"; the
 * name rule, not everyone or here), dice that the dice language accepts
 * with no '@' in them ("8d6 Fireball" is kept as "8d6 # Fireball"). Fills
 * m->name and m->dice; false with a one-line reason for the user in why
 * (a dice error with its caret line, styled for Discord when discord), in
 * lang. */
bool cmd_macro_check(const char *name, const char *dice, bool discord,
                     enum i18n_lang lang, struct store_macro *m, char *why,
                     size_t whylen);

/* How many saved rolls one user's own scope (server false) or one
 * server's (server true) may hold: the config's [macros], else the
 * CMD_MACRO_MAX_* defaults. Every way of adding saved rolls counts against
 * it. */
int64_t cmd_macro_quota(const struct cmd_ctx *ctx, bool server);

/* A saved roll put to use by /roll. */
struct cmd_macro_use {
    struct store_macro m;        /* the macro as saved */
    bool server;                 /* the server's (the sender has none of
                                    that name) */
    char dice[DICE_MAX_EXPR_LEN + 1]; /* what to roll: its dice, what the
                                    sender added, and a label */
};

enum cmd_macro_got {
    CMD_MACRO_NONE,              /* src names no saved roll: plain dice */
    CMD_MACRO_USED,              /* *use is filled */
    CMD_MACRO_REFUSED,           /* cmd_fail() said why */
};

/* If src starts with "@name", find the saved roll and compose what to
 * roll into use->dice. With drop_label, the macro's own "# label" is left
 * out (the sender gave label:). */
enum cmd_macro_got cmd_macro_expand(struct cmd_run *run, const char *src,
                                    bool drop_label,
                                    struct cmd_macro_use *use);

/* Autocomplete candidates: the sender's saved rolls, then the server's,
 * whose names start with prefix (lower case, may be empty), each to fn
 * with a label ("@stealth: 1d20+7 # Stealth (yours)") and a value
 * (with_at: "@stealth", else "stealth"). only_deletable: the server's
 * only when the sender may manage them. */
typedef void cmd_macro_cand_fn(void *arg, const char *label,
                               const char *value);
void cmd_macro_complete(struct cmd_ctx *ctx, const struct cmd_req *req,
                        const char *prefix, bool with_at,
                        bool only_deletable, cmd_macro_cand_fn *fn,
                        void *arg);

#endif
