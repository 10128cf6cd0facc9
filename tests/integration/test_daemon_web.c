/* test_daemon_web.c - /combat share and the shared fight's page (issue
 * 34), through fake-discord and the real daemon with HTTP requests: the
 * link's life (shared, shared again, revoked, ended, forged: one answer
 * for every dead token), the headers (CSP, no cookie), a hidden
 * combatant's name and numbers absent from the page and from every event,
 * the limits (pages per fight, in all, requests per address) and a slow
 * reader dropped while a reading page keeps up. */
#include "support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon_harness.h"
#include "tracker_util.h"

#define WEB_WAIT_MS 15000
#define PUBLIC "https://fray.test"
#define CSP "default-src 'none'; script-src 'self'; style-src 'self'; " \
            "connect-src 'self'; img-src 'self'; base-uri 'none'; "     \
            "form-action 'none'; frame-ancestors *"
#define STREAM_CAP (4u << 20)

static char *get(int port, const char *path, const char *const *headers,
                 int *status, char **head)
{
    struct fake_resp r;
    assert_int_equal(fake_request(port, "GET", path, headers, NULL, &r), 0);
    *status = r.status;
    char *body = strdup(r.body ? r.body : "");
    if (head != NULL)
        *head = strdup(r.headers ? r.headers : "");
    fake_resp_free(&r);
    return body;
}

/* /combat share (revoke: with revoke:true) as user; the token from the
 * link into tok (32 characters), or "" when there was none. */
static json_t *share(struct harness *h, const char *user, bool revoke,
                     char tok[40])
{
    json_t *cb = combat(h, user, "share", revoke
                        ? json_pack("[{s:s,s:b}]", "name", "revoke", "value",
                                    1)
                        : NULL);
    const char *t = content_of(cb), *p = t ? strstr(t, PUBLIC "/s/") : NULL;
    tok[0] = '\0';
    if (p != NULL)
        snprintf(tok, 40, "%.32s", p + strlen(PUBLIC "/s/"));
    return cb;
}

static void web_fight(struct harness *h)
{
    fight(h, "generic");
    ok(combat(h, GM, "begin", NULL));
}

static const char *conf(void)
{
    return "[web]\nlisten = 127.0.0.1:0\npublic_url = " PUBLIC "\n"
           "[metrics]\nlisten = 127.0.0.1:0\n"
           "[limits]\nuser_per_minute = 0\nchannel_per_minute = 0\n";
}

static bool has_header(const char *head, const char *line)
{
    return strcasestr(head, line) != NULL;
}

/* Two GETs on one kept-alive connection; how many were answered 200. */
static int two_on_one(int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    static const char req[] =
        "GET /static/fray.css HTTP/1.1\r\nHost: fray.test\r\n\r\n"
        "GET /static/fray.js HTTP/1.1\r\nHost: fray.test\r\n"
        "Connection: close\r\n\r\n";
    char buf[65536];
    size_t len = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0), n = 0;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_true(fd >= 0);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(write(fd, req, sizeof req - 1), (ssize_t)sizeof req - 1);
    for (int waited = 0; waited < WEB_WAIT_MS && len < sizeof buf - 1;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 50) != 1) {
            waited += 50;
            continue;
        }
        ssize_t k = read(fd, buf + len, sizeof buf - 1 - len);
        if (k <= 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    buf[len] = '\0';
    for (const char *p = buf; (p = strstr(p, "HTTP/1.1 200")) != NULL; p++)
        n++;
    return n;
}

