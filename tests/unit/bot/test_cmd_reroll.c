/*
 * Tests for what can be done with a posted roll (issue 31 part 4): the
 * records of rolls (bot/cmd/cmd_rollrec.c: written with the roll, read
 * back whole, at most CMD_ROLLREC_PER_CHANNEL per channel and
 * CMD_ROLLREC_KEEP_MS old) and the commands behind Discord's message menus
 * (bot/cmd/cmd_reroll.c): /reroll rolls the same dice again and is itself
 * a roll, /explain answers privately with every die and the total, /apply
 * is the GM's and takes the total off a combatant the way each of the six
 * systems takes damage. Refusals: a message that is not a roll, a bad or
 * unknown number, a roll too old, someone else's secret roll, a player's
 * /apply, a roll of several totals, a dead target.
 */
#include "support.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "cmd_rollq.h"
#include "cmd_rollrec.h"
#include "store.h"

enum { GM = 100, ALICE = 200, BOB = 300 };

static struct cmd_rollrec *rec(uint64_t channel, int64_t at_ms,
                               const char *id)
{
    struct cmd_rollrec *r = calloc(1, sizeof *r);
    assert_non_null(r);
    snprintf(r->id, sizeof r->id, "%s", id);
    r->guild = 9;
    r->channel = channel;
    r->user = ALICE;
    snprintf(r->user_name, sizeof r->user_name, "alice \"the bold\"");
    r->at_ms = at_ms;
    snprintf(r->expr, sizeof r->expr, "2d6+3");
    r->dialect = DICE_DIALECT_ROLL20;
    snprintf(r->label, sizeof r->label, "fire");
    r->rolls = 1;
    r->total = 11;
    snprintf(r->text, sizeof r->text, "2d6 (**6**, 2)+3 = 11");
    return r;
}

static void test_rollrec_roundtrip(void **state)
{
    (void)state;
    struct cmd_rollrec *r = rec(7, 1000, "1234567890123456789");
    r->secret = true;
    r->seq = 4;
    snprintf(r->reroll_of, sizeof r->reroll_of, "42");
    char *json = cmd_rollrec_encode(r);
    assert_non_null(json);
    struct cmd_rollrec *back = malloc(sizeof *back);
    assert_true(cmd_rollrec_decode(json, back));
    assert_string_equal(back->id, r->id);
    assert_string_equal(back->user_name, r->user_name);
    assert_string_equal(back->expr, "2d6+3");
    assert_int_equal(back->dialect, DICE_DIALECT_ROLL20);
    assert_true(back->secret);
    assert_int_equal(back->total, 11);
    assert_int_equal(back->seq, 4);
    assert_string_equal(back->reroll_of, "42");
    assert_string_equal(back->text, r->text);
    /* what is not a record is refused, not half-read */
    assert_false(cmd_rollrec_decode("{}", back));
    assert_false(cmd_rollrec_decode("not json", back));
    char *bad = strdup(json);
    char *at = strstr(bad, "\"rolls\":1");
    assert_non_null(at);
    memcpy(at, "\"rolls\":0", 9);
    assert_false(cmd_rollrec_decode(bad, back));
    free(bad);
    assert_false(cmd_rollrec_id_ok(""));
    assert_false(cmd_rollrec_id_ok("12a"));
    assert_false(cmd_rollrec_id_ok("1234567890123456789012345"));
    assert_true(cmd_rollrec_id_ok("1"));
    free(json);
    free(back);
    free(r);
}

/* A record as jansson wrote it (json_pack, then json_dumps), field by
 * field: the encoding records had before they were written as text. */
static char *jansson_encode(const struct cmd_rollrec *r)
{
    char g[24], c[24], u[24];
    snprintf(g, sizeof g, "%" PRIu64, r->guild);
    snprintf(c, sizeof c, "%" PRIu64, r->channel);
    snprintf(u, sizeof u, "%" PRIu64, r->user);
    json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:b,"
                          "s:i,s:I,s:s,s:s}",
                          "id", r->id, "guild", g, "channel", c, "user", u,
                          "name", r->user_name, "at", (json_int_t)r->at_ms,
                          "seq", (json_int_t)r->seq, "expr", r->expr,
                          "dialect", dice_dialect_name(r->dialect),
                          "label", r->label, "secret", r->secret,
                          "rolls", (int)r->rolls,
                          "total", (json_int_t)r->total, "text", r->text,
                          "reroll_of", r->reroll_of);
    assert_non_null(j);
    char *out = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return out;
}

