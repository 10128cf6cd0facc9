/* test_cli_check.c - `fray check` and `fray --version`, run as a GM would:
 * check against fake-discord with the right token (ready, exit 0), a wrong
 * one (401 said in words, exit 1, the token in no output), no session
 * starts left, a broken config; all while `fray run` holds the database,
 * which check only reads. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon_harness.h"

#define CHECK_WAIT_MS 40000
#define CHECK_OUT_MAX 65536

/* Run fray with args (and token), stdout+stderr into <dir>/name; returns
 * the exit status and the output in out[CHECK_OUT_MAX]. */
static int run_fray_env(struct harness *h, const char *name,
                        const char *const *args, const char *token,
                        const char *const *env, char *out)
{
    char path[HARNESS_PATH_MAX + 32];
    struct fake_fray_opts o = {.binary = FRAY_BINARY, .args = args,
                               .env = env, .token = token, .log_path = path};
    int st = -1;
    FILE *f;
    size_t n;

    snprintf(path, sizeof path, "%s/%s", h->dir, name);
    pid_t pid = fake_fray_start(h->fake.port, &o);
    assert_true(pid > 0);
    assert_int_equal(fake_proc_wait(pid, CHECK_WAIT_MS, &st), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    n = fread(out, 1, CHECK_OUT_MAX - 1, f);
    out[n] = '\0';
    fclose(f);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static int run_fray(struct harness *h, const char *name,
                    const char *const *args, const char *token, char *out)
{
    return run_fray_env(h, name, args, token, NULL, out);
}

static void expect(const char *out, const char *text)
{
    if (!strstr(out, text))
        fail_msg("missing \"%s\" in:\n%s", text, out);
}

static void test_check_good_and_bad_token(void **state)
{
    /* shaped as a token (its first part a bot id, 123456789012345678 in
     * base64), but not one Discord knows */
    static const char bad[] = "MTIzNDU2Nzg5MDEyMzQ1Njc4.AAAAAA.BBBBBBBBBBBB";
    const char *const args[] = {"check", "--config", NULL, "--online", NULL};
    const char *argv[5];
    struct harness h;
    char *out = malloc(CHECK_OUT_MAX);
    (void)state;

    assert_non_null(out);
    harness_start(&h, NULL, NULL, true);
    harness_roll_answered(&h);          /* the database has a schema */
    memcpy(argv, args, sizeof argv);
    argv[2] = h.conf;

    assert_int_equal(run_fray(&h, "good.log", argv, h.token, out), 0);
    expect(out, "ok    config: ");
    expect(out, "ok    token: found in the environment");
    expect(out, "(current)");
    expect(out, "ok    discord: the token is accepted: bot fray");
    expect(out, "ok    intents: fray needs no privileged intent");
    expect(out, "ok    web: off");
    expect(out, "ok    sessions: ");
    expect(out, "ready: 0 failed");

    harness_allow_violation(&h, "unauthorized");
    assert_int_equal(run_fray(&h, "bad.log", argv, bad, out), 1);
    expect(out, "FAIL  discord: Discord refused the token (401");
    expect(out, "Reset Token");
    expect(out, "NOT READY: 1 failed");
    assert_null(strstr(out, "MTIzNDU2Nzg5MDEyMzQ1Njc4"));
    assert_true(harness_violations_of(&h, "unauthorized") >= 1);

    /* no session start left: said, and a failure */
    json_decref(fake_post_json(h.fake.port, "/_test/config",
                               "{\"session_remaining\":0}", NULL));
    assert_int_equal(run_fray(&h, "limit.log", argv, h.token, out), 1);
    expect(out, "FAIL  sessions: no session start left");
    json_decref(fake_post_json(h.fake.port, "/_test/config",
                               "{\"session_remaining\":1000}", NULL));
    free(out);
    harness_stop(&h);
}

static void test_check_offline_problems(void **state)
{
    const char *argv[] = {"check", "--config", NULL, NULL};
    struct harness h;
    char conf[HARNESS_PATH_MAX + 32];
    char *out = malloc(CHECK_OUT_MAX);
    FILE *f;
    (void)state;

    assert_non_null(out);
    harness_start(&h, NULL, NULL, true);   /* READY: its signals are set */
    /* a typo in the config: named with its line, nothing else checked */
    snprintf(conf, sizeof conf, "%s/typo.conf", h.dir);
    f = fopen(conf, "w");
    assert_non_null(f);
    fputs("[store]\npath = x.db\n[rest]\ntimeout_msec = 5\n", f);
    fclose(f);
    argv[2] = conf;
    assert_int_equal(run_fray(&h, "typo.log", argv, h.token, out), 1);
    expect(out, "typo.conf:4: [rest] timeout_msec: unknown key");
    assert_null(strstr(out, "token:"));

    /* rules data that does not parse */
    snprintf(conf, sizeof conf, "%s/rules.conf", h.dir);
    f = fopen(conf, "w");
    assert_non_null(f);
    fprintf(f, "[rules]\ndir = %s\n", h.dir);
    fclose(f);
    snprintf(out, CHECK_OUT_MAX, "%s/tactical-effects.conf", h.dir);
    f = fopen(out, "w");
    assert_non_null(f);
    fputs("this is not an effect line\n", f);
    fclose(f);
    assert_int_equal(run_fray(&h, "rules.log", argv, h.token, out), 1);
    expect(out, "FAIL  rules: ");
    expect(out, "tactical-effects.conf");

    /* the README's placeholder, and a token cut short, are no tokens:
     * refused without asking Discord, so never "ready" */
    argv[2] = h.conf;
    static const char *const not_tokens[] = {
        "THE-BOT-TOKEN", "paste-the-token",
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.AAAAAA", "bm90LWFuLWlk.AAAAAA.BBBBBB"};
    for (size_t i = 0; i < sizeof not_tokens / sizeof *not_tokens; i++) {
        assert_int_equal(run_fray(&h, "placeholder.log", argv, not_tokens[i],
                                  out), 1);
        expect(out, "FAIL  token: the one in the environment");
        expect(out, "is not a Discord bot token");
        expect(out, "NOT READY");
    }
    free(out);
    harness_stop(&h);
}

/* `fray run` with no token, as ./scripts/run starts it without one: it
 * says how to get a token, invite the bot and start it from a checkout
 * (no `fray` on PATH there), then exits as a service would (no terminal). */
static void test_run_without_token_says_what_to_do(void **state)
{
    const char *argv[] = {"run", NULL};
    struct harness h;
    char *out = malloc(CHECK_OUT_MAX);
    (void)state;

    assert_non_null(out);
    harness_start(&h, NULL, NULL, true);
    assert_int_equal(run_fray(&h, "notoken.log", argv, "", out), 2);
    expect(out, "no Discord bot token");
    expect(out, "Reset Token");
    expect(out, "Invite the bot");
    expect(out, "applications.commands");
    expect(out, "./scripts/run");
    expect(out, "/etc/fray/discord-token");
    assert_null(strstr(out, "fray run  "));
    free(out);
    harness_stop(&h);
}

static void test_version_names_commit_and_libraries(void **state)
{
    static const char *const lines[] = {
        "fray " FRAY_VERSION "\n", "\ncommit ", "\nlibwebsockets 4.",
        "\nlibcurl ", "\njansson ", "\nsqlite 3.", "\nlibpq ", "\nopenssl ",
        "\nzlib "};
    const char *argv[] = {"--version", NULL};
    struct harness h;
    char *out = malloc(CHECK_OUT_MAX);
    (void)state;

    assert_non_null(out);
    harness_start(&h, NULL, NULL, true);   /* READY: its signals are set */
    assert_int_equal(run_fray(&h, "version.log", argv, h.token, out), 0);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        expect(out, lines[i]);
    free(out);
    harness_stop(&h);
}

/* The token travels in every request's header: a plain http:// api_base
 * (the config's, or $DISCORD_API_BASE) would send it in clear, which is
 * a warning, unless the address is this machine's own (a test's fake, a
 * local proxy). */
static void test_check_warns_plain_http(void **state)
{
    static const struct {
        const char *base;
        bool warns;
    } bases[] = {
        {"DISCORD_API_BASE=http://discord.example/api/v10", true},
        {"DISCORD_API_BASE=HTTP://10.0.0.7:8080/api/v10", true},
        {"DISCORD_API_BASE=https://discord.com/api/v10", false},
        {"DISCORD_API_BASE=http://127.0.0.1:9/api/v10", false},
        {"DISCORD_API_BASE=http://localhost:9/api/v10", false},
        {"DISCORD_API_BASE=http://[::1]:9/api/v10", false},
    };
    const char *argv[] = {"check", "--config", NULL, NULL};
    struct harness h;
    char *out = malloc(CHECK_OUT_MAX);
    (void)state;

    assert_non_null(out);
    harness_start(&h, NULL, NULL, true);
    harness_roll_answered(&h);          /* the database has a schema */
    argv[2] = h.conf;
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        const char *env[] = {bases[i].base, NULL};
        char log[32];
        snprintf(log, sizeof log, "http%zu.log", i);   /* logs append */
        assert_int_equal(run_fray_env(&h, log, argv, h.token, env, out), 0);
        bool warned = strstr(out, "warn  discord: ") != NULL &&
                      strstr(out, "in clear") != NULL;
        if (warned != bases[i].warns)
            fail_msg("%s: %s:\n%s", bases[i].base,
                     warned ? "warned" : "no warning", out);
    }
    free(out);
    harness_stop(&h);
}

/* h's config and extra into <dir>/name; the path into path. */
static void conf_plus(struct harness *h, const char *name, const char *extra,
                      char *path, size_t cap)
{
    char line[1024];
    FILE *in = fopen(h->conf, "r"), *out;
    snprintf(path, cap, "%s/%s", h->dir, name);
    out = fopen(path, "w");
    assert_non_null(in);
    assert_non_null(out);
    while (fgets(line, sizeof line, in))
        fputs(line, out);
    fputs(extra, out);
    fclose(in);
    fclose(out);
}

static int free_port(void)
{
    struct sockaddr_in sa = {.sin_family = AF_INET};
    socklen_t len = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    close(fd);
    return ntohs(sa.sin_port);
}

/* The shared pages' listener (docs/web.md): off, where it will listen,
 * in use (by the fray running now), or an address it cannot have. */
static void test_check_reports_web(void **state)
{
    const char *argv[] = {"check", "--config", NULL, NULL};
    struct harness h;
    char conf[HARNESS_PATH_MAX + 32], extra[256], want[128];
    char *out = malloc(CHECK_OUT_MAX);
    int busy = free_port(), port;
    (void)state;

    assert_non_null(out);
    snprintf(extra, sizeof extra, "[web]\nlisten = 127.0.0.1:%d\n"
             "public_url = https://fray.example.org\n", busy);
    harness_start_conf(&h, NULL, NULL, true, extra);
    harness_roll_answered(&h);          /* the database has a schema */
    argv[2] = h.conf;
    assert_int_equal(run_fray(&h, "busy.log", argv, h.token, out), 0);
    snprintf(want, sizeof want, "warn  web: 127.0.0.1 port %d is in use",
             busy);
    expect(out, want);

    port = free_port();
    snprintf(extra, sizeof extra, "[web]\nlisten = 127.0.0.1:%d\n"
             "public_url = https://fray.example.org\n", port);
    conf_plus(&h, "free.conf", extra, conf, sizeof conf);
    argv[2] = conf;
    assert_int_equal(run_fray(&h, "free.log", argv, h.token, out), 0);
    snprintf(want, sizeof want, "ok    web: listens on 127.0.0.1 port %d; "
             "links show https://fray.example.org", port);
    expect(out, want);

    conf_plus(&h, "far.conf", "[web]\nlisten = 192.0.2.1:8080\n"
              "public_url = https://fray.example.org\n", conf, sizeof conf);
    assert_int_equal(run_fray(&h, "far.log", argv, h.token, out), 1);
    expect(out, "FAIL  web: cannot listen on 192.0.2.1 port 8080");
    free(out);
    harness_stop(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_good_and_bad_token),
        cmocka_unit_test(test_check_offline_problems),
        cmocka_unit_test(test_version_names_commit_and_libraries),
        cmocka_unit_test(test_run_without_token_says_what_to_do),
        cmocka_unit_test(test_check_warns_plain_http),
        cmocka_unit_test(test_check_reports_web),
    };
    return cmocka_run_group_tests_name("cli_check", tests, NULL, NULL);
}
