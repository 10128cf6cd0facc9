/*
 * fake_gateway.c - Gateway v10 connections over plain ws://: HELLO,
 * IDENTIFY -> READY, heartbeats and ACKs (or not, in zombie mode), RESUME
 * with replay, close codes 4001-4014 where the real gateway uses them and the
 * 120 per 60 s send limit (sessions and faults: fake_gw_session.c). Frames
 * go out one per LWS_CALLBACK_SERVER_WRITEABLE from a per-connection queue;
 * incoming messages are reassembled across fragments before parsing.
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <zlib.h>

/* ---- connection helpers ---- */

static void log_set(struct fake_gw_conn *c, const char *key, json_t *v)
{
    json_t *rec = json_array_get(c->srv->conn_log, (size_t)c->id - 1);
    if (rec != NULL)
        json_object_set_new(rec, key, v);
    else
        json_decref(v);
}

/* zlib-stream: one deflate context per connection, each payload flushed
 * with Z_SYNC_FLUSH so it ends in 00 00 ff ff, sent as a binary frame. */
static struct fake_frame *deflate_frame(struct fake_gw_conn *c,
                                        const char *text, size_t len)
{
    size_t cap = deflateBound(&c->zs, (uLong)len) + FAKE_GW_ZLIB_SLACK;
    struct fake_frame *f = malloc(sizeof *f + LWS_PRE + cap);
    if (f == NULL)
        return NULL;
    c->zs.next_in = (Bytef *)(uintptr_t)text;
    c->zs.avail_in = (uInt)len;
    c->zs.next_out = f->buf + LWS_PRE;
    c->zs.avail_out = (uInt)cap;
    int rc = deflate(&c->zs, Z_SYNC_FLUSH);
    if ((rc != Z_OK && rc != Z_BUF_ERROR) || c->zs.avail_in != 0) {
        free(f);
        return NULL;
    }
    f->len = cap - c->zs.avail_out;
    f->binary = true;
    return f;
}

void fake_gw_enqueue(struct fake_gw_conn *c, const char *text, long ix)
{
    fake_gw_enqueue_n(c, text, strlen(text), ix);
}

static struct fake_frame *plain_frame(const char *bytes, size_t len,
                                      bool binary)
{
    struct fake_frame *f = malloc(sizeof *f + LWS_PRE + len);
    if (f) {
        f->len = len;
        f->binary = binary;
        memcpy(f->buf + LWS_PRE, bytes, len);
    }
    return f;
}

static void enqueue(struct fake_gw_conn *c, struct fake_frame *f, long ix)
{
    if (f == NULL)
        return;
    f->next = NULL;
    f->ix = ix;
    if (c->q_tail)
        c->q_tail->next = f;
    else
        c->q_head = f;
    c->q_tail = f;
    lws_callback_on_writable(c->wsi);
}

void fake_gw_enqueue_n(struct fake_gw_conn *c, const char *text, size_t len,
                       long ix)
{
    enqueue(c, c->zlib ? deflate_frame(c, text, len)
                       : plain_frame(text, len, false), ix);
}

void fake_gw_enqueue_frame(struct fake_gw_conn *c, const char *bytes,
                           size_t len, bool binary)
{
    enqueue(c, plain_frame(bytes, len, binary), -1);
}

/* Send a non-dispatch payload: {"op":op,"d":d,"s":null,"t":null}. */
void fake_gw_send_op(struct fake_gw_conn *c, int op, json_t *d)
{
    json_t *j = json_pack("{s:i,s:o,s:n,s:n}", "op", op, "d",
                          d ? d : json_null(), "s", "t");
    char *t = fake_dump(j);
    json_decref(j);
    if (t)
        fake_gw_enqueue(c, t, -1);
    free(t);
}

static void drop_queue(struct fake_gw_conn *c)
{
    while (c->q_head) {
        struct fake_frame *f = c->q_head;
        c->q_head = f->next;
        free(f);
    }
    c->q_tail = NULL;
}

/* Close from the server side with a code; error closes drop queued frames
 * first, as the real gateway closes at once. */
