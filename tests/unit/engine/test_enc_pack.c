/*
 * Tests for enc_pack.c: a fight of every ruleset survives pack and unpack
 * field for field, typed state included, and packs again to the same
 * bytes; an unpack that runs out of memory at any allocation returns NULL
 * and leaks nothing (this file supplies the engine's allocator, through
 * cmocka's, which reports leaks).
 *
 * The sample fight, made for each ruleset in rs_all(): two sides of four
 * combatants ("Red 1".."Red 4", "Blue 1".."Blue 4"), each with the stats
 * "ac=13 init=2 attack=5", 12 hp, a note on the first, a condition on the
 * second, one setting; the ruleset's own setup for each and its begin and
 * two turn ends, whatever they say (a ruleset that wants more to begin
 * still has its typed state set up); and then every byte of every typed
 * state set to a pattern, so a byte the packer dropped shows.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "enc_pack.h"
#include "eng_alloc.h"
#include "rs.h"
#include "rs_fixture.h"

/* The engine's allocator for this test binary: cmocka's, so leaks fail the
 * test; the call numbered alloc_fail_at fails. */
static long alloc_calls;
static long alloc_fail_at = -1;

void *eng_malloc(size_t n)
{
    return alloc_calls++ == alloc_fail_at ? NULL : test_malloc(n ? n : 1);
}

void *eng_calloc(size_t count, size_t size)
{
    return alloc_calls++ == alloc_fail_at
               ? NULL
               : test_calloc(count ? count : 1, size ? size : 1);
}

void *eng_realloc(void *p, size_t n)
{
    return alloc_calls++ == alloc_fail_at ? NULL : test_realloc(p, n ? n : 1);
}

void eng_free(void *p)
{
    test_free(p);
}

static void fill(void *st, size_t size, unsigned seed)
{
    unsigned char *p = st;
    for (size_t i = 0; i < size; i++)
        p[i] = (unsigned char)(seed * 31u + i * 7u + 1u);
}

/* The sample fight of rs (see the top of the file) in f. */
static void sample(struct rs_fx *f, const struct rs_system *rs,
                   struct enc_result *r)
{
    rs_fx_sample(f, rs, 11, r);
    struct encounter *e = f->e;
    e->cs[2].dealt = 7;
    e->cs[3].taken = 9;
    e->cs[3].falls = 1;
    e->version = 42;
    e->tracker_msg = UINT64_C(1234567890123);
    if (e->st != NULL)
        fill(e->st, rs->enc_state.size, 1);
    for (int i = 0; i < e->nsides; i++)
        if (e->sides[i].st != NULL)
            fill(e->sides[i].st, rs->side_state.size, 2 + (unsigned)i);
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].st != NULL)
            fill(e->cs[i].st, rs->comb_state.size, 10 + (unsigned)i);
}

static void state_equal(const void *a, const void *b, size_t size)
{
    assert_true((a == NULL) == (b == NULL));
    if (a != NULL)
        assert_memory_equal(a, b, size);
}

static void comb_equal(const struct rs_system *rs,
                       const struct enc_combatant *a,
                       const struct enc_combatant *b)
{
    assert_int_equal(a->id, b->id);
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->owner, b->owner);
    assert_int_equal(a->side, b->side);
    assert_int_equal(a->hidden, b->hidden);
    assert_int_equal(a->group, b->group);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(a->join_seq, b->join_seq);
    assert_string_equal(a->init_expr, b->init_expr);
    assert_int_equal(a->ninit, b->ninit);
    for (int i = 0; i < a->ninit; i++)
        assert_int_equal(a->init[i], b->init[i]);
    assert_int_equal(a->init_tie, b->init_tie);
    assert_int_equal(a->nstats, b->nstats);
    for (int i = 0; i < a->nstats; i++) {
        assert_string_equal(a->stats[i].name, b->stats[i].name);
        assert_int_equal(a->stats[i].value, b->stats[i].value);
    }
    assert_int_equal(a->ntracks, b->ntracks);
    for (int i = 0; i < a->ntracks; i++) {
        assert_string_equal(a->tracks[i].name, b->tracks[i].name);
        assert_int_equal(a->tracks[i].cur, b->tracks[i].cur);
        assert_int_equal(a->tracks[i].max, b->tracks[i].max);
    }
    assert_int_equal(a->nconds, b->nconds);
    for (int i = 0; i < a->nconds; i++) {
        const struct enc_cond *x = &a->conds[i], *y = &b->conds[i];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->value, y->value);
        assert_int_equal(x->cap, y->cap);
        assert_int_equal(x->rounds, y->rounds);
        assert_int_equal(x->anchor, y->anchor);
        assert_int_equal(x->expire, y->expire);
        assert_int_equal(x->source, y->source);
        assert_int_equal(x->applied_turn, y->applied_turn);
    }
    assert_string_equal(a->note, b->note);
    assert_int_equal(a->dealt, b->dealt);
    assert_int_equal(a->taken, b->taken);
    assert_int_equal(a->falls, b->falls);
    state_equal(a->st, b->st, rs->comb_state.size);
}

