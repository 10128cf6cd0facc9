/*
 * rs_tactical_fx.c - the tactical ruleset's rules: pool tests, damage
 * through armour, conditions, effects and their pending resist tests.
 *
 * The arithmetic is in pure functions at the top (the chapter's examples
 * test them directly); the rest rolls, then calls them and records what
 * happened.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"
#include "rs_tactical.h"

/* ---- pure rules --------------------------------------------------------- */

int tac_pool_successes(const int *faces, int n, int face)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        if (faces[i] >= face)
            s++;
    return s;
}

int tac_stack_difficulty(int cur, int x, int max)
{
    int v;
    if (cur <= 0)
        v = x;
    else if (cur >= x)
        v = cur + 1;
    else
        v = x;
    if (max > 0 && v > max)
        v = max;
    return v;
}

struct tac_armour_out tac_armour(int64_t av, int64_t dr, int64_t damage,
                                 int64_t per, bool direct)
{
    struct tac_armour_out o = {0, 0, 0, 0};
    if (damage <= 0)
        return o;
    if (direct) {
        o.hp_lost = damage;
        return o;
    }
    if (av < 0)
        av = 0;
    if (dr < 0)
        dr = 0;
    o.av_absorbed = damage < av ? damage : av;
    int64_t rest = damage - o.av_absorbed;
    o.dr_absorbed = rest < dr ? rest : dr;
    o.hp_lost = rest - o.dr_absorbed;
    o.av_loss = per > 0 ? o.av_absorbed / per : 0;
    return o;
}

struct tac_burst_out tac_burst(const int *faces, int n, int64_t evasion,
                               int64_t ammo, int64_t weapon_damage)
{
    int hits = 0;
    for (int i = 0; i < n; i++)
        if (faces[i] > evasion)
            hits++;
    return tac_burst_count(hits, n, ammo, weapon_damage);
}

struct tac_burst_out tac_burst_count(int hits, int n, int64_t ammo,
                                     int64_t weapon_damage)
{
    struct tac_burst_out o = {0, 0, 0, 0, 0};
    o.hits = hits;
    o.misses = n - o.hits;
    if (ammo < 0)
        ammo = 0;
    o.kept = o.hits < ammo ? o.hits : (int)ammo;
    o.discarded = o.hits - o.kept;
    o.damage = (int64_t)o.kept * weapon_damage;
    return o;
}

int tac_blast_difficulty(int factors)
{
    int v = TAC_BLAST_MIN + (factors > 0 ? factors : 0);
    return v > TAC_BLAST_MAX ? TAC_BLAST_MAX : v;
}

struct tac_scatter_out tac_scatter(int fail_by, int d6_direction, int d3,
                                   int d6_distance)
{
    struct tac_scatter_out o = {0, 0};
    if (fail_by <= 0)
        return o;
    o.direction = d6_direction;
    o.feet = 5 * (fail_by == 1 ? d3 : d6_distance);
    return o;
}

int tac_pool_size(int base, int adv, int dis)
{
    int n = base + adv - dis;
    return n < 0 ? 0 : n;
}

/* ---- settings and small helpers ---------------------------------------- */

static int tac_setting_int(const struct encounter *e, const char *key,
                           int dflt)
{
    const char *v = enc_setting(e, key);
    int64_t x;
    if (v == NULL || !eng_text_to_int(v, &x))
        return dflt;
    return (int)x;
}

int tac_setting_ap(const struct encounter *e)
{
    return tac_setting_int(e, "ap", TAC_AP);
}

int tac_setting_face(const struct encounter *e)
{
    return tac_setting_int(e, "face", TAC_FACE);
}

bool tac_is_mech(const struct enc_combatant *who)
{
    return enc_stat_or(who, "mech", 0) != 0;
}

void tac_say(struct rs_call *c, uint32_t who, bool secret, const char *fmt,
             ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_vsayf(c, who, secret, fmt, ap);
    va_end(ap);
}

/* A condition's value for "out" and "per stack": a flag counts as 1. */
static int64_t tac_cond_level(const struct enc_cond *k)
{
    return k->value > 0 ? k->value : 1;
}

