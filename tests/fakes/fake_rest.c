/*
 * fake_rest.c - the REST v10 routes the bot uses: gateway discovery,
 * interaction callbacks, interaction webhooks (followups and @original),
 * channel messages and pins, and command bulk overwrite. Every request is
 * recorded; each route goes through auth, rate limits and body validation
 * before its handler, like Discord's own front door. An app installed only
 * by its user has no Create Message in a server without its bot and 5
 * follow-ups per interaction; messages made in answer to an interaction
 * carry its interaction_metadata.
 */
#include "fake.h"
#include "fake_multipart.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_MAX_SEGS   10
#define FAKE_MAX_CAPS   4
#define FAKE_MSG_LOADING 128        /* message flag on a deferred reply */

struct route_ctx {
    struct fake_server *s;
    struct fake_http_req *r;
    const char *cap[FAKE_MAX_CAPS];
    int ncap;
    json_t *body;                   /* parsed request body (owned) */
};

typedef void route_fn(struct route_ctx *c);

struct route {
    const char *method;
    const char *pattern;            /* "{}" captures one segment */
    const char *cls;                /* rate-limit class */
    int major;                      /* capture index of the major id, -1 */
    bool token_auth;                /* URL token authorises; no Bot auth */
    route_fn *fn;
};

/* ---- helpers ---- */

static void iso_now(char *out, size_t cap)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[32];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out, cap, "%s.%06ld+00:00", base, ts.tv_nsec / 1000);
}

static json_t *bot_author(const struct fake_server *s)
{
    return json_pack("{s:s,s:s,s:s,s:n,s:n,s:b}", "id", s->opt.app_id,
                     "username", "fray", "discriminator", "0", "global_name",
                     "avatar", "bot", 1);
}

static json_t *copy_embeds(const json_t *embeds)
{
    json_t *out = json_array();
    size_t i;
    const json_t *e;
    json_array_foreach(embeds, i, e) {
        json_t *c = json_deep_copy(e);
        if (json_is_object(c) && !json_object_get(c, "type"))
            json_object_set_new(c, "type", json_string("rich"));
        json_array_append_new(out, c);
    }
    return out;
}

/* Apply the message fields of body onto m (create or PATCH). */
static void msg_apply(json_t *m, const json_t *body)
{
    const json_t *v = json_object_get(body, "content");
    if (v)
        json_object_set_new(m, "content",
                            json_string(json_is_string(v)
                                            ? json_string_value(v) : ""));
    if ((v = json_object_get(body, "embeds")))
        json_object_set_new(m, "embeds", copy_embeds(v));
    if ((v = json_object_get(body, "components")))
        json_object_set_new(m, "components",
                            json_is_array(v) ? json_deep_copy(v)
                                             : json_array());
    if ((v = json_object_get(body, "flags")) && json_is_integer(v))
        json_object_set_new(m, "flags", json_integer(json_integer_value(v)));
}

static json_t *msg_new(struct fake_server *s, const char *channel,
                       const json_t *body, int type, bool webhook)
{
    char id[24], ts[48];
    fake_snowflake(s, id);
    iso_now(ts, sizeof ts);
    json_t *m = json_pack(
        "{s:s,s:s,s:i,s:s,s:[],s:[],s:[],s:[],s:[],s:b,s:b,s:b,s:s,s:n,"
        "s:i,s:o}",
        "id", id, "channel_id", channel, "type", type, "content", "",
        "embeds", "components", "attachments", "mentions", "mention_roles",
        "mention_everyone", 0, "pinned", 0, "tts", 0, "timestamp", ts,
        "edited_timestamp", "flags", 0, "author", bot_author(s));
    if (webhook) {
        json_object_set_new(m, "webhook_id", json_string(s->opt.app_id));
        json_object_set_new(m, "application_id", json_string(s->opt.app_id));
    }
    if (body)
        msg_apply(m, body);
    json_object_set(s->messages, id, m);
    fake_msg_remember(s, m);
    return m;                       /* new reference for the caller */
}

static void msg_edited(struct fake_server *s, json_t *m, const json_t *body)
{
    char ts[48];
    iso_now(ts, sizeof ts);
    msg_apply(m, body);
    json_int_t flags = json_integer_value(json_object_get(m, "flags"));
    json_object_set_new(m, "flags", json_integer(flags & ~FAKE_MSG_LOADING));
    json_object_set_new(m, "edited_timestamp", json_string(ts));
    fake_msg_remember(s, m);
}

/* One violation per rule kinds names (kind -> path), else the generic
 * invalid_form_body: what a 400 50035 tells the test. */
