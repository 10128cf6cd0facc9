/*
 * The turn clock's automatic move-on (rs_ops.timeout) in each system,
 * checked against what its chapter lets a turn do (docs/commands/<id>.md,
 * "Turn clock", says the same to users):
 *
 *  - generic, tactical: turns go in a fixed order each round, so a turn
 *    that ran out is skipped and the next in the order acts;
 *  - cards: "they perform their actions, followed by the person with the
 *    second lowest initiative": the creature loses that card's turn and
 *    the next card acts;
 *  - resolve: "at the start of their turn, a character may choose to ...
 *    take their turn immediately after a character who has yet to take
 *    their turn": an untouched player character is treated as delaying;
 *    an NPC loses the turn;
 *  - factions: "factions alternate taking turns with a character or
 *    passing": a running turn ends, a faction that is to decide passes;
 *  - teams: "each team will select one member to take a turn, and then
 *    pass to the next team" (no passing): a running turn ends, and a team
 *    that is to pick gets its first member who may act.
 *
 * Every case runs on the shared sample fight (rs_fx_sample): two sides of
 * four, Blue a player's.
 */
#include "support.h"

#include <string.h>

#include "enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "turn.h"

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static struct fx *fx_new(const char *id)
{
    struct fx *f = test_calloc(1, sizeof *f);
    const struct rs_system *rs = rs_find(id);
    assert_non_null(rs);
    assert_true(rs->ops->version >= 4);
    assert_non_null(rs->ops->timeout);
    assert_non_null(rs->help->clock);
    rs_fx_sample(&f->fx, rs, 7, &f->r);
    if (f->e->status != ENC_ST_RUNNING) {
        /* teams: the GM names the team that starts (first:) */
        rs_fx_opts(&f->fx, "first", "red", NULL);
        assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
        rs_fx_opts(&f->fx, NULL);
    }
    assert_int_equal(f->e->status, ENC_ST_RUNNING);
    return f;
}

static void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* The clock runs out, as the GM's process does it. */
static enum eng_err timeout(struct fx *f)
{
    struct rs_call c = rs_fx_call(&f->fx, RS_FX_GM, true);
    enum eng_err err = f->rs->ops->timeout(&c);
    rs_fx_log(&f->fx);
    return err;
}

/* Move the fight on with next until a turn runs (ordered systems). */
static struct enc_combatant *running(struct fx *f)
{
    for (int i = 0; i < 20 && enc_current(f->e) == NULL; i++)
        rs_fx_next(&f->fx, RS_FX_GM, true);
    assert_non_null(enc_current(f->e));
    return enc_current(f->e);
}

/* An ordered system: the next slot of the order acts, in the same round
 * unless the turn was the round's last. */
static void ordered_skips(const char *id, const char *said)
{
    struct fx *f = fx_new(id);
    struct encounter *e = f->e;
    struct enc_combatant *cur = running(f);
    /* Not the round's last slot, so the next one is in this round. */
    while (e->turn_idx + 1 >= e->norder) {
        rs_fx_next(&f->fx, RS_FX_GM, true);
        cur = running(f);
    }
    uint32_t was = cur->id, want = e->order[e->turn_idx + 1].id;
    int32_t round = e->round;
    int idx = e->turn_idx;
    assert_int_equal(timeout(f), ENG_OK);
    assert_true(rs_fx_said(&f->fx, said));
    assert_int_equal(e->round, round);
    assert_int_equal(e->turn_idx, idx + 1);
    assert_int_equal(e->current, want);
    assert_int_not_equal(e->current, was);
    fx_free(f);
}

static void test_generic_skips_the_turn(void **state)
{
    (void)state;
    ordered_skips("generic", "loses this turn");
}

static void test_tactical_ends_the_turn(void **state)
{
    (void)state;
    ordered_skips("tactical", "action points left are lost");
}

/* Cards: lowest card first; the creature whose card was up loses that
 * card's turn and the next higher card acts. */
static void test_cards_lose_that_cards_turn(void **state)
{
    (void)state;
    ordered_skips("cards", "loses this card's turn");
    struct fx *f = fx_new("cards");
    struct encounter *e = f->e;
    running(f);
    while (e->turn_idx + 1 >= e->norder) {
        rs_fx_next(&f->fx, RS_FX_GM, true);
        running(f);
    }
    const struct enc_slot up = e->order[e->turn_idx];
    const struct enc_slot nx = e->order[e->turn_idx + 1];
    int64_t card = enc_by_id(e, up.id)->init[up.init_idx];
    int64_t next = enc_by_id(e, nx.id)->init[nx.init_idx];
    assert_true(card < next);
    assert_int_equal(timeout(f), ENG_OK);
    assert_int_equal(e->current, nx.id);
    fx_free(f);
}

