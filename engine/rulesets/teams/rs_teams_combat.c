/*
 * rs_teams_combat.c - attacks, damage, unconsciousness and death for the
 * `teams` ruleset (see rs_teams.h).
 */
#include "rs_teams.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"

/* ---- damage types -------------------------------------------------------- */

static const struct {
    const char *name;
    enum te_dmg_class cls;
} te_types[] = {
    {"arcane", TE_DMG_ELEMENTAL},    {"bludgeoning", TE_DMG_PHYSICAL},
    {"cold", TE_DMG_ELEMENTAL},      {"fire", TE_DMG_ELEMENTAL},
    {"piercing", TE_DMG_PHYSICAL},   {"psychic", TE_DMG_TYPELESS},
    {"radiant", TE_DMG_ELEMENTAL},   {"shock", TE_DMG_ELEMENTAL},
    {"slashing", TE_DMG_PHYSICAL},   {"void", TE_DMG_ELEMENTAL},
    {"physical", TE_DMG_PHYSICAL},   {"elemental", TE_DMG_ELEMENTAL},
    {"typeless", TE_DMG_TYPELESS},
};

bool te_damage_class(const char *name, enum te_dmg_class *out)
{
    for (size_t i = 0; i < sizeof te_types / sizeof te_types[0]; i++)
        if (eng_text_casecmp(name, te_types[i].name) == 0) {
            *out = te_types[i].cls;
            return true;
        }
    return false;
}

/* ---- pure resolution ----------------------------------------------------- */

int te_advantage(int adv, int dis)
{
    int n = adv - dis;
    if (n > TE_MAX_TESTS - 1)
        n = TE_MAX_TESTS - 1;
    if (n < -(TE_MAX_TESTS - 1))
        n = -(TE_MAX_TESTS - 1);
    return n;
}

void te_attack_resolve(const struct te_attack_in *in,
                       struct te_attack_out *out)
{
    memset(out, 0, sizeof *out);
    int64_t kept = in->tests[0];
    for (int i = 1; i < in->ntests; i++) {
        if (in->adv > 0 && in->tests[i] > kept)
            kept = in->tests[i];
        if (in->adv < 0 && in->tests[i] < kept)
            kept = in->tests[i];
    }
    out->kept = kept;
    out->result = kept - in->map * in->prior_attacks;
    /* Larger attackers see a bigger target to hit and a thinner guard. */
    out->evasion = in->evasion + in->size_diff;
    out->deflection = in->deflection - in->size_diff;
    if (out->deflection < 0)
        out->deflection = 0;
    out->crit = in->luck >= in->crit_threshold;
    if (!out->crit && in->stray_possible && in->luck <= 1) {
        out->stray = true;
        return;
    }
    out->hit = out->crit || out->result >= out->evasion;
    if (!out->hit)
        return;
    out->raw = out->result + (out->crit ? in->crit_damage : in->damage);
    int64_t dealt = in->reducible ? out->raw - out->deflection : out->raw;
    out->damage = dealt < 1 ? 1 : dealt;
}

void te_damage_apply(struct te_body *b, int64_t amount, bool nonlethal,
                     struct te_damage_out *out)
{
    memset(out, 0, sizeof *out);
    if (amount < 0)
        amount = 0;
    int64_t en = b->endurance > 0 ? b->endurance : 0;
    out->to_endurance = amount < en ? amount : en;
    b->endurance -= out->to_endurance;
    int64_t rest = amount - out->to_endurance;
    int64_t hp_before = b->health > 0 ? b->health : 0;
    out->to_health = rest < hp_before ? rest : hp_before;
    b->health -= out->to_health;
    if (rest > 0) {
        if (hp_before <= 0) {
            /* Already at zero: any more damage risks death. */
            out->risk_death = true;
        } else if (b->health <= 0) {
            out->unconscious = true;
            out->risk_death = rest > hp_before && !nonlethal;
        } else {
            int64_t missing = b->health_max - b->health;
            if (missing > b->con)
                out->fortify_dc = missing;
        }
    }
    out->harmed = b->endurance_max > 0 && b->endurance * 2 <= b->endurance_max;
    out->bloodied = b->health < b->health_max;
}

