/*
 * cmd_character.c - /character: a player's saved characters in a server.
 *
 * A character is a sheet (sheet_json.h) kept in the store under its
 * owner, the server and its name; every reply is private, and a player
 * only ever reaches their own characters (the store's key holds the
 * sender's id, so another player's character is simply not found). The
 * first character a player makes in a server becomes the one they "use":
 * /combat join with neither name: nor character: brings it.
 *
 * These commands change no fight, so they run outside cmd_exec()'s
 * encounter transaction (as /config does): each opens its own, so a quota
 * count and the write it allows are one atomic step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_sheet.h"
#include "msg.h"
#include "rs_data.h"
#include "sbuf.h"

/* Lines /character list shows: a page of autocomplete's size. */
#define CHAR_LIST_MAX STORE_MAX_SHEET_LIST

static void store_trouble(struct cmd_run *run)
{
    cmd_fail(run, i18n_get(run->req->lang, "the saved characters could not "
                           "be read or written; nothing was changed, try "
                           "again"));
}

/* Open the command's transaction; false (the command failed) when the
 * store cannot. */
static bool begin(struct cmd_run *run)
{
    if (store_begin(run->ctx->store) == BOT_OK)
        return true;
    store_trouble(run);
    return false;
}

/* Commit when the command succeeded, else roll back. */
static void end(struct cmd_run *run)
{
    struct store *s = run->ctx->store;
    if (run->failed) {
        store_rollback(s);
        return;
    }
    if (store_commit(s) != BOT_OK) {
        msg_cleanup(&run->reply->msg);
        store_trouble(run);
    }
}

/* The name given, or the character the sender uses (into *used, to free)
 * when none is. */
static const char *name_or_used(struct cmd_run *run, char **used)
{
    const char *name = cmd_req_opt(run->req, "name");
    *used = NULL;
    if (name != NULL)
        return name;
    enum bot_err e = store_sheet_use_get(run->ctx->store, run->req->guild_id,
                                         run->req->user_id, used);
    if (e == BOT_OK)
        return *used;
    if (e == BOT_NOTFOUND)
        cmd_fail(run, i18n_get(run->req->lang, "name the character with "
                               "name: (you use none in this server: "
                               "/character use)"));
    else
        store_trouble(run);
    return NULL;
}

/* The reply: a first line, then the sheet. */

/* Encode sh and keep it under k (create: a new row). */
static bool save(struct cmd_run *run, const struct store_sheet_key *k,
                 const struct rs_system *sys, const struct sheet *sh,
                 bool create)
{
    char *doc = sheet_json_dump(sh);
    enum bot_err e = BOT_NOMEM;
    if (doc != NULL && create) {
        struct store_sheet row = {.kind = k->kind, .guild = k->guild,
                                  .owner = k->owner, .name = (char *)k->name,
                                  .system = (char *)sys->id, .doc = doc};
        e = store_sheet_create(run->ctx->store, &row, run->req->now_ms);
    } else if (doc != NULL) {
        /* A player's own change: the fight's write-back can no longer be
         * put back over it. */
        e = store_sheet_update(run->ctx->store, k, doc, NULL, NULL,
                               run->req->now_ms);
    }
    free(doc);
    if (e == BOT_CONFLICT) {
        char *shown = msg_escape(k->name);
        cmd_fail(run, i18n_get(run->req->lang, "you already have a "
                               "character named %s in this server"),
                 shown ? shown : "so");
        free(shown);
    } else if (e != BOT_OK) {
        store_trouble(run);
    }
    return e == BOT_OK;
}

static bool quota_ok(struct cmd_run *run, const struct store_sheet_key *k)
{
    int64_t max = run->ctx->max_chars > 0 ? run->ctx->max_chars
                                          : CMD_MAX_CHARS_PER_USER;
    int64_t n = 0;
    if (store_sheet_count(run->ctx->store, k, &n) != BOT_OK) {
        store_trouble(run);
        return false;
    }
    if (n >= max) {
        cmd_fail(run, i18n_nget(run->req->lang,
                                "you have %lld character in this server, "
                                "the most one player may keep; delete one "
                                "first with /character delete",
                                "you have %lld characters in this server, "
                                "the most one player may keep; delete one "
                                "first with /character delete",
                                (unsigned long)n),
                 (long long)n);
        return false;
    }
    return true;
}

