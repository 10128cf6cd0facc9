/*
 * daemon.c - `fray run`: the event loop tying gateway, REST, commands,
 * store and systemd together: startup, the tick, command registration,
 * GET /gateway/bot, shutdown. Interactions come in through daemon_ix.c and
 * are answered by daemon_reply.c.
 */
#include "daemon_int.h"

#include <errno.h>
#include <inttypes.h>
#include <libwebsockets.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "cmd_rollq.h"
#include "enc_cache.h"
#include "gw_seqfile.h"
#include "enc_event.h"
#include "eng_rng.h"
#include "gw.h"
#include "limit.h"
#include "metrics_http.h"
#include "register.h"
#include "rest.h"
#include "rs_data.h"
#include "seed.h"
#include "store.h"
#include "tls.h"
#include "tracker.h"
#include "web.h"

#define DAEMON_TRIM_QUIET_MS 500   /* no interaction for this long: trim */

/* The only global: set by the signal handler, read by the tick. */
static volatile sig_atomic_t daemon_signal;

static void on_signal(int sig)
{
    daemon_signal = sig;
}

bool daemon_notify(const char *state)
{
    const char *path = getenv("NOTIFY_SOCKET");
    struct sockaddr_un sa;
    size_t plen;
    socklen_t salen;
    int fd;
    ssize_t n;

    if (!path || (path[0] != '/' && path[0] != '@'))
        return false;
    plen = strlen(path);
    if (plen >= sizeof sa.sun_path)
        return false;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    memcpy(sa.sun_path, path, plen);
    if (path[0] == '@')
        sa.sun_path[0] = '\0';          /* abstract socket */
    salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen);
    fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
               (struct sockaddr *)&sa, salen);
    close(fd);
    return n == (ssize_t)strlen(state);
}

/* ---- registration: daemon_reg.c ---- */

static void on_ready(void *ud, const char *app)
{
    struct daemon *d = ud;
    daemon_notify("STATUS=connected");
    daemon_register_ready(d, app);
    daemon_clock_arm(d);         /* again: cheap, and never stale */
    daemon_prune_ready(d, daemon_now_ms());
}

static void on_fatal(void *ud, int code)
{
    struct daemon *d = ud;
    d->exit_status = code >= 4000 && code < 4100
                         ? DAEMON_EXIT_GW_BASE + (code - 4000)
                         : DAEMON_EXIT_FAIL;
    d->done = true;
}

/* ---- GET /gateway/bot ---- */

static void fetch_gateway(struct daemon *d);

static void gateway_retry_cb(lws_sorted_usec_list_t *sul)
{
    struct daemon *d = lws_container_of(sul, struct daemon, sul_gateway);
    if (!d->stopping)
        fetch_gateway(d);
}

static void on_gateway(void *ud, const struct rest_result *res)
{
    struct daemon *d = ud;
    json_t *j = NULL, *ssl;
    const char *url;
    char err[256];

    /* An answer that comes in while fray stops (or could not start: the
     * request goes out before the store opens) starts nothing. */
    if (d->rest_closing)
        return;
    if (res->status == 401) {
        log_msg(d->log, LOG_LVL_ERR,
                "the bot token was refused (401): check the token; stopping");
        d->exit_status = DAEMON_EXIT_AUTH;
        d->done = true;
        return;
    }
    if (res->err == BOT_OK && res->status == 200)
        j = json_loadb(res->body, res->body_len, 0, NULL);
    url = json_string_value(json_object_get(j, "url"));
    if (!url) {
        log_msg(d->log, LOG_LVL_WARN,
                "GET /gateway/bot failed (status %d); retrying in %d s",
                res->status, DAEMON_GATEWAY_RETRY_MS / 1000);
        json_decref(j);
        lws_sul_schedule(d->ctx, 0, &d->sul_gateway, gateway_retry_cb,
                         DAEMON_GATEWAY_RETRY_MS * LWS_US_PER_MS);
        return;
    }
    ssl = json_object_get(j, "session_start_limit");
    if (!shard_settle(&d->shard, json_integer_value(json_object_get(
                                     j, "shards")), err, sizeof err)) {
        log_msg(d->log, LOG_LVL_ERR, "%s", err);
        d->exit_status = DAEMON_EXIT_CONFIG;
        d->done = true;
        json_decref(j);
        return;
    }
    gw_set_shard(d->gw, &d->shard,
                 json_integer_value(json_object_get(ssl, "max_concurrency")));
    gw_start(d->gw, url,
             json_is_integer(json_object_get(ssl, "remaining"))
                 ? json_integer_value(json_object_get(ssl, "remaining"))
                 : -1,
             json_integer_value(json_object_get(ssl, "reset_after")));
    /* The shard is settled: its turn clock timers are known, and what fell
     * due while fray was stopped fires now (REST needs no gateway). After
     * gw_start(): the connection is made while the timers are read. */
    daemon_clock_arm(d);
    json_decref(j);
}

