/*
 * rs_factions_turns.c - the `factions` ruleset: the turn structure.
 *
 * A round (or each of its fast and slow phases) is a chain of decisions:
 * the acting faction activates one of its characters who has not acted yet
 * (/combat pick) or passes (/combat pass); after the turn or the pass the
 * decision goes to the next faction, cycling through the sides in the order
 * they were made, from the faction chosen to act first. A faction with
 * nobody able to take a turn in the phase passes automatically. When every
 * faction has passed in a row the phase ends; a pass never forfeits a later
 * turn in the same phase. Rounds end with the morale phase.
 */
#include "rs_factions.h"

#include <stdio.h>

#include "turn.h"

/* ---- where the fight stands --------------------------------------------- */

/* The next side after side (cyclic) that has combatants; side itself when
 * it is the only one. */
static int fac_next_side(const struct encounter *e, int side)
{
    for (int k = 1; k <= e->nsides; k++) {
        int s = (side + k) % e->nsides;
        if (fac_side_size(e, s) > 0)
            return s;
    }
    return side;
}

static bool fac_phases(const struct encounter *e)
{
    return fac_setting(e, "phases") != 0;
}

bool fac_eligible(const struct encounter *e, const struct enc_combatant *w)
{
    if (!turn_can_act(w) || (w->flags & ENC_CF_ACTED))
        return false;
    switch ((enum fac_phase)e->phase) {
    case FAC_PH_AMBUSH:
        return fac_has_cond(w, FAC_COND_CONCEALED);
    case FAC_PH_FAST:
        return fac_rule_fast(enc_stat_or(w, "wit", 0), FAC_E(e)->fat);
    case FAC_PH_ROUND:
    case FAC_PH_SLOW:
        return true;
    }
    return true;
}

static bool fac_side_eligible(const struct encounter *e, int side)
{
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side == side && fac_eligible(e, &e->cs[i]))
            return true;
    return false;
}

static const char *fac_phase_name(int phase)
{
    switch ((enum fac_phase)phase) {
    case FAC_PH_AMBUSH:
        return N_("ambush bonus turn");
    case FAC_PH_FAST:
        return N_("fast phase");
    case FAC_PH_SLOW:
        return N_("slow phase");
    case FAC_PH_ROUND:
        return N_("round");
    }
    return N_("round");
}

/* Whether every faction (every side with members, however many remain)
 * has passed since the last activation of the phase. */
static bool fac_all_passed(const struct encounter *e)
{
    for (int s = 0; s < e->nsides; s++)
        if (fac_side_size(e, s) > 0 && !(FAC_E(e)->passes >> s & 1))
            return false;
    return true;
}

/* ---- the turn flow ------------------------------------------------------ */

/* Open a phase: the first faction decides, nobody has passed. */
static void fac_phase_open(struct encounter *e, int phase)
{
    struct fac_enc *st = FAC_E(e);
    e->phase = phase;
    e->acting_side = st->first;
    st->passes = 0;
    st->phase_acts = 0;
    st->phase_passed = 0;
    e->current = 0;
}

/* Round 1's threshold when the GM gave one, else the d20 rolled openly. */
static enum eng_err fac_threshold_open(struct rs_call *c)
{
    struct fac_enc *st = FAC_E(c->e);
    if (st->fat_next > 0) {
        st->fat = st->fat_next;
        st->fat_next = 0;
        RS_SAY(c, NULL, "Fast action threshold {} (rolled at the table): "
               "fast phase for WIT {} or more", RS_A_NUM(st->fat),
               RS_A_NUM(st->fat));
        return ENG_OK;
    }
    struct rs_rolled fat;
    enum eng_err err = rs_roll(c, NULL, "fast action threshold", "1d20",
                               &fat);
    if (err != ENG_OK)
        return err;
    st->fat = (int32_t)fat.total;
    RS_SAY(c, NULL, "Fast action threshold {}: fast phase for WIT {} or "
           "more", RS_A_ROLL(fat.roll_idx), RS_A_NUM(fat.total));
    return ENG_OK;
}

