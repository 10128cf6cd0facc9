/*
 * fake_threads.c - public threads as Discord makes them, and the bot's
 * permissions per channel (fake.h).
 *
 * A thread is a channel object (type 11) with a parent_id and
 * thread_metadata. Creating one needs Create Public Threads in the parent
 * (403 50013 Missing Permissions otherwise, as Discord answers), and
 * posting in one needs Send Messages in Threads; a thread deleted by hand
 * answers every later request with 404 10003 Unknown Channel.
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fake_chan_perms(struct fake_server *s, const char *channel)
{
    json_t *t = fake_thread(s, channel);
    const char *parent = json_string_value(json_object_get(t, "parent_id"));
    const char *p = json_string_value(json_object_get(
        s->chan_perms, parent != NULL ? parent : channel));
    return p != NULL ? p : FAKE_DEFAULT_PERMS;
}

static bool has_perm(struct fake_server *s, const char *channel,
                     unsigned long long bit)
{
    return (strtoull(fake_chan_perms(s, channel), NULL, 10) & bit) != 0;
}

json_t *fake_thread(struct fake_server *s, const char *id)
{
    return id != NULL ? json_object_get(s->threads, id) : NULL;
}

bool fake_channel_gone(struct fake_server *s, const char *channel)
{
    return json_is_true(json_object_get(fake_thread(s, channel), "deleted"));
}

static bool duration_ok(json_int_t d)
{
    return d == 60 || d == 1440 || d == 4320 || d == 10080;
}

void fake_thread_create(struct fake_server *s, struct fake_http_req *r,
                        const char *parent, const json_t *body)
{
    const char *name = json_string_value(json_object_get(body, "name"));
    const json_t *type = json_object_get(body, "type");
    const json_t *dur = json_object_get(body, "auto_archive_duration");
    json_t *errs = json_object();
    if (name == NULL || fake_utf8_len(name) < 1 ||
        fake_utf8_len(name) > FAKE_THREAD_NAME_MAX)
        fake_err_add(errs, "name", "BASE_TYPE_BAD_LENGTH",
                     "Must be between 1 and 100 in length.");
    if (type != NULL && json_integer_value(type) != 11 &&
        json_integer_value(type) != 12)
        fake_err_add(errs, "type", "BASE_TYPE_CHOICES",
                     "Value must be one of {10, 11, 12}.");
    if (dur != NULL && !duration_ok(json_integer_value(dur)))
        fake_err_add(errs, "auto_archive_duration", "BASE_TYPE_CHOICES",
                     "Value must be one of {60, 1440, 4320, 10080}.");
    if (json_object_size(errs) > 0) {
        fake_violation(s, "invalid_form_body", r->rec, "thread: bad body");
        fake_reply_json(r, 400, fake_form_error(errs));
        return;
    }
    json_decref(errs);
    if (fake_thread(s, parent) != NULL) {
        fake_reply_error(r, 400, 50024,
                         "Cannot execute action on this channel type");
        return;
    }
    if (!has_perm(s, parent, FAKE_PERM_CREATE_PUBLIC_THREADS)) {
        fake_reply_error(r, 403, 50013, "Missing Permissions");
        return;
    }
    char id[24];
    fake_snowflake(s, id);
    json_t *t = json_pack(
        "{s:s,s:i,s:s,s:s,s:s,s:s,s:i,s:i,s:{s:b,s:i,s:b}}", "id", id, "type",
        type != NULL ? (int)json_integer_value(type) : 11, "guild_id",
        s->opt.guild_id, "parent_id", parent, "name", name, "owner_id",
        s->opt.app_id, "message_count", 0, "member_count", 1,
        "thread_metadata", "archived", 0, "auto_archive_duration",
        dur != NULL ? (int)json_integer_value(dur) : 4320, "locked", 0);
    json_object_set(s->threads, id, t);
    fake_reply_json(r, 201, t);
}

void fake_channel_modify(struct fake_server *s, struct fake_http_req *r,
                         const char *id, const json_t *body)
{
    json_t *t = fake_thread(s, id);
    if (t == NULL || fake_channel_gone(s, id)) {
        fake_reply_error(r, 404, FAKE_UNKNOWN_CHANNEL, "Unknown Channel");
        return;
    }
    if (r->method == LWSHUMETH_DELETE) {
        json_object_set_new(t, "deleted", json_true());
        fake_reply_json(r, 200, json_incref(t));
        return;
    }
    const json_t *a = json_object_get(body, "archived");
    if (a != NULL && !json_is_boolean(a)) {
        json_t *errs = json_object();
        fake_err_add(errs, "archived", "BASE_TYPE_BAD", "Must be a boolean.");
        fake_reply_json(r, 400, fake_form_error(errs));
        return;
    }
    if (a != NULL)
        json_object_set_new(json_object_get(t, "thread_metadata"),
                            "archived", json_boolean(json_is_true(a)));
    fake_reply_json(r, 200, json_incref(t));
}

const char *fake_thread_control(struct fake_server *s, const json_t *body)
{
    const char *del = json_string_value(json_object_get(body, "delete"));
    const json_t *perms = json_object_get(body, "perms");
    if (del != NULL) {
        json_t *t = fake_thread(s, del);
        if (t == NULL)
            return "no such thread";
        json_object_set_new(t, "deleted", json_true());
        return NULL;
    }
    if (perms != NULL) {
        const char *ch = json_string_value(json_object_get(perms,
                                                           "channel_id"));
        const char *p = json_string_value(json_object_get(perms,
                                                          "permissions"));
        if (ch == NULL || p == NULL)
            return "perms needs channel_id and permissions";
        json_object_set_new(s->chan_perms, ch, json_string(p));
        return NULL;
    }
    return "give delete or perms";
}
