/* store_noop.c - export callbacks that skip their rows (store_noop.h). */
#include "store_noop.h"

enum bot_err store_noop_enc(void *ctx, const struct store_enc_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_noop_ix(void *ctx, const struct store_ix_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_noop_kv(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value;
    return BOT_OK;
}
