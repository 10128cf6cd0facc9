/* Tests for the saved sheet's document and its checks (sheet_json.h): a
 * round trip; every bad field named; stats and tracks against what each
 * system declares (rs_<id>_decl.c); attacks whose dice the dice language
 * refuses or whose options the system does not declare; the attack list's
 * limit. Expected messages follow the systems' declarations and the
 * engine's limits (eng_limits.h), not this module's output. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs.h"
#include "sheet_json.h"

static const struct rs_system *sys(const char *id)
{
    const struct rs_system *s = rs_find(id);
    assert_non_null(s);
    return s;
}

static struct enc_attack attack(const char *name, const char *roll,
                                const char *damage, const char *options)
{
    struct enc_attack a;
    memset(&a, 0, sizeof a);
    snprintf(a.name, sizeof a.name, "%s", name);
    snprintf(a.roll, sizeof a.roll, "%s", roll);
    snprintf(a.damage, sizeof a.damage, "%s", damage);
    snprintf(a.options, sizeof a.options, "%s", options);
    return a;
}

/* load(doc) fails and its message contains want. */
static void load_fails(const char *doc, const char *want)
{
    struct sheet sh;
    char err[SHEET_MAX_ERR];
    if (sheet_json_load(doc, &sh, err, sizeof err) == BOT_OK)
        fail_msg("%s loaded", doc);
    if (strstr(err, want) == NULL)
        fail_msg("\"%s\" does not say \"%s\"", err, want);
}

static void test_sheet_round_trip(void **state)
{
    (void)state;
    const struct rs_system *g = sys("generic");
    struct sheet sh, back;
    struct enc_diag d = {0};
    sheet_init(&sh, g);
    assert_int_equal(sheet_set(g, NULL, &sh, "AC", 15, &d), ENG_OK);
    assert_int_equal(sheet_set(g, NULL, &sh, "attack", 5, &d), ENG_OK);
    assert_int_equal(sheet_set(g, NULL, &sh, "hp", 24, &d), ENG_OK);
    snprintf(sh.init, sizeof sh.init, "+3");
    snprintf(sh.note, sizeof sh.note, "a \"quoted\" note");
    struct enc_attack a = attack("Longsword", "", "1d8+3", "");
    assert_int_equal(sheet_attack_put(&sh, &a, &d), ENG_OK);
    char *doc = sheet_json_dump(&sh);
    assert_non_null(doc);
    char err[SHEET_MAX_ERR];
    assert_int_equal(sheet_json_load(doc, &back, err, sizeof err), BOT_OK);
    free(doc);
    assert_string_equal(back.system, "generic");
    assert_int_equal(back.nstats, 2);
    assert_string_equal(back.stats[0].name, "ac"); /* as declared */
    assert_int_equal(back.stats[0].value, 15);
    assert_int_equal(back.ntracks, 1);
    assert_string_equal(back.tracks[0].name, "hp"); /* a track, not a stat */
    assert_int_equal(back.tracks[0].cur, 24);
    assert_int_equal(back.tracks[0].max, 24);
    assert_string_equal(back.init, "+3");
    assert_string_equal(back.note, "a \"quoted\" note");
    assert_int_equal(back.nattacks, 1);
    assert_string_equal(back.attacks[0].damage, "1d8+3");
    assert_int_equal(sheet_check(g, NULL, &back, &d), ENG_OK);
}

static void test_sheet_bad_stat_for_system(void **state)
{
    (void)state;
    struct sheet sh;
    struct enc_diag d = {0};
    /* factions declares str, agi, wit, hp and its armour: no dex */
    const struct rs_system *f = sys("factions");
    sheet_init(&sh, f);
    assert_int_equal(sheet_set(f, NULL, &sh, "dex", 3, &d), ENG_INVALID);
    assert_non_null(strstr(d.msg, "no stat dex"));
    /* generic takes any stat, but ac is 0..100 in its declaration */
    const struct rs_system *g = sys("generic");
    sheet_init(&sh, g);
    assert_int_equal(sheet_set(g, NULL, &sh, "str", 3, &d), ENG_OK);
    assert_int_equal(sheet_set(g, NULL, &sh, "ac", 101, &d), ENG_RANGE);
    assert_non_null(strstr(d.msg, "ac must be 0 to 100"));
    /* teams declares str: a die size 0..TE_MAX_DIE */
    const struct rs_system *t = sys("teams");
    sheet_init(&sh, t);
    assert_int_equal(sheet_set(t, NULL, &sh, "str", 6, &d), ENG_OK);
    /* A loaded sheet naming a stat its system lacks fails its check. */
    struct sheet loaded;
    char err[SHEET_MAX_ERR];
    assert_int_equal(sheet_json_load("{\"v\":1,\"system\":\"factions\","
                                     "\"stats\":{\"wis\":3}}",
                                     &loaded, err, sizeof err),
                     BOT_OK);
    assert_int_equal(sheet_check(f, NULL, &loaded, &d), ENG_INVALID);
    assert_non_null(strstr(d.msg, "no stat wis"));
    /* A track given as a stat, and a sheet of another system. */
    assert_int_equal(sheet_json_load("{\"v\":1,\"system\":\"generic\","
                                     "\"stats\":{\"hp\":3}}",
                                     &loaded, err, sizeof err),
                     BOT_OK);
    assert_int_equal(sheet_check(g, NULL, &loaded, &d), ENG_INVALID);
    assert_non_null(strstr(d.msg, "hp is a track"));
    assert_int_equal(sheet_check(sys("teams"), NULL, &loaded, &d),
                     ENG_INVALID);
    assert_non_null(strstr(d.msg, "for the generic system"));
}

