/*
 * store_bound.c - the bounds on a fight's history (store.h "bounds on a
 * fight's history"): counting each line as it is added, and folding the
 * oldest lines of a fight into one summary line when the fight or its
 * server passes its bound. The rules are here, once; the backends only
 * count, list sizes, delete and insert (store_backend.h, hist_* ops).
 */
#include <stdio.h>
#include <string.h>

#include "store_backend.h"

/* What a fold keeps, newest lines first, and where it cuts. */
struct fold_plan {
    int64_t keep_bytes;      /* at most this many bytes kept ... */
    int64_t keep_lines;      /* ... in at most this many lines */
    int64_t min_lines;       /* but at least these newest lines */
    int64_t kept_bytes, kept_lines;
    int64_t upto;            /* the newest line folded; 0: none yet */
    int64_t upto_at;         /* its time, the summary's */
    int64_t folded;          /* lines folded */
};

int64_t store__change_bytes(const struct store_change_rec *r)
{
    const char *p[4] = {r->text, r->detail, r->gm_detail, r->by_name};
    int64_t n = 0;
    for (int i = 0; i < 4; i++)
        n += p[i] != NULL ? (int64_t)strlen(p[i]) : 0;
    return n;
}

void store__hist_of_rec(const struct store_enc_rec *r,
                        struct store_hist_row *out)
{
    *out = (struct store_hist_row){.lines = (int64_t)r->nchange};
    for (size_t i = 0; i < r->nchange; i++)
        out->bytes += store__change_bytes(&r->change[i]);
    const struct store_change_rec *first = r->nchange > 0 ? &r->change[0]
                                                           : NULL;
    if (first != NULL && first->by == 0 && first->by_name != NULL &&
        strcmp(first->by_name, STORE_FOLD_BY) == 0)
        out->folded_to = first->version;
}

void store_hist_set_bounds(struct store *s, const struct store_hist_bounds *b)
{
    struct store_hist_bounds v = b != NULL ? *b : (struct store_hist_bounds){0};
    if (v.fight_bytes <= 0)
        v.fight_bytes = STORE_HIST_FIGHT_BYTES;
    if (v.fight_lines <= 0)
        v.fight_lines = STORE_HIST_FIGHT_LINES;
    if (v.server_bytes <= 0)
        v.server_bytes = STORE_HIST_SERVER_BYTES;
    if (v.fight_bytes < STORE_HIST_MIN_BYTES)
        v.fight_bytes = STORE_HIST_MIN_BYTES;
    if (v.fight_lines < STORE_HIST_MIN_LINES)
        v.fight_lines = STORE_HIST_MIN_LINES;
    if (v.server_bytes < STORE_HIST_MIN_BYTES)
        v.server_bytes = STORE_HIST_MIN_BYTES;
    s->hist = v;
}

void store_hist_last_fold(const struct store *s, struct store_fold *out)
{
    *out = s->fold;
}

enum bot_err store_hist_info(struct store *s, uint64_t channel,
                             struct store_hist_info *out)
{
    struct store_hist_row row = {0};
    enum bot_err e = s->ops->hist_info(s, channel, &row);
    if (e == BOT_OK)
        *out = (struct store_hist_info){row.bytes, row.lines, row.folded_to};
    return e;
}

/* The summary line's own size, kept free below the bound it keeps. */
#define FOLD_SUMMARY_ROOM 512

static enum bot_err plan_line(void *ctx, int64_t version, int64_t at_ms,
                              int64_t bytes)
{
    struct fold_plan *p = ctx;
    if (p->upto == 0 &&
        (p->kept_lines < p->min_lines ||
         (p->kept_lines + 1 < p->keep_lines &&
          p->kept_bytes + bytes + FOLD_SUMMARY_ROOM <= p->keep_bytes))) {
        p->kept_lines++;
        p->kept_bytes += bytes;
        return BOT_OK;
    }
    if (p->upto == 0) {
        p->upto = version;
        p->upto_at = at_ms;
    }
    p->folded++;
    return BOT_OK;
}

/* The oldest lines that go, oldest first: the last one read is the
 * newest folded; the kept bytes are what the count has besides them. */
static enum bot_err drop_line(void *ctx, int64_t version, int64_t at_ms,
                              int64_t bytes)
{
    struct fold_plan *p = ctx;
    p->upto = version;
    p->upto_at = at_ms;
    p->folded++;
    p->kept_bytes -= bytes;
    return BOT_OK;
}

/* Plan p over `row`'s lines. When all of them fit in the bytes kept, the
 * cut is by count alone and only the lines that go are read, oldest
 * first (a fight that passed its lines' bound: 500 lines read instead of
 * 2,000); else every line, newest first, until the bytes are spent. */
