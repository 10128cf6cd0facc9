/*
 * proposal.c - proposals kept for the GM (proposal.h).
 */
#include "proposal.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "eng_text.h"
#include "store.h"

/* Rows one sweep deletes at most: more than a fight can hold waiting, so
 * every lapsed row goes within a sweep or two. */
#define SWEEP_MAX_DELETE (2 * PROPOSAL_MAX_PER_FIGHT)

static const char *const expiry_names[] = {"turn", "round", "never"};

bool proposal_expiry_parse(const char *s, enum proposal_expiry *out)
{
    for (int i = 0; i < 3; i++)
        if (s != NULL && eng_text_casecmp(s, expiry_names[i]) == 0) {
            *out = (enum proposal_expiry)i;
            return true;
        }
    return false;
}

const char *proposal_expiry_name(enum proposal_expiry x)
{
    return (int)x >= 0 && (int)x < 3 ? expiry_names[x] : "turn";
}

bool proposal_expired(const struct proposal *p, const struct encounter *e,
                      enum proposal_expiry x)
{
    if (e == NULL || e->fight_id != p->fight || e->status == ENC_ST_ENDED)
        return true;
    switch (x) {
    case PROPOSAL_EXPIRE_TURN:
        return e->turn_seq != p->turn_seq || e->round != p->round;
    case PROPOSAL_EXPIRE_ROUND:
        return e->round != p->round;
    case PROPOSAL_EXPIRE_NEVER:
        return false;
    }
    return true;
}

void proposal_token(struct proposal *p, const struct eng_rng *rng)
{
    /* From a copy of the dice generator's state, mixed with what makes
     * this proposal itself: the token is as hard to guess as the dice,
     * and drawing it leaves the fight's next rolls as they were. */
    struct eng_rng r;
    eng_rng_seed(&r, rng->s[0] ^ rng->s[3] ^ p->channel ^
                     ((uint64_t)p->id << 32) ^ (uint64_t)p->at_ms);
    uint32_t t = (uint32_t)eng_rng_next(&r);
    snprintf(p->token, sizeof p->token, "%08" PRIx32, t);
}

