/*
 * cfg.c - the configuration schema and its INI reader.
 */
#include "cfg.h"

#include "attach.h"
#include "eng_text.h"
#include "metrics.h"

#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

enum cfg_type { CFG_T_INT, CFG_T_BOOL, CFG_T_STR, CFG_T_LEVEL, CFG_T_IDS,
                CFG_T_SHARD };

struct cfg_key {
    const char *section;
    const char *name;
    enum cfg_type type;
    int64_t min, max;            /* ints: bounds; strings: length */
    const char *def;             /* parsed like a value from the file */
    size_t offset;               /* of the field in struct cfg */
    const char *help;
};

#define F(field) offsetof(struct cfg, field)

static const struct cfg_key cfg_keys[] = {
    {"store", "path", CFG_T_STR, 1, CFG_MAX_PATH - 1, "fray.db", F(db_path),
     "SQLite database file; a relative path is taken under "
     "$STATE_DIRECTORY when systemd sets it"},
    {"store", "storage", CFG_T_STR, 0, CFG_MAX_PATH - 1, "", F(storage),
     "PostgreSQL shared by several fray processes: postgres:// URL or "
     "libpq conninfo (host=H dbname=D); empty = the SQLite file above; "
     "password in ~/.pgpass, not here"},
    {"store", "prune_interval_s", CFG_T_INT, 1, 86400, "600",
     F(prune_interval_s),
     "how often the daemon prunes old interactions and ended fights and "
     "logs the database size"},
    {"rules", "dir", CFG_T_STR, 0, CFG_MAX_PATH - 1, "", F(rules_dir),
     "directory of the rulesets' data files (tactical-effects.conf); "
     "empty = $FRAY_RULES_DIR, else ./config"},
    {"fights", "reopen_minutes", CFG_T_INT, 1, 10080, "60",
     F(reopen_minutes),
     "how long after its end the GM may bring a fight back with "
     "/combat reopen"},
    /* Retention starts at 8 days: above reopen_minutes' largest value (7
     * days), so it never takes what /combat reopen can bring back. */
    {"fights", "retention_days", CFG_T_INT, 8, 3650, "30",
     F(retention_days),
     "an ended fight keeps its undo versions this long; after that only "
     "the state it ended in is kept"},
    {"fights", "keep_history", CFG_T_BOOL, 0, 0, "false", F(keep_history),
     "keep an ended fight's history lines (/combat history) after "
     "retention_days as well; false = they go with its versions"},
    {"fights", "max_live_per_server", CFG_T_INT, 1, 100000, "200",
     F(max_live_per_server),
     "fights running at once in one server; /combat start beyond it is "
     "refused"},
    {"fights", "max_archived_per_server", CFG_T_INT, 1, 1000000, "1000",
     F(max_archived_per_server),
     "ended fights kept per server; the oldest beyond it are deleted"},
    /* The least each may be is the store's (STORE_HIST_MIN_*): a fight
     * keeps twice its undo chain's lines, and 64 KB. */
    {"fights", "history_max_kb", CFG_T_INT, 64, 1048576, "1024",
     F(history_max_kb),
     "history one running fight keeps (/combat history, /combat log), in "
     "KB; past it its oldest changes are folded into a summary and undo "
     "cannot go back past them"},
    {"fights", "history_max_changes", CFG_T_INT, 100, 1000000, "2000",
     F(history_max_changes),
     "changes one running fight keeps in its history; past it its oldest "
     "are folded into a summary, as for history_max_kb"},
    {"fights", "history_max_mb_per_server", CFG_T_INT, 1, 1048576, "64",
     F(history_max_mb_per_server),
     "history all of one server's fights keep together (running and "
     "ended), in MB; past it the oldest changes of its fight with the most "
     "are folded into a summary"},
    {"fights", "clock_speed", CFG_T_INT, 1, 86400, "1", F(clock_speed),
     "FOR TESTS ONLY: the turn clock (/combat clock) runs this many times "
     "faster than real time; 1 in production"},
    {"fights", "clock_offset_s", CFG_T_INT, 0, 315360000, "0",
     F(clock_offset_s),
     "FOR TESTS ONLY: the turn clock starts this many seconds ahead of "
     "real time (a restart after fray was down); 0 in production"},
    {"fights", "log_hold_file", CFG_T_STR, 0, CFG_MAX_PATH - 1, "",
     F(log_hold_file),
     "FOR TESTS ONLY: while a file exists at this path, the /combat log "
     "worker waits before writing each log; empty in production"},
    {"macros", "max_per_server", CFG_T_INT, 1, 100000, "500",
     F(max_macros_per_server),
     "server-wide saved rolls one server may keep; /macro save "
     "server:true beyond it is refused"},
    {"macros", "max_per_user", CFG_T_INT, 1, 10000, "100",
     F(max_macros_per_user),
     "saved rolls of their own one user may keep (in every server and "
     "DM together); /macro save beyond it is refused"},
    {"sheets", "max_characters_per_user", CFG_T_INT, 1, 10000, "50",
     F(max_characters_per_user),
     "saved characters one player may keep in one server; /character "
     "create beyond it is refused"},
    {"sheets", "max_templates_per_server", CFG_T_INT, 1, 100000, "500",
     F(max_templates_per_server),
     "NPC templates one server may keep; /npc create and /npc save beyond "
     "it are refused"},
    {"threads", "archive_on_end", CFG_T_BOOL, 0, 0, "true",
     F(thread_archive_on_end),
     "archive a fight's own thread (/combat start thread:true) when the "
     "fight ends; false = it stays open"},
    {"log", "level", CFG_T_LEVEL, 0, 0, "info", F(log_level),
     "least important level logged: err, warn, notice, info, debug"},
    {"log", "format", CFG_T_STR, 4, CFG_MAX_WORD - 1, "auto", F(log_format),
     "journal: syslog priority prefixes (<3> err ... <7> debug) and no "
     "timestamp, for journald; plain: timestamp and level name; auto: "
     "journal when stderr is the journal ($JOURNAL_STREAM)"},
    {"discord", "api_base", CFG_T_STR, 8, CFG_MAX_URL - 1,
     "https://discord.com/api/v10", F(api_base),
     "REST base URL; $DISCORD_API_BASE overrides it (tests)"},
    {"discord", "attachment_hosts", CFG_T_STR, 0, CFG_MAX_URL - 1,
     ATT_DEFAULT_HOSTS, F(att_hosts),
     "comma-separated hosts fray downloads imported files from, over "
     "https only (Discord's attachment servers)"},
    {"discord", "attachment_plain_host", CFG_T_STR, 0, ATT_MAX_HOSTPORT,
     "", F(att_plain_host),
     "one host or host:port that may serve attachments over plain http "
     "(the fake Discord in tests); empty = none"},
    {"discord", "attachment_allow_addresses", CFG_T_STR, 0, CFG_MAX_URL - 1,
     "", F(att_allow),
     "comma-separated IP addresses on a loopback or private network that "
     "attachments may still come from (the fake Discord in tests, "
     "127.0.0.1); empty = none: such addresses are refused"},
    {"discord", "register_commands", CFG_T_BOOL, 0, 0, "true",
     F(register_commands),
     "register slash commands at startup when they changed"},
    {"discord", "dev_guilds", CFG_T_IDS, 0, CFG_MAX_DEV_GUILDS, "",
     F(dev_guilds),
     "comma-separated guild ids: register commands there only (instant); "
     "empty = globally"},
    {"gateway", "backoff_min_ms", CFG_T_INT, 100, 60000, "1000",
     F(gw_backoff_min_ms), "first reconnect delay after a failed connect"},
    {"gateway", "backoff_max_ms", CFG_T_INT, 1000, 600000, "60000",
     F(gw_backoff_max_ms), "cap on the reconnect delay (jitter included)"},
    {"gateway", "heartbeat_max_ms", CFG_T_INT, 1000, 600000, "60000",
     F(gw_heartbeat_max_ms),
     "cap on the heartbeat interval the server asks for"},
    {"gateway", "max_payload_bytes", CFG_T_INT, 65536, 67108864, "4194304",
     F(gw_max_payload), "largest gateway message accepted; bigger ones "
                        "drop the connection (and resume)"},
    {"gateway", "compress", CFG_T_BOOL, 0, 0, "true", F(gw_compress),
     "ask Discord for zlib-stream transport compression (less to read "
     "for every event; false: plain text frames)"},
    {"gateway", "identify_spacing_ms", CFG_T_INT, 5000, 600000, "5500",
     F(gw_identify_spacing_ms), "least time between two IDENTIFYs"},
    {"gateway", "ready_timeout_ms", CFG_T_INT, 1000, 600000, "20000",
     F(gw_ready_timeout_ms),
     "reconnect when HELLO/READY/RESUMED do not come within this"},
    {"gateway", "shard", CFG_T_SHARD, 0, 0, "0/1", F(shard),
     "this process's shard: ID/COUNT (0/1 = not sharded), or auto = COUNT "
     "from Discord's recommendation; $FRAY_SHARD_ID replaces the ID"},
    {"rest", "connect_timeout_ms", CFG_T_INT, 100, 60000, "5000",
     F(rest_connect_timeout_ms), "TCP+TLS connect timeout"},
    {"rest", "timeout_ms", CFG_T_INT, 100, 600000, "15000",
     F(rest_timeout_ms), "whole-request timeout"},
    {"rest", "max_retries", CFG_T_INT, 0, 10, "3", F(rest_max_retries),
     "retries of a request after a 5xx or a network error"},
    {"rest", "retry_base_ms", CFG_T_INT, 10, 60000, "500",
     F(rest_retry_base_ms), "first retry delay; doubles each retry"},
    {"rest", "global_per_sec", CFG_T_INT, 1, 50, "45",
     F(rest_global_per_sec),
     "requests per second across all routes (Discord's limit is 50; "
     "interaction callbacks are exempt)"},
    {"daemon", "shutdown_grace_ms", CFG_T_INT, 0, 60000, "5000",
     F(shutdown_grace_ms),
     "on SIGTERM, how long to wait for in-flight replies"},
    {"limits", "user_burst", CFG_T_INT, 1, 1000, "10", F(limit_user_burst),
     "commands and clicks one user may send at once before being told to "
     "slow down"},
    {"limits", "user_per_minute", CFG_T_INT, 0, 60000, "60",
     F(limit_user_per_min),
     "commands and clicks a minute one user may keep sending; 0 = no "
     "limit (the console is never limited)"},
    {"limits", "channel_burst", CFG_T_INT, 1, 1000, "20",
     F(limit_channel_burst),
     "commands and clicks one channel may receive at once, all users "
     "together"},
    {"limits", "channel_per_minute", CFG_T_INT, 0, 60000, "240",
     F(limit_channel_per_min),
     "commands and clicks a minute one channel may keep receiving; 0 = no "
     "limit"},
    {"limits", "autocomplete_burst", CFG_T_INT, 1, 1000, "20",
     F(limit_autocomplete_burst),
     "autocomplete requests one user may send at once; over the limit the "
     "choices come back empty"},
    {"limits", "autocomplete_per_minute", CFG_T_INT, 0, 60000, "300",
     F(limit_autocomplete_per_min),
     "autocomplete requests a minute one user may keep sending; 0 = no "
     "limit"},
    {"limits", "secret_burst", CFG_T_INT, 1, 1000, "5",
     F(limit_secret_burst),
     "secret rolls (each copied to the GM channel) one user may make at "
     "once"},
    {"limits", "secret_per_minute", CFG_T_INT, 0, 60000, "20",
     F(limit_secret_per_min),
     "secret rolls a minute one user may keep making; 0 = no limit"},
    {"metrics", "listen", CFG_T_STR, 0, CFG_MAX_LISTEN - 1, "",
     F(metrics_listen),
     "serve Prometheus metrics at http://LISTEN/metrics: PORT (on "
     "127.0.0.1) or ADDRESS:PORT, e.g. 127.0.0.1:9464; empty = off"},
    {"metrics", "public", CFG_T_BOOL, 0, 0, "false", F(metrics_public),
     "allow a listen address other than loopback (127.0.0.0/8, ::1): the "
     "metrics are then open to the network"},
    {"web", "listen", CFG_T_STR, 0, CFG_MAX_LISTEN - 1, "", F(web_listen),
     "serve the read-only pages of shared fights (/combat share) at "
     "http://LISTEN/s/...: PORT (on 127.0.0.1) or ADDRESS:PORT, e.g. "
     "127.0.0.1:8080, behind a reverse proxy (docs/web.md); empty = off"},
    {"web", "public_url", CFG_T_STR, 0, CFG_MAX_URL - 1, "",
     F(web_public_url),
     "the address the links show, where the reverse proxy serves LISTEN, "
     "e.g. https://fray.example.org; needed with listen"},
    {"web", "max_pages", CFG_T_INT, 1, 20000, "2000", F(web_max_pages),
     "live pages open at once, every fight together"},
    {"web", "max_pages_per_fight", CFG_T_INT, 1, 20000, "1000",
     F(web_max_pages_per_fight), "live pages open at once on one fight"},
    {"web", "max_pages_per_address", CFG_T_INT, 1, 20000, "50",
     F(web_max_pages_per_address),
     "live pages one address may hold open at once (a household or a "
     "stream's machines; one client cannot take every page)"},
    {"web", "requests_per_minute", CFG_T_INT, 0, 60000, "120",
     F(web_requests_per_minute),
     "requests a minute one address may make (behind a proxy on this "
     "machine, the address it names in X-Forwarded-For); 0 = no limit"},
};

