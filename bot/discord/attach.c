/*
 * attach.c - the download thread and the checks before it (attach.h).
 */
#include "attach.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbuf.h"
#include "tls.h"
#include "xfer.h"

#define ATT_IDLE_POLL_MS 1000      /* nothing to do: look at stop again */
#define ATT_USER_AGENT "fray attachment download"

_Static_assert(XFER_MAX_BYTES == ATT_MAX_BYTES,
               "a file the console writes is one Discord may bring back");

static const char *const att_msgs[] = {
#define ATT_ERR_MSG_(n, s) s,
    ATT_ERR_MAP(ATT_ERR_MSG_)
#undef ATT_ERR_MSG_
};

static const char *const att_names[] = {
#define ATT_ERR_NAME_(n, s) #n,
    ATT_ERR_MAP(ATT_ERR_NAME_)
#undef ATT_ERR_NAME_
};

const char *att_strerror(enum att_err e)
{
    return (unsigned)e < ATT_E__COUNT ? att_msgs[e] : "unknown error";
}

const char *att_errname(enum att_err e)
{
    return (unsigned)e < ATT_E__COUNT ? att_names[e] : "UNKNOWN";
}

/* ---- the policy ---- */

/* A host name or IP literal as it may appear in a url: letters, digits,
 * '-', '.', and for IPv6 literals ':' and brackets. */
static bool host_ok(const char *h, size_t n)
{
    if (n == 0 || n > ATT_MAX_HOST)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = h[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '-' || c == '.' || c == ':' ||
              c == '[' || c == ']'))
            return false;
    }
    return true;
}

bool att_policy_parse(struct att_policy *p, const char *hosts,
                      const char *plain, char *why, size_t whylen)
{
    const char *s = hosts ? hosts : "";

    memset(p, 0, sizeof *p);
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        while (n && s[0] == ' ')
            s++, n--;
        while (n && s[n - 1] == ' ')
            n--;
        if (!host_ok(s, n) || memchr(s, ':', n)) {
            snprintf(why, whylen, "attachment host %d is not a host name "
                     "(at most %d letters, digits, '-' and '.')",
                     p->nhosts + 1, ATT_MAX_HOST);
            return false;
        }
        if (p->nhosts == ATT_MAX_HOSTS) {
            snprintf(why, whylen, "too many attachment hosts (limit is %d)",
                     ATT_MAX_HOSTS);
            return false;
        }
        memcpy(p->hosts[p->nhosts], s, n);
        p->hosts[p->nhosts++][n] = '\0';
        s += n;
        while (*s == ' ')
            s++;
        if (*s == ',')
            s++;
    }
    if (plain && *plain) {
        if (strlen(plain) > ATT_MAX_HOSTPORT || !host_ok(plain,
                                                         strlen(plain))) {
            snprintf(why, whylen, "the plain-http attachment host is not "
                     "host or host:port");
            return false;
        }
        snprintf(p->plain, sizeof p->plain, "%s", plain);
    }
    return true;
}

bool att_policy_allow(struct att_policy *p, const char *addrs, char *why,
                      size_t whylen)
{
    const char *s = addrs ? addrs : "";
    while (*s) {
        char one[INET6_ADDRSTRLEN];
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        while (n && s[0] == ' ')
            s++, n--;
        size_t k = n;
        while (k && s[k - 1] == ' ')
            k--;
        struct in_addr v4;
        unsigned char *to = p->allow[p->nallow];
        if (p->nallow == ATT_MAX_ALLOW) {
            snprintf(why, whylen, "too many allowed attachment addresses "
                     "(limit is %d)", ATT_MAX_ALLOW);
            return false;
        }
        if (k == 0 || k >= sizeof one) {
            snprintf(why, whylen, "allowed attachment address %d is not an "
                     "IP address", p->nallow + 1);
            return false;
        }
        memcpy(one, s, k);
        one[k] = '\0';
        if (inet_pton(AF_INET, one, &v4) == 1) {
            /* kept v4-mapped, as an IPv6 socket would see it */
            memset(to, 0, 10);
            to[10] = to[11] = 0xff;
            memcpy(to + 12, &v4, 4);
        } else if (inet_pton(AF_INET6, one, to) != 1) {
            snprintf(why, whylen, "allowed attachment address %d is not an "
                     "IP address", p->nallow + 1);
            return false;
        }
        p->nallow++;
        s += n;
        if (*s == ',')
            s++;
    }
    return true;
}

