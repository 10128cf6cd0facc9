/*
 * xfer.h - the exchange format: the JSON file /character, /npc and /macro
 * export write and import read (docs/export-format.md).
 *
 *     {"fray": "export", "version": 1, "kind": "macros", "items": [...]}
 *
 * This module owns the envelope and the checks every item shares; what an
 * item holds is checked by the code that owns it (the sheet codec for
 * characters and templates, the macro rules for saved rolls). Writing is
 * deterministic - keys in a fixed order, two-space indent, one final
 * newline - so that an export, imported and exported again, is the same
 * bytes. Reading is strict: an unknown field, a wrong type, a value past
 * its limit or a newer version is refused with a message naming the item
 * and the field, and nothing is changed (the caller checks every item
 * before it writes any).
 *
 * Files: in the console the file is a path (xfer_read_file,
 * xfer_write_file), bounded by XFER_MAX_PATH and XFER_MAX_BYTES; on
 * Discord the daemon downloads the attachment (attach.h) and the command
 * gets the bytes in req.file.
 *
 * Ownership: json_t results are new references the caller json_decref()s;
 * char * results are malloc'd, the caller frees them.
 */
#ifndef XFER_H
#define XFER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot_err.h"
#include "i18n.h"

#define XFER_VERSION 1
#define XFER_MAGIC "export"          /* the value of "fray" */
/* The largest file read or written: Discord's downloads stop there too
 * (ATT_MAX_BYTES, checked equal in attach.c). */
#define XFER_MAX_BYTES (256 * 1024)
/* Items in one file: the largest quota (500 templates or macros per
 * server). */
#define XFER_MAX_ITEMS 500
/* A console path, in bytes (RS_FILE_PATH_MAX, the option's limit). */
#define XFER_MAX_PATH 255
/* A console export's mode: the owner's alone (it holds sheets, templates
 * and their notes). */
#define XFER_FILE_MODE 0600
/* Room for any message of this module. */
#define XFER_ERR_MAX 320

enum xfer_kind {
    XFER_CHARACTERS = 0,
    XFER_TEMPLATES,
    XFER_MACROS,
    XFER_CONDITIONS,         /* a server's own conditions (cmd_srvcond.c) */
};

/* "characters", "templates", "macros", "conditions". */
const char *xfer_kind_name(enum xfer_kind k);

/* A new document of kind k with an empty "items" array; add items with
 * json_array_append_new(json_object_get(doc, "items"), item). */
json_t *xfer_doc_new(enum xfer_kind k);

/* doc as the file's text (fixed key order, indent 2, final newline), or
 * NULL when out of memory or over XFER_MAX_BYTES (err says which). */
char *xfer_dump(const json_t *doc, enum i18n_lang lang, char *err,
                size_t errlen);

/* Parse a file of kind want: its items array on success (a new reference
 * to the array; *root keeps the document alive and is the caller's to
 * decref). BOT_INVALID or BOT_LIMIT with err for the user otherwise:
 * "the file is not JSON (line 3: ...)", "the file holds templates, not
 * characters", "made by a newer fray (version 2; this one reads 1)". */
enum bot_err xfer_parse(const char *data, size_t len, enum xfer_kind want,
                        json_t **root, json_t **items, enum i18n_lang lang,
                        char *err, size_t errlen);

/* Item i (0-based, shown 1-based) may have only the fields in allowed
 * (NULL-terminated): false with err naming the first other one. */
bool xfer_item_fields(const json_t *item, size_t i,
                      const char *const *allowed, enum i18n_lang lang,
                      char *err, size_t errlen);

/* The string field of item i, 1..max bytes (required), else NULL with
 * err: "item 2: `name` is missing", "... is not text", "... is too long
 * (limit is 32 bytes)". */
const char *xfer_item_str(const json_t *item, size_t i, const char *field,
                          size_t max, enum i18n_lang lang, char *err,
                          size_t errlen);

/* The console's file: read path whole into *out (malloc'd, NUL-terminated,
 * *len bytes). BOT_INVALID with err when the path is empty or too long,
 * the file is missing or unreadable, or bigger than XFER_MAX_BYTES. */
enum bot_err xfer_read_file(const char *path, char **out, size_t *len,
                            enum i18n_lang lang, char *err, size_t errlen);

/* Write text to path, replacing it (through a temporary file renamed in
 * place, so a failed write leaves the old one), mode XFER_FILE_MODE.
 * BOT_IO with err. */
enum bot_err xfer_write_file(const char *path, const char *text,
                             enum i18n_lang lang, char *err, size_t errlen);

#endif
