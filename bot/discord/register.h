/*
 * register.h - slash command registration, generated from cmd_table().
 *
 * register_build() turns the one command table into Discord's bulk
 * overwrite body: a command per distinct cmd_spec.command, with its rows'
 * subcommands (or its options when it has no subcommands), option types,
 * required flags, bounds (min/max_value for integers, min/max_length for
 * strings) and autocomplete for options with a completion kind. The daemon
 * hashes the body (FNV-1a 64, hex) and only PUTs it when the hash differs
 * from the one stored under REGISTER_KV_HASH for that scope.
 *
 * Ownership: register_build() returns a new json_t the caller decrefs.
 */
#ifndef REGISTER_H
#define REGISTER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define REGISTER_KV_HASH "register.hash"   /* + ":global" or ":<guild>" */
#define REGISTER_DESC_MAX 100

/* The PUT body for every command in cmd_table(); NULL on no memory. */
json_t *register_build(void);

/* FNV-1a 64 of text as 16 hex digits into out[17]. */
void register_hash(const char *text, char out[17]);

#endif
