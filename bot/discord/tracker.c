/*
 * tracker.c - live tracker messages: post, pin, coalesced edits, repost
 * after a deletion, unpin at the end.
 */
#include "tracker.h"

#include <inttypes.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fthread.h"
#include "interaction.h"
#include "render_discord.h"
#include "rest.h"
#include "snowflake.h"
#include "store.h"

#define NOPIN_MARK " nopin"
#define DISCORD_UNKNOWN_MESSAGE 10008
#define DISCORD_UNKNOWN_CHANNEL 10003

/* One channel's tracker. Kept until its fight ends; a fight that ends
 * while a request is in flight finishes its steps on an entry no longer
 * found by lookups (final), so a new fight in the channel gets its own. */
struct tchan {
    struct tracker *t;
    struct tchan *next;
    lws_sorted_usec_list_t sul;
    uint64_t channel;         /* the fight's */
    uint64_t where;           /* where it is shown: the fight's thread
                                 (fthread.h), or channel */
    uint64_t msg_id;          /* 0: none shown */
    char *want;               /* message body of the newest state, as an
                                 edit (a classic tracker becomes V2) */
    char *want_post;          /* ... and as a new message */
    bool dirty;               /* want is not written yet */
    bool may_post;            /* a missing tracker may be (re)posted */
    bool final;               /* after the last write: unpin and forget */
    bool pin_wanted;
    bool pinned;
    bool nopin;               /* pinning was refused: not tried again */
    bool busy;                /* a request is in flight */
    bool timer;               /* sul is scheduled */
    int64_t last_write_ms;
    char app_id[INTERACTION_SNOWFLAKE_MAX + 1];
    char token[INTERACTION_TOKEN_MAX + 1];
    int64_t token_ms;
};

struct tracker {
    struct tracker_opts o;
    struct tchan *list;
    bool flushing;
};

enum treq_kind { TREQ_POST, TREQ_EDIT, TREQ_PIN, TREQ_UNPIN };

struct treq {                 /* ud of one request */
    struct tchan *ch;
    enum treq_kind kind;
};

static void step(struct tchan *ch);
static void thread_close(struct tchan *ch);

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the key/value row ---------------------------------------------- */

static void kv_key(char *key, size_t n, uint64_t channel)
{
    snprintf(key, n, "%s%" PRIu64, TRACKER_KV_PREFIX, channel);
}

static void kv_load(struct tchan *ch)
{
    char key[STORE_MAX_KV_KEY], *v = NULL, id[INTERACTION_SNOWFLAKE_MAX + 1];
    kv_key(key, sizeof key, ch->channel);
    if (store_kv_get(ch->t->o.store, key, &v) != BOT_OK)
        return;
    size_t n = strcspn(v, " ");
    if (n < sizeof id) {
        memcpy(id, v, n);
        id[n] = '\0';
        if (!snowflake_parse(id, &ch->msg_id))
            ch->msg_id = 0;
    }
    ch->nopin = strstr(v, NOPIN_MARK) != NULL;
    ch->pinned = ch->msg_id != 0 && !ch->nopin;
    free(v);
}

static void kv_save(struct tchan *ch)
{
    char key[STORE_MAX_KV_KEY], v[64];
    kv_key(key, sizeof key, ch->channel);
    snprintf(v, sizeof v, "%" PRIu64 "%s", ch->msg_id,
             ch->nopin ? NOPIN_MARK : "");
    if (store_kv_set(ch->t->o.store, key, v) != BOT_OK)
        log_msg(ch->t->o.log, LOG_LVL_WARN, "tracker %" PRIu64 ": cannot "
                "save its message id: %s", ch->channel,
                store_errmsg(ch->t->o.store));
}

static void kv_forget(struct tchan *ch)
{
    char key[STORE_MAX_KV_KEY];
    kv_key(key, sizeof key, ch->channel);
    store_kv_delete(ch->t->o.store, key);
}

/* ---- channels --------------------------------------------------------- */

static struct tchan *find(struct tracker *t, uint64_t channel, bool create)
{
    for (struct tchan *ch = t->list; ch != NULL; ch = ch->next)
        if (ch->channel == channel && !ch->final)
            return ch;
    if (!create)
        return NULL;
    struct tchan *ch = calloc(1, sizeof *ch);
    if (ch == NULL)
        return NULL;
    ch->t = t;
    ch->channel = channel;
    ch->where = fthread_of(t->o.store, channel);
    if (ch->where == 0)
        ch->where = channel;
    kv_load(ch);
    ch->next = t->list;
    t->list = ch;
    return ch;
}

