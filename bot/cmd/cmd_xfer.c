/*
 * cmd_xfer.c - what every export and import command shares (where the
 * file comes from, where an export goes, saving in one transaction), and
 * /macro export and /macro import: the sender's saved rolls as an export
 * file (xfer.h, docs/export-format.md) and back. Sheets: cmd_xfer_sheet.c.
 *
 * Import checks the whole file before it writes anything, then writes
 * every item in one transaction: a bad item, a name already taken
 * (without replace:true) or a store failure leaves everything as it was.
 * The file comes from req.file (Discord: the daemon downloaded the
 * attachment) or, in the console, from the path in file:. Export writes
 * the file at that path in the console; on Discord it answers privately
 * with the file attached (docs/export-format.md, "Where the file goes").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_run.h"
#include "cmd_macro.h"
#include "cmd_xfer.h"
#include "store.h"
#include "xfer.h"

/* An export's file name on Discord: "fray-" kind ".json". */
#define XFER_FILE_NAME_MAX 48
/* Room for one answer: its words in any language, a path or file name. */
#define XFER_ANSWER_MAX (XFER_ERR_MAX + 512)

/* "Exported n things to path." in lang into buf: a whole sentence per
 * kind, so each language declines its own noun. */
static void say_exported_to(char *buf, size_t len, enum i18n_lang lang,
                            enum xfer_kind kind, size_t n, const char *path)
{
    switch (kind) {
    case XFER_CHARACTERS:
        snprintf(buf, len, i18n_nget(lang, "Exported %zu character to %s.",
                                     "Exported %zu characters to %s.", n),
                 n, path);
        break;
    case XFER_TEMPLATES:
        snprintf(buf, len, i18n_nget(lang, "Exported %zu template to %s.",
                                     "Exported %zu templates to %s.", n),
                 n, path);
        break;
    case XFER_MACROS:
        snprintf(buf, len, i18n_nget(lang, "Exported %zu saved roll to %s.",
                                     "Exported %zu saved rolls to %s.", n),
                 n, path);
        break;
    case XFER_CONDITIONS:
        snprintf(buf, len, i18n_nget(lang, "Exported %zu condition to %s.",
                                     "Exported %zu conditions to %s.", n),
                 n, path);
        break;
    }
}

/* "Exported n things as `name`; `/command import file:` ..." */
static void say_exported_as(char *buf, size_t len, enum i18n_lang lang,
                            enum xfer_kind kind, size_t n, const char *name,
                            const char *command)
{
    switch (kind) {
    case XFER_CHARACTERS:
        snprintf(buf, len,
                 i18n_nget(lang, "Exported %zu character as `%s`; `/%s "
                           "import file:` with this file brings them back.",
                           "Exported %zu characters as `%s`; `/%s import "
                           "file:` with this file brings them back.", n),
                 n, name, command);
        break;
    case XFER_TEMPLATES:
        snprintf(buf, len,
                 i18n_nget(lang, "Exported %zu template as `%s`; `/%s "
                           "import file:` with this file brings them back.",
                           "Exported %zu templates as `%s`; `/%s import "
                           "file:` with this file brings them back.", n),
                 n, name, command);
        break;
    case XFER_MACROS:
        snprintf(buf, len,
                 i18n_nget(lang, "Exported %zu saved roll as `%s`; `/%s "
                           "import file:` with this file brings them back.",
                           "Exported %zu saved rolls as `%s`; `/%s import "
                           "file:` with this file brings them back.", n),
                 n, name, command);
        break;
    case XFER_CONDITIONS:
        snprintf(buf, len,
                 i18n_nget(lang, "Exported %zu condition as `%s`; `/%s "
                           "import file:` with this file brings them back.",
                           "Exported %zu conditions as `%s`; `/%s import "
                           "file:` with this file brings them back.", n),
                 n, name, command);
        break;
    }
}

