/*
 * Tests for the fake Discord's multipart/form-data parser
 * (tests/fakes/fake_multipart.c): well-formed bodies as RFC 7578 writes
 * them (and as fray's builder makes them) parse into their parts; every
 * malformed one is refused with a reason, within the parser's limits.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_multipart.h"
#include "multipart.h"

#define CT "multipart/form-data; boundary=XyZ"

static const char *parse(const char *body, struct fake_mp *m)
{
    return fake_mp_parse(CT, body, strlen(body), m);
}

static void test_parse_parts(void **state)
{
    (void)state;
    struct fake_mp m;
    const char *body =
        "--XyZ\r\n"
        "Content-Disposition: form-data; name=\"payload_json\"\r\n"
        "Content-Type: application/json\r\n\r\n"
        "{\"a\":1}\r\n"
        "--XyZ\r\n"
        "content-disposition: form-data; name=\"files[0]\"; "
        "filename=\"log.md\"\r\n\r\n"
        "line one\r\nline two\r\n"
        "--XyZ--\r\n";
    assert_null(parse(body, &m));
    assert_int_equal(m.nparts, 2);
    assert_string_equal(m.parts[0].name, "payload_json");
    assert_string_equal(m.parts[0].type, "application/json");
    assert_int_equal(m.parts[0].len, 7);
    assert_memory_equal(m.parts[0].data, "{\"a\":1}", 7);
    const struct fake_mp_part *f = fake_mp_find(&m, "files[0]");
    assert_non_null(f);
    assert_string_equal(f->filename, "log.md");
    /* a CRLF inside a part is data; only CRLF--boundary ends it */
    assert_int_equal(f->len, strlen("line one\r\nline two"));
    assert_null(fake_mp_find(&m, "files[1]"));
    /* an unquoted boundary parameter among others */
    assert_null(fake_mp_parse("multipart/form-data; charset=x; "
                              "boundary=\"XyZ\"", body, strlen(body), &m));
}

static void test_parse_refuses(void **state)
{
    (void)state;
    struct fake_mp m;
    const char *part = "Content-Disposition: form-data; name=\"a\"\r\n\r\n"
                       "x\r\n";
    char buf[4096];
    /* not multipart, no boundary, a boundary over 70 bytes */
    assert_non_null(fake_mp_parse("application/json", "x", 1, &m));
    assert_non_null(fake_mp_parse("multipart/form-data", "x", 1, &m));
    char ct[200];
    snprintf(ct, sizeof ct, "multipart/form-data; boundary=%071d", 0);
    assert_non_null(fake_mp_parse(ct, "x", 1, &m));
    /* no closing delimiter */
    snprintf(buf, sizeof buf, "--XyZ\r\n%s", part);
    assert_non_null(parse(buf, &m));
    /* no parts at all */
    assert_non_null(parse("--XyZ--\r\n", &m));
    /* a part without a name, without Content-Disposition, not form-data */
    assert_non_null(parse("--XyZ\r\nContent-Disposition: form-data\r\n\r\n"
                          "x\r\n--XyZ--", &m));
    assert_non_null(parse("--XyZ\r\nContent-Type: text/plain\r\n\r\n"
                          "x\r\n--XyZ--", &m));
    assert_non_null(parse("--XyZ\r\nContent-Disposition: attachment; "
                          "name=\"a\"\r\n\r\nx\r\n--XyZ--", &m));
    /* headers that never end, a header without a colon */
    assert_non_null(parse("--XyZ\r\nContent-Disposition: form-data; "
                          "name=\"a\"", &m));
    assert_non_null(parse("--XyZ\r\nnonsense\r\n\r\nx\r\n--XyZ--", &m));
    /* a boundary followed by junk */
    assert_non_null(parse("--XyZjunk\r\n", &m));
    /* an unterminated quoted name */
    assert_non_null(parse("--XyZ\r\nContent-Disposition: form-data; "
                          "name=\"a\r\n\r\nx\r\n--XyZ--", &m));
}

static void test_parse_limits(void **state)
{
    (void)state;
    struct fake_mp m;
    char *buf = malloc(64 * 1024);
    assert_non_null(buf);
    /* FAKE_MP_MAX_PARTS parts pass, one more is refused */
    for (int extra = 0; extra <= 1; extra++) {
        size_t at = 0;
        for (int i = 0; i < FAKE_MP_MAX_PARTS + extra; i++)
            at += (size_t)sprintf(buf + at, "--XyZ\r\nContent-Disposition: "
                                  "form-data; name=\"p%d\"\r\n\r\nx\r\n", i);
        sprintf(buf + at, "--XyZ--\r\n");
        if (extra)
            assert_non_null(parse(buf, &m));
        else
            assert_null(parse(buf, &m));
    }
    /* a header line over FAKE_MP_MAX_LINE, too many header lines */
    size_t at = (size_t)sprintf(buf, "--XyZ\r\nContent-Disposition: "
                                "form-data; name=\"a\"; filename=\"");
    memset(buf + at, 'a', FAKE_MP_MAX_LINE);
    sprintf(buf + at + FAKE_MP_MAX_LINE, "\"\r\n\r\nx\r\n--XyZ--\r\n");
    assert_non_null(parse(buf, &m));
    at = (size_t)sprintf(buf, "--XyZ\r\nContent-Disposition: form-data; "
                         "name=\"a\"\r\n");
    for (int i = 0; i < FAKE_MP_MAX_HEADERS; i++)
        at += (size_t)sprintf(buf + at, "X-%d: y\r\n", i);
    sprintf(buf + at, "\r\nx\r\n--XyZ--\r\n");
    assert_non_null(parse(buf, &m));
    free(buf);
}

/* What fray's builder writes, the fake reads back part for part. */
static void test_round_trip(void **state)
{
    (void)state;
    char data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7);
    struct mp_file f[2] = {{"x.bin", "application/octet-stream", data,
                            sizeof data},
                           {"Bridge-ambush-log.md", "text/markdown", "# a\n",
                            4}};
    struct mp_body b;
    assert_int_equal(mp_build("{\"content\":\"c\"}", f, 2, &b), BOT_OK);
    struct fake_mp m;
    assert_null(fake_mp_parse(b.content_type, b.data, b.len, &m));
    assert_int_equal(m.nparts, 3);
    const struct fake_mp_part *p = fake_mp_find(&m, "payload_json");
    assert_int_equal(p->len, strlen("{\"content\":\"c\"}"));
    p = fake_mp_find(&m, "files[0]");
    assert_int_equal(p->len, sizeof data);
    assert_memory_equal(p->data, data, sizeof data);
    p = fake_mp_find(&m, "files[1]");
    assert_string_equal(p->filename, "Bridge-ambush-log.md");
    assert_string_equal(p->type, "text/markdown");
    assert_memory_equal(p->data, "# a\n", 4);
    mp_body_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_parts),
        cmocka_unit_test(test_parse_refuses),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
