/*
 * cmd.h - the command layer shared by the console and Discord.
 *
 * A front end turns what the user did (a typed line, a slash command, a
 * button click) into a struct cmd_req and calls cmd_exec(). The layer looks
 * the command up in the one command table (cmd_table.c), checks options and
 * permissions once, loads the channel's encounter from the store, applies the
 * engine call, commits, and returns a struct cmd_reply whose msg the front
 * end renders (render_text.c, render_discord.c). The reply is only returned
 * after the new state is committed: a command that was answered is on disk.
 *
 * With a cache (enc_cache.h) the committed state of recently used channels
 * stays decoded: the handler works on a copy, and the cache takes the new
 * state after the commit. When the store is shared with other processes
 * the cached version is checked against the store first. A save that finds
 * the encounter moved on (BOT_CONFLICT) is rolled back and the command is
 * run again on fresh state, up to CMD_MAX_ATTEMPTS times.
 *
 * Transactions: cmd_exec() opens its own store_begin()/store_commit() pair.
 * Inside a caller's transaction (group commit) that pair is a savepoint:
 * the caller must then call enc_cache_clear() if its outer commit fails,
 * since the cache already holds the batch's uncommitted states.
 *
 * Ownership: a cmd_req borrows its strings from the caller for the call.
 * A cmd_reply owns everything in it; release with cmd_reply_cleanup().
 */
#ifndef CMD_H
#define CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "enc.h"
#include "i18n.h"
#include "msg.h"

struct store;
struct enc_cache;
struct enc_result;
struct eng_rng;
struct rs_data_set;
struct store_timer;
struct form;

#define CMD_MAX_OPTS 16          /* options in one invocation */
/* Roles of one member kept from an interaction (member.roles): Discord
 * lets a server have 250 roles at most, so a member never has more. */
#define CMD_MAX_ROLES 250
/* Choices of one multi-select picker past its first (which fills the
 * picker's option): Discord's 25 options of a select, less that one. */
#define CMD_MAX_PICKED 24
#define CMD_MAX_OPT_NAME 32      /* option name, bytes */
#define CMD_MAX_OPT_VALUE 1024   /* option value, bytes (names are far less) */
#define CMD_MAX_LINE 4096        /* one console line / raw command text */
/* Combatants one player may bring into a fight with /combat join: room
 * for a character and its companions, never enough for one player to fill
 * a fight (ENC_MAX_COMBATANTS) so the GM cannot add anyone. */
#define CMD_MAX_OWN_COMBATANTS 8
/* Tries of one command whose save found that another writer changed the
 * encounter (or recorded the interaction) since it was read: each try
 * reads the fresh state, so the other write is never lost. */
#define CMD_MAX_ATTEMPTS 3
/* Lines /combat history shows at most at once. */
#define CMD_HISTORY_MAX 50
/* How long after its end a fight may be reopened, unless configured. */
#define CMD_REOPEN_MS (60 * 60 * 1000)
/* The store key, with the channel's id after it, of the message that
 * shows a channel's tracker: discord/tracker.c writes it, the turn clock
 * links to that message. */
#define CMD_TRACKER_KV_PREFIX "tracker:"
/* Fights running at once in one server, unless configured ([fights]
 * max_live_per_server): a bound on what one server can make fray hold
 * live and keep versions of. */
#define CMD_MAX_LIVE_PER_SERVER 200
/* Saved characters one player may keep in one server, and NPC templates
 * one server may keep, unless configured ([sheets] max_characters_per_user,
 * max_templates_per_server): bounds on the rows one user or server can
 * make fray store. */
#define CMD_MAX_CHARS_PER_USER 50
#define CMD_MAX_TEMPLATES_PER_SERVER 500

/* Discord permission bits that matter to us (reference: discord-protocol). */
#define CMD_PERM_ADMINISTRATOR   (UINT64_C(1) << 3)
#define CMD_PERM_MANAGE_CHANNELS (UINT64_C(1) << 4)
#define CMD_PERM_MANAGE_GUILD    (UINT64_C(1) << 5)  /* "Manage Server" */
#define CMD_PERM_MANAGE_MESSAGES (UINT64_C(1) << 13)
#define CMD_PERM_CREATE_PUBLIC_THREADS (UINT64_C(1) << 35)
#define CMD_PERM_SEND_IN_THREADS (UINT64_C(1) << 38)
/* What fray needs to run a fight in a thread of its own. */
#define CMD_PERM_THREADS \
    (CMD_PERM_CREATE_PUBLIC_THREADS | CMD_PERM_SEND_IN_THREADS)
