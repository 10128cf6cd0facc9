/*
 * check_online.c - `fray check --online`: three GETs through fray's own
 * REST client (rest.h, the same headers, TLS and rate limiter as `fray
 * run`), answered in plain words.
 */
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gw.h"
#include "rest.h"

/* Privileged gateway intents and the application flags that allow them
 * (discord-protocol.md: intents; application flags GATEWAY_*). */
static const struct {
    int64_t intent;
    int64_t flags;               /* either flag is enough */
    const char *name, *portal;
} privileged[] = {
    {1 << 1, (1 << 14) | (1 << 15), "GUILD_MEMBERS", "Server Members Intent"},
    {1 << 8, (1 << 12) | (1 << 13), "GUILD_PRESENCES", "Presence Intent"},
    {1 << 15, (1 << 18) | (1 << 19), "MESSAGE_CONTENT",
     "Message Content Intent"},
};

enum { Q_ME, Q_APP, Q_GATEWAY, Q_N };

static const char *const q_path[Q_N] = {"/users/@me", "/applications/@me",
                                        "/gateway/bot"};

struct answer {
    bool done;
    int status;
    enum bot_err err;
    json_t *body;                /* owned; NULL unless JSON came back */
};

struct online {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool woken;
    struct answer a[Q_N];
};

struct slot {
    struct online *o;
    int q;
};

static void on_wake(void *ud)
{
    struct online *o = ud;
    pthread_mutex_lock(&o->mu);
    o->woken = true;
    pthread_cond_signal(&o->cv);
    pthread_mutex_unlock(&o->mu);
}

static void on_done(void *ud, const struct rest_result *res)
{
    struct slot *s = ud;
    struct answer *a = &s->o->a[s->q];
    a->done = true;
    a->status = res->status;
    a->err = res->err;
    if (res->body && res->body_len)
        a->body = json_loadb(res->body, res->body_len, 0, NULL);
}

static bool all_done(const struct online *o)
{
    for (int i = 0; i < Q_N; i++)
        if (!o->a[i].done)
            return false;
    return true;
}

/* Wait for the three answers, running their callbacks on this thread. */
static void wait_answers(struct online *o, struct rest *r)
{
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += CHECK_ONLINE_WAIT_MS / 1000;
    while (!all_done(o)) {
        int rc = 0;
        pthread_mutex_lock(&o->mu);
        while (!o->woken && rc == 0)
            rc = pthread_cond_timedwait(&o->cv, &o->mu, &end);
        o->woken = false;
        pthread_mutex_unlock(&o->mu);
        rest_dispatch_done(r);
        if (rc != 0)
            break;               /* timed out: rest_free() ends the rest */
    }
}

/* An answer that is not a 200: what it means, in words. Returns true
 * when it was a 200. */
static bool answered(struct check *ck, const struct answer *a,
                     const char *what, const char *path, const char *base)
{
    if (a->status == 200 && a->body)
        return true;
    if (a->status == 401)
        check_say(ck, CHECK_FAIL, what, "Discord refused the token (401 "
                  "Unauthorized): it is wrong, or it was reset. Developer "
                  "Portal -> your application -> Bot -> Reset Token, then "
                  "store the new one");
    else if (a->status == 0)
        check_say(ck, CHECK_FAIL, what, "no answer from %s (%s): is the "
                  "network up, or a firewall in the way?", base,
                  a->done ? bot_errname(a->err) : "timed out");
    else
        check_say(ck, CHECK_FAIL, what, "Discord answered %d to GET %s",
                  a->status, path);
    return false;
}

static void judge_me(struct check *ck, const struct answer *a, const char *b)
{
    if (!answered(ck, a, "discord", q_path[Q_ME], b))
        return;
    if (!json_is_true(json_object_get(a->body, "bot"))) {
        check_say(ck, CHECK_FAIL, "discord", "the token belongs to a user "
                  "account, not a bot: use the token from the Bot page");
        return;
    }
    check_say(ck, CHECK_OK, "discord", "the token is accepted: bot %s "
              "(id %s)", json_string_value(json_object_get(a->body, "username")),
              json_string_value(json_object_get(a->body, "id")));
}

