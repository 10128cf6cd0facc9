/* test_rest_ratelimit.c - header parsing, route keys, bucket math, the
 * global limit (requests in flight count), and never sending into a
 * known-empty bucket, however many other routes pass through the table. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "rest_ratelimit.h"

static void hdr(struct rl_headers *h, const char *line)
{
    assert_true(rl_parse_header(h, line, strlen(line)));
}

static void test_rl_parse_headers(void **state)
{
    struct rl_headers h;
    int64_t ms;
    (void)state;
    memset(&h, 0, sizeof h);
    hdr(&h, "X-RateLimit-Limit: 5\r\n");
    hdr(&h, "x-ratelimit-remaining: 0\r\n");
    hdr(&h, "X-RateLimit-Reset-After: 1.337\r\n");
    hdr(&h, "X-RateLimit-Bucket: abcd1234\r\n");
    hdr(&h, "Retry-After: 65\r\n");
    hdr(&h, "X-RateLimit-Scope: global\r\n");
    assert_false(rl_parse_header(&h, "Content-Type: x\r\n", 17));
    assert_true(h.has_limit && h.limit == 5);
    assert_true(h.has_remaining && h.remaining == 0);
    assert_true(h.has_reset_after && h.reset_after_ms == 1337);
    assert_string_equal(h.bucket, "abcd1234");
    assert_true(h.has_retry_after && h.retry_after_ms == 65000);
    assert_true(h.global);
    assert_true(rl_parse_seconds("64.57", 5, &ms) && ms == 64570);
    assert_true(rl_parse_seconds("0.0001", 6, &ms) && ms == 1);
    assert_false(rl_parse_seconds("x", 1, &ms));
    assert_false(rl_parse_seconds("", 0, &ms));
    assert_false(rl_parse_seconds("1.5s", 4, &ms));
}

static void test_rl_route_keys(void **state)
{
    char k[RL_MAX_KEY];
    bool ex;
    (void)state;
    assert_true(rl_route_key("POST", "/channels/123/messages/456", k,
                             sizeof k, &ex));
    assert_string_equal(k, "POST /channels/123/messages/:id");
    assert_false(ex);
    assert_true(rl_route_key("PUT", "/applications/11/guilds/22/commands", k,
                             sizeof k, &ex));
    assert_string_equal(k, "PUT /applications/:id/guilds/:id/commands");
    assert_true(rl_route_key("POST", "/interactions/77/tok/callback", k,
                             sizeof k, &ex));
    assert_string_equal(k, "POST /interactions/77/:token/callback");
    assert_true(ex);
    assert_true(rl_route_key("PATCH", "/webhooks/11/tok/messages/@original",
                             k, sizeof k, &ex));
    assert_string_equal(k, "PATCH /webhooks/11/tok/messages/@original");
    assert_true(ex);
    assert_true(rl_route_key("GET", "/gateway/bot", k, sizeof k, &ex));
    assert_string_equal(k, "GET /gateway/bot");
}

/* A literal segment longer than a placeholder near the end of the buffer
 * is refused, not written past it (found by fuzz_rest_ratelimit). */
static void test_rl_route_key_long_segment_fits_or_fails(void **state)
{
    (void)state;
    char path[300];
    memcpy(path, "/users/", 7);
    memset(path + 7, 'a', 248);
    path[255] = '\0';
    /* A canary right after the buffer catches a write past cap. */
    struct {
        char k[160];
        char canary[16];
    } buf;
    memset(buf.canary, 0x5A, sizeof buf.canary);
    bool ex;
    assert_false(rl_route_key("GET", path, buf.k, sizeof buf.k, &ex));
    for (size_t i = 0; i < sizeof buf.canary; i++)
        assert_int_equal((unsigned char)buf.canary[i], 0x5A);
    /* Every length up to the buffer either fits exactly or is refused. */
    for (size_t n = 1; n < 200; n++) {
        memset(path + 7, 'b', n);
        path[7 + n] = '\0';
        memset(buf.canary, 0x5A, sizeof buf.canary);
        if (rl_route_key("GET", path, buf.k, sizeof buf.k, &ex))
            assert_int_equal(strlen(buf.k), 4 + 7 + n);
        for (size_t i = 0; i < sizeof buf.canary; i++)
            assert_int_equal((unsigned char)buf.canary[i], 0x5A);
    }
}

