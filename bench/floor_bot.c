/*
 * floor_bot - the floor for bench/e2e: a bot that answers every interaction
 * with the same fixed message and does no other work.
 *
 * It runs fray's own transport (gw.c on libwebsockets for the gateway,
 * rest.c on libcurl for the callbacks, the same lws loop and REST thread as
 * the daemon) with no command layer, no store and no rendering, so fray's
 * latency minus this one's is what fray's work costs on top of the
 * transport it cannot avoid.
 *
 *   DISCORD_TOKEN=... DISCORD_API_BASE=http://127.0.0.1:N/api/v10 \
 *       build/bench-floor-bot
 *
 * Runs until SIGTERM or SIGINT; prints the interactions it answered to
 * stderr on exit.
 */
#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cfg.h"
#include "eng_rng.h"
#include "gw.h"
#include "log.h"
#include "rest.h"

#define FLOOR_TICK_MS 100
#define FLOOR_FD_LIMIT 64
#define FLOOR_RX_BUFFER 65536
#define FLOOR_REPLY "{\"type\":4,\"data\":{\"content\":\"ok\"," \
                    "\"allowed_mentions\":{\"parse\":[]}}}"

/* The only global: set by the signal handler, read by the tick. */
static volatile sig_atomic_t floor_signal;

struct floor {
    struct log log;
    struct eng_rng rng;
    struct lws_context *ctx;
    struct rest *rest;
    struct gw *gw;
    lws_sorted_usec_list_t sul_tick;
    long answered, failed;
    bool done;
};

static void on_signal(int sig)
{
    floor_signal = sig;
}

static void on_reply_done(void *ud, const struct rest_result *res)
{
    struct floor *f = ud;
    if (res->err == BOT_OK && res->status >= 200 && res->status < 300)
        f->answered++;
    else
        f->failed++;
}

static bool on_dispatch(void *ud, const char *t, json_t *d)
{
    struct floor *f = ud;
    char path[REST_MAX_PATH];
    const char *id = json_string_value(json_object_get(d, "id"));
    const char *token = json_string_value(json_object_get(d, "token"));

    if (strcmp(t, "INTERACTION_CREATE") != 0 || id == NULL || token == NULL)
        return true;
    snprintf(path, sizeof path, "/interactions/%s/%s/callback", id, token);
    if (rest_submit(f->rest, "POST", path, FLOOR_REPLY, on_reply_done, f) !=
        BOT_OK)
        f->failed++;
    return true;
}

static void on_ready(void *ud, const char *application_id)
{
    (void)ud;
    (void)application_id;
}

static void on_fatal(void *ud, int close_code)
{
    struct floor *f = ud;
    log_msg(&f->log, LOG_LVL_ERR, "fatal gateway close %d", close_code);
    f->done = true;
}

static void tick_cb(lws_sorted_usec_list_t *sul)
{
    struct floor *f = lws_container_of(sul, struct floor, sul_tick);
    if (floor_signal || rest_auth_failed(f->rest))
        f->done = true;
    if (f->done)
        lws_cancel_service(f->ctx);
    else
        lws_sul_schedule(f->ctx, 0, &f->sul_tick, tick_cb,
                         FLOOR_TICK_MS * LWS_US_PER_MS);
}

static void on_gateway(void *ud, const struct rest_result *res)
{
    struct floor *f = ud;
    json_t *j = res->err == BOT_OK && res->status == 200
                    ? json_loadb(res->body, res->body_len, 0, NULL)
                    : NULL;
    const char *url = json_string_value(json_object_get(j, "url"));
    if (url == NULL) {
        log_msg(&f->log, LOG_LVL_ERR, "GET /gateway/bot failed (status %d)",
                res->status);
        f->done = true;
    } else {
        gw_start(f->gw, url, -1, 0);
    }
    json_decref(j);
}

static void rest_wake(void *ud)
{
    struct floor *f = ud;
    lws_cancel_service(f->ctx);
}

static int floor_lws_cb(struct lws *wsi, enum lws_callback_reasons reason,
                        void *user, void *in, size_t len)
{
    if (reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED) {
        struct floor *f = lws_context_user(lws_get_context(wsi));
        if (f && f->rest)
            rest_dispatch_done(f->rest);
        return 0;
    }
    return gw_lws_callback(wsi, reason, user, in, len);
}

static const struct lws_protocols floor_protocols[] = {
    {GW_PROTOCOL_NAME, floor_lws_cb, 0, FLOOR_RX_BUFFER, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int floor_run(struct floor *f, const struct cfg *c, const char *token,
                     const char *api)
{
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = floor_protocols;
    info.user = f;
    info.fd_limit_per_thread = FLOOR_FD_LIMIT;
    f->ctx = lws_create_context(&info);
    if (f->ctx == NULL)
        return 1;

    struct rest_opts ro = {
        .api_base = api, .token = token,
        .connect_timeout_ms = c->rest_connect_timeout_ms,
        .timeout_ms = c->rest_timeout_ms,
        .max_retries = (int)c->rest_max_retries,
        .retry_base_ms = c->rest_retry_base_ms,
        .global_per_sec = (int)c->rest_global_per_sec,
        .log = &f->log, .wake = rest_wake, .wake_ud = f};
    struct gw_opts go = {
        .token = token, .log = &f->log, .store = NULL, .rng = &f->rng,
        .ctx = f->ctx, .backoff_min_ms = c->gw_backoff_min_ms,
        .backoff_max_ms = c->gw_backoff_max_ms,
        .heartbeat_max_ms = c->gw_heartbeat_max_ms,
        .max_payload = c->gw_max_payload,
        .compress = c->gw_compress,     /* fray's transport, as configured */
        .identify_spacing_ms = c->gw_identify_spacing_ms,
        .ready_timeout_ms = c->gw_ready_timeout_ms,
        .hooks = {.on_dispatch = on_dispatch, .on_ready = on_ready,
                  .on_fatal = on_fatal, .ud = f}};
    int rc = 1;
    if (rest_new(&ro, &f->rest) == BOT_OK && gw_new(&go, &f->gw) == BOT_OK &&
        rest_submit(f->rest, "GET", "/gateway/bot", NULL, on_gateway, f) ==
            BOT_OK) {
        lws_sul_schedule(f->ctx, 0, &f->sul_tick, tick_cb,
                         FLOOR_TICK_MS * LWS_US_PER_MS);
        while (!f->done)
            if (lws_service(f->ctx, 0) < 0)
                break;
        rc = 0;
    }
    lws_sul_cancel(&f->sul_tick);
    if (f->gw)
        gw_detach(f->gw);
    rest_free(f->rest);
    lws_context_destroy(f->ctx);
    gw_free(f->gw);
    return rc;
}

int main(void)
{
    const char *token = getenv("DISCORD_TOKEN");
    const char *api = getenv("DISCORD_API_BASE");
    struct floor f;
    struct cfg c;
    struct sigaction sa;

    if (token == NULL || api == NULL) {
        fputs("usage: DISCORD_TOKEN=... DISCORD_API_BASE=... "
              "bench-floor-bot\n", stderr);
        return 2;
    }
    memset(&f, 0, sizeof f);
    cfg_defaults(&c);
    log_init(&f.log, stderr, LOG_LVL_WARN);
    log_set_secret(&f.log, token);
    eng_rng_seed(&f.rng, (uint64_t)time(NULL));
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    lws_set_log_level(0, NULL);

    int rc = floor_run(&f, &c, token, api);
    fprintf(stderr, "floor-bot: %ld answered, %ld failed\n", f.answered,
            f.failed);
    log_cleanup(&f.log);
    return rc;
}