/* Start a new round; false (and nobody to act) when no character at all
 * can take a turn any more. */
static enum eng_err fac_round_open(struct rs_call *c, bool *go)
{
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    bool anyone = false;
    for (int i = 0; i < e->ncs; i++)
        anyone |= turn_can_act(&e->cs[i]);
    if (!anyone) {
        *go = false;
        e->acting_side = -1;
        e->current = 0;
        rs_say0(c, NULL, "Nobody is able to act");
        return ENG_OK;
    }
    *go = true;
    turn_round(c);
    for (int i = 0; i < e->ncs; i++)
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
    st->first = st->holder;
    st->round_acts = 0;
    st->fat = 0;
    enum eng_err err = ENG_OK;
    if (!fac_phases(e)) {
        fac_phase_open(e, FAC_PH_ROUND);
    } else {
        err = fac_threshold_open(c);
        if (err == ENG_OK)
            fac_phase_open(e, FAC_PH_FAST);
    }
    /* An event at the start of the round: nobody decides until /combat
     * next moves on (fac_next), the phase open and waiting. */
    if (err == ENG_OK && enc_entry_edge(c, ENC_ENTRY_START))
        *go = false;
    return err;
}

/* Every faction passed in a row: end the phase and open the next one. */
static enum eng_err fac_phase_end(struct rs_call *c, bool *go)
{
    struct encounter *e = c->e;
    switch ((enum fac_phase)e->phase) {
    case FAC_PH_AMBUSH:
        rs_say0(c, NULL, "The ambush bonus turn is over");
        e->round = 0;
        return fac_round_open(c, go);
    case FAC_PH_FAST:
        fac_phase_open(e, FAC_PH_SLOW);
        rs_say0(c, NULL, "Slow phase: everyone who has not acted");
        *go = true;
        return ENG_OK;
    case FAC_PH_ROUND:
    case FAC_PH_SLOW:
        break;
    }
    RS_SAY(c, NULL, "Round {} ends: every faction passed",
           RS_A_NUM(e->round));
    fac_morale_phase(c);
    if (enc_entry_edge(c, ENC_ENTRY_END)) {
        *go = false;
        return ENG_OK;
    }
    return fac_round_open(c, go);
}

/* After a turn ended or a faction passed (fresh = false), or when a phase
 * has just opened (fresh = true): hand the decision to the next faction
 * that has someone able to act, passing automatically for the others, and
 * end phases whenever every faction passed in a row. */
static enum eng_err fac_flow(struct rs_call *c, bool fresh)
{
    struct encounter *e = c->e;
    for (int step = 0; step < FAC_FLOW_STEPS; step++) {
        if (!fresh) {
            if (fac_all_passed(e)) {
                bool go;
                enum eng_err err = fac_phase_end(c, &go);
                if (err != ENG_OK || !go)
                    return err;
                fresh = true;
                continue;
            }
            e->acting_side = fac_next_side(e, e->acting_side);
        }
        fresh = false;
        if (fac_side_eligible(e, e->acting_side)) {
            RS_SAY(c, NULL, "{}: pick who acts, or pass ({})",
                   RS_A_SIDE(e, e->acting_side),
                   RS_A_TEXT(fac_phase_name(e->phase)));
            return ENG_OK;
        }
        /* A side whose members all left is no faction: it neither
         * decides nor passes. */
        if (fac_side_size(e, e->acting_side) == 0)
            continue;
        RS_SAY(c, NULL, "{}: pass (nobody left to act)",
               RS_A_SIDE(e, e->acting_side));
        FAC_E(e)->passes |= (int64_t)1 << e->acting_side;
    }
    /* Unreachable while the bound covers two full rounds of passes. */
    e->acting_side = -1;
    rs_say0(c, NULL, "Nobody is able to act");
    return ENG_OK;
}

