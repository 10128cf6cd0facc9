/*
 * store_sqlite.c - the SQLite backend of store.h (store_backend.h): one
 * database file in WAL mode, one connection, every statement prepared once
 * at open.
 *
 * The tables are described in store_sqlite_schema.c and
 * docs/internals/store.md. All SQL of this backend lives in these two files
 * and store_sqlite_export.c.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "eng_limits.h"
#include "store_backend.h"
#include "store_hist.h"
#include "store_sqlite_int.h"
#include "store_sqlite_schema.h"

/* Mode of the files the store creates: the database and the lock file.
 * SQLite gives the -wal and -shm files the database file's mode, so all
 * four are the owner's alone whatever the umask: they hold every fight and
 * every server's settings. Files that already exist keep their mode. */
#define STORE_FILE_MODE 0600

/* Every statement the store runs, prepared at open. ?1, ?2 ... as noted. */
#define STORE_STMT_MAP(X)                                                      \
    X(BEGIN, "BEGIN IMMEDIATE")                                                \
    X(COMMIT, "COMMIT")                                                        \
    X(SYNC_NORMAL, "PRAGMA synchronous = NORMAL")                              \
    X(SYNC_FULL, "PRAGMA synchronous = FULL")                                  \
    X(ROLLBACK, "ROLLBACK")                                                    \
    X(NEST, "SAVEPOINT fray_nest")                                             \
    X(NEST_RELEASE, "RELEASE fray_nest")                                       \
    X(NEST_ROLLBACK, "ROLLBACK TO fray_nest")                                  \
    X(OP, "SAVEPOINT fray_op")                                                 \
    X(OP_RELEASE, "RELEASE fray_op")                                           \
    X(OP_ROLLBACK, "ROLLBACK TO fray_op")                                      \
    /* ?1 channel -> id, version, undo */                                      \
    X(LIVE, "SELECT id, version, undo FROM encounter"                          \
            " WHERE channel = ?1 AND ended_ms IS NULL")                        \
    /* ?1 channel -> version, doc */                                           \
    X(LIVE_DOC,                                                                \
      "SELECT v.version, v.doc FROM encounter e"                               \
      " JOIN enc_version v ON v.enc = e.id AND v.version = e.version"          \
      " WHERE e.channel = ?1 AND e.ended_ms IS NULL")                          \
    /* ?1 channel, ?2 version, ?3 floor -> version, doc, enc: the kept rows    \
     * from the live one down to the newest below ?2 and not below the         \
     * floor (store_sq_kept_floor; store_hist.h: each packed row needs the     \
     * one above it) */                                                        \
    X(BEFORE_DOC, "SELECT v.version, v.doc, e.id FROM encounter e"             \
                  " JOIN enc_version v ON v.enc = e.id"                        \
                  " WHERE e.channel = ?1 AND e.ended_ms IS NULL"               \
                  " AND v.version >= (SELECT max(w.version)"                   \
                  " FROM enc_version w WHERE w.enc = e.id"                     \
                  " AND w.version < ?2 AND w.version >= ?3)"                   \
                  " ORDER BY v.version DESC")                                  \
    /* ?1 channel, ?2 version, ?3 undo, ?4 now */                              \
    X(ENC_INSERT, "INSERT INTO encounter"                                      \
                  " (channel, version, undo, created_ms, updated_ms)"          \
                  " VALUES (?1, ?2, ?3, ?4, ?4)")                              \
    /* ?1 id, ?2 version, ?3 undo, ?4 now */                                   \
    X(ENC_UPDATE, "UPDATE encounter SET version = ?2, undo = ?3,"              \
                  " updated_ms = ?4 WHERE id = ?1")                            \
    /* ?1 id, ?2 version, ?3 undo, ?4 now, ?5 bytes: ENC_UPDATE counting a     \
     * history line too (store_enc_save_line) */                               \
    X(ENC_UPDATE_LINE, "UPDATE encounter SET version = ?2, undo = ?3,"         \
                       " updated_ms = ?4, hist_bytes = hist_bytes + ?5,"       \
                       " hist_lines = hist_lines + 1 WHERE id = ?1")           \
    /* ?1 channel, ?2 now */                                                   \
    X(ENC_ARCHIVE, "UPDATE encounter SET ended_ms = ?2, updated_ms = ?2"       \
                   " WHERE channel = ?1 AND ended_ms IS NULL")                 \
    X(ENC_REOPEN, "UPDATE encounter SET ended_ms = NULL, updated_ms = ?2"      \
                  " WHERE id = (SELECT id FROM encounter WHERE channel = ?1"   \
                  " AND ended_ms IS NOT NULL AND ended_ms >= ?3"               \
                  " ORDER BY ended_ms DESC, id DESC LIMIT 1)"                  \
                  " AND NOT EXISTS (SELECT 1 FROM encounter WHERE"             \
                  " channel = ?1 AND ended_ms IS NULL)")                       \
    /* ?1 channel, ?2 version, ?3 by, ?4 at, ?5 secret, ?6 text,               \
     * ?7 detail, ?8 gm_detail, ?9 by_name */                                  \
    X(CHG_ADD, "INSERT INTO enc_change (enc, version, by_user, at_ms,"         \
               " secret, text, detail, gm_detail, by_name)"                    \
               " SELECT id, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 FROM encounter"     \
               " WHERE channel = ?1 AND ended_ms IS NULL")                     \
    /* ?1 channel, ?2 after, ?3 limit -> version, by, at, secret, text */      \
    /* ?1 enc, then as CHG_ADD */                                              \
    X(CHG_ADD_ID, "INSERT INTO enc_change (enc, version, by_user, at_ms,"      \
                  " secret, text, detail, gm_detail, by_name)"                 \
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")              \
    X(CHG_NEW, "SELECT c.version, c.by_user, c.at_ms, c.secret, c.text,"       \
               " c.detail, c.gm_detail, c.by_name"                             \
               " FROM encounter e JOIN enc_change c ON c.enc = e.id"           \
               " WHERE e.channel = ?1 AND e.ended_ms IS NULL"                  \
               " AND c.version > ?2 ORDER BY c.version DESC LIMIT ?3")         \
    X(CHG_OLD, "SELECT c.version, c.by_user, c.at_ms, c.secret, c.text,"       \
               " c.detail, c.gm_detail, c.by_name"                             \
               " FROM encounter e JOIN enc_change c ON c.enc = e.id"           \
               " WHERE e.channel = ?1 AND e.ended_ms IS NULL"                  \
               " AND c.version > ?2 ORDER BY c.version LIMIT ?3")              \
    X(CHG_COUNT, "SELECT count(*) FROM encounter e"                            \
                 " JOIN enc_change c ON c.enc = e.id"                          \
                 " WHERE e.channel = ?1 AND e.ended_ms IS NULL"                \
                 " AND c.version > ?2")                                        \
    /* ?1 channel, ?2 bytes; then HIST_INFO reads the row. Not one         \
     * UPDATE ... RETURNING: SQLite gathers a RETURNING's rows in a           \
     * temporary b-tree of its own, opened and zeroed for each call           \
     * (31,000 instructions, a fifth of a command in memory). */              \
    X(HIST_NOTE, "UPDATE encounter SET hist_bytes = hist_bytes + ?2,"          \
                 " hist_lines = hist_lines + 1"                                \
                 " WHERE channel = ?1 AND ended_ms IS NULL")                   \
    /* ?1 id, ?2 bytes: as HIST_NOTE, for a remembered live row */            \
    X(HIST_ADD, "UPDATE encounter SET hist_bytes = hist_bytes + ?2,"           \
                " hist_lines = hist_lines + 1 WHERE id = ?1")                  \
    /* ?1 channel -> id, channel, guild, live, bytes, lines, folded */        \
    X(HIST_INFO, "SELECT " STORE_SQ_HIST_COLS " FROM encounter"                \
                 " WHERE channel = ?1 AND ended_ms IS NULL")                   \
    X(ENC_LIST, "SELECT channel FROM encounter WHERE ended_ms IS NULL"         \
                " ORDER BY channel")                                           \
    X(COUNT_LIVE, "SELECT count(*) FROM encounter WHERE ended_ms IS NULL")     \
    X(COUNT_ARCHIVED, "SELECT count(*) FROM encounter"                         \
                      " WHERE ended_ms IS NOT NULL")                           \
    /* ?1 enc, ?2 version, ?3 now, ?4 doc */                                   \
    X(VER_INSERT, "INSERT INTO enc_version (enc, version, created_ms, doc)"    \
                  " VALUES (?1, ?2, ?3, ?4)")                                  \
    /* ?1 enc, ?2 version -> doc */                                            \
    X(VER_DOC, "SELECT doc FROM enc_version WHERE enc = ?1 AND version = ?2")  \
    /* ?1 enc, ?2 version, ?3 packed doc (store_hist.h) */                     \
    X(VER_PACK, "UPDATE enc_version SET doc = ?3"                              \
                " WHERE enc = ?1 AND version = ?2")                            \
    /* ?1 enc, ?2 version */                                                   \
    X(VER_DELETE, "DELETE FROM enc_version WHERE enc = ?1 AND version = ?2")   \
    /* ?1 enc, ?2 floor: the versions fallen off the undo chain's end */       \
    X(VER_TRIM, "DELETE FROM enc_version WHERE enc = ?1 AND version < ?2")     \
    X(IX_SEEN, "SELECT 1 FROM interaction WHERE id = ?1")                      \
    X(IX_RECORD, "INSERT INTO interaction (id, channel, version, created_ms)"  \
                 " VALUES (?1, ?2, ?3, ?4)")                                   \
    /* ?1 before, ?2 limit: the oldest first, a bounded batch */               \
    X(IX_PRUNE, "DELETE FROM interaction WHERE id IN (SELECT id"               \
                " FROM interaction WHERE created_ms < ?1"                      \
                " ORDER BY created_ms LIMIT ?2)")                              \
    X(KV_GET, "SELECT value FROM kv WHERE key = ?1")                           \
    X(KV_GET_SHORT, "SELECT 0, value FROM kv WHERE key = ?1 UNION ALL"         \
                    " SELECT 1, value FROM kv WHERE key = ?2")                 \
    X(KV_GET_SHORT3, "SELECT 0, value FROM kv WHERE key = ?1 UNION ALL"        \
                     " SELECT 1, value FROM kv WHERE key = ?2 UNION ALL"       \
                     " SELECT 2, value FROM kv WHERE key = ?3")                \
    X(KV_SET, "INSERT INTO kv (key, value) VALUES (?1, ?2)"                    \
              " ON CONFLICT (key) DO UPDATE SET value = excluded.value")       \
    X(KV_DELETE, "DELETE FROM kv WHERE key = ?1")                              \
    X(KV_SCAN, "SELECT key, value FROM kv WHERE key >= ?1 AND key < ?2"       \
               " ORDER BY key")                                                \
    X(KV_SCAN_FROM, "SELECT key, value FROM kv WHERE key >= ?1 ORDER BY key")  \
    X(KV_LAST, "SELECT key FROM kv WHERE key >= ?1 AND key < ?2"              \
               " ORDER BY key DESC LIMIT 1")                                   \
    X(KV_LAST_FROM, "SELECT key FROM kv WHERE key >= ?1"                       \
                    " ORDER BY key DESC LIMIT 1")                              \
    X(KV_DELETE_RANGE, "DELETE FROM kv WHERE key >= ?1 AND key < ?2")          \
    /* ?1 id, ?2 channel, ?3 value; n one past the last row's */             \
    X(ROLLREC_PUT, "INSERT INTO roll_rec (id, channel, n, value)"              \
                   " VALUES (?1, ?2, coalesce((SELECT n FROM roll_rec"          \
                   " ORDER BY id DESC LIMIT 1), 0) + 1, ?3)"                   \
                   " ON CONFLICT (id) DO UPDATE SET channel ="                 \
                   " excluded.channel, value = excluded.value")                 \
    X(ROLLREC_GET, "SELECT value FROM roll_rec WHERE id = ?1"                  \
                   " AND channel = ?2")                                         \
    X(ROLLREC_AGE, "DELETE FROM roll_rec WHERE id < ?1")                       \
    X(ROLLREC_ROWS, "SELECT coalesce((SELECT n FROM roll_rec"                  \
                    " ORDER BY id DESC LIMIT 1) - (SELECT n FROM roll_rec"      \
                    " ORDER BY id LIMIT 1) + 1, 0)")                            \
    /* ?1 how many of the lowest ids */                                        \
    X(ROLLREC_CAP, "DELETE FROM roll_rec WHERE id IN (SELECT id"               \
                   " FROM roll_rec ORDER BY id LIMIT ?1)")                      \
    X(INTEGRITY, "PRAGMA integrity_check")

enum store_stmt {
#define STORE_STMT_ENUM_(n, sql) STMT_##n,
    STORE_STMT_MAP(STORE_STMT_ENUM_)
#undef STORE_STMT_ENUM_
        STMT__COUNT
};
_Static_assert(STMT__COUNT == STORE_SQ_NSTMT, "store_sqlite_int.h's count");

static const char *const store_stmt_sql[] = {
#define STORE_STMT_SQL_(n, sql) sql,
    STORE_STMT_MAP(STORE_STMT_SQL_)
#undef STORE_STMT_SQL_
};

/* What store_enc_save* found about the channel's live encounter. */
struct live {
    bool found;
    int64_t id;
    int64_t version;
    struct undo_chain undo;
};

/* ---- errors ------------------------------------------------------------- */

/* Record a failed SQLite call. If it cost us the open transaction (SQLite
 * rolls back on some I/O, disk-full and out-of-memory errors), remember that
 * so nothing later runs outside the caller's transaction. */
enum bot_err store_sq_fail_rc(struct store_sqlite *s, int rc, const char *what)
{
    enum bot_err e = store__map_rc(rc);
    if (e == BOT_OK)
        e = BOT_DB;
    snprintf(s->base.errmsg, sizeof s->base.errmsg, "%s: %s (%s)", what,
             sqlite3_errmsg(s->db), sqlite3_errstr(rc));
    if (s->depth > 0 && s->aborted == BOT_OK && sqlite3_get_autocommit(s->db))
        s->aborted = e;
    return e;
}

/* ---- statements --------------------------------------------------------- */

/* unbind(), which unlike the rest of SQLite's statement
 * calls does not accept the NULL of a statement that failed to prepare. */
static void unbind(sqlite3_stmt *st)
{
    if (st != NULL)
        sqlite3_clear_bindings(st);
}

/* The statement `id`, prepared at its first use: opening the store does
 * not parse statements a run may never need (startup reaches READY
 * sooner). NULL when it cannot be prepared: SQLite answers a NULL
 * statement with SQLITE_MISUSE, so the caller's step fails cleanly. */
static sqlite3_stmt *stmt_get(struct store_sqlite *s, enum store_stmt id)
{
    if (s->stmt[id] == NULL &&
        sqlite3_prepare_v3(s->db, store_stmt_sql[id], -1,
                           SQLITE_PREPARE_PERSISTENT, &s->stmt[id],
                           NULL) != SQLITE_OK)
        store__fail(&s->base, BOT_DB, "preparing statement %d: %s", (int)id,
                    sqlite3_errmsg(s->db));
    return s->stmt[id];
}

/* The statement `id`, reset and unbound. */
static sqlite3_stmt *stmt(struct store_sqlite *s, enum store_stmt id)
{
    sqlite3_stmt *st = stmt_get(s, id);
    sqlite3_reset(st);
    unbind(st);
    return st;
}

/* The statement `id` for a caller that binds every one of its parameters
 * next: run() left it reset, and each parameter is bound again, so the
 * clearing stmt() does is skipped on the save's hot statements. */
static sqlite3_stmt *stmt_rebind(struct store_sqlite *s, enum store_stmt id)
{
    return stmt_get(s, id);
}

/* Step a statement that returns no rows, then reset it. */
static enum bot_err run(struct store_sqlite *s, sqlite3_stmt *st,
                        const char *what)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return store_sq_fail_rc(s, rc, what);
    return BOT_OK;
}

