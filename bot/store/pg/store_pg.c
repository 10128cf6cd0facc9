/*
 * store_pg.c - the PostgreSQL backend of store.h (store_backend.h): one
 * libpq connection per store, shared by any number of fray processes.
 *
 * Optimistic concurrency, without locks held between commands: a save
 * reads the live row, then writes it with `WHERE version = <the one read>`
 * (or inserts a new live encounter with ON CONFLICT DO NOTHING against the
 * one-live-per-channel index); no row written means another process won,
 * BOT_CONFLICT, before anything else was written. Interaction ids are
 * inserted with ON CONFLICT DO NOTHING likewise. These expected conflicts
 * are therefore not SQL errors and never abort the caller's transaction.
 * Real errors (deadlock, serialization failure: BOT_CONFLICT; lost
 * connection: BOT_DB) abort it: every call then fails with that error until
 * the caller rolls back the level where it happened (see store_rollback).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_hist.h"
#include "store_pg_int.h"

/* Server-side settings for every connection. lock_timeout: a blocked
 * write (another process's open transaction holds the row) gives
 * BOT_DB_BUSY after this long instead of stalling the event loop forever. */
#define STORE_PG_SESSION_SQL                                                   \
    "SET lock_timeout = 5000; SET idle_in_transaction_session_timeout = 60000"

static const struct {
    const char *name;
    const char *types;
    const char *sql;
} pg_stmts[] = {
#define STORE_PG_STMT_ROW_(n, types, sql) {"fray_" #n, types, sql},
    STORE_PG_STMT_MAP(STORE_PG_STMT_ROW_)
#undef STORE_PG_STMT_ROW_
};

#define INT8OID 20
#define TEXTOID 25
#define BYTEAOID 17

/* ---- parameters and results --------------------------------------------- */

void store_pg_arg_i64(struct pg_args *a, int64_t v)
{
    uint64_t u = (uint64_t)v;
    for (int b = 0; b < 8; b++)
        a->num[a->n][b] = (unsigned char)(u >> (56 - 8 * b));
    a->val[a->n] = (const char *)a->num[a->n];
    a->len[a->n] = 8;
    a->fmt[a->n++] = 1;
}

void store_pg_arg_text(struct pg_args *a, const char *s)
{
    store_pg_arg_bytes(a, s, strlen(s));
}

void store_pg_arg_bytes(struct pg_args *a, const void *p, size_t n)
{
    /* libpq wants a non-NULL pointer even for an empty value. */
    a->val[a->n] = n ? p : "";
    a->len[a->n] = (int)n;
    a->fmt[a->n++] = 1;
}

void store_pg_arg_null(struct pg_args *a)
{
    a->val[a->n] = NULL;
    a->len[a->n] = 0;
    a->fmt[a->n++] = 1;
}

int64_t store_pg_i64(const PGresult *r, int row, int col)
{
    const unsigned char *p = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t u = 0;
    if (PQgetlength(r, row, col) != 8)
        return 0;
    for (int b = 0; b < 8; b++)
        u = (u << 8) | p[b];
    return (int64_t)u;
}

enum bot_err store_pg_text_dup(struct store_pg *s, const PGresult *r, int row,
                               int col, char **out)
{
    size_t len = (size_t)PQgetlength(r, row, col);
    char *copy = malloc(len + 1);
    if (!copy)
        return store__fail(&s->base, BOT_NOMEM,
                           "out of memory copying %zu bytes", len);
    memcpy(copy, PQgetvalue(r, row, col), len);
    copy[len] = '\0';
    *out = copy;
    return BOT_OK;
}

/* ---- errors and the connection ------------------------------------------ */

/* Record a failed statement; when it cost the transaction, remember so. */
static enum bot_err fail_result(struct store_pg *s, const PGresult *r,
                                const char *what)
{
    char reason[160];
    enum bot_err e;
    if (PQstatus(s->conn) == CONNECTION_BAD) {
        e = store__fail(&s->base, BOT_DB,
                        "%s: connection to the database server lost (%s)", what,
                        store_pg_conn_reason(s->conn, reason, sizeof reason));
        s->prepared = false;
    } else if (!r) {
        e = store__fail(&s->base, BOT_NOMEM, "%s: out of memory (%s)", what,
                        store_pg_conn_reason(s->conn, reason, sizeof reason));
    } else {
        /* The primary message only: DETAIL may quote a key's value. */
        const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        e = store_pg_map_state(st);
        if (e == BOT_OK)
            e = BOT_DB;
        store__fail(&s->base, e, "%s: %s (SQLSTATE %s)", what, msg ? msg : "?",
                    st ? st : "?");
    }
    if (s->depth > 0 && s->aborted == BOT_OK) {
        s->aborted = e;
        s->aborted_depth = s->depth;
    }
    return e;
}

