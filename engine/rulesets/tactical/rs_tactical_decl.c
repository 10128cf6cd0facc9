/*
 * rs_tactical_decl.c - everything the `tactical` system declares about
 * itself: commands, options on core commands, help and the descriptor
 * (rs.h). Its effects and conditions are data (a group's effects file, or
 * the built-in table): see rs_tactical_data.c.
 */
#include "rs_tactical.h"

static const char *const tac_bonuses[] = {
    "injury", "wound", "hp", "unarmed", "surprised", NULL,
};

static const struct rs_cmd tac_cmds[] = {
    {"test", NULL, 0,
     "Roll a d6 pool test: attribute + skill, counting successes",
     "/test name:Vex attr:endurance skill:fortitude difficulty:2",
     tac_test,
     {RS_OWN("name", false, "Who tests (default: whose turn it is)"),
      RS_TEXT("attr", false, 20, "The attribute"),
      RS_TEXT("skill", false, 20, "The skill"),
      RS_DICE("roll", false, "A pool to roll instead, like 5d6"),
      RS_INT("difficulty", false, 0, TAC_MAX_DIFFICULTY,
             "Successes needed"),
      RS_INT("adv", false, 0, TAC_MAX_POOL, "Advantages"),
      RS_INT("dis", false, 0, TAC_MAX_POOL, "Disadvantages"),
      RS_BOOL("exert", "Spend stamina for advantage"),
      RS_OPT_END}},
    {"act", NULL, RS_CMD_RUNNING,
     "Spend AP on an action: maneuver, break, drag, unmagnetize or any",
     "/act action:reload cost:1",
     tac_act,
     {RS_TEXT("action", true, 40, "What you do"),
      RS_OWN("name", false, "Who acts (default: whose turn it is)"),
      RS_INT("cost", false, 0, TAC_MAX_COST, "AP it costs"),
      RS_INT("stamina", false, 0, TAC_MAX_COST,
             "Stamina a maneuver costs"),
      RS_WHO("target", false, "Who it is aimed at (break, drag)"),
      RS_OPT_END}},
    {"effect", "trigger", 0,
     "Roll a pending resist test now",
     "/effect trigger name:\"Drone 1\" effect:Knockdown",
     tac_trigger,
     {RS_WHO("name", true, "Who resists"),
      RS_STR("effect", false, RS_VAL_CONDITION, 24, "Which effect"),
      RS_INT("pool", false, 0, TAC_MAX_POOL, "Dice to resist with"),
      RS_INT("test", false, 1, 2, "Which of the effect's tests"),
      RS_OPT_END}},
    {"effect", "apply", RS_CMD_GM_ONLY,
     "GM: put an effect on someone without an attack",
     "/effect apply name:Vex effect:Pulse",
     tac_apply,
     {RS_WHO("name", true, "Who"),
      RS_STR("effect", true, RS_VAL_CONDITION, 24, "Like Stun(2)"),
      RS_WHO("attacker", false, "Who caused it"),
      RS_BOOL("crit", "As from a critical hit"),
      RS_OPT_END}},
    {"effect", "clear", RS_CMD_GM_ONLY,
     "GM: remove a condition or lower its stacks",
     "/effect clear name:Vex condition:Exhausted by:1",
     tac_clear,
     {RS_WHO("name", true, "Who"),
      RS_STR("condition", true, RS_VAL_CONDITION, 24, "Which"),
      RS_INT("by", false, 0, TAC_MAX_X, "Stacks to take off (default all)"),
      RS_OPT_END}},
    {"ap", NULL, RS_CMD_GM_ONLY,
     "GM: set the action points someone has left",
     "/ap name:Vex value:1",
     tac_set_ap,
     {RS_WHO("name", true, "Who"),
      RS_INT("value", true, 0, TAC_MAX_AP, "Action points left"),
      RS_OPT_END}},
    {"takedown", NULL, RS_CMD_GM_ONLY,
     "GM: a takedown bonus before the fight begins",
     "/takedown name:Boss bonus:hp amount:5",
     tac_takedown,
     {RS_WHO("name", true, "Who"),
      RS_CHOICE("bonus", true, tac_bonuses, "What the takedown gives"),
      RS_INT("amount", false, 1, ENC_MAX_VALUE, "How much (hp)"),
      RS_OPT_END}},
};

static const struct rs_ext tac_exts[] = {
    {"attack",
     {RS_TEXT("effects", false, 200,
              "The attack's effects, e.g. Knockdown(2) Shock(1)"),
      RS_OPT_END}},
    {"combat begin",
     {RS_SIDE("surprise", false, "The side that ambushes"), RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_help tac_help = {
    .kind = "Initiative is rolled once and turns go from highest to "
            "lowest; each turn has action points to spend. Tests are pools "
            "of d6 counting 4 or more; attacks carry effects whose resist "
            "tests stack.",
    .turns = "Each turn has action points (3 unless the GM set `ap`) that "
             "attacks and actions spend (`/act`, `/attack`); `/combat next` "
             "ends it. Tests are d6 pools counting 4 or more; attack effects "
             "leave pending tests on the target (`/effect trigger`).",
    .attacks = NULL,
};

const struct rs_system rs_tactical = {
    .version = RS_SYSTEM_VERSION,
    .id = "tactical",
    .title = "Tactical (action points)",
    .summary = "1d20 + init, highest first; action points; d6 pools; "
               "stacking effects, armour that degrades, bursts and blasts",
    .flags = RS_F_OPEN_STATS | RS_F_OWN_ATTACK_OPTS,
    .ops = &tac_ops,
    .help = &tac_help,
    .cmds = tac_cmds,
    .ncmds = (int)(sizeof tac_cmds / sizeof tac_cmds[0]),
    .exts = tac_exts,
    .attack_opts = NULL,
    .conds = NULL,
    .nconds = 0,
    .settings = NULL,
    .stats = NULL,
    .data_file = "tactical-effects.conf",
};
