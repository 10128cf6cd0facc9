/* test_transcripts.c - golden transcripts of whole console sessions.
 *
 * For every tests/transcripts/NAME.txt this runs
 *   fray console --db DIR/fray.db --seed 42 --gm  < NAME.txt
 * (NAME.LANG.txt, LANG a language fray speaks such as de or pt-BR, adds
 * --lang LANG: the same fight told in that language)
 * on a new database in a fresh temporary directory (a file, so that a
 * script's :restart finds its fights again), and compares its output with NAME.out byte for byte, printing a unified
 * diff when they differ. With FRAY_UPDATE_GOLDEN=1 in the environment the
 * .out files are rewritten instead (then read them before committing: a
 * golden file must show correct behaviour). One cmocka test per script. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "i18n.h"
#include "sbuf.h"

#define TRANSCRIPT_DIR FRAY_SOURCE_DIR "/tests/transcripts"
#define TRANSCRIPT_MAX_OUTPUT (8u << 20)    /* a runaway console is a bug */
#define TRANSCRIPT_MAX_FILES 64
#define TRANSCRIPT_PATH_MAX 4096

/* Remove dir and the files in it (the database and its companions). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    char path[TRANSCRIPT_PATH_MAX];

    while (d != NULL && (ent = readdir(d)) != NULL) {
        if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        unlink(path);
    }
    if (d != NULL)
        closedir(d);
    rmdir(dir);
}

/* The language a script's name asks for: "de" of "generic_fight.de.txt"
 * into lang (empty: none, English). */
static void script_lang(const char *script, char *lang, size_t cap)
{
    const char *base = strrchr(script, '/');
    const char *end = script + strlen(script) - strlen(".txt");
    const char *dot = end;
    enum i18n_lang l;
    char code[16];

    base = base != NULL ? base + 1 : script;
    while (dot > base && dot[-1] != '.')
        dot--;
    lang[0] = '\0';
    if (dot <= base || (size_t)(end - dot) >= sizeof code)
        return;
    memcpy(code, dot, (size_t)(end - dot));
    code[end - dot] = '\0';
    if (i18n_from_code(code, &l) && l != I18N_EN)
        snprintf(lang, cap, "%s", code);
}

/* Run the console on script; its stdout into *out. Returns the exit
 * status, or -1 when it could not be run. */
