/*
 * daemon_fire.c - the turn clock's timer has run: fire every timer that is
 * due through the command layer (cmd_clock_fire), post what each said in
 * its fight's channel, and arm the clock again (daemon_clock.c).
 */
#include "daemon_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fthread.h"
#include "render_discord.h"
#include "tracker.h"
#include "web.h"

static void on_post_done(void *ud, const struct rest_result *res)
{
    struct daemon *d = ud;
    if (res->err != BOT_OK || res->status < 200 || res->status >= 300)
        log_msg(d->log, LOG_LVL_WARN, "turn clock: a message was refused: "
                "status %d code %d", res->status, res->discord_code);
}

/* Post what a fired timer said where its fight is shown: its thread
 * (which holds the tracker and the turns) or its channel. */
static void post_fired(struct daemon *d, struct cmd_reply *r)
{
    char path[REST_MAX_PATH];
    if (r->msg.content != NULL || r->msg.nembeds > 0) {
        uint64_t where = fthread_of(d->store, r->channel_id);
        where = where != 0 ? where : r->channel_id;
        char *text = render_discord_message_text(&r->msg, false, NULL);
        snprintf(path, sizeof path, "/channels/%" PRIu64 "/messages", where);
        if (text == NULL || rest_submit(d->rest, "POST", path, text,
                                        on_post_done, d) != BOT_OK)
            log_msg(d->log, LOG_LVL_WARN, "turn clock: cannot post in "
                    "channel %" PRIu64, where);
        free(text);
    }
    if (r->tracker != NULL)
        tracker_show(d->tracker, r->channel_id, r->tracker, r->tracker_mode,
                     NULL, NULL);
    if (r->gm_copy != NULL && r->gm_channel != 0)
        daemon_post_gm_copy(d, r->gm_channel, &r->gm_copy);
    web_changed(d->web, r->channel_id);
    web_flush(d->web);
}

void daemon_clock_fire(lws_sorted_usec_list_t *sul)
{
    struct daemon *d = lws_container_of(sul, struct daemon, sul_clock);
    struct cmd_ctx ctx = {.store = d->store, .rng = &d->rng,
                          .rs_data = &d->rules, .cache = d->cache,
                          .reopen_ms = d->cfg->reopen_minutes * 60000,
                          .max_live = d->cfg->max_live_per_server,
                          .shown_in = fthread_of};
    struct store_timer t[STORE_TIMER_BATCH_MAX];
    int count = d->shard.count > 0 ? d->shard.count : 1;
    size_t n = 0;

    d->clock_wakeups++;
    d->clock_armed_ms = 0;
    if (d->stopping)
        return;              /* the next process fires them */
    daemon_batch_flush(d);   /* no group transaction is open meanwhile */
    if (store_timer_due(d->store, d->shard.id, count, daemon_clock_ms(d), t,
                        STORE_TIMER_BATCH_MAX, &n) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "turn clock: the due timers could not "
                "be read: %s", store_errmsg(d->store));
    int64_t nfired = 0;
    for (size_t i = 0; i < n; i++) {
        struct cmd_reply r;
        bool fired = false;
        if (!cmd_clock_fire(&ctx, &t[i], daemon_clock_ms(d),
                            CMD_SRC_DISCORD, &r, &fired))
            log_msg(d->log, LOG_LVL_WARN, "turn clock: channel %" PRIu64
                    ": the timer could not fire: %s", t[i].channel,
                    store_errmsg(d->store));
        if (fired) {
            nfired++;
            d->clock_fired++;
            log_msg(d->log, LOG_LVL_INFO, "turn clock: channel %" PRIu64
                    " fired, %lld ms after it fell due", t[i].channel,
                    (long long)(daemon_clock_ms(d) - t[i].due_ms));
            post_fired(d, &r);
        }
        cmd_reply_cleanup(&r);
    }
    daemon_clock_arm(d);
    /* Rows still due that this pass could not fire (the store failing):
     * try again later, not at once in a loop. */
    if (n > 0 && nfired == 0 && d->clock_armed_ms != 0 &&
        d->clock_armed_ms <= daemon_clock_ms(d))
        lws_sul_schedule(d->ctx, 0, &d->sul_clock, daemon_clock_fire,
                         DAEMON_CLOCK_RETRY_MS * LWS_US_PER_MS);
}
