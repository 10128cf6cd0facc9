/*
 * daemon_metrics.c - the /metrics page of `fray run` (metrics.h): the
 * daemon's counters, the gateway's and the REST client's, the queue, the
 * store, the cache and the process, read on the loop thread at each scrape.
 */
#include "daemon_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "enc_cache.h"
#include "gw.h"
#include "metrics.h"
#include "rest.h"
#include "version.h"
#include "web.h"

/* Resident memory from /proc/self/statm (its second field, in pages). */
static int64_t rss_bytes(void)
{
    long long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "re");
    if (!f)
        return 0;
    if (fscanf(f, "%lld %lld", &pages, &rss) != 2)
        rss = 0;
    fclose(f);
    return (int64_t)rss * sysconf(_SC_PAGESIZE);
}

static void gauge(struct sbuf *sb, const char *name, const char *help,
                  int64_t v)
{
    metrics_head(sb, name, "gauge", help);
    sbuf_addf(sb, "%s %lld\n", name, (long long)v);
}

static void counter(struct sbuf *sb, const char *name, const char *help,
                    int64_t v)
{
    metrics_head(sb, name, "counter", help);
    sbuf_addf(sb, "%s %lld\n", name, (long long)v);
}

static void write_gateway(struct sbuf *sb, const struct daemon *d)
{
    struct gw_stats gs = {0};
    enum gw_state now = GW_ST_IDLE;

    if (d->gw) {
        gw_get_stats(d->gw, &gs);
        now = gw_get_state(d->gw);
    }
    metrics_head(sb, "fray_gateway_state", "gauge",
                 "1 for the state the gateway connection is in.");
    for (int s = GW_ST_IDLE; s <= GW_ST_STOPPED; s++)
        sbuf_addf(sb, "fray_gateway_state{state=\"%s\"} %d\n",
                  gw_state_name((enum gw_state)s), s == (int)now);
    counter(sb, "fray_gateway_identifies_total",
            "IDENTIFYs sent (new sessions asked for).", gs.identifies);
    counter(sb, "fray_gateway_resumes_total", "RESUMEs sent.", gs.resumes);
    counter(sb, "fray_gateway_ready_total",
            "READY received: new sessions started.", gs.readies);
    counter(sb, "fray_gateway_resumed_total",
            "RESUMED received: sessions taken up again.", gs.resumed);
}

static void write_rest(struct sbuf *sb, struct daemon *d)
{
    struct rest_stats *rs = calloc(1, sizeof *rs);

    if (!rs)
        return;                   /* sbuf's limit reports the rest */
    if (d->rest)
        rest_get_stats(d->rest, rs);
    metrics_head(sb, "fray_rest_requests_total", "counter",
                 "REST responses by method, route and HTTP status (0: no "
                 "answer); retried requests count each try.");
    for (int i = 0; i < rs->nroutes; i++) {
        const struct rest_route_count *r = &rs->routes[i];
        sbuf_add(sb, "fray_rest_requests_total{method=");
        metrics_label(sb, r->method);
        sbuf_add(sb, ",route=");
        metrics_label(sb, r->route);
        sbuf_addf(sb, ",status=\"%d\"} %lld\n", r->status, (long long)r->n);
    }
    counter(sb, "fray_rest_ratelimit_waits_total",
            "Requests the rate limiter held back before sending.",
            rs->ratelimit_waits);
    metrics_head(sb, "fray_rest_ratelimit_wait_seconds_total", "counter",
                 "Time those requests waited, in total.");
    sbuf_addf(sb, "fray_rest_ratelimit_wait_seconds_total %.3f\n",
              (double)rs->ratelimit_wait_ms / 1000);
    gauge(sb, "fray_rest_backlog", "REST requests submitted and not done.",
          d->rest ? rest_pending(d->rest) : 0);
    gauge(sb, "fray_rest_queued",
          "REST requests waiting to be sent (not yet with curl).",
          rs->queued);
    gauge(sb, "fray_rest_queued_peak",
          "The most REST requests that ever waited at once.",
          rs->queued_peak);
    counter(sb, "fray_rest_route_full_total",
            "Requests refused because their route's queue was full.",
            rs->route_full);
    free(rs);
}

