/* Saved characters through the command layer (cmd_exec, cmd_complete on
 * an in-memory store, commands from Discord in a server): /character
 * create, set, show, list, delete and use, private and each player's own;
 * /combat join character: bringing a copy that the options override and
 * that deleting the sheet leaves alone; /attack with: through the
 * system's own attack; the end of a fight writing the tracks back, /combat
 * reopen putting them back, /config writeback:false; autocomplete of
 * character: and with:; the character quota. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "sheet_json.h"
#include "store.h"

#define GM 100
#define ALICE 201
#define BOB 202

#define ARIA_SHEET                                                            \
    "name", "Aria", "system", "generic", "hp", "24", "stats",                \
        "ac=15 attack=5", "attack", "Longsword", "damage", "1d8+3"

/* Alice's saved character Aria's sheet, decoded. */
static void aria_sheet(struct cmd_fx *f, struct sheet *sh)
{
    struct store_sheet_key k = {STORE_SHEET_CHAR, CMD_FX_GUILD, ALICE,
                                "Aria"};
    struct store_sheet row;
    char err[SHEET_MAX_ERR];
    assert_int_equal(store_sheet_get(f->store, &k, &row), BOT_OK);
    assert_int_equal(sheet_json_load(row.doc, sh, err, sizeof err), BOT_OK);
    store_sheet_cleanup(&row);
}

static int64_t aria_hp(struct cmd_fx *f)
{
    struct sheet sh;
    aria_sheet(f, &sh);
    for (int i = 0; i < sh.ntracks; i++)
        if (strcmp(sh.tracks[i].name, "hp") == 0)
            return sh.tracks[i].cur;
    fail_msg("Aria's sheet has no hp");
    return -1;
}

static void test_character_private_and_own(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", ARIA_SHEET,
                           NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "hp 24/24");
    cmd_fx_has(f, "Longsword: damage 1d8+3");
    /* one name per player and server, case ignored */
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "ARIA",
                            "system", "generic", NULL));
    cmd_fx_has(f, "you already have a character named ARIA");
    /* Bob has his own namespace and never reaches Alice's */
    assert_false(cmd_fx_run(f, BOB, "character", "show", "name", "Aria",
                            NULL));
    cmd_fx_has(f, "you have no character named Aria");
    assert_false(cmd_fx_run(f, BOB, "character", "set", "name", "Aria",
                            "hp", "1", NULL));
    assert_false(cmd_fx_run(f, BOB, "character", "delete", "name", "Aria",
                            NULL));
    assert_true(cmd_fx_run(f, BOB, "character", "create", "name", "Aria",
                           "system", "generic", NULL));
    assert_int_equal(aria_hp(f), 24);
    /* set: an attack added, another refused for bad dice, one removed */
    assert_true(cmd_fx_run(f, ALICE, "character", "set", "attack", "Bow",
                           "roll", "1d20+4", "damage", "1d6", NULL));
    cmd_fx_has(f, "Bow: roll 1d20+4, damage 1d6");
    assert_false(cmd_fx_run(f, ALICE, "character", "set", "attack", "Axe",
                            "damage", "2d", NULL));
    cmd_fx_has(f, "Axe: damage \"2d\"");
    assert_false(cmd_fx_run(f, ALICE, "character", "set", "stats", "ac=101",
                            NULL));
    cmd_fx_has(f, "ac must be 0 to 100");
    assert_true(cmd_fx_run(f, ALICE, "character", "set", "attack", "bow",
                           "remove", "true", NULL));
    struct sheet sh;
    aria_sheet(f, &sh);
    assert_int_equal(sh.nattacks, 1);
    assert_true(cmd_fx_run(f, ALICE, "character", "list", NULL));
    cmd_fx_has(f, "Aria (generic): the one you use");
    assert_true(cmd_fx_run(f, ALICE, "character", "delete", "name", "aria",
                           NULL));
    assert_false(cmd_fx_run(f, ALICE, "character", "show", NULL));
    cmd_fx_has(f, "you use none in this server");
}

/* A new server plays generic until told otherwise: the players' guide's
 * first command (no system:) makes a generic character. */
