/*
 * test_daemon_shards.c - two `fray run` processes as shards 0/2 and 1/2 of
 * one bot, sharing one throwaway PostgreSQL database, against one
 * fake-discord.
 *
 * Discord sends a guild's events to one shard, but a channel's fight must
 * survive commands reaching both processes (a resharding, a handover, a
 * button clicked while the old process still runs): the fake can deliver to
 * a chosen shard, or to both. Checked: IDENTIFY carries each process's
 * shard, the two identifies of one max_concurrency bucket are spaced through
 * the shared store, events are routed by guild, only shard 0 registers
 * commands, commands split across both processes for the same channel are
 * all applied (no lost update), and an interaction delivered to both is
 * applied once (the second process answers "That was already done."), and
 * a turn clock's reminder is sent once, by the shard that owns the guild.
 */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_client.h"
#include "pg_cluster.h"
#include "store.h"

#define WAIT_MS 60000              /* generous: 2 loaded cores, ASan */
#define N_SPLIT 200                /* commands alternating between shards */
#define N_TWICE 20                 /* interactions delivered to both */
#define START_HP 100000
#define CHANNEL "1100000000000000200"
/* (g >> 22) % 2: G0 is on shard 0 of 2, G1 on shard 1 */
#define G0 "4194304000"            /* 1000 << 22 */
#define G1 "4198498304"            /* 1001 << 22 */

static struct pg_cluster pg;

struct two {
    struct fake_proc fake;
    pid_t fray[2];
    char dir[64];
    char conf[2][128];
    char log[2][128];
    char conninfo[PG_CLUSTER_MAX_CONNINFO];
};

static const char shard_conf[] =
    "[store]\nstorage = %s\n"
    "[log]\nlevel = debug\n"
    "[gateway]\nshard = %d/2\nbackoff_min_ms = 100\nbackoff_max_ms = 1000\n"
    "ready_timeout_ms = 20000\n"
    "[rest]\nretry_base_ms = 50\n"
    "[daemon]\nshutdown_grace_ms = 2000\n"
    /* one user sends the whole load: not what this test limits */
    "[limits]\nuser_per_minute = 0\nchannel_per_minute = 0\n"
    /* tests only: the turn clock runs an hour a second */
    "[fights]\nclock_speed = 3600\n";

static void dump_logs(const struct two *t)
{
    char line[4096];
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(t->log[i], "r");
        if (!f)
            continue;
        fprintf(stderr, "---- shard %d log ----\n", i);
        while (fgets(line, sizeof line, f))
            fputs(line, stderr);
        fclose(f);
    }
}

/* Shard i's log mentions text (an interaction id). */
static bool log_has(const struct two *t, int i, const char *text)
{
    char line[4096];
    bool found = false;
    FILE *f = fopen(t->log[i], "r");
    if (!f)
        return false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    fclose(f);
    return found;
}

/* Both processes have a READY session on a live connection. */
static bool both_ready(int port)
{
    json_t *j = fake_get_json(port, "/_test/shards", NULL), *ss;
    size_t i;
    int ready[2] = {0, 0};
    json_array_foreach(json_object_get(j, "sessions"), i, ss) {
        json_t *sh = json_object_get(ss, "shard");
        int id = (int)json_integer_value(json_array_get(sh, 0));
        if (json_integer_value(json_array_get(sh, 1)) == 2 && id >= 0 &&
            id < 2 && json_is_true(json_object_get(ss, "ready")))
            ready[id] = 1;
    }
    json_decref(j);
    return ready[0] && ready[1];
}

