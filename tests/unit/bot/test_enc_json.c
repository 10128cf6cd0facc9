/* Encounter documents: round trip, and damaged documents refused. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "enc_cd.h"
#include "enc_json.h"
#include "enc_pack.h"
#include "rs.h"

/* Set the int64 field name of a ruleset state st (the test fails when the
 * state has none). */
static void set_field(const struct rs_state_spec *sp, void *st,
                      const char *name, int64_t v)
{
    for (int i = 0; i < sp->nfields; i++)
        if (strcmp(sp->fields[i].name, name) == 0 &&
            sp->fields[i].type == RS_F_I64) {
            memcpy((char *)st + sp->fields[i].offset, &v, sizeof v);
            return;
        }
    fail_msg("no int64 field %s", name);
}

static int64_t get_field(const struct rs_state_spec *sp, const void *st,
                         const char *name)
{
    int64_t v = 0;
    for (int i = 0; i < sp->nfields; i++)
        if (strcmp(sp->fields[i].name, name) == 0)
            memcpy(&v, (const char *)st + sp->fields[i].offset, sizeof v);
    return v;
}

static struct encounter *sample(void)
{
    struct encounter *e = enc_new(rs_find("generic"), "Bridge", 77);
    struct enc_diag d;
    uint32_t ids[3];
    assert_int_equal(enc_add(e, "Goblin", 3, 0, -1, &d, ids), ENG_OK);
    assert_int_equal(enc_side_get(e, "heroes", &d), 0);
    assert_int_equal(enc_add(e, "@everyone \"quoted\" \xC3\xA9", 1,
                             UINT64_C(123456789012345678), 0, &d, NULL),
                     ENG_OK);
    struct enc_combatant *c = enc_by_id(e, ids[1]);
    c->hidden = true;
    c->init[0] = 17;
    c->init[1] = -3;
    c->ninit = 2;
    assert_int_equal(enc_stat_set(c, "ac", 13, &d), ENG_OK);
    assert_int_equal(enc_track_set(c, "hp", 4, 7, &d), ENG_OK);
    struct enc_result r;
    enc_result_init(&r);
    struct enc_cond_req q = {.name = "Poisoned", .value = 2, .cap = 3,
                             .rounds = 4, .expire = ENC_EXPIRE_START};
    assert_int_equal(enc_cond_add(e, c, &q, &r, &d), ENG_OK);
    enc_result_cleanup(&r);
    snprintf(c->note, sizeof c->note, "line one");
    set_field(&e->sys->comb_state, c->st, "fails", -42);
    e->order[0] = (struct enc_slot){ids[1], 1};
    e->norder = 1;
    e->turn_idx = 0;
    e->current = ids[1];
    e->status = ENC_ST_RUNNING;
    e->round = 3;
    e->turn_seq = UINT64_C(9007199254740993); /* > 2^53 */
    assert_int_equal(enc_setting_set(e, "phases", "on", &d), ENG_OK);
    return e;
}


/* ---- the jansson writer enc_json_dump() replaced, as the reference ------ */

static json_t *ref_u64(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return json_string(buf);
}

/* One state field's value (element k of an array). */
static json_t *ref_field(const struct rs_field *f, const char *p)
{
    int64_t i64;
    int32_t i32;
    uint32_t u32;
    bool b;
    switch (f->type) {
    case RS_F_I64:
        memcpy(&i64, p, sizeof i64);
        return json_integer(i64);
    case RS_F_I32:
        memcpy(&i32, p, sizeof i32);
        return json_integer(i32);
    case RS_F_U32:
        memcpy(&u32, p, sizeof u32);
        return json_integer(u32);
    case RS_F_BOOL:
        memcpy(&b, p, sizeof b);
        return json_boolean(b);
    case RS_F_STR:
        return json_string(p);
    }
    return json_null();
}

/* "st": the ruleset's typed state (fields that are all zero left out);
 * nothing for a ruleset without state of this kind. */
