/*
 * rs_resolve_fight.c - attacks, damage to Resolve, Wounded and the Fallen
 * Fates of the `resolve` ruleset (see rs_resolve.h).
 */
#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "eng_text.h"
#include "rs_resolve.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- pure rules ---------------------------------------------------------- */

static const char *const rsv_range_names[] = {
    [RSV_RANGE_CLOSE] = "close",   [RSV_RANGE_SHORT] = "short",
    [RSV_RANGE_MEDIUM] = "medium", [RSV_RANGE_LONG] = "long",
    [RSV_RANGE_EXTREME] = "extreme",
};

bool rsv_range_parse(const char *s, enum rsv_range *out)
{
    for (int r = RSV_RANGE_CLOSE; r <= RSV_RANGE_EXTREME; r++)
        if (eng_text_casecmp(s, rsv_range_names[r]) == 0) {
            *out = (enum rsv_range)r;
            return true;
        }
    return false;
}

int rsv_range_penalty(enum rsv_range r, bool ranged, bool aim_range)
{
    if (!ranged)
        return 0;
    int pen = 0;
    switch (r) {
    case RSV_RANGE_CLOSE:
        pen = 1;
        break;
    case RSV_RANGE_LONG:
        pen = 1;
        break;
    case RSV_RANGE_EXTREME:
        pen = 2;
        break;
    case RSV_RANGE_NONE:
    case RSV_RANGE_SHORT:
    case RSV_RANGE_MEDIUM:
        pen = 0;
        break;
    }
    /* Aim may ignore up to 1D, and only at long range or further. */
    if (aim_range && (r == RSV_RANGE_LONG || r == RSV_RANGE_EXTREME))
        pen--;
    return pen;
}

void rsv_hit(const struct rsv_hit_in *in, struct rsv_hit_out *out)
{
    memset(out, 0, sizeof *out);
    int64_t defense = in->defense + in->defend_bonus;
    out->hit = in->attack >= defense;
    out->defend_lapses = !out->hit && in->defend_bonus > 0 &&
                         in->attack >= in->defense;
    if (!out->hit)
        return;
    out->armor = in->armor;
    if (!in->piercing && in->attack >= defense + RSV_OVERKILL) {
        out->armor_halved = true;
        out->armor = in->armor / 2;
    }
    out->loss = in->damage - out->armor;
    if (out->loss < 0)
        out->loss = 0;
}

enum rsv_after rsv_after_damage(const struct rsv_after_in *in)
{
    if (in->loss <= 0)
        return RSV_AFTER_NONE;
    if (in->wounded) {
        if (!in->pc)
            return RSV_AFTER_DEFEATED;
        if (in->ignores_left > 0 && in->loss <= in->max / 2)
            return RSV_AFTER_FATE;
        return RSV_AFTER_FATE_MUST;
    }
    if (in->resolve_after > 0)
        return RSV_AFTER_NONE;
    return in->pc || in->significant ? RSV_AFTER_WOUNDED : RSV_AFTER_DEFEATED;
}

int64_t rsv_ignores(int64_t stamina, int64_t control)
{
    return stamina > control ? stamina : control;
}

bool rsv_push_survives(int64_t roll)
{
    return roll > RSV_PUSH_DIES_AT;
}

/* ---- damage and standing ------------------------------------------------- */

static int64_t rsv_ignores_left(const struct enc_combatant *who)
{
    int64_t n = rsv_ignores(enc_stat_or(who, "stamina", 0),
                            enc_stat_or(who, "control", 0)) -
                who->rs[RSV_C_IGNORES_USED];
    return n > 0 ? n : 0;
}

static void rsv_mark_down(struct rs_call *c, struct enc_combatant *who)
{
    if (who->flags & ENC_CF_DOWN)
        return;
    who->flags |= ENC_CF_DOWN;
    enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
}

