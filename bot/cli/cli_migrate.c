/*
 * cli_migrate.c - `fray migrate --from LOCATION --to LOCATION [--force]`:
 * copy a whole store into another, typically an SQLite file into the
 * PostgreSQL database several shards will share.
 *
 * Every encounter, live and archived, moves with everything the store
 * keeps of it (all kept versions and their documents, the undo chain,
 * timestamps, archive state), and so do the recorded interactions and the
 * key/value rows, the saved rolls (macros) and the saved sheets
 * (characters, the character each player uses, NPC templates), except the
 * gateway sessions ("gw." keys): a session
 * belongs to the process that opened it, it is stale after the stop that a
 * migration needs, and resuming it from several shards would be wrong; the
 * cost is one fresh IDENTIFY. The copy is one transaction on the target,
 * read from one snapshot of the source, so it lands whole or not at all.
 * An SQLite source is locked like the daemon locks it: stop fray first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "enc.h"
#include "enc_json.h"
#include "store.h"

/* The key prefix of gateway session rows (gw.h GW_KV_*), not copied. */
#define MIGRATE_SKIP_KV_PREFIX "gw."
#define MIGRATE_SQLITE_SCHEME "sqlite:"

static const char migrate_usage[] =
    "usage: fray migrate --from LOCATION --to LOCATION [--force]\n"
    "Copies every encounter (live and archived, with its kept history and\n"
    "undo chain), the recorded interactions, the bot's key/value rows\n"
    "(gateway sessions excepted), the saved rolls (macros) and the saved\n"
    "characters and NPC templates from one store into another, in one\n"
    "transaction. LOCATION is sqlite:PATH (or a path) for an SQLite file,\n"
    "or postgres://... / a libpq conninfo for PostgreSQL, e.g.\n"
    "  fray migrate --from sqlite:/var/lib/fray/fray.db \\\n"
    "               --to postgres://fray@db.example/fray\n"
    "Stop fray first. The target must be empty unless --force, which adds\n"
    "the rows to what it holds (a channel live in both aborts the copy).\n";

struct migrate_opts {
    const char *from, *to;
    bool force;
};

struct migrate_run {
    struct store *to;
    int64_t live, archived, versions, interactions, kv, kv_skipped, sheets;
    int64_t macros;
    bool target_failed; /* else a failed export is the source's */
};

/* A live encounter's turn clock timer (store.h): not a row of its own in
 * the export, it follows from the live document, as every save keeps it. */
static enum bot_err copy_timer(struct store *to, const struct store_enc_rec *r)
{
    const char *doc = NULL;
    for (size_t i = 0; i < r->nver; i++)
        if (r->ver[i].version == r->version)
            doc = r->ver[i].doc;
    struct encounter *e = NULL;
    char why[160];
    if (r->ended || doc == NULL ||
        enc_json_load(doc, &e, why, sizeof why) != BOT_OK)
        return BOT_OK;       /* the import checked it already */
    int64_t next = enc_clock_next(e);
    enc_free(e);
    /* The language a command armed it with is not in the export: English
     * (the server's /config language: still wins) until a command re-arms
     * it. */
    return next > 0 ? store_timer_set(to, r->channel, r->guild, next,
                                      I18N_EN)
                    : BOT_OK;
}

static enum bot_err copy_encounter(void *ctx, const struct store_enc_rec *r)
{
    struct migrate_run *m = ctx;
    enum bot_err e = store_import_encounter(m->to, r);
    if (e == BOT_OK)
        e = copy_timer(m->to, r);
    if (e == BOT_OK) {
        *(r->ended ? &m->archived : &m->live) += 1;
        m->versions += (int64_t)r->nver;
    }
    m->target_failed = e != BOT_OK;
    return e;
}

static enum bot_err copy_interaction(void *ctx, const struct store_ix_rec *r)
{
    struct migrate_run *m = ctx;
    enum bot_err e = store_import_interaction(m->to, r);
    if (e == BOT_OK)
        m->interactions++;
    m->target_failed = e != BOT_OK;
    return e;
}

static enum bot_err copy_kv(void *ctx, const char *key, const char *value)
{
    struct migrate_run *m = ctx;
    if (strncmp(key, MIGRATE_SKIP_KV_PREFIX, strlen(MIGRATE_SKIP_KV_PREFIX)) ==
        0) {
        m->kv_skipped++;
        return BOT_OK;
    }
    enum bot_err e = store_kv_set(m->to, key, value);
    if (e == BOT_OK)
        m->kv++;
    m->target_failed = e != BOT_OK;
    return e;
}

static enum bot_err copy_sheet(void *ctx, const struct store_sheet *sh)
{
    struct migrate_run *m = ctx;
    enum bot_err e = store_import_sheet(m->to, sh);
    if (e == BOT_OK)
        m->sheets++;
    m->target_failed = e != BOT_OK;
    return e;
}