static void test_web_link_life(void **state)
{
    struct harness h;
    char tok[40], tok2[40], path[96], *head = NULL, *page, *gone, *b;
    int port, status;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, conf());
    port = harness_log_port(&h, "web");
    web_fight(&h);

    /* a player may not share; the GM gets the link privately */
    json_t *cb = share(&h, ALICE, false, tok);
    assert_string_equal(tok, "");
    json_decref(cb);
    cb = share(&h, GM, false, tok);
    assert_int_equal(strlen(tok), 32);
    assert_true(json_integer_value(json_object_get(
                    json_object_get(cb, "data"), "flags")) & 64);
    json_decref(cb);
    json_decref(share(&h, GM, false, tok2));
    assert_string_equal(tok, tok2);            /* one link per fight */

    snprintf(path, sizeof path, "/s/%s", tok);
    page = get(port, path, NULL, &status, &head);
    assert_int_equal(status, 200);
    assert_non_null(strstr(page, "Aria"));
    assert_non_null(strstr(page, "Goblin"));
    assert_non_null(strstr(page, "round 1"));
    assert_non_null(strstr(page, "/static/fray.js"));
    assert_true(has_header(head, "content-security-policy: " CSP));
    assert_true(has_header(head, "content-type: text/html"));
    assert_true(has_header(head, "referrer-policy: no-referrer"));
    assert_null(strcasestr(head, "set-cookie"));
    free(head);
    free(page);

    /* every dead token is one answer: forged, unknown, malformed */
    gone = get(port, "/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", NULL, &status,
               &head);
    assert_int_equal(status, 404);
    assert_non_null(strstr(gone, "This fight is no longer shared."));
    assert_true(has_header(head, "content-security-policy: " CSP));
    assert_null(strcasestr(head, "set-cookie"));
    free(head);
    const char *dead[] = {"/s/abc", "/s/", "/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/x",
                          "/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/events"};
    for (size_t i = 0; i < sizeof dead / sizeof dead[0]; i++) {
        b = get(port, dead[i], NULL, &status, NULL);
        assert_int_equal(status, 404);
        assert_string_equal(b, gone);
        free(b);
    }
    snprintf(path, sizeof path, "/s/%.31sB", tok);
    if (strcmp(path + 3, tok) == 0)
        path[3 + 31] = 'C';
    b = get(port, path, NULL, &status, NULL);
    assert_int_equal(status, 404);
    assert_string_equal(b, gone);
    free(b);

    /* revoked: the same answer; shared again: a new link */
    json_decref(share(&h, GM, true, tok2));
    snprintf(path, sizeof path, "/s/%s", tok);
    b = get(port, path, NULL, &status, NULL);
    assert_int_equal(status, 404);
    assert_string_equal(b, gone);
    free(b);
    json_decref(share(&h, GM, false, tok2));
    assert_int_equal(strlen(tok2), 32);
    assert_string_not_equal(tok, tok2);
    snprintf(path, sizeof path, "/s/%s", tok2);
    free(get(port, path, NULL, &status, NULL));
    assert_int_equal(status, 200);

    /* ended: the same answer */
    ok(combat(&h, GM, "end", json_pack("[{s:s,s:b}]", "name", "confirm",
                                       "value", 1)));
    b = get(port, path, NULL, &status, NULL);
    assert_int_equal(status, 404);
    assert_string_equal(b, gone);
    free(b);

    /* the assets, and nothing else */
    b = get(port, "/static/fray.js", NULL, &status, &head);
    assert_int_equal(status, 200);
    assert_non_null(strstr(b, "EventSource"));
    assert_true(has_header(head, "content-security-policy: " CSP));
    free(head);
    free(b);
    free(get(port, "/static/fray.css", NULL, &status, NULL));
    assert_int_equal(status, 200);
    free(get(port, "/", NULL, &status, NULL));
    assert_int_equal(status, 404);

    /* kept-alive connections, two requests each: every one is answered,
     * and none is still counted once its connection is gone (past
     * WEB_REQUESTS_MAX, 32, a leak would refuse the next) */
    for (int i = 0; i < 40; i++)
        assert_int_equal(two_on_one(port), 2);
    free(get(port, "/static/fray.css", NULL, &status, NULL));
    assert_int_equal(status, 200);
    free(gone);
    harness_stop(&h);
}

/* Connections that wait (half a request sent, or kept alive after their
 * answer) hold no place among the requests served at once: 48 kept-alive
 * ones, past WEB_REQUESTS_MAX (32), refused every page to everyone while
 * they stayed open, with 48 requests from one address. */
