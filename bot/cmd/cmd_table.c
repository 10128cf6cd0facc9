/*
 * cmd_table.c - the core commands, and views over every ruleset's own
 * (cmd_table.h).
 *
 * Bounds here are the input limits users meet; they mirror the engine's
 * named limits.
 */
#include "cmd_table.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_macro.h"
#include "cmd_rollrec.h"
#include "cmd_run.h"
#include "cmd_srvcond.h"
#include "cmd_xfer.h"
#include "proposal.h"
#include "dur.h"
#include "eng_limits.h"
#include "eng_text.h"

/* Longest free text a user may put in one option (notes, labels). */
#define CMD_MAX_TEXT_OPT 200
/* Longest stats or settings list. */
#define CMD_MAX_LIST_OPT 400

#define OPTS(...) ((const struct rs_opt_spec[]){__VA_ARGS__, RS_OPT_END})
#define NO_OPTS ((const struct rs_opt_spec[]){RS_OPT_END})

static const char *const ends_choices[] = {"start", "end", NULL};
/* /combat resource (enc_res.h) */
static const char *const res_actions[] = {"spend", "restore", "add",
                                          "remove", NULL};
static const char *const res_resets[] = {"turn", "round", "never", NULL};
/* /combat event (enc_entry.h) */
static const char *const event_kinds[] = {"lair", "hazard", "once", NULL};
/* Whose dice syntax to read (dice_dialect_name()); "server": the server's */
static const char *const dialect_choices[] = {
    "fray", "dicemaiden", "roll20", "foundry", "avrae", "sidekick", NULL};
/* /config proposals: and proposal-expiry: (proposal.h) */
static const char *const on_off_choices[] = {"on", "off", NULL};
static const char *const expiry_choices[] = {"turn", "round", "never", NULL};
/* /config language: (i18n.h's codes); "server": Discord's language of
 * the server (guild_locale) */
static const char *const language_choices[] = {
    "server", "en", "de", "fr", "es-ES", "pt-BR", "pl", NULL};
static const char *const my_dialect_choices[] = {
    "server", "fray", "dicemaiden", "roll20", "foundry", "avrae", "sidekick",
    NULL};

/* The options of every export and import (docs/export-format.md): file:
 * is a path in the console; on Discord an import's is an attachment and
 * an export's answer carries the file. */
#define EXPORT_OPTS                                                          \
    OPTS(RS_TEXT("file", false, RS_FILE_PATH_MAX,                            \
                 "Console only: the file to write (Discord sends it with "   \
                 "the answer)"))
#define IMPORT_OPTS(replace_help)                                            \
    OPTS(RS_FILE("file", true,                                               \
                 "The export file: attach it (a path in the console)"),      \
         RS_BOOL("replace", replace_help))
/* What a saved sheet's commands (/character create and set) may change:
 * one list, so both take the same words. */
#define SHEET_EDIT_OPTS                                                        \
    RS_INT("hp", false, 0, ENC_MAX_VALUE, "Hit points (the hp track)"),        \
        RS_STR("stats", false, RS_VAL_STATS, CMD_MAX_LIST_OPT,                 \
               "Stats as \"ac=15 attack=5\""),                                 \
        RS_TEXT("init", false, ENC_MAX_INIT_EXPR,                              \
                "Initiative modifier (+2), dice (d20+2) or fixed (=15)"),      \
        {"note", RS_OPT_STRING, RS_VAL_TEXT, false, 0, ENC_MAX_NOTE, NULL,     \
         "A short note (empty clears it)"},                                    \
        RS_TEXT("attack", false, ENC_MAX_ATTACK_NAME,                          \
                "Add or change this attack (a weapon), by name"),              \
        RS_TEXT("roll", false, ENC_MAX_ATTACK_EXPR,                            \
                "The attack's roll (default: the system's own)"),              \
        RS_TEXT("damage", false, ENC_MAX_ATTACK_EXPR,                          \
                "The attack's damage dice, e.g. 1d8+3"),                       \
        RS_STR("options", false, RS_VAL_ATTACK_OPTS, ENC_MAX_ATTACK_OPTS,      \
               "The attack's options in its system: type, qualities")

/* Which posted roll a roll's menu command acts on (cmd_rollrec.h):
 * Discord fills it from the message; the console types a number. */
#define ROLLREC_OPT                                                          \
    RS_TEXT("roll", false, CMD_ROLLREC_ID_MAX,                               \
            N_("Which roll: its number (default: the last here)"))

/* Flags of the commands that act on a channel's fight. */
#define ENC_CMD (CMD_F_NEEDS_ENC | CMD_F_MUTATES)
#define GUILD CMD_CTX_GUILD
/* Anywhere a player is: servers, DMs, and a user's own install
 * (CMD_CTX_USER), where the bot is not in the server. */
#define ANYWHERE (CMD_CTX_GUILD | CMD_CTX_DM | CMD_CTX_USER)
/* A player's own things kept per server (characters): in a server where
 * the user installed fray too, but not in a DM, which has no server. */
#define OWN_IN_SERVER (CMD_CTX_GUILD | CMD_CTX_USER)