/* "the things were not saved (why); nothing was changed" */
static void say_not_saved(char *buf, size_t len, enum i18n_lang lang,
                          enum xfer_kind kind, const char *why)
{
    switch (kind) {
    case XFER_CHARACTERS:
        snprintf(buf, len, i18n_get(lang, "the characters were not saved "
                                    "(%s); nothing was changed"), why);
        break;
    case XFER_TEMPLATES:
        snprintf(buf, len, i18n_get(lang, "the templates were not saved "
                                    "(%s); nothing was changed"), why);
        break;
    case XFER_MACROS:
        snprintf(buf, len, i18n_get(lang, "the saved rolls were not saved "
                                    "(%s); nothing was changed"), why);
        break;
    case XFER_CONDITIONS:
        snprintf(buf, len, i18n_get(lang, "the conditions were not saved "
                                    "(%s); nothing was changed"), why);
        break;
    }
}

/* "Imported n things[, replacing those of the same name]." */
static void say_imported(char *buf, size_t len, enum i18n_lang lang,
                         enum xfer_kind kind, size_t n, bool replace)
{
    switch (kind) {
    case XFER_CHARACTERS:
        snprintf(buf, len,
                 replace ? i18n_nget(lang, "Imported %zu character, "
                                     "replacing those of the same name.",
                                     "Imported %zu characters, replacing "
                                     "those of the same name.", n)
                         : i18n_nget(lang, "Imported %zu character.",
                                     "Imported %zu characters.", n),
                 n);
        break;
    case XFER_TEMPLATES:
        snprintf(buf, len,
                 replace ? i18n_nget(lang, "Imported %zu template, "
                                     "replacing those of the same name.",
                                     "Imported %zu templates, replacing "
                                     "those of the same name.", n)
                         : i18n_nget(lang, "Imported %zu template.",
                                     "Imported %zu templates.", n),
                 n);
        break;
    case XFER_MACROS:
        snprintf(buf, len,
                 replace ? i18n_nget(lang, "Imported %zu saved roll, "
                                     "replacing those of the same name.",
                                     "Imported %zu saved rolls, replacing "
                                     "those of the same name.", n)
                         : i18n_nget(lang, "Imported %zu saved roll.",
                                     "Imported %zu saved rolls.", n),
                 n);
        break;
    case XFER_CONDITIONS:
        snprintf(buf, len,
                 replace ? i18n_nget(lang, "Imported %zu condition, "
                                     "replacing those of the same name.",
                                     "Imported %zu conditions, replacing "
                                     "those of the same name.", n)
                         : i18n_nget(lang, "Imported %zu condition.",
                                     "Imported %zu conditions.", n),
                 n);
        break;
    }
}

bool cmd_xfer_file(struct cmd_run *run, char **out, size_t *len)
{
    const struct cmd_req *req = run->req;
    char err[XFER_ERR_MAX];

    *out = NULL;
    *len = 0;
    if (req->file != NULL) {
        *out = malloc(req->file_len + 1);
        if (*out == NULL) {
            cmd_fail(run, i18n_get(req->lang, "the bot ran out of memory; "
                                   "nothing was changed"));
            return false;
        }
        memcpy(*out, req->file, req->file_len);
        (*out)[req->file_len] = '\0';
        *len = req->file_len;
        return true;
    }
    if (req->source != CMD_SRC_CONSOLE) {
        cmd_fail(run, i18n_get(req->lang, "attach the file to import to the "
                               "command's `file` option"));
        return false;
    }
    if (xfer_read_file(cmd_req_opt(req, "file"), out, len, run->req->lang, err,
                       sizeof err) != BOT_OK) {
        cmd_fail(run, i18n_get(req->lang, "%s; nothing was changed"), err);
        return false;
    }
    return true;
}

bool cmd_xfer_answer(struct cmd_run *run, const json_t *doc, size_t n,
                     enum xfer_kind what)
{
    const char *path = cmd_req_opt(run->req, "file");
    enum i18n_lang lang = run->req->lang;
    char err[XFER_ERR_MAX], said[XFER_ANSWER_MAX];
    char *text = xfer_dump(doc, run->req->lang, err, sizeof err);

