/*
 * enc_json.c - encounter <-> JSON.
 *
 * Numbers that can exceed 2^53 (user ids, version counters) are written as
 * decimal strings so any JSON reader keeps them exact.
 */
#include "enc_json.h"

#include "enc_cd.h"
#include "enc_res.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "enc_res.h"
#include "eng_alloc.h"
#include "eng_text.h"
#include "jw.h"
#include "rs.h"

/* ---- writing ------------------------------------------------------------- */

/* The document is written as text (jw.h): the bytes are what
 * json_dumps(JSON_COMPACT | JSON_PRESERVE_ORDER) made of the jansson tree
 * it once was, so old and new documents compare equal (test_enc_json.c
 * checks against a jansson reference writer). */

/* A ruleset's typed state as an object of its fields under their names;
 * fields at their zero value are left out (a reader zeroes what is
 * absent), so a document grows only with what happened. */
static bool field_is_zero(const struct rs_field *f, const char *p)
{
    size_t n = f->type == RS_F_STR ? 1 : f->size * (size_t)f->count;
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

static void jw_field_value(struct jw *w, const struct rs_field *f,
                           const char *p)
{
    switch (f->type) {
    case RS_F_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        jw_i64(w, v);
        break;
    }
    case RS_F_I32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        jw_i64(w, v);
        break;
    }
    case RS_F_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        jw_i64(w, v);
        break;
    }
    case RS_F_BOOL:
        jw_bool(w, *(const bool *)p);
        break;
    case RS_F_STR:
        jw_str(w, p);
        break;
    }
}

static void jw_state(struct jw *w, const struct rs_state_spec *sp,
                     const void *st)
{
    bool first = true;
    JW_LIT(w, "{");
    for (int i = 0; st != NULL && i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        const char *p = (const char *)st + f->offset;
        if (field_is_zero(f, p))
            continue;
        if (!first)
            JW_LIT(w, ",");
        first = false;
        jw_str(w, f->name);
        JW_LIT(w, ":");
        if (f->count > 1 && f->type != RS_F_STR) {
            JW_LIT(w, "[");
            for (int k = 0; k < f->count; k++) {
                if (k > 0)
                    JW_LIT(w, ",");
                jw_field_value(w, f, p + f->size * (size_t)k);
            }
            JW_LIT(w, "]");
        } else {
            jw_field_value(w, f, p);
        }
    }
    JW_LIT(w, "}");
}

/* ,"st":{...} for a ruleset with state of this kind; nothing for one
 * without. */
static void jw_rs_state(struct jw *w, const struct rs_state_spec *sp,
                        const void *st)
{
    if (sp->size > 0) {
        JW_KEY(w, "st");
        jw_state(w, sp, st);
    }
}

/* A combatant's saved attacks; absent when it carries none, so a fight
 * without saved characters reads as it always did. */
static void dump_attacks(struct jw *w, const struct enc_combatant *c)
{
    if (c->nattacks == 0)
        return;
    JW_KEY(w, "attacks");
    JW_LIT(w, "[");
    for (int i = 0; i < c->nattacks; i++) {
        const struct enc_attack *a = &c->attacks[i];
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "name");
        jw_str(w, a->name);
        JW_STR(w, "roll", a->roll);
        JW_STR(w, "damage", a->damage);
        JW_STR(w, "options", a->options);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
}

/* A combatant's resources (enc_res.h); absent when it has none, so a
 * document from before they existed reads as it always did. */
static void dump_res(struct jw *w, const struct enc_combatant *c)
{
    if (c->nres == 0)
        return;
    JW_KEY(w, "res");
    JW_LIT(w, "[");
    for (int i = 0; i < c->nres; i++) {
        const struct enc_res *x = &c->res[i];
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "name");
        jw_str(w, x->name);
        JW_I64(w, "cur", x->cur);
        JW_I64(w, "max", x->max);
        JW_STR(w, "reset", enc_reset_word((enum enc_reset)x->reset));
        if (x->recharge != 0)
            JW_I64(w, "recharge", x->recharge);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
}

static void dump_conds(struct jw *w, const struct enc_combatant *c)
{
    JW_LIT(w, "[");
    for (int i = 0; i < c->nconds; i++) {
        const struct enc_cond *q = &c->conds[i];
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "name");
        jw_str(w, q->name);
        JW_I64(w, "value", q->value);
        JW_I64(w, "cap", q->cap);
        JW_I64(w, "rounds", q->rounds);
        JW_I64(w, "anchor", q->anchor);
        JW_KEY(w, "expire");
        if (q->expire == ENC_EXPIRE_START)
            JW_LIT(w, "\"start\"");
        else
            JW_LIT(w, "\"end\"");
        JW_I64(w, "source", q->source);
        JW_U64(w, "applied", q->applied_turn);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
}


/* The fight's numbers beside "tally" (added later: a document from
 * before has none and reads as zeros), as one array in this order, the
 * most common first and trailing zeros left out: turns, hits, misses,
 * crits, harm[0..ENC_MAX_HARM), waits, wait_ms, wait_max_ms,
 * dealt_unseen. One array, not an object: every save writes it for every
 * combatant that took a turn. */
#define NUMBERS_LEN (8 + ENC_MAX_HARM)

