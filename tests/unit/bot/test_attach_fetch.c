/* test_attach_fetch.c - attachment downloads (attach.h) over real HTTP
 * against the fake Discord's attachment host: the file arrives whole; no
 * Authorization header reaches the host; a redirect is refused and not
 * followed; a body past 256 KB, a wrong content type, an error status and
 * a file declared too big are refused (the last without any request); a
 * download held by the host does not hold up the others. Waits are on
 * the download thread's wake (a pipe), never on sleeps. */
#include "support.h"

#include <curl/curl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attach.h"
#include "fake_client.h"

#define WAIT_MS 120000             /* generous: a loaded 2-core machine */

struct fx {
    struct fake_proc fake;
    struct att *att;
    int wake[2];                   /* the thread writes, the test polls */
};

struct got {
    bool done;
    struct att_result res;
    char *data;
};

static void on_wake(void *ud)
{
    struct fx *f = ud;
    ssize_t n = write(f->wake[1], "x", 1);
    (void)n;
}

static void on_done(void *ud, const struct att_result *res)
{
    struct got *g = ud;
    g->done = true;
    g->res = *res;
    g->data = strdup(res->data);
    g->res.data = g->data;
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    struct att_policy pol;
    char plain[32], why[128];

    assert_non_null(f);
    assert_int_equal(fake_server_start(&f->fake, NULL), 0);
    assert_int_equal(pipe(f->wake), 0);
    snprintf(plain, sizeof plain, "127.0.0.1:%d", f->fake.port);
    assert_true(att_policy_parse(&pol, ATT_DEFAULT_HOSTS, plain, why,
                                 sizeof why));
    /* the fake is on loopback: allowed by name */
    assert_true(att_policy_allow(&pol, "127.0.0.1", why, sizeof why));
    /* timeouts far beyond any wait here: a held download is released by
     * the test, never timed out */
    struct att_opts o = {.policy = &pol, .connect_timeout_ms = 60000,
                         .timeout_ms = 300000, .wake = on_wake,
                         .wake_ud = f};
    assert_true(att_new(&o, &f->att));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    att_free(f->att);
    fake_server_stop(&f->fake);
    close(f->wake[0]);
    close(f->wake[1]);
    free(f);
    return 0;
}

/* Register a file on the fake's host; returns its attachment object. */
static json_t *add_file(struct fx *f, const char *name, const char *content,
                        const char *ctype, const char *mode)
{
    json_t *req = json_pack("{s:s,s:s,s:s,s:s}", "filename", name, "content",
                            content, "content_type", ctype, "mode", mode);
    char *text = json_dumps(req, 0);
    int status = 0;
    json_t *a = fake_post_json(f->fake.port, "/_test/attachment", text,
                               &status);
    assert_int_equal(status, 200);
    free(text);
    json_decref(req);
    return a;
}

static enum att_err fetch(struct fx *f, const json_t *a, struct got *g)
{
    return att_fetch(f->att, 1, json_string_value(json_object_get(a, "url")),
                     json_integer_value(json_object_get(a, "size")),
                     json_string_value(json_object_get(a, "content_type")),
                     json_string_value(json_object_get(a, "filename")),
                     on_done, g);
}

/* Dispatch until every g in gs[0..n) is done. */
static void wait_all(struct fx *f, struct got **gs, int n)
{
    for (;;) {
        bool all = true;
        char buf[64];
        struct pollfd p = {.fd = f->wake[0], .events = POLLIN};
        att_dispatch_done(f->att);
        for (int i = 0; i < n; i++)
            all = all && gs[i]->done;
        if (all)
            return;
        assert_true(poll(&p, 1, WAIT_MS) == 1);
        assert_true(read(f->wake[0], buf, sizeof buf) > 0);
    }
}

static void wait_one(struct fx *f, struct got *g)
{
    wait_all(f, &g, 1);
}

static json_t *requests(struct fx *f)
{
    json_t *j = fake_get_json(f->fake.port, "/_test/attachment_requests",
                              NULL);
    json_t *arr = json_incref(json_object_get(j, "requests"));
    json_decref(j);
    assert_non_null(arr);
    return arr;
}

static void test_fetch_ok_without_token(void **state)
{
    struct fx *f = *state;
    struct got g = {0};
    const char *doc = "{\"fray\":\"export\",\"version\":1}";
    json_t *a = add_file(f, "aria.json", doc,
                         "application/json; charset=utf-8", "ok");

    assert_int_equal(fetch(f, a, &g), ATT_E_OK);
    wait_one(f, &g);
    assert_int_equal(g.res.err, ATT_E_OK);
    assert_int_equal(g.res.status, 200);
    assert_int_equal(g.res.len, strlen(doc));
    assert_string_equal(g.data, doc);
    /* what the host saw: one GET, no Authorization header at all */
    json_t *rq = requests(f);
    assert_int_equal(json_array_size(rq), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(rq, 0), "authorization")),
                        "");
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(rq, 0), "method")),
                        "GET");
    json_decref(rq);
    json_decref(a);
    free(g.data);
}

