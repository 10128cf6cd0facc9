/*
 * cmd_picker.c - pickers: a private select offering what a typed command
 * would take, so a player chooses instead of typing a name (issue 31).
 *
 * /attack with no target answers the sender alone with a select of the
 * targets they may attack (cmd_attack_picker). The select's custom_id is a
 * picker's (custom_id.h): the fight, any version, the attacker preset and
 * target: filled by the choice. The choice comes back as the same request
 * as "/attack attacker:<who> target:<chosen>" with req.picker set, and runs
 * through cmd_attack like the typed command; cmd_attack_target_ok() then
 * refuses a target that died, left or went out of sight meanwhile.
 */
#include "cmd_picker.h"

#include <stdio.h>
#include <stdlib.h>

#include "custom_id.h"

/* Whether the sender of run may see c (the GM sees everyone; a player
 * every combatant but the hidden ones they do not own), as autocomplete. */
static bool sender_sees(const struct cmd_run *run,
                        const struct enc_combatant *c)
{
    return run->is_gm || !c->hidden ||
           (c->owner != 0 && c->owner == run->req->user_id);
}

bool cmd_attack_target_ok(const struct cmd_run *run,
                          const struct enc_combatant *attacker,
                          const struct enc_combatant *c)
{
    return c != attacker && !(c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) &&
           sender_sees(run, c);
}

void cmd_attack_picker(struct cmd_run *run,
                       const struct enc_combatant *attacker)
{
    /* what the picker carries: who attacks, and what else was typed */
    static const char *const typed[] = {"roll", "damage", "options",
                                        "with"};
    const char *names[CUSTOM_ID_MAX_PRESETS] = {"attacker"};
    const char *values[CUSTOM_ID_MAX_PRESETS] = {attacker->name};
    int npresets = 1;
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++) {
        const char *v = cmd_req_opt(run->req, typed[i]);
        if (v != NULL && npresets < CUSTOM_ID_MAX_PRESETS) {
            names[npresets] = typed[i];
            values[npresets++] = v;
        }
    }
    char *who = msg_escape(attacker->name);
    char id[CUSTOM_ID_MAX + 1];
    if (!custom_id_make_picker(id, sizeof id, "attack", NULL,
                               run->enc->fight_id, "target", names, values,
                               npresets)) {
        cmd_fail(run, "the attacker's name and the options given are too "
                 "long for a picker (a menu's id holds %d bytes); give "
                 "target: as well", CUSTOM_ID_MAX);
        free(who);
        return;
    }
    int n = 0;
    for (int i = 0; i < run->enc->ncs; i++)
        n += cmd_attack_target_ok(run, attacker, &run->enc->cs[i]);
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    if (n == 0) {
        cmd_fail(run, "%s has nobody to attack", who ? who : "the attacker");
    } else if (n > CMD_PICKER_MAX) {
        msg_set_content(m, "%s has %d possible targets, more than a picker "
                        "holds (limit is %d); type the target: "
                        "/attack target:<name>", who ? who : "the attacker",
                        n, CMD_PICKER_MAX);
    } else {
        msg_set_content(m, "Whom does %s attack?", who ? who : "the attacker");
        msg_set_select(m, id, "Choose a target");
        for (int i = 0; i < run->enc->ncs; i++) {
            const struct enc_combatant *c = &run->enc->cs[i];
            if (!cmd_attack_target_ok(run, attacker, c))
                continue;
            char label[ENC_MAX_NAME + sizeof " (hidden)"];
            snprintf(label, sizeof label, "%s%s", c->name,
                     c->hidden ? " (hidden)" : "");
            msg_select_add(m, label, c->name);
        }
    }
    free(who);
}