static void numbers_of(const struct enc_combatant *c, int64_t *v)
{
    v[0] = c->turns;
    v[1] = c->hits;
    v[2] = c->misses;
    v[3] = c->crits;
    for (int k = 0; k < ENC_MAX_HARM; k++)
        v[4 + k] = c->harm[k];
    v[4 + ENC_MAX_HARM] = c->waits;
    v[5 + ENC_MAX_HARM] = c->wait_ms;
    v[6 + ENC_MAX_HARM] = c->wait_max_ms;
    v[7 + ENC_MAX_HARM] = c->dealt_unseen;
}

static void dump_numbers(struct jw *w, const struct enc_combatant *c)
{
    int64_t v[NUMBERS_LEN];
    numbers_of(c, v);
    int n = NUMBERS_LEN;
    while (n > 0 && v[n - 1] == 0)
        n--;
    if (n == 0)
        return;
    JW_KEY(w, "numbers");
    jw_i64_array(w, v, n);
}

static void dump_combatant(struct jw *w, const struct enc_combatant *c,
                           const struct rs_state_spec *sp)
{
    JW_LIT(w, "{");
    JW_KEY1(w, "id");
    jw_i64(w, c->id);
    JW_STR(w, "name", c->name);
    JW_U64(w, "owner", c->owner);
    JW_I64(w, "side", c->side);
    JW_BOOL(w, "hidden", c->hidden);
    JW_I64(w, "group", c->group);
    JW_I64(w, "flags", c->flags);
    JW_I64(w, "join", c->join_seq);
    JW_STR(w, "init_expr", c->init_expr);
    JW_KEY(w, "init");
    jw_i64_array(w, c->init, c->ninit);
    JW_I64(w, "tie", c->init_tie);
    JW_KEY(w, "stats");
    JW_LIT(w, "{");
    for (int i = 0; i < c->nstats; i++) {
        if (i > 0)
            JW_LIT(w, ",");
        jw_str(w, c->stats[i].name);
        JW_LIT(w, ":");
        jw_i64(w, c->stats[i].value);
    }
    JW_LIT(w, "}");
    JW_KEY(w, "tracks");
    JW_LIT(w, "[");
    for (int i = 0; i < c->ntracks; i++) {
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "name");
        jw_str(w, c->tracks[i].name);
        JW_I64(w, "cur", c->tracks[i].cur);
        JW_I64(w, "max", c->tracks[i].max);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
    JW_KEY(w, "conds");
    dump_conds(w, c);
    JW_STR(w, "note", c->note);
    if (c->sheet[0] != '\0')
        JW_STR(w, "sheet", c->sheet);
    dump_attacks(w, c);
    dump_res(w, c);
    if (c->dealt != 0 || c->taken != 0 || c->falls != 0) {
        JW_KEY(w, "tally");
        int64_t t[3] = {c->dealt, c->taken, c->falls};
        jw_i64_array(w, t, 3);
    }
    dump_numbers(w, c);
    jw_rs_state(w, sp, c->st);
    JW_LIT(w, "}");
}

/* The turn clock, only what is set: most fights never use it. */
static void dump_clock(struct jw *w, const struct enc_clock *k)
{
    if (k->remind_ms > 0)
        JW_I64(w, "clock_remind", k->remind_ms);
    if (k->act_ms > 0)
        JW_I64(w, "clock_act", k->act_ms);
    if (k->autoskip)
        JW_BOOL(w, "clock_auto", true);
    if (k->wait_ms > 0)
        JW_I64(w, "clock_wait", k->wait_ms);
    if (k->acted_ms > 0)
        JW_I64(w, "clock_acted", k->acted_ms);
    if (k->done != 0)
        JW_I64(w, "clock_done", k->done);
}

/* The fight's countdowns (enc_cd.h); absent when it has none, so a
 * document from before they existed reads as it always did. */
static void dump_cds(struct jw *w, const struct encounter *e)
{
    if (e->ncds == 0)
        return;
    JW_KEY(w, "countdowns");
    JW_LIT(w, "[");
    for (int i = 0; i < e->ncds; i++) {
        const struct enc_cd *x = &e->cds[i];
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "name");
        jw_str(w, x->name);
        JW_I64(w, "left", x->left);
        JW_I64(w, "total", x->total);
        if (x->of != 0)
            JW_I64(w, "of", x->of);
        if (x->flags & ENC_CDF_HIDDEN)
            JW_BOOL(w, "hidden", true);
        if (x->flags & ENC_CDF_PAUSED)
            JW_BOOL(w, "paused", true);
        JW_U64(w, "set", x->set_turn);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
}

/* The words events of the order (enc_entry.h) are stored with: the
 * kind and the place, each indexed by its enum. */
static const char *const entry_kinds[] = {"lair", "hazard", "once"};
static const char *const entry_ats[] = {"count", "start", "end"};

/* The events of the order; absent when there are none, so a document from
 * before them reads as it always did and a fight without them pays
 * nothing. */