static void start_two(struct two *t, const char *db)
{
    char err[256];
    memset(t, 0, sizeof *t);
    snprintf(t->dir, sizeof t->dir, "/tmp/fray-shards-XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    if (pg_cluster_create_db(&pg, db, t->conninfo, sizeof t->conninfo, err,
                             sizeof err) != 0)
        fail_msg("cannot create database %s: %s", db, err);
    assert_int_equal(fake_server_start(&t->fake, NULL), 0);
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"run", "--config", t->conf[i], NULL};
        struct fake_fray_opts o = {.binary = FRAY_BINARY, .args = args,
                                   .log_path = t->log[i]};
        FILE *f;
        snprintf(t->conf[i], sizeof t->conf[i], "%s/shard%d.conf", t->dir, i);
        snprintf(t->log[i], sizeof t->log[i], "%s/shard%d.log", t->dir, i);
        f = fopen(t->conf[i], "w");
        assert_non_null(f);
        fprintf(f, shard_conf, t->conninfo, i);
        fclose(f);
        t->fray[i] = fake_fray_start(t->fake.port, &o);
        assert_true(t->fray[i] > 0);
    }
    for (int waited = 0; !both_ready(t->fake.port); waited += 50) {
        if (waited > WAIT_MS) {
            dump_logs(t);
            fail_msg("the two shards did not both become READY");
        }
        fake_sleep_ms(50);
    }
}

static void stop_two(struct two *t)
{
    char cmd[128];
    int st[2] = {0, 0};
    bool clean = true;
    for (int i = 0; i < 2; i++)
        if (t->fray[i] > 0 &&
            (fake_proc_stop(t->fray[i], SIGTERM, 10000, &st[i]) != 0 ||
             !WIFEXITED(st[i]) || WEXITSTATUS(st[i]) != 0))
            clean = false;
    if (!clean)
        dump_logs(t);
    fake_server_stop(&t->fake);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", t->dir);
    if (!clean)
        fail_msg("a shard did not stop cleanly (wait status %d, %d)", st[0],
                 st[1]);
}

/* Inject an interaction (extra: more description members, e.g.
 * "\"shard\":1"); returns its id (static storage per call: copy it). */
static void inject(struct two *t, const char *opts_json, const char *extra,
                   char id[32])
{
    char desc[1024];
    json_t *r;
    snprintf(desc, sizeof desc,
             "{\"type\":\"command\",\"name\":\"combat\",\"guild_id\":\"" G0
             "\",\"channel_id\":\"" CHANNEL "\",\"options\":%s%s%s}",
             opts_json, extra ? "," : "", extra ? extra : "");
    r = fake_inject(t->fake.port, desc);
    if (!r) {
        dump_logs(t);
        fail_msg("fake-discord refused %s", desc);
    }
    snprintf(id, 32, "%s", json_string_value(json_object_get(r, "id")));
    json_decref(r);
}

/* The accepted callback of id (type 4 or a type 5 deferral); fails the
 * test without one. Caller decrefs. */
static json_t *callback_of(struct two *t, const char *id)
{
    json_t *cb = fake_wait_callback(t->fake.port, id, WAIT_MS);
    if (!cb) {
        dump_logs(t);
        fail_msg("no callback for interaction %s", id);
    }
    return cb;
}

static void expect_ok(struct two *t, const char *id)
{
    json_t *cb = callback_of(t, id), *body = json_object_get(cb, "body");
    json_int_t flags = json_integer_value(json_object_get(
        json_object_get(body, "data"), "flags"));
    if (json_integer_value(json_object_get(body, "type")) == 4 &&
        (flags & 64)) {
        char *s = json_dumps(body, 0);
        dump_logs(t);
        fail_msg("command refused: %s", s ? s : "?");
    }
    json_decref(cb);
}

#define HP_CHANGE(n)                                                       \
    "[{\"name\":\"hp\",\"options\":[{\"name\":\"name\",\"value\":\"Ogre\"}," \
    "{\"name\":\"change\",\"value\":\"" n "\"}]}]"

static void setup_fight(struct two *t)
{
    char id[32];
    inject(t, "[{\"name\":\"start\",\"options\":[{\"name\":\"system\","
              "\"value\":\"generic\"}]}]", "\"shard\":0", id);
    expect_ok(t, id);
    inject(t, "[{\"name\":\"add\",\"options\":[{\"name\":\"name\","
              "\"value\":\"Ogre\"},{\"name\":\"hp\",\"value\":100000}]}]",
           "\"shard\":1", id);
    expect_ok(t, id);
}