void te_block_apply(int64_t raw, int64_t block, int64_t durability,
                    struct te_block_out *out)
{
    int64_t left = raw - block;
    if (left < 1)
        left = 1;
    out->to_item = left < durability ? left : durability;
    out->through = left - out->to_item;
    out->durability = durability - out->to_item;
}

/* ---- rolling helpers ----------------------------------------------------- */

enum eng_err te_stat_expr(struct rs_call *c, const struct enc_combatant *who,
                          const char *attr, const char *skill,
                          const char *bonus, char *buf, size_t n)
{
    int64_t a = enc_stat_or(who, attr, 0);
    if (a <= 0) {
        enc_fail(c->d, ENG_STATE, "%s has no %s die for this test",
                 who->name, attr);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"%s=6\" or give "
                 "roll:", who->name, attr);
        return ENG_STATE;
    }
    size_t at = (size_t)snprintf(buf, n, "1d%lld", (long long)a);
    int64_t s = skill ? enc_stat_or(who, skill, 0) : 0;
    if (s > 0 && at < n)
        at += (size_t)snprintf(buf + at, n - at, "+1d%lld", (long long)s);
    int64_t k = bonus ? enc_stat_or(who, bonus, 0) : 0;
    if (k != 0 && at < n)
        snprintf(buf + at, n - at, "%+lld", (long long)k);
    return ENG_OK;
}

enum eng_err te_luck_test(struct rs_call *c, struct enc_combatant *who,
                          const char *label, int64_t dc, bool *passed)
{
    char expr[48];
    snprintf(expr, sizeof expr, "1d%d%+lld", TE_LUCK_DIE,
             (long long)enc_stat_or(who, "luck", 0));
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, label, expr, &r);
    if (err != ENG_OK)
        return err;
    *passed = r.total >= dc;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ROLL, who->id);
    ev->text = enc_result_strdup(c->r, label, 4096);
    ev->a = r.total;
    ev->b = dc;
    ev->c = *passed;
    enc_event_roll(c->r, ev, r.roll_idx);
    ev->secret = who->hidden;
    return ENG_OK;
}

/* ---- damage -------------------------------------------------------------- */

static void te_track_event(struct rs_call *c, struct enc_combatant *who,
                           const char *track, int64_t before, int64_t after)
{
    if (before == after)
        return;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(c->r, track, 4096);
    ev->a = before;
    ev->b = after;
    ev->secret = who->hidden;
}

enum eng_err te_deal_damage(struct rs_call *c, struct enc_combatant *who,
                            int64_t amount, bool nonlethal)
{
    struct enc_track *hp = enc_track(who, TE_HEALTH);
    struct enc_track *en = enc_track(who, TE_ENDURANCE);
    if (hp == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no health to damage", who->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"hp=12 "
                 "endurance=12\"", who->name);
        return ENG_STATE;
    }
    struct te_body b = {
        .endurance = en ? en->cur : 0,
        .endurance_max = en ? en->max : 0,
        .health = hp->cur,
        .health_max = hp->max,
        .con = enc_stat_or(who, "con", 0),
    };
    struct te_damage_out o;
    te_damage_apply(&b, amount, nonlethal, &o);
    if (en != NULL) {
        te_track_event(c, who, TE_ENDURANCE, en->cur, b.endurance);
        en->cur = b.endurance;
    }
    te_track_event(c, who, TE_HEALTH, hp->cur, b.health);
    hp->cur = b.health;
    if (who->flags & ENC_CF_DEAD)
        return ENG_OK;
    if (o.harmed && o.to_endurance > 0)
        te_say(c, who, "%s is harmed", who->name);
    if (o.bloodied && o.to_health > 0)
        te_say(c, who, "%s is bloodied", who->name);
    if (o.unconscious)
        te_knock_out(c, who);
    if (o.risk_death) {
        int64_t dc = enc_stat_or(who, "death_dc",
                                 te_setting_int(c->e, "death_dc",
                                                TE_DEATH_DC));
        bool passed;
        enum eng_err err = te_luck_test(c, who, "death test", dc, &passed);
        if (err != ENG_OK)
            return err;
        if (!passed) {
            te_kill(c, who);
        } else {
            int64_t step = te_setting_int(c->e, "death_step", TE_DEATH_STEP);
            err = enc_stat_set(who, "death_dc", dc + step, c->d);
            if (err != ENG_OK)
                return err;
            te_say(c, who, "%s cheats death (death test now %lld)",
                   who->name, (long long)(dc + step));
        }
    }
    if (o.fortify_dc > 0 && !(who->flags & ENC_CF_DOWN)) {
        who->rs[TE_C_FORTIFY] = o.fortify_dc;
        struct enc_event *ev = enc_emit(c->r, ENC_EV_PROMPT, who->id);
        enc_event_text(c->r, ev, "%.40s must fortify against "
                 "%lld or fall unconscious", who->name,
                 (long long)o.fortify_dc);
        ev->a = TE_PROMPT_FORTIFY;
    }
    return ENG_OK;
}

