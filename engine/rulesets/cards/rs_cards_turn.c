/*
 * rs_cards_turn.c - the `cards` ruleset: the initiative deck, the turn
 * order, swaps and ambushes.
 *
 * Turn order: every card held is a slot, sorted lowest card first (group
 * members share their card and follow in join order). A combatant keeps a
 * bit per card it has played this round, and the next turn is always the
 * first slot in card order not played yet; a new round starts when none is
 * left. So a swap in the middle of a round never gives anybody a second turn
 * or takes one away: who swaps onto a card already passed, not having acted,
 * acts right after the current turn.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_cards.h"
#include "turn.h"

/* ---- the deck ------------------------------------------------------------ */

/* The group leader of who: the first combatant of its group, or itself. */
static struct enc_combatant *cards_lead(struct encounter *e,
                                        struct enc_combatant *who)
{
    if (who->group == 0)
        return who;
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].group == who->group)
            return &e->cs[i];
    return who;
}

static int cards_wanted(const struct enc_combatant *who)
{
    int64_t k = enc_stat_or(who, "cards", 1);
    return k < 1 ? 1 : k > CARDS_MAX_HELD ? CARDS_MAX_HELD : (int)k;
}

struct cards_deck {
    int card[CARDS_DECK];
    int n;
};

/* The cards nobody holds, in order. */
static void cards_deck_rest(const struct encounter *e, struct cards_deck *d)
{
    bool held[CARDS_DECK + 1] = {false};
    for (int i = 0; i < e->ncs; i++)
        for (int k = 0; k < e->cs[i].ninit; k++)
            if (e->cs[i].init[k] >= 1 && e->cs[i].init[k] <= CARDS_DECK)
                held[e->cs[i].init[k]] = true;
    d->n = 0;
    for (int v = 1; v <= CARDS_DECK; v++)
        if (!held[v])
            d->card[d->n++] = v;
}

static int cards_draw(struct cards_deck *d, struct eng_rng *rng)
{
    int i = (int)eng_rng_below(rng, (uint64_t)d->n);
    int v = d->card[i];
    d->card[i] = d->card[--d->n];
    return v;
}

static void cards_sort(int64_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int j = i - 1;
        for (; j >= 0 && v[j] > x; j--)
            v[j + 1] = v[j];
        v[j + 1] = x;
    }
}

/* Deal want cards to lead (extra: draw one more and keep the best, the
 * other goes back to the deck). Emits the draw. */
static void cards_deal(struct rs_call *c, struct cards_deck *d,
                       struct enc_combatant *lead, int want, bool extra)
{
    int64_t got[CARDS_MAX_HELD + 1];
    int n = want + (extra && d->n > want ? 1 : 0);
    for (int i = 0; i < n; i++)
        got[i] = cards_draw(d, c->rng);
    cards_sort(got, n);
    char text[96];
    int at = snprintf(text, sizeof text, "drew");
    for (int i = 0; i < n; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, "%s %lld",
                       i ? "," : "", (long long)got[i]);
    if (n > want) {
        d->card[d->n++] = (int)got[want];
        snprintf(text + at, sizeof text - (size_t)at, " (extra draw: keeps "
                 "the best, %lld goes back)", (long long)got[want]);
    } else if (extra) {
        snprintf(text + at, sizeof text - (size_t)at, " (no card left for "
                 "the extra draw)");
    }
    memcpy(lead->init, got, (size_t)want * sizeof got[0]);
    lead->ninit = want;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, lead->id);
    ev->a = got[0];
    ev->secret = lead->hidden;
    ev->text = enc_result_strdup(c->r, text, 4096);
}

/* Whether lead draws an extra card at the deal. */
static bool cards_extra(const struct encounter *e,
                        const struct enc_combatant *lead, int surprise)
{
    if (surprise >= 0)
        return lead->side == surprise;
    int side = (int)e->rs[CE_AMBUSH_SIDE] - 1;
    switch ((enum cards_ambush_result)e->rs[CE_AMBUSH_RESULT]) {
    case CARDS_AMBUSH_WON:
    case CARDS_AMBUSH_GRANTED:
        return lead->side == side;
    case CARDS_AMBUSH_LOST:
        return lead->side != side;
    case CARDS_AMBUSH_NONE:
        break;
    }
    return false;
}

