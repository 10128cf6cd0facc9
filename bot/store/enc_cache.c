/*
 * enc_cache.c - a bounded LRU of packed encounters keyed by channel.
 *
 * A chained hash table for lookup plus one doubly linked list in order of
 * use (head = most recent), so eviction and idle expiry both take from the
 * tail without scanning.
 *
 * The encounter last put stays unpacked (hot): the channel that just ran a
 * command is the likeliest to run the next, which then costs one
 * enc_clone() as before packing. Putting another channel's encounter packs
 * the hot one into the scratch buffer the cache keeps (one pass; it grows
 * for a fight that does not fit) and copies the result into a block of its
 * exact size.
 */
#include "enc_cache.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    uint64_t channel;
    struct enc_pack *p;           /* packed, or NULL when hot */
    struct encounter *hot;        /* unpacked (c->hot is this entry) */
    size_t cost;                  /* counted in bytes: 0 while hot */
    int64_t used_ms;
    struct entry *hnext;          /* bucket chain */
    struct entry *prev, *next;    /* use order */
};

struct enc_cache {
    struct entry **bucket;
    size_t nbuckets;              /* a power of two */
    struct entry *head, *tail;
    struct entry *hot;            /* the entry kept unpacked, or NULL */
    struct enc_json_doc doc;      /* hot's document; text NULL: unknown */
    size_t count, bytes;
    size_t max_entries, max_bytes;
    unsigned char *scratch;       /* where packing writes first */
    size_t scratch_cap;
};

/* The scratch buffer's first size: more than a packed 8-combatant fight
 * (about 2 KB). */
#define SCRATCH_START (16u << 10)

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
    return enc_pack_to(e, NULL, 0) + sizeof(struct entry);
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
    if (c->hot == x) {
        c->hot = NULL;
        enc_json_doc_free(&c->doc);
    }
    c->count--;
    c->bytes -= x->cost;
    free(x->p);
    enc_free(x->hot);
    free(x);
}

/* Pack the hot entry, if any; dropped when that fails (no memory) or when
 * it alone is over the byte budget. */
static void cool(struct enc_cache *c)
{
    struct entry *x = c->hot;
    if (x == NULL)
        return;
    c->hot = NULL;
    enc_json_doc_free(&c->doc);
    size_t n = enc_pack_to(x->hot, c->scratch, c->scratch_cap);
    if (n > c->scratch_cap) {
        size_t cap = c->scratch_cap ? c->scratch_cap : SCRATCH_START;
        while (cap < n)
            cap *= 2;
        unsigned char *s = realloc(c->scratch, cap);
        if (s == NULL) {
            remove_entry(c, x);
            return;
        }
        c->scratch = s;
        c->scratch_cap = cap;
        enc_pack_to(x->hot, c->scratch, c->scratch_cap);
    }
    size_t cost = n + sizeof *x;
    x->p = cost <= c->max_bytes ? malloc(n) : NULL;
    if (x->p == NULL) {
        remove_entry(c, x);
        return;
    }
    memcpy(x->p, c->scratch, n);
    enc_free(x->hot);
    x->hot = NULL;
    x->cost = cost;
    c->bytes += cost;
}

void enc_cache_free(struct enc_cache *c)
{
    if (c == NULL)
        return;
    enc_cache_clear(c);
    free(c->scratch);
    free(c->bucket);
    free(c);
}

/* channel's entry, marked used at now_ms, or NULL. */
static struct entry *touch(struct enc_cache *c, uint64_t channel,
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
    return x;
}

bool enc_cache_version(struct enc_cache *c, uint64_t channel, int64_t now_ms,
                       int64_t *version)
{
    const struct entry *x = touch(c, channel, now_ms);
    if (x == NULL)
        return false;
    *version = x->hot != NULL ? x->hot->version : enc_pack_version(x->p);
    return true;
}

enum bot_err enc_cache_copy(struct enc_cache *c, uint64_t channel,
                            int64_t now_ms, struct encounter **out)
{
    *out = NULL;
    const struct entry *x = touch(c, channel, now_ms);
    if (x == NULL)
        return BOT_OK;
    *out = x->hot != NULL ? enc_clone(x->hot) : enc_unpack(x->p);
    return *out != NULL ? BOT_OK : BOT_NOMEM;
}

void enc_cache_put(struct enc_cache *c, uint64_t channel,
                   struct encounter *e, int64_t now_ms)
{
    if (e == NULL)
        return;
    struct entry *x = find(c, channel);
    if (x != NULL && x != c->hot) {
        remove_entry(c, x);
        x = NULL;
    }
    if (x == NULL) {
        cool(c);
        x = malloc(sizeof *x);
        if (x == NULL) {
            enc_free(e);        /* the next command decodes it again */
            return;
        }
        *x = (struct entry){.channel = channel};
        size_t b = slot(c, channel);
        x->hnext = c->bucket[b];
        c->bucket[b] = x;
        list_push(c, x);
        c->count++;
        c->hot = x;
    }
    enc_free(x->hot);
    x->hot = e;
    enc_json_doc_free(&c->doc); /* e's own comes with enc_cache_keep_doc */
    x->used_ms = now_ms;
    if (c->head != x) {
        list_unlink(c, x);
        list_push(c, x);
    }
    /* Evict from the tail; x is at the head. */
    while (c->tail != x &&
           (c->count > c->max_entries || c->bytes > c->max_bytes))
        remove_entry(c, c->tail);
}

void enc_cache_keep_doc(struct enc_cache *c, uint64_t channel,
                        struct enc_json_doc *doc)
{
    const struct entry *x = c->hot;
    if (x == NULL || x->channel != channel || doc->text == NULL ||
        doc->version != x->hot->version || doc->ncs != x->hot->ncs)
        return;
    enc_json_doc_free(&c->doc);
    c->doc = *doc;
    doc->text = NULL;
    enc_json_doc_free(doc);
}

const struct encounter *enc_cache_hot_doc(const struct enc_cache *c,
                                          uint64_t channel,
                                          const struct enc_json_doc **doc)
{
    const struct entry *x = c->hot;
    *doc = NULL;
    if (x == NULL || x->channel != channel || c->doc.text == NULL)
        return NULL;
    *doc = &c->doc;
    return x->hot;
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
