/* fake_client.c - see fake_client.h. */
#include "fake_client.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FAKE_START_TIMEOUT_MS 5000
#define FAKE_STOP_TIMEOUT_MS  2000
#define FAKE_POLL_MS          10
#define FAKE_MAX_ARGS         64
#define FAKE_RESP_MAX         (64 * 1024 * 1024)

void fake_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- processes ---- */

int fake_proc_wait(pid_t pid, int timeout_ms, int *wstatus)
{
    long long end = now_ms() + timeout_ms;
    for (;;) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) {
            if (wstatus)
                *wstatus = st;
            return 0;
        }
        if (r < 0 && errno != EINTR)
            return -1;
        if (now_ms() >= end)
            return 1;
        fake_sleep_ms(FAKE_POLL_MS);
    }
}

int fake_proc_stop(pid_t pid, int sig, int timeout_ms, int *wstatus)
{
    if (pid <= 0 || kill(pid, sig) != 0)
        return -1;
    int r = fake_proc_wait(pid, timeout_ms, wstatus);
    if (r != 1)
        return r;
    kill(pid, SIGKILL);
    return fake_proc_wait(pid, FAKE_STOP_TIMEOUT_MS, wstatus) == 0 ? 1 : -1;
}

/* In the child: die with the test, even if it crashes. */
static void child_guard(pid_t parent, int sig)
{
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent)
        _exit(127);
}

int fake_server_start(struct fake_proc *p, const char *const *args)
{
    p->pid = 0;
    p->port = 0;
    const char *argv[FAKE_MAX_ARGS];
    int n = 0;
    argv[n++] = FAKE_DISCORD_BINARY;
    argv[n++] = "--port";
    argv[n++] = "0";
    for (int i = 0; args && args[i] && n < FAKE_MAX_ARGS - 1; i++)
        argv[n++] = args[i];
    argv[n] = NULL;

    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        child_guard(parent, SIGTERM);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    char line[64];
    size_t len = 0;
    long long end = now_ms() + FAKE_START_TIMEOUT_MS;
    while (len < sizeof line - 1 && memchr(line, '\n', len) == NULL) {
        struct pollfd pfd = { fds[0], POLLIN, 0 };
        int left = (int)(end - now_ms());
        if (left <= 0 || poll(&pfd, 1, left) <= 0)
            break;
        ssize_t r = read(fds[0], line + len, sizeof line - 1 - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fds[0]);
    line[len] = '\0';
    if (sscanf(line, "PORT %d", &p->port) != 1 || p->port <= 0) {
        fake_proc_stop(pid, SIGKILL, FAKE_STOP_TIMEOUT_MS, NULL);
        return -1;
    }
    p->pid = pid;
    return 0;
}

int fake_server_stop(struct fake_proc *p)
{
    if (p->pid <= 0)
        return -1;
    int st = -1;
    fake_proc_stop(p->pid, SIGTERM, FAKE_STOP_TIMEOUT_MS, &st);
    p->pid = 0;
    return st;
}

pid_t fake_fray_start(int port, const struct fake_fray_opts *o)
{
    if (o == NULL || o->binary == NULL)
        return -1;
    const char *argv[FAKE_MAX_ARGS];
    int n = 0;
    argv[n++] = o->binary;
    for (int i = 0; o->args && o->args[i] && n < FAKE_MAX_ARGS - 1; i++)
        argv[n++] = o->args[i];
    argv[n] = NULL;
    char base[96];
    snprintf(base, sizeof base, "http://127.0.0.1:%d/api/v10", port);

    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid < 0 ? -1 : pid;
    child_guard(parent, SIGKILL);
    unsetenv("CREDENTIALS_DIRECTORY");
    setenv("DISCORD_TOKEN", o->token ? o->token : "fake-token", 1);
    setenv("DISCORD_API_BASE", base, 1);
    for (int i = 0; o->env && o->env[i]; i++) {
        const char *eq = strchr(o->env[i], '=');
        if (eq == NULL)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->env[i]), o->env[i]);
        setenv(name, eq + 1, 1);
    }
    if (o->log_path) {
        int fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    execv(argv[0], (char *const *)argv);
    _exit(127);
}

