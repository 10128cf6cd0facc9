/*
 * gw.c - gateway connection: lws glue, timers, state, reconnect policy.
 */
#include "gw_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eng_rng.h"
#include "gw_seqfile.h"
#include "store.h"

static const char *const state_names[] = {
    [GW_ST_IDLE] = "idle",           [GW_ST_CONNECTING] = "connecting",
    [GW_ST_HELLO] = "hello",         [GW_ST_IDENTIFYING] = "identifying",
    [GW_ST_RESUMING] = "resuming",   [GW_ST_READY] = "ready",
    [GW_ST_CLOSING] = "closing",     [GW_ST_WAITING] = "waiting",
    [GW_ST_FATAL] = "fatal",         [GW_ST_STOPPED] = "stopped",
};

static void connect_now(struct gw *gw);
static void on_disconnected(struct gw *gw, const char *why);

int64_t gw_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *gw_state_name(enum gw_state s)
{
    if ((unsigned)s >= sizeof state_names / sizeof state_names[0])
        return "?";
    return state_names[s];
}

enum gw_state gw_get_state(const struct gw *gw)
{
    return gw->state;
}

void gw_get_stats(const struct gw *gw, struct gw_stats *out)
{
    *out = gw->stats;
}

int64_t gw_seq(const struct gw *gw)
{
    return gw->seq;
}

int64_t gw_seq_before(const struct gw *gw)
{
    return gw->seq_before;
}

/* The one place the state changes. */
void gw_set_state(struct gw *gw, enum gw_state s, const char *why)
{
    if (gw->state == s)
        return;
    log_msg(gw->o.log, s == GW_ST_FATAL ? LOG_LVL_ERR : LOG_LVL_INFO,
            "gateway: %s -> %s (%s)", gw_state_name(gw->state),
            gw_state_name(s), why);
    gw->state = s;
}

/* ---- pure policy ---- */

enum gw_next gw_close_next(int code)
{
    switch (code) {
    case 4004: case 4010: case 4011: case 4012: case 4013: case 4014:
        return GW_NEXT_FATAL;
    case 4003: case 4005: case 4007: case 4009:
        return GW_NEXT_NEW_SESSION;
    default:
        return GW_NEXT_RESUME;     /* 1000/1001 from the server included:
                                      a dead session answers op 9 false */
    }
}

int64_t gw_backoff_ms(int attempt, int64_t min_ms, int64_t max_ms,
                      struct eng_rng *rng)
{
    int64_t d = min_ms;
    for (int i = 0; i < attempt && d < max_ms; i++)
        d *= 2;
    if (d > max_ms)
        d = max_ms;
    /* full value minus up to half, so clients spread out */
    return d - (int64_t)eng_rng_below(rng, (uint64_t)(d / 2) + 1);
}

bool gw_sendwin_take(struct gw_sendwin *w, int64_t now_ms, bool heartbeat)
{
    int limit = heartbeat ? GW_SEND_LIMIT : GW_SEND_LIMIT - GW_SEND_RESERVED;
    int live = 0;

    for (int i = 0; i < w->n; i++)
        if (w->t[i] > now_ms - GW_SEND_WINDOW_MS)
            live++;
    if (live >= limit)
        return false;
    if (w->n < GW_SEND_LIMIT) {
        w->t[w->n++] = now_ms;
    } else {
        w->t[w->pos] = now_ms;      /* overwrite the oldest */
        w->pos = (w->pos + 1) % GW_SEND_LIMIT;
    }
    return true;
}

int64_t gw_ack_deadline_ms(int64_t interval_ms)
{
    int64_t d = interval_ms / 2;
    if (d > GW_ACK_DEADLINE_MAX_MS)
        d = GW_ACK_DEADLINE_MAX_MS;
    if (d < GW_ACK_DEADLINE_MIN_MS)
        d = GW_ACK_DEADLINE_MIN_MS;
    return d < interval_ms ? d : interval_ms;
}