/* ---- /attack options ----------------------------------------------------- */

/* What the options text of /attack says. */
struct te_aopts {
    char attr[ENC_MAX_STAT_NAME + 1];
    int adv, dis;
    bool sneak, flank;
    char crit[DICE_MAX_EXPR_LEN + 1];
    int64_t threshold;
    enum te_dmg_class cls;
    bool ranged, nonlethal, maneuver, free, reaction;
    char adjacent[TE_MAX_OPTIONS + 1];
    char block[ENC_MAX_STAT_NAME + 1];
    char parry[ENC_MAX_STAT_NAME + 1];
    char dodge[DICE_MAX_EXPR_LEN + 1];
    char intercept[ENC_MAX_NAME + 1];
};

/* Next token "key" or "key=value" (value may be "quoted"); false at the
 * end. */
static bool te_token(const char **pp, char *key, size_t nk, char *val,
                     size_t nv)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    if (*p == '\0')
        return false;
    size_t k = 0;
    while (*p && *p != '=' && *p != ':' && *p != ' ' && *p != '\t') {
        if (k + 1 < nk)
            key[k++] = *p;
        p++;
    }
    key[k] = '\0';
    size_t v = 0;
    if (*p == '=' || *p == ':') {
        p++;
        char stop = ' ';
        if (*p == '"') {
            stop = '"';
            p++;
        }
        while (*p && *p != stop && !(stop == ' ' && *p == '\t')) {
            if (v + 1 < nv)
                val[v++] = *p;
            p++;
        }
        if (stop == '"' && *p == '"')
            p++;
    }
    val[v] = '\0';
    *pp = p;
    return true;
}

static bool te_item_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > ENC_MAX_STAT_NAME - 7)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_'))
            return false;
    }
    return true;
}

