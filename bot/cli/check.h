/*
 * check.h - `fray check [--config PATH] [--online]`: is this installation
 * ready to run? One line per finding on stdout, each starting with "ok",
 * "warn" or "FAIL", in words a GM can act on. Nothing is changed: the
 * config and the rules data are parsed, the token is found and checked for
 * shape (never printed), the database is looked at read-only (store.h,
 * store_inspect), and with --online Discord is asked who the token belongs
 * to (GET /users/@me), what the application allows (GET
 * /applications/@me: its privileged intents) and how many session starts
 * are left (GET /gateway/bot). A plain http:// api_base is a warning (the
 * token would travel in clear) unless its host is this machine's
 * (localhost, 127.0.0.0/8, ::1).
 *
 * Exit status: CHECK_EXIT_OK when nothing failed (warnings allowed),
 * CHECK_EXIT_FAIL when something did, CLI_USAGE (2) for a bad command
 * line.
 *
 * Ownership: a struct check lives on cli_check()'s stack; the token it
 * holds is wiped before it returns.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cfg.h"
#include "token.h"

#define CHECK_EXIT_OK 0
#define CHECK_EXIT_FAIL 1
/* Where fray.service's LoadCredential= reads the token; `fray check` run by
 * hand (no credential, no $DISCORD_TOKEN) looks there. */
#define CHECK_TOKEN_FILE FRAY_CONFDIR "/" TOKEN_CREDENTIAL_NAME
/* The config the units pass to `fray run --config`. */
#define CHECK_SERVICE_CONFIG FRAY_CONFDIR "/fray.conf"
/* The fewest digits of a bot's id in a token's first part (Discord's
 * first snowflakes, from 2015, have 17). */
#define CHECK_SNOWFLAKE_MIN_DIGITS 17
/* Fewer session starts left than this is worth a warning: each new
 * gateway session (not a resume) takes one, 1,000 a day for most bots. */
#define CHECK_FEW_STARTS 50
/* The longest host name of an api_base looked at (a DNS name). */
#define CHECK_MAX_HOST 253
/* --online: how long to wait for Discord's three answers, at most. */
#define CHECK_ONLINE_WAIT_MS 30000

enum check_level { CHECK_OK, CHECK_WARN, CHECK_FAIL };

struct check {
    FILE *out;
    struct cfg cfg;
    bool have_token;
    char token[TOKEN_MAX_LEN + 8];
    int warnings, failures;
};

/* check_say.c: one finding, "ok    what: text" (warn, FAIL alike). */
void check_say(struct check *ck, enum check_level lvl, const char *what,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* check_online.c: the --online part; needs ck->have_token. */
void check_online(struct check *ck);

/* check_web.c: the shared pages' listener ([web] listen). */
void check_web(struct check *ck);

#endif