enum eng_err fac_recheck(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING || e->current != 0 ||
        e->entry_on != 0 || e->acting_side < 0 ||
        fac_side_eligible(e, e->acting_side))
        return ENG_OK;
    return fac_flow(c, true);
}

enum eng_err fac_sync(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    if (e->status != ENC_ST_RUNNING || e->entry_on != 0)
        return ENG_OK;
    enum eng_err err = fac_pending_flush(c);
    if (err != ENG_OK)
        return err;
    if (e->acting_side < 0)
        return ENG_OK;
    /* The character whose turn was running left the fight: its turn is
     * over, and the decision moves on as after any turn. */
    if (st->turn != 0 && e->current == 0) {
        st->turn = 0;
        st->passes = 0;
        rs_say0(c, NULL, "The running turn ended: its character left the "
                "fight");
        return fac_flow(c, false);
    }
    /* The deciding faction's last member left: it is no faction any more
     * and does not pass; the factions still in the fight decide. */
    if (e->current == 0 && fac_side_size(e, e->acting_side) == 0)
        return fac_flow(c, false);
    return fac_recheck(c);
}

/* ---- beginning the fight ------------------------------------------------ */

/* What /combat begin was given (the options this system adds to it). */
struct fac_start {
    int holder;              /* first:, or -1 */
    int64_t threshold;       /* threshold:, or 0 */
    uint32_t ids[ENC_MAX_COMBATANTS]; /* surprise: the ambushers */
    int nsur;
};

/* surprise: combatant or faction names, comma-separated; a faction stands
 * for all its members. Each combatant is listed once. */
static enum eng_err fac_read_surprise(struct rs_call *c, const char *list,
                                      struct fac_start *s)
{
    const char *p = list;
    char name[ENC_MAX_NAME + 1];
    bool too_long;
    while (rs_list_next(&p, name, sizeof name, &too_long)) {
        int side = enc_side_find(c->e, name);
        bool found = false;
        for (int i = 0; i < c->e->ncs; i++) {
            struct enc_combatant *w = &c->e->cs[i];
            if (!(side >= 0 ? w->side == side : enc_name_eq(w->name, name)))
                continue;
            found = true;
            bool dup = false;
            for (int k = 0; k < s->nsur; k++)
                dup |= s->ids[k] == w->id;
            if (!dup)
                s->ids[s->nsur++] = w->id;
        }
        if (!found)
            return enc_fail(c->d, ENG_NOTFOUND, "surprise: no combatant or "
                            "faction named %s", name);
    }
    if (too_long)
        return enc_fail(c->d, ENG_LIMIT, "surprise: a name is too long "
                        "(limit is %d bytes)", ENC_MAX_NAME);
    return ENG_OK;
}

/* Bind and check /combat begin's options before anything changes. */
static enum eng_err fac_read_start(struct rs_call *c, struct fac_start *s)
{
    struct encounter *e = c->e;
    struct rs_arg args[RS_MAX_EXT_OPTS];
    int n = 0;
    enum eng_err err = rs_bind(c, "/combat begin",
                               rs_ext_opts(fac_sys(), "combat begin"),
                               c->opts, c->nopts, args, RS_MAX_EXT_OPTS, &n,
                               c->d);
    if (err != ENG_OK)
        return err;
    const struct rs_arg *a = rs_arg_in(args, n, "first");
    if (a != NULL) {
        if (fac_side_size(e, a->side) == 0)
            return enc_fail(c->d, ENG_STATE, "first: %s has nobody in the "
                            "fight", e->sides[a->side].name);
        s->holder = a->side;
    }
    a = rs_arg_in(args, n, "threshold");
    s->threshold = a != NULL ? a->i : 0;
    if (a != NULL && !fac_phases(e)) {
        enc_fail(c->d, ENG_STATE, "threshold: fast and slow phases are off "
                 "in this fight");
        enc_hint(c->d, "/combat start settings:\"phases=on\" turns them on");
        return ENG_STATE;
    }
    a = rs_arg_in(args, n, "surprise");
    return a != NULL ? fac_read_surprise(c, a->text, s) : ENG_OK;
}

