/*
 * daemon_harness.c - fake-discord + fray for integration tests.
 */
#include "support.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon_harness.h"

static const char harness_conf[] =
    "[store]\npath = %s/fray.db\n"
    "[log]\nlevel = debug\n"
    "[gateway]\nbackoff_min_ms = 100\nbackoff_max_ms = 1000\n"
    "ready_timeout_ms = 5000\n"
    "[rest]\nretry_base_ms = 50\n"
    "[daemon]\nshutdown_grace_ms = 2000\n";

void harness_dump_log(const struct harness *h)
{
    FILE *f = fopen(h->log, "r");
    char line[4096];
    if (!f)
        return;
    fprintf(stderr, "---- fray log (%s) ----\n", h->log);
    while (fgets(line, sizeof line, f))
        fputs(line, stderr);
    fprintf(stderr, "---- end ----\n");
    fclose(f);
}

void harness_start_fray(struct harness *h, const char *token)
{
    const char *args[] = {"run", "--config", h->conf, NULL};
    struct fake_fray_opts o = {
        .binary = FRAY_BINARY, .args = args, .token = token,
        .log_path = h->log,
    };
    h->fray = fake_fray_start(h->fake.port, &o);
    assert_true(h->fray > 0);
}

void harness_start(struct harness *h, const char *const *fake_args,
                   const char *token, bool wait_ready)
{
    FILE *f;

    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "/tmp/fray-it-XXXXXX");
    assert_non_null(mkdtemp(h->dir));
    snprintf(h->conf, sizeof h->conf, "%s/fray.conf", h->dir);
    snprintf(h->log, sizeof h->log, "%s/fray.log", h->dir);
    f = fopen(h->conf, "w");
    assert_non_null(f);
    fprintf(f, harness_conf, h->dir);
    fclose(f);
    assert_int_equal(fake_server_start(&h->fake, fake_args), 0);
    harness_start_fray(h, token);
    if (wait_ready && fake_wait_ready(h->fake.port, HARNESS_READY_MS) != 0) {
        harness_dump_log(h);
        fail_msg("fray did not become READY");
    }
}

void harness_roll(struct harness *h, char id[32])
{
    json_t *r = fake_inject(h->fake.port,
                            "{\"type\":\"command\",\"name\":\"roll\","
                            "\"options\":[{\"name\":\"expr\","
                            "\"value\":\"2d20+3\"}]}");
    assert_non_null(r);
    snprintf(id, 32, "%s", json_string_value(json_object_get(r, "id")));
    json_decref(r);
}

json_t *harness_callback(struct harness *h, const char *id)
{
    json_t *cb = fake_wait_callback(h->fake.port, id, HARNESS_CALLBACK_MS);
    if (!cb) {
        harness_dump_log(h);
        fail_msg("no callback for interaction %s", id);
    }
    return cb;
}

int harness_wait_exit(struct harness *h, int timeout_ms)
{
    int st = 0;
    if (h->fray <= 0)
        return -1;
    if (fake_proc_wait(h->fray, timeout_ms, &st) != 0)
        return -1;
    h->fray = 0;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

void harness_stop(struct harness *h)
{
    char cmd[128];
    int st = 0;
    /* A clean stop exits 0; under ASan a leak or a memory error found on
     * the way out makes it fail, and so the test. */
    if (h->fray > 0 &&
        (fake_proc_stop(h->fray, SIGTERM, 5000, &st) != 0 ||
         !WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
        harness_dump_log(h);
        h->fray = 0;
        fake_server_stop(&h->fake);
        fail_msg("fray did not stop cleanly (wait status %d)", st);
    }
    h->fray = 0;
    fake_server_stop(&h->fake);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", h->dir);
    if (h->dir[0] && system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", h->dir);
}

json_t *harness_interact(struct harness *h, json_t *desc)
{
    char *text = json_dumps(desc, JSON_COMPACT);
    json_t *r, *cb, *body;
    assert_non_null(text);
    r = fake_inject(h->fake.port, text);
    if (!r)
        fail_msg("fake-discord refused the interaction %s", text);
    free(text);
    cb = harness_callback(h, json_string_value(json_object_get(r, "id")));
    json_decref(r);
    body = json_incref(json_object_get(cb, "body"));
    json_decref(cb);
    assert_non_null(body);
    return body;
}

json_t *harness_requests(struct harness *h, const char *method,
                         const char *part, long long *since)
{
    char path[512];
    json_t *all, *recs, *out = json_array(), *rec;
    size_t i;
    snprintf(path, sizeof path, "/_test/requests?since=%lld", *since);
    all = fake_get_json(h->fake.port, path, NULL);
    recs = json_object_get(all, "requests");
    json_array_foreach(recs, i, rec) {
        const char *m = json_string_value(json_object_get(rec, "method"));
        const char *p = json_string_value(json_object_get(rec, "path"));
        long long seq = json_integer_value(json_object_get(rec, "seq"));
        if (seq > *since)
            *since = seq;
        if ((method && (!m || strcmp(m, method) != 0)) ||
            (part && (!p || !strstr(p, part))))
            continue;
        json_array_append(out, rec);
    }
    json_decref(all);
    return out;
}

json_t *harness_wait_request(struct harness *h, const char *method,
                             const char *part, long long *since,
                             int timeout_ms)
{
    for (int waited = 0; waited <= timeout_ms; waited += 20) {
        long long from = *since;
        json_t *got = harness_requests(h, method, part, &from);
        json_t *first = json_array_get(got, 0);
        /* a request still being answered has no status yet: wait for it
         * rather than skip past it */
        if (first && json_object_get(first, "status")) {
            json_incref(first);
            *since = json_integer_value(json_object_get(first, "seq"));
            json_decref(got);
            return first;
        }
        json_decref(got);
        fake_sleep_ms(20);
    }
    return NULL;
}

long long harness_last_request(struct harness *h)
{
    json_t *j = fake_get_json(h->fake.port, "/_test/requests?since=0&"
                              "method=NONE", NULL);
    long long last = json_integer_value(json_object_get(j, "last"));
    json_decref(j);
    return last;
}

void harness_assert_no_violations(struct harness *h)
{
    long long v = fake_stat(h->fake.port, "violations");
    if (v != 0) {
        json_t *list = fake_get_json(h->fake.port, "/_test/violations", NULL);
        char *s = json_dumps(list, JSON_INDENT(1));
        harness_dump_log(h);
        fail_msg("fake-discord saw %lld violations: %s", v, s ? s : "?");
    }
}
