/*
 * cmd_run.c - what a command handler works with (cmd_run.h): the reply and
 * its errors, the options, the permission checks, showing the events and
 * finishing a change. cmd.c runs the pipeline around the handlers.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_tally.h"
#include "cmd_turn_button.h"
#include "cmd_validate.h"
#include "rs_kit.h"
#include "enc_cache.h"
#include "enc_json.h"
#include "custom_id.h"
#include "eng_alloc.h"
#include "eng_text.h"
#include "render_enc.h"
#include "rs_data.h"
#include "sbuf.h"
#include "store.h"

void cmd_reply_init(struct cmd_reply *r)
{
    memset(r, 0, sizeof *r);
    msg_init(&r->msg);
    r->version = -1;
}

static void msg_free(struct msg *m)
{
    if (m != NULL) {
        msg_cleanup(m);
        free(m);
    }
}

/* Forget what a change would have shown besides the reply itself. */
static void reply_drop_extras(struct cmd_reply *r)
{
    msg_free(r->gm_copy);
    r->gm_copy = NULL;
    msg_free(r->notice);
    r->notice = NULL;
    r->notice_channel = 0;
    msg_free(r->tracker);
    r->tracker = NULL;
    r->tracker_mode = CMD_TRACKER_NONE;
    free(r->file.name);
    free(r->file.data);
    r->file = (struct cmd_file){0};
}

void cmd_reply_cleanup(struct cmd_reply *r)
{
    msg_cleanup(&r->msg);
    reply_drop_extras(r);
    free(r->form);
    cmd_log_job_clear(&r->log_job);
    free(r->rollrec.json);
    cmd_reply_init(r);
}

int64_t cmd_reopen_ms(const struct cmd_ctx *ctx)
{
    return ctx->reopen_ms > 0 ? ctx->reopen_ms : CMD_REOPEN_MS;
}

bool cmd_live_quota_ok(struct cmd_run *run)
{
    const struct cmd_ctx *ctx = run->ctx;
    uint64_t guild = run->req->guild_id;
    int64_t max = ctx->max_live > 0 ? ctx->max_live : CMD_MAX_LIVE_PER_SERVER;
    int64_t live = 0, archived = 0;
    if (guild == 0)
        return true;
    if (store_guild_count(ctx->store, guild, &live, &archived) != BOT_OK) {
        cmd_fail(run, "%s", i18n_get(run->req->lang, "the fights of this "
                 "server could not be counted; nothing was changed, try "
                 "again"));
        return false;
    }
    if (live >= max) {
        cmd_fail(run, i18n_nget(run->req->lang, "this server has %lld fight "
                 "running (the limit is %lld); end one first with /combat "
                 "end", "this server has %lld fights running (the limit is "
                 "%lld); end one first with /combat end",
                 (unsigned long)live), (long long)live, (long long)max);
        return false;
    }
    return true;
}

const char *cmd_req_opt(const struct cmd_req *req, const char *name)
{
    for (int i = 0; i < req->nopts; i++)
        if (eng_text_casecmp(req->opts[i].name, name) == 0)
            return req->opts[i].value;
    return NULL;
}

/* ---- helpers for handlers ------------------------------------------------ */

/* Replace the reply with one error line (and an optional hint line). */
void cmd_reply_error(struct cmd_reply *reply, const char *text,
                     const char *hint)
{
    msg_cleanup(&reply->msg);
    reply_drop_extras(reply);
    if (hint != NULL && hint[0] != '\0')
        msg_set_content(&reply->msg, i18n_get(reply->lang, "%s\nTry: `%s`"),
                        text, hint);
    else
        msg_set_content(&reply->msg, "%s", text);
    reply->ephemeral = true;
    reply->is_error = true;
    reply->changed = false;
}

void cmd_fail(struct cmd_run *run, const char *fmt, ...)
{
    /* Sized to the message: no refusal is ever cut short. */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text != NULL) {
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    cmd_reply_error(run->reply, text != NULL ? text
                    : i18n_get(run->req->lang, CMD_NOMEM_TEXT), NULL);
    free(text);
    run->failed = true;
}

void cmd_fail_diag(struct cmd_run *run, const struct enc_diag *d)
{
    bool cut = d->cut;
    if (d->code == ENG_NOMEM)   /* the engine's words name no outcome */
        cmd_reply_error(run->reply, i18n_get(run->req->lang, CMD_NOMEM_TEXT),
                        NULL);
    else
        cmd_reply_error(run->reply, d->msg, d->hint);
    run->reply->cut |= cut;
    run->failed = true;
}

/* The engine's refusals in the reader's language: a refusal is the
 * sender's alone (enc_diag.tr). */
