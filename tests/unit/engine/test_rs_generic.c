/*
 * Tests for the generic system's rules at the edge of life, written from
 * what a d20 table plays (issue 19): temporary hit points take damage
 * before hp and are gone when spent; with death_saves on, a downed player
 * character's turn is a death save (d20, 10 or more succeeds, three of
 * either decide, a natural 20 is back up with 1 hp and the turn is
 * theirs), damage while down is a failure; with it off, a downed player
 * character still gets their turn and only NPCs are skipped.
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"
#include "rs.h"
#include "rs_fixture.h"
#include "rs_generic.h"
#include "rs_kit.h"

enum { ALICE = 2, BOB = 3 };

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static struct fx *fx_new(uint64_t seed, bool saves)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, &rs_generic, seed, &f->r);
    if (saves) {
        struct rs_call *c = rs_fx_standing(&f->fx, NULL);
        assert_int_equal(rs_settings_apply(c, &rs_generic,
                                           "death_saves=on"), ENG_OK);
    }
    return f;
}

static void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* Add name (owner 0: an NPC) with stats; pools become tracks as the
 * command layer makes them. */
static struct enc_combatant *add(struct fx *f, const char *name,
                                 uint64_t owner, const char *stats)
{
    rs_fx_opts(&f->fx, NULL);
    struct enc_combatant *who = rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = name, .owner = owner, .stats = stats,
        .flags = RS_FX_HP_TRACK,
    });
    assert_non_null(who);
    assert_int_equal(rs_stat_pools(&rs_generic, who, &f->d), ENG_OK);
    return who;
}

/* Damage through the ops, as /combat hp change:-n does. */
static void hurt(struct fx *f, const char *name, int64_t n)
{
    struct enc_combatant *who = rs_fx_who(&f->fx, name);
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    int64_t left = rs_generic.ops->soak(c, who, "hp", n);
    struct enc_track *hp = enc_track(who, "hp");
    int64_t before = hp->cur;
    hp->cur = hp->cur - left < 0 ? 0 : hp->cur - left;
    rs_generic.ops->after_track(c, who, "hp", before);
}

static const struct enc_event *death_save(struct fx *f)
{
    return rs_fx_find(&f->fx, ENC_EV_TEST, "death save");
}

static void test_temp_takes_damage_first(void **state)
{
    (void)state;
    struct fx *f = fx_new(7, false);
    add(f, "Ogre", 0, "hp=30 ac=10 init=9");
    struct enc_combatant *aria = add(f, "Aria", ALICE,
                                     "hp=12 ac=10 init=1 temp=5");
    /* the pool is a track with no maximum, the stat is gone */
    assert_null(enc_stat(aria, "temp"));
    assert_int_equal(rs_fx_track(&f->fx, "Aria", "temp"), 5);
    assert_int_equal(enc_track(aria, "temp")->max, 0);
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    /* 3 damage: all soaked, hp untouched */
    assert_int_equal(rs_fx_attack(&f->fx, RS_FX_GM, true, "Ogre", "Aria",
                                  "30", "3", NULL), ENG_OK);
    assert_int_equal(rs_fx_track(&f->fx, "Aria", "temp"), 2);
    assert_int_equal(rs_fx_track(&f->fx, "Aria", "hp"), 12);
    /* 8 more: 2 soaked, 6 off hp, and the spent pool is gone */
    assert_int_equal(rs_fx_attack(&f->fx, RS_FX_GM, true, "Ogre", "Aria",
                                  "30", "8", NULL), ENG_OK);
    assert_int_equal(rs_fx_track(&f->fx, "Aria", "hp"), 6);
    assert_null(enc_track(aria, "temp"));
    /* the damage event still says the whole 8 */
    const struct enc_event *dv = rs_fx_find(&f->fx, ENC_EV_DAMAGE, "");
    assert_non_null(dv);
    assert_int_equal(dv->a, 8);
    fx_free(f);
}

