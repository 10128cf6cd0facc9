/* Tests for the store API, the same cases for both backends: versions,
 * undo, archive, interactions, key/value, nested transactions, limits.
 * Built twice (tests/CMakeLists.txt): test_store on an in-memory SQLite
 * database, test_store_pg (FRAY_STORE_PG) on a throwaway PostgreSQL
 * cluster, each test on empty tables. SQLite's file-backed behaviour
 * (migrations, locking, crashes, full disk) is in test_store_file.c,
 * PostgreSQL's concurrency in test_store_pg_shared.c. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng_limits.h"
#include "store.h"
#include "store_fixture.h"

#define CH 1234567890123456789ull

#ifdef FRAY_STORE_PG
#include "pg_cluster.h"

#define SUITE "store_pg"
#define SHARED true

static const char *location(void)
{
    return pg_test_cluster()->conninfo;
}

/* Every test starts on empty tables, ids from 1. */
static int empty_tables(struct store *s)
{
    (void)s;
    char err[256];
    if (pg_cluster_exec(pg_test_cluster()->conninfo,
                        "TRUNCATE encounter, enc_version, enc_change,"
                        " interaction, kv RESTART IDENTITY",
                        err, sizeof err) != 0) {
        fprintf(stderr, "truncate: %s\n", err);
        return -1;
    }
    return 0;
}
#else
#define SUITE "store"
#define SHARED false

static const char *location(void)
{
    return ":memory:";
}

static int empty_tables(struct store *s)
{
    (void)s;
    return 0;
}
#endif

static int open_mem(void **state)
{
    struct store *s = NULL;
    char err[256];
    if (store_open(location(), &s, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "store_open: %s\n", err);
        return -1;
    }
    if (empty_tables(s) != 0) {
        store_close(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int close_mem(void **state)
{
    store_close(*state);
    return 0;
}

/* "doc <n>" into buf. */
static const char *doc_n(char *buf, size_t len, int64_t n)
{
    snprintf(buf, len, "{\"doc\":%lld}", (long long)n);
    return buf;
}

static void save_ok(struct store *s, uint64_t ch, int64_t v)
{
    char buf[64];
    assert_int_equal(store_enc_save(s, ch, v, doc_n(buf, sizeof buf, v)),
                     BOT_OK);
}

/* The live document is "doc <want_doc>" at version want_version. */
static void assert_live(struct store *s, uint64_t ch, int64_t want_version,
                        int64_t want_doc)
{
    char buf[64], *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, ch, &doc, &v), BOT_OK);
    assert_int_equal(v, want_version);
    assert_string_equal(doc, doc_n(buf, sizeof buf, want_doc));
    free(doc);
}

static enum bot_err count_versions(void *ctx, const struct store_enc_rec *r)
{
    *(int64_t *)ctx += (int64_t)r->nver;
    return BOT_OK;
}

/* Every document kept, live and archived (through store_export). */
static int64_t kept_versions(struct store *s)
{
    static const struct store_export_cb cb = {count_versions, store_fx_skip_ix,
                                              store_fx_skip_kv, NULL};
    int64_t n = 0;
    assert_int_equal(store_export(s, &cb, &n), BOT_OK);
    return n;
}

static void test_store_open_close(void **state)
{
    (void)state;
    struct store *s = (struct store *)1;
    char err[128];
    assert_int_equal(store_open(location(), &s, err, sizeof err), BOT_OK);
    assert_non_null(s);
    assert_non_null(store_errmsg(s));
    store_close(s);
    store_close(NULL);
    assert_int_equal(store_open("", &s, err, sizeof err), BOT_INVALID);
    assert_null(s);
    assert_true(strlen(err) > 0);
}

static void test_store_round_trip(void **state)
{
    struct store *s = *state;
    char *doc = (char *)"untouched";
    int64_t v = -7;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_NOTFOUND);
    assert_string_equal(doc, "untouched");
    assert_int_equal(v, -7);

    assert_int_equal(store_enc_save(s, CH, 1, "{\"name\":\"O'Brien; --\"}"),
                     BOT_OK);
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, 1);
    assert_string_equal(doc, "{\"name\":\"O'Brien; --\"}");
    free(doc);

    save_ok(s, CH, 2);
    assert_live(s, CH, 2, 2);
    /* The top bit of a snowflake survives the signed column. */
    save_ok(s, UINT64_MAX, 1);
    assert_live(s, UINT64_MAX, 1, 1);
    assert_live(s, CH, 2, 2);
}

static void test_store_version_conflict(void **state)
{
    struct store *s = *state;
    assert_int_equal(store_enc_save(s, CH, 2, "{}"), BOT_CONFLICT);
    assert_int_equal(store_enc_save(s, CH, 0, "{}"), BOT_CONFLICT);
    save_ok(s, CH, 1);
    assert_int_equal(store_enc_save(s, CH, 1, "{}"), BOT_CONFLICT);
    assert_non_null(strstr(store_errmsg(s), "expected 2"));
    assert_int_equal(store_enc_save(s, CH, 3, "{}"), BOT_CONFLICT);
    assert_live(s, CH, 1, 1);
    save_ok(s, CH, 2);
    assert_live(s, CH, 2, 2);
}

static void test_store_limits(void **state)
{
    struct store *s = *state;
    char *big = malloc(STORE_MAX_DOC + 2);
    assert_non_null(big);
    memset(big, 'x', STORE_MAX_DOC + 1);
    big[STORE_MAX_DOC + 1] = '\0';
    assert_int_equal(store_enc_save(s, CH, 1, big), BOT_LIMIT);
    assert_non_null(strstr(store_errmsg(s), "limit is"));
    big[STORE_MAX_DOC] = '\0';
    assert_int_equal(store_enc_save(s, CH, 1, big), BOT_OK);
    free(big);
    assert_int_equal(store_enc_save(s, CH, 2, NULL), BOT_INVALID);

    char key[STORE_MAX_KV_KEY + 2];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    assert_int_equal(store_kv_set(s, key, "v"), BOT_LIMIT);
    char *val = malloc(STORE_MAX_KV_VALUE + 2);
    assert_non_null(val);
    memset(val, 'v', STORE_MAX_KV_VALUE + 1);
    val[STORE_MAX_KV_VALUE + 1] = '\0';
    assert_int_equal(store_kv_set(s, "k", val), BOT_LIMIT);
    free(val);

    char id[STORE_MAX_INTERACTION_ID + 2];
    memset(id, '1', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    bool seen;
    assert_int_equal(store_interaction_seen(s, id, &seen), BOT_LIMIT);
    assert_int_equal(store_interaction_record(s, "", CH, 1, 0), BOT_INVALID);
}

/* 60 versions: 50 undos walk back through 59..10, the 51st finds nothing,
 * and at no time are more than ENC_UNDO_DEPTH + 1 versions kept. */
static void test_store_undo_depth(void **state)
{
    struct store *s = *state;
    for (int64_t v = 1; v <= 60; v++) {
        save_ok(s, CH, v);
        assert_true(kept_versions(s) <= ENC_UNDO_DEPTH + 1);
    }
    assert_int_equal(kept_versions(s), ENC_UNDO_DEPTH + 1);
    for (int k = 1; k <= ENC_UNDO_DEPTH; k++) {
        assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
        assert_live(s, CH, 60 + k, 60 - k);
        assert_int_equal(kept_versions(s), ENC_UNDO_DEPTH + 1 - k);
    }
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
    assert_int_equal(store_enc_save_undo(s, CH, 111, "{}"), BOT_NOTFOUND);
    assert_live(s, CH, 110, 10);

    /* A new command after the undos can itself be undone. */
    save_ok(s, CH, 111);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live(s, CH, 112, 10);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
}

/* Undo after undo keeps going back; a command after an undo starts a new
 * branch whose undo returns to the undone-to state, not to the undone one. */
static void test_store_undo_branch(void **state)
{
    struct store *s = *state;
    for (int64_t v = 1; v <= 5; v++)
        save_ok(s, CH, v);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK); /* v6 = doc 4 */
    assert_live(s, CH, 6, 4);
    save_ok(s, CH, 7);                          /* v7 = doc 7 */
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK); /* v8 = doc 4 */
    assert_live(s, CH, 8, 4);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK); /* v9 = doc 3 */
    assert_live(s, CH, 9, 3);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live(s, CH, 11, 1);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
    /* Stale versions conflict like plain saves. */
    assert_int_equal(store_enc_save_undo(s, CH, 5, "{}"), BOT_NOTFOUND);
    save_ok(s, CH, 12);
    assert_int_equal(store_enc_save_undo(s, CH, 12, "{}"), BOT_CONFLICT);
}

