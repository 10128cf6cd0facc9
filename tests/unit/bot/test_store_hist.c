/* Tests for the packed history (store_hist.h), the same cases for both
 * backends: documents like a fight's come back byte for byte through
 * undo, load_before, reopen, retention and export; rows written whole by
 * an older fray (schema before the packed history) still read and undo;
 * a damaged packed row gives BOT_DB_CORRUPT with a message naming it.
 * Built twice (tests/CMakeLists.txt): test_store_hist on an SQLite file,
 * test_store_hist_pg (FRAY_STORE_PG) on a throwaway PostgreSQL cluster.
 * The round trip through `fray migrate` is test_store_migrate's. */
#include "support.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eng_limits.h"
#include "store.h"
#include "store_fixture.h"

#define CH 77u
#define NSAVES 60
#define DOC_MAX 8192

#ifdef FRAY_STORE_PG
#include "pg_cluster.h"

#define SUITE "store_hist_pg"
#define GROUP_SETUP pg_cluster_group_setup
#define GROUP_TEARDOWN pg_cluster_group_teardown

/* FRAY_TEST_NO_PG=1 (said and skipped) */
static bool skip_all(void)
{
    return pg_cluster_skip_main(SUITE);
}

static const char *location(void)
{
    return pg_test_cluster()->conninfo;
}

/* SQL on the test's database, with the store idle. */
static void sql(const char *q)
{
    char err[512];
    if (pg_cluster_exec(location(), q, err, sizeof err) != 0)
        fail_msg("%s: %s", q, err);
}

static int start(void)
{
    return 0;
}

/* Every test on empty tables (made by the first store_open). */
static void emptied(void)
{
    sql("TRUNCATE encounter, enc_version, enc_change, interaction, kv"
        " RESTART IDENTITY");
}

static void finish(void) {}

/* Chain row `version` made as a fray before the packed history wrote it. */
static void make_plain(int64_t version, const char *doc)
{
    char q[DOC_MAX + 256];
    snprintf(q, sizeof q,
             "UPDATE enc_version SET packed = NULL, doc = '%s'"
             " WHERE version = %lld", doc, (long long)version);
    sql(q);
}

static void damage(int64_t version, const char *hex)
{
    char q[256];
    snprintf(q, sizeof q,
             "UPDATE enc_version SET doc = NULL, packed = '\\x%s'::bytea"
             " WHERE version = %lld", hex, (long long)version);
    sql(q);
}
#else
#include <sqlite3.h>

#define SUITE "store_hist"
#define GROUP_SETUP NULL
#define GROUP_TEARDOWN NULL

static bool skip_all(void)
{
    return false;
}

static char dir[64], path[96];

static const char *location(void)
{
    return path;
}