void fake_gw_close(struct fake_gw_conn *c, int code, const char *reason,
                   bool flush_first)
{
    struct fake_server *s = c->srv;
    if (c->state == FAKE_GW_CLOSING)
        return;
    if (!flush_first)
        drop_queue(c);
    c->state = FAKE_GW_CLOSING;
    c->close_code = code;
    snprintf(c->close_reason, sizeof c->close_reason, "%s", reason);
    s->st.server_closes++;
    log_set(c, "server_close", json_integer(code));
    bool dead = code == 4003 || code == 4004 || code == 4005 ||
                code == 4007 || code == 4009 || (code >= 4010 && code <= 4014);
    if (dead)
        fake_gw_session_invalidate(s, c->sess);
    fake_log(s, "conn %d: server close %d %s", c->id, code, reason);
    lws_callback_on_writable(c->wsi);
}

/* A close the client caused: also a violation named after the code. */
static void conn_fail(struct fake_gw_conn *c, int code, const char *reason)
{
    char kind[16];
    snprintf(kind, sizeof kind, "gw_%d", code);
    fake_violation(c->srv, kind, -1, "conn %d: %s", c->id, reason);
    fake_gw_close(c, code, reason, false);
}

/* ---- opcodes ---- */

static json_t *bot_user(const struct fake_server *s)
{
    return json_pack("{s:s,s:s,s:s,s:n,s:n,s:b,s:i}", "id", s->opt.app_id,
                     "username", "fray", "discriminator", "0", "global_name",
                     "avatar", "bot", 1, "flags", 0);
}

static void send_ready(struct fake_gw_conn *c, const json_t *shard,
                       json_int_t intents)
{
    struct fake_server *s = c->srv;
    char url[96];
    snprintf(url, sizeof url, "ws://127.0.0.1:%d%s", s->port,
             FAKE_RESUME_PATH);
    json_t *d = json_pack(
        "{s:i,s:o,s:[{s:s,s:b}],s:s,s:s,s:s,s:{s:s,s:i},s:[s],s:[],s:[]}",
        "v", 10, "user", bot_user(s), "guilds", "id", s->opt.guild_id,
        "unavailable", 1, "session_id", c->sess->id, "resume_gateway_url",
        url, "session_type", "normal", "application", "id", s->opt.app_id,
        "flags", 0, "_trace", "[\"fake-discord\",{\"micros\":0}]",
        "private_channels", "presences");
    if (shard)
        json_object_set(d, "shard", (json_t *)shard);
    fake_gw_dispatch(s, "READY", d, -1);
    if (intents & 1) {
        json_t *g = json_pack(
            "{s:s,s:s,s:b,s:i,s:s,s:[{s:s,s:i,s:s,s:s}],s:[{s:s,s:s,s:s}],"
            "s:[],s:s}",
            "id", s->opt.guild_id, "name", "Fake Guild", "unavailable", 0,
            "member_count", 2, "owner_id", s->opt.user_id, "channels", "id",
            s->opt.channel_id, "type", 0, "name", "general", "guild_id",
            s->opt.guild_id, "roles", "id", s->opt.guild_id, "name",
            "@everyone", "permissions", "2248473465835073", "members",
            "joined_at", "2024-01-01T00:00:00.000000+00:00");
        fake_gw_dispatch(s, "GUILD_CREATE", g, -1);
    }
}

static bool token_ok(struct fake_gw_conn *c, const json_t *d)
{
    const char *tok = json_string_value(json_object_get(d, "token"));
    if (tok == NULL || strcmp(tok, c->srv->opt.token) != 0) {
        conn_fail(c, 4004, "Authentication failed.");
        return false;
    }
    return true;
}

static bool props_ok(const json_t *p)
{
    static const char *const keys[] = { "os", "browser", "device" };
    if (!json_is_object(p))
        return false;
    for (size_t i = 0; i < 3; i++) {
        char dollar[16];
        snprintf(dollar, sizeof dollar, "$%s", keys[i]);
        if (!json_is_string(json_object_get(p, keys[i])) &&
            !json_is_string(json_object_get(p, dollar)))
            return false;
    }
    return true;
}