void rsv_take_out(struct rs_call *c, struct enc_combatant *who,
                  enum rsv_out reason)
{
    who->rs[RSV_C_OUT] = reason;
    who->rs[RSV_C_FATE] = RSV_FATE_NONE;
    who->rs[RSV_C_HELD] = RSV_HELD_NONE;
    who->rs[RSV_C_HELP] = 0;
    if (reason == RSV_OUT_DEAD)
        who->flags |= ENC_CF_DEAD;
    rsv_mark_down(c, who);
}

/* What follows loss Resolve taken by who, Wounded or not before it. */

/* Put the fate choice to the character's player (buttons in Discord). */
static void rsv_prompt_fate(struct rs_call *c, const struct enc_combatant *who,
                            int prompt)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_PROMPT, who->id);
    enc_event_text(c->r, ev, "%.32s's Fallen Fate? (Never the "
             "Same: /fate fate:never attrs:...)", who->name);
    ev->a = prompt;
}

static void rsv_follow(struct rs_call *c, struct enc_combatant *who,
                       int64_t loss, bool wounded)
{
    const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
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
    case RSV_AFTER_WOUNDED: {
        struct enc_cond_req q = {.name = RSV_WOUNDED};
        (void)enc_cond_add(c->e, who, &q, c->r, c->d);
        break;
    }
    case RSV_AFTER_DEFEATED:
        if (wounded)
            rsv_say(c, who, "is defeated (the GM may grant a Fallen Fate "
                    "instead: /fate)");
        else
            rsv_say(c, who, "is defeated");
        rsv_mark_down(c, who);
        break;
    case RSV_AFTER_FATE:
        who->rs[RSV_C_FATE] = RSV_FATE_MAY_IGNORE;
        who->rs[RSV_C_FATE_DAMAGE] = loss;
        rsv_say(c, who, "is Wounded and hurt again: choose a Fallen Fate or "
                "ignore it (%lld ignores left)",
                (long long)in.ignores_left);
        rsv_prompt_fate(c, who, RSV_PROMPT_FATE);
        break;
    case RSV_AFTER_FATE_MUST:
        who->rs[RSV_C_FATE] = RSV_FATE_MUST;
        who->rs[RSV_C_FATE_DAMAGE] = loss;
        if (in.ignores_left > 0)
            rsv_say(c, who, "is Wounded and took %lld, more than half of %lld "
                    "Resolve: must choose a Fallen Fate", (long long)loss,
                    (long long)in.max);
        else
            rsv_say(c, who, "is Wounded and hurt again with no ignores left: "
                    "must choose a Fallen Fate");
        rsv_prompt_fate(c, who, RSV_PROMPT_FATE_MUST);
        break;
    }
}

void rsv_damage(struct rs_call *c, struct enc_combatant *who, int64_t loss)
{
    bool wounded = rsv_is_wounded(who);
    struct enc_track *t = enc_track(who, RSV_RESOLVE);
    if (t == NULL) {
        rsv_say(c, who, "has no Resolve to lose (/combat set stats:"
                "\"resolve=10\")");
        return;
    }
    int64_t before = t->cur;
    t->cur = before - loss < 0 ? 0 : before - loss;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(c->r, RSV_RESOLVE, 4096);
    ev->a = before;
    ev->b = t->cur;
    ev->secret = who->hidden;
    rsv_follow(c, who, loss, wounded);
}

void rsv_regain(struct rs_call *c, struct enc_combatant *who, int64_t amount)
{
    struct enc_track *t = enc_track(who, RSV_RESOLVE);
    if (t == NULL || amount <= 0)
        return;
    int64_t before = t->cur, after = before + amount;
    if (t->max > 0 && after > t->max)
        after = before > t->max ? before : t->max;
    if (after > ENC_MAX_VALUE)
        after = ENC_MAX_VALUE;
    t->cur = after;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(c->r, RSV_RESOLVE, 4096);
    ev->a = before;
    ev->b = after;
    ev->secret = who->hidden;
    /* A minor NPC defeated at 0 is back when healed. */
    if ((who->flags & ENC_CF_DOWN) && !rsv_is_out(who) && after > 0 &&
        !rsv_is_wounded(who)) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
}