static enum bot_err run_id(struct store_sqlite *s, enum store_stmt id,
                           const char *what)
{
    return run(s, stmt(s, id), what);
}

/* Copy a text column into a fresh heap string. */
enum bot_err store_sq_column_dup(struct store_sqlite *s, sqlite3_stmt *st,
                                 int col, char **out)
{
    const unsigned char *text = sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (!text)
        return store__fail(&s->base, BOT_NOMEM, "out of memory reading a row");
    char *copy = malloc(len + 1);
    if (!copy)
        return store__fail(&s->base, BOT_NOMEM,
                           "out of memory copying %zu bytes", len);
    memcpy(copy, text, len);
    copy[len] = '\0';
    *out = copy;
    return BOT_OK;
}

/* Fail fast while the caller's transaction is lost (see store.h) or a
 * level of it holds a half-written save. */
enum bot_err store_sq_guard(struct store_sqlite *s)
{
    if (s->depth == 0)
        return BOT_OK;
    return s->aborted != BOT_OK ? s->aborted
           : s->broken > 0      ? s->broken_err
                                : BOT_OK;
}

enum bot_err store_sq_prepare(struct store_sqlite *s, const char *sql,
                              sqlite3_stmt **st, const char *what)
{
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    return rc == SQLITE_OK ? BOT_OK : store_sq_fail_rc(s, rc, what);
}

