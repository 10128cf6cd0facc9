/* fake_ws.c - see fake_ws.h. */
#include "fake_ws.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* zlib-stream: inflate a complete (00 00 ff ff terminated) message through
 * the connection's one context into a fresh buffer. */
static char *inflate_msg(struct fake_ws *w, size_t *out_len)
{
    char *out = malloc(FAKE_WS_RX_MAX);
    if (out == NULL)
        return NULL;
    w->zs.next_in = (Bytef *)w->rx;
    w->zs.avail_in = (uInt)w->rx_len;
    w->zs.next_out = (Bytef *)out;
    w->zs.avail_out = FAKE_WS_RX_MAX;
    int rc = inflate(&w->zs, Z_SYNC_FLUSH);
    if ((rc != Z_OK && rc != Z_BUF_ERROR) || w->zs.avail_in != 0) {
        free(out);
        return NULL;
    }
    *out_len = FAKE_WS_RX_MAX - w->zs.avail_out;
    return out;
}

static void on_message(struct fake_ws *w)
{
    if (w->zlib) {
        if (w->rx_len < 4 ||
            memcmp(w->rx + w->rx_len - 4, "\x00\x00\xff\xff", 4) != 0)
            return;                 /* a payload may span messages */
        size_t n = 0;
        char *text = inflate_msg(w, &n);
        w->rx_len = 0;
        json_t *j = text ? json_loadb(text, n, 0, NULL) : NULL;
        free(text);
        if (j) {
            json_t *s = json_object_get(j, "s");
            if (json_is_integer(s))
                w->seq = json_integer_value(s);
            json_array_append_new(w->msgs, j);
        }
        return;
    }
    json_t *j = json_loadb(w->rx, w->rx_len, 0, NULL);
    if (j) {
        json_t *s = json_object_get(j, "s");
        if (json_is_integer(s))
            w->seq = json_integer_value(s);
        json_array_append_new(w->msgs, j);
    }
    w->rx_len = 0;
}

static int write_one(struct fake_ws *w, struct lws *wsi)
{
    char *m = w->out[0];
    size_t n = strlen(m);
    unsigned char *buf = malloc(LWS_PRE + n);
    int wr = -1;
    if (buf) {
        memcpy(buf + LWS_PRE, m, n);
        wr = lws_write(wsi, buf + LWS_PRE, n, LWS_WRITE_TEXT);
        free(buf);
    }
    free(m);
    w->nout--;
    memmove(w->out, w->out + 1, (size_t)w->nout * sizeof w->out[0]);
    if (wr < (int)n)
        return -1;
    if (w->nout || w->want_close)
        lws_callback_on_writable(wsi);
    return 0;
}

static int ws_cb(struct lws *wsi, enum lws_callback_reasons reason,
                 void *user, void *in, size_t len)
{
    struct fake_ws *w = user;
    if (w == NULL)
        return 0;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        w->connected = true;
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    case LWS_CALLBACK_CLIENT_CLOSED:
        w->closed = true;
        w->wsi = NULL;
        break;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (len >= 2)
            w->close_code = (((const unsigned char *)in)[0] << 8) |
                            ((const unsigned char *)in)[1];
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (w->rx_len + len < FAKE_WS_RX_MAX) {
            memcpy(w->rx + w->rx_len, in, len);
            w->rx_len += len;
        }
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi))
            on_message(w);
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (w->nout > 0)
            return write_one(w, wsi);
        if (w->want_close) {
            lws_close_reason(wsi, (enum lws_close_status)w->want_close,
                             NULL, 0);
            return -1;
        }
        break;
    default:
        break;
    }
    return 0;
}

static const struct lws_protocols fake_ws_protocols[] = {
    { "fake-ws-client", ws_cb, 0, 0, 0, NULL, 0 },
    { NULL, NULL, 0, 0, 0, NULL, 0 }
};

