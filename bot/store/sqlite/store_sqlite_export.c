/*
 * store_sqlite_export.c - every row out, and rows in as they were, for
 * `fray migrate` (store.h "export and import"). Rare, so the statements are
 * prepared per call rather than kept open with the store's own.
 */
#include <stdlib.h>
#include <string.h>

#include "store_hist.h"
#include "store_sqlite_int.h"

static void free_docs(struct store_enc_rec *r)
{
    for (size_t i = 0; i < r->nver; i++)
        free((char *)r->ver[i].doc);
    r->nver = 0;
}

/* The kept versions of encounter `id` into r (docs malloc'd), packed ones
 * unpacked: an export holds plain documents (store_hist.h). */
static enum bot_err versions_read(struct store_sqlite *s, sqlite3_stmt *st,
                                  int64_t id, int64_t floor,
                                  struct store_enc_rec *r)
{
    bool packed[ENC_UNDO_DEPTH + 1];
    size_t len[ENC_UNDO_DEPTH + 1];
    enum bot_err e = BOT_OK;
    int rc;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, floor);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (r->nver == ENC_UNDO_DEPTH + 1)
            return store__fail(&s->base, BOT_DB_CORRUPT,
                               "encounter %lld keeps more than %d versions",
                               (long long)id, ENC_UNDO_DEPTH + 1);
        char *doc = NULL;
        /* the type first: reading a BLOB as text converts it */
        packed[r->nver] = sqlite3_column_type(st, 2) == SQLITE_BLOB;
        e = store_sq_column_dup(s, st, 2, &doc);
        if (e != BOT_OK)
            return e;
        len[r->nver] = (size_t)sqlite3_column_bytes(st, 2);
        struct store_ver_rec *v = &r->ver[r->nver++];
        v->version = sqlite3_column_int64(st, 0);
        v->created_ms = sqlite3_column_int64(st, 1);
        v->doc = doc;
    }
    if (rc != SQLITE_DONE)
        return store_sq_fail_rc(s, rc, "exporting versions");
    return store__hist_unpack_all(&s->base, id, r->ver, r->nver, packed, len);
}

/* The history of encounter `id` into b, oldest first. */
static enum bot_err changes_read(struct store_sqlite *s, sqlite3_stmt *st,
                                 int64_t id, struct change_buf *b)
{
    enum bot_err e = BOT_OK;
    int rc;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, id);
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_change_rec r;
        store_sq_change_row(st, &r);
        e = r.text != NULL ? store__change_push(&s->base, b, &r)
                           : store__fail(&s->base, BOT_NOMEM,
                                         "out of memory exporting");
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "exporting the history");
    return e;
}

