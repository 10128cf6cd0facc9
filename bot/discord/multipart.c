/*
 * multipart.c - a message with attachments as multipart/form-data
 * (multipart.h).
 */
#include "multipart.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"

#define CRLF "\r\n"
/* Boundaries tried before giving up: each differs in its counter, so a
 * collision with every one of them would need a part built to match. */
#define MP_BOUNDARY_TRIES 64

bool mp_declare(json_t *message, const struct mp_file *files, size_t n)
{
    if (!json_is_object(message))
        return false;
    json_t *list = json_object_get(message, "attachments");
    if (list == NULL) {
        list = json_array();
        if (list == NULL || json_object_set_new(message, "attachments",
                                                list) != 0)
            return false;
    }
    for (size_t i = 0; i < n; i++) {
        /* A string: Discord's OpenAPI description types the id so, and
         * its docs take "0" as well as 0. */
        char id[24];
        snprintf(id, sizeof id, "%zu", i);
        json_t *a = json_pack("{s:s,s:s}", "id", id, "filename",
                              files[i].filename);
        if (a == NULL || json_array_append_new(list, a) != 0)
            return false;
    }
    return true;
}

static bool name_ok(const char *s)
{
    size_t n = s != NULL ? strlen(s) : 0;
    if (n == 0 || n > MP_MAX_FILENAME)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
            return false;
    }
    return true;
}

static bool type_ok(const char *s)
{
    size_t n = s != NULL ? strlen(s) : 0;
    if (n == 0 || n > 100)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

/* memmem() is a GNU extension (the build defines _GNU_SOURCE). */
static bool contains(const void *hay, size_t n, const char *needle)
{
    return memmem(hay, n, needle, strlen(needle)) != NULL;
}

/* A boundary found in no part, into b (MP_BOUNDARY_MAX + 1 bytes). */
static bool pick_boundary(const char *payload, const struct mp_file *files,
                          size_t n, char *b)
{
    uint64_t seed = fnv_add(FNV_BASIS, payload,
                        strlen(payload));
    for (size_t i = 0; i < n; i++)
        seed = fnv_add(seed, files[i].data, files[i].len);
    for (int t = 0; t < MP_BOUNDARY_TRIES; t++) {
        snprintf(b, MP_BOUNDARY_MAX + 1, "fray-%016" PRIx64 "-%d", seed, t);
        bool clash = contains(payload, strlen(payload), b);
        for (size_t i = 0; i < n && !clash; i++)
            clash = contains(files[i].data, files[i].len, b);
        if (!clash)
            return true;
    }
    return false;
}

enum bot_err mp_build(const char *payload_json, const struct mp_file *files,
                      size_t n, struct mp_body *out)
{
    char b[MP_BOUNDARY_MAX + 1];
    *out = (struct mp_body){0};
    if (n > MP_MAX_FILES)
        return BOT_LIMIT;
    for (size_t i = 0; i < n; i++)
        if (!name_ok(files[i].filename) || !type_ok(files[i].type) ||
            (files[i].data == NULL && files[i].len > 0))
            return BOT_LIMIT;
    if (!pick_boundary(payload_json, files, n, b))
        return BOT_LIMIT;
    /* Every header is short and bounded (a name, a type, a boundary);
     * the bodies are counted exactly. */
    size_t head = 512 + MP_MAX_FILENAME, total = strlen(payload_json) + head;
    for (size_t i = 0; i < n; i++) {
        if (files[i].len > SIZE_MAX / 2 - total - head)
            return BOT_LIMIT;
        total += files[i].len + head;
    }
    char *buf = malloc(total);
    if (buf == NULL)
        return BOT_NOMEM;
    size_t at = (size_t)snprintf(buf, total, "--%s" CRLF
                                 "Content-Disposition: form-data; "
                                 "name=\"payload_json\"" CRLF
                                 "Content-Type: application/json" CRLF CRLF,
                                 b);
    memcpy(buf + at, payload_json, strlen(payload_json));
    at += strlen(payload_json);
    for (size_t i = 0; i < n; i++) {
        at += (size_t)snprintf(buf + at, total - at, CRLF "--%s" CRLF
                               "Content-Disposition: form-data; "
                               "name=\"files[%zu]\"; filename=\"%s\"" CRLF
                               "Content-Type: %s" CRLF CRLF, b, i,
                               files[i].filename, files[i].type);
        if (files[i].len > 0)
            memcpy(buf + at, files[i].data, files[i].len);
        at += files[i].len;
    }
    at += (size_t)snprintf(buf + at, total - at, CRLF "--%s--" CRLF, b);
    out->data = buf;
    out->len = at;
    snprintf(out->content_type, sizeof out->content_type,
             "multipart/form-data; boundary=%s", b);
    return BOT_OK;
}

void mp_body_free(struct mp_body *b)
{
    free(b->data);
    *b = (struct mp_body){0};
}
