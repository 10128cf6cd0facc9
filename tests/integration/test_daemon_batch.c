/* test_daemon_batch.c - group commit: many interactions across channels
 * arriving at once are all answered, every change is on disk once fray
 * has stopped (the database is opened and each channel's version and hit
 * points checked), refused commands change nothing, and fake-discord saw
 * no violation. */
#include "support.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"
#include "enc_json.h"
#include "store.h"

#define CHANNELS 10
#define BASE_CHANNEL UINT64_C(1100000000000000200) /* the fake's default */
#define LOAD_COUNT 400            /* a multiple of CHANNELS */
#define LOAD_CONCURRENCY 40
#define BURST 30
#define START_HP 1000000
#define LOAD_WAIT_MS 90000        /* generous: a loaded ASan machine */
#define ADMIN_PERMS "8"

static void channel_text(int k, char out[24])
{
    snprintf(out, 24, "%" PRIu64, BASE_CHANNEL + (uint64_t)k);
}

/* /combat <sub> with options as an interaction description. */
static json_t *combat_desc(int k, const char *sub, json_t *opts)
{
    char ch[24];
    channel_text(k, ch);
    return json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:o}]}", "type",
                     "command", "name", "combat", "channel_id", ch,
                     "permissions", ADMIN_PERMS, "options", "name", sub,
                     "options", opts);
}

static void expect_ok(struct harness *h, json_t *desc)
{
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    json_int_t flags = json_integer_value(json_object_get(
        json_object_get(cb, "data"), "flags"));
    if (flags & 64) {
        char *s = json_dumps(cb, 0);
        harness_dump_log(h);
        fail_msg("command refused: %s", s);
    }
    json_decref(cb);
}

static json_t *hp_change(int k, const char *who, const char *change)
{
    return combat_desc(k, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value", who, "name",
                                          "change", "value", change));
}

/* Wait for the load generator to finish; returns its final status. */
static json_t *wait_load(struct harness *h)
{
    for (int waited = 0; waited < LOAD_WAIT_MS; waited += 50) {
        json_t *st = fake_get_json(h->fake.port, "/_test/load", NULL);
        if (st != NULL && json_is_false(json_object_get(st, "active")))
            return st;
        json_decref(st);
        fake_sleep_ms(50);
    }
    harness_dump_log(h);
    fail_msg("the load run did not finish in %d ms", LOAD_WAIT_MS);
    return NULL;
}

/* The live encounter of channel k in the stopped daemon's database. */
static struct encounter *stored(struct store *st, int k)
{
    char *doc = NULL, err[160];
    int64_t version = 0;
    struct encounter *e = NULL;
    assert_int_equal(store_enc_load(st, BASE_CHANNEL + (uint64_t)k, &doc,
                                    &version), BOT_OK);
    assert_int_equal(enc_json_load(doc, &e, err, sizeof err), BOT_OK);
    e->version = version;
    free(doc);
    return e;
}

static void test_daemon_batch_many_channels(void **state)
{
    struct harness h;
    (void)state;

    /* one user sends the whole load, 40 a channel: group commit is what
     * this test is about, not the limits (test_daemon_flood) */
    harness_start_conf(&h, NULL, NULL, true,
                       "[limits]\nuser_per_minute = 0\n"
                       "channel_per_minute = 0\n");
    for (int k = 0; k < CHANNELS; k++) {
        expect_ok(&h, combat_desc(k, "start", json_pack("[{s:s,s:s}]",
                                                        "name", "system",
                                                        "value",
                                                        "generic")));
        expect_ok(&h, combat_desc(k, "add", json_pack(
                                      "[{s:s,s:s},{s:s,s:i}]", "name", "name",
                                      "value", "Orc", "name", "hp", "value",
                                      START_HP)));
    }

    /* The load generator keeps LOAD_CONCURRENCY interactions in flight,
     * round-robin over the channels: each group's replies release the
     * next ones together. */
    json_t *cmd = hp_change(0, "Orc", "-1");
    json_object_del(cmd, "channel_id");
    json_t *load = json_pack("{s:i, s:i, s:i, s:o}", "count", LOAD_COUNT,
                             "channels", CHANNELS, "concurrency",
                             LOAD_CONCURRENCY, "command", cmd);
    char *text = json_dumps(load, JSON_COMPACT);
    int status = 0;
    json_t *r = fake_post_json(h.fake.port, "/_test/load", text, &status);
    free(text);
    json_decref(load);
    json_decref(r);
    assert_int_equal(status, 200);
    json_t *st = wait_load(&h);
    assert_int_equal(json_integer_value(json_object_get(st, "answered")),
                     LOAD_COUNT);
    assert_int_equal(json_integer_value(json_object_get(st, "missed")), 0);
    json_decref(st);

    /* A burst injected back to back: every third one names nobody and is
     * refused, alone, without taking its neighbours down with it. */
    char ids[BURST][32];
    for (int i = 0; i < BURST; i++) {
        json_t *desc = hp_change(i % CHANNELS, i % 3 == 2 ? "Nobody" : "Orc",
                                 "-2");
        text = json_dumps(desc, JSON_COMPACT);
        json_decref(desc);
        r = fake_inject(h.fake.port, text);
        free(text);
        assert_non_null(r);
        snprintf(ids[i], sizeof ids[i], "%s",
                 json_string_value(json_object_get(r, "id")));
        json_decref(r);
    }
    for (int i = 0; i < BURST; i++) {
        json_t *cb = harness_callback(&h, ids[i]);
        json_t *data = json_object_get(json_object_get(cb, "body"), "data");
        bool refused = json_integer_value(json_object_get(data, "flags")) &
                       64;
        if (refused != (i % 3 == 2)) {
            harness_dump_log(&h);
            fail_msg("interaction %d: refused %d", i, refused);
        }
        json_decref(cb);
    }

    kill(h.fray, SIGTERM);
    int rc = harness_wait_exit(&h, 15000);
    if (rc != 0) {
        harness_dump_log(&h);
        fail_msg("fray exited with %d", rc);
    }

    /* Everything answered is on disk. */
    char path[600], err[256];
    struct store *db = NULL;
    snprintf(path, sizeof path, "%s/fray.db", h.dir);
    assert_int_equal(store_open(path, &db, err, sizeof err), BOT_OK);
    for (int k = 0; k < CHANNELS; k++) {
        int burst_ok = 0;
        for (int i = k; i < BURST; i += CHANNELS)
            burst_ok += i % 3 != 2;
        struct encounter *e = stored(db, k);
        int64_t hp = enc_track(enc_by_name(e, "Orc"), "hp")->cur;
        assert_int_equal(e->version,
                         2 + LOAD_COUNT / CHANNELS + burst_ok);
        assert_int_equal(hp, START_HP - LOAD_COUNT / CHANNELS -
                                 2 * burst_ok);
        enc_free(e);
    }
    bool ok = false;
    assert_int_equal(store_integrity_check(db, &ok), BOT_OK);
    assert_true(ok);
    store_close(db);

    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daemon_batch_many_channels),
    };
    return cmocka_run_group_tests_name("daemon_batch", tests, NULL, NULL);
}
