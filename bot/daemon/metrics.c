/*
 * metrics.c - counters, histograms and the Prometheus text format.
 */
#include "metrics.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Histogram bounds in microseconds: about 1.25x apart from 50 us to 10 s,
 * fine enough below a few milliseconds that the p50 and p99 of a quiet
 * bot (bench/e2e: 0.3 and 2.5 ms) come out of histogram_quantile() close
 * to the exact figures. */
static const int64_t bounds_us[METRICS_NBUCKETS] = {
    50,     100,    150,    200,    250,    300,    400,    500,
    600,    800,    1000,   1250,   1500,   2000,   2500,   3000,
    4000,   5000,   6000,   8000,   10000,  12500,  15000,  20000,
    25000,  30000,  40000,  50000,  60000,  80000,  100000, 150000,
    200000, 300000, 500000, 1000000, 2000000, 3000000, 5000000, 10000000,
};

static const char *const outcome_names[METRICS_NOUTCOMES] = {
    [METRICS_OK] = "ok", [METRICS_REFUSED] = "refused",
    [METRICS_FAILED] = "failed", [METRICS_REPLAYED] = "replayed",
    [METRICS_LIMITED] = "limited",
    [METRICS_STALE] = "stale",
};

void metrics_init(struct metrics *m)
{
    memset(m, 0, sizeof *m);
}

void metrics_hist_add(struct metrics_hist *h, int64_t us)
{
    int lo = 0, hi = METRICS_NBUCKETS;
    if (us < 0)
        us = 0;
    /* the first bound >= us */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (bounds_us[mid] < us)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < METRICS_NBUCKETS)
        h->le[lo]++;
    else
        h->over++;
    h->sum_us += us;
    h->n++;
}

void metrics_interaction(struct metrics *m, const char *command,
                         enum metrics_outcome outcome, int64_t latency_us)
{
    struct metrics_command *c = NULL;
    const char *name = command && *command ? command : "?";

    for (int i = 0; i < m->ncommands && !c; i++)
        if (strcmp(m->commands[i].name, name) == 0)
            c = &m->commands[i];
    if (!c && m->ncommands < METRICS_MAX_COMMANDS - 1) {
        c = &m->commands[m->ncommands++];
        snprintf(c->name, sizeof c->name, "%s", name);
    }
    if (!c) {            /* the last slot takes every command beyond */
        c = &m->commands[METRICS_MAX_COMMANDS - 1];
        if (m->ncommands < METRICS_MAX_COMMANDS) {
            m->ncommands = METRICS_MAX_COMMANDS;
            snprintf(c->name, sizeof c->name, "other");
        }
    }
    c->n[outcome]++;
    if (outcome != METRICS_FAILED)
        metrics_hist_add(&m->latency, latency_us);
}

void metrics_commit(struct metrics *m, int64_t us)
{
    metrics_hist_add(&m->commit, us);
}

void metrics_head(struct sbuf *sb, const char *name, const char *type,
                  const char *help)
{
    sbuf_addf(sb, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void metrics_label(struct sbuf *sb, const char *value)
{
    sbuf_addc(sb, '"');
    for (const char *p = value; *p; p++) {
        if (*p == '\\' || *p == '"')
            sbuf_addc(sb, '\\');
        if (*p == '\n')
            sbuf_add(sb, "\\n");
        else
            sbuf_addc(sb, *p);
    }
    sbuf_addc(sb, '"');
}

/* Microseconds as seconds, without trailing zeros: 1250 -> "0.00125". */
static void add_seconds(struct sbuf *sb, int64_t us)
{
    char buf[32];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%lld.%06lld",
                                (long long)(us / 1000000),
                                (long long)(us % 1000000));
    while (n > 0 && buf[n - 1] == '0')
        n--;
    if (n > 0 && buf[n - 1] == '.')
        n--;
    sbuf_addn(sb, buf, n);
}

void metrics_write_hist(struct sbuf *sb, const char *name,
                        const struct metrics_hist *h)
{
    int64_t cum = 0;
    for (int i = 0; i < METRICS_NBUCKETS; i++) {
        cum += h->le[i];
        sbuf_addf(sb, "%s_bucket{le=\"", name);
        add_seconds(sb, bounds_us[i]);
        sbuf_addf(sb, "\"} %lld\n", (long long)cum);
    }
    sbuf_addf(sb, "%s_bucket{le=\"+Inf\"} %lld\n%s_sum ", name,
              (long long)(cum + h->over), name);
    add_seconds(sb, h->sum_us);
    sbuf_addf(sb, "\n%s_count %lld\n", name, (long long)h->n);
}

void metrics_write_interactions(struct sbuf *sb, const struct metrics *m)
{
    metrics_head(sb, "fray_interactions_total", "counter",
                 "Interactions answered, by command and outcome (ok, "
                 "refused: answered with an error, failed: the callback "
                 "did not go through, replayed: answered before, limited: "
                 "told to slow down, nothing ran, stale: arrived too late "
                 "to answer, not applied).");
    for (int i = 0; i < m->ncommands; i++)
        for (int o = 0; o < METRICS_NOUTCOMES; o++) {
            if (m->commands[i].n[o] == 0)
                continue;
            sbuf_add(sb, "fray_interactions_total{command=");
            metrics_label(sb, m->commands[i].name);
            sbuf_addf(sb, ",outcome=\"%s\"} %lld\n", outcome_names[o],
                      (long long)m->commands[i].n[o]);
        }
}

static bool parse_port(const char *s, int *port)
{
    char *end;
    long v;
    if (*s < '0' || *s > '9')
        return false;
    v = strtol(s, &end, 10);
    if (*end || v < 0 || v > 65535)
        return false;
    *port = (int)v;
    return true;
}

bool metrics_listen_parse(const char *spec, char *host, size_t hostcap,
                          int *port, bool *loopback, char *why,
                          size_t whylen)
{
    char h[METRICS_HOST_MAX];
    const char *colon = strrchr(spec, ':');
    unsigned char addr[16];
    size_t n;

    if (!colon) {               /* a port alone: loopback */
        snprintf(h, sizeof h, "%s", METRICS_DEFAULT_HOST);
        colon = spec - 1;
    } else {
        n = (size_t)(colon - spec);
        if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']') {
            spec++;
            n -= 2;
        }
        if (n == 0 || n >= sizeof h) {
            snprintf(why, whylen, "\"%.40s\": expected HOST:PORT or PORT",
                     spec);
            return false;
        }
        memcpy(h, spec, n);
        h[n] = '\0';
        if (strcmp(h, "localhost") == 0)
            snprintf(h, sizeof h, "%s", METRICS_DEFAULT_HOST);
    }
    if (!parse_port(colon + 1, port)) {
        snprintf(why, whylen, "\"%.40s\" is not a port (0..65535)",
                 colon + 1);
        return false;
    }
    if (inet_pton(AF_INET, h, addr) == 1) {
        *loopback = addr[0] == 127;
    } else if (inet_pton(AF_INET6, h, addr) == 1) {
        static const unsigned char one[16] = {[15] = 1};
        *loopback = memcmp(addr, one, sizeof one) == 0;
    } else {
        snprintf(why, whylen, "\"%.40s\" is not an IP address (or "
                 "localhost)", h);
        return false;
    }
    snprintf(host, hostcap, "%s", h);
    return true;
}
