/*
 * enc_cache.c - a bounded LRU of decoded encounters keyed by channel.
 *
 * A chained hash table for lookup plus one doubly linked list in order of
 * use (head = most recent), so eviction and idle expiry both take from the
 * tail without scanning.
 */
#include "enc_cache.h"

#include <stdlib.h>

struct entry {
    uint64_t channel;
    struct encounter *e;
    size_t cost;
    int64_t used_ms;
    struct entry *hnext;          /* bucket chain */
    struct entry *prev, *next;    /* use order */
};

struct enc_cache {
    struct entry **bucket;
    size_t nbuckets;              /* a power of two */
    struct entry *head, *tail;
    size_t count, bytes;
    size_t max_entries, max_bytes;
};

static size_t slot(const struct enc_cache *c, uint64_t channel)
{
    /* Snowflakes share their low bits' structure less than their high
     * ones; a multiplicative hash spreads both. */
    return (size_t)((channel * UINT64_C(0x9E3779B97F4A7C15)) >> 32) &
           (c->nbuckets - 1);
}

enum bot_err enc_cache_new(size_t max_entries, size_t max_bytes,
                           struct enc_cache **out)
{
    *out = NULL;
    struct enc_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return BOT_NOMEM;
    c->max_entries = max_entries ? max_entries : ENC_CACHE_MAX_ENTRIES;
    c->max_bytes = max_bytes ? max_bytes : ENC_CACHE_MAX_BYTES;
    c->nbuckets = 16;
    while (c->nbuckets < c->max_entries)
        c->nbuckets *= 2;
    c->bucket = calloc(c->nbuckets, sizeof *c->bucket);
    if (c->bucket == NULL) {
        free(c);
        return BOT_NOMEM;
    }
    *out = c;
    return BOT_OK;
}

size_t enc_cache_cost(const struct encounter *e)
{
    return sizeof *e + (size_t)e->cs_cap * sizeof *e->cs;
}

static struct entry *find(const struct enc_cache *c, uint64_t channel)
{
    struct entry *x = c->bucket[slot(c, channel)];
    while (x != NULL && x->channel != channel)
        x = x->hnext;
    return x;
}

static void list_unlink(struct enc_cache *c, struct entry *x)
{
    if (x->prev != NULL)
        x->prev->next = x->next;
    else
        c->head = x->next;
    if (x->next != NULL)
        x->next->prev = x->prev;
    else
        c->tail = x->prev;
    x->prev = x->next = NULL;
}

static void list_push(struct enc_cache *c, struct entry *x)
{
    x->prev = NULL;
    x->next = c->head;
    if (c->head != NULL)
        c->head->prev = x;
    c->head = x;
    if (c->tail == NULL)
        c->tail = x;
}

static void remove_entry(struct enc_cache *c, struct entry *x)
{
    struct entry **p = &c->bucket[slot(c, x->channel)];
    while (*p != x)
        p = &(*p)->hnext;
    *p = x->hnext;
    list_unlink(c, x);
    c->count--;
    c->bytes -= x->cost;
    enc_free(x->e);
    free(x);
}

void enc_cache_free(struct enc_cache *c)
{
    if (c == NULL)
        return;
    enc_cache_clear(c);
    free(c->bucket);
    free(c);
}

const struct encounter *enc_cache_get(struct enc_cache *c, uint64_t channel,
                                      int64_t now_ms)
{
    struct entry *x = find(c, channel);
    if (x == NULL)
        return NULL;
    x->used_ms = now_ms;
    if (c->head != x) {
        list_unlink(c, x);
        list_push(c, x);
    }
    return x->e;
}

void enc_cache_put(struct enc_cache *c, uint64_t channel,
                   struct encounter *e, int64_t now_ms)
{
    enc_cache_drop(c, channel);
    size_t cost = enc_cache_cost(e);
    if (cost > c->max_bytes) {
        enc_free(e);
        return;
    }
    while (c->tail != NULL &&
           (c->count + 1 > c->max_entries || c->bytes + cost > c->max_bytes))
        remove_entry(c, c->tail);
    struct entry *x = malloc(sizeof *x);
    if (x == NULL) {
        enc_free(e);        /* the next command decodes it again */
        return;
    }
    *x = (struct entry){.channel = channel, .e = e, .cost = cost,
                        .used_ms = now_ms};
    size_t b = slot(c, channel);
    x->hnext = c->bucket[b];
    c->bucket[b] = x;
    list_push(c, x);
    c->count++;
    c->bytes += cost;
}

void enc_cache_drop(struct enc_cache *c, uint64_t channel)
{
    struct entry *x = find(c, channel);
    if (x != NULL)
        remove_entry(c, x);
}

void enc_cache_clear(struct enc_cache *c)
{
    while (c->tail != NULL)
        remove_entry(c, c->tail);
}

size_t enc_cache_expire(struct enc_cache *c, int64_t now_ms)
{
    size_t n = 0;
    while (c->tail != NULL && c->tail->used_ms < now_ms - ENC_CACHE_IDLE_MS) {
        remove_entry(c, c->tail);
        n++;
    }
    return n;
}

size_t enc_cache_count(const struct enc_cache *c)
{
    return c->count;
}

size_t enc_cache_bytes(const struct enc_cache *c)
{
    return c->bytes;
}
