/*
 * cmd_rollrec.c - the records of posted rolls (cmd_rollrec.h).
 */
#include "cmd_rollrec.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "jw.h"
#include "store.h"

/* "roll:<channel>:" */
#define ROLLREC_CHAN_PREFIX_MAX (sizeof CMD_ROLLREC_KV_PREFIX + 24)
/* Digits of seq in a key: sorting as text is sorting by number. */
#define ROLLREC_SEQ_DIGITS 12

_Static_assert(ROLLREC_CHAN_PREFIX_MAX + ROLLREC_SEQ_DIGITS + 24 +
                   CMD_ROLLREC_ID_MAX < STORE_MAX_KV_KEY,
               "a record's key fits the store");

bool cmd_rollrec_id_ok(const char *s)
{
    size_t n = 0;
    for (; s[n] != '\0'; n++)
        if (s[n] < '0' || s[n] > '9')
            return false;
    return n > 0 && n <= CMD_ROLLREC_ID_MAX;
}

/* The record's JSON into w: written as text (jw.h), not built as a
 * jansson tree and dumped, which cost a malloc per field on every roll;
 * the bytes are the same (test_cmd_reroll.c holds them to jansson's). */
static void encode(struct jw *w, const struct cmd_rollrec *r)
{
    JW_LIT(w, "{");
    JW_KEY1(w, "id");
    jw_str(w, r->id);
    JW_U64(w, "guild", r->guild);
    JW_U64(w, "channel", r->channel);
    JW_U64(w, "user", r->user);
    JW_STR(w, "name", r->user_name);
    JW_I64(w, "at", r->at_ms);
    JW_I64(w, "seq", r->seq);
    JW_STR(w, "expr", r->expr);
    JW_STR(w, "dialect", dice_dialect_name(r->dialect));
    JW_STR(w, "label", r->label);
    JW_BOOL(w, "secret", r->secret);
    JW_I64(w, "rolls", (int64_t)r->rolls);
    JW_I64(w, "total", r->total);
    JW_STR(w, "text", r->text);
    JW_STR(w, "reroll_of", r->reroll_of);
    JW_LIT(w, "}");
}

/* A record's text fits here without an allocation: the dice a roll
 * shows are short (1d20 with a name and a label: a few hundred bytes). */
#define ROLLREC_STACK_TEXT 1024

/* Written on the stack and copied out at its size: a heap buffer grown
 * to kilobytes for a few hundred bytes made the allocator's slow path
 * run for the small blocks of the next gateway message. */
char *cmd_rollrec_encode(const struct cmd_rollrec *r)
{
    char buf[ROLLREC_STACK_TEXT];
    struct jw w;
    jw_init_buf(&w, buf, sizeof buf, STORE_MAX_KV_VALUE);
    encode(&w, r);
    return jw_take(&w, NULL);
}

/* Copy string field key of j into out[cap]; false when absent, not a
 * string or too long. */
static bool get_text(const json_t *j, const char *key, char *out, size_t cap)
{
    const json_t *v = json_object_get(j, key);
    if (!json_is_string(v) || json_string_length(v) >= cap)
        return false;
    memcpy(out, json_string_value(v), json_string_length(v) + 1);
    return true;
}

static bool get_u64(const json_t *j, const char *key, uint64_t *out)
{
    char buf[24], *end;
    if (!get_text(j, key, buf, sizeof buf) || buf[0] < '0' || buf[0] > '9')
        return false;
    *out = strtoull(buf, &end, 10);
    return *end == '\0';
}

