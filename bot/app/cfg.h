/*
 * cfg.h - fray's configuration file (INI, parsed with libinih).
 *
 * One table (cfg.c) lists every key with its section, type, bounds, default
 * and the offset of its field in struct cfg; defaults, parsing, checking and
 * config/fray.conf.example all follow that table. Unknown keys and sections
 * are errors (a typo must not silently keep a default). Every error names the
 * file, the line and the key, e.g.
 *   /etc/fray/fray.conf:12: [rest] timeout_ms: 0 is out of range (100..600000)
 * The bot token is never read from here (see token.h).
 *
 * Ownership: struct cfg is a plain value owned by the caller; no heap.
 */
#ifndef CFG_H
#define CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bot_err.h"
#include "log.h"
#include "shard.h"

#define CFG_MAX_PATH 1024
#define CFG_MAX_URL 256
#define CFG_MAX_DEV_GUILDS 16
#define CFG_MAX_ERR 512

struct cfg {
    char db_path[CFG_MAX_PATH];      /* [store] path */
    char storage[CFG_MAX_PATH];      /* [store] storage: server, or "" */
    char rules_dir[CFG_MAX_PATH];    /* [rules] dir */
    int64_t reopen_minutes;          /* [fights] reopen_minutes */
    enum log_level log_level;        /* [log] level */
    char api_base[CFG_MAX_URL];      /* [discord] api_base */
    bool register_commands;          /* [discord] register_commands */
    uint64_t dev_guilds[CFG_MAX_DEV_GUILDS]; /* [discord] dev_guilds */
    int ndev_guilds;
    int64_t gw_backoff_min_ms;       /* [gateway] ... */
    int64_t gw_backoff_max_ms;
    int64_t gw_heartbeat_max_ms;
    int64_t gw_max_payload;
    int64_t gw_identify_spacing_ms;
    int64_t gw_ready_timeout_ms;
    struct shard shard;              /* [gateway] shard (count 0: auto) */
    int64_t rest_connect_timeout_ms; /* [rest] ... */
    int64_t rest_timeout_ms;
    int64_t rest_max_retries;
    int64_t rest_retry_base_ms;
    int64_t rest_global_per_sec;
    int64_t shutdown_grace_ms;       /* [daemon] shutdown_grace_ms */
};

/* Fill every field with its default. */
void cfg_defaults(struct cfg *c);

/* Defaults, then the file at path. BOT_OK, or BOT_CONFIG/BOT_IO with one
 * line in err naming file, line and key. On failure *c holds defaults plus
 * whatever was read before the error; do not use it. */
enum bot_err cfg_load(struct cfg *c, const char *path, char *err,
                      size_t errlen);

/* Same as cfg_load() on text in memory; name is used in messages. */
enum bot_err cfg_load_string(struct cfg *c, const char *name,
                             const char *text, char *err, size_t errlen);

/* Apply one key, as the file would (tests). err names section and key. */
enum bot_err cfg_set(struct cfg *c, const char *section, const char *key,
                     const char *value, char *err, size_t errlen);

/* Write an example file listing every key, its default and its help. */
void cfg_write_example(FILE *f);

#endif