static void test_store_load_before(void **state)
{
    struct store *s = *state;
    char *doc = NULL;
    int64_t found = 0;
    assert_int_equal(store_enc_load_before(s, CH, 5, &doc, &found),
                     BOT_NOTFOUND);
    for (int64_t v = 1; v <= 3; v++)
        save_ok(s, CH, v);
    assert_int_equal(store_enc_load_before(s, CH, 3, &doc, &found), BOT_OK);
    assert_int_equal(found, 2);
    assert_string_equal(doc, "{\"doc\":2}");
    free(doc);
    assert_int_equal(store_enc_load_before(s, CH, 2, &doc, &found), BOT_OK);
    assert_int_equal(found, 1);
    free(doc);
    assert_int_equal(store_enc_load_before(s, CH, 1, &doc, &found),
                     BOT_NOTFOUND);
}

static void test_store_archive_then_new(void **state)
{
    struct store *s = *state;
    int64_t live = -1, archived = -1;
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_NOTFOUND);
    for (int64_t v = 1; v <= 3; v++)
        save_ok(s, CH, v);
    save_ok(s, CH + 1, 1);
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_NOTFOUND);
    assert_int_equal(store_enc_archive(s, CH, 1001), BOT_NOTFOUND);
    assert_int_equal(store_enc_count(s, &live, &archived), BOT_OK);
    assert_int_equal(live, 1);
    assert_int_equal(archived, 1);

    /* A new encounter starts at 1 and sees none of the old history. */
    assert_int_equal(store_enc_save(s, CH, 4, "{}"), BOT_CONFLICT);
    assert_int_equal(store_enc_save(s, CH, 1, "{\"new\":1}"), BOT_OK);
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, 1);
    assert_string_equal(doc, "{\"new\":1}");
    free(doc);
    /* The newest version below 5 is the new live one, not the old v3. */
    assert_int_equal(store_enc_load_before(s, CH, 5, &doc, &v), BOT_OK);
    assert_int_equal(v, 1);
    assert_string_equal(doc, "{\"new\":1}");
    free(doc);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
    save_ok(s, CH, 2);
    save_ok(s, CH, 3);
    assert_int_equal(store_enc_archive(s, CH, 2000), BOT_OK);
    /* Both archived histories are kept: 3 + 3, and channel CH + 1's one. */
    assert_int_equal(kept_versions(s), 7);
    assert_int_equal(store_enc_count(s, &live, &archived), BOT_OK);
    assert_int_equal(live, 1);
    assert_int_equal(archived, 2);
}

/* Reopening brings back the channel's latest ended encounter, with its
 * versions and undo chain, only when it ended at since or later and the
 * channel has no live one; an older archived one stays archived. */
static void test_store_reopen(void **state)
{
    struct store *s = *state;
    int64_t live = -1, archived = -1;
    assert_int_equal(store_enc_reopen(s, CH, 1500, 0), BOT_NOTFOUND);
    save_ok(s, CH, 1);
    save_ok(s, CH, 2);
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    save_ok(s, CH, 1);                   /* a second fight */
    /* not over a live encounter */
    assert_int_equal(store_enc_reopen(s, CH, 1500, 0), BOT_NOTFOUND);
    save_ok(s, CH, 2);
    save_ok(s, CH, 3);
    assert_int_equal(store_enc_archive(s, CH, 2000), BOT_OK);
    /* too long ago */
    assert_int_equal(store_enc_reopen(s, CH, 9000, 2001), BOT_NOTFOUND);
    assert_int_equal(store_enc_reopen(s, CH, 2500, 2000), BOT_OK);
    assert_live(s, CH, 3, 3);            /* the second fight, not the first */
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live(s, CH, 4, 2);
    assert_int_equal(store_enc_count(s, &live, &archived), BOT_OK);
    assert_int_equal(live, 1);
    assert_int_equal(archived, 1);
    /* ended again, the first fight is still not the one that comes back */
    assert_int_equal(store_enc_archive(s, CH, 3000), BOT_OK);
    assert_int_equal(store_enc_reopen(s, CH, 3100, 0), BOT_OK);
    assert_live(s, CH, 4, 2);
    /* a reopen rolled back leaves it archived */
    assert_int_equal(store_enc_archive(s, CH, 3200), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_reopen(s, CH, 3300, 0), BOT_OK);
    store_rollback(s);
    char *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_NOTFOUND);
}

/* The history lines a listing gave, as "v:text" joined by spaces. */
struct lines {
    char s[512];
};

static enum bot_err collect(void *ctx, const struct store_change_rec *r)
{
    struct lines *l = ctx;
    size_t n = strlen(l->s);
    snprintf(l->s + n, sizeof l->s - n, "%s%lld:%s%s", n ? " " : "",
             (long long)r->version, r->text, r->secret ? "!" : "");
    return BOT_OK;
}

static void history_is(struct store *s, int64_t after, bool newest,
                       size_t max, const char *want, size_t want_total)
{
    struct lines l = {""};
    size_t total = 0;
    assert_int_equal(store_change_list(s, CH, after, newest, max, &total,
                                       collect, &l), BOT_OK);
    assert_string_equal(l.s, want);
    assert_int_equal(total, want_total);
}

static void add_line(struct store *s, int64_t v, const char *text,
                     bool secret, enum bot_err want)
{
    struct store_change_rec r = {.version = v, .by = 7, .at_ms = 100 + v,
                                 .secret = secret, .text = text};
    assert_int_equal(store_change_add(s, CH, &r), want);
}

/* A fight's history: a line per version, listed newest or oldest first
 * from any point, kept through undo, gone from view with the archive and
 * back with the fight when it is reopened. */
