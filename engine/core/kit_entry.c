/*
 * kit_entry.c - events of the order (enc_entry.h).
 */
#include "enc_entry.h"

#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"
#include "turn.h"

/* The system's declaration, or the one every system has: the start and
 * the end of the round. */
static const struct rs_entry_spec entry_edges = {
    .why = N_("events go at the start or the end of the round"),
};

static const struct rs_entry_spec *entry_spec(const struct encounter *e)
{
    return e->sys != NULL && e->sys->entries != NULL ? e->sys->entries
                                                     : &entry_edges;
}

const char *enc_entry_kind_word(int32_t kind)
{
    switch ((enum enc_entry_kind)kind) {
    case ENC_ENTRY_HAZARD:
        return N_("hazard");
    case ENC_ENTRY_ONCE:
        return N_("one-shot");
    case ENC_ENTRY_LAIR:
        break;
    }
    return N_("lair action");
}

/* A place's format in the reader's language when tr is given; the
 * attribute lets the compiler check the result as the literal it is. */
__attribute__((format_arg(3)))
static const char *entry_tr(enc_tr_fn tr, const void *tr_ctx,
                            const char *fmt)
{
    return tr != NULL ? tr(tr_ctx, fmt) : fmt;
}

#define ENTRY_TR(fmt) entry_tr(tr, tr_ctx, (fmt))

void enc_entry_place(const struct encounter *e, const struct enc_entry *x,
                     char *buf, size_t n, enc_tr_fn tr, const void *tr_ctx)
{
    const struct rs_entry_spec *sp = entry_spec(e);
    bool once = x->kind == ENC_ENTRY_ONCE;
    bool start = x->at == ENC_ENTRY_START;
    switch ((enum enc_entry_at)x->at) {
    case ENC_ENTRY_START:
    case ENC_ENTRY_END:
        if (once)
            snprintf(buf, n, ENTRY_TR(start ? N_("start of round %d")
                                            : N_("end of round %d")),
                     (int)x->round);
        else
            snprintf(buf, n, "%s", ENTRY_TR(start ? N_("start of each round")
                                                  : N_("end of each round")));
        return;
    case ENC_ENTRY_COUNT:
        break;
    }
    if (once)
        snprintf(buf, n, ENTRY_TR(sp->unique ? N_("card %lld of round %d")
                                             : N_("count %lld of round %d")),
                 (long long)x->count, (int)x->round);
    else
        snprintf(buf, n, ENTRY_TR(sp->unique ? N_("card %lld")
                                             : N_("count %lld")),
                 (long long)x->count);
}

/* Where x sits, as a sentence's argument: the words of enc_entry_place()
 * as a template with its numbers, which the renderer draws in the table's
 * language (the buffer form is the tracker's, drawn when the language is
 * known). */
static struct rs_say_arg entry_place_arg(struct rs_call *c,
                                         const struct enc_entry *x)
{
    const struct rs_entry_spec *sp = entry_spec(c->e);
    bool once = x->kind == ENC_ENTRY_ONCE;
    bool start = x->at == ENC_ENTRY_START;
    if (x->at != ENC_ENTRY_COUNT && once)
        return rs_a_text(c, RS_T(start ? N_("start of round {}")
                                       : N_("end of round {}"),
                                 RS_A_NUM(x->round)));
    if (x->at != ENC_ENTRY_COUNT)
        return rs_a_text(c, RS_T0(start ? N_("start of each round")
                                        : N_("end of each round")));
    if (once)
        return rs_a_text(c, RS_T(sp->unique ? N_("card {} of round {}")
                                            : N_("count {} of round {}"),
                                 RS_A_NUM(x->count), RS_A_NUM(x->round)));
    return rs_a_text(c, RS_T(sp->unique ? N_("card {}") : N_("count {}"),
                             RS_A_NUM(x->count)));
}

struct enc_entry *enc_entry_find(struct encounter *e, const char *name)
{
    for (int i = 0; i < e->nentries; i++)
        if (eng_text_casecmp(e->entries[i].name, name) == 0)
            return &e->entries[i];
    return NULL;
}

