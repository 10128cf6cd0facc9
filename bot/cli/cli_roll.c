/*
 * cli_roll.c - `fray roll [--seed N] [--json] [--dialect BOT] EXPR...`:
 * roll each expression and print it, as text or as JSON (one object per
 * line).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dice.h"
#include "dice_json.h"
#include "render_dice.h"
#include "seed.h"

/* A terminal takes more than Discord; past this, pools become counts. */
#define CLI_ROLL_TEXT_MAX 16384

static const char roll_usage[] =
    "usage: fray roll [--seed N] [--json] [--dialect BOT] EXPR...\n"
    "Rolls each dice expression (see docs/dice.md), e.g.\n"
    "  fray roll \"4d6kh3\" \"1d20+5 adv\" \"6x 4d6kh3 # stats\"\n"
    "--seed N (or FRAY_SEED) makes the rolls reproducible; --json prints\n"
    "every term and die as JSON, one object per expression. --dialect\n"
    "reads the dice as another bot does: fray (the default), dicemaiden,\n"
    "roll20, foundry, avrae or sidekick.\n";

struct roll_opts {
    const char *seed;
    bool json;
    enum dice_dialect dialect;
};

/* Print a parse or roll error: text to stderr, JSON to stdout. */
static void report_error(const struct roll_opts *o, const char *src,
                         size_t len, const struct dice_diag *diag)
{
    if (o->json) {
        json_t *j = dice_json_error(src, len, diag);
        if (j != NULL)
            json_dumpf(j, stdout, JSON_COMPACT);
        putchar('\n');
        json_decref(j);
        return;
    }
    char buf[1024];
    render_dice_error(buf, sizeof buf, RENDER_DICE_TEXT, I18N_EN, src, len,
                      diag);
    fputs(buf, stderr);
}

/* Parse, roll and print one expression. res has room for DICE_MAX_REPEAT
 * results. Returns false when the expression fails. */
static bool roll_one(const struct roll_opts *o, struct eng_rng *rng,
                     const char *src, struct dice_result *res, char *text)
{
    size_t len = strlen(src);
    struct dice_diag diag = {0};
    struct dice_expr *e = NULL;
    if (dice_parse_as(src, len, o->dialect, &e, &diag) != ENG_OK) {
        report_error(o, src, len, &diag);
        return false;
    }
    unsigned n = dice_expr_repeat(e);
    for (unsigned i = 0; i < n; i++) {
        if (dice_roll(e, rng, &res[i], &diag) != ENG_OK) {
            report_error(o, src, len, &diag);
            dice_expr_free(e);
            return false;
        }
    }
    bool ok = true;
    if (o->json) {
        json_t *j = dice_json_rolls(src, len, res, n);
        ok = j != NULL && json_dumpf(j, stdout, JSON_COMPACT) == 0;
        putchar('\n');
        json_decref(j);
    } else {
        render_dice(text, CLI_ROLL_TEXT_MAX, RENDER_DICE_TEXT, I18N_EN, src,
                    len, res, n);
        puts(text);
    }
    dice_expr_free(e);
    if (!ok)
        fprintf(stderr, "fray roll: out of memory\n");
    return ok;
}

int cli_roll(int argc, char **argv)
{
    struct roll_opts o = {NULL, false, DICE_DIALECT_FRAY};
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            o.json = true;
        else if (strcmp(a, "--seed") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, "fray roll: --seed needs a number\n");
                return CLI_USAGE;
            }
            o.seed = argv[++i];
        }
        else if (strncmp(a, "--seed=", 7) == 0)
            o.seed = a + 7;
        else if (strcmp(a, "--dialect") == 0) {
            const char *d = i + 1 < argc ? argv[++i] : "";
            if (!dice_dialect_parse(d, strlen(d), &o.dialect)) {
                fprintf(stderr, "fray roll: --dialect takes fray, "
                        "dicemaiden, roll20, foundry, avrae or sidekick\n");
                return CLI_USAGE;
            }
        }
        else if (strcmp(a, "--help") == 0) {
            fputs(roll_usage, stdout);
            return CLI_OK;
        } else if (strcmp(a, "--") == 0) {
            i++;
            break;
        } else if (strncmp(a, "--", 2) == 0) {
            fprintf(stderr, "fray roll: unknown option '%s'\n%s", a,
                    roll_usage);
            return CLI_USAGE;
        } else
            break;  /* expressions may start with '-' ("-1D+3") */
    }
    if (i == argc) {
        fputs(roll_usage, stderr);
        return CLI_USAGE;
    }
    uint64_t seed;
    const char *why;
    if (!seed_choose(o.seed, &seed, &why)) {
        fprintf(stderr, "fray roll: %s\n", why);
        return CLI_USAGE;
    }
    struct eng_rng rng;
    eng_rng_seed(&rng, seed);
    struct dice_result *res = malloc(DICE_MAX_REPEAT * sizeof *res);
    char *text = malloc(CLI_ROLL_TEXT_MAX);
    if (res == NULL || text == NULL) {
        free(res);
        free(text);
        fprintf(stderr, "fray roll: out of memory\n");
        return CLI_FAIL;
    }
    int status = CLI_OK;
    for (; i < argc; i++)
        if (!roll_one(&o, &rng, argv[i], res, text))
            status = CLI_FAIL;
    free(res);
    free(text);
    return status;
}
