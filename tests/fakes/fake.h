/*
 * fake.h - internals of fake-discord, the test server that speaks Discord's
 * Gateway v10 (plain ws://) and REST v10 (plain http://) on 127.0.0.1.
 *
 * One process, one lws context, one vhost, one protocol whose callback serves
 * both HTTP (REST under /api/v10, the test control API under /_test) and the
 * gateway websocket. Everything runs on the lws service thread; nothing here
 * blocks or is thread-safe. All state hangs off one struct fake_server, found
 * through the context user pointer; the only global is the signal flag in
 * fake_main.c. The contract for tests is docs/internals/fake-discord.md.
 *
 * Ownership: arguments are borrowed unless a comment says "steals" (jansson
 * style: the callee takes the reference). json_t results documented "new" are
 * the caller's to json_decref(); others are borrowed from the server state
 * and live until the next mutation or /_test/reset.
 */
#ifndef FAKE_H
#define FAKE_H

#include <libwebsockets.h>
#include <jansson.h>
#include <zlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- limits and protocol numbers (Discord's, see discord-protocol.md) ---- */

#define FAKE_API_PREFIX         "/api/v10"
#define FAKE_TEST_PREFIX        "/_test/"
#define FAKE_RESUME_PATH        "/resume"      /* resume_gateway_url path */
#define FAKE_MAX_BODY           (25 * 1024 * 1024) /* request bodies we
                                              accept: Discord's request
                                              size limit (file uploads) */
#define FAKE_ATTACH_MAX         (10 * 1024 * 1024) /* one file: Discord's
                                              attachment_size_limit of a
                                              server without boosts */
#define FAKE_WRITE_CHUNK        16384          /* HTTP body bytes per write */

#define FAKE_GW_MAX_PAYLOAD     4096      /* client payload size cap (4002) */
#define FAKE_GW_SEND_LIMIT      120       /* client sends per window (4008) */
#define FAKE_GW_SEND_WINDOW_MS  60000
#define FAKE_GW_DEFAULT_HB_MS   41250     /* HELLO heartbeat_interval */
#define FAKE_GW_HB_GRACE_MS     500       /* on top of interval * 1.5 */
#define FAKE_GW_IDENTIFY_GAP_MS 5000      /* max_concurrency 1 per 5 s */
#define FAKE_GW_SESSION_TOTAL   1000      /* session_start_limit.total */
#define FAKE_GW_REPLAY_MAX      20000     /* dispatches kept per session */
#define FAKE_GW_MAX_SESSIONS    32
#define FAKE_GW_MAX_CONCURRENCY 64        /* identify buckets we track */
#define FAKE_GW_MAX_SHARDS      65536     /* shard counts accepted */
#define FAKE_GW_INTENTS_VALID   0x307FFFFull    /* bits 0-16, 20, 21, 24, 25 */
#define FAKE_GW_INTENTS_PRIV    (2ull | 256ull | 32768ull)
#define FAKE_GW_ZLIB_SLACK      64        /* room for the sync-flush marker */
#define FAKE_GW_BIG_MAX         (64 * 1024 * 1024)  /* "big" fault frame */

#define FAKE_IX_DEADLINE_MS     3000          /* first response window */
#define FAKE_IX_TOKEN_TTL_MS    (15 * 60 * 1000)

#define FAKE_GLOBAL_LIMIT       50            /* requests per second */
#define FAKE_MAX_RECORDS        100000        /* REST records / frames kept */
#define FAKE_MAX_RL_HEADERS     10
#define FAKE_ATT_HELD_MAX       8             /* "slow" downloads held */

/* Discord message limits (message.mdx, components/reference.mdx). */
#define FAKE_MSG_CONTENT_MAX    2000
#define FAKE_MSG_EMBEDS_MAX     10
#define FAKE_EMBED_TITLE_MAX    256
#define FAKE_EMBED_DESC_MAX     4096
#define FAKE_EMBED_FIELDS_MAX   25
#define FAKE_FIELD_NAME_MAX     256
#define FAKE_FIELD_VALUE_MAX    1024
#define FAKE_FOOTER_MAX         2048
#define FAKE_AUTHOR_MAX         256
#define FAKE_EMBED_TOTAL_MAX    6000
#define FAKE_ROWS_MAX           5
#define FAKE_ROW_BUTTONS_MAX    5
#define FAKE_CUSTOM_ID_MAX      100
#define FAKE_BUTTON_LABEL_MAX   80
#define FAKE_SELECT_OPTIONS_MAX 25
#define FAKE_SELECT_TEXT_MAX    100
#define FAKE_PLACEHOLDER_MAX    150
#define FAKE_CHOICES_MAX        25

