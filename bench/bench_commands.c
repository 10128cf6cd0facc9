/*
 * bench_commands - commands per second through the command layer.
 *
 * Runs a scripted 8-combatant generic fight (setup, then rounds of attacks,
 * hp changes and turn ends) through cmd_exec(), exactly as the console and
 * the daemon do (with the daemon's encounter cache), single-threaded, and
 * prints for each run one JSON line and one line for people:
 *
 *   memory       the store in memory: the engine and command layer alone
 *   sqlite-file  a real SQLite file with the daemon's durability
 *                (synchronous=FULL), one commit per command
 *   disk         --disk-commands commands (1,000) into a fresh file, one
 *                commit per command, as fights of --fight-commands (100)
 *                commands each, ended (archived: each keeps its final state
 *                and undo chain until retention), one channel after the
 *                other; then, in another fresh file, the same commands as
 *                one long fight ("disk-long", whose kept history is capped
 *                at ENC_UNDO_DEPTH versions). For each: the file's size,
 *                WAL included, after the store closed (SQLite checkpoints
 *                then), and per 1,000 commands
 *   attack       issue 33's history attack: one long fight of 1,000,000-hp
 *                combatants where every change is an attack with a long
 *                exploding damage expression, --attack-commands (1,000)
 *                and then twice as many into fresh files; the file's size
 *                after each, WAL included, after the store closed (a
 *                bounded history stays near its bound, [fights]
 *                history_max_kb, however long the fight); with
 *                --keep-db PATH, --attack-commands changes into PATH alone,
 *                kept (bench/log-storm's fight, channel 1000)
 *   group-N      the same file with N channels fighting at once: one
 *                command of every channel arrives together, and they are
 *                committed as groups of at most DAEMON_BATCH_MAX (the
 *                daemon's group commit), replies counted only after their
 *                group's commit
 *
 * Every run starts from the same seed, so runs are repeatable.
 *
 *   build/bench-commands [--commands N] [--file-commands N]
 *                        [--disk-commands N] [--fight-commands N]
 *                        [--group-commands N] [--attack-commands N]
 *                        [--dir DIR] [--keep-db PATH]
 *                        [--only memory|sqlite-file|disk|group|attack]
 *                        [--lang CODE]
 *
 * --lang sends the memory and sqlite-file runs' commands as from a reader
 * and a server of that language (i18n.h: de, fr, es-ES, pt-BR, pl, qps),
 * for the translation layer's cost against English
 * (docs/internals/i18n.md).
 *
 * --only runs one of them, e.g. under valgrind --tool=callgrind
 * --toggle-collect=cmd_exec for the instructions of a durable command.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "daemon.h"
#include "enc_cache.h"
#include "enc_event.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "store.h"

#define BENCH_SEED 42
#define BENCH_FIRST_CHANNEL 1000
#define BENCH_MAX_CHANNELS 100
/* Commands before the fight's rounds: start, two adds, begin. */
#define BENCH_SETUP_STEPS 4

static const int group_channels[] = {1, 10, BENCH_MAX_CHANNELS};

struct bench {
    struct store *store;
    struct enc_cache *cache;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    long errors;
    enum i18n_lang lang;     /* --lang: the request's languages */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(struct bench *b, uint64_t channel, const char *command,
                const char *sub, const char *const *opts)
{
    struct cmd_req req = {.command = command, .sub = sub,
                          .channel_id = channel, .user_id = 1,
                          .user_name = "gm", .expect_version = -1,
                          .lang = b->lang, .guild_lang = b->lang};
    for (int i = 0; opts != NULL && opts[i] != NULL; i += 2) {
        req.opts[req.nopts].name = opts[i];
        req.opts[req.nopts].value = opts[i + 1];
        req.nopts++;
    }
    struct cmd_reply reply;
    cmd_exec(&b->ctx, &req, &reply);
    if (reply.is_error)
        b->errors++;
    cmd_reply_cleanup(&reply);
}

/* Step `step` of a channel's fight: 4 setup commands, then turns of an
 * attack, an hp change and the end of the turn, for ever. */
static void fight_step(struct bench *b, uint64_t channel, long step)
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
    switch (step < BENCH_SETUP_STEPS ? step
                                     : BENCH_SETUP_STEPS +
                                           (step - BENCH_SETUP_STEPS) % 3) {
    case 0: run(b, channel, "combat", "start", start); break;
    case 1: run(b, channel, "combat", "add", orcs); break;
    case 2: run(b, channel, "combat", "add", heroes); break;
    case 3: run(b, channel, "combat", "begin", NULL); break;
    case 4: run(b, channel, "attack", NULL, attack); break;
    case 5: run(b, channel, "combat", "hp", hp); break;
    default: run(b, channel, "combat", "next", NULL); break;
    }
}

