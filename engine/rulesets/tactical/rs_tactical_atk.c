/*
 * rs_tactical_atk.c - /attack in the tactical ruleset: single attacks,
 * bursts, blasts and templates, with their effects.
 *
 * The options text carries the attack's qualities and how it is made:
 *
 *   options -> (EFFECT ['(' X ')'] | key ['=' value] )* separated by spaces
 *
 * e.g. "Knockdown(2) Shock(1) ap=1 crit", "burst=4", "blast=2 factors=1
 * also=B,C". An `effects:` option of the command, when the command layer
 * passes one, is read the same way.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

struct tac_fx_use {
    const struct tac_fx *fx;
    int x;
};

struct tac_aopts {
    struct tac_fx_use fx[TAC_MAX_ATTACK_FX];
    int nfx;
    int64_t ap;               /* AP the attack costs (1) */
    bool crit, miss, sneak, tyt, exert, placed, conductor;
    int64_t need;             /* successes the attack roll needs (1) */
    int64_t adv, dis;
    int64_t burst;            /* burst value; 0 = not a burst */
    int64_t blast, templ;     /* area size; 0 = none */
    int64_t factors;          /* blast aim difficulty factors */
    int64_t pool;             /* aim pool override; -1 = stats */
    char also[TAC_MAX_OPTIONS + 1];
};

/* Next token: "word", "key=value" or "Name(X)"; a value may be "quoted"
 * to hold spaces (the quotes are dropped). False at the end. */
static bool tac_token(const char **pp, char *tok, size_t n)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return false;
    size_t k = 0;
    bool quoted = false;
    while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
        if (*p == '"')
            quoted = !quoted;
        else if (k + 1 < n)
            tok[k++] = *p;
        p++;
    }
    tok[k] = '\0';
    *pp = p;
    return true;
}

/* "Name" or "Name(X)" naming an effect of t; false when it names none. */
static enum eng_err tac_parse_fx(struct rs_call *c, const struct tac_table *t,
                                 const char *tok, struct tac_aopts *o,
                                 bool *matched)
{
    char name[TAC_MAX_NAME + 1];
    const char *paren = strchr(tok, '(');
    size_t len = paren != NULL ? (size_t)(paren - tok) : strlen(tok);
    *matched = false;
    if (len == 0 || len > TAC_MAX_NAME)
        return ENG_OK;
    memcpy(name, tok, len);
    name[len] = '\0';
    const struct tac_fx *fx = tac_fx_find(t, name);
    if (fx == NULL) {
        if (paren != NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "unknown effect %s", name);
        return ENG_OK;
    }
    *matched = true;
    int64_t x = 0;
    if (paren != NULL) {
        const char *end = eng_text_parse_int(paren + 1, &x);
        if (end == NULL || *end != ')' || end[1] != '\0' || x < 0 ||
            x > TAC_MAX_X)
            return enc_fail(c->d, ENG_INVALID, "%s: the value must be 0 to "
                            "%d, as in %s(2)", name, TAC_MAX_X, fx->name);
    } else if (fx->kind == TAC_FX_DIRECT ||
               (fx->kind == TAC_FX_RESIST && fx->fixed == 0)) {
        return enc_fail(c->d, ENG_INVALID, "%s needs a value, as in %s(2)",
                        fx->name, fx->name);
    }
    if (o->nfx >= TAC_MAX_ATTACK_FX)
        return enc_fail(c->d, ENG_LIMIT, "too many effects on one attack "
                        "(limit is %d)", TAC_MAX_ATTACK_FX);
    o->fx[o->nfx].fx = fx;
    o->fx[o->nfx].x = (int)x;
    o->nfx++;
    return ENG_OK;
}

