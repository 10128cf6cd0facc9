/*
 * fthread.c - a fight's thread, in the store's key/value rows
 * (fthread.h).
 */
#include "fthread.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "interaction.h"
#include "msg.h"
#include "render_discord.h"
#include "rest.h"
#include "snowflake.h"
#include "store.h"

static uint64_t get(struct store *s, const char *prefix, uint64_t id)
{
    char key[STORE_MAX_KV_KEY], *v = NULL;
    uint64_t out = 0;
    snprintf(key, sizeof key, "%s%" PRIu64, prefix, id);
    if (store_kv_get(s, key, &v) == BOT_OK && !snowflake_parse(v, &out))
        out = 0;
    free(v);
    return out;
}

static enum bot_err set(struct store *s, const char *prefix, uint64_t id,
                        uint64_t value)
{
    char key[STORE_MAX_KV_KEY], v[24];
    snprintf(key, sizeof key, "%s%" PRIu64, prefix, id);
    snprintf(v, sizeof v, "%" PRIu64, value);
    return store_kv_set(s, key, v);
}

uint64_t fthread_of(struct store *s, uint64_t channel)
{
    return get(s, FTHREAD_KV_PREFIX, channel);
}

uint64_t fthread_parent(struct store *s, uint64_t thread)
{
    return get(s, FTHREAD_KV_PARENT_PREFIX, thread);
}

enum bot_err fthread_link(struct store *s, uint64_t channel, uint64_t thread)
{
    enum bot_err e = set(s, FTHREAD_KV_PREFIX, channel, thread);
    return e != BOT_OK ? e : set(s, FTHREAD_KV_PARENT_PREFIX, thread, channel);
}

void fthread_unlink(struct store *s, uint64_t channel)
{
    char key[STORE_MAX_KV_KEY];
    uint64_t thread = fthread_of(s, channel);
    snprintf(key, sizeof key, "%s%" PRIu64, FTHREAD_KV_PREFIX, channel);
    store_kv_delete(s, key);
    if (thread != 0) {
        snprintf(key, sizeof key, "%s%" PRIu64, FTHREAD_KV_PARENT_PREFIX,
                 thread);
        store_kv_delete(s, key);
    }
}

void fthread_notice(struct rest *r, const char *path, const char *text,
                    bool ephemeral, uint64_t mention)
{
    struct msg m;
    msg_init(&m);
    char *s = NULL;
    if (msg_set_content(&m, "%s", text) &&
        (mention == 0 || msg_add_mention(&m, mention)) &&
        (s = render_discord_message_text(&m, ephemeral, NULL)) != NULL)
        rest_submit(r, "POST", path, s, NULL, NULL);
    free(s);
    msg_cleanup(&m);
}