bool gw_url_split(const char *url, bool *tls, char *host, size_t hostcap,
                  int *port, char *path, size_t pathcap)
{
    const char *p, *h, *slash, *colon;
    size_t hl;

    if (strncmp(url, "wss://", 6) == 0) {
        *tls = true;
        *port = 443;
        p = url + 6;
    } else if (strncmp(url, "ws://", 5) == 0) {
        *tls = false;
        *port = 80;
        p = url + 5;
    } else {
        return false;
    }
    h = p;
    slash = strchr(h, '/');
    if (!slash)
        slash = h + strlen(h);
    if (memchr(h, '?', (size_t)(slash - h)) || memchr(h, '@', (size_t)(slash - h)))
        return false;
    colon = memchr(h, ':', (size_t)(slash - h));
    hl = (size_t)((colon ? colon : slash) - h);
    if (hl == 0 || hl >= hostcap)
        return false;
    memcpy(host, h, hl);
    host[hl] = '\0';
    if (colon) {
        char *end;
        long v = strtol(colon + 1, &end, 10);
        if (end != slash || v < 1 || v > 65535)
            return false;
        *port = (int)v;
    }
    {
        const char *q = strchr(slash, '?');
        size_t pl = q ? (size_t)(q - slash) : strlen(slash);
        int n = snprintf(path, pathcap, "%.*s%s", (int)pl,
                         pl ? slash : "/", GW_QUERY);
        if (pl == 0)
            n = snprintf(path, pathcap, "/%s", GW_QUERY);
        if (n < 0 || (size_t)n >= pathcap)
            return false;
    }
    return true;
}

/* ---- persistence ---- */

void gw_session_save(struct gw *gw)
{
    if (!gw->o.store)
        return;
    if (store_kv_set(gw->o.store, gw->kv_session, gw->session_id) !=
            BOT_OK ||
        store_kv_set(gw->o.store, gw->kv_resume_url, gw->resume_url) !=
            BOT_OK)
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: cannot save session: %s",
                store_errmsg(gw->o.store));
    gw_seq_save(gw);
}

void gw_seq_save(struct gw *gw)
{
    if (!gw->seq_held)
        gw_seq_save_as(gw, -1);
}

void gw_seq_hold(struct gw *gw, bool hold)
{
    gw->seq_held = hold;
}

/* A group's resume point without a commit: the file beside the database
 * (gw_seqfile.h); false when there is none or it failed, and then it is
 * "" for good (logged once) and the store takes it. */
static bool seq_file_write(struct gw *gw, int64_t seq)
{
    if (gw->seq_path[0] == '\0' || gw->session_id[0] == '\0')
        return false;
    if (gw_seqfile_write(gw->seq_path, &gw->seq_fd, gw->kv_seq,
                         gw->session_id, seq))
        return true;
    log_msg(gw->o.log, LOG_LVL_WARN, "gateway: cannot write %s (%s): the "
            "resume point goes to the database", gw->seq_path,
            strerror(errno));
    gw->seq_path[0] = '\0';
    if (gw->seq_fd >= 0)
        close(gw->seq_fd);
    gw->seq_fd = -1;
    return false;
}

static void seq_write(struct gw *gw, int64_t seq, bool unsynced)
{
    char v[24];
    if (!gw->o.store)
        return;
    if (unsynced && seq_file_write(gw, seq < 0 ? gw->seq : seq))
        return;
    snprintf(v, sizeof v, "%lld", (long long)(seq < 0 ? gw->seq : seq));
    if ((unsynced ? store_kv_set_unsynced
                  : store_kv_set)(gw->o.store, gw->kv_seq, v) != BOT_OK)
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: cannot save seq: %s",
                store_errmsg(gw->o.store));
}

void gw_seq_save_as(struct gw *gw, int64_t seq)
{
    seq_write(gw, seq, false);
}

void gw_seq_save_unsynced(struct gw *gw, int64_t seq)
{
    seq_write(gw, seq, true);
}

void gw_session_forget(struct gw *gw)
{
    gw->session_id[0] = '\0';
    gw->resume_url[0] = '\0';
    gw->seq = 0;
    gw_session_save(gw);
}

static void session_load(struct gw *gw)
{
    char *sid = NULL, *url = NULL, *seq = NULL;

    if (!gw->o.store)
        return;
    if (store_kv_get(gw->o.store, gw->kv_session, &sid) == BOT_OK &&
        store_kv_get(gw->o.store, gw->kv_resume_url, &url) == BOT_OK &&
        store_kv_get(gw->o.store, gw->kv_seq, &seq) == BOT_OK && sid[0] &&
        url[0] && strlen(sid) <= GW_MAX_SESSION_ID &&
        strlen(url) < sizeof gw->resume_url) {
        char *end;
        long long s = strtoll(seq, &end, 10);
        int64_t later;
        /* a group that changed nothing after the last commit left a later
         * point beside the database, for this session */
        if (*end == '\0' && s >= 0 && gw->seq_path[0] != '\0' &&
            gw_seqfile_read(gw->seq_path, gw->kv_seq, sid, &later) &&
            later > s)
            s = later;
        if (*end == '\0' && s >= 0) {
            snprintf(gw->session_id, sizeof gw->session_id, "%s", sid);
            snprintf(gw->resume_url, sizeof gw->resume_url, "%s", url);
            gw->seq = s;
            log_msg(gw->o.log, LOG_LVL_INFO,
                    "gateway: saved session found (seq %lld): will resume", s);
        }
    }
    free(sid);
    free(url);
    free(seq);
}

