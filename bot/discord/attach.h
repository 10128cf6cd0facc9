/*
 * attach.h - downloading a file a user attached to a slash command.
 *
 * An attachment option (type 11) carries an id; Discord resolves it in
 * data.resolved.attachments to {url, proxy_url, size, content_type,
 * filename}. fray fetches that url, on its own thread (like rest.h: the
 * lws loop never blocks), with a policy that treats the url as hostile:
 *
 *   - only the configured attachment hosts ([discord] attachment_hosts:
 *     cdn.discordapp.com and media.discordapp.net by default), over https;
 *     plain http only for the one host:port in [discord]
 *     attachment_plain_host (empty by default: the fake Discord in tests);
 *   - no user name or password in the url, no redirect followed at all (a
 *     3xx is refused, so a CDN cannot bounce the request elsewhere);
 *   - the address a host name resolves to is checked as the connection
 *     opens: a loopback, private, link-local, shared (100.64/10),
 *     multicast, reserved or unspecified address, IPv4 or IPv6 (a
 *     v4-mapped one as its IPv4), is refused unless [discord]
 *     attachment_allow_addresses names it (the fake Discord in tests, on
 *     127.0.0.1): a name in the allow-list that resolves inside the
 *     machine or its network cannot make fray fetch from there;
 *   - no Authorization header, no cookie: this module never sees the bot
 *     token (it has its own curl handles, see "Why not rest.c" below);
 *   - at most ATT_MAX_BYTES: the declared size is checked before the
 *     request, the Content-Length by curl, and the body is cut off at the
 *     limit whatever the server says;
 *   - only the content types of a JSON file (att_check_type);
 *   - fair between members: at most ATT_MAX_PER_USER downloads of one
 *     member in flight, within the ATT_MAX_ACTIVE of everyone, so one
 *     member's hanging downloads do not hold another's import.
 *
 * Each refusal is an att_err whose att_strerror() is a short sentence for
 * the user who attached the file.
 *
 * Why not rest.c's thread: rest.c puts the bot token on every request and
 * keeps connections to discord.com alive for reuse; a download is another
 * host with another policy (no token, no retries, no rate limit, a size
 * cap). A separate curl multi keeps the token out of reach by
 * construction instead of by a flag on each request.
 *
 * Ownership: att_fetch() copies the url. The result given to a done
 * callback is borrowed for the call. att_free() stops the thread and runs
 * every outstanding done callback (ATT_E_NET for the unfinished ones) on
 * the caller's thread.
 */
#ifndef ATTACH_H
#define ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "i18n.h"
#include "log.h"

/* Largest file fray downloads: an export of a server's 500 templates with
 * their attacks fits with room to spare; bigger is not one of ours. */
#define ATT_MAX_BYTES (256 * 1024)
#define ATT_MAX_URL 2048               /* Discord's urls are ~300 bytes */
#define ATT_MAX_HOSTS 8                /* [discord] attachment_hosts */
#define ATT_MAX_HOST 253               /* a DNS name */
#define ATT_MAX_HOSTPORT (ATT_MAX_HOST + 7)   /* "host:65535" */
#define ATT_MAX_FILENAME 256           /* bytes of an attachment's name */
#define ATT_MAX_TYPE 128               /* bytes of a content type */
#define ATT_MAX_ACTIVE 4               /* downloads in flight at once */
#define ATT_MAX_PER_USER 2             /* ... of them one member's */
#define ATT_MAX_ALLOW 8                /* [discord] attachment_allow_addresses */
#define ATT_MAX_QUEUED 32              /* waiting or in flight; beyond,
                                          att_fetch() refuses (BUSY) */
#define ATT_DEFAULT_HOSTS "cdn.discordapp.com,media.discordapp.net"

#define ATT_ERR_MAP(X)                                                      \
    X(OK, "no error")                                                       \
    X(URL, N_("the file's address is not one fray can read"))               \
    X(SCHEME, N_("the file is not served over https"))                      \
    X(HOST, N_("the file is not on Discord's attachment servers"))          \
    X(TOO_BIG, N_("the file is larger than 256 KB"))                        \
    X(TYPE, N_("the file is not a JSON file (.json)"))                      \
    X(REDIRECT, N_("the file's server sent fray elsewhere; fray does not "  \
                   "follow"))                                               \
    X(STATUS, N_("Discord's file server refused the download"))             \
    X(NET, N_("the file could not be downloaded (network error or "         \
              "timeout)"))                                                  \
    X(NOMEM, N_("out of memory"))                                           \
    X(BUSY, N_("too many files are being downloaded; try again in a "       \
               "moment"))                                                   \
    X(EMPTY, N_("the file is empty"))                                       \
    X(PRIVATE, N_("the file's server is on a private or local network; "    \
                  "fray does not download from there"))

