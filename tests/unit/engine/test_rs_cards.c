/* Tests for the cards ruleset's turn structure: the deck of ten cards,
 * grouped NPCs and creatures with several cards, lowest first with the same
 * order every round, swaps and their timing, ambush extra draws, maneuver
 * accounting with reactions before one's turn, late joiners and settings.
 * Fights are in test_rs_cards_fight.c, special effects in
 * test_rs_cards_effects.c. */
#include "support.h"

#include "eng_alloc.h"
#include "test_rs_cards.h"
#include "turn.h"

/* The card value of the current turn. */
static int64_t cf_card_now(struct cf *f)
{
    const struct enc_slot *s = &f->e->order[f->e->turn_idx];
    return enc_by_id(f->e, s->id)->init[s->init_idx];
}

/* ---- the deck ------------------------------------------------------------ */

static void test_deck_deals_ten_distinct(void **state)
{
    struct cf *f = *state;
    char name[8];
    for (int i = 0; i < 10; i++) {
        snprintf(name, sizeof name, "N%d", i);
        cf_add(f, name, 0, NULL);
    }
    assert_int_equal(cf_begin(f), ENG_OK);
    /* Every card 1..10 dealt exactly once. */
    unsigned seen = 0;
    for (int i = 0; i < f->e->ncs; i++) {
        assert_int_equal(f->e->cs[i].ninit, 1);
        int64_t v = f->e->cs[i].init[0];
        assert_true(v >= 1 && v <= 10);
        assert_false(seen & (1u << v));
        seen |= 1u << v;
    }
    assert_int_equal(seen, 0x7fe);
    /* Lowest first: card 1, 2, ... 10, then the same again. */
    assert_int_equal(f->e->round, 1);
    for (int round = 1; round <= 2; round++)
        for (int v = 1; v <= 10; v++) {
            assert_int_equal(cf_card_now(f), v);
            assert_int_equal(f->e->round, round);
            assert_int_equal(cf_next(f), ENG_OK);
        }
    assert_int_equal(f->e->round, 3);
    assert_int_equal(cf_card_now(f), 1);
    /* No new cards were drawn during the fight. */
    for (int i = 0; i < f->r->nev; i++)
        assert_int_not_equal(f->r->ev[i].kind, ENC_EV_INIT);
}

static void test_deck_draw_is_random_and_recorded(void **state)
{
    struct cf *f = *state;
    cf_add(f, "A", 0, NULL);
    cf_add(f, "B", 0, NULL);
    cf_add(f, "C", 0, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    /* Each card drawn is a roll of the result and said: "A draws card 7". */
    int cards = 0;
    for (int i = 0; i < f->r->nrolls; i++)
        cards += strcmp(f->r->rolls[i].label, "card") == 0;
    assert_int_equal(cards, 3);
    const char *names[] = {"A", "B", "C"};
    for (int i = 0; i < 3; i++) {
        char want[32];
        snprintf(want, sizeof want, "%s draws card %lld.", names[i],
                 (long long)cf_who(f, names[i])->init[0]);
        assert_true(cf_said(f, want));
    }
    /* Another seed deals differently at least once over a few tries. */
    int64_t first[3] = {cf_who(f, "A")->init[0], cf_who(f, "B")->init[0],
                        cf_who(f, "C")->init[0]};
    bool differs = false;
    for (uint64_t seed = 2; seed < 6 && !differs; seed++) {
        f->e->status = ENC_ST_SETUP;
        eng_rng_seed(&f->rng, seed);
        assert_int_equal(cf_begin(f), ENG_OK);
        differs = first[0] != cf_who(f, "A")->init[0] ||
                  first[1] != cf_who(f, "B")->init[0] ||
                  first[2] != cf_who(f, "C")->init[0];
    }
    assert_true(differs);
    /* A hidden combatant's card is the GM's. */
    f->e->status = ENC_ST_SETUP;
    cf_who(f, "B")->hidden = true;
    assert_int_equal(cf_begin(f), ENG_OK);
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_SAY, "B draws");
    assert_non_null(ev);
    assert_true(ev->secret);
    assert_true(f->r->rolls[ev->rolls[0]].secret);
}

