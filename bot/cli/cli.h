/*
 * cli.h - the fray executable's subcommands.
 *
 * Each subcommand is a main-like function: it takes the arguments after its
 * own name (argv[0] is the subcommand name), prints to stdout/stderr, and
 * returns the process exit status. main.c only dispatches.
 */
#ifndef CLI_H
#define CLI_H

#include "i18n.h"

/* Exit statuses shared by every subcommand. */
enum cli_status {
    CLI_OK = 0,
    CLI_FAIL = 1,         /* the work failed (bad dice, I/O error...) */
    CLI_USAGE = 2,        /* bad command line */
};

int cli_roll(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_console(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_migrate(int argc, char **argv);
int cli_docs(int argc, char **argv);
int cli_check(int argc, char **argv);

struct sbuf;
/* The reference's index page (core commands, then the systems), as
 * `fray docs` writes it to README.md, in lang. */
void cli_docs_index(struct sbuf *b, enum i18n_lang lang);

#endif
