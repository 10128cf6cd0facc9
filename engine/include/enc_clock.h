/*
 * enc_clock.h - a fight's turn clock: how long a turn may wait before its
 * owner is reminded, and before the GM is told (and the turn moved on).
 *
 * Play-by-post fights run for days, so the clock counts wall-clock time
 * that the front end passes in (now, in ms since the epoch); the engine
 * reads no clock of its own. A "wait" is one stretch in which the fight
 * waits for the same thing: one combatant's turn, or one side's pick in
 * an alternating system. The command layer tells the clock when a new
 * wait begins (enc_clock_restart) and when the owner acts in it
 * (enc_clock_acted); what falls due is derived from those marks, so undo
 * and reopen restore the clock with the rest of the encounter.
 *
 * Ownership: the clock is a plain value inside struct encounter.
 */
#ifndef ENC_CLOCK_H
#define ENC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct encounter;

/* What fell due in a wait (enc_clock.done, enc_clock_due's result). */
#define ENC_CLOCK_REMIND (1u << 0)   /* the owner is reminded, once */
#define ENC_CLOCK_ACT    (1u << 1)   /* the GM is told (and auto moves on) */

struct enc_clock {
    int64_t remind_ms;       /* remind after this long; 0: never */
    int64_t act_ms;          /* tell the GM after this long; 0: never */
    bool autoskip;           /* at act_ms, move the turn on as the system
                                allows (rs_ops.timeout) */
    int64_t wait_ms;         /* when the current wait began; 0: unknown */
    int64_t acted_ms;        /* the owner's last action in this wait;
                                0: none (reminders stop once they act) */
    unsigned done;           /* ENC_CLOCK_* already handled in this wait */
};

/* A wait's identity: it changes exactly when the fight starts waiting for
 * something else. */
struct enc_wait {
    uint64_t turn_seq;
    uint32_t current;
    int acting_side;
    int32_t round;
    int status;
};

void enc_wait_of(const struct encounter *e, struct enc_wait *w);
bool enc_wait_eq(const struct enc_wait *a, const struct enc_wait *b);

/* Whether the clock is set (remind or act). */
bool enc_clock_on(const struct encounter *e);

/* A new wait began at now: the marks of the old one are forgotten. */
void enc_clock_restart(struct encounter *e, int64_t now);

/* The owner acted at now: no reminder in this wait any more. */
void enc_clock_acted(struct encounter *e, int64_t now);

/* What is due at now and not yet handled (ENC_CLOCK_* bits); 0 when the
 * clock is off, the fight is not running or nothing is due. */
unsigned enc_clock_due(const struct encounter *e, int64_t now);

/* When the next thing falls due (ms since the epoch), or 0 when nothing
 * will: the time the store's timer is set to. */
int64_t enc_clock_next(const struct encounter *e);

/* The time what bits names fell due (the earliest of them), for "late by". */
int64_t enc_clock_due_time(const struct encounter *e, unsigned bits);

#endif
