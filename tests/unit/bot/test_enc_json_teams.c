/*
 * A teams fight saved by fray before typed state (document version 1, the
 * ruleset's state in numbered "rs" slots) loads into the declared fields,
 * plays on, and is saved as version 2.
 *
 * The document is what fray at commit d67423c wrote after this console
 * session (only "v" set back to 1 and the user ids shortened):
 *   /combat start system:teams name:"Old" settings:"actions=4"
 *   /combat join name:Boudica side:players hp:12 stats:"endurance=12
 *       stamina=3 focus=4 con=4 str=6 combat=6 prof=1"
 *   /combat add name:Clem side:players hp:12 stats:"endurance=12"
 *   /combat add name:Guard count:2 side:guards hp:10 stats:"endurance=8
 *       evasion=6"
 *   /combat add name:Wolf side:wolves hp:6
 *   /combat begin first:players order:"guards, wolves" surprise:players
 *   /combat pick name:Boudica
 *   /act action:move  /act action:step  /act action:command target:Clem
 *   /attack target:"Guard 1" roll:1 damage:1
 *   /act action:other cost:5 label:reload
 *   /damage name:Boudica amount:18
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "enc_json.h"
#include "rs.h"
#include "rs_kit.h"

static const char v1_doc[] =
    "{\"v\":1,\"ruleset\":\"teams\",\"name\":\"Old\",\"gm\":\"77\",\"versio"
    "n\":13,\"status\":1,\"round\":1,\"phase\":0,\"current\":1,\"acting_sid"
    "e\":0,\"turn_seq\":\"1\",\"notices\":true,\"tracker\":\"0\",\"next_id"
    "\":6,\"next_join\":6,\"turn_idx\":-1,\"settings\":{\"actions\":\"4\"},"
    "\"sides\":[{\"name\":\"players\",\"rs\":[]},{\"name\":\"guards\",\"rs"
    "\":[]},{\"name\":\"wolves\",\"rs\":[]}],\"combatants\":[{\"id\":1,\"na"
    "me\":\"Boudica\",\"owner\":\"77\",\"side\":0,\"hidden\":false,\"group"
    "\":0,\"flags\":0,\"join\":1,\"init_expr\":\"\",\"init\":[],\"tie\":0,"
    "\"stats\":{\"con\":4,\"str\":6,\"combat\":6,\"prof\":1},\"tracks\":[{"
    "\"name\":\"hp\",\"cur\":6,\"max\":12},{\"name\":\"endurance\",\"cur\":"
    "0,\"max\":12},{\"name\":\"stamina\",\"cur\":3,\"max\":3},{\"name\":\"f"
    "ocus\",\"cur\":2,\"max\":4}],\"conds\":[{\"name\":\"busy: reload\",\"v"
    "alue\":4,\"cap\":0,\"rounds\":0,\"anchor\":1,\"expire\":\"end\",\"sour"
    "ce\":1,\"applied\":\"1\"}],\"note\":\"\",\"rs\":[0,1,1,1,1,2,0,0,4,6,1"
    "]},{\"id\":2,\"name\":\"Clem\",\"owner\":\"0\",\"side\":0,\"hidden\":f"
    "alse,\"group\":0,\"flags\":0,\"join\":2,\"init_expr\":\"\",\"init\":[]"
    ",\"tie\":0,\"stats\":{},\"tracks\":[{\"name\":\"hp\",\"cur\":12,\"max"
    "\":12},{\"name\":\"endurance\",\"cur\":12,\"max\":12}],\"conds\":[],\""
    "note\":\"\",\"rs\":[4,1]},{\"id\":3,\"name\":\"Guard 1\",\"owner\":\"0"
    "\",\"side\":1,\"hidden\":false,\"group\":0,\"flags\":0,\"join\":3,\"in"
    "it_expr\":\"\",\"init\":[],\"tie\":0,\"stats\":{\"evasion\":6},\"track"
    "s\":[{\"name\":\"hp\",\"cur\":10,\"max\":10},{\"name\":\"endurance\","
    "\"cur\":8,\"max\":8}],\"conds\":[],\"note\":\"\",\"rs\":[4,1]},{\"id\""
    ":4,\"name\":\"Guard 2\",\"owner\":\"0\",\"side\":1,\"hidden\":false,\""
    "group\":0,\"flags\":0,\"join\":4,\"init_expr\":\"\",\"init\":[],\"tie"
    "\":0,\"stats\":{\"evasion\":6},\"tracks\":[{\"name\":\"hp\",\"cur\":10"
    ",\"max\":10},{\"name\":\"endurance\",\"cur\":8,\"max\":8}],\"conds\":["
    "],\"note\":\"\",\"rs\":[4,1]},{\"id\":5,\"name\":\"Wolf\",\"owner\":\""
    "0\",\"side\":2,\"hidden\":false,\"group\":0,\"flags\":0,\"join\":5,\"i"
    "nit_expr\":\"\",\"init\":[],\"tie\":0,\"stats\":{},\"tracks\":[{\"name"
    "\":\"hp\",\"cur\":6,\"max\":6}],\"conds\":[],\"note\":\"\",\"rs\":[4,1"
    "]}],\"order\":[],\"rs\":[3,0,1,2,0,0,0,0,0,1,1]}";

/* Field name (element k) of typed state st, read through the declaration:
 * the bot side knows no ruleset's struct. */