#define CFG_NKEYS (sizeof cfg_keys / sizeof cfg_keys[0])

static const struct cfg_key *find_key(const char *section, const char *name)
{
    for (size_t i = 0; i < CFG_NKEYS; i++)
        if (strcmp(cfg_keys[i].section, section) == 0 &&
            strcmp(cfg_keys[i].name, name) == 0)
            return &cfg_keys[i];
    return NULL;
}

/* "1,2, 3" -> ids appended to ids[*n]; the key may be repeated. */
static bool parse_ids(const char *v, uint64_t *ids, int *n, char *why,
                      size_t whylen)
{
    const char *p = v;
    while (*p) {
        char *end;
        unsigned long long id;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (*p < '0' || *p > '9') {
            snprintf(why, whylen, "expected a guild id (digits) at \"%.20s\"",
                     p);
            return false;
        }
        errno = 0;
        id = strtoull(p, &end, 10);
        if (errno == ERANGE || id == 0) {
            snprintf(why, whylen, "guild id out of range at \"%.20s\"", p);
            return false;
        }
        if (*n >= CFG_MAX_DEV_GUILDS) {
            snprintf(why, whylen, "too many guild ids (limit is %d)",
                     CFG_MAX_DEV_GUILDS);
            return false;
        }
        ids[(*n)++] = id;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            snprintf(why, whylen, "expected ',' at \"%.20s\"", p);
            return false;
        }
    }
    return true;
}