void rsv_after_track(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before)
{
    if (eng_text_casecmp(track, RSV_RESOLVE) != 0)
        return;
    const struct enc_track *t = enc_track_c(who, RSV_RESOLVE);
    if (t == NULL)
        return;
    if (t->cur < before) {
        rsv_follow(c, who, before - t->cur, rsv_is_wounded(who));
    } else if (t->cur > before && (who->flags & ENC_CF_DOWN) &&
               !rsv_is_out(who) && !rsv_is_wounded(who)) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
}

/* ---- /attack ------------------------------------------------------------- */

struct rsv_aopts {
    enum rsv_range range;
    bool melee, ranged, piercing;
    char type[ENC_MAX_STAT_NAME + 1];
    char help[RSV_MAX_WORD + 1];
};

/* Split "key=value" or "key:value" into key and value (value "" if none). */
static void rsv_split(char *word, char **key, char **value)
{
    *key = word;
    *value = word + strlen(word);
    for (char *p = word; *p != '\0'; p++)
        if (*p == '=' || *p == ':') {
            *p = '\0';
            *value = p + 1;
            break;
        }
}

static enum eng_err rsv_parse_aopts(struct rs_call *c, const char *text,
                                    struct rsv_aopts *o)
{
    memset(o, 0, sizeof *o);
    if (text == NULL)
        return ENG_OK;
    if (strlen(text) > RSV_MAX_OPTIONS)
        return enc_fail(c->d, ENG_LIMIT, "options are too long (limit is %d "
                        "bytes)", RSV_MAX_OPTIONS);
    char buf[RSV_MAX_OPTIONS + 1];
    enc_copy(buf, sizeof buf, text);
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w != NULL;
         w = strtok_r(NULL, " ", &save)) {
        char *k, *v;
        rsv_split(w, &k, &v);
        if (eng_text_casecmp(k, "range") == 0) {
            if (!rsv_range_parse(v, &o->range))
                return enc_fail(c->d, ENG_INVALID, "range must be close, "
                                "short, medium, long or extreme");
        } else if (eng_text_casecmp(k, "melee") == 0 && v[0] == '\0') {
            o->melee = true;
        } else if (eng_text_casecmp(k, "ranged") == 0 && v[0] == '\0') {
            o->ranged = true;
        } else if (eng_text_casecmp(k, "piercing") == 0 && v[0] == '\0') {
            o->piercing = true;
        } else if (eng_text_casecmp(k, "type") == 0 && v[0] != '\0') {
            if (strlen(v) + 3 > ENC_MAX_STAT_NAME)
                return enc_fail(c->d, ENG_LIMIT, "type is too long (limit is "
                                "%d bytes)", ENC_MAX_STAT_NAME - 3);
            enc_copy(o->type, sizeof o->type, v);
        } else if (eng_text_casecmp(k, "help") == 0 && v[0] != '\0') {
            enc_copy(o->help, sizeof o->help, v);
        } else {
            enc_fail(c->d, ENG_INVALID, "unknown attack option `%.32s`", w);
            enc_hint(c->d, "options:\"range=long piercing type=energy "
                     "help=Ana,Bo\" (or melee, ranged)");
            return ENG_INVALID;
        }
    }
    if (o->melee && o->ranged)
        return enc_fail(c->d, ENG_INVALID, "an attack is melee or ranged, "
                        "not both");
    if (o->melee && o->range != RSV_RANGE_NONE && o->range != RSV_RANGE_CLOSE)
        return enc_fail(c->d, ENG_INVALID, "a melee attack reaches close "
                        "range only");
    if (o->range != RSV_RANGE_NONE && !o->melee)
        o->ranged = true;
    return ENG_OK;
}

/* Resolve a list of helper names ("Ana,Bo") to combatants with a help
 * ready, none of them the roller, at most RSV_MAX_HELPS. */
