/*
 * cmd_npc.c - /npc: a server's NPC templates, and who may manage them.
 *
 * A template is a sheet (sheet_json.h) kept per server under its name;
 * /combat add template: adds NPCs from a copy of it. Templates are the
 * GMs' tools: managing them (create, save, show, list, delete) takes
 * Administrator or Manage Server, or the role the server's managers chose
 * with /config npc-role:. Saving one from a fight's combatant
 * (/npc save from:) also takes being that fight's GM, who alone may see a
 * hidden combatant's numbers. Every reply is private.
 *
 * Like /character, these change no fight and open their own transaction.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_sheet.h"
#include "enc_json.h"
#include "msg.h"
#include "rs_data.h"
#include "rs_kit.h"

#define NPC_LIST_MAX STORE_MAX_SHEET_LIST

bool cmd_sender_manages_npcs(struct store *store, const struct cmd_req *req)
{
    if (cmd_sender_manages_server(req))
        return true;
    uint64_t role = cmd_config_npc_role(store, req->guild_id);
    for (int i = 0; role != 0 && i < req->nroles; i++)
        if (req->roles[i] == role)
            return true;
    return false;
}

bool cmd_sender_reads_npcs(struct store *store, const struct cmd_req *req)
{
    /* A template holds the GM's note and an NPC's numbers: reading it is
     * managing's, and a fight's GM is no manager as such. */
    return cmd_sender_manages_npcs(store, req);
}

static bool may_manage(struct cmd_run *run)
{
    if (cmd_sender_manages_npcs(run->ctx->store, run->req))
        return true;
    cmd_fail(run, i18n_get(run->req->lang, "NPC templates are managed by "
                           "members with Manage Server or Administrator, or "
                           "the role set with /config npc-role:"));
    return false;
}

static void store_trouble(struct cmd_run *run)
{
    cmd_fail(run, i18n_get(run->req->lang, "the NPC templates could not be "
                           "read or written; nothing was changed, try "
                           "again"));
}