static void dump_entries(struct jw *w, const struct encounter *e)
{
    if (e->nentries == 0)
        return;
    if (e->entry_on != 0)
        JW_I64(w, "event_on", e->entry_on);
    JW_KEY(w, "events");
    JW_LIT(w, "[");
    for (int i = 0; i < e->nentries; i++) {
        const struct enc_entry *x = &e->entries[i];
        if (i > 0)
            JW_LIT(w, ",");
        JW_LIT(w, "{");
        JW_KEY1(w, "id");
        jw_i64(w, x->id);
        JW_STR(w, "name", x->name);
        JW_STR(w, "kind", entry_kinds[x->kind]);
        JW_STR(w, "at", entry_ats[x->at]);
        if (x->at == ENC_ENTRY_COUNT)
            JW_I64(w, "count", x->count);
        if (x->kind == ENC_ENTRY_ONCE)
            JW_I64(w, "round", x->round);
        JW_I64(w, "fired", x->fired);
        if (x->note[0] != '\0')
            JW_STR(w, "note", x->note);
        if (x->dice[0] != '\0')
            JW_STR(w, "dice", x->dice);
        if (x->hidden)
            JW_BOOL(w, "hidden", true);
        JW_LIT(w, "}");
    }
    JW_LIT(w, "]");
}

static void dump_header(struct jw *w, const struct encounter *e)
{
    JW_KEY1(w, "v");
    jw_i64(w, ENC_JSON_VERSION);
    JW_STR(w, "ruleset", e->ruleset);
    JW_STR(w, "name", e->name);
    JW_U64(w, "gm", e->gm);
    JW_I64(w, "version", e->version);
    JW_I64(w, "status", e->status);
    JW_I64(w, "round", e->round);
    JW_I64(w, "phase", e->phase);
    JW_I64(w, "current", e->current);
    JW_I64(w, "acting_side", e->acting_side);
    JW_U64(w, "turn_seq", e->turn_seq);
    JW_BOOL(w, "notices", e->notices);
    JW_U64(w, "tracker", e->tracker_msg);
    JW_I64(w, "next_id", e->next_id);
    JW_I64(w, "next_join", e->next_join);
    JW_I64(w, "turn_idx", e->turn_idx);
    if (e->fight_id != 0)
        JW_U64(w, "fight", e->fight_id);
    if (e->trust)
        JW_BOOL(w, "trust", true);
    dump_clock(w, &e->clock);
    dump_entries(w, e);
}

void enc_json_doc_free(struct enc_json_doc *d)
{
    free(d->text);
    d->text = NULL;
    d->len = 0;
    d->ncs = 0;
}

/* Whether prev_doc holds prev's combatant i as e's: written from prev,
 * and the combatant unchanged. */
static bool doc_reuses(const struct encounter *e, const struct encounter *prev,
                       const struct enc_json_doc *prev_doc, int i)
{
    return prev != NULL && prev_doc != NULL && prev_doc->text != NULL &&
           prev->sys == e->sys && prev_doc->version == prev->version &&
           prev_doc->ncs == prev->ncs && i < prev->ncs &&
           enc_comb_same(&e->sys->comb_state, &prev->cs[i], &e->cs[i]);
}

bool enc_json_dump_doc(const struct encounter *e, const struct encounter *prev,
                       const struct enc_json_doc *prev_doc,
                       struct enc_json_doc *out)
{
    struct jw w;
    enc_json_doc_free(out);
    jw_init(&w, ENC_JSON_MAX_DOC);
    JW_LIT(&w, "{");
    dump_header(&w, e);
    JW_KEY(&w, "settings");
    JW_LIT(&w, "{");
    for (int i = 0; i < e->nsettings; i++) {
        if (i > 0)
            JW_LIT(&w, ",");
        jw_str(&w, e->settings[i].key);
        JW_LIT(&w, ":");
        jw_str(&w, e->settings[i].value);
    }
    JW_LIT(&w, "}");
    JW_KEY(&w, "sides");
    JW_LIT(&w, "[");
    for (int i = 0; i < e->nsides; i++) {
        if (i > 0)
            JW_LIT(&w, ",");
        JW_LIT(&w, "{");
        JW_KEY1(&w, "name");
        jw_str(&w, e->sides[i].name);
        jw_rs_state(&w, &e->sys->side_state, e->sides[i].st);
        JW_LIT(&w, "}");
    }
    JW_LIT(&w, "]");
    JW_KEY(&w, "combatants");
    JW_LIT(&w, "[");
    for (int i = 0; i < e->ncs; i++) {
        if (i > 0)
            JW_LIT(&w, ",");
        size_t at = w.len;
        if (doc_reuses(e, prev, prev_doc, i))
            jw_raw(&w, prev_doc->text + prev_doc->at[i], prev_doc->n[i]);
        else
            dump_combatant(&w, &e->cs[i], &e->sys->comb_state);
        if (i < ENC_MAX_COMBATANTS) { /* the engine's bound; never more */
            out->at[i] = (uint32_t)at;
            out->n[i] = (uint32_t)(w.len - at);
        }
    }
    JW_LIT(&w, "]");
    JW_KEY(&w, "order");
    JW_LIT(&w, "[");
    for (int i = 0; i < e->norder; i++) {
        if (i > 0)
            JW_LIT(&w, ",");
        JW_LIT(&w, "[");
        jw_i64(&w, e->order[i].id);
        JW_LIT(&w, ",");
        jw_i64(&w, e->order[i].init_idx);
        JW_LIT(&w, "]");
    }
    JW_LIT(&w, "]");
    dump_cds(&w, e);
    jw_rs_state(&w, &e->sys->enc_state, e->st);
    JW_LIT(&w, "}");
    out->text = jw_take(&w, &out->len);
    if (out->text == NULL)
        return false;
    out->version = e->version;
    out->ncs = e->ncs <= ENC_MAX_COMBATANTS ? e->ncs : -1; /* never reused */
    return true;
}

