/*
 * store_sqlite_inspect.c - store_inspect() for an SQLite file: opened
 * read-only, without the writer's lock, so `fray check` may look at the
 * database of a running `fray run`.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store_sqlite_int.h"
#include "store_sqlite_schema.h"

#define STORE_SQ_WAL_SUFFIX "-wal"

enum bot_err store_sq_inspect(const char *path, struct store_info *info,
                              char *err, size_t errlen)
{
    char wal[STORE_MAX_LOCATION + sizeof STORE_SQ_WAL_SUFFIX];
    struct stat st;
    sqlite3 *db = NULL;
    enum bot_err e;
    int rc;

    info->schema_current = store_schema_steps[store_schema_nsteps - 1].version;
    if (strcmp(path, ":memory:") == 0) {
        snprintf(err, errlen, "%s is not a file: nothing to look at", path);
        return BOT_INVALID;
    }
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "database %s: %s", path, strerror(errno));
        return errno == ENOENT ? BOT_NOTFOUND : BOT_IO;
    }
    info->bytes = (int64_t)st.st_size;
    snprintf(wal, sizeof wal, "%s%s", path, STORE_SQ_WAL_SUFFIX);
    if (stat(wal, &st) == 0)
        info->bytes += (int64_t)st.st_size;

    rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                         NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL,
                          NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "cannot read database %s: %s", path,
                 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        e = store__map_rc(rc);
        sqlite3_close(db);
        return e == BOT_OK ? BOT_IO : e;
    }
    e = store__user_version(db, &info->schema);
    if (e != BOT_OK)
        snprintf(err, errlen, "database %s: cannot read its schema version: "
                 "%s", path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return e;
}