static void fetch_gateway(struct daemon *d)
{
    if (rest_submit(d->rest, "GET", "/gateway/bot", NULL, on_gateway, d) ==
        BOT_AUTH) {
        d->exit_status = DAEMON_EXIT_AUTH;
        d->done = true;
    }
}

/* ---- the loop ---- */

static void tick_cb(lws_sorted_usec_list_t *sul)
{
    struct daemon *d = lws_container_of(sul, struct daemon, sul_tick);
    int64_t now = daemon_now_ms();

    if (d->watchdog_ms && now - d->last_watchdog_ms >= d->watchdog_ms / 2) {
        daemon_notify("WATCHDOG=1");
        d->last_watchdog_ms = now;
    }
    if (d->rest && rest_auth_failed(d->rest) && !d->done) {
        log_msg(d->log, LOG_LVL_ERR,
                "Discord refused the bot token (401); stopping");
        d->exit_status = DAEMON_EXIT_AUTH;
        d->done = true;
    }
    if (daemon_signal && !d->stopping) {
        log_msg(d->log, LOG_LVL_NOTICE,
                "signal %d: stopping (waiting up to %lld ms for replies)",
                (int)daemon_signal, (long long)d->cfg->shutdown_grace_ms);
        daemon_notify("STOPPING=1");
        d->stopping = true;
        tracker_flush(d->tracker);
        d->stop_deadline_ms = now + d->cfg->shutdown_grace_ms;
    }
    if (d->cache)
        enc_cache_expire(d->cache, daemon_wall_ms());
    daemon_prune_tick(d, now);
    daemon_rolls_due(d, now, d->stopping);
    /* Quiet for a moment after startup or a burst: hand freed heap back to
     * the system (glibc keeps it otherwise; ~250 KB after startup) */
    if (d->answered != d->trim_answered) {
        d->trim_answered = d->answered;
        d->trim_quiet_ms = now;
        d->trimmed = false;
    } else if (!d->trimmed && now - d->trim_quiet_ms >= DAEMON_TRIM_QUIET_MS) {
        malloc_trim(0);
        d->trimmed = true;
    }
    if (d->stopping && !d->gw_closing &&
        ((rest_pending(d->rest) == 0 && d->nbatch == 0 &&
          daemon_log_pending(d) == 0) ||
         now >= d->stop_deadline_ms)) {
        if (daemon_log_pending(d) > 0) {
            log_msg(d->log, LOG_LVL_WARN, "%d /combat logs still pending at "
                    "exit: the ones not started are told to ask again",
                    daemon_log_pending(d));
            daemon_log_abandon(d);
        }
        if (rest_pending(d->rest))
            log_msg(d->log, LOG_LVL_WARN, "%d replies still pending at exit",
                    rest_pending(d->rest));
        gw_shutdown(d->gw);
        d->gw_closing = true;
        d->gw_deadline_ms = now + DAEMON_STOP_WAIT_MS;
    }
    if (d->gw_closing) {
        enum gw_state s = gw_get_state(d->gw);
        /* a log told to ask again, or finished at the deadline, still
         * goes out while the gateway closes */
        if (((s == GW_ST_STOPPED || s == GW_ST_FATAL || s == GW_ST_IDLE) &&
             daemon_log_pending(d) == 0) ||
            now >= d->gw_deadline_ms)
            d->done = true;
    }
    if (!d->done)
        lws_sul_schedule(d->ctx, 0, &d->sul_tick, tick_cb,
                         DAEMON_TICK_MS * LWS_US_PER_MS);
    else
        lws_cancel_service(d->ctx);
}

