/* test_cmd_picker.c - the /attack target picker (issue 31), in every
 * system, on the fights of tests/data/hidden.tsv (the GM hides Umbra; Ann
 * is p1's; one more NPC is visible).
 *
 * What docs/commands.md promises: /attack with no target answers the
 * sender alone with a select of whom the attacker may attack, never a
 * hidden combatant for a player, every visible one, never the attacker;
 * the GM's picker holds the hidden one too. Choosing runs the typed
 * command: the same request, the same result with the same seed. A
 * choice whose target left or went down meanwhile is refused, and so is
 * a forged picker (another fight, or an attacker the sender does not
 * control). The console's text form numbers the choices. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_script.h"
#include "custom_id.h"
#include "custom_id_req.h"
#include "rs.h"
#include "rs_kit.h"

#define PICKER_FILE "hidden.tsv"
#define PICKER_SEED 42
#define PICKER_TEXT 16384

/* Each system's fight: its visible NPC (the hidden one is Umbra), and
 * what its attacks need besides a target (factions: a weapon's damage). */
static const struct {
    const char *system;
    const char *npc;
    const char *attack;
    const char *prep;   /* the GM's line that makes the NPC a target */
    int nexts;          /* /combat next until Ann may attack (resolve) */
} fights[] = {
    {"generic", "Orc", "/attack attacker:Ann", NULL, 0},
    {"teams", "Guard", "/attack attacker:Ann", NULL, 0},
    {"tactical", "Drone", "/attack attacker:Ann", NULL, 0},
    {"factions", "Bandit", "/attack attacker:Ann damage:d6", NULL, 0},
    {"resolve", "Thug", "/attack attacker:Ann",
     "/combat set name:Thug stats:\"defense=12\"", 2},
    {"cards", "Orc", "/attack attacker:Ann", NULL, 0},
};
#define NFIGHTS (sizeof fights / sizeof *fights)

static struct {
    char *text;
    struct script_setups setups;
} px;

static void load(void)
{
    char *save = NULL;
    if (px.text != NULL)
        return;
    px.text = support_read_data(PICKER_FILE, NULL);
    assert_non_null(px.text);
    for (char *l = strtok_r(px.text, "\n", &save); l != NULL;
         l = strtok_r(NULL, "\n", &save)) {
        char *f[5];
        if (l[0] == '#' || l[0] == '\0')
            continue;
        if (script_split_tabs(l, f, 5) == 4 && strcmp(f[0], "setup") == 0)
            script_setup_add(&px.setups, f);
    }
}

