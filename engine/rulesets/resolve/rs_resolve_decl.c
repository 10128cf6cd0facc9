/*
 * rs_resolve_decl.c - everything the `resolve` system declares about
 * itself (rs.h): commands, /attack's options, options on core commands,
 * conditions, settings, stats, typed state, help, prompts and the
 * operations. The top layer: it wires the others (rs_resolve.h lists
 * them) and nothing below uses it.
 */
#include <stddef.h>

#include "rs_resolve.h"
#include "rs_resolve_cmds.h"
#include "rs_resolve_harm.h"
#include "rs_resolve_turn.h"

/* ---- commands ------------------------------------------------------------ */

#define RSV_SKILL(help) RS_TEXT("skill", false, ENC_MAX_STAT_NAME, help)
#define RSV_RANK RS_INT("rank", false, 0, RSV_MAX_RANK, \
                        "The rank, if not from a stat")
/* The turn's own commands: only once the fight has begun. */
#define RSV_TURN RS_CMD_RUNNING

static const struct rs_cmd rsv_cmds[] = {
    {"delay", NULL, RSV_TURN,
     "Move your turn to right after someone who has not acted",
     "/delay after:\"Captain Vos\"",
     rsv_cmd_delay,
     {RS_WHO("after", true, "Act right after this combatant"), RS_OPT_END}},
    {"move", NULL, RSV_TURN,
     "Spend your Move (one range band)",
     "/move to:short",
     rsv_cmd_move,
     {RS_TEXT("to", false, RSV_MAX_NOTE, "Where to (a note)"), RS_OPT_END}},
    {"act", NULL, RSV_TURN,
     "Spend your Action: dash, use an item or a skill; or a free action",
     "/act kind:item note:\"drinks a potion\"",
     rsv_cmd_act,
     {RS_CHOICE("kind", true, rsv_act_kinds, "What kind of action"),
      RS_TEXT("note", false, RSV_MAX_NOTE, "What it is"),
      RS_OPT_END}},
    {"momentum", NULL, RSV_TURN,
     "You rolled Gain Momentum: one more Action this turn",
     "/momentum",
     rsv_cmd_momentum,
     {RS_OPT_END}},
    {"defend", NULL, RSV_TURN,
     "+2 x rank to Defense until your next turn",
     "/defend skill:agility",
     rsv_cmd_defend,
     {RSV_SKILL("agility, athletics or hide"), RSV_RANK, RS_OPT_END}},
    {"aim", NULL, RSV_TURN,
     "+rank to your next attack, or ignore 1D of range penalty",
     "/aim skill:tactics",
     rsv_cmd_aim,
     {RSV_SKILL("tactics or search"), RSV_RANK,
      RS_BOOL("range", "Ignore 1D of long-range penalty instead"),
      RS_OPT_END}},
    {"assist", NULL, RSV_TURN,
     "Ready a help for another character's roll",
     "/assist skill:medicine",
     rsv_cmd_assist,
     {RSV_SKILL("The skill you help with"), RSV_RANK, RS_OPT_END}},
    {"rally", NULL, RSV_TURN,
     "An unused help gives 1 Resolve to someone not Wounded",
     "/rally target:Tam",
     rsv_cmd_rally,
     {RS_WHO("target", true, "Who is rallied"), RS_OPT_END}},
    {"hold", NULL, RSV_TURN | RS_CMD_ENDS_TURN,
     "Hold an action for a trigger; ends your turn",
     "/hold action:attack trigger:\"door opens\"",
     rsv_cmd_hold,
     {RS_CHOICE("action", true, rsv_hold_kinds, "What is held"),
      RS_TEXT("trigger", true, RSV_MAX_NOTE, "What sets it off"),
      RS_OPT_END}},
    {"trigger", NULL, RSV_TURN,
     "A held action happens now",
     "/trigger name:Kira",
     rsv_cmd_trigger,
     {RS_OWN("name", true, "Whose held action"), RS_OPT_END}},
    {"escape", NULL, RSV_TURN | RS_CMD_ENDS_TURN,
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
     rsv_cmd_fate,
     {RS_OWN("name", false, "Whose fate (default: the one that is due)"),
      RS_CHOICE("fate", true, rsv_fates, "The fate"),
      RS_TEXT("attrs", false, 2 * ENC_MAX_STAT_NAME + 2,
              "Never the Same: one or two attributes"),
      RS_STR("witnesses", false, RS_VAL_NAMES, RSV_MAX_NAMES_TEXT,
             "Tragic Demise: who saw it (default: their allies)"),
      RS_OPT_END}},
    {"rest", NULL, RS_CMD_GM_ONLY,
     "GM: give back a character's Fallen Fate ignores",
     "/rest name:Kira",
     rsv_cmd_rest,
     {RS_WHO("name", true, "Who rests"), RS_OPT_END}},
    {"check", NULL, 0,
     "An attribute check that helpers can add to",
     "/check roll:\"3D+2\" dc:12 help:Tam",
     rsv_cmd_check,
     {RS_DICE("roll", true, "The dice"),
      RS_OWN("name", false, "Who checks (default: whose turn it is)"),
      RS_INT("dc", false, 0, ENC_MAX_VALUE, "The difficulty"),
      RS_STR("help", false, RS_VAL_NAMES, RSV_MAX_HELP_TEXT,
             "Up to two helpers, as a,b"),
      RS_OPT_END}},
};

