/*
 * cmd_picker.h - pickers (cmd_picker.c): private selects offering what a
 * typed command would take. Internal to bot/cmd.
 *
 * Ownership: everything is borrowed from the run; the picker goes into
 * run->reply.
 */
#ifndef CMD_PICKER_H
#define CMD_PICKER_H

#include <stdbool.h>

#include "cmd_run.h"

/* Choices one picker offers at most: Discord's 25 options of a select.
 * Past that the picker says so and asks for the typed form. */
#define CMD_PICKER_MAX MSG_MAX_SELECT

/* Whether c is a target the sender of run may pick for attacker: not
 * the attacker, not down or dead, and one the sender may see (the GM
 * everyone, a player no hidden combatant they do not own). */
bool cmd_attack_target_ok(const struct cmd_run *run,
                          const struct enc_combatant *attacker,
                          const struct enc_combatant *c);

/* /attack without a target: answer the sender alone with a select of
 * attacker's possible targets (cmd_attack_target_ok), whose choice runs
 * /attack attacker:<attacker> target:<choice> with the roll:, damage:,
 * options: and with: given (custom_id.h, a picker). Nothing changes.
 * When none of those was given and the attacker has several saved
 * attacks (ENC_MAX_ATTACKS, fewer than CMD_PICKER_MAX), the select first
 * offers them: its choice runs /attack attacker:<attacker> with:<choice>,
 * which answers with the target select; one saved attack is used as if
 * chosen. An area attack (cmd_attack_area) makes the target select a
 * multi-select of up to the system's max_targets: its first choice is
 * target:, the others come as req.picked (cmd_attack_area_options).
 * Refuses when those make the id too long; more than CMD_PICKER_MAX
 * targets: says so, no select. */
void cmd_attack_picker(struct cmd_run *run,
                       const struct enc_combatant *attacker);

/* The area declaration of run's system (rs.h, struct rs_area) when the
 * attack that options (typed) or else the saved attack with names is an
 * area attack: one of area->when among its options and area->more not
 * given yet; else NULL. Decides whether the target picker is a
 * multi-select. */
const struct rs_area *cmd_attack_area(const struct cmd_run *run,
                                      const struct enc_combatant *attacker,
                                      const char *with, const char *options);

/* The tracker's Attack button on target, clicked by the player of
 * attacker, who has several saved attacks: answer the clicker alone with
 * a select of them, whose choice runs /attack attacker:<attacker>
 * target:<target> with:<choice> (a picker: checked again then). */
void cmd_attack_with_picker(struct cmd_run *run,
                            const struct enc_combatant *attacker,
                            const struct enc_combatant *target);

/* A multi-select picker's further targets (req.picked) as the area
 * attack's own option: options (the attack's, typed or saved; may be
 * NULL) followed by "<area->more>=a,b,c" (heap, the caller frees). NULL,
 * with run failed and nothing changed, when the attack is not an area
 * one, there are more than its declared max_targets, or one of them left,
 * went down or out of the sender's sight since, or was chosen twice. */
char *cmd_attack_area_options(struct cmd_run *run,
                              const struct enc_combatant *attacker,
                              const struct enc_combatant *target,
                              const char *with, const char *options);

/* /combat condition without a condition: answer the sender alone with a
 * select of the conditions to give who (the system's declared ones a hand
 * may give) or, with remove, to take away (who's own), whose choice runs
 * /combat condition name:<who> condition:<choice> with the options given
 * (value:, rounds:, remove:, until:, ends:, cap:, custom:; four at most
 * besides the name). Nothing changes. More than CMD_PICKER_MAX: says so,
 * no select. */
void cmd_condition_picker(struct cmd_run *run,
                          const struct enc_combatant *who, bool remove);

/* /combat resource without a resource (the tracker's Spend button):
 * answer the sender alone with a select of who's resources with what is
 * left, whose choice runs /combat resource name:<who> resource:<choice>
 * with action: and amount: as given. Nothing changes. None: says so. */
void cmd_resource_picker(struct cmd_run *run,
                         const struct enc_combatant *who);

#endif
