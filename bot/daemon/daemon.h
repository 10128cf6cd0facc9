/*
 * daemon.h - `fray run`: the long-running Discord bot.
 *
 * Wires the pieces together on one lws event loop: the store (opened
 * before anything connects), the REST thread (rest.h), the gateway (gw.h),
 * interactions (interaction.h -> cmd_exec() -> render_discord.h -> the
 * callback) with group commit (below), command registration (register.c) and systemd's notify
 * protocol (READY=1 once the database is open, WATCHDOG=1 from the loop,
 * STOPPING=1 on SIGTERM). On SIGTERM/SIGINT it stops taking interactions,
 * waits up to shutdown_grace_ms for in-flight replies, closes the gateway
 * resumably (so a restart resumes and the gateway replays what arrived
 * meanwhile) and closes the database. The signal flag in daemon.c is the
 * process's only global.
 *
 * Group commit: interactions that arrive together (everything the loop
 * reads before it would wait again, at most DAEMON_BATCH_MAX) run as one
 * group: one outer store transaction, each command in its own inner one
 * (a refused or failed command rolls back alone), one commit (one fsync)
 * for the group, and only then the replies. If that commit fails, every
 * command of the group is answered with the error and nothing of it was
 * applied. Decoded encounters stay in an enc_cache between commands.
 *
 * Ownership: everything daemon_run() creates it frees before returning.
 */
#ifndef DAEMON_H
#define DAEMON_H

#include "cfg.h"
#include "log.h"

/* Exit statuses of `fray run` (systemd/fray.service lists the fatal ones in
 * RestartPreventExitStatus=). A fatal gateway close code C exits with
 * DAEMON_EXIT_GW_BASE + (C - 4000): 4004 -> 14, 4010 -> 20 ... 4014 -> 24;
 * a REST 401 is the same failure as 4004 and exits 14 too. */
enum daemon_exit {
    DAEMON_EXIT_OK = 0,
    DAEMON_EXIT_FAIL = 1,        /* unexpected failure; systemd restarts */
    DAEMON_EXIT_NO_TOKEN = 2,    /* no token and no console to open */
    DAEMON_EXIT_CONFIG = 3,      /* bad config or token format */
    DAEMON_EXIT_STORE = 4,       /* database cannot be opened / locked */
    DAEMON_EXIT_GW_BASE = 10,
    DAEMON_EXIT_AUTH = 14,       /* 4004 or REST 401: wrong token */
};

#define DAEMON_TICK_MS 200           /* signal check, watchdog, shutdown */
#define DAEMON_GATEWAY_RETRY_MS 5000 /* GET /gateway/bot failed */
#define DAEMON_STOP_WAIT_MS 3000     /* gateway close after the grace */
#define DAEMON_RX_BUFFER 65536
/* An interaction older than this when its command is about to run (by its
 * snowflake's time) is acknowledged with a deferral first and answered by
 * editing @original: Discord allows 3 s for the first response. */
#define DAEMON_DEFER_AFTER_MS 1500
/* Discord takes the first response to an interaction only within 3 s of
 * its creation (the time in its snowflake id); a later callback gets 404
 * 10062 and the user has already been told "the application did not
 * respond". */
#define DAEMON_IX_WINDOW_MS 3000
/* How much of that window fray gives up for the two clocks disagreeing
 * (Discord's, which stamps the id, and this host's) and for the callback's
 * trip to Discord. An interaction older than DAEMON_IX_WINDOW_MS -
 * DAEMON_IX_CLOCK_MARGIN_MS on arrival is stale: not applied, not answered
 * (docs/internals/daemon.md, "Stale interactions"). An NTP-synced host is
 * within tens of milliseconds; a host clock more than about 2.5 s fast
 * would find every command stale, and fray says so in its log. */
#define DAEMON_IX_CLOCK_MARGIN_MS 500
#define DAEMON_IX_STALE_MS (DAEMON_IX_WINDOW_MS - DAEMON_IX_CLOCK_MARGIN_MS)
/* A channel that lost commands to staleness is told so once, and not again
 * for this long: one outage (a reconnect replays everything it held back
 * at once) gives one notice, not one per command. */
#define DAEMON_STALE_NOTICE_WINDOW_MS 60000
/* The notice (docs/commands.md shows it to users), in the table's
 * language: marked for the catalogs here, looked up where it is sent. */
#define DAEMON_STALE_NOTICE_TEXT                                              \
    N_("Commands sent while the bot was reconnecting were not applied. If "  \
       "you still want them, please send them again.")
/* Channels whose last notice time is kept; the oldest entry is reused. */
#define DAEMON_STALE_NOTICE_CHANNELS 64
/* Key prefix of the acknowledgement marks (daemon_reply.c): interaction id
 * -> how it was deferred. */
#define DAEMON_ACK_KEY_PREFIX "ix.ack:"
/* Marks are kept this long: a token is good for 15 minutes, so no replay
 * can be answered later; an hour to be safe. Pruned with the store's
 * upkeep ([store] prune_interval_s, daemon_prune.c). */
#define DAEMON_IX_KEEP_MS (60 * 60 * 1000)
/* Commands in one group commit. Bounds the time the first of them waits
 * for the others (a command is tens of microseconds) and the memory the
 * queue holds. */
#define DAEMON_BATCH_MAX 64
/* Under a steady stream lws may always have more input pending: a group
 * is run at the latest this long after its first interaction arrived. */
#define DAEMON_BATCH_WAIT_MS 20
/* A roll's record for its message's menus waits at most this long (and
 * a tick) for a write it can ride; then the waiting ones are written
 * together (cmd_rollq.h). What a crash can lose of them. */
#define DAEMON_ROLLQ_WAIT_MS 1000
/* Bytes of an answer written on the stack before it moves to the heap: a
 * roll or an attack fits. */
#define DAEMON_ANSWER_STACK 4096
/* Bytes lws reads from a socket in one go (its default is 4 KiB, two or
 * three interactions). */
#define DAEMON_READ_BUFFER 65536

/* Run until a signal or a fatal error; returns the exit status. token is
 * borrowed (and registered with the log for redaction by the caller). */
int daemon_run(const struct cfg *c, const char *token, struct log *lg);

/* Send one sd_notify datagram ("READY=1") to $NOTIFY_SOCKET, if set.
 * Returns false when there is no socket or sending failed. */
bool daemon_notify(const char *state);

#endif
