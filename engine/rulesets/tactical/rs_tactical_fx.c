/*
 * rs_tactical_fx.c - the tactical ruleset's rules: pool tests with their
 * modifiers, conditions through the kit, damage through armour.
 *
 * The arithmetic is in pure functions at the top (the chapter's examples
 * test them directly); the rest rolls, then calls them and records what
 * happened as events: a test is an ENC_EV_TEST (or ENC_EV_ATTACK) with its
 * dice, the successes against the difficulty, and one modifier per thing
 * that changed the pool.
 */
#include <limits.h>
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
    int v = cur > 0 && cur >= x ? cur + 1 : x;
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

enum tac_body tac_body(const struct enc_combatant *who)
{
    if (enc_stat_or(who, "cyborg", 0) != 0)
        return TAC_CYBORG;
    return enc_stat_or(who, "mech", 0) != 0 ? TAC_MACHINE : TAC_LIVING;
}

bool tac_fx_touches(unsigned fx_flags, enum tac_body b)
{
    if ((fx_flags & TAC_FXF_MECH_ONLY) && b != TAC_MACHINE)
        return false;
    if ((fx_flags & TAC_FXF_ORGANIC) && b == TAC_MACHINE)
        return false;
    return true;
}

bool tac_fx_doubles(unsigned fx_flags, enum tac_body b)
{
    return (fx_flags & TAC_FXF_MECH_DOUBLE) && b != TAC_LIVING;
}

/* ---- small helpers ---------------------------------------------------------- */

int tac_setting_ap(const struct encounter *e)
{
    return (int)rs_setting_int(e, &rs_tactical, "ap");
}

int tac_setting_face(const struct encounter *e)
{
    return (int)rs_setting_int(e, &rs_tactical, "face");
}

int64_t tac_stacks(const struct enc_cond *k)
{
    return k == NULL ? 0 : k->value > 0 ? k->value : 1;
}

const struct enc_cond *tac_flagged(const struct tac_table *t,
                                   struct enc_combatant *who, unsigned flag)
{
    for (int i = 0; i < who->nconds; i++) {
        const struct tac_cond_def *cd = tac_cond_def(t, who->conds[i].name);
        if (cd != NULL && (cd->flags & flag))
            return &who->conds[i];
    }
    return NULL;
}

int64_t tac_passive_evasion(const struct tac_table *t,
                            struct enc_combatant *who)
{
    if (tac_flagged(t, who, TAC_CDF_EVASION1) != NULL)
        return 1;
    return enc_stat_or(who, "passive_evasion", 0);
}

void tac_track_event(struct rs_call *c, struct enc_combatant *who,
                     const char *track, int64_t before, int64_t now)
{
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, who->id);
    hv->text = enc_result_strdup(c->r, track, ENC_MAX_STAT_NAME);
    hv->a = before;
    hv->b = now;
    hv->secret = who->hidden;
}

/* ---- tests -------------------------------------------------------------- */

/* The declared attributes' and skills' names as a test's label shows
 * them (tac_title), for the catalogs; a stat a group's file adds is
 * shown as typed. */
static const char *const tac_stat_words[] = {
    NC_("stat", "Strength"),   NC_("stat", "Endurance"),
    NC_("stat", "Dexterity"),  NC_("stat", "Insight"),
    NC_("stat", "Intelligence"), NC_("stat", "Charisma"),
    NC_("stat", "Aim"),        NC_("stat", "Evasion"),
    NC_("stat", "Fortitude"),  NC_("stat", "Willpower"),
    NC_("stat", "Perception"), NC_("stat", "Vitality"),
    NC_("stat", "Grapple"),    NC_("stat", "Athletics"),
};

