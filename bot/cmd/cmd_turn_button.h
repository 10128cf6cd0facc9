/*
 * cmd_turn_button.h - the Attack button of a turn notice (issue 31):
 * a click opens the /attack picker (cmd_picker.h) for the combatant whose
 * turn it is. Internal to bot/cmd; uses only the custom_id and the
 * message, so cmd_finish (cmd_run.c) calls it without a circle.
 *
 * Ownership: everything is borrowed; the button goes into m (copied).
 */
#ifndef CMD_TURN_BUTTON_H
#define CMD_TURN_BUTTON_H

#include "enc.h"
#include "i18n.h"
#include "msg.h"
#include "rs.h"

/* Add to m, the turn notice of c in fight e played under rs, an Attack
 * button (its label in lang, the notice's): a picker's id for /attack
 * attacker:<c> (custom_id.h), whose click answers whoever clicks with c's
 * target picker, if the command's permission rules let them act for c.
 * None for a system without /attack, a hidden c (the notice is public: no
 * hidden name in its ids), or a name too long for the id. */
void cmd_turn_attack_button(struct msg *m, const struct encounter *e,
                            const struct rs_system *rs,
                            const struct enc_combatant *c,
                            enum i18n_lang lang);

#endif