/* A record's text is what fray wrote before it wrote records as text,
 * byte for byte, whatever a name, label or dice text holds (quotes,
 * backslashes, a slash, control characters, non-ASCII): rows written by
 * an older fray read back, and rows written now read in an older one. */
static void test_rollrec_encoding_unchanged(void **state)
{
    (void)state;
    struct cmd_rollrec *r = rec(7, 1000, "1234567890123456789");
    r->guild = UINT64_MAX;
    r->secret = true;
    r->seq = 123;
    r->rolls = 6;
    r->total = -4;
    snprintf(r->user_name, sizeof r->user_name,
             "a \"q\" \\ / \n\t\x01 \xc3\xa9 \xf0\x9f\x8e\xb2");
    snprintf(r->label, sizeof r->label, "fire/ice <b>");
    snprintf(r->text, sizeof r->text,
             "`2d6` (**6**, 2)\n+3 = 11 \xe2\x9c\x93 \x7f");
    snprintf(r->reroll_of, sizeof r->reroll_of, "42");
    char *mine = cmd_rollrec_encode(r);
    char *theirs = jansson_encode(r);
    assert_non_null(mine);
    assert_string_equal(mine, theirs);
    free(mine);
    free(theirs);
    /* a row exactly as an older fray wrote it */
    static const char old_row[] =
        "{\"id\":\"111\",\"guild\":\"9\",\"channel\":\"7\",\"user\":\"200\","
        "\"name\":\"alice\",\"at\":1000,\"seq\":3,\"expr\":\"2d6+3\","
        "\"dialect\":\"roll20\",\"label\":\"fire\",\"secret\":false,"
        "\"rolls\":1,\"total\":11,\"text\":\"2d6 (**6**, 2)+3 = 11\","
        "\"reroll_of\":\"\"}";
    assert_true(cmd_rollrec_decode(old_row, r));
    assert_string_equal(r->id, "111");
    assert_int_equal(r->seq, 3);
    assert_int_equal(r->dialect, DICE_DIALECT_ROLL20);
    char *again = cmd_rollrec_encode(r);
    assert_string_equal(again, old_row);
    free(again);
    free(r);
}

/* A channel's rows from before the upgrade (with the count an older fray
 * kept beside them) are found by id and as the last roll, and the next
 * roll takes the number after the newest row's. */
static void test_rollrec_rows_from_before(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_rollrec *got = malloc(sizeof *got);
    struct cmd_rollrec *r = rec(5, 1000, "900");
    for (int seq = 1; seq <= 3; seq++) {
        char key[STORE_MAX_KV_KEY + 1];
        snprintf(r->id, sizeof r->id, "%d", 900 + seq);
        r->seq = seq;
        r->at_ms = 1000 + seq;
        snprintf(key, sizeof key, CMD_ROLLREC_KV_PREFIX "5:%012d:%d:%s", seq,
                 1000 + seq, r->id);
        char *v = jansson_encode(r);
        assert_int_equal(store_kv_set(f->store, key, v), BOT_OK);
        free(v);
    }
    assert_int_equal(store_kv_set(f->store, CMD_ROLLREC_SEQ_PREFIX "5",
                                  "3:1003"), BOT_OK);
    assert_int_equal(cmd_rollrec_get(f->store, 5, "902", got), BOT_OK);
    assert_int_equal(got->seq, 2);
    assert_int_equal(cmd_rollrec_get(f->store, 5, NULL, got), BOT_OK);
    assert_string_equal(got->id, "903");
    free(r);
    r = rec(5, 2000, "");
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    assert_int_equal(r->seq, 4);
    assert_string_equal(r->id, "4");
    assert_int_equal(cmd_rollrec_get(f->store, 5, NULL, got), BOT_OK);
    assert_string_equal(got->id, "4");
    assert_int_equal(cmd_rollrec_get(f->store, 5, "901", got), BOT_OK);
    free(r);
    free(got);
}

/* A channel keeps its last CMD_ROLLREC_PER_CHANNEL rolls; another
 * channel's are its own; "the last" is the newest. */
