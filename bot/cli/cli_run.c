/*
 * cli_run.c - `fray run [--config PATH]`: load config and token, then run
 * the daemon (daemon.h). Without a token it explains how to get one and
 * opens the console instead.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "daemon.h"
#include "harden.h"
#include "log.h"
#include "token.h"

static const char no_token_help[] =
    "fray: no Discord bot token ($DISCORD_TOKEN), so not connecting to "
    "Discord.\n"
    "To run it as your own bot (docs/discord-setup.md, step by step):\n"
    "  1. https://discord.com/developers/applications -> New Application;\n"
    "     on its Bot page: Reset Token, and copy the token.\n"
    "  2. Invite the bot to your server: OAuth2 -> URL Generator, scopes\n"
    "     bot and applications.commands (the guide has a ready link).\n"
    "  3. Start fray with the token, typed at a prompt so that it stays\n"
    "     out of your shell history:\n"
    "       read -rsp 'token: ' DISCORD_TOKEN && export DISCORD_TOKEN && ./scripts/run\n"
    "     (in a checkout; with the Debian package, write it to\n"
    "     /etc/fray/discord-token and `systemctl restart fray`).\n";

static void usage(FILE *f)
{
    fprintf(f, "usage: fray run [--config PATH]\n");
}

int cli_run(int argc, char **argv)
{
    const char *config = NULL;
    struct cfg c;
    struct log lg;
    char err[CFG_MAX_ERR], tok[TOKEN_MAX_LEN + 8];
    enum token_source src;
    enum bot_err e;
    int rc;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
            config = argv[++i];
        } else if (strncmp(argv[i], "--config=", 9) == 0) {
            config = argv[i] + 9;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return CLI_OK;
        } else {
            usage(stderr);
            return CLI_USAGE;
        }
    }
    if (config)
        e = cfg_load(&c, config, err, sizeof err);
    else
        e = (cfg_defaults(&c), BOT_OK);
    if (e != BOT_OK) {
        fprintf(stderr, "fray: %s\n", err);
        return DAEMON_EXIT_CONFIG;
    }
    log_init(&lg, stderr, c.log_level);
    if (strcmp(c.log_format, "auto") != 0)   /* else $JOURNAL_STREAM says */
        log_set_journal(&lg, strcmp(c.log_format, "journal") == 0);

    /* Before the token is read: from here on no core file and no other
     * user's ptrace or /proc/<pid>/mem can see it. */
    if (harden_process(err, sizeof err) != BOT_OK)
        log_msg(&lg, LOG_LVL_WARN, "%s", err);
    e = token_load(tok, sizeof tok, &src, err, sizeof err);
    /* Whatever came of it, the variable has served: clear it before the
     * long run, so /proc/<pid>/environ no longer shows the token. */
    token_env_clear();
    if (e == BOT_NOTFOUND) {
        fputs(no_token_help, stderr);
        /* only a person at a terminal gets the console; a service (stdin
         * /dev/null) stops with its own exit status */
        if (isatty(STDIN_FILENO)) {
            char *cargv[] = {"console", NULL};
            fputs("Opening the console instead.\n", stderr);
            return cli_console(1, cargv);
        }
        return DAEMON_EXIT_NO_TOKEN;
    }
    if (e != BOT_OK) {
        log_msg(&lg, LOG_LVL_ERR, "token: %s", err);
        return DAEMON_EXIT_CONFIG;
    }
    log_set_secret(&lg, tok);
    log_msg(&lg, LOG_LVL_INFO, "fray %s starting (token from %s)",
            FRAY_VERSION, token_source_name(src));
    rc = daemon_run(&c, tok, &lg);
    token_wipe(tok, sizeof tok);
    log_cleanup(&lg);
    return rc;
}
