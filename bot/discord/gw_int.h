/*
 * gw_int.h - the gateway's internals, shared by gw.c and gw_dispatch.c only.
 */
#ifndef GW_INT_H
#define GW_INT_H

#include "gw.h"
#include "sbuf.h"
#include "shard.h"
#include "token.h"
#include "gw_zlib.h"

#define GW_HEARTBEAT_MIN_MS 100       /* HELLO intervals below are raised:
                                         the timer must not spin */
#define GW_TOO_BIG_CLOSE 1009         /* our close on a message over
                                         max_payload (RFC 6455 "too big") */
#define GW_BAD_DATA_CLOSE 1007        /* ours on a broken zlib-stream
                                         (RFC 6455 "invalid payload") */
#define GW_QUERY_ZLIB "&compress=zlib-stream"

struct gw_out {                       /* one queued payload */
    unsigned char buf[LWS_PRE + GW_MAX_SEND];
    size_t len;
    bool heartbeat;
};

struct gw {
    struct gw_opts o;
    char token[TOKEN_MAX_LEN + 1];
    enum gw_state state;
    bool detached;                    /* gw_detach() was called */
    struct lws *wsi;                  /* the live connection, or NULL */
    /* Where a complete text message goes: gw_dispatch.c's gw_on_message,
     * set by gw_new(), so the connection does not call up into the
     * protocol above it. */
    void (*on_message)(struct gw *gw, const char *text, size_t len);

    char gateway_url[GW_MAX_URL];     /* from GET /gateway/bot */
    char resume_url[GW_MAX_URL];      /* from READY (or the store) */
    char session_id[GW_MAX_SESSION_ID + 1];
    char application_id[24];
    int64_t seq;                      /* last non-null s; 0 = none */
    int64_t seq_before;               /* seq before the dispatch handled */
    bool seq_held;                    /* gw_seq_hold(): the caller saves it */

    /* connect target of the current attempt (lws keeps pointers) */
    char host[256], path[GW_MAX_URL + 64]; /* + queries */
    int port;
    bool tls;

    int64_t heartbeat_ms;
    bool acked;                       /* ACK since our last heartbeat */
    bool hb_sent;                     /* a heartbeat went out this conn */
    int64_t last_identify_ms;         /* monotonic; 0 = never */
    int64_t starts_remaining, starts_reset_ms;

    enum gw_next next;                /* decided before we close */
    int64_t next_delay_ms;            /* -1: use backoff */
    int close_code;                   /* to send in WRITEABLE, 0 = none */
    int peer_close;                   /* code the server closed with */
    int attempts;                     /* consecutive failed connects */
    struct shard shard;               /* 0/1 unless gw_set_shard() */
    int64_t max_concurrency;          /* identify buckets (gateway/bot) */
    int64_t identify_slot;            /* shared-store slot held, -1 none */
    char kv_session[GW_KV_KEY_MAX];   /* the session's keys, per shard */
    char kv_resume_url[GW_KV_KEY_MAX];
    char kv_seq[GW_KV_KEY_MAX];
    /* The resume point of groups that changed nothing (gw_seqfile.h):
     * its file, or "" to write it to the store unsynced; fd -1 until the
     * first write. */
    char seq_path[GW_SEQ_PATH_MAX];
    int seq_fd;


    struct gw_out q[GW_SENDQ_MAX];
    int qhead, qlen;
    struct gw_sendwin win;

    struct sbuf rx;                   /* message being reassembled */
    bool rx_discard;                  /* over the limit: drop to the end */
    bool zlib;                        /* this connection is zlib-stream */
    struct gw_zin zin;                /* its inflate context */
    struct sbuf text;                 /* a payload inflated from it */

    lws_sorted_usec_list_t sul_hb;    /* heartbeat */
    lws_sorted_usec_list_t sul_ack;   /* ACK deadline (gw_ack_deadline_ms) */
    int64_t ack_due_ms;               /* when that deadline falls */
    bool ack_regrace;                 /* looked once more after a stall */
    bool abandon_on_close;            /* zombie: reconnect once our close
                                         frame is out, not at the peer's */
    lws_sorted_usec_list_t sul_retry; /* reconnect */
    lws_sorted_usec_list_t sul_identify; /* delayed IDENTIFY */
    lws_sorted_usec_list_t sul_timeout;  /* HELLO/READY timeout */
    lws_sorted_usec_list_t sul_send;  /* send-limit wait */
    struct gw_stats stats;            /* gw_get_stats() */
};

int64_t gw_now_ms(void);
void gw_set_state(struct gw *gw, enum gw_state s, const char *why);

/* Queue a payload (serialized here); false if it cannot be sent. */
bool gw_send_json(struct gw *gw, json_t *payload, bool heartbeat);
void gw_send_heartbeat(struct gw *gw);
void gw_send_identify_or_wait(struct gw *gw);
void gw_send_resume(struct gw *gw);

/* Plan what happens after this connection and close it. */
void gw_close_and(struct gw *gw, enum gw_next next, int64_t delay_ms,
                  const char *why);

/* Session persistence. */
void gw_session_save(struct gw *gw);
void gw_seq_save(struct gw *gw);
void gw_session_forget(struct gw *gw);

/* HELLO's heartbeat_interval (borrowed JSON, any type) -> the interval we
 * beat at, within GW_HEARTBEAT_MIN_MS..max_ms; *clamped says it differs
 * from what the server sent. */
int64_t gw_hello_interval_ms(const json_t *iv, int64_t max_ms, bool *clamped);

/* gw_dispatch.c: one complete text message from the server. */
void gw_on_message(struct gw *gw, const char *text, size_t len);
void gw_on_hello_timer_start(struct gw *gw);

#endif
