/*
 * daemon_int.h - what the daemon's files share: daemon.c (the loop,
 * startup), daemon_ix.c (interactions coming in), daemon_reply.c (the
 * group commit and the answers), the turn clock (daemon_clock.c, which
 * keeps time and the timer, and daemon_fire.c, which fires what is due),
 * attachments, threads, registration, metrics, pruning. Private to
 * bot/daemon/.
 *
 * Ownership: struct daemon lives on daemon_run()'s stack for the whole
 * run; everything it points to is owned by it and freed when the run ends.
 * A pending_reply is owned by the REST request it rides on and freed in
 * that request's completion callback.
 */
#ifndef DAEMON_INT_H
#define DAEMON_INT_H

#include <libwebsockets.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cmd.h"
#include "daemon.h"
#include "eng_rng.h"
#include "interaction.h"
#include "metrics.h"
#include "rest.h"
#include "rs_data.h"
#include "sbuf.h"
#include "shard.h"
#include "store.h"

/* The private answer to an interaction whose text fray could not read
 * (see daemon_answer_unreadable in daemon_reply.c). */
/* Bytes of a refusal made before a command runs (the unreadable text,
 * "slow down"), in any language: the English is 149 bytes, a translation
 * up to half longer, the pseudo-language's accents two bytes a letter
 * (test_l10n_misc checks every catalog's against it). */
#define DAEMON_REFUSAL_MAX 512
#define DAEMON_UNREADABLE_TEXT                                               \
    N_("Some of that text has a character fray cannot read (a NUL, or "     \
       "half of an emoji), so nothing was done. Please type it again.")

struct att;
struct daemon_log;
struct cmd_rollq;
struct enc_cache;
struct enc_result;
struct gw;
struct limit;
struct metrics_http;
struct tracker;
struct web;

/* A prune pass in progress (daemon_prune.c): what it has done so far. */
struct daemon_prune {
    int64_t next_ms;                      /* monotonic: the next batch */
    bool running;                         /* a pass is under way */
    bool after_ready;                     /* the first READY was handled */
    int64_t interactions;                 /* forgotten in this pass */
    struct store_prune_stats st;          /* fights, in this pass */
};

struct daemon {
    const struct cfg *cfg;
    struct log *log;
    struct store *store;
    struct rs_data_set rules;             /* rulesets' data files */
    struct eng_rng rng;
    struct lws_context *ctx;
    struct rest *rest;
    struct att *att;                      /* attachment downloads */
    struct gw *gw;
    struct tracker *tracker;
    struct shard shard;                   /* settled at GET /gateway/bot */
    lws_sorted_usec_list_t sul_tick;
    lws_sorted_usec_list_t sul_gateway;   /* retry GET /gateway/bot */
    int64_t watchdog_ms;                  /* 0: no watchdog */
    int64_t last_watchdog_ms;
    bool stopping;
    int64_t stop_deadline_ms;             /* end of the grace period */
    bool gw_closing;
    int64_t gw_deadline_ms;
    bool done;
    int exit_status;
    int64_t answered;
    int64_t deferred;
    struct enc_cache *cache;              /* NULL: decode every command */
    struct cmd_rollq *rollq;              /* rolls' records not written
                                             yet; NULL: each with its
                                             group */
    struct cmd_log_cache *log_cache;      /* the last /combat log, for the
                                             next of the same fight state */
    struct daemon_log *logw;              /* the /combat log worker; NULL:
                                             logs are written on the loop */
    int log_answers;                      /* logs on their way to Discord:
                                             stopping waits for them */
    struct enc_result *result;            /* every command's events, reused
                                             (cmd_ctx.result); NULL: each
                                             command allocates its own */
    void *tls;                            /* SSL_CTX (tls.h); NULL: no TLS */
    struct batch_item *batch;             /* DAEMON_BATCH_MAX slots */
    int nbatch;
    bool in_dispatch;                     /* inside daemon_on_dispatch() */
    bool batch_txn;                       /* the group's outer transaction
                                             is open */
    int64_t batch_t0_ms;                  /* when the first one was queued */
    int64_t cmd_us, commit_us;            /* running estimates of the work */
    int64_t groups;                       /* group commits, for the log */
    int64_t group_max;
    int64_t trim_answered;                /* answered at the last change */
    int64_t trim_quiet_ms;                /* since then */
    bool trimmed;                         /* malloc_trim() since then */
    char app_id[32];                      /* from READY; "" before */
    struct metrics metrics;               /* counted always */
    struct metrics_http *metrics_http;    /* NULL: [metrics] listen off */
    struct web *web;                      /* shared pages; NULL: [web]
                                             listen off */
    struct daemon_prune prune;            /* the store's upkeep */
    struct limit *limit;                  /* token buckets (limit.h); NULL:
                                             nothing is limited */
    struct gm_fold *gm;                   /* DAEMON_GM_CHANNELS_MAX slots;
                                             NULL: every copy posted alone */
    bool rest_closing;                    /* rest_free() runs: a done
                                             callback must not submit */
    int64_t group_seq0;                   /* gateway seq before the group */
    bool marks_committed;                 /* this group's (daemon_reply.c) */
    int64_t stale;                        /* interactions dropped as stale */
    struct stale_notice {                 /* last notice per channel */
        uint64_t channel;
        int64_t at_ms;                    /* daemon_now_ms(); 0: never */
    } stale_notices[DAEMON_STALE_NOTICE_CHANNELS];
    /* the turn clocks (daemon_clock.c) */
    lws_sorted_usec_list_t sul_clock;     /* armed for the earliest timer */
    sul_cb_t clock_fire;                  /* what sul_clock runs:
                                             daemon_clock_fire, set by
                                             daemon.c */
    int64_t clock_armed_ms;               /* clock time it is armed for;
                                             0: not armed */
    int64_t clock_base_ms;                /* wall time clock_speed counts
                                             from (the start) */
    bool clock_started;                   /* armed once (at READY) */
    int64_t clock_wakeups;                /* times sul_clock ran */
    int64_t clock_fired;                  /* timers this process fired */
};