static void test_sheet_attack_dice_refused(void **state)
{
    (void)state;
    const struct rs_system *g = sys("generic");
    struct enc_diag d = {0};
    struct enc_attack a = attack("Axe", "", "1d8+", "");
    assert_int_not_equal(sheet_attack_check(g, NULL, &a, &d), ENG_OK);
    assert_non_null(strstr(d.msg, "Axe: damage \"1d8+\""));
    a = attack("Axe", "d20+", "1d8", "");
    assert_int_not_equal(sheet_attack_check(g, NULL, &a, &d), ENG_OK);
    assert_non_null(strstr(d.msg, "Axe: roll"));
    /* a whole number is a pool or a weight in some systems */
    a = attack("Axe", "4", "2", "");
    assert_int_equal(sheet_attack_check(g, NULL, &a, &d), ENG_OK);
    a = attack("", "", "1d8", "");
    assert_int_not_equal(sheet_attack_check(g, NULL, &a, &d), ENG_OK);
}

static void test_sheet_attack_options(void **state)
{
    (void)state;
    struct enc_diag d = {0};
    /* resolve declares piercing and type= for /attack */
    struct enc_attack a = attack("Spear", "", "", "piercing type=fire");
    assert_int_equal(sheet_attack_check(sys("resolve"), NULL, &a, &d),
                     ENG_OK);
    a = attack("Spear", "", "", "flaming");
    assert_int_not_equal(sheet_attack_check(sys("resolve"), NULL, &a, &d),
                         ENG_OK);
    assert_non_null(strstr(d.msg, "flaming"));
    /* generic's /attack takes adv and dis only */
    a = attack("Spear", "", "1d6", "adv");
    assert_int_equal(sheet_attack_check(sys("generic"), NULL, &a, &d),
                     ENG_OK);
    a = attack("Spear", "", "1d6", "sneak");
    assert_int_not_equal(sheet_attack_check(sys("generic"), NULL, &a, &d),
                         ENG_OK);
    assert_non_null(strstr(d.msg, "sneak"));
    /* factions' guard= names a combatant: one fight's, not a weapon's */
    a = attack("Spear", "", "1d6", "guard=Bob");
    assert_int_equal(sheet_attack_check(sys("factions"), NULL, &a, &d),
                     ENG_INVALID);
    assert_non_null(strstr(d.msg, "guard names someone"));
}

static void test_sheet_attack_list(void **state)
{
    (void)state;
    struct sheet sh;
    struct enc_diag d = {0};
    sheet_init(&sh, sys("generic"));
    char name[16];
    for (int i = 0; i < ENC_MAX_ATTACKS; i++) {
        snprintf(name, sizeof name, "Knife %d", i);
        struct enc_attack a = attack(name, "", "1d4", "");
        assert_int_equal(sheet_attack_put(&sh, &a, &d), ENG_OK);
    }
    struct enc_attack more = attack("Bow", "", "1d6", "");
    assert_int_equal(sheet_attack_put(&sh, &more, &d), ENG_LIMIT);
    /* the same name, any case, replaces */
    struct enc_attack again = attack("KNIFE 0", "", "1d6", "");
    assert_int_equal(sheet_attack_put(&sh, &again, &d), ENG_OK);
    assert_int_equal(sh.nattacks, ENC_MAX_ATTACKS);
    assert_string_equal(sh.attacks[0].damage, "1d6");
    assert_true(sheet_attack_remove(&sh, "knife 3"));
    assert_false(sheet_attack_remove(&sh, "knife 3"));
    assert_int_equal(sh.nattacks, ENC_MAX_ATTACKS - 1);
    assert_string_equal(sh.attacks[3].name, "Knife 4");
}

