/*
 * rs_cards_decl.c - everything the `cards` system declares about itself:
 * commands, options on core commands, conditions, help and the
 * descriptor (rs.h).
 */
#include "rs_cards.h"

static const char *const cards_test_maneuvers[] = {
    "slow", "fast", "reaction", "none", NULL,
};
static const char *const cards_maneuver_kinds[] = {"slow", "fast", NULL};
static const char *const cards_react_kinds[] = {
    "dodge", "parry", "breakfree", "hold", "chase", "resist", "other", NULL,
};
static const char *const cards_positions[] = {
    "controlled", "risky", "desperate", NULL,
};

#define CARDS_POOL RS_INT("pool", false, 0, CARDS_MAX_POOL, \
                          "Dice in the pool (default: from the skill)")
#define CARDS_SKILL(help) RS_TEXT("skill", false, 20, help)

static const struct rs_cmd cards_cmds[] = {
    {"swap", NULL, RS_CMD_RUNNING,
     "Two player characters swap initiative cards",
     "/swap a:Ana b:Bo",
     cards_do_swap,
     {RS_OWN("a", true, "One"),
      RS_WHO("b", true, "The other"),
      RS_INT("card", false, 1, 10, "Which of b's cards to take"),
      RS_INT("give", false, 1, 10, "Which of a's cards to give"),
      RS_OPT_END}},
    {"ambush", NULL, RS_CMD_GM_ONLY,
     "GM: the ambushers' Sneak test for extra initiative draws",
     "/ambush side:Bandits name:\"Bandit 1\" watch:3",
     cards_do_ambush,
     {RS_SIDE("side", true, "The ambushing side"),
      RS_WHO("name", false, "Who sneaks"),
      CARDS_POOL, CARDS_SKILL("The sneak skill"),
      RS_INT("watch", false, 0, CARDS_MAX_POOL,
             "The watchers' Track or Read dice"),
      RS_WHO("against", false, "Who watches"),
      RS_TEXT("watch_skill", false, 20,
              "The watcher's skill (default track)"),
      RS_BOOL("auto", "The extra draw without a test"),
      RS_OPT_END}},
    {"test", NULL, 0,
     "Roll a d6 pool test and count successes",
     "/test name:Ana skill:fight need:2",
     cards_do_test,
     {RS_OWN("name", true, "Who tests"),
      CARDS_POOL, CARDS_SKILL("The skill (its stat gives the pool)"),
      RS_DICE("roll", false, "Dice to roll instead of the pool"),
      RS_INT("need", false, 1, CARDS_MAX_NEED, "Successes needed"),
      RS_INT("bonus", false, -CARDS_MAX_POOL, CARDS_MAX_POOL,
             "Dice added or taken away"),
      RS_CHOICE("maneuver", false, cards_test_maneuvers,
                "The maneuver it uses (default none)"),
      RS_BOOL("harm", "Harm takes dice away (default true)"),
      RS_TEXT("label", false, 48, "What the test is for"),
      RS_OPT_END}},
    {"maneuver", NULL, RS_CMD_RUNNING,
     "Spend a slow or fast maneuver on something else",
     "/maneuver name:Ana kind:fast label:\"draw sword\"",
     cards_do_maneuver,
     {RS_OWN("name", true, "Who"),
      RS_CHOICE("kind", false, cards_maneuver_kinds, "slow or fast"),
      RS_TEXT("label", false, 48, "What it is"),
      RS_OPT_END}},
    {"react", NULL, RS_CMD_RUNNING,
     "Use a reaction (a fast maneuver) any time in the round",
     "/react name:Bo kind:dodge against:Ana",
     cards_do_react,
     {RS_OWN("name", true, "Who reacts"),
      RS_CHOICE("kind", true, cards_react_kinds, "Which reaction"),
      RS_WHO("against", false, "Whose attack or flight this answers"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_BOOL("unarmed", "Parrying unarmed"),
      RS_INT("need", false, 1, CARDS_MAX_NEED, "Successes needed"),
      RS_TEXT("label", false, 48, "What it is"),
      RS_OPT_END}},
    {"flee", NULL, RS_CMD_RUNNING,
     "Try to flee the fight",
     "/flee name:Ana skill:sneak",
     cards_do_flee,
     {RS_OWN("name", true, "Who flees"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_OPT_END}},
    {"fear", NULL, RS_CMD_GM_ONLY,
     "GM: a fear test against a fear value",
     "/fear name:Ana value:2 position:risky",
     cards_do_fear,
     {RS_WHO("name", true, "Who is afraid"),
      RS_INT("value", true, 1, CARDS_MAX_NEED, "The fear value"),
      RS_CHOICE("position", true, cards_positions, "How bad it is"),
      RS_INT("allies", false, 0, ENC_MAX_COMBATANTS,
             "Player characters present (default: counted)"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_OPT_END}},
    {"hazard", "fire", RS_CMD_GM_ONLY,
     "GM: someone catches fire, or the fire goes out",
     "/hazard fire name:Ana intensity:3 need:2",
     cards_do_fire,
     {RS_WHO("name", true, "Who burns"),
      RS_INT("intensity", false, 1, CARDS_MAX_INTENSITY,
             "How fierce the fire is"),
      RS_INT("need", false, 1, CARDS_MAX_NEED,
             "Finesse successes to put it out"),
      RS_BOOL("out", "The fire goes out"),
      RS_OPT_END}},
    {"hazard", "poison", RS_CMD_GM_ONLY,
     "GM: poison against Endure, or an antidote",
     "/hazard poison name:Ana toxicity:6",
     cards_do_poison,
     {RS_WHO("name", true, "Who is poisoned"),
      RS_INT("toxicity", false, 1, CARDS_MAX_TOXICITY, "The poison's dice"),
      RS_BOOL("antidote", "An antidote ends it"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_OPT_END}},
    {"hazard", "fall", RS_CMD_GM_ONLY,
     "GM: someone falls from a height",
     "/hazard fall name:Ana feet:20",
     cards_do_fall,
     {RS_WHO("name", true, "Who falls"),
      RS_INT("feet", false, 0, CARDS_MAX_FALL, "How far they fall"),
      RS_BOOL("soft", "Onto something soft"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_OPT_END}},
    {"extinguish", NULL, 0,
     "A slow Finesse test to put out a fire",
     "/extinguish name:Ana",
     cards_do_extinguish,
     {RS_OWN("name", true, "Who burns"),
      CARDS_POOL, CARDS_SKILL("The skill"),
      RS_OPT_END}},
};

static const struct rs_ext cards_exts[] = {
    {"combat begin",
     {RS_SIDE("surprise", false, "The side that ambushes"), RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_help cards_help = {
    .kind = "Everyone draws an initiative card from 1 to 10 and keeps it: "
            "the lowest card acts first, the same order every round. Tests "
            "roll pools of d6 and count the sixes.",
    .turns = "A turn is one slow and one fast maneuver, or two fast ones "
             "(`/maneuver`, `/attack`); reactions (`/react`) are fast "
             "maneuvers used any time in the round. `/combat next` ends "
             "the turn.",
    .attacks = NULL,
};

const struct rs_system rs_cards = {
    .version = RS_SYSTEM_VERSION,
    .id = "cards",
    .title = "Initiative cards",
    .summary = "cards 1-10, lowest first; one slow and one fast maneuver; "
               "d6 pools count 6s; Harm takes dice away",
    .flags = RS_F_OPEN_STATS | RS_F_OWN_ATTACK_OPTS,
    .ops = &cards_ops,
    .help = &cards_help,
    .cmds = cards_cmds,
    .ncmds = (int)(sizeof cards_cmds / sizeof cards_cmds[0]),
    .exts = cards_exts,
    .attack_opts = NULL,
    .conds = NULL,
    .nconds = 0,
    .settings = NULL,
    .stats = NULL,
};
