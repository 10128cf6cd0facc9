/*
 * Tests for /combat recap and /combat log (bot/cmd/cmd_recap.c): a recap
 * shows, privately, what happened since the user's last command in the
 * fight (their own last change, or their last recap), every roll with its
 * dice; a player's never holds a hidden combatant's name or numbers; a
 * long one fits one Discord message and says what it left out. The log is
 * a Markdown file of the whole fight, with who did what and when.
 */
#include "support.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "render_discord.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

/* Goblin (7 hp, ac 13), a hidden Shade (4321 hp, ac 83), Aria (Alice)
 * and Bryn (Bob); Aria goes first. */
static void fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           "name", "Bridge ambush", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Goblin", "hp",
                           "7", "init", "=5", "stats", "ac=13", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Shade", "hp",
                           "4321", "init", "=4", "hidden", "true", "stats",
                           "ac=83", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "20", "init", "=20", "stats", "ac=15 attack=5",
                           NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "join", "name", "Bryn", "hp",
                           "18", "init", "=10", "stats", "ac=12", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
}

static void lacks(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) != NULL)
        fail_msg("the reply holds \"%s\":\n%s", needle, f->text);
}

static void test_recap_since_last_command(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    /* Bob's join and everything after it is new to Alice, her own join
     * and what came before it is not. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.changed);
    cmd_fx_has(f, "Since your last command");
    cmd_fx_has(f, "Bryn joins the fight");
    cmd_fx_has(f, "The fight begins");
    lacks(f, "Aria joins the fight");
    lacks(f, "Goblin joins the fight");
    /* A recap is a command too: nothing is new right after it. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    cmd_fx_has(f, "Nothing new since your last command");
    /* Then only what came after. */
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblin",
                           "change", "-3", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    cmd_fx_has(f, "Goblin");
    lacks(f, "Bryn joins the fight");
    /* Someone who never acted gets the whole fight. */
    assert_true(cmd_fx_run(f, 999, "combat", "recap", NULL));
    cmd_fx_has(f, "The fight so far");
    cmd_fx_has(f, "Aria joins the fight");
}

static void test_recap_shows_dice(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "target", "Goblin", "damage",
                           "2d8+4", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "recap", NULL));
    /* The attack roll and the damage dice, each die in brackets, as the
     * reply itself showed them (docs/commands.md, "Every roll"). */
    cmd_fx_has(f, "Aria attacks Goblin");
    cmd_fx_has(f, "+5");
    cmd_fx_has(f, "([");
}

static void test_recap_hides_secret(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-37", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "set", "name", "Shade", "stats",
                           "ac=61", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    lacks(f, "Shade");
    lacks(f, "4321");
    lacks(f, "4284");
    lacks(f, "61");
    lacks(f, "83");
    /* A player who never acted reads the whole fight: still nothing. */
    assert_true(cmd_fx_run(f, 999, "combat", "recap", NULL));
    cmd_fx_has(f, "Aria joins the fight");
    lacks(f, "Shade");
    lacks(f, "4321");
    lacks(f, "83");
    /* A GM who never acted reads it all, hidden numbers too. */
    f->gm = 998;
    assert_true(cmd_fx_run(f, 998, "combat", "recap", NULL));
    cmd_fx_has(f, "Shade");
    cmd_fx_has(f, "4284");
}

/* The recap as Discord gets it: within a message's limits, with a note on
 * how many changes did not fit. */
/* The hidden Shade's turn leaves a line in /combat history: a player reads
 * it as the turn notice read (someone unseen), never with Shade's name;
 * the GM reads the name. */
static void test_history_hides_unseen_turn(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    for (int i = 0; i < 3; i++)
        assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "history", NULL));
    lacks(f, "Shade");
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "Shade");
}

