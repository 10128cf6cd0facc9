/*
 * enc.c - the encounter model: combatants, stats, tracks, conditions.
 */
#include "enc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "enc_cd.h"
#include "eng_alloc.h"
#include "eng_policy.h"
#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"

/* ---- small helpers ------------------------------------------------------- */

bool enc_name_eq(const char *a, const char *b)
{
    return eng_text_casecmp(a, b) == 0;
}

void enc_copy(char *dst, size_t n, const char *src)
{
    eng_text_copy(dst, n, src);
}

/* ---- lifecycle ----------------------------------------------------------- */

/* A zeroed state block of the ruleset for one holder, or NULL (none
 * declared, or no memory: *ok says which). */
static void *state_new(const struct rs_state_spec *sp, bool *ok)
{
    *ok = true;
    if (sp->size == 0)
        return NULL;
    void *p = eng_calloc(1, sp->size);
    if (p == NULL)
        *ok = false;
    return p;
}

static void *state_dup(const struct rs_state_spec *sp, const void *src,
                       bool *ok)
{
    *ok = true;
    if (src == NULL || sp->size == 0)
        return NULL;
    void *p = eng_malloc(sp->size);
    if (p == NULL) {
        *ok = false;
        return NULL;
    }
    memcpy(p, src, sp->size);
    return p;
}

struct encounter *enc_new(const struct rs_system *sys, const char *name,
                          uint64_t gm)
{
    struct encounter *e = eng_calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    bool ok;
    e->st = state_new(&sys->enc_state, &ok);
    if (!ok) {
        eng_free(e);
        return NULL;
    }
    e->sys = sys;
    enc_copy(e->ruleset, sizeof e->ruleset, sys->id);
    enc_copy(e->name, sizeof e->name, name ? name : "");
    e->gm = gm;
    e->status = ENC_ST_SETUP;
    e->acting_side = -1;
    e->turn_idx = -1;
    e->notices = true;
    e->next_id = 1;
    e->next_join = 1;
    return e;
}

void enc_free(struct encounter *e)
{
    if (e == NULL)
        return;
    for (int i = 0; i < e->ncs; i++)
        eng_free(e->cs[i].st);
    for (int i = 0; i < e->nsides; i++)
        eng_free(e->sides[i].st);
    eng_free(e->st);
    eng_free(e->cs);
    eng_free(e);
}

/* Copy a combatant's used part. Its fixed arrays are sized for the limits
 * and mostly empty, and copying them whole was most of a clone's cost (a
 * clone runs on every command); what lies past a count is never read.
 * enc.h's struct says which fields sit where this relies on. */
static void comb_copy(struct enc_combatant *d, const struct enc_combatant *s)
{
    memcpy(d, s, offsetof(struct enc_combatant, stats));
    memcpy(d->stats, s->stats, (size_t)s->nstats * sizeof s->stats[0]);
    d->nstats = s->nstats;
    memcpy(d->tracks, s->tracks, (size_t)s->ntracks * sizeof s->tracks[0]);
    d->ntracks = s->ntracks;
    memcpy(d->conds, s->conds, (size_t)s->nconds * sizeof s->conds[0]);
    d->nconds = s->nconds;
    memcpy(d->note, s->note, strlen(s->note) + 1);
    memcpy(d->attacks, s->attacks,
           (size_t)s->nattacks * sizeof s->attacks[0]);
    d->nattacks = s->nattacks;
    memcpy(d->res, s->res, (size_t)s->nres * sizeof s->res[0]);
    d->nres = s->nres;
    memcpy(&d->dealt, &s->dealt,
           sizeof *d - offsetof(struct enc_combatant, dealt));
}

/* Whether the used parts of a and b, the ones comb_copy() copies, hold
 * the same bytes, and their typed states too (sp's size). Bytes left
 * past a string's end count: a false "changed" costs a rewrite, never a
 * wrong one. */
