/*
 * store.c - store.h's front: picks the backend from the location, checks
 * arguments and limits once for every backend, and dispatches to the
 * backend's ops (store_backend.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_backend.h"

/* Asked in order; the first whose claims() says yes opens the location.
 * SQLite is last: it takes every path. */
static const struct store_ops *const store_backends[] = {
    &store_pg_ops,
    &store_sqlite_ops,
};

#define STORE_NBACKENDS (sizeof store_backends / sizeof store_backends[0])

enum bot_err store__fail(struct store *s, enum bot_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->errmsg, sizeof s->errmsg, fmt, ap);
    va_end(ap);
    return e;
}

int64_t store__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Spelled out byte by byte so the compiler makes one 8-byte move of each
 * on a little-endian machine: the loop over the bytes was 3,000
 * instructions a save for a full chain. */
static void le64_put(unsigned char *p, uint64_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
    p[4] = (unsigned char)(v >> 32);
    p[5] = (unsigned char)(v >> 40);
    p[6] = (unsigned char)(v >> 48);
    p[7] = (unsigned char)(v >> 56);
}

static uint64_t le64_get(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
           (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

void store__undo_encode(const struct undo_chain *u,
                        unsigned char buf[ENC_UNDO_DEPTH * 8])
{
    for (size_t i = 0; i < u->n; i++)
        le64_put(buf + i * 8, (uint64_t)u->v[i]);
}

enum bot_err store__undo_decode(struct store *s, const void *blob, int len,
                                struct undo_chain *u)
{
    if (len < 0 || len % 8 != 0 || (size_t)len / 8 > ENC_UNDO_DEPTH)
        return store__fail(s, BOT_DB_CORRUPT, "undo chain of %d bytes", len);
    const unsigned char *p = blob;
    u->n = (size_t)len / 8;
    for (size_t i = 0; i < u->n; i++)
        u->v[i] = (int64_t)le64_get(p + i * 8);
    return BOT_OK;
}

/* Push the old live version; the step falling off the end goes. */
static void undo_push(const struct undo_chain *old, int64_t live,
                      struct undo_chain *next, int64_t *drop, size_t *ndrop)
{
    next->n = old->n < ENC_UNDO_DEPTH ? old->n + 1 : ENC_UNDO_DEPTH;
    next->v[0] = live;
    memcpy(next->v + 1, old->v, (next->n - 1) * sizeof next->v[0]);
    if (old->n == ENC_UNDO_DEPTH)
        drop[(*ndrop)++] = old->v[ENC_UNDO_DEPTH - 1];
}

/* Drop the undone version and the restored one (the new version is its
 * copy); the chain loses its first step. old->n > 0. */
static void undo_pop(const struct undo_chain *old, int64_t live,
                     struct undo_chain *next, int64_t *drop, size_t *ndrop)
{
    next->n = old->n - 1;
    memcpy(next->v, old->v + 1, next->n * sizeof next->v[0]);
    drop[(*ndrop)++] = live;
    drop[(*ndrop)++] = old->v[0];
}

enum bot_err store__plan_save(struct store *s, uint64_t channel, bool found,
                              int64_t live, const struct undo_chain *old,
                              int64_t version, bool undo,
                              struct undo_chain *next, int64_t drop[2],
                              size_t *ndrop)
{
    int64_t want = found ? live + 1 : 1;
    next->n = 0;
    *ndrop = 0;
    if (undo && (!found || old->n == 0))
        return store__fail(s, BOT_NOTFOUND, "channel %llu: nothing to undo",
                           (unsigned long long)channel);
    if (version != want)
        return store__fail(
            s, BOT_CONFLICT, "channel %llu: saving version %lld, expected %lld",
            (unsigned long long)channel, (long long)version, (long long)want);
    if (undo)
        undo_pop(old, live, next, drop, ndrop);
    else if (found)
        undo_push(old, live, next, drop, ndrop);
    return BOT_OK;
}

static const struct store_ops *backend_for(const char *location)
{
    for (size_t i = 0; i < STORE_NBACKENDS; i++)
        if (store_backends[i]->claims(location))
            return store_backends[i];
    return store_backends[STORE_NBACKENDS - 1];
}

bool store_location_is_server(const char *location)
{
    return location && backend_for(location) != &store_sqlite_ops;
}

/* Length of the password value starting at p in a conninfo ('quoted' with
 * backslash escapes, or up to white space) or a URL query (up to '&'). */
static size_t secret_len(const char *p, bool url)
{
    size_t n = 0;
    if (!url && p[0] == '\'') {
        for (n = 1; p[n] && p[n] != '\''; n++)
            if (p[n] == '\\' && p[n + 1])
                n++;
        return p[n] ? n + 1 : n;
    }
    while (p[n] && !(url ? p[n] == '&' : (p[n] == ' ' || p[n] == '\t')))
        n++;
    return n;
}

/* The conninfo keys and URI query parameters whose value is a secret
 * (libpq's own list of "password-like" options). A new one goes here only. */
static const char *const secret_keys[] = {"password", "sslpassword"};

/* If p starts a secret key that is a whole word (it follows the start, a
 * separator or '?'/'&' in a URL, and '=' comes next), the key's length and
 * *val at its value; else 0. */
static size_t secret_key_at(const char *start, const char *p, bool url,
                            const char **val)
{
    if (!(p == start || p[-1] == ' ' || p[-1] == '\t' ||
          (url && (p[-1] == '?' || p[-1] == '&'))))
        return 0;
    for (size_t i = 0; i < sizeof secret_keys / sizeof secret_keys[0]; i++) {
        size_t klen = strlen(secret_keys[i]);
        if (strncmp(p, secret_keys[i], klen) != 0)
            continue;
        const char *v = p + klen;
        while (!url && (*v == ' ' || *v == '\t'))
            v++;
        if (*v != '=')
            continue;
        v++;
        while (!url && (*v == ' ' || *v == '\t'))
            v++;
        *val = v;
        return klen;
    }
    return 0;
}

void store_location_redact(const char *location, char *out, size_t cap)
{
    size_t o = 0;
    const char *p = location ? location : "";
    const char *start = p;
    const char *scheme = strstr(p, "://");
    bool url = scheme != NULL;
    /* URL userinfo: the part between the first ':' and the '@' of the
     * authority (before the first '/' after the scheme). */
    const char *auth = url ? scheme + 3 : NULL;
    const char *at = NULL, *colon = NULL;
    if (auth) {
        size_t alen = strcspn(auth, "/?");
        for (size_t i = 0; i < alen; i++)
            if (auth[i] == '@')
                at = auth + i;
        colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    }
    /* In a URL, keys only count in the query: "host/password=x" is a
     * database name. */
    const char *query = url ? strchr(scheme, '?') : NULL;
    while (*p && o + 1 < cap) {
        if (colon && p == colon + 1) {
            o += (size_t)snprintf(out + o, cap - o, "***");
            p = at;
            continue;
        }
        const char *v = NULL;
        size_t klen = (!url || (query && p > query))
                          ? secret_key_at(start, p, url, &v)
                          : 0;
        if (klen > 0) {
            o += (size_t)snprintf(out + o, cap - o, "%.*s=***", (int)klen,
                                  p);
            p = v + secret_len(v, url);
            continue;
        }
        out[o++] = *p++;
    }
    if (o >= cap)
        o = cap - 1;
    out[o] = '\0';
}

enum bot_err store_open(const char *path, struct store **out, char *err,
                        size_t errlen)
{
    char scratch[1];
    if (!err || errlen == 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    err[0] = '\0';
    *out = NULL;
    if (!path || !path[0]) {
        snprintf(err, errlen, "no database path given");
        return BOT_INVALID;
    }
    if (strlen(path) > STORE_MAX_LOCATION) {
        snprintf(err, errlen, "the database location is too long (%zu "
                 "bytes; limit is %d)", strlen(path), STORE_MAX_LOCATION);
        return BOT_LIMIT;
    }
    const struct store_ops *ops = backend_for(path);
    struct store *s = NULL;
    enum bot_err e = ops->open(path, &s, err, errlen);
    if (e != BOT_OK)
        return e;
    s->ops = ops;
    store_hist_set_bounds(s, NULL);
    *out = s;
    return BOT_OK;
}

enum bot_err store_open_reader(const char *path, struct store **out,
                               char *err, size_t errlen)
{
    char scratch[1];
    if (!err || errlen == 0) {
        err = scratch;
        errlen = sizeof scratch;
    }
    *out = NULL;
    if (!path || !path[0] || strlen(path) > STORE_MAX_LOCATION) {
        snprintf(err, errlen, "no usable database location");
        return BOT_INVALID;
    }
    const struct store_ops *ops = backend_for(path);
    struct store *s = NULL;
    enum bot_err e = (ops->open_reader ? ops->open_reader : ops->open)(
        path, &s, err, errlen);
    if (e != BOT_OK)
        return e;
    s->ops = ops;
    *out = s;
    return BOT_OK;
}

enum bot_err store_inspect(const char *location, struct store_info *info,
                           char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    if (!location || !location[0]) {
        snprintf(err, errlen, "no database path given");
        return BOT_INVALID;
    }
    if (strlen(location) > STORE_MAX_LOCATION) {
        snprintf(err, errlen, "the database location is too long (%zu "
                 "bytes; limit is %d)", strlen(location), STORE_MAX_LOCATION);
        return BOT_LIMIT;
    }
    const struct store_ops *ops = backend_for(location);
    info->backend = ops->name;
    return ops->inspect(location, info, err, errlen);
}

void store_close(struct store *s)
{
    if (s)
        s->ops->close(s);
}

const char *store_errmsg(const struct store *s)
{
    return s ? s->errmsg : "no store";
}

const char *store_backend_name(const struct store *s)
{
    return s->ops->name;
}

bool store_shared(const struct store *s)
{
    return s->ops->shared;
}

/* ---- transactions ------------------------------------------------------- */

enum bot_err store_begin(struct store *s)
{
    return s->ops->begin(s);
}

enum bot_err store_commit(struct store *s)
{
    return s->ops->commit(s);
}

void store_rollback(struct store *s)
{
    s->ops->rollback(s);
}

/* ---- argument checks, the same for every backend ------------------------ */

static enum bot_err check_doc(struct store *s, const char *doc)
{
    if (!doc)
        return store__fail(s, BOT_INVALID, "no document to save");
    if (strnlen(doc, STORE_MAX_DOC + 1) > STORE_MAX_DOC)
        return store__fail(s, BOT_LIMIT,
                           "encounter document too large "
                           "(limit is %u bytes)",
                           STORE_MAX_DOC);
    return BOT_OK;
}

static enum bot_err check_interaction(struct store *s, const char *id)
{
    if (!id || !id[0])
        return store__fail(s, BOT_INVALID, "empty interaction id");
    if (strnlen(id, STORE_MAX_INTERACTION_ID + 1) > STORE_MAX_INTERACTION_ID)
        return store__fail(s, BOT_LIMIT,
                           "interaction id too long (limit is %d bytes)",
                           STORE_MAX_INTERACTION_ID);
    return BOT_OK;
}

static enum bot_err check_key(struct store *s, const char *key)
{
    if (!key || !key[0])
        return store__fail(s, BOT_INVALID, "empty key");
    if (strnlen(key, STORE_MAX_KV_KEY + 1) > STORE_MAX_KV_KEY)
        return store__fail(s, BOT_LIMIT, "key too long (limit is %d bytes)",
                           STORE_MAX_KV_KEY);
    return BOT_OK;
}

static enum bot_err check_value(struct store *s, const char *key,
                                const char *value)
{
    if (!value)
        return store__fail(s, BOT_INVALID, "no value for key %s", key);
    if (strnlen(value, STORE_MAX_KV_VALUE + 1) > STORE_MAX_KV_VALUE)
        return store__fail(s, BOT_LIMIT,
                           "value for key %s too large (limit is %d bytes)",
                           key, STORE_MAX_KV_VALUE);
    return BOT_OK;
}

/* ---- encounters --------------------------------------------------------- */

enum bot_err store_enc_load(struct store *s, uint64_t channel, char **doc,
                            int64_t *version)
{
    return s->ops->enc_load(s, channel, doc, version);
}

enum bot_err store_enc_save(struct store *s, uint64_t channel, int64_t version,
                            const char *doc)
{
    enum bot_err e = check_doc(s, doc);
    return e != BOT_OK ? e : s->ops->enc_save(s, channel, version, doc, false);
}

enum bot_err store_enc_save_undo(struct store *s, uint64_t channel,
                                 int64_t version, const char *doc)
{
    enum bot_err e = check_doc(s, doc);
    return e != BOT_OK ? e : s->ops->enc_save(s, channel, version, doc, true);
}

enum bot_err store_enc_load_before(struct store *s, uint64_t channel,
                                   int64_t version, char **doc,
                                   int64_t *found_version)
{
    return s->ops->enc_load_before(s, channel, version, doc, found_version);
}

enum bot_err store_enc_reopen(struct store *s, uint64_t channel,
                              int64_t now_ms, int64_t since_ms)
{
    return s->ops->enc_reopen(s, channel, now_ms, since_ms);
}

enum bot_err store_enc_archive(struct store *s, uint64_t channel,
                               int64_t now_ms)
{
    return s->ops->enc_archive(s, channel, now_ms);
}

/* A history line as stored: text present, within its limit, and a
 * version an encounter can have. */
static enum bot_err check_change(struct store *s,
                                 const struct store_change_rec *r)
{
    if (r->text == NULL || r->version < 1)
        return store__fail(s, BOT_INVALID, "a history line without text or "
                           "version");
    if (strnlen(r->text, STORE_MAX_CHANGE_TEXT + 1) > STORE_MAX_CHANGE_TEXT)
        return store__fail(s, BOT_LIMIT, "a history line over %u bytes",
                           STORE_MAX_CHANGE_TEXT);
    if (r->by_name != NULL &&
        strnlen(r->by_name, STORE_MAX_CHANGE_NAME + 1) > STORE_MAX_CHANGE_NAME)
        return store__fail(s, BOT_LIMIT, "a change's author name over %u "
                           "bytes", STORE_MAX_CHANGE_NAME);
    const char *d[2] = {r->detail, r->gm_detail};
    for (int i = 0; i < 2; i++)
        if (d[i] != NULL && strnlen(d[i], STORE_MAX_CHANGE_DETAIL + 1) >
                                STORE_MAX_CHANGE_DETAIL)
            return store__fail(s, BOT_LIMIT, "a change's detail over %u "
                               "bytes", STORE_MAX_CHANGE_DETAIL);
    return BOT_OK;
}

enum bot_err store__change_push(struct store *s, struct change_buf *b,
                                const struct store_change_rec *r)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        struct store_change_rec *v = realloc(b->v, cap * sizeof *v);
        if (v == NULL)
            return store__fail(s, BOT_NOMEM, "out of memory exporting");
        b->v = v;
        b->cap = cap;
    }
    char *text = strdup(r->text);
    char *detail = strdup(r->detail != NULL ? r->detail : "");
    char *gm = strdup(r->gm_detail != NULL ? r->gm_detail : "");
    char *name = strdup(r->by_name != NULL ? r->by_name : "");
    if (text == NULL || detail == NULL || gm == NULL || name == NULL) {
        free(text);
        free(detail);
        free(gm);
        free(name);
        return store__fail(s, BOT_NOMEM, "out of memory exporting");
    }
    b->v[b->n] = *r;
    b->v[b->n].text = text;
    b->v[b->n].detail = detail;
    b->v[b->n].by_name = name;
    b->v[b->n++].gm_detail = gm;
    return BOT_OK;
}

void store__change_free(struct change_buf *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free((char *)b->v[i].text);
        free((char *)b->v[i].detail);
        free((char *)b->v[i].gm_detail);
        free((char *)b->v[i].by_name);
    }
    free(b->v);
    *b = (struct change_buf){0};
}