static void test_deck_too_many_refused(void **state)
{
    struct cf *f = *state;
    cf_add_n(f, "Goblin", 11, false, 0, NULL, NULL);
    assert_int_equal(cf_begin(f), ENG_LIMIT);
    assert_non_null(strstr(f->d.msg, "11 cards are needed"));
    assert_non_null(strstr(f->d.hint, "group:true"));
    assert_int_equal(f->e->status, ENC_ST_SETUP);
    for (int i = 0; i < f->e->ncs; i++)
        assert_int_equal(f->e->cs[i].ninit, 0);
}

static void test_group_shares_one_card(void **state)
{
    struct cf *f = *state;
    cf_add_n(f, "Wolf", 4, true, 0, NULL, NULL);
    cf_add_n(f, "Bandit", 9, false, 0, NULL, NULL);
    /* 13 combatants, 10 cards: the wolves draw once. */
    assert_int_equal(cf_begin(f), ENG_OK);
    int64_t card = cf_who(f, "Wolf 1")->init[0];
    for (int i = 2; i <= 4; i++) {
        char n[16];
        snprintf(n, sizeof n, "Wolf %d", i);
        assert_int_equal(cf_who(f, n)->init[0], card);
    }
    int draws = 0;
    for (int i = 0; i < f->r->nrolls; i++)
        draws += strcmp(f->r->rolls[i].label, "card") == 0;
    assert_int_equal(draws, 10);
    assert_true(cf_said(f, "for its group."));
    /* The wolves act one after another, in join order, on their card. */
    while (cf_card_now(f) != card)
        assert_int_equal(cf_next(f), ENG_OK);
    f->log[0] = '\0';
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cf_card_now(f), card);
        assert_int_equal(cf_next(f), ENG_OK);
    }
    assert_non_null(strstr(f->log, "T:Wolf 2 T:Wolf 3 T:Wolf 4"));
}

static void test_creature_with_several_cards(void **state)
{
    struct cf *f = *state;
    struct enc_combatant *x = cf_add(f, "Hydra", 0, NULL);
    struct rs_call c = cf_call(f, CF_GM);
    assert_int_equal(rs_stat_check(&c, &rs_cards, x, "cards", 5), ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_cards, x, "cards", 0), ENG_RANGE);
    enc_stat_set(x, "cards", 3, &f->d);
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Bo", 11, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    x = cf_who(f, "Hydra");
    assert_int_equal(x->ninit, 3);
    assert_true(x->init[0] < x->init[1] && x->init[1] < x->init[2]);
    /* Five turns a round, the hydra on each of its cards, lowest first. */
    int hydra = 0;
    int64_t last = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(f->e->round, 1);
        assert_true(cf_card_now(f) > last);
        last = cf_card_now(f);
        hydra += strcmp(cf_current(f), "Hydra") == 0;
        assert_int_equal(cf_next(f), ENG_OK);
    }
    assert_int_equal(hydra, 3);
    assert_int_equal(f->e->round, 2);
    /* Cards cannot change once dealt. */
    c = cf_call(f, CF_GM);
    assert_int_equal(rs_stat_check(&c, &rs_cards, x, "cards", 2), ENG_STATE);
}

static void test_creature_cards_count_against_deck(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Hydra", 0, "cards=4");
    cf_add_n(f, "Hero", 7, false, 10, NULL, NULL);
    assert_int_equal(cf_begin(f), ENG_LIMIT);
    assert_non_null(strstr(f->d.msg, "11 cards"));
}

static void test_same_order_every_round(void **state)
{
    struct cf *f = *state;
    cf_add(f, "A", 0, NULL);
    cf_add(f, "B", 10, NULL);
    cf_add_n(f, "Rat", 2, true, 0, NULL, NULL);
    cf_add(f, "C", 0, "cards=2");
    assert_int_equal(cf_begin(f), ENG_OK);
    for (int i = 0; i < 12; i++)
        assert_int_equal(cf_next(f), ENG_OK);
    /* Rounds are 6 turns (A, B, two rats, C twice). */
    char *r2 = strstr(f->log, "R:2 "), *r3 = strstr(f->log, "R:3 ");
    assert_non_null(r2);
    assert_non_null(r3);
    size_t len1 = (size_t)(r2 - (f->log + 4)), len2 = (size_t)(r3 - (r2 + 4));
    assert_int_equal(len1, len2);
    assert_memory_equal(f->log + 4, r2 + 4, len1);
    assert_int_equal(f->e->round, 3);
}

