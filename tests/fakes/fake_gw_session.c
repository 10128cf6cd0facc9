/*
 * fake_gw_session.c - gateway sessions: creation, invalidation, the
 * sequence-numbered dispatch log kept for RESUME replay, dispatching to the
 * current session, and the test-injected gateway faults and statistics.
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fake_gw_session_invalidate(struct fake_server *s,
                                struct fake_session *ss)
{
    if (ss == NULL)
        return;
    ss->alive = false;
    if (s->current == ss)
        s->current = NULL;
}

static void session_free(struct fake_session *ss)
{
    if (ss == NULL)
        return;
    if (ss->conn)
        ss->conn->sess = NULL;
    for (size_t i = 0; i < ss->nrp; i++)
        free(ss->rp[i].text);
    free(ss->rp);
    free(ss);
}

struct fake_session *fake_gw_session_new(struct fake_server *s)
{
    int slot = -1;
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS && slot < 0; i++)
        if (s->sessions[i] == NULL)
            slot = i;
    if (slot < 0) {                 /* evict the oldest */
        slot = 0;
        for (int i = 1; i < FAKE_GW_MAX_SESSIONS; i++)
            if (s->sessions[i]->created_us < s->sessions[slot]->created_us)
                slot = i;
        if (s->current == s->sessions[slot])
            s->current = NULL;
        session_free(s->sessions[slot]);
        s->sessions[slot] = NULL;
    }
    struct fake_session *ss = calloc(1, sizeof *ss);
    if (ss == NULL)
        return NULL;
    fake_random_hex(s, ss->id, 32);
    ss->alive = true;
    ss->created_us = fake_now_us();
    s->sessions[slot] = ss;
    return ss;
}

struct fake_session *fake_gw_session_find(struct fake_server *s,
                                          const char *id)
{
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++)
        if (s->sessions[i] && strcmp(s->sessions[i]->id, id) == 0)
            return s->sessions[i];
    return NULL;
}

static void session_store(struct fake_session *ss, int64_t seq,
                          const char *text, long ix)
{
    if (ss->nrp == FAKE_GW_REPLAY_MAX) {
        ss->evicted_s = ss->rp[0].s;
        free(ss->rp[0].text);
        memmove(ss->rp, ss->rp + 1, (ss->nrp - 1) * sizeof *ss->rp);
        ss->nrp--;
    }
    if (ss->nrp == ss->caprp) {
        size_t cap = ss->caprp ? ss->caprp * 2 : 64;
        struct fake_replay *n = realloc(ss->rp, cap * sizeof *n);
        if (n == NULL)
            return;
        ss->rp = n;
        ss->caprp = cap;
    }
    char *copy = strdup(text);
    if (copy == NULL)
        return;
    ss->rp[ss->nrp++] = (struct fake_replay){ seq, ix, copy };
}

int64_t fake_gw_dispatch(struct fake_server *s, const char *t, json_t *d,
                         long ix)
{
    return fake_gw_dispatch_to(s, s->current, t, d, ix);
}

/* text with each [from, to] pair of patch replaced, every occurrence;
 * takes text, returns a new string (NULL on no memory). */
static char *patch_text(char *text, const json_t *patch)
{
    for (size_t i = 0; text != NULL && i < json_array_size(patch); i++) {
        const json_t *pair = json_array_get(patch, i);
        const char *from = json_string_value(json_array_get(pair, 0));
        const char *to = json_string_value(json_array_get(pair, 1));
        if (from == NULL || to == NULL || from[0] == '\0')
            continue;
        size_t nf = strlen(from), nt = strlen(to), count = 0;
        for (const char *p = strstr(text, from); p; p = strstr(p + nf, from))
            count++;
        if (count == 0)
            continue;
        size_t len = strlen(text);
        char *out = malloc(len + count * (nt > nf ? nt - nf : 0) + 1);
        if (out != NULL) {
            char *w = out;
            const char *r = text;
            for (const char *p = strstr(r, from); p; p = strstr(r, from)) {
                memcpy(w, r, (size_t)(p - r));
                w += p - r;
                memcpy(w, to, nt);
                w += nt;
                r = p + nf;
            }
            strcpy(w, r);
        }
        free(text);
        text = out;
    }
    return text;
}