/* Every multi-row write runs inside a savepoint of its own, so it is atomic
 * with or without the caller's transaction. */
enum bot_err store_sq_op_begin(struct store_sqlite *s)
{
    enum bot_err e = store_sq_guard(s);
    return e != BOT_OK ? e : run_id(s, STMT_OP, "starting a change");
}

enum bot_err store_sq_op_end(struct store_sqlite *s, enum bot_err e)
{
    if (e == BOT_OK) {
        e = run_id(s, STMT_OP_RELEASE, "finishing a change");
        if (e == BOT_OK)
            return BOT_OK;
    }
    /* Nothing to undo when SQLite already rolled everything back. */
    if (s->depth > 0 ? s->aborted != BOT_OK : sqlite3_get_autocommit(s->db))
        return e;
    sqlite3_step(stmt(s, STMT_OP_ROLLBACK));
    sqlite3_reset(s->stmt[STMT_OP_ROLLBACK]);
    sqlite3_step(stmt(s, STMT_OP_RELEASE));
    sqlite3_reset(s->stmt[STMT_OP_RELEASE]);
    return e;
}

/* ---- open and close ----------------------------------------------------- */

/* Take "<path>.lock" for the life of the store. flock, not SQLite's
 * locking_mode=EXCLUSIVE: it fails at once with a clear reason instead of
 * after the busy timeout with "database is locked", it is held from before
 * the first read (so two processes never both migrate), it is released by
 * the kernel when the process dies, and it never touches SQLite's own
 * fcntl locks on the database and WAL files. */
static enum bot_err lock_take(struct store_sqlite *s, const char *path,
                              char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *lockpath = malloc(len + sizeof ".lock");
    if (!lockpath) {
        snprintf(err, errlen, "out of memory opening %s", path);
        return BOT_NOMEM;
    }
    memcpy(lockpath, path, len);
    memcpy(lockpath + len, ".lock", sizeof ".lock");

    enum bot_err e = BOT_OK;
    int fd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, STORE_FILE_MODE);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open lock file %s: %s", lockpath,
                 strerror(errno));
        e = BOT_IO;
    } else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK) {
            char pid[24] = "";
            ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
            pid[n > 0 ? n : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            snprintf(err, errlen,
                     "database %s is in use by another fray (pid %s holds "
                     "%s); stop it first",
                     path, pid[0] ? pid : "?", lockpath);
            e = BOT_LOCKED;
        } else {
            snprintf(err, errlen, "cannot lock %s: %s", lockpath,
                     strerror(errno));
            e = BOT_IO;
        }
        close(fd);
    } else {
        /* The pid is only for the message above; a failure here is not. */
        char pid[24];
        int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
        if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
            /* cosmetic: the lock itself is held */
        }
        s->lock_fd = fd;
    }
    free(lockpath);
    return e;
}

/* Run a PRAGMA that returns one text row; its value into buf. */
static int pragma_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *v = (const char *)sqlite3_column_text(st, 0);
            snprintf(buf, len, "%s", v ? v : "");
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            buf[0] = '\0';
            rc = SQLITE_OK;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* KiB of SQLite's page cache for a reader (store_open_reader). */
#define STORE_READER_CACHE_KB "256"

/* Connection settings, WAL, migrations (the statements are prepared at
 * their first use, stmt_get()); a reader (store_open_reader) only the
 * busy timeout and its cache: the writer that holds the lock has set the
 * file up. */
static enum bot_err db_setup(struct store_sqlite *s, const char *path,
                             bool memory, char *err, size_t errlen)
{
    sqlite3 *db = s->db;
    char mode[16];
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    /* A reader scans a fight's history once, in order: the kernel's page
     * cache serves that as well as SQLite's own (2 MiB by default), which
     * would only add to the process's memory. */
    if (s->reader) {
        (void)sqlite3_exec(db, "PRAGMA cache_size = -" STORE_READER_CACHE_KB,
                           NULL, NULL, NULL);
        return BOT_OK;
    }

    /* auto_vacuum takes hold only in a new database, before its header is
     * written (so before WAL mode): there it lets a prune give freed pages
     * back (store_sqlite_prune.c); an older file keeps its setting. A
     * failure here (not a database) is reported by the next statement.
     * Setting it on a file that has it already is not free: SQLite
     * rewrites the header's page in a write transaction, a WAL frame and
     * two or three syncs on every start before READY (bench/README.md,
     * "Startup results"), so it is set only where it is not yet 2. */
    char vac[8];
    if (pragma_text(db, "PRAGMA auto_vacuum", vac, sizeof vac) != SQLITE_OK ||
        strcmp(vac, "2") != 0)
        (void)sqlite3_exec(db, "PRAGMA auto_vacuum = INCREMENTAL", NULL, NULL,
                           NULL);
    int rc = pragma_text(db, "PRAGMA journal_mode = WAL", mode, sizeof mode);
    if (rc != SQLITE_OK) {
        enum bot_err e = store__map_rc(rc);
        if (e == BOT_DB_CORRUPT)
            snprintf(err, errlen,
                     "%s is not a fray database or is damaged: "
                     "%s",
                     path, sqlite3_errmsg(db));
        else
            snprintf(err, errlen, "cannot open database %s: %s", path,
                     sqlite3_errmsg(db));
        return e == BOT_OK ? BOT_DB : e;
    }
    if (!memory && strcmp(mode, "wal") != 0) {
        snprintf(err, errlen, "database %s: cannot use WAL mode (got %s)", path,
                 mode);
        return BOT_DB;
    }
    /* synchronous=FULL: see docs/internals/store.md. */
    static const char *const pragmas[] = {
        "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON",
        "PRAGMA trusted_schema = OFF",
        "PRAGMA journal_size_limit = 67108864", /* WAL kept: 64 MiB */
        /* Debian's SQLite zeroes every deleted row (SECURE_DELETE); each
         * save deletes the oldest kept version, and zeroing it was 7% of a
         * command. FAST zeroes what is written anyway; the rest is freed
         * pages of a file only fray reads (0600), and pruning gives them
         * back to the disk (incremental auto_vacuum). */
        "PRAGMA secure_delete = FAST",
        /* A write that may touch several rows inside a group's
         * transaction gets a statement journal; on disk that was a file
         * created, unlinked and written every few groups of a busy
         * server (strace over bench/e2e's combat mix: 12 a second). In
         * memory it is the same bytes without the open and unlink. */
        "PRAGMA temp_store = MEMORY",
    };
    for (size_t i = 0; i < sizeof pragmas / sizeof pragmas[0]; i++) {
        rc = sqlite3_exec(db, pragmas[i], NULL, NULL, NULL);
        if (rc != SQLITE_OK) {
            snprintf(err, errlen, "database %s: %s: %s", path, pragmas[i],
                     sqlite3_errmsg(db));
            enum bot_err e = store__map_rc(rc);
            return e == BOT_OK ? BOT_DB : e;
        }
    }

    return store__migrate(db, path, store_schema_steps, store_schema_nsteps,
                          err, errlen);
}

static void sq_close(struct store *base);

/* store.c has checked path and err. A reader takes no lock, creates
 * nothing and opens the file read-only. */
