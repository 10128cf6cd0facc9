/*
 * rest_ratelimit.c - bucket and global bookkeeping for Discord REST.
 */
#include "rest_ratelimit.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define RL_BUSY_WAIT_MS 1000   /* a bucket with a request in flight: the
                                  completion wakes the sender anyway */
#define RL_DEFAULT_RETRY_MS 1000

void rl_init(struct rl *rl, int per_sec)
{
    memset(rl, 0, sizeof *rl);
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

static struct rl_entry *find(struct rl *rl, const char *key, bool create,
                             int64_t now_ms)
{
    struct rl_entry *victim = NULL;

    for (int i = 0; i < rl->n; i++)
        if (strcmp(rl->e[i].key, key) == 0) {
            rl->e[i].last_used_ms = now_ms;
            return &rl->e[i];
        }
    if (!create)
        return NULL;
    if (rl->n < RL_MAX_BUCKETS) {
        victim = &rl->e[rl->n++];
    } else {   /* evict the least recently used idle entry */
        for (int i = 0; i < rl->n; i++)
            if (rl->e[i].inflight == 0 &&
                (!victim || rl->e[i].last_used_ms < victim->last_used_ms))
                victim = &rl->e[i];
        if (!victim)
            return NULL;
    }
    memset(victim, 0, sizeof *victim);
    snprintf(victim->key, sizeof victim->key, "%s", key);
    victim->last_used_ms = now_ms;
    return victim;
}

/* The entry whose counters govern route (its bucket once known). */
static struct rl_entry *resolve(struct rl *rl, const char *route, bool create,
                                int64_t now_ms)
{
    struct rl_entry *r = find(rl, route, create, now_ms), *b;
    if (!r || !r->alias[0])
        return r;
    b = find(rl, r->alias, create, now_ms);
    return b ? b : r;
}

static int64_t global_wait(const struct rl *rl, int64_t now_ms)
{
    int64_t w = 0;
    if (rl->global_until_ms > now_ms)
        w = rl->global_until_ms - now_ms;
    if (rl->wcount >= rl->per_sec) {
        /* the oldest of the last per_sec sends */
        int64_t oldest = rl->window[rl->wpos % rl->per_sec];
        if (oldest + RL_GLOBAL_WINDOW_MS > now_ms &&
            oldest + RL_GLOBAL_WINDOW_MS - now_ms > w)
            w = oldest + RL_GLOBAL_WINDOW_MS - now_ms;
    }
    return w;
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
    if (b->known && b->remaining <= 0 && b->reset_at_ms > now_ms &&
        b->reset_at_ms - now_ms > w)
        w = b->reset_at_ms - now_ms;
    if (b->inflight > 0 && w < RL_BUSY_WAIT_MS)
        w = RL_BUSY_WAIT_MS;
    return w;
}

void rl_on_send(struct rl *rl, const char *route, bool exempt, int64_t now_ms)
{
    struct rl_entry *b = resolve(rl, route, true, now_ms);

    if (b) {
        b->inflight++;
        if (b->known) {
            if (b->reset_at_ms <= now_ms)
                b->remaining = b->limit;
            b->remaining--;
        }
    }
    if (!exempt) {
        rl->window[rl->wpos % rl->per_sec] = now_ms;
        rl->wpos = (rl->wpos + 1) % rl->per_sec;
        if (rl->wcount < rl->per_sec)
            rl->wcount++;
    }
}

void rl_on_response(struct rl *rl, const char *route, int status,
                    const struct rl_headers *h, int64_t now_ms)
{
    struct rl_entry *r, *b = resolve(rl, route, true, now_ms);

    if (b && b->inflight > 0)
        b->inflight--;
    if (status == 0 || !h)
        return;
    r = find(rl, route, true, now_ms);
    if (r && h->bucket[0]) {
        char major[RL_MAX_KEY], alias[RL_MAX_KEY];
        size_t hl = strlen(h->bucket);
        route_major(route, major, sizeof major);
        if (hl + 1 + strlen(major) >= sizeof alias)
            return;     /* cannot key it: keep the per-route bucket */
        memcpy(alias, h->bucket, hl);
        alias[hl] = ':';
        memcpy(alias + hl + 1, major, strlen(major) + 1);
        if (strcmp(r->alias, alias) != 0) {
            struct rl_entry *nb;
            snprintf(r->alias, sizeof r->alias, "%s", alias);
            nb = find(rl, alias, true, now_ms);
            (void)nb;
        }
        b = resolve(rl, route, true, now_ms);
    }
    if (!b)
        return;
    if (h->has_limit && h->has_remaining) {
        b->known = true;
        b->limit = h->limit;
        b->remaining = h->remaining;
        b->reset_at_ms = now_ms + (h->has_reset_after ? h->reset_after_ms
                                                      : RL_DEFAULT_RETRY_MS) +
                         RL_RESET_MARGIN_MS;
    }
    if (status == 429) {
        int64_t retry = h->has_retry_after ? h->retry_after_ms
                                           : RL_DEFAULT_RETRY_MS;
        if (h->global)
            rl->global_until_ms = now_ms + retry;
        else
            b->blocked_until_ms = now_ms + retry;
    }
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

static bool parse_int(const char *s, size_t len, int64_t *out)
{
    int64_t v = 0;
    size_t i = 0;
    bool any = false;
    while (i < len && s[i] == ' ')
        i++;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, any = true) {
        v = v * 10 + (s[i] - '0');
        if (v > 1000000000)
            return false;
    }
    while (i < len && (s[i] == ' ' || s[i] == '\r' || s[i] == '\n'))
        i++;
    if (!any || i != len)
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
        return (h->has_limit = parse_int(v, vlen, &h->limit));
    if (IS("x-ratelimit-remaining"))
        return (h->has_remaining = parse_int(v, vlen, &h->remaining));
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