/* The Ogre's hp in the channel's live encounter, read from PostgreSQL. */
static long long ogre_hp(struct two *t)
{
    struct store *s = NULL;
    char err[256], *doc = NULL;
    int64_t version;
    json_t *j, *c, *tr;
    size_t i, k;
    long long hp = -1;

    if (store_open(t->conninfo, &s, err, sizeof err) != BOT_OK)
        fail_msg("cannot open the store: %s", err);
    assert_int_equal(store_enc_load(s, strtoull(CHANNEL, NULL, 10), &doc,
                                    &version),
                     BOT_OK);
    j = json_loads(doc, 0, NULL);
    assert_non_null(j);
    json_array_foreach(json_object_get(j, "combatants"), i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        if (!name || strcmp(name, "Ogre") != 0)
            continue;
        json_array_foreach(json_object_get(c, "tracks"), k, tr)
            if (strcmp(json_string_value(json_object_get(tr, "name")),
                       "hp") == 0)
                hp = json_integer_value(json_object_get(tr, "cur"));
    }
    json_decref(j);
    free(doc);
    store_close(s);
    return hp;
}

/* No violation but the rate-limit kinds two uncoordinated processes can
 * cause on one channel's buckets (docs/internals/daemon.md, Sharding). */
static void assert_no_violations(struct two *t)
{
    json_t *v = fake_get_json(t->fake.port, "/_test/violations", NULL);
    json_t *by = json_object_get(v, "by_kind"), *n;
    const char *kind;
    json_object_foreach(by, kind, n) {
        if (strcmp(kind, "bucket_429") == 0 ||
            strcmp(kind, "bucket_exhausted") == 0)
            continue;
        char *s = json_dumps(v, JSON_INDENT(1));
        dump_logs(t);
        fail_msg("fake-discord saw violations: %s", s ? s : "?");
    }
    json_decref(v);
}

static void test_shards_identify_route_and_register(void **state)
{
    struct two t;
    json_t *frames, *f, *cmds;
    size_t i;
    int seen[2] = {0, 0};
    char id0[32], id1[32];
    (void)state;
    start_two(&t, "shards_route");
    /* IDENTIFY carried [0,2] and [1,2]; the fake's per-bucket limit
     * (max_concurrency 1) saw no identify too fast */
    frames = fake_get_json(t.fake.port, "/_test/frames?since=0", NULL);
    json_array_foreach(json_object_get(frames, "frames"), i, f) {
        json_t *sh = json_object_get(json_object_get(
            json_object_get(f, "payload"), "d"), "shard");
        if (json_integer_value(json_object_get(f, "op")) != 2)
            continue;
        assert_int_equal(json_integer_value(json_array_get(sh, 1)), 2);
        seen[json_integer_value(json_array_get(sh, 0)) & 1]++;
    }
    json_decref(frames);
    assert_int_equal(seen[0], 1);
    assert_int_equal(seen[1], 1);
    /* routed by guild: each process answers its own guild's command */
    inject(&t, "[{\"name\":\"start\",\"options\":[{\"name\":\"system\","
               "\"value\":\"generic\"}]}]", NULL, id0);
    expect_ok(&t, id0);
    {
        char desc[512];
        json_t *r;
        snprintf(desc, sizeof desc,
                 "{\"type\":\"command\",\"name\":\"roll\",\"guild_id\":\"" G1
                 "\",\"options\":[{\"name\":\"dice\",\"value\":\"d20\"}]}");
        r = fake_inject(t.fake.port, desc);
        assert_non_null(r);
        snprintf(id1, sizeof id1, "%s",
                 json_string_value(json_object_get(r, "id")));
        json_decref(r);
        expect_ok(&t, id1);
    }
    /* only shard 0 registered the commands */
    cmds = fake_get_json(t.fake.port, "/_test/commands", NULL);
    assert_int_equal(json_integer_value(json_object_get(cmds, "puts")), 1);
    json_decref(cmds);
    /* ... and the other process never saw it */
    assert_true(log_has(&t, 0, id0));
    assert_false(log_has(&t, 1, id0));
    assert_true(log_has(&t, 1, id1));
    assert_false(log_has(&t, 0, id1));
    assert_no_violations(&t);
    stop_two(&t);
}

/* Whether the command refused to run ("kept changing under the command"
 * after CMD_MAX_ATTEMPTS conflicts): looked for in its callback and, after
 * a deferral, in the webhook requests that carried the real answer. */
