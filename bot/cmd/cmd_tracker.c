/*
 * cmd_tracker.c - the live tracker message: the tracker embed (render_enc.c)
 * plus the buttons and the menu that run the fight from it.
 *
 * Every control carries the version the tracker shows (custom_id.h's
 * custom_id), so a click on a tracker that has moved on is refused by
 * cmd_exec() instead of acting on a newer state.
 */
#include <stdlib.h>

#include "cmd_run.h"
#include "custom_id.h"
#include "render_enc.h"

static void add_button(struct msg *m, const char *label, const char *sub,
                       const struct encounter *e,
                       enum msg_button_style style)
{
    char id[CUSTOM_ID_MAX + 1];
    if (custom_id_make(id, sizeof id, "combat", sub, e->fight_id,
                                   e->version, NULL, NULL))
        msg_add_button(m, label, id, style);
}

/* Alternating rulesets, when the acting side must choose: who of it may
 * go (not down, not yet acted this round or phase). Hidden combatants stay
 * out of this public menu (the GM can type /combat pick). */
static void add_pick_menu(struct msg *m, const struct encounter *e)
{
    char id[CUSTOM_ID_MAX + 1];
    if (!custom_id_make(id, sizeof id, "combat", "pick",
                                    e->fight_id, e->version, "name", NULL) ||
        !msg_set_select(m, id, "Who acts next?"))
        return;
    for (int i = 0; i < e->ncs && m->select.noptions < MSG_MAX_SELECT; i++) {
        const struct enc_combatant *c = &e->cs[i];
        if (c->side != e->acting_side || c->hidden ||
            (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD | ENC_CF_ACTED)))
            continue;
        msg_select_add(m, c->name, c->name);
    }
}

struct msg *cmd_tracker_msg(const struct encounter *e,
                            const struct rs_system *rs, int64_t now_ms)
{
    struct msg *m = malloc(sizeof *m);
    if (m == NULL)
        return NULL;
    msg_init(m);
    render_tracker_at(m, e, false, now_ms);
    if (e->status != ENC_ST_RUNNING)
        return m;
    bool alternating = rs != NULL && (rs->flags & RS_F_ALTERNATING);
    if (e->current != 0) {
        add_button(m, "End turn", "next", e, MSG_BTN_PRIMARY);
    } else if (alternating && e->acting_side >= 0 &&
               e->acting_side < e->nsides) {
        add_pick_menu(m, e);
        if (rs->ops->pass != NULL)
            add_button(m, "Pass", "pass", e, MSG_BTN_SECONDARY);
        if (m->select.noptions == 0)     /* nobody of that side can go */
            add_button(m, "Move on", "next", e, MSG_BTN_PRIMARY);
    } else {
        add_button(m, "Next round", "next", e, MSG_BTN_PRIMARY);
    }
    add_button(m, "Undo (GM)", "undo", e, MSG_BTN_DANGER);
    return m;
}
