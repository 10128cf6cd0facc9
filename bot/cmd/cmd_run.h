/*
 * cmd_run.h - what a command handler gets (internal to bot/cmd_*.c);
 * cmd_run.c holds the helpers below, cmd.c the pipeline that calls them.
 *
 * cmd_exec() validates the request, opens a transaction, loads the channel's
 * encounter into a working copy and works out whether the sender is its GM;
 * then it calls the handler with a struct cmd_run. The handler either fails
 * (cmd_fail(), nothing is saved) or changes run->enc and sets run->changed,
 * and builds the reply. cmd_exec() then saves, commits, and only then
 * returns the reply.
 *
 * Ownership: everything in a cmd_run belongs to cmd_exec(); handlers borrow.
 * A handler that replaces run->enc (start, undo) frees the old one itself.
 */
#ifndef CMD_RUN_H
#define CMD_RUN_H

#include <stdbool.h>

#include "cmd.h"
#include "cmd_table.h"
#include "enc.h"
#include "enc_json.h"
#include "proposal.h"
#include "render_enc.h"
#include "rs.h"
#include "store.h"

/* An approved proposal run as the command it was (cmd_proposal.c): the
 * request rebuilt from the stored one, borrowing p's strings. */
struct cmd_again {
    struct cmd_req req;
    struct proposal p;
    char by[2 * PROPOSAL_NAME_MAX + 32];   /* "Ann, approved by Gwen" */
};

struct cmd_run {
    struct cmd_ctx *ctx;
    const struct cmd_req *req;
    const struct cmd_spec *spec; /* the command (points at view) */
    struct cmd_spec view;        /* ... as the fight's system has it */
    struct cmd_reply *reply;
    struct encounter *enc;       /* working copy; NULL: channel has none */
    struct enc_json_doc doc;     /* enc as saved, for the cache once
                                    committed (its text owned) */
    int64_t loaded;              /* its version as loaded; 0 = none */
    const struct rs_system *rs;  /* enc's ruleset, or NULL */
    bool is_gm;                  /* the sender may do everything */
    bool failed;                 /* cmd_fail() was called */
    bool changed;                /* save enc as a new version */
    bool ended;                  /* archive the encounter after saving */
    bool is_undo;                /* enc is a restored earlier state */
    struct enc_result *res;      /* events of this command (heap) */
    struct enc_diag diag;
    struct rs_arg ext[RS_MAX_EXT_OPTS]; /* options the fight's system adds
                                           to this core command, bound */
    int next;
    struct enc_wait wait0;       /* what the loaded fight waited for */
    int64_t timer0;              /* its clock's next due time; 0: none */
    char *change;                /* what this change did, for history, when
                                    the handler says it (undo); else the
                                    first event says it (heap) */
    bool change_secret;
    struct store_fold fold;      /* what saving its history line folded
                                    (store.h), for the notice */
    char *detail;                /* what the change showed everyone, in
                                    full, for recap and log (heap) */
    char *gm_detail;             /* ... and the GM, when hidden numbers
                                    made it differ (heap), or NULL */
    bool detail_kept;            /* detail and gm_detail are the reply's
                                    own texts (reply_events) */
    struct render_first first;   /* where detail drew the event the
                                    history line names ... */
    bool first_ok;               /* ... when detail reads as the GM's view
                                    does (nothing secret): record_change
                                    then draws nothing again */
    bool keep;                   /* commit although nothing was saved: a
                                    read-only command wrote bookkeeping
                                    (/combat recap's last-seen mark, a
                                    proposal) */
    uint32_t propose_for;        /* the handler tries the change on the
                                    working copy for this combatant
                                    (checked as the GM's would be), and
                                    cmd_finish() sends it to the GM as a
                                    proposal instead of saving; 0: no */
    bool lang_known;             /* public_lang is resolved (cmd_public_lang
                                    reads the store once a command) */
    enum i18n_lang public_lang;
    struct cmd_again *again;     /* an approved proposal being applied
                                    (heap), or NULL; run->req then points
                                    at its req */
};

/* Run req (an approved proposal's command) in run as if it had been
 * asked: validated, the fight's system's view of it, its handler. run->req
 * becomes req, which must outlive the run. False when it was refused
 * (run->failed, the reply says why). */
bool cmd_run_as(struct cmd_run *run, const struct cmd_req *req);

