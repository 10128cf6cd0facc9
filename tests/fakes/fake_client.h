/*
 * fake_client.h - what a test needs to drive fake-discord: start and stop
 * the server as a child process, call its /_test/ control API and its REST
 * routes with a small blocking HTTP/1.1 client (plain sockets, 127.0.0.1
 * only), and start the fray binary pointed at it.
 *
 * Blocking by design: these run in the test's thread, never inside an lws
 * callback. Every wait takes a timeout in milliseconds. Children started
 * here get a signal if the test process dies (PR_SET_PDEATHSIG), so a
 * crashed test leaves nothing running.
 *
 * Ownership: string arguments are borrowed. json_t results are new
 * references the caller json_decref()s; struct fake_resp contents are freed
 * with fake_resp_free(). The contract of the server itself is
 * docs/internals/fake-discord.md.
 */
#ifndef FAKE_CLIENT_H
#define FAKE_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define FAKE_CLIENT_TIMEOUT_MS 10000    /* per HTTP request */

struct fake_proc {
    pid_t pid;                  /* 0 when not running */
    int port;                   /* from the server's "PORT <n>" line */
};

/* Start fake-discord (the FAKE_DISCORD_BINARY the build defines) listening
 * on a free port, with extra command-line args (NULL-terminated list, may be
 * NULL; e.g. {"--heartbeat-ms", "200", NULL}). Waits up to 5 s for the PORT
 * line. Returns 0, or -1 (nothing left running). */
int fake_server_start(struct fake_proc *p, const char *const *args);

/* SIGTERM, wait up to 2 s, then SIGKILL. Returns the waitpid() status, or
 * -1 if it was not running. */
int fake_server_stop(struct fake_proc *p);

struct fake_resp {
    int status;                 /* HTTP status, 0 if none was read */
    char *headers;              /* raw header block, NUL-terminated */
    char *body;                 /* NUL-terminated (may hold NULs) */
    size_t body_len;
};

/* One HTTP/1.1 request to 127.0.0.1:port. headers: NULL-terminated list of
 * "Name: value" lines (may be NULL); body may be NULL. A Content-Type of
 * application/json is added for a body unless headers set one. Returns 0
 * when a response was read (any status), -1 on connection errors; out is
 * always initialised. */
int fake_request(int port, const char *method, const char *path,
                 const char *const *headers, const char *body,
                 struct fake_resp *out);
void fake_resp_free(struct fake_resp *r);

/* Case-insensitive lookup of a response header; copies its value into buf
 * and returns buf, or NULL when absent. */
const char *fake_resp_header(const struct fake_resp *r, const char *name,
                             char *buf, size_t cap);

/* Control API shortcuts (no auth). Return the parsed JSON body (NULL if the
 * request failed or the body is not JSON); *status (may be NULL) gets the
 * HTTP status. */
json_t *fake_get_json(int port, const char *path, int *status);
json_t *fake_post_json(int port, const char *path, const char *body,
                       int *status);

/* POST /_test/interaction with a description such as
 * {"type":"command","name":"roll","options":[{"name":"expr","value":"d20"}]}.
 * Returns {"id","token","application_id","channel_id","seq","delivered"} or
 * NULL (e.g. 409 when no gateway session exists yet). */
json_t *fake_inject(int port, const char *desc_json);

/* Wait until the fake has a READY session on a live connection. 0 or -1. */
int fake_wait_ready(int port, int timeout_ms);

/* Wait for the interaction's callback; returns GET /_test/callbacks/{id}
 * ({"body": <callback>, "latency_ms": ..., ...}) or NULL on timeout. */
json_t *fake_wait_callback(int port, const char *interaction_id,
                           int timeout_ms);

json_t *fake_stats(int port);                       /* GET /_test/stats */
/* One integer from /_test/stats (e.g. "identifies", "violations"); -1 when
 * absent or unreachable. */
long long fake_stat(int port, const char *key);
/* Wait until fake_stat(key) >= min. 0, or -1 on timeout. */
int fake_wait_stat(int port, const char *key, long long min, int timeout_ms);

