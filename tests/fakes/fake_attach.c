/*
 * fake_attach.c - Discord's attachment host (cdn.discordapp.com) on the
 * fake's own port: files a test registers, served under /attachments/,
 * put into an interaction's data.resolved.attachments when an ATTACHMENT
 * option (type 11) names them. Each download is recorded with the headers
 * that came with it, so a test can check that fray sent no token there.
 *
 * A file's "mode" makes its host misbehave: "ok"; "redirect" (302 to
 * another fake file, recorded if followed); "slow" (answers after
 * FAKE_ATT_HOLD_MS, or when the test posts /_test/attachment_release:
 * a download in flight for as long as a test needs, with no timing);
 * "huge" (FAKE_ATT_HUGE bytes whatever the declared
 * size); "wrong_type" (served as text/html); "status" (404).
 * "size" overrides the declared size in resolved (a lie either way).
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_ATT_PREFIX  "/attachments/"
#define FAKE_ATT_HOLD_MS 60000            /* a held download's cap */
#define FAKE_ATT_HUGE    (1024 * 1024)    /* 4x fray's 256 KB limit */
#define FAKE_ATT_MAX     64               /* files one test registers */

static const char *const fake_att_modes[] = {
    "ok", "redirect", "slow", "huge", "wrong_type", "status",
};

bool fake_att_path(const char *path)
{
    return strncmp(path, FAKE_ATT_PREFIX, strlen(FAKE_ATT_PREFIX)) == 0;
}

/* POST /_test/attachment {filename, content, content_type?, size?, mode?}
 * -> the attachment object Discord would resolve (new). */
json_t *fake_att_add(struct fake_server *s, const json_t *body,
                     const char **err)
{
    const char *name = json_string_value(json_object_get(body, "filename"));
    const char *content = json_string_value(json_object_get(body,
                                                            "content"));
    const char *ctype = json_string_value(json_object_get(body,
                                                          "content_type"));
    const char *mode = json_string_value(json_object_get(body, "mode"));
    json_t *size = json_object_get(body, "size");
    char id[24], url[256];
    bool known = mode == NULL;

    for (size_t i = 0; !known && i < sizeof fake_att_modes /
                                         sizeof fake_att_modes[0]; i++)
        known = strcmp(mode, fake_att_modes[i]) == 0;
    if (name == NULL || content == NULL || strchr(name, '/') ||
        strlen(name) > 100) {
        *err = "need filename (no '/', 100 bytes at most) and content";
        return NULL;
    }
    if (!known) {
        *err = "mode is one of ok, redirect, slow, huge, wrong_type, status";
        return NULL;
    }
    if (json_object_size(s->attachments) >= FAKE_ATT_MAX) {
        *err = "too many attachments";
        return NULL;
    }
    fake_snowflake(s, id);
    snprintf(url, sizeof url, "http://127.0.0.1:%d" FAKE_ATT_PREFIX
             "%s/%s/%s", s->port, s->opt.channel_id ? s->opt.channel_id
                                                    : "1",
             id, name);
    json_t *a = json_pack("{s:s,s:s,s:s,s:s,s:I}", "id", id, "filename",
                          name, "url", url, "proxy_url", url, "size",
                          json_is_integer(size)
                              ? json_integer_value(size)
                              : (json_int_t)strlen(content));
    if (ctype)
        json_object_set_new(a, "content_type", json_string(ctype));
    json_object_set_new(s->attachments, id, json_pack(
        "{s:O,s:s,s:s}", "object", a, "content", content, "mode",
        mode ? mode : "ok"));
    return a;
}

/* The attachments of options of type 11, from what the test registered,
 * into resolved.attachments (options of subcommands too). */
void fake_att_resolve(struct fake_server *s, const json_t *opts,
                      json_t *resolved)
{
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o) {
        const char *v = json_string_value(json_object_get(o, "value"));
        json_t *f = v ? json_object_get(s->attachments, v) : NULL;
        fake_att_resolve(s, json_object_get(o, "options"), resolved);
        if (json_integer_value(json_object_get(o, "type")) != 11 || !f)
            continue;
        json_t *map = json_object_get(resolved, "attachments");
        if (map == NULL) {
            map = json_object();
            json_object_set_new(resolved, "attachments", map);
        }
        json_object_set_new(map, v, json_deep_copy(json_object_get(
                                        f, "object")));
    }
}