static void test_store_history(void **state)
{
    struct store *s = *state;
    add_line(s, 1, "none yet", false, BOT_NOTFOUND);
    history_is(s, 0, true, 10, "", 0);
    save_ok(s, CH, 1);
    add_line(s, 1, "start", false, BOT_OK);
    save_ok(s, CH, 2);
    add_line(s, 2, "hidden one", true, BOT_OK);
    save_ok(s, CH, 3);
    add_line(s, 3, "hit", false, BOT_OK);
    add_line(s, 3, "twice", false, BOT_CONFLICT);
    history_is(s, 0, true, 10, "3:hit 2:hidden one! 1:start", 3);
    history_is(s, 0, true, 2, "3:hit 2:hidden one!", 3);
    history_is(s, 1, false, 1, "2:hidden one!", 2);
    /* an undo adds its line and takes none away */
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    add_line(s, 4, "undid hit", false, BOT_OK);
    history_is(s, 2, false, 10, "3:hit 4:undid hit", 2);
    /* archived: out of view; a new fight starts its own history */
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    history_is(s, 0, true, 10, "", 0);
    save_ok(s, CH, 1);
    add_line(s, 1, "second fight", false, BOT_OK);
    history_is(s, 0, true, 10, "1:second fight", 1);
    assert_int_equal(store_enc_archive(s, CH, 2000), BOT_OK);
    /* reopened, its own history is back */
    assert_int_equal(store_enc_reopen(s, CH, 2100, 0), BOT_OK);
    history_is(s, 0, true, 10, "1:second fight", 1);
    /* a line over the limit is refused whole */
    char *big = malloc(STORE_MAX_CHANGE_TEXT + 2);
    assert_non_null(big);
    memset(big, 'x', STORE_MAX_CHANGE_TEXT + 1);
    big[STORE_MAX_CHANGE_TEXT + 1] = '\0';
    add_line(s, 2, big, false, BOT_LIMIT);
    free(big);
}

/* What a line showed, as the listing gave it. */
struct shown {
    char detail[64], gm[64], name[64];
    int n;
};

static enum bot_err take_shown(void *ctx, const struct store_change_rec *r)
{
    struct shown *w = ctx;
    snprintf(w->detail, sizeof w->detail, "%s", r->detail);
    snprintf(w->gm, sizeof w->gm, "%s", r->gm_detail);
    snprintf(w->name, sizeof w->name, "%s", r->by_name);
    w->n++;
    return BOT_OK;
}

/* Schema 4: a line keeps what its change showed (everyone's text, the
 * GM's, the author's name) and gives "" for what it was not given; each
 * has its limit, refused whole. */
static void test_store_history_detail(void **state)
{
    struct store *s = *state;
    struct shown w = {0};
    save_ok(s, CH, 1);
    struct store_change_rec r = {.version = 1, .by = 7, .at_ms = 5,
                                 .text = "hit", .detail = "**A** hits ([7]+2)",
                                 .gm_detail = "**A** hits **Shade** ([7]+2)",
                                 .by_name = "Alice"};
    assert_int_equal(store_change_add(s, CH, &r), BOT_OK);
    save_ok(s, CH, 2);
    struct store_change_rec old = {.version = 2, .by = 7, .at_ms = 6,
                                   .text = "older"};
    assert_int_equal(store_change_add(s, CH, &old), BOT_OK);
    assert_int_equal(store_change_list(s, CH, 0, false, 1, NULL, take_shown,
                                       &w), BOT_OK);
    assert_int_equal(w.n, 1);
    assert_string_equal(w.detail, "**A** hits ([7]+2)");
    assert_string_equal(w.gm, "**A** hits **Shade** ([7]+2)");
    assert_string_equal(w.name, "Alice");
    assert_int_equal(store_change_list(s, CH, 1, false, 1, NULL, take_shown,
                                       &w), BOT_OK);
    assert_string_equal(w.detail, "");
    assert_string_equal(w.gm, "");
    assert_string_equal(w.name, "");
    /* over the limits */
    save_ok(s, CH, 3);
    char *big = malloc(STORE_MAX_CHANGE_DETAIL + 2);
    assert_non_null(big);
    memset(big, 'x', STORE_MAX_CHANGE_DETAIL + 1);
    big[STORE_MAX_CHANGE_DETAIL + 1] = '\0';
    struct store_change_rec over = {.version = 3, .by = 7, .at_ms = 7,
                                    .text = "x", .detail = big};
    assert_int_equal(store_change_add(s, CH, &over), BOT_LIMIT);
    over.detail = NULL;
    over.gm_detail = big;
    assert_int_equal(store_change_add(s, CH, &over), BOT_LIMIT);
    over.gm_detail = NULL;
    big[STORE_MAX_CHANGE_NAME + 1] = '\0';
    over.by_name = big;
    assert_int_equal(store_change_add(s, CH, &over), BOT_LIMIT);
    big[STORE_MAX_CHANGE_NAME] = '\0';
    assert_int_equal(store_change_add(s, CH, &over), BOT_OK);
    free(big);
}

/* The lines of the live fight: how many, their bytes, the oldest. */
struct hist_sum {
    int64_t lines, bytes;
    char oldest[STORE_MAX_CHANGE_TEXT + 1];
    int64_t oldest_version;
};

static enum bot_err sum_line(void *ctx, const struct store_change_rec *r)
{
    struct hist_sum *h = ctx;
    if (h->lines == 0) {
        snprintf(h->oldest, sizeof h->oldest, "%s", r->text);
        h->oldest_version = r->version;
    }
    h->lines++;
    h->bytes += (int64_t)(strlen(r->text) + strlen(r->detail) +
                          strlen(r->gm_detail) + strlen(r->by_name));
    return BOT_OK;
}

static struct hist_sum hist_of(struct store *s, uint64_t ch)
{
    struct hist_sum h = {0};
    assert_int_equal(store_change_list(s, ch, 0, false, SIZE_MAX, NULL,
                                       sum_line, &h), BOT_OK);
    return h;
}

/* Save version v of ch with a line of `detail` bytes of detail. */
static void change_n(struct store *s, uint64_t ch, int64_t v, size_t detail)
{
    static char big[STORE_MAX_CHANGE_DETAIL + 1];
    memset(big, 'd', detail);
    big[detail] = '\0';
    save_ok(s, ch, v);
    struct store_change_rec r = {.version = v, .by = 7, .at_ms = 1000 + v,
                                 .text = "Aria hits the ogre for 31",
                                 .detail = big, .by_name = "Aria"};
    assert_int_equal(store_change_add(s, ch, &r), BOT_OK);
}

/* Issue 33, finding 1: a running fight's history is bounded. 400
 * changes of 8 KB each would keep 3.2 MB; the fight keeps at most its
 * bound of bytes (1 MiB by default), the newest lines whole, and the
 * oldest folded into one line that says so. */
static void test_store_history_bounded(void **state)
{
    struct store *s = *state;
    assert_int_equal(store_begin(s), BOT_OK);
    for (int64_t v = 1; v <= 400; v++)
        change_n(s, CH, v, 8000);
    assert_int_equal(store_commit(s), BOT_OK);
    struct hist_sum h = hist_of(s, CH);
    assert_true(h.bytes <= STORE_HIST_FIGHT_BYTES);
    assert_true(h.lines <= STORE_HIST_FIGHT_LINES);
    assert_true(h.lines > 75);
    assert_non_null(strstr(h.oldest, "were folded into this summary"));
    /* the newest change is whole */
    history_is(s, 399, true, 1, "400:Aria hits the ogre for 31", 1);
}