int64_t tac_passive_evasion(const struct tac_table *t,
                            struct enc_combatant *who)
{
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && (cd->flags & TAC_CDF_EVASION1))
            return 1;
    }
    return enc_stat_or(who, "evasion", 0);
}

/* ---- tests -------------------------------------------------------------- */

/* Dice lost to who's conditions on a test of attribute attr; Distracted-like
 * conditions are spent (their names go to spent, at most 4). */
static int tac_cond_dis(const struct tac_table *t, struct enc_combatant *who,
                        const char *attr, char spent[4][ENC_MAX_COND_NAME + 1],
                        int *nspent)
{
    int dis = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct enc_cond *k = &who->conds[i];
        const struct tac_cond_def *cd = tac_cond_def(t, k->name);
        if (cd == NULL || !(cd->flags & (TAC_CDF_DISADV | TAC_CDF_PER_STACK)))
            continue;
        bool touches = cd->nattrs == 0;
        for (int a = 0; a < cd->nattrs; a++)
            if (attr != NULL && eng_text_casecmp(cd->attrs[a], attr) == 0)
                touches = true;
        if (!touches)
            continue;
        dis += (cd->flags & TAC_CDF_PER_STACK) ? (int)tac_cond_level(k) : 1;
        if ((cd->flags & TAC_CDF_NEXT_TEST) && *nspent < 4)
            enc_copy(spent[(*nspent)++], ENC_MAX_COND_NAME + 1, k->name);
    }
    return dis;
}

enum eng_err tac_roll_test(struct rs_call *c, struct enc_combatant *who,
                           const struct tac_test_def *t, int pool_override,
                           int adv, int dis, const char *label,
                           int64_t *successes)
{
    const struct tac_table *tab = tac_table_for(c);
    int base = pool_override;
    if (base < 0) {
        int64_t a = t->attr[0] ? enc_stat_or(who, t->attr, 0) : 0;
        int64_t s = t->skill[0] ? enc_stat_or(who, t->skill, 0) : 0;
        int64_t sum = a + s;
        base = sum < 0 ? 0 : sum > TAC_MAX_POOL ? TAC_MAX_POOL : (int)sum;
    }
    char spent[4][ENC_MAX_COND_NAME + 1];
    int nspent = 0;
    dis += tac_cond_dis(tab, who, t->attr[0] ? t->attr : NULL, spent,
                        &nspent);
    int n = tac_pool_size(base, adv, dis);
    if (n > TAC_MAX_POOL)
        n = TAC_MAX_POOL;
    for (int i = 0; i < nspent; i++)
        enc_cond_remove(c->e, who, spent[i], c->r, c->d);
    if (n == 0) {
        *successes = 0;
        tac_say(c, who->id, who->hidden, "%s: no dice left in the pool, no "
                "successes", label);
        return ENG_OK;
    }
    char expr[32];
    snprintf(expr, sizeof expr, "%dd6>=%d", n, tac_setting_face(c->e));
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, label, expr, &r);
    if (err != ENG_OK)
        return err;
    *successes = r.successes;
    return ENG_OK;
}

/* ---- conditions --------------------------------------------------------- */

void tac_out_update(struct rs_call *c, struct enc_combatant *who)
{
    const struct tac_table *t = tac_table_for(c);
    bool out = false;
    const struct enc_track *hp = enc_track_c(who, "hp");
    if (hp != NULL && hp->cur <= 0)
        out = true;
    for (int i = 0; i < who->nconds && !out; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && cd->out > 0 &&
            tac_cond_level(&who->conds[i]) >= cd->out)
            out = true;
    }
    bool was = (who->flags & ENC_CF_DOWN) != 0;
    if (out && !was) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    } else if (!out && was) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
}

void tac_out_conds(struct rs_call *c, struct enc_combatant *who)
{
    tac_out_update(c, who);
}

