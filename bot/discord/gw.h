/*
 * gw.h - the Discord gateway client (Gateway v10, JSON, zlib-stream
 * transport compression: gw_zlib.h) on libwebsockets 4.1.6.
 *
 * One connection, driven by the daemon's lws loop; every wait is an lws_sul
 * timer, nothing blocks. The connection's life is an explicit enum gw_state
 * changed only by gw_set_state() (gw.c), which logs every transition.
 * gw.c holds the lws glue (connect, receive with reassembly and a size
 * limit, write only in WRITEABLE with LWS_PRE, timers, reconnect policy);
 * gw_dispatch.c handles the opcodes (HELLO, ACK, heartbeat requests,
 * RECONNECT, INVALID_SESSION, dispatches such as READY) through a table.
 *
 * Session: READY's session_id, resume_gateway_url and the last sequence are
 * saved in the store (keys GW_KV_*) so a restarted daemon RESUMEs and the
 * gateway replays what it missed; the daemon applies each interaction at
 * most once (store_interaction_*), so a replay never doubles one.
 *
 * Policy (discord-protocol.md section 9): op 7, zombie connections, op 9
 * true and resumable closes -> RESUME at resume_gateway_url (immediately the
 * first time, then with backoff); op 9 false, 4003, 4005, 4007, 4009 -> new
 * session after a random 1-5 s; 4004, 4010-4014 -> fatal: the daemon exits
 * with GW_EXIT_BASE + (code - 4000) (see daemon.h).
 *
 * Ownership: gw_new() copies the options' strings; the store, log, rng and
 * lws context are borrowed and must outlive the gw.
 */
#ifndef GW_H
#define GW_H

#include <jansson.h>
#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#include "bot_err.h"
#include "log.h"

struct store;
struct eng_rng;
struct gw;
struct shard;

#define GW_PROTOCOL_NAME "fray-gw"
#define GW_QUERY "?v=10&encoding=json"
#define GW_MAX_URL 512
#define GW_MAX_SEND 4096              /* Discord closes 4002 above this */
#define GW_SENDQ_MAX 8                /* queued outgoing payloads */
#define GW_SEND_LIMIT 120             /* sends per window per connection */
#define GW_SEND_WINDOW_MS 60000
#define GW_SEND_RESERVED 10           /* of those, kept for heartbeats */
#define GW_RESUME_CLOSE 4900          /* our close code: keep the session */
#define GW_INVALID_MIN_MS 1000        /* op 9 false: wait 1-5 s */
#define GW_INVALID_MAX_MS 5000
#define GW_MAX_SESSION_ID 128
/* gw_opts.seq_file's room; a longer path writes to the store instead. */
#define GW_SEQ_PATH_MAX 4096
/* The gateway intents fray IDENTIFYs with: none. Slash commands and
 * buttons arrive without any; `fray check --online` compares this with the
 * application's privileged intents. */
#define GW_INTENTS 0

/* Set (true) in a dispatch's "d" when its text held a \u0000 or a lone
 * surrogate escape that jansson refuses: they were read as U+FFFD so the
 * interaction can be answered with an error instead of being lost. No key
 * of Discord's starts with "_". */
#define GW_KEY_REPAIRED "_fray_repaired"
#define GW_KV_SESSION "gw.session_id"
#define GW_KV_RESUME_URL "gw.resume_url"
#define GW_KV_SEQ "gw.seq"
#define GW_KV_KEY_MAX 64              /* a key above with ":ID/COUNT" */

enum gw_state {
    GW_ST_IDLE = 0,       /* not started: waiting for the gateway URL */
    GW_ST_CONNECTING,     /* TCP/TLS/WebSocket handshake */
    GW_ST_HELLO,          /* connected, waiting for HELLO */
    GW_ST_IDENTIFYING,    /* IDENTIFY sent (or scheduled), waiting READY */
    GW_ST_RESUMING,       /* RESUME sent, waiting for RESUMED / replay */
    GW_ST_READY,          /* session live */
    GW_ST_CLOSING,        /* we closed; waiting for the socket to go */
    GW_ST_WAITING,        /* timer running before the next connect */
    GW_ST_FATAL,          /* a fatal close: the daemon must exit */
    GW_ST_STOPPED,        /* shut down on request */
};

/* What to do after a connection ends. */
enum gw_next { GW_NEXT_RESUME = 0, GW_NEXT_NEW_SESSION, GW_NEXT_FATAL,
               GW_NEXT_STOP };

struct gw_hooks {
    /* A dispatch other than READY/RESUMED (e.g. INTERACTION_CREATE); d is
     * borrowed for the call. Return false to keep the sequence number from
     * advancing past it (shutting down: let a resume replay it). */
    bool (*on_dispatch)(void *ud, const char *t, json_t *d);
    /* READY: the application id the interaction routes need. */
    void (*on_ready)(void *ud, const char *application_id);
    /* A fatal close: stop with exit status for close code. */
    void (*on_fatal)(void *ud, int close_code);
    void *ud;
};