/* The stat key's title ("Strength") as a label's argument, into buf. */
static struct rs_say_arg tac_stat_arg(const char *key, char *buf, size_t n)
{
    tac_title(key, buf, n);
    for (size_t i = 0; i < sizeof tac_stat_words / sizeof *tac_stat_words;
         i++)
        if (strcmp(buf, tac_stat_words[i]) == 0)
            return RS_A_WORD("stat", tac_stat_words[i]);
    return RS_A_USER(buf);
}

/* ev's label: "resists Knockdown with Endurance(Fortitude)", the why
 * (a template when it names an effect or condition) then the test's
 * attribute and skill when it has them. */
static void tac_label(struct rs_call *c, struct enc_event *ev,
                      const struct tac_roll *t)
{
    const struct tac_test_def *def = t->def;
    char a[TAC_MAX_NAME + 1], s[TAC_MAX_NAME + 1];
    struct rs_say_arg why = RS_A_TEXT(t->why);
    if (t->why_name != NULL) {
        struct rs_text wt = RS_T(t->why, t->why_ctx != NULL
                                             ? RS_A_WORD(t->why_ctx,
                                                         t->why_name)
                                             : RS_A_USER(t->why_name));
        if (def == NULL || def->attr[0] == '\0') {
            rs_ev_label(c, ev, wt);
            return;
        }
        why = rs_a_text(c, wt);
    }
    if (def == NULL || def->attr[0] == '\0')
        ev->text = t->why;  /* the ruleset's literal word */
    else if (def->skill[0] == '\0')
        rs_ev_label(c, ev, RS_T("{} with {}", why,
                                tac_stat_arg(def->attr, a, sizeof a)));
    else
        rs_ev_label(c, ev, RS_T("{} with {}({})", why,
                                tac_stat_arg(def->attr, a, sizeof a),
                                tac_stat_arg(def->skill, s, sizeof s)));
}

/* Whether condition cd's disadvantage touches a test of attr (NULL: a
 * test of no attribute, which only conditions on every test touch). */
static bool tac_touches(const struct tac_cond_def *cd, const char *attr)
{
    if (cd->nattrs == 0)
        return true;
    for (int a = 0; a < cd->nattrs; a++)
        if (attr != NULL && eng_text_casecmp(cd->attrs[a], attr) == 0)
            return true;
    return false;
}

/* Dice lost to who's conditions on a test of attr, each recorded on ev
 * when ev is given; Distracted-like conditions are copied to spent (at
 * most nspent_max) to end once the test is rolled. */
static int tac_cond_dis(struct rs_call *c, struct enc_event *ev,
                        struct enc_combatant *who, const char *attr,
                        unsigned skip,
                        char (*spent)[ENC_MAX_COND_NAME + 1], int *nspent,
                        int nspent_max)
{
    const struct tac_table *t = tac_table_for(c);
    int dis = 0;
    for (int i = 0; i < who->nconds; i++) {
        const struct enc_cond *k = &who->conds[i];
        const struct tac_cond_def *cd = tac_cond_def(t, k->name);
        if (cd == NULL || !(cd->flags & (TAC_CDF_DISADV | TAC_CDF_PER_STACK)) ||
            (cd->flags & skip) || !tac_touches(cd, attr))
            continue;
        int n = (cd->flags & TAC_CDF_PER_STACK) ? (int)tac_stacks(k)
                : (cd->flags & TAC_CDF_MAJOR) ? TAC_MAJOR : 1;
        dis += n;
        if (ev != NULL)
            rs_mod_unit(rs_mod_t(c, ev, RS_T_WORD("condition", k->name),
                                 true, -n, "dice", false),
                        rs_dice);
        if ((cd->flags & TAC_CDF_NEXT_TEST) && *nspent < nspent_max)
            enc_copy(spent[(*nspent)++], ENC_MAX_COND_NAME + 1, k->name);
    }
    return dis;
}

