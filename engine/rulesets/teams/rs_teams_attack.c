/*
 * rs_teams_attack.c - /attack for the `teams` ruleset: its options (bound
 * to te_attack_opts by the kit), the costs, the test with its advantage,
 * penalty and luck die, the defender's reactions, and the damage. Every
 * number the reply shows is an event's: the rolls with their dice (those
 * not kept struck through), and each modifier with its reason.
 */
#include "rs_teams.h"

#include <stdio.h>
#include <string.h>

#include "eng_text.h"

/* ---- options ------------------------------------------------------------ */

/* What /attack options: said, read from the bound tokens. */
struct te_aopts {
    const char *attr;        /* the attribute die of the test */
    int adv, dis;            /* advantage and disadvantage given */
    bool sneak, flank;
    const char *crit;        /* critical damage dice, or NULL */
    int64_t threshold;       /* luck for a critical */
    enum te_dmg_class cls;
    const char *type;        /* the damage type as given, or NULL */
    bool ranged;             /* thrown or projectile: may stray */
    bool nonlethal, free, reaction;
    const char *adjacent;    /* "a, b": who a stray shot may hit */
    const char *block, *parry; /* items, or NULL */
    const char *dodge;       /* the dodge test's dice, or NULL */
    struct enc_combatant *intercept;
};

static const struct rs_arg *te_aarg(const struct rs_attack *a,
                                    const char *name)
{
    return rs_arg_in(a->args, a->nargs, name);
}

static bool te_aflag(const struct rs_attack *a, const char *name)
{
    const struct rs_arg *x = te_aarg(a, name);
    return x != NULL && x->i != 0;
}

static const char *te_atext(const struct rs_attack *a, const char *name)
{
    const struct rs_arg *x = te_aarg(a, name);
    return x != NULL ? x->text : NULL;
}