enum eng_err tac_cond_give(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int stacks, int rounds,
                           uint32_t source)
{
    const struct tac_table *t = tac_table_for(c);
    const struct tac_cond_def *cd = tac_cond_def(t, name);
    const struct enc_cond *had = enc_cond_find(who, name);
    struct enc_cond_req q = {.name = name, .source = source,
                             .expire = ENC_EXPIRE_END};
    if (cd != NULL) {
        q.cap = cd->cap;
        if (cd->flags & TAC_CDF_STEP)
            q.value = had == NULL ? (cd->start > 0 ? cd->start : 1) : 1;
        else if (cd->flags & TAC_CDF_STACKS)
            q.value = stacks > 0 ? stacks : 1;
        else
            q.value = cd->start;
        q.rounds = rounds >= 0 ? rounds : cd->rounds;
        /* Refreshing a timed condition keeps the longer time left. */
        if (had != NULL && had->rounds > 0 && rounds < 0 &&
            had->applied_turn < c->e->turn_seq && had->rounds > q.rounds)
            q.rounds = had->rounds;
    } else {
        q.value = stacks > 1 ? stacks : 0;
        q.rounds = rounds > 0 ? rounds : 0;
    }
    enum eng_err err = enc_cond_add(c->e, who, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    tac_out_update(c, who);
    return ENG_OK;
}

/* ---- damage ------------------------------------------------------------- */

enum eng_err tac_damage(struct rs_call *c, struct enc_combatant *who,
                        uint32_t source, int64_t amount, bool direct,
                        int64_t per, int64_t *hp_lost)
{
    *hp_lost = 0;
    if (amount < 0)
        amount = 0;
    struct enc_track *av = enc_track(who, "av");
    int64_t dr = enc_stat_or(who, "dr", 0);
    struct tac_armour_out o = tac_armour(av != NULL ? av->cur : 0, dr, amount,
                                         per, direct);
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, source);
    dv->other = who->id;
    dv->a = amount;
    dv->secret = who->hidden;
    enc_event_text(c->r, dv, "%s", direct ? "direct" : "");
    if (av != NULL && o.av_loss > 0) {
        int64_t before = av->cur;
        av->cur -= o.av_loss;
        if (av->cur < 0)
            av->cur = 0;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
        hv->text = enc_result_strdup(c->r, "av", 4096);
        hv->a = before;
        hv->b = av->cur;
        hv->secret = who->hidden;
    }
    if (o.av_absorbed > 0 || o.dr_absorbed > 0)
        tac_say(c, who->id, who->hidden, "armour absorbs %lld (AV %lld, DR "
                "%lld), %lld gets through", (long long)(o.av_absorbed +
                o.dr_absorbed), (long long)o.av_absorbed,
                (long long)o.dr_absorbed, (long long)o.hp_lost);
    struct enc_track *hp = enc_track(who, "hp");
    if (hp != NULL && o.hp_lost > 0) {
        int64_t before = hp->cur;
        hp->cur -= o.hp_lost;
        if (hp->cur < 0)
            hp->cur = 0;
        *hp_lost = before - hp->cur;
        struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
        hv->text = enc_result_strdup(c->r, "hp", 4096);
        hv->a = before;
        hv->b = hp->cur;
        hv->secret = who->hidden;
    } else if (hp == NULL) {
        *hp_lost = o.hp_lost;
    }
    /* A shut-down unit wakes when it takes damage. */
    const struct tac_table *t = tac_table_for(c);
    for (int i = 0; o.hp_lost > 0 && i < t->nfx; i++)
        if ((t->fx[i].flags & TAC_FXF_OUT_ROUNDS) && t->fx[i].cond[0] &&
            enc_cond_find(who, t->fx[i].cond) != NULL)
            enc_cond_remove(c->e, who, t->fx[i].cond, c->r, c->d);
    tac_out_update(c, who);
    return ENG_OK;
}

/* ---- effects and pending tests ------------------------------------------ */

static void tac_pending_name(const struct tac_fx *fx, char *buf, size_t n)
{
    snprintf(buf, n, "%s test", fx->name);
}

