/*
 * test_fx_value.h - the fixture of the fight-wide features' engine tests
 * (resources, countdowns): an rs_fx read by value, and a generic fight of
 * two. Header-only: each test includes it once.
 */
#ifndef TEST_FX_VALUE_H
#define TEST_FX_VALUE_H

#include "support.h"

#include "rs_fixture.h"
#include "rs_generic.h"

struct fx {
    RS_FX_STATE_BY_VALUE;
};

static inline struct fx *fx_new(const struct rs_system *rs, uint64_t seed)
{
    struct fx *f = test_calloc(1, sizeof *f);
    rs_fx_init(&f->fx, rs, seed, &f->r);
    return f;
}

static inline void fx_free(struct fx *f)
{
    rs_fx_cleanup(&f->fx);
    test_free(f);
}

/* Ann (a player's) acts first (d20+50), the Dragon second (d20). */
static inline struct fx *two(uint64_t seed)
{
    struct fx *f = fx_new(&rs_generic, seed);
    rs_fx_opts(&f->fx, NULL);
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Ann", .owner = 7, .stats = "init=50 hp=10",
        .flags = RS_FX_HP_TRACK}));
    assert_non_null(rs_fx_add(&f->fx, &(struct rs_fx_add){
        .name = "Dragon", .stats = "init=0 hp=50",
        .flags = RS_FX_HP_TRACK}));
    return f;
}

#endif
