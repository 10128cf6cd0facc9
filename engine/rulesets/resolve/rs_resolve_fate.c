/*
 * rs_resolve_fate.c - choosing a Fallen Fate (see rs_resolve.h):
 * /fate name: fate:ignore|never|push|blaze|tragic.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_resolve.h"
#include "rs_kit.h"
#include "turn.h"

static void rsv_dies(struct rs_call *c, struct enc_combatant *who)
{
    rsv_take_out(c, who, RSV_OUT_DEAD);
}

static enum eng_err rsv_fate_ignore(struct rs_call *c,
                                    struct enc_combatant *who)
{
    if (who->rs[RSV_C_FATE] != RSV_FATE_MAY_IGNORE) {
        int64_t dmg = who->rs[RSV_C_FATE_DAMAGE];
        const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
        if (who->rs[RSV_C_FATE] == RSV_FATE_MUST && t != NULL &&
            dmg > t->max / 2)
            return enc_fail(c->d, ENG_STATE, "%lld damage is more than half "
                            "of %s's %lld Resolve: this fate cannot be "
                            "ignored", (long long)dmg, who->name,
                            (long long)t->max);
        return enc_fail(c->d, ENG_STATE, "%s has no ignores left until they "
                        "rest", who->name);
    }
    who->rs[RSV_C_IGNORES_USED]++;
    who->rs[RSV_C_FATE] = RSV_FATE_NONE;
    int64_t left = rsv_ignores(enc_stat_or(who, "stamina", 0),
                               enc_stat_or(who, "control", 0)) -
                   who->rs[RSV_C_IGNORES_USED];
    rsv_say(c, who, "shrugs off the Fallen Fate (%lld ignores left until "
            "they rest)", (long long)(left > 0 ? left : 0));
    return ENG_OK;
}

/* Never the Same: attrs:"a" loses 2 dice, attrs:"a,b" 1 each. */
static enum eng_err rsv_fate_never(struct rs_call *c,
                                   struct enc_combatant *who)
{
    int64_t times = enc_stat_or(who, "nts", 0);
    if (times >= RSV_MAX_NEVER)
        return enc_fail(c->d, ENG_STATE, "%s has already taken Never the "
                        "Same %d times, the most a life allows", who->name,
                        RSV_MAX_NEVER);
    const char *attrs = rs_opt(c->opts, c->nopts, "attrs");
    if (attrs == NULL || attrs[0] == '\0') {
        enc_fail(c->d, ENG_INVALID, "attrs: is required: one attribute "
                 "(-2D) or two (-1D each)");
        enc_hint(c->d, "attrs:\"strength\" or attrs:\"strength,agility\"");
        return ENG_INVALID;
    }
    char buf[2 * (ENC_MAX_STAT_NAME + 1) + 2];
    if (strlen(attrs) >= sizeof buf)
        return enc_fail(c->d, ENG_LIMIT, "attrs: is too long (limit is %zu "
                        "bytes)", sizeof buf - 1);
    enc_copy(buf, sizeof buf, attrs);
    char *names[3];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, ", ", &save); w != NULL;
         w = strtok_r(NULL, ", ", &save)) {
        if (n == 2)
            return enc_fail(c->d, ENG_INVALID, "attrs: names one or two "
                            "attributes");
        names[n++] = w;
    }
    if (n == 0)
        return enc_fail(c->d, ENG_INVALID, "attrs: names one or two "
                        "attributes");
    if (n == 2 && eng_text_casecmp(names[0], names[1]) == 0)
        return enc_fail(c->d, ENG_INVALID, "two different attributes, or "
                        "one named once for -%dD", RSV_NEVER_DICE);
    for (int i = 0; i < n; i++)
        if (enc_stat(who, names[i]) == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "%s has no attribute named "
                            "%.24s", who->name, names[i]);
    enum eng_err err = enc_stat_set(who, "nts", times + 1, c->d);
    if (err != ENG_OK)
        return err;
    int64_t each = RSV_NEVER_DICE / n;
    for (int i = 0; i < n; i++) {
        int64_t *v = enc_stat(who, names[i]);
        int64_t was = *v;
        *v = was - each < 0 ? 0 : was - each;
        rsv_say(c, who, "%.24s is %lld, down from %lld, for good", names[i],
                (long long)*v, (long long)was);
    }
    struct enc_event *ev = enc_emit(c->r, ENC_EV_STAT, who->id);
    ev->secret = who->hidden;
    rsv_say(c, who, "will Never be the Same, and leaves the fight");
    rsv_take_out(c, who, RSV_OUT_REMOVED);
    return ENG_OK;
}