static void ref_state(json_t *o, const struct rs_state_spec *sp,
                      const void *st)
{
    if (sp->size == 0)
        return;
    json_t *s = json_object();
    for (int i = 0; i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        const char *p = (const char *)st + f->offset;
        size_t bytes = f->size * (size_t)(f->count > 1 ? f->count : 1);
        bool zero = true;
        for (size_t k = 0; k < bytes && zero; k++)
            zero = p[k] == 0;
        if (zero)
            continue;
        if (f->count > 1 && f->type != RS_F_STR) {
            json_t *a = json_array();
            for (int k = 0; k < f->count; k++)
                json_array_append_new(a, ref_field(f, p + f->size *
                                                          (size_t)k));
            json_object_set_new(s, f->name, a);
        } else {
            json_object_set_new(s, f->name, ref_field(f, p));
        }
    }
    json_object_set_new(o, "st", s);
}

static json_t *ref_combatant(const struct encounter *e,
                             const struct enc_combatant *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_integer(c->id));
    json_object_set_new(o, "name", json_string(c->name));
    json_object_set_new(o, "owner", ref_u64(c->owner));
    json_object_set_new(o, "side", json_integer(c->side));
    json_object_set_new(o, "hidden", json_boolean(c->hidden));
    json_object_set_new(o, "group", json_integer(c->group));
    json_object_set_new(o, "flags", json_integer(c->flags));
    json_object_set_new(o, "join", json_integer(c->join_seq));
    json_object_set_new(o, "init_expr", json_string(c->init_expr));
    json_t *init = json_array();
    for (int i = 0; i < c->ninit; i++)
        json_array_append_new(init, json_integer(c->init[i]));
    json_object_set_new(o, "init", init);
    json_object_set_new(o, "tie", json_integer(c->init_tie));
    json_t *st = json_object();
    for (int i = 0; i < c->nstats; i++)
        json_object_set_new(st, c->stats[i].name,
                            json_integer(c->stats[i].value));
    json_object_set_new(o, "stats", st);
    json_t *tr = json_array();
    for (int i = 0; i < c->ntracks; i++)
        json_array_append_new(tr, json_pack("{s:s, s:I, s:I}",
                                            "name", c->tracks[i].name,
                                            "cur", (json_int_t)c->tracks[i].cur,
                                            "max",
                                            (json_int_t)c->tracks[i].max));
    json_object_set_new(o, "tracks", tr);
    json_t *cd = json_array();
    for (int i = 0; i < c->nconds; i++) {
        const struct enc_cond *q = &c->conds[i];
        json_array_append_new(cd, json_pack(
            "{s:s, s:i, s:i, s:i, s:I, s:s, s:I, s:o}",
            "name", q->name, "value", (int)q->value, "cap", (int)q->cap,
            "rounds", (int)q->rounds, "anchor", (json_int_t)q->anchor,
            "expire", q->expire == ENC_EXPIRE_START ? "start" : "end",
            "source", (json_int_t)q->source,
            "applied", ref_u64(q->applied_turn)));
    }
    json_object_set_new(o, "conds", cd);
    json_object_set_new(o, "note", json_string(c->note));
    ref_state(o, &e->sys->comb_state, c->st);
    return o;
}