/* Check sh, count the quota and keep it as template name. */
static void create_checked(struct cmd_run *run, const char *name,
                           const struct rs_system *sys, const struct sheet *sh)
{
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_NPC, name);
    int64_t max = run->ctx->max_templates > 0 ? run->ctx->max_templates
                                              : CMD_MAX_TEMPLATES_PER_SERVER;
    int64_t n = 0;
    if (sheet_check(sys, rs_data_get(run->ctx->rs_data, sys), sh,
                    &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    if (store_begin(run->ctx->store) != BOT_OK) {
        store_trouble(run);
        return;
    }
    enum bot_err e = store_sheet_count(run->ctx->store, &k, &n);
    bool full = e == BOT_OK && n >= max;
    char *doc = e == BOT_OK && !full ? sheet_json_dump(sh) : NULL;
    if (doc != NULL) {
        struct store_sheet row = {.kind = STORE_SHEET_NPC, .guild = k.guild,
                                  .name = (char *)name,
                                  .system = (char *)sys->id, .doc = doc};
        e = store_sheet_create(run->ctx->store, &row, run->req->now_ms);
    } else if (e == BOT_OK && !full) {
        e = BOT_NOMEM;
    }
    free(doc);
    char *shown = msg_escape(name);
    if (full)
        cmd_fail(run, i18n_nget(run->req->lang,
                                "this server has %lld NPC template, the "
                                "most it may keep; delete one first with "
                                "/npc delete",
                                "this server has %lld NPC templates, the "
                                "most it may keep; delete one first with "
                                "/npc delete",
                                (unsigned long)n),
                 (long long)n);
    else if (e == BOT_CONFLICT)
        cmd_fail(run, i18n_get(run->req->lang, "this server has a template "
                               "named %s already; /npc delete it first"),
                 shown ? shown : "so");
    else if (e != BOT_OK)
        store_trouble(run);
    if (run->failed || store_commit(run->ctx->store) != BOT_OK) {
        store_rollback(run->ctx->store);
        if (!run->failed)
            store_trouble(run);
    } else {
        cmd_sheet_reply(run, i18n_get(run->req->lang, "Saved."), name, sh);
    }
    free(shown);
}

void cmd_npc_create(struct cmd_run *run)
{
    const char *name = cmd_req_opt(run->req, "name");
    struct sheet sh;
    bool changed = false;
    if (!may_manage(run) || !cmd_sheet_name_ok(run, name, "a template's name"))
        return;
    const struct rs_system *sys = cmd_config_default_system(run, "template");
    if (sys == NULL)
        return;
    sheet_init(&sh, sys);
    if (cmd_sheet_edit(run, sys, &sh, &changed))
        create_checked(run, name, sys, &sh);
}

/* The sheet a combatant would be saved as: its stats and its declared
 * tracks at full (a template starts fresh), initiative, attacks, note. */
static void sheet_of(const struct rs_system *sys,
                     const struct enc_combatant *c, struct sheet *sh)
{
    sheet_init(sh, sys);
    for (int i = 0; i < c->nstats; i++) {
        enc_copy(sh->stats[i].name, sizeof sh->stats[i].name,
                 c->stats[i].name);
        sh->stats[i].value = c->stats[i].value;
    }
    sh->nstats = c->nstats;
    for (int i = 0; i < c->ntracks; i++) {
        const struct enc_track *t = &c->tracks[i];
        if (rs_stat_kind(sys, t->name) != RS_TRACK)
            continue;
        struct enc_track *x = &sh->tracks[sh->ntracks++];
        *x = *t;
        x->cur = t->max > 0 ? t->max : t->cur;
    }
    enc_copy(sh->init, sizeof sh->init, c->init_expr);
    memcpy(sh->attacks, c->attacks, (size_t)c->nattacks * sizeof c->attacks[0]);
    sh->nattacks = c->nattacks;
    enc_copy(sh->note, sizeof sh->note, c->note);
}

void cmd_npc_save(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    if (!may_manage(run) ||
        !cmd_sheet_name_ok(run, cmd_req_opt(req, "name"), "a template's name"))
        return;
    char *doc = NULL, why[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    if (store_enc_load(run->ctx->store, req->channel_id, &doc, &version) !=
            BOT_OK ||
        enc_json_load(doc, &e, why, sizeof why) != BOT_OK) {
        free(doc);
        cmd_fail(run, i18n_get(run->req->lang, "there is no fight in this "
                               "channel to save an NPC from; /npc create "
                               "makes a template from its options"));
        return;
    }
    free(doc);
    const struct rs_system *sys = rs_find(e->ruleset);
    struct enc_combatant *c = enc_by_name(e, cmd_req_opt(req, "from"));
    struct sheet sh;
    if (!cmd_sender_is_gm(req, e))
        cmd_fail(run, i18n_get(run->req->lang, "only this fight's GM may save "
                               "its combatants as templates"));
    else if (c == NULL || sys == NULL)
        cmd_fail(run, i18n_get(run->req->lang, "this fight has no combatant "
                               "by that name"));
    else {
        sheet_of(sys, c, &sh);
        create_checked(run, cmd_req_opt(req, "name"), sys, &sh);
    }
    enc_free(e);
}

void cmd_npc_show(struct cmd_run *run)
{
    struct store_sheet row = {0};
    struct sheet sh;
    struct store_sheet_key k =
        cmd_sheet_key(run, STORE_SHEET_NPC, cmd_req_opt(run->req, "name"));
    if (may_manage(run) && cmd_sheet_load(run, &k, &row, &sh))
        cmd_sheet_reply(run, i18n_get(run->req->lang, "NPC template:"),
                        row.name, &sh);
    store_sheet_cleanup(&row);
}

static enum bot_err list_one(void *ctx, const struct store_sheet *sh)
{
    struct sbuf *b = ctx;
    char *shown = msg_escape(sh->name);
    sbuf_addf(b, "\n- **%s** (%s)", shown ? shown : "?", sh->system);
    free(shown);
    return BOT_OK;
}

void cmd_npc_list(struct cmd_run *run)
{
    if (!may_manage(run))
        return;
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_NPC, "");
    enum i18n_lang lang = run->req->lang;
    struct sbuf b;
    size_t total = 0;
    sbuf_init(&b, MSG_MAX_TEXT);
    if (store_sheet_list(run->ctx->store, &k, NPC_LIST_MAX, &total, list_one,
                         &b) != BOT_OK) {
        store_trouble(run);
    } else if (total == 0) {
        msg_set_content(&run->reply->msg, "%s",
                        i18n_get(lang, "This server's NPC templates: none "
                                 "yet. `/npc create` makes one, `/npc "
                                 "save` keeps a fight's combatant as "
                                 "one."));
        run->reply->ephemeral = true;
    } else {
        if (total > NPC_LIST_MAX) {
            sbuf_add(&b, "\n");
            sbuf_addf(&b, i18n_get(lang, "(%zu more; /npc show name: finds "
                                   "any of them)"),
                      total - NPC_LIST_MAX);
        }
        msg_set_content(&run->reply->msg, "%s%s",
                        i18n_get(lang, "This server's NPC templates:"),
                        sbuf_str(&b));
        run->reply->ephemeral = true;
    }
    sbuf_cleanup(&b);
}

void cmd_npc_delete(struct cmd_run *run)
{
    if (!may_manage(run))
        return;
    const char *name = cmd_req_opt(run->req, "name");
    struct store_sheet_key k = cmd_sheet_key(run, STORE_SHEET_NPC, name);
    char *shown = msg_escape(name);
    enum bot_err e = store_sheet_delete(run->ctx->store, &k);
    if (e == BOT_NOTFOUND)
        cmd_fail(run, i18n_get(run->req->lang, "this server has no NPC "
                               "template named %s"),
                 shown ? shown : "that");
    else if (e != BOT_OK)
        store_trouble(run);
    else {
        msg_set_content(&run->reply->msg,
                        i18n_get(run->req->lang, "Deleted the template %s. "
                                 "NPCs added from it keep their copy."),
                        shown ? shown : "");
        run->reply->ephemeral = true;
    }
    free(shown);
}