static enum eng_err rsv_fate_push(struct rs_call *c,
                                  struct enc_combatant *who)
{
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, "desperate push",
                               RSV_PUSH_DICE, &r);
    if (err != ENG_OK)
        return err;
    who->rs[RSV_C_FATE] = RSV_FATE_NONE;
    if (!rsv_push_survives(r.total)) {
        rsv_say(c, who, "Desperate Push: %lld, %d or less: dies",
                (long long)r.total, RSV_PUSH_DIES_AT);
        rsv_dies(c, who);
        return ENG_OK;
    }
    rsv_say(c, who, "Desperate Push: %lld: regains %lld Resolve and is no "
            "longer Wounded", (long long)r.total, (long long)r.total);
    if (enc_cond_find(who, RSV_WOUNDED) != NULL)
        (void)enc_cond_remove(c->e, who, RSV_WOUNDED, c->r, c->d);
    rsv_regain(c, who, r.total);
    if (who->flags & ENC_CF_DOWN) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
    return ENG_OK;
}

static enum eng_err rsv_fate_blaze(struct rs_call *c,
                                   struct enc_combatant *who)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (c->e->rs[RSV_E_BLAZE] != 0)
        return enc_fail(c->d, ENG_STATE, "a Blaze of Glory turn is already "
                        "under way; choose again when it ends");
    who->rs[RSV_C_FATE] = RSV_FATE_NONE;
    who->flags &= ~(uint32_t)ENC_CF_DOWN;
    rsv_say(c, who, "goes out in a Blaze of Glory: takes a turn now, and "
            "dies at its end");
    rsv_blaze_turn(c, who);
    return ENG_OK;
}

/* Whether w is an ally of who who sees it fall, by default: same side, or
 * with no sides, the same kind (player characters or NPCs). */
static bool rsv_ally(const struct enc_combatant *who,
                     const struct enc_combatant *w)
{
    if (w == who || rsv_is_out(w))
        return false;
    if (who->side >= 0)
        return w->side == who->side;
    return w->side < 0 && rsv_is_pc(w) == rsv_is_pc(who);
}