static enum eng_err tac_parse_aopts(struct rs_call *c, const char *text,
                                    struct tac_aopts *o)
{
    const struct tac_table *t = tac_table_for(c);
    if (text == NULL)
        return ENG_OK;
    if (strlen(text) > TAC_MAX_OPTIONS)
        return enc_fail(c->d, ENG_LIMIT, "options are too long (limit is %d "
                        "bytes)", TAC_MAX_OPTIONS);
    const char *p = text;
    char tok[TAC_MAX_OPTIONS + 1];
    while (tac_token(&p, tok, sizeof tok)) {
        bool matched;
        enum eng_err err = tac_parse_fx(c, t, tok, o, &matched);
        if (err != ENG_OK)
            return err;
        if (matched)
            continue;
        char *eq = strchr(tok, '=');
        const char *val = NULL;
        if (eq != NULL) {
            *eq = '\0';
            val = eq + 1;
        }
        struct {
            const char *key;
            int64_t *dst;
            int64_t lo, hi;
        } nums[] = {
            {"ap", &o->ap, 0, TAC_MAX_AP},
            {"need", &o->need, 0, TAC_MAX_DIFFICULTY},
            {"adv", &o->adv, 0, TAC_MAX_POOL},
            {"dis", &o->dis, 0, TAC_MAX_POOL},
            {"burst", &o->burst, 1, TAC_MAX_POOL},
            {"blast", &o->blast, 1, 20},
            {"template", &o->templ, 1, 40},
            {"factors", &o->factors, 0, 5},
            {"pool", &o->pool, 0, TAC_MAX_POOL},
        };
        bool done = false;
        for (size_t i = 0; i < sizeof nums / sizeof nums[0] && !done; i++) {
            if (eng_text_casecmp(tok, nums[i].key) != 0)
                continue;
            int64_t x;
            if (val == NULL || !eng_text_to_int(val, &x) || x < nums[i].lo ||
                x > nums[i].hi)
                return enc_fail(c->d, ENG_RANGE, "%s= must be %lld to %lld",
                                nums[i].key, (long long)nums[i].lo,
                                (long long)nums[i].hi);
            *nums[i].dst = x;
            done = true;
        }
        if (done)
            continue;
        struct {
            const char *key;
            bool *dst;
        } flags[] = {
            {"crit", &o->crit},   {"miss", &o->miss},
            {"sneak", &o->sneak}, {"tyt", &o->tyt},
            {"exert", &o->exert}, {"placed", &o->placed},
            {"conductor", &o->conductor},
        };
        for (size_t i = 0; i < sizeof flags / sizeof flags[0] && !done; i++)
            if (eng_text_casecmp(tok, flags[i].key) == 0 && val == NULL) {
                *flags[i].dst = true;
                done = true;
            }
        if (done)
            continue;
        if (eng_text_casecmp(tok, "also") == 0 && val != NULL) {
            enc_copy(o->also, sizeof o->also, val);
            continue;
        }
        enc_fail(c->d, ENG_INVALID, "unknown attack option %.40s", tok);
        enc_hint(c->d, "options:\"Knockdown(2) ap=1 crit sneak tyt exert "
                 "burst=4 blast=2 factors=1 also=B,C\"");
        return ENG_INVALID;
    }
    return ENG_OK;
}

/* ---- pieces ------------------------------------------------------------- */

/* Count the stacks of conditions with flag on who (the first such). */
static const struct enc_cond *tac_flagged(const struct tac_table *t,
                                          struct enc_combatant *who,
                                          unsigned flag)
{
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && (cd->flags & flag))
            return &who->conds[i];
    }
    return NULL;
}

static int64_t tac_stacks(const struct enc_cond *k)
{
    return k == NULL ? 0 : k->value > 0 ? k->value : 1;
}

/* Roll nD (d6s) as extra damage; returns the sum. */
static enum eng_err tac_extra_dice(struct rs_call *c, int64_t n,
                                   const char *label, int64_t *sum)
{
    *sum = 0;
    if (n <= 0)
        return ENG_OK;
    char expr[16];
    snprintf(expr, sizeof expr, "%lldd6", (long long)n);
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, label, expr, &r);
    if (err == ENG_OK)
        *sum = r.total;
    return err;
}

/* Damage of one hit on target before armour: the damage dice, Corroded,
 * Serrated on a critical, Vulnerable expended, Warded spent. */
