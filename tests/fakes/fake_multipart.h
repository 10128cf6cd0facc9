/*
 * fake_multipart.h - the fake Discord's multipart/form-data parser (RFC
 * 7578, as Discord takes file uploads: a "payload_json" part and
 * "files[n]" parts).
 *
 * A real parser with limits: the boundary from the Content-Type, parts
 * split at CRLF "--boundary", each part's headers (Content-Disposition
 * with name and filename, Content-Type), the closing "--boundary--".
 * Anything malformed is refused with a short reason, never guessed at.
 * It has no lws dependency, so unit tests link it alone.
 *
 * Ownership: parts point into the body given to fake_mp_parse(), which
 * must outlive them.
 */
#ifndef FAKE_MULTIPART_H
#define FAKE_MULTIPART_H

#include <stdbool.h>
#include <stddef.h>

#define FAKE_MP_MAX_PARTS 11       /* payload_json and Discord's 10 files */
#define FAKE_MP_MAX_HEADERS 8      /* header lines of one part */
#define FAKE_MP_MAX_LINE 1024      /* bytes of one header line */
#define FAKE_MP_MAX_BOUNDARY 70    /* RFC 2046 */
#define FAKE_MP_MAX_NAME 128       /* a part's name */
#define FAKE_MP_MAX_FILENAME 1024  /* a file's name */
#define FAKE_MP_MAX_TYPE 128       /* a part's Content-Type */

struct fake_mp_part {
    char name[FAKE_MP_MAX_NAME + 1];          /* "payload_json", "files[0]" */
    char filename[FAKE_MP_MAX_FILENAME + 1];  /* "" when none */
    char type[FAKE_MP_MAX_TYPE + 1];          /* "" when none */
    const char *data;                         /* into the body */
    size_t len;
};

struct fake_mp {
    struct fake_mp_part parts[FAKE_MP_MAX_PARTS];
    int nparts;
};

/* Whether ctype is multipart/form-data (any parameters). */
bool fake_mp_is(const char *ctype);

/* Parse body (len bytes) sent with Content-Type ctype into *out. Returns
 * NULL when it is well formed, else a static reason ("no boundary",
 * "too many parts", "part without a name"...). */
const char *fake_mp_parse(const char *ctype, const char *body, size_t len,
                          struct fake_mp *out);

/* The part named name, or NULL. */
const struct fake_mp_part *fake_mp_find(const struct fake_mp *m,
                                        const char *name);

#endif
