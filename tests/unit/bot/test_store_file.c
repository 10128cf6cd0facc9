/* Tests for the store on a real file: migrations, the single-instance lock,
 * durability across a killed process, and a full disk. Each test gets its
 * own mkdtemp directory under /tmp, removed afterwards. */
#include "support.h"

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd_rollrec.h"
#include "eng_limits.h"
#include "store.h"
#include "store_sqlite_schema.h"

#define CH 42u

struct fixture {
    char dir[64];
    char path[96];
};

static int tmp_setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/fray-store-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s/fray.db", f->dir);
    *state = f;
    return 0;
}

static int tmp_teardown(void **state)
{
    struct fixture *f = *state;
    DIR *d = opendir(f->dir);
    if (d) {
        struct dirent *de;
        char p[sizeof f->dir + 300];
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", f->dir, de->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

static struct store *open_ok(const char *path)
{
    struct store *s = NULL;
    char err[256];
    enum bot_err e = store_open(path, &s, err, sizeof err);
    if (e != BOT_OK)
        fail_msg("store_open: %s: %s", bot_errname(e), err);
    return s;
}

/* Run raw SQL on a database file without the store. */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("%s: %s", sql, msg ? msg : "?");
    sqlite3_close(db);
}

static int64_t raw_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static void assert_live(struct store *s, int64_t want_version,
                        const char *want_doc)
{
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, want_version);
    assert_string_equal(doc, want_doc);
    free(doc);
}

static void assert_intact(struct store *s)
{
    bool ok = false;
    assert_int_equal(store_integrity_check(s, &ok), BOT_OK);
    assert_true(ok);
}

/* The body of a forked child: its exit code. */
typedef int child_fn(const char *path);

/* Run fn(path) in a forked child; its exit code, or 128 + the signal that
 * killed it. The child never returns into cmocka. */
static int in_child(child_fn *fn, const char *path)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(fn(path));
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* 0 when the database is refused as locked, naming the file. */
static int child_open_locked(const char *path)
{
    struct store *t = NULL;
    char err[256];
    enum bot_err e = store_open(path, &t, err, sizeof err);
    return e == BOT_LOCKED && t == NULL && strstr(err, path) &&
                   strstr(err, "in use")
               ? 0
               : 1;
}

static int child_open_ok(const char *path)
{
    struct store *t = NULL;
    char err[256];
    enum bot_err e = store_open(path, &t, err, sizeof err);
    store_close(t);
    return e == BOT_OK ? 0 : 1;
}

/* Commit version 1 and an interaction, then die before closing: as if
 * killed between the commit and the reply. */
static int child_commit_then_die(const char *path)
{
    struct store *s = NULL;
    char err[256];
    if (store_open(path, &s, err, sizeof err) != BOT_OK ||
        store_begin(s) != BOT_OK ||
        store_enc_save(s, CH, 1, "{\"v\":1}") != BOT_OK ||
        store_interaction_record(s, "900", CH, 1, 1) != BOT_OK ||
        store_commit(s) != BOT_OK)
        return 1;
    raise(SIGKILL);
    return 2;
}

/* Commit version 1, then die inside the transaction of version 2. */
static int child_die_in_transaction(const char *path)
{
    struct store *s = NULL;
    char err[256];
    if (store_open(path, &s, err, sizeof err) != BOT_OK ||
        store_enc_save(s, CH, 1, "{\"v\":1}") != BOT_OK ||
        store_begin(s) != BOT_OK ||
        store_enc_save(s, CH, 2, "{\"v\":2}") != BOT_OK ||
        store_interaction_record(s, "901", CH, 2, 1) != BOT_OK)
        return 1;
    raise(SIGKILL);
    return 2;
}

/* ---- migrations --------------------------------------------------------- */

/* A file at version 0 that already holds something gets the whole schema,
 * keeps what it had, and a reopen migrates nothing. */
static void test_store_migrate_from_v0(void **state)
{
    struct fixture *f = *state;
    raw_exec(f->path, "CREATE TABLE notes (t TEXT); "
                      "INSERT INTO notes VALUES ('kept');");
    struct store *s = open_ok(f->path);
    int v = -1;
    assert_int_equal(store__user_version(store__db(s), &v), BOT_OK);
    assert_int_equal(v, (int)store_schema_nsteps);
    assert_int_equal(raw_int(store__db(s), "SELECT count(*) FROM notes"), 1);
    assert_int_equal(store_enc_save(s, CH, 1, "{}"), BOT_OK);
    store_close(s);
    s = open_ok(f->path);
    assert_live(s, 1, "{}");
    assert_intact(s);
    store_close(s);
}

