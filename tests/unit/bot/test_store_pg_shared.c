/* PostgreSQL store shared by several processes (issue 13): two stores on
 * the same database racing to save the same version or record the same
 * interaction id (exactly one wins, the other gets BOT_CONFLICT), a
 * deadlock between two transactions mapped to BOT_CONFLICT, a lost
 * connection giving a clear BOT_DB and a reconnect on the next call, and
 * no password in any message. Racers are forked processes, each with its
 * own connection, released together through a pipe. One throwaway cluster
 * for the file; every test starts on empty tables. Fails without
 * PostgreSQL unless FRAY_TEST_NO_PG=1. */
#include "support.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pg_cluster.h"
#include "store.h"
#include "store_pg_int.h"

#define CH 555u
#define SUITE "store_pg_shared"
#define RACE_ROUNDS 20
#define RACERS 2

static struct store *open_ok(void)
{
    struct store *s = NULL;
    char err[256];
    enum bot_err e =
        store_open(pg_test_cluster()->conninfo, &s, err, sizeof err);
    if (e != BOT_OK)
        fail_msg("store_open: %s: %s", bot_errname(e), err);
    return s;
}

static int empty_tables(void **state)
{
    (void)state;
    char err[256];
    struct store *s = open_ok(); /* creates the schema on first use */
    store_close(s);
    if (pg_cluster_exec(pg_test_cluster()->conninfo,
                        "TRUNCATE encounter, enc_version, enc_change,"
                        " interaction, kv RESTART IDENTITY",
                        err, sizeof err) != 0) {
        fprintf(stderr, "truncate: %s\n", err);
        return -1;
    }
    return 0;
}

/* What a racer does once released: one transaction. */
enum race_op { RACE_SAVE_V2, RACE_START_V1, RACE_RECORD };

/* Child: open a store, wait for the go byte, run op, exit with the result
 * (the bot_err of the first failing step). */
static void racer(int go_fd, enum race_op op, int who)
{
    struct store *s = NULL;
    char err[256], doc[32], go;
    if (store_open(pg_test_cluster()->conninfo, &s, err, sizeof err) != BOT_OK)
        _exit(100);
    if (read(go_fd, &go, 1) != 1)
        _exit(101);
    snprintf(doc, sizeof doc, "{\"by\":%d}", who);
    enum bot_err e = store_begin(s);
    if (e == BOT_OK && op == RACE_SAVE_V2)
        e = store_enc_save(s, CH, 2, doc);
    else if (e == BOT_OK && op == RACE_START_V1)
        e = store_enc_save(s, CH, 1, doc);
    else if (e == BOT_OK)
        e = store_interaction_record(s, "999", CH, 1, 1000 + who);
    if (e == BOT_OK)
        e = store_commit(s);
    else
        store_rollback(s);
    store_close(s);
    _exit((int)e);
}

/* Release RACERS racers doing op at once; count their results. */
static void race(enum race_op op, int *ok, int *conflict)
{
    int fds[2];
    pid_t pid[RACERS];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    for (int i = 0; i < RACERS; i++) {
        pid[i] = fork();
        assert_true(pid[i] >= 0);
        if (pid[i] == 0) {
            close(fds[1]);
            racer(fds[0], op, i);
        }
    }
    close(fds[0]);
    char go[RACERS];
    memset(go, 'g', sizeof go);
    assert_int_equal(write(fds[1], go, sizeof go), RACERS);
    close(fds[1]);
    *ok = *conflict = 0;
    for (int i = 0; i < RACERS; i++) {
        int st = 0;
        assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
        assert_true(WIFEXITED(st));
        int code = WEXITSTATUS(st);
        if (code == BOT_OK)
            (*ok)++;
        else if (code == BOT_CONFLICT)
            (*conflict)++;
        else
            fail_msg("racer %d exited with %d (%s)", i, code,
                     code < BOT_ERR__COUNT ? bot_errname(code) : "setup");
    }
}

/* Both processes read version 1 and save version 2: one wins. */
static void test_store_pg_race_same_version(void **state)
{
    (void)state;
    struct store *s = open_ok();
    for (int round = 0; round < RACE_ROUNDS; round++) {
        int ok, conflict;
        char *doc = NULL;
        int64_t v = 0;
        assert_int_equal(store_enc_save(s, CH, 1, "{}"), BOT_OK);
        race(RACE_SAVE_V2, &ok, &conflict);
        assert_int_equal(ok, 1);
        assert_int_equal(conflict, 1);
        assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
        assert_int_equal(v, 2);
        assert_non_null(strstr(doc, "\"by\""));
        free(doc);
        assert_int_equal(store_enc_archive(s, CH, round), BOT_OK);
    }
    store_close(s);
}

