/*
 * rs_tactical_decl.c - everything the `tactical` system declares about
 * itself: commands, /attack options, options on core commands, settings,
 * stats, typed state, help and the descriptor (rs.h). Its effects and
 * conditions are data (a group's effects file, or the built-in table): see
 * rs_tactical_data.c; the built-in table's conditions are its declared
 * ones, and a group's reach the kit through ops->data_conds.
 */
#include "rs_tactical.h"

static const char *const tac_bonuses[] = {
    "injury", "wound", "hp", "unarmed", "surprised", NULL,
};

static const char *const tac_kinds[] = {
    "strength", "endurance", "dexterity", "insight", "intelligence",
    "charisma", NULL,
};

static const struct rs_cmd tac_cmds[] = {
    {"test", NULL, 0,
     "Roll a d6 pool test: attribute + skill, counting successes",
     "/test name:Vex attr:endurance skill:fortitude difficulty:2",
     tac_test,
     {RS_OWN("name", false, "Who tests (default: whose turn it is)"),
      RS_TEXT("attr", false, TAC_MAX_NAME, "The attribute"),
      RS_TEXT("skill", false, TAC_MAX_NAME, "The skill"),
      RS_DICE("roll", false, "A pool to roll instead, like 5, or dice"),
      RS_INT("difficulty", false, 0, TAC_MAX_DIFFICULTY,
             "Successes needed"),
      RS_INT("adv", false, 0, TAC_MAX_POOL, "Advantages: a die each"),
      RS_INT("dis", false, 0, TAC_MAX_POOL, "Disadvantages: a die fewer each"),
      RS_BOOL("exert", "Spend stamina for an advantage"),
      RS_OPT_END}},
    {"act", NULL, RS_CMD_RUNNING,
     "Spend AP on an action: maneuver, break, drag, unmagnetize or any",
     "/act action:reload cost:1",
     tac_act,
     {RS_TEXT("action", true, 40, "What you do"),
      RS_OWN("name", false, "Who acts (default: whose turn it is)"),
      RS_INT("cost", false, 0, TAC_MAX_COST, "AP it costs (default 1)"),
      RS_INT("stamina", false, 0, TAC_MAX_COST,
             "Stamina a maneuver costs (default 1)"),
      RS_WHO("target", false, "Who holds you (break), or whom you drag"),
      RS_OPT_END}},
    {"effect", "trigger", 0,
     "Roll a pending resist test now",
     "/effect trigger name:\"Drone 1\" effect:Knockdown",
     tac_trigger,
     {RS_WHO("name", true, "Who resists"),
      RS_TEXT("effect", false, TAC_MAX_NAME,
              "Which effect (when there are several)"),
      RS_INT("pool", false, 0, TAC_MAX_POOL, "Dice to resist with"),
      RS_INT("test", false, 1, 2, "Which of the effect's tests"),
      RS_OPT_END}},
    {"effect", "apply", RS_CMD_GM_ONLY,
     "GM: put an effect on someone without an attack",
     "/effect apply name:Vex effect:Pulse",
     tac_apply,
     {RS_WHO("name", true, "Who"),
      RS_TEXT("effect", true, TAC_MAX_NAME + 8, "Like Stun(2)"),
      RS_WHO("attacker", false, "Who caused it"),
      RS_BOOL("crit", "As from a critical hit that took hp"),
      RS_OPT_END}},
    {"effect", "clear", RS_CMD_GM_ONLY,
     "GM: remove a condition or lower its stacks",
     "/effect clear name:Vex condition:Exhausted by:1",
     tac_clear,
     {RS_WHO("name", true, "Who"),
      RS_STR("condition", true, RS_VAL_CONDITION, ENC_MAX_COND_NAME,
             "Which"),
      RS_INT("by", false, 0, TAC_MAX_X, "Stacks to take off (default all)"),
      RS_OPT_END}},
    {"ap", NULL, RS_CMD_GM_ONLY | RS_CMD_RUNNING,
     "GM: set the action points the acting combatant has left",
     "/ap name:Vex value:1",
     tac_set_ap,
     {RS_WHO("name", true, "Who (whose turn it is)"),
      RS_INT("value", true, 0, TAC_MAX_AP, "Action points left"),
      RS_OPT_END}},
    {"takedown", NULL, RS_CMD_GM_ONLY,
     "GM: a takedown bonus before the fight begins",
     "/takedown name:Boss bonus:injury kind:strength",
     tac_takedown,
     {RS_WHO("name", true, "Who"),
      RS_CHOICE("bonus", true, tac_bonuses, "What the takedown gives"),
      RS_INT("amount", false, 1, ENC_MAX_VALUE, "How much (bonus:hp)"),
      RS_CHOICE("kind", false, tac_kinds,
                "Which characteristic (bonus:injury, bonus:wound)"),
      RS_OPT_END}},
};

/* The words of /attack options:. Effects are data a group may rename, so
 * they come as one effects= list rather than as words of their own. */
