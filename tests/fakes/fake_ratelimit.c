/*
 * fake_ratelimit.c - REST rate limits as Discord applies them: a bucket per
 * route class and major parameter with X-RateLimit-* headers on every
 * answer, the global 50 requests per second (interaction endpoints exempt),
 * 429 bodies with retry_after, and scripted faults (forced statuses and
 * delays) that tests install through /_test/fault.
 */
#include "fake.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Route classes: name, bucket hash, limit, window, exempt from global. The
 * numbers follow what Discord sends for these routes (5 per 5 s on channel
 * messages, 5 per 2 s on interaction webhooks); tests may change them. */
static const struct fake_rl_class fake_rl_defaults[] = {
    { "gateway_bot",    "0f1e2d3c4b5a6978", 5, 5000, false },
    { "callback",       "b7c6d5e4f3a2b1c0", 5, 1000, true },
    { "webhook_post",   "1a2b3c4d5e6f7081", 5, 2000, true },
    { "webhook_get",    "2b3c4d5e6f708192", 5, 2000, true },
    { "webhook_patch",  "3c4d5e6f708192a3", 5, 2000, true },
    { "webhook_delete", "4d5e6f708192a3b4", 5, 2000, true },
    { "msg_create",     "5e6f708192a3b4c5", 5, 5000, false },
    { "msg_get",        "6f708192a3b4c5d6", 5, 1000, false },
    { "msg_edit",       "708192a3b4c5d6e7", 5, 5000, false },
    { "msg_delete",     "8192a3b4c5d6e7f8", 5, 5000, false },
    { "pins",           "92a3b4c5d6e7f809", 5, 5000, false },
    { "commands_put",   "a3b4c5d6e7f8091a", 5, 20000, false },
    { "commands_get",   "b4c5d6e7f8091a2b", 5, 5000, false },
    { "me",             "c5d6e7f8091a2b3c", 5, 5000, false },
    { "thread_create",  "d6e7f8091a2b3c4d", 5, 5000, false },
    { "channel",        "e7f8091a2b3c4d5e", 5, 5000, false },
};
#define FAKE_NRL (sizeof fake_rl_defaults / sizeof fake_rl_defaults[0])

/* Slack for "came back before retry_after": timers may fire a little early. */
#define FAKE_RETRY_TOLERANCE_US 10000

void fake_rl_init(struct fake_server *s)
{
    s->rlc = malloc(sizeof fake_rl_defaults);
    if (s->rlc)
        memcpy(s->rlc, fake_rl_defaults, sizeof fake_rl_defaults);
    s->nrlc = (int)FAKE_NRL;
    s->global_limit = FAKE_GLOBAL_LIMIT;
    s->bucket_index = json_object();
}

static void faults_clear(struct fake_server *s)
{
    for (int i = 0; i < s->nfaults; i++) {
        json_decref(s->faults[i].body);
        json_decref(s->faults[i].headers);
    }
    s->nfaults = 0;
}

void fake_rl_free(struct fake_server *s)
{
    faults_clear(s);
    free(s->rlc);
    free(s->buckets);
    json_decref(s->bucket_index);
}

void fake_rl_reset(struct fake_server *s)
{
    faults_clear(s);
    if (s->rlc)
        memcpy(s->rlc, fake_rl_defaults, sizeof fake_rl_defaults);
    s->global_limit = FAKE_GLOBAL_LIMIT;
    s->global_count = 0;
    s->global_start_us = 0;
    s->global_block_us = 0;
    s->nbuckets = 0;
    json_object_clear(s->bucket_index);
}