/* Both start the channel's first encounter: the partial unique index lets
 * one in. */
static void test_store_pg_race_new_encounter(void **state)
{
    (void)state;
    struct store *s = open_ok();
    for (int round = 0; round < RACE_ROUNDS; round++) {
        int ok, conflict;
        int64_t live = 0, archived = 0;
        race(RACE_START_V1, &ok, &conflict);
        assert_int_equal(ok, 1);
        assert_int_equal(conflict, 1);
        assert_int_equal(store_enc_count(s, &live, &archived), BOT_OK);
        assert_int_equal(live, 1);
        assert_int_equal(store_enc_archive(s, CH, round), BOT_OK);
    }
    store_close(s);
}

/* The same interaction id from two processes is applied once. */
static void test_store_pg_race_interaction(void **state)
{
    (void)state;
    struct store *s = open_ok();
    for (int round = 0; round < RACE_ROUNDS; round++) {
        int ok, conflict;
        bool seen = false;
        race(RACE_RECORD, &ok, &conflict);
        assert_int_equal(ok, 1);
        assert_int_equal(conflict, 1);
        assert_int_equal(store_interaction_seen(s, "999", &seen), BOT_OK);
        assert_true(seen);
        assert_int_equal(store_interaction_prune(s, INT64_MAX, STORE_PRUNE_BATCH_MAX,
                                                 NULL),
                         BOT_OK);
    }
    store_close(s);
}

/* Sequentially: a stale writer conflicts, and its transaction stays
 * usable (the conflict is not an SQL error). */
static void test_store_pg_stale_writer(void **state)
{
    (void)state;
    struct store *a = open_ok(), *b = open_ok();
    int64_t v = 0;
    char *doc = NULL;
    assert_true(store_shared(a));
    assert_string_equal(store_backend_name(a), "postgres");
    assert_int_equal(store_enc_save(a, CH, 1, "{\"a\":1}"), BOT_OK);
    assert_int_equal(store_enc_version(b, CH, &v), BOT_OK);
    assert_int_equal(v, 1);
    assert_int_equal(store_enc_save(a, CH, 2, "{\"a\":2}"), BOT_OK);
    assert_int_equal(store_begin(b), BOT_OK);
    assert_int_equal(store_enc_save(b, CH, v + 1, "{\"b\":2}"), BOT_CONFLICT);
    assert_int_equal(store_kv_set(b, "k", "v"), BOT_OK);
    assert_int_equal(store_commit(b), BOT_OK);
    assert_int_equal(store_enc_load(b, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, 2);
    assert_string_equal(doc, "{\"a\":2}");
    free(doc);
    assert_int_equal(store_interaction_record(a, "7", CH, 2, 1), BOT_OK);
    assert_int_equal(store_interaction_record(b, "7", CH, 2, 1), BOT_CONFLICT);
    store_close(a);
    store_close(b);
}

/* Two transactions lock two channels in opposite orders: the server
 * breaks the deadlock and the victim gets BOT_CONFLICT (retry); the
 * other commits. */
static void test_store_pg_deadlock_is_conflict(void **state)
{
    (void)state;
    struct store *a = open_ok();
    char probe[160];
    assert_int_equal(store_enc_save(a, CH, 1, "{}"), BOT_OK);
    assert_int_equal(store_enc_save(a, CH + 1, 1, "{}"), BOT_OK);
    snprintf(probe, sizeof probe,
             "SELECT 1 FROM encounter WHERE channel = %u"
             " AND ended_ms IS NULL FOR UPDATE NOWAIT",
             CH + 1);
    int to_child[2];
    assert_int_equal(pipe(to_child), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* b: lock CH + 1, wait until a holds CH, then want CH. */
        char go, err[256];
        struct store *b = NULL;
        if (store_open(pg_test_cluster()->conninfo, &b, err, sizeof err) !=
            BOT_OK)
            _exit(100);
        enum bot_err e = store_begin(b);
        if (e == BOT_OK)
            e = store_enc_save(b, CH + 1, 2, "{\"b\":1}");
        if (e == BOT_OK && read(to_child[0], &go, 1) != 1)
            _exit(101);
        if (e == BOT_OK)
            e = store_enc_save(b, CH, 2, "{\"b\":2}");
        if (e == BOT_OK)
            e = store_commit(b);
        else
            store_rollback(b);
        _exit((int)e);
    }
    close(to_child[0]);
    assert_int_equal(store_begin(a), BOT_OK);
    assert_int_equal(store_enc_save(a, CH, 2, "{\"a\":1}"), BOT_OK);
    /* Let b's first save land before ours wants its row: poll until b's
     * transaction holds CH + 1's row (generous: a loaded machine). */
    for (int i = 0; i < 12000; i++) {
        char err[128];
        if (pg_cluster_exec(pg_test_cluster()->conninfo, probe, err,
                            sizeof err) != 0)
            break;
        usleep(5000);
    }
    assert_int_equal(write(to_child[1], "g", 1), 1);
    enum bot_err ea = store_enc_save(a, CH + 1, 2, "{\"a\":2}");
    if (ea == BOT_OK)
        ea = store_commit(a);
    else
        store_rollback(a);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(to_child[1]);
    assert_true(WIFEXITED(st));
    enum bot_err eb = (enum bot_err)WEXITSTATUS(st);
    /* Exactly one of them was the victim. */
    assert_true((ea == BOT_OK && eb == BOT_CONFLICT) ||
                (ea == BOT_CONFLICT && eb == BOT_OK));
    if (ea == BOT_CONFLICT)
        assert_non_null(strstr(store_errmsg(a), "40P01"));
    store_close(a);
}

/* Kill the store's server process: the next call says the connection was
 * lost (BOT_DB), the one after reconnects. Inside a transaction the
 * failure holds until the rollback. */
static void test_store_pg_connection_lost(void **state)
{
    (void)state;
    struct store *s = open_ok();
    char sql[96], err[256], *v = NULL;
    assert_int_equal(store_kv_set(s, "k", "v1"), BOT_OK);
    for (int in_tx = 0; in_tx < 2; in_tx++) {
        snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%d)",
                 PQbackendPID(store__pg_conn(s)));
        if (in_tx)
            assert_int_equal(store_begin(s), BOT_OK);
        assert_int_equal(
            pg_cluster_exec(pg_test_cluster()->conninfo, sql, err, sizeof err),
            0);
        assert_int_equal(store_kv_get(s, "k", &v), BOT_DB);
        assert_non_null(strstr(store_errmsg(s), "connection"));
        if (in_tx) {
            assert_int_equal(store_kv_set(s, "k", "v2"), BOT_DB);
            assert_int_equal(store_commit(s), BOT_DB);
        }
        assert_int_equal(store_kv_get(s, "k", &v), BOT_OK);
        assert_string_equal(v, "v1");
        free(v);
    }
    store_close(s);
}