bool enc_comb_same(const struct rs_state_spec *sp,
                   const struct enc_combatant *a,
                   const struct enc_combatant *b)
{
    if (a->nstats != b->nstats || a->ntracks != b->ntracks ||
        a->nconds != b->nconds || a->nattacks != b->nattacks ||
        a->nres != b->nres)
        return false;
    if (memcmp(a, b, offsetof(struct enc_combatant, stats)) != 0 ||
        memcmp(a->stats, b->stats, (size_t)a->nstats * sizeof a->stats[0]) ||
        memcmp(a->tracks, b->tracks,
               (size_t)a->ntracks * sizeof a->tracks[0]) ||
        memcmp(a->conds, b->conds, (size_t)a->nconds * sizeof a->conds[0]) ||
        strcmp(a->note, b->note) != 0 ||
        memcmp(a->attacks, b->attacks,
               (size_t)a->nattacks * sizeof a->attacks[0]) ||
        memcmp(a->res, b->res, (size_t)a->nres * sizeof a->res[0]) ||
        memcmp(&a->dealt, &b->dealt,
               offsetof(struct enc_combatant, st) -
                   offsetof(struct enc_combatant, dealt)))
        return false;
    if ((a->st == NULL) != (b->st == NULL))
        return false;
    return a->st == NULL || sp->size == 0 ||
           memcmp(a->st, b->st, sp->size) == 0;
}

/* The same for the encounter: its settings, events, countdowns and turn
 * order are sized for the limits and copied as far as they are used. */
static void enc_copy_used(struct encounter *d, const struct encounter *s)
{
    memcpy(d, s, offsetof(struct encounter, settings));
    memcpy(d->settings, s->settings,
           (size_t)s->nsettings * sizeof s->settings[0]);
    memcpy(&d->nsettings, &s->nsettings,
           offsetof(struct encounter, entries) -
               offsetof(struct encounter, nsettings));
    memcpy(d->entries, s->entries,
           (size_t)s->nentries * sizeof s->entries[0]);
    memcpy(&d->nentries, &s->nentries,
           offsetof(struct encounter, cds) -
               offsetof(struct encounter, nentries));
    memcpy(d->cds, s->cds, (size_t)s->ncds * sizeof s->cds[0]);
    memcpy(&d->ncds, &s->ncds,
           offsetof(struct encounter, order) -
               offsetof(struct encounter, ncds));
    memcpy(d->order, s->order, (size_t)s->norder * sizeof s->order[0]);
    memcpy(&d->norder, &s->norder,
           sizeof *d - offsetof(struct encounter, norder));
}

struct encounter *enc_clone(const struct encounter *e)
{
    struct encounter *c = eng_malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    enc_copy_used(c, e);
    /* Own nothing yet, so enc_free() is safe at every failure below. */
    c->cs = NULL;
    c->cs_cap = 0;
    c->ncs = 0;
    c->nsides = 0;
    c->st = NULL;
    bool ok = true;
    const struct rs_system *sys = e->sys;
    c->st = state_dup(&sys->enc_state, e->st, &ok);
    for (int i = 0; ok && i < e->nsides; i++) {
        c->sides[i].st = state_dup(&sys->side_state, e->sides[i].st, &ok);
        if (ok)
            c->nsides = i + 1;
    }
    if (ok && e->ncs > 0) {
        c->cs = eng_malloc((size_t)e->ncs * sizeof *c->cs);
        ok = c->cs != NULL;
        if (ok) {
            for (int i = 0; i < e->ncs; i++) {
                comb_copy(&c->cs[i], &e->cs[i]);
                c->cs[i].st = NULL;
            }
            c->cs_cap = e->ncs;
            for (int i = 0; ok && i < e->ncs; i++) {
                c->cs[i].st = state_dup(&sys->comb_state, e->cs[i].st, &ok);
                if (ok)
                    c->ncs = i + 1;
            }
        }
    }
    if (!ok || c->nsides != e->nsides || c->ncs != e->ncs) {
        enc_free(c);
        return NULL;
    }
    return c;
}

