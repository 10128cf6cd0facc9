/*
 * fake_ws.h - a minimal Gateway v10 client for tests (part of fakeclient):
 * connect to fake-discord's websocket, send JSON text frames, read every
 * payload received, heartbeat automatically, see the close code the server
 * sent. Driven from the test thread: each fake_ws_service() is one
 * non-blocking lws pass, and the waiting helpers loop on it with a timeout.
 * Nothing here runs inside the server; the test is the only user of its lws
 * context.
 *
 * Ownership: struct fake_ws is caller-allocated (fake_ws_init /
 * fake_ws_free). JSON returned by fake_ws_expect() is borrowed from
 * w->msgs and lives until fake_ws_free().
 */
#ifndef FAKE_WS_H
#define FAKE_WS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

#define FAKE_WS_MAX_OUT 64      /* frames queued for sending */
#define FAKE_WS_RX_MAX  65536   /* largest message accepted */

struct lws_context;
struct lws;

struct fake_ws {
    struct lws_context *ctx;
    struct lws *wsi;            /* NULL when not connected */
    bool connected, closed;
    int close_code;             /* code of the server's close frame, 0 none */
    int want_close;             /* close code we are about to send */
    char *rx;                   /* message reassembly (FAKE_WS_RX_MAX) */
    size_t rx_len;
    json_t *msgs;               /* every payload received, in order */
    size_t next;                /* first one fake_ws_expect() has not seen */
    char *out[FAKE_WS_MAX_OUT];
    int nout;
    int hb_ms;                  /* > 0: send op 1 every hb_ms */
    long long last_hb_ms;
    long long seq;              /* last non-null s received */
    bool zlib;                  /* connected with compress=zlib-stream */
    z_stream zs;                /* its inflate context */
};

/* Create the client context. 0, or -1. */
int fake_ws_init(struct fake_ws *w);
void fake_ws_free(struct fake_ws *w);

/* Connect to ws://127.0.0.1:port<path> (e.g. "/?v=10&encoding=json"; with
 * "&compress=zlib-stream" the binary frames are inflated). Forgets the
 * previous connection's state but keeps w->msgs and w->seq. true once the
 * websocket is open. */
bool fake_ws_connect(struct fake_ws *w, int port, const char *path,
                     int timeout_ms);

void fake_ws_send(struct fake_ws *w, const char *text);   /* copied */

/* Send a close frame with this code and wait for the connection to end. */
bool fake_ws_close(struct fake_ws *w, int code, int timeout_ms);

/* One non-blocking service pass (plus the automatic heartbeat). */
void fake_ws_service(struct fake_ws *w);

/* The next unread payload with this op (and event name t, if not NULL),
 * skipping others; NULL on timeout or close. */
json_t *fake_ws_expect(struct fake_ws *w, int op, const char *t,
                       int timeout_ms);

bool fake_ws_wait_closed(struct fake_ws *w, int timeout_ms);

/* Send IDENTIFY with this token, intents 0 and linux/fray properties. */
void fake_ws_identify(struct fake_ws *w, const char *token);

/* Connect to the base URL, take HELLO (and start heartbeating at its
 * interval), IDENTIFY, wait for READY. Returns READY's d, or NULL. */
json_t *fake_ws_session(struct fake_ws *w, int port, const char *token,
                        int timeout_ms);

#endif