static void form_violations(struct fake_server *s, long rec,
                            const char *where, json_t *errs,
                            const json_t *kinds)
{
    const char *kind;
    json_t *path;
    if (json_object_size(kinds) == 0) {
        char *d = fake_dump(errs);
        fake_violation(s, "invalid_form_body", rec, "%s: %.200s", where,
                       d ? d : "");
        free(d);
        return;
    }
    json_object_foreach((json_t *)kinds, kind, path)
        fake_violation(s, kind, rec, "%s: %s", where,
                       json_string_value(path));
}

/* Validate a message body (an edit of old when old is not NULL);
 * answers 400 and returns false when invalid. */
static bool body_ok(struct route_ctx *c, bool create, const char *where,
                    const json_t *old)
{
    if (!json_is_object(c->body)) {
        fake_violation(c->s, "invalid_json", c->r->rec, "%s: body is not a "
                       "JSON object", where);
        fake_reply_error(c->r, 400, 50109,
                         "The request body contains invalid JSON.");
        return false;
    }
    bool empty = false;
    json_t *kinds = json_object();
    json_t *errs = fake_validate_message_ex(c->body, old, create, &empty,
                                            kinds);
    if (errs) {
        form_violations(c->s, c->r->rec, where, errs, kinds);
        json_decref(kinds);
        fake_reply_json(c->r, 400, fake_form_error(errs));
        return false;
    }
    json_decref(kinds);
    if (empty) {
        fake_violation(c->s, "empty_message", c->r->rec, "%s", where);
        fake_reply_error(c->r, 400, 50006, "Cannot send an empty message");
        return false;
    }
    fake_check_mentions(c->s, c->body, c->r->rec, where);
    return true;
}

/* A message made in answer to x carries its interaction_metadata; a
 * follow-up also the id of the original response. */
static void set_metadata(json_t *m, const struct fake_ix *x,
                         const char *original)
{
    json_t *md = fake_ix_metadata(x);
    if (md == NULL)
        return;
    if (original != NULL && original[0])
        json_object_set_new(md, "original_response_message_id",
                            json_string(original));
    json_object_set_new(m, "interaction_metadata", md);
}

static void reply_message(struct route_ctx *c, json_t *m /* steals */)
{
    fake_reply_json(c->r, 200, m);
}

/* ---- gateway, users, applications ---- */

static void r_gateway(struct route_ctx *c)
{
    char url[64];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d", c->s->port);
    fake_reply_json(c->r, 200, json_pack("{s:s}", "url", url));
}

static void r_gateway_bot(struct route_ctx *c)
{
    char url[64];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d", c->s->port);
    fake_reply_json(c->r, 200, json_pack(
        "{s:s,s:i,s:{s:i,s:i,s:i,s:i}}", "url", url, "shards",
        c->s->shards < 1 ? 1 : c->s->shards, "session_start_limit", "total",
        c->s->opt.session_total, "remaining", c->s->session_remaining,
        "reset_after", 86400000, "max_concurrency",
        c->s->max_concurrency < 1 ? 1 : c->s->max_concurrency));
}

static void r_users_me(struct route_ctx *c)
{
    fake_reply_json(c->r, 200, bot_author(c->s));
}

static void r_app_me(struct route_ctx *c)
{
    fake_reply_json(c->r, 200, json_pack(
        "{s:s,s:s,s:s,s:b,s:b,s:i,s:o}", "id", c->s->opt.app_id, "name",
        "fray", "description", "", "bot_public", 1, "bot_require_code_grant",
        0, "flags", 0, "bot", bot_author(c->s)));
}

/* ---- interactions ---- */

