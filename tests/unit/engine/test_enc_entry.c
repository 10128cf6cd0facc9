/*
 * Tests for events of the order (enc_entry.h) in every system: where each
 * system places them (a count that loses ties, a card of its own drawn
 * from the deck, the start or end of the round), the turn stopping on one
 * with its note and its dice, a one-shot coming once and leaving, picks
 * and passes waiting while the turn is on one, an event never being a
 * combatant, a hidden one's lines the GM's, the refusals and limits, and
 * a packed and a cloned fight (what undo restores) keeping them.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "enc_entry.h"
#include "enc_pack.h"
#include "rs.h"
#include "rs_cards.h"
#include "rs_fixture.h"
#include "rs_generic.h"
#include "rs_tactical.h"
#include "rs_teams.h"

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static struct fx *fx_new(const struct rs_system *rs, uint64_t seed)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, rs, seed, &f->r);
    rs_fx_opts(&f->fx, NULL);
    return f;
}

static void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

static enum eng_err add(struct fx *f, const struct enc_entry_req *q)
{
    return enc_entry_add(rs_fx_standing(&f->fx, NULL), q);
}

/* The event the turn is on, by name, or "" when on none. */
static const char *on(struct fx *f)
{
    const struct enc_entry *x = enc_entry_on(f->e);
    return x != NULL ? x->name : "";
}

static void next(struct fx *f)
{
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
}

/* Ann (d20+50) then the Dragon (d20) in a d20 system. */
static struct fx *d20_two(const struct rs_system *rs, uint64_t seed)
{
    struct fx *f = fx_new(rs, seed);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Ann", .owner = 7, .side = "crew", .stats = "init=50"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Dragon", .side = "foes", .stats = "init=0"}));
    return f;
}

/* generic: a lair action at 20 by default, between Ann and the Dragon;
 * the turn stops on it with its note and its dice, and moves on. */
static void test_generic_lair_at_its_count(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 1);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Lair", .note = "The ceiling shakes", .dice = "2d6"}),
        ENG_OK);
    assert_int_equal(f->e->entries[0].at, ENC_ENTRY_COUNT);
    assert_int_equal(f->e->entries[0].count, 20);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Ann");
    for (int round = 1; round <= 2; round++) {
        if (round == 2) {
            next(f);
            assert_int_equal(f->e->round, 2);
            assert_string_equal(rs_fx_current(&f->fx), "Ann");
        }
        next(f);
        assert_string_equal(on(f), "Lair");
        assert_string_equal(rs_fx_current(&f->fx), "");
        assert_true(rs_fx_said(&f->fx, "The ceiling shakes"));
        int i = rs_fx_roll(&f->fx, "Lair", 0);
        assert_true(i >= 0);
        assert_true(f->r.rolls[i].total >= 2 && f->r.rolls[i].total <= 12);
        next(f);
        assert_string_equal(on(f), "");
        assert_string_equal(rs_fx_current(&f->fx), "Dragon");
    }
    fx_free(f);
}

/* An event loses ties: added at the Dragon's own count while Ann acts,
 * it comes after the Dragon; in cards (lowest first) before a higher
 * card. */
static void test_event_loses_ties(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 2);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    char at[16];
    snprintf(at, sizeof at, "%lld",
             (long long)rs_fx_who(&f->fx, "Dragon")->init[0]);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "Tie",
                                                    .at = at}), ENG_OK);
    const struct enc_entry *x = enc_entry_find(f->e, "Tie");
    assert_false(enc_entry_precedes(f->e, x, x->count));
    assert_true(enc_entry_precedes(f->e, x, x->count - 1));
    next(f);
    assert_string_equal(rs_fx_current(&f->fx), "Dragon");
    next(f);
    assert_string_equal(on(f), "Tie");
    fx_free(f);
}

/* A hazard rolls its own count (generic and tactical: the d20), shown as
 * a roll; in resolve it has no rank to score from and needs at:. */