static void test_recap_long_fight_fits(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    for (int i = 0; i < 120; i++)
        assert_true(cmd_fx_run(f, GM, "combat", "set", "name", "Goblin",
                               "note", i % 2 ? "guarding the left stair "
                               "with a rusty spear and a grudge"
                               : "shouting for help from the tower", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    cmd_fx_has(f, "earlier changes are not shown here");
    cmd_fx_has(f, "/combat log");
    json_t *body = render_discord_message(&f->reply.msg, true);
    assert_non_null(body);
    /* Nothing had to be cut by the renderer: the recap chose what fits. */
    char *dump = json_dumps(body, 0);
    assert_non_null(dump);
    assert_null(strstr(dump, RENDER_DC_NOTE));
    free(dump);
    json_t *embeds = json_object_get(body, "embeds");
    size_t total = 0, i;
    json_t *em;
    json_array_foreach(embeds, i, em) {
        const char *d = json_string_value(json_object_get(em, "description"));
        const char *t = json_string_value(json_object_get(em, "title"));
        assert_true(d == NULL || render_discord_chars(d) <= 4096);
        total += render_discord_chars(d) + render_discord_chars(t);
    }
    assert_true(json_array_size(embeds) <= 10);
    assert_true(total <= 6000);
    json_decref(body);
}

static void test_log_file(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, ALICE, "attack", NULL, "target", "Goblin", "damage",
                           "2d8+4", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Shade", "change",
                           "-37", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "log", NULL));
    const struct cmd_file *file = &f->reply.file;
    assert_non_null(file->data);
    assert_string_equal(file->name, "Bridge-ambush-log.md");
    assert_int_equal(strlen(file->data), file->len);
    assert_false(f->reply.ephemeral);
    const char *d = file->data;
    assert_non_null(strstr(d, "# Bridge ambush"));
    /* every change, with who made it (the fixture's users are "tester") */
    assert_non_null(strstr(d, "## v1 "));
    assert_non_null(strstr(d, "tester"));
    assert_non_null(strstr(d, "**Aria** joins the fight"));
    assert_non_null(strstr(d, "**Aria** attacks **Goblin**"));
    assert_non_null(strstr(d, "(["));
    assert_null(strstr(d, "Shade"));
    assert_null(strstr(d, "4321"));
    assert_null(strstr(d, "4284"));
    /* A player may not have the GM's copy; the GM may, privately. */
    assert_false(cmd_fx_run(f, BOB, "combat", "log", "gm", "true", NULL));
    assert_null(f->reply.file.data);
    assert_true(cmd_fx_run(f, GM, "combat", "log", "gm", "true", NULL));
    assert_true(f->reply.ephemeral);
    assert_non_null(strstr(f->reply.file.data, "Shade"));
    assert_non_null(strstr(f->reply.file.data, "4284"));
}

static enum bot_err count_key(void *ctx, const char *key, const char *value)
{
    (void)key;
    (void)value;
    (*(int *)ctx)++;
    return BOT_OK;
}

/* The marks go with the fight: none is left once it ended. */
static void test_recap_marks_end_with_the_fight(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    assert_true(cmd_fx_run(f, ALICE, "combat", "recap", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "recap", NULL));
    int n = 0;
    assert_int_equal(store_kv_scan(f->store, "recap:", count_key, &n),
                     BOT_OK);
    assert_int_equal(n, 2);
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    n = 0;
    assert_int_equal(store_kv_scan(f->store, "recap:", count_key, &n),
                     BOT_OK);
    assert_int_equal(n, 0);
}

/* A log over what Discord lets this server attach is refused, saying so;
 * within it, it is made. */
static void test_log_size_limit(void **state)
{
    struct cmd_fx *f = *state;
    fight(f);
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "log",
        .channel_id = 1, .guild_id = CMD_FX_GUILD, .user_id = BOB,
        .user_name = "tester",
        .expect_version = -1, .now_ms = f->now_ms + 1000,
        .attach_limit = 300,
    };
    struct cmd_reply r;
    assert_true(cmd_exec(&f->ctx, &req, &r));
    assert_true(r.is_error);
    assert_null(r.file.data);
    assert_non_null(strstr(r.msg.content, "more than Discord takes"));
    cmd_reply_cleanup(&r);
    req.attach_limit = 64 * 1024;
    assert_true(cmd_exec(&f->ctx, &req, &r));
    assert_false(r.is_error);
    assert_non_null(r.file.data);
    assert_true(r.file.len <= 64 * 1024);
    cmd_reply_cleanup(&r);
}

static void test_log_name_fallback(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           "name", "***", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "log", NULL));
    assert_string_equal(f->reply.file.name, "fight-log.md");
    assert_true(cmd_fx_run(f, GM, "combat", "log", "gm", "maybe", NULL) ==
                false);
}