static enum bot_err sq_open_as(const char *path, bool reader,
                               struct store **out, char *err, size_t errlen)
{
    bool memory = strcmp(path, ":memory:") == 0;
    if (reader && memory) {
        snprintf(err, errlen, "an in-memory database has no second "
                 "connection");
        return BOT_INVALID;
    }
    struct store_sqlite *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory opening %s", path);
        return BOT_NOMEM;
    }
    s->lock_fd = -1;
    s->reader = reader;

    enum bot_err e = memory || reader ? BOT_OK
                                      : lock_take(s, path, err, errlen);
    if (e == BOT_OK && !memory && !reader) {
        /* Create the database file ourselves: SQLite would make it 0644
         * under the usual umask. Any failure is left to sqlite3_open_v2,
         * which says why. */
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                      STORE_FILE_MODE);
        if (fd >= 0)
            close(fd);
    }
    if (e == BOT_OK) {
        /* SQLite keeps allocation statistics behind a global mutex by
         * default; fray never reads them, and they cost a lock on every
         * allocation. This only takes hold before SQLite initialises (the
         * first open); later it is refused, which changes nothing. */
        (void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        int rc = sqlite3_open_v2(path, &s->db,
                                 (reader ? SQLITE_OPEN_READONLY
                                         : SQLITE_OPEN_READWRITE |
                                               SQLITE_OPEN_CREATE) |
                                     SQLITE_OPEN_NOMUTEX,
                                 NULL);
        if (rc != SQLITE_OK) {
            snprintf(err, errlen, "cannot open database %s: %s", path,
                     s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
            e = store__map_rc(rc);
            if (e == BOT_OK || e == BOT_DB)
                e = rc == SQLITE_NOMEM ? BOT_NOMEM : BOT_IO;
        } else {
            e = db_setup(s, path, memory, err, errlen);
        }
    }
    if (e != BOT_OK) {
        sq_close(&s->base);
        return e;
    }
    s->base.ops = &store_sqlite_ops;
    *out = &s->base;
    return BOT_OK;
}

static enum bot_err sq_open(const char *path, struct store **out, char *err,
                            size_t errlen)
{
    return sq_open_as(path, false, out, err, errlen);
}

static enum bot_err sq_open_reader(const char *path, struct store **out,
                                   char *err, size_t errlen)
{
    return sq_open_as(path, true, out, err, errlen);
}

static void sq_close(struct store *base)
{
    struct store_sqlite *s = SQ(base);
    if (s->db && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < STMT__COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    store_sq_live_free(s);
    sqlite3_close(s->db); /* checkpoints the WAL */
    if (s->lock_fd >= 0)
        close(s->lock_fd); /* releases the flock */
    free(s);
}

struct sqlite3 *store__db(struct store *base)
{
    assert(base->ops == &store_sqlite_ops);
    return SQ(base)->db;
}

/* ---- transactions ------------------------------------------------------- */

static enum bot_err sq_begin(struct store *base)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e;
    if (s->depth == 0) {
        s->aborted = BOT_OK;
        s->broken = 0;
        s->changes0 = sqlite3_total_changes64(s->db);
        e = run_id(s, STMT_BEGIN, "starting a transaction");
    } else {
        e = store_sq_guard(s);
        if (e == BOT_OK)
            e = run_id(s, STMT_NEST, "starting a nested transaction");
    }
    if (e == BOT_OK)
        s->depth++;
    return e;
}

static void sq_rollback(struct store *base);

static enum bot_err sq_commit(struct store *base)
{
    struct store_sqlite *s = SQ(base);
    if (s->depth == 0)
        return store__fail(&s->base, BOT_INVALID,
                           "commit without a transaction");
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK) {
        sq_rollback(base);
        return e;
    }
    if (s->depth > 1) {
        e = run_id(s, STMT_NEST_RELEASE, "finishing a nested transaction");
        if (e != BOT_OK) {
            sq_rollback(base);
            return e;
        }
        store_sq_live_level_end(s, s->depth, true);
        s->depth--;
        return BOT_OK;
    }
    e = run_id(s, STMT_COMMIT, "committing");
    if (e != BOT_OK)
        store_sq_live_drop(s);
    else
        store_sq_live_level_end(s, 1, true);
    if (e != BOT_OK && !sqlite3_get_autocommit(s->db))
        run_id(s, STMT_ROLLBACK, "rolling back a failed commit");
    s->depth = 0;
    s->aborted = BOT_OK;
    return e;
}

static void sq_rollback(struct store *base)
{
    struct store_sqlite *s = SQ(base);
    if (s->depth == 0)
        return;
    if (s->aborted != BOT_OK)
        store_sq_live_drop(s); /* SQLite undid the outer levels too */
    store_sq_live_level_end(s, s->depth, false);
    if (s->depth == 1) {
        if (!sqlite3_get_autocommit(s->db))
            run_id(s, STMT_ROLLBACK, "rolling back");
        s->aborted = BOT_OK;
    } else if (s->aborted == BOT_OK) {
        run_id(s, STMT_NEST_ROLLBACK, "rolling back a nested transaction");
        run_id(s, STMT_NEST_RELEASE, "closing a nested transaction");
    }
    if (s->broken >= s->depth)
        s->broken = 0; /* the half-written save is gone with its level */
    s->depth--;
}

/* ---- encounters --------------------------------------------------------- */

static enum bot_err live_get(struct store_sqlite *s, uint64_t channel,
                             struct live *out)
{
    sqlite3_stmt *st = stmt(s, STMT_LIVE);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    int rc = sqlite3_step(st);
    enum bot_err e = BOT_OK;
    out->found = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW) {
        out->id = sqlite3_column_int64(st, 0);
        out->version = sqlite3_column_int64(st, 1);
        e = store__undo_decode(&s->base, sqlite3_column_blob(st, 2),
                               sqlite3_column_bytes(st, 2), &out->undo);
    } else if (rc != SQLITE_DONE) {
        e = store_sq_fail_rc(s, rc, "reading the live encounter");
    }
    sqlite3_reset(st);
    return e;
}

/* The live row from the channel's remembered save (*known, borrowed) or,
 * when there is none, read (*known NULL); after the guard. */
static enum bot_err live_of(struct store_sqlite *s, uint64_t channel,
                            struct live *out,
                            const struct store_sq_live **known)
{
    enum bot_err e = store_sq_guard(s);
    *known = NULL;
    if (e != BOT_OK)
        return e;
    *known = store_sq_live_find(s, channel);
    if (*known == NULL)
        return live_get(s, channel, out);
    *out = (struct live){.found = true, .id = (*known)->id,
                         .version = (*known)->version,
                         .undo = (*known)->undo};
    return BOT_OK;
}

/* Delete the live encounter's versions below its floor: those fallen off
 * the undo chain's end (STORE_SQ_TRIM_BATCH). */
static enum bot_err versions_trim(struct store_sqlite *s, const struct live *l,
                                  const struct undo_chain *undo,
                                  int64_t live)
{
    sqlite3_stmt *st = stmt_rebind(s, STMT_VER_TRIM);
    sqlite3_bind_int64(st, 1, l->id);
    sqlite3_bind_int64(st, 2, store_sq_kept_floor(undo, live));
    return run(s, st, "trimming encounter history");
}

static enum bot_err version_delete(struct store_sqlite *s, int64_t id,
                                   int64_t version)
{
    sqlite3_stmt *st = stmt(s, STMT_VER_DELETE);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, version);
    return run(s, st, "trimming encounter history");
}

/* The new live row: insert or update the encounter, insert the version.
 * line_bytes >= 0 (an update only): a history line of that size counted
 * in the same write. */
static enum bot_err live_write(struct store_sqlite *s, uint64_t channel,
                               struct live *l, int64_t version,
                               const struct undo_chain *undo, const char *doc,
                               size_t doc_len, int64_t line_bytes)
{
    unsigned char blob[ENC_UNDO_DEPTH * 8];
    int64_t now = store__now_ms();
    store__undo_encode(undo, blob);

    sqlite3_stmt *st =
        stmt_rebind(s, !l->found          ? STMT_ENC_INSERT
                       : line_bytes >= 0 ? STMT_ENC_UPDATE_LINE
                                         : STMT_ENC_UPDATE);
    if (l->found)
        sqlite3_bind_int64(st, 1, l->id);
    else
        sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 2, version);
    sqlite3_bind_blob(st, 3, blob, (int)(undo->n * 8), SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, now);
    if (l->found && line_bytes >= 0)
        sqlite3_bind_int64(st, 5, line_bytes);
    enum bot_err e = run(s, st, "saving the encounter");
    if (e != BOT_OK)
        return e;
    if (!l->found)
        l->id = sqlite3_last_insert_rowid(s->db);

    st = stmt_rebind(s, STMT_VER_INSERT);
    sqlite3_bind_int64(st, 1, l->id);
    sqlite3_bind_int64(st, 2, version);
    sqlite3_bind_int64(st, 3, now);
    sqlite3_bind_text(st, 4, doc, (int)doc_len, SQLITE_STATIC);
    e = run(s, st, "saving the encounter document");
    unbind(st); /* drop the borrowed doc pointer */
    return e;
}

