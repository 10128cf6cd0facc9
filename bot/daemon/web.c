/*
 * web.c - the shared fights' pages (web.h).
 */
#include "web.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cfg.h"
#include "http_listen.h"
#include "cmd_share.h"
#include "render_web.h"
#include "sbuf.h"
#include "store.h"

/* Bytes of a page's whole HTML: the fragment and the shell. */
#define WEB_PAGE_MAX (RENDER_WEB_MAX + 4096)
/* Bytes of an address as counted ("[ffff:...]" fits). */
#define WEB_ADDR_MAX 64
#define WEB_MINUTE_MS 60000
#define WEB_STATUS_TOO_MANY 429         /* lws 4.1 names no 429 */

enum web_kind { WEB_PLAIN, WEB_STREAM };

struct web_fight;

struct web_conn {                  /* lws per-session data */
    struct lws *wsi;
    enum web_kind kind;
    bool counted;                  /* in requests (plain) */
    char *out;                     /* owned: bytes still to write */
    size_t len, sent;
    struct web_fight *fight;       /* a stream's fight, or NULL */
    struct web_conn *next;         /* the fight's next page */
    char addr[WEB_ADDR_MAX];       /* who asked (client_addr) */
    bool gone;                     /* the last event is queued: close once
                                      written */
};

struct web_fight {                 /* a token with pages open */
    char token[RANDTOK_LEN + 1];   /* "" : the slot is free */
    uint64_t channel;
    int64_t version;               /* last sent; 0: none */
    int64_t pushed_ms;             /* when (now_ms); 0: never */
    int npages;
    bool dirty;
    struct web_conn *pages;
};

struct web_addr {                  /* requests of one address this minute */
    char addr[WEB_ADDR_MAX];
    int64_t since_ms;
    int64_t count;
};

