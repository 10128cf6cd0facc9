/*
 * cmd_table.h - the one table of commands, for every front end.
 *
 * The console's parser, /help, docs and the Discord command definitions that
 * are registered at startup are all generated from this table, so there is
 * one source of truth for names, options, types and limits.
 *
 * Ownership: everything returned is static and read-only.
 */
#ifndef CMD_TABLE_H
#define CMD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cmd_opt_type {
    CMD_OPT_STRING = 3,          /* values are Discord's option types */
    CMD_OPT_INTEGER = 4,
    CMD_OPT_BOOLEAN = 5,
    CMD_OPT_CHANNEL = 7,
};

/* What a user may want completed while typing an option. */
enum cmd_complete {
    CMD_COMPLETE_NONE = 0,
    CMD_COMPLETE_COMBATANT,      /* any combatant of the channel */
    CMD_COMPLETE_OWN_COMBATANT,  /* only those the user may act for */
    CMD_COMPLETE_CONDITION,      /* the ruleset's conditions */
    CMD_COMPLETE_SYSTEM,         /* ruleset ids */
    CMD_COMPLETE_SIDE,           /* sides of the encounter */
    CMD_COMPLETE_HELP,           /* help topics */
};

struct cmd_opt_spec {
    const char *name;
    enum cmd_opt_type type;
    bool required;
    enum cmd_complete complete;
    int64_t min, max;            /* integers: bounds; strings: length */
    const char *help;            /* <= 100 chars (Discord's description) */
};

#define CMD_F_GM_ONLY   (1u << 0)  /* only the encounter's GM */
#define CMD_F_NEEDS_ENC (1u << 1)  /* needs an encounter in the channel */
#define CMD_F_MUTATES   (1u << 2)  /* changes state: transaction + version */
#define CMD_F_EPHEMERAL (1u << 3)  /* the reply is private by default */

struct cmd_run;

/* A command's implementation (cmd_run.h says what it gets). */
typedef void cmd_handler_fn(struct cmd_run *run);

#define CMD_MAX_SPEC_OPTS 25   /* Discord allows 25 options */

struct cmd_spec {
    const char *command;         /* "combat" */
    const char *sub;             /* "add", or NULL for a plain command */
    unsigned flags;              /* CMD_F_* */
    const char *help;            /* one line, <= 100 chars */
    const char *example;         /* one typical use, for /help and docs */
    cmd_handler_fn *handler;
    struct cmd_opt_spec opts[CMD_MAX_SPEC_OPTS]; /* ends at name == NULL */
};

/* The table, in display order. */
const struct cmd_spec *cmd_table(size_t *n);

/* The row for command (and sub, which may be NULL); NULL if unknown. */
const struct cmd_spec *cmd_table_find(const char *command, const char *sub);

/* The option spec named name in spec; NULL if unknown. */
const struct cmd_opt_spec *cmd_spec_opt(const struct cmd_spec *spec,
                                        const char *name);

#endif
