/*
 * rs_generic.c - the generic ruleset: a plain d20 tracker.
 *
 * Initiative is 1d20 + the `init` stat, highest first; ties go to the
 * higher modifier, then to a roll-off drawn once at the start and kept, so
 * the order never changes between rounds. An attack rolls `roll` (default
 * 1d20 + the attacker's `attack` stat) against the target's `ac`: a natural
 * 20 always hits and doubles the damage dice, a natural 1 always misses.
 * Damage comes off `hp`; at 0 the combatant is down and its turns are
 * skipped until healed.
 */
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs.h"
#include "rs_kit.h"
#include "turn.h"

enum { GEN_TIE_SIDES = 1000000 };

static enum eng_err gen_setup(struct rs_call *c, struct enc_combatant *who)
{
    /* A stat named hp becomes the hp track (current = max); the track is
     * the one place hp lives, so the stat is dropped. */
    const int64_t *hp = enc_stat(who, "hp");
    if (hp != NULL) {
        int64_t v = *hp;
        if (v < 0)
            return enc_fail(c->d, ENG_RANGE, "hp cannot be negative");
        enum eng_err err = enc_track_set(who, "hp", v, v, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, "hp");
    }
    return ENG_OK;
}

static enum eng_err gen_check_stat(struct rs_call *c,
                                   struct enc_combatant *who,
                                   const char *name, int64_t value)
{
    (void)who;
    if (eng_text_casecmp(name, "ac") == 0 && (value < 0 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "ac must be 0 to 100");
    if (eng_text_casecmp(name, "init") == 0 && (value < -100 || value > 100))
        return enc_fail(c->d, ENG_RANGE, "init must be -100 to 100");
    return ENG_OK;
}

/* The expression a combatant rolls for initiative: init_expr when it is
 * dice, 1d20 + a number given there, else 1d20 + the init stat. A value
 * written "=15" is taken as is. */
static enum eng_err gen_roll_init(struct rs_call *c, struct enc_combatant *who)
{
    char expr[ENC_MAX_INIT_EXPR + 16];
    const char *given = who->init_expr;
    int64_t fixed;
    if (given[0] == '=' && eng_text_to_int(given + 1, &fixed)) {
        who->init[0] = fixed;
        who->ninit = 1;
        struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
        ev->a = fixed;
        ev->secret = who->hidden;
        return ENG_OK;
    }
    int64_t mod;
    if (given[0] != '\0' && !eng_text_to_int(given, &mod))
        snprintf(expr, sizeof expr, "%s", given);
    else {
        if (given[0] == '\0')
            mod = enc_stat_or(who, "init", 0);
        snprintf(expr, sizeof expr, "1d20%+lld", (long long)mod);
    }
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, who, "initiative", expr, &r);
    if (err != ENG_OK)
        return err;
    who->init[0] = r.total;
    who->ninit = 1;
    struct enc_event *ev = enc_emit(c->r, ENC_EV_INIT, who->id);
    ev->a = r.total;
    enc_event_roll(c->r, ev, r.roll_idx);
    ev->secret = who->hidden;
    return ENG_OK;
}

static int64_t gen_mod(const struct enc_combatant *who)
{
    int64_t mod;
    if (who->init_expr[0] != '\0' && eng_text_to_int(who->init_expr, &mod))
        return mod;
    return enc_stat_or(who, "init", 0);
}

static int gen_cmp(const struct encounter *e, const struct enc_slot *a,
                   const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    if (x->init[a->init_idx] != y->init[b->init_idx])
        return x->init[a->init_idx] > y->init[b->init_idx] ? -1 : 1;
    int64_t mx = gen_mod(x), my = gen_mod(y);
    if (mx != my)
        return mx > my ? -1 : 1;
    if (x->init_tie != y->init_tie)
        return x->init_tie > y->init_tie ? -1 : 1;
    return x->join_seq < y->join_seq ? -1 : x->join_seq > y->join_seq;
}

/* Roll for everyone; a group rolls once, for its first member. */
static enum eng_err gen_roll_all(struct rs_call *c)
{
    struct encounter *e = c->e;
    for (int i = 0; i < e->ncs; i++) {
        struct enc_combatant *who = &e->cs[i];
        const struct enc_combatant *lead = rs_group_lead(e, who);
        if (lead != NULL) {
            memcpy(who->init, lead->init, sizeof who->init);
            who->ninit = lead->ninit;
            who->init_tie = lead->init_tie;
            continue;
        }
        enum eng_err err = gen_roll_init(c, who);
        if (err != ENG_OK)
            return err;
        who->init_tie = (int64_t)eng_rng_below(c->rng, GEN_TIE_SIDES);
    }
    return ENG_OK;
}