int fake_ws_init(struct fake_ws *w)
{
    memset(w, 0, sizeof *w);
    lws_set_log_level(getenv("FAKE_VERBOSE") ? LLL_ERR | LLL_WARN | LLL_NOTICE
                                             : LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = fake_ws_protocols;
    w->rx = malloc(FAKE_WS_RX_MAX);
    w->msgs = json_array();
    w->ctx = w->rx && w->msgs ? lws_create_context(&info) : NULL;
    if (w->ctx == NULL) {
        free(w->rx);
        json_decref(w->msgs);
        memset(w, 0, sizeof *w);
        return -1;
    }
    return 0;
}

static void forget_conn(struct fake_ws *w)
{
    if (w->zlib)
        inflateEnd(&w->zs);
    w->zlib = false;
    for (int i = 0; i < w->nout; i++)
        free(w->out[i]);
    w->nout = 0;
    w->connected = w->closed = false;
    w->close_code = w->want_close = 0;
    w->rx_len = 0;
    w->hb_ms = 0;
    w->next = json_array_size(w->msgs);
}

void fake_ws_free(struct fake_ws *w)
{
    if (w->ctx == NULL)
        return;
    forget_conn(w);
    lws_context_destroy(w->ctx);
    json_decref(w->msgs);
    free(w->rx);
    memset(w, 0, sizeof *w);
}

void fake_ws_send(struct fake_ws *w, const char *text)
{
    if (w->nout >= FAKE_WS_MAX_OUT || w->wsi == NULL)
        return;
    char *copy = strdup(text);
    if (copy == NULL)
        return;
    w->out[w->nout++] = copy;
    lws_callback_on_writable(w->wsi);
}

void fake_ws_service(struct fake_ws *w)
{
    lws_service(w->ctx, -1);
    if (w->hb_ms > 0 && w->connected && !w->closed &&
        mono_ms() - w->last_hb_ms >= w->hb_ms) {
        char hb[64];
        snprintf(hb, sizeof hb, "{\"op\":1,\"d\":%lld}", w->seq);
        fake_ws_send(w, hb);
        w->last_hb_ms = mono_ms();
    }
    struct timespec ts = { 0, 1000000L };
    nanosleep(&ts, NULL);
}

bool fake_ws_connect(struct fake_ws *w, int port, const char *path,
                     int timeout_ms)
{
    forget_conn(w);
    if (strstr(path, "compress=zlib-stream")) {
        memset(&w->zs, 0, sizeof w->zs);
        if (inflateInit(&w->zs) != Z_OK)
            return false;
        w->zlib = true;
    }
    struct lws_client_connect_info i;
    memset(&i, 0, sizeof i);
    i.context = w->ctx;
    i.address = "127.0.0.1";
    i.port = port;
    i.path = path;
    i.host = "127.0.0.1";
    i.origin = "127.0.0.1";
    i.userdata = w;
    i.pwsi = &w->wsi;
    if (lws_client_connect_via_info(&i) == NULL)
        return false;
    long long end = mono_ms() + timeout_ms;
    while (!w->connected && !w->closed && mono_ms() < end)
        fake_ws_service(w);
    return w->connected && !w->closed;
}

bool fake_ws_wait_closed(struct fake_ws *w, int timeout_ms)
{
    long long end = mono_ms() + timeout_ms;
    while (!w->closed && mono_ms() < end)
        fake_ws_service(w);
    return w->closed;
}

bool fake_ws_close(struct fake_ws *w, int code, int timeout_ms)
{
    if (w->wsi && !w->closed) {
        w->want_close = code;
        lws_callback_on_writable(w->wsi);
    }
    return fake_ws_wait_closed(w, timeout_ms);
}

json_t *fake_ws_expect(struct fake_ws *w, int op, const char *t,
                       int timeout_ms)
{
    long long end = mono_ms() + timeout_ms;
    for (;;) {
        while (w->next < json_array_size(w->msgs)) {
            json_t *m = json_array_get(w->msgs, w->next++);
            const char *mt = json_string_value(json_object_get(m, "t"));
            if (json_integer_value(json_object_get(m, "op")) == op &&
                (t == NULL || (mt && strcmp(mt, t) == 0)))
                return m;
        }
        if (w->closed || mono_ms() >= end)
            return NULL;
        fake_ws_service(w);
    }
}

void fake_ws_identify(struct fake_ws *w, const char *token)
{
    json_t *j = json_pack("{s:i,s:{s:s,s:i,s:{s:s,s:s,s:s}}}", "op", 2, "d",
                          "token", token, "intents", 0, "properties", "os",
                          "linux", "browser", "fray", "device", "fray");
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (text)
        fake_ws_send(w, text);
    free(text);
}

json_t *fake_ws_session(struct fake_ws *w, int port, const char *token,
                        int timeout_ms)
{
    if (!fake_ws_connect(w, port, "/?v=10&encoding=json", timeout_ms))
        return NULL;
    json_t *hello = fake_ws_expect(w, 10, NULL, timeout_ms);
    if (hello == NULL)
        return NULL;
    w->hb_ms = (int)json_integer_value(json_object_get(
        json_object_get(hello, "d"), "heartbeat_interval"));
    w->last_hb_ms = mono_ms();
    fake_ws_identify(w, token);
    json_t *ready = fake_ws_expect(w, 0, "READY", timeout_ms);
    return ready ? json_object_get(ready, "d") : NULL;
}