/* Whether who's hp and conditions are the sender's to change (as
 * cmd_may_act(), or, in a fight that trusts its players, any player for a
 * combatant they can see): yes; no
 * (refused, the reply says why); or the change may go to the GM as a
 * proposal (a player of this fight, a combatant they can see, proposals
 * on in this server). */
enum cmd_touch { CMD_TOUCH_YES, CMD_TOUCH_NO, CMD_TOUCH_PROPOSE };
enum cmd_touch cmd_touch_of(struct cmd_run *run,
                            const struct enc_combatant *who);

/* The combatant named by option opt when the sender may change it
 * (cmd_touch_of); when the change is to go to the GM as a proposal,
 * run->propose_for is set (the handler tries it, cmd_finish sends it).
 * NULL: refused, the reply says why. */
struct enc_combatant *cmd_combatant_to_change(struct cmd_run *run,
                                              const char *opt);

/* Send the command in run->req, about who, to the GM as a proposal
 * (cmd_proposal.c): stored, within the limits, with a private answer to
 * the sender and the GM's message (reply.notice) with Approve and Reject
 * buttons. Nothing of the fight is saved (the working copy, where the
 * handler tried the change, is dropped). */
void cmd_propose(struct cmd_run *run, const struct enc_combatant *who);

/* An answer to a proposal whose button names another channel, clicked
 * in the server's GM channel (/config gm-channel:, read from store):
 * *moved is req for that fight's channel, and true. False: req stands as
 * it is (a click elsewhere is then refused as not this fight's). */
bool cmd_proposal_route(struct store *store, const struct cmd_req *req,
                        struct cmd_req *moved);

/* Whether proposals are on in guild (/config proposals:), and when they
 * lapse (/config proposal-expiry:); without a server (the console) on,
 * lapsing with the turn. */
bool cmd_config_proposals(struct store *store, uint64_t guild);
enum proposal_expiry cmd_config_proposal_expiry(struct store *store,
                                                uint64_t guild);

/* Replace the reply with one error line (and a hint line when hint is
 * neither NULL nor empty): ephemeral, marked an error, nothing changed. */
void cmd_reply_error(struct cmd_reply *reply, const char *text,
                     const char *hint);

/* The channel's live encounter, read-only, or NULL (none, unreadable):
 * cmd_complete.c's reader, which cmd_form.c shares. *owned: the caller
 * frees it with enc_free(). */
struct encounter;
const struct encounter *cmd_enc_peek(struct cmd_ctx *ctx,
                                     const struct cmd_req *req, bool *owned);

/* The latest turn started among res's events, when it is a player's, is
 * current, and the fight's notices are on: its owner into
 * reply->turn_user, and for Discord (src) a mention in reply->msg, the
 * turn's Attack button (labelled in lang, the table's), and "<@id>, it is
 * your turn: ..." added to line; true when the line was written. Both
 * /combat next (cmd_finish) and a turn the clock starts (cmd_clock.c)
 * announce it so. */
struct sbuf;
bool cmd_turn_notice(struct cmd_reply *reply, const struct encounter *e,
                     const struct rs_system *rs, const struct enc_result *res,
                     enum cmd_source src, struct sbuf *line,
                     enum i18n_lang lang);

