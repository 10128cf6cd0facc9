/*
 * mkdb - a database of many live encounters, for bench/memory and
 * bench/startup.
 *
 * Every encounter is made the way a GM would make it, through cmd_exec():
 * /combat start, /combat add 4 orcs, /combat add 4 heroes, /combat begin,
 * in channels base, base+1, ... (the fake's default channel and the ones
 * its load generator uses), by the fake's default user in its default
 * guild. Commands are grouped into one transaction per MKDB_BATCH
 * channels, so building 10,000 encounters takes seconds, not one fsync per
 * command.
 *
 *   build/bench-mkdb --db PATH [--count N] [--channel-base ID]
 *                    [--user ID] [--guild ID] [--hp N]
 *                    [--clock REMIND,ACT]
 *
 * --clock gives every fight a turn clock (/combat clock remind:REMIND
 * act:ACT) after /combat begin, for bench/clock-idle.
 *
 * Prints one JSON line: encounters made, live encounters in the file,
 * seconds, file size. Exit status 1 when a command was refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmd.h"
#include "eng_rng.h"
#include "store.h"

#define MKDB_BATCH 500              /* channels per transaction */
#define MKDB_DEFAULT_COUNT 10000
#define MKDB_CHANNEL_BASE 1100000000000000200ull   /* fake-discord's */
#define MKDB_GUILD 1100000000000000100ull
#define MKDB_USER 1100000000000000300ull

struct mkdb {
    struct cmd_ctx ctx;
    uint64_t guild, user;
    const char *hp;                 /* every combatant's hit points */
    char remind[32], act[32];       /* --clock; "" for none */
    long refused;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* opts: name, value pairs ending in NULL. */
static void run(struct mkdb *m, uint64_t channel, const char *sub,
                const char *const *opts)
{
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = sub,
        .channel_id = channel, .guild_id = m->guild, .user_id = m->user,
        .user_name = "Alice", .perms = CMD_PERM_ADMINISTRATOR,
        .perms_known = true, .expect_version = -1, .now_ms = wall_ms()};
    for (int i = 0; opts[i] != NULL && req.nopts < CMD_MAX_OPTS; i += 2) {
        req.opts[req.nopts].name = opts[i];
        req.opts[req.nopts].value = opts[i + 1];
        req.nopts++;
    }
    struct cmd_reply reply;
    if (!cmd_exec(&m->ctx, &req, &reply)) {
        m->refused++;
        return;
    }
    if (reply.is_error) {
        if (m->refused++ == 0)
            fprintf(stderr, "bench-mkdb: /combat %s refused in channel "
                    "%llu\n", sub, (unsigned long long)channel);
    }
    cmd_reply_cleanup(&reply);
}

static void encounter(struct mkdb *m, uint64_t channel)
{
    static const char *const start[] = {"system", "generic", NULL};
    const char *const orcs[] = {"name", "Orc", "count", "4", "hp", m->hp,
                                "stats", "ac=13 init=1 attack=5", NULL};
    const char *const heroes[] = {"name", "Hero", "count", "4", "hp", m->hp,
                                  "stats", "ac=16 init=3 attack=7", NULL};
    static const char *const none[] = {NULL};
    run(m, channel, "start", start);
    run(m, channel, "add", orcs);
    run(m, channel, "add", heroes);
    run(m, channel, "begin", none);
    if (m->remind[0] != '\0') {
        const char *const clock[] = {"remind", m->remind, "act", m->act,
                                     NULL};
        run(m, channel, "clock", clock);
    }
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    long count = MKDB_DEFAULT_COUNT;
    uint64_t base = MKDB_CHANNEL_BASE;
    struct mkdb m = {.guild = MKDB_GUILD, .user = MKDB_USER, .hp = "20"};

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--db") == 0)
            path = argv[i + 1];
        else if (strcmp(argv[i], "--count") == 0)
            count = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--channel-base") == 0)
            base = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--user") == 0)
            m.user = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--guild") == 0)
            m.guild = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--hp") == 0)
            m.hp = argv[i + 1];
        else if (strcmp(argv[i], "--clock") == 0 &&
                 sscanf(argv[i + 1], "%31[^,],%31s", m.remind, m.act) != 2)
            count = 0;              /* usage */
    }
    if (path == NULL || count < 1) {
        fputs("usage: bench-mkdb --db PATH [--count N] [--channel-base ID] "
              "[--user ID] [--guild ID] [--hp N] [--clock REMIND,ACT]\n",
              stderr);
        return 2;
    }

    struct store *st = NULL;
    char err[256];
    if (store_open(path, &st, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "bench-mkdb: %s\n", err);
        return 1;
    }
    struct eng_rng rng;
    eng_rng_seed(&rng, 12);
    /* Every fight is one server's, far beyond the daemon's per-server
     * quota of live fights: the quota bounds what a server may start, and
     * this database stands for many servers' fights at once. */
    m.ctx = (struct cmd_ctx){.store = st, .rng = &rng,
                             .max_live = INT64_MAX};

    double t0 = now_s();
    int rc = 0;
    for (long done = 0; done < count && rc == 0; done += MKDB_BATCH) {
        if (store_begin(st) != BOT_OK) {
            rc = 1;
            break;
        }
        for (long k = done; k < count && k < done + MKDB_BATCH; k++)
            encounter(&m, base + (uint64_t)k);
        if (store_commit(st) != BOT_OK)
            rc = 1;
    }
    double dt = now_s() - t0;
    int64_t live = -1, archived = -1;
    store_enc_count(st, &live, &archived);
    if (rc)
        fprintf(stderr, "bench-mkdb: %s\n", store_errmsg(st));
    store_close(st);
    printf("{\"encounters\": %ld, \"live\": %lld, \"seconds\": %.2f, "
           "\"file_bytes\": %lld, \"refused\": %ld}\n", count,
           (long long)live, dt, file_size(path), m.refused);
    return rc || m.refused ? 1 : 0;
}
