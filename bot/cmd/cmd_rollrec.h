/*
 * cmd_rollrec.h - what fray remembers of each roll it posted, so that the
 * message's context menus (Reroll, Explain, Apply damage) and the
 * console's /reroll, /explain and /apply know what was rolled.
 *
 * A record is one key/value row of the store, written in the roll's own
 * command (answered means on disk, restarts included):
 *
 *     roll:<channel>:<seq, 12 digits>:<at_ms>:<id>  ->  JSON of the record
 *
 * id is the interaction that posted the roll (Discord tells a context
 * menu which one through the message's interaction_metadata.id), or, on
 * the console, the record's number in its channel. seq numbers a
 * channel's rolls in the order they were made, so the keys of one channel
 * sort oldest first and "the last roll" is the last key. The record keeps
 * what does not depend on the seed any more: the expression and its
 * dialect, the label, who rolled, secrecy, every die and modifier as the
 * roll showed them, and the total.
 *
 * Bounds: CMD_ROLLREC_PER_CHANNEL records per channel and
 * CMD_ROLLREC_KEEP_MS of age. A record past either is gone for readers at
 * once (cmd_rollrec_get judges by the channel's newest); a row past the
 * count goes at the channel's next tidy, every CMD_ROLLREC_TIDY_EVERY
 * rolls (one range of keys: they sort by seq), a row past the age by the
 * daemon's prune pass (cmd_rollrec_prune). Writing a roll reads the
 * channel's last key from the index (its seq is the last number) and
 * writes one row: a /roll must cost little more than it did before it
 * was remembered (docs/internals/commands.md has the measurements).
 *
 * Ownership: records are the caller's (large: allocate them); strings are
 * copied in.
 */
#ifndef CMD_ROLLREC_H
#define CMD_ROLLREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "dice.h"
#include "eng_limits.h"

struct store;

#define CMD_ROLLREC_KV_PREFIX "roll:"
/* Rolls one channel keeps: enough to reach back through a session's
 * scrollback, few enough that a tidy or a lookup scans little. */
#define CMD_ROLLREC_PER_CHANNEL 100
/* A channel's rows are tidied (the oldest past the count dropped) once
 * in this many rolls, so a channel holds at most
 * CMD_ROLLREC_PER_CHANNEL + CMD_ROLLREC_TIDY_EVERY - 1 rows. */
#define CMD_ROLLREC_TIDY_EVERY 16
/* A channel's count ("seq:at"), which an older fray wrote beside the
 * records; the prune pass forgets those of channels idle past the age. */
#define CMD_ROLLREC_SEQ_PREFIX "rollseq:"
/* How long a roll can be rerolled, explained or applied: a week, a
 * session and the talk after it. */
#define CMD_ROLLREC_KEEP_MS (INT64_C(7) * 24 * 60 * 60 * 1000)
/* An id: a Discord snowflake (20 digits) or a console number. */
#define CMD_ROLLREC_ID_MAX 24
/* The dice as the roll showed them, every die and modifier (markdown). */
#define CMD_ROLLREC_TEXT_MAX 4096
/* Who rolled, as shown (Discord's names are 32 characters at most). */
#define CMD_ROLLREC_NAME_MAX 128

struct cmd_rollrec {
    char id[CMD_ROLLREC_ID_MAX + 1];
    uint64_t guild;                  /* 0: a DM or the console */
    uint64_t channel;
    uint64_t user;                   /* who rolled */
    char user_name[CMD_ROLLREC_NAME_MAX + 1];
    int64_t at_ms;                   /* when (wall clock) */
    int64_t seq;                     /* its place in the channel, from 1 */
    char expr[DICE_MAX_EXPR_LEN + 1]; /* the dice as rolled (a saved roll
                                        already expanded) */
    enum dice_dialect dialect;       /* how expr was read */
    char label[DICE_MAX_LABEL + 1];  /* "" when none */
    bool secret;                     /* only the roller (and the GM
                                        channel) saw it */
    unsigned rolls;                  /* how many times expr was rolled
                                        (a repeat: "6x 4d6"), from 1 */
    int64_t total;                   /* the total of a single roll */
    char text[CMD_ROLLREC_TEXT_MAX]; /* the dice, shown */
    char reroll_of[CMD_ROLLREC_ID_MAX + 1]; /* the roll this rerolled */
};

/* Whether s is a record id: 1 to CMD_ROLLREC_ID_MAX digits. */
bool cmd_rollrec_id_ok(const char *s);

/* The record as JSON (heap, the caller frees), or NULL on no memory. */
char *cmd_rollrec_encode(const struct cmd_rollrec *r);
/* A record from its JSON; false when it is not one (every field is
 * checked against the limits above). */
bool cmd_rollrec_decode(const char *json, struct cmd_rollrec *r);

/* Remember r (its seq and, when r->id is "", its id, are set here: the
 * channel's next number); every CMD_ROLLREC_TIDY_EVERY, drop the channel's
 * oldest past CMD_ROLLREC_PER_CHANNEL. In the caller's transaction, if
 * any. */
enum bot_err cmd_rollrec_put(struct store *s, struct cmd_rollrec *r);

/* The record of channel with this id, or with id NULL the channel's last;
 * BOT_NOTFOUND when there is none. */
enum bot_err cmd_rollrec_get(struct store *s, uint64_t channel,
                             const char *id, struct cmd_rollrec *out);

/* Drop records made before before_ms, at most max of them; how many went
 * into *pruned (may be NULL). The daemon's prune pass. */
enum bot_err cmd_rollrec_prune(struct store *s, int64_t before_ms,
                               size_t max, int64_t *pruned);

#endif