static int bench_open(struct bench *b, const char *path)
{
    char err[256];
    memset(b, 0, sizeof *b);
    if (store_open(path, &b->store, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "bench-commands: %s\n", err);
        return -1;
    }
    if (enc_cache_new(0, 0, &b->cache) != BOT_OK) {
        store_close(b->store);
        return -1;
    }
    eng_rng_seed(&b->rng, BENCH_SEED);
    b->ctx = (struct cmd_ctx){.store = b->store, .rng = &b->rng,
                              .cache = b->cache};
#ifdef CMD_CTX_HAS_RESULT
    /* as the daemon does: one result buffer for all the commands (a tree
     * from before it allocated one per command) */
    b->ctx.result = malloc(sizeof *b->ctx.result);
#endif
    return 0;
}

static void bench_close(struct bench *b)
{
    store_close(b->store);
    enc_cache_free(b->cache);
#ifdef CMD_CTX_HAS_RESULT
    free(b->ctx.result);
#endif
}

static void report(const char *label, int channels, long done, long commits,
                   double dt, long errors)
{
    printf("{\"run\": \"%s\", \"channels\": %d, \"commands\": %ld, "
           "\"commits\": %ld, \"seconds\": %.3f, "
           "\"commands_per_second\": %.0f, \"us_per_command\": %.2f, "
           "\"errors\": %ld}\n", label, channels, done, commits, dt,
           done / dt, dt * 1e6 / done, errors);
    printf("# %-12s %3d channel%s %7ld commands in %6ld commits: %8.0f "
           "commands/s (%.1f us each)\n", label, channels,
           channels == 1 ? " " : "s", done, commits, done / dt,
           dt * 1e6 / done);
}

/* The database's bytes on disk after the store closed: the file and
 * whatever is left of its WAL. */
static void report_size(const char *label, const char *path, long done)
{
    char wal[600];
    struct stat st;
    long long db = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    snprintf(wal, sizeof wal, "%s-wal", path);
    long long w = stat(wal, &st) == 0 ? (long long)st.st_size : 0;
    printf("{\"run\": \"%s\", \"commands\": %ld, \"db_bytes\": %lld, "
           "\"wal_bytes\": %lld, \"bytes_per_1000_commands\": %.0f}\n",
           label, done, db, w, (double)(db + w) * 1000.0 / (double)done);
    printf("# %-12s on disk after closing: %lld bytes (WAL %lld), %.0f "
           "bytes per 1,000 commands\n", label, db + w, w,
           (double)(db + w) * 1000.0 / (double)done);
}

/* Step `step` of the history attack: start, two adds, begin, then
 * attacks on each of four orcs in turn, each with every die of a long
 * exploding expression in its history line. */
static void attack_step(struct bench *b, uint64_t channel, long step)
{
    static const char *const start[] = {"system", "generic", NULL};
    static const char *const orcs[] = {"name", "Orc", "count", "4", "hp",
                                       "1000000", "hidden", "true",
                                       "stats", "ac=2 init=1 attack=3",
                                       NULL};
    static const char *const hero[] = {"name", "Hero", "hp", "1000000",
                                       "stats", "ac=15 init=3 attack=5",
                                       NULL};
    static const char *const targets[] = {"Orc 1", "Orc 2", "Orc 3",
                                          "Orc 4"};
    const char *attack[] = {"attacker", "Hero", "target", NULL, "damage",
                            "90d4!+90d6!+90d8!+90d10!+90d12!+90d20!+90d4!+90d6!+3", NULL};
    switch (step) {
    case 0: run(b, channel, "combat", "start", start); break;
    case 1: run(b, channel, "combat", "add", orcs); break;
    case 2: run(b, channel, "combat", "add", hero); break;
    case 3: run(b, channel, "combat", "begin", NULL); break;
    default:
        attack[3] = targets[step % 4];
        run(b, channel, "attack", NULL, attack);
        break;
    }
}