/* Parameter types as letters (i = int8, t = text, b = bytea) into oids;
 * their number. */
static int param_types(const char *letters, Oid types[STORE_PG_MAX_PARAMS])
{
    int n = (int)strlen(letters);
    for (int k = 0; k < n; k++)
        types[k] = letters[k] == 'i'   ? INT8OID
                   : letters[k] == 't' ? TEXTOID
                                       : BYTEAOID;
    return n;
}

static enum bot_err prepare_all(struct store_pg *s)
{
    for (int i = 0; i < PGS__COUNT; i++) {
        Oid types[STORE_PG_MAX_PARAMS];
        int n = param_types(pg_stmts[i].types, types);
        PGresult *r =
            PQprepare(s->conn, pg_stmts[i].name, pg_stmts[i].sql, n, types);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        enum bot_err e = ok ? BOT_OK : fail_result(s, r, "preparing");
        PQclear(r);
        if (!ok)
            return e;
    }
    PQclear(PQexec(s->conn, STORE_PG_SESSION_SQL));
    s->prepared = true;
    return BOT_OK;
}

enum bot_err store_pg_ready(struct store_pg *s)
{
    if (s->depth > 0)
        return s->aborted;
    if (PQstatus(s->conn) == CONNECTION_OK && s->prepared)
        return BOT_OK;
    /* Lost since the last call: one attempt, then report. */
    char reason[160];
    PQreset(s->conn);
    if (PQstatus(s->conn) != CONNECTION_OK)
        return store__fail(&s->base, BOT_DB,
                           "reconnecting to the database server failed: %s",
                           store_pg_conn_reason(s->conn, reason, sizeof reason));
    return prepare_all(s);
}

/* r into *out when it succeeded, else freed and recorded as failed. */
static enum bot_err take_result(struct store_pg *s, PGresult *r,
                                const char *what, PGresult **out)
{
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
        *out = r;
        return BOT_OK;
    }
    enum bot_err e = fail_result(s, r, what);
    PQclear(r);
    return e;
}

enum bot_err store_pg_exec(struct store_pg *s, enum store_pg_stmt id,
                           const struct pg_args *a, const char *what,
                           PGresult **out)
{
    *out = NULL;
    enum bot_err e = store_pg_ready(s);
    if (e != BOT_OK)
        return e;
    static const struct pg_args none;
    if (!a)
        a = &none;
    PGresult *r = PQexecPrepared(s->conn, pg_stmts[id].name, a->n, a->val,
                                 a->len, a->fmt, 1);
    return take_result(s, r, what, out);
}

/* Run a transaction-control statement (no parameters, no rows). */
static enum bot_err control(struct store_pg *s, const char *sql,
                            const char *what)
{
    PGresult *r = PQexec(s->conn, sql);
    enum bot_err e = PQresultStatus(r) == PGRES_COMMAND_OK
                         ? BOT_OK
                         : fail_result(s, r, what);
    PQclear(r);
    return e;
}

/* A statement that returns no rows; *changed gets the row count. */
enum bot_err store_pg_exec_sql(struct store_pg *s, const char *sql,
                               const char *types, const struct pg_args *a,
                               const char *what, PGresult **out)
{
    *out = NULL;
    enum bot_err e = store_pg_ready(s);
    if (e != BOT_OK)
        return e;
    Oid oids[STORE_PG_MAX_PARAMS];
    int n = param_types(types, oids);
    PGresult *r = PQexecParams(s->conn, sql, n, oids, a->val, a->len, a->fmt,
                               1);
    return take_result(s, r, what, out);
}

enum bot_err store_pg_run(struct store_pg *s, enum store_pg_stmt id,
                          const struct pg_args *a, const char *what,
                          long *changed)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec(s, id, a, what, &r);
    if (e == BOT_OK && changed)
        *changed = strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return e;
}