/* Resolve: the first untouched player turn with someone unacted after it
 * is treated as delaying right after that one; an NPC loses the turn. */
static void test_resolve_player_delays_npc_skipped(void **state)
{
    (void)state;
    struct fx *f = fx_new("resolve");
    struct encounter *e = f->e;
    struct enc_combatant *cur = running(f);
    for (int i = 0; i < 40 && (cur->owner == 0 ||
                               e->turn_idx + 1 >= e->norder); i++) {
        rs_fx_next(&f->fx, RS_FX_GM, true);
        cur = running(f);
    }
    assert_int_not_equal(cur->owner, 0);
    uint32_t player = cur->id, after = e->order[e->turn_idx + 1].id;
    int32_t round = e->round;
    assert_int_equal(timeout(f), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "treated as delaying"));
    /* The one after acts now; the player's turn comes right after it. */
    assert_int_equal(e->current, after);
    assert_int_equal(e->order[e->turn_idx + 1].id, player);
    assert_false(enc_by_id(e, player)->flags & ENC_CF_ACTED);
    assert_int_equal(e->round, round);

    /* An NPC's turn is not a delay: it is lost. */
    cur = running(f);
    for (int i = 0; i < 40 && cur->owner != 0; i++) {
        rs_fx_next(&f->fx, RS_FX_GM, true);
        cur = running(f);
    }
    assert_int_equal(cur->owner, 0);
    uint32_t npc = cur->id;
    assert_int_equal(timeout(f), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "loses this turn"));
    assert_int_not_equal(e->current, npc);
    fx_free(f);
}

/* Factions: a running turn ends; a faction that is to decide passes, and
 * the decision goes to the other faction (or the round ends when both
 * passed in a row). */
static void test_factions_end_or_pass(void **state)
{
    (void)state;
    struct fx *f = fx_new("factions");
    struct encounter *e = f->e;
    if (e->current != 0) {
        uint32_t was = e->current;
        assert_int_equal(timeout(f), ENG_OK);
        assert_true(rs_fx_said(&f->fx, "ends the turn"));
        assert_true(enc_by_id(e, was)->flags & ENC_CF_ACTED);
    }
    for (int i = 0; i < 10 && e->current != 0; i++)
        rs_fx_next(&f->fx, RS_FX_GM, true);
    assert_int_equal(e->current, 0);
    int side = e->acting_side;
    int32_t round = e->round;
    assert_true(side >= 0);
    assert_int_equal(timeout(f), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "passes"));
    assert_true(e->acting_side != side || e->round != round);
    fx_free(f);
}

/* Teams: no passing; the team that is to pick gets its first member (in
 * the tracker's order) who has not acted and can. */
static void test_teams_pick_first_member(void **state)
{
    (void)state;
    struct fx *f = fx_new("teams");
    struct encounter *e = f->e;
    if (e->current != 0) {
        uint32_t was = e->current;
        assert_int_equal(timeout(f), ENG_OK);
        assert_true(rs_fx_said(&f->fx, "ends the turn"));
        assert_int_not_equal(e->current, was);
        assert_true(enc_by_id(e, was)->flags & ENC_CF_ACTED);
    }
    for (int i = 0; i < 10 && e->current != 0; i++)
        rs_fx_next(&f->fx, RS_FX_GM, true);
    assert_int_equal(e->current, 0);
    int side = e->acting_side;
    assert_true(side >= 0);
    const struct enc_combatant *first = NULL;
    for (int i = 0; i < e->ncs && first == NULL; i++)
        if (e->cs[i].side == side && turn_can_act(&e->cs[i]) &&
            !(e->cs[i].flags & ENC_CF_ACTED))
            first = &e->cs[i];
    assert_non_null(first);
    assert_int_equal(timeout(f), ENG_OK);
    assert_true(rs_fx_said(&f->fx, "did not pick"));
    assert_int_equal(e->current, first->id);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_skips_the_turn),
        cmocka_unit_test(test_tactical_ends_the_turn),
        cmocka_unit_test(test_cards_lose_that_cards_turn),
        cmocka_unit_test(test_resolve_player_delays_npc_skipped),
        cmocka_unit_test(test_factions_end_or_pass),
        cmocka_unit_test(test_teams_pick_first_member),
    };
    return cmocka_run_group_tests_name("rs_timeout", tests, NULL, NULL);
}
