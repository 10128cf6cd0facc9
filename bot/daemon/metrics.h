/*
 * metrics.h - the daemon's own counters and the Prometheus text format.
 *
 * `fray run` with `[metrics] listen` serves GET /metrics from its event
 * loop (metrics_http.h); daemon_metrics.c writes the page from these
 * counters and from what the gateway (gw_get_stats), the REST client
 * (rest_get_stats), the encounter cache and the kernel (RSS) report. The
 * counters here are the daemon's: interactions by command and outcome,
 * their latency, and the store's group commits. They are counted whether
 * or not anything serves them (a few additions per interaction).
 *
 * Latency runs from the moment the daemon was handed the INTERACTION_CREATE
 * dispatch to the moment Discord accepted the callback (the REST thread's
 * completion time), the span fake-discord's load generator measures from
 * its side (bench/e2e).
 *
 * Ownership: struct metrics is a plain value inside struct daemon; used on
 * the daemon's loop thread only, so it takes no lock.
 */
#ifndef METRICS_H
#define METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define METRICS_MAX_COMMANDS 32      /* command labels kept; others count
                                        under "other" */
#define METRICS_COMMAND_MAX 32       /* bytes of a command label */
#define METRICS_NBUCKETS 40          /* histogram bounds (metrics.c) */
#define METRICS_MAX_PAGE (1u << 20)  /* bytes of one /metrics page */
#define METRICS_DEFAULT_HOST "127.0.0.1"
#define METRICS_HOST_MAX 64

enum metrics_outcome {
    METRICS_OK = 0,          /* answered */
    METRICS_REFUSED,         /* answered with an error (bad input, refused) */
    METRICS_FAILED,          /* the callback did not go through */
    METRICS_REPLAYED,        /* already answered (a replay after a restart) */
    METRICS_LIMITED,         /* told to slow down (limit.h): nothing ran */
    METRICS_STALE,           /* arrived past Discord's 3 s: not applied,
                                not answered */
    METRICS_NOUTCOMES
};

struct metrics_hist {
    int64_t le[METRICS_NBUCKETS];    /* count at or under each bound */
    int64_t over;                    /* above the last bound */
    int64_t sum_us, n;
};

struct metrics_command {
    char name[METRICS_COMMAND_MAX];
    int64_t n[METRICS_NOUTCOMES];
};

struct metrics {
    struct metrics_command commands[METRICS_MAX_COMMANDS];
    int ncommands;
    struct metrics_hist latency;     /* interaction -> callback accepted */
    struct metrics_hist commit;      /* one group commit (the fsync) */
    int64_t gm_copies;               /* secret copies for GM channels */
    int64_t gm_posts;                /* messages that carried them */
    int64_t gm_unshown;              /* copies only counted in a note */
};

void metrics_init(struct metrics *m);

/* One interaction's callback came back (or failed). */
void metrics_interaction(struct metrics *m, const char *command,
                         enum metrics_outcome outcome, int64_t latency_us);

/* One group commit took us microseconds. */
void metrics_commit(struct metrics *m, int64_t us);

void metrics_hist_add(struct metrics_hist *h, int64_t us);

/* ---- the text format (version 0.0.4) ---- */

/* "# HELP name help" and "# TYPE name type". */
void metrics_head(struct sbuf *sb, const char *name, const char *type,
                  const char *help);
/* A label value, quoted, with \\, \" and \n escaped. */
void metrics_label(struct sbuf *sb, const char *value);
/* name_bucket{le=...}, name_sum and name_count, in seconds. */
void metrics_write_hist(struct sbuf *sb, const char *name,
                        const struct metrics_hist *h);
/* fray_interactions_total by command and outcome. */
void metrics_write_interactions(struct sbuf *sb, const struct metrics *m);

/* ---- [metrics] listen ---- */

/* "PORT", "HOST:PORT" or "[IPv6]:PORT" (HOST an IP address or
 * "localhost"; PORT alone: on 127.0.0.1; port 0: a free one the kernel
 * picks, which the log names) -> host (an IP literal) and port; *loopback
 * says whether it is 127.0.0.0/8 or ::1. false with why on a bad value. */
bool metrics_listen_parse(const char *spec, char *host, size_t hostcap,
                          int *port, bool *loopback, char *why,
                          size_t whylen);

#endif
