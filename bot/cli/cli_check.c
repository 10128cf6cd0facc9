/*
 * cli_check.c - `fray check`: the config, the rules data, the token and the
 * database, checked without changing anything (check.h); --online goes on
 * in check_online.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "rs_data.h"
#include "store.h"
#include "version.h"

static const char check_usage[] =
    "usage: fray check [--config PATH] [--online]\n"
    "  checks the config, the rules data, the bot token (never shown) and\n"
    "  the database (read-only); --online also asks Discord about the token,\n"
    "  the application's intents and the session starts left, and prints\n"
    "  the invite link.\n"
    "  exit status: 0 nothing failed, 1 something failed, 2 bad usage\n";

static bool check_config(struct check *ck, const char *path)
{
    char err[CFG_MAX_ERR];

    if (!path) {
        struct stat st;
        cfg_defaults(&ck->cfg);
        /* the service's file is there: checking the defaults instead is
         * almost never what was meant */
        if (stat(CHECK_SERVICE_CONFIG, &st) == 0)
            check_say(ck, CHECK_WARN, "config", "none given: checking the "
                      "defaults; the service reads " CHECK_SERVICE_CONFIG
                      " (add --config " CHECK_SERVICE_CONFIG ")");
        else
            check_say(ck, CHECK_OK, "config", "none given (--config): the "
                      "defaults, as `fray run` without --config");
        return true;
    }
    if (cfg_load(&ck->cfg, path, err, sizeof err) != BOT_OK) {
        check_say(ck, CHECK_FAIL, "config", "%s", err);
        return false;
    }
    check_say(ck, CHECK_OK, "config", "%s is valid", path);
    return true;
}

/* Whether host (of a url, "[::1]" bracketed) is this machine: localhost,
 * 127.0.0.0/8 or ::1. */
static bool host_is_loopback(const char *host, size_t n)
{
    char h[CHECK_MAX_HOST + 1];
    struct in_addr v4;
    struct in6_addr v6;
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']')
        host++, n -= 2;
    if (n == 0 || n > CHECK_MAX_HOST)
        return false;
    memcpy(h, host, n);
    h[n] = '\0';
    if (strcasecmp(h, "localhost") == 0)
        return true;
    if (inet_pton(AF_INET, h, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    return inet_pton(AF_INET6, h, &v6) == 1 &&
           memcmp(&v6, &in6addr_loopback, sizeof v6) == 0;
}

/* The bot token goes in every REST request's header: over plain http it
 * travels in clear, unless to this machine (a test's fake, a local
 * proxy that speaks https onwards). The effective base is checked:
 * $DISCORD_API_BASE when set, as `fray run` reads it, else the config's. */
static void check_api_base(struct check *ck)
{
    const char *env = getenv("DISCORD_API_BASE");
    const char *base = env && *env ? env : ck->cfg.api_base;
    const char *from = env && *env ? "$DISCORD_API_BASE" : "[discord] api_base";
    if (strncasecmp(base, "http://", 7) != 0)
        return;
    const char *host = base + 7;
    size_t n = host[0] == '[' ? strcspn(host, "]") + 1 : strcspn(host, ":/");
    if (host_is_loopback(host, n))
        return;
    check_say(ck, CHECK_WARN, "discord", "%s is plain http (%.*s): the bot "
              "token would travel in clear; use https://", from,
              (int)(n < CHECK_MAX_HOST ? n : CHECK_MAX_HOST), host);
}

static void check_rules(struct check *ck)
{
    const char *dir = rs_data_dir(ck->cfg.rules_dir);
    const char *env = getenv("FRAY_RULES_DIR");
    bool chosen = ck->cfg.rules_dir[0] || (env && env[0]);
    const struct rs_system *const *all;
    struct rs_data_set set;
    char err[RS_DATA_MAX_ERR], path[RS_DATA_MAX_PATH];
    struct stat st;
    size_t n;
    int files = 0;

    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* a directory someone named must be there; ./config is only the
         * fallback for a run from the source tree */
        check_say(ck, chosen ? CHECK_FAIL : CHECK_WARN, "rules",
                  "no directory %s%s: every ruleset uses its built-in "
                  "tables", dir, chosen ? " ([rules] dir or "
                  "$FRAY_RULES_DIR)" : "");
        return;
    }
    all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        if (!all[i]->data_file)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, all[i]->data_file);
        if (stat(path, &st) == 0) {
            files++;
        } else {
            check_say(ck, CHECK_WARN, "rules", "no %s: %s uses its built-in "
                      "table", path, all[i]->id);
        }
    }
    if (rs_data_load(dir, &set, err, sizeof err) != BOT_OK) {
        check_say(ck, CHECK_FAIL, "rules", "%s", err);
        return;
    }
    rs_data_free(&set);
    check_say(ck, CHECK_OK, "rules", "%d data file%s in %s parse%s", files,
              files == 1 ? "" : "s", dir, files == 1 ? "s" : "");
}