/* Run line as user on c; the reply (the caller cleans it up). */
static void run(struct script_cell *c, const char *line, uint64_t user,
                struct cmd_reply *r)
{
    struct cmd_parsed p;
    script_req(&p, line, user);
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

/* The choice value of r's picker, as Discord sends a click on it:
 * custom_id and value decoded into a request from user. */
static void choose(struct script_cell *c, const struct cmd_reply *picker,
                   const char *value, uint64_t user, struct cmd_reply *r)
{
    struct custom_id cid;
    struct cmd_parsed p;
    char why[128];
    assert_true(custom_id_parse(picker->msg.select.custom_id, &cid));
    script_req(&p, "/help", user);          /* the sender's fields */
    p.req.nopts = 0;
    p.req.sub = NULL;
    assert_true(custom_id_req(&cid, true, value, &p.req, why, sizeof why));
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

/* Several values chosen on r's picker (a multi-select), as Discord sends
 * them. */
static void choose_many(struct script_cell *c, const struct cmd_reply *picker,
                        const char *const *values, int n, uint64_t user,
                        struct cmd_reply *r)
{
    struct custom_id cid;
    struct cmd_parsed p;
    char why[128];
    assert_true(custom_id_parse(picker->msg.select.custom_id, &cid));
    script_req(&p, "/help", user);
    p.req.nopts = 0;
    p.req.sub = NULL;
    assert_true(custom_id_req_values(&cid, values, n, &p.req, why,
                                     sizeof why));
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

/* A choice's reply is the typed command's: changed alike, the same text. */
static void same_as_typed(const struct cmd_reply *chosen,
                          const struct cmd_reply *typed)
{
    static char ta[PICKER_TEXT], tb[PICKER_TEXT];
    assert_true(chosen->changed);
    assert_int_equal(chosen->changed, typed->changed);
    assert_int_equal(chosen->version, typed->version);
    script_text(&chosen->msg, ta, sizeof ta);
    script_text(&typed->msg, tb, sizeof tb);
    assert_string_equal(ta, tb);
}

static bool offers(const struct cmd_reply *r, const char *name)
{
    for (int i = 0; i < r->msg.select.noptions; i++)
        if (strcmp(r->msg.select.options[i].value, name) == 0)
            return true;
    return false;
}

/* Nothing of the hidden one in what a player reads of r: text, labels,
 * values, ids. */
static void hides(const struct cmd_reply *r, const char *secret)
{
    char text[PICKER_TEXT];
    script_text(&r->msg, text, sizeof text);
    assert_null(strstr(text, secret));
    for (int i = 0; i < r->msg.select.noptions; i++) {
        assert_null(strstr(r->msg.select.options[i].label, secret));
        assert_null(strstr(r->msg.select.options[i].value, secret));
    }
    if (r->msg.select.custom_id != NULL)
        assert_null(strstr(r->msg.select.custom_id, secret));
}

static void prepare(struct script_cell *c, size_t k)
{
    load();
    const struct script_setup *s = script_setup_find(&px.setups,
                                                     fights[k].system);
    assert_non_null(s);
    script_cell_prepare(c, s, PICKER_SEED);
    if (fights[k].prep != NULL)
        script_cell_step(c, fights[k].prep, SCRIPT_GM, NULL, NULL);
    for (int i = 0; i < fights[k].nexts; i++)
        script_cell_step(c, "/combat next", SCRIPT_GM, NULL, NULL);
}

/* A player's picker: private, every visible target, not the hidden one,
 * not the attacker; nothing changed. */
static void test_picker_player(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFIGHTS; k++) {
        struct script_cell c;
        struct cmd_reply r;
        prepare(&c, k);
        run(&c, fights[k].attack, SCRIPT_P1, &r);
        if (r.is_error)
            fail_msg("%s: %s", fights[k].system, r.msg.content);
        assert_true(r.ephemeral);
        assert_false(r.changed);
        assert_non_null(r.msg.select.custom_id);
        assert_true(offers(&r, fights[k].npc));
        assert_false(offers(&r, "Ann"));
        assert_true(r.msg.select.max_values <= 1);   /* one target */
        hides(&r, "Umbra");
        struct custom_id cid;
        assert_true(custom_id_parse(r.msg.select.custom_id, &cid));
        assert_int_equal(cid.version, CUSTOM_ID_ANY_VERSION);
        assert_string_equal(cid.command, "attack");
        assert_string_equal(cid.select_name, "target");
        assert_string_equal(cid.presets[0].name, "attacker");
        assert_string_equal(cid.presets[0].value, "Ann");
        cmd_reply_cleanup(&r);
        script_cell_close(&c);
    }
}

/* The GM's picker holds the hidden one, marked so. */
static void test_picker_gm(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFIGHTS; k++) {
        struct script_cell c;
        struct cmd_reply r;
        prepare(&c, k);
        run(&c, fights[k].attack, SCRIPT_GM, &r);
        assert_false(r.is_error);
        assert_true(r.ephemeral);
        assert_true(offers(&r, "Umbra"));
        assert_true(offers(&r, fights[k].npc));
        bool marked = false;
        for (int i = 0; i < r.msg.select.noptions; i++)
            marked |= strcmp(r.msg.select.options[i].label,
                             "Umbra (hidden)") == 0;
        assert_true(marked);
        cmd_reply_cleanup(&r);
        script_cell_close(&c);
    }
}

/* Choosing is the typed command: the same reply, the same new state, with
 * the same seed. */
static void test_picker_same_as_typed(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFIGHTS; k++) {
        struct script_cell a, b;
        struct cmd_reply pick, chosen, typed;
        char line[128];
        prepare(&a, k);
        prepare(&b, k);
        run(&a, fights[k].attack, SCRIPT_P1, &pick);
        choose(&a, &pick, fights[k].npc, SCRIPT_P1, &chosen);
        snprintf(line, sizeof line, "%s target:%s", fights[k].attack,
                 fights[k].npc);
        run(&b, line, SCRIPT_P1, &typed);
        if (chosen.is_error)
            fail_msg("%s: %s", fights[k].system, chosen.msg.content);
        same_as_typed(&chosen, &typed);
        cmd_reply_cleanup(&pick);
        cmd_reply_cleanup(&chosen);
        cmd_reply_cleanup(&typed);
        script_cell_close(&a);
        script_cell_close(&b);
    }
}

