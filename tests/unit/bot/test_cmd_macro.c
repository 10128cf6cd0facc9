/* Saved rolls at the command layer (bot/cmd/cmd_macro.c): /macro save,
 * list, show and delete, and "@name" in /roll, through cmd_exec() on a
 * real in-memory store. Bad dice, bad names, duplicates and quotas are
 * refused and change nothing; one user cannot delete another's; a
 * server-wide one needs the server's managers; in a DM only the user's
 * own work. Dice totals come from the seeded RNG, so the tests look at
 * the dice shown, not at totals. Also whose dice syntax /roll reads
 * (/config dice:, /macro dialect). */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "cmd_macro.h"
#include "msg.h"
#include "store.h"

#define ALICE 201
#define BOB 202
#define MANAGER 203

static int64_t count(struct cmd_fx *f, uint64_t guild, uint64_t user)
{
    int64_t n = -1;
    assert_int_equal(store_macro_count(f->store, guild, user, &n), BOT_OK);
    return n;
}

static bool save(struct cmd_fx *f, uint64_t user, const char *name,
                 const char *dice)
{
    return cmd_fx_run(f, user, "macro", "save", "name", name, "dice", dice,
                      NULL);
}

/* A refusal: an ephemeral error that changed nothing. */
static void refused(struct cmd_fx *f, const char *needle)
{
    assert_true(f->reply.is_error);
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, needle);
}

/* The command was refused (accepted false), with needle. */
static void refused_if(struct cmd_fx *f, bool accepted, const char *needle)
{
    assert_false(accepted);
    refused(f, needle);
}

static void test_macro_save_and_roll(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(save(f, ALICE, "Stealth", "1d20+7 # Stealth"));
    cmd_fx_has(f, "Saved @stealth: 1d20+7 # Stealth");
    assert_true(f->reply.ephemeral);

    /* The name is case-insensitive; the macro's label names the roll. */
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@STEALTH",
                           NULL));
    cmd_fx_has(f, "@stealth (your own saved roll)");
    cmd_fx_has(f, "Stealth: 1d20 (");
    cmd_fx_has(f, ")+7 = ");

    /* What a player adds comes after the saved dice. */
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@stealth+2",
                           NULL));
    cmd_fx_has(f, ")+7+2 = ");
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@stealth adv",
                           NULL));
    cmd_fx_has(f, ")+7 adv = ");
    /* Their own label replaces the saved one, in the dice or label:. */
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice",
                           "@stealth # Sneaking", NULL));
    cmd_fx_has(f, "Sneaking: 1d20");
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@stealth",
                           "label", "Hide", NULL));
    cmd_fx_has(f, "rolls: Hide");
    assert_null(strstr(f->text, "Stealth:"));
}

static void test_macro_roll_refuses_other_forms(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(save(f, ALICE, "hit", "1d20+5"));
    static const char *const bad[] = {"@hit*2", "@hit/2", "@hit>=10",
                                      "@hit+@hit", "@hit 3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", bad[i],
                                NULL));
        refused(f, "after @hit may come +N or -N, more dice (+1d4), adv, "
                   "dis or a # label");
    }
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@", NULL));
    refused(f, "@ is followed by the name of a saved roll");
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@nosuch",
                            NULL));
    refused(f, "no saved roll @nosuch");
}

static void test_macro_bad_dice_refused(void **state)
{
    struct cmd_fx *f = *state;
    assert_false(save(f, ALICE, "oops", "1d"));
    refused(f, "dice: nothing was saved");
    cmd_fx_has(f, "unexpected end of expression");
    assert_false(save(f, ALICE, "loop", "@oops+1"));
    refused(f, "option dice takes dice written out; a saved roll "
               "(@name) works only in /roll's dice:");
    assert_int_equal(count(f, 0, ALICE), 0);
    /* Words after the dice are kept as its label. */
    assert_true(save(f, ALICE, "fire", "8d6 Fireball"));
    cmd_fx_has(f, "Saved @fire: 8d6 # Fireball");
}