static bool token_ok(const char *t)
{
    if (strlen(t) != PROPOSAL_TOKEN_LEN)
        return false;
    for (const char *c = t; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

/* A whole decimal number >= 1 at s, up to end (or the string's end). */
static bool read_u64(const char *s, const char *end, uint64_t *out)
{
    if (s == end || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *stop = NULL;
    unsigned long long v = strtoull(s, &stop, 10);
    if (errno == ERANGE || stop != end || v == 0)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool proposal_ref_parse(const char *s, struct proposal_ref *out)
{
    memset(out, 0, sizeof *out);
    if (s == NULL || strlen(s) > PROPOSAL_REF_MAX)
        return false;
    const char *a = strchr(s, '-');
    uint64_t v = 0;
    if (a == NULL) {                         /* typed: the id alone */
        if (!read_u64(s, s + strlen(s), &v) || v > INT64_MAX)
            return false;
        out->id = (int64_t)v;
        return true;
    }
    const char *b = strchr(a + 1, '-');
    if (b == NULL || !read_u64(s, a, &out->channel) ||
        !read_u64(a + 1, b, &v) || v > INT64_MAX || !token_ok(b + 1))
        return false;
    out->id = (int64_t)v;
    memcpy(out->token, b + 1, PROPOSAL_TOKEN_LEN + 1);
    return true;
}

void proposal_ref_text(const struct proposal *p, char *out, size_t n)
{
    snprintf(out, n, "%" PRIu64 "-%" PRId64 "-%s", p->channel, p->id,
             p->token);
}

static void u64_set(json_t *o, const char *k, uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "%" PRIu64, v);
    json_object_set_new(o, k, json_string(b));
}

char *proposal_encode(const struct proposal *p)
{
    json_t *o = json_object(), *opts = json_array();
    char *out = NULL;
    if (o == NULL || opts == NULL) {
        json_decref(o);
        json_decref(opts);
        return NULL;
    }
    json_object_set_new(o, "id", json_integer(p->id));
    json_object_set_new(o, "token", json_string(p->token));
    u64_set(o, "guild", p->guild);
    u64_set(o, "channel", p->channel);
    u64_set(o, "fight", p->fight);
    u64_set(o, "user", p->user);
    json_object_set_new(o, "user_name", json_string(p->user_name));
    json_object_set_new(o, "target", json_integer(p->target));
    json_object_set_new(o, "target_name", json_string(p->target_name));
    json_object_set_new(o, "sub", json_string(p->sub));
    for (int i = 0; i < p->nopts; i++)
        json_array_append_new(opts, json_pack("[ss]", p->opts[i].name,
                                              p->opts[i].value));
    json_object_set_new(o, "opts", opts);
    u64_set(o, "turn_seq", p->turn_seq);
    json_object_set_new(o, "round", json_integer(p->round));
    json_object_set_new(o, "at_ms", json_integer(p->at_ms));
    u64_set(o, "posted", p->posted);
    /* A field that could not be made leaves its key out: decoding then
     * refuses the row, and the put is refused here instead. */
    if (json_object_size(o) == 15 &&
        json_array_size(opts) == (size_t)p->nopts)
        out = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return out;
}

static bool get_u64(json_t *o, const char *k, uint64_t *out, bool zero_ok)
{
    const char *s = json_string_value(json_object_get(o, k));
    if (s != NULL && zero_ok && strcmp(s, "0") == 0) {
        *out = 0;
        return true;
    }
    return s != NULL && read_u64(s, s + strlen(s), out);
}

static bool get_text(json_t *o, const char *k, char *out, size_t cap,
                     bool empty_ok)
{
    json_t *v = json_object_get(o, k);
    const char *s = json_string_value(v);
    size_t n = s != NULL ? json_string_length(v) : 0;
    if (s == NULL || n >= cap || strlen(s) != n || (n == 0 && !empty_ok))
        return false;
    memcpy(out, s, n + 1);
    return true;
}

static bool get_int(json_t *o, const char *k, int64_t lo, int64_t hi,
                    int64_t *out)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_integer(v))
        return false;
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return false;
    *out = (int64_t)x;
    return true;
}

bool proposal_decode(const char *text, struct proposal *p)
{
    memset(p, 0, sizeof *p);
    json_t *o = json_loads(text, 0, NULL);
    int64_t target = 0, round = 0;
    bool ok = json_is_object(o) &&
              get_int(o, "id", 1, INT64_MAX, &p->id) &&
              get_text(o, "token", p->token, sizeof p->token, false) &&
              token_ok(p->token) &&
              get_u64(o, "guild", &p->guild, true) &&
              get_u64(o, "channel", &p->channel, false) &&
              get_u64(o, "fight", &p->fight, true) &&
              get_u64(o, "user", &p->user, false) &&
              get_text(o, "user_name", p->user_name, sizeof p->user_name,
                       true) &&
              get_int(o, "target", 1, UINT32_MAX, &target) &&
              get_text(o, "target_name", p->target_name,
                       sizeof p->target_name, false) &&
              get_text(o, "sub", p->sub, sizeof p->sub, false) &&
              get_u64(o, "turn_seq", &p->turn_seq, true) &&
              get_int(o, "round", 0, INT32_MAX, &round) &&
              get_int(o, "at_ms", 0, INT64_MAX, &p->at_ms) &&
              get_u64(o, "posted", &p->posted, true);
    json_t *opts = ok ? json_object_get(o, "opts") : NULL;
    ok = ok && json_is_array(opts) && json_array_size(opts) <= CMD_MAX_OPTS;
    for (size_t i = 0; ok && i < json_array_size(opts); i++) {
        json_t *pair = json_array_get(opts, i);
        const char *n = json_string_value(json_array_get(pair, 0));
        const char *v = json_string_value(json_array_get(pair, 1));
        ok = json_array_size(pair) == 2 && n != NULL && v != NULL &&
             n[0] != '\0' && strlen(n) <= CMD_MAX_OPT_NAME &&
             strlen(v) <= CMD_MAX_OPT_VALUE;
        if (ok) {
            memcpy(p->opts[i].name, n, strlen(n) + 1);
            memcpy(p->opts[i].value, v, strlen(v) + 1);
            p->nopts++;
        }
    }
    json_decref(o);
    p->target = (uint32_t)target;
    p->round = (int32_t)round;
    return ok;
}

static void key_of(char *key, size_t n, uint64_t channel, int64_t id)
{
    snprintf(key, n, PROPOSAL_KV_PREFIX "%" PRIu64 ":%" PRId64, channel, id);
}

enum bot_err proposal_put(struct store *s, const struct proposal *p)
{
    char key[STORE_MAX_KV_KEY];
    char *text = proposal_encode(p);
    if (text == NULL)
        return BOT_NOMEM;
    key_of(key, sizeof key, p->channel, p->id);
    enum bot_err err = store_kv_set(s, key, text);
    free(text);
    return err;
}

enum bot_err proposal_get(struct store *s, uint64_t channel, int64_t id,
                          struct proposal *p)
{
    char key[STORE_MAX_KV_KEY];
    char *text = NULL;
    key_of(key, sizeof key, channel, id);
    enum bot_err err = store_kv_get(s, key, &text);
    if (err != BOT_OK)
        return err;
    bool ok = proposal_decode(text, p) && p->channel == channel &&
              p->id == id;
    free(text);
    return ok ? BOT_OK : BOT_NOTFOUND;
}

enum bot_err proposal_delete(struct store *s, uint64_t channel, int64_t id)
{
    char key[STORE_MAX_KV_KEY];
    key_of(key, sizeof key, channel, id);
    return store_kv_delete(s, key);
}

struct sweep {
    const struct encounter *e;
    enum proposal_expiry x;
    uint64_t user;
    struct proposal_count *count;
    struct proposal p;                   /* one row, decoded */
    char dead[SWEEP_MAX_DELETE][STORE_MAX_KV_KEY];
    int ndead;
};

static enum bot_err sweep_row(void *ctx, const char *key, const char *value)
{
    struct sweep *w = ctx;
    bool ok = proposal_decode(value, &w->p);
    if (ok && w->p.id > w->count->max_id)
        w->count->max_id = w->p.id;
    if (!ok || proposal_expired(&w->p, w->e, w->x)) {
        if (w->ndead < SWEEP_MAX_DELETE)
            snprintf(w->dead[w->ndead++], STORE_MAX_KV_KEY, "%s", key);
        return BOT_OK;
    }
    w->count->waiting++;
    if (w->p.user == w->user)
        w->count->of_user++;
    return BOT_OK;
}

enum bot_err proposal_sweep(struct store *s, uint64_t channel,
                            const struct encounter *e,
                            enum proposal_expiry x, uint64_t user,
                            struct proposal_count *out)
{
    char prefix[STORE_MAX_KV_KEY];
    struct sweep *w = calloc(1, sizeof *w);
    memset(out, 0, sizeof *out);
    if (w == NULL)
        return BOT_NOMEM;
    *w = (struct sweep){.e = e, .x = x, .user = user, .count = out};
    snprintf(prefix, sizeof prefix, PROPOSAL_KV_PREFIX "%" PRIu64 ":",
             channel);
    enum bot_err err = store_kv_scan(s, prefix, sweep_row, w);
    for (int i = 0; err == BOT_OK && i < w->ndead; i++)
        err = store_kv_delete(s, w->dead[i]);
    out->lapsed = w->ndead;
    free(w);
    return err;
}

static void seq_key(char *key, size_t n, uint64_t channel)
{
    snprintf(key, n, PROPOSAL_SEQ_PREFIX "%" PRIu64, channel);
}

enum bot_err proposal_next_id(struct store *s, uint64_t channel,
                              int64_t above, int64_t *out)
{
    char key[STORE_MAX_KV_KEY], text[24];
    char *value = NULL;
    int64_t last = 0;
    seq_key(key, sizeof key, channel);
    enum bot_err err = store_kv_get(s, key, &value);
    if (err == BOT_OK && !eng_text_to_int(value, &last))
        last = 0;
    free(value);
    if (err != BOT_OK && err != BOT_NOTFOUND)
        return err;
    *out = (last > above ? last : above) + 1;
    snprintf(text, sizeof text, "%" PRId64, *out);
    return store_kv_set(s, key, text);
}

enum bot_err proposal_forget_channel(struct store *s, uint64_t channel)
{
    struct proposal_count c;
    char key[STORE_MAX_KV_KEY];
    /* With no fight every row has lapsed; a sweep deletes a bounded
     * number of them. */
    enum bot_err err = BOT_OK;
    do
        err = proposal_sweep(s, channel, NULL, PROPOSAL_EXPIRE_NEVER, 0, &c);
    while (err == BOT_OK && c.lapsed == SWEEP_MAX_DELETE);
    seq_key(key, sizeof key, channel);
    if (err == BOT_OK)
        err = store_kv_delete(s, key);
    return err == BOT_NOTFOUND ? BOT_OK : err;
}

/* One proposal row or id counter the prune pass read: whose, and of
 * which fight (0 for a counter, or a row that does not read as one). */
struct prune_row {
    char key[STORE_MAX_KV_KEY];
    uint64_t channel, fight;
};

struct prune_scan {
    struct prune_row *rows;
    size_t n, cap;
    struct proposal p;                   /* one row, decoded */
};

static enum bot_err prune_take(void *ctx, const char *key, const char *value)
{
    struct prune_scan *ps = ctx;
    const char *tail = strncmp(key, PROPOSAL_SEQ_PREFIX,
                               strlen(PROPOSAL_SEQ_PREFIX)) == 0
                           ? key + strlen(PROPOSAL_SEQ_PREFIX)
                           : key + strlen(PROPOSAL_KV_PREFIX);
    const char *end = strchr(tail, ':');
    uint64_t channel = 0;
    if (!read_u64(tail, end != NULL ? end : tail + strlen(tail), &channel))
        return BOT_OK;                   /* not a key proposal.c wrote */
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 64;
        struct prune_row *r = realloc(ps->rows, cap * sizeof *r);
        if (r == NULL)
            return BOT_NOMEM;
        ps->rows = r;
        ps->cap = cap;
    }
    struct prune_row *r = &ps->rows[ps->n++];
    snprintf(r->key, sizeof r->key, "%s", key);
    r->channel = channel;
    r->fight = end != NULL && proposal_decode(value, &ps->p) &&
                       ps->p.channel == channel
                   ? ps->p.fight
                   : 0;
    return BOT_OK;
}

