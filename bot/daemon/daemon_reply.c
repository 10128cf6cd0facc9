/*
 * daemon_reply.c - answering interactions in `fray run`: the group that
 * commits together (daemon.h, "Group commit") and its replies, deferrals,
 * the callback and its follow-ups, autocomplete, the GM's copy.
 * daemon_ix.c takes interactions in and queues them here.
 */
#include "daemon_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_rollq.h"
#include "cmd_rollrec.h"
#include "cmd_table.h"
#include "enc_cache.h"
#include "eng_text.h"
#include "fthread.h"
#include "gw.h"
#include "interaction.h"
#include "limit.h"
#include "multipart.h"
#include "render_discord.h"
#include "render_modal.h"
#include "cmd_form.h"
#include "store.h"
#include "tracker.h"
#include "web.h"

void daemon_cmd_ctx(struct daemon *d, struct cmd_ctx *ctx)
{
    *ctx = (struct cmd_ctx){.store = d->store,
                            .rng = &d->rng,
                            .rs_data = &d->rules,
                            .cache = d->cache,
                            .reopen_ms = d->cfg->reopen_minutes * 60000,
                            .max_live = d->cfg->max_live_per_server,
                            .max_macros_server = d->cfg->max_macros_per_server,
                            .max_macros_user = d->cfg->max_macros_per_user,
                            .max_chars = d->cfg->max_characters_per_user,
                            .max_templates = d->cfg->max_templates_per_server,
                            .shown_in = fthread_of,
                            .log_cache = d->log_cache,
                            .log_later = d->logw != NULL,
                            .web_url = d->web != NULL
                                           ? d->cfg->web_public_url
                                           : NULL,
                            .rollq = d->rollq,
                            .result = d->result};
}

static void pending_free(struct pending_reply *p)
{
    for (int i = 0; i < p->nnext; i++)
        free(p->next[i].body);
    free(p->next);
    free(p);
}

void daemon_on_follow_done(void *ud, const struct rest_result *res)
{
    struct daemon *d = ud;
    if (res->err != BOT_OK || res->status < 200 || res->status >= 300)
        log_msg(d->log, LOG_LVL_WARN,
                "interaction webhook request failed: status %d code %d",
                res->status, res->discord_code);
}

/* Send follow-on f to the webhook. */
static void follow_submit(struct daemon *d, const struct follow_on *f)
{
    if (f->body != NULL)
        rest_submit_body(d->rest, f->method, f->path, f->body, f->len,
                         f->ctype, daemon_on_follow_done, d);
    else
        rest_submit(d->rest, f->method, f->path, NULL, daemon_on_follow_done,
                    d);
}

static void on_callback_done(void *ud, const struct rest_result *res)
{
    struct pending_reply *p = ud;
    struct daemon *d = p->d;
    int64_t ms = daemon_now_ms() - p->t0_ms;
    bool ok = res->err == BOT_OK && res->status >= 200 && res->status < 300;

    if (ok) {
        d->answered++;
        metrics_interaction(&d->metrics, p->command,
                            p->limited   ? METRICS_LIMITED
                            : p->refused ? METRICS_REFUSED
                                         : METRICS_OK,
                            res->done_us - p->rx_us);
        log_msg(d->log, LOG_LVL_INFO,
                "interaction %s /%s answered in %lld ms", p->id, p->command,
                (long long)ms);
    } else if (res->discord_code == 40060) {
        metrics_interaction(&d->metrics, p->command, METRICS_REPLAYED,
                            res->done_us - p->rx_us);
        log_msg(d->log, LOG_LVL_INFO,
                "interaction %s was already answered (replay)", p->id);
    } else {
        metrics_interaction(&d->metrics, p->command, METRICS_FAILED, 0);
        log_msg(d->log, LOG_LVL_WARN,
                "interaction %s /%s: callback failed: status %d code %d (%s)",
                p->id, p->command, res->status, res->discord_code,
                bot_errname(res->err));
    }
    /* The webhook accepts requests only after the callback was. */
    for (int i = 0; ok && i < p->nnext; i++)
        follow_submit(d, &p->next[i]);
    if (p->ack.fn != NULL)
        p->ack.fn(p->ack.ud, ok);
    pending_free(p);
}

bool daemon_body_file(const char *text, size_t len, bool is_callback,
                              const struct cmd_file *file, char **data,
                              size_t *dlen, char *ctype)
{
    struct mp_file f = {file->name, "text/markdown; charset=utf-8", file->data,
                        file->len};
    json_t *body = json_loadb(text, len, 0, NULL);
    json_t *message = is_callback ? json_object_get(body, "data") : body;
    char *json = NULL;
    struct mp_body mp;
    bool ok = false;

    if (message != NULL && mp_declare(message, &f, 1) &&
        (json = json_dumps(body, JSON_COMPACT)) != NULL &&
        mp_build(json, &f, 1, &mp) == BOT_OK) {
        *data = mp.data;
        *dlen = mp.len;
        snprintf(ctype, REST_MAX_CTYPE, "%s", mp.content_type);
        ok = true;
    }
    free(json);
    json_decref(body);
    return ok;
}