static void sql(const char *q)
{
    sqlite3 *db = NULL;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_exec(db, q, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", q, err ? err : "?");
    sqlite3_close(db);
}

static int start(void)
{
    snprintf(dir, sizeof dir, "/tmp/fray-hist-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/fray.db", dir);
    return 0;
}

static void finish(void)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        char p[sizeof dir + 300];
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* A fresh file for every test. */
static void emptied(void) {}

static void make_plain(int64_t version, const char *doc)
{
    char q[DOC_MAX + 256];
    snprintf(q, sizeof q,
             "UPDATE enc_version SET doc = '%s' WHERE version = %lld", doc,
             (long long)version);
    sql(q);
}

static void damage(int64_t version, const char *hex)
{
    char q[256];
    snprintf(q, sizeof q,
             "UPDATE enc_version SET doc = x'%s' WHERE version = %lld", hex,
             (long long)version);
    sql(q);
}
#endif

static int setup(void **state)
{
    struct store *s = NULL;
    char err[512];
    if (start() != 0)
        return -1;
    if (store_open(location(), &s, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "store_open: %s\n", err);
        finish();
        return -1;
    }
    emptied();
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    finish();
    return 0;
}

static struct store *reopen(struct store *s)
{
    char err[512];
    store_close(s);
    s = NULL;
    if (store_open(location(), &s, err, sizeof err) != BOT_OK)
        fail_msg("store_open: %s", err);
    return s;
}

/* The document of step k of a fight, shaped like enc_json's: a round and
 * turn that move, eight combatants whose hit points fall one at a time,
 * names with UTF-8; every 17th step adds a combatant (a block inserted),
 * every 23rd is a different document altogether. */
static const char *fight_doc(char *buf, int k)
{
    static const char *const names[] = {"Orc", "Zoë", "戦士", "Hero"};
    if (k % 23 == 0) {
        snprintf(buf, DOC_MAX, "{\"reset\":%d,\"note\":\"all new\"}", k);
        return buf;
    }
    int n = snprintf(buf, DOC_MAX, "{\"v\":1,\"round\":%d,\"turn\":%d,"
                     "\"cs\":[", 1 + k / 8, k % 8);
    int ncs = 8 + k / 17;
    for (int c = 0; c < ncs; c++)
        n += snprintf(buf + n, (size_t)(DOC_MAX - n),
                      "%s{\"name\":\"%s %d\",\"hp\":%d,\"max\":1000000,"
                      "\"ac\":%d,\"init\":%d,\"conds\":[%s]}",
                      c ? "," : "", names[c % 4], c + 1,
                      1000000 - (c == k % ncs ? 7 * k : 3 * k), 12 + c % 4,
                      20 - c, k % 5 == c % 5 ? "\"prone\"" : "");
    snprintf(buf + n, (size_t)(DOC_MAX - n), "],\"log\":\"step %d\"}", k);
    return buf;
}

static void save_step(struct store *s, int64_t v, int k)
{
    char buf[DOC_MAX];
    assert_int_equal(store_enc_save(s, CH, v, fight_doc(buf, k)), BOT_OK);
}

static void assert_live_doc(struct store *s, int64_t want_v, int k)
{
    char buf[DOC_MAX], *doc = NULL;
    int64_t v = 0;
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_OK);
    assert_int_equal(v, want_v);
    assert_string_equal(doc, fight_doc(buf, k));
    free(doc);
}

/* The channel's live version is `live`, holding step `top`, and its undo
 * chain the n steps below it: undo each in turn, each restoring its step
 * as the next version, then nothing is left to undo. */
static void undo_all(struct store *s, uint64_t ch, int64_t live, int top,
                     int n)
{
    char buf[DOC_MAX], *doc = NULL;
    int64_t v = 0;
    for (int i = 1; i <= n; i++) {
        assert_int_equal(store_fx_undo_once(s, ch), BOT_OK);
        assert_int_equal(store_enc_load(s, ch, &doc, &v), BOT_OK);
        assert_int_equal(v, live + i);
        assert_string_equal(doc, fight_doc(buf, top - i));
        free(doc);
    }
    assert_int_equal(store_fx_undo_once(s, ch), BOT_NOTFOUND);
}

/* Every exported version of CH is fight_doc(version). */
struct export_check {
    size_t nver;
    int64_t live;
};

static enum bot_err check_enc(void *ctx, const struct store_enc_rec *r)
{
    struct export_check *x = ctx;
    char buf[DOC_MAX];
    x->nver = r->nver;
    x->live = r->version;
    for (size_t i = 0; i < r->nver; i++)
        assert_string_equal(r->ver[i].doc,
                            fight_doc(buf, (int)r->ver[i].version));
    return BOT_OK;
}

static struct export_check export_check(struct store *s)
{
    static const struct store_export_cb cb = {check_enc, store_fx_skip_ix,
                                              store_fx_skip_kv, NULL};
    struct export_check x = {0};
    assert_int_equal(store_export(s, &cb, &x), BOT_OK);
    return x;
}

/* Walking down the kept versions with load_before gives each one's own
 * document, and an export hands out every one as plain text. */
static void test_hist_round_trip(void **state)
{
    struct store *s = *state;
    for (int v = 1; v <= NSAVES; v++)
        save_step(s, v, v);
    struct export_check x = export_check(s);
    assert_int_equal(x.nver, ENC_UNDO_DEPTH + 1);
    assert_int_equal(x.live, NSAVES);

    char buf[DOC_MAX], *doc = NULL;
    int64_t below = NSAVES, found = 0;
    for (int k = 1; k <= ENC_UNDO_DEPTH; k++) {
        assert_int_equal(store_enc_load_before(s, CH, below, &doc, &found),
                         BOT_OK);
        assert_int_equal(found, NSAVES - k);
        assert_string_equal(doc, fight_doc(buf, NSAVES - k));
        free(doc);
        below = found;
    }
    assert_int_equal(store_enc_load_before(s, CH, below, &doc, &found),
                     BOT_NOTFOUND);
}