/* ---- the turn order ------------------------------------------------------ */

static int cards_cmp(const struct encounter *e, const struct enc_slot *a,
                     const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    int64_t vx = x->init[a->init_idx], vy = y->init[b->init_idx];
    if (vx != vy)
        return vx < vy ? -1 : 1;
    if (x->join_seq != y->join_seq)
        return x->join_seq < y->join_seq ? -1 : 1;
    return a->init_idx < b->init_idx ? -1 : a->init_idx > b->init_idx;
}

static bool cards_played(const struct encounter *e, const struct enc_slot *s)
{
    const struct enc_combatant *who = enc_by_id_c(e, s->id);
    return who == NULL || (who->rs[CC_PLAYED] >> s->init_idx) & 1;
}

void cards_round_start(struct rs_call *c)
{
    struct encounter *e = c->e;
    e->rs[CE_ROUND_ACTED] = 0;
    e->rs[CE_OFFER_A] = e->rs[CE_OFFER_B] = 0;
    for (int i = 0; i < e->ncs; i++) {
        int64_t *rs = e->cs[i].rs;
        rs[CC_SLOW] = rs[CC_FAST] = rs[CC_PLAYED] = 0;
        rs[CC_DEF_SUCC] = rs[CC_DEF_KIND] = rs[CC_DEF_VS] = 0;
        if (e->round > 1)
            rs[CC_FIRST_BONUS] = 0;
    }
    cards_effects_tick(c);
}

/* Start the first turn not played this round, starting new rounds as
 * needed; combatants who cannot act are skipped (their turn passes). */
static void cards_advance(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int steps = 0; steps <= 2 * e->norder + 2; steps++) {
        int idx = -1;
        for (int i = 0; i < e->norder && idx < 0; i++)
            if (!cards_played(e, &e->order[i]))
                idx = i;
        if (idx < 0) {
            if (e->norder == 0)
                break;
            e->round++;
            enc_emit(c->r, ENC_EV_ROUND, 0)->a = e->round;
            cards_round_start(c);
            continue;
        }
        struct enc_combatant *who = enc_by_id(e, e->order[idx].id);
        e->turn_idx = idx;
        who->rs[CC_PLAYED] |= (int64_t)1 << e->order[idx].init_idx;
        if (turn_can_act(who)) {
            turn_start(c, who);
            return;
        }
        turn_skip(c, who);
    }
    e->current = 0;
    cards_say(c, 0, "nobody is able to act");
}

/* Rebuild the order after cards changed hands; the turn index follows the
 * current combatant's slot. */
static void cards_reorder(struct encounter *e)
{
    uint32_t cur = e->current;
    int cur_k = 0;
    if (e->turn_idx >= 0 && e->turn_idx < e->norder)
        cur_k = e->order[e->turn_idx].init_idx;
    turn_order_build(e, cards_cmp);
    for (int i = 0; i < e->norder; i++)
        if (e->order[i].id == cur && e->order[i].init_idx == cur_k)
            e->turn_idx = i;
}