/* ---- lookup -------------------------------------------------------------- */

struct enc_combatant *enc_by_id(struct encounter *e, uint32_t id)
{
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].id == id)
            return &e->cs[i];
    return NULL;
}

const struct enc_combatant *enc_by_id_c(const struct encounter *e,
                                        uint32_t id)
{
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].id == id)
            return &e->cs[i];
    return NULL;
}

struct enc_combatant *enc_by_name(struct encounter *e, const char *name)
{
    for (int i = 0; i < e->ncs; i++)
        if (enc_name_eq(e->cs[i].name, name))
            return &e->cs[i];
    return NULL;
}

const struct enc_attack *enc_attack_find(const struct enc_combatant *c,
                                         const char *name)
{
    for (int i = 0; i < c->nattacks; i++)
        if (enc_name_eq(c->attacks[i].name, name))
            return &c->attacks[i];
    return NULL;
}

const char *enc_closest_name(const struct encounter *e, const char *name,
                             uint64_t viewer, bool all)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    size_t len = strlen(name);
    char head[ENC_MAX_NAME + 1];
    for (int i = 0; i < e->ncs; i++) {
        const struct enc_combatant *c = &e->cs[i];
        if (!all && c->hidden && !(c->owner != 0 && c->owner == viewer))
            continue;
        const char *cand = c->name;
        /* A prefix is the likeliest intent ("gob" for "Goblin 2"). */
        if (len > 0 && eng_text_ncasecmp(cand, name, len) == 0)
            return cand;
        /* Compare with the whole name and with its start, so a typo in
         * "Gobln" still finds "Goblin 1". */
        size_t dist = eng_text_distance(cand, name);
        size_t clen = strlen(cand);
        for (size_t k = len > 0 ? len - 1 : 0; k <= len + 1 && k < clen;
             k++) {
            memcpy(head, cand, k);
            head[k] = '\0';
            size_t d = eng_text_distance(head, name);
            if (d < dist)
                dist = d;
        }
        if (dist < best_d) {
            best_d = dist;
            best = cand;
        }
    }
    /* Only suggest what is plausibly a typo: at most a third wrong. */
    if (best != NULL && best_d * 3 <= len + 2)
        return best;
    return NULL;
}

int enc_side_find(const struct encounter *e, const char *name)
{
    for (int i = 0; i < e->nsides; i++)
        if (enc_name_eq(e->sides[i].name, name))
            return i;
    return -1;
}

int enc_side_get(struct encounter *e, const char *name, struct enc_diag *d)
{
    int i = enc_side_find(e, name);
    if (i >= 0)
        return i;
    if (enc_check_name(name, N_("side name"), ENC_MAX_SIDE_NAME, d) != ENG_OK)
        return -1;
    if (e->nsides >= ENC_MAX_SIDES) {
        enc_fail(d, ENG_LIMIT, "too many sides (limit is %d)", ENC_MAX_SIDES);
        return -1;
    }
    bool ok;
    void *st = state_new(&e->sys->side_state, &ok);
    if (!ok) {
        enc_fail(d, ENG_NOMEM, "out of memory");
        return -1;
    }
    struct enc_side *s = &e->sides[e->nsides];
    memset(s, 0, sizeof *s);
    enc_copy(s->name, sizeof s->name, name);
    s->st = st;
    return e->nsides++;
}

struct enc_combatant *enc_current(struct encounter *e)
{
    return e->current ? enc_by_id(e, e->current) : NULL;
}

/* ---- names --------------------------------------------------------------- */

/* what is a field (marked N_() by the caller), shown in d's language only
 * when a refusal is written, as enc_fail() reads d's translator: the
 * translations put it in quotes as a field's label ("the field \"%s\""),
 * so its gender and case never matter. */
