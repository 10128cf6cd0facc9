/*
 * xfer.c - the exchange format's envelope, its item checks, the console's
 * files (xfer.h).
 */
#include "xfer.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eng_policy.h"
#include "rs.h"

_Static_assert(XFER_MAX_PATH == RS_FILE_PATH_MAX,
               "the file option's limit is the path's");

static const char *const xfer_kinds[] = {
    [XFER_CHARACTERS] = "characters",
    [XFER_TEMPLATES] = "templates",
    [XFER_MACROS] = "macros",
    [XFER_CONDITIONS] = "conditions",
};
#define XFER_NKINDS (sizeof xfer_kinds / sizeof xfer_kinds[0])

const char *xfer_kind_name(enum xfer_kind k)
{
    return (unsigned)k < XFER_NKINDS ? xfer_kinds[k] : "?";
}

json_t *xfer_doc_new(enum xfer_kind k)
{
    /* jansson keeps insertion order: this is the order written */
    return json_pack("{s:s,s:i,s:s,s:[]}", "fray", XFER_MAGIC, "version",
                     XFER_VERSION, "kind", xfer_kind_name(k), "items");
}

char *xfer_dump(const json_t *doc, enum i18n_lang lang, char *err,
                size_t errlen)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t n;
    char *out;

    if (text == NULL) {
        snprintf(err, errlen, "%s", i18n_get(lang, "out of memory"));
        return NULL;
    }
    n = strlen(text);
    if (n + 1 > XFER_MAX_BYTES) {
        snprintf(err, errlen,
                 i18n_nget(lang, "the export is %zu byte, over the %d a "
                           "file may have", "the export is %zu bytes, over "
                           "the %d a file may have", n + 1),
                 n + 1, XFER_MAX_BYTES);
        free(text);
        return NULL;
    }
    out = realloc(text, n + 2);
    if (out == NULL) {
        free(text);
        snprintf(err, errlen, "%s", i18n_get(lang, "out of memory"));
        return NULL;
    }
    out[n] = '\n';
    out[n + 1] = '\0';
    return out;
}

static bool only_fields(const json_t *o, const char *const *allowed,
                        const char **bad)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        bool ok = false;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            *bad = key;
            return false;
        }
    }
    return true;
}

/* The text policy (eng_policy.h) over every key and text inside v, the
 * file's own field named field: NULL when all pass, else what is wrong,
 * with *field the innermost field that holds it. */
static const char *policy_walk(const json_t *v, const char **field)
{
    const char *why = NULL, *key;
    json_t *x;
    size_t i;
    if (json_is_string(v))
        return eng_policy_check(json_string_value(v), json_string_length(v));
    if (json_is_array(v)) {
        json_array_foreach(v, i, x)
            if ((why = policy_walk(x, field)) != NULL)
                return why;
    } else if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, x) {
            const char *inner = key;
            if ((why = eng_policy_check(key, strlen(key))) != NULL) {
                *field = "a field's name";     /* not echoed: it is bad */
                return why;
            }
            if ((why = policy_walk(x, &inner)) != NULL) {
                *field = inner;
                return why;
            }
        }
    }
    return NULL;
}

