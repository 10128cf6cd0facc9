/*
 * fake_main.c - fake-discord: command line, the lws context and its one
 * protocol, the service loop. Prints "PORT <n>" as the first stdout line,
 * logs (only with --verbose) to stderr, exits 0 on SIGTERM/SIGINT.
 */
#include "fake.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

static volatile sig_atomic_t fake_interrupted;

static void on_signal(int sig)
{
    (void)sig;
    fake_interrupted = 1;
}

static int fake_callback(struct lws *wsi, enum lws_callback_reasons reason,
                         void *user, void *in, size_t len)
{
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
    case LWS_CALLBACK_RECEIVE:
    case LWS_CALLBACK_SERVER_WRITEABLE:
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    case LWS_CALLBACK_CLOSED:
        return fake_gw_callback(wsi, reason, user, in, len);
    default:
        return fake_http_callback(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols fake_protocols[] = {
    { "fake-discord", fake_callback, sizeof(struct fake_pss), 0, 0, NULL, 0 },
    { NULL, NULL, 0, 0, 0, NULL, 0 }
};

static void usage(void)
{
    fputs("usage: fake-discord [--port N] [--token T] [--heartbeat-ms N]\n"
          "       [--no-hb-timeout] [--identify-gap-ms N] "
          "[--session-limit N]\n"
          "       [--allow-privileged] [--app-id ID] [--guild-id ID]\n"
          "       [--channel-id ID] [--user-id ID] [--verbose]\n"
          "Serves Discord's REST v10 and Gateway v10 on 127.0.0.1 for tests;\n"
          "see docs/internals/fake-discord.md.\n", stderr);
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_args(int argc, char **argv, struct fake_opts *o)
{
    o->port = 0;
    o->token = "fake-token";
    o->heartbeat_ms = FAKE_GW_DEFAULT_HB_MS;
    o->hb_timeout = true;
    o->identify_gap_ms = FAKE_GW_IDENTIFY_GAP_MS;
    o->session_total = FAKE_GW_SESSION_TOTAL;
    o->app_id = "1100000000000000001";
    o->guild_id = "1100000000000000100";
    o->channel_id = "1100000000000000200";
    o->user_id = "1100000000000000300";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (strcmp(a, "--no-hb-timeout") == 0) {
            o->hb_timeout = false;
            continue;
        } else if (strcmp(a, "--allow-privileged") == 0) {
            o->allow_privileged = true;
            continue;
        } else if (strcmp(a, "--verbose") == 0) {
            o->verbose = true;
            continue;
        } else if (strcmp(a, "--help") == 0) {
            usage();
            exit(0);
        }
        if (v == NULL) {
            fprintf(stderr, "fake-discord: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (strcmp(a, "--port") == 0)
            bad = parse_int(v, 0, 65535, &o->port);
        else if (strcmp(a, "--token") == 0)
            o->token = v;
        else if (strcmp(a, "--heartbeat-ms") == 0)
            bad = parse_int(v, 1, 600000, &o->heartbeat_ms);
        else if (strcmp(a, "--identify-gap-ms") == 0)
            bad = parse_int(v, 0, 600000, &o->identify_gap_ms);
        else if (strcmp(a, "--session-limit") == 0)
            bad = parse_int(v, 0, 1000000, &o->session_total);
        else if (strcmp(a, "--app-id") == 0)
            o->app_id = v;
        else if (strcmp(a, "--guild-id") == 0)
            o->guild_id = v;
        else if (strcmp(a, "--channel-id") == 0)
            o->channel_id = v;
        else if (strcmp(a, "--user-id") == 0)
            o->user_id = v;
        else {
            fprintf(stderr, "fake-discord: unknown option %s\n", a);
            usage();
            return -1;
        }
        if (bad) {
            fprintf(stderr, "fake-discord: bad value for %s: %s\n", a, v);
            return -1;
        }
    }
    return 0;
}

static int server_init(struct fake_server *s)
{
    s->t0_us = fake_now_us();
    if (getrandom(&s->rng, sizeof s->rng, 0) != (ssize_t)sizeof s->rng)
        s->rng = (uint64_t)s->t0_us ^ ((uint64_t)getpid() << 32);
    if (s->rng == 0)
        s->rng = 0x9E3779B97F4A7C15ull;
    s->snow = fake_rand(s) & 0xFFF;
    s->session_remaining = s->opt.session_total;
    s->conn_log = json_array();
    s->frames = json_array();
    s->ix_index = json_object();
    s->requests = json_array();
    s->violations = json_array();
    s->vcounts = json_object();
    s->messages = json_object();
    s->commands = json_object();
    s->attachments = json_object();
    s->att_requests = json_array();
    s->threads = json_object();
    s->chan_perms = json_object();
    s->foreign = json_object();
    s->msg_cids = json_object();
    fake_rl_init(s);
    return s->conn_log && s->frames && s->ix_index && s->requests &&
                   s->violations && s->vcounts && s->messages && s->commands &&
                   s->attachments && s->att_requests && s->threads &&
                   s->chan_perms && s->rlc
               ? 0
               : -1;
}

static void server_free(struct fake_server *s)
{
    fake_gw_free_all(s);
    fake_ix_reset(s);
    free(s->ix);
    free(s->lat);
    json_decref(s->load.command);
    json_decref(s->conn_log);
    json_decref(s->frames);
    json_decref(s->ix_index);
    json_decref(s->requests);
    json_decref(s->violations);
    json_decref(s->vcounts);
    json_decref(s->messages);
    json_decref(s->commands);
    json_decref(s->attachments);
    json_decref(s->att_requests);
    json_decref(s->threads);
    json_decref(s->chan_perms);
    json_decref(s->foreign);
    json_decref(s->msg_cids);
    fake_rl_free(s);
}

int main(int argc, char **argv)
{
    struct fake_server srv;             /* all state; see fake.h */
    memset(&srv, 0, sizeof srv);
    struct fake_server *s = &srv;
    if (parse_args(argc, argv, &s->opt))
        return 2;
    if (server_init(s)) {
        fputs("fake-discord: out of memory\n", stderr);
        return 1;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    lws_set_log_level(s->opt.verbose ? LLL_ERR | LLL_WARN | LLL_NOTICE
                                     : LLL_ERR, NULL);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = s->opt.port;
    info.iface = "127.0.0.1";
    info.protocols = fake_protocols;
    info.user = s;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 |
                   LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    info.vhost_name = "default";

    s->ctx = lws_create_context(&info);
    if (s->ctx == NULL) {
        fputs("fake-discord: cannot create the lws context\n", stderr);
        server_free(s);
        return 1;
    }
    s->vh = lws_get_vhost_by_name(s->ctx, "default");
    s->port = s->vh ? lws_get_vhost_listen_port(s->vh) : s->opt.port;
    printf("PORT %d\n", s->port);
    fflush(stdout);
    fake_log(s, "listening on 127.0.0.1:%d", s->port);

    int n = 0;
    while (n >= 0 && !fake_interrupted)
        n = lws_service(s->ctx, 0);

    lws_sul_cancel(&s->load.sul);   /* before the scheduler goes away */
    lws_context_destroy(s->ctx);
    s->ctx = NULL;
    server_free(s);
    return 0;
}
