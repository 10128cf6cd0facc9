/* test_tls.c - the process's TLS client context: the CA store is loaded
 * once from OpenSSL's default location, peers are always verified, and
 * another context (curl's) shares the very same store. */
#include "support.h"

#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tls.h"

/* A self-signed test CA made for this test (public certificate only). */
static const char test_ca[] =
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBhTCCASugAwIBAgIUDBDz7SnXeKwNY4R92+plZDK2ukgwCgYIKoZIzj0EAwIw\n"
    "FzEVMBMGA1UEAwwMZnJheSB0ZXN0IENBMCAXDTI2MTEyMTEwNTgyMloYDzIxMjYx\n"
    "MDI4MTA1ODIyWjAXMRUwEwYDVQQDDAxmcmF5IHRlc3QgQ0EwWTATBgcqhkjOPQIB\n"
    "BggqhkjOPQMBBwNCAAQSQVsKDecc/jDh0kPUBoGlHUB+PO7/YDJll/hSjESnZDu1\n"
    "yHd9/OnEmmgcBpKLwJkVAZQ9NikkQI3zUpg7pDXzo1MwUTAdBgNVHQ4EFgQUrxqS\n"
    "qvqpCgMkMK7wWcox7n6+KsYwHwYDVR0jBBgwFoAUrxqSqvqpCgMkMK7wWcox7n6+\n"
    "KsYwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBAPa6ozxFS7Q7Q\n"
    "WCuicwK4ps1DSMVOkcmd7APdB6YRNQIhAMCNBRt23TJVRVpKHTuG1s823H9dt1Fr\n"
    "H0upNcl69aKq\n"
    "-----END CERTIFICATE-----\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* SSL_CERT_FILE and SSL_CERT_DIR point OpenSSL's default paths at files of
 * the test's own, so the test does not depend on the system bundle. */
static void test_tls_loads_default_store_once_and_shares_it(void **state)
{
    char dir[] = "/tmp/fray-test-tls-XXXXXX", file[64];
    void *ctx = NULL, *store;
    char err[256];
    SSL_CTX *curl_like;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/ca.pem", dir);
    write_file(file, test_ca);
    assert_int_equal(setenv("SSL_CERT_FILE", file, 1), 0);
    assert_int_equal(setenv("SSL_CERT_DIR", dir, 1), 0);

    assert_int_equal(tls_client_new(&ctx, err, sizeof err), BOT_OK);
    assert_non_null(ctx);
    store = tls_client_store(ctx);
    assert_non_null(store);
    assert_int_equal(tls_store_count(store), 1);
    assert_int_equal(SSL_CTX_get_verify_mode(ctx), SSL_VERIFY_PEER);

    /* what rest.c's CURLOPT_SSL_CTX_FUNCTION does with curl's context */
    curl_like = SSL_CTX_new(TLS_client_method());
    assert_non_null(curl_like);
    tls_share_store(curl_like, store);
    assert_ptr_equal(SSL_CTX_get_cert_store(curl_like), store);
    SSL_CTX_free(curl_like);
    /* the store outlives the other context's reference */
    assert_int_equal(tls_store_count(store), 1);
    tls_client_free(ctx);

    unlink(file);
    rmdir(dir);
}

/* No bundle at all: the context is still made, with an empty store and
 * verification on, so every connection fails instead of going unchecked. */
static void test_tls_missing_bundle_verifies_against_nothing(void **state)
{
    char dir[] = "/tmp/fray-test-tls-XXXXXX", file[64];
    void *ctx = NULL;
    char err[256];
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/absent.pem", dir);
    assert_int_equal(setenv("SSL_CERT_FILE", file, 1), 0);
    assert_int_equal(setenv("SSL_CERT_DIR", dir, 1), 0);
    assert_int_equal(tls_client_new(&ctx, err, sizeof err), BOT_OK);
    assert_int_equal(tls_store_count(tls_client_store(ctx)), 0);
    assert_int_equal(SSL_CTX_get_verify_mode(ctx), SSL_VERIFY_PEER);
    tls_client_free(ctx);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tls_loads_default_store_once_and_shares_it),
        cmocka_unit_test(test_tls_missing_bundle_verifies_against_nothing),
    };
    return cmocka_run_group_tests_name("tls", tests, NULL, NULL);
}