enum bot_err xfer_parse(const char *data, size_t len, enum xfer_kind want,
                        json_t **root, json_t **items, enum i18n_lang lang,
                        char *err, size_t errlen)
{
    static const char *const top[] = {"fray", "version", "kind", "items",
                                      NULL};
    json_error_t je;
    json_t *doc, *ver, *arr;
    const char *kind, *bad;

    *root = *items = NULL;
    if (len > XFER_MAX_BYTES) {
        snprintf(err, errlen,
                 i18n_nget(lang, "the file is %zu byte, over the %d fray "
                           "reads", "the file is %zu bytes, over the %d fray "
                           "reads", len),
                 len, XFER_MAX_BYTES);
        return BOT_LIMIT;
    }
    doc = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (doc == NULL) {
        /* what is wrong is jansson's words */
        snprintf(err, errlen,
                 i18n_get(lang, "the file is not JSON (line %d: %.80s)"),
                 je.line, je.text);
        return BOT_INVALID;
    }
    if (!json_is_object(doc) ||
        json_is_string(json_object_get(doc, "fray")) == 0 ||
        strcmp(json_string_value(json_object_get(doc, "fray")),
               XFER_MAGIC) != 0) {
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "the file is not a fray export (it has no "
                          "\"fray\": \"export\")"));
        goto bad;
    }
    ver = json_object_get(doc, "version");
    if (!json_is_integer(ver) || json_integer_value(ver) < 1) {
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "the file's `version` is not a version "
                          "number"));
        goto bad;
    }
    if (json_integer_value(ver) > XFER_VERSION) {
        snprintf(err, errlen,
                 i18n_get(lang, "the file was made by a newer fray (version "
                          "%lld; this one reads %d)"),
                 (long long)json_integer_value(ver), XFER_VERSION);
        goto bad;
    }
    if (!only_fields(doc, top, &bad)) {
        snprintf(err, errlen,
                 i18n_get(lang, "the file has a field fray does not know: "
                          "`%.40s`"),
                 bad);
        goto bad;
    }
    kind = json_string_value(json_object_get(doc, "kind"));
    if (kind == NULL || strcmp(kind, xfer_kind_name(want)) != 0) {
        bool known = false;
        for (size_t k = 0; kind && k < XFER_NKINDS; k++)
            known = known || strcmp(kind, xfer_kinds[k]) == 0;
        /* the kinds are the file's own words, as it spells them */
        if (known)
            snprintf(err, errlen,
                     i18n_get(lang, "the file holds %s, not %s"), kind,
                     xfer_kind_name(want));
        else
            snprintf(err, errlen,
                     i18n_get(lang, "the file holds something else, not "
                              "%s"),
                     xfer_kind_name(want));
        goto bad;
    }
    arr = json_object_get(doc, "items");
    if (!json_is_array(arr)) {
        snprintf(err, errlen, "%s",
                 i18n_get(lang, "the file's `items` is not a list"));
        goto bad;
    }
    if (json_array_size(arr) > XFER_MAX_ITEMS) {
        snprintf(err, errlen,
                 i18n_nget(lang, "the file has %zu item (limit is %d)",
                           "the file has %zu items (limit is %d)",
                           json_array_size(arr)),
                 json_array_size(arr), XFER_MAX_ITEMS);
        json_decref(doc);
        return BOT_LIMIT;
    }
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const char *field = "?";
        const char *why = policy_walk(json_array_get(arr, i), &field);
        if (why != NULL) {
            snprintf(err, errlen,
                     i18n_get(lang, "item %zu: `%.40s` contains %s; remove "
                              "it and import again"),
                     i + 1, field, why);
            goto bad;
        }
    }
    *root = doc;
    *items = json_incref(arr);
    return BOT_OK;
bad:
    json_decref(doc);
    return BOT_INVALID;
}

bool xfer_item_fields(const json_t *item, size_t i,
                      const char *const *allowed, enum i18n_lang lang,
                      char *err, size_t errlen)
{
    const char *bad;
    if (!json_is_object(item)) {
        snprintf(err, errlen, i18n_get(lang, "item %zu is not an object"),
                 i + 1);
        return false;
    }
    if (!only_fields(item, allowed, &bad)) {
        snprintf(err, errlen,
                 i18n_get(lang, "item %zu: field `%.40s` is not one fray "
                          "knows"),
                 i + 1, bad);
        return false;
    }
    return true;
}

