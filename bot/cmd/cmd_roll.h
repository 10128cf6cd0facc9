/*
 * cmd_roll.h - rolling and showing dice as /roll does (cmd_roll.c), for
 * /roll itself and the rolls made again from a posted one (cmd_reroll.c).
 * Internal to bot/cmd.
 *
 * Ownership: every argument is borrowed for the call; the result goes into
 * run->reply.
 */
#ifndef CMD_ROLL_H
#define CMD_ROLL_H

#include <stdbool.h>

#include "dice.h"

struct cmd_run;
struct cmd_macro_use;

/* How a roll made again is read and shown. */
struct cmd_roll_how {
    enum dice_dialect dialect;   /* the original's, not today's setting */
    const char *reroll_of;       /* the original's record id */
    const char *link;            /* a link to the original message, or
                                    NULL (the console) */
};

/* Roll src (plain dice; label: its name or NULL), show it as /roll does,
 * privately when secret, and remember it (cmd_rollrec.h). how NULL: a
 * new roll, read in the sender's dialect; else a reroll. */
void cmd_roll_dice(struct cmd_run *run, const char *src, const char *label,
                   bool secret, const struct cmd_macro_use *used,
                   const struct cmd_roll_how *how);

#endif