/* ---- sending ---- */

bool gw_send_json(struct gw *gw, json_t *payload, bool heartbeat)
{
    struct gw_out *o;
    size_t n;

    if (!gw->wsi || gw->qlen >= GW_SENDQ_MAX) {
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: send queue full or closed");
        return false;
    }
    o = &gw->q[(gw->qhead + gw->qlen) % GW_SENDQ_MAX];
    n = json_dumpb(payload, (char *)o->buf + LWS_PRE, GW_MAX_SEND, JSON_COMPACT);
    if (n == 0 || n > GW_MAX_SEND) {
        log_msg(gw->o.log, LOG_LVL_ERR, "gateway: payload too large (limit is %d)",
                GW_MAX_SEND);
        return false;
    }
    o->len = n;
    o->heartbeat = heartbeat;
    gw->qlen++;
    lws_callback_on_writable(gw->wsi);
    return true;
}

static void send_wait_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_send);
    if (gw->wsi)
        lws_callback_on_writable(gw->wsi);
}

static int on_writeable(struct gw *gw, struct lws *wsi)
{
    struct gw_out *o;

    if (gw->close_code) {
        unsigned char reason[] = "fray: reconnecting";
        lws_close_reason(wsi, (enum lws_close_status)gw->close_code, reason,
                         sizeof reason - 1);
        gw->close_code = 0;
        /* A zombie's peer will not answer our close frame: lws would wait
         * for it (5 s) before the socket is gone. Leave that connection to
         * close on its own (its callbacks no longer match gw->wsi) and
         * reconnect now. */
        if (gw->abandon_on_close)
            on_disconnected(gw, "zombie connection left to close");
        return -1;
    }
    if (gw->qlen == 0)
        return 0;
    o = &gw->q[gw->qhead];
    if (!gw_sendwin_take(&gw->win, gw_now_ms(), o->heartbeat)) {
        log_msg(gw->o.log, LOG_LVL_WARN,
                "gateway: send limit (%d per %d s) reached, waiting",
                GW_SEND_LIMIT, GW_SEND_WINDOW_MS / 1000);
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_send, send_wait_cb,
                         1000 * LWS_US_PER_MS);
        return 0;
    }
    if (lws_write(wsi, o->buf + LWS_PRE, o->len, LWS_WRITE_TEXT) <
        (int)o->len) {
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: write failed");
        return -1;
    }
    gw->qhead = (gw->qhead + 1) % GW_SENDQ_MAX;
    gw->qlen--;
    if (gw->qlen)
        lws_callback_on_writable(wsi);
    return 0;
}

/* ---- connection lifecycle ---- */

static void timeout_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_timeout);
    if (gw->state == GW_ST_CONNECTING || gw->state == GW_ST_HELLO ||
        gw->state == GW_ST_IDENTIFYING || gw->state == GW_ST_RESUMING)
        gw_close_and(gw, gw->session_id[0] ? GW_NEXT_RESUME
                                           : GW_NEXT_NEW_SESSION,
                     -1, "no HELLO/READY in time");
}

void gw_on_hello_timer_start(struct gw *gw)
{
    lws_sul_schedule(gw->o.ctx, 0, &gw->sul_timeout, timeout_cb,
                     gw->o.ready_timeout_ms * LWS_US_PER_MS);
}

static void retry_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_retry);
    if (gw->state == GW_ST_WAITING)
        connect_now(gw);
}

static void cancel_timers(struct gw *gw)
{
    lws_sul_cancel(&gw->sul_hb);
    lws_sul_cancel(&gw->sul_ack);
    lws_sul_cancel(&gw->sul_identify);
    lws_sul_cancel(&gw->sul_timeout);
    lws_sul_cancel(&gw->sul_send);
}

