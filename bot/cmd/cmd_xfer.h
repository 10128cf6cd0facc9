/*
 * cmd_xfer.h - the export and import commands (internal to bot/cmd): what
 * every kind shares - where the file comes from and where an export goes
 * - and the handlers of each kind. The format is xfer.h's.
 *
 * Ownership: the handlers borrow the run; cmd_xfer_file() hands the caller
 * a malloc'd copy of the file.
 */
#ifndef CMD_XFER_H
#define CMD_XFER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "cmd_run.h"
#include "xfer.h"

/* The file to import: the attachment the daemon downloaded (req.file) or,
 * in the console, the file at the path in option file. False after
 * cmd_fail() when there is none or it cannot be read. */
bool cmd_xfer_file(struct cmd_run *run, char **out, size_t *len);

/* Answer an export of n things of kind what (in the reader's language):
 * in the console with
 * file:, write the file there; otherwise show the file's text in a code
 * block, refused when it is longer than one Discord message shows. False
 * after cmd_fail(). doc is borrowed. */
bool cmd_xfer_answer(struct cmd_run *run, const json_t *doc, size_t n,
                     enum xfer_kind what);

/* Save item i (0..n) of an import (a store write). */
typedef enum bot_err cmd_xfer_put_fn(void *ctx, size_t i);

/* Save n checked items in one transaction and answer "Imported n what";
 * on any failure roll everything back and cmd_fail() (false). */
bool cmd_xfer_save(struct cmd_run *run, size_t n, cmd_xfer_put_fn *put,
                   void *ctx, enum xfer_kind what, bool replace);

cmd_handler_fn cmd_macro_export;
cmd_handler_fn cmd_macro_import;
/* cmd_xfer_sheet.c */
cmd_handler_fn cmd_character_export;
cmd_handler_fn cmd_character_import;
cmd_handler_fn cmd_npc_export;
cmd_handler_fn cmd_npc_import;

#endif