/* The migration runner on a table of test steps: an old database with data
 * is brought forward with its data, and a failing step leaves it exactly at
 * its old version. */
static void test_store_migrate_steps(void **state)
{
    struct fixture *f = *state;
    static const struct store_migration steps[] = {
        {1, "create t", "CREATE TABLE t (a INTEGER);"},
        {2, "add b", "ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 7;"},
        {3, "index b", "CREATE INDEX t_b ON t(b);"},
        {4, "broken", "CREATE TABLE u (x); SELECT no_such_function();"},
    };
    char err[256];
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    assert_int_equal(store__migrate(db, f->path, steps, 1, err, sizeof err),
                     BOT_OK);
    assert_int_equal(
        sqlite3_exec(db, "INSERT INTO t (a) VALUES (1)", NULL, NULL, NULL),
        SQLITE_OK);

    assert_int_equal(store__migrate(db, f->path, steps, 3, err, sizeof err),
                     BOT_OK);
    assert_int_equal(raw_int(db, "PRAGMA user_version"), 3);
    assert_int_equal(raw_int(db, "SELECT a * 100 + b FROM t"), 107);

    assert_int_equal(store__migrate(db, f->path, steps, 4, err, sizeof err),
                     BOT_DB);
    assert_non_null(strstr(err, "schema version 4 (broken)"));
    assert_non_null(strstr(err, f->path));
    assert_int_equal(raw_int(db, "PRAGMA user_version"), 3);
    assert_int_equal(raw_int(db, "SELECT count(*) FROM sqlite_schema "
                                 "WHERE name = 'u'"),
                     0);
    assert_int_equal(sqlite3_get_autocommit(db), 1);

    /* Nothing to do at the latest version. */
    assert_int_equal(store__migrate(db, f->path, steps, 3, err, sizeof err),
                     BOT_OK);
    sqlite3_close(db);
}

/* The fixture's file migrated up to just before the step named what: its
 * connection, to fill with the rows an older fray wrote. */
static sqlite3 *db_before(struct fixture *f, const char *what)
{
    size_t k = 0;
    while (k < store_schema_nsteps &&
           strcmp(store_schema_steps[k].what, what) != 0)
        k++;
    assert_true(k < store_schema_nsteps);
    char err[256];
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    assert_int_equal(store__migrate(db, f->path, store_schema_steps, k, err,
                                    sizeof err), BOT_OK);
    assert_int_equal(raw_int(db, "PRAGMA user_version"), (int64_t)k);
    return db;
}

/* A database from before the roll table (schema 9), holding a Discord
 * roll's record as the kv row an older fray wrote, opens at the latest
 * version: the old record is still found by its id from its channel (and
 * by no other), a new Discord roll goes to the table, and the prune pass
 * ages the old row out. */
