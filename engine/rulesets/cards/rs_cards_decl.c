/*
 * rs_cards_decl.c - everything the `cards` system declares about itself:
 * commands, options on core commands and /attack, conditions, settings,
 * stats, its typed state, help and the descriptor (rs.h).
 */
#include <stddef.h>

#include "rs_cards.h"

/* ---- commands ------------------------------------------------------------ */

/* Choices are in the order of the enums they are read into. */
static const char *const cards_test_maneuvers[] = {
    "slow", "fast", "reaction", "none", NULL,
};
static const char *const cards_maneuver_kinds[] = {
    "slow", "fast", "shout", NULL,
};
static const char *const cards_react_kinds[] = {
    "dodge", "parry", "breakfree", "hold", "chase", "resist", "other", NULL,
};
static const char *const cards_positions[] = {
    "controlled", "risky", "desperate", NULL,
};

#define CARDS_POOL RS_INT("pool", false, 0, CARDS_MAX_POOL, \
                          "Dice in the pool (default: from the skill)")
#define CARDS_SKILL(help) RS_TEXT("skill", false, CARDS_MAX_SKILL, help)

static const struct rs_cmd cards_cmds[] = {
    {"swap", NULL, RS_CMD_RUNNING,
     "Swap initiative cards: two PCs, or a swap won with extra successes",
     "/swap a:Ana b:Bo",
     cards_do_swap,
     {RS_OWN("a", true, "Who swaps"),
      RS_WHO("b", true, "With whom"),
      RS_INT("card", false, 1, CARDS_DECK, "Which of b's cards to take"),
      RS_INT("give", false, 1, CARDS_DECK, "Which of a's cards to give"),
      RS_OPT_END}},
    {"ambush", NULL, RS_CMD_GM_ONLY,
     "GM: the ambushers' Sneak test for an extra initiative draw",
     "/ambush side:Bandits name:\"Bandit 1\" watch:3",
     cards_do_ambush,
     {RS_SIDE("side", true, "The ambushing side"),
      RS_WHO("name", false, "Who sneaks, for the whole side"),
      CARDS_POOL, CARDS_SKILL("The sneak skill (default sneak)"),
      RS_INT("watch", false, 0, CARDS_MAX_POOL,
             "The watchers' Track or Read dice"),
      RS_WHO("against", false, "Who watches (their stat is rolled)"),
      RS_TEXT("watch_skill", false, CARDS_MAX_SKILL,
              "The watcher's skill (default track)"),
      RS_BOOL("auto", "The Director grants the extra draw without a test"),
      RS_OPT_END}},
    {"test", NULL, 0,
     "Roll a pool test and count successes",
     "/test name:Ana skill:finesse need:2",
     cards_do_test,
     {RS_OWN("name", true, "Who tests"),
      CARDS_POOL, CARDS_SKILL("The skill (its stat gives the pool)"),
      RS_DICE("roll", false, "Your own dice instead, counted as they fall"),
      RS_INT("need", false, 1, CARDS_MAX_NEED, "Successes needed"),
      RS_INT("bonus", false, -CARDS_MAX_POOL, CARDS_MAX_POOL,
             "Dice added or taken away"),
      RS_CHOICE("maneuver", false, cards_test_maneuvers,
                "The maneuver it uses (default none)"),
      RS_BOOL("harm", "Harm takes dice away (default true)"),
      RS_TEXT("label", false, CARDS_MAX_LABEL, "What the test is for"),
      RS_OPT_END}},
    {"maneuver", NULL, RS_CMD_RUNNING,
     "Spend a maneuver on something else: slow, fast, or a shout",
     "/maneuver name:Ana kind:fast label:\"draw sword\"",
     cards_do_maneuver,
     {RS_OWN("name", true, "Who"),
      RS_CHOICE("kind", false, cards_maneuver_kinds,
                "slow, fast (the default) or shout"),
      RS_TEXT("label", false, CARDS_MAX_LABEL, "What it is"),
      RS_OPT_END}},
    {"react", NULL, RS_CMD_RUNNING,
     "Use a reaction (a fast maneuver) any time in the round",
     "/react name:Bo kind:dodge against:Ana",
     cards_do_react,
     {RS_OWN("name", true, "Who reacts"),
      RS_CHOICE("kind", true, cards_react_kinds, "Which reaction"),
      RS_WHO("against", false, "Whose attack or flight it answers"),
      CARDS_POOL, CARDS_SKILL("The skill (default: the reaction's)"),
      RS_BOOL("unarmed", "A parry without a weapon (Force)"),
      RS_INT("need", false, 1, CARDS_MAX_NEED,
             "resist: successes needed"),
      RS_TEXT("label", false, CARDS_MAX_LABEL, "other: what it is"),
      RS_OPT_END}},
    {"flee", NULL, RS_CMD_RUNNING,
     "Try to flee the fight (a slow maneuver)",
     "/flee name:Ana skill:sneak",
     cards_do_flee,
     {RS_OWN("name", true, "Who flees"),
      CARDS_POOL, CARDS_SKILL("The skill (default finesse)"),
      RS_OPT_END}},
    {"fear", NULL, RS_CMD_GM_ONLY,
     "GM: a fear test (Endure) against a fear value",
     "/fear name:Ana value:2 position:risky",
     cards_do_fear,
     {RS_WHO("name", true, "Who is afraid"),
      RS_INT("value", true, 1, CARDS_MAX_NEED,
             "The fear value: successes needed"),
      RS_CHOICE("position", true, cards_positions, "How bad it is"),
      RS_INT("allies", false, 0, ENC_MAX_COMBATANTS,
             "Player characters present, the one afraid too (default: "
             "counted)"),
      CARDS_POOL, CARDS_SKILL("The skill (default endure)"),
      RS_OPT_END}},
    {"hazard", "fire", RS_CMD_GM_ONLY,
     "GM: someone catches fire, the fire changes, or it goes out",
     "/hazard fire name:Ana intensity:3 need:2",
     cards_do_fire,
     {RS_WHO("name", true, "Who burns"),
      RS_INT("intensity", false, 1, CARDS_MAX_INTENSITY,
             "How fierce the fire is: its damage each round"),
      RS_INT("need", false, 1, CARDS_MAX_NEED,
             "Finesse successes to put it out (default 1)"),
      RS_BOOL("out", "The fire goes out"),
      RS_OPT_END}},
    {"hazard", "poison", RS_CMD_GM_ONLY,
     "GM: poison against Endure, or an antidote",
     "/hazard poison name:Ana toxicity:6",
     cards_do_poison,
     {RS_WHO("name", true, "Who is poisoned"),
      RS_INT("toxicity", false, 1, CARDS_MAX_TOXICITY,
             "The poison's dice: 3 weak, 6 strong, 9 extreme"),
      RS_BOOL("antidote", "An antidote ends it"),
      CARDS_POOL, CARDS_SKILL("The skill (default endure)"),
      RS_OPT_END}},
    {"hazard", "fall", RS_CMD_GM_ONLY,
     "GM: someone falls from a height",
     "/hazard fall name:Ana feet:20",
     cards_do_fall,
     {RS_WHO("name", true, "Who falls"),
      RS_INT("feet", false, 0, CARDS_MAX_FALL, "How far they fall"),
      RS_BOOL("soft", "Onto something soft"),
      CARDS_POOL, CARDS_SKILL("The skill (default endure)"),
      RS_OPT_END}},
    {"extinguish", NULL, RS_CMD_RUNNING,
     "Put out a fire on oneself: a slow Finesse test, successes add up",
     "/extinguish name:Ana",
     cards_do_extinguish,
     {RS_OWN("name", true, "Who burns"),
      CARDS_POOL, CARDS_SKILL("The skill (default finesse)"),
      RS_OPT_END}},
};