/* ENC_UNDO_DEPTH undos in a row each restore the exact document, across
 * the steps that inserted a block or replaced everything; then none. */
static void test_hist_undo_full_chain(void **state)
{
    struct store *s = *state;
    for (int v = 1; v <= NSAVES; v++)
        save_step(s, v, v);
    for (int k = 1; k <= ENC_UNDO_DEPTH; k++) {
        assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
        assert_live_doc(s, NSAVES + k, NSAVES - k);
    }
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
    /* a command after them packs against its own document */
    save_step(s, NSAVES + ENC_UNDO_DEPTH + 1, 5);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live_doc(s, NSAVES + ENC_UNDO_DEPTH + 2, NSAVES - ENC_UNDO_DEPTH);
}

/* An undo stores whatever document the caller gives; the steps below it
 * still come back as they were, so the chain does not rely on the caller
 * handing back the kept text byte for byte. */
static void test_hist_undo_other_text(void **state)
{
    struct store *s = *state;
    for (int v = 1; v <= 6; v++)
        save_step(s, v, v);
    assert_int_equal(store_enc_save_undo(s, CH, 7, "{\"re-dumped\":5}"),
                     BOT_OK);
    undo_all(s, CH, 7, 5, 4);
}

/* An archived fight reopened undoes as before; once retention trims it,
 * its final state is what is left, whole. */
static void test_hist_reopen_and_trim(void **state)
{
    struct store *s = *state;
    for (int v = 1; v <= 20; v++)
        save_step(s, v, v);
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    s = *state = reopen(s);
    assert_int_equal(store_enc_reopen(s, CH, 1500, 0), BOT_OK);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live_doc(s, 21, 19);
    save_step(s, 22, 22);
    assert_int_equal(store_enc_archive(s, CH, 2000), BOT_OK);

    struct store_prune_cfg cfg = {.trim_before_ms = 3000,
                                  .keep_after_ms = 3000, .batch = 10};
    struct store_prune_stats st = {0};
    assert_int_equal(store_enc_prune(s, &cfg, &st), BOT_OK);
    assert_int_equal(st.trimmed, 1);
    struct export_check x = export_check(s);
    assert_int_equal(x.nver, 1);
    assert_int_equal(x.live, 22);
}

/* A database whose kept versions are all whole text, as a fray before the
 * packed history wrote them (and as its migration step leaves them: it
 * changes no row), reads and undoes, also once new saves have packed the
 * newer part of the chain. The schema number is left alone: other steps
 * may follow this one's. */
static void test_hist_old_rows(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX];
    for (int v = 1; v <= 12; v++)
        save_step(s, v, v);
    store_close(s);
    *state = NULL;
    for (int v = 1; v < 12; v++)
        make_plain(v, fight_doc(buf, v));
    s = *state = reopen(NULL);

    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK); /* 13 = doc 11 */
    assert_live_doc(s, 13, 11);
    save_step(s, 14, 40);                         /* packs 13 */
    save_step(s, 15, 41);                         /* packs 14 */
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live_doc(s, 16, 40);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    assert_live_doc(s, 17, 11);
    for (int k = 10; k >= 1; k--) {
        assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
        assert_live_doc(s, 17 + (11 - k), k);
    }
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
}

/* A damaged packed row: the versions above it still read, it and what
 * lies below it give BOT_DB_CORRUPT naming the version; nothing crashes. */
static void test_hist_corrupt_row(void **state)
{
    /* tag, a length of 16, then: a copy of 4,000 bytes of a short text;
     * a step cut in the middle of a number; a literal longer than the
     * row; a well-formed delta of the wrong length; an unknown tag */
    static const char *const bad[] = {
        "0110000000a01f0000", "0110000000ff", "011000000000007f41",
        "0110000000000003414243", "0710000000000000",
    };
    char *doc = NULL;
    int64_t found = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct store *s = *state;
        uint64_t ch = CH;
        for (int v = 1; v <= 5; v++)
            save_step(s, v, v);
        store_close(s);
        *state = NULL;
        damage(3, bad[i]);
        s = *state = reopen(NULL);
        assert_int_equal(store_enc_load_before(s, ch, 5, &doc, &found),
                         BOT_OK);
        assert_int_equal(found, 4);
        free(doc);
        assert_int_equal(store_enc_load_before(s, ch, 4, &doc, &found),
                         BOT_DB_CORRUPT);
        assert_non_null(strstr(store_errmsg(s), "version 3"));
        assert_int_equal(store_enc_load_before(s, ch, 3, &doc, &found),
                         BOT_DB_CORRUPT);
        /* an undo must pack version 3 again: refused, nothing changed */
        assert_int_equal(store_fx_undo_once(s, CH), BOT_DB_CORRUPT);
        assert_live_doc(s, 5, 5);
        save_step(s, 6, 6);                   /* packs 5 against 6 */
        assert_int_equal(store_enc_load_before(s, ch, 6, &doc, &found),
                         BOT_OK);
        assert_int_equal(found, 5);
        free(doc);
        assert_int_equal(store_enc_archive(s, ch, 100 + (int64_t)i), BOT_OK);
        assert_int_equal(store_enc_archive(s, ch, 200), BOT_NOTFOUND);
        /* the next round starts a new encounter in the same channel */
        sql("DELETE FROM enc_version WHERE enc IN"
            " (SELECT id FROM encounter WHERE ended_ms IS NOT NULL)");
        sql("DELETE FROM encounter WHERE ended_ms IS NOT NULL");
    }
}