static void test_store_upgrade_roll_rows(void **state)
{
    struct fixture *f = *state;
    sqlite3 *db = db_before(f, "roll records by interaction");
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO kv (key, value) VALUES ("
        "'roll:7:000000000001:1700000000000:1200000000000000555',"
        "'{\"id\":\"1200000000000000555\",\"guild\":\"9\","
        "\"channel\":\"7\",\"user\":\"200\",\"name\":\"alice\","
        "\"at\":1700000000000,\"seq\":1,\"expr\":\"2d6+3\","
        "\"dialect\":\"roll20\",\"label\":\"\",\"secret\":false,"
        "\"rolls\":1,\"total\":11,\"text\":\"2d6 (6, 2)+3 = 11\","
        "\"reroll_of\":\"\"}')", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    struct store *s = open_ok(f->path);
    int v = -1;
    assert_int_equal(store__user_version(store__db(s), &v), BOT_OK);
    assert_int_equal(v, (int)store_schema_nsteps);
    struct cmd_rollrec *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(cmd_rollrec_get(s, 7, "1200000000000000555", r),
                     BOT_OK);
    assert_string_equal(r->expr, "2d6+3");
    assert_int_equal(cmd_rollrec_get(s, 8, "1200000000000000555", r),
                     BOT_NOTFOUND);
    /* a roll of the new fray: a row of the table, none of kv */
    snprintf(r->id, sizeof r->id, "1200000000000000999");
    r->at_ms = INT64_C(1700000000000) + CMD_ROLLREC_KEEP_MS + 1;
    assert_int_equal(cmd_rollrec_put(s, r), BOT_OK);
    assert_int_equal(raw_int(store__db(s), "SELECT count(*) FROM roll_rec"),
                     1);
    assert_int_equal(raw_int(store__db(s), "SELECT count(*) FROM kv"
                                           " WHERE key LIKE 'roll:%'"), 1);
    int64_t n = -1;
    assert_int_equal(cmd_rollrec_prune(s, INT64_C(1700000000001), 10, &n),
                     BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(cmd_rollrec_get(s, 7, "1200000000000000555", r),
                     BOT_NOTFOUND);
    assert_int_equal(cmd_rollrec_get(s, 7, "1200000000000000999", r),
                     BOT_OK);
    free(r);
    assert_intact(s);
    store_close(s);
}

/* A database from before the timers kept a language (schema 10) with a
 * timer row opens at the latest version: the old row reads English, as
 * it spoke before, and a row set now keeps its language. */
static void test_store_upgrade_timer_lang(void **state)
{
    struct fixture *f = *state;
    sqlite3 *db = db_before(f, "each turn clock's language");
    assert_int_equal(sqlite3_exec(db,
        "INSERT INTO clock_timer (channel, guild, due_ms)"
        " VALUES (7, 9, 1000)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    struct store *s = open_ok(f->path);
    int v = -1;
    assert_int_equal(store__user_version(store__db(s), &v), BOT_OK);
    assert_int_equal(v, (int)store_schema_nsteps);
    assert_int_equal(store_timer_set(s, 8, 9, 2000, I18N_DE), BOT_OK);
    struct store_timer t[2];
    size_t n = 0;
    assert_int_equal(store_timer_due(s, 0, 1, 5000, t, 2, &n), BOT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(t[0].channel, 7);
    assert_int_equal(t[0].lang, I18N_EN);
    assert_int_equal(t[1].channel, 8);
    assert_int_equal(t[1].lang, I18N_DE);
    store_close(s);
}

static void test_store_newer_schema_refused(void **state)
{
    struct fixture *f = *state;
    raw_exec(f->path, "CREATE TABLE future (x); PRAGMA user_version = 999;");
    struct store *s = (struct store *)1;
    char err[256];
    assert_int_equal(store_open(f->path, &s, err, sizeof err), BOT_DB);
    assert_null(s);
    assert_non_null(strstr(err, "newer"));
    assert_non_null(strstr(err, "999"));
    assert_non_null(strstr(err, f->path));
    /* Untouched, and the lock was given back. */
    raw_exec(f->path, "SELECT x FROM future;");
    assert_int_equal(store_open(f->path, &s, err, sizeof err), BOT_DB);
}

static void test_store_not_a_database(void **state)
{
    struct fixture *f = *state;
    FILE *fp = fopen(f->path, "w");
    assert_non_null(fp);
    for (int i = 0; i < 200; i++)
        fputs("this is not a database file, just text\n", fp);
    fclose(fp);
    struct store *s = NULL;
    char err[256];
    assert_int_equal(store_open(f->path, &s, err, sizeof err), BOT_DB_CORRUPT);
    assert_null(s);
    assert_non_null(strstr(err, f->path));
}

/* ---- single instance ---------------------------------------------------- */

static void test_store_lock_other_process(void **state)
{
    struct fixture *f = *state;
    struct store *s = open_ok(f->path);
    assert_int_equal(in_child(child_open_locked, f->path), 0);
    store_close(s);
    /* Once the owner closes, another process may open it. */
    assert_int_equal(in_child(child_open_ok, f->path), 0);
}

static void test_store_lock_same_process(void **state)
{
    struct fixture *f = *state;
    struct store *s = open_ok(f->path);
    struct store *t = NULL;
    char err[256];
    assert_int_equal(store_open(f->path, &t, err, sizeof err), BOT_LOCKED);
    assert_null(t);
    char pid[32];
    snprintf(pid, sizeof pid, "pid %ld", (long)getpid());
    assert_non_null(strstr(err, pid));
    /* :memory: takes no lock. */
    assert_int_equal(store_open(":memory:", &t, err, sizeof err), BOT_OK);
    store_close(t);
    store_close(s);
    s = open_ok(f->path);
    store_close(s);
}

/* ---- crashes ------------------------------------------------------------ */

/* A child killed between commit and reply: the commit is there after a
 * restart. */
static void test_store_crash_after_commit(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(in_child(child_commit_then_die, f->path), 128 + SIGKILL);
    struct store *s = open_ok(f->path);
    assert_live(s, 1, "{\"v\":1}");
    bool seen = false;
    assert_int_equal(store_interaction_seen(s, "900", &seen), BOT_OK);
    assert_true(seen);
    assert_intact(s);
    store_close(s);
}

/* A child commits version 1, then is killed inside the transaction of
 * version 2: after a restart version 1 is live and version 2 never was. */
static void test_store_crash_uncommitted(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(in_child(child_die_in_transaction, f->path),
                     128 + SIGKILL);
    struct store *s = open_ok(f->path);
    assert_live(s, 1, "{\"v\":1}");
    bool seen = true;
    assert_int_equal(store_interaction_seen(s, "901", &seen), BOT_OK);
    assert_false(seen);
    assert_int_equal(store_enc_save(s, CH, 2, "{\"v\":2}"), BOT_OK);
    assert_intact(s);
    store_close(s);
}

/* A child writes a key unsynced after an empty transaction, then is
 * killed: the kernel had the write, so a restart finds it. */
static int child_unsynced_then_die(const char *path)
{
    char err[256];
    struct store *s = NULL;
    if (store_open(path, &s, err, sizeof err) != BOT_OK ||
        store_begin(s) != BOT_OK || store_wrote(s) ||
        store_commit(s) != BOT_OK ||
        store_kv_set_unsynced(s, "gw.seq", "42") != BOT_OK)
        return 1;
    kill(getpid(), SIGKILL);
    return 2;
}

/* What a group that changed nothing relies on: store_wrote() tells an
 * empty transaction from one that wrote, an unsynced write is refused
 * inside a transaction and survives a killed process, and afterwards
 * every commit is flushed again (synchronous = FULL, 2). */
static void test_store_unsynced_write(void **state)
{
    struct fixture *f = *state;
    assert_int_equal(in_child(child_unsynced_then_die, f->path), 128 + SIGKILL);
    struct store *s = open_ok(f->path);
    char *v = NULL;
    assert_int_equal(store_kv_get(s, "gw.seq", &v), BOT_OK);
    assert_string_equal(v, "42");
    free(v);

    assert_int_equal(store_begin(s), BOT_OK);
    assert_false(store_wrote(s));
    assert_int_equal(store_kv_set_unsynced(s, "gw.seq", "43"), BOT_INVALID);
    assert_int_equal(store_kv_set(s, "gw.seq", "44"), BOT_OK);
    assert_true(store_wrote(s));
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_kv_set_unsynced(s, "gw.seq", "45"), BOT_OK);
    assert_int_equal(raw_int(store__db(s), "PRAGMA synchronous"), 2);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_false(store_wrote(s)); /* counted from this begin */
    store_rollback(s);
    assert_intact(s);
    store_close(s);
}

/* ---- full disk ---------------------------------------------------------- */

/* PRAGMA max_page_count stands in for a full disk: the failing save reports
 * BOT_DB_FULL, in a transaction or not, and the database stays intact with
 * the previous version live. */
static void test_store_disk_full(void **state)
{
    struct fixture *f = *state;
    struct store *s = open_ok(f->path);
    assert_int_equal(store_enc_save(s, CH, 1, "{\"v\":1}"), BOT_OK);
    sqlite3 *db = store__db(s);
    int64_t pages = raw_int(db, "PRAGMA page_count");
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
             (long long)pages + 2);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);

    size_t len = 1u << 20;
    char *big = malloc(len + 1);
    assert_non_null(big);
    memset(big, 'x', len);
    big[len] = '\0';

    assert_int_equal(store_enc_save(s, CH, 2, big), BOT_DB_FULL);
    assert_non_null(strstr(store_errmsg(s), "full"));
    assert_live(s, 1, "{\"v\":1}");

    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_interaction_record(s, "77", CH, 2, 1), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 2, big), BOT_DB_FULL);
    /* SQLite may abandon the whole transaction on a full disk (3.40 does).
     * Then nothing may run outside it: later calls and the commit fail,
     * and neither interaction is stored. Else the commit keeps both. */
    enum bot_err rec = store_interaction_record(s, "78", CH, 2, 1);
    enum bot_err com = store_commit(s);
    assert_int_equal(rec, com);
    bool seen77 = false, seen78 = false;
    assert_int_equal(store_interaction_seen(s, "77", &seen77), BOT_OK);
    assert_int_equal(store_interaction_seen(s, "78", &seen78), BOT_OK);
    assert_true(seen77 == (com == BOT_OK));
    assert_true(seen78 == (com == BOT_OK));
    if (com != BOT_OK)
        assert_int_equal(com, BOT_DB_FULL);
    store_rollback(s); /* nothing open: a no-op */
    assert_live(s, 1, "{\"v\":1}");
    assert_intact(s);

    /* The same with nested transactions (group commit). */
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_interaction_record(s, "79", CH, 2, 1), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 2, big), BOT_DB_FULL);
    store_rollback(s);
    com = store_commit(s);
    assert_int_equal(store_interaction_seen(s, "79", &seen77), BOT_OK);
    assert_true(seen77 == (com == BOT_OK));
    assert_live(s, 1, "{\"v\":1}");
    assert_intact(s);

    /* Room again: the same save goes through. */
    assert_int_equal(sqlite3_exec(db, "PRAGMA max_page_count = 1073741823",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_equal(store_enc_save(s, CH, 2, big), BOT_OK);
    free(big);
    store_close(s);
    s = open_ok(f->path);
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, 2);
    assert_int_equal(strlen(doc), len);
    free(doc);
    assert_intact(s);
    store_close(s);
}