static void connect_now(struct gw *gw)
{
    struct lws_client_connect_info i;
    bool resume = gw->next == GW_NEXT_RESUME && gw->session_id[0] &&
                  gw->resume_url[0];
    const char *url = resume ? gw->resume_url : gw->gateway_url;

    if (!resume)
        gw->next = GW_NEXT_NEW_SESSION;
    if (!gw_url_split(url, &gw->tls, gw->host, sizeof gw->host, &gw->port,
                      gw->path, sizeof gw->path)) {
        log_msg(gw->o.log, LOG_LVL_ERR, "gateway: unusable URL %s", url);
        if (resume) {        /* fall back to a new session on the main URL */
            gw_session_forget(gw);
            gw->next = GW_NEXT_NEW_SESSION;
            url = gw->gateway_url;
            if (!gw_url_split(url, &gw->tls, gw->host, sizeof gw->host,
                              &gw->port, gw->path, sizeof gw->path)) {
                gw_set_state(gw, GW_ST_FATAL, "bad gateway URL");
                if (gw->o.hooks.on_fatal)
                    gw->o.hooks.on_fatal(gw->o.hooks.ud, 0);
                return;
            }
        }
    }
    /* Each connection starts its own stream; asking costs a query word
     * (the path has room: GW_MAX_URL + 64). */
    gw->zlib = gw->o.compress && gw_zin_reset(&gw->zin);
    if (gw->zlib) {
        size_t pl = strlen(gw->path);
        snprintf(gw->path + pl, sizeof gw->path - pl, "%s", GW_QUERY_ZLIB);
    }
    memset(&i, 0, sizeof i);
    i.context = gw->o.ctx;
    i.address = gw->host;
    i.port = gw->port;
    i.path = gw->path;
    i.host = gw->host;
    i.origin = gw->host;
    i.ssl_connection = gw->tls ? LCCSCF_USE_SSL : 0;
    i.local_protocol_name = GW_PROTOCOL_NAME;
    i.userdata = gw;
    i.pwsi = &gw->wsi;
    gw->qhead = gw->qlen = 0;
    gw->close_code = gw->peer_close = 0;
    gw->abandon_on_close = false;
    gw->hb_sent = false;
    gw->acked = true;
    memset(&gw->win, 0, sizeof gw->win);
    sbuf_reset(&gw->rx);
    gw->rx_discard = false;
    gw_set_state(gw, GW_ST_CONNECTING, resume ? "resume" : "new session");
    log_msg(gw->o.log, LOG_LVL_INFO, "gateway: connecting to %s://%s:%d%s",
            gw->tls ? "wss" : "ws", gw->host, gw->port, gw->path);
    gw_on_hello_timer_start(gw);
    if (!lws_client_connect_via_info(&i)) {
        gw->wsi = NULL;
        lws_sul_cancel(&gw->sul_timeout);
        gw->attempts++;
        gw_set_state(gw, GW_ST_WAITING, "connect failed at once");
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_retry, retry_cb,
                         gw_backoff_ms(gw->attempts - 1, gw->o.backoff_min_ms,
                                       gw->o.backoff_max_ms, gw->o.rng) *
                             LWS_US_PER_MS);
    }
}

void gw_close_and(struct gw *gw, enum gw_next next, int64_t delay_ms,
                  const char *why)
{
    gw->next = next;
    gw->next_delay_ms = delay_ms;
    cancel_timers(gw);
    if (!gw->wsi) {
        gw_set_state(gw, GW_ST_WAITING, why);
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_retry, retry_cb,
                         (delay_ms > 0 ? delay_ms : 1) * LWS_US_PER_MS);
        return;
    }
    gw->close_code = GW_RESUME_CLOSE;
    gw_set_state(gw, GW_ST_CLOSING, why);
    lws_callback_on_writable(gw->wsi);
    /* a dead peer may never let us write the close frame */
    lws_set_timeout(gw->wsi, PENDING_TIMEOUT_CLOSE_SEND, 3);
}

