/*
 * cmd_config.c - /config: per-server settings, kept in the store's
 * key/value table (one row per guild and setting).
 *
 *   gm_channel:<guild>   the channel id where secret rolls and the GM's
 *                        copies of hidden results are posted
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd_run.h"
#include "interaction.h"
#include "store.h"

#define CONFIG_KEY_GM_CHANNEL "gm_channel"

static void gm_channel_key(char *key, size_t n, uint64_t guild)
{
    snprintf(key, n, "%s:%" PRIu64, CONFIG_KEY_GM_CHANNEL, guild);
}

uint64_t cmd_config_gm_channel(struct store *store, uint64_t guild)
{
    char key[STORE_MAX_KV_KEY];
    char *value = NULL;
    uint64_t id = 0;
    gm_channel_key(key, sizeof key, guild);
    if (store_kv_get(store, key, &value) == BOT_OK &&
        !interaction_snowflake(value, &id))
        id = 0;
    free(value);
    return id;
}

void cmd_config(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct cmd_reply *reply = run->reply;
    if (req->guild_id == 0) {
        cmd_fail(run, "/config works in a server's channels, not in direct "
                 "messages");
        return;
    }
    if (!run->is_gm) {
        cmd_fail(run, "only members with Administrator or Manage Channels "
                 "may change fray's settings");
        return;
    }
    const char *channel = cmd_req_opt(req, "gm-channel");
    bool clear = false;
    if (!cmd_opt_bool(run, "clear", false, &clear))
        return;
    if (channel != NULL && clear) {
        cmd_fail(run, "give gm-channel: or clear:true, not both");
        return;
    }
    char key[STORE_MAX_KV_KEY];
    gm_channel_key(key, sizeof key, req->guild_id);
    enum bot_err err = BOT_OK;
    if (channel != NULL)
        err = store_kv_set(run->ctx->store, key, channel);
    else if (clear)
        err = store_kv_delete(run->ctx->store, key);
    if (err != BOT_OK) {
        cmd_fail(run, "the setting could not be saved; nothing was changed");
        return;
    }
    uint64_t gm = cmd_config_gm_channel(run->ctx->store, req->guild_id);
    if (gm != 0)
        msg_set_content(&reply->msg, "%s<#%" PRIu64 "> is the GM channel: "
                        "secret rolls and the GM's copies of hidden results "
                        "are posted there.", channel ? "Saved. " : "", gm);
    else
        msg_set_content(&reply->msg, "%sNo GM channel is set: secret rolls "
                        "are shown only to whoever rolls. Set one with "
                        "`/config gm-channel:#channel`.", clear ? "Cleared. "
                        : "");
    reply->ephemeral = true;
}