/* A fight's thread name, bytes: Discord's 100 characters at most, and
 * never less than a fight's name (ENC_MAX_ENC_NAME). */
#define CMD_THREAD_NAME_MAX 128

enum cmd_source { CMD_SRC_CONSOLE = 0, CMD_SRC_DISCORD };

struct cmd_opt {
    const char *name;            /* "name", "count", "stats"... */
    const char *value;           /* always text; booleans "true"/"false" */
};

/* Channels Discord resolved for the options (data.resolved.channels), at
 * most one per option. */
#define CMD_MAX_CHANNELS CMD_MAX_OPTS
/* Discord channel types fray posts the GM's copies in: text and
 * announcement channels (not voice, categories, forums or threads). */
#define CMD_CHANNEL_TEXT 0
#define CMD_CHANNEL_ANNOUNCEMENT 5

/* A channel as Discord resolved it for an option. */
struct cmd_channel {
    uint64_t id;
    uint64_t guild_id;           /* 0 when Discord did not say */
    int type;                    /* Discord's channel type */
};

/* The most a /combat log file holds, bytes (issue 33): past it the
 * oldest changes are left out and one line says how many and where to read
 * them, so a log costs the same however long the fight ran. Below what any
 * server lets a bot attach (10 MiB). */
#define CMD_LOG_CAP_BYTES (1u << 20)

/* The last /combat log made, kept by a front end between commands
 * (cmd_ctx.log_cache): the same fight at the same version, asked again
 * with the same view and room, gets the same file without reading and
 * writing the history again, so twenty logs of one fight cost one.
 * Made with cmd_log_cache_new(), freed with cmd_log_cache_free() (NULL is
 * a no-op); every field is cmd_recap.c's. */
struct cmd_log_cache;
struct cmd_reply;
struct cmd_rollq;
struct cmd_rollrec;
struct cmd_log_cache *cmd_log_cache_new(void);
void cmd_log_cache_free(struct cmd_log_cache *c);

/* A /combat log to write elsewhere (cmd_ctx.log_later): everything
 * cmd_log_write() needs, copied out of the fight when the command ran, so
 * another thread can write it from its own reading connection. A plain
 * value but for tally, which its holder owns: whoever copies a job to keep
 * takes tally and leaves NULL behind; cmd_log_job_clear() frees it. */
struct cmd_log_job {
    uint64_t channel, fight;
    int64_t version;             /* the file shows the fight at this one */
    bool gm;                     /* the GM's copy, hidden numbers included */
    size_t max;                  /* bytes the file may take */
    int64_t now_ms;              /* "written" in the title */
    enum i18n_lang lang;         /* the file's and its reply's words: the
                                    reader's for the GM's copy, else the
                                    table's */
    char name[ENC_MAX_ENC_NAME + 1];
    char ruleset[ENC_MAX_RS_ID + 1];
    char *tally;                 /* the file's last section, the fight's
                                    numbers at version as this view reads
                                    them (cmd_tally.h; heap, NUL-ended), or
                                    NULL: none */
};

/* Free job's tally (and forget it). */
void cmd_log_job_clear(struct cmd_log_job *job);

/* Write job's file from st (only read): *data (heap, the caller's) of
 * *len bytes and BOT_OK; else the refusal for the user in why (BOT_LIMIT:
 * too big for the file; others: could not be read). Any thread, one store
 * connection per thread. */
enum bot_err cmd_log_write(struct store *st, const struct cmd_log_job *job,
                           char **data, size_t *len, char *why,
                           size_t whylen);
/* The reply carrying job's file (data taken, len bytes), or the refusal
 * why when data is NULL; reply was made by cmd_reply_init(). */
void cmd_log_reply(const struct cmd_log_job *job, char *data, size_t len,
                   const char *why, struct cmd_reply *reply);
/* Keep a copy of job's file in c for the next log of the same state (no
 * memory, or c NULL: nothing kept). */