static enum eng_err gen_begin(struct rs_call *c)
{
    if (c->e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    enum eng_err err = gen_roll_all(c);
    if (err != ENG_OK)
        return err;
    turn_order_build(c->e, gen_cmp);
    turn_fixed_begin(c, NULL);
    return ENG_OK;
}

static enum eng_err gen_next(struct rs_call *c)
{
    turn_fixed_next(c, NULL);
    return ENG_OK;
}

static enum eng_err gen_late_join(struct rs_call *c, struct enc_combatant *who)
{
    struct encounter *e = c->e;
    enum eng_err err = gen_roll_init(c, who);
    if (err != ENG_OK)
        return err;
    who->init_tie = (int64_t)eng_rng_below(c->rng, GEN_TIE_SIDES);
    /* Re-sort, then find the current slot again so the turn stays put. */
    struct enc_slot cur = {0, 0};
    if (e->turn_idx >= 0 && e->turn_idx < e->norder)
        cur = e->order[e->turn_idx];
    turn_order_build(e, gen_cmp);
    for (int i = 0; i < e->norder; i++)
        if (e->order[i].id == cur.id && e->order[i].init_idx == cur.init_idx)
            e->turn_idx = i;
    return ENG_OK;
}

static enum eng_err gen_attack(struct rs_call *c, const struct rs_attack *a)
{
    const int64_t *ac = enc_stat(a->target, "ac");
    if (ac == NULL) {
        enc_fail(c->d, ENG_STATE, "%s has no ac to hit", a->target->name);
        enc_hint(c->d, "/combat set name:\"%s\" stats:\"ac=12\"",
                 a->target->name);
        return ENG_STATE;
    }
    char expr[DICE_MAX_EXPR_LEN + 16];
    int64_t bonus = enc_stat_or(a->attacker, "attack", 0);
    if (a->roll != NULL)
        snprintf(expr, sizeof expr, "%s", a->roll);
    else
        snprintf(expr, sizeof expr, "1d20%+lld", (long long)bonus);
    struct rs_rolled hit;
    enum eng_err err = rs_roll(c, a->attacker, "attack", expr, &hit);
    if (err != ENG_OK)
        return err;
    bool crit = hit.natural == 20;
    bool fumble = hit.natural == 1;
    bool hits = crit || (!fumble && hit.total >= *ac);

    struct enc_event *ev = rs_test_event(c, ENC_EV_ATTACK, a->attacker,
                                         a->target, NULL, hit.total, *ac,
                                         crit ? "critical hit" :
                                         fumble ? "natural 1" :
                                         hits ? "hit" : "miss");
    rs_ev_roll(c, ev, hit.roll_idx);
    if (a->roll == NULL && bonus != 0)
        rs_mod(c, ev, "attack stat", bonus, "");
    if (crit)
        rs_mod_note(c, ev, "a natural 20 always hits");
    else if (fumble)
        rs_mod_note(c, ev, "a natural 1 always misses");
    if (!hits || a->damage == NULL)
        return ENG_OK;

    /* A critical hit rolls the damage dice twice; flat modifiers count
     * once. */
    struct rs_rolled dmg;
    err = rs_roll(c, a->attacker, "damage", a->damage, &dmg);
    if (err != ENG_OK)
        return err;
    int64_t amount = dmg.total;
    struct enc_event *dv = enc_emit(c->r, ENC_EV_DAMAGE, a->attacker->id);
    rs_ev_roll(c, dv, dmg.roll_idx);
    if (crit) {
        struct rs_rolled extra;
        err = rs_roll(c, a->attacker, "critical dice", a->damage, &extra);
        if (err != ENG_OK)
            return err;
        amount += extra.dice_sum;
        rs_ev_roll(c, dv, extra.roll_idx);
        rs_mod(c, dv, "critical: the dice again", extra.dice_sum, "");
    }
    if (amount < 0)
        amount = 0;
    struct enc_track *hp = enc_track(a->target, "hp");
    dv->other = a->target->id;
    dv->a = amount;
    dv->secret = a->target->hidden && a->attacker->hidden;
    if (hp == NULL)
        return ENG_OK;
    int64_t before = hp->cur;
    /* Like /combat hp, damage stops at 0. */
    int64_t after = hp->cur - amount;
    if (after < 0)
        after = 0;
    hp->cur = after;
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, a->target->id);
    hv->text = "hp";
    hv->a = before;
    hv->b = hp->cur;
    hv->secret = a->target->hidden;
    rs_default_after_track(c, a->target, "hp", before);
    return ENG_OK;
}