/* Other dice options take no @name: said plainly, not as a parse error. */
static void test_macro_only_in_roll(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    assert_true(save(f, MANAGER, "fire", "8d6"));
    assert_true(cmd_fx_run(f, MANAGER, "combat", "start", "system",
                           "generic", NULL));
    assert_true(cmd_fx_run(f, MANAGER, "combat", "add", "name", "Orc", "hp",
                           "10", NULL));
    assert_false(cmd_fx_run(f, MANAGER, "attack", NULL, "target", "Orc",
                            "attacker", "Orc", "damage", "@fire", NULL));
    refused(f, "option damage takes dice written out; a saved roll "
               "(@name) works only in /roll's dice:");
}

static void test_macro_bad_name_refused(void **state)
{
    struct cmd_fx *f = *state;
    static const char *const bad[] = {"1st", "two words", "a+b", "_x",
                                      "everyone", "here",
                                      "abcdefghijklmnopqrstuvwxyz0123456"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(save(f, ALICE, bad[i], "1d6"));
        refused(f, "a saved roll's name is 1 to 32 letters, digits or _");
    }
    assert_int_equal(count(f, 0, ALICE), 0);
    /* 32 is allowed, and a leading @ is only a way of writing it. */
    assert_true(save(f, ALICE, "@abcdefghijklmnopqrstuvwxyz012345", "1d6"));
    assert_int_equal(count(f, 0, ALICE), 1);
}

static void test_macro_duplicate_refused_then_replaced(void **state)
{
    struct cmd_fx *f = *state;
    struct store_macro m;
    assert_true(save(f, ALICE, "heal", "2d4+2"));
    assert_false(save(f, ALICE, "HEAL", "2d4+3"));
    refused(f, "you already have @heal (2d4+2); give replace:true");
    assert_int_equal(store_macro_get(f->store, 0, ALICE, "heal", &m), BOT_OK);
    assert_string_equal(m.dice, "2d4+2");
    assert_true(cmd_fx_run(f, ALICE, "macro", "save", "name", "heal", "dice",
                           "2d4+3", "replace", "true", NULL));
    cmd_fx_has(f, "Replaced @heal: 2d4+3");
    assert_int_equal(store_macro_get(f->store, 0, ALICE, "heal", &m), BOT_OK);
    assert_string_equal(m.dice, "2d4+3");
    /* Bob's name space is his own. */
    assert_true(save(f, BOB, "heal", "1d8"));
}

static void test_macro_user_quota(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.max_macros_user = 2;
    assert_true(save(f, ALICE, "a", "1d4"));
    assert_true(save(f, ALICE, "b", "1d4"));
    assert_false(save(f, ALICE, "c", "1d4"));
    refused(f, "you have 2 saved rolls of your own (the limit is 2); delete "
               "one first with /macro delete");
    assert_int_equal(count(f, 0, ALICE), 2);
    /* Replacing one is no new one. */
    assert_true(cmd_fx_run(f, ALICE, "macro", "save", "name", "a", "dice",
                           "1d6", "replace", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "macro", "delete", "name", "b", NULL));
    assert_true(save(f, ALICE, "c", "1d4"));
}

static void test_macro_server_quota(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    f->ctx.max_macros_server = 1;
    assert_true(cmd_fx_run(f, MANAGER, "macro", "save", "name", "a", "dice",
                           "1d4", "server", "true", NULL));
    assert_false(cmd_fx_run(f, MANAGER, "macro", "save", "name", "b", "dice",
                            "1d4", "server", "true", NULL));
    refused(f, "this server has 1 server-wide saved rolls (the limit is 1); "
               "delete one first with /macro delete server:true");
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 1);
    /* The manager's own are another scope, with their own quota. */
    assert_true(save(f, MANAGER, "b", "1d4"));
}

static void test_macro_server_needs_managers(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    assert_false(cmd_fx_run(f, ALICE, "macro", "save", "name", "goblin",
                            "dice", "1d6+2", "server", "true", NULL));
    refused(f, "made and deleted by those who manage the server");
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 0);
    assert_true(cmd_fx_run(f, MANAGER, "macro", "save", "name", "goblin",
                           "dice", "1d6+2 # Scimitar", "server", "true",
                           NULL));
    cmd_fx_has(f, "Everyone in this server can use it");

    /* Anyone in the server rolls it; it says whose it is. */
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@goblin", NULL));
    cmd_fx_has(f, "@goblin (the server's saved roll)");
    /* A player's own of the same name wins over the server's. */
    assert_true(save(f, ALICE, "goblin", "1d4"));
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@goblin", NULL));
    cmd_fx_has(f, "@goblin (your own saved roll)");
    cmd_fx_has(f, "1d4 (");
    assert_true(cmd_fx_run(f, ALICE, "macro", "show", "name", "goblin",
                           NULL));
    cmd_fx_has(f, "The server has one of the same name");

    /* Deleting the server's: managers only, and only with server:true. */
    assert_false(cmd_fx_run(f, ALICE, "macro", "delete", "name", "goblin",
                            "server", "true", NULL));
    refused(f, "those who manage the server");
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 1);
    assert_true(cmd_fx_run(f, MANAGER, "macro", "delete", "name", "goblin",
                           "server", "true", NULL));
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 0);
    assert_int_equal(count(f, 0, ALICE), 1);
}

