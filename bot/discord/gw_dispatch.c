/*
 * gw_dispatch.c - gateway opcodes and dispatch events, one handler each,
 * and gw_new(), which puts them on the connection (gw.c).
 */
#include "gw_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eng_rng.h"
#include "store.h"

enum {
    OP_DISPATCH = 0, OP_HEARTBEAT = 1, OP_IDENTIFY = 2, OP_RESUME = 6,
    OP_RECONNECT = 7, OP_INVALID_SESSION = 9, OP_HELLO = 10,
    OP_HEARTBEAT_ACK = 11, OP__COUNT = 12,
};

typedef void gw_op_fn(struct gw *gw, json_t *msg);

/* ---- what we send ---- */

void gw_send_heartbeat(struct gw *gw)
{
    json_t *p = json_pack("{s:i, s:o}", "op", OP_HEARTBEAT, "d",
                          gw->seq ? json_integer(gw->seq) : json_null());
    if (p && gw_send_json(gw, p, true))
        gw->hb_sent = true;
    json_decref(p);
}

static void zombie(struct gw *gw, const char *how)
{
    log_msg(gw->o.log, LOG_LVL_WARN,
            "gateway: no heartbeat ACK %s: zombie connection, resuming", how);
    gw_close_and(gw, GW_NEXT_RESUME, 0, "zombie");
    gw->abandon_on_close = true;
}

/* The ACK deadline (gw_ack_deadline_ms). */
static void ack_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_ack);
    int64_t late = gw_now_ms() - gw->ack_due_ms;

    if (!gw->wsi || gw->acked || gw->state == GW_ST_CLOSING)
        return;
    if (late >= GW_ACK_STALL_MS && !gw->ack_regrace) {
        /* the loop was stalled: read what waits first */
        gw->ack_regrace = true;
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_ack, ack_cb,
                         GW_ACK_REGRACE_MS * LWS_US_PER_MS);
        return;
    }
    zombie(gw, "by its deadline");
}

static void hb_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_hb);

    if (!gw->wsi)
        return;
    if (gw->hb_sent && !gw->acked) {
        zombie(gw, "before the next beat");
        return;
    }
    gw->acked = false;
    gw_send_heartbeat(gw);
    {
        int64_t d = gw_ack_deadline_ms(gw->heartbeat_ms);
        gw->ack_due_ms = gw_now_ms() + d;
        gw->ack_regrace = false;
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_ack, ack_cb,
                         d * LWS_US_PER_MS);
    }
    lws_sul_schedule(gw->o.ctx, 0, &gw->sul_hb, hb_cb,
                     gw->heartbeat_ms * LWS_US_PER_MS);
}

static void identify_now(struct gw *gw)
{
    json_t *p = json_pack("{s:i, s:{s:s, s:i, s:{s:s, s:s, s:s}}}", "op",
                          OP_IDENTIFY, "d", "token", gw->token, "intents",
                          GW_INTENTS, "properties", "os", "linux", "browser",
                          "fray", "device", "fray");
    if (!p)
        return;
    if (shard_is_sharded(&gw->shard))
        json_object_set_new(json_object_get(p, "d"), "shard",
                            json_pack("[i,i]", gw->shard.id,
                                      gw->shard.count));
    if (gw_send_json(gw, p, false)) {
        gw->last_identify_ms = gw_now_ms();
        if (gw->starts_remaining > 0)
            gw->starts_remaining--;
        gw->stats.identifies++;
        log_msg(gw->o.log, LOG_LVL_INFO, "gateway: IDENTIFY sent");
    }
    json_decref(p);
}

static void identify_cb(lws_sorted_usec_list_t *sul)
{
    struct gw *gw = lws_container_of(sul, struct gw, sul_identify);
    if (gw->wsi && gw->state == GW_ST_IDENTIFYING)
        gw_send_identify_or_wait(gw);
}

/* Other processes share the store and may run shards of our identify
 * bucket: take a slot in the store (shard.h). */
static void identify_gate(struct gw *gw, int64_t *wait)
{
    struct timespec ts;
    enum bot_err e;

    clock_gettime(CLOCK_REALTIME, &ts);
    e = shard_identify_gate(gw->o.store, &gw->shard, gw->max_concurrency,
                            (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000,
                            &gw->identify_slot, wait);
    if (e != BOT_OK)
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: no identify slot (%s: %s):"
                " identifying anyway", bot_errname(e),
                store_errmsg(gw->o.store));
}