static void r_callback(struct route_ctx *c)
{
    struct fake_server *s = c->s;
    struct fake_ix *x = fake_ix_find(s, c->cap[0]);
    s->st.callbacks++;
    if (x == NULL || strcmp(x->token, c->cap[1]) != 0 ||
        x->t_dispatch_us == 0) {
        s->st.callbacks_rejected++;
        fake_violation(s, "callback_unknown", c->r->rec,
                       "callback for unknown interaction %s", c->cap[0]);
        fake_reply_error(c->r, 404, 10062, "Unknown interaction");
        return;
    }
    x->callbacks++;
    if (x->callback) {
        s->st.callbacks_rejected++;
        /* delivered to several shards on purpose: each may answer; a
         * modal comes only as the first answer (after a defer, too late) */
        if (x->deliveries < x->callbacks)
            fake_violation(s, json_integer_value(json_object_get(
                                  c->body, "type")) == 9
                                  ? "modal_not_first" : "callback_double",
                           c->r->rec, "second callback for interaction %s",
                           x->id);
        fake_reply_error(c->r, 400, 40060,
                         "Interaction has already been acknowledged.");
        return;
    }
    /* Discord counts the 3 s from the interaction's creation (its id's
     * time), whenever it was written to the socket: one replayed on a
     * RESUME has used up part of it already. The request's arrival is
     * converted to the wall clock the id was stamped with. */
    int64_t age_ms = fake_wall_ms() - (fake_now_us() - c->r->t_us) / 1000 -
                     x->created_ms;
    if (age_ms > (int64_t)FAKE_IX_DEADLINE_MS) {
        s->st.callbacks_rejected++;
        x->missed = true;
        fake_violation(s, "callback_late", c->r->rec,
                       "callback for %s %lld ms after its creation (%.0f ms "
                       "after its first dispatch)", x->id, (long long)age_ms,
                       (double)(c->r->t_us - x->t_dispatch_us) / 1000.0);
        fake_reply_error(c->r, 404, 10062, "Unknown interaction");
        return;
    }
    bool empty = false;
    json_t *kinds = json_object();
    json_t *errs = fake_validate_callback_ex(
        c->body, x->type, x->orig_msg[0] ? json_object_get(s->messages,
                                                            x->orig_msg)
                                         : NULL, &empty, kinds);
    if (errs) {
        form_violations(s, c->r->rec, "callback", errs, kinds);
        json_decref(kinds);
        s->st.callbacks_rejected++;
        fake_reply_json(c->r, 400, fake_form_error(errs));
        return;
    }
    json_decref(kinds);
    if (empty) {
        fake_violation(s, "empty_message", c->r->rec, "callback type 4");
        s->st.callbacks_rejected++;
        fake_reply_error(c->r, 400, 50006, "Cannot send an empty message");
        return;
    }
    int t = (int)json_integer_value(json_object_get(c->body, "type"));
    const json_t *data = json_object_get(c->body, "data");
    if (t == 4 || t == 7)
        fake_check_mentions(s, data, c->r->rec, "interaction callback");
    x->callback = json_incref(c->body);
    x->cb_type = t;
    x->t_callback_us = c->r->t_us;
    json_t *m = NULL;
    if (t == 4 || t == 5) {
        m = msg_new(s, x->channel_id, t == 4 ? data : NULL, 20, true);
        set_metadata(m, x, NULL);
        if (t == 5)
            json_object_set_new(m, "flags", json_integer(
                FAKE_MSG_LOADING |
                (json_integer_value(json_object_get(data, "flags")) & 64)));
        snprintf(x->orig_msg, sizeof x->orig_msg, "%s",
                 json_string_value(json_object_get(m, "id")));
    } else if (t == 7 && x->orig_msg[0]) {
        json_t *orig = json_object_get(s->messages, x->orig_msg);
        if (orig) {
            msg_edited(s, orig, data);
            m = json_incref(orig);
        }
    }
    fake_ix_answered(s, x);
    char wr[8];
    if (fake_query_arg(c->r, "with_response", wr, sizeof wr) &&
        strcmp(wr, "true") == 0) {
        json_t *res = json_pack("{s:{s:s,s:i},s:{s:i}}", "interaction", "id",
                                x->id, "type", x->type, "resource", "type", t);
        if (m)
            json_object_set(json_object_get(res, "resource"), "message", m);
        fake_reply_json(c->r, 200, res);
    } else {
        fake_reply_json(c->r, 204, NULL);
    }
    json_decref(m);
}

/* Resolve the interaction behind /webhooks/{app}/{token}; answers on error. */
static struct fake_ix *webhook_ix(struct route_ctx *c)
{
    struct fake_server *s = c->s;
    struct fake_ix *x = fake_ix_find(s, c->cap[1]);
    if (strcmp(c->cap[0], s->opt.app_id) != 0 || x == NULL ||
        strcmp(x->token, c->cap[1]) != 0) {
        fake_violation(s, "webhook_unknown", c->r->rec, "unknown webhook %s",
                       c->cap[0]);
        fake_reply_error(c->r, 404, 10015, "Unknown Webhook");
        return NULL;
    }
    if (c->r->t_us - x->t_inject_us > (int64_t)FAKE_IX_TOKEN_TTL_MS * 1000) {
        fake_violation(s, "webhook_expired", c->r->rec, "token of %s expired",
                       x->id);
        fake_reply_error(c->r, 401, 50027, "Invalid Webhook Token");
        return NULL;
    }
    if (x->callback == NULL) {
        /* A GET changes nothing: it is how a bot asks whether an
         * interaction was acknowledged (by a process it replaced) */
        if (strcmp(c->r->meth, "GET") != 0)
            fake_violation(s, "webhook_before_ack", c->r->rec,
                           "webhook use before interaction %s was "
                           "acknowledged", x->id);
        fake_reply_error(c->r, 404, 10015, "Unknown Webhook");
        return NULL;
    }
    return x;
}

