/* test_gw_seqfile.c - the gateway's resume point beside the database
 * (bot/discord/gw_seqfile.c): a record of one key and session, found
 * only for that key and session, exact to the byte (a torn or foreign
 * file is no record), rewritten in place, private, and its refusals. */
#include "support.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gw_seqfile.h"

#define KEY "gw.seq"
#define SESSION "3f2a9c0e1b7d4e5f8a6b2c1d0e9f8a7b"

static void test_seqfile_round_trip(void **state)
{
    char rec[GW_SEQFILE_LEN];
    int64_t seq = -1;
    (void)state;
    assert_true(gw_seqfile_format(rec, KEY, SESSION, 41));
    assert_int_equal(rec[GW_SEQFILE_LEN - 1], '\n');
    assert_memory_equal(rec, GW_SEQFILE_MAGIC " " KEY " " SESSION " 41 ",
                        sizeof GW_SEQFILE_MAGIC " " KEY " " SESSION " 41 "
                            - 1);
    assert_true(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    assert_int_equal(seq, 41);
    assert_true(gw_seqfile_format(rec, KEY, SESSION, INT64_MAX));
    assert_true(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    assert_true(seq == INT64_MAX);
}

static void test_seqfile_other_key_or_session(void **state)
{
    char rec[GW_SEQFILE_LEN];
    int64_t seq = -1;
    (void)state;
    assert_true(gw_seqfile_format(rec, KEY, SESSION, 7));
    assert_false(gw_seqfile_parse(rec, sizeof rec, "gw.seq:1/2", SESSION,
                                  &seq));
    assert_false(gw_seqfile_parse(rec, sizeof rec, KEY, "another", &seq));
    /* a session that begins like this one is another one */
    assert_false(gw_seqfile_parse(rec, sizeof rec, KEY, "3f2a", &seq));
    assert_int_equal(seq, -1);
}

static void test_seqfile_torn_or_foreign(void **state)
{
    char rec[GW_SEQFILE_LEN];
    int64_t seq = -1;
    (void)state;
    assert_true(gw_seqfile_format(rec, KEY, SESSION, 1234));
    /* cut short, or the last byte lost */
    assert_false(gw_seqfile_parse(rec, sizeof rec - 1, KEY, SESSION, &seq));
    rec[GW_SEQFILE_LEN - 1] = ' ';
    assert_false(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    rec[GW_SEQFILE_LEN - 1] = '\n';
    /* a zero byte (a page never written), or junk in the padding */
    char *digits = strstr(rec, " 1234") + 1;
    digits[2] = '\0';
    assert_false(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    digits[2] = '3';
    rec[GW_SEQFILE_LEN - 3] = 'x';
    assert_false(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    rec[GW_SEQFILE_LEN - 3] = ' ';
    /* no digits, or more than an int64 */
    char bad[GW_SEQFILE_LEN];
    memcpy(bad, rec, sizeof bad);
    memset(digits - rec + bad, ' ', 4);
    assert_false(gw_seqfile_parse(bad, sizeof bad, KEY, SESSION, &seq));
    memcpy(bad, rec, sizeof bad);
    memcpy(digits - rec + bad, "99999999999999999999", 20);
    assert_false(gw_seqfile_parse(bad, sizeof bad, KEY, SESSION, &seq));
    /* another program's file */
    memset(bad, 'a', sizeof bad);
    bad[sizeof bad - 1] = '\n';
    assert_false(gw_seqfile_parse(bad, sizeof bad, KEY, SESSION, &seq));
    assert_int_equal(seq, -1);
    assert_true(gw_seqfile_parse(rec, sizeof rec, KEY, SESSION, &seq));
    assert_int_equal(seq, 1234);
}

static void test_seqfile_refusals(void **state)
{
    char rec[GW_SEQFILE_LEN];
    char long_session[GW_SEQFILE_LEN];
    (void)state;
    assert_false(gw_seqfile_format(rec, KEY, "two words", 1));
    assert_false(gw_seqfile_format(rec, "", SESSION, 1));
    assert_false(gw_seqfile_format(rec, KEY, "", 1));
    assert_false(gw_seqfile_format(rec, KEY, SESSION, -1));
    memset(long_session, 'a', sizeof long_session - 1);
    long_session[sizeof long_session - 1] = '\0';
    assert_false(gw_seqfile_format(rec, KEY, long_session, 1));
}

/* Written through one descriptor, rewritten in place with a shorter
 * number (no tail of the longer one left), read back. */
static void test_seqfile_file(void **state)
{
    char dir[] = "/tmp/fray-seqfile-XXXXXX";
    char path[sizeof dir + 32];
    int fd = -1;
    int64_t seq = -1;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/db" GW_SEQFILE_SUFFIX, dir);
    assert_false(gw_seqfile_read(path, KEY, SESSION, &seq));
    mode_t old = umask(022);
    assert_true(gw_seqfile_write(path, &fd, KEY, SESSION, 123456));
    umask(old);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);     /* private, as the db */
    assert_true(gw_seqfile_read(path, KEY, SESSION, &seq));
    assert_int_equal(seq, 123456);
    assert_true(gw_seqfile_write(path, &fd, KEY, SESSION, 7));
    assert_true(gw_seqfile_read(path, KEY, SESSION, &seq));
    assert_int_equal(seq, 7);
    assert_false(gw_seqfile_read(path, KEY, "another", &seq));
    assert_false(gw_seqfile_write(path, &fd, KEY, "bad session", 8));
    assert_int_equal(errno, EINVAL);
    close(fd);
    /* a directory that is not there: an error, not a crash */
    fd = -1;
    char gone[sizeof dir + 32];
    snprintf(gone, sizeof gone, "%s/none/db" GW_SEQFILE_SUFFIX, dir);
    assert_false(gw_seqfile_write(gone, &fd, KEY, SESSION, 1));
    assert_int_equal(fd, -1);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seqfile_round_trip),
        cmocka_unit_test(test_seqfile_other_key_or_session),
        cmocka_unit_test(test_seqfile_torn_or_foreign),
        cmocka_unit_test(test_seqfile_refusals),
        cmocka_unit_test(test_seqfile_file),
    };
    return cmocka_run_group_tests_name("gw_seqfile", tests, NULL, NULL);
}