const struct enc_entry *enc_entry_on(const struct encounter *e)
{
    for (int i = 0; e->entry_on != 0 && i < e->nentries; i++)
        if (e->entries[i].id == e->entry_on)
            return &e->entries[i];
    return NULL;
}

bool enc_entry_precedes(const struct encounter *e, const struct enc_entry *x,
                        int64_t value)
{
    switch ((enum enc_entry_at)x->at) {
    case ENC_ENTRY_START:
        return true;
    case ENC_ENTRY_END:
        return false;
    case ENC_ENTRY_COUNT:
        break;
    }
    /* An event loses ties: who holds its count acts first (the lair
     * action "on initiative count 20, losing initiative ties"). */
    return entry_spec(e)->low_first ? x->count < value : x->count > value;
}

/* ---- adding and removing ------------------------------------------------ */

/* Whether x's place in the running round has come and gone: the start
 * has once the round runs, the end is to come, and a count has when it
 * precedes the running slot's. */
static bool entry_passed(const struct encounter *e, const struct enc_entry *x)
{
    if (e->status != ENC_ST_RUNNING || e->round < 1)
        return false;
    int64_t v = 0;
    if (x->at == ENC_ENTRY_COUNT) {
        if (e->turn_idx < 0 || e->turn_idx >= e->norder)
            return false;
        v = turn_slot_value(e, e->turn_idx);
    }
    return enc_entry_precedes(e, x, v);
}

/* Whether count v is somebody's card or another event's (unique counts). */
static bool entry_count_held(const struct encounter *e, int64_t v)
{
    for (int i = 0; i < e->ncs; i++)
        for (int k = 0; k < e->cs[i].ninit; k++)
            if (e->cs[i].init[k] == v)
                return true;
    for (int i = 0; i < e->nentries; i++)
        if (e->entries[i].at == ENC_ENTRY_COUNT && e->entries[i].count == v)
            return true;
    return false;
}

/* A hazard's own place when at: was left out: a free card drawn, or the
 * system's roll. The draw and the roll are shown as every roll is. */
static enum eng_err entry_own_count(struct rs_call *c,
                                    const struct rs_entry_spec *sp,
                                    const char *name, bool hidden,
                                    int64_t *out)
{
    struct encounter *e = c->e;
    if (sp->unique) {
        int64_t free_v[64];
        int n = 0;
        for (int64_t v = sp->lo; v <= sp->hi && n < 64; v++)
            if (!entry_count_held(e, v))
                free_v[n++] = v;
        if (n == 0)
            return enc_fail(c->d, ENG_LIMIT, "no card is left in the deck "
                            "for %s: give it at:start or at:end", name);
        *out = free_v[eng_rng_below(c->rng, (uint64_t)n)];
        int idx = enc_add_plain_roll(c->r, "card", *out, hidden);
        struct enc_event *ev = RS_SAY(c, NULL, "{} draws card {}",
                                      RS_A_USER(name), RS_A_ROLL(idx));
        ev->secret = hidden;
        return ENG_OK;
    }
    if (sp->hazard_roll == NULL)
        return enc_fail(c->d, ENG_INVALID, "at: give %s's place (%s)", name,
                        enc_diag_word(c->d, sp->why));
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, "initiative", sp->hazard_roll, &r);
    if (err != ENG_OK)
        return err;
    if (r.roll_idx >= 0)
        c->r->rolls[r.roll_idx].secret = hidden;
    *out = r.total < sp->lo ? sp->lo : r.total > sp->hi ? sp->hi : r.total;
    struct enc_event *ev = RS_SAY(c, NULL, "{} rolls initiative {}",
                                  RS_A_USER(name), RS_A_ROLL(r.roll_idx));
    ev->secret = hidden;
    return ENG_OK;
}

