/*
 * check_web.c - `fray check`: the shared pages' listener ([web], web.h):
 * off, where fray will listen, or why it cannot. The address is bound
 * for a moment and let go, as `fray run` would bind it.
 */
#include "check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "metrics.h"

/* Bind host:port for a moment: 0, or the errno that refused it. */
static int try_bind(const char *host, int port)
{
    struct sockaddr_in6 a6 = {.sin6_family = AF_INET6,
                              .sin6_port = htons((uint16_t)port)};
    struct sockaddr_in a4 = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    bool v6 = strchr(host, ':') != NULL;
    int fd, err = 0, one = 1;

    if (v6 ? inet_pton(AF_INET6, host, &a6.sin6_addr) != 1
           : inet_pton(AF_INET, host, &a4.sin_addr) != 1)
        return EINVAL;
    fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return errno;
    /* as lws listens: a port in TIME_WAIT is free */
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (v6 ? bind(fd, (struct sockaddr *)&a6, sizeof a6)
           : bind(fd, (struct sockaddr *)&a4, sizeof a4))
        err = errno;
    close(fd);
    return err;
}

void check_web(struct check *ck)
{
    const struct cfg *c = &ck->cfg;
    char host[METRICS_HOST_MAX], why[CFG_MAX_WHY];
    bool loopback;
    int port, err;

    if (!c->web_listen[0]) {
        check_say(ck, CHECK_OK, "web", "off ([web] listen is not set): "
                  "/combat share tells the GM so");
        return;
    }
    if (!metrics_listen_parse(c->web_listen, host, sizeof host, &port,
                              &loopback, why, sizeof why)) {
        check_say(ck, CHECK_FAIL, "web", "[web] listen: %s", why);
        return;
    }
    err = try_bind(host, port);
    if (err == EADDRINUSE) {
        check_say(ck, CHECK_WARN, "web", "%s port %d is in use: by the "
                  "fray running now (then all is well), or by another "
                  "program (then fray cannot start)", host, port);
        return;
    }
    if (err != 0) {
        check_say(ck, CHECK_FAIL, "web", "cannot listen on %s port %d: %s",
                  host, port, strerror(err));
        return;
    }
    check_say(ck, CHECK_OK, "web", "listens on %s port %d%s; links show %s",
              host, port, loopback ? "" : " (open to the network: put a "
              "reverse proxy in front, docs/web.md)", c->web_public_url);
    if (strncmp(c->web_public_url, "http://", 7) == 0)
        check_say(ck, CHECK_WARN, "web", "public_url is plain http: the "
                  "links travel in clear (a reverse proxy with TLS, "
                  "docs/web.md)");
}