int fake_rl_class(const struct fake_server *s, const char *name)
{
    for (int i = 0; i < s->nrlc; i++)
        if (strcmp(s->rlc[i].name, name) == 0)
            return i;
    return -1;
}

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct fake_bucket *bucket_get(struct fake_server *s, int cls,
                                      const char *major)
{
    char key[192];
    snprintf(key, sizeof key, "%d:%s", cls, major);
    json_t *v = json_object_get(s->bucket_index, key);
    if (json_is_integer(v))
        return &s->buckets[json_integer_value(v)];
    if (s->nbuckets == s->capbuckets) {
        size_t cap = s->capbuckets ? s->capbuckets * 2 : 64;
        struct fake_bucket *n = realloc(s->buckets, cap * sizeof *n);
        if (n == NULL)
            return NULL;
        s->buckets = n;
        s->capbuckets = cap;
    }
    struct fake_bucket *b = &s->buckets[s->nbuckets];
    memset(b, 0, sizeof *b);
    b->cls = cls;
    json_object_set_new(s->bucket_index, key,
                        json_integer((json_int_t)s->nbuckets));
    s->nbuckets++;
    return b;
}

static void bucket_headers(struct fake_server *s, struct fake_http_req *r,
                           const struct fake_bucket *b)
{
    const struct fake_rl_class *c = &s->rlc[b->cls];
    char v[64];
    double after = (double)(b->reset_us - r->t_us) / 1e6;
    if (after < 0)
        after = 0;
    snprintf(v, sizeof v, "%d", c->limit);
    fake_add_header(r, "x-ratelimit-limit", v);
    snprintf(v, sizeof v, "%d", b->remaining);
    fake_add_header(r, "x-ratelimit-remaining", v);
    snprintf(v, sizeof v, "%.3f", wall_s() + after);
    fake_add_header(r, "x-ratelimit-reset", v);
    snprintf(v, sizeof v, "%.3f", after);
    fake_add_header(r, "x-ratelimit-reset-after", v);
    fake_add_header(r, "x-ratelimit-bucket", c->hash);
}

/* Answer 429 and remember until when the client must stay away from this
 * bucket (or from everything, for a global limit). */
static void answer_429(struct fake_server *s, struct fake_http_req *r,
                       struct fake_bucket *b, double retry_after, bool global,
                       const char *scope)
{
    int64_t until = r->t_us + (int64_t)(retry_after * 1e6);
    if (global && until > s->global_block_us)
        s->global_block_us = until;
    else if (!global && b && until > b->blocked_until_us)
        b->blocked_until_us = until;
    char v[32];
    snprintf(v, sizeof v, "%.0f", ceil(retry_after));
    fake_add_header(r, "retry-after", v);
    fake_add_header(r, "x-ratelimit-scope", scope);
    if (global)
        fake_add_header(r, "x-ratelimit-global", "true");
    bool shared = strcmp(scope, "shared") == 0;
    fake_reply_json(r, 429, json_pack("{s:s,s:f,s:b,s:i}", "message",
                                      shared ? "The resource is being rate "
                                               "limited."
                                             : "You are being rate limited.",
                                      "retry_after", retry_after, "global",
                                      global, "code", 0));
    s->st.rest_429++;
}

