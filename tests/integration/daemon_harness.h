/*
 * daemon_harness.h - start fake-discord and fray together for one test.
 *
 * Each harness has its own directory under <build>/test-artifacts/
 * (config, database, fray's log), its own fake server and its own fray
 * process. Both get the suite's token (token_scan.h: one random token per
 * ctest run, or per process when run outside ctest). harness_stop() checks
 * that fake-discord saw no violation other than those the test allowed and
 * that no file in the directory holds the token, then removes it; a failed
 * test leaves its directory for a look. Ownership: the harness owns both
 * processes and the directory; harness_stop() ends them.
 */
#ifndef DAEMON_HARNESS_H
#define DAEMON_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "fake_client.h"
#include "token_scan.h"

#define HARNESS_READY_MS 8000
#define HARNESS_CALLBACK_MS 8000
#define HARNESS_STAT_MS 10000      /* a fake stat to reach its value */
#define HARNESS_MAX_ALLOWED 8       /* violation kinds a test may allow */
#define HARNESS_MAX_FAKE_ARGS 32    /* extra fake-discord arguments */
#define HARNESS_PATH_MAX 512

struct harness {
    struct fake_proc fake;
    pid_t fray;
    char dir[HARNESS_PATH_MAX];
    char conf[HARNESS_PATH_MAX];
    char log[HARNESS_PATH_MAX];
    char db[HARNESS_PATH_MAX];
    char token[TSCAN_TOKEN_CAP];    /* the suite token: never print it */
    const char *allowed[HARNESS_MAX_ALLOWED];
    int nallowed;
};

/* Start the fake (extra args, may be NULL) and fray; wait for READY unless
 * wait_ready is false. token NULL = the right one (h->token). Fails the
 * test on error. */
void harness_start(struct harness *h, const char *const *fake_args,
                   const char *token, bool wait_ready);

/* The same, with extra_conf (sections of fray.conf, may be NULL) added to
 * the harness's config. */
void harness_start_conf(struct harness *h, const char *const *fake_args,
                        const char *token, bool wait_ready,
                        const char *extra_conf);

/* Start (again) only fray, on the same database. */
void harness_start_fray(struct harness *h, const char *token);

/* Inject /roll and return the interaction id (static buffer per call site
 * is the caller's: copied into id[32]). */
void harness_roll(struct harness *h, char id[32]);

/* Inject /roll and wait for its answer (fails the test without one). */
void harness_roll_answered(struct harness *h);

/* Wait until the fake's stat `key` reaches min (HARNESS_STAT_MS at
 * most); else dump fray's log and fail the test. */
void harness_wait_stat(struct harness *h, const char *key, long long min);

/* Wait for the callback of id; fail the test when it does not come. Returns
 * the callback record (caller decrefs). */
json_t *harness_callback(struct harness *h, const char *id);

/* Whether the read-only query sql, its ?1 bound to arg as text, gives a
 * row in fray's database (opened beside the running fray; an error
 * fails the test). */
bool harness_db_has(struct harness *h, const char *sql, const char *arg);

/* fray's exit status after it ends within timeout_ms; -1 on timeout. */
int harness_wait_exit(struct harness *h, int timeout_ms);

/* Stop fray (SIGTERM) and the fake, remove the directory. Fails the test
 * (printing fray's log) unless fray exits 0: under ASan that also catches
 * leaks and memory errors on the way out. Fails it too when fake-discord
 * recorded a violation of a kind not allowed (harness_allow_violation) or
 * a file in the directory holds the token. */
void harness_stop(struct harness *h);

/* A test that provokes a violation on purpose allows its kind (a string
 * literal, e.g. "gw_4004"; kept, not copied) and checks it itself. */
void harness_allow_violation(struct harness *h, const char *kind);

/* How many violations of kind fake-discord recorded (-1: no answer). */
long long harness_violations_of(struct harness *h, const char *kind);

/* Fail the test unless fake-discord's violations are all of allowed kinds
 * (run by harness_stop; callable earlier). */
void harness_check_violations(struct harness *h);

/* Fail the test when a file under h->dir holds the token (names the file,
 * never the token). Run by harness_stop. */
void harness_check_token(struct harness *h);

/* Start another fray on the same config (and so the same database) with
 * its output appended to log_path; returns its pid. */
pid_t harness_spawn_fray(struct harness *h, const char *log_path);

/* Inject the interaction described by desc (fake-discord's description,
 * borrowed) and wait for its callback; returns the callback body that fray
 * sent ({"type", "data"}; caller decrefs). Fails the test without one. */
json_t *harness_interact(struct harness *h, json_t *desc);

/* Inject /name with options (a JSON array of Discord option objects,
 * taken; NULL: none) as user, with the member permission bits perms (a
 * decimal string, NULL: none), and return the callback body (caller
 * decrefs). */
json_t *harness_slash(struct harness *h, const char *user, const char *perms,
                      const char *name, json_t *opts);

/* The names of the commands the fake holds for scope ("global" or a guild
 * id), comma-joined into out (cap bytes); *n (when not NULL) gets how
 * many. */
/* The values autocomplete offers user for /name (sub NULL) or /name sub,
 * options being the command's options with the focused one among them
 * (stolen), comma-separated into out. Asserts a type 8 answer of at most
 * 25 choices. */
void harness_complete(struct harness *h, const char *user, const char *name,
                      const char *sub, json_t *options, char *out,
                      size_t cap);

void harness_command_names(struct harness *h, const char *scope, char *out,
                           size_t cap, size_t *n);

/* REST requests recorded after *since whose method is method (NULL: any)
 * and whose path contains part (NULL: any); *since moves past the last
 * record looked at. Returns an array (caller decrefs). */
json_t *harness_requests(struct harness *h, const char *method,
                         const char *part, long long *since);

/* Wait up to timeout_ms for such a request; returns it (caller decrefs)
 * or NULL, and moves *since past it. */
json_t *harness_wait_request(struct harness *h, const char *method,
                             const char *part, long long *since,
                             int timeout_ms);

/* The seq of the last recorded request (a starting point for *since). */
long long harness_last_request(struct harness *h);

/* Fail the test (with fray's log) unless fake-discord saw no violation. */
void harness_assert_no_violations(struct harness *h);

/* The port of a listener fray logs as "<what>: http://127.0.0.1:PORT"
 * ("metrics", "web"), once it says so; fails the test when it does not
 * within HARNESS_STAT_MS. */
int harness_log_port(struct harness *h, const char *what);

/* Ask 127.0.0.1:port for a WebSocket upgrade of path and read until the
 * server hangs up (HARNESS_STAT_MS at most): whether it refused, that is
 * closed the connection without "101 Switching Protocols". */
bool harness_upgrade_refused(int port, const char *path);

/* Print fray's log to stderr (for failures). */
void harness_dump_log(const struct harness *h);

/* How many lines of fray's log hold needle. */
int harness_log_count(const struct harness *h, const char *needle);

/* The number of the first line of fray's log holding needle; 0: none. */
int harness_log_line(const struct harness *h, const char *needle);

/* Wait (10 s at most) until needle is in fray's log at least min times;
 * else dump the log and fail the test. */
void harness_wait_log(const struct harness *h, const char *needle, int min);

#endif
