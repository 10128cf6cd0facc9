/*
 * Tests for the command layer: a generic fight driven through cmd_exec()
 * against a real (in-memory) store, with permissions, undo and expiry.
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300, MALLORY = 400 };

/* The live encounter, loaded from the store. Caller frees. */
static struct encounter *live(struct cmd_fx *f)
{
    char *doc = NULL;
    int64_t version = 0;
    if (store_enc_load(f->store, 1, &doc, &version) != BOT_OK)
        return NULL;
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    e->version = version;
    free(doc);
    return e;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (strstr(hay, needle) == NULL)
        fail_msg("expected \"%s\" in:\n%s", needle, hay);
}

/* A fight with two goblins (GM), Aria (Alice) and Bryn (Bob). */
static void small_fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Goblin", "count", "2",
                    "hp", "7", "stats", "ac=13 init=1", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp", "20",
                    "stats", "ac=15 init=3 attack=5", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "join", "name", "Bryn", "hp", "18",
                    "init", "=30", "stats", "ac=12", NULL));
}

static void test_cmd_start_add_join_begin(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    struct encounter *e = live(f);
    assert_non_null(e);
    assert_int_equal(e->ncs, 4);
    assert_string_equal(e->cs[0].name, "Goblin 1");
    assert_int_equal(e->cs[2].owner, ALICE);
    assert_int_equal(e->gm, GM);
    assert_int_equal(e->version, 4);
    enc_free(e);

    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    e = live(f);
    assert_int_equal(e->status, ENC_ST_RUNNING);
    assert_int_equal(e->round, 1);
    /* Bryn's fixed 30 beats any d20+3: Bryn goes first. */
    assert_int_equal(e->norder, 4);
    assert_string_equal(enc_by_id(e, e->order[0].id)->name, "Bryn");
    assert_int_equal(e->current, e->order[0].id);
    /* The order is sorted highest first. */
    for (int i = 1; i < e->norder; i++)
        assert_true(enc_by_id(e, e->order[i - 1].id)->init[0] >=
                    enc_by_id(e, e->order[i].id)->init[0]);
    enc_free(e);
    assert_contains(f->text, "Bryn's turn");
}

static void test_cmd_players_act_only_for_their_own(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    /* A player cannot add NPCs, begin, or change someone else's hp: the
     * change only goes to the GM as a proposal, and someone with no
     * combatant in the fight is refused outright. */
    assert_false(cmd_fx_run(f, ALICE, "combat", "add", "name", "Orc", NULL));
    assert_contains(f->text, "only the GM");
    assert_false(cmd_fx_run(f, ALICE, "combat", "begin", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "hp", "name", "Bryn", "change",
                     "-5", NULL));
    assert_contains(f->text, "Sent to the GM for approval");
    assert_false(cmd_fx_run(f, MALLORY, "combat", "hp", "name", "Goblin 1",
                     "change", "-5", NULL));
    assert_contains(f->text, "only the GM may act for Goblin 1");
    assert_false(cmd_fx_run(f, ALICE, "combat", "remove", "name", "Goblin 1",
                     NULL));
    struct encounter *e = live(f);
    assert_int_equal(e->version, 4); /* nothing of that was saved */
    assert_int_equal(enc_track(enc_by_name(e, "Bryn"), "hp")->cur, 18);
    enc_free(e);
    /* But may change their own. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "hp", "name", "aria", "change", "-5",
                    NULL));
    e = live(f);
    assert_int_equal(enc_track(enc_by_name(e, "Aria"), "hp")->cur, 15);
    enc_free(e);
}

static void test_cmd_next_by_owner_or_gm_only(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    /* Bryn (Bob) acts first: Alice may not end Bob's turn. */
    assert_false(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "next", NULL));
    struct encounter *e = live(f);
    assert_int_equal(e->current, e->order[1].id);
    enc_free(e);
}

static void test_cmd_attack_damages_and_downs(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    /* A fixed roll of 20 always hits; 10 damage downs a 7 hp goblin. */
    assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Bryn", "target",
                    "Goblin 1", "roll", "20", "damage", "10", NULL));
    struct encounter *e = live(f);
    struct enc_combatant *g = enc_by_name(e, "Goblin 1");
    assert_int_equal(enc_track(g, "hp")->cur, 0);
    assert_true(g->flags & ENC_CF_DOWN);
    enc_free(e);
    assert_contains(f->text, "down");
    /* A roll of 1 against ac 13 misses: no damage. */
    assert_true(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Bryn", "target",
                    "Goblin 2", "roll", "1", "damage", "10", NULL));
    e = live(f);
    assert_int_equal(enc_track(enc_by_name(e, "Goblin 2"), "hp")->cur, 7);
    enc_free(e);
    assert_contains(f->text, "miss");
}

/* A downed NPC's turn is skipped; a downed player character still gets
 * theirs (the generic system, death saves off). */
