/* The throwaway PostgreSQL cluster of tests/support/pg_cluster.c: it
 * starts, answers on its socket, creates databases, and stops leaving
 * nothing behind. Fails (does not skip) without PostgreSQL unless
 * FRAY_TEST_NO_PG=1. */
#include "support.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pg_cluster.h"

static void test_pg_cluster_answers(void **state)
{
    (void)state;
    char err[256];
    if (pg_cluster_exec(pg_test_cluster()->conninfo,
                        "CREATE TABLE t (x int);"
                        "INSERT INTO t VALUES (1)",
                        err, sizeof err) != 0)
        fail_msg("exec: %s", err);
    assert_int_equal(pg_cluster_exec(pg_test_cluster()->conninfo,
                                     "SELECT nosuch", err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "nosuch"));
}

static void test_pg_cluster_create_db(void **state)
{
    (void)state;
    char conninfo[PG_CLUSTER_MAX_CONNINFO], err[256];
    if (pg_cluster_create_db(pg_test_cluster(), "second", conninfo,
                             sizeof conninfo, err, sizeof err) != 0)
        fail_msg("create: %s", err);
    assert_non_null(strstr(conninfo, "dbname=second"));
    assert_int_equal(pg_cluster_exec(conninfo, "SELECT 1", err, sizeof err), 0);
}

static void test_pg_cluster_stop_removes(void **state)
{
    (void)state;
    char dir[PG_CLUSTER_MAX_PATH], err[256];
    struct pg_cluster c;
    if (pg_cluster_start(&c, err, sizeof err) != PG_CLUSTER_OK)
        fail_msg("start: %s", err);
    snprintf(dir, sizeof dir, "%s", c.dir);
    char conninfo[PG_CLUSTER_MAX_CONNINFO];
    snprintf(conninfo, sizeof conninfo, "%s connect_timeout=5", c.conninfo);
    pg_cluster_stop(&c);
    struct stat st;
    assert_int_equal(stat(dir, &st), -1);
    assert_int_equal(pg_cluster_exec(conninfo, "SELECT 1", err, sizeof err),
                     -1);
    pg_cluster_stop(&c); /* twice: a no-op */
}

int main(void)
{
    if (pg_cluster_skip_main("pg_cluster"))
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pg_cluster_answers),
        cmocka_unit_test(test_pg_cluster_create_db),
        cmocka_unit_test(test_pg_cluster_stop_removes),
    };
    return cmocka_run_group_tests_name(
        "pg_cluster", tests, pg_cluster_group_setup, pg_cluster_group_teardown);
}
