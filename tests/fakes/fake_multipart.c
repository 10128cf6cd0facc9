/*
 * fake_multipart.c - multipart/form-data, parsed strictly
 * (fake_multipart.h).
 */
#include "fake_multipart.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

bool fake_mp_is(const char *ctype)
{
    size_t n = strlen("multipart/form-data");
    return strncasecmp(ctype, "multipart/form-data", n) == 0 &&
           (ctype[n] == '\0' || ctype[n] == ';' || ctype[n] == ' ');
}

static const char *find(const char *hay, size_t n, const char *needle,
                        size_t k)
{
    return memmem(hay, n, needle, k);   /* _GNU_SOURCE: the build's */
}

/* The value of parameter key in a header's parameters ("; a=1; b="x""),
 * into out; false when absent, too long or badly quoted. */
static bool param(const char *params, const char *key, char *out,
                  size_t cap)
{
    size_t kl = strlen(key);
    const char *p = params;
    while ((p = strchr(p, ';')) != NULL) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, key, kl) != 0 || p[kl] != '=')
            continue;
        p += kl + 1;
        size_t n;
        if (*p == '"') {
            const char *end = strchr(++p, '"');
            if (end == NULL)
                return false;
            n = (size_t)(end - p);
        } else {
            n = strcspn(p, "; \t");
        }
        if (n == 0 || n >= cap)
            return false;
        memcpy(out, p, n);
        out[n] = '\0';
        return true;
    }
    return false;
}

/* One header line of a part (without its CRLF). */
static const char *part_header(struct fake_mp_part *pt, const char *line,
                               size_t n)
{
    char buf[FAKE_MP_MAX_LINE + 1];
    if (n > FAKE_MP_MAX_LINE)
        return "header line too long";
    memcpy(buf, line, n);
    buf[n] = '\0';
    if (memchr(line, '\0', n) != NULL)
        return "NUL in a header";
    char *colon = strchr(buf, ':');
    if (colon == NULL)
        return "header without a colon";
    *colon = '\0';
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    if (strcasecmp(buf, "Content-Disposition") == 0) {
        if (strncasecmp(v, "form-data", 9) != 0 ||
            (v[9] != '\0' && v[9] != ';'))
            return "Content-Disposition is not form-data";
        if (!param(v, "name", pt->name, sizeof pt->name))
            return "part without a name";
        if (strstr(v, "filename=") != NULL &&
            !param(v, "filename", pt->filename, sizeof pt->filename))
            return "bad filename";
    } else if (strcasecmp(buf, "Content-Type") == 0) {
        if (strlen(v) == 0 || strlen(v) > FAKE_MP_MAX_TYPE)
            return "bad part Content-Type";
        snprintf(pt->type, sizeof pt->type, "%s", v);
    }
    return NULL;
}

const char *fake_mp_parse(const char *ctype, const char *body, size_t len,
                          struct fake_mp *out)
{
    char b[FAKE_MP_MAX_BOUNDARY + 1], delim[FAKE_MP_MAX_BOUNDARY + 5];
    memset(out, 0, sizeof *out);
    if (!fake_mp_is(ctype))
        return "not multipart/form-data";
    if (!param(ctype, "boundary", b, sizeof b))
        return "no boundary (or one over 70 bytes)";
    /* "\r\n--boundary": every delimiter but the first starts a line */
    int dl = snprintf(delim, sizeof delim, "\r\n--%s", b);
    const char *end = body + len;
    const char *p;
    if (len >= (size_t)dl - 2 && memcmp(body, delim + 2, (size_t)dl - 2) == 0)
        p = body + dl - 2;
    else if ((p = find(body, len, delim, (size_t)dl)) != NULL)
        p += dl;                                /* after a preamble */
    else
        return "no opening boundary";
    for (;;) {
        if (end - p >= 2 && p[0] == '-' && p[1] == '-')
            return out->nparts > 0 ? NULL : "no parts";
        if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
            return "boundary not followed by CRLF";
        p += 2;
        if (out->nparts == FAKE_MP_MAX_PARTS)
            return "too many parts";
        struct fake_mp_part *pt = &out->parts[out->nparts];
        for (int h = 0;; h++) {
            const char *eol = find(p, (size_t)(end - p), "\r\n", 2);
            if (eol == NULL)
                return "part headers not ended";
            if (eol == p) {
                p += 2;
                break;
            }
            if (h == FAKE_MP_MAX_HEADERS)
                return "too many part headers";
            const char *why = part_header(pt, p, (size_t)(eol - p));
            if (why != NULL)
                return why;
            p = eol + 2;
        }
        if (pt->name[0] == '\0')
            return "part without Content-Disposition";
        const char *next = find(p, (size_t)(end - p), delim, (size_t)dl);
        if (next == NULL)
            return "no closing boundary";
        pt->data = p;
        pt->len = (size_t)(next - p);
        out->nparts++;
        p = next + dl;
    }
}

const struct fake_mp_part *fake_mp_find(const struct fake_mp *m,
                                        const char *name)
{
    for (int i = 0; i < m->nparts; i++)
        if (strcmp(m->parts[i].name, name) == 0)
            return &m->parts[i];
    return NULL;
}
