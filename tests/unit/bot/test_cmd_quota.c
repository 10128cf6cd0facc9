/* The per-server quota on live fights at the command layer: /combat start
 * and /combat reopen beyond it are refused with a short reason and change
 * nothing; a fight started in a server is counted as that server's. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "cmd_fixture.h"
#include "store.h"

#define GM 100
#define QUOTA 3

/* A live fight in channel ch of the fixture's server, made in the store
 * directly (only channel 1 goes through commands). */
static void other_fight(struct cmd_fx *f, uint64_t ch)
{
    assert_int_equal(store_enc_save(f->store, ch, 1, "{}"), BOT_OK);
    assert_int_equal(store_enc_set_guild(f->store, ch, CMD_FX_GUILD), BOT_OK);
}

static void counts(struct cmd_fx *f, int64_t want_live, int64_t want_archived)
{
    int64_t live = -1, archived = -1;
    assert_int_equal(store_guild_count(f->store, CMD_FX_GUILD, &live,
                                       &archived),
                     BOT_OK);
    assert_int_equal(live, want_live);
    assert_int_equal(archived, want_archived);
}

static void test_quota_start_refused(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.max_live = QUOTA;
    for (uint64_t ch = 2; ch < 2 + QUOTA; ch++)
        other_fight(f, ch);
    assert_false(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                            NULL));
    cmd_fx_has(f, "this server has 3 fights running (the limit is 3); end "
                  "one first with /combat end");
    assert_true(f->reply.is_error);
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.changed);
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(f->store, 1, &doc, &v), BOT_NOTFOUND);
    counts(f, QUOTA, 0);

    /* One ends: the next start is accepted and counted as the server's. */
    assert_int_equal(store_enc_archive(f->store, 2, f->now_ms), BOT_OK);
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    counts(f, QUOTA, 1);
}

static void test_quota_reopen_refused(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.max_live = QUOTA;
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    for (uint64_t ch = 2; ch < 2 + QUOTA; ch++)
        other_fight(f, ch);
    assert_false(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    cmd_fx_has(f, "this server has 3 fights running");
    counts(f, QUOTA, 1);
    assert_int_equal(store_enc_archive(f->store, 3, f->now_ms), BOT_OK);
    assert_true(cmd_fx_run(f, GM, "combat", "reopen", NULL));
    counts(f, QUOTA, 1);
}

/* Fights without a server (DMs, the console) are not counted. */
static void test_quota_not_in_dm(void **state)
{
    struct cmd_fx *f = *state;
    f->ctx.max_live = 1;
    f->guild = 0;
    f->source = CMD_SRC_CONSOLE;
    other_fight(f, 2);
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    counts(f, 1, 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, cmd_fx_setup_discord, \
                                              cmd_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_quota_start_refused),
        T(test_quota_reopen_refused),
        T(test_quota_not_in_dm),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_quota", tests, NULL, NULL);
}