/* Draw one of the n sides in want (a bit per side) at random, openly;
 * *roll gets the roll's index. */
static enum eng_err fac_draw_side(struct rs_call *c, uint64_t want, int *side,
                                  int *roll, int *n_out)
{
    struct encounter *e = c->e;
    int n = 0;
    for (int s = 0; s < e->nsides; s++)
        n += (int)(want >> s & 1);
    char expr[16];
    snprintf(expr, sizeof expr, "1d%d", n);
    struct rs_rolled r;
    enum eng_err err = rs_roll(c, NULL, "faction holding the initiative",
                               expr, &r);
    if (err != ENG_OK)
        return err;
    int k = 0;
    for (int s = 0; s < e->nsides; s++)
        if ((want >> s & 1) && ++k == r.total)
            *side = s;
    *roll = r.roll_idx;
    *n_out = n;
    return ENG_OK;
}

/* The faction holding the initiative: "the faction which started the
 * fight" (first:, else the ambushers'), or a draw when that is unclear. */
static enum eng_err fac_pick_holder(struct rs_call *c,
                                    const struct fac_start *s, int *holder)
{
    struct encounter *e = c->e;
    if (s->holder >= 0) {
        *holder = s->holder;
        RS_SAY(c, NULL, "The initiative is with {}", RS_A_SIDE(e, *holder));
        return ENG_OK;
    }
    uint64_t ambush = 0, all = 0;
    for (int i = 0; i < s->nsur; i++)
        ambush |= (uint64_t)1 << enc_by_id(e, s->ids[i])->side;
    for (int k = 0; k < e->nsides; k++)
        if (fac_side_size(e, k) > 0)
            all |= (uint64_t)1 << k;
    if (ambush != 0 && (ambush & (ambush - 1)) == 0) {
        for (int k = 0; k < e->nsides; k++)
            if (ambush >> k & 1)
                *holder = k;
        RS_SAY(c, NULL, "The initiative is with {}: their ambush started "
               "the fight", RS_A_SIDE(e, *holder));
        return ENG_OK;
    }
    int roll, n;
    enum eng_err err = fac_draw_side(c, ambush != 0 ? ambush : all, holder,
                                     &roll, &n);
    if (err != ENG_OK)
        return err;
    if (ambush != 0)
        RS_SAY(c, NULL, "The initiative is drawn at random among the {} "
               "factions of the ambush, {}: it goes to {}", RS_A_NUM(n),
               RS_A_ROLL(roll), RS_A_SIDE(e, *holder));
    else
        RS_SAY(c, NULL, "Nobody clearly started the fight: the initiative "
               "is drawn at random among {} factions, {}: it goes to {}",
               RS_A_NUM(n), RS_A_ROLL(roll), RS_A_SIDE(e, *holder));
    return ENG_OK;
}

/* Whether e can begin: everyone in a faction, two factions, wit scores
 * for the fast/slow rule. */
static enum eng_err fac_check_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->ncs == 0)
        return enc_fail(c->d, ENG_STATE, "there is nobody to fight yet");
    for (int i = 0; i < e->ncs; i++)
        if (e->cs[i].side < 0) {
            enc_fail(c->d, ENG_STATE, "%s belongs to no faction",
                     e->cs[i].name);
            enc_hint(c->d, "/combat set name:\"%s\" side:Players",
                     e->cs[i].name);
            return ENG_STATE;
        }
    if (fac_factions(e) < 2)
        return enc_fail(c->d, ENG_STATE, "a fight needs at least two "
                        "factions");
    if (fac_phases(e))
        for (int i = 0; i < e->ncs; i++)
            if (enc_stat(&e->cs[i], "wit") == NULL) {
                enc_fail(c->d, ENG_STATE, "%s needs a wit score: fast and "
                         "slow phases are on", e->cs[i].name);
                enc_hint(c->d, "/combat set name:\"%s\" stats:\"wit=10\"",
                         e->cs[i].name);
                return ENG_STATE;
            }
    return ENG_OK;
}

