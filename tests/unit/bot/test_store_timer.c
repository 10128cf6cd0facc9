/* The turn clocks' timers in the store (store.h, "turn clock timers"), the
 * same cases for both backends: set, move, clear, the next due time, the
 * due rows in order, a shard's rows, and a claim that succeeds exactly
 * once. Built twice (tests/CMakeLists.txt): test_store_timer on in-memory
 * SQLite, test_store_timer_pg (FRAY_STORE_PG) on a throwaway PostgreSQL
 * cluster, where two connections claim the same row. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_fixture.h"

#ifdef FRAY_STORE_PG
#include "pg_cluster.h"
#define SUITE "store_timer_pg"
#define STORE_PG true
#else
#define SUITE "store_timer"
#define STORE_PG false
#endif

/* Guild snowflakes whose shard (of 2) is known: (guild >> 22) % 2. */
#define GUILD_SHARD0 (UINT64_C(1000) << 22)
#define GUILD_SHARD1 (UINT64_C(1001) << 22)

static int open_store(void **state)
{
    return store_fx_open(state, STORE_PG, "TRUNCATE clock_timer");
}

static int close_store(void **state)
{
    return store_fx_close(state);
}

static void test_timer_next_and_due(void **state)
{
    struct store *s = *state;
    int64_t due = 0;
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_NOTFOUND);
    assert_int_equal(store_timer_set(s, 10, GUILD_SHARD0, 5000, I18N_DE),
                     BOT_OK);
    assert_int_equal(store_timer_set(s, 11, GUILD_SHARD1, 3000, I18N_PL),
                     BOT_OK);
    assert_int_equal(store_timer_set(s, 12, 0, 9000, I18N_EN), BOT_OK);
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_OK);
    assert_int_equal(due, 3000);
    /* Moving a channel's timer replaces its row, language too. */
    assert_int_equal(store_timer_set(s, 11, GUILD_SHARD1, 7000, I18N_PT_BR),
                     BOT_OK);
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_OK);
    assert_int_equal(due, 5000);

    struct store_timer t[4];
    size_t n = 0;
    assert_int_equal(store_timer_due(s, 0, 1, 7000, t, 4, &n), BOT_OK);
    assert_int_equal(n, 2);                 /* 9000 is not due yet */
    assert_int_equal(t[0].channel, 10);
    assert_int_equal(t[0].guild, GUILD_SHARD0);
    assert_int_equal(t[0].due_ms, 5000);
    assert_int_equal(t[0].lang, I18N_DE);
    assert_int_equal(t[1].channel, 11);
    assert_int_equal(t[1].due_ms, 7000);
    assert_int_equal(t[1].lang, I18N_PT_BR);
    /* max bounds the batch */
    assert_int_equal(store_timer_due(s, 0, 1, 10000, t, 1, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(t[0].channel, 10);
    assert_int_equal(store_timer_due(s, 0, 1, 10000, t, 0, &n), BOT_LIMIT);

    /* Clearing removes the row. */
    assert_int_equal(store_timer_set(s, 10, GUILD_SHARD0, 0, I18N_EN), BOT_OK);
    assert_int_equal(store_timer_set(s, 11, GUILD_SHARD1, 0, I18N_EN), BOT_OK);
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_OK);
    assert_int_equal(due, 9000);
    assert_int_equal(store_timer_set(s, 12, 0, 0, I18N_EN), BOT_OK);
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_NOTFOUND);
    assert_int_equal(store_timer_set(s, 12, 0, -1, I18N_EN), BOT_INVALID);
    assert_int_equal(store_timer_set(s, 12, 0, 1, I18N_COUNT), BOT_INVALID);
}

/* A shard sees only its guilds' rows, by Discord's (guild >> 22) % n. */
static void test_timer_shards(void **state)
{
    struct store *s = *state;
    int64_t due = 0;
    assert_int_equal(store_timer_set(s, 20, GUILD_SHARD0, 100, I18N_EN),
                     BOT_OK);
    assert_int_equal(store_timer_set(s, 21, GUILD_SHARD1, 50, I18N_EN), BOT_OK);
    assert_int_equal(store_timer_next(s, 0, 2, &due), BOT_OK);
    assert_int_equal(due, 100);
    assert_int_equal(store_timer_next(s, 1, 2, &due), BOT_OK);
    assert_int_equal(due, 50);
    struct store_timer t[4];
    size_t n = 0;
    assert_int_equal(store_timer_due(s, 0, 2, 1000, t, 4, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(t[0].channel, 20);
    assert_int_equal(store_timer_due(s, 1, 2, 1000, t, 4, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(t[0].channel, 21);
    assert_int_equal(store_timer_next(s, 2, 2, &due), BOT_INVALID);
}

/* A claim takes the row once; a claim with an old due time (the timer
 * moved since it was read) takes nothing; a rolled-back claim leaves the
 * row for the next one. */
static void test_timer_claim_once(void **state)
{
    struct store *s = *state;
    bool claimed = false;
    assert_int_equal(store_timer_set(s, 30, 0, 100, I18N_EN), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_timer_claim(s, 30, 100, &claimed), BOT_OK);
    assert_true(claimed);
    store_rollback(s);
    assert_int_equal(store_timer_claim(s, 30, 99, &claimed), BOT_OK);
    assert_false(claimed);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_timer_claim(s, 30, 100, &claimed), BOT_OK);
    assert_true(claimed);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_timer_claim(s, 30, 100, &claimed), BOT_OK);
    assert_false(claimed);
    int64_t due = 0;
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_NOTFOUND);
}

#ifdef FRAY_STORE_PG
/* Two processes on one database: the second's claim of a row the first
 * claimed and committed takes nothing, and one the first rolled back
 * is there for the second. */
static void test_timer_claim_two_connections(void **state)
{
    struct store *a = *state, *b = NULL;
    char err[256];
    bool ca = false, cb = false;
    assert_int_equal(store_open(store_fx_location(STORE_PG), &b, err,
                                sizeof err),
                     BOT_OK);
    assert_int_equal(store_timer_set(a, 40, GUILD_SHARD0, 500, I18N_EN),
                     BOT_OK);
    assert_int_equal(store_timer_set(a, 41, GUILD_SHARD0, 600, I18N_EN),
                     BOT_OK);

    assert_int_equal(store_begin(a), BOT_OK);
    assert_int_equal(store_timer_claim(a, 40, 500, &ca), BOT_OK);
    assert_int_equal(store_commit(a), BOT_OK);
    assert_int_equal(store_begin(b), BOT_OK);
    assert_int_equal(store_timer_claim(b, 40, 500, &cb), BOT_OK);
    assert_int_equal(store_commit(b), BOT_OK);
    assert_true(ca);
    assert_false(cb);

    assert_int_equal(store_begin(a), BOT_OK);
    assert_int_equal(store_timer_claim(a, 41, 600, &ca), BOT_OK);
    assert_true(ca);
    store_rollback(a);
    assert_int_equal(store_begin(b), BOT_OK);
    assert_int_equal(store_timer_claim(b, 41, 600, &cb), BOT_OK);
    assert_int_equal(store_commit(b), BOT_OK);
    assert_true(cb);
    store_close(b);
}
#endif

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, open_store, close_store)
    const struct CMUnitTest tests[] = {
        T(test_timer_next_and_due),
        T(test_timer_shards),
        T(test_timer_claim_once),
#ifdef FRAY_STORE_PG
        T(test_timer_claim_two_connections),
#endif
    };
#undef T
    return STORE_FX_RUN(SUITE, tests);
}