/* The database, its WAL and shared-memory files and the lock file are the
 * owner's alone, even under a permissive umask: they hold every fight and
 * the server settings. */
static void test_store_files_private(void **state)
{
    struct fixture *f = *state;
    static const char *const suffixes[] = {"", "-wal", "-shm", ".lock"};
    mode_t old = umask(022);
    struct store *s = open_ok(f->path);
    assert_int_equal(store_enc_save(s, CH, 1, "{\"v\":1}"), BOT_OK);
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char p[128];
        struct stat st;
        snprintf(p, sizeof p, "%s%s", f->path, suffixes[i]);
        if (stat(p, &st) != 0)
            fail_msg("%s is missing", p);
        if ((st.st_mode & 0777) != 0600)
            fail_msg("%s has mode %04o, not 0600", p,
                     (unsigned)(st.st_mode & 0777));
    }
    store_close(s);
    umask(old);
}

static int64_t file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return (int64_t)sb.st_size;
}

/* Opening a database that exists writes nothing: no WAL frame, so no
 * sync before the daemon's READY (the auto_vacuum setting, which a new
 * file takes, was rewritten in a write transaction on every open). */
static void test_store_reopen_writes_nothing(void **state)
{
    struct fixture *f = *state;
    char wal[128];
    struct stat st;
    struct store *s = open_ok(f->path);
    assert_int_equal(store_enc_save(s, CH, 1, "{\"v\":1}"), BOT_OK);
    store_close(s);                         /* checkpoints the WAL away */
    snprintf(wal, sizeof wal, "%s-wal", f->path);

    s = open_ok(f->path);
    if (stat(wal, &st) == 0 && st.st_size != 0)
        fail_msg("opening wrote %lld bytes to the WAL",
                 (long long)st.st_size);
    assert_int_equal(raw_int(store__db(s), "PRAGMA auto_vacuum"), 2);
    store_close(s);
}

