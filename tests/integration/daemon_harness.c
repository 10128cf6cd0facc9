/*
 * daemon_harness.c - fake-discord + fray for integration tests.
 */
#include "support.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon_harness.h"

/* harness_wait_log(): 10 s at most, a look every 50 ms (a loaded 2-core
 * machine can take seconds for what takes milliseconds alone). */
#define HARNESS_LOG_WAIT_TRIES 200
#define HARNESS_LOG_WAIT_US (50 * 1000)

static const char harness_conf[] =
    "[store]\npath = %s/fray.db\n"
    "[log]\nlevel = debug\n"
    "[gateway]\nbackoff_min_ms = 100\nbackoff_max_ms = 1000\n"
    "ready_timeout_ms = 5000\n"
    "[rest]\nretry_base_ms = 50\n"
    "[daemon]\nshutdown_grace_ms = 2000\n";

bool harness_upgrade_refused(int port, const char *path)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    char req[512], buf[4096];
    size_t len = 0;
    bool closed = false;
    int fd = socket(AF_INET, SOCK_STREAM, 0), n;

    assert_true(fd >= 0);
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: fray.test\r\n"
                 "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n", path);
    assert_int_equal(write(fd, req, (size_t)n), n);
    for (int waited = 0; waited < HARNESS_STAT_MS && !closed;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 50) != 1) {
            waited += 50;
            continue;
        }
        ssize_t k = read(fd, buf + len, sizeof buf - 1 - len);
        closed = k <= 0 || len + (size_t)k >= sizeof buf - 1;
        len += k > 0 ? (size_t)k : 0;
    }
    buf[len] = '\0';
    close(fd);
    return closed && strstr(buf, " 101 ") == NULL;
}

int harness_log_port(struct harness *h, const char *what)
{
    char needle[64];
    snprintf(needle, sizeof needle, "%s: http://127.0.0.1:", what);
    for (int waited = 0; waited < HARNESS_STAT_MS; waited += 50) {
        char line[1024];
        FILE *f = fopen(h->log, "r");
        int port = 0;
        while (f && fgets(line, sizeof line, f) && !port) {
            const char *p = strstr(line, needle);
            if (p)
                port = atoi(p + strlen(needle));
        }
        if (f)
            fclose(f);
        if (port > 0)
            return port;
        fake_sleep_ms(50);
    }
    harness_dump_log(h);
    fail_msg("fray did not say where it serves %s", what);
    return 0;
}

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

/* Lines of fray's log holding needle: their count, and the number of the
 * first one (0: none) into *first. */
static int log_scan(const struct harness *h, const char *needle, int *first)
{
    FILE *f = fopen(h->log, "r");
    char line[4096];
    int n = 0, at = 0;
    *first = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL) {
        at++;
        if (strstr(line, needle) != NULL && n++ == 0)
            *first = at;
    }
    fclose(f);
    return n;
}

int harness_log_count(const struct harness *h, const char *needle)
{
    int first;
    return log_scan(h, needle, &first);
}

int harness_log_line(const struct harness *h, const char *needle)
{
    int first;
    log_scan(h, needle, &first);
    return first;
}

void harness_wait_log(const struct harness *h, const char *needle, int min)
{
    for (int i = 0; i < HARNESS_LOG_WAIT_TRIES; i++) {
        if (harness_log_count(h, needle) >= min)
            return;
        usleep(HARNESS_LOG_WAIT_US);
    }
    harness_dump_log(h);
    fail_msg("the log lacks \"%s\" (x%d)", needle, min);
}

/* The fray binary under test: FRAY_TEST_BINARY when set (a test build of
 * fray with a test-only rule system, tests/rulesets/), else the one built
 * here. */
static const char *fray_binary(void)
{
    const char *b = getenv("FRAY_TEST_BINARY");
    return b != NULL && b[0] != '\0' ? b : FRAY_BINARY;
}

pid_t harness_spawn_fray(struct harness *h, const char *log_path)
{
    const char *args[] = {"run", "--config", h->conf, NULL};
    struct fake_fray_opts o = {
        .binary = fray_binary(), .args = args, .token = h->token,
        .log_path = log_path,
    };
    return fake_fray_start(h->fake.port, &o);
}