    if (text == NULL) {
        cmd_fail(run, "%s", err);
        return false;
    }
    if (run->req->source != CMD_SRC_CONSOLE && path != NULL) {
        cmd_fail(run, i18n_get(lang, "file: names a file on fray's own "
                               "machine, in its console; on Discord leave "
                               "it out and the export comes in the "
                               "answer"));
        free(text);
        return false;
    }
    if (path != NULL) {
        if (xfer_write_file(path, text, run->req->lang, err, sizeof err) != BOT_OK) {
            cmd_fail(run, "%s", err);
            free(text);
            return false;
        }
        say_exported_to(said, sizeof said, lang, what, n, path);
        msg_set_content(&run->reply->msg, "%s", said);
        run->reply->ephemeral = true;
        free(text);
        return true;
    }
    /* On Discord the export is a file attached to a private answer (the
     * daemon uploads it, multipart): the same bytes the console writes,
     * and what the import's file: option takes back. xfer_dump() keeps it
     * within XFER_MAX_BYTES, far under any server's attachment limit. */
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    char name[XFER_FILE_NAME_MAX];
    struct cmd_file *f = &run->reply->file;
    snprintf(name, sizeof name, "fray-%s.json", kind != NULL ? kind
                                                               : "export");
    f->name = strdup(name);
    f->data = text;
    f->len = strlen(text);
    text = NULL;
    if (f->name == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory"));
        return false;
    }
    say_exported_as(said, sizeof said, lang, what, n, name,
                    run->req->command);
    msg_set_content(&run->reply->msg, "%s", said);
    run->reply->ephemeral = true;
    return !run->failed;
}

bool cmd_xfer_save(struct cmd_run *run, size_t n, cmd_xfer_put_fn *put,
                   void *ctx, enum xfer_kind what, bool replace)
{
    struct store *st = run->ctx->store;
    char said[XFER_ANSWER_MAX];
    enum bot_err e = store_begin(st);

    for (size_t i = 0; e == BOT_OK && i < n; i++)
        e = put(ctx, i);
    if (e == BOT_OK)
        e = store_commit(st);
    else
        store_rollback(st);
    if (e != BOT_OK) {
        say_not_saved(said, sizeof said, run->req->lang, what,
                      bot_strerror(e));
        cmd_fail(run, "%s", said);
        return false;
    }
    say_imported(said, sizeof said, run->req->lang, what, n, replace);
    msg_set_content(&run->reply->msg, "%s", said);
    run->reply->ephemeral = true;
    return true;
}

/* ---- saved rolls ---- */

struct macro_list {
    json_t *items;
    size_t n;
};

static enum bot_err add_macro(void *ctx, const struct store_macro *m)
{
    struct macro_list *l = ctx;
    if (json_array_append_new(l->items, json_pack("{s:s,s:s}", "name",
                                                  m->name, "dice",
                                                  m->dice)) != 0)
        return BOT_NOMEM;
    l->n++;
    return BOT_OK;
}

void cmd_macro_export(struct cmd_run *run)
{
    json_t *doc = xfer_doc_new(XFER_MACROS);
    struct macro_list l = {json_object_get(doc, "items"), 0};
    enum bot_err e = doc ? store_macro_list(run->ctx->store, 0,
                                            run->req->user_id, "",
                                            XFER_MAX_ITEMS, add_macro, &l)
                         : BOT_NOMEM;

    if (e != BOT_OK)
        cmd_fail(run, i18n_get(run->req->lang, "your saved rolls could not "
                               "be read: %s"),
                 bot_strerror(e));
    else
        cmd_xfer_answer(run, doc, l.n, XFER_MACROS);
    json_decref(doc);
}

/* Check item i of a macros file into *m (the sender's scope). */
static bool macro_item(struct cmd_run *run, const json_t *item, size_t i,
                       struct store_macro *m, char *err, size_t errlen)
{
    static const char *const fields[] = {"name", "dice", NULL};
    const char *name, *dice;
    char why[XFER_ERR_MAX];

