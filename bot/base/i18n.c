/*
 * i18n.c - lookups in the embedded gettext catalogs (i18n.h).
 *
 * A .mo file (GNU gettext's "MO file format"): a 28-byte header (magic,
 * revision, N, offset of the originals' table, offset of the
 * translations' table, hash size and offset), then two tables of N
 * (length, offset) pairs. msgfmt writes the originals sorted by their
 * bytes, so a binary search finds a key; a context is part of the key,
 * "ctx\x04msgid", and a plural's original is "one\0many" with its forms
 * "f0\0f1\0f2". Every read is bounds-checked, so a damaged catalog costs a
 * fallback to English, never a read out of bounds.
 *
 * A lookup goes through the hash table msgfmt writes beside the tables
 * (gettext's hashpjw, open addressing with a second hash for the step):
 * one hash of the key and, nearly always, one comparison, where the binary
 * search compares a dozen keys. Every lookup of a non-English reply pays
 * it, a tracker row several times (docs/internals/i18n.md, "Cost").
 * A catalog without the table is searched.
 */
#include "i18n.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "i18n_plural.h"

#define MO_MAGIC 0x950412deu
#define MO_MAGIC_SWAPPED 0xde120495u
#define MO_HEADER_BYTES 28

struct mo {
    const unsigned char *b;
    size_t len;
    bool swap;
    uint32_t n, orig, trans;
    uint32_t hsize, hash;      /* the hash table: 0 entries = none usable */
};

static uint32_t rd32(const struct mo *m, size_t at)
{
    uint32_t v;
    memcpy(&v, m->b + at, sizeof v);
    if (m->swap)
        v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) |
            (v << 24);
    return v;
}

static bool mo_open(const unsigned char *b, size_t len, struct mo *m)
{
    if (b == NULL || len < MO_HEADER_BYTES)
        return false;
    m->b = b;
    m->len = len;
    m->swap = false;
    uint32_t magic = rd32(m, 0);
    if (magic == MO_MAGIC_SWAPPED)
        m->swap = true;
    else if (magic != MO_MAGIC)
        return false;
    if (rd32(m, 4) >> 16 != 0)      /* major revision 0 only */
        return false;
    m->n = rd32(m, 8);
    m->orig = rd32(m, 12);
    m->trans = rd32(m, 16);
    m->hsize = rd32(m, 20);
    m->hash = rd32(m, 24);
    if (m->hsize < 3 || m->hash % 4 != 0 || m->hash > len ||
        (uint64_t)m->hsize * 4 > len - m->hash)
        m->hsize = 0;              /* none, or not where it says: search */
    uint64_t table = (uint64_t)m->n * 8;
    return m->orig <= len && m->trans <= len && table <= len - m->orig &&
           table <= len - m->trans && m->orig % 4 == 0 && m->trans % 4 == 0;
}

/* gettext's hash_string() (hashpjw) of the bytes of s, continuing h. */
static uint32_t hash_more(uint32_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h = (h << 4) + *p;
        uint32_t g = h & 0xf0000000u;
        if (g != 0) {
            h ^= g >> 24;
            h ^= g;
        }
    }
    return h;
}

static uint32_t key_hash(const char *ctx, const char *id)
{
    uint32_t h = 0;
    if (ctx != NULL) {
        h = hash_more(h, ctx);
        h = hash_more(h, "\x04");
    }
    return hash_more(h, id);
}

/* String i of a table (orig or trans): its bytes and length, or NULL when
 * the entry points outside the file or is not NUL-terminated. */
static const char *mo_str(const struct mo *m, uint32_t table, uint32_t i,
                          size_t *len)
{
    uint32_t l = rd32(m, table + (size_t)i * 8);
    uint32_t at = rd32(m, table + (size_t)i * 8 + 4);
    if (at > m->len || l >= m->len - at || m->b[at + l] != '\0')
        return NULL;
    *len = l;
    return (const char *)m->b + at;
}

/* Compare (ctx "\x04")? id with the original s, as bytes, up to s's first
 * NUL (a plural's key ends at its singular). */
static int key_cmp(const char *ctx, const char *id, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    if (ctx != NULL) {
        for (const unsigned char *c = (const unsigned char *)ctx; *c; c++, p++)
            if (*c != *p)
                return *c < *p ? -1 : 1;
        if (*p != 0x04)
            return 0x04 < *p ? -1 : 1;
        p++;
    }
    for (const unsigned char *c = (const unsigned char *)id; ; c++, p++) {
        if (*c != *p)
            return *c < *p ? -1 : 1;
        if (*c == '\0')
            return 0;
    }
}

