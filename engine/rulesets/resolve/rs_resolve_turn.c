/*
 * rs_resolve_turn.c - initiative and the fixed turn order with delays and
 * Blaze of Glory turns (rs_resolve_turn.h).
 *
 * The order is kept in e->order and walked by this file's own loop rather
 * than turn_fixed_next(), because a delay moves the current slot and a
 * Blaze of Glory turn is started out of order; every turn still starts and
 * ends through turn_start()/turn_end().
 */
#include "rs_resolve_turn.h"

#include <string.h>

#include "rs_resolve_harm.h"
#include "turn.h"

/* ---- initiative ---------------------------------------------------------- */

/* Give who its initiative score: a player character rolls 1D and adds its
 * rank; an NPC does not roll, and the log says so. */
static enum eng_err rsv_draw_init(struct rs_call *c, struct enc_combatant *who)
{
    /* The initiative rank: init: given at /combat add, else the stat. */
    int64_t rank = rs_init_number(who);
    who->ninit = 1;
    if (!rsv_is_pc(who)) {
        bool major = rsv_is_major(who);
        who->init[0] = rsv_init_score(false, major, rank, 0);
        /* A group shares its first member's score (rsv_begin). */
        const char *fmt =
            who->group == 0
                ? N_("{} does not roll: initiative score {} (rank {} + {} "
                     "for an NPC)")
                : N_("{} and their group do not roll: initiative score {} "
                     "(rank {} + {} for an NPC)");
        if (major)
            fmt = N_("{} does not roll: initiative score {} (rank {} + {} "
                     "for a major NPC)");
        RS_SAY(c, who, fmt, RS_A_WHO(who), RS_A_NUM(who->init[0]),
               RS_A_NUM(rank),
               RS_A_NUM(major ? RSV_MAJOR_INIT : RSV_NPC_INIT));
        return ENG_OK;
    }
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, "initiative", "1D", &r);
    if (err != ENG_OK)
        return err;
    who->init[0] = rsv_init_score(true, false, rank, (int)r.total);
    struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
    ev->a = who->init[0];
    ev->secret = who->hidden;
    rs_ev_roll(c, ev, r.roll_idx);
    rs_mod(c, ev, "initiative rank", rank, "");
    return ENG_OK;
}

static int rsv_cmp(const struct encounter *e, const struct enc_slot *a,
                   const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    return rsv_init_order(x->init[a->init_idx], rsv_is_pc(x), x->join_seq,
                          y->init[b->init_idx], rsv_is_pc(y), y->join_seq);
}

/* ---- the turn loop ------------------------------------------------------- */

/* What a turn start means here beyond turn_start(): fresh limits, a held
 * action lapses, an unused help may restore Resolve. */
static void rsv_turn_begins(struct rs_call *c, struct enc_combatant *who)
{
    struct rsv_comb *s = rsv_st(who);
    s->moved = false;
    s->actions = 0;
    s->frees = 0;
    s->momentum = false;
    s->fired = false;
    s->rally = false;
    if (s->held != RSV_HELD_NONE) {
        s->held = RSV_HELD_NONE;
        RS_SAY(c, who, "{}'s held action lapses", RS_A_WHO(who));
    }
    if (s->help) {
        s->help = false;
        s->rally = true;
        RS_SAY(c, who, "{}'s help went unused: they may give {} Resolve to "
               "someone who is not Wounded (/rally target:)", RS_A_WHO(who),
               RS_A_NUM(RSV_HELP_REGAIN));
    }
}

/* Start who's turn. A turn that was started and then delayed resumes: the
 * start-of-turn countdowns already ran for it, so conditions timed on its
 * start are marked to skip this second boundary. */
static void rsv_start(struct rs_call *c, struct enc_combatant *who)
{
    struct rsv_comb *s = rsv_st(who);
    bool resume = s->resume;
    if (resume) {
        for (int i = 0; i < c->e->ncs; i++) {
            struct enc_combatant *h = &c->e->cs[i];
            for (int k = 0; k < h->nconds; k++)
                if (h->conds[k].anchor == who->id &&
                    h->conds[k].expire == ENC_EXPIRE_START &&
                    h->conds[k].rounds > 0)
                    h->conds[k].applied_turn = c->e->turn_seq + 1;
        }
        s->resume = false;
    }
    turn_start(c, who);
    if (!resume)
        rsv_turn_begins(c, who);
}

/* End the current turn, if any, marking it acted. */
static void rsv_end(struct rs_call *c)
{
    struct enc_combatant *who = enc_current(c->e);
    if (who == NULL)
        return;
    who->flags |= ENC_CF_ACTED;
    rsv_st(who)->rally = false;
    turn_end(c);
}

static void rsv_round_start(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++)
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
}

/* From slot idx on, wrapping into new rounds, start the first turn of
 * someone who can act (turn.c's fixed walk, with this ruleset's start). */
static void rsv_walk(struct rs_call *c, int idx)
{
    struct encounter *e = c->e;
    for (int steps = 0; steps <= 2 * e->norder; steps++) {
        /* Events of the order stop the walk as turn.c's fixed walk. */
        if (idx >= e->norder) {
            if (enc_entry_edge(c, ENC_ENTRY_END)) {
                e->turn_idx = e->norder - 1;
                return;
            }
            idx = 0;
            turn_round(c);
            rsv_round_start(c);
            if (enc_entry_edge(c, ENC_ENTRY_START)) {
                e->turn_idx = -1;
                return;
            }
        }
        if (e->norder == 0)
            break;
        if (enc_entry_before(c, turn_slot_value(e, idx))) {
            e->turn_idx = idx - 1;
            return;
        }
        struct enc_combatant *who = enc_by_id(e, e->order[idx].id);
        e->turn_idx = idx;
        if (who != NULL && turn_can_act(who) && !rsv_is_out(who)) {
            rsv_start(c, who);
            return;
        }
        if (who != NULL) {
            turn_skip(c, who);
            who->flags |= ENC_CF_ACTED;
        }
        idx++;
    }
    e->current = 0;
    rs_say0(c, NULL, "nobody is able to act");
}