const char *xfer_item_str(const json_t *item, size_t i, const char *field,
                          size_t max, enum i18n_lang lang, char *err,
                          size_t errlen)
{
    json_t *v = json_object_get(item, field);
    const char *s = json_string_value(v);

    if (v == NULL) {
        snprintf(err, errlen, i18n_get(lang, "item %zu: `%s` is missing"),
                 i + 1, field);
        return NULL;
    }
    if (s == NULL) {
        snprintf(err, errlen, i18n_get(lang, "item %zu: `%s` is not text"),
                 i + 1, field);
        return NULL;
    }
    if (*s == '\0') {
        snprintf(err, errlen, i18n_get(lang, "item %zu: `%s` is empty"),
                 i + 1, field);
        return NULL;
    }
    if (strlen(s) > max) {
        snprintf(err, errlen,
                 i18n_nget(lang, "item %zu: `%s` is too long (limit is %zu "
                           "byte)", "item %zu: `%s` is too long (limit is "
                           "%zu bytes)", max),
                 i + 1, field, max);
        return NULL;
    }
    if (strlen(s) != json_string_length(v)) {
        snprintf(err, errlen, i18n_get(lang, "item %zu: `%s` holds a NUL"),
                 i + 1, field);
        return NULL;
    }
    return s;
}

static bool path_ok(const char *path, enum i18n_lang lang, char *err,
                    size_t errlen)
{
    if (path == NULL || *path == '\0') {
        snprintf(err, errlen, "%s", i18n_get(lang, "no file named"));
        return false;
    }
    if (strlen(path) > XFER_MAX_PATH) {
        snprintf(err, errlen,
                 i18n_nget(lang, "the file's path is too long (limit is %d "
                           "byte)", "the file's path is too long (limit is "
                           "%d bytes)", XFER_MAX_PATH),
                 XFER_MAX_PATH);
        return false;
    }
    return true;
}

enum bot_err xfer_read_file(const char *path, char **out, size_t *len,
                            enum i18n_lang lang, char *err, size_t errlen)
{
    FILE *f;
    char *buf;
    size_t n;

    *out = NULL;
    *len = 0;
    if (!path_ok(path, lang, err, errlen))
        return BOT_INVALID;
    f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, i18n_get(lang, "cannot open %.200s: %s"), path,
                 strerror(errno));
        return BOT_INVALID;
    }
    /* one byte more than allowed tells "too big" from "just fits" */
    buf = malloc(XFER_MAX_BYTES + 2);
    if (buf == NULL) {
        fclose(f);
        snprintf(err, errlen, "%s", i18n_get(lang, "out of memory"));
        return BOT_NOMEM;
    }
    n = fread(buf, 1, XFER_MAX_BYTES + 1, f);
    if (ferror(f)) {
        snprintf(err, errlen, i18n_get(lang, "cannot read %.200s: %s"), path,
                 strerror(errno));
        fclose(f);
        free(buf);
        return BOT_INVALID;
    }
    fclose(f);
    if (n > XFER_MAX_BYTES) {
        snprintf(err, errlen,
                 i18n_nget(lang, "%.200s is bigger than the %d byte fray "
                           "reads", "%.200s is bigger than the %d bytes fray "
                           "reads", XFER_MAX_BYTES),
                 path, XFER_MAX_BYTES);
        free(buf);
        return BOT_LIMIT;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return BOT_OK;
}

enum bot_err xfer_write_file(const char *path, const char *text,
                             enum i18n_lang lang, char *err, size_t errlen)
{
    char tmp[XFER_MAX_PATH + 16];
    size_t n = strlen(text);
    FILE *f;

    if (!path_ok(path, lang, err, errlen))
        return BOT_INVALID;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* A player's sheets, a server's templates: for the owner only,
     * whatever the umask, and also over a leftover temporary file. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
                  XFER_FILE_MODE);
    f = fd >= 0 && fchmod(fd, XFER_FILE_MODE) == 0 ? fdopen(fd, "wb") : NULL;
    if (f == NULL) {
        if (fd >= 0)
            close(fd);
        snprintf(err, errlen, i18n_get(lang, "cannot write %.200s: %s"),
                 path, strerror(errno));
        return BOT_IO;
    }
    if (fwrite(text, 1, n, f) != n || fflush(f) != 0 || fsync(fileno(f))) {
        snprintf(err, errlen, i18n_get(lang, "cannot write %.200s: %s"),
                 path, strerror(errno));
        fclose(f);
        unlink(tmp);
        return BOT_IO;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, i18n_get(lang, "cannot write %.200s: %s"),
                 path, strerror(errno));
        unlink(tmp);
        return BOT_IO;
    }
    return BOT_OK;
}