enum bot_err store_change_add(struct store *s, uint64_t channel,
                              const struct store_change_rec *r)
{
    enum bot_err e = check_change(s, r);
    if (e == BOT_OK)
        e = s->ops->change_add(s, channel, r);
    return e != BOT_OK ? e : store__hist_bound(s, channel, r);
}

enum bot_err store_enc_save_line(struct store *s, uint64_t channel,
                                 int64_t version, const char *doc,
                                 const struct store_change_rec *line)
{
    s->fold = (struct store_fold){0};
    enum bot_err e = check_doc(s, doc);
    if (e == BOT_OK)
        e = check_change(s, line);
    if (e == BOT_OK && line->version != version)
        e = store__fail(s, BOT_INVALID, "a history line of version %lld "
                        "saved with version %lld", (long long)line->version,
                        (long long)version);
    if (e != BOT_OK)
        return e;
    if (s->ops->enc_save_line == NULL) {
        e = s->ops->enc_save(s, channel, version, doc, false);
        if (e == BOT_OK)
            e = s->ops->change_add(s, channel, line);
        return e != BOT_OK ? e : store__hist_bound(s, channel, line);
    }
    struct store_hist_row row = {0};
    int64_t added = store__change_bytes(line);
    e = s->ops->enc_save_line(s, channel, version, doc, line, added, &row);
    return e != BOT_OK ? e : store__hist_bound_row(s, channel, &row, added);
}