/* The value of a base64url digit, or -1. */
static int b64url_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '-' ? 62 : c == '_' ? 63 : -1;
}

/* Why t is not a Discord bot token, or NULL. A token is three base64url
 * parts joined by dots, the first of which encodes the bot's user id (a
 * snowflake, in decimal digits): a placeholder such as the docs'
 * THE-BOT-TOKEN, a client secret or a public key fails this. */
static const char *token_problem(const char *t)
{
    char id[32];
    size_t n = 0;
    unsigned acc = 0;
    int bits = 0, dots = 0;
    const char *p = t;
    for (; *p && *p != '.'; p++) {
        int v = b64url_value(*p);
        if (v < 0 || n + 1 >= sizeof id)
            return "its first part is not a bot id in base64";
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            id[n++] = (char)((acc >> bits) & 0xFF);
        }
    }
    id[n] = '\0';
    if (n < CHECK_SNOWFLAKE_MIN_DIGITS || strspn(id, "0123456789") != n)
        return "its first part is not a bot id in base64";
    for (; *p; p++) {
        if (*p == '.')
            dots++;
        else if (b64url_value(*p) < 0)
            return "it holds characters no token has";
    }
    return dots == 2 ? NULL : "a token is three parts joined by dots";
}

/* The hint for a file fray check may not read. */
static const char *root_hint(const char *err)
{
    return strstr(err, "Permission denied") != NULL && geteuid() != 0
               ? " (the service's files are root's: run it as root, "
                 "`sudo fray check ...`)"
               : "";
}

static void check_token(struct check *ck)
{
    char err[256];
    enum token_source src;
    const char *from;
    struct stat st;
    enum bot_err e;

    e = token_load(ck->token, sizeof ck->token, &src, err, sizeof err);
    from = token_source_name(src);
    if (e == BOT_NOTFOUND) {
        e = token_load_file(CHECK_TOKEN_FILE, ck->token, sizeof ck->token,
                            err, sizeof err);
        from = CHECK_TOKEN_FILE " (fray.service's credential)";
        if (e == BOT_OK && stat(CHECK_TOKEN_FILE, &st) == 0 &&
            (st.st_mode & 077) != 0)
            check_say(ck, CHECK_WARN, "token", "%s can be read by other "
                      "users (mode %03o): chmod 600 it", CHECK_TOKEN_FILE,
                      (unsigned)(st.st_mode & 0777));
    }
    if (e == BOT_NOTFOUND) {
        check_say(ck, CHECK_FAIL, "token", "none found: not in the systemd "
                  "credential %s, $%s or %s (the setup guide, "
                  "discord-setup.md in " FRAY_DOCDIR " or in the source's "
                  "docs/, says how to get one)", TOKEN_CREDENTIAL_NAME, TOKEN_ENV,
                  CHECK_TOKEN_FILE);
        return;
    }
    if (e != BOT_OK) {
        check_say(ck, CHECK_FAIL, "token", "%s%s", err, root_hint(err));
        return;
    }
    const char *why = token_problem(ck->token);
    if (why != NULL) {
        /* Discord would refuse it at every start: no use going online. */
        check_say(ck, CHECK_FAIL, "token", "the one in the %s, %zu "
                  "characters, is not a Discord bot token (%s): copy the "
                  "whole token from the Bot page (Reset Token)", from,
                  strlen(ck->token), why);
        return;
    }
    ck->have_token = true;
    check_say(ck, CHECK_OK, "token", "found in the %s, %zu characters "
              "(not shown)", from, strlen(ck->token));
}