static void create(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "name");
    if (!cmd_sheet_name_ok(run, name, "a character's name"))
        return;
    const struct rs_system *sys = cmd_config_default_system(run, "character");
    if (sys == NULL)
        return;
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_CHAR, name);
    struct sheet sh;
    bool changed = false;
    sheet_init(&sh, sys);
    if (!quota_ok(run, &k) || !cmd_sheet_edit(run, sys, &sh, &changed))
        return;
    if (sheet_check(sys, rs_data_get(run->ctx->rs_data, sys), &sh,
                    &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if (!save(run, &k, sys, &sh, true))
        return;
    /* The first one is the one used, so a bare /combat join brings it. */
    char *used = NULL;
    enum bot_err e = store_sheet_use_get(run->ctx->store, k.guild, k.owner,
                                         &used);
    free(used);
    if (e == BOT_NOTFOUND)
        e = store_sheet_use_set(run->ctx->store, k.guild, k.owner, name);
    if (e != BOT_OK) {
        store_trouble(run);
        return;
    }
    cmd_sheet_reply(run, i18n_get(run->req->lang, "Saved."), name, &sh);
}

void cmd_character_create(struct cmd_run *run)
{
    if (begin(run)) {
        create(run);
        end(run);
    }
}

/* The sender's character named name: (or the one they use) into *row
 * and *sh, with its key in *k (named as stored) and its system; NULL
 * (the command failed) when there is none, or its system is gone. *used
 * is the caller's to free, *row to clean up, either way. */
static const struct rs_system *load_own(struct cmd_run *run, char **used,
                                        struct store_sheet_key *k,
                                        struct store_sheet *row,
                                        struct sheet *sh)
{
    const char *name = name_or_used(run, used);
    if (name == NULL)
        return NULL;
    *k = cmd_sheet_key(run, STORE_SHEET_CHAR, name);
    if (!cmd_sheet_load(run, k, row, sh))
        return NULL;
    k->name = row->name;
    const struct rs_system *sys = rs_find(row->system);
    if (sys == NULL)
        cmd_fail(run, i18n_get(run->req->lang, "this fray has no %s system "
                               "any more"), row->system);
    return sys;
}

static void set(struct cmd_run *run)
{
    char *used = NULL;
    struct store_sheet row = {0};
    struct store_sheet_key k;
    struct sheet sh;
    bool changed = false;
    const struct rs_system *sys = load_own(run, &used, &k, &row, &sh);
    if (sys == NULL)
        goto out;
    if (!cmd_sheet_edit(run, sys, &sh, &changed))
        goto out;
    if (!changed) {
        cmd_fail(run, i18n_get(run->req->lang, "nothing to change: give "
                               "stats:, hp:, init:, note:, or attack: (with "
                               "roll:, damage:, options: or remove:true)"));
        goto out;
    }
    if (save(run, &k, sys, &sh, false))
        cmd_sheet_reply(run, i18n_get(run->req->lang, "Saved."), row.name,
                        &sh);
out:
    store_sheet_cleanup(&row);
    free(used);
}

void cmd_character_set(struct cmd_run *run)
{
    if (begin(run)) {
        set(run);
        end(run);
    }
}

/* A rest, as the character's system has one: what lasts until it rests
 * comes back (rs_system.lasts RS_LAST_REST, RS_COND_REST conditions). */
static void rest(struct cmd_run *run)
{
    char *used = NULL;
    struct store_sheet row = {0};
    struct store_sheet_key k;
    struct sheet sh;
    enum i18n_lang lang = run->req->lang;
    struct sbuf what, first;
    sbuf_init(&what, MSG_MAX_TEXT);
    sbuf_init(&first, MSG_MAX_TEXT);
    const struct rs_system *sys = load_own(run, &used, &k, &row, &sh);
    if (sys == NULL)
        goto out;
    const void *data = rs_data_get(run->ctx->rs_data, sys);
    if (!sheet_has_rest(sys, data)) {
        cmd_fail(run, i18n_get(lang, "the %s rules have no rest that gives "
                               "anything back; heal with /character set "
                               "hp:"), sys->title);
        goto out;
    }
    if (sheet_rest(sys, data, &sh, &what) == 0) {
        char *shown = msg_escape(row.name);
        msg_set_content(&run->reply->msg,
                        i18n_get(lang, "%s is rested already: nothing to "
                                 "give back."),
                        shown != NULL ? shown : "");
        free(shown);
        goto out;
    }
    /* what the rest gave back is the system's words (sheet_rest()) */
    sbuf_addf(&first, i18n_get(lang, "Rested: %s."), sbuf_str(&what));
    if (save(run, &k, sys, &sh, false))
        cmd_sheet_reply(run, sbuf_str(&first), row.name, &sh);
out:
    sbuf_cleanup(&first);
    sbuf_cleanup(&what);
    store_sheet_cleanup(&row);
    free(used);
}

void cmd_character_rest(struct cmd_run *run)
{
    if (begin(run)) {
        rest(run);
        end(run);
    }
}

void cmd_character_show(struct cmd_run *run)
{
    char *used = NULL;
    const char *name = name_or_used(run, &used);
    struct store_sheet row = {0};
    struct sheet sh;
    if (name != NULL) {
        struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_CHAR, name);
        if (cmd_sheet_load(run, &k, &row, &sh))
            cmd_sheet_reply(run,
                            row.used ? i18n_get(run->req->lang,
                                                "(the character you use)")
                                     : NULL,
                            row.name, &sh);
    }
    store_sheet_cleanup(&row);
    free(used);
}

