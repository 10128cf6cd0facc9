/*
 * cmd_srvcond.c - a server's own conditions (cmd_srvcond.h): /config's
 * condition options, and /help topic:conditions.
 *
 * Saving, deleting, exporting and importing them is /config's, so the
 * server's managers' (Manage Server or Administrator, checked by
 * cmd_exec() from the table's CMD_F_SERVER): they shape every fight of
 * the server. Reading them is anyone's in the server (/help
 * topic:conditions), since any GM may give one and a player may be given
 * one. None of these changes a fight; each opens its own transaction.
 * Replies are private.
 */
#include "cmd_srvcond.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_sheet.h"
#include "cmd_xfer.h"
#include "eng_policy.h"
#include "eng_text.h"
#include "msg.h"
#include "rs_data.h"
#include "rs_kit.h"
#include "sbuf.h"
#include "xfer.h"

/* Conditions one /help topic:conditions describes: a page's worth. */
#define SRVCOND_LIST_MAX STORE_MAX_SHEET_LIST

/* The system (by title) declaring a condition called name in its own
 * list or its data file's, or NULL. */
static const struct rs_system *declared_by(const struct cmd_ctx *ctx,
                                           const char *name)
{
    size_t nrs = 0;
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t i = 0; i < nrs; i++) {
        for (int k = 0; k < all[i]->nconds; k++)
            if (eng_text_casecmp(all[i]->conds[k].name, name) == 0)
                return all[i];
        int n = 0;
        const void *data = ctx->rs_data != NULL
                               ? rs_data_get(ctx->rs_data, all[i]) : NULL;
        const struct rs_cond_spec *list = rs_cond_specs(all[i], data, &n);
        for (int k = 0; list != all[i]->conds && k < n; k++)
            if (eng_text_casecmp(list[k].name, name) == 0)
                return all[i];
    }
    return NULL;
}

bool cmd_srvcond_check(const struct cmd_ctx *ctx, const struct srvcond *c,
                       enum i18n_lang lang, char *why, size_t whylen)
{
    size_t nl = strnlen(c->name, sizeof c->name);
    size_t dl = strnlen(c->desc, sizeof c->desc);
    const char *bad;
    const struct rs_system *sys;
    if (nl == 0 || nl > SRVCOND_NAME_MAX) {
        snprintf(why, whylen,
                 i18n_nget(lang, "a condition's name is 1 to %d byte",
                           "a condition's name is 1 to %d bytes",
                           SRVCOND_NAME_MAX),
                 SRVCOND_NAME_MAX);
    } else if ((bad = eng_policy_check(c->name, nl)) != NULL) {
        /* what it holds is the text policy's words (engine) */
        snprintf(why, whylen, i18n_get(lang, "the name holds %s"), bad);
    } else if (dl > SRVCOND_DESC_MAX) {
        snprintf(why, whylen,
                 i18n_nget(lang, "a description is at most %d byte",
                           "a description is at most %d bytes",
                           SRVCOND_DESC_MAX),
                 SRVCOND_DESC_MAX);
    } else if ((bad = eng_policy_check(c->desc, dl)) != NULL) {
        snprintf(why, whylen, i18n_get(lang, "the description holds %s"),
                 bad);
    } else if (c->rounds < 0 || c->rounds > ENC_MAX_ROUNDS) {
        snprintf(why, whylen,
                 i18n_get(lang, "rounds is 0 (until removed) to %d"),
                 ENC_MAX_ROUNDS);
    } else if ((sys = declared_by(ctx, c->name)) != NULL) {
        snprintf(why, whylen,
                 i18n_get(lang, "%.32s is a condition of the %s rules, and "
                          "a server's own never shadows a system's; choose "
                          "another name"),
                 c->name, sys->id);
    } else {
        return true;
    }
    return false;
}

/* The document kept for c: malloc'd, NULL when out of memory. */
static char *doc_of(const struct srvcond *c)
{
    json_t *o = json_pack("{s:s,s:i}", "description", c->desc, "rounds",
                          (json_int_t)c->rounds);
    char *s = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS)
                        : NULL;
    json_decref(o);
    return s;
}

/* The row's name and document into *out; false when it is not one. */
static bool from_row(const char *name, const char *doc, struct srvcond *out)
{
    json_t *o = json_loads(doc != NULL ? doc : "", 0, NULL);
    const char *d = json_string_value(json_object_get(o, "description"));
    json_t *r = json_object_get(o, "rounds");
    bool ok = d != NULL && json_is_integer(r);
    memset(out, 0, sizeof *out);
    if (ok) {
        enc_copy(out->name, sizeof out->name, name);
        enc_copy(out->desc, sizeof out->desc, d);
        out->rounds = (int32_t)json_integer_value(r);
    }
    json_decref(o);
    return ok;
}

