/*
 * daemon_log.c - /combat log written off the loop (issue 33).
 *
 * A log reads a fight's whole history (two passes, cmd_log_write), which
 * for a long fight is tens of milliseconds; twenty at once held the loop
 * for seconds. So the command only says which log it wants
 * (cmd_reply.log_later), the interaction is acknowledged (type 5) and the
 * log is written on this module's one worker thread, from its own
 * read-only store connection (store_open_reader). The file comes back to
 * the loop the way REST results do (a done list, lws_cancel_service(),
 * daemon_log_dispatch() on the loop), which edits the "thinking" message.
 *
 * One log per fight state at a time: a request for the same fight, version
 * and view as one queued or being written waits for it and gets the same
 * file. At most DAEMON_LOG_QUEUE_MAX different logs wait or are written at
 * once; beyond, the request is refused at once ("busy, try again").
 *
 * Ownership: struct daemon_log is d->logw's. A log_job is on the job list
 * (mutex) until the loop takes it off when done; it is then owned by its
 * waiters, the last one frees it. A log_waiter is its job's until both its
 * acknowledgement and the file are in.
 */
#include "daemon_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "eng_text.h"
#include "render_discord.h"

/* How often the test hook ([fights] log_hold_file) looks again. */
#define LOG_HOLD_POLL_US 10000

enum log_state { LOG_QUEUED, LOG_WRITING, LOG_DONE };

struct log_waiter {
    struct log_waiter *next;
    struct log_job *job;
    struct daemon *d;
    char id[INTERACTION_SNOWFLAKE_MAX + 1];
    char hook[REST_MAX_PATH];            /* /webhooks/<app>/<token> */
    bool public_ack;                     /* acknowledged in public: a
                                            private answer is a followup,
                                            and the "thinking" goes */
    bool acked, gone, done;
};

/* One way of answering with a log: the request's body and its type. */
struct log_body {
    bool made;
    char *data;                          /* heap; NULL: none could be made */
    size_t len;
    char ctype[REST_MAX_CTYPE];
};

struct log_job {
    struct log_job *next;
    struct cmd_log_job job;
    enum log_state state;                /* under the mutex */
    enum bot_err err;
    char why[DAEMON_LOG_WHY_MAX];
    char *data;                          /* the file, or NULL */
    size_t len;
    struct log_waiter *waiters;          /* the loop's only */
    int nwaiters;
    int refs;                            /* waiters not yet answered */
    struct log_body body[2];             /* the loop's (job_body) */
};

struct daemon_log {
    struct daemon *d;
    struct store *reader;                /* the worker's; NULL until its
                                            first log */
    char path[STORE_MAX_LOCATION + 1];   /* the database, for the reader */
    pthread_t thread;
    bool started;                        /* the loop's: the thread runs,
                                            from the first log on */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;                           /* under mu */
    struct log_job *jobs;                /* under mu: queued, writing, done */
    int njobs;
    char hold[CFG_MAX_PATH];             /* test hook; "" */
    int64_t written;                     /* under mu: logs the worker wrote */
    int64_t joined, busy;                /* the loop's: requests that waited
                                            for a log already asked for, or
                                            were refused */
};

static void job_free(struct log_job *j)
{
    free(j->body[0].data);
    free(j->body[1].data);
    free(j->data);
    cmd_log_job_clear(&j->job);
    free(j);
}

/* The test hook: hold the log about to be written while the file exists,
 * unless the daemon stops. */
static bool held(struct daemon_log *l)
{
    if (l->hold[0] == '\0')
        return false;
    pthread_mutex_lock(&l->mu);
    bool stop = l->stop;
    pthread_mutex_unlock(&l->mu);
    return !stop && access(l->hold, F_OK) == 0;
}

