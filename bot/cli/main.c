/*
 * main.c - the fray executable: dispatch to a subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "version.h"

typedef int cli_main_fn(int argc, char **argv);

static const struct {
    const char *name;
    cli_main_fn *fn;
    const char *help;
} subcommands[] = {
    {"roll", cli_roll, "roll dice: fray roll [--seed N] [--json] [--dialect BOT] EXPR..."},
    {"bench", cli_bench, "time the dice engine over expressions on stdin"},
    {"console", cli_console, "run fray's commands in a terminal or a script"},
    {"run", cli_run, "run the Discord bot: fray run [--config PATH]"},
    {"migrate", cli_migrate, "copy a store: fray migrate --from A --to B"},
    {"docs", cli_docs,
     "write the command reference: fray docs [--lang CODE] DIR"},
    {"check", cli_check, "is it ready to run? fray check [--config PATH] "
                         "[--online]"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: fray COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        fprintf(f, "  %-8s %s\n", subcommands[i].name, subcommands[i].help);
    fprintf(f, "\nfray --version prints the version, the git commit and the "
            "libraries' versions.\n"
            "fray check exits 0 when ready, 1 when a check failed, 2 on a "
            "bad command line.\n"
            "fray run exits 0 when stopped by a signal; 2 no token, 3 bad "
            "config, 4 database,\n"
            "14 token refused, 20-24 fatal gateway close 4010-4014 "
            "(10 + code - 4000).\n"
            "See fray(1), fray.conf(5) and docs/commands.md.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0) {
        version_print(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return subcommands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "fray: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