enum eng_err enc_check_name(const char *name, const char *what, size_t max,
                            struct enc_diag *d)
{
    size_t len = strlen(name);
    if (len == 0)
        return enc_fail(d, ENG_INVALID, "the %s is empty",
                        enc_diag_word(d, what));
    if (len > max)
        return enc_fail(d, ENG_LIMIT, "the %s is too long (limit is %zu "
                        "bytes)", enc_diag_word(d, what), max);
    if (!eng_text_valid_utf8(name, len))
        return enc_fail(d, ENG_INVALID, "the %s is not valid UTF-8",
                        enc_diag_word(d, what));
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (ch < 0x20 || ch == 0x7f)
            return enc_fail(d, ENG_INVALID, "the %s contains a control "
                            "character or line break",
                            enc_diag_word(d, what));
    }
    if (name[0] == ' ' || name[len - 1] == ' ')
        return enc_fail(d, ENG_INVALID, "the %s starts or ends with a space",
                        enc_diag_word(d, what));
    /* The one text policy: what would let a name pass for another, or
     * for nothing, in every message that shows it never enters. */
    const char *bad = eng_policy_check(name, len);
    if (bad != NULL)
        return enc_fail(d, ENG_INVALID, "the %s contains %s; please remove "
                        "it", enc_diag_word(d, what), enc_diag_word(d, bad));
    size_t digits = strspn(name, "0123456789");
    if (digits == len)
        return enc_fail(d, ENG_INVALID, "the %s cannot be only digits",
                        enc_diag_word(d, what));
    return ENG_OK;
}

/* ---- combatants ---------------------------------------------------------- */

static enum eng_err enc_reserve(struct encounter *e, int more,
                                struct enc_diag *d)
{
    if (e->ncs + more > ENC_MAX_COMBATANTS)
        return enc_fail(d, ENG_LIMIT, "too many combatants (limit is %d)",
                        ENC_MAX_COMBATANTS);
    if (e->ncs + more <= e->cs_cap)
        return ENG_OK;
    int cap = e->cs_cap ? e->cs_cap : 8;
    while (cap < e->ncs + more)
        cap *= 2;
    if (cap > ENC_MAX_COMBATANTS)
        cap = ENC_MAX_COMBATANTS;
    struct enc_combatant *n = eng_realloc(e->cs, (size_t)cap * sizeof *n);
    if (n == NULL)
        return enc_fail(d, ENG_NOMEM, "out of memory");
    e->cs = n;
    e->cs_cap = cap;
    return ENG_OK;
}

enum eng_err enc_add(struct encounter *e, const char *name, int count,
                     uint64_t owner, int side, struct enc_diag *d,
                     uint32_t *ids_out)
{
    if (count < 1)
        return enc_fail(d, ENG_RANGE, "count must be at least 1");
    if (count > ENC_MAX_COUNT)
        return enc_fail(d, ENG_LIMIT, "count is too large (limit is %d)",
                        ENC_MAX_COUNT);
    /* Leave room for " 20" when numbering. */
    size_t room = count > 1 ? ENC_MAX_NAME - 3 : ENC_MAX_NAME;
    enum eng_err err = enc_check_name(name, N_("name"), room, d);
    if (err != ENG_OK)
        return err;

    char names[ENC_MAX_COUNT][ENC_MAX_NAME + 1];
    for (int i = 0; i < count; i++) {
        if (count == 1)
            enc_copy(names[i], sizeof names[i], name);
        else
            snprintf(names[i], sizeof names[i], "%s %d", name, i + 1);
        if (enc_by_name(e, names[i]) != NULL)
            return enc_fail(d, ENG_EXISTS, "there is already a combatant "
                            "named %s", names[i]);
    }
    err = enc_reserve(e, count, d);
    if (err != ENG_OK)
        return err;
    void *st[ENC_MAX_COUNT];
    for (int i = 0; i < count; i++) {
        bool ok;
        st[i] = state_new(&e->sys->comb_state, &ok);
        if (!ok) {
            while (i-- > 0)
                eng_free(st[i]);
            return enc_fail(d, ENG_NOMEM, "out of memory");
        }
    }

    for (int i = 0; i < count; i++) {
        struct enc_combatant *c = &e->cs[e->ncs++];
        memset(c, 0, sizeof *c);
        c->st = st[i];
        c->id = e->next_id++;
        c->join_seq = e->next_join++;
        enc_copy(c->name, sizeof c->name, names[i]);
        c->owner = owner;
        c->side = side;
        if (ids_out != NULL)
            ids_out[i] = c->id;
    }
    return ENG_OK;
}

