/*
 * bench_commands - commands per second through the command layer.
 *
 * Runs a scripted 8-combatant generic fight (setup, then rounds of attacks,
 * hp changes, conditions and turn ends) through cmd_exec(), exactly as the
 * console and the daemon do, and prints one JSON line per store: in memory
 * (the engine and command layer alone) and a real SQLite file with the
 * daemon's durability (synchronous=FULL, one commit per command).
 *
 *   build/bench-commands [--commands N] [--dir DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "enc_cache.h"
#include "eng_rng.h"
#include "store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(struct cmd_ctx *ctx, uint64_t channel, const char *command,
                const char *sub, const char *const *opts, long *errors)
{
    struct cmd_req req = {.command = command, .sub = sub,
                          .channel_id = channel, .user_id = 1,
                          .user_name = "gm", .expect_version = -1};
    for (int i = 0; opts != NULL && opts[i] != NULL; i += 2) {
        req.opts[req.nopts].name = opts[i];
        req.opts[req.nopts].value = opts[i + 1];
        req.nopts++;
    }
    struct cmd_reply reply;
    cmd_exec(ctx, &req, &reply);
    if (reply.is_error)
        (*errors)++;
    cmd_reply_cleanup(&reply);
}

/* One fight: 4 setup commands, then rounds of 8 turns with 3 commands per
 * turn, until n commands were run. Returns the commands run. */
static long fight(struct cmd_ctx *ctx, uint64_t channel, long n, long *errors)
{
    static const char *const start[] = {"system", "generic", NULL};
    static const char *const orcs[] = {"name", "Orc", "count", "4", "hp",
                                       "1000000", "stats",
                                       "ac=12 init=1 attack=3", NULL};
    static const char *const heroes[] = {"name", "Hero", "count", "4", "hp",
                                         "1000000", "stats",
                                         "ac=15 init=3 attack=5", NULL};
    static const char *const attack[] = {"attacker", "Hero 1", "target",
                                         "Orc 1", "damage", "1d8+3", NULL};
    static const char *const hp[] = {"name", "Hero 2", "change", "-1", NULL};
    long done = 0;
    run(ctx, channel, "combat", "start", start, errors);
    run(ctx, channel, "combat", "add", orcs, errors);
    run(ctx, channel, "combat", "add", heroes, errors);
    run(ctx, channel, "combat", "begin", NULL, errors);
    done += 4;
    while (done < n) {
        run(ctx, channel, "attack", NULL, attack, errors);
        run(ctx, channel, "combat", "hp", hp, errors);
        run(ctx, channel, "combat", "next", NULL, errors);
        done += 3;
    }
    static const char *const none[] = {NULL};
    run(ctx, channel, "combat", "end", none, errors);
    return done + 1;
}

static int bench(const char *label, const char *path, long n)
{
    struct store *st = NULL;
    char err[256];
    if (store_open(path, &st, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "bench-commands: %s\n", err);
        return 1;
    }
    struct eng_rng rng;
    eng_rng_seed(&rng, 42);
    struct enc_cache *cache = NULL;
    if (enc_cache_new(0, 0, &cache) != BOT_OK)
        return 1;
    struct cmd_ctx ctx = {.store = st, .rng = &rng, .cache = cache};
    long errors = 0;
    double t0 = now_s();
    long done = fight(&ctx, 1, n, &errors);
    double dt = now_s() - t0;
    store_close(st);
    enc_cache_free(cache);
    printf("{\"store\": \"%s\", \"commands\": %ld, \"seconds\": %.3f, "
           "\"commands_per_second\": %.0f, \"us_per_command\": %.2f, "
           "\"errors\": %ld}\n", label, done, dt, done / dt, dt * 1e6 / done,
           errors);
    return errors != 0;
}

int main(int argc, char **argv)
{
    long n = 100000, nfile = 5000;
    const char *dir = "/tmp";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--commands") == 0)
            n = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--file-commands") == 0)
            nfile = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
    }
    int rc = bench("memory", ":memory:", n);
    char path[512];
    snprintf(path, sizeof path, "%s/fray-bench-%d.db", dir, (int)getpid());
    rc |= bench("sqlite-file synchronous=FULL", path, nfile);
    char side[600];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    snprintf(side, sizeof side, "%s.lock", path);
    unlink(side);
    return rc;
}