enum eng_err cards_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    int surprise = -1;
    const char *s = rs_opt(c->opts, c->nopts, "surprise");
    if (s != NULL) {
        surprise = enc_side_find(e, s);
        if (surprise < 0)
            return enc_fail(c->d, ENG_NOTFOUND, "no side named %.32s", s);
    }
    /* Count the cards first: nothing changes when they do not suffice. */
    int need = 0;
    for (int i = 0; i < e->ncs; i++)
        if (cards_lead(e, &e->cs[i]) == &e->cs[i])
            need += cards_wanted(&e->cs[i]);
    if (need > CARDS_DECK) {
        enc_fail(c->d, ENG_LIMIT, "%d cards are needed but the deck has %d",
                 need, CARDS_DECK);
        enc_hint(c->d, "let identical NPCs share a card: /combat add "
                 "name:Wolf count:4 group:true");
        return ENG_LIMIT;
    }
    for (int i = 0; i < e->ncs; i++)
        e->cs[i].ninit = 0;
    struct cards_deck d;
    cards_deck_rest(e, &d);
    /* Those with an extra draw go first, so the card they put back is in
     * the deck for everybody else. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < e->ncs; i++) {
            struct enc_combatant *who = &e->cs[i];
            if (cards_lead(e, who) != who)
                continue;
            bool extra = cards_extra(e, who, surprise);
            if (extra != (pass == 0))
                continue;
            cards_deal(c, &d, who, cards_wanted(who), extra);
        }
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        struct enc_combatant *lead = cards_lead(e, who);
        if (lead != who) {
            memcpy(who->init, lead->init, sizeof who->init);
            who->ninit = lead->ninit;
        }
        if (surprise < 0 &&
            e->rs[CE_AMBUSH_RESULT] == CARDS_AMBUSH_WON &&
            who->side == (int)e->rs[CE_AMBUSH_SIDE] - 1)
            who->rs[CC_FIRST_BONUS] = e->rs[CE_AMBUSH_BONUS];
    }
    turn_order_build(e, cards_cmp);
    e->status = ENC_ST_RUNNING;
    e->round = 1;
    e->turn_idx = -1;
    e->current = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    enc_emit(c->r, ENC_EV_ROUND, 0)->a = 1;
    cards_round_start(c);
    cards_advance(c);
    return ENG_OK;
}

enum eng_err cards_next(struct rs_call *c)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (c->e->current != 0)
        c->e->rs[CE_ROUND_ACTED] = 1;
    turn_end(c);
    cards_advance(c);
    return ENG_OK;
}

enum eng_err cards_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    struct enc_combatant *lead = cards_lead(e, who);
    memset(who->rs, 0, sizeof who->rs);
    if (lead != who && lead->ninit > 0) {
        memcpy(who->init, lead->init, sizeof who->init);
        who->ninit = lead->ninit;
        who->rs[CC_PLAYED] = lead->rs[CC_PLAYED];
    } else {
        struct cards_deck d;
        who->ninit = 0;
        cards_deck_rest(e, &d);
        int want = cards_wanted(who);
        if (d.n < want) {
            enc_fail(c->d, ENG_LIMIT, "the deck has %d card%s left and %s "
                     "needs %d", d.n, d.n == 1 ? "" : "s", who->name, want);
            enc_hint(c->d, "add it to a group of identical NPCs "
                     "(group:true), or remove someone first");
            return ENG_LIMIT;
        }
        cards_deal(c, &d, who, want, false);
        /* Cards already passed this round wait for the next one. */
        const struct enc_combatant *cur = enc_current(e);
        if (cur != NULL && e->turn_idx >= 0 && e->turn_idx < e->norder) {
            int64_t now = cur->init[e->order[e->turn_idx].init_idx];
            for (int k = 0; k < who->ninit; k++)
                if (who->init[k] < now)
                    who->rs[CC_PLAYED] |= (int64_t)1 << k;
        }
    }
    cards_reorder(e);
    return ENG_OK;
}

/* ---- swaps --------------------------------------------------------------- */

/* Which of who's cards the option names (by value); the only one when
 * absent and who holds one. -1 with d set otherwise. */
static int cards_pick_card(struct rs_call *c, struct enc_combatant *who,
                           const char *opt)
{
    int64_t v;
    if (rs_opt_int(c, opt, 1, CARDS_DECK, 0, &v) != ENG_OK)
        return -1;
    if (v == 0) {
        if (who->ninit == 1)
            return 0;
        enc_fail(c->d, ENG_INVALID, "%s holds %d cards: say which with "
                 "%s:", who->name, who->ninit, opt);
        return -1;
    }
    for (int k = 0; k < who->ninit; k++)
        if (who->init[k] == v)
            return k;
    enc_fail(c->d, ENG_NOTFOUND, "%s does not hold card %lld", who->name,
             (long long)v);
    return -1;
}

