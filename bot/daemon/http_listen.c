/*
 * http_listen.c - a plain-HTTP vhost on the daemon's context
 * (http_listen.h).
 */
#include "http_listen.h"

#include <stdio.h>
#include <string.h>

struct lws_vhost *http_listen_start(struct lws_context *ctx,
                                    const struct http_listen *l, char *err,
                                    size_t errlen)
{
    struct lws_context_creation_info info;
    struct lws_vhost *vh;

    memset(&info, 0, sizeof info);
    info.vhost_name = l->name;
    info.port = l->port;
    info.iface = l->host;
    info.protocols = l->protocols;
    info.user = l->user;
    info.keepalive_timeout = l->keepalive_s;
    info.timeout_secs = (unsigned int)l->idle_s;
    /* lws listens on IPv6 (and IPv4 through it) by default, where an
     * IPv4 address would not bind */
    if (strchr(l->host, ':') == NULL)
        info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    vh = lws_create_vhost(ctx, &info);
    if (vh == NULL)
        snprintf(err, errlen, "%s: cannot listen on %s port %d (in use, or "
                 "not an address of this machine)", l->name, l->host,
                 l->port);
    return vh;
}
