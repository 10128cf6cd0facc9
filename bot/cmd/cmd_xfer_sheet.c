/*
 * cmd_xfer_sheet.c - /character export|import and /npc export|import: the
 * sender's characters in this server, or the server's NPC templates, as an
 * export file (xfer.h, docs/export-format.md) and back.
 *
 * An item is {"name", "sheet"}: the sheet is the saved document of
 * sheet_json.h, written as sheet_json_dump() writes it, so the export is
 * canonical whatever a hand-edited file held. Import reads each sheet with
 * sheet_json_load() and checks it against its system with sheet_check(),
 * as /character set does, before anything is written; then all items go
 * in one transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_sheet.h"
#include "cmd_xfer.h"
#include "eng_text.h"
#include "rs_data.h"
#include "sheet_json.h"
#include "store.h"
#include "xfer.h"

struct sheet_row {
    char *name;
    char *doc;
};

struct sheet_pick {
    enum store_sheet_kind kind;
    uint64_t guild, owner;
    struct sheet_row *rows;
    size_t n, cap;
};

static enum bot_err pick_sheet(void *ctx, const struct store_sheet *sh)
{
    struct sheet_pick *p = ctx;
    if (sh->kind != p->kind || sh->guild != p->guild ||
        sh->owner != p->owner)
        return BOT_OK;
    if (p->n == XFER_MAX_ITEMS)
        return BOT_LIMIT;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        struct sheet_row *r = realloc(p->rows, cap * sizeof *r);
        if (r == NULL)
            return BOT_NOMEM;
        p->rows = r;
        p->cap = cap;
    }
    p->rows[p->n].name = strdup(sh->name);
    p->rows[p->n].doc = strdup(sh->doc ? sh->doc : "");
    if (!p->rows[p->n].name || !p->rows[p->n].doc) {
        free(p->rows[p->n].name);
        free(p->rows[p->n].doc);
        return BOT_NOMEM;
    }
    p->n++;
    return BOT_OK;
}

static int row_cmp(const void *a, const void *b)
{
    const struct sheet_row *x = a, *y = b;
    int c = eng_text_casecmp(x->name, y->name);
    return c ? c : strcmp(x->name, y->name);
}

static void pick_free(struct sheet_pick *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->rows[i].name);
        free(p->rows[i].doc);
    }
    free(p->rows);
}

/* Templates are the server's: moving them is for those who manage them
 * (as /npc create: Administrator, Manage Server, or the /config
 * npc-role:), checked here, not with the table's CMD_F_SERVER, which
 * would hide all of /npc from the role's members on Discord. */
static bool may_move(struct cmd_run *run, enum store_sheet_kind kind,
                     bool import)
{
    if (kind != STORE_SHEET_NPC ||
        cmd_sender_manages_npcs(run->ctx->store, run->req))
        return true;
    cmd_fail(run, import ? i18n_get(run->req->lang, "NPC templates are the "
                                    "server's: /npc import is for members "
                                    "with Manage Server or Administrator, "
                                    "or the role /config npc-role: names")
                         : i18n_get(run->req->lang, "NPC templates are the "
                                    "server's: /npc export is for members "
                                    "with Manage Server or Administrator, "
                                    "or the role /config npc-role: names"));
    return false;
}

/* The stored document of row as the file shows it: re-read and written
 * by the sheet codec, so the export is canonical. */
static json_t *row_sheet(const struct sheet_row *row, enum i18n_lang lang,
                         char *err, size_t errlen)
{
    struct sheet sh;
    char why[SHEET_MAX_ERR];
    char *doc;
    json_t *j;

    if (sheet_json_load(row->doc, &sh, why, sizeof why) != BOT_OK) {
        snprintf(err, errlen, i18n_get(lang, "%s cannot be read (%s)"),
                 row->name, why);
        return NULL;
    }
    doc = sheet_json_dump(&sh);
    j = doc ? json_loads(doc, 0, NULL) : NULL;
    free(doc);
    if (j == NULL)
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "the bot ran out of memory"));
    return j;
}

static void sheet_export(struct cmd_run *run, enum store_sheet_kind kind,
                         enum xfer_kind xk)
{
    struct sheet_pick p = {.kind = kind, .guild = run->req->guild_id,
                           .owner = kind == STORE_SHEET_CHAR
                                        ? run->req->user_id
                                        : 0};
    json_t *doc = xfer_doc_new(xk), *items = json_object_get(doc, "items");
    char err[XFER_ERR_MAX];
    enum bot_err e;

    enum i18n_lang lang = run->req->lang;
    if (!may_move(run, kind, false)) {
        json_decref(doc);
        return;
    }
    e = doc ? store_sheet_export(run->ctx->store, pick_sheet, &p)
            : BOT_NOMEM;