/* What the fold says: the count the store keeps matches the lines, the
 * fold point is the summary's version, and a fold is reported once, by
 * the change that made it; lines bound first (short lines). */
static void test_store_history_fold_info(void **state)
{
    struct store *s = *state;
    struct store_hist_bounds b = {.fight_lines = STORE_HIST_MIN_LINES};
    store_hist_set_bounds(s, &b);
    struct store_fold f;
    struct store_hist_info info;
    int folds = 0;
    int64_t first_upto = 0;
    for (int64_t v = 1; v <= 3 * STORE_HIST_MIN_LINES; v++) {
        change_n(s, CH, v, 10);
        store_hist_last_fold(s, &f);
        if (f.why != STORE_FOLD_NONE) {
            assert_int_equal(f.why, STORE_FOLD_FIGHT);
            assert_true(f.this_fight);
            assert_int_equal(f.limit_lines, STORE_HIST_MIN_LINES);
            if (folds++ == 0)
                first_upto = f.upto;
        }
    }
    /* 100 lines at most, folded to 75: once at 101, then every 25 or so */
    assert_int_equal(first_upto, 27);
    assert_true(folds >= 5);
    assert_int_equal(store_hist_info(s, CH, &info), BOT_OK);
    struct hist_sum h = hist_of(s, CH);
    assert_int_equal(info.lines, h.lines);
    assert_int_equal(info.bytes, h.bytes);
    assert_int_equal(info.folded_to, h.oldest_version);
    assert_non_null(strstr(h.oldest, "100 changes of history"));
    assert_int_equal(store_hist_info(s, CH + 1, &info), BOT_NOTFOUND);
}

/* The server's bound: the fights of one server together keep at most
 * its bytes; past it, the one with the most history (here an ended one)
 * is folded, and a fight of another server is not touched. */
static void test_store_history_server_bound(void **state)
{
    struct store *s = *state;
    struct store_hist_bounds b = {.server_bytes = 3 * STORE_HIST_MIN_BYTES};
    store_hist_set_bounds(s, &b);
    const uint64_t big = CH + 1, other = CH + 2;
    /* an ended fight with 2 steps of history */
    for (int64_t v = 1; v <= 32; v++) {
        change_n(s, big, v, 4000);
        if (v == 1) {
            assert_int_equal(store_enc_set_guild(s, big, 9), BOT_OK);
        }
    }
    assert_int_equal(store_enc_archive(s, big, 500), BOT_OK);
    for (int64_t v = 1; v <= 40; v++) {
        change_n(s, other, v, 4000);
        if (v == 1) {
            assert_int_equal(store_enc_set_guild(s, other, 10), BOT_OK);
        }
    }
    struct store_fold f = {0};
    int64_t v = 0;
    while (f.why == STORE_FOLD_NONE && v < 200) {
        change_n(s, CH, ++v, 4000);
        if (v == 1) {
            assert_int_equal(store_enc_set_guild(s, CH, 9), BOT_OK);
        }
        store_hist_last_fold(s, &f);
    }
    assert_int_equal(f.why, STORE_FOLD_SERVER);
    assert_false(f.this_fight);
    assert_int_equal(f.limit, 3 * STORE_HIST_MIN_BYTES);
    /* the other server's fight keeps its 40 lines */
    assert_int_equal(hist_of(s, other).lines, 40);
    /* the live fight of server 9 goes on; the next folds take it */
    int server_folds = 0;
    for (int64_t i = 0; i < 200; i++) {
        change_n(s, CH, ++v, 4000);
        store_hist_last_fold(s, &f);
        if (f.why == STORE_FOLD_SERVER && f.this_fight)
            server_folds++;
    }
    assert_true(server_folds > 0);
    struct hist_sum h = hist_of(s, CH);
    assert_true(h.bytes <= 3 * STORE_HIST_MIN_BYTES + STORE_HIST_SERVER_STEP);
    assert_non_null(strstr(h.oldest, "this server's fights keep at most"));
}

/* The count a fight's history keeps is its lines' own, line after line,
 * through what may happen between two lines: a command's level rolled
 * back, a whole transaction rolled back, folds, and the fight's server
 * set after its first lines (the server's bound then holds it). */
static void count_matches(struct store *s, uint64_t ch)
{
    struct store_hist_info info;
    assert_int_equal(store_hist_info(s, ch, &info), BOT_OK);
    struct hist_sum h = hist_of(s, ch);
    assert_int_equal(info.lines, h.lines);
    assert_int_equal(info.bytes, h.bytes);
}

static void test_store_history_count_kept(void **state)
{
    struct store *s = *state;
    struct store_hist_bounds b = {.fight_lines = STORE_HIST_MIN_LINES,
                                  .server_bytes = 3 * STORE_HIST_MIN_BYTES};
    store_hist_set_bounds(s, &b);
    int64_t v = 0;
    assert_int_equal(store_begin(s), BOT_OK);
    change_n(s, CH, ++v, 10);
    change_n(s, CH, ++v, 10);
    assert_int_equal(store_begin(s), BOT_OK);
    change_n(s, CH, ++v, 500);
    store_rollback(s);
    v--;
    change_n(s, CH, ++v, 20);
    assert_int_equal(store_commit(s), BOT_OK);
    count_matches(s, CH);
    assert_int_equal(hist_of(s, CH).lines, 3);
    assert_int_equal(store_begin(s), BOT_OK);
    change_n(s, CH, ++v, 700);
    change_n(s, CH, ++v, 700);
    store_rollback(s);
    v -= 2;
    change_n(s, CH, ++v, 30);
    count_matches(s, CH);
    assert_int_equal(hist_of(s, CH).bytes,
                     4 * 29 + 10 + 10 + 20 + 30);
    /* lines only: folds keep the count right */
    int folds = 0;
    struct store_fold f;
    for (int i = 0; i < 3 * STORE_HIST_MIN_LINES; i++) {
        change_n(s, CH, ++v, 10);
        store_hist_last_fold(s, &f);
        folds += f.why == STORE_FOLD_FIGHT;
        count_matches(s, CH);
    }
    assert_true(folds >= 2);
    /* the server, set after the count was read: its bound applies (no
     * fight's bound in the way, whose fold would read the count again) */
    b.fight_lines = 0;
    store_hist_set_bounds(s, &b);
    const uint64_t ch2 = CH + 1;
    change_n(s, ch2, 1, 10);
    assert_int_equal(store_enc_set_guild(s, ch2, 9), BOT_OK);
    f.why = STORE_FOLD_NONE;
    for (v = 2; v < 100 && f.why == STORE_FOLD_NONE; v++) {
        change_n(s, ch2, v, 4000);
        store_hist_last_fold(s, &f);
    }
    assert_int_equal(f.why, STORE_FOLD_SERVER);
    count_matches(s, ch2);
}

/* store_enc_save_line is a save and its line: the versions, lines and
 * count of the two calls, inside a transaction or not; rolled back, a
 * refused save or a line of another version leave nothing. */
static void save_line(struct store *s, int64_t v, int64_t line_v,
                      enum bot_err want)
{
    char buf[64];
    struct store_change_rec r = {.version = line_v, .by = 7,
                                 .at_ms = 1000 + v,
                                 .text = "Aria hits the ogre for 31",
                                 .detail = "[5, 6] + 3", .by_name = "Aria"};
    assert_int_equal(store_enc_save_line(s, CH, v, doc_n(buf, sizeof buf, v),
                                         &r),
                     want);
}

