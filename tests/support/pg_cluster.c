/*
 * pg_cluster.c - throwaway PostgreSQL clusters for tests (pg_cluster.h).
 */
#include "pg_cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PG_DEFAULT_PORT 5432
#define PG_DBNAME "fray"
#define PG_MAX_ARGS 16 /* the longest argv run_pg() is given, and then some */

bool pg_cluster_skip_requested(void)
{
    const char *v = getenv("FRAY_TEST_NO_PG");
    return v && strcmp(v, "1") == 0;
}

/* The server programs a cluster needs, all in one bindir: initdb finds
 * postgres beside the path it was started as, pg_ctl likewise. */
static const char *const pg_programs[] = {"initdb", "pg_ctl", "postgres"};

/* The first program of pg_programs missing from dir, or NULL. */
static const char *missing_program(const char *dir)
{
    char p[PG_CLUSTER_MAX_PATH + 16];
    for (size_t i = 0; i < sizeof pg_programs / sizeof *pg_programs; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, pg_programs[i]);
        if (access(p, X_OK) != 0)
            return pg_programs[i];
    }
    return NULL;
}

static bool has_server_programs(const char *dir)
{
    return missing_program(dir) == NULL;
}

/* The server's bindir (see pg_cluster.h), or false. */
static bool find_bindir(char *out, size_t cap)
{
    const char *env = getenv("FRAY_PG_BINDIR");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return has_server_programs(out);
    }
    FILE *p = popen("pg_config --bindir 2>/dev/null", "r");
    if (p) {
        char line[PG_CLUSTER_MAX_PATH] = "";
        bool got = fgets(line, sizeof line, p) != NULL;
        pclose(p);
        line[strcspn(line, "\n")] = '\0';
        if (got && has_server_programs(line)) {
            snprintf(out, cap, "%s", line);
            return true;
        }
    }
    glob_t g;
    bool found = false;
    if (glob("/usr/lib/postgresql/*/bin", 0, NULL, &g) == 0) {
        /* glob sorts: the last match is the newest major version (as long
         * as they have the same number of digits, true on Debian). */
        for (size_t i = g.gl_pathc; i-- > 0 && !found;)
            if (has_server_programs(g.gl_pathv[i])) {
                snprintf(out, cap, "%s", g.gl_pathv[i]);
                found = true;
            }
        globfree(&g);
    }
    return found;
}

/* Run bindir/argv[0] with argv, as postgres when we are root, output
 * appended to DIR/log. Returns the exit status, or -1. The program gets
 * its full path as argv[0]: PostgreSQL's programs find their siblings
 * (initdb needs postgres) beside the path they were started as, and
 * Debian keeps them off PATH in /usr/lib/postgresql/<N>/bin. */
static int run_pg(const struct pg_cluster *c, char *const argv[])
{
    char prog[PG_CLUSTER_MAX_PATH + 32], logpath[PG_CLUSTER_MAX_PATH + 8];
    snprintf(prog, sizeof prog, "%s/%s", c->bindir, argv[0]);
    snprintf(logpath, sizeof logpath, "%s/log", c->dir);
    struct passwd *pw = geteuid() == 0 ? getpwnam("postgres") : NULL;
    if (geteuid() == 0 && !pw)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* Drop root first, so the log belongs to postgres. */
        if (pw && (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 ||
                   setuid(pw->pw_uid) != 0))
            _exit(126);
        int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int nul = open("/dev/null", O_RDONLY);
        if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 ||
            dup2(fd, 2) < 0)
            _exit(126);
        if (chdir(c->dir) != 0)
            _exit(126);
        char *args[PG_MAX_ARGS + 1];
        size_t n = 0;
        args[n++] = prog;
        while (n < PG_MAX_ARGS && argv[n] != NULL) {
            args[n] = argv[n];
            n++;
        }
        args[n] = NULL;
        execv(prog, args);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The last non-empty line of DIR/name, for messages. */
