/* test_console_pick.c - the console's text form of a picker
 * (docs/console.md): a list to choose from is printed numbered, followed
 * by "answer with a number (1 to N)"; a line that is only a number answers
 * it as the typed command; out of range, no list open, or another user's
 * list is refused. An area attack's list takes several numbers on one
 * line ("1 3"); a repeat, too many, or several on a one-choice list is
 * refused. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_fixture.h"
#include "eng_rng.h"
#include "store.h"

#define PICK_SEED 42

/* What line printed (console_fx_say). */
static const char *say(struct console_fx *s, const char *line)
{
    return console_fx_say(s, line);
}

static void setup_fight(struct console_fx *s)
{
    say(s, "/combat start system:generic name:Pick");
    say(s, "/combat add name:Orc hp:9 init:=5 stats:\"ac=1\"");
    say(s, "/combat add name:Shade hp:9 init:=1 hidden:true");
    say(s, ":as alice");
    say(s, "/combat join name:Aria hp:20 init:=30 stats:\"attack=2\"");
    say(s, ":as gm");
    say(s, "/combat begin");
    say(s, ":as alice");
}

static void test_console_pick_numbered_and_answered(void **state)
{
    (void)state;
    struct console_fx s;
    console_fx_open(&s, PICK_SEED, I18N_EN);
    setup_fight(&s);
    const char *o = say(&s, "/attack");
    assert_non_null(strstr(o, "1. Orc\n"));
    assert_null(strstr(o, "Shade"));
    assert_non_null(strstr(o, "answer with a number (1 to 1)"));
    o = say(&s, " 1 ");
    assert_non_null(strstr(o, "Aria attacks Orc"));
    /* the list closed with that answer */
    o = say(&s, "1");
    assert_non_null(strstr(o, "no choice is open"));
    console_fx_close(&s);
}

static void test_console_pick_refusals(void **state)
{
    (void)state;
    struct console_fx s;
    console_fx_open(&s, PICK_SEED, I18N_EN);
    setup_fight(&s);
    say(&s, "/attack");
    const char *o = say(&s, "2");
    assert_non_null(strstr(o, "choose a number from 1 to 1"));
    o = say(&s, "0");
    assert_non_null(strstr(o, "choose a number from 1 to 1"));
    o = say(&s, "99999");       /* not a number of a list: a command */
    assert_null(strstr(o, "Aria attacks"));
    say(&s, "/attack");
    say(&s, ":as bob");
    o = say(&s, "1");
    assert_non_null(strstr(o, "shown to alice"));
    say(&s, ":as alice");
    o = say(&s, "1");
    assert_non_null(strstr(o, "Aria attacks Orc"));
    console_fx_close(&s);
}

/* An area attack (tactical template=) lists its targets numbered and
 * takes several numbers on one line, the first being target:; a repeated
 * number, more than the list allows, or one out of range is refused and
 * nothing happens. */
static void test_console_pick_several(void **state)
{
    (void)state;
    struct console_fx s;
    console_fx_open(&s, PICK_SEED, I18N_EN);
    say(&s, "/combat start system:tactical name:Area");
    say(&s, "/combat add name:Drone side:drones hp:12 stats:\"init=1\"");
    say(&s, "/combat add name:Wasp side:drones hp:12 stats:\"init=2\"");
    say(&s, "/combat add name:Shade side:drones hp:9 hidden:true "
        "stats:\"init=3\"");
    say(&s, ":as alice");
    say(&s, "/combat join name:Aria side:crew hp:20 stats:\"init=30\"");
    say(&s, ":as gm");
    say(&s, "/combat begin");
    say(&s, ":as alice");
    const char *o = say(&s, "/attack damage:2d6 options:\"template=2\"");
    assert_non_null(strstr(o, "1. Drone\n"));
    assert_non_null(strstr(o, "2. Wasp\n"));
    assert_null(strstr(o, "Shade"));
    assert_non_null(strstr(o, "answer with up to 2 numbers (1 to 2)"));
    o = say(&s, "1 1");
    assert_non_null(strstr(o, "1 is chosen twice"));
    o = say(&s, "1 2 3");
    assert_non_null(strstr(o, "choose at most 2 numbers"));
    o = say(&s, "2 3");
    assert_non_null(strstr(o, "choose a number from 1 to 2"));
    o = say(&s, " 2  1 ");
    assert_non_null(strstr(o, "Wasp"));
    assert_non_null(strstr(o, "Drone"));
    assert_null(strstr(o, "Shade"));
    /* a single attack's list takes one number */
    say(&s, ":as gm");
    o = say(&s, "/attack attacker:Drone");
    assert_non_null(strstr(o, "answer with a number"));
    o = say(&s, "1 2");
    assert_non_null(strstr(o, "choose one number from 1 to"));
    console_fx_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_console_pick_numbered_and_answered),
        cmocka_unit_test(test_console_pick_refusals),
        cmocka_unit_test(test_console_pick_several),
    };
    return cmocka_run_group_tests_name("console_pick", tests, NULL, NULL);
}