static char *ref_dump(const struct encounter *e)
{
    json_t *o = json_object();
    json_object_set_new(o, "v", json_integer(ENC_JSON_VERSION));
    json_object_set_new(o, "ruleset", json_string(e->ruleset));
    json_object_set_new(o, "name", json_string(e->name));
    json_object_set_new(o, "gm", ref_u64(e->gm));
    json_object_set_new(o, "version", json_integer(e->version));
    json_object_set_new(o, "status", json_integer(e->status));
    json_object_set_new(o, "round", json_integer(e->round));
    json_object_set_new(o, "phase", json_integer(e->phase));
    json_object_set_new(o, "current", json_integer(e->current));
    json_object_set_new(o, "acting_side", json_integer(e->acting_side));
    json_object_set_new(o, "turn_seq", ref_u64(e->turn_seq));
    json_object_set_new(o, "notices", json_boolean(e->notices));
    json_object_set_new(o, "tracker", ref_u64(e->tracker_msg));
    json_object_set_new(o, "next_id", json_integer(e->next_id));
    json_object_set_new(o, "next_join", json_integer(e->next_join));
    json_object_set_new(o, "turn_idx", json_integer(e->turn_idx));
    if (e->fight_id != 0)
        json_object_set_new(o, "fight", ref_u64(e->fight_id));
    if (e->trust)
        json_object_set_new(o, "trust", json_true());
    json_t *set = json_object();
    for (int i = 0; i < e->nsettings; i++)
        json_object_set_new(set, e->settings[i].key,
                            json_string(e->settings[i].value));
    json_object_set_new(o, "settings", set);
    json_t *sides = json_array();
    for (int i = 0; i < e->nsides; i++) {
        json_t *side = json_pack("{s:s}", "name", e->sides[i].name);
        ref_state(side, &e->sys->side_state, e->sides[i].st);
        json_array_append_new(sides, side);
    }
    json_object_set_new(o, "sides", sides);
    json_t *cs = json_array();
    for (int i = 0; i < e->ncs; i++)
        json_array_append_new(cs, ref_combatant(e, &e->cs[i]));
    json_object_set_new(o, "combatants", cs);
    json_t *order = json_array();
    for (int i = 0; i < e->norder; i++)
        json_array_append_new(order, json_pack("[I,i]",
                                               (json_int_t)e->order[i].id,
                                               e->order[i].init_idx));
    json_object_set_new(o, "order", order);
    ref_state(o, &e->sys->enc_state, e->st);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

/* The sample, plus every kind of value at its extremes and every string
 * escape the format has. */
static struct encounter *rich(void)
{
    struct encounter *e = sample();
    struct enc_diag d;
    assert_int_equal(enc_side_get(e, "villains \\ \"bad\"", &d), 1);
    struct enc_combatant *c = &e->cs[0];
    snprintf(c->note, sizeof c->note,
             "tab\\there\tnew\nline\r\x01\x1f\b\f/slash \xE2\x9C\x93 \xF0\x9F\x8E\xB2");
    c->init_tie = INT64_MIN;
    c->init[0] = INT64_MAX;
    c->ninit = 1;
    c->side = 1;
    c->group = UINT32_MAX;
    c->flags = ENC_CF_DOWN | ENC_CF_DEAD;
    c->owner = UINT64_MAX;
    snprintf(c->init_expr, sizeof c->init_expr, "d20+3");
    assert_int_equal(enc_stat_set(c, "str", -ENC_MAX_VALUE, &d), ENG_OK);
    assert_int_equal(enc_stat_set(c, "dex", ENC_MAX_VALUE, &d), ENG_OK);
    assert_int_equal(enc_track_set(c, "hp", -5, 0, &d), ENG_OK);
    assert_int_equal(enc_track_set(c, "mana", 3, 9, &d), ENG_OK);
    struct enc_result r;
    enc_result_init(&r);
    struct enc_cond_req q = {.name = "Blessed \"+1\"", .value = 0,
                             .rounds = 0, .expire = ENC_EXPIRE_END,
                             .source = 4};
    assert_int_equal(enc_cond_add(e, c, &q, &r, &d), ENG_OK);
    enc_result_cleanup(&r);
    c->conds[0].applied_turn = UINT64_MAX;
    set_field(&e->sys->comb_state, c->st, "saves", INT64_MIN);
    set_field(&e->sys->comb_state, c->st, "fails", INT64_MAX);
    e->fight_id = UINT64_MAX;
    e->trust = true;
    assert_int_equal(enc_setting_set(e, "mode", "a\\b \"c\"", &d), ENG_OK);
    e->phase = -7;
    e->acting_side = -1;
    e->notices = true;
    e->tracker_msg = UINT64_C(1234567890123456789);
    e->version = INT64_MAX;
    e->gm = 0;
    e->order[1] = (struct enc_slot){e->cs[2].id, 0};
    e->order[2] = (struct enc_slot){e->cs[0].id, 3};
    e->norder = 3;
    return e;
}

/* Set field name (element k) of a typed state st to v, through the
 * declaration: the test knows no ruleset's struct. */
static void set_typed(const struct rs_state_spec *sp, void *st,
                      const char *name, int k, int64_t v)
{
    for (int i = 0; i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        char *p = (char *)st + f->offset + f->size * (size_t)k;
        int32_t i32 = (int32_t)v;
        uint32_t u32 = (uint32_t)v;
        if (f->type == RS_F_BOOL)
            *(bool *)p = v != 0;
        else if (f->type == RS_F_I32)
            memcpy(p, &i32, sizeof i32);
        else if (f->type == RS_F_U32)
            memcpy(p, &u32, sizeof u32);
        else
            memcpy(p, &v, sizeof v);
        return;
    }
    fail_msg("no field %s", name);
}

/* A system with typed state (teams): numbers, flags, arrays and text, on
 * the encounter and on combatants. */
static struct encounter *typed(void)
{
    const struct rs_system *sys = rs_find("teams");
    struct encounter *e = enc_new(sys, "Gate", 1);
    struct enc_diag d;
    uint32_t ids[2];
    assert_int_equal(enc_side_get(e, "players", &d), 0);
    assert_int_equal(enc_side_get(e, "guards", &d), 1);
    assert_int_equal(enc_add(e, "Boudica", 1, 5, 0, &d, ids), ENG_OK);
    assert_int_equal(enc_add(e, "Guard", 1, 0, 1, &d, ids + 1), ENG_OK);
    set_typed(&sys->enc_state, e->st, "norder", 0, 2);
    set_typed(&sys->enc_state, e->st, "order", 1, 1);
    set_typed(&sys->enc_state, e->st, "surprise", 0, 1);
    struct enc_combatant *b = enc_by_id(e, ids[0]);
    set_typed(&sys->comb_state, b->st, "actions", 0, 2);
    set_typed(&sys->comb_state, b->st, "commanded", 2, UINT32_MAX);
    set_typed(&sys->comb_state, b->st, "fortify", 0, -1);
    for (int i = 0; i < sys->comb_state.nfields; i++)
        if (sys->comb_state.fields[i].type == RS_F_STR)
            snprintf((char *)b->st + sys->comb_state.fields[i].offset,
                     sys->comb_state.fields[i].size, "reload \"x\" \xC3\xA9");
    return e;
}

static void test_enc_json_writer_matches_jansson(void **state)
{
    (void)state;
    struct encounter *encs[] = {sample(), rich(),
                                enc_new(rs_find("teams"), "", 1), typed()};
    for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
        char *fast = enc_json_dump(encs[i]);
        char *slow = ref_dump(encs[i]);
        assert_non_null(fast);
        assert_non_null(slow);
        assert_string_equal(fast, slow);
        /* And it reads back to the same encounter. */
        struct encounter *back = NULL;
        char err[160];
        assert_int_equal(enc_json_load(fast, &back, err, sizeof err),
                         BOT_OK);
        char *again = enc_json_dump(back);
        assert_string_equal(again, fast);
        /* every byte alike, the typed state behind its pointer too */
        size_t stsize = encs[i]->sys->comb_state.size;
        for (int k = 0; k < encs[i]->ncs; k++) {
            if (stsize > 0)
                assert_memory_equal(back->cs[k].st, encs[i]->cs[k].st,
                                    stsize);
            void *st = back->cs[k].st;
            back->cs[k].st = encs[i]->cs[k].st;
            assert_memory_equal(&back->cs[k], &encs[i]->cs[k],
                                sizeof back->cs[k]);
            back->cs[k].st = st;
        }
        assert_string_equal(back->settings[0].value,
                            encs[i]->settings[0].value);
        free(again);
        enc_free(back);
        free(fast);
        free(slow);
        enc_free(encs[i]);
    }
}

