/*
 * store_rollrec.c - store.h's roll records by interaction: checks ids,
 * values and batches once for both backends, then dispatches to their ops
 * (store_sqlite.c, store_pg.c).
 */
#include <string.h>

#include "store_backend.h"

enum bot_err store_rollrec_put(struct store *s, int64_t id, uint64_t channel,
                               const char *value)
{
    if (id <= 0)
        return store__fail(s, BOT_INVALID, "a roll record's id of %lld",
                           (long long)id);
    if (strlen(value) > STORE_MAX_KV_VALUE)
        return store__fail(s, BOT_LIMIT, "a roll record over %d bytes",
                           STORE_MAX_KV_VALUE);
    return s->ops->rollrec_put(s, id, channel, value);
}

enum bot_err store_rollrec_get(struct store *s, int64_t id, uint64_t channel,
                               char **value)
{
    *value = NULL;
    return id <= 0 ? BOT_NOTFOUND
                   : s->ops->rollrec_get(s, id, channel, value);
}

enum bot_err store_rollrec_trim(struct store *s, int64_t below,
                                int64_t max_rows, int64_t batch,
                                int64_t *dropped)
{
    int64_t n = 0;
    enum bot_err e = batch < 1 || max_rows < 0
                         ? store__fail(s, BOT_INVALID,
                                       "a roll record trim of no rows")
                         : s->ops->rollrec_trim(s, below, max_rows, batch,
                                                &n);
    if (dropped != NULL)
        *dropped = n;
    return e;
}
