/* Tests for the store's saved sheets (characters and NPC templates), the
 * same cases for both backends: names unique per kind, server and owner
 * with case ignored; one player's sheet out of another's reach; the
 * document and its kept undo; counts and prefix listing for quotas and
 * autocomplete; the character a player uses; limits; export and import.
 * Built twice (tests/CMakeLists.txt): test_store_sheet on an in-memory
 * SQLite database, test_store_sheet_pg (FRAY_STORE_PG) on a throwaway
 * PostgreSQL cluster, each test on empty tables. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_fixture.h"

#define GUILD 111u
#define GUILD2 222u
#define ALICE 1001u
#define BOB 1002u
#define NOW 1700000000000

#ifdef FRAY_STORE_PG
#include "pg_cluster.h"
#define SUITE "store_sheet_pg"
#define STORE_PG true
#else
#define SUITE "store_sheet"
#define STORE_PG false
#endif

static int open_store(void **state)
{
    return store_fx_open(state, STORE_PG,
                         "TRUNCATE sheet_use, sheet RESTART IDENTITY");
}

static int close_store(void **state)
{
    return store_fx_close(state);
}

static enum bot_err add(struct store *s, enum store_sheet_kind kind,
                        uint64_t guild, uint64_t owner, const char *name,
                        const char *doc)
{
    struct store_sheet sh = {.kind = kind, .guild = guild, .owner = owner,
                             .name = (char *)name, .system = "generic",
                             .doc = (char *)doc};
    return store_sheet_create(s, &sh, NOW);
}

static struct store_sheet_key key(enum store_sheet_kind kind, uint64_t guild,
                                  uint64_t owner, const char *name)
{
    return (struct store_sheet_key){kind, guild, owner, name};
}

/* Appends "name " (and "name=undo_doc " for rows that carry it) to the
 * buffer ctx (128 bytes). */
static enum bot_err collect(void *ctx, const struct store_sheet *sh)
{
    char *buf = ctx;
    size_t n = strlen(buf);
    if (sh->undo_doc != NULL)
        snprintf(buf + n, 128 - n, "%s=%s ", sh->name, sh->undo_doc);
    else
        snprintf(buf + n, 128 - n, "%s%s ", sh->name, sh->used ? "*" : "");
    return BOT_OK;
}

static void test_sheet_round_trip(void **state)
{
    struct store *s = *state;
    struct store_sheet got;
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{\"a\":1}"),
                     BOT_OK);
    struct store_sheet_key k = key(STORE_SHEET_CHAR, GUILD, ALICE, "aRIA");
    assert_int_equal(store_sheet_get(s, &k, &got), BOT_OK);
    assert_string_equal(got.name, "Aria"); /* as first typed */
    assert_string_equal(got.system, "generic");
    assert_string_equal(got.doc, "{\"a\":1}");
    assert_int_equal(got.created_ms, NOW);
    assert_int_equal(got.updated_ms, NOW);
    assert_null(got.undo_tag);
    assert_null(got.undo_doc);
    assert_false(got.used);
    assert_int_equal(got.owner, ALICE);
    assert_int_equal(got.guild, GUILD);
    store_sheet_cleanup(&got);
    store_sheet_cleanup(NULL);
}

static void test_sheet_names_unique_case_ignored(void **state)
{
    struct store *s = *state;
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "ARIA", "{}"),
                     BOT_CONFLICT);
    /* Another player, another server, a template: their own names. */
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, BOB, "Aria", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD2, ALICE, "Aria", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, "Aria", "{}"), BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, "aria", "{}"),
                     BOT_CONFLICT);
    /* A conflict leaves the store usable inside a transaction. */
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "aria", "{}"),
                     BOT_CONFLICT);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Brim", "{}"),
                     BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    int64_t n = 0;
    struct store_sheet_key k = key(STORE_SHEET_CHAR, GUILD, ALICE, NULL);
    assert_int_equal(store_sheet_count(s, &k, &n), BOT_OK);
    assert_int_equal(n, 2);
}