static void test_store_save_line(void **state)
{
    struct store *s = *state;
    save_line(s, 1, 1, BOT_OK);
    for (int64_t v = 2; v <= 6; v++) {
        assert_int_equal(store_begin(s), BOT_OK);
        save_line(s, v, v, BOT_OK);
        assert_int_equal(store_commit(s), BOT_OK);
        count_matches(s, CH);
    }
    assert_live(s, CH, 6, 6);
    history_is(s, 4, false, 2,
               "5:Aria hits the ogre for 31 6:Aria hits the ogre for 31", 2);
    assert_int_equal(store_begin(s), BOT_OK);
    save_line(s, 7, 7, BOT_OK);
    store_rollback(s);
    assert_live(s, CH, 6, 6);
    count_matches(s, CH);
    save_line(s, 7, 8, BOT_INVALID);
    assert_int_equal(store_begin(s), BOT_OK);
    save_line(s, 6, 6, BOT_CONFLICT);
    store_rollback(s);
    assert_live(s, CH, 6, 6);
    count_matches(s, CH);
    assert_int_equal(store_begin(s), BOT_OK);
    save_line(s, 7, 7, BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_live(s, CH, 7, 7);
    count_matches(s, CH);
    assert_int_equal(hist_of(s, CH).lines, 7);
}

/* The interaction and the change it caused commit or roll back together. */
static void test_store_interaction_with_save(void **state)
{
    struct store *s = *state;
    bool seen = true;
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_interaction_seen(s, "111", &seen), BOT_OK);
    assert_false(seen);
    save_ok(s, CH, 1);
    assert_int_equal(store_interaction_record(s, "111", CH, 1, 5000), BOT_OK);
    assert_int_equal(store_interaction_seen(s, "111", &seen), BOT_OK);
    assert_true(seen);
    store_rollback(s);
    assert_int_equal(store_interaction_seen(s, "111", &seen), BOT_OK);
    assert_false(seen);
    char *doc = NULL;
    int64_t v;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_NOTFOUND);

    assert_int_equal(store_begin(s), BOT_OK);
    save_ok(s, CH, 1);
    assert_int_equal(store_interaction_record(s, "111", CH, 1, 5000), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_interaction_seen(s, "111", &seen), BOT_OK);
    assert_true(seen);
    assert_live(s, CH, 1, 1);
    assert_int_equal(store_interaction_record(s, "111", CH, 2, 6000),
                     BOT_CONFLICT);
    store_rollback(s); /* none open: a no-op */
    assert_int_equal(store_commit(s), BOT_INVALID);
}