static enum bot_err export_encounters(struct store_sqlite *s,
                                      const struct store_export_cb *cb,
                                      void *ctx)
{
    sqlite3_stmt *enc = NULL, *ver = NULL, *chg = NULL;
    struct change_buf changes = {0};
    struct store_enc_rec *r = calloc(1, sizeof *r);
    if (!r)
        return store__fail(&s->base, BOT_NOMEM, "out of memory exporting");
    enum bot_err e =
        store_sq_prepare(s,
                         "SELECT id, channel, version, undo, created_ms,"
                         " updated_ms, ended_ms, guild FROM encounter"
                         " ORDER BY id",
                         &enc, "exporting encounters");
    if (e == BOT_OK)
        e = store_sq_prepare(s,
                             "SELECT version, created_ms, doc FROM enc_version"
                             " WHERE enc = ?1 AND version >= ?2"
                             " ORDER BY version",
                             &ver, "exporting versions");
    if (e == BOT_OK)
        e = store_sq_prepare(
            s,
            "SELECT version, by_user, at_ms, secret, text, detail,"
            " gm_detail, by_name FROM enc_change WHERE enc = ?1"
            " ORDER BY version",
            &chg, "exporting the history");
    int rc = SQLITE_DONE;
    while (e == BOT_OK && (rc = sqlite3_step(enc)) == SQLITE_ROW) {
        struct undo_chain u;
        int64_t id = sqlite3_column_int64(enc, 0);
        memset(r, 0, sizeof *r);
        r->channel = (uint64_t)sqlite3_column_int64(enc, 1);
        r->version = sqlite3_column_int64(enc, 2);
        e = store__undo_decode(&s->base, sqlite3_column_blob(enc, 3),
                               sqlite3_column_bytes(enc, 3), &u);
        r->nundo = u.n;
        memcpy(r->undo, u.v, u.n * sizeof u.v[0]);
        r->created_ms = sqlite3_column_int64(enc, 4);
        r->updated_ms = sqlite3_column_int64(enc, 5);
        r->ended = sqlite3_column_type(enc, 6) != SQLITE_NULL;
        r->ended_ms = r->ended ? sqlite3_column_int64(enc, 6) : 0;
        r->guild = (uint64_t)sqlite3_column_int64(enc, 7);
        /* not the versions waiting below the chain for a trim */
        if (e == BOT_OK)
            e = versions_read(s, ver, id, store_sq_kept_floor(&u, r->version),
                              r);
        if (e == BOT_OK)
            e = changes_read(s, chg, id, &changes);
        r->change = changes.v;
        r->nchange = changes.n;
        if (e == BOT_OK)
            e = cb->encounter(ctx, r);
        free_docs(r);
        store__change_free(&changes);
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "exporting encounters");
    sqlite3_finalize(chg);
    sqlite3_finalize(ver);
    sqlite3_finalize(enc);
    free(r);
    return e;
}

static enum bot_err export_rest(struct store_sqlite *s,
                                const struct store_export_cb *cb, void *ctx)
{
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_prepare(s,
                                      "SELECT id, channel, version, created_ms"
                                      " FROM interaction ORDER BY id",
                                      &st, "exporting interactions");
    int rc = SQLITE_DONE;
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct store_ix_rec r = {
            .id = (const char *)sqlite3_column_text(st, 0),
            .channel = (uint64_t)sqlite3_column_int64(st, 1),
            .version = sqlite3_column_int64(st, 2),
            .created_ms = sqlite3_column_int64(st, 3),
        };
        e = r.id ? cb->interaction(ctx, &r)
                 : store__fail(&s->base, BOT_NOMEM, "out of memory exporting");
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "exporting interactions");
    sqlite3_finalize(st);
    st = NULL;
    if (e == BOT_OK)
        e = store_sq_prepare(s, "SELECT key, value FROM kv ORDER BY key", &st,
                             "exporting keys");
    while (e == BOT_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(st, 0);
        const char *v = (const char *)sqlite3_column_text(st, 1);
        e = k && v
                ? cb->kv(ctx, k, v)
                : store__fail(&s->base, BOT_NOMEM, "out of memory exporting");
    }
    if (e == BOT_OK && rc != SQLITE_DONE)
        e = store_sq_fail_rc(s, rc, "exporting keys");
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_export(struct store *base,
                             const struct store_export_cb *cb, void *ctx)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_guard(s);
    if (e == BOT_OK)
        e = export_encounters(s, cb, ctx);
    if (e == BOT_OK)
        e = export_rest(s, cb, ctx);
    return e;
}

/* Step an INSERT; a constraint violation is `conflict`. */
static enum bot_err insert_step(struct store_sqlite *s, sqlite3_stmt *st,
                                const char *what, const char *conflict)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE)
        return BOT_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return store__fail(&s->base, BOT_CONFLICT, "%s", conflict);
    return store_sq_fail_rc(s, rc, what);
}

