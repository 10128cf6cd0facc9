/* What a saved character keeps, as its chapter says (issue 32, item 8):
 * each lasting consequence a system declares (rs_system.lasts) is played
 * across two fights with one saved character, through the command layer
 * (commands from Discord in a server, an in-memory store), and each test
 * quotes the chapter sentence it checks. /character rest gives back what
 * lasts only until a rest, and is refused where the rules have none. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "sheet_json.h"
#include "store.h"

#define GM 100
#define ALICE 201

/* Alice's saved character name, decoded. */
static void load_sheet(struct cmd_fx *f, const char *name, struct sheet *sh)
{
    struct store_sheet_key k = {STORE_SHEET_CHAR, CMD_FX_GUILD, ALICE, name};
    struct store_sheet row;
    char err[SHEET_MAX_ERR];
    assert_int_equal(store_sheet_get(f->store, &k, &row), BOT_OK);
    assert_int_equal(sheet_json_load(row.doc, sh, err, sizeof err), BOT_OK);
    store_sheet_cleanup(&row);
}

/* Stat stat of Alice's saved character name, or missing when it has
 * none. */
static int64_t sheet_stat(struct cmd_fx *f, const char *name,
                          const char *stat, int64_t missing)
{
    struct sheet sh;
    load_sheet(f, name, &sh);
    for (int i = 0; i < sh.nstats; i++)
        if (strcmp(sh.stats[i].name, stat) == 0)
            return sh.stats[i].value;
    return missing;
}

static bool sheet_has_cond(struct cmd_fx *f, const char *name,
                           const char *cond)
{
    struct sheet sh;
    load_sheet(f, name, &sh);
    for (int i = 0; i < sh.nconds; i++)
        if (strcmp(sh.conds[i].name, cond) == 0)
            return true;
    return false;
}

/* A resolve fight: Alice's character (the one she uses) and an Orc,
 * begun. */
static void resolve_fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "resolve",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "hp", "12",
                           "stats", "init=1 defense=11", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
}

static void end_fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
}

/* A teams fight: Alice's Bo on players, the GM's Guard (guard_stats) on
 * guards; team first picks first. */
static void teams_fight(struct cmd_fx *f, const char *first,
                        const char *guard_stats)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "teams",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "character", "Bo",
                           "side", "players", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Guard", "side",
                           "guards", "hp", "10", "stats", guard_stats,
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", "first", first, NULL));
}

/* teams: "If they succeed, they cheat death, and this difficulty value is
 * permanently increased by 5." Bo cheats death at 1 in the first fight,
 * which makes it 6; the second fight starts from 6, so cheating death
 * again makes it 11. */
static void test_teams_cheating_death_raises_the_difficulty(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Bo",
                           "system", "teams", "hp", "5", "stats",
                           "endurance=2 con=4 luck=20 death_dc=1", NULL));
    for (int fight = 0; fight < 2; fight++) {
        teams_fight(f, "players", "endurance=8");
        /* luck 20: every death test is cheated, so the difficulty the
         * second fight starts from shows in what it rises to */
        assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Bo",
                               "amount", "20", NULL));
        cmd_fx_has(f, fight == 0 ? "their death test is now 6"
                                 : "their death test is now 11");
        end_fight(f);
        cmd_fx_has(f, fight == 0 ? "death_dc 6" : "death_dc 11");
        assert_int_equal(sheet_stat(f, "Bo", "death_dc", 0),
                         fight == 0 ? 6 : 11);
    }
}

/* teams: "After you parry, that item receives 1 damage to its
 * durability." and "Items that are broken (have zero durability) cannot
 * be used to block or parry." Bo's dagger (durability 4 by default) is
 * worn to 3 in the first fight and to 2 in the second. */
