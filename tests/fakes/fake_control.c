/*
 * fake_control.c - the test control API under /_test/ (JSON in and out, no
 * auth, never recorded as REST traffic): inject interactions and dispatches,
 * read recorded requests, frames, callbacks, messages and statistics,
 * install faults and rate limits, run the load generator, reset.
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bad(struct fake_http_req *r, int status, const char *msg)
{
    fake_reply_json(r, status, json_pack("{s:s}", "error", msg));
}

static long since_arg(const struct fake_http_req *r)
{
    char v[24];
    if (fake_query_arg(r, "since", v, sizeof v) == NULL)
        return 0;
    return strtol(v, NULL, 10);
}

/* Records with seq > since, optionally filtered by method and path part. */
static json_t *slice(const struct fake_http_req *r, const json_t *arr)
{
    long since = since_arg(r);
    char meth[16], path[128];
    const char *fm = fake_query_arg(r, "method", meth, sizeof meth);
    const char *fp = fake_query_arg(r, "path", path, sizeof path);
    json_t *out = json_array();
    for (size_t i = since > 0 ? (size_t)since : 0; i < json_array_size(arr);
         i++) {
        json_t *rec = json_array_get(arr, i);
        const char *m = json_string_value(json_object_get(rec, "method"));
        const char *p = json_string_value(json_object_get(rec, "path"));
        if (fm && (m == NULL || strcmp(m, fm) != 0))
            continue;
        if (fp && (p == NULL || strstr(p, fp) == NULL))
            continue;
        json_array_append(out, rec);
    }
    return out;
}

static json_t *ix_json(const struct fake_server *s, const struct fake_ix *x)
{
    json_t *j = json_pack("{s:s,s:s,s:i,s:s,s:f,s:f,s:f,s:i,s:b,s:b}", "id",
                          x->id, "token", x->token, "type", x->type,
                          "channel_id", x->channel_id, "injected_ms",
                          fake_rel_ms(s, x->t_inject_us), "dispatched_ms",
                          fake_rel_ms(s, x->t_dispatch_us), "callback_ms",
                          fake_rel_ms(s, x->t_callback_us), "callbacks",
                          x->callbacks, "missed", x->missed, "load", x->load);
    if (x->t_dispatch_us && x->t_callback_us)
        json_object_set_new(j, "latency_ms", json_real(
            (double)(x->t_callback_us - x->t_dispatch_us) / 1000.0));
    if (x->callback)
        json_object_set(j, "body", x->callback);
    if (x->orig_msg[0])
        json_object_set_new(j, "original_message_id",
                            json_string(x->orig_msg));
    json_object_set_new(j, "followups", json_integer(x->followups));
    json_object_set_new(j, "user_install_only", json_boolean(x->user_only));
    return j;
}

static json_t *stats_json(const struct fake_server *s)
{
    const struct fake_stats *t = &s->st;
    long answered = 0, pending = 0;
    for (size_t i = 0; i < s->nix; i++) {
        answered += s->ix[i].callback != NULL;
        pending += s->ix[i].callback == NULL && !s->ix[i].missed;
    }
    json_t *j = json_pack(
        "{s:f,s:i,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:i}",
        "now_ms", fake_rel_ms(s, fake_now_us()), "port", s->port,
        "connections", (json_int_t)t->connections, "identifies",
        (json_int_t)t->identifies, "resumes", (json_int_t)t->resumes,
        "resumes_ok", (json_int_t)t->resumes_ok, "resumes_failed",
        (json_int_t)t->resumes_failed, "resumes_on_resume_url",
        (json_int_t)t->resumes_on_resume_url, "heartbeats",
        (json_int_t)t->heartbeats, "acks", (json_int_t)t->acks,
        "acks_skipped", (json_int_t)t->acks_skipped, "frames_in",
        (json_int_t)t->frames_in, "dispatches", (json_int_t)t->dispatches,
        "server_closes", (json_int_t)t->server_closes, "client_closes",
        (json_int_t)t->client_closes, "last_client_close",
        t->last_client_close);
    json_t *more = json_pack(
        "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:O,s:o,s:o,s:o}",
        "injected", (json_int_t)t->injected, "callbacks",
        (json_int_t)t->callbacks, "callbacks_rejected",
        (json_int_t)t->callbacks_rejected, "answered", (json_int_t)answered,
        "pending", (json_int_t)pending, "rest_requests",
        (json_int_t)t->rest_requests, "rest_429", (json_int_t)t->rest_429,
        "rest_5xx", (json_int_t)t->rest_5xx, "command_puts",
        (json_int_t)s->command_puts, "violations",
        (json_int_t)json_array_size(s->violations), "violations_by_kind",
        s->vcounts, "latency_ms", fake_latency_json(s), "load",
        fake_load_json(s), "gateway", fake_gw_stats(s));
    json_object_update(j, more);
    json_object_update(j, json_object_get(more, "gateway"));
    json_decref(more);
    /* CLOCK_MONOTONIC at the fake's time zero: a benchmark in another
     * process adds it to any *_ms to compare with its own clock. */
    json_object_set_new(j, "t0_monotonic_ms",
                        json_real((double)s->t0_us / 1000.0));
    return j;
}