/* A due turn clock timer that could not fire (the store failing) is
 * tried again after this long. */
#define DAEMON_CLOCK_RETRY_MS 30000
/* Longest one arming of the turn clock waits before looking again. */
#define DAEMON_CLOCK_MAX_WAIT_MS (7 * 24 * 3600 * INT64_C(1000))

/* daemon_clock.c: the turn clock's time: the wall clock (for tests,
 * [fights] clock_speed and clock_offset_s move it). */
int64_t daemon_clock_ms(const struct daemon *d);
/* daemon_clock.c: arm the one timer for this shard's earliest due turn
 * clock timer in the store (none: disarm). Once the shard is settled, at
 * READY and after firing. */
void daemon_clock_arm(struct daemon *d);
/* daemon_clock.c: a command set a fight's timer to due (0: cleared): arm
 * for it when it comes before the armed one. */
void daemon_clock_changed(struct daemon *d, int64_t due);
/* daemon_fire.c: the timer ran (d->sul_clock): fire what is due, post what
 * it said, arm again. */
void daemon_clock_fire(lws_sorted_usec_list_t *sul);

/* daemon_reply.c: post a copy for the GM channel (folded with others while
 * one is on its way). Takes *mp. */
void daemon_post_gm_copy(struct daemon *d, uint64_t channel, struct msg **mp);
/* Post m (borrowed) in channel as a message of its own (cmd_reply.notice). */
void daemon_post_notice(struct daemon *d, uint64_t channel,
                        const struct msg *m);

/* GM channels that may have a copy on its way at once; a copy for another
 * channel beyond them is posted alone, as if nothing were in flight. */
#define DAEMON_GM_CHANNELS_MAX 64
/* Bytes of copies folded into one message while the previous one is on
 * its way: under Discord's 4,096-character embed description, with room
 * for the note. Copies beyond are counted and named, never dropped
 * silently. */
#define DAEMON_GM_FOLD_BYTES 3800

/* One GM channel's copies (daemon_reply.c): at most one request in flight;
 * what comes meanwhile waits here, the first as it is, the rest folded
 * into text, and goes out as one message when the request is done. */
struct gm_fold {
    struct daemon *d;
    uint64_t channel;                     /* 0: the slot is free */
    struct msg *held;                     /* the first waiting copy, or NULL */
    struct sbuf text;                     /* folded copies, markdown */
    int nfolded;                          /* copies in text */
    int nmore;                            /* copies that did not fit */
};

/* Forget acknowledgement marks older than DAEMON_IX_KEEP_MS (daemon_ix.c;
 * run by daemon_prune_tick as each pass starts, between groups). */
void daemon_ix_prune(struct daemon *d);

/* The command layer's context for d's commands: its store, RNG, rules'
 * data, cache and the config's windows and quotas (daemon_reply.c). */
void daemon_cmd_ctx(struct daemon *d, struct cmd_ctx *ctx);

/* A command carrying a file (it->att): answer its refusal, or defer it
 * and download the file, then run it (daemon_att.c). False when it has no
 * file: the caller runs it as usual. payload is the interaction's d
 * (borrowed; a reference is kept). */