/* The role /config npc-role: names (the server's GMs) manages the
 * server's saved rolls too, as it does NPC templates; nobody else gains. */
static void test_macro_server_by_gm_role(void **state)
{
    struct cmd_fx *f = *state;
    f->manager = MANAGER;
    f->role_user = ALICE;
    f->role = 777;
    assert_false(cmd_fx_run(f, ALICE, "macro", "save", "name", "goblin",
                            "dice", "1d6+2", "server", "true", NULL));
    refused(f, "or have the role /config npc-role: names");
    assert_true(cmd_fx_run(f, MANAGER, "config", NULL, "npc-role", "777",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "macro", "save", "name", "goblin",
                           "dice", "1d6+2", "server", "true", NULL));
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 1);
    assert_false(cmd_fx_run(f, BOB, "macro", "delete", "name", "goblin",
                            "server", "true", NULL));
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 1);
    assert_true(cmd_fx_run(f, ALICE, "macro", "delete", "name", "goblin",
                           "server", "true", NULL));
    assert_int_equal(count(f, CMD_FX_GUILD, 0), 0);
}

static void test_macro_other_users_untouchable(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(save(f, ALICE, "smite", "2d8"));
    assert_false(cmd_fx_run(f, BOB, "macro", "delete", "name", "smite",
                            NULL));
    refused(f, "you have no saved roll @smite");
    assert_int_equal(count(f, 0, ALICE), 1);
    /* Nor can Bob roll or see it. */
    assert_false(cmd_fx_run(f, BOB, "roll", NULL, "dice", "@smite", NULL));
    refused(f, "no saved roll @smite");
    assert_false(cmd_fx_run(f, BOB, "macro", "show", "name", "smite", NULL));
    assert_true(cmd_fx_run(f, BOB, "macro", "list", NULL));
    assert_null(strstr(f->text, "smite"));
}

/* In a DM (no server) only the user's own exist, and they work. */
static void test_macro_dm(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    assert_true(cmd_fx_run(f, MANAGER, "macro", "save", "name", "shared",
                           "dice", "1d12", "server", "true", NULL));
    f->guild = 0;
    assert_true(save(f, ALICE, "dodge", "1d20+3 # Dodge"));
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@dodge+1", NULL));
    cmd_fx_has(f, "Dodge: 1d20 (");
    cmd_fx_has(f, ")+3+1 = ");
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "@shared", NULL));
    refused(f, "outside a server, only your own work");
    assert_false(cmd_fx_run(f, MANAGER, "macro", "save", "name", "x", "dice",
                            "1d4", "server", "true", NULL));
    refused(f, "server-wide saved rolls belong to a server; a DM has none");
    assert_true(cmd_fx_run(f, ALICE, "macro", "list", NULL));
    cmd_fx_has(f, "Your saved rolls (1 of 100)");
    assert_null(strstr(f->text, "This server's"));
}