/* The dice of t before modifiers. */
static int tac_base_pool(const struct tac_roll *t)
{
    if (t->pool >= 0)
        return t->pool;
    const struct tac_test_def *d = t->def;
    int64_t a = d != NULL && d->attr[0] ? enc_stat_or(t->who, d->attr, 0) : 0;
    int64_t s = d != NULL && d->skill[0] ? enc_stat_or(t->who, d->skill, 0)
                                         : 0;
    int64_t sum = a + s;
    return sum < 0 ? 0 : sum > TAC_MAX_POOL ? TAC_MAX_POOL : (int)sum;
}

/* ev's outcome: against a difficulty "passes" or "fails by N" (an
 * attack: "hit" or "miss"), else the count. */
static void tac_outcome(struct rs_call *c, struct enc_event *ev,
                        const struct tac_roll *t, int64_t succ)
{
    if (t->difficulty <= 0 && t->burst)
        rs_ev_outcome(c, ev, RS_TN("{} hit", "{} hits", succ,
                                   RS_A_NUM(succ)));
    else if (t->difficulty <= 0)
        rs_ev_outcome(c, ev, RS_TN("{} success", "{} successes", succ,
                                   RS_A_NUM(succ)));
    else if (t->kind == ENC_EV_ATTACK)
        ev->outcome = succ < t->difficulty ? N_("miss")
                      : t->hit != NULL ? t->hit : N_("hit");
    else if (succ >= t->difficulty)
        ev->outcome = N_("passes");
    else
        rs_ev_outcome(c, ev, RS_T("fails by {}",
                                  RS_A_NUM(t->difficulty - succ)));
}

/* The test's event, with its outcome once the successes are known. */
static struct enc_event *tac_test_event(struct rs_call *c,
                                        const struct tac_roll *t,
                                        int64_t succ)
{
    struct enc_event *ev;
    if (t->difficulty > 0 || t->burst) {
        ev = rs_test_event(c, t->kind, t->who, t->other, NULL, succ,
                           t->difficulty > 0 ? t->difficulty : t->over,
                           NULL);
        if (t->kind == ENC_EV_ATTACK && t->difficulty > 0)
            ev->hit = succ < t->difficulty ? ENC_HIT_MISS
                      : t->crit ? ENC_HIT_CRIT : ENC_HIT_HIT;
        else if (t->kind == ENC_EV_ATTACK)
            ev->hit = succ > 0 ? ENC_HIT_HIT : ENC_HIT_MISS;
    } else {
        /* Without a difficulty the count is all there is: a hidden
         * combatant's test is the GM's, as its sentences are. */
        ev = enc_emit(c->r, t->kind, t->who->id);
        ev->secret = t->who->hidden;
        ev->other = t->other != NULL ? t->other->id : 0;
    }
    if (t->kind != ENC_EV_ATTACK)
        tac_label(c, ev, t);
    tac_outcome(c, ev, t, succ);
    return ev;
}

