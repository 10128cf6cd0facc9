/* test_cmd_oom.c - allocation and disk failure under whole commands.
 *
 * Engine allocations: this file defines eng_malloc(), eng_calloc(),
 * eng_realloc() and eng_free() itself, so the linker takes these instead of
 * libengine's eng_alloc.o (eng_alloc.h), and fails the Nth call after
 * arming. A scripted fight runs through cmd_exec() on a database file; each
 * command is tried with N = 1, 2, ... until a try meets no failure. At
 * every N: no crash, no leak (the ASan build's LeakSanitizer), a reply
 * that says the bot ran out of memory and nothing changed, the database
 * intact (store_integrity_check) and its document and version exactly as
 * before the try. Since a failed try changes nothing, the next N runs on
 * the same state.
 *
 * Disk: PRAGMA max_page_count stands in for a full disk under a command
 * whose save needs new pages: the user gets the "disk is full" error,
 * nothing changed, integrity ok; with room again the same command works. */
#include "support.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "eng_alloc.h"
#include "eng_rng.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"
#include "store_sqlite_schema.h"

#define CH UINT64_C(31)
#define NOW_MS INT64_C(1700000000000)
#define OOM_MAX_N 100000        /* a command needing more is a runaway */

enum { U_GM = 3001, U_P1 = 3002, U_P2 = 3003 };

/* The fault injector. Test-only global state: the engine's allocator takes
 * no context (eng_alloc.h). */
static struct {
    long calls;                 /* allocations since arming */
    long fail_at;               /* 0: never */
    bool failed;                /* the armed failure happened */
} fault;

static bool fault_hit(void)
{
    if (fault.fail_at && ++fault.calls == fault.fail_at) {
        fault.failed = true;
        return true;
    }
    return false;
}

void *eng_malloc(size_t n)
{
    return fault_hit() ? NULL : malloc(n ? n : 1);
}

void *eng_calloc(size_t count, size_t size)
{
    return fault_hit() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *eng_realloc(void *p, size_t n)
{
    return fault_hit() ? NULL : realloc(p, n ? n : 1);
}

void eng_free(void *p)
{
    free(p);
}

static void arm(long n)
{
    fault.calls = 0;
    fault.fail_at = n;
    fault.failed = false;
}

/* Stop failing; returns whether the armed failure happened. */
static bool disarm(void)
{
    bool failed = fault.failed;
    arm(0);
    return failed;
}

struct fix {
    char dir[64], path[96];
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
};

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    char err[128];
    assert_non_null(f);
    snprintf(f->dir, sizeof f->dir, "/tmp/fray-oom-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/oom.db", f->dir);
    assert_int_equal(store_open(f->path, &f->store, err, sizeof err), BOT_OK);
    eng_rng_seed(&f->rng, 5);
    f->ctx.store = f->store;
    f->ctx.rng = &f->rng;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    char cmd[128];
    arm(0);
    store_close(f->store);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", f->dir);
    free(f);
    return 0;
}

struct step {
    uint64_t user;
    const char *command, *sub;
    const char *opts[12];           /* name, value, ..., NULL */
};

/* Two fights (generic, then tactical in the same channel) that reach the
 * engine's parsers, dice, turns, conditions, effects, undo and the end. */
