/*
 * fthread.h - a fight's own thread: which thread a channel's fight lives
 * in, and which fight a thread belongs to.
 *
 * A fight started with thread:true stays keyed by its channel (the
 * parent): its versions, undo, reopen, retention and history are the
 * channel's as for any fight. The thread is only where it is shown: its
 * tracker, and the replies to the commands sent there, which act on the
 * parent's fight. The link is two key/value rows of the store, written
 * when Discord has made the thread and removed when the fight ends or the
 * thread is found deleted:
 *
 *     "thread:<channel>"  -> "<thread id>"
 *     "thread-of:<thread>" -> "<channel id>"
 *
 * Not in the encounter, for the tracker message id's reasons (tracker.h):
 * writing it would make a new version, staling every button, and undo
 * would bring back an old thread.
 *
 * Ownership: nothing is kept; every call reads or writes the store.
 */
#ifndef FTHREAD_H
#define FTHREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "bot_err.h"

struct store;

#define FTHREAD_KV_PREFIX "thread:"
#define FTHREAD_KV_PARENT_PREFIX "thread-of:"
/* A thread's name: Discord's 1 to 100 characters. */
#define FTHREAD_NAME_MAX 100
/* How long a quiet thread stays open, minutes: a week, the longest
 * Discord offers, for fights whose players post once a day. */
#define FTHREAD_AUTO_ARCHIVE_MIN 10080

/* Discord's channel types of threads (announcement, public, private). */
#define FTHREAD_TYPE_NEWS 10
#define FTHREAD_TYPE_PUBLIC 11
#define FTHREAD_TYPE_PRIVATE 12

/* The thread channel's fight lives in, or 0 when it has none (or the
 * store cannot say). */
uint64_t fthread_of(struct store *s, uint64_t channel);

/* The channel whose fight thread belongs to, or 0. */
uint64_t fthread_parent(struct store *s, uint64_t thread);

/* Link channel's fight to thread (both rows). */
enum bot_err fthread_link(struct store *s, uint64_t channel, uint64_t thread);

/* Forget channel's thread (both rows); no thread is not an error. */
void fthread_unlink(struct store *s, uint64_t channel);

/* Post text to path, a channel's messages or an interaction's webhook
 * (ephemeral: only its user sees it), without waiting for the answer:
 * the notices around a fight's thread and tracker. It pings nobody but
 * the user mention (0: nobody). */
struct rest;
void fthread_notice(struct rest *r, const char *path, const char *text,
                    bool ephemeral, uint64_t mention);

#endif