void harness_start_fray(struct harness *h, const char *token)
{
    const char *args[] = {"run", "--config", h->conf, NULL};
    struct fake_fray_opts o = {
        .binary = fray_binary(), .args = args,
        .token = token ? token : h->token, .log_path = h->log,
    };
    h->fray = fake_fray_start(h->fake.port, &o);
    assert_true(h->fray > 0);
}

/* The suite's token (token_check new, before the integration tests), or,
 * for a test binary run by hand, one of this harness's own. */
static void harness_token(struct harness *h)
{
    char path[HARNESS_PATH_MAX];
    snprintf(path, sizeof path, "%s/token", FRAY_TEST_ARTIFACTS);
    if (tscan_token_load(path, h->token) != 0)
        assert_int_equal(tscan_token_new(h->token), 0);
}

/* <build>/test-artifacts/<test binary>-XXXXXX: inside the build tree, so
 * the suite's final token scan sees whatever a failed test left. */
static void harness_mkdir(struct harness *h)
{
    if (mkdir(FRAY_TEST_ARTIFACTS, 0700) != 0 && errno != EEXIST)
        fail_msg("cannot create %s: %s", FRAY_TEST_ARTIFACTS,
                 strerror(errno));
    snprintf(h->dir, sizeof h->dir, "%s/%s-XXXXXX", FRAY_TEST_ARTIFACTS,
             program_invocation_short_name);
    assert_non_null(mkdtemp(h->dir));
}

void harness_start(struct harness *h, const char *const *fake_args,
                   const char *token, bool wait_ready)
{
    harness_start_conf(h, fake_args, token, wait_ready, NULL);
}

void harness_start_conf(struct harness *h, const char *const *fake_args,
                        const char *token, bool wait_ready,
                        const char *extra_conf)
{
    const char *args[HARNESS_MAX_FAKE_ARGS + 3];
    size_t n = 0;
    FILE *f;

    memset(h, 0, sizeof *h);
    harness_token(h);
    harness_mkdir(h);
    snprintf(h->conf, sizeof h->conf, "%s/fray.conf", h->dir);
    snprintf(h->log, sizeof h->log, "%s/fray.log", h->dir);
    snprintf(h->db, sizeof h->db, "%s/fray.db", h->dir);
    f = fopen(h->conf, "w");
    assert_non_null(f);
    fprintf(f, harness_conf, h->dir);
    if (extra_conf)
        fputs(extra_conf, f);
    fclose(f);
    for (; fake_args && fake_args[n]; n++) {
        assert_true(n < HARNESS_MAX_FAKE_ARGS);
        args[n] = fake_args[n];
    }
    args[n++] = "--token";
    args[n++] = h->token;
    args[n] = NULL;
    assert_int_equal(fake_server_start(&h->fake, args), 0);
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
                            "\"options\":[{\"name\":\"dice\","
                            "\"value\":\"2d20+3\"}]}");
    assert_non_null(r);
    snprintf(id, 32, "%s", json_string_value(json_object_get(r, "id")));
    json_decref(r);
}

void harness_roll_answered(struct harness *h)
{
    char id[32];
    harness_roll(h, id);
    json_decref(harness_callback(h, id));
}