/* store_hist_walk_fn: the live encounter's kept rows from the live one
 * down to the newest below `below`. */
static enum bot_err walk_before(struct store *base, uint64_t channel,
                                int64_t below, struct store_hist_walk *w)
{
    struct store_sqlite *s = SQ(base);
    struct live l = {0};
    const struct store_sq_live *known;
    enum bot_err e = live_of(s, channel, &l, &known);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_BEFORE_DOC);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 2, below);
    /* no live row: the join finds nothing either */
    sqlite3_bind_int64(st, 3, l.found ? store_sq_kept_floor(&l.undo,
                                                            l.version)
                                      : below);
    int rc = SQLITE_DONE;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        bool packed = sqlite3_column_type(st, 1) == SQLITE_BLOB;
        const void *p = packed ? sqlite3_column_blob(st, 1)
                               : (const void *)sqlite3_column_text(st, 1);
        size_t n = (size_t)sqlite3_column_bytes(st, 1);
        w->enc = sqlite3_column_int64(st, 2);
        e = p || n == 0 ? store__hist_feed(&s->base, w,
                                           sqlite3_column_int64(st, 0),
                                           packed, p ? p : "", n)
                        : store__fail(&s->base, BOT_NOMEM,
                                      "out of memory reading a row");
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "loading an earlier version");
    sqlite3_reset(st);
    return e;
}

static enum bot_err version_pack(struct store_sqlite *s, int64_t id,
                                 int64_t version, const unsigned char *p,
                                 size_t n)
{
    sqlite3_stmt *st = stmt_rebind(s, STMT_VER_PACK);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, version);
    sqlite3_bind_blob(st, 3, p, (int)n, SQLITE_STATIC);
    enum bot_err e = run(s, st, "packing an earlier version");
    unbind(st); /* drop the borrowed pointer */
    return e;
}

/* A plain save's new chain head is the old live version, whole TEXT:
 * pack it against the new document. The last save's text when it is
 * remembered, else read by its key. The general walk
 * (store__hist_head_pack, for undo) joins and searches: 7,000 more
 * instructions, 4% of a command. */
static enum bot_err live_pack(struct store_sqlite *s, const struct live *l,
                              const struct store_sq_live *known,
                              const char *doc, size_t doc_len,
                              unsigned char **out, size_t *outlen)
{
    if (known != NULL)
        return store__hist_pack(&s->base, known->doc, known->len, doc,
                                doc_len, out, outlen);
    sqlite3_stmt *st = stmt(s, STMT_VER_DOC);
    sqlite3_bind_int64(st, 1, l->id);
    sqlite3_bind_int64(st, 2, l->version);
    int rc = sqlite3_step(st);
    enum bot_err e = BOT_OK;
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
        const char *text = (const char *)sqlite3_column_text(st, 0);
        e = text ? store__hist_pack(&s->base, text,
                                    (size_t)sqlite3_column_bytes(st, 0), doc,
                                    doc_len, out, outlen)
                 : store__fail(&s->base, BOT_NOMEM,
                               "out of memory reading a row");
    } else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        e = store__fail(&s->base, BOT_DB_CORRUPT,
                        "encounter %lld: its live version %lld is %s",
                        (long long)l->id, (long long)l->version,
                        rc == SQLITE_ROW ? "stored packed" : "not kept");
    } else {
        e = store_sq_fail_rc(s, rc, "reading the live version");
    }
    sqlite3_reset(st);
    return e;
}

/* store_enc_save and store_enc_save_undo: see store.h for the chain.
 * line_bytes >= 0: a plain save over a remembered row whose history
 * count is known also counts a line of that size (sq_enc_save_line). */
static enum bot_err save(struct store_sqlite *s, uint64_t channel,
                         int64_t version, const char *doc, bool undo,
                         int64_t line_bytes)
{
    struct store *base = &s->base;
    struct live l = {0};
    struct undo_chain next;
    int64_t drop[2];
    size_t ndrop = 0, plen = 0;
    unsigned char *packed = NULL;
    size_t doc_len = strlen(doc); /* once: packing, binding, remembering */

    const struct store_sq_live *known = NULL;
    /* Unknown (nothing remembered): as if a batch were due, so rows left
     * by an earlier process or a forgotten save go at the next fall. */
    int pending = STORE_SQ_TRIM_BATCH - 1;
    /* Inside the caller's transaction the save needs no savepoint of its
     * own (5,600 instructions a command: the statements and the copy of
     * every page it touches into the savepoint's journal). A failure
     * after the first write instead leaves the caller's level unusable
     * until it is rolled back, as PostgreSQL's aborted transaction does;
     * refusals (conflict, nothing to undo, a damaged row) come before
     * anything is written and leave it usable. */
    bool own = s->depth == 0, wrote = false;
    enum bot_err e = own ? store_sq_op_begin(s) : store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    e = live_of(s, channel, &l, &known);
    if (e != BOT_OK)
        goto out;
    if (known != NULL)
        pending = known->pending;

    e = store__plan_save(base, channel, l.found, l.version, &l.undo, version,
                         undo, &next, drop, &ndrop);
    if (e == BOT_OK && !undo && l.found && next.n > 0)
        e = live_pack(s, &l, known, doc, doc_len, &packed, &plen);
    else if (e == BOT_OK)
        e = store__hist_head_pack(base, walk_before, channel, &next, doc,
                                   BOT_DB_CORRUPT, &packed, &plen);
    /* Shrink the old row before the new one goes in: the new row then
     * fits on the page the old one leaves nearly empty. The other way
     * round every version takes a page of its own and keeps it. */
    wrote = e == BOT_OK;
    if (e == BOT_OK && packed)
        e = version_pack(s, l.id, next.v[0], packed, plen);
    free(packed);
    if (e == BOT_OK)
        e = live_write(s, channel, &l, version, &next, doc, doc_len,
                       line_bytes);
    if (undo) {
        /* the undone version and the restored one: above the floor */
        for (size_t i = 0; i < ndrop && e == BOT_OK; i++)
            e = version_delete(s, l.id, drop[i]);
    } else if (ndrop > 0 && ++pending >= STORE_SQ_TRIM_BATCH) {
        if (e == BOT_OK)
            e = versions_trim(s, &l, &next, version);
        pending = 0;
    }
out:
    if (own) {
        e = store_sq_op_end(s, e);
    } else if (e != BOT_OK && wrote && s->aborted == BOT_OK) {
        s->broken = s->depth;
        s->broken_err = e;
    }
    if (e == BOT_OK)
        store_sq_live_put(s, channel, l.id, version, &next, pending, doc,
                          doc_len);
    else
        store_sq_live_drop(s);
    if (e == BOT_OK && line_bytes >= 0 && l.found)
        store_sq_live_hist_add(s, channel, line_bytes);
    return e;
}

static enum bot_err sq_enc_save(struct store *base, uint64_t channel,
                                int64_t version, const char *doc, bool undo)
{
    return save(SQ(base), channel, version, doc, undo, -1);
}

/* Run a (version, doc) query; BOT_NOTFOUND on no row. */
static enum bot_err doc_query(struct store_sqlite *s, sqlite3_stmt *st,
                              const char *what, char **doc, int64_t *version)
{
    enum bot_err e = store_sq_guard(s);
    int rc = e == BOT_OK ? sqlite3_step(st) : SQLITE_OK;
    if (e != BOT_OK) {
        /* keep e */
    } else if (rc == SQLITE_ROW &&
               sqlite3_column_type(st, 1) == SQLITE_BLOB) {
        e = store__fail(&s->base, BOT_DB_CORRUPT,
                        "%s: the live version is stored packed", what);
    } else if (rc == SQLITE_ROW) {
        char *copy = NULL;
        e = store_sq_column_dup(s, st, 1, &copy);
        if (e == BOT_OK) {
            *version = sqlite3_column_int64(st, 0);
            *doc = copy;
        }
    } else if (rc == SQLITE_DONE) {
        e = store__fail(&s->base, BOT_NOTFOUND, "%s: none", what);
    } else {
        e = store_sq_fail_rc(s, rc, what);
    }
    sqlite3_reset(st);
    return e;
}

static enum bot_err sq_enc_load(struct store *base, uint64_t channel,
                                char **doc, int64_t *version)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = stmt(s, STMT_LIVE_DOC);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    return doc_query(s, st, "loading the encounter", doc, version);
}