/* The socket is gone: decide and schedule what comes next. */
static void on_disconnected(struct gw *gw, const char *why)
{
    enum gw_next next = gw->next;
    int64_t delay = gw->next_delay_ms;

    gw->wsi = NULL;
    cancel_timers(gw);
    if (gw->state == GW_ST_FATAL)
        return;
    if (gw->state != GW_ST_CLOSING) {   /* not our doing */
        if (gw->peer_close) {
            next = gw_close_next(gw->peer_close);
            log_msg(gw->o.log, next == GW_NEXT_FATAL ? LOG_LVL_ERR
                                                     : LOG_LVL_WARN,
                    "gateway: server closed with %d", gw->peer_close);
        } else {
            next = GW_NEXT_RESUME;
        }
        delay = -1;
        if (next == GW_NEXT_NEW_SESSION)
            delay = GW_INVALID_MIN_MS +
                    (int64_t)eng_rng_below(gw->o.rng,
                                           GW_INVALID_MAX_MS -
                                               GW_INVALID_MIN_MS + 1);
    }
    if (next == GW_NEXT_STOP) {
        gw_set_state(gw, GW_ST_STOPPED, why);
        return;
    }
    if (next == GW_NEXT_FATAL) {
        const char *what = "fatal close";
        switch (gw->peer_close) {
        case 4004: what = "authentication failed: the bot token is wrong"; break;
        case 4010: what = "invalid shard"; break;
        case 4011: what = "sharding required"; break;
        case 4012: what = "invalid API version"; break;
        case 4013: what = "invalid intents"; break;
        case 4014: what = "disallowed intents (enable them in the portal)"; break;
        default: break;
        }
        log_msg(gw->o.log, LOG_LVL_ERR, "gateway: closed with %d: %s; stopping",
                gw->peer_close, what);
        gw_set_state(gw, GW_ST_FATAL, what);
        if (gw->o.hooks.on_fatal)
            gw->o.hooks.on_fatal(gw->o.hooks.ud, gw->peer_close);
        return;
    }
    if (next == GW_NEXT_NEW_SESSION && gw->session_id[0])
        gw_session_forget(gw);
    gw->next = next;
    if (delay < 0) {
        delay = gw->attempts == 0
                    ? 0
                    : gw_backoff_ms(gw->attempts - 1, gw->o.backoff_min_ms,
                                    gw->o.backoff_max_ms, gw->o.rng);
        gw->attempts++;
    }
    gw_set_state(gw, GW_ST_WAITING, why);
    log_msg(gw->o.log, LOG_LVL_INFO, "gateway: %s in %lld ms",
            next == GW_NEXT_RESUME ? "resume" : "new session",
            (long long)delay);
    lws_sul_schedule(gw->o.ctx, 0, &gw->sul_retry, retry_cb,
                     (delay > 0 ? delay : 1) * LWS_US_PER_MS);
}

/* A whole binary message of a zlib-stream connection is in rx: inflate
 * it, and hand on the payload once one is whole. A broken stream cannot
 * be read on (every later byte depends on it): drop the connection and
 * resume, which starts a fresh stream and replays what was missed. */
static void on_compressed(struct gw *gw)
{
    enum gw_zin_res r = gw_zin_feed(&gw->zin, gw->rx.buf, gw->rx.len,
                                    &gw->text);
    if (r == GW_ZIN_TEXT) {
        gw->on_message(gw, sbuf_str(&gw->text), gw->text.len);
        return;
    }
    if (r == GW_ZIN_MORE)
        return;
    int code = r == GW_ZIN_BAD ? GW_BAD_DATA_CLOSE : GW_TOO_BIG_CLOSE;
    log_msg(gw->o.log, LOG_LVL_WARN,
            "gateway: compressed stream unreadable (%s): closing with %d",
            gw_zin_str(r), code);
    gw->zlib = false;             /* nothing more of this stream is read */
    if (gw->state != GW_ST_CLOSING) {
        gw_close_and(gw, gw->session_id[0] ? GW_NEXT_RESUME
                                           : GW_NEXT_NEW_SESSION,
                     -1, "compressed stream unreadable");
        gw->close_code = code;
    }
}