static enum eng_err te_parse_aopts(struct rs_call *c, const char *text,
                                   struct te_aopts *o)
{
    memset(o, 0, sizeof *o);
    enc_copy(o->attr, sizeof o->attr, "str");
    o->threshold = TE_CRIT_DEFAULT;
    o->cls = TE_DMG_TYPELESS;
    if (text == NULL)
        return ENG_OK;
    if (strlen(text) > TE_MAX_OPTIONS)
        return enc_fail(c->d, ENG_LIMIT, "options are too long (limit is "
                        "%d bytes)", TE_MAX_OPTIONS);
    const char *p = text;
    char key[32], val[TE_MAX_OPTIONS + 1];
    while (te_token(&p, key, sizeof key, val, sizeof val)) {
        int64_t x;
        if (enc_name_eq(key, "sneak"))
            o->sneak = true;
        else if (enc_name_eq(key, "flank"))
            o->flank = true;
        else if (enc_name_eq(key, "adv"))
            o->adv++;
        else if (enc_name_eq(key, "dis"))
            o->dis++;
        else if (enc_name_eq(key, "ranged") || enc_name_eq(key, "thrown"))
            o->ranged = true;
        else if (enc_name_eq(key, "nonlethal"))
            o->nonlethal = true;
        else if (enc_name_eq(key, "maneuver"))
            o->maneuver = true;
        else if (enc_name_eq(key, "free"))
            o->free = true;
        else if (enc_name_eq(key, "reaction"))
            o->reaction = true;
        else if (enc_name_eq(key, "attr")) {
            if (val[0] == '\0' || strlen(val) > ENC_MAX_STAT_NAME)
                return enc_fail(c->d, ENG_INVALID, "attr= names a stat, "
                                "like attr=dex");
            enc_copy(o->attr, sizeof o->attr, val);
        } else if (enc_name_eq(key, "crit")) {
            if (val[0] == '\0' || strlen(val) > DICE_MAX_EXPR_LEN)
                return enc_fail(c->d, ENG_INVALID, "crit= is the critical "
                                "damage, like crit=8");
            enc_copy(o->crit, sizeof o->crit, val);
        } else if (enc_name_eq(key, "threshold")) {
            if (!eng_text_to_int(val, &x) || x < 1 || x > 100)
                return enc_fail(c->d, ENG_RANGE, "threshold= must be 1 to "
                                "100, like threshold=19");
            o->threshold = x;
        } else if (enc_name_eq(key, "type")) {
            if (!te_damage_class(val, &o->cls))
                return enc_fail(c->d, ENG_INVALID, "unknown damage type "
                                "%.24s (arcane, bludgeoning, cold, fire, "
                                "piercing, psychic, radiant, shock, "
                                "slashing, void)", val);
        } else if (enc_name_eq(key, "adjacent")) {
            o->ranged = true;
            enc_copy(o->adjacent, sizeof o->adjacent, val);
        } else if (enc_name_eq(key, "block") || enc_name_eq(key, "parry")) {
            if (!te_item_name_ok(val))
                return enc_fail(c->d, ENG_INVALID, "%s= names an item "
                                "(letters, digits, _; up to %d), like "
                                "%s=shield", key, ENC_MAX_STAT_NAME - 7,
                                key);
            enc_copy(enc_name_eq(key, "block") ? o->block : o->parry,
                     sizeof o->block, val);
        } else if (enc_name_eq(key, "dodge")) {
            if (val[0] == '\0' || strlen(val) > DICE_MAX_EXPR_LEN)
                return enc_fail(c->d, ENG_INVALID, "dodge= is the dodge "
                                "test, like dodge=1d6+1d6");
            enc_copy(o->dodge, sizeof o->dodge, val);
        } else if (enc_name_eq(key, "intercept")) {
            if (val[0] == '\0' || strlen(val) > ENC_MAX_NAME)
                return enc_fail(c->d, ENG_INVALID, "intercept= names the "
                                "ally who steps in");
            enc_copy(o->intercept, sizeof o->intercept, val);
        } else {
            enc_fail(c->d, ENG_INVALID, "unknown attack option %.24s", key);
            enc_hint(c->d, "options: sneak flank adv dis attr=dex type= "
                     "crit= threshold= ranged adjacent= nonlethal maneuver "
                     "block= parry= dodge= intercept=");
            return ENG_INVALID;
        }
    }
    if (o->block[0] && o->parry[0])
        return enc_fail(c->d, ENG_INVALID, "block and parry are two "
                        "reactions: pick one");
    return ENG_OK;
}

/* An item's stat "<item>_<what>". */
static int64_t *te_item_stat(struct enc_combatant *who, const char *item,
                             const char *what)
{
    /* Item names are short enough (te_item_name_ok) that this fits. */
    char name[ENC_MAX_STAT_NAME + 16];
    snprintf(name, sizeof name, "%s_%s", item, what);
    return enc_stat(who, name);
}

static int64_t te_item_durability(struct enc_combatant *who,
                                  const char *item)
{
    int64_t *d = te_item_stat(who, item, "dur");
    if (d != NULL)
        return *d;
    int64_t *metal = te_item_stat(who, item, "metal");
    return metal != NULL && *metal ? TE_DUR_METAL : TE_DUR_OTHER;
}

static enum eng_err te_item_set_durability(struct rs_call *c,
                                           struct enc_combatant *who,
                                           const char *item, int64_t v)
{
    char name[ENC_MAX_STAT_NAME + 16];
    snprintf(name, sizeof name, "%s_dur", item);
    return enc_stat_set(who, name, v, c->d);
}

/* The adjacent characters named in text (comma-separated), into ids. */
static enum eng_err te_adjacent(struct rs_call *c, const char *text,
                                const struct enc_combatant *target,
                                uint32_t *ids, int *n)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ',')
            p++;
        const char *e = p;
        while (e > s && e[-1] == ' ')
            e--;
        char name[ENC_MAX_NAME + 1];
        size_t len = (size_t)(e - s);
        if (len > ENC_MAX_NAME)
            return enc_fail(c->d, ENG_LIMIT, "adjacent: a name is too long");
        memcpy(name, s, len);
        name[len] = '\0';
        struct enc_combatant *who = enc_by_name(c->e, name);
        if (who == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "adjacent: no combatant "
                            "named %s", name);
        if (who == target)
            continue;
        if (*n >= TE_MAX_ADJACENT)
            return enc_fail(c->d, ENG_LIMIT, "adjacent: too many (limit is "
                            "%d)", TE_MAX_ADJACENT);
        ids[(*n)++] = who->id;
    }
    return ENG_OK;
}