static void test_web_idle_connections_refuse_nobody(void **state)
{
    struct harness h;
    struct sockaddr_in sa = {.sin_family = AF_INET};
    int port, status, fds[96];
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, conf());
    port = harness_log_port(&h, "web");
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < 96; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fds[i] >= 0);
        assert_int_equal(connect(fds[i], (struct sockaddr *)&sa, sizeof sa),
                         0);
        if (i % 2 == 0)               /* half a request, never finished */
            assert_int_equal(write(fds[i], "GET /static/fray.css HTTP/1.1"
                                   "\r\nHost: x\r\n", 40), 40);
        else                          /* answered, then kept alive idle */
            assert_int_equal(write(fds[i], "GET /s/x HTTP/1.1\r\nHost: x"
                                   "\r\n\r\n", 30), 30);
    }
    fake_sleep_ms(200);
    free(get(port, "/static/fray.css", NULL, &status, NULL));
    assert_int_equal(status, 200);
    for (int i = 0; i < 96; i++)
        close(fds[i]);
    harness_stop(&h);
}

/* A WebSocket upgrade is no way in: the page is HTTP and server-sent
 * events, and an upgraded connection would be in none of the limits (no
 * request, no page, no address's count). The server hangs up instead of
 * switching protocols. */
static void test_web_refuses_websocket(void **state)
{
    struct harness h;
    char tok[40], path[64];
    int port, status;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, conf());
    port = harness_log_port(&h, "web");
    web_fight(&h);
    json_decref(share(&h, GM, false, tok));
    assert_int_equal(strlen(tok), 32);
    snprintf(path, sizeof path, "/s/%s", tok);
    assert_true(harness_upgrade_refused(port, path));
    free(get(port, path, NULL, &status, NULL));
    assert_int_equal(status, 200);
    harness_stop(&h);
}

/* ---- an event stream read by hand ---------------------------------------- */

struct stream {
    int fd;
    char *buf;
    size_t len;
};

/* A stream as a local proxy forwards it for xff (NULL: no header). */
static void stream_open_for(struct stream *s, int port, const char *tok,
                            int rcvbuf, const char *xff)
{
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    char req[256];
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(s->fd >= 0);
    if (rcvbuf > 0)
        setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    assert_int_equal(connect(s->fd, (struct sockaddr *)&sa, sizeof sa), 0);
    int n = snprintf(req, sizeof req, "GET /s/%s/events HTTP/1.1\r\nHost: "
                     "fray.test\r\nAccept: text/event-stream\r\n%s%s%s\r\n",
                     tok, xff != NULL ? "X-Forwarded-For: " : "",
                     xff != NULL ? xff : "", xff != NULL ? "\r\n" : "");
    assert_int_equal(write(s->fd, req, (size_t)n), n);
    s->buf = calloc(1, STREAM_CAP + 1);
    s->len = 0;
}

static void stream_open(struct stream *s, int port, const char *tok,
                        int rcvbuf)
{
    stream_open_for(s, port, tok, rcvbuf, NULL);
}

/* Read until the stream holds needle (after its start); false when it
 * ends or WEB_WAIT_MS pass first. */
static bool stream_until(struct stream *s, const char *needle)
{
    for (int waited = 0; waited < WEB_WAIT_MS; waited += 50) {
        if (strstr(s->buf, needle) != NULL)
            return true;
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        if (poll(&p, 1, 50) == 1) {
            ssize_t n = read(s->fd, s->buf + s->len, STREAM_CAP - s->len);
            if (n <= 0)
                return strstr(s->buf, needle) != NULL;
            s->len += (size_t)n;
            s->buf[s->len] = '\0';
        }
    }
    return strstr(s->buf, needle) != NULL;
}

/* Take in whatever has come, without waiting. */
static void stream_drain(struct stream *s)
{
    struct pollfd p = {.fd = s->fd, .events = POLLIN};
    while (s->len < STREAM_CAP && poll(&p, 1, 0) == 1) {
        ssize_t n = read(s->fd, s->buf + s->len, STREAM_CAP - s->len);
        if (n <= 0)
            return;
        s->len += (size_t)n;
        s->buf[s->len] = '\0';
    }
}

static void stream_close(struct stream *s)
{
    close(s->fd);
    free(s->buf);
}

/* Fail when any of the hidden one's marks is in text. */
static void none_of_hidden(const char *text, const char *where)
{
    const char *marks[] = {"Zxqvortex", "zxqvortex", "8731", "8700", "8699",
                           "=89", ">89<", "`89`", " 89"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]) != NULL)
            fail_msg("%s shows the hidden combatant (%s):\n%s", where,
                     marks[i], text);
}