enum eng_err fac_begin(struct rs_call *c)
{
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    struct fac_start s = {.holder = -1};
    enum eng_err err = fac_check_begin(c);
    if (err == ENG_OK)
        err = fac_read_start(c, &s);
    if (err != ENG_OK)
        return err;

    /* Checked: from here on the encounter changes. */
    for (int k = 0; k < e->nsides; k++)
        FAC_S(e, k)->start = fac_side_size(e, k);
    for (int i = 0; i < s.nsur; i++) {
        err = fac_give(c, enc_by_id(e, s.ids[i]), FAC_COND_CONCEALED, 0);
        if (err != ENG_OK)
            return err;
    }
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->turn_idx = -1;
    e->current = 0;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    int holder = -1;
    err = fac_pick_holder(c, &s, &holder);
    if (err != ENG_OK)
        return err;
    st->holder = holder;
    st->first = holder;
    st->fat_next = (int32_t)s.threshold;

    bool ambush = false;
    for (int i = 0; i < e->ncs; i++)
        if (turn_can_act(&e->cs[i]) &&
            fac_has_cond(&e->cs[i], FAC_COND_CONCEALED))
            ambush = true;
    if (ambush) {
        fac_phase_open(e, FAC_PH_AMBUSH);
        rs_say0(c, NULL, "Ambush: concealed characters take a bonus turn "
                "before round 1");
        return fac_flow(c, true);
    }
    bool go;
    err = fac_round_open(c, &go);
    if (err != ENG_OK || !go)
        return err;
    return fac_flow(c, true);
}

/* ---- turns -------------------------------------------------------------- */

static enum eng_err fac_require_running(struct rs_call *c)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
    if (enc_entry_busy(c) != ENG_OK)
        return ENG_STATE;
    if (c->e->acting_side < 0)
        return enc_fail(c->d, ENG_STATE, "nobody is able to act");
    return ENG_OK;
}

/* Running, and a faction is deciding: no turn is under way. */
static enum eng_err fac_require_deciding(struct rs_call *c)
{
    enum eng_err err = fac_require_running(c);
    if (err != ENG_OK)
        return err;
    const struct enc_combatant *cur = enc_current(c->e);
    if (cur == NULL)
        return ENG_OK;
    enc_fail(c->d, ENG_STATE, "the turn of %s is still running", cur->name);
    enc_hint(c->d, "/combat next ends it");
    return ENG_STATE;
}

/* End the running turn and hand the decision to the next faction. */
static enum eng_err fac_end_turn(struct rs_call *c)
{
    turn_end(c);
    FAC_E(c->e)->turn = 0;
    FAC_E(c->e)->passes = 0;
    return fac_flow(c, false);
}

/* /combat next on an event of the order: on from the round's edge it
 * sat at (more events there, the new round, the decision). */
static enum eng_err fac_entry_next(struct rs_call *c, int at)
{
    bool go = true;
    enum eng_err err = ENG_OK;
    if (at == ENC_ENTRY_END) {
        if (enc_entry_edge(c, ENC_ENTRY_END))
            return ENG_OK;
        err = fac_round_open(c, &go);
    } else if (enc_entry_edge(c, ENC_ENTRY_START)) {
        return ENG_OK;
    }
    if (err != ENG_OK || !go)
        return err;
    return fac_flow(c, true);
}