static void test_rollrec_count_limit(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_rollrec *got = malloc(sizeof *got);
    int total = CMD_ROLLREC_PER_CHANNEL + 5;
    for (int i = 1; i <= total; i++) {
        struct cmd_rollrec *r = rec(1, 1000 + i, "");
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        char want[24];
        snprintf(want, sizeof want, "%d", i);
        assert_string_equal(r->id, want);   /* numbered from 1 */
        free(r);
    }
    struct cmd_rollrec *other = rec(2, 1000, "555");
    assert_int_equal(cmd_rollrec_put(f->store, other), BOT_OK);
    free(other);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "5", got), BOT_NOTFOUND);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "6", got), BOT_OK);
    assert_int_equal(got->seq, 6);
    assert_int_equal(cmd_rollrec_get(f->store, 1, NULL, got), BOT_OK);
    assert_int_equal(got->seq, total);
    assert_int_equal(cmd_rollrec_get(f->store, 2, "555", got), BOT_OK);
    assert_int_equal(cmd_rollrec_get(f->store, 2, "6", got), BOT_NOTFOUND);
    assert_int_equal(cmd_rollrec_get(f->store, 3, NULL, got), BOT_NOTFOUND);
    free(got);
}

static enum bot_err count_rows(void *ctx, const char *key,
                               const char *value)
{
    (void)key;
    (void)value;
    (*(int *)ctx)++;
    return BOT_OK;
}

/* A channel's rows are tidied once in CMD_ROLLREC_TIDY_EVERY rolls: never
 * more than the count plus that many less one, whatever was rolled. */
static void test_rollrec_rows_bounded(void **state)
{
    struct cmd_fx *f = *state;
    int most = 0;
    for (int i = 1; i <= 3 * CMD_ROLLREC_PER_CHANNEL; i++) {
        struct cmd_rollrec *r = rec(7, 1000 + i, "");
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        free(r);
        int rows = 0;
        assert_int_equal(store_kv_scan(f->store, CMD_ROLLREC_KV_PREFIX "7:",
                                       count_rows, &rows), BOT_OK);
        if (rows > most)
            most = rows;
    }
    assert_int_equal(most,
                     CMD_ROLLREC_PER_CHANNEL + CMD_ROLLREC_TIDY_EVERY - 1);
}

/* The console's numbered rolls older than CMD_ROLLREC_KEEP_MS are gone
 * for readers when their channel rolls again; their rows go by the prune pass, a batch at a
 * time (channel 1's aged row too: a channel's tidy drops by count
 * alone), and a channel with no roll left starts again at 1. The counts
 * an older fray kept per channel (rollseq:<channel> = "seq:at") go with
 * the rolls they counted. */
static void test_rollrec_age_limit(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_rollrec *got = malloc(sizeof *got);
    int64_t t0 = INT64_C(1700000000000);
    char old_count[48];
    snprintf(old_count, sizeof old_count, "1:%" PRId64, t0);
    assert_int_equal(store_kv_set(f->store, CMD_ROLLREC_SEQ_PREFIX "2",
                                  old_count), BOT_OK);
    snprintf(old_count, sizeof old_count, "1:%" PRId64,
             t0 + CMD_ROLLREC_KEEP_MS + 1);
    assert_int_equal(store_kv_set(f->store, CMD_ROLLREC_SEQ_PREFIX "1",
                                  old_count), BOT_OK);
    for (uint64_t ch = 1; ch <= 3; ch++) {
        struct cmd_rollrec *r = rec(ch, t0, "");
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        free(r);
    }
    struct cmd_rollrec *r = rec(1, t0 + CMD_ROLLREC_KEEP_MS + 1, "");
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    free(r);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "1", got), BOT_NOTFOUND);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "2", got), BOT_OK);
    int64_t n = -1;
    assert_int_equal(cmd_rollrec_prune(f->store, t0 + 1, 1, &n), BOT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(cmd_rollrec_prune(f->store, t0 + 1, 10, &n), BOT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cmd_rollrec_prune(f->store, t0 + 1, 10, &n), BOT_OK);
    assert_int_equal(n, 0);
    assert_int_equal(cmd_rollrec_get(f->store, 2, NULL, got), BOT_NOTFOUND);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "2", got), BOT_OK);
    char *count = NULL;
    assert_int_equal(store_kv_get(f->store, CMD_ROLLREC_SEQ_PREFIX "2",
                                  &count), BOT_NOTFOUND);
    assert_int_equal(store_kv_get(f->store, CMD_ROLLREC_SEQ_PREFIX "1",
                                  &count), BOT_OK);
    free(count);
    r = rec(2, t0 + CMD_ROLLREC_KEEP_MS + 2, "");
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    assert_string_equal(r->id, "1");
    free(r);
    free(got);
}

/* A Discord snowflake made at ms (since the Unix epoch), the i-th of that
 * millisecond. */
static int64_t flake(int64_t ms, int i)
{
    return ((ms - CMD_ROLLREC_DISCORD_EPOCH_MS)
            << CMD_ROLLREC_SNOWFLAKE_MS_SHIFT) | i;
}