enum bot_err store_change_list(struct store *s, uint64_t channel,
                               int64_t after, bool newest_first, size_t max,
                               size_t *total, store_change_fn *fn, void *ctx)
{
    return s->ops->change_list(s, channel, after, newest_first, max, total,
                               fn, ctx);
}

enum bot_err store_enc_version(struct store *s, uint64_t channel,
                               int64_t *version)
{
    return s->ops->enc_version(s, channel, version);
}

enum bot_err store_enc_count(struct store *s, int64_t *live, int64_t *archived)
{
    return s->ops->enc_count(s, live, archived);
}

enum bot_err store_enc_list(struct store *s, uint64_t *channels, size_t max,
                            size_t *n)
{
    return s->ops->enc_list(s, channels, max, n);
}

/* ---- interactions ------------------------------------------------------- */

enum bot_err store_interaction_seen(struct store *s, const char *id, bool *seen)
{
    enum bot_err e = check_interaction(s, id);
    return e != BOT_OK ? e : s->ops->interaction_seen(s, id, seen);
}

enum bot_err store_interaction_record(struct store *s, const char *id,
                                      uint64_t channel, int64_t version,
                                      int64_t now_ms)
{
    enum bot_err e = check_interaction(s, id);
    return e != BOT_OK
               ? e
               : s->ops->interaction_record(s, id, channel, version, now_ms);
}