static enum eng_err rsv_helpers(struct rs_call *c, const char *list,
                                const struct enc_combatant *roller,
                                struct enc_combatant **out, int *n)
{
    *n = 0;
    if (list == NULL || list[0] == '\0')
        return ENG_OK;
    char buf[RSV_MAX_WORD * 2 + 1];
    if (strlen(list) >= sizeof buf)
        return enc_fail(c->d, ENG_LIMIT, "help list is too long (limit is "
                        "%zu bytes)", sizeof buf - 1);
    enc_copy(buf, sizeof buf, list);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        struct enc_combatant *h = enc_by_name(c->e, w);
        if (h == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "no combatant named %.64s "
                            "to help", w);
        if (*n >= RSV_MAX_HELPS)
            return enc_fail(c->d, ENG_LIMIT, "a roll may benefit from at "
                            "most %d helps", RSV_MAX_HELPS);
        if (h == roller)
            return enc_fail(c->d, ENG_INVALID, "%s cannot help their own "
                            "roll", h->name);
        for (int i = 0; i < *n; i++)
            if (out[i] == h)
                return enc_fail(c->d, ENG_INVALID, "%s is named twice",
                                h->name);
        if (!h->rs[RSV_C_HELP]) {
            enc_fail(c->d, ENG_STATE, "%s has no Help ready", h->name);
            enc_hint(c->d, "on their turn: /assist skill:<rank>");
            return ENG_STATE;
        }
        out[(*n)++] = h;
    }
    return ENG_OK;
}

/* Add the helpers' ranks to a roll already made, spending their helps. */
static int64_t rsv_apply_helps(struct rs_call *c, struct enc_combatant **hs,
                               int n, const struct enc_combatant *roller)
{
    int64_t add = 0;
    for (int i = 0; i < n; i++) {
        add += hs[i]->rs[RSV_C_HELP_RANK];
        hs[i]->rs[RSV_C_HELP] = 0;
        rsv_say(c, hs[i], "helps %s: +%lld", roller->name,
                (long long)hs[i]->rs[RSV_C_HELP_RANK]);
    }
    return add;
}

/* The pool expr with pen dice taken away; expr must then be a plain pool
 * ("4D+1"). Never fewer than the min_dice setting (default 1). */
static enum eng_err rsv_pool_less(struct rs_call *c, const char *expr,
                                  int pen, char *out, size_t n)
{
    if (pen <= 0) {
        enc_copy(out, n, expr);
        return ENG_OK;
    }
    struct dice_expr *x = NULL;
    struct dice_diag dd;
    enum eng_err err = dice_parse(expr, strlen(expr), &x, &dd);
    if (err != ENG_OK)
        return enc_fail(c->d, err, "bad attack dice: %s", dd.msg);
    struct dice_simple s;
    bool simple = dice_expr_simple(x, &s);
    dice_expr_free(x);
    if (!simple || s.count == 0)
        return enc_fail(c->d, ENG_INVALID, "a range penalty takes dice from "
                        "a plain pool like 4D+1, not `%.40s`", expr);
    int64_t min = rsv_setting_int(c->e, "min_dice", 1);
    int64_t count = s.count - pen;
    if (count < min)
        count = min;
    if (count == 0)
        snprintf(out, n, "%lld", (long long)s.modifier);
    else
        snprintf(out, n, "%lldd%d%+lld", (long long)count, (int)s.sides,
                 (long long)s.modifier);
    return ENG_OK;
}

/* The attack or damage pool from a stat pair (attack=4 attack_mod=1 gives
 * 4D+1); false when the dice stat is missing. */
static bool rsv_stat_pool(const struct enc_combatant *who, const char *stat,
                          char *out, size_t n)
{
    const int64_t *dice = enc_stat((struct enc_combatant *)who, stat);
    if (dice == NULL)
        return false;
    char mod[ENC_MAX_STAT_NAME + 1];
    snprintf(mod, sizeof mod, "%s_mod", stat);
    snprintf(out, n, "%lldD%+lld", (long long)*dice,
             (long long)enc_stat_or(who, mod, 0));
    return true;
}

