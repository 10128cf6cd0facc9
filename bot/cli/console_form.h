/*
 * console_form.h - the console's text form of a form (form.h): one prompt
 * per field, a select as numbered choices, a checkbox as y/n, a file as a
 * path; the answers become the options of the same command, run again
 * through cmd_exec() as a submitted form (cmd_form.h).
 *
 * Only where a person answers: the console asks when console.ask is set
 * (interactive mode sets it to its line reader); a script (stdin not a
 * terminal) has no ask and a command without its options is refused as
 * typed, so transcripts do not change.
 *
 * Ownership: answers from ask are the caller's heap strings, freed here.
 */
#ifndef CONSOLE_FORM_H
#define CONSOLE_FORM_H

#include <stdio.h>

#include "cmd.h"
#include "form.h"

/* Ask one question: the answer line (heap, no newline), or NULL at the
 * end of input (the form is then given up). */
typedef char *console_ask_fn(void *ud, const char *prompt);

/* Fill f field by field through ask, printing its title and the choices
 * of selects to out, then run req (the command that opened it, options
 * added) as the submitted form into *reply (cmd_reply_init'ed by
 * cmd_exec). Returns false when the form was given up (nothing ran, *reply
 * untouched) or on no memory (*given_up false). */
bool console_form_run(struct cmd_ctx *ctx, const struct form *f,
                      const struct cmd_req *req, console_ask_fn *ask,
                      void *ud, FILE *out, struct cmd_reply *reply,
                      bool *given_up);

#endif