static bool refused(struct two *t, const char *id, const char *token)
{
    json_t *cb = callback_of(t, id), *reqs = NULL, *req;
    char path[256];
    bool deferred = json_integer_value(json_object_get(
                        json_object_get(cb, "body"), "type")) == 5;
    bool found = false;
    size_t i;
    char *text;

    snprintf(path, sizeof path, "/_test/requests?since=0&path=%s", token);
    for (int waited = 0; deferred; waited += 20) {
        size_t n;
        reqs = fake_get_json(t->fake.port, path, NULL);
        n = json_array_size(json_object_get(reqs, "requests"));
        /* the callback itself, then the webhook answer */
        if (n >= 2 && json_object_get(json_array_get(json_object_get(
                          reqs, "requests"), n - 1), "status"))
            break;
        json_decref(reqs);
        reqs = NULL;
        if (waited > WAIT_MS)
            fail_msg("interaction %s: deferred but never answered", id);
        fake_sleep_ms(20);
    }
    if (!reqs)
        reqs = fake_get_json(t->fake.port, path, NULL);
    json_array_foreach(json_object_get(reqs, "requests"), i, req) {
        text = json_dumps(json_object_get(req, "body"), 0);
        found = found || (text && strstr(text, "kept changing"));
        free(text);
    }
    json_decref(reqs);
    json_decref(cb);
    return found;
}

static void test_shards_share_one_channel(void **state)
{
    struct two t;
    static char ids[N_SPLIT][32], tokens[N_SPLIT][160];
    char twice[N_TWICE][32];
    int already = 0, deferred = 0, gave_up = 0;
    (void)state;
    start_two(&t, "shards_channel");
    setup_fight(&t);
    /* all at once, alternating: both processes work on the same channel */
    for (int i = 0; i < N_SPLIT; i++) {
        char desc[1024];
        json_t *r;
        snprintf(desc, sizeof desc,
                 "{\"type\":\"command\",\"name\":\"combat\",\"guild_id\":"
                 "\"" G0 "\",\"channel_id\":\"" CHANNEL "\",\"options\":%s,"
                 "\"shard\":%d}", HP_CHANGE("-1"), i % 2);
        r = fake_inject(t.fake.port, desc);
        assert_non_null(r);
        snprintf(ids[i], sizeof ids[i], "%s",
                 json_string_value(json_object_get(r, "id")));
        snprintf(tokens[i], sizeof tokens[i], "%s",
                 json_string_value(json_object_get(r, "token")));
        json_decref(r);
    }
    /* Every command applied is in the final state once: none lost, none
     * doubled. A command that lost the race CMD_MAX_ATTEMPTS times says
     * so and changes nothing. */
    for (int i = 0; i < N_SPLIT; i++)
        gave_up += refused(&t, ids[i], tokens[i]);
    print_message("%d of %d commands gave up after repeated conflicts\n",
                  gave_up, N_SPLIT);
    assert_int_equal(ogre_hp(&t), START_HP - (N_SPLIT - gave_up));

    /* the same interaction to both processes: applied once */
    for (int k = 0; k < N_TWICE; k++) {
        char path[96];
        json_t *reqs, *req, *x;
        size_t i;
        inject(&t, HP_CHANGE("-1"), "\"shard\":[0,1]", twice[k]);
        json_decref(callback_of(&t, twice[k]));
        snprintf(path, sizeof path, "/_test/interactions/%s", twice[k]);
        for (int waited = 0;; waited += 20) {
            x = fake_get_json(t.fake.port, path, NULL);
            if (json_integer_value(json_object_get(x, "callbacks")) >= 2)
                break;
            json_decref(x);
            if (waited > WAIT_MS) {
                dump_logs(&t);
                fail_msg("interaction %s: the second shard never answered",
                         twice[k]);
            }
            fake_sleep_ms(20);
        }
        assert_int_equal(json_integer_value(json_object_get(x, "callbacks")),
                         2);
        json_decref(x);
        /* one of the two answers says it was already done (whichever
         * reached Discord first), unless its process had deferred it, as
         * a slow one may */
        snprintf(path, sizeof path, "/_test/requests?since=0&path=%s",
                 twice[k]);
        reqs = fake_get_json(t.fake.port, path, NULL);
        int done = 0, defer = 0, answers = 0;
        json_array_foreach(json_object_get(reqs, "requests"), i, req) {
            json_t *b = json_object_get(req, "body");
            const char *content = json_string_value(json_object_get(
                json_object_get(b, "data"), "content"));
            if (!strstr(json_string_value(json_object_get(req, "path")),
                        "/callback"))
                continue;
            answers++;
            if (content && strstr(content, "That was already done."))
                done++;
            else if (json_integer_value(json_object_get(b, "type")) == 5)
                defer++;
        }
        if (answers != 2 || done > 1 || done + defer < 1) {
            char *d = json_dumps(reqs, 0);
            dump_logs(&t);
            fail_msg("interaction %s: expected one \"already done\" of two "
                     "answers: %s", twice[k], d ? d : "?");
        }
        already += done;
        deferred += defer > 0 && done == 0;
        json_decref(reqs);
    }
    assert_int_equal(already + deferred, N_TWICE);
    assert_int_equal(ogre_hp(&t), START_HP - (N_SPLIT - gave_up) - N_TWICE);
    assert_no_violations(&t);
    stop_two(&t);
}