static void test_macro_list(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    assert_true(cmd_fx_run(f, ALICE, "macro", "list", NULL));
    cmd_fx_has(f, "Your saved rolls (0 of 100)");
    cmd_fx_has(f, "This server's saved rolls (0 of 500)");
    assert_true(save(f, ALICE, "b_two", "2d6"));
    assert_true(save(f, ALICE, "a_one", "1d6"));
    assert_true(cmd_fx_run(f, MANAGER, "macro", "save", "name", "orc",
                           "dice", "1d12+3", "server", "true", NULL));
    assert_true(cmd_fx_run(f, ALICE, "macro", "list", NULL));
    cmd_fx_has(f, "Your saved rolls (2 of 100)\n@a_one 1d6\n@b_two 2d6");
    cmd_fx_has(f, "This server's saved rolls (1 of 500)\n@orc 1d12+3");
    /* name: narrows both lists to the names starting so. */
    assert_true(cmd_fx_run(f, ALICE, "macro", "list", "name", "@B", NULL));
    cmd_fx_has(f, "Your saved rolls (2 of 100)\n@b_two 2d6");
    assert_null(strstr(f->text, "@a_one"));
    cmd_fx_has(f, "This server's saved rolls (1 of 500)\nnone whose name "
                  "starts so");
    assert_false(cmd_fx_run(f, ALICE, "macro", "list", "name", "b+", NULL));
    refused(f, "name: the start of a name");
}

/* Autocomplete: the sender's own and the server's, once "@" is typed. */
static void test_macro_autocomplete(void **state)
{
    struct cmd_fx *f = *state;
    f->gm = MANAGER;
    assert_true(save(f, ALICE, "stealth", "1d20+7 # Stealth"));
    assert_true(save(f, ALICE, "strength", "1d20+2"));
    assert_true(save(f, BOB, "stab", "1d4"));
    /* A long one is cut, whole characters only, with "..." */
    assert_true(save(f, ALICE, "st_long", "1d20+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1"
                                          "+1+1+1+1 # \xc3\xa9\xc3\xa9"
                                          "\xc3\xa9\xc3\xa9"));
    assert_true(cmd_fx_run(f, MANAGER, "macro", "save", "name", "stun",
                           "dice", "1d6", "server", "true", NULL));
    struct cmd_req req = {.source = CMD_SRC_DISCORD, .command = "roll",
                          .channel_id = 1, .guild_id = CMD_FX_GUILD,
                          .user_id = ALICE, .perms_known = true,
                          .opts = {{"dice", "@st"}}, .nopts = 1};
    struct msg out;
    msg_init(&out);
    assert_true(cmd_complete(&f->ctx, &req, "dice", &out));
    assert_int_equal(out.select.noptions, 4);
    assert_string_equal(out.select.options[0].value, "@st_long");
    /* 50 bytes of dice: the cut falls inside the third e-acute, which
     * is left out whole. */
    assert_string_equal(out.select.options[0].label,
                        "@st_long: 1d20+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1"
                        "+1 # \xc3\xa9\xc3\xa9... (yours)");
    assert_string_equal(out.select.options[1].value, "@stealth");
    assert_string_equal(out.select.options[1].label,
                        "@stealth: 1d20+7 # Stealth (yours)");
    assert_string_equal(out.select.options[2].value, "@strength");
    assert_string_equal(out.select.options[3].value, "@stun");
    assert_string_equal(out.select.options[3].label, "@stun: 1d6 (server's)");
    msg_cleanup(&out);

    /* Plain dice: nothing to suggest. */
    msg_init(&out);
    req.opts[0].value = "1d20";
    assert_true(cmd_complete(&f->ctx, &req, "dice", &out));
    assert_int_equal(out.select.noptions, 0);
    msg_cleanup(&out);

    /* /macro delete offers Alice only what she may delete. */
    msg_init(&out);
    req.command = "macro";
    req.sub = "delete";
    req.opts[0] = (struct cmd_opt){"name", "s"};
    assert_true(cmd_complete(&f->ctx, &req, "name", &out));
    assert_int_equal(out.select.noptions, 3);
    assert_string_equal(out.select.options[0].value, "st_long");
    assert_string_equal(out.select.options[1].value, "stealth");
    assert_string_equal(out.select.options[2].value, "strength");
    msg_cleanup(&out);
}

/* The rules every way in shares (an import too): cmd_macro_check and the
 * quota as configured. */
