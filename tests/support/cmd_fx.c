/*
 * cmd_fx.c - the command layer over a real store, for bot tests
 * (cmd_fx.h).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_fx.h"
#include "render_text.h"
#include "sbuf.h"

bool cmd_fx_open(struct cmd_fx *f, const char *path, uint64_t seed)
{
    char err[128];
    memset(f, 0, sizeof *f);
    if (store_open(path, &f->store, err, sizeof err) != BOT_OK)
        return false;
    eng_rng_seed(&f->rng, seed);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
    cmd_reply_init(&f->reply);
    return true;
}

void cmd_fx_close(struct cmd_fx *f)
{
    cmd_reply_cleanup(&f->reply);
    store_close(f->store);
    f->store = NULL;
}

bool cmd_fx_vrun(struct cmd_fx *f, uint64_t user, const char *command,
                 const char *sub, va_list ap)
{
    struct cmd_req req = {
        .source = CMD_SRC_CONSOLE,
        .command = command,
        .sub = sub,
        .channel_id = 1,
        .user_id = user,
        .user_name = "tester",
        .expect_version = -1,
    };
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        assert_true(req.nopts < CMD_MAX_OPTS);
        req.opts[req.nopts].name = name;
        req.opts[req.nopts].value = va_arg(ap, const char *);
        req.nopts++;
    }
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

bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...)
{
    va_list ap;
    va_start(ap, sub);
    bool ok = cmd_fx_vrun(f, user, command, sub, ap);
    va_end(ap);
    return ok;
}
