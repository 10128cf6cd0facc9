/*
 * enc_pack.c - an encounter packed into one block (enc_pack.h).
 *
 * One function writes a packed block and one reads it, each walking the
 * encounter in the same order:
 *
 *   encounter  its bytes outside its strings and arrays (but for cs and
 *              cs_cap, which unpacking sets), then ruleset and name (each
 *              string as a length byte and its bytes), the used settings
 *              (key, value), the used sides (name, typed state), the used
 *              turn order, each used countdown's name and the fields after
 *              it, the used events of the order (whole: they are few), the
 *              encounter's typed state, and each combatant;
 *   combatant  its bytes outside its strings and arrays, then name,
 *              init_expr, sheet and note, and for each used stat, track and
 *              condition its name and the fields after the name, and each
 *              used attack's four strings, each used resource's name
 *              and the fields after it; then its typed state;
 *   the end    STR_CHUNK spare bytes, so reading copies a short string in
 *              one move.
 *
 * "Outside its strings and arrays" is counted from the struct itself
 * (offsetof and sizeof of the strings and arrays it skips), so a new field
 * is packed wherever it goes, except inside an array's element, whose
 * fields are packed from the first one after the name on (the static
 * assertions below catch a field of 8 bytes or more put before it). Typed
 * state is copied whole, with one byte saying whether it is there.
 *
 * The writer writes as far as its buffer goes and counts on to the end, so
 * a caller with a buffer large enough for most fights (the cache's) packs
 * in one pass, and enc_pack() counts first and allocates the exact size.
 */
#include "enc_pack.h"

#include <assert.h>
#include <string.h>

#include "eng_alloc.h"
#include "rs.h"

struct enc_pack {
    size_t size;             /* of the whole block, this header included */
    int64_t version;
    unsigned char data[];
};

/* The end of member m of struct type T. */
#define END(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))

/* The fields of an array element packed after its name start at its first
 * field after the name; nothing must hide in the padding between. */
static_assert(offsetof(struct enc_stat, value) - END(struct enc_stat, name) < 8,
              "a field between enc_stat's name and value is not packed");
static_assert(offsetof(struct enc_track, cur) - END(struct enc_track, name) < 8,
              "a field between enc_track's name and cur is not packed");
static_assert(offsetof(struct enc_cond, value) - END(struct enc_cond, name) < 8,
              "a field between enc_cond's name and value is not packed");
static_assert(offsetof(struct enc_res, cur) - END(struct enc_res, name) < 8,
              "a field between enc_res's name and cur is not packed");
static_assert(offsetof(struct enc_cd, left) - END(struct enc_cd, name) < 8,
              "a field between enc_cd's name and left is not packed");
static_assert(offsetof(struct enc_side, st) - END(struct enc_side, name) < 8,
              "a field between enc_side's name and st is not packed");
static_assert(offsetof(struct enc_setting, value) ==
                  END(struct enc_setting, key) &&
              sizeof(struct enc_setting) == END(struct enc_setting, value),
              "enc_setting holds more than its key and value");
/* Strings are copied STR_CHUNK bytes at a time when shorter: every string
 * field must hold that many, and none may exceed what one length byte
 * says. */