static struct cmd_rollrec *flake_rec(uint64_t channel, int64_t ms, int i)
{
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, flake(ms, i));
    return rec(channel, ms, id);
}

/* A Discord roll is one row of the store's roll table, not a key/value
 * row; it has no number in its channel, and it is found by its id only
 * from the channel it was rolled in. */
static void test_rollrec_table_own_channel(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_rollrec *got = malloc(sizeof *got);
    int64_t t0 = INT64_C(1700000000000);
    struct cmd_rollrec *r = flake_rec(7, t0, 1);
    char id[CMD_ROLLREC_ID_MAX + 1];
    snprintf(id, sizeof id, "%s", r->id);
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    assert_int_equal(r->seq, 0);
    free(r);
    int rows = 0;
    assert_int_equal(store_kv_scan(f->store, CMD_ROLLREC_KV_PREFIX,
                                   count_rows, &rows), BOT_OK);
    assert_int_equal(rows, 0);
    char *v = NULL;
    assert_int_equal(store_rollrec_get(f->store, flake(t0, 1), 7, &v), BOT_OK);
    free(v);
    assert_int_equal(cmd_rollrec_get(f->store, 7, id, got), BOT_OK);
    assert_string_equal(got->id, id);
    assert_int_equal(got->channel, 7);
    assert_string_equal(got->expr, "2d6+3");
    assert_int_equal(got->seq, 0);
    /* another channel does not find it, nor "the channel's last" */
    assert_int_equal(cmd_rollrec_get(f->store, 8, id, got), BOT_NOTFOUND);
    assert_int_equal(store_rollrec_get(f->store, flake(t0, 1), 8, &v),
                     BOT_NOTFOUND);
    assert_null(v);
    assert_int_equal(cmd_rollrec_get(f->store, 7, NULL, got), BOT_NOTFOUND);
    free(got);
}

/* The table's bounds: rows past CMD_ROLLREC_KEEP_MS (read from the id) go
 * as one range of the lowest ids, by the prune pass and by a roll's own
 * tidy; past a global count, the lowest ids go first, a batch at most at
 * a time. Whatever the channel. */
static void test_rollrec_table_bounds(void **state)
{
    struct cmd_fx *f = *state;
    struct cmd_rollrec *got = malloc(sizeof *got);
    char *v = NULL;
    int64_t t0 = INT64_C(1700000000000), t1 = t0 + CMD_ROLLREC_KEEP_MS + 1;
    for (int i = 0; i < 3; i++) {
        struct cmd_rollrec *r = flake_rec((uint64_t)(10 + i), t0, i);
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        free(r);
    }
    for (int i = 0; i < 2; i++) {
        struct cmd_rollrec *r = flake_rec((uint64_t)(10 + i), t1, i);
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        free(r);
    }
    int64_t n = -1;
    assert_int_equal(cmd_rollrec_prune(f->store, t0 + 1, 10, &n), BOT_OK);
    assert_int_equal(n, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_rollrec_get(f->store, flake(t0, i),
                                           (uint64_t)(10 + i), &v),
                         BOT_NOTFOUND);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(store_rollrec_get(f->store, flake(t1, i),
                                           (uint64_t)(10 + i), &v), BOT_OK);
        free(v);
    }
    assert_int_equal(cmd_rollrec_prune(f->store, t0 + 1, 10, &n), BOT_OK);
    assert_int_equal(n, 0);

    /* a roll's own tidy, about one in CMD_ROLLREC_TIDY_EVERY: within
     * 20 times that many rolls a week later, the week-old rows are gone */
    int64_t t2 = t1 + CMD_ROLLREC_KEEP_MS + 1;
    for (int i = 0; i < 20 * CMD_ROLLREC_TIDY_EVERY; i++) {
        struct cmd_rollrec *r = flake_rec(20, t2 + i, 0);
        assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
        free(r);
    }
    assert_int_equal(store_rollrec_get(f->store, flake(t1, 0), 10, &v),
                     BOT_NOTFOUND);
    assert_int_equal(store_rollrec_get(f->store, flake(t2, 0), 20, &v),
                     BOT_OK);
    free(v);

    /* the global count: the lowest ids first, at most a batch a call */
    int total = 20 * CMD_ROLLREC_TIDY_EVERY;
    assert_int_equal(store_rollrec_trim(f->store, 0, total - 5, 3, &n),
                     BOT_OK);
    assert_int_equal(n, 3);
    assert_int_equal(store_rollrec_trim(f->store, 0, total - 5, 100, &n),
                     BOT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(store_rollrec_trim(f->store, 0, total - 5, 100, &n),
                     BOT_OK);
    assert_int_equal(n, 0);
    for (int i = 0; i < total; i++) {
        enum bot_err e = store_rollrec_get(f->store, flake(t2 + i, 0), 20, &v);
        assert_int_equal(e, i < 5 ? BOT_NOTFOUND : BOT_OK);
        free(v);
    }
    assert_int_equal(cmd_rollrec_get(f->store, 20, NULL, got), BOT_NOTFOUND);
    assert_int_equal(store_rollrec_trim(f->store, 0, 1, 0, &n), BOT_INVALID);
    free(got);
}