enum eng_err tac_test_roll(struct rs_call *c, const struct tac_roll *t,
                           const struct tac_mod *extra, int nextra,
                           struct tac_rolled *out)
{
    const char *attr = t->def != NULL && t->def->attr[0] ? t->def->attr
                                                          : NULL;
    char spent[ENC_MAX_CONDITIONS][ENC_MAX_COND_NAME + 1];
    int nspent = 0;
    /* The dice first (the event needs the successes), then the event with
     * a modifier for each change: its parts are recorded in that order. */
    int dis = t->dis + tac_cond_dis(c, NULL, t->who, attr, t->skip, spent,
                                    &nspent, ENC_MAX_CONDITIONS);
    int adv = t->adv + (t->exert ? 1 : 0);
    for (int i = 0; i < nextra; i++) {
        if (extra[i].dice > 0)
            adv += extra[i].dice;
        else
            dis -= extra[i].dice;
    }
    struct rs_rolled r = {0, 0, -1, 0, 0};
    int n = 0;
    if (t->dice != NULL) {
        enum eng_err err = rs_roll(c, t->who, "roll", t->dice, &r);
        if (err != ENG_OK)
            return err;
    } else {
        n = tac_pool_size(tac_base_pool(t), adv, dis);
        if (n > TAC_MAX_POOL)
            n = TAC_MAX_POOL;
        if (n > 0) {
            char expr[48];
            if (t->burst)
                snprintf(expr, sizeof expr, "%dd6>%lld", n,
                         (long long)t->over);
            else
                snprintf(expr, sizeof expr, "%dd6>=%d", n,
                         tac_setting_face(c->e));
            /* A pool needs no label: the test's event says what it is. */
            enum eng_err err = rs_roll(c, t->who, t->burst ? "burst" : "",
                                       expr, &r);
            if (err != ENG_OK)
                return err;
            /* The count shows the target's passive evasion: a hidden
             * target's stays the GM's. */
            if (t->burst && t->other != NULL && t->other->hidden &&
                r.roll_idx >= 0)
                c->r->rolls[r.roll_idx].secret = true;
        }
    }
    out->dice = n;
    out->successes = r.successes;
    out->fail_by = t->difficulty > r.successes
                   ? (int)(t->difficulty - r.successes) : 0;
    struct enc_event *ev = tac_test_event(c, t, r.successes);
    out->ev = ev;
    rs_ev_roll(c, ev, r.roll_idx);
    /* A dice expression is rolled as given: the changes are said, not
     * made, so the player can fold them into roll: themselves. */
    bool applied = t->dice == NULL;
    if (t->adv > 0)
        rs_mod_unit(rs_mod(c, ev, N_("advantage"), t->adv, "dice"), rs_dice);
    if (t->exert)
        rs_mod_unit(rs_mod(c, ev, N_("exert: advantage"), 1, "dice"),
                    rs_dice);
    if (t->dis > 0)
        rs_mod_unit(rs_mod(c, ev, N_("disadvantage"), -t->dis, "dice"),
                    rs_dice);
    for (int i = 0; i < nextra; i++) {
        struct rs_text why = extra[i].cond != NULL
            ? RS_T(extra[i].reason, TAC_A_COND(extra[i].cond))
            : RS_T0(extra[i].reason);
        rs_mod_unit(rs_mod_t(c, ev, why, true, extra[i].dice, "dice", false),
                    rs_dice);
    }
    int nspent_again = 0;
    tac_cond_dis(c, ev, t->who, attr, t->skip, spent, &nspent_again, 0);
    if (!applied && (adv > 0 || dis > 0))
        rs_mod_note(c, ev, N_("not added to a roll: given as dice"));
    if (applied && n == 0)
        rs_mod_note(c, ev, N_("no dice left in the pool"));
    for (int i = 0; i < nspent; i++) {
        enum eng_err err = enc_cond_remove(c->e, t->who, spent[i], c->r,
                                           c->d);
        if (err != ENG_OK)
            return err;
    }
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
            tac_stacks(&who->conds[i]) >= cd->out)
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

enum eng_err tac_cond_give(struct rs_call *c, struct enc_combatant *who,
                           const char *name, int rounds, uint32_t source)
{
    struct rs_cond_give q = {.name = name, .rounds = rounds,
                             .expire = ENC_EXPIRE_END, .source = source};
    const struct rs_cond_spec *sp = rs_cond_spec(c, &rs_tactical, name);
    const struct enc_cond *had = enc_cond_find(who, name);
    /* Refreshing a timed condition keeps the longer time left. */
    if (rounds < 0 && sp != NULL && had != NULL && had->rounds > sp->rounds &&
        had->applied_turn < c->e->turn_seq)
        q.rounds = had->rounds;
    return rs_cond_give(c, &rs_tactical, who, &q, true);
}

enum eng_err tac_cond_remove(struct rs_call *c, struct enc_combatant *who,
                             const char *name)
{
    enum eng_err err = enc_cond_remove(c->e, who, name, c->r, c->d);
    if (err == ENG_OK)
        tac_out_update(c, who);
    return err;
}