static const struct rs_ext cards_exts[] = {
    {"combat begin",
     {RS_SIDE("surprise", false, "The side that ambushes: it draws an "
              "extra card, no test"),
      RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_opt_spec cards_attack_opts[] = {
    RS_FLAG("strike", "Roll Strike: a melee weapon (the default)"),
    RS_FLAG("force", "Roll Force: an unarmed attack"),
    RS_FLAG("shoot", "Roll Shoot: a ranged attack, which a parry cannot stop"),
    RS_FLAG("cast", "Roll Cast: magic"),
    RS_FLAG("grapple", "Wrestle (Force): a hit holds the target, no Harm"),
    RS_FLAG("mouth", "With grapple: an extra success covers the mouth"),
    RS_FLAG("swap", "Spend an extra success to force a swap of cards"),
    RS_FLAG("mental", "The Harm is Mental Harm"),
    RS_FLAG("free", "GM: no maneuver is spent; at any time"),
    RS_TEXT("range", false, CARDS_MAX_RANGE,
            "The weapon's range in zones: 0-1, 1-3"),
    RS_INT("distance", false, 0, CARDS_MAX_ZONE,
           "Zones to the target, when zone stats do not tell"),
    RS_INT("need", false, 1, CARDS_MAX_NEED,
           "Successes needed to hit (default 1)"),
    RS_INT("extra", false, 0, CARDS_MAX_POOL,
           "Extra successes that become Harm (default all)"),
    RS_INT("bonus", false, -CARDS_MAX_POOL, CARDS_MAX_POOL,
           "Dice added or taken away"),
    RS_OPT_END,
};

/* ---- conditions, settings, stats ----------------------------------------- */

static const struct rs_cond_spec cards_conds[] = {
    {CARDS_HELD, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("restrained by whoever gave it: only parries, breaks free or shouts")},
    {CARDS_SILENCED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("the mouth is covered: cannot shout or talk a swap over")},
    {CARDS_BURNING, RS_COND_VALUE, 0, 0, 0, ENC_EXPIRE_END,
     N_("on fire (the value is its intensity): 1 Physical Harm when caught, "
        "then intensity less Endure successes each round")},
    {CARDS_POISONED, RS_COND_SYSTEM, 0, 0, 0, ENC_EXPIRE_END,
     N_("the poison gives one Harm fewer each round (/hazard poison)")},
    {CARDS_FLED, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("has left the fight: its turns are skipped")},
    {CARDS_SEVERE, 0, 0, 0, 0, ENC_EXPIRE_END,
     N_("does not count towards anyone's fear test")},
};

static const struct rs_setting_spec cards_settings[] = {
    {"die", RS_SET_INT, 2, CARDS_MAX_DIE, NULL, "6",
     N_("the pool die: how many sides it has")},
    {"success", RS_SET_INT, 1, CARDS_MAX_DIE, NULL, "6",
     N_("the lowest face that counts as a success")},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

/* help is the whole phrase ("dice of ..."): one catalog message each. */
#define CARDS_SKILL_STAT(n, help) {n, RS_STAT, 0, CARDS_MAX_POOL, help}

static const struct rs_stat_spec cards_stats[] = {
    CARDS_SKILL_STAT("force",
                     N_("dice of Force: unarmed attacks, wrestling, holds")),
    CARDS_SKILL_STAT("strike", N_("dice of Strike: melee weapons, parries")),
    CARDS_SKILL_STAT("shoot", N_("dice of Shoot: ranged weapons")),
    CARDS_SKILL_STAT("finesse",
                     N_("dice of Finesse: dodging, fleeing, chasing")),
    CARDS_SKILL_STAT("sneak", N_("dice of Sneak: ambushes, fleeing unseen")),
    CARDS_SKILL_STAT("endure",
                     N_("dice of Endure: fear, fire, poison, falls")),
    CARDS_SKILL_STAT("track",
                     N_("dice of Track: spotting an ambush, chasing")),
    CARDS_SKILL_STAT("read", N_("dice of Read: surveying the situation")),
    CARDS_SKILL_STAT("cast", N_("dice of Cast: magic")),
    CARDS_SKILL_STAT("persuade", N_("dice of Persuade: swaying with words")),
    CARDS_SKILL_STAT("intimidate", N_("dice of Intimidate: luring an enemy")),
    {"damage", RS_STAT, 0, CARDS_MAX_DAMAGE,
     N_("the weapon's damage, in Harm")},
    {"cards", RS_STAT, 1, CARDS_MAX_HELD,
     N_("initiative cards it holds: a turn on each")},
    {"zone", RS_STAT, 0, CARDS_MAX_ZONE, N_("the zone it stands in")},
    {"hp", RS_STAT, 0, ENC_MAX_VALUE,
     N_("Harm it takes before it is out (the harm track's maximum)")},
    /* CARDS_HARM and CARDS_MENTAL, written out for the catalogs */
    {NC_("cards track", "harm"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("Physical Harm")},
    {NC_("cards track", "mental"), RS_TRACK, 0, ENC_MAX_VALUE,
     N_("Mental Harm")},
    {NULL, RS_STAT, 0, 0, NULL},
};

/* ---- typed state ----------------------------------------------------------- */

/* legacy: the slot (+ 1) each field had before typed state. The pool die
 * and success face were slots 0 and 1 and are settings now (they were
 * stored as settings too); fire's intensity (slot 9) is its Burning
 * condition's value, which the same fights carry. */
static const struct rs_field cards_enc_fields[] = {
    RS_FIELD(struct cards_enc, round_acted, RS_F_BOOL, 3),
    RS_FIELD(struct cards_enc, ambush_side, RS_F_I32, 4),
    RS_FIELD(struct cards_enc, ambush_result, RS_F_I32, 5),
    RS_FIELD(struct cards_enc, ambush_bonus, RS_F_I32, 6),
    RS_FIELD(struct cards_enc, offer_a, RS_F_U32, 7),
    RS_FIELD(struct cards_enc, offer_b, RS_F_U32, 8),
    RS_FIELD(struct cards_enc, offer_round, RS_F_I32, 9),
};

/* turn_slow and turn_fast are new: a fight saved in the middle of a turn
 * counts that turn's maneuvers from its reload (the round's still hold). */
static const struct rs_field cards_comb_fields[] = {
    RS_FIELD(struct cards_comb, slow, RS_F_I32, 1),
    RS_FIELD(struct cards_comb, fast, RS_F_I32, 2),
    RS_FIELD(struct cards_comb, played, RS_F_I32, 3),
    RS_FIELD(struct cards_comb, def_succ, RS_F_I32, 4),
    RS_FIELD(struct cards_comb, def_kind, RS_F_I32, 5),
    RS_FIELD(struct cards_comb, def_vs, RS_F_U32, 6),
    RS_FIELD(struct cards_comb, swap_vs, RS_F_U32, 7),
    RS_FIELD(struct cards_comb, first_bonus, RS_F_I32, 8),
    RS_FIELD(struct cards_comb, next_bonus, RS_F_I32, 9),
    RS_FIELD(struct cards_comb, fire_need, RS_F_I32, 11),
    RS_FIELD(struct cards_comb, fire_saved, RS_F_I32, 12),
    RS_FIELD(struct cards_comb, fire_round, RS_F_I32, 13),
    RS_FIELD(struct cards_comb, poison_left, RS_F_I32, 14),
    RS_FIELD(struct cards_comb, poison_round, RS_F_I32, 15),
    RS_FIELD(struct cards_comb, break_seq, RS_F_I64, 16),
    RS_FIELD(struct cards_comb, turn_slow, RS_F_I32, 0),
    RS_FIELD(struct cards_comb, turn_fast, RS_F_I32, 0),
};

#define CARDS_N(a) ((int)(sizeof a / sizeof a[0]))

/* ---- help and the descriptor ----------------------------------------------- */

static const struct rs_help cards_help = {
    .kind = N_("Everyone draws an initiative card from 1 to 10 and keeps "
               "it for the whole fight: the lowest card acts first, in the "
               "same order every round. Tests roll pools of d6 and count the "
               "sixes; each point of Harm takes a die away."),
    .turns = N_("A turn is one slow and one fast maneuver, or two fast ones "
                "(`/attack`, `/maneuver`, `/test maneuver:`); a creature with "
                "several cards gets that on each card's turn. Reactions "
                "(`/react`) are fast maneuvers used any time in the round, "
                "before or after one's turn. `/combat next` ends the turn. "
                "A condition timed on someone's turn (`/combat condition "
                "until:`) counts each of their cards as a turn."),
    .attacks = N_("`/attack` is a slow maneuver: the attacker's pool "
                  "(Strike unless options: say otherwise) counts successes, "
                  "and a dodge or parry readied with `/react` takes one off "
                  "for each of its own. One success left hits for the "
                  "weapon's damage in Harm; each extra success adds one "
                  "Harm, or buys a swap of cards (`options:swap`)."),
    .clock = N_("When `/combat clock` runs out with `auto:true`, the "
                "creature loses the turn of the card that is up and play goes "
                "on with the next card; its other cards, and this card next "
                "round, keep their turns."),
};

static const struct rs_ops cards_ops = {
    .version = RS_OPS_VERSION,
    .setup = cards_setup,             /* harm and mental tracks; hp = limit */
    .check_stat = cards_check_stat,   /* cards fixed once dealt */
    .setting = cards_setting,         /* success within the die */
    .begin = cards_begin,             /* deal the deck, lowest card first */
    .next = cards_next,               /* first card not played this round */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = cards_attack,           /* pool vs dodge/parry, Harm */
    .late_join = cards_late_join,     /* draws from what is left */
    .after_track = cards_after_track, /* Harm at its limit: out */
    .status = cards_status,           /* cards, maneuvers left, fire */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: rs_cards_decl.c */
    .cond_changed = cards_cond_changed, /* catching fire, fleeing */
    .timeout = cards_timeout,         /* that card's turn is lost */
};

/* Stats are open: the chapter names the skills a fight uses, but a group
 * plays the game's whole skill list (and its own), and any stat can be
 * rolled as a pool with skill:. The declared ones are bounded. */
/* Harm counts up on its two tracks. */
static const struct rs_harm_spec cards_harm[] = {
    {CARDS_HARM, true}, {CARDS_MENTAL, true}, {NULL, false},
};

/* Counts the rules keep: never a resource of the same name (enc_res.h). */
static const struct rs_kept cards_kept[] = {
    {"slow", N_("each card brings one slow maneuver (/maneuver)")},
    {"fast", N_("each card brings one fast maneuver (/maneuver)")},
    {"maneuvers",
     N_("each card brings one slow and one fast maneuver (/maneuver)")},
    {"reaction", N_("a reaction spends a fast maneuver (/react)")},
    {"reactions", N_("a reaction spends a fast maneuver (/react)")},
    {NULL, NULL},
};

/* Where events of the order (/combat event) go here. */
static const struct rs_entry_spec cards_entries = {
    .counts = true,
    .low_first = true,
    .lo = 1,
    .hi = 10,
    .unique = true,             /* one deck: a hazard's card is its own */
    .hazard_roll = NULL,        /* it draws instead */
    .lair_at = 0,               /* at the start of the round */
    .why = N_("everyone involved draws a card, so a hazard draws its own "
              "from the deck (or takes a free one with at:) and acts on it, "
              "lowest first; other events go at the start of the round, "
              "where the chapter's fire burns, or at its end"),
};

const struct rs_system rs_cards = {
    .version = RS_SYSTEM_VERSION,
    .id = "cards",
    .title = N_("Initiative cards"),
    .summary = N_("cards 1-10, lowest first; one slow and one fast maneuver; "
                  "d6 pools count 6s; Harm takes dice away"),
    .flags = RS_F_OPEN_STATS,
    .ops = &cards_ops,
    .help = &cards_help,
    .cmds = cards_cmds,
    .ncmds = CARDS_N(cards_cmds),
    .exts = cards_exts,
    .attack_opts = cards_attack_opts,
    .conds = cards_conds,
    .nconds = CARDS_N(cards_conds),
    .settings = cards_settings,
    .stats = cards_stats,
    .kept = cards_kept,
    .enc_state = {sizeof(struct cards_enc), cards_enc_fields,
                  CARDS_N(cards_enc_fields)},
    .side_state = {0, NULL, 0},
    .comb_state = {sizeof(struct cards_comb), cards_comb_fields,
                   CARDS_N(cards_comb_fields)},
    .rank = 50,
    .harm = cards_harm,
    .entries = &cards_entries,
};