bool cmd_srvcond_find(struct store *store, uint64_t guild, const char *name,
                      struct srvcond *out)
{
    if (guild == 0 || name == NULL || strlen(name) > SRVCOND_NAME_MAX)
        return false;
    struct store_sheet_key k = {STORE_SHEET_COND, guild, 0, name};
    struct store_sheet row = {0};
    bool ok = store_sheet_get(store, &k, &row) == BOT_OK &&
              from_row(row.name, row.doc, out);
    store_sheet_cleanup(&row);
    return ok;
}

struct each {
    cmd_srvcond_fn *fn;
    void *ctx;
};

static enum bot_err each_one(void *ctx, const struct store_sheet *sh)
{
    struct each *e = ctx;
    e->fn(e->ctx, sh->name);
    return BOT_OK;
}

void cmd_srvcond_each(struct store *store, uint64_t guild, const char *prefix,
                      size_t max, cmd_srvcond_fn *fn, void *ctx)
{
    struct store_sheet_key k = {STORE_SHEET_COND, guild, 0, prefix};
    struct each e = {fn, ctx};
    if (guild != 0 && strlen(prefix) <= SRVCOND_NAME_MAX)
        store_sheet_list(store, &k, max, NULL, each_one, &e);
}

static void store_trouble(struct cmd_run *run)
{
    cmd_fail(run, i18n_get(run->req->lang, "the server's conditions could "
                           "not be read or written; nothing was changed, "
                           "try again"));
}

/* "**Dazed**: no reactions (2 rounds ...)" into b, in lang. */
static void describe(struct sbuf *b, enum i18n_lang lang,
                     const struct srvcond *c)
{
    char *n = msg_escape(c->name), *d = msg_escape(c->desc);
    sbuf_addf(b, "**%s**%s%s", n ? n : "?", d && d[0] ? ": " : "",
              d ? d : "");
    if (c->rounds > 0)
        sbuf_addf(b, i18n_nget(lang, " (%d round unless the GM says "
                               "otherwise)", " (%d rounds unless the GM "
                               "says otherwise)", (unsigned long)c->rounds),
                  (int)c->rounds);
    else
        sbuf_add(b, i18n_get(lang, " (until removed)"));
    free(n);
    free(d);
}

static void reply_with(struct cmd_run *run, bool changed,
                       const struct srvcond *c)
{
    enum i18n_lang lang = run->req->lang;
    struct sbuf b;
    sbuf_init(&b, MSG_MAX_TEXT);
    describe(&b, lang, c);
    msg_set_content(&run->reply->msg,
                    changed ? i18n_get(lang, "Changed. %s")
                            : i18n_get(lang, "Saved. %s"),
                    sbuf_str(&b));
    run->reply->ephemeral = true;
    sbuf_cleanup(&b);
}

/* /config condition:NAME condition-text: condition-rounds: - saved, or
 * changed when the server has it (a setting set again). */
static void save(struct cmd_run *run)
{
    struct srvcond c = {0};
    int64_t rounds = 0;
    char why[240];
    const char *desc = cmd_req_opt(run->req, "condition-text");
    if (!cmd_opt_int(run, "condition-rounds", 0, &rounds))
        return;
    enc_copy(c.name, sizeof c.name, cmd_req_opt(run->req, "condition"));
    enc_copy(c.desc, sizeof c.desc, desc != NULL ? desc : "");
    c.rounds = (int32_t)rounds;
    if (!cmd_srvcond_check(run->ctx, &c, run->req->lang, why, sizeof why)) {
        cmd_fail(run, "%s", why);
        return;
    }
    struct store *st = run->ctx->store;
    struct store_sheet_key k = {STORE_SHEET_COND, run->req->guild_id, 0,
                                c.name};
    struct store_sheet have = {0};
    int64_t n = 0;
    char *doc = doc_of(&c);
    enum bot_err e = doc != NULL ? store_begin(st) : BOT_NOMEM;
    bool exists = false, full = false;
    if (e == BOT_OK) {
        exists = store_sheet_get(st, &k, &have) == BOT_OK;
        e = store_sheet_count(st, &k, &n);
        full = e == BOT_OK && !exists && n >= SRVCOND_MAX_PER_SERVER;
    }
    if (full) {
        cmd_fail(run, i18n_nget(run->req->lang, "this server keeps %lld "
                                "condition, the most it may (limit is %d); "
                                "delete one first with /config "
                                "delete-condition:", "this server keeps "
                                "%lld conditions, the most it may (limit is "
                                "%d); delete one first with /config "
                                "delete-condition:", (unsigned long)n),
                 (long long)n, SRVCOND_MAX_PER_SERVER);
    } else if (e == BOT_OK && exists) {
        /* the spelling first saved stays, as a sheet's name does */
        enc_copy(c.name, sizeof c.name, have.name);
        e = store_sheet_update(st, &k, doc, NULL, NULL, run->req->now_ms);
    } else if (e == BOT_OK) {
        struct store_sheet row = {.kind = STORE_SHEET_COND,
                                  .guild = k.guild, .name = c.name,
                                  .system = SRVCOND_SYSTEM, .doc = doc};
        e = store_sheet_create(st, &row, run->req->now_ms);
    }
    if (!run->failed && e == BOT_OK)
        e = store_commit(st);
    if (run->failed || e != BOT_OK) {
        store_rollback(st);
        if (!run->failed)
            store_trouble(run);
    } else {
        reply_with(run, exists, &c);
    }
    store_sheet_cleanup(&have);
    free(doc);
}