/* The combatant after `id` in the fixed order (wrapping), not `id` itself;
 * 0 when there is none. Used to re-anchor durations of a removed one. */
static uint32_t enc_next_in_order(const struct encounter *e, uint32_t id)
{
    for (int i = 0; i < e->norder; i++) {
        if (e->order[i].id != id)
            continue;
        for (int k = 1; k < e->norder; k++) {
            uint32_t n = e->order[(i + k) % e->norder].id;
            if (n != id)
                return n;
        }
    }
    return 0;
}

enum eng_err enc_remove(struct encounter *e, uint32_t id,
                        struct enc_result *r, struct enc_diag *d)
{
    struct enc_combatant *c = enc_by_id(e, id);
    if (c == NULL)
        return enc_fail(d, ENG_NOTFOUND, "no such combatant");

    /* Durations counted on the removed combatant's turn move to whoever
     * now takes that place in the round, so they run out at the same
     * moment they would have; without a turn order, on the holder. */
    uint32_t heir = enc_next_in_order(e, id);
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *o = &e->cs[i];
        for (int k = 0; k < o->nconds; k++) {
            if (o->conds[k].anchor != id)
                continue;
            o->conds[k].anchor = heir ? heir : o->id;
            if (o->conds[k].anchor == id)
                o->conds[k].anchor = 0;
            /* Given during the leaver's running turn, it waited for its
             * next one: the heir's turn that starts now is this round's,
             * so it does not count either. */
            if (e->current == id && o->conds[k].applied_turn >= e->turn_seq)
                o->conds[k].applied_turn = e->turn_seq + 1;
        }
    }

    if (e->ncds > 0) {
        struct rs_call rc = {.e = e, .r = r, .d = d};
        enc_cd_leave(&rc, id);
    }

    /* Drop its turn slots; keep turn_idx on the same next entry. */
    int w = 0;
    for (int i = 0; i < e->norder; i++) {
        if (e->order[i].id == id) {
            /* turn_idx is already in the compacted numbering, where this
             * entry sits at w; removing the current entry leaves turn_idx
             * just before the entry that now follows. */
            if (e->turn_idx >= w)
                e->turn_idx--;
            continue;
        }
        e->order[w++] = e->order[i];
    }
    e->norder = w;
    if (e->turn_idx < -1)
        e->turn_idx = -1;
    if (e->current == id)
        e->current = 0;

    struct enc_event *ev = enc_emit(r, ENC_EV_REMOVED, id);
    ev->text = enc_result_strdup(r, c->name, ENC_MAX_NAME);
    ev->secret = c->hidden;

    eng_free(c->st);
    int idx = (int)(c - e->cs);
    memmove(&e->cs[idx], &e->cs[idx + 1],
            (size_t)(e->ncs - idx - 1) * sizeof *c);
    e->ncs--;
    return ENG_OK;
}

/* ---- stats and tracks ---------------------------------------------------- */

int64_t *enc_stat(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->nstats; i++)
        if (enc_name_eq(c->stats[i].name, name))
            return &c->stats[i].value;
    return NULL;
}

int64_t enc_stat_or(const struct enc_combatant *c, const char *name,
                    int64_t dflt)
{
    for (int i = 0; i < c->nstats; i++)
        if (enc_name_eq(c->stats[i].name, name))
            return c->stats[i].value;
    return dflt;
}

