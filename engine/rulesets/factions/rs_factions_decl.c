/*
 * rs_factions_decl.c - everything the `factions` system declares about
 * itself: commands, options on core commands and /attack, conditions,
 * settings, stats, its typed state, help and the descriptor (rs.h).
 */
#include <stddef.h>

#include "rs_factions.h"

static const char *const fac_saves[] = {"str", "agi", "wit", NULL};
/* In the order of enum fac_kind. */
static const char *const fac_react_kinds[] = {
    "dodge", "counter", "hide", "guard", "opportunity", "other", "none",
    "accept", NULL,
};
_Static_assert(FAC_K_ACCEPT == 7, "fac_react_kinds follows enum fac_kind");
static const char *const fac_react_with[] = {"dodge", "counter", "none",
                                             NULL};

static const struct rs_cmd fac_cmds[] = {
    {"test", NULL, 0,
     "Roll a save: 1d20 at or under STR, AGI or WIT",
     "/test name:Sybilla save:agi",
     fac_cmd_test,
     {RS_OWN("name", false, "Who saves"),
      RS_SIDE("side", false, "GM: a whole faction saves"),
      RS_CHOICE("save", false, fac_saves, "Which attribute (default str)"),
      RS_OPT_END}},
    {"react", NULL, RS_CMD_RUNNING,
     "Answer a waiting attack (dodge, counter, hide...), or react out of turn",
     "/react name:Cat kind:dodge",
     fac_cmd_react,
     {RS_OWN("name", true, "Who reacts"),
      RS_CHOICE("kind", true, fac_react_kinds, "Which reaction"),
      RS_TEXT("counter", false, DICE_MAX_EXPR_LEN,
              "The countering weapon's dice, unarmed, disarm or grapple"),
      RS_WHO("behind", false, "Who to hide behind"),
      RS_OPT_END}},
    {"surrender", NULL, RS_CMD_RUNNING,
     "A character gives up, using their turn",
     "/surrender name:Cat",
     fac_cmd_surrender,
     {RS_OWN("name", true, "Who surrenders"), RS_OPT_END}},
    {"chase", NULL, RS_CMD_GM_ONLY,
     "GM: a faction's group AGI save to flee or catch up",
     "/chase side:Bandits",
     fac_cmd_chase,
     {RS_SIDE("side", true, "The faction that flees"), RS_OPT_END}},
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
    {"first", NULL, RS_CMD_RUNNING,
     "The faction holding the initiative names who acts first",
     "/first side:Bandits",
     fac_cmd_first,
     {RS_SIDE("side", true, "The faction that acts first"), RS_OPT_END}},
    {"threshold", NULL, RS_CMD_GM_ONLY | RS_CMD_RUNNING,
     "GM: set the fast action threshold rolled at the table",
     "/threshold value:9",
     fac_cmd_threshold,
     {RS_INT("value", true, 1, FAC_MAX_FAT,
             "The threshold rolled at the table"),
      RS_OPT_END}},
};