enum eng_err rsv_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct enc_combatant *atk = a->attacker, *tgt = a->target;
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    enum eng_err err = rs_require_actor(c, atk);
    if (err != ENG_OK)
        return err;
    if (rsv_is_out(atk) || !turn_can_act(atk))
        return enc_fail(c->d, ENG_STATE, "%s cannot attack now", atk->name);
    if (rsv_is_out(tgt))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight",
                        tgt->name);
    if (atk == tgt)
        return enc_fail(c->d, ENG_INVALID, "%s cannot attack themself",
                        atk->name);
    if (tgt->flags & ENC_CF_DOWN)
        return enc_fail(c->d, ENG_STATE, "%s is already down", tgt->name);
    bool in_turn = e->current == atk->id;
    if (in_turn) {
        err = rsv_check_action(c, atk, false, "attack");
        if (err != ENG_OK)
            return err;
    } else if (!atk->rs[RSV_C_FIRED]) {
        enc_fail(c->d, ENG_STATE, "it is not %s's turn", atk->name);
        enc_hint(c->d, "a held attack attacks out of turn once triggered: "
                 "/trigger name:\"%s\"", atk->name);
        return ENG_STATE;
    }
    struct rsv_aopts o;
    err = rsv_parse_aopts(c, a->options, &o);
    if (err != ENG_OK)
        return err;
    const int64_t *def = enc_stat(tgt, "defense");
    if (def == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no defense to hit", tgt->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"defense=12\"",
                 tgt->name);
        return ENG_STATE;
    }
    char pool[DICE_MAX_EXPR_LEN + 1];
    if (a->roll != NULL)
        enc_copy(pool, sizeof pool, a->roll);
    else if (!rsv_stat_pool(atk, "attack", pool, sizeof pool)) {
        enc_fail(c->d, ENG_STATE, "%s has no attack pool", atk->name);
        enc_hint(c->d, "roll:\"4D+1\", or stats:\"attack=4 attack_mod=1\"");
        return ENG_STATE;
    }
    char dmg[DICE_MAX_EXPR_LEN + 1] = "";
    if (a->damage != NULL)
        enc_copy(dmg, sizeof dmg, a->damage);
    else
        (void)rsv_stat_pool(atk, "damage", dmg, sizeof dmg);

    struct enc_combatant *helpers[RSV_MAX_HELPS];
    int nhelp = 0;
    err = rsv_helpers(c, o.help, atk, helpers, &nhelp);
    if (err != ENG_OK)
        return err;
    struct enc_cond *aim = enc_cond_find(atk, RSV_AIM);
    bool aim_range = enc_cond_find(atk, RSV_AIM_RANGE) != NULL;
    int pen = rsv_range_penalty(o.range, o.ranged, aim_range);
    char expr[DICE_MAX_EXPR_LEN + 1];
    err = rsv_pool_less(c, pool, pen, expr, sizeof expr);
    if (err != ENG_OK)
        return err;
    if (dmg[0] != '\0') {
        /* Checked now so a bad expression fails before anything changes;
         * rolled only on a hit. */
        struct dice_expr *x = NULL;
        struct dice_diag dd;
        err = dice_parse(dmg, strlen(dmg), &x, &dd);
        if (err != ENG_OK)
            return enc_fail(c->d, err, "bad damage dice: %s", dd.msg);
        dice_expr_free(x);
    }

    /* Everything is checked: roll, then change things. */
    char label[48];
    if (pen > 0)
        snprintf(label, sizeof label, "attack (-%dD at %s)", pen,
                 rsv_range_names[o.range]);
    else
        snprintf(label, sizeof label, "attack");
    struct rs_rolled hit;
    err = rs_roll(c, NULL, label, expr, &hit);
    if (err != ENG_OK)
        return err;
    int64_t total = hit.total;
    if (aim != NULL) {
        total += aim->value;
        rsv_say(c, atk, "aimed: +%d", (int)aim->value);
    }
    if (aim != NULL || aim_range) {
        (void)enc_cond_remove(e, atk, aim ? RSV_AIM : RSV_AIM_RANGE, c->r,
                              c->d);
        if (aim != NULL && aim_range)
            (void)enc_cond_remove(e, atk, RSV_AIM_RANGE, c->r, c->d);
    }
    total += rsv_apply_helps(c, helpers, nhelp, atk);

    const struct enc_cond *dq = enc_cond_find(tgt, RSV_DEFENDING);
    char ar_name[ENC_MAX_STAT_NAME + 1];
    snprintf(ar_name, sizeof ar_name, "ar_%s", o.type);
    int64_t armor = o.type[0] != '\0' && enc_stat(tgt, ar_name) != NULL
                        ? enc_stat_or(tgt, ar_name, 0)
                        : enc_stat_or(tgt, "ar", 0);
    struct rs_rolled dr = {.roll_idx = -1};
    if (dmg[0] != '\0' && total >= *def + (dq ? dq->value : 0)) {
        err = rs_roll(c, NULL, "damage", dmg, &dr);
        if (err != ENG_OK)
            return err;
    }
    struct rsv_hit_in in = {
        .attack = total,
        .defense = *def,
        .defend_bonus = dq ? dq->value : 0,
        .armor = armor,
        .piercing = o.piercing,
        .damage = dr.total,
    };
    struct rsv_hit_out out;
    rsv_hit(&in, &out);

    if (in_turn)
        rsv_spend_action(atk, false);
    else
        atk->rs[RSV_C_FIRED] = 0;

    struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, atk->id);
    ev->other = tgt->id;
    ev->a = total;
    ev->b = in.defense + in.defend_bonus;
    ev->c = out.hit;
    enc_event_roll(c->r, ev, hit.roll_idx);
    ev->secret = atk->hidden;
    enc_event_text(c->r, ev, "%s", out.hit ? "hit" : "miss");
    if (out.defend_lapses) {
        rsv_say(c, tgt, "Defend turned the hit into a miss; Defense is back "
                "to %lld", (long long)in.defense);
        (void)enc_cond_remove(e, tgt, RSV_DEFENDING, c->r, c->d);
    }
    if (!out.hit || dmg[0] == '\0')
        return ENG_OK;
    if (out.armor_halved)
        rsv_say(c, tgt, "beaten by %d or more: armor %lld counts as %lld",
                RSV_OVERKILL, (long long)armor, (long long)out.armor);
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, atk->id);
    dv->other = tgt->id;
    dv->a = out.loss;
    enc_event_roll(c->r, dv, dr.roll_idx);
    dv->secret = tgt->hidden;
    enc_event_text(c->r, dv, "%lld - armor %lld",
             (long long)dr.total, (long long)out.armor);
    if (out.loss > 0)
        rsv_damage(c, tgt, out.loss);
    return ENG_OK;
}