/* An IPv4 address (host order) inside: this network, private, shared,
 * loopback, link-local, the IETF's and documentation blocks, multicast,
 * reserved and broadcast. */
static bool v4_inside(uint32_t a)
{
    uint8_t b0 = (uint8_t)(a >> 24), b1 = (uint8_t)(a >> 16);
    return b0 == 0 || b0 == 10 || b0 == 127 ||
           (b0 == 100 && (b1 & 0xC0) == 64) ||        /* 100.64/10 */
           (b0 == 169 && b1 == 254) ||                /* link-local */
           (b0 == 172 && (b1 & 0xF0) == 16) ||        /* 172.16/12 */
           (b0 == 192 && b1 == 168) ||
           (b0 == 192 && b1 == 0 && (uint8_t)(a >> 8) == 0) ||
           (b0 == 198 && (b1 & 0xFE) == 18) ||        /* 198.18/15 */
           (b0 == 192 && b1 == 0 && (uint8_t)(a >> 8) == 2) ||
           (b0 == 198 && b1 == 51 && (uint8_t)(a >> 8) == 100) ||
           (b0 == 203 && b1 == 0 && (uint8_t)(a >> 8) == 113) ||
           b0 >= 224;                                 /* multicast and up */
}

/* The 16 bytes of an address as IPv6 (an IPv4 one v4-mapped). */
static bool addr_bytes(const struct sockaddr *sa, unsigned char out[16])
{
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        memset(out, 0, 10);
        out[10] = out[11] = 0xff;
        memcpy(out + 12, &in->sin_addr, 4);
        return true;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(out, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return true;
    }
    return false;
}