static void rest_wake(void *ud)
{
    struct daemon *d = ud;
    lws_cancel_service(d->ctx);
}

/* The download thread for commands that carry a file (daemon_att.c),
 * with the config's attachment hosts. False (and the exit status set)
 * when it cannot start. */
static bool start_att(struct daemon *d, const struct cfg *c, void *tls_store)
{
    struct att_policy pol;
    char why[CFG_MAX_WHY];
    struct att_opts ao = {.policy = &pol,
                          .connect_timeout_ms = c->rest_connect_timeout_ms,
                          .timeout_ms = c->rest_timeout_ms,
                          .tls_store = tls_store, .log = d->log,
                          .wake = rest_wake, .wake_ud = d};

    if (!cfg_att_policy(c, &pol, why, sizeof why)) {
        log_msg(d->log, LOG_LVL_ERR, "[discord] %s", why);
        d->exit_status = DAEMON_EXIT_FAIL;
        return false;
    }
    if (!att_new(&ao, &d->att)) {
        log_msg(d->log, LOG_LVL_ERR, "cannot start: out of memory");
        d->exit_status = DAEMON_EXIT_FAIL;
        return false;
    }
    return true;
}

static int daemon_lws_cb(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len)
{
    if (reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED) {
        struct daemon *d = lws_context_user(lws_get_context(wsi));
        if (d && d->rest)
            rest_dispatch_done(d->rest);
        if (d && d->att)
            att_dispatch_done(d->att);
        if (d)
            daemon_log_dispatch(d);
        return 0;
    }
    return gw_lws_callback(wsi, reason, user, in, len);
}

static const struct lws_protocols daemon_protocols[] = {
    {GW_PROTOCOL_NAME, daemon_lws_cb, 0, DAEMON_RX_BUFFER, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* [metrics] listen: the address was checked with the config. */
static enum bot_err start_metrics(struct daemon *d)
{
    char host[METRICS_HOST_MAX], why[256];
    bool loopback;
    int port;
    enum bot_err e;

    if (!metrics_listen_parse(d->cfg->metrics_listen, host, sizeof host,
                              &port, &loopback, why, sizeof why)) {
        log_msg(d->log, LOG_LVL_ERR, "[metrics] listen: %s", why);
        return BOT_CONFIG;
    }
    e = metrics_http_start(d->ctx, host, port, daemon_metrics_render, d,
                           &d->metrics_http, why, sizeof why);
    if (e != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "%s", why);
        return e;
    }
    log_msg(d->log, LOG_LVL_NOTICE, "metrics: http://%s%s%s:%d/metrics%s",
            strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
            metrics_http_port(d->metrics_http),
            loopback ? "" : " (open to the network: [metrics] public)");
    return BOT_OK;
}

/* [web] listen: the address was checked with the config. A page is a
 * descriptor: the process may open that many more (up to its hard
 * limit). */
static enum bot_err start_web(struct daemon *d)
{
    char host[METRICS_HOST_MAX], why[256];
    bool loopback;
    int port;
    enum bot_err e;

    if (!metrics_listen_parse(d->cfg->web_listen, host, sizeof host, &port,
                              &loopback, why, sizeof why)) {
        log_msg(d->log, LOG_LVL_ERR, "[web] listen: %s", why);
        return BOT_CONFIG;
    }
    e = web_start(d->ctx, host, port, d->cfg, d->store, d->log, &d->web,
                  why, sizeof why);
    if (e != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "%s", why);
        return e;
    }
    log_msg(d->log, LOG_LVL_NOTICE, "web: http://%s%s%s:%d/ for %s",
            strchr(host, ':') ? "[" : "", host, strchr(host, ':') ? "]" : "",
            web_port(d->web), d->cfg->web_public_url);
    return BOT_OK;
}