enum bot_err store_interaction_prune(struct store *s, int64_t before_ms,
                                     size_t max, int64_t *pruned)
{
    int64_t n = 0;
    if (max < 1 || max > STORE_PRUNE_BATCH_MAX)
        return store__fail(s, BOT_LIMIT, "prune batch %zu (limit is %d)", max,
                           STORE_PRUNE_BATCH_MAX);
    enum bot_err e = s->ops->interaction_prune(s, before_ms, max, &n);
    if (e == BOT_OK && pruned != NULL)
        *pruned = n;
    return e;
}

/* ---- turn clock timers ---------------------------------------------------- */

/* A shard's filter: count <= 1 is everyone; else 0 <= id < count. */
static enum bot_err shard_ok(struct store *s, int id, int count)
{
    if (count > 1 && (id < 0 || id >= count))
        return store__fail(s, BOT_INVALID, "shard %d of %d", id, count);
    return BOT_OK;
}

enum bot_err store_timer_set(struct store *s, uint64_t channel,
                             uint64_t guild, int64_t due_ms,
                             enum i18n_lang lang)
{
    const char *code = i18n_code(lang);
    if (due_ms < 0)
        return store__fail(s, BOT_INVALID, "timer due at %lld",
                           (long long)due_ms);
    if (code == NULL)
        return store__fail(s, BOT_INVALID, "timer language %d", (int)lang);
    return s->ops->timer_set(s, channel, guild, due_ms, code);
}