    if (e != BOT_OK) {
        cmd_fail(run, kind == STORE_SHEET_CHAR
                          ? i18n_get(lang, "the characters could not be "
                                     "read: %s")
                          : i18n_get(lang, "the templates could not be "
                                     "read: %s"),
                 bot_strerror(e));
        goto out;
    }
    if (p.n > 1) /* qsort's array may not be NULL, even for none */
        qsort(p.rows, p.n, sizeof *p.rows, row_cmp);
    for (size_t i = 0; i < p.n; i++) {
        json_t *sh = row_sheet(&p.rows[i], lang, err, sizeof err);
        if (sh == NULL) {
            cmd_fail(run, "%s", err);
            goto out;
        }
        json_array_append_new(items, json_pack("{s:s,s:o}", "name",
                                               p.rows[i].name, "sheet", sh));
    }
    cmd_xfer_answer(run, doc, p.n, xk);
out:
    json_decref(doc);
    pick_free(&p);
}

/* One item checked, ready to save. */
struct sheet_in {
    const char *name;             /* borrowed from the file */
    char system[ENC_MAX_RS_ID + 1];
    char *doc;                    /* canonical, owned */
    bool exists;                  /* the name is taken: replace it */
};

static bool sheet_item(struct cmd_run *run, const json_t *item, size_t i,
                       struct sheet_in *in, char *err, size_t errlen)
{
    static const char *const fields[] = {"name", "sheet", NULL};
    const json_t *jsh;
    char *text, why[SHEET_MAX_ERR];
    struct sheet sh;
    struct enc_diag d;
    const struct rs_system *sys;
    enum i18n_lang lang = run->req->lang;

    if (!xfer_item_fields(item, i, fields, lang, err, errlen) ||
        !(in->name = xfer_item_str(item, i, "name", STORE_MAX_SHEET_NAME,
                                   lang, err, errlen)))
        return false;
    memset(&d, 0, sizeof d);
    if (cmd_sheet_name_check(in->name, "name", &d) != ENG_OK) {
        snprintf(err, errlen, i18n_get(lang, "item %zu: %s"), i + 1, d.msg);
        return false;
    }
    jsh = json_object_get(item, "sheet");
    if (!json_is_object(jsh)) {
        snprintf(err, errlen,
                 jsh ? i18n_get(lang, "item %zu (%s): `sheet` is not an "
                                "object")
                     : i18n_get(lang, "item %zu (%s): `sheet` is missing"),
                 i + 1, in->name);
        return false;
    }
    text = json_dumps(jsh, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (text == NULL || strlen(text) > SHEET_JSON_MAX_DOC) {
        snprintf(err, errlen,
                 text ? i18n_get(lang, "item %zu (%s): `sheet` is too long")
                      : i18n_get(lang, "item %zu (%s): `sheet` is out of "
                                 "memory"),
                 i + 1, in->name);
        free(text);
        return false;
    }
    if (sheet_json_load(text, &sh, why, sizeof why) != BOT_OK) {
        snprintf(err, errlen, i18n_get(lang, "item %zu (%s): sheet.%s"),
                 i + 1, in->name, why);
        free(text);
        return false;
    }
    free(text);
    sys = rs_find(sh.system);
    if (sys == NULL) {
        snprintf(err, errlen,
                 i18n_get(lang, "item %zu (%s): `system` \"%s\" is not a "
                          "system this fray knows"),
                 i + 1, in->name, sh.system);
        return false;
    }
    if (sheet_check(sys, rs_data_get(run->ctx->rs_data, sys), &sh, &d) !=
        ENG_OK) {
        snprintf(err, errlen, i18n_get(lang, "item %zu (%s): %s"), i + 1,
                 in->name, d.msg);
        return false;
    }
    snprintf(in->system, sizeof in->system, "%s", sh.system);
    in->doc = sheet_json_dump(&sh);
    if (in->doc == NULL) {
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "the bot ran out of memory"));
        return false;
    }
    return true;
}

struct sheet_put {
    struct store *st;
    const struct cmd_req *req;
    enum store_sheet_kind kind;
    uint64_t owner;
    const struct sheet_in *in;
};

static enum bot_err put_sheet(void *ctx, size_t i)
{
    const struct sheet_put *sp = ctx;
    const struct sheet_in *in = &sp->in[i];
    struct store_sheet_key k = {sp->kind, sp->req->guild_id, sp->owner,
                                in->name};
    struct store_sheet sh = {.kind = sp->kind, .guild = sp->req->guild_id,
                             .owner = sp->owner, .name = (char *)in->name,
                             .system = (char *)in->system, .doc = in->doc};
    return in->exists ? store_sheet_update(sp->st, &k, in->doc, NULL, NULL,
                                           sp->req->now_ms)
                      : store_sheet_create(sp->st, &sh, sp->req->now_ms);
}