static void test_saves_off_downed_pc_gets_turn(void **state)
{
    (void)state;
    struct fx *f = fx_new(7, false);
    add(f, "Ogre", 0, "hp=30 init=9");
    add(f, "Aria", ALICE, "hp=5 init=5");
    add(f, "Rat", 0, "hp=2 init=1");
    add(f, "Bram", BOB, "hp=5 init=0");
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    hurt(f, "Aria", 5);
    hurt(f, "Rat", 2);
    assert_string_equal(rs_fx_current(&f->fx), "Ogre");
    /* Aria is down, and her turn comes: no roll, a note */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Aria");
    assert_null(death_save(f));
    assert_true(rs_fx_said(&f->fx, "down"));
    /* the downed Rat is skipped */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_string_equal(rs_fx_current(&f->fx), "Bram");
    assert_non_null(rs_fx_find(&f->fx, ENC_EV_SKIP, ""));
    fx_free(f);
}

/* Everything a death save may do, checked against the rule on every roll
 * of many seeded fights; each outcome must turn up. */
static void test_death_saves_follow_the_rule(void **state)
{
    (void)state;
    int seen_ok = 0, seen_fail = 0, seen_stable = 0, seen_dead = 0;
    int seen_back = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        struct fx *f = fx_new(seed, true);
        add(f, "Ogre", 0, "hp=30 init=9");
        struct enc_combatant *aria = add(f, "Aria", ALICE, "hp=6 init=5");
        add(f, "Rat", 0, "hp=2 init=1");
        assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
        hurt(f, "Aria", 6);
        hurt(f, "Rat", 2);
        int64_t ok = 0, fail = 0;
        for (int turn = 0; turn < 12; turn++) {
            assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
            const struct enc_event *ds = death_save(f);
            /* the NPC is never asked */
            assert_null(rs_fx_find(&f->fx, ENC_EV_TEST, "Rat"));
            if (ds == NULL)
                continue;
            assert_int_equal(ds->who, aria->id);
            assert_true(ds->has_cmp);
            assert_int_equal(ds->target, 10);
            /* a plain d20, shown with the save */
            assert_int_equal(ds->nrolls, 1);
            int face[2];
            assert_int_equal(rs_fx_faces(&f->fx, ds->rolls[0], face, 2), 1);
            assert_int_equal(face[0], ds->value);
            if (ds->value == 20) {
                seen_back++;
                assert_int_equal(rs_fx_track(&f->fx, "Aria", "hp"), 1);
                assert_false(aria->flags & ENC_CF_DOWN);
                assert_string_equal(rs_fx_current(&f->fx), "Aria");
                break;
            }
            if (ds->value >= 10) {
                ok++;
                seen_ok++;
            } else {
                fail++;
                seen_fail++;
            }
            if (ok == 3) {
                seen_stable++;
                assert_false(aria->flags & ENC_CF_DEAD);
                /* stable: no more saves */
                assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
                assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
                assert_null(death_save(f));
                break;
            }
            if (fail == 3) {
                seen_dead++;
                assert_true(aria->flags & ENC_CF_DEAD);
                assert_true(rs_fx_said(&f->fx, "dies"));
                break;
            }
            /* a turn of no use: it moved on past her */
            assert_string_equal(rs_fx_current(&f->fx), "Ogre");
            char st[64];
            rs_fx_status(&rs_generic, f->e, aria, st, sizeof st);
            char want[64];
            snprintf(want, sizeof want, "death saves %lld\xE2\x9C\x93 "
                     "%lld\xE2\x9C\x97", (long long)ok, (long long)fail);
            assert_string_equal(st, want);
        }
        fx_free(f);
    }
    assert_true(seen_ok > 0 && seen_fail > 0 && seen_stable > 0 &&
                seen_dead > 0 && seen_back > 0);
}

