/* A cards fight saved by fray before typed state (version 1: numbered "rs"
 * slots), loaded and played on. The document below was written by fray at
 * commit 4b56786 (`fray console --db`, then the row's doc) in the middle of
 * round 1: an ambush won with two extra successes, a swap Ana offered Bo, a
 * dodge Ana readied against the Hydra, Ana poisoned, Bo burning, and the
 * settings die=8 success=7. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "enc_json.h"
#include "rs.h"
#include "rs_kit.h"

static const char v1_doc[] =
    "{\"v\":1,\"ruleset\":\"cards\",\"name\":\"Old Mill\",\"gm\":\"618465428124953201\","
    "\"version\":10,\"status\":1,\"round\":1,\"phase\":0,\"current\":1,\"acting_side\":-1,"
    "\"turn_seq\":\"1\",\"notices\":true,\"tracker\":\"0\",\"next_id\":4,\"next_join\":4,"
    "\"turn_idx\":0,\"settings\":{\"die\":\"8\",\"success\":\"7\"},\"sides\":[{\"name\":\"heroes\","
    "\"rs\":[]},{\"name\":\"beasts\",\"rs\":[]}],\"combatants\":[{\"id\":1,"
    "\"name\":\"Ana\",\"owner\":\"7419570542390278917\",\"side\":0,\"hidden\":false,"
    "\"group\":0,\"flags\":0,\"join\":1,\"init_expr\":\"\",\"init\":[1],\"tie\":0,"
    "\"stats\":{\"strike\":3,\"finesse\":2,\"endure\":2,\"damage\":2,\"sneak\":5},"
    "\"tracks\":[{\"name\":\"harm\",\"cur\":2,\"max\":0},{\"name\":\"mental\","
    "\"cur\":0,\"max\":0}],\"conds\":[{\"name\":\"Poisoned\",\"value\":0,\"cap\":0,"
    "\"rounds\":0,\"anchor\":1,\"expire\":\"end\",\"source\":0,\"applied\":\"1\"}],"
    "\"note\":\"\",\"rs\":[0,1,1,0,1,3,0,2,0,0,0,0,0,1,1]},{\"id\":2,\"name\":\"Bo\","
    "\"owner\":\"623248303706724926\",\"side\":0,\"hidden\":false,\"group\":0,"
    "\"flags\":0,\"join\":2,\"init_expr\":\"\",\"init\":[4],\"tie\":0,\"stats\":{\"strike\":2,"
    "\"finesse\":2,\"endure\":1,\"damage\":1},\"tracks\":[{\"name\":\"harm\","
    "\"cur\":1,\"max\":0},{\"name\":\"mental\",\"cur\":0,\"max\":0}],\"conds\":[{\"name\":\"Burning\","
    "\"value\":3,\"cap\":0,\"rounds\":0,\"anchor\":2,\"expire\":\"end\",\"source\":0,"
    "\"applied\":\"1\"}],\"note\":\"\",\"rs\":[0,0,0,0,0,0,0,2,0,3,2,0,1]},"
    "{\"id\":3,\"name\":\"Hydra\",\"owner\":\"0\",\"side\":1,\"hidden\":false,"
    "\"group\":0,\"flags\":0,\"join\":3,\"init_expr\":\"\",\"init\":[2,8],\"tie\":0,"
    "\"stats\":{\"strike\":4,\"finesse\":1,\"endure\":3,\"damage\":2,\"cards\":2},"
    "\"tracks\":[{\"name\":\"harm\",\"cur\":0,\"max\":6},{\"name\":\"mental\","
    "\"cur\":0,\"max\":0}],\"conds\":[],\"note\":\"\",\"rs\":[]}],\"order\":[[1,"
    "0],[3,0],[2,0],[3,1]],\"rs\":[8,7,1,1,1,2,1,2,1]}";

/* A field of a ruleset state struct, by name, as an integer: the test reads
 * it as the store does, through the declared field table. */
static int64_t st_int(const struct rs_state_spec *sp, const void *st,
                      const char *name)
{
    for (int i = 0; i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        const char *p = (const char *)st + f->offset;
        switch (f->type) {
        case RS_F_I64: {
            int64_t v;
            memcpy(&v, p, sizeof v);
            return v;
        }
        case RS_F_I32: {
            int32_t v;
            memcpy(&v, p, sizeof v);
            return v;
        }
        case RS_F_U32: {
            uint32_t v;
            memcpy(&v, p, sizeof v);
            return v;
        }
        case RS_F_BOOL:
            return *(const bool *)p;
        case RS_F_STR:
            break;
        }
    }
    fail_msg("no integer field %s", name);
    return 0;
}

