/*
 * cmd_fx.h - the command layer over a real store, for the bot tests that
 * drive fights through cmd_exec() as the console does: open a store,
 * run commands as users, read the reply as plain text.
 *
 * Include after support.h. Ownership: cmd_fx_open() opens the store and
 * cmd_fx_close() closes it; the reply is reset by each run. Option names
 * and values are borrowed for the call.
 */
#ifndef TEST_CMD_FX_H
#define TEST_CMD_FX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "eng_rng.h"
#include "store.h"

/* Bytes of one reply kept as text, NUL included. */
#define CMD_FX_TEXT 16384

struct cmd_fx {
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    struct cmd_reply reply;      /* the last command's */
    char text[CMD_FX_TEXT];      /* the last reply as plain text */
};

/* Open the store at path (":memory:" for one in memory) and seed the RNG;
 * false when the store cannot be opened. */
bool cmd_fx_open(struct cmd_fx *f, const char *path, uint64_t seed);
void cmd_fx_close(struct cmd_fx *f);

/* Run "command sub" (sub may be NULL) in channel 1 as user, from the
 * console, with name/value option pairs ended by NULL; the reply's text
 * goes to f->text (printed too when TEST_VERBOSE is set). True when the
 * command was accepted, false when it was refused. */
bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...);
bool cmd_fx_vrun(struct cmd_fx *f, uint64_t user, const char *command,
                 const char *sub, va_list ap);

#endif
