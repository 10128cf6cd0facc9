/*
 * limit.c - token buckets in a bounded open-addressing table (limit.h).
 *
 * Units: a bucket's level is kept in token-milliseconds-per-minute, i.e.
 * one token is LIMIT_UNIT; a bucket gains per_min units a millisecond, so
 * refilling is exact integer arithmetic whatever the rate and however
 * often it is asked.
 */
#include "limit.h"

#include <stdlib.h>
#include <string.h>

#define LIMIT_UNIT 60000               /* one token; ms in a minute */
#define LIMIT_MAX_ELAPSED_MS 86400000  /* longer idle: as good as full */

struct limit_entry {
    uint64_t id;
    int64_t level;                     /* LIMIT_UNIT per token */
    int64_t at_ms;                     /* level as of; last use */
    int64_t full_at_ms;                /* the bucket is full again then */
    uint8_t kind;
    bool used;
};

struct limit {
    struct limit_entry *slot;
    size_t nslots;                     /* power of two, >= 2 * cap */
    size_t cap, n;
};

static size_t hash(enum limit_kind kind, uint64_t id)
{
    uint64_t h = id * 0x9e3779b97f4a7c15u ^ (uint64_t)kind * 0xbf58476d1ce4e5b9u;
    h ^= h >> 31;
    return (size_t)h;
}

struct limit *limit_new(size_t cap)
{
    struct limit *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->cap = cap ? cap : LIMIT_MAX_ENTRIES;
    l->nslots = 16;
    while (l->nslots < 2 * l->cap)
        l->nslots *= 2;
    l->slot = calloc(l->nslots, sizeof *l->slot);
    if (l->slot == NULL) {
        free(l);
        return NULL;
    }
    return l;
}

void limit_free(struct limit *l)
{
    if (l == NULL)
        return;
    free(l->slot);
    free(l);
}

size_t limit_count(const struct limit *l)
{
    return l->n;
}

static struct limit_entry *find(struct limit *l, enum limit_kind kind,
                                uint64_t id)
{
    size_t mask = l->nslots - 1;
    for (size_t i = hash(kind, id) & mask;; i = (i + 1) & mask) {
        struct limit_entry *e = &l->slot[i];
        if (!e->used)
            return NULL;
        if (e->id == id && e->kind == kind)
            return e;
    }
}

static struct limit_entry *insert(struct limit *l, enum limit_kind kind,
                                  uint64_t id)
{
    size_t mask = l->nslots - 1;
    size_t i = hash(kind, id) & mask;
    while (l->slot[i].used)
        i = (i + 1) & mask;
    memset(&l->slot[i], 0, sizeof l->slot[i]);
    l->slot[i].used = true;
    l->slot[i].kind = (uint8_t)kind;
    l->slot[i].id = id;
    l->n++;
    return &l->slot[i];
}

struct age {
    int64_t at_ms;
    size_t slot;
};

static int cmp_age(const void *a, const void *b)
{
    const struct age *x = a, *y = b;
    if (x->at_ms != y->at_ms)
        return (x->at_ms > y->at_ms) - (x->at_ms < y->at_ms);
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Make room: forget the buckets that are full again; if none is, the
 * least recently used eighth (so a table full of busy keys is not swept
 * at every new one). Rebuilds the table from what is kept. */
static bool make_room(struct limit *l, int64_t now_ms)
{
    struct limit_entry *keep = malloc(l->n * sizeof *keep);
    size_t nkeep = 0, nidle = 0;

    if (keep == NULL)
        return false;
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slot[i].used && l->slot[i].full_at_ms <= now_ms) {
            l->slot[i].used = false;      /* the rebuild below skips it */
            nidle++;
        }
    if (nidle == 0) {
        struct age *ages = malloc(l->n * sizeof *ages);
        size_t k = 0;
        if (ages == NULL) {
            free(keep);
            return false;
        }
        for (size_t i = 0; i < l->nslots; i++)
            if (l->slot[i].used)
                ages[k++] = (struct age){l->slot[i].at_ms, i};
        qsort(ages, k, sizeof *ages, cmp_age);
        for (size_t i = 0; i < k / 8 + 1 && i < k; i++)
            l->slot[ages[i].slot].used = false;
        free(ages);
    }
    for (size_t i = 0; i < l->nslots; i++)
        if (l->slot[i].used)
            keep[nkeep++] = l->slot[i];
    memset(l->slot, 0, l->nslots * sizeof *l->slot);
    l->n = 0;
    for (size_t i = 0; i < nkeep; i++)
        *insert(l, keep[i].kind, keep[i].id) = keep[i];
    free(keep);
    return true;
}

/* Bring e's level up to now_ms. */
static void refill(struct limit_entry *e, const struct limit_rate *rate,
                   int64_t now_ms)
{
    int64_t cap = rate->burst * LIMIT_UNIT;
    int64_t dt = now_ms - e->at_ms;
    if (dt < 0)
        dt = 0;                        /* a clock that went back */
    if (dt > LIMIT_MAX_ELAPSED_MS)
        dt = LIMIT_MAX_ELAPSED_MS;
    e->level += dt * rate->per_min;
    if (e->level > cap)
        e->level = cap;
    e->at_ms = now_ms;
}

static void set_full_at(struct limit_entry *e, const struct limit_rate *rate)
{
    int64_t missing = rate->burst * LIMIT_UNIT - e->level;
    e->full_at_ms = e->at_ms + (missing + rate->per_min - 1) / rate->per_min;
}

static bool unlimited(const struct limit_rate *rate)
{
    return rate->per_min <= 0 || rate->burst <= 0;
}

int64_t limit_wait_ms(struct limit *l, enum limit_kind kind, uint64_t id,
                      const struct limit_rate *rate, int64_t now_ms)
{
    struct limit_entry *e;
    if (unlimited(rate) || (e = find(l, kind, id)) == NULL)
        return 0;
    refill(e, rate, now_ms);
    set_full_at(e, rate);
    if (e->level >= LIMIT_UNIT)
        return 0;
    return (LIMIT_UNIT - e->level + rate->per_min - 1) / rate->per_min;
}

bool limit_take(struct limit *l, enum limit_kind kind, uint64_t id,
                const struct limit_rate *rate, int64_t now_ms)
{
    struct limit_entry *e;

    if (unlimited(rate))
        return true;
    e = find(l, kind, id);
    if (e == NULL) {
        if (l->n >= l->cap && !make_room(l, now_ms))
            return true;
        e = insert(l, kind, id);
        e->level = rate->burst * LIMIT_UNIT;
        e->at_ms = now_ms;
    }
    refill(e, rate, now_ms);
    if (e->level < LIMIT_UNIT) {
        set_full_at(e, rate);
        return false;
    }
    e->level -= LIMIT_UNIT;
    set_full_at(e, rate);
    return true;
}