static void test_down_is_skipped(void **state)
{
    struct cf *f = *state;
    cf_add(f, "A", 0, NULL);
    cf_add(f, "B", 0, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    struct enc_combatant *other = strcmp(cf_current(f), "A") ? cf_who(f, "A")
                                                              : cf_who(f, "B");
    other->flags |= ENC_CF_DOWN;
    const char *me = cf_current(f);
    char mine[8];
    snprintf(mine, sizeof mine, "%s", me);
    assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), mine);
    assert_int_equal(f->e->round, 2);
    bool skipped = false;
    for (int i = 0; i < f->r->nev; i++)
        skipped |= f->r->ev[i].kind == ENC_EV_SKIP &&
                   f->r->ev[i].who == other->id;
    assert_true(skipped);
}

/* ---- swaps --------------------------------------------------------------- */

/* Ana (user 10) and Bo (user 11), an Orc; begun. */
static void cf_three(struct cf *f)
{
    cf_add(f, "Ana", 10, "finesse=2");
    cf_add(f, "Bo", 11, "finesse=2");
    cf_add(f, "Orc", 0, "strike=3 damage=2");
    assert_int_equal(cf_begin(f), ENG_OK);
}

static void test_swap_start_of_round(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    int64_t a = cf_who(f, "Ana")->init[0], b = cf_who(f, "Bo")->init[0];
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_OK);
    assert_int_equal(cf_who(f, "Ana")->init[0], b);
    assert_int_equal(cf_who(f, "Bo")->init[0], a);
    assert_true(cf_said(f, "Ana and Bo swap cards"));
    /* Nobody had acted: the round starts again from the lowest card. */
    int64_t low = 11;
    for (int i = 0; i < f->e->ncs; i++)
        if (f->e->cs[i].init[0] < low)
            low = f->e->cs[i].init[0];
    assert_int_equal(cf_card_now(f), low);
    /* Once somebody acted, no more swaps this round. */
    struct enc_combatant *cur = enc_current(f->e);
    cf_opts(f, "name", cur->name, "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "start of a round"));
    /* A new round opens the window again. */
    for (int i = 0; i < 3; i++)
        assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_OK);
    assert_int_equal(cf_who(f, "Ana")->init[0], a);
}

static void test_swap_after_a_turn_refused(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    assert_int_equal(cf_next(f), ENG_OK);
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
}

static void test_swap_needs_two_players(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    int64_t a = cf_who(f, "Ana")->init[0];
    cf_opts(f, "a", "Ana", "b", "Orc", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "player characters"));
    assert_int_equal(cf_who(f, "Ana")->init[0], a);
    /* A player acts only for their own character. */
    cf_opts(f, "a", "Bo", "b", "Ana", NULL);
    assert_int_equal(cf_do(f, 10, "swap"), ENG_PERM);
    /* Before the cards are dealt there is nothing to swap. */
    f->e->status = ENC_ST_SETUP;
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
}

static void test_swap_offer_and_accept(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    int64_t a = cf_who(f, "Ana")->init[0], b = cf_who(f, "Bo")->init[0];
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, 10, "swap"), ENG_OK);
    assert_true(cf_said(f, "offers"));
    assert_int_equal(cf_who(f, "Ana")->init[0], a);
    cf_opts(f, "a", "Bo", "b", "Ana", NULL);
    assert_int_equal(cf_do(f, 11, "swap"), ENG_OK);
    assert_int_equal(cf_who(f, "Ana")->init[0], b);
    assert_int_equal(cf_who(f, "Bo")->init[0], a);
}

/* "Your player characters must be able to talk to each other in order to
 * swap initiative": not with a hand over one's mouth. */
static void test_swap_needs_talking(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    struct enc_cond_req q = {.name = CARDS_SILENCED};
    assert_int_equal(enc_cond_add(f->e, cf_who(f, "Bo"), &q, f->r, &f->d),
                     ENG_OK);
    cf_opts(f, "a", "Ana", "b", "Bo", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "Bo cannot speak"));
}