static void test_enc_json_writer_refuses_bad_utf8(void **state)
{
    (void)state;
    struct encounter *e = sample();
    snprintf(e->cs[0].note, sizeof e->cs[0].note, "cut \xC3");
    assert_null(enc_json_dump(e));
    snprintf(e->cs[0].note, sizeof e->cs[0].note, "ok \xC3\xA9");
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    free(doc);
    enc_free(e);
}

/* The next document of a fight copies the objects of the combatants that
 * did not change from the one before and is, byte for byte, what writing
 * it whole gives: after a change to one combatant's numbers, its typed
 * state, its note, its name, one more combatant and one fewer; and a
 * document not written from the previous state is not copied from. */
static void assert_next_doc(const struct encounter *e,
                            const struct encounter *prev,
                            const struct enc_json_doc *prev_doc,
                            struct enc_json_doc *out)
{
    char *whole = enc_json_dump(e);
    assert_non_null(whole);
    assert_true(enc_json_dump_doc(e, prev, prev_doc, out));
    assert_string_equal(out->text, whole);
    assert_int_equal(out->len, strlen(whole));
    assert_int_equal(out->ncs, e->ncs);
    assert_int_equal(out->version, e->version);
    free(whole);
}

static enum eng_err remove_first(struct encounter *e)
{
    struct enc_result r;
    struct enc_diag d;
    enc_result_init(&r);
    enum eng_err err = enc_remove(e, e->cs[0].id, &r, &d);
    enc_result_cleanup(&r);
    return err;
}

