/*
 * cmd_script.h - command matrices read from tests/data: "setup NAME ACTOR
 * LINE" lines build a fight one command at a time, and each cell of a
 * matrix starts again from its setup on a fresh in-memory store with the
 * same seed, then runs one console-syntax line through cmd_exec() as
 * Discord would send it (a server's channel, known permissions).
 *
 * Include after support.h. Ownership: a setup's lines point into the
 * caller's file text, which must outlive it; script_cell_prepare() opens a
 * store that script_cell_close() closes.
 */
#ifndef TEST_CMD_SCRIPT_H
#define TEST_CMD_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "cmd.h"
#include "cmd_parse.h"
#include "eng_rng.h"
#include "msg.h"

#define SCRIPT_MAX_SETUPS 64
#define SCRIPT_MAX_SETUP_LINES 24
#define SCRIPT_CHANNEL UINT64_C(77)
#define SCRIPT_GUILD UINT64_C(88)
#define SCRIPT_NOW_MS INT64_C(1700000000000)

/* The actors a setup names: gm starts the fight, p1 and p2 are players. */
enum { SCRIPT_GM = 1001, SCRIPT_P1 = 1002, SCRIPT_P2 = 1003,
       SCRIPT_ADMIN = 1005 /* Administrator: manages NPC templates */ };

struct script_setup {
    char name[32];
    int n;
    char actor[SCRIPT_MAX_SETUP_LINES][8];
    char *line[SCRIPT_MAX_SETUP_LINES];
};

struct script_setups {
    struct script_setup s[SCRIPT_MAX_SETUPS];
    int n;
};

struct script_cell {
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
};

/* Split line at tabs, in place, into at most max fields; the count. */
int script_split_tabs(char *line, char **f, int max);

/* Add the line of a "setup NAME ACTOR LINE" row (its four fields) to the
 * setup NAME, made when new. */
void script_setup_add(struct script_setups *ss, char *const *f);

/* The setup called name, or NULL. */
const struct script_setup *script_setup_find(const struct script_setups *ss,
                                             const char *name);

/* Parse a console line into p as user's, from Discord in SCRIPT_GUILD's
 * SCRIPT_CHANNEL with no special permissions; fails the test on a line
 * that does not parse. */
void script_req(struct cmd_parsed *p, const char *line, uint64_t user);

/* The user an actor's name (gm, p1, p2) stands for; fails the test on
 * another name. */
uint64_t script_actor(const char *name);

/* What a matrix does with the reply r to line, sent by user while a cell
 * is being prepared (or before a row); arg is the caller's. */
typedef void script_reply_fn(void *arg, const char *line, uint64_t user,
                             const struct cmd_reply *r);

/* Run line as user on c; fails the test when it is refused. Every reply is
 * handed to check first, when it is not NULL. */
void script_cell_step(struct script_cell *c, const char *line, uint64_t user,
                      script_reply_fn *check, void *arg);

/* A fresh store seeded with seed, and s run on it, each line as its
 * actor; fails the test when a line is refused. check, when not NULL,
 * reads each line's reply first (a matrix checks the setup this way). */
void script_cell_prepare(struct script_cell *c, const struct script_setup *s,
                         uint64_t seed);
void script_cell_prepare_checked(struct script_cell *c,
                                 const struct script_setup *s, uint64_t seed,
                                 script_reply_fn *check, void *arg);
void script_cell_close(struct script_cell *c);

/* m as plain text (as the console shows it) into out. */
void script_text(const struct msg *m, char *out, size_t cap);

#endif
