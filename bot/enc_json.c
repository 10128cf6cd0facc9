/*
 * enc_json.c - encounter <-> JSON.
 *
 * Numbers that can exceed 2^53 (user ids, version counters) are written as
 * decimal strings so any JSON reader keeps them exact.
 */
#include "enc_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "eng_alloc.h"
#include "eng_text.h"

/* ---- writing ------------------------------------------------------------- */

static json_t *u64_str(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return json_string(buf);
}

static json_t *i64_array(const int64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a != NULL && i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

/* Ruleset slots: written sparsely, trailing zeros dropped. */
static json_t *rs_slots(const int64_t *v)
{
    int n = ENC_RS_SLOTS;
    while (n > 0 && v[n - 1] == 0)
        n--;
    return i64_array(v, n);
}

static json_t *dump_combatant(const struct enc_combatant *c)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "id", json_integer(c->id));
    json_object_set_new(o, "name", json_string(c->name));
    json_object_set_new(o, "owner", u64_str(c->owner));
    json_object_set_new(o, "side", json_integer(c->side));
    json_object_set_new(o, "hidden", json_boolean(c->hidden));
    json_object_set_new(o, "group", json_integer(c->group));
    json_object_set_new(o, "flags", json_integer(c->flags));
    json_object_set_new(o, "join", json_integer(c->join_seq));
    json_object_set_new(o, "init_expr", json_string(c->init_expr));
    json_object_set_new(o, "init", i64_array(c->init, c->ninit));
    json_object_set_new(o, "tie", json_integer(c->init_tie));
    json_t *st = json_object();
    for (int i = 0; st != NULL && i < c->nstats; i++)
        json_object_set_new(st, c->stats[i].name,
                            json_integer(c->stats[i].value));
    json_object_set_new(o, "stats", st);
    json_t *tr = json_array();
    for (int i = 0; tr != NULL && i < c->ntracks; i++)
        json_array_append_new(tr, json_pack("{s:s, s:I, s:I}",
                                            "name", c->tracks[i].name,
                                            "cur", (json_int_t)c->tracks[i].cur,
                                            "max",
                                            (json_int_t)c->tracks[i].max));
    json_object_set_new(o, "tracks", tr);
    json_t *cd = json_array();
    for (int i = 0; cd != NULL && i < c->nconds; i++) {
        const struct enc_cond *q = &c->conds[i];
        json_array_append_new(cd, json_pack(
            "{s:s, s:i, s:i, s:i, s:I, s:s, s:I, s:o}",
            "name", q->name, "value", (int)q->value, "cap", (int)q->cap,
            "rounds", (int)q->rounds, "anchor", (json_int_t)q->anchor,
            "expire", q->expire == ENC_EXPIRE_START ? "start" : "end",
            "source", (json_int_t)q->source,
            "applied", u64_str(q->applied_turn)));
    }
    json_object_set_new(o, "conds", cd);
    json_object_set_new(o, "note", json_string(c->note));
    json_object_set_new(o, "rs", rs_slots(c->rs));
    return o;
}

char *enc_json_dump(const struct encounter *e)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "v", json_integer(ENC_JSON_VERSION));
    json_object_set_new(o, "ruleset", json_string(e->ruleset));
    json_object_set_new(o, "name", json_string(e->name));
    json_object_set_new(o, "gm", u64_str(e->gm));
    json_object_set_new(o, "version", json_integer(e->version));
    json_object_set_new(o, "status", json_integer(e->status));
    json_object_set_new(o, "round", json_integer(e->round));
    json_object_set_new(o, "phase", json_integer(e->phase));
    json_object_set_new(o, "current", json_integer(e->current));
    json_object_set_new(o, "acting_side", json_integer(e->acting_side));
    json_object_set_new(o, "turn_seq", u64_str(e->turn_seq));
    json_object_set_new(o, "notices", json_boolean(e->notices));
    json_object_set_new(o, "tracker", u64_str(e->tracker_msg));
    json_object_set_new(o, "next_id", json_integer(e->next_id));
    json_object_set_new(o, "next_join", json_integer(e->next_join));
    json_object_set_new(o, "turn_idx", json_integer(e->turn_idx));
    json_t *set = json_object();
    for (int i = 0; set != NULL && i < e->nsettings; i++)
        json_object_set_new(set, e->settings[i].key,
                            json_string(e->settings[i].value));
    json_object_set_new(o, "settings", set);
    json_t *sides = json_array();
    for (int i = 0; sides != NULL && i < e->nsides; i++)
        json_array_append_new(sides, json_pack("{s:s, s:o}",
                                               "name", e->sides[i].name,
                                               "rs",
                                               rs_slots(e->sides[i].rs)));
    json_object_set_new(o, "sides", sides);
    json_t *cs = json_array();
    for (int i = 0; cs != NULL && i < e->ncs; i++)
        json_array_append_new(cs, dump_combatant(&e->cs[i]));
    json_object_set_new(o, "combatants", cs);
    json_t *order = json_array();
    for (int i = 0; order != NULL && i < e->norder; i++)
        json_array_append_new(order, json_pack("[I,i]",
                                               (json_int_t)e->order[i].id,
                                               e->order[i].init_idx));
    json_object_set_new(o, "order", order);
    json_object_set_new(o, "rs", rs_slots(e->rs));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

/* ---- reading ------------------------------------------------------------- */

struct rd {
    char *err;
    size_t errlen;
    bool bad;
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

static void rd_slots(struct rd *r, json_t *a, int64_t *out)
{
    memset(out, 0, ENC_RS_SLOTS * sizeof *out);
    if (!json_is_array(a) || json_array_size(a) > ENC_RS_SLOTS) {
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

static void rd_combatant(struct rd *r, json_t *o, struct enc_combatant *c,
                         int nsides)
{
    memset(c, 0, sizeof *c);
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
    rd_slots(r, json_object_get(o, "rs"), c->rs);
}

enum bot_err enc_json_load(const char *doc, struct encounter **out, char *err,
                           size_t errlen)
{
    struct rd r = {err, errlen, false};
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
    struct encounter *e = enc_new(ruleset, name, rd_u64(&r, o, "gm"));
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
            rd_slots(&r, json_object_get(s, "rs"), x->rs);
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
            rd_combatant(&r, json_array_get(cs, i), &e->cs[i], e->nsides);
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
    rd_slots(&r, json_object_get(o, "rs"), e->rs);
    json_decref(o);
    if (r.bad) {
        enc_free(e);
        return BOT_INVALID;
    }
    *out = e;
    return BOT_OK;
}
