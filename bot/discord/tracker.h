/*
 * tracker.h - the live tracker message of each fight, kept up to date in
 * its channel (the daemon's side of cmd_reply.tracker).
 *
 * When a fight begins, its tracker is posted as a channel message and
 * pinned; every committed change hands tracker_show() the tracker as it now
 * looks, and the message is edited to match. Edits of one channel are
 * coalesced: at most one write per min_interval_ms, and a write always
 * carries the newest state, so a burst of changes costs one edit and the
 * channel's rate limit is never approached. One request per channel is in
 * flight at a time, so writes arrive in order.
 *
 * - Pinning is tried once per tracker. When Discord refuses it (403, e.g.
 *   50013 Missing Permissions) the user whose change came last (the GM,
 *   for the /combat begin that posted it) is told once, ephemerally,
 *   through that interaction's followup, and the fight carries on
 *   unpinned.
 * - An edit answered 404 (someone deleted the tracker) posts a new one
 *   with the same state, so the next change after a deletion restores it.
 * - CMD_TRACKER_FINAL: the fight ended. The message gets a last edit (no
 *   buttons), is unpinned and forgotten; the fight's thread, if it has
 *   one, is archived (unless keep_threads) and unlinked.
 * - A fight with its own thread (fthread.h) shows its tracker there. A
 *   request answered 404 Unknown Channel means the thread was deleted by
 *   hand: the link goes, the channel is told, and the tracker is posted
 *   in the channel again; the fight itself is untouched.
 *
 * The message id is kept in the store's key/value table
 * ("tracker:<channel>" -> "<id>" or "<id> nopin"), not in the encounter:
 * writing it into the encounter would need a new version (staling every
 * button drawn for the current one) and undo would bring back an older id.
 * A restarted daemon finds the id there and keeps editing the same message.
 *
 * Everything runs on the lws loop's thread (timers are lws_sul); requests
 * go through rest.h. Ownership: arguments are borrowed; the tracker keeps
 * its own copies. The caller frees in this order: tracker_detach() (timers,
 * before lws_context_destroy), rest_free() (which completes what is in
 * flight), tracker_free().
 */
#ifndef TRACKER_H
#define TRACKER_H

#include <stdint.h>

#include "bot_err.h"
#include "cmd.h"
#include "log.h"

struct lws_context;
struct rest;
struct store;
struct tracker;

#define TRACKER_MIN_INTERVAL_MS 1000  /* between two writes to one tracker */
#define TRACKER_TOKEN_TTL_MS (14 * 60 * 1000) /* an interaction token is
                                                 good for 15 minutes */
#define TRACKER_KV_PREFIX CMD_TRACKER_KV_PREFIX

struct tracker_opts {
    struct lws_context *ctx;
    struct rest *rest;
    struct store *store;
    struct log *log;
    int64_t min_interval_ms;      /* 0: TRACKER_MIN_INTERVAL_MS */
    bool keep_threads;            /* a fight's thread stays open after the
                                     end ([threads] archive_on_end off) */
};

enum bot_err tracker_new(const struct tracker_opts *o, struct tracker **out);

/* Cancel every timer (the lws context must still exist). */
void tracker_detach(struct tracker *t);

/* Free everything; NULL is a no-op. After rest_free(). */
void tracker_free(struct tracker *t);

/* A change was committed in channel: show m (the reply's tracker) as mode
 * says. app_id and token are the interaction that caused it (for the
 * one-time notice when pinning is refused); either may be NULL. */
void tracker_show(struct tracker *t, uint64_t channel, const struct msg *m,
                  enum cmd_tracker_mode mode, const char *app_id,
                  const char *token);

/* channel's fight got its own thread (fthread.h): its tracker is posted
 * there. A tracker already posted stays where it is. */
void tracker_thread(struct tracker *t, uint64_t channel, uint64_t thread);

/* The tracker message of channel's fight, or 0 when none is known. */
uint64_t tracker_message_id(struct tracker *t, uint64_t channel);

/* Shutting down: write every pending edit now, without waiting out the
 * interval (the REST limiter still keeps to Discord's limits). */
void tracker_flush(struct tracker *t);

#endif
