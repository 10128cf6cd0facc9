/*
 * metrics_http.c - the /metrics listener (metrics_http.h).
 */
#include "metrics_http.h"

#include <stdlib.h>
#include <string.h>

#include "http_listen.h"
#include "metrics.h"

struct metrics_http {
    struct lws_vhost *vh;
    metrics_render_fn *render;
    void *ud;
    int clients;                  /* connections open now */
    struct lws_protocols protocols[2];
};

struct metrics_conn {             /* lws per-session data */
    bool counted;
    char *page;                   /* owned: the response body */
    size_t len, sent;
};

static const char metrics_type[] = "text/plain; version=0.0.4; charset=utf-8";

static struct metrics_http *server_of(struct lws *wsi)
{
    return lws_vhost_user(lws_get_vhost(wsi));
}

static void conn_drop(struct metrics_http *m, struct metrics_conn *c)
{
    free(c->page);
    c->page = NULL;
    if (c->counted && m)
        m->clients--;
    c->counted = false;
}

static int answer_status(struct lws *wsi, unsigned int status)
{
    if (lws_return_http_status(wsi, status, NULL))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int on_http(struct lws *wsi, struct metrics_http *m,
                   struct metrics_conn *c, const char *uri)
{
    unsigned char head[LWS_PRE + 512], *start = head + LWS_PRE, *p = start;
    unsigned char *end = head + sizeof head - 1;
    struct sbuf sb;

    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
        return answer_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED);
    if (strcmp(uri, "/metrics") != 0)
        return answer_status(wsi, HTTP_STATUS_NOT_FOUND);
    sbuf_init(&sb, METRICS_MAX_PAGE);
    m->render(m->ud, &sb);
    if (sbuf_error(&sb) != SBUF_OK) {
        sbuf_cleanup(&sb);
        return answer_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR);
    }
    free(c->page);
    c->len = sb.len;
    c->sent = 0;
    c->page = sbuf_take(&sb);
    if (!c->page)
        return answer_status(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR);
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, metrics_type,
                                    c->len, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int on_writeable(struct lws *wsi, struct metrics_conn *c)
{
    unsigned char buf[LWS_PRE + METRICS_HTTP_CHUNK];
    size_t n;
    bool last;

    if (!c->page)
        return 0;
    n = c->len - c->sent;
    if (n > METRICS_HTTP_CHUNK)
        n = METRICS_HTTP_CHUNK;
    last = c->sent + n == c->len;
    memcpy(buf + LWS_PRE, c->page + c->sent, n);
    if (lws_write(wsi, buf + LWS_PRE, n,
                  last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
        return -1;
    c->sent += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    free(c->page);
    c->page = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int metrics_cb(struct lws *wsi, enum lws_callback_reasons reason,
                      void *user, void *in, size_t len)
{
    struct metrics_http *m = server_of(wsi);
    struct metrics_conn *c = user;

    switch (reason) {
    case LWS_CALLBACK_HTTP_BIND_PROTOCOL:
        if (!m || !c)
            break;
        if (m->clients >= METRICS_HTTP_MAX_CLIENTS)
            return -1;            /* refused: too many at once */
        m->clients++;
        c->counted = true;
        break;
    case LWS_CALLBACK_HTTP:
        if (!m || !c)
            return -1;
        return on_http(wsi, m, c, in ? (const char *)in : "");
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return http_listen_refuses();
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return c ? on_writeable(wsi, c) : -1;
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (c)
            conn_drop(m, c);
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

enum bot_err metrics_http_start(struct lws_context *ctx, const char *host,
                                int port, metrics_render_fn *render, void *ud,
                                struct metrics_http **out, char *err,
                                size_t errlen)
{
    struct metrics_http *m = calloc(1, sizeof *m);

    *out = NULL;
    if (!m) {
        snprintf(err, errlen, "metrics: out of memory");
        return BOT_NOMEM;
    }
    m->render = render;
    m->ud = ud;
    m->protocols[0] = (struct lws_protocols){
        METRICS_HTTP_PROTOCOL, metrics_cb, sizeof(struct metrics_conn), 0, 0,
        NULL, 0};
    m->vh = http_listen_start(ctx, &(struct http_listen){
        "metrics", host, port, m->protocols, m, METRICS_HTTP_KEEPALIVE_S,
        METRICS_HTTP_IDLE_S}, err, errlen);
    if (!m->vh) {
        free(m);
        return BOT_IO;
    }
    *out = m;
    return BOT_OK;
}

int metrics_http_port(const struct metrics_http *m)
{
    return m ? lws_get_vhost_listen_port(m->vh) : 0;
}

void metrics_http_free(struct metrics_http *m)
{
    free(m);
}
