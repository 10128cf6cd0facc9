/*
 * fuzz_gw_message.c - the gateway's handler for one received payload,
 * gw_on_message() (gw_dispatch.c), driven with a sequence of frames.
 *
 * gw_lws_callback() needs a live connection (a struct lws) for everything
 * but reassembly; once a whole message is in, it calls gw_on_message(),
 * which parses the JSON and dispatches on op: HELLO, ACK, heartbeat
 * request, RECONNECT, INVALID_SESSION, and dispatches (READY, RESUMED and
 * the rest through the on_dispatch hook). That is what this target calls.
 * The gw is real (gw_new() with the daemon's default settings) and runs on
 * a real lws context that is never serviced: timers are scheduled and
 * cancelled as in production, but none fires. There is no connection
 * (gw->wsi is NULL), so sends are refused and closes schedule a reconnect,
 * as they do between connections. The hook decodes INTERACTION_CREATE
 * with interaction_decode(), as the daemon does.
 *
 * Input: frames separated by '\n', each handed over as one whole message
 * in a buffer of exactly its size. An optional first line of one digit
 * '0'..'7' sets the starting point: bit 0 a saved session (so HELLO
 * RESUMEs), bit 1 the dispatch hook refuses events (shutting down), bit 2
 * the connection already READY.
 *
 * Properties checked (gw.h): the heartbeat interval taken from HELLO is
 * never negative (0 until a good HELLO) and at most heartbeat_max_ms; the sequence number never goes
 * below zero; the state stays a known one; gw_detach() + gw_free() release
 * everything (no leak, no timer left pointing at freed memory).
 */
#include <string.h>

#include "cfg.h"
#include "eng_rng.h"
#include "fuzz.h"
#include "gw_int.h"
#include "interaction.h"
#include "log.h"

#define FUZZ_TOKEN "fuzz-token.aaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static struct lws_context *ctx;
static struct log lg;
static bool refuse_dispatch;

static bool setup(void)
{
    struct lws_context_creation_info info;
    FILE *devnull;

    if (ctx)
        return true;
    lws_set_log_level(0, NULL);
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.fd_limit_per_thread = 16;
    ctx = lws_create_context(&info);
    if (!ctx)
        return false;
    /* log as the daemon does by default (formatting and redaction run),
     * into nowhere */
    devnull = fopen("/dev/null", "w");
    log_init(&lg, devnull, LOG_LVL_INFO);
    log_set_journal(&lg, false);
    log_set_secret(&lg, FUZZ_TOKEN);
    return true;
}

static bool on_dispatch(void *ud, const char *t, json_t *d)
{
    struct interaction it;
    char why[256];

    (void)ud;
    FUZZ_CHECK(t != NULL);
    if (refuse_dispatch)
        return false;
    /* a refused payload that still names itself keeps its root for its
     * answer (it.answerable): cleaned up either way, as the daemon does */
    if (strcmp(t, "INTERACTION_CREATE") == 0) {
        (void)interaction_decode(d, INT64_C(1700000000000), &it, why,
                                 sizeof why);
        interaction_cleanup(&it);
    }
    return true;
}

static void on_ready(void *ud, const char *application_id)
{
    (void)ud;
    FUZZ_CHECK(application_id != NULL);
}

static void on_fatal(void *ud, int close_code)
{
    (void)ud;
    (void)close_code;
}

static void check(const struct gw *gw, const struct gw_opts *o)
{
    FUZZ_CHECK(gw->seq >= 0);
    FUZZ_CHECK(gw->heartbeat_ms >= 0 &&
               gw->heartbeat_ms <= o->heartbeat_max_ms);
    FUZZ_CHECK(gw->state >= GW_ST_IDLE && gw->state <= GW_ST_STOPPED);
    FUZZ_CHECK(fuzz_terminated(gw->session_id, sizeof gw->session_id));
    FUZZ_CHECK(fuzz_terminated(gw->resume_url, sizeof gw->resume_url));
    FUZZ_CHECK(fuzz_terminated(gw->application_id,
                               sizeof gw->application_id));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gw_opts o;
    struct cfg c;
    struct eng_rng rng;
    struct gw *gw;
    unsigned flags = 0;
    size_t pos = 0;

    if (!setup())
        return 0;
    if (size >= 1 && data[0] >= '0' && data[0] <= '7' &&
        (size == 1 || data[1] == '\n')) {
        flags = (unsigned)(data[0] - '0');
        pos = size == 1 ? 1 : 2;
    }
    refuse_dispatch = flags & 2;

    cfg_defaults(&c);
    eng_rng_seed(&rng, fuzz_hash(data, size));
    memset(&o, 0, sizeof o);
    o.token = FUZZ_TOKEN;
    o.log = &lg;
    o.store = NULL;
    o.rng = &rng;
    o.ctx = ctx;
    o.backoff_min_ms = c.gw_backoff_min_ms;
    o.backoff_max_ms = c.gw_backoff_max_ms;
    o.heartbeat_max_ms = c.gw_heartbeat_max_ms;
    o.max_payload = c.gw_max_payload;
    o.identify_spacing_ms = c.gw_identify_spacing_ms;
    o.ready_timeout_ms = c.gw_ready_timeout_ms;
    o.hooks.on_dispatch = on_dispatch;
    o.hooks.on_ready = on_ready;
    o.hooks.on_fatal = on_fatal;
    if (gw_new(&o, &gw) != BOT_OK)
        return 0;
    gw->state = GW_ST_HELLO;
    if (flags & 1) {
        snprintf(gw->session_id, sizeof gw->session_id, "fuzz-session");
        snprintf(gw->resume_url, sizeof gw->resume_url,
                 "wss://gateway.example:443");
        gw->seq = 7;
        gw->next = GW_NEXT_RESUME;
    } else {
        gw->next = GW_NEXT_NEW_SESSION;
    }
    if (flags & 4)
        gw->state = GW_ST_READY;

    while (pos < size) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
        char *msg = malloc(len ? len : 1);   /* exactly the frame */
        if (msg) {
            memcpy(msg, data + pos, len);
            gw_on_message(gw, msg, len);
            free(msg);
        }
        check(gw, &o);
        pos += len + 1;
    }
    gw_detach(gw);
    gw_free(gw);
    return 0;
}