void store_timer_lang_of(const char *code, struct store_timer *t)
{
    if (code == NULL || !i18n_from_code(code, &t->lang))
        t->lang = I18N_EN;
}

enum bot_err store_timer_next(struct store *s, int shard_id, int shard_count,
                              int64_t *due_ms)
{
    enum bot_err e = shard_ok(s, shard_id, shard_count);
    return e != BOT_OK ? e
                       : s->ops->timer_next(s, shard_id, shard_count, due_ms);
}

enum bot_err store_timer_due(struct store *s, int shard_id, int shard_count,
                             int64_t now_ms, struct store_timer *out,
                             size_t max, size_t *n)
{
    *n = 0;
    if (max < 1 || max > STORE_TIMER_BATCH_MAX)
        return store__fail(s, BOT_LIMIT, "timer batch %zu (limit is %d)",
                           max, STORE_TIMER_BATCH_MAX);
    enum bot_err e = shard_ok(s, shard_id, shard_count);
    return e != BOT_OK ? e
                       : s->ops->timer_due(s, shard_id, shard_count, now_ms,
                                           out, max, n);
}

enum bot_err store_timer_claim(struct store *s, uint64_t channel,
                               int64_t due_ms, bool *claimed)
{
    *claimed = false;
    return s->ops->timer_claim(s, channel, due_ms, claimed);
}

