/*
 * rest.c - the REST thread: a queue, curl multi, the rate limiter.
 */
#include "rest.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rest_ratelimit.h"
#include "sbuf.h"
#include "tls.h"
#include "token.h"

#define REST_TOKEN_SEGMENT 40         /* longer path segments are masked */
#define REST_MAX_CONNS 32          /* per host; HTTP/2 multiplexes on them */
#define REST_H2_STREAMS 8          /* transfers handed to curl per
                                      connection over HTTP/2 */
#define REST_MAX_CACHED_CONNS 32   /* idle connections kept for reuse */
#define REST_IDLE_POLL_MS 1000     /* nothing queued, nothing in curl */
#define REST_DEFAULT_RETRY_MS 1000   /* a 429 without a usable retry_after */

struct rest_req {
    struct rest_req *next;
    char method[8];
    char *path;                   /* both in the request's own allocation */
    char *safe;                   /* path with tokens masked, for logs */
    char route[RL_MAX_KEY];
    bool exempt;
    char *body;                   /* body_len bytes (a NUL after them) */
    size_t body_len;
    char ctype[REST_MAX_CTYPE];   /* its Content-Type header line */
    rest_done_fn *done;
    void *ud;
    int attempts, n429;
    int64_t not_before_ms, submitted_ms;
    int64_t rl_since_ms;          /* held back by the limiter since; 0 no */
    CURL *easy;
    struct rest_req *aprev, *anext;   /* r->active, while in curl */
    struct curl_slist *hdrs;
    struct sbuf resp;
    struct rl_headers h;
    struct rest_result res;
};

struct rest {
    char *api_base;
    char auth[TOKEN_MAX_LEN + 32];
    char ua[128];
    struct rest_opts o;
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    struct rest_req *waiting, *waiting_tail;  /* under mu */
    struct rest_req *done, *done_tail;        /* under mu */
    int pending;                              /* under mu */
    bool stop;                                /* under mu */
    bool auth_failed;                         /* under mu */
    struct rest_stats stats;                  /* under mu */
    CURLM *multi;
    bool tls;                                 /* api_base is https */
    struct rl rl;                             /* REST thread only */
    struct rest_req *active;                  /* REST thread only */
    int nactive, max_active;                  /* REST thread only */
    CURL *idle[REST_EASY_IDLE];               /* REST thread only */
    int nidle;
};

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Copy path with its long segments (tokens) as ":token"; with route also
 * its all-digit segments (ids) as ":id", and without the query. */
static void mask_path(const char *path, char *out, size_t cap, bool route)
{
    struct sbuf sb;
    const char *p = path;

    sbuf_init(&sb, cap ? cap - 1 : 0);
    while (*p && !(route && *p == '?')) {
        const char *s = p;
        size_t n;
        if (*p == '/') {
            sbuf_addc(&sb, '/');
            p++;
            continue;
        }
        while (*p && *p != '/' && !(route && *p == '?'))
            p++;
        n = (size_t)(p - s);
        if (n > REST_TOKEN_SEGMENT)
            sbuf_add(&sb, ":token");
        else if (route && strspn(s, "0123456789") >= n)
            sbuf_add(&sb, ":id");
        else
            sbuf_addn(&sb, s, n);
    }
    snprintf(out, cap, "%s", sbuf_str(&sb));
    sbuf_cleanup(&sb);
}

void rest_safe_path(const char *path, char *out, size_t cap)
{
    mask_path(path, out, cap, false);
}

void rest_route_template(const char *path, char *out, size_t cap)
{
    mask_path(path, out, cap, true);
}

/* Requests waiting changed by n (under mu). */
static void queued_add(struct rest *r, int n)
{
    r->stats.queued += n;
    if (r->stats.queued > r->stats.queued_peak)
        r->stats.queued_peak = r->stats.queued;
}