int64_t fake_gw_dispatch_to(struct fake_server *s, struct fake_session *ss,
                            const char *t, json_t *d, long ix)
{
    if (ss == NULL || !ss->alive) {
        json_decref(d);
        return -1;
    }
    int64_t seq = ++ss->seq;
    json_t *j = json_pack("{s:i,s:I,s:s,s:o}", "op", 0, "s", (json_int_t)seq,
                          "t", t, "d", d);
    char *text = fake_dump(j);
    json_decref(j);
    if (text != NULL && s->dispatch_patch != NULL)
        text = patch_text(text, s->dispatch_patch);
    if (text == NULL)
        return -1;
    if (strcmp(t, "READY") != 0 && strcmp(t, "RESUMED") != 0)
        session_store(ss, seq, text, ix);
    if (ss->conn && ss->conn->state == FAKE_GW_READY)
        fake_gw_enqueue(ss->conn, text, ix);
    free(text);
    s->st.dispatches++;
    return seq;
}

bool fake_gw_ready(const struct fake_server *s)
{
    const struct fake_session *ss = s->current;
    return ss && ss->alive && ss->conn && ss->conn->state == FAKE_GW_READY;
}

void fake_gw_op7_close(lws_sorted_usec_list_t *sul)
{
    struct fake_gw_conn *c = lws_container_of(sul, struct fake_gw_conn,
                                              op7_sul);
    fake_gw_close(c, 4000, "Reconnect requested.", true);
}

/* The bytes of a raw fault: "text" as it is, or "hex" (any bytes, e.g.
 * invalid UTF-8, which a JSON control request cannot carry). New buffer
 * (caller frees) or NULL with *err set. */
static char *raw_bytes(const json_t *f, size_t *len, const char **err)
{
    const char *text = json_string_value(json_object_get(f, "text"));
    const char *hex = json_string_value(json_object_get(f, "hex"));
    char *out;

    if (text) {
        *len = json_string_length(json_object_get(f, "text"));
        out = malloc(*len + 1);
        if (out)
            memcpy(out, text, *len + 1);
        return out;
    }
    if (!hex || strlen(hex) % 2) {
        *err = "raw needs \"text\" or an even-length \"hex\"";
        return NULL;
    }
    *len = strlen(hex) / 2;
    out = malloc(*len + 1);
    for (size_t i = 0; out && i < *len; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) {
            free(out);
            *err = "raw: bad hex";
            return NULL;
        }
        out[i] = (char)v;
    }
    return out;
}

/* A dispatch-shaped text frame of exactly `bytes` bytes (at least its
 * envelope): {"op":0,"s":null,"t":"FAKE_BIG","d":{"pad":"xxx..."}}. */
static char *big_frame(const json_t *f, size_t *len, const char **err)
{
    static const char head[] = "{\"op\":0,\"s\":null,\"t\":\"FAKE_BIG\","
                               "\"d\":{\"pad\":\"";
    static const char tail[] = "\"}}";
    json_int_t want = json_integer_value(json_object_get(f, "bytes"));
    size_t env = sizeof head - 1 + sizeof tail - 1;

    if (want < 1 || want > FAKE_GW_BIG_MAX) {
        *err = "big needs bytes 1..67108864";
        return NULL;
    }
    *len = (size_t)want < env ? env : (size_t)want;
    char *out = malloc(*len + 1);
    if (!out) {
        *err = "out of memory";
        return NULL;
    }
    memcpy(out, head, sizeof head - 1);
    memset(out + sizeof head - 1, 'x', *len - env);
    memcpy(out + *len - (sizeof tail - 1), tail, sizeof tail);
    return out;
}

