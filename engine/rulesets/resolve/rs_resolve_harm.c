/*
 * rs_resolve_harm.c - Resolve lost and regained, and what follows
 * (rs_resolve_harm.h): at 0 a player character or significant NPC is
 * Wounded and a minor NPC defeated; a Wounded player character hurt again
 * must choose a Fallen Fate or spend an ignore.
 */
#include "rs_resolve_harm.h"

#include "eng_text.h"

static void rsv_mark_down(struct rs_call *c, struct enc_combatant *who)
{
    if (who->flags & ENC_CF_DOWN)
        return;
    who->flags |= ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
}

static void rsv_mark_up(struct rs_call *c, struct enc_combatant *who)
{
    if (!(who->flags & ENC_CF_DOWN) || rsv_is_out(who) ||
        rsv_is_wounded(who))
        return;
    who->flags &= ~(uint32_t)ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
}

void rsv_take_out(struct rs_call *c, struct enc_combatant *who,
                  enum rsv_out reason)
{
    struct rsv_comb *s = rsv_st(who);
    s->out = reason;
    s->fate = RSV_FATE_NONE;
    s->held = RSV_HELD_NONE;
    s->help = false;
    if (reason == RSV_OUT_DEAD)
        who->flags |= ENC_CF_DEAD;
    rsv_mark_down(c, who);
}

/* Put the fate choice to the character's player (buttons in Discord).
 * Never the Same needs the attributes, so it is typed, not clicked. */
static void rsv_prompt_fate(struct rs_call *c, const struct enc_combatant *who,
                            int prompt)
{
    struct enc_event *ev = RS_SAY(c, who, "{}, {} (Never the Same is "
                                  "typed: /fate fate:never attrs:...)",
                                  RS_A_WHO(who),
                                  RS_A_STRONG("which Fallen Fate?"));
    ev->kind = ENC_EV_PROMPT;
    ev->a = prompt;
}

/* What follows loss Resolve taken by who, Wounded or not before it. */
static void rsv_follow(struct rs_call *c, struct enc_combatant *who,
                       int64_t loss, bool wounded)
{
    const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
    struct rsv_comb *s = rsv_st(who);
    struct rsv_after_in in = {
        .resolve_after = t ? t->cur : 0,
        .max = t ? t->max : 0,
        .loss = loss,
        .wounded = wounded,
        .pc = rsv_is_pc(who),
        .significant = rsv_is_significant(who),
        .ignores_left = rsv_ignores_left(who),
    };
    switch (rsv_after_damage(&in)) {
    case RSV_AFTER_NONE:
        break;
    case RSV_AFTER_WOUNDED:
        (void)rsv_give(c, who, &(struct rs_cond_give){.name = RSV_WOUNDED,
                                                      .rounds = -1});
        break;
    case RSV_AFTER_DEFEATED:
        if (wounded)
            RS_SAY(c, who, "{} is defeated (the GM may grant a Fallen Fate "
                   "instead: /fate)", RS_A_WHO(who));
        else
            RS_SAY(c, who, "{} is defeated", RS_A_WHO(who));
        rsv_mark_down(c, who);
        break;
    case RSV_AFTER_FATE:
        s->fate = RSV_FATE_MAY_IGNORE;
        s->fate_damage = (int32_t)loss;
        RS_SAY(c, who, in.ignores_left == 1
                           ? N_("{} is Wounded and hurt again: choose a "
                                "Fallen Fate, or ignore it ({} ignore left)")
                           : N_("{} is Wounded and hurt again: choose a "
                                "Fallen Fate, or ignore it ({} ignores "
                                "left)"),
               RS_A_WHO(who), RS_A_NUM(in.ignores_left));
        rsv_prompt_fate(c, who, RSV_PROMPT_FATE);
        break;
    case RSV_AFTER_FATE_MUST:
        s->fate = RSV_FATE_MUST;
        s->fate_damage = (int32_t)loss;
        if (in.ignores_left > 0)
            RS_SAY(c, who, "{} is Wounded and took {}, more than half of {} "
                   "Resolve: a Fallen Fate must be chosen", RS_A_WHO(who),
                   RS_A_NUM(loss), RS_A_NUM(in.max));
        else
            RS_SAY(c, who, "{} is Wounded and hurt again with no ignores "
                   "left: a Fallen Fate must be chosen", RS_A_WHO(who));
        rsv_prompt_fate(c, who, RSV_PROMPT_FATE_MUST);
        break;
    }
}

/* Set who's Resolve to after and record it. */
static void rsv_set(struct rs_call *c, struct enc_combatant *who,
                    struct enc_track *t, int64_t after)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = RSV_RESOLVE;
    ev->a = t->cur;
    ev->b = after;
    ev->secret = who->hidden;
    t->cur = after;
}

void rsv_damage(struct rs_call *c, struct enc_combatant *who, int64_t loss)
{
    bool wounded = rsv_is_wounded(who);
    struct enc_track *t = enc_track(who, RSV_RESOLVE);
    if (t == NULL) {
        RS_SAY(c, who, "{} has no Resolve to lose (/combat set "
               "stats:\"resolve=10\")", RS_A_WHO(who));
        return;
    }
    rsv_set(c, who, t, t->cur - loss < 0 ? 0 : t->cur - loss);
    rsv_follow(c, who, loss, wounded);
}

void rsv_regain(struct rs_call *c, struct enc_combatant *who, int64_t amount)
{
    struct enc_track *t = enc_track(who, RSV_RESOLVE);
    if (t == NULL || amount <= 0)
        return;
    int64_t after = t->cur + amount;
    if (t->max > 0 && after > t->max)
        after = t->cur > t->max ? t->cur : t->max;
    if (after > ENC_MAX_VALUE)
        after = ENC_MAX_VALUE;
    rsv_set(c, who, t, after);
    /* A minor NPC defeated at 0 is back when healed. */
    if (after > 0)
        rsv_mark_up(c, who);
}

void rsv_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    if (eng_text_casecmp(track, RSV_RESOLVE) != 0)
        return;
    const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
    if (t == NULL)
        return;
    if (t->cur < before)
        rsv_follow(c, who, before - t->cur, rsv_is_wounded(who));
    else if (t->cur > before)
        rsv_mark_up(c, who);
}