/* Whether who has rolled against fx in the current turn. */
static bool tac_resisted(const struct rs_call *c,
                         const struct enc_combatant *who, int idx)
{
    return who->rs[TAC_C_RESIST_TURN] == (int64_t)c->e->turn_seq &&
           (who->rs[TAC_C_RESIST_MASK] & ((int64_t)1 << idx)) != 0;
}

static void tac_mark_resisted(const struct rs_call *c,
                              struct enc_combatant *who, int idx)
{
    if (who->rs[TAC_C_RESIST_TURN] != (int64_t)c->e->turn_seq) {
        who->rs[TAC_C_RESIST_TURN] = (int64_t)c->e->turn_seq;
        who->rs[TAC_C_RESIST_MASK] = 0;
    }
    who->rs[TAC_C_RESIST_MASK] |= (int64_t)1 << idx;
}

/* A test against fx with value x lands on who: start it or raise it. */
static enum eng_err tac_pending_add(struct rs_call *c,
                                   struct enc_combatant *who, uint32_t source,
                                   const struct tac_fx *fx, int x)
{
    const struct tac_table *t = tac_table_for(c);
    int idx = tac_fx_index(t, fx);
    if (tac_resisted(c, who, idx)) {
        tac_say(c, who->id, false, "%s already rolled against %s this turn "
                "and passes automatically", who->name, fx->name);
        return ENG_OK;
    }
    char name[ENC_MAX_COND_NAME + 1];
    tac_pending_name(fx, name, sizeof name);
    struct enc_cond *k = enc_cond_find(who, name);
    if (k == NULL) {
        struct enc_cond_req q = {.name = name, .source = source,
                                 .value = tac_stack_difficulty(0, x, fx->max),
                                 .expire = ENC_EXPIRE_END};
        return enc_cond_add(c->e, who, &q, c->r, c->d);
    }
    int before = k->value;
    k->value = tac_stack_difficulty(k->value, x, fx->max);
    k->source = source;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_COND_ADD, who->id);
    ev->text = enc_result_strdup(c->r, k->name, 4096);
    ev->a = k->value;
    ev->secret = who->hidden;
    tac_say(c, who->id, false, "%s test on %s: difficulty %d -> %d", fx->name,
            who->name, before, k->value);
    return ENG_OK;
}

enum eng_err tac_fx_hit(struct rs_call *c, struct enc_combatant *who,
                        uint32_t source, const struct tac_fx *fx, int x,
                        bool crit, int64_t hp_lost)
{
    bool mech = tac_is_mech(who);
    if ((fx->flags & TAC_FXF_MECH_ONLY) && !mech) {
        tac_say(c, who->id, false, "%s does not affect %s (not mechanical)",
                fx->name, who->name);
        return ENG_OK;
    }
    if ((fx->flags & TAC_FXF_ORGANIC) && mech) {
        tac_say(c, who->id, false, "%s does not affect %s (mechanical)",
                fx->name, who->name);
        return ENG_OK;
    }
    if ((fx->flags & TAC_FXF_CRIT_HP) && (!crit || hp_lost <= 0))
        return ENG_OK;
    switch (fx->kind) {
    case TAC_FX_NOTE:
        return ENG_OK;
    case TAC_FX_APPLY:
        return tac_cond_give(c, who, fx->cond, 1,
                             fx->rounds > 0 ? fx->rounds : -1, source);
    case TAC_FX_DIRECT: {
        int64_t amount = x;
        if ((fx->flags & TAC_FXF_MECH_DOUBLE) && mech)
            amount *= 2;
        tac_say(c, who->id, false, "%s(%d): %lld direct damage to %s",
                fx->name, x, (long long)amount, who->name);
        int64_t lost;
        enum eng_err err = tac_damage(c, who, source, amount, true,
                                      TAC_AV_PER, &lost);
        if (err != ENG_OK || lost <= 0)
            return err;
        if (lost > TAC_MAX_DIFFICULTY)
            lost = TAC_MAX_DIFFICULTY;
        return tac_pending_add(c, who, source, fx, (int)lost);
    }
    case TAC_FX_RESIST:
        break;
    }
    return tac_pending_add(c, who, source, fx, fx->fixed > 0 ? fx->fixed : x);
}