bool att_addr_inside(const struct sockaddr *sa)
{
    static const unsigned char zero[12] = {0};
    unsigned char b[16];
    if (!addr_bytes(sa, b))
        return true;                   /* not IP at all: not fetched */
    bool mapped = memcmp(b, zero, 10) == 0 && b[10] == 0xff && b[11] == 0xff;
    bool compat = memcmp(b, zero, 12) == 0;    /* ::a.b.c.d, :: and ::1 */
    /* NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address
     * they carry: inside when it is. */
    static const unsigned char nat64[12] = {0x00, 0x64, 0xff, 0x9b};
    int at = mapped || compat || memcmp(b, nat64, 12) == 0 ? 12
             : b[0] == 0x20 && b[1] == 0x02               ? 2
                                                           : -1;
    if (at >= 0) {
        uint32_t v4 = (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 |
                      (uint32_t)b[at + 2] << 8 | b[at + 3];
        return v4_inside(v4);
    }
    return b[0] == 0xff ||                     /* multicast */
           (b[0] & 0xFE) == 0xFC ||            /* unique local fc00::/7 */
           (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) ||  /* link-local */
           (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) ||  /* site-local */
           (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d &&
            b[3] == 0xb8);                     /* documentation */
}

static bool addr_allowed(const struct att_policy *p,
                         const struct sockaddr *sa)
{
    unsigned char b[16];
    if (!addr_bytes(sa, b))
        return false;
    for (int i = 0; i < p->nallow; i++)
        if (memcmp(p->allow[i], b, 16) == 0)
            return true;
    return false;
}

/* "host" or "host:port" against the url's host and port (port may be
 * NULL: the scheme's default). */
static bool plain_matches(const char *plain, const char *host,
                          const char *port)
{
    const char *colon = strrchr(plain, ':');
    size_t hl = colon && plain[0] != '[' ? (size_t)(colon - plain)
                                         : strlen(plain);
    if (colon && plain[0] == '[') {       /* "[::1]:8080" */
        const char *rb = strchr(plain, ']');
        hl = rb ? (size_t)(rb - plain + 1) : strlen(plain);
        colon = rb && rb[1] == ':' ? rb + 1 : NULL;
    }
    if (strlen(host) != hl || strncasecmp(plain, host, hl) != 0)
        return false;
    if (colon == NULL)
        return true;
    return port != NULL && strcmp(port, colon + 1) == 0;
}

enum att_err att_check_url(const struct att_policy *p, const char *url)
{
    CURLU *u;
    char *scheme = NULL, *host = NULL, *port = NULL, *user = NULL,
         *pass = NULL;
    enum att_err e = ATT_E_URL;

    if (url == NULL || *url == '\0' || strlen(url) >= ATT_MAX_URL)
        return ATT_E_URL;
    u = curl_url();
    if (u == NULL)
        return ATT_E_NOMEM;
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK)
        goto out;
    if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) {
        e = ATT_E_SCHEME;
        goto out;
    }
    if (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
        goto out;
    curl_url_get(u, CURLUPART_PORT, &port, 0);
    /* credentials in the url would be sent to whoever the host is */
    if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
        curl_url_get(u, CURLUPART_PASSWORD, &pass, 0) == CURLUE_OK)
        goto out;
    if (p->plain[0] && plain_matches(p->plain, host, port)) {
        e = ATT_E_OK;
        goto out;
    }
    if (strcmp(scheme, "https") != 0) {
        e = ATT_E_SCHEME;
        goto out;
    }
    e = ATT_E_HOST;
    if (port && strcmp(port, "443") != 0)
        goto out;
    for (int i = 0; i < p->nhosts; i++)
        if (strcasecmp(p->hosts[i], host) == 0)
            e = ATT_E_OK;
out:
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_free(user);
    curl_free(pass);
    curl_url_cleanup(u);
    return e;
}

static bool ends_with_json(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n > 5 && strcasecmp(name + n - 5, ".json") == 0;
}

/* The media type of a Content-Type value, without parameters. */
static bool type_is(const char *ct, const char *want)
{
    size_t n = strlen(want);
    while (*ct == ' ')
        ct++;
    if (strncasecmp(ct, want, n) != 0)
        return false;
    ct += n;
    while (*ct == ' ')
        ct++;
    return *ct == '\0' || *ct == ';';
}

enum att_err att_check_type(const char *ct, const char *filename)
{
    if (ct && strlen(ct) >= ATT_MAX_TYPE)
        return ATT_E_TYPE;
    if (ct && *ct && type_is(ct, "application/json"))
        return ATT_E_OK;
    if (!ends_with_json(filename))
        return ATT_E_TYPE;
    if (ct == NULL || *ct == '\0' || type_is(ct, "text/plain") ||
        type_is(ct, "application/octet-stream"))
        return ATT_E_OK;
    return ATT_E_TYPE;
}

enum att_err att_check_meta(int64_t size, const char *ct,
                            const char *filename)
{
    if (size > ATT_MAX_BYTES)
        return ATT_E_TOO_BIG;
    if (size < 0)
        return ATT_E_URL;
    if (filename && strlen(filename) >= ATT_MAX_FILENAME)
        return ATT_E_TYPE;
    return att_check_type(ct, filename);
}

/* ---- the download thread ---- */

struct att_job {
    struct att_job *next;
    struct att *a;
    uint64_t user;                 /* the member it is for */
    bool inside;                   /* refused: it resolved inside */
    char *url;
    char *filename;                /* NULL: none given */
    att_done_fn *done;
    void *ud;
    CURL *easy;
    struct sbuf body;
    bool too_big;                  /* the body passed ATT_MAX_BYTES */
    char ctype[ATT_MAX_TYPE];      /* the response's Content-Type */
    struct att_result res;
};

