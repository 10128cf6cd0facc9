/*
 * rest_ratelimit.h - Discord REST rate limits, as pure bookkeeping.
 *
 * No I/O and no clock: every call takes now_ms (monotonic), so the unit
 * tests drive it with made-up times. rest.c asks rl_wait_ms() before sending,
 * calls rl_on_send() when it sends and rl_on_response() with the headers.
 *
 * Keys. A request's route key is METHOD + path template + major parameter:
 * ids in the path become ":id" except the major one (channels/<id>,
 * guilds/<id>, webhooks/<id>/<token>), which stays literal, e.g.
 *   "POST /channels/123/messages", "PATCH /webhooks/9/<tok>/messages/:id".
 * Once a response names its X-RateLimit-Bucket, the route's template (the
 * key with the major parameter taken out) maps to that hash, and every
 * route of the template uses the bucket "<hash>:<major>", shared by every
 * route with that hash (discord-api-docs #1551). Interaction callbacks and
 * webhook routes are exempt from the global limit; callbacks are not kept
 * in the table at all: each interaction is answered once, and a 429 on one
 * is waited out by rest.c on that request.
 *
 * Rules enforced:
 *  - never send into a bucket known to be empty (remaining 0 before reset);
 *  - a known bucket has at most remaining minus in-flight requests started
 *    (remaining only goes down within a window, whatever order the answers
 *    come in); an unknown one has one request in flight until an answer
 *    says more;
 *  - a global budget of per_sec requests per second that counts the
 *    requests in flight as well as those answered in the last second
 *    (RL_GLOBAL_WINDOW_MS + RL_GLOBAL_MARGIN_MS): a request reaches Discord
 *    somewhere between its send and its answer, so this holds for any
 *    one-second window on Discord's side however the transport delays it;
 *    and a global pause after a 429 with X-RateLimit-Global;
 *  - after a 429, the bucket waits retry_after;
 *  - a full table evicts the least recently used entry that holds no
 *    constraint (nothing in flight, not empty before its reset, not
 *    blocked), so what is known to be empty is never forgotten; if every
 *    entry holds one, a new bucket is not tracked until one frees.
 *
 * Ownership: struct rl is caller-owned (rl_init/rl_cleanup), fixed size.
 */
#ifndef REST_RATELIMIT_H
#define REST_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RL_MAX_KEY 160             /* route or bucket key, bytes */
#define RL_MAX_BUCKETS 256         /* tracked at once; see eviction above */
#define RL_HASH_SLOTS 512          /* index of the table (power of two) */
#define RL_MAX_ROUTES 64           /* route templates with a known hash;
                                      fray uses about 15 */
#define RL_MAX_HASH 64             /* X-RateLimit-Bucket value */
#define RL_GLOBAL_WINDOW_MS 1000
#define RL_GLOBAL_MARGIN_MS 20     /* our millisecond clock vs Discord's */
#define RL_GLOBAL_MAX_PER_SEC 50
#define RL_RESET_MARGIN_MS 50      /* added to reset-after (clock slop) */
#define RL_MAX_WAIT_MS 300000      /* longest retry-after or reset-after we
                                      honour: a larger (or absurd) value is
                                      cut to this, so one bad header cannot
                                      park a bucket for years */

struct rl_headers {                /* one response's X-RateLimit-* */
    bool has_limit, has_remaining, has_reset_after, has_retry_after;
    bool global;                   /* X-RateLimit-Global: true */
    bool shared;                   /* X-RateLimit-Scope: shared */
    int64_t limit, remaining;
    int64_t reset_after_ms;        /* X-RateLimit-Reset-After */
    int64_t retry_after_ms;        /* Retry-After (header) */
    char bucket[RL_MAX_HASH + 1];  /* X-RateLimit-Bucket, "" if none */
};

struct rl_entry {
    char key[RL_MAX_KEY];          /* "hash:major", or a route key whose
                                      template has no known hash yet */
    bool used;
    bool is_route;                 /* keyed by a route key */
    bool known;                    /* limit/remaining seen */
    int64_t limit;
    int64_t remaining;             /* Discord's last word in this window */
    int64_t reset_at_ms;           /* remaining refills at this time */
    int64_t blocked_until_ms;      /* after a 429 */
    int inflight;
    int64_t last_used_ms;
    int next;                      /* index chain, -1 ends */
};

struct rl_route {                  /* route template -> bucket hash */
    char tmpl[RL_MAX_KEY];
    char hash[RL_MAX_HASH + 1];
    int64_t last_used_ms;
};

struct rl {
    struct rl_entry e[RL_MAX_BUCKETS];
    int n;                         /* entries in use */
    int head[RL_HASH_SLOTS];       /* first entry of each slot, -1 none */
    struct rl_route routes[RL_MAX_ROUTES];
    int nroutes;
    int per_sec;                   /* global budget */
    int64_t window[RL_GLOBAL_MAX_PER_SEC]; /* answer times, ring */
    int wpos, wcount;
    int global_inflight;           /* counted requests not yet answered */
    int64_t global_until_ms;       /* global 429 pause */
};

void rl_init(struct rl *rl, int per_sec);

/* Route key of method + path (path from the API base, no query string).
 * *exempt is set for routes the global limit does not cover. Returns false
 * when the key does not fit. */
bool rl_route_key(const char *method, const char *path, char *out, size_t cap,
                  bool *exempt);

/* 0 when a request on route may be sent now, else milliseconds to wait. */
int64_t rl_wait_ms(struct rl *rl, const char *route, bool exempt,
                   int64_t now_ms);

/* A request on route was sent (consumes one from the bucket and global). */
void rl_on_send(struct rl *rl, const char *route, bool exempt, int64_t now_ms);

/* Its response arrived (status 0 = transport failure: nothing learned
 * but the answer's time; h may be NULL). Every rl_on_send() needs exactly
 * one rl_on_response() with the same route. Whether a request counts
 * against the global budget is read from the route itself, so the exempt
 * flags passed in must be the ones rl_route_key() gave. */
void rl_on_response(struct rl *rl, const char *route, int status,
                    const struct rl_headers *h, int64_t now_ms);

/* Milliseconds until the global budget allows a non-exempt request (0:
 * now). Cheaper than rl_wait_ms(); rest.c skips waiting requests with it. */
int64_t rl_global_wait_ms(const struct rl *rl, int64_t now_ms);

/* Feed one raw header line ("Name: value\r\n") into h. Returns true when it
 * was a rate-limit header. */
bool rl_parse_header(struct rl_headers *h, const char *line, size_t len);

/* Seconds text ("1.5", "64.57") -> milliseconds, rounded up, at most
 * RL_MAX_WAIT_MS (longer values are cut); false if bad (a sign, an
 * exponent, letters). */
bool rl_parse_seconds(const char *s, size_t len, int64_t *ms);

/* A wait in milliseconds from a server, cut to 0..RL_MAX_WAIT_MS. */
int64_t rl_wait_clamp(int64_t ms);

#endif