/* The history attack: n changes into a fresh file; its size after. */
static int bench_attack(const char *path, long n)
{
    struct bench b;
    if (bench_open(&b, path) != 0)
        return 1;
    double t0 = now_s();
    for (long step = 0; step < n; step++)
        attack_step(&b, BENCH_FIRST_CHANNEL, step);
    double dt = now_s() - t0;
    long errors = b.errors;
    bench_close(&b);
    char label[32];
    snprintf(label, sizeof label, "attack-%ld", n);
    report(label, 1, n, n, dt, errors);
    report_size(label, path, n);
    return errors != 0;
}

/* One fight in one channel, each command its own transaction, then the
 * fight's end: n + 1 commands. */
static int bench_single(const char *label, const char *path, long n,
                        enum i18n_lang lang)
{
    struct bench b;
    if (bench_open(&b, path) != 0)
        return 1;
    b.lang = lang;
    static const char *const confirm[] = {"confirm", "true", NULL};
    double t0 = now_s();
    long done = 0;
    for (; done < n; done++)
        fight_step(&b, BENCH_FIRST_CHANNEL, done);
    double t_end = now_s();
    char *doc = NULL;
    int64_t version = 0;
    size_t doc_bytes = 0, packed = 0, working = 0;
    struct encounter *e = NULL;
    char why[160];
    if (store_enc_load(b.store, BENCH_FIRST_CHANNEL, &doc, &version) ==
        BOT_OK) {
        doc_bytes = strlen(doc);
        if (enc_json_load(doc, &e, why, sizeof why) == BOT_OK) {
            packed = enc_cache_cost(e);
            working = sizeof *e + (size_t)e->ncs * sizeof e->cs[0];
        }
        enc_free(e);
    }
    free(doc);
    t0 += now_s() - t_end;      /* the look at the document is not timed */
    run(&b, BENCH_FIRST_CHANNEL, "combat", "end", confirm);
    done++;
    double dt = now_s() - t0;
    long errors = b.errors;
    bench_close(&b);
    report(label, 1, done, done, dt, errors);
    if (strcmp(path, ":memory:") != 0)
        report_size(label, path, done);
    printf("# %-12s the fight's stored document: %zu bytes\n", label,
           doc_bytes);
    printf("# %-12s the fight in the encounter cache: %zu bytes packed "
           "(block and entry; the working struct: %zu bytes)\n", label,
           packed, working);
    return errors != 0;
}

/* total commands as fights of per_fight commands (the last one the
 * fight's end), one channel after the other; the file's size after. */
static int bench_disk(const char *label, const char *path, long total,
                      long per_fight)
{
    static const char *const confirm[] = {"confirm", "true", NULL};
    struct bench b;
    if (bench_open(&b, path) != 0)
        return 1;
    double t0 = now_s();
    long done = 0;
    for (uint64_t ch = BENCH_FIRST_CHANNEL; done < total; ch++) {
        long n = per_fight < total - done ? per_fight : total - done;
        for (long step = 0; step < n - 1; step++)
            fight_step(&b, ch, step);
        run(&b, ch, "combat", "end", confirm);
        done += n;
    }
    double dt = now_s() - t0;
    long errors = b.errors;
    bench_close(&b);
    report(label, 1, done, done, dt, errors);
    report_size(label, path, done);
    return errors != 0;
}

/* `channels` fights at once: in each round every channel sends its next
 * command; the round is committed in groups of at most DAEMON_BATCH_MAX,
 * each command in its own inner transaction, as the daemon does. */
static int bench_group(const char *path, int channels, long n)
{
    struct bench b;
    if (bench_open(&b, path) != 0)
        return 1;
    long done = 0, commits = 0;
    double t0 = now_s();
    for (long step = 0; done < n; step++) {
        for (int first = 0; first < channels && done < n;
             first += DAEMON_BATCH_MAX) {
            if (store_begin(b.store) != BOT_OK) {
                fprintf(stderr, "bench-commands: %s\n",
                        store_errmsg(b.store));
                bench_close(&b);
                return 1;
            }
            int k = first;
            for (; k < channels && k < first + DAEMON_BATCH_MAX && done < n;
                 k++, done++)
                fight_step(&b, BENCH_FIRST_CHANNEL + (uint64_t)k, step);
            if (store_commit(b.store) != BOT_OK) {
                fprintf(stderr, "bench-commands: %s\n",
                        store_errmsg(b.store));
                bench_close(&b);
                return 1;
            }
            commits++;
        }
    }
    double dt = now_s() - t0;
    long errors = b.errors;
    bench_close(&b);
    char label[32];
    snprintf(label, sizeof label, "group-%d", channels);
    report(label, channels, done, commits, dt, errors);
    return errors != 0;
}

