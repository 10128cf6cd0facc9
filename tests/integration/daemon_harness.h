/*
 * daemon_harness.h - start fake-discord and fray together for one test.
 *
 * Each harness has its own temporary directory (config, database, fray's
 * log), its own fake server and its own fray process. Ownership: the
 * harness owns both processes and the directory; harness_stop() ends them.
 */
#ifndef DAEMON_HARNESS_H
#define DAEMON_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "fake_client.h"

#define HARNESS_READY_MS 8000
#define HARNESS_CALLBACK_MS 8000

struct harness {
    struct fake_proc fake;
    pid_t fray;
    char dir[64];
    char conf[128];
    char log[128];
};

/* Start the fake (extra args, may be NULL) and fray; wait for READY unless
 * wait_ready is false. token NULL = the right one. Fails the test on error. */
void harness_start(struct harness *h, const char *const *fake_args,
                   const char *token, bool wait_ready);

/* Start (again) only fray, on the same database. */
void harness_start_fray(struct harness *h, const char *token);

/* Inject /roll and return the interaction id (static buffer per call site
 * is the caller's: copied into id[32]). */
void harness_roll(struct harness *h, char id[32]);

/* Wait for the callback of id; fail the test when it does not come. Returns
 * the callback record (caller decrefs). */
json_t *harness_callback(struct harness *h, const char *id);

/* fray's exit status after it ends within timeout_ms; -1 on timeout. */
int harness_wait_exit(struct harness *h, int timeout_ms);

/* Stop fray (SIGTERM) and the fake, remove the directory. Fails the test
 * (printing fray's log) unless fray exits 0: under ASan that also catches
 * leaks and memory errors on the way out. */
void harness_stop(struct harness *h);

/* Inject the interaction described by desc (fake-discord's description,
 * borrowed) and wait for its callback; returns the callback body that fray
 * sent ({"type", "data"}; caller decrefs). Fails the test without one. */
json_t *harness_interact(struct harness *h, json_t *desc);

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

/* Print fray's log to stderr (for failures). */
void harness_dump_log(const struct harness *h);

#endif
