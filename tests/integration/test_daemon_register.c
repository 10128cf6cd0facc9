/* test_daemon_register.c - command registration at READY through
 * fake-discord: the first start PUTs the global set; a restart of the same
 * build (a new session, so READY again) finds the set's inputs unchanged
 * and neither builds nor PUTs it; a set whose inputs changed, as a new
 * build's do, is built, and PUT only when its body changed too. */
#include "support.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "daemon_harness.h"
#include "register.h"
#include "store.h"

#define REG_INPUT_KEY REGISTER_KV_INPUT ":global"
#define REG_HASH_KEY REGISTER_KV_HASH ":global"
#define REG_STALE "0000000000000000"

/* Stop fray and ready its next start: forget the gateway session (so it
 * identifies and gets READY, where registration happens), and store
 * input / hash as the global set's last registered ones (NULL: keep). */
static void restart_prepare(struct harness *h, const char *input,
                            const char *hash)
{
    struct store *s = NULL;
    char err[256];
    kill(h->fray, SIGTERM);
    assert_int_equal(harness_wait_exit(h, 6000), 0);
    assert_int_equal(store_open(h->db, &s, err, sizeof err), BOT_OK);
    static const char *const session[] = {"gw.session_id", "gw.resume_url",
                                          "gw.seq"};
    for (size_t i = 0; i < sizeof session / sizeof session[0]; i++) {
        enum bot_err e = store_kv_delete(s, session[i]);
        assert_true(e == BOT_OK || e == BOT_NOTFOUND);
    }
    if (input)
        assert_int_equal(store_kv_set(s, REG_INPUT_KEY, input), BOT_OK);
    if (hash)
        assert_int_equal(store_kv_set(s, REG_HASH_KEY, hash), BOT_OK);
    store_close(s);
}

/* The value stored under key (a fresh string). */
static char *stored(struct harness *h, const char *key)
{
    struct store *s = NULL;
    char err[256], *v = NULL;
    assert_int_equal(store_open(h->db, &s, err, sizeof err), BOT_OK);
    assert_int_equal(store_kv_get(s, key, &v), BOT_OK);
    store_close(s);
    return v;
}

static void test_register_only_what_changed(void **state)
{
    struct harness h;
    /* one identify a start, none refused for coming too soon */
    const char *const args[] = {"--identify-gap-ms", "0", NULL};
    (void)state;

    harness_start(&h, args, NULL, true);
    harness_wait_stat(&h, "command_puts", 1);
    harness_wait_log(&h, "register: commands updated (global)", 1);

    /* the same build again: not built, not PUT */
    restart_prepare(&h, NULL, NULL);
    char *input = stored(&h, REG_INPUT_KEY);
    assert_int_equal(strlen(input), 16);
    harness_start_fray(&h, NULL);
    harness_wait_log(&h, "register: global unchanged (inputs", 1);
    assert_int_equal(harness_log_count(&h, "register: global unchanged "
                                           "(hash"), 0);
    assert_int_equal(fake_stat(h.fake.port, "command_puts"), 1);

    /* other inputs, the same body: built, found registered, not PUT, and
     * the inputs remembered for the next start */
    restart_prepare(&h, REG_STALE, NULL);
    harness_start_fray(&h, NULL);
    harness_wait_log(&h, "register: global unchanged (hash", 1);
    assert_int_equal(fake_stat(h.fake.port, "command_puts"), 1);

    /* other inputs and another body: PUT again */
    restart_prepare(&h, REG_STALE, REG_STALE);
    char *again = stored(&h, REG_INPUT_KEY);
    assert_string_equal(again, REG_STALE);
    free(again);
    harness_start_fray(&h, NULL);
    harness_wait_stat(&h, "command_puts", 2);
    harness_wait_log(&h, "register: commands updated (global)", 2);
    json_t *cmds = fake_get_json(h.fake.port, "/_test/commands", NULL);
    assert_true(json_array_size(json_object_get(
                    json_object_get(cmds, "scopes"), "global")) > 0);
    json_decref(cmds);

    restart_prepare(&h, NULL, NULL);
    again = stored(&h, REG_INPUT_KEY);
    assert_string_equal(again, input);    /* this build's, saved by the PUT */
    free(again);
    free(input);
    harness_start_fray(&h, NULL);
    harness_wait_log(&h, "register: global unchanged (inputs", 2);
    assert_int_equal(fake_stat(h.fake.port, "command_puts"), 2);
    harness_assert_no_violations(&h);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_only_what_changed),
    };
    return cmocka_run_group_tests_name("daemon_register", tests, NULL, NULL);
}