static const struct step script[] = {
    {U_GM, "roll", NULL, {"dice", "4d6kh3+2", NULL}},
    {U_GM, "combat", "start", {"system", "generic", "name", "Cellar", NULL}},
    {U_GM, "combat", "add", {"name", "Rat", "count", "3", "hp", "4",
                             "stats", "ac=8 init=1 attack=2", NULL}},
    {U_P1, "combat", "join", {"name", "Ann", "hp", "20", "stats",
                              "ac=12 init=40 attack=4", NULL}},
    {U_P2, "combat", "join", {"name", "Bob", "hp", "18", "stats",
                              "ac=11 init=2 attack=3", NULL}},
    {U_GM, "combat", "begin", {NULL}},
    {U_P1, "attack", NULL, {"attacker", "Ann", "target", "Rat 1", "damage",
                            "2d6+1", NULL}},
    {U_P1, "combat", "condition", {"name", "Ann", "condition", "Blessed",
                                   "rounds", "2", NULL}},
    {U_P1, "combat", "hp", {"name", "Ann", "change", "-3", NULL}},
    {U_P1, "combat", "next", {NULL}},
    {U_GM, "combat", "status", {NULL}},
    {U_GM, "combat", "undo", {NULL}},
    {U_GM, "combat", "set", {"name", "Rat 2", "note", "gnawing", NULL}},
    {U_GM, "combat", "end", {"confirm", "true", NULL}},
    {U_GM, "combat", "start", {"system", "tactical", "name", "Hangar", NULL}},
    {U_P1, "combat", "join", {"name", "Vex", "side", "crew", "hp", "20",
                              "stats", "init=3 stamina=3 av=4 endurance=2 "
                              "fortitude=1 dexterity=2", NULL}},
    {U_GM, "combat", "add", {"name", "Drone", "side", "drones", "hp", "12",
                             "stats", "init=1 av=21 endurance=1 fortitude=1 "
                             "mech=1", NULL}},
    {U_GM, "combat", "begin", {NULL}},
    {U_P1, "attack", NULL, {"attacker", "Vex", "target", "Drone", "damage",
                            "30", "options",
                            "effects=Knockdown(2),Shock(1)", NULL}},
    {U_GM, "effect", "trigger", {"name", "Drone", "effect", "Knockdown",
                                 NULL}},
    {U_P1, "combat", "next", {NULL}},
    {U_GM, "combat", "end", {"confirm", "true", NULL}},
};

static void make_req(struct cmd_req *req, const struct step *s)
{
    memset(req, 0, sizeof *req);
    req->source = CMD_SRC_DISCORD;
    req->command = s->command;
    req->sub = s->sub;
    for (int i = 0; s->opts[2 * i]; i++) {
        req->opts[i].name = s->opts[2 * i];
        req->opts[i].value = s->opts[2 * i + 1];
        req->nopts++;
    }
    req->channel_id = CH;
    req->guild_id = 88;
    req->user_id = s->user;
    req->user_name = "someone";
    req->perms_known = true;
    req->expect_version = -1;
    req->now_ms = NOW_MS;
}

static char *reply_text(const struct cmd_reply *r)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(&r->msg, NULL, &b);
    return sbuf_take(&b);
}

static void snapshot(struct fix *f, char **doc, int64_t *version)
{
    *doc = NULL;
    *version = 0;
    enum bot_err e = store_enc_load(f->store, CH, doc, version);
    assert_true(e == BOT_OK || e == BOT_NOTFOUND);
}

static void assert_intact(struct fix *f)
{
    bool ok = false;
    assert_int_equal(store_integrity_check(f->store, &ok), BOT_OK);
    assert_true(ok);
}

static bool same_state(const char *a, int64_t va, const char *b, int64_t vb)
{
    return va == vb && ((!a && !b) || (a && b && strcmp(a, b) == 0));
}