void harness_wait_stat(struct harness *h, const char *key, long long min)
{
    if (fake_wait_stat(h->fake.port, key, min, HARNESS_STAT_MS) != 0) {
        harness_dump_log(h);
        fail_msg("stat %s stayed below %lld (is %lld)", key, min,
                 fake_stat(h->fake.port, key));
    }
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

bool harness_db_has(struct harness *h, const char *sql, const char *arg)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(h->db, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return found;
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

/* The kinds of violation fake-discord recorded that the test did not
 * allow, as text (caller frees), or NULL when there are none. */
static char *unexpected_violations(struct harness *h)
{
    json_t *v = fake_get_json(h->fake.port, "/_test/violations", NULL);
    json_t *by = json_object_get(v, "by_kind"), *n;
    const char *kind;
    char *out = NULL;

    if (!json_is_object(by)) {
        json_decref(v);
        return strdup("fake-discord's /_test/violations did not answer");
    }
    json_object_foreach(by, kind, n) {
        bool ok = json_integer_value(n) == 0;
        for (int i = 0; i < h->nallowed && !ok; i++)
            ok = strcmp(kind, h->allowed[i]) == 0;
        if (!ok) {
            json_t *list = json_object_get(v, "list");
            out = json_dumps(list, JSON_INDENT(1));
            break;
        }
    }
    json_decref(v);
    return out;
}

void harness_allow_violation(struct harness *h, const char *kind)
{
    assert_true(h->nallowed < HARNESS_MAX_ALLOWED);
    h->allowed[h->nallowed++] = kind;
}

long long harness_violations_of(struct harness *h, const char *kind)
{
    json_t *v = fake_get_json(h->fake.port, "/_test/violations", NULL);
    json_t *by = json_object_get(v, "by_kind");
    long long n = json_is_object(by)
                      ? json_integer_value(json_object_get(by, kind))
                      : -1;
    json_decref(v);
    return n;
}

void harness_check_violations(struct harness *h)
{
    char *bad = unexpected_violations(h);
    if (bad) {
        harness_dump_log(h);
        fail_msg("fake-discord saw violations: %s", bad);
    }
}

void harness_check_token(struct harness *h)
{
    long unreadable = 0;
    long n = tscan_path(h->dir, h->token, NULL, stderr, &unreadable);
    if (n != 0)
        fail_msg("%ld file(s) under %s hold the bot token (named above)", n,
                 h->dir);
}

void harness_stop(struct harness *h)
{
    char cmd[HARNESS_PATH_MAX + 16];
    char *bad;
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
    bad = unexpected_violations(h);
    fake_server_stop(&h->fake);
    if (bad) {
        harness_dump_log(h);
        fail_msg("fake-discord saw violations the test did not allow: %s",
                 bad);
    }
    harness_check_token(h);
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

json_t *harness_slash(struct harness *h, const char *user, const char *perms,
                      const char *name, json_t *opts)
{
    json_t *desc = json_pack("{s:s, s:s, s:s, s:o}", "type", "command",
                             "name", name, "user_id", user, "options",
                             opts ? opts : json_array());
    if (perms != NULL)
        json_object_set_new(desc, "permissions", json_string(perms));
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    return cb;
}

void harness_command_names(struct harness *h, const char *scope, char *out,
                           size_t cap, size_t *n)
{
    json_t *j = fake_get_json(h->fake.port, "/_test/commands", NULL);
    json_t *cmds = json_object_get(json_object_get(j, "scopes"), scope);
    size_t i;
    json_t *c;
    out[0] = '\0';
    if (n != NULL)
        *n = json_array_size(cmds);
    json_array_foreach(cmds, i, c) {
        size_t at = strlen(out);
        snprintf(out + at, cap - at, "%s%s", i ? "," : "",
                 json_string_value(json_object_get(c, "name")));
    }
    json_decref(j);
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

void harness_complete(struct harness *h, const char *user, const char *name,
                      const char *sub, json_t *options, char *out,
                      size_t cap)
{
    json_t *opts = sub ? json_pack("[{s:s, s:o}]", "name", sub, "options",
                                   options)
                       : options;
    json_t *desc = json_pack("{s:s, s:s, s:s, s:o}", "type", "autocomplete",
                             "name", name, "user_id", user, "options", opts);
    json_t *cb = harness_interact(h, desc);
    json_decref(desc);
    assert_int_equal(json_integer_value(json_object_get(cb, "type")), 8);
    json_t *choices = json_object_get(json_object_get(cb, "data"), "choices");
    assert_true(json_array_size(choices) <= 25);
    out[0] = '\0';
    json_t *c;
    size_t i;
    json_array_foreach(choices, i, c) {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", i ? "," : "",
                 json_string_value(json_object_get(c, "value")));
    }
    json_decref(cb);
}