/* The shared pages (web.h): zeros while [web] listen is off. */
static void write_web(struct sbuf *sb, const struct daemon *d)
{
    struct web_stats ws;
    web_get_stats(d->web, &ws);
    gauge(sb, "fray_web_pages_open",
          "Shared fights' pages following their fight live.", ws.pages_open);
    counter(sb, "fray_web_events_total",
            "Events sent to shared pages (a fight's state each).",
            ws.events_sent);
    counter(sb, "fray_web_pages_dropped_total",
            "Shared pages dropped for falling behind (they reconnect).",
            ws.pages_dropped);
    counter(sb, "fray_web_refused_total",
            "Requests for shared pages refused by a limit (pages open, "
            "requests per address).", ws.refused);
}

void daemon_metrics_render(void *ud, struct sbuf *sb)
{
    struct daemon *d = ud;

    metrics_head(sb, "fray_build_info", "gauge",
                 "fray's version and git commit.");
    sbuf_add(sb, "fray_build_info{version=");
    metrics_label(sb, FRAY_VERSION);
    sbuf_add(sb, ",commit=");
    metrics_label(sb, version_commit());
    sbuf_add(sb, "} 1\n");
    metrics_write_interactions(sb, &d->metrics);
    metrics_head(sb, "fray_interaction_latency_seconds", "histogram",
                 "From the INTERACTION_CREATE dispatch to Discord accepting "
                 "the callback.");
    metrics_write_hist(sb, "fray_interaction_latency_seconds",
                       &d->metrics.latency);
    counter(sb, "fray_interactions_deferred_total",
            "Interactions acknowledged first and answered later.",
            d->deferred);
    gauge(sb, "fray_interactions_queued",
          "Interactions waiting for their group to run.", d->nbatch);
    int64_t written, joined, busy;
    daemon_log_counts(d, &written, &joined, &busy);
    counter(sb, "fray_logs_written_total",
            "/combat log files written on the log worker, off the loop.",
            written);
    counter(sb, "fray_logs_joined_total",
            "/combat log requests answered with a log already being "
            "written for the same fight state.", joined);
    counter(sb, "fray_logs_busy_total",
            "/combat log requests refused: the log worker's queue was "
            "full.", busy);
    gauge(sb, "fray_logs_pending",
          "/combat logs waiting, being written or being answered.",
          daemon_log_pending(d));
    write_gateway(sb, d);
    write_rest(sb, d);
    write_web(sb, d);
    metrics_head(sb, "fray_store_commit_seconds", "histogram",
                 "One group commit of the store (the fsync).");
    metrics_write_hist(sb, "fray_store_commit_seconds", &d->metrics.commit);
    counter(sb, "fray_clock_wakeups_total",
            "Times the turn clocks' one timer woke the daemon (idle "
            "fights cost none).", d->clock_wakeups);
    counter(sb, "fray_clock_fired_total",
            "Turn clock timers this process fired.", d->clock_fired);
    counter(sb, "fray_gm_copies_total",
            "Secret copies for GM channels.", d->metrics.gm_copies);
    counter(sb, "fray_gm_posts_total",
            "Messages posted to GM channels (copies that came together are "
            "folded into one).", d->metrics.gm_posts);
    counter(sb, "fray_gm_copies_unshown_total",
            "Copies that did not fit a folded message: only counted in "
            "its note.", d->metrics.gm_unshown);
    gauge(sb, "fray_encounters_cached", "Decoded encounters in the cache.",
          d->cache ? (int64_t)enc_cache_count(d->cache) : 0);
    gauge(sb, "process_resident_memory_bytes", "Resident memory (RSS).",
          rss_bytes());
}