char *enc_json_dump(const struct encounter *e)
{
    struct enc_json_doc d = {0};
    return enc_json_dump_doc(e, NULL, NULL, &d) ? d.text : NULL;
}

/* ---- reading ------------------------------------------------------------- */

struct rd {
    char *err;
    size_t errlen;
    bool bad;
    bool nomem;              /* the failure was memory, not the document */
};

static void rd_fail(struct rd *r, const char *what)
{
    if (!r->bad)
        snprintf(r->err, r->errlen, "bad encounter document: %s", what);
    r->bad = true;
}

static int64_t rd_int(struct rd *r, json_t *o, const char *key, int64_t lo,
                      int64_t hi)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        rd_fail(r, key);
        return lo;
    }
    return json_integer_value(v);
}

static uint64_t rd_u64(struct rd *r, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    const char *s = json_string_value(v);
    if (s == NULL || *s < '0' || *s > '9') {
        rd_fail(r, key);
        return 0;
    }
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end != '\0') {
        rd_fail(r, key);
        return 0;
    }
    return (uint64_t)x;
}

static bool rd_bool(struct rd *r, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v)) {
        rd_fail(r, key);
        return false;
    }
    return json_is_true(v);
}

/* The turn clock's keys, each optional (absent: not set). */
static void rd_clock(struct rd *r, json_t *o, struct enc_clock *k)
{
    if (json_object_get(o, "clock_remind") != NULL)
        k->remind_ms = rd_int(r, o, "clock_remind", 0, INT64_MAX / 4);
    if (json_object_get(o, "clock_act") != NULL)
        k->act_ms = rd_int(r, o, "clock_act", 0, INT64_MAX / 4);
    if (json_object_get(o, "clock_auto") != NULL)
        k->autoskip = rd_bool(r, o, "clock_auto");
    if (json_object_get(o, "clock_wait") != NULL)
        k->wait_ms = rd_int(r, o, "clock_wait", 0, INT64_MAX / 4);
    if (json_object_get(o, "clock_acted") != NULL)
        k->acted_ms = rd_int(r, o, "clock_acted", 0, INT64_MAX / 4);
    if (json_object_get(o, "clock_done") != NULL)
        k->done = (unsigned)rd_int(r, o, "clock_done", 0,
                                   ENC_CLOCK_REMIND | ENC_CLOCK_ACT);
}

static void rd_str(struct rd *r, json_t *o, const char *key, char *dst,
                   size_t n)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (s == NULL || strlen(s) >= n) {
        rd_fail(r, key);
        dst[0] = '\0';
        return;
    }
    memcpy(dst, s, strlen(s) + 1);
}

/* Documents written before typed state (version 1) kept a ruleset's
 * state in this many numbered int64 slots per holder. */
#define ENC_JSON_LEGACY_SLOTS 16

static void rd_slots(struct rd *r, json_t *a, int64_t *out)
{
    memset(out, 0, ENC_JSON_LEGACY_SLOTS * sizeof *out);
    if (!json_is_array(a) || json_array_size(a) > ENC_JSON_LEGACY_SLOTS) {
        rd_fail(r, "rs");
        return;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v)) {
            rd_fail(r, "rs");
            return;
        }
        out[i] = json_integer_value(v);
    }
}

/* One field from JSON value v into p; false when v does not fit. */
static bool rd_field_value(const struct rs_field *f, json_t *v, char *p)
{
    if (f->type == RS_F_STR) {
        const char *s = json_string_value(v);
        if (s == NULL || strlen(s) >= f->size ||
            !eng_text_valid_utf8(s, strlen(s)))
            return false;
        memcpy(p, s, strlen(s) + 1);
        return true;
    }
    if (f->type == RS_F_BOOL) {
        if (!json_is_boolean(v))
            return false;
        *(bool *)p = json_is_true(v);
        return true;
    }
    if (!json_is_integer(v))
        return false;
    json_int_t x = json_integer_value(v);
    if (f->type == RS_F_I32) {
        if (x < INT32_MIN || x > INT32_MAX)
            return false;
        int32_t y = (int32_t)x;
        memcpy(p, &y, sizeof y);
    } else if (f->type == RS_F_U32) {
        if (x < 0 || x > UINT32_MAX)
            return false;
        uint32_t y = (uint32_t)x;
        memcpy(p, &y, sizeof y);
    } else {
        int64_t y = x;
        memcpy(p, &y, sizeof y);
    }
    return true;
}

static const struct rs_field *field_find(const struct rs_state_spec *sp,
                                         const char *name)
{
    for (int i = 0; i < sp->nfields; i++)
        if (strcmp(sp->fields[i].name, name) == 0)
            return &sp->fields[i];
    return NULL;
}

/* "st": every key must be a field of the ruleset's state, of its type. */
static void rd_state(struct rd *r, json_t *o, const struct rs_state_spec *sp,
                     void *st)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o) || st == NULL) {
        rd_fail(r, "st");
        return;
    }
    json_object_foreach(o, k, v) {
        const struct rs_field *f = field_find(sp, k);
        char *p = f != NULL ? (char *)st + f->offset : NULL;
        bool ok = f != NULL;
        if (ok && f->count > 1 && f->type != RS_F_STR) {
            ok = json_is_array(v) && json_array_size(v) == (size_t)f->count;
            for (int i = 0; ok && i < f->count; i++)
                ok = rd_field_value(f, json_array_get(v, (size_t)i),
                                    p + f->size * (size_t)i);
        } else if (ok) {
            ok = rd_field_value(f, v, p);
        }
        if (!ok) {
            rd_fail(r, "st");
            return;
        }
    }
}