/* The target left the fight between the picker and the choice. */
static void test_picker_target_left(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFIGHTS; k++) {
        struct script_cell c;
        struct cmd_reply pick, rm, chosen;
        char line[128];
        prepare(&c, k);
        run(&c, fights[k].attack, SCRIPT_P1, &pick);
        snprintf(line, sizeof line, "/combat remove name:%s", fights[k].npc);
        run(&c, line, SCRIPT_GM, &rm);
        assert_false(rm.is_error);
        choose(&c, &pick, fights[k].npc, SCRIPT_P1, &chosen);
        assert_true(chosen.is_error);
        assert_false(chosen.changed);
        cmd_reply_cleanup(&pick);
        cmd_reply_cleanup(&rm);
        cmd_reply_cleanup(&chosen);
        script_cell_close(&c);
    }
}

/* The target went down between the picker and the choice (generic: hit
 * points to 0); the typed command still may, the picker's answer not. */
static void test_picker_target_down(void **state)
{
    (void)state;
    struct script_cell c;
    struct cmd_reply pick, hp, chosen;
    prepare(&c, 0);
    run(&c, "/attack attacker:Ann", SCRIPT_P1, &pick);
    run(&c, "/combat hp name:Orc change:=0", SCRIPT_GM, &hp);
    assert_false(hp.is_error);
    choose(&c, &pick, "Orc", SCRIPT_P1, &chosen);
    assert_true(chosen.is_error);
    assert_non_null(strstr(chosen.msg.content, "can no longer be attacked"));
    cmd_reply_cleanup(&pick);
    cmd_reply_cleanup(&hp);
    cmd_reply_cleanup(&chosen);
    script_cell_close(&c);
}

/* Forged pickers: another fight's id, a hidden target the player was never
 * offered, an attacker the player does not control. */
static void test_picker_forged(void **state)
{
    (void)state;
    struct script_cell c;
    struct cmd_reply pick, r;
    struct custom_id cid;
    struct cmd_parsed p;
    char why[128];
    prepare(&c, 0);
    run(&c, "/attack attacker:Ann", SCRIPT_P1, &pick);
    const char *forged[] = {
        "v2:attack:999999.*:target:attacker=Ann",     /* another fight */
        NULL,                                         /* Umbra attacks */
    };
    char own[CUSTOM_ID_MAX + 1];
    assert_true(custom_id_parse(pick.msg.select.custom_id, &cid));
    const char *n[] = {"attacker"}, *v[] = {"Orc"};
    assert_true(custom_id_make_picker(own, sizeof own, "attack", NULL,
                                      cid.fight, "target", n, v, 1));
    forged[1] = own;
    for (size_t i = 0; i < 2; i++) {
        assert_true(custom_id_parse(forged[i], &cid));
        script_req(&p, "/help", SCRIPT_P1);
        p.req.nopts = 0;
        assert_true(custom_id_req(&cid, true, "Ann", &p.req, why,
                                  sizeof why));
        assert_true(cmd_exec(&c.ctx, &p.req, &r));
        assert_true(r.is_error);
        assert_false(r.changed);
        cmd_reply_cleanup(&r);
    }
    /* the player names the hidden one in a real picker's answer */
    choose(&c, &pick, "Umbra", SCRIPT_P1, &r);
    assert_true(r.is_error);
    hides(&r, "4321");
    cmd_reply_cleanup(&r);
    cmd_reply_cleanup(&pick);
    script_cell_close(&c);
}

/* The options typed with the picker come with the choice; what a
 * picker cannot carry is refused with the typed form named. */
