/* test_console_pick.c - the console's text form of a picker
 * (docs/console.md): a list to choose from is printed numbered, followed
 * by "answer with a number (1 to N)"; a line that is only a number answers
 * it as the typed command; out of range, no list open, or another user's
 * list is refused. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "eng_rng.h"
#include "store.h"

#define PICK_SEED 42

struct session {
    struct store *store;
    struct eng_rng rng;
    struct console con;
    char *buf;
    size_t len;
    FILE *out;
};

static void open_session(struct session *s)
{
    char err[256];
    memset(s, 0, sizeof *s);
    assert_int_equal(store_open(":memory:", &s->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&s->rng, PICK_SEED);
    s->out = open_memstream(&s->buf, &s->len);
    assert_non_null(s->out);
    assert_true(console_init(&s->con, s->store, &s->rng, s->out, "gm", true,
                             false));
}

static void close_session(struct session *s)
{
    fclose(s->out);
    free(s->buf);
    store_close(s->con.ctx.store);
}

/* Run line; what it printed (valid until the next call). */
static const char *say(struct session *s, const char *line)
{
    fflush(s->out);
    size_t before = s->len;
    assert_int_equal(console_line(&s->con, line, strlen(line)),
                     CONSOLE_CONTINUE);
    fflush(s->out);
    return s->buf + before;
}

static void setup_fight(struct session *s)
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
    struct session s;
    open_session(&s);
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
    close_session(&s);
}

static void test_console_pick_refusals(void **state)
{
    (void)state;
    struct session s;
    open_session(&s);
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
    close_session(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_console_pick_numbered_and_answered),
        cmocka_unit_test(test_console_pick_refusals),
    };
    return cmocka_run_group_tests_name("console_pick", tests, NULL, NULL);
}