static void judge_app(struct check *ck, const struct answer *a, const char *b)
{
    int64_t flags;
    const char *id;
    int missing = 0;

    if (!answered(ck, a, "intents", q_path[Q_APP], b))
        return;
    flags = json_integer_value(json_object_get(a->body, "flags"));
    id = json_string_value(json_object_get(a->body, "id"));
    for (size_t i = 0; i < sizeof privileged / sizeof privileged[0]; i++)
        if ((GW_INTENTS & privileged[i].intent) &&
            !(flags & privileged[i].flags)) {
            check_say(ck, CHECK_FAIL, "intents", "fray needs %s: turn on "
                      "\"%s\" in the Developer Portal (Bot page)",
                      privileged[i].name, privileged[i].portal);
            missing++;
        }
    if (!missing)
        check_say(ck, CHECK_OK, "intents", "fray needs no privileged intent "
                  "(slash commands and buttons need none)");
    if (id)
        check_say(ck, CHECK_OK, "invite", "https://discord.com/oauth2/"
                  "authorize?client_id=%s&scope=bot%%20applications.commands"
                  "&permissions=2252109051415552", id);
}

static void judge_gateway(struct check *ck, const struct answer *a,
                          const char *b)
{
    json_t *ssl;
    int64_t total, left, reset_ms, shards;
    int count = ck->cfg.shard.count;

    if (!answered(ck, a, "sessions", q_path[Q_GATEWAY], b))
        return;
    ssl = json_object_get(a->body, "session_start_limit");
    total = json_integer_value(json_object_get(ssl, "total"));
    left = json_integer_value(json_object_get(ssl, "remaining"));
    reset_ms = json_integer_value(json_object_get(ssl, "reset_after"));
    shards = json_integer_value(json_object_get(a->body, "shards"));
    if (left <= 0)
        check_say(ck, CHECK_FAIL, "sessions", "no session start left (of "
                  "%" PRId64 " a day): fray cannot connect for %" PRId64
                  " h %" PRId64 " min, until Discord's limit resets",
                  total, reset_ms / 3600000, reset_ms / 60000 % 60);
    else
        check_say(ck, left < CHECK_FEW_STARTS ? CHECK_WARN : CHECK_OK,
                  "sessions", "%" PRId64 " of %" PRId64 " session starts "
                  "left%s; the count resets in %" PRId64 " h %" PRId64
                  " min", left, total,
                  left < CHECK_FEW_STARTS ? " (each restart that cannot "
                  "resume takes one)" : "",
                  reset_ms / 3600000, reset_ms / 60000 % 60);
    if (count > 0 && shards > count)
        check_say(ck, CHECK_WARN, "shards", "Discord recommends %" PRId64
                  " shards; [gateway] shard runs %d", shards, count);
    else
        check_say(ck, CHECK_OK, "shards", "Discord recommends %" PRId64
                  "; %s", shards, count > 0 ? "the config's count is enough"
                  : "[gateway] shard = auto takes it");
}

void check_online(struct check *ck)
{
    const char *env = getenv("DISCORD_API_BASE");
    const char *base = env && *env ? env : ck->cfg.api_base;
    struct online o;
    struct slot slots[Q_N];
    struct rest_opts ro;
    struct rest *r = NULL;
    struct log lg;

    memset(&o, 0, sizeof o);
    pthread_mutex_init(&o.mu, NULL);
    pthread_cond_init(&o.cv, NULL);
    /* the REST client's own log lines stay unwritten: every outcome is
     * said below, in words */
    log_init(&lg, NULL, LOG_LVL_ERR);
    memset(&ro, 0, sizeof ro);
    ro.api_base = base;
    ro.token = ck->token;
    ro.connect_timeout_ms = ck->cfg.rest_connect_timeout_ms;
    ro.timeout_ms = ck->cfg.rest_timeout_ms;
    ro.max_retries = 1;
    ro.retry_base_ms = ck->cfg.rest_retry_base_ms;
    ro.global_per_sec = (int)ck->cfg.rest_global_per_sec;
    ro.log = &lg;
    ro.wake = on_wake;
    ro.wake_ud = &o;
    if (rest_new(&ro, &r) != BOT_OK) {
        check_say(ck, CHECK_FAIL, "discord", "cannot start the HTTP client "
                  "(out of memory)");
    } else {
        for (int i = 0; i < Q_N; i++) {
            slots[i] = (struct slot){&o, i};
            if (rest_submit(r, "GET", q_path[i], NULL, on_done, &slots[i]) !=
                BOT_OK)
                o.a[i].done = true;
        }
        wait_answers(&o, r);
        rest_free(r);            /* completes whatever is left */
        judge_me(ck, &o.a[Q_ME], base);
        /* a refused token is one finding, not three */
        if (o.a[Q_ME].status != 401) {
            judge_app(ck, &o.a[Q_APP], base);
            judge_gateway(ck, &o.a[Q_GATEWAY], base);
        }
    }
    for (int i = 0; i < Q_N; i++)
        json_decref(o.a[i].body);
    log_cleanup(&lg);
    pthread_cond_destroy(&o.cv);
    pthread_mutex_destroy(&o.mu);
}