static enum bot_err sq_enc_load_before(struct store *base, uint64_t channel,
                                       int64_t version, char **doc,
                                       int64_t *found_version)
{
    return store__hist_load_before(base, walk_before, channel, version, doc,
                                   found_version);
}

static enum bot_err sq_enc_version(struct store *base, uint64_t channel,
                                   int64_t *version)
{
    struct store_sqlite *s = SQ(base);
    struct live l = {0};
    const struct store_sq_live *known;
    enum bot_err e = live_of(s, channel, &l, &known);
    if (e == BOT_OK && !l.found)
        e = BOT_NOTFOUND;
    if (e == BOT_OK)
        *version = l.version;
    return e;
}

/* Move the channel's encounter into or out of the archive with statement
 * id (?1 channel, ?2 now, and ?3 since when it has one); none says what
 * was missing when no row changed. */
static enum bot_err set_ended(struct store *base, enum store_stmt id,
                              uint64_t channel, int64_t now, int64_t since,
                              const char *doing, const char *none)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    store_sq_live_drop(s);
    sqlite3_stmt *st = stmt(s, id);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 2, now);
    if (sqlite3_bind_parameter_count(st) >= 3)
        sqlite3_bind_int64(st, 3, since);
    e = run(s, st, doing);
    if (e == BOT_OK && sqlite3_changes(s->db) == 0)
        e = store__fail(&s->base, BOT_NOTFOUND, "channel %llu: %s",
                        (unsigned long long)channel, none);
    return e;
}

/* An archived fight keeps exactly its final version and its chain
 * (docs/internals/store.md), so the versions waiting for a trim go now. */
static enum bot_err sq_enc_archive(struct store *base, uint64_t channel,
                                   int64_t now)
{
    struct store_sqlite *s = SQ(base);
    struct live l = {0};
    const struct store_sq_live *known;
    enum bot_err e = live_of(s, channel, &l, &known);
    if (e == BOT_OK && l.found && (known == NULL || known->pending > 0))
        e = versions_trim(s, &l, &l.undo, l.version);
    if (e != BOT_OK)
        return e;
    return set_ended(base, STMT_ENC_ARCHIVE, channel, now, 0,
                     "archiving the encounter", "no encounter to end");
}

static enum bot_err sq_enc_reopen(struct store *base, uint64_t channel,
                                  int64_t now, int64_t since)
{
    return set_ended(base, STMT_ENC_REOPEN, channel, now, since,
                     "reopening the encounter",
                     "no recently ended encounter");
}

/* ---- history ------------------------------------------------------------- */

void store_sq_change_row(sqlite3_stmt *st, struct store_change_rec *r)
{
    *r = (struct store_change_rec){
        .version = sqlite3_column_int64(st, 0),
        .by = (uint64_t)sqlite3_column_int64(st, 1),
        .at_ms = sqlite3_column_int64(st, 2),
        .secret = sqlite3_column_int(st, 3) != 0,
        .text = (const char *)sqlite3_column_text(st, 4),
        .detail = (const char *)sqlite3_column_text(st, 5),
        .gm_detail = (const char *)sqlite3_column_text(st, 6),
        .by_name = (const char *)sqlite3_column_text(st, 7),
    };
}

void store_sq_bind_change(sqlite3_stmt *st, const struct store_change_rec *r)
{
    sqlite3_bind_int64(st, 2, r->version);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)r->by);
    sqlite3_bind_int64(st, 4, r->at_ms);
    sqlite3_bind_int(st, 5, r->secret);
    sqlite3_bind_text(st, 6, r->text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, r->detail ? r->detail : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, r->gm_detail ? r->gm_detail : "", -1,
                      SQLITE_STATIC);
    sqlite3_bind_text(st, 9, r->by_name ? r->by_name : "", -1,
                      SQLITE_STATIC);
}

static enum bot_err sq_change_add(struct store *base, uint64_t channel,
                                  const struct store_change_rec *r)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    const struct store_sq_live *known = store_sq_live_find(s, channel);
    sqlite3_stmt *st =
        stmt_rebind(s, known ? STMT_CHG_ADD_ID : STMT_CHG_ADD);
    sqlite3_bind_int64(st, 1, known ? known->id : (sqlite3_int64)channel);
    store_sq_bind_change(st, r);
    int rc = sqlite3_step(st);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        e = store__fail(&s->base, BOT_CONFLICT, "channel %llu: version %lld "
                        "has its history line", (unsigned long long)channel,
                        (long long)r->version);
    else if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "recording the history");
    else if (sqlite3_changes(s->db) == 0)
        e = store__fail(&s->base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    sqlite3_reset(st);
    unbind(st);
    return e;
}

static enum bot_err sq_change_list(struct store *base, uint64_t channel,
                                   int64_t after, bool newest_first,
                                   size_t max, size_t *total,
                                   store_change_fn *fn, void *ctx)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    if (total != NULL) {
        sqlite3_stmt *c = stmt(s, STMT_CHG_COUNT);
        sqlite3_bind_int64(c, 1, (sqlite3_int64)channel);
        sqlite3_bind_int64(c, 2, after);
        int rc = sqlite3_step(c);
        if (rc == SQLITE_ROW)
            *total = (size_t)sqlite3_column_int64(c, 0);
        else
            e = store_sq_fail_rc(s, rc, "counting the history");
        sqlite3_reset(c);
        unbind(c);
        if (e != BOT_OK)
            return e;
    }
    sqlite3_stmt *st = stmt(s, newest_first ? STMT_CHG_NEW : STMT_CHG_OLD);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 2, after);
    sqlite3_bind_int64(st, 3, max > INT64_MAX ? INT64_MAX : (int64_t)max);
    int rc;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_change_rec r;
        store_sq_change_row(st, &r);
        e = r.text != NULL && r.detail != NULL && r.gm_detail != NULL &&
                    r.by_name != NULL
                ? fn(ctx, &r)
                           : store__fail(&s->base, BOT_NOMEM,
                                         "out of memory reading the history");
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "reading the history");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

void store_sq_hist_row(sqlite3_stmt *st, struct store_hist_row *r)
{
    *r = (struct store_hist_row){
        .id = sqlite3_column_int64(st, 0),
        .channel = (uint64_t)sqlite3_column_int64(st, 1),
        .guild = (uint64_t)sqlite3_column_int64(st, 2),
        .live = sqlite3_column_int(st, 3) != 0,
        .bytes = sqlite3_column_int64(st, 4),
        .lines = sqlite3_column_int64(st, 5),
        .folded_to = sqlite3_column_int64(st, 6),
    };
}

/* The channel's live fight's count into out (HIST_INFO). */
static enum bot_err hist_row(struct store_sqlite *s, uint64_t channel,
                             struct store_hist_row *out)
{
    sqlite3_stmt *st = stmt(s, STMT_HIST_INFO);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)channel);
    int rc = sqlite3_step(st);
    enum bot_err e = BOT_OK;
    if (rc == SQLITE_ROW)
        store_sq_hist_row(st, out);
    else if (rc == SQLITE_DONE)
        e = store__fail(&s->base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    else
        e = store_sq_fail_rc(s, rc, "counting the history");
    sqlite3_reset(st);
    return e;
}

/* Add a line to the count: by the remembered row's id, whose count the
 * slot then holds too, or by the channel and read back (and remembered
 * for the next line). */
static enum bot_err sq_hist_note(struct store *base, uint64_t channel,
                                 int64_t bytes, struct store_hist_row *out)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    const struct store_sq_live *known = store_sq_live_find(s, channel);
    bool counted = known != NULL && known->hist_known;
    sqlite3_stmt *st = stmt(s, counted ? STMT_HIST_ADD : STMT_HIST_NOTE);
    sqlite3_bind_int64(st, 1, counted ? known->id : (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 2, bytes);
    e = run(s, st, "counting the history");
    if (e == BOT_OK && sqlite3_changes(s->db) == 0)
        e = store__fail(&s->base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    if (e == BOT_OK && counted) {
        struct store_hist_row row = known->hist;
        row.bytes += bytes;
        row.lines++;
        *out = row;
    } else if (e == BOT_OK) {
        e = hist_row(s, channel, out);
    }
    if (e == BOT_OK)
        store_sq_live_hist(s, channel, out);
    return e;
}

static enum bot_err sq_hist_info(struct store *base, uint64_t channel,
                                 struct store_hist_row *out)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    return e != BOT_OK ? e : hist_row(s, channel, out);
}