struct gw_opts {
    const char *token;                /* copied; wiped on gw_free */
    struct log *log;
    struct store *store;              /* session persistence; may be NULL */
    const char *seq_file;             /* the resume point between commits
                                         (gw_seqfile.h), beside an SQLite
                                         store; NULL: in the store */
    struct eng_rng *rng;              /* heartbeat jitter, backoff */
    struct lws_context *ctx;
    int64_t backoff_min_ms, backoff_max_ms;
    int64_t heartbeat_max_ms;
    int64_t max_payload;
    bool compress;                    /* ask for zlib-stream (gw_zlib.h) */
    int64_t identify_spacing_ms;
    int64_t ready_timeout_ms;
    struct gw_hooks hooks;
};

enum bot_err gw_new(const struct gw_opts *o, struct gw **out);

/* Before lws_context_destroy(): cancel every timer and ignore every later
 * callback, so destroying the context cannot touch the gw. */
void gw_detach(struct gw *gw);

/* After lws_context_destroy() (or without a context); NULL is a no-op. */
void gw_free(struct gw *gw);

/* Before gw_start(): run shard sh (settled: count >= 1), whose identify
 * bucket has max_concurrency from GET /gateway/bot. IDENTIFY then carries
 * "shard": [id, count] when count > 1, the saved session lives under keys
 * of that shard (shard_kv_key), and on a shared store the identify slots
 * of the bucket are claimed there (shard_identify_gate). Without a call
 * the gw runs unsharded. */
void gw_set_shard(struct gw *gw, const struct shard *sh,
                  int64_t max_concurrency);

/* The URL from GET /gateway/bot and its session_start_limit; loads the
 * shard's saved session and connects (resuming when there is one). */
void gw_start(struct gw *gw, const char *url, int64_t starts_remaining,
              int64_t reset_after_ms);

/* Close (resumably: the session stays saved) and stop. */
void gw_shutdown(struct gw *gw);

/* What the gateway did since gw_new(), for the metrics (daemon_metrics.c). */
struct gw_stats {
    int64_t identifies;       /* IDENTIFYs sent: new sessions asked for */
    int64_t resumes;          /* RESUMEs sent */
    int64_t readies;          /* READY received: sessions started */
    int64_t resumed;          /* RESUMED received: sessions taken up again */
};

enum gw_state gw_get_state(const struct gw *gw);
void gw_get_stats(const struct gw *gw, struct gw_stats *out);
const char *gw_state_name(enum gw_state s);
int64_t gw_seq(const struct gw *gw);
/* The sequence number before the dispatch being handled now: what a
 * RESUME from here would replay that dispatch from. */
int64_t gw_seq_before(const struct gw *gw);
/* Write seq (< 0: the current one) as the sequence to RESUME from, into
 * the store's open transaction if there is one. A caller that commits
 * ahead of the dispatches it holds saves the sequence before them, then
 * the current one with the rest. */
void gw_seq_save_as(struct gw *gw, int64_t seq);
/* While held, the sequence is not saved after each dispatch: the caller
 * has a transaction open that takes the dispatches in, and saves the
 * sequence once with gw_seq_save_as() before it commits (one write for a
 * group instead of one a dispatch). */
void gw_seq_hold(struct gw *gw, bool hold);
/* gw_seq_save_as() outside any transaction, without waiting for the disk
 * (store_kv_set_unsynced()): after a group that changed nothing. */
void gw_seq_save_unsynced(struct gw *gw, int64_t seq);

/* The lws protocol callback for GW_PROTOCOL_NAME connections. */
int gw_lws_callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len);

/* ---- pure policy, unit-tested (test_gw_policy.c) ---- */

/* What a close code from the server means. */
enum gw_next gw_close_next(int code);

/* Reconnect delay for the attempt-th consecutive failure (0 = first
 * retry): min * 2^attempt, capped at max, minus up to half as jitter. */
int64_t gw_backoff_ms(int attempt, int64_t min_ms, int64_t max_ms,
                      struct eng_rng *rng);

/* Sliding-window send limiter: may a payload go now? Heartbeats may use the
 * reserved slots; others may not. Records the send when allowed. */
struct gw_sendwin {
    int64_t t[GW_SEND_LIMIT];
    int n, pos;
};
bool gw_sendwin_take(struct gw_sendwin *w, int64_t now_ms, bool heartbeat);

/* Zombie detection. The protocol's rule is "no ACK between two of your
 * heartbeats": up to a whole interval (41.25 s on Discord) of a dead
 * connection. An ACK is a direct reply and comes back within a round trip,
 * so fray gives it a deadline of its own: half the interval, between
 * GW_ACK_DEADLINE_MIN_MS and GW_ACK_DEADLINE_MAX_MS, never more than the
 * interval. A deadline timer that fires GW_ACK_STALL_MS or more late means
 * fray's loop was stalled, with the ACK perhaps unread: it looks once more
 * after the input was read before it calls the connection a zombie. */
#define GW_ACK_DEADLINE_MAX_MS 5000
#define GW_ACK_DEADLINE_MIN_MS 1000
#define GW_ACK_STALL_MS 250
#define GW_ACK_REGRACE_MS 50
int64_t gw_ack_deadline_ms(int64_t interval_ms);

/* "wss://host[:port][/path]" -> the pieces lws wants; path gets GW_QUERY.
 * Returns false on a URL we cannot use. */
bool gw_url_split(const char *url, bool *tls, char *host, size_t hostcap,
                  int *port, char *path, size_t pathcap);

#endif