static void test_enc_json_next_doc_copies_unchanged(void **state)
{
    (void)state;
    struct encounter *encs[] = {rich(), typed()};
    for (size_t k = 0; k < sizeof encs / sizeof encs[0]; k++) {
        struct encounter *prev = encs[k];
        prev->version = 5;
        struct enc_json_doc pd = {0}, nd = {0};
        assert_next_doc(prev, NULL, NULL, &pd);
        struct enc_diag d;
        for (int step = 0; step < 6; step++) {
            struct encounter *e = enc_clone(prev);
            assert_non_null(e);
            e->version = prev->version + 1;
            struct enc_combatant *c = &e->cs[e->ncs - 1];
            if (step == 0)
                c->tracks[0].cur -= 3;
            else if (step == 1 && c->st != NULL)
                memset(c->st, 0x01, 1);
            else if (step == 1 || step == 2)
                snprintf(c->note, sizeof c->note, "changed %d", step);
            else if (step == 3)
                c->name[0] = 'Z';
            else if (step == 4)
                assert_int_equal(enc_add(e, "Wolf", 1, 0, -1, &d, NULL),
                                 ENG_OK);
            else
                assert_int_equal(remove_first(e), ENG_OK);
            assert_next_doc(e, prev, &pd, &nd);
            enc_json_doc_free(&pd);
            pd = nd;
            nd = (struct enc_json_doc){0};
            enc_free(prev);
            prev = e;
        }
        /* A document of another version, or of another system's fight,
         * is not copied from: here one that says the wrong thing. */
        struct encounter *e = enc_clone(prev);
        e->version = prev->version + 1;
        e->cs[0].tracks[0].cur += 1;
        char *true_text = pd.text;
        pd.text = strdup(true_text);
        memset(pd.text, 'x', pd.len);
        pd.version--;
        assert_next_doc(e, prev, &pd, &nd);
        enc_json_doc_free(&nd);
        pd.version++;
        struct encounter *other = k == 0 ? typed() : rich();
        other->version = pd.version;
        assert_next_doc(e, other, &pd, &nd);
        enc_free(other);
        free(true_text);
        enc_json_doc_free(&pd);
        enc_json_doc_free(&nd);
        enc_free(e);
        enc_free(prev);
    }
}