/* A document saved before typed state kept the ruleset's state in
 * numbered int64 slots; each field names the slot it came from. Text was
 * copied into slots as bytes, which were written on little-endian hosts
 * only (x86-64 and arm64 as run), so they are read back as such on any
 * host. */
static void upgrade_slots(const struct rs_state_spec *sp, const int64_t *slots,
                          void *st)
{
    for (int i = 0; st != NULL && i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        if (f->legacy <= 0)
            continue;
        char *p = (char *)st + f->offset;
        int first = f->legacy - 1;
        if (f->type == RS_F_STR) {
            size_t n = 0;
            for (int k = first; k < ENC_JSON_LEGACY_SLOTS && n + 1 < f->size;
                 k++)
                for (int b = 0; b < 8 && n + 1 < f->size; b++)
                    p[n++] = (char)(((uint64_t)slots[k] >> (8 * b)) & 0xFF);
            p[n] = '\0';
            p[strnlen(p, f->size)] = '\0';
            if (!eng_text_valid_utf8(p, strlen(p)))
                p[0] = '\0';
            continue;
        }
        for (int k = 0; k < f->count && first + k < ENC_JSON_LEGACY_SLOTS;
             k++) {
            int64_t x = slots[first + k];
            char *q = p + f->size * (size_t)k;
            if (f->type == RS_F_BOOL) {
                *(bool *)q = x != 0;
            } else if (f->type == RS_F_I32) {
                int32_t y = (int32_t)x;
                memcpy(q, &y, sizeof y);
            } else if (f->type == RS_F_U32) {
                uint32_t y = (uint32_t)x;
                memcpy(q, &y, sizeof y);
            } else {
                memcpy(q, &x, sizeof x);
            }
        }
    }
}

/* The ruleset's state of holder object o: "st" when written with typed
 * state, else the old "rs" slots of a version-1 document, upgraded into
 * the fields that name them (slots no field names held nothing any
 * ruleset reads). */
static void rd_rs_state(struct rd *r, json_t *o, const struct rs_state_spec *sp,
                        void *st)
{
    json_t *typed = json_object_get(o, "st");
    if (typed != NULL) {
        if (sp->size == 0)
            rd_fail(r, "st");
        else
            rd_state(r, typed, sp, st);
        return;
    }
    json_t *old = json_object_get(o, "rs");
    if (old == NULL)
        return;
    int64_t slots[ENC_JSON_LEGACY_SLOTS];
    rd_slots(r, old, slots);
    if (sp->size > 0)
        upgrade_slots(sp, slots, st);
}

/* "numbers", when there: at most NUMBERS_LEN whole numbers, none
 * negative, the counts within int32. */
static void rd_numbers(struct rd *r, json_t *n, struct enc_combatant *c)
{
    if (n == NULL)
        return;
    int64_t v[NUMBERS_LEN] = {0};
    size_t len = json_array_size(n);
    if (!json_is_array(n) || len > NUMBERS_LEN) {
        rd_fail(r, "numbers");
        return;
    }
    for (size_t i = 0; i < len; i++) {
        json_t *x = json_array_get(n, i);
        bool wide = i >= 4 && i != 4 + ENC_MAX_HARM;
        if (!json_is_integer(x) || json_integer_value(x) < 0 ||
            (!wide && json_integer_value(x) > INT32_MAX)) {
            rd_fail(r, "numbers");
            return;
        }
        v[i] = json_integer_value(x);
    }
    c->turns = (int32_t)v[0];
    c->hits = (int32_t)v[1];
    c->misses = (int32_t)v[2];
    c->crits = (int32_t)v[3];
    for (int k = 0; k < ENC_MAX_HARM; k++)
        c->harm[k] = v[4 + k];
    c->waits = (int32_t)v[4 + ENC_MAX_HARM];
    c->wait_ms = v[5 + ENC_MAX_HARM];
    c->wait_max_ms = v[6 + ENC_MAX_HARM];
    c->dealt_unseen = v[7 + ENC_MAX_HARM];
}

/* Resources, checked as enc_res_add checks them: a count within its
 * maximum, a known reset point, a recharge face a d6 has. */
static void rd_res(struct rd *r, json_t *a, struct enc_combatant *c)
{
    if (a == NULL)
        return;
    if (!json_is_array(a) || json_array_size(a) > ENC_MAX_RES) {
        rd_fail(r, "res");
        return;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *t = json_array_get(a, i);
        struct enc_res *x = &c->res[c->nres++];
        rd_str(r, t, "name", x->name, sizeof x->name);
        x->max = (int32_t)rd_int(r, t, "max", 1, ENC_MAX_RES_VALUE);
        x->cur = (int32_t)rd_int(r, t, "cur", 0, x->max);
        const char *reset = json_string_value(json_object_get(t, "reset"));
        x->reset = -1;
        for (int k = ENC_RESET_NEVER; k <= ENC_RESET_ROUND; k++)
            if (reset != NULL &&
                strcmp(reset, enc_reset_word((enum enc_reset)k)) == 0)
                x->reset = k;
        if (x->reset < 0)
            rd_fail(r, "res reset");
        json_t *rc = json_object_get(t, "recharge");
        if (rc != NULL)
            x->recharge = (int32_t)rd_int(r, t, "recharge", 2, 6);
    }
}

