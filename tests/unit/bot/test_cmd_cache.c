/*
 * The command layer with an encounter cache: the same answers and the same
 * stored documents as without one, a write made behind the cache's back
 * (another process) is never lost (optimistic concurrency retry), and a
 * rolled-back group leaves no trace in the cache.
 */
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "enc_cache.h"
#include "enc_json.h"
#include "msg.h"
#include "eng_rng.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

enum { GM = 100, ALICE = 200 };
#define SEED 7

struct side {
    struct store *store;
    struct eng_rng rng;
    struct enc_cache *cache;
    struct cmd_ctx ctx;
    char text[16384];
    struct cmd_reply reply;
};

struct fix {
    struct side cached, plain;
};

/* A copy of channel's cached encounter, NULL when there is none. */
static struct encounter *copy(struct enc_cache *c, uint64_t channel,
                              int64_t now)
{
    struct encounter *e = NULL;
    assert_int_equal(enc_cache_copy(c, channel, now, &e), BOT_OK);
    return e;
}

static void side_open(struct side *s, bool with_cache)
{
    char err[128];
    assert_int_equal(store_open(":memory:", &s->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&s->rng, SEED);
    if (with_cache)
        assert_int_equal(enc_cache_new(0, 0, &s->cache), BOT_OK);
    s->ctx = (struct cmd_ctx){.store = s->store, .rng = &s->rng,
                              .cache = s->cache};
    cmd_reply_init(&s->reply);
}

static void side_close(struct side *s)
{
    cmd_reply_cleanup(&s->reply);
    enc_cache_free(s->cache);
    store_close(s->store);
}

static int setup(void **state)
{
    struct fix *f = calloc(1, sizeof *f);
    side_open(&f->cached, true);
    side_open(&f->plain, false);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fix *f = *state;
    side_close(&f->cached);
    side_close(&f->plain);
    free(f);
    return 0;
}

/* Run a command given as name/value pairs ending in NULL; the reply's text
 * goes to s->text. Returns true when it was accepted. */
static bool vrun(struct side *s, uint64_t user, const char *iid,
                 const char *command, const char *sub, va_list ap)
{
    struct cmd_req req = {
        .source = CMD_SRC_CONSOLE, .command = command, .sub = sub,
        .channel_id = 1, .user_id = user, .user_name = "tester",
        .expect_version = -1, .interaction_id = iid, .now_ms = 1000,
    };
    const char *name;
    while ((name = va_arg(ap, const char *)) != NULL) {
        req.opts[req.nopts].name = name;
        req.opts[req.nopts].value = va_arg(ap, const char *);
        req.nopts++;
    }
    cmd_reply_cleanup(&s->reply);
    assert_true(cmd_exec(&s->ctx, &req, &s->reply));
    struct sbuf b;
    sbuf_init(&b, sizeof s->text - 1);
    render_text(&s->reply.msg, NULL, &b);
    snprintf(s->text, sizeof s->text, "%s", sbuf_str(&b));
    sbuf_cleanup(&b);
    return !s->reply.is_error;
}

static bool run(struct side *s, uint64_t user, const char *command,
                const char *sub, ...)
{
    va_list ap;
    va_start(ap, sub);
    bool ok = vrun(s, user, NULL, command, sub, ap);
    va_end(ap);
    return ok;
}

/* The stored document of channel 1 ("" when none). Caller frees. */
static char *stored(struct store *st, int64_t *version)
{
    char *doc = NULL;
    *version = 0;
    if (store_enc_load(st, 1, &doc, version) != BOT_OK)
        return strdup("");
    return doc;
}

/* Run the same command on both sides; they must answer and store alike. */
static void both(struct fix *f, uint64_t user, const char *command,
                 const char *sub, ...)
{
    va_list ap, aq;
    va_start(ap, sub);
    va_copy(aq, ap);
    bool a = vrun(&f->cached, user, NULL, command, sub, ap);
    bool b = vrun(&f->plain, user, NULL, command, sub, aq);
    va_end(aq);
    va_end(ap);
    assert_int_equal(a, b);
    assert_string_equal(f->cached.text, f->plain.text);
    int64_t va, vb;
    char *da = stored(f->cached.store, &va), *db = stored(f->plain.store,
                                                          &vb);
    assert_int_equal(va, vb);
    assert_string_equal(da, db);
    free(da);
    free(db);
}

static void test_cmd_cache_same_as_uncached(void **state)
{
    struct fix *f = *state;
    both(f, GM, "combat", "start", "system", "generic", NULL);
    both(f, GM, "combat", "add", "name", "Orc", "count", "3", "hp", "9",
         "stats", "ac=12 init=1 attack=3", NULL);
    both(f, ALICE, "combat", "join", "name", "Aria", "hp", "20",
         "stats", "ac=15 init=3 attack=5", NULL);
    both(f, ALICE, "combat", "join", "name", "Aria", NULL);   /* refused */
    both(f, GM, "combat", "begin", NULL);
    for (int i = 0; i < 6; i++) {
        both(f, GM, "attack", NULL, "attacker", "Aria", "target", "Orc 1",
             "damage", "1d6", NULL);
        both(f, GM, "combat", "condition", "name", "Orc 2", "condition",
             "Dazed", "rounds", "1", NULL);
        both(f, ALICE, "combat", "hp", "name", "Orc 3", "change", "-1",
             NULL);                                           /* refused */
        both(f, GM, "combat", "status", NULL);
        both(f, GM, "combat", "next", NULL);
    }
    both(f, GM, "combat", "undo", NULL);
    both(f, GM, "combat", "undo", NULL);
    both(f, GM, "combat", "next", NULL);
    both(f, GM, "combat", "end", "confirm", "true", NULL);
    assert_int_equal(enc_cache_count(f->cached.cache), 0);
    both(f, ALICE, "combat", "start", "system", "generic", NULL);
    both(f, ALICE, "combat", "add", "name", "Rat", NULL);
    int64_t v;
    char *doc = stored(f->cached.store, &v);
    assert_int_equal(v, 2);
    free(doc);
    assert_int_equal(enc_cache_count(f->cached.cache), 1);
}

/* Another writer (as a second process would) saves a newer version through
 * the store while this process still has the older one cached. */
static void write_behind_back(struct store *st, const char *name)
{
    int64_t version;
    char *doc = stored(st, &version);
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    free(doc);
    struct enc_diag d;
    assert_int_equal(enc_add(e, name, 1, 0, -1, &d, NULL), ENG_OK);
    e->version = version + 1;
    doc = enc_json_dump(e);
    assert_int_equal(store_begin(st), BOT_OK);
    assert_int_equal(store_enc_save(st, 1, version + 1, doc), BOT_OK);
    assert_int_equal(store_commit(st), BOT_OK);
    free(doc);
    enc_free(e);
}

static void test_cmd_cache_conflict_retries_on_fresh_state(void **state)
{
    struct fix *f = *state;
    struct side *s = &f->cached;
    assert_true(run(s, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(s, GM, "combat", "add", "name", "Orc", NULL));
    assert_int_equal(enc_cache_count(s->cache), 1);
    write_behind_back(s->store, "Sneaky");
    /* The cache still says version 2; the save finds 3 live, rolls back and
     * runs again on the fresh state. */
    assert_true(run(s, GM, "combat", "add", "name", "Late", NULL));
    assert_int_equal(s->reply.version, 4);
    int64_t v;
    char *doc = stored(s->store, &v);
    assert_int_equal(v, 4);
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    free(doc);
    assert_non_null(enc_by_name(e, "Orc"));
    assert_non_null(enc_by_name(e, "Sneaky"));
    assert_non_null(enc_by_name(e, "Late"));
    enc_free(e);
    /* And the cache now holds that state. */
    struct encounter *c = copy(s->cache, 1, 0);
    assert_non_null(c);
    assert_int_equal(c->version, 4);
    assert_int_equal(c->ncs, 3);
    enc_free(c);
}

static void test_cmd_cache_replay_after_other_writer(void **state)
{
    struct fix *f = *state;
    struct side *s = &f->cached;
    assert_true(run(s, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(s, GM, "combat", "add", "name", "Orc", NULL));
    /* Another process applied interaction 555 (and so changed the fight). */
    write_behind_back(s->store, "Sneaky");
    assert_int_equal(store_interaction_record(s->store, "555", 1, 3, 0),
                     BOT_OK);
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "combat", .sub = "add",
        .channel_id = 1, .guild_id = 9000, .user_id = GM,
        .expect_version = -1,
        .interaction_id = "555",
    };
    req.opts[0] = (struct cmd_opt){"name", "Twice"};
    req.nopts = 1;
    cmd_reply_cleanup(&s->reply);
    assert_true(cmd_exec(&s->ctx, &req, &s->reply));
    assert_true(s->reply.duplicate);
    assert_string_equal(s->reply.msg.content, "That was already done.");
    int64_t v;
    free(stored(s->store, &v));
    assert_int_equal(v, 3);
}

static void test_cmd_cache_outer_rollback_forgotten(void **state)
{
    struct fix *f = *state;
    struct side *s = &f->cached;
    assert_true(run(s, GM, "combat", "start", "system", "generic", NULL));
    /* A group: the command commits its inner pair, the outer one is then
     * rolled back, and the group's owner clears the cache. */
    assert_int_equal(store_begin(s->store), BOT_OK);
    assert_true(run(s, GM, "combat", "add", "name", "Ghost", NULL));
    struct encounter *c = copy(s->cache, 1, 0);
    assert_non_null(c);
    assert_int_equal(c->ncs, 1);
    enc_free(c);
    store_rollback(s->store);
    enc_cache_clear(s->cache);
    assert_true(run(s, GM, "combat", "add", "name", "Orc", NULL));
    assert_int_equal(s->reply.version, 2);
    assert_true(run(s, GM, "combat", "status", NULL));
    if (strstr(s->text, "Ghost") != NULL)
        fail_msg("a rolled-back change came back:\n%s", s->text);
    if (strstr(s->text, "Orc") == NULL)
        fail_msg("the change after the rollback is missing:\n%s", s->text);
}

static void test_cmd_cache_failed_command_keeps_state(void **state)
{
    struct fix *f = *state;
    struct side *s = &f->cached;
    assert_true(run(s, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(s, GM, "combat", "add", "name", "Orc", "hp", "5", NULL));
    /* Refused half-way (no such target) and read-only: nothing moves. */
    assert_false(run(s, GM, "attack", NULL, "attacker", "Orc", "target",
                     "Nobody", NULL));
    assert_true(run(s, GM, "combat", "status", NULL));
    struct encounter *c = copy(s->cache, 1, 0);
    assert_non_null(c);
    assert_int_equal(c->version, 2);
    int64_t v;
    char *doc = stored(s->store, &v);
    char *mine = enc_json_dump(c);
    assert_string_equal(doc, mine);
    free(doc);
    free(mine);
    enc_free(c);
}

/* The choices autocomplete offers for target, joined with ','. */
static const char *complete_target(struct side *s)
{
    static char out[1024];
    struct cmd_req req = {
        .source = CMD_SRC_DISCORD, .command = "attack", .channel_id = 1,
        .guild_id = 5, .user_id = GM, .perms_known = true,
        .expect_version = -1, .opts = {{"target", ""}}, .nopts = 1,
        .now_ms = 2000,
    };
    struct msg m;
    msg_init(&m);
    assert_true(cmd_complete(&s->ctx, &req, "target", &m));
    out[0] = '\0';
    for (int i = 0; i < m.select.noptions; i++) {
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%s", i ? "," : "",
                 m.select.options[i].value);
    }
    msg_cleanup(&m);
    return out;
}

/* Autocomplete reads the cache: after a miss (a cold cache, after a
 * restart or an expiry) it keeps what it decoded, and the next keystroke
 * does not read the stored document at all, as a document made unreadable
 * behind its back shows. */
static void test_cmd_cache_autocomplete_uses_cache(void **state)
{
    struct fix *f = *state;
    struct side *s = &f->cached;
    int64_t v;
    assert_true(run(s, GM, "combat", "start", "system", "generic", NULL));
    assert_true(run(s, GM, "combat", "add", "name", "Orc", "count", "2",
                    NULL));
    enc_cache_clear(s->cache);
    assert_string_equal(complete_target(s), "Orc 1,Orc 2");
    assert_int_equal(enc_cache_count(s->cache), 1);
    free(stored(s->store, &v));
    assert_int_equal(store_enc_save(s->store, 1, v + 1, "not a fight"),
                     BOT_OK);
    assert_string_equal(complete_target(s), "Orc 1,Orc 2");
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_cmd_cache_same_as_uncached),
        T(test_cmd_cache_conflict_retries_on_fresh_state),
        T(test_cmd_cache_replay_after_other_writer),
        T(test_cmd_cache_outer_rollback_forgotten),
        T(test_cmd_cache_failed_command_keeps_state),
        T(test_cmd_cache_autocomplete_uses_cache),
    };
#undef T
    return cmocka_run_group_tests_name("cmd_cache", tests, NULL, NULL);
}
