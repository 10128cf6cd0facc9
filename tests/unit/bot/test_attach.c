/* test_attach.c - the checks before an attachment download (attach.h):
 * which hosts and schemes, which sizes, which content types; what the
 * expected values are comes from attach.h's contract and Discord's
 * attachment object (discord-protocol.md: url, size, content_type,
 * filename). The download itself runs through the daemon and the fake
 * Discord (tests/integration/test_daemon_attach.c). */
#include "support.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

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

/* Whether text, an IPv4 or IPv6 address, is inside. */
static bool inside(const char *text)
{
    struct sockaddr_in v4 = {.sin_family = AF_INET};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6};
    if (inet_pton(AF_INET, text, &v4.sin_addr) == 1)
        return att_addr_inside((const struct sockaddr *)&v4);
    assert_int_equal(inet_pton(AF_INET6, text, &v6.sin6_addr), 1);
    return att_addr_inside((const struct sockaddr *)&v6);
}

/* The addresses a host name may resolve to that fray will not fetch
 * from: loopback, private, link-local, shared, multicast, unspecified,
 * IPv4 and IPv6, a v4-mapped one as its IPv4. */
static void test_att_inside_addresses(void **state)
{
    static const char *const in[] = {
        "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.1",
        "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
        "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1",
        "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
        "::127.0.0.1", "fec0::1",
        /* documentation blocks; an inside IPv4 address carried in NAT64
         * (64:ff9b::/96) or 6to4 (2002::/16) */
        "192.0.2.1", "198.51.100.7", "203.0.113.9", "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe", "2002:a00:1::1", "2002:7f00:1::",
    };
    static const char *const out[] = {
        "162.159.128.233", "8.8.8.8", "172.32.0.1", "100.128.0.1",
        "192.169.0.1", "2606:4700::6810:84e5", "::ffff:8.8.8.8",
        "2a00:1450:4001::200e", "64:ff9b::808:808", "2002:808:808::1",
    };
    char why[128];
    struct att_policy p;
    (void)state;
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!inside(in[i]))
            fail_msg("%s is not taken for inside", in[i]);
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
        if (inside(out[i]))
            fail_msg("%s is taken for inside", out[i]);
    /* the allow-list: IP addresses only, a bounded number */
    memset(&p, 0, sizeof p);
    assert_true(att_policy_allow(&p, " 127.0.0.1 , ::1", why, sizeof why));
    assert_int_equal(p.nallow, 2);
    assert_false(att_policy_allow(&p, "localhost", why, sizeof why));
    assert_non_null(strstr(why, "not an IP address"));
    memset(&p, 0, sizeof p);
    assert_false(att_policy_allow(&p, "1.1.1.1,1.1.1.2,1.1.1.3,1.1.1.4,"
                                  "1.1.1.5,1.1.1.6,1.1.1.7,1.1.1.8,1.1.1.9",
                                  why, sizeof why));
    /* none by default */
    struct cfg c;
    cfg_defaults(&c);
    assert_true(cfg_att_policy(&c, &p, why, sizeof why));
    assert_int_equal(p.nallow, 0);
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
        cmocka_unit_test(test_att_inside_addresses),
    };
    return cmocka_run_group_tests_name("attach", tests, NULL, NULL);
}