static void test_forced_swap_mid_round(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Orc", 0, NULL);
    cf_add(f, "Elf", 0, NULL);
    cf_add(f, "Imp", 0, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    /* The lowest card attacks the highest and buys a swap with an extra
     * success: `4d6>=1` rolls four successes, one needed, three extra. */
    struct enc_combatant *first = enc_current(f->e), *last = NULL;
    for (int i = 0; i < f->e->ncs; i++)
        if (last == NULL || f->e->cs[i].init[0] > last->init[0])
            last = &f->e->cs[i];
    char fn[16], ln[16];
    snprintf(fn, sizeof fn, "%s", first->name);
    snprintf(ln, sizeof ln, "%s", last->name);
    int64_t lo = first->init[0], hi = last->init[0];
    assert_int_equal(cf_attack(f, CF_GM, fn, ln, "4d6>=1", "1", "swap"),
                     ENG_OK);
    assert_true(cf_said(f, "outmaneuver"));
    /* Damage 1 + 2 extra (one bought the swap). */
    assert_int_equal(cf_harm(f, ln, CARDS_HARM), 3);
    /* Forced: allowed although the round has begun. */
    cf_opts(f, "a", fn, "b", ln, NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_OK);
    assert_true(cf_said(f, "forces"));
    assert_int_equal(cf_who(f, fn)->init[0], hi);
    assert_int_equal(cf_who(f, ln)->init[0], lo);
    /* The right is spent. */
    cf_opts(f, "a", fn, "b", ln, NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_STATE);
    /* Nobody gains or loses a turn: the one who took the passed card acts
     * next, then the others; the swapper does not act again. */
    f->log[0] = '\0';
    for (int i = 0; i < 3; i++)
        assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_true(strncmp(f->log + 2, ln, strlen(ln)) == 0);
    assert_null(strstr(f->log, fn));
    assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(cf_current(f), ln);
}

static void test_swap_picks_a_card_of_several(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Hydra", 0, "cards=3");
    assert_int_equal(cf_begin(f), ENG_OK);
    struct enc_combatant *h = cf_who(f, "Hydra");
    int64_t mid = h->init[1], a = cf_who(f, "Ana")->init[0];
    cf_st(f, "Ana")->swap_vs = h->id;
    cf_opts(f, "a", "Ana", "b", "Hydra", NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "card:"));
    char v[8];
    snprintf(v, sizeof v, "%lld", (long long)mid);
    cf_opts(f, "a", "Ana", "b", "Hydra", "card", v, NULL);
    assert_int_equal(cf_do(f, CF_GM, "swap"), ENG_OK);
    assert_int_equal(cf_who(f, "Ana")->init[0], mid);
    h = cf_who(f, "Hydra");
    assert_true(h->init[0] == a || h->init[1] == a || h->init[2] == a);
}

/* ---- ambush -------------------------------------------------------------- */

/* Two bandits ambush two heroes. */
static void cf_ambush_setup(struct cf *f)
{
    cf_add_n(f, "Bandit", 2, false, 0, "Bandits", "sneak=4");
    cf_add_n(f, "Hero", 2, false, 10, "Heroes", "track=2");
}

/* Check every draw: who drew an extra card kept the lowest and put the
 * other back; returns the number of extra draws, and whether all were by
 * side s. */
static int cf_extra_draws(struct cf *f, int side, bool *all_side)
{
    int n = 0;
    *all_side = true;
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        char text[256];
        rs_fx_text(&f->fx, ev, text, sizeof text);
        const char *p = strstr(text, " draws cards ");
        if (ev->kind != ENC_EV_SAY || p == NULL ||
            strstr(text, "extra draw") == NULL)
            continue;
        long long x, y, back;
        assert_int_equal(sscanf(p, " draws cards %lld and %lld with an "
                                "extra draw: %lld goes back", &x, &y, &back),
                         3);
        const struct enc_combatant *who = enc_by_id(f->e, ev->who);
        assert_true(x < y);
        assert_int_equal(back, y);
        assert_int_equal(who->init[0], x);
        *all_side &= who->side == side;
        n++;
    }
    return n;
}