static const struct rs_opt_spec tac_attack_opts[] = {
    RS_FLAG("melee", "A melee attack (it matters against a Prone target)"),
    RS_FLAG("ranged", "A ranged attack (it matters against a Prone target)"),
    RS_TEXT("effects", false, TAC_MAX_FX_TEXT,
            "The attack's effects, like effects=Knockdown(2),Shock(1)"),
    RS_INT("ap", false, 0, TAC_MAX_AP, "AP the attack costs (default 1)"),
    RS_INT("need", false, 1, TAC_MAX_DIFFICULTY,
           "Successes roll: needs to hit (default 1)"),
    RS_COUNT("adv", TAC_MAX_POOL, "An advantage: a die more (adv=2: two)"),
    RS_COUNT("dis", TAC_MAX_POOL, "A disadvantage: a die fewer (dis=2: two)"),
    RS_FLAG("exert", "Spend 1 stamina for an advantage"),
    RS_FLAG("crit", "A critical hit"),
    RS_FLAG("miss", "The attack missed (without roll:)"),
    RS_FLAG("sneak", "A sneak attack: spends the target's Vulnerable"),
    RS_FLAG("tyt", "Take your time: spends Vulnerable; Demolish wears AV"),
    RS_FLAG("conductor", "Conductor quality: hits a Magnetized target"),
    RS_INT("burst", false, 1, TAC_MAX_POOL,
           "A burst: this many dice (plus aim) against passive evasion"),
    RS_INT("blast", false, 1, TAC_MAX_BLAST,
           "A blast of radius 5 ft times this; an aim test first"),
    RS_INT("factors", false, 0, TAC_MAX_FACTORS,
           "Blast aim: difficulty 2 + factors, at most 5"),
    RS_FLAG("placed", "The blast is where the GM placed it: no aim test"),
    RS_INT("template", false, 1, TAC_MAX_TEMPLATE,
           "A template: a line 5 ft times this long"),
    RS_STR("also", false, RS_VAL_NAMES, TAC_MAX_ALSO,
           "Everyone else in the area, as a,b,c"),
    RS_OPT_END,
};

static const char *const tac_area_when[] = {"blast", "template", NULL};

/* A blast or a template hits the target and everyone named in also=. */
static const struct rs_area tac_area = {
    .more = "also",
    .when = tac_area_when,
    .max_targets = TAC_MAX_TARGETS,
};

