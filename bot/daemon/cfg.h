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
/* Longest config file path cfg_load takes, in bytes. */
#define CFG_MAX_FILE 2048
/* Room for the reason a key is wrong (no path in it). */
#define CFG_MAX_WHY 512
/* Room for any cfg error: "<file>:<line>: [section] key: <why>", so the
 * file's path is never cut. */
#define CFG_MAX_ERR (CFG_MAX_FILE + CFG_MAX_WHY + 128)
#define CFG_MAX_WORD 16                  /* a keyword value: "journal" */
#define CFG_MAX_LISTEN 64                /* [metrics] listen: "[::1]:9464" */
#define CFG_MAX_URL 256                  /* [web] public_url */

struct cfg {
    char db_path[CFG_MAX_PATH];      /* [store] path */
    char storage[CFG_MAX_PATH];      /* [store] storage: server, or "" */
    char rules_dir[CFG_MAX_PATH];    /* [rules] dir */
    int64_t reopen_minutes;          /* [fights] reopen_minutes */
    int64_t retention_days;          /* [fights] retention_days */
    bool keep_history;               /* [fights] keep_history */
    int64_t max_live_per_server;     /* [fights] max_live_per_server */
    bool thread_archive_on_end;      /* [threads] archive_on_end */
    int64_t max_archived_per_server; /* [fights] max_archived_per_server */
    int64_t history_max_kb;          /* [fights] history_max_kb */
    int64_t history_max_changes;     /* [fights] history_max_changes */
    int64_t history_max_mb_per_server; /* [fights] ..._mb_per_server */
    int64_t clock_speed;             /* [fights] clock_speed (tests only) */
    int64_t clock_offset_s;          /* [fights] clock_offset_s (tests) */
    char log_hold_file[CFG_MAX_PATH]; /* [fights] log_hold_file (tests) */
    int64_t max_macros_per_server;   /* [macros] max_per_server */
    int64_t max_macros_per_user;     /* [macros] max_per_user */
    int64_t max_characters_per_user; /* [sheets] max_characters_per_user */
    int64_t max_templates_per_server; /* [sheets] max_templates_per_server */
    int64_t prune_interval_s;        /* [store] prune_interval_s */
    enum log_level log_level;        /* [log] level */
    char log_format[CFG_MAX_WORD];   /* [log] format: auto, journal, plain */
    char api_base[CFG_MAX_URL];      /* [discord] api_base */
    char att_hosts[CFG_MAX_URL];     /* [discord] attachment_hosts */
    char att_plain_host[CFG_MAX_URL]; /* [discord] attachment_plain_host */
    char att_allow[CFG_MAX_URL];     /* [discord] attachment_allow_addresses */
    bool register_commands;          /* [discord] register_commands */
    uint64_t dev_guilds[CFG_MAX_DEV_GUILDS]; /* [discord] dev_guilds */
    int ndev_guilds;
    int64_t gw_backoff_min_ms;       /* [gateway] ... */
    int64_t gw_backoff_max_ms;
    int64_t gw_heartbeat_max_ms;
    int64_t gw_max_payload;
    bool gw_compress;                /* [gateway] compress */
    int64_t gw_identify_spacing_ms;
    int64_t gw_ready_timeout_ms;
    struct shard shard;              /* [gateway] shard (count 0: auto) */
    int64_t rest_connect_timeout_ms; /* [rest] ... */
    int64_t rest_timeout_ms;
    int64_t rest_max_retries;
    int64_t rest_retry_base_ms;
    int64_t rest_global_per_sec;
    int64_t shutdown_grace_ms;       /* [daemon] shutdown_grace_ms */
    int64_t limit_user_burst;        /* [limits] ... (limit.h) */
    int64_t limit_user_per_min;
    int64_t limit_channel_burst;
    int64_t limit_channel_per_min;
    int64_t limit_autocomplete_burst;
    int64_t limit_autocomplete_per_min;
    int64_t limit_secret_burst;
    int64_t limit_secret_per_min;
    char metrics_listen[CFG_MAX_LISTEN]; /* [metrics] listen; "" = off */
    bool metrics_public;             /* [metrics] public */
    char web_listen[CFG_MAX_LISTEN];  /* [web] listen; "" = off */
    char web_public_url[CFG_MAX_URL]; /* [web] public_url */
    int64_t web_max_pages;           /* [web] max_pages */
    int64_t web_max_pages_per_fight; /* [web] max_pages_per_fight */
    int64_t web_max_pages_per_address; /* [web] max_pages_per_address */
    int64_t web_requests_per_minute; /* [web] requests_per_minute */
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

/* The database fray opens: [store] storage when set (a server), else
 * [store] path, a relative one under $STATE_DIRECTORY when systemd sets it
 * (the first of a colon-separated list). False when it does not fit in
 * out[cap]: a cut path would name another file. */
bool cfg_db_location(const struct cfg *c, char *out, size_t cap);

struct att_policy;

/* Where attachments may be downloaded from ([discord] attachment_hosts
 * and attachment_plain_host, attach.h). False, with why, when a host is
 * malformed (cfg_load already refuses such a file). */
bool cfg_att_policy(const struct cfg *c, struct att_policy *out, char *why,
                    size_t whylen);

/* One key of the schema, for the documents made from it (cfg_doc.c). */
struct cfg_key_doc {
    const char *section, *name;
    const char *def;                 /* the default, as written in a file */
    const char *help;
    bool ranged;                     /* an integer within min..max */
    int64_t min, max;
};

/* The i-th key, in the order of the file; false past the last. */
bool cfg_key_doc(size_t i, struct cfg_key_doc *out);

/* cfg_doc.c: config/fray.conf.example, every key with its default and its
 * help (tests/unit/bot/test_cfg.c keeps the file in step). */
void cfg_write_example(FILE *f);

/* cfg_doc.c: the man page fray.conf(5) in roff (docs/man/fray.conf.5, kept
 * in step the same way). */
void cfg_write_man(FILE *f);

#endif