/* Names copied out of a listing: the rows are the store's only during
 * the call, and each is read again for its description. */
struct names {
    char name[SRVCOND_LIST_MAX][SRVCOND_NAME_MAX + 1];
    size_t n;
};

static void keep_name(void *ctx, const char *name)
{
    struct names *ns = ctx;
    if (ns->n < SRVCOND_LIST_MAX)
        enc_copy(ns->name[ns->n++], sizeof ns->name[0], name);
}

void cmd_srvcond_help(struct cmd_ctx *ctx, uint64_t guild, struct sbuf *b)
{
    struct store_sheet_key k = {STORE_SHEET_COND, guild, 0, ""};
    int64_t total = 0;
    if (guild == 0) {
        sbuf_add(b, "A server's own conditions are read in its channels.");
        return;
    }
    struct names *ns = calloc(1, sizeof *ns);
    if (ns == NULL || store_sheet_count(ctx->store, &k, &total) != BOT_OK) {
        sbuf_add(b, "The server's conditions could not be read; try again.");
        free(ns);
        return;
    }
    sbuf_add(b, "Conditions of this server's own, given in a fight with "
                "`/combat condition` like any other:");
    /* names a listing at a time; each is read for its description */
    cmd_srvcond_each(ctx->store, guild, "", SRVCOND_LIST_MAX, keep_name, ns);
    for (size_t i = 0; i < ns->n; i++) {
        struct srvcond c;
        if (!cmd_srvcond_find(ctx->store, guild, ns->name[i], &c))
            continue;
        sbuf_add(b, "\n- ");
        /* /help's page is English still (cmd_help.c converts it) */
        describe(b, I18N_EN, &c);
    }
    if (total == 0)
        sbuf_add(b, " none yet. Its managers save one with `/config "
                    "condition:`.");
    else if (total > (int64_t)ns->n)
        sbuf_addf(b, "\n(%lld more: `/combat condition` suggests them as "
                  "you type)", (long long)(total - (int64_t)ns->n));
    free(ns);
}

static void delete_one(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "delete-condition");
    struct store_sheet_key k = {STORE_SHEET_COND, run->req->guild_id, 0,
                                name};
    char *shown = msg_escape(name);
    enum bot_err e = store_sheet_delete(run->ctx->store, &k);
    if (e == BOT_NOTFOUND)
        cmd_fail(run, i18n_get(run->req->lang, "this server has no "
                               "condition of its own called %s"),
                 shown ? shown : "that");
    else if (e != BOT_OK)
        store_trouble(run);
    else {
        msg_set_content(&run->reply->msg,
                        i18n_get(run->req->lang, "Deleted the condition %s. "
                                 "Combatants who have it keep it."),
                        shown ? shown : "");
        run->reply->ephemeral = true;
    }
    free(shown);
}

/* ---- export and import (docs/export-format.md, kind "conditions") ---- */

struct export {
    uint64_t guild;
    json_t *items;
    size_t n;
};