/* Issue 33, finding 1, through the commands: a fight whose history
 * passes its bound (here 64 KB: attacks with every die of a long
 * exploding expression) keeps going; the change that folds says so, the
 * log and the history show the summary, and undo stops at the fold with
 * the reason. */
static void test_history_folded(void **state)
{
    struct cmd_fx *f = *state;
    store_hist_set_bounds(f->store, &(struct store_hist_bounds){
        .fight_bytes = STORE_HIST_MIN_BYTES});
    cmd_fx_siege(f, GM);
    int folded_at = 0;
    for (int i = 1; i <= 60 && folded_at == 0; i++) {
        cmd_fx_siege_attack(f, GM, i);
        if (strstr(f->text, "were folded into a summary") != NULL)
            folded_at = i;
    }
    assert_true(folded_at > 0);
    cmd_fx_has(f, "This fight's history reached its bound (64 KB");
    assert_true(cmd_fx_run(f, GM, "combat", "log", NULL));
    assert_non_null(strstr(f->reply.file.data,
                           "were folded into this summary"));
    assert_true(cmd_fx_run(f, GM, "combat", "history", NULL));
    cmd_fx_has(f, "were folded into a summary");
    /* Undo works for the recent changes, then stops at the fold. */
    bool refused = false;
    for (int i = 0; i < ENC_UNDO_DEPTH && !refused; i++)
        if (!cmd_fx_run(f, GM, "combat", "undo", NULL)) {
            refused = true;
            cmd_fx_has(f, "undo cannot go further back");
            cmd_fx_has(f, "were folded into a summary");
        }
    assert_true(refused);
}

/* Issue 33, finding 2: a log costs the same however long the fight ran
 * (2,000 changes of about 650 bytes each would be a 1.3 MB file).
 * A fight whose history is past what a log holds gets a log within
 * CMD_LOG_CAP_BYTES: its newest changes whole, and a line saying how many
 * of the oldest were left out. */
static void test_log_capped(void **state)
{
    struct cmd_fx *f = *state;
    store_hist_set_bounds(f->store, &(struct store_hist_bounds){
        .fight_bytes = 8 << 20, .fight_lines = 100000});
    cmd_fx_siege(f, GM);
    for (int i = 1; i <= 2000; i++)
        cmd_fx_siege_attack(f, GM, i);
    assert_true(cmd_fx_run(f, GM, "combat", "log", "gm", "true", NULL));
    const struct cmd_file *file = &f->reply.file;
    assert_non_null(file->data);
    assert_true(file->len <= CMD_LOG_CAP_BYTES);
    assert_non_null(strstr(file->data, "oldest changes (up to v"));
    assert_non_null(strstr(file->data, "## v2004 "));
    assert_null(strstr(file->data, "## v1 "));
}

/* Twenty logs of one fight cost one: the same fight at the same version,
 * asked again for the same view, gets the same file (its "written" time
 * included); a change, or the GM's copy, makes a new one. */
static void test_log_same_file(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_log_cache *c = cmd_log_cache_new();
    assert_non_null(c);
    f->ctx.log_cache = c;
    fight(f);
    assert_true(cmd_fx_run(f, ALICE, "combat", "log", NULL));
    char *first = strdup(f->reply.file.data);
    assert_non_null(first);
    f->now_ms += 3600 * 1000;         /* an hour later: same file */
    assert_true(cmd_fx_run(f, BOB, "combat", "log", NULL));
    assert_string_equal(f->reply.file.data, first);
    assert_true(cmd_fx_run(f, GM, "combat", "log", "gm", "true", NULL));
    assert_non_null(strstr(f->reply.file.data, "Shade"));
    assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblin",
                           "change", "-3", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "log", NULL));
    assert_string_not_equal(f->reply.file.data, first);
    assert_null(strstr(f->reply.file.data, "Shade"));
    free(first);
    f->ctx.log_cache = NULL;
    cmd_log_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_recap_since_last_command,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_recap_shows_dice, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_recap_hides_secret,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_history_hides_unseen_turn,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_recap_long_fight_fits,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_log_file, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_recap_marks_end_with_the_fight,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_log_size_limit, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_log_name_fallback,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_history_folded, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_log_capped, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_log_same_file, cmd_fx_setup,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
