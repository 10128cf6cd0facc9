/*
 * pg_cluster.h - a throwaway PostgreSQL cluster for tests.
 *
 * pg_cluster_start() runs initdb into a fresh mkdtemp directory
 * (/tmp/fray-pg-XXXXXX), starts the server listening on a Unix socket in
 * that directory only (listen_addresses = '', no TCP), creates the database
 * "fray" and hands back its libpq conninfo. pg_cluster_stop() stops the
 * server at once (pg_ctl stop -m immediate) and removes the directory.
 * Startup costs about a second (initdb dominates): start one cluster per
 * test binary (a cmocka group setup) and give each test a fresh database
 * (pg_cluster_create_db) or empty tables, rather than a cluster per test.
 *
 * Settings of the throwaway server, and why:
 * - trust authentication on the socket (the directory is private to the
 *   test), superuser "postgres": the conninfo needs no password.
 * - fsync = off (and synchronous_commit = off, full_page_writes = off): the
 *   data dies with the test, so durability across a crash buys nothing,
 *   and on a loaded 2-core machine every fsync'd commit would slow the
 *   suite. Tests of power-loss durability belong to SQLite's suite.
 * - port: each cluster has its own socket directory, so the port only
 *   names the socket file (.s.PGSQL.<port>) and never collides; it is
 *   5432 unless FRAY_PG_PORT says otherwise.
 * - running as root (CI, containers): initdb and postgres refuse root, so
 *   they run as the `postgres` system user (created by Debian's postgresql
 *   package) via fork + setgid/setuid, with the directory chowned to it.
 *   The root test process still reaches the socket (root bypasses the
 *   directory's 0700 mode).
 *
 * Binaries: $FRAY_PG_BINDIR, else `pg_config --bindir`, else the newest
 * /usr/lib/postgresql/<N>/bin holding initdb, pg_ctl and postgres (on
 * Debian they are not on PATH). Each is started with its full path as
 * argv[0], since initdb and pg_ctl look for postgres beside it: a bare
 * "initdb" worked only where links on PATH led back to that directory. When none is found, pg_cluster_start() returns PG_CLUSTER_ABSENT
 * with a message naming what to install. Tests must then FAIL, unless the
 * developer set FRAY_TEST_NO_PG=1 (pg_cluster_skip_requested()), in which
 * case they print that they skipped.
 *
 * Ownership: struct pg_cluster is the caller's (embedded or static); no
 * heap is kept. Not thread-safe. If the test process dies without
 * pg_cluster_stop(), the server keeps running and the directory stays: the
 * path is in the failure message, `pg_ctl -D DIR/data stop` ends it.
 */
#ifndef PG_CLUSTER_H
#define PG_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#define PG_CLUSTER_MAX_PATH 256
#define PG_CLUSTER_MAX_CONNINFO 512
#define PG_CLUSTER_START_TIMEOUT_S 120 /* pg_ctl -w -t: generous, 2 cores */

enum pg_cluster_status {
    PG_CLUSTER_OK,
    PG_CLUSTER_ABSENT, /* no PostgreSQL server binaries on this machine */
    PG_CLUSTER_FAILED, /* initdb, start or createdb failed: see err */
};

struct pg_cluster {
    char dir[PG_CLUSTER_MAX_PATH];          /* temp dir: data/, socket, log */
    char bindir[PG_CLUSTER_MAX_PATH];       /* where initdb and pg_ctl are */
    char conninfo[PG_CLUSTER_MAX_CONNINFO]; /* of database "fray" */
    int port;
    bool running;
};

/* Start a cluster as described above. On PG_CLUSTER_OK c->conninfo is
 * ready ("host=DIR port=N user=postgres dbname=fray"). Otherwise err holds
 * one line (with the server log's last line when it failed) and nothing
 * is left behind. */
enum pg_cluster_status pg_cluster_start(struct pg_cluster *c, char *err,
                                        size_t errlen);

/* Stop the server (immediate) and remove the directory. Safe to call twice
 * or after a failed start. */
void pg_cluster_stop(struct pg_cluster *c);

/* Create database `name` (a plain identifier) and write its conninfo into
 * out. 0 on success, -1 with err set. */
int pg_cluster_create_db(const struct pg_cluster *c, const char *name,
                         char *out, size_t cap, char *err, size_t errlen);

/* Run SQL (one or more statements, no results wanted) on the conninfo.
 * 0 on success, -1 with err set. */
int pg_cluster_exec(const char *conninfo, const char *sql, char *err,
                    size_t errlen);

/* True when FRAY_TEST_NO_PG=1: the developer asked to skip the PostgreSQL
 * tests. Prints nothing; the caller says that it skipped. */
bool pg_cluster_skip_requested(void);

/* For a cmocka group setup: start c, or explain. Returns 0 when started;
 * 1 when FRAY_TEST_NO_PG=1 (printed "skipped: FRAY_TEST_NO_PG=1 ...", the
 * caller exits 0 without running the tests); -1 after printing why it
 * could not start (the caller fails). */
int pg_cluster_start_for_tests(struct pg_cluster *c, const char *suite);

/* ---- one cluster per test binary, for cmocka group fixtures ---------- */

/* The binary's cluster (static storage in pg_cluster.c). */
struct pg_cluster *pg_test_cluster(void);

/* cmocka group setup/teardown: start pg_test_cluster() (printing why and
 * failing the group when it cannot), stop it. */
int pg_cluster_group_setup(void **state);
int pg_cluster_group_teardown(void **state);

/* For main(): true after printing "<suite>: skipped: FRAY_TEST_NO_PG=1"
 * when the developer asked to skip; then return 0 without running. */
bool pg_cluster_skip_main(const char *suite);

#endif
