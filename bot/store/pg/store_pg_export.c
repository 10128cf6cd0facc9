/*
 * store_pg_export.c - every row out, and rows in as they were, on
 * PostgreSQL (store.h "export and import"; the SQLite side is
 * store_sqlite_export.c).
 */
#include <stdlib.h>
#include <string.h>

#include "store_hist.h"
#include "store_pg_int.h"

static void free_docs(struct store_enc_rec *r)
{
    for (size_t i = 0; i < r->nver; i++)
        free((char *)r->ver[i].doc);
    r->nver = 0;
}

/* Encounter `id`'s kept versions into r (docs malloc'd), packed ones
 * unpacked: an export holds plain documents (store_hist.h). */
static enum bot_err versions_read(struct store_pg *s, int64_t id,
                                  struct store_enc_rec *r)
{
    bool packed[ENC_UNDO_DEPTH + 1];
    size_t len[ENC_UNDO_DEPTH + 1];
    PGresult *res = NULL;
    struct pg_args a = {0};
    store_pg_arg_i64(&a, id);
    enum bot_err e =
        store_pg_exec(s, PGS_EXP_VER, &a, "exporting versions", &res);
    int n = e == BOT_OK ? PQntuples(res) : 0;
    if (n > ENC_UNDO_DEPTH + 1)
        e = store__fail(&s->base, BOT_DB_CORRUPT,
                        "encounter %lld keeps more than %d versions",
                        (long long)id, ENC_UNDO_DEPTH + 1);
    for (int i = 0; i < n && e == BOT_OK; i++) {
        int col = PQgetisnull(res, i, 3) ? 2 : 3;
        char *doc = NULL;
        e = store_pg_text_dup(s, res, i, col, &doc);
        if (e != BOT_OK)
            break;
        packed[i] = col == 3;
        len[i] = (size_t)PQgetlength(res, i, col);
        r->ver[i].version = store_pg_i64(res, i, 0);
        r->ver[i].created_ms = store_pg_i64(res, i, 1);
        r->ver[i].doc = doc;
        r->nver = (size_t)i + 1;
    }
    PQclear(res);
    if (e == BOT_OK)
        e = store__hist_unpack_all(&s->base, id, r->ver, r->nver, packed, len);
    return e;
}

/* Encounter `id`'s history into b, oldest first. */
static enum bot_err changes_read(struct store_pg *s, int64_t id,
                                 struct change_buf *b)
{
    struct pg_args a = {0};
    PGresult *res = NULL;
    store_pg_arg_i64(&a, id);
    enum bot_err e =
        store_pg_exec(s, PGS_EXP_CHG, &a, "exporting the history", &res);
    for (int i = 0; e == BOT_OK && i < PQntuples(res); i++) {
        struct store_change_rec c;
        store_pg_change_row(res, i, &c);
        e = store__change_push(&s->base, b, &c);
    }
    PQclear(res);
    return e;
}

static enum bot_err export_encounters(struct store_pg *s,
                                      const struct store_export_cb *cb,
                                      void *ctx)
{
    PGresult *enc = NULL;
    struct store_enc_rec *r = malloc(sizeof *r);
    if (!r)
        return store__fail(&s->base, BOT_NOMEM, "out of memory exporting");
    enum bot_err e =
        store_pg_exec(s, PGS_EXP_ENC, NULL, "exporting encounters", &enc);
    int n = e == BOT_OK ? PQntuples(enc) : 0;
    for (int i = 0; i < n && e == BOT_OK; i++) {
        struct undo_chain u;
        memset(r, 0, sizeof *r);
        r->channel = (uint64_t)store_pg_i64(enc, i, 1);
        r->version = store_pg_i64(enc, i, 2);
        e = store__undo_decode(&s->base, PQgetvalue(enc, i, 3),
                               PQgetlength(enc, i, 3), &u);
        r->nundo = u.n;
        memcpy(r->undo, u.v, u.n * sizeof u.v[0]);
        r->created_ms = store_pg_i64(enc, i, 4);
        r->updated_ms = store_pg_i64(enc, i, 5);
        r->ended = !PQgetisnull(enc, i, 6);
        r->ended_ms = r->ended ? store_pg_i64(enc, i, 6) : 0;
        r->guild = (uint64_t)store_pg_i64(enc, i, 7);
        struct change_buf changes = {0};
        if (e == BOT_OK)
            e = versions_read(s, store_pg_i64(enc, i, 0), r);
        if (e == BOT_OK)
            e = changes_read(s, store_pg_i64(enc, i, 0), &changes);
        r->change = changes.v;
        r->nchange = changes.n;
        if (e == BOT_OK)
            e = cb->encounter(ctx, r);
        free_docs(r);
        store__change_free(&changes);
    }
    PQclear(enc);
    free(r);
    return e;
}

