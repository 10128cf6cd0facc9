/* `fray migrate` (bot/cli/cli_migrate.c) from an SQLite file into a throwaway
 * PostgreSQL database, and back: the copy holds every encounter (live and
 * archived), every kept version's document byte for byte, timestamps,
 * archive state, undo order, interactions and key/value rows, except the
 * gateway session keys, every saved roll (macro) of both scopes and
 * every saved sheet (characters with their undo and use, templates); a
 * live fight's turn clock timer follows it; a non-empty target is refused
 * without --force, and a failed copy changes nothing. The real fray binary
 * runs the
 * migration. Fails without PostgreSQL unless FRAY_TEST_NO_PG=1. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "enc.h"
#include "enc_json.h"
#include "pg_cluster.h"
#include "rs.h"
#include "store.h"

#define SUITE "store_migrate"
#define CH_LONG 1u
#define CH_ARCHIVES 2u
#define CH_TOP UINT64_MAX
#define BIG_DOC_BYTES 200000

struct fixture {
    char dir[64];
    char sqlite[96], back[96], from[128], to_back[128];
    char pg[PG_CLUSTER_MAX_CONNINFO];
};

static struct store *open_ok(const char *loc)
{
    struct store *s = NULL;
    char err[256];
    enum bot_err e = store_open(loc, &s, err, sizeof err);
    if (e != BOT_OK)
        fail_msg("store_open: %s: %s", bot_errname(e), err);
    return s;
}

/* The history line of version v: every field varies, the text has
 * awkward bytes. */
static void line(struct store *s, uint64_t ch, int64_t v)
{
    char text[96], detail[96], gm[96];
    snprintf(text, sizeof text, "change %lld: \"\xc3\xbc\" \\ '; --",
             (long long)v);
    snprintf(detail, sizeof detail, "**A** hits ([%lld]+2)\nline two",
             (long long)v);
    snprintf(gm, sizeof gm, "%s", v % 3 == 0 ? "**Shade** is hurt" : "");
    struct store_change_rec r = {
        .version = v, .by = UINT64_C(1) << 63 | (uint64_t)v,
        .at_ms = 1000 + v, .secret = v % 3 == 0, .text = text,
        .detail = detail, .gm_detail = gm, .by_name = v % 2 ? "Ann" : "",
    };
    enum bot_err e = store_change_add(s, ch, &r);
    if (e != BOT_OK)
        fail_msg("history line %lld: %s: %s", (long long)v, bot_errname(e),
                 store_errmsg(s));
}

static void save(struct store *s, uint64_t ch, int64_t v, const char *doc)
{
    enum bot_err e = store_enc_save(s, ch, v, doc);
    if (e != BOT_OK)
        fail_msg("save %lld: %s: %s", (long long)v, bot_errname(e),
                 store_errmsg(s));
    line(s, ch, v);
}

static void save_n(struct store *s, uint64_t ch, int64_t from, int64_t to)
{
    char doc[64];
    for (int64_t v = from; v <= to; v++) {
        snprintf(doc, sizeof doc, "{\"ch\":%llu,\"v\":%lld}",
                 (unsigned long long)ch, (long long)v);
        save(s, ch, v, doc);
    }
}

static void undo(struct store *s, uint64_t ch)
{
    char *live_doc = NULL, *doc = NULL;
    int64_t live = 0, target = 0;
    assert_int_equal(store_enc_load(s, ch, &live_doc, &live), BOT_OK);
    assert_int_equal(store_enc_load_before(s, ch, live, &doc, &target), BOT_OK);
    assert_int_equal(store_enc_save_undo(s, ch, live + 1, doc), BOT_OK);
    line(s, ch, live + 1);
    free(live_doc);
    free(doc);
}