/* Apply one key; why gets the reason without location. */
static bool apply(struct cfg *c, const struct cfg_key *k, const char *v,
                  char *why, size_t whylen)
{
    char *field = (char *)c + k->offset;

    switch (k->type) {
    case CFG_T_INT: {
        int64_t n;
        if (!eng_text_to_int(v, &n)) {
            snprintf(why, whylen, "\"%.40s\" is not an integer", v);
            return false;
        }
        if (n < k->min || n > k->max) {
            snprintf(why, whylen, "%lld is out of range (%lld..%lld)",
                     (long long)n, (long long)k->min, (long long)k->max);
            return false;
        }
        memcpy(field, &n, sizeof n);
        return true;
    }
    case CFG_T_BOOL: {
        bool b;
        if (!eng_text_to_bool(v, &b)) {
            snprintf(why, whylen, "\"%.40s\" is not true or false", v);
            return false;
        }
        memcpy(field, &b, sizeof b);
        return true;
    }
    case CFG_T_STR: {
        size_t n = strlen(v);
        if ((int64_t)n < k->min || (int64_t)n > k->max) {
            snprintf(why, whylen, "length %zu is out of range (%lld..%lld)",
                     n, (long long)k->min, (long long)k->max);
            return false;
        }
        memcpy(field, v, n + 1);
        return true;
    }
    case CFG_T_LEVEL: {
        enum log_level lvl;
        if (!log_level_parse(v, &lvl)) {
            snprintf(why, whylen,
                     "\"%.40s\" is not a level (err, warn, notice, info, "
                     "debug)",
                     v);
            return false;
        }
        memcpy(field, &lvl, sizeof lvl);
        return true;
    }
    case CFG_T_IDS:
        return parse_ids(v, c->dev_guilds, &c->ndev_guilds, why, whylen);
    case CFG_T_SHARD:
        return shard_parse(v, &c->shard, why, whylen);
    }
    snprintf(why, whylen, "unknown key type");
    return false;
}