static void test_reroll_same_dice(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "2d6+3 fire",
                           NULL));
    assert_true(cmd_fx_run(f, BOB, "reroll", NULL, NULL));
    assert_false(f->reply.ephemeral);
    cmd_fx_has(f, "rerolls: fire");
    cmd_fx_has(f, "Reroll of roll #1");
    cmd_fx_has(f, "2d6 (");
    /* the reroll is a roll of its own: explained, rerolled */
    assert_true(cmd_fx_run(f, ALICE, "explain", NULL, NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "Roll #2 by tester");
    cmd_fx_has(f, "Dice: 2d6+3, read as");
    cmd_fx_has(f, "For: fire");
    cmd_fx_has(f, "A reroll of roll #1");
    cmd_fx_has(f, "Total: ");
    cmd_fx_has(f, "Marks:");
    assert_true(cmd_fx_run(f, ALICE, "reroll", NULL, "roll", "2", NULL));
    cmd_fx_has(f, "Reroll of roll #2");
    /* nothing to reroll, a bad number, an unknown one */
    assert_false(cmd_fx_run(f, ALICE, "explain", NULL, "roll", "x1", NULL));
    cmd_fx_has(f, "roll: is a roll's number");
    assert_false(cmd_fx_run(f, ALICE, "explain", NULL, "roll", "99", NULL));
    cmd_fx_has(f, "does not remember that roll");
}

/* Explain shows the dice as written: in its code span a > or * stands
 * as typed, not after a backslash that Discord would show there. */
static void test_explain_dice_as_written(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "10d10>=8",
                           NULL));
    assert_true(cmd_fx_run(f, ALICE, "explain", NULL, NULL));
    assert_int_equal(f->reply.msg.nembeds, 1);
    const char *d = f->reply.msg.embeds[0].description;
    assert_non_null(d);
    if (strstr(d, "`10d10>=8`") == NULL)
        fail_msg("the dice not as written: %s", d);
}

static void test_reroll_none_yet(void **state)
{
    struct cmd_fx *f = *state;
    assert_false(cmd_fx_run(f, ALICE, "reroll", NULL, NULL));
    cmd_fx_has(f, "there is no roll in this channel yet");
    assert_true(f->reply.is_error);
}

/* A secret roll is its roller's: nobody else rerolls or reads it. */
static void test_secret_roll_is_the_rollers(void **state)
{
    struct cmd_fx *f = *state;
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "1d20+7",
                           "secret", "true", NULL));
    assert_false(cmd_fx_run(f, BOB, "explain", NULL, NULL));
    cmd_fx_has(f, "that roll was secret");
    assert_null(strstr(f->text, "1d20+7"));
    assert_false(cmd_fx_run(f, BOB, "reroll", NULL, NULL));
    cmd_fx_has(f, "that roll was secret");
    assert_true(cmd_fx_run(f, ALICE, "reroll", NULL, NULL));
    assert_true(f->reply.ephemeral);
    cmd_fx_has(f, "rerolls in secret");
}

/* A request from Discord in server 9's channel 1, as user. */
static struct cmd_req discord_req(const char *command, uint64_t user,
                                  int64_t now_ms)
{
    return (struct cmd_req){
        .source = CMD_SRC_DISCORD,
        .command = command,
        .channel_id = 1,
        .guild_id = 9,
        .user_id = user,
        .user_name = "tester",
        .expect_version = -1,
        .now_ms = now_ms,
    };
}

/* Run req; f->text holds the reply's content, or its first embed's text.
 * True when accepted. */
static bool run_req(struct cmd_fx *f, const struct cmd_req *req)
{
    cmd_reply_cleanup(&f->reply);
    assert_true(cmd_exec(&f->ctx, req, &f->reply));
    snprintf(f->text, sizeof f->text, "%s",
             f->reply.msg.content ? f->reply.msg.content : "");
    if (f->reply.msg.nembeds > 0 && f->reply.msg.embeds[0].description)
        snprintf(f->text, sizeof f->text, "%s",
                 f->reply.msg.embeds[0].description);
    return !f->reply.is_error;
}

