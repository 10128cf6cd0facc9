/* store_fixture.c - see store_fixture.h. */
#include "store_fixture.h"

#include <stdlib.h>

enum bot_err store_fx_undo_once(struct store *s, uint64_t channel)
{
    char *live_doc = NULL, *doc = NULL;
    int64_t live = 0, target = 0;
    enum bot_err e = store_enc_load(s, channel, &live_doc, &live);
    free(live_doc);
    if (e == BOT_OK)
        e = store_enc_load_before(s, channel, live, &doc, &target);
    if (e == BOT_OK)
        e = store_enc_save_undo(s, channel, live + 1, doc);
    free(doc);
    return e;
}

enum bot_err store_fx_skip_enc(void *ctx, const struct store_enc_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_fx_skip_ix(void *ctx, const struct store_ix_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_fx_skip_kv(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value;
    return BOT_OK;
}