void fake_state_reset(struct fake_server *s)
{
    fake_gw_forget_ix(s);
    fake_ix_reset(s);
    json_array_clear(s->requests);
    json_array_clear(s->frames);
    json_array_clear(s->violations);
    json_object_clear(s->vcounts);
    json_object_clear(s->messages);
    json_object_clear(s->commands);
    json_object_clear(s->threads);
    json_object_clear(s->chan_perms);
    json_object_clear(s->foreign);
    json_object_clear(s->msg_cids);
    s->command_puts = 0;
    fake_att_reset(s);
    fake_rl_reset(s);
    memset(&s->st, 0, sizeof s->st);
    s->zombie = false;
    s->zombie_skip = 0;
    s->session_remaining = s->opt.session_total;
    s->last_identify_us = 0;
    memset(s->bucket_identify_us, 0, sizeof s->bucket_identify_us);
    json_decref(s->hello_iv);
    s->hello_iv = NULL;
}

/* Dispatch interaction d (steals), record ix, as body's shard and patch
 * say, and answer with its id, token, sequence and delivery. */
static void dispatch_built(struct fake_server *s, struct fake_http_req *r,
                           const json_t *body, json_t *d, long ix)
{
    json_t *out = json_pack("{s:O,s:O,s:O,s:O?}", "id",
                            json_object_get(d, "id"), "token",
                            json_object_get(d, "token"), "application_id",
                            json_object_get(d, "application_id"),
                            "channel_id", json_object_get(d, "channel_id"));
    bool live = false;
    s->dispatch_patch = json_object_get(body, "patch");
    int64_t seq = fake_gw_dispatch_routed(s, json_object_get(body, "shard"),
                                          "INTERACTION_CREATE", d, ix, &live);
    s->dispatch_patch = NULL;
    if (seq < 0) {
        json_decref(out);
        bad(r, 409, "no gateway session for that shard");
        return;
    }
    json_object_set_new(out, "seq", json_integer(seq));
    json_object_set_new(out, "delivered", json_boolean(live));
    fake_reply_json(r, 200, out);
}

static void c_interaction(struct fake_server *s, struct fake_http_req *r,
                          json_t *body)
{
    if (s->current == NULL || !s->current->alive) {
        bad(r, 409, "no gateway session (wait for READY)");
        return;
    }
    const char *err = "bad interaction description";
    long ix = -1;
    json_t *d = json_is_object(body) ? fake_ix_build(s, body, &ix, &err)
                                     : NULL;
    if (d == NULL) {
        bad(r, 400, err);
        return;
    }
    dispatch_built(s, r, body, d, ix);
}

/* POST /_test/modal_submit {"interaction", "values", "force"?, "shard"?}:
 * the MODAL_SUBMIT answering the modal that interaction opened. */