static void sheet_import(struct cmd_run *run, enum store_sheet_kind kind,
                         enum xfer_kind xk)
{
    const struct cmd_req *req = run->req;
    struct store *st = run->ctx->store;
    uint64_t owner = kind == STORE_SHEET_CHAR ? req->user_id : 0;
    /* the same quotas as /character create and /npc create ([sheets]) */
    int64_t have = 0,
            quota = kind == STORE_SHEET_CHAR
                        ? (run->ctx->max_chars > 0 ? run->ctx->max_chars
                                                   : CMD_MAX_CHARS_PER_USER)
                        : (run->ctx->max_templates > 0
                               ? run->ctx->max_templates
                               : CMD_MAX_TEMPLATES_PER_SERVER);
    char *data = NULL, err[XFER_ERR_MAX];
    size_t len = 0, n = 0, fresh = 0;
    json_t *root = NULL, *items = NULL;
    struct sheet_in *in = NULL;
    bool replace = false;
    enum bot_err e;

    enum i18n_lang lang = req->lang;
    if (!may_move(run, kind, true) ||
        !cmd_opt_bool(run, "replace", false, &replace) ||
        !cmd_xfer_file(run, &data, &len))
        return;
    if (xfer_parse(data, len, xk, &root, &items, lang, err, sizeof err) !=
        BOT_OK) {
        cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
        goto out;
    }
    n = json_array_size(items);
    in = calloc(n ? n : 1, sizeof *in);
    if (in == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory; nothing "
                               "was changed"));
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        struct store_sheet_key k = {kind, req->guild_id, owner, NULL};
        struct store_sheet got;
        if (!sheet_item(run, json_array_get(items, i), i, &in[i], err,
                        sizeof err)) {
            cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (eng_text_casecmp(in[j].name, in[i].name) == 0) {
                cmd_fail(run, i18n_get(lang, "items %zu and %zu are both "
                                       "called %s; nothing was changed"),
                         j + 1, i + 1, in[i].name);
                goto out;
            }
        k.name = in[i].name;
        memset(&got, 0, sizeof got);
        in[i].exists = store_sheet_get(st, &k, &got) == BOT_OK;
        /* a replaced sheet keeps its row, and so its system */
        if (in[i].exists && strcmp(got.system, in[i].system) != 0) {
            cmd_fail(run, i18n_get(lang, "item %zu: %s is a %s sheet here "
                                   "and a %s one in the file; delete it "
                                   "first to bring the file's. Nothing was "
                                   "changed"),
                     i + 1, in[i].name, got.system, in[i].system);
            store_sheet_cleanup(&got);
            goto out;
        }
        store_sheet_cleanup(&got);
        if (in[i].exists && !replace) {
            cmd_fail(run, kind == STORE_SHEET_CHAR
                              ? i18n_get(lang, "item %zu: your character %s "
                                         "already exists; import with "
                                         "replace:true to overwrite it. "
                                         "Nothing was changed")
                              : i18n_get(lang, "item %zu: the template %s "
                                         "already exists; import with "
                                         "replace:true to overwrite it. "
                                         "Nothing was changed"),
                     i + 1, in[i].name);
            goto out;
        }
        fresh += !in[i].exists;
    }
    {
        struct store_sheet_key k = {kind, req->guild_id, owner, ""};
        e = store_sheet_count(st, &k, &have);
    }
    if (e == BOT_OK && have + (int64_t)fresh > quota) {
        unsigned long total = (unsigned long)(have + (int64_t)fresh);
        cmd_fail(run, kind == STORE_SHEET_CHAR
                          ? i18n_nget(lang, "that would make %lld character, "
                                      "over the limit of %lld; nothing was "
                                      "changed", "that would make %lld "
                                      "characters, over the limit of %lld; "
                                      "nothing was changed", total)
                          : i18n_nget(lang, "that would make %lld template, "
                                      "over the limit of %lld; nothing was "
                                      "changed", "that would make %lld "
                                      "templates, over the limit of %lld; "
                                      "nothing was changed", total),
                 (long long)(have + (int64_t)fresh), (long long)quota);
        goto out;
    }
    if (e != BOT_OK) {
        cmd_fail(run, kind == STORE_SHEET_CHAR
                          ? i18n_get(lang, "the characters could not be "
                                     "counted (%s); nothing was changed")
                          : i18n_get(lang, "the templates could not be "
                                     "counted (%s); nothing was changed"),
                 bot_strerror(e));
        goto out;
    }
    {
        struct sheet_put sp = {st, run->req, kind, owner, in};
        cmd_xfer_save(run, n, put_sheet, &sp, xk, replace);
    }
out:
    for (size_t i = 0; in && i < n; i++)
        free(in[i].doc);
    free(in);
    json_decref(items);
    json_decref(root);
    free(data);
}

void cmd_character_export(struct cmd_run *run)
{
    sheet_export(run, STORE_SHEET_CHAR, XFER_CHARACTERS);
}

void cmd_character_import(struct cmd_run *run)
{
    sheet_import(run, STORE_SHEET_CHAR, XFER_CHARACTERS);
}

void cmd_npc_export(struct cmd_run *run)
{
    sheet_export(run, STORE_SHEET_NPC, XFER_TEMPLATES);
}

void cmd_npc_import(struct cmd_run *run)
{
    sheet_import(run, STORE_SHEET_NPC, XFER_TEMPLATES);
}
