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
 * When none of those was given and the attacker has saved attacks
 * (ENC_MAX_ATTACKS, fewer than CMD_PICKER_MAX), the select first offers
 * them: its choice runs /attack attacker:<attacker> with:<choice>, which
 * answers with the target select.
 * Refuses when those make the id too long; more than CMD_PICKER_MAX
 * targets: says so, no select. */
void cmd_attack_picker(struct cmd_run *run,
                       const struct enc_combatant *attacker);

/* /combat condition without a condition: answer the sender alone with a
 * select of the conditions to give who (the system's declared ones a hand
 * may give) or, with remove, to take away (who's own), whose choice runs
 * /combat condition name:<who> condition:<choice> with the options given
 * (value:, rounds:, remove:, until:, ends:, cap:, custom:; four at most
 * besides the name). Nothing changes. More than CMD_PICKER_MAX: says so,
 * no select. */
void cmd_condition_picker(struct cmd_run *run,
                          const struct enc_combatant *who, bool remove);

#endif
