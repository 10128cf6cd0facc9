/*
 * daemon_reg.c - keeping Discord's slash commands in step with fray's.
 *
 * The core commands are global and registered by shard 0. A server's
 * system commands are registered in that server (cmd_config.h): by the
 * shard the server belongs to, at READY for every server whose set
 * changed since it was last registered (a new fray version), and at once
 * when a command changed the server's systems. Each scope's last
 * registered body is remembered by its hash, so an unchanged set costs no
 * request, and so are its inputs (register_input_hash: the build id, the
 * application, the systems), so a restart of the same build does not
 * even build an unchanged set: at READY that was most of the
 * instructions fray spent on its own (docs/internals/daemon.md,
 * "Startup").
 */
#include "daemon_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "interaction.h"
#include "register.h"
#include "rest.h"
#include "shard.h"
#include "snowflake.h"
#include "store.h"

struct pending_register {
    struct daemon *d;
    char key[64];
    char hash[17];
    char input_key[64];
    char input[17];          /* "": no build id, nothing to remember */
};

static void on_register_done(void *ud, const struct rest_result *res)
{
    struct pending_register *p = ud;
    if (res->err == BOT_OK && res->status >= 200 && res->status < 300) {
        if (store_kv_set(p->d->store, p->key, p->hash) != BOT_OK ||
            (p->input[0] &&
             store_kv_set(p->d->store, p->input_key, p->input) != BOT_OK))
            log_msg(p->d->log, LOG_LVL_WARN, "register: cannot save hash");
        log_msg(p->d->log, LOG_LVL_NOTICE, "register: commands updated (%s)",
                p->key + sizeof REGISTER_KV_HASH);
    } else {
        log_msg(p->d->log, LOG_LVL_WARN,
                "register: failed for %s: status %d code %d: %.200s",
                p->key + sizeof REGISTER_KV_HASH, res->status,
                res->discord_code, res->body ? res->body : "");
    }
    free(p);
}

/* prefix ":global" or prefix ":<guild>" into key[64] */
static void scope_key(char key[64], const char *prefix, uint64_t guild)
{
    if (guild)
        snprintf(key, 64, "%s:%" PRIu64, prefix, guild);
    else
        snprintf(key, 64, "%s:global", prefix);
}

/* Whether the value stored under key is text. */
static bool kv_is(struct daemon *d, const char *key, const char *text)
{
    char *old = NULL;
    bool same = store_kv_get(d->store, key, &old) == BOT_OK &&
                strcmp(old, text) == 0;
    free(old);
    return same;
}

/* PUT the set of n systems (and the core commands when flags say so) for
 * one scope (guild 0: global) unless it is registered already: known
 * unchanged by its inputs (not even built), or by its body's hash. */
static void register_scope(struct daemon *d, uint64_t guild,
                           const struct rs_system *const *sys, size_t n,
                           unsigned flags)
{
    char hash[17], key[64], path[256], input_key[64], input[17] = "";
    char build[REGISTER_BUILD_ID_MAX];
    scope_key(key, REGISTER_KV_HASH, guild);
    scope_key(input_key, REGISTER_KV_INPUT, guild);
    if (register_build_id(build)) {
        register_input_hash(build, d->app_id, sys, n, flags, input);
        if (kv_is(d, input_key, input)) {
            log_msg(d->log, LOG_LVL_INFO, "register: %s unchanged (inputs "
                    "%s, not rebuilt)", key + sizeof REGISTER_KV_HASH, input);
            return;
        }
    }
    json_t *cmds = register_build(sys, n, flags);
    char *text = cmds ? json_dumps(cmds, JSON_COMPACT | JSON_SORT_KEYS)
                      : NULL;
    json_decref(cmds);
    if (text == NULL) {
        log_msg(d->log, LOG_LVL_ERR, "register: cannot build commands");
        return;
    }
    register_hash(text, hash);
    if (kv_is(d, key, hash)) {
        log_msg(d->log, LOG_LVL_INFO, "register: %s unchanged (hash %s)",
                key + sizeof REGISTER_KV_HASH, hash);
        /* this build's set is the one registered: the next start need
         * not build it to know */
        if (input[0] && store_kv_set(d->store, input_key, input) != BOT_OK)
            log_msg(d->log, LOG_LVL_WARN, "register: cannot save hash");
        free(text);
        return;
    }
    struct pending_register *p = calloc(1, sizeof *p);
    if (p == NULL) {
        free(text);
        return;
    }
    p->d = d;
    snprintf(p->key, sizeof p->key, "%s", key);
    snprintf(p->hash, sizeof p->hash, "%s", hash);
    snprintf(p->input_key, sizeof p->input_key, "%s", input_key);
    snprintf(p->input, sizeof p->input, "%s", input);
    if (guild)
        snprintf(path, sizeof path, "/applications/%s/guilds/%" PRIu64
                 "/commands", d->app_id, guild);
    else
        snprintf(path, sizeof path, "/applications/%s/commands", d->app_id);
    if (rest_submit(d->rest, "PUT", path, text, on_register_done, p) !=
        BOT_OK)
        free(p);
    free(text);
}

static bool is_dev_guild(const struct daemon *d, uint64_t guild)
{
    for (int i = 0; i < d->cfg->ndev_guilds; i++)
        if (d->cfg->dev_guilds[i] == guild)
            return true;
    return false;
}

void daemon_register_guild(struct daemon *d, uint64_t guild)
{
    if (!d->cfg->register_commands || d->app_id[0] == '\0' || guild == 0)
        return;
    const struct rs_system *sys[CMD_CONFIG_MAX_SYSTEMS];
    bool configured;
    size_t n = cmd_config_systems(d->store, guild, sys,
                                  CMD_CONFIG_MAX_SYSTEMS, &configured);
    /* A development server has every command as its own (a PUT there
     * replaces them all), so its set holds the core ones too. */
    register_scope(d, guild, sys, n,
                   REGISTER_GUILD |
                       (is_dev_guild(d, guild) ? REGISTER_CORE : 0u));
}

static enum bot_err on_systems_key(void *ctx, const char *key,
                                   const char *value)
{
    struct daemon *d = ctx;
    uint64_t guild = 0;
    const char *id = strchr(key, ':');
    (void)value;
    if (id == NULL || !snowflake_parse(id + 1, &guild))
        return BOT_OK;
    if (d->shard.count > 1 &&
        shard_of_guild(guild, d->shard.count) != d->shard.id)
        return BOT_OK;
    if (!is_dev_guild(d, guild))
        daemon_register_guild(d, guild);
    return BOT_OK;
}

void daemon_register_ready(struct daemon *d, const char *app)
{
    snprintf(d->app_id, sizeof d->app_id, "%s", app ? app : "");
    if (!d->cfg->register_commands || d->app_id[0] == '\0')
        return;
    if (d->shard.id == 0) {
        /* Shard 0 registers the core set for every shard. */
        if (d->cfg->ndev_guilds == 0)
            register_scope(d, 0, NULL, 0, REGISTER_CORE);
        for (int i = 0; i < d->cfg->ndev_guilds; i++)
            daemon_register_guild(d, d->cfg->dev_guilds[i]);
    }
    if (store_kv_scan(d->store, CMD_CONFIG_KEY_SYSTEMS ":", on_systems_key,
                      d) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "register: cannot list the servers' "
                "systems: %s", store_errmsg(d->store));
}