static bool has_file(const struct cmd_file *file)
{
    return file != NULL && file->data != NULL;
}

static struct pending_reply *pending_new(struct daemon *d,
                                         const struct interaction *it,
                                         int64_t rx_us, const char *command)
{
    struct pending_reply *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->d = d;
    p->t0_ms = daemon_now_ms();
    p->rx_us = rx_us;
    eng_text_copy(p->id, sizeof p->id, it->id);
    eng_text_copy(p->command, sizeof p->command, command ? command : "?");
    return p;
}

/* Queue the callback body (JSON text of len bytes, borrowed; NULL: it
 * could not be rendered), with file (may be NULL) attached; returns the
 * pending record (owned by the REST done callback from now on; follow-ons
 * may be added until control returns to the loop), or NULL. */
static struct pending_reply *answer_file(struct daemon *d,
                                         const struct interaction *it,
                                         int64_t rx_us, const char *body,
                                         size_t len, const char *command,
                                         const struct cmd_file *file)
{
    char path[REST_MAX_PATH], ctype[REST_MAX_CTYPE] = "application/json";
    char *multi = NULL;
    struct pending_reply *p;
    int64_t age = interaction_age_ms(it, daemon_wall_ms());

    /* Past Discord's window the callback is refused (10062): don't send
     * it. Only a loop stalled after the arrival check gets here. */
    if (age > DAEMON_IX_WINDOW_MS) {
        metrics_interaction(&d->metrics, command ? command : "?",
                            METRICS_FAILED, 0);
        log_msg(d->log, LOG_LVL_WARN, "interaction %s /%s: %lld ms old when "
                "its answer was ready: past Discord's %d ms, not sent",
                it->id, command ? command : "?", (long long)age,
                DAEMON_IX_WINDOW_MS);
        return NULL;
    }
    bool ok = body != NULL &&
              (!has_file(file) ||
               daemon_body_file(body, len, true, file, &multi, &len, ctype));
    p = ok ? pending_new(d, it, rx_us, command) : NULL;
    if (!ok || !p) {
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: %s", it->id, !ok
                ? "its answer's body could not be built" : "out of memory");
        free(multi);
        return NULL;
    }
    snprintf(path, sizeof path, "/interactions/%s/%s/callback", it->id,
             it->token);
    if (rest_submit_body(d->rest, "POST", path, multi ? multi : body, len,
                         ctype, on_callback_done, p) != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: cannot queue reply",
                it->id);
        free(p);
        p = NULL;
    }
    free(multi);
    return p;
}

/* Answer with the callback text (heap, freed here; NULL: it could not be
 * rendered). */
static struct pending_reply *answer(struct daemon *d,
                                    const struct interaction *it, int64_t rx_us,
                                    char *body, size_t len, const char *command)
{
    struct pending_reply *p =
        answer_file(d, it, rx_us, body, len, command, NULL);
    free(body);
    return p;
}

/* Answer it at once with text, privately; an autocomplete with no
 * choices. */
struct pending_reply *daemon_answer_private(struct daemon *d,
                                            const struct interaction *it,
                                            int64_t rx_us, const char *text)
{
    struct msg m;
    size_t len = 0;
    bool choices = it->type == INTERACTION_AUTOCOMPLETE;
    msg_init(&m);
    if (!choices)
        msg_set_content(&m, "%s", text);
    char *body = render_discord_callback_text(
        choices ? RENDER_DC_CB_AUTOCOMPLETE : RENDER_DC_CB_MESSAGE, &m, true,
        &len);
    msg_cleanup(&m);
    return answer(d, it, rx_us, body, len, it->req.command);
}

/* After a deferral: send body (NULL: none) to the interaction's webhook
 * once the callback is accepted. sub is "" for a followup, or
 * "/messages/@original". */
/* body: the message's JSON text (heap, taken; NULL: none), len bytes. */
static void follow_on_file(struct pending_reply *p,
                           const struct interaction *it, const char *method,
                           const char *sub, char *body, size_t len,
                           const struct cmd_file *file)
{
    struct follow_on *f;
    if (p == NULL || p->nnext >= FOLLOW_ONS_MAX ||
        (p->next == NULL &&
         (p->next = calloc(FOLLOW_ONS_MAX, sizeof *p->next)) == NULL)) {
        free(body);
        return;
    }
    f = &p->next[p->nnext];
    f->method = method;
    f->body = body;
    f->len = len;
    snprintf(f->ctype, sizeof f->ctype, "application/json");
    if (body && has_file(file)) {
        f->body = NULL;
        bool ok = daemon_body_file(body, len, false, file, &f->body, &f->len,
                                    f->ctype);
        free(body);
        if (!ok)
            return;
    }
    snprintf(f->path, sizeof f->path, "/webhooks/%s/%s%s",
             it->application_id, it->token, sub);
    p->nnext++;
}

