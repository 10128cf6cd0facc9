/* The store's saved rolls (macros), the same cases for both backends:
 * scopes, case-insensitive names kept in lower case, duplicates, replace,
 * delete, counts, prefix lists, export and import. Built twice
 * (tests/CMakeLists.txt): test_store_macro on an in-memory SQLite
 * database, test_store_macro_pg (FRAY_STORE_PG) on a throwaway PostgreSQL
 * cluster with an empty macro table per test. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "store.h"
#include "store_fixture.h"

#define GUILD 111111111111111111ull
#define ALICE 222222222222222222ull
#define BOB 333333333333333333ull

#ifdef FRAY_STORE_PG
#include "pg_cluster.h"
#define SUITE "store_macro_pg"
#define STORE_PG true
#else
#define SUITE "store_macro"
#define STORE_PG false
#endif

static int open_store(void **state)
{
    return store_fx_open(state, STORE_PG, "TRUNCATE macro");
}

static int close_store(void **state)
{
    return store_fx_close(state);
}

static struct store_macro macro(uint64_t guild, uint64_t user,
                                const char *name, const char *dice,
                                int64_t at)
{
    struct store_macro m = {.guild = guild, .user = user,
                            .by = user ? user : ALICE,
                            .created_ms = at, .updated_ms = at};
    snprintf(m.name, sizeof m.name, "%s", name);
    snprintf(m.dice, sizeof m.dice, "%s", dice);
    return m;
}

/* Names joined with spaces, as a list call found them. */
struct names {
    char text[512];
    size_t n;
};

static enum bot_err add_name(void *ctx, const struct store_macro *m)
{
    struct names *n = ctx;
    size_t len = strlen(n->text);
    snprintf(n->text + len, sizeof n->text - len, "%s%s", len ? " " : "",
             m->name);
    n->n++;
    return BOT_OK;
}

static void test_macro_scopes_apart(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "stealth", "1d20+7 # Stealth", 10);
    struct store_macro got;
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    m = macro(GUILD, 0, "stealth", "1d20+3", 11);
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);

    assert_int_equal(store_macro_get(s, 0, ALICE, "stealth", &got), BOT_OK);
    assert_string_equal(got.dice, "1d20+7 # Stealth");
    assert_int_equal(got.guild, 0);
    assert_true(got.user == ALICE);
    assert_int_equal(got.created_ms, 10);
    assert_int_equal(store_macro_get(s, GUILD, 0, "stealth", &got), BOT_OK);
    assert_string_equal(got.dice, "1d20+3");
    /* Bob has none of his own, and Alice's are not a server's. */
    assert_int_equal(store_macro_get(s, 0, BOB, "stealth", &got),
                     BOT_NOTFOUND);
    assert_int_equal(store_macro_get(s, GUILD + 1, 0, "stealth", &got),
                     BOT_NOTFOUND);
}

static void test_macro_duplicate_and_replace(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "fire", "8d6", 10);
    struct store_macro got;
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    m = macro(0, ALICE, "fire", "10d6", 20);
    assert_int_equal(store_macro_put(s, &m, false), BOT_CONFLICT);
    assert_int_equal(store_macro_get(s, 0, ALICE, "fire", &got), BOT_OK);
    assert_string_equal(got.dice, "8d6");

    assert_int_equal(store_macro_put(s, &m, true), BOT_OK);
    assert_int_equal(store_macro_get(s, 0, ALICE, "fire", &got), BOT_OK);
    assert_string_equal(got.dice, "10d6");
    assert_int_equal(got.created_ms, 10); /* first saved */
    assert_int_equal(got.updated_ms, 20);
    int64_t n = -1;
    assert_int_equal(store_macro_count(s, 0, ALICE, &n), BOT_OK);
    assert_int_equal(n, 1);
}

static void test_macro_bad_input(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "Stealth", "1d20", 1);
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);
    m = macro(0, ALICE, "1st", "1d20", 1);
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);
    m = macro(0, ALICE, "a+b", "1d20", 1);
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);
    m = macro(0, ALICE, "ok", "", 1);
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);
    m = macro(GUILD, ALICE, "ok", "1d20", 1); /* two scopes */
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);
    m = macro(0, 0, "ok", "1d20", 1); /* none */
    assert_int_equal(store_macro_put(s, &m, false), BOT_INVALID);

    char longname[STORE_MACRO_NAME_MAX + 2];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_false(store_macro_name_ok(longname));
    longname[STORE_MACRO_NAME_MAX] = '\0';
    assert_true(store_macro_name_ok(longname));
    assert_true(store_macro_name_ok("a_1"));
    assert_false(store_macro_name_ok(""));
    assert_false(store_macro_name_ok("_a"));

    int64_t n = -1;
    assert_int_equal(store_macro_count(s, 0, ALICE, &n), BOT_OK);
    assert_int_equal(n, 0);
}