enum bot_err store_pg_op_begin(struct store_pg *s)
{
    enum bot_err e = store_pg_ready(s);
    if (e == BOT_OK && s->depth == 0)
        e = control(s, "BEGIN", "starting a change");
    return e;
}

enum bot_err store_pg_op_end(struct store_pg *s, enum bot_err e)
{
    if (s->depth > 0)
        return e;
    if (e == BOT_OK)
        return control(s, "COMMIT", "finishing a change");
    if (PQstatus(s->conn) == CONNECTION_OK)
        PQclear(PQexec(s->conn, "ROLLBACK"));
    return e;
}

/* ---- open and close ----------------------------------------------------- */

/* Server notices ("relation already exists, skipping") are not for the
 * operator: the store reports what matters through its errors. */
static void notice_drop(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static bool pg_claims(const char *location)
{
    return strncmp(location, "postgres://", 11) == 0 ||
           strncmp(location, "postgresql://", 13) == 0 ||
           strchr(location, '=') != NULL;
}

static void pg_close(struct store *base)
{
    struct store_pg *s = PG(base);
    PQfinish(s->conn); /* an open transaction is rolled back by the server */
    free(s);
}

static enum bot_err pg_open(const char *location, struct store **out, char *err,
                            size_t errlen)
{
    char where[STORE_MAX_SHOWN], reason[STORE_MAX_REASON];
    store_location_redact(location, where, sizeof where);
    struct store_pg *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory opening %s", where);
        return BOT_NOMEM;
    }
    const char *const keys[] = {"fallback_application_name", "dbname", NULL};
    const char *const vals[] = {"fray", location, NULL};
    s->conn = PQconnectdbParams(keys, vals, 1);
    if (s->conn)
        PQsetNoticeProcessor(s->conn, notice_drop, NULL);
    enum bot_err e = BOT_OK;
    if (PQstatus(s->conn) != CONNECTION_OK) {
        snprintf(err, errlen, "cannot connect to database %s: %s", where,
                 store_pg_conn_reason(s->conn, reason, sizeof reason));
        e = s->conn ? BOT_DB : BOT_NOMEM;
    } else {
        e = store_pg_migrate(s->conn, where, err, errlen);
    }
    if (e == BOT_OK && prepare_all(s) != BOT_OK) {
        snprintf(err, errlen, "database %s: %s", where, s->base.errmsg);
        e = BOT_DB;
    }
    if (e != BOT_OK) {
        pg_close(&s->base);
        return e;
    }
    *out = &s->base;
    return BOT_OK;
}

PGconn *store__pg_conn(struct store *base)
{
    return base->ops == &store_pg_ops ? PG(base)->conn : NULL;
}

/* ---- transactions ------------------------------------------------------- */

static enum bot_err pg_begin(struct store *base)
{
    struct store_pg *s = PG(base);
    enum bot_err e = store_pg_ready(s);
    if (e == BOT_OK)
        e = s->depth == 0 ? control(s, "BEGIN", "starting a transaction")
                          : control(s, "SAVEPOINT fray_nest",
                                    "starting a nested transaction");
    if (e == BOT_OK)
        s->depth++;
    return e;
}

static void pg_rollback(struct store *base)
{
    struct store_pg *s = PG(base);
    if (s->depth == 0)
        return;
    if (s->depth == 1) {
        if (PQstatus(s->conn) == CONNECTION_OK)
            PQclear(PQexec(s->conn, "ROLLBACK"));
        s->aborted = BOT_OK;
    } else if (s->aborted == BOT_OK || s->aborted_depth >= s->depth) {
        /* Rolling back to the savepoint also recovers a transaction the
         * server aborted at this level or deeper. */
        enum bot_err saved = s->aborted;
        s->aborted = BOT_OK;
        enum bot_err e = control(s, "ROLLBACK TO fray_nest",
                                 "rolling back a nested transaction");
        if (e == BOT_OK)
            e = control(s, "RELEASE fray_nest", "closing a nested transaction");
        if (e != BOT_OK && saved != BOT_OK) {
            s->aborted = saved;
            s->aborted_depth = s->depth - 1;
        }
    }
    s->depth--;
    if (s->aborted != BOT_OK && s->aborted_depth > s->depth)
        s->aborted_depth = s->depth;
}