static void on_identify(struct fake_gw_conn *c, const json_t *d)
{
    struct fake_server *s = c->srv;
    if (c->state != FAKE_GW_AWAIT_AUTH) {
        conn_fail(c, 4005, "Already authenticated.");
        return;
    }
    if (!json_is_object(d)) {
        conn_fail(c, 4002, "Error while decoding payload.");
        return;
    }
    if (!token_ok(c, d))
        return;
    if (!props_ok(json_object_get(d, "properties"))) {
        conn_fail(c, 4002, "Invalid identify properties.");
        return;
    }
    json_t *ji = json_object_get(d, "intents");
    json_int_t intents = json_integer_value(ji);
    if (!json_is_integer(ji) || intents < 0 ||
        ((uint64_t)intents & ~FAKE_GW_INTENTS_VALID)) {
        conn_fail(c, 4013, "Invalid intent(s).");
        return;
    }
    if (((uint64_t)intents & FAKE_GW_INTENTS_PRIV) &&
        !s->opt.allow_privileged) {
        conn_fail(c, 4014, "Disallowed intent(s).");
        return;
    }
    const json_t *shard = json_object_get(d, "shard");
    int shard_id, shard_count;
    bool sharded;
    if (!fake_gw_shard_check(c, shard, &shard_id, &shard_count, &sharded) ||
        !fake_gw_identify_slot(c, shard_id))
        return;
    if (s->session_remaining <= 0) {
        fake_violation(s, "session_start_limit", -1,
                       "conn %d: identify with no session starts left", c->id);
        fake_gw_send_op(c, 9, json_false());
        return;
    }
    s->session_remaining--;
    s->last_identify_us = fake_now_us();
    s->st.identifies++;
    struct fake_session *ss = fake_gw_session_new(s);
    if (ss == NULL) {
        fake_gw_close(c, 4000, "Unknown error.", false);
        return;
    }
    ss->conn = c;
    ss->sharded = sharded;
    ss->shard_id = shard_id;
    ss->shard_count = shard_count;
    c->sess = ss;
    c->state = FAKE_GW_READY;
    s->current = ss;
    log_set(c, "identified", json_true());
    log_set(c, "session_id", json_string(ss->id));
    fake_log(s, "conn %d: IDENTIFY ok, session %s", c->id, ss->id);
    send_ready(c, shard, intents);
}

static void on_resume(struct fake_gw_conn *c, const json_t *d)
{
    struct fake_server *s = c->srv;
    if (c->state != FAKE_GW_AWAIT_AUTH) {
        conn_fail(c, 4005, "Already authenticated.");
        return;
    }
    if (!json_is_object(d)) {
        conn_fail(c, 4002, "Error while decoding payload.");
        return;
    }
    if (!token_ok(c, d))
        return;
    s->st.resumes++;
    if (c->on_resume_url)
        s->st.resumes_on_resume_url++;
    else
        fake_violation(s, "resume_not_on_resume_url", -1,
                       "conn %d resumed on the base gateway URL", c->id);
    const char *sid = json_string_value(json_object_get(d, "session_id"));
    json_t *jseq = json_object_get(d, "seq");
    int64_t seq = json_is_integer(jseq) ? json_integer_value(jseq) : 0;
    struct fake_session *ss = sid ? fake_gw_session_find(s, sid) : NULL;
    log_set(c, "resume_session_id", json_string(sid ? sid : ""));
    if (ss == NULL || !ss->alive) {
        s->st.resumes_failed++;
        log_set(c, "resumed", json_false());
        fake_gw_send_op(c, 9, json_false());
        return;
    }
    if (seq > ss->seq || seq < 0) {
        s->st.resumes_failed++;
        conn_fail(c, 4007, "Invalid seq.");
        fake_gw_session_invalidate(s, ss);
        return;
    }
    if (seq < ss->evicted_s) {
        s->st.resumes_failed++;             /* replay window exceeded */
        fake_gw_send_op(c, 9, json_false());
        return;
    }
    struct fake_gw_conn *old = ss->conn;
    if (old && old != c) {
        old->sess = NULL;
        fake_gw_close(old, 4000, "Session resumed elsewhere.", false);
    }
    ss->conn = c;
    c->sess = ss;
    c->state = FAKE_GW_READY;
    s->current = ss;
    long n = 0;
    for (size_t i = 0; i < ss->nrp; i++)
        if (ss->rp[i].s > seq) {
            fake_gw_enqueue(c, ss->rp[i].text, ss->rp[i].ix);
            n++;
        }
    s->st.resumes_ok++;
    log_set(c, "resumed", json_true());
    log_set(c, "session_id", json_string(ss->id));
    log_set(c, "replayed", json_integer(n));
    fake_log(s, "conn %d: RESUME ok from seq %lld, replayed %ld", c->id,
             (long long)seq, n);
    fake_gw_dispatch(s, "RESUMED",
                     json_pack("{s:[s]}", "_trace", "[\"fake-discord\"]"), -1);
}