static void test_ambush_detected(void **state)
{
    struct cf *f = *state;
    cf_ambush_setup(f);
    /* No Sneak dice: always detected. */
    cf_opts(f, "side", "Bandits", "name", "Bandit 1", "pool", "0", "watch",
            "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    assert_true(cf_said(f, "detected"));
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    bool all;
    int heroes = enc_side_find(f->e, "Heroes");
    assert_int_equal(cf_extra_draws(f, heroes, &all), 2);
    assert_true(all);
    for (int i = 0; i < f->e->ncs; i++)
        assert_int_equal(CARDS_C(&f->e->cs[i])->first_bonus, 0);
}

static void test_ambush_succeeds_with_bonus(void **state)
{
    struct cf *f = *state;
    eng_rng_seed(&f->rng, 4);
    cf_ambush_setup(f);
    /* Bandit 1's Sneak 4 against the heroes' Track 2 (the GM rolls it). */
    cf_opts(f, "side", "Bandits", "name", "Bandit 1", "watch", "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    int ss = cf_succ(f, "sneak"), ws = cf_succ(f, "watch");
    int extra;
    bool won = cards_ambush(ss, ws, &extra);
    assert_true(cf_said(f, won ? "works" : "detected"));
    /* Seed 4: Sneak [2, 6, 3, 6] against Track [2, 4]: two successes to
     * none, so it works with one extra success. */
    assert_int_equal(ss, 2);
    assert_int_equal(ws, 0);
    assert_true(won);
    assert_int_equal(extra, 1);
    /* Said whole (it used to be cut at "first maneuv"). */
    assert_true(cf_said(f, "Everyone on Bandits draws an extra initiative "
                           "card and keeps the best, and has +1 die on "
                           "their first maneuver of the fight."));
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    bool all;
    int bandits = enc_side_find(f->e, "Bandits");
    assert_int_equal(cf_extra_draws(f, bandits, &all), 2);
    assert_true(all);
    assert_int_equal(cf_st(f, "Bandit 1")->first_bonus, 1);
    assert_int_equal(cf_st(f, "Bandit 2")->first_bonus, 1);
    assert_int_equal(cf_st(f, "Hero 1")->first_bonus, 0);
}

static void test_ambush_granted_and_surprise(void **state)
{
    struct cf *f = *state;
    cf_ambush_setup(f);
    cf_opts(f, "side", "Heroes", "auto", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    bool all;
    assert_int_equal(cf_extra_draws(f, enc_side_find(f->e, "Heroes"), &all),
                     2);
    assert_true(all);
    /* surprise: on /combat begin grants the draw without a test. */
    f->e->status = ENC_ST_SETUP;
    CARDS_E(f->e)->ambush_result = CARDS_AMBUSH_NONE;
    cf_opts(f, "surprise", "Bandits", NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    assert_int_equal(cf_extra_draws(f, enc_side_find(f->e, "Bandits"), &all),
                     2);
    assert_true(all);
    cf_opts(f, "surprise", "Nobody", NULL);
    f->e->status = ENC_ST_SETUP;
    assert_int_equal(cf_begin(f), ENG_NOTFOUND);
}

static void test_ambush_refusals(void **state)
{
    struct cf *f = *state;
    cf_ambush_setup(f);
    cf_opts(f, "side", "Bandits", "name", "Bandit 1", "watch", "2", NULL);
    assert_int_equal(cf_do(f, 10, "ambush"), ENG_PERM);
    cf_opts(f, "side", "Bandits", "name", "Hero 1", "watch", "2", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_INVALID);
    cf_opts(f, "side", "Bandits", "name", "Bandit 1", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_INVALID);
    cf_opts(f, "side", "Bandits", "name", "Bandit 1", "against", "Hero 1",
            NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    cf_opts(f, "side", "Bandits", "auto", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_STATE);
}

/* ---- maneuvers ----------------------------------------------------------- */

static void test_maneuver_budget_and_reactions(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "finesse=0");
    cf_add(f, "Orc", 0, "finesse=0");
    assert_int_equal(cf_begin(f), ENG_OK);
    char me[8], other[8];
    snprintf(me, sizeof me, "%s", cf_current(f));
    snprintf(other, sizeof other, "%s", strcmp(me, "Ana") ? "Ana" : "Orc");
    /* Out of turn: only reactions. */
    cf_opts(f, "name", other, "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "not"));
    /* The other dodges before its turn: its fast maneuver is spent. */
    cf_opts(f, "name", other, "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    /* One slow and one fast on one's own turn; no second slow. */
    cf_opts(f, "name", me, "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "slow"));
    cf_opts(f, "name", me, "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "no maneuvers left"));
    assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), other);
    /* Having reacted already, the other has one maneuver left. */
    cf_opts(f, "name", other, "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    cf_opts(f, "name", other, "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    /* Reactions may come after one's own turn, in the same round... */
    assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    /* ... and the budget is whole again in a new round: two fast, then no
     * slow. */
    cf_opts(f, "name", me, "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    cf_opts(f, "name", me, "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    /* The other saves its fast maneuver past its turn and reacts later. */
    assert_int_equal(cf_next(f), ENG_OK);
    cf_opts(f, "name", other, "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_next(f), ENG_OK);
    assert_int_equal(f->e->round, 3);
    cf_opts(f, "name", other, "kind", "dodge", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    cf_opts(f, "name", other, "kind", "other", NULL);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "react"), ENG_STATE);
}

/* What is left, from what was spent: slow ones first, each of which may
 * be taken as a fast one. */
static void cf_left(int slow, int fast, int tslow, int tfast, int turns,
                    bool own, int want_slow, int want_fast)
{
    struct cards_budget b = {slow, fast, tslow, tfast, turns};
    int s, f;
    cards_left(&b, own, &s, &f);
    assert_int_equal(s, want_slow);
    assert_int_equal(f, want_fast);
}

static void test_maneuver_pure_budget(void **state)
{
    (void)state;
    /* One card: one slow and one fast, or two fast. */
    cf_left(0, 0, 0, 0, 1, true, 1, 1);
    cf_left(1, 0, 1, 0, 1, true, 0, 1);
    cf_left(0, 1, 0, 1, 1, true, 1, 0);     /* the slow one as a fast one */
    cf_left(1, 1, 1, 1, 1, true, 0, 0);
    cf_left(0, 2, 0, 2, 1, true, 0, 0);
    /* A reaction before the turn spent the round's fast maneuver. */
    cf_left(0, 1, 0, 0, 1, true, 1, 0);
    cf_left(0, 1, 0, 0, 1, false, 1, 0);
    /* Two cards: the round holds two turns, a turn only its own. */
    cf_left(0, 0, 0, 0, 2, false, 2, 2);
    cf_left(0, 0, 0, 0, 2, true, 1, 1);
    cf_left(1, 1, 1, 1, 2, true, 0, 0);
    cf_left(1, 1, 1, 1, 2, false, 1, 1);
    cf_left(1, 1, 0, 0, 2, true, 1, 1);     /* the second card's turn */
    cf_left(1, 2, 0, 0, 2, true, 1, 0);     /* a reaction came in between */
    /* Never below nothing. */
    cf_left(3, 3, 2, 2, 1, true, 0, 0);
}

static void test_maneuver_permissions(void **state)
{
    struct cf *f = *state;
    cf_three(f);
    struct enc_combatant *cur = enc_current(f->e);
    cf_opts(f, "name", cur->name, "kind", "sideways", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_INVALID);
    cf_opts(f, "name", "Orc", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_PERM);
    assert_int_equal(cf_do(f, CF_GM, "no such verb"), ENG_NOTFOUND);
}

/* ---- late joiners, settings, tracker ------------------------------------- */

static void test_late_join_draws_what_is_left(void **state)
{
    struct cf *f = *state;
    cf_add_n(f, "N", 9, false, 0, NULL, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    unsigned seen = 0;
    for (int i = 0; i < f->e->ncs; i++)
        seen |= 1u << f->e->cs[i].init[0];
    struct enc_combatant *late = cf_add(f, "Late", 0, NULL);
    assert_non_null(late);
    assert_int_equal(seen | (1u << late->init[0]), 0x7fe);
    assert_int_equal(f->e->norder, 10);
    /* Its card is played this round only when it is still to come. */
    bool passed = late->init[0] < cf_card_now(f);
    assert_int_equal(CARDS_C(late)->played & 1, passed);
    /* The deck is empty now. */
    uint32_t id;
    assert_int_equal(enc_add(f->e, "Later", 1, 0, -1, &f->d, &id), ENG_OK);
    struct rs_call c = cf_call(f, CF_GM);
    struct enc_combatant *x = enc_by_id(f->e, id);
    assert_int_equal(rs_cards.ops->setup(&c, x), ENG_OK);
    assert_int_equal(rs_cards.ops->late_join(&c, x), ENG_LIMIT);
    assert_non_null(strstr(f->d.msg, "0 cards left"));
}

static void test_late_join_with_several_cards(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    assert_int_equal(cf_begin(f), ENG_OK);
    struct enc_combatant *h = cf_add(f, "Hydra", 0, "cards=2");
    assert_non_null(h);
    assert_int_equal(h->ninit, 2);
    assert_int_equal(f->e->norder, 3);
    assert_string_equal(cf_current(f), "Ana");
    /* A late group shares its leader's card. */
    struct enc_combatant *w = cf_add_n(f, "Wolf", 3, true, 0, NULL, NULL);
    assert_non_null(w);
    assert_int_equal(cf_who(f, "Wolf 3")->init[0], w->init[0]);
    assert_int_equal(f->e->norder, 6);
}

static void test_settings(void **state)
{
    struct cf *f = *state;
    struct rs_call c = cf_call(f, CF_GM);
    assert_int_equal(cards_die(f->e), 6);
    assert_int_equal(cards_success(f->e), 6);
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "die=10 success=8"),
                     ENG_OK);
    assert_int_equal(cards_die(f->e), 10);
    assert_int_equal(cards_success(f->e), 8);
    assert_string_equal(enc_setting(f->e, "success"), "8");
    /* The success face must be on the die; the bounds are declared. */
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "success=11"),
                     ENG_RANGE);
    assert_non_null(strstr(f->d.hint, "die first"));
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "die=1"), ENG_RANGE);
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "die=x"), ENG_RANGE);
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "deck=12"),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "die, success"));
    /* A smaller die lowers the success face with it. */
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "die=4"), ENG_OK);
    assert_int_equal(cards_success(f->e), 4);
    assert_string_equal(enc_setting(f->e, "success"), "4");
    assert_int_equal(rs_settings_apply(&c, &rs_cards, "die=10 success=8"),
                     ENG_OK);
    /* A d10 pool counts 8, 9 and 10. */
    cf_add(f, "Ana", 10, NULL);
    cf_opts(f, "name", "Ana", "pool", "8", NULL);
    assert_int_equal(cf_do(f, CF_GM, "test"), ENG_OK);
    int faces[16];
    int n = cf_faces_n(f, "test", 0, faces, 16);
    assert_int_equal(n, 8);
    int want = 0;
    for (int i = 0; i < n; i++) {
        assert_true(faces[i] >= 1 && faces[i] <= 10);
        want += faces[i] >= 8;
    }
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_TEST, "");
    assert_non_null(ev);
    assert_int_equal(ev->value, want);
}