static enum eng_err tac_hit_damage(struct rs_call *c,
                                   const struct rs_attack *a,
                                   struct enc_combatant *target,
                                   const struct tac_aopts *o, bool area,
                                   int64_t base, int64_t *out)
{
    const struct tac_table *t = tac_table_for(c);
    int64_t dmg = base;
    enum eng_err err;
    const struct enc_cond *k = tac_flagged(t, target, TAC_CDF_DMG_TAKEN);
    if (k != NULL) {
        int64_t s = tac_stacks(k);
        tac_say(c, target->id, false, "%s is %s: +%lld damage", target->name,
                k->name, (long long)s);
        dmg += s;
    }
    if (o->crit)
        for (int i = 0; i < o->nfx; i++)
            if (o->fx[i].fx->flags & TAC_FXF_CRIT_DIE) {
                int64_t s;
                err = tac_extra_dice(c, 1, "critical +1D", &s);
                if (err != ENG_OK)
                    return err;
                dmg += s;
            }
    k = tac_flagged(t, target, TAC_CDF_VULNERABLE);
    if (k != NULL && (o->sneak || o->tyt) && !area && o->burst == 0) {
        int64_t n = tac_stacks(k);
        if (n > TAC_MAX_VULN_DICE)
            n = TAC_MAX_VULN_DICE;
        char name[ENC_MAX_COND_NAME + 1];
        enc_copy(name, sizeof name, k->name);
        int64_t s;
        err = tac_extra_dice(c, n, "vulnerable", &s);
        if (err != ENG_OK)
            return err;
        tac_say(c, target->id, false, "%s expended: +%lldD damage", name,
                (long long)n);
        dmg += s;
        err = enc_cond_remove(c->e, target, name, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    k = tac_flagged(t, target, TAC_CDF_WARD);
    if (k != NULL) {
        int64_t n = tac_stacks(k);
        char name[ENC_MAX_COND_NAME + 1];
        enc_copy(name, sizeof name, k->name);
        int64_t s;
        err = tac_extra_dice(c, n, "warded", &s);
        if (err != ENG_OK)
            return err;
        tac_say(c, target->id, false, "%s spent: -%lldD damage", name,
                (long long)n);
        dmg -= s;
        err = enc_cond_remove(c->e, target, name, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    (void)a;
    *out = dmg < 0 ? 0 : dmg;
    return ENG_OK;
}

static int64_t tac_av_per(const struct tac_aopts *o)
{
    if (!o->tyt)
        return TAC_AV_PER;
    for (int i = 0; i < o->nfx; i++)
        if (o->fx[i].fx->flags & TAC_FXF_DEMOLISH)
            return TAC_DEMOLISH_PER;
    return TAC_AV_PER;
}

static bool tac_no_damage(const struct tac_aopts *o)
{
    for (int i = 0; i < o->nfx; i++)
        if (o->fx[i].fx->flags & TAC_FXF_NO_DAMAGE)
            return true;
    return false;
}

/* One target struck: damage (scaled by num/den, for halving) then
 * effects. */
static enum eng_err tac_strike(struct rs_call *c, const struct rs_attack *a,
                               struct enc_combatant *target,
                               const struct tac_aopts *o, bool area,
                               int64_t base, bool have_damage, bool halve)
{
    int64_t lost = 0;
    enum eng_err err;
    if (have_damage && !tac_no_damage(o)) {
        int64_t dmg;
        err = tac_hit_damage(c, a, target, o, area, base, &dmg);
        if (err != ENG_OK)
            return err;
        if (halve)
            dmg /= 2;
        err = tac_damage(c, target, a->attacker->id, dmg, false,
                         tac_av_per(o), &lost);
        if (err != ENG_OK)
            return err;
    }
    for (int i = 0; i < o->nfx; i++) {
        err = tac_fx_hit(c, target, a->attacker->id, o->fx[i].fx,
                         o->fx[i].x, o->crit, lost);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

static struct enc_event *tac_attack_event(struct rs_call *c,
                                          const struct rs_attack *a,
                                          struct enc_combatant *target,
                                          bool hit, const char *text)
{
    struct enc_event *ev = enc_emit(c->r, ENC_EV_ATTACK, a->attacker->id);
    ev->other = target->id;
    ev->c = hit;
    ev->secret = a->attacker->hidden;
    ev->text = enc_result_strdup(c->r, text, 4096);
    return ev;
}

/* ---- the three kinds of attack ------------------------------------------ */

static enum eng_err tac_burst_attack(struct rs_call *c,
                                     const struct rs_attack *a,
                                     const struct tac_aopts *o,
                                     int64_t base, bool have_damage)
{
    const struct tac_table *t = tac_table_for(c);
    int64_t aim = enc_stat_or(a->attacker, "aim", 0);
    int n = tac_pool_size((int)(o->burst + (aim > 0 ? aim : 0)),
                          (int)o->adv + (o->exert ? 1 : 0), (int)o->dis);
    if (n > TAC_MAX_POOL)
        n = TAC_MAX_POOL;
    int64_t ev = tac_passive_evasion(t, a->target);
    if (ev < 0)
        ev = 0;
    int hits = 0;
    struct rs_rolled r = {0, 0, -1, 0, 0};
    if (n > 0) {
        char expr[32];
        snprintf(expr, sizeof expr, "%dd6>%lld", n, (long long)ev);
        enum eng_err err = rs_roll(c, NULL, "burst", expr, &r);
        if (err != ENG_OK)
            return err;
        hits = (int)r.successes;
    }
    struct enc_track *ammo = enc_track(a->attacker, "ammo");
    int64_t left = ammo != NULL ? ammo->cur : TAC_MAX_POOL;
    struct tac_burst_out b = tac_burst_count(hits, n, left, base);
    struct enc_event *aev = tac_attack_event(c, a, a->target, b.kept > 0,
                                             b.kept > 0 ? "burst" : "miss");
    aev->a = hits;
    aev->b = ev;
    enc_event_roll(c->r, aev, r.roll_idx);
    tac_say(c, a->attacker->id, false, "burst: %d of %d dice above evasion "
            "%lld%s", hits, n, (long long)ev, b.misses > 0 ?
            "; stray shots may hit the closest bystanders (GM)" : "");
    if (b.discarded > 0)
        tac_say(c, a->attacker->id, false, "%d hits discarded: not enough "
                "ammunition", b.discarded);
    if (ammo != NULL) {
        int64_t spend = o->burst < ammo->cur ? o->burst : ammo->cur;
        int64_t before = ammo->cur;
        ammo->cur -= spend;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, a->attacker->id);
        hv->text = enc_result_strdup(c->r, "ammo", 4096);
        hv->a = before;
        hv->b = ammo->cur;
        hv->secret = a->attacker->hidden;
    }
    if (b.kept == 0)
        return ENG_OK;
    return tac_strike(c, a, a->target, o, false, b.damage, have_damage,
                      false);
}

/* Everyone in the area: the target, then the names in also=. Checked
 * before anything is spent. */
static enum eng_err tac_area_targets(struct rs_call *c,
                                     const struct rs_attack *a,
                                     const struct tac_aopts *o,
                                     struct enc_combatant **hit, int *nhit)
{
    *nhit = 0;
    hit[(*nhit)++] = a->target;
    char buf[TAC_MAX_OPTIONS + 1];
    enc_copy(buf, sizeof buf, o->also);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        size_t wl = strlen(w);
        while (wl > 0 && w[wl - 1] == ' ')
            w[--wl] = '\0';
        struct enc_combatant *who = enc_by_name(c->e, w);
        if (who == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "also: no combatant named "
                            "%.64s", w);
        bool dup = false;
        for (int i = 0; i < *nhit; i++)
            dup = dup || hit[i] == who;
        if (dup)
            continue;
        if (*nhit == TAC_MAX_TARGETS)
            return enc_fail(c->d, ENG_LIMIT, "too many targets (limit is "
                            "%d)", TAC_MAX_TARGETS);
        hit[(*nhit)++] = who;
    }
    return ENG_OK;
}

static enum eng_err tac_area_attack(struct rs_call *c,
                                    const struct rs_attack *a,
                                    const struct tac_aopts *o, int64_t base,
                                    bool have_damage,
                                    struct enc_combatant **hit, int nhit)
{
    const struct tac_table *t = tac_table_for(c);
    enum eng_err err;
    if (o->blast > 0 && !o->placed) {
        int diff = tac_blast_difficulty((int)o->factors);
        static const struct tac_test_def aim = {"dexterity", "aim"};
        char label[48];
        snprintf(label, sizeof label, "aim (difficulty %d)", diff);
        int64_t succ;
        err = tac_roll_test(c, a->attacker, &aim, (int)o->pool,
                            (int)o->adv + (o->exert ? 1 : 0), (int)o->dis,
                            label, &succ);
        if (err != ENG_OK)
            return err;
        if (succ < diff) {
            int fail_by = diff - (int)succ;
            struct rs_rolled dir, dist;
            err = rs_roll(c, NULL, "scatter direction", "1d6", &dir);
            if (err == ENG_OK)
                err = rs_roll(c, NULL, "scatter distance",
                              fail_by == 1 ? "1d3" : "1d6", &dist);
            if (err != ENG_OK)
                return err;
            struct tac_scatter_out s = tac_scatter(fail_by, (int)dir.total,
                                                   (int)dist.total,
                                                   (int)dist.total);
            tac_say(c, a->attacker->id, false, "the blast scatters %d ft "
                    "towards %d (1 north, 4 south); place it and attack "
                    "again with options:\"placed\"", s.feet, s.direction);
            return ENG_OK;
        }
        tac_say(c, a->attacker->id, false, "the blast lands where aimed "
                "(radius %lld ft)", (long long)(5 * o->blast));
    } else if (o->templ > 0) {
        tac_say(c, a->attacker->id, false, "template: a %lld ft line",
                (long long)(5 * o->templ));
    }
    static const struct tac_test_def evade = {"dexterity", "evasion"};
    for (int i = 0; i < nhit; i++) {
        struct enc_combatant *who = hit[i];
        tac_attack_event(c, a, who, true, "area");
        bool halve = false;
        if (have_damage && enc_cond_find(who, "Prone") == NULL &&
            enc_cond_find(who, "Paralyzed") == NULL) {
            char label[48];
            snprintf(label, sizeof label, "%s evades", who->name);
            int64_t succ;
            err = tac_roll_test(c, who, &evade, -1, 0, 0, label, &succ);
            if (err != ENG_OK)
                return err;
            halve = succ >= TAC_AREA_EVADE;
            if (halve)
                tac_say(c, who->id, false, "%s halves the damage",
                        who->name);
        }
        err = tac_strike(c, a, who, o, true, base, have_damage, halve);
        if (err != ENG_OK)
            return err;
    }
    (void)t;
    return ENG_OK;
}

static enum eng_err tac_single_attack(struct rs_call *c,
                                      const struct rs_attack *a,
                                      const struct tac_aopts *o,
                                      int64_t base, bool have_damage)
{
    const struct tac_table *t = tac_table_for(c);
    bool hit = !o->miss;
    struct enc_event *ev;
    if (o->conductor && enc_cond_find(a->target, "Magnetized") != NULL) {
        ev = tac_attack_event(c, a, a->target, true, "hit (magnetized)");
    } else if (a->roll != NULL && !o->miss) {
        int64_t n;
        struct rs_rolled r;
        enum eng_err err;
        if (eng_text_to_int(a->roll, &n)) {
            if (n < 0 || n > TAC_MAX_POOL)
                return enc_fail(c->d, ENG_RANGE, "roll: a pool must be 0 to "
                                "%d dice", TAC_MAX_POOL);
            static const struct tac_test_def none = {"", ""};
            int64_t succ;
            int before = c->r->nrolls;
            err = tac_roll_test(c, a->attacker, &none, (int)n,
                                (int)o->adv + (o->exert ? 1 : 0),
                                (int)o->dis, "attack", &succ);
            r.successes = succ;
            r.roll_idx = c->r->nrolls > before ? c->r->nrolls - 1 : -1;
        } else {
            err = rs_roll(c, NULL, "attack", a->roll, &r);
        }
        if (err != ENG_OK)
            return err;
        int64_t need = o->need > 0 ? o->need : 1;
        hit = r.successes >= need;
        ev = tac_attack_event(c, a, a->target, hit, o->crit && hit ?
                              "critical hit" : hit ? "hit" : "miss");
        ev->a = r.successes;
        ev->b = need;
        enc_event_roll(c->r, ev, r.roll_idx);
    } else {
        ev = tac_attack_event(c, a, a->target, hit, o->crit && hit ?
                              "critical hit" : hit ? "hit" : "miss");
    }
    (void)t;
    if (!hit)
        return ENG_OK;
    return tac_strike(c, a, a->target, o, false, base, have_damage, false);
}

enum eng_err tac_attack(struct rs_call *c, const struct rs_attack *a)
{
    struct tac_aopts o;
    memset(&o, 0, sizeof o);
    o.ap = 1;
    o.pool = -1;
    enum eng_err err = tac_parse_aopts(c, a->options, &o);
    if (err == ENG_OK)
        err = tac_parse_aopts(c, rs_opt(c->opts, c->nopts, "effects"), &o);
    if (err != ENG_OK)
        return err;
    if ((o.burst > 0) + (o.blast > 0) + (o.templ > 0) > 1)
        return enc_fail(c->d, ENG_INVALID, "an attack is one of burst=, "
                        "blast= or template=");
    if (o.also[0] != '\0' && o.blast == 0 && o.templ == 0)
        return enc_fail(c->d, ENG_INVALID, "also= is for blast= and "
                        "template= attacks");
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    struct enc_combatant *hit[TAC_MAX_TARGETS];
    int nhit = 0;
    if (o.blast > 0 || o.templ > 0) {
        err = tac_area_targets(c, a, &o, hit, &nhit);
        if (err != ENG_OK)
            return err;
    }
    if (c->e->current == a->attacker->id) {
        err = tac_spend_ap(c, a->attacker, (int)o.ap, "the attack");
        if (err != ENG_OK)
            return err;
    }
    if (o.exert) {
        err = tac_exert(c, a->attacker);
        if (err != ENG_OK)
            return err;
    }
    int64_t base = 0;
    bool have_damage = a->damage != NULL;
    if (have_damage) {
        struct rs_rolled d;
        err = rs_roll(c, NULL, "damage", a->damage, &d);
        if (err != ENG_OK)
            return err;
        base = d.total;
    }
    if (o.burst > 0)
        return tac_burst_attack(c, a, &o, base, have_damage);
    if (o.blast > 0 || o.templ > 0)
        return tac_area_attack(c, a, &o, base, have_damage, hit, nhit);
    return tac_single_attack(c, a, &o, base, have_damage);
}