/* The live version must be whole: stored packed, it is reported, not
 * read, and nothing is saved over it. */
static void test_hist_corrupt_live(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX], *doc = NULL;
    int64_t v = 0;
    for (int k = 1; k <= 3; k++)
        save_step(s, k, k);
    store_close(s);
    *state = NULL;
    damage(3, "0103000000000003414243");
    s = *state = reopen(NULL);
    assert_int_equal(store_enc_load(s, CH, &doc, &v), BOT_DB_CORRUPT);
    assert_non_null(strstr(store_errmsg(s), "packed"));
    assert_int_equal(store_enc_save(s, CH, 4, fight_doc(buf, 4)),
                     BOT_DB_CORRUPT);
    assert_int_equal(store_enc_load_before(s, CH, 3, &doc, &v),
                     BOT_DB_CORRUPT);
    assert_int_equal(store_enc_version(s, CH, &v), BOT_OK);
    assert_int_equal(v, 3);
}

/* A save rolled back, by its own transaction or by an inner one of a
 * group, is forgotten: saving the same version again works, and every
 * kept version reads as the one committed, not the one rolled back (the
 * SQLite backend remembers each save to skip reading it back). */
static void test_hist_rollback_then_save(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX];
    for (int v = 1; v <= 5; v++)
        save_step(s, v, v);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 6, fight_doc(buf, 40)), BOT_OK);
    store_rollback(s);
    save_step(s, 6, 6);

    /* a group: an inner command rolled back between two kept ones */
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    save_step(s, 7, 7);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_enc_save(s, CH, 8, fight_doc(buf, 41)), BOT_OK);
    store_rollback(s);
    assert_int_equal(store_begin(s), BOT_OK);
    save_step(s, 8, 8);
    assert_int_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_commit(s), BOT_OK);

    struct export_check x = export_check(s);
    assert_int_equal(x.nver, 8);
    assert_int_equal(x.live, 8);
    undo_all(s, CH, 8, 8, 7);
}

/* A refused save (a stale version) and an undo with an outer rollback
 * leave the chain as committed: the next save packs against the right
 * document. */
static void test_hist_refused_then_save(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX];
    for (int v = 1; v <= 4; v++)
        save_step(s, v, v);
    assert_int_equal(store_enc_save(s, CH, 4, fight_doc(buf, 42)),
                     BOT_CONFLICT);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
    store_rollback(s);
    assert_live_doc(s, 4, 4);
    save_step(s, 5, 5);
    struct export_check x = export_check(s);
    assert_int_equal(x.nver, 5);
    undo_all(s, CH, 5, 5, 4);
}

/* Fights saved in turn in one transaction (channels that share the
 * remembered slots or not), archived, reopened and started anew: every
 * history reads back whole. */