bool daemon_att_start(struct daemon *d, const struct interaction *it,
                      json_t *payload, int64_t rx_us);

/* Register the commands at READY: the core set globally (shard 0 only),
 * and each server's systems for the servers of this shard whose set
 * changed since it was last registered (daemon_reg.c). */
void daemon_register_ready(struct daemon *d, const char *app);

/* Register guild's commands again: its systems changed (a reply said so). */
void daemon_register_guild(struct daemon *d, uint64_t guild);

/* One interaction waiting in the group (see batch_flush()). The slot is
 * never moved: the request borrows from the interaction's own buffers. */
struct batch_item {
    struct interaction it;
    int64_t rx_us;                        /* when the dispatch came in */
    struct cmd_reply reply;
    struct pending_reply *p;              /* the deferral's callback */
    bool ran;                             /* reply holds an answer */
    bool defer, defer_ephemeral, edit_clicked;
    bool acked_before;                    /* a mark: an earlier process sent
                                             the deferral */
    bool refused_early;                   /* reply was set before the group
                                             ran (unreadable, over a limit):
                                             no command runs */
    bool limited;                         /* ... because over a limit */
};

/* A request to send once the interaction's callback was accepted (after a
 * deferral: the reply itself, through the interaction's webhook). */
struct follow_on {
    const char *method;
    char path[REST_MAX_PATH];
    char *body;                           /* owned; NULL: none */
    size_t len;                           /* its bytes */
    char ctype[REST_MAX_CTYPE];           /* JSON, or multipart with a
                                             file (multipart.h) */
};

#define FOLLOW_ONS_MAX 2

/* Called once an interaction's callback (its deferral) was accepted (ok)
 * or refused; fn NULL: nobody waits for it. */
struct daemon_log_ack {
    void (*fn)(void *ud, bool ok);
    void *ud;
};

struct pending_reply {                    /* one interaction callback */
    struct daemon *d;
    char id[INTERACTION_SNOWFLAKE_MAX + 1];
    char command[INTERACTION_NAME_MAX + 1];
    int64_t t0_ms;
    int64_t rx_us;                        /* the dispatch came in */
    bool refused;                         /* answered with an error */
    bool limited;                         /* told to slow down */
    struct follow_on *next;               /* FOLLOW_ONS_MAX, made by the
                                             first follow-on: most answers
                                             have none */
    int nnext;
    struct daemon_log_ack ack;            /* a /combat log waits for it */
};

/* /combat log off the loop (daemon_log.c). Different logs waiting or
 * being written at once: each is one fight's history read twice, a few
 * tens of ms on the worker, so four is a second's backlog at most; past
 * it a request is refused with DAEMON_LOG_BUSY_TEXT. */
#define DAEMON_LOG_QUEUE_MAX 4
/* Requests waiting for one log (the same file for each); past it the
 * next asks for a log of its own. The limits per user bound it anyway. */
#define DAEMON_LOG_WAITERS_MAX 64
/* Bytes of a log's refusal (cmd_log_write's why). */
#define DAEMON_LOG_WHY_MAX 192
#define DAEMON_LOG_BUSY_TEXT                                                 \
    "fray is busy writing other fights' logs; try again in a moment."

enum daemon_log_take {
    DAEMON_LOG_QUEUED,                    /* a new log to write */
    DAEMON_LOG_JOINED,                    /* the same log was asked for */
    DAEMON_LOG_BUSY                       /* refused: answer BUSY_TEXT */
};

/* Make the worker for the database at path (d->logw); its thread starts
 * at the first log and opens its own reading connection there. False
 * (logged) when it cannot: logs are then written on the loop, as
 * cmd_exec() does without cmd_ctx.log_later. */
bool daemon_log_start(struct daemon *d, const char *path);
/* Interaction it wants job's log: queue it or join the same one. Unless
 * BUSY, *ack is to be called when its acknowledgement is settled; the
 * answer edits the "thinking" message (public_ack: it was acknowledged in
 * public, so a private answer, the GM's copy or a refusal, is a private
 * followup and the "thinking" message goes). A new log takes job->tally
 * (left NULL); otherwise it stays the caller's. */
enum daemon_log_take daemon_log_take(struct daemon *d,
                                     const struct interaction *it,
                                     struct cmd_log_job *job,
                                     bool public_ack,
                                     struct daemon_log_ack *ack);
/* On the loop, when woken: answer the logs written. */
void daemon_log_dispatch(struct daemon *d);
/* Logs waiting or being written, and answers with a log on their way
 * (stopping waits for them, within DAEMON_STOP_WAIT_MS). */