static void test_teams_item_durability_kept(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Bo",
                           "system", "teams", "hp", "12", "stats",
                           "endurance=10 stamina=2 evasion=1 pdr=2", NULL));
    for (int fight = 0; fight < 2; fight++) {
        teams_fight(f, "guards", "endurance=8 luck=-5");
        assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Guard",
                               "target", "Bo", "roll", "5", "damage", "1",
                               "options", "type=piercing parry=dagger",
                               NULL));
        cmd_fx_has(f, fight == 0 ? "(3 durability" : "(2 durability");
        end_fight(f);
        cmd_fx_has(f, fight == 0 ? "dagger_dur 3" : "dagger_dur 2");
        assert_int_equal(sheet_stat(f, "Bo", "dagger_dur", 0), 3 - fight);
    }
}

/* resolve: "Never the Same. Choose an Attribute and permanently reduce it
 * by -2D—or choose two Attributes and reduce them by -1D each." and "You
 * can only choose this Fallen Fate twice during your character's life."
 * Kira loses agility in two fights; the sheet keeps both losses and the
 * count, and a third fight refuses it. */
static void test_resolve_never_the_same_is_for_life(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Kira",
                           "system", "resolve", "hp", "12", "stats",
                           "init=2 defense=11 agility=4 strength=3", NULL));
    for (int fight = 0; fight < 3; fight++) {
        resolve_fight(f);
        /* the first fight wounds her; after that she comes back Wounded */
        if (fight == 0)
            assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Kira",
                                   "amount", "12", NULL));
        assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Kira",
                               "amount", "1", NULL));
        cmd_fx_has(f, "a Fallen Fate must be chosen");
        if (fight == 2) {
            assert_false(cmd_fx_run(f, ALICE, "fate", NULL, "name", "Kira",
                                    "fate", "never", "attrs", "strength",
                                    NULL));
            cmd_fx_has(f, "already taken Never the Same 2 times");
            break;
        }
        assert_true(cmd_fx_run(f, ALICE, "fate", NULL, "name", "Kira",
                               "fate", "never", "attrs",
                               fight == 0 ? "agility" : "agility,strength",
                               NULL));
        end_fight(f);
        cmd_fx_has(f, "Kira's saved sheet keeps it");
        assert_int_equal(sheet_stat(f, "Kira", "nts", 0), fight + 1);
        assert_int_equal(sheet_stat(f, "Kira", "agility", -1),
                         fight == 0 ? 2 : 1);
        assert_int_equal(sheet_stat(f, "Kira", "strength", -1),
                         fight == 0 ? 3 : 2);
    }
}

/* resolve: "Until they Rest, they can ignore this effect a number of times
 * equal to their Stamina or Control rank—whichever is higher." Tam (stamina
 * 1) ignores a Fallen Fate in the first fight; in the second he has none
 * left; /character rest gives it back, and Wounded ends. */
static void test_resolve_ignores_spent_until_rest(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Tam",
                           "system", "resolve", "hp", "12", "stats",
                           "init=2 defense=11 stamina=1", NULL));
    /* nothing to give back yet */
    assert_true(cmd_fx_run(f, ALICE, "character", "rest", "name", "Tam",
                           NULL));
    cmd_fx_has(f, "Tam is rested already");
    for (int fight = 0; fight < 2; fight++) {
        resolve_fight(f);
        if (fight == 0)
            assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Tam",
                                   "amount", "12", NULL));
        assert_true(cmd_fx_run(f, GM, "damage", NULL, "name", "Tam",
                               "amount", "1", NULL));
        if (fight == 0) {
            cmd_fx_has(f, "1 ignore left");
            assert_true(cmd_fx_run(f, ALICE, "fate", NULL, "name", "Tam",
                                   "fate", "ignore", NULL));
        } else {
            cmd_fx_has(f, "no ignores left");
            assert_false(cmd_fx_run(f, ALICE, "fate", NULL, "name", "Tam",
                                    "fate", "ignore", NULL));
            cmd_fx_has(f, "no ignores left until they rest");
        }
        end_fight(f);
        assert_int_equal(sheet_stat(f, "Tam", "ignores_spent", 0), 1);
        assert_true(sheet_has_cond(f, "Tam", "Wounded"));
    }
    assert_true(cmd_fx_run(f, ALICE, "character", "rest", "name", "Tam",
                           NULL));
    cmd_fx_has(f, "Rested: ignores_spent 0, Wounded ends.");
    assert_int_equal(sheet_stat(f, "Tam", "ignores_spent", 0), 0);
    assert_false(sheet_has_cond(f, "Tam", "Wounded"));
    /* the next fight has its ignore again */
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "resolve",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "ignores 1/1");
}