/* Descriptors the shared pages need: every page and request at once. */
static int web_fds(const struct cfg *c)
{
    struct rlimit rl;
    int want;
    if (!c->web_listen[0])
        return 0;
    want = (int)c->web_max_pages + WEB_REQUESTS_MAX + 1;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < (rlim_t)want + 64) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
                              rl.rlim_max > (rlim_t)want + 64
                          ? (rlim_t)want + 64
                          : rl.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &rl);
    }
    return want;
}

_Static_assert(LOG_MAX_LINE >= STORE_MAX_ERR + 64,
               "a store error (which names the database) fits one log line");

/* Free what daemon_run() made before the event loop, the last thing it
 * does on every way out once the loop's parts exist. */
static void release(struct daemon *d)
{
    enc_cache_free(d->cache);
    cmd_rollq_free(d->rollq);
    daemon_gm_free(d);
    limit_free(d->limit);
    free(d->batch);
    free(d->result);
    cmd_log_cache_free(d->log_cache);
    store_close(d->store);
    rs_data_free(&d->rules);
}

int daemon_run(const struct cfg *c, const char *token, struct log *lg)
{
    struct daemon d;
    struct lws_context_creation_info info;
    struct rest_opts ro;
    struct gw_opts go;
    char seq_file[GW_SEQ_PATH_MAX];
    struct sigaction sa;
    char path[STORE_MAX_LOCATION + 1], shown[STORE_MAX_SHOWN];
    char err[STORE_MAX_ERR > RS_DATA_MAX_ERR ? STORE_MAX_ERR : RS_DATA_MAX_ERR];
    const char *why = NULL, *api = getenv("DISCORD_API_BASE"), *wd;
    uint64_t seed;

    memset(&d, 0, sizeof d);
    d.clock_base_ms = daemon_wall_ms();
    d.clock_fire = daemon_clock_fire;
    d.cfg = c;
    d.log = lg;
    metrics_init(&d.metrics);
    d.exit_status = DAEMON_EXIT_OK;
    if (!seed_choose(NULL, &seed, &why)) {
        log_msg(lg, LOG_LVL_ERR, "no random seed: %s", why);
        return DAEMON_EXIT_FAIL;
    }
    eng_rng_seed(&d.rng, seed);
    d.shard = c->shard;
    if (!shard_apply_env(&d.shard, getenv(SHARD_ENV_ID), err, sizeof err)) {
        log_msg(lg, LOG_LVL_ERR, "bad shard: %s", err);
        return DAEMON_EXIT_CONFIG;
    }

    if (rs_data_load(rs_data_dir(c->rules_dir), &d.rules, err, sizeof err) !=
        BOT_OK) {
        log_msg(lg, LOG_LVL_ERR, "bad ruleset data: %s", err);
        return DAEMON_EXIT_FAIL;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    lws_set_log_level(0, NULL);   /* lws lines could carry payloads */
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = daemon_protocols;
    /* TLS only for a TLS API (Discord, whose gateway is wss exactly when
     * its API is https): the CA bundle costs ~40 ms and ~1 MB of heap that
     * a plain http/ws base never uses. Loaded once (tls.h), for lws and
     * curl alike; if that fails each library loads its own. */
    if (strncmp(api && *api ? api : c->api_base, "https:", 6) == 0) {
        info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
        if (tls_client_new(&d.tls, err, sizeof err) != BOT_OK)
            log_msg(lg, LOG_LVL_WARN, "%s", err);
        info.provided_client_ssl_ctx = d.tls;
    }
    info.user = &d;
    info.fd_limit_per_thread = 16 + (c->metrics_listen[0]
                                          ? METRICS_HTTP_MAX_CLIENTS + 1
                                          : 0) + web_fds(c);
    /* One read takes in many gateway frames, so interactions that arrived
     * together are seen in one pass and committed as one group. */
    info.pt_serv_buf_size = DAEMON_READ_BUFFER;
    d.ctx = lws_create_context(&info);
    if (!d.ctx) {
        log_msg(lg, LOG_LVL_ERR, "cannot create the event loop");
        tls_client_free(d.tls);
        release(&d);
        return DAEMON_EXIT_FAIL;
    }

    memset(&ro, 0, sizeof ro);
    ro.api_base = api && *api ? api : c->api_base;
    ro.token = token;
    ro.tls_store = d.tls ? tls_client_store(d.tls) : NULL;
    ro.connect_timeout_ms = c->rest_connect_timeout_ms;
    ro.timeout_ms = c->rest_timeout_ms;
    ro.max_retries = (int)c->rest_max_retries;
    ro.retry_base_ms = c->rest_retry_base_ms;
    ro.global_per_sec = (int)c->rest_global_per_sec;
    ro.log = lg;
    ro.wake = rest_wake;
    ro.wake_ud = &d;
    /* GET /gateway/bot goes out first: the REST thread waits for Discord's
     * answer while this thread opens the store, which the answer's
     * handler (on the loop, below) needs; over a network the open costs
     * nothing before READY. */
    if (rest_new(&ro, &d.rest) != BOT_OK) {
        log_msg(lg, LOG_LVL_ERR, "cannot start: out of memory");
        d.exit_status = DAEMON_EXIT_FAIL;
        goto out;
    }
    log_msg(lg, LOG_LVL_INFO, "REST base %s", ro.api_base);
    fetch_gateway(&d);

    if (!cfg_db_location(c, path, sizeof path)) {
        log_msg(lg, LOG_LVL_ERR, "cannot open database: its path is too long "
                "(limit is %d bytes)", STORE_MAX_LOCATION);
        d.exit_status = DAEMON_EXIT_STORE;
        goto out;
    }
    store_location_redact(path, shown, sizeof shown); /* no password */
    if (store_open(path, &d.store, err, sizeof err) != BOT_OK) {
        /* err names the database already (without its password) */
        log_msg(lg, LOG_LVL_ERR, "cannot open the database: %s", err);
        d.exit_status = DAEMON_EXIT_STORE;
        goto out;
    }
    log_msg(lg, LOG_LVL_INFO, "database %s open", shown);
    store_hist_set_bounds(d.store, &(struct store_hist_bounds){
        .fight_bytes = c->history_max_kb * 1024,
        .fight_lines = c->history_max_changes,
        .server_bytes = c->history_max_mb_per_server << 20});
    d.batch = calloc(DAEMON_BATCH_MAX, sizeof *d.batch);
    if (!d.batch) {
        log_msg(lg, LOG_LVL_ERR, "cannot start: out of memory");
        d.exit_status = DAEMON_EXIT_FAIL;
        goto out;
    }
    if (enc_cache_new(0, 0, &d.cache) != BOT_OK)
        log_msg(lg, LOG_LVL_WARN, "no encounter cache: out of memory");
    d.rollq = cmd_rollq_new();          /* NULL: each with its group */
    d.result = malloc(sizeof *d.result); /* NULL: one per command */
    d.log_cache = cmd_log_cache_new();   /* NULL: each log made anew */
    d.limit = limit_new(0);
    if (!d.limit)
        log_msg(lg, LOG_LVL_WARN, "no limits per user: out of memory");
    d.gm = calloc(DAEMON_GM_CHANNELS_MAX, sizeof *d.gm);
    for (int i = 0; d.gm && i < DAEMON_GM_CHANNELS_MAX; i++) {
        d.gm[i].d = &d;
        sbuf_init(&d.gm[i].text, DAEMON_GM_FOLD_BYTES);
    }

    if (c->metrics_listen[0] && start_metrics(&d) != BOT_OK) {
        d.exit_status = DAEMON_EXIT_CONFIG;
        goto out;
    }

    if (c->web_listen[0] && start_web(&d) != BOT_OK) {
        d.exit_status = DAEMON_EXIT_CONFIG;
        goto out;
    }

    memset(&go, 0, sizeof go);
    go.token = token;
    go.log = lg;
    go.store = d.store;
    /* an SQLite file: the resume point between commits beside it */
    if (!store_location_is_server(path) && strcmp(path, ":memory:") != 0 &&
        snprintf(seq_file, sizeof seq_file, "%s" GW_SEQFILE_SUFFIX, path) <
            (int)sizeof seq_file)
        go.seq_file = seq_file;
    go.rng = &d.rng;
    go.ctx = d.ctx;
    go.backoff_min_ms = c->gw_backoff_min_ms;
    go.backoff_max_ms = c->gw_backoff_max_ms;
    go.heartbeat_max_ms = c->gw_heartbeat_max_ms;
    go.max_payload = c->gw_max_payload;
    go.compress = c->gw_compress;
    go.identify_spacing_ms = c->gw_identify_spacing_ms;
    go.ready_timeout_ms = c->gw_ready_timeout_ms;
    go.hooks.on_dispatch = daemon_on_dispatch;
    go.hooks.on_ready = on_ready;
    go.hooks.on_fatal = on_fatal;
    go.hooks.ud = &d;
    if (gw_new(&go, &d.gw) != BOT_OK ||
        tracker_new(&(struct tracker_opts){.ctx = d.ctx, .rest = d.rest,
                                           .store = d.store, .log = lg,
                                           .keep_threads =
                                               !c->thread_archive_on_end},
                    &d.tracker) != BOT_OK) {
        log_msg(lg, LOG_LVL_ERR, "cannot start: out of memory");
        d.exit_status = DAEMON_EXIT_FAIL;
        goto out;
    }
    if (!start_att(&d, c, ro.tls_store))
        goto out;
    daemon_log_start(&d, path);    /* false: logs are written on the loop */

    wd = getenv("WATCHDOG_USEC");
    if (wd && *wd) {
        long long us = strtoll(wd, NULL, 10);
        if (us > 0)
            d.watchdog_ms = us / 1000;
    }
    daemon_notify("READY=1");
    d.last_watchdog_ms = daemon_now_ms();
    d.trim_quiet_ms = d.last_watchdog_ms;
    /* the first pass waits for READY (daemon_prune_ready), this long at
     * most */
    d.prune.next_ms = d.last_watchdog_ms + c->prune_interval_s * 1000;
    lws_sul_schedule(d.ctx, 0, &d.sul_tick, tick_cb,
                     DAEMON_TICK_MS * LWS_US_PER_MS);
    while (!d.done) {
        if (lws_service(d.ctx, 0) < 0)
            break;
        /* Run the group once the loop has read everything that arrived
         * together (lws reports pending buffered input as a zero wait), or
         * when it has waited long enough under a steady stream. */
        if (d.nbatch > 0 &&
            (lws_service_adjust_timeout(d.ctx, 1, 0) != 0 ||
             daemon_now_ms() - d.batch_t0_ms >= DAEMON_BATCH_WAIT_MS))
            daemon_batch_flush(&d);
    }
    daemon_batch_flush(&d);
    daemon_rolls_due(&d, daemon_now_ms(), true);
    if (d.exit_status == DAEMON_EXIT_OK && !d.stopping)
        d.exit_status = DAEMON_EXIT_FAIL;
    log_msg(lg, d.exit_status ? LOG_LVL_ERR : LOG_LVL_NOTICE,
            "stopped (exit status %d, %lld interactions answered, %lld "
            "of them deferred; %lld group commits, the largest %lld)",
            d.exit_status, (long long)d.answered, (long long)d.deferred,
            (long long)d.groups, (long long)d.group_max);
out:
    lws_sul_cancel(&d.sul_tick);
    lws_sul_cancel(&d.sul_gateway);
    lws_sul_cancel(&d.sul_clock);
    web_detach(d.web);
    gw_detach(d.gw);
    tracker_detach(d.tracker);
    daemon_log_stop(&d);        /* finishes the log being written */
    d.rest_closing = true;      /* done callbacks below: submit nothing */
    att_free(d.att);            /* before rest: its commands answer there */
    rest_free(d.rest);          /* joins the thread: no more wakes */
    lws_context_destroy(d.ctx);
    metrics_http_free(d.metrics_http);   /* its connections are gone */
    web_free(d.web);
    tls_client_free(d.tls);     /* after both users */
    tracker_free(d.tracker);
    gw_free(d.gw);
    release(&d);
    return d.exit_status;
}
