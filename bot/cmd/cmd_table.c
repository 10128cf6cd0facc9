/*
 * cmd_table.c - every command fray understands, in one table.
 *
 * The console parser, the validator, /help, docs/commands.md and the
 * Discord command definitions all read this table. Bounds here are the
 * input limits users meet; they mirror the engine's named limits.
 */
#include "cmd_table.h"

#include <string.h>

#include "cmd.h"
#include "cmd_run.h"
#include "eng_limits.h"
#include "eng_text.h"

#define STR(n, req, cpl, maxlen, help) \
    {n, CMD_OPT_STRING, req, cpl, 1, maxlen, help}
#define INT(n, req, lo, hi, help) \
    {n, CMD_OPT_INTEGER, req, CMD_COMPLETE_NONE, lo, hi, help}
#define BOOL(n, help) {n, CMD_OPT_BOOLEAN, false, CMD_COMPLETE_NONE, 0, 1, help}

/* Longest free text a user may put in one option (notes, labels). */
#define CMD_MAX_TEXT_OPT 200
/* Longest stats or settings list. */
#define CMD_MAX_LIST_OPT 400

static const struct cmd_spec table[] = {
    {"roll", NULL, 0,
     "Roll dice: 2d6+3, 4d6kh3, 1d20+5 adv, 10d10>=8",
     "/roll dice:\"1d20+5 adv\" label:Stealth",
     cmd_roll,
     {STR("dice", true, CMD_COMPLETE_NONE, DICE_MAX_EXPR_LEN,
          "The dice to roll, e.g. 2d6+3 or 4d6kh3"),
      STR("label", false, CMD_COMPLETE_NONE, DICE_MAX_LABEL,
          "What the roll is for"),
      BOOL("secret", "Only you (and the GM channel) see the result"),
      {0}}},

    {"combat", "start", CMD_F_MUTATES,
     "Start a fight in this channel; you become its GM",
     "/combat start system:generic name:\"Bridge ambush\"",
     cmd_combat_start,
     {STR("system", true, CMD_COMPLETE_SYSTEM, ENC_MAX_RS_ID,
          "Rule system: generic, tactical, factions, teams, resolve, cards"),
      STR("name", false, CMD_COMPLETE_NONE, ENC_MAX_ENC_NAME,
          "A name for the fight"),
      STR("settings", false, CMD_COMPLETE_NONE, CMD_MAX_LIST_OPT,
          "Rule options as \"key=value key=value\""),
      {0}}},

    {"combat", "add", CMD_F_NEEDS_ENC | CMD_F_MUTATES | CMD_F_GM_ONLY,
     "GM: add NPCs (count:3 makes Goblin 1..3)",
     "/combat add name:Goblin count:3 hp:7 stats:\"ac=13 init=2\"",
     cmd_combat_add,
     {STR("name", true, CMD_COMPLETE_NONE, ENC_MAX_NAME, "Name"),
      INT("count", false, 1, ENC_MAX_COUNT, "How many (numbered 1..N)"),
      STR("side", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "Side, faction or team"),
      STR("init", false, CMD_COMPLETE_NONE, ENC_MAX_INIT_EXPR,
          "Initiative modifier (+2), dice (d20+2) or fixed (=15)"),
      INT("hp", false, 0, ENC_MAX_VALUE, "Hit points"),
      STR("stats", false, CMD_COMPLETE_NONE, CMD_MAX_LIST_OPT,
          "Stats as \"ac=13 attack=4\""),
      BOOL("hidden", "Only the GM sees its numbers"),
      BOOL("group", "With count: they share one initiative"),
      BOOL("major", "Resolve: a major NPC (rank + 6 initiative)"),
      {0}}},

    {"combat", "join", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Add your own character to the fight",
     "/combat join name:Aria hp:24 stats:\"ac=15 init=3 attack=5\"",
     cmd_combat_join,
     {STR("name", true, CMD_COMPLETE_NONE, ENC_MAX_NAME,
          "Your character's name"),
      STR("side", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "Side, faction or team"),
      STR("init", false, CMD_COMPLETE_NONE, ENC_MAX_INIT_EXPR,
          "Initiative modifier (+2), dice (d20+2) or fixed (=15)"),
      INT("hp", false, 0, ENC_MAX_VALUE, "Hit points"),
      STR("stats", false, CMD_COMPLETE_NONE, CMD_MAX_LIST_OPT,
          "Stats as \"ac=15 attack=5\""),
      {0}}},

    {"combat", "remove", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Remove a combatant (GM, or the player for their own)",
     "/combat remove name:\"Goblin 2\"",
     cmd_combat_remove,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME,
          "Who leaves"),
      {0}}},

    {"combat", "set", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Change stats of a combatant you control",
     "/combat set name:Aria stats:\"ac=16\"",
     cmd_combat_set,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME, "Who"),
      STR("stats", false, CMD_COMPLETE_NONE, CMD_MAX_LIST_OPT,
          "Stats as \"ac=13 attack=4\""),
      BOOL("hidden", "GM: hide or show its numbers"),
      STR("side", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "Move to another side"),
      {0}}},

    {"combat", "note", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Attach a short note to a combatant (empty text clears it)",
     "/combat note name:Aria text:\"holding the door\"",
     cmd_combat_note,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME, "Who"),
      {"text", CMD_OPT_STRING, true, CMD_COMPLETE_NONE, 0, ENC_MAX_NOTE,
       "The note"},
      {0}}},

    {"combat", "begin", CMD_F_NEEDS_ENC | CMD_F_MUTATES | CMD_F_GM_ONLY,
     "GM: roll initiative and start round 1",
     "/combat begin",
     cmd_combat_begin,
     {STR("first", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "Side that acts first (alternating systems)"),
      STR("surprise", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "Side that gets a surprise round"),
      STR("order", false, CMD_COMPLETE_NONE, CMD_MAX_LIST_OPT,
          "Order of further sides, as \"a,b,c\""),
      {0}}},

    {"combat", "next", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "End the current turn and move on",
     "/combat next",
     cmd_combat_next,
     {{0}}},

    {"combat", "pick", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Alternating systems: choose who of the acting side goes now",
     "/combat pick name:Aria",
     cmd_combat_pick,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME,
          "Who acts"),
      {0}}},

    {"combat", "pass", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Alternating systems: the acting side passes",
     "/combat pass",
     cmd_combat_pass,
     {STR("side", false, CMD_COMPLETE_SIDE, ENC_MAX_SIDE_NAME,
          "The side passing (default: the acting side)"),
      {0}}},

    {"combat", "hp", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Damage (-n), heal (+n) or set (=n) hit points",
     "/combat hp name:\"Goblin 1\" change:-7",
     cmd_combat_hp,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME, "Who"),
      STR("change", true, CMD_COMPLETE_NONE, 16,
          "-n for damage, +n for healing, =n to set"),
      STR("track", false, CMD_COMPLETE_NONE, ENC_MAX_STAT_NAME,
          "Which track (default hp)"),
      {0}}},

    {"combat", "condition", CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Add or remove a condition, optionally for some rounds",
     "/combat condition name:Aria condition:Poisoned rounds:2",
     cmd_combat_condition,
     {STR("name", true, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME, "Who"),
      STR("condition", true, CMD_COMPLETE_CONDITION, ENC_MAX_COND_NAME,
          "The condition"),
      INT("value", false, -ENC_MAX_VALUE, ENC_MAX_VALUE,
          "Value or stacks to add"),
      INT("rounds", false, 0, ENC_MAX_ROUNDS,
          "How many rounds it lasts (0: until removed)"),
      BOOL("remove", "Remove the condition instead"),
      STR("until", false, CMD_COMPLETE_COMBATANT, ENC_MAX_NAME,
          "Whose turn counts the rounds (default: the holder)"),
      STR("ends", false, CMD_COMPLETE_NONE, 5,
          "start or end of that turn (default end)"),
      INT("cap", false, 0, ENC_MAX_VALUE, "Most stacks allowed"),
      {0}}},

    {"combat", "status", CMD_F_NEEDS_ENC,
     "Show the tracker",
     "/combat status",
     cmd_combat_status,
     {BOOL("private", "Only you see it (GM: with hidden numbers)"),
      {0}}},

    {"combat", "undo", CMD_F_NEEDS_ENC | CMD_F_MUTATES | CMD_F_GM_ONLY,
     "GM: take back the last change",
     "/combat undo",
     cmd_combat_undo,
     {{0}}},

    {"combat", "end", CMD_F_NEEDS_ENC | CMD_F_MUTATES | CMD_F_GM_ONLY,
     "GM: end the fight (it is archived, not deleted)",
     "/combat end",
     cmd_combat_end,
     {{0}}},

    {"combat", "notices", CMD_F_NEEDS_ENC | CMD_F_MUTATES | CMD_F_GM_ONLY,
     "GM: mention players when their turn starts, or not",
     "/combat notices on:false",
     cmd_combat_notices,
     {BOOL("on", "Mention the player whose turn starts"),
      {0}}},

    {"attack", NULL, CMD_F_NEEDS_ENC | CMD_F_MUTATES,
     "Attack a target with your combatant",
     "/attack target:\"Goblin 1\" damage:1d8+3",
     cmd_attack,
     {STR("target", true, CMD_COMPLETE_COMBATANT, ENC_MAX_NAME,
          "Who is attacked"),
      STR("attacker", false, CMD_COMPLETE_OWN_COMBATANT, ENC_MAX_NAME,
          "Who attacks (default: whose turn it is)"),
      STR("roll", false, CMD_COMPLETE_NONE, DICE_MAX_EXPR_LEN,
          "Attack roll (default 1d20 + attack stat)"),
      STR("damage", false, CMD_COMPLETE_NONE, DICE_MAX_EXPR_LEN,
          "Damage dice, e.g. 1d8+3"),
      STR("options", false, CMD_COMPLETE_NONE, CMD_MAX_TEXT_OPT,
          "Rule-specific options"),
      STR("effects", false, CMD_COMPLETE_NONE, CMD_MAX_TEXT_OPT,
          "Tactical: attack effects, e.g. Knockdown(2) Shock(1)"),
      {0}}},

    /* Commands of particular rule systems, dispatched to the encounter's
     * ruleset (cmd_rs_action): kept in their own file of rows. */