static void test_hazard_rolls_or_needs_at(void **state)
{
    (void)state;
    const struct rs_system *rolled[] = {&rs_generic, &rs_tactical};
    for (int k = 0; k < 2; k++) {
        struct fx *f = d20_two(rolled[k], 3);
        assert_int_equal(add(f, &(struct enc_entry_req){
            .name = "Lava", .kind = ENC_ENTRY_HAZARD}), ENG_OK);
        int i = rs_fx_roll(&f->fx, "initiative", 0);
        assert_true(i >= 0);
        assert_int_equal(f->e->entries[0].count, f->r.rolls[i].total);
        fx_free(f);
    }
    struct fx *f = fx_new(rs_find("resolve"), 3);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Vos", .stats = "init=2 resolve=14 defense=12"}));
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Turret", .kind = ENC_ENTRY_HAZARD}), ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "no rank"));
    assert_int_equal(f->e->nentries, 0);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Turret", .kind = ENC_ENTRY_HAZARD, .at = "5"}), ENG_OK);
    /* Vos scores 5 (rank 2 + 3): the turret acts right after him */
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Vos");
    next(f);
    assert_string_equal(on(f), "Turret");
    next(f);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(rs_fx_current(&f->fx), "Vos");
    fx_free(f);
}

/* A one-shot comes in its round only, then leaves the order; the start
 * and the end of the round stop the walk too. */
static void test_once_start_and_end(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_tactical, 4);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Siren", .at = "start"}), ENG_OK);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Bridge", .kind = ENC_ENTRY_ONCE, .at = "end", .round = 2,
        .note = "The bridge falls"}), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(on(f), "Siren");
    next(f);
    assert_string_equal(rs_fx_current(&f->fx), "Ann");
    next(f);
    assert_string_equal(rs_fx_current(&f->fx), "Dragon");
    next(f);                                    /* round 1: no bridge */
    assert_int_equal(f->e->round, 2);
    assert_string_equal(on(f), "Siren");
    next(f);
    next(f);
    next(f);
    assert_string_equal(on(f), "Bridge");
    assert_true(rs_fx_said(&f->fx, "The bridge falls"));
    assert_int_equal(f->e->nentries, 2);
    next(f);
    assert_int_equal(f->e->round, 3);
    assert_string_equal(on(f), "Siren");
    assert_null(enc_entry_find(f->e, "Bridge"));
    assert_int_equal(f->e->nentries, 1);
    fx_free(f);
}

/* cards: a hazard draws a free card of its own, the deal leaves it out of
 * the deck, and the order reaches it at its card, lowest first; a card
 * somebody holds is refused. */
static void test_cards_hazard_has_its_card(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        struct fx *f = fx_new(&rs_cards, seed);
        assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
            .name = "Ana", .owner = 7, .side = "heroes",
            .stats = "strike=3 finesse=2 endure=2"}));
        assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
            .name = "Troll", .side = "orcs",
            .stats = "strike=3 endure=3 cards=2"}));
        assert_int_equal(add(f, &(struct enc_entry_req){
            .name = "Fire", .kind = ENC_ENTRY_HAZARD}), ENG_OK);
        int64_t card = f->e->entries[0].count;
        assert_true(card >= 1 && card <= 10);
        assert_true(rs_fx_roll(&f->fx, "card", 0) >= 0);
        assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
        int lower = 0;
        for (int i = 0; i < f->e->ncs; i++)
            for (int k = 0; k < f->e->cs[i].ninit; k++) {
                assert_true(f->e->cs[i].init[k] != card);
                lower += f->e->cs[i].init[k] < card;
            }
        char at[8];
        snprintf(at, sizeof at, "%lld",
                 (long long)rs_fx_who(&f->fx, "Ana")->init[0]);
        assert_int_equal(add(f, &(struct enc_entry_req){.name = "Smoke",
                                                        .at = at}),
                         ENG_EXISTS);
        /* the slots before its card, then the fire */
        for (int i = 0; i < lower; i++) {
            assert_string_equal(on(f), "");
            next(f);
        }
        assert_string_equal(on(f), "Fire");
        assert_int_equal(f->e->round, 1);
        fx_free(f);
    }
}

/* teams: no count to sit at (refused with why); the start's event stops
 * play before the first pick, which waits for /combat next. */