/* One response of q (under no lock: takes mu). */
static void stats_count(struct rest *r, const struct rest_req *q, int status)
{
    struct rest_stats *st = &r->stats;
    char route[REST_STATS_ROUTE_MAX];
    struct rest_route_count *row = NULL;

    rest_route_template(q->path, route, sizeof route);
    pthread_mutex_lock(&r->mu);
    for (int i = 0; i < st->nroutes && !row; i++)
        if (st->routes[i].status == status &&
            strcmp(st->routes[i].method, q->method) == 0 &&
            strcmp(st->routes[i].route, route) == 0)
            row = &st->routes[i];
    if (!row && st->nroutes < REST_STATS_MAX_ROUTES - 1) {
        row = &st->routes[st->nroutes++];
        snprintf(row->method, sizeof row->method, "%s", q->method);
        snprintf(row->route, sizeof row->route, "%s", route);
        row->status = status;
    }
    if (!row) {                   /* the last row takes everything else */
        row = &st->routes[REST_STATS_MAX_ROUTES - 1];
        if (st->nroutes < REST_STATS_MAX_ROUTES) {
            st->nroutes = REST_STATS_MAX_ROUTES;
            snprintf(row->method, sizeof row->method, "*");
            snprintf(row->route, sizeof row->route, "other");
        }
    }
    row->n++;
    pthread_mutex_unlock(&r->mu);
}

void rest_get_stats(struct rest *r, struct rest_stats *out)
{
    pthread_mutex_lock(&r->mu);
    *out = r->stats;
    pthread_mutex_unlock(&r->mu);
}

static void active_add(struct rest *r, struct rest_req *q)
{
    r->nactive++;
    q->aprev = NULL;
    q->anext = r->active;
    if (r->active)
        r->active->aprev = q;
    r->active = q;
}

static void active_remove(struct rest *r, struct rest_req *q)
{
    if (q->aprev || q->anext || r->active == q)
        r->nactive--;
    if (q->aprev)
        q->aprev->anext = q->anext;
    else if (r->active == q)
        r->active = q->anext;
    if (q->anext)
        q->anext->aprev = q->aprev;
    q->aprev = q->anext = NULL;
}

static void req_free(struct rest_req *q)
{
    if (!q)
        return;
    if (q->easy)
        curl_easy_cleanup(q->easy);
    curl_slist_free_all(q->hdrs);
    sbuf_cleanup(&q->resp);
    free(q->body);
    free(q);
}

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    struct rest_req *q = ud;
    sbuf_addn(&q->resp, data, size * n);
    return sbuf_error(&q->resp) == SBUF_OK ? size * n : 0;
}

static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
    struct rest_req *q = ud;
    size_t len = size * n;
    if (len >= 5 && memcmp(data, "HTTP/", 5) == 0)
        memset(&q->h, 0, sizeof q->h);   /* a new response starts */
    rl_parse_header(&q->h, data, len);
    return len;
}

/* A handle for the next request: one a finished request left, already
 * reset to its defaults (curl_easy_reset keeps its buffers), or a new
 * one. A new handle per request cost three blocks of 1.5 to 16 KB and
 * their setup every time. */
static CURL *easy_get(struct rest *r)
{
    return r->nidle > 0 ? r->idle[--r->nidle] : curl_easy_init();
}

/* Done with e: reset (it keeps no pointer into the finished request)
 * and kept for the next, or freed when REST_EASY_IDLE are kept. */
static void easy_put(struct rest *r, CURL *e)
{
    if (r->nidle < REST_EASY_IDLE) {
        curl_easy_reset(e);
        r->idle[r->nidle++] = e;
    } else {
        curl_easy_cleanup(e);
    }
}