static const struct cmd_spec table[] = {
    {"roll", NULL, 0, ANYWHERE,
     "Roll dice: 2d6+3, 4d6kh3, 1d20+5 adv, 10d10>=8",
     "/roll dice:\"1d20+5 adv\" label:Stealth",
     cmd_roll,
     OPTS({"dice", RS_OPT_STRING, RS_VAL_DICE_MACRO, true, 1,
           DICE_MAX_EXPR_LEN, NULL,
           "The dice to roll, e.g. 2d6+3, 4d6kh3 or a saved roll @stealth+2"},
          RS_TEXT("label", false, DICE_MAX_LABEL, "What the roll is for"),
          RS_BOOL("secret", "Only you (and the GM channel) see the result")),
     NULL, NULL},

    {"combat", "start", CMD_F_MUTATES, GUILD,
     "Start a fight in this channel; you become its GM",
     "/combat start system:generic name:\"Bridge ambush\"",
     cmd_combat_start,
     OPTS(RS_STR("system", false, RS_VAL_SYSTEM, ENC_MAX_RS_ID,
                 "The rule system (default: the one this server plays)"),
          RS_TEXT("name", false, ENC_MAX_ENC_NAME, "A name for the fight"),
          RS_STR("settings", false, RS_VAL_SETTINGS, CMD_MAX_LIST_OPT,
                 "Rule options as \"key=value key=value\""),
          RS_BOOL("trust", "Players may change anyone's hp and conditions "
                  "(default false)"),
          RS_BOOL("thread", "Run the fight in a thread of its own "
                  "(default false)")),
     NULL, NULL},

    {"combat", "add", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: add NPCs (count:3 makes Goblin 1..3)",
     "/combat add name:Goblin count:3 hp:7 stats:\"ac=13 init=2\"",
     cmd_combat_add,
     OPTS(RS_TEXT("name", false, ENC_MAX_NAME,
                  "Name (default: the template's)"),
          RS_STR("template", false, RS_VAL_TEMPLATE, ENC_MAX_NAME,
                 "Add copies of this server's NPC template (/npc)"),
          RS_INT("count", false, 1, ENC_MAX_COUNT, "How many (numbered 1..N)"),
          RS_STR("side", false, RS_VAL_SIDE_ANY, ENC_MAX_SIDE_NAME,
                 "Side, faction or team"),
          RS_TEXT("init", false, ENC_MAX_INIT_EXPR,
                  "Initiative modifier (+2), dice (d20+2) or fixed (=15)"),
          RS_INT("hp", false, 0, ENC_MAX_VALUE, "Hit points"),
          RS_STR("stats", false, RS_VAL_STATS, CMD_MAX_LIST_OPT,
                 "Stats as \"ac=13 attack=4\""),
          RS_BOOL("hidden", "Only the GM sees its numbers"),
          RS_BOOL("group", "With count: they share one initiative")),
     NULL, NULL},

    {"combat", "join", ENC_CMD, GUILD,
     "Add your own character to the fight (a saved one with character:)",
     "/combat join name:Aria hp:24 stats:\"ac=15 init=3 attack=5\"",
     cmd_combat_join,
     OPTS(RS_TEXT("name", false, ENC_MAX_NAME,
                  "Its name in the fight (default: the saved character's)"),
          RS_STR("character", false, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Bring a copy of your saved character (/character)"),
          RS_STR("side", false, RS_VAL_SIDE_ANY, ENC_MAX_SIDE_NAME,
                 "Side, faction or team"),
          RS_TEXT("init", false, ENC_MAX_INIT_EXPR,
                  "Initiative modifier (+2), dice (d20+2) or fixed (=15)"),
          RS_INT("hp", false, 0, ENC_MAX_VALUE, "Hit points"),
          RS_STR("stats", false, RS_VAL_STATS, CMD_MAX_LIST_OPT,
                 "Stats as \"ac=15 attack=5\"")),
     NULL, NULL},

    {"combat", "remove", ENC_CMD, GUILD,
     "Remove a combatant (GM, or the player for their own)",
     "/combat remove name:\"Goblin 2\"",
     cmd_combat_remove,
     OPTS(RS_OWN("name", true, "Who leaves")),
     NULL, NULL},

    {"combat", "set", ENC_CMD, GUILD,
     "Change stats or the note of a combatant you control",
     "/combat set name:Aria stats:\"ac=16\"",
     cmd_combat_set,
     OPTS(RS_OWN("name", true, "Who"),
          RS_STR("stats", false, RS_VAL_STATS, CMD_MAX_LIST_OPT,
                 "Stats as \"ac=13 attack=4\""),
          RS_BOOL("hidden", "GM: hide or show its numbers"),
          RS_STR("side", false, RS_VAL_SIDE_ANY, ENC_MAX_SIDE_NAME,
                 "Move to another side"),
          {"note", RS_OPT_STRING, RS_VAL_TEXT, false, 0, ENC_MAX_NOTE, NULL,
           "A short note on the tracker (\"-\" clears it)"}),
     NULL, NULL},

    {"combat", "begin", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: roll initiative and start round 1",
     "/combat begin",
     cmd_combat_begin,
     NO_OPTS,
     NULL, NULL},

    {"combat", "next", ENC_CMD, GUILD,
     "End the current turn and move on",
     "/combat next",
     cmd_combat_next,
     NO_OPTS,
     NULL, NULL},

    {"combat", "pick", ENC_CMD, GUILD,
     "Alternating systems: choose who of the acting side goes now",
     "/combat pick name:Aria",
     cmd_combat_pick,
     OPTS(RS_OWN("name", true, "Who acts")),
     NULL, NULL},

    {"combat", "pass", ENC_CMD, GUILD,
     "Alternating systems: the acting side passes",
     "/combat pass",
     cmd_combat_pass,
     OPTS(RS_SIDE("side", false,
                  "The side passing (default: the acting side)")),
     NULL, NULL},

    {"combat", "hp", ENC_CMD, GUILD,
     "Damage (-n), heal (+n) or set (=n) hit points",
     "/combat hp name:\"Goblin 1\" change:-7",
     cmd_combat_hp,
     OPTS(RS_OWN("name", true, "Who"),
          RS_TEXT("change", true, 16,
                  "-n for damage, +n for healing, =n to set"),
          RS_TEXT("track", false, ENC_MAX_STAT_NAME,
                  "Which track (default hp)")),
     NULL, NULL},

    {"combat", "condition", ENC_CMD, GUILD,
     "Add or remove a condition, optionally for some rounds",
     "/combat condition name:Aria condition:Poisoned rounds:2",
     cmd_combat_condition,
     OPTS(RS_OWN("name", true, "Who"),
          RS_STR("condition", false, RS_VAL_CONDITION, ENC_MAX_COND_NAME,
                 "The condition (leave out: choose from a list)"),
          RS_INT("value", false, -ENC_MAX_VALUE, ENC_MAX_VALUE,
                 "Value or stacks to add"),
          RS_INT("rounds", false, 0, ENC_MAX_ROUNDS,
                 "Rounds it lasts; with until:, that one's turns (0: until "
                 "removed)"),
          RS_BOOL("remove", "Remove the condition instead"),
          RS_WHO("until", false,
                 "Whose turn ends it (default the holder; alone: their next "
                 "turn)"),
          RS_CHOICE("ends", false, ends_choices,
                    "start or end of that turn (default end)"),
          RS_INT("cap", false, 0, ENC_MAX_VALUE,
                 "Most stacks allowed (a condition of your own)"),
          RS_BOOL("custom", "Keep a name the system does not know as typed")),
     NULL, NULL},

    {"combat", "resource", ENC_CMD, GUILD,
     "Spend, restore, add or remove a resource that resets",
     "/combat resource name:\"Goblin 1\" resource:Legendary action:add "
     "max:3 reset:turn",
     cmd_combat_resource,
     OPTS(RS_OWN("name", true, "Who"),
          RS_STR("resource", false, RS_VAL_RESOURCE, ENC_MAX_RES_NAME,
                 "The resource (leave out: choose from a list)"),
          RS_CHOICE("action", false, res_actions,
                    "spend (default), restore, add or remove"),
          RS_INT("amount", false, 1, ENC_MAX_RES_VALUE,
                 "How many to spend (default 1) or restore (default all)"),
          RS_INT("max", false, 1, ENC_MAX_RES_VALUE,
                 "add: how many it holds"),
          RS_CHOICE("reset", false, res_resets,
                    "add: when it comes back: start of its turn, of each "
                    "round, or never"),
          RS_TEXT("recharge", false, 8,
                  "add: roll a d6 at the reset point, back on e.g. 5-6")),
     NULL, NULL},

    {"combat", "countdown", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: a countdown on the tracker, announced when it reaches zero",
     "/combat countdown name:\"The bridge falls\" rounds:3",
     cmd_combat_countdown,
     OPTS(RS_STR("name", true, RS_VAL_COUNTDOWN, ENC_MAX_CD_NAME,
                 "The countdown (what is announced at zero)"),
          RS_INT("rounds", false, 1, ENC_MAX_CD_COUNT,
                 "Start it: rounds to go, counted as each round starts"),
          RS_INT("turns", false, 1, ENC_MAX_CD_COUNT,
                 "Start it: turns of the one in of: to go, counted as each ends"),
          RS_WHO("of", false, "Whose turns count it (with turns:)"),
          RS_BOOL("hidden", "Only the GM sees it (with rounds: or turns:)"),
          RS_INT("advance", false, 1, ENC_MAX_CD_COUNT,
                 "Count it down now by this many"),
          RS_BOOL("pause", "Stop it counting down"),
          RS_BOOL("resume", "Start it counting down again"),
          RS_BOOL("remove", "Take it away, unannounced")),
     NULL, NULL},

    {"combat", "event", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: put a lair action, a hazard or a one-shot in the order",
     "/combat event name:Lava kind:hazard note:\"Lava rises\" dice:1d10",
     cmd_combat_event,
     OPTS(RS_TEXT("name", true, ENC_MAX_ENTRY_NAME, "The event's name"),
          RS_CHOICE("kind", false, event_kinds,
                    "lair (every round, default), hazard (its own turn) or "
                    "once (one round)"),
          RS_TEXT("at", false, 8,
                  "Where: a count or card, start or end (of the round)"),
          RS_INT("round", false, 1, ENC_MAX_ROUNDS,
                 "once: the round it comes in (default the next)"),
          RS_TEXT("dice", false, ENC_MAX_ENTRY_DICE,
                  "Dice rolled when it comes up"),
          RS_TEXT("note", false, ENC_MAX_ENTRY_NOTE,
                  "What happens, said when it comes up"),
          RS_BOOL("hidden", "The GM's alone: players see nothing of it"),
          RS_BOOL("remove", "Take it out of the order")),
     NULL, NULL},

    {"combat", "status", CMD_F_NEEDS_ENC, GUILD,
     "Show the tracker",
     "/combat status",
     cmd_combat_status,
     OPTS(RS_BOOL("private", "Only you see it (GM: with hidden numbers)")),
     NULL, NULL},

    {"combat", "undo", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: take back the last change",
     "/combat undo",
     cmd_combat_undo,
     NO_OPTS,
     NULL, NULL},

    {"combat", "history", CMD_F_NEEDS_ENC | CMD_F_EPHEMERAL, GUILD,
     "What changed in this fight, newest first, and who did it",
     "/combat history count:20",
     cmd_combat_history,
     OPTS(RS_INT("count", false, 1, CMD_HISTORY_MAX,
                 "How many changes (default 10)")),
     NULL, NULL},

    {"combat", "recap", CMD_F_NEEDS_ENC | CMD_F_EPHEMERAL, GUILD,
     "What happened in this fight since your last command, privately",
     "/combat recap",
     cmd_combat_recap,
     NO_OPTS,
     NULL, NULL},

    {"combat", "share", CMD_F_NEEDS_ENC | CMD_F_GM_ONLY | CMD_F_EPHEMERAL,
     GUILD,
     "GM: a private link to a live, read-only page of the fight",
     "/combat share",
     cmd_combat_share,
     OPTS(RS_BOOL("revoke", "End the link now: open pages stop")),
     NULL, NULL},

    {"combat", "log", CMD_F_NEEDS_ENC, GUILD,
     "The fight as a Markdown file: every roll, change and who, then numbers",
     "/combat log",
     cmd_combat_log,
     OPTS(RS_BOOL("gm", "GM: your private copy, with hidden numbers")),
     NULL, NULL},

    {"combat", "end", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: end the fight and show the numbers (asks first; reopen undoes)",
     "/combat end confirm:true",
     cmd_combat_end,
     OPTS(RS_BOOL("confirm", "Yes, end it now (without: a button asks)")),
     NULL, NULL},

    {"combat", "reopen", CMD_F_MUTATES, GUILD,
     "GM: bring back the fight that just ended in this channel",
     "/combat reopen",
     cmd_combat_reopen,
     NO_OPTS,
     NULL, NULL},

    {"combat", "settings", ENC_CMD | CMD_F_GM_ONLY, GUILD,
     "GM: turn notices and how far players' hands reach in this fight",
     "/combat settings notices:false trust:true",
     cmd_combat_settings,
     OPTS(RS_BOOL("notices", "Mention the player whose turn starts"),
          RS_BOOL("trust", "Players may heal, hurt and mark anyone visible")),
     NULL, NULL},

    {"combat", "proposal", ENC_CMD | CMD_F_GM_ONLY | CMD_F_NOT_ACTING,
     GUILD,
     "GM: approve or reject a player's proposal, or list those waiting",
     "/combat proposal approve:1",
     cmd_combat_proposal,
     OPTS(RS_TEXT("approve", false, PROPOSAL_REF_MAX,
                  "The proposal to apply, by number"),
          RS_TEXT("reject", false, PROPOSAL_REF_MAX,
                  "The proposal to turn down, by number")),
     NULL, NULL},

    {"combat", "clock", ENC_CMD | CMD_F_GM_ONLY | CMD_F_NOT_ACTING, GUILD,
     "GM: remind slow turns, tell the GM, move on (play by post)",
     "/combat clock remind:4h act:24h auto:true",
     cmd_combat_clock,
     OPTS(RS_TEXT("remind", false, DUR_MAX_TEXT,
                  "Remind whoever's turn it is after this long: 30m, 4h, 1d"),
          RS_TEXT("act", false, DUR_MAX_TEXT,
                  "Tell the GM after this long without the turn ending"),
          RS_BOOL("auto", "With act: also move the turn on as the system "
                  "allows"),
          RS_BOOL("off", "Switch the clock off")),
     NULL, NULL},

    {"attack", NULL, ENC_CMD, GUILD,
     "Attack a target with your combatant",
     "/attack target:\"Goblin 1\" damage:1d8+3",
     cmd_attack,
     OPTS(RS_WHO("target", false,
                 "Who is attacked (none: pick from a list; several for an "
                 "area attack)"),
          RS_OWN("attacker", false,
                 "Who attacks (default: whose turn it is)"),
          RS_DICE("roll", false,
                  "Attack roll (default: the system's own)"),
          RS_DICE("damage", false, "Damage dice, e.g. 1d8+3"),
          RS_STR("options", false, RS_VAL_ATTACK_OPTS, CMD_MAX_LIST_OPT,
                 "The system's attack options, e.g. \"sneak adv\""),
          RS_STR("with", false, RS_VAL_ATTACK, ENC_MAX_ATTACK_NAME,
                 "A saved attack of the attacker's, e.g. Longsword")),
     NULL, NULL},

    {"character", "create", CMD_F_EPHEMERAL, GUILD,
     "Save a character of yours in this server, to bring into fights",
     "/character create name:Aria system:generic hp:24 "
     "stats:\"ac=15 attack=5\" attack:Longsword damage:1d8+3",
     cmd_character_create,
     OPTS(RS_TEXT("name", true, ENC_MAX_NAME, "Your character's name"),
          RS_STR("system", false, RS_VAL_SYSTEM, ENC_MAX_RS_ID,
                 "Its rule system (default: the one this server plays)"),
          SHEET_EDIT_OPTS),
     NULL, NULL},

    {"character", "set", CMD_F_EPHEMERAL, GUILD,
     "Change your saved character: stats, hp, note, or an attack",
     "/character set name:Aria attack:Bow roll:1d20+4 damage:1d6",
     cmd_character_set,
     OPTS(RS_STR("name", false, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Which character (default: the one you use)"),
          SHEET_EDIT_OPTS,
          RS_BOOL("remove", "With attack: take that attack away")),
     NULL, NULL},

    {"character", "rest", CMD_F_EPHEMERAL, GUILD,
     "Rest a saved character: what lasts until a rest in its rules comes back",
     "/character rest name:Kira",
     cmd_character_rest,
     OPTS(RS_STR("name", false, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Which character (default: the one you use)")),
     NULL, NULL},

    {"character", "show", CMD_F_EPHEMERAL, OWN_IN_SERVER,
     "Show one of your saved characters, with its attacks",
     "/character show name:Aria",
     cmd_character_show,
     OPTS(RS_STR("name", false, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Which character (default: the one you use)")),
     NULL, NULL},

    {"character", "list", CMD_F_EPHEMERAL, OWN_IN_SERVER,
     "List your saved characters in this server",
     "/character list",
     cmd_character_list,
     NO_OPTS,
     NULL, NULL},

    {"character", "delete", CMD_F_EPHEMERAL, GUILD,
     "Delete one of your saved characters (a fight keeps its copy)",
     "/character delete name:Aria",
     cmd_character_delete,
     OPTS(RS_STR("name", true, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Which character")),
     NULL, NULL},

    {"character", "use", CMD_F_EPHEMERAL, GUILD,
     "Choose the character /combat join brings when you name none",
     "/character use name:Aria",
     cmd_character_use,
     OPTS(RS_STR("name", true, RS_VAL_CHARACTER, ENC_MAX_NAME,
                 "Which character")),
     NULL, NULL},

    {"character", "export", CMD_F_EPHEMERAL, GUILD,
     "Your characters in this server as an export file",
     "/character export",
     cmd_character_export,
     EXPORT_OPTS,
     NULL, NULL},

    {"character", "import", CMD_F_EPHEMERAL, GUILD,
     "Add characters to yours in this server from an export file",
     "/character import file:aria.json",
     cmd_character_import,
     IMPORT_OPTS("Overwrite your characters of the same names"),
     NULL, NULL},

    {"npc", "create", CMD_F_EPHEMERAL, GUILD,
     "Template managers: save an NPC template for /combat add template:",
     "/npc create name:Bandit system:generic hp:11 stats:\"ac=12 "
     "attack=3\" attack:Scimitar damage:1d6+1",
     cmd_npc_create,
     OPTS(RS_TEXT("name", true, ENC_MAX_NAME, "The template's name"),
          RS_STR("system", false, RS_VAL_SYSTEM, ENC_MAX_RS_ID,
                 "Its rule system (default: the one this server plays)"),
          SHEET_EDIT_OPTS),
     NULL, NULL},

    {"npc", "save", CMD_F_EPHEMERAL, GUILD,
     "Template managers: keep a combatant of this fight as a template",
     "/npc save from:\"Goblin 1\" name:Goblin",
     cmd_npc_save,
     OPTS(RS_WHO("from", true, "The combatant to copy"),
          RS_TEXT("name", true, ENC_MAX_NAME, "The template's name")),
     NULL, NULL},

    {"npc", "show", CMD_F_EPHEMERAL, GUILD,
     "Template managers: show an NPC template",
     "/npc show name:Bandit",
     cmd_npc_show,
     OPTS(RS_STR("name", true, RS_VAL_TEMPLATE, ENC_MAX_NAME,
                 "Which template")),
     NULL, NULL},

    {"npc", "list", CMD_F_EPHEMERAL, GUILD,
     "Template managers: list this server's NPC templates",
     "/npc list",
     cmd_npc_list,
     NO_OPTS,
     NULL, NULL},

    {"npc", "delete", CMD_F_EPHEMERAL, GUILD,
     "Template managers: delete an NPC template (NPCs made keep theirs)",
     "/npc delete name:Bandit",
     cmd_npc_delete,
     OPTS(RS_STR("name", true, RS_VAL_TEMPLATE, ENC_MAX_NAME,
                 "Which template")),
     NULL, NULL},

    {"npc", "export", CMD_F_EPHEMERAL, GUILD,
     "Template managers: the server's NPC templates as an export file",
     "/npc export",
     cmd_npc_export,
     EXPORT_OPTS,
     NULL, NULL},

    {"npc", "import", CMD_F_EPHEMERAL, GUILD,
     "Template managers: add NPC templates from an export file",
     "/npc import file:bandits.json",
     cmd_npc_import,
     IMPORT_OPTS("Overwrite the templates of the same names"),
     NULL, NULL},

    {"config", NULL, CMD_F_SERVER | CMD_F_EPHEMERAL, GUILD,
     "Server admins: fray's settings for this server",
     "/config gm-channel:#gm-notes",
     cmd_config,
     OPTS({"gm-channel", RS_OPT_CHANNEL, RS_VAL_CHANNEL, false, 0, 0, NULL,
           "Where secret rolls and the GM's copies of hidden results go"},
          RS_BOOL("clear", "Forget the GM channel"),
          RS_STR("systems", false, RS_VAL_SYSTEMS, 120,
                 "The systems this server plays, as generic,teams"),
          RS_BOOL("writeback", "A fight's end updates the saved characters "
                  "in it (default true)"),
          {"npc-role", RS_OPT_ROLE, RS_VAL_TEXT, false, 0, 0, NULL,
           "A role whose members manage NPC templates and server saved rolls"},
          RS_BOOL("clear-npc-role", "Forget that role: Manage Server alone "
                  "manages them again"),
          RS_CHOICE("dice", false, dialect_choices,
                    "Whose dice syntax to read: another bot's, or fray's"),
          RS_CHOICE("proposals", false, on_off_choices,
                    "Changes to others' combatants wait for the GM's "
                    "approval (default on)"),
          RS_CHOICE("proposal-expiry", false, expiry_choices,
                    "When waiting proposals lapse: turn (default), round, "
                    "never"),
          RS_CHOICE("language", false, language_choices,
                    "The language of fray's public messages here (default: "
                    "the server's)"),
          /* the server's own conditions (cmd_srvcond.h) */
          RS_TEXT("condition", false, SRVCOND_NAME_MAX,
                  "Save a condition of the server's own (not a system's)"),
          RS_TEXT("condition-text", false, SRVCOND_DESC_MAX,
                  "With condition: what it does"),
          RS_INT("condition-rounds", false, 0, ENC_MAX_ROUNDS,
                 "With condition: how long it lasts unless the GM says "
                 "(0: until removed)"),
          RS_STR("delete-condition", false, RS_VAL_SERVER_COND,
                 SRVCOND_NAME_MAX, "Delete one of the server's conditions"),
          RS_BOOL("export-conditions", "The server's conditions as an "
                  "export file"),
          RS_FILE("file", false, "Import conditions from an export file "
                  "(a path in the console)"),
          RS_BOOL("replace", "With file: overwrite the conditions of the "
                  "same names")),
     NULL, NULL},

    /* Saved rolls: no fight involved, usable in DMs (cmd_macro.c). */
    {"macro", "save", CMD_F_EPHEMERAL, ANYWHERE,
     "Save a roll under a name; /roll dice:@name rolls it",
     "/macro save name:stealth dice:\"1d20+7 # Stealth\"",
     cmd_macro_save,
     OPTS(RS_TEXT("name", true, CMD_MACRO_NAME_OPT,
                  "Letters, digits and _, starting with a letter"),
          RS_DICE("dice", true, "The dice, with an optional # label"),
          RS_BOOL("server", "Server managers: a saved roll for everyone "
                  "in this server"),
          RS_BOOL("replace", "Change the dice of the saved roll of that "
                  "name")),
     NULL, NULL},

    {"macro", "list", CMD_F_EPHEMERAL, ANYWHERE,
     "Your saved rolls, and this server's",
     "/macro list name:st",
     cmd_macro_list,
     OPTS(RS_STR("name", false, RS_VAL_MACRO, CMD_MACRO_NAME_OPT,
                 "Only those whose name starts with this")),
     NULL, NULL},

    {"macro", "show", CMD_F_EPHEMERAL, ANYWHERE,
     "What a saved roll rolls, and whose it is",
     "/macro show name:stealth",
     cmd_macro_show,
     OPTS(RS_STR("name", true, RS_VAL_MACRO, CMD_MACRO_NAME_OPT,
                 "The saved roll"),
          RS_BOOL("server", "The server's of that name, not your own")),
     NULL, NULL},

    {"macro", "delete", CMD_F_EPHEMERAL, ANYWHERE,
     "Delete a saved roll of yours (server managers: server:true)",
     "/macro delete name:stealth",
     cmd_macro_delete,
     OPTS(RS_STR("name", true, RS_VAL_MACRO, CMD_MACRO_NAME_OPT,
                 "The saved roll"),
          RS_BOOL("server", "Server managers: delete the server's of that "
                  "name")),
     NULL, NULL},

    {"macro", "export", CMD_F_EPHEMERAL, ANYWHERE,
     "Your saved rolls as an export file, to keep or import elsewhere",
     "/macro export",
     cmd_macro_export,
     EXPORT_OPTS,
     NULL, NULL},

    {"macro", "dialect", CMD_F_EPHEMERAL, ANYWHERE,
     "Read your dice as another bot does, in every server",
     "/macro dialect bot:dicemaiden",
     cmd_config_my_dialect,
     OPTS(RS_CHOICE("bot", true, my_dialect_choices,
                    "Whose syntax: another bot's, fray's, or server (the "
                    "server's choice)")),
     NULL, NULL},

    {"macro", "import", CMD_F_EPHEMERAL, ANYWHERE,
     "Add saved rolls from an export file",
     "/macro import file:rolls.json",
     cmd_macro_import,
     IMPORT_OPTS("Overwrite your saved rolls of the same names"),
     NULL, NULL},

    /* A posted roll's message menus on Discord (cmd_menu_label), typed
     * commands on the console (cmd_reroll.c). Not registered, so marked
     * N_() for the catalogs (console :help, /help pages). */
    {"reroll", NULL, 0, ANYWHERE,
     N_("Roll a posted roll's dice again (on Discord: the roll's Reroll "
        "menu)"),
     "/reroll",
     cmd_reroll,
     OPTS(ROLLREC_OPT),
     NULL, NULL},

    {"explain", NULL, CMD_F_EPHEMERAL, ANYWHERE,
     N_("Show privately every die, modifier and the total of a posted "
        "roll"),
     "/explain",
     cmd_explain,
     OPTS(ROLLREC_OPT),
     NULL, NULL},

    {"apply", NULL, ENC_CMD | CMD_F_GM_ONLY, GUILD,
     N_("GM: a posted roll's total as damage to a combatant, by the "
        "system's rules"),
     "/apply target:\"Goblin 1\"",
     cmd_apply,
     OPTS(ROLLREC_OPT,
          RS_STR("target", false, RS_VAL_COMBATANT, ENC_MAX_NAME,
                 N_("Who takes it (none: choose from a list)"))),
     NULL, NULL},

    {"help", NULL, CMD_F_EPHEMERAL, ANYWHERE,
     "How to use fray: topics quickstart, dice, combat, and each system",
     "/help topic:dice",
     cmd_help,
     OPTS(RS_STR("topic", false, RS_VAL_HELP, 32, "What to explain")),
     NULL, NULL},
};

#define NCORE (sizeof table / sizeof table[0])

/* The commands Discord shows as a message's context menu (MESSAGE
 * commands, registered by these names) rather than as slash commands. */
static const struct {
    const char *command, *label;
} menus[] = {
    {"reroll", CMD_MENU_REROLL},
    {"explain", CMD_MENU_EXPLAIN},
    {"apply", CMD_MENU_APPLY},
};

const char *cmd_menu_label(const char *command)
{
    for (size_t i = 0; i < sizeof menus / sizeof menus[0]; i++)
        if (strcmp(menus[i].command, command) == 0)
            return menus[i].label;
    return NULL;
}

const char *cmd_menu_command(const char *label)
{
    for (size_t i = 0; i < sizeof menus / sizeof menus[0]; i++)
        if (strcmp(menus[i].label, label) == 0)
            return menus[i].command;
    return NULL;
}

const struct cmd_spec *cmd_table(size_t *n)
{
    *n = NCORE;
    return table;
}

/* The view of ruleset command rc of system s. */
static void rs_view(const struct rs_system *s, const struct rs_cmd *rc,
                    struct cmd_spec *out)
{
    *out = (struct cmd_spec){
        .command = rc->verb,
        .sub = rc->sub,
        .flags = CMD_F_NEEDS_ENC |
                 ((rc->flags & RS_CMD_READONLY) ? 0u : CMD_F_MUTATES) |
                 ((rc->flags & RS_CMD_GM_ONLY) ? CMD_F_GM_ONLY : 0u) |
                 ((rc->flags & RS_CMD_EPHEMERAL) ? CMD_F_EPHEMERAL : 0u),
        .contexts = CMD_CTX_GUILD,
        .help = rc->help,
        .example = rc->example,
        .handler = cmd_rs_action,
        .opts = rc->opts,
        .rs = s,
        .rcmd = rc,
    };
}

size_t cmd_list(struct cmd_spec *out, size_t max)
{
    size_t n = 0, nrs;
    for (size_t i = 0; i < NCORE && n < max; i++)
        out[n++] = table[i];
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t k = 0; k < nrs; k++)
        for (int i = 0; i < all[k]->ncmds && n < max; i++)
            rs_view(all[k], &all[k]->cmds[i], &out[n++]);
    return n;
}

/* Whether a and b are the same name but for ASCII case, the first bytes
 * tested before the call: every command scans these tables, and most of
 * their names differ there. Equal but for case means the first bytes
 * agree once 0x20 is set. */
static bool name_eq(const char *a, const char *b)
{
    return ((unsigned char)a[0] | 0x20) == ((unsigned char)b[0] | 0x20) &&
           eng_text_casecmp(a, b) == 0;
}

bool cmd_lookup(const char *command, const char *sub,
                const struct rs_system *rs, struct cmd_spec *out)
{
    if (command == NULL)
        return false;
    for (size_t i = 0; i < NCORE; i++) {
        const struct cmd_spec *s = &table[i];
        if (!name_eq(s->command, command))
            continue;
        if ((s->sub == NULL && (sub == NULL || sub[0] == '\0')) ||
            (s->sub != NULL && sub != NULL &&
             eng_text_casecmp(s->sub, sub) == 0)) {
            *out = *s;
            return true;
        }
    }
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < nrs; k++) {
            /* The fight's own system first, then any. */
            if ((pass == 0) != (all[k] == rs))
                continue;
            const struct rs_cmd *rc = rs_cmd_find(all[k], command, sub);
            if (rc != NULL) {
                rs_view(all[k], rc, out);
                return true;
            }
        }
    return false;
}

/* Whether some command is called command (with a subcommand when
 * need_sub). */
static bool any_named(const char *command, bool need_sub)
{
    /* Every command runs through here: read the tables, build no views. */
    for (size_t i = 0; i < NCORE; i++)
        if ((!need_sub || table[i].sub != NULL) &&
            name_eq(table[i].command, command))
            return true;
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t k = 0; k < nrs; k++)
        for (int i = 0; i < all[k]->ncmds; i++)
            if ((!need_sub || all[k]->cmds[i].sub != NULL) &&
                name_eq(all[k]->cmds[i].verb, command))
                return true;
    return false;
}

bool cmd_exists(const char *command)
{
    return any_named(command, false);
}

bool cmd_has_subs(const char *command)
{
    return any_named(command, true);
}

const char *cmd_spec_name(const struct cmd_spec *spec, char *buf, size_t n)
{
    if (spec->sub != NULL)
        snprintf(buf, n, "/%s %s", spec->command, spec->sub);
    else
        snprintf(buf, n, "/%s", spec->command);
    return buf;
}

static const struct rs_opt_spec *opt_in(const struct rs_opt_spec *opts,
                                        const char *name)
{
    for (int i = 0; opts != NULL && opts[i].name != NULL; i++)
        if (eng_text_casecmp(opts[i].name, name) == 0)
            return &opts[i];
    return NULL;
}

/* Append src at *at in buf of size n, cut to fit; keeps it terminated. */
static void key_put(char *buf, size_t n, size_t *at, const char *src)
{
    size_t len = strlen(src);
    if (len > n - 1 - *at)
        len = n - 1 - *at;
    memcpy(buf + *at, src, len);
    *at += len;
    buf[*at] = '\0';
}

void cmd_core_key(const struct cmd_spec *spec, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    key_put(buf, n, &at, spec->command);
    if (spec->sub != NULL) {
        key_put(buf, n, &at, " ");
        key_put(buf, n, &at, spec->sub);
    }
}

const struct rs_system *cmd_ext_owner(const struct cmd_spec *spec,
                                      const char *name)
{
    if (spec->rs != NULL || opt_in(spec->opts, name) != NULL)
        return NULL;
    char key[64];
    cmd_core_key(spec, key, sizeof key);
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t k = 0; k < nrs; k++)
        if (opt_in(rs_ext_opts(all[k], key), name) != NULL)
            return all[k];
    return NULL;
}

const struct rs_opt_spec *cmd_spec_opt(const struct cmd_spec *spec,
                                       const char *name)
{
    const struct rs_opt_spec *o = opt_in(spec->opts, name);
    if (o != NULL)
        return o;
    size_t nrs;
    const struct rs_system *const *all = rs_all(&nrs);
    if (spec->rs != NULL) {
        /* Another system's command of the same verb may have it. */
        for (size_t k = 0; k < nrs; k++) {
            const struct rs_cmd *rc = rs_cmd_find(all[k], spec->command,
                                                  spec->sub);
            if (rc != NULL && (o = opt_in(rc->opts, name)) != NULL)
                return o;
        }
        return NULL;
    }
    char key[64];
    cmd_core_key(spec, key, sizeof key);
    for (size_t k = 0; k < nrs; k++)
        if ((o = opt_in(rs_ext_opts(all[k], key), name)) != NULL)
            return o;
    return NULL;
}

size_t cmd_merge_opts(const struct rs_opt_spec *const *lists, size_t nlists,
                      struct rs_opt_spec *out, size_t max, bool *conflict)
{
    size_t n = 0;
    *conflict = false;
    for (size_t l = 0; l < nlists; l++)
        for (int i = 0; lists[l] != NULL && lists[l][i].name != NULL; i++) {
            const struct rs_opt_spec *o = &lists[l][i];
            size_t k = 0;
            while (k < n && eng_text_casecmp(out[k].name, o->name) != 0)
                k++;
            if (k < n) {
                if (out[k].type != o->type)
                    *conflict = true;
                /* Required only where every system requires it; the
                 * fight's own system checks its own rule. */
                out[k].required = out[k].required && o->required;
                if (out[k].val != o->val || out[k].choices != o->choices) {
                    out[k].choices = NULL;
                    if (out[k].val == RS_VAL_CHOICE)
                        out[k].val = RS_VAL_TEXT;
                }
                if (o->min < out[k].min)
                    out[k].min = o->min;
                if (o->max > out[k].max)
                    out[k].max = o->max;
                continue;
            }
            if (n == max) {
                *conflict = true;
                return n;
            }
            out[n++] = *o;
        }
    /* Required only where every list has it and requires it: a system
     * that lacks the option cannot require it. */
    for (size_t k = 0; k < n; k++) {
        size_t have = 0;
        for (size_t l = 0; l < nlists; l++)
            for (int i = 0; lists[l] != NULL && lists[l][i].name != NULL;
                 i++)
                if (eng_text_casecmp(lists[l][i].name, out[k].name) == 0) {
                    have++;
                    break;
                }
        if (have < nlists)
            out[k].required = false;
    }
    return n;
}

size_t cmd_core_opts(const struct cmd_spec *spec, struct rs_opt_spec *out,
                     size_t max, bool *conflict)
{
    const struct rs_opt_spec *lists[1 + 16];
    size_t nl = 0, nrs;
    lists[nl++] = spec->opts;
    char key[64];
    cmd_core_key(spec, key, sizeof key);
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t k = 0; k < nrs && nl < sizeof lists / sizeof lists[0]; k++) {
        const struct rs_opt_spec *x = rs_ext_opts(all[k], key);
        if (x != NULL)
            lists[nl++] = x;
    }
    size_t n = cmd_merge_opts(lists, nl, out, max, conflict);
    /* The command's own options keep their own rule; what a system adds
     * is never required of the others' fights. */
    for (size_t k = 0; k < n; k++) {
        const struct rs_opt_spec *own = opt_in(spec->opts, out[k].name);
        out[k].required = own != NULL && own->required;
    }
    return n;
}