static void test_teams_round_edges(void **state)
{
    (void)state;
    struct fx *f = fx_new(&rs_teams, 5);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Boudica", .owner = 7, .side = "players",
        .stats = "endurance=12 evasion=5"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Guard", .side = "guards", .stats = "endurance=8"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Guard 2", .side = "guards", .stats = "endurance=8"}));
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "Alarm",
                                                    .at = "20"}),
                     ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "alternate"));
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "Alarm"}),
                     ENG_OK);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "Gate",
                                                    .at = "end"}), ENG_OK);
    rs_fx_opts(&f->fx, "first", "players", NULL);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    rs_fx_opts(&f->fx, NULL);
    assert_string_equal(on(f), "Alarm");
    assert_int_equal(rs_fx_pick(&f->fx, RS_FX_GM, true, "Guard"),
                     ENG_STATE);
    assert_non_null(strstr(f->d.msg, "on the event Alarm"));
    next(f);
    assert_string_equal(on(f), "");
    /* Boudica's team is first (alone: she starts), then the guards */
    int turns = 0;
    while (strcmp(on(f), "") == 0 && turns < 10) {
        if (rs_fx_current(&f->fx)[0] == '\0') {
            const char *who = rs_fx_who(&f->fx, "Guard")->flags &
                                      ENC_CF_ACTED
                                  ? "Guard 2"
                                  : "Guard";
            enum eng_err err = rs_fx_pick(&f->fx, RS_FX_GM, true, who);
            if (err != ENG_OK)
                fail_msg("pick %s: %s", who, f->d.msg);
        }
        next(f);
        turns++;
    }
    assert_int_equal(turns, 3);
    assert_string_equal(on(f), "Gate");
    assert_int_equal(f->e->round, 1);
    next(f);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(on(f), "Alarm");
    fx_free(f);
}

/* factions: the end's event comes after the round's passes, a pass waits
 * while the turn is on it, and the next round opens after it. */
static void test_factions_round_end(void **state)
{
    (void)state;
    struct fx *f = fx_new(rs_find("factions"), 6);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Balthasar", .owner = 7, .side = "Players",
        .stats = "str=9 agi=11 wit=12"}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Bandit", .side = "Bandits", .stats = "str=10 agi=10 wit=8"}));
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Storm", .kind = ENC_ENTRY_HAZARD, .at = "end",
        .dice = "1d6"}), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    for (int i = 0; i < 4 && strcmp(on(f), "") == 0; i++)
        assert_int_equal(rs_fx_pass(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(on(f), "Storm");
    assert_int_equal(f->e->round, 1);
    assert_true(rs_fx_roll(&f->fx, "Storm", 0) >= 0);
    assert_int_equal(rs_fx_pass(&f->fx, RS_FX_GM, true), ENG_STATE);
    next(f);
    assert_int_equal(f->e->round, 2);
    assert_string_equal(on(f), "");
    assert_true(f->e->acting_side >= 0);
    fx_free(f);
}

/* An event is never a combatant: not found by name, no side, its name
 * never a combatant's (both ways). */
static void test_never_a_combatant(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 7);
    int ncs = f->e->ncs, nsides = f->e->nsides;
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "Lair"}),
                     ENG_OK);
    assert_null(enc_by_name(f->e, "Lair"));
    assert_int_equal(f->e->ncs, ncs);
    assert_int_equal(f->e->nsides, nsides);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "dragon"}),
                     ENG_EXISTS);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "LAIR"}),
                     ENG_EXISTS);
    fx_free(f);
}