static void test_sheet_other_players_out_of_reach(void **state)
{
    struct store *s = *state;
    struct store_sheet got;
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{}"),
                     BOT_OK);
    struct store_sheet_key bobs = key(STORE_SHEET_CHAR, GUILD, BOB, "Aria");
    assert_int_equal(store_sheet_get(s, &bobs, &got), BOT_NOTFOUND);
    assert_int_equal(store_sheet_update(s, &bobs, "{\"x\":1}", NULL, NULL,
                                        NOW + 1),
                     BOT_NOTFOUND);
    assert_int_equal(store_sheet_delete(s, &bobs), BOT_NOTFOUND);
    assert_int_equal(store_sheet_use_set(s, GUILD, BOB, "Aria"),
                     BOT_NOTFOUND);
    /* A template of the same name is not Alice's character either. */
    struct store_sheet_key npc = key(STORE_SHEET_NPC, GUILD, 0, "Aria");
    assert_int_equal(store_sheet_delete(s, &npc), BOT_NOTFOUND);
    struct store_sheet_key alices = key(STORE_SHEET_CHAR, GUILD, ALICE, "Aria");
    assert_int_equal(store_sheet_get(s, &alices, &got), BOT_OK);
    assert_string_equal(got.doc, "{}");
    store_sheet_cleanup(&got);
}

static void test_sheet_update_and_undo(void **state)
{
    struct store *s = *state;
    struct store_sheet got;
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{\"hp\":9}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, BOB, "Brim", "{\"hp\":5}"),
                     BOT_OK);
    struct store_sheet_key a = key(STORE_SHEET_CHAR, GUILD, ALICE, "aria");
    struct store_sheet_key b = key(STORE_SHEET_CHAR, GUILD, BOB, "brim");
    assert_int_equal(store_sheet_update(s, &a, "{\"hp\":4}", "fight-1",
                                        "{\"hp\":9}", NOW + 5),
                     BOT_OK);
    assert_int_equal(store_sheet_update(s, &b, "{\"hp\":1}", "fight-1",
                                        "{\"hp\":5}", NOW + 5),
                     BOT_OK);
    assert_int_equal(store_sheet_get(s, &a, &got), BOT_OK);
    assert_string_equal(got.doc, "{\"hp\":4}");
    assert_string_equal(got.undo_tag, "fight-1");
    assert_string_equal(got.undo_doc, "{\"hp\":9}");
    assert_int_equal(got.updated_ms, NOW + 5);
    assert_int_equal(got.created_ms, NOW);
    store_sheet_cleanup(&got);

    /* The write-back's sheets are found by its tag, in this server only. */
    char seen[128] = "";
    assert_int_equal(store_sheet_tagged(s, GUILD, "fight-1",
                                        collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Aria={\"hp\":9} Brim={\"hp\":5} ");
    seen[0] = '\0';
    assert_int_equal(store_sheet_tagged(s, GUILD2, "fight-1",
                                        collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "");

    /* A save without a tag forgets the kept document. */
    assert_int_equal(store_sheet_update(s, &a, "{\"hp\":7}", NULL, NULL,
                                        NOW + 6),
                     BOT_OK);
    assert_int_equal(store_sheet_get(s, &a, &got), BOT_OK);
    assert_null(got.undo_tag);
    assert_null(got.undo_doc);
    store_sheet_cleanup(&got);
    seen[0] = '\0';
    assert_int_equal(store_sheet_tagged(s, GUILD, "fight-1",
                                        collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Brim={\"hp\":5} ");
    /* A tag needs its document and the reverse. */
    assert_int_equal(store_sheet_update(s, &a, "{}", "t", NULL, NOW),
                     BOT_INVALID);
    assert_int_equal(store_sheet_update(s, &a, "{}", NULL, "{}", NOW),
                     BOT_INVALID);
}

static void test_sheet_count_and_list(void **state)
{
    struct store *s = *state;
    const char *names[] = {"Goblin", "gnoll", "Giant", "Orc", "goblin boss"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, names[i], "{}"),
                         BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD2, 0, "Gremlin", "{}"),
                     BOT_OK);
    int64_t n = 0;
    struct store_sheet_key all = key(STORE_SHEET_NPC, GUILD, 0, "");
    assert_int_equal(store_sheet_count(s, &all, &n), BOT_OK);
    assert_int_equal(n, 5);

    /* Prefix "G" matches case-insensitively, in name order. */
    char seen[128] = "";
    size_t total = 0;
    struct store_sheet_key g = key(STORE_SHEET_NPC, GUILD, 0, "G");
    assert_int_equal(store_sheet_list(s, &g, 25, &total, collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Giant gnoll Goblin goblin boss ");
    assert_int_equal(total, 4);
    /* At most max rows; the total still counts them all. */
    seen[0] = '\0';
    assert_int_equal(store_sheet_list(s, &g, 2, &total, collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Giant gnoll ");
    assert_int_equal(total, 4);
    seen[0] = '\0';
    assert_int_equal(store_sheet_list(s, &all, 25, NULL, collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Giant gnoll Goblin goblin boss Orc ");
    assert_int_equal(store_sheet_list(s, &all, 0, NULL, collect, seen),
                     BOT_LIMIT);
    assert_int_equal(store_sheet_list(s, &all, STORE_MAX_SHEET_LIST + 1, NULL,
                                      collect, seen),
                     BOT_LIMIT);
}

static void test_sheet_used_character(void **state)
{
    struct store *s = *state;
    char *name = NULL;
    assert_int_equal(store_sheet_use_get(s, GUILD, ALICE, &name),
                     BOT_NOTFOUND);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Brim", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, "Orc", "{}"), BOT_OK);
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, "ARIA"), BOT_OK);
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, "brim"), BOT_OK);
    assert_int_equal(store_sheet_use_get(s, GUILD, ALICE, &name), BOT_OK);
    assert_string_equal(name, "Brim");
    free(name);
    /* Only a character of one's own, in that server. */
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, "Orc"),
                     BOT_NOTFOUND);
    assert_int_equal(store_sheet_use_set(s, GUILD2, ALICE, "Aria"),
                     BOT_NOTFOUND);
    char seen[128] = "";
    struct store_sheet_key all = key(STORE_SHEET_CHAR, GUILD, ALICE, "");
    assert_int_equal(store_sheet_list(s, &all, 25, NULL, collect, seen),
                     BOT_OK);
    assert_string_equal(seen, "Aria Brim* ");
    /* Deleting the character used leaves none used. */
    struct store_sheet_key brim = key(STORE_SHEET_CHAR, GUILD, ALICE, "Brim");
    assert_int_equal(store_sheet_delete(s, &brim), BOT_OK);
    assert_int_equal(store_sheet_use_get(s, GUILD, ALICE, &name),
                     BOT_NOTFOUND);
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, "Aria"), BOT_OK);
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, NULL), BOT_OK);
    assert_int_equal(store_sheet_use_get(s, GUILD, ALICE, &name),
                     BOT_NOTFOUND);
}