__attribute__((format_arg(2)))
static const char *diag_tr(const void *ctx, const char *fmt)
{
    const struct cmd_run *run = ctx;
    return i18n_get(run->req->lang, fmt);
}

void cmd_diag_lang(struct cmd_run *run)
{
    run->diag.tr = diag_tr;
    run->diag.tr_ctx = run;
}

void cmd_rs_call(struct cmd_run *run, struct rs_call *c, struct rs_opt *opts)
{
    const struct cmd_req *req = run->req;
    for (int i = 0; i < req->nopts; i++) {
        opts[i].name = req->opts[i].name;
        opts[i].value = req->opts[i].value;
    }
    memset(&run->diag, 0, sizeof run->diag);
    cmd_diag_lang(run);
    *c = (struct rs_call){
        .e = run->enc,
        .rng = run->ctx->rng,
        .r = run->res,
        .d = &run->diag,
        .user = req->user_id,
        .is_gm = run->is_gm,
        .opts = opts,
        .nopts = req->nopts,
        .args = run->ext,
        .nargs = run->next,
        .data = rs_data_get(run->ctx->rs_data, run->rs),
    };
}

static struct enc_combatant *find_combatant(struct cmd_run *run,
                                           const char *opt,
                                           enum rs_who_as as)
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    struct enc_combatant *who = NULL;
    if (rs_opt_combatant(&c, opt, as, &who) != ENG_OK) {
        if (run->diag.hint[0] == '\0')
            enc_hint(&run->diag, "/combat status");
        cmd_fail_diag(run, &run->diag);
        return NULL;
    }
    return who;
}

struct enc_combatant *cmd_combatant(struct cmd_run *run, const char *opt)
{
    return find_combatant(run, opt, RS_WHO_ACT);
}

struct enc_combatant *cmd_target(struct cmd_run *run, const char *opt)
{
    return find_combatant(run, opt, RS_WHO_TARGET);
}

bool cmd_may_act(struct cmd_run *run, const struct enc_combatant *who)
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_require_actor(&c, who) == ENG_OK)
        return true;
    cmd_fail_diag(run, &run->diag);
    return false;
}

bool cmd_opt_int(struct cmd_run *run, const char *name, int64_t dflt,
                 int64_t *out)
{
    const char *v = cmd_req_opt(run->req, name);
    if (v == NULL) {
        *out = dflt;
        return true;
    }
    if (!eng_text_to_int(v, out)) {
        cmd_fail(run, i18n_get(run->req->lang, "%s: must be a whole number"),
                 name);
        return false;
    }
    return true;
}

bool cmd_opt_bool(struct cmd_run *run, const char *name, bool dflt,
                  bool *out)
{
    const char *v = cmd_req_opt(run->req, name);
    if (v == NULL) {
        *out = dflt;
        return true;
    }
    if (!eng_text_to_bool(v, out)) {
        cmd_fail(run, i18n_get(run->req->lang, "%s: must be true or false"),
                 name);
        return false;
    }
    return true;
}

/* Choices a ruleset put to a player become buttons that run the answering
 * command for that combatant, drawn for the version being saved. */
static void add_prompts(struct cmd_run *run)
{
    const struct encounter *e = run->enc;
    for (int i = 0; i < run->res->nev; i++) {
        const struct enc_event *ev = &run->res->ev[i];
        if (ev->kind != ENC_EV_PROMPT || run->rs == NULL ||
            ev->a < 0 || ev->a >= run->rs->nprompts)
            continue;
        const struct enc_combatant *c = enc_by_id_c(e, ev->who);
        /* A question put to a hidden combatant is the GM's, who answers
         * it with the command: buttons in the public reply would show the
         * table that it was asked, and their ids carry its name. */
        if (c == NULL || c->hidden)
            continue;
        const struct rs_prompt *p = &run->rs->prompts[ev->a];
        for (int k = 0; k < RS_PROMPT_CHOICES && p->choice[k].label; k++) {
            const struct rs_prompt_choice *ch = &p->choice[k];
            char id[CUSTOM_ID_MAX + 1];
            /* The label is the ruleset's word, in the table's language. */
            if (custom_id_make(id, sizeof id, ch->command, NULL,
                                           e->fight_id, e->version,
                                           ch->opt ? ch->opt : "name",
                                           ch->opt ? ch->value : c->name))
                msg_add_button(&run->reply->msg,
                               i18n_get(cmd_public_lang(run), ch->label), id,
                               k == 0 ? MSG_BTN_PRIMARY
                                      : MSG_BTN_SECONDARY);
        }
        if (c->owner != 0 && run->req->source == CMD_SRC_DISCORD &&
            run->reply->msg.content == NULL &&
            msg_add_mention(&run->reply->msg, c->owner))
            msg_set_content(&run->reply->msg, "<@%" PRIu64 ">, this is "
                            "your call:", c->owner);
    }
}