/* The worker: write each queued log in turn, hand it back, wake the loop. */
static void *worker(void *arg)
{
    struct daemon_log *l = arg;
    pthread_mutex_lock(&l->mu);
    for (;;) {
        struct log_job *j = l->jobs;
        while (j != NULL && j->state != LOG_QUEUED)
            j = j->next;
        if (l->stop)
            break;
        if (j == NULL) {
            pthread_cond_wait(&l->cv, &l->mu);
            continue;
        }
        j->state = LOG_WRITING;
        pthread_mutex_unlock(&l->mu);
        while (held(l))
            usleep(LOG_HOLD_POLL_US);
        char *data = NULL;
        size_t len = 0;
        enum bot_err e = BOT_OK;
        /* Opened at the first log, not at startup: preparing a
         * connection's statements is work READY need not wait for. */
        if (l->reader == NULL) {
            char err[STORE_MAX_ERR];
            e = store_open_reader(l->path, &l->reader, err, sizeof err);
            if (e != BOT_OK) {
                /* the path is the operator's, not the user's to see */
                log_msg(l->d->log, LOG_LVL_WARN, "/combat log: no second "
                        "connection to the database (%s)", err);
                snprintf(j->why, sizeof j->why, "the database could not be "
                         "read for the log; ask again later");
            }
        }
        if (e == BOT_OK)
            e = cmd_log_write(l->reader, &j->job, &data, &len, j->why,
                              sizeof j->why);
        pthread_mutex_lock(&l->mu);
        j->err = e;
        j->data = data;
        j->len = len;
        j->state = LOG_DONE;
        l->written++;
        lws_cancel_service(l->d->ctx);
    }
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

bool daemon_log_start(struct daemon *d, const char *path)
{
    if (strcmp(path, ":memory:") == 0 || strlen(path) > STORE_MAX_LOCATION) {
        log_msg(d->log, LOG_LVL_WARN, "/combat log is written on the loop: "
                "no second connection to the database (an in-memory "
                "database has none)");
        return false;
    }
    struct daemon_log *l = calloc(1, sizeof *l);
    if (l == NULL)
        return false;
    l->d = d;
    snprintf(l->hold, sizeof l->hold, "%s", d->cfg->log_hold_file);
    snprintf(l->path, sizeof l->path, "%s", path);
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
    d->logw = l;
    return true;
}

/* The worker thread is started by the first log, not before READY: most
 * starts never write one. False (logged) when it cannot start; the request
 * is then refused as busy, and the next one tries again. */
static bool worker_running(struct daemon_log *l)
{
    if (l->started)
        return true;
    if (pthread_create(&l->thread, NULL, worker, l) != 0) {
        log_msg(l->d->log, LOG_LVL_WARN, "/combat log: no worker thread");
        return false;
    }
    l->started = true;
    return true;
}

/* ---- the answer, on the loop ------------------------------------------- */

static void waiter_finish(struct log_waiter *w)
{
    struct log_job *j = w->job;
    free(w);
    if (--j->refs == 0)
        job_free(j);
}

/* The answer's request body, made once per log for all who wait for it
 * (the REST queue copies it for each): [0] edits the "thinking" message,
 * [1] is a private followup. NULL when it could not be made. */
static const struct log_body *job_body(struct log_job *j, bool followup)
{
    struct log_body *b = &j->body[followup];
    struct cmd_reply reply;
    char *copy = NULL, *multi = NULL;
    size_t len = 0;

    if (b->made)
        return b->data != NULL ? b : NULL;
    b->made = true;
    snprintf(b->ctype, sizeof b->ctype, "application/json");
    cmd_reply_init(&reply);
    if (j->data != NULL && (copy = malloc(j->len + 1)) != NULL)
        memcpy(copy, j->data, j->len + 1);
    cmd_log_reply(&j->job, copy, copy != NULL ? j->len : 0, j->why, &reply);
    char *text = render_discord_message_text(&reply.msg, followup, &len);
    if (text != NULL && reply.file.data != NULL) {
        if (daemon_body_file(text, len, false, &reply.file, &multi, &len,
                             b->ctype)) {
            b->data = multi;
            b->len = len;
        }
        free(text);
    } else {
        b->data = text;
        b->len = len;
    }
    cmd_reply_cleanup(&reply);
    return b->data != NULL ? b : NULL;
}

/* An answer went out (or failed, or the REST queue let it go). */
static void on_answer_done(void *ud, const struct rest_result *res)
{
    struct daemon *d = ud;
    d->log_answers--;
    daemon_on_follow_done(d, res);
}

/* Replace the "thinking" message with the file (or the refusal); after a
 * public acknowledgement, a private answer (the GM's copy, a refusal) is
 * a private followup and the "thinking" message goes. */
static void waiter_answer(struct log_waiter *w)
{
    struct daemon *d = w->d;
    struct log_job *j = w->job;
    char path[REST_MAX_PATH];
    bool followup = w->public_ack && (j->job.gm || j->data == NULL);
    const struct log_body *b = job_body(j, followup);

    snprintf(path, sizeof path, "%s%s", w->hook,
             followup ? "" : "/messages/@original");
    if (b == NULL ||
        rest_submit_body(d->rest, followup ? "POST" : "PATCH", path, b->data,
                         b->len, b->ctype, on_answer_done, d) != BOT_OK) {
        log_msg(d->log, LOG_LVL_ERR, "interaction %s: cannot send its "
                "/combat log", w->id);
        return;
    }
    d->log_answers++;
    if (followup) {
        snprintf(path, sizeof path, "%s/messages/@original", w->hook);
        rest_submit(d->rest, "DELETE", path, NULL, daemon_on_follow_done, d);
    }
}

/* Both halves in (the acknowledgement, the file): answer, unless the
 * acknowledgement failed (no message to edit) or the daemon stops. */
static void waiter_step(struct log_waiter *w)
{
    if (!w->done || !(w->acked || w->gone))
        return;
    if (!w->gone && !w->d->rest_closing)
        waiter_answer(w);
    waiter_finish(w);
}

static void on_acked(void *ud, bool ok)
{
    struct log_waiter *w = ud;
    w->acked = ok;
    w->gone = !ok;
    waiter_step(w);
}

void daemon_log_dispatch(struct daemon *d)
{
    struct daemon_log *l = d->logw;
    struct log_job *done = NULL;
    if (l == NULL)
        return;
    pthread_mutex_lock(&l->mu);
    for (struct log_job **pp = &l->jobs; *pp != NULL;) {
        struct log_job *j = *pp;
        if (j->state == LOG_DONE) {
            *pp = j->next;
            j->next = done;
            done = j;
            l->njobs--;
        } else {
            pp = &j->next;
        }
    }
    pthread_mutex_unlock(&l->mu);
    while (done != NULL) {
        struct log_job *j = done;
        done = j->next;
        if (j->err == BOT_OK)
            cmd_log_cache_put(d->log_cache, &j->job, j->data, j->len);
        log_msg(d->log, LOG_LVL_INFO, "/combat log of channel %llu at v%lld "
                "%s once for %d request%s (%zu bytes)",
                (unsigned long long)j->job.channel,
                (long long)j->job.version,
                j->err == BOT_OK ? "written" : "refused", j->nwaiters,
                j->nwaiters == 1 ? "" : "s", j->len);
        /* each waiter may free j: take the list first */
        struct log_waiter *w = j->waiters;
        j->waiters = NULL;
        while (w != NULL) {
            struct log_waiter *next = w->next;
            w->done = true;
            waiter_step(w);
            w = next;
        }
    }
}

/* ---- a request, on the loop -------------------------------------------- */

/* The job writing job's log, or a new one on the list; NULL when the
 * queue is full or out of memory. Under l->mu. */
static struct log_job *job_for(struct daemon_log *l,
                               struct cmd_log_job *job, bool *joined)
{
    for (struct log_job *j = l->jobs; j != NULL; j = j->next)
        if (j->state != LOG_DONE && j->job.channel == job->channel &&
            j->job.fight == job->fight && j->job.version == job->version &&
            j->job.gm == job->gm && j->job.max == job->max &&
            j->nwaiters < DAEMON_LOG_WAITERS_MAX) {
            *joined = true;
            return j;
        }
    *joined = false;
    if (l->njobs >= DAEMON_LOG_QUEUE_MAX)
        return NULL;
    struct log_job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return NULL;
    j->job = *job;
    job->tally = NULL;                   /* the new job's now */
    struct log_job **tail = &l->jobs;    /* first asked, first written */
    while (*tail != NULL)
        tail = &(*tail)->next;
    *tail = j;
    l->njobs++;
    pthread_cond_signal(&l->cv);
    return j;
}

enum daemon_log_take daemon_log_take(struct daemon *d,
                                     const struct interaction *it,
                                     struct cmd_log_job *job,
                                     bool public_ack,
                                     struct daemon_log_ack *ack)
{
    struct daemon_log *l = d->logw;
    struct log_waiter *w = calloc(1, sizeof *w);
    bool joined = false;
    if (l == NULL || w == NULL || !worker_running(l)) {
        free(w);
        return DAEMON_LOG_BUSY;
    }
    pthread_mutex_lock(&l->mu);
    struct log_job *j = job_for(l, job, &joined);
    if (j != NULL) {
        /* the loop owns waiters; the worker never looks at them */
        w->job = j;
        w->next = j->waiters;
        j->waiters = w;
        j->nwaiters++;
        j->refs++;
    }
    pthread_mutex_unlock(&l->mu);
    if (j == NULL) {
        free(w);
        l->busy++;
        return DAEMON_LOG_BUSY;
    }
    l->joined += joined;
    w->d = d;
    w->public_ack = public_ack;
    eng_text_copy(w->id, sizeof w->id, it->id);
    snprintf(w->hook, sizeof w->hook, "/webhooks/%s/%s", it->application_id,
             it->token);
    ack->fn = on_acked;
    ack->ud = w;
    return joined ? DAEMON_LOG_JOINED : DAEMON_LOG_QUEUED;
}

int daemon_log_pending(const struct daemon *d)
{
    struct daemon_log *l = d->logw;
    if (l == NULL)
        return d->log_answers;
    pthread_mutex_lock(&l->mu);
    int n = l->njobs;
    pthread_mutex_unlock(&l->mu);
    return n + d->log_answers;
}

void daemon_log_counts(const struct daemon *d, int64_t *written,
                       int64_t *joined, int64_t *busy)
{
    struct daemon_log *l = d->logw;
    *written = *joined = *busy = 0;
    if (l == NULL)
        return;
    pthread_mutex_lock(&l->mu);
    *written = l->written;
    pthread_mutex_unlock(&l->mu);
    *joined = l->joined;
    *busy = l->busy;
}

/* Logs not yet started are not written: their requests are told so.
 * Under l->mu; a log being written is left to finish. */
static void drop_queued(struct daemon_log *l)
{
    for (struct log_job *j = l->jobs; j != NULL; j = j->next)
        if (j->state == LOG_QUEUED) {
            j->state = LOG_DONE;
            j->err = BOT_IO;
            snprintf(j->why, sizeof j->why, "fray was restarting and did not "
                     "write the log; ask again");
        }
}

void daemon_log_abandon(struct daemon *d)
{
    struct daemon_log *l = d->logw;
    if (l == NULL)
        return;
    pthread_mutex_lock(&l->mu);
    l->stop = true;                     /* the worker takes no other */
    drop_queued(l);
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
    daemon_log_dispatch(d);
}

void daemon_log_stop(struct daemon *d)
{
    struct daemon_log *l = d->logw;
    if (l == NULL)
        return;
    pthread_mutex_lock(&l->mu);
    l->stop = true;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
    if (l->started)
        pthread_join(l->thread, NULL);  /* a log being written is finished */
    /* What was finished goes out; what was never written is said so. */
    pthread_mutex_lock(&l->mu);
    drop_queued(l);
    pthread_mutex_unlock(&l->mu);
    daemon_log_dispatch(d);
    store_close(l->reader);
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->cv);
    free(l);
    d->logw = NULL;
}