#define STR_CHUNK 16
#define STR_FIELD(T, m)                                                      \
    static_assert(sizeof(((T *)0)->m) >= STR_CHUNK &&                        \
                      sizeof(((T *)0)->m) <= UINT8_MAX + 1,                  \
                  #T "." #m " does not suit put_str()")
STR_FIELD(struct encounter, ruleset);
STR_FIELD(struct encounter, name);
STR_FIELD(struct enc_setting, key);
STR_FIELD(struct enc_setting, value);
STR_FIELD(struct enc_side, name);
STR_FIELD(struct enc_combatant, name);
STR_FIELD(struct enc_combatant, init_expr);
STR_FIELD(struct enc_combatant, note);
STR_FIELD(struct enc_combatant, sheet);
STR_FIELD(struct enc_stat, name);
STR_FIELD(struct enc_track, name);
STR_FIELD(struct enc_cond, name);
STR_FIELD(struct enc_res, name);
STR_FIELD(struct enc_cd, name);
STR_FIELD(struct enc_attack, name);
STR_FIELD(struct enc_attack, roll);
STR_FIELD(struct enc_attack, damage);
STR_FIELD(struct enc_attack, options);
static_assert(sizeof(struct enc_attack) == END(struct enc_attack, options),
              "enc_attack holds more than its four strings");

/* The typed state pointer ends both structs; what is before it is packed
 * as bytes, the pointer itself never. */
static_assert(END(struct encounter, st) == sizeof(struct encounter),
              "encounter.st must be its last field");
static_assert(END(struct enc_combatant, st) == sizeof(struct enc_combatant),
              "enc_combatant.st must be its last field");

/* ---- writing --------------------------------------------------------------- */

/* A writer into p (cap bytes); past cap it only counts. */
struct pk_out {
    unsigned char *p;
    size_t n, cap;
};

static void put(struct pk_out *w, const void *src, size_t n)
{
    if (w->n + n <= w->cap)
        memcpy(w->p + w->n, src, n);
    w->n += n;
}

/* Bytes [from, to) of the struct at base. */
static void put_span(struct pk_out *w, const void *base, size_t from,
                     size_t to)
{
    put(w, (const char *)base + from, to - from);
}

/* A string as its length (one byte) and its bytes. When it is short and
 * there is room, STR_CHUNK bytes are copied at once (within the field:
 * see the assertions) and what follows the string is overwritten next.
 * Always inlined: it runs for every string of every fight packed. */
__attribute__((always_inline)) static inline void put_str(struct pk_out *w,
                                                          const char *s)
{
    size_t n = strlen(s);
    assert(n <= UINT8_MAX);
    if (w->n + 1 + STR_CHUNK <= w->cap && n <= STR_CHUNK) {
        w->p[w->n] = (unsigned char)n;
        memcpy(w->p + w->n + 1, s, STR_CHUNK);
        w->n += 1 + n;
        return;
    }
    unsigned char len = (unsigned char)n;
    put(w, &len, 1);
    put(w, s, n);
}

static void put_state(struct pk_out *w, const struct rs_state_spec *sp,
                      const void *st)
{
    unsigned char has = st != NULL && sp->size > 0;
    put(w, &has, 1);
    if (has)
        put(w, st, sp->size);
}

static void put_comb(struct pk_out *w, const struct rs_system *sys,
                     const struct enc_combatant *c)
{
#define C(m) offsetof(struct enc_combatant, m)
#define CE(m) END(struct enc_combatant, m)
    put_span(w, c, 0, C(name));
    put_span(w, c, CE(name), C(init_expr));
    put_span(w, c, CE(init_expr), C(sheet));
    put_span(w, c, CE(sheet), C(stats));
    put_span(w, c, CE(stats), C(tracks));
    put_span(w, c, CE(tracks), C(conds));
    put_span(w, c, CE(conds), C(note));
    put_span(w, c, CE(note), C(attacks));
    put_span(w, c, CE(attacks), C(res));
    put_span(w, c, CE(res), C(st));
    put_str(w, c->name);
    put_str(w, c->init_expr);
    put_str(w, c->sheet);
    put_str(w, c->note);
    for (int i = 0; i < c->nattacks; i++) {
        const struct enc_attack *a = &c->attacks[i];
        put_str(w, a->name);
        put_str(w, a->roll);
        put_str(w, a->damage);
        put_str(w, a->options);
    }
    for (int i = 0; i < c->nstats; i++) {
        const struct enc_stat *s = &c->stats[i];
        put_str(w, s->name);
        put_span(w, s, offsetof(struct enc_stat, value), sizeof *s);
    }
    for (int i = 0; i < c->ntracks; i++) {
        const struct enc_track *t = &c->tracks[i];
        put_str(w, t->name);
        put_span(w, t, offsetof(struct enc_track, cur), sizeof *t);
    }
    for (int i = 0; i < c->nconds; i++) {
        const struct enc_cond *k = &c->conds[i];
        put_str(w, k->name);
        put_span(w, k, offsetof(struct enc_cond, value), sizeof *k);
    }
    for (int i = 0; i < c->nres; i++) {
        const struct enc_res *x = &c->res[i];
        put_str(w, x->name);
        put_span(w, x, offsetof(struct enc_res, cur), sizeof *x);
    }
    put_state(w, &sys->comb_state, c->st);
#undef C
#undef CE
}

size_t enc_pack_to(const struct encounter *e, void *buf, size_t cap)
{
#define E(m) offsetof(struct encounter, m)
#define EE(m) END(struct encounter, m)
    struct pk_out w = {buf, offsetof(struct enc_pack, data), cap};
    put_span(&w, e, 0, E(ruleset));
    put_span(&w, e, EE(ruleset), E(name));
    put_span(&w, e, EE(name), E(settings));
    put_span(&w, e, EE(settings), E(sides));
    put_span(&w, e, EE(sides), E(entries));
    put_span(&w, e, EE(entries), E(cs));     /* not cs and cs_cap */
    put_span(&w, e, EE(cs), E(cs_cap));
    put_span(&w, e, EE(cs_cap), E(cds));
    put_span(&w, e, EE(cds), E(order));
    put_span(&w, e, EE(order), E(st));
    put_str(&w, e->ruleset);
    put_str(&w, e->name);
    for (int i = 0; i < e->nsettings; i++) {
        put_str(&w, e->settings[i].key);
        put_str(&w, e->settings[i].value);
    }
    for (int i = 0; i < e->nsides; i++) {
        put_str(&w, e->sides[i].name);
        put_state(&w, &e->sys->side_state, e->sides[i].st);
    }
    put(&w, e->order, (size_t)e->norder * sizeof e->order[0]);
    for (int i = 0; i < e->ncds; i++) {
        const struct enc_cd *x = &e->cds[i];
        put_str(&w, x->name);
        put_span(&w, x, offsetof(struct enc_cd, left), sizeof *x);
    }
    put(&w, e->entries, (size_t)e->nentries * sizeof e->entries[0]);
    put_state(&w, &e->sys->enc_state, e->st);
    for (int i = 0; i < e->ncs; i++)
        put_comb(&w, e->sys, &e->cs[i]);
    w.n += STR_CHUNK;        /* spare bytes for get_str() */
    if (w.n <= cap) {
        struct enc_pack *p = buf;
        p->size = w.n;
        p->version = e->version;
    }
    return w.n;
#undef E
#undef EE
}

struct enc_pack *enc_pack(const struct encounter *e)
{
    size_t size = enc_pack_to(e, NULL, 0);
    struct enc_pack *p = eng_malloc(size);
    if (p == NULL)
        return NULL;
    size_t n = enc_pack_to(e, p, size);
    assert(n == size);
    (void)n;
    return p;
}

/* ---- reading --------------------------------------------------------------- */

struct pk_in {
    const unsigned char *p;
};

static void get(struct pk_in *r, void *dst, size_t n)
{
    memcpy(dst, r->p, n);
    r->p += n;
}

static void get_span(struct pk_in *r, void *base, size_t from, size_t to)
{
    get(r, (char *)base + from, to - from);
}

/* A string put_str() wrote from a field like dst. The block ends in
 * STR_CHUNK spare bytes, so a short one is copied in one move. */
static void get_str(struct pk_in *r, char *dst)
{
    size_t n = *r->p++;
    if (n <= STR_CHUNK)
        memcpy(dst, r->p, STR_CHUNK);
    else
        memcpy(dst, r->p, n);
    dst[n] = '\0';
    r->p += n;
}

/* Typed state into *out (NULL when none was packed); false on no memory,
 * *out NULL. */
static bool get_state(struct pk_in *r, const struct rs_state_spec *sp,
                      void **out)
{
    unsigned char has;
    get(r, &has, 1);
    *out = NULL;
    if (!has)
        return true;
    *out = eng_malloc(sp->size);
    if (*out == NULL)
        return false;
    get(r, *out, sp->size);
    return true;
}

static bool get_comb(struct pk_in *r, const struct rs_system *sys,
                     struct enc_combatant *c)
{
#define C(m) offsetof(struct enc_combatant, m)
#define CE(m) END(struct enc_combatant, m)
    get_span(r, c, 0, C(name));
    get_span(r, c, CE(name), C(init_expr));
    get_span(r, c, CE(init_expr), C(sheet));
    get_span(r, c, CE(sheet), C(stats));
    get_span(r, c, CE(stats), C(tracks));
    get_span(r, c, CE(tracks), C(conds));
    get_span(r, c, CE(conds), C(note));
    get_span(r, c, CE(note), C(attacks));
    get_span(r, c, CE(attacks), C(res));
    get_span(r, c, CE(res), C(st));
    get_str(r, c->name);
    get_str(r, c->init_expr);
    get_str(r, c->sheet);
    get_str(r, c->note);
    for (int i = 0; i < c->nattacks; i++) {
        struct enc_attack *a = &c->attacks[i];
        get_str(r, a->name);
        get_str(r, a->roll);
        get_str(r, a->damage);
        get_str(r, a->options);
    }
    for (int i = 0; i < c->nstats; i++) {
        struct enc_stat *s = &c->stats[i];
        get_str(r, s->name);
        get_span(r, s, offsetof(struct enc_stat, value), sizeof *s);
    }
    for (int i = 0; i < c->ntracks; i++) {
        struct enc_track *t = &c->tracks[i];
        get_str(r, t->name);
        get_span(r, t, offsetof(struct enc_track, cur), sizeof *t);
    }
    for (int i = 0; i < c->nconds; i++) {
        struct enc_cond *k = &c->conds[i];
        get_str(r, k->name);
        get_span(r, k, offsetof(struct enc_cond, value), sizeof *k);
    }
    for (int i = 0; i < c->nres; i++) {
        struct enc_res *x = &c->res[i];
        get_str(r, x->name);
        get_span(r, x, offsetof(struct enc_res, cur), sizeof *x);
    }
    return get_state(r, &sys->comb_state, &c->st);
#undef C
#undef CE
}

struct encounter *enc_unpack(const struct enc_pack *p)
{
#define E(m) offsetof(struct encounter, m)
#define EE(m) END(struct encounter, m)
    struct encounter *e = eng_malloc(sizeof *e);
    if (e == NULL)
        return NULL;
    struct pk_in r = {p->data};
    get_span(&r, e, 0, E(ruleset));
    get_span(&r, e, EE(ruleset), E(name));
    get_span(&r, e, EE(name), E(settings));
    get_span(&r, e, EE(settings), E(sides));
    get_span(&r, e, EE(sides), E(entries));
    get_span(&r, e, EE(entries), E(cs));
    get_span(&r, e, EE(cs), E(cs_cap));
    get_span(&r, e, EE(cs_cap), E(cds));
    get_span(&r, e, EE(cds), E(order));
    get_span(&r, e, EE(order), E(st));
    /* Own nothing yet, so enc_free() is safe at every failure below. */
    int nsides = e->nsides, ncs = e->ncs;
    e->nsides = 0;
    e->cs = NULL;
    e->ncs = 0;
    e->cs_cap = 0;
    e->st = NULL;
    get_str(&r, e->ruleset);
    get_str(&r, e->name);
    for (int i = 0; i < e->nsettings; i++) {
        get_str(&r, e->settings[i].key);
        get_str(&r, e->settings[i].value);
    }
    const struct rs_system *sys = e->sys;
    for (int i = 0; i < nsides; i++) {
        get_str(&r, e->sides[i].name);
        if (!get_state(&r, &sys->side_state, &e->sides[i].st))
            goto fail;
        e->nsides = i + 1;
    }
    get(&r, e->order, (size_t)e->norder * sizeof e->order[0]);
    for (int i = 0; i < e->ncds; i++) {
        struct enc_cd *x = &e->cds[i];
        get_str(&r, x->name);
        get_span(&r, x, offsetof(struct enc_cd, left), sizeof *x);
    }
    get(&r, e->entries, (size_t)e->nentries * sizeof e->entries[0]);
    if (!get_state(&r, &sys->enc_state, &e->st))
        goto fail;
    if (ncs > 0) {
        e->cs = eng_malloc((size_t)ncs * sizeof *e->cs);
        if (e->cs == NULL)
            goto fail;
        e->cs_cap = ncs;
        for (int i = 0; i < ncs; i++) {
            if (!get_comb(&r, sys, &e->cs[i]))
                goto fail;
            e->ncs = i + 1;
        }
    }
    assert((size_t)(r.p - (const unsigned char *)p) + STR_CHUNK == p->size);
    return e;
fail:
    enc_free(e);
    return NULL;
#undef E
#undef EE
}

void enc_pack_free(struct enc_pack *p)
{
    eng_free(p);
}

size_t enc_pack_size(const struct enc_pack *p)
{
    return p->size;
}

int64_t enc_pack_version(const struct enc_pack *p)
{
    return p->version;
}