/* The binary search of the sorted originals (a catalog without a usable
 * hash table). */
static int64_t mo_search(const struct mo *m, const char *ctx, const char *id)
{
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        size_t l;
        const char *s = mo_str(m, m->orig, mid, &l);
        if (s == NULL)
            return -1;
        int c = key_cmp(ctx, id, s);
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* The i-th slot probed for hash value h (gettext's double hashing): 0 is
 * empty, else 1 + the entry's index. */
static uint32_t hash_slot(const struct mo *m, uint32_t h, uint32_t i)
{
    uint64_t step = 1 + h % (m->hsize - 2);
    return rd32(m, m->hash + (size_t)((h % m->hsize + i * step) % m->hsize) * 4);
}

/* Index of the key, or -1. Entry 0 is the header (""), which a search for
 * a non-empty id never matches. */
static int64_t mo_index(const struct mo *m, const char *ctx, const char *id)
{
    if (m->hsize != 0) {
        uint32_t h = key_hash(ctx, id);
        /* at most hsize probes: a damaged table cannot loop */
        for (uint32_t i = 0; i < m->hsize; i++) {
            uint32_t slot = hash_slot(m, h, i);
            size_t l;
            if (slot == 0)
                return -1;
            if (slot > m->n)
                continue;
            const char *s = mo_str(m, m->orig, slot - 1, &l);
            if (s != NULL && key_cmp(ctx, id, s) == 0)
                return slot - 1;
        }
        return -1;
    }
    return mo_search(m, ctx, id);
}
const char *i18n__mo_find(const unsigned char *mo, size_t len,
                          const char *ctx, const char *id, size_t *outlen)
{
    struct mo m;
    size_t l;
    if (id == NULL || *id == '\0' || !mo_open(mo, len, &m))
        return NULL;
    int64_t i = mo_index(&m, ctx, id);
    if (i < 0)
        return NULL;
    const char *t = mo_str(&m, m.trans, (uint32_t)i, &l);
    if (t == NULL || l == 0)        /* an empty msgstr: untranslated */
        return NULL;
    if (outlen != NULL)
        *outlen = l;
    return t;
}

size_t i18n__mo_count(const unsigned char *mo, size_t len)
{
    struct mo m;
    size_t l;
    if (!mo_open(mo, len, &m) || m.n == 0)
        return 0;
    const char *s = mo_str(&m, m.orig, 0, &l);
    return s != NULL && l == 0 ? m.n - 1 : m.n;
}

const char *i18n__get(enum i18n_lang lang, const char *ctx, const char *id)
{
    size_t len;
    const unsigned char *mo = i18n_catalog(lang, &len);
    const char *t = i18n__mo_find(mo, len, ctx, id, NULL);
    return t != NULL ? t : id;
}

bool i18n_has(enum i18n_lang lang, const char *ctx, const char *msgid)
{
    size_t len;
    const unsigned char *mo = i18n_catalog(lang, &len);
    return i18n__mo_find(mo, len, ctx, msgid, NULL) != NULL;
}

/* The header (the translation of ""). */
static const char *mo_header(const struct mo *m, size_t *len)
{
    size_t l;
    const char *s = m->n > 0 ? mo_str(m, m->orig, 0, &l) : NULL;
    if (s == NULL || l != 0)
        return NULL;
    return mo_str(m, m->trans, 0, len);
}

bool i18n__plural_fixed(enum i18n_lang lang, unsigned long n,
                        unsigned long *form)
{
    switch (lang) {
    case I18N_DE:
    case I18N_ES:
    case I18N_PSEUDO:
        *form = n != 1;
        return true;
    case I18N_FR:
    case I18N_PT_BR:
        *form = n > 1;
        return true;
    case I18N_PL:
        *form = n == 1 ? 0
                : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20)
                    ? 1
                    : 2;
        return true;
    case I18N_EN:
    case I18N_COUNT:
        break;
    }
    return false;
}

const char *i18n_tr(const void *ctx, const char *fmt)
{
    return i18n_get(*(const enum i18n_lang *)ctx, fmt);
}

const char *i18n_nget(enum i18n_lang lang, const char *one, const char *many,
                      unsigned long n)
{
    const char *fallback = n == 1 ? one : many;
    size_t len, tlen, hlen;
    struct mo m;
    const unsigned char *mo = i18n_catalog(lang, &len);
    if (lang == I18N_EN || !mo_open(mo, len, &m))
        return fallback;
    const char *t = i18n__mo_find(mo, len, NULL, one, &tlen);
    if (t == NULL)
        return fallback;
    unsigned long form;
    if (!i18n__plural_fixed(lang, n, &form)) {
        /* a language without its rule in C: the header's, parsed */
        const char *h = mo_header(&m, &hlen);
        struct i18n_plural p;
        unsigned np;
        char err[80];
        if (h == NULL || !i18n_plural_header(h, hlen, I18N_PLURALS_MAX, &np,
                                             &p, err, sizeof err))
            return fallback;
        form = i18n_plural_eval(&p, n);
    }
    const char *end = t + tlen;
    for (unsigned long k = 0; k < form && t < end; k++)
        t += strlen(t) + 1;
    return t < end && *t ? t : fallback;
}

/* Does the hash table lead to entry i from its key s (the whole
 * "ctx\x04id" as stored: the hash of that is the hash of the pair)? */
static bool hash_reaches(const struct mo *m, const char *s, uint32_t i)
{
    uint32_t h = hash_more(0, s);
    for (uint32_t k = 0; k < m->hsize; k++) {
        uint32_t slot = hash_slot(m, h, k);
        if (slot == 0)
            return false;
        if (slot == i + 1)
            return true;
    }
    return false;
}

bool i18n__mo_check(const unsigned char *mo, size_t len, char *err,
                    size_t errlen)
{
    struct mo m;
    size_t l, prevlen = 0, hlen;
    const char *prev = NULL;
    if (!mo_open(mo, len, &m)) {
        snprintf(err, errlen, "not a .mo catalog (bad header or tables)");
        return false;
    }
    for (uint32_t i = 0; i < m.n; i++) {
        const char *s = mo_str(&m, m.orig, i, &l);
        if (s == NULL || mo_str(&m, m.trans, i, &hlen) == NULL) {
            snprintf(err, errlen, "entry %u points outside the file", i);
            return false;
        }
        if (prev != NULL && (memcmp(prev, s, prevlen < l ? prevlen : l) > 0 ||
                             (memcmp(prev, s, prevlen < l ? prevlen : l) == 0 &&
                              prevlen >= l))) {
            snprintf(err, errlen, "entry %u is out of order", i);
            return false;
        }
        prev = s;
        prevlen = l;
    }
    for (uint32_t i = 1; i < m.n && m.hsize != 0; i++) {
        if (!hash_reaches(&m, mo_str(&m, m.orig, i, &l), i)) {
            snprintf(err, errlen, "entry %u is not in the hash table", i);
            return false;
        }
    }
    const char *h = mo_header(&m, &hlen);
    struct i18n_plural p;
    unsigned np;
    if (h == NULL) {
        snprintf(err, errlen, "no header entry");
        return false;
    }
    return i18n_plural_header(h, hlen, I18N_PLURALS_MAX, &np, &p, err, errlen);
}

static const char *const codes[I18N_COUNT] = {
    [I18N_EN] = "en", [I18N_DE] = "de", [I18N_FR] = "fr",
    [I18N_ES] = "es-ES", [I18N_PT_BR] = "pt-BR", [I18N_PL] = "pl",
    [I18N_PSEUDO] = "qps",
};

const char *i18n_code(enum i18n_lang lang)
{
    return (unsigned)lang < I18N_COUNT ? codes[lang] : NULL;
}

bool i18n_from_code(const char *code, enum i18n_lang *out)
{
    if (code == NULL)
        return false;
    for (int i = 0; i < I18N_COUNT; i++)
        if (strcasecmp(code, codes[i]) == 0) {
            *out = (enum i18n_lang)i;
            return true;
        }
    if (strcasecmp(code, "es") == 0 || strcasecmp(code, "pt") == 0) {
        *out = code[0] == 'e' || code[0] == 'E' ? I18N_ES : I18N_PT_BR;
        return true;
    }
    return false;
}

enum i18n_lang i18n_from_discord(const char *locale)
{
    enum i18n_lang l;
    if (locale == NULL)
        return I18N_EN;
    if (strcmp(locale, "es-419") == 0)   /* Discord's own fallback */
        return I18N_ES;
    if (i18n_from_code(locale, &l) && l != I18N_PSEUDO &&
        strcmp(locale, "es") != 0 && strcmp(locale, "pt") != 0)
        return l;
    return I18N_EN;
}

bool i18n_check(char *err, size_t errlen)
{
    for (int i = I18N_EN + 1; i < I18N_COUNT; i++) {
        size_t len;
        const unsigned char *mo = i18n_catalog((enum i18n_lang)i, &len);
        char e[160];
        if (!i18n__mo_check(mo, len, e, sizeof e)) {
            snprintf(err, errlen, "catalog %s: %s", codes[i], e);
            return false;
        }
    }
    return true;
}