static void test_fetch_redirect_not_followed(void **state)
{
    struct fx *f = *state;
    struct got g = {0};
    json_t *a = add_file(f, "aria.json", "{}", "application/json",
                         "redirect");

    assert_int_equal(fetch(f, a, &g), ATT_E_OK);
    wait_one(f, &g);
    assert_int_equal(g.res.err, ATT_E_REDIRECT);
    assert_int_equal(g.res.status, 302);
    assert_int_equal(g.res.len, 0);
    /* the redirect's target (".../followed") was never asked for */
    json_t *rq = requests(f);
    assert_int_equal(json_array_size(rq), 1);
    assert_null(strstr(json_string_value(json_object_get(
                           json_array_get(rq, 0), "path")),
                       "followed"));
    json_decref(rq);
    json_decref(a);
    free(g.data);
}

static void test_fetch_refusals(void **state)
{
    struct fx *f = *state;
    struct got huge = {0}, type = {0}, status = {0};
    struct got *all[] = {&huge, &type, &status};
    json_t *a1 = add_file(f, "big.json", "{}", "application/json", "huge");
    json_t *a2 = add_file(f, "page.json", "{}", "application/json",
                          "wrong_type");
    json_t *a3 = add_file(f, "gone.json", "{}", "application/json",
                          "status");

    assert_int_equal(fetch(f, a1, &huge), ATT_E_OK);
    assert_int_equal(fetch(f, a2, &type), ATT_E_OK);
    assert_int_equal(fetch(f, a3, &status), ATT_E_OK);
    wait_all(f, all, 3);
    /* the host sends 1 MiB for a file declared 2 bytes: cut at 256 KB */
    assert_int_equal(huge.res.err, ATT_E_TOO_BIG);
    assert_int_equal(huge.res.len, 0);
    assert_int_equal(type.res.err, ATT_E_TYPE);
    assert_int_equal(status.res.err, ATT_E_STATUS);
    assert_int_equal(status.res.status, 404);
    json_decref(a1);
    json_decref(a2);
    json_decref(a3);
    free(huge.data);
    free(type.data);
    free(status.data);
}

static void test_fetch_refused_before_asking(void **state)
{
    struct fx *f = *state;
    struct got g = {0};
    char url[128];
    json_t *a = add_file(f, "aria.json", "{}", "application/json", "ok");
    const char *u = json_string_value(json_object_get(a, "url"));

    /* declared over the limit, or not JSON: no request at all */
    assert_int_equal(att_fetch(f->att, 1, u, ATT_MAX_BYTES + 1,
                               "application/json", "aria.json", on_done, &g),
                     ATT_E_TOO_BIG);
    assert_int_equal(att_fetch(f->att, 1, u, 2, "image/png", "aria.png",
                               on_done, &g),
                     ATT_E_TYPE);
    /* the same file by another name of the host: not the allowed one */
    snprintf(url, sizeof url, "http://localhost:%d/attachments/1/2/a.json",
             f->fake.port);
    assert_int_equal(att_fetch(f->att, 1, url, 2, "application/json", "a.json",
                               on_done, &g),
                     ATT_E_SCHEME);
    json_t *rq = requests(f);
    assert_int_equal(json_array_size(rq), 0);
    json_decref(rq);
    assert_false(g.done);
    json_decref(a);
}

static void test_fetch_held_does_not_block(void **state)
{
    struct fx *f = *state;
    struct got slow = {0}, fast = {0};
    json_t *a1 = add_file(f, "slow.json", "{\"a\":1}", "application/json",
                          "slow");
    json_t *a2 = add_file(f, "fast.json", "{\"b\":2}", "application/json",
                          "ok");

    assert_int_equal(fetch(f, a1, &slow), ATT_E_OK);
    assert_int_equal(fetch(f, a2, &fast), ATT_E_OK);
    /* the host holds the first until told: the second still comes */
    wait_one(f, &fast);
    assert_int_equal(fast.res.err, ATT_E_OK);
    assert_false(slow.done);
    json_t *ok = fake_post_json(f->fake.port, "/_test/attachment_release",
                                "{}", NULL);
    assert_non_null(ok);
    json_decref(ok);
    wait_one(f, &slow);
    assert_int_equal(slow.res.err, ATT_E_OK);
    assert_string_equal(slow.data, "{\"a\":1}");
    json_decref(a1);
    json_decref(a2);
    free(slow.data);
    free(fast.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fetch_ok_without_token, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fetch_redirect_not_followed,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_fetch_refusals, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_fetch_refused_before_asking,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_fetch_held_does_not_block,
                                        setup, teardown),
    };
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return cmocka_run_group_tests_name("attach_fetch", tests, NULL, NULL);
}