/* The line is counted in the save's own UPDATE of the encounter row, one
 * statement fewer (5,600 instructions of a command), when the count is
 * remembered (the row's count is then not read back) and a transaction
 * is open (the line's insert comes after the row's write: a failure
 * there leaves the level to be rolled back, as a failed save does). */
static enum bot_err sq_enc_save_line(struct store *base, uint64_t channel,
                                     int64_t version, const char *doc,
                                     const struct store_change_rec *line,
                                     int64_t bytes,
                                     struct store_hist_row *row)
{
    struct store_sqlite *s = SQ(base);
    const struct store_sq_live *known = store_sq_live_find(s, channel);
    if (known == NULL || !known->hist_known || s->depth == 0) {
        enum bot_err e = save(s, channel, version, doc, false, -1);
        if (e == BOT_OK)
            e = sq_change_add(base, channel, line);
        return e != BOT_OK ? e : sq_hist_note(base, channel, bytes, row);
    }
    enum bot_err e = save(s, channel, version, doc, false, bytes);
    if (e != BOT_OK)
        return e;
    e = sq_change_add(base, channel, line);
    known = store_sq_live_find(s, channel);
    if (e == BOT_OK && known != NULL && known->hist_known)
        *row = known->hist;
    else if (e == BOT_OK)
        e = hist_row(s, channel, row); /* the slot could not keep it */
    if (e != BOT_OK && s->aborted == BOT_OK && s->broken == 0) {
        s->broken = s->depth;
        s->broken_err = e;
    }
    return e;
}

/* One count(*) query. */
static enum bot_err count(struct store_sqlite *s, enum store_stmt id,
                          int64_t *n)
{
    sqlite3_stmt *st = stmt(s, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return rc == SQLITE_ROW ? BOT_OK
                            : store_sq_fail_rc(s, rc, "counting encounters");
}

static enum bot_err sq_enc_count(struct store *base, int64_t *live,
                                 int64_t *archived)
{
    struct store_sqlite *s = SQ(base);
    int64_t l = 0, a = 0;
    enum bot_err e = store_sq_guard(s);
    if (e == BOT_OK)
        e = count(s, STMT_COUNT_LIVE, &l);
    if (e == BOT_OK)
        e = count(s, STMT_COUNT_ARCHIVED, &a);
    if (e == BOT_OK) {
        *live = l;
        *archived = a;
    }
    return e;
}

static enum bot_err sq_enc_list(struct store *base, uint64_t *channels,
                                size_t max, size_t *n)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_ENC_LIST);
    size_t got = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (got == max) {
            e = store__fail(&s->base, BOT_LIMIT,
                            "more than %zu live encounters", max);
            break;
        }
        channels[got++] = (uint64_t)sqlite3_column_int64(st, 0);
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "listing encounters");
    sqlite3_reset(st);
    if (e == BOT_OK || e == BOT_LIMIT)
        *n = got;
    return e;
}

/* ---- interactions ------------------------------------------------------- */

static enum bot_err sq_interaction_seen(struct store *base, const char *id,
                                        bool *seen)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_IX_SEEN);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        *seen = rc == SQLITE_ROW;
    else
        e = store_sq_fail_rc(s, rc, "looking up an interaction");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

static enum bot_err sq_interaction_record(struct store *base, const char *id,
                                          uint64_t channel, int64_t version,
                                          int64_t now)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_IX_RECORD);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)channel);
    sqlite3_bind_int64(st, 3, version);
    sqlite3_bind_int64(st, 4, now);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        e = store__fail(&s->base, BOT_CONFLICT,
                        "interaction %s already recorded", id);
    else if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "recording an interaction");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

static enum bot_err sq_interaction_prune(struct store *base, int64_t before_ms,
                                        size_t max, int64_t *pruned)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_IX_PRUNE);
    sqlite3_bind_int64(st, 1, before_ms);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)max);
    e = run(s, st, "pruning interactions");
    if (e == BOT_OK)
        *pruned = sqlite3_changes(s->db);
    return e;
}

/* ---- key/value ---------------------------------------------------------- */

static enum bot_err sq_kv_get(struct store *base, const char *key, char **value)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_KV_GET);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        e = store_sq_column_dup(s, st, 0, value);
    else if (rc == SQLITE_DONE)
        e = store__fail(&s->base, BOT_NOTFOUND, "no value for key %s", key);
    else
        e = store_sq_fail_rc(s, rc, "reading a key");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

/* Two or three keys in one statement (an index seek each, one step and
 * reset), one key in the plain lookup (cheaper than the union with a
 * NULL), and a miss formats nothing: a roll reads three settings (the
 * dice syntax twice, the server's language) that are usually absent. */
static enum bot_err sq_kv_get_short(struct store *base,
                                    struct store_kv_short *kv, size_t n)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    size_t at[STORE_KV_SHORT_MAX], nkeys = 0;
    for (size_t i = 0; i < n; i++)
        if (kv[i].key)
            at[nkeys++] = i;
    if (nkeys == 0)
        return BOT_OK;
    sqlite3_stmt *st = stmt(s, nkeys == 1   ? STMT_KV_GET
                               : nkeys == 2 ? STMT_KV_GET_SHORT
                                            : STMT_KV_GET_SHORT3);
    for (size_t k = 0; k < nkeys; k++)
        sqlite3_bind_text(st, (int)k + 1, kv[at[k]].key, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        /* the plain lookup's one column is the value */
        int vcol = nkeys == 1 ? 0 : 1;
        sqlite3_int64 k = nkeys == 1 ? 0 : sqlite3_column_int64(st, 0);
        const char *v = (const char *)sqlite3_column_text(st, vcol);
        if (k >= 0 && (size_t)k < nkeys && v)
            store__kv_short_put(&kv[at[k]], v,
                                (size_t)sqlite3_column_bytes(st, vcol));
    }
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "reading a setting");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return e;
}

static enum bot_err sq_kv_set(struct store *base, const char *key,
                              const char *value)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_KV_SET);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    e = run(s, st, "writing a key");
    unbind(st);
    return e;
}

static bool sq_wrote(struct store *base)
{
    struct store_sqlite *s = SQ(base);
    return s->depth > 0 && sqlite3_total_changes64(s->db) != s->changes0;
}

/* One write committed without the WAL's fsync (synchronous=NORMAL for
 * it alone): the OS has it, so a crash of the process keeps it; a crash
 * of the machine may take it back to the last flushed commit. */
static enum bot_err sq_kv_set_unsynced(struct store *base, const char *key,
                                       const char *value)
{
    struct store_sqlite *s = SQ(base);
    if (s->depth != 0)
        return store__fail(base, BOT_INVALID,
                           "an unsynced write inside a transaction");
    enum bot_err e = run_id(s, STMT_SYNC_NORMAL, "writing without a flush");
    if (e == BOT_OK)
        e = sq_kv_set(base, key, value);
    enum bot_err back = run_id(s, STMT_SYNC_FULL, "flushing again");
    return e != BOT_OK ? e : back;
}

static enum bot_err sq_set_synced(struct store *base, bool synced)
{
    struct store_sqlite *s = SQ(base);
    if (s->depth != 0)
        return store__fail(base, BOT_INVALID,
                           "the flush changed inside a transaction");
    return synced ? run_id(s, STMT_SYNC_FULL, "flushing again")
                  : run_id(s, STMT_SYNC_NORMAL, "writing without a flush");
}

static enum bot_err sq_kv_delete(struct store *base, const char *key)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_KV_DELETE);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    e = run(s, st, "deleting a key");
    unbind(st);
    return e;
}

/* The keys with prefix are those from it up to end, the prefix with its
 * last byte raised (trailing 0xFF bytes dropped first): a range on the
 * key's index, not a test of every key. False when there is no end (a
 * prefix of 0xFF bytes alone, or none). end holds STORE_MAX_KV_KEY + 1. */
static bool prefix_end(const char *prefix, char *end)
{
    size_t n = strlen(prefix);
    memcpy(end, prefix, n + 1);
    while (n > 0 && (unsigned char)end[n - 1] == 0xFF)
        end[--n] = '\0';
    if (n > 0)
        end[n - 1] = (char)((unsigned char)end[n - 1] + 1);
    return n > 0;
}

/* Statement id (or id_from when the prefix has no end) bound to the range
 * of keys with prefix; end (STORE_MAX_KV_KEY + 1) holds the bound. */