static void test_enc_json_round_trip(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    assert_int_equal(back->turn_seq, UINT64_C(9007199254740993));
    assert_string_equal(back->cs[3].name, "@everyone \"quoted\" \xC3\xA9");
    assert_int_equal(back->cs[3].owner, UINT64_C(123456789012345678));
    assert_int_equal(back->cs[1].conds[0].cap, 3);
    assert_int_equal(back->cs[1].conds[0].expire, ENC_EXPIRE_START);
    assert_int_equal(get_field(&back->sys->comb_state, back->cs[1].st,
                               "fails"), -42);
    assert_int_equal(back->cs[1].ninit, 2);
    free(doc);
    free(doc2);
    enc_free(e);
    enc_free(back);
}

/* A saved character's attacks ride with its combatant: in the document,
 * through a clone and through the cache's packed form, and a fight
 * without any writes no "attacks" member at all. */
static void test_enc_json_attacks(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *plain = enc_json_dump(e);
    assert_null(strstr(plain, "\"attacks\""));
    free(plain);
    struct enc_combatant *c = &e->cs[1];
    c->nattacks = 2;
    snprintf(c->attacks[0].name, sizeof c->attacks[0].name, "Longsword");
    snprintf(c->attacks[0].damage, sizeof c->attacks[0].damage, "1d8+3");
    snprintf(c->attacks[1].name, sizeof c->attacks[1].name, "Bow");
    snprintf(c->attacks[1].roll, sizeof c->attacks[1].roll, "1d20+4");
    snprintf(c->attacks[1].options, sizeof c->attacks[1].options, "adv");
    char *doc = enc_json_dump(e);
    assert_non_null(strstr(doc, "\"attacks\":[{\"name\":\"Longsword\",\"roll\":"
                                "\"\",\"damage\":\"1d8+3\",\"options\":\"\"}"));
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    assert_int_equal(back->cs[1].nattacks, 2);
    assert_string_equal(back->cs[1].attacks[1].options, "adv");
    assert_ptr_equal(enc_attack_find(&back->cs[1], "bow"),
                     &back->cs[1].attacks[1]);
    assert_null(enc_attack_find(&back->cs[0], "bow"));
    struct encounter *copy = enc_clone(back);
    struct enc_pack *pk = enc_pack(back);
    struct encounter *unpacked = enc_unpack(pk);
    char *doc2 = enc_json_dump(copy), *doc3 = enc_json_dump(unpacked);
    assert_string_equal(doc, doc2);
    assert_string_equal(doc, doc3);
    free(doc);
    free(doc2);
    free(doc3);
    enc_pack_free(pk);
    enc_free(unpacked);
    enc_free(copy);
    enc_free(back);
    enc_free(e);
}

/* doc with each from[i] changed to to[i] (as long) is refused, whole. */
static void refused_changed(const char *doc, const char *const *from,
                            const char *const *to, size_t n)
{
    char err[160];
    for (size_t i = 0; i < n; i++) {
        char *bad = strdup(doc);
        char *at = strstr(bad, from[i]);
        assert_non_null(at);
        assert_int_equal(strlen(from[i]), strlen(to[i]));
        memcpy(at, to[i], strlen(to[i]));
        struct encounter *back = NULL;
        assert_int_not_equal(enc_json_load(bad, &back, err, sizeof err),
                             BOT_OK);
        assert_null(back);
        free(bad);
    }
}

/* Resources (enc_res.h) ride with their combatant, checked on the way
 * in; a fight without any writes no "res" member, so old documents and
 * new ones without resources read alike. */