static void follow_on(struct pending_reply *p, const struct interaction *it,
                      const char *method, const char *sub, char *body,
                      size_t len)
{
    follow_on_file(p, it, method, sub, body, len, NULL);
}

void daemon_answer_autocomplete(struct daemon *d, struct interaction *it,
                                int64_t rx_us)
{
    struct cmd_ctx ctx = {.store = d->store, .rng = &d->rng,
                          .rs_data = &d->rules, .cache = d->cache};
    struct msg m;
    size_t len = 0;

    msg_init(&m);
    daemon_thread_route(d, &it->req);
    if (!cmd_complete(&ctx, &it->req, it->focused, &m))
        log_msg(d->log, LOG_LVL_WARN, "interaction %s: autocomplete out of "
                "memory", it->id);
    char *body = render_discord_callback_text(RENDER_DC_CB_AUTOCOMPLETE, &m,
                                              false, &len);
    answer(d, it, rx_us, body, len, it->req.command);
    msg_cleanup(&m);
}

bool daemon_answer_form(struct daemon *d, struct interaction *it,
                        int64_t rx_us)
{
    struct cmd_ctx ctx;
    struct cmd_reply r;
    char *body = NULL;
    size_t len = 0;

    if (it->type != INTERACTION_COMMAND || !cmd_form_wanted(&it->req))
        return false;
    daemon_cmd_ctx(d, &ctx);
    daemon_thread_route(d, &it->req);
    cmd_reply_init(&r);
    if (!cmd_form_exec(&ctx, &it->req, &r)) {
        cmd_reply_cleanup(&r);
        return false;
    }
    if (r.form != NULL)
        body = render_modal_text(r.form, &len);
    else
        body = render_discord_callback_text(RENDER_DC_CB_MESSAGE, &r.msg,
                                            true, &len);
    answer(d, it, rx_us, body, len, it->req.command);
    cmd_reply_cleanup(&r);
    return true;
}

_Static_assert(sizeof DAEMON_UNREADABLE_TEXT <= DAEMON_REFUSAL_MAX,
               "the unreadable-text refusal fits its buffer");

/* An interaction whose text held a NUL or a broken character (read as
 * U+FFFD by the gateway, GW_KEY_REPAIRED): running it would act on text
 * the user did not type, so it is refused privately with
 * DAEMON_UNREADABLE_TEXT: an autocomplete (which offers nothing) at once,
 * a command after its group's commit (the caller sets its reply). */
bool daemon_answer_unreadable(struct daemon *d, struct interaction *it,
                              int64_t rx_us)
{
    if (!json_is_true(json_object_get(it->root, GW_KEY_REPAIRED)))
        return false;
    log_msg(d->log, LOG_LVL_WARN, "interaction %s /%s: refused, its text "
            "held a NUL or a broken character", it->id,
            it->req.command ? it->req.command : "?");
    if (it->type == INTERACTION_AUTOCOMPLETE)
        daemon_answer_private(d, it, rx_us,
                              i18n_get(it->req.lang, DAEMON_UNREADABLE_TEXT));
    return true;
}

/* A deferred command will answer privately: decided before it runs, from
 * what the user asked for. */
static bool likely_ephemeral(const struct cmd_req *req)
{
    struct cmd_spec spec;
    const char *v;
    if (cmd_lookup(req->command, req->sub, NULL, &spec) &&
        (spec.flags & CMD_F_EPHEMERAL))
        return true;
    if (strcmp(req->command, "help") == 0 ||
        strcmp(req->command, "config") == 0)
        return true;
    v = cmd_req_opt(req, "secret");
    if (v && strcmp(v, "true") == 0)
        return true;
    v = cmd_req_opt(req, "private");
    return v && strcmp(v, "true") == 0;
}

static void on_gm_done(void *ud, const struct rest_result *res);

/* POST m in channel; done(ud) is told when it is answered. */
static bool post_msg(struct daemon *d, uint64_t channel, const struct msg *m,
                     rest_done_fn *done, void *ud)
{
    char path[REST_MAX_PATH];
    char *text = render_discord_message_text(m, false, NULL);
    snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages", channel);
    bool ok = text && rest_submit(d->rest, "POST", path, text, done, ud) ==
                          BOT_OK;
    free(text);
    return ok;
}

/* Submit m to the GM channel; fold (may be NULL) is told when it is done. */
static bool gm_submit(struct daemon *d, uint64_t channel, const struct msg *m,
                      struct gm_fold *fold)
{
    bool ok = post_msg(d, channel, m,
                       fold ? on_gm_done : daemon_on_follow_done,
                       fold ? (void *)fold : (void *)d);
    if (!ok)
        log_msg(d->log, LOG_LVL_WARN, "cannot post to the GM channel %" PRIu64,
                channel);
    else
        d->metrics.gm_posts++;
    return ok;
}

/* One copy as markdown lines: each embed's title in bold, its text, its
 * fields and footer. */