static int run_console(const char *script, struct sbuf *out)
{
    char lang[16];
    int fds[2], in, status;
    pid_t pid;
    char chunk[4096], dir[] = "/tmp/fray-transcript-db-XXXXXX";
    char db[sizeof dir + 16];
    ssize_t n;

    if (mkdtemp(dir) == NULL)
        return -1;
    script_lang(script, lang, sizeof lang);
    snprintf(db, sizeof db, "%s/fray.db", dir);
    in = open(script, O_RDONLY | O_CLOEXEC);
    if (in < 0 || pipe(fds) != 0) {
        remove_dir(dir);
        return -1;
    }
    pid = fork();
    if (pid < 0) {
        remove_dir(dir);
        return -1;
    }
    if (pid == 0) {
        dup2(in, STDIN_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        unsetenv("FRAY_SEED");
        if (lang[0] != '\0')
            execl(FRAY_BINARY, FRAY_BINARY, "console", "--db", db,
                  "--seed", "42", "--gm", "--lang", lang, (char *)NULL);
        else
            execl(FRAY_BINARY, FRAY_BINARY, "console", "--db", db,
                  "--seed", "42", "--gm", (char *)NULL);
        _exit(127);
    }
    close(in);
    close(fds[1]);
    while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        sbuf_addn(out, chunk, (size_t)n);
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            remove_dir(dir);
            return -1;
        }
    remove_dir(dir);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The whole file at path into out; false when it cannot be read. */
static bool read_file(const char *path, struct sbuf *out)
{
    FILE *f = fopen(path, "rb");
    char chunk[4096];
    size_t n;
    bool ok;

    if (f == NULL)
        return false;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbuf_addn(out, chunk, n);
    ok = !ferror(f) && sbuf_error(out) == SBUF_OK;
    fclose(f);
    return ok;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok;

    if (f == NULL)
        return false;
    ok = fwrite(data, 1, len, f) == len;
    return (fclose(f) == 0) && ok;
}

/* Show how actual differs from the golden file: diff -u when it can run,
 * and in any case the first line that differs. */
static void report_diff(const char *golden, const char *want, size_t wlen,
                        const char *got, size_t glen)
{
    char tmp[] = "/tmp/fray-transcript-XXXXXX";
    int fd = mkstemp(tmp);
    size_t line = 1, i = 0;

    if (fd >= 0) {
        close(fd);
        if (write_file(tmp, got, glen)) {
            pid_t pid = fork();
            if (pid == 0) {
                dup2(STDERR_FILENO, STDOUT_FILENO);
                execlp("diff", "diff", "-u", "--label", golden, "--label",
                       "actual", golden, tmp, (char *)NULL);
                _exit(127);
            }
            if (pid > 0)
                waitpid(pid, NULL, 0);
        }
        unlink(tmp);
    }
    while (want != NULL && i < wlen && i < glen && want[i] == got[i]) {
        if (want[i] == '\n')
            line++;
        i++;
    }
    fprintf(stderr, "%s: first difference at line %zu (byte %zu)%s\n",
            golden, line, i, want == NULL ? " (no golden file)" : "");
}

static void test_transcript(void **state)
{
    const char *script = *state;
    char golden[TRANSCRIPT_PATH_MAX];
    struct sbuf out, want;
    bool have;
    int rc;

    snprintf(golden, sizeof golden, "%.*s.out",
             (int)(strlen(script) - strlen(".txt")), script);
    sbuf_init(&out, TRANSCRIPT_MAX_OUTPUT);
    rc = run_console(script, &out);
    if (rc != 0)
        fail_msg("%s: fray console exited with status %d", script, rc);
    assert_int_equal(sbuf_error(&out), SBUF_OK);

    const char *update = getenv("FRAY_UPDATE_GOLDEN");
    if (update != NULL && strcmp(update, "1") == 0) {
        assert_true(write_file(golden, sbuf_str(&out), out.len));
        fprintf(stderr, "updated %s\n", golden);
        sbuf_cleanup(&out);
        return;
    }

    sbuf_init(&want, TRANSCRIPT_MAX_OUTPUT);
    have = read_file(golden, &want);
    if (!have || want.len != out.len ||
        memcmp(sbuf_str(&want), sbuf_str(&out), out.len) != 0) {
        report_diff(golden, have ? sbuf_str(&want) : NULL, want.len,
                    sbuf_str(&out), out.len);
        sbuf_cleanup(&want);
        sbuf_cleanup(&out);
        fail_msg("%s does not match (FRAY_UPDATE_GOLDEN=1 rewrites it)",
                 golden);
    }
    sbuf_cleanup(&want);
    sbuf_cleanup(&out);
}

int main(void)
{
    struct CMUnitTest tests[TRANSCRIPT_MAX_FILES];
    glob_t g;
    size_t n = 0;
    int rc;

    if (glob(TRANSCRIPT_DIR "/*.txt", 0, NULL, &g) != 0) {
        fprintf(stderr, "no scripts in %s\n", TRANSCRIPT_DIR);
        return 1;
    }
    for (size_t i = 0; i < g.gl_pathc && n < TRANSCRIPT_MAX_FILES; i++) {
        const char *path = g.gl_pathv[i];
        const char *base = strrchr(path, '/');
        tests[n] = (struct CMUnitTest){
            .name = base != NULL ? base + 1 : path,
            .test_func = test_transcript,
            .initial_state = (void *)path,
        };
        n++;
    }
    if (g.gl_pathc > TRANSCRIPT_MAX_FILES)
        fprintf(stderr, "only the first %d scripts run\n",
                TRANSCRIPT_MAX_FILES);
    rc = _cmocka_run_group_tests("transcripts", tests, n, NULL, NULL);
    globfree(&g);
    return rc;
}
