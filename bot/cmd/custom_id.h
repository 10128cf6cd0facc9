/*
 * custom_id.h - the custom_id of our buttons and select menus: which
 * command a click runs, on which fight and which version of it.
 *
 * The format (the one place it is defined; the commands build ids with
 * custom_id_make(), discord/interaction.c parses a component's with
 * custom_id_parse()):
 *
 *     v2:<command>[/<sub>]:<fight>.<version>[:<arg>]
 *
 *   command, sub  names from the command table ([a-z0-9_-], <= 32 bytes)
 *   fight         the fight the message belongs to (struct encounter
 *                 fight_id, decimal); becomes req.expect_fight, so a button
 *                 left over from an earlier fight in the channel does
 *                 nothing to the next one
 *   version       the encounter version the message showed (decimal >= 0);
 *                 becomes req.expect_version, so a click on a stale tracker
 *                 is refused instead of applied to a newer state
 *   arg           buttons: "name=value" sets one option;
 *                 selects: "name": the chosen value fills that option;
 *                 a picker's select: "name:p1=v1&p2=v2...": the chosen
 *                 value fills name, and each preset option pk is vk (the
 *                 attacker a private picker was drawn for, the damage:
 *                 typed with it); '%' and '&' in a value are written
 *                 %25 and %26
 *
 *   e.g. "v2:combat/next:17.42", "v2:attack:17.42:target" (a select),
 *        "v2:combat/remove:17.7:name=Goblin 2"
 *
 *   A picker (a private select that offers what a typed command would
 *   take) is drawn for a fight, not a version: its version is "*"
 *   (CUSTOM_ID_ANY_VERSION), and the command checks the fight's current
 *   state as if typed: "v2:attack:17.*:target:attacker=Aria&damage=d6".
 *
 *   Buttons drawn before fights had ids read "v1:<command>[/<sub>]:
 *   <version>[:<arg>]"; they parse with fight 0, which only a fight that
 *   started before then has.
 *   The whole id is at most CUSTOM_ID_MAX (100) bytes.
 *
 * Ownership: arguments are borrowed; results are copied into the caller's
 * buffers. No state.
 */
#ifndef CUSTOM_ID_H
#define CUSTOM_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUSTOM_ID_MAX 100
#define CUSTOM_ID_NAME_MAX 32            /* command, sub, option names */
#define CUSTOM_ID_PREFIX "v2"
#define CUSTOM_ID_OLD "v1"
/* The version of a picker's id: any version of its fight ("*"). */
#define CUSTOM_ID_ANY_VERSION (-2)
/* Options a picker's id presets at most (/attack: attacker, roll,
 * damage, options, with). */
#define CUSTOM_ID_MAX_PRESETS 5

struct custom_id {
    char command[CUSTOM_ID_NAME_MAX + 1];
    char sub[CUSTOM_ID_NAME_MAX + 1];       /* "" when none */
    uint64_t fight;                         /* 0 in an old (v1) id */
    int64_t version;
    char opt_name[CUSTOM_ID_NAME_MAX + 1];  /* "" when no arg */
    char opt_value[CUSTOM_ID_MAX + 1];
    bool has_value;                         /* arg was "name=value" */
    char select_name[CUSTOM_ID_NAME_MAX + 1];  /* a picker's "name:...":
                                                  the option its chosen
                                                  value fills; else "" */
    struct custom_id_preset {                  /* ... and what it sets */
        char name[CUSTOM_ID_NAME_MAX + 1];
        char value[CUSTOM_ID_MAX + 1];
    } presets[CUSTOM_ID_MAX_PRESETS];
    int npresets;
};

/* True when s[0, n) is a command, sub or option name: 1 to
 * CUSTOM_ID_NAME_MAX bytes of [a-z0-9_-]. */
bool custom_id_name_ok(const char *s, size_t n);

/* Build a custom_id for fight into out[cap]. sub, opt_name, opt_value may
 * be NULL. version CUSTOM_ID_ANY_VERSION ("*") makes a button of any
 * version of its fight, which the command checks against the current
 * state (a proposal's Approve: cmd_proposal.c).
 * Returns false when a part is invalid or the id would exceed the limit. */
bool custom_id_make(char *out, size_t cap, const char *command,
                    const char *sub, uint64_t fight, int64_t version,
                    const char *opt_name, const char *opt_value);

/* A picker's custom_id for fight (any version): the chosen value fills
 * option select_name; the n options names[k]=values[k] (n <=
 * CUSTOM_ID_MAX_PRESETS) come with it. False when a part is invalid or the
 * id would exceed the limit (long values: the caller refuses with the
 * typed form). */
bool custom_id_make_picker(char *out, size_t cap, const char *command,
                           const char *sub, uint64_t fight,
                           const char *select_name,
                           const char *const *names,
                           const char *const *values, int n);

/* Parse a custom_id. Returns false (out unspecified) when malformed. */
bool custom_id_parse(const char *s, struct custom_id *out);

#endif