static void human_size(int64_t b, char *out, size_t cap)
{
    if (b < 1024)
        snprintf(out, cap, "%lld bytes", (long long)b);
    else if (b < 1024 * 1024)
        snprintf(out, cap, "%.1f KiB", (double)b / 1024);
    else
        snprintf(out, cap, "%.1f MiB", (double)b / (1024 * 1024));
}

static void check_store(struct check *ck)
{
    char loc[STORE_MAX_LOCATION + 1], shown[STORE_MAX_SHOWN];
    char err[STORE_MAX_ERR], size[32];
    struct store_info info;
    enum bot_err e;

    if (!cfg_db_location(&ck->cfg, loc, sizeof loc)) {
        check_say(ck, CHECK_FAIL, "store", "the database path is too long "
                  "(limit is %d bytes)", STORE_MAX_LOCATION);
        return;
    }
    store_location_redact(loc, shown, sizeof shown);
    e = store_inspect(loc, &info, err, sizeof err);
    if (e == BOT_NOTFOUND) {
        check_say(ck, CHECK_OK, "store", "%s %s does not exist yet: fray "
                  "creates it at its first start", info.backend, shown);
        return;
    }
    if (e != BOT_OK) {
        check_say(ck, CHECK_FAIL, "store", "%s%s", err, root_hint(err));
        return;
    }
    human_size(info.bytes, size, sizeof size);
    if (info.schema > info.schema_current)
        check_say(ck, CHECK_FAIL, "store", "%s %s: schema version %d, newer "
                  "than this fray's %d: a newer fray wrote it; this one "
                  "will refuse it", info.backend, shown, info.schema,
                  info.schema_current);
    else
        check_say(ck, CHECK_OK, "store", "%s %s: schema version %d%s, %s",
                  info.backend, shown, info.schema,
                  info.schema == info.schema_current
                      ? " (current)"
                      : " (upgraded at the next start)",
                  size);
}

int cli_check(int argc, char **argv)
{
    struct check ck;
    const char *config = NULL;
    bool online = false;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            config = argv[++i];
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            config = argv[i] + 9;
        } else if (strcmp(argv[i], "--online") == 0) {
            online = true;
        } else if (strcmp(argv[i], "--help") == 0) {
            fputs(check_usage, stdout);
            return CLI_OK;
        } else {
            fputs(check_usage, stderr);
            return CLI_USAGE;
        }
    }
    memset(&ck, 0, sizeof ck);
    ck.out = stdout;
    fprintf(ck.out, "fray %s (commit %s)\n", FRAY_VERSION, version_commit());
    if (check_config(&ck, config)) {
        check_api_base(&ck);
        check_rules(&ck);
        check_token(&ck);
        check_store(&ck);
        check_web(&ck);
        if (online && ck.have_token)
            check_online(&ck);
        else if (online)
            check_say(&ck, CHECK_FAIL, "discord", "not asked: no token");
    }
    token_wipe(ck.token, sizeof ck.token);
    fprintf(ck.out, "%s: %d failed, %d warning%s%s\n",
            ck.failures ? "NOT READY" : "ready", ck.failures, ck.warnings,
            ck.warnings == 1 ? "" : "s",
            online || ck.failures ? "" : " (--online asks Discord too)");
    return ck.failures ? CHECK_EXIT_FAIL : CHECK_EXIT_OK;
}
