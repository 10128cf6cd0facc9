/*
 * rs_cards_turn.c - the `cards` ruleset: the initiative deck, the deal and
 * the turn order.
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

#include "rs_cards.h"
#include "turn.h"

/* ---- the deck ------------------------------------------------------------ */

/* The group leader of who: the first combatant of its group, or itself. */
static struct enc_combatant *cards_lead(struct encounter *e,
                                        struct enc_combatant *who)
{
    const struct enc_combatant *lead = rs_group_lead(e, who);
    return lead != NULL ? enc_by_id(e, lead->id) : who;
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
    /* A hazard's own card (enc_entry.h) is out of the deck too. */
    for (int i = 0; i < e->nentries; i++)
        if (e->entries[i].at == ENC_ENTRY_COUNT &&
            e->entries[i].count >= 1 && e->entries[i].count <= CARDS_DECK)
            held[e->entries[i].count] = true;
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

/* Sort the cards drawn, lowest first, keeping each one's roll with it. */
static void cards_sort(int64_t *v, int *idx, int n)
{
    for (int i = 1; i < n; i++) {
        int64_t x = v[i];
        int xi = idx[i];
        int j = i - 1;
        for (; j >= 0 && v[j] > x; j--) {
            v[j + 1] = v[j];
            idx[j + 1] = idx[j];
        }
        v[j + 1] = x;
        idx[j + 1] = xi;
    }
}

/* How a deal ends: as drawn, with an extra draw (one card goes back), or
 * with an extra draw the deck had no card for. */
enum cards_deal_how {
    CARDS_DEAL_PLAIN,
    CARDS_DEAL_EXTRA,
    CARDS_DEAL_NONE_LEFT,
};

/* The deal's sentence for one to three cards, each a whole template for
 * the catalogs: [cards - 1][for a group][how]. One card drawn is never an
 * extra draw (that draws two). */
#define CARDS_DEAL_SAID 3
static const char *const cards_deal_say[CARDS_DEAL_SAID][2][3] = {
    {{N_("{} draws card {}."), NULL,
      N_("{} draws card {} (no card is left for the extra draw).")},
     {N_("{} draws card {} for its group."), NULL,
      N_("{} draws card {} for its group (no card is left for the extra "
         "draw).")}},
    {{N_("{} draws cards {} and {}."),
      N_("{} draws cards {} and {} with an extra draw: {} goes back into "
         "the deck."),
      N_("{} draws cards {} and {} (no card is left for the extra draw).")},
     {N_("{} draws cards {} and {} for its group."),
      N_("{} draws cards {} and {} for its group with an extra draw: {} "
         "goes back into the deck."),
      N_("{} draws cards {} and {} for its group (no card is left for the "
         "extra draw).")}},
    {{N_("{} draws cards {}, {} and {}."),
      N_("{} draws cards {}, {} and {} with an extra draw: {} goes back "
         "into the deck."),
      N_("{} draws cards {}, {} and {} (no card is left for the extra "
         "draw).")},
     {N_("{} draws cards {}, {} and {} for its group."),
      N_("{} draws cards {}, {} and {} for its group with an extra draw: {} "
         "goes back into the deck."),
      N_("{} draws cards {}, {} and {} for its group (no card is left for "
         "the extra draw).")}},
};

/* The same sentence for more cards (a creature holding four),
 * spelt out in fmt (size bytes): the catalogs have no template for it, so
 * it reads in English. Returns fmt. */
static const char *cards_deal_many(char *fmt, size_t size, int n, bool group,
                                   enum cards_deal_how how)
{
    size_t at = (size_t)snprintf(fmt, size, "{} draws cards ");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(fmt + at, size - at, "%s{}",
                               i == 0 ? "" : i == n - 1 ? " and " : ", ");
    if (group)
        at += (size_t)snprintf(fmt + at, size - at, " for its group");
    if (how == CARDS_DEAL_EXTRA)
        at += (size_t)snprintf(fmt + at, size - at, " with an extra "
                               "draw: {} goes back into the deck");
    else if (how == CARDS_DEAL_NONE_LEFT)
        at += (size_t)snprintf(fmt + at, size - at, " (no card is "
                               "left for the extra draw)");
    snprintf(fmt + at, size - at, ".");
    return fmt;
}

/* Deal want cards to lead (extra: draw one more and keep the best, the
 * other goes back to the deck), and say what was drawn: every card is a
 * roll of the result, so the table sees the deal as it sees dice. The
 * cards are as public as at the table ("the Director puts the cards of
 * NPCs in front of them"); only a hidden combatant's are the GM's. */
static void cards_deal(struct rs_call *c, struct cards_deck *d,
                       struct enc_combatant *lead, int want, bool extra)
{
    int64_t got[CARDS_MAX_HELD + 1];
    int idx[CARDS_MAX_HELD + 1];
    int n = want + (extra && d->n > want ? 1 : 0);
    for (int i = 0; i < n; i++) {
        got[i] = cards_draw(d, c->rng);
        idx[i] = enc_add_plain_roll(c->r, N_("card"), got[i],
                                    lead->hidden);
    }
    cards_sort(got, idx, n);
    memcpy(lead->init, got, (size_t)want * sizeof got[0]);
    lead->ninit = want;
    bool group = false;
    for (int i = 0; i < c->e->ncs && !group; i++)
        group = &c->e->cs[i] != lead && lead->group != 0 &&
                c->e->cs[i].group == lead->group;
    /* The best is the lowest: with an extra draw the highest goes back to
     * the deck. */
    enum cards_deal_how how = n > want ? CARDS_DEAL_EXTRA
                              : extra  ? CARDS_DEAL_NONE_LEFT
                                       : CARDS_DEAL_PLAIN;
    if (how == CARDS_DEAL_EXTRA)
        d->card[d->n++] = (int)got[want];
    /* The sentence has a hole per card: at most CARDS_MAX_HELD + 1. */
    struct rs_say_arg args[CARDS_MAX_HELD + 4];
    int na = 0;
    args[na++] = RS_A_WHO(lead);
    for (int i = 0; i < n; i++)
        args[na++] = RS_A_ROLL(idx[i]);
    if (how == CARDS_DEAL_EXTRA)
        args[na++] = RS_A_NUM(got[want]);
    char fmt[160];
    const char *say = n > 0 && n <= CARDS_DEAL_SAID
                          ? cards_deal_say[n - 1][group][how]
                          : cards_deal_many(fmt, sizeof fmt, n, group, how);
    rs_say_args(c, lead, say, args, na);
}

/* Whether lead draws an extra card at the deal. */
static bool cards_extra(const struct encounter *e,
                        const struct enc_combatant *lead, int surprise)
{
    const struct cards_enc *st = CARDS_E(e);
    if (surprise >= 0)
        return lead->side == surprise;
    int side = st->ambush_side - 1;
    switch ((enum cards_ambush_result)st->ambush_result) {
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
    return who == NULL || (CARDS_C(who)->played >> s->init_idx) & 1;
}

int cards_turn_card(const struct encounter *e,
                    const struct enc_combatant *who)
{
    if (e->current != who->id || e->turn_idx < 0 || e->turn_idx >= e->norder ||
        e->order[e->turn_idx].id != who->id)
        return -1;
    return e->turn_idx;
}

void cards_round_start(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct cards_enc *est = CARDS_E(e);
    est->round_acted = false;
    est->offer_a = est->offer_b = 0;
    for (int i = 0; i < e->ncs; i++) {
        struct cards_comb *st = CARDS_C(&e->cs[i]);
        st->slow = st->fast = st->turn_slow = st->turn_fast = 0;
        st->played = 0;
        st->def_succ = st->def_kind = 0;
        st->def_vs = 0;
        if (e->round > 1)
            st->first_bonus = 0;
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
            /* An event of the order stops the deal's walk; played bits
             * bring the next call back to the same place. */
            if (enc_entry_edge(c, ENC_ENTRY_END))
                return;
            turn_round(c);
            cards_round_start(c);
            if (enc_entry_edge(c, ENC_ENTRY_START))
                return;
            continue;
        }
        if (enc_entry_before(c, turn_slot_value(e, idx)))
            return;
        struct enc_combatant *who = enc_by_id(e, e->order[idx].id);
        struct cards_comb *st = CARDS_C(who);
        e->turn_idx = idx;
        st->played |= (int32_t)1 << e->order[idx].init_idx;
        if (turn_can_act(who)) {
            /* A turn of its own: one slow and one fast maneuver. */
            st->turn_slow = st->turn_fast = 0;
            turn_start(c, who);
            return;
        }
        turn_skip(c, who);
    }
    e->current = 0;
    rs_say0(c, NULL, "Nobody is able to act.");
}

/* Rebuild the order after cards changed hands or a combatant joined; the
 * turn index follows the current combatant's slot. */
void cards_reorder(struct encounter *e)
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

/* Start the round again from the lowest card held by someone able to
 * act, when that is not whose turn it is: after a swap at the start of a
 * round, before anyone has acted. */
void cards_restart_round(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct enc_combatant *cur = enc_current(e);
    int first = -1;
    for (int i = 0; i < e->norder && first < 0; i++) {
        const struct enc_combatant *o = enc_by_id_c(e, e->order[i].id);
        if (o != NULL && turn_can_act(o))
            first = i;
    }
    if (cur == NULL || first < 0 || first == e->turn_idx)
        return;
    CARDS_C(cur)->played &= ~((int32_t)1 << e->order[e->turn_idx].init_idx);
    turn_end(c);
    cards_advance(c);
}

enum eng_err cards_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    const struct cards_enc *est = CARDS_E(e);
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    /* /combat begin's options are the ones this system adds to it. */
    struct rs_arg args[RS_MAX_EXT_OPTS];
    int nargs = 0;
    enum eng_err err = rs_bind(c, "/combat begin",
                               rs_ext_opts(&rs_cards, "combat begin"),
                               c->opts, c->nopts, args, RS_MAX_EXT_OPTS,
                               &nargs, c->d);
    if (err != ENG_OK)
        return err;
    const struct rs_arg *sa = rs_arg_in(args, nargs, "surprise");
    int surprise = sa != NULL ? sa->side : -1;
    /* Count the cards first: nothing changes when they do not suffice. */
    int need = 0, deck = CARDS_DECK;
    for (int i = 0; i < e->ncs; i++)
        if (cards_lead(e, &e->cs[i]) == &e->cs[i])
            need += cards_wanted(&e->cs[i]);
    for (int i = 0; i < e->nentries; i++)
        deck -= e->entries[i].at == ENC_ENTRY_COUNT;
    if (need > deck) {
        enc_fail(c->d, ENG_LIMIT, "%d cards are needed but the deck has %d",
                 need, deck);
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
        if (surprise < 0 && est->ambush_result == CARDS_AMBUSH_WON &&
            who->side == est->ambush_side - 1)
            CARDS_C(who)->first_bonus = est->ambush_bonus;
    }
    turn_order_build(e, cards_cmp);
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->turn_idx = -1;
    e->current = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    turn_round(c);
    cards_round_start(c);
    if (!enc_entry_edge(c, ENC_ENTRY_START))
        cards_advance(c);
    return ENG_OK;
}

enum eng_err cards_next(struct rs_call *c)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (c->e->current != 0)
        CARDS_E(c->e)->round_acted = true;
    enc_entry_leave(c);
    turn_end(c);
    cards_advance(c);
    return ENG_OK;
}

enum eng_err cards_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    struct enc_combatant *lead = cards_lead(e, who);
    struct cards_comb *st = CARDS_C(who);
    memset(st, 0, sizeof *st);
    if (lead != who && lead->ninit > 0) {
        memcpy(who->init, lead->init, sizeof who->init);
        who->ninit = lead->ninit;
        st->played = CARDS_C(lead)->played;
    } else {
        struct cards_deck d;
        who->ninit = 0;
        cards_deck_rest(e, &d);
        int want = cards_wanted(who);
        if (d.n < want) {
            if (d.n == 1)
                enc_fail(c->d, ENG_LIMIT, "the deck has %d card left and %s "
                         "needs %d", d.n, who->name, want);
            else
                enc_fail(c->d, ENG_LIMIT, "the deck has %d cards left and "
                         "%s needs %d", d.n, who->name, want);
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
                    st->played |= (int32_t)1 << k;
        }
    }
    cards_reorder(e);
    return ENG_OK;
}
