/*
 * daemon_prune.c - the store's upkeep on a timer: forget interaction ids
 * past Discord's replay window, apply retention and the archive quota to
 * ended fights ([fights] retention_days, keep_history,
 * max_archived_per_server), forget posted rolls past the week their
 * menus work for (cmd_rollrec.h) and proposals of a fight that went
 * without ending (proposal.h), and log what went and the database's
 * size.
 *
 * A pass is cut into batches of DAEMON_PRUNE_BATCH rows or fights, each
 * one short transaction of its own, one batch per tick, so a pass over a
 * large backlog never holds the event loop for long: interactions keep
 * being answered between batches. The first pass starts at the tick after
 * the first READY (a batch scans the encounters: startup reaches READY
 * without that work), or a whole prune interval after starting when READY
 * is that late, and the next ones every [store] prune_interval_s. With several shard processes on
 * one PostgreSQL database every shard prunes; the second one to reach a
 * row finds it gone, so that is only repeated work (store.h).
 */
#include "daemon_int.h"

#include "cmd_rollrec.h"
#include "log.h"
#include "proposal.h"
#include "store.h"

/* Rows or fights per batch: a few milliseconds of work on SQLite. */
#define DAEMON_PRUNE_BATCH 100
_Static_assert(DAEMON_PRUNE_BATCH <= STORE_PRUNE_BATCH_MAX,
               "the store's limit per call");
#define DAEMON_DAY_MS (24 * 60 * 60 * 1000ll)

/* Finish a pass: log it and schedule the next. */
static void pass_done(struct daemon *d, int64_t now)
{
    struct daemon_prune *p = &d->prune;
    int64_t bytes = -1;
    if (store_size(d->store, &bytes) != BOT_OK)
        log_msg(d->log, LOG_LVL_WARN, "database size: %s",
                store_errmsg(d->store));
    log_msg(d->log, LOG_LVL_INFO,
            "prune: %lld interactions forgotten, %lld ended fights cut to "
            "their final state, %lld deleted over the archive quota "
            "(%lld versions, %lld history lines); database %lld bytes",
            (long long)p->interactions, (long long)p->st.trimmed,
            (long long)p->st.deleted, (long long)p->st.versions,
            (long long)p->st.changes, (long long)bytes);
    p->interactions = 0;
    p->st = (struct store_prune_stats){0};
    p->running = false;
    p->next_ms = now + d->cfg->prune_interval_s * 1000;
}

void daemon_prune_ready(struct daemon *d, int64_t now)
{
    struct daemon_prune *p = &d->prune;
    if (p->after_ready)
        return;
    p->after_ready = true;
    if (!p->running && p->next_ms > now)
        p->next_ms = now;
}

void daemon_prune_tick(struct daemon *d, int64_t now)
{
    struct daemon_prune *p = &d->prune;
    /* Not inside a group's transaction, and never delaying its replies. */
    if (now < p->next_ms || d->batch_txn || d->nbatch > 0 || d->stopping)
        return;
    if (!p->running) {
        daemon_ix_prune(d);     /* a pass starts: the deferral marks too */
        /* On a shared store another process may have set a timer of this
         * shard's guilds (a command that reached it during a handover):
         * look again for the earliest, once a pass. */
        if (store_shared(d->store) && d->clock_started)
            daemon_clock_arm(d);
    }
    p->running = true;
    int64_t wall = daemon_wall_ms();
    bool more = false;
    int64_t n = 0;
    enum bot_err e = store_interaction_prune(
        d->store, wall - STORE_INTERACTION_KEEP_MS, DAEMON_PRUNE_BATCH, &n);
    if (e == BOT_OK) {
        p->interactions += n;
        more = n == DAEMON_PRUNE_BATCH;
        struct store_prune_cfg cfg = {
            .trim_before_ms = wall - d->cfg->retention_days * DAEMON_DAY_MS,
            .keep_after_ms = wall - d->cfg->reopen_minutes * 60000,
            .keep_history = d->cfg->keep_history,
            .max_archived = d->cfg->max_archived_per_server,
            .batch = DAEMON_PRUNE_BATCH,
        };
        e = store_enc_prune(d->store, &cfg, &p->st);
        more = more || p->st.more;
    }
    if (e == BOT_OK) {
        /* rolls past the age their menus work to (cmd_rollrec.h) */
        e = cmd_rollrec_prune(d->store, wall - CMD_ROLLREC_KEEP_MS,
                              DAEMON_PRUNE_BATCH, &n);
        more = more || n == DAEMON_PRUNE_BATCH;
    }
    if (e == BOT_OK) {
        /* proposals of a fight gone without ending (proposal.h) */
        e = proposal_prune(d->store, DAEMON_PRUNE_BATCH, &n);
        more = more || n == DAEMON_PRUNE_BATCH;
    }
    if (e != BOT_OK) {
        log_msg(d->log, LOG_LVL_WARN, "prune: %s: %s", bot_errname(e),
                store_errmsg(d->store));
        p->running = false;
        p->next_ms = now + d->cfg->prune_interval_s * 1000;
    } else if (more) {
        p->next_ms = now; /* the next batch at the next tick */
    } else {
        pass_done(d, now);
    }
}