void gw_send_identify_or_wait(struct gw *gw)
{
    int64_t now = gw_now_ms(), wait = 0;

    gw_set_state(gw, GW_ST_IDENTIFYING, "new session");
    if (gw->last_identify_ms &&
        now - gw->last_identify_ms < gw->o.identify_spacing_ms)
        wait = gw->o.identify_spacing_ms - (now - gw->last_identify_ms);
    if (gw->starts_remaining == 0 && gw->starts_reset_ms > now) {
        log_msg(gw->o.log, LOG_LVL_WARN,
                "gateway: session_start_limit used up; waiting %lld s",
                (long long)((gw->starts_reset_ms - now) / 1000));
        if (gw->starts_reset_ms - now > wait)
            wait = gw->starts_reset_ms - now;
        gw->starts_remaining = -1;   /* unknown after the reset */
    }
    if (wait == 0 && shard_is_sharded(&gw->shard) && gw->o.store &&
        store_shared(gw->o.store))
        identify_gate(gw, &wait);
    if (wait > 0) {
        log_msg(gw->o.log, LOG_LVL_INFO, "gateway: IDENTIFY in %lld ms",
                (long long)wait);
        /* the READY timeout must not fire while we wait on purpose */
        lws_sul_cancel(&gw->sul_timeout);
        lws_sul_schedule(gw->o.ctx, 0, &gw->sul_identify, identify_cb,
                         wait * LWS_US_PER_MS);
        return;
    }
    identify_now(gw);
    gw_on_hello_timer_start(gw);
}

void gw_send_resume(struct gw *gw)
{
    json_t *p = json_pack("{s:i, s:{s:s, s:s, s:I}}", "op", OP_RESUME, "d",
                          "token", gw->token, "session_id", gw->session_id,
                          "seq", (json_int_t)gw->seq);
    gw_set_state(gw, GW_ST_RESUMING, "saved session");
    if (p && gw_send_json(gw, p, false)) {
        gw->stats.resumes++;
        log_msg(gw->o.log, LOG_LVL_INFO, "gateway: RESUME sent (seq %lld)",
                (long long)gw->seq);
    }
    json_decref(p);
}

/* ---- opcodes ---- */

/* HELLO's heartbeat_interval in [GW_HEARTBEAT_MIN_MS, heartbeat_max_ms];
 * anything else is clamped and logged. A missing, non-number or
 * non-positive value gets the minimum: beating too often costs a small
 * frame, beating too rarely gets the session closed by the server. */
int64_t gw_hello_interval_ms(const json_t *iv, int64_t max_ms, bool *clamped)
{
    double v = json_is_number(iv) ? json_number_value(iv) : 0;
    int64_t ms;

    if (v < (double)GW_HEARTBEAT_MIN_MS)
        ms = GW_HEARTBEAT_MIN_MS;
    else if (v > (double)max_ms)
        ms = max_ms;
    else
        ms = (int64_t)v;
    *clamped = !json_is_integer(iv) || ms != json_integer_value(iv);
    return ms;
}

static void on_hello(struct gw *gw, json_t *msg)
{
    json_t *iv = json_object_get(json_object_get(msg, "d"),
                                 "heartbeat_interval");
    bool clamped;

    gw->heartbeat_ms =
        gw_hello_interval_ms(iv, gw->o.heartbeat_max_ms, &clamped);
    if (clamped) {
        char shown[32];
        if (json_is_integer(iv))
            snprintf(shown, sizeof shown, "%lld",
                     (long long)json_integer_value(iv));
        else
            snprintf(shown, sizeof shown, "%s",
                     json_is_real(iv) ? "a fraction" : "not an integer");
        log_msg(gw->o.log, LOG_LVL_WARN,
                "gateway: HELLO heartbeat_interval %s is outside %d..%lld ms:"
                " using %lld ms",
                shown, GW_HEARTBEAT_MIN_MS, (long long)gw->o.heartbeat_max_ms,
                (long long)gw->heartbeat_ms);
    }
    gw->acked = true;
    gw->hb_sent = false;
    /* first beat at a random fraction of the interval */
    lws_sul_schedule(gw->o.ctx, 0, &gw->sul_hb, hb_cb,
                     (int64_t)eng_rng_below(gw->o.rng,
                                            (uint64_t)gw->heartbeat_ms) *
                         LWS_US_PER_MS);
    if (gw->next == GW_NEXT_RESUME && gw->session_id[0])
        gw_send_resume(gw);
    else
        gw_send_identify_or_wait(gw);
}

