/* store_fixture.c - see store_fixture.h. */
#include "store_fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "pg_cluster.h"

enum bot_err store_fx_undo_once(struct store *s, uint64_t channel)
{
    char *live_doc = NULL, *doc = NULL;
    int64_t live = 0, target = 0;
    enum bot_err e = store_enc_load(s, channel, &live_doc, &live);
    free(live_doc);
    if (e == BOT_OK)
        e = store_enc_load_before(s, channel, live, &doc, &target);
    if (e == BOT_OK)
        e = store_enc_save_undo(s, channel, live + 1, doc);
    free(doc);
    return e;
}

enum bot_err store_fx_skip_enc(void *ctx, const struct store_enc_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_fx_skip_ix(void *ctx, const struct store_ix_rec *r)
{
    (void)ctx;
    (void)r;
    return BOT_OK;
}

enum bot_err store_fx_skip_kv(void *ctx, const char *key, const char *value)
{
    (void)ctx;
    (void)key;
    (void)value;
    return BOT_OK;
}

static enum bot_err count_row(void *ctx, const char *key, const char *value)
{
    (void)key;
    (void)value;
    ++*(int *)ctx;
    return BOT_OK;
}

int store_fx_kv_count(struct store *s, const char *prefix)
{
    int n = 0;
    return store_kv_scan(s, prefix, count_row, &n) == BOT_OK ? n : -1;
}

const char *store_fx_location(bool pg)
{
    return pg ? pg_test_cluster()->conninfo : ":memory:";
}

int store_fx_open(void **state, bool pg, const char *truncate)
{
    struct store *s = NULL;
    char err[256];
    if (store_open(store_fx_location(pg), &s, err, sizeof err) != BOT_OK) {
        fprintf(stderr, "store_open: %s\n", err);
        return -1;
    }
    if (pg && truncate != NULL &&
        pg_cluster_exec(store_fx_location(true), truncate, err,
                        sizeof err) != 0) {
        fprintf(stderr, "truncate: %s\n", err);
        store_close(s);
        return -1;
    }
    *state = s;
    return 0;
}

int store_fx_close(void **state)
{
    store_close(*state);
    return 0;
}