static void test_sheet_limits(void **state)
{
    struct store *s = *state;
    char name[STORE_MAX_SHEET_NAME + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, name, "{}"),
                     BOT_LIMIT);
    name[STORE_MAX_SHEET_NAME] = '\0'; /* exactly the limit */
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, name, "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "", "{}"),
                     BOT_INVALID);
    size_t big = STORE_MAX_SHEET_DOC + 1;
    char *doc = malloc(big + 1);
    assert_non_null(doc);
    memset(doc, ' ', big);
    doc[big] = '\0';
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Big", doc),
                     BOT_LIMIT);
    free(doc);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, ALICE, "Owned", "{}"),
                     BOT_INVALID);
    assert_int_equal(add(s, (enum store_sheet_kind)7, GUILD, ALICE, "X", "{}"),
                     BOT_INVALID);
    char tag[STORE_MAX_SHEET_TAG + 2];
    memset(tag, 't', sizeof tag - 1);
    tag[sizeof tag - 1] = '\0';
    struct store_sheet_key k = key(STORE_SHEET_CHAR, GUILD, ALICE, name);
    assert_int_equal(store_sheet_update(s, &k, "{}", tag, "{}", NOW),
                     BOT_LIMIT);
}

/* Copies of what an export hands out. */
struct dump {
    struct store_sheet rows[8];
    size_t n;
};

static enum bot_err dump_sheet(void *ctx, const struct store_sheet *sh)
{
    struct dump *d = ctx;
    assert_true(d->n < 8);
    struct store_sheet *c = &d->rows[d->n++];
    *c = *sh;
    c->name = strdup(sh->name);
    c->system = strdup(sh->system);
    c->doc = strdup(sh->doc);
    c->undo_tag = sh->undo_tag ? strdup(sh->undo_tag) : NULL;
    c->undo_doc = sh->undo_doc ? strdup(sh->undo_doc) : NULL;
    return BOT_OK;
}


