/*
 * cmd_doc.h - the command reference, generated from the declarations.
 *
 * /help's pages and the files under docs/commands/ come from the same
 * functions, reading the core command table and each ruleset's declaration
 * (rs.h), so neither can drift from what the bot accepts. A test compares
 * the committed files with what `fray docs DIR` writes.
 *
 * Every function writes in lang (docs/internals/i18n.md): English is the
 * committed reference, `fray docs --lang L` writes the others; command and
 * option names stay the English ones, which work in every language, and a
 * translated page says once what the reader's Discord shows instead.
 *
 * Ownership: text is appended to the caller's sbuf.
 */
#ifndef CMD_DOC_H
#define CMD_DOC_H

#include <stdbool.h>

#include "cmd_table.h"
#include "i18n.h"
#include "rs.h"
#include "sbuf.h"

enum cmd_doc_style {
    CMD_DOC_HELP,            /* a /help page: short lines, no headings */
    CMD_DOC_FILE,            /* a Markdown page under docs/commands/ */
};

/* One command: "`/act action:... ` — help", then (files) its options. */
void cmd_doc_command(struct sbuf *b, const struct cmd_spec *spec,
                     enum cmd_doc_style style, enum i18n_lang lang);

/* A system's page: what kind of game it is, how turns and attacks go, its
 * commands, the options it adds to core commands, its /attack options, its
 * conditions and settings. */
void cmd_doc_system(struct sbuf *b, const struct rs_system *rs,
                    enum cmd_doc_style style, enum i18n_lang lang);

/* The core commands every fight uses. */
void cmd_doc_core(struct sbuf *b, enum cmd_doc_style style,
                  enum i18n_lang lang);

/* Every system in one list: id, title and kind of game. */
void cmd_doc_systems(struct sbuf *b, enum cmd_doc_style style,
                     enum i18n_lang lang);

#endif
