/*
 * rs_teams_decl.c - everything the `teams` system declares about itself:
 * its commands and their options, what it adds to the core commands, the
 * options of /attack, its conditions, settings, stats, typed state, help
 * and the system descriptor (rs.h). The command layer, Discord
 * registration, autocomplete, /help and docs read these.
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
static const char *const te_attrs[] = {
    "str", "dex", "int", "wil", "per", "cha", NULL,
};
static const char *const te_adv_modes[] = {"reroll", "off", NULL};

static const struct rs_cmd te_cmds[] = {
    {"act", NULL, RS_CMD_RUNNING,
     "Spend actions on your turn: move, guard, wait, command, other...",
     "/act action:other cost:2 label:reload",
     te_act,
     {RS_CHOICE("action", true, te_actions, "What you do"),
      RS_WHO("target", false,
             "Who it is aimed at (command, resuscitate, killing_strike)"),
      RS_INT("cost", false, 0, TE_MAX_ACTION_COST,
             "Actions it costs (action:other; default 1)"),
      RS_TEXT("label", false, TE_MAX_LABEL, "What it is (action:other)"),
      RS_DICE("roll", false, "The test (resuscitate, killing_strike)"),
      RS_INT("difficulty", false, 0, 1000,
             "What the resuscitate test must reach"),
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

static const struct rs_opt_spec te_attack_opts[] = {
    RS_FLAG("sneak", "The target cannot see the attacker: advantage"),
    RS_FLAG("flank", "The target is flanked: advantage"),
    RS_COUNT("adv", TE_MAX_TESTS - 1, "Advantage; twice: double advantage"),
    RS_COUNT("dis", TE_MAX_TESTS - 1,
             "Disadvantage; twice: double disadvantage"),
    RS_CHOICE("attr", false, te_attrs,
              "The attribute die of the test (default str)"),
    RS_CHOICE("type", false, te_type_names,
              "Damage type (physical and elemental types are reduced)"),
    RS_DICE("crit", false, "Critical damage, used on a critical"),
    RS_INT("threshold", false, 1, 100,
           "Luck that makes a critical (default 20)"),
    RS_FLAG("ranged", "A projectile weapon: ranged, and may stray"),
    RS_FLAG("thrown", "A thrown weapon: ranged, and may stray"),
    RS_STR("adjacent", false, RS_VAL_NAMES, 400,
           "Who is within 1m of the target, as a,b: a stray shot may hit"),
    RS_FLAG("nonlethal", "Nonlethal damage"),
    RS_FLAG("reaction", "A readied attack: uses the reaction"),
    RS_FLAG("free", "GM: an attack that costs nothing"),
    RS_STR("block", false, RS_VAL_TEXT, TE_MAX_ITEM,
           "The defender blocks with this item (a shield: stat "
           "shield_block)"),
    RS_STR("parry", false, RS_VAL_TEXT, TE_MAX_ITEM,
           "The defender parries with this item"),
    RS_DICE("dodge", false, "The defender dodges with this test"),
    RS_WHO("intercept", false, "An ally who takes the attack instead"),
    RS_OPT_END,
};

static const struct rs_cond_spec te_conds[] = {
    {NC_("condition", "guarding"), RS_COND_TIMED, 0, 0, 1, ENC_EXPIRE_START,
     N_("+1 to evasion, damage reduction and defence tests until their next "
        "turn")},
    {NC_("condition", "in cover"), RS_COND_TIMED, 0, 0, 1, ENC_EXPIRE_START,
     N_("ranged attacks against them have disadvantage until their next turn")},
    {NC_("condition", "waiting"), RS_COND_TIMED, 0, 0, 1, ENC_EXPIRE_START,
     N_("an extra reaction until their next turn")},
    {NC_("condition", "readied"), RS_COND_TIMED, 0, 0, 1, ENC_EXPIRE_START,
     N_("holds an attack for a trigger until their next turn")},
    {NC_("condition", "prone"), 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("on the ground: melee attacks against them have advantage, ranged "
        "ones disadvantage; standing up costs an action")},
};

static const struct rs_setting_spec te_settings[] = {
    {"actions", RS_SET_INT, 1, TE_MAX_ACTIONS, NULL, "3",
     N_("actions per turn")},
    {"reactions", RS_SET_INT, 0, TE_MAX_REACTIONS, NULL, "1",
     N_("reactions per round")},
    {"map", RS_SET_INT, 0, 20, NULL, "2",
     N_("multiple attack penalty per earlier attack in the round")},
    {"death_dc", RS_SET_INT, 1, 1000, NULL, "10",
     N_("the death test's difficulty at the start")},
    {"death_step", RS_SET_INT, 0, 100, NULL, "5",
     N_("what each survived death test adds to it")},
    {"advantage", RS_SET_CHOICE, 0, 0, te_adv_modes, "reroll",
     N_("reroll: roll the test again and keep the better; off: no advantage")},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

/* Open stats besides these: an item's <item>_block, _parry, _dur and
 * _metal are named by the item, so no list can hold them. */