/* x's place from at: (NULL: the kind's default). */
static enum eng_err entry_place_of(struct rs_call *c, struct enc_entry *x,
                                   const char *at)
{
    const struct rs_entry_spec *sp = entry_spec(c->e);
    const char *sys = c->e->sys != NULL ? c->e->sys->id : "these";
    if (at == NULL) {
        if (sp->counts && x->kind == ENC_ENTRY_HAZARD) {
            x->at = ENC_ENTRY_COUNT;
            return entry_own_count(c, sp, x->name, x->hidden, &x->count);
        }
        x->at = sp->counts && sp->lair_at != 0 ? ENC_ENTRY_COUNT
                                                : ENC_ENTRY_START;
        x->count = sp->lair_at;
        return ENG_OK;
    }
    if (eng_text_casecmp(at, "start") == 0) {
        x->at = ENC_ENTRY_START;
        return ENG_OK;
    }
    if (eng_text_casecmp(at, "end") == 0) {
        x->at = ENC_ENTRY_END;
        return ENG_OK;
    }
    int64_t v;
    if (!sp->counts) {
        enc_fail(c->d, ENG_INVALID, "at: the %s rules take start or end: "
                 "%s", sys, enc_diag_word(c->d, sp->why));
        enc_hint(c->d, "/combat event name:\"%s\" at:start", x->name);
        return ENG_INVALID;
    }
    if (!eng_text_to_int(at, &v) || v < sp->lo || v > sp->hi)
        return enc_fail(c->d, ENG_INVALID,
                        sp->unique ? N_("at: start, end or a card from %lld "
                                        "to %lld")
                                   : N_("at: start, end or a count from %lld "
                                        "to %lld"),
                        (long long)sp->lo, (long long)sp->hi);
    if (sp->unique && entry_count_held(c->e, v))
        return enc_fail(c->d, ENG_EXISTS, "at: card %lld is taken: each "
                        "card of the deck is held once", (long long)v);
    x->at = ENC_ENTRY_COUNT;
    x->count = v;
    return ENG_OK;
}

/* The checks on what was typed, before anything is drawn or rolled. */
static enum eng_err entry_check(struct rs_call *c,
                                const struct enc_entry_req *q)
{
    struct encounter *e = c->e;
    if (enc_check_name(q->name, N_("event name"), ENC_MAX_ENTRY_NAME, c->d) !=
        ENG_OK)
        return c->d->code;
    if (enc_entry_find(e, q->name) != NULL)
        return enc_fail(c->d, ENG_EXISTS, "there is an event called %s "
                        "already", q->name);
    if (enc_by_name(e, q->name) != NULL)
        return enc_fail(c->d, ENG_EXISTS, "%s is a combatant: an event "
                        "needs a name of its own", q->name);
    if (q->note != NULL && q->note[0] != '\0' &&
        enc_check_name(q->note, N_("note"), ENC_MAX_ENTRY_NOTE, c->d) != ENG_OK)
        return c->d->code;
    if (q->dice != NULL && q->dice[0] != '\0') {
        size_t len = strlen(q->dice);
        if (len > ENC_MAX_ENTRY_DICE)
            return enc_fail(c->d, ENG_LIMIT, "dice: too long (limit is %d "
                            "bytes)", ENC_MAX_ENTRY_DICE);
        struct dice_expr *x = NULL;
        struct dice_diag dd;
        enc_diag_dice(c->d, &dd);
        enum eng_err err = dice_parse(q->dice, len, &x, &dd);
        dice_expr_free(x);
        if (err != ENG_OK)
            return enc_fail(c->d, err, "dice: `%s`: %s", q->dice, dd.msg);
    }
    if (q->kind != ENC_ENTRY_ONCE && q->round != 0)
        return enc_fail(c->d, ENG_INVALID, "round: only a one-shot "
                        "(kind:once) comes in one round");
    if (q->round < 0 || q->round > ENC_MAX_ROUNDS)
        return enc_fail(c->d, ENG_INVALID, "round: should be 1 to %d",
                        ENC_MAX_ROUNDS);
    if (q->kind == ENC_ENTRY_ONCE && q->round != 0 && q->round < e->round)
        return enc_fail(c->d, ENG_STATE, "round: round %d has gone by (this "
                        "is round %d)", (int)q->round, (int)e->round);
    if (e->nentries >= ENC_MAX_ENTRIES)
        return enc_fail(c->d, ENG_LIMIT, "too many events (limit is %d): "
                        "remove one first", ENC_MAX_ENTRIES);
    return ENG_OK;
}