static void test_damage_while_down(void **state)
{
    (void)state;
    struct fx *f = fx_new(3, true);
    add(f, "Ogre", 0, "hp=30 init=9");
    struct enc_combatant *aria = add(f, "Aria", ALICE, "hp=6 init=5");
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    hurt(f, "Aria", 6);
    struct gen_comb *st = RS_STATE(struct gen_comb, aria);
    /* stable, then hurt: no longer stable, one failure */
    st->saves = 3;
    hurt(f, "Aria", 2);
    assert_int_equal(st->saves, 0);
    assert_int_equal(st->fails, 1);
    assert_true(rs_fx_said(&f->fx, "no longer stable"));
    hurt(f, "Aria", 1);
    hurt(f, "Aria", 1);
    assert_true(aria->flags & ENC_CF_DEAD);
    /* the dead are skipped without a save */
    assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_null(death_save(f));
    /* healing clears the count, and brings the dead back (the GM's call) */
    struct enc_track *hp = enc_track(aria, "hp");
    hp->cur = 4;
    struct rs_call *c = rs_fx_standing(&f->fx, NULL);
    rs_generic.ops->after_track(c, aria, "hp", 0);
    assert_false(aria->flags & (ENC_CF_DEAD | ENC_CF_DOWN));
    assert_int_equal(st->saves, 0);
    assert_int_equal(st->fails, 0);
    /* an NPC hurt while down counts nothing */
    add(f, "Rat", 0, "hp=1 init=1");
    hurt(f, "Rat", 1);
    hurt(f, "Rat", 1);
    assert_int_equal(RS_STATE(struct gen_comb, rs_fx_who(&f->fx, "Rat"))
                         ->fails, 0);
    fx_free(f);
}

/* The attack's event, its one roll's d20s (faces and whether each counts)
 * and whether a modifier's reason contains word. */
static const struct enc_event *attack_event(struct fx *f)
{
    const struct enc_event *ev = rs_fx_find(&f->fx, ENC_EV_ATTACK, "");
    assert_non_null(ev);
    assert_int_equal(ev->nrolls, 1);
    return ev;
}

static bool has_mod(const struct enc_event *ev, const char *word)
{
    for (int i = 0; i < ev->nmods; i++)
        if (strstr(ev->mods[i].reason, word) != NULL)
            return true;
    return false;
}

/* options:adv / options:dis (a d20 table's advantage): two d20s are
 * rolled and both shown, the higher (adv) or lower (dis) one counts, and
 * the reply says why; both together cancel to one d20. Checked over many
 * seeds against the faces themselves, not a remembered total. */
static void test_attack_advantage_and_disadvantage(void **state)
{
    (void)state;
    static const char *const how[] = {"adv", "dis", "adv dis"};
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            struct fx *f = fx_new(seed, false);
            add(f, "Ogre", 0, "hp=300 ac=10 init=9");
            add(f, "Aria", ALICE, "hp=12 ac=10 init=1 attack=4");
            assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
            assert_int_equal(rs_fx_attack(&f->fx, RS_FX_GM, true, "Aria",
                                          "Ogre", NULL, NULL, how[k]),
                             ENG_OK);
            const struct enc_event *ev = attack_event(f);
            const struct enc_roll *roll = &f->r.rolls[ev->rolls[0]];
            if (k == 2) {
                assert_int_equal(roll->ndice, 1);
                assert_int_equal(ev->value, roll->dice[0].value + 4);
                assert_true(has_mod(ev, "cancel"));
            } else {
                assert_int_equal(roll->ndice, 2);
                int x = roll->dice[0].value, y = roll->dice[1].value;
                int kept = k == 0 ? (x > y ? x : y) : (x < y ? x : y);
                assert_int_equal(ev->value, kept + 4);
                /* exactly one die counts, and it is the kept face */
                bool c0 = !(roll->dice[0].flags & DICE_DIE_UNCOUNTED);
                bool c1 = !(roll->dice[1].flags & DICE_DIE_UNCOUNTED);
                assert_true(c0 != c1);
                assert_int_equal(c0 ? x : y, kept);
                assert_true(has_mod(ev, k == 0 ? "advantage"
                                               : "disadvantage"));
                /* a natural 20 on the kept die is the critical */
                if (kept == 20)
                    assert_true(has_mod(ev, "natural 20"));
            }
            fx_free(f);
        }
}

