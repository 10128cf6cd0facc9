/*
 * rs_teams_decl.c - everything the `teams` system declares about itself:
 * its commands and their options, what it adds to the core commands, its
 * conditions, help and the system descriptor (rs.h). The command layer,
 * Discord registration, autocomplete, /help and docs read these.
 */
#include "rs_teams.h"

static const char *const te_actions[] = {
    "move", "step", "sprint", "guard", "wait", "ready", "command",
    "interact", "brandish", "seek_cover", "stand_up", "drop_prone",
    "drop_item", "resuscitate", "short_task", "killing_strike", "other",
    "continue", "abandon", NULL,
};
static const char *const te_reactions[] = {
    "block", "dodge", "fortify", "intercept", "parry", "resist", NULL,
};
static const char *const te_test_kinds[] = {
    "fortify", "dodge", "resist", "luck", NULL,
};

static const struct rs_cmd te_cmds[] = {
    {"act", NULL, RS_CMD_RUNNING,
     "Spend actions on your turn: move, guard, wait, command, other...",
     "/act action:other cost:2 label:reload",
     te_act,
     {RS_CHOICE("action", true, te_actions, "What you do"),
      RS_WHO("target", false, "Who the action is aimed at"),
      RS_INT("cost", false, 0, TE_MAX_ACTION_COST,
             "Actions it costs (action:other)"),
      RS_TEXT("label", false, 48, "What it is"),
      RS_DICE("roll", false, "A test that goes with it"),
      RS_INT("difficulty", false, 0, 1000, "What the test must reach"),
      RS_OPT_END}},
    {"react", NULL, RS_CMD_RUNNING,
     "Use your reaction out of turn: block, dodge, fortify, intercept...",
     "/react name:Cat reaction:dodge",
     te_react,
     {RS_OWN("name", true, "Who reacts"),
      RS_CHOICE("reaction", true, te_reactions, "Which reaction"),
      RS_OPT_END}},
    {"test", NULL, RS_CMD_RUNNING,
     "Roll a fortify, dodge, resist or luck test",
     "/test name:Roland kind:fortify roll:1d8+1d6",
     te_test,
     {RS_OWN("name", true, "Who tests"),
      RS_CHOICE("kind", false, te_test_kinds,
                "Which test (default: fortify, when one is due)"),
      RS_DICE("roll", false, "The test's dice (attribute + skill)"),
      RS_INT("difficulty", false, 0, 1000, "What the test must reach"),
      RS_OPT_END}},
    {"fall", NULL, RS_CMD_RUNNING,
     "Fall unconscious instead of fortifying",
     "/fall name:Boudica",
     te_fall,
     {RS_OWN("name", true, "Who falls"), RS_OPT_END}},
    {"wake", NULL, RS_CMD_RUNNING | RS_CMD_GM_ONLY,
     "GM: a character regains consciousness",
     "/wake name:Roland",
     te_wake_cmd,
     {RS_WHO("name", true, "Who wakes"), RS_OPT_END}},
    {"damage", NULL, RS_CMD_RUNNING | RS_CMD_GM_ONLY,
     "GM: damage worked out by hand, through endurance and health",
     "/damage name:Roland amount:8",
     te_damage_cmd,
     {RS_WHO("name", true, "Who takes it"),
      RS_INT("amount", true, 0, ENC_MAX_VALUE, "How much damage"),
      RS_BOOL("nonlethal", "Nonlethal damage"),
      RS_OPT_END}},
};

static const struct rs_ext te_exts[] = {
    {"combat begin",
     {RS_SIDE("first", false, "The team that picks first"),
      RS_SIDE("surprise", false, "The team that gets a surprise round"),
      RS_TEXT("order", false, 400, "Order of the other teams, as a,b,c"),
      RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_cond_spec te_conds[] = {
    {"guarding", 0, 0, 0, 0, ENC_EXPIRE_START,
     "+1 to defences until the start of their next turn"},
    {"in cover", 0, 0, 0, 0, ENC_EXPIRE_END,
     "ranged attacks against them are at a disadvantage"},
    {"waiting", 0, 0, 0, 0, ENC_EXPIRE_START,
     "saved an action for an extra reaction"},
    {"readied", 0, 0, 0, 0, ENC_EXPIRE_START,
     "holds an attack for a trigger"},
    {"prone", 0, 0, 0, 0, ENC_EXPIRE_END,
     "on the ground; standing up costs an action"},
};

static const struct rs_help te_help = {
    .kind = "Teams take turns: the acting team picks one member who has "
            "not acted; each character has three actions and one reaction "
            "a round. Tests add an attribute die and a skill die; a d20 "
            "luck die beside attacks decides criticals.",
    .turns = "The team whose turn it is picks a member who has not acted "
             "(`/combat pick`); that member spends three actions (`/act`, "
             "`/attack`) and has one reaction out of turn (`/react`), then "
             "play passes to the next team (`/combat next`). Damage comes "
             "off endurance, then health; too much health lost means a test "
             "to stay conscious (`/test kind:fortify` or `/fall`).",
    .attacks = NULL,
};

const struct rs_system rs_teams = {
    .version = RS_SYSTEM_VERSION,
    .id = "teams",
    .title = "Teams",
    .summary = "teams alternate picking a member; 3 actions and a reaction; "
               "test vs evasion with a d20 luck die; endurance then health",
    .flags = RS_F_SIDES_REQUIRED | RS_F_ALTERNATING | RS_F_OPEN_STATS |
             RS_F_OWN_ATTACK_OPTS,
    .ops = &te_ops,
    .help = &te_help,
    .cmds = te_cmds,
    .ncmds = (int)(sizeof te_cmds / sizeof te_cmds[0]),
    .exts = te_exts,
    .attack_opts = NULL,
    .conds = te_conds,
    .nconds = (int)(sizeof te_conds / sizeof te_conds[0]),
    .settings = NULL,
    .stats = NULL,
    .prompts = te_prompts,
    .nprompts = 1,
};
