/*
 * cli_console.c - `fray console [--db PATH] [--user NAME] [--gm] [--seed N]
 * [--rules DIR] [--lang CODE]`:
 * open the database, seed the dice and hand over to console.c, with a
 * prompt on a terminal or as a script reader otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "rs_data.h"
#include "console.h"
#include "eng_rng.h"
#include "seed.h"
#include "store.h"

/* Room for a database or history path built from the environment. */
#define CLI_CONSOLE_MAX_PATH 4096

/* The acting user when --user is not given; fixed so that scripts give the
 * same transcript for everyone. */
#define CLI_CONSOLE_DEFAULT_USER "gm"

static const char console_usage[] =
    "usage: fray console [--db PATH] [--user NAME] [--gm] [--seed N]\n"
    "                    [--rules DIR] [--lang CODE]\n"
    "Runs fray's slash commands in a terminal, one channel, any number of\n"
    "pretend users (see docs/console.md). With stdin not a terminal it reads\n"
    "a script and prints a transcript.\n"
    "  --db PATH    database (default $STATE_DIRECTORY/fray.db, else\n"
    "               ./var/fray.db); :memory: keeps nothing\n"
    "  --user NAME  who you are at the start (default " CLI_CONSOLE_DEFAULT_USER
    ")\n"
    "  --gm         that user has the GM's permissions\n"
    "  --seed N     make every roll reproducible (or set FRAY_SEED)\n"
    "  --rules DIR  rulesets' data files (default $FRAY_RULES_DIR, else\n"
    "               ./config); missing files mean the built-in tables\n"
    "  --lang CODE  the language fray answers in: en (default), de, fr,\n"
    "               es-ES, pt-BR, pl, or qps (the test pseudo-language)\n";

struct cli_console_opts {
    const char *db;
    const char *user;
    const char *seed;
    const char *rules;
    const char *lang;
    bool gm;
};

/* Returns CLI_OK, CLI_USAGE, or -1 after printing the help. */
static int parse_args(int argc, char **argv, struct cli_console_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        size_t len = 0;

        if (strcmp(a, "--gm") == 0) {
            o->gm = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(console_usage, stdout);
            return -1;
        }
        if (strncmp(a, "--db", 4) == 0) {
            slot = &o->db;
            len = 4;
        } else if (strncmp(a, "--user", 6) == 0) {
            slot = &o->user;
            len = 6;
        } else if (strncmp(a, "--seed", 6) == 0) {
            slot = &o->seed;
            len = 6;
        } else if (strncmp(a, "--rules", 7) == 0) {
            slot = &o->rules;
            len = 7;
        } else if (strncmp(a, "--lang", 6) == 0) {
            slot = &o->lang;
            len = 6;
        }
        if (slot != NULL && a[len] == '=') {
            *slot = a + len + 1;
        } else if (slot != NULL && a[len] == '\0' && i + 1 < argc) {
            *slot = argv[++i];
        } else {
            fprintf(stderr, "fray console: %s '%s'\n%s",
                    slot != NULL ? "missing value for" : "unknown argument",
                    a, console_usage);
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

/* --db, else $STATE_DIRECTORY/fray.db (its first entry: systemd may list
 * several, colon-separated), else ./var/fray.db (./var is created). */
static bool db_path(const char *arg, char *buf, size_t cap)
{
    const char *state = getenv("STATE_DIRECTORY");
    int n;

    if (arg != NULL)
        n = snprintf(buf, cap, "%s", arg);
    else if (state != NULL && state[0] != '\0')
        n = snprintf(buf, cap, "%.*s/fray.db", (int)strcspn(state, ":"),
                     state);
    else {
        if (mkdir("var", 0750) != 0 && errno != EEXIST) {
            fprintf(stderr, "fray console: cannot create ./var: %s\n",
                    strerror(errno));
            return false;
        }
        n = snprintf(buf, cap, "var/fray.db");
    }
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "fray console: database path too long\n");
        return false;
    }
    return true;
}

/* $HOME/.fray_history when it can be written, else NULL. */
static const char *history_path(char *buf, size_t cap)
{
    const char *home = getenv("HOME");
    int n;

    if (home == NULL || home[0] == '\0')
        return NULL;
    n = snprintf(buf, cap, "%s/.fray_history", home);
    if (n < 0 || (size_t)n >= cap)
        return NULL;
    if (access(buf, W_OK) == 0 || (errno == ENOENT && access(home, W_OK) == 0))
        return buf;
    return NULL;
}

int cli_console(int argc, char **argv)
{
    struct cli_console_opts o = {NULL, CLI_CONSOLE_DEFAULT_USER, NULL, NULL,
                                 NULL, false};
    enum i18n_lang lang = I18N_EN;
    struct rs_data_set rules;
    char path[CLI_CONSOLE_MAX_PATH], hist[CLI_CONSOLE_MAX_PATH];
    char err[STORE_MAX_ERR > RS_DATA_MAX_ERR ? STORE_MAX_ERR : RS_DATA_MAX_ERR];
    struct store *store = NULL;
    struct eng_rng rng;
    struct console con;
    const char *why;
    uint64_t seed;
    bool script = !isatty(STDIN_FILENO);
    enum console_status st;
    int rc = parse_args(argc, argv, &o);

    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (o.lang != NULL && !i18n_from_code(o.lang, &lang)) {
        fprintf(stderr, "fray console: --lang is one of en, de, fr, es-ES, "
                "pt-BR, pl, qps (got '%.20s')\n", o.lang);
        return CLI_USAGE;
    }
    if (!seed_choose(o.seed, &seed, &why)) {
        fprintf(stderr, "fray console: %s\n", why);
        return CLI_USAGE;
    }
    eng_rng_seed(&rng, seed);
    if (rs_data_load(rs_data_dir(o.rules), &rules, err, sizeof err) !=
        BOT_OK) {
        fprintf(stderr, "fray console: %s\n", err);
        return CLI_FAIL;
    }
    if (!db_path(o.db, path, sizeof path)) {
        rs_data_free(&rules);
        return CLI_FAIL;
    }
    if (store_open(path, &store, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "fray console: %s\n", err);
        rs_data_free(&rules);
        return CLI_FAIL;
    }
    if (!console_init(&con, store, &rng, stdout, o.user, o.gm, script)) {
        fprintf(stderr, "fray console: --user wants 1 to %d bytes of text\n",
                CONSOLE_MAX_USER_NAME);
        store_close(store);
        rs_data_free(&rules);
        return CLI_USAGE;
    }
    con.ctx.rs_data = &rules;
    con.lang = lang;
    con.location = path;
    if (script)
        st = console_script(&con, stdin);
    else
        st = console_interactive(&con, history_path(hist, sizeof hist));
    store_close(con.ctx.store);     /* :restart may have opened another */
    rs_data_free(&rules);
    if (fflush(stdout) != 0 || st == CONSOLE_FATAL) {
        fprintf(stderr, "fray console: stopped: out of memory or output "
                "failed\n");
        return CLI_FAIL;
    }
    return CLI_OK;
}