static const struct rs_ext fac_exts[] = {
    {"combat begin",
     {RS_SIDE("first", false, "The faction that started the fight: it "
              "holds the initiative"),
      RS_STR("surprise", false, RS_VAL_NAMES, FAC_MAX_LIST,
             "Who ambushes: factions or characters, comma-separated"),
      RS_INT("threshold", false, 1, FAC_MAX_FAT,
             "Round 1's fast action threshold, rolled at the table"),
      RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

/* The tokens of /attack options: (read in rs_factions_attack.c). */
static const struct rs_opt_spec fac_attack_opts[] = {
    RS_FLAG("melee", "A melee attack on a nearby target (the default)"),
    RS_FLAG("ranged", "A ranged attack on a visible target"),
    RS_FLAG("indirect", "An indirect ranged attack beyond half range"),
    RS_FLAG("far", "The target is beyond half range"),
    RS_FLAG("moving", "The attacker shoots while moving"),
    RS_FLAG("unseen", "The target is not visible"),
    RS_FLAG("challenging", "The GM calls for a WIT save to hit"),
    RS_FLAG("impaired", "Impaired damage: the impaired die"),
    RS_FLAG("concealment", "Concealment obscures the target: impaired"),
    RS_FLAG("holdback", "The attacker holds back: impaired damage"),
    RS_FLAG("unarmed", "An unarmed attack: impaired damage"),
    RS_FLAG("cover", "The target has cover: +1 armour"),
    RS_FLAG("penetrates", "The attack penetrates cover"),
    RS_FLAG("final", "A final blow on a nearby incapacitated target"),
    RS_FLAG("opportunity", "An opportunity attack: the attacker's reaction"),
    RS_FLAG("unaware", "The target does not know of the attacker"),
    RS_FLAG("damaged", "The weapon is damaged: a 1 on the die breaks it"),
    RS_FLAG("improvised", "An improvised weapon: handled as damaged"),
    RS_FLAG("disarm", "Non-lethal: a STR save or drop a weapon"),
    RS_FLAG("grapple", "Non-lethal: a STR save or be grabbed"),
    RS_FLAG("blast", "Every character in a zone"),
    RS_FLAG("wait", "Wait for the target's answer (/react) before damage"),
    RS_FLAG("stunt", "Propose an alternative effect instead of damage"),
    RS_FLAG("peek", "The attacker peeks from behind a barrier"),
    RS_FLAG("dodge", "The target dodges: an AGI save"),
    RS_CHOICE("react", false, fac_react_with,
              "The target's reaction: dodge, counter or none"),
    RS_TEXT("counter", false, DICE_MAX_EXPR_LEN,
            "The target counters: its weapon's dice, unarmed, disarm..."),
    RS_WHO("guard", false, "A nearby character guards the target"),
    RS_WHO("hide", false, "The target hides behind this character"),
    RS_STR("dodgers", false, RS_VAL_NAMES, FAC_MAX_LIST,
           "Blast: who dodges, comma-separated"),
    RS_WHO("by", false, "Blast: the one target who counters"),
    RS_INT("zone", false, 0, FAC_MAX_ZONE, "Blast: the zone aimed at"),
    RS_TEXT("neighbours", false, FAC_MAX_LIST,
            "Blast: zones it may deviate into, like 2/3/5"),
    RS_OPT_END,
};

static const struct rs_cond_spec fac_conds[] = {
    {FAC_COND_CONCEALED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("hidden from the enemy: whoever they attack is taken by surprise")},
    {FAC_COND_GRABBED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("held by a grapple for as long as the grabber keeps hold")},
    {FAC_COND_DISARMED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("dropped a weapon the attacker chose")},
    {FAC_COND_BROKEN, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("failed a morale check: surrenders or retreats")},
    {FAC_COND_SURRENDERED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("gave up; harm by an enemy lets them fight again")},
};

static const char *const fac_save_rules[] = {"at-or-below", "below", NULL};

static const struct rs_setting_spec fac_settings[] = {
    {"phases", RS_SET_BOOL, 0, 1, NULL, "off",
     N_("the optional fast and slow phases, with a d20 threshold each round")},
    {"morale", RS_SET_BOOL, 0, 1, NULL, "on",
     N_("morale checks at the end of each round")},
    {"save", RS_SET_CHOICE, 0, 0, fac_save_rules, "at-or-below",
     N_("whether a save passes with a roll equal to the score")},
    {"impaired", RS_SET_DICE, 1, ENC_MAX_SETTING_VALUE, NULL, "1d4",
     N_("the dice impaired damage rolls instead of the weapon's")},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

static const struct rs_stat_spec fac_stats[] = {
    {"str", RS_STAT, 0, FAC_MAX_ATTR,
     N_("strength: saves roll 1d20 under it")},
    {"agi", RS_STAT, 0, FAC_MAX_ATTR, N_("agility: dodges and escapes")},
    {"wit", RS_STAT, 0, FAC_MAX_ATTR, N_("wits: to hit, morale, fast phases")},
    {NC_("factions track", "hp"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("health; 0 is down")},
    {FAC_STAT_ARMOUR, RS_STAT, 0, FAC_MAX_ARMOUR,
     N_("comes off every hit's damage")},
    {FAC_STAT_SHIELD, RS_STAT, 0, FAC_MAX_ARMOUR,
     N_("what a carried shield adds to armour")},
    {FAC_STAT_ARMOUR_DAMAGED, RS_STAT, 0, 1,
     N_("1: the armour is damaged; a hit of 8 destroys it")},
    {FAC_STAT_SHIELD_DAMAGED, RS_STAT, 0, 1,
     N_("1: the shield is damaged; a hit of 8 destroys it")},
    {"zone", RS_STAT, 0, FAC_MAX_ZONE, N_("the zone the character is in")},
    {"fearless", RS_STAT, 0, 1, N_("1: immune to fear, so to morale")},
    {NULL, RS_STAT, 0, 0, NULL},
};

/* The typed state; the last number is the slot + 1 each field had in
 * documents written before typed state, so they upgrade on load. */
static const struct rs_field fac_enc_fields[] = {
    RS_FIELD(struct fac_enc, holder, RS_F_I32, 1),
    RS_FIELD(struct fac_enc, first, RS_F_I32, 2),
    RS_FIELD(struct fac_enc, passes, RS_F_I64, 3),
    RS_FIELD(struct fac_enc, fat, RS_F_I32, 4),
    RS_FIELD(struct fac_enc, round_acts, RS_F_I32, 5),
    RS_FIELD(struct fac_enc, phase_acts, RS_F_I32, 6),
    RS_FIELD(struct fac_enc, phase_passed, RS_F_I32, 7),
    RS_FIELD(struct fac_enc, turn, RS_F_U32, 8),
    RS_FIELD(struct fac_enc, pend_att, RS_F_U32, 9),
    RS_FIELD(struct fac_enc, pend_tgt, RS_F_U32, 10),
    RS_FIELD(struct fac_enc, pend_flags, RS_F_I32, 11),
    RS_FIELD(struct fac_enc, fat_next, RS_F_I32, 0),
};

static const struct rs_field fac_side_fields[] = {
    RS_FIELD(struct fac_side, start, RS_F_I32, 1),
};

/* The waiting attack's dice were copied into slots 3 to 14 as text. */
static const struct rs_field fac_comb_fields[] = {
    RS_FIELD(struct fac_comb, morale, RS_F_I32, 1),
    RS_FIELD(struct fac_comb, gear, RS_F_I32, 2),
    RS_FIELD(struct fac_comb, reacted, RS_F_I64, 3),
    RS_FIELD(struct fac_comb, pend_dmg, RS_F_STR, 4),
    RS_FIELD(struct fac_comb, halved, RS_F_BOOL, 16),
};

#define FAC_NFIELDS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct rs_help fac_help = {
    .kind = N_("Factions take turns: each activates one character who has not "
               "acted, or passes, and the round ends when every faction has "
               "passed in a row. Saves roll 1d20 at or under STR, AGI or WIT."),
    .turns = N_("The faction whose decision it is activates one of its "
                "characters (`/combat pick`) or passes (`/combat pass`); "
                "`/combat next` ends the turn. A reaction (`/react`, or given "
                "with an attack) is the character's turn for the round. With "
                "`phases=on` a fast phase (WIT at or over a d20 threshold) "
                "comes before a slow one. Morale is checked at the end of each "
                "round. A condition timed on someone's turn (`/combat "
                "condition until:`) counts their activations; a reaction "
                "spends one."),
    .attacks = N_("`/attack` hits automatically unless the options call for a "
                  "WIT save to hit (`ranged far`, `moving`, `unseen`, "
                  "`indirect far`, `challenging`). The target reacts before "
                  "damage (`dodge`, `counter=d6`, `guard=`, `hide=`), unless "
                  "it is surprised, unaware or has acted: then the attack "
                  "lands without it. Damage is the weapon's dice less "
                  "`armour`."),
    .clock = N_("When `/combat clock` runs out with `auto:true`, a running "
                "activation ends and the next faction decides; a faction that "
                "is to decide passes, as any faction may, and when all pass in "
                "a row the round ends."),
};

static const struct rs_ops fac_ops = {
    .version = RS_OPS_VERSION,
    .setup = fac_setup,               /* hp stat -> hp track */
    .check_stat = fac_check_stat,     /* armour fixed during the fight */
    .setting = NULL,                  /* the declaration says it all */
    .begin = fac_begin,               /* holder, ambush, round 1 */
    .next = fac_next,                 /* end the turn; next faction */
    .pick = fac_pick,                 /* activate a character */
    .pass = fac_pass,                 /* the deciding faction passes */
    .attack = fac_attack,             /* hit save, reactions, damage */
    .late_join = fac_late_join,       /* counts in the original number */
    .after_track = fac_after_track,   /* down at 0; harm ends surrender */
    .status = fac_status,             /* attacked / acted / morale / fast */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: the declaration's */
    .cond_changed = NULL,             /* nothing takes hold at once */
    .timeout = fac_timeout,           /* the turn ends; a decider passes */
};

/* Damage comes off health after armour; a shield or armour that breaks
 * is gear, not a track. */
static const struct rs_harm_spec fac_harm[] = {
    {"hp", false}, {NULL, false},
};

#define FAC_DESTROYED N_("Damaged shields and armour are destroyed by " \
    "attacks inflicting at least 8 damage before armour reduction " \
    "(shields are destroyed first).")
static const struct rs_lasting fac_lasts[] = {
    {FAC_STAT_ARMOUR, 0, 0, FAC_DESTROYED},
    {FAC_STAT_SHIELD, 0, 0, FAC_DESTROYED},
    {FAC_STAT_ARMOUR_DAMAGED, 0, 0, FAC_DESTROYED},
    {FAC_STAT_SHIELD_DAMAGED, 0, 0, FAC_DESTROYED},
    {NULL, 0, 0, NULL},
};

/* Counts the rules keep: never a resource of the same name (enc_res.h). */
static const struct rs_kept fac_kept[] = {
    {"reaction", N_("a reaction spends one of its activations (/react)")},
    {"reactions", N_("a reaction spends one of its activations (/react)")},
    {"activations", N_("the order counts each unit's activations itself")},
    {NULL, NULL},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec fac_entries = {
    .counts = false,
    .why = N_("factions alternate activations until all pass, so there is no "
              "count to sit at: an event goes at the start of the round or at "
              "its end (after the morale checks)"),
};

const struct rs_system rs_factions = {
    .version = RS_SYSTEM_VERSION,
    .id = "factions",
    .title = N_("Factions"),
    .summary = N_("factions alternate activations or pass; d20 saves under "
                  "STR/AGI/WIT; reactions; morale; optional fast/slow phases"),
    .flags = RS_F_SIDES_REQUIRED | RS_F_ALTERNATING,
    .ops = &fac_ops,
    .help = &fac_help,
    .cmds = fac_cmds,
    .ncmds = (int)(sizeof fac_cmds / sizeof fac_cmds[0]),
    .exts = fac_exts,
    .attack_opts = fac_attack_opts,
    .conds = fac_conds,
    .nconds = (int)(sizeof fac_conds / sizeof fac_conds[0]),
    .settings = fac_settings,
    .stats = fac_stats,
    .kept = fac_kept,
    .enc_state = {sizeof(struct fac_enc), fac_enc_fields,
                  FAC_NFIELDS(fac_enc_fields)},
    .side_state = {sizeof(struct fac_side), fac_side_fields,
                   FAC_NFIELDS(fac_side_fields)},
    .comb_state = {sizeof(struct fac_comb), fac_comb_fields,
                   FAC_NFIELDS(fac_comb_fields)},
    .rank = 30,
    .harm = fac_harm,
    .lasts = fac_lasts,
    .entries = &fac_entries,
};
