/* test_attach.c - the checks before an attachment download (attach.h):
 * which hosts and schemes, which sizes, which content types; what the
 * expected values are comes from attach.h's contract and Discord's
 * attachment object (discord-protocol.md: url, size, content_type,
 * filename). The download itself runs through the daemon and the fake
 * Discord (tests/integration/test_daemon_attach.c). */
#include "support.h"

#include <string.h>

#include "attach.h"
#include "cfg.h"

static struct att_policy discord_policy(const char *plain)
{
    struct att_policy p;
    char why[128];
    assert_true(att_policy_parse(&p, ATT_DEFAULT_HOSTS, plain, why,
                                 sizeof why));
    return p;
}

static void test_att_policy_parse(void **state)
{
    struct att_policy p;
    char why[256];
    (void)state;
    assert_true(att_policy_parse(&p, " cdn.discordapp.com , a.example ",
                                 "", why, sizeof why));
    assert_int_equal(p.nhosts, 2);
    assert_string_equal(p.hosts[0], "cdn.discordapp.com");
    assert_string_equal(p.hosts[1], "a.example");
    assert_string_equal(p.plain, "");
    /* a port or a path in a host is refused: hosts are names only */
    assert_false(att_policy_parse(&p, "cdn.discordapp.com:8443", "", why,
                                  sizeof why));
    assert_false(att_policy_parse(&p, "evil.example/x", "", why,
                                  sizeof why));
    assert_false(att_policy_parse(&p, "a,,b", "", why, sizeof why));
    assert_false(att_policy_parse(&p, "a,b,c,d,e,f,g,h,i", "", why,
                                  sizeof why));
    assert_non_null(strstr(why, "limit is 8"));
    assert_false(att_policy_parse(&p, "a", "host/path", why, sizeof why));
    assert_true(att_policy_parse(&p, "", "127.0.0.1:8080", why, sizeof why));
    assert_int_equal(p.nhosts, 0);
}

static void test_att_url_discord_hosts(void **state)
{
    struct att_policy p = discord_policy(NULL);
    (void)state;
    assert_int_equal(att_check_url(&p, "https://cdn.discordapp.com/"
                                       "attachments/1/2/aria.json?ex=1"),
                     ATT_E_OK);
    assert_int_equal(att_check_url(&p, "https://MEDIA.discordapp.net/"
                                       "attachments/1/2/aria.json"),
                     ATT_E_OK);
    assert_int_equal(att_check_url(&p, "https://cdn.discordapp.com:443/a"),
                     ATT_E_OK);
    /* plain http to a Discord host: refused, https only */
    assert_int_equal(att_check_url(&p, "http://cdn.discordapp.com/a.json"),
                     ATT_E_SCHEME);
    assert_int_equal(att_check_url(&p, "ftp://cdn.discordapp.com/a.json"),
                     ATT_E_SCHEME);
    assert_int_equal(att_check_url(&p, "file:///etc/passwd"), ATT_E_SCHEME);
    /* another host, a look-alike, another port */
    assert_int_equal(att_check_url(&p, "https://evil.example/a.json"),
                     ATT_E_HOST);
    assert_int_equal(att_check_url(&p, "https://cdn.discordapp.com.evil."
                                       "example/a.json"),
                     ATT_E_HOST);
    assert_int_equal(att_check_url(&p, "https://discord.com/api/v10/x"),
                     ATT_E_HOST);
    assert_int_equal(att_check_url(&p, "https://cdn.discordapp.com:8443/a"),
                     ATT_E_HOST);
    assert_int_equal(att_check_url(&p, "https://127.0.0.1/a.json"),
                     ATT_E_HOST);
    /* credentials would go to the host: never */
    assert_int_equal(att_check_url(&p, "https://u:p@cdn.discordapp.com/a"),
                     ATT_E_URL);
    assert_int_equal(att_check_url(&p, "https://evil.example@cdn."
                                       "discordapp.com/a"),
                     ATT_E_URL);
    assert_int_equal(att_check_url(&p, ""), ATT_E_URL);
    assert_int_equal(att_check_url(&p, NULL), ATT_E_URL);
    assert_int_equal(att_check_url(&p, "not a url"), ATT_E_URL);
}

static void test_att_url_too_long(void **state)
{
    struct att_policy p = discord_policy(NULL);
    char url[ATT_MAX_URL + 16];
    (void)state;
    memset(url, 'a', sizeof url - 1);
    url[sizeof url - 1] = '\0';
    memcpy(url, "https://cdn.discordapp.com/", 27);
    assert_int_equal(att_check_url(&p, url), ATT_E_URL);
}