static enum bot_err pg_commit(struct store *base)
{
    struct store_pg *s = PG(base);
    if (s->depth == 0)
        return store__fail(base, BOT_INVALID, "commit without a transaction");
    enum bot_err e = s->aborted;
    if (e == BOT_OK)
        e = s->depth > 1 ? control(s, "RELEASE fray_nest",
                                   "finishing a nested transaction")
                         : control(s, "COMMIT", "committing");
    if (e != BOT_OK) {
        /* At an inner level this also recovers a transaction the server
         * aborted there (pg_rollback). */
        pg_rollback(base);
        return e;
    }
    s->depth--;
    return BOT_OK;
}

/* ---- encounters --------------------------------------------------------- */

/* What a save found about the channel's live encounter. */
struct live {
    bool found;
    int64_t id;
    int64_t version;
    struct undo_chain undo;
};

static enum bot_err live_get(struct store_pg *s, uint64_t channel,
                             struct live *out)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, (int64_t)channel);
    enum bot_err e = store_pg_exec(s, PGS_LIVE, &a,
                                   "reading the live "
                                   "encounter",
                                   &r);
    if (e != BOT_OK)
        return e;
    out->found = PQntuples(r) > 0;
    if (out->found) {
        out->id = store_pg_i64(r, 0, 0);
        out->version = store_pg_i64(r, 0, 1);
        e = store__undo_decode(&s->base, PQgetvalue(r, 0, 2),
                               PQgetlength(r, 0, 2), &out->undo);
    }
    PQclear(r);
    return e;
}

/* The new live row, its document, and the versions that leave. */
static enum bot_err live_write(struct store_pg *s, uint64_t channel,
                               struct live *l, int64_t version,
                               const struct undo_chain *undo, const char *doc,
                               const int64_t *drop, size_t ndrop)
{
    unsigned char blob[ENC_UNDO_DEPTH * 8];
    int64_t now = store__now_ms();
    struct pg_args a = {0};
    PGresult *r = NULL;
    long changed = 0;
    enum bot_err e;
    store__undo_encode(undo, blob);

    if (l->found) {
        store_pg_arg_i64(&a, l->id);
        store_pg_arg_i64(&a, version);
        store_pg_arg_bytes(&a, blob, undo->n * 8);
        store_pg_arg_i64(&a, now);
        store_pg_arg_i64(&a, l->version);
        e = store_pg_run(s, PGS_ENC_UPDATE, &a, "saving the encounter", &changed);
    } else {
        store_pg_arg_i64(&a, (int64_t)channel);
        store_pg_arg_i64(&a, version);
        store_pg_arg_bytes(&a, blob, 0);
        store_pg_arg_i64(&a, now);
        e = store_pg_exec(s, PGS_ENC_INSERT, &a, "starting the encounter", &r);
        if (e == BOT_OK && PQntuples(r) == 1) {
            changed = 1;
            l->id = store_pg_i64(r, 0, 0);
        }
        PQclear(r);
    }
    if (e == BOT_OK && changed != 1)
        return store__fail(&s->base, BOT_CONFLICT,
                           "channel %llu: version %lld was saved by another "
                           "process meanwhile",
                           (unsigned long long)channel, (long long)version);
    a.n = 0;
    store_pg_arg_i64(&a, l->id);
    store_pg_arg_i64(&a, version);
    store_pg_arg_i64(&a, now);
    store_pg_arg_text(&a, doc);
    if (e == BOT_OK)
        e = store_pg_run(s, PGS_VER_INSERT, &a, "saving the encounter document", NULL);
    for (size_t i = 0; i < ndrop && e == BOT_OK; i++) {
        a.n = 0;
        store_pg_arg_i64(&a, l->id);
        store_pg_arg_i64(&a, drop[i]);
        e = store_pg_run(s, PGS_VER_DELETE, &a, "trimming encounter history", NULL);
    }
    return e;
}

/* store_hist_walk_fn: the live encounter's kept rows from the live one
 * down to the newest below `below`. */
static enum bot_err walk_before(struct store *base, uint64_t channel,
                                int64_t below, struct store_hist_walk *w)
{
    struct store_pg *s = PG(base);
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, below);
    enum bot_err e = store_pg_exec(s, PGS_BEFORE_DOC, &a,
                                   "loading an earlier version", &r);
    for (int i = 0; e == BOT_OK && i < PQntuples(r); i++) {
        bool packed = !PQgetisnull(r, i, 2);
        w->enc = store_pg_i64(r, i, 3);
        e = store__hist_feed(&s->base, w, store_pg_i64(r, i, 0), packed,
                             PQgetvalue(r, i, packed ? 2 : 1),
                             (size_t)PQgetlength(r, i, packed ? 2 : 1));
    }
    PQclear(r);
    return e;
}

