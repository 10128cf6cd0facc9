/*
 * fake_ix_util.h - helpers of the tests that drive fake-discord straight
 * over HTTP as a bot would (test_fake_v2.c, test_fake_forms.c,
 * test_fake_installs.c): readable JSON, one request with its expected
 * status and violation, a fake with loose rate limits, and interactions
 * taken from a raw gateway session. Header-only (static inline).
 */
#ifndef FAKE_IX_UTIL_H
#define FAKE_IX_UTIL_H

#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_client.h"
#include "fake_ws.h"

#define WAIT_MS 8000
#define CHAN    "/channels/1100000000000000200/messages"

/* JSON written with ' for " (the cases stay readable); at most 16 KiB. */
static inline const char *q(const char *text)
{
    static char buf[4][16384];
    static int turn;
    char *out = buf[turn++ % 4];
    snprintf(out, sizeof buf[0], "%s", text);
    for (char *p = out; *p; p++)
        if (*p == '\'')
            *p = '"';
    return out;
}

/* Send body; the answer must have status want, and when kind is not
 * NULL, one more violation of that kind and the 50035 error shape. */
static inline json_t *expect(int port, const char *method,
                             const char *path, const char *body, int want,
                             const char *kind)
{
    int st = 0;
    long long before = kind ? fake_violations_of(port, kind) : 0;
    json_t *j = fake_rest(port, NULL, method, path, body, &st);
    if (st != want) {
        char *d = j ? json_dumps(j, JSON_COMPACT) : NULL;
        fail_msg("%s %s %s: status %d, want %d (%s)", method, path,
                 body ? body : "(no body)", st, want, d ? d : "");
    }
    if (kind != NULL) {
        if (fake_violations_of(port, kind) != before + 1) {
            json_t *v = fake_get_json(port, "/_test/violations", NULL);
            char *d = json_dumps(json_object_get(v, "by_kind"), 0);
            fail_msg("%s: no %s violation (%s)", body, kind, d);
        }
        assert_int_equal(json_integer_value(json_object_get(j, "code")),
                         50035);
    }
    return j;
}

#define AM "'allowed_mentions':{'parse':[]}"

/* A fake whose rate limits stay out of the way of many requests. */
static inline void start(struct fake_proc *fp)
{
    static const char *const classes[] = {
        "msg_create", "msg_edit", "webhook_post", "webhook_patch",
        "callback", "commands_put",
    };
    assert_int_equal(fake_server_start(fp, NULL), 0);
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        char body[128];
        int st = 0;
        snprintf(body, sizeof body, "{\"class\":\"%s\",\"limit\":1000,"
                 "\"window_ms\":1000,\"global_limit\":1000}", classes[i]);
        json_decref(fake_post_json(fp->port, "/_test/ratelimit", body, &st));
        assert_int_equal(st, 200);
    }
}

/* Inject desc and take its INTERACTION_CREATE's d from w (new). */
static inline json_t *inject(struct fake_ws *w, int port,
                             const char *desc)
{
    json_t *r = fake_inject(port, desc), *ev, *d;
    if (r == NULL)
        fail_msg("fake refused %s", desc);
    json_decref(r);
    ev = fake_ws_expect(w, 0, "INTERACTION_CREATE", WAIT_MS);
    assert_non_null(ev);
    d = json_incref(json_object_get(ev, "d"));
    return d;
}

static inline void ix_path(char *buf, size_t cap, const json_t *d,
                           const char *tail)
{
    snprintf(buf, cap, "/interactions/%s/%s/%s",
             json_string_value(json_object_get(d, "id")),
             json_string_value(json_object_get(d, "token")), tail);
}

static inline void hook_path(char *buf, size_t cap, const json_t *d,
                      const char *tail)
{
    snprintf(buf, cap, "/webhooks/1100000000000000001/%s%s",
             json_string_value(json_object_get(d, "token")), tail);
}

/* A fake (loose rate limits) and a raw gateway session on it. */
static inline void session(struct fake_proc *fp, struct fake_ws *w)
{
    start(fp);
    assert_int_equal(fake_ws_init(w), 0);
    assert_non_null(fake_ws_session(w, fp->port, "fake-token", WAIT_MS));
}

static inline void done(struct fake_proc *fp, struct fake_ws *w)
{
    assert_true(fake_ws_close(w, 1000, WAIT_MS));
    fake_ws_free(w);
    fake_server_stop(fp);
}

static inline const char *id_of(const json_t *m)
{
    return json_string_value(json_object_get(m, "id"));
}

#endif