static void test_hist_two_channels(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX];
    static const uint64_t other[] = {CH + 1, CH + 16, CH + 64};
    for (size_t o = 0; o < sizeof other / sizeof other[0]; o++) {
        assert_int_equal(store_begin(s), BOT_OK);
        for (int v = 1; v <= 6; v++) {
            int base = (int)o * 6;
            save_step(s, base + v, base + v);
            assert_int_equal(store_enc_save(s, other[o], v,
                                            fight_doc(buf, v)),
                             BOT_OK);
        }
        assert_int_equal(store_commit(s), BOT_OK);
    }
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    assert_int_equal(store_enc_reopen(s, CH, 2000, 0), BOT_OK);
    save_step(s, 19, 19);
    (void)export_check(s); /* every kept version of the four fights */
    /* a new fight where one ended starts at version 1 */
    assert_int_equal(store_enc_archive(s, other[0], 3000), BOT_OK);
    assert_int_equal(store_enc_save(s, other[0], 1, fight_doc(buf, 1)),
                     BOT_OK);
    assert_int_equal(store_fx_undo_once(s, other[0]), BOT_NOTFOUND);
    undo_all(s, CH, 19, 19, 18);
    for (size_t o = 1; o < sizeof other / sizeof other[0]; o++)
        undo_all(s, other[o], 6, 6, 5);
}

#ifndef FRAY_STORE_PG
#include "store_sqlite_int.h"
#include "store_sqlite_schema.h"

static int64_t rows_kept(void)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM enc_version",
                                        -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* The versions that fall off a full undo chain are deleted
 * STORE_SQ_TRIM_BATCH at a time, never more waiting than that, none left
 * after a restart's first fall or an archive; undo still stops at
 * ENC_UNDO_DEPTH and an export holds only the kept ones meanwhile. */
static void test_hist_trim_batches(void **state)
{
    struct store *s = *state;
    int v = 1;
    for (; v <= ENC_UNDO_DEPTH + 1; v++)
        save_step(s, v, v);
    assert_int_equal(rows_kept(), ENC_UNDO_DEPTH + 1);
    for (int k = 1; k <= 5 * STORE_SQ_TRIM_BATCH; k++, v++) {
        save_step(s, v, v);
        int64_t n = rows_kept();
        assert_true(n >= ENC_UNDO_DEPTH + 1);
        assert_true(n < ENC_UNDO_DEPTH + 1 + STORE_SQ_TRIM_BATCH);
    }
    /* of two saves in a row one at most trims: then one waits */
    save_step(s, v, v);
    if (rows_kept() == ENC_UNDO_DEPTH + 1) {
        v++;
        save_step(s, v, v);
    }
    assert_true(rows_kept() > ENC_UNDO_DEPTH + 1);
    assert_int_equal(export_check(s).nver, ENC_UNDO_DEPTH + 1);

    s = *state = reopen(s); /* forgets what waits: the next fall trims */
    v++;
    save_step(s, v, v);
    assert_int_equal(rows_kept(), ENC_UNDO_DEPTH + 1);
    v++;
    save_step(s, v, v);
    assert_int_equal(rows_kept(), ENC_UNDO_DEPTH + 2);
    undo_all(s, CH, v, v, ENC_UNDO_DEPTH);

    /* waiting rows below an emptied chain: none read, all gone at the end */
    assert_true(rows_kept() > 1);
    assert_int_equal(store_enc_archive(s, CH, 1000), BOT_OK);
    assert_int_equal(rows_kept(), 1);
}

/* A file made by the schema steps before the packed history, holding a
 * fight of 12 versions as that schema stored it (every version whole
 * TEXT): opening it runs the remaining steps, and the fight reads and
 * undoes to its first version. The step is found by its name, so the
 * test does not depend on its number. */