/* Anything else in options: is refused, naming what generic takes. */
static void test_attack_unknown_option_refused(void **state)
{
    (void)state;
    struct fx *f = fx_new(3, false);
    add(f, "Ogre", 0, "hp=30 ac=10 init=9");
    add(f, "Aria", ALICE, "hp=12 ac=10 init=1");
    assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
    assert_int_equal(rs_fx_attack(&f->fx, RS_FX_GM, true, "Aria", "Ogre",
                                  NULL, NULL, "banana=3"), ENG_INVALID);
    assert_non_null(strstr(f->d.msg, "banana"));
    assert_non_null(strstr(f->d.msg, "adv"));
    fx_free(f);
}

/* ENC_EV_INIT events in the last command's result. */
static int inits(const struct fx *f)
{
    int n = 0;
    for (int i = 0; i < f->r.nev; i++)
        n += f->r.ev[i].kind == ENC_EV_INIT;
    return n;
}

/* reroll=on (issue 32, item 5): the first turn of each round after the
 * first comes with everyone's new roll, and the order is sorted by it
 * (highest first) before that turn starts; off, the first roll holds.
 * Over many seeds, the new order differs from the old at least once. */
static void test_reroll_each_round(void **state)
{
    (void)state;
    int moved = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        for (int on = 0; on <= 1; on++) {
            struct fx *f = fx_new(seed, false);
            if (on) {
                struct rs_call *c = rs_fx_standing(&f->fx, NULL);
                assert_int_equal(rs_settings_apply(c, &rs_generic,
                                                   "reroll=on"), ENG_OK);
            }
            add(f, "Ogre", 0, "hp=30 init=1");
            add(f, "Aria", ALICE, "hp=5 init=3");
            add(f, "Rat", 0, "hp=2 init=0");
            assert_int_equal(rs_fx_begin(&f->fx, RS_FX_GM, true), ENG_OK);
            uint32_t first[3];
            for (int i = 0; i < 3; i++)
                first[i] = f->e->order[i].id;
            for (int t = 0; t < 2; t++) {
                assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
                assert_int_equal(inits(f), 0);
            }
            assert_int_equal(rs_fx_next(&f->fx, RS_FX_GM, true), ENG_OK);
            assert_int_equal(f->e->round, 2);
            assert_int_equal(inits(f), on ? 3 : 0);
            assert_int_equal(f->e->turn_idx, 0);
            assert_int_equal(f->e->current, f->e->order[0].id);
            bool same = true;
            for (int i = 0; i < 3; i++) {
                same = same && first[i] == f->e->order[i].id;
                if (i > 0) {
                    const struct enc_combatant *a =
                        enc_by_id(f->e, f->e->order[i - 1].id);
                    const struct enc_combatant *b =
                        enc_by_id(f->e, f->e->order[i].id);
                    assert_true(a->init[0] >= b->init[0]);
                }
            }
            if (!on)
                assert_true(same);
            moved += on && !same;
            fx_free(f);
        }
    }
    assert_true(moved > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_temp_takes_damage_first),
        cmocka_unit_test(test_saves_off_downed_pc_gets_turn),
        cmocka_unit_test(test_death_saves_follow_the_rule),
        cmocka_unit_test(test_damage_while_down),
        cmocka_unit_test(test_attack_advantage_and_disadvantage),
        cmocka_unit_test(test_attack_unknown_option_refused),
        cmocka_unit_test(test_reroll_each_round),
    };
    return cmocka_run_group_tests_name("rs_generic", tests, NULL, NULL);
}
