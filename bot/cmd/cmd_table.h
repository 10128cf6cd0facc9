/*
 * cmd_table.h - every command fray understands, for every front end.
 *
 * Two sources make the one list: the core table here (/roll, /combat ...,
 * /attack, /config, /macro, /help), and each ruleset's own commands, which
 * the ruleset declares in its folder (engine rs.h struct rs_cmd). A struct
 * cmd_spec is a view of either: the console's parser, the validator, /help,
 * autocomplete, the generated docs and the Discord command definitions all
 * read views, so there is one source of truth for names, options, types
 * and limits.
 *
 * Options are the engine's struct rs_opt_spec (rs.h), one vocabulary for
 * core and ruleset commands alike. A ruleset may add options to a core
 * command (struct rs_ext: resolve's major: on /combat add); those are part
 * of the core command everywhere it is registered, and accepted only in
 * that system's fights.
 *
 * Ownership: views point at static tables; nothing here allocates.
 */
#ifndef CMD_TABLE_H
#define CMD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rs.h"

#define CMD_F_GM_ONLY   (1u << 0)  /* only the encounter's GM */
#define CMD_F_NEEDS_ENC (1u << 1)  /* needs an encounter in the channel */
#define CMD_F_MUTATES   (1u << 2)  /* changes state: transaction + version */
#define CMD_F_EPHEMERAL (1u << 3)  /* the reply is private by default */
#define CMD_F_SERVER    (1u << 4)  /* a server-wide setting */
#define CMD_F_NOT_ACTING (1u << 5) /* running it is not acting on one's
                                      turn: the turn clock's reminder goes
                                      on (/combat clock) */

/* Where a command may be used (Discord's interaction contexts). */
#define CMD_CTX_GUILD   (1u << 0)
#define CMD_CTX_DM      (1u << 1)  /* a DM with the bot, a private channel */
/* Also where a user installed fray for themselves and the bot is not a
 * member (Discord's USER_INSTALL; interaction.c sets req.user_install):
 * the command answers only through the interaction, never in a channel,
 * and draws no button that needs the bot in the server. Registration
 * declares integration_types [0, 1] for it. */
#define CMD_CTX_USER    (1u << 2)
/* What a user install says of any other command. */
#define CMD_USER_INSTALL_REFUSAL                                             \
    N_("fray is installed here only by you, not in this server: here you "  \
    "can roll dice (/roll, and a roll's Reroll and Explain), use your "    \
    "saved rolls (/macro), read your "                                      \
    "characters (/character show, /character list) and the help; fights "  \
    "need fray added to the server")


struct cmd_run;

/* A core command's implementation (cmd_run.h says what it gets). */
typedef void cmd_handler_fn(struct cmd_run *run);

/* Commands, core and of every ruleset, that a view list can hold. */
#define CMD_MAX_ALL 128
/* Options a merged command may have: Discord's cap. */
#define CMD_MAX_SPEC_OPTS RS_MAX_OPTS

struct cmd_spec {
    const char *command;         /* "combat", "test", "effect" */
    const char *sub;             /* "add", or NULL for a plain command */
    unsigned flags;              /* CMD_F_* */
    unsigned contexts;           /* CMD_CTX_* */
    const char *help;            /* one line, <= 100 chars */
    const char *example;         /* one typical use, for /help and docs */
    cmd_handler_fn *handler;     /* how it runs */
    const struct rs_opt_spec *opts; /* its own options; ends at name NULL */
    const struct rs_system *rs;  /* a ruleset's command: its system */
    const struct rs_cmd *rcmd;   /* ... and its declaration */
};

/* Message context menus (Discord's MESSAGE commands) on a roll fray
 * posted; each is a core command the console types (cmd_reroll.c). */
#define CMD_MENU_REROLL "Reroll"
#define CMD_MENU_EXPLAIN "Explain"
#define CMD_MENU_APPLY "Apply damage"
#define CMD_MENU_COUNT 3
/* The menu label of command, or NULL when Discord shows it as a slash
 * command; and back: the command of a menu label, or NULL. */
const char *cmd_menu_label(const char *command);
const char *cmd_menu_command(const char *label);

/* The core commands, in display order. */
const struct cmd_spec *cmd_table(size_t *n);

/* Views of every command: the core ones, then each linked ruleset's, in
 * registry order (a verb several systems share appears once per system).
 * Returns how many were written to out (at most max). */
size_t cmd_list(struct cmd_spec *out, size_t max);

/* The command (command, sub may be NULL). With rs given, a ruleset verb is
 * that system's; without, the first system's that has it. Returns false
 * when nothing is called so. */
bool cmd_lookup(const char *command, const char *sub,
                const struct rs_system *rs, struct cmd_spec *out);

/* Whether any command, core or ruleset, is called command. */
bool cmd_exists(const char *command);
/* Whether command has subcommands. */
bool cmd_has_subs(const char *command);

/* The option spec named name in spec's own options, or in what any system
 * adds to this core command (the first system's declaration); NULL if
 * unknown. For a ruleset verb shared by several systems, the first
 * system's option of that name. */
const struct rs_opt_spec *cmd_spec_opt(const struct cmd_spec *spec,
                                       const char *name);

/* The system whose extension declares option name on core command spec
 * ("major" on /combat add: resolve), or NULL when the option is the
 * command's own. */
const struct rs_system *cmd_ext_owner(const struct cmd_spec *spec,
                                      const char *name);

/* "/combat add" or "/test" into buf. */
const char *cmd_spec_name(const struct cmd_spec *spec, char *buf, size_t n);

/* "combat add" or "test" into buf (n >= 1, always terminated, cut when it
 * does not fit): the key of a core command in rs_ext_opts(). Every
 * command validates through it, so it copies rather than formats. */
void cmd_core_key(const struct cmd_spec *spec, char *buf, size_t n);

/* Merge option lists by name (first declaration wins, types must agree):
 * the options one registered command shows when several systems share it.
 * Returns how many went to out (at most max); *conflict is set when two
 * declarations of one name disagree on type. */
size_t cmd_merge_opts(const struct rs_opt_spec *const *lists, size_t nlists,
                      struct rs_opt_spec *out, size_t max, bool *conflict);

/* The core command's options merged with what every system adds to it. */
size_t cmd_core_opts(const struct cmd_spec *spec, struct rs_opt_spec *out,
                     size_t max, bool *conflict);

#endif