static const struct rs_stat_spec te_stats[] = {
    {"str", RS_STAT, 0, TE_MAX_DIE, N_("strength die size: str=6 is a d6")},
    {"dex", RS_STAT, 0, TE_MAX_DIE, N_("dexterity die size")},
    {"int", RS_STAT, 0, TE_MAX_DIE, N_("intelligence die size")},
    {"wil", RS_STAT, 0, TE_MAX_DIE, N_("willpower die size")},
    {"per", RS_STAT, 0, TE_MAX_DIE, N_("perception die size")},
    {"cha", RS_STAT, 0, TE_MAX_DIE, N_("charisma die size")},
    {"combat", RS_STAT, 0, TE_MAX_DIE, N_("combat skill die size")},
    {"athletics", RS_STAT, 0, TE_MAX_DIE, N_("athletics skill die size")},
    {"prof", RS_STAT, -ENC_MAX_VALUE, ENC_MAX_VALUE,
     N_("proficiency added to the attack test")},
    {"fortitude", RS_STAT, -ENC_MAX_VALUE, ENC_MAX_VALUE,
     N_("added to the fortify test")},
    {"evasion", RS_STAT, -ENC_MAX_VALUE, ENC_MAX_VALUE,
     N_("what an attack test must reach")},
    {"pdr", RS_STAT, 0, 100, N_("physical damage reduction")},
    {"edr", RS_STAT, 0, 100, N_("elemental damage reduction")},
    {"size", RS_STAT, 0, 100, N_("3 small, 4 medium (the default)...")},
    {"con", RS_STAT, 0, 100,
     N_("constitution: missing more health than "
        "this means fortify or fall")},
    {"luck", RS_STAT, -ENC_MAX_VALUE, ENC_MAX_VALUE,
     N_("added to every luck roll")},
    {"nosurprise", RS_STAT, 0, 1, N_("1: cannot be surprised")},
    {"death_dc", RS_STAT, 1, 1000,
     N_("this character's death test "
        "difficulty (fray raises it)")},
    {NC_("teams track", "hp"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("health; 0 is unconscious")},
    {NC_("teams track", "endurance"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("takes damage before health")},
    {NC_("teams track", "stamina"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("spent on Sprint and the physical reactions")},
    {NC_("teams track", "focus"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("spent on Command and Resist")},
    {NULL, RS_STAT, 0, 0, NULL},
};

/* The slots fights saved before typed state kept these in are the legacy
 * numbers (slot + 1), so those fights load and play on. */
static const struct rs_field te_enc_fields[] = {
    RS_FIELD(struct te_enc, norder, RS_F_I32, 1),
    RS_FIELD_ARR(struct te_enc, order, RS_F_I32, ENC_MAX_SIDES, 2),
    RS_FIELD(struct te_enc, surprise, RS_F_BOOL, 10),
    RS_FIELD(struct te_enc, surpriser, RS_F_I32, 11),
};

static const struct rs_field te_comb_fields[] = {
    RS_FIELD(struct te_comb, actions, RS_F_I32, 1),
    RS_FIELD(struct te_comb, reactions, RS_F_I32, 2),
    RS_FIELD(struct te_comb, moved, RS_F_BOOL, 3),
    RS_FIELD(struct te_comb, stepped, RS_F_BOOL, 4),
    RS_FIELD(struct te_comb, attacks, RS_F_I32, 5),
    RS_FIELD_ARR(struct te_comb, commanded, RS_F_U32, TE_MAX_COMMANDS, 6),
    RS_FIELD(struct te_comb, busy, RS_F_I32, 9),
    RS_FIELD(struct te_comb, fortify, RS_F_I32, 10),
    RS_FIELD(struct te_comb, busy_label, RS_F_STR, 0),
};

static const struct rs_help te_help = {
    .kind = N_("Teams take turns choosing: the acting team picks one member "
               "who has not acted this round, who gets three actions; every "
               "character also has one reaction a round. Tests add an "
               "attribute die and a skill die (d4 to d12); attacks roll a d20 "
               "luck die beside the test for criticals and stray shots."),
    .turns = N_("The team whose turn it is picks a member who has not acted "
                "(`/combat pick`); that member spends three actions (`/act`, "
                "`/attack`) and has one reaction out of turn (`/react`), then "
                "play passes to the next team (`/combat next`). A character "
                "knocked unconscious loses the rest of the turn. Damage comes "
                "off endurance, then health; too much health lost means a test "
                "to stay conscious (`/test kind:fortify`, a reaction, or "
                "`/fall`), and without a reaction left the character falls. A "
                "condition timed on someone's turn (`/combat condition "
                "until:`) counts the turns their team picks them for."),
    .attacks =
        N_("`/attack` rolls the attribute die + `combat` die + `prof` "
           "(or `roll:`) against the target's `evasion`, with -2 for "
           "each earlier attack this round. `sneak`, `flank` and `adv` "
           "roll the test again and keep the better (double advantage: "
           "best of three). The luck die at `threshold=` or more is a "
           "critical (`crit=` damage); at 1 or less a `ranged` or "
           "`thrown` attack strays to someone `adjacent=`. Damage is the "
           "test + `damage:` less `pdr`/`edr` for its `type=`, at least "
           "1, to endurance, then health."),
    .clock =
        N_("When `/combat clock` runs out with `auto:true`, a running turn "
           "ends and the next team picks. A team that is to pick may not "
           "pass (every member gets a turn each round), so the clock picks "
           "for it: its first member in the tracker who may still act."),
};

static const struct rs_ops te_ops = {
    .version = RS_OPS_VERSION,
    .setup = te_setup,              /* hp/endurance/stamina/focus tracks */
    .check_stat = te_check_stat,    /* a die has two sides or more */
    .setting = NULL,                /* the declared bounds are enough */
    .begin = te_begin,              /* first:, order:, surprise: */
    .next = te_next,                /* end the turn; the next team picks */
    .pick = te_pick,                /* the acting team chooses a member */
    .pass = NULL,                   /* teams do not pass */
    .attack = te_attack,            /* test vs evasion + luck die */
    .late_join = te_late_join,      /* may act this round; team goes last */
    .after_track = te_after_track,  /* health 0 is unconscious */
    .status = te_status,            /* actions, reactions, harmed... */
    .data_parse = NULL,             /* no data file */
    .data_free = NULL,
    .data_conds = NULL,             /* conditions: te_conds */
    .cond_changed = te_cond_changed, /* waiting: an extra reaction */
    .tracker_head = te_head,        /* which team picks next */
    .timeout = te_timeout,          /* the turn ends; the clock picks */
};

/* Endurance takes damage before health (rules: "Damage"); stamina and
 * focus are spent, not damaged. */
static const struct rs_harm_spec te_harm[] = {
    {TE_ENDURANCE, false}, {TE_HEALTH, false}, {NULL, false},
};

static const struct rs_lasting te_lasts[] = {
    {"death_dc", 0, 0,
     "If they succeed, they cheat death, and this difficulty value is "
     "permanently increased by 5."},
    {"*_dur", 0, 0,
     "Items that are broken (have zero durability) cannot be used to block "
     "or parry."},
    {NULL, 0, 0, NULL},
};

/* Counts the rules keep: never a resource of the same name (enc_res.h). */
static const struct rs_kept te_kept[] = {
    {"actions", N_("each member has 3 actions on its turn")},
    {"reaction",
     N_("each member has one reaction a round (the tracker's 1 reaction)")},
    {"reactions",
     N_("each member has one reaction a round (the tracker's 1 reaction)")},
    {NULL, NULL},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec te_entries = {
    .counts = false,
    .why = N_("teams alternate picking members, so there is no count to sit "
              "at: an event goes at the start of the round (before the first "
              "pick) or at its end (after the last member acted)"),
};

const struct rs_system rs_teams = {
    .version = RS_SYSTEM_VERSION,
    .id = "teams",
    .title = N_("Teams"),
    .summary = N_("teams alternate picking a member; 3 actions and a reaction; "
                  "test vs evasion with a d20 luck die; endurance then health"),
    /* Open stats for the items (te_stats). */
    .flags = RS_F_SIDES_REQUIRED | RS_F_ALTERNATING | RS_F_OPEN_STATS,
    .ops = &te_ops,
    .help = &te_help,
    .cmds = te_cmds,
    .ncmds = (int)(sizeof te_cmds / sizeof te_cmds[0]),
    .exts = te_exts,
    .attack_opts = te_attack_opts,
    .conds = te_conds,
    .nconds = (int)(sizeof te_conds / sizeof te_conds[0]),
    .settings = te_settings,
    .stats = te_stats,
    .kept = te_kept,
    .enc_state = {sizeof(struct te_enc), te_enc_fields,
                  (int)(sizeof te_enc_fields / sizeof te_enc_fields[0])},
    .side_state = {0, NULL, 0},
    .comb_state = {sizeof(struct te_comb), te_comb_fields,
                   (int)(sizeof te_comb_fields / sizeof te_comb_fields[0])},
    .prompts = te_prompts,
    .nprompts = 1,
    .data_file = NULL,
    .rank = 20,
    .harm = te_harm,
    .lasts = te_lasts,
    .entries = &te_entries,
};