/* POST /_test/fault with a JSON fault; returns the HTTP status. */
int fake_fault(int port, const char *fault_json);
/* POST /_test/reset; returns 0 on success. */
int fake_reset(int port);

/* ---- the newer interface (fake_client_ix.c; fake-discord.md "Components
 * V2, modals, context menus, user installs") ---- */

/* A REST call as a bot makes it: Authorization: Bot <token> (NULL:
 * "fake-token"), a DiscordBot User-Agent; path is under /api/v10 (e.g.
 * "/channels/1/messages"). Returns the parsed answer (NULL when there is
 * none or it is not JSON); *status (may be NULL) gets the HTTP status. */
json_t *fake_rest(int port, const char *token, const char *method,
                  const char *path, const char *body, int *status);

/* How many violations of kind (e.g. "v2_with_content") were recorded. */
long long fake_violations_of(int port, const char *kind);

/* Submit the modal that interaction_id (id or token) was answered with:
 * values_json is an object custom_id -> value (a string for a Text Input
 * or Radio Group, an array for selects, File Uploads (attachment ids from
 * /_test/attachment) and Checkbox Groups, true/false for a Checkbox; NULL:
 * none). Values the modal could not produce are refused (400) unless
 * force. Returns what fake_inject returns, or NULL; *status (may be NULL)
 * gets the HTTP status. */
json_t *fake_modal_submit(int port, const char *interaction_id,
                          const char *values_json, bool force, int *status);

/* A click (values_json NULL) or a selection (values_json a JSON array of
 * strings) on component custom_id of message_id, a message the bot sent.
 * Unless forge, the fake refuses (400) a custom_id that was never on that
 * message, values not among the select's options or outside
 * min..max_values, a disabled component, a link button. component_type
 * and, for user/role/mentionable/channel selects, data.resolved are filled
 * in. extra_json (may be NULL) is an object of more description fields,
 * e.g. {"user_id":"…"} for who clicks. Returns as fake_inject, or NULL;
 * *status as above. */
json_t *fake_inject_component(int port, const char *message_id,
                              const char *custom_id, const char *values_json,
                              bool forge, const char *extra_json, int *status);

/* A USER (command_type 2) or MESSAGE (3) context-menu command called name
 * on target_id (a user, or a message: one the bot sent, else give
 * "target_message" in extra). extra_json (may be NULL) is an object of
 * more description fields, e.g. {"install":"user","context":2}. Returns as
 * fake_inject, or NULL; *status as above. */
json_t *fake_inject_context_menu(int port, int command_type,
                                 const char *name, const char *target_id,
                                 const char *extra_json, int *status);

/* How to start fray against the fake. Every field may be NULL except
 * binary (pass FRAY_BINARY from the test build). */
struct fake_fray_opts {
    const char *binary;
    const char *const *args;    /* after argv[0], e.g. {"run", NULL} */
    const char *const *env;     /* extra "NAME=value" entries */
    const char *token;          /* DISCORD_TOKEN; default "fake-token" */
    const char *log_path;       /* stdout+stderr appended here; NULL keeps
                                 * the test's own */
};

/* Start fray with DISCORD_TOKEN and DISCORD_API_BASE
 * (http://127.0.0.1:<port>/api/v10) set and CREDENTIALS_DIRECTORY unset.
 * Returns the pid, or -1. */
pid_t fake_fray_start(int port, const struct fake_fray_opts *o);

/* Wait for a child: 0 when reaped (*wstatus set if not NULL), 1 on timeout,
 * -1 on error. */
int fake_proc_wait(pid_t pid, int timeout_ms, int *wstatus);

/* Send sig, wait up to timeout_ms, then SIGKILL and reap. Returns 0 if it
 * exited within the timeout, 1 if it had to be killed, -1 on error. */
int fake_proc_stop(pid_t pid, int sig, int timeout_ms, int *wstatus);

/* Sleep in the test thread (nanosleep, EINTR-safe). */
void fake_sleep_ms(int ms);

#endif