/* a and b hold the same fight, every field compared by name. */
static void enc_equal(const struct encounter *a, const struct encounter *b)
{
    const struct rs_system *rs = a->sys;
    assert_ptr_equal(a->sys, b->sys);
    assert_string_equal(a->ruleset, b->ruleset);
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->gm, b->gm);
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->round, b->round);
    assert_int_equal(a->phase, b->phase);
    assert_int_equal(a->current, b->current);
    assert_int_equal(a->acting_side, b->acting_side);
    assert_int_equal(a->turn_seq, b->turn_seq);
    assert_int_equal(a->notices, b->notices);
    assert_int_equal(a->trust, b->trust);
    assert_int_equal(a->tracker_msg, b->tracker_msg);
    assert_int_equal(a->fight_id, b->fight_id);
    assert_int_equal(a->nsettings, b->nsettings);
    for (int i = 0; i < a->nsettings; i++) {
        assert_string_equal(a->settings[i].key, b->settings[i].key);
        assert_string_equal(a->settings[i].value, b->settings[i].value);
    }
    assert_int_equal(a->nsides, b->nsides);
    for (int i = 0; i < a->nsides; i++) {
        assert_string_equal(a->sides[i].name, b->sides[i].name);
        state_equal(a->sides[i].st, b->sides[i].st, rs->side_state.size);
    }
    assert_int_equal(a->ncs, b->ncs);
    assert_true(b->cs_cap >= b->ncs);
    for (int i = 0; i < a->ncs; i++)
        comb_equal(rs, &a->cs[i], &b->cs[i]);
    assert_int_equal(a->next_id, b->next_id);
    assert_int_equal(a->next_join, b->next_join);
    assert_int_equal(a->norder, b->norder);
    for (int i = 0; i < a->norder; i++) {
        assert_int_equal(a->order[i].id, b->order[i].id);
        assert_int_equal(a->order[i].init_idx, b->order[i].init_idx);
    }
    assert_int_equal(a->turn_idx, b->turn_idx);
    state_equal(a->st, b->st, rs->enc_state.size);
}

static void test_enc_pack_round_trip_every_ruleset(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        struct rs_fx f;
        struct enc_result r;
        sample(&f, all[i], &r);
        assert_int_equal(f.e->ncs, 8);
        struct enc_pack *p = enc_pack(f.e);
        assert_non_null(p);
        assert_int_equal(enc_pack_version(p), 42);
        assert_int_equal(enc_pack_size(p), enc_pack_to(f.e, NULL, 0));
        /* Far smaller than the working struct it came from. */
        assert_true(enc_pack_size(p) * 4 <
                    sizeof *f.e + (size_t)f.e->ncs * sizeof f.e->cs[0]);
        struct encounter *u = enc_unpack(p);
        assert_non_null(u);
        enc_equal(f.e, u);
        /* The copy is a working encounter: it plays on like the first. */
        struct enc_diag d;
        assert_int_equal(enc_add(u, "Late", 1, 0, -1, &d, NULL), ENG_OK);
        assert_int_equal(u->ncs, 9);
        enc_free(u);
        /* Packing what was unpacked gives the same block, the spare bytes
         * at its end aside. */
        u = enc_unpack(p);
        assert_non_null(u);
        struct enc_pack *q = enc_pack(u);
        assert_non_null(q);
        assert_int_equal(enc_pack_size(q), enc_pack_size(p));
        assert_memory_equal(p, q, enc_pack_size(p) - 16);
        enc_pack_free(q);
        enc_free(u);
        enc_pack_free(p);
        rs_fx_cleanup(&f);
    }
    enc_pack_free(NULL);
}

/* Packing into a buffer: a short one is only counted, one large enough is
 * a block enc_unpack() reads. */
static void test_enc_pack_to_buffer(void **state)
{
    (void)state;
    struct rs_fx f;
    struct enc_result r;
    sample(&f, rs_find("generic"), &r);
    size_t need = enc_pack_to(f.e, NULL, 0);
    assert_true(need > 16);
    unsigned char *small = test_malloc(need - 1);
    assert_int_equal(enc_pack_to(f.e, small, need - 1), need);
    test_free(small);
    /* malloc() alignment, as the header requires. */
    unsigned char *big = test_malloc(need + 100);
    assert_int_equal(enc_pack_to(f.e, big, need + 100), need);
    const struct enc_pack *p = (const struct enc_pack *)big;
    assert_int_equal(enc_pack_size(p), need);
    struct encounter *u = enc_unpack(p);
    assert_non_null(u);
    enc_equal(f.e, u);
    enc_free(u);
    test_free(big);
    rs_fx_cleanup(&f);
}

/* An empty encounter (no combatants, sides or settings) round-trips. */
static void test_enc_pack_empty(void **state)
{
    (void)state;
    struct encounter *e = enc_new(rs_find("generic"), "", 0);
    assert_non_null(e);
    struct enc_pack *p = enc_pack(e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    assert_non_null(u);
    enc_equal(e, u);
    assert_null(u->cs);
    enc_free(u);
    enc_pack_free(p);
    enc_free(e);
}

/* Fail each allocation of an unpack in turn: NULL, nothing leaked (cmocka
 * checks at the end of the test). */
static void test_enc_pack_unpack_out_of_memory(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        struct rs_fx f;
        struct enc_result r;
        sample(&f, all[i], &r);
        struct enc_pack *p = enc_pack(f.e);
        assert_non_null(p);
        for (long k = 0;; k++) {
            alloc_calls = 0;
            alloc_fail_at = k;
            struct encounter *u = enc_unpack(p);
            alloc_fail_at = -1;
            if (u != NULL) {
                assert_true(k > 0);
                enc_equal(f.e, u);
                enc_free(u);
                break;
            }
        }
        alloc_calls = 0;
        alloc_fail_at = 0;
        assert_null(enc_pack(f.e));
        alloc_fail_at = -1;
        enc_pack_free(p);
        rs_fx_cleanup(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_pack_round_trip_every_ruleset),
        cmocka_unit_test(test_enc_pack_to_buffer),
        cmocka_unit_test(test_enc_pack_empty),
        cmocka_unit_test(test_enc_pack_unpack_out_of_memory),
    };
    return cmocka_run_group_tests_name("enc_pack", tests, NULL, NULL);
}
