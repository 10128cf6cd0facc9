/*
 * tls.c - the process's TLS client context and its shared CA store.
 */
#include "tls.h"

#include <curl/curl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>

enum bot_err tls_client_new(void **ssl_ctx, char *err, size_t errlen)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

    *ssl_ctx = NULL;
    if (!ctx) {
        snprintf(err, errlen, "cannot make a TLS context: %s",
                 ERR_reason_error_string(ERR_get_error()));
        ERR_clear_error();
        return BOT_NOMEM;
    }
    /* Discord requires TLS 1.2 or later */
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
        snprintf(err, errlen, "cannot load the system CA certificates: %s",
                 ERR_reason_error_string(ERR_get_error()));
        ERR_clear_error();
        SSL_CTX_free(ctx);
        return BOT_IO;
    }
    ERR_clear_error();
    *ssl_ctx = ctx;
    return BOT_OK;
}

void tls_client_free(void *ssl_ctx)
{
    SSL_CTX_free(ssl_ctx);
}

void *tls_client_store(void *ssl_ctx)
{
    return SSL_CTX_get_cert_store(ssl_ctx);
}

int tls_store_count(void *store)
{
    STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(store);
    return objs ? sk_X509_OBJECT_num(objs) : 0;
}

void tls_share_store(void *other_ssl_ctx, void *store)
{
    SSL_CTX_set1_cert_store(other_ssl_ctx, store);
}

/* curl made a TLS context for a new connection: give it the shared store */
static CURLcode on_ssl_ctx(CURL *easy, void *ssl_ctx, void *store)
{
    (void)easy;
    tls_share_store(ssl_ctx, store);
    return CURLE_OK;
}

void tls_curl_use_store(void *easy, void *store)
{
    curl_easy_setopt(easy, CURLOPT_CAINFO, NULL);
    curl_easy_setopt(easy, CURLOPT_CAPATH, NULL);
    curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
    curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, store);
}
