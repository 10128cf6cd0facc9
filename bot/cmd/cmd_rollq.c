/*
 * cmd_rollq.c - Discord rolls' records waiting to be written (cmd_rollq.h).
 */
#include "cmd_rollq.h"

#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_rollrec.h"

struct cmd_rollq {
    size_t n;
    int64_t since_ms;           /* when the oldest waiting was queued */
    struct cmd_rollrec_row item[CMD_ROLLQ_MAX]; /* json: the queue's */
};

struct cmd_rollq *cmd_rollq_new(void)
{
    return calloc(1, sizeof(struct cmd_rollq));
}

static void drop_all(struct cmd_rollq *q)
{
    for (size_t i = 0; i < q->n; i++)
        free(q->item[i].json);
    q->n = 0;
    q->since_ms = 0;
}

void cmd_rollq_free(struct cmd_rollq *q)
{
    if (q == NULL)
        return;
    drop_all(q);
    free(q);
}

bool cmd_rollq_add(struct cmd_rollq *q, struct cmd_rollrec_row *row,
                   int64_t now_ms)
{
    if (row->key == 0 || row->json == NULL || q->n == CMD_ROLLQ_MAX)
        return false;
    if (q->n == 0)
        q->since_ms = now_ms;
    q->item[q->n++] = *row;
    row->json = NULL;
    return true;
}

size_t cmd_rollq_len(const struct cmd_rollq *q)
{
    return q->n;
}

int64_t cmd_rollq_since_ms(const struct cmd_rollq *q)
{
    return q->since_ms;
}

enum bot_err cmd_rollq_find(const struct cmd_rollq *q, uint64_t channel,
                            const char *id, struct cmd_rollrec *out)
{
    int64_t key = id != NULL ? cmd_rollrec_table_key(id) : 0;
    if (q == NULL || key == 0)
        return BOT_NOTFOUND;
    for (size_t i = 0; i < q->n; i++)
        if (q->item[i].key == key)   /* another channel's: not found */
            return q->item[i].channel == channel &&
                           cmd_rollrec_decode(q->item[i].json, out)
                       ? BOT_OK
                       : BOT_NOTFOUND;
    return BOT_NOTFOUND;
}

enum bot_err cmd_rollq_write(struct cmd_rollq *q, struct store *s,
                             size_t *lost)
{
    enum bot_err first = BOT_OK;
    size_t failed = 0;
    for (size_t i = 0; i < q->n; i++) {
        const struct cmd_rollrec_row *it = &q->item[i];
        enum bot_err e = cmd_rollrec_put_row(s, it->key, it->channel,
                                             it->json);
        if (e != BOT_OK) {
            failed++;
            if (first == BOT_OK)
                first = e;
        }
    }
    drop_all(q);
    if (lost != NULL)
        *lost = failed;
    return first;
}