/* Refuse the command: an ephemeral error reply, nothing saved. */
void cmd_fail(struct cmd_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Refuse with the engine's diagnostic (message and hint). */
void cmd_fail_diag(struct cmd_run *run, const struct enc_diag *d);
/* Make run->diag's refusals speak the sender's language (enc_diag.tr). */
void cmd_diag_lang(struct cmd_run *run);

/* Fill a struct rs_call for the encounter ruleset from the run. The options
 * are the request's; opts must have room for CMD_MAX_OPTS. */
void cmd_rs_call(struct cmd_run *run, struct rs_call *c, struct rs_opt *opts);

/* The combatant named by option opt, or fail with a suggestion. A hidden
 * one the sender may not act for is not found (rs_who(), RS_WHO_ACT):
 * the same answer as for a name nobody has. */
struct enc_combatant *cmd_combatant(struct cmd_run *run, const char *opt);
/* The same for an attack's target, which may be a hidden one. */
struct enc_combatant *cmd_target(struct cmd_run *run, const char *opt);

/* Fail unless the sender may act for who (GM or its owner). */
bool cmd_may_act(struct cmd_run *run, const struct enc_combatant *who);


/* Change who's track by n (cmd_effects.c): op '-' is damage (met first
 * by what the system soaks), '+' healing up to the maximum (or filling a
 * harm track), '=' a set; with its event and the system's after_track.
 * /combat hp and Apply damage share it. False when it failed (run
 * failed); else the caller finishes the run. */
bool cmd_track_change(struct cmd_run *run, struct enc_combatant *who,
                      const char *track, char op, int64_t n);

/* Option helpers over the request; absent gives dflt. Fail on bad values. */
bool cmd_opt_int(struct cmd_run *run, const char *name, int64_t dflt,
                 int64_t *out);
bool cmd_opt_bool(struct cmd_run *run, const char *name, bool dflt,
                  bool *out);

/* A successful change: mark it for saving and build the reply from the
 * command's events (and the tracker when show_tracker). Sets the turn
 * notice when a turn started, and a GM copy when hidden numbers were left
 * out of the public reply. */
void cmd_finish(struct cmd_run *run, const char *title, bool show_tracker);

/* A command that changed nothing but has events to show (a read-only
 * ruleset command): the reply from the events, nothing saved. */
void cmd_show(struct cmd_run *run, const char *title);

/* Whether the sender of req is the GM of e (e may be NULL): the console's
 * --gm, Administrator or Manage Channels, or whoever started the fight.
 * member.permissions are the member's in this channel, so Manage Channels
 * granted on this channel alone makes a GM of this channel's fight: that
 * is all it may do (nothing server-wide, cmd_sender_manages_server). */
bool cmd_sender_is_gm(const struct cmd_req *req, const struct encounter *e);

/* Whether the sender of req may change server-wide settings (CMD_F_SERVER):
 * Administrator or Manage Server, which Discord grants only server-wide,
 * or the console's --gm. Manage Channels is not enough: member.permissions
 * holds the channel's overwrites, so it may be a grant on one room only. */
bool cmd_sender_manages_server(const struct cmd_req *req);

/* The live tracker message of e (cmd_tracker.c) at wall-clock now_ms: the
 * public tracker as a Components V2 container, a row's Attack button
 * where one applies, the running turn's row a Spend button when it has
 * resources (enc_res.h), and the controls that fit the fight's state, each
 * carrying e->version, its words in lang (the table's: the tracker is
 * public). Rows that do not fit Discord's limits fold into
 * "+N more: /combat status".
 * A new msg the caller frees (msg_cleanup + free); NULL on no memory. */
#define CMD_TRACKER_MORE "/combat status"
#define CMD_TRACKER_ATTACK_LABEL N_("Attack")
#define CMD_TRACKER_SPEND_LABEL N_("Spend")
struct msg *cmd_tracker_msg(const struct encounter *e,
                            const struct rs_system *rs, int64_t now_ms,
                            enum i18n_lang lang);

/* The fight ends: forget what /combat recap remembered of it
 * (cmd_recap.c), in the ending's transaction. */
enum bot_err cmd_recap_forget(struct cmd_run *run);

/* What change c showed a viewer (cmd_recap.c): the GM's text, the public
 * one, or for a line without either, its summary escaped ("a change only
 * the GM sees", in lang, when that is the GM's alone). The one choice
 * recap, log and the shared page (cmd_share.c) make. A new string, or NULL
 * with *nomem set. */
struct store_change_rec;
char *cmd_change_text(const struct store_change_rec *c, bool gm,
                      enum i18n_lang lang, bool *nomem);

/* Change c's stored line, escaped: as written (in the table's language
 * of its time), but a fold's summary, which the store writes in English,
 * in lang. A new string, or NULL when out of memory. */
char *cmd_change_line(const struct store_change_rec *c, enum i18n_lang lang);

/* The GM channel configured for guild (cmd_config.c), or 0 when none is
 * (or the store cannot say). */
uint64_t cmd_config_gm_channel(struct store *store, uint64_t guild);

/* A fight of rs started in the sender's server: when the server does not
 * play rs yet, add it to the server's systems and ask the front end to
 * register the server's commands again (cmd_reply.guild_commands). */
void cmd_config_system_used(struct cmd_run *run, const struct rs_system *rs);

/* How long after its end a fight may be reopened, in ms. */
int64_t cmd_reopen_ms(const struct cmd_ctx *ctx);

/* Refuse a new live fight in the sender's server when it has as many
 * running as the quota (cmd_ctx.max_live) allows: an error reply saying
 * so, and false. True in a DM, on the console, or under the quota. The
 * count is read in the command's transaction; on a shared database two
 * shards starting at once may pass it by one each. */
bool cmd_live_quota_ok(struct cmd_run *run);

/* Whether the sender may manage the server's NPC templates (cmd_npc.c):
 * Administrator, Manage Server (or the console's --gm), or the role set
 * with /config npc-role:. */
bool cmd_sender_manages_npcs(struct store *store, const struct cmd_req *req);
/* Whether the sender may read the server's NPC templates, and so use one
 * (/combat add template:, its autocomplete, the add form's select): those
 * who may /npc show them. To anyone else a template is not there: a
 * fight's GM without the rights reads "no NPC template named ...". */
bool cmd_sender_reads_npcs(struct store *store, const struct cmd_req *req);

/* When a fight ends (cmd_writeback.c): write each saved character's
 * tracks as the fight left them back to its sheet, keeping the sheet
 * before for the undo, with a sentence each in the reply. Off when the
 * server said so (/config writeback:false). False when the store failed:
 * the command has failed. */
bool cmd_writeback_end(struct cmd_run *run);
/* When run->enc, an ended fight, is reopened: put back the sheets its
 * end wrote. False when the store failed: the command has failed. */
bool cmd_writeback_undo(struct cmd_run *run);

/* Every ruleset id, as "generic, teams, ...", into buf (cut at a whole id
 * when too small). */
void cmd_system_ids(char *buf, size_t n);

/* The /help topics (cmd_help.c), for autocomplete: the prose pages,
 * "combat", then every ruleset id. Up to max into out; returns how many. */
size_t cmd_help_topics(const char **out, size_t max);

/* Handlers, one per table row (cmd_table.c lists them). */
cmd_handler_fn cmd_roll;
cmd_handler_fn cmd_help;
cmd_handler_fn cmd_combat_start;
cmd_handler_fn cmd_combat_add;
cmd_handler_fn cmd_combat_join;
cmd_handler_fn cmd_combat_remove;
cmd_handler_fn cmd_combat_set;
cmd_handler_fn cmd_combat_begin;
cmd_handler_fn cmd_combat_next;
cmd_handler_fn cmd_combat_pick;
cmd_handler_fn cmd_combat_pass;
cmd_handler_fn cmd_combat_hp;
cmd_handler_fn cmd_combat_condition;
cmd_handler_fn cmd_combat_resource;   /* cmd_resource.c */
cmd_handler_fn cmd_combat_countdown;  /* cmd_countdown.c */
cmd_handler_fn cmd_combat_event;      /* cmd_event.c */
cmd_handler_fn cmd_combat_status;
cmd_handler_fn cmd_combat_undo;
cmd_handler_fn cmd_combat_history;
cmd_handler_fn cmd_combat_recap;
cmd_handler_fn cmd_combat_share;      /* cmd_share.c */
cmd_handler_fn cmd_combat_log;
cmd_handler_fn cmd_combat_reopen;
cmd_handler_fn cmd_combat_end;
cmd_handler_fn cmd_combat_settings;
cmd_handler_fn cmd_combat_clock;
cmd_handler_fn cmd_combat_proposal;
cmd_handler_fn cmd_attack;
cmd_handler_fn cmd_rs_action;
cmd_handler_fn cmd_config;
cmd_handler_fn cmd_config_my_dialect;  /* /macro dialect, cmd_config.c */
cmd_handler_fn cmd_macro_save;     /* cmd_macro.c */
cmd_handler_fn cmd_macro_list;
cmd_handler_fn cmd_macro_show;
cmd_handler_fn cmd_macro_delete;
cmd_handler_fn cmd_character_create;
cmd_handler_fn cmd_character_set;
cmd_handler_fn cmd_character_rest;
cmd_handler_fn cmd_character_show;
cmd_handler_fn cmd_character_list;
cmd_handler_fn cmd_character_delete;
cmd_handler_fn cmd_character_use;
cmd_handler_fn cmd_npc_create;
cmd_handler_fn cmd_npc_save;
cmd_handler_fn cmd_npc_show;
cmd_handler_fn cmd_npc_list;
cmd_handler_fn cmd_npc_delete;
cmd_handler_fn cmd_reroll;         /* cmd_reroll.c: a posted roll's menus */
cmd_handler_fn cmd_explain;
cmd_handler_fn cmd_apply;

#endif