enum eng_err enc_entry_add(struct rs_call *c, const struct enc_entry_req *q)
{
    struct encounter *e = c->e;
    if (e->status == ENC_ST_ENDED)
        return enc_fail(c->d, ENG_STATE, "the fight is over");
    enum eng_err err = entry_check(c, q);
    if (err != ENG_OK)
        return err;
    struct enc_entry x;
    memset(&x, 0, sizeof x);
    enc_copy(x.name, sizeof x.name, q->name);
    if (q->note != NULL)
        enc_copy(x.note, sizeof x.note, q->note);
    if (q->dice != NULL)
        enc_copy(x.dice, sizeof x.dice, q->dice);
    x.kind = (int32_t)q->kind;
    x.hidden = q->hidden;
    if (q->kind == ENC_ENTRY_ONCE)
        x.round = q->round != 0 ? q->round : e->round + 1;
    err = entry_place_of(c, &x, q->at);
    if (err != ENG_OK)
        return err;
    if (entry_passed(e, &x)) {
        if (q->kind == ENC_ENTRY_ONCE && x.round == e->round)
            return enc_fail(c->d, ENG_STATE, "round: its place in round %d "
                            "has passed: give round:%d", (int)e->round,
                            (int)e->round + 1);
        x.fired = e->round;     /* it comes up from the next round on */
    }
    x.id = e->next_id++;
    e->entries[e->nentries++] = x;
    struct rs_say_arg place = entry_place_arg(c, &x);
    struct enc_event *ev = RS_SAY(
        c, NULL, x.at == ENC_ENTRY_COUNT
                     ? N_("{} joins the order: a {} at {}")
                     : N_("{} joins the order: a {} at the {}"),
        RS_A_USER(x.name), RS_A_TEXT(enc_entry_kind_word(x.kind)), place);
    ev->secret = x.hidden;
    return ENG_OK;
}

enum eng_err enc_entry_remove(struct rs_call *c, const char *name)
{
    struct encounter *e = c->e;
    struct enc_entry *x = enc_entry_find(e, name);
    if (x == NULL)
        return enc_fail(c->d, ENG_NOTFOUND, "there is no event called %.*s",
                        ENC_MAX_ENTRY_NAME, name);
    if (x->id == e->entry_on) {
        enc_fail(c->d, ENG_STATE, "the turn is on %s: move on first",
                 x->name);
        enc_hint(c->d, "/combat next");
        return ENG_STATE;
    }
    struct enc_event *ev = RS_SAY(c, NULL, "{} leaves the order",
                                  RS_A_USER(x->name));
    ev->secret = x->hidden;
    int k = (int)(x - e->entries);
    memmove(x, x + 1, (size_t)(e->nentries - k - 1) * sizeof *x);
    e->nentries--;
    return ENG_OK;
}

/* ---- the turn stops on an event ----------------------------------------- */

static bool entry_due(const struct encounter *e, const struct enc_entry *x)
{
    return x->fired != e->round &&
           (x->kind != ENC_ENTRY_ONCE || x->round == e->round);
}