static void gm_copy_text(const struct msg *m, struct sbuf *sb)
{
    if (m->content)
        sbuf_addf(sb, "%s\n", m->content);
    for (int i = 0; i < m->nembeds; i++) {
        const struct msg_embed *e = &m->embeds[i];
        if (e->title)
            sbuf_addf(sb, "**%s**\n", e->title);
        if (e->description)
            sbuf_addf(sb, "%s\n", e->description);
        for (int f = 0; f < e->nfields; f++)
            sbuf_addf(sb, "**%s**: %s\n", e->fields[f].name,
                      e->fields[f].value);
        if (e->footer)
            sbuf_addf(sb, "%s\n", e->footer);
    }
}

/* Add one copy to fold's text, or count it when it does not fit. The
 * first copy of a fold always goes in (shortened, visibly, if it alone is
 * too long). */
static void gm_fold_add(struct gm_fold *g, const struct msg *m)
{
    struct sbuf one;

    sbuf_init(&one, DAEMON_GM_FOLD_BYTES);
    gm_copy_text(m, &one);
    if (g->text.len + one.len + 1 <= DAEMON_GM_FOLD_BYTES &&
        sbuf_error(&one) == SBUF_OK) {
        if (g->nfolded > 0)
            sbuf_addc(&g->text, '\n');
        sbuf_addn(&g->text, sbuf_str(&one), one.len);
        g->nfolded++;
    } else if (g->nfolded == 0) {
        size_t room = DAEMON_GM_FOLD_BYTES - sizeof RENDER_DC_NOTE - 1;
        sbuf_addn(&g->text, sbuf_str(&one),
                  sbuf_utf8_cut(sbuf_str(&one),
                                one.len < room ? one.len : room));
        sbuf_add(&g->text, "\n" RENDER_DC_NOTE);
        g->nfolded++;
    } else {
        g->nmore++;
    }
    sbuf_cleanup(&one);
}

static void gm_fold_reset(struct gm_fold *g)
{
    if (g->held) {
        msg_cleanup(g->held);
        free(g->held);
        g->held = NULL;
    }
    sbuf_reset(&g->text);
    g->nfolded = g->nmore = 0;
}

/* Send what waits in g as one message; free the slot when nothing does. */
static void gm_fold_flush(struct gm_fold *g)
{
    struct daemon *d = g->d;
    struct msg m;
    struct msg_embed *e;
    bool sent = false;

    if (g->held == NULL && g->nfolded == 0 && g->nmore == 0) {
        g->channel = 0;
        return;
    }
    if (g->held != NULL && g->nfolded == 0 && g->nmore == 0) {
        sent = gm_submit(d, g->channel, g->held, g);
    } else {
        char title[96];
        snprintf(title, sizeof title,
                 "%d secret copies at once, folded into one message",
                 g->nfolded + g->nmore);
        msg_init(&m);
        e = msg_add_embed(&m, MSG_STYLE_SECRET, title);
        if (e && msg_embed_set_description(e, sbuf_str(&g->text))) {
            if (g->nmore > 0) {
                char foot[160];
                snprintf(foot, sizeof foot, "\xe2\x80\xa6 and %d more secret "
                         "roll%s not shown: they came too fast", g->nmore,
                         g->nmore == 1 ? "" : "s");
                msg_embed_set_footer(e, foot);
            }
            sent = gm_submit(d, g->channel, &m, g);
        }
        msg_cleanup(&m);
        d->metrics.gm_unshown += g->nmore;
    }
    if (!sent) {
        log_msg(d->log, LOG_LVL_WARN, "GM channel %" PRIu64 ": %d secret "
                "copies not sent", g->channel,
                (g->held != NULL) + g->nfolded + g->nmore);
        g->channel = 0;
    }
    gm_fold_reset(g);
}

static void on_gm_done(void *ud, const struct rest_result *res)
{
    struct gm_fold *g = ud;
    struct daemon *d = g->d;

    daemon_on_follow_done(d, res);
    if (d->rest_closing) {
        int n = (g->held != NULL) + g->nfolded + g->nmore;
        if (n > 0)
            log_msg(d->log, LOG_LVL_WARN, "GM channel %" PRIu64 ": %d "
                    "secret copies not sent: stopping", g->channel, n);
        gm_fold_reset(g);
        g->channel = 0;
        return;
    }
    gm_fold_flush(g);
}

void daemon_gm_free(struct daemon *d)
{
    for (int i = 0; d->gm && i < DAEMON_GM_CHANNELS_MAX; i++) {
        gm_fold_reset(&d->gm[i]);
        sbuf_cleanup(&d->gm[i].text);
    }
    free(d->gm);
    d->gm = NULL;
}

/* A message of a command's own for another channel (cmd_reply.notice: a
 * proposal for the GM, with its buttons): posted as it is, never folded
 * with the GM's copies, which would drop its buttons. */
void daemon_post_notice(struct daemon *d, uint64_t channel,
                        const struct msg *m)
{
    if (!post_msg(d, channel, m, daemon_on_follow_done, d))
        log_msg(d->log, LOG_LVL_WARN, "cannot post a notice in channel %"
                PRIu64, channel);
}

