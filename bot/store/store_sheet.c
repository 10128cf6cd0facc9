/*
 * store_sheet.c - store.h's saved sheets (characters and NPC templates):
 * the argument checks every backend relies on, the name folding that
 * makes names unique without regard to case, and dispatch to the
 * backend's sheet ops (store_backend.h).
 */
#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "store_backend.h"

_Static_assert(STORE_MAX_SHEET_SYSTEM == ENC_MAX_RS_ID,
               "a sheet's system is a ruleset id");

void store__sheet_fold(const char *name, char *out)
{
    size_t i = 0;
    for (; name[i] && i < STORE_MAX_SHEET_NAME; i++) {
        char c = name[i];
        out[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    out[i] = '\0';
}

void store_sheet_cleanup(struct store_sheet *sh)
{
    if (!sh)
        return;
    free(sh->name);
    free(sh->system);
    free(sh->doc);
    free(sh->undo_tag);
    free(sh->undo_doc);
    memset(sh, 0, sizeof *sh);
}

/* A copy of v (NULL stays NULL) into *out; false when out of memory. */
static bool dup_or_null(const char *v, char **out)
{
    *out = v ? strdup(v) : NULL;
    return v == NULL || *out != NULL;
}

enum bot_err store__sheet_copy(struct store *s, const struct store_sheet *src,
                               struct store_sheet *dst)
{
    *dst = *src;
    dst->name = dst->system = dst->doc = dst->undo_tag = dst->undo_doc = NULL;
    if (dup_or_null(src->name, &dst->name) &&
        dup_or_null(src->system, &dst->system) &&
        dup_or_null(src->doc, &dst->doc) &&
        dup_or_null(src->undo_tag, &dst->undo_tag) &&
        dup_or_null(src->undo_doc, &dst->undo_doc))
        return BOT_OK;
    store_sheet_cleanup(dst);
    return store__fail(s, BOT_NOMEM, "out of memory reading a sheet");
}

/* A string of 1..max bytes (0..max when may_be_empty). */
static enum bot_err check_text(struct store *s, const char *v, size_t max,
                               bool may_be_empty, const char *what)
{
    if (!v || (!may_be_empty && !v[0]))
        return store__fail(s, BOT_INVALID, "no %s", what);
    if (strnlen(v, max + 1) > max)
        return store__fail(s, BOT_LIMIT, "%s too long (limit is %zu bytes)",
                           what, max);
    return BOT_OK;
}

static enum bot_err check_kind(struct store *s, enum store_sheet_kind kind)
{
    if (kind != STORE_SHEET_CHAR && kind != STORE_SHEET_NPC &&
        kind != STORE_SHEET_COND)
        return store__fail(s, BOT_INVALID, "no such kind of sheet (%d)",
                           (int)kind);
    return BOT_OK;
}

/* k checked, with its name (prefix_ok: may be "") folded into key. */
static enum bot_err fold_key(struct store *s, const struct store_sheet_key *k,
                             bool prefix_ok, char *key,
                             struct store_sheet_key *folded)
{
    enum bot_err e = check_kind(s, k->kind);
    if (e == BOT_OK)
        e = check_text(s, k->name, STORE_MAX_SHEET_NAME, prefix_ok,
                       "sheet name");
    if (e != BOT_OK)
        return e;
    store__sheet_fold(k->name, key);
    *folded = *k;
    folded->name = key;
    return BOT_OK;
}

/* The undo pair: both or neither, each within its limit. */
static enum bot_err check_undo(struct store *s, const char *tag,
                               const char *doc)
{
    if ((tag == NULL) != (doc == NULL))
        return store__fail(s, BOT_INVALID, "an undo tag without its "
                           "document, or the reverse");
    if (tag == NULL)
        return BOT_OK;
    enum bot_err e = check_text(s, tag, STORE_MAX_SHEET_TAG, false,
                                "undo tag");
    return e != BOT_OK ? e : check_text(s, doc, STORE_MAX_SHEET_DOC, false,
                                        "sheet document");
}

static enum bot_err check_row(struct store *s, const struct store_sheet *sh)
{
    enum bot_err e = check_kind(s, sh->kind);
    if (e == BOT_OK)
        e = check_text(s, sh->name, STORE_MAX_SHEET_NAME, false, "sheet name");
    if (e == BOT_OK)
        e = check_text(s, sh->system, STORE_MAX_SHEET_SYSTEM, false,
                       "sheet system");
    if (e == BOT_OK)
        e = check_text(s, sh->doc, STORE_MAX_SHEET_DOC, false,
                       "sheet document");
    if (e == BOT_OK && sh->kind != STORE_SHEET_CHAR && sh->owner != 0)
        e = store__fail(s, BOT_INVALID, "a server's sheet has no owner");
    return e;
}

enum bot_err store_sheet_create(struct store *s, const struct store_sheet *sh,
                                int64_t now_ms)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    enum bot_err e = check_row(s, sh);
    if (e != BOT_OK)
        return e;
    /* a new sheet is an import stamped now, with nothing kept and not
     * used: the same for every backend */
    struct store_sheet row = *sh;
    row.created_ms = row.updated_ms = now_ms;
    row.undo_tag = row.undo_doc = NULL;
    row.used = false;
    store__sheet_fold(sh->name, key);
    return s->ops->import_sheet(s, &row, key);
}

enum bot_err store_import_sheet(struct store *s, const struct store_sheet *sh)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    enum bot_err e = check_row(s, sh);
    if (e == BOT_OK)
        e = check_undo(s, sh->undo_tag, sh->undo_doc);
    if (e != BOT_OK)
        return e;
    store__sheet_fold(sh->name, key);
    return s->ops->import_sheet(s, sh, key);
}

