/*
 * cmd_turn_button.c - the turn notice's Attack button (cmd_turn_button.h).
 */
#include "cmd_turn_button.h"

#include "custom_id.h"

void cmd_turn_attack_button(struct msg *m, const struct encounter *e,
                            const struct rs_system *rs,
                            const struct enc_combatant *c,
                            enum i18n_lang lang)
{
    const char *names[] = {"attacker"}, *values[] = {c->name};
    char id[CUSTOM_ID_MAX + 1];
    if (rs == NULL || rs->ops->attack == NULL || c->hidden ||
        !custom_id_make_picker(id, sizeof id, "attack", NULL, e->fight_id,
                               "target", names, values, 1))
        return;
    msg_add_button(m, i18n_get(lang, "Attack"), id,
                   MSG_BTN_PRIMARY);
}
