/*
 * fuzz_rest_ratelimit.c - Discord's rate-limit headers: rl_parse_header()
 * on every line of a response, and the bookkeeping they feed
 * (rl_route_key(), rl_wait_ms(), rl_on_send(), rl_on_response()).
 *
 * Input: lines separated by '\n', each handed to the parser with its line
 * ending, as curl's header callback does in rest.c:
 *   "METHOD /path"   the request that follows (rl_route_key());
 *                    "POST /channels/123/messages" until one is given
 *   "HTTP/x nnn"     a new response with status nnn (default 200); the
 *                    line is also fed to rl_parse_header(), as in rest.c
 *   an empty line    the response is complete: the request is sent and
 *                    its response recorded, then the clock moves on by
 *                    the wait the limiter asks for (capped)
 *   anything else    a header line ("X-RateLimit-Remaining: 0\r")
 * A response still open at the end is completed too.
 *
 * Properties checked (rest_ratelimit.h): parsed counts and times are never
 * negative and the bucket name is terminated; rl_route_key() refuses
 * exactly the keys that do not fit, and a key that fits is the same
 * whatever the buffer size;
 * rl_wait_ms() is never negative; no signed overflow (UBSan) whatever the
 * headers say; the table never holds more than RL_MAX_BUCKETS entries.
 */
#include <string.h>

#include "fuzz.h"
#include "rest_ratelimit.h"

#define START_MS INT64_C(1000000)
#define MAX_STEP_MS INT64_C(10000000)    /* clock advance per response */

struct run {
    struct rl rl;
    struct rl_headers h;
    char route[RL_MAX_KEY];
    bool exempt;
    bool open;                          /* a response is being read */
    int status;
    int64_t now;
};

static void finish(struct run *r)
{
    int64_t w;

    w = rl_wait_ms(&r->rl, r->route, r->exempt, r->now);
    FUZZ_CHECK(w >= 0);
    rl_on_send(&r->rl, r->route, r->exempt, r->now);
    r->now += 1;
    rl_on_response(&r->rl, r->route, r->status, &r->h, r->now);
    FUZZ_CHECK(r->rl.n >= 0 && r->rl.n <= RL_MAX_BUCKETS);
    w = rl_wait_ms(&r->rl, r->route, r->exempt, r->now);
    FUZZ_CHECK(w >= 0);
    r->now += (w < MAX_STEP_MS ? w : MAX_STEP_MS) + 1;
    memset(&r->h, 0, sizeof r->h);
    r->status = 200;
    r->open = false;
}

/* "GET /path": an upper-case word, one space, then '/'. */
static bool request_line(struct run *r, const char *s, size_t len)
{
    char method[16], path[RL_MAX_KEY * 2];
    size_t m = 0, plen;

    while (m < len && m < sizeof method - 1 && s[m] >= 'A' && s[m] <= 'Z')
        m++;
    if (m == 0 || m + 1 >= len || s[m] != ' ' || s[m + 1] != '/')
        return false;
    memcpy(method, s, m);
    method[m] = '\0';
    plen = len - m - 1;
    while (plen && (s[m + 1 + plen - 1] == '\r'))
        plen--;
    if (plen >= sizeof path)
        plen = sizeof path - 1;
    memcpy(path, s + m + 1, plen);
    path[plen] = '\0';
    /* The key is built twice: in a buffer no path of this length can fill,
     * and in the real RL_MAX_KEY one. The real call succeeds exactly when
     * the key fits, and then gives the same key. */
    {
        char wide[sizeof path * 8];
        bool wide_exempt, fits, ok;
        FUZZ_CHECK(rl_route_key(method, path, wide, sizeof wide,
                                &wide_exempt));
        fits = strlen(wide) < sizeof r->route;
        ok = rl_route_key(method, path, r->route, sizeof r->route,
                          &r->exempt);
        FUZZ_CHECK(ok == fits);
        if (ok) {
            FUZZ_CHECK(strcmp(wide, r->route) == 0 &&
                       wide_exempt == r->exempt);
            return true;
        }
    }
    rl_route_key("POST", "/channels/123/messages", r->route,
                 sizeof r->route, &r->exempt);
    return true;
}

static void header(struct run *r, const char *s, size_t len)
{
    if (len >= 5 && memcmp(s, "HTTP/", 5) == 0) {
        const char *sp = memchr(s, ' ', len);
        int status = 0;
        if (r->open)
            finish(r);
        memset(&r->h, 0, sizeof r->h);
        for (const char *p = sp ? sp + 1 : s + len;
             p < s + len && *p >= '0' && *p <= '9' && status < 1000; p++)
            status = status * 10 + (*p - '0');
        r->status = status < 1000 ? status : 0;
    }
    r->open = true;
    (void)rl_parse_header(&r->h, s, len);
    FUZZ_CHECK(fuzz_terminated(r->h.bucket, sizeof r->h.bucket));
    if (r->h.has_limit)
        FUZZ_CHECK(r->h.limit >= 0);
    if (r->h.has_remaining)
        FUZZ_CHECK(r->h.remaining >= 0);
    if (r->h.has_reset_after)
        FUZZ_CHECK(r->h.reset_after_ms >= 0);
    if (r->h.has_retry_after)
        FUZZ_CHECK(r->h.retry_after_ms >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct run r;
    const char *s = (const char *)data;
    size_t pos = 0;

    rl_init(&r.rl, RL_GLOBAL_MAX_PER_SEC);
    memset(&r.h, 0, sizeof r.h);
    rl_route_key("POST", "/channels/123/messages", r.route, sizeof r.route,
                 &r.exempt);
    r.open = false;
    r.status = 200;
    r.now = START_MS;

    while (pos < size) {
        const char *nl = memchr(s + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (s + pos)) + 1 : size - pos;
        const char *line = s + pos;
        size_t bare = len;

        while (bare && (line[bare - 1] == '\n' || line[bare - 1] == '\r'))
            bare--;
        if (bare == 0) {
            if (r.open)
                finish(&r);
        } else if (!request_line(&r, line, bare)) {
            header(&r, line, len);
        }
        pos += len;
    }
    if (r.open)
        finish(&r);
    return 0;
}