/* ---- HTTP ---- */

static int connect_local(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval tv = { FAKE_CLIENT_TIMEOUT_MS / 1000, 0 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t w = send(fd, buf, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        len -= (size_t)w;
    }
    return 0;
}

static int parse_response(char *raw, size_t len, struct fake_resp *out)
{
    char *sep = strstr(raw, "\r\n\r\n");
    if (sep == NULL)
        return -1;
    *sep = '\0';
    if (sscanf(raw, "HTTP/%*d.%*d %d", &out->status) != 1)
        return -1;
    out->headers = strdup(raw);
    const char *b = sep + 4;
    size_t blen = len - (size_t)(b - raw);
    out->body = malloc(blen + 1);
    if (out->headers == NULL || out->body == NULL)
        return -1;
    memcpy(out->body, b, blen);
    out->body[blen] = '\0';
    out->body_len = blen;
    return 0;
}

/* Body bytes expected after the header block, or -1 if unknown. */
static long expected_total(const char *raw, size_t len)
{
    const char *sep = strstr(raw, "\r\n\r\n");
    if (sep == NULL)
        return -1;
    struct fake_resp tmp = { 0 };
    tmp.headers = strndup(raw, (size_t)(sep - raw));
    char v[32];
    long total = -1;
    if (tmp.headers && fake_resp_header(&tmp, "content-length", v, sizeof v))
        total = (long)(sep - raw) + 4 + strtol(v, NULL, 10);
    free(tmp.headers);
    (void)len;
    return total;
}

int fake_request(int port, const char *method, const char *path,
                 const char *const *headers, const char *body,
                 struct fake_resp *out)
{
    memset(out, 0, sizeof *out);
    int fd = connect_local(port);
    if (fd < 0)
        return -1;
    size_t blen = body ? strlen(body) : 0;
    bool has_ctype = false;
    size_t hcap = 512 + blen;
    for (int i = 0; headers && headers[i]; i++) {
        hcap += strlen(headers[i]) + 2;
        has_ctype |= strncasecmp(headers[i], "content-type:", 13) == 0;
    }
    hcap += strlen(path) + strlen(method);
    char *req = malloc(hcap);
    if (req == NULL) {
        close(fd);
        return -1;
    }
    int n = snprintf(req, hcap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     "Connection: close\r\n", method, path, port);
    for (int i = 0; headers && headers[i]; i++)
        n += snprintf(req + n, hcap - (size_t)n, "%s\r\n", headers[i]);
    if (body && !has_ctype)
        n += snprintf(req + n, hcap - (size_t)n,
                      "Content-Type: application/json\r\n");
    if (body || strcmp(method, "GET") != 0)
        n += snprintf(req + n, hcap - (size_t)n, "Content-Length: %zu\r\n",
                      blen);
    n += snprintf(req + n, hcap - (size_t)n, "\r\n");
    int rc = send_all(fd, req, (size_t)n);
    if (rc == 0 && blen)
        rc = send_all(fd, body, blen);
    free(req);

    size_t cap = 4096, len = 0;
    char *raw = malloc(cap);
    long total = -1;
    while (rc == 0 && raw) {
        if (len + 1 >= cap) {
            if (cap >= FAKE_RESP_MAX)
                break;
            char *nr = realloc(raw, cap * 2);
            if (nr == NULL)
                break;
            raw = nr;
            cap *= 2;
        }
        ssize_t r = recv(fd, raw + len, cap - len - 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
        raw[len] = '\0';
        if (total < 0)
            total = expected_total(raw, len);
        if (total >= 0 && (long)len >= total)
            break;
    }
    close(fd);
    if (raw == NULL)
        return -1;
    raw[len] = '\0';
    rc = rc == 0 ? parse_response(raw, len, out) : -1;
    free(raw);
    if (rc) {
        fake_resp_free(out);
        out->status = 0;
    }
    return rc;
}

void fake_resp_free(struct fake_resp *r)
{
    free(r->headers);
    free(r->body);
    r->headers = NULL;
    r->body = NULL;
    r->body_len = 0;
}

const char *fake_resp_header(const struct fake_resp *r, const char *name,
                             char *buf, size_t cap)
{
    size_t nl = strlen(name);
    for (const char *p = r->headers; p && *p;) {
        const char *eol = strstr(p, "\r\n");
        size_t ll = eol ? (size_t)(eol - p) : strlen(p);
        if (ll > nl && p[nl] == ':' && strncasecmp(p, name, nl) == 0) {
            const char *v = p + nl + 1;
            while (*v == ' ')
                v++;
            size_t vl = ll - (size_t)(v - p);
            if (vl >= cap)
                vl = cap - 1;
            memcpy(buf, v, vl);
            buf[vl] = '\0';
            return buf;
        }
        p = eol ? eol + 2 : p + ll;
    }
    return NULL;
}

/* ---- control API ---- */

static json_t *call_json(int port, const char *method, const char *path,
                         const char *body, int *status)
{
    struct fake_resp r;
    json_t *j = NULL;
    if (fake_request(port, method, path, NULL, body, &r) == 0 && r.body_len)
        j = json_loadb(r.body, r.body_len, JSON_DECODE_ANY, NULL);
    if (status)
        *status = r.status;
    fake_resp_free(&r);
    return j;
}

json_t *fake_get_json(int port, const char *path, int *status)
{
    return call_json(port, "GET", path, NULL, status);
}

json_t *fake_post_json(int port, const char *path, const char *body,
                       int *status)
{
    return call_json(port, "POST", path, body ? body : "{}", status);
}

json_t *fake_inject(int port, const char *desc_json)
{
    int st = 0;
    json_t *j = fake_post_json(port, "/_test/interaction", desc_json, &st);
    if (st != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

json_t *fake_stats(int port)
{
    return fake_get_json(port, "/_test/stats", NULL);
}

long long fake_stat(int port, const char *key)
{
    json_t *s = fake_stats(port);
    json_t *v = json_object_get(s, key);
    long long r = -1;
    if (json_is_integer(v))
        r = json_integer_value(v);
    else if (json_is_boolean(v))
        r = json_is_true(v);
    json_decref(s);
    return r;
}

int fake_wait_stat(int port, const char *key, long long min, int timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    do {
        if (fake_stat(port, key) >= min)
            return 0;
        fake_sleep_ms(FAKE_POLL_MS * 2);
    } while (now_ms() < end);
    return -1;
}

int fake_wait_ready(int port, int timeout_ms)
{
    return fake_wait_stat(port, "ready", 1, timeout_ms);
}

json_t *fake_wait_callback(int port, const char *interaction_id,
                           int timeout_ms)
{
    char path[160];
    snprintf(path, sizeof path, "/_test/callbacks/%s", interaction_id);
    long long end = now_ms() + timeout_ms;
    do {
        int st = 0;
        json_t *j = fake_get_json(port, path, &st);
        if (st == 200)
            return j;
        json_decref(j);
        fake_sleep_ms(FAKE_POLL_MS);
    } while (now_ms() < end);
    return NULL;
}

int fake_fault(int port, const char *fault_json)
{
    int st = 0;
    json_decref(fake_post_json(port, "/_test/fault", fault_json, &st));
    return st;
}

int fake_reset(int port)
{
    int st = 0;
    json_decref(fake_post_json(port, "/_test/reset", "{}", &st));
    return st == 200 ? 0 : -1;
}
