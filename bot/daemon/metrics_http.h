/*
 * metrics_http.h - GET /metrics over plain HTTP on the daemon's own lws
 * event loop: a second vhost of the daemon's context, listening on the
 * configured address (loopback unless [metrics] public), so no thread and
 * no library beyond libwebsockets.
 *
 * Each request renders the page through the render callback (on the loop
 * thread, between two interactions) into a buffer of at most
 * METRICS_MAX_PAGE bytes that the connection owns until it is written.
 * Anything but GET /metrics gets 404 (405 for another method). At most
 * METRICS_HTTP_MAX_CLIENTS requests are served at once (more are closed),
 * the context has that many descriptors more than the daemon needs, and a
 * connection that sends nothing is closed after METRICS_HTTP_IDLE_S, so a
 * scraper gone wrong holds the gateway back for seconds at most. The
 * listener is loopback unless the config says public (cfg.h).
 *
 * Ownership: metrics_http_start() keeps render and ud (borrowed, they must
 * outlive the server). lws_context_destroy() closes the listener and its
 * connections, which still use the struct: metrics_http_free() comes
 * after it.
 */
#ifndef METRICS_HTTP_H
#define METRICS_HTTP_H

#include <libwebsockets.h>
#include <stddef.h>

#include "bot_err.h"
#include "sbuf.h"

#define METRICS_HTTP_MAX_CLIENTS 4
#define METRICS_HTTP_PROTOCOL "fray-metrics"
#define METRICS_HTTP_CHUNK 4096      /* bytes written per WRITEABLE */
#define METRICS_HTTP_IDLE_S 10       /* a silent connection is closed */
#define METRICS_HTTP_KEEPALIVE_S 5   /* between two requests */

typedef void metrics_render_fn(void *ud, struct sbuf *out);

struct metrics_http;

/* Listen on host:port (an IP literal) in ctx. BOT_IO with err when the
 * address cannot be bound (in use, or not this machine's). */
enum bot_err metrics_http_start(struct lws_context *ctx, const char *host,
                                int port, metrics_render_fn *render, void *ud,
                                struct metrics_http **out, char *err,
                                size_t errlen);

/* Free, after lws_context_destroy(); NULL is a no-op. */
void metrics_http_free(struct metrics_http *m);

/* The port actually bound (port 0 asks the kernel for one: tests). */
int metrics_http_port(const struct metrics_http *m);

#endif