/* A copy for the GM channel. Posted at once when nothing is on its way to
 * that channel; else it waits for the one in flight and goes out folded
 * with the others that came meanwhile, so a flood of secret rolls is a
 * few messages, not a queue Discord drains at one a second. Takes *mp. */
void daemon_post_gm_copy(struct daemon *d, uint64_t channel, struct msg **mp)
{
    struct msg *m = *mp;
    struct gm_fold *g = NULL, *free_slot = NULL;

    *mp = NULL;
    d->metrics.gm_copies++;
    for (int i = 0; d->gm && i < DAEMON_GM_CHANNELS_MAX && !g; i++) {
        if (d->gm[i].channel == channel)
            g = &d->gm[i];
        else if (d->gm[i].channel == 0 && !free_slot)
            free_slot = &d->gm[i];
    }
    if (g == NULL) {
        if (free_slot != NULL) {
            free_slot->channel = channel;
            if (!gm_submit(d, channel, m, free_slot))
                free_slot->channel = 0;
        } else {
            gm_submit(d, channel, m, NULL);
        }
        msg_cleanup(m);
        free(m);
        return;
    }
    if (g->held == NULL && g->nfolded == 0 && g->nmore == 0) {
        g->held = m;                    /* alone so far: sent as it is */
        return;
    }
    if (g->held != NULL) {
        gm_fold_add(g, g->held);
        msg_cleanup(g->held);
        free(g->held);
        g->held = NULL;
    }
    gm_fold_add(g, m);
    msg_cleanup(m);
    free(m);
}

/* Acknowledgement marks (docs/internals/daemon.md, "Answered at most
 * once"): the key of interaction id's mark, and its value
 * "<edit_clicked> <defer_ephemeral> <wall ms>". */
static void ack_key(const char *id, char *key, size_t cap)
{
    snprintf(key, cap, DAEMON_ACK_KEY_PREFIX "%s", id);
}

/* Interaction id's mark, if it has one: how an earlier process deferred
 * it. */
bool daemon_ack_lookup(struct daemon *d, const char *id, bool *clicked,
                       bool *eph)
{
    char key[STORE_MAX_KV_KEY], *v = NULL;
    int c = 0, e = 0;
    bool found;

    ack_key(id, key, sizeof key);
    if (store_kv_get(d->store, key, &v) != BOT_OK)
        return false;
    found = sscanf(v, "%d %d", &c, &e) == 2;
    free(v);
    *clicked = c != 0;
    *eph = e != 0;
    return found;
}

/* Waited too long (a busy loop, a replay, a slow group): the command is
 * acknowledged first, so the 3 s window cannot run out while the group
 * runs. work_ms is what the group is expected to take. Decides only;
 * batch_defer_send() sends. */
static void batch_defer_decide(struct daemon *d, struct batch_item *b,
                               int64_t work_ms)
{
    struct interaction *it = &b->it;
    int64_t age;
    bool on_tracker;

    if (b->acked_before) {      /* the mark said how */
        b->defer = true;
        return;
    }
    /* A click on the live tracker answers with a new message (the tracker
     * itself is edited by tracker.c); a click on any other message of ours
     * (a prompt) replaces that message with the answer. */
    on_tracker = it->type == INTERACTION_COMPONENT && it->message_id != 0 &&
                 it->message_id == tracker_message_id(d->tracker,
                                                      it->req.channel_id);
    /* A V2 message never becomes classic again: a click on one (an
     * older tracker of the fight) is answered with a new message too. */
    bool v2_source = (json_integer_value(json_object_get(
                          json_object_get(it->root, "message"), "flags")) &
                      RENDER_DC_FLAG_V2) != 0;
    b->edit_clicked = it->type == INTERACTION_COMPONENT && !on_tracker &&
                      !v2_source;
    age = interaction_age_ms(it, daemon_wall_ms());
    b->defer = age + work_ms > DAEMON_DEFER_AFTER_MS;
    if (b->defer)
        b->defer_ephemeral = !b->edit_clicked && likely_ephemeral(&it->req);
}

static void batch_defer_send(struct daemon *d, struct batch_item *b)
{
    struct interaction *it = &b->it;
    size_t len = 0;

    if (b->acked_before) {      /* no second callback: hold the answer */
        b->p = pending_new(d, it, b->rx_us, it->req.command);
        return;
    }
    char *body = render_discord_callback_text(
        b->edit_clicked ? RENDER_DC_CB_DEFER_UPDATE : RENDER_DC_CB_DEFER, NULL,
        b->defer_ephemeral, &len);
    b->p = answer(d, it, b->rx_us, body, len, it->req.command);
    d->deferred++;
    log_msg(d->log, LOG_LVL_NOTICE,
            "interaction %s /%s is %lld ms old: "
            "deferred",
            it->id, it->req.command,
            (long long)interaction_age_ms(it, daemon_wall_ms()));
}