/* Only the conditions a system declares to outlast a fight go on a sheet
 * (resolve's Wounded); they round-trip with their value. */
static void test_sheet_lasting_conditions(void **state)
{
    (void)state;
    struct sheet sh, back;
    struct enc_diag d = {0};
    char err[SHEET_MAX_ERR];
    const struct rs_system *r = sys("resolve");
    assert_true(sheet_cond_lasts(r, NULL, "wounded"));
    assert_false(sheet_cond_lasts(r, NULL, "Aiming"));
    sheet_init(&sh, r);
    snprintf(sh.conds[0].name, sizeof sh.conds[0].name, "Wounded");
    sh.nconds = 1;
    char *doc = sheet_json_dump(&sh);
    assert_int_equal(sheet_json_load(doc, &back, err, sizeof err), BOT_OK);
    free(doc);
    assert_int_equal(back.nconds, 1);
    assert_string_equal(back.conds[0].name, "Wounded");
    assert_int_equal(sheet_check(r, NULL, &back, &d), ENG_OK);
    snprintf(back.conds[0].name, sizeof back.conds[0].name, "Prone");
    assert_int_equal(sheet_check(r, NULL, &back, &d), ENG_INVALID);
    assert_non_null(strstr(d.msg, "Prone is not a condition the resolve "
                                  "system keeps after a fight"));
    load_fails("{\"v\":1,\"system\":\"resolve\",\"conds\":[{\"name\":"
               "\"Wounded\",\"value\":\"x\"}]}",
               "conds[0].value");
}

static void test_sheet_bad_documents(void **state)
{
    (void)state;
    load_fails("[1]", "not a sheet");
    load_fails("{\"v\":2,\"system\":\"generic\"}", "v: should be");
    load_fails("{\"v\":1}", "system");
    load_fails("{\"v\":1,\"system\":\"generic\",\"colour\":1}",
               "colour: not part of a sheet");
    load_fails("{\"v\":1,\"system\":\"generic\",\"stats\":{\"ac\":\"x\"}}",
               "stats.ac: should be a whole number");
    load_fails("{\"v\":1,\"system\":\"generic\",\"stats\":{\"ac\":2000000}}",
               "stats.ac");
    load_fails("{\"v\":1,\"system\":\"generic\",\"tracks\":{\"hp\":"
               "{\"cur\":1}}}",
               "tracks.hp.max");
    load_fails("{\"v\":1,\"system\":\"generic\",\"attacks\":[{\"roll\":"
               "\"d20\"}]}",
               "attacks[0].name");
    load_fails("{\"v\":1,\"system\":\"generic\",\"attacks\":[{\"name\":"
               "\"Axe\",\"edge\":1}]}",
               "attacks[0].edge: not part of a sheet");
    load_fails("{\"v\":1,\"system\":\"generic\",\"v\":1}", "not a sheet");
    /* oversize fields, each at its limit + 1 */
    char doc[1024], big[ENC_MAX_NOTE + 2];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(doc, sizeof doc, "{\"v\":1,\"system\":\"generic\",\"note\":"
             "\"%s\"}", big);
    load_fails(doc, "note: too long (limit is 200 bytes)");
    big[ENC_MAX_ATTACK_NAME + 1] = '\0';
    snprintf(doc, sizeof doc, "{\"v\":1,\"system\":\"generic\",\"attacks\":"
             "[{\"name\":\"%s\"}]}", big);
    load_fails(doc, "attacks[0].name: too long (limit is 32 bytes)");
    memset(big, 'x', sizeof big - 1);
    big[ENC_MAX_ATTACK_EXPR + 1] = '\0';
    snprintf(doc, sizeof doc, "{\"v\":1,\"system\":\"generic\",\"attacks\":"
             "[{\"name\":\"A\",\"damage\":\"%s\"}]}", big);
    load_fails(doc, "attacks[0].damage: too long (limit is 48 bytes)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sheet_round_trip),
        cmocka_unit_test(test_sheet_bad_stat_for_system),
        cmocka_unit_test(test_sheet_attack_dice_refused),
        cmocka_unit_test(test_sheet_attack_options),
        cmocka_unit_test(test_sheet_attack_list),
        cmocka_unit_test(test_sheet_bad_documents),
        cmocka_unit_test(test_sheet_lasting_conditions),
    };
    return cmocka_run_group_tests_name("sheet_json", tests, NULL, NULL);
}