    if (!xfer_item_fields(item, i, fields, run->req->lang, err, errlen) ||
        !(name = xfer_item_str(item, i, "name", STORE_MACRO_NAME_MAX, run->req->lang, err,
                               errlen)) ||
        !(dice = xfer_item_str(item, i, "dice", STORE_MACRO_DICE_MAX, run->req->lang, err,
                               errlen)))
        return false;
    /* the rules of /macro save, whatever way a saved roll comes in */
    memset(m, 0, sizeof *m);
    if (!cmd_macro_check(name, dice, run->req->source == CMD_SRC_DISCORD,
                         run->req->lang, m, why, sizeof why)) {
        snprintf(err, errlen, i18n_get(run->req->lang, "item %zu (%.32s): "
                                       "%s"),
                 i + 1, name, why);
        return false;
    }
    m->user = run->req->user_id;
    m->by = run->req->user_id;
    m->created_ms = m->updated_ms = run->req->now_ms;
    return true;
}

struct macro_put {
    struct store *st;
    const struct store_macro *ms;
    bool replace;
};

static enum bot_err put_macro(void *ctx, size_t i)
{
    const struct macro_put *mp = ctx;
    return store_macro_put(mp->st, &mp->ms[i], mp->replace);
}

void cmd_macro_import(struct cmd_run *run)
{
    struct store *st = run->ctx->store;
    char *data = NULL, err[XFER_ERR_MAX];
    size_t len = 0, n, fresh = 0;
    int64_t count = 0;
    json_t *root = NULL, *items = NULL;
    struct store_macro *ms = NULL;
    bool replace = false;
    enum i18n_lang lang = run->req->lang;

    if (!cmd_opt_bool(run, "replace", false, &replace) ||
        !cmd_xfer_file(run, &data, &len))
        return;
    if (xfer_parse(data, len, XFER_MACROS, &root, &items, run->req->lang, err,
                   sizeof err) != BOT_OK) {
        cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
        goto out;
    }
    n = json_array_size(items);
    ms = calloc(n ? n : 1, sizeof *ms);
    if (ms == NULL) {
        cmd_fail(run, i18n_get(lang, "the bot ran out of memory; nothing "
                               "was changed"));
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        struct store_macro have;
        if (!macro_item(run, json_array_get(items, i), i, &ms[i], err,
                        sizeof err)) {
            cmd_fail(run, i18n_get(lang, "%s; nothing was changed"), err);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(ms[j].name, ms[i].name) == 0) {
                cmd_fail(run, i18n_get(lang, "items %zu and %zu are both "
                                       "called %s; nothing was changed"),
                         j + 1, i + 1, ms[i].name);
                goto out;
            }
        if (store_macro_get(st, 0, run->req->user_id, ms[i].name,
                            &have) != BOT_OK) {
            fresh++;
        } else if (!replace) {
            cmd_fail(run, i18n_get(lang, "item %zu: you already have a saved "
                                   "roll called %s; import with "
                                   "replace:true to overwrite it. Nothing "
                                   "was changed"),
                     i + 1, ms[i].name);
            goto out;
        }
    }
    if (store_macro_count(st, 0, run->req->user_id, &count) != BOT_OK ||
        count + (int64_t)fresh > cmd_macro_quota(run->ctx, false)) {
        cmd_fail(run, i18n_nget(lang, "that would make %lld saved roll, "
                                "over your limit of %lld; nothing was "
                                "changed", "that would make %lld saved "
                                "rolls, over your limit of %lld; nothing "
                                "was changed",
                                (unsigned long)(count + (int64_t)fresh)),
                 (long long)(count + (int64_t)fresh),
                 (long long)cmd_macro_quota(run->ctx, false));
        goto out;
    }
    {
        struct macro_put mp = {st, ms, replace};
        cmd_xfer_save(run, n, put_macro, &mp, XFER_MACROS, replace);
    }
out:
    free(ms);
    json_decref(items);
    json_decref(root);
    free(data);
}