static int64_t field(const struct rs_state_spec *sp, const void *st,
                     const char *name, int k)
{
    for (int i = 0; i < sp->nfields; i++) {
        const struct rs_field *f = &sp->fields[i];
        if (strcmp(f->name, name) != 0)
            continue;
        const char *p = (const char *)st + f->offset + f->size * (size_t)k;
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        switch (f->type) {
        case RS_F_BOOL:
            return *(const bool *)p;
        case RS_F_I32:
            memcpy(&i32, p, sizeof i32);
            return i32;
        case RS_F_U32:
            memcpy(&u32, p, sizeof u32);
            return u32;
        case RS_F_I64:
            memcpy(&i64, p, sizeof i64);
            return i64;
        case RS_F_STR:
            break;
        }
    }
    fail_msg("no number field %s", name);
    return 0;
}

static const char *text_field(const struct rs_state_spec *sp, const void *st,
                              const char *name)
{
    for (int i = 0; i < sp->nfields; i++)
        if (strcmp(sp->fields[i].name, name) == 0)
            return (const char *)st + sp->fields[i].offset;
    fail_msg("no text field %s", name);
    return "";
}

/* Run the teams command verb with options "name", "value", ... NULL on e
 * as the GM. */
static enum eng_err play(struct encounter *e, struct eng_rng *rng,
                         struct enc_result *r, struct enc_diag *d,
                         const char *verb, const char *const *kv)
{
    struct rs_opt opts[8];
    int n = 0;
    for (; kv[2 * n] != NULL; n++)
        opts[n] = (struct rs_opt){kv[2 * n], kv[2 * n + 1]};
    struct rs_call c = {.e = e, .rng = rng, .r = r, .d = d, .user = 77,
                        .is_gm = true, .opts = opts, .nopts = n};
    enc_result_reset(r);
    if (strcmp(verb, "next") == 0)
        return e->sys->ops->next(&c);
    return rs_action(e->sys, &c, verb);
}