static void on_ack(struct gw *gw, json_t *msg)
{
    (void)msg;
    gw->acked = true;
}

static void on_heartbeat_request(struct gw *gw, json_t *msg)
{
    (void)msg;
    gw_send_heartbeat(gw);           /* at once; the timer is unchanged */
}

static void on_reconnect(struct gw *gw, json_t *msg)
{
    (void)msg;
    gw_close_and(gw, gw->session_id[0] ? GW_NEXT_RESUME : GW_NEXT_NEW_SESSION,
                 0, "server asked to reconnect (op 7)");
}

static void on_invalid_session(struct gw *gw, json_t *msg)
{
    bool resumable = json_is_true(json_object_get(msg, "d"));
    int64_t delay = GW_INVALID_MIN_MS +
                    (int64_t)eng_rng_below(gw->o.rng, GW_INVALID_MAX_MS -
                                                          GW_INVALID_MIN_MS + 1);
    if (resumable && gw->session_id[0]) {
        gw_close_and(gw, GW_NEXT_RESUME, delay, "invalid session (resumable)");
        return;
    }
    gw_session_forget(gw);
    gw_close_and(gw, GW_NEXT_NEW_SESSION, delay, "invalid session");
}

static void on_ready(struct gw *gw, json_t *d)
{
    const char *sid = json_string_value(json_object_get(d, "session_id"));
    const char *url = json_string_value(json_object_get(d, "resume_gateway_url"));
    const char *app = json_string_value(
        json_object_get(json_object_get(d, "application"), "id"));

    if (!sid || !url || !app || strlen(sid) > GW_MAX_SESSION_ID ||
        strlen(url) >= sizeof gw->resume_url ||
        strlen(app) >= sizeof gw->application_id) {
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: malformed READY");
        gw_close_and(gw, GW_NEXT_NEW_SESSION, -1, "malformed READY");
        return;
    }
    snprintf(gw->session_id, sizeof gw->session_id, "%s", sid);
    snprintf(gw->resume_url, sizeof gw->resume_url, "%s", url);
    snprintf(gw->application_id, sizeof gw->application_id, "%s", app);
    gw->attempts = 0;
    lws_sul_cancel(&gw->sul_timeout);
    gw_session_save(gw);
    gw->stats.readies++;
    gw_set_state(gw, GW_ST_READY, "READY");
    if (gw->o.hooks.on_ready)
        gw->o.hooks.on_ready(gw->o.hooks.ud, gw->application_id);
}

static void on_dispatch(struct gw *gw, json_t *msg)
{
    const char *t = json_string_value(json_object_get(msg, "t"));
    json_t *s = json_object_get(msg, "s"), *d = json_object_get(msg, "d");
    int64_t prev = gw->seq;

    gw->seq_before = prev;
    if (json_is_integer(s) && json_integer_value(s) > gw->seq)
        gw->seq = json_integer_value(s);
    if (!t)
        return;
    if (strcmp(t, "READY") == 0) {
        on_ready(gw, d);
        return;
    }
    if (strcmp(t, "RESUMED") == 0) {
        gw->attempts = 0;
        lws_sul_cancel(&gw->sul_timeout);
        gw->stats.resumed++;
        gw_set_state(gw, GW_ST_READY, "RESUMED");
        gw_seq_save(gw);
        return;
    }
    if (gw->o.hooks.on_dispatch &&
        !gw->o.hooks.on_dispatch(gw->o.hooks.ud, t, d)) {
        gw->seq = prev;              /* not handled: let a resume replay it */
        return;
    }
    if (gw->seq != prev)
        gw_seq_save(gw);
}

static gw_op_fn *const op_table[OP__COUNT] = {
    [OP_DISPATCH] = on_dispatch,
    [OP_HEARTBEAT] = on_heartbeat_request,
    [OP_RECONNECT] = on_reconnect,
    [OP_INVALID_SESSION] = on_invalid_session,
    [OP_HELLO] = on_hello,
    [OP_HEARTBEAT_ACK] = on_ack,
};

