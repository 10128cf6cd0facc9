/*
 * snowflake.h - Discord ids (snowflakes) as decimal text.
 *
 * Ownership: arguments are borrowed. No state.
 */
#ifndef SNOWFLAKE_H
#define SNOWFLAKE_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal snowflake string -> uint64 (1..20 digits, no sign, no junk). */
bool snowflake_parse(const char *s, uint64_t *out);

#endif
