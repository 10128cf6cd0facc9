/*
 * sheet_json.c - a saved sheet, its JSON document and its checks against
 * the rule system (sheet_json.h).
 */
#include "sheet_json.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "eng_text.h"
#include "rs_kit.h"
#include "sbuf.h"

void sheet_init(struct sheet *sh, const struct rs_system *sys)
{
    memset(sh, 0, sizeof *sh);
    enc_copy(sh->system, sizeof sh->system, sys->id);
}

struct enc_track *sheet_track(struct sheet *sh, const char *name)
{
    for (int i = 0; i < sh->ntracks; i++)
        if (enc_name_eq(sh->tracks[i].name, name))
            return &sh->tracks[i];
    return NULL;
}

/* ---- the document ------------------------------------------------------ */

/* Add v under key to o (o steals v); false on no memory. */
static bool put(json_t *o, const char *key, json_t *v)
{
    return v != NULL && json_object_set_new(o, key, v) == 0;
}

static json_t *dump_attacks(const struct sheet *sh)
{
    json_t *a = json_array();
    for (int i = 0; a != NULL && i < sh->nattacks; i++) {
        const struct enc_attack *x = &sh->attacks[i];
        json_t *o = json_object();
        if (!put(o, "name", json_string(x->name)) ||
            !put(o, "roll", json_string(x->roll)) ||
            !put(o, "damage", json_string(x->damage)) ||
            !put(o, "options", json_string(x->options)) ||
            json_array_append_new(a, o) != 0) {
            json_decref(o);
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

char *sheet_json_dump(const struct sheet *sh)
{
    json_t *o = json_object(), *stats = json_object(), *tracks = json_object();
    bool ok = o != NULL && put(o, "v", json_integer(SHEET_JSON_VERSION)) &&
              put(o, "system", json_string(sh->system));
    for (int i = 0; ok && i < sh->nstats; i++)
        ok = stats != NULL &&
             put(stats, sh->stats[i].name, json_integer(sh->stats[i].value));
    for (int i = 0; ok && i < sh->ntracks; i++)
        ok = tracks != NULL &&
             put(tracks, sh->tracks[i].name,
                 json_pack("{sIsI}", "cur", (json_int_t)sh->tracks[i].cur,
                           "max", (json_int_t)sh->tracks[i].max));
    ok = ok && put(o, "stats", stats);
    stats = NULL;
    ok = ok && put(o, "tracks", tracks);
    tracks = NULL;
    ok = ok && put(o, "init", json_string(sh->init)) &&
         put(o, "attacks", dump_attacks(sh)) &&
         put(o, "note", json_string(sh->note));
    json_t *conds = json_array();
    for (int i = 0; ok && conds != NULL && i < sh->nconds; i++)
        ok = json_array_append_new(
                 conds, json_pack("{sssi}", "name", sh->conds[i].name,
                                  "value", (int)sh->conds[i].value)) == 0;
    ok = ok && put(o, "conds", conds);
    if (!ok)
        json_decref(conds);
    char *doc = ok ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(stats);
    json_decref(tracks);
    json_decref(o);
    return doc;
}

/* The loader's state: the first problem, named by its field. */
struct rd {
    char *err;
    size_t errlen;
    bool failed;
};

static void rd_fail(struct rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void rd_fail(struct rd *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
}

/* Member key of o as a string of at most max bytes into dst (size
 * max + 1); absent is "" unless required. */
static void rd_text(struct rd *r, json_t *o, const char *where,
                    const char *key, char *dst, size_t max, bool required)
{
    json_t *v = json_object_get(o, key);
    dst[0] = '\0';
    if (v == NULL && !required)
        return;
    const char *s = json_string_value(v);
    if (s == NULL)
        rd_fail(r, "%s%s: should be text", where, key);
    else if (strlen(s) > max)
        rd_fail(r, "%s%s: too long (limit is %zu bytes)", where, key, max);
    else if (required && s[0] == '\0')
        rd_fail(r, "%s%s: empty", where, key);
    else
        memcpy(dst, s, strlen(s) + 1);
}

static bool rd_int(struct rd *r, json_t *v, const char *where,
                   const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        rd_fail(r, "%s%s: should be a whole number from %lld to %lld", where,
                key, (long long)lo, (long long)hi);
        return false;
    }
    *out = json_integer_value(v);
    return true;
}

/* Only the members a sheet has: a misspelled one is refused, not lost. */
static void rd_members(struct rd *r, json_t *o, const char *where,
                       const char *const *known)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        size_t i = 0;
        while (known[i] != NULL && strcmp(known[i], k) != 0)
            i++;
        if (known[i] == NULL)
            rd_fail(r, "%s%.40s: not part of a sheet", where, k);
    }
}

static void rd_stats(struct rd *r, json_t *st, struct sheet *out)
{
    if (st == NULL)
        return;
    if (!json_is_object(st) || json_object_size(st) > ENC_MAX_STATS) {
        rd_fail(r, "stats: should be an object of at most %d stats",
                ENC_MAX_STATS);
        return;
    }
    const char *k;
    json_t *v;
    json_object_foreach(st, k, v) {
        struct enc_kv *s = &out->stats[out->nstats];
        if (k[0] == '\0' || strlen(k) > ENC_MAX_STAT_NAME) {
            rd_fail(r, "stats: a stat's name should be 1 to %d bytes",
                    ENC_MAX_STAT_NAME);
            return;
        }
        if (!rd_int(r, v, "stats.", k, -ENC_MAX_VALUE, ENC_MAX_VALUE,
                    &s->value))
            return;
        memcpy(s->name, k, strlen(k) + 1);
        out->nstats++;
    }
}

static void rd_tracks(struct rd *r, json_t *tr, struct sheet *out)
{
    static const char *const known[] = {"cur", "max", NULL};
    if (tr == NULL)
        return;
    if (!json_is_object(tr) || json_object_size(tr) > ENC_MAX_TRACKS) {
        rd_fail(r, "tracks: should be an object of at most %d tracks",
                ENC_MAX_TRACKS);
        return;
    }
    const char *k;
    json_t *v;
    json_object_foreach(tr, k, v) {
        struct enc_track *t = &out->tracks[out->ntracks];
        char where[ENC_MAX_STAT_NAME + 16];
        if (k[0] == '\0' || strlen(k) > ENC_MAX_STAT_NAME || !json_is_object(v)) {
            rd_fail(r, "tracks: each track should be a name of 1 to %d "
                    "bytes with {\"cur\":..,\"max\":..}", ENC_MAX_STAT_NAME);
            return;
        }
        snprintf(where, sizeof where, "tracks.%s.", k);
        rd_members(r, v, where, known);
        if (!rd_int(r, json_object_get(v, "cur"), where, "cur",
                    -ENC_MAX_VALUE, ENC_MAX_VALUE, &t->cur) ||
            !rd_int(r, json_object_get(v, "max"), where, "max", 0,
                    ENC_MAX_VALUE, &t->max))
            return;
        memcpy(t->name, k, strlen(k) + 1);
        out->ntracks++;
    }
}

static void rd_attacks(struct rd *r, json_t *at, struct sheet *out)
{
    static const char *const known[] = {"name", "roll", "damage", "options",
                                        NULL};
    if (at == NULL)
        return;
    if (!json_is_array(at) || json_array_size(at) > ENC_MAX_ATTACKS) {
        rd_fail(r, "attacks: should be a list of at most %d attacks",
                ENC_MAX_ATTACKS);
        return;
    }
    for (size_t i = 0; i < json_array_size(at) && !r->failed; i++) {
        json_t *o = json_array_get(at, i);
        struct enc_attack *a = &out->attacks[out->nattacks++];
        char where[32];
        snprintf(where, sizeof where, "attacks[%zu].", i);
        if (!json_is_object(o)) {
            rd_fail(r, "%s: should be an object", where);
            return;
        }
        rd_members(r, o, where, known);
        rd_text(r, o, where, "name", a->name, ENC_MAX_ATTACK_NAME, true);
        rd_text(r, o, where, "roll", a->roll, ENC_MAX_ATTACK_EXPR, false);
        rd_text(r, o, where, "damage", a->damage, ENC_MAX_ATTACK_EXPR, false);
        rd_text(r, o, where, "options", a->options, ENC_MAX_ATTACK_OPTS,
                false);
    }
}

static void rd_conds(struct rd *r, json_t *cd, struct sheet *out)
{
    static const char *const known[] = {"name", "value", NULL};
    if (cd == NULL)
        return;
    if (!json_is_array(cd) || json_array_size(cd) > ENC_MAX_CONDITIONS) {
        rd_fail(r, "conds: should be a list of at most %d conditions",
                ENC_MAX_CONDITIONS);
        return;
    }
    for (size_t i = 0; i < json_array_size(cd) && !r->failed; i++) {
        json_t *o = json_array_get(cd, i);
        struct sheet_cond *q = &out->conds[out->nconds++];
        char where[32];
        int64_t v = 0;
        snprintf(where, sizeof where, "conds[%zu].", i);
        if (!json_is_object(o)) {
            rd_fail(r, "%s: should be an object", where);
            return;
        }
        rd_members(r, o, where, known);
        rd_text(r, o, where, "name", q->name, ENC_MAX_COND_NAME, true);
        if (rd_int(r, json_object_get(o, "value"), where, "value",
                   -ENC_MAX_VALUE, ENC_MAX_VALUE, &v))
            q->value = (int32_t)v;
    }
}

enum bot_err sheet_json_load(const char *doc, struct sheet *out, char *err,
                             size_t errlen)
{
    static const char *const known[] = {"v", "system", "stats", "tracks",
                                        "init", "attacks", "note", "conds",
                                        NULL};
    struct rd r = {err, errlen, false};
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *o = json_loads(doc, JSON_REJECT_DUPLICATES, &jerr);
    if (o == NULL || !json_is_object(o)) {
        snprintf(err, errlen, "not a sheet: %s",
                 o == NULL ? jerr.text : "not an object");
        json_decref(o);
        return BOT_INVALID;
    }
    int64_t v = 0;
    rd_int(&r, json_object_get(o, "v"), "", "v", 1, SHEET_JSON_VERSION, &v);
    rd_members(&r, o, "", known);
    rd_text(&r, o, "", "system", out->system, ENC_MAX_RS_ID, true);
    rd_stats(&r, json_object_get(o, "stats"), out);
    rd_tracks(&r, json_object_get(o, "tracks"), out);
    rd_text(&r, o, "", "init", out->init, ENC_MAX_INIT_EXPR, false);
    rd_attacks(&r, json_object_get(o, "attacks"), out);
    rd_text(&r, o, "", "note", out->note, ENC_MAX_NOTE, false);
    rd_conds(&r, json_object_get(o, "conds"), out);
    json_decref(o);
    return r.failed ? BOT_INVALID : BOT_OK;
}

/* ---- checks against the system ----------------------------------------- */

/* A fight of sys with one combatant, to check a sheet by the path a real
 * one takes; NULL (d says so) on no memory. */
static struct encounter *scratch(const struct rs_system *sys,
                                 struct enc_diag *d)
{
    struct encounter *e = enc_new(sys, "sheet", 0);
    if (e == NULL) {
        enc_fail(d, ENG_NOMEM, "out of memory");
        return NULL;
    }
    if (enc_add(e, "sheet", 1, 0, -1, d, NULL) != ENG_OK) {
        enc_free(e);
        return NULL;
    }
    return e;
}

static struct rs_call scratch_call(struct encounter *e, const void *data,
                                   struct enc_diag *d)
{
    return (struct rs_call){.e = e, .d = d, .is_gm = true, .data = data};
}

enum eng_err sheet_apply(struct rs_call *c, const struct rs_system *sys,
                         const struct sheet *sh, struct enc_combatant *who)
{
    for (int i = 0; i < sh->nstats; i++) {
        const struct enc_kv *s = &sh->stats[i];
        if (rs_stat_kind(sys, s->name) == RS_TRACK)
            return enc_fail(c->d, ENG_INVALID, "%s is a track of the %s "
                            "system, not a stat", s->name, sys->id);
        if (rs_stat_check(c, sys, who, s->name, s->value) != ENG_OK ||
            enc_stat_set(who, s->name, s->value, c->d) != ENG_OK)
            return c->d->code;
    }
    for (int i = 0; i < sh->ntracks; i++) {
        const struct enc_track *t = &sh->tracks[i];
        if (rs_stat_kind(sys, t->name) != RS_TRACK || sys->stats == NULL)
            return enc_fail(c->d, ENG_INVALID, "the %s system has no track "
                            "%s", sys->id, t->name);
        if (rs_stat_check(c, sys, who, t->name, t->max) != ENG_OK ||
            enc_track_set(who, t->name, t->cur, t->max, c->d) != ENG_OK)
            return c->d->code;
    }
    if (sh->init[0] != '\0')
        enc_copy(who->init_expr, sizeof who->init_expr, sh->init);
    memcpy(who->attacks, sh->attacks,
           (size_t)sh->nattacks * sizeof sh->attacks[0]);
    who->nattacks = sh->nattacks;
    enc_copy(who->note, sizeof who->note, sh->note);
    for (int i = 0; c->r != NULL && i < sh->nconds; i++) {
        const struct enc_cond_req q = {.name = sh->conds[i].name,
                                       .value = sh->conds[i].value};
        if (enc_cond_set(c->e, who, &q, c->r, c->d) != ENG_OK)
            return c->d->code;
    }
    return ENG_OK;
}

/* The flags sys (with data) declares for condition name; 0: none. */
static unsigned cond_flags(const struct rs_system *sys, const void *data,
                           const char *name)
{
    int n = 0;
    const struct rs_cond_spec *list = rs_cond_specs(sys, data, &n);
    for (int i = 0; i < n; i++)
        if (eng_text_casecmp(list[i].name, name) == 0)
            return list[i].flags;
    return 0;
}

bool sheet_has_rest(const struct rs_system *sys, const void *data)
{
    for (const struct rs_lasting *l = sys->lasts; l != NULL && l->stat; l++)
        if (l->flags & RS_LAST_REST)
            return true;
    int n = 0;
    const struct rs_cond_spec *list = rs_cond_specs(sys, data, &n);
    for (int i = 0; i < n; i++)
        if ((list[i].flags & RS_COND_LASTS) && (list[i].flags & RS_COND_REST))
            return true;
    return false;
}

int sheet_rest(const struct rs_system *sys, const void *data,
               struct sheet *sh, struct sbuf *what)
{
    int changed = 0;
    for (const struct rs_lasting *l = sys->lasts; l != NULL && l->stat;
         l++) {
        if (!(l->flags & RS_LAST_REST))
            continue;
        for (int i = 0; i < sh->nstats; i++) {
            if (!enc_name_eq(sh->stats[i].name, l->stat) ||
                sh->stats[i].value == l->rest)
                continue;
            sbuf_addf(what, "%s%s %" PRId64, changed++ ? ", " : "",
                      l->stat, l->rest);
            if (l->rest == 0)
                sh->stats[i] = sh->stats[--sh->nstats];
            else
                sh->stats[i].value = l->rest;
            break;
        }
    }
    int kept = 0;
    for (int i = 0; i < sh->nconds; i++) {
        unsigned f = cond_flags(sys, data, sh->conds[i].name);
        if ((f & RS_COND_LASTS) && (f & RS_COND_REST)) {
            sbuf_addf(what, "%s%s ends", changed++ ? ", " : "",
                      sh->conds[i].name);
            continue;
        }
        sh->conds[kept++] = sh->conds[i];
    }
    sh->nconds = kept;
    return changed;
}

bool sheet_cond_lasts(const struct rs_system *sys, const void *data,
                      const char *name)
{
    return (cond_flags(sys, data, name) & RS_COND_LASTS) != 0;
}

enum eng_err sheet_check(const struct rs_system *sys, const void *data,
                         const struct sheet *sh, struct enc_diag *d)
{
    if (!enc_name_eq(sh->system, sys->id))
        return enc_fail(d, ENG_INVALID, "the sheet is for the %s system, "
                        "not %s", sh->system, sys->id);
    struct encounter *e = scratch(sys, d);
    if (e == NULL)
        return d->code;
    struct rs_call c = scratch_call(e, data, d);
    enum eng_err err = ENG_OK;
    for (int i = 0; err == ENG_OK && i < sh->ntracks; i++)
        if (sh->tracks[i].cur > sh->tracks[i].max)
            err = enc_fail(d, ENG_RANGE, "%s: its current %lld is over its "
                           "maximum %lld", sh->tracks[i].name,
                           (long long)sh->tracks[i].cur,
                           (long long)sh->tracks[i].max);
    if (err == ENG_OK)
        err = sheet_apply(&c, sys, sh, &e->cs[0]);
    for (int i = 0; err == ENG_OK && i < sh->nattacks; i++)
        err = sheet_attack_check(sys, data, &sh->attacks[i], d);
    for (int i = 0; err == ENG_OK && i < sh->nconds; i++)
        if (!sheet_cond_lasts(sys, data, sh->conds[i].name))
            err = enc_fail(d, ENG_INVALID, "conds: %s is not a condition "
                           "the %s system keeps after a fight",
                           sh->conds[i].name, sys->id);
    enc_free(e);
    return err;
}

/* An attack's roll or damage: empty, a whole number (a pool, a weight) or
 * dice the dice language accepts. */
static enum eng_err check_expr(const char *attack, const char *what,
                               const char *expr, struct enc_diag *d)
{
    int64_t n;
    if (expr[0] == '\0' || eng_text_to_int(expr, &n))
        return ENG_OK;
    struct dice_expr *x = NULL;
    struct dice_diag dd = {0};
    enum eng_err err = dice_parse(expr, strlen(expr), &x, &dd);
    dice_expr_free(x);
    if (err != ENG_OK)
        return enc_fail(d, err, "%s: %s \"%s\": %s", attack, what, expr,
                        dd.msg);
    return ENG_OK;
}

/* Options that name combatants or sides mean something in one fight
 * only; a saved attack cannot carry them. */
static bool names_someone(const struct rs_opt_spec *s)
{
    return s->val == RS_VAL_COMBATANT || s->val == RS_VAL_OWN ||
           s->val == RS_VAL_NAMES || s->val == RS_VAL_SIDE ||
           s->val == RS_VAL_SIDE_ANY;
}

static enum eng_err check_options(const struct rs_system *sys,
                                  const void *data, const struct enc_attack *a,
                                  struct enc_diag *d)
{
    if (a->options[0] == '\0')
        return ENG_OK;
    if (sys->attack_opts == NULL)
        return enc_fail(d, ENG_INVALID, "%s: attacks in the %s system take "
                        "no options", a->name, sys->id);
    char buf[ENC_MAX_ATTACK_OPTS * 2 + 2];
    struct rs_token tok[RS_MAX_TOKENS];
    int ntok = 0;
    if (rs_tokens(a->options, buf, sizeof buf, tok, RS_MAX_TOKENS, &ntok,
                  d) != ENG_OK)
        return d->code;
    for (int i = 0; i < ntok; i++)
        for (const struct rs_opt_spec *s = sys->attack_opts; s->name; s++)
            if (eng_text_casecmp(s->name, tok[i].key) == 0 && names_someone(s))
                return enc_fail(d, ENG_INVALID, "%s: %s names someone in "
                                "one fight; give it with /attack options: "
                                "when you attack", a->name, s->name);
    struct encounter *e = scratch(sys, d);
    if (e == NULL)
        return d->code;
    struct rs_call c = scratch_call(e, data, d);
    struct rs_arg args[RS_MAX_TOKENS];
    int nargs = 0;
    char what[ENC_MAX_ATTACK_NAME + 16];
    snprintf(what, sizeof what, "%s options:", a->name);
    enum eng_err err = rs_bind_tokens(&c, what, sys->attack_opts, a->options,
                                      buf, sizeof buf, args, RS_MAX_TOKENS,
                                      &nargs, d);
    enc_free(e);
    return err;
}

enum eng_err sheet_attack_check(const struct rs_system *sys, const void *data,
                                const struct enc_attack *a,
                                struct enc_diag *d)
{
    if (enc_check_name(a->name, "an attack's name", ENC_MAX_ATTACK_NAME, d) !=
            ENG_OK ||
        check_expr(a->name, "roll", a->roll, d) != ENG_OK ||
        check_expr(a->name, "damage", a->damage, d) != ENG_OK)
        return d->code;
    return check_options(sys, data, a, d);
}

enum eng_err sheet_attack_put(struct sheet *sh, const struct enc_attack *a,
                              struct enc_diag *d)
{
    for (int i = 0; i < sh->nattacks; i++)
        if (enc_name_eq(sh->attacks[i].name, a->name)) {
            sh->attacks[i] = *a;
            return ENG_OK;
        }
    if (sh->nattacks == ENC_MAX_ATTACKS)
        return enc_fail(d, ENG_LIMIT, "a sheet has at most %d attacks; "
                        "remove one first", ENC_MAX_ATTACKS);
    sh->attacks[sh->nattacks++] = *a;
    return ENG_OK;
}

bool sheet_attack_remove(struct sheet *sh, const char *name)
{
    for (int i = 0; i < sh->nattacks; i++)
        if (enc_name_eq(sh->attacks[i].name, name)) {
            memmove(&sh->attacks[i], &sh->attacks[i + 1],
                    (size_t)(sh->nattacks - i - 1) * sizeof sh->attacks[0]);
            sh->nattacks--;
            return true;
        }
    return false;
}

/* Put track t on sh at full (cur = max), replacing one of its name. */
static enum eng_err put_track(struct sheet *sh, const char *name,
                              int64_t value, struct enc_diag *d)
{
    struct enc_track *t = sheet_track(sh, name);
    if (t == NULL && sh->ntracks == ENC_MAX_TRACKS)
        return enc_fail(d, ENG_LIMIT, "a sheet has at most %d tracks",
                        ENC_MAX_TRACKS);
    if (t == NULL)
        t = &sh->tracks[sh->ntracks++];
    enc_copy(t->name, sizeof t->name, name);
    t->cur = t->max = value;
    return ENG_OK;
}

/* A track given as a stat becomes the track the system makes of it when
 * a combatant is set up (resolve keeps Resolve in its hp track), so the
 * sheet holds what a fight holds and the write-back finds it again.
 * Returns whether the system made tracks of it (put on sh). */
static bool system_tracks(const struct rs_system *sys, struct rs_call *c,
                          struct enc_combatant *who, const char *name,
                          int64_t value, struct sheet *sh)
{
    if (enc_stat_set(who, name, value, c->d) != ENG_OK ||
        sys->ops->setup(c, who) != ENG_OK || enc_stat(who, name) != NULL ||
        who->ntracks == 0)
        return false;
    for (int i = 0; i < who->ntracks; i++)
        if (put_track(sh, who->tracks[i].name, who->tracks[i].max, c->d) !=
            ENG_OK)
            return false;
    return true;
}

enum eng_err sheet_set(const struct rs_system *sys, const void *data,
                       struct sheet *sh, const char *name, int64_t value,
                       struct enc_diag *d)
{
    struct encounter *e = scratch(sys, d);
    if (e == NULL)
        return d->code;
    struct rs_call c = scratch_call(e, data, d);
    enum eng_err err = rs_stat_check(&c, sys, &e->cs[0], name, value);
    bool made = err == ENG_OK && rs_stat_kind(sys, name) == RS_TRACK &&
                system_tracks(sys, &c, &e->cs[0], name, value, sh);
    enc_free(e);
    if (err != ENG_OK || made)
        return err;
    memset(d, 0, sizeof *d);
    /* The declared spelling, so one stat is never kept twice. */
    const char *spelled = name;
    for (const struct rs_stat_spec *p = sys->stats; p && p->name; p++)
        if (eng_text_casecmp(p->name, name) == 0)
            spelled = p->name;
    if (rs_stat_kind(sys, name) == RS_TRACK && sys->stats != NULL)
        return put_track(sh, spelled, value, d);
    for (int i = 0; i < sh->nstats; i++)
        if (enc_name_eq(sh->stats[i].name, spelled)) {
            sh->stats[i].value = value;
            return ENG_OK;
        }
    if (sh->nstats == ENC_MAX_STATS)
        return enc_fail(d, ENG_LIMIT, "a sheet has at most %d stats",
                        ENC_MAX_STATS);
    struct enc_kv *s = &sh->stats[sh->nstats++];
    enc_copy(s->name, sizeof s->name, spelled);
    for (char *p = s->name; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    s->value = value;
    return ENG_OK;
}