static void forget(struct tchan *ch)
{
    struct tracker *t = ch->t;
    for (struct tchan **p = &t->list; *p != NULL; p = &(*p)->next)
        if (*p == ch) {
            *p = ch->next;
            break;
        }
    lws_sul_cancel(&ch->sul);
    free(ch->want);
    free(ch->want_post);
    free(ch);
}

/* ---- requests --------------------------------------------------------- */

static void on_done(void *ud, const struct rest_result *res);

static void submit(struct tchan *ch, enum treq_kind kind, const char *method,
                   const char *path, const char *body)
{
    struct treq *q = calloc(1, sizeof *q);
    if (q == NULL)
        return;
    q->ch = ch;
    q->kind = kind;
    if (rest_submit(ch->t->o.rest, method, path, body, on_done, q) !=
        BOT_OK) {
        free(q);
        return;
    }
    ch->busy = true;
}

/* Tell whoever caused the tracker's post, once and privately. */
static void notify(struct tchan *ch, const char *text)
{
    char path[REST_MAX_PATH];
    if (ch->token[0] == '\0' || ch->app_id[0] == '\0' ||
        now_ms() - ch->token_ms > TRACKER_TOKEN_TTL_MS)
        return;
    snprintf(path, sizeof path, "/webhooks/%s/%s", ch->app_id, ch->token);
    fthread_notice(ch->t->o.rest, path, text, true, 0);
}

static void warn_failed(const struct tchan *ch, const char *what,
                        const struct rest_result *res)
{
    log_msg(ch->t->o.log, LOG_LVL_WARN, "tracker %" PRIu64 ": %s failed: "
            "status %d code %d", ch->channel, what, res->status,
            res->discord_code);
}

static uint64_t message_id(const struct rest_result *res)
{
    json_t *j = json_loadb(res->body, res->body_len, 0, NULL);
    uint64_t id = 0;
    if (!snowflake_parse(json_string_value(json_object_get(j, "id")),
                               &id))
        id = 0;
    json_decref(j);
    return id;
}

/* The fight's thread was deleted by hand: the fight goes on, shown in
 * its channel again, and the channel is told. */
static void thread_gone(struct tchan *ch)
{
    log_msg(ch->t->o.log, LOG_LVL_NOTICE, "tracker %" PRIu64 ": thread %"
            PRIu64 " is gone; back to the channel", ch->channel, ch->where);
    fthread_unlink(ch->t->o.store, ch->channel);
    ch->where = ch->channel;
    ch->msg_id = 0;
    ch->pinned = false;
    if (ch->final)
        return;
    kv_forget(ch);
    ch->dirty = ch->want != NULL;
    ch->may_post = true;
    ch->last_write_ms = 0;
    char path[REST_MAX_PATH];
    snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages",
             ch->channel);
    fthread_notice(ch->t->o.rest, path, "This fight's thread was deleted. "
                   "The fight goes on here: its tracker follows, and "
                   "`/combat status` shows it any time.", false, 0);
}

/* The fight is over: its thread is archived (unless [threads]
 * archive_on_end is off) and forgotten, so the channel's next fight
 * starts without it. */
static void thread_close(struct tchan *ch)
{
    char path[REST_MAX_PATH];
    if (ch->where == ch->channel)
        return;
    if (!ch->t->o.keep_threads) {
        snprintf(path, sizeof path, "/channels/%" PRIu64, ch->where);
        rest_submit(ch->t->o.rest, "PATCH", path, "{\"archived\":true}",
                    NULL, NULL);
    }
    fthread_unlink(ch->t->o.store, ch->channel);
    ch->where = ch->channel;
}