static void test_cmd_down_combatant_is_skipped(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    static const char *const downed[] = {"Goblin 1", "Goblin 2", "Aria"};
    for (int i = 0; i < 3; i++)
        assert_true(cmd_fx_run(f, GM, "combat", "hp", "name", downed[i],
                               "change", "=0", NULL));
    /* Bryn (=30) acts first; from there to the end of the next round every
     * goblin is skipped once and Aria's turn comes once. */
    int skips = 0, aria = 0;
    for (int i = 0; i < 2; i++) {
        assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
        for (const char *p = strstr(f->text, "skips"); p != NULL;
             p = strstr(p + 1, "skips"))
            skips++;
        struct encounter *e = live(f);
        const struct enc_combatant *cur = enc_by_id(e, e->current);
        assert_non_null(cur);
        if (strcmp(cur->name, "Aria") == 0) {
            aria++;
            assert_contains(f->text, "Aria is down");
        } else {
            assert_string_equal(cur->name, "Bryn");
        }
        enc_free(e);
    }
    assert_int_equal(aria, 1);
    assert_int_equal(skips, 2);
}

static void test_cmd_condition_expires_and_undo_restores(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    /* On Bryn's own turn, 1 round ending at the end of Bryn's turn lasts
     * to the end of Bryn's next turn, not this one. */
    assert_true(cmd_fx_run(f, BOB, "combat", "condition", "name", "Bryn",
                    "condition", "Blessed", "rounds", "1", NULL));
    for (int i = 0; i < 4; i++) {
        assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
        struct encounter *e = live(f);
        assert_non_null(enc_cond_find(enc_by_name(e, "Bryn"), "blessed"));
        enc_free(e);
    }
    /* Now it is Bryn's turn again (round 2); ending it ends Blessed. */
    assert_true(cmd_fx_run(f, GM, "combat", "next", NULL));
    assert_contains(f->text, "wore off");
    struct encounter *e = live(f);
    assert_null(enc_cond_find(enc_by_name(e, "Bryn"), "blessed"));
    assert_int_equal(e->round, 2);
    enc_free(e);
    /* Undo brings it back exactly. */
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    e = live(f);
    struct enc_cond *q = enc_cond_find(enc_by_name(e, "Bryn"), "blessed");
    assert_non_null(q);
    assert_int_equal(q->rounds, 1);
    assert_int_equal(e->current, enc_by_name(e, "Bryn")->id);
    enc_free(e);
    /* Undo twice more steps further back, not forward again. */
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    e = live(f);
    assert_int_equal(e->round, 1);
    enc_free(e);
}

static void test_cmd_removing_anchor_keeps_duration(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    struct encounter *e = live(f);
    /* Time Bryn's condition on the combatant acting after Bryn (Bryn's
     * fixed 30 puts Bryn first). */
    char anchor[ENC_MAX_NAME + 1], next[ENC_MAX_NAME + 1];
    snprintf(anchor, sizeof anchor, "%s", enc_by_id(e, e->order[1].id)->name);
    snprintf(next, sizeof next, "%s", enc_by_id(e, e->order[2].id)->name);
    enc_free(e);
    assert_true(cmd_fx_run(f, GM, "combat", "condition", "name", "Bryn",
                    "condition", "Stunned", "rounds", "1", "until", anchor,
                    "ends", "start", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "remove", "name", anchor, NULL));
    e = live(f);
    struct enc_cond *q = enc_cond_find(enc_by_name(e, "Bryn"), "stunned");
    assert_non_null(q);
    /* It now counts on whoever took the removed one's place. */
    assert_int_equal(q->anchor, enc_by_name(e, next)->id);
    enc_free(e);
}

static void test_cmd_bad_input_changes_nothing(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    static const char *const bad_names[] = {
        "Goblin 1", "", "  padded", "12345", "line\nbreak",
    };
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
        assert_false(cmd_fx_run(f, GM, "combat", "add", "name", bad_names[i],
                         NULL));
    char longname[10001];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_false(cmd_fx_run(f, GM, "combat", "add", "name", longname, NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "count", "0",
                     NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "count", "1000",
                     NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "hp", "name", "Goblni 1", "change",
                     "-1", NULL));
    assert_contains(f->text, "did you mean Goblin 1");
    assert_false(cmd_fx_run(f, GM, "combat", "hp", "name", "Gobln", "change",
                     "-1", NULL));
    assert_contains(f->text, "did you mean Goblin");
    assert_false(cmd_fx_run(f, GM, "attack", NULL, "attacker", "Aria", "target",
                     "Aria", NULL));
    assert_contains(f->text, "cannot attack themselves");
    assert_false(cmd_fx_run(f, GM, "combat", "hp", "name", "Aria", "change",
                     "lots", NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "start", "system", "generic", NULL));
    struct encounter *e = live(f);
    assert_int_equal(e->version, 4);
    assert_int_equal(e->ncs, 4);
    enc_free(e);
    /* Names that would read as pings are refused... */
    static const char *const pings[] = {"@everyone", "Bob @here", "<@123>",
                                        "<@&1> fan", "<#42>"};
    for (size_t i = 0; i < sizeof pings / sizeof pings[0]; i++) {
        assert_false(cmd_fx_run(f, GM, "combat", "add", "name", pings[i], NULL));
        assert_contains(f->text, "mention");
    }
    /* ...while quotes are just names, kept exactly. */
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Robert'); DROP TABLE--",
                    NULL));
    e = live(f);
    assert_int_equal(e->ncs, 5);
    assert_non_null(enc_by_name(e, "Robert'); DROP TABLE--"));
    enc_free(e);
}