/* /attack options:"range=long piercing type=energy help=Ana,Bo". */
static const struct rs_opt_spec rsv_attack_opts[] = {
    RS_FLAG("melee", "A melee attack: no range penalty; close range only"),
    RS_FLAG("ranged", "A ranged attack (range= says so already)"),
    RS_FLAG("piercing", "The weapon is Piercing: armour is never halved"),
    RS_CHOICE("range", false, rsv_ranges,
              "The target's range band: a ranged attack loses dice at "
              "close, long, extreme"),
    RS_TEXT("type", false, RSV_MAX_TYPE,
            "The damage type: the target's ar_<type> counts if it has one"),
    RS_STR("help", false, RS_VAL_NAMES, RSV_MAX_HELP_TEXT,
           "Up to two helpers whose readied help adds: help=Ana,Bo"),
    RS_OPT_END,
};

static const struct rs_ext rsv_exts[] = {
    {"combat add",
     {RS_BOOL("major", "A major NPC (rank + 6 initiative)"), RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

/* ---- conditions, settings, stats ----------------------------------------- */

static const struct rs_cond_spec rsv_conds[] = {
    /* Wounded lasts until the character rests (the chapter's "Until they
     * Rest"), so a saved character carries it into the next fight. */
    {RSV_WOUNDED, RS_COND_LASTS | RS_COND_REST, 0, 0, 0, ENC_EXPIRE_END,
     N_("Resolve ran out; more damage brings a Fallen Fate (a minor NPC is "
        "defeated instead)")},
    {RSV_DEFENDING, RS_COND_VALUE | RS_COND_TIMED, 0, 0, 1,
     ENC_EXPIRE_START,
     N_("+value to Defense until the start of their next turn; ends early "
        "when it turns a hit into a miss")},
    {RSV_AIM, RS_COND_VALUE, 0, 0, 0, ENC_EXPIRE_END,
     N_("+value to their next attack, which uses it up")},
    {RSV_AIM_RANGE, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("their next attack ignores 1D of penalty at long range or further")},
};

static const struct rs_setting_spec rsv_settings[] = {
    {"momentum", RS_SET_INT, 0, RSV_MAX_MOMENTUM, NULL, "1",
     N_("extra Actions, and extra actions in all, that Gain Momentum gives")},
    {"min_dice", RS_SET_INT, 0, 1, NULL, "1",
     N_("the fewest dice a range penalty leaves")},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

/* Attributes and skill ranks are the group's own (agility, tactics,
 * lore...): /defend, /aim, /assist and Never the Same read them by name,
 * and ar_<type> names a damage type. So the stats are open: these are the
 * ones fray itself reads, with their bounds. */
static const struct rs_stat_spec rsv_stats[] = {
    {"init", RS_STAT, -RSV_MAX_RANK, RSV_MAX_RANK, N_("Initiative rank")},
    {NC_("resolve track", "resolve"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("Resolve: becomes the hp track")},
    {NC_("resolve track", "hp"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("Resolve, by the track's name")},
    {"defense", RS_STAT, 0, RSV_MAX_RANK,
     N_("what an attack must equal or beat")},
    {"ar", RS_STAT, 0, RSV_MAX_ARMOR,
     N_("Armor Rating (ar_<type> against one damage type)")},
    {"attack", RS_STAT, 0, RSV_MAX_RANK, N_("attack dice (attack=4 is 4D)")},
    {"attack_mod", RS_STAT, -RSV_MAX_RANK, RSV_MAX_RANK,
     N_("added to the attack dice")},
    {"damage", RS_STAT, 0, RSV_MAX_RANK, N_("damage dice (damage=3 is 3D)")},
    {"damage_mod", RS_STAT, -RSV_MAX_RANK, RSV_MAX_RANK,
     N_("added to the damage dice")},
    {"stamina", RS_STAT, 0, RSV_MAX_RANK,
     N_("rank; the higher of stamina and control is the fate ignores")},
    {"control", RS_STAT, 0, RSV_MAX_RANK,
     N_("rank; the higher of stamina and control is the fate ignores")},
    {"pc", RS_STAT, 0, 1, N_("1: a player character the GM added")},
    {"major", RS_STAT, 0, 1, N_("1: a major NPC (rank + 6 initiative)")},
    {"significant", RS_STAT, 0, 1,
     N_("1: a significant NPC (Wounded at Resolve 0, not defeated)")},
    {RSV_FP, RS_STAT, 0, ENC_MAX_VALUE, N_("Force Points")},
    {"nts", RS_STAT, 0, RSV_MAX_NEVER,
     N_("times this character took Never the Same")},
    {RSV_IGNORES_SPENT, RS_STAT, 0, RSV_MAX_RANK,
     N_("Fallen Fate ignores spent since the character last rested")},
    {NULL, RS_STAT, 0, 0, NULL},
};

/* ---- typed state --------------------------------------------------------- */

/* Each field names the rs[] slot older documents kept it in, plus one. */
static const struct rs_field rsv_comb_fields[] = {
    RS_FIELD(struct rsv_comb, moved, RS_F_BOOL, 1),
    RS_FIELD(struct rsv_comb, actions, RS_F_I32, 2),
    RS_FIELD(struct rsv_comb, frees, RS_F_I32, 3),
    RS_FIELD(struct rsv_comb, momentum, RS_F_BOOL, 4),
    RS_FIELD(struct rsv_comb, held, RS_F_I32, 5),
    RS_FIELD(struct rsv_comb, fired, RS_F_BOOL, 6),
    RS_FIELD(struct rsv_comb, help, RS_F_BOOL, 7),
    RS_FIELD(struct rsv_comb, help_rank, RS_F_I32, 8),
    RS_FIELD(struct rsv_comb, rally, RS_F_BOOL, 9),
    RS_FIELD(struct rsv_comb, ignores_used, RS_F_I32, 10),
    RS_FIELD(struct rsv_comb, fate, RS_F_I32, 11),
    RS_FIELD(struct rsv_comb, fate_damage, RS_F_I32, 12),
    RS_FIELD(struct rsv_comb, out, RS_F_I32, 13),
    RS_FIELD(struct rsv_comb, resume, RS_F_BOOL, 14),
};

static const struct rs_field rsv_enc_fields[] = {
    RS_FIELD(struct rsv_enc, blaze, RS_F_U32, 1),
};

/* ---- help, prompts, operations ------------------------------------------- */

static const struct rs_help rsv_help = {
    .kind = N_("A personal-combat game with pools of six-sided dice (4D+1 is "
               "four d6 plus one). Everyone acts once a round, from the "
               "highest initiative score down: players roll 1D + rank, NPCs "
               "have rank + 3 (+6 for a major NPC) without rolling, and "
               "players win ties."),
    .turns = N_("A turn is a Move and an Action (`/move`, `/attack`, `/act`, "
                "`/defend`, `/aim`, `/assist`, `/hold`), at most two actions "
                "in all with free ones; `/combat next` ends it. At its start "
                "a character may `/delay` to act right after someone who has "
                "not acted. At Resolve 0 a character is Wounded; hurt again, "
                "they face a Fallen Fate (`/fate`)."),
    .attacks = N_("`/attack` rolls the attack pool (`roll:` or the attack "
                  "stats) against the target's Defense; `options:` gives the "
                  "range band (`range=long` takes dice away), `piercing`, "
                  "the damage `type=` and `help=` helpers. A hit rolls damage, "
                  "less the Armor Rating, off Resolve; beating Defense by 7 "
                  "or more halves the armour (rounded down) unless the weapon "
                  "is Piercing."),
    .clock = N_("When `/combat clock` runs out with `auto:true`, a player "
                "character who has not moved or acted yet is treated as "
                "delaying, to act right after the next combatant who has not "
                "acted this round; anyone else (an NPC, someone who already "
                "acted, the last to act in the round) loses the turn."),
};

/* Never the Same also needs the attributes, so it is typed, not clicked;
 * the prompt's text says how. */
static const struct rs_prompt rsv_prompts[RSV_NPROMPTS] = {
    [RSV_PROMPT_FATE] = {{{N_("Ignore it"), "fate", "fate", "ignore"},
                          {N_("Desperate Push"), "fate", "fate", "push"},
                          {N_("Blaze of Glory"), "fate", "fate", "blaze"},
                          {N_("Tragic Demise"), "fate", "fate", "tragic"},
                          {NULL, NULL, NULL, NULL}}},
    [RSV_PROMPT_FATE_MUST] = {{{N_("Desperate Push"), "fate", "fate", "push"},
                               {N_("Blaze of Glory"), "fate", "fate", "blaze"},
                               {N_("Tragic Demise"), "fate", "fate", "tragic"},
                               {NULL, NULL, NULL, NULL}}},
};

static const struct rs_ops rsv_ops = {
    .version = RS_OPS_VERSION,
    .setup = rsv_setup,               /* resolve/hp track, major flag */
    .check_stat = rsv_check_stat,     /* ar_<type> bounds */
    .setting = NULL,                  /* the declared bounds suffice */
    .begin = rsv_begin,               /* players 1D + rank, NPCs rank + 3/6 */
    .next = rsv_next,                 /* fixed order, delays, blaze turns */
    .pick = rsv_pick,                 /* refused: not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = rsv_attack,             /* pool vs Defense, damage - armor */
    .late_join = rsv_late_join,       /* scored and slotted in */
    .after_track = rsv_after_track,   /* Resolve 0: Wounded or defeated */
    .status = rsv_status,             /* actions left, held, ignores, FP */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: rsv_conds */
    .cond_changed = NULL,             /* none takes hold at once */
    .timeout = rsv_timeout,           /* a player delays; else skipped */
};

#define RSV_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Damage takes Resolve (the track named hp). */
static const struct rs_harm_spec rsv_harm[] = {
    {RSV_RESOLVE, false}, {NULL, false},
};

static const struct rs_lasting rsv_lasts[] = {
    /* Never the Same may name any attribute, and the stats are open. */
    {RS_LAST_ALL, 0, 0,
     N_("Never the Same. Choose an Attribute and permanently reduce it by "
        "-2D\u2014or choose two Attributes and reduce them by -1D each.")},
    {"nts", 0, 0,
     N_("You can only choose this Fallen Fate twice during your character's "
        "life.")},
    {RSV_IGNORES_SPENT, RS_LAST_REST, 0,
     N_("Until they Rest, they can ignore this effect a number of times "
        "equal to their Stamina or Control rank\u2014whichever is higher.")},
    {NULL, 0, 0, NULL},
};

/* Counts the rules keep: never a resource of the same name (enc_res.h). */
static const struct rs_kept rsv_kept[] = {
    {"actions",
     N_("the rules count each turn's actions (the tracker's actions left)")},
    {NULL, NULL},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec rsv_entries = {
    .counts = true,
    .low_first = false,
    .lo = 0,
    .hi = 99,
    .unique = false,
    .hazard_roll = NULL,        /* scores come from ranks: the GM gives it */
    .lair_at = 0,               /* no count is conventional: the start */
    .why = N_("initiative scores run highest first: an event at a score comes "
              "after everyone on that score (players win ties and events lose "
              "them), or at the start or end of the round; a hazard has no "
              "rank to score from, so give its at:"),
};

const struct rs_system rs_resolve = {
    .version = RS_SYSTEM_VERSION,
    .id = "resolve",
    .title = N_("Resolve (d6 pools)"),
    .summary = N_("initiative score highest first, players win ties; d6 pools "
                  "vs Defense; damage to Resolve, Wounded and Fallen Fates"),
    .flags = RS_F_OPEN_STATS,
    .ops = &rsv_ops,
    .help = &rsv_help,
    .cmds = rsv_cmds,
    .ncmds = RSV_COUNT(rsv_cmds),
    .exts = rsv_exts,
    .attack_opts = rsv_attack_opts,
    .conds = rsv_conds,
    .nconds = RSV_COUNT(rsv_conds),
    .settings = rsv_settings,
    .stats = rsv_stats,
    .kept = rsv_kept,
    .enc_state = {sizeof(struct rsv_enc), rsv_enc_fields,
                  RSV_COUNT(rsv_enc_fields)},
    .side_state = {0, NULL, 0},
    .comb_state = {sizeof(struct rsv_comb), rsv_comb_fields,
                   RSV_COUNT(rsv_comb_fields)},
    .prompts = rsv_prompts,
    .nprompts = RSV_NPROMPTS,
    .data_file = NULL,
    .rank = 40,
    .harm = rsv_harm,
    .lasts = rsv_lasts,
    .entries = &rsv_entries,
};