static void test_web_hidden_never_shown(void **state)
{
    struct harness h;
    struct stream s;
    char tok[40], path[96], *page;
    int port, status;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, conf());
    port = harness_log_port(&h, "web");
    fight(&h, "generic");
    json_decref(combat(&h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},"
                                       "{s:s,s:s},{s:s,s:b}]",
                                       "name", "name", "value", "Zxqvortex",
                                       "name", "hp", "value", 8731,
                                       "name", "init", "value", "=89",
                                       "name", "hidden", "value", 1)));
    ok(combat(&h, GM, "begin", NULL));
    json_decref(share(&h, GM, false, tok));
    assert_int_equal(strlen(tok), 32);
    stream_open(&s, port, tok, 0);
    assert_true(stream_until(&s, "event: fight"));

    /* the hidden one acts first (89): hurt, conditioned, its turn passes */
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Zxqvortex", "name",
                                      "change", "value", "-31")));
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Zxqvortex", "name",
                                      "change", "value", "-1")));
    ok(combat(&h, GM, "next", NULL));
    assert_true(stream_until(&s, "Aria&#39;s turn"));
    snprintf(path, sizeof path, "/s/%s", tok);
    page = get(port, path, NULL, &status, NULL);
    assert_int_equal(status, 200);
    assert_non_null(strstr(page, "Someone unseen"));
    none_of_hidden(page, "the page");
    none_of_hidden(s.buf, "the event stream");
    free(page);
    stream_close(&s);
    harness_stop(&h);
}

/* A sample of the metrics page, -1 when absent. */
static double metric(int port, const char *series)
{
    int status;
    char *page = get(port, "/metrics", NULL, &status, NULL);
    double v = -1;
    size_t n = strlen(series);
    for (const char *p = page; p && *p; p = strchr(p, '\n'), p = p ? p + 1
                                                                  : NULL)
        if (strncmp(p, series, n) == 0 && p[n] == ' ')
            v = strtod(p + n + 1, NULL);
    free(page);
    return v;
}

static void metric_until(int port, const char *series, double want)
{
    for (int waited = 0; waited < WEB_WAIT_MS; waited += 50) {
        if (metric(port, series) == want)
            return;
        fake_sleep_ms(50);
    }
    fail_msg("%s is %g, want %g", series, metric(port, series), want);
}

static void test_web_limits(void **state)
{
    struct harness h;
    struct stream s[3];
    char tok[40], path[96], conf2[512];
    const char *xff_a[] = {"X-Forwarded-For: 198.51.100.1, 203.0.113.7",
                           NULL};
    const char *xff_b[] = {"X-Forwarded-For: 203.0.113.8", NULL};
    int port, mport, status;
    (void)state;

    snprintf(conf2, sizeof conf2, "%s[web]\nmax_pages = 3\n"
             "max_pages_per_fight = 2\nrequests_per_minute = 30\n", conf());
    harness_start_conf(&h, NULL, NULL, true, conf2);
    port = harness_log_port(&h, "web");
    mport = harness_log_port(&h, "metrics");
    web_fight(&h);
    json_decref(share(&h, GM, false, tok));
    assert_int_equal(strlen(tok), 32);

    /* two pages on the fight; the third is refused */
    for (int i = 0; i < 2; i++) {
        stream_open(&s[i], port, tok, 0);
        assert_true(stream_until(&s[i], "event: fight"));
    }
    snprintf(path, sizeof path, "/s/%s/events", tok);
    free(get(port, path, NULL, &status, NULL));
    assert_int_equal(status, 503);
    metric_until(mport, "fray_web_pages_open", 2);
    assert_true(metric(mport, "fray_web_refused_total") >= 1);
    /* one closed: room again */
    stream_close(&s[1]);
    metric_until(mport, "fray_web_pages_open", 1);
    stream_open(&s[1], port, tok, 0);
    assert_true(stream_until(&s[1], "event: fight"));

    /* requests per address: the address a local proxy names */
    snprintf(path, sizeof path, "/s/%s", tok);
    for (int i = 0; i < 30; i++) {
        free(get(port, path, xff_a, &status, NULL));
        assert_int_equal(status, 200);
    }
    free(get(port, path, xff_a, &status, NULL));
    assert_int_equal(status, 429);
    free(get(port, path, xff_b, &status, NULL));
    assert_int_equal(status, 200);
    stream_close(&s[0]);
    stream_close(&s[1]);
    harness_stop(&h);
}