/* Response headers of a bucket: limit, remaining, reset-after seconds. */
static void bucket_hdrs(struct rl_headers *h, const char *limit,
                        const char *remaining, const char *reset_after,
                        const char *hash)
{
    char line[96];
    memset(h, 0, sizeof *h);
    snprintf(line, sizeof line, "X-RateLimit-Limit: %s\r\n", limit);
    hdr(h, line);
    snprintf(line, sizeof line, "X-RateLimit-Remaining: %s\r\n", remaining);
    hdr(h, line);
    snprintf(line, sizeof line, "X-RateLimit-Reset-After: %s\r\n",
             reset_after);
    hdr(h, line);
    if (hash) {
        snprintf(line, sizeof line, "X-RateLimit-Bucket: %s\r\n", hash);
        hdr(h, line);
    }
}

static void test_rl_never_into_empty_bucket(void **state)
{
    struct rl rl;
    struct rl_headers h;
    const char *r = "POST /channels/1/messages";
    (void)state;
    rl_init(&rl, 50);
    assert_int_equal(rl_wait_ms(&rl, r, false, 0), 0);
    rl_on_send(&rl, r, false, 0);
    /* one in flight per bucket */
    assert_true(rl_wait_ms(&rl, r, false, 1) > 0);
    memset(&h, 0, sizeof h);
    hdr(&h, "X-RateLimit-Limit: 2");
    hdr(&h, "X-RateLimit-Remaining: 1");
    hdr(&h, "X-RateLimit-Reset-After: 2");
    rl_on_response(&rl, r, 200, &h, 10);
    assert_int_equal(rl_wait_ms(&rl, r, false, 10), 0);
    rl_on_send(&rl, r, false, 10);
    memset(&h, 0, sizeof h);
    hdr(&h, "X-RateLimit-Limit: 2");
    hdr(&h, "X-RateLimit-Remaining: 0");
    hdr(&h, "X-RateLimit-Reset-After: 2");
    rl_on_response(&rl, r, 200, &h, 20);
    /* empty: wait until the reset (+ margin) */
    assert_int_equal(rl_wait_ms(&rl, r, false, 20),
                     2000 + RL_RESET_MARGIN_MS);
    assert_int_equal(rl_wait_ms(&rl, r, false, 1020),
                     1000 + RL_RESET_MARGIN_MS);
    assert_int_equal(rl_wait_ms(&rl, r, false, 2100), 0);
    /* after the reset the bucket refills to its limit */
    rl_on_send(&rl, r, false, 2100);
    assert_int_equal(rl_wait_ms(&rl, "POST /channels/2/messages", false,
                                2100), 0);
}

static void test_rl_shared_bucket_hash_and_major(void **state)
{
    struct rl rl;
    struct rl_headers h;
    const char *a = "POST /channels/1/messages";
    const char *b = "PATCH /channels/1/messages/:id";
    const char *c = "PATCH /channels/2/messages/:id";
    (void)state;
    rl_init(&rl, 50);
    bucket_hdrs(&h, "5", "0", "3", "H1");
    rl_on_send(&rl, a, false, 0);
    rl_on_response(&rl, a, 200, &h, 0);
    rl_on_send(&rl, b, false, 0);
    rl_on_response(&rl, b, 200, &h, 0);
    /* same hash, same major: one bucket, empty for both routes */
    assert_true(rl_wait_ms(&rl, a, false, 100) > 2000);
    assert_true(rl_wait_ms(&rl, b, false, 100) > 2000);
    /* same hash, another channel: its own bucket */
    assert_int_equal(rl_wait_ms(&rl, c, false, 100), 0);
}

static void test_rl_429_and_global(void **state)
{
    struct rl rl;
    struct rl_headers h;
    const char *r = "POST /channels/1/messages";
    const char *cb = "POST /interactions/9/:token/callback";
    (void)state;
    rl_init(&rl, 50);
    rl_on_send(&rl, r, false, 0);
    memset(&h, 0, sizeof h);
    hdr(&h, "Retry-After: 2");
    rl_on_response(&rl, r, 429, &h, 0);
    assert_int_equal(rl_wait_ms(&rl, r, false, 500), 1500);
    /* a global 429 pauses every non-exempt route, not callbacks */
    rl_on_send(&rl, "GET /gateway/bot", false, 0);
    memset(&h, 0, sizeof h);
    hdr(&h, "Retry-After: 3");
    hdr(&h, "X-RateLimit-Global: true");
    rl_on_response(&rl, "GET /gateway/bot", 429, &h, 0);
    assert_int_equal(rl_wait_ms(&rl, "POST /channels/5/messages", false, 0),
                     3000);
    assert_int_equal(rl_wait_ms(&rl, cb, true, 0), 0);
}