enum att_err {
#define ATT_ERR_ENUM_(n, s) ATT_E_##n,
    ATT_ERR_MAP(ATT_ERR_ENUM_)
#undef ATT_ERR_ENUM_
    ATT_E__COUNT
};

const char *att_strerror(enum att_err e);   /* for the user */
const char *att_errname(enum att_err e);    /* for logs: "TOO_BIG" */

/* Where attachments may come from (a plain value, no heap). */
struct att_policy {
    char hosts[ATT_MAX_HOSTS][ATT_MAX_HOST + 1];   /* https, any port 443 */
    int nhosts;
    char plain[ATT_MAX_HOSTPORT + 1];   /* "127.0.0.1:8080" or "" */
    /* Inside addresses fray may still connect to, as IPv6 (an IPv4 one
     * v4-mapped): [discord] attachment_allow_addresses. */
    unsigned char allow[ATT_MAX_ALLOW][16];
    int nallow;
};

/* Fill p from a comma-separated host list and the plain-http host[:port]
 * (may be "" or NULL). False, with why, when a host is empty, too long,
 * holds characters a host name cannot, or there are too many. */
bool att_policy_parse(struct att_policy *p, const char *hosts,
                      const char *plain, char *why, size_t whylen);

/* Add the comma-separated IP addresses of addrs (may be "" or NULL) to
 * p's allowed inside addresses. False, with why, when one is not an IPv4
 * or IPv6 address or there are too many. */
bool att_policy_allow(struct att_policy *p, const char *addrs, char *why,
                      size_t whylen);

/* Is the address sa (AF_INET or AF_INET6) inside: loopback, private,
 * link-local, shared, multicast, reserved or unspecified (a v4-mapped or
 * v4-compatible IPv6 address judged as its IPv4)? */
struct sockaddr;
bool att_addr_inside(const struct sockaddr *sa);

/* May fray download url under p? OK, URL, SCHEME or HOST. */
enum att_err att_check_url(const struct att_policy *p, const char *url);

/* Is a file of this content type (may be NULL: Discord did not say) and
 * name one fray reads? application/json (any parameters) always;
 * text/plain, application/octet-stream or no type only when the name ends
 * in ".json" (what browsers and phones send for a .json file). */
enum att_err att_check_type(const char *content_type, const char *filename);

/* The declared size, type and name together: TOO_BIG, EMPTY, TYPE or OK. */
enum att_err att_check_meta(int64_t size, const char *content_type,
                            const char *filename);

struct att;

struct att_result {
    enum att_err err;
    int status;                /* HTTP status, 0 when none came */
    const char *data;          /* the file, NUL-terminated; "" on error */
    size_t len;
};

typedef void att_done_fn(void *ud, const struct att_result *res);
typedef void att_wake_fn(void *ud);

struct att_opts {
    const struct att_policy *policy;   /* copied */
    int64_t connect_timeout_ms;
    int64_t timeout_ms;                /* the whole download */
    void *tls_store;                   /* as rest_opts.tls_store */
    struct log *log;                   /* borrowed; outlives the att */
    att_wake_fn *wake;                 /* on the download thread, when a
                                          result waits */
    void *wake_ud;
};

/* BOT-style: false only when out of memory. The download thread starts
 * at the first att_fetch(), which refuses with ATT_E_BUSY if it cannot. */
bool att_new(const struct att_opts *o, struct att **out);
void att_free(struct att *a);

/* Start downloading url for member user, declared size bytes (0:
 * unknown), of the given content type and name (either may be NULL):
 * checks the policy and the metadata first and returns the refusal at
 * once (done is then never called); else ATT_E_OK and done runs later
 * from att_dispatch_done(). */
enum att_err att_fetch(struct att *a, uint64_t user, const char *url,
                       int64_t size,
                       const char *content_type, const char *filename,
                       att_done_fn *done, void *ud);

/* Run the done callbacks of finished downloads, on the caller's thread. */
void att_dispatch_done(struct att *a);

#endif