struct list_ctx {
    struct sbuf *b;
    enum i18n_lang lang;
};

static enum bot_err list_one(void *ctx, const struct store_sheet *sh)
{
    struct list_ctx *c = ctx;
    char *shown = msg_escape(sh->name);
    sbuf_add(c->b, "\n- ");
    if (sh->used)
        sbuf_addf(c->b, i18n_get(c->lang, "**%s** (%s): the one you use"),
                  shown ? shown : "?", sh->system);
    else
        sbuf_addf(c->b, "**%s** (%s)", shown ? shown : "?", sh->system);
    free(shown);
    return BOT_OK;
}

void cmd_character_list(struct cmd_run *run)
{
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_CHAR, "");
    enum i18n_lang lang = run->req->lang;
    struct sbuf b;
    struct list_ctx c = {.b = &b, .lang = lang};
    size_t total = 0;
    sbuf_init(&b, MSG_MAX_TEXT);
    if (store_sheet_list(run->ctx->store, &k, CHAR_LIST_MAX, &total,
                         list_one, &c) != BOT_OK) {
        store_trouble(run);
    } else if (total == 0) {
        msg_set_content(&run->reply->msg, "%s",
                        i18n_get(lang, "Your characters in this server: "
                                 "none yet. Make one with `/character "
                                 "create name:Aria system:generic "
                                 "hp:24`."));
        run->reply->ephemeral = true;
    } else {
        if (total > CHAR_LIST_MAX) {
            sbuf_add(&b, "\n");
            sbuf_addf(&b, i18n_get(lang, "(%zu more; /character show "
                                   "name: finds any of them)"),
                      total - CHAR_LIST_MAX);
        }
        msg_set_content(&run->reply->msg, "%s%s",
                        i18n_get(lang, "Your characters in this server:"),
                        sbuf_str(&b));
        run->reply->ephemeral = true;
    }
    sbuf_cleanup(&b);
}

/* Whether a write to the sender's character (shown: its escaped name)
 * went through; fails the command saying why not. */
static bool written(struct cmd_run *run, enum bot_err e, const char *shown)
{
    if (e == BOT_NOTFOUND)
        cmd_fail(run, i18n_get(run->req->lang, "you have no character "
                               "named %s in this server"),
                 shown ? shown : "that");
    else if (e != BOT_OK)
        store_trouble(run);
    return e == BOT_OK;
}

void cmd_character_delete(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "name");
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_CHAR, name);
    char *shown = msg_escape(name);
    if (written(run, store_sheet_delete(run->ctx->store, &k), shown)) {
        /* A fight holds its own copy: the one running goes on as it is. */
        msg_set_content(&run->reply->msg,
                        i18n_get(run->req->lang, "Deleted %s. A fight it "
                                 "has joined keeps its copy."),
                        shown ? shown : "it");
        run->reply->ephemeral = true;
    }
    free(shown);
}

void cmd_character_use(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "name");
    char *shown = msg_escape(name);
    if (written(run, store_sheet_use_set(run->ctx->store, run->req->guild_id,
                                         run->req->user_id, name),
                shown)) {
        msg_set_content(&run->reply->msg,
                        i18n_get(run->req->lang, "You now use %s: `/combat "
                                 "join` without name: or character: brings "
                                 "it."),
                        shown ? shown : "it");
        run->reply->ephemeral = true;
    }
    free(shown);
}