struct att {
    struct att_policy policy;
    struct att_opts o;
    CURLM *multi;
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    struct att_job *waiting, *done;     /* under mu; done in order */
    int njobs;                          /* under mu: not yet dispatched */
    bool stop;                          /* under mu */
    struct att_job *active;             /* thread only */
    int nactive;                        /* thread only */
};

static void job_free(struct att_job *j)
{
    if (j == NULL)
        return;
    if (j->easy)
        curl_easy_cleanup(j->easy);
    sbuf_cleanup(&j->body);
    free(j->url);
    free(j->filename);
    free(j);
}

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    struct att_job *j = ud;
    size_t len = size * n;
    if (j->body.len + len > ATT_MAX_BYTES) {
        j->too_big = true;          /* stop reading: curl fails the write */
        return 0;
    }
    sbuf_addn(&j->body, data, len);
    return sbuf_error(&j->body) == SBUF_OK ? len : 0;
}

static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
    struct att_job *j = ud;
    size_t len = size * n;
    static const char name[] = "content-type:";
    if (len > sizeof name - 1 &&
        strncasecmp(data, name, sizeof name - 1) == 0) {
        size_t v = sizeof name - 1, e = len;
        while (v < e && (data[v] == ' ' || data[v] == '\t'))
            v++;
        while (e > v && (data[e - 1] == '\r' || data[e - 1] == '\n' ||
                         data[e - 1] == ' '))
            e--;
        if (e - v < sizeof j->ctype) {
            memcpy(j->ctype, data + v, e - v);
            j->ctype[e - v] = '\0';
        } else {
            snprintf(j->ctype, sizeof j->ctype, "?");  /* refused later */
        }
    }
    return len;
}

/* curl opens the connection's socket here, with the address the host
 * name resolved to: one inside is refused before any byte is sent. */
static curl_socket_t open_socket(void *ud, curlsocktype purpose,
                                 struct curl_sockaddr *addr)
{
    struct att_job *j = ud;
    (void)purpose;
    if (att_addr_inside(&addr->addr) &&
        !addr_allowed(&j->a->policy, &addr->addr)) {
        j->inside = true;
        return CURL_SOCKET_BAD;
    }
    return socket(addr->family, addr->socktype, addr->protocol);
}

