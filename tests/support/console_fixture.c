/*
 * console_fixture.c - a console for tests (console_fixture.h).
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "console_fixture.h"

void console_fx_open(struct console_fx *s, uint64_t seed,
                     enum i18n_lang lang)
{
    char err[256];
    memset(s, 0, sizeof *s);
    assert_int_equal(store_open(":memory:", &s->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&s->rng, seed);
    s->out = open_memstream(&s->buf, &s->len);
    assert_non_null(s->out);
    assert_true(console_init(&s->con, s->store, &s->rng, s->out, "gm", true,
                             false));
    s->con.lang = lang;
}

void console_fx_close(struct console_fx *s)
{
    fclose(s->out);
    free(s->buf);
    store_close(s->con.ctx.store);
}

const char *console_fx_say(struct console_fx *s, const char *line)
{
    fflush(s->out);
    size_t before = s->len;
    assert_int_equal(console_line(&s->con, line, strlen(line)),
                     CONSOLE_CONTINUE);
    fflush(s->out);
    return s->buf + before;
}
