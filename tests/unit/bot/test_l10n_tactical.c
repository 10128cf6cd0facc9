/*
 * The tactical system in the table's language (docs/internals/i18n.md,
 * "Results, the tracker and the engine's sentences"): an attack whose
 * armour soaks the blow and whose Shock doubles against a machine reads
 * as German and Polish sentences, with the modifiers' reasons in them; a
 * refusal of the system speaks the sender's language; English stays as
 * the transcripts have it.
 */
#include "support.h"

#include <string.h>

#include "cmd.h"
#include "cmd_fixture.h"
#include "l10n_fixture.h"

enum { GM = 100, ALICE = 200 };

/* tests/transcripts/tactical_fight.txt's opening: Vex (a player) against
 * an armoured Drone (a machine). */
static void tactical_fight(struct cmd_fx *f)
{
    assert_true(cmd_fx_run(f, GM, "combat", "start", "system", "tactical",
                           "name", "Hangar", NULL));
    assert_true(cmd_fx_run(f, ALICE, "combat", "join", "name", "Vex",
                           "hp", "20", "stats",
                           "init=3 stamina=3 av=4 endurance=2 fortitude=1",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "add", "name", "Drone", "hp",
                           "12", "stats",
                           "init=1 av=21 endurance=1 fortitude=1 mech=1",
                           NULL));
    assert_true(cmd_fx_run(f, GM, "combat", "begin", NULL));
}

static bool vex_attacks(struct cmd_fx *f)
{
    return cmd_fx_run(f, ALICE, "attack", NULL, "attacker", "Vex", "target",
                      "Drone", "damage", "30", "options",
                      "effects=Knockdown(2),Shock(1)", NULL);
}

static bool vex_resists(struct cmd_fx *f)
{
    return cmd_fx_run(f, ALICE, "effect", "trigger", "name", "Vex", NULL);
}

/* The signature blow in German: armour's sentence, Shock's reasons. */
static void test_attack_in_german(void **state)
{
    struct cmd_fx *f = *state;
    tactical_fight(f);
    f->guild_lang = I18N_DE;
    assert_true(vex_attacks(f));
    cmd_fx_has(f, "Drone: Rüstung fängt 21 ab (AV 21, DR 0); 9 geht durch");
    cmd_fx_has(f, "gegen eine Maschine: doppelt +1");
    cmd_fx_has(f, "direkt: Rüstung zählt nicht");
    l10n_fx_lacks(f->text, "armour");
    /* a refusal of the system is the sender's: Vex has no test pending */
    f->lang = I18N_DE;
    assert_false(vex_resists(f));
    cmd_fx_has(f, "Vex hat keine offene Probe");
}

/* The same blow at a Polish table. */
static void test_attack_in_polish(void **state)
{
    struct cmd_fx *f = *state;
    tactical_fight(f);
    f->guild_lang = I18N_PL;
    assert_true(vex_attacks(f));
    cmd_fx_has(f, "Drone: pancerz pochłania 21 (AV 21, DR 0); "
                  "przechodzi 9");
    cmd_fx_has(f, "przeciw maszynie: podwójnie +1");
    cmd_fx_has(f, "bezpośrednie: pancerz się nie liczy");
    l10n_fx_lacks(f->text, "armour");
}

/* English reads as tactical_fight.out does. */
static void test_english_unchanged(void **state)
{
    struct cmd_fx *f = *state;
    tactical_fight(f);
    assert_true(vex_attacks(f));
    cmd_fx_has(f, "Drone: armour absorbs 21 (AV 21, DR 0); 9 gets through");
    cmd_fx_has(f, "against a machine: double +1");
    cmd_fx_has(f, "direct: armour does not count");
    assert_false(vex_resists(f));
    cmd_fx_has(f, "Vex has no pending test");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attack_in_german,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_attack_in_polish,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
        cmocka_unit_test_setup_teardown(test_english_unchanged,
                                        cmd_fx_setup_discord,
                                        cmd_fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