/* The fight id of channel's live fight into *fight; *live false when it
 * has none. An unreadable document counts as live: its rows wait. */
static enum bot_err live_fight(struct store *s, uint64_t channel, bool *live,
                               uint64_t *fight)
{
    char *doc = NULL, why[128];
    int64_t version = 0;
    struct encounter *e = NULL;
    enum bot_err err = store_enc_load(s, channel, &doc, &version);
    *live = err != BOT_NOTFOUND;
    *fight = 0;
    if (err == BOT_NOTFOUND)
        return BOT_OK;
    if (err == BOT_OK && enc_json_load(doc, &e, why, sizeof why) == BOT_OK)
        *fight = e->fight_id;
    enc_free(e);
    free(doc);
    return err;
}

enum bot_err proposal_prune(struct store *s, size_t max, int64_t *pruned)
{
    struct prune_scan ps = {0};
    size_t gone = 0;
    enum bot_err err = store_kv_scan(s, PROPOSAL_KV_PREFIX, prune_take, &ps);
    if (err == BOT_OK)
        err = store_kv_scan(s, PROPOSAL_SEQ_PREFIX, prune_take, &ps);
    uint64_t channel = 0, fight = 0;
    bool known = false, live = false;
    for (size_t i = 0; err == BOT_OK && i < ps.n && gone < max; i++) {
        struct prune_row *r = &ps.rows[i];
        if (!known || r->channel != channel) {
            channel = r->channel;
            known = true;
            err = live_fight(s, channel, &live, &fight);
        }
        /* a row that does not read goes with a fight that is not live,
         * and the next proposal's sweep takes it otherwise */
        bool counter = strncmp(r->key, PROPOSAL_SEQ_PREFIX,
                               strlen(PROPOSAL_SEQ_PREFIX)) == 0;
        bool stale = !live || (!counter && fight != 0 && r->fight != 0 &&
                               r->fight != fight);
        if (err == BOT_OK && stale) {
            err = store_kv_delete(s, r->key);
            if (err == BOT_NOTFOUND)
                err = BOT_OK;            /* another process took it */
            gone++;
        }
    }
    free(ps.rows);
    if (pruned != NULL)
        *pruned = (int64_t)gone;
    return err;
}