void cfg_defaults(struct cfg *c)
{
    char why[CFG_MAX_WHY];
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        bool ok = apply(c, &cfg_keys[i], cfg_keys[i].def, why, sizeof why);
        (void)ok;   /* a bad default is caught by test_cfg */
    }
}

enum bot_err cfg_set(struct cfg *c, const char *section, const char *key,
                     const char *value, char *err, size_t errlen)
{
    const struct cfg_key *k = find_key(section, key);
    char why[CFG_MAX_WHY];

    if (!k) {
        snprintf(err, errlen, "[%s] %s: unknown key", section, key);
        return BOT_CONFIG;
    }
    if (!apply(c, k, value, why, sizeof why)) {
        snprintf(err, errlen, "[%s] %s: %s", section, key, why);
        return BOT_CONFIG;
    }
    return BOT_OK;
}

/* The INI reader: counts lines so every error can name one. */
struct cfg_reader {
    struct cfg *c;
    const char *name;
    FILE *f;                 /* file input, or */
    const char *text;        /* string input */
    int line;
    int maxline;             /* inih's line buffer, bytes */
    bool too_long;
    int too_long_line;       /* first line that did not fit */
    char *err;
    size_t errlen;
    bool failed;
};

static char *reader_next(char *str, int num, void *stream)
{
    struct cfg_reader *r = stream;
    size_t n = 0;

    if (r->f) {
        if (!fgets(str, num, r->f))
            return NULL;
        n = strlen(str);
    } else {
        if (!*r->text)
            return NULL;
        while (r->text[n] && r->text[n] != '\n' && n + 2 < (size_t)num)
            n++;
        if (r->text[n] == '\n' || (r->text[n] && n + 2 >= (size_t)num))
            n++;
        memcpy(str, r->text, n);
        str[n] = '\0';
        r->text += n;
    }
    r->line++;
    r->maxline = num;
    /* a line longer than the buffer would be split by inih: refuse it */
    if (n > 0 && str[n - 1] != '\n' && n + 1 >= (size_t)num)
        if (!r->too_long) {
            r->too_long = true;
            r->too_long_line = r->line;
        }
    return str;
}