enum eng_err fac_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status == ENC_ST_RUNNING && e->entry_on != 0)
        return fac_entry_next(c, enc_entry_leave(c));
    /* A turn whose character left is over once caught up with: this
     * /combat next was meant to end it. */
    bool gone = e->status == ENC_ST_RUNNING && FAC_E(e)->turn != 0 &&
                e->current == 0;
    enum eng_err err = fac_sync(c);
    if (err == ENG_OK && gone)
        return ENG_OK;
    if (err == ENG_OK)
        err = fac_require_running(c);
    if (err != ENG_OK)
        return err;
    if (e->current == 0) {
        enc_fail(c->d, ENG_STATE, "no turn is running: the decision is "
                 "with %s", e->sides[e->acting_side].name);
        enc_hint(c->d, "/combat pick name:<character> or /combat pass");
        return ENG_STATE;
    }
    return fac_end_turn(c);
}

/* Whether the sender may decide for side: the GM or a player with a
 * character in it. */
static bool fac_may_decide(const struct rs_call *c, int side)
{
    if (c->is_gm)
        return true;
    for (int i = 0; i < c->e->ncs; i++)
        if (c->e->cs[i].side == side && c->e->cs[i].owner != 0 &&
            c->e->cs[i].owner == c->user)
            return true;
    return false;
}

/* Activate who for its faction (the checks and the turn start of
 * /combat pick). */