/* The retention test on a real file: 300 archived fights of 50 versions,
 * pruned past retention, and the file itself shrinks (a new database has
 * incremental auto_vacuum; closing checkpoints the WAL into it). */
static void test_store_prune_shrinks_file(void **state)
{
    struct fixture *f = *state;
    enum { NFIGHTS = 300, NVER = ENC_UNDO_DEPTH, PAD = 400 };
    const int64_t day = 24 * 60 * 60 * 1000ll;
    char doc[PAD + 64];
    struct store *s = open_ok(f->path);
    assert_int_equal(raw_int(store__db(s), "PRAGMA auto_vacuum"), 2);
    for (int k = 0; k < NFIGHTS; k++) {
        uint64_t ch = 1000 + (uint64_t)k;
        assert_int_equal(store_begin(s), BOT_OK);
        for (int v = 1; v <= NVER; v++) {
            int n = snprintf(doc, 64, "{\"doc\":%d,\"pad\":\"", v);
            memset(doc + n, 'x', PAD);
            memcpy(doc + n + PAD, "\"}", 3);
            assert_int_equal(store_enc_save(s, ch, v, doc), BOT_OK);
            struct store_change_rec r = {.version = v, .by = 7, .at_ms = v,
                                         .text = "hit the goblin for 4"};
            assert_int_equal(store_change_add(s, ch, &r), BOT_OK);
        }
        assert_int_equal(store_enc_archive(s, ch, day + k), BOT_OK);
        assert_int_equal(store_commit(s), BOT_OK);
    }
    store_close(s);
    int64_t before = file_size(f->path);

    s = open_ok(f->path);
    struct store_prune_cfg cfg = {
        .trim_before_ms = 90 * day,
        .keep_after_ms = 100 * day,
        .batch = STORE_PRUNE_BATCH_MAX,
    };
    struct store_prune_stats st = {0};
    do
        assert_int_equal(store_enc_prune(s, &cfg, &st), BOT_OK);
    while (st.more);
    assert_int_equal(st.trimmed, NFIGHTS);
    int64_t logical = 0;
    assert_int_equal(store_size(s, &logical), BOT_OK);
    assert_intact(s);
    store_close(s);
    int64_t after = file_size(f->path);
    print_message("file: %lld bytes before, %lld after pruning "
                  "(%lld by page count)\n",
                  (long long)before, (long long)after, (long long)logical);
    assert_true(after < before / 4);
    assert_int_equal(after, logical);
}