static void answer_fault(struct fake_server *s, struct fake_http_req *r,
                         struct fake_bucket *b, const struct fake_fault *f)
{
    if (f->status == 429) {
        answer_429(s, r, b, f->retry_after, f->global,
                   f->scope[0] ? f->scope : f->global ? "global" : "user");
        if (f->body)                /* e.g. a retry_after of any type */
            fake_reply_json(r, 429, json_deep_copy(f->body));
    } else if (f->body) {
        fake_reply_json(r, f->status, json_deep_copy(f->body));
    } else {
        char msg[64];
        const char *what = f->status == 401   ? "Unauthorized"
                           : f->status == 403 ? "Forbidden"
                           : f->status == 404 ? "Not Found"
                           : f->status == 502 ? "Bad Gateway"
                           : f->status == 503 ? "Service Unavailable"
                           : f->status >= 500 ? "Internal Server Error"
                                              : "Bad Request";
        snprintf(msg, sizeof msg, "%d: %s", f->status, what);
        fake_reply_error(r, f->status, 0, msg);
    }
    const char *name;
    json_t *v;
    json_object_foreach(f->headers, name, v) {    /* raw, as given */
        char lower[sizeof r->hdrs[0].name];
        size_t i = 0;
        for (; name[i] && i + 1 < sizeof lower; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        lower[i] = '\0';
        fake_add_header(r, lower, json_string_value(v));
    }
    if (f->status >= 500)
        s->st.rest_5xx++;
}

/* Apply the first matching status fault (and every matching delay). */
static bool apply_faults(struct fake_server *s, struct fake_http_req *r,
                         struct fake_bucket *b)
{
    bool answered = false;
    for (int i = 0; i < s->nfaults; i++) {
        struct fake_fault *f = &s->faults[i];
        if (f->count == 0 || (f->method[0] && strcmp(f->method, r->meth)) ||
            !strstr(r->path, f->path))
            continue;
        if (f->status && answered)
            continue;
        if (f->count > 0)
            f->count--;
        if (f->delay_ms > r->delay_ms)
            r->delay_ms = f->delay_ms;
        if (f->status) {
            answer_fault(s, r, b, f);
            answered = true;
        }
    }
    int k = 0;                      /* drop used-up faults */
    for (int i = 0; i < s->nfaults; i++) {
        if (s->faults[i].count == 0) {
            json_decref(s->faults[i].body);
            json_decref(s->faults[i].headers);
        } else
            s->faults[k++] = s->faults[i];
    }
    s->nfaults = k;
    return answered;
}

bool fake_rl_admit(struct fake_server *s, struct fake_http_req *r, int cls,
                   const char *major)
{
    int64_t now = r->t_us;
    bool known = cls >= 0 && cls < s->nrlc;
    struct fake_bucket *b = known ? bucket_get(s, cls, major) : NULL;
    bool exempt = !known || s->rlc[cls].global_exempt;
    /* A 429 said how long to wait; coming back sooner is a bug */
    if ((b && now + FAKE_RETRY_TOLERANCE_US < b->blocked_until_us) ||
        (!exempt && now + FAKE_RETRY_TOLERANCE_US < s->global_block_us))
        fake_violation(s, "retry_after_ignored", r->rec,
                       "%s %s %.3f s before retry_after ended", r->meth,
                       r->path,
                       (double)((b && b->blocked_until_us > now
                                     ? b->blocked_until_us
                                     : s->global_block_us) - now) / 1e6);
    if (apply_faults(s, r, b))
        return true;
    if (!known || b == NULL)
        return false;
    const struct fake_rl_class *c = &s->rlc[cls];
    if (!c->global_exempt) {
        if (now - s->global_start_us >= 1000000) {
            s->global_start_us = now;
            s->global_count = 0;
        }
        if (++s->global_count > s->global_limit) {
            fake_violation(s, "global_rate_limit", r->rec,
                           "%s %s: more than %d requests in 1 s", r->meth,
                           r->path, s->global_limit);
            answer_429(s, r, NULL,
                       (double)(s->global_start_us + 1000000 - now) / 1e6,
                       true, "global");
            return true;
        }
    }
    if (now >= b->reset_us) {
        b->remaining = c->limit;
        b->reset_us = now + (int64_t)c->window_ms * 1000;
        b->told_empty = false;
    }
    if (b->remaining <= 0) {
        fake_violation(s, b->told_empty ? "bucket_exhausted" : "bucket_429",
                       r->rec, "%s %s sent into bucket %s:%s (reset in %.3f s)",
                       r->meth, r->path, c->name, major,
                       (double)(b->reset_us - now) / 1e6);
        bucket_headers(s, r, b);
        answer_429(s, r, b, (double)(b->reset_us - now) / 1e6, false, "user");
        return true;
    }
    b->remaining--;
    if (b->remaining == 0)
        b->told_empty = true;
    bucket_headers(s, r, b);
    return false;
}

int fake_fault_add(struct fake_server *s, const json_t *f, const char **err)
{
    if (s->nfaults >= FAKE_MAX_FAULTS) {
        *err = "too many faults installed";
        return -1;
    }
    const char *kind = json_string_value(json_object_get(f, "kind"));
    struct fake_fault nf;
    memset(&nf, 0, sizeof nf);
    const char *path = json_string_value(json_object_get(f, "path"));
    const char *method = json_string_value(json_object_get(f, "method"));
    snprintf(nf.path, sizeof nf.path, "%s", path ? path : "/");
    snprintf(nf.method, sizeof nf.method, "%s", method ? method : "");
    json_t *count = json_object_get(f, "count");
    if (kind && strcmp(kind, "delay") == 0) {
        nf.delay_ms = (int)json_integer_value(json_object_get(f, "ms"));
        nf.count = count ? (long)json_integer_value(count) : -1;
        if (nf.delay_ms <= 0) {
            *err = "delay needs ms > 0";
            return -1;
        }
    } else {
        nf.status = (int)json_integer_value(json_object_get(f, "status"));
        if (nf.status < 400 || nf.status > 599) {
            *err = "rest fault needs a status 400..599";
            return -1;
        }
        json_t *ra = json_object_get(f, "retry_after");
        nf.retry_after = ra ? json_number_value(ra) : 1.0;
        nf.global = json_is_true(json_object_get(f, "global"));
        const char *scope = json_string_value(json_object_get(f, "scope"));
        snprintf(nf.scope, sizeof nf.scope, "%s", scope ? scope : "");
        nf.delay_ms = (int)json_integer_value(json_object_get(f, "delay_ms"));
        nf.count = count ? (long)json_integer_value(count) : 1;
        json_t *body = json_object_get(f, "body");
        nf.body = body ? json_deep_copy(body) : NULL;
        json_t *hdrs = json_object_get(f, "headers");
        const char *hn;
        json_t *hv;
        json_object_foreach(hdrs, hn, hv)
            if (!json_is_string(hv)) {
                json_decref(nf.body);
                *err = "fault headers must be strings";
                return -1;
            }
        nf.headers = json_is_object(hdrs) ? json_deep_copy(hdrs) : NULL;
    }
    s->faults[s->nfaults++] = nf;
    return 0;
}

int fake_rl_configure(struct fake_server *s, const json_t *j, const char **err)
{
    json_t *g = json_object_get(j, "global_limit");
    if (g) {
        if (json_integer_value(g) < 1) {
            *err = "global_limit must be >= 1";
            return -1;
        }
        s->global_limit = (int)json_integer_value(g);
    }
    const char *name = json_string_value(json_object_get(j, "class"));
    if (name) {
        int c = fake_rl_class(s, name);
        json_int_t limit = json_integer_value(json_object_get(j, "limit"));
        json_int_t win = json_integer_value(json_object_get(j, "window_ms"));
        if (c < 0 || limit < 1 || win < 1) {
            *err = "need a known class, limit >= 1 and window_ms >= 1";
            return -1;
        }
        s->rlc[c].limit = (int)limit;
        s->rlc[c].window_ms = (int)win;
    }
    s->nbuckets = 0;                /* new numbers start fresh windows */
    json_object_clear(s->bucket_index);
    s->global_count = 0;
    s->global_start_us = 0;
    return 0;
}

json_t *fake_rl_json(const struct fake_server *s)
{
    json_t *classes = json_array();
    for (int i = 0; i < s->nrlc; i++)
        json_array_append_new(classes, json_pack(
            "{s:s,s:s,s:i,s:i,s:b}", "class", s->rlc[i].name, "bucket",
            s->rlc[i].hash, "limit", s->rlc[i].limit, "window_ms",
            s->rlc[i].window_ms, "global_exempt", s->rlc[i].global_exempt));
    json_t *faults = json_array();
    for (int i = 0; i < s->nfaults; i++) {
        const struct fake_fault *f = &s->faults[i];
        json_array_append_new(faults, json_pack(
            "{s:s,s:s,s:i,s:f,s:b,s:i,s:I}", "path", f->path, "method",
            f->method, "status", f->status, "retry_after", f->retry_after,
            "global", f->global, "delay_ms", f->delay_ms, "count",
            (json_int_t)f->count));
    }
    return json_pack("{s:i,s:o,s:o}", "global_limit", s->global_limit,
                     "classes", classes, "faults", faults);
}
