/* A factions document written by fray before typed state (version 1,
 * numbered "rs" slots, the waiting attack's damage dice copied into a
 * combatant's slots as bytes) loads into the declared fields, is written
 * back as named state, and plays on. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "enc_event.h"
#include "enc_json.h"
#include "eng_rng.h"
#include "rs.h"
#include "rs_kit.h"

/* Written by fray at 71d45df, before typed state, with
 *   fray console --db old.db --seed 3 --gm
 * playing: phases=on; Ann and Ben (Red, WIT 20) against Cat (armour 1) and
 * Dan (Blue); /combat begin first:Red; /react name:Dan kind:other;
 * /combat pick name:Ann; /attack target:Cat damage:"2d6+1d4+3"
 * options:"wait cover"; then read back from the store's last version.
 * The attack waits for Cat's answer: its dice "2d6+1d4+" and "3" are in
 * Ann's slots 3 and 4; the encounter's slots hold the turn flow (threshold
 * 14, Ann's turn, the waiting attack: Ann on Cat with cover). */
static const char v1_doc[] =
    "{\"v\":1,\"ruleset\":\"factions\",\"name\":\"Old ford\","
    "\"gm\":\"618465428124953201\",\"version\":9,\"status\":1,\"round\":1,"
    "\"phase\":2,\"current\":1,\"acting_side\":0,\"turn_seq\":\"2\","
    "\"notices\":true,\"tracker\":\"0\",\"next_id\":5,\"next_join\":5,"
    "\"turn_idx\":-1,\"settings\":{\"phases\":\"on\"},"
    "\"sides\":[{\"name\":\"Red\",\"rs\":[2]},{\"name\":\"Blue\",\"rs\":[2]}],"
    "\"combatants\":["
    "{\"id\":1,\"name\":\"Ann\",\"owner\":\"0\",\"side\":0,\"hidden\":false,"
    "\"group\":0,\"flags\":2,\"join\":1,\"init_expr\":\"\",\"init\":[],"
    "\"tie\":0,\"stats\":{\"str\":10,\"agi\":10,\"wit\":20},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":10,\"max\":10}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[0,0,0,3113223404761015346,51]},"
    "{\"id\":2,\"name\":\"Ben\",\"owner\":\"0\",\"side\":0,\"hidden\":false,"
    "\"group\":0,\"flags\":0,\"join\":2,\"init_expr\":\"\",\"init\":[],"
    "\"tie\":0,\"stats\":{\"str\":10,\"agi\":10,\"wit\":20},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":10,\"max\":10}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[]},"
    "{\"id\":3,\"name\":\"Cat\",\"owner\":\"0\",\"side\":1,\"hidden\":false,"
    "\"group\":0,\"flags\":0,\"join\":3,\"init_expr\":\"\",\"init\":[],"
    "\"tie\":0,\"stats\":{\"str\":10,\"agi\":10,\"wit\":20,\"armour\":1},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":12,\"max\":12}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[]},"
    "{\"id\":4,\"name\":\"Dan\",\"owner\":\"0\",\"side\":1,\"hidden\":false,"
    "\"group\":0,\"flags\":2,\"join\":4,\"init_expr\":\"\",\"init\":[],"
    "\"tie\":0,\"stats\":{\"str\":10,\"agi\":10,\"wit\":20},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":10,\"max\":10}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[0,0,1]}],"
    "\"order\":[],\"rs\":[0,0,0,14,1,1,0,1,1,3,4]}";

/* The field called name of a state struct, through the system's own
 * declaration (the bot has no view of the ruleset's private header). */
static const void *field(const struct rs_state_spec *sp, const void *st,
                         const char *name)
{
    for (int i = 0; i < sp->nfields; i++)
        if (strcmp(sp->fields[i].name, name) == 0)
            return (const char *)st + sp->fields[i].offset;
    fail_msg("the state has no field %s", name);
    return NULL;
}

