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
#include "rs_kit.h"

_Static_assert(ENC_MAX_ATTACKS <= CMD_PICKER_MAX,
               "every saved attack fits one picker");

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

/* Into names/values after the n already there: the options of req among
 * typed (NULL-ended) that the picker carries along; the new count. */
static int carry(const struct cmd_req *req, const char *const *typed,
                 const char **names, const char **values, int n)
{
    for (size_t i = 0; typed[i] != NULL; i++) {
        const char *v = cmd_req_opt(req, typed[i]);
        if (v == NULL)
            continue;
        if (n == CUSTOM_ID_MAX_PRESETS)
            return -1;
        names[n] = typed[i];
        values[n++] = v;
    }
    return n;
}

void cmd_attack_picker(struct cmd_run *run,
                       const struct enc_combatant *attacker)
{
    /* what the picker carries: who attacks, and what else was typed */
    static const char *const typed[] = {"roll", "damage", "options",
                                        "with", NULL};
    const char *names[CUSTOM_ID_MAX_PRESETS] = {"attacker"};
    const char *values[CUSTOM_ID_MAX_PRESETS] = {attacker->name};
    int npresets = carry(run->req, typed, names, values, 1);
    /* Saved attacks and nothing typed: which attack first; its answer
     * (with:) comes back here for the target. */
    bool choose_attack = npresets == 1 && attacker->nattacks > 0;
    char *who = msg_escape(attacker->name);
    char id[CUSTOM_ID_MAX + 1];
    if (choose_attack) {
        if (!custom_id_make_picker(id, sizeof id, "attack", NULL,
                                   run->enc->fight_id, "with", names, values,
                                   npresets)) {
            cmd_fail(run, "%s's name is too long for a picker (a menu's id "
                     "holds %d bytes); type /attack attacker:<name> "
                     "target:<name>", who ? who : "the attacker",
                     CUSTOM_ID_MAX);
        } else {
            struct msg *m = &run->reply->msg;
            run->reply->ephemeral = true;
            msg_set_content(m, "Which of %s's attacks?",
                            who ? who : "the attacker");
            msg_set_select(m, id, "Choose an attack");
            for (int i = 0; i < attacker->nattacks &&
                            i < CMD_PICKER_MAX; i++)
                msg_select_add(m, attacker->attacks[i].name,
                               attacker->attacks[i].name);
        }
        free(who);
        return;
    }
    if (npresets < 0 ||
        !custom_id_make_picker(id, sizeof id, "attack", NULL,
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

void cmd_condition_picker(struct cmd_run *run,
                          const struct enc_combatant *who, bool remove)
{
    static const char *const typed[] = {"value", "rounds", "remove",
                                        "until", "ends", "cap", "custom",
                                        NULL};
    const char *names[CUSTOM_ID_MAX_PRESETS] = {"name"};
    const char *values[CUSTOM_ID_MAX_PRESETS] = {who->name};
    int npresets = carry(run->req, typed, names, values, 1);
    char id[CUSTOM_ID_MAX + 1];
    if (npresets < 0 ||
        !custom_id_make_picker(id, sizeof id, "combat", "condition",
                               run->enc->fight_id, "condition", names,
                               values, npresets)) {
        cmd_fail(run, "the name and the options given are too many or too "
                 "long for a picker (a menu's id holds %d bytes); give "
                 "condition: as well", CUSTOM_ID_MAX);
        return;
    }
    /* removing: what who has; giving: what the system declares that a
     * hand may give (a rule's own conditions are the rules') */
    const char *list[CMD_PICKER_MAX];
    int n = 0, total = 0;
    if (remove) {
        for (int k = 0; k < who->nconds; k++, total++)
            if (n < CMD_PICKER_MAX)
                list[n++] = who->conds[k].name;
    } else {
        int ns = 0;
        struct rs_opt opts[CMD_MAX_OPTS];
        struct rs_call c;
        cmd_rs_call(run, &c, opts);
        const struct rs_cond_spec *specs = rs_cond_specs(run->rs, c.data,
                                                         &ns);
        for (int k = 0; k < ns; k++) {
            if (specs[k].flags & RS_COND_SYSTEM)
                continue;
            total++;
            if (n < CMD_PICKER_MAX)
                list[n++] = specs[k].name;
        }
    }
    char *name = msg_escape(who->name);
    struct msg *m = &run->reply->msg;
    run->reply->ephemeral = true;
    if (total == 0) {
        cmd_fail(run, remove ? "%s has no condition to remove"
                             : "the %s system declares no condition to "
                               "give; name one with condition: and "
                               "custom:true",
                 remove ? (name ? name : "that one") : run->rs->id);
    } else if (total > CMD_PICKER_MAX) {
        msg_set_content(m, "There are %d conditions, more than a picker "
                        "holds (limit is %d); type the condition: "
                        "/combat condition name:<who> condition:<name>",
                        total, CMD_PICKER_MAX);
    } else {
        msg_set_content(m, remove ? "Which condition does %s lose?"
                                  : "Which condition does %s get?",
                        name ? name : "that one");
        msg_set_select(m, id, "Choose a condition");
        for (int k = 0; k < n; k++)
            msg_select_add(m, list[k], list[k]);
    }
    free(name);
}