enum eng_err enc_stat_set(struct enc_combatant *c, const char *name,
                          int64_t value, struct enc_diag *d)
{
    if (value > ENC_MAX_VALUE || value < -ENC_MAX_VALUE)
        return enc_fail(d, ENG_RANGE, "%s is out of range (limit is %d)",
                        name, ENC_MAX_VALUE);
    int64_t *v = enc_stat(c, name);
    if (v != NULL) {
        *v = value;
        return ENG_OK;
    }
    if (c->nstats >= ENC_MAX_STATS)
        return enc_fail(d, ENG_LIMIT, "too many stats (limit is %d)",
                        ENC_MAX_STATS);
    struct enc_stat *s = &c->stats[c->nstats++];
    enc_copy(s->name, sizeof s->name, name);
    eng_text_lower(s->name);
    s->value = value;
    return ENG_OK;
}

bool enc_stat_remove(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->nstats; i++) {
        if (!enc_name_eq(c->stats[i].name, name))
            continue;
        memmove(&c->stats[i], &c->stats[i + 1],
                (size_t)(c->nstats - i - 1) * sizeof c->stats[0]);
        c->nstats--;
        return true;
    }
    return false;
}

struct enc_track *enc_track(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->ntracks; i++)
        if (enc_name_eq(c->tracks[i].name, name))
            return &c->tracks[i];
    return NULL;
}

const struct enc_track *enc_track_c(const struct enc_combatant *c,
                                    const char *name)
{
    for (int i = 0; i < c->ntracks; i++)
        if (enc_name_eq(c->tracks[i].name, name))
            return &c->tracks[i];
    return NULL;
}

enum eng_err enc_track_set(struct enc_combatant *c, const char *name,
                           int64_t cur, int64_t max, struct enc_diag *d)
{
    if (cur > ENC_MAX_VALUE || cur < -ENC_MAX_VALUE || max < 0 ||
        max > ENC_MAX_VALUE)
        return enc_fail(d, ENG_RANGE, "%s is out of range (limit is %d)",
                        name, ENC_MAX_VALUE);
    struct enc_track *t = enc_track(c, name);
    if (t == NULL) {
        if (c->ntracks >= ENC_MAX_TRACKS)
            return enc_fail(d, ENG_LIMIT, "too many tracks (limit is %d)",
                            ENC_MAX_TRACKS);
        t = &c->tracks[c->ntracks++];
        enc_copy(t->name, sizeof t->name, name);
        eng_text_lower(t->name);
    }
    t->cur = cur;
    t->max = max;
    return ENG_OK;
}

bool enc_track_remove(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->ntracks; i++) {
        if (!enc_name_eq(c->tracks[i].name, name))
            continue;
        memmove(&c->tracks[i], &c->tracks[i + 1],
                (size_t)(c->ntracks - i - 1) * sizeof c->tracks[0]);
        c->ntracks--;
        return true;
    }
    return false;
}