static void r_webhook_post(struct route_ctx *c)
{
    struct fake_ix *x = webhook_ix(c);
    if (x == NULL || !body_ok(c, true, "followup", NULL))
        return;
    /* a user-installed app: 5 follow-ups per interaction */
    if (x->user_only && x->followups >= FAKE_USER_FOLLOWUPS_MAX) {
        fake_violation(c->s, "user_followup_limit", c->r->rec, "follow-up "
                       "%d of interaction %s of a user install (limit %d)",
                       x->followups + 1, x->id, FAKE_USER_FOLLOWUPS_MAX);
        fake_reply_error(c->r, 400, 40094, "This interaction has hit the "
                         "maximum number of follow up messages");
        return;
    }
    x->followups++;
    json_t *orig = x->orig_msg[0] ? json_object_get(c->s->messages,
                                                    x->orig_msg) : NULL;
    /* Legacy quirk: the first followup after a type-5 defer edits the
     * loading message instead of creating one. */
    if (x->cb_type == 5 && orig &&
        (json_integer_value(json_object_get(orig, "flags")) &
         FAKE_MSG_LOADING)) {
        msg_edited(c->s, orig, c->body);
        reply_message(c, json_incref(orig));
        return;
    }
    json_t *m = msg_new(c->s, x->channel_id, c->body, 20, true);
    set_metadata(m, x, x->orig_msg);
    reply_message(c, m);
}

/* Modify/Delete Webhook with Token: an interaction token is not a real
 * webhook, so Discord knows no such webhook. */
static void r_webhook_self(struct route_ctx *c)
{
    struct fake_ix *x = webhook_ix(c);
    if (x == NULL)
        return;
    fake_violation(c->s, "webhook_unknown", c->r->rec,
                   "%s on the interaction webhook itself", c->r->meth);
    fake_reply_error(c->r, 404, 10015, "Unknown Webhook");
}

static json_t *webhook_msg(struct route_ctx *c, struct fake_ix *x)
{
    const char *mid = strcmp(c->cap[2], "@original") == 0 ? x->orig_msg
                                                          : c->cap[2];
    json_t *m = mid[0] ? json_object_get(c->s->messages, mid) : NULL;
    if (m == NULL)
        fake_reply_error(c->r, 404, 10008, "Unknown Message");
    return m;
}

static void r_webhook_msg(struct route_ctx *c)
{
    struct fake_ix *x = webhook_ix(c);
    if (x == NULL)
        return;
    json_t *m = webhook_msg(c, x);
    if (m == NULL)
        return;
    if (c->r->method == LWSHUMETH_GET) {
        reply_message(c, json_incref(m));
    } else if (c->r->method == LWSHUMETH_PATCH) {
        if (!body_ok(c, false, "webhook edit", m))
            return;
        msg_edited(c->s, m, c->body);
        reply_message(c, json_incref(m));
    } else {
        json_object_del(c->s->messages,
                        json_string_value(json_object_get(m, "id")));
        fake_reply_json(c->r, 204, NULL);
    }
}

/* ---- channels ---- */

/* A request to a channel that cannot take it: a deleted thread (404
 * 10003), or a thread where the bot may not send (403 50013). Answered
 * when true. */
static bool channel_refuses(struct route_ctx *c, bool send)
{
    /* a server the bot is not in (an app only installed by its user):
     * it answers through the interaction token, never in the channel */
    if (json_object_get(c->s->foreign, c->cap[0]) != NULL) {
        fake_violation(c->s, "user_install_channel", c->r->rec,
                       "%s %s: the bot is not a member of that server",
                       c->r->meth, c->r->path);
        fake_reply_error(c->r, 403, 50001, "Missing Access");
        return true;
    }
    if (fake_channel_gone(c->s, c->cap[0])) {
        fake_reply_error(c->r, 404, FAKE_UNKNOWN_CHANNEL, "Unknown Channel");
        return true;
    }
    if (send && fake_thread(c->s, c->cap[0]) != NULL &&
        !(strtoull(fake_chan_perms(c->s, c->cap[0]), NULL, 10) &
          FAKE_PERM_SEND_IN_THREADS)) {
        fake_reply_error(c->r, 403, 50013, "Missing Permissions");
        return true;
    }
    return false;
}

static void r_thread_create(struct route_ctx *c)
{
    fake_thread_create(c->s, c->r, c->cap[0], c->body);
}

static void r_channel(struct route_ctx *c)
{
    fake_channel_modify(c->s, c->r, c->cap[0], c->body);
}

static void r_msg_create(struct route_ctx *c)
{
    if (channel_refuses(c, true) ||
        !body_ok(c, true, "channel message", NULL))
        return;
    reply_message(c, msg_new(c->s, c->cap[0], c->body, 0, false));
}

static json_t *channel_msg(struct route_ctx *c, const char *mid)
{
    json_t *m = json_object_get(c->s->messages, mid);
    const char *ch = json_string_value(json_object_get(m, "channel_id"));
    if (m == NULL || ch == NULL || strcmp(ch, c->cap[0]) != 0) {
        fake_reply_error(c->r, 404, 10008, "Unknown Message");
        return NULL;
    }
    return m;
}