/* GET /attachments/<channel>/<id>/<name>: the file, as its mode says. */
void fake_att_serve(struct fake_server *s, struct fake_http_req *r)
{
    char id[24] = "";
    const char *p = r->path + strlen(FAKE_ATT_PREFIX), *slash;
    json_t *f = NULL;

    json_array_append_new(s->att_requests, json_pack(
        "{s:s,s:s,s:s,s:s,s:f}", "method", r->meth, "path", r->path,
        "authorization", r->auth, "user_agent", r->ua, "t_ms",
        fake_rel_ms(s, r->t_us)));
    slash = strchr(p, '/');
    if (slash && strcspn(slash + 1, "/") < sizeof id) {
        snprintf(id, sizeof id, "%.*s", (int)strcspn(slash + 1, "/"),
                 slash + 1);
        f = json_object_get(s->attachments, id);
    }
    if (f == NULL || r->method != LWSHUMETH_GET) {
        fake_reply_error(r, 404, 0, "404: Not Found");
        return;
    }
    const char *mode = json_string_value(json_object_get(f, "mode"));
    const char *content = json_string_value(json_object_get(f, "content"));
    const char *ctype = json_string_value(json_object_get(
        json_object_get(f, "object"), "content_type"));
    snprintf(r->resp_ctype, sizeof r->resp_ctype, "%s",
             ctype ? ctype : "application/octet-stream");
    if (strcmp(mode, "status") == 0) {
        fake_reply_error(r, 404, 0, "404: Not Found");
        return;
    }
    if (strcmp(mode, "redirect") == 0) {
        char to[80];
        snprintf(to, sizeof to, "http://127.0.0.1:%d" FAKE_ATT_PREFIX
                 "1/%s/followed", s->port, id);
        fake_add_header(r, "location", to);
        fake_reply_error(r, 302, 0, "302: Found");
        return;
    }
    r->status = 200;
    r->ready = true;
    if (strcmp(mode, "wrong_type") == 0)
        snprintf(r->resp_ctype, sizeof r->resp_ctype, "text/html");
    if (strcmp(mode, "huge") == 0) {
        r->resp = malloc(FAKE_ATT_HUGE);
        if (r->resp)
            memset(r->resp, ' ', FAKE_ATT_HUGE);
        r->resp_len = r->resp ? FAKE_ATT_HUGE : 0;
        return;
    }
    r->resp = strdup(content);
    r->resp_len = r->resp ? strlen(content) : 0;
    if (strcmp(mode, "slow") == 0) {
        for (int i = 0; i < FAKE_ATT_HELD_MAX; i++)
            if (s->att_held[i] == NULL) {
                s->att_held[i] = r;
                r->delay_ms = FAKE_ATT_HOLD_MS;
                break;
            }
    }
}

void fake_att_release(struct fake_server *s)
{
    for (int i = 0; i < FAKE_ATT_HELD_MAX; i++) {
        struct fake_http_req *r = s->att_held[i];
        if (r == NULL)
            continue;
        s->att_held[i] = NULL;
        lws_sul_cancel(&r->sul);
        r->delay_ms = 0;
        lws_callback_on_writable(r->wsi);
    }
}

void fake_att_forget(struct fake_server *s, const struct fake_http_req *r)
{
    for (int i = 0; i < FAKE_ATT_HELD_MAX; i++)
        if (s->att_held[i] == r)
            s->att_held[i] = NULL;
}

json_t *fake_att_requests_json(const struct fake_server *s)
{
    return json_pack("{s:O}", "requests", s->att_requests);
}

void fake_att_reset(struct fake_server *s)
{
    fake_att_release(s);
    json_object_clear(s->attachments);
    json_array_clear(s->att_requests);
}