static enum bot_err import_rows(struct store_sqlite *s,
                                const struct store_enc_rec *r)
{
    sqlite3_stmt *st = NULL;
    unsigned char blob[ENC_UNDO_DEPTH * 8];
    struct undo_chain u = {.n = r->nundo};
    memcpy(u.v, r->undo, r->nundo * sizeof u.v[0]);
    store__undo_encode(&u, blob);

    enum bot_err e =
        store_sq_prepare(s,
                         "INSERT INTO encounter (channel, version, undo,"
                         " created_ms, updated_ms, ended_ms, guild)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                         &st, "importing an encounter");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_int64(st, 1, (sqlite3_int64)r->channel);
    sqlite3_bind_int64(st, 2, r->version);
    sqlite3_bind_blob(st, 3, blob, (int)(r->nundo * 8), SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, r->created_ms);
    sqlite3_bind_int64(st, 5, r->updated_ms);
    if (r->ended)
        sqlite3_bind_int64(st, 6, r->ended_ms);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)r->guild);
    e = insert_step(s, st, "importing an encounter",
                    "the channel already has a live encounter");
    sqlite3_finalize(st);
    st = NULL;
    int64_t id = sqlite3_last_insert_rowid(s->db);
    if (e == BOT_OK)
        e = store_sq_prepare(
            s,
            "INSERT INTO enc_version (enc, version, created_ms, doc)"
            " VALUES (?1, ?2, ?3, ?4)",
            &st, "importing a version");
    for (size_t i = 0; e == BOT_OK && i < r->nver; i++) {
        unsigned char *p = NULL;
        size_t n = 0;
        e = store__hist_pack_rec(&s->base, r->ver, r->nver, i, &p, &n);
        if (e != BOT_OK)
            break;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, r->ver[i].version);
        sqlite3_bind_int64(st, 3, r->ver[i].created_ms);
        if (p)
            sqlite3_bind_blob(st, 4, p, (int)n, SQLITE_STATIC);
        else
            sqlite3_bind_text(st, 4, r->ver[i].doc, -1, SQLITE_STATIC);
        e = insert_step(s, st, "importing a version",
                        "a version is listed twice");
        sqlite3_clear_bindings(st);
        free(p);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (e == BOT_OK && r->nchange > 0)
        e = store_sq_prepare(
            s,
            "INSERT INTO enc_change (enc, version, by_user, at_ms,"
            " secret, text, detail, gm_detail, by_name)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            &st, "importing the history");
    for (size_t i = 0; e == BOT_OK && i < r->nchange; i++) {
        const struct store_change_rec *c = &r->change[i];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        store_sq_bind_change(st, c);
        e = insert_step(s, st, "importing the history",
                        "a history line is listed twice");
    }
    sqlite3_finalize(st);
    st = NULL;
    struct store_hist_row h = {0};
    store__hist_of_rec(r, &h);
    if (e == BOT_OK)
        e = store_sq_prepare(s, "UPDATE encounter SET hist_bytes = ?2,"
                                " hist_lines = ?3, hist_folded = ?4"
                                " WHERE id = ?1",
                             &st, "importing the history");
    if (e == BOT_OK) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, h.bytes);
        sqlite3_bind_int64(st, 3, h.lines);
        sqlite3_bind_int64(st, 4, h.folded_to);
        int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE)
            e = store_sq_fail_rc(s, rc, "importing the history");
    }
    sqlite3_finalize(st);
    return e;
}

enum bot_err store_sq_import_encounter(struct store *base,
                                       const struct store_enc_rec *r)
{
    struct store_sqlite *s = SQ(base);
    enum bot_err e = store_sq_op_begin(s);
    if (e != BOT_OK)
        return e;
    store_sq_live_drop(s); /* an import may start the channel's live fight */
    return store_sq_op_end(s, import_rows(s, r));
}

enum bot_err store_sq_import_interaction(struct store *base,
                                         const struct store_ix_rec *r)
{
    struct store_sqlite *s = SQ(base);
    sqlite3_stmt *st = NULL;
    enum bot_err e = store_sq_guard(s);
    if (e == BOT_OK)
        e = store_sq_prepare(s,
                             "INSERT INTO interaction (id, channel, version,"
                             " created_ms) VALUES (?1, ?2, ?3, ?4)",
                             &st, "importing an interaction");
    if (e != BOT_OK)
        return e;
    sqlite3_bind_text(st, 1, r->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)r->channel);
    sqlite3_bind_int64(st, 3, r->version);
    sqlite3_bind_int64(st, 4, r->created_ms);
    e = insert_step(s, st, "importing an interaction",
                    "interaction already recorded");
    sqlite3_finalize(st);
    return e;
}