int fake_gw_fault(struct fake_server *s, const json_t *f, const char **err)
{
    const char *kind = json_string_value(json_object_get(f, "kind"));
    if (kind == NULL) {
        *err = "fault needs a kind";
        return -1;
    }
    if (strcmp(kind, "zombie") == 0) {
        json_t *on = json_object_get(f, "on");
        json_t *count = json_object_get(f, "count");
        s->zombie = on ? json_is_true(on) : count == NULL;
        s->zombie_skip = json_is_integer(count) ? json_integer_value(count) : 0;
        return 0;
    }
    if (strcmp(kind, "invalidate") == 0) {
        for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++)
            if (s->sessions[i])
                fake_gw_session_invalidate(s, s->sessions[i]);
        return 0;
    }
    if (strcmp(kind, "hb_timeout") == 0) {
        s->opt.hb_timeout = json_is_true(json_object_get(f, "on"));
        return 0;
    }
    int hit = 0;
    for (struct fake_gw_conn *c = s->conns; c; c = c->next) {
        if (c->state == FAKE_GW_CLOSING)
            continue;
        hit++;
        if (strcmp(kind, "close") == 0) {
            json_t *jc = json_object_get(f, "code");
            const char *why = json_string_value(json_object_get(f, "reason"));
            struct fake_session *ss = c->sess;
            fake_gw_close(c, jc ? (int)json_integer_value(jc) : 4000,
                       why ? why : "Closed by test.", false);
            json_t *inv = json_object_get(f, "invalidate");
            if (json_is_true(inv))
                fake_gw_session_invalidate(s, ss);
            else if (json_is_false(inv) && ss) {
                ss->alive = true;   /* keep it resumable whatever the code */
                s->current = ss;
            }
        } else if (strcmp(kind, "drop") == 0) {
            c->drop = true;
            c->state = FAKE_GW_CLOSING;
            lws_callback_on_writable(c->wsi);
        } else if (strcmp(kind, "op7") == 0) {
            fake_gw_send_op(c, 7, NULL);
            json_t *ms = json_object_get(f, "close_after_ms");
            json_int_t after = ms ? json_integer_value(ms) : 5000;
            if (after > 0)
                lws_sul_schedule(s->ctx, 0, &c->op7_sul, fake_gw_op7_close,
                                 (lws_usec_t)after * 1000);
        } else if (strcmp(kind, "op9") == 0) {
            bool resumable = json_is_true(json_object_get(f, "resumable"));
            fake_gw_send_op(c, 9, json_boolean(resumable));
            if (!resumable)
                fake_gw_session_invalidate(s, c->sess);
            if (c->sess && c->sess->conn == c)
                c->sess->conn = NULL;
            c->sess = NULL;
            c->state = FAKE_GW_AWAIT_AUTH;
        } else if (strcmp(kind, "op1") == 0) {
            fake_gw_send_op(c, 1, NULL);
        } else if (strcmp(kind, "raw") == 0 || strcmp(kind, "big") == 0) {
            size_t len = 0;
            char *buf = kind[0] == 'r' ? raw_bytes(f, &len, err)
                                       : big_frame(f, &len, err);
            if (!buf)
                return -1;
            /* "as_is": a binary frame of exactly these bytes, past the
             * connection's deflate: a broken zlib-stream */
            if (json_is_true(json_object_get(f, "as_is")))
                fake_gw_enqueue_frame(c, buf, len, true);
            else
                fake_gw_enqueue_n(c, buf, len, -1);
            free(buf);
        } else {
            *err = "unknown fault kind";
            return -1;
        }
    }
    if (hit == 0) {
        *err = "no live gateway connection";
        return -1;
    }
    return 0;
}

json_t *fake_gw_stats(const struct fake_server *s)
{
    int live = 0, alive = 0;
    for (const struct fake_gw_conn *c = s->conns; c; c = c->next)
        live += c->state != FAKE_GW_CLOSING;
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++)
        alive += s->sessions[i] && s->sessions[i]->alive;
    const struct fake_session *cur = s->current;
    return json_pack("{s:i,s:i,s:b,s:s?,s:I,s:i,s:b}", "live_connections",
                     live, "sessions_alive", alive, "ready", fake_gw_ready(s),
                     "session_id", cur ? cur->id : NULL, "seq",
                     (json_int_t)(cur ? cur->seq : 0), "session_remaining",
                     s->session_remaining, "zombie", s->zombie);
}

void fake_gw_free_all(struct fake_server *s)
{
    while (s->conns) {
        struct fake_gw_conn *c = s->conns;
        fake_gw_conn_free(s, c);
    }
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++) {
        session_free(s->sessions[i]);
        s->sessions[i] = NULL;
    }
    s->current = NULL;
    json_decref(s->hello_iv);
    s->hello_iv = NULL;
}

void fake_gw_forget_ix(struct fake_server *s)
{
    for (struct fake_gw_conn *c = s->conns; c; c = c->next)
        for (struct fake_frame *f = c->q_head; f; f = f->next)
            f->ix = -1;
    for (int i = 0; i < FAKE_GW_MAX_SESSIONS; i++)
        if (s->sessions[i])
            for (size_t k = 0; k < s->sessions[i]->nrp; k++)
                s->sessions[i]->rp[k].ix = -1;
}