struct web {
    struct lws_vhost *vh;
    const struct cfg *cfg;
    struct store *store;
    struct log *log;
    struct lws_context *ctx;
    int requests;                  /* plain requests open now */
    struct web_fight *fights;      /* cfg max_pages slots */
    int nfights;
    bool any_dirty;
    struct web_addr *addrs;        /* WEB_ADDRS_MAX */
    struct web_stats st;
    lws_sorted_usec_list_t sul_ping;  /* reap_cb */
    lws_sorted_usec_list_t sul_push;  /* push_cb: a held-back push */
    int64_t reaps;
    struct lws_protocols protocols[2];
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct web *server_of(struct lws *wsi)
{
    return lws_vhost_user(lws_get_vhost(wsi));
}

/* ---- pages of a fight ---------------------------------------------------- */

static struct web_fight *fight_of(struct web *w, const char *token,
                                  bool make)
{
    struct web_fight *free_slot = NULL;
    for (int i = 0; i < (int)w->cfg->web_max_pages; i++) {
        struct web_fight *f = &w->fights[i];
        if (f->token[0] == '\0') {
            if (free_slot == NULL)
                free_slot = f;
        } else if (strcmp(f->token, token) == 0) {
            return f;
        }
    }
    if (!make || free_slot == NULL)
        return NULL;
    memset(free_slot, 0, sizeof *free_slot);
    snprintf(free_slot->token, sizeof free_slot->token, "%s", token);
    w->nfights++;
    return free_slot;
}

static void page_unlink(struct web *w, struct web_conn *c)
{
    struct web_fight *f = c->fight;
    if (f == NULL)
        return;
    for (struct web_conn **p = &f->pages; *p != NULL; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    c->fight = NULL;
    f->npages--;
    w->st.pages_open--;
    if (f->npages == 0) {
        f->token[0] = '\0';
        w->nfights--;
    }
}

static void conn_drop(struct web *w, struct web_conn *c)
{
    free(c->out);
    c->out = NULL;
    c->len = c->sent = 0;
    if (w != NULL && c->counted)
        w->requests--;
    c->counted = false;
    if (w != NULL)
        page_unlink(w, c);
}

/* c's answer is all written: the connection, kept alive for its next
 * request, holds no place among WEB_REQUESTS_MAX while it waits. */
static int request_done(struct web *w, struct web_conn *c, struct lws *wsi)
{
    if (c->counted)
        w->requests--;
    c->counted = false;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Queue n bytes to c: false (nothing queued) past WEB_PAGE_OUT_MAX. */
static bool queue(struct web_conn *c, const char *s, size_t n)
{
    if (c->sent > 0 && c->sent == c->len)
        c->sent = c->len = 0;
    if (c->len - c->sent + n > WEB_PAGE_OUT_MAX)
        return false;
    if (c->sent > 0) {                /* move the unsent part to the front */
        memmove(c->out, c->out + c->sent, c->len - c->sent);
        c->len -= c->sent;
        c->sent = 0;
    }
    char *p = realloc(c->out, c->len + n + 1);
    if (p == NULL)
        return false;
    memcpy(p + c->len, s, n);
    c->out = p;
    c->len += n;
    return true;
}

/* A page that fell behind (or could not be fed): closed from outside its
 * callbacks; its browser reconnects and catches up. */
static void page_drop(struct web *w, struct web_conn *c)
{
    w->st.pages_dropped++;
    page_unlink(w, c);
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* event (whole SSE text) to every page of f. */
static void fight_send(struct web *w, struct web_fight *f, const char *ev,
                       size_t n, bool gone)
{
    struct web_conn *c = f->pages, *next;
    for (; c != NULL; c = next) {
        next = c->next;
        if (!queue(c, ev, n)) {
            page_drop(w, c);
            continue;
        }
        w->st.events_sent++;
        c->gone = c->gone || gone;
        lws_callback_on_writable(c->wsi);
    }
}

/* The SSE text of one state: id, event name, the fragment's lines. */
static void sse_event(struct sbuf *ev, int64_t id, const char *name,
                      const char *data)
{
    if (id > 0)
        sbuf_addf(ev, "id: %" PRId64 "\n", id);
    sbuf_addf(ev, "event: %s\n", name);
    for (const char *p = data; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
        sbuf_add(ev, "data: ");
        sbuf_addn(ev, p, n);
        sbuf_addc(ev, '\n');
        p += n + (nl != NULL);
    }
    sbuf_addc(ev, '\n');
}

/* The event for token's state now into ev: "fight" with its version, or
 * "gone". *version 0 for gone; false when the store failed (try later). */
static bool state_event(struct web *w, const char *token, struct sbuf *ev,
                        int64_t *version)
{
    struct cmd_share_view v;
    struct sbuf frag;
    enum bot_err err = cmd_share_view_load(w->store, token, &v);
    sbuf_init(&frag, RENDER_WEB_MAX);
    *version = 0;
    if (err == BOT_NOTFOUND) {
        render_web_gone(&frag);
        sse_event(ev, 0, "gone", sbuf_str(&frag));
    } else if (err == BOT_OK) {
        render_web_fight(&frag, v.enc, v.change, v.nchanges, v.lang);
        *version = v.enc->version;
        sse_event(ev, *version, "fight", sbuf_str(&frag));
    }
    sbuf_cleanup(&frag);
    cmd_share_view_cleanup(&v);
    if (err != BOT_OK && err != BOT_NOTFOUND)
        log_msg(w->log, LOG_LVL_WARN, "web: a shared fight could not be "
                "read: %s", store_errmsg(w->store));
    return (err == BOT_OK || err == BOT_NOTFOUND) &&
           sbuf_error(ev) == SBUF_OK;
}

void web_changed(struct web *w, uint64_t channel)
{
    if (w == NULL || w->nfights == 0)
        return;
    for (int i = 0; i < (int)w->cfg->web_max_pages; i++)
        if (w->fights[i].token[0] != '\0' &&
            w->fights[i].channel == channel) {
            w->fights[i].dirty = true;
            w->any_dirty = true;
        }
}

static void push_cb(lws_sorted_usec_list_t *sul)
{
    web_flush(lws_container_of(sul, struct web, sul_push));
}

void web_flush(struct web *w)
{
    int64_t now, next = 0;
    if (w == NULL || !w->any_dirty)
        return;
    w->any_dirty = false;
    now = now_ms();
    for (int i = 0; i < (int)w->cfg->web_max_pages; i++) {
        struct web_fight *f = &w->fights[i];
        if (f->token[0] == '\0' || !f->dirty)
            continue;
        /* a burst of changes is one event: the newest state, a moment
         * later (WEB_PUSH_MIN_MS) */
        if (f->pushed_ms > 0 && now - f->pushed_ms < WEB_PUSH_MIN_MS) {
            int64_t due = f->pushed_ms + WEB_PUSH_MIN_MS;
            next = next == 0 || due < next ? due : next;
            w->any_dirty = true;
            continue;
        }
        f->dirty = false;
        struct sbuf ev;
        int64_t version;
        sbuf_init(&ev, RENDER_WEB_MAX * 2);
        if (state_event(w, f->token, &ev, &version) &&
            (version == 0 || version != f->version)) {
            f->version = version;
            f->pushed_ms = now;
            /* the fight may lose its last page here: its slot is free */
            fight_send(w, f, ev.buf, ev.len, version == 0);
        }
        sbuf_cleanup(&ev);
    }
    if (next > 0)                     /* (re)armed for the soonest */
        lws_sul_schedule(w->ctx, 0, &w->sul_push, push_cb,
                         (next - now) * LWS_US_PER_MS);
}

/* Whether c's browser has gone: lws does not read a stream's socket
 * once its answer began, so its end is looked for here. */
static bool peer_gone(struct web_conn *c)
{
    char b;
    int fd = (int)lws_get_socket_fd(c->wsi);
    return fd >= 0 && recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* Every WEB_REAP_MS: pages whose browser went are freed; every
 * WEB_PING_MS idle streams get a comment, so proxies keep them open. */
static void reap_cb(lws_sorted_usec_list_t *sul)
{
    struct web *w = lws_container_of(sul, struct web, sul_ping);
    static const char ping[] = ":\n\n";
    bool ping_now = (w->reaps++ % (WEB_PING_MS / WEB_REAP_MS)) == 0;
    for (int i = 0; i < (int)w->cfg->web_max_pages; i++) {
        struct web_fight *f = &w->fights[i];
        struct web_conn *c = f->token[0] != '\0' ? f->pages : NULL, *next;
        for (; c != NULL; c = next) {
            next = c->next;
            if (peer_gone(c)) {
                page_unlink(w, c);
                lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK,
                                LWS_TO_KILL_ASYNC);
            } else if (ping_now && c->len == c->sent &&
                       queue(c, ping, sizeof ping - 1)) {
                lws_callback_on_writable(c->wsi);
            }
        }
    }
    lws_sul_schedule(w->ctx, 0, &w->sul_ping, reap_cb,
                     WEB_REAP_MS * LWS_US_PER_MS);
}

/* ---- requests ------------------------------------------------------------ */

/* Who sent the request: the peer, or behind a proxy on this machine the
 * last address of X-Forwarded-For (the one the proxy added). */
static void client_addr(struct lws *wsi, char *out, size_t cap)
{
    char xff[256];
    lws_get_peer_simple(wsi, out, cap);
    bool local = strncmp(out, "127.", 4) == 0 || strcmp(out, "::1") == 0 ||
                 strncmp(out, "::ffff:127.", 11) == 0;
    if (!local ||
        lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return;
    const char *last = strrchr(xff, ',');
    last = last != NULL ? last + 1 : xff;
    while (*last == ' ')
        last++;
    if (*last != '\0')
        snprintf(out, cap, "%s", last);
}

/* Whether addr may make another request this minute. */
static bool rate_ok(struct web *w, const char *addr)
{
    int64_t now = now_ms(), limit = w->cfg->web_requests_per_minute;
    struct web_addr *slot = NULL, *oldest = &w->addrs[0];
    if (limit <= 0)
        return true;
    for (int i = 0; i < WEB_ADDRS_MAX && slot == NULL; i++) {
        struct web_addr *a = &w->addrs[i];
        if (strcmp(a->addr, addr) == 0)
            slot = a;
        else if (a->since_ms < oldest->since_ms)
            oldest = a;
    }
    if (slot == NULL) {               /* the least recent one makes room */
        slot = oldest;
        snprintf(slot->addr, sizeof slot->addr, "%s", addr);
        slot->since_ms = now;
        slot->count = 0;
    }
    if (now - slot->since_ms >= WEB_MINUTE_MS) {
        slot->since_ms = now;
        slot->count = 0;
    }
    return ++slot->count <= limit;
}

/* How many pages addr has open, on any fight. */
static int64_t pages_of(const struct web *w, const char *addr)
{
    int64_t n = 0;
    for (int64_t i = 0; i < w->cfg->web_max_pages; i++)
        for (const struct web_conn *c = w->fights[i].pages; c != NULL;
             c = c->next)
            n += strcmp(c->addr, addr) == 0;
    return n;
}

/* The headers every answer carries, then the end of the headers. */
static int head(struct lws *wsi, unsigned int status, const char *type,
                lws_filepos_t len, const char *cache, unsigned char **p,
                unsigned char *end)
{
    static const char csp[] = WEB_CSP;
    if (lws_add_http_common_headers(wsi, status, type, len, p, end) ||
        lws_add_http_header_by_name(wsi,
            (const unsigned char *)"content-security-policy:",
            (const unsigned char *)csp, (int)sizeof csp - 1, p, end) ||
        lws_add_http_header_by_name(wsi,
            (const unsigned char *)"x-content-type-options:",
            (const unsigned char *)"nosniff", 7, p, end) ||
        lws_add_http_header_by_name(wsi,
            (const unsigned char *)"referrer-policy:",
            (const unsigned char *)"no-referrer", 11, p, end) ||
        lws_add_http_header_by_name(wsi,
            (const unsigned char *)"cache-control:",
            (const unsigned char *)cache, (int)strlen(cache), p, end))
        return -1;
    return 0;
}

/* A whole answer of len bytes (body taken) written on WRITEABLE. */
static int answer(struct lws *wsi, struct web_conn *c, unsigned int status,
                  const char *type, char *body, size_t len,
                  const char *cache, const char *extra_name,
                  const char *extra_value)
{
    unsigned char hbuf[LWS_PRE + 2048], *start = hbuf + LWS_PRE, *p = start;
    unsigned char *end = hbuf + sizeof hbuf - 1;

    free(c->out);
    c->out = body;
    c->len = len;
    c->sent = 0;
    if (head(wsi, status, type, len, cache, &p, end) ||
        (extra_name != NULL &&
         lws_add_http_header_by_name(wsi, (const unsigned char *)extra_name,
                                     (const unsigned char *)extra_value,
                                     (int)strlen(extra_value), &p, end)) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    if (len == 0)
        return request_done(server_of(wsi), c, wsi);
    lws_callback_on_writable(wsi);
    return 0;
}

static int answer_text(struct lws *wsi, struct web_conn *c,
                       unsigned int status, const char *text,
                       const char *extra_name, const char *extra_value)
{
    char *body = strdup(text);
    if (body == NULL)
        return -1;
    return answer(wsi, c, status, "text/plain; charset=utf-8", body,
                  strlen(body), "no-store", extra_name, extra_value);
}

/* The page of a token (or the gone page). */
static int serve_page(struct lws *wsi, struct web *w, struct web_conn *c,
                      const char *token, bool overlay)
{
    struct cmd_share_view v;
    struct sbuf frag, page;
    char title[ENC_MAX_ENC_NAME + 16];
    enum bot_err err = cmd_share_view_load(w->store, token, &v);

    if (err != BOT_OK && err != BOT_NOTFOUND)
        return answer_text(wsi, c, HTTP_STATUS_SERVICE_UNAVAILABLE,
                           "fray could not read the fight; try again\n",
                           "retry-after:", "5");
    sbuf_init(&frag, RENDER_WEB_MAX);
    sbuf_init(&page, WEB_PAGE_MAX);
    if (err == BOT_OK) {
        render_web_fight(&frag, v.enc, v.change, v.nchanges, v.lang);
        snprintf(title, sizeof title, "%s \xC2\xB7 fray",
                 v.enc->name[0] ? v.enc->name : i18n_get(v.lang, "Fight"));
    } else {
        render_web_gone(&frag);
        snprintf(title, sizeof title, "fray");
    }
    render_web_page(&page, title, sbuf_str(&frag), overlay, err == BOT_OK,
                    err == BOT_OK ? v.lang : I18N_EN);
    cmd_share_view_cleanup(&v);
    sbuf_cleanup(&frag);
    if (sbuf_error(&page) != SBUF_OK) {
        sbuf_cleanup(&page);
        return answer_text(wsi, c, HTTP_STATUS_INTERNAL_SERVER_ERROR,
                           "the page could not be drawn\n", NULL, NULL);
    }
    size_t len = page.len;
    return answer(wsi, c, err == BOT_OK ? HTTP_STATUS_OK
                                        : HTTP_STATUS_NOT_FOUND,
                  "text/html; charset=utf-8", sbuf_take(&page), len,
                  "no-store", NULL, NULL);
}

/* A token's event stream: the state now, then every change. */
static int serve_events(struct lws *wsi, struct web *w, struct web_conn *c,
                        const char *token)
{
    unsigned char hbuf[LWS_PRE + 2048], *start = hbuf + LWS_PRE, *p = start;
    unsigned char *end = hbuf + sizeof hbuf - 1;
    uint64_t channel;
    enum bot_err err = cmd_share_channel(w->store, token, &channel);
    struct web_fight *f;
    struct sbuf ev;
    int64_t version;

    if (err == BOT_NOTFOUND)
        return serve_page(wsi, w, c, token, false);
    if (err != BOT_OK)
        return answer_text(wsi, c, HTTP_STATUS_SERVICE_UNAVAILABLE,
                           "fray could not read the fight; try again\n",
                           "retry-after:", "5");
    f = fight_of(w, token, false);
    if (w->st.pages_open >= w->cfg->web_max_pages ||
        (f != NULL && f->npages >= w->cfg->web_max_pages_per_fight) ||
        pages_of(w, c->addr) >= w->cfg->web_max_pages_per_address) {
        w->st.refused++;
        return answer_text(wsi, c, HTTP_STATUS_SERVICE_UNAVAILABLE,
                           "too many pages are open; try again later\n",
                           "retry-after:", "30");
    }
    sbuf_init(&ev, RENDER_WEB_MAX * 2);
    sbuf_addf(&ev, "retry: %d\n\n", WEB_RETRY_MS);
    if (!state_event(w, token, &ev, &version) || version == 0) {
        sbuf_cleanup(&ev);
        return version == 0 ? serve_page(wsi, w, c, token, false)
                            : answer_text(wsi, c,
                                          HTTP_STATUS_SERVICE_UNAVAILABLE,
                                          "fray could not read the fight; "
                                          "try again\n", "retry-after:",
                                          "5");
    }
    if (head(wsi, HTTP_STATUS_OK, "text/event-stream",
             LWS_ILLEGAL_HTTP_CONTENT_LEN, "no-store", &p, end) ||
        lws_add_http_header_by_name(wsi,
            (const unsigned char *)"x-accel-buffering:",
            (const unsigned char *)"no", 2, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
        sbuf_cleanup(&ev);
        return -1;
    }
    lws_http_mark_sse(wsi);
    int fd = (int)lws_get_socket_fd(wsi), sndbuf = WEB_PAGE_SNDBUF;
    if (fd >= 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (c->counted) {                 /* a page now, not a request */
        w->requests--;
        c->counted = false;
    }
    f = fight_of(w, token, true);
    if (f == NULL)                    /* a page per fight at least: never */
        return -1;
    c->kind = WEB_STREAM;
    c->fight = f;
    c->next = f->pages;
    f->pages = c;
    f->npages++;
    f->channel = channel;
    w->st.pages_open++;
    if (f->version == 0)
        f->version = version;
    bool ok = queue(c, ev.buf, ev.len);
    sbuf_cleanup(&ev);
    if (!ok)
        return -1;
    w->st.events_sent++;
    lws_callback_on_writable(wsi);
    return 0;
}

static int serve_static(struct lws *wsi, struct web_conn *c, const char *s,
                        const char *type)
{
    char *body = strdup(s);
    if (body == NULL)
        return -1;
    return answer(wsi, c, HTTP_STATUS_OK, type, body, strlen(body),
                  "max-age=300", NULL, NULL);
}

static int on_http(struct lws *wsi, struct web *w, struct web_conn *c,
                   const char *uri)
{
    char addr[WEB_ADDR_MAX], arg[32], token[RANDTOK_LEN + 1];
    const char *rest;
    size_t n;

    c->wsi = wsi;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
        return answer_text(wsi, c, HTTP_STATUS_METHOD_NOT_ALLOWED,
                           "only GET is served\n", NULL, NULL);
    client_addr(wsi, addr, sizeof addr);
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    if (!rate_ok(w, addr)) {
        w->st.refused++;
        return answer_text(wsi, c, WEB_STATUS_TOO_MANY,
                           "too many requests; try again in a minute\n",
                           "retry-after:", "60");
    }
    if (strcmp(uri, "/static/fray.css") == 0)
        return serve_static(wsi, c, web_css, "text/css; charset=utf-8");
    if (strcmp(uri, "/static/fray.js") == 0)
        return serve_static(wsi, c, web_js,
                            "text/javascript; charset=utf-8");
    if (strncmp(uri, "/s/", 3) != 0)
        return answer_text(wsi, c, HTTP_STATUS_NOT_FOUND, "not found\n",
                           NULL, NULL);
    /* Whatever follows /s/ up to a slash is the token; a malformed one
     * is answered as an unknown one (cmd_share checks its shape). */
    rest = uri + 3;
    n = strcspn(rest, "/");
    snprintf(token, sizeof token, "%.*s", (int)(n < RANDTOK_LEN ? n
                                                : RANDTOK_LEN), rest);
    if (n != RANDTOK_LEN)
        token[0] = '\0';
    if (strcmp(rest + n, "/events") == 0)
        return serve_events(wsi, w, c, token);
    if (rest[n] != '\0')
        token[0] = '\0';
    bool overlay = false;
    for (int i = 0; lws_hdr_copy_fragment(wsi, arg, sizeof arg,
                                          WSI_TOKEN_HTTP_URI_ARGS, i) > 0;
         i++)
        overlay = overlay || strcmp(arg, "overlay=1") == 0;
    return serve_page(wsi, w, c, token, overlay);
}

static int on_writeable(struct lws *wsi, struct web *w, struct web_conn *c)
{
    unsigned char buf[LWS_PRE + WEB_CHUNK];
    size_t n;
    bool last;

    if (c->out == NULL || c->sent >= c->len)
        return 0;
    n = c->len - c->sent;
    if (n > WEB_CHUNK)
        n = WEB_CHUNK;
    last = c->sent + n == c->len;
    memcpy(buf + LWS_PRE, c->out + c->sent, n);
    if (lws_write(wsi, buf + LWS_PRE, n,
                  last && c->kind == WEB_PLAIN ? LWS_WRITE_HTTP_FINAL
                                               : LWS_WRITE_HTTP) != (int)n)
        return -1;
    c->sent += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (c->kind == WEB_STREAM) {
        /* an idle page holds no buffer: most wait between two changes */
        free(c->out);
        c->out = NULL;
        c->sent = c->len = 0;
        if (c->gone) {
            page_unlink(w, c);
            return -1;                /* the link died: the stream ends */
        }
        return 0;
    }
    free(c->out);
    c->out = NULL;
    return request_done(w, c, wsi);
}

static int web_cb(struct lws *wsi, enum lws_callback_reasons reason,
                  void *user, void *in, size_t len)
{
    struct web *w = server_of(wsi);
    struct web_conn *c = user;

    switch (reason) {
    case LWS_CALLBACK_HTTP_BIND_PROTOCOL:
        if (w == NULL || c == NULL)
            break;
        c->wsi = wsi;
        c->kind = WEB_PLAIN;
        c->gone = false;
        break;
    case LWS_CALLBACK_HTTP:
        if (w == NULL || c == NULL)
            return -1;
        /* counted while its answer is written (request_done), not while
         * its connection is kept alive for the next: idle connections
         * must not refuse everyone else's pages */
        if (!c->counted && w->requests >= WEB_REQUESTS_MAX)
            return -1;                /* refused: too many at once */
        if (!c->counted)
            w->requests++;
        c->counted = true;
        return on_http(wsi, w, c, in ? (const char *)in : "");
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return http_listen_refuses();
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return c != NULL && w != NULL ? on_writeable(wsi, w, c) : -1;
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (c != NULL)
            conn_drop(w, c);
        break;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

enum bot_err web_start(struct lws_context *ctx, const char *host, int port,
                       const struct cfg *cfg, struct store *store,
                       struct log *lg, struct web **out, char *err,
                       size_t errlen)
{
    struct web *w = calloc(1, sizeof *w);

    *out = NULL;
    if (w != NULL) {
        w->fights = calloc((size_t)cfg->web_max_pages, sizeof *w->fights);
        w->addrs = calloc(WEB_ADDRS_MAX, sizeof *w->addrs);
    }
    if (w == NULL || w->fights == NULL || w->addrs == NULL) {
        web_free(w);
        snprintf(err, errlen, "web: out of memory");
        return BOT_NOMEM;
    }
    w->cfg = cfg;
    w->store = store;
    w->log = lg;
    w->ctx = ctx;
    w->protocols[0] = (struct lws_protocols){
        WEB_PROTOCOL, web_cb, sizeof(struct web_conn), 0, 0, NULL, 0};
    w->vh = http_listen_start(ctx, &(struct http_listen){
        "web", host, port, w->protocols, w, WEB_KEEPALIVE_S, WEB_IDLE_S},
        err, errlen);
    if (w->vh == NULL) {
        web_free(w);
        return BOT_IO;
    }
    lws_sul_schedule(ctx, 0, &w->sul_ping, reap_cb,
                     WEB_REAP_MS * LWS_US_PER_MS);
    *out = w;
    return BOT_OK;
}

void web_detach(struct web *w)
{
    if (w == NULL)
        return;
    lws_sul_cancel(&w->sul_ping);
    lws_sul_cancel(&w->sul_push);
}

void web_free(struct web *w)
{
    if (w == NULL)
        return;
    free(w->fights);
    free(w->addrs);
    free(w);
}

int web_port(const struct web *w)
{
    return w != NULL ? lws_get_vhost_listen_port(w->vh) : 0;
}

void web_get_stats(const struct web *w, struct web_stats *out)
{
    if (w == NULL)
        memset(out, 0, sizeof *out);
    else
        *out = w->st;
}