void cmd_log_cache_put(struct cmd_log_cache *c, const struct cmd_log_job *job,
                       const char *data, size_t len);

struct cmd_req {
    enum cmd_source source;
    const char *command;         /* "roll", "combat", "attack", "help"... */
    const char *sub;             /* subcommand ("add") or NULL */
    struct cmd_opt opts[CMD_MAX_OPTS];
    int nopts;

    uint64_t channel_id;         /* the encounter's key; console uses 1 */
    uint64_t parent_id;          /* sent in a thread: its parent channel;
                                    else 0 */
    uint64_t thread_id;          /* sent in a fight's own thread (the
                                    front end then keys it by the parent,
                                    channel_id); else 0 */
    uint64_t app_perms;          /* fray's own permissions in the channel
                                    (Discord's app_permissions) */
    bool app_perms_known;
    int64_t attach_limit;        /* bytes a file attached to the answer may
                                    have (Discord's attachment_size_limit),
                                    0 when not known */
    uint64_t guild_id;           /* 0 in a DM */
    uint64_t user_id;            /* who acts */
    const char *user_name;       /* display name, for messages */
    uint64_t perms;              /* Discord permission bits of the member */
    bool perms_known;            /* false in a DM or when malformed */
    bool force_gm;               /* console --gm: act as GM everywhere */
    bool user_install;           /* fray is installed here only by the
                                    user (Discord's USER_INSTALL, no bot in
                                    the server): only CMD_CTX_USER commands
                                    run, and nothing goes to a channel */
    struct cmd_channel channels[CMD_MAX_CHANNELS];  /* resolved (Discord) */
    int nchannels;
    uint64_t roles[CMD_MAX_ROLES];  /* the member's roles (Discord) */
    int nroles;                  /* -1: not known (malformed, or a DM) */

    const char *file;            /* an attached file's bytes, downloaded
                                    by the front end (Discord), or NULL:
                                    the console names a path instead */
    size_t file_len;

    const char *interaction_id;  /* applied at most once; NULL = no check */
    int64_t expect_version;      /* a button's version, or -1: stale check */
    uint64_t expect_fight;       /* with a version: the button's fight */
    bool picker;                 /* a picker's answer (custom_id.h): it
                                    must be expect_fight's, of any
                                    version; the command checks the
                                    choice against the current state */
    const char *picked[CMD_MAX_PICKED]; /* a multi-select picker's
                                    choices after the first, in order
                                    (borrowed): the targets of an area
                                    attack besides target: (cmd_picker.h) */
    int npicked;
    int64_t now_ms;              /* wall clock, for stored timestamps */
    bool forms;                  /* the front end shows forms: a form
                                    command given without its options
                                    answers with one (cmd_form.h) */
    int form_version;            /* a submitted form: the version its
                                    custom_id carries (-1: unreadable);
                                    0: not a form */
    /* Whose language (docs/internals/i18n.md). A private reply speaks
     * lang; a public one the server's: /config language: when set, else
     * guild_lang (cmd_public_lang()). Zero is English, so a front end that
     * knows no language sets nothing. */
    enum i18n_lang lang;         /* the reader's: Discord's locale, the
                                    console's --lang */
    enum i18n_lang guild_lang;   /* the server's: Discord's guild_locale */
    uint64_t target_message;     /* a message's context menu (Discord):
                                    the message it was used on; 0: none.
                                    Its roll, when fray posted one, is
                                    the option roll: (cmd_rollrec.h) */
};

/* What a front end that keeps a live tracker message per fight does with
 * cmd_reply.tracker (the daemon's tracker.c). */
enum cmd_tracker_mode {
    CMD_TRACKER_NONE = 0,        /* nothing to show */
    CMD_TRACKER_EDIT,            /* edit the shown tracker, if there is one */
    CMD_TRACKER_POST,            /* edit it, or post one (the fight runs) */
    CMD_TRACKER_FINAL,           /* the fight ended: a last edit, then unpin
                                    and forget the message */
};

/* A file that goes with a reply (/combat log): the console writes or
 * prints it, the daemon uploads it as the message's attachment. */
struct cmd_file {
    char *name;                  /* "Bridge-ambush-log.md" (heap) */
    char *data;                  /* its bytes (heap), NULL: no file */
    size_t len;
};