static enum eng_err fac_activate(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = fac_require_deciding(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (who->side != e->acting_side)
        return enc_fail(c->d, ENG_STATE, "the decision is with %s now, not "
                        "with %s", e->sides[e->acting_side].name,
                        who->side >= 0 ? e->sides[who->side].name : "nobody");
    if (!turn_can_act(who))
        return enc_fail(c->d, ENG_STATE, "%s is out of the fight", who->name);
    if (who->flags & ENC_CF_ACTED)
        return enc_fail(c->d, ENG_STATE, "%s has already acted this round",
                        who->name);
    if (!fac_eligible(e, who)) {
        if (e->phase == FAC_PH_AMBUSH)
            return enc_fail(c->d, ENG_STATE, "only concealed characters act "
                            "in the ambush bonus turn");
        return enc_fail(c->d, ENG_STATE, "the wit of %s (%lld) is below the "
                        "fast action threshold %lld: wait for the slow phase",
                        who->name, (long long)enc_stat_or(who, "wit", 0),
                        (long long)st->fat);
    }
    who->flags |= ENC_CF_ACTED;
    FAC_C(who)->reacted = FAC_NO_ROUND;
    st->passes = 0;
    st->phase_acts++;
    st->round_acts++;
    st->turn = who->id;
    turn_start(c, who);
    return ENG_OK;
}

enum eng_err fac_pick(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = fac_sync(c);
    return err != ENG_OK ? err : fac_activate(c, who);
}

enum eng_err fac_pass(struct rs_call *c)
{
    struct encounter *e = c->e;
    int side = e->acting_side, phase = e->phase, round = e->round;
    enum eng_err err = fac_sync(c);
    if (err != ENG_OK)
        return err;
    /* Catching up made the deciding faction pass on its own: this pass
     * was for it, and is done. */
    if (e->acting_side != side || e->phase != phase || e->round != round)
        return ENG_OK;
    err = fac_require_deciding(c);
    if (err != ENG_OK)
        return err;
    if (!fac_may_decide(c, e->acting_side))
        return enc_fail(c->d, ENG_PERM, "only the GM or a player of %s may "
                        "pass for it", e->sides[e->acting_side].name);
    RS_SAY(c, NULL, "{}: pass", RS_A_SIDE(e, e->acting_side));
    FAC_E(e)->passes |= (int64_t)1 << e->acting_side;
    FAC_E(e)->phase_passed++;
    return fac_flow(c, false);
}

enum eng_err fac_late_join(struct rs_call *c, struct enc_combatant *who)
{
    if (who->side >= 0)
        FAC_S(c->e, who->side)->start++;
    /* A newcomer has not acted: it may take a turn in this round. If its
     * faction is the one deciding, nothing changes; other factions meet it
     * when the decision comes round. */
    return ENG_OK;
}

/* ---- the ruleset's turn commands ---------------------------------------- */

/* Catch up, then require a running fight that a faction decides in. */
static enum eng_err fac_sync_running(struct rs_call *c)
{
    enum eng_err err = fac_sync(c);
    return err != ENG_OK ? err : fac_require_running(c);
}

enum eng_err fac_cmd_first(struct rs_call *c)
{
    enum eng_err err = fac_sync_running(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    int side = rs_arg(c, "side")->side;
    if (fac_side_size(e, side) == 0)
        return enc_fail(c->d, ENG_STATE, "%s has nobody in the fight",
                        e->sides[side].name);
    int holder = st->holder;
    if (!fac_may_decide(c, holder))
        return enc_fail(c->d, ENG_PERM, "only the GM or a player of %s (it "
                        "holds the initiative) may choose",
                        e->sides[holder].name);
    if (e->current != 0 || st->phase_acts > 0 || st->phase_passed > 0)
        return enc_fail(c->d, ENG_STATE, "a faction has already acted or "
                        "passed in this %s",
                        fac_diag_word(c->d, fac_phase_name(e->phase)));
    st->first = side;
    fac_phase_open(e, e->phase);
    RS_SAY(c, NULL, "First to act: {}, chosen by {} (holding the "
           "initiative)", RS_A_SIDE(e, side), RS_A_SIDE(e, holder));
    return fac_flow(c, true);
}

enum eng_err fac_cmd_threshold(struct rs_call *c)
{
    enum eng_err err = fac_sync_running(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    struct fac_enc *st = FAC_E(e);
    if (!fac_phases(e))
        return enc_fail(c->d, ENG_STATE, "fast and slow phases are off");
    int64_t v = rs_arg_int(c, "value", 0);
    if (e->phase == FAC_PH_AMBUSH) {
        /* Round 1 has not begun: its threshold waits for it. */
        st->fat_next = (int32_t)v;
        RS_SAY(c, NULL, "The fast action threshold of round 1 will be {}",
               RS_A_NUM(v));
        return ENG_OK;
    }
    if (e->current != 0 || st->round_acts > 0)
        return enc_fail(c->d, ENG_STATE, "someone has already taken a turn "
                        "this round");
    st->fat = (int32_t)v;
    fac_phase_open(e, FAC_PH_FAST);
    RS_SAY(c, NULL, "Fast action threshold set to {}: fast phase for WIT {} "
           "or more", RS_A_NUM(v), RS_A_NUM(v));
    return fac_flow(c, true);
}

/* surrender name: -- the character spends its turn giving up: its running
 * turn, or, when its faction is deciding, a turn taken for that. */
enum eng_err fac_cmd_surrender(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "name");
    enum eng_err err = fac_sync(c);
    if (err != ENG_OK)
        return err;
    if (c->e->current != who->id) {
        err = fac_activate(c, who);
        if (err != ENG_OK)
            return err;
    }
    err = fac_give(c, who, FAC_COND_SURRENDERED, who->id);
    if (err != ENG_OK)
        return err;
    RS_SAY(c, who, "{} surrenders and wastes the turn", RS_A_WHO(who));
    return fac_end_turn(c);
}

/* The clock ran out: a running activation ends; a faction that is to
 * decide passes, which the rules always allow it. */
enum eng_err fac_timeout(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->current != 0)
        return rs_clock_end_turn(c, "The turn clock ran out: {} ends the "
                                 "turn.");
    if (e->acting_side < 0 || e->acting_side >= e->nsides)
        return enc_fail(c->d, ENG_STATE, "no faction is to decide");
    RS_SAY(c, NULL, "The turn clock ran out: {} passes.",
           RS_A_SIDE(e, e->acting_side));
    return fac_pass(c);
}