/* Lines of channel CH the store s sees. */
static enum bot_err count_line(void *ctx, const struct store_change_rec *c)
{
    (void)c;
    ++*(int *)ctx;
    return BOT_OK;
}

static int lines_seen(struct store *s)
{
    int n = 0;
    assert_int_equal(store_change_list(s, CH, 0, true, SIZE_MAX, NULL,
                                       count_line, &n), BOT_OK);
    return n;
}

/* store_open_reader: a second connection while the first holds the lock,
 * which sees what was committed and nothing else, and cannot write. */
static void test_store_reader(void **state)
{
    struct fixture *f = *state;
    struct store *s = open_ok(f->path), *r = NULL;
    char err[STORE_MAX_ERR];
    struct store_change_rec c = {.version = 1, .by = 7, .at_ms = 1,
                                 .text = "hit the goblin for 4"};
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 1, "{\"v\":1}"), BOT_OK);
    assert_int_equal(store_change_add(s, CH, &c), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    /* no lock taken: the writer holds it */
    assert_int_equal(store_open_reader(f->path, &r, err, sizeof err),
                     BOT_OK);
    assert_int_equal(lines_seen(r), 1);
    /* a change not yet committed is not seen, then it is */
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 2, "{\"v\":2}"), BOT_OK);
    c.version = 2;
    assert_int_equal(store_change_add(s, CH, &c), BOT_OK);
    assert_int_equal(lines_seen(r), 1);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(lines_seen(r), 2);
    /* read-only */
    assert_int_not_equal(store_kv_set(r, "k", "v"), BOT_OK);
    store_close(r);
    store_close(s);
    /* an in-memory database has no second connection */
    assert_int_equal(store_open_reader(":memory:", &r, err, sizeof err),
                     BOT_INVALID);
    assert_null(r);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tmp_setup, tmp_teardown)
    const struct CMUnitTest tests[] = {
        T(test_store_migrate_from_v0),      T(test_store_migrate_steps),
        T(test_store_upgrade_roll_rows),    T(test_store_upgrade_timer_lang),
        T(test_store_newer_schema_refused), T(test_store_not_a_database),
        T(test_store_lock_other_process),   T(test_store_lock_same_process),
        T(test_store_crash_after_commit),   T(test_store_crash_uncommitted),
        T(test_store_unsynced_write),       T(test_store_disk_full),
        T(test_store_files_private),        T(test_store_reopen_writes_nothing),
        T(test_store_prune_shrinks_file),   T(test_store_reader),
    };
#undef T
    return cmocka_run_group_tests_name("store_file", tests, NULL, NULL);
}
