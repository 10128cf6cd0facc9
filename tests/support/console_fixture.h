/*
 * console_fixture.h - a console (bot/cli/console.h) over an in-memory
 * store, its output kept in memory, for tests that type lines and read
 * what each printed. Include after support.h.
 *
 * Ownership: console_fx_open() opens the store and the output stream;
 * console_fx_close() closes both.
 */
#ifndef TEST_CONSOLE_FIXTURE_H
#define TEST_CONSOLE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "console.h"
#include "eng_rng.h"
#include "i18n.h"
#include "store.h"

struct console_fx {
    struct store *store;
    struct eng_rng rng;
    struct console con;
    char *buf;
    size_t len;
    FILE *out;
};

/* A console acting as "gm" with the GM's permissions, rolls seeded with
 * seed, answering in lang (as `fray console --lang`). */
void console_fx_open(struct console_fx *s, uint64_t seed,
                     enum i18n_lang lang);

void console_fx_close(struct console_fx *s);

/* Type line; what it printed (valid until the next call). The line must
 * leave the console running (CONSOLE_CONTINUE). */
const char *console_fx_say(struct console_fx *s, const char *line);

#endif
