/* test_log.c - log lines, journald prefixes, token redaction, token loading. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "token.h"

#define TOK "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs"

static char *capture(struct log *lg, FILE **f, char **buf, size_t *len)
{
    *f = open_memstream(buf, len);
    log_init(lg, *f, LOG_LVL_DEBUG);
    return *buf;
}

static void test_log_redacts_token_everywhere(void **state)
{
    struct log lg;
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    (void)state;

    capture(&lg, &f, &buf, &len);
    assert_true(log_set_secret(&lg, TOK));
    log_msg(&lg, LOG_LVL_INFO, "GET https://x/?t=%s and again %s.", TOK, TOK);
    log_msg(&lg, LOG_LVL_ERR, "multi\nline\r%s", "text");
    fclose(f);
    assert_null(strstr(buf, TOK));
    assert_null(strstr(buf, "ZnCjm1XVW7"));
    assert_non_null(strstr(buf, "t=[redacted] and again [redacted]."));
    assert_non_null(strstr(buf, "err: multi line text\n"));
    free(buf);
    log_cleanup(&lg);
}

static void test_log_cut_never_shows_token_prefix(void **state)
{
    struct log lg;
    char out[LOG_MAX_LINE + 1];
    char pad[LOG_MAX_LINE];
    (void)state;

    log_init(&lg, NULL, LOG_LVL_DEBUG);
    assert_true(log_set_secret(&lg, TOK));
    /* the token straddles the LOG_MAX_LINE cut */
    for (size_t off = LOG_MAX_LINE - 40; off < LOG_MAX_LINE; off += 7) {
        memset(pad, 'a', off);
        pad[off] = '\0';
        log_format(&lg, out, sizeof out, "%s%s tail", pad, TOK);
        assert_null(strstr(out, "MTk4NjIy"));
        assert_true(strlen(out) <= LOG_MAX_LINE);
    }
    log_cleanup(&lg);
}

static void test_log_journal_prefix_and_levels(void **state)
{
    struct log lg;
    FILE *f;
    char *buf = NULL;
    size_t len = 0;
    enum log_level lvl;
    (void)state;

    capture(&lg, &f, &buf, &len);
    log_set_journal(&lg, true);
    lg.max = LOG_LVL_INFO;
    log_msg(&lg, LOG_LVL_WARN, "w");
    log_msg(&lg, LOG_LVL_DEBUG, "hidden");
    fclose(f);
    assert_string_equal(buf, "<4>w\n");
    free(buf);
    assert_true(log_level_parse("notice", &lvl));
    assert_int_equal(lvl, LOG_LVL_NOTICE);
    assert_false(log_level_parse("loud", &lvl));
    assert_false(log_set_secret(&lg, "ab"));
}

/* Under systemd, $JOURNAL_STREAM names the device and inode of the stream
 * journald gave the service: a log writing to that very file uses "<N>"
 * prefixes (so `journalctl -p warning` works) and still scrubs the token;
 * any other stream keeps timestamps. */
static void test_log_journal_stream_detected(void **state)
{
    char path[] = "/tmp/fray-test-log-XXXXXX", env[64], line[256];
    struct stat st;
    struct log lg;
    FILE *f, *other;
    int fd;
    (void)state;

    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w+");
    assert_non_null(f);
    assert_int_equal(fstat(fd, &st), 0);
    snprintf(env, sizeof env, "%llu:%llu", (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino);
    setenv("JOURNAL_STREAM", env, 1);
    log_init(&lg, f, LOG_LVL_INFO);
    assert_true(lg.journal);
    assert_true(log_set_secret(&lg, TOK));
    log_msg(&lg, LOG_LVL_ERR, "refused %s", TOK);
    log_msg(&lg, LOG_LVL_WARN, "slow");
    log_msg(&lg, LOG_LVL_INFO, "fine");
    log_cleanup(&lg);
    rewind(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "<3>refused [redacted]\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "<4>slow\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "<6>fine\n");

    other = tmpfile();    /* not the journal's stream (f still open: its
                             inode cannot be reused meanwhile) */
    assert_non_null(other);
    log_init(&lg, other, LOG_LVL_INFO);
    assert_false(lg.journal);
    fclose(other);
    fclose(f);
    unlink(path);
    unsetenv("JOURNAL_STREAM");
}

static void test_token_env_trimmed_and_checked(void **state)
{
    char tok[TOKEN_MAX_LEN + 8], err[256];
    enum token_source src;
    (void)state;

    unsetenv("CREDENTIALS_DIRECTORY");
    setenv(TOKEN_ENV, "  " TOK "\n", 1);
    assert_int_equal(token_load(tok, sizeof tok, &src, err, sizeof err),
                     BOT_OK);
    assert_string_equal(tok, TOK);
    assert_int_equal(src, TOKEN_SRC_ENV);

    setenv(TOKEN_ENV, "abc def", 1);
    assert_int_equal(token_load(tok, sizeof tok, &src, err, sizeof err),
                     BOT_INVALID);
    assert_null(strstr(err, "abc"));
    setenv(TOKEN_ENV, "Bot " TOK, 1);
    assert_int_equal(token_load(tok, sizeof tok, &src, err, sizeof err),
                     BOT_INVALID);
    assert_null(strstr(err, "MTk4"));
    unsetenv(TOKEN_ENV);
    assert_int_equal(token_load(tok, sizeof tok, &src, err, sizeof err),
                     BOT_NOTFOUND);
}

static void test_token_credential_wins(void **state)
{
    char dir[] = "/tmp/fray-cred-XXXXXX";
    char path[64], tok[TOKEN_MAX_LEN + 8], err[256];
    enum token_source src;
    FILE *f;
    (void)state;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s", dir, TOKEN_CREDENTIAL_NAME);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(TOK "\n", f);
    fclose(f);
    setenv("CREDENTIALS_DIRECTORY", dir, 1);
    setenv(TOKEN_ENV, "other-token", 1);
    assert_int_equal(token_load(tok, sizeof tok, &src, err, sizeof err),
                     BOT_OK);
    assert_string_equal(tok, TOK);
    assert_int_equal(src, TOKEN_SRC_CREDENTIAL);
    unlink(path);
    rmdir(dir);
    unsetenv("CREDENTIALS_DIRECTORY");
    unsetenv(TOKEN_ENV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_redacts_token_everywhere),
        cmocka_unit_test(test_log_cut_never_shows_token_prefix),
        cmocka_unit_test(test_log_journal_prefix_and_levels),
        cmocka_unit_test(test_log_journal_stream_detected),
        cmocka_unit_test(test_token_env_trimmed_and_checked),
        cmocka_unit_test(test_token_credential_wins),
    };
    return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