static void on_done(void *ud, const struct rest_result *res)
{
    struct treq *q = ud;
    struct tchan *ch = q->ch;
    struct log *lg = ch->t->o.log;
    if (ch->t->o.ctx == NULL) {   /* detached: rest_free() is completing */
        free(q);
        return;
    }
    bool ok = res->err == BOT_OK && res->status >= 200 && res->status < 300;
    ch->busy = false;
    if (res->status == 404 && res->discord_code == DISCORD_UNKNOWN_CHANNEL &&
        ch->where != ch->channel && q->kind != TREQ_UNPIN) {
        thread_gone(ch);
        free(q);
        step(ch);
        return;
    }
    switch (q->kind) {
    case TREQ_POST:
        if (ok && (ch->msg_id = message_id(res)) != 0) {
            if (!ch->final)       /* an ended fight's id is not kept */
                kv_save(ch);
            ch->pin_wanted = !ch->nopin && !ch->final;
            log_msg(lg, LOG_LVL_INFO, "tracker %" PRIu64 ": posted as %"
                    PRIu64, ch->channel, ch->msg_id);
        } else {
            warn_failed(ch, "posting it", res);
            if (res->status == 403)
                notify(ch, "fray cannot post the fight's tracker in this "
                       "channel: it needs the Send Messages and Embed Links "
                       "permissions here. `/combat status` still shows it.");
        }
        break;
    case TREQ_EDIT:
        if (res->status == 404 &&
            (res->discord_code == DISCORD_UNKNOWN_MESSAGE ||
             res->discord_code == 0)) {
            /* Deleted: post it again, with this state, unless the fight
             * is over. */
            log_msg(lg, LOG_LVL_INFO, "tracker %" PRIu64 ": message %" PRIu64
                    " is gone", ch->channel, ch->msg_id);
            ch->msg_id = 0;
            ch->pinned = false;
            if (!ch->final) {
                kv_forget(ch);
                ch->dirty = ch->may_post;
                ch->last_write_ms = 0;
            }
        } else if (!ok) {
            warn_failed(ch, "an edit", res);
        }
        break;
    case TREQ_PIN:
        ch->pin_wanted = false;
        if (ok) {
            ch->pinned = true;
        } else if (res->status == 403) {
            ch->nopin = true;
            if (!ch->final)
                kv_save(ch);
            log_msg(lg, LOG_LVL_NOTICE, "tracker %" PRIu64 ": pinning "
                    "refused (code %d); carrying on unpinned", ch->channel,
                    res->discord_code);
            notify(ch, "fray could not pin the tracker: it needs the Pin "
                   "Messages (or Manage Messages) permission in this "
                   "channel. The fight goes on with the tracker unpinned.");
        } else {
            warn_failed(ch, "pinning", res);
        }
        break;
    case TREQ_UNPIN:
        ch->pinned = false;
        break;
    }
    free(q);
    step(ch);
}

static void timer_cb(lws_sorted_usec_list_t *sul)
{
    struct tchan *ch = lws_container_of(sul, struct tchan, sul);
    ch->timer = false;
    step(ch);
}

/* Do the next thing this tracker needs, if nothing is in flight. */
static void step(struct tchan *ch)
{
    struct tracker *t = ch->t;
    char path[REST_MAX_PATH];
    if (ch->busy)
        return;
    if (ch->pin_wanted && ch->msg_id != 0) {
        snprintf(path, sizeof path, "/channels/%" PRIu64 "/pins/%" PRIu64,
                 ch->where, ch->msg_id);
        submit(ch, TREQ_PIN, "PUT", path, NULL);
        if (ch->busy)
            return;
        ch->pin_wanted = false;
    }
    if (ch->dirty && ch->msg_id == 0 && !ch->may_post)
        ch->dirty = false;        /* nothing shown, and not to be posted */
    if (ch->dirty && ch->want != NULL) {
        int64_t wait = ch->last_write_ms + t->o.min_interval_ms - now_ms();
        if (wait > 0 && ch->last_write_ms != 0 && !t->flushing) {
            if (!ch->timer) {
                ch->timer = true;
                lws_sul_schedule(t->o.ctx, 0, &ch->sul, timer_cb,
                                 wait * LWS_US_PER_MS);
            }
            return;
        }
        ch->dirty = false;
        ch->last_write_ms = now_ms();
        if (ch->msg_id != 0) {
            snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages/%"
                     PRIu64, ch->where, ch->msg_id);
            submit(ch, TREQ_EDIT, "PATCH", path, ch->want);
        } else {
            snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages",
                     ch->where);
            submit(ch, TREQ_POST, "POST", path,
                   ch->want_post != NULL ? ch->want_post : ch->want);
        }
        if (ch->busy)
            return;
    }
    if (ch->final && !ch->dirty) {
        if (ch->pinned && ch->msg_id != 0) {
            ch->pinned = false;
            snprintf(path, sizeof path, "/channels/%" PRIu64 "/pins/%"
                     PRIu64, ch->where, ch->msg_id);
            submit(ch, TREQ_UNPIN, "DELETE", path, NULL);
            if (ch->busy)
                return;
        }
        thread_close(ch);
        forget(ch);
    }
}