/* A message's menu (Discord): the message and, when fray posted a roll
 * there, its interaction as roll:. */
static bool menu(struct cmd_fx *f, const char *command, uint64_t user,
                 const char *roll, int64_t now_ms)
{
    struct cmd_req req = discord_req(command, user, now_ms);
    req.target_message = UINT64_C(1200000000000000001);
    req.interaction_id = "1200000000000000777";
    if (roll != NULL)
        req.opts[req.nopts++] = (struct cmd_opt){"roll", roll};
    return run_req(f, &req);
}

/* Explain from a Discord message's menu: a Discord roll has no number in
 * its channel, so its title names who rolled alone. */
static void test_menu_explain_title(void **state)
{
    struct cmd_fx *f = *state;
    int64_t t0 = INT64_C(1700000000000);
    struct cmd_rollrec *r = rec(1, t0, "1200000000000000555");
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    free(r);
    assert_true(menu(f, "explain", ALICE, "1200000000000000555", t0 + 1));
    assert_int_equal(f->reply.msg.nembeds, 1);
    assert_string_equal(f->reply.msg.embeds[0].title,
                        "Roll by alice \"the bold\"");
}

static void test_menu_refusals(void **state)
{
    struct cmd_fx *f = *state;
    int64_t t0 = INT64_C(1700000000000);
    struct cmd_rollrec *r = rec(1, t0, "1200000000000000555");
    assert_int_equal(cmd_rollrec_put(f->store, r), BOT_OK);
    free(r);
    /* a message without a roll of fray's */
    assert_false(menu(f, "explain", ALICE, NULL, t0));
    cmd_fx_has(f, "not a roll fray posted");
    /* the link names the message Discord gave */
    assert_true(menu(f, "reroll", BOB, "1200000000000000555", t0 + 1));
    cmd_fx_has(f, "Reroll of [the roll](https://discord.com/channels/9/1/"
                  "1200000000000000001)");
    /* a week on */
    assert_false(menu(f, "explain", ALICE, "1200000000000000555",
                      t0 + CMD_ROLLREC_KEEP_MS + 1));
    cmd_fx_has(f, "too old");
}

/* Queue r as the daemon does (its row, then the queue's); frees r. What
 * cmd_rollq_add said; a refused row's JSON is freed here too. */
static bool queue(struct cmd_rollq *q, struct cmd_rollrec *r, int64_t now)
{
    struct cmd_rollrec_row row = {0};
    bool made = cmd_rollrec_row_of(r, &row);
    free(r);
    bool added = made && cmd_rollq_add(q, &row, now);
    if (added)
        assert_null(row.json);      /* the queue's now */
    free(row.json);
    return added;
}

/* The daemon's queue (cmd_rollq.h): a Discord roll's record waits in
 * memory, a menu finds it there before it is written (its own channel's
 * only), and the write puts it in the table and empties the queue. */
static void test_rollq_found_before_written(void **state)
{
    struct cmd_fx *f = *state;
    int64_t t0 = INT64_C(1700000000000);
    struct cmd_rollq *q = cmd_rollq_new();
    assert_non_null(q);
    assert_true(queue(q, rec(1, t0, "1200000000000000555"), 5000));
    assert_int_equal(cmd_rollq_len(q), 1);
    assert_int_equal(cmd_rollq_since_ms(q), 5000);
    struct cmd_rollrec *got = malloc(sizeof *got);
    assert_non_null(got);
    assert_int_equal(cmd_rollq_find(q, 1, "1200000000000000555", got),
                     BOT_OK);
    assert_string_equal(got->expr, "2d6+3");
    assert_int_equal(got->total, 11);
    assert_int_equal(cmd_rollq_find(q, 2, "1200000000000000555", got),
                     BOT_NOTFOUND);
    assert_int_equal(cmd_rollq_find(q, 1, "1200000000000000556", got),
                     BOT_NOTFOUND);
    assert_int_equal(cmd_rollq_find(q, 1, NULL, got), BOT_NOTFOUND);
    assert_int_equal(cmd_rollq_find(NULL, 1, "1200000000000000555", got),
                     BOT_NOTFOUND);
    /* not in the store yet: the menu answers from the queue */
    assert_int_equal(cmd_rollrec_get(f->store, 1, "1200000000000000555", got),
                     BOT_NOTFOUND);
    assert_false(menu(f, "explain", ALICE, "1200000000000000555", t0 + 1));
    cmd_fx_has(f, "does not remember that roll");
    f->ctx.rollq = q;
    assert_true(menu(f, "explain", ALICE, "1200000000000000555", t0 + 1));
    cmd_fx_has(f, "For: fire");
    /* written: in the table, the queue empty, and found from there */
    size_t lost = 99;
    assert_int_equal(cmd_rollq_write(q, f->store, &lost), BOT_OK);
    assert_int_equal(lost, 0);
    assert_int_equal(cmd_rollq_len(q), 0);
    assert_int_equal(cmd_rollq_since_ms(q), 0);
    assert_int_equal(cmd_rollrec_get(f->store, 1, "1200000000000000555", got),
                     BOT_OK);
    assert_string_equal(got->label, "fire");
    assert_true(menu(f, "explain", ALICE, "1200000000000000555", t0 + 2));
    cmd_fx_has(f, "For: fire");
    f->ctx.rollq = NULL;
    free(got);
    cmd_rollq_free(q);
}