static int64_t field_int(const struct rs_state_spec *sp, const void *st,
                         const char *name)
{
    for (int i = 0; i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        const char *p = (const char *)st + f->offset;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        switch (f->type) {
        case RS_F_I32:
            memcpy(&i32, p, sizeof i32);
            return i32;
        case RS_F_U32:
            memcpy(&u32, p, sizeof u32);
            return u32;
        case RS_F_I64:
            memcpy(&i64, p, sizeof i64);
            return i64;
        case RS_F_BOOL:
            return *(const bool *)p;
        case RS_F_STR:
            break;
        }
    }
    fail_msg("the state has no number %s", name);
    return 0;
}

static void test_v1_factions_document_upgrades(void **state)
{
    (void)state;
    const struct rs_system *sys = rs_find("factions");
    assert_non_null(sys);
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(v1_doc, &e, err, sizeof err), BOT_OK);
    const struct rs_state_spec *es = &sys->enc_state, *ss = &sys->side_state;
    const struct rs_state_spec *cs = &sys->comb_state;
    assert_int_equal(field_int(es, e->st, "holder"), 0);
    assert_int_equal(field_int(es, e->st, "first"), 0);
    assert_int_equal(field_int(es, e->st, "fat"), 14);
    assert_int_equal(field_int(es, e->st, "round_acts"), 1);
    assert_int_equal(field_int(es, e->st, "phase_acts"), 1);
    assert_int_equal(field_int(es, e->st, "turn"), 1);
    assert_int_equal(field_int(es, e->st, "pend_att"), 1);
    assert_int_equal(field_int(es, e->st, "pend_tgt"), 3);
    assert_int_equal(field_int(es, e->st, "pend_flags"), 4);  /* cover */
    assert_int_equal(field_int(ss, e->sides[0].st, "start"), 2);
    assert_int_equal(field_int(ss, e->sides[1].st, "start"), 2);
    /* The dice text across two slots, read back whole. */
    assert_string_equal(field(cs, e->cs[0].st, "pend_dmg"), "2d6+1d4+3");
    assert_string_equal(field(cs, e->cs[2].st, "pend_dmg"), "");
    assert_int_equal(field_int(cs, e->cs[3].st, "reacted"), 1);
    assert_int_equal(field_int(cs, e->cs[0].st, "reacted"), 0);

    /* Written back as named state, version 2. */
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"pend_dmg\":\"2d6+1d4+3\""));
    assert_non_null(strstr(doc, "\"st\":{\"start\":2}"));
    assert_null(strstr(doc, "\"rs\""));
    struct encounter *back = NULL;
    assert_int_equal(enc_json_load(doc, &back, err, sizeof err), BOT_OK);
    char *doc2 = enc_json_dump(back);
    assert_string_equal(doc, doc2);
    free(doc);
    free(doc2);
    enc_free(back);

    /* It plays on: Cat answers the waiting attack, which lands with the
     * dice kept in the old slots, less armour 1 and cover 1. */
    struct eng_rng rng;
    eng_rng_seed(&rng, 5);
    struct enc_result r;
    enc_result_init(&r);
    struct enc_diag d = {0};
    struct rs_opt opts[] = {{"name", "Cat"}, {"kind", "none"}};
    struct rs_call c = {.e = e, .rng = &rng, .r = &r, .d = &d, .user = 1,
                        .is_gm = true, .opts = opts, .nopts = 2};
    assert_int_equal(rs_action(sys, &c, "react"), ENG_OK);
    int dmg = -1;
    for (int i = 0; i < r.nrolls; i++)
        if (strcmp(r.rolls[i].expr, "2d6+1d4+3") == 0)
            dmg = i;
    assert_true(dmg >= 0);
    int64_t left = r.rolls[dmg].total - 2;
    assert_int_equal(enc_track_c(&e->cs[2], "hp")->cur, 12 - left);
    assert_int_equal(field_int(es, e->st, "pend_att"), 0);
    assert_string_equal(field(cs, e->cs[0].st, "pend_dmg"), "");
    enc_result_cleanup(&r);
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v1_factions_document_upgrades),
    };
    return cmocka_run_group_tests_name("enc_json_factions", tests, NULL,
                                       NULL);
}