static int on_key(void *user, const char *section, const char *name,
                  const char *value)
{
    struct cfg_reader *r = user;
    char why[CFG_MAX_ERR];   /* "[section] key: <why>" */

    if (r->failed)
        return 0;
    if (r->too_long)
        return 0;           /* reported by run_reader() */
    if (cfg_set(r->c, section, name, value, why, sizeof why) != BOT_OK) {
        snprintf(r->err, r->errlen, "%s:%d: %s", r->name, r->line, why);
        r->failed = true;
        return 0;
    }
    return 1;
}

bool cfg_att_policy(const struct cfg *c, struct att_policy *out, char *why,
                    size_t whylen)
{
    return att_policy_parse(out, c->att_hosts, c->att_plain_host, why,
                            whylen) &&
           att_policy_allow(out, c->att_allow, why, whylen);
}

static enum bot_err check_all(const struct cfg *c, const char *name,
                              char *err, size_t errlen)
{
    char host[METRICS_HOST_MAX], why[CFG_MAX_WHY];
    struct att_policy att;
    bool loopback;
    int port;

    if (strcmp(c->log_format, "auto") != 0 &&
        strcmp(c->log_format, "journal") != 0 &&
        strcmp(c->log_format, "plain") != 0) {
        snprintf(err, errlen, "%s: [log] format: \"%.20s\" is not auto, "
                 "journal or plain", name, c->log_format);
        return BOT_CONFIG;
    }
    if (c->metrics_listen[0]) {
        if (!metrics_listen_parse(c->metrics_listen, host, sizeof host,
                                  &port, &loopback, why, sizeof why)) {
            snprintf(err, errlen, "%s: [metrics] listen: %s", name, why);
            return BOT_CONFIG;
        }
        if (!loopback && !c->metrics_public) {
            snprintf(err, errlen, "%s: [metrics] listen: %s is not a "
                     "loopback address; set [metrics] public = true to "
                     "serve the metrics to the network", name, host);
            return BOT_CONFIG;
        }
    }
    if (c->web_listen[0]) {
        if (!metrics_listen_parse(c->web_listen, host, sizeof host, &port,
                                  &loopback, why, sizeof why)) {
            snprintf(err, errlen, "%s: [web] listen: %s", name, why);
            return BOT_CONFIG;
        }
        if (strncmp(c->web_public_url, "https://", 8) != 0 &&
            strncmp(c->web_public_url, "http://", 7) != 0) {
            snprintf(err, errlen, "%s: [web] public_url: set it to the "
                     "address the links show (https://...), with listen",
                     name);
            return BOT_CONFIG;
        }
    }
    if (!cfg_att_policy(c, &att, why, sizeof why)) {
        snprintf(err, errlen, "%s: [discord] %s", name, why);
        return BOT_CONFIG;
    }
    if (c->gw_backoff_min_ms > c->gw_backoff_max_ms) {
        snprintf(err, errlen,
                 "%s: [gateway] backoff_min_ms: larger than backoff_max_ms",
                 name);
        return BOT_CONFIG;
    }
    return BOT_OK;
}

