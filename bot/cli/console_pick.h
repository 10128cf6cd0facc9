/*
 * console_pick.h - the console's text form of a picker (issue 31): a
 * picker's choices are printed numbered, and a line that is only a number
 * answers the last picker shown to the same user. The answer becomes the
 * request a click on Discord would (custom_id_req.h) and runs through
 * cmd_exec(), so a choice is checked exactly as the typed command.
 *
 * Ownership: a console_picker copies what it keeps; no heap.
 */
#ifndef CONSOLE_PICK_H
#define CONSOLE_PICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd.h"
#include "custom_id.h"
#include "msg.h"

/* Bytes of one choice's value: Discord's 100 characters of a select
 * option's value, in UTF-8. */
#define CONSOLE_PICK_VALUE_MAX 400
/* Digits a number answering a picker may have (choices are <= 25). */
#define CONSOLE_PICK_DIGITS 4

struct console_picker {
    struct custom_id cid;            /* the picker's id, parsed */
    char values[MSG_MAX_SELECT][CONSOLE_PICK_VALUE_MAX + 1];
    int n;                           /* 0: no picker open */
    int most;                        /* choices one answer may give: 1, or
                                        more for a multi-select */
    int user;                        /* the console user it was shown to */
};

/* When m carries a picker (a select whose id is a picker's), keep its
 * choices for user in p and return true; otherwise leave p alone. */
bool console_pick_keep(struct console_picker *p, const struct msg *m,
                       int user);

/* Print p's choices numbered from 1, and how to answer (in lang). */
void console_pick_print(const struct console_picker *p, FILE *out,
                        enum i18n_lang lang);

/* The number line[0, len) holds (surrounding blanks allowed), or -1 when
 * it is not a bare number of at most CONSOLE_PICK_DIGITS digits. */
int console_pick_number(const char *line, size_t len);

/* The numbers line[0, len) holds, separated by blanks ("1 3 4"), into
 * ks (room for max); how many, or -1 when the line is anything else (or
 * holds more than max). A multi-select's answer; one number is
 * console_pick_number()'s. */
int console_pick_numbers(const char *line, size_t len, int *ks, int max);

/* The request the choices ks[0..n) (1-based) of p make: fills req's
 * command, options and checks (custom_id_req_values: the first fills the
 * picker's option, the others req.picked). False with why set when a
 * number is out of range, repeated, or there are more than p->most (why
 * in lang). req's strings are borrowed from p. */
bool console_pick_req(const struct console_picker *p, const int *ks, int n,
                      enum i18n_lang lang, struct cmd_req *req, char *why,
                      size_t whylen);

#endif