static int tac_test_pool(const struct enc_combatant *who,
                         const struct tac_test_def *t)
{
    return (int)(enc_stat_or(who, t->attr, 0) + enc_stat_or(who, t->skill, 0));
}

enum eng_err tac_fx_resolve(struct rs_call *c, struct enc_combatant *who,
                            const struct tac_fx *fx, int pool_override,
                            int alt)
{
    const struct tac_table *t = tac_table_for(c);
    char name[ENC_MAX_COND_NAME + 1];
    tac_pending_name(fx, name, sizeof name);
    struct enc_cond *k = enc_cond_find(who, name);
    if (k == NULL)
        return enc_fail(c->d, ENG_STATE, "%s has no pending %s test",
                        who->name, fx->name);
    int difficulty = k->value;
    uint32_t source = k->source;
    int which = 0;
    if (alt >= 0 && alt < fx->ntests)
        which = alt;
    else if (fx->ntests == 2 &&
             tac_test_pool(who, &fx->test[1]) > tac_test_pool(who,
                                                              &fx->test[0]))
        which = 1;
    const struct tac_test_def *td = &fx->test[which];
    int dis = 0;
    if ((fx->flags & TAC_FXF_STUN_MAJOR) && enc_cond_find(who, "Stunned"))
        dis = 2;
    char label[48];
    snprintf(label, sizeof label, "%s resists %s(%d)", who->name, fx->name,
             difficulty);
    int64_t succ;
    enum eng_err err = tac_roll_test(c, who, td, pool_override, 0, dis, label,
                                     &succ);
    if (err != ENG_OK)
        return err;
    err = enc_cond_remove(c->e, who, name, c->r, c->d);
    if (err != ENG_OK)
        return err;
    tac_mark_resisted(c, who, tac_fx_index(t, fx));
    if (succ >= difficulty) {
        tac_say(c, who->id, false, "%s resists %s: %lld of %d successes",
                who->name, fx->name, (long long)succ, difficulty);
        return ENG_OK;
    }
    int fail_by = difficulty - (int)succ;
    tac_say(c, who->id, false, "%s fails against %s by %d (%lld of %d)",
            who->name, fx->name, fail_by, (long long)succ, difficulty);
    if (fx->flags & TAC_FXF_PUSH)
        tac_say(c, who->id, false, "%s is pushed back %d ft; past 10 ft a "
                "collision deals d3 direct per 5 ft beyond the first 10 (GM)",
                who->name, 5 * fail_by);
    if (fx->flags & TAC_FXF_PULL)
        tac_say(c, who->id, false, "%s is pulled up to 15 ft towards the "
                "origin", who->name);
    if (fx->cond[0] == '\0')
        return ENG_OK;
    int rounds = fx->rounds > 0 ? fx->rounds : -1;
    if (fx->flags & TAC_FXF_OUT_ROUNDS) {
        struct rs_rolled r;
        err = rs_roll(c, NULL, "rounds out (d3)", "1d3", &r);
        if (err != ENG_OK)
            return err;
        rounds = (int)r.total + fail_by;
        tac_say(c, who->id, false, "%s is out of the fight for %d rounds",
                who->name, rounds);
    }
    return tac_cond_give(c, who, fx->cond, 1, rounds, source);
}

enum eng_err tac_fx_resolve_all(struct rs_call *c)
{
    const struct tac_table *t = tac_table_for(c);
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        for (int k = 0; k < who->nconds;) {
            const char *name = who->conds[k].name;
            size_t n = strlen(name);
            const struct tac_fx *fx = NULL;
            if (n > 5 && strcmp(name + n - 5, " test") == 0) {
                char base[ENC_MAX_COND_NAME + 1];
                enc_copy(base, sizeof base, name);
                base[n - 5] = '\0';
                fx = tac_fx_find(t, base);
            }
            if (fx == NULL) {
                k++;
                continue;
            }
            /* Resolving removes the entry: look at the same index again. */
            enum eng_err err = tac_fx_resolve(c, who, fx, -1, -1);
            if (err != ENG_OK)
                return err;
        }
    }
    return ENG_OK;
}
