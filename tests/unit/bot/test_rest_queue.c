/* test_rest_queue.c - the REST queue is bounded per route: against a
 * server that takes the connection and never answers, one channel's
 * messages stop queueing at REST_MAX_QUEUED_PER_ROUTE (BOT_LIMIT), while
 * another channel and the interaction callbacks still queue; rest_free()
 * then completes every queued request. */
#include "support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "rest.h"

#ifndef REST_MAX_QUEUED_PER_ROUTE
#define REST_MAX_QUEUED_PER_ROUTE 32   /* the bound this test expects */
#endif

static int ndone;

static void on_done(void *ud, const struct rest_result *res)
{
    (void)ud;
    (void)res;
    ndone++;
}

/* A listening socket that is never accepted from: connections complete
 * (the kernel's backlog) and requests get no answer. */
static int silent_server(int *port)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, 256), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

static void test_rest_queue_bounded_per_route(void **state)
{
    struct log lg;
    struct rest *r = NULL;
    char base[64], path[128];
    int port, fd = silent_server(&port), ok = 0, full = 0, submitted = 0;
    (void)state;

    log_init(&lg, stderr, LOG_LVL_ERR);
    snprintf(base, sizeof base, "http://127.0.0.1:%d/api/v10", port);
    struct rest_opts o = {
        .api_base = base, .token = "test-token", .connect_timeout_ms = 60000,
        .timeout_ms = 60000, .max_retries = 0, .retry_base_ms = 1000,
        .global_per_sec = 45, .log = &lg,
    };
    assert_int_equal(rest_new(&o, &r), BOT_OK);
    ndone = 0;
    for (int i = 0; i < 3 * REST_MAX_QUEUED_PER_ROUTE; i++) {
        enum bot_err e = rest_submit(r, "POST", "/channels/777/messages",
                                     "{\"content\":\"x\"}", on_done, NULL);
        if (e == BOT_OK)
            ok++;
        else if (e == BOT_LIMIT)
            full++;
        else
            fail_msg("rest_submit: %s", bot_errname(e));
    }
    submitted += ok;
    /* one may have left the queue for curl (an unknown bucket lets one
     * request through), the rest wait: at most the bound, plus that one */
    print_message("queued %d, refused %d\n", ok, full);
    assert_true(ok >= REST_MAX_QUEUED_PER_ROUTE);
    assert_true(ok <= REST_MAX_QUEUED_PER_ROUTE + 1);
    /* another channel is another route */
    assert_int_equal(rest_submit(r, "POST", "/channels/778/messages", "{}",
                                 on_done, NULL), BOT_OK);
    submitted++;
    /* each interaction's callback is its own, never refused */
    for (int i = 0; i < 2 * REST_MAX_QUEUED_PER_ROUTE; i++) {
        snprintf(path, sizeof path, "/interactions/%d/tok%d/callback",
                 1000 + i, i);
        assert_int_equal(rest_submit(r, "POST", path, "{}", on_done, NULL),
                         BOT_OK);
        submitted++;
    }
    struct rest_stats st;
    rest_get_stats(r, &st);
    assert_true(st.route_full >= 2 * REST_MAX_QUEUED_PER_ROUTE - 1);
    assert_true(st.queued_peak >= REST_MAX_QUEUED_PER_ROUTE);
    rest_free(r);
    assert_int_equal(ndone, submitted);   /* none lost */
    close(fd);
    log_cleanup(&lg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rest_queue_bounded_per_route),
    };
    return cmocka_run_group_tests_name("rest_queue", tests, NULL, NULL);
}