/* Components V2 and modals (components/reference.mdx, message.mdx,
 * receiving-and-responding.mdx; discord-interface-2026.md 1-2). */
#define FAKE_FLAG_EPHEMERAL     64
#define FAKE_FLAG_V2            32768     /* IS_COMPONENTS_V2, 1 << 15 */
#define FAKE_V2_COMPONENTS_MAX  40        /* nested ones count (our reading) */
#define FAKE_V2_TEXT_MAX        4000      /* all Text Displays of a message
                                             (our reading: the docs give no
                                             limit, PR #8562 says 4000) */
#define FAKE_V2_SECTION_TEXTS_MAX 3
#define FAKE_V2_GALLERY_MAX     10
#define FAKE_V2_ALT_MAX         1024      /* media description */
#define FAKE_MODAL_TITLE_MAX    45
#define FAKE_MODAL_TOP_MAX      5
#define FAKE_LABEL_MAX          45
#define FAKE_LABEL_DESC_MAX     100
#define FAKE_INPUT_MAX          4000      /* text input value and lengths */
#define FAKE_UPLOAD_MAX         10        /* files, file_types entries */
#define FAKE_GROUP_OPTIONS_MAX  10        /* radio / checkbox group */
#define FAKE_USER_FOLLOWUPS_MAX 5         /* user-installed app */

/* Command limits (application-commands.mdx). */
#define FAKE_CMD_NAME_MAX       32
#define FAKE_CMD_DESC_MAX       100
#define FAKE_CMD_OPTIONS_MAX    25
#define FAKE_CMD_TOTAL_MAX      8000
#define FAKE_CMD_CHAT_MAX       100
#define FAKE_CMD_CTX_MAX        15

/* ---- options ---- */

struct fake_opts {
    int port;                   /* 0: let the kernel pick */
    const char *token;          /* expected bot token (no "Bot " prefix) */
    int heartbeat_ms;           /* HELLO heartbeat_interval */
    bool hb_timeout;            /* close connections that miss heartbeats */
    int identify_gap_ms;        /* 0 disables the 5 s identify spacing */
    int session_total;          /* session_start_limit.total */
    bool allow_privileged;      /* accept privileged intents */
    const char *app_id;         /* application id == bot user id */
    const char *guild_id;       /* default guild for injected interactions */
    const char *channel_id;     /* default channel */
    const char *user_id;        /* default invoking user */
    bool verbose;
};

/* ---- gateway ---- */

enum fake_gw_state { FAKE_GW_AWAIT_AUTH, FAKE_GW_READY, FAKE_GW_CLOSING };

struct fake_frame {                 /* one outgoing websocket frame */
    struct fake_frame *next;
    long ix;                        /* interaction index carried, or -1 */
    bool binary;                    /* zlib-stream data, else JSON text */
    size_t len;
    unsigned char buf[];            /* LWS_PRE + len bytes */
};

struct fake_replay {                /* a dispatch kept for RESUME */
    int64_t s;
    long ix;                        /* interaction index, or -1 */
    char *text;                     /* owned */
};

struct fake_session;

struct fake_gw_conn {
    struct fake_server *srv;
    struct lws *wsi;
    struct fake_gw_conn *next;      /* srv->conns list */
    int id;                         /* 1-based, == index in conn_log + 1 */
    enum fake_gw_state state;
    struct fake_session *sess;      /* NULL until IDENTIFY/RESUME */
    struct fake_frame *q_head, *q_tail;
    int close_code;                 /* pending server close, 0 = none */
    char close_reason[64];
    bool drop;                      /* pending abrupt TCP drop */
    char *rx;                       /* message reassembly */
    size_t rx_len;
    bool rx_too_big;
    int64_t sends[FAKE_GW_SEND_LIMIT];  /* receive times (us), ring */
    int nsends;
    int hb_ms;                      /* heartbeat_interval sent in HELLO */
    int64_t hello_us;
    int64_t last_hb_us;
    long heartbeats;
    lws_sorted_usec_list_t hb_sul;  /* heartbeat-timeout check */
    lws_sorted_usec_list_t op7_sul; /* close after op 7 */
    bool on_resume_url;
    bool zlib;                      /* compress=zlib-stream */
    z_stream zs;                    /* its deflate context */
};

struct fake_session {
    char id[33];
    int64_t seq;                    /* last sequence number sent */
    bool alive;                     /* false once invalidated */
    struct fake_gw_conn *conn;      /* live connection, or NULL */
    struct fake_replay *rp;
    size_t nrp, caprp;
    int64_t evicted_s;              /* highest s dropped from rp, 0 none */
    int64_t created_us;
    bool sharded;                   /* IDENTIFY carried "shard" */
    int shard_id, shard_count;      /* 0/1 when not sharded */
};

/* ---- interactions ---- */

struct fake_ix {
    char id[24];
    char token[128];
    int type;                       /* interaction type */
    char channel_id[24];
    char orig_msg[24];              /* @original message id, "" if none */
    int64_t t_inject_us;
    int64_t created_ms;             /* Unix ms in its id: the 3 s start */
    int64_t t_dispatch_us;          /* first websocket write, 0 = not yet */
    int64_t t_callback_us;          /* first callback arrival, 0 = none */
    int callbacks;                  /* callback requests seen */
    int cb_type;                    /* type of the accepted callback */
    json_t *callback;               /* accepted callback body (owned) */
    bool load;                      /* injected by the load generator */
    bool missed;                    /* deadline passed unanswered */
    bool load_counted;              /* the load generator counted it */
    int deliveries;                 /* sessions it was dispatched to */
    json_t *payload;                /* the interaction as built (owned;
                                       NULL in load runs): what a modal
                                       submit takes its context from */
    bool user_only;                 /* authorizing_integration_owners
                                       holds only "1" (user install) */
    int followups;                  /* follow-up messages created */
};

/* ---- HTTP requests ---- */

struct fake_hdr { char name[40]; char value[80]; };

struct fake_http_req {
    struct fake_server *srv;
    struct lws *wsi;
    int method;                     /* LWSHUMETH_* */
    char meth[8];
    char path[768];                 /* decoded path, no query */
    char query[512];
    char auth[256];
    char ua[256];
    char ctype[128];
    char resp_ctype[64];            /* response Content-Type; "" = JSON */
    int64_t content_length;         /* -1 when absent */
    char *body;                     /* NUL-terminated, owned */
    size_t body_len, body_cap;
    bool body_too_big;
    int64_t t_us;
    long rec;                       /* index in srv->requests, or -1 */
    /* response */
    int status;
    char *resp;                     /* owned; NULL for no body */
    size_t resp_len, resp_off;
    struct fake_hdr hdrs[FAKE_MAX_RL_HEADERS];
    int nhdrs;
    bool hdr_sent;
    bool ready;                     /* response prepared */
    bool close_after;               /* close the connection after it */
    int delay_ms;
    lws_sorted_usec_list_t sul;     /* delayed response */
};

/* The lws per-session data of the one protocol: HTTP connections use req,
 * websocket connections use gw. */
struct fake_pss {
    struct fake_http_req *req;      /* request in progress (owned) */
    struct fake_gw_conn *gw;        /* gateway connection (owned) */
};

/* ---- rate limits and faults ---- */

struct fake_bucket {
    int cls;                        /* route class index */
    int remaining;
    int64_t reset_us;
    bool told_empty;                /* we answered Remaining: 0 this window */
    int64_t blocked_until_us;       /* a 429 told the client to wait */
};

struct fake_rl_class {
    const char *name;
    const char *hash;               /* X-RateLimit-Bucket */
    int limit;
    int window_ms;
    bool global_exempt;
};

struct fake_fault {                 /* a scripted REST fault */
    char path[128];                 /* substring of the /api/v10 path */
    char method[8];                 /* "" = any */
    int status;                     /* 0 = no status override */
    double retry_after;
    bool global;
    char scope[8];
    int delay_ms;
    long count;                     /* remaining uses, -1 = unlimited */
    json_t *body;                   /* response body override (owned) */
    json_t *headers;                /* raw header overrides (owned) */
};

#define FAKE_MAX_FAULTS 32

/* ---- load generator ---- */

/* Closed loop (rate 0): keep `concurrency` unanswered. Open loop (rate > 0):
 * inject on a schedule of `rate` per second (fixed or Poisson spacing)
 * whatever the answers do, holding back only when `concurrency` are
 * unanswered (counted in `capped`). */
struct fake_load {
    bool active;
    long total, injected, answered, missed;
    int concurrency, channels;
    long outstanding;
    size_t first_ix;                /* first interaction of this run */
    size_t scan_ix;                 /* older ones are answered or missed */
    json_t *command;                /* description template (owned) */
    int64_t t_start_us, t_end_us;
    double rate;                    /* per second; 0 = closed loop */
    bool poisson;                   /* exponential gaps, else fixed */
    double next_us;                 /* when the next one is due */
    int64_t last_scan_us;           /* last deadline scan */
    int64_t t_last_inject_us;
    int64_t max_lag_us;             /* worst injection behind schedule */
    long capped;                    /* injections held back by the cap */
    long cap_counted;               /* injection index already counted */
    lws_sorted_usec_list_t sul;     /* deadline scan and rate schedule */
};

/* ---- the server ---- */

struct fake_stats {
    long connections, identifies, resumes, resumes_ok, resumes_failed;
    long resumes_on_resume_url, heartbeats, acks, acks_skipped;
    long frames_in, dispatches, server_closes, client_closes;
    long rest_requests, rest_429, rest_5xx;
    long injected, callbacks, callbacks_rejected;
    int last_client_close;
};

struct fake_server {
    struct fake_opts opt;
    /* While c_interaction dispatches: [from, to] string pairs replaced in
     * the frame's text (borrowed), to send what jansson cannot write, such
     * as a lone surrogate escape. NULL otherwise. */
    const json_t *dispatch_patch;
    struct lws_context *ctx;
    struct lws_vhost *vh;
    int port;
    int64_t t0_us;
    uint64_t rng;
    uint64_t snow;                  /* snowflake counter */
    /* gateway */
    struct fake_gw_conn *conns;
    int next_conn_id;
    struct fake_session *sessions[FAKE_GW_MAX_SESSIONS];
    struct fake_session *current;
    int64_t last_identify_us;
    /* sharding (fake_gw_shard.c); 0 reads as 1 */
    int shards;                     /* /gateway/bot recommended count */
    int max_concurrency;            /* identify buckets */
    int require_shards;             /* fewer in IDENTIFY -> 4011 */
    int64_t bucket_identify_us[FAKE_GW_MAX_CONCURRENCY];
    int session_remaining;
    json_t *hello_iv;               /* HELLO heartbeat_interval as sent
                                       (any JSON, owned); NULL = the
                                       configured heartbeat_ms */
    bool zombie;                    /* stop ACKing heartbeats */
    long zombie_skip;               /* ACKs still to skip */
    json_t *conn_log;               /* array of connection records */
    json_t *frames;                 /* array of frames received */
    /* interactions */
    struct fake_ix *ix;
    size_t nix, capix;
    json_t *ix_index;               /* id or token -> index */
    double *lat;                    /* latency samples, ms */
    size_t nlat, caplat;
    struct fake_load load;
    /* REST */
    json_t *requests;               /* array of request records */
    json_t *violations;             /* array of violation records */
    json_t *vcounts;                /* kind -> count */
    json_t *messages;               /* message id -> message object */
    json_t *commands;               /* "global" or guild id -> array */
    json_t *threads;                /* thread id -> channel object (with
                                       "deleted" once deleted by hand) */
    json_t *msg_cids;               /* message id -> {custom_id: component}
                                       of every version it had */
    json_t *foreign;                /* channel id -> true: a channel of a
                                       server the bot is not in (user
                                       installs): no Create Message */
    json_t *chan_perms;             /* channel id -> the bot's permissions
                                       there (decimal string); absent:
                                       FAKE_DEFAULT_PERMS */
    long command_puts;
    json_t *attachments;            /* id -> {object, content, mode} */
    json_t *att_requests;           /* downloads, with their headers */
    struct fake_http_req *att_held[FAKE_ATT_HELD_MAX];  /* "slow" ones */
    struct fake_rl_class *rlc;      /* route classes (owned copy) */
    int nrlc;
    struct fake_bucket *buckets;
    size_t nbuckets, capbuckets;
    json_t *bucket_index;           /* "cls:major" -> index */
    int global_limit;
    int64_t global_start_us;
    int global_count;
    int64_t global_block_us;        /* a global 429 told everyone to wait */
    struct fake_fault faults[FAKE_MAX_FAULTS];
    int nfaults;
    struct fake_stats st;
};

/* ---- fake_threads.c: threads, and the bot's permissions per channel ---- */

#define FAKE_DEFAULT_PERMS "2248473465835073"
#define FAKE_PERM_SEND_MESSAGES (1ull << 11)
#define FAKE_PERM_CREATE_PUBLIC_THREADS (1ull << 35)
#define FAKE_PERM_SEND_IN_THREADS (1ull << 38)
#define FAKE_THREAD_NAME_MAX 100
#define FAKE_UNKNOWN_CHANNEL 10003

/* The bot's permissions in channel (a thread: its parent's). */
const char *fake_chan_perms(struct fake_server *s, const char *channel);
/* The thread called id, deleted or not, or NULL when id is no thread. */
json_t *fake_thread(struct fake_server *s, const char *id);
/* Whether channel is a thread that was deleted: every request to it
 * gets 404 10003 Unknown Channel. */
bool fake_channel_gone(struct fake_server *s, const char *channel);
/* POST /channels/{parent}/threads with body; fills the response. */
void fake_thread_create(struct fake_server *s, struct fake_http_req *r,
                        const char *parent, const json_t *body);
/* PATCH or DELETE /channels/{id}. */
void fake_channel_modify(struct fake_server *s, struct fake_http_req *r,
                         const char *id, const json_t *body);
/* POST /_test/threads: {"delete": id} deletes a thread as a user would;
 * {"perms": {"channel_id": id, "permissions": "..."}} sets the bot's
 * permissions in a channel. NULL, or what is wrong. */
const char *fake_thread_control(struct fake_server *s, const json_t *body);

/* ---- fake_util.c ---- */
int64_t fake_now_us(void);                          /* monotonic */
double fake_rel_ms(const struct fake_server *s, int64_t us);
uint64_t fake_rand(struct fake_server *s);
void fake_snowflake(struct fake_server *s, char out[24]);
/* A snowflake made age_ms ago (a backdated interaction id). */
void fake_snowflake_aged(struct fake_server *s, char out[24], int64_t age_ms);
/* Unix milliseconds in snowflake text; fallback when it is not one. */
int64_t fake_snowflake_ms(const char *id, int64_t fallback);
int64_t fake_wall_ms(void);                          /* CLOCK_REALTIME */
void fake_random_hex(struct fake_server *s, char *out, size_t nhex);
size_t fake_utf8_len(const char *str);              /* code points */
size_t fake_trimmed_len(const char *str);           /* code points, trimmed */
char *fake_dump(const json_t *j);                   /* compact; caller frees */
/* snprintf for error paths: silently truncates (paths are short). */
void fake_pathf(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fake_log(const struct fake_server *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Add {"code":code,"message":msg} under errors at a dotted path such as
 * "embeds.0.title" ("" = top level). */
void fake_err_add(json_t *errors, const char *path, const char *code,
                  const char *msg);
json_t *fake_form_error(json_t *errors);            /* steals; new */
void fake_violation(struct fake_server *s, const char *kind, long req,
                    const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- fake_http.c ---- */
int fake_http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                       void *pss, void *in, size_t len);
/* Prepare the response; body steals (may be NULL for no body). */
void fake_reply_json(struct fake_http_req *r, int status, json_t *body);
void fake_reply_error(struct fake_http_req *r, int status, int code,
                      const char *message);
void fake_add_header(struct fake_http_req *r, const char *name,
                     const char *value);
json_t *fake_req_json(const struct fake_http_req *r);   /* new or NULL */
const char *fake_query_arg(const struct fake_http_req *r, const char *name,
                           char *buf, size_t cap);

/* ---- fake_gateway.c ---- */
int fake_gw_callback(struct lws *wsi, enum lws_callback_reasons reason,
                     void *user, void *in, size_t len);
/* Send a dispatch on the current session (buffered for replay if no live
 * connection). d steals. Returns the sequence number, or -1 if no session. */
int64_t fake_gw_dispatch(struct fake_server *s, const char *t, json_t *d,
                         long ix);
/* The same on session ss (NULL or dead: -1). */
int64_t fake_gw_dispatch_to(struct fake_server *s, struct fake_session *ss,
                            const char *t, json_t *d, long ix);
bool fake_gw_ready(const struct fake_server *s);
/* Apply a gateway fault ({"kind":"close"|"drop"|"op7"|"op9"|"op1"|
 * "zombie"|"invalidate"|"raw"|"big"}); returns 0 or -1 with *err set. */
int fake_gw_fault(struct fake_server *s, const json_t *f, const char **err);
void fake_gw_free_all(struct fake_server *s);
/* Detach queued and replayable frames from interaction records (reset). */
void fake_gw_forget_ix(struct fake_server *s);
json_t *fake_gw_stats(const struct fake_server *s);     /* new */

/* Gateway internals shared by fake_gateway.c (connections, opcodes) and
 * fake_gw_session.c (sessions, replay log, faults). */
void fake_gw_enqueue(struct fake_gw_conn *c, const char *text, long ix);
/* The same for len bytes that need not be text (raw and big faults). */
void fake_gw_enqueue_n(struct fake_gw_conn *c, const char *buf, size_t len,
                       long ix);
/* One frame of exactly these bytes, past the connection's deflate (a
 * broken zlib-stream, a binary frame where text is due). */
void fake_gw_enqueue_frame(struct fake_gw_conn *c, const char *bytes,
                           size_t len, bool binary);
void fake_gw_send_op(struct fake_gw_conn *c, int op, json_t *d); /* steals */
/* Close with a code: flush_first keeps queued frames; error closes drop
 * them. Codes that end a session (4003-4005, 4007, 4009-4014) kill it. */
void fake_gw_close(struct fake_gw_conn *c, int code, const char *reason,
                   bool flush_first);
void fake_gw_conn_free(struct fake_server *s, struct fake_gw_conn *c);
struct fake_session *fake_gw_session_new(struct fake_server *s);
struct fake_session *fake_gw_session_find(struct fake_server *s,
                                          const char *id);
void fake_gw_session_invalidate(struct fake_server *s,
                                struct fake_session *ss);
void fake_gw_op7_close(lws_sorted_usec_list_t *sul);

/* ---- fake_gw_shard.c ---- */
/* IDENTIFY's "shard" (may be NULL): valid, and enough of them when the
 * test requires sharding? Closes c (4010, 4011) and returns false if not;
 * else stores it in the session-to-be via *id, *count, *sharded. */
bool fake_gw_shard_check(struct fake_gw_conn *c, const json_t *shard,
                         int *id, int *count, bool *sharded);
/* One IDENTIFY per identify_gap_ms per max_concurrency bucket: false (a
 * violation, op 9 false) when this shard's bucket identified too recently;
 * true records the identify. */
bool fake_gw_identify_slot(struct fake_gw_conn *c, int shard_id);
/* Dispatch a test-injected event d (steals) by Discord's routing: to the
 * session whose shard owns d's guild_id (no guild: shard 0), or to the
 * shard(s) force names (an integer or an array of them; NULL = route).
 * Returns the first sequence number, -1 when no session takes it; *live
 * says a live connection took it at once. */
int64_t fake_gw_dispatch_routed(struct fake_server *s, const json_t *force,
                                const char *t, json_t *d, long ix,
                                bool *live);
/* /_test/config keys shards, max_concurrency, require_shards. */
void fake_gw_shard_config(struct fake_server *s, const json_t *body);
json_t *fake_gw_shards_json(const struct fake_server *s);   /* new */

/* ---- fake_interaction.c ---- */
/* Build an interaction from a test description; returns new or NULL with
 * *err set. The record is appended and *ix_out set. */
json_t *fake_ix_build(struct fake_server *s, const json_t *desc, long *ix_out,
                      const char **err);
/* Record interaction ix (steals; id, token, application_id and version
 * filled in when missing, from id and token): the tail of fake_ix_build,
 * for interactions built elsewhere (a modal submit). Returns ix or NULL. */
json_t *fake_ix_register(struct fake_server *s, json_t *ix, const char *id,
                         const char *token, long *ix_out, const char **err);
struct fake_ix *fake_ix_find(struct fake_server *s, const char *id_or_token);
/* Add the entity an option of type 6 (user, with a member in a guild),
 * 7 (channel) or 8 (role) names to resolved; other types: nothing. */
void fake_ix_resolve_entity(json_t *resolved, int type, const char *id,
                            const char *guild_id);
/* The option type whose entity a select of component_type 5-8 resolves
 * (a Mentionable Select resolves users); 0 for others. */
int fake_select_option_type(int component_type);
void fake_ix_dispatched(struct fake_server *s, long ix);
void fake_ix_answered(struct fake_server *s, struct fake_ix *x);
json_t *fake_latency_json(const struct fake_server *s);  /* new */
int fake_load_start(struct fake_server *s, const json_t *req,
                    const char **err);
json_t *fake_load_json(const struct fake_server *s);     /* new */
void fake_ix_reset(struct fake_server *s);

/* ---- fake_validate.c ---- */
/* Validate a message body. Returns new errors object, or NULL when valid.
 * *empty_out is set when a create carries nothing to show (50006). */
json_t *fake_validate_message(const json_t *msg, bool create,
                              bool *empty_out);
/* The same for an edit of old (NULL: a create) that also names, in kinds
 * (kind -> path; may be NULL), each V2 rule broken (fake_components.c). */
json_t *fake_validate_message_ex(const json_t *msg, const json_t *old,
                                 bool create, bool *empty_out, json_t *kinds);
/* Record allowed_mentions violations for a message-creating/editing body. */
void fake_check_mentions(struct fake_server *s, const json_t *msg, long req,
                         const char *where);
/* Validate an interaction callback body; new errors or NULL. */
json_t *fake_validate_callback(const json_t *body, int ix_type,
                               bool *empty_out);
/* The same, with the message a type 7 edits (old, may be NULL), the modal
 * of a type 9 checked by every rule (fake_modal.c; the function above
 * checks only its custom_id, title and count), and each V2 or modal rule
 * broken named in kinds (may be NULL). */
json_t *fake_validate_callback_ex(const json_t *body, int ix_type,
                                  const json_t *old, bool *empty_out,
                                  json_t *kinds);

/* ---- fake_components.c: Components V2 (and parts shared with modals) ---- */

/* One walk over a component tree: errors go to errs (Discord's 50035
 * tree), the kind of each broken rule to kinds (kind -> first path; may
 * be NULL); custom ids and ids seen, the components counted (nested ones
 * too) and Text Display characters summed. */
struct fake_cmp_chk {
    json_t *errs;                   /* borrowed */
    json_t *kinds;                  /* borrowed, may be NULL */
    json_t *custom_ids, *ids;       /* owned (init/cleanup) */
    size_t count, text;
    bool modal;                     /* a modal: no disabled, required */
};
void fake_cmp_init(struct fake_cmp_chk *k, json_t *errs, json_t *kinds,
                   bool modal);
void fake_cmp_cleanup(struct fake_cmp_chk *k);
void fake_cmp_bad(struct fake_cmp_chk *k, const char *path, const char *kind,
                  const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A string of min..max code points (absent is fine when min is 0). */
bool fake_cmp_str(struct fake_cmp_chk *k, const char *path, const json_t *v,
                  size_t min, size_t max, const char *kind);
void fake_cmp_custom_id(struct fake_cmp_chk *k, const char *base,
                        const json_t *c);
/* Count component c and check its optional id (0 = absent, unique). */
void fake_cmp_count_id(struct fake_cmp_chk *k, const char *base,
                       const json_t *c);
/* c's "options" (min..max of {label, value, description <= 100}). */
void fake_cmp_options(struct fake_cmp_chk *k, const char *base,
                      const json_t *c, size_t min, size_t max,
                      const char *kind);
/* min_values 0..top, max_values 1..top (default def_max), min <= max;
 * in a modal, min_values 0 only with "required": false. */
void fake_cmp_values_range(struct fake_cmp_chk *k, const char *base,
                           const json_t *c, json_int_t top,
                           json_int_t def_max, const char *kind);
/* In a modal, "disabled" is an error (modal_disabled). */
void fake_cmp_no_disabled(struct fake_cmp_chk *k, const char *base,
                          const json_t *c);
/* A select (3, 5-8) at path base, in a message or (k->modal) a modal. */
void fake_cmp_select(struct fake_cmp_chk *k, const char *base,
                     const json_t *c);
/* The V2 rules for message body m (at prefix pfx, "" or "data."), an
 * edit when old (the stored message) is not NULL: the flag's exclusions,
 * V2 -> classic, classic -> V2 with emptied fields, and the whole
 * component tree when the result is V2. */
void fake_v2_check_message(json_t *errs, json_t *kinds, const char *pfx,
                           const json_t *m, const json_t *old);

/* ---- fake_modal.c ---- */
/* The modal object (data of a type 9 callback) by section 2.2; errors
 * under data.*, kinds modal_* (and the shared ones). */
void fake_modal_check(json_t *errs, json_t *kinds, const json_t *data);

/* ---- fake_ix_context.c: where an interaction comes from ---- */
/* The description's install ("guild", "user", "both"), context (0, 1, 2)
 * and app_permissions over the interaction ix being built: its
 * authorizing_integration_owners, context and app_permissions as
 * Discord sets them; a user install in a guild marks the channel as one
 * of a server the bot is not in. NULL, or what is wrong. */
const char *fake_ix_install(struct fake_server *s, const json_t *desc,
                            json_t *ix);
/* A USER (2) or MESSAGE (3) command's target_id and resolved entry in
 * data; a message target is the one the fake recorded (or the
 * description's "target_message"). NULL, or what is wrong. */
const char *fake_ix_context_menu(struct fake_server *s, const json_t *desc,
                                 json_t *ix, json_t *data);
/* The interaction_metadata Discord puts on a message created in answer
 * to interaction x (new; NULL when the fake has no payload for it). */
json_t *fake_ix_metadata(const struct fake_ix *x);

/* ---- fake_submit.c ---- */
/* With "check": true, a component interaction's custom_id must be on
 * the stored message it names (now or in an earlier version), and a
 * select's values among its options, within min..max; data gets its
 * component_type when not given, and resolved entities for selects 5-8.
 * NULL, or what is wrong. */
const char *fake_ix_component_check(struct fake_server *s,
                                    const json_t *desc, json_t *ix,
                                    json_t *data);
/* The part of that check to make before anything is built: with "check",
 * message_id names a message the bot sent and did not delete. */
const char *fake_ix_component_message(struct fake_server *s,
                                      const json_t *desc);
/* data of a described MODAL_SUBMIT taken as given (custom_id,
 * components, resolved): forged submissions. New. */
json_t *fake_ix_modal_data(struct fake_server *s, const json_t *desc,
                           json_t *ix);
/* POST /_test/modal_submit: the MODAL_SUBMIT answering the modal that
 * interaction body.interaction opened, with body.values; built and
 * recorded (not dispatched). NULL with *status and *err on error. */
json_t *fake_modal_submit_build(struct fake_server *s, const json_t *body,
                                long *ix_out, int *status, const char **err);
/* Every custom_id message m carries, recorded by message id so a stale
 * view's click still checks (fake_ix_component_check). */
void fake_msg_remember(struct fake_server *s, const json_t *m);
/* data.components of the MODAL_SUBMIT answering modal, from values
 * (custom_id -> value: a string for a Text Input or Radio Group, an array
 * for selects, File Uploads (attachment ids) and Checkbox Groups, a bool
 * for a Checkbox). Values the modal could not produce are refused (NULL,
 * *err says why) unless force. *resolved_out gets the resolved entities
 * (new, possibly empty). New array or NULL. */
json_t *fake_modal_answers(struct fake_server *s, const json_t *modal,
                           const json_t *values, bool force,
                           const char *guild, json_t **resolved_out,
                           const char **err);

/* ---- fake_commands.c ---- */
json_t *fake_validate_commands(const json_t *arr);       /* new or NULL */
/* The same for one scope: guild commands take no BOT_DM context (1) and
 * no entry point (type 4). fake_validate_commands is the global scope. */
json_t *fake_validate_commands_scope(const json_t *arr, bool guild);
/* Store a validated array for scope; returns the stored array (borrowed). */
json_t *fake_commands_store(struct fake_server *s, const char *scope,
                            const json_t *arr, const char *guild_id);

/* ---- fake_attach.c ---- */
bool fake_att_path(const char *path);               /* under /attachments/ */
json_t *fake_att_add(struct fake_server *s, const json_t *body,
                     const char **err);             /* new or NULL */
void fake_att_resolve(struct fake_server *s, const json_t *opts,
                      json_t *resolved);
void fake_att_serve(struct fake_server *s, struct fake_http_req *r);
json_t *fake_att_requests_json(const struct fake_server *s);   /* new */
/* Answer the held ("slow") downloads now. */
void fake_att_release(struct fake_server *s);
/* r is freed: it is held no more. */
void fake_att_forget(struct fake_server *s, const struct fake_http_req *r);
void fake_att_reset(struct fake_server *s);

/* ---- fake_rest.c ---- */
void fake_rest_handle(struct fake_server *s, struct fake_http_req *r);

/* ---- fake_ratelimit.c ---- */
void fake_rl_init(struct fake_server *s);
void fake_rl_free(struct fake_server *s);
void fake_rl_reset(struct fake_server *s);
int fake_rl_class(const struct fake_server *s, const char *name);
/* Apply faults, the global limit and the route bucket. Returns true when the
 * request was answered here (429/5xx) and the handler must not run. */
bool fake_rl_admit(struct fake_server *s, struct fake_http_req *r, int cls,
                   const char *major);
int fake_fault_add(struct fake_server *s, const json_t *f, const char **err);
int fake_rl_configure(struct fake_server *s, const json_t *j,
                      const char **err);
json_t *fake_rl_json(const struct fake_server *s);       /* new */

/* ---- fake_control.c ---- */
void fake_control_handle(struct fake_server *s, struct fake_http_req *r);
void fake_state_reset(struct fake_server *s);

#endif
