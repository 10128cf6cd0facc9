/*
 * rest_ratelimit.c - bucket and global bookkeeping for Discord REST.
 */
#include "rest_ratelimit.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "eng_text.h"

/* Largest X-RateLimit-Limit or -Remaining taken as a number. */
#define RL_MAX_COUNT 1000000000
#define RL_BUSY_WAIT_MS 1000   /* a bucket or the global budget waits for
                                  an answer: its completion wakes the
                                  sender anyway */
#define RL_DEFAULT_RETRY_MS 1000
#define RL_NONE (-1)

void rl_init(struct rl *rl, int per_sec)
{
    memset(rl, 0, sizeof *rl);
    for (int i = 0; i < RL_HASH_SLOTS; i++)
        rl->head[i] = RL_NONE;
    if (per_sec < 1)
        per_sec = 1;
    if (per_sec > RL_GLOBAL_MAX_PER_SEC)
        per_sec = RL_GLOBAL_MAX_PER_SEC;
    rl->per_sec = per_sec;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

bool rl_route_key(const char *method, const char *path, char *out, size_t cap,
                  bool *exempt)
{
    size_t o;
    int seg = 0;
    const char *p = path;
    const char *top = NULL;   /* first segment */
    size_t toplen = 0;
    int n = snprintf(out, cap, "%s ", method);

    if (n < 0 || (size_t)n >= cap)
        return false;
    o = (size_t)n;
    *exempt = strncmp(path, "/interactions/", 14) == 0 ||
              strncmp(path, "/webhooks/", 10) == 0;
    while (*p == '/') {
        const char *s = ++p;
        size_t len;
        bool major;
        while (*p && *p != '/' && *p != '?')
            p++;
        len = (size_t)(p - s);
        if (seg == 0) {
            top = s;
            toplen = len;
        }
        /* the major parameter: channels/<id>, guilds/<id>,
         * webhooks/<id>/<token>, and per interaction its id */
        major = (seg == 1 && top &&
                 ((toplen == 8 && memcmp(top, "channels", 8) == 0) ||
                  (toplen == 6 && memcmp(top, "guilds", 6) == 0) ||
                  (toplen == 8 && memcmp(top, "webhooks", 8) == 0) ||
                  (toplen == 12 && memcmp(top, "interactions", 12) == 0))) ||
                (seg == 2 && toplen == 8 && memcmp(top, "webhooks", 8) == 0);
        /* What this segment becomes, so the room check counts exactly the
         * bytes written (a long literal segment once overflowed here). */
        const char *put = s;
        size_t putlen = len;
        if (!major && seg == 2 && toplen == 12 &&
            memcmp(top, "interactions", 12) == 0) {
            put = ":token";
            putlen = 6;
        } else if (!major && all_digits(s, len)) {
            put = ":id";
            putlen = 3;
        }
        if (o + 1 + putlen >= cap)
            return false;
        out[o++] = '/';
        memcpy(out + o, put, putlen);
        o += putlen;
        seg++;
        if (*p == '?')
            break;
    }
    out[o] = '\0';
    return true;
}

/* The major part of a route key: "channels/123", "webhooks/1/tok",
 * "interactions/5", or "global". */
static void route_major(const char *route, char *out, size_t cap)
{
    const char *p = strchr(route, '/');
    const char *end;
    int segs = 2;

    snprintf(out, cap, "global");
    if (!p)
        return;
    p++;
    if (strncmp(p, "channels/", 9) && strncmp(p, "guilds/", 7) &&
        strncmp(p, "webhooks/", 9) && strncmp(p, "interactions/", 13))
        return;
    if (strncmp(p, "webhooks/", 9) == 0)
        segs = 3;
    end = p;
    for (int i = 0; i < segs && end; i++) {
        end = strchr(end, '/');
        if (end && i < segs - 1)
            end++;
    }
    snprintf(out, cap, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
}

/* Routes that count against the global budget are all but interaction
 * callbacks and webhooks (the same test as rl_route_key()'s *exempt). */
static bool route_exempt(const char *route)
{
    const char *p = strchr(route, ' ');
    return p && (strncmp(p + 1, "/interactions/", 14) == 0 ||
                 strncmp(p + 1, "/webhooks/", 10) == 0);
}

/* A callback answers one interaction once: nothing to learn or keep. */
static bool route_untracked(const char *route)
{
    return strncmp(route, "POST /interactions/", 19) == 0;
}

/* The route key with its major parameter's value taken out (the name
 * stays: channels/{} and guilds/{} are different templates): the template
 * that one X-RateLimit-Bucket hash belongs to. */
static void route_template(const char *route, const char *major, char *out,
                           size_t cap)
{
    const char *p = strchr(route, '/');
    const char *name_end = strchr(major, '/');
    size_t ml = strlen(major);

    if (!p || !name_end || strncmp(p + 1, major, ml) != 0) {
        snprintf(out, cap, "%s", route);   /* "global" major: as it is */
        return;
    }
    snprintf(out, cap, "%.*s{}%s", (int)(p + 1 - route + (name_end + 1 - major)),
             route, p + 1 + ml);
}

static unsigned slot_of(const char *key)
{
    uint32_t h = 2166136261u;           /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h & (RL_HASH_SLOTS - 1);
}

/* An entry that says something a later request must respect. */
static bool constrains(const struct rl_entry *e, int64_t now_ms)
{
    return e->inflight > 0 || e->blocked_until_ms > now_ms ||
           (e->known && e->remaining <= 0 && e->reset_at_ms > now_ms);
}

static void unlink_entry(struct rl *rl, int i)
{
    int *pp = &rl->head[slot_of(rl->e[i].key)];
    while (*pp != RL_NONE && *pp != i)
        pp = &rl->e[*pp].next;
    if (*pp == i)
        *pp = rl->e[i].next;
    rl->e[i].used = false;
    rl->n--;
}

static struct rl_entry *find(struct rl *rl, const char *key, bool create,
                             int64_t now_ms)
{
    unsigned slot = slot_of(key);
    int victim = RL_NONE;

    for (int i = rl->head[slot]; i != RL_NONE; i = rl->e[i].next)
        if (strcmp(rl->e[i].key, key) == 0) {
            rl->e[i].last_used_ms = now_ms;
            return &rl->e[i];
        }
    if (!create)
        return NULL;
    for (int i = 0; i < RL_MAX_BUCKETS && victim == RL_NONE; i++)
        if (!rl->e[i].used)
            victim = i;
    if (victim == RL_NONE) {
        /* full: the least recently used entry that forgets nothing a
         * request must respect; none means this bucket goes untracked */
        for (int i = 0; i < RL_MAX_BUCKETS; i++)
            if (!constrains(&rl->e[i], now_ms) &&
                (victim == RL_NONE ||
                 rl->e[i].last_used_ms < rl->e[victim].last_used_ms))
                victim = i;
        if (victim == RL_NONE)
            return NULL;
        unlink_entry(rl, victim);
    }
    struct rl_entry *e = &rl->e[victim];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    e->used = true;
    e->last_used_ms = now_ms;
    e->next = rl->head[slot];
    rl->head[slot] = victim;
    rl->n++;
    return e;
}

static struct rl_route *route_find(struct rl *rl, const char *tmpl)
{
    for (int i = 0; i < rl->nroutes; i++)
        if (strcmp(rl->routes[i].tmpl, tmpl) == 0)
            return &rl->routes[i];
    return NULL;
}

/* The bucket key of route: "hash:major" once its template's hash is
 * known, else the route key itself. False when it does not fit. */
static bool bucket_key(struct rl *rl, const char *route, char *out,
                       size_t cap, int64_t now_ms, bool *is_route)
{
    char major[RL_MAX_KEY], tmpl[RL_MAX_KEY];
    struct rl_route *rt;
    int n;

    route_major(route, major, sizeof major);
    route_template(route, major, tmpl, sizeof tmpl);
    rt = route_find(rl, tmpl);
    *is_route = rt == NULL;
    if (!rt) {
        n = snprintf(out, cap, "%s", route);
        return n >= 0 && (size_t)n < cap;
    }
    rt->last_used_ms = now_ms;
    n = snprintf(out, cap, "%s:%s", rt->hash, major);
    return n >= 0 && (size_t)n < cap;
}

/* The entry whose counters govern route, or NULL (untracked). */
static struct rl_entry *resolve(struct rl *rl, const char *route, bool create,
                                int64_t now_ms)
{
    char key[RL_MAX_KEY];
    bool is_route;
    struct rl_entry *e;

    if (route_untracked(route) ||
        !bucket_key(rl, route, key, sizeof key, now_ms, &is_route))
        return NULL;
    e = find(rl, key, create, now_ms);
    if (e && create)
        e->is_route = is_route;
    return e;
}

/* Fold what a route-keyed entry learned into its bucket. */
static void merge_into(struct rl_entry *b, const struct rl_entry *r)
{
    b->inflight += r->inflight;
    if (r->blocked_until_ms > b->blocked_until_ms)
        b->blocked_until_ms = r->blocked_until_ms;
    if (r->known && !b->known) {
        b->known = true;
        b->limit = r->limit;
        b->remaining = r->remaining;
        b->reset_at_ms = r->reset_at_ms;
    }
}

/* Template tmpl now maps to hash: every entry still keyed by a route of
 * that template moves into its "hash:major" bucket, in-flight counts and
 * all, so the answers to those requests land where they were counted. */
static void learn_hash(struct rl *rl, const char *tmpl, const char *hash,
                       int64_t now_ms)
{
    struct rl_route *rt = route_find(rl, tmpl);

    if (rt && strcmp(rt->hash, hash) == 0)
        return;
    if (!rt) {
        if (rl->nroutes < RL_MAX_ROUTES) {
            rt = &rl->routes[rl->nroutes++];
        } else {    /* the least recently used template forgets its hash */
            rt = &rl->routes[0];
            for (int i = 1; i < RL_MAX_ROUTES; i++)
                if (rl->routes[i].last_used_ms < rt->last_used_ms)
                    rt = &rl->routes[i];
        }
        snprintf(rt->tmpl, sizeof rt->tmpl, "%s", tmpl);
    }
    snprintf(rt->hash, sizeof rt->hash, "%s", hash);
    rt->last_used_ms = now_ms;
    for (int i = 0; i < RL_MAX_BUCKETS; i++) {
        char major[RL_MAX_KEY], t[RL_MAX_KEY];
        struct rl_entry moved, *b;
        if (!rl->e[i].used || !rl->e[i].is_route)
            continue;
        route_major(rl->e[i].key, major, sizeof major);
        route_template(rl->e[i].key, major, t, sizeof t);
        if (strcmp(t, tmpl) != 0)
            continue;
        moved = rl->e[i];
        unlink_entry(rl, i);
        b = resolve(rl, moved.key, true, now_ms);
        if (b)
            merge_into(b, &moved);
    }
}

static int64_t global_wait(const struct rl *rl, int64_t now_ms)
{
    int64_t w = 0;
    int k = rl->per_sec - rl->global_inflight;

    if (rl->global_until_ms > now_ms)
        w = rl->global_until_ms - now_ms;
    if (k <= 0)
        return w > RL_BUSY_WAIT_MS ? w : RL_BUSY_WAIT_MS;
    if (rl->wcount >= k) {
        /* the k-th latest answer must be a window ago */
        int64_t t = rl->window[(rl->wpos - k + rl->per_sec) % rl->per_sec] +
                    RL_GLOBAL_WINDOW_MS + RL_GLOBAL_MARGIN_MS;
        if (t > now_ms && t - now_ms > w)
            w = t - now_ms;
    }
    return w;
}

int64_t rl_global_wait_ms(const struct rl *rl, int64_t now_ms)
{
    return global_wait(rl, now_ms);
}

/* What the bucket still allows in this window, in-flight ones included. */
static int64_t bucket_left(const struct rl_entry *b, int64_t now_ms)
{
    if (!b->known)
        return 1;
    return b->reset_at_ms <= now_ms ? b->limit : b->remaining;
}

int64_t rl_wait_ms(struct rl *rl, const char *route, bool exempt,
                   int64_t now_ms)
{
    struct rl_entry *b = resolve(rl, route, false, now_ms);
    int64_t w = exempt ? 0 : global_wait(rl, now_ms);

    if (!b)
        return w;
    if (b->blocked_until_ms > now_ms && b->blocked_until_ms - now_ms > w)
        w = b->blocked_until_ms - now_ms;
    if (bucket_left(b, now_ms) - b->inflight <= 0) {
        /* no slot: an answer in flight wakes us, else the reset does */
        int64_t until = b->inflight > 0 ? RL_BUSY_WAIT_MS : 0;
        if (b->known && b->reset_at_ms > now_ms &&
            b->reset_at_ms != INT64_MAX &&
            (b->inflight == 0 || b->reset_at_ms - now_ms < until))
            until = b->reset_at_ms - now_ms;
        if (until <= 0)           /* a limit of 0: never said by Discord */
            until = RL_DEFAULT_RETRY_MS;
        if (until > w)
            w = until;
    }
    return w;
}

void rl_on_send(struct rl *rl, const char *route, bool exempt, int64_t now_ms)
{
    struct rl_entry *b = resolve(rl, route, true, now_ms);

    (void)exempt;
    if (b) {
        if (b->known && b->reset_at_ms <= now_ms) {
            /* a new window; its end is learnt from the answers */
            b->remaining = b->limit;
            b->reset_at_ms = INT64_MAX;
        }
        b->inflight++;
    }
    if (!route_exempt(route))
        rl->global_inflight++;
}

/* Headers of an answer: remaining only goes down within a window, the
 * window ends at the latest reset any answer gives. */
static void learn_counts(struct rl_entry *b, const struct rl_headers *h,
                         int64_t now_ms)
{
    int64_t reset = now_ms + (h->has_reset_after ? h->reset_after_ms
                                                 : RL_DEFAULT_RETRY_MS) +
                    RL_RESET_MARGIN_MS;

    if (!b->known) {
        b->known = true;
        b->remaining = h->remaining;
        b->reset_at_ms = reset;
    } else {
        int64_t left = bucket_left(b, now_ms);
        if (b->reset_at_ms <= now_ms || b->reset_at_ms == INT64_MAX)
            b->reset_at_ms = reset;
        else if (reset > b->reset_at_ms)
            b->reset_at_ms = reset;
        b->remaining = h->remaining < left ? h->remaining : left;
    }
    b->limit = h->limit;
}

void rl_on_response(struct rl *rl, const char *route, int status,
                    const struct rl_headers *h, int64_t now_ms)
{
    struct rl_entry *b = resolve(rl, route, false, now_ms);

    if (b && b->inflight > 0)
        b->inflight--;
    if (!route_exempt(route)) {
        if (rl->global_inflight > 0)
            rl->global_inflight--;
        rl->window[rl->wpos] = now_ms;
        rl->wpos = (rl->wpos + 1) % rl->per_sec;
        if (rl->wcount < rl->per_sec)
            rl->wcount++;
    }
    if (status == 0 || !h)
        return;
    if (status == 429 && h->global) {
        rl->global_until_ms =
            now_ms + (h->has_retry_after ? h->retry_after_ms
                                         : RL_DEFAULT_RETRY_MS);
        return;
    }
    if (route_untracked(route))
        return;
    if (h->bucket[0]) {
        char major[RL_MAX_KEY], tmpl[RL_MAX_KEY];
        route_major(route, major, sizeof major);
        route_template(route, major, tmpl, sizeof tmpl);
        if (strlen(h->bucket) + 1 + strlen(major) < RL_MAX_KEY)
            learn_hash(rl, tmpl, h->bucket, now_ms);
    }
    b = resolve(rl, route, true, now_ms);
    if (!b)
        return;
    if (h->has_limit && h->has_remaining)
        learn_counts(b, h, now_ms);
    if (status == 429)
        b->blocked_until_ms = now_ms + (h->has_retry_after
                                            ? h->retry_after_ms
                                            : RL_DEFAULT_RETRY_MS);
}

bool rl_parse_seconds(const char *s, size_t len, int64_t *ms)
{
    int64_t whole = 0, frac = 0, scale = 1000;
    size_t i = 0;
    bool any = false;

    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = true)
        if (whole <= RL_MAX_WAIT_MS / 1000)   /* saturate: no overflow */
            whole = whole * 10 + (s[i] - '0');
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
            if (scale > 1) {
                scale /= 10;
                frac += (s[i] - '0') * scale;
            } else if (s[i] != '0') {
                frac++;         /* round sub-millisecond parts up */
                scale = 0;
            }
        }
    }
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
                       s[i] == '\n'))
        i++;
    if (!any || i != len)
        return false;
    *ms = rl_wait_clamp(whole * 1000 + frac);
    return true;
}

