/*
 * custom_id.c - the custom_id of our buttons and select menus (custom_id.h).
 */
#include "custom_id.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool custom_id_name_ok(const char *s, size_t n)
{
    if (n == 0 || n > CUSTOM_ID_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-'))
            return false;
    }
    return true;
}

bool custom_id_make(char *out, size_t cap, const char *command,
                                const char *sub, uint64_t fight,
                                int64_t version, const char *opt_name,
                                const char *opt_value)
{
    int n;
    char ver[24];

    if (!command || !custom_id_name_ok(command, strlen(command)) ||
        (version < 0 && version != CUSTOM_ID_ANY_VERSION) ||
        (sub && !custom_id_name_ok(sub, strlen(sub))) ||
        (opt_name && !custom_id_name_ok(opt_name, strlen(opt_name))) ||
        (opt_value && !opt_name))
        return false;
    if (version == CUSTOM_ID_ANY_VERSION)
        snprintf(ver, sizeof ver, "*");
    else
        snprintf(ver, sizeof ver, "%" PRId64, version);
    n = snprintf(out, cap, "%s:%s%s%s:%" PRIu64 ".%s%s%s%s%s",
                 CUSTOM_ID_PREFIX, command, sub ? "/" : "",
                 sub ? sub : "", fight, ver, opt_name ? ":" : "",
                 opt_name ? opt_name : "", opt_value ? "=" : "",
                 opt_value ? opt_value : "");
    return n > 0 && (size_t)n < cap && n <= CUSTOM_ID_MAX;
}

bool custom_id_make_picker(char *out, size_t cap, const char *command,
                           const char *sub, uint64_t fight,
                           const char *select_name,
                           const char *const *names,
                           const char *const *values, int n)
{
    char head[CUSTOM_ID_MAX + 1];
    size_t len;

    if (!command || !custom_id_name_ok(command, strlen(command)) ||
        (sub && !custom_id_name_ok(sub, strlen(sub))) || !select_name ||
        !custom_id_name_ok(select_name, strlen(select_name)) || n < 0 ||
        n > CUSTOM_ID_MAX_PRESETS || cap == 0)
        return false;
    int k = snprintf(head, sizeof head, "%s:%s%s%s:%" PRIu64 ".*:%s",
                     CUSTOM_ID_PREFIX, command, sub ? "/" : "",
                     sub ? sub : "", fight, select_name);
    if (k <= 0 || (size_t)k >= sizeof head)
        return false;
    len = (size_t)k;
    for (int i = 0; i < n; i++) {
        if (!names[i] || !values[i] ||
            !custom_id_name_ok(names[i], strlen(names[i])))
            return false;
        size_t nl = strlen(names[i]);
        if (len + 1 + nl + 1 > CUSTOM_ID_MAX)
            return false;
        head[len++] = i == 0 ? ':' : '&';
        memcpy(head + len, names[i], nl);
        len += nl;
        head[len++] = '=';
        for (const char *v = values[i]; *v; v++) {
            const char *esc = *v == '%' ? "%25" : *v == '&' ? "%26" : NULL;
            size_t el = esc ? 3 : 1;
            if (len + el > CUSTOM_ID_MAX)
                return false;
            memcpy(head + len, esc ? esc : v, el);
            len += el;
        }
    }
    head[len] = '\0';
    if (len >= cap)
        return false;
    memcpy(out, head, len + 1);
    return true;
}

/* The presets of a picker's id, "p1=v1&p2=v2", into out; false when
 * malformed. */
static bool parse_presets(const char *p, struct custom_id *out)
{
    while (*p) {
        struct custom_id_preset *pr;
        const char *eq = strchr(p, '=');
        size_t n = eq ? (size_t)(eq - p) : 0;
        if (!eq || !custom_id_name_ok(p, n) ||
            out->npresets == CUSTOM_ID_MAX_PRESETS)
            return false;
        pr = &out->presets[out->npresets++];
        memcpy(pr->name, p, n);
        size_t len = 0;
        for (p = eq + 1; *p && *p != '&'; p++) {
            char c = *p;
            if (c == '%') {
                if (strncmp(p, "%25", 3) == 0)
                    c = '%';
                else if (strncmp(p, "%26", 3) == 0)
                    c = '&';
                else
                    return false;
                p += 2;
            }
            pr->value[len++] = c;      /* never past: the id is shorter */
        }
        pr->value[len] = '\0';
        if (*p == '&' && *++p == '\0')
            return false;
    }
    return out->npresets > 0;
}

bool custom_id_parse(const char *s,
                                 struct custom_id *out)
{
    const char *p, *colon, *slash, *eq;
    size_t n;
    char *end;
    long long v;

    memset(out, 0, sizeof *out);
    if (!s || strlen(s) > CUSTOM_ID_MAX)
        return false;
    bool v2 = strncmp(s, CUSTOM_ID_PREFIX ":",
                      sizeof CUSTOM_ID_PREFIX) == 0;
    if (!v2 && strncmp(s, CUSTOM_ID_OLD ":",
                       sizeof CUSTOM_ID_OLD) != 0)
        return false;
    p = s + sizeof CUSTOM_ID_PREFIX;
    colon = strchr(p, ':');
    if (!colon)
        return false;
    slash = memchr(p, '/', (size_t)(colon - p));
    n = (size_t)((slash ? slash : colon) - p);
    if (!custom_id_name_ok(p, n))
        return false;
    memcpy(out->command, p, n);
    if (slash) {
        n = (size_t)(colon - slash - 1);
        if (!custom_id_name_ok(slash + 1, n))
            return false;
        memcpy(out->sub, slash + 1, n);
    }
    p = colon + 1;
    if (v2) {
        if (*p < '0' || *p > '9')
            return false;
        errno = 0;
        unsigned long long fight = strtoull(p, &end, 10);
        if (errno == ERANGE || *end != '.')
            return false;
        out->fight = (uint64_t)fight;
        p = end + 1;
    }
    if (v2 && *p == '*') {              /* a picker: any version */
        v = CUSTOM_ID_ANY_VERSION;
        end = (char *)p + 1;
    } else {
        if (*p < '0' || *p > '9')
            return false;
        errno = 0;
        v = strtoll(p, &end, 10);
        if (errno == ERANGE)
            return false;
    }
    if (*end && *end != ':')
        return false;
    out->version = v;
    if (!*end)
        return true;
    p = end + 1;
    eq = strchr(p, '=');
    colon = strchr(p, ':');
    if (colon != NULL && (eq == NULL || colon < eq)) {
        /* "select:preset=value": the select's option, then the preset */
        n = (size_t)(colon - p);
        if (!custom_id_name_ok(p, n) || eq == NULL)
            return false;
        memcpy(out->select_name, p, n);
        return parse_presets(colon + 1, out);
    }
    n = eq ? (size_t)(eq - p) : strlen(p);
    if (!custom_id_name_ok(p, n))
        return false;
    memcpy(out->opt_name, p, n);
    if (eq) {
        snprintf(out->opt_value, sizeof out->opt_value, "%s", eq + 1);
        out->has_value = true;
    }
    return true;
}