/* factions: "Damaged shields and armour are destroyed by attacks inflicting
 * at least 8 damage before armour reduction (shields are destroyed
 * first)." Ann's damaged shield breaks in the first fight and stays
 * broken; her damaged armour breaks in the second. */
static void test_factions_destroyed_gear_stays_destroyed(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Ann",
                           "system", "factions", "hp", "30", "stats",
                           "str=10 agi=10 wit=10 armour=2 armour_damaged=1 "
                           "shield=1 shield_damaged=1", NULL));
    for (int fight = 0; fight < 2; fight++) {
        assert_true(cmd_fx_run(f, GM, "combat", "start", "system",
                               "factions", NULL));
        assert_true(cmd_fx_run(f, ALICE, "combat", "join", "side", "a",
                               NULL));
        assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "side",
                               "b", "hp", "10", "stats",
                               "str=10 agi=10 wit=10", NULL));
        assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
        assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Orc",
                               "target", "Ann", "damage", "9", NULL));
        cmd_fx_has(f, fight == 0 ? "The damaged shield of Ann is destroyed"
                                 : "The damaged armour of Ann is destroyed");
        end_fight(f);
        cmd_fx_has(f, fight == 0 ? "no shield" : "no armour");
        assert_int_equal(sheet_stat(f, "Ann", "shield", -1), -1);
        assert_int_equal(sheet_stat(f, "Ann", "shield_damaged", -1), -1);
        assert_int_equal(sheet_stat(f, "Ann", "armour", -1),
                         fight == 0 ? 2 : -1);
    }
}

/* tactical: "A character's exhaustion level is reduced by 1 over a one
 * hour rest, or fully reset over an 8 hour rest." Vex is Exhausted in the
 * first fight and still is in the second; /character rest, the full rest,
 * ends it. */
static void test_tactical_exhaustion_until_rest(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Vex",
                           "system", "tactical", "hp", "20", NULL));
    for (int fight = 0; fight < 2; fight++) {
        assert_true(cmd_fx_run(f, GM, "combat", "start", "system",
                               "tactical", NULL));
        assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
        if (fight == 0)
            assert_true(cmd_fx_run(f, GM, "combat", "condition", "name",
                                   "Vex", "condition", "Exhausted", NULL));
        assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
        cmd_fx_has(f, "Exhausted");
        end_fight(f);
        assert_true(sheet_has_cond(f, "Vex", "Exhausted"));
    }
    assert_true(cmd_fx_run(f, ALICE, "character", "rest", "name", "Vex",
                           NULL));
    cmd_fx_has(f, "Rested: Exhausted ends.");
    assert_false(sheet_has_cond(f, "Vex", "Exhausted"));
}

/* A system whose rules have no rest that gives something back refuses
 * /character rest and says why. */
static void test_rest_refused_without_rests(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           "system", "generic", "hp", "24", NULL));
    assert_false(cmd_fx_run(f, ALICE, "character", "rest", "name", "Aria",
                            NULL));
    cmd_fx_has(f, "have no rest that gives anything back");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                              cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_teams_cheating_death_raises_the_difficulty),
        T(test_teams_item_durability_kept),
        T(test_resolve_never_the_same_is_for_life),
        T(test_resolve_ignores_spent_until_rest),
        T(test_factions_destroyed_gear_stays_destroyed),
        T(test_tactical_exhaustion_until_rest),
        T(test_rest_refused_without_rests),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_lasting", tests, NULL, NULL);
}