static void test_enc_json_resources(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *plain = enc_json_dump(e);
    assert_null(strstr(plain, "\"res\""));
    free(plain);
    struct enc_combatant *c = &e->cs[1];
    c->nres = 2;
    snprintf(c->res[0].name, sizeof c->res[0].name, "Legendary");
    c->res[0].cur = 1;
    c->res[0].max = 3;
    c->res[0].reset = ENC_RESET_TURN;
    snprintf(c->res[1].name, sizeof c->res[1].name, "Breath");
    c->res[1].max = 1;
    c->res[1].reset = ENC_RESET_ROUND;
    c->res[1].recharge = 5;
    char *doc = enc_json_dump(e);
    assert_non_null(strstr(doc, "\"res\":[{\"name\":\"Legendary\",\"cur\":1,"
                                "\"max\":3,\"reset\":\"turn\"},"));
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    assert_int_equal(back->cs[1].nres, 2);
    assert_memory_equal(back->cs[1].res, c->res, 2 * sizeof c->res[0]);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    free(doc2);
    enc_free(back);
    /* Damaged: more left than the maximum, an unknown reset, a face a d6
     * does not have. */
    const char *from[] = {"\"cur\":1,", "\"turn\"", "\"recharge\":5"};
    const char *to[] = {"\"cur\":4,", "\"dawn\"", "\"recharge\":9"};
    refused_changed(doc, from, to, sizeof from / sizeof from[0]);
    free(doc);
    enc_free(e);
}

/* Countdowns (enc_cd.h) ride with the fight, checked on the way in; a
 * fight without any writes no "countdowns" member, so old documents and
 * new ones without countdowns read alike. */
static void test_enc_json_countdowns(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *plain = enc_json_dump(e);
    assert_null(strstr(plain, "\"countdowns\""));
    free(plain);
    e->ncds = 2;
    memset(e->cds, 0, sizeof e->cds);
    snprintf(e->cds[0].name, sizeof e->cds[0].name, "The bridge falls");
    e->cds[0].left = 2;
    e->cds[0].total = 3;
    e->cds[0].flags = ENC_CDF_PAUSED;
    e->cds[0].set_turn = 4;
    snprintf(e->cds[1].name, sizeof e->cds[1].name, "Ritual");
    e->cds[1].left = 1;
    e->cds[1].total = 1;
    e->cds[1].of = e->cs[1].id;
    e->cds[1].flags = ENC_CDF_HIDDEN;
    char *doc = enc_json_dump(e);
    assert_non_null(strstr(doc, "\"countdowns\":[{\"name\":\"The bridge "
                                "falls\",\"left\":2,\"total\":3,"
                                "\"paused\":true,\"set\":\"4\"},"));
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    assert_int_equal(back->ncds, 2);
    assert_memory_equal(back->cds, e->cds, 2 * sizeof e->cds[0]);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    free(doc2);
    enc_free(back);
    /* Damaged: more left than it started with, none left, the turns of
     * nobody in the fight. */
    char of[32];
    snprintf(of, sizeof of, "\"of\":%u", (unsigned)e->cs[1].id);
    /* the same length, every digit a 9: no combatant of the sample's */
    char of_bad[32];
    snprintf(of_bad, sizeof of_bad, "%s", of);
    for (char *p = of_bad; *p != '\0'; p++)
        if (*p >= '0' && *p <= '9')
            *p = '9';
    const char *from[] = {"\"left\":2,", "\"left\":1,", of};
    const char *to[] = {"\"left\":4,", "\"left\":0,", of_bad};
    refused_changed(doc, from, to, sizeof from / sizeof from[0]);
    free(doc);
    enc_free(e);
}

/* Events of the order (enc_entry.h) and the one the turn is on are saved
 * as optional members, checked on the way in; a fight without any writes
 * neither, so old documents and new ones without events read alike. */