/* ---- retention and quotas ----------------------------------------------- */

enum bot_err store_enc_set_guild(struct store *s, uint64_t channel,
                                 uint64_t guild)
{
    return s->ops->enc_set_guild(s, channel, guild);
}

enum bot_err store_guild_count(struct store *s, uint64_t guild, int64_t *live,
                               int64_t *archived)
{
    return s->ops->guild_count(s, guild, live, archived);
}

enum bot_err store_enc_prune(struct store *s, const struct store_prune_cfg *cfg,
                             struct store_prune_stats *st)
{
    if (cfg->batch < 1 || cfg->batch > STORE_PRUNE_BATCH_MAX)
        return store__fail(s, BOT_LIMIT, "prune batch %zu (limit is %d)",
                           cfg->batch, STORE_PRUNE_BATCH_MAX);
    if (cfg->max_archived < 0)
        return store__fail(s, BOT_INVALID, "negative archive quota");
    return s->ops->enc_prune(s, cfg, st);
}

enum bot_err store_size(struct store *s, int64_t *bytes)
{
    return s->ops->size(s, bytes);
}

/* ---- key/value ---------------------------------------------------------- */

enum bot_err store_kv_get(struct store *s, const char *key, char **value)
{
    enum bot_err e = check_key(s, key);
    return e != BOT_OK ? e : s->ops->kv_get(s, key, value);
}

/* Copy a short setting's value in (a longer one stays ""). */
void store__kv_short_put(struct store_kv_short *kv, const char *value,
                         size_t len)
{
    kv->found = true;
    if (len < sizeof kv->value) {
        memcpy(kv->value, value, len);
        kv->value[len] = '\0';
    }
}

