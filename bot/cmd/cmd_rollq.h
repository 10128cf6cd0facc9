/*
 * cmd_rollq.h - the records of Discord rolls answered but not yet written
 * (cmd_rollrec.h), so that a channel of rolls pays no commit of its own.
 *
 * A /roll changes nothing: its record only serves the posted message's
 * menus (Reroll, Explain, Apply damage). Writing it with its own group
 * cost a transaction of a few pages per group, which a busy channel of
 * rolls felt end to end. So the daemon queues the records and writes them
 * all at once: with the next group that writes anyway, when
 * CMD_ROLLQ_MAX are waiting, when the oldest has waited the front end's
 * delay, and when fray stops (docs/internals/daemon.md, "Answered means
 * on disk"). Until then a menu finds its roll here (cmd_rollq_find).
 *
 * What a crash can cost: the records of the last moments' rolls, never a
 * fight or a change; their menus then say fray does not remember the
 * roll, as they do for one past the age. The rolls themselves are in
 * Discord's messages already.
 *
 * Only records of a snowflake id (the table's) are queued; a console
 * record has a number from the store and is written at once.
 *
 * Ownership: the front end owns the queue; a queued record is held as its
 * JSON (heap, the queue's from cmd_rollq_add on), not as the large
 * struct.
 */
#ifndef CMD_ROLLQ_H
#define CMD_ROLLQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"

struct cmd_rollrec;
struct cmd_rollrec_row;
struct store;

/* Records waiting at most: about a kilobyte each as JSON, and one write
 * of this many is a few pages of the table. */
#define CMD_ROLLQ_MAX 64

struct cmd_rollq;

/* A new, empty queue, or NULL on no memory. */
struct cmd_rollq *cmd_rollq_new(void);
/* Frees the queue and drops what it still holds (write it first). */
void cmd_rollq_free(struct cmd_rollq *q);

/* Queue the row, made at now_ms: its json is the queue's then (row->json
 * becomes NULL); false when the queue is full or the row has no key or
 * JSON: then the caller writes it itself (cmd_rollrec_put_row). */
bool cmd_rollq_add(struct cmd_rollq *q, struct cmd_rollrec_row *row,
                   int64_t now_ms);

/* How many wait, and when the oldest was queued (0 when none). */
size_t cmd_rollq_len(const struct cmd_rollq *q);
int64_t cmd_rollq_since_ms(const struct cmd_rollq *q);

/* The queued record of channel with this id into out; BOT_NOTFOUND when
 * none waits (it may be in the store). q may be NULL. */
enum bot_err cmd_rollq_find(const struct cmd_rollq *q, uint64_t channel,
                            const char *id, struct cmd_rollrec *out);

/* Write every queued record into s, in the caller's transaction if any,
 * and empty the queue, whatever was written. The first error is returned
 * and *lost (may be NULL) counts the records not written. */
enum bot_err cmd_rollq_write(struct cmd_rollq *q, struct store *s,
                             size_t *lost);

#endif