int daemon_log_pending(const struct daemon *d);
/* For /metrics: logs the worker wrote, requests that joined one already
 * asked for, requests refused as busy. */
void daemon_log_counts(const struct daemon *d, int64_t *written,
                       int64_t *joined, int64_t *busy);
/* The grace period is over: logs not yet started are not written, their
 * requests are told to ask again (sent while the gateway closes); the one
 * being written finishes and is answered. */
void daemon_log_abandon(struct daemon *d);
/* Stop the worker (a log being written is finished first), answer what
 * was written, tell the others their log was not written, free d->logw.
 * Before rest_free(). */
void daemon_log_stop(struct daemon *d);

/* daemon_reply.c: a request's body with a file: a multipart body whose
 * JSON (text, len bytes; in a callback, is_callback, the message is its
 * "data") declares the file in the message's attachments. *data (heap)
 * holds *dlen bytes of type ctype (REST_MAX_CTYPE bytes). */
bool daemon_body_file(const char *text, size_t len, bool is_callback,
                      const struct cmd_file *file, char **data, size_t *dlen,
                      char *ctype);


static inline int64_t daemon_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t daemon_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static inline int64_t daemon_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* daemon_reply.c: run the queued group (one outer transaction, a savepoint per
 * command, the replies after the commit); a no-op when nothing is queued. */
void daemon_batch_flush(struct daemon *d);
/* Between groups: write the rolls' records waiting since
 * DAEMON_ROLLQ_WAIT_MS before now_ms, or all of them. */
void daemon_rolls_due(struct daemon *d, int64_t now_ms, bool all);

/* daemon_reply.c, for daemon_ix.c's intake: answer it at once with text,
 * privately (an autocomplete with no choices); NULL when it could not be
 * sent. */
struct pending_reply *daemon_answer_private(struct daemon *d,
                                            const struct interaction *it,
                                            int64_t rx_us, const char *text);
/* Answer an autocomplete through the command layer. */
/* A form command sent without its options (cmd_form.h) is answered at
 * once, never deferred (a modal can only be the first callback) and
 * outside the group: opening a form stores nothing. Returns false when
 * the command is no such request after all (it then joins the group). */
bool daemon_answer_form(struct daemon *d, struct interaction *it,
                        int64_t rx_us);
void daemon_answer_autocomplete(struct daemon *d, struct interaction *it,
                                int64_t rx_us);
/* Refuse an interaction whose text the gateway had to repair
 * (GW_KEY_REPAIRED): true when it was answered so. */
bool daemon_answer_unreadable(struct daemon *d, struct interaction *it,
                              int64_t rx_us);
/* Interaction id's mark, if it has one: how an earlier process deferred
 * it. */
bool daemon_ack_lookup(struct daemon *d, const char *id, bool *clicked,
                       bool *eph);
/* The callback of a follow-up request: logs a refusal. ud is the daemon. */
void daemon_on_follow_done(void *ud, const struct rest_result *res);

/* A fight's own thread (daemon_thread.c, fthread.h). open: ask Discord
 * for a public thread called name from channel, for the fight started by
 * it; link it when made, tell the GM when refused. route: a command sent
 * in a fight's thread acts on the parent's fight (req->channel_id becomes
 * the parent, req->thread_id the thread). note: a fight command answered
 * in the parent while the fight has a thread says where the thread is. */
void daemon_thread_open(struct daemon *d, const struct interaction *it,
                        uint64_t channel, const char *name);
void daemon_thread_route(struct daemon *d, struct cmd_req *req);
void daemon_thread_note(struct daemon *d, const struct cmd_req *req,
                        struct cmd_reply *reply);

/* daemon_prune.c: the first READY: the first pass runs at the next
 * tick (before it, only if READY takes a whole prune interval). */
void daemon_prune_ready(struct daemon *d, int64_t now);
/* daemon_prune.c: one batch of the store's upkeep when one is due (a
 * pass every [store] prune_interval_s, the first after READY); the
 * log says what a pass pruned and the database's size. */
void daemon_prune_tick(struct daemon *d, int64_t now_ms);

/* daemon_reply.c: free d->gm and what waits in it (after rest_free()). */
void daemon_gm_free(struct daemon *d);

/* daemon_metrics.c: the /metrics page (metrics_render_fn; ud: the
 * daemon). */
void daemon_metrics_render(void *ud, struct sbuf *sb);

/* daemon_ix.c: the gateway's dispatch hook (gw.h); INTERACTION_CREATE joins
 * the group. Returns false while stopping: not applied, so the next
 * session replays it. */
bool daemon_on_dispatch(void *ud, const char *t, json_t *payload);

#endif