#define ENC_ST(e, name) st_int(&(e)->sys->enc_state, (e)->st, name)
#define COMB_ST(e, c, name) st_int(&(e)->sys->comb_state, (c)->st, name)

struct play {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result r;
    struct enc_diag d;
};

static struct rs_call play_call(struct play *p)
{
    enc_result_reset(&p->r);
    memset(&p->d, 0, sizeof p->d);
    return (struct rs_call){.e = p->e, .rng = &p->rng, .r = &p->r,
                            .d = &p->d, .user = p->e->gm, .is_gm = true};
}

static bool said(const struct play *p, enum enc_ev kind)
{
    for (int i = 0; i < p->r.nev; i++)
        if (p->r.ev[i].kind == kind)
            return true;
    return false;
}

static void test_cards_v1_document_loads(void **state)
{
    (void)state;
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(v1_doc, &e, err, sizeof err), BOT_OK);
    assert_string_equal(e->sys->id, "cards");
    /* The encounter's slots: the ambush and the offered swap. The pool die
     * and success face were slots and settings both; settings now. */
    assert_int_equal(ENC_ST(e, "round_acted"), 1);
    assert_int_equal(ENC_ST(e, "ambush_side"), 1);
    assert_int_equal(ENC_ST(e, "ambush_result"), 1);
    assert_int_equal(ENC_ST(e, "ambush_bonus"), 2);
    assert_int_equal(ENC_ST(e, "offer_a"), 1);
    assert_int_equal(ENC_ST(e, "offer_b"), 2);
    assert_int_equal(ENC_ST(e, "offer_round"), 1);
    assert_int_equal(rs_setting_int(e, e->sys, "die"), 8);
    assert_int_equal(rs_setting_int(e, e->sys, "success"), 7);
    /* Ana: a fast maneuver spent on the dodge she readied against the
     * Hydra (id 3), the ambush's two dice, the poison. */
    struct enc_combatant *ana = enc_by_name(e, "Ana");
    assert_int_equal(COMB_ST(e, ana, "fast"), 1);
    assert_int_equal(COMB_ST(e, ana, "played"), 1);
    assert_int_equal(COMB_ST(e, ana, "def_kind"), 1);
    assert_int_equal(COMB_ST(e, ana, "def_vs"), 3);
    assert_int_equal(COMB_ST(e, ana, "first_bonus"), 2);
    assert_int_equal(COMB_ST(e, ana, "poison_left"), 1);
    assert_int_equal(COMB_ST(e, ana, "poison_round"), 1);
    /* Bo: the fire (its intensity is the Burning condition's value). */
    struct enc_combatant *bo = enc_by_name(e, "Bo");
    assert_int_equal(COMB_ST(e, bo, "fire_need"), 2);
    assert_int_equal(COMB_ST(e, bo, "fire_round"), 1);
    assert_int_equal(enc_cond_find(bo, "Burning")->value, 3);

    /* Play on: the Hydra's first card, its attack meets Ana's dodge. */
    struct play p = {.e = e};
    eng_rng_seed(&p.rng, 3);
    enc_result_init(&p.r);
    struct rs_call c = play_call(&p);
    assert_int_equal(e->sys->ops->next(&c), ENG_OK);
    struct enc_combatant *hydra = enc_by_name(e, "Hydra");
    assert_int_equal(e->current, hydra->id);
    c = play_call(&p);
    struct rs_attack a = {.attacker = hydra, .target = ana};
    assert_int_equal(e->sys->ops->attack(&c, &a), ENG_OK);
    assert_true(said(&p, ENC_EV_ATTACK));
    assert_int_equal(COMB_ST(e, ana, "def_kind"), 0);
    assert_int_equal(COMB_ST(e, hydra, "slow"), 1);
    /* Round 2: the poison gives its last Harm, the fire burns. */
    int64_t harm = enc_track(ana, "harm")->cur;
    for (int i = 0; i < 4 && e->round < 2; i++) {
        c = play_call(&p);
        assert_int_equal(e->sys->ops->next(&c), ENG_OK);
    }
    assert_int_equal(e->round, 2);
    assert_true(enc_track(ana, "harm")->cur >= harm + 1);
    assert_null(enc_cond_find(ana, "Poisoned"));
    assert_int_equal(COMB_ST(e, ana, "poison_left"), 0);
    assert_true(said(&p, ENC_EV_TEST));

    /* Saved again, it is a version 2 document with named fields. */
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"v\":2"));
    assert_non_null(strstr(doc, "\"fire_need\":2"));
    struct encounter *back = NULL;
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    free(doc);
    free(doc2);
    enc_free(back);
    enc_result_cleanup(&p.r);
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_v1_document_loads),
    };
    return cmocka_run_group_tests_name("enc_json_cards", tests, NULL, NULL);
}