static enum bot_err plan(struct store *s, const struct store_hist_row *row,
                         struct fold_plan *p)
{
    if (row->bytes + FOLD_SUMMARY_ROOM > p->keep_bytes)
        return s->ops->hist_sizes(s, row->id, 0, plan_line, p);
    int64_t keep = p->keep_lines - 1 > p->min_lines ? p->keep_lines - 1
                                                    : p->min_lines;
    if (row->lines <= keep)
        return BOT_OK;
    p->kept_lines = keep;
    p->kept_bytes = row->bytes;
    return s->ops->hist_sizes(s, row->id, row->lines - keep, drop_line, p);
}

/* Fold the oldest lines of `row`'s fight as plan p allows; p->upto 0
 * after it: nothing went. */
static enum bot_err fold(struct store *s, const struct store_hist_row *row,
                         struct fold_plan *p, enum store_fold_why why)
{
    enum bot_err e = plan(s, row, p);
    if (e != BOT_OK || p->upto == 0)
        return e;
    char text[STORE_MAX_CHANGE_TEXT];
    if (why == STORE_FOLD_FIGHT)
        snprintf(text, sizeof text, STORE_FOLD_FIGHT_TEXT, (long long)p->upto,
                 (long long)(s->hist.fight_bytes / 1024),
                 (long long)s->hist.fight_lines);
    else
        snprintf(text, sizeof text, STORE_FOLD_SERVER_TEXT,
                 (long long)p->upto,
                 (long long)(s->hist.server_bytes >> 20));
    struct store_change_rec sum = {
        .version = p->upto, .by = 0, .at_ms = p->upto_at, .secret = false,
        .text = text, .detail = "", .gm_detail = "", .by_name = STORE_FOLD_BY,
    };
    return s->ops->hist_fold(s, row->id, p->upto, &sum,
                             p->kept_bytes + store__change_bytes(&sum),
                             p->kept_lines + 1);
}

static void note_fold(struct store *s, const struct store_hist_row *row,
                      uint64_t channel, const struct fold_plan *p,
                      enum store_fold_why why)
{
    s->fold = (struct store_fold){
        .why = why, .this_fight = row->live && row->channel == channel,
        .upto = p->upto, .lines = p->folded,
        .limit = why == STORE_FOLD_FIGHT ? s->hist.fight_bytes
                                         : s->hist.server_bytes,
        .limit_lines = why == STORE_FOLD_FIGHT ? s->hist.fight_lines : 0,
    };
}

/* The server's bound, checked when the fight's count crossed a step. */
static enum bot_err server_bound(struct store *s, uint64_t channel,
                                 const struct store_hist_row *row,
                                 int64_t added)
{
    if (row->guild == 0 ||
        (row->bytes - added) / STORE_HIST_SERVER_STEP ==
            row->bytes / STORE_HIST_SERVER_STEP)
        return BOT_OK;
    int64_t total = 0;
    struct store_hist_row most = {0};
    enum bot_err e = s->ops->hist_server(s, row->guild, &total, &most);
    if (e != BOT_OK || total <= s->hist.server_bytes || most.id == 0)
        return e;
    int64_t target = s->hist.server_bytes / 100 * STORE_FOLD_KEEP_PCT;
    int64_t keep = most.bytes - (total - target);
    bool current = most.live && most.channel == channel;
    struct fold_plan p = {
        .keep_bytes = keep > 0 ? keep : 0, .keep_lines = INT64_MAX,
        /* the change just made stays, whatever else goes */
        .min_lines = current ? 1 : 0,
    };
    e = fold(s, &most, &p, STORE_FOLD_SERVER);
    if (e == BOT_OK && p.upto != 0)
        note_fold(s, &most, channel, &p, STORE_FOLD_SERVER);
    return e;
}

enum bot_err store__hist_bound(struct store *s, uint64_t channel,
                               const struct store_change_rec *r)
{
    s->fold = (struct store_fold){0};
    struct store_hist_row row = {0};
    int64_t added = store__change_bytes(r);
    enum bot_err e = s->ops->hist_note(s, channel, added, &row);
    return e != BOT_OK ? e : store__hist_bound_row(s, channel, &row, added);
}

enum bot_err store__hist_bound_row(struct store *s, uint64_t channel,
                                   const struct store_hist_row *rowp,
                                   int64_t added)
{
    struct store_hist_row row = *rowp;
    enum bot_err e = BOT_OK;
    s->fold = (struct store_fold){0};
    if (row.bytes > s->hist.fight_bytes || row.lines > s->hist.fight_lines) {
        struct fold_plan p = {
            .keep_bytes = s->hist.fight_bytes / 100 * STORE_FOLD_KEEP_PCT,
            .keep_lines = s->hist.fight_lines / 100 * STORE_FOLD_KEEP_PCT,
            .min_lines = 1,
        };
        e = fold(s, &row, &p, STORE_FOLD_FIGHT);
        if (e != BOT_OK)
            return e;
        if (p.upto != 0) {
            note_fold(s, &row, channel, &p, STORE_FOLD_FIGHT);
            return BOT_OK;
        }
    }
    return server_bound(s, channel, &row, added);
}