static enum eng_err rsv_fate_tragic(struct rs_call *c,
                                    struct enc_combatant *who)
{
    struct encounter *e = c->e;
    bool seen[ENC_MAX_COMBATANTS] = {false};
    const char *list = rs_opt(c->opts, c->nopts, "witnesses");
    if (list != NULL && list[0] != '\0') {
        char buf[RSV_MAX_NAMES * (ENC_MAX_NAME + 1)];
        if (strlen(list) >= sizeof buf)
            return enc_fail(c->d, ENG_LIMIT, "witnesses: is too long (limit "
                            "is %zu bytes)", sizeof buf - 1);
        enc_copy(buf, sizeof buf, list);
        int n = 0;
        char *save = NULL;
        for (char *w = strtok_r(buf, ",", &save); w != NULL;
             w = strtok_r(NULL, ",", &save)) {
            while (*w == ' ')
                w++;
            struct enc_combatant *x = enc_by_name(e, w);
            if (x == NULL)
                return enc_fail(c->d, ENG_NOTFOUND, "no combatant named "
                                "%.64s", w);
            if (x == who || rsv_is_out(x))
                return enc_fail(c->d, ENG_INVALID, "%s cannot witness this",
                                x->name);
            if (++n > RSV_MAX_NAMES)
                return enc_fail(c->d, ENG_LIMIT, "too many witnesses (limit "
                                "is %d)", RSV_MAX_NAMES);
            seen[x - e->cs] = true;
        }
    } else {
        for (int i = 0; i < e->ncs; i++)
            seen[i] = rsv_ally(who, &e->cs[i]);
    }
    /* Force points first: the one step that can fail (no room for a stat). */
    for (int i = 0; i < e->ncs; i++) {
        if (!seen[i])
            continue;
        enum eng_err err = enc_stat_set(&e->cs[i], "fp",
                                        enc_stat_or(&e->cs[i], "fp", 0) +
                                            RSV_DEMISE_FP, c->d);
        if (err != ENG_OK)
            return err;
    }
    who->rs[RSV_C_FATE] = RSV_FATE_NONE;
    rsv_say(c, who, "meets a Tragic Demise; each ally who saw it regains "
            "%s Resolve and %d Force Point", RSV_DEMISE_DICE, RSV_DEMISE_FP);
    rsv_dies(c, who);
    for (int i = 0; i < e->ncs; i++) {
        if (!seen[i])
            continue;
        struct rs_rolled r;
        char label[48];
        snprintf(label, sizeof label, "resolve for %.30s", e->cs[i].name);
        enum eng_err err = rs_roll(c, NULL, label, RSV_DEMISE_DICE, &r);
        if (err != ENG_OK)
            return err;
        rsv_regain(c, &e->cs[i], r.total);
    }
    return ENG_OK;
}

enum eng_err rsv_fate(struct rs_call *c)
{
    static const struct {
        const char *name;
        enum eng_err (*fn)(struct rs_call *c, struct enc_combatant *who);
    } fates[] = {
        {"ignore", rsv_fate_ignore}, {"never", rsv_fate_never},
        {"push", rsv_fate_push},     {"blaze", rsv_fate_blaze},
        {"tragic", rsv_fate_tragic},
    };
    struct enc_combatant *who = NULL;
    enum eng_err err;
    if (rs_opt(c->opts, c->nopts, "name") == NULL) {
        /* A fate button names only the fate: it is for whoever has one
         * due, when that is one character. */
        for (int i = 0; i < c->e->ncs; i++) {
            if (c->e->cs[i].rs[RSV_C_FATE] == RSV_FATE_NONE)
                continue;
            if (who != NULL)
                return enc_fail(c->d, ENG_INVALID, "name: is required: "
                                "more than one character has a fate due");
            who = &c->e->cs[i];
        }
        if (who == NULL)
            return enc_fail(c->d, ENG_INVALID, "name: is required");
        err = rs_require_actor(c, who);
    } else {
        err = rsv_named_actor(c, "name", &who);
    }
    if (err != ENG_OK)
        return err;
    const char *fate = rs_opt(c->opts, c->nopts, "fate");
    int pick = -1;
    for (int i = 0; fate != NULL && i < (int)(sizeof fates / sizeof fates[0]);
         i++)
        if (eng_text_casecmp(fate, fates[i].name) == 0)
            pick = i;
    if (pick < 0)
        return enc_fail(c->d, ENG_INVALID, "fate: must be ignore, never, "
                        "push, blaze or tragic");
    if (rsv_is_out(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight", who->name);
    if (who->rs[RSV_C_FATE] == RSV_FATE_NONE) {
        /* Outside a due fate only the GM may grant one, to someone
         * Wounded (a significant NPC, at the GM's discretion). */
        if (!c->is_gm || !rsv_is_wounded(who)) {
            enc_fail(c->d, ENG_STATE, "%s has no Fallen Fate to choose",
                     who->name);
            enc_hint(c->d, "a fate is due when a Wounded character takes "
                     "more damage");
            return ENG_STATE;
        }
        if (pick == 0)
            return enc_fail(c->d, ENG_STATE, "%s has no Fallen Fate to "
                            "ignore", who->name);
    }
    return fates[pick].fn(c, who);
}