static bool req_start(struct rest *r, struct rest_req *q)
{
    char url[REST_MAX_PATH + 256];

    if (q->easy) {
        easy_put(r, q->easy);
        q->easy = NULL;
    }
    curl_slist_free_all(q->hdrs);
    q->hdrs = NULL;
    sbuf_reset(&q->resp);
    memset(&q->h, 0, sizeof q->h);
    q->easy = easy_get(r);
    if (!q->easy)
        return false;
    snprintf(url, sizeof url, "%s%s", r->api_base, q->path);
    q->hdrs = curl_slist_append(NULL, r->auth);
    if (q->hdrs && q->body)
        q->hdrs = curl_slist_append(q->hdrs, q->ctype);
    if (!q->hdrs)
        return false;
    curl_easy_setopt(q->easy, CURLOPT_URL, url);
    curl_easy_setopt(q->easy, CURLOPT_USERAGENT, r->ua);
    curl_easy_setopt(q->easy, CURLOPT_HTTPHEADER, q->hdrs);
    curl_easy_setopt(q->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(q->easy, CURLOPT_CONNECTTIMEOUT_MS,
                     (long)r->o.connect_timeout_ms);
    curl_easy_setopt(q->easy, CURLOPT_TIMEOUT_MS, (long)r->o.timeout_ms);
    curl_easy_setopt(q->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(q->easy, CURLOPT_WRITEDATA, q);
    curl_easy_setopt(q->easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(q->easy, CURLOPT_HEADERDATA, q);
    curl_easy_setopt(q->easy, CURLOPT_PRIVATE, q);
    curl_easy_setopt(q->easy, CURLOPT_PROTOCOLS_STR, "http,https");
    if (r->tls) {
        /* Discord speaks HTTP/2: many requests share one connection
         * instead of each opening its own while the first is still in
         * its TLS handshake */
        curl_easy_setopt(q->easy, CURLOPT_HTTP_VERSION,
                         (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(q->easy, CURLOPT_PIPEWAIT, 1L);
        /* verify against the store the gateway loaded (tls.h), not a
         * second parse of the CA bundle */
        if (r->o.tls_store)
            tls_curl_use_store(q->easy, r->o.tls_store);
    }
    if (strcmp(q->method, "GET") != 0)
        curl_easy_setopt(q->easy, CURLOPT_CUSTOMREQUEST, q->method);
    if (q->body) {
        /* the size first: a file's bytes may hold a NUL */
        curl_easy_setopt(q->easy, CURLOPT_POSTFIELDSIZE, (long)q->body_len);
        curl_easy_setopt(q->easy, CURLOPT_POSTFIELDS, q->body);
    } else if (strcmp(q->method, "POST") == 0 || strcmp(q->method, "PUT") == 0) {
        curl_easy_setopt(q->easy, CURLOPT_POSTFIELDS, "");
    }
    if (curl_multi_add_handle(r->multi, q->easy) != CURLM_OK)
        return false;
    active_add(r, q);
    return true;
}

static void complete(struct rest *r, struct rest_req *q)
{
    q->res.body = sbuf_str(&q->resp);
    q->res.body_len = q->resp.len;
    q->res.attempts = q->attempts;
    q->res.queued_ms = mono_ms() - q->submitted_ms;
    q->res.done_us = mono_us();
    if (q->easy) {
        curl_multi_remove_handle(r->multi, q->easy);
        easy_put(r, q->easy);
        q->easy = NULL;
    }
    active_remove(r, q);
    pthread_mutex_lock(&r->mu);
    q->next = NULL;
    if (r->done_tail)
        r->done_tail->next = q;
    else
        r->done = q;
    r->done_tail = q;
    pthread_mutex_unlock(&r->mu);
    if (r->o.wake)
        r->o.wake(r->o.wake_ud);
}

static void requeue(struct rest *r, struct rest_req *q, int64_t delay_ms)
{
    curl_multi_remove_handle(r->multi, q->easy);
    active_remove(r, q);
    q->not_before_ms = mono_ms() + delay_ms;
    pthread_mutex_lock(&r->mu);
    q->next = r->waiting;          /* front: keeps its place in line */
    r->waiting = q;
    queued_add(r, 1);
    if (!r->waiting_tail)
        r->waiting_tail = q;
    pthread_mutex_unlock(&r->mu);
}

static void finish(struct rest *r, struct rest_req *q, CURLcode cc)
{
    long status = 0;
    int64_t now = mono_ms();
    json_t *j;

    curl_easy_getinfo(q->easy, CURLINFO_RESPONSE_CODE, &status);
    if (cc != CURLE_OK)
        status = 0;
    if (status == 429 && q->resp.len) {   /* the body's float is finer */
        j = json_loadb(sbuf_str(&q->resp), q->resp.len, 0, NULL);
        if (json_is_number(json_object_get(j, "retry_after"))) {
            double s = json_number_value(json_object_get(j, "retry_after"));
            /* negative: ignored (the header or the default applies);
             * huge: cut to RL_MAX_WAIT_MS before any conversion */
            if (s >= 0) {
                q->h.retry_after_ms =
                    s * 1000.0 >= (double)RL_MAX_WAIT_MS
                        ? RL_MAX_WAIT_MS
                        : rl_wait_clamp((int64_t)(s * 1000.0 + 0.999));
                q->h.has_retry_after = true;
            }
        }
        if (json_is_true(json_object_get(j, "global")))
            q->h.global = true;
        json_decref(j);
    }
    rl_on_response(&r->rl, q->route, (int)status, &q->h, now);
    q->res.status = (int)status;
    stats_count(r, q, (int)status);
    if (status == 0) {
        if (q->attempts <= r->o.max_retries) {
            int64_t d = r->o.retry_base_ms << (q->attempts - 1);
            log_msg(r->o.log, LOG_LVL_WARN,
                    "rest: %s %s failed (%s), retry %d in %lld ms", q->method,
                    q->safe, curl_easy_strerror(cc), q->attempts,
                    (long long)d);
            requeue(r, q, d);
            return;
        }
        log_msg(r->o.log, LOG_LVL_ERR, "rest: %s %s failed: %s", q->method,
                q->safe, curl_easy_strerror(cc));
        q->res.err = BOT_NET;
        complete(r, q);
        return;
    }
    if (status == 429 && q->n429 < REST_MAX_429_RETRIES) {
        int64_t wait = q->h.has_retry_after ? q->h.retry_after_ms
                                            : REST_DEFAULT_RETRY_MS;
        q->n429++;
        q->attempts--;             /* a 429 is not a failed attempt */
        log_msg(r->o.log, LOG_LVL_WARN,
                "rest: 429 on %s %s (%s), retry after %lld ms%s", q->method,
                q->safe, q->h.global ? "global" : "bucket", (long long)wait,
                !q->h.has_retry_after       ? " (no usable retry_after)"
                : wait >= RL_MAX_WAIT_MS ? " (the maximum)"
                                            : "");
        requeue(r, q, wait);
        return;
    }
    if (status >= 500 && q->attempts <= r->o.max_retries) {
        int64_t d = r->o.retry_base_ms << (q->attempts - 1);
        log_msg(r->o.log, LOG_LVL_WARN, "rest: %ld on %s %s, retry %d in %lld ms",
                status, q->method, q->safe, q->attempts, (long long)d);
        requeue(r, q, d);
        return;
    }
    if (status == 401) {
        pthread_mutex_lock(&r->mu);
        r->auth_failed = true;
        pthread_mutex_unlock(&r->mu);
        log_msg(r->o.log, LOG_LVL_ERR,
                "rest: 401 Unauthorized on %s %s: the bot token is wrong or "
                "was reset",
                q->method, q->safe);
    }
    if (status >= 400 && q->resp.len) {
        j = json_loadb(sbuf_str(&q->resp), q->resp.len, 0, NULL);
        q->res.discord_code = (int)json_integer_value(json_object_get(j, "code"));
        json_decref(j);
    }
    q->res.err = BOT_OK;
    complete(r, q);
}

/* Move sendable requests from the queue into curl; returns how long to
 * sleep at most before the next one may go. One pass under the lock
 * decides (the limiter is told of each send at once, so two requests of
 * one bucket are judged in order); curl gets them after it. curl gets no
 * more than its connections can carry at once: a transfer curl holds back
 * for a connection is not started in order (a newer one may take the
 * connection that frees), so the backlog waits here, first in first out. */
static int64_t start_ready(struct rest *r)
{
    struct rest_req *q, *prev = NULL, *next, *ready = NULL, **tail = &ready;
    int64_t now = mono_ms(), sleep = REST_IDLE_POLL_MS;
    int nready = 0;
    bool auth_failed;

    pthread_mutex_lock(&r->mu);
    auth_failed = r->auth_failed;
    for (q = r->waiting; q; q = next) {
        int64_t w = 0;
        next = q->next;
        if (!auth_failed && r->nactive + nready >= r->max_active)
            break;            /* a finished transfer wakes the next pass */
        if (!auth_failed) {
            int64_t hold = q->not_before_ms > now ? q->not_before_ms - now
                                                  : 0;
            w = hold;
            /* the global budget first: O(1), and most of a backlog waits
             * on it */
            if (w == 0 && !q->exempt)
                w = rl_global_wait_ms(&r->rl, now);
            if (w == 0)
                w = rl_wait_ms(&r->rl, q->route, q->exempt, now);
            if (w > 0 && hold == 0 && q->rl_since_ms == 0)
                q->rl_since_ms = now;     /* the limiter holds it back */
        }
        if (w > 0) {
            if (w < sleep)
                sleep = w;
            prev = q;
            continue;
        }
        if (prev)
            prev->next = next;
        else
            r->waiting = next;
        if (r->waiting_tail == q)
            r->waiting_tail = prev;
        q->next = NULL;
        *tail = q;
        tail = &q->next;
        nready++;
        queued_add(r, -1);
        if (!auth_failed) {
            q->attempts++;
            rl_on_send(&r->rl, q->route, q->exempt, now);
        }
        if (q->rl_since_ms) {
            r->stats.ratelimit_waits++;
            r->stats.ratelimit_wait_ms += now - q->rl_since_ms;
            q->rl_since_ms = 0;
        }
    }
    pthread_mutex_unlock(&r->mu);
    for (q = ready; q; q = next) {
        next = q->next;
        q->next = NULL;
        if (auth_failed) {
            q->res.err = BOT_AUTH;
            q->res.status = 401;
            complete(r, q);
        } else if (!req_start(r, q)) {
            rl_on_response(&r->rl, q->route, 0, NULL, now);
            q->res.err = BOT_NOMEM;
            complete(r, q);
        }
    }
    return sleep;
}

static void *rest_thread(void *arg)
{
    struct rest *r = arg;
    for (;;) {
        int running = 0, left;
        int64_t sleep;
        long curl_ms = -1;
        CURLMsg *m;
        bool stop;

        pthread_mutex_lock(&r->mu);
        stop = r->stop;
        pthread_mutex_unlock(&r->mu);
        if (stop)
            break;
        sleep = start_ready(r);
        curl_multi_perform(r->multi, &running);
        while ((m = curl_multi_info_read(r->multi, &left))) {
            struct rest_req *q = NULL;
            if (m->msg != CURLMSG_DONE)
                continue;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&q);
            finish(r, q, m->data.result);
            sleep = 0;         /* a slot freed: look at the queue again */
        }
        /* curl's own deadlines (a transfer it held for a connection that
         * just freed, timeouts) come before our idle poll; rest_submit()
         * wakes the poll for new work */
        if (curl_multi_timeout(r->multi, &curl_ms) == CURLM_OK &&
            curl_ms >= 0 && curl_ms < sleep)
            sleep = curl_ms;
        if (sleep > 0)
            curl_multi_poll(r->multi, NULL, 0, (int)sleep, NULL);
    }
    return NULL;
}

enum bot_err rest_new(const struct rest_opts *o, struct rest **out)
{
    struct rest *r = calloc(1, sizeof *r);

    *out = NULL;
    if (!r)
        return BOT_NOMEM;
    r->o = *o;
    r->api_base = strdup(o->api_base);
    snprintf(r->auth, sizeof r->auth, "Authorization: Bot %s", o->token);
    snprintf(r->ua, sizeof r->ua, "DiscordBot (%s, %s)", REST_USER_AGENT_URL,
             FRAY_VERSION);
    rl_init(&r->rl, o->global_per_sec);
    pthread_mutex_init(&r->mu, NULL);
    r->multi = curl_multi_init();
    if (!r->api_base || !r->multi) {
        rest_free(r);
        return BOT_NOMEM;
    }
    curl_multi_setopt(r->multi, CURLMOPT_MAX_HOST_CONNECTIONS,
                      (long)REST_MAX_CONNS);
    curl_multi_setopt(r->multi, CURLMOPT_MAXCONNECTS,
                      (long)REST_MAX_CACHED_CONNS);
    curl_multi_setopt(r->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    r->tls = strncmp(r->api_base, "https:", 6) == 0;
    r->max_active = r->tls ? REST_MAX_CONNS * REST_H2_STREAMS : REST_MAX_CONNS;
    if (pthread_create(&r->thread, NULL, rest_thread, r) != 0) {
        rest_free(r);
        return BOT_NOMEM;
    }
    r->thread_started = true;
    *out = r;
    return BOT_OK;
}

/* Complete q with a transport failure on the caller's thread (so its done
 * callback can release what it owns), then free it. */
static void drop_req(struct rest_req *q)
{
    if (q->done) {
        memset(&q->res, 0, sizeof q->res);
        q->res.err = BOT_NET;
        q->res.body = "";
        q->done(q->ud, &q->res);
    }
    req_free(q);
}

static void drop_list(struct rest_req *q)
{
    while (q) {
        struct rest_req *n = q->next;
        drop_req(q);
        q = n;
    }
}

void rest_free(struct rest *r)
{
    if (!r)
        return;
    if (r->thread_started) {
        pthread_mutex_lock(&r->mu);
        r->stop = true;
        pthread_mutex_unlock(&r->mu);
        curl_multi_wakeup(r->multi);
        pthread_join(r->thread, NULL);
    }
    /* finished ones first, in order; then what never finished */
    rest_dispatch_done(r);
    while (r->active) {
        struct rest_req *q = r->active;
        active_remove(r, q);
        curl_multi_remove_handle(r->multi, q->easy);
        drop_req(q);
    }
    drop_list(r->waiting);
    r->waiting = NULL;
    while (r->nidle > 0)
        curl_easy_cleanup(r->idle[--r->nidle]);
    if (r->multi)
        curl_multi_cleanup(r->multi);
    token_wipe(r->auth, sizeof r->auth);
    pthread_mutex_destroy(&r->mu);
    free(r->api_base);
    free(r);
}

/* Requests waiting on route (under mu). The queue is short (every route
 * but the interactions' own is capped), so a walk is cheap. */
static int route_queued(const struct rest *r, const char *route)
{
    int n = 0;
    for (const struct rest_req *q = r->waiting; q; q = q->next)
        if (strcmp(q->route, route) == 0)
            n++;
    return n;
}

enum bot_err rest_submit(struct rest *r, const char *method, const char *path,
                         const char *body, rest_done_fn *done, void *ud)
{
    return rest_submit_body(r, method, path, body, body ? strlen(body) : 0,
                            "application/json", done, ud);
}

enum bot_err rest_submit_body(struct rest *r, const char *method,
                              const char *path, const char *body, size_t len,
                              const char *content_type, rest_done_fn *done,
                              void *ud)
{
    struct rest_req *q;
    size_t plen;

    if (strlen(method) >= sizeof q->method || strlen(path) >= REST_MAX_PATH ||
        len > REST_MAX_REQUEST ||
        strlen(content_type) + sizeof "Content-Type: " > REST_MAX_CTYPE)
        return BOT_LIMIT;
    pthread_mutex_lock(&r->mu);
    if (r->auth_failed) {
        pthread_mutex_unlock(&r->mu);
        return BOT_AUTH;
    }
    pthread_mutex_unlock(&r->mu);
    /* path and its masked copy (never longer) live after the struct: a
     * backlog of tracker edits costs what its paths need, not 2 KiB each */
    plen = strlen(path) + 1;
    q = calloc(1, sizeof *q + 2 * plen);
    if (!q)
        return BOT_NOMEM;
    q->path = (char *)(q + 1);
    q->safe = q->path + plen;
    snprintf(q->method, sizeof q->method, "%s", method);
    memcpy(q->path, path, plen);
    rest_safe_path(path, q->safe, plen);
    if (!rl_route_key(method, path, q->route, sizeof q->route, &q->exempt))
        snprintf(q->route, sizeof q->route, "%s %.100s", method, q->safe);
    sbuf_init(&q->resp, REST_MAX_BODY);
    if (body != NULL) {
        /* copied with a NUL after it, so a JSON body prints in a log */
        q->body = malloc(len + 1);
        if (q->body == NULL) {
            req_free(q);
            return BOT_NOMEM;
        }
        memcpy(q->body, body, len);
        q->body[len] = '\0';
        q->body_len = len;
        snprintf(q->ctype, sizeof q->ctype, "Content-Type: %s",
                 content_type);
    }
    q->done = done;
    q->ud = ud;
    q->submitted_ms = mono_ms();
    pthread_mutex_lock(&r->mu);
    if (!q->exempt && route_queued(r, q->route) >= REST_MAX_QUEUED_PER_ROUTE) {
        r->stats.route_full++;
        pthread_mutex_unlock(&r->mu);
        log_msg(r->o.log, LOG_LVL_WARN, "rest: %s %s not queued: %d requests "
                "already wait on its route", q->method, q->safe,
                REST_MAX_QUEUED_PER_ROUTE);
        req_free(q);
        return BOT_LIMIT;
    }
    queued_add(r, 1);
    if (r->waiting_tail)
        r->waiting_tail->next = q;
    else
        r->waiting = q;
    r->waiting_tail = q;
    r->pending++;
    pthread_mutex_unlock(&r->mu);
    curl_multi_wakeup(r->multi);
    return BOT_OK;
}

void rest_dispatch_done(struct rest *r)
{
    struct rest_req *list;

    pthread_mutex_lock(&r->mu);
    list = r->done;
    r->done = r->done_tail = NULL;
    pthread_mutex_unlock(&r->mu);
    while (list) {
        struct rest_req *n = list->next;
        if (list->done)
            list->done(list->ud, &list->res);
        pthread_mutex_lock(&r->mu);
        r->pending--;
        pthread_mutex_unlock(&r->mu);
        req_free(list);
        list = n;
    }
}

int rest_pending(struct rest *r)
{
    int n;
    pthread_mutex_lock(&r->mu);
    n = r->pending;
    pthread_mutex_unlock(&r->mu);
    return n;
}

bool rest_auth_failed(struct rest *r)
{
    bool b;
    pthread_mutex_lock(&r->mu);
    b = r->auth_failed;
    pthread_mutex_unlock(&r->mu);
    return b;
}