static bool te_item_name_ok(const char *s)
{
    for (const char *p = s; *p != '\0'; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    return true;
}

static enum eng_err te_read_aopts(struct rs_call *c, const struct rs_attack *a,
                                  struct te_aopts *o)
{
    memset(o, 0, sizeof *o);
    const struct rs_arg *x;
    o->attr = te_atext(a, "attr") ? te_atext(a, "attr") : "str";
    o->sneak = te_aflag(a, "sneak");
    o->flank = te_aflag(a, "flank");
    o->adv = (x = te_aarg(a, "adv")) != NULL ? (int)x->i : 0;
    o->dis = (x = te_aarg(a, "dis")) != NULL ? (int)x->i : 0;
    o->crit = te_atext(a, "crit");
    o->threshold = (x = te_aarg(a, "threshold")) != NULL ? x->i
                                                         : TE_CRIT_DEFAULT;
    o->type = te_atext(a, "type");
    o->cls = TE_DMG_TYPELESS;
    if (o->type != NULL && !te_damage_class(o->type, &o->cls))
        return enc_fail(c->d, ENG_INVALID, "type: unknown damage type %.24s",
                        o->type);
    o->ranged = te_aflag(a, "ranged") || te_aflag(a, "thrown");
    o->nonlethal = te_aflag(a, "nonlethal");
    o->free = te_aflag(a, "free");
    o->reaction = te_aflag(a, "reaction");
    o->adjacent = te_atext(a, "adjacent");
    o->block = te_atext(a, "block");
    o->parry = te_atext(a, "parry");
    o->dodge = te_atext(a, "dodge");
    o->intercept = (x = te_aarg(a, "intercept")) != NULL ? x->who : NULL;
    if (o->block != NULL && o->parry != NULL)
        return enc_fail(c->d, ENG_INVALID, "block and parry are two "
                        "reactions: pick one");
    const char *item = o->block ? o->block : o->parry;
    if (item != NULL && !te_item_name_ok(item))
        return enc_fail(c->d, ENG_INVALID, "%s= names an item (letters, "
                        "digits, _), like %s=shield", o->block ? "block" :
                        "parry", o->block ? "block" : "parry");
    /* Only what is thrown or fired can go astray (the chapter's luck of 1
     * or less); a melee attack stays on its target. */
    if (o->adjacent != NULL && !o->ranged) {
        enc_fail(c->d, ENG_INVALID, "adjacent= is for thrown and projectile "
                 "weapons, which may stray: add ranged or thrown");
        enc_hint(c->d, "options:\"ranged adjacent=\\\"%.32s\\\"\"",
                 o->adjacent);
        return ENG_INVALID;
    }
    if (o->free && !c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM may make a free "
                        "attack");
    return ENG_OK;
}

/* The characters named in adjacent= (comma-separated), the target left
 * out, into ids. */
static enum eng_err te_adjacent(struct rs_call *c, const char *text,
                                const struct enc_combatant *target,
                                uint32_t *ids, int *n)
{
    char name[ENC_MAX_NAME + 1];
    bool too_long = false;
    *n = 0;
    while (text != NULL && rs_list_next(&text, name, sizeof name,
                                        &too_long)) {
        struct enc_combatant *who = rs_who(c, name, RS_WHO_TARGET);
        if (who == NULL)
            return rs_fail_nobody(c, "adjacent", name);
        if (who == target)
            continue;
        if (*n >= TE_MAX_ADJACENT)
            return enc_fail(c->d, ENG_LIMIT, "adjacent: too many (limit is "
                            "%d)", TE_MAX_ADJACENT);
        ids[(*n)++] = who->id;
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "adjacent: a name is too long "
                        "(limit is %d bytes)", ENC_MAX_NAME);
    return ENG_OK;
}

/* ---- items -------------------------------------------------------------- */

/* An item's stat "<item>_<what>". */
static int64_t *te_item_stat(struct enc_combatant *who, const char *item,
                             const char *what)
{
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

/* ---- the attack --------------------------------------------------------- */

/* Everything one attack works with, so the phases below stay short. */
struct te_atk {
    struct rs_call *c;
    const struct rs_attack *a;
    struct te_aopts o;
    struct enc_combatant *atk;
    struct enc_combatant *def;     /* who takes the attack now */
    struct enc_combatant *icp;     /* who intercepted, or NULL */
    bool defends;                  /* def reacts with the options given */
    char expr[DICE_MAX_EXPR_LEN + 1];
    uint32_t adj[TE_MAX_ADJACENT];
    int nadj;
    int64_t prior;                 /* attacks made earlier this round */
    struct te_attack_in in;
    int test_idx[TE_MAX_TESTS];    /* the rolls of the tests */
    int luck_idx;
    struct enc_event *ev;          /* the attack's event */
};

static bool te_has(struct enc_combatant *who, const char *cond)
{
    return enc_cond_find(who, cond) != NULL;
}

static void te_mod(struct te_atk *t, struct enc_event *ev, const char *why,
                   int64_t amount, bool has_amount, bool secret)
{
    enc_event_mod(t->c->r, ev, why, amount, has_amount, "", secret);
}

/* Whether the attacker may attack now, and with what. */
static enum eng_err te_atk_check_cost(struct te_atk *t)
{
    struct rs_call *c = t->c;
    struct enc_combatant *atk = t->atk;
    const struct te_comb *st = TE_C(atk);
    if (t->o.free)
        return ENG_OK;
    if (t->o.reaction) {
        if (st->reactions <= 0)
            return enc_fail(c->d, ENG_STATE, "%s has no reaction left",
                            atk->name);
        return ENG_OK;
    }
    if (c->e->current != atk->id) {
        enc_fail(c->d, ENG_STATE, "it is not %s's turn", atk->name);
        enc_hint(c->d, "a readied attack: options:\"reaction\"");
        return ENG_STATE;
    }
    if (st->busy > 0)
        return enc_fail(c->d, ENG_STATE, "%s must continue or abandon the "
                        "action under way first", atk->name);
    if (st->actions <= 0)
        return enc_fail(c->d, ENG_STATE, "%s has no actions left",
                        atk->name);
    return ENG_OK;
}

/* The defender's reactions given as options: who makes them, and whether
 * they have what it takes. */
static enum eng_err te_atk_check_defence(struct te_atk *t)
{
    struct rs_call *c = t->c;
    const struct te_aopts *o = &t->o;
    if (o->intercept != NULL && (o->intercept == t->def ||
                                 o->intercept->side != t->def->side))
        return enc_fail(c->d, ENG_INVALID, "intercept: %s is not an ally of "
                        "%s", o->intercept->name, t->def->name);
    t->icp = o->intercept;
    t->defends = t->icp || o->block || o->parry || o->dodge;
    struct enc_combatant *defender = t->icp ? t->icp : t->def;
    if (t->defends) {
        enum eng_err err = rs_require_actor(c, defender);
        if (err != ENG_OK)
            return err;
        /* After an intercept the others are free reactions. */
        int need = t->icp ? 1 : (o->block || o->parry) + (o->dodge != NULL);
        int stamina = (t->icp ? 1 : 0) + (o->block || o->parry) +
                      (o->dodge != NULL);
        err = te_may_react(c, defender, need, false);
        if (err == ENG_OK)
            err = te_check_track(c, defender, TE_STAMINA, stamina, "react");
        if (err != ENG_OK)
            return err;
        const char *item = o->block ? o->block : o->parry;
        if (o->block && te_item_stat(defender, item, "block") == NULL)
            return enc_fail(c->d, ENG_STATE, "%s's %s has no block value "
                            "(stat %s_block)", defender->name, item, item);
        if (item != NULL && te_item_durability(defender, item) <= 0)
            return enc_fail(c->d, ENG_STATE, "%s's %s is broken",
                            defender->name, item);
    }
    if (t->a->damage != NULL && enc_track(defender, TE_HEALTH) == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no health to damage",
                        defender->name);
    return ENG_OK;
}

/* Spend one reaction of who (not when free) and the stamina for what. */
static enum eng_err te_atk_react(struct te_atk *t, struct enc_combatant *who,
                                 bool free, const char *what)
{
    if (!free)
        TE_C(who)->reactions--;
    return te_spend_track(t->c, who, TE_STAMINA, 1, what);
}

/* The net advantage (te_advantage) from what the attack has going for
 * and against it, each reason into notes (room for 4); *any says whether
 * there was anything at all. */
static int te_atk_advantage(struct te_atk *t, const char **notes,
                            int *nnotes, bool *any)
{
    const struct te_aopts *o = &t->o;
    /* adv and dis are their own reasons: counted, not noted. */
    int adv = o->adv, dis = o->dis, n = 0;
    bool prone = te_has(t->def, TE_COND_PRONE);
    bool cover = o->ranged && te_has(t->def, TE_COND_COVER);
    if (o->sneak)
        notes[n++] = N_("sneak attack: advantage");
    if (o->flank)
        notes[n++] = N_("flanking: advantage");
    if (prone)
        notes[n++] = o->ranged ? N_("prone target, ranged attack: disadvantage")
                               : N_("prone target, melee attack: advantage");
    if (cover)
        notes[n++] = N_("target in cover: disadvantage");
    adv += o->sneak + o->flank + (prone && !o->ranged);
    dis += (prone && o->ranged) + cover;
    *nnotes = n;
    *any = adv > 0 || dis > 0;
    return te_advantage(adv, dis);
}

/* Roll the tests (more than one with advantage) and the luck die. */
static enum eng_err te_atk_roll(struct te_atk *t, int net)
{
    struct rs_call *c = t->c;
    t->in.ntests = 1 + (net < 0 ? -net : net);
    t->in.adv = net;
    for (int i = 0; i < t->in.ntests; i++) {
        struct rs_rolled r;
        enum eng_err err = rs_roll(c, t->atk, "attack test", t->expr, &r);
        if (err != ENG_OK)
            return err;
        t->in.tests[i] = r.total;
        t->test_idx[i] = r.roll_idx;
    }
    char lexpr[48];
    te_luck_expr(t->atk, lexpr, sizeof lexpr);
    struct rs_rolled luck;
    enum eng_err err = rs_roll(c, t->atk, "luck die", lexpr, &luck);
    if (err != ENG_OK)
        return err;
    t->in.luck = luck.total;
    t->luck_idx = luck.roll_idx;
    return ENG_OK;
}

static int64_t te_defl(struct enc_combatant *who, enum te_dmg_class cls)
{
    if (cls == TE_DMG_PHYSICAL)
        return enc_stat_or(who, "pdr", 0);
    if (cls == TE_DMG_ELEMENTAL)
        return enc_stat_or(who, "edr", 0);
    return 0;
}

/* Resolve against the current defender (its evasion, reduction, size and
 * guard). */
static void te_atk_resolve(struct te_atk *t, bool may_stray,
                           struct te_attack_out *out)
{
    int64_t guard = te_has(t->def, TE_COND_GUARD) ? 1 : 0;
    t->in.evasion = enc_stat_or(t->def, "evasion", 0) + guard;
    t->in.deflection = te_defl(t->def, t->o.cls) +
                       (t->in.reducible ? guard : 0);
    t->in.size_diff = enc_stat_or(t->atk, "size", TE_SIZE_MEDIUM) -
                      enc_stat_or(t->def, "size", TE_SIZE_MEDIUM);
    t->in.stray_possible = may_stray && t->o.ranged && t->nadj > 0;
    te_attack_resolve(&t->in, out);
}

/* A luck of 1 or less: the shot goes to one of the adjacent characters,
 * drawn with a die the table can see when there is more than one. */
static enum eng_err te_atk_stray(struct te_atk *t)
{
    struct rs_call *c = t->c;
    struct rs_rolled r = {.total = 1, .roll_idx = -1};
    if (t->nadj > 1) {
        char expr[16];
        snprintf(expr, sizeof expr, "1d%d", t->nadj);
        enum eng_err err = rs_roll(c, t->atk, "which neighbour", expr, &r);
        if (err != ENG_OK)
            return err;
    }
    struct enc_combatant *nt = enc_by_id(c->e, t->adj[r.total - 1]);
    struct enc_event *ev = RS_SAY(c, t->atk, "{} misses wide (luck {}), "
                                  "and the attack strays to {}",
                                  RS_A_WHO(t->atk),
                                  RS_A_SECRET(t->in.luck, t->atk->hidden),
                                  RS_A_WHO(nt));
    if (r.roll_idx >= 0)
        rs_ev_roll(c, ev, r.roll_idx);
    if (nt != t->def)
        t->defends = false;
    t->def = nt;
    return ENG_OK;
}

/* The attack as an event: the test kept (after the penalty) against the
 * evasion, the dice of every test and of the luck die, and why each
 * number is what it is. */
static void te_atk_event(struct te_atk *t, const struct te_attack_out *out,
                         const char *const *notes, int nnotes, bool any,
                         int net)
{
    struct rs_call *c = t->c;
    bool as = t->atk->hidden, ds = t->def->hidden;
    struct enc_event *ev = rs_test_event(c, ENC_EV_ATTACK, t->atk, t->def, NULL,
                                         out->result, out->evasion,
                                         out->crit  ? N_("critical hit")
                                         : out->hit ? N_("hit")
                                                    : N_("miss"));
    ev->hit = out->crit ? ENC_HIT_CRIT : out->hit ? ENC_HIT_HIT : ENC_HIT_MISS;
    t->ev = ev;
    for (int i = 0; i < t->in.ntests; i++) {
        if (i != out->kept_idx)
            rs_roll_drop(c, t->test_idx[i]);
        rs_ev_roll(c, ev, t->test_idx[i]);
    }
    rs_ev_roll(c, ev, t->luck_idx);
    for (int i = 0; i < nnotes; i++)
        te_mod(t, ev, notes[i], 0, false, as);
    bool off = te_setting(c->e, "advantage") == 1;
    if (off && any)
        te_mod(t, ev, N_("advantage is off for this fight"), 0, false, as);
    else if (net == 0 && any)
        te_mod(t, ev, N_("advantage and disadvantage cancel out"), 0, false,
               as);
    else if (net != 0) {
        static const char *const kinds[] = {
            N_("double disadvantage: worst of 3"),
            N_("disadvantage: worst of 2"),
            "",
            N_("advantage: best of 2"),
            N_("double advantage: best of 3"),
        };
        te_mod(t, ev, kinds[net + 2], 0, false, as);
    }
    if (t->prior > 0 && t->in.map > 0)
        te_mod(t, ev, N_("multiple attack penalty"), -t->in.map * t->prior,
               true, as);
    if (t->in.size_diff != 0)
        te_mod(t, ev,
               t->in.size_diff > 0 ? N_("target smaller: evasion")
                                   : N_("target larger: evasion"),
               t->in.size_diff, true, ds);
    if (te_has(t->def, TE_COND_GUARD))
        te_mod(t, ev, N_("guarding: evasion"), 1, true, ds);
    if (out->crit)
        rs_mod_t(t->c, ev, RS_T("luck reaches {}: a critical cannot miss",
                                RS_A_NUM(t->in.crit_threshold)),
                 false, 0, "", as);
}

/* A dodge against a hit: the defender's test must reach the attack's
 * result. A critical cannot miss, so it is not dodged at all. */
static enum eng_err te_atk_dodge(struct te_atk *t, struct te_attack_out *out)
{
    struct rs_call *c = t->c;
    if (out->crit) {
        RS_SAY(c, t->def, "{} cannot dodge a critical hit", RS_A_WHO(t->def));
        return ENG_OK;
    }
    enum eng_err err = te_atk_react(t, t->def, t->icp != NULL, "dodge");
    if (err != ENG_OK)
        return err;
    struct rs_rolled r;
    err = rs_roll(c, t->def, "dodge test", t->o.dodge, &r);
    if (err != ENG_OK)
        return err;
    bool guard = te_has(t->def, TE_COND_GUARD);
    int64_t dodge = r.total + (guard ? 1 : 0);
    bool dodged = dodge >= out->result;
    struct enc_event *ev =
        rs_test_event(c, ENC_EV_TEST, t->def, t->atk, "dodge test", dodge,
                      out->result, dodged ? N_("dodged") : N_("not enough"));
    rs_ev_roll(c, ev, r.roll_idx);
    if (guard)
        rs_mod(c, ev, "guarding", 1, "");
    if (dodged) {
        out->hit = false;
        enc_event_cmp(c->r, t->ev, out->result, t->atk->hidden, out->evasion,
                      t->def->hidden, "dodged");
    }
    return ENG_OK;
}

/* A parry adds the item's parry value (or 1) to physical reduction and
 * costs the item 1 durability. */
static enum eng_err te_atk_parry(struct te_atk *t, struct te_attack_out *out)
{
    struct rs_call *c = t->c;
    enum eng_err err = te_atk_react(t, t->def, t->icp != NULL, "parry");
    if (err != ENG_OK)
        return err;
    int64_t *pv = te_item_stat(t->def, t->o.parry, "parry");
    int64_t add = pv ? *pv : 1;
    int64_t dur = te_item_durability(t->def, t->o.parry) - 1;
    err = te_item_set_durability(c, t->def, t->o.parry, dur);
    if (err != ENG_OK)
        return err;
    if (t->o.cls == TE_DMG_PHYSICAL) {
        t->in.deflection += add;
        te_attack_resolve(&t->in, out);
        RS_SAY(c, t->def, "{} parries with {}: +{} reduction ({} durability "
               "left)", RS_A_WHO(t->def), RS_A_USER(t->o.parry),
               RS_A_SECRET(add, t->def->hidden),
               RS_A_SECRET(dur, t->def->hidden));
    } else {
        RS_SAY(c, t->def, "{} parries with {}, which does nothing against "
               "damage that is not physical ({} durability left)",
               RS_A_WHO(t->def), RS_A_USER(t->o.parry),
               RS_A_SECRET(dur, t->def->hidden));
    }
    return ENG_OK;
}

/* A block: the item takes the hit; what exceeds its durability reaches the
 * defender. *amount becomes what gets through. */
static enum eng_err te_atk_block(struct te_atk *t,
                                 const struct te_attack_out *out,
                                 int64_t *amount)
{
    struct rs_call *c = t->c;
    enum eng_err err = te_atk_react(t, t->def, t->icp != NULL, "block");
    if (err != ENG_OK)
        return err;
    int64_t bv = *te_item_stat(t->def, t->o.block, "block");
    struct te_block_out bo;
    te_block_apply(out->raw, bv, te_item_durability(t->def, t->o.block),
                   &bo);
    err = te_item_set_durability(c, t->def, t->o.block, bo.durability);
    if (err != ENG_OK)
        return err;
    bool s = t->def->hidden;
    if (bo.through > 0)
        RS_SAY(c, t->def, "{} blocks with {}: {} to it ({} durability left), "
               "and {} gets through", RS_A_WHO(t->def), RS_A_USER(t->o.block),
               RS_A_SECRET(bo.to_item, s), RS_A_SECRET(bo.durability, s),
               RS_A_SECRET(bo.through, s));
    else
        RS_SAY(c, t->def, "{} blocks with {}: {} to it ({} durability left)",
               RS_A_WHO(t->def), RS_A_USER(t->o.block),
               RS_A_SECRET(bo.to_item, s), RS_A_SECRET(bo.durability, s));
    *amount = bo.through;
    return ENG_OK;
}

/* Roll the damage (critical damage on a critical when crit= was given),
 * work out what is dealt, let a block take it, and deal the rest. */
static enum eng_err te_atk_damage(struct te_atk *t, struct te_attack_out *out)
{
    struct rs_call *c = t->c;
    bool critical = out->crit && t->o.crit != NULL;
    struct rs_rolled r;
    enum eng_err err = rs_roll(
        c, t->atk, critical ? N_("critical damage") : N_("weapon damage"),
        critical ? t->o.crit : t->a->damage, &r);
    if (err != ENG_OK)
        return err;
    /* Without crit= a critical uses the weapon's damage. */
    t->in.damage = r.total;
    t->in.crit_damage = r.total;
    te_attack_resolve(&t->in, out);
    int64_t amount = out->damage;
    if (t->defends && t->o.block != NULL) {
        err = te_atk_block(t, out, &amount);
        if (err != ENG_OK)
            return err;
    }
    bool ds = t->def->hidden;
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, t->atk->id);
    dv->other = t->def->id;
    dv->a = amount;
    dv->secret = ds;
    /* The chapter's sum, term by term: the test's result, the weapon's
     * (or critical) damage, less the reduction. */
    rs_ev_roll(c, dv, r.roll_idx);
    te_mod(t, dv, N_("test result"), out->result, true, t->atk->hidden);
    te_mod(t, dv,
           critical    ? N_("critical damage")
           : out->crit ? N_("weapon damage (no crit= given)")
                       : N_("weapon damage"),
           r.total, true, t->atk->hidden);
    if (t->defends && t->o.block != NULL)
        te_mod(t, dv, N_("blocked: the item took the hit"), 0, false, ds);
    else if (!t->in.reducible)
        te_mod(t, dv, N_("typeless damage: not reduced"), 0, false, false);
    else {
        te_mod(t, dv,
               t->o.cls == TE_DMG_PHYSICAL ? N_("physical damage reduction")
                                           : N_("elemental damage reduction"),
               -out->deflection, true, ds);
        if (out->raw - out->deflection < 1)
            te_mod(t, dv, N_("at least 1"), 0, false, ds);
    }
    if (amount <= 0)
        return ENG_OK;
    return te_deal_damage(c, t->def, amount, t->o.nonlethal);
}

/* Validate everything before anything changes. */
static enum eng_err te_atk_prepare(struct te_atk *t)
{
    struct rs_call *c = t->c;
    const struct rs_attack *a = t->a;
    enum eng_err err = rs_require_actor(c, t->atk);
    if (err != ENG_OK)
        return err;
    if (!te_can_act(t->atk))
        return enc_fail(c->d, ENG_STATE, "%s cannot attack while "
                        "unconscious", t->atk->name);
    err = te_read_aopts(c, a, &t->o);
    if (err == ENG_OK)
        err = te_atk_check_cost(t);
    if (err != ENG_OK)
        return err;
    if (a->roll != NULL)
        enc_copy(t->expr, sizeof t->expr, a->roll);
    else if ((err = te_stat_expr(c, t->atk, t->o.attr, "combat", "prof",
                                 t->expr, sizeof t->expr)) != ENG_OK)
        return err;
    err = te_adjacent(c, t->o.adjacent, t->def, t->adj, &t->nadj);
    if (err == ENG_OK)
        err = te_atk_check_defence(t);
    return err;
}

/* Options given as text by a caller that did not bind them: bound here, so
 * none is ever ignored. */
static enum eng_err te_atk_bind(struct rs_call *c, struct rs_attack *a,
                                struct rs_arg *args, char *buf, size_t n)
{
    if (a->args != NULL || a->options == NULL)
        return ENG_OK;
    a->args = args;
    return rs_bind_tokens(c, "/attack options:", rs_teams.attack_opts,
                          a->options, buf, n, args, RS_MAX_TOKENS,
                          &a->nargs, c->d);
}

enum eng_err te_attack(struct rs_call *c, const struct rs_attack *given)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    struct rs_attack a = *given;
    struct rs_arg args[RS_MAX_TOKENS];
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    enum eng_err err = te_atk_bind(c, &a, args, buf, sizeof buf);
    if (err != ENG_OK)
        return err;
    struct te_atk t = {.c = c, .a = &a, .atk = a.attacker, .def = a.target};
    err = te_atk_prepare(&t);
    if (err != ENG_OK)
        return err;

    /* Everything checked: spend, roll, resolve. */
    struct te_comb *ast = TE_C(t.atk);
    if (!t.o.free) {
        if (t.o.reaction)
            ast->reactions--;
        else
            ast->actions--;
    }
    if (t.o.reaction && te_has(t.atk, TE_COND_READY) &&
        (err = enc_cond_remove(e, t.atk, TE_COND_READY, c->r, c->d)) !=
            ENG_OK)
        return err;
    t.prior = ast->attacks++;
    if (t.icp != NULL) {
        err = te_atk_react(&t, t.icp, false, "intercept");
        if (err != ENG_OK)
            return err;
        RS_SAY(c, t.icp, "{} intercepts and takes the attack in place of {}",
               RS_A_WHO(t.icp), RS_A_WHO(t.def));
        t.def = t.icp;
    }
    const char *notes[4];            /* sneak, flank, prone, cover */
    int nnotes = 0;
    bool any = false;
    int net = te_atk_advantage(&t, notes, &nnotes, &any);
    if (te_setting(e, "advantage") == 1)
        net = 0;
    err = te_atk_roll(&t, net);
    if (err != ENG_OK)
        return err;
    t.in.prior_attacks = t.prior;
    t.in.map = te_setting(e, "map");
    t.in.crit_threshold = t.o.threshold;
    t.in.reducible = t.o.cls != TE_DMG_TYPELESS;

    struct te_attack_out out;
    te_atk_resolve(&t, true, &out);
    if (out.stray) {
        err = te_atk_stray(&t);
        if (err != ENG_OK)
            return err;
        te_atk_resolve(&t, false, &out);
    }
    te_atk_event(&t, &out, notes, nnotes, any, net);
    if (out.hit && t.defends && t.o.dodge != NULL &&
        (err = te_atk_dodge(&t, &out)) != ENG_OK)
        return err;
    if (out.hit && t.defends && t.o.parry != NULL &&
        (err = te_atk_parry(&t, &out)) != ENG_OK)
        return err;
    if (out.hit && a.damage == NULL)
        RS_SAY(c, t.atk, "{} hits: give damage: to apply the weapon's "
               "damage", RS_A_WHO(t.atk));
    else if (out.hit && (err = te_atk_damage(&t, &out)) != ENG_OK)
        return err;
    te_settle(c);
    return ENG_OK;
}