static enum bot_err pg_enc_save(struct store *base, uint64_t channel,
                                int64_t version, const char *doc, bool undo)
{
    struct store_pg *s = PG(base);
    struct live l = {0};
    struct undo_chain next;
    int64_t drop[2];
    size_t ndrop = 0, plen = 0;
    unsigned char *packed = NULL;

    enum bot_err e = store_pg_op_begin(s);
    if (e != BOT_OK)
        return e;
    e = live_get(s, channel, &l);
    if (e != BOT_OK)
        return store_pg_op_end(s, e);
    e = store__plan_save(base, channel, l.found, l.version, &l.undo, version,
                         undo, &next, drop, &ndrop);
    if (e == BOT_OK)
        e = store__hist_head_pack(base, walk_before, channel, &next, doc,
                                   BOT_CONFLICT, &packed, &plen);
    if (e == BOT_OK)
        e = live_write(s, channel, &l, version, &next, doc, drop, ndrop);
    if (e == BOT_OK && packed) {
        struct pg_args a = {0};
        store_pg_arg_i64(&a, l.id);
        store_pg_arg_i64(&a, next.v[0]);
        store_pg_arg_bytes(&a, packed, plen);
        e = store_pg_run(s, PGS_VER_PACK, &a, "packing an earlier version",
                         NULL);
    }
    free(packed);
    return store_pg_op_end(s, e);
}

/* Run a (version, doc) query; BOT_NOTFOUND on no row. */
static enum bot_err doc_query(struct store_pg *s, enum store_pg_stmt id,
                              const struct pg_args *a, const char *what,
                              char **doc, int64_t *version)
{
    PGresult *r = NULL;
    enum bot_err e = store_pg_exec(s, id, a, what, &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(&s->base, BOT_NOTFOUND, "%s: none", what);
    else if (e == BOT_OK && PQgetisnull(r, 0, 1))
        e = store__fail(&s->base, BOT_DB_CORRUPT,
                        "%s: the live version is stored packed", what);
    char *copy = NULL;
    if (e == BOT_OK)
        e = store_pg_text_dup(s, r, 0, 1, &copy);
    if (e == BOT_OK) {
        *version = store_pg_i64(r, 0, 0);
        *doc = copy;
    }
    PQclear(r);
    return e;
}

static enum bot_err pg_enc_load(struct store *base, uint64_t channel,
                                char **doc, int64_t *version)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, (int64_t)channel);
    return doc_query(PG(base), PGS_LIVE_DOC, &a, "loading the encounter", doc,
                     version);
}

static enum bot_err pg_enc_load_before(struct store *base, uint64_t channel,
                                       int64_t version, char **doc,
                                       int64_t *found_version)
{
    return store__hist_load_before(base, walk_before, channel, version, doc,
                                   found_version);
}

static enum bot_err pg_enc_version(struct store *base, uint64_t channel,
                                   int64_t *version)
{
    struct live l = {0};
    enum bot_err e = live_get(PG(base), channel, &l);
    if (e == BOT_OK && !l.found)
        e = BOT_NOTFOUND;
    if (e == BOT_OK)
        *version = l.version;
    return e;
}

static enum bot_err pg_enc_reopen(struct store *base, uint64_t channel,
                                  int64_t now, int64_t since)
{
    struct pg_args a = {0};
    long changed = 0;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, now);
    store_pg_arg_i64(&a, since);
    enum bot_err e = store_pg_run(PG(base), PGS_ENC_REOPEN, &a,
                         "reopening the encounter", &changed);
    if (e == BOT_OK && changed == 0)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no recently "
                        "ended encounter", (unsigned long long)channel);
    return e;
}

static enum bot_err pg_enc_archive(struct store *base, uint64_t channel,
                                   int64_t now)
{
    struct pg_args a = {0};
    long changed = 0;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, now);
    enum bot_err e =
        store_pg_run(PG(base), PGS_ENC_ARCHIVE, &a, "archiving the encounter", &changed);
    if (e == BOT_OK && changed == 0)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no encounter to end",
                        (unsigned long long)channel);
    return e;
}