/* The reply's events: the public view, and the GM's copy when hidden
 * numbers were left out of it. When the table sees nothing of what
 * happened (a hidden NPC arrived, a hidden NPC's test) and the sender is
 * the GM, the GM's view is the reply, private. */
/* A copy of the events text render_events() put last into m, into *to
 * (run->detail: the public text, which also forgets an older GM text;
 * run->gm_detail: the GM's). Without memory, record_detail() renders
 * them again. */
static void keep_detail(struct cmd_run *run, char **to, const struct msg *m)
{
    const char *d = m->nembeds > 0 ? m->embeds[m->nembeds - 1].description
                                   : NULL;
    free(*to);
    *to = strdup(d != NULL ? d : "");
    if (to == &run->detail) {
        free(run->gm_detail);
        run->gm_detail = NULL;
        run->detail_kept = *to != NULL;
    } else if (*to == NULL) {
        run->detail_kept = false;
    }
}

static void reply_events(struct cmd_run *run, const char *title)
{
    struct cmd_reply *reply = run->reply;
    const struct encounter *e = run->enc;
    /* The console is the GM's own screen; in a channel everyone reads the
     * reply, so hidden numbers go only to the GM's copy. */
    bool public_gm = run->req->source == CMD_SRC_CONSOLE && run->is_gm;
    msg_cleanup(&reply->msg);
    reply->cut |= run->res->truncated;
    enum i18n_lang lang = cmd_public_lang(run);
    bool secret = render_events_at(&reply->msg, e, run->res, public_gm, title,
                                   &run->first, lang);
    /* The history keeps what was shown (record_detail): the public text
     * is this one unless the console's GM saw hidden numbers in it (with
     * nothing secret the two views are the same). */
    run->first_ok = false;
    if (!public_gm || !secret)
        keep_detail(run, &run->detail, &reply->msg);
    run->first_ok = !secret && run->detail_kept;
    if (!secret || public_gm)
        return;
    bool nothing = reply->msg.nembeds > 0 &&
                   reply->msg.embeds[reply->msg.nembeds - 1].description ==
                       NULL;
    if (nothing && run->is_gm) {
        msg_cleanup(&reply->msg);
        render_events(&reply->msg, e, run->res, true, title,
                      run->req->lang);
        reply->ephemeral = true;
        keep_detail(run, &run->gm_detail, &reply->msg);
        return;
    }
    struct msg *copy = malloc(sizeof *copy);
    if (copy != NULL) {
        msg_init(copy);
        render_events(copy, e, run->res, true, title, lang);
        reply->gm_copy = copy;
        keep_detail(run, &run->gm_detail, copy);
    } else {
        run->detail_kept = false;    /* record_detail renders it */
    }
}

void cmd_show(struct cmd_run *run, const char *title)
{
    reply_events(run, title);
}

/* Whether the running wait is for the sender: their combatant's turn, a
 * pick of a side they have a combatant on, or, for the GM, an NPC's. */
static bool waits_for_sender(const struct cmd_run *run)
{
    const struct encounter *e = run->enc;
    uint64_t user = run->req->user_id;
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    if (cur != NULL)
        return cur->owner != 0 ? cur->owner == user : run->is_gm;
    for (int i = 0; i < e->ncs && e->acting_side >= 0; i++)
        if (e->cs[i].side == e->acting_side &&
            (e->cs[i].owner != 0 ? e->cs[i].owner == user : run->is_gm))
            return true;
    return false;
}

/* The turn clock follows the fight: when it waits for something new the
 * count starts again; the owner's own action in the wait stops its
 * reminder ("reminders stop as soon as the owner acts at all"). Setting
 * the clock is not acting. */
static void clock_mark(struct cmd_run *run)
{
    struct encounter *e = run->enc;
    struct enc_wait w;
    if (e->status != ENC_ST_RUNNING)
        return;
    enc_wait_of(e, &w);
    bool moved = run->loaded == 0 || !enc_wait_eq(&run->wait0, &w) ||
                 e->clock.wait_ms == 0;
    bool acted = !moved && !(run->spec->flags & CMD_F_NOT_ACTING) &&
                 waits_for_sender(run);
    /* How long the turn waited for its owner, for the fight's numbers;
     * an undo's restored state carries its own. */
    if (run->loaded != 0 && !run->is_undo && (moved || acted))
        cmd_tally_wait(e, &run->wait0, run->req->now_ms);
    if (moved)
        enc_clock_restart(e, run->req->now_ms);
    else if (acted)
        enc_clock_acted(e, run->req->now_ms);
}