static const struct rs_ext tac_exts[] = {
    {"combat begin",
     {RS_SIDE("surprise", false, "The side that ambushes: everyone else is "
              "Surprised"),
      RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_setting_spec tac_settings[] = {
    {"ap", RS_SET_INT, 1, TAC_MAX_AP, NULL, "3",
     N_("action points at the start of each turn")},
    {"face", RS_SET_INT, 2, 6, NULL, "4",
     N_("a pool die at or above this face is a success")},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

#define TAC_DICE_STAT(n, help) {n, RS_STAT, 0, TAC_MAX_POOL, help}

static const struct rs_stat_spec tac_stats[] = {
    {NC_("tactical track", "hp"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("hit points; at 0, out of the fight")},
    {NC_("tactical track", "stamina"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("spent to exert and on maneuvers")},
    {NC_("tactical track", "av"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("armour value: absorbs damage first and wears down")},
    {NC_("tactical track", "ammo"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("rounds left: a burst spends them")},
    {"init", RS_STAT, -100, 100, N_("added to the 1d20 initiative roll")},
    {"dr", RS_STAT, 0, 100, N_("damage reduction, after AV")},
    {"passive_evasion", RS_STAT, 0, 100,
     N_("a burst die has to roll above it to hit")},
    {"mech", RS_STAT, 0, 1,
     N_("1: a machine (Shock doubles, Shutdown works, Knockout does not)")},
    {"cyborg", RS_STAT, 0, 1,
     N_("1: a cyborg or implanted human (Shock doubles, Knockout works, "
        "Shutdown does not)")},
    TAC_DICE_STAT("strength", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("endurance", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("dexterity", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("insight", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("intelligence", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("charisma", N_("an attribute: dice in a test pool")),
    TAC_DICE_STAT("aim", N_("a skill: bursts and the blast aim test")),
    TAC_DICE_STAT("evasion",
                  N_("a skill: Dexterity(Evasion) halves area damage")),
    TAC_DICE_STAT("fortitude", N_("a skill: most resist tests")),
    TAC_DICE_STAT("willpower",
                  N_("a skill: Fear, Rage, Scorch, shaking off")),
    TAC_DICE_STAT("perception", N_("a skill: Blinding's other test")),
    TAC_DICE_STAT("vitality", N_("a skill: Deadly")),
    TAC_DICE_STAT("grapple", N_("a skill: breaking free")),
    TAC_DICE_STAT("athletics", N_("a skill: dragging")),
    {NULL, RS_STAT, 0, 0, NULL},
};

/* The slot + 1 each field had before typed state, so older fights load. */
static const struct rs_field tac_comb_fields[] = {
    RS_FIELD(struct tac_comb, ap, RS_F_I64, 1),
    RS_FIELD(struct tac_comb, resist_mask, RS_F_I64, 2),
    RS_FIELD(struct tac_comb, resist_turn, RS_F_I64, 3),
    RS_FIELD(struct tac_comb, maneuver_turn, RS_F_I64, 4),
    RS_FIELD(struct tac_comb, exert_turn, RS_F_I64, 5),
    RS_FIELD(struct tac_comb, break_round, RS_F_I64, 6),
    RS_FIELD(struct tac_comb, scatter_turn, RS_F_I64, 0),
};

static const struct rs_help tac_help = {
    .kind = N_("A fight with action points and d6 pools. Initiative is rolled "
               "once (1d20 + init) and turns go from highest to lowest; each "
               "turn has action points (3) to spend. Tests roll a pool of d6 "
               "(attribute + skill) and count the dice showing 4 or more; "
               "attacks carry effects whose resist tests stack."),
    .turns = N_("Your turn starts with your action points (`ap`, 3 unless the "
                "GM set another number); attacks and `/act` spend them, and "
                "`/combat next` ends the turn. An attack's effects leave "
                "pending resist tests on the target: you roll them when you "
                "choose with `/effect trigger`, or they are rolled as the "
                "turn ends. Conditions change the tests they touch, and each "
                "change shows on the roll."),
    .attacks = N_("`/attack` hits unless `roll:` (a pool of d6, or dice) gets "
                  "fewer than `need=` successes; against a Prone target say "
                  "`melee` or `ranged`. Damage goes through AV, then DR, and "
                  "AV wears 1 per 10 absorbed. Effects go in "
                  "`options:\"effects=Knockdown(2),Shock(1)\"`; `burst=`, "
                  "`blast=` and `template=` make bursts and area attacks."),
    .clock = N_("When `/combat clock` runs out with `auto:true`, the running "
                "turn ends as `/combat next` would end it (its end-of-turn "
                "rules apply) and the action points left are lost; the next "
                "in the order acts."),
};

static const struct rs_ops tac_ops = {
    .version = RS_OPS_VERSION,
    .setup = tac_setup,               /* hp, stamina, av, ammo -> tracks */
    .check_stat = NULL,               /* the declared bounds */
    .setting = NULL,                  /* the declared ap, face */
    .begin = tac_begin,               /* 1d20 + init; surprise: */
    .next = tac_next,                 /* fixed order, AP, end-of-turn rules */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = tac_attack,             /* single, burst, blast, template */
    .late_join = rs_d20_late_join,    /* rolls and slots into the order */
    .after_track = tac_after_track,   /* 0 hp or an out condition: down */
    .status = tac_status,             /* the acting combatant's AP */
    .data_parse = tac_data_parse,     /* config/tactical-effects.conf */
    .data_free = tac_data_free,
    .data_conds = tac_data_conds,     /* the table's conditions */
    .cond_changed = tac_cond_changed, /* out at once; Injury -> Wound */
    .timeout = tac_timeout,           /* the turn ends, AP lost */
};

/* Armour value absorbs damage first and wears down, then hit points;
 * stamina and ammunition are spent. */
static const struct rs_harm_spec tac_harm[] = {
    {"av", false}, {"hp", false}, {NULL, false},
};

/* Counts the rules keep: never a resource of the same name (enc_res.h). */
static const struct rs_kept tac_kept[] = {
    {"AP", N_("each turn brings its action points (the tracker's AP)")},
    {"action points",
     N_("each turn brings its action points (the tracker's AP)")},
    {"actions", N_("each turn brings its action points (the tracker's AP)")},
    {NULL, NULL},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec tac_entries = {
    .counts = true,
    .low_first = false,
    .lo = -20,
    .hi = 99,
    .unique = false,
    .hazard_roll = "1d20",      /* the rolled initiative, as combatants */
    .lair_at = 20,
    .why = N_("the chapter gives no initiative, so ours is rolled, highest "
              "first: an event at a count comes after everyone on that "
              "count (it loses ties), or at the start or end of the round"),
};

const struct rs_system rs_tactical = {
    .version = RS_SYSTEM_VERSION,
    .id = "tactical",
    .title = N_("Tactical (action points)"),
    .summary = "1d20 + init, highest first; action points; d6 pools; "
               "stacking effects, armour that degrades, bursts and blasts",
    /* Open stats: attributes and skills are whatever the group's effects
     * file and /test name (test=attr/skill), so the list above is the
     * built-in table's, not all there are. */
    .flags = RS_F_OPEN_STATS,
    .ops = &tac_ops,
    .help = &tac_help,
    .cmds = tac_cmds,
    .ncmds = (int)(sizeof tac_cmds / sizeof tac_cmds[0]),
    .exts = tac_exts,
    .attack_opts = tac_attack_opts,
    .conds = tac_builtin.cs,
    .nconds = TAC_BUILTIN_NSPEC,
    .settings = tac_settings,
    .stats = tac_stats,
    .kept = tac_kept,
    .comb_state = {sizeof(struct tac_comb), tac_comb_fields,
                   (int)(sizeof tac_comb_fields / sizeof tac_comb_fields[0])},
    .data_file = "tactical-effects.conf",
    .rank = 60,
    .area = &tac_area,
    .harm = tac_harm,
    .entries = &tac_entries,
};
