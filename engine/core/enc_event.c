/*
 * enc_event.c - results: events, rolls and their arena (enc_event.h).
 *
 * The arena is a list of chunks freed together, like a per-request pool:
 * a command's sentences, rolls and modifiers die with its result, so the
 * rulesets never free anything they record.
 */
#include "enc_event.h"

#include "dice.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"
#include "eng_text.h"

/* First chunk size: a typical command fits in one. */
#define ARENA_CHUNK 4096

struct enc_arena_chunk {
    struct enc_arena_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

void enc_result_init(struct enc_result *r)
{
    r->nev = 0;
    r->nrolls = 0;
    r->truncated = false;
    r->nomem = false;
    r->arena = NULL;
    r->arena_bytes = 0;
}

void enc_result_cleanup(struct enc_result *r)
{
    struct enc_arena_chunk *c = r->arena;
    while (c != NULL) {
        struct enc_arena_chunk *next = c->next;
        eng_free(c);
        c = next;
    }
    r->arena = NULL;
    r->arena_bytes = 0;
}

void enc_result_reset(struct enc_result *r)
{
    enc_result_cleanup(r);
    enc_result_init(r);
}

void *enc_result_alloc(struct enc_result *r, size_t n)
{
    const size_t align = sizeof(max_align_t);
    n = (n + align - 1) / align * align;
    struct enc_arena_chunk *c = r->arena;
    if (c == NULL || c->cap - c->used < n) {
        size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
        if (c != NULL && cap < c->cap * 2)
            cap = c->cap * 2;      /* fewer chunks for a busy command */
        if (r->arena_bytes + cap > ENC_MAX_RESULT_BYTES) {
            cap = n;
            if (r->arena_bytes + cap > ENC_MAX_RESULT_BYTES) {
                r->truncated = true;
                return NULL;
            }
        }
        c = eng_malloc(sizeof *c + cap);
        if (c == NULL) {
            r->nomem = true;
            return NULL;
        }
        c->next = r->arena;
        c->used = 0;
        c->cap = cap;
        r->arena = c;
        r->arena_bytes += cap;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

const char *enc_result_strdup(struct enc_result *r, const char *s, size_t max)
{
    if (s == NULL)
        return "";
    size_t n = strnlen(s, max);
    char *d = enc_result_alloc(r, n + 1);
    if (d == NULL)
        return "";
    eng_text_copy(d, n + 1, s);
    return d;
}

struct enc_event *enc_emit(struct enc_result *r, enum enc_ev kind,
                           uint32_t who)
{
    struct enc_event *ev;
    if (r->nev >= ENC_MAX_EVENTS) {
        /* Keep writing into the last slot so callers need no check; the
         * renderer says that some events were left out. */
        r->truncated = true;
        ev = &r->ev[ENC_MAX_EVENTS - 1];
    } else {
        ev = &r->ev[r->nev++];
    }
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->who = who;
    return ev;
}

void enc_event_text(struct enc_result *r, struct enc_event *ev,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *s = enc_result_alloc(r, (size_t)n + 1);
    if (s == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    ev->text = s;
}

/* Grow an arena array of elem-sized items by one; the old block stays in
 * the arena (freed with it). Returns the new slot or NULL. */
static void *grow(struct enc_result *r, const void **arr, int *n, int max,
                  size_t elem)
{
    if (*n >= max) {
        r->truncated = true;
        return NULL;
    }
    char *p = enc_result_alloc(r, elem * (size_t)(*n + 1));
    if (p == NULL)
        return NULL;
    if (*n > 0)
        memcpy(p, *arr, elem * (size_t)*n);
    *arr = p;
    return p + elem * (size_t)(*n)++;
}

void enc_event_roll(struct enc_result *r, struct enc_event *ev, int idx)
{
    if (idx < 0 || idx >= r->nrolls)
        return;
    for (int i = 0; i < ev->nrolls; i++)
        if (ev->rolls[i] == idx)
            return;
    int *slot = grow(r, (const void **)&ev->rolls, &ev->nrolls,
                     ENC_MAX_EVENT_ROLLS, sizeof *slot);
    if (slot != NULL)
        *slot = idx;
}

struct enc_mod *enc_event_mod(struct enc_result *r, struct enc_event *ev,
                              const char *reason, int64_t amount,
                              bool has_amount, const char *unit, bool secret)
{
    struct enc_mod *m = grow(r, (const void **)&ev->mods, &ev->nmods,
                             ENC_MAX_MODS, sizeof *m);
    if (m == NULL)
        return NULL;
    m->reason_t = NULL;
    m->unit_one = NULL;
    m->unit_other = NULL;
    m->reason = enc_result_strdup(r, reason, 200);
    m->amount = amount;
    m->has_amount = has_amount;
    m->unit = enc_result_strdup(r, unit ? unit : "", 32);
    m->secret = secret;
    return m;
}

void enc_event_cmp(struct enc_result *r, struct enc_event *ev, int64_t value,
                   bool value_secret, int64_t target, bool target_secret,
                   const char *outcome)
{
    ev->has_cmp = true;
    ev->value = value;
    ev->value_secret = value_secret;
    ev->target = target;
    ev->target_secret = target_secret;
    if (outcome != NULL)
        ev->outcome = enc_result_strdup(r, outcome, 200);
}

int enc_tmpl_hole(const char *p, int *next, const char **end)
{
    int idx = -1;
    const char *q = p + 1;
    if (*q == '}') {
        idx = (*next)++;
    } else {
        int n = 0;
        while (*q >= '0' && *q <= '9' && n <= ENC_MAX_PARTS)
            n = n * 10 + (*q++ - '0');
        if (*q == '}' && n > 0)
            idx = n - 1;
    }
    *end = q + 1;
    return idx;
}

/* Append s[0..n) to out (len bytes so far), as much as fits in
 * ENC_MAX_TMPL_TEXT; a cut is made on a UTF-8 boundary. */
static void tmpl_put(char *out, size_t *len, const char *s, size_t n)
{
    if (n > ENC_MAX_TMPL_TEXT - *len) {
        n = ENC_MAX_TMPL_TEXT - *len;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(out + *len, s, n);
    *len += n;
}

const struct enc_tmpl *enc_tmpl_make(struct enc_result *r, const char *fmt,
                                     const struct enc_part *args, int nargs,
                                     const char **english)
{
    return enc_tmpl_make_n(r, fmt, NULL, 1, args, nargs, english);
}

const struct enc_tmpl *enc_tmpl_make_n(struct enc_result *r,
                                       const char *one, const char *other,
                                       int64_t count,
                                       const struct enc_part *args,
                                       int nargs, const char **english)
{
    const char *fmt = other != NULL && count != 1 ? other : one;
    *english = "";
    if (nargs < 0 || nargs > ENC_MAX_PARTS)
        nargs = nargs < 0 ? 0 : ENC_MAX_PARTS;
    struct enc_tmpl *t = enc_result_alloc(r, sizeof *t);
    struct enc_part *a = nargs > 0
                             ? enc_result_alloc(r, sizeof *a * (size_t)nargs)
                             : NULL;
    if (t == NULL || (nargs > 0 && a == NULL))
        return NULL;
    char out[ENC_MAX_TMPL_TEXT + 1];
    size_t len = 0;
    int next = 0;
    const char *run = fmt;
    for (const char *p = fmt; (p = strchr(p, '{')) != NULL;) {
        const char *end;
        int idx = enc_tmpl_hole(p, &next, &end);
        if (idx < 0) {
            p++;             /* a brace of the text itself */
            continue;
        }
        tmpl_put(out, &len, run, (size_t)(p - run));
        if (idx < nargs) {
            const struct enc_part *g = &args[idx];
            char num[24];
            const char *w = g->s != NULL ? g->s : "";
            if (g->kind == ENC_PART_NUM) {
                snprintf(num, sizeof num, "%lld", (long long)g->n);
                w = num;
            }
            tmpl_put(out, &len, w, strlen(w));
        }
        p = end;
        run = p;
    }
    tmpl_put(out, &len, run, strlen(run));
    out[len] = '\0';
    for (int i = 0; i < nargs; i++) {
        a[i] = args[i];
        if (args[i].s != NULL)
            a[i].s = enc_result_strdup(r, args[i].s, ENC_MAX_TMPL_TEXT);
    }
    /* Copied, as a sentence's: a template may be built or borrowed. */
    t->fmt = enc_result_strdup(r, one, ENC_MAX_TMPL_FMT);
    t->fmt_other = other != NULL ? enc_result_strdup(r, other,
                                                     ENC_MAX_TMPL_FMT)
                                 : NULL;
    t->count = count;
    t->args = a;
    t->nargs = nargs;
    *english = enc_result_strdup(r, out, ENC_MAX_TMPL_TEXT);
    return t;
}

void enc_event_parts(struct enc_result *r, struct enc_event *ev,
                     const struct enc_part *parts, int n)
{
    for (int i = 0; i < n; i++) {
        struct enc_part *p = grow(r, (const void **)&ev->parts, &ev->nparts,
                                  ENC_MAX_PARTS, sizeof *p);
        if (p == NULL)
            return;
        *p = parts[i];
        if (parts[i].s != NULL)
            p->s = enc_result_strdup(r, parts[i].s, 4096);
    }
}

void enc_event_part_arena(struct enc_result *r, struct enc_event *ev,
                          const struct enc_part *part)
{
    struct enc_part *p = grow(r, (const void **)&ev->parts, &ev->nparts,
                              ENC_MAX_PARTS, sizeof *p);
    if (p != NULL)
        *p = *part;
}

int enc_add_roll(struct enc_result *r, const char *label, const char *expr,
                 size_t expr_len, const struct dice_result *res, bool secret)
{
    if (r->nrolls >= ENC_MAX_ROLLS) {
        r->truncated = true;
        return -1;
    }
    struct enc_roll *x = &r->rolls[r->nrolls];
    memset(x, 0, sizeof *x);
    x->label = enc_result_strdup(r, label, 200);
    char *e = enc_result_alloc(r, expr_len + 1);
    if (e == NULL)
        return -1;
    memcpy(e, expr, expr_len);
    e[expr_len] = '\0';
    x->expr = e;
    x->total = res->total;
    x->secret = secret;
    if (res->n_groups > 0) {
        struct enc_term *t = enc_result_alloc(r, sizeof *t *
                                                     res->n_groups);
        if (t == NULL)
            return -1;
        for (int g = 0; g < res->n_groups; g++) {
            const struct dice_group *grp = &res->groups[g];
            /* Positions relative to the expression kept, not the source
             * (which may start with a repeat prefix). */
            t[g] = (struct enc_term){
                .pos = (uint16_t)(grp->pos >= res->expr_pos
                                      ? grp->pos - res->expr_pos : 0),
                .len = grp->len,
                .first = grp->first,
                .count = grp->count,
                .sides = grp->sides,
                .fudge = grp->fudge,
                .counting = grp->counting,
                .subtotal = grp->subtotal,
            };
        }
        x->terms = t;
        x->nterms = res->n_groups;
    }
    if (res->n_dice > 0) {
        struct dice_die *d = enc_result_alloc(r, sizeof *d * res->n_dice);
        if (d == NULL)
            return -1;
        memcpy(d, res->dice, sizeof *d * res->n_dice);
        x->dice = d;
        x->ndice = res->n_dice;
    }
    return r->nrolls++;
}

int enc_add_plain_roll(struct enc_result *r, const char *label,
                       int64_t total, bool secret)
{
    if (r->nrolls >= ENC_MAX_ROLLS) {
        r->truncated = true;
        return -1;
    }
    struct enc_roll *x = &r->rolls[r->nrolls];
    memset(x, 0, sizeof *x);
    x->label = enc_result_strdup(r, label, 200);
    x->expr = "";
    x->total = total;
    x->secret = secret;
    return r->nrolls++;
}

__attribute__((format(printf, 4, 0)))
static void diag_format(struct enc_diag *d, char *buf, size_t n,
                        const char *fmt, va_list ap)
{
    int len = vsnprintf(buf, n, fmt, ap);
    if (len < 0 || (size_t)len >= n)
        d->cut = true;
}

/* fmt in the reader's language (d's translator), or fmt itself. The
 * attribute tells the compiler the result is fmt's own format, checked at
 * the call as the literal it is. */
__attribute__((format_arg(2)))
static const char *diag_tr(const struct enc_diag *d, const char *fmt)
{
    return d->tr != NULL ? d->tr(d->tr_ctx, fmt) : fmt;
}

enum eng_err enc_fail(struct enc_diag *d, enum eng_err code, const char *fmt,
                      ...)
{
    if (d != NULL) {
        va_list ap;
        va_start(ap, fmt);
        diag_format(d, d->msg, sizeof d->msg, diag_tr(d, fmt), ap);
        va_end(ap);
        d->code = code;
        d->hint[0] = '\0';
    }
    return code;
}

void enc_hint(struct enc_diag *d, const char *fmt, ...)
{
    if (d == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    diag_format(d, d->hint, sizeof d->hint, diag_tr(d, fmt), ap);
    va_end(ap);
}

const char *enc_diag_word(const struct enc_diag *d, const char *s)
{
    return d != NULL && d->tr != NULL && s != NULL ? d->tr(d->tr_ctx, s) : s;
}

void enc_diag_dice(const struct enc_diag *d, struct dice_diag *dd)
{
    dd->tr = d != NULL ? d->tr : NULL;
    dd->tr_ctx = d != NULL ? d->tr_ctx : NULL;
}