/* Countdowns, checked as enc_cd_add checks them: a count within its
 * total, and the turns of a combatant of this fight. */
static void rd_cds(struct rd *r, json_t *a, struct encounter *e)
{
    if (a == NULL)
        return;
    if (!json_is_array(a) || json_array_size(a) > ENC_MAX_COUNTDOWNS) {
        rd_fail(r, "countdowns");
        return;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *t = json_array_get(a, i);
        struct enc_cd *x = &e->cds[e->ncds++];
        memset(x, 0, sizeof *x);
        rd_str(r, t, "name", x->name, sizeof x->name);
        x->total = (int32_t)rd_int(r, t, "total", 1, ENC_MAX_CD_COUNT);
        x->left = (int32_t)rd_int(r, t, "left", 1, x->total);
        if (json_object_get(t, "of") != NULL) {
            x->of = (uint32_t)rd_int(r, t, "of", 1, UINT32_MAX);
            if (enc_by_id(e, x->of) == NULL)
                rd_fail(r, "countdown of");
        }
        if (json_object_get(t, "hidden") != NULL && rd_bool(r, t, "hidden"))
            x->flags |= ENC_CDF_HIDDEN;
        if (json_object_get(t, "paused") != NULL && rd_bool(r, t, "paused"))
            x->flags |= ENC_CDF_PAUSED;
        x->set_turn = rd_u64(r, t, "set");
    }
}

/* A stored word's index in words (n of them), or -1. */
static int rd_word(json_t *o, const char *key, const char *const *words,
                   int n)
{
    const char *s = json_string_value(json_object_get(o, key));
    for (int i = 0; s != NULL && i < n; i++)
        if (strcmp(s, words[i]) == 0)
            return i;
    return -1;
}

/* Events of the order, each optional part as dump_entries leaves it out. */
static void rd_entries(struct rd *r, json_t *o, struct encounter *e)
{
    json_t *a = json_object_get(o, "events");
    if (a == NULL)
        return;
    if (!json_is_array(a) || json_array_size(a) > ENC_MAX_ENTRIES) {
        rd_fail(r, "events");
        return;
    }
    for (size_t i = 0; i < json_array_size(a) && !r->bad; i++) {
        json_t *t = json_array_get(a, i);
        struct enc_entry *x = &e->entries[e->nentries++];
        memset(x, 0, sizeof *x);
        x->id = (uint32_t)rd_int(r, t, "id", 1, UINT32_MAX);
        rd_str(r, t, "name", x->name, sizeof x->name);
        x->kind = rd_word(t, "kind", entry_kinds, 3);
        x->at = rd_word(t, "at", entry_ats, 3);
        if (x->kind < 0 || x->at < 0) {
            rd_fail(r, "event kind");
            return;
        }
        if (x->at == ENC_ENTRY_COUNT)
            x->count = rd_int(r, t, "count", -ENC_MAX_VALUE, ENC_MAX_VALUE);
        if (x->kind == ENC_ENTRY_ONCE)
            x->round = (int32_t)rd_int(r, t, "round", 1, ENC_MAX_ROUNDS);
        x->fired = (int32_t)rd_int(r, t, "fired", 0, INT32_MAX);
        if (json_object_get(t, "note") != NULL)
            rd_str(r, t, "note", x->note, sizeof x->note);
        if (json_object_get(t, "dice") != NULL)
            rd_str(r, t, "dice", x->dice, sizeof x->dice);
        if (json_object_get(t, "hidden") != NULL)
            x->hidden = rd_bool(r, t, "hidden");
    }
    if (json_object_get(o, "event_on") != NULL)
        e->entry_on = (uint32_t)rd_int(r, o, "event_on", 1, UINT32_MAX);
}