static void c_modal_submit(struct fake_server *s, struct fake_http_req *r,
                           json_t *body)
{
    if (s->current == NULL || !s->current->alive) {
        bad(r, 409, "no gateway session (wait for READY)");
        return;
    }
    const char *err = "bad modal submit";
    int status = 400;
    long ix = -1;
    json_t *d = json_is_object(body)
                    ? fake_modal_submit_build(s, body, &ix, &status, &err)
                    : NULL;
    if (d == NULL) {
        bad(r, status, err);
        return;
    }
    dispatch_built(s, r, body, d, ix);
}

static void c_fault(struct fake_server *s, struct fake_http_req *r,
                    json_t *body)
{
    const char *kind = json_string_value(json_object_get(body, "kind"));
    const char *err = "fault needs a kind";
    int rc = -1;
    if (kind && (strcmp(kind, "rest") == 0 || strcmp(kind, "delay") == 0))
        rc = fake_fault_add(s, body, &err);
    else if (kind)
        rc = fake_gw_fault(s, body, &err);
    if (rc)
        bad(r, strcmp(err, "no live gateway connection") == 0 ? 409 : 400,
            err);
    else
        fake_reply_json(r, 200, json_pack("{s:b}", "ok", 1));
}

static void c_config(struct fake_server *s, struct fake_http_req *r,
                     json_t *body)
{
    json_t *v;
    if ((v = json_object_get(body, "heartbeat_ms")) &&
        json_integer_value(v) > 0)
        s->opt.heartbeat_ms = (int)json_integer_value(v);
    if ((v = json_object_get(body, "hb_timeout")))
        s->opt.hb_timeout = json_is_true(v);
    if ((v = json_object_get(body, "identify_gap_ms")) &&
        json_integer_value(v) >= 0)
        s->opt.identify_gap_ms = (int)json_integer_value(v);
    if ((v = json_object_get(body, "session_remaining")))
        s->session_remaining = (int)json_integer_value(v);
    fake_gw_shard_config(s, body);
    if ((v = json_object_get(body, "hello_heartbeat_interval"))) {
        json_decref(s->hello_iv);     /* null: back to heartbeat_ms */
        s->hello_iv = json_is_null(v) ? NULL : json_incref(v);
    }
    fake_reply_json(r, 200, json_pack(
        "{s:i,s:b,s:i,s:i}", "heartbeat_ms", s->opt.heartbeat_ms,
        "hb_timeout", s->opt.hb_timeout, "identify_gap_ms",
        s->opt.identify_gap_ms, "session_remaining", s->session_remaining));
}

static void c_messages(struct fake_server *s, struct fake_http_req *r)
{
    char ch[32];
    const char *want = fake_query_arg(r, "channel_id", ch, sizeof ch);
    json_t *out = json_array();
    const char *id;
    json_t *m;
    json_object_foreach(s->messages, id, m) {
        const char *c = json_string_value(json_object_get(m, "channel_id"));
        if (want == NULL || (c && strcmp(c, want) == 0))
            json_array_append(out, m);
    }
    fake_reply_json(r, 200, out);
}