static enum bot_err pg_enc_count(struct store *base, int64_t *live,
                                 int64_t *archived)
{
    PGresult *r = NULL;
    enum bot_err e =
        store_pg_exec(PG(base), PGS_COUNTS, NULL, "counting encounters", &r);
    if (e == BOT_OK) {
        *live = store_pg_i64(r, 0, 0);
        *archived = store_pg_i64(r, 0, 1);
    }
    PQclear(r);
    return e;
}

static enum bot_err pg_enc_list(struct store *base, uint64_t *channels,
                                size_t max, size_t *n)
{
    PGresult *r = NULL;
    enum bot_err e =
        store_pg_exec(PG(base), PGS_ENC_LIST, NULL, "listing encounters", &r);
    if (e != BOT_OK)
        return e;
    size_t rows = (size_t)PQntuples(r), got = rows < max ? rows : max;
    for (size_t i = 0; i < got; i++)
        channels[i] = (uint64_t)store_pg_i64(r, (int)i, 0);
    PQclear(r);
    *n = got;
    if (rows > max)
        return store__fail(base, BOT_LIMIT, "more than %zu live encounters",
                           max);
    return BOT_OK;
}

/* ---- interactions and key/value ----------------------------------------- */

static enum bot_err pg_interaction_seen(struct store *base, const char *id,
                                        bool *seen)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_text(&a, id);
    enum bot_err e = store_pg_exec(PG(base), PGS_IX_SEEN, &a,
                                   "looking up an interaction", &r);
    if (e == BOT_OK)
        *seen = PQntuples(r) > 0;
    PQclear(r);
    return e;
}

static enum bot_err pg_interaction_record(struct store *base, const char *id,
                                          uint64_t channel, int64_t version,
                                          int64_t now)
{
    struct pg_args a = {0};
    long changed = 0;
    store_pg_arg_text(&a, id);
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, version);
    store_pg_arg_i64(&a, now);
    enum bot_err e =
        store_pg_run(PG(base), PGS_IX_RECORD, &a, "recording an interaction", &changed);
    if (e == BOT_OK && changed == 0)
        e = store__fail(base, BOT_CONFLICT, "interaction %s already recorded",
                        id);
    return e;
}

static enum bot_err pg_interaction_prune(struct store *base, int64_t before,
                                        size_t max, int64_t *pruned)
{
    struct pg_args a = {0};
    long n = 0;
    store_pg_arg_i64(&a, before);
    store_pg_arg_i64(&a, (int64_t)max);
    enum bot_err e = store_pg_run(PG(base), PGS_IX_PRUNE, &a,
                                  "pruning interactions", &n);
    if (e == BOT_OK)
        *pruned = n;
    return e;
}

void store_pg_change_row(const PGresult *r, int row,
                         struct store_change_rec *c)
{
    *c = (struct store_change_rec){
        .version = store_pg_i64(r, row, 0),
        .by = (uint64_t)store_pg_i64(r, row, 1),
        .at_ms = store_pg_i64(r, row, 2),
        .secret = store_pg_i64(r, row, 3) != 0,
        .text = PQgetvalue(r, row, 4),
        .detail = PQgetvalue(r, row, 5),
        .gm_detail = PQgetvalue(r, row, 6),
        .by_name = PQgetvalue(r, row, 7),
    };
}

void store_pg_arg_change(struct pg_args *a, const struct store_change_rec *c)
{
    store_pg_arg_i64(a, c->version);
    store_pg_arg_i64(a, (int64_t)c->by);
    store_pg_arg_i64(a, c->at_ms);
    store_pg_arg_i64(a, c->secret);
    store_pg_arg_text(a, c->text);
    store_pg_arg_text(a, c->detail ? c->detail : "");
    store_pg_arg_text(a, c->gm_detail ? c->gm_detail : "");
    store_pg_arg_text(a, c->by_name ? c->by_name : "");
}

static enum bot_err pg_change_add(struct store *base, uint64_t channel,
                                  const struct store_change_rec *c)
{
    struct pg_args a = {0};
    long changed = 0;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_change(&a, c);
    enum bot_err e =
        store_pg_run(PG(base), PGS_CHG_ADD, &a, "recording the history", &changed);
    if (e != BOT_OK || changed > 0)
        return e;
    /* Nothing inserted: no live encounter, or the line is there. */
    int64_t version = 0;
    e = pg_enc_version(base, channel, &version);
    if (e == BOT_OK)
        e = store__fail(base, BOT_CONFLICT, "channel %llu: version %lld has "
                        "its history line", (unsigned long long)channel,
                        (long long)c->version);
    else if (e == BOT_NOTFOUND)
        e = store__fail(base, BOT_NOTFOUND, "channel %llu: no encounter",
                        (unsigned long long)channel);
    return e;
}

