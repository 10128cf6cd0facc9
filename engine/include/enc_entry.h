/*
 * enc_entry.h - events of the order: entries that are not combatants.
 *
 * A lair action at a fixed count each round, a hazard acting on its own
 * turn, a one-shot in a given round (/combat event). Each sits at a place
 * of a round: at an initiative count or card where the system's order has
 * them (rs_system.entries), else at the start or the end of the round.
 * When its place comes, the turn stops on it: its note and its dice
 * (rolled then, recorded as every roll) are said, nobody's turn runs
 * (current is 0, entry_on names it), and the next /combat next moves on.
 * A one-shot leaves the order when the turn moves on from it.
 *
 * An event is never a combatant: no side, no target, no conditions or
 * resources, never counted for victory; only the turn machinery and the
 * tracker know of it. A hidden event is the GM's alone: players see
 * nothing of it, not even an unseen row, since no creature stands there.
 *
 * The turn machinery of each system calls the hooks below at its places:
 * enc_entry_edge() at the start and end of each round, enc_entry_before()
 * before each combatant's slot, and enc_entry_leave() when /combat next
 * moves on. Each hook stops on at most one event; the caller returns then,
 * leaving its position so that the next call comes back to the same place.
 *
 * Ownership: arguments are borrowed for the call; names are copied.
 */
#ifndef ENC_ENTRY_H
#define ENC_ENTRY_H

#include "enc.h"

struct rs_call;

/* What /combat event asks for. */
struct enc_entry_req {
    const char *name;
    enum enc_entry_kind kind;
    const char *at;          /* "start", "end" or a count; NULL: the
                                kind's default for the system */
    int32_t round;           /* ONCE: its round; 0: the next one */
    const char *dice;        /* NULL or "": none */
    const char *note;        /* NULL or "": none */
    bool hidden;
};

/* Add an event. Refused, changing nothing: a bad or taken name (an event's
 * or a combatant's), a place the system has not (at:12 where the order has
 * no counts, a card somebody holds), a count outside the system's, bad
 * dice, a note too long, a round gone by, ENC_MAX_ENTRIES held. Added in
 * the middle of a round whose place has passed, it comes up next round. */
enum eng_err enc_entry_add(struct rs_call *c, const struct enc_entry_req *q);
/* Take an event out of the order (the turn moves off it when on it). */
enum eng_err enc_entry_remove(struct rs_call *c, const char *name);

/* The event called name (ASCII case ignored), or NULL. */
struct enc_entry *enc_entry_find(struct encounter *e, const char *name);
/* The event the turn stopped on, or NULL. */
const struct enc_entry *enc_entry_on(const struct encounter *e);

/* ---- the turn machinery's hooks ------------------------------------------ */

/* The start (at ENC_ENTRY_START, after the round began) or the end (at
 * ENC_ENTRY_END: the counts after everyone's first, then the end's) of
 * the round: stop on the first event due there. True when it stopped. */
bool enc_entry_edge(struct rs_call *c, enum enc_entry_at at);
/* Before a combatant's slot whose count or card is value: stop on the
 * first event due before it. True when it stopped. */
bool enc_entry_before(struct rs_call *c, int64_t value);
/* /combat next moves on from the event the turn is on, if any (a
 * one-shot leaves the order). Returns where that event sat, or -1 when
 * the turn was on nobody's event. */
int enc_entry_leave(struct rs_call *c);
/* ENG_OK, or a refusal when the turn is on an event (a pick or a pass
 * waits for /combat next). */
enum eng_err enc_entry_busy(struct rs_call *c);

/* ---- for the tracker ----------------------------------------------------- */

/* Whether x sits before a slot whose count or card is value. */
bool enc_entry_precedes(const struct encounter *e, const struct enc_entry *x,
                        int64_t value);
/* "lair action", "hazard", "one-shot". */
const char *enc_entry_kind_word(int32_t kind);
/* Where x sits, for people: "count 20", "card 7", "start of each round",
 * "end of each round", "start of round 3" for a one-shot's. Into buf, in
 * tr's language (NULL: English, which an event's sentence looks up when
 * drawn: a counted place stays English there). */
void enc_entry_place(const struct encounter *e, const struct enc_entry *x,
                     char *buf, size_t n, enc_tr_fn tr, const void *tr_ctx);

#endif
