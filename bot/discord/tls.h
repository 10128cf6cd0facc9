/*
 * tls.h - one TLS client context for the process, for Discord's https and
 * wss.
 *
 * The gateway (libwebsockets) and REST (libcurl) both verify Discord's
 * certificates against the system CA bundle. Parsing the bundle (~140
 * certificates) costs ~25-40 ms and ~1 MB of heap, and each library would
 * parse its own copy: lws when its context is made, curl at its first
 * https connection, both during startup. tls_client_new() parses it once,
 * into an OpenSSL client context that lws takes as its client context
 * (provided_client_ssl_ctx) and whose certificate store every curl
 * connection shares (rest_opts.tls_store, CURLOPT_SSL_CTX_FUNCTION).
 *
 * The bundle is found as OpenSSL finds it by default (the SSL_CERT_FILE and
 * SSL_CERT_DIR environment variables, else the system's paths). Peers are
 * always verified: a missing bundle gives an empty store, and every
 * connection then fails verification (loudly) rather than going unchecked.
 *
 * The types are OpenSSL's, passed as void * so that callers need no OpenSSL
 * headers. Ownership: the caller frees the context with tls_client_free()
 * after everything that borrowed it (lws_context_destroy(), rest_free()).
 */
#ifndef TLS_H
#define TLS_H

#include <stdbool.h>
#include <stddef.h>

#include "bot_err.h"

/* A client context (SSL_CTX *) with the default CA store loaded and peer
 * verification on. BOT_NOMEM, or BOT_IO with the reason in err. */
enum bot_err tls_client_new(void **ssl_ctx, char *err, size_t errlen);

void tls_client_free(void *ssl_ctx);

/* Its certificate store (X509_STORE *), borrowed from ssl_ctx. */
void *tls_client_store(void *ssl_ctx);

/* Certificates in store (the bundle's CAs, once loaded). */
int tls_store_count(void *store);

/* Make another context (curl's, per connection) verify against store;
 * both keep a reference. */
void tls_share_store(void *other_ssl_ctx, void *store);

/* Make a curl handle (CURL *) verify against store instead of parsing the
 * CA bundle again: no CAINFO or CAPATH of its own, and each of its
 * connections' contexts shares store (tls_share_store). REST and the
 * attachment downloads set up their handles through here. */
void tls_curl_use_store(void *easy, void *store);

#endif