/* Before any deferral of the group goes out, commit a mark for each, with
 * the gateway sequence from before the group: a process killed between the
 * deferral and the group's commit leaves the group to be replayed, and the
 * replay finds the marks and answers through the webhook instead of with a
 * second callback. The group's transaction is open again on return. */
static void ack_marks_commit(struct daemon *d, int n)
{
    enum bot_err e = BOT_OK;
    char key[STORE_MAX_KV_KEY], v[64];

    if (!d->batch_txn) {
        log_msg(d->log, LOG_LVL_WARN, "no group transaction: deferrals go "
                "out unmarked (a crash now may answer one twice)");
        return;
    }
    for (int i = 0; i < n && e == BOT_OK; i++) {
        struct batch_item *b = &d->batch[i];
        if (!b->defer || b->acked_before)
            continue;
        ack_key(b->it.id, key, sizeof key);
        snprintf(v, sizeof v, "%d %d %lld", b->edit_clicked,
                 b->defer_ephemeral, (long long)daemon_wall_ms());
        e = store_kv_set(d->store, key, v);
    }
    if (e == BOT_OK && d->gw)
        gw_seq_save_as(d->gw, d->group_seq0);
    if (e == BOT_OK)
        e = store_commit(d->store);
    else
        store_rollback(d->store);
    if (e != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "cannot save acknowledgement marks: "
                "%s (a crash now may answer one twice)",
                store_errmsg(d->store));
    d->batch_txn = store_begin(d->store) == BOT_OK;
    d->marks_committed = true;
}

/* A held answer (acknowledged by an earlier process): its follow-ons go
 * to the webhook now, with no callback before them. */
static void pending_release(struct daemon *d, struct pending_reply *p)
{
    for (int i = 0; i < p->nnext; i++)
        follow_submit(d, &p->next[i]);
    if (p->ack.fn != NULL)
        p->ack.fn(p->ack.ud, true);
    metrics_interaction(&d->metrics, p->command, METRICS_REPLAYED, 0);
    pending_free(p);
}

/* A /combat log to be written on the worker (reply->log_later), after the
 * group's commit, so the worker's connection sees every change answered
 * before it: acknowledge it (or use the deferral already sent) and hand it
 * to daemon_log.c. False when it is to be answered here after all: the
 * worker is full, reply now says so. */
static bool batch_log_later(struct daemon *d, struct batch_item *b)
{
    struct cmd_reply *reply = &b->reply;
    struct daemon_log_ack ack = {0};
    size_t len = 0;

    if (b->defer && b->p == NULL)
        return true;            /* the deferral failed: nobody to tell */
    bool public_ack = b->defer ? !b->defer_ephemeral : !reply->ephemeral;
    if (daemon_log_take(d, &b->it, &reply->log_job, public_ack, &ack) ==
        DAEMON_LOG_BUSY) {
        reply->log_later = false;
        reply->is_error = true;
        msg_set_content(&reply->msg, "%s", DAEMON_LOG_BUSY_TEXT);
        return false;
    }
    if (b->defer) {
        b->p->ack = ack;
        return true;
    }
    char *body = render_discord_callback_text(RENDER_DC_CB_DEFER, NULL,
                                              reply->ephemeral, &len);
    struct pending_reply *p = answer(d, &b->it, b->rx_us, body, len,
                                     b->it.req.command);
    if (p == NULL) {
        ack.fn(ack.ud, false);
        return true;
    }
    d->deferred++;
    p->ack = ack;
    return true;
}