static void on_heartbeat(struct fake_gw_conn *c, const json_t *d)
{
    struct fake_server *s = c->srv;
    int64_t now = fake_now_us();
    if (c->heartbeats++ == 0)       /* shows the client's first-beat jitter */
        log_set(c, "first_heartbeat_ms",
                json_real((double)(now - c->hello_us) / 1000.0));
    c->last_hb_us = now;
    s->st.heartbeats++;
    /* d is the last sequence number the client saw: null or <= ours */
    if (!(d == NULL || json_is_null(d) ||
          (json_is_integer(d) && json_integer_value(d) >= 0 &&
           (c->sess == NULL || json_integer_value(d) <= c->sess->seq))))
        fake_violation(s, "hb_bad_seq", -1,
                       "conn %d: heartbeat d is not the last sequence", c->id);
    if (s->zombie) {
        s->st.acks_skipped++;
        return;
    }
    if (s->zombie_skip > 0) {
        s->zombie_skip--;
        s->st.acks_skipped++;
        return;
    }
    s->st.acks++;
    fake_gw_send_op(c, 11, NULL);
}

static void record_frame(struct fake_gw_conn *c, const char *text, size_t len,
                         const json_t *j)
{
    struct fake_server *s = c->srv;
    s->st.frames_in++;
    if (json_array_size(s->frames) >= FAKE_MAX_RECORDS)
        return;
    json_t *rec = json_pack("{s:I,s:i,s:f,s:I}", "seq",
                            (json_int_t)json_array_size(s->frames) + 1, "conn",
                            c->id, "t_ms", fake_rel_ms(s, fake_now_us()),
                            "len", (json_int_t)len);
    if (j) {
        json_object_set(rec, "payload", (json_t *)j);
        json_object_set(rec, "op", json_object_get(j, "op"));
    } else {
        json_object_set_new(rec, "raw", json_stringn(text, len));
    }
    json_array_append_new(s->frames, rec);
}

/* Returns false when the 120 per 60 s limit was exceeded. */
static bool send_rate_ok(struct fake_gw_conn *c)
{
    int64_t now = fake_now_us();
    int idx = c->nsends % FAKE_GW_SEND_LIMIT;
    if (c->nsends >= FAKE_GW_SEND_LIMIT &&
        now - c->sends[idx] < (int64_t)FAKE_GW_SEND_WINDOW_MS * 1000)
        return false;
    c->sends[idx] = now;
    c->nsends++;
    return true;
}

static void on_message(struct fake_gw_conn *c)
{
    json_error_t e;
    json_t *j = json_loadb(c->rx, c->rx_len, 0, &e);
    record_frame(c, c->rx, c->rx_len, j);
    if (!send_rate_ok(c)) {
        conn_fail(c, 4008, "Rate limited.");
        json_decref(j);
        return;
    }
    json_t *jop = json_object_get(j, "op");
    if (!json_is_object(j) || !json_is_integer(jop)) {
        conn_fail(c, 4002, "Error while decoding payload.");
        json_decref(j);
        return;
    }
    int op = (int)json_integer_value(jop);
    const json_t *d = json_object_get(j, "d");
    if (c->state == FAKE_GW_AWAIT_AUTH && op != 1 && op != 2 && op != 6) {
        conn_fail(c, 4003, "Not authenticated.");
        json_decref(j);
        return;
    }
    switch (op) {
    case 1:
        on_heartbeat(c, d);
        break;
    case 2:
        on_identify(c, d);
        break;
    case 6:
        on_resume(c, d);
        break;
    case 3: case 4: case 8: case 31: case 43:
        break;                      /* accepted and recorded */
    default:
        conn_fail(c, 4001, "Unknown opcode.");
        break;
    }
    json_decref(j);
}

