/*
 * cli_bench.c - `fray bench`: time the dice engine over expressions read
 * from stdin, one per line (blank lines and lines starting with '#' are
 * skipped). Prints one JSON line per expression,
 *   {"expr": "1d20+5", "iterations": N, "ns_per_roll": X}
 * then a total line with the median and mean. --mode full parses and rolls
 * every iteration (dice_eval_string, what a chat command costs);
 * --mode preparsed parses once and times dice_roll alone. Each expression
 * runs --iterations times or until --max-seconds have passed, from the same
 * seed, so runs are repeatable.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "dice.h"
#include "seed.h"

#define BENCH_DEFAULT_ITERATIONS 100000
#define BENCH_MAX_ITERATIONS 1000000000L
#define BENCH_DEFAULT_SECONDS 2.0
#define BENCH_MAX_SECONDS 3600.0
/* Iterations between two looks at the clock. */
#define BENCH_BATCH 256
/* Untimed iterations first, to warm caches and branch predictors. */
#define BENCH_WARMUP 1000
/* Expressions read from one input. */
#define BENCH_MAX_EXPRS 10000
/* Seed used when none is given, so that two runs time the same rolls. */
#define BENCH_DEFAULT_SEED 1
/* Significant digits of the reported timings. */
#define BENCH_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(6))

static const char bench_usage[] =
    "usage: fray bench [--iterations N] [--max-seconds S]\n"
    "                  [--mode full|preparsed] [--seed N] < expressions.txt\n"
    "Times each dice expression on stdin (one per line) and prints JSON lines\n"
    "with ns_per_roll, then a total line with the median and mean.\n";

struct bench_opts {
    long iterations;
    double max_seconds;
    bool preparsed;
    uint64_t seed;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Run iterations rolls of one expression (e when preparsed, else src);
 * returns the sum of totals so the work cannot be optimised away. */
static uint64_t run(const struct bench_opts *o, const struct dice_expr *e,
                    const char *src, size_t len, struct eng_rng *rng,
                    struct dice_result *res, long iterations)
{
    uint64_t sink = 0;
    for (long i = 0; i < iterations; i++) {
        if (o->preparsed)
            dice_roll(e, rng, res, NULL);
        else
            dice_eval_string(src, len, rng, res, NULL);
        sink += (uint64_t)res->total + res->n_dice;
    }
    return sink;
}

static void print_json(json_t *j)
{
    if (j != NULL)
        json_dumpf(j, stdout, BENCH_JSON_FLAGS);
    putchar('\n');
    json_decref(j);
}

/* Time one expression; returns false (after printing why) if it does not
 * parse or roll. */
static bool bench_one(const struct bench_opts *o, const char *src, size_t len,
                      struct dice_result *res, double *ns_per_roll)
{
    struct dice_diag diag = {0};
    struct dice_expr *e = NULL;
    struct eng_rng rng;
    eng_rng_seed(&rng, o->seed);
    enum eng_err err = dice_parse(src, len, &e, &diag);
    if (err == ENG_OK)
        err = dice_roll(e, &rng, res, &diag);
    if (err != ENG_OK) {
        print_json(json_pack("{s:s%, s:s}", "expr", src, len, "error",
                             diag.msg));
        dice_expr_free(e);
        return false;
    }
    volatile uint64_t sink = run(o, e, src, len, &rng, res,
                                 o->iterations < BENCH_WARMUP ? o->iterations
                                                              : BENCH_WARMUP);
    eng_rng_seed(&rng, o->seed);
    double start = now_ns(), limit = o->max_seconds * 1e9, elapsed = 0;
    long done = 0;
    while (done < o->iterations) {
        long batch = o->iterations - done;
        batch = batch < BENCH_BATCH ? batch : BENCH_BATCH;
        sink += run(o, e, src, len, &rng, res, batch);
        done += batch;
        elapsed = now_ns() - start;
        if (elapsed > limit)
            break;
    }
    (void)sink;
    dice_expr_free(e);
    *ns_per_roll = elapsed / (double)done;
    print_json(json_pack("{s:s%, s:I, s:f}", "expr", src, len, "iterations",
                         (json_int_t)done, "ns_per_roll", *ns_per_roll));
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool parse_opts(int argc, char **argv, struct bench_opts *o)
{
    const char *seed = NULL;
    *o = (struct bench_opts){BENCH_DEFAULT_ITERATIONS, BENCH_DEFAULT_SECONDS,
                             false, BENCH_DEFAULT_SEED};
    /* every option takes a value: step over both */
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        errno = 0;
        if (strcmp(a, "--iterations") == 0 && v != NULL) {
            o->iterations = strtol(v, &end, 10);
            if (errno != 0 || *end != '\0' || o->iterations < 1 ||
                o->iterations > BENCH_MAX_ITERATIONS)
                return false;
        } else if (strcmp(a, "--max-seconds") == 0 && v != NULL) {
            o->max_seconds = strtod(v, &end);
            if (errno != 0 || *end != '\0' || !(o->max_seconds > 0) ||
                o->max_seconds > BENCH_MAX_SECONDS)
                return false;
        } else if (strcmp(a, "--mode") == 0 && v != NULL) {
            if (strcmp(v, "full") != 0 && strcmp(v, "preparsed") != 0)
                return false;
            o->preparsed = strcmp(v, "preparsed") == 0;
        } else if (strcmp(a, "--seed") == 0 && v != NULL) {
            seed = v;
        } else
            return false;
    }
    return seed == NULL || seed_parse(seed, &o->seed);
}

int cli_bench(int argc, char **argv)
{
    struct bench_opts o;
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        fputs(bench_usage, stdout);
        return CLI_OK;
    }
    if (!parse_opts(argc, argv, &o)) {
        fputs(bench_usage, stderr);
        return CLI_USAGE;
    }
    struct dice_result *res = malloc(sizeof *res);
    double *times = malloc(BENCH_MAX_EXPRS * sizeof *times);
    char *line = NULL;
    size_t cap = 0, n = 0;
    int status = CLI_OK;
    if (res == NULL || times == NULL) {
        fprintf(stderr, "fray bench: out of memory\n");
        status = CLI_FAIL;
        goto out;
    }
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        size_t len = (size_t)got;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        line[len] = '\0';
        size_t lead = strspn(line, " \t");
        if (line[lead] == '\0' || line[lead] == '#')
            continue;
        if (n == BENCH_MAX_EXPRS) {
            fprintf(stderr, "fray bench: too many expressions (limit is %d)\n",
                    BENCH_MAX_EXPRS);
            status = CLI_FAIL;
            break;
        }
        if (bench_one(&o, line, len, res, &times[n]))
            n++;
        else
            status = CLI_FAIL;
    }
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += times[i];
    qsort(times, n, sizeof *times, cmp_double);
    double median = n == 0 ? 0
                    : n % 2 ? times[n / 2]
                            : (times[n / 2 - 1] + times[n / 2]) / 2;
    print_json(json_pack("{s:b, s:s, s:I, s:f, s:f}", "total", 1, "mode",
                         o.preparsed ? "preparsed" : "full", "expressions",
                         (json_int_t)n, "median_ns_per_roll", median,
                         "mean_ns_per_roll", n == 0 ? 0 : sum / (double)n));
out:
    free(line);
    free(res);
    free(times);
    return status;
}