static void test_new_server_plays_generic(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           "hp", "24", "init", "+3", "stats",
                           "ac=15 attack=5", NULL));
    cmd_fx_has(f, "Aria (generic)");
}

/* The first fight of a system with commands of its own makes a new server
 * that system's (generic was only the default): characters then default
 * to it; a server that plays two asks which. */
static void test_first_system_fight_replaces_the_default(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "teams",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Aria",
                           NULL));
    cmd_fx_has(f, "Aria (");
    assert_null(strstr(f->text, "(generic)"));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "cards",
                           NULL));
    assert_false(cmd_fx_run(f, BOB, "character", "create", "name", "Bram",
                            NULL));
    cmd_fx_has(f, "give the character's system with system:");
}

static void test_character_quota(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.max_chars = 2;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "A",
                           "system", "generic", NULL));
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "B",
                           "system", "generic", NULL));
    assert_false(cmd_fx_run(f, ALICE, "character", "create", "name", "C",
                            "system", "generic", NULL));
    cmd_fx_has(f, "you have 2 characters in this server, the most one "
                  "player may keep; delete one first");
    /* the quota is per player */
    assert_true(cmd_fx_run(f, BOB, "character", "create", "name", "C",
                           "system", "generic", NULL));
}

/* A generic fight with a Goblin, Aria joined from her sheet, begun. */
static void fight_with_aria(struct cmd_fx *f, const char *extra_name,
                            const char *extra_value)
{
    assert_true(cmd_fx_run(f, ALICE, "character", "create", ARIA_SHEET,
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Goblin", "hp",
                           "30", "stats", "ac=5 attack=50", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "character", "Aria",
                           extra_name, extra_value, NULL));
}

static void test_join_brings_a_copy(void **state)
{
    struct cmd_fx *f = *state;
    fight_with_aria(f, "hp", "10");
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "Aria hp 10/10"); /* the option overrides the sheet */
    /* deleting the sheet never touches the fight's copy */
    assert_true(cmd_fx_run(f, ALICE, "character", "delete", "name", "Aria",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "Aria hp 10/10");
    /* a sheet of another system is refused */
    assert_true(cmd_fx_run(f, BOB, "character", "create", "name", "Tess",
                           "system", "teams", NULL));
    assert_false(cmd_fx_run(f, BOB, "combat", "join", "character", "Tess",
                            NULL));
    cmd_fx_has(f, "Tess is a character of the teams system; this fight "
                  "plays generic");
}

static void test_attack_with_saved_attack(void **state)
{
    struct cmd_fx *f = *state;
    fight_with_aria(f, NULL, NULL);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    assert_false(cmd_fx_run(f, ALICE, "attack", NULL, "target", "Goblin",
                            "attacker", "Aria", "with", "Bow", NULL));
    cmd_fx_has(f, "Aria has no attack named Bow; theirs: Longsword");
    assert_false(cmd_fx_run(f, GM, "attack", NULL, "target", "Aria",
                            "attacker", "Goblin", "with", "Claw", NULL));
    cmd_fx_has(f, "Goblin carries no saved attacks");
    /* the saved damage, with a typed roll: the attack bonus comes from
     * the roll given, so the generic system adds nothing to it */
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "target", "Goblin",
                           "attacker", "Aria", "with", "longsword", "roll",
                           "1d20+20", NULL));
    cmd_fx_has(f, "Aria attacks Goblin");
    cmd_fx_has(f, "Goblin takes");
    cmd_fx_has(f, "+3"); /* the Longsword's 1d8+3, with its modifier */
}

static void test_end_writes_back_and_reopen_undoes(void **state)
{
    struct cmd_fx *f = *state;
    fight_with_aria(f, NULL, NULL);
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Aria", "change",
                           "-7", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Aria's saved sheet keeps it: hp 17/24.");
    assert_int_equal(aria_hp(f), 17);
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    cmd_fx_has(f, "Aria's saved sheet is back as it was before the end.");
    assert_int_equal(aria_hp(f), 24);
    /* ended again: written again; a new fight starts from the sheet */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_int_equal(aria_hp(f), 17);
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "Aria hp 17/24");
}