static void test_setup_harm_tracks(void **state)
{
    struct cf *f = *state;
    struct enc_combatant *g = cf_add(f, "Goon", 0, "hp=3 strike=2");
    assert_null(enc_track_c(g, "hp"));
    assert_int_equal(enc_track_c(g, CARDS_HARM)->max, 3);
    assert_int_equal(enc_track_c(g, CARDS_MENTAL)->cur, 0);
    struct enc_combatant *a = cf_add(f, "Ana", 10, NULL);
    assert_int_equal(enc_track_c(a, CARDS_HARM)->max, 0);
    struct rs_call c = cf_call(f, CF_GM);
    assert_int_equal(rs_stat_check(&c, &rs_cards, a, "strike", 51),
                     ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_cards, a, "zone", -1), ENG_RANGE);
    assert_int_equal(rs_stat_check(&c, &rs_cards, a, "damage", 3), ENG_OK);
    /* Stats are open: a group's own skills are pools too. */
    assert_int_equal(rs_stat_check(&c, &rs_cards, a, "lore", 3), ENG_OK);
}

static void test_status_line(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Hydra", 0, "cards=2");
    char buf[160], want[96];
    rs_fx_status(&rs_cards, f->e, cf_who(f, "Ana"), buf, sizeof buf);
    assert_string_equal(buf, "");
    assert_int_equal(cf_begin(f), ENG_OK);
    while (strcmp(cf_current(f), "Ana") != 0)
        assert_int_equal(cf_next(f), ENG_OK);
    struct enc_combatant *a = cf_who(f, "Ana");
    rs_fx_status(&rs_cards, f->e, a, buf, sizeof buf);
    snprintf(want, sizeof want, "card %lld · slow 1 fast 1",
             (long long)a->init[0]);
    assert_string_equal(buf, want);
    /* A fast maneuver spent and a fire: the Harm tracks are on the line
     * already, the fire's intensity is said. */
    CARDS_C(a)->fast = CARDS_C(a)->turn_fast = 1;
    struct enc_cond_req q = {.name = CARDS_BURNING, .value = 2};
    assert_int_equal(enc_cond_add(f->e, a, &q, f->r, &f->d), ENG_OK);
    rs_fx_status(&rs_cards, f->e, a, buf, sizeof buf);
    snprintf(want, sizeof want, "card %lld · slow 1 fast 0 · burning 2",
             (long long)a->init[0]);
    assert_string_equal(buf, want);
    assert_int_equal(enc_cond_remove(f->e, a, CARDS_BURNING, f->r, &f->d),
                     ENG_OK);
    CARDS_C(a)->poison_left = 1;
    CARDS_C(a)->fast = CARDS_C(a)->turn_fast = 2;
    CARDS_C(a)->def_kind = CARDS_R_DODGE;
    CARDS_C(a)->def_succ = 2;
    rs_fx_status(&rs_cards, f->e, a, buf, sizeof buf);
    snprintf(want, sizeof want, "card %lld · slow 0 fast 0 · dodge ready "
             "(2) · poison 1", (long long)a->init[0]);
    assert_string_equal(buf, want);
    /* Not its turn: what the round has left, for reactions. */
    struct enc_combatant *h = cf_who(f, "Hydra");
    rs_fx_status(&rs_cards, f->e, h, buf, sizeof buf);
    snprintf(want, sizeof want, "cards %lld, %lld · this round: slow 2 "
             "fast 2", (long long)h->init[0], (long long)h->init[1]);
    assert_string_equal(buf, want);
}