/* Messages posted in the channel after seq since whose content has
 * needle. */
static size_t posts_saying(struct two *t, long long since,
                           const char *needle)
{
    char path[128];
    json_t *all, *rec;
    size_t i, n = 0;
    snprintf(path, sizeof path, "/_test/requests?since=%lld", since);
    all = fake_get_json(t->fake.port, path, NULL);
    json_array_foreach(json_object_get(all, "requests"), i, rec) {
        const char *m = json_string_value(json_object_get(rec, "method"));
        const char *p = json_string_value(json_object_get(rec, "path"));
        const char *c = json_string_value(json_object_get(
            json_object_get(rec, "body"), "content"));
        n += m && strcmp(m, "POST") == 0 && p &&
             strstr(p, "/channels/" CHANNEL "/messages") && c &&
             strstr(c, needle);
    }
    json_decref(all);
    return n;
}

/* A turn clock on a fight of shard 0's guild, set through shard 0 as
 * Discord routes it: its reminder is sent once, by shard 0, whose store
 * query sees the guild's timers, while shard 1 shares the store and
 * answers commands of the same channel too. */
static void test_shards_clock_fires_once(void **state)
{
    struct two t;
    char id[32];
    (void)state;

    start_two(&t, "shards_clock");
    setup_fight(&t);
    inject(&t, "[{\"name\":\"begin\",\"options\":[]}]", "\"shard\":0", id);
    expect_ok(&t, id);
    /* remind:1h is a second here; act:30d never comes in the test */
    inject(&t, "[{\"name\":\"clock\",\"options\":[{\"name\":\"remind\","
              "\"value\":\"1h\"},{\"name\":\"act\",\"value\":\"30d\"}]}]",
           "\"shard\":0", id);
    expect_ok(&t, id);
    for (int waited = 0; posts_saying(&t, 0, "still waiting") == 0;
         waited += 50) {
        if (waited > WAIT_MS) {
            dump_logs(&t);
            fail_msg("no reminder was posted");
        }
        fake_sleep_ms(50);
    }
    /* Both processes answer a command after it: each had its chance. */
    inject(&t, HP_CHANGE("-1"), "\"shard\":0", id);
    expect_ok(&t, id);
    inject(&t, HP_CHANGE("-1"), "\"shard\":1", id);
    expect_ok(&t, id);
    assert_int_equal(posts_saying(&t, 0, "still waiting"), 1);
    assert_true(log_has(&t, 0, "turn clock: channel " CHANNEL " fired"));
    assert_false(log_has(&t, 1, "turn clock: channel " CHANNEL " fired"));
    stop_two(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shards_identify_route_and_register),
        cmocka_unit_test(test_shards_share_one_channel),
        cmocka_unit_test(test_shards_clock_fires_once),
    };
    int rc = pg_cluster_start_for_tests(&pg, "daemon_shards");
    if (rc != 0)
        return rc > 0 ? 0 : 1;
    rc = cmocka_run_group_tests_name("daemon_shards", tests, NULL, NULL);
    pg_cluster_stop(&pg);
    return rc;
}