/* stats -> (name '=' integer)* ; separated by spaces or commas */
enum eng_err enc_parse_stats(const char *text, struct enc_kv *out, int max,
                             int *n, struct enc_diag *d)
{
    int count = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        const char *k = p;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
               (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')
            p++;
        size_t klen = (size_t)(p - k);
        if (klen == 0)
            return enc_fail(d, ENG_SYNTAX, "stats should look like "
                            "\"ac=13 hp=7\" (a name, =, a whole number)");
        if (klen > ENC_MAX_STAT_NAME)
            return enc_fail(d, ENG_LIMIT, "stat name too long (limit is %d)",
                            ENC_MAX_STAT_NAME);
        while (*p == ' ')
            p++;
        if (*p != '=' && *p != ':')
            return enc_fail(d, ENG_SYNTAX, "stat %.*s needs a value, like "
                            "%.*s=3", (int)klen, k, (int)klen, k);
        p++;
        while (*p == ' ')
            p++;
        int64_t v;
        const char *end = eng_text_parse_int(p, &v);
        if (end == NULL || (*end != '\0' && *end != ' ' && *end != ',' &&
                            *end != '\t'))
            return enc_fail(d, ENG_SYNTAX, "stat %.*s needs a whole number",
                            (int)klen, k);
        if (v > ENC_MAX_VALUE || v < -ENC_MAX_VALUE)
            return enc_fail(d, ENG_RANGE, "stat %.*s is out of range "
                            "(limit is %d)", (int)klen, k, ENC_MAX_VALUE);
        p = end;
        int slot = -1;
        for (int i = 0; i < count; i++)
            if (strlen(out[i].name) == klen &&
                eng_text_ncasecmp(out[i].name, k, klen) == 0)
                slot = i;
        if (slot < 0) {
            if (count >= max)
                return enc_fail(d, ENG_LIMIT, "too many stats (limit is %d)",
                                max);
            slot = count++;
        }
        memcpy(out[slot].name, k, klen);
        out[slot].name[klen] = '\0';
        eng_text_lower(out[slot].name);
        out[slot].value = v;
    }
    *n = count;
    return ENG_OK;
}

/* ---- settings ------------------------------------------------------------ */

const char *enc_setting(const struct encounter *e, const char *key)
{
    for (int i = 0; i < e->nsettings; i++)
        if (enc_name_eq(e->settings[i].key, key))
            return e->settings[i].value;
    return NULL;
}

enum eng_err enc_setting_set(struct encounter *e, const char *key,
                             const char *value, struct enc_diag *d)
{
    if (strlen(key) > ENC_MAX_SETTING_KEY || strlen(value) >
        ENC_MAX_SETTING_VALUE)
        return enc_fail(d, ENG_LIMIT, "setting %s is too long", key);
    for (int i = 0; i < e->nsettings; i++) {
        if (enc_name_eq(e->settings[i].key, key)) {
            enc_copy(e->settings[i].value, sizeof e->settings[i].value,
                     value);
            return ENG_OK;
        }
    }
    if (e->nsettings >= ENC_MAX_SETTINGS)
        return enc_fail(d, ENG_LIMIT, "too many settings (limit is %d)",
                        ENC_MAX_SETTINGS);
    struct enc_setting *s = &e->settings[e->nsettings++];
    enc_copy(s->key, sizeof s->key, key);
    eng_text_lower(s->key);
    enc_copy(s->value, sizeof s->value, value);
    return ENG_OK;
}

/* ---- conditions ---------------------------------------------------------- */

struct enc_cond *enc_cond_find(struct enc_combatant *c, const char *name)
{
    for (int i = 0; i < c->nconds; i++)
        if (enc_name_eq(c->conds[i].name, name))
            return &c->conds[i];
    return NULL;
}

/* Check a condition request before anything changes. */
static enum eng_err cond_check(struct encounter *e,
                               const struct enc_cond_req *q,
                               struct enc_diag *d)
{
    enum eng_err err = enc_check_name(q->name, N_("condition name"),
                                      ENC_MAX_COND_NAME, d);
    if (err != ENG_OK)
        return err;
    if (q->rounds < 0 || q->rounds > ENC_MAX_ROUNDS)
        return enc_fail(d, ENG_RANGE, "rounds must be 0 to %d",
                        ENC_MAX_ROUNDS);
    if (q->value < -ENC_MAX_VALUE || q->value > ENC_MAX_VALUE ||
        q->cap < 0 || q->cap > ENC_MAX_VALUE)
        return enc_fail(d, ENG_RANGE, "condition value out of range");
    if (q->anchor != 0 && enc_by_id(e, q->anchor) == NULL)
        return enc_fail(d, ENG_NOTFOUND, "no such combatant to time the "
                        "condition on");
    return ENG_OK;
}

/* The holder's condition named name, added (zeroed) when new; NULL with d
 * set when the holder has no room. */
