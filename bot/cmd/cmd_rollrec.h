/*
 * cmd_rollrec.h - what fray remembers of each roll it posted, so that the
 * message's context menus (Reroll, Explain, Apply damage) and the
 * console's /reroll, /explain and /apply know what was rolled.
 *
 * On Discord a record is a row of the store's roll table
 * (store_rollrec_put), keyed by the interaction that posted the roll (a
 * context menu learns which one through the message's
 * interaction_metadata.id), the channel beside it:
 *
 *     roll_rec: id (the snowflake, the table's key) | channel | JSON
 *
 * Snowflakes are time-ordered, so the rolls of a commit, whatever their
 * channels, append to the table's last page; the daemon writes them in
 * batches (cmd_rollq.h), so a /roll costs about what it did before it
 * was remembered (docs/internals/commands.md has the measurements). A record is found by its id from its own channel
 * only. Bounds: CMD_ROLLREC_KEEP_MS of age, read from the id itself, and
 * CMD_ROLLREC_MAX_ROWS rows in all, both dropped as ranges of the lowest
 * ids, once in about CMD_ROLLREC_TIDY_EVERY rolls and by the daemon's
 * prune pass (cmd_rollrec_prune). There is no per-channel bound on
 * Discord: it would need an index by channel, whose pages are what the
 * table saves; a user's rolls are rate-limited already, and an evicted
 * record only makes an old roll "no longer remembered".
 *
 * The console has no interaction ids: its records are numbered per
 * channel and kept as key/value rows,
 *
 *     roll:<channel>:<seq, 12 digits>:<at_ms>:<id>  ->  JSON of the record
 *
 * so that the keys of one channel sort oldest first and "the channel's
 * last roll" is its last key; CMD_ROLLREC_PER_CHANNEL of them per channel
 * (tidied every CMD_ROLLREC_TIDY_EVERY rolls as one range of keys), aged
 * by the prune pass. Records a fray before the table wrote on Discord are
 * such rows too: still found (a lookup by id that misses the table reads
 * the channel's rows) until the prune pass ages them out.
 *
 * The record keeps what does not depend on the seed any more: the
 * expression and its dialect, the label, who rolled, secrecy, every die
 * and modifier as the roll showed them, and the total.
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

struct cmd_rollrec_row;
struct store;

#define CMD_ROLLREC_KV_PREFIX "roll:"
/* Rolls one console channel keeps: enough to reach back through a
 * session's scrollback, few enough that a tidy or a lookup scans little. */
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
/* Discord rolls the store keeps, all channels together: a week of a busy
 * table's rolls several hundred times over, ~40 MB of rows at most
 * (records are about 400 bytes). */
#define CMD_ROLLREC_MAX_ROWS INT64_C(100000)
/* Rows past the count one tidy drops at most: more than a tidy's share of
 * rolls, so that the table comes back under the count. */
#define CMD_ROLLREC_TRIM_BATCH 64
/* A snowflake: milliseconds since Discord's epoch above its 22 low bits. */
#define CMD_ROLLREC_SNOWFLAKE_MS_SHIFT 22
#define CMD_ROLLREC_DISCORD_EPOCH_MS INT64_C(1420070400000)
/* CMD_ROLLREC_KEEP_MS as a distance between snowflakes. */
#define CMD_ROLLREC_KEEP_IDS                                                   \
    (CMD_ROLLREC_KEEP_MS << CMD_ROLLREC_SNOWFLAKE_MS_SHIFT)
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
    int64_t seq;                     /* its place in the channel, from 1
                                        (console); 0 on Discord */
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

/* Remember r. An id that is a snowflake (a positive int64) goes to the
 * table (seq 0), tidied now and then; otherwise its seq and, when r->id is
 * "", its id are set here (the channel's next number) and every
 * CMD_ROLLREC_TIDY_EVERY the channel's oldest past CMD_ROLLREC_PER_CHANNEL
 * go. In the caller's transaction, if any. */
enum bot_err cmd_rollrec_put(struct store *s, struct cmd_rollrec *r);

/* The key of the table a record with this id goes to: a snowflake, as a
 * positive int64; 0 when id is "" or not one (the console's: numbered
 * by the store). */
int64_t cmd_rollrec_table_key(const char *id);
/* r as a row of the table: its key, channel and JSON (heap, the
 * caller's); false when r's id is not a snowflake or on no memory. */
bool cmd_rollrec_row_of(const struct cmd_rollrec *r,
                        struct cmd_rollrec_row *row);
/* Write a table record already encoded (cmd_rollrec_encode) under key,
 * tidied now and then as cmd_rollrec_put does: the daemon's queue
 * (cmd_rollq.h). In the caller's transaction, if any. */
enum bot_err cmd_rollrec_put_row(struct store *s, int64_t key,
                                 uint64_t channel, const char *json);

/* The record of channel with this id (the table's, else a kv row's), or
 * with id NULL the channel's last numbered one (the console's);
 * BOT_NOTFOUND when there is none, or the id is another channel's. */
enum bot_err cmd_rollrec_get(struct store *s, uint64_t channel,
                             const char *id, struct cmd_rollrec *out);

/* Drop records made before before_ms (the table's as one range of ids,
 * then at most max kv rows) and the table's rows past
 * CMD_ROLLREC_MAX_ROWS (at most max); how many went into *pruned (may be
 * NULL). The daemon's prune pass. */
enum bot_err cmd_rollrec_prune(struct store *s, int64_t before_ms,
                               size_t max, int64_t *pruned);

#endif
