/* test_store_redact.c - store_location_redact() hides every secret a
 * PostgreSQL location can carry (password and sslpassword, as conninfo
 * keys, in a URI's userinfo and in its query), and leaves the rest as
 * written so an operator can still tell which server was meant. No server
 * is needed: the redaction is plain text work. */
#include "support.h"

#include <string.h>

#include "store.h"

static void redacted(const char *location, const char *want)
{
    char out[512];
    store_location_redact(location, out, sizeof out);
    assert_string_equal(out, want);
}

static void test_redact_conninfo_keys(void **state)
{
    (void)state;
    redacted("host=h password=pw dbname=d", "host=h password=*** dbname=d");
    redacted("host=127.0.0.1 port=1 sslpassword=S3cret connect_timeout=1",
             "host=127.0.0.1 port=1 sslpassword=*** connect_timeout=1");
    redacted("sslpassword = 'a b\\'c' password='x y'",
             "sslpassword=*** password=***");
    redacted("password=a\tsslpassword=b", "password=***\tsslpassword=***");
    /* keys that merely end in a secret's name are not secrets */
    redacted("host=h mypassword=x", "host=h mypassword=x");
}

static void test_redact_uri(void **state)
{
    (void)state;
    redacted("postgres://u:pw@h:5/d?password=x&sslmode=require",
             "postgres://u:***@h:5/d?password=***&sslmode=require");
    redacted("postgresql://h/d?sslpassword=S3cret&sslmode=require",
             "postgresql://h/d?sslpassword=***&sslmode=require");
    redacted("postgresql://u@h/d?sslmode=require&sslpassword=S3cret",
             "postgresql://u@h/d?sslmode=require&sslpassword=***");
    redacted("postgres://h/d", "postgres://h/d");
}

/* What `fray migrate --from` printed: the secret never shows. */
static void test_redact_never_shows_secret(void **state)
{
    static const char *const locs[] = {
        "host=127.0.0.1 port=1 sslpassword=S3cret connect_timeout=1",
        "sslpassword=S3cret",
        "postgresql://u:S3cret@h/d",
        "postgresql://h/d?sslpassword=S3cret",
        "postgresql://h/d?password=S3cret",
    };
    char out[512];
    (void)state;
    for (size_t i = 0; i < sizeof locs / sizeof locs[0]; i++) {
        store_location_redact(locs[i], out, sizeof out);
        if (strstr(out, "S3cret"))
            fail_msg("\"%s\" shown as \"%s\"", locs[i], out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redact_conninfo_keys),
        cmocka_unit_test(test_redact_uri),
        cmocka_unit_test(test_redact_never_shows_secret),
    };
    return cmocka_run_group_tests_name("store_redact", tests, NULL, NULL);
}