bool cmd_rollrec_decode(const char *json, struct cmd_rollrec *r)
{
    memset(r, 0, sizeof *r);
    json_t *j = json_loads(json, 0, NULL);
    char dialect[32];
    const json_t *at = json_object_get(j, "at"), *seq = json_object_get(j,
                                                                        "seq");
    const json_t *rolls = json_object_get(j, "rolls");
    const json_t *total = json_object_get(j, "total");
    bool ok = json_is_object(j) && get_text(j, "id", r->id, sizeof r->id) &&
              cmd_rollrec_id_ok(r->id) &&
              get_u64(j, "guild", &r->guild) &&
              get_u64(j, "channel", &r->channel) &&
              get_u64(j, "user", &r->user) &&
              get_text(j, "name", r->user_name, sizeof r->user_name) &&
              json_is_integer(at) && json_is_integer(seq) &&
              json_is_integer(rolls) && json_is_integer(total) &&
              json_integer_value(rolls) >= 1 &&
              json_integer_value(rolls) <= DICE_MAX_REPEAT &&
              get_text(j, "expr", r->expr, sizeof r->expr) &&
              get_text(j, "dialect", dialect, sizeof dialect) &&
              dice_dialect_parse(dialect, strlen(dialect), &r->dialect) &&
              get_text(j, "label", r->label, sizeof r->label) &&
              json_is_boolean(json_object_get(j, "secret")) &&
              get_text(j, "text", r->text, sizeof r->text) &&
              get_text(j, "reroll_of", r->reroll_of, sizeof r->reroll_of);
    if (ok) {
        r->at_ms = json_integer_value(at);
        r->seq = json_integer_value(seq);
        r->rolls = (unsigned)json_integer_value(rolls);
        r->total = json_integer_value(total);
        r->secret = json_is_true(json_object_get(j, "secret"));
    }
    json_decref(j);
    return ok;
}

/* A key's parts after "roll:<channel>:": seq, at and id. */
static bool key_parts(const char *key, int64_t *seq, int64_t *at,
                      const char **id)
{
    const char *p = strchr(key + strlen(CMD_ROLLREC_KV_PREFIX), ':');
    char *end;
    if (p == NULL)
        return false;
    *seq = strtoll(p + 1, &end, 10);
    if (*end != ':')
        return false;
    *at = strtoll(end + 1, &end, 10);
    if (*end != ':')
        return false;
    *id = end + 1;
    return true;
}

/* What a scan of one channel's keys finds. */
struct chan_scan {
    const char *want;                /* an id to find, or NULL: the last */
    char *value;                     /* the found key's value (heap) */
    int64_t last_seq, last_at;       /* the newest's */
};

static enum bot_err chan_each(void *ctx, const char *key, const char *value)
{
    struct chan_scan *cs = ctx;
    int64_t seq, at;
    const char *id;
    if (!key_parts(key, &seq, &at, &id))
        return BOT_OK;              /* not ours to judge: left alone */
    if (seq > cs->last_seq) {
        cs->last_seq = seq;
        cs->last_at = at;
    }
    if (cs->want == NULL || strcmp(cs->want, id) == 0) {
        char *v = strdup(value);
        if (v == NULL)
            return BOT_NOMEM;
        free(cs->value);
        cs->value = v;
    }
    return BOT_OK;
}

static void chan_prefix(char *buf, size_t n, uint64_t channel)
{
    snprintf(buf, n, CMD_ROLLREC_KV_PREFIX "%" PRIu64 ":", channel);
}

/* The console's records and those written before the table (kv rows):
 * found by a scan of the channel's keys, judged by the channel's newest. */
static enum bot_err kv_get(struct store *s, uint64_t channel, const char *id,
                           struct cmd_rollrec *out)
{
    char prefix[ROLLREC_CHAN_PREFIX_MAX];
    chan_prefix(prefix, sizeof prefix, channel);
    struct chan_scan cs = {.want = id};
    enum bot_err e = store_kv_scan(s, prefix, chan_each, &cs);
    if (e == BOT_OK && cs.value == NULL)
        e = BOT_NOTFOUND;
    if (e == BOT_OK && !cmd_rollrec_decode(cs.value, out))
        e = BOT_NOTFOUND;           /* unreadable: as if it were gone */
    /* past the count or the age, by the channel's newest: gone, though
     * its row may wait for the next tidy */
    if (e == BOT_OK && (out->seq <= cs.last_seq - CMD_ROLLREC_PER_CHANNEL ||
                        out->at_ms < cs.last_at - CMD_ROLLREC_KEEP_MS))
        e = BOT_NOTFOUND;
    free(cs.value);
    return e;
}