void fake_control_handle(struct fake_server *s, struct fake_http_req *r)
{
    const char *p = r->path + strlen(FAKE_TEST_PREFIX);
    bool get = r->method == LWSHUMETH_GET;
    bool post = r->method == LWSHUMETH_POST;
    json_t *body = fake_req_json(r);
    if (post && r->body_len && body == NULL) {
        bad(r, 400, "body is not JSON");
        return;
    }

    if (post && strcmp(p, "interaction") == 0) {
        c_interaction(s, r, body);
    } else if (post && strcmp(p, "modal_submit") == 0) {
        c_modal_submit(s, r, body);
    } else if (post && strcmp(p, "dispatch") == 0) {
        const char *t = json_string_value(json_object_get(body, "t"));
        json_t *d = json_object_get(body, "d");
        if (t == NULL || d == NULL)
            bad(r, 400, "need t and d");
        else
            fake_reply_json(r, 200, json_pack(
                "{s:I}", "seq",
                (json_int_t)fake_gw_dispatch(s, t, json_incref(d), -1)));
    } else if (get && strncmp(p, "callbacks/", 10) == 0) {
        struct fake_ix *x = fake_ix_find(s, p + 10);
        if (x == NULL)
            bad(r, 404, "unknown interaction");
        else if (x->callback == NULL)
            bad(r, 404, "no callback yet");
        else
            fake_reply_json(r, 200, ix_json(s, x));
    } else if (get && strncmp(p, "interactions/", 13) == 0) {
        struct fake_ix *x = fake_ix_find(s, p + 13);
        if (x == NULL)
            bad(r, 404, "unknown interaction");
        else
            fake_reply_json(r, 200, ix_json(s, x));
    } else if (get && strcmp(p, "requests") == 0) {
        fake_reply_json(r, 200, json_pack(
            "{s:I,s:o}", "last", (json_int_t)json_array_size(s->requests),
            "requests", slice(r, s->requests)));
    } else if (get && strcmp(p, "frames") == 0) {
        fake_reply_json(r, 200, json_pack(
            "{s:I,s:o}", "last", (json_int_t)json_array_size(s->frames),
            "frames", slice(r, s->frames)));
    } else if (get && strcmp(p, "connections") == 0) {
        fake_reply_json(r, 200, json_deep_copy(s->conn_log));
    } else if (get && strcmp(p, "violations") == 0) {
        fake_reply_json(r, 200, json_pack(
            "{s:I,s:O,s:o}", "count",
            (json_int_t)json_array_size(s->violations), "by_kind", s->vcounts,
            "list", slice(r, s->violations)));
    } else if (get && strcmp(p, "messages") == 0) {
        c_messages(s, r);
    } else if (get && strcmp(p, "commands") == 0) {
        fake_reply_json(r, 200, json_pack("{s:I,s:O}", "puts",
                                          (json_int_t)s->command_puts,
                                          "scopes", s->commands));
    } else if (get && strcmp(p, "shards") == 0) {
        fake_reply_json(r, 200, fake_gw_shards_json(s));
    } else if (get && strcmp(p, "stats") == 0) {
        fake_reply_json(r, 200, stats_json(s));
    } else if (post && strcmp(p, "attachment") == 0) {
        const char *err = NULL;
        json_t *a = fake_att_add(s, body, &err);
        if (a == NULL)
            bad(r, 400, err);
        else
            fake_reply_json(r, 200, a);
    } else if (post && strcmp(p, "attachment_release") == 0) {
        fake_att_release(s);
        fake_reply_json(r, 200, json_pack("{s:b}", "ok", 1));
    } else if (get && strcmp(p, "attachment_requests") == 0) {
        fake_reply_json(r, 200, fake_att_requests_json(s));
    } else if (strcmp(p, "threads") == 0 && (get || post)) {
        const char *err = post ? fake_thread_control(s, body) : NULL;
        if (err != NULL)
            bad(r, 400, err);
        else
            fake_reply_json(r, 200, json_incref(s->threads));
    } else if (post && strcmp(p, "fault") == 0) {
        c_fault(s, r, body);
    } else if (strcmp(p, "ratelimit") == 0 && (get || post)) {
        const char *err = NULL;
        if (post && fake_rl_configure(s, body, &err))
            bad(r, 400, err);
        else
            fake_reply_json(r, 200, fake_rl_json(s));
    } else if (post && strcmp(p, "config") == 0) {
        c_config(s, r, body);
    } else if (post && strcmp(p, "reset") == 0) {
        fake_state_reset(s);
        fake_reply_json(r, 200, json_pack("{s:b}", "ok", 1));
    } else if (post && strcmp(p, "load") == 0) {
        const char *err = NULL;
        if (fake_load_start(s, body, &err))
            bad(r, 409, err);
        else
            fake_reply_json(r, 200, fake_load_json(s));
    } else if (get && strcmp(p, "load") == 0) {
        fake_reply_json(r, 200, fake_load_json(s));
    } else {
        bad(r, 404, "unknown control endpoint");
    }
    json_decref(body);
}