enum eng_err tac_cond_changed(struct rs_call *c, struct enc_combatant *who,
                              struct enc_cond *q, int32_t before)
{
    const struct tac_table *t = tac_table_for(c);
    const struct tac_cond_def *cd = tac_cond_def(t, q->name);
    if (cd != NULL && cd->becomes[0] != '\0' && before != INT32_MIN) {
        /* A second Injury of a kind: the holder keeps the first and takes
         * a Wound instead. */
        RS_SAY(c, who, "{} already has {}: a second one is {} instead",
               RS_A_WHO(who), RS_A_WORD("condition", q->name),
               RS_A_WORD("condition", cd->becomes));
        char becomes[TAC_MAX_NAME + 1];
        enc_copy(becomes, sizeof becomes, cd->becomes);
        enum eng_err err = tac_cond_give(c, who, becomes, -1, q->source);
        if (err != ENG_OK)
            return err;
    }
    tac_out_update(c, who);
    return ENG_OK;
}

/* ---- damage ------------------------------------------------------------- */

struct enc_event *tac_damage_event(struct rs_call *c,
                                   const struct enc_combatant *who,
                                   uint32_t source)
{
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, source);
    dv->other = who->id;
    dv->secret = who->hidden;
    return dv;
}

enum eng_err tac_damage_apply(struct rs_call *c, struct enc_event *dv,
                              struct enc_combatant *who, uint32_t source,
                              int64_t amount, bool direct, int64_t per,
                              int64_t *hp_lost)
{
    *hp_lost = 0;
    if (amount < 0)
        amount = 0;
    if (dv == NULL)
        dv = tac_damage_event(c, who, source);
    dv->a = amount;
    if (direct)
        rs_mod_note(c, dv, "direct: armour does not count");
    struct enc_track *av = enc_track(who, "av");
    int64_t dr = enc_stat_or(who, "dr", 0);
    struct tac_armour_out o = tac_armour(av != NULL ? av->cur : 0, dr, amount,
                                         per, direct);
    if (o.av_absorbed > 0 || o.dr_absorbed > 0)
        RS_SAY(c, who, "{}: armour absorbs {} (AV {}, DR {}); {} gets "
               "through", RS_A_WHO(who),
               RS_A_SECRET(o.av_absorbed + o.dr_absorbed, who->hidden),
               RS_A_SECRET(o.av_absorbed, who->hidden),
               RS_A_SECRET(o.dr_absorbed, who->hidden),
               RS_A_SECRET(o.hp_lost, who->hidden));
    if (av != NULL && o.av_loss > 0) {
        int64_t before = av->cur;
        av->cur = before > o.av_loss ? before - o.av_loss : 0;
        tac_track_event(c, who, "av", before, av->cur);
    }
    struct enc_track *hp = enc_track(who, "hp");
    if (hp != NULL && o.hp_lost > 0) {
        int64_t before = hp->cur;
        hp->cur = before > o.hp_lost ? before - o.hp_lost : 0;
        *hp_lost = before - hp->cur;
        tac_track_event(c, who, "hp", before, hp->cur);
    } else if (hp == NULL) {
        *hp_lost = o.hp_lost;
    }
    /* A shut-down unit wakes when it takes damage. */
    const struct tac_table *t = tac_table_for(c);
    for (int i = 0; o.hp_lost > 0 && i < t->nfx; i++)
        if ((t->fx[i].flags & TAC_FXF_OUT_ROUNDS) && t->fx[i].cond[0] &&
            enc_cond_find(who, t->fx[i].cond) != NULL) {
            enum eng_err err = enc_cond_remove(c->e, who, t->fx[i].cond,
                                               c->r, c->d);
            if (err != ENG_OK)
                return err;
        }
    tac_out_update(c, who);
    return ENG_OK;
}