static void test_sheet_export_import(void **state)
{
    struct store *s = *state;
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, "Orc", "{\"o\":1}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_CHAR, GUILD, ALICE, "Aria", "{\"a\":2}"),
                     BOT_OK);
    struct store_sheet_key a = key(STORE_SHEET_CHAR, GUILD, ALICE, "Aria");
    assert_int_equal(store_sheet_update(s, &a, "{\"a\":3}", "f9", "{\"a\":2}",
                                        NOW + 9),
                     BOT_OK);
    assert_int_equal(store_sheet_use_set(s, GUILD, ALICE, "Aria"), BOT_OK);

    struct dump d = {0};
    const struct store_export_cb cb = {store_fx_skip_enc, store_fx_skip_ix,
                                       store_fx_skip_kv, dump_sheet};
    assert_int_equal(store_export(s, &cb, &d), BOT_OK);
    assert_int_equal(d.n, 2);
    assert_int_equal(d.rows[0].kind, STORE_SHEET_CHAR); /* characters first */
    assert_true(d.rows[0].used);
    assert_int_equal(d.rows[1].kind, STORE_SHEET_NPC);

    /* Importing over the same rows: the names are taken. */
    assert_int_equal(store_import_sheet(s, &d.rows[0]), BOT_CONFLICT);
    struct store_sheet_key o = key(STORE_SHEET_NPC, GUILD, 0, "Orc");
    assert_int_equal(store_sheet_delete(s, &a), BOT_OK);
    assert_int_equal(store_sheet_delete(s, &o), BOT_OK);
    for (size_t i = 0; i < d.n; i++)
        assert_int_equal(store_import_sheet(s, &d.rows[i]), BOT_OK);

    struct store_sheet got;
    assert_int_equal(store_sheet_get(s, &a, &got), BOT_OK);
    assert_string_equal(got.doc, "{\"a\":3}");
    assert_string_equal(got.undo_tag, "f9");
    assert_string_equal(got.undo_doc, "{\"a\":2}");
    assert_int_equal(got.created_ms, NOW);
    assert_int_equal(got.updated_ms, NOW + 9);
    assert_true(got.used);
    store_sheet_cleanup(&got);
    assert_int_equal(store_sheet_get(s, &o, &got), BOT_OK);
    assert_string_equal(got.doc, "{\"o\":1}");
    assert_false(got.used);
    store_sheet_cleanup(&got);
    for (size_t i = 0; i < d.n; i++)
        store_sheet_cleanup(&d.rows[i]);
}

/* A server's own condition (kind 3): owner 0, its names its own beside
 * the templates', counted apart. */
static void test_sheet_server_conditions(void **state)
{
    struct store *s = *state;
    int64_t n = -1;
    assert_int_equal(add(s, STORE_SHEET_COND, GUILD, 0, "Marked",
                         "{\"description\":\"\",\"rounds\":2}"), BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_COND, GUILD, 0, "MARKED", "{}"),
                     BOT_CONFLICT);
    assert_int_equal(add(s, STORE_SHEET_NPC, GUILD, 0, "Marked", "{}"),
                     BOT_OK);
    assert_int_equal(add(s, STORE_SHEET_COND, GUILD, ALICE, "Dazed", "{}"),
                     BOT_INVALID);
    struct store_sheet_key k = key(STORE_SHEET_COND, GUILD, 0, "marked");
    struct store_sheet got;
    assert_int_equal(store_sheet_get(s, &k, &got), BOT_OK);
    assert_string_equal(got.name, "Marked");
    assert_int_equal(got.kind, STORE_SHEET_COND);
    store_sheet_cleanup(&got);
    assert_int_equal(store_sheet_count(s, &k, &n), BOT_OK);
    assert_int_equal(n, 1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, open_store, close_store)
    const struct CMUnitTest tests[] = {
        T(test_sheet_round_trip),
        T(test_sheet_names_unique_case_ignored),
        T(test_sheet_other_players_out_of_reach),
        T(test_sheet_update_and_undo),
        T(test_sheet_count_and_list),
        T(test_sheet_used_character),
        T(test_sheet_limits),
        T(test_sheet_export_import),
        T(test_sheet_server_conditions),
    };
#undef T
    return STORE_FX_RUN(SUITE, tests);
}
