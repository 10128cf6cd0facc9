/*
 * custom_id_req.h - what a click on one of our controls asks for: a parsed
 * custom_id (custom_id.h) and, for a select, the chosen value, as the
 * struct cmd_req the typed command would be. Discord's decoder
 * (discord/interaction.c) and the console's pickers both use it, so a
 * choice runs exactly as typed, through cmd_exec().
 *
 * Ownership: the strings put in req are borrowed from cid and value.
 */
#ifndef CUSTOM_ID_REQ_H
#define CUSTOM_ID_REQ_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd.h"
#include "custom_id.h"

/* Append option name=value to req (both borrowed). False with why set
 * when req has CMD_MAX_OPTS already or value is longer than
 * CMD_MAX_OPT_VALUE. */
bool cmd_req_add_opt(struct cmd_req *req, const char *name,
                     const char *value, char *why, size_t whylen);

/* Fill req's command, sub, the fight and version checks (a picker's id:
 * req.picker, its fight, any version) and the options the id sets: a
 * button's "name=value", a select's chosen value (NULL: none chosen) into
 * its option, a picker's preset too. A button with a picker's id sets
 * only the presets: the command then answers with its picker (the turn
 * notice's Attack button). Appends to req.opts. False with why
 * set when the options do not fit (CMD_MAX_OPTS, CMD_MAX_OPT_VALUE) or a
 * picker's answer has no value. */
bool custom_id_req(const struct custom_id *cid, bool is_select,
                   const char *value, struct cmd_req *req, char *why,
                   size_t whylen);

/* A select's answer of n values (Discord sends them in the order of the
 * menu's options): custom_id_req() with the first, and the rest, for a
 * picker's select (a multi-select picker), into req.picked (borrowed).
 * False with why set as custom_id_req(), or when several values answer a
 * select that is not a picker's (any version), or more than CMD_MAX_PICKED follow the
 * first. */
bool custom_id_req_values(const struct custom_id *cid,
                          const char *const *values, int n,
                          struct cmd_req *req, char *why, size_t whylen);

#endif