static void log_tail(const struct pg_cluster *c, const char *name, char *out,
                     size_t cap)
{
    char path[PG_CLUSTER_MAX_PATH + 16], line[512];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (line[0] != '\n') {
            line[strcspn(line, "\n")] = '\0';
            snprintf(out, cap, "%s", line);
        }
    fclose(f);
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static int conf_append(const struct pg_cluster *c)
{
    char path[PG_CLUSTER_MAX_PATH + 32];
    snprintf(path, sizeof path, "%s/data/postgresql.conf", c->dir);
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    /* See pg_cluster.h for why each setting. */
    fprintf(f,
            "\n# pg_cluster.c: throwaway test cluster\n"
            "listen_addresses = ''\n"
            "unix_socket_directories = '%s'\n"
            "port = %d\n"
            "fsync = off\n"
            "synchronous_commit = off\n"
            "full_page_writes = off\n"
            "max_connections = 40\n"
            "shared_buffers = 16MB\n"
            "log_min_messages = warning\n",
            c->dir, c->port);
    return fclose(f) == 0 ? 0 : -1;
}

int pg_cluster_exec(const char *conninfo, const char *sql, char *err,
                    size_t errlen)
{
    PGconn *db = PQconnectdb(conninfo);
    int rc = -1;
    if (PQstatus(db) != CONNECTION_OK) {
        snprintf(err, errlen, "connect: %s", PQerrorMessage(db));
    } else {
        PGresult *r = PQexec(db, sql);
        if (PQresultStatus(r) == PGRES_COMMAND_OK ||
            PQresultStatus(r) == PGRES_TUPLES_OK)
            rc = 0;
        else
            snprintf(err, errlen, "%s", PQerrorMessage(db));
        PQclear(r);
    }
    PQfinish(db);
    if (rc != 0)
        err[strcspn(err, "\n")] = '\0';
    return rc;
}

int pg_cluster_create_db(const struct pg_cluster *c, const char *name,
                         char *out, size_t cap, char *err, size_t errlen)
{
    char admin[PG_CLUSTER_MAX_CONNINFO], sql[160];
    snprintf(admin, sizeof admin,
             "host=%s port=%d user=postgres "
             "dbname=postgres",
             c->dir, c->port);
    snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", name);
    if (pg_cluster_exec(admin, sql, err, errlen) != 0)
        return -1;
    snprintf(out, cap, "host=%s port=%d user=postgres dbname=%s", c->dir,
             c->port, name);
    return 0;
}

enum pg_cluster_status pg_cluster_start(struct pg_cluster *c, char *err,
                                        size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (!find_bindir(c->bindir, sizeof c->bindir)) {
        snprintf(err, errlen,
                 "no PostgreSQL server programs (initdb, pg_ctl and postgres "
                 "side by side) in $FRAY_PG_BINDIR, `pg_config --bindir` or "
                 "/usr/lib/postgresql/*/bin: install Debian's `postgresql` "
                 "package (./scripts/setup test does)");
        return PG_CLUSTER_ABSENT;
    }
    const char *port = getenv("FRAY_PG_PORT");
    c->port = port && *port ? atoi(port) : PG_DEFAULT_PORT;
    snprintf(c->dir, sizeof c->dir, "/tmp/fray-pg-XXXXXX");
    if (!mkdtemp(c->dir)) {
        snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
        return PG_CLUSTER_FAILED;
    }
    if (geteuid() == 0) {
        struct passwd *pw = getpwnam("postgres");
        if (!pw || chown(c->dir, pw->pw_uid, pw->pw_gid) != 0) {
            snprintf(err, errlen,
                     "running as root, and cannot hand %s to the `postgres` "
                     "user (initdb refuses root): %s",
                     c->dir, pw ? strerror(errno) : "no such user");
            pg_cluster_stop(c);
            return PG_CLUSTER_FAILED;
        }
    }
    char *initdb[] = {"initdb", "-D",         "data",      "-A",
                      "trust",  "-U",         "postgres",  "-E",
                      "UTF8",   "--locale=C", "--no-sync", NULL};
    char timeout[16];
    snprintf(timeout, sizeof timeout, "%d", PG_CLUSTER_START_TIMEOUT_S);
    char *start[] = {"pg_ctl", "-D", "data",  "-l",    "server.log",
                     "-w",     "-t", timeout, "start", NULL};
    const char *step = "initdb";
    c->running = true; /* from here on, stop() tries pg_ctl stop */
    if (run_pg(c, initdb) != 0 || (step = "configure", conf_append(c)) != 0 ||
        (step = "pg_ctl start", run_pg(c, start)) != 0) {
        char tail[256] = "";
        log_tail(c, "log", tail, sizeof tail);
        log_tail(c, "server.log", tail, sizeof tail);
        snprintf(err, errlen, "%s failed in %s: %s", step, c->dir, tail);
        pg_cluster_stop(c);
        return PG_CLUSTER_FAILED;
    }
    char why[256];
    if (pg_cluster_create_db(c, PG_DBNAME, c->conninfo, sizeof c->conninfo, why,
                             sizeof why) != 0) {
        snprintf(err, errlen, "creating database %s: %s", PG_DBNAME, why);
        pg_cluster_stop(c);
        return PG_CLUSTER_FAILED;
    }
    return PG_CLUSTER_OK;
}

void pg_cluster_stop(struct pg_cluster *c)
{
    if (c->running) {
        char *stop[] = {"pg_ctl",    "-D", "data", "-m",
                        "immediate", "-w", "stop", NULL};
        run_pg(c, stop);
        c->running = false;
    }
    if (c->dir[0]) {
        nftw(c->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        c->dir[0] = '\0';
    }
}

int pg_cluster_start_for_tests(struct pg_cluster *c, const char *suite)
{
    if (pg_cluster_skip_requested()) {
        printf("%s: skipped: FRAY_TEST_NO_PG=1 (PostgreSQL tests not run)\n",
               suite);
        return 1;
    }
    char err[512];
    enum pg_cluster_status st = pg_cluster_start(c, err, sizeof err);
    if (st == PG_CLUSTER_OK)
        return 0;
    fprintf(stderr, "%s: FAILED: cannot start a PostgreSQL test cluster: %s\n",
            suite, err);
    /* Skipping is advice only where the server is not installed: when it
     * is and fails, the failure is the thing to look at. */
    if (st == PG_CLUSTER_ABSENT)
        fprintf(stderr, "%s: (or set FRAY_TEST_NO_PG=1 to skip the "
                "PostgreSQL tests on a machine without PostgreSQL)\n", suite);
    return -1;
}

struct pg_cluster *pg_test_cluster(void)
{
    static struct pg_cluster c; /* test support: one per test binary */
    return &c;
}

int pg_cluster_group_setup(void **state)
{
    (void)state;
    return pg_cluster_start_for_tests(pg_test_cluster(), "postgres") == 0 ? 0
                                                                          : -1;
}

int pg_cluster_group_teardown(void **state)
{
    (void)state;
    pg_cluster_stop(pg_test_cluster());
    return 0;
}

bool pg_cluster_skip_main(const char *suite)
{
    return pg_cluster_skip_requested() &&
           pg_cluster_start_for_tests(pg_test_cluster(), suite) == 1;
}
