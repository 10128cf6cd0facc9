/*
 * http_listen.h - a plain-HTTP listener as one more vhost of the daemon's
 * lws context: the shared page (web.c) and /metrics (metrics_http.c).
 *
 * Both serve HTTP only. A WebSocket upgrade would take a connection out of
 * every limit its listener keeps (requests at once, per address, idle
 * time), so http_listen_refuses() is what their callbacks answer to
 * LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: the connection is closed instead of
 * switching protocols.
 *
 * Ownership: protocols and user are borrowed and must outlive the vhost,
 * which lws_context_destroy() closes.
 */
#ifndef HTTP_LISTEN_H
#define HTTP_LISTEN_H

#include <libwebsockets.h>
#include <stddef.h>

struct http_listen {
    const char *name;            /* the vhost's name, and errors' prefix */
    const char *host;            /* an address of this machine: IPv4 or
                                    IPv6 (IPv6 is off unless it has ':') */
    int port;                    /* 0: any free port */
    const struct lws_protocols *protocols;
    void *user;                  /* lws_vhost_user() of its connections */
    int keepalive_s;             /* idle between two requests */
    int idle_s;                  /* a connection that sends nothing */
};

/* The listening vhost, or NULL with err saying why (in use, not an
 * address of this machine). */
struct lws_vhost *http_listen_start(struct lws_context *ctx,
                                    const struct http_listen *l, char *err,
                                    size_t errlen);

/* The answer to LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: refused (-1). */
static inline int http_listen_refuses(void)
{
    return -1;
}

#endif