/* Everything a store holds, kept history included. */
static void populate(struct store *s)
{
    /* A long history (trimmed to ENC_UNDO_DEPTH + 1), undos, a branch. */
    save_n(s, CH_LONG, 1, 60);
    for (int i = 0; i < 5; i++)
        undo(s, CH_LONG);
    save_n(s, CH_LONG, 66, 67);
    /* Two archived encounters and a live one in the same channel. */
    save_n(s, CH_ARCHIVES, 1, 3);
    /* The server goes with it (a snowflake with the top bit set). */
    assert_int_equal(store_enc_set_guild(s, CH_ARCHIVES, 1ull << 63 | 77),
                     BOT_OK);
    assert_int_equal(store_enc_archive(s, CH_ARCHIVES, 1000), BOT_OK);
    save_n(s, CH_ARCHIVES, 1, 2);
    undo(s, CH_ARCHIVES);
    assert_int_equal(store_enc_archive(s, CH_ARCHIVES, 2000), BOT_OK);
    save_n(s, CH_ARCHIVES, 1, 1);
    /* Awkward bytes, the top bit of a snowflake, a big document. */
    save(s, CH_TOP, 1,
         "{\"n\":\"\xc3\xbc \\\" \\\\ \\n '; DROP TABLE kv; --\"}");
    char *big = malloc(BIG_DOC_BYTES + 1);
    assert_non_null(big);
    for (size_t i = 0; i < BIG_DOC_BYTES; i++)
        big[i] = (char)('a' + i % 26);
    big[0] = '"';
    big[BIG_DOC_BYTES - 1] = '"';
    big[BIG_DOC_BYTES] = '\0';
    save(s, CH_TOP, 2, big);
    free(big);
    assert_int_equal(store_interaction_record(s, "1001", CH_LONG, 3, 11),
                     BOT_OK);
    assert_int_equal(store_interaction_record(s, "1002", CH_TOP, 1, 12),
                     BOT_OK);
    assert_int_equal(store_interaction_record(s, "9", CH_TOP, 2, 13), BOT_OK);
    assert_int_equal(store_kv_set(s, "gm:42", "7"), BOT_OK);
    assert_int_equal(store_kv_set(s, "tracker:1", "123"), BOT_OK);
    assert_int_equal(store_kv_set(s, "gw.session_id", "abc"), BOT_OK);
    assert_int_equal(store_kv_set(s, "gw.seq:0/2", "41"), BOT_OK);
    /* Saved rolls: a player's own (top-bit snowflake), a server's, and
     * dice with a label and awkward bytes. */
    static const struct store_macro macros[] = {
        {.guild = 0, .user = 1ull << 63 | 5, .by = 1ull << 63 | 5,
         .created_ms = 10, .updated_ms = 20, .name = "stealth",
         .dice = "1d20+7 # Stealth \xc3\xbc '; --"},
        {.guild = 77, .user = 0, .by = 6, .created_ms = 30,
         .updated_ms = 30, .name = "bandit_hit", .dice = "2d6+2"},
        {.guild = 0, .user = 6, .by = 6, .created_ms = 40,
         .updated_ms = 50, .name = "a", .dice = "d20"},
    };
    for (size_t i = 0; i < sizeof macros / sizeof macros[0]; i++)
        assert_int_equal(store_import_macro(s, &macros[i]), BOT_OK);
    /* Saved sheets: a character with a kept undo, used in its server; a
     * second character of the same player; a server's template. */
    struct store_sheet sh = {.kind = STORE_SHEET_CHAR, .guild = 77,
                             .owner = 1ull << 63 | 5, .name = "Zo\xc3\xab",
                             .system = "generic",
                             .doc = "{\"hp\":24,\"note\":\"'; --\"}"};
    struct store_sheet_key k = {STORE_SHEET_CHAR, 77, 1ull << 63 | 5,
                                "Zo\xc3\xab"};
    assert_int_equal(store_sheet_create(s, &sh, 100), BOT_OK);
    assert_int_equal(store_sheet_update(s, &k, "{\"hp\":20}", "fight-9",
                                        "{\"hp\":24}", 200),
                     BOT_OK);
    assert_int_equal(store_sheet_use_set(s, 77, 1ull << 63 | 5,
                                         "Zo\xc3\xab"),
                     BOT_OK);
    sh.name = "Aria";
    sh.system = "teams";
    assert_int_equal(store_sheet_create(s, &sh, 300), BOT_OK);
    sh = (struct store_sheet){.kind = STORE_SHEET_NPC, .guild = 77,
                              .owner = 0, .name = "Bandit",
                              .system = "generic", .doc = "{\"hp\":7}"};
    assert_int_equal(store_sheet_create(s, &sh, 400), BOT_OK);
}

/* ---- a canonical dump of a store, to compare two ------------------------ */

struct dump {
    FILE *f;
    bool skip_gw;
};

static enum bot_err dump_enc(void *ctx, const struct store_enc_rec *r)
{
    struct dump *d = ctx;
    fprintf(d->f, "enc %llu g=%llu v=%lld c=%lld u=%lld ended=%d/%lld undo=",
            (unsigned long long)r->channel, (unsigned long long)r->guild,
            (long long)r->version,
            (long long)r->created_ms, (long long)r->updated_ms, r->ended,
            (long long)r->ended_ms);
    for (size_t i = 0; i < r->nundo; i++)
        fprintf(d->f, "%lld,", (long long)r->undo[i]);
    fputc('\n', d->f);
    for (size_t i = 0; i < r->nver; i++)
        fprintf(d->f, " ver %lld c=%lld len=%zu\n%s\n",
                (long long)r->ver[i].version, (long long)r->ver[i].created_ms,
                strlen(r->ver[i].doc), r->ver[i].doc);
    for (size_t i = 0; i < r->nchange; i++)
        fprintf(d->f, " line %lld by=%llu (%s) at=%lld secret=%d %s\n"
                "  detail %s\n  gm %s\n",
                (long long)r->change[i].version,
                (unsigned long long)r->change[i].by, r->change[i].by_name,
                (long long)r->change[i].at_ms, r->change[i].secret,
                r->change[i].text, r->change[i].detail,
                r->change[i].gm_detail);
    return BOT_OK;
}