/* The queue takes CMD_ROLLQ_MAX records and no console record (those are
 * numbered by the store): the caller writes what it refuses. */
static void test_rollq_bounds(void **state)
{
    struct cmd_fx *f = *state;
    int64_t t0 = INT64_C(1700000000000);
    struct cmd_rollq *q = cmd_rollq_new();
    assert_non_null(q);
    struct cmd_rollrec_row row = {0};
    struct cmd_rollrec *console = rec(1, t0, "");
    assert_false(cmd_rollrec_row_of(console, &row));   /* no snowflake */
    free(console);
    assert_false(cmd_rollq_add(q, &row, 10));
    assert_int_equal(cmd_rollq_len(q), 0);
    for (int i = 0; i < CMD_ROLLQ_MAX; i++) {
        assert_true(queue(q, flake_rec(3, t0, i), 10 + i));
    }
    assert_false(queue(q, flake_rec(3, t0, CMD_ROLLQ_MAX), 99));
    assert_int_equal(cmd_rollq_len(q), CMD_ROLLQ_MAX);
    assert_int_equal(cmd_rollq_since_ms(q), 10);   /* the oldest's */
    assert_int_equal(cmd_rollq_write(q, f->store, NULL), BOT_OK);
    char *v = NULL;
    for (int i = 0; i < CMD_ROLLQ_MAX; i++) {
        assert_int_equal(store_rollrec_get(f->store, flake(t0, i), 3, &v),
                         BOT_OK);
        free(v);
        v = NULL;
    }
    assert_int_equal(store_rollrec_get(f->store, flake(t0, CMD_ROLLQ_MAX), 3,
                                       &v), BOT_NOTFOUND);
    /* what remains queued at the end is freed with the queue */
    assert_true(queue(q, flake_rec(3, t0, 200), 100));
    cmd_rollq_free(q);
}

/* Each system's fight with Orc (20 hp; teams: 2 endurance first), and
 * what Apply damage of a 4 shows. */
static const struct {
    const char *system, *stats, *shows;
} systems[] = {
    {"generic", NULL, "Orc: hp 20 → 16"},
    {"cards", NULL, "Orc: harm 0 → 4"},
    {"factions", NULL, "Orc: hp 20 → 16"},
    {"resolve", NULL, "Orc: hp 20 → 16"},
    {"tactical", NULL, "Orc: hp 20 → 16"},
    {"teams", "endurance=2", "Orc: hp 20 → 18"},
};

static void test_apply_every_system(void **state)
{
    struct cmd_fx *f = *state;
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++) {
        assert_true(cmd_fx_run(f, GM, "combat", "start", "system",
                               systems[i].system, NULL));
        /* stats ends the options when the system needs none */
        assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "hp",
                               "20", "side", "foes",
                               systems[i].stats ? "stats" : NULL,
                               systems[i].stats, NULL));
        assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Imp", "hp",
                               "5", "side", "allies", NULL));
        /* teams asks which team started; factions wants two factions */
        cmd_fx_run(f, GM, "combat", "begin", "first", "foes", NULL);
        cmd_fx_run(f, GM, "combat", "begin", NULL);
        assert_true(cmd_fx_run(f, GM, "roll", NULL, "dice", "4", NULL));
        if (!cmd_fx_run(f, GM, "apply", NULL, "target", "Orc", NULL))
            fail_msg("%s: %s", systems[i].system, f->text);
        cmd_fx_has(f, systems[i].shows);
        assert_true(f->reply.changed);
        if (systems[i].stats != NULL)
            cmd_fx_has(f, "endurance 2 → 0");
        assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true",
                               NULL));
    }
}

