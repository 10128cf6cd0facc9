/*
 * cmd_tracker.c - the live tracker message: the tracker as a Components V2
 * container (render_tracker_v2.c) plus the buttons and the menu that run
 * the fight from it, and on each row the button a player at the table
 * wants there: on the running turn's row, "Spend" when it has resources;
 * while it is someone's turn, "Attack" on every visible foe
 * of theirs that is still up (another side; without sides, players and
 * NPCs are each other's foes), which runs /attack
 * target:<name> for the clicker through the command layer (the attacker
 * is whose turn it is, as typed: a player whose turn it is not is refused
 * as /attack refuses them).
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
static void add_pick_menu(struct msg *m, const struct encounter *e,
                          enum i18n_lang lang)
{
    char id[CUSTOM_ID_MAX + 1];
    if (!custom_id_make(id, sizeof id, "combat", "pick",
                                    e->fight_id, e->version, "name", NULL) ||
        !msg_set_select(m, id, i18n_get(lang,
                                        "Who acts next?")))
        return;
    for (int i = 0; i < e->ncs && m->select.noptions < MSG_MAX_SELECT; i++) {
        const struct enc_combatant *c = &e->cs[i];
        if (c->side != e->acting_side || c->hidden ||
            (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD | ENC_CF_ACTED)))
            continue;
        msg_select_add(m, c->name, c->name);
    }
}

/* Whether b is a's foe, as the table would see it: of another side when
 * both have one, else a player's against an NPC (the GM's). */
static bool foes(const struct enc_combatant *a, const struct enc_combatant *b)
{
    if (a->side >= 0 && b->side >= 0)
        return a->side != b->side;
    return (a->owner == 0) != (b->owner == 0);
}

/* The Attack button of each row that may be attacked now, and Spend on
 * the running turn's row when it has resources: /combat resource
 * name:<it>, whose answer is a private list of them (cmd_picker.h).
 * Hidden combatants never get one: its id would carry the name. */
static void add_row_buttons(struct msg *m, const struct encounter *e,
                            const struct rs_system *rs, enum i18n_lang lang)
{
    const struct enc_combatant *cur = enc_by_id_c(e, e->current);
    if (m->v2 == NULL || cur == NULL || rs == NULL)
        return;
    for (int i = 0; i < m->v2->nparts; i++) {
        struct msg_v2_part *p = &m->v2->parts[i];
        const struct enc_combatant *c =
            p->kind == MSG_V2_ROW && p->who != 0
                ? enc_by_id_c(e, (uint32_t)p->who)
                : NULL;
        char id[CUSTOM_ID_MAX + 1];
        if (c != NULL && c == cur && !c->hidden && c->nres > 0 &&
            custom_id_make(id, sizeof id, "combat", "resource", e->fight_id,
                           e->version, "name", c->name))
            msg_v2_set_accessory(p, i18n_get(lang, CMD_TRACKER_SPEND_LABEL),
                                 id, MSG_BTN_SECONDARY);
        if (c == NULL || c == cur || c->hidden || rs->ops->attack == NULL ||
            (c->flags & (ENC_CF_DOWN | ENC_CF_DEAD)) || !foes(cur, c))
            continue;
        /* a name too long for the id leaves the row without a button:
         * /attack target: still reaches it */
        if (custom_id_make(id, sizeof id, "attack", NULL, e->fight_id,
                           e->version, "target", c->name))
            msg_v2_set_accessory(p, i18n_get(lang, CMD_TRACKER_ATTACK_LABEL),
                                 id, MSG_BTN_SECONDARY);
    }
}

struct msg *cmd_tracker_msg(const struct encounter *e,
                            const struct rs_system *rs, int64_t now_ms,
                            enum i18n_lang lang)
{
    struct msg *m = malloc(sizeof *m);
    if (m == NULL)
        return NULL;
    msg_init(m);
    render_tracker_v2(m, e, false, now_ms, CMD_TRACKER_MORE, lang);
    if (e->status != ENC_ST_RUNNING)
        return m;
    add_row_buttons(m, e, rs, lang);
    bool alternating = rs != NULL && (rs->flags & RS_F_ALTERNATING);
    if (e->current != 0) {
        add_button(m, i18n_get(lang, "End turn"), "next", e, MSG_BTN_PRIMARY);
    } else if (alternating && e->acting_side >= 0 &&
               e->acting_side < e->nsides) {
        add_pick_menu(m, e, lang);
        if (rs->ops->pass != NULL)
            add_button(m, i18n_get(lang, "Pass"), "pass", e,
                       MSG_BTN_SECONDARY);
        if (m->select.noptions == 0)     /* nobody of that side can go */
            add_button(m, i18n_get(lang, "Move on"), "next", e,
                       MSG_BTN_PRIMARY);
    } else {
        add_button(m, i18n_get(lang, "Next round"), "next", e,
                   MSG_BTN_PRIMARY);
    }
    add_button(m, i18n_get(lang, "Undo (GM)"), "undo", e, MSG_BTN_DANGER);
    return m;
}