static enum bot_err dump_ix(void *ctx, const struct store_ix_rec *r)
{
    struct dump *d = ctx;
    fprintf(d->f, "ix %s ch=%llu v=%lld c=%lld\n", r->id,
            (unsigned long long)r->channel, (long long)r->version,
            (long long)r->created_ms);
    return BOT_OK;
}

static enum bot_err dump_kv(void *ctx, const char *key, const char *value)
{
    struct dump *d = ctx;
    if (!d->skip_gw || strncmp(key, "gw.", 3) != 0)
        fprintf(d->f, "kv %s=%s\n", key, value);
    return BOT_OK;
}

static enum bot_err dump_macro(void *ctx, const struct store_macro *m)
{
    struct dump *d = ctx;
    fprintf(d->f, "macro g=%llu u=%llu by=%llu c=%lld u=%lld %s=%s\n",
            (unsigned long long)m->guild, (unsigned long long)m->user,
            (unsigned long long)m->by, (long long)m->created_ms,
            (long long)m->updated_ms, m->name, m->dice);
    return BOT_OK;
}

static enum bot_err dump_sheet(void *ctx, const struct store_sheet *sh)
{
    struct dump *d = ctx;
    fprintf(d->f, "sheet k=%d g=%llu o=%llu %s sys=%s c=%lld u=%lld "
            "used=%d undo=%s:%s doc=%s\n",
            (int)sh->kind, (unsigned long long)sh->guild,
            (unsigned long long)sh->owner, sh->name, sh->system,
            (long long)sh->created_ms, (long long)sh->updated_ms, sh->used,
            sh->undo_tag ? sh->undo_tag : "-",
            sh->undo_doc ? sh->undo_doc : "-", sh->doc);
    return BOT_OK;
}

/* The dump of the store at loc (malloc'd). */
static char *dump_store(const char *loc, bool skip_gw)
{
    static const struct store_export_cb cb = {dump_enc, dump_ix, dump_kv,
                                              dump_sheet};
    char *buf = NULL;
    size_t len = 0;
    struct dump d = {open_memstream(&buf, &len), skip_gw};
    assert_non_null(d.f);
    struct store *s = open_ok(loc);
    enum bot_err e = store_export(s, &cb, &d);
    if (e == BOT_OK)
        e = store_macro_export(s, dump_macro, &d);
    if (e != BOT_OK)
        fail_msg("export: %s", store_errmsg(s));
    store_close(s);
    fclose(d.f);
    return buf;
}

/* ---- running fray migrate ----------------------------------------------- */

/* Run `fray migrate ARGS...`; its stdout and stderr into out. Returns the
 * exit status. */