/* The message body of m as an edit: an explicit empty component list so
 * it also takes away buttons the old state had, and for a V2 tracker the
 * old content and embeds emptied, so a classic tracker posted before
 * fray drew trackers in V2 converts on its next edit. */
static char *body_of(const struct msg *m)
{
    return render_discord_edit_text(m, NULL);
}

/* ---- the interface ---------------------------------------------------- */

enum bot_err tracker_new(const struct tracker_opts *o, struct tracker **out)
{
    struct tracker *t = calloc(1, sizeof *t);
    *out = NULL;
    if (t == NULL)
        return BOT_NOMEM;
    t->o = *o;
    if (t->o.min_interval_ms <= 0)
        t->o.min_interval_ms = TRACKER_MIN_INTERVAL_MS;
    *out = t;
    return BOT_OK;
}

void tracker_detach(struct tracker *t)
{
    if (t == NULL)
        return;
    for (struct tchan *ch = t->list; ch != NULL; ch = ch->next) {
        lws_sul_cancel(&ch->sul);
        ch->timer = false;
    }
    t->o.ctx = NULL;
}

void tracker_free(struct tracker *t)
{
    if (t == NULL)
        return;
    while (t->list != NULL) {
        struct tchan *ch = t->list;
        t->list = ch->next;
        free(ch->want);
        free(ch->want_post);
        free(ch);
    }
    free(t);
}

void tracker_show(struct tracker *t, uint64_t channel, const struct msg *m,
                  enum cmd_tracker_mode mode, const char *app_id,
                  const char *token)
{
    if (t == NULL || m == NULL || mode == CMD_TRACKER_NONE ||
        t->o.ctx == NULL)
        return;
    struct tchan *ch = find(t, channel, true);
    if (ch == NULL)
        return;
    if (mode == CMD_TRACKER_EDIT && ch->msg_id == 0 && !ch->busy) {
        if (ch->want == NULL)
            forget(ch);           /* setup, and no tracker to edit */
        return;
    }
    char *body = body_of(m);
    char *post = render_discord_message_text(m, false, NULL);
    if (body == NULL || post == NULL) {
        log_msg(t->o.log, LOG_LVL_ERR, "tracker %" PRIu64 ": out of memory",
                channel);
        free(body);
        free(post);
        return;
    }
    free(ch->want);
    free(ch->want_post);
    ch->want = body;
    ch->want_post = post;
    ch->dirty = true;
    ch->may_post = mode == CMD_TRACKER_POST;
    if (mode == CMD_TRACKER_FINAL) {
        ch->final = true;
        kv_forget(ch);            /* no stale id survives a crash */
    }
    /* Whoever made the latest change hears about a refused post or pin
     * (for the first post: the GM, who began the fight). */
    if (app_id != NULL && token != NULL) {
        snprintf(ch->app_id, sizeof ch->app_id, "%s", app_id);
        snprintf(ch->token, sizeof ch->token, "%s", token);
        ch->token_ms = now_ms();
    }
    step(ch);
}

void tracker_thread(struct tracker *t, uint64_t channel, uint64_t thread)
{
    struct tchan *ch = t != NULL ? find(t, channel, false) : NULL;
    /* a tracker already posted stays where it is */
    if (ch != NULL && ch->msg_id == 0 && !ch->busy)
        ch->where = thread;
}

uint64_t tracker_message_id(struct tracker *t, uint64_t channel)
{
    if (t == NULL)
        return 0;
    struct tchan *ch = find(t, channel, false);
    if (ch != NULL)
        return ch->msg_id;
    char key[STORE_MAX_KV_KEY], *v = NULL;
    uint64_t id = 0;
    kv_key(key, sizeof key, channel);
    if (store_kv_get(t->o.store, key, &v) == BOT_OK) {
        v[strcspn(v, " ")] = '\0';
        if (!snowflake_parse(v, &id))
            id = 0;
    }
    free(v);
    return id;
}

void tracker_flush(struct tracker *t)
{
    if (t == NULL || t->o.ctx == NULL)
        return;
    t->flushing = true;
    struct tchan *ch = t->list;
    while (ch != NULL) {
        struct tchan *next = ch->next;   /* step() may forget ch */
        if (ch->timer) {
            lws_sul_cancel(&ch->sul);
            ch->timer = false;
        }
        step(ch);
        ch = next;
    }
}