/* A Discord roll's record as the roll table keeps it (cmd_rollrec.h):
 * what /roll hands a front end that writes records later
 * (cmd_ctx.rollrec_later) and what the daemon's queue holds (cmd_rollq.h).
 * Small on purpose: the record's struct is kilobytes, its JSON a few
 * hundred bytes. */
struct cmd_rollrec_row {
    int64_t key;                 /* the table's (cmd_rollrec_table_key) */
    uint64_t channel;
    char *json;                  /* cmd_rollrec_encode's (heap, the
                                    holder's); NULL: no record */
};

struct cmd_reply {
    struct msg msg;              /* what to show */
    struct cmd_file file;        /* attached to msg, when data != NULL */
    bool ephemeral;              /* only the user who sent it sees it */
    bool is_error;               /* a refusal or bad input; nothing changed */
    bool changed;                /* the encounter changed (tracker update) */
    bool duplicate;              /* interaction already applied: no change */
    uint64_t channel_id;         /* the encounter that changed */
    int64_t version;             /* its version after the command, or -1 */
    uint64_t turn_user;          /* owner whose turn just started, or 0 */
    struct msg *gm_copy;         /* a copy for the GM channel, or NULL */
    uint64_t gm_channel;         /* the guild's GM channel (/config), or 0 */
    struct msg *notice;          /* a message of its own for notice_channel
                                    (a proposal for the GM, with its
                                    buttons; the answer to one), posted as
                                    it is, never folded; or NULL */
    uint64_t notice_channel;
    struct msg *tracker;         /* Discord: the fight's live tracker as it
                                    looks after this change (public view,
                                    with its buttons), or NULL */
    enum cmd_tracker_mode tracker_mode;
    bool guild_commands;         /* the server's systems changed: register
                                    its commands again (discord/register) */
    char thread_name[CMD_THREAD_NAME_MAX + 1]; /* non-empty: open a thread
                                    called so for the fight (/combat start
                                    thread:true) */
    bool cut;                    /* something did not fit where it was
                                    made (a message, the events): a bug
                                    that tests look for */
    bool clock_changed;          /* the fight's turn clock timer moved: a
                                    front end that arms timers re-arms */
    int64_t clock_due;           /* ... to this wall-clock time; 0: none */
    struct form *form;           /* a form to fill in instead of msg (heap,
                                    cmd_form.h), or NULL */
    bool log_later;              /* a /combat log to write elsewhere:
                                    log_job says which, msg is empty */
    struct cmd_log_job log_job;
    struct cmd_rollrec_row rollrec; /* a roll to remember (its json is
                                    the reply's; cmd_ctx.rollrec_later);
                                    json NULL: none */
    enum i18n_lang lang;         /* the reader's (req.lang, set by
                                    cmd_exec): an error reply is private,
                                    so cmd_reply_error's words speak it */
};

struct cmd_ctx {
    struct store *store;         /* where encounters live (borrowed) */
    struct eng_rng *rng;         /* every roll comes from here (borrowed) */
    const struct rs_data_set *rs_data; /* rulesets' data files, or NULL for
                                          the built-in tables (borrowed) */
    struct enc_cache *cache;     /* decoded encounters (borrowed), or NULL
                                    to decode every command's encounter */
    int64_t reopen_ms;           /* /combat reopen's window after the end;
                                    0: CMD_REOPEN_MS */
    int64_t max_live;            /* fights running at once per server;
                                    0: CMD_MAX_LIVE_PER_SERVER */
    int64_t max_macros_server;   /* server-wide saved rolls per server;
                                    0: CMD_MACRO_MAX_PER_SERVER */
    int64_t max_macros_user;     /* saved rolls of one user's own;
                                    0: CMD_MACRO_MAX_PER_USER */
    int64_t max_chars;           /* saved characters per player and server;
                                    0: CMD_MAX_CHARS_PER_USER */
    int64_t max_templates;       /* NPC templates per server;
                                    0: CMD_MAX_TEMPLATES_PER_SERVER */
    /* Where a channel's fight is shown when not in the channel itself:
     * its own thread (the daemon's fthread_of), or 0. NULL: always the
     * channel (the console). The turn clock links to the tracker there. */
    uint64_t (*shown_in)(struct store *s, uint64_t channel);
    struct cmd_log_cache *log_cache; /* the last /combat log (borrowed),
                                    or NULL: each log is made anew */
    bool rollrec_later;          /* a roll's record (cmd_rollrec.h) is not
                                    written here: the reply carries it
                                    (cmd_reply.rollrec, when its id is a
                                    snowflake) and the front end
                                    writes it after its group */
    const struct cmd_rollq *rollq; /* records the front end has not
                                    written yet (borrowed, cmd_rollq.h),
                                    read before the store's; or NULL */
    bool log_later;              /* a /combat log not in log_cache is not
                                    written here: the reply says which
                                    (cmd_reply.log_later) and the front
                                    end has it written (cmd_log_write) */
    const char *web_url;         /* the shared page's public address
                                    ([web] public_url, borrowed); NULL or
                                    "": /combat share says the page is
                                    off */
    struct enc_result *result;   /* what a command's events are recorded
                                    in, kept by the caller between
                                    commands (borrowed; NULL: each command
                                    allocates one). It is large
                                    (ENC_MAX_EVENTS events): allocating and
                                    freeing it per command cost more than
                                    many commands' own work. */
};
/* For code built against older trees too (bench/): cmd_ctx has .result. */
#define CMD_CTX_HAS_RESULT 1