/* Names at their longest: every sentence is whole (the event text used to
 * stop at 96 bytes: "...+2 to each ambusher's first maneuv"). */
static void test_long_names_are_never_cut(void **state)
{
    struct cf *f = *state;
    char pc[ENC_MAX_NAME + 1], npc[ENC_MAX_NAME + 1];
    char side[ENC_MAX_SIDE_NAME + 1];
    memset(pc, 'a', ENC_MAX_NAME);
    pc[ENC_MAX_NAME] = '\0';
    memset(npc, 'n', ENC_MAX_NAME);
    npc[ENC_MAX_NAME] = '\0';
    memset(side, 's', ENC_MAX_SIDE_NAME);
    side[ENC_MAX_SIDE_NAME] = '\0';
    cf_add_n(f, npc, 1, false, 0, side, "sneak=12");
    cf_add(f, pc, 10, "track=0");
    cf_sure(f);
    cf_opts(f, "side", side, "name", npc, "watch", "0", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    int extra = cf_succ(f, "sneak") - 1;
    assert_int_equal(extra, 11);
    char want[256];
    snprintf(want, sizeof want, "Everyone on %s draws an extra initiative "
             "card and keeps the best, and has +%d dice on their first "
             "maneuver of the fight.", side, extra);
    assert_true(cf_said(f, want));
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    snprintf(want, sizeof want, "%s draws cards ", npc);
    assert_true(cf_said(f, want));
    assert_true(cf_said(f, "goes back into the deck."));
    assert_false(f->r->truncated);
}

static void test_registry_shape(void **state)
{
    (void)state;
    assert_string_equal(rs_cards.id, "cards");
    assert_int_equal(rs_cards.ops->version, RS_OPS_VERSION);
    assert_non_null(rs_cards.ops->setup);
    assert_non_null(rs_cards.ops->begin);
    assert_non_null(rs_cards.ops->next);
    assert_int_equal(rs_cards.ncmds, 11);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, cf_setup, cf_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_deck_deals_ten_distinct),
        T(test_deck_draw_is_random_and_recorded),
        T(test_deck_too_many_refused),
        T(test_group_shares_one_card),
        T(test_creature_with_several_cards),
        T(test_creature_cards_count_against_deck),
        T(test_same_order_every_round),
        T(test_down_is_skipped),
        T(test_swap_start_of_round),
        T(test_swap_after_a_turn_refused),
        T(test_swap_needs_two_players),
        T(test_swap_offer_and_accept),
        T(test_swap_needs_talking),
        T(test_forced_swap_mid_round),
        T(test_swap_picks_a_card_of_several),
        T(test_ambush_detected),
        T(test_ambush_succeeds_with_bonus),
        T(test_ambush_granted_and_surprise),
        T(test_ambush_refusals),
        T(test_maneuver_budget_and_reactions),
        T(test_maneuver_pure_budget),
        T(test_maneuver_permissions),
        T(test_late_join_draws_what_is_left),
        T(test_late_join_with_several_cards),
        T(test_settings),
        T(test_setup_harm_tracks),
        T(test_status_line),
        T(test_long_names_are_never_cut),
        T(test_registry_shape),
    };
    return cmocka_run_group_tests_name("rs_cards", tests, NULL, NULL);
}