/* x comes up: the turn is on it, its note and its dice are said. */
static void entry_fire(struct rs_call *c, struct enc_entry *x)
{
    struct encounter *e = c->e;
    x->fired = e->round;
    e->entry_on = x->id;
    e->current = 0;
    struct rs_say_arg place = entry_place_arg(c, x);
    const char *kind = enc_entry_kind_word(x->kind);
    int roll = -1;
    if (x->dice[0] != '\0') {
        /* The dice were read when it was added; a roll that fails now
         * (past a limit by explosions) is left out, never a refusal of
         * the whole turn. */
        struct enc_diag keep = *c->d;
        struct rs_rolled r;
        if (rs_roll(c, NULL, x->name, x->dice, &r) == ENG_OK)
            roll = r.roll_idx;
        *c->d = keep;
        if (roll >= 0)
            c->r->rolls[roll].secret = x->hidden;
    }
    struct enc_event *ev;
    /* The dice as typed before the result, as every roll names what was
     * rolled; the note after it, so a number in the note never reads as
     * the result. */
    if (x->note[0] != '\0' && roll >= 0)
        ev = RS_SAY(c, NULL, "{} ({}, {}) rolls {}: {} · {}",
                    RS_A_USER(x->name), RS_A_TEXT(kind), place,
                    RS_A_TEXT(x->dice), RS_A_ROLL(roll), RS_A_USER(x->note));
    else if (x->note[0] != '\0')
        ev = RS_SAY(c, NULL, "{} ({}, {}): {}", RS_A_USER(x->name),
                    RS_A_TEXT(kind), place, RS_A_USER(x->note));
    else if (roll >= 0)
        ev = RS_SAY(c, NULL, "{} ({}, {}) rolls {}: {}", RS_A_USER(x->name),
                    RS_A_TEXT(kind), place, RS_A_TEXT(x->dice),
                    RS_A_ROLL(roll));
    else
        ev = RS_SAY(c, NULL, "{} ({}, {}) comes up", RS_A_USER(x->name),
                    RS_A_TEXT(kind), place);
    ev->secret = x->hidden;
}

/* The better of two due count events: the one the order reaches first,
 * the earlier added on a tie. */
static bool entry_sooner(const struct encounter *e, const struct enc_entry *a,
                         const struct enc_entry *b)
{
    if (b == NULL)
        return true;
    return entry_spec(e)->low_first ? a->count < b->count
                                    : a->count > b->count;
}

/* The first due event at place at (for counts: before value when
 * bounded). */
static struct enc_entry *entry_next_due(struct encounter *e,
                                        enum enc_entry_at at, bool bounded,
                                        int64_t value)
{
    struct enc_entry *best = NULL;
    for (int i = 0; i < e->nentries; i++) {
        struct enc_entry *x = &e->entries[i];
        if (x->at != (int32_t)at || !entry_due(e, x))
            continue;
        if (at != ENC_ENTRY_COUNT)
            return x;
        if (bounded && !enc_entry_precedes(e, x, value))
            continue;
        if (entry_sooner(e, x, best))
            best = x;
    }
    return best;
}

bool enc_entry_edge(struct rs_call *c, enum enc_entry_at at)
{
    struct encounter *e = c->e;
    if (e->nentries == 0 || e->round < 1)
        return false;
    struct enc_entry *x = NULL;
    if (at == ENC_ENTRY_END)
        x = entry_next_due(e, ENC_ENTRY_COUNT, false, 0);
    if (x == NULL)
        x = entry_next_due(e, at, false, 0);
    if (x == NULL)
        return false;
    entry_fire(c, x);
    return true;
}

bool enc_entry_before(struct rs_call *c, int64_t value)
{
    struct encounter *e = c->e;
    if (e->nentries == 0 || e->round < 1)
        return false;
    struct enc_entry *x = entry_next_due(e, ENC_ENTRY_COUNT, true, value);
    if (x == NULL)
        return false;
    entry_fire(c, x);
    return true;
}

int enc_entry_leave(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->entry_on == 0)
        return -1;
    int at = ENC_ENTRY_START;
    for (int i = 0; i < e->nentries; i++) {
        struct enc_entry *x = &e->entries[i];
        if (x->id != e->entry_on)
            continue;
        at = x->at;
        if (x->kind == ENC_ENTRY_ONCE) {
            /* Its round is done with it: the history keeps its line. */
            memmove(x, x + 1, (size_t)(e->nentries - i - 1) * sizeof *x);
            e->nentries--;
        }
        break;
    }
    e->entry_on = 0;
    return at;
}

enum eng_err enc_entry_busy(struct rs_call *c)
{
    const struct enc_entry *x = enc_entry_on(c->e);
    if (x == NULL)
        return ENG_OK;
    if (x->hidden)
        enc_fail(c->d, ENG_STATE, "the turn is on an event of the order");
    else
        enc_fail(c->d, ENG_STATE, "the turn is on the event %s", x->name);
    enc_hint(c->d, "/combat next moves on");
    return ENG_STATE;
}