enum bot_err store_kv_get_short(struct store *s, struct store_kv_short *kv,
                                size_t n)
{
    if (n > STORE_KV_SHORT_MAX)
        return store__fail(s, BOT_LIMIT, "%zu short keys (limit is %d)", n,
                           STORE_KV_SHORT_MAX);
    for (size_t i = 0; i < n; i++) {
        kv[i].found = false;
        kv[i].value[0] = '\0';
        enum bot_err e = kv[i].key ? check_key(s, kv[i].key) : BOT_OK;
        if (e != BOT_OK)
            return e;
    }
    if (s->ops->kv_get_short != NULL)
        return s->ops->kv_get_short(s, kv, n);
    for (size_t i = 0; i < n; i++) {
        char *value = NULL;
        enum bot_err e = kv[i].key ? s->ops->kv_get(s, kv[i].key, &value)
                                   : BOT_NOTFOUND;
        if (e == BOT_OK)
            store__kv_short_put(&kv[i], value, strlen(value));
        free(value);
        if (e != BOT_OK && e != BOT_NOTFOUND)
            return e;
    }
    return BOT_OK;
}

enum bot_err store_kv_set(struct store *s, const char *key, const char *value)
{
    enum bot_err e = check_key(s, key);
    if (e == BOT_OK)
        e = check_value(s, key, value);
    return e != BOT_OK ? e : s->ops->kv_set(s, key, value);
}

enum bot_err store_run_unsynced(struct store *s, store_txn_fn *fn,
                                void *ctx)
{
    enum bot_err e = s->ops->set_synced ? s->ops->set_synced(s, false)
                                        : BOT_OK;
    if (e != BOT_OK)
        return e;
    e = store_begin(s);
    if (e == BOT_OK) {
        e = fn(s, ctx);
        if (e == BOT_OK)
            e = store_commit(s);
        else
            store_rollback(s);
    }
    enum bot_err back = s->ops->set_synced ? s->ops->set_synced(s, true)
                                           : BOT_OK;
    return e != BOT_OK ? e : back;
}

enum bot_err store_kv_set_unsynced(struct store *s, const char *key,
                                   const char *value)
{
    enum bot_err e = check_key(s, key);
    if (e == BOT_OK)
        e = check_value(s, key, value);
    if (e != BOT_OK)
        return e;
    return s->ops->kv_set_unsynced ? s->ops->kv_set_unsynced(s, key, value)
                                   : s->ops->kv_set(s, key, value);
}

bool store_wrote(struct store *s)
{
    return s->ops->wrote ? s->ops->wrote(s) : true;
}

enum bot_err store_kv_scan(struct store *s, const char *prefix,
                           store_kv_fn *fn, void *ctx)
{
    if (strlen(prefix) > STORE_MAX_KV_KEY)
        return store__fail(s, BOT_LIMIT, "key prefix too long");
    return s->ops->kv_scan(s, prefix, fn, ctx);
}

/* The fallbacks of kv_last and kv_delete_below: a scan of the prefix. */
struct kv_range {
    const char *below;              /* delete_below: the bound */
    char last[STORE_MAX_KV_KEY + 1];
    bool found;
    char (*keys)[STORE_MAX_KV_KEY + 1]; /* delete_below: those to drop */
    size_t n, cap;
};

static enum bot_err range_each(void *ctx, const char *key, const char *value)
{
    struct kv_range *r = ctx;
    (void)value;
    if (r->below == NULL) {
        snprintf(r->last, sizeof r->last, "%s", key);
        r->found = true;
        return BOT_OK;
    }
    if (strcmp(key, r->below) >= 0)
        return BOT_OK;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        void *k = realloc(r->keys, cap * sizeof r->keys[0]);
        if (k == NULL)
            return BOT_NOMEM;
        r->keys = k;
        r->cap = cap;
    }
    snprintf(r->keys[r->n++], sizeof r->keys[0], "%s", key);
    return BOT_OK;
}

