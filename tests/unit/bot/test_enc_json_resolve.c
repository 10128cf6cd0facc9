/*
 * A resolve fight saved by fray before typed state (document version 1,
 * ruleset state in numbered "rs" slots) loads into the typed state, keeps
 * every field, and plays on through the command layer.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd_fixture.h"
#include "enc_json.h"
#include "rs.h"
#include "store.h"

/* Written by fray at commit 71d45df (fray console --db old.db --seed 42
 * --gm): Rex (carol) held an attack and Tam (bob) readied a help; Kira
 * (alice), Wounded, spent a Fallen Fate ignore, chose Blaze of Glory when
 * hurt again, and in the blaze turn moved, gained momentum and took a free
 * action. Slots, as rs_resolve.h of that commit numbered them: moved,
 * actions, free, momentum, held, fired, help, help_rank, rally,
 * ignores_used, fate, fate_damage, out, resume; the encounter's slot 0 is
 * who takes the Blaze of Glory turn. */
static const char old_doc[] =
    "{\"v\":1,\"ruleset\":\"resolve\",\"name\":\"Old doc\","
    "\"gm\":\"618465428124953201\",\"version\":17,\"status\":1,\"round\":1,"
    "\"phase\":0,\"current\":2,\"acting_side\":-1,\"turn_seq\":\"4\","
    "\"notices\":true,\"tracker\":\"0\",\"next_id\":5,\"next_join\":5,"
    "\"turn_idx\":2,\"settings\":{},\"sides\":[],\"combatants\":[{\"id\":1,"
    "\"name\":\"Captain Vos\",\"owner\":\"0\",\"side\":-1,\"hidden\":false,"
    "\"group\":0,\"flags\":4,\"join\":1,\"init_expr\":\"\",\"init\":[8],"
    "\"tie\":0,\"stats\":{\"init\":2,\"defense\":12,\"ar\":2},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":14,\"max\":14}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[]},{\"id\":2,\"name\":\"Kira\","
    "\"owner\":\"5803779529149266183\",\"side\":-1,\"hidden\":false,"
    "\"group\":0,\"flags\":2,\"join\":2,\"init_expr\":\"\",\"init\":[10],"
    "\"tie\":0,\"stats\":{\"init\":9,\"defense\":11,\"ar\":1,\"stamina\":2,"
    "\"agility\":3,\"tactics\":2,\"attack\":4,\"attack_mod\":1,\"damage\":3,"
    "\"fp\":1},\"tracks\":[{\"name\":\"hp\",\"cur\":0,\"max\":12}],"
    "\"conds\":[{\"name\":\"Wounded\",\"value\":0,\"cap\":0,\"rounds\":0,"
    "\"anchor\":2,\"expire\":\"end\",\"source\":0,\"applied\":\"3\"}],"
    "\"note\":\"\",\"rs\":[1,0,1,1,0,0,0,0,0,1,0,1]},{\"id\":3,"
    "\"name\":\"Tam\",\"owner\":\"21748447695211092\",\"side\":-1,"
    "\"hidden\":false,\"group\":0,\"flags\":2,\"join\":3,\"init_expr\":\"\","
    "\"init\":[11],\"tie\":0,\"stats\":{\"init\":8,\"defense\":10,"
    "\"lore\":2},\"tracks\":[{\"name\":\"hp\",\"cur\":10,\"max\":10}],"
    "\"conds\":[],\"note\":\"\",\"rs\":[0,1,0,0,0,0,1,2]},{\"id\":4,"
    "\"name\":\"Rex\",\"owner\":\"3439783898153815154\",\"side\":-1,"
    "\"hidden\":false,\"group\":0,\"flags\":2,\"join\":4,\"init_expr\":\"\","
    "\"init\":[25],\"tie\":0,\"stats\":{\"init\":20,\"defense\":10},"
    "\"tracks\":[{\"name\":\"hp\",\"cur\":10,\"max\":10}],\"conds\":[],"
    "\"note\":\"\",\"rs\":[0,1,0,0,1]}],\"order\":[[4,0],[3,0],[2,0],[1,0]],"
    "\"rs\":[2]}";

/* The users of that session (console names hash to these ids). */
#define OLD_GM UINT64_C(618465428124953201)
#define OLD_CAROL UINT64_C(3439783898153815154)

/* The typed state of the combatant called name in document doc (as
 * enc_json_dump() writes it), or an empty object when it has none. */
static json_t *state_of(json_t *doc, const char *name)
{
    json_t *cs = json_object_get(doc, "combatants"), *c;
    size_t i;
    json_array_foreach(cs, i, c) {
        if (strcmp(json_string_value(json_object_get(c, "name")), name))
            continue;
        json_t *st = json_object_get(c, "st");
        return st != NULL ? st : json_object_get(doc, "no such key");
    }
    fail_msg("no combatant %s", name);
    return NULL;
}

static int64_t int_at(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (json_is_true(v))
        return 1;
    return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* old_doc with its first `from` replaced by `to`; the caller frees. */
static char *edited(const char *from, const char *to)
{
    const char *at = strstr(old_doc, from);
    assert_non_null(at);
    size_t head = (size_t)(at - old_doc), n = strlen(old_doc);
    char *out = malloc(n - strlen(from) + strlen(to) + 1);
    assert_non_null(out);
    memcpy(out, old_doc, head);
    strcpy(out + head, to);
    strcat(out, at + strlen(from));
    return out;
}

/* Load doc and write it again; the caller frees with json_decref(). */
static json_t *reload(const char *text)
{
    struct encounter *e = NULL;
    char err[160];
    assert_int_equal(enc_json_load(text, &e, err, sizeof err), BOT_OK);
    assert_string_equal(e->sys->id, "resolve");
    char *again = enc_json_dump(e);
    assert_non_null(again);
    /* Written again, the state is under named keys, no slots left. */
    assert_null(strstr(again, "\"rs\""));
    json_error_t je;
    json_t *doc = json_loads(again, 0, &je);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "v")), 2);
    free(again);
    enc_free(e);
    return doc;
}

