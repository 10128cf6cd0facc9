/*
 * rs_generic.c - the generic ruleset: a plain d20 tracker.
 *
 * Initiative is 1d20 + the `init` stat, highest first; ties go to the
 * higher modifier, then to a roll-off drawn once at the start and kept, so
 * the order never changes between rounds. An attack rolls `roll` (default
 * 1d20 + the attacker's `attack` stat) against the target's `ac`: a natural
 * 20 always hits and doubles the damage dice, a natural 1 always misses.
 * Damage comes off `temp` (temporary hit points) first, then `hp`; at 0
 * the combatant is down. A downed NPC's turns are skipped; a downed player
 * character's turn is theirs, or a death save (rs_generic_life.c).
 */
#include <stdio.h>

#include "eng_text.h"
#include "rs.h"
#include "rs_generic.h"
#include "rs_kit.h"
#include "turn.h"

static enum eng_err gen_setup(struct rs_call *c, struct enc_combatant *who)
{
    /* A stat named hp becomes the hp track (current = max); the track is
     * the one place hp lives, so the stat is dropped. */
    return rs_stat_to_track(c, who, "hp", "hp");
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

static enum eng_err gen_begin(struct rs_call *c)
{
    if (c->e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    enum eng_err err = rs_d20_roll_all(c);
    if (err != ENG_OK)
        return err;
    turn_order_build(c->e, rs_d20_cmp);
    turn_fixed_begin_down(c, NULL, gen_down_turn);
    return ENG_OK;
}

static enum eng_err gen_next(struct rs_call *c)
{
    turn_fixed_next_down(c, NULL, gen_down_turn);
    return ENG_OK;
}

/* The clock ran out: the turn is skipped, as an ordered system allows. */
static enum eng_err gen_timeout(struct rs_call *c)
{
    return rs_clock_end_turn(c, "The turn clock ran out: {} loses this "
                             "turn.");
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
    /* options:adv / options:dis: the d20 rolled twice, the better or the
     * worse kept (the dice language's adv/dis on the d20 term, so both dice
     * show); both at once cancel and one d20 is rolled, as d20 tables play
     * it. */
    struct rs_call opts = *c;
    opts.args = a->args;
    opts.nargs = a->nargs;
    bool adv = rs_arg_bool(&opts, "adv", false);
    bool dis = rs_arg_bool(&opts, "dis", false);
    const char *edge = adv == dis ? "" : adv ? " adv" : " dis";
    char expr[DICE_MAX_EXPR_LEN + 16];
    int64_t bonus = enc_stat_or(a->attacker, "attack", 0);
    if (a->roll != NULL)
        snprintf(expr, sizeof expr, "%s%s", a->roll, edge);
    else
        snprintf(expr, sizeof expr, "1d20%+lld%s", (long long)bonus, edge);
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
    if (adv && dis)
        rs_mod_note(c, ev, "advantage and disadvantage cancel: one d20");
    else if (adv)
        rs_mod_note(c, ev, "advantage: the higher of two d20s");
    else if (dis)
        rs_mod_note(c, ev, "disadvantage: the lower of two d20s");
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
    dv->other = a->target->id;
    dv->a = amount;
    dv->secret = a->target->hidden && a->attacker->hidden;
    if (enc_track(a->target, "hp") == NULL)
        return ENG_OK;
    int64_t left = gen_soak(c, a->target, "hp", amount);
    struct enc_track *hp = enc_track(a->target, "hp");
    if (left == 0)
        return ENG_OK;
    int64_t before = hp->cur;
    /* Like /combat hp, damage stops at 0. */
    int64_t after = hp->cur - left;
    if (after < 0)
        after = 0;
    hp->cur = after;
    struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, a->target->id);
    hv->text = "hp";
    hv->a = before;
    hv->b = hp->cur;
    hv->secret = a->target->hidden;
    gen_after_track(c, a->target, "hp", before);
    return ENG_OK;
}

static const struct rs_ops gen_ops = {
    .version = RS_OPS_VERSION,
    .setup = gen_setup,               /* hp stat -> hp track */
    .check_stat = gen_check_stat,     /* ac, init bounds */
    .setting = NULL,                  /* death_saves: declared bounds */
    .begin = gen_begin,               /* 1d20 + init, highest first */
    .next = gen_next,                 /* fixed order; downed PCs' turns */
    .pick = NULL,                     /* not alternating */
    .pass = NULL,                     /* not alternating */
    .attack = gen_attack,             /* roll vs ac, damage to hp */
    .late_join = rs_d20_late_join,    /* rolls and slots into the order */
    .after_track = gen_after_track,   /* hp <= 0 is down */
    .status = gen_status,             /* a downed PC's death saves */
    .data_parse = NULL,               /* no data file */
    .data_free = NULL,
    .data_conds = NULL,               /* conditions: gen_conds */
    .cond_changed = NULL,             /* conditions are reminders only */
    .soak = gen_soak,                 /* temp first; a hit while down */
    .timeout = gen_timeout,           /* the turn is skipped */
};

/* The conditions d20 tables use, as reminders: fray tracks them and their
 * durations; what they do at the table is the GM's call. */
static const struct rs_cond_spec gen_conds[] = {
    {"Bleeding", 0, 0, 0, 0, ENC_EXPIRE_END, "losing blood every turn"},
    {"Blessed", 0, 0, 0, 0, ENC_EXPIRE_END,
     "favoured: a bonus to attacks and saves"},
    {"Blinded", 0, 0, 0, 0, ENC_EXPIRE_END, "cannot see"},
    {"Burning", 0, 0, 0, 0, ENC_EXPIRE_END, "on fire until put out"},
    {"Charmed", 0, 0, 0, 0, ENC_EXPIRE_END,
     "will not harm whoever charmed them"},
    {"Concentrating", 0, 0, 0, 0, ENC_EXPIRE_END,
     "holding a spell; damage may break it"},
    {"Cursed", 0, 0, 0, 0, ENC_EXPIRE_END, "under a curse"},
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

static const struct rs_opt_spec gen_attack_opts[] = {
    RS_FLAG("adv", "Advantage: two d20s, the higher kept"),
    RS_FLAG("dis", "Disadvantage: two d20s, the lower kept"),
    RS_OPT_END,
};

static const struct rs_stat_spec gen_stats[] = {
    {"ac", RS_STAT, 0, 100, "armour class: what an attack must reach"},
    {"init", RS_STAT, -100, 100, "added to the d20 for initiative"},
    {"attack", RS_STAT, -100, 100, "added to the d20 of an attack"},
    {"hp", RS_TRACK, 0, ENC_MAX_VALUE, "hit points; 0 is down"},
    {GEN_TEMP, RS_POOL, 0, ENC_MAX_VALUE,
     "temporary hit points: damage takes them first; they do not heal"},
    {NULL, RS_STAT, 0, 0, NULL},
};

static const struct rs_field gen_comb_fields[] = {
    RS_FIELD(struct gen_comb, saves, RS_F_I64, 0),
    RS_FIELD(struct gen_comb, fails, RS_F_I64, 0),
};

static const struct rs_setting_spec gen_settings[] = {
    {GEN_SET_DEATH_SAVES, RS_SET_BOOL, 0, 1, NULL, "off",
     "a downed player character's turn is a death save: d20, 10 or more "
     "succeeds, three of either decide, a natural 20 is back up with 1 hp; "
     "off, they get their turn and only NPCs are skipped"},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

static const struct rs_help gen_help = {
    .kind = "A plain d20 tracker for any game: everyone rolls d20 + "
            "initiative once, turns go from highest to lowest in the same "
            "order every round, and hit points and conditions are tracked.",
    .turns = "On your turn attack with `/attack`, then end it with "
             "`/combat next`. At 0 hp a combatant is down: an NPC's turns "
             "are skipped until it is healed; a player character still gets "
             "theirs, or, with `death_saves=on`, makes a death save on it "
             "(d20: 10 or more succeeds, three successes and they are "
             "stable, three failures and they die, a natural 20 and they "
             "are back with 1 hp).",
    .attacks = "`/attack` rolls d20 + the attacker's `attack` stat (or the "
               "`roll:` given) against the target's `ac`; `options:adv` "
               "rolls two d20s and keeps the higher, `options:dis` the "
               "lower (both: they cancel). A natural 20 "
               "always hits and rolls the damage dice twice; a natural 1 "
               "always misses. Damage comes off temporary hit points "
               "(`temp`) first, then `hp`.",
    .clock = "When `/combat clock` runs out with `auto:true`, the running "
             "turn is skipped: the next in the order acts, as if `/combat "
             "next` had ended it.",
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
    .attack_opts = gen_attack_opts,
    .conds = gen_conds,
    .nconds = (int)(sizeof gen_conds / sizeof gen_conds[0]),
    .settings = gen_settings,
    .stats = gen_stats,
    .comb_state = {sizeof(struct gen_comb), gen_comb_fields,
                   (int)(sizeof gen_comb_fields / sizeof gen_comb_fields[0])},
};