bool cmd_turn_notice(struct cmd_reply *reply, const struct encounter *e,
                     const struct rs_system *rs, const struct enc_result *res,
                     enum cmd_source src, struct sbuf *line,
                     enum i18n_lang lang)
{
    for (int i = res->nev - 1; i >= 0; i--) {
        if (res->ev[i].kind != ENC_EV_TURN)
            continue;
        const struct enc_combatant *c = enc_by_id_c(e, res->ev[i].who);
        if (c == NULL || c->owner == 0 || !e->notices || c->id != e->current)
            return false;
        reply->turn_user = c->owner;
        if (src != CMD_SRC_DISCORD || !msg_add_mention(&reply->msg, c->owner))
            return false;
        /* Where they stand, so the player need not open the tracker. */
        struct sbuf st;
        sbuf_init(&st, SIZE_MAX / 2);
        render_combatant(&st, e, c, lang);
        char who[8 + ENG_TEXT_I64_MAX];
        snprintf(who, sizeof who, "<@%" PRIu64 ">", c->owner);
        if (sbuf_str(&st)[0] != '\0')
            sbuf_addf(line, i18n_get(lang, "%s, it is your turn: %s"), who,
                      sbuf_str(&st));
        else
            sbuf_addf(line, i18n_get(lang, "%s, it is your turn."), who);
        sbuf_cleanup(&st);
        /* Discord draws it as V2, the Attack button beside the notice
         * (render_notice.h) */
        int nb = reply->msg.nbuttons;
        cmd_turn_attack_button(&reply->msg, e, rs, c, lang);
        reply->msg.notice = true;
        reply->msg.notice_lang = lang;
        reply->msg.notice_button = reply->msg.nbuttons > nb ? nb : -1;
        return true;
    }
    return false;
}

void cmd_finish(struct cmd_run *run, const char *title, bool show_tracker)
{
    if (run->propose_for != 0) {
        /* The change holds: it goes to the GM, and the copy it was tried
         * on is not saved. */
        const struct enc_combatant *who = enc_by_id_c(run->enc,
                                                      run->propose_for);
        enc_result_reset(run->res);
        if (who != NULL)
            cmd_propose(run, who);
        else
            cmd_fail(run, "%s", i18n_get(run->req->lang, "that combatant is "
                     "no longer in the fight"));
        return;
    }
    /* The restored state of an undo carries its own numbers. */
    if (!run->is_undo)
        cmd_tally_add(run->enc, run->res);
    clock_mark(run);
    struct cmd_reply *reply = run->reply;
    const struct encounter *e = run->enc;
    bool public_gm = run->req->source == CMD_SRC_CONSOLE && run->is_gm;
    run->changed = true;
    /* The reply shows the version this change will be saved as. */
    run->enc->version = run->loaded + 1;
    reply_events(run, title);
    /* In Discord the fight's live tracker message shows the state (and
     * is edited after this change); a copy in every reply would only
     * leave stale trackers up the channel. */
    if (show_tracker && run->req->source != CMD_SRC_DISCORD)
        render_tracker_at(&reply->msg, e, public_gm || reply->ephemeral,
                          run->req->now_ms,
                          reply->ephemeral ? run->req->lang
                                           : cmd_public_lang(run));
    add_prompts(run);
    /* A turn that started in this command: tell its player. */
    struct sbuf line;
    /* The table's language, read once and only where Discord shows it. */
    enum i18n_lang pub = run->req->source == CMD_SRC_DISCORD
                             ? cmd_public_lang(run) : run->req->lang;
    sbuf_init(&line, SIZE_MAX / 2);
    if (cmd_turn_notice(reply, e, run->rs, run->res, run->req->source,
                        &line, pub))
        msg_set_content(&reply->msg, "%s", sbuf_str(&line));
    sbuf_cleanup(&line);
    /* Discord keeps one live tracker message per fight. */
    if (run->req->source == CMD_SRC_DISCORD) {
        reply->tracker = cmd_tracker_msg(e, run->rs, run->req->now_ms, pub);
        reply->tracker_mode = e->status == ENC_ST_SETUP ? CMD_TRACKER_EDIT
                              : e->status == ENC_ST_ENDED ? CMD_TRACKER_FINAL
                                                          : CMD_TRACKER_POST;
    }
}

/* ---- the pipeline -------------------------------------------------------- */

bool cmd_sender_is_gm(const struct cmd_req *req, const struct encounter *e)
{
    if (req->force_gm)
        return true;
    if (req->perms_known &&
        (req->perms & (CMD_PERM_ADMINISTRATOR | CMD_PERM_MANAGE_CHANNELS)))
        return true;
    return e != NULL && e->gm == req->user_id;
}

bool cmd_sender_manages_server(const struct cmd_req *req)
{
    if (req->force_gm)
        return true;
    return req->perms_known &&
           (req->perms & (CMD_PERM_ADMINISTRATOR | CMD_PERM_MANAGE_GUILD));
}