static enum bot_err export_one(void *ctx, const struct store_sheet *sh)
{
    struct export *x = ctx;
    struct srvcond c;
    if (sh->kind != STORE_SHEET_COND || sh->guild != x->guild ||
        !from_row(sh->name, sh->doc, &c))
        return BOT_OK;
    /* no description is left out: an item's text is 1 byte or more */
    json_t *item = c.desc[0] != '\0'
                       ? json_pack("{s:s,s:s,s:i}", "name", c.name,
                                   "description", c.desc, "rounds",
                                   (json_int_t)c.rounds)
                       : json_pack("{s:s,s:i}", "name", c.name, "rounds",
                                   (json_int_t)c.rounds);
    if (json_array_append_new(x->items, item) != 0)
        return BOT_NOMEM;
    x->n++;
    return BOT_OK;
}

static int by_name(const void *a, const void *b)
{
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    return eng_text_casecmp(json_string_value(json_object_get(x, "name")),
                            json_string_value(json_object_get(y, "name")));
}

/* The items in name order, case ignored (the store hands them in the
 * order they were made): an export compares with diff. False when out of
 * memory. */
static bool sort_items(json_t *items)
{
    size_t n = json_array_size(items);
    json_t **v = calloc(n ? n : 1, sizeof *v);
    if (v == NULL)
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = json_incref(json_array_get(items, i));
    qsort(v, n, sizeof *v, by_name);
    json_array_clear(items);
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        ok = json_array_append_new(items, v[i]) == 0 && ok;
    free(v);
    return ok;
}

static void export_all(struct cmd_run *run)
{
    json_t *doc = xfer_doc_new(XFER_CONDITIONS);
    struct export x = {run->req->guild_id,
                       json_object_get(doc, "items"), 0};
    if (doc == NULL ||
        store_sheet_export(run->ctx->store, export_one, &x) != BOT_OK ||
        !sort_items(x.items))
        store_trouble(run);
    else if (cmd_xfer_answer(run, doc, x.n, XFER_CONDITIONS) &&
             run->reply->file.name != NULL)
        /* the import is /config file:, not a "/config import" */
        msg_set_content(&run->reply->msg,
                        i18n_nget(run->req->lang, "Exported %zu condition "
                                  "as `%s`; `/config file:` with this file "
                                  "brings them back.", "Exported %zu "
                                  "conditions as `%s`; `/config file:` with "
                                  "this file brings them back.", x.n),
                        x.n, run->reply->file.name);
    json_decref(doc);
}

/* Item i of an import into *c, checked as /config condition: checks. */
static bool import_item(struct cmd_run *run, const json_t *item, size_t i,
                        struct srvcond *c, char *err, size_t errlen)
{
    static const char *const fields[] = {"name", "description", "rounds",
                                         NULL};
    const char *name, *desc = "";
    json_t *r = json_object_get(item, "rounds");
    char why[240];
    if (!xfer_item_fields(item, i, fields, run->req->lang, err, errlen) ||
        !(name = xfer_item_str(item, i, "name", SRVCOND_NAME_MAX, run->req->lang, err,
                               errlen)))
        return false;
    if (json_object_get(item, "description") != NULL &&
        !(desc = xfer_item_str(item, i, "description", SRVCOND_DESC_MAX,
                               run->req->lang, err, errlen)))
        return false;
    if (r != NULL && !json_is_integer(r)) {
        snprintf(err, errlen,
                 i18n_get(run->req->lang, "item %zu: `rounds` is not a "
                          "whole number"),
                 i + 1);
        return false;
    }
    memset(c, 0, sizeof *c);
    enc_copy(c->name, sizeof c->name, name);
    enc_copy(c->desc, sizeof c->desc, desc);
    json_int_t v = r != NULL ? json_integer_value(r) : 0;
    c->rounds = v < 0 || v > ENC_MAX_ROUNDS ? -1 : (int32_t)v;
    if (!cmd_srvcond_check(run->ctx, c, run->req->lang, why, sizeof why)) {
        snprintf(err, errlen, i18n_get(run->req->lang, "item %zu (%.32s): "
                                       "%s"),
                 i + 1, name, why);
        return false;
    }
    return true;
}

struct import {
    struct cmd_run *run;
    const struct srvcond *cs;
    const bool *have;
};

static enum bot_err put_one(void *ctx, size_t i)
{
    struct import *im = ctx;
    const struct srvcond *c = &im->cs[i];
    struct store *st = im->run->ctx->store;
    uint64_t guild = im->run->req->guild_id;
    char *doc = doc_of(c);
    enum bot_err e = BOT_NOMEM;
    if (doc != NULL && im->have[i]) {
        struct store_sheet_key k = {STORE_SHEET_COND, guild, 0, c->name};
        e = store_sheet_update(st, &k, doc, NULL, NULL,
                               im->run->req->now_ms);
    } else if (doc != NULL) {
        struct store_sheet row = {.kind = STORE_SHEET_COND, .guild = guild,
                                  .name = (char *)c->name,
                                  .system = SRVCOND_SYSTEM, .doc = doc};
        e = store_sheet_create(st, &row, im->run->req->now_ms);
    }
    free(doc);
    return e;
}

