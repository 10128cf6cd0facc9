/*
 * bench_rollrec - the CPU a posted roll's record costs (cmd_rollrec.h),
 * written as the daemon writes them: a group of rolls that changed nothing
 * else, committed without a flush (store_run_unsynced), with the
 * gateway's resume point in the same transaction; against the same groups
 * with the resume point alone (what such a group cost before rolls were
 * remembered). Channels hold their full CMD_ROLLREC_PER_CHANNEL records
 * before the clock starts (the steady state of a busy server).
 *
 *   build/bench-rollrec [--groups N] [--group G] [--channels C] [--dir DIR]
 *
 * Prints the process CPU time (user + system: the WAL's writes count) per
 * group of each run and the difference per record. One process, one
 * file, no network: what bench/e2e --mix roll shows as the bot's CPU per
 * answer, without the noise of a shared machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_rollrec.h"
#include "store.h"

#define BENCH_GW_KEY "gw:bench:seq"
#define BENCH_CHANNEL_BASE UINT64_C(1100000000000000200)
/* A Discord snowflake's milliseconds start at bit 22. */
#define BENCH_SNOWFLAKE_SHIFT 22

struct bench {
    struct store *store;
    struct cmd_rollrec *rec;
    int group, channels;
    int64_t now_ms;
    uint64_t next;                  /* rolls so far: ids, channels */
    int64_t seq;                    /* the resume point */
    bool records;                   /* write them, or the seq alone */
};

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The record of one "/roll dice:1d20", as cmd_roll.c's remember() fills
 * it. */
static void one_roll(struct bench *b)
{
    struct cmd_rollrec *r = b->rec;
    uint64_t n = b->next++;
    memset(r, 0, sizeof *r);
    b->now_ms++;
    snprintf(r->id, sizeof r->id, "%" PRIu64,
             ((uint64_t)b->now_ms << BENCH_SNOWFLAKE_SHIFT) | (n & 0xfff));
    r->guild = UINT64_C(1100000000000000100);
    r->channel = BENCH_CHANNEL_BASE + n % (uint64_t)b->channels;
    r->user = UINT64_C(1100000000000000300) + n % 7;
    snprintf(r->user_name, sizeof r->user_name, "Player %" PRIu64, n % 7);
    r->at_ms = b->now_ms;
    snprintf(r->expr, sizeof r->expr, "1d20");
    r->rolls = 1;
    r->total = (int64_t)(n % 20) + 1;
    snprintf(r->text, sizeof r->text, "`1d20` (%" PRId64 ") = **%" PRId64
             "**", r->total, r->total);
}

static enum bot_err group_fn(struct store *s, void *ctx)
{
    struct bench *b = ctx;
    char v[24];
    for (int i = 0; b->records && i < b->group; i++) {
        one_roll(b);
        enum bot_err e = cmd_rollrec_put(s, b->rec);
        if (e != BOT_OK)
            return e;
    }
    snprintf(v, sizeof v, "%" PRId64, ++b->seq);
    return store_kv_set(s, BENCH_GW_KEY, v);
}

static int run(struct bench *b, int groups, bool records, double *per_group)
{
    b->records = records;
    double t0 = cpu_s();
    for (int g = 0; g < groups; g++)
        if (store_run_unsynced(b->store, group_fn, b) != BOT_OK) {
            fprintf(stderr, "bench-rollrec: %s\n", store_errmsg(b->store));
            return -1;
        }
    *per_group = (cpu_s() - t0) / groups;
    return 0;
}

int main(int argc, char **argv)
{
    int groups = 2000;
    struct bench b = {.group = 16, .channels = 100,
                      .now_ms = INT64_C(1764000000000)};
    const char *dir = "/tmp";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--groups") == 0)
            groups = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--group") == 0)
            b.group = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--channels") == 0)
            b.channels = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
    }
    if (groups < 1 || b.group < 1 || b.channels < 1) {
        fprintf(stderr, "usage: bench-rollrec [--groups N] [--group G] "
                "[--channels C] [--dir DIR]\n");
        return 2;
    }
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/bench-rollrec-%ld.sqlite", dir,
             (long)getpid());
    b.rec = malloc(sizeof *b.rec);
    if (b.rec == NULL || store_open(path, &b.store, err, sizeof err) !=
                             BOT_OK) {
        fprintf(stderr, "bench-rollrec: %s\n", b.rec ? err : "no memory");
        return 1;
    }
    /* the steady state: every channel full */
    int fill_groups = (CMD_ROLLREC_PER_CHANNEL + CMD_ROLLREC_TIDY_EVERY) *
                      b.channels / b.group + 1;
    double fill, with, without;
    int rc = run(&b, fill_groups, true, &fill) ||
             run(&b, groups, true, &with) || run(&b, groups, false, &without);
    store_close(b.store);
    static const char *const files[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char f[4200];
        snprintf(f, sizeof f, "%s%s", path, files[i]);
        unlink(f);
    }
    free(b.rec);
    if (rc != 0)
        return 1;
    printf("{\"groups\":%d,\"group\":%d,\"channels\":%d,"
           "\"us_per_group_seq_only\":%.2f,\"us_per_group_with_records\":%.2f,"
           "\"us_per_record\":%.2f}\n",
           groups, b.group, b.channels, without * 1e6, with * 1e6,
           (with - without) * 1e6 / b.group);
    printf("%d groups of %d rolls over %d channels: %.1f us a group with "
           "the records, %.1f us with the resume point alone: %.2f us of "
           "CPU per record\n",
           groups, b.group, b.channels, with * 1e6, without * 1e6,
           (with - without) * 1e6 / b.group);
    return 0;
}
