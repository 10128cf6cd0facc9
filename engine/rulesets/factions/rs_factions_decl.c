/*
 * rs_factions_decl.c - everything the `factions` system declares about
 * itself: commands, options on core commands, conditions, help and the
 * descriptor (rs.h).
 */
#include "rs_factions.h"

static const char *const fac_saves[] = {"str", "agi", "wit", NULL};
static const char *const fac_react_kinds[] = {
    "dodge", "counter", "hide", "guard", "opportunity", "other", "none",
    "accept", NULL,
};

static const struct rs_cmd fac_cmds[] = {
    {"test", NULL, 0,
     "Roll a save: 1d20 at or under STR, AGI or WIT",
     "/test name:Sybilla save:agi",
     fac_cmd_test,
     {RS_OWN("name", false, "Who saves"),
      RS_SIDE("side", false, "GM: a whole faction saves"),
      RS_CHOICE("save", false, fac_saves, "Which attribute (default str)"),
      RS_OPT_END}},
    {"react", NULL, 0,
     "Answer an attack, or react out of turn: dodge, counter, hide...",
     "/react name:Cat kind:dodge",
     fac_cmd_react,
     {RS_OWN("name", true, "Who reacts"),
      RS_CHOICE("kind", true, fac_react_kinds, "Which reaction"),
      RS_TEXT("counter", false, 63,
              "The countering weapon's dice, unarmed or disarm"),
      RS_WHO("behind", false, "Who to hide behind"),
      RS_OPT_END}},
    {"surrender", NULL, 0,
     "A character gives up, using their turn",
     "/surrender name:Cat",
     fac_cmd_surrender,
     {RS_OWN("name", true, "Who surrenders"), RS_OPT_END}},
    {"chase", NULL, RS_CMD_GM_ONLY,
     "GM: a faction's group AGI save to flee or catch up",
     "/chase side:Bandits",
     fac_cmd_chase,
     {RS_SIDE("side", true, "The faction"), RS_OPT_END}},
    {"morale", NULL, RS_CMD_GM_ONLY,
     "GM: run a morale check for a faction now",
     "/morale side:Red",
     fac_cmd_morale,
     {RS_SIDE("side", true, "The faction"), RS_OPT_END}},
    {"durability", NULL, RS_CMD_READONLY,
     "Who used weapons or armour, for the rolls after the fight",
     "/durability",
     fac_cmd_durability,
     {RS_OPT_END}},
    {"first", NULL, 0,
     "The faction holding the initiative names who acts first",
     "/first side:Bandits",
     fac_cmd_first,
     {RS_SIDE("side", true, "The faction that acts first"), RS_OPT_END}},
    {"threshold", NULL, RS_CMD_GM_ONLY,
     "GM: set the fast action threshold for this round",
     "/threshold value:9",
     fac_cmd_fat,
     {RS_INT("value", true, 1, 20, "The threshold, 1 to 20"), RS_OPT_END}},
};

static const struct rs_ext fac_exts[] = {
    {"combat begin",
     {RS_SIDE("first", false, "The faction that holds the initiative"),
      RS_SIDE("surprise", false, "The faction that ambushes"),
      RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_cond_spec fac_conds[] = {
    {FAC_COND_CONCEALED, 0, 0, 0, 0, ENC_EXPIRE_END,
     "hidden: attacks against them are harder"},
    {FAC_COND_GRABBED, 0, 0, 0, 0, ENC_EXPIRE_END, "held by a grapple"},
    {FAC_COND_DISARMED, 0, 0, 0, 0, ENC_EXPIRE_END, "lost their weapon"},
    {FAC_COND_BROKEN, 0, 0, 0, 0, ENC_EXPIRE_END,
     "failed morale: flees or gives up"},
    {FAC_COND_SURRENDERED, 0, 0, 0, 0, ENC_EXPIRE_END, "out of the fight"},
};

static const struct rs_help fac_help = {
    .kind = "Factions alternate activating one character each, or pass; "
            "the round ends when every faction has passed in a row. Saves "
            "roll 1d20 at or under STR, AGI or WIT.",
    .turns = "Factions take turns activating one character at a time "
             "(`/combat pick`) or pass (`/combat pass`); the round ends when "
             "every faction has passed or nobody is left to act. A reaction "
             "(`/react`) uses up the character's turn for the round. Saves "
             "roll 1d20 under STR, AGI or WIT (`/test`); morale is checked "
             "at the end of each round.",
    .attacks = NULL,
};

const struct rs_system rs_factions = {
    .version = RS_SYSTEM_VERSION,
    .id = "factions",
    .title = "Factions",
    .summary = "factions alternate activations or pass; d20 saves under "
               "STR/AGI/WIT; reactions; morale; optional fast/slow phases",
    .flags = RS_F_SIDES_REQUIRED | RS_F_ALTERNATING | RS_F_OPEN_STATS |
             RS_F_OWN_ATTACK_OPTS,
    .ops = &fac_ops,
    .help = &fac_help,
    .cmds = fac_cmds,
    .ncmds = (int)(sizeof fac_cmds / sizeof fac_cmds[0]),
    .exts = fac_exts,
    .attack_opts = NULL,
    .conds = fac_conds,
    .nconds = (int)(sizeof fac_conds / sizeof fac_conds[0]),
    .settings = NULL,
    .stats = NULL,
};