static void test_enc_json_events(void **state)
{
    (void)state;
    struct encounter *e = sample();
    char *plain = enc_json_dump(e);
    assert_null(strstr(plain, "\"events\""));
    assert_null(strstr(plain, "\"event_on\""));
    free(plain);
    e->nentries = 2;
    struct enc_entry *x = &e->entries[0];
    x->id = 90;
    snprintf(x->name, sizeof x->name, "Lair");
    snprintf(x->note, sizeof x->note, "The ceiling shakes");
    snprintf(x->dice, sizeof x->dice, "2d6");
    x->at = ENC_ENTRY_COUNT;
    x->count = 20;
    x->fired = 1;
    x = &e->entries[1];
    x->id = 91;
    snprintf(x->name, sizeof x->name, "Bridge");
    x->kind = ENC_ENTRY_ONCE;
    x->at = ENC_ENTRY_END;
    x->round = 3;
    x->hidden = true;
    e->entry_on = 90;
    char *doc = enc_json_dump(e);
    assert_non_null(strstr(doc, "\"events\":[{\"id\":90,\"name\":\"Lair\","
                                "\"kind\":\"lair\",\"at\":\"count\","
                                "\"count\":20,"));
    struct encounter *back = NULL;
    char err[160];
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    assert_int_equal(back->nentries, 2);
    assert_int_equal(back->entry_on, 90);
    assert_memory_equal(back->entries, e->entries, 2 * sizeof e->entries[0]);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    free(doc2);
    enc_free(back);
    /* Damaged: an unknown kind, an unknown place, a round out of range. */
    const char *from[] = {"\"lair\"", "\"count\"", "\"round\":3,\"fired\""};
    const char *to[] = {"\"lamp\"", "\"never\"", "\"round\":0,\"fired\""};
    refused_changed(doc, from, to, sizeof from / sizeof from[0]);
    free(doc);
    enc_free(e);
}

static void test_enc_json_refuses_damage(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "[]", "{", "null", "{\"v\":1}",
        "{\"v\":99,\"ruleset\":\"generic\"}",
    };
    char err[160];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct encounter *out = (struct encounter *)(uintptr_t)1;
        assert_int_not_equal(enc_json_load(bad[i], &out, err, sizeof err),
                             BOT_OK);
        assert_ptr_equal(out, (struct encounter *)(uintptr_t)1);
        assert_true(strlen(err) > 0);
    }
    /* Every out-of-range value in an otherwise good document is refused. */
    struct encounter *e = sample();
    char *doc = enc_json_dump(e);
    enc_free(e);
    static const char *const swaps[][2] = {
        {"\"hp\",\"cur\":4", "\"hp\",\"cur\":4000000000"},
        {"\"side\":0", "\"side\":5"},
        {"\"rounds\":4", "\"rounds\":-1"},
        {"\"name\":\"Goblin 1\"", "\"name\":7"},
    };
    for (size_t i = 0; i < sizeof swaps / sizeof swaps[0]; i++) {
        const char *at = strstr(doc, swaps[i][0]);
        if (at == NULL)
            fail_msg("sample lacks %s", swaps[i][0]);
        size_t pre = (size_t)(at - doc);
        char *bent = malloc(strlen(doc) + 64);
        snprintf(bent, strlen(doc) + 64, "%.*s%s%s", (int)pre, doc,
                 swaps[i][1], at + strlen(swaps[i][0]));
        struct encounter *out = NULL;
        assert_int_equal(enc_json_load(bent, &out, err, sizeof err),
                         BOT_INVALID);
        assert_null(out);
        free(bent);
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_json_round_trip),
        cmocka_unit_test(test_enc_json_next_doc_copies_unchanged),
        cmocka_unit_test(test_enc_json_refuses_damage),
        cmocka_unit_test(test_enc_json_attacks),
        cmocka_unit_test(test_enc_json_resources),
        cmocka_unit_test(test_enc_json_countdowns),
        cmocka_unit_test(test_enc_json_events),
        cmocka_unit_test(test_enc_json_writer_matches_jansson),
        cmocka_unit_test(test_enc_json_writer_refuses_bad_utf8),
    };
    return cmocka_run_group_tests_name("enc_json", tests, NULL, NULL);
}