enum eng_err rsv_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        /* A group shares its first member's score (NPCs of one group have
         * it anyway; grouped players share one roll). */
        const struct enc_combatant *lead = rs_group_lead(e, who);
        if (lead != NULL) {
            who->init[0] = lead->init[0];
            who->ninit = 1;
            continue;
        }
        enum eng_err err = rsv_draw_init(c, who);
        if (err != ENG_OK)
            return err;
    }
    turn_order_build(e, rsv_cmp);
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->current = 0;
    rsv_est(e)->blaze = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    rsv_walk(c, e->norder);
    return ENG_OK;
}

/* Whether someone must still choose a Fallen Fate. */
static const struct enc_combatant *rsv_fate_waiting(const struct encounter *e)
{
    for (int i = 0; i < e->ncs; i++)
        if (rsv_st(&e->cs[i])->fate != RSV_FATE_NONE)
            return &e->cs[i];
    return NULL;
}

enum eng_err rsv_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    const struct enc_combatant *due = rsv_fate_waiting(e);
    if (due != NULL) {
        enc_fail(c->d, ENG_STATE, "%s must first choose a Fallen Fate",
                 due->name);
        enc_hint(c->d, "/fate name:\"%s\" fate:push (or never, "
                 "blaze, tragic, ignore)", due->name);
        return ENG_STATE;
    }
    enc_entry_leave(c);
    struct enc_combatant *cur = enc_current(e);
    if (cur != NULL && rsv_est(e)->blaze == cur->id) {
        /* The Blaze of Glory turn is over: its hero dies, and play goes on
         * after the turn it interrupted. */
        rsv_est(e)->blaze = 0;
        rsv_end(c);
        RS_SAY(c, cur, "{} falls at the end of their Blaze of Glory",
               RS_A_WHO(cur));
        rsv_take_out(c, cur, RSV_OUT_DEAD);
        rsv_walk(c, e->turn_idx + 1);
        return ENG_OK;
    }
    rsv_end(c);
    rsv_walk(c, e->turn_idx + 1);
    return ENG_OK;
}

void rsv_blaze_turn(struct rs_call *c, struct enc_combatant *who)
{
    rsv_end(c);
    rsv_est(c->e)->blaze = who->id;
    rsv_st(who)->resume = false;
    rsv_start(c, who);
}

enum eng_err rsv_delay_turn(struct rs_call *c, struct enc_combatant *who,
                            struct enc_combatant *target)
{
    struct encounter *e = c->e;
    int from = e->turn_idx, to = -1;
    if (from < 0 || from >= e->norder || e->order[from].id != who->id)
        return enc_fail(c->d, ENG_STATE, "%s is not in their own place in "
                        "the order (a Blaze of Glory turn cannot be "
                        "delayed)", who->name);
    for (int i = from + 1; i < e->norder; i++)
        if (e->order[i].id == target->id) {
            to = i;
            break;
        }
    if (to < 0)
        return enc_fail(c->d, ENG_STATE, "%s has no turn left this round",
                        target->name);
    struct enc_slot mine = e->order[from];
    memmove(&e->order[from], &e->order[from + 1],
            (size_t)(to - from) * sizeof e->order[0]);
    e->order[to] = mine;
    /* The turn pauses rather than ends: no end-of-turn countdown, not
     * marked acted; it resumes in its new slot. */
    rsv_st(who)->resume = true;
    e->current = 0;
    RS_SAY(c, who, "{} delays, to act right after {}", RS_A_WHO(who),
           RS_A_WHO(target));
    rsv_walk(c, from);
    return ENG_OK;
}

enum eng_err rsv_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    if (e->norder >= ENC_MAX_ORDER)
        return enc_fail(c->d, ENG_LIMIT, "the turn order is full (limit is "
                        "%d)", ENC_MAX_ORDER);
    enum eng_err err = rsv_draw_init(c, who);
    if (err != ENG_OK)
        return err;
    /* Slot in before the first later turn it outranks; a place already
     * passed this round means it first acts next round. The order may have
     * been changed by delays, so it is not re-sorted. */
    struct enc_slot mine = {who->id, 0};
    int at = e->norder;
    for (int i = 0; i < e->norder; i++)
        if (rsv_cmp(e, &mine, &e->order[i]) < 0) {
            at = i;
            break;
        }
    memmove(&e->order[at + 1], &e->order[at],
            (size_t)(e->norder - at) * sizeof e->order[0]);
    e->order[at] = mine;
    e->norder++;
    if (at <= e->turn_idx) {
        e->turn_idx++;
        who->flags |= ENC_CF_ACTED;
    }
    return ENG_OK;
}

enum eng_err rsv_pick(struct rs_call *c, struct enc_combatant *who)
{
    (void)who;
    enc_fail(c->d, ENG_STATE, "resolve keeps a fixed order: nobody is "
             "picked; a character may delay instead");
    enc_hint(c->d, "/delay after:<name>");
    return ENG_STATE;
}
