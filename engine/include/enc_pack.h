/*
 * enc_pack.h - an encounter packed into one block, for keeping in memory.
 *
 * struct encounter is the working form: its arrays are sized for the limits
 * (eng_limits.h), so an 8-combatant fight takes some 30 KB of which a tenth
 * is used. A packed encounter holds only what is used, back to back in one
 * block: the fixed fields, each string up to its end, the used entries of
 * every array, and the rulesets' typed state. It is what a cache keeps;
 * commands run on the working form enc_unpack() makes again.
 *
 * Pure engine code: no I/O, no globals. A packed block is meant for this
 * process only (it holds the ruleset's address and host byte order): it is
 * no file format; documents are the store's JSON.
 *
 * Ownership: enc_pack() returns a block the caller frees with
 * enc_pack_free(); enc_pack_to() writes into the caller's memory;
 * enc_unpack() returns an encounter the caller frees with enc_free(). All
 * borrow their arguments.
 */
#ifndef ENC_PACK_H
#define ENC_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "enc.h"

struct enc_pack;

/* e packed into a new block; NULL on no memory. */
struct enc_pack *enc_pack(const struct encounter *e);

/* Pack e into buf (cap bytes, aligned as malloc() aligns). Returns the
 * bytes the packed encounter takes: when that is more than cap, buf holds
 * nothing usable (buf may be NULL with cap 0, to count). A block that
 * fitted is a struct enc_pack of that many bytes. */
size_t enc_pack_to(const struct encounter *e, void *buf, size_t cap);

/* A working encounter equal to the one packed (as enc_clone() makes it:
 * the same fields, strings and used entries, typed state included); NULL
 * on no memory. */
struct encounter *enc_unpack(const struct enc_pack *p);

void enc_pack_free(struct enc_pack *p);       /* NULL is a no-op */

/* Bytes the block takes. */
size_t enc_pack_size(const struct enc_pack *p);

/* The packed encounter's version (struct encounter.version). */
int64_t enc_pack_version(const struct enc_pack *p);

#endif