/* resolve's Wounded outlasts a fight (the chapter: until they Rest): the
 * end keeps it on the sheet and the next fight starts with it. */
static void test_lasting_condition_kept(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Kira",
                           "system", "resolve", "stats",
                           "init=2 resolve=12 defense=11", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "resolve",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Kira", "change",
                           "-12", NULL));
    cmd_fx_has(f, "Kira is now Wounded");
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    cmd_fx_has(f, "Kira's saved sheet keeps it: hp 0/12; Wounded.");
    assert_true(cmd_fx_run(f, ALICE, "character", "show", NULL));
    cmd_fx_has(f, "Conditions: Wounded");
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "resolve",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "status", NULL));
    cmd_fx_has(f, "Kira hp 0/12");
    cmd_fx_has(f, "Wounded");
}

/* tactical's Wounds, Injuries and Poisoned last until treated (the
 * chapter: a wound's disadvantage stays "until the wound is treated"):
 * the sheet keeps them; Prone, a condition of the moment, it does not. */
static void test_tactical_wound_kept(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Vex",
                           "system", "tactical", "hp", "20", "stats",
                           "init=3 stamina=3 av=4 endurance=2 strength=2",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "tactical",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "side", "crew",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Vex",
                           "condition", "Strength Wound", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Vex",
                           "condition", "Prone", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "character", "show", NULL));
    cmd_fx_has(f, "Strength Wound");
    assert_null(strstr(f->text, "Prone"));
}

static void test_writeback_switched_off(void **state)
{
    struct cmd_fx *f = *state;
    fight_with_aria(f, NULL, NULL);
    /* the server's managers only */
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "writeback", "false",
                            NULL));
    f->gm = GM; /* the console's --gm: manages the server */
    assert_true(cmd_fx_run(f, GM, "config", NULL, "writeback", "false",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Aria", "change",
                           "-7", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_null(strstr(f->text, "saved sheet"));
    assert_int_equal(aria_hp(f), 24);
}

/* The choices autocomplete offers for focused, comma-separated. */
static const char *complete(struct cmd_fx *f, uint64_t user,
                            const char *command, const char *sub,
                            const char *focused, const char *typed,
                            const char *attacker)
{
    return cmd_fx_complete(f, user, command, sub, focused, typed,
                           attacker != NULL ? "attacker" : NULL, attacker);
}

static void test_complete_characters_and_attacks(void **state)
{
    struct cmd_fx *f = *state;
    fight_with_aria(f, NULL, NULL);
    assert_true(cmd_fx_run(f, ALICE, "character", "create", "name", "Brim",
                           "system", "generic", NULL));
    assert_true(cmd_fx_run(f, BOB, "character", "create", "name", "Bex",
                           "system", "generic", NULL));
    assert_string_equal(complete(f, ALICE, "combat", "join", "character", "",
                                 NULL),
                        "Aria,Brim");
    assert_string_equal(complete(f, ALICE, "combat", "join", "character",
                                 "b", NULL),
                        "Brim");
    assert_string_equal(complete(f, BOB, "character", "show", "name", "",
                                 NULL),
                        "Bex");
    assert_true(cmd_fx_run(f, ALICE, "character", "set", "name", "Aria",
                           "attack", "Bow", "damage", "1d6", NULL));
    /* the fight's copy has the Longsword only: the sheet changed later */
    assert_string_equal(complete(f, ALICE, "attack", NULL, "with", "",
                                 "Aria"),
                        "Longsword");
    /* Bob may not act for Aria: nothing of hers is offered */
    assert_string_equal(complete(f, BOB, "attack", NULL, "with", "",
                                 "Aria"),
                        "");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, cmd_fx_setup_discord, \
                                             cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_character_private_and_own),
        T(test_character_quota),
        T(test_new_server_plays_generic),
        T(test_first_system_fight_replaces_the_default),
        T(test_join_brings_a_copy),
        T(test_attack_with_saved_attack),
        T(test_end_writes_back_and_reopen_undoes),
        T(test_writeback_switched_off),
        T(test_lasting_condition_kept),
        T(test_tactical_wound_kept),
        T(test_complete_characters_and_attacks),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_character", tests, NULL, NULL);
}