static void r_msg(struct route_ctx *c)
{
    if (channel_refuses(c, c->r->method == LWSHUMETH_PATCH))
        return;
    json_t *m = channel_msg(c, c->cap[1]);
    if (m == NULL)
        return;
    if (c->r->method == LWSHUMETH_GET) {
        reply_message(c, json_incref(m));
    } else if (c->r->method == LWSHUMETH_PATCH) {
        if (!body_ok(c, false, "channel message edit", m))
            return;
        msg_edited(c->s, m, c->body);
        reply_message(c, json_incref(m));
    } else {
        json_object_del(c->s->messages, c->cap[1]);
        fake_reply_json(c->r, 204, NULL);
    }
}

static void r_pin(struct route_ctx *c)
{
    if (channel_refuses(c, false))
        return;
    json_t *m = channel_msg(c, c->cap[1]);
    if (m == NULL)
        return;
    json_object_set_new(m, "pinned",
                        json_boolean(c->r->method == LWSHUMETH_PUT));
    fake_reply_json(c->r, 204, NULL);
}

static void r_pins_list(struct route_ctx *c)
{
    json_t *out = json_array();
    const char *id;
    json_t *m;
    json_object_foreach(c->s->messages, id, m) {
        const char *ch = json_string_value(json_object_get(m, "channel_id"));
        if (ch && strcmp(ch, c->cap[0]) == 0 &&
            json_is_true(json_object_get(m, "pinned")))
            json_array_append(out, m);
    }
    fake_reply_json(c->r, 200, out);
}

/* ---- commands ---- */

/* POST: create one command, an upsert by (name, type); 201 when new. */
static void command_upsert(struct route_ctx *c, const char *scope,
                           const char *guild)
{
    struct fake_server *s = c->s;
    json_t *one = json_pack("[O]", c->body);
    json_t *errs = json_is_object(c->body)
                       ? fake_validate_commands_scope(one, guild != NULL)
                       : NULL;
    json_decref(one);
    if (!json_is_object(c->body) || errs) {
        if (errs == NULL) {
            errs = json_object();
            fake_err_add(errs, "", "MODEL_TYPE_CONVERT",
                         "Only dictionaries may be used in a ModelType");
        }
        fake_violation(s, "invalid_commands", c->r->rec, "command POST");
        fake_reply_json(c->r, 400, fake_form_error(errs));
        return;
    }
    const char *name = json_string_value(json_object_get(c->body, "name"));
    json_int_t type = json_object_get(c->body, "type")
                          ? json_integer_value(json_object_get(c->body, "type"))
                          : 1;
    const json_t *cur = json_object_get(s->commands, scope);
    json_t *all = cur ? json_deep_copy(cur) : json_array();
    json_t *mine = json_deep_copy(c->body);
    size_t i, at = json_array_size(all);
    json_t *o;
    json_array_foreach(all, i, o)
        if (strcmp(json_string_value(json_object_get(o, "name")), name) == 0 &&
            json_integer_value(json_object_get(o, "type")) == type) {
            json_object_set(mine, "id", json_object_get(o, "id"));
            at = i;
        }
    bool created = at == json_array_size(all);
    if (created)
        json_array_append_new(all, mine);
    else
        json_array_set_new(all, at, mine);
    errs = fake_validate_commands_scope(all, guild != NULL);
    if (errs) {
        fake_violation(s, "invalid_commands", c->r->rec, "command POST: "
                       "too many or duplicate commands");
        fake_reply_json(c->r, 400, fake_form_error(errs));
        json_decref(all);
        return;
    }
    json_t *stored = fake_commands_store(s, scope, all, guild);
    json_decref(all);
    fake_reply_json(c->r, created ? 201 : 200,
                    json_deep_copy(json_array_get(stored, at)));
}

static void r_commands(struct route_ctx *c)
{
    struct fake_server *s = c->s;
    if (strcmp(c->cap[0], s->opt.app_id) != 0) {
        fake_reply_error(c->r, 403, 50001, "Missing Access");
        return;
    }
    const char *guild = c->ncap > 1 ? c->cap[1] : NULL;
    const char *scope = guild ? guild : "global";
    if (c->r->method == LWSHUMETH_GET) {
        json_t *cur = json_object_get(s->commands, scope);
        fake_reply_json(c->r, 200, cur ? json_deep_copy(cur) : json_array());
        return;
    }
    if (c->r->method == LWSHUMETH_POST) {
        command_upsert(c, scope, guild);
        return;
    }
    if (!json_is_array(c->body)) {
        fake_violation(s, "invalid_json", c->r->rec, "command PUT body is "
                       "not an array");
        fake_reply_error(c->r, 400, 50109,
                         "The request body contains invalid JSON.");
        return;
    }
    json_t *errs = fake_validate_commands_scope(c->body, guild != NULL);
    if (errs) {
        char *d = fake_dump(errs);
        fake_violation(s, "invalid_commands", c->r->rec, "%.200s",
                       d ? d : "");
        free(d);
        fake_reply_json(c->r, 400, fake_form_error(errs));
        return;
    }
    s->command_puts++;
    json_t *stored = fake_commands_store(s, scope, c->body, guild);
    fake_reply_json(c->r, 200, json_deep_copy(stored));
}