static void test_cmd_interaction_applied_once(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "hp",
        .channel_id = 1, .guild_id = 9000, .user_id = GM,
        .expect_version = -1,
        .interaction_id = "1234567890",
    };
    req.opts[0] = (struct cmd_opt){"name", "Aria"};
    req.opts[1] = (struct cmd_opt){"change", "-3"};
    req.nopts = 2;
    cmd_reply_cleanup(&f->reply);
    cmd_exec(&f->ctx, &req, &f->reply);
    assert_true(f->reply.changed);
    cmd_reply_cleanup(&f->reply);
    cmd_exec(&f->ctx, &req, &f->reply);
    assert_true(f->reply.duplicate);
    struct encounter *e = live(f);
    assert_int_equal(enc_track(enc_by_name(e, "Aria"), "hp")->cur, 17);
    enc_free(e);
}

static void test_cmd_stale_button_refused(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "next",
        .channel_id = 1, .guild_id = 9000, .user_id = GM,
        .expect_version = 3,
    };
    cmd_reply_cleanup(&f->reply);
    cmd_exec(&f->ctx, &req, &f->reply);
    assert_true(f->reply.is_error);
    assert_true(f->reply.ephemeral);
    struct encounter *e = live(f);
    assert_int_equal(e->version, 5);
    enc_free(e);
}

static void test_cmd_end_archives(void **state)
{
    struct cmd_fx *f = *state;
    small_fight(f);
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_null(live(f));
    int64_t live_n = -1, archived = -1;
    assert_int_equal(store_enc_count(f->store, &live_n, &archived), BOT_OK);
    assert_int_equal(live_n, 0);
    assert_int_equal(archived, 1);
    /* A new fight can start in the same channel. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "start", "system", "generic", NULL));
}

static void test_cmd_roll_and_help(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6+3", NULL));
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d6+*3", NULL));
    assert_contains(f->text, "column 5");
    /* words after the dice name the roll */
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6+3 fire",
                           NULL));
    assert_contains(f->text, "rolls: fire");
    assert_contains(f->text, "2d6");
    assert_false(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6+3 fire",
                            "label", "cold", NULL));
    assert_contains(f->text, "give one of them");
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, NULL));
    assert_true(cmd_fx_run(f, ALICE, "help", NULL, "topic", "generic", NULL));
    assert_false(cmd_fx_run(f, ALICE, "help", NULL, "topic", "nonsense", NULL));
}

/* A process killed after cmd_exec() committed but before it could send the
 * reply: the change is on disk when the bot comes back. */
static void test_cmd_killed_before_reply_keeps_change(void **state)
{
    (void)state;
    char dir[] = "/tmp/fray-cmd-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/fray.db", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct cmd_fx f = {0};
        char err[128];
        if (store_open(path, &f.store, err, sizeof err) != BOT_OK)
            _exit(2);
        eng_rng_seed(&f.rng, 1);
        f.ctx.store = f.store;
        f.ctx.rng = &f.rng;
        cmd_reply_init(&f.reply);
        struct cmd_req req = {.source = CMD_SRC_DISCORD, .command = "combat",
                              .sub = "start", .channel_id = 1,
                              .guild_id = 9000, .user_id = GM,
                              .expect_version = -1};
        req.opts[0] = (struct cmd_opt){"system", "generic"};
        req.nopts = 1;
        cmd_exec(&f.ctx, &req, &f.reply);
        if (!f.reply.changed)
            _exit(3);
        raise(SIGKILL); /* the reply never leaves */
        _exit(4);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    struct store *st = NULL;
    char err[128];
    assert_int_equal(store_open(path, &st, err, sizeof err), BOT_OK);
    char *doc = NULL;
    int64_t version = 0;
    assert_int_equal(store_enc_load(st, 1, &doc, &version), BOT_OK);
    assert_int_equal(version, 1);
    bool ok = false;
    assert_int_equal(store_integrity_check(st, &ok), BOT_OK);
    assert_true(ok);
    free(doc);
    store_close(st);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
#define T(name) \
    cmocka_unit_test_setup_teardown(name, cmd_fx_setup, cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_cmd_start_add_join_begin),
        T(test_cmd_players_act_only_for_their_own),
        T(test_cmd_next_by_owner_or_gm_only),
        T(test_cmd_attack_damages_and_downs),
        T(test_cmd_down_combatant_is_skipped),
        T(test_cmd_condition_expires_and_undo_restores),
        T(test_cmd_removing_anchor_keeps_duration),
        T(test_cmd_bad_input_changes_nothing),
        T(test_cmd_interaction_applied_once),
        T(test_cmd_stale_button_refused),
        T(test_cmd_end_archives),
        T(test_cmd_roll_and_help),
        cmocka_unit_test(test_cmd_killed_before_reply_keeps_change),
    };
    return cmocka_run_group_tests_name("cmd", tests, NULL, NULL);
}