static void test_enc_json_teams_v1_upgrades_and_plays_on(void **state)
{
    (void)state;
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(v1_doc, &e, err, sizeof err), BOT_OK);
    const struct rs_system *sys = e->sys;
    assert_string_equal(sys->id, "teams");

    /* The encounter's slots: three teams in order, the surprise round of
     * team players (side 0, stored + 1). */
    const struct rs_state_spec *es = &sys->enc_state;
    assert_int_equal(field(es, e->st, "norder", 0), 3);
    assert_int_equal(field(es, e->st, "order", 0), 0);
    assert_int_equal(field(es, e->st, "order", 1), 1);
    assert_int_equal(field(es, e->st, "order", 2), 2);
    assert_int_equal(field(es, e->st, "surprise", 0), 1);
    assert_int_equal(field(es, e->st, "surpriser", 0), 1);

    /* Boudica's: no actions left, her reaction, moved and stepped, one
     * attack, Clem commanded, 4 actions of reloading to go, and a fortify
     * test against 6 owed. */
    const struct rs_state_spec *cs = &sys->comb_state;
    struct enc_combatant *b = enc_by_name(e, "Boudica");
    struct enc_combatant *clem = enc_by_name(e, "Clem");
    assert_int_equal(field(cs, b->st, "actions", 0), 0);
    assert_int_equal(field(cs, b->st, "reactions", 0), 1);
    assert_int_equal(field(cs, b->st, "moved", 0), 1);
    assert_int_equal(field(cs, b->st, "stepped", 0), 1);
    assert_int_equal(field(cs, b->st, "attacks", 0), 1);
    assert_int_equal(field(cs, b->st, "commanded", 0), clem->id);
    assert_int_equal(field(cs, b->st, "busy", 0), 4);
    assert_int_equal(field(cs, b->st, "fortify", 0), 6);
    assert_int_equal(field(cs, clem->st, "actions", 0), 4);
    assert_int_equal(field(cs, clem->st, "reactions", 0), 1);

    /* It plays on: she fortifies against the 6 she owes, ends her turn;
     * Clem is the last of the surprising team to act. */
    struct eng_rng rng;
    eng_rng_seed(&rng, 1);
    struct enc_result r;
    enc_result_init(&r);
    struct enc_diag d;
    assert_int_equal(play(e, &rng, &r, &d, "test",
                          (const char *[]){"name", "Boudica", "roll", "9",
                                           NULL}), ENG_OK);
    assert_int_equal(field(cs, b->st, "fortify", 0), 0);
    assert_int_equal(field(cs, b->st, "reactions", 0), 0);
    assert_int_equal(enc_track(b, "stamina")->cur, 2);
    assert_int_equal(play(e, &rng, &r, &d, "next",
                          (const char *[]){NULL}), ENG_OK);
    assert_int_equal(e->current, clem->id);
    /* Round 2: the players pick Boudica, who finishes the reload she
     * started (its name was kept in a condition then). */
    assert_int_equal(play(e, &rng, &r, &d, "next",
                          (const char *[]){NULL}), ENG_OK);
    assert_int_equal(e->round, 2);
    struct rs_call c = {.e = e, .rng = &rng, .r = &r, .d = &d, .user = 77,
                        .is_gm = true};
    enc_result_reset(&r);
    assert_int_equal(sys->ops->pick(&c, b), ENG_OK);
    assert_int_equal(play(e, &rng, &r, &d, "act",
                          (const char *[]){"action", "continue", NULL}),
                     ENG_OK);
    assert_int_equal(field(cs, b->st, "busy", 0), 0);
    assert_null(enc_cond_find(b, "busy: reload"));
    assert_string_equal(text_field(cs, b->st, "busy_label"), "");

    /* Saved again: version 2, typed state by name, no slots (a side has
     * no teams state, so its empty slots stay). */
    char *doc = enc_json_dump(e);
    assert_non_null(doc);
    assert_non_null(strstr(doc, "\"v\":2"));
    assert_non_null(strstr(doc, "\"st\":{\"norder\":3,"));
    assert_non_null(strstr(doc, "\"note\":\"\",\"st\":{"));
    assert_null(strstr(doc, "\"note\":\"\",\"rs\""));
    assert_null(strstr(doc, "],\"rs\":"));
    free(doc);
    enc_result_cleanup(&r);
    enc_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_json_teams_v1_upgrades_and_plays_on),
    };
    return cmocka_run_group_tests_name("enc_json_teams", tests, NULL, NULL);
}