/* ---- routing ---- */

static const struct route fake_routes[] = {
    /* method, path, rate-limit class, major capture, token auth, handler */
    { "GET", "/gateway", "gateway_bot", -1, true, r_gateway },
    { "GET", "/gateway/bot", "gateway_bot", -1, false, r_gateway_bot },
    { "GET", "/users/@me", "me", -1, false, r_users_me },
    { "GET", "/applications/@me", "me", -1, false, r_app_me },
    { "GET", "/oauth2/applications/@me", "me", -1, false, r_app_me },
    { "POST", "/interactions/{}/{}/callback", "callback", 0, true, r_callback },
    { "POST", "/webhooks/{}/{}", "webhook_post", 1, true, r_webhook_post },
    { "PATCH", "/webhooks/{}/{}", "webhook_patch", 1, true,
      r_webhook_self },
    { "DELETE", "/webhooks/{}/{}", "webhook_delete", 1, true,
      r_webhook_self },
    { "GET", "/webhooks/{}/{}/messages/{}", "webhook_get", 1, true,
      r_webhook_msg },
    { "PATCH", "/webhooks/{}/{}/messages/{}", "webhook_patch", 1, true,
      r_webhook_msg },
    { "DELETE", "/webhooks/{}/{}/messages/{}", "webhook_delete", 1, true,
      r_webhook_msg },
    { "POST", "/channels/{}/messages", "msg_create", 0, false, r_msg_create },
    { "POST", "/channels/{}/threads", "thread_create", 0, false,
      r_thread_create },
    { "PATCH", "/channels/{}", "channel", 0, false, r_channel },
    { "DELETE", "/channels/{}", "channel", 0, false, r_channel },
    { "GET", "/channels/{}/messages/{}", "msg_get", 0, false, r_msg },
    { "PATCH", "/channels/{}/messages/{}", "msg_edit", 0, false, r_msg },
    { "DELETE", "/channels/{}/messages/{}", "msg_delete", 0, false, r_msg },
    { "GET", "/channels/{}/pins", "pins", 0, false, r_pins_list },
    { "PUT", "/channels/{}/pins/{}", "pins", 0, false, r_pin },
    { "DELETE", "/channels/{}/pins/{}", "pins", 0, false, r_pin },
    { "PUT", "/channels/{}/messages/pins/{}", "pins", 0, false, r_pin },
    { "DELETE", "/channels/{}/messages/pins/{}", "pins", 0, false, r_pin },
    { "GET", "/applications/{}/commands", "commands_get", -1, false,
      r_commands },
    { "PUT", "/applications/{}/commands", "commands_put", -1, false,
      r_commands },
    { "POST", "/applications/{}/commands", "commands_put", -1, false,
      r_commands },
    { "GET", "/applications/{}/guilds/{}/commands", "commands_get", -1, false,
      r_commands },
    { "PUT", "/applications/{}/guilds/{}/commands", "commands_put", -1, false,
      r_commands },
    { "POST", "/applications/{}/guilds/{}/commands", "commands_put", -1,
      false, r_commands },
};

/* Split "/a/b/c" in place into segments ("" segments are skipped). */
static int split(char *path, char **segs)
{
    int n = 0;
    char *p = path;
    while (*p && n < FAKE_MAX_SEGS) {
        while (*p == '/')
            *p++ = '\0';
        if (*p == '\0')
            break;
        segs[n++] = p;
        p += strcspn(p, "/");
    }
    return n;
}

static bool match(const char *pattern, char **segs, int nseg,
                  struct route_ctx *c)
{
    char pat[128];
    snprintf(pat, sizeof pat, "%s", pattern);
    char *ps[FAKE_MAX_SEGS];
    int np = split(pat, ps);
    if (np != nseg)
        return false;
    c->ncap = 0;
    for (int i = 0; i < np; i++) {
        if (strcmp(ps[i], "{}") == 0) {
            if (c->ncap < FAKE_MAX_CAPS)
                c->cap[c->ncap++] = segs[i];
        } else if (strcmp(ps[i], segs[i]) != 0) {
            return false;
        }
    }
    return true;
}

/* A multipart request's files, as the record keeps them for tests: each
 * part's field name, file name, type, size, and its bytes as a string when
 * they are UTF-8 text (null otherwise). */