static enum bot_err pg_change_list(struct store *base, uint64_t channel,
                                   int64_t after, bool newest_first,
                                   size_t max, size_t *total,
                                   store_change_fn *fn, void *ctx)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    enum bot_err e = BOT_OK;
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_i64(&a, after);
    if (total != NULL) {
        e = store_pg_exec(PG(base), PGS_CHG_COUNT, &a,
                          "counting the history", &r);
        if (e == BOT_OK)
            *total = (size_t)store_pg_i64(r, 0, 0);
        PQclear(r);
        r = NULL;
        if (e != BOT_OK)
            return e;
    }
    store_pg_arg_i64(&a, max > INT64_MAX ? INT64_MAX : (int64_t)max);
    e = store_pg_exec(PG(base), newest_first ? PGS_CHG_NEW : PGS_CHG_OLD, &a,
                      "reading the history", &r);
    for (int i = 0; e == BOT_OK && i < PQntuples(r); i++) {
        struct store_change_rec c;
        store_pg_change_row(r, i, &c);
        e = fn(ctx, &c);
    }
    PQclear(r);
    return e;
}

static enum bot_err pg_kv_get(struct store *base, const char *key, char **value)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_text(&a, key);
    enum bot_err e =
        store_pg_exec(PG(base), PGS_KV_GET, &a, "reading a key", &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = store__fail(base, BOT_NOTFOUND, "no value for key %s", key);
    else if (e == BOT_OK)
        e = store_pg_text_dup(PG(base), r, 0, 0, value);
    PQclear(r);
    return e;
}

static enum bot_err pg_kv_set(struct store *base, const char *key,
                              const char *value)
{
    struct pg_args a = {0};
    store_pg_arg_text(&a, key);
    store_pg_arg_text(&a, value);
    return store_pg_run(PG(base), PGS_KV_SET, &a, "writing a key", NULL);
}

static enum bot_err pg_kv_delete(struct store *base, const char *key)
{
    struct pg_args a = {0};
    store_pg_arg_text(&a, key);
    return store_pg_run(PG(base), PGS_KV_DELETE, &a, "deleting a key", NULL);
}

static enum bot_err pg_kv_scan(struct store *base, const char *prefix,
                               store_kv_fn *fn, void *ctx)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_text(&a, prefix);
    enum bot_err e =
        store_pg_exec(PG(base), PGS_KV_SCAN, &a, "listing keys", &r);
    for (int i = 0; e == BOT_OK && i < PQntuples(r); i++)
        e = fn(ctx, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1));
    PQclear(r);
    return e;
}

/* ---- roll records by interaction (store.h) ---- */

static enum bot_err pg_rollrec_put(struct store *base, int64_t id,
                                   uint64_t channel, const char *value)
{
    struct pg_args a = {0};
    store_pg_arg_i64(&a, id);
    store_pg_arg_i64(&a, (int64_t)channel);
    store_pg_arg_text(&a, value);
    return store_pg_run(PG(base), PGS_ROLLREC_PUT, &a, "remembering a roll",
                        NULL);
}

static enum bot_err pg_rollrec_get(struct store *base, int64_t id,
                                   uint64_t channel, char **value)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    store_pg_arg_i64(&a, id);
    store_pg_arg_i64(&a, (int64_t)channel);
    enum bot_err e =
        store_pg_exec(PG(base), PGS_ROLLREC_GET, &a, "reading a roll", &r);
    if (e == BOT_OK && PQntuples(r) == 0)
        e = BOT_NOTFOUND;
    else if (e == BOT_OK)
        e = store_pg_text_dup(PG(base), r, 0, 0, value);
    PQclear(r);
    return e;
}