static void test_hist_old_database(void **state)
{
    char old[sizeof dir + 16], err[512], buf[DOC_MAX];
    size_t k = 0;
    while (k < store_schema_nsteps &&
           strcmp(store_schema_steps[k].what, "packed history") != 0)
        k++;
    assert_true(k < store_schema_nsteps);
    snprintf(old, sizeof old, "%s/old.db", dir);

    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(old, &db), SQLITE_OK);
    assert_int_equal(store__migrate(db, old, store_schema_steps, k, err,
                                    sizeof err), BOT_OK);
    unsigned char undo[11 * 8];
    for (int i = 0; i < 11; i++)
        for (int b = 0; b < 8; b++)
            undo[i * 8 + b] = (unsigned char)(((uint64_t)(11 - i)) >> (8 * b));
    assert_int_equal(sqlite3_prepare_v2(db,
                     "INSERT INTO encounter (channel, version, undo,"
                     " created_ms, updated_ms) VALUES (?1, 12, ?2, 1, 1)",
                     -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, (sqlite3_int64)CH);
    sqlite3_bind_blob(st, 2, undo, sizeof undo, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db,
                     "INSERT INTO enc_version (enc, version, created_ms, doc)"
                     " VALUES (1, ?1, 1, ?2)", -1, &st, NULL), SQLITE_OK);
    for (int v = 1; v <= 12; v++) {
        sqlite3_reset(st);
        sqlite3_bind_int(st, 1, v);
        sqlite3_bind_text(st, 2, fight_doc(buf, v), -1, SQLITE_TRANSIENT);
        assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    }
    sqlite3_finalize(st);
    /* two history lines: schema 9 counts them, in bytes ("é" is two) */
    assert_int_equal(sqlite3_exec(db,
                     "INSERT INTO enc_change (enc, version, by_user, at_ms,"
                     " secret, text, detail, gm_detail, by_name) VALUES"
                     " (1, 11, 7, 1, 0, 'h\xC3\xA9llo', 'dd', '', 'Al'),"
                     " (1, 12, 7, 2, 0, 'x', '', '', '')",
                     NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    store_close(*state);
    struct store *s = NULL;
    assert_int_equal(store_open(old, &s, err, sizeof err), BOT_OK);
    *state = s;
    struct store_info info;
    assert_int_equal(store_inspect(old, &info, err, sizeof err), BOT_OK);
    assert_int_equal(info.schema, info.schema_current);
    struct store_hist_info hist;
    assert_int_equal(store_hist_info(s, CH, &hist), BOT_OK);
    assert_int_equal(hist.lines, 2);
    assert_int_equal(hist.bytes, 6 + 2 + 2 + 1);
    assert_int_equal(hist.folded_to, 0);
    assert_live_doc(s, 12, 12);
    for (int j = 11; j >= 1; j--) {
        assert_int_equal(store_fx_undo_once(s, CH), BOT_OK);
        assert_live_doc(s, 12 + (12 - j), j);
    }
    assert_int_equal(store_fx_undo_once(s, CH), BOT_NOTFOUND);
}
/* A save that fails after it has written, inside the caller's
 * transaction (a trigger refuses the new live row once the old one is
 * packed and the encounter row updated): every call then fails until the
 * level is rolled back, a commit rolls it back, and the history is as
 * before. Inside a group only the command's own level is lost. */
static void test_hist_failed_save_in_transaction(void **state)
{
    struct store *s = *state;
    char buf[DOC_MAX];
    int64_t v = 0;
    for (int k = 1; k <= 6; k++)
        save_step(s, k, k);
    sql("CREATE TRIGGER refuse AFTER INSERT ON enc_version"
        " WHEN NEW.version = 7 BEGIN SELECT RAISE(ABORT, 'refused'); END");
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_not_equal(store_enc_save(s, CH, 7, fight_doc(buf, 7)),
                         BOT_OK);
    assert_int_not_equal(store_enc_version(s, CH, &v), BOT_OK);
    assert_int_not_equal(store_commit(s), BOT_OK);
    assert_int_equal(store_enc_version(s, CH, &v), BOT_OK);
    assert_int_equal(v, 6);

    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_equal(store_begin(s), BOT_OK);
    assert_int_not_equal(store_enc_save(s, CH, 7, fight_doc(buf, 7)),
                         BOT_OK);
    store_rollback(s);
    assert_int_equal(store_enc_version(s, CH, &v), BOT_OK);
    assert_int_equal(v, 6);
    assert_int_equal(store_commit(s), BOT_OK);

    sql("DROP TRIGGER refuse");
    save_step(s, 7, 7);
    assert_int_equal(export_check(s).nver, 7);
    undo_all(s, CH, 7, 7, 6);
}
#define SQLITE_ONLY(t) T(t),
#else
#define SQLITE_ONLY(t)
#endif

int main(void)
{
    if (skip_all())
        return 0;
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_hist_round_trip),
        T(test_hist_undo_full_chain),
        T(test_hist_undo_other_text),
        T(test_hist_reopen_and_trim),
        T(test_hist_old_rows),
        T(test_hist_corrupt_row),
        T(test_hist_corrupt_live),
        T(test_hist_rollback_then_save),
        T(test_hist_refused_then_save),
        T(test_hist_two_channels),
        SQLITE_ONLY(test_hist_old_database)
        SQLITE_ONLY(test_hist_trim_batches)
        SQLITE_ONLY(test_hist_failed_save_in_transaction)
    };
#undef T
    return cmocka_run_group_tests_name(SUITE, tests, GROUP_SETUP,
                                       GROUP_TEARDOWN);
}
