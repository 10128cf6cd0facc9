/*
 * cmd_fixture.c - the command layer's test fixture (cmd_fixture.h).
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

int cmd_fx_setup(void **state)
{
    struct cmd_fx *f = calloc(1, sizeof *f);
    char err[128];
    assert_non_null(f);
    assert_int_equal(store_open(":memory:", &f->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&f->rng, 42);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
    cmd_reply_init(&f->reply);
    *state = f;
    return 0;
}

int cmd_fx_teardown(void **state)
{
    struct cmd_fx *f = *state;
    cmd_reply_cleanup(&f->reply);
    store_close(f->store);
    free(f);
    return 0;
}

bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...)
{
    struct cmd_req req = {
        .source = CMD_SRC_CONSOLE,
        .command = command,
        .sub = sub,
        .channel_id = 1,
        .user_id = user,
        .user_name = "tester",
        .expect_version = -1,
        .force_gm = f->gm != 0 && user == f->gm,
    };
    va_list ap;
    va_start(ap, sub);
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL &&
           req.nopts < CMD_MAX_OPTS) {
        req.opts[req.nopts].name = name;
        req.opts[req.nopts].value = va_arg(ap, const char *);
        req.nopts++;
    }
    va_end(ap);
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, &req, &f->reply));
    struct sbuf b;
    sbuf_init(&b, sizeof f->text - 1);
    render_text(&f->reply.msg, NULL, &b);
    snprintf(f->text, sizeof f->text, "%s", sbuf_str(&b));
    sbuf_cleanup(&b);
    if (getenv("TEST_VERBOSE"))
        printf("%s\n", f->text);
    return !f->reply.is_error;
}

void cmd_fx_has(const struct cmd_fx *f, const char *needle)
{
    if (strstr(f->text, needle) == NULL)
        fail_msg("expected \"%s\" in:\n%s", needle, f->text);
}