static enum bot_err pg_rollrec_trim(struct store *base, int64_t below,
                                    int64_t max_rows, int64_t batch,
                                    int64_t *dropped)
{
    struct pg_args a = {0};
    PGresult *r = NULL;
    long n = 0;
    int64_t rows = 0;
    store_pg_arg_i64(&a, below);
    enum bot_err e = store_pg_run(PG(base), PGS_ROLLREC_AGE, &a,
                                  "forgetting rolls", &n);
    *dropped += n;
    if (e == BOT_OK)
        e = store_pg_exec(PG(base), PGS_ROLLREC_ROWS, NULL, "counting rolls",
                          &r);
    if (e == BOT_OK)
        rows = store_pg_i64(r, 0, 0);
    PQclear(r);
    if (e == BOT_OK && rows > max_rows) {
        struct pg_args c = {0};
        store_pg_arg_i64(&c, rows - max_rows < batch ? rows - max_rows
                                                     : batch);
        n = 0;
        e = store_pg_run(PG(base), PGS_ROLLREC_CAP, &c, "forgetting rolls",
                         &n);
        *dropped += n;
    }
    return e;
}

static enum bot_err pg_integrity_check(struct store *base, bool *ok)
{
    PGresult *r = NULL;
    enum bot_err e =
        store_pg_exec(PG(base), PGS_INTEGRITY, NULL, "checking integrity", &r);
    if (e == BOT_OK) {
        int64_t missing = store_pg_i64(r, 0, 0);
        *ok = missing == 0;
        if (missing)
            store__fail(base, BOT_DB_CORRUPT,
                        "integrity check: %lld encounters lack their live "
                        "version",
                        (long long)missing);
    }
    PQclear(r);
    return e;
}

const struct store_ops store_pg_ops = {
    .version = STORE_OPS_VERSION,
    .name = "postgres",
    .claims = pg_claims,
    .open = pg_open,
    .close = pg_close,
    .inspect = store_pg_inspect,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .enc_load = pg_enc_load,
    .enc_save = pg_enc_save,
    .enc_load_before = pg_enc_load_before,
    .enc_archive = pg_enc_archive,
    .enc_reopen = pg_enc_reopen,
    .change_add = pg_change_add,
    .change_list = pg_change_list,
    .enc_version = pg_enc_version,
    .enc_count = pg_enc_count,
    .enc_list = pg_enc_list,
    .interaction_seen = pg_interaction_seen,
    .interaction_record = pg_interaction_record,
    .interaction_prune = pg_interaction_prune,
    .kv_get = pg_kv_get,
    .kv_set = pg_kv_set,
    .kv_delete = pg_kv_delete,
    .kv_scan = pg_kv_scan,
    .integrity_check = pg_integrity_check,
    .shared = true, /* other processes write the same rows */
    .export_all = store_pg_export,
    .import_encounter = store_pg_import_encounter,
    .import_interaction = store_pg_import_interaction,
    .enc_set_guild = store_pg_enc_set_guild,
    .guild_count = store_pg_guild_count,
    .enc_prune = store_pg_enc_prune,
    .size = store_pg_size,
    /* saved rolls (macros) */
    .macro_put = store_pg_macro_put,
    .macro_get = store_pg_macro_get,
    .macro_delete = store_pg_macro_delete,
    .macro_count = store_pg_macro_count,
    .macro_list = store_pg_macro_list,
    .macro_export = store_pg_macro_export,
    /* saved sheets: characters and NPC templates */
    .sheet_get = store_pg_sheet_get,
    .sheet_update = store_pg_sheet_update,
    .sheet_delete = store_pg_sheet_delete,
    .sheet_count = store_pg_sheet_count,
    .sheet_list = store_pg_sheet_list,
    .sheet_use_set = store_pg_sheet_use_set,
    .sheet_use_get = store_pg_sheet_use_get,
    .sheet_tagged = store_pg_sheet_tagged,
    .export_sheets = store_pg_export_sheets,
    .import_sheet = store_pg_import_sheet,
    .timer_set = store_pg_timer_set,
    .timer_next = store_pg_timer_next,
    .timer_due = store_pg_timer_due,
    .timer_claim = store_pg_timer_claim,
    .hist_note = store_pg_hist_note,
    .hist_info = store_pg_hist_info,
    .hist_sizes = store_pg_hist_sizes,
    .hist_fold = store_pg_hist_fold,
    .hist_server = store_pg_hist_server,
    .rollrec_put = pg_rollrec_put,
    .rollrec_get = pg_rollrec_get,
    .rollrec_trim = pg_rollrec_trim,
};