static json_t *record_files(const struct fake_mp *mp)
{
    json_t *files = json_array();
    for (int i = 0; files != NULL && i < mp->nparts; i++) {
        const struct fake_mp_part *pt = &mp->parts[i];
        if (strcmp(pt->name, "payload_json") == 0)
            continue;
        json_t *text = json_stringn(pt->data, pt->len);
        json_array_append_new(files, json_pack(
            "{s:s,s:s,s:s,s:I,s:o}", "field", pt->name, "filename",
            pt->filename, "content_type", pt->type, "size",
            (json_int_t)pt->len, "content", text ? text : json_null()));
    }
    return files;
}

static void record(struct fake_server *s, struct fake_http_req *r,
                   bool auth_ok)
{
    if (json_array_size(s->requests) >= FAKE_MAX_RECORDS)
        return;
    json_t *body = fake_req_json(r), *files = NULL;
    struct fake_mp mp;
    if (body == NULL && r->body_len && fake_mp_is(r->ctype) &&
        fake_mp_parse(r->ctype, r->body, r->body_len, &mp) == NULL) {
        const struct fake_mp_part *pj = fake_mp_find(&mp, "payload_json");
        if (pj != NULL)
            body = json_loadb(pj->data, pj->len, 0, NULL);
        files = record_files(&mp);
    }
    if (body == NULL && r->body_len)
        body = json_stringn(r->body, r->body_len);
    json_t *rec = json_pack("{s:I,s:f,s:s,s:s,s:s,s:s,s:s,s:b,s:o}", "seq",
                            (json_int_t)json_array_size(s->requests) + 1,
                            "t_ms", fake_rel_ms(s, r->t_us), "method", r->meth,
                            "path", r->path, "query", r->query, "user_agent",
                            r->ua, "content_type", r->ctype, "auth_ok",
                            auth_ok, "body", body ? body : json_null());
    if (files != NULL)
        json_object_set_new(rec, "files", files);
    r->rec = (long)json_array_size(s->requests);
    json_array_append_new(s->requests, rec);
}

/* Discord's checks of a multipart body: well formed, a payload_json
 * part, each file within the attachment size limit and declared in the
 * payload's attachments (by the n of its files[n]), each declaration
 * matching a file. On success c->body is the payload; false when the
 * request was answered with an error. */

/* An attachment's id as Discord takes it: a number, or a string of
 * digits (its OpenAPI description's type); -1 for anything else. */
static long long attachment_id(const json_t *a)
{
    const json_t *id = json_object_get(a, "id");
    if (json_is_integer(id))
        return (long long)json_integer_value(id);
    const char *t = json_string_value(id);
    char *end = NULL;
    long long v = t != NULL && t[0] >= '0' && t[0] <= '9'
                  ? strtoll(t, &end, 10) : -1;
    return end != NULL && *end == '\0' ? v : -1;
}

static bool multipart_body(struct route_ctx *c)
{
    struct fake_server *s = c->s;
    struct fake_http_req *r = c->r;
    struct fake_mp mp;
    const char *why = fake_mp_parse(r->ctype, r->body, r->body_len, &mp);
    const struct fake_mp_part *pj = why ? NULL : fake_mp_find(&mp,
                                                              "payload_json");
    if (why == NULL && pj == NULL)
        why = "no payload_json part";
    if (why == NULL && (c->body = json_loadb(pj->data, pj->len, 0,
                                             NULL)) == NULL)
        why = "payload_json is not JSON";
    if (why != NULL) {
        fake_violation(s, "multipart", r->rec, "%s %s: %s", r->meth, r->path,
                       why);
        fake_reply_error(r, 400, 50035, "Invalid Form Body");
        return false;
    }
    /* the attachments array sits in the message: the body, or a
     * callback's data */
    const json_t *msg = json_object_get(c->body, "data");
    const json_t *list = json_object_get(msg ? msg : c->body, "attachments");
    for (int i = 0; i < mp.nparts; i++) {
        const struct fake_mp_part *pt = &mp.parts[i];
        int n = -1, used = 0;
        if (pt == pj)
            continue;
        if (sscanf(pt->name, "files[%d]%n", &n, &used) != 1 ||
            pt->name[used] != '\0' || n < 0 || n >= FAKE_MP_MAX_PARTS ||
            pt->filename[0] == '\0') {
            fake_violation(s, "multipart", r->rec, "%s %s: part \"%s\" is "
                           "not a file", r->meth, r->path, pt->name);
            fake_reply_error(r, 400, 50035, "Invalid Form Body");
            return false;
        }
        if (pt->len > FAKE_ATTACH_MAX) {
            fake_reply_error(r, 413, 40005, "Request entity too large");
            return false;
        }
        bool declared = false;
        size_t k;
        const json_t *a;
        json_array_foreach(list, k, a)
            declared |= attachment_id(a) == n;
        if (!declared)
            fake_violation(s, "attachment_undeclared", r->rec, "%s %s: "
                           "file %s (%s) is not in attachments", r->meth,
                           r->path, pt->name, pt->filename);
    }
    size_t k;
    const json_t *a;
    json_array_foreach(list, k, a) {
        char field[32];
        snprintf(field, sizeof field, "files[%lld]", attachment_id(a));
        if (fake_mp_find(&mp, field) == NULL) {
            fake_violation(s, "multipart", r->rec, "%s %s: attachment %s "
                           "has no file", r->meth, r->path, field);
            fake_reply_error(r, 400, 50035, "Invalid Form Body");
            return false;
        }
    }
    return true;
}