/* Neither messages nor redacted locations carry the password. */
static void test_store_pg_no_password_in_messages(void **state)
{
    (void)state;
    char loc[512], err[512], out[512];
    struct store *s = NULL;
    snprintf(loc, sizeof loc,
             "postgresql://postgres:s3cr%%40t@/nosuchdb?host=%s&port=%d",
             pg_test_cluster()->dir, pg_test_cluster()->port);
    assert_true(store_location_is_server(loc));
    assert_int_equal(store_open(loc, &s, err, sizeof err), BOT_DB);
    assert_null(s);
    assert_null(strstr(err, "s3cr"));
    assert_non_null(strstr(err, "nosuchdb"));
    snprintf(loc, sizeof loc,
             "host=%s port=%d password='s3 cr\\'et' "
             "dbname=nosuchdb",
             pg_test_cluster()->dir, pg_test_cluster()->port);
    assert_true(store_location_is_server(loc));
    assert_int_equal(store_open(loc, &s, err, sizeof err), BOT_DB);
    assert_null(strstr(err, "s3"));
    store_location_redact(loc, out, sizeof out);
    assert_null(strstr(out, "s3"));
    assert_non_null(strstr(out, "password=*** dbname=nosuchdb"));
    store_location_redact("postgres://u:pw@h:5/d?password=x&sslmode=require",
                          out, sizeof out);
    assert_string_equal(out,
                        "postgres://u:***@h:5/d?password=***&sslmode=require");
    store_location_redact("postgres://h/d", out, sizeof out);
    assert_string_equal(out, "postgres://h/d");
    assert_false(store_location_is_server("/var/lib/fray/fray.db"));
    assert_false(store_location_is_server(":memory:"));
}

int main(void)
{
    if (pg_cluster_skip_main(SUITE))
        return 0;
#define T(f) cmocka_unit_test_setup(f, empty_tables)
    const struct CMUnitTest tests[] = {
        T(test_store_pg_race_same_version),
        T(test_store_pg_race_new_encounter),
        T(test_store_pg_race_interaction),
        T(test_store_pg_stale_writer),
        T(test_store_pg_deadlock_is_conflict),
        T(test_store_pg_connection_lost),
        T(test_store_pg_no_password_in_messages),
    };
#undef T
    return cmocka_run_group_tests_name(SUITE, tests, pg_cluster_group_setup,
                                       pg_cluster_group_teardown);
}
