/*
 * daemon_att.c - commands that carry a file (an ATTACHMENT option, the
 * import commands): download it, then run the command with it.
 *
 * A download takes longer than Discord's 3 s window allows on a bad day,
 * so such a command is acknowledged at once with a private deferral, the
 * file is fetched on the download thread (attach.h), and when both the
 * deferral was accepted and the file is here the command runs (its own
 * transaction, outside any group) and its answer replaces the "thinking"
 * message. A file refused before the download (host, size, type) is
 * answered at once, privately, and nothing runs.
 *
 * Ownership: a struct att_cmd owns a reference to the interaction's
 * payload and the downloaded bytes; it is freed when the answer is queued
 * or when the daemon stops (att_free runs every done callback).
 */
#include "daemon_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "cmd.h"
#include "render_discord.h"

struct att_cmd {
    struct daemon *d;
    json_t *payload;               /* owned reference */
    int64_t rx_us;
    char id[32];
    char command[METRICS_COMMAND_MAX];
    char path[REST_MAX_PATH];      /* the webhook's @original */
    bool acked;                    /* the deferral was accepted */
    bool fetched;                  /* the download ended */
    bool gone;                     /* the deferral failed: nobody to tell */
    enum att_err err;
    enum i18n_lang lang;           /* the user's: the answer is private */
    char *data;                    /* the file, owned; NULL on error */
    size_t len;
};

static void att_cmd_free(struct att_cmd *c)
{
    json_decref(c->payload);
    free(c->data);
    free(c);
}

static void on_edit_done(void *ud, const struct rest_result *res)
{
    struct daemon *d = ud;
    if (res->err != BOT_OK || res->status < 200 || res->status >= 300)
        log_msg(d->log, LOG_LVL_WARN, "answer to a command with a file "
                "failed: status %d code %d", res->status, res->discord_code);
}

/* The command's answer, or the refusal of its file, as the deferred
 * message's new text. */
static void att_cmd_answer(struct att_cmd *c)
{
    struct daemon *d = c->d;
    struct cmd_ctx ctx;
    struct interaction it;
    struct cmd_reply reply;
    char why[256], *text = NULL;

    daemon_cmd_ctx(d, &ctx);
    cmd_reply_init(&reply);
    memset(&it, 0, sizeof it);
    if (c->err != ATT_E_OK) {
        msg_set_content(&reply.msg,
                        i18n_get(c->lang, "Your file was not read: %s."),
                        i18n_get(c->lang, att_strerror(c->err)));
    } else if (interaction_decode(c->payload, daemon_wall_ms(), &it, why,
                                  sizeof why) != BOT_OK) {
        msg_set_content(&reply.msg, "%s",
                        i18n_get(c->lang, "Your command could not be read "
                                 "again."));
    } else {
        /* a group's transaction would make this one a savepoint in it */
        if (d->nbatch > 0)
            daemon_batch_flush(d);
        it.req.file = c->data;
        it.req.file_len = c->len;
        cmd_reply_cleanup(&reply);
        if (!cmd_exec(&ctx, &it.req, &reply)) {
            cmd_reply_init(&reply);
            msg_set_content(&reply.msg, "%s",
                            i18n_get(c->lang, "fray ran out of memory: "
                                     "nothing was done."));
        }
    }
    metrics_interaction(&d->metrics, c->command,
                        c->err != ATT_E_OK || reply.is_error
                            ? METRICS_REFUSED
                            : METRICS_OK,
                        daemon_now_us() - c->rx_us);
    text = render_discord_message_text(&reply.msg, false, NULL);
    if (text == NULL ||
        rest_submit(d->rest, "PATCH", c->path, text, on_edit_done, d) !=
            BOT_OK)
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: cannot send the "
                "answer of /%s", c->id, c->command);
    free(text);
    cmd_reply_cleanup(&reply);
    interaction_cleanup(&it);
}

/* Both halves in: answer, unless the daemon stops or the deferral never
 * got through (then there is no message to edit). */