/* Send the answer of a command whose group was committed (or failed). */
static void batch_send(struct daemon *d, struct batch_item *b)
{
    struct interaction *it = &b->it;
    struct cmd_reply *reply = &b->reply;
    /* first: a full log worker makes it a refusal */
    bool logged = reply->log_later && !reply->is_error &&
                  batch_log_later(d, b);
    bool ephemeral = reply->ephemeral || reply->is_error;
    struct pending_reply *p;
    char *body;
    size_t len = 0;

    if (b->p) {      /* deferred: the callback is out; count it so */
        b->p->refused = reply->is_error;
        b->p->limited = b->limited;
    }
    if (reply->duplicate)
        log_msg(d->log, LOG_LVL_INFO,
                "interaction %s already applied: answering without change",
                it->id);
    if (logged) {
        /* answered by daemon_log.c */
    } else if (!b->defer) {
        enum render_dc_callback type = b->edit_clicked && !ephemeral
                                           ? RENDER_DC_CB_UPDATE
                                           : RENDER_DC_CB_MESSAGE;
        char stack[DAEMON_ANSWER_STACK];
        struct jw w;
        jw_init_buf(&w, stack, sizeof stack, RENDER_DC_BODY_MAX);
        render_discord_callback_jw(&w, type, &reply->msg, ephemeral);
        const char *text = jw_text(&w, &len);
        if (text && (p = answer_file(d, it, b->rx_us, text, len,
                                     it->req.command, &reply->file))) {
            p->refused = reply->is_error;
            p->limited = b->limited;
        }
        if (!text)
            log_msg(d->log, LOG_LVL_ERR,
                    "interaction %s: cannot render "
                    "reply",
                    it->id);
        jw_cleanup(&w);
    } else {
        /* Acknowledged in public and answered in private: a private
         * followup, and the "thinking" message goes away; else the
         * answer replaces the "thinking" message. */
        bool followup = ephemeral && !b->defer_ephemeral;
        body = render_discord_message_text(&reply->msg, followup, &len);
        if (!body)
            log_msg(d->log, LOG_LVL_ERR,
                    "interaction %s: cannot render "
                    "reply",
                    it->id);
        follow_on_file(b->p, it, followup ? "POST" : "PATCH",
                       followup ? "" : "/messages/@original", body, len,
                       &reply->file);
        if (followup && !b->edit_clicked)
            follow_on(b->p, it, "DELETE", "/messages/@original", NULL, 0);
    }
    if (reply->changed && reply->tracker)
        tracker_show(d->tracker, reply->channel_id, reply->tracker,
                     reply->tracker_mode, it->application_id, it->token);
    /* any answer in a shared fight's channel: a change, a share revoked
     * (web_flush sends only what differs) */
    web_changed(d->web, it->req.channel_id);
    if (reply->changed && reply->thread_name[0] != '\0')
        daemon_thread_open(d, it, reply->channel_id, reply->thread_name);
    if (reply->gm_copy && reply->gm_channel && !reply->is_error)
        daemon_post_gm_copy(d, reply->gm_channel, &reply->gm_copy);
    if (reply->notice && reply->notice_channel)
        daemon_post_notice(d, reply->notice_channel, reply->notice);
    /* The server plays another set of systems now: its commands follow,
     * once the change is committed. */
    if (reply->guild_commands && !reply->is_error)
        daemon_register_guild(d, it->req.guild_id);
    if (reply->clock_changed && !reply->is_error)
        daemon_clock_changed(d, reply->clock_due);
}

/* The records waiting in the queue and those the group's commands showed
 * that it could not take (cmd_rollrec.h), for their messages' menus; what
 * cannot be written is logged, and those menus then say the roll is not
 * known. */
static enum bot_err remember_rolls(struct store *s, void *ctx)
{
    struct daemon *d = ctx;
    size_t lost = 0;
    if (d->rollq != NULL &&
        cmd_rollq_write(d->rollq, s, &lost) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "%zu rolls are not remembered: %s",
                lost, store_errmsg(s));
    for (int i = 0; i < d->nbatch; i++) {
        struct batch_item *b = &d->batch[i];
        const struct cmd_rollrec_row *row = &b->reply.rollrec;
        if (!b->ran || row->json == NULL || b->reply.is_error)
            continue;
        enum bot_err e = cmd_rollrec_put_row(s, row->key, row->channel,
                                             row->json);
        if (e != BOT_OK)
            log_msg(d->log, LOG_LVL_WARN, "interaction %s: its roll is not "
                    "remembered: %s", b->it.id, store_errmsg(s));
    }
    return BOT_OK;
}

/* The group's rolls' records into the queue (cmd_rollq.h); whether they
 * are due now: one the queue could not take, or a full queue. */
static bool queue_rolls(struct daemon *d, int64_t now_ms)
{
    bool due = false;
    for (int i = 0; i < d->nbatch; i++) {
        struct batch_item *b = &d->batch[i];
        if (!b->ran || b->reply.rollrec.json == NULL || b->reply.is_error)
            continue;
        if (d->rollq == NULL ||
            !cmd_rollq_add(d->rollq, &b->reply.rollrec, now_ms))
            due = true;
    }
    return due || (d->rollq != NULL && cmd_rollq_len(d->rollq) ==
                                           CMD_ROLLQ_MAX);
}

/* Outside a group: the queued records once the oldest has waited
 * DAEMON_ROLLQ_WAIT_MS, or all of them (stopping), in a transaction
 * without a flush (the WAL has them; a power cut may lose them, as it
 * may the last moments of any unsynced write). */
void daemon_rolls_due(struct daemon *d, int64_t now_ms, bool all)
{
    if (d->rollq == NULL || d->store == NULL || d->nbatch > 0 ||
        cmd_rollq_len(d->rollq) == 0)
        return;
    if (!all && now_ms - cmd_rollq_since_ms(d->rollq) < DAEMON_ROLLQ_WAIT_MS)
        return;
    if (store_run_unsynced(d->store, remember_rolls, d) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "rolls waiting to be remembered: %s",
                store_errmsg(d->store));
}

/* A group that changed nothing, whose rolls are due: their records and
 * the gateway's resume point in one transaction without a flush, not one
 * each (each commit writes its pages to the WAL and switches the flush
 * off and on: a group of rolls paid that twice). */
struct unsynced_group {
    struct daemon *d;
    int64_t seq;
};

