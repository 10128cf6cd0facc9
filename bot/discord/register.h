/*
 * register.h - slash command registration, generated from the command
 * declarations (cmd_table.h and each ruleset's rs.h declaration).
 *
 * register_build() turns them into Discord's bulk overwrite body: a
 * command per distinct name, with its subcommands (or its options when it
 * has none), option types, required flags, bounds (min/max_value for
 * integers, min/max_length for strings), choices, and autocomplete for
 * options whose values fray can suggest. Each global command declares
 * its contexts (0 servers, 1 the bot's DM, 2 other DMs and group DMs)
 * and integration_types: [0, 1] for those that also work where a user
 * installed fray for themselves (/roll, /macro, /character, /help:
 * CMD_CTX_USER), [0] for the rest (a fight needs the bot in the server). The global set holds the core
 * commands; a server's set holds the commands of the systems it plays
 * (cmd_config.h). Every name, description and choice also carries its
 * name_localizations / description_localizations in de, fr, es-ES, pt-BR
 * and pl from the catalogs (i18n.h, docs/internals/i18n.md); English
 * registers what it always did. The daemon hashes a body (FNV-1a 64,
 * hex) and only PUTs it when the hash differs from the one stored under
 * REGISTER_KV_HASH for that scope. Before building, it compares the set's
 * inputs (register_input_hash: this binary's build id, which covers the
 * catalogs embedded in it, the application, the flags and the systems)
 * with those stored under REGISTER_KV_INPUT when that scope was last
 * registered: a set whose inputs are unchanged is neither rebuilt nor PUT,
 * so a restart does not pay for building it.
 *
 * Ownership: register_build() returns a new json_t the caller decrefs.
 */
#ifndef REGISTER_H
#define REGISTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "i18n.h"
#include "rs.h"

#define REGISTER_KV_HASH "register.hash"   /* + ":global" or ":<guild>" */
#define REGISTER_KV_INPUT "register.input" /* + ":global" or ":<guild>" */
/* Hex digits of a build id (GNU build ids are 20 bytes; 64 allows any
 * up to 32) and its terminator. */
#define REGISTER_BUILD_ID_MAX 65
#define REGISTER_DESC_MAX 100
/* Discord's cap on an option's choices; longer lists autocomplete. */
#define REGISTER_CHOICES_MAX 25
/* Systems merged into one server's set at most. */
#define CMD_CONFIG_SYSTEMS_MAX 16

#define REGISTER_CORE  (1u << 0)  /* include the core commands */
#define REGISTER_GUILD (1u << 1)  /* a server's set: guild commands cannot
                                     be used in DMs, so none says so */

/* The PUT body: the core commands when flags has REGISTER_CORE, and the
 * commands of the n systems given (each verb once). NULL on no memory. */
json_t *register_build(const struct rs_system *const *systems, size_t n,
                       unsigned flags);

/* A Discord locale key and the language whose catalog fills it. */
struct register_locale {
    const char *key;             /* "de", "es-ES" */
    enum i18n_lang lang;
};
/* The languages registration localizes into: de, fr, es-ES, pt-BR, pl. */
const struct register_locale *register_locales(size_t *n);
/* register_build() with other locales: the tests register the
 * pseudo-language under a real key to see what would overflow. Every name,
 * description and choice the catalog of a locale's language translates
 * gets its name_localizations / description_localizations entry; one it
 * lacks shows the English (Discord's fallback). */
json_t *register_build_in(const struct rs_system *const *systems, size_t n,
                          unsigned flags, const struct register_locale *locs,
                          size_t nlocs);

/* FNV-1a 64 of text as 16 hex digits into out[17]. */
void register_hash(const char *text, char out[17]);

/* The running program's GNU build id (the linker's hash of its code and
 * data) as hex into out[REGISTER_BUILD_ID_MAX]; false when it has none,
 * and then a set cannot be known unchanged before it is built. */
bool register_build_id(char out[REGISTER_BUILD_ID_MAX]);

/* FNV-1a 64 of what a set is built from as 16 hex digits into out[17]:
 * the build id, the application id, the flags and the systems' ids in
 * order. The same inputs give the same body (register_build() reads only
 * the compiled-in declarations). */
void register_input_hash(const char *build_id, const char *app,
                         const struct rs_system *const *systems, size_t n,
                         unsigned flags, char out[17]);

#endif