enum bot_err store_kv_last(struct store *s, const char *prefix, char *key)
{
    if (strlen(prefix) > STORE_MAX_KV_KEY)
        return store__fail(s, BOT_LIMIT, "key prefix too long");
    if (s->ops->kv_last != NULL)
        return s->ops->kv_last(s, prefix, key);
    struct kv_range r = {.below = NULL};
    enum bot_err e = s->ops->kv_scan(s, prefix, range_each, &r);
    if (e == BOT_OK && !r.found)
        e = BOT_NOTFOUND;
    if (e == BOT_OK)
        memcpy(key, r.last, sizeof r.last);
    return e;
}

enum bot_err store_kv_delete_below(struct store *s, const char *prefix,
                                   const char *below)
{
    size_t n = strlen(prefix);
    if (n > STORE_MAX_KV_KEY || strlen(below) > STORE_MAX_KV_KEY)
        return store__fail(s, BOT_LIMIT, "key prefix too long");
    if (strncmp(below, prefix, n) != 0)
        return store__fail(s, BOT_INVALID, "a bound outside its prefix");
    if (s->ops->kv_delete_below != NULL)
        return s->ops->kv_delete_below(s, prefix, below);
    struct kv_range r = {.below = below};
    enum bot_err e = s->ops->kv_scan(s, prefix, range_each, &r);
    for (size_t i = 0; e == BOT_OK && i < r.n; i++)
        e = s->ops->kv_delete(s, r.keys[i]);
    free(r.keys);
    return e;
}

enum bot_err store_kv_delete(struct store *s, const char *key)
{
    enum bot_err e = check_key(s, key);
    return e != BOT_OK ? e : s->ops->kv_delete(s, key);
}

/* ---- maintenance, export and import ------------------------------------- */

enum bot_err store_integrity_check(struct store *s, bool *ok)
{
    return s->ops->integrity_check(s, ok);
}

enum bot_err store_export(struct store *s, const struct store_export_cb *cb,
                          void *ctx)
{
    enum bot_err e = s->ops->export_all(s, cb, ctx);
    if (e == BOT_OK && cb->sheet != NULL)
        e = s->ops->export_sheets(s, cb->sheet, ctx);
    return e;
}

enum bot_err store_sheet_export(struct store *s, store_sheet_fn *fn,
                                void *ctx)
{
    return s->ops->export_sheets(s, fn, ctx);
}

/* True when v is one of r's kept versions. */
static bool rec_has_version(const struct store_enc_rec *r, int64_t v)
{
    for (size_t i = 0; i < r->nver; i++)
        if (r->ver[i].version == v)
            return true;
    return false;
}

enum bot_err store_import_encounter(struct store *s,
                                    const struct store_enc_rec *r)
{
    if (r->nver == 0 || r->nver > ENC_UNDO_DEPTH + 1 ||
        r->nundo > ENC_UNDO_DEPTH || r->version < 1 ||
        !rec_has_version(r, r->version))
        return store__fail(s, BOT_INVALID,
                           "channel %llu: encounter record without its live "
                           "version %lld",
                           (unsigned long long)r->channel,
                           (long long)r->version);
    for (size_t i = 0; i < r->nundo; i++)
        if (!rec_has_version(r, r->undo[i]))
            return store__fail(
                s, BOT_INVALID, "channel %llu: undo step %lld not kept",
                (unsigned long long)r->channel, (long long)r->undo[i]);
    for (size_t i = 0; i < r->nver; i++) {
        enum bot_err e = check_doc(s, r->ver[i].doc);
        if (e != BOT_OK)
            return e;
    }
    for (size_t i = 0; i < r->nchange; i++) {
        enum bot_err e = check_change(s, &r->change[i]);
        if (e != BOT_OK)
            return e;
    }
    return s->ops->import_encounter(s, r);
}

enum bot_err store_import_interaction(struct store *s,
                                      const struct store_ix_rec *r)
{
    enum bot_err e = check_interaction(s, r->id);
    return e != BOT_OK ? e : s->ops->import_interaction(s, r);
}