static enum bot_err remember_rolls_and_seq(struct store *s, void *ctx)
{
    struct unsynced_group *g = ctx;
    enum bot_err e = remember_rolls(s, g->d);
    if (e == BOT_OK && g->d->gw)
        gw_seq_save_as(g->d->gw, g->seq);
    return e;
}

/* Group commit: run every queued command, each in its own inner
 * transaction (a failed one rolls back alone), commit the group's outer
 * transaction once (one fsync for all of them), and only then answer. If
 * that commit fails nothing of the group was saved: every command is
 * answered with the error and the cache, which already held the group's
 * states, is emptied. */
void daemon_batch_flush(struct daemon *d)
{
    struct cmd_ctx ctx;
    int64_t t0 = daemon_now_us(), t1, t2;
    enum bot_err err = BOT_OK;
    int n = d->nbatch;

    if (n == 0)
        return;
    daemon_cmd_ctx(d, &ctx);
    /* Rolls change nothing; their records wait in a queue below, written
     * with a group's flush when it has one, and without one of their own
     * when the queue is full or has waited (cmd_rollq.h): /roll stays as
     * cheap as it was. */
    ctx.rollrec_later = d->store != NULL;
    int marks = 0;

    for (int i = 0; i < n; i++) {
        struct batch_item *b = &d->batch[i];
        batch_defer_decide(d, b, (n * d->cmd_us + d->commit_us) / 1000);
        marks += b->defer && !b->acked_before;
    }
    d->marks_committed = false;
    if (marks)
        ack_marks_commit(d, n);
    for (int i = 0; i < n; i++)
        if (d->batch[i].defer)
            batch_defer_send(d, &d->batch[i]);
    for (int i = 0; i < n; i++) {
        struct batch_item *b = &d->batch[i];
        if (b->refused_early) {      /* its answer is ready */
            b->ran = true;
            continue;
        }
        daemon_thread_route(d, &b->it.req);
        b->ran = cmd_exec(&ctx, &b->it.req, &b->reply);
        if (b->ran)
            daemon_thread_note(d, &b->it.req, &b->reply);
        if (!b->ran)
            log_msg(d->log, LOG_LVL_ERR,
                    "interaction %s: cmd_exec out of memory", b->it.id);
    }
    t1 = daemon_now_us();
    /* The sequence goes into the group's commit, once (the gateway holds
     * its own saves while a group is open): all the dispatches read so
     * far, or, when the group runs because a new one arrived and found it
     * full, those before that one, which is not in the group. A group
     * that changed nothing has nothing to flush: its empty commit costs no
     * fsync, and the sequence follows it unsynced (docs/internals/
     * daemon.md, "Answered at most once"). */
    int64_t seq = d->gw && d->in_dispatch ? gw_seq_before(d->gw) : -1;
    bool rolls_due = queue_rolls(d, daemon_now_ms());
    bool wrote = !d->batch_txn || store_wrote(d->store);
    if (wrote && d->store != NULL)
        (void)remember_rolls(d->store, d);
    if (d->gw) {
        gw_seq_hold(d->gw, false);
        if (wrote)
            gw_seq_save_as(d->gw, seq);
    }
    if (d->batch_txn)
        err = store_commit(d->store);
    if (!wrote && err == BOT_OK && rolls_due) {
        struct unsynced_group g = {.d = d, .seq = seq};
        if (store_run_unsynced(d->store, remember_rolls_and_seq, &g) !=
            BOT_OK) {
            log_msg(d->log, LOG_LVL_WARN, "the group's rolls are not "
                    "remembered: %s", store_errmsg(d->store));
            if (d->gw)
                gw_seq_save_unsynced(d->gw, seq);
        }
    } else if (d->gw && !wrote && err == BOT_OK) {
        gw_seq_save_unsynced(d->gw, seq);
    }
    t2 = daemon_now_us();
    if (d->batch_txn)
        metrics_commit(&d->metrics, t2 - t1);
    if (err != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "group of %d commands not saved: %s",
                n, store_errmsg(d->store));
        if (d->cache)
            enc_cache_clear(d->cache);
    }
    for (int i = 0; i < n; i++) {
        struct batch_item *b = &d->batch[i];
        if (b->ran && err != BOT_OK)
            cmd_reply_fail_store(&b->reply, err);
        if (b->ran)
            batch_send(d, b);
        if (b->acked_before && b->p)
            pending_release(d, b->p);
        cmd_reply_cleanup(&b->reply);
        interaction_cleanup(&b->it);
    }
    /* Estimates for the next group's deferral decision: a quarter of each
     * new sample, so one slow fsync does not defer everything after it. */
    d->cmd_us += ((t1 - t0) / n - d->cmd_us) / 4;
    if (d->batch_txn)
        d->commit_us += ((t2 - t1) - d->commit_us) / 4;
    /* the answers are on their way: now the shared pages */
    web_flush(d->web);
    d->groups++;
    if (n > d->group_max)
        d->group_max = n;
    d->nbatch = 0;
    d->batch_txn = false;
}