void cmd_reply_init(struct cmd_reply *r);
void cmd_reply_cleanup(struct cmd_reply *r);

/* The refusal when memory ran out (marked for the catalogs; look it up in
 * the reader's language). */
#define CMD_NOMEM_TEXT N_("the bot ran out of memory; nothing was changed")

/* Turn r into the answer for a store failure err after the command ran
 * (a group's outer commit failed): nothing was saved, say so. */
void cmd_reply_fail_store(struct cmd_reply *r, enum bot_err err);

/* Run one command. Always fills *reply (an error reply when the command is
 * refused or malformed) and returns true; returns false only when the reply
 * itself could not be built (out of memory), with *reply cleaned up. */
bool cmd_exec(struct cmd_ctx *ctx, const struct cmd_req *req,
              struct cmd_reply *reply);

/* A timer that fires this long or more after it fell due says it was
 * late ("late by 3 h: fray was down"). */
#define CMD_CLOCK_LATE_MS (60 * 1000)

/* Fire the turn clock timer t (read from store_timer_due) at wall-clock
 * now_ms (cmd_clock.c), in one transaction: claim the row, apply what is
 * due of the fight's clock (the owner's reminder, the GM's notice, the
 * system's move-on with auto), save the fight with its history line and
 * its next timer, commit. *fired says whether this call did it: false
 * when another process claimed the row first or nothing was due. The
 * reply, for a fired timer: msg for the fight's channel (empty when it
 * has nothing to say there), gm_copy for the GM channel (gm_channel, or 0:
 * show it with the reply), the tracker for src CMD_SRC_DISCORD, and
 * clock_due, the next time to arm. Returns false when the store failed
 * (nothing was changed) or on no memory. */
bool cmd_clock_fire(struct cmd_ctx *ctx, const struct store_timer *t,
                    int64_t now_ms, enum cmd_source src,
                    struct cmd_reply *reply, bool *fired);

/* Look an option up by name; NULL if absent. */
const char *cmd_req_opt(const struct cmd_req *req, const char *name);

/* Autocomplete (cmd_complete.c): the choices for option `focused` of req,
 * as the select options of *out (label shown, value sent back), at most
 * MSG_MAX_SELECT, best matches first: exact, then prefix, then a word of
 * the choice starting with what was typed, then anywhere inside. Combatant
 * names are only those the user may see; for options naming the user's own
 * combatant, only those they may act for. Read-only: nothing is saved.
 * Returns false only when out of memory (out is then empty). */
bool cmd_complete(struct cmd_ctx *ctx, const struct cmd_req *req,
                  const char *focused, struct msg *out);

/* Whether Discord should ask cmd_complete() while the user types option o
 * (its registration's autocomplete flag): the kinds cmd_complete() fills,
 * except a choice list Discord shows by itself. */
struct rs_opt_spec;
bool cmd_complete_offers(const struct rs_opt_spec *o);

#endif