static void rd_combatant(struct rd *r, json_t *o, struct enc_combatant *c,
                         int nsides, const struct rs_state_spec *sp)
{
    memset(c, 0, sizeof *c);
    if (sp->size > 0) {
        c->st = eng_calloc(1, sp->size);
        if (c->st == NULL) {
            r->nomem = true;
            rd_fail(r, "state");
            return;
        }
    }
    if (!json_is_object(o)) {
        rd_fail(r, "combatant");
        return;
    }
    c->id = (uint32_t)rd_int(r, o, "id", 1, UINT32_MAX);
    rd_str(r, o, "name", c->name, sizeof c->name);
    c->owner = rd_u64(r, o, "owner");
    c->side = (int)rd_int(r, o, "side", -1, nsides - 1);
    c->hidden = rd_bool(r, o, "hidden");
    c->group = (uint32_t)rd_int(r, o, "group", 0, UINT32_MAX);
    c->flags = (uint32_t)rd_int(r, o, "flags", 0, UINT32_MAX);
    c->join_seq = (uint32_t)rd_int(r, o, "join", 0, UINT32_MAX);
    rd_str(r, o, "init_expr", c->init_expr, sizeof c->init_expr);
    json_t *init = json_object_get(o, "init");
    if (!json_is_array(init) || json_array_size(init) > ENC_MAX_INIT) {
        rd_fail(r, "init");
    } else {
        c->ninit = (int)json_array_size(init);
        for (int i = 0; i < c->ninit; i++) {
            json_t *v = json_array_get(init, (size_t)i);
            if (!json_is_integer(v))
                rd_fail(r, "init");
            c->init[i] = json_integer_value(v);
        }
    }
    c->init_tie = rd_int(r, o, "tie", INT64_MIN, INT64_MAX);
    json_t *st = json_object_get(o, "stats");
    if (!json_is_object(st) || json_object_size(st) > ENC_MAX_STATS) {
        rd_fail(r, "stats");
    } else {
        const char *k;
        json_t *v;
        json_object_foreach(st, k, v) {
            struct enc_stat *s = &c->stats[c->nstats++];
            if (strlen(k) > ENC_MAX_STAT_NAME || !json_is_integer(v) ||
                json_integer_value(v) > ENC_MAX_VALUE ||
                json_integer_value(v) < -ENC_MAX_VALUE) {
                rd_fail(r, "stats");
                break;
            }
            memcpy(s->name, k, strlen(k) + 1);
            s->value = json_integer_value(v);
        }
    }
    json_t *tr = json_object_get(o, "tracks");
    if (!json_is_array(tr) || json_array_size(tr) > ENC_MAX_TRACKS) {
        rd_fail(r, "tracks");
    } else {
        for (size_t i = 0; i < json_array_size(tr); i++) {
            json_t *t = json_array_get(tr, i);
            struct enc_track *x = &c->tracks[c->ntracks++];
            rd_str(r, t, "name", x->name, sizeof x->name);
            x->cur = rd_int(r, t, "cur", -ENC_MAX_VALUE, ENC_MAX_VALUE);
            x->max = rd_int(r, t, "max", 0, ENC_MAX_VALUE);
        }
    }
    json_t *cd = json_object_get(o, "conds");
    if (!json_is_array(cd) || json_array_size(cd) > ENC_MAX_CONDITIONS) {
        rd_fail(r, "conds");
    } else {
        for (size_t i = 0; i < json_array_size(cd); i++) {
            json_t *t = json_array_get(cd, i);
            struct enc_cond *q = &c->conds[c->nconds++];
            rd_str(r, t, "name", q->name, sizeof q->name);
            q->value = (int32_t)rd_int(r, t, "value", -ENC_MAX_VALUE,
                                       ENC_MAX_VALUE);
            q->cap = (int32_t)rd_int(r, t, "cap", 0, ENC_MAX_VALUE);
            q->rounds = (int32_t)rd_int(r, t, "rounds", 0, ENC_MAX_ROUNDS);
            q->anchor = (uint32_t)rd_int(r, t, "anchor", 0, UINT32_MAX);
            q->source = (uint32_t)rd_int(r, t, "source", 0, UINT32_MAX);
            const char *ex = json_string_value(json_object_get(t, "expire"));
            q->expire = ex != NULL && strcmp(ex, "start") == 0
                            ? ENC_EXPIRE_START : ENC_EXPIRE_END;
            q->applied_turn = rd_u64(r, t, "applied");
        }
    }
    rd_str(r, o, "note", c->note, sizeof c->note);
    if (json_object_get(o, "sheet") != NULL)
        rd_str(r, o, "sheet", c->sheet, sizeof c->sheet);
    json_t *at = json_object_get(o, "attacks");
    if (at != NULL && (!json_is_array(at) ||
                       json_array_size(at) > ENC_MAX_ATTACKS)) {
        rd_fail(r, "attacks");
    } else {
        for (size_t i = 0; i < json_array_size(at); i++) {
            json_t *t = json_array_get(at, i);
            struct enc_attack *a = &c->attacks[c->nattacks++];
            rd_str(r, t, "name", a->name, sizeof a->name);
            rd_str(r, t, "roll", a->roll, sizeof a->roll);
            rd_str(r, t, "damage", a->damage, sizeof a->damage);
            rd_str(r, t, "options", a->options, sizeof a->options);
        }
    }
    rd_res(r, json_object_get(o, "res"), c);
    json_t *tally = json_object_get(o, "tally");
    if (tally != NULL) {
        json_t *d = json_array_get(tally, 0), *t = json_array_get(tally, 1);
        json_t *f = json_array_get(tally, 2);
        if (json_array_size(tally) != 3 || !json_is_integer(d) ||
            !json_is_integer(t) || !json_is_integer(f) ||
            json_integer_value(f) < 0 || json_integer_value(f) > INT32_MAX)
            rd_fail(r, "tally");
        c->dealt = json_integer_value(d);
        c->taken = json_integer_value(t);
        c->falls = (int32_t)json_integer_value(f);
    }
    rd_numbers(r, json_object_get(o, "numbers"), c);
    rd_rs_state(r, o, sp, c->st);
}