static int on_receive(struct gw *gw, struct lws *wsi, const char *in,
                      size_t len)
{
    if (!gw->rx_discard) {
        if (gw->rx.len + len > (size_t)gw->o.max_payload) {
            /* Discord never sends this much: the stream is broken or
             * hostile. Dropping the message would lose an event silently;
             * a resume replays what we missed from a fresh connection. */
            log_msg(gw->o.log, LOG_LVL_WARN,
                    "gateway: message over %lld bytes: closing with %d",
                    (long long)gw->o.max_payload, GW_TOO_BIG_CLOSE);
            gw->rx_discard = true;
            sbuf_reset(&gw->rx);
            if (gw->state != GW_ST_CLOSING) {
                gw_close_and(gw, gw->session_id[0] ? GW_NEXT_RESUME
                                                   : GW_NEXT_NEW_SESSION,
                             -1, "message too big");
                gw->close_code = GW_TOO_BIG_CLOSE;
            }
        } else {
            sbuf_addn(&gw->rx, in, len);
        }
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
        return 0;
    if (!gw->rx_discard && sbuf_error(&gw->rx) == SBUF_OK) {
        if (gw->zlib && lws_frame_is_binary(wsi))
            on_compressed(gw);
        else
            gw->on_message(gw, sbuf_str(&gw->rx), gw->rx.len);
    }
    sbuf_reset(&gw->rx);
    gw->rx_discard = false;
    return 0;
}

int gw_lws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len)
{
    struct gw *gw = user;

    /* For the TLS callbacks lws passes OpenSSL objects as user (the
     * X509_STORE_CTX of a certificate check, an SSL_CTX), not our gw: the
     * answer stays OpenSSL's own verdict */
    if (reason == LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION ||
        reason == LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS ||
        reason == LWS_CALLBACK_OPENSSL_LOAD_EXTRA_SERVER_VERIFY_CERTS ||
        reason == LWS_CALLBACK_OPENSSL_PERFORM_CLIENT_CERT_VERIFICATION)
        return 0;
    if (!gw || gw->detached)
        return 0;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (wsi != gw->wsi && gw->wsi)
            return 0;
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: connection error: %s",
                in ? (const char *)in : "unknown");
        if (gw->state != GW_ST_CLOSING)
            gw->attempts++;
        on_disconnected(gw, "connection error");
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (wsi != gw->wsi)
            return -1;
        gw_set_state(gw, GW_ST_HELLO, "connected");
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (wsi != gw->wsi)
            return -1;
        return on_receive(gw, wsi, in, len);
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        if (wsi != gw->wsi)
            return -1;
        return on_writeable(gw, wsi);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (wsi == gw->wsi && len >= 2) {
            const unsigned char *c = in;
            gw->peer_close = (c[0] << 8) | c[1];
        }
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
        if (wsi != gw->wsi)
            return 0;
        on_disconnected(gw, gw->peer_close ? "closed by server"
                                           : "connection closed");
        return 0;
    default:
        break;
    }
    return 0;
}

/* ---- public ---- */

void gw_detach(struct gw *gw)
{
    if (!gw || gw->detached)
        return;
    lws_sul_cancel(&gw->sul_retry);
    cancel_timers(gw);
    gw->detached = true;
}

void gw_free(struct gw *gw)
{
    if (!gw)
        return;
    sbuf_cleanup(&gw->rx);
    sbuf_cleanup(&gw->text);
    gw_zin_cleanup(&gw->zin);
    if (gw->seq_fd >= 0)
        close(gw->seq_fd);
    token_wipe(gw->token, sizeof gw->token);
    free(gw);
}

void gw_set_shard(struct gw *gw, const struct shard *sh,
                  int64_t max_concurrency)
{
    char text[SHARD_TEXT_MAX];

    gw->shard = *sh;
    gw->max_concurrency = max_concurrency < 1 ? 1 : max_concurrency;
    gw->identify_slot = -1;
    /* the bases are short: the keys always fit */
    shard_kv_key(sh, GW_KV_SESSION, gw->kv_session, sizeof gw->kv_session);
    shard_kv_key(sh, GW_KV_RESUME_URL, gw->kv_resume_url,
                 sizeof gw->kv_resume_url);
    shard_kv_key(sh, GW_KV_SEQ, gw->kv_seq, sizeof gw->kv_seq);
    if (shard_is_sharded(sh)) {
        shard_format(sh, text, sizeof text);
        log_msg(gw->o.log, LOG_LVL_NOTICE,
                "gateway: shard %s, identify bucket %d of %lld", text,
                shard_bucket(sh, gw->max_concurrency),
                (long long)gw->max_concurrency);
    }
}

void gw_start(struct gw *gw, const char *url, int64_t starts_remaining,
              int64_t reset_after_ms)
{
    session_load(gw);
    snprintf(gw->gateway_url, sizeof gw->gateway_url, "%s", url);
    gw->starts_remaining = starts_remaining;
    gw->starts_reset_ms = gw_now_ms() + reset_after_ms;
    gw->next = gw->session_id[0] ? GW_NEXT_RESUME : GW_NEXT_NEW_SESSION;
    connect_now(gw);
}

void gw_shutdown(struct gw *gw)
{
    lws_sul_cancel(&gw->sul_retry);
    if (gw->state == GW_ST_FATAL || gw->state == GW_ST_STOPPED)
        return;
    if (!gw->wsi) {
        cancel_timers(gw);
        gw_set_state(gw, GW_ST_STOPPED, "shutdown");
        return;
    }
    gw_close_and(gw, GW_NEXT_STOP, 0, "shutdown");
}
