/*
 * eng_limits.h - every limit the engine enforces, in one place.
 *
 * Each limit is a hard ceiling checked once, at entry, before any work, and
 * reported with a message that states it ("too many dice (limit is 1000)").
 * Settings may lower a limit, never raise it. Module owners add their limits
 * under their own heading.
 */
#ifndef ENG_LIMITS_H
#define ENG_LIMITS_H

/* ---- dice (dice_*.c) ---------------------------------------------------- */

/* Longest expression, in bytes. Bounds lexer work and keeps an error caret on
 * one Discord line. */
#define DICE_MAX_EXPR_LEN 256
/* Parenthesis and unary nesting: the parser recurses on the C stack. */
#define DICE_MAX_DEPTH 32
/* Terms (numbers and dice groups) in one expression. */
#define DICE_MAX_TERMS 64
/* Dice rolled for one expression, counting every reroll and explosion. */
#define DICE_MAX_DICE 1000
/* Faces on one die. */
#define DICE_MAX_SIDES 10000
/* Times one die may explode in a chain; the chain then simply stops. */
#define DICE_MAX_EXPLODE 100
/* Times rN may reroll one die before its face stands (roN rerolls once). */
#define DICE_MAX_REROLL 100
/* Repeat prefix: "6x 4d6kh3". */
#define DICE_MAX_REPEAT 20
/* Label after '#', in bytes. */
#define DICE_MAX_LABEL 100

_Static_assert(DICE_MAX_DEPTH <= 64, "the dice parser recurses on the C stack");

/* ---- encounters (enc_*.c, turn_*.c, rs_*.c) ----------------------------- */

/* Combatants in one encounter. Large enough for a big battle, small enough
 * that a tracker stays readable and every scan of the list is cheap. */
#define ENC_MAX_COMBATANTS 64
/* Combatant name, in bytes (UTF-8). */
#define ENC_MAX_NAME 64
/* count:N on /combat add. */
#define ENC_MAX_COUNT 20
/* Sides (factions, teams) in one encounter. */
#define ENC_MAX_SIDES 8
/* Side name, in bytes. */
#define ENC_MAX_SIDE_NAME 32
/* Named stats on one combatant. */
#define ENC_MAX_STATS 24
/* Stat and track name, in bytes. */
#define ENC_MAX_STAT_NAME 24
/* Tracks (hp, endurance, ...) on one combatant. */
#define ENC_MAX_TRACKS 8
/* Conditions on one combatant. */
#define ENC_MAX_CONDITIONS 16
/* Condition name, in bytes. */
#define ENC_MAX_COND_NAME 32
/* Duration of a condition, in rounds. */
#define ENC_MAX_ROUNDS 1000
/* Note on a combatant, in bytes. */
#define ENC_MAX_NOTE 200
/* Encounter name, in bytes. */
#define ENC_MAX_ENC_NAME 64
/* Encounter settings ("key=value ..."), in pairs. */
#define ENC_MAX_SETTINGS 16
/* Largest magnitude of any stat, track or hp value. */
#define ENC_MAX_VALUE 1000000
/* Undo depth: versions of an encounter kept on disk. */
#define ENC_UNDO_DEPTH 50
/* Saved attacks (a character's weapons) one combatant carries into a
 * fight, for /attack with:. */
#define ENC_MAX_ATTACKS 8
/* An attack's name, in bytes. */
#define ENC_MAX_ATTACK_NAME 32
/* An attack's roll or damage as /attack takes it, in bytes: a weapon's
 * dice ("2d6+3 #fire"), far below what the dice language allows, so a
 * combatant's attacks stay small in every copy of the fight. */
#define ENC_MAX_ATTACK_EXPR 48
/* An attack's options (the system's /attack tokens), in bytes. */
#define ENC_MAX_ATTACK_OPTS 96
/* Resources (legendary actions, slots) one combatant carries: a
 * monster's few, kept small because every copy of the fight holds them. */
#define ENC_MAX_RES 6
/* A resource's name, in bytes. */
#define ENC_MAX_RES_NAME 24
/* A resource's largest maximum: counts a table spends by hand. */
#define ENC_MAX_RES_VALUE 99
/* Countdowns one fight runs (enc_cd.h): a scene's few clocks; every copy
 * of the fight holds them, though only the used ones are copied. */
#define ENC_MAX_COUNTDOWNS 8
/* A countdown's name, in bytes: what is announced when it runs out ("The
 * bridge falls"), short enough for one tracker line on a phone. */
#define ENC_MAX_CD_NAME 40
/* A countdown's largest count, in rounds or turns. */
#define ENC_MAX_CD_COUNT 99
/* Events of the order (/combat event, enc_entry.h) one fight holds: a
 * lair, a hazard or two and a few one-shots; kept in the encounter, and
 * copied only as far as used. */
#define ENC_MAX_ENTRIES 8
/* An event's name, in bytes: a short label for the tracker row. */
#define ENC_MAX_ENTRY_NAME 32
/* An event's note, said when it comes up, in bytes. */
#define ENC_MAX_ENTRY_NOTE 200
/* An event's dice, in bytes: one expression as an attack's. */
#define ENC_MAX_ENTRY_DICE 48
/* One change's line in the fight's history (the first line of what
 * happened), in bytes; a longer one is kept to this with an ellipsis. */
#define ENC_MAX_CHANGE_TEXT 160

#endif