static enum bot_err export_rest(struct store_pg *s,
                                const struct store_export_cb *cb, void *ctx)
{
    PGresult *res = NULL;
    enum bot_err e =
        store_pg_exec(s, PGS_EXP_IX, NULL, "exporting interactions", &res);
    int n = e == BOT_OK ? PQntuples(res) : 0;
    for (int i = 0; i < n && e == BOT_OK; i++) {
        struct store_ix_rec r = {
            .id = PQgetvalue(res, i, 0),
            .channel = (uint64_t)store_pg_i64(res, i, 1),
            .version = store_pg_i64(res, i, 2),
            .created_ms = store_pg_i64(res, i, 3),
        };
        e = cb->interaction(ctx, &r);
    }
    PQclear(res);
    res = NULL;
    if (e == BOT_OK)
        e = store_pg_exec(s, PGS_EXP_KV, NULL, "exporting keys", &res);
    n = e == BOT_OK ? PQntuples(res) : 0;
    for (int i = 0; i < n && e == BOT_OK; i++)
        e = cb->kv(ctx, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1));
    PQclear(res);
    return e;
}

enum bot_err store_pg_export(struct store *base,
                             const struct store_export_cb *cb, void *ctx)
{
    enum bot_err e = export_encounters(PG(base), cb, ctx);
    return e == BOT_OK ? export_rest(PG(base), cb, ctx) : e;
}

static enum bot_err import_rows(struct store_pg *s,
                                const struct store_enc_rec *r)
{
    unsigned char blob[ENC_UNDO_DEPTH * 8];
    struct undo_chain u = {.n = r->nundo};
    struct pg_args a = {0};
    PGresult *res = NULL;
    memcpy(u.v, r->undo, r->nundo * sizeof u.v[0]);
    store__undo_encode(&u, blob);
    store_pg_arg_i64(&a, (int64_t)r->channel);
    store_pg_arg_i64(&a, r->version);
    store_pg_arg_bytes(&a, blob, r->nundo * 8);
    store_pg_arg_i64(&a, r->created_ms);
    store_pg_arg_i64(&a, r->updated_ms);
    if (r->ended)
        store_pg_arg_i64(&a, r->ended_ms);
    else
        store_pg_arg_null(&a);
    store_pg_arg_i64(&a, (int64_t)r->guild);
    enum bot_err e =
        store_pg_exec(s, PGS_IMP_ENC, &a, "importing an encounter", &res);
    int64_t id = 0;
    if (e == BOT_OK && PQntuples(res) == 0)
        e = store__fail(&s->base, BOT_CONFLICT,
                        "channel %llu already has a live encounter",
                        (unsigned long long)r->channel);
    else if (e == BOT_OK)
        id = store_pg_i64(res, 0, 0);
    PQclear(res);
    for (size_t i = 0; i < r->nver && e == BOT_OK; i++) {
        unsigned char *p = NULL;
        size_t n = 0;
        e = store__hist_pack_rec(&s->base, r->ver, r->nver, i, &p, &n);
        if (e != BOT_OK)
            break;
        a.n = 0;
        store_pg_arg_i64(&a, id);
        store_pg_arg_i64(&a, r->ver[i].version);
        store_pg_arg_i64(&a, r->ver[i].created_ms);
        if (p)
            store_pg_arg_bytes(&a, p, n);
        else
            store_pg_arg_text(&a, r->ver[i].doc);
        e = store_pg_exec(s, p ? PGS_VER_INSERT_PACKED : PGS_VER_INSERT,
                          &a, "importing a version", &res);
        PQclear(res);
        free(p);
    }
    for (size_t i = 0; i < r->nchange && e == BOT_OK; i++) {
        const struct store_change_rec *c = &r->change[i];
        a.n = 0;
        store_pg_arg_i64(&a, id);
        store_pg_arg_change(&a, c);
        e = store_pg_exec(s, PGS_IMP_CHG, &a, "importing the history", &res);
        PQclear(res);
    }
    struct store_hist_row h = {0};
    store__hist_of_rec(r, &h);
    res = NULL;
    a.n = 0;
    store_pg_arg_i64(&a, id);
    store_pg_arg_i64(&a, h.bytes);
    store_pg_arg_i64(&a, h.lines);
    store_pg_arg_i64(&a, h.folded_to);
    if (e == BOT_OK)
        e = store_pg_exec_sql(s, "UPDATE encounter SET hist_bytes = $2,"
                                 " hist_lines = $3, hist_folded = $4"
                                 " WHERE id = $1",
                              "iiii", &a, "importing the history", &res);
    PQclear(res);
    return e;
}

enum bot_err store_pg_import_encounter(struct store *base,
                                       const struct store_enc_rec *r)
{
    struct store_pg *s = PG(base);
    enum bot_err e = store_pg_op_begin(s);
    return e == BOT_OK ? store_pg_op_end(s, import_rows(s, r)) : e;
}

enum bot_err store_pg_import_interaction(struct store *base,
                                         const struct store_ix_rec *r)
{
    struct pg_args a = {0};
    PGresult *res = NULL;
    store_pg_arg_text(&a, r->id);
    store_pg_arg_i64(&a, (int64_t)r->channel);
    store_pg_arg_i64(&a, r->version);
    store_pg_arg_i64(&a, r->created_ms);
    enum bot_err e = store_pg_exec(PG(base), PGS_IX_RECORD, &a,
                                   "importing an interaction", &res);
    if (e == BOT_OK && strtol(PQcmdTuples(res), NULL, 10) == 0)
        e = store__fail(base, BOT_CONFLICT, "interaction %s already recorded",
                        r->id);
    PQclear(res);
    return e;
}
