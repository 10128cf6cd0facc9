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
    char text[CMD_FX_TEXT];  /* the last reply, as the console prints it */
};

/* cmocka setup/teardown: a fixture seeded with 42, no forced GM. */
int cmd_fx_setup(void **state);
int cmd_fx_teardown(void **state);

/* Run "command sub" in channel 1 as user, from the console, with
 * name/value option pairs ended by NULL. Returns true when accepted (not
 * an error reply); f->reply and f->text hold the answer. */
bool cmd_fx_run(struct cmd_fx *f, uint64_t user, const char *command,
                const char *sub, ...);

/* Fail the test unless the last reply contains needle. */
void cmd_fx_has(const struct cmd_fx *f, const char *needle);

#endif