static const struct rs_ops gen_ops = {
    .version = RS_OPS_VERSION,
    .setup = gen_setup,               /* hp stat -> hp track */
    .check_stat = gen_check_stat,     /* ac, init bounds */
    .setting = NULL,                  /* no settings */
    .begin = gen_begin,               /* 1d20 + init, highest first */
    .next = gen_next,                 /* fixed order */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = gen_attack,             /* roll vs ac, damage to hp */
    .late_join = gen_late_join,       /* rolls and slots into the order */
    .after_track = NULL,              /* hp <= 0 is down */
    .status = NULL,                   /* nothing extra on the tracker */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: gen_conds */
    .cond_changed = NULL,             /* conditions are reminders only */
};

/* The conditions d20 tables use, as reminders: fray tracks them and their
 * durations; what they do at the table is the GM's call. */
static const struct rs_cond_spec gen_conds[] = {
    {"Blinded", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot see"},
    {"Charmed", 0, 0, 0, 0, ENC_EXPIRE_END,
     "will not harm whoever charmed them"},
    {"Concentrating", 0, 0, 0, 0, ENC_EXPIRE_END,
     "holding a spell; damage may break it"},
    {"Deafened", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot hear"},
    {"Dodging", 0, 0, 1, 1, ENC_EXPIRE_START,
     "attacks against them are harder until their next turn"},
    {"Exhausted", RS_COND_STACKS | RS_COND_VALUE, 1, 6, 0, ENC_EXPIRE_END,
     "a level of exhaustion (1 to 6)"},
    {"Frightened", 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move closer to what frightens them"},
    {"Grappled", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot move"},
    {"Hasted", 0, 0, 0, 0, ENC_EXPIRE_END, "acts faster"},
    {"Hidden", 0, 0, 0, 0, ENC_EXPIRE_END, "unseen by their foes"},
    {"Incapacitated", 0, 0, 0, 0, ENC_EXPIRE_END,
     "can take no actions or reactions"},
    {"Invisible", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot be seen"},
    {"Paralyzed", 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move or act; hits from close by are critical"},
    {"Petrified", 0, 0, 0, 0, ENC_EXPIRE_END, "turned to stone"},
    {"Poisoned", 0, 0, 0, 0, ENC_EXPIRE_END,
     "disadvantage on attacks and checks"},
    {"Prone", 0, 0, 0, 0, ENC_EXPIRE_END,
     "on the ground: melee hits them more easily, ranged less"},
    {"Restrained", 0, 0, 0, 0, ENC_EXPIRE_END,
     "cannot move; attacks against them are easier"},
    {"Slowed", 0, 0, 0, 0, ENC_EXPIRE_END, "acts and moves less"},
    {"Stunned", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot act and barely moves"},
    {"Unconscious", 0, 0, 0, 0, ENC_EXPIRE_END,
     "out of it: drops what they hold and falls prone"},
};

static const struct rs_stat_spec gen_stats[] = {
    {"ac", RS_STAT, 0, 100, "armour class: what an attack must reach"},
    {"init", RS_STAT, -100, 100, "added to the d20 for initiative"},
    {"attack", RS_STAT, -100, 100, "added to the d20 of an attack"},
    {"hp", RS_TRACK, 0, ENC_MAX_VALUE, "hit points; 0 is down"},
    {NULL, RS_STAT, 0, 0, NULL},
};

static const struct rs_help gen_help = {
    .kind = "A plain d20 tracker for any game: everyone rolls d20 + "
            "initiative once, turns go from highest to lowest in the same "
            "order every round, and hit points and conditions are tracked.",
    .turns = "On your turn attack with `/attack`, then end it with "
             "`/combat next`. A combatant at 0 hp is down and its turns are "
             "skipped until it is healed.",
    .attacks = "`/attack` rolls d20 + the attacker's `attack` stat (or the "
               "`roll:` given) against the target's `ac`. A natural 20 "
               "always hits and rolls the damage dice twice; a natural 1 "
               "always misses. Damage comes off `hp`.",
};

const struct rs_system rs_generic = {
    .version = RS_SYSTEM_VERSION,
    .id = "generic",
    .title = "Generic d20",
    .summary = "d20 + init, highest first; attacks roll against ac; "
               "hp 0 is down",
    .flags = RS_F_OPEN_STATS,
    .ops = &gen_ops,
    .help = &gen_help,
    .cmds = NULL,
    .ncmds = 0,
    .exts = NULL,
    .attack_opts = NULL,
    .conds = gen_conds,
    .nconds = (int)(sizeof gen_conds / sizeof gen_conds[0]),
    .settings = NULL,
    .stats = gen_stats,
};