static void test_store_interaction_prune(void **state)
{
    struct store *s = *state;
    bool seen;
    int64_t n = -1;
    assert_int_equal(store_interaction_record(s, "1", CH, 1, 1000), BOT_OK);
    assert_int_equal(store_interaction_record(s, "0", CH, 1, 1100), BOT_OK);
    assert_int_equal(store_interaction_record(s, "2", CH, 2, 2000), BOT_OK);
    /* bounded: the oldest first, one at a time */
    assert_int_equal(store_interaction_prune(s, 1500, 1, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(store_interaction_seen(s, "1", &seen), BOT_OK);
    assert_false(seen);
    assert_int_equal(store_interaction_seen(s, "0", &seen), BOT_OK);
    assert_true(seen);
    assert_int_equal(store_interaction_prune(s, 1500, 10, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(store_interaction_seen(s, "0", &seen), BOT_OK);
    assert_false(seen);
    assert_int_equal(store_interaction_seen(s, "2", &seen), BOT_OK);
    assert_true(seen);
    assert_int_equal(store_interaction_prune(s, 1500, 10, &n), BOT_OK);
    assert_int_equal(n, 0);
    assert_int_equal(store_interaction_prune(s, 1500, 0, &n), BOT_LIMIT);
    assert_int_equal(
        store_interaction_prune(s, 1500, STORE_PRUNE_BATCH_MAX + 1, &n),
        BOT_LIMIT);
}

static void test_store_kv(void **state)
{
    struct store *s = *state;
    char *v = (char *)"untouched";
    assert_int_equal(store_kv_get(s, "session", &v), BOT_NOTFOUND);
    assert_string_equal(v, "untouched");
    assert_int_equal(store_kv_set(s, "session", "abc"), BOT_OK);
    assert_int_equal(store_kv_get(s, "session", &v), BOT_OK);
    assert_string_equal(v, "abc");
    free(v);
    assert_int_equal(store_kv_set(s, "session", ""), BOT_OK);
    assert_int_equal(store_kv_get(s, "session", &v), BOT_OK);
    assert_string_equal(v, "");
    free(v);
    assert_int_equal(store_kv_delete(s, "session"), BOT_OK);
    assert_int_equal(store_kv_delete(s, "session"), BOT_OK);
    assert_int_equal(store_kv_get(s, "session", &v), BOT_NOTFOUND);
}

struct kv_seen {
    char keys[8][16];
    int n;
};

static enum bot_err kv_seen_each(void *ctx, const char *key,
                                 const char *value)
{
    struct kv_seen *k = ctx;
    (void)value;
    assert_true(k->n < 8);
    snprintf(k->keys[k->n++], sizeof k->keys[0], "%s", key);
    return BOT_OK;
}

/* A scan by prefix finds exactly the keys that start with it, in order:
 * not the key one byte past its end (';' follows ':'), nor a shorter one. */
static void test_store_kv_scan(void **state)
{
    struct store *s = *state;
    static const char *const keys[] = {"b", "a;", "a:2", "a", "a:1", "a:~"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(store_kv_set(s, keys[i], "v"), BOT_OK);
    struct kv_seen k = {.n = 0};
    assert_int_equal(store_kv_scan(s, "a:", kv_seen_each, &k), BOT_OK);
    assert_int_equal(k.n, 3);
    assert_string_equal(k.keys[0], "a:1");
    assert_string_equal(k.keys[1], "a:2");
    assert_string_equal(k.keys[2], "a:~");
    k.n = 0;
    assert_int_equal(store_kv_scan(s, "a", kv_seen_each, &k), BOT_OK);
    assert_int_equal(k.n, 5);
    assert_string_equal(k.keys[0], "a");
    assert_string_equal(k.keys[4], "a;");
    k.n = 0;
    assert_int_equal(store_kv_scan(s, "", kv_seen_each, &k), BOT_OK);
    assert_true(k.n >= 6);            /* every key, the store's own too */
    k.n = 0;
    assert_int_equal(store_kv_scan(s, "c", kv_seen_each, &k), BOT_OK);
    assert_int_equal(k.n, 0);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(store_kv_delete(s, keys[i]), BOT_OK);
}

/* The last key of a prefix is read without its value, and a range below
 * a bound is deleted: only keys of that prefix, never one past its end
 * (';' follows ':') or a shorter one; a bound outside the prefix is
 * refused. */
static void test_store_kv_last_and_below(void **state)
{
    struct store *s = *state;
    static const char *const keys[] = {"b", "a;", "a:2", "a", "a:1", "a:3"};
    char last[STORE_MAX_KV_KEY + 1];
    assert_int_equal(store_kv_last(s, "a:", last), BOT_NOTFOUND);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(store_kv_set(s, keys[i], "v"), BOT_OK);
    assert_int_equal(store_kv_last(s, "a:", last), BOT_OK);
    assert_string_equal(last, "a:3");
    assert_int_equal(store_kv_last(s, "a", last), BOT_OK);
    assert_string_equal(last, "a;");
    assert_int_equal(store_kv_last(s, "c", last), BOT_NOTFOUND);
    assert_int_equal(store_kv_delete_below(s, "a:", "b"), BOT_INVALID);
    assert_int_equal(store_kv_delete_below(s, "a:", "a:3"), BOT_OK);
    struct kv_seen k = {.n = 0};
    assert_int_equal(store_kv_scan(s, "a", kv_seen_each, &k), BOT_OK);
    assert_int_equal(k.n, 3);
    assert_string_equal(k.keys[0], "a");
    assert_string_equal(k.keys[1], "a:3");
    assert_string_equal(k.keys[2], "a;");
    assert_int_equal(store_kv_last(s, "a:", last), BOT_OK);
    assert_string_equal(last, "a:3");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_int_equal(store_kv_delete(s, keys[i]), BOT_OK);
}

/* store_kv_get_short: both keys in one call, each found or not (an absent
 * one is no error), a NULL key not looked up, a value too long for the
 * buffer found but left "", more keys than it reads refused. */
static void test_store_kv_get_short(void **state)
{
    struct store *s = *state;
    char longv[STORE_KV_SHORT + 1];
    memset(longv, 'x', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    struct store_kv_short kv[STORE_KV_SHORT_MAX + 1] = {{.key = "short:a"},
                                                        {.key = "short:b"}};
    assert_int_equal(store_kv_get_short(s, kv, 2), BOT_OK);
    assert_false(kv[0].found);
    assert_false(kv[1].found);
    assert_int_equal(store_kv_set(s, "short:b", "roll20"), BOT_OK);
    assert_int_equal(store_kv_get_short(s, kv, 2), BOT_OK);
    assert_false(kv[0].found);
    assert_true(kv[1].found);
    assert_string_equal(kv[1].value, "roll20");
    assert_int_equal(store_kv_set(s, "short:a", "avrae"), BOT_OK);
    kv[1].key = NULL;
    assert_int_equal(store_kv_get_short(s, kv, 2), BOT_OK);
    assert_true(kv[0].found);
    assert_string_equal(kv[0].value, "avrae");
    assert_false(kv[1].found);
    assert_string_equal(kv[1].value, "");
    assert_int_equal(store_kv_set(s, "short:a", longv), BOT_OK);
    assert_int_equal(store_kv_get_short(s, kv, 1), BOT_OK);
    assert_true(kv[0].found);
    assert_string_equal(kv[0].value, "");
    assert_int_equal(store_kv_get_short(s, kv, STORE_KV_SHORT_MAX + 1),
                     BOT_LIMIT);
    /* three keys (a roll's two dice settings and the server's language):
     * each value lands in its own slot, whichever are present */
    struct store_kv_short three[3] = {{.key = "short:a"}, {.key = "short:b"},
                                      {.key = "short:c"}};
    assert_int_equal(store_kv_set(s, "short:a", "sidekick"), BOT_OK);
    assert_int_equal(store_kv_set(s, "short:c", "pl"), BOT_OK);
    assert_int_equal(store_kv_get_short(s, three, 3), BOT_OK);
    assert_true(three[0].found);
    assert_string_equal(three[0].value, "sidekick");
    assert_true(three[1].found);
    assert_string_equal(three[1].value, "roll20");
    assert_true(three[2].found);
    assert_string_equal(three[2].value, "pl");
    assert_int_equal(store_kv_delete(s, "short:b"), BOT_OK);
    three[0].key = NULL;
    assert_int_equal(store_kv_get_short(s, three, 3), BOT_OK);
    assert_false(three[0].found);
    assert_false(three[1].found);
    assert_true(three[2].found);
    assert_string_equal(three[2].value, "pl");
    assert_int_equal(store_kv_delete(s, "short:a"), BOT_OK);
    assert_int_equal(store_kv_delete(s, "short:c"), BOT_OK);
}

static enum bot_err unsynced_write(struct store *s, void *ctx)
{
    enum bot_err e = store_kv_set(s, "unsynced", "kept");
    return e != BOT_OK ? e : *(enum bot_err *)ctx;
}

/* store_run_unsynced: fn's writes are committed together, or, when fn
 * fails, none of them; inside a transaction it refuses (SQLite: the flush
 * cannot change there). */
static void test_store_run_unsynced(void **state)
{
    struct store *s = *state;
    enum bot_err fail = BOT_INVALID, ok = BOT_OK;
    char *v = NULL;
    assert_int_equal(store_run_unsynced(s, unsynced_write, &fail),
                     BOT_INVALID);
    assert_int_equal(store_kv_get(s, "unsynced", &v), BOT_NOTFOUND);
    assert_int_equal(store_run_unsynced(s, unsynced_write, &ok), BOT_OK);
    assert_int_equal(store_kv_get(s, "unsynced", &v), BOT_OK);
    assert_string_equal(v, "kept");
    free(v);
    assert_int_equal(store_kv_delete(s, "unsynced"), BOT_OK);
}

/* Group commit: inner pairs are savepoints inside one outer transaction. */
static void test_store_nested_transactions(void **state)
{
    struct store *s = *state;
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    save_ok(s, CH, 1);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    save_ok(s, CH + 1, 1);
    store_rollback(s);
    assert_int_equal(store_begin(s), BOT_OK);
    save_ok(s, CH + 2, 1);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_live(s, CH, 1, 1);
    assert_live(s, CH + 2, 1, 1);
    char *doc = NULL;
    int64_t v;
    assert_int_equal(store_enc_load(s, CH + 1, &doc, &v), BOT_NOTFOUND);

    /* Rolling back the outer pair drops committed inner pairs too. */
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    save_ok(s, CH, 2);
    assert_int_equal(store_commit(s), BOT_OK);
    store_rollback(s);
    assert_live(s, CH, 1, 1);
}

static void test_store_enc_list(void **state)
{
    struct store *s = *state;
    uint64_t ch[4];
    size_t n = 99;
    assert_int_equal(store_enc_list(s, ch, 4, &n), BOT_OK);
    assert_int_equal(n, 0);
    save_ok(s, 30, 1);
    save_ok(s, 10, 1);
    save_ok(s, 20, 1);
    save_ok(s, 40, 1);
    assert_int_equal(store_enc_archive(s, 40, 1), BOT_OK);
    assert_int_equal(store_enc_list(s, ch, 4, &n), BOT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(ch[0], 10);
    assert_int_equal(ch[1], 20);
    assert_int_equal(ch[2], 30);
    assert_int_equal(store_enc_list(s, ch, 2, &n), BOT_LIMIT);
    assert_int_equal(n, 2);
}

static void test_store_integrity_memory(void **state)
{
    struct store *s = *state;
    bool ok = false;
    save_ok(s, CH, 1);
    assert_int_equal(store_integrity_check(s, &ok), BOT_OK);
    assert_true(ok);
}

/* The version alone follows saves, undo and archive; a SQLite store is
 * never shared, a PostgreSQL one always. */
static void test_store_enc_version(void **state)
{
    struct store *s = *state;
    int64_t v = -1;
    assert_int_equal(store_enc_version(s, CH, &v), BOT_NOTFOUND);
    save_ok(s, CH, 1);
    save_ok(s, CH, 2);
    assert_int_equal(store_enc_version(s, CH, &v), BOT_OK);
    assert_int_equal(v, 2);
    assert_int_equal(store_enc_archive(s, CH, 5), BOT_OK);
    assert_int_equal(store_enc_version(s, CH, &v), BOT_NOTFOUND);
    assert_int_equal(store_shared(s), SHARED);
}

/* ---- retention and quotas ------------------------------------------------ */

#define DAY_MS (24 * 60 * 60 * 1000ll)
#define NOW_MS (100 * DAY_MS)
#define REOPEN_MS (60 * 60 * 1000ll)
#define GUILD 42ull

/* A fight in channel ch of guild with versions 1..nver (each document
 * padded to about pad bytes) and a history line per version; archived at
 * ended_ms unless that is 0. */
static void fight(struct store *s, uint64_t ch, uint64_t guild, int nver,
                  size_t pad, int64_t ended_ms)
{
    char *doc = malloc(pad + 64);
    assert_non_null(doc);
    assert_int_equal(store_begin(s), BOT_OK);
    for (int v = 1; v <= nver; v++) {
        int n = snprintf(doc, 64, "{\"doc\":%d,\"pad\":\"", v);
        memset(doc + n, 'x', pad);
        memcpy(doc + n + pad, "\"}", 3);
        assert_int_equal(store_enc_save(s, ch, v, doc), BOT_OK);
        struct store_change_rec r = {.version = v, .by = 7, .at_ms = v,
                                     .text = "hit the goblin for 4"};
        assert_int_equal(store_change_add(s, ch, &r), BOT_OK);
        if (v == 1 && guild != 0)
            assert_int_equal(store_enc_set_guild(s, ch, guild), BOT_OK);
    }
    if (ended_ms != 0)
        assert_int_equal(store_enc_archive(s, ch, ended_ms), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);
    free(doc);
}

static enum bot_err count_lines(void *ctx, const struct store_change_rec *r)
{
    (void)r;
    ++*(size_t *)ctx;
    return BOT_OK;
}

/* Prune in batches of `batch` until nothing is left; the passes taken. */
static int prune_all(struct store *s, const struct store_prune_cfg *cfg,
                     struct store_prune_stats *st)
{
    int passes = 0;
    do {
        assert_int_equal(store_enc_prune(s, cfg, st), BOT_OK);
        passes++;
        assert_true(passes < 100);
    } while (st->more);
    return passes;
}

/* 300 archived fights of 50 versions each, past retention, keep only
 * their final version and the database shrinks; a live fight and one that
 * ended within the reopen window keep everything. */
static void test_store_prune_retention(void **state)
{
    struct store *s = *state;
    enum { NFIGHTS = 300, NVER = ENC_UNDO_DEPTH };
    for (int k = 0; k < NFIGHTS; k++)
        fight(s, 1000 + (uint64_t)k, GUILD, NVER, 400, DAY_MS + k);
    fight(s, 1, GUILD, 10, 400, 0);                          /* live */
    fight(s, 2, GUILD, 10, 400, NOW_MS - REOPEN_MS / 2);     /* reopenable */
    int64_t before = 0, after = 0, live = 0, archived = 0;
    assert_int_equal(store_size(s, &before), BOT_OK);
    assert_int_equal(kept_versions(s), NFIGHTS * NVER + 20);

    struct store_prune_cfg cfg = {
        .trim_before_ms = NOW_MS - 30 * DAY_MS,
        .keep_after_ms = NOW_MS - REOPEN_MS,
        .batch = 100,
    };
    struct store_prune_stats st = {0};
    assert_int_equal(prune_all(s, &cfg, &st), 4); /* 3 full batches */
    assert_int_equal(st.trimmed, NFIGHTS);
    assert_int_equal(st.deleted, 0);
    assert_int_equal(st.versions, NFIGHTS * (NVER - 1));
    assert_int_equal(st.changes, NFIGHTS * NVER);
    assert_int_equal(kept_versions(s), NFIGHTS + 20);
    assert_int_equal(store_size(s, &after), BOT_OK);
    print_message("database: %lld bytes before, %lld after pruning\n",
                  (long long)before, (long long)after);
#ifndef FRAY_STORE_PG
    /* PostgreSQL keeps its files until VACUUM FULL (store_pg_prune.c). */
    assert_true(after < before / 4);
#endif

    /* Again: nothing left to do. */
    memset(&st, 0, sizeof st);
    assert_int_equal(prune_all(s, &cfg, &st), 1);
    assert_int_equal(st.trimmed + st.deleted + st.versions + st.changes, 0);

    /* The live fight and the reopenable one are whole. */
    char *doc = NULL;
    int64_t v = 0;
    size_t lines = 0;
    assert_int_equal(store_enc_load_before(s, 1, 10, &doc, &v), BOT_OK);
    assert_int_equal(v, 9);
    free(doc);
    assert_int_equal(store_enc_reopen(s, 2, NOW_MS, NOW_MS - REOPEN_MS),
                     BOT_OK);
    assert_int_equal(store_enc_load_before(s, 2, 10, &doc, &v), BOT_OK);
    free(doc);
    assert_int_equal(store_change_list(s, 2, 0, true, 100, NULL, count_lines,
                                       &lines),
                     BOT_OK);
    assert_int_equal(lines, 10);
    /* A trimmed one comes back (asked for explicitly) in its final state,
     * with nothing to undo and no history. */
    assert_int_equal(store_enc_reopen(s, 1000, NOW_MS, 0), BOT_OK);
    assert_int_equal(store_enc_load(s, 1000, &doc, &v), BOT_OK);
    assert_int_equal(v, NVER);
    free(doc);
    assert_int_equal(store_enc_load_before(s, 1000, NVER, &doc, &v),
                     BOT_NOTFOUND);
    lines = 0;
    assert_int_equal(store_change_list(s, 1000, 0, true, 100, NULL,
                                       count_lines, &lines),
                     BOT_OK);
    assert_int_equal(lines, 0);
    assert_int_equal(store_guild_count(s, GUILD, &live, &archived), BOT_OK);
    assert_int_equal(live, 3);
    assert_int_equal(archived, NFIGHTS - 1);
    bool ok = false;
    assert_int_equal(store_integrity_check(s, &ok), BOT_OK);
    assert_true(ok);
}

/* keep_history: the versions go, the history lines stay. */
static void test_store_prune_keep_history(void **state)
{
    struct store *s = *state;
    fight(s, 10, GUILD, 5, 10, DAY_MS);
    struct store_prune_cfg cfg = {
        .trim_before_ms = NOW_MS - 30 * DAY_MS,
        .keep_after_ms = NOW_MS - REOPEN_MS,
        .keep_history = true,
        .batch = STORE_PRUNE_BATCH_MAX,
    };
    struct store_prune_stats st = {0};
    assert_int_equal(prune_all(s, &cfg, &st), 1);
    assert_int_equal(st.trimmed, 1);
    assert_int_equal(st.versions, 4);
    assert_int_equal(st.changes, 0);
    memset(&st, 0, sizeof st);
    assert_int_equal(prune_all(s, &cfg, &st), 1); /* nothing left */
    assert_int_equal(st.trimmed, 0);
    size_t lines = 0;
    assert_int_equal(store_enc_reopen(s, 10, NOW_MS, 0), BOT_OK);
    assert_int_equal(store_change_list(s, 10, 0, true, 100, NULL,
                                       count_lines, &lines),
                     BOT_OK);
    assert_int_equal(lines, 5);
    int64_t v = 0;
    assert_int_equal(store_enc_version(s, 10, &v), BOT_OK);
    assert_int_equal(v, 5);
}

/* The archive quota: a server's oldest archived fights beyond the quota
 * go whole; other servers, unknown servers, live fights and fights in the
 * reopen window stay. */
static void test_store_prune_quota(void **state)
{
    struct store *s = *state;
    for (int k = 0; k < 10; k++)
        fight(s, 100 + (uint64_t)k, GUILD, 3, 10, NOW_MS - 10 * DAY_MS + k);
    fight(s, 200, GUILD, 3, 10, NOW_MS - 60 * 1000); /* reopenable */
    fight(s, 201, GUILD, 3, 10, 0);                  /* live */
    for (int k = 0; k < 3; k++)
        fight(s, 300 + (uint64_t)k, GUILD + 1, 3, 10, NOW_MS - 9 * DAY_MS);
    for (int k = 0; k < 2; k++)
        fight(s, 400 + (uint64_t)k, 0, 3, 10, NOW_MS - 9 * DAY_MS);
    int64_t live = 0, archived = 0;
    assert_int_equal(store_guild_count(s, GUILD, &live, &archived), BOT_OK);
    assert_int_equal(live, 1);
    assert_int_equal(archived, 11);

    struct store_prune_cfg cfg = {
        .trim_before_ms = NOW_MS - 30 * DAY_MS, /* no retention yet */
        .keep_after_ms = NOW_MS - REOPEN_MS,
        .max_archived = 4,
        .batch = 5,
    };
    struct store_prune_stats st = {0};
    assert_int_equal(prune_all(s, &cfg, &st), 2);
    assert_int_equal(st.deleted, 7);
    assert_int_equal(st.trimmed, 0);
    assert_int_equal(st.versions, 7 * 3);
    assert_int_equal(st.changes, 7 * 3);
    assert_int_equal(store_guild_count(s, GUILD, &live, &archived), BOT_OK);
    assert_int_equal(live, 1);
    assert_int_equal(archived, 4);
    assert_int_equal(store_guild_count(s, GUILD + 1, &live, &archived),
                     BOT_OK);
    assert_int_equal(archived, 3);
    assert_int_equal(store_enc_count(s, &live, &archived), BOT_OK);
    assert_int_equal(archived, 4 + 3 + 2);
    /* The oldest went: 100..106 (the recent 200 counts among the 4). */
    assert_int_equal(store_enc_reopen(s, 106, NOW_MS, 0), BOT_NOTFOUND);
    assert_int_equal(store_enc_reopen(s, 107, NOW_MS, 0), BOT_OK);
    assert_int_equal(store_enc_set_guild(s, 999, GUILD), BOT_NOTFOUND);
    assert_int_equal(store_enc_prune(s, &(struct store_prune_cfg){.batch = 0},
                                     &st),
                     BOT_LIMIT);
}

/* Roll records by interaction: found by id from their own channel only;
 * age drops a range of the lowest ids, the count the lowest ids past it,
 * a batch at most; a record written again replaces its row. */
static void test_store_rollrec(void **state)
{
    struct store *s = *state;
    char *v = NULL;
    int64_t n = -1;
    assert_int_equal(store_rollrec_get(s, 5, 1, &v), BOT_NOTFOUND);
    assert_int_equal(store_rollrec_put(s, 0, 1, "x"), BOT_INVALID);
    for (int64_t id = 1; id <= 10; id++) {
        char val[16];
        snprintf(val, sizeof val, "r%lld", (long long)id);
        assert_int_equal(store_rollrec_put(s, id * 1000, (uint64_t)(id % 3),
                                           val), BOT_OK);
    }
    assert_int_equal(store_rollrec_get(s, 5000, 2, &v), BOT_OK);
    assert_string_equal(v, "r5");
    free(v);
    assert_int_equal(store_rollrec_get(s, 5000, 1, &v), BOT_NOTFOUND);
    assert_null(v);
    assert_int_equal(store_rollrec_put(s, 5000, 2, "again"), BOT_OK);
    assert_int_equal(store_rollrec_get(s, 5000, 2, &v), BOT_OK);
    assert_string_equal(v, "again");
    free(v);
    /* nothing past either bound: nothing goes */
    assert_int_equal(store_rollrec_trim(s, 1000, 10, 5, &n), BOT_OK);
    assert_int_equal(n, 0);
    /* age: ids below 3000 */
    assert_int_equal(store_rollrec_trim(s, 3000, 10, 5, &n), BOT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(store_rollrec_get(s, 2000, 2, &v), BOT_NOTFOUND);
    /* count: 8 rows left (a rewrite keeps its row's number), down to 4
     * by batches of 2 */
    assert_int_equal(store_rollrec_trim(s, 0, 4, 2, &n), BOT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(store_rollrec_get(s, 3000, 0, &v), BOT_NOTFOUND);
    assert_int_equal(store_rollrec_get(s, 4000, 1, &v), BOT_NOTFOUND);
    assert_int_equal(store_rollrec_get(s, 5000, 2, &v), BOT_OK);
    free(v);
    for (int i = 0; i < 5; i++)
        assert_int_equal(store_rollrec_trim(s, 0, 4, 2, NULL), BOT_OK);
    int left = 0;
    for (int64_t id = 1; id <= 10; id++)
        if (store_rollrec_get(s, id * 1000, (uint64_t)(id % 3), &v) ==
            BOT_OK) {
            left++;
            free(v);
            assert_true(id >= 7); /* the highest ids stay */
        }
    assert_int_equal(left, 4);
    assert_int_equal(store_rollrec_trim(s, 0, 4, 0, &n), BOT_INVALID);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, open_mem, close_mem)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_open_close),
        T(test_store_round_trip),
        T(test_store_version_conflict),
        T(test_store_limits),
        T(test_store_undo_depth),
        T(test_store_undo_branch),
        T(test_store_load_before),
        T(test_store_archive_then_new),
        T(test_store_reopen),
        T(test_store_history),
        T(test_store_history_detail),
        T(test_store_history_bounded),
        T(test_store_history_fold_info),
        T(test_store_history_server_bound),
        T(test_store_history_count_kept),
        T(test_store_save_line),
        T(test_store_interaction_with_save),
        T(test_store_interaction_prune),
        T(test_store_kv),
        T(test_store_kv_scan),
        T(test_store_kv_last_and_below),
        T(test_store_kv_get_short),
        T(test_store_rollrec),
        T(test_store_run_unsynced),
        T(test_store_nested_transactions),
        T(test_store_enc_list),
        T(test_store_integrity_memory),
        T(test_store_enc_version),
        T(test_store_prune_retention),
        T(test_store_prune_keep_history),
        T(test_store_prune_quota),
    };
#undef T
    return STORE_FX_RUN(SUITE, tests);
}