static sqlite3_stmt *range_stmt(struct store_sqlite *s, const char *prefix,
                                char *end, enum store_stmt id,
                                enum store_stmt id_from)
{
    bool bounded = prefix_end(prefix, end);
    sqlite3_stmt *st = stmt(s, bounded ? id : id_from);
    sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
    if (bounded)
        sqlite3_bind_text(st, 2, end, -1, SQLITE_STATIC);
    return st;
}

static enum bot_err sq_kv_scan(struct store *base, const char *prefix,
                               store_kv_fn *fn, void *ctx)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    char end[STORE_MAX_KV_KEY + 1];
    sqlite3_stmt *st = range_stmt(s, prefix, end, STMT_KV_SCAN,
                                  STMT_KV_SCAN_FROM);
    int rc;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        e = fn(ctx, (const char *)sqlite3_column_text(st, 0),
               (const char *)sqlite3_column_text(st, 1));
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "listing keys");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

/* The last key of the range, from the index alone. */
static enum bot_err sq_kv_last(struct store *base, const char *prefix,
                               char *key)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    char end[STORE_MAX_KV_KEY + 1];
    sqlite3_stmt *st = range_stmt(s, prefix, end, STMT_KV_LAST,
                                  STMT_KV_LAST_FROM);
    int rc = sqlite3_step(st);
    const char *k = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0)
                                     : NULL;
    if (k != NULL && strlen(k) <= STORE_MAX_KV_KEY)
        memcpy(key, k, strlen(k) + 1);
    else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        e = BOT_NOTFOUND;           /* none, or none this API can hold */
    else
        e = store_sq_fail_rc(s, rc, "reading the last key");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

static enum bot_err sq_kv_delete_below(struct store *base,
                                       const char *prefix, const char *below)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    /* below starts with prefix (store.c): the range starts at prefix */
    sqlite3_stmt *st = stmt(s, STMT_KV_DELETE_RANGE);
    sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, below, -1, SQLITE_STATIC);
    e = run(s, st, "deleting keys");
    unbind(st);
    return e;
}

/* ---- roll records by interaction ---------------------------------------- */

static enum bot_err sq_rollrec_put(struct store *base, int64_t id,
                                   uint64_t channel, const char *value)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt_rebind(s, STMT_ROLLREC_PUT);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)channel);
    sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
    e = run(s, st, "remembering a roll");
    unbind(st);
    return e;
}

static enum bot_err sq_rollrec_get(struct store *base, int64_t id,
                                   uint64_t channel, char **value)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt_rebind(s, STMT_ROLLREC_GET);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)channel);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        e = store_sq_column_dup(s, st, 0, value);
    else if (rc == SQLITE_DONE)
        e = BOT_NOTFOUND;
    else
        e = store_sq_fail_rc(s, rc, "reading a roll");
    sqlite3_reset(st);
    unbind(st);
    return e;
}

/* Run statement id binding ?1 to v; its changes added to *n. */
static enum bot_err trim_step(struct store_sqlite *s, enum store_stmt id,
                              int64_t v, int64_t *n)
{
    sqlite3_stmt *st = stmt_rebind(s, id);
    sqlite3_bind_int64(st, 1, v);
    enum bot_err e = run(s, st, "forgetting rolls");
    if (e == BOT_OK)
        *n += sqlite3_changes(s->db);
    return e;
}

/* Once in about CMD_ROLLREC_TIDY_EVERY rolls, and the prune pass: kept
 * prepared all the same (three prepares cost a tidy more than its
 * statements, whose pages are the first and last ones, cached). */
static enum bot_err sq_rollrec_trim(struct store *base, int64_t below,
                                    int64_t max_rows, int64_t batch,
                                    int64_t *dropped)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    int64_t rows = 0;
    e = trim_step(s, STMT_ROLLREC_AGE, below, dropped);
    if (e == BOT_OK) {
        sqlite3_stmt *st = stmt_rebind(s, STMT_ROLLREC_ROWS);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            rows = sqlite3_column_int64(st, 0);
        else
            e = store_sq_fail_rc(s, rc, "counting rolls");
        sqlite3_reset(st);
    }
    if (e == BOT_OK && rows > max_rows)
        e = trim_step(s, STMT_ROLLREC_CAP,
                      rows - max_rows < batch ? rows - max_rows : batch,
                      dropped);
    return e;
}

/* ---- maintenance -------------------------------------------------------- */

static enum bot_err sq_integrity_check(struct store *base, bool *ok)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e != BOT_OK)
        return e;
    sqlite3_stmt *st = stmt(s, STMT_INTEGRITY);
    bool good = false;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *row = (const char *)sqlite3_column_text(st, 0);
        good = row && strcmp(row, "ok") == 0;
        if (!good)
            store__fail(&s->base, BOT_DB_CORRUPT, "integrity check: %s",
                        row ? row : "?");
        while (rc == SQLITE_ROW)
            rc = sqlite3_step(st);
    }
    if (rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "checking integrity");
    else
        *ok = good;
    sqlite3_reset(st);
    return e;
}

/* ---- the backend -------------------------------------------------------- */

/* Every location that store_pg does not claim is a file path. */
static bool sq_claims(const char *location)
{
    (void)location;
    return true;
}

const struct store_ops store_sqlite_ops = {
    .version = STORE_OPS_VERSION,
    .name = "sqlite",
    .claims = sq_claims,
    .open = sq_open,
    .open_reader = sq_open_reader,
    .close = sq_close,
    .inspect = store_sq_inspect,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .enc_load = sq_enc_load,
    .enc_save = sq_enc_save,
    .enc_load_before = sq_enc_load_before,
    .enc_archive = sq_enc_archive,
    .enc_reopen = sq_enc_reopen,
    .change_add = sq_change_add,
    .change_list = sq_change_list,
    .enc_version = sq_enc_version,
    .enc_count = sq_enc_count,
    .enc_list = sq_enc_list,
    .interaction_seen = sq_interaction_seen,
    .interaction_record = sq_interaction_record,
    .interaction_prune = sq_interaction_prune,
    .kv_get = sq_kv_get,
    .kv_get_short = sq_kv_get_short,
    .kv_set = sq_kv_set,
    .kv_set_unsynced = sq_kv_set_unsynced,
    .wrote = sq_wrote,
    .set_synced = sq_set_synced,
    .kv_delete = sq_kv_delete,
    .kv_scan = sq_kv_scan,
    .kv_last = sq_kv_last,
    .kv_delete_below = sq_kv_delete_below,
    .integrity_check = sq_integrity_check,
    .shared = false, /* the flock makes this process the only writer */
    .export_all = store_sq_export,
    .import_encounter = store_sq_import_encounter,
    .import_interaction = store_sq_import_interaction,
    .enc_set_guild = store_sq_enc_set_guild,
    .guild_count = store_sq_guild_count,
    .enc_prune = store_sq_enc_prune,
    .size = store_sq_size,
    /* saved rolls (macros) */
    .macro_put = store_sq_macro_put,
    .macro_get = store_sq_macro_get,
    .macro_delete = store_sq_macro_delete,
    .macro_count = store_sq_macro_count,
    .macro_list = store_sq_macro_list,
    .macro_export = store_sq_macro_export,
    /* saved sheets: characters and NPC templates */
    .sheet_get = store_sq_sheet_get,
    .sheet_update = store_sq_sheet_update,
    .sheet_delete = store_sq_sheet_delete,
    .sheet_count = store_sq_sheet_count,
    .sheet_list = store_sq_sheet_list,
    .sheet_use_set = store_sq_sheet_use_set,
    .sheet_use_get = store_sq_sheet_use_get,
    .sheet_tagged = store_sq_sheet_tagged,
    .export_sheets = store_sq_export_sheets,
    .import_sheet = store_sq_import_sheet,
    .timer_set = store_sq_timer_set,
    .timer_next = store_sq_timer_next,
    .timer_due = store_sq_timer_due,
    .timer_claim = store_sq_timer_claim,
    .hist_note = sq_hist_note,
    .enc_save_line = sq_enc_save_line,
    .hist_info = sq_hist_info,
    .hist_sizes = store_sq_hist_sizes,
    .hist_fold = store_sq_hist_fold,
    .hist_server = store_sq_hist_server,
    .rollrec_put = sq_rollrec_put,
    .rollrec_get = sq_rollrec_get,
    .rollrec_trim = sq_rollrec_trim,
};