static enum bot_err run_reader(struct cfg_reader *r)
{
    int rc = ini_parse_stream(reader_next, r, on_key, r);
    if (r->failed)
        return BOT_CONFIG;
    if (r->too_long) {
        snprintf(r->err, r->errlen, "%s:%d: line too long (limit is %d bytes)",
                 r->name, r->too_long_line, r->maxline - 2);
        return BOT_CONFIG;
    }
    if (rc != 0) {
        snprintf(r->err, r->errlen, "%s:%d: syntax error (expected "
                 "[section] or key = value)", r->name, rc > 0 ? rc : r->line);
        return BOT_CONFIG;
    }
    return check_all(r->c, r->name, r->err, r->errlen);
}

enum bot_err cfg_load(struct cfg *c, const char *path, char *err,
                      size_t errlen)
{
    struct cfg_reader r = {.c = c, .name = path, .err = err, .errlen = errlen};
    enum bot_err e;

    cfg_defaults(c);
    if (strlen(path) > CFG_MAX_FILE) {
        snprintf(err, errlen, "the config path is too long (%zu bytes; limit "
                 "is %d)", strlen(path), CFG_MAX_FILE);
        return BOT_CONFIG;
    }
    r.f = fopen(path, "re");
    if (!r.f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return BOT_IO;
    }
    e = run_reader(&r);
    fclose(r.f);
    return e;
}

enum bot_err cfg_load_string(struct cfg *c, const char *name,
                             const char *text, char *err, size_t errlen)
{
    struct cfg_reader r = {.c = c, .name = name, .text = text, .err = err,
                           .errlen = errlen};
    cfg_defaults(c);
    return run_reader(&r);
}

bool cfg_db_location(const struct cfg *c, char *out, size_t cap)
{
    const char *sd = getenv("STATE_DIRECTORY");
    int n;
    if (c->storage[0])
        n = snprintf(out, cap, "%s", c->storage);
    else if (c->db_path[0] != '/' && strcmp(c->db_path, ":memory:") != 0 &&
             sd && *sd)
        n = snprintf(out, cap, "%.*s/%s", (int)strcspn(sd, ":"), sd,
                     c->db_path);
    else
        n = snprintf(out, cap, "%s", c->db_path);
    return n >= 0 && (size_t)n < cap;
}

bool cfg_key_doc(size_t i, struct cfg_key_doc *out)
{
    const struct cfg_key *k;
    if (i >= CFG_NKEYS)
        return false;
    k = &cfg_keys[i];
    *out = (struct cfg_key_doc){k->section, k->name, k->def, k->help,
                                k->type == CFG_T_INT, k->min, k->max};
    return true;
}
