/* The turn clock in the command layer (cmd.c, cmd_clock.c): the store's
 * timer row always equals the fight's next due time, through the owner's
 * own action (the reminder is dropped), a new turn (the count starts
 * again), undo, the clock switched off and the end; a due timer fires
 * once (a second claim finds nothing); a reminder for a hidden
 * combatant's turn never names it; refused settings change nothing. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_fixture.h"
#include "dur.h"
#include "store.h"

#define GM 100
#define ALICE 200
#define BOB 300
#define CHANNEL 1

/* The channel's timer as the store has it; 0 when it has none. */
static int64_t timer(struct cmd_fx *f)
{
    struct store_timer t[4];
    size_t n = 0;
    assert_int_equal(store_timer_due(f->store, 0, 1, INT64_MAX / 2, t, 4, &n),
                     BOT_OK);
    assert_true(n <= 1);
    return n == 1 ? t[0].due_ms : 0;
}

/* A fight: Aria (Alice, first), Bryn (Bob), a hidden Shade, begun. */
static void fight(struct cmd_fx *f, bool shade_first)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "20", "init", "=30", NULL));
    assert_true(cmd_fx_run(f, BOB, "combat", "join", "name", "Bryn", "hp",
                           "20", "init", "=20", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Shade", "hp",
                           "9", "init", shade_first ? "=40" : "=10",
                           "hidden", "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
}

/* Fire what is due at now; returns how many fired, the last reply's text
 * into out. */
static int fire(struct cmd_fx *f, int64_t now, char *out, size_t cap)
{
    struct store_timer t[4];
    size_t n = 0;
    int fired_n = 0;
    assert_int_equal(store_timer_due(f->store, 0, 1, now, t, 4, &n), BOT_OK);
    for (size_t i = 0; i < n; i++) {
        struct cmd_reply r;
        bool fired = false;
        assert_true(cmd_clock_fire(&f->ctx, &t[i], now, CMD_SRC_DISCORD, &r,
                                   &fired));
        if (fired) {
            fired_n++;
            snprintf(out, cap, "%s", r.msg.content ? r.msg.content : "");
            /* whoever the wait is on, or the GM told of the deadline
             * and the player whose turn it then starts */
            assert_true(r.msg.nmentions <= 2);
        }
        cmd_reply_cleanup(&r);
    }
    return fired_n;
}

static void test_clock_timer_follows_the_fight(void **state)
{
    struct cmd_fx *f = *state;
    fight(f, false);
    assert_int_equal(timer(f), 0);
    int64_t began = f->now_ms;       /* Aria's turn began at begin */
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", "act",
                           "1d", NULL));
    assert_int_equal(timer(f), began + 4 * DUR_MS_HOUR);
    /* Someone else's change is not Aria's action. */
    assert_true(cmd_fx_run(f, BOB, "combat", "set", "name", "Bryn", "note",
                           "waiting", NULL));
    assert_int_equal(timer(f), began + 4 * DUR_MS_HOUR);
    /* Alice acts: no reminder any more, the deadline stays. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "hp", "name", "Aria",
                           "change", "-1", NULL));
    assert_int_equal(timer(f), began + DUR_MS_DAY);
    /* A new turn: the count starts again. */
    assert_true(cmd_fx_run(f, ALICE, "combat", "next", NULL));
    int64_t bryn = f->now_ms;
    assert_int_equal(timer(f), bryn + 4 * DUR_MS_HOUR);
    /* Undo brings Aria's turn back, and its count starts again. */
    assert_true(cmd_fx_run(f, GM, "combat", "undo", NULL));
    assert_int_equal(timer(f), f->now_ms + 4 * DUR_MS_HOUR);
    /* Off: no timer. On again, then the end: none either. */
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "off", "true", NULL));
    assert_int_equal(timer(f), 0);
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "act", "2h", NULL));
    assert_true(timer(f) > 0);
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_int_equal(timer(f), 0);
}

