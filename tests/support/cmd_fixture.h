/*
 * cmd_fixture.h - the command layer's test fixture: a real in-memory
 * store, a seeded RNG and cmd_exec(), with each reply kept as the console
 * prints it. Include after support.h.
 *
 * Ownership: cmd_fx_setup() allocates the fixture (*state) and
 * cmd_fx_teardown() frees it and its store.
 */
#ifndef TEST_CMD_FIXTURE_H
#define TEST_CMD_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "eng_rng.h"

#define CMD_FX_TEXT 16384

struct cmd_fx {
    struct store *store;
    struct eng_rng rng;
    struct cmd_ctx ctx;
    struct cmd_reply reply;
    uint64_t gm;             /* a user who is the GM everywhere (console
                                --gm), or 0 */
    int64_t now_ms;          /* the clock: a second passes per command */
    enum cmd_source source;  /* where commands come from (console: 0) */
    uint64_t guild;          /* Discord: the server, or 0 for a DM */
    uint64_t manager;        /* a user with Manage Server there, or 0 */
    uint64_t role_user;      /* a user who has role there, or 0 */
    uint64_t role;
    /* The next command is a button press of this fight at this version
     * (cleared once run). */
    bool press;
    uint64_t press_fight;
    int64_t press_version;
    /* The next command comes from a front end that shows forms (forms),
     * or is a submitted form of this version on this fight (cleared once
     * run; cmd_form.h). */
    bool forms;
    int form_version;
    uint64_t form_fight;
    /* The next command's attached file (an import on Discord), borrowed;
     * cleared once run. */
    const char *file;
    enum i18n_lang lang;     /* the reader's language (Discord's locale) */
    enum i18n_lang guild_lang; /* the server's (guild_locale) */
    char text[CMD_FX_TEXT];  /* the last reply, as the console prints it */
    char gm_text[CMD_FX_TEXT]; /* the GM's copy of it, or "" */
};

/* cmocka setup/teardown: a fixture seeded with 42, no forced GM. */
int cmd_fx_setup(void **state);
/* The same, its commands coming from Discord in a server (CMD_FX_GUILD). */
#define CMD_FX_GUILD 9000
int cmd_fx_setup_discord(void **state);
int cmd_fx_teardown(void **state);

/* Run "command sub" in channel 1 as user, from f->source, with
 * name/value option pairs ended by NULL. Returns true when accepted (not
 * an error reply); f->reply and f->text hold the answer. */
bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...);

/* A generic fight in channel 1, begun: the GM's Goblin (7 hp, ac 13) and
 * hidden Shade (9 hp), Aria (alice's, 20 hp, ac 15) and Bryn (bob's, 18
 * hp, ac 12); Aria acts first, then Bryn, the Goblin and the Shade. */
void cmd_fx_generic_fight(struct cmd_fx *f, uint64_t gm, uint64_t alice,
                          uint64_t bob);

/* A generic fight in channel 1 whose history grows fast, begun: the
 * GM's two hidden Orcs (1,000,000 hp, ac 2) and Hero; each
 * cmd_fx_siege_attack() is Hero's attack with a long exploding damage
 * expression on Orc 1 (odd i) or Orc 2 (even i), kilobytes of history. */
void cmd_fx_siege(struct cmd_fx *f, uint64_t gm);
void cmd_fx_siege_attack(struct cmd_fx *f, uint64_t gm, int i);
/* Fail the test unless the last reply contains needle. */
void cmd_fx_has(const struct cmd_fx *f, const char *needle);

/* The fight id of channel 1's live fight in store (its buttons carry
 * it). */
uint64_t cmd_fx_fight(struct store *store);

/* The button of the last reply labelled label, or NULL. */
const struct msg_button *cmd_fx_button(const struct cmd_fx *f,
                                       const char *label);

/* The values autocomplete offers for option focused (typed so far), as
 * "a,b,c" in f->text (returned), for user in channel 1; other (NULL: none)
 * is a second option already given, such as attacker:. */
const char *cmd_fx_complete(struct cmd_fx *f, uint64_t user,
                            const char *command, const char *sub,
                            const char *focused, const char *typed,
                            const char *other, const char *other_value);

#endif