/* The value of the 4 hex digits at p, or -1. */
static long hex4(const char *p, const char *end)
{
    long v = 0;
    if (end - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* A copy of text with every \u0000 and every lone surrogate escape
 * written \uFFFD (the same length), or NULL when there is none (or no
 * memory). Escapes are read pairwise, so "\\u0000" (a backslash, then
 * text) is left alone. */
static char *repair_escapes(const char *text, size_t len)
{
    char *out = NULL;
    const char *end = text + len;
    for (const char *p = text; p + 1 < end; p++) {
        if (*p != '\\')
            continue;
        if (p[1] != 'u') {
            p++;                        /* \\, \", \n ...: skip both */
            continue;
        }
        long v = hex4(p + 2, end);
        bool bad = v == 0 || (v >= 0xDC00 && v <= 0xDFFF);
        if (v >= 0xD800 && v <= 0xDBFF) {
            long lo = end - p >= 12 && p[6] == '\\' && p[7] == 'u'
                          ? hex4(p + 8, end) : -1;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                p += 11;                /* a whole pair */
                continue;
            }
            bad = true;
        }
        if (bad) {
            if (out == NULL && (out = malloc(len + 1)) != NULL) {
                memcpy(out, text, len);
                out[len] = '\0';
            }
            if (out == NULL)
                return NULL;
            memcpy(out + (p - text) + 2, "FFFD", 4);
        }
        if (v >= 0)
            p += 5;
    }
    return out;
}

/* Parse a gateway message; one that jansson refuses only for \u0000 or a
 * lone surrogate is read with U+FFFD in their place, and its "d" marked
 * GW_KEY_REPAIRED, so that the user gets an answer. */
static json_t *parse_message(struct gw *gw, const char *text, size_t len,
                             json_error_t *jerr)
{
    json_t *msg = json_loadb(text, len, 0, jerr);
    if (msg != NULL)
        return msg;
    char *fixed = repair_escapes(text, len);
    if (fixed == NULL)
        return NULL;
    msg = json_loadb(fixed, len, 0, NULL);
    free(fixed);
    json_t *d = json_object_get(msg, "d");
    if (json_is_object(d)) {
        json_object_set_new(d, GW_KEY_REPAIRED, json_true());
        log_msg(gw->o.log, LOG_LVL_WARN, "gateway: a message held a NUL or "
                "a broken character (%s); read with U+FFFD in its place",
                jerr->text);
    }
    return msg;
}

void gw_on_message(struct gw *gw, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *msg = parse_message(gw, text, len, &jerr);
    json_t *op = json_object_get(msg, "op");
    json_int_t n;

    if (!json_is_integer(op)) {
        log_msg(gw->o.log, LOG_LVL_WARN,
                "gateway: ignoring a message that is not a payload (%s)",
                msg ? "no op" : jerr.text);
        json_decref(msg);
        return;
    }
    n = json_integer_value(op);
    if (n >= 0 && n < OP__COUNT && op_table[n])
        op_table[n](gw, msg);
    else
        log_msg(gw->o.log, LOG_LVL_DEBUG, "gateway: ignoring op %lld",
                (long long)n);
    json_decref(msg);
}

/* ---- the gateway: the connection (gw.c) with this protocol on it ---- */

enum bot_err gw_new(const struct gw_opts *o, struct gw **out)
{
    struct gw *gw = calloc(1, sizeof *gw);

    *out = NULL;
    if (!gw)
        return BOT_NOMEM;
    gw->o = *o;
    gw->on_message = gw_on_message;
    snprintf(gw->token, sizeof gw->token, "%s", o->token);
    gw->o.token = gw->token;
    gw->seq_fd = -1;
    if (o->seq_file != NULL && strlen(o->seq_file) < sizeof gw->seq_path)
        memcpy(gw->seq_path, o->seq_file, strlen(o->seq_file) + 1);
    gw->o.seq_file = NULL;          /* the copy above is what is used */
    sbuf_init(&gw->rx, (size_t)o->max_payload + 1);
    sbuf_init(&gw->text, (size_t)o->max_payload + 1);
    gw_zin_init(&gw->zin, (size_t)o->max_payload);
    gw->next_delay_ms = -1;
    gw->starts_remaining = -1;
    gw_set_shard(gw, &(struct shard){.id = 0, .count = 1}, 1);
    *out = gw;
    return BOT_OK;
}