/* ---- /check: an attribute check others may help ------------------------- */

enum eng_err rsv_check(struct rs_call *c)
{
    struct enc_combatant *who = NULL;
    enum eng_err err;
    if (rs_opt(c->opts, c->nopts, "name") != NULL)
        err = rs_opt_combatant(c, "name", &who);
    else
        err = rsv_require_current(c, &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    const char *roll = rs_opt(c->opts, c->nopts, "roll");
    if (roll == NULL || roll[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "roll: is required (like 3D+1)");
    int64_t dc = 0;
    err = rs_opt_int(c, "dc", 0, ENC_MAX_VALUE, 0, &dc);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *helpers[RSV_MAX_HELPS];
    int nhelp = 0;
    err = rsv_helpers(c, rs_opt(c->opts, c->nopts, "help"), who, helpers,
                      &nhelp);
    if (err != ENG_OK)
        return err;
    struct rs_rolled r;
    err = rs_roll(c, NULL, "check", roll, &r);
    if (err != ENG_OK)
        return err;
    int64_t total = r.total + rsv_apply_helps(c, helpers, nhelp, who);
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ROLL, who->id);
    ev->a = total;
    enc_event_roll(c->r, ev, r.roll_idx);
    ev->secret = who->hidden;
    if (dc > 0)
        enc_event_text(c->r, ev, "check %lld vs %lld: %s",
                 (long long)total, (long long)dc,
                 total >= dc ? "success" : "failure");
    else
        enc_event_text(c->r, ev, "check %lld", (long long)total);
    return ENG_OK;
}
