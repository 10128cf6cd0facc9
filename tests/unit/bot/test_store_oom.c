/* Allocation failure in the store (issue 11): SQLite's allocator is replaced
 * by one that fails the Nth call, and for N = 1, 2, ... until nothing fails,
 * opening and one whole command (begin, load, save, record, commit) must
 * report an error without crashing, keep the database consistent (the
 * command is all there or not at all, integrity ok) and leak nothing. */
#include "support.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

#define CH 7u

/* The fault injector. Test-only global state: SQLite's allocator hooks take
 * no context pointer. */
static struct {
    long calls;   /* allocations since arming */
    long fail_at; /* 0: never */
    bool failed;  /* the armed failure happened */
    long live;    /* blocks outstanding */
} fault;

#define HDR 16 /* keeps the block 16-byte aligned; holds its size */

static void *fault_malloc(int n)
{
    if (fault.fail_at && ++fault.calls == fault.fail_at) {
        fault.failed = true;
        return NULL;
    }
    char *p = malloc((size_t)n + HDR);
    if (!p)
        return NULL;
    memcpy(p, &n, sizeof n);
    fault.live++;
    return p + HDR;
}

static void fault_free(void *p)
{
    if (!p)
        return;
    fault.live--;
    free((char *)p - HDR);
}

static void *fault_realloc(void *p, int n)
{
    if (!p)
        return fault_malloc(n);
    if (fault.fail_at && ++fault.calls == fault.fail_at) {
        fault.failed = true;
        return NULL;
    }
    char *q = realloc((char *)p - HDR, (size_t)n + HDR);
    if (!q)
        return NULL;
    memcpy(q, &n, sizeof n);
    return q + HDR;
}

static int fault_size(void *p)
{
    int n = 0;
    if (p)
        memcpy(&n, (char *)p - HDR, sizeof n);
    return n;
}

static int fault_roundup(int n)
{
    return (n + 7) & ~7;
}

static int fault_init(void *arg)
{
    (void)arg;
    return 0;
}

static void fault_shutdown(void *arg)
{
    (void)arg;
}

static void arm(long n)
{
    fault.calls = 0;
    fault.fail_at = n;
    fault.failed = false;
}

static bool disarm(void)
{
    fault.fail_at = 0;
    return fault.failed;
}

static bool is_failure(enum bot_err e)
{
    return e == BOT_NOMEM || e == BOT_DB;
}

static void test_store_oom_open(void **state)
{
    (void)state;
    for (long n = 1;; n++) {
        struct store *s = NULL;
        char err[256];
        arm(n);
        enum bot_err e = store_open(":memory:", &s, err, sizeof err);
        bool failed = disarm();
        if (e == BOT_OK) {
            assert_non_null(s);
            store_close(s);
        } else {
            assert_true(failed);
            assert_true(is_failure(e));
            assert_null(s);
            assert_true(err[0] != '\0');
        }
        if (!failed) {
            print_message("%ld allocations failed in turn\n", n - 1);
            break;
        }
        assert_true(n < 100000);
    }
}

/* One command as the command layer runs it. */
static enum bot_err command(struct store *s, int64_t version)
{
    char *doc = NULL;
    int64_t live = 0;
    enum bot_err e = store_begin(s);
    if (e != BOT_OK)
        return e;
    e = store_enc_load(s, CH, &doc, &live);
    free(doc);
    if (e == BOT_OK)
        e = store_enc_save(s, CH, version, "{\"hp\":12,\"name\":\"Goblin\"}");
    if (e == BOT_OK)
        e = store_interaction_record(s, "5000", CH, version, 1);
    if (e == BOT_OK)
        return store_commit(s);
    store_rollback(s);
    return e;
}

static void test_store_oom_command(void **state)
{
    (void)state;
    for (long n = 1;; n++) {
        struct store *s = NULL;
        char err[256];
        assert_int_equal(store_open(":memory:", &s, err, sizeof err), BOT_OK);
        assert_int_equal(store_enc_save(s, CH, 1, "{}"), BOT_OK);

        arm(n);
        enum bot_err e = command(s, 2);
        bool failed = disarm();
        if (e != BOT_OK)
            assert_true(is_failure(e));

        /* All or nothing, and the store works on. */
        char *doc = NULL;
        int64_t v = 0;
        bool seen = false;
        assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
        free(doc);
        assert_int_equal(store_interaction_seen(s, "5000", &seen), BOT_OK);
        assert_true(v == 1 || v == 2);
        assert_true(seen == (v == 2));
        assert_true(e != BOT_OK || v == 2);
        bool ok = false;
        assert_int_equal(store_integrity_check(s, &ok), BOT_OK);
        assert_true(ok);
        assert_int_equal(store_enc_save(s, CH, v + 1, "{}"), BOT_OK);
        store_close(s);
        if (!failed) {
            print_message("%ld allocations failed in turn\n", n - 1);
            break;
        }
        assert_true(n < 100000);
    }
}

int main(void)
{
    static const sqlite3_mem_methods methods = {
        fault_malloc,  fault_free, fault_realloc,  fault_size,
        fault_roundup, fault_init, fault_shutdown, NULL,
    };
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) != SQLITE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_oom_open),
        cmocka_unit_test(test_store_oom_command),
    };
    int rc = cmocka_run_group_tests_name("store_oom", tests, NULL, NULL);
    sqlite3_shutdown();
    if (fault.live != 0) {
        fprintf(stderr, "store_oom: %ld SQLite blocks leaked\n", fault.live);
        return 1;
    }
    return rc;
}