/* The combat benchmark's bucket_exhausted violations: a channel's tracker
 * bucket was told empty, then a stream of interactions (each callback and
 * followup a route of its own) pushed its entry out of the table, and the
 * next edit went out as if the bucket were new. Whatever passes through
 * in between, a bucket known to be empty stays empty until its reset. */
static void test_rl_empty_bucket_survives_many_interactions(void **state)
{
    static struct rl rl;
    struct rl_headers h;
    char path[128], key[RL_MAX_KEY];
    bool ex;
    const char *edit = "PATCH /channels/7/messages/:id";
    int64_t t = 1000;
    (void)state;

    rl_init(&rl, 50);
    bucket_hdrs(&h, "5", "0", "5", "708192a3");
    rl_on_send(&rl, edit, false, t);
    rl_on_response(&rl, edit, 200, &h, t);
    for (int i = 0; i < 4 * RL_MAX_BUCKETS; i++) {
        t++;
        snprintf(path, sizeof path, "/interactions/%d/tok%d/callback",
                 1000 + i, i);
        assert_true(rl_route_key("POST", path, key, sizeof key, &ex));
        assert_int_equal(rl_wait_ms(&rl, key, ex, t), 0);
        rl_on_send(&rl, key, ex, t);
        bucket_hdrs(&h, "5", "4", "1", "b7c6d5e4");
        rl_on_response(&rl, key, 204, &h, t);
        snprintf(path, sizeof path, "/webhooks/11/tok%d/messages/@original",
                 i);
        assert_true(rl_route_key("PATCH", path, key, sizeof key, &ex));
        rl_on_send(&rl, key, ex, t);
        bucket_hdrs(&h, "5", "4", "2", "3c4d5e6f");
        rl_on_response(&rl, key, 200, &h, t);
    }
    /* t is 1000 + 4 * RL_MAX_BUCKETS ms: the 5 s reset is still ahead */
    assert_true(t < 1000 + 5000);
    assert_int_equal(rl_wait_ms(&rl, edit, false, t),
                     1000 + 5000 + RL_RESET_MARGIN_MS - t);
    /* and another route of the same bucket (same hash, same channel) */
    assert_true(rl_wait_ms(&rl, edit, false, t) > 0);
}

/* Several requests on one known bucket may be in flight, as long as each
 * has a slot of its own: never more than remaining minus in flight. Late
 * answers from earlier requests (a higher remaining) do not give slots
 * back. */
static void test_rl_inflight_counts_against_remaining(void **state)
{
    struct rl rl;
    struct rl_headers h;
    const char *r = "POST /channels/3/messages";
    int sent = 0;
    (void)state;

    rl_init(&rl, 50);
    rl_on_send(&rl, r, false, 0);
    /* unknown bucket: one request at a time until an answer says more */
    assert_true(rl_wait_ms(&rl, r, false, 0) > 0);
    bucket_hdrs(&h, "5", "4", "5", "H");
    rl_on_response(&rl, r, 200, &h, 10);
    while (rl_wait_ms(&rl, r, false, 10) == 0) {
        rl_on_send(&rl, r, false, 10);
        sent++;
    }
    assert_int_equal(sent, 4);
    /* answers out of order: 3 then 0, then the late 2 and 1 */
    bucket_hdrs(&h, "5", "0", "4.98", "H");
    rl_on_response(&rl, r, 200, &h, 20);
    bucket_hdrs(&h, "5", "3", "4.99", "H");
    rl_on_response(&rl, r, 200, &h, 21);
    assert_true(rl_wait_ms(&rl, r, false, 21) > 0);
    bucket_hdrs(&h, "5", "2", "4.99", "H");
    rl_on_response(&rl, r, 200, &h, 22);
    bucket_hdrs(&h, "5", "1", "4.99", "H");
    rl_on_response(&rl, r, 200, &h, 23);
    assert_true(rl_wait_ms(&rl, r, false, 23) > 4900);
    /* after the reset: a full bucket again, every slot usable at once */
    sent = 0;
    while (rl_wait_ms(&rl, r, false, 6000) == 0 && sent < 10) {
        rl_on_send(&rl, r, false, 6000);
        sent++;
    }
    assert_int_equal(sent, 5);
}