int64_t rl_wait_clamp(int64_t ms)
{
    return ms < 0 ? 0 : ms > RL_MAX_WAIT_MS ? RL_MAX_WAIT_MS : ms;
}

/* A count header's value (already trimmed): a whole number from 0 to
 * RL_MAX_COUNT. */
static bool header_count(const char *s, size_t len, int64_t *out)
{
    char text[24];
    int64_t v;
    if (len == 0 || len >= sizeof text)
        return false;
    memcpy(text, s, len);
    text[len] = '\0';
    if (!eng_text_to_int(text, &v) || v < 0 || v > RL_MAX_COUNT)
        return false;
    *out = v;
    return true;
}

bool rl_parse_header(struct rl_headers *h, const char *line, size_t len)
{
    const char *colon = memchr(line, ':', len);
    size_t nlen, vlen;
    const char *v;

    if (!colon)
        return false;
    nlen = (size_t)(colon - line);
    v = colon + 1;
    vlen = len - nlen - 1;
    while (vlen && (*v == ' ' || *v == '\t')) {
        v++;
        vlen--;
    }
    while (vlen && (v[vlen - 1] == '\r' || v[vlen - 1] == '\n' ||
                    v[vlen - 1] == ' '))
        vlen--;
#define IS(name) (nlen == sizeof(name) - 1 && strncasecmp(line, name, nlen) == 0)
    if (IS("x-ratelimit-limit"))
        return (h->has_limit = header_count(v, vlen, &h->limit));
    if (IS("x-ratelimit-remaining"))
        return (h->has_remaining = header_count(v, vlen, &h->remaining));
    if (IS("x-ratelimit-reset-after"))
        return (h->has_reset_after =
                    rl_parse_seconds(v, vlen, &h->reset_after_ms));
    if (IS("retry-after")) {
        int64_t ms;
        if (!rl_parse_seconds(v, vlen, &ms))
            return false;
        if (!h->has_retry_after || ms > h->retry_after_ms)
            h->retry_after_ms = ms;
        h->has_retry_after = true;
        return true;
    }
    if (IS("x-ratelimit-bucket")) {
        if (vlen > RL_MAX_HASH)
            return false;
        memcpy(h->bucket, v, vlen);
        h->bucket[vlen] = '\0';
        return true;
    }
    if (IS("x-ratelimit-global")) {
        h->global = vlen == 4 && strncasecmp(v, "true", 4) == 0;
        return true;
    }
    if (IS("x-ratelimit-scope")) {
        h->shared = vlen == 6 && strncasecmp(v, "shared", 6) == 0;
        if (vlen == 6 && strncasecmp(v, "global", 6) == 0)
            h->global = true;
        return true;
    }
#undef IS
    return false;
}