static void remove_db(const char *path)
{
    static const char *const sides[] = {"", "-wal", "-shm", ".lock"};
    char p[600];
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        snprintf(p, sizeof p, "%s%s", path, sides[i]);
        unlink(p);
    }
}

int main(int argc, char **argv)
{
    long n = 100000, nfile = 5000, ndisk = 1000, nfight = 100;
    long ngroup = 20000, nattack = 1000;
    const char *dir = "/tmp", *only = NULL, *keep_db = NULL;
    enum i18n_lang lang = I18N_EN;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--commands") == 0)
            n = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--file-commands") == 0)
            nfile = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--group-commands") == 0)
            ngroup = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--disk-commands") == 0)
            ndisk = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--attack-commands") == 0)
            nattack = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--fight-commands") == 0)
            nfight = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--keep-db") == 0)
            keep_db = argv[i + 1];
        else if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
        else if (strcmp(argv[i], "--only") == 0)
            only = argv[i + 1];
        else if (strcmp(argv[i], "--lang") == 0 &&
                 !i18n_from_code(argv[i + 1], &lang)) {
            fprintf(stderr, "bench-commands: --lang takes en, de, fr, "
                    "es-ES, pt-BR, pl or qps\n");
            return 2;
        }
    }
    if (n < 1 || nfile < 1 || ndisk < 2 || nfight < 2 || ngroup < 1 ||
        nattack < 5) {
        fprintf(stderr, "bench-commands: counts must be positive "
                "(--disk-commands and --fight-commands at least 2, "
                "--attack-commands at least 5)\n");
        return 2;
    }
    static const char *const runs[] = {"memory", "sqlite-file", "disk",
                                       "group", "attack"};
    enum { NRUNS = sizeof runs / sizeof runs[0] };
    bool want[NRUNS];
    bool known = only == NULL;
    for (size_t i = 0; i < NRUNS; i++) {
        want[i] = only == NULL || strcmp(only, runs[i]) == 0;
        known |= want[i];
    }
    if (!known) {
        fprintf(stderr, "bench-commands: --only takes memory, sqlite-file, "
                "disk, group or attack\n");
        return 2;
    }
    printf("# %s --commands %ld --file-commands %ld --disk-commands %ld "
           "--fight-commands %ld --group-commands %ld --dir %s%s%s (seed %d, "
           "groups of at most %d)\n", argv[0], n, nfile, ndisk, nfight,
           ngroup, dir, only ? " --only " : "", only ? only : "", BENCH_SEED,
           DAEMON_BATCH_MAX);
    fflush(stdout);
    int rc = want[0] ? bench_single("memory", ":memory:", n, lang) : 0;
    char path[512];
    snprintf(path, sizeof path, "%s/fray-bench-%d.db", dir, (int)getpid());
    remove_db(path);
    if (want[1])
        rc |= bench_single("sqlite-file", path, nfile, lang);
    remove_db(path);
    if (want[2]) {
        rc |= bench_disk("disk", path, ndisk, nfight);
        remove_db(path);
        rc |= bench_disk("disk-long", path, ndisk, ndisk);
    }
    remove_db(path);
    if (want[4] && keep_db != NULL) {
        /* one run, kept: bench/log-storm's long fight */
        remove_db(keep_db);
        return bench_attack(keep_db, nattack);
    }
    if (want[4]) {
        rc |= bench_attack(path, nattack);
        remove_db(path);
        rc |= bench_attack(path, 2 * nattack);
        remove_db(path);
    }
    for (size_t i = 0; want[3] &&
         i < sizeof group_channels / sizeof group_channels[0]; i++) {
        rc |= bench_group(path, group_channels[i], ngroup);
        remove_db(path);
    }
    return rc;
}