static void finish_record(struct fake_server *s, struct fake_http_req *r)
{
    json_t *rec = json_array_get(s->requests, (size_t)r->rec);
    if (rec == NULL)
        return;
    json_object_set_new(rec, "status", json_integer(r->status));
    if (r->delay_ms)
        json_object_set_new(rec, "delay_ms", json_integer(r->delay_ms));
    if (r->resp) {
        json_t *resp = json_loads(r->resp, JSON_DECODE_ANY, NULL);
        if (resp)
            json_object_set_new(rec, "response", resp);
    }
    for (int i = 0; i < r->nhdrs; i++)
        if (strcmp(r->hdrs[i].name, "x-ratelimit-remaining") == 0)
            json_object_set_new(rec, "ratelimit_remaining",
                                json_integer(strtol(r->hdrs[i].value, NULL,
                                                    10)));
}

static void route(struct fake_server *s, struct fake_http_req *r,
                  bool bot_auth)
{
    size_t plen = strlen(FAKE_API_PREFIX);
    if (strncmp(r->path, FAKE_API_PREFIX, plen) != 0) {
        fake_reply_error(r, 404, 0, "404: Not Found");
        return;
    }
    char buf[sizeof r->path];
    snprintf(buf, sizeof buf, "%s", r->path + plen);
    char *segs[FAKE_MAX_SEGS];
    int nseg = split(buf, segs);
    struct route_ctx c = { .s = s, .r = r };
    const struct route *hit = NULL;
    bool path_known = false;
    for (size_t i = 0; i < sizeof fake_routes / sizeof fake_routes[0]; i++) {
        if (!match(fake_routes[i].pattern, segs, nseg, &c))
            continue;
        path_known = true;
        if (strcmp(fake_routes[i].method, r->meth) == 0) {
            hit = &fake_routes[i];
            break;
        }
    }
    if (hit == NULL) {
        if (path_known)
            fake_reply_error(r, 405, 0, "405: Method Not Allowed");
        else
            fake_reply_error(r, 404, 0, "404: Not Found");
        return;
    }
    if (!hit->token_auth && !bot_auth) {
        fake_violation(s, "unauthorized", r->rec, "%s %s without a valid "
                       "Authorization: Bot header", r->meth, r->path);
        fake_reply_error(r, 401, 0, "401: Unauthorized");
        return;
    }
    char major[160] = "global";
    if (hit->major == 0 && c.ncap > 0)
        snprintf(major, sizeof major, "%s", c.cap[0]);
    else if (hit->major == 1 && c.ncap > 1)
        snprintf(major, sizeof major, "%s/%s", c.cap[0], c.cap[1]);
    if (fake_rl_admit(s, r, fake_rl_class(s, hit->cls), major))
        return;
    if (r->body_len && fake_mp_is(r->ctype)) {
        if (!multipart_body(&c))
            return;
        hit->fn(&c);
        json_decref(c.body);
        return;
    }
    if (r->body_len && strncmp(r->ctype, "application/json", 16) != 0) {
        json_t *errs = json_object();
        fake_err_add(errs, "", "CONTENT_TYPE_INVALID",
                     "Expected \"Content-Type\" header to be one of "
                     "{'application/json', 'multipart/form-data'}.");
        fake_violation(s, "content_type", r->rec, "%s %s: %s", r->meth,
                       r->path, r->ctype);
        fake_reply_json(r, 400, fake_form_error(errs));
        return;
    }
    c.body = fake_req_json(r);
    if (r->body_len && c.body == NULL) {
        fake_violation(s, "invalid_json", r->rec, "%s %s: body is not JSON",
                       r->meth, r->path);
        fake_reply_error(r, 400, 50109,
                         "The request body contains invalid JSON.");
        return;
    }
    hit->fn(&c);
    json_decref(c.body);
}

void fake_rest_handle(struct fake_server *s, struct fake_http_req *r)
{
    char want[300];
    snprintf(want, sizeof want, "Bot %s", s->opt.token);
    bool auth_ok = strcmp(r->auth, want) == 0;
    s->st.rest_requests++;
    record(s, r, auth_ok);
    if (strncmp(r->ua, "DiscordBot (", 12) != 0)
        fake_violation(s, "user_agent", r->rec, "%s %s: User-Agent \"%s\"",
                       r->meth, r->path, r->ua);
    route(s, r, auth_ok);
    finish_record(s, r);
}
