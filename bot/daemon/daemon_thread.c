/*
 * daemon_thread.c - a fight in its own thread (fthread.h): opening it
 * after /combat start thread:true, routing the commands sent there to the
 * parent's fight, and telling whoever writes in the parent where the
 * fight is.
 *
 * Discord makes the thread after the fight was saved, so a refusal (a
 * 403: Create Public Threads or Send Messages in Threads missing, in
 * spite of what app_permissions said) leaves a running fight in the
 * channel; the GM is told so privately, through the start's interaction.
 */
#include "daemon_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_config.h"
#include "eng_text.h"
#include "fthread.h"
#include "interaction.h"
#include "sbuf.h"
#include "snowflake.h"
#include "tracker.h"

/* What a thread's creation needs once Discord answers. */
struct thread_open {
    struct daemon *d;
    uint64_t channel;
    char app_id[INTERACTION_SNOWFLAKE_MAX + 1];
    char token[INTERACTION_TOKEN_MAX + 1];
    char name[CMD_THREAD_NAME_MAX + 1];
    enum i18n_lang lang;         /* the opener's: the refusal is theirs */
    enum i18n_lang pub;          /* the table's: the thread's first post */
};

static void on_thread_made(void *ud, const struct rest_result *res)
{
    struct thread_open *o = ud;
    struct daemon *d = o->d;
    char path[REST_MAX_PATH];
    uint64_t thread = 0;
    bool ok = res->err == BOT_OK && res->status >= 200 && res->status < 300;
    if (ok) {
        json_t *j = json_loadb(res->body, res->body_len, 0, NULL);
        if (!snowflake_parse(json_string_value(json_object_get(j,
                                                                     "id")),
                                   &thread))
            thread = 0;
        json_decref(j);
    }
    int64_t live = 0;
    if (thread != 0 &&
        store_enc_version(d->store, o->channel, &live) == BOT_NOTFOUND) {
        /* The fight ended before its thread came: the thread is not
         * linked (the channel's next fight must not inherit it). */
        log_msg(d->log, LOG_LVL_INFO, "fight %" PRIu64 ": ended before its "
                "thread %" PRIu64 " came", o->channel, thread);
        free(o);
        return;
    }
    if (thread != 0 && fthread_link(d->store, o->channel, thread) == BOT_OK) {
        log_msg(d->log, LOG_LVL_INFO, "fight %" PRIu64 ": thread %" PRIu64
                " opened", o->channel, thread);
        tracker_thread(d->tracker, o->channel, thread);
        snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages", thread);
        fthread_notice(d->rest, path, i18n_get(o->pub, "This thread is "
                       "the fight's: its tracker and turns are here, and "
                       "commands sent here act on it."), false, 0);
        free(o);
        return;
    }
    log_msg(d->log, LOG_LVL_WARN, "fight %" PRIu64 ": no thread: status %d "
            "code %d", o->channel, res->status, res->discord_code);
    snprintf(path, sizeof path, "/webhooks/%s/%s", o->app_id, o->token);
    fthread_notice(d->rest, path, res->status == 403
                   ? i18n_get(o->lang, "fray could not open a thread for "
                              "this fight: it needs the Create Public "
                              "Threads and Send Messages in Threads "
                              "permissions in this channel (a server "
                              "manager grants them in the channel's "
                              "settings). The fight runs in this channel.")
                   : i18n_get(o->lang, "fray could not open a thread for "
                              "this fight (Discord refused); the fight runs "
                              "in this channel."), true, 0);
    free(o);
}

void daemon_thread_open(struct daemon *d, const struct interaction *it,
                        uint64_t channel, const char *name)
{
    struct thread_open *o = calloc(1, sizeof *o);
    char path[REST_MAX_PATH], *s = NULL;
    json_t *body = json_pack("{s:s,s:i,s:i}", "name", name, "type",
                             FTHREAD_TYPE_PUBLIC, "auto_archive_duration",
                             FTHREAD_AUTO_ARCHIVE_MIN);
    if (o != NULL && body != NULL &&
        (s = json_dumps(body, JSON_COMPACT)) != NULL) {
        *o = (struct thread_open){
            .d = d, .channel = channel, .lang = it->req.lang,
            .pub = cmd_config_language(d->store, it->req.guild_id,
                                       it->req.guild_lang)};
        snprintf(o->app_id, sizeof o->app_id, "%s", it->application_id);
        snprintf(o->token, sizeof o->token, "%s", it->token);
        snprintf(o->name, sizeof o->name, "%s", name);
        snprintf(path, sizeof path, "/channels/%" PRIu64 "/threads", channel);
        if (rest_submit(d->rest, "POST", path, s, on_thread_made, o) ==
            BOT_OK)
            o = NULL;
    }
    if (o != NULL || body == NULL || s == NULL)
        log_msg(d->log, LOG_LVL_WARN, "fight %" PRIu64 ": cannot ask for its "
                "thread", channel);
    free(o);
    free(s);
    json_decref(body);
}

void daemon_thread_route(struct daemon *d, struct cmd_req *req)
{
    if (req->parent_id == 0)
        return;
    uint64_t parent = fthread_parent(d->store, req->channel_id);
    if (parent != 0 && parent == req->parent_id) {
        req->thread_id = req->channel_id;
        req->channel_id = parent;
    }
}

void daemon_thread_note(struct daemon *d, const struct cmd_req *req,
                        struct cmd_reply *reply)
{
    if (req->thread_id != 0 || reply->is_error || req->command == NULL ||
        (reply->version < 0 && strcmp(req->command, "combat") != 0))
        return;
    uint64_t thread = fthread_of(d->store, req->channel_id);
    if (thread == 0)
        return;
    const char *old = reply->msg.content;
    if (reply->turn_user != 0 && old != NULL && reply->msg.nmentions > 0) {
        /* The turn's notice lives in the thread: the player is pinged
         * there, and the copy here pings nobody. */
        char path[REST_MAX_PATH];
        snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages",
                 thread);
        fthread_notice(d->rest, path, old, false, reply->turn_user);
        reply->msg.nmentions = 0;
    }
    /* The table's words (/config language:, else guild_locale): one
     * store read, only in a channel whose fight has a thread. */
    char where[8 + ENG_TEXT_I64_MAX];
    snprintf(where, sizeof where, "<#%" PRIu64 ">", thread);
    enum i18n_lang pub = cmd_config_language(d->store, req->guild_id,
                                             req->guild_lang);
    struct sbuf text;
    sbuf_init(&text, SIZE_MAX / 2);
    if (old != NULL) {
        sbuf_add(&text, old);
        sbuf_addc(&text, '\n');
    }
    sbuf_addf(&text, i18n_get(pub, "This fight runs in its thread %s."),
              where);
    if (sbuf_error(&text) == SBUF_OK)
        msg_set_content(&reply->msg, "%s", sbuf_str(&text));
    sbuf_cleanup(&text);
}