static int migrate(char *out, size_t cap, const char *a1, const char *a2,
                   const char *a3, const char *a4, const char *a5)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        execl(FRAY_BINARY, "fray", "migrate", a1, a2, a3, a4, a5, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < cap && (got = read(fds[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)got;
    out[n] = '\0';
    close(fds[0]);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static int setup(void **state)
{
    static int db_seq;
    struct fixture *f = calloc(1, sizeof *f);
    char err[256], name[32];
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/fray-migrate-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->sqlite, sizeof f->sqlite, "%s/fray.db", f->dir);
    snprintf(f->back, sizeof f->back, "%s/back.db", f->dir);
    snprintf(f->from, sizeof f->from, "sqlite:%s", f->sqlite);
    snprintf(f->to_back, sizeof f->to_back, "sqlite:%s", f->back);
    snprintf(name, sizeof name, "migrate%d", ++db_seq);
    if (pg_cluster_create_db(pg_test_cluster(), name, f->pg, sizeof f->pg, err,
                             sizeof err) != 0) {
        fprintf(stderr, "create db: %s\n", err);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    const char *const files[] = {"fray.db",     "fray.db.lock", "fray.db-wal",
                                 "fray.db-shm", "back.db",      "back.db.lock",
                                 "back.db-wal", "back.db-shm"};
    char p[160];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", f->dir, files[i]);
        unlink(p);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

/* SQLite -> PostgreSQL -> SQLite: identical each time (gw. keys apart). */
static void test_store_migrate_identical(void **state)
{
    struct fixture *f = *state;
    char out[2048];
    struct store *s = open_ok(f->sqlite);
    populate(s);
    store_close(s);

    int rc = migrate(out, sizeof out, "--from", f->from, "--to", f->pg, NULL);
    if (rc != 0)
        fail_msg("fray migrate exited %d: %s", rc, out);
    assert_non_null(strstr(out, "copied 3 live and 2 archived encounters"));
    assert_non_null(strstr(out, "3 interactions, 2 keys (2 gateway"));
    assert_non_null(strstr(out, "not copied), 3 saved sheets, 3 saved "
                                "rolls"));

    char *src = dump_store(f->sqlite, true);
    char *pg = dump_store(f->pg, false);
    assert_string_equal(pg, src);
    /* The dump really holds the history: 51 kept versions of CH_LONG. */
    assert_non_null(strstr(src, "len=200000"));
    assert_non_null(strstr(src, "ended=1/2000"));
    assert_non_null(strstr(src, " g=9223372036854775885 "));
    assert_non_null(strstr(src, "macro g=0 u=9223372036854775813 by="
                                "9223372036854775813 c=10 u=20 stealth="
                                "1d20+7 # Stealth"));
    assert_non_null(strstr(src, "macro g=77 u=0 by=6 c=30 u=30 "
                                "bandit_hit=2d6+2"));
    assert_non_null(strstr(src, "sheet k=1 g=77 o=9223372036854775813 "
                                "Zo\xc3\xab sys=generic c=100 u=200 used=1 "
                                "undo=fight-9:{\"hp\":24} doc={\"hp\":20}"));
    assert_non_null(strstr(src, "sheet k=2 g=77 o=0 Bandit sys=generic"));

    rc = migrate(out, sizeof out, "--from", f->pg, "--to", f->to_back, NULL);
    if (rc != 0)
        fail_msg("fray migrate back exited %d: %s", rc, out);
    char *back = dump_store(f->back, false);
    assert_string_equal(back, src);
    free(src);
    free(pg);
    free(back);
}

/* The turn clock's timer is not a row of the export: it follows from the
 * live document, so the copy has it at the same due time. */
static void test_store_migrate_clock_timer(void **state)
{
    struct fixture *f = *state;
    char out[2048];
    struct encounter *e = enc_new(rs_find("generic"), "Road", 7);
    assert_non_null(e);
    e->status = ENC_ST_RUNNING;
    e->round = 1;
    e->clock = (struct enc_clock){.remind_ms = 3600000, .wait_ms = 5000};
    e->version = 1;
    char *doc = enc_json_dump(e);
    enc_free(e);
    struct store *s = open_ok(f->sqlite);
    save(s, 77, 1, doc);
    assert_int_equal(store_timer_set(s, 77, 0, 3605000, I18N_EN), BOT_OK);
    store_close(s);
    free(doc);

    int rc = migrate(out, sizeof out, "--from", f->from, "--to", f->pg, NULL);
    if (rc != 0)
        fail_msg("fray migrate exited %d: %s", rc, out);
    s = open_ok(f->pg);
    int64_t due = 0;
    assert_int_equal(store_timer_next(s, 0, 1, &due), BOT_OK);
    assert_int_equal(due, 3605000);
    store_close(s);
}

/* A target holding data is refused without --force; with --force a
 * channel live in both aborts the whole copy; neither changes it. */
static void test_store_migrate_refuses_non_empty(void **state)
{
    struct fixture *f = *state;
    char out[2048];
    struct store *s = open_ok(f->sqlite);
    populate(s);
    store_close(s);
    assert_int_equal(
        migrate(out, sizeof out, "--from", f->from, "--to", f->pg, NULL), 0);
    char *before = dump_store(f->pg, false);

    assert_int_equal(
        migrate(out, sizeof out, "--from", f->from, "--to", f->pg, NULL), 1);
    assert_non_null(strstr(out, "already holds data"));
    assert_int_equal(
        migrate(out, sizeof out, "--from", f->from, "--to", f->pg, "--force"),
        1);
    assert_non_null(strstr(out, "nothing copied"));
    char *after = dump_store(f->pg, false);
    assert_string_equal(after, before);
    free(before);
    free(after);

    assert_int_equal(
        migrate(out, sizeof out, "--from", f->from, NULL, NULL, NULL), 2);
    assert_non_null(strstr(out, "usage: fray migrate"));
}

int main(void)
{
    if (pg_cluster_skip_main(SUITE))
        return 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_store_migrate_identical, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_store_migrate_clock_timer, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_store_migrate_refuses_non_empty,
                                        setup, teardown),
    };
    return cmocka_run_group_tests_name(SUITE, tests, pg_cluster_group_setup,
                                       pg_cluster_group_teardown);
}