#include "cmd_rows_rs.h"

    {"config", NULL, 0,
     "Admins: fray's settings for this server, such as the GM channel",
     "/config gm-channel:#gm-notes",
     cmd_config,
     {{"gm-channel", CMD_OPT_CHANNEL, false, CMD_COMPLETE_NONE, 0, 0,
       "Where secret rolls and the GM's copies of hidden results go"},
      BOOL("clear", "Forget the GM channel"),
      {0}}},

    {"help", NULL, 0,
     "How to use fray: topics quickstart, dice, combat, and each system",
     "/help topic:dice",
     cmd_help,
     {STR("topic", false, CMD_COMPLETE_HELP, 32, "What to explain"),
      {0}}},
};

const struct cmd_spec *cmd_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

const struct cmd_spec *cmd_table_find(const char *command, const char *sub)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct cmd_spec *s = &table[i];
        if (eng_text_casecmp(s->command, command) != 0)
            continue;
        if (s->sub == NULL && (sub == NULL || sub[0] == '\0'))
            return s;
        if (s->sub != NULL && sub != NULL && eng_text_casecmp(s->sub, sub) == 0)
            return s;
    }
    return NULL;
}

const struct cmd_opt_spec *cmd_spec_opt(const struct cmd_spec *spec,
                                        const char *name)
{
    for (int i = 0; i < CMD_MAX_SPEC_OPTS && spec->opts[i].name; i++)
        if (eng_text_casecmp(spec->opts[i].name, name) == 0)
            return &spec->opts[i];
    return NULL;
}