/* ---- /attack ------------------------------------------------------------- */

static bool te_has_cond(struct enc_combatant *who, const char *name)
{
    return enc_cond_find(who, name) != NULL;
}

/* Spend one reaction (free ones cost none) and the stamina for what. */
static enum eng_err te_spend_reaction(struct rs_call *c,
                                      struct enc_combatant *who, bool free,
                                      const char *what)
{
    if (!free) {
        if (who->rs[TE_C_REACTIONS] <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no reaction left for "
                            "%s", who->name, what);
        who->rs[TE_C_REACTIONS]--;
    }
    return te_spend_track(c, who, TE_STAMINA, 1, what);
}

static int64_t te_defl(struct enc_combatant *who, enum te_dmg_class cls)
{
    if (cls == TE_DMG_PHYSICAL)
        return enc_stat_or(who, "pdr", 0);
    if (cls == TE_DMG_ELEMENTAL)
        return enc_stat_or(who, "edr", 0);
    return 0;
}

enum eng_err te_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct encounter *e = c->e;
    struct enc_combatant *atk = a->attacker;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    enum eng_err err = rs_require_actor(c, atk);
    if (err != ENG_OK)
        return err;
    if (!te_can_act(atk))
        return enc_fail(c->d, ENG_STATE, "%s cannot attack while "
                        "unconscious", atk->name);
    struct te_aopts o;
    err = te_parse_aopts(c, a->options, &o);
    if (err != ENG_OK)
        return err;
    if (o.free && !c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may make a free "
                        "attack");
    bool own_turn = e->current == atk->id;
    if (!o.free) {
        if (own_turn && !o.reaction) {
            if (atk->rs[TE_C_EXT] > 0)
                return enc_fail(c->d, ENG_STATE, "%s must continue or "
                                "abandon the action under way first",
                                atk->name);
            if (atk->rs[TE_C_ACTIONS] <= 0)
                return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                                atk->name);
        } else if (o.reaction) {
            if (atk->rs[TE_C_REACTIONS] <= 0)
                return enc_fail(c->d, ENG_STATE, "%s has no reaction left",
                                atk->name);
        } else {
            enc_fail(c->d, ENG_STATE, "it is not %s's turn", atk->name);
            enc_hint(c->d, "a readied attack: options:\"reaction\"");
            return ENG_STATE;
        }
    }
    char expr[DICE_MAX_EXPR_LEN + 1];
    if (a->roll != NULL)
        enc_copy(expr, sizeof expr, a->roll);
    else {
        err = te_stat_expr(c, atk, o.attr, "combat", "prof", expr,
                           sizeof expr);
        if (err != ENG_OK)
            return err;
    }
    uint32_t adj[TE_MAX_ADJACENT];
    int nadj = 0;
    err = te_adjacent(c, o.adjacent, a->target, adj, &nadj);
    if (err != ENG_OK)
        return err;
    struct enc_combatant *def = a->target;
    struct enc_combatant *icp = NULL;
    if (o.intercept[0]) {
        icp = enc_by_name(e, o.intercept);
        if (icp == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "intercept: no combatant "
                            "named %s", o.intercept);
        if (icp == a->target || icp->side != a->target->side)
            return enc_fail(c->d, ENG_INVALID, "intercept: %s is not an "
                            "ally of %s", icp->name, a->target->name);
    }
    bool defends = icp || o.block[0] || o.parry[0] || o.dodge[0];
    struct enc_combatant *defender = icp ? icp : def;
    if (defends) {
        err = rs_require_actor(c, defender);
        if (err != ENG_OK)
            return err;
        if (!te_can_act(defender))
            return enc_fail(c->d, ENG_STATE, "%s cannot react while "
                            "unconscious", defender->name);
        int need = (icp ? 1 : 0) + ((o.block[0] || o.parry[0]) && !icp) +
                   (o.dodge[0] && !icp);
        if (defender->rs[TE_C_REACTIONS] < need)
            return enc_fail(c->d, ENG_STATE, "%s has %lld reaction(s) left "
                            "and needs %d", defender->name,
                            (long long)defender->rs[TE_C_REACTIONS], need);
        int stam = (icp ? 1 : 0) + (o.block[0] || o.parry[0]) +
                   (o.dodge[0] ? 1 : 0);
        err = te_check_track(c, defender, TE_STAMINA, stam, "react");
        if (err != ENG_OK)
            return err;
        const char *item = o.block[0] ? o.block : o.parry;
        if (item[0]) {
            if (o.block[0] && te_item_stat(defender, item, "block") == NULL)
                return enc_fail(c->d, ENG_STATE, "%s's %s has no block "
                                "value (stat %s_block)", defender->name,
                                item, item);
            if (te_item_durability(defender, item) <= 0)
                return enc_fail(c->d, ENG_STATE, "%s's %s is broken",
                                defender->name, item);
        }
    }
    if (a->damage != NULL && enc_track(defender, TE_HEALTH) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no health to damage",
                        defender->name);

    /* Everything checked: spend, roll, resolve. */
    if (!o.free) {
        if (o.reaction)
            atk->rs[TE_C_REACTIONS]--;
        else
            atk->rs[TE_C_ACTIONS]--;
    }
    if (o.reaction && te_has_cond(atk, TE_COND_READY)) {
        err = enc_cond_remove(e, atk, TE_COND_READY, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    int64_t prior = atk->rs[TE_C_ATTACKS]++;

    if (icp != NULL) {
        err = te_spend_reaction(c, icp, false, "intercept");
        if (err != ENG_OK)
            return err;
        te_say(c, icp, "%s intercepts and takes the attack in place of %s",
               icp->name, def->name);
        def = icp;
    }

    int adv = (o.sneak ? 1 : 0) + (o.flank ? 1 : 0) + o.adv;
    int dis = o.dis;
    if (te_has_cond(def, TE_COND_PRONE)) {
        if (o.ranged)
            dis++;
        else
            adv++;
    }
    if (o.ranged && te_has_cond(def, TE_COND_COVER))
        dis++;
    const char *advset = enc_setting(e, "advantage");
    int net = advset && enc_name_eq(advset, "off") ? 0 : te_advantage(adv,
                                                                      dis);
    struct te_attack_in in = {0};
    in.ntests = 1 + (net < 0 ? -net : net);
    in.adv = net;
    for (int i = 0; i < in.ntests; i++) {
        struct rs_rolled r;
        err = rs_roll(c, NULL, i ? "attack test (again)" : "attack test",
                      expr, &r);
        if (err != ENG_OK)
            return err;
        in.tests[i] = r.total;
    }
    char lexpr[48];
    snprintf(lexpr, sizeof lexpr, "1d%d%+lld", TE_LUCK_DIE,
             (long long)enc_stat_or(atk, "luck", 0));
    struct rs_rolled luck;
    err = rs_roll(c, NULL, "luck die", lexpr, &luck);
    if (err != ENG_OK)
        return err;
    in.luck = luck.total;
    in.prior_attacks = prior;
    in.map = te_setting_int(e, "map", TE_MAP);
    in.crit_threshold = o.threshold;
    in.reducible = o.cls != TE_DMG_TYPELESS;

    int64_t dmg = 0, crit_dmg = 0;
    if (a->damage != NULL) {
        struct rs_rolled r;
        err = rs_roll(c, NULL, "weapon damage", a->damage, &r);
        if (err != ENG_OK)
            return err;
        dmg = r.total;
        crit_dmg = dmg;
    }
    bool crit_given = o.crit[0] != '\0';
    for (int pass = 0; pass < 2; pass++) {
        int64_t guard = te_has_cond(def, TE_COND_GUARD) ? 1 : 0;
        in.evasion = enc_stat_or(def, "evasion", 0) + guard;
        in.deflection = te_defl(def, o.cls) + (in.reducible ? guard : 0);
        in.size_diff = enc_stat_or(atk, "size", TE_SIZE_MEDIUM) -
                       enc_stat_or(def, "size", TE_SIZE_MEDIUM);
        in.stray_possible = pass == 0 && o.ranged && nadj > 0;
        in.damage = dmg;
        in.crit_damage = crit_dmg;
        struct te_attack_out out;
        te_attack_resolve(&in, &out);
        if (out.stray) {
            uint32_t id = adj[eng_rng_below(c->rng, (uint64_t)nadj)];
            struct enc_combatant *nt = enc_by_id(e, id);
            te_say(c, atk, "luck %lld: the shot strays to %s",
                   (long long)in.luck, nt->name);
            if (nt != def)
                defends = false;
            def = nt;
            continue;
        }
        if (out.crit && crit_given) {
            struct rs_rolled r;
            err = rs_roll(c, NULL, "critical damage", o.crit,
                          &r);
            if (err != ENG_OK)
                return err;
            in.crit_damage = r.total;
            te_attack_resolve(&in, &out);
        }
        /* Dodge: the defender's test against the attack's result. */
        if (defends && o.dodge[0] && out.hit) {
            err = te_spend_reaction(c, def, icp != NULL, "dodge");
            if (err != ENG_OK)
                return err;
            struct rs_rolled r;
            err = rs_roll(c, NULL, "dodge test", o.dodge, &r);
            if (err != ENG_OK)
                return err;
            int64_t dodge = r.total + (te_has_cond(def, TE_COND_GUARD) ?
                                       1 : 0);
            if (dodge >= out.result && !out.crit) {
                out.hit = false;
                te_say(c, def, "%s dodges (%lld against %lld)", def->name,
                       (long long)dodge, (long long)out.result);
            }
        }
        if (defends && o.parry[0] && out.hit) {
            err = te_spend_reaction(c, def, icp != NULL, "parry");
            if (err != ENG_OK)
                return err;
            int64_t *pv = te_item_stat(def, o.parry, "parry");
            int64_t add = pv ? *pv : 1;
            int64_t dur = te_item_durability(def, o.parry);
            err = te_item_set_durability(c, def, o.parry, dur - 1);
            if (err != ENG_OK)
                return err;
            if (o.cls == TE_DMG_PHYSICAL) {
                in.deflection += add;
                te_attack_resolve(&in, &out);
            }
            te_say(c, def, "%s parries with %s (+%lld deflection; "
                   "durability %lld)", def->name, o.parry, (long long)add,
                   (long long)(dur - 1));
        }
        struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, atk->id);
        ev->other = def->id;
        ev->a = out.result;
        ev->b = out.evasion;
        ev->c = out.hit;
        ev->secret = atk->hidden;
        enc_event_text(c->r, ev, "%s%s (luck %lld%s)",
                 out.crit ? "critical hit" : out.hit ? "hit" : "miss",
                 prior > 0 ? ", multiple attack penalty" : "",
                 (long long)in.luck, in.ntests > 1 ?
                 (net > 0 ? ", advantage" : ", disadvantage") : "");
        if (!out.hit)
            break;
        if (a->damage == NULL) {
            te_say(c, atk, "hit with a test of %lld: give damage: to apply "
                   "it", (long long)out.result);
            break;
        }
        if (out.crit && !crit_given)
            te_say(c, atk, "no crit= given: the normal damage is used");
        int64_t amount = out.damage;
        if (defends && o.block[0]) {
            err = te_spend_reaction(c, def, icp != NULL, "block");
            if (err != ENG_OK)
                return err;
            int64_t bv = *te_item_stat(def, o.block, "block");
            struct te_block_out bo;
            te_block_apply(out.raw, bv, te_item_durability(def, o.block),
                           &bo);
            err = te_item_set_durability(c, def, o.block, bo.durability);
            if (err != ENG_OK)
                return err;
            te_say(c, def, "%s blocks with %s: %lld to it (durability "
                   "%lld)%s", def->name, o.block, (long long)bo.to_item,
                   (long long)bo.durability, bo.through > 0 ?
                   ", the rest gets through" : "");
            amount = bo.through;
        }
        struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, atk->id);
        dv->other = def->id;
        dv->a = amount;
        dv->secret = def->hidden;
        if (amount > 0) {
            err = te_deal_damage(c, def, amount, o.nonlethal);
            if (err != ENG_OK)
                return err;
        }
        break;
    }
    te_settle(c);
    return ENG_OK;
}