static void import_all(struct cmd_run *run)
{
    char *data = NULL, err[XFER_ERR_MAX];
    size_t len = 0, n = 0, fresh = 0;
    json_t *root = NULL, *items = NULL;
    struct srvcond *cs = NULL;
    bool *have = NULL, replace = false;
    int64_t count = 0;
    uint64_t guild = run->req->guild_id;
    enum i18n_lang lang = run->req->lang;
    if (!cmd_opt_bool(run, "replace", false, &replace) ||
        !cmd_xfer_file(run, &data, &len))
        return;
    if (xfer_parse(data, len, XFER_CONDITIONS, &root, &items, run->req->lang, err,
                   sizeof err) != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
        goto out;
    }
    n = json_array_size(items);
    cs = calloc(n ? n : 1, sizeof *cs);
    have = calloc(n ? n : 1, sizeof *have);
    if (cs == NULL || have == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory; nothing "
                               "was changed"));
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        struct srvcond old;
        if (!import_item(run, json_array_get(items, i), i, &cs[i], err,
                         sizeof err)) {
            cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (eng_text_casecmp(cs[j].name, cs[i].name) == 0) {
                cmd_fail(run, i18n_get(lang, "items %zu and %zu are both "
                                       "called %s; nothing was changed"),
                         j + 1, i + 1, cs[i].name);
                goto out;
            }
        have[i] = cmd_srvcond_find(run->ctx->store, guild, cs[i].name, &old);
        if (have[i] && !replace) {
            cmd_fail(run, i18n_get(lang, "item %zu: this server has a "
                                   "condition called %s already; import "
                                   "with replace:true to overwrite it. "
                                   "Nothing was changed"),
                     i + 1, old.name);
            goto out;
        }
        fresh += !have[i];
    }
    struct store_sheet_key k = {STORE_SHEET_COND, guild, 0, ""};
    if (store_sheet_count(run->ctx->store, &k, &count) != BOT_OK ||
        count + (int64_t)fresh > SRVCOND_MAX_PER_SERVER) {
        cmd_fail(run, i18n_nget(lang, "that would make %lld condition, over "
                                "the server's limit of %d; nothing was "
                                "changed", "that would make %lld "
                                "conditions, over the server's limit of %d; "
                                "nothing was changed",
                                (unsigned long)(count + (int64_t)fresh)),
                 (long long)(count + (int64_t)fresh), SRVCOND_MAX_PER_SERVER);
        goto out;
    }
    {
        struct import im = {run, cs, have};
        cmd_xfer_save(run, n, put_one, &im, XFER_CONDITIONS, replace);
    }
out:
    free(cs);
    free(have);
    json_decref(items);          /* xfer_parse hands it with a reference */
    json_decref(root);
    free(data);
}

/* /config's options of this module. */
static const char *const own_opts[] = {
    "condition", "condition-text", "condition-rounds", "delete-condition",
    "export-conditions", "file", "replace", NULL};

static bool own(const char *name)
{
    for (size_t i = 0; own_opts[i] != NULL; i++)
        if (strcmp(own_opts[i], name) == 0)
            return true;
    return false;
}

bool cmd_srvcond_config(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    bool any = false, other = false, export = false;
    for (int i = 0; i < req->nopts; i++) {
        bool mine = own(req->opts[i].name);
        any = any || mine;
        other = other || !mine;
    }
    if (!any)
        return false;
    if (!cmd_opt_bool(run, "export-conditions", false, &export))
        return true;
    bool save_it = cmd_req_opt(req, "condition") != NULL;
    bool delete_it = cmd_req_opt(req, "delete-condition") != NULL;
    bool import_it = cmd_req_opt(req, "file") != NULL || req->file != NULL;
    if (other || save_it + delete_it + export + import_it != 1)
        cmd_fail(run, i18n_get(req->lang, "give one of condition:, "
                               "delete-condition:, export-conditions:true "
                               "and file: at a time, with only its own "
                               "options (condition-text: and "
                               "condition-rounds:, or replace:)"));
    else if (save_it)
        save(run);
    else if (delete_it)
        delete_one(run);
    else if (export)
        export_all(run);
    else
        import_all(run);
    return true;
}