/* Give every holder of card from (who and its group) card to. */
static void cards_move_card(struct encounter *e, struct enc_combatant *who,
                            int64_t from, int64_t to)
{
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        if (o != who && (who->group == 0 || o->group != who->group))
            continue;
        for (int k = 0; k < o->ninit; k++)
            if (o->init[k] == from) {
                o->init[k] = to;
                break;
            }
    }
}

enum eng_err cards_do_swap(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *a, *b;
    enum eng_err err = rs_opt_combatant(c, "a", &a);
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "b", &b);
    if (err != ENG_OK)
        return err;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "cards are dealt at /combat begin; "
                        "there is nothing to swap yet");
    if (a == b || (a->group != 0 && a->group == b->group))
        return enc_fail(c->d, ENG_INVALID, "%s and %s hold the same card",
                        a->name, b->name);
    err = rs_require_actor(c, a);
    if (err != ENG_OK)
        return err;
    int ka = cards_pick_card(c, a, "give");
    if (ka < 0)
        return c->d->code;
    int kb = cards_pick_card(c, b, "card");
    if (kb < 0)
        return c->d->code;
    bool forced = a->rs[CC_SWAP_VS] == (int64_t)b->id;
    if (!forced) {
        if (a->owner == 0 || b->owner == 0) {
            enc_fail(c->d, ENG_STATE, "only two player characters swap "
                     "by agreement; forcing an opponent takes extra "
                     "successes (an attack, dodge or parry)");
            return ENG_STATE;
        }
        if (e->rs[CE_ROUND_ACTED])
            return enc_fail(c->d, ENG_STATE, "cards may only be swapped at "
                            "the start of a round, before anyone has acted");
        bool offered = e->rs[CE_OFFER_A] == (int64_t)b->id &&
                       e->rs[CE_OFFER_B] == (int64_t)a->id &&
                       e->rs[CE_OFFER_ROUND] == e->round;
        if (!c->is_gm && b->owner != c->user && !offered) {
            e->rs[CE_OFFER_A] = a->id;
            e->rs[CE_OFFER_B] = b->id;
            e->rs[CE_OFFER_ROUND] = e->round;
            cards_say(c, a->id, "%s offers to swap cards with %s; %s's "
                      "player accepts with /combat swap a:%s b:%s", a->name,
                      b->name, b->name, b->name, a->name);
            return ENG_OK;
        }
    }
    int64_t va = a->init[ka], vb = b->init[kb];
    cards_move_card(e, a, va, -1);
    cards_move_card(e, b, vb, va);
    cards_move_card(e, a, -1, vb);
    if (forced)
        a->rs[CC_SWAP_VS] = 0;
    e->rs[CE_OFFER_A] = e->rs[CE_OFFER_B] = 0;
    cards_say(c, a->id, "%s and %s swap cards: %s now holds %lld, %s %lld%s",
              a->name, b->name, a->name, (long long)vb, b->name,
              (long long)va, forced ? " (forced)" : "");
    cards_reorder(e);
    /* At the start of a round nobody has acted: the round begins again
     * from the lowest card. */
    if (!e->rs[CE_ROUND_ACTED] && e->norder > 0) {
        struct enc_combatant *cur = enc_current(e);
        int first = -1;
        for (int i = 0; i < e->norder && first < 0; i++) {
            const struct enc_combatant *o = enc_by_id_c(e, e->order[i].id);
            if (o != NULL && turn_can_act(o))
                first = i;
        }
        if (cur != NULL && first >= 0 && first != e->turn_idx) {
            cur->rs[CC_PLAYED] &=
                ~((int64_t)1 << e->order[e->turn_idx].init_idx);
            turn_end(c);
            cards_advance(c);
        }
    }
    return ENG_OK;
}