static struct enc_cond *cond_slot(struct enc_combatant *c, const char *name,
                                  bool *is_new, struct enc_diag *d)
{
    struct enc_cond *k = enc_cond_find(c, name);
    *is_new = k == NULL;
    if (k != NULL)
        return k;
    if (c->nconds >= ENC_MAX_CONDITIONS) {
        enc_fail(d, ENG_LIMIT, "too many conditions on %s (limit is %d)",
                 c->name, ENC_MAX_CONDITIONS);
        return NULL;
    }
    k = &c->conds[c->nconds++];
    memset(k, 0, sizeof *k);
    enc_copy(k->name, sizeof k->name, name);
    return k;
}

static void cond_finish(struct encounter *e, struct enc_combatant *c,
                        struct enc_cond *k, const struct enc_cond_req *q,
                        struct enc_result *r)
{
    if (q->cap > 0)
        k->cap = q->cap;
    if (k->cap > 0 && k->value > k->cap)
        k->value = k->cap;
    k->rounds = q->rounds;
    k->anchor = q->anchor ? q->anchor : c->id;
    k->expire = q->expire;
    k->source = q->source;
    k->applied_turn = e->turn_seq;

    struct enc_event *ev = enc_emit(r, ENC_EV_COND_ADD, c->id);
    ev->text = enc_result_strdup(r, k->name, ENC_MAX_COND_NAME);
    ev->a = k->value;
    ev->b = k->rounds;
    /* A duration counted on someone else's turn, or at a turn's start,
     * names its anchor and boundary (c is the boundary + 1; 0: the
     * holder's turn ends count it, said as rounds). */
    if (k->rounds > 0 && (k->anchor != c->id || k->expire != ENC_EXPIRE_END)) {
        ev->other = k->anchor;
        ev->c = (int64_t)k->expire + 1;
    }
    ev->secret = c->hidden;
}

enum eng_err enc_cond_set(struct encounter *e, struct enc_combatant *c,
                          const struct enc_cond_req *q, struct enc_result *r,
                          struct enc_diag *d)
{
    enum eng_err err = cond_check(e, q, d);
    if (err != ENG_OK)
        return err;
    bool is_new;
    struct enc_cond *k = cond_slot(c, q->name, &is_new, d);
    if (k == NULL)
        return ENG_LIMIT;
    k->value = q->value;
    cond_finish(e, c, k, q, r);
    return ENG_OK;
}

enum eng_err enc_cond_add(struct encounter *e, struct enc_combatant *c,
                          const struct enc_cond_req *q, struct enc_result *r,
                          struct enc_diag *d)
{
    /* Stacking: a second dose adds; a flag stays a flag. */
    struct enc_cond_req set = *q;
    const struct enc_cond *k = enc_cond_find(c, q->name);
    if (k != NULL) {
        int64_t v = (int64_t)k->value + q->value;
        set.value = (int32_t)(v > ENC_MAX_VALUE ? ENC_MAX_VALUE : v);
    }
    return enc_cond_set(e, c, &set, r, d);
}

enum eng_err enc_cond_remove(struct encounter *e, struct enc_combatant *c,
                             const char *name, struct enc_result *r,
                             struct enc_diag *d)
{
    (void)e;
    struct enc_cond *k = enc_cond_find(c, name);
    if (k == NULL)
        return enc_fail(d, ENG_NOTFOUND, "%s has no condition %s", c->name,
                        name);
    struct enc_event *ev = enc_emit(r, ENC_EV_COND_REMOVE, c->id);
    ev->text = enc_result_strdup(r, k->name, ENC_MAX_COND_NAME);
    ev->secret = c->hidden;
    int idx = (int)(k - c->conds);
    memmove(&c->conds[idx], &c->conds[idx + 1],
            (size_t)(c->nconds - idx - 1) * sizeof *k);
    c->nconds--;
    return ENG_OK;
}
