/*
 * console.h - fray in a terminal: slash commands typed or read from a script.
 *
 * A console session plays one Discord channel (CONSOLE_CHANNEL_ID) for any
 * number of pretend users. Each input line is either a slash command, parsed
 * by cmd_parse_line() and run by cmd_exec() exactly as an interaction would
 * be, or a meta command:
 *
 *   :as NAME        act as NAME from now on (a stable fake user id is made
 *                   from the name, so the same name owns the same
 *                   combatants in every session on the same database)
 *   :gm on|off      the acting user has the GM's permissions, or not
 *   :help           the meta commands and every slash command
 *   :time [+DUR]    print the console's clock, or move it on by DUR (a
 *                   duration as /combat clock takes it), firing every turn
 *                   clock timer that falls due on the way, each at its time
 *   :restart [+DUR] close the database and open it again, as a restarted
 *                   fray would, after DUR of being down: timers that fell
 *                   due meanwhile fire now, late, with a note
 *   :quit           stop
 *
 * A reply that offers a picker (/attack with no target) prints its
 * choices numbered; a line that is only a number answers it through the
 * same command layer (console_pick.h).
 *
 * Replies are printed with render_text(). In script mode (console_script)
 * every line is echoed after "> " before its reply and a blank line follows
 * each reply; lines starting with '#' are copied through and blank lines are
 * skipped, so the output of a script is a readable transcript that can be
 * kept as a golden file.
 *
 * The console's clock is the real one plus an offset that only :time and
 * :restart move, so scripts test the turn clock in hours that take no time.
 *
 * Ownership: the store and the random generator are borrowed for the
 * console's life, until :restart, after which the console's own store is
 * ctx.store (the caller closes that one). The console owns nothing else on
 * the heap. Not thread-safe.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "console_form.h"
#include "console_pick.h"

#define CONSOLE_CHANNEL_ID 1        /* the one channel a console plays */
#define CONSOLE_MAX_USERS 32        /* distinct :as names in one session */
#define CONSOLE_MAX_USER_NAME 32    /* bytes of a :as name */
#define CONSOLE_ECHO_MAX 200        /* longer input lines are echoed cut */
#define CONSOLE_SHORTENED_MARK "\xe2\x9c\x82" /* "✂": Discord would shorten
                                           the message above */
#define CONSOLE_HISTORY_MAX 1000    /* lines kept in the history file */
/* Timers one :time or :restart fires at most: a bound on a clock bug's
 * output, far above what a script's fights set. */
#define CONSOLE_MAX_FIRES 1000

/* What became of one input line. */
enum console_status {
    CONSOLE_CONTINUE = 0,           /* go on (errors were printed) */
    CONSOLE_QUIT,                   /* :quit */
    CONSOLE_FATAL,                  /* out of memory or output failed */
};

struct console_user {
    char name[CONSOLE_MAX_USER_NAME + 1];
    uint64_t id;                    /* console_user_id(name) */
    bool gm;                        /* has the GM's permissions */
};

struct console {
    struct cmd_ctx ctx;             /* store and rng, borrowed */
    FILE *out;                      /* where replies go, borrowed */
    bool script;                    /* echo input lines (transcript) */
    struct console_user users[CONSOLE_MAX_USERS];
    int nusers;
    int current;                    /* index of the acting user */
    int64_t clock_offset_ms;        /* the fake clock: real time + this */
    const char *location;           /* the database, for :restart (borrowed);
                                       NULL or ":memory:": no restart */
    int refused;                    /* lines refused so far: commands,
                                       parse errors, console commands */
    console_ask_fn *ask;            /* a person answers forms field by
                                       field (console_form.h), or NULL: a
                                       command without its options is
                                       refused (scripts) */
    void *ask_ud;
    struct console_picker pick;     /* the last picker shown, answered
                                       by a line that is a number */
    enum i18n_lang lang;            /* --lang: the language of replies,
                                       private and public alike (the
                                       console has no server); English
                                       after console_init() */
};

/* The console's first screen at a terminal, in --lang (a catalog message;
 * a translation keeps the command lines as they are). Its command lines
 * are run by tests/unit/bot/test_doc_examples.c as the default user ("gm",
 * without the GM's permissions, as `fray run` opens it): each must be
 * accepted. */
#define CONSOLE_WELCOME                                                     \
    N_("fray console: you are \"gm\" in a pretend channel; try a fight:\n"   \
    "  /combat start system:generic\n"                                      \
    "  /combat add name:Goblin count:2 hp:7 stats:\"ac=13 init=2\"\n"        \
    "  /combat join name:Aria hp:24 stats:\"ac=15 init=3 attack=5\"\n"       \
    "  /combat begin\n"                                                     \
    "  /combat next\n"                                                      \
    "  /roll dice:\"1d20+5 adv\"\n"                                          \
    "/help lists every command, :help the console's own (:as NAME plays\n"   \
    "another user), :quit leaves.")

/* Set up a console acting as user_name (made GM when gm). Returns false
 * when user_name is not a valid name (empty, too long, control
 * characters); the console is then unusable. */
bool console_init(struct console *c, struct store *store,
                  struct eng_rng *rng, FILE *out, const char *user_name,
                  bool gm, bool script);

/* The fake user id for a name: a hash of its lower-case bytes, never 0,
 * below 2^63 like a Discord snowflake. */
uint64_t console_user_id(const char *name);

/* Handle one line (no newline) of len bytes, printing what it produced. */
enum console_status console_line(struct console *c, const char *line,
                                 size_t len);

/* Run every line of in (script mode). Returns CONSOLE_QUIT at :quit or the
 * end of input, CONSOLE_FATAL when a line could not be handled. Lines
 * longer than CMD_MAX_LINE are read to their end and refused. */
enum console_status console_script(struct console *c, FILE *in);

/* Prompt with line editing (libedit, dlopen()ed here; without it plain
 * lines) until :quit or end of input. History is read from and saved to
 * history_path when it is not NULL and libedit is there. */
enum console_status console_interactive(struct console *c,
                                        const char *history_path);

/* Would Discord get m shortened (a text over a limit cut, a Components
 * V2 message's rows folded)? The console marks such a reply with
 * CONSOLE_SHORTENED_MARK and a note. */
struct msg;
bool console_discord_shortens(const struct msg *m);

#endif