/* One address holds at most max_pages_per_address pages, on any fight
 * (here the address a local proxy names): past it that address is
 * refused while another is still served, and a page it closes makes room. */
static void test_web_pages_per_address(void **state)
{
    struct harness h;
    struct stream s[4];
    char tok[40], path[96], conf2[512];
    const char *xff_a[] = {"X-Forwarded-For: 198.51.100.9", NULL};
    int port, mport, status;
    (void)state;

    snprintf(conf2, sizeof conf2, "%s[web]\nmax_pages_per_address = 2\n",
             conf());
    harness_start_conf(&h, NULL, NULL, true, conf2);
    port = harness_log_port(&h, "web");
    mport = harness_log_port(&h, "metrics");
    web_fight(&h);
    json_decref(share(&h, GM, false, tok));
    for (int i = 0; i < 2; i++) {
        stream_open_for(&s[i], port, tok, 0, "198.51.100.9");
        assert_true(stream_until(&s[i], "event: fight"));
    }
    snprintf(path, sizeof path, "/s/%s/events", tok);
    free(get(port, path, xff_a, &status, NULL));
    assert_int_equal(status, 503);
    /* another address is served */
    stream_open_for(&s[2], port, tok, 0, "203.0.113.9");
    assert_true(stream_until(&s[2], "event: fight"));
    /* one of the first address's closed: room for it again */
    stream_close(&s[1]);
    metric_until(mport, "fray_web_pages_open", 2);
    stream_open_for(&s[3], port, tok, 0, "198.51.100.9");
    assert_true(stream_until(&s[3], "event: fight"));
    stream_close(&s[0]);
    stream_close(&s[2]);
    stream_close(&s[3]);
    harness_stop(&h);
}

/* A page that reads nothing falls behind and is dropped; one that reads
 * keeps up to the last change; the bot answers throughout. */
static void test_web_slow_reader_dropped(void **state)
{
    struct harness h;
    struct stream slow, fast;
    char tok[40], want[64];
    int mport, port;
    (void)state;

    harness_start_conf(&h, NULL, NULL, true, conf());
    port = harness_log_port(&h, "web");
    mport = harness_log_port(&h, "metrics");
    fight(&h, "generic");
    for (int k = 0; k < 2; k++)
        ok(combat(&h, GM, "add", json_pack("[{s:s,s:s},{s:s,s:i},{s:s,s:i}]",
                                           "name", "name", "value", k
                                           ? "Orc of the Long Winding Valley"
                                           : "Troll of the Misty Mountains",
                                           "name", "count", "value", 20,
                                           "name", "hp", "value", 90)));
    ok(combat(&h, GM, "begin", NULL));
    json_decref(share(&h, GM, false, tok));
    stream_open(&slow, port, tok, 2048);
    stream_open(&fast, port, tok, 0);
    assert_true(stream_until(&fast, "event: fight"));
    metric_until(mport, "fray_web_pages_open", 2);
    int i;
    for (i = 1; i <= 2000 && metric(mport, "fray_web_pages_dropped_total")
                                < 1; i++) {
        ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                          "name", "value",
                                          "Orc of the Long Winding Valley 1",
                                          "name", "change", "value",
                                          i % 2 ? "-1" : "+1")));
        stream_drain(&fast);            /* the reading page keeps up */
    }
    assert_true(metric(mport, "fray_web_pages_dropped_total") >= 1);
    metric_until(mport, "fray_web_pages_open", 1);
    ok(combat(&h, GM, "hp", json_pack("[{s:s,s:s},{s:s,s:s}]", "name",
                                      "name", "value", "Aria", "name",
                                      "change", "value", "-3")));
    snprintf(want, sizeof want, "hp 17/20");
    assert_true(stream_until(&fast, want));
    stream_close(&slow);
    stream_close(&fast);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_web_link_life),
        cmocka_unit_test(test_web_idle_connections_refuse_nobody),
        cmocka_unit_test(test_web_refuses_websocket),
        cmocka_unit_test(test_web_hidden_never_shown),
        cmocka_unit_test(test_web_limits),
        cmocka_unit_test(test_web_pages_per_address),
        cmocka_unit_test(test_web_slow_reader_dropped),
    };
    return cmocka_run_group_tests_name("daemon_web", tests, NULL, NULL);
}
