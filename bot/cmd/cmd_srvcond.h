/*
 * cmd_srvcond.h - a server's own conditions: saved once by its managers
 * with /config condition: (a description and a default duration), read by
 * anyone with /help topic:conditions, offered in
 * /combat condition's autocomplete and picker, given in a fight as a
 * free-form condition, exported and imported as a file of kind
 * "conditions".
 *
 * Stored as sheets of kind STORE_SHEET_COND (store.h; owner 0, system
 * "all"), so the names are unique per server with case ignored, and
 * `fray migrate` carries them with the rest. Their document is
 * {"description": text, "rounds": n}.
 *
 * One validator, cmd_srvcond_check(), serves /config condition: and
 * /config file: (an import) alike. Ownership: struct srvcond is plain data.
 */
#ifndef CMD_SRVCOND_H
#define CMD_SRVCOND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd_run.h"
#include "sbuf.h"
#include "eng_limits.h"

/* Conditions one server keeps: more than any table names, few enough
 * that the picker and a listing stay short pages. */
#define SRVCOND_MAX_PER_SERVER 100
/* A name is a condition's name in a fight. */
#define SRVCOND_NAME_MAX ENC_MAX_COND_NAME
/* One line or two of what it does, as a system's condition help is. */
#define SRVCOND_DESC_MAX 200
/* The sheet system a server condition is kept under: it belongs to none. */
#define SRVCOND_SYSTEM "all"

struct srvcond {
    char name[SRVCOND_NAME_MAX + 1];
    char desc[SRVCOND_DESC_MAX + 1];
    int32_t rounds;              /* default duration; 0: until removed */
};

/* Whether c may be saved: a name of 1..SRVCOND_NAME_MAX bytes that no
 * system declares (a system's own condition is never shadowed), a
 * description of 0..SRVCOND_DESC_MAX bytes, both through the text policy,
 * rounds 0..ENC_MAX_ROUNDS. False with why (for the user, in lang)
 * otherwise. */
bool cmd_srvcond_check(const struct cmd_ctx *ctx, const struct srvcond *c,
                       enum i18n_lang lang, char *why, size_t whylen);

/* The server condition called name (case ignored) of guild into *out:
 * false when there is none or the store cannot say. */
bool cmd_srvcond_find(struct store *store, uint64_t guild, const char *name,
                      struct srvcond *out);

/* Each server condition of guild whose name starts with prefix, in name
 * order, at most max, to fn (name borrowed for the call). */
typedef void cmd_srvcond_fn(void *ctx, const char *name);
void cmd_srvcond_each(struct store *store, uint64_t guild, const char *prefix,
                      size_t max, cmd_srvcond_fn *fn, void *ctx);

/* /config with one of this module's options (condition:,
 * delete-condition:, export-conditions:, file:): done, answered or
 * refused, and true; false when none was given (the rest of /config). */
bool cmd_srvcond_config(struct cmd_run *run);

/* /help topic:conditions: the server's conditions (guild's; 0: none, in a
 * DM) with their descriptions and durations, into b. */
void cmd_srvcond_help(struct cmd_ctx *ctx, uint64_t guild, struct sbuf *b);

#endif
