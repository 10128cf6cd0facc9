/* The console's text form (console_form.h): with a person answering
 * (console.ask set, as interactive mode sets it), a form command typed
 * without its options asks one prompt per field and runs the same command
 * with the answers (the select as numbered choices, the checkbox as y/n);
 * end of input gives the form up and nothing is done; without ask (a
 * script) the command is refused as typed, naming what is missing. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "eng_rng.h"
#include "store.h"

struct feed {
    const char *const *answers;
    int next, n;
    char prompts[4096];
};

static char *feed_ask(void *ud, const char *prompt)
{
    struct feed *fd = ud;
    size_t at = strlen(fd->prompts);
    snprintf(fd->prompts + at, sizeof fd->prompts - at, "%s\n", prompt);
    if (fd->next >= fd->n)
        return NULL;
    return strdup(fd->answers[fd->next++]);
}

struct world {
    struct store *store;
    struct eng_rng rng;
    struct console con;
    FILE *f;
    char *out;
    size_t outlen;
};

static void line(struct world *w, const char *text)
{
    assert_int_equal(console_line(&w->con, text, strlen(text)),
                     CONSOLE_CONTINUE);
    fflush(w->f);
}

static void open_world(struct world *w)
{
    char err[128];
    memset(w, 0, sizeof *w);
    w->f = open_memstream(&w->out, &w->outlen);
    assert_non_null(w->f);
    assert_int_equal(store_open(":memory:", &w->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&w->rng, 42);
    assert_true(console_init(&w->con, w->store, &w->rng, w->f, "gm", true,
                             false));
}

static void close_world(struct world *w)
{
    fclose(w->f);
    free(w->out);
    store_close(w->store);
}

static void test_console_form_prompts(void **state)
{
    (void)state;
    struct world w;
    static const char *const answers[] = {
        "Goblin", "2", "7", "ac=13", "y",      /* /combat add's form */
    };
    struct feed fd = {answers, 0, 5, ""};
    open_world(&w);
    w.con.ask = feed_ask;
    w.con.ask_ud = &fd;
    line(&w, "/combat start system:generic");
    line(&w, "/combat add");
    /* one prompt per field, in the form's order */
    assert_non_null(strstr(fd.prompts, "Name"));
    assert_non_null(strstr(fd.prompts, "Count [1 to"));
    assert_non_null(strstr(fd.prompts, "Stats (Generic d20)"));
    assert_non_null(strstr(fd.prompts, "Hidden (y or n)"));
    assert_non_null(strstr(w.out, "Goblin 2"));
    assert_int_equal(w.con.refused, 0);
    /* given up: nothing done */
    fd.next = fd.n;
    size_t before = strlen(w.out);
    line(&w, "/combat add");
    assert_non_null(strstr(w.out + before, "form given up"));
    close_world(&w);
}

static void test_console_form_select(void **state)
{
    (void)state;
    struct world w;
    static const char *const answers[] = {"1", "", "", ""};
    struct feed fd = {answers, 0, 4, ""};
    open_world(&w);
    line(&w, "/character create name:Aria hp:20");
    line(&w, "/character create name:Asha hp:20");  /* two: a form */
    line(&w, "/combat start system:generic");
    w.con.ask = feed_ask;
    w.con.ask_ud = &fd;
    line(&w, "/combat join");
    assert_non_null(strstr(w.out, "  1. Aria"));
    assert_non_null(strstr(w.out, "Aria joins the fight"));
    assert_int_equal(w.con.refused, 0);
    close_world(&w);
}

static void test_console_script_refuses(void **state)
{
    (void)state;
    struct world w;
    open_world(&w);
    line(&w, "/character create");
    assert_int_equal(w.con.refused, 1);
    assert_non_null(strstr(w.out, "name"));
    close_world(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_console_form_prompts),
        cmocka_unit_test(test_console_form_select),
        cmocka_unit_test(test_console_script_refuses),
    };
    return cmocka_run_group_tests_name("console_form", tests, NULL, NULL);
}