static void test_refusals_and_limits(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 8);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = ""}),
                     ENG_INVALID);
    char longname[ENC_MAX_ENTRY_NAME + 2];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(add(f, &(struct enc_entry_req){.name = longname}),
                     ENG_LIMIT);
    char longnote[ENC_MAX_ENTRY_NOTE + 2];
    memset(longnote, 'n', sizeof longnote - 1);
    longnote[sizeof longnote - 1] = '\0';
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "A",
                                                    .note = longnote}),
                     ENG_LIMIT);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "A",
                                                    .dice = "2d"}),
                     ENG_SYNTAX);
    assert_non_null(strstr(f->d.msg, "dice:"));
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "A",
                                                    .at = "100"}),
                     ENG_INVALID);
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "A",
                                                    .round = 2}),
                     ENG_INVALID);
    assert_int_equal(f->e->nentries, 0);
    char name[8];
    for (int i = 0; i < ENC_MAX_ENTRIES; i++) {
        snprintf(name, sizeof name, "E%d", i);
        assert_int_equal(add(f, &(struct enc_entry_req){.name = name}),
                         ENG_OK);
    }
    assert_int_equal(add(f, &(struct enc_entry_req){.name = "More"}),
                     ENG_LIMIT);
    assert_int_equal(enc_entry_remove(rs_fx_standing(&f->fx, NULL), "E0"),
                     ENG_OK);
    assert_int_equal(enc_entry_remove(rs_fx_standing(&f->fx, NULL), "E0"),
                     ENG_NOTFOUND);
    fx_free(f);
    /* a one-shot in a round gone by, and in the running round when its
     * place has passed */
    f = d20_two(&rs_generic, 8);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    next(f);
    next(f);
    assert_int_equal(f->e->round, 2);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Old", .kind = ENC_ENTRY_ONCE, .round = 1}), ENG_STATE);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Old", .kind = ENC_ENTRY_ONCE, .round = 2, .at = "start"}),
        ENG_STATE);
    assert_non_null(strstr(f->d.msg, "round:3"));
    fx_free(f);
}

/* A hidden event's lines and dice are the GM's alone. */
static void test_hidden_is_secret(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 9);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Whisper", .at = "start", .dice = "1d4", .hidden = true}),
        ENG_OK);
    for (int i = 0; i < f->r.nev; i++)
        assert_true(f->r.ev[i].secret);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(on(f), "Whisper");
    int i = rs_fx_roll(&f->fx, "Whisper", 0);
    assert_true(i >= 0);
    assert_true(f->r.rolls[i].secret);
    bool said = false;
    for (int k = 0; k < f->r.nev; k++)
        if (f->r.ev[k].kind == ENC_EV_SAY && f->r.ev[k].nrolls > 0) {
            assert_true(f->r.ev[k].secret);
            said = true;
        }
    assert_true(said);
    fx_free(f);
}

/* Undo restores a saved fight: a packed and a cloned one keep the events
 * and the one the turn is on. */
static void test_pack_and_clone_keep_them(void **state)
{
    (void)state;
    struct fx *f = d20_two(&rs_generic, 10);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Lair", .note = "Rumble", .dice = "1d6"}), ENG_OK);
    assert_int_equal(add(f, &(struct enc_entry_req){
        .name = "Once", .kind = ENC_ENTRY_ONCE, .at = "end", .round = 3,
        .hidden = true}), ENG_OK);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    next(f);
    assert_string_equal(on(f), "Lair");
    struct enc_pack *p = enc_pack(f->e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    struct encounter *k = enc_clone(f->e);
    assert_non_null(u);
    assert_non_null(k);
    struct encounter *both[] = {u, k};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(both[i]->nentries, 2);
        assert_int_equal(both[i]->entry_on, f->e->entry_on);
        assert_string_equal(enc_entry_on(both[i])->name, "Lair");
        const struct enc_entry *o = enc_entry_find(both[i], "once");
        assert_non_null(o);
        assert_int_equal(o->round, 3);
        assert_true(o->hidden);
        assert_string_equal(both[i]->entries[0].note, "Rumble");
        assert_string_equal(both[i]->entries[0].dice, "1d6");
        assert_int_equal(both[i]->entries[0].fired, 1);
        assert_int_equal(both[i]->ncs, 2);
    }
    enc_free(u);
    enc_free(k);
    enc_pack_free(p);
    fx_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generic_lair_at_its_count),
        cmocka_unit_test(test_event_loses_ties),
        cmocka_unit_test(test_hazard_rolls_or_needs_at),
        cmocka_unit_test(test_once_start_and_end),
        cmocka_unit_test(test_cards_hazard_has_its_card),
        cmocka_unit_test(test_teams_round_edges),
        cmocka_unit_test(test_factions_round_end),
        cmocka_unit_test(test_never_a_combatant),
        cmocka_unit_test(test_refusals_and_limits),
        cmocka_unit_test(test_hidden_is_secret),
        cmocka_unit_test(test_pack_and_clone_keep_them),
    };
    return cmocka_run_group_tests_name("enc_entry", tests, NULL, NULL);
}