static void test_picker_refusals(void **state)
{
    (void)state;
    struct script_cell c;
    struct cmd_reply r;
    struct custom_id cid;
    prepare(&c, 0);
    run(&c, "/attack attacker:Ann damage:1d6+1 roll:d20+2", SCRIPT_P1, &r);
    assert_false(r.is_error);
    assert_true(custom_id_parse(r.msg.select.custom_id, &cid));
    assert_int_equal(cid.npresets, 3);
    assert_string_equal(cid.presets[1].name, "roll");
    assert_string_equal(cid.presets[1].value, "d20+2");
    assert_string_equal(cid.presets[2].name, "damage");
    assert_string_equal(cid.presets[2].value, "1d6+1");
    cmd_reply_cleanup(&r);
    run(&c, "/attack attacker:Ann damage:1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+"
        "1d6+1d6+1d6+1d6+1d6+1d6", SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_non_null(strstr(r.msg.content, "target:"));
    assert_int_equal(r.msg.select.noptions, 0);
    cmd_reply_cleanup(&r);
    run(&c, "/attack attacker:Orc", SCRIPT_P1, &r);   /* not theirs */
    assert_true(r.is_error);
    assert_int_equal(r.msg.select.noptions, 0);
    cmd_reply_cleanup(&r);
    script_cell_close(&c);
}

/* The id codec: a picker's id round-trips, and a long preset is refused
 * rather than cut. */
static void test_picker_custom_id(void **state)
{
    (void)state;
    char id[CUSTOM_ID_MAX + 1];
    struct custom_id cid;
    const char *names[] = {"attacker", "options"};
    const char *values[] = {"Aria: the 2nd", "a&b 100%"};
    assert_true(custom_id_make_picker(id, sizeof id, "attack", NULL, 17,
                                      "target", names, values, 2));
    assert_string_equal(id, "v2:attack:17.*:target:attacker=Aria: the 2nd"
                            "&options=a%26b 100%25");
    assert_true(custom_id_parse(id, &cid));
    assert_int_equal(cid.fight, 17);
    assert_int_equal(cid.version, CUSTOM_ID_ANY_VERSION);
    assert_string_equal(cid.select_name, "target");
    assert_int_equal(cid.npresets, 2);
    assert_string_equal(cid.presets[0].value, "Aria: the 2nd");
    assert_string_equal(cid.presets[1].name, "options");
    assert_string_equal(cid.presets[1].value, "a&b 100%");
    char longname[CUSTOM_ID_MAX + 1];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    values[0] = longname;
    assert_false(custom_id_make_picker(id, sizeof id, "attack", NULL, 17,
                                       "target", names, values, 1));
    assert_false(custom_id_parse("v2:attack:17.*:target:attacker=a%2", &cid));
    assert_false(custom_id_parse("v2:attack:17.*:target:attacker=a&", &cid));
    /* a version-less id of a button is not a picker */
    assert_false(custom_id_parse("v2:attack:17.*x:target", &cid));
    assert_false(custom_id_parse("v1:attack:*:target", &cid));
    /* the old forms are untouched */
    assert_true(custom_id_parse("v2:combat/remove:17.7:name=Goblin: 2",
                                &cid));
    assert_string_equal(cid.opt_value, "Goblin: 2");
    assert_string_equal(cid.select_name, "");
}

/* /combat condition without condition: every condition the system
 * declares for a hand to give (rs_cond_specs without the rules' own), or
 * the holder's own with remove:true; choosing gives it as typing would. */
static void test_condition_picker(void **state)
{
    (void)state;
    for (size_t k = 0; k < NFIGHTS; k++) {
        struct script_cell a, b;
        struct cmd_reply pick, chosen, typed, drop;
        char line[160], ta[PICKER_TEXT], tb[PICKER_TEXT];
        const struct rs_system *rs = rs_find(fights[k].system);
        int ns = 0, want = 0;
        assert_non_null(rs);
        const struct rs_cond_spec *specs = rs_cond_specs(rs, NULL, &ns);
        for (int i = 0; i < ns; i++)
            want += !(specs[i].flags & RS_COND_SYSTEM);
        prepare(&a, k);
        prepare(&b, k);
        run(&a, "/combat condition name:Ann", SCRIPT_P1, &pick);
        if (pick.is_error)
            fail_msg("%s: %s", fights[k].system, pick.msg.content);
        assert_true(pick.ephemeral);
        if (want > 25) {
            assert_int_equal(pick.msg.select.noptions, 0);
            assert_non_null(strstr(pick.msg.content, "limit is 25"));
            cmd_reply_cleanup(&pick);
            script_cell_close(&a);
            script_cell_close(&b);
            continue;
        }
        assert_int_equal(pick.msg.select.noptions, want);
        const char *first = pick.msg.select.options[0].value;
        choose(&a, &pick, first, SCRIPT_P1, &chosen);
        snprintf(line, sizeof line, "/combat condition name:Ann "
                 "condition:\"%s\"", first);
        run(&b, line, SCRIPT_P1, &typed);
        if (chosen.is_error)
            fail_msg("%s: %s", fights[k].system, chosen.msg.content);
        script_text(&chosen.msg, ta, sizeof ta);
        script_text(&typed.msg, tb, sizeof tb);
        assert_string_equal(ta, tb);
        /* remove:true offers what Ann holds */
        run(&a, "/combat condition name:Ann remove:true", SCRIPT_P1, &drop);
        assert_false(drop.is_error);
        bool has = false;
        for (int i = 0; i < drop.msg.select.noptions; i++)
            has |= strcmp(drop.msg.select.options[i].value, first) == 0;
        assert_true(has);
        cmd_reply_cleanup(&pick);
        cmd_reply_cleanup(&chosen);
        cmd_reply_cleanup(&typed);
        cmd_reply_cleanup(&drop);
        script_cell_close(&a);
        script_cell_close(&b);
    }
}

/* A generic fight where p1's Aria brings two saved attacks (one without
 * two); p2's Bryn is in it too. The reply of /combat begin into begin
 * (may be NULL; the caller cleans it up). */
static void prepare_saved(struct script_cell *c, bool two,
                          struct cmd_reply *begin)
{
    static const struct script_setup none;
    static const char *const lines[][2] = {
        {"p1", "/character create name:Aria hp:24 stats:\"ac=15 attack=5\" "
               "attack:Longsword damage:1d8+3"},
        {"p1", "/character set name:Aria attack:Bow roll:1d20+4 "
               "damage:1d6"},
        {"gm", "/combat start system:generic name:Saved"},
        {"gm", "/combat add name:Orc hp:30 init:=1 stats:\"ac=10\""},
        {"gm", "/combat add name:Umbra hp:30 init:=2 hidden:true "
               "stats:\"ac=10\""},
        {"p1", "/combat join character:Aria"},
        {"p2", "/combat join name:Bryn hp:20 init:=0"},
    };
    script_cell_prepare(c, &none, PICKER_SEED);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (two || i != 1)
            script_cell_step(c, lines[i][1], script_actor(lines[i][0]),
                             NULL, NULL);
    struct cmd_reply r;
    run(c, "/combat begin", SCRIPT_GM, begin != NULL ? begin : &r);
    if (begin == NULL)
        cmd_reply_cleanup(&r);
}

/* With saved attacks and nothing else typed, the picker offers them
 * first; the choice answers with the target picker, whose choice is
 * /attack with:<attack> target:<target> as typed. */
static void test_picker_saved_attacks(void **state)
{
    (void)state;
    struct script_cell a, b;
    struct cmd_reply first, second, chosen, typed;
    prepare_saved(&a, true, NULL);
    prepare_saved(&b, true, NULL);
    run(&a, "/attack", SCRIPT_P1, &first);
    assert_false(first.is_error);
    assert_true(first.ephemeral);
    assert_int_equal(first.msg.select.noptions, 2);
    assert_true(offers(&first, "Longsword"));
    assert_true(offers(&first, "Bow"));
    choose(&a, &first, "Bow", SCRIPT_P1, &second);
    assert_false(second.is_error);
    assert_true(offers(&second, "Orc"));
    hides(&second, "Umbra");
    struct custom_id cid;
    assert_true(custom_id_parse(second.msg.select.custom_id, &cid));
    assert_string_equal(cid.presets[1].name, "with");
    assert_string_equal(cid.presets[1].value, "Bow");
    choose(&a, &second, "Orc", SCRIPT_P1, &chosen);
    run(&b, "/attack attacker:Aria with:Bow target:Orc", SCRIPT_P1, &typed);
    assert_false(chosen.is_error);
    same_as_typed(&chosen, &typed);
    cmd_reply_cleanup(&first);
    cmd_reply_cleanup(&second);
    cmd_reply_cleanup(&chosen);
    cmd_reply_cleanup(&typed);
    script_cell_close(&a);
    script_cell_close(&b);
}

/* The tactical fight (Ann, Drone, Umbra hidden) with one more visible
 * NPC, Wasp: an area attack has two targets a player may choose. */
static void prepare_area(struct script_cell *c)
{
    prepare(c, 2);
    assert_string_equal(fights[2].system, "tactical");
    script_cell_step(c, "/combat add name:Wasp side:drones hp:12 "
                     "stats:\"init=2\"", SCRIPT_GM, NULL,
                     NULL);
}

#define AREA_ATTACK "/attack attacker:Ann damage:2d6 " \
                    "options:\"template=2\""

/* An area attack (the system declares template= one, rs.h struct
 * rs_area) takes a multi-select of the visible targets, at most the
 * declared limit; its answer is the typed attack with the first chosen as
 * target: and the rest in also=. */
static void test_picker_area_multi(void **state)
{
    (void)state;
    struct script_cell a, b;
    struct cmd_reply pick, chosen, typed;
    prepare_area(&a);
    prepare_area(&b);
    run(&a, AREA_ATTACK, SCRIPT_P1, &pick);
    if (pick.is_error)
        fail_msg("%s", pick.msg.content);
    assert_true(pick.ephemeral);
    assert_int_equal(pick.msg.select.noptions, 2);
    assert_int_equal(pick.msg.select.max_values, 2);
    assert_true(offers(&pick, "Drone"));
    assert_true(offers(&pick, "Wasp"));
    hides(&pick, "Umbra");
    assert_non_null(strstr(pick.msg.content, "the first is the target"));
    const char *both[] = {"Wasp", "Drone"};
    choose_many(&a, &pick, both, 2, SCRIPT_P1, &chosen);
    if (chosen.is_error)
        fail_msg("%s", chosen.msg.content);
    run(&b, "/attack attacker:Ann damage:2d6 target:Wasp "
        "options:\"template=2 also=Drone\"", SCRIPT_P1, &typed);
    assert_false(typed.is_error);
    same_as_typed(&chosen, &typed);
    cmd_reply_cleanup(&pick);
    cmd_reply_cleanup(&chosen);
    cmd_reply_cleanup(&typed);
    /* the GM's holds the hidden one too, and still two at most each */
    run(&a, AREA_ATTACK, SCRIPT_GM, &pick);
    assert_true(offers(&pick, "Umbra"));
    assert_int_equal(pick.msg.select.max_values, 3);
    cmd_reply_cleanup(&pick);
    /* a single attack in the same system: one target */
    run(&a, "/attack attacker:Ann", SCRIPT_P1, &pick);
    assert_true(pick.msg.select.max_values <= 1);
    cmd_reply_cleanup(&pick);
    script_cell_close(&a);
    script_cell_close(&b);
}

/* A saved attack that is an area one (its options say template=) makes
 * the picker a multi-select too; Kit's one saved attack is used without a
 * question. */
static void test_picker_area_saved(void **state)
{
    (void)state;
    static const struct script_setup none;
    static const char *const lines[][2] = {
        {"p1", "/character create name:Kit system:tactical hp:20 "
               "stats:\"init=30\" attack:Flamer damage:2d6 "
               "options:\"template=2\""},
        {"gm", "/combat start system:tactical name:Saved"},
        {"gm", "/combat add name:Drone side:drones hp:12 stats:\"init=1\""},
        {"gm", "/combat add name:Wasp side:drones hp:12 stats:\"init=2\""},
        {"p1", "/combat join character:Kit side:crew"},
        {"gm", "/combat begin"},
    };
    struct script_cell c;
    struct cmd_reply pick, chosen;
    script_cell_prepare(&c, &none, PICKER_SEED);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        script_cell_step(&c, lines[i][1], script_actor(lines[i][0]), NULL,
                         NULL);
    run(&c, "/attack attacker:Kit", SCRIPT_P1, &pick);
    if (pick.is_error)
        fail_msg("%s", pick.msg.content);
    assert_int_equal(pick.msg.select.max_values, 2);
    struct custom_id cid;
    assert_true(custom_id_parse(pick.msg.select.custom_id, &cid));
    assert_string_equal(cid.select_name, "target");
    assert_string_equal(cid.presets[1].name, "with");
    assert_string_equal(cid.presets[1].value, "Flamer");
    const char *both[] = {"Drone", "Wasp"};
    choose_many(&c, &pick, both, 2, SCRIPT_P1, &chosen);
    if (chosen.is_error)
        fail_msg("%s", chosen.msg.content);
    assert_true(chosen.changed);
    cmd_reply_cleanup(&pick);
    cmd_reply_cleanup(&chosen);
    script_cell_close(&c);
}

/* Refusals of a multi-select's answer: one target died since (nothing
 * happens, the others are not hit either), several values on a single
 * attack's picker, a hidden one forged in. */
static void test_picker_area_refusals(void **state)
{
    (void)state;
    struct script_cell c;
    struct cmd_reply pick, single, hp, r;
    prepare_area(&c);
    run(&c, AREA_ATTACK, SCRIPT_P1, &pick);
    run(&c, "/attack attacker:Ann", SCRIPT_P1, &single);
    run(&c, "/combat hp name:Wasp change:=0", SCRIPT_GM, &hp);
    assert_false(hp.is_error);
    const char *both[] = {"Drone", "Wasp"};
    choose_many(&c, &pick, both, 2, SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_false(r.changed);
    assert_non_null(strstr(r.msg.content, "Wasp can no longer be "
                                          "attacked"));
    assert_non_null(strstr(r.msg.content, "nothing happened"));
    cmd_reply_cleanup(&r);
    const char *first_dead[] = {"Wasp", "Drone"};
    choose_many(&c, &pick, first_dead, 2, SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_false(r.changed);
    cmd_reply_cleanup(&r);
    /* a forged second value on a single attack's picker */
    choose_many(&c, &single, both, 2, SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_false(r.changed);
    assert_non_null(strstr(r.msg.content, "only an area attack"));
    cmd_reply_cleanup(&r);
    /* the hidden one forged in: refused, never named back as found */
    const char *hidden[] = {"Drone", "Umbra"};
    choose_many(&c, &pick, hidden, 2, SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_false(r.changed);
    hides(&r, "4321");
    cmd_reply_cleanup(&r);
    /* the same target twice */
    const char *twice[] = {"Drone", "Drone"};
    choose_many(&c, &pick, twice, 2, SCRIPT_P1, &r);
    assert_true(r.is_error);
    assert_false(r.changed);
    cmd_reply_cleanup(&r);
    cmd_reply_cleanup(&pick);
    cmd_reply_cleanup(&single);
    cmd_reply_cleanup(&hp);
    script_cell_close(&c);
}

/* The Attack accessory on Orc's row of the tracker that reply r carries
 * (Discord's live tracker), parsed. */
static void tracker_attack(const struct cmd_reply *r, const char *target,
                           struct custom_id *cid)
{
    assert_non_null(r->tracker);
    assert_non_null(r->tracker->v2);
    for (int i = 0; i < r->tracker->v2->nparts; i++) {
        const struct msg_button *a = &r->tracker->v2->parts[i].accessory;
        if (a->custom_id != NULL && strcmp(a->label, "Attack") == 0 &&
            custom_id_parse(a->custom_id, cid) &&
            strcmp(cid->opt_value, target) == 0)
            return;
    }
    fail_msg("no Attack button for %s on the tracker", target);
}

/* A click on the button cid by user, as Discord's decoder makes it. */
static void click(struct script_cell *c, const struct custom_id *cid,
                  uint64_t user, struct cmd_reply *r)
{
    struct cmd_parsed p;
    char why[128];
    script_req(&p, "/help", user);
    p.req.nopts = 0;
    p.req.sub = NULL;
    assert_true(custom_id_req(cid, false, NULL, &p.req, why, sizeof why));
    assert_true(cmd_exec(&c->ctx, &p.req, r));
}

/* The tracker's Attack button on Orc, for Aria with two saved attacks:
 * the clicker gets the saved-attack select with Orc fixed, whose choice
 * is the typed /attack with:<it> target:Orc; another player's click is
 * refused as their typed /attack target:Orc is. */
static void test_tracker_attack_saved(void **state)
{
    (void)state;
    struct script_cell a, b;
    struct cmd_reply begin, first, chosen, typed, other;
    struct custom_id cid;
    prepare_saved(&a, true, &begin);
    prepare_saved(&b, true, NULL);
    tracker_attack(&begin, "Orc", &cid);
    click(&a, &cid, SCRIPT_P1, &first);
    if (first.is_error)
        fail_msg("%s", first.msg.content);
    assert_true(first.ephemeral);
    assert_false(first.changed);
    assert_int_equal(first.msg.select.noptions, 2);
    assert_true(offers(&first, "Longsword"));
    assert_true(offers(&first, "Bow"));
    struct custom_id sel;
    assert_true(custom_id_parse(first.msg.select.custom_id, &sel));
    assert_string_equal(sel.select_name, "with");
    assert_string_equal(sel.presets[1].name, "target");
    assert_string_equal(sel.presets[1].value, "Orc");
    /* p2 clicks it: Aria's turn, not theirs, as p2's typed attack */
    click(&a, &cid, SCRIPT_P2, &other);
    assert_true(other.is_error);
    assert_false(other.changed);
    assert_int_equal(other.msg.select.noptions, 0);
    run(&b, "/attack target:Orc", SCRIPT_P2, &typed);
    assert_true(typed.is_error);
    assert_string_equal(other.msg.content, typed.msg.content);
    cmd_reply_cleanup(&typed);
    choose(&a, &first, "Longsword", SCRIPT_P1, &chosen);
    run(&b, "/attack attacker:Aria with:Longsword target:Orc", SCRIPT_P1,
        &typed);
    if (chosen.is_error)
        fail_msg("%s", chosen.msg.content);
    same_as_typed(&chosen, &typed);
    cmd_reply_cleanup(&begin);
    cmd_reply_cleanup(&first);
    cmd_reply_cleanup(&chosen);
    cmd_reply_cleanup(&typed);
    cmd_reply_cleanup(&other);
    script_cell_close(&a);
    script_cell_close(&b);
}

/* With one saved attack the tracker's button uses it at once. */
static void test_tracker_attack_one_saved(void **state)
{
    (void)state;
    struct script_cell a, b;
    struct cmd_reply begin, clicked, typed;
    struct custom_id cid;
    prepare_saved(&a, false, &begin);
    prepare_saved(&b, false, NULL);
    tracker_attack(&begin, "Orc", &cid);
    click(&a, &cid, SCRIPT_P1, &clicked);
    run(&b, "/attack with:Longsword target:Orc", SCRIPT_P1, &typed);
    if (clicked.is_error)
        fail_msg("%s", clicked.msg.content);
    assert_false(typed.is_error);
    same_as_typed(&clicked, &typed);
    cmd_reply_cleanup(&begin);
    cmd_reply_cleanup(&clicked);
    cmd_reply_cleanup(&typed);
    script_cell_close(&a);
    script_cell_close(&b);
}

/* More targets than a select holds (Discord's 25 options): the answer
 * says so, names the typed form, and offers no select. */
static void test_picker_too_many_targets(void **state)
{
    (void)state;
    struct script_cell c;
    struct cmd_reply r;
    prepare(&c, 0);
    script_cell_step(&c, "/combat add name:Goblin count:13 hp:5",
                     SCRIPT_GM, NULL, NULL);
    run(&c, "/attack attacker:Ann", SCRIPT_P1, &r);  /* Orc + 13: fits */
    assert_int_equal(r.msg.select.noptions, 14);
    cmd_reply_cleanup(&r);
    script_cell_step(&c, "/combat add name:Kobold count:12 hp:5",
                     SCRIPT_GM, NULL, NULL);
    run(&c, "/attack attacker:Ann", SCRIPT_P1, &r);  /* 26 */
    assert_false(r.changed);
    assert_true(r.ephemeral);
    assert_int_equal(r.msg.select.noptions, 0);
    assert_non_null(strstr(r.msg.content, "26 possible targets"));
    assert_non_null(strstr(r.msg.content, "limit is 25"));
    assert_non_null(strstr(r.msg.content, "/attack target:"));
    hides(&r, "Umbra");
    cmd_reply_cleanup(&r);
    script_cell_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_picker_player),
        cmocka_unit_test(test_picker_gm),
        cmocka_unit_test(test_picker_same_as_typed),
        cmocka_unit_test(test_picker_target_left),
        cmocka_unit_test(test_picker_target_down),
        cmocka_unit_test(test_picker_forged),
        cmocka_unit_test(test_picker_refusals),
        cmocka_unit_test(test_picker_custom_id),
        cmocka_unit_test(test_condition_picker),
        cmocka_unit_test(test_picker_saved_attacks),
        cmocka_unit_test(test_picker_too_many_targets),
        cmocka_unit_test(test_picker_area_multi),
        cmocka_unit_test(test_picker_area_saved),
        cmocka_unit_test(test_picker_area_refusals),
        cmocka_unit_test(test_tracker_attack_saved),
        cmocka_unit_test(test_tracker_attack_one_saved),
    };
    int rc = cmocka_run_group_tests_name("cmd_picker", tests, NULL, NULL);
    free(px.text);
    return rc;
}