static void test_engine_oom_every_allocation(void **state)
{
    struct fix *f = *state;
    long points = 0, recovered = 0;

    for (size_t k = 0; k < sizeof script / sizeof script[0]; k++) {
        const struct step *s = &script[k];
        for (long n = 1;; n++) {
            struct cmd_req req;
            struct cmd_reply r;
            char *before, *after;
            int64_t v0, v1;
            bool built;

            assert_true(n < OOM_MAX_N);
            snapshot(f, &before, &v0);
            make_req(&req, s);
            cmd_reply_init(&r);
            arm(n);
            built = cmd_exec(&f->ctx, &req, &r);
            bool failed = disarm();
            snapshot(f, &after, &v1);
            assert_intact(f);
            char *text = built ? reply_text(&r) : NULL;
            if (!failed) {
                /* the whole command ran with no failure: done with it */
                if (built && r.is_error)
                    fail_msg("/%s %s failed with no fault: %s", s->command,
                             s->sub ? s->sub : "", text);
                free(before);
                free(after);
                free(text);
                cmd_reply_cleanup(&r);
                break;
            }
            points++;
            if (built && !r.is_error) {
                /* the engine coped (an allocation it can do without): the
                 * command took effect once; go on to the next one */
                recovered++;
                free(before);
                free(after);
                free(text);
                cmd_reply_cleanup(&r);
                break;
            }
            /* a command that saves must also say nothing changed */
            bool saves = strcmp(s->command, "roll") != 0 &&
                         !(s->sub && strcmp(s->sub, "status") == 0);
            if (built && (!text || !strstr(text, "out of memory") ||
                          (saves && !strstr(text, "nothing was changed"))))
                fail_msg("/%s %s, allocation %ld failed: reply \"%s\"",
                         s->command, s->sub ? s->sub : "", n,
                         text ? text : "");
            if (!same_state(before, v0, after, v1))
                fail_msg("/%s %s, allocation %ld failed: the stored state "
                         "changed (version %lld -> %lld)", s->command,
                         s->sub ? s->sub : "", n, (long long)v0,
                         (long long)v1);
            free(before);
            free(after);
            free(text);
            cmd_reply_cleanup(&r);
        }
    }
    print_message("engine OOM: %ld failure points over %zu commands "
                  "(%ld absorbed by the engine)\n",
                  points, sizeof script / sizeof script[0], recovered);
    assert_true(points > 0);
}

/* The database file is full: a command that must save gets the "disk is
 * full" reply and changes nothing; with room again it goes through. */
static void test_disk_full_through_cmd_exec(void **state)
{
    struct fix *f = *state;
    sqlite3 *db = store__db(f->store);
    sqlite3_stmt *st;
    struct cmd_req req;
    struct cmd_reply r;
    char *before, *after, *text, sql[80];
    int64_t v0, v1, pages;

    for (size_t k = 1; k < 6; k++) {            /* start .. begin */
        make_req(&req, &script[k]);
        cmd_reply_init(&r);
        assert_true(cmd_exec(&f->ctx, &req, &r));
        assert_false(r.is_error);
        cmd_reply_cleanup(&r);
    }
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st,
                                        NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    pages = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
             (long long)pages);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);

    /* more combatants until the document needs a page it cannot get */
    const struct step grow = {U_GM, "combat", "add",
                              {"name", "Mob", "count", "20", "hp", "1",
                               "stats", "ac=5 init=0 attack=0", NULL}};
    snapshot(f, &before, &v0);
    bool full = false;
    for (int i = 0; i < 64 && !full; i++) {
        make_req(&req, &grow);
        cmd_reply_init(&r);
        assert_true(cmd_exec(&f->ctx, &req, &r));
        text = reply_text(&r);
        if (r.is_error) {
            full = true;
            if (!strstr(text, "disk is full"))
                fail_msg("a full disk answered: %s", text);
            assert_true(r.ephemeral);
            assert_false(r.changed);
            snapshot(f, &after, &v1);
            assert_true(same_state(before, v0, after, v1));
            free(after);
        } else {
            free(before);
            snapshot(f, &before, &v0);    /* it fit: the new "before" */
        }
        free(text);
        cmd_reply_cleanup(&r);
        assert_intact(f);
    }
    assert_true(full);

    assert_int_equal(sqlite3_exec(db, "PRAGMA max_page_count = 1073741823",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    make_req(&req, &grow);
    cmd_reply_init(&r);
    assert_true(cmd_exec(&f->ctx, &req, &r));
    assert_false(r.is_error);
    cmd_reply_cleanup(&r);
    snapshot(f, &after, &v1);
    assert_int_equal(v1, v0 + 1);
    free(before);
    free(after);
    assert_intact(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_engine_oom_every_allocation,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full_through_cmd_exec,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