/* ---- ambush -------------------------------------------------------------- */

bool cards_ambush(int sneak, int watch, int *extra)
{
    int net = sneak - watch;
    *extra = net > 1 ? net - 1 : 0;
    return net >= 1;
}

/* /combat ambush side: [name: pool:|skill:] [watch:|against:] [auto:] */
enum eng_err cards_do_ambush(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may set up an ambush");
    if (e->status != ENC_ST_SETUP)
        return enc_fail(c->d, ENG_STATE, "an ambush is settled before "
                        "/combat begin deals the cards");
    const char *sname = rs_opt(c->opts, c->nopts, "side");
    if (sname == NULL)
        return enc_fail(c->d, ENG_INVALID, "side: is required (the "
                        "ambushers' side)");
    int side = enc_side_find(e, sname);
    if (side < 0)
        return enc_fail(c->d, ENG_NOTFOUND, "no side named %.32s", sname);
    bool automatic;
    enum eng_err err = rs_opt_bool(c, "auto", false, &automatic);
    if (err != ENG_OK)
        return err;
    if (automatic) {
        e->rs[CE_AMBUSH_SIDE] = side + 1;
        e->rs[CE_AMBUSH_RESULT] = CARDS_AMBUSH_GRANTED;
        e->rs[CE_AMBUSH_BONUS] = 0;
        cards_say(c, 0, "the Director grants %s an extra initiative card",
                  e->sides[side].name);
        return ENG_OK;
    }
    struct enc_combatant *sneaker, *watcher = NULL;
    err = rs_opt_combatant(c, "name", &sneaker);
    if (err != ENG_OK)
        return err;
    if (sneaker->side != side)
        return enc_fail(c->d, ENG_INVALID, "%s is not on side %s",
                        sneaker->name, e->sides[side].name);
    int base, watch_base = 0;
    err = cards_opt_pool(c, sneaker, "sneak", &base);
    if (err != ENG_OK)
        return err;
    if (rs_opt(c->opts, c->nopts, "against") != NULL) {
        err = rs_opt_combatant(c, "against", &watcher);
        if (err != ENG_OK)
            return err;
        const char *sk = rs_opt(c->opts, c->nopts, "watch_skill");
        err = cards_skill(c, watcher, sk ? sk : "track", &watch_base);
        if (err != ENG_OK)
            return err;
    }
    int64_t wp;
    err = rs_opt_int(c, "watch", 0, CARDS_MAX_POOL, -1, &wp);
    if (err != ENG_OK)
        return err;
    if (wp >= 0)
        watch_base = (int)wp;
    else if (watcher == NULL)
        return enc_fail(c->d, ENG_INVALID, "give the watchers' Track or "
                        "Read dice (watch:N) or who watches (against:)");
    int ss, ws;
    err = cards_test(c, sneaker, "sneak", base, 0, true, false, &ss);
    if (err != ENG_OK)
        return err;
    if (watcher != NULL)
        err = cards_test(c, watcher, "watch", watch_base, 0, true, false,
                         &ws);
    else
        err = cards_roll_pool(c, "watch", watch_base, &ws, NULL);
    if (err != ENG_OK)
        return err;
    int extra;
    bool won = cards_ambush(ss, ws, &extra);
    e->rs[CE_AMBUSH_SIDE] = side + 1;
    e->rs[CE_AMBUSH_RESULT] = won ? CARDS_AMBUSH_WON : CARDS_AMBUSH_LOST;
    e->rs[CE_AMBUSH_BONUS] = extra;
    if (won)
        cards_say(c, sneaker->id, "the ambush works (%d against %d): %s "
                  "draws an extra card; +%d to each ambusher's first "
                  "maneuver", ss, ws, e->sides[side].name, extra);
    else
        cards_say(c, sneaker->id, "the ambush is detected (%d against %d): "
                  "their opponents draw an extra card", ss, ws);
    return ENG_OK;
}