static void test_old_resolve_document_upgrades(void **state)
{
    (void)state;
    json_t *doc = reload(old_doc);
    assert_int_equal(int_at(json_object_get(doc, "st"), "blaze"), 2);
    json_t *kira = state_of(doc, "Kira");
    assert_int_equal(int_at(kira, "moved"), 1);
    assert_int_equal(int_at(kira, "actions"), 0);
    assert_int_equal(int_at(kira, "frees"), 1);
    assert_int_equal(int_at(kira, "momentum"), 1);
    assert_int_equal(int_at(kira, "ignores_used"), 1);
    assert_int_equal(int_at(kira, "fate"), 0);
    assert_int_equal(int_at(kira, "fate_damage"), 1);
    json_t *tam = state_of(doc, "Tam");
    assert_int_equal(int_at(tam, "actions"), 1);
    assert_int_equal(int_at(tam, "help"), 1);
    assert_int_equal(int_at(tam, "help_rank"), 2);
    json_t *rex = state_of(doc, "Rex");
    assert_int_equal(int_at(rex, "actions"), 1);
    assert_int_equal(int_at(rex, "held"), 1);
    /* Captain Vos had no state: nothing is written for him. */
    assert_int_equal(json_object_size(state_of(doc, "Captain Vos")), 0);
    json_decref(doc);
}

/* Every slot, each a value its neighbours do not have, so that a field
 * reading the wrong slot shows. */
static void test_old_resolve_slots_map_one_to_one(void **state)
{
    (void)state;
    char *text = edited("\"rs\":[1,0,1,1,0,0,0,0,0,1,0,1]",
                        "\"rs\":[1,2,4,1,3,0,1,5,0,6,2,7,0,1]");
    json_t *doc = reload(text);
    json_t *kira = state_of(doc, "Kira");
    static const struct {
        const char *field;
        int64_t value;
    } want[] = {
        {"moved", 1}, {"actions", 2}, {"frees", 4}, {"momentum", 1},
        {"held", 3}, {"fired", 0}, {"help", 1}, {"help_rank", 5},
        {"rally", 0}, {"ignores_used", 6}, {"fate", 2},
        {"fate_damage", 7}, {"out", 0}, {"resume", 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (int_at(kira, want[i].field) != want[i].value)
            fail_msg("%s: %lld, want %lld", want[i].field,
                     (long long)int_at(kira, want[i].field),
                     (long long)want[i].value);
    json_decref(doc);
    free(text);
    /* The thirteenth slot: why someone left the fight (3: dead). */
    text = edited("\"rs\":[0,1,0,0,0,0,1,2]",
                  "\"rs\":[0,0,0,0,0,0,0,0,0,0,0,0,3]");
    doc = reload(text);
    assert_int_equal(int_at(state_of(doc, "Tam"), "out"), 3);
    json_decref(doc);
    free(text);
}

static void assert_contains(const char *hay, const char *needle)
{
    if (strstr(hay, needle) == NULL)
        fail_msg("expected \"%s\" in:\n%s", needle, hay);
}

static void test_old_resolve_document_plays_on(void **state)
{
    struct cmd_fx *f = *state;
    assert_int_equal(store_enc_save(f->store, 1, 1, old_doc), BOT_OK);
    /* The tracker shows the upgraded state: Kira's blaze turn with her
     * Move spent, momentum and the free action; Rex holding; Tam's help;
     * Kira's ignore spent. */
    assert_true(cmd_fx_run(f, OLD_GM, "combat", "status", NULL));
    assert_contains(f->text, "move used, actions 0/2, total 1/3 (momentum)");
    assert_contains(f->text, "holding an attack");
    assert_contains(f->text, "help ready (+2)");
    assert_contains(f->text, "ignores 1/2");
    /* Rex's held attack is triggered by his player, and he attacks. */
    assert_true(cmd_fx_run(f, OLD_CAROL, "trigger", NULL, "name", "Rex", NULL));
    assert_contains(f->text, "Rex's trigger happens");
    assert_true(cmd_fx_run(f, OLD_CAROL, "attack", NULL, "attacker", "Rex",
                    "target", "Captain Vos", "roll", "12", "damage", "3",
                    NULL));
    assert_contains(f->text, "Rex attacks Captain Vos: 12 vs 12");
    /* Ending Kira's Blaze of Glory turn: she falls, and play goes on
     * after the turn it interrupted (hers): Captain Vos's. */
    assert_true(cmd_fx_run(f, OLD_GM, "combat", "next", NULL));
    assert_contains(f->text, "Kira falls at the end of their Blaze of "
                    "Glory");
    assert_contains(f->text, "Captain Vos's turn");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_old_resolve_document_upgrades),
        cmocka_unit_test(test_old_resolve_slots_map_one_to_one),
        cmocka_unit_test_setup_teardown(test_old_resolve_document_plays_on,
                                        cmd_fx_setup, cmd_fx_teardown),
    };
    return cmocka_run_group_tests_name("enc_json_resolve", tests, NULL,
                                       NULL);
}