static void test_macro_delete(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "heal", "2d4+2", 1);
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    /* Bob deleting "heal" deletes in his own scope: none there. */
    assert_int_equal(store_macro_delete(s, 0, BOB, "heal"), BOT_NOTFOUND);
    assert_int_equal(store_macro_delete(s, 0, ALICE, "heal"), BOT_OK);
    assert_int_equal(store_macro_delete(s, 0, ALICE, "heal"), BOT_NOTFOUND);
    assert_int_equal(store_macro_delete(s, 0, ALICE, "Not A Name"),
                     BOT_NOTFOUND);
}

static void test_macro_list_prefix(void **state)
{
    struct store *s = *state;
    static const char *const names[] = {"stealth", "str", "athletics",
                                        "st_save", "strike", "z"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct store_macro m = macro(0, ALICE, names[i], "1d20", 1);
        assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    }
    struct store_macro other = macro(0, BOB, "strength", "1d20", 1);
    assert_int_equal(store_macro_put(s, &other, false), BOT_OK);

    struct names got = {0};
    assert_int_equal(store_macro_list(s, 0, ALICE, "st", 10, add_name, &got),
                     BOT_OK);
    assert_string_equal(got.text, "st_save stealth str strike");
    memset(&got, 0, sizeof got);
    assert_int_equal(store_macro_list(s, 0, ALICE, "", 3, add_name, &got),
                     BOT_OK);
    assert_string_equal(got.text, "athletics st_save stealth");
    memset(&got, 0, sizeof got);
    assert_int_equal(store_macro_list(s, 0, ALICE, "z", 10, add_name, &got),
                     BOT_OK);
    assert_string_equal(got.text, "z");
    /* What no name can start with finds nothing, and is no error. */
    memset(&got, 0, sizeof got);
    assert_int_equal(store_macro_list(s, 0, ALICE, "S+", 10, add_name, &got),
                     BOT_OK);
    assert_int_equal(got.n, 0);

    int64_t n = -1;
    assert_int_equal(store_macro_count(s, 0, ALICE, &n), BOT_OK);
    assert_int_equal(n, 6);
}

/* Export then import into a second database gives the same rows. */
static void test_macro_export_import(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "b", "1d6 # two", 5);
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    m = macro(GUILD, 0, "a", "1d8", 7);
    m.by = BOB;
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);

    struct names got = {0};
    assert_int_equal(store_macro_export(s, add_name, &got), BOT_OK);
    /* By guild first: the user's own (guild 0) come first. */
    assert_string_equal(got.text, "b a");

    struct store *t = NULL;
    char err[256];
    assert_int_equal(store_open(":memory:", &t, err, sizeof err), BOT_OK);
    assert_int_equal(store_import_macro(t, &m), BOT_OK);
    assert_int_equal(store_import_macro(t, &m), BOT_CONFLICT);
    struct store_macro back;
    assert_int_equal(store_macro_get(t, GUILD, 0, "a", &back), BOT_OK);
    assert_true(back.by == BOB);
    assert_int_equal(back.created_ms, 7);
    assert_int_equal(back.updated_ms, 7);
    assert_string_equal(back.dice, "1d8");
    store_close(t);
}

/* Inside a transaction a rollback takes the save back. */
static void test_macro_rollback(void **state)
{
    struct store *s = *state;
    struct store_macro m = macro(0, ALICE, "gone", "1d4", 1), got;
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_macro_put(s, &m, false), BOT_OK);
    store_rollback(s);
    assert_int_equal(store_macro_get(s, 0, ALICE, "gone", &got),
                     BOT_NOTFOUND);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, open_store, close_store)
    const struct CMUnitTest tests[] = {
        T(test_macro_scopes_apart),
        T(test_macro_duplicate_and_replace),
        T(test_macro_bad_input),
        T(test_macro_delete),
        T(test_macro_list_prefix),
        T(test_macro_export_import),
        T(test_macro_rollback),
    };
    return STORE_FX_RUN(SUITE, tests);
}