static void test_macro_check_and_quota(void **state)
{
    struct cmd_fx *f = *state;
    struct store_macro m = {0};
    char why[1024];
    assert_true(cmd_macro_check("@Fire_Bolt", "8d6 Fireball", false,
                                I18N_EN, &m, why, sizeof why));
    assert_string_equal(m.name, "fire_bolt");
    assert_string_equal(m.dice, "8d6 # Fireball");
    assert_false(cmd_macro_check("here", "1d6", false, I18N_EN, &m, why,
                                 sizeof why));
    assert_non_null(strstr(why, "name: a saved roll's name"));
    assert_false(cmd_macro_check("ok", "@fire+1", false, I18N_EN, &m, why,
                                 sizeof why));
    assert_non_null(strstr(why, "not another saved roll"));
    assert_false(cmd_macro_check("ok", "2d", false, I18N_EN, &m, why,
                                 sizeof why));
    assert_non_null(strstr(why, "dice: nothing was saved"));
    assert_int_equal(cmd_macro_quota(&f->ctx, false), CMD_MACRO_MAX_PER_USER);
    assert_int_equal(cmd_macro_quota(&f->ctx, true),
                     CMD_MACRO_MAX_PER_SERVER);
    f->ctx.max_macros_user = 7;
    assert_int_equal(cmd_macro_quota(&f->ctx, false), 7);
}

/* Whose dice syntax /roll reads: fray's, the server's (/config dice:), a
 * player's own (/macro dialect), which wins; "server" forgets it. */
static void test_macro_dialect(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "and a number read as keep the highest");

    f->gm = MANAGER;
    assert_false(cmd_fx_run(f, ALICE, "config", NULL, "dice", "avrae",
                            NULL));
    assert_true(cmd_fx_run(f, MANAGER, "config", NULL, "dice", "avrae",
                           NULL));
    cmd_fx_has(f, "This server's dice read as Avrae reads them");
    assert_true(cmd_fx_run(f, BOB, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "k read as Avrae's");
    refused_if(f, cmd_fx_run(f, MANAGER, "config", NULL, "dice", "avrae",
                             "systems", "generic", NULL),
               "set dice: on its own");

    assert_true(cmd_fx_run(f, ALICE, "macro", "dialect", "bot",
                           "dicemaiden", NULL));
    cmd_fx_has(f, "Your dice read as Dice Maiden reads them");
    assert_true(f->reply.ephemeral);
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice",
                           "2d6 ! Fire damage", NULL));
    cmd_fx_has(f, "Fire damage");
    cmd_fx_has(f, "read as Dice Maiden's comment");
    assert_true(cmd_fx_run(f, BOB, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "k read as Avrae's");

    assert_true(cmd_fx_run(f, ALICE, "macro", "dialect", "bot", "server",
                           NULL));
    cmd_fx_has(f, "Your dice read as the server's do again");
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "k read as Avrae's");
}

/* A player's own setting the store holds but fray cannot read (written by
 * hand, or by a later version) is passed over for the server's, as an
 * absent one is; a DM (no server) reads only the player's. */
static void test_macro_dialect_unreadable(void **state)
{
    struct cmd_fx *f = *state;
    char key[64];
    snprintf(key, sizeof key, "dice_dialect:%llu",
             (unsigned long long)f->guild);
    assert_int_equal(store_kv_set(f->store, key, "avrae"), BOT_OK);
    snprintf(key, sizeof key, "dice_dialect_user:%d", ALICE);
    assert_int_equal(store_kv_set(f->store, key, "no-such-bot"), BOT_OK);
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "k read as Avrae's");
    assert_int_equal(store_kv_set(f->store, key, "dicemaiden"), BOT_OK);
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice",
                           "2d6 ! Fire damage", NULL));
    cmd_fx_has(f, "read as Dice Maiden's comment");
    f->guild = 0;
    assert_true(cmd_fx_run(f, BOB, "roll", NULL, "dice", "4d6k3", NULL));
    cmd_fx_has(f, "and a number read as keep the highest");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, cmd_fx_setup_discord, \
                                             cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_macro_save_and_roll),
        T(test_macro_roll_refuses_other_forms),
        T(test_macro_bad_dice_refused),
        T(test_macro_only_in_roll),
        T(test_macro_bad_name_refused),
        T(test_macro_duplicate_refused_then_replaced),
        T(test_macro_user_quota),
        T(test_macro_server_quota),
        T(test_macro_server_needs_managers),
        T(test_macro_server_by_gm_role),
        T(test_macro_other_users_untouchable),
        T(test_macro_dm),
        T(test_macro_list),
        T(test_macro_autocomplete),
        T(test_macro_check_and_quota),
        T(test_macro_dialect),
        T(test_macro_dialect_unreadable),
    };
    return cmocka_run_group_tests_name("cmd_macro", tests, NULL, NULL);
}