enum bot_err store_sheet_get(struct store *s, const struct store_sheet_key *k,
                             struct store_sheet *out)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    struct store_sheet_key f;
    memset(out, 0, sizeof *out);
    enum bot_err e = fold_key(s, k, false, key, &f);
    return e != BOT_OK ? e : s->ops->sheet_get(s, &f, out);
}

enum bot_err store_sheet_update(struct store *s, const struct store_sheet_key *k,
                                const char *doc, const char *undo_tag,
                                const char *undo_doc, int64_t now_ms)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    struct store_sheet_key f;
    enum bot_err e = fold_key(s, k, false, key, &f);
    if (e == BOT_OK)
        e = check_text(s, doc, STORE_MAX_SHEET_DOC, false, "sheet document");
    if (e == BOT_OK)
        e = check_undo(s, undo_tag, undo_doc);
    return e != BOT_OK ? e
                       : s->ops->sheet_update(s, &f, doc, undo_tag, undo_doc,
                                              now_ms);
}

enum bot_err store_sheet_delete(struct store *s, const struct store_sheet_key *k)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    struct store_sheet_key f;
    enum bot_err e = fold_key(s, k, false, key, &f);
    return e != BOT_OK ? e : s->ops->sheet_delete(s, &f);
}

enum bot_err store_sheet_count(struct store *s, const struct store_sheet_key *k,
                               int64_t *n)
{
    enum bot_err e = check_kind(s, k->kind);
    return e != BOT_OK ? e : s->ops->sheet_count(s, k, n);
}

enum bot_err store_sheet_list(struct store *s, const struct store_sheet_key *k,
                              size_t max, size_t *total, store_sheet_fn *fn,
                              void *ctx)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    struct store_sheet_key f;
    if (max < 1 || max > STORE_MAX_SHEET_LIST)
        return store__fail(s, BOT_LIMIT, "listing %zu sheets (limit is %d)",
                           max, STORE_MAX_SHEET_LIST);
    enum bot_err e = fold_key(s, k, true, key, &f);
    return e != BOT_OK ? e : s->ops->sheet_list(s, &f, max, total, fn, ctx);
}

enum bot_err store_sheet_use_set(struct store *s, uint64_t guild,
                                 uint64_t owner, const char *name)
{
    char key[STORE_MAX_SHEET_NAME + 1];
    if (name != NULL) {
        enum bot_err e = check_text(s, name, STORE_MAX_SHEET_NAME, false,
                                    "sheet name");
        if (e != BOT_OK)
            return e;
        store__sheet_fold(name, key);
    }
    return s->ops->sheet_use_set(s, guild, owner, name ? key : NULL);
}

enum bot_err store_sheet_use_get(struct store *s, uint64_t guild,
                                 uint64_t owner, char **name)
{
    return s->ops->sheet_use_get(s, guild, owner, name);
}

enum bot_err store_sheet_tagged(struct store *s, uint64_t guild,
                                const char *tag, store_sheet_fn *fn, void *ctx)
{
    enum bot_err e = check_text(s, tag, STORE_MAX_SHEET_TAG, false, "undo tag");
    return e != BOT_OK ? e : s->ops->sheet_tagged(s, guild, tag, fn, ctx);
}
