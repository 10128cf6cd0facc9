/*
 * rs_resolve_decl.c - everything the `resolve` system declares about
 * itself: commands, options on core commands, conditions, help and the
 * descriptor (rs.h).
 */
#include "rs_resolve.h"

static const char *const rsv_act_kinds[] = {
    "dash", "item", "skill", "free", NULL,
};
static const char *const rsv_hold_kinds[] = {
    "attack", "item", "skill", NULL,
};
static const char *const rsv_fates[] = {
    "ignore", "never", "push", "blaze", "tragic", NULL,
};

#define RSV_SKILL(help) RS_TEXT("skill", false, ENC_MAX_STAT_NAME, help)
#define RSV_RANK RS_INT("rank", false, 0, RSV_MAX_RANK, \
                        "The rank, if not from a stat")

static const struct rs_cmd rsv_cmds[] = {
    {"delay", NULL, 0,
     "Move your turn to right after someone who has not acted",
     "/delay after:\"Captain Vos\"",
     rsv_cmd_delay,
     {RS_WHO("after", true, "Act right after this combatant"), RS_OPT_END}},
    {"move", NULL, 0,
     "Spend your Move (one range band)",
     "/move to:short",
     rsv_cmd_move,
     {RS_TEXT("to", false, 80, "Where to"), RS_OPT_END}},
    {"act", NULL, 0,
     "Spend your Action: dash, use an item or a skill; or a free action",
     "/act kind:item note:\"drinks a potion\"",
     rsv_cmd_act,
     {RS_CHOICE("kind", true, rsv_act_kinds, "What kind of action"),
      RS_TEXT("note", false, 80, "What it is"),
      RS_OPT_END}},
    {"momentum", NULL, 0,
     "You rolled Gain Momentum: one more Action this turn",
     "/momentum",
     rsv_cmd_momentum,
     {RS_OPT_END}},
    {"defend", NULL, 0,
     "+2 x rank to Defense until your next turn",
     "/defend skill:agility",
     rsv_cmd_defend,
     {RSV_SKILL("agility, athletics or hide"), RSV_RANK, RS_OPT_END}},
    {"aim", NULL, 0,
     "+rank to your next attack, or ignore 1D of range penalty",
     "/aim skill:tactics",
     rsv_cmd_aim,
     {RSV_SKILL("tactics or search"), RSV_RANK,
      RS_BOOL("range", "Ignore 1D of long-range penalty instead"),
      RS_OPT_END}},
    {"assist", NULL, 0,
     "Ready a help for another character's roll",
     "/assist skill:medicine",
     rsv_cmd_help,
     {RSV_SKILL("The skill you help with"), RSV_RANK, RS_OPT_END}},
    {"rally", NULL, 0,
     "An unused help gives 1 Resolve to someone not Wounded",
     "/rally target:Tam",
     rsv_cmd_rally,
     {RS_WHO("target", true, "Who is rallied"), RS_OPT_END}},
    {"hold", NULL, RS_CMD_ENDS_TURN,
     "Hold an action for a trigger; ends your turn",
     "/hold action:attack trigger:\"door opens\"",
     rsv_cmd_hold,
     {RS_CHOICE("action", true, rsv_hold_kinds, "What is held"),
      RS_TEXT("trigger", true, 80, "What sets it off"),
      RS_OPT_END}},
    {"trigger", NULL, 0,
     "A held action happens now",
     "/trigger name:Kira",
     rsv_cmd_trigger,
     {RS_OWN("name", true, "Whose held action"), RS_OPT_END}},
    {"escape", NULL, RS_CMD_ENDS_TURN,
     "Spend your whole turn leaving the fight",
     "/escape",
     rsv_cmd_escape,
     {RS_OPT_END}},
    {"damage", NULL, RS_CMD_GM_ONLY,
     "GM: damage worked out by hand, through Resolve and Wounded",
     "/damage name:Tam amount:3",
     rsv_cmd_damage,
     {RS_WHO("name", true, "Who takes it"),
      RS_INT("amount", true, 0, ENC_MAX_VALUE, "How much damage"),
      RS_OPT_END}},
    {"fate", NULL, 0,
     "Choose a Fallen Fate",
     "/fate name:Kira fate:never attrs:\"agility,strength\"",
     rsv_fate,
     {RS_OWN("name", false, "Whose fate (default: the one that is due)"),
      RS_CHOICE("fate", true, rsv_fates, "The fate"),
      RS_TEXT("attrs", false, 64, "Never the Same: one or two attributes"),
      RS_TEXT("witnesses", false, 200, "Tragic Demise: who saw it"),
      RS_OPT_END}},
    {"rest", NULL, RS_CMD_GM_ONLY,
     "GM: give back a character's Fallen Fate ignores",
     "/rest name:Kira",
     rsv_cmd_rest,
     {RS_WHO("name", true, "Who rests"), RS_OPT_END}},
    {"check", NULL, 0,
     "An attribute check that helpers can add to",
     "/check roll:\"3D+2\" dc:12 help:Tam",
     rsv_check,
     {RS_DICE("roll", true, "The dice"),
      RS_OWN("name", false, "Who checks"),
      RS_INT("dc", false, 0, ENC_MAX_VALUE, "The difficulty"),
      RS_TEXT("help", false, 140, "Up to two helpers, as a,b"),
      RS_OPT_END}},
};

static const struct rs_ext rsv_exts[] = {
    {"combat add",
     {RS_BOOL("major", "A major NPC (rank + 6 initiative)"), RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_cond_spec rsv_conds[] = {
    {"Defending", 0, 0, 0, 0, ENC_EXPIRE_START,
     "+2 x rank to Defense until their next turn"},
    {"Wounded", 0, 0, 0, 0, ENC_EXPIRE_END,
     "Resolve ran out once; the next hit brings a Fallen Fate"},
};

static const struct rs_help rsv_help = {
    .kind = "Everyone acts once a round in a fixed order of initiative "
            "scores, highest first (players win ties). Rolls are pools of "
            "d6 against Defense; damage comes off Resolve.",
    .turns = "A turn is a Move and an Action (`/move`, `/attack`, `/act`); "
             "`/combat next` ends it. Attacks roll a d6 pool against "
             "Defense, and damage less armour comes off Resolve. At "
             "Resolve 0 a character is Wounded; hurt again, they face a "
             "Fallen Fate (`/fate`).",
    .attacks = NULL,
};

const struct rs_system rs_resolve = {
    .version = RS_SYSTEM_VERSION,
    .id = "resolve",
    .title = "Resolve (d6 pools)",
    .summary = "initiative score highest first, players win ties; d6 pools "
               "vs Defense; damage to Resolve, Wounded and Fallen Fates",
    .flags = RS_F_OPEN_STATS | RS_F_OWN_ATTACK_OPTS,
    .ops = &rsv_ops,
    .help = &rsv_help,
    .cmds = rsv_cmds,
    .ncmds = (int)(sizeof rsv_cmds / sizeof rsv_cmds[0]),
    .exts = rsv_exts,
    .attack_opts = NULL,
    .conds = rsv_conds,
    .nconds = (int)(sizeof rsv_conds / sizeof rsv_conds[0]),
    .settings = NULL,
    .stats = NULL,
    .prompts = rsv_prompts,
    .nprompts = 2,
};