/* ---- timers ---- */

static void hb_check(lws_sorted_usec_list_t *sul)
{
    struct fake_gw_conn *c = lws_container_of(sul, struct fake_gw_conn,
                                              hb_sul);
    struct fake_server *s = c->srv;
    if (c->state == FAKE_GW_CLOSING || !s->opt.hb_timeout)
        return;
    int64_t limit = (int64_t)c->hb_ms * 1500 +
                    (int64_t)FAKE_GW_HB_GRACE_MS * 1000;
    int64_t since = fake_now_us() - c->last_hb_us;
    if (since >= limit) {
        fake_violation(s, "hb_missed", -1,
                       "conn %d: no heartbeat for %.0f ms (interval %d)",
                       c->id, (double)since / 1000.0, c->hb_ms);
        fake_gw_close(c, 4000, "Heartbeat timeout.", false);
        return;
    }
    lws_sul_schedule(s->ctx, 0, &c->hb_sul, hb_check, limit - since);
}

/* ---- lws callback ---- */

static void conn_open(struct fake_server *s, struct fake_pss *pss,
                      struct lws *wsi)
{
    struct fake_gw_conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return;
    c->srv = s;
    c->wsi = wsi;
    c->id = ++s->next_conn_id;
    c->next = s->conns;
    s->conns = c;
    pss->gw = c;
    s->st.connections++;

    char path[256] = "", query[256] = "", frag[128];
    if (lws_hdr_copy(wsi, path, sizeof path, WSI_TOKEN_GET_URI) < 0)
        path[0] = '\0';
    char v[16] = "", enc[16] = "", comp[32] = "";
    for (int i = 0; lws_hdr_copy_fragment(wsi, frag, sizeof frag,
                                          WSI_TOKEN_HTTP_URI_ARGS, i) > 0;
         i++) {
        size_t ql = strlen(query);
        snprintf(query + ql, sizeof query - ql, "%s%s", ql ? "&" : "", frag);
        if (strncmp(frag, "v=", 2) == 0)
            snprintf(v, sizeof v, "%s", frag + 2);
        else if (strncmp(frag, "encoding=", 9) == 0)
            snprintf(enc, sizeof enc, "%s", frag + 9);
        else if (strncmp(frag, "compress=", 9) == 0)
            snprintf(comp, sizeof comp, "%s", frag + 9);
    }
    c->on_resume_url = strncmp(path, FAKE_RESUME_PATH,
                               strlen(FAKE_RESUME_PATH)) == 0;
    json_array_append_new(s->conn_log,
                          json_pack("{s:i,s:s,s:s,s:f,s:b}", "id", c->id,
                                    "path", path, "query", query, "opened_ms",
                                    fake_rel_ms(s, fake_now_us()),
                                    "resume_url", c->on_resume_url));
    fake_log(s, "conn %d: open %s?%s", c->id, path, query);

    if (v[0] && strcmp(v, "10") != 0) {
        conn_fail(c, 4012, "Invalid API version.");
        return;
    }
    if (enc[0] && strcmp(enc, "json") != 0) {
        conn_fail(c, 4002, "Unsupported encoding.");
        return;
    }
    if (strcmp(comp, "zlib-stream") == 0) {
        if (deflateInit(&c->zs, Z_DEFAULT_COMPRESSION) != Z_OK) {
            fake_gw_close(c, 4000, "Unknown error.", false);
            return;
        }
        c->zlib = true;
    } else if (comp[0]) {
        fake_violation(s, "gw_compress_unsupported", -1,
                       "conn %d asked for compress=%s", c->id, comp);
        fake_gw_close(c, 4000, "Compression is not supported by the fake.",
                      false);
        return;
    }
    c->hb_ms = s->opt.heartbeat_ms;     /* this connection's interval */
    /* a configured odd interval goes out as it is; the timeout check
     * keeps the configured one unless the odd one is a sane integer */
    json_t *iv = s->hello_iv ? json_incref(s->hello_iv)
                             : json_integer(c->hb_ms);
    if (json_is_integer(iv) && json_integer_value(iv) >= 1 &&
        json_integer_value(iv) <= 600000)
        c->hb_ms = (int)json_integer_value(iv);
    fake_gw_send_op(c, 10, json_pack("{s:o,s:[s]}", "heartbeat_interval",
                                     iv, "_trace",
                                     "[\"fake-discord\",{\"micros\":0}]"));
    c->last_hb_us = c->hello_us = fake_now_us();
    if (s->opt.hb_timeout)
        lws_sul_schedule(s->ctx, 0, &c->hb_sul, hb_check,
                         (lws_usec_t)c->hb_ms * 1500 +
                             FAKE_GW_HB_GRACE_MS * 1000);
}