static enum bot_err copy_macro(void *ctx, const struct store_macro *mac)
{
    struct migrate_run *m = ctx;
    enum bot_err e = store_import_macro(m->to, mac);
    if (e == BOT_OK)
        m->macros++;
    m->target_failed = e != BOT_OK;
    return e;
}

/* Export callbacks that stop at the first row: BOT_LIMIT = not empty. */
static enum bot_err any_enc(void *ctx, const struct store_enc_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_LIMIT;
}

static enum bot_err any_ix(void *ctx, const struct store_ix_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_LIMIT;
}

static enum bot_err any_kv(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value;
    return BOT_LIMIT;
}

static enum bot_err any_sheet(void *ctx, const struct store_sheet *sh)
{
    (void)ctx;
    (void)sh;
    return BOT_LIMIT;
}

static enum bot_err any_macro(void *ctx, const struct store_macro *mac)
{
    (void)ctx;
    (void)mac;
    return BOT_LIMIT;
}

static int parse(int argc, char **argv, struct migrate_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
            o->from = argv[++i];
        else if (strcmp(argv[i], "--to") == 0 && i + 1 < argc)
            o->to = argv[++i];
        else if (strcmp(argv[i], "--force") == 0)
            o->force = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
        else
            return -1;
    }
    return o->from && o->to ? 0 : -1;
}

/* "sqlite:PATH" is PATH; anything else is given to store_open as is. */
static const char *location(const char *arg)
{
    size_t n = strlen(MIGRATE_SQLITE_SCHEME);
    return strncmp(arg, MIGRATE_SQLITE_SCHEME, n) == 0 ? arg + n : arg;
}

static struct store *open_or_say(const char *arg, const char *role)
{
    struct store *s = NULL;
    char err[STORE_MAX_ERR], shown[STORE_MAX_SHOWN];
    store_location_redact(location(arg), shown, sizeof shown);
    if (store_open(location(arg), &s, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "fray migrate: cannot open the %s %s: %s\n", role,
                shown, err);
        return NULL;
    }
    return s;
}

/* The copy itself, inside a transaction on both stores. */
static enum bot_err copy_all(struct store *from, struct migrate_run *m,
                             bool force)
{
    static const struct store_export_cb probe = {any_enc, any_ix, any_kv,
                                                 any_sheet};
    static const struct store_export_cb copy = {
        copy_encounter, copy_interaction, copy_kv, copy_sheet};
    enum bot_err e = store_export(m->to, &probe, NULL);
    if (e == BOT_OK)
        e = store_macro_export(m->to, any_macro, NULL);
    if (e == BOT_LIMIT && !force) {
        fprintf(stderr, "fray migrate: the target already holds data; "
                        "nothing copied (--force adds to it)\n");
        return BOT_CONFLICT;
    }
    if (e != BOT_OK && e != BOT_LIMIT) {
        fprintf(stderr, "fray migrate: reading the target: %s\n",
                store_errmsg(m->to));
        return e;
    }
    e = store_export(from, &copy, m);
    if (e == BOT_OK)
        e = store_macro_export(from, copy_macro, m);
    if (e != BOT_OK)
        fprintf(stderr, "fray migrate: copy failed, nothing copied: %s\n",
                store_errmsg(m->target_failed ? m->to : from));
    return e;
}

int cli_migrate(int argc, char **argv)
{
    struct migrate_opts o;
    int p = parse(argc, argv, &o);
    if (p != 0) {
        fputs(migrate_usage, p > 0 ? stdout : stderr);
        return p > 0 ? CLI_OK : CLI_USAGE;
    }
    struct migrate_run m = {0};
    struct store *from = open_or_say(o.from, "source");
    m.to = from ? open_or_say(o.to, "target") : NULL;
    if (!m.to) {
        store_close(from);
        return CLI_FAIL;
    }
    enum bot_err e = store_begin(from);
    if (e == BOT_OK) {
        e = store_begin(m.to);
        if (e == BOT_OK) {
            e = copy_all(from, &m, o.force);
            if (e != BOT_OK) {
                store_rollback(m.to);
            } else {
                e = store_commit(m.to);
                if (e != BOT_OK)
                    fprintf(stderr, "fray migrate: committing: %s\n",
                            store_errmsg(m.to));
            }
        } else {
            fprintf(stderr, "fray migrate: %s\n", store_errmsg(m.to));
        }
        store_rollback(from); /* read only */
    } else {
        fprintf(stderr, "fray migrate: %s\n", store_errmsg(from));
    }
    if (e == BOT_OK)
        printf("copied %lld live and %lld archived encounters (%lld "
               "versions), %lld interactions, %lld keys (%lld gateway "
               "session keys not copied), %lld saved sheets, %lld saved "
               "rolls\n",
               (long long)m.live, (long long)m.archived, (long long)m.versions,
               (long long)m.interactions, (long long)m.kv,
               (long long)m.kv_skipped, (long long)m.sheets,
               (long long)m.macros);
    store_close(m.to);
    store_close(from);
    return e == BOT_OK ? CLI_OK : CLI_FAIL;
}
