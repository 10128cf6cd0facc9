/*
 * web.h - the shared fights' pages (issue 34): a server vhost of the
 * daemon's own lws context, off unless [web] listen is set, so no thread,
 * no process and no library beyond libwebsockets.
 *
 *   GET /s/<token>          the page: the fight as players see it,
 *                           server-rendered (render_web.h); ?overlay=1 is
 *                           the transparent large-type layout
 *   GET /s/<token>/events   server-sent events: at once the current state
 *                           (so a reconnect, with or without Last-Event-ID,
 *                           catches up), then one event per change, id the
 *                           fight's version; "gone" when the link dies
 *   GET /static/fray.css, /static/fray.js   the page's only assets
 * A token that leads to no live shared fight (forged, unknown, revoked,
 * ended) gets one answer: 404 and the same "no longer shared" page.
 * Every answer carries a strict Content-Security-Policy (WEB_CSP), no
 * cookie, and no-referrer.
 *
 * Bounds (never waited for): a page's unsent events are at most
 * WEB_PAGE_OUT_MAX bytes and its socket's send buffer WEB_PAGE_SNDBUF; a
 * page past that has fallen behind and is dropped (its browser reconnects
 * and catches up). Pages at once: [web] max_pages in all and
 * max_pages_per_fight on one fight (503 past them); requests per address
 * per minute: [web] requests_per_minute (429 past it; behind a proxy on
 * this machine, the address the proxy names). Pages are pushed after the
 * group's answers went to Discord (web_flush), so an answer never waits
 * for a page, and one fight's at most every WEB_PUSH_MIN_MS.
 *
 * Ownership: web_start() borrows store, log and cfg for the server's life.
 * lws_context_destroy() closes the listener and its connections, which
 * still use the struct: web_free() comes after it.
 */
#ifndef WEB_H
#define WEB_H

#include <libwebsockets.h>
#include <stdint.h>

#include "bot_err.h"
#include "log.h"

struct cfg;
struct store;
struct web;

#define WEB_PROTOCOL "fray-web"
#define WEB_PAGE_OUT_MAX (64 * 1024)   /* a page's unsent events, bytes */
#define WEB_PAGE_SNDBUF (16 * 1024)    /* a page's kernel send buffer */
#define WEB_REQUESTS_MAX 32            /* plain requests served at once */
#define WEB_ADDRS_MAX 1024             /* addresses counted per minute */
#define WEB_CHUNK 16384                /* bytes written per WRITEABLE */
#define WEB_PING_MS 25000              /* a comment to idle streams, within
                                          proxies' read timeouts */
#define WEB_REAP_MS 1000               /* closed pages looked for */
/* Least time between two events of one fight: a burst of commands (a
 * round of the turn clock, a GM's busy minute) is one event with the
 * newest state, well within the second a page is given. */
#define WEB_PUSH_MIN_MS 200
#define WEB_RETRY_MS 2000              /* the browser's reconnect delay */
#define WEB_IDLE_S 10                  /* a silent request is closed */
#define WEB_KEEPALIVE_S 5
/* Everything from fray itself, nothing inline. Any page may frame it (an
 * overlay compositor, a tabletop's panel): it has nothing to click and no
 * cookie, so framing cannot make a visitor do anything. */
#define WEB_CSP                                                              \
    "default-src 'none'; script-src 'self'; style-src 'self'; "             \
    "connect-src 'self'; img-src 'self'; base-uri 'none'; "                 \
    "form-action 'none'; frame-ancestors *"

struct web_stats {
    int64_t pages_open;       /* event streams open now */
    int64_t events_sent;      /* events queued to pages */
    int64_t pages_dropped;    /* pages dropped as too slow */
    int64_t refused;          /* requests refused by a limit */
};

/* Listen on host:port in ctx. BOT_IO with err when the address cannot be
 * bound. */
enum bot_err web_start(struct lws_context *ctx, const char *host, int port,
                       const struct cfg *cfg, struct store *store,
                       struct log *lg, struct web **out, char *err,
                       size_t errlen);

/* Something happened in channel's fight (an answer, a fired timer): its
 * pages are brought up to date at the next web_flush(). w NULL: no-op. */
void web_changed(struct web *w, uint64_t channel);

/* Push the fights web_changed() named to their pages (after the group's
 * answers were sent). w NULL: no-op. */
void web_flush(struct web *w);

/* Cancel the timer (the context must still exist). */
void web_detach(struct web *w);

/* Free, after lws_context_destroy(); NULL is a no-op. */
void web_free(struct web *w);

int web_port(const struct web *w);
void web_get_stats(const struct web *w, struct web_stats *out);

/* The page's stylesheet and script (web_assets.c). */
extern const char web_css[];
extern const char web_js[];

#endif