static bool job_start(struct att *a, struct att_job *j)
{
    j->easy = curl_easy_init();
    if (j->easy == NULL)
        return false;
    curl_easy_setopt(j->easy, CURLOPT_URL, j->url);
    curl_easy_setopt(j->easy, CURLOPT_USERAGENT, ATT_USER_AGENT);
    curl_easy_setopt(j->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(j->easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(j->easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(j->easy, CURLOPT_MAXFILESIZE_LARGE,
                     (curl_off_t)ATT_MAX_BYTES);
    curl_easy_setopt(j->easy, CURLOPT_CONNECTTIMEOUT_MS,
                     (long)a->o.connect_timeout_ms);
    curl_easy_setopt(j->easy, CURLOPT_TIMEOUT_MS, (long)a->o.timeout_ms);
    curl_easy_setopt(j->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(j->easy, CURLOPT_WRITEDATA, j);
    curl_easy_setopt(j->easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(j->easy, CURLOPT_HEADERDATA, j);
    curl_easy_setopt(j->easy, CURLOPT_PRIVATE, j);
    curl_easy_setopt(j->easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    curl_easy_setopt(j->easy, CURLOPT_OPENSOCKETDATA, j);
    if (a->o.tls_store)
        tls_curl_use_store(j->easy, a->o.tls_store);
    if (curl_multi_add_handle(a->multi, j->easy) != CURLM_OK)
        return false;
    j->next = a->active;
    a->active = j;
    a->nactive++;
    return true;
}

static void job_done(struct att *a, struct att_job *j)
{
    struct att_job **t;
    j->res.data = j->res.err == ATT_E_OK ? sbuf_str(&j->body) : "";
    j->res.len = j->res.err == ATT_E_OK ? j->body.len : 0;
    pthread_mutex_lock(&a->mu);
    j->next = NULL;
    for (t = &a->done; *t; t = &(*t)->next)
        ;
    *t = j;
    pthread_mutex_unlock(&a->mu);
    if (a->o.wake)
        a->o.wake(a->o.wake_ud);
}

/* What a finished transfer means for the user. */
static enum att_err judge(struct att_job *j, CURLcode cc, long status)
{
    if (j->inside)
        return ATT_E_PRIVATE;
    if (j->too_big || cc == CURLE_FILESIZE_EXCEEDED)
        return ATT_E_TOO_BIG;
    if (cc != CURLE_OK)
        return ATT_E_NET;
    if (status >= 300 && status < 400)
        return ATT_E_REDIRECT;
    if (status != 200)
        return ATT_E_STATUS;
    if (j->ctype[0] && att_check_type(j->ctype, j->filename) != ATT_E_OK)
        return ATT_E_TYPE;
    if (j->body.len == 0)
        return ATT_E_EMPTY;
    return ATT_E_OK;
}

static void job_finish(struct att *a, struct att_job *j, CURLcode cc)
{
    long status = 0;
    struct att_job **p;

    curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &status);
    j->res.status = (int)status;
    j->res.err = judge(j, cc, status);
    if (j->res.err != ATT_E_OK)
        log_msg(a->o.log, LOG_LVL_WARN, "attachment download refused: %s "
                "(HTTP %ld, %s)", att_errname(j->res.err), status,
                cc == CURLE_OK ? "complete" : curl_easy_strerror(cc));
    curl_multi_remove_handle(a->multi, j->easy);
    curl_easy_cleanup(j->easy);
    j->easy = NULL;
    for (p = &a->active; *p; p = &(*p)->next)
        if (*p == j) {
            *p = j->next;
            a->nactive--;
            break;
        }
    job_done(a, j);
}

/* Downloads of user in flight. */
static int active_of(const struct att *a, uint64_t user)
{
    int n = 0;
    for (const struct att_job *j = a->active; j != NULL; j = j->next)
        n += j->user == user;
    return n;
}

/* Start waiting downloads, oldest first, but none of a member who has
 * ATT_MAX_PER_USER in flight: their next waits for one of their own. */
static void start_waiting(struct att *a)
{
    while (a->nactive < ATT_MAX_ACTIVE) {
        struct att_job *j, **t;
        pthread_mutex_lock(&a->mu);
        for (t = &a->waiting; *t != NULL; t = &(*t)->next)
            if (active_of(a, (*t)->user) < ATT_MAX_PER_USER)
                break;
        j = *t;
        if (j)
            *t = j->next;
        pthread_mutex_unlock(&a->mu);
        if (j == NULL)
            return;
        if (!job_start(a, j)) {
            if (j->easy) {
                curl_easy_cleanup(j->easy);
                j->easy = NULL;
            }
            j->res.err = ATT_E_NOMEM;
            job_done(a, j);
        }
    }
}

static void *att_thread(void *arg)
{
    struct att *a = arg;
    for (;;) {
        int running = 0, left;
        CURLMsg *m;
        bool stop;

        pthread_mutex_lock(&a->mu);
        stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop)
            break;
        start_waiting(a);
        curl_multi_perform(a->multi, &running);
        while ((m = curl_multi_info_read(a->multi, &left))) {
            struct att_job *j = NULL;
            if (m->msg != CURLMSG_DONE)
                continue;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&j);
            job_finish(a, j, m->data.result);
        }
        curl_multi_poll(a->multi, NULL, 0, ATT_IDLE_POLL_MS, NULL);
    }
    return NULL;
}

bool att_new(const struct att_opts *o, struct att **out)
{
    struct att *a = calloc(1, sizeof *a);

    *out = NULL;
    if (a == NULL)
        return false;
    a->o = *o;
    a->policy = *o->policy;
    a->o.policy = &a->policy;
    pthread_mutex_init(&a->mu, NULL);
    *out = a;
    return true;
}

/* The download thread and its multi handle start with the first download,
 * not before the daemon's READY: most starts never see a file. On the
 * caller's thread; false when either cannot be made (that download is
 * refused as busy, the next one tries again). */
static bool thread_running(struct att *a)
{
    if (a->thread_started)
        return true;
    if (a->multi == NULL)
        a->multi = curl_multi_init();
    if (a->multi == NULL ||
        pthread_create(&a->thread, NULL, att_thread, a) != 0)
        return false;
    a->thread_started = true;
    return true;
}

/* Complete j as not downloaded, on the caller's thread. */
static void drop_job(struct att_job *j)
{
    if (j->done) {
        memset(&j->res, 0, sizeof j->res);
        j->res.err = ATT_E_NET;
        j->res.data = "";
        j->done(j->ud, &j->res);
    }
    job_free(j);
}

void att_free(struct att *a)
{
    if (a == NULL)
        return;
    if (a->thread_started) {
        pthread_mutex_lock(&a->mu);
        a->stop = true;
        pthread_mutex_unlock(&a->mu);
        curl_multi_wakeup(a->multi);
        pthread_join(a->thread, NULL);
    }
    att_dispatch_done(a);
    while (a->active) {
        struct att_job *j = a->active;
        a->active = j->next;
        curl_multi_remove_handle(a->multi, j->easy);
        drop_job(j);
    }
    while (a->waiting) {
        struct att_job *j = a->waiting;
        a->waiting = j->next;
        drop_job(j);
    }
    if (a->multi)
        curl_multi_cleanup(a->multi);
    pthread_mutex_destroy(&a->mu);
    free(a);
}

enum att_err att_fetch(struct att *a, uint64_t user, const char *url,
                       int64_t size, const char *content_type,
                       const char *filename, att_done_fn *done, void *ud)
{
    struct att_job *j, **t;
    enum att_err e = att_check_url(&a->policy, url);

    if (e == ATT_E_OK)
        e = att_check_meta(size, content_type, filename);
    if (e == ATT_E_OK && !thread_running(a))
        e = ATT_E_BUSY;
    if (e != ATT_E_OK)
        return e;
    j = calloc(1, sizeof *j);
    if (j == NULL)
        return ATT_E_NOMEM;
    sbuf_init(&j->body, ATT_MAX_BYTES);
    j->url = strdup(url);
    j->filename = filename ? strdup(filename) : NULL;
    if (j->url == NULL || (filename && j->filename == NULL)) {
        job_free(j);
        return ATT_E_NOMEM;
    }
    j->done = done;
    j->ud = ud;
    j->a = a;
    j->user = user;
    pthread_mutex_lock(&a->mu);
    if (a->njobs >= ATT_MAX_QUEUED) {
        pthread_mutex_unlock(&a->mu);
        job_free(j);
        return ATT_E_BUSY;
    }
    for (t = &a->waiting; *t; t = &(*t)->next)
        ;
    *t = j;
    a->njobs++;
    pthread_mutex_unlock(&a->mu);
    curl_multi_wakeup(a->multi);
    return ATT_E_OK;
}

void att_dispatch_done(struct att *a)
{
    struct att_job *list;

    pthread_mutex_lock(&a->mu);
    list = a->done;
    a->done = NULL;
    pthread_mutex_unlock(&a->mu);
    while (list) {
        struct att_job *n = list->next;
        if (list->done)
            list->done(list->ud, &list->res);
        pthread_mutex_lock(&a->mu);
        a->njobs--;
        pthread_mutex_unlock(&a->mu);
        job_free(list);
        list = n;
    }
}
