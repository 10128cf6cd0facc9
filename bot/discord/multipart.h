/*
 * multipart.h - Discord file uploads: a message with attachments as one
 * multipart/form-data body (RFC 7578).
 *
 * Discord takes files on any message-creating or -editing route (channel
 * messages, interaction callbacks, webhooks and their edits) as a
 * multipart body: a part named "payload_json" holding the JSON the route
 * would otherwise get, then one part per file named "files[n]" with its
 * filename. The JSON declares each file in an "attachments" array,
 * {"id": n, "filename": ...}, where id is the n of its part
 * (docs: reference.mdx, "Uploading Files").
 *
 *     struct mp_file f = {"fight-log.md", "text/markdown", data, len};
 *     mp_declare(message_json, &f, 1);        // attachments: [{id 0, ...}]
 *     mp_build(payload_text, &f, 1, &body);   // then rest_submit_body()
 *     ...                                     // with body.content_type
 *     mp_body_free(&body);
 *
 * The boundary is chosen so that it occurs in no part (it is derived from
 * the content, so the same input always gives the same body: tests can
 * compare bytes).
 *
 * Ownership: inputs are borrowed; an mp_body owns its bytes until
 * mp_body_free().
 */
#ifndef MULTIPART_H
#define MULTIPART_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bot_err.h"

/* Files in one message: Discord's limit. */
#define MP_MAX_FILES 10
/* A file name in a part header, bytes (Discord keeps 1024; a name we make
 * is far shorter). Names with '"', '\\', CR, LF or other control bytes are
 * refused: they could break out of the header. */
#define MP_MAX_FILENAME 255
/* "multipart/form-data; boundary=" and a boundary (RFC 2046: at most 70). */
#define MP_BOUNDARY_MAX 70
#define MP_CTYPE_MAX 128

struct mp_file {
    const char *filename;      /* "Bridge-ambush-log.md" */
    const char *type;          /* its Content-Type, "text/markdown" */
    const void *data;
    size_t len;
};

struct mp_body {
    char *data;                /* the body (heap), len bytes */
    size_t len;
    char content_type[MP_CTYPE_MAX]; /* for the request's header */
};

/* Add {"id": i, "filename": files[i].filename} for each file to message's
 * "attachments" array (made when absent). message is the JSON object that
 * carries the message: the body itself, or a callback's "data". False on
 * no memory or a message that is not an object. */
bool mp_declare(json_t *message, const struct mp_file *files, size_t n);

/* The multipart body of payload_json (the request's JSON, as text) and
 * n files. BOT_LIMIT for more than MP_MAX_FILES files, or a bad file
 * name; BOT_NOMEM; else BOT_OK with *out filled. */
enum bot_err mp_build(const char *payload_json, const struct mp_file *files,
                      size_t n, struct mp_body *out);

void mp_body_free(struct mp_body *b);

#endif