static void test_att_url_plain_host(void **state)
{
    struct att_policy p = discord_policy("127.0.0.1:8080");
    (void)state;
    assert_int_equal(att_check_url(&p, "http://127.0.0.1:8080/a/aria.json"),
                     ATT_E_OK);
    /* the plain host is one host and one port */
    assert_int_equal(att_check_url(&p, "http://127.0.0.1:8081/a.json"),
                     ATT_E_SCHEME);
    assert_int_equal(att_check_url(&p, "http://127.0.0.2:8080/a.json"),
                     ATT_E_SCHEME);
    assert_int_equal(att_check_url(&p, "http://localhost:8080/a.json"),
                     ATT_E_SCHEME);
    /* without a port it is the host on any port */
    p = discord_policy("127.0.0.1");
    assert_int_equal(att_check_url(&p, "http://127.0.0.1:9/a.json"),
                     ATT_E_OK);
    /* and the Discord hosts stay https */
    assert_int_equal(att_check_url(&p, "http://cdn.discordapp.com/a.json"),
                     ATT_E_SCHEME);
}

static void test_att_types(void **state)
{
    (void)state;
    assert_int_equal(att_check_type("application/json", "x.bin"), ATT_E_OK);
    assert_int_equal(att_check_type("application/json; charset=utf-8",
                                    "aria.json"),
                     ATT_E_OK);
    assert_int_equal(att_check_type("APPLICATION/JSON", NULL), ATT_E_OK);
    assert_int_equal(att_check_type("text/plain; charset=utf-8",
                                    "aria.JSON"),
                     ATT_E_OK);
    assert_int_equal(att_check_type(NULL, "aria.json"), ATT_E_OK);
    assert_int_equal(att_check_type("application/octet-stream",
                                    "aria.json"),
                     ATT_E_OK);
    /* text without a .json name, and every other type, are refused */
    assert_int_equal(att_check_type("text/plain", "aria.txt"), ATT_E_TYPE);
    assert_int_equal(att_check_type("text/plain", NULL), ATT_E_TYPE);
    assert_int_equal(att_check_type(NULL, NULL), ATT_E_TYPE);
    assert_int_equal(att_check_type("image/png", "aria.json"), ATT_E_TYPE);
    assert_int_equal(att_check_type("text/html", "aria.json"), ATT_E_TYPE);
    assert_int_equal(att_check_type("application/jsonx", "a.bin"),
                     ATT_E_TYPE);
    assert_int_equal(att_check_type("text/plain", ".json"), ATT_E_TYPE);
}

static void test_att_meta_size(void **state)
{
    (void)state;
    assert_int_equal(att_check_meta(ATT_MAX_BYTES, "application/json",
                                    "a.json"),
                     ATT_E_OK);
    assert_int_equal(att_check_meta(256 * 1024 + 1, "application/json",
                                    "a.json"),
                     ATT_E_TOO_BIG);
    assert_int_equal(att_check_meta(INT64_MAX, "application/json", "a.json"),
                     ATT_E_TOO_BIG);
    assert_int_equal(att_check_meta(10, "image/png", "a.png"), ATT_E_TYPE);
    assert_non_null(strstr(att_strerror(ATT_E_TOO_BIG), "256 KB"));
    assert_string_equal(att_errname(ATT_E_REDIRECT), "REDIRECT");
}

/* The policy comes from fray.conf: Discord's hosts by default, and a
 * malformed host stops the daemon before it connects, naming the key. */
static void test_att_policy_from_config(void **state)
{
    struct cfg c;
    struct att_policy p;
    char err[CFG_MAX_ERR], why[128];
    (void)state;
    cfg_defaults(&c);
    assert_true(cfg_att_policy(&c, &p, why, sizeof why));
    assert_int_equal(p.nhosts, 2);
    assert_string_equal(p.hosts[0], "cdn.discordapp.com");
    assert_string_equal(p.hosts[1], "media.discordapp.net");
    assert_string_equal(p.plain, "");
    assert_int_equal(cfg_load_string(&c, "t.conf",
                                     "[discord]\nattachment_plain_host = "
                                     "127.0.0.1:8080\n",
                                     err, sizeof err),
                     BOT_OK);
    assert_true(cfg_att_policy(&c, &p, why, sizeof why));
    assert_string_equal(p.plain, "127.0.0.1:8080");
    assert_int_equal(cfg_load_string(&c, "t.conf",
                                     "[discord]\nattachment_hosts = "
                                     "evil.example/x\n",
                                     err, sizeof err),
                     BOT_CONFIG);
    assert_non_null(strstr(err, "[discord] attachment host 1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_att_policy_parse),
        cmocka_unit_test(test_att_url_discord_hosts),
        cmocka_unit_test(test_att_url_too_long),
        cmocka_unit_test(test_att_url_plain_host),
        cmocka_unit_test(test_att_types),
        cmocka_unit_test(test_att_meta_size),
        cmocka_unit_test(test_att_policy_from_config),
    };
    return cmocka_run_group_tests_name("attach", tests, NULL, NULL);
}