enum bot_err enc_json_load(const char *doc, struct encounter **out, char *err,
                           size_t errlen)
{
    struct rd r = {err, errlen, false, false};
    json_error_t jerr;
    json_t *o = json_loads(doc, JSON_REJECT_DUPLICATES, &jerr);
    if (o == NULL || !json_is_object(o)) {
        snprintf(err, errlen, "bad encounter document: %s",
                 o == NULL ? jerr.text : "not an object");
        json_decref(o);
        return BOT_INVALID;
    }
    int64_t v = rd_int(&r, o, "v", 1, ENC_JSON_VERSION);
    char ruleset[ENC_MAX_RS_ID + 1], name[ENC_MAX_ENC_NAME + 1];
    rd_str(&r, o, "ruleset", ruleset, sizeof ruleset);
    rd_str(&r, o, "name", name, sizeof name);
    (void)v;
    const struct rs_system *sys = rs_find(ruleset);
    if (sys == NULL) {
        snprintf(err, errlen, "bad encounter document: unknown ruleset "
                 "`%.16s`", ruleset);
        json_decref(o);
        return BOT_INVALID;
    }
    struct encounter *e = enc_new(sys, name, rd_u64(&r, o, "gm"));
    if (e == NULL) {
        json_decref(o);
        snprintf(err, errlen, "out of memory");
        return BOT_NOMEM;
    }
    e->version = rd_int(&r, o, "version", 0, INT64_MAX);
    e->status = (enum enc_status)rd_int(&r, o, "status", ENC_ST_SETUP,
                                        ENC_ST_ENDED);
    e->round = (int32_t)rd_int(&r, o, "round", 0, INT32_MAX);
    e->phase = (int32_t)rd_int(&r, o, "phase", INT32_MIN, INT32_MAX);
    e->current = (uint32_t)rd_int(&r, o, "current", 0, UINT32_MAX);
    e->turn_seq = rd_u64(&r, o, "turn_seq");
    e->notices = rd_bool(&r, o, "notices");
    e->tracker_msg = rd_u64(&r, o, "tracker");
    e->next_id = (uint32_t)rd_int(&r, o, "next_id", 1, UINT32_MAX);
    e->next_join = (uint32_t)rd_int(&r, o, "next_join", 1, UINT32_MAX);
    if (json_object_get(o, "fight") != NULL)
        e->fight_id = rd_u64(&r, o, "fight");
    if (json_object_get(o, "trust") != NULL)
        e->trust = rd_bool(&r, o, "trust");
    rd_clock(&r, o, &e->clock);
    rd_entries(&r, o, e);

    json_t *set = json_object_get(o, "settings");
    if (!json_is_object(set) || json_object_size(set) > ENC_MAX_SETTINGS) {
        rd_fail(&r, "settings");
    } else {
        const char *k;
        json_t *val;
        json_object_foreach(set, k, val) {
            const char *s = json_string_value(val);
            if (s == NULL || strlen(k) > ENC_MAX_SETTING_KEY ||
                strlen(s) > ENC_MAX_SETTING_VALUE) {
                rd_fail(&r, "settings");
                break;
            }
            struct enc_setting *x = &e->settings[e->nsettings++];
            memcpy(x->key, k, strlen(k) + 1);
            memcpy(x->value, s, strlen(s) + 1);
        }
    }
    json_t *sides = json_object_get(o, "sides");
    if (!json_is_array(sides) || json_array_size(sides) > ENC_MAX_SIDES) {
        rd_fail(&r, "sides");
    } else {
        for (size_t i = 0; i < json_array_size(sides); i++) {
            json_t *s = json_array_get(sides, i);
            struct enc_side *x = &e->sides[e->nsides++];
            rd_str(&r, s, "name", x->name, sizeof x->name);
            if (sys->side_state.size > 0 &&
                (x->st = eng_calloc(1, sys->side_state.size)) == NULL) {
                r.nomem = true;
                rd_fail(&r, "state");
                break;
            }
            rd_rs_state(&r, s, &sys->side_state, x->st);
        }
    }
    e->acting_side = (int)rd_int(&r, o, "acting_side", -1, e->nsides - 1);

    json_t *cs = json_object_get(o, "combatants");
    if (!json_is_array(cs) || json_array_size(cs) > ENC_MAX_COMBATANTS) {
        rd_fail(&r, "combatants");
    } else if (json_array_size(cs) > 0) {
        size_t n = json_array_size(cs);
        e->cs = eng_calloc(n, sizeof *e->cs);
        if (e->cs == NULL) {
            enc_free(e);
            json_decref(o);
            snprintf(err, errlen, "out of memory");
            return BOT_NOMEM;
        }
        e->cs_cap = (int)n;
        for (size_t i = 0; i < n && !r.bad; i++) {
            rd_combatant(&r, json_array_get(cs, i), &e->cs[i], e->nsides,
                         &sys->comb_state);
            e->ncs++;
        }
    }
    json_t *order = json_object_get(o, "order");
    if (!json_is_array(order) || json_array_size(order) > ENC_MAX_ORDER) {
        rd_fail(&r, "order");
    } else {
        for (size_t i = 0; i < json_array_size(order); i++) {
            json_t *s = json_array_get(order, i);
            json_t *id = json_array_get(s, 0), *ix = json_array_get(s, 1);
            if (!json_is_integer(id) || !json_is_integer(ix) ||
                json_integer_value(ix) < 0 ||
                json_integer_value(ix) >= ENC_MAX_INIT) {
                rd_fail(&r, "order");
                break;
            }
            e->order[e->norder].id = (uint32_t)json_integer_value(id);
            e->order[e->norder].init_idx = (int)json_integer_value(ix);
            e->norder++;
        }
    }
    e->turn_idx = (int)rd_int(&r, o, "turn_idx", -1, e->norder);
    if (!r.bad)
        rd_cds(&r, json_object_get(o, "countdowns"), e);
    rd_rs_state(&r, o, &sys->enc_state, e->st);
    json_decref(o);
    if (r.bad) {
        enc_free(e);
        return r.nomem ? BOT_NOMEM : BOT_INVALID;
    }
    *out = e;
    return BOT_OK;
}