static void test_clock_refusals_change_nothing(void **state)
{
    struct cmd_fx *f = *state;
    fight(f, false);
    assert_false(cmd_fx_run(f, GM, "combat", "clock", "remind", "10s",
                            NULL));
    cmd_fx_has(f, "remind:");
    assert_false(cmd_fx_run(f, GM, "combat", "clock", "remind", "1h",
                            "act", "1h", NULL));
    cmd_fx_has(f, "longer than remind");
    assert_false(cmd_fx_run(f, GM, "combat", "clock", "auto", "true",
                            NULL));
    assert_false(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h",
                            "auto", "true", NULL));
    cmd_fx_has(f, "give act: too");
    assert_false(cmd_fx_run(f, GM, "combat", "clock", "off", "true",
                            "remind", "4h", NULL));
    assert_false(cmd_fx_run(f, ALICE, "combat", "clock", "remind", "4h",
                            NULL));
    cmd_fx_has(f, "only the GM");
    assert_int_equal(timer(f), 0);
}

/* The reminder fires once; the deadline with auto moves the turn on. */
static void test_clock_fires_once(void **state)
{
    struct cmd_fx *f = *state;
    char text[2048];
    fight(f, false);
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "4h", "act",
                           "1d", "auto", "true", NULL));
    assert_int_equal(fire(f, began + DUR_MS_HOUR, text, sizeof text), 0);
    /* On time: no note. */
    assert_int_equal(fire(f, began + 4 * DUR_MS_HOUR, text, sizeof text), 1);
    assert_non_null(strstr(text, "<@200>"));
    assert_null(strstr(text, "late by"));
    assert_int_equal(fire(f, began + 5 * DUR_MS_HOUR, text, sizeof text), 0);
    /* A stale claim (the due time read before it moved) takes nothing. */
    struct store_timer old = {.channel = CHANNEL, .guild = 0,
                              .due_ms = began + 4 * DUR_MS_HOUR};
    struct cmd_reply r;
    bool fired = true;
    assert_true(cmd_clock_fire(&f->ctx, &old, began + 6 * DUR_MS_HOUR,
                               CMD_SRC_DISCORD, &r, &fired));
    assert_false(fired);
    cmd_reply_cleanup(&r);
    /* Three hours late: said so; the turn moved on to Bryn. */
    assert_int_equal(fire(f, began + 27 * DUR_MS_HOUR, text, sizeof text),
                     1);
    assert_non_null(strstr(text, "late by 3 h"));
    /* the turn it started is announced as /combat next's is */
    assert_non_null(strstr(text, "<@300>, it is your turn"));
    f->now_ms = began + 27 * DUR_MS_HOUR;
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Bryn's turn");
}

/* A hidden combatant's turn: the table's reminder names nobody. */
static void test_clock_hidden_turn_unnamed(void **state)
{
    struct cmd_fx *f = *state;
    char text[2048];
    fight(f, true);
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "remind", "1h", NULL));
    assert_int_equal(fire(f, began + 2 * DUR_MS_HOUR, text, sizeof text), 1);
    assert_null(strstr(text, "Shade"));
    assert_non_null(strstr(text, "<@100>"));   /* the GM runs it */
}

/* The turn stopped on an event of the order (enc_entry.h) waits on
 * nobody: at the deadline the clock moves on as /combat next does, where
 * the system's own timeout would find no turn to end. */
static void test_clock_moves_on_from_an_event(void **state)
{
    struct cmd_fx *f = *state;
    char text[2048];
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Aria", "hp",
                           "20", "init", "=30", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "event", "name", "Lair", "at",
                           "start", "note", "Rumble", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
    int64_t began = f->now_ms;
    assert_true(cmd_fx_run(f, GM, "combat", "clock", "act", "1h", "auto",
                           "true", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Lair (lair action)");
    assert_int_equal(fire(f, began + 2 * DUR_MS_HOUR, text, sizeof text),
                     1);
    assert_null(strstr(text, "could not move"));
    f->now_ms = began + 2 * DUR_MS_HOUR;
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Aria's turn");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, cmd_fx_setup_discord, \
                                             cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_clock_timer_follows_the_fight),
        T(test_clock_refusals_change_nothing),
        T(test_clock_fires_once),
        T(test_clock_hidden_turn_unnamed),
        T(test_clock_moves_on_from_an_event),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_clock", tests, NULL, NULL);
}
