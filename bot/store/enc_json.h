/*
 * enc_json.h - an encounter as a JSON document, for the store.
 *
 * The document is the durable form of struct encounter: every field, with
 * combatants and conditions as arrays and ids rather than pointers. Loading
 * validates everything against the engine's limits, so a damaged or
 * hand-edited row can never put an out-of-range value into the engine; it is
 * refused with a message instead.
 *
 * Format version: the "v" member. Readers accept every version up to
 * ENC_JSON_VERSION; writers always write the newest. Version 2 stores a
 * ruleset's typed state as "st" objects of named fields (rs.h struct
 * rs_state_spec); a version 1 document's numbered "rs" slots are upgraded
 * into those fields when it is loaded, through each field's legacy slot.
 *
 * Ownership: enc_json_dump() returns a malloc'd string the caller frees.
 * enc_json_load() returns a new encounter the caller frees with enc_free().
 */
#ifndef ENC_JSON_H
#define ENC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "enc.h"
#include "eng_limits.h"

#define ENC_JSON_VERSION 2
/* Longest document written. The engine's limits bound an encounter's
 * document far below this (64 full combatants are well under 1 MB); it is
 * the writer's buffer ceiling, equal to the store's STORE_MAX_DOC. */
#define ENC_JSON_MAX_DOC (4u << 20)

/* Serialize e. NULL on no memory, or when a text field is not valid UTF-8
 * (the engine never stores such text; a document must stay loadable). */
char *enc_json_dump(const struct encounter *e);

/* A document with where each combatant's object lies in it, so that the
 * fight's next document copies the objects of the combatants a command
 * left alone (most commands change one or two) instead of writing them
 * again: writing them was a fifth of a command. */
struct enc_json_doc {
    char *text;                  /* owned; NULL: none */
    size_t len;
    int64_t version;             /* the encounter's, when written */
    int ncs;
    uint32_t at[ENC_MAX_COMBATANTS];   /* combatant i's object: text + at[i] */
    uint32_t n[ENC_MAX_COMBATANTS];    /* ... of n[i] bytes */
};

/* Free d's text; d is then empty. */
void enc_json_doc_free(struct enc_json_doc *d);

/* As enc_json_dump(), into out (emptied first): the same bytes. Combatant
 * i's object is copied from prev_doc when prev_doc was written from prev
 * (its version and combatants), prev has the same system, and its
 * combatant i is the same (enc_comb_same()). prev NULL: every object is
 * written. False (out empty) where enc_json_dump() gives NULL. */
bool enc_json_dump_doc(const struct encounter *e, const struct encounter *prev,
                       const struct enc_json_doc *prev_doc,
                       struct enc_json_doc *out);

/* Parse a document. On error returns BOT_INVALID (or BOT_NOMEM) with a
 * one-line reason in err, and *out untouched. */
enum bot_err enc_json_load(const char *doc, struct encounter **out, char *err,
                           size_t errlen);

#endif
