/*
 * store_sqlite_live.c - what the SQLite backend's last saves wrote, so the
 * next save over the same channel reads neither the encounter row nor the
 * old live document back, and its history line is counted without reading
 * the count back (store_sqlite_int.h).
 *
 * The file lock makes this process the database's only writer, and every
 * write of this backend goes through this connection, so a slot stays true
 * until something here changes or undoes the rows: a rollback of the level
 * it was written at or an outer one (store_sq_live_level_end; a read-only
 * command's rollback leaves the others' slots), a failed save or commit,
 * an archive, a reopen, an import, a prune. Those drop every slot
 * (store_sq_live_drop): dropping costs two reads at the next save, keeping
 * a wrong slot would corrupt the undo chain. A slot's history count is
 * forgotten also when a fold rewrites a fight's count or the server of a
 * fight changes (store_sq_live_hist_forget): one read at the next line.
 */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite_int.h"

/* Channels are snowflakes: their low bits are a per-process counter and
 * spread well enough over a handful of slots. */
static struct store_sq_live *slot_of(struct store_sqlite *s, uint64_t channel)
{
    return &s->live[channel % STORE_SQ_LIVE_SLOTS];
}

const struct store_sq_live *store_sq_live_find(struct store_sqlite *s,
                                               uint64_t channel)
{
    const struct store_sq_live *c = slot_of(s, channel);
    return c->valid && c->channel == channel ? c : NULL;
}

void store_sq_live_put(struct store_sqlite *s, uint64_t channel, int64_t id,
                       int64_t version, const struct undo_chain *undo,
                       int pending, const char *doc, size_t len)
{
    struct store_sq_live *c = slot_of(s, channel);
    /* A save leaves the history's count as it was. */
    bool same = c->valid && c->channel == channel && c->id == id;
    c->hist_known &= same;
    c->valid = false;
    if (len > STORE_SQ_LIVE_MAX_DOC)
        return;
    if (len + 1 > c->cap) {
        /* Out of memory only costs the reads this slot would save. */
        char *p = realloc(c->doc, len + 1);
        if (p == NULL)
            return;
        c->doc = p;
        c->cap = len + 1;
    }
    memcpy(c->doc, doc, len + 1);
    c->len = len;
    c->channel = channel;
    c->id = id;
    c->version = version;
    c->undo = *undo;
    c->pending = pending;
    c->depth = s->depth;
    c->valid = true;
}

void store_sq_live_hist(struct store_sqlite *s, uint64_t channel,
                        const struct store_hist_row *row)
{
    struct store_sq_live *c = slot_of(s, channel);
    if (!c->valid || c->channel != channel || c->id != row->id)
        return;
    c->hist = *row;
    c->hist_known = true;
    /* the count is now this level's too: rolling it back forgets it */
    if (c->depth < s->depth)
        c->depth = s->depth;
}

void store_sq_live_hist_add(struct store_sqlite *s, uint64_t channel,
                            int64_t bytes)
{
    struct store_sq_live *c = slot_of(s, channel);
    if (!c->valid || c->channel != channel || !c->hist_known)
        return;
    c->hist.bytes += bytes;
    c->hist.lines++;
}

void store_sq_live_hist_forget(struct store_sqlite *s, int64_t id)
{
    for (size_t i = 0; i < STORE_SQ_LIVE_SLOTS; i++)
        if (id == 0 || s->live[i].id == id)
            s->live[i].hist_known = false;
}

void store_sq_live_drop(struct store_sqlite *s)
{
    for (size_t i = 0; i < STORE_SQ_LIVE_SLOTS; i++)
        s->live[i].valid = false;
}

void store_sq_live_level_end(struct store_sqlite *s, int depth, bool commit)
{
    for (size_t i = 0; i < STORE_SQ_LIVE_SLOTS; i++) {
        struct store_sq_live *c = &s->live[i];
        if (!c->valid || c->depth < depth)
            continue;
        if (commit)
            c->depth = depth - 1;
        else
            c->valid = false;
    }
}

int64_t store_sq_kept_floor(const struct undo_chain *undo, int64_t live)
{
    return undo->n > 0 ? undo->v[undo->n - 1] : live;
}

void store_sq_live_free(struct store_sqlite *s)
{
    for (size_t i = 0; i < STORE_SQ_LIVE_SLOTS; i++) {
        free(s->live[i].doc);
        s->live[i] = (struct store_sq_live){0};
    }
}