void fake_gw_conn_free(struct fake_server *s, struct fake_gw_conn *c)
{
    lws_sul_cancel(&c->hb_sul);
    lws_sul_cancel(&c->op7_sul);
    for (struct fake_gw_conn **pp = &s->conns; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    if (c->sess && c->sess->conn == c)
        c->sess->conn = NULL;
    log_set(c, "closed_ms", json_real(fake_rel_ms(s, fake_now_us())));
    drop_queue(c);
    if (c->zlib)
        deflateEnd(&c->zs);
    free(c->rx);
    free(c);
}

static int on_receive(struct fake_gw_conn *c, struct lws *wsi, const void *in,
                      size_t len)
{
    if (c->state == FAKE_GW_CLOSING)
        return 0;
    if (c->rx_len + len > FAKE_GW_MAX_PAYLOAD) {
        c->rx_too_big = true;
    } else {
        char *n = realloc(c->rx, c->rx_len + len + 1);
        if (n == NULL)
            return -1;
        c->rx = n;
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
        c->rx[c->rx_len] = '\0';
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
        return 0;
    if (c->rx_too_big)
        conn_fail(c, 4002, "Payload too large.");
    else
        on_message(c);
    c->rx_len = 0;
    c->rx_too_big = false;
    return 0;
}

static int on_writeable(struct fake_gw_conn *c, struct lws *wsi)
{
    if (c->drop) {
        int fd = lws_get_socket_fd(wsi);
        struct linger lg = { 1, 0 };
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        shutdown(fd, SHUT_RDWR);
        return -1;
    }
    if (c->q_head) {
        struct fake_frame *f = c->q_head;
        c->q_head = f->next;
        if (c->q_head == NULL)
            c->q_tail = NULL;
        int n = lws_write(wsi, f->buf + LWS_PRE, f->len,
                          f->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT);
        long ix = f->ix;
        size_t flen = f->len;
        free(f);
        if (n < (int)flen)
            return -1;
        if (ix >= 0)
            fake_ix_dispatched(c->srv, ix);
        if (c->q_head || c->close_code)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->close_code) {
        lws_close_reason(wsi, (enum lws_close_status)c->close_code,
                         (unsigned char *)c->close_reason,
                         strlen(c->close_reason));
        return -1;
    }
    return 0;
}

int fake_gw_callback(struct lws *wsi, enum lws_callback_reasons reason,
                     void *user, void *in, size_t len)
{
    struct fake_pss *pss = user;
    struct fake_server *s = lws_context_user(lws_get_context(wsi));
    struct fake_gw_conn *c = pss ? pss->gw : NULL;

    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        conn_open(s, pss, wsi);
        return pss->gw ? 0 : -1;
    case LWS_CALLBACK_RECEIVE:
        return c ? on_receive(c, wsi, in, len) : -1;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return c ? on_writeable(c, wsi) : 0;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (c) {
            const unsigned char *b = in;
            int code = len >= 2 ? (b[0] << 8) | b[1] : 1005;
            s->st.client_closes++;
            s->st.last_client_close = code;
            log_set(c, "client_close", json_integer(code));
            if ((code == 1000 || code == 1001) && c->sess)
                fake_gw_session_invalidate(s, c->sess);
            fake_log(s, "conn %d: client close %d", c->id, code);
        }
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (c) {
            fake_gw_conn_free(s, c);
            pss->gw = NULL;
        }
        return 0;
    default:
        return 0;
    }
}
