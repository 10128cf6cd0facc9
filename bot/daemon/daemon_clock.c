/*
 * daemon_clock.c - the turn clocks' timers in the daemon (daemon_int.h).
 *
 * Idle costs nothing: the store keeps one row per fight with a clock to
 * come, indexed by due time, and the daemon arms ONE lws timer for the
 * earliest row of its shard. It wakes when that falls due (counted in
 * /metrics as fray_clock_wakeups_total), fires what is due through the
 * command layer (cmd_clock_fire: claim, apply, save, commit in one
 * transaction), posts what each said, and arms again for the next. A
 * command that moves a fight's timer earlier than the armed one re-arms
 * from its reply. No fight is ever polled.
 *
 * This file keeps the clock's time and its one timer; daemon_fire.c fires
 * what is due when the timer runs (d->clock_fire, set by daemon.c).
 *
 * The turn clock reads the wall clock; for tests only, [fights]
 * clock_speed runs it faster and clock_offset_s starts it ahead (0 and 1
 * in production). Commands and timers read the same clock.
 */
#include "daemon_int.h"

int64_t daemon_clock_ms(const struct daemon *d)
{
    int64_t wall = daemon_wall_ms();
    int64_t speed = d->cfg->clock_speed > 1 ? d->cfg->clock_speed : 1;
    int64_t run = d->clock_base_ms > 0 ? wall - d->clock_base_ms : 0;
    return wall + d->cfg->clock_offset_s * 1000 + run * (speed - 1);
}

/* Arm the loop's one timer for clock time due (now or later). */
static void arm_for(struct daemon *d, int64_t due)
{
    int64_t wait = due - daemon_clock_ms(d);
    int64_t speed = d->cfg->clock_speed > 1 ? d->cfg->clock_speed : 1;
    wait = wait > 0 ? (wait + speed - 1) / speed : 0;
    if (wait > DAEMON_CLOCK_MAX_WAIT_MS)
        wait = DAEMON_CLOCK_MAX_WAIT_MS;  /* lws keeps usec in 64 bits, but
                                             a month ahead is plenty */
    d->clock_armed_ms = due;
    lws_sul_schedule(d->ctx, 0, &d->sul_clock, d->clock_fire,
                     wait * LWS_US_PER_MS);
}

void daemon_clock_arm(struct daemon *d)
{
    int64_t due = 0;
    int count = d->shard.count > 0 ? d->shard.count : 1;
    d->clock_started = true;
    enum bot_err e = store_timer_next(d->store, d->shard.id, count, &due);
    if (e == BOT_OK) {
        arm_for(d, due);
        return;
    }
    lws_sul_cancel(&d->sul_clock);
    d->clock_armed_ms = 0;
    if (e != BOT_NOTFOUND)
        log_msg(d->log, LOG_LVL_WARN, "turn clock: the next timer could not "
                "be read (%s); trying again at the next command",
                store_errmsg(d->store));
}

void daemon_clock_changed(struct daemon *d, int64_t due)
{
    if (!d->clock_started || due <= 0)
        return;              /* not armed yet (READY arms), or cleared */
    if (d->clock_armed_ms == 0 || due < d->clock_armed_ms)
        arm_for(d, due);
}