/* A generic fight: Orc (20 hp) and another, hidden or not. */
static void orc_fight(struct cmd_fx *f, const char *other, const char *hp,
                      bool hidden)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "generic",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Orc", "hp",
                           "20", NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", other, "hp", hp,
                           "hidden", hidden ? "true" : "false", NULL));
}

static void test_apply_refusals(void **state)
{
    struct cmd_fx *f = *state;
    orc_fight(f, "Umbra", "37", true);
    assert_true(cmd_fx_run(f, ALICE, "roll", NULL, "dice", "4", NULL));
    /* the GM's: a player is refused, and learns nothing hidden */
    assert_false(cmd_fx_run(f, ALICE, "apply", NULL, "target", "Orc",
                            NULL));
    assert_null(strstr(f->text, "Umbra"));
    /* the GM's list: everyone not dead, the hidden one marked */
    assert_true(cmd_fx_run(f, GM, "apply", NULL, NULL));
    assert_true(f->reply.ephemeral);
    assert_false(f->reply.changed);
    cmd_fx_has(f, "Who takes the 4 damage?");
    cmd_fx_has(f, "Umbra (hidden)");
    cmd_fx_has(f, "Orc");
    /* several totals are not one amount */
    assert_true(cmd_fx_run(f, GM, "roll", NULL, "dice", "3x 1d6", NULL));
    assert_false(cmd_fx_run(f, GM, "apply", NULL, "target", "Orc", NULL));
    cmd_fx_has(f, "has 3 totals");
    /* nobody called so */
    assert_true(cmd_fx_run(f, GM, "roll", NULL, "dice", "2", NULL));
    assert_false(cmd_fx_run(f, GM, "apply", NULL, "target", "Nobody",
                            NULL));
    /* without a fight */
    assert_true(cmd_fx_run(f, GM, "combat", "end", "confirm", "true", NULL));
    assert_false(cmd_fx_run(f, GM, "apply", NULL, "target", "Orc", NULL));
    cmd_fx_has(f, "no fight in this channel");
}

/* The picker's further choices (req.picked): each takes the whole total,
 * all or nothing. */
static bool apply_many(struct cmd_fx *f, const char *target,
                       const char *const *more, int nmore)
{
    struct cmd_req req = discord_req("apply", GM, f->now_ms += 1000);
    req.force_gm = true;
    req.picker = true;
    req.expect_fight = cmd_fx_fight(f->store);
    req.opts[req.nopts++] = (struct cmd_opt){"roll", "1"};
    req.opts[req.nopts++] = (struct cmd_opt){"target", target};
    for (int i = 0; i < nmore; i++)
        req.picked[req.npicked++] = more[i];
    return run_req(f, &req);
}

static void test_apply_several_targets(void **state)
{
    struct cmd_fx *f = *state;
    orc_fight(f, "Imp", "9", false);
    assert_true(cmd_fx_run(f, GM, "roll", NULL, "dice", "4", NULL));
    static const char *const twice[] = {"Imp", "orc"};
    assert_false(apply_many(f, "Orc", twice, 2));
    cmd_fx_has(f, "orc is chosen twice: no damage was applied");
    static const char *const gone[] = {"Ghost"};
    assert_false(apply_many(f, "Orc", gone, 1));
    cmd_fx_has(f, "Ghost is no longer in the fight");
    static const char *const imp[] = {"Imp"};
    assert_true(apply_many(f, "Orc", imp, 1));
    assert_true(cmd_fx_run(f, GM, "combat", "status", NULL));
    cmd_fx_has(f, "Orc hp 16/20");      /* once: the refusals saved nothing */
    cmd_fx_has(f, "Imp hp 5/9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rollrec_roundtrip),
        cmocka_unit_test(test_rollrec_encoding_unchanged),
        cmocka_unit_test_setup_teardown(test_rollrec_rows_from_before,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollrec_count_limit,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollrec_rows_bounded,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollrec_age_limit,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollrec_table_own_channel,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollrec_table_bounds,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_reroll_same_dice, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_explain_dice_as_written,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_reroll_none_yet, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_secret_roll_is_the_rollers,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_menu_explain_title,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollq_found_before_written,
                                        cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_rollq_bounds, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_menu_refusals, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_apply_every_system,
                                        cmd_fx_setup, cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_apply_refusals, cmd_fx_setup,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_apply_several_targets,
                                        cmd_fx_setup, cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