/* A snowflake is a positive int64 (Discord's fit until 2084). */
int64_t cmd_rollrec_table_key(const char *id)
{
    uint64_t v = 0;
    for (size_t i = 0; id[i] != '\0'; i++) {
        if (id[i] < '0' || id[i] > '9' || v > ((uint64_t)INT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(id[i] - '0');
    }
    return (int64_t)v;
}

enum bot_err cmd_rollrec_get(struct store *s, uint64_t channel,
                             const char *id, struct cmd_rollrec *out)
{
    char *value = NULL;
    enum bot_err e = id != NULL ? store_rollrec_get(s,
                                                    cmd_rollrec_table_key(id),
                                                    channel, &value)
                                : BOT_NOTFOUND;
    if (e == BOT_OK && (!cmd_rollrec_decode(value, out) ||
                        out->channel != channel))
        e = BOT_NOTFOUND;           /* unreadable: as if it were gone */
    free(value);
    /* not in the table: a console number, or a row from before it */
    return e == BOT_NOTFOUND ? kv_get(s, channel, id, out) : e;
}

/* The channel's next number: one past its newest key's, read from the
 * key's index alone (no count row to read and write on every roll); 1
 * when the channel has none left. */
static enum bot_err next_seq(struct store *s, const char *prefix,
                             int64_t *seq)
{
    char last[STORE_MAX_KV_KEY + 1];
    int64_t n, at;
    const char *id;
    enum bot_err e = store_kv_last(s, prefix, last);
    *seq = 1;
    if (e == BOT_OK && key_parts(last, &n, &at, &id) && n >= 0)
        *seq = n + 1;
    return e == BOT_NOTFOUND ? BOT_OK : e;
}

/* Drop the channel's rows past the count before seq, by one range of its
 * keys (they sort by seq): no scan, no row read. Rows past the age wait
 * for the prune pass (cmd_rollrec_prune); readers judge age already. */
static enum bot_err tidy(struct store *s, const char *prefix, int64_t seq)
{
    char below[STORE_MAX_KV_KEY + 1];
    snprintf(below, sizeof below, "%s%0*" PRId64, prefix, ROLLREC_SEQ_DIGITS,
             seq - CMD_ROLLREC_PER_CHANNEL + 1);
    return store_kv_delete_below(s, prefix, below);
}

/* Whether the roll with this id tidies the table: about one in
 * CMD_ROLLREC_TIDY_EVERY, by a hash of the id (a snowflake's low bits
 * count per Discord worker: the id's remainder alone would not spread). */
static bool table_tidy_now(int64_t id)
{
    uint64_t h = (uint64_t)id * UINT64_C(0x9E3779B97F4A7C15);
    return (h >> 32) % CMD_ROLLREC_TIDY_EVERY == 0;
}

/* A channel's console roll: its number after the channel's last, a kv row;
 * every CMD_ROLLREC_TIDY_EVERY, the channel's oldest past the count go. */
static enum bot_err kv_put(struct store *s, struct cmd_rollrec *r,
                           const char *prefix, const char *v)
{
    char key[STORE_MAX_KV_KEY + 1];
    snprintf(key, sizeof key, "%s%0*" PRId64 ":%" PRId64 ":%s", prefix,
             ROLLREC_SEQ_DIGITS, r->seq, r->at_ms, r->id);
    if (r->seq % CMD_ROLLREC_TIDY_EVERY != 0 ||
        r->seq <= CMD_ROLLREC_PER_CHANNEL)
        return store_kv_set(s, key, v);
    /* the write and the drops together (a savepoint inside the daemon's
     * group); a write alone is one statement, atomic as it is */
    enum bot_err e = store_begin(s);
    if (e != BOT_OK)
        return e;
    e = store_kv_set(s, key, v);
    if (e == BOT_OK)
        e = tidy(s, prefix, r->seq);
    if (e == BOT_OK)
        return store_commit(s);
    store_rollback(s);
    return e;
}

bool cmd_rollrec_row_of(const struct cmd_rollrec *r,
                        struct cmd_rollrec_row *row)
{
    int64_t key = cmd_rollrec_table_key(r->id);
    char *json = key != 0 ? cmd_rollrec_encode(r) : NULL;
    if (json == NULL)
        return false;
    *row = (struct cmd_rollrec_row){key, r->channel, json};
    return true;
}

/* A Discord roll: one row of the table, appended at its end. Now and then
 * the rows past the age (by the id's own time: a snowflake's bits above
 * the 22nd are milliseconds) and past the global count go, as ranges of
 * the lowest ids; the write alone when not. */
enum bot_err cmd_rollrec_put_row(struct store *s, int64_t id,
                                 uint64_t channel, const char *v)
{
    if (!table_tidy_now(id))
        return store_rollrec_put(s, id, channel, v);
    enum bot_err e = store_begin(s);
    if (e != BOT_OK)
        return e;
    e = store_rollrec_put(s, id, channel, v);
    if (e == BOT_OK)
        e = store_rollrec_trim(s, id - CMD_ROLLREC_KEEP_IDS,
                               CMD_ROLLREC_MAX_ROWS, CMD_ROLLREC_TRIM_BATCH,
                               NULL);
    if (e == BOT_OK)
        return store_commit(s);
    store_rollback(s);
    return e;
}

enum bot_err cmd_rollrec_put(struct store *s, struct cmd_rollrec *r)
{
    char prefix[ROLLREC_CHAN_PREFIX_MAX];
    int64_t id = cmd_rollrec_table_key(r->id);
    enum bot_err e = BOT_OK;
    r->seq = 0;                     /* a Discord roll has no number */
    if (id == 0) {
        chan_prefix(prefix, sizeof prefix, r->channel);
        e = next_seq(s, prefix, &r->seq);
        if (e != BOT_OK)
            return e;
        if (r->id[0] == '\0')
            snprintf(r->id, sizeof r->id, "%" PRId64, r->seq);
    }
    char buf[ROLLREC_STACK_TEXT];
    struct jw w;
    jw_init_buf(&w, buf, sizeof buf, STORE_MAX_KV_VALUE);
    encode(&w, r);
    const char *v = jw_text(&w, NULL);
    if (v == NULL)
        e = BOT_NOMEM;
    else if (id != 0)
        e = cmd_rollrec_put_row(s, id, r->channel, v);
    else
        e = kv_put(s, r, prefix, v);
    jw_cleanup(&w);
    return e;
}

struct prune_scan {
    int64_t before;
    size_t max, n;
    char (*keys)[STORE_MAX_KV_KEY + 1];
};

static enum bot_err prune_each(void *ctx, const char *key, const char *value)
{
    struct prune_scan *ps = ctx;
    int64_t seq, at;
    const char *id;
    (void)value;
    if (ps->n < ps->max && key_parts(key, &seq, &at, &id) &&
        at < ps->before)
        snprintf(ps->keys[ps->n++], sizeof ps->keys[0], "%s", key);
    return BOT_OK;
}

/* A channel's count ("seq:at"), which fray kept per channel before its
 * records were numbered from their newest key: gone when its newest roll
 * is older than before. */
static enum bot_err seq_each(void *ctx, const char *key, const char *value)
{
    struct prune_scan *ps = ctx;
    const char *colon = strchr(value, ':');
    char *end;
    long long at = colon != NULL ? strtoll(colon + 1, &end, 10) : 0;
    if (ps->n < ps->max && colon != NULL && *end == '\0' &&
        at < ps->before)
        snprintf(ps->keys[ps->n++], sizeof ps->keys[0], "%s", key);
    return BOT_OK;
}

enum bot_err cmd_rollrec_prune(struct store *s, int64_t before_ms,
                               size_t max, int64_t *pruned)
{
    struct prune_scan ps = {.before = before_ms, .max = max};
    if (pruned != NULL)
        *pruned = 0;
    if (max == 0)
        return BOT_OK;
    ps.keys = malloc(max * sizeof ps.keys[0]);
    if (ps.keys == NULL)
        return BOT_NOMEM;
    /* the table's: one range of the lowest ids, then the global count */
    int64_t gone = 0, below = 0;
    if (before_ms > CMD_ROLLREC_DISCORD_EPOCH_MS)
        below = (before_ms - CMD_ROLLREC_DISCORD_EPOCH_MS)
                << CMD_ROLLREC_SNOWFLAKE_MS_SHIFT;
    enum bot_err e = store_rollrec_trim(s, below, CMD_ROLLREC_MAX_ROWS,
                                        (int64_t)max, &gone);
    if (pruned != NULL)
        *pruned = gone;
    if (e == BOT_OK)
        e = store_kv_scan(s, CMD_ROLLREC_KV_PREFIX, prune_each, &ps);
    size_t i = 0;
    for (; e == BOT_OK && i < ps.n; i++)
        e = store_kv_delete(s, ps.keys[i]);
    if (pruned != NULL)
        *pruned += (int64_t)i;
    /* Every aged record is gone: a channel whose newest roll is aged has
     * none left, and a count kept for it can go too. */
    if (e == BOT_OK && ps.n < max) {
        ps.n = 0;
        e = store_kv_scan(s, CMD_ROLLREC_SEQ_PREFIX, seq_each, &ps);
        for (i = 0; e == BOT_OK && i < ps.n; i++)
            e = store_kv_delete(s, ps.keys[i]);
    }
    free(ps.keys);
    return e;
}