/* The global limit counts requests still in flight: a burst held back by
 * the transport reaches Discord later than it was sent, so a send is only
 * allowed when fewer than per_sec requests are in flight or were answered
 * within the last second. */
static void test_rl_global_counts_inflight(void **state)
{
    struct rl rl;
    char k[64];
    (void)state;

    rl_init(&rl, 5);
    for (int i = 0; i < 5; i++) {
        snprintf(k, sizeof k, "POST /channels/%d/messages", i);
        assert_int_equal(rl_wait_ms(&rl, k, false, 0), 0);
        rl_on_send(&rl, k, false, 0);
    }
    /* five in flight, none answered: nobody goes, however long it takes */
    assert_true(rl_wait_ms(&rl, "POST /channels/9/messages", false, 5000) >
                0);
    /* answered at 5000..5004: the window runs from the answers */
    for (int i = 0; i < 5; i++) {
        snprintf(k, sizeof k, "POST /channels/%d/messages", i);
        rl_on_response(&rl, k, 200, NULL, 5000 + i);
    }
    assert_int_equal(rl_wait_ms(&rl, "POST /channels/9/messages", false,
                                5004),
                     RL_GLOBAL_WINDOW_MS + RL_GLOBAL_MARGIN_MS - 4);
    assert_int_equal(rl_wait_ms(&rl, "POST /channels/9/messages", false,
                                5000 + RL_GLOBAL_WINDOW_MS +
                                    RL_GLOBAL_MARGIN_MS),
                     0);
    /* callbacks are exempt and skip the table */
    assert_int_equal(rl_wait_ms(&rl, "POST /interactions/1/:token/callback",
                                true, 5004), 0);
}

/* A request sent before its route's hash was known is counted where its
 * answer will look: when another channel's answer teaches the hash, the
 * request moves into its own channel's bucket; and a hash learnt for
 * channels is not applied to the guild route of the same shape. */
static void test_rl_inflight_moves_with_learned_hash(void **state)
{
    struct rl rl;
    struct rl_headers h;
    const char *c1 = "PATCH /channels/1/messages/:id";
    const char *c2 = "PATCH /channels/2/messages/:id";
    const char *g1 = "PATCH /guilds/1/messages/:id";
    (void)state;

    rl_init(&rl, 50);
    rl_on_send(&rl, c1, false, 0);
    rl_on_send(&rl, c2, false, 0);
    bucket_hdrs(&h, "5", "0", "5", "E");
    rl_on_response(&rl, c1, 200, &h, 10);
    assert_true(rl_wait_ms(&rl, c1, false, 10) > 4000);
    /* c2's request is still in flight in bucket E:channels/2 */
    assert_int_equal(rl_wait_ms(&rl, c2, false, 10), 1000);
    assert_int_equal(rl_wait_ms(&rl, g1, false, 10), 0);
    bucket_hdrs(&h, "5", "4", "5", "E");
    rl_on_response(&rl, c2, 200, &h, 20);
    assert_int_equal(rl_wait_ms(&rl, c2, false, 20), 0);
    assert_int_equal(rl.n, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rl_parse_headers),
        cmocka_unit_test(test_rl_route_keys),
        cmocka_unit_test(test_rl_route_key_long_segment_fits_or_fails),
        cmocka_unit_test(test_rl_never_into_empty_bucket),
        cmocka_unit_test(test_rl_shared_bucket_hash_and_major),
        cmocka_unit_test(test_rl_429_and_global),
        cmocka_unit_test(test_rl_empty_bucket_survives_many_interactions),
        cmocka_unit_test(test_rl_inflight_counts_against_remaining),
        cmocka_unit_test(test_rl_global_counts_inflight),
        cmocka_unit_test(test_rl_inflight_moves_with_learned_hash),
    };
    return cmocka_run_group_tests_name("rest_ratelimit", tests, NULL, NULL);
}
