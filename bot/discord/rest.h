/*
 * rest.h - Discord REST over libcurl, on a dedicated thread.
 *
 * The gateway thread (the lws loop) never blocks on HTTP: it submits a
 * request and gets the result later through its done callback, which
 * rest_dispatch_done() runs on the caller's thread after the REST thread
 * called opts.wake (the daemon's wake is lws_cancel_service()). Why a thread
 * and not curl multi on the lws loop: docs/internals/daemon.md.
 *
 * The REST thread owns a curl multi handle (connections are kept alive and
 * reused) and the rate limiter (rest_ratelimit.h): a request waits while
 * its bucket is known to be empty or busy, or the global budget is spent;
 * interaction callbacks skip the global budget. A 429 waits retry_after and
 * retries; a 5xx or transport error retries with doubling backoff up to
 * max_retries; a 401 marks the token bad: every later request fails at once
 * and the daemon stops. Log lines name the method and the path with long
 * tokens masked; the bot token is only ever in the Authorization header.
 *
 * Ownership: rest_submit() copies method, path and body. The result passed
 * to a done callback is borrowed for the call. rest_free() stops the thread
 * and, on the caller's thread, runs the done callback of every request not
 * yet dispatched (finished ones with their result, the rest with BOT_NET),
 * so callers can always free what they passed as ud.
 */
#ifndef REST_H
#define REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "log.h"

#define REST_MAX_BODY (1u << 20)      /* response bytes kept */
/* A request body at most: Discord's request size limit (25 MiB), which a
 * file upload may come near. */
#define REST_MAX_REQUEST (25u * 1024 * 1024)
/* "Content-Type: multipart/form-data; boundary=..." */
#define REST_MAX_CTYPE 128
#define REST_MAX_PATH 1024
/* Finished requests' curl handles kept for the next ones (each holds
 * about 23 KB of buffers): more than the requests usually in flight. */
#define REST_EASY_IDLE 16
#define REST_MAX_429_RETRIES 5
#define REST_USER_AGENT_URL "https://github.com/fray-bot/fray"
/* Requests waiting on one rate-limited route (one channel's messages, one
 * message's edits): Discord drains a channel at about five messages in
 * five seconds, so more than this is a backlog of minutes. Beyond it
 * rest_submit() refuses (BOT_LIMIT) and the caller decides (the daemon
 * folds GM copies before they get here). Interaction callbacks and
 * webhooks are per interaction and never refused. */
#define REST_MAX_QUEUED_PER_ROUTE 32

struct rest;

struct rest_result {
    enum bot_err err;        /* BOT_OK when an HTTP status was received */
    int status;              /* HTTP status, 0 on transport failure */
    int discord_code;        /* JSON error "code", 0 if none */
    const char *body;        /* response body (NUL-terminated), may be "" */
    size_t body_len;
    int attempts;
    int64_t queued_ms;       /* submit -> completion, milliseconds */
    int64_t done_us;         /* completion on the REST thread, CLOCK_MONOTONIC
                                microseconds (before the caller's loop got
                                to the done callback) */
};

typedef void rest_done_fn(void *ud, const struct rest_result *res);
typedef void rest_wake_fn(void *ud);

struct rest_opts {
    const char *api_base;    /* "https://discord.com/api/v10" (copied) */
    const char *token;       /* bot token (copied, wiped on free) */
    int64_t connect_timeout_ms;
    int64_t timeout_ms;
    int max_retries;
    int64_t retry_base_ms;
    int global_per_sec;
    void *tls_store;         /* X509_STORE shared with the gateway (tls.h),
                                borrowed, must outlive the rest; NULL:
                                curl loads the CA bundle itself */
    struct log *log;         /* borrowed; must outlive the rest */
    rest_wake_fn *wake;      /* called on the REST thread when results wait */
    void *wake_ud;
};

enum bot_err rest_new(const struct rest_opts *o, struct rest **out);

/* Stop the thread, complete what is left (see above), free everything. */
void rest_free(struct rest *r);

/* Queue a request. body may be NULL (no body). done may be NULL. Returns
 * BOT_AUTH once a 401 was seen, BOT_LIMIT when REST_MAX_QUEUED_PER_ROUTE
 * requests already wait on its route, BOT_NOMEM, else BOT_OK; done is
 * called only after BOT_OK. */
enum bot_err rest_submit(struct rest *r, const char *method, const char *path,
                         const char *body, rest_done_fn *done, void *ud);

/* rest_submit() with a body of len bytes (binary allowed) sent with the
 * given Content-Type ("application/json", or a multipart/form-data type
 * from multipart.h). Also BOT_LIMIT when len is over REST_MAX_REQUEST or
 * the type over REST_MAX_CTYPE. The body is copied. */
enum bot_err rest_submit_body(struct rest *r, const char *method,
                              const char *path, const char *body, size_t len,
                              const char *content_type, rest_done_fn *done,
                              void *ud);

/* Run the done callbacks of finished requests (on the caller's thread). */
void rest_dispatch_done(struct rest *r);

/* Requests submitted and not yet dispatched. */
int rest_pending(struct rest *r);

/* A 401 was received: the token is wrong. */
bool rest_auth_failed(struct rest *r);

/* Mask long path segments (tokens) for logs: ".../:token/callback". */
void rest_safe_path(const char *path, char *out, size_t cap);

/* A path as a route for the metrics: ids (all digits) become ":id" and
 * tokens ":token", so every channel shares one row:
 * "/interactions/:id/:token/callback". */
void rest_route_template(const char *path, char *out, size_t cap);

/* ---- counters, for the metrics (daemon_metrics.c) ---- */

#define REST_STATS_MAX_ROUTES 48   /* (method, route, status) rows kept;
                                      beyond, one row "other" counts all */
#define REST_STATS_ROUTE_MAX 96    /* bytes of a route template */

struct rest_route_count {
    char method[8];
    char route[REST_STATS_ROUTE_MAX];
    int status;                    /* HTTP status; 0: no answer */
    int64_t n;                     /* responses (retried ones too) */
};

struct rest_stats {
    int64_t ratelimit_waits;       /* requests the rate limiter held back */
    int64_t ratelimit_wait_ms;     /* the time they waited, in total */
    int64_t queued;                /* requests waiting now (not in curl) */
    int64_t queued_peak;           /* the most that ever waited at once */
    int64_t route_full;            /* refused: their route's queue was full */
    int nroutes;
    struct rest_route_count routes[REST_STATS_MAX_ROUTES];
};

/* A copy of the counters since rest_new() (taken under the REST lock). */
void rest_get_stats(struct rest *r, struct rest_stats *out);

#endif