static void att_cmd_step(struct att_cmd *c)
{
    if (!c->fetched || !(c->acked || c->gone))
        return;
    if (!c->gone && !c->d->rest_closing)
        att_cmd_answer(c);
    att_cmd_free(c);
}

static void on_fetched(void *ud, const struct att_result *res)
{
    struct att_cmd *c = ud;

    c->fetched = true;
    c->err = res->err;
    if (res->err == ATT_E_OK) {
        c->data = malloc(res->len + 1);
        if (c->data == NULL) {
            c->err = ATT_E_NOMEM;
        } else {
            memcpy(c->data, res->data, res->len + 1);
            c->len = res->len;
        }
    }
    att_cmd_step(c);
}

static void on_deferred(void *ud, const struct rest_result *res)
{
    struct att_cmd *c = ud;
    bool ok = res->err == BOT_OK && res->status >= 200 && res->status < 300;

    if (ok) {
        c->d->answered++;
        c->acked = true;
    } else {
        log_msg(c->d->log, LOG_LVL_WARN, "interaction %s /%s: deferral "
                "failed: status %d code %d", c->id, c->command, res->status,
                res->discord_code);
        c->gone = true;
    }
    att_cmd_step(c);
}

/* Answer at once, privately, that the file is refused. */
static void att_refuse(struct daemon *d, const struct interaction *it,
                       enum att_err e)
{
    char path[REST_MAX_PATH], *text;
    struct msg m;

    msg_init(&m);
    msg_set_content(&m, i18n_get(it->req.lang, "Your file was not read: %s."),
                    i18n_get(it->req.lang, att_strerror(e)));
    text = render_discord_callback_text(RENDER_DC_CB_MESSAGE, &m, true, NULL);
    snprintf(path, sizeof path, "/interactions/%s/%s/callback", it->id,
             it->token);
    if (text == NULL ||
        rest_submit(d->rest, "POST", path, text, on_edit_done, d) != BOT_OK)
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: cannot refuse its "
                "file", it->id);
    metrics_interaction(&d->metrics, it->req.command, METRICS_REFUSED, 0);
    log_msg(d->log, LOG_LVL_INFO, "interaction %s /%s: file refused (%s)",
            it->id, it->req.command, att_errname(e));
    free(text);
    msg_cleanup(&m);
}

bool daemon_att_start(struct daemon *d, const struct interaction *it,
                      json_t *payload, int64_t rx_us)
{
    struct att_cmd *c;
    enum att_err e;
    char path[REST_MAX_PATH], *text;

    if ((it->type != INTERACTION_COMMAND &&
         it->type != INTERACTION_MODAL_SUBMIT) || it->att.option == NULL)
        return false;
    if (d->att == NULL) {
        att_refuse(d, it, ATT_E_NET);
        return true;
    }
    c = calloc(1, sizeof *c);
    if (c == NULL) {
        att_refuse(d, it, ATT_E_NOMEM);
        return true;
    }
    c->d = d;
    c->payload = json_incref(payload);
    c->rx_us = rx_us;
    snprintf(c->id, sizeof c->id, "%s", it->id);
    snprintf(c->command, sizeof c->command, "%s", it->req.command);
    c->lang = it->req.lang;
    snprintf(c->path, sizeof c->path, "/webhooks/%s/%s/messages/@original",
             it->application_id, it->token);
    e = att_fetch(d->att, it->req.user_id, it->att.url, it->att.size,
                  it->att.content_type,
                  it->att.filename, on_fetched, c);
    if (e != ATT_E_OK) {
        att_refuse(d, it, e);
        att_cmd_free(c);
        return true;
    }
    /* from here the download owns c; the deferral only marks it */
    text = render_discord_callback_text(RENDER_DC_CB_DEFER, NULL, true, NULL);
    snprintf(path, sizeof path, "/interactions/%s/%s/callback", it->id,
             it->token);
    if (text == NULL ||
        rest_submit(d->rest, "POST", path, text, on_deferred, c) != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: cannot defer", it->id);
        c->gone = true;
    } else {
        d->deferred++;
    }
    free(text);
    return true;
}
