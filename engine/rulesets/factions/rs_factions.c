/*
 * rs_factions.c - the `factions` ruleset: turn structure and settings.
 *
 * A round (or each of its fast and slow phases) is a chain of decisions:
 * the acting faction activates one of its characters who has not acted yet
 * (/combat pick) or passes (/combat pass); after the turn or the pass the
 * decision goes to the next faction, cycling through the sides in the order
 * they were made, from the faction chosen to act first. A faction with
 * nobody able to take a turn in the phase passes automatically. When every
 * faction has passed in a row the phase ends; a pass never forfeits a later
 * turn in the same phase. Rounds end with the morale phase. See
 * rs_factions.h for the state kept in the scratch slots.
 */
#include "rs_factions.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "eng_text.h"
#include "rs_kit.h"
#include "turn.h"

/* ---- small helpers -------------------------------------------------------- */

void fac_say(struct rs_call *c, uint32_t who, bool secret, const char *fmt,
             ...)
{
    va_list ap;
    va_start(ap, fmt);
    rs_vsayf(c, who, secret, fmt, ap);
    va_end(ap);
}

bool fac_has_cond(const struct enc_combatant *w, const char *name)
{
    for (int i = 0; i < w->nconds; i++)
        if (enc_name_eq(w->conds[i].name, name))
            return true;
    return false;
}

static int fac_side_size(const struct encounter *e, int side)
{
    int n = 0;
    for (int i = 0; i < e->ncs; i++)
        n += e->cs[i].side == side;
    return n;
}

int fac_factions(const struct encounter *e)
{
    int n = 0;
    for (int s = 0; s < e->nsides; s++)
        n += fac_side_size(e, s) > 0;
    return n;
}

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

static bool fac_setting_on(const struct encounter *e, const char *key,
                           bool dflt)
{
    const char *v = enc_setting(e, key);
    bool on = dflt;
    if (v != NULL && !eng_text_to_bool(v, &on))
        return dflt;
    return on;
}

static bool fac_phases(const struct encounter *e)
{
    return fac_setting_on(e, "phases", false);
}

/* Whether who may take its turn now, in the current phase. */
static bool fac_eligible(const struct encounter *e,
                         const struct enc_combatant *w)
{
    if (!turn_can_act(w) || (w->flags & ENC_CF_ACTED))
        return false;
    switch ((enum fac_phase)e->phase) {
    case FAC_PH_AMBUSH:
        return fac_has_cond(w, FAC_COND_CONCEALED);
    case FAC_PH_FAST:
        return fac_rule_fast(enc_stat_or(w, "wit", 0), e->rs[FAC_E_FAT]);
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
        return "ambush bonus turn";
    case FAC_PH_FAST:
        return "fast phase";
    case FAC_PH_SLOW:
        return "slow phase";
    case FAC_PH_ROUND:
        return "round";
    }
    return "round";
}

/* Whether every faction (every side with members, however many remain)
 * has passed since the last activation of the phase. */
static bool fac_all_passed(const struct encounter *e)
{
    for (int s = 0; s < e->nsides; s++)
        if (fac_side_size(e, s) > 0 && !(e->rs[FAC_E_PASSES] >> s & 1))
            return false;
    return true;
}

/* ---- pure rules ------------------------------------------------------------ */

bool fac_rule_fast(int64_t wit, int64_t fat)
{
    return wit >= fat;
}

/* ---- the turn flow ---------------------------------------------------------- */

/* Open a phase: the first faction decides, nobody has passed. */
static void fac_phase_open(struct encounter *e, int phase)
{
    e->phase = phase;
    e->acting_side = (int)e->rs[FAC_E_FIRST];
    e->rs[FAC_E_PASSES] = 0;
    e->rs[FAC_E_PHASE_ACTS] = 0;
    e->rs[FAC_E_PHASE_PASSED] = 0;
    e->current = 0;
}

/* Start a new round; false (and nobody to act) when no character at all
 * can take a turn any more. */
static enum eng_err fac_round_open(struct rs_call *c, bool *go)
{
    struct encounter *e = c->e;
    bool anyone = false;
    for (int i = 0; i < e->ncs; i++)
        anyone |= turn_can_act(&e->cs[i]);
    if (!anyone) {
        *go = false;
        e->acting_side = -1;
        e->current = 0;
        fac_say(c, 0, false, "nobody is able to act");
        return ENG_OK;
    }
    *go = true;
    e->round++;
    enc_emit(c->r, ENC_EV_ROUND, 0)->a = e->round;
    for (int i = 0; i < e->ncs; i++)
        e->cs[i].flags &= ~(uint32_t)ENC_CF_ACTED;
    e->rs[FAC_E_FIRST] = e->rs[FAC_E_HOLDER];
    e->rs[FAC_E_ROUND_ACTS] = 0;
    e->rs[FAC_E_FAT] = 0;
    if (!fac_phases(e)) {
        fac_phase_open(e, FAC_PH_ROUND);
        return ENG_OK;
    }
    struct rs_rolled fat;
    enum eng_err err = rs_roll(c, NULL, "fast action threshold",
                               "1d20", &fat);
    if (err != ENG_OK)
        return err;
    e->rs[FAC_E_FAT] = fat.total;
    fac_phase_open(e, FAC_PH_FAST);
    RS_SAY(c, NULL, "Fast action threshold {}: fast phase for WIT {} or "
           "more", RS_A_ROLL(fat.roll_idx), RS_A_NUM(fat.total));
    return ENG_OK;
}

/* Every faction passed in a row: end the phase and open the next one. */
static enum eng_err fac_phase_end(struct rs_call *c, bool *go)
{
    struct encounter *e = c->e;
    switch ((enum fac_phase)e->phase) {
    case FAC_PH_AMBUSH:
        fac_say(c, 0, false, "the ambush bonus turn is over");
        e->round = 0;
        return fac_round_open(c, go);
    case FAC_PH_FAST:
        fac_phase_open(e, FAC_PH_SLOW);
        fac_say(c, 0, false, "slow phase: everyone who has not acted");
        *go = true;
        return ENG_OK;
    case FAC_PH_ROUND:
    case FAC_PH_SLOW:
        break;
    }
    fac_say(c, 0, false, "round %d ends: every faction passed", e->round);
    fac_morale_phase(c);
    return fac_round_open(c, go);
}

/* After a turn ended or a faction passed (fresh = false), or when a phase
 * has just opened (fresh = true): hand the decision to the next faction
 * that has someone able to act, passing automatically for the others, and
 * end phases whenever every faction passed in a row. */
enum eng_err fac_flow(struct rs_call *c, bool fresh)
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
            fac_say(c, 0, false, "%s: pick who acts, or pass (%s)",
                    e->sides[e->acting_side].name, fac_phase_name(e->phase));
            return ENG_OK;
        }
        /* A side whose members all left is no faction: it neither
         * decides nor passes. */
        if (fac_side_size(e, e->acting_side) == 0)
            continue;
        fac_say(c, 0, false, "%s passes: nobody left to act",
                e->sides[e->acting_side].name);
        e->rs[FAC_E_PASSES] |= (int64_t)1 << e->acting_side;
    }
    /* Unreachable while the bound covers two full rounds of passes. */
    e->acting_side = -1;
    fac_say(c, 0, false, "nobody is able to act");
    return ENG_OK;
}

enum eng_err fac_recheck(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING || e->current != 0 ||
        e->acting_side < 0 || fac_side_eligible(e, e->acting_side))
        return ENG_OK;
    return fac_flow(c, true);
}

enum eng_err fac_sync(struct rs_call *c)
{
    struct encounter *e = c->e;
    if (e->status != ENC_ST_RUNNING)
        return ENG_OK;
    enum eng_err err = fac_pending_flush(c);
    if (err != ENG_OK)
        return err;
    if (e->acting_side < 0)
        return ENG_OK;
    /* The character whose turn was running left the fight: its turn is
     * over, and the decision moves on as after any turn. */
    if (e->rs[FAC_E_TURN] != 0 && e->current == 0) {
        e->rs[FAC_E_TURN] = 0;
        e->rs[FAC_E_PASSES] = 0;
        fac_say(c, 0, false, "the running turn ended: its character left "
                "the fight");
        return fac_flow(c, false);
    }
    /* The deciding faction's last member left: it is no faction any more
     * and does not pass; the factions still in the fight decide. */
    if (e->current == 0 && fac_side_size(e, e->acting_side) == 0)
        return fac_flow(c, false);
    return fac_recheck(c);
}

/* ---- ops -------------------------------------------------------------------- */

static enum eng_err fac_check_value(struct rs_call *c, const char *name,
                                    int64_t value)
{
    static const struct {
        const char *name;
        int64_t lo, hi;
    } bounds[] = {
        {"str", 0, FAC_MAX_ATTR},    {"agi", 0, FAC_MAX_ATTR},
        {"wit", 0, FAC_MAX_ATTR},    {"armour", 0, FAC_MAX_ARMOUR},
        {"zone", 0, FAC_MAX_ZONE},   {"fearless", 0, 1},
        {FAC_STAT_SHIELD, 0, FAC_MAX_ARMOUR},
        {FAC_STAT_ARMOUR_DAMAGED, 0, 1},
        {FAC_STAT_SHIELD_DAMAGED, 0, 1},
    };
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (eng_text_casecmp(name, bounds[i].name) == 0 &&
            (value < bounds[i].lo || value > bounds[i].hi))
            return enc_fail(c->d, ENG_RANGE, "%s must be %lld to %lld",
                            bounds[i].name, (long long)bounds[i].lo,
                            (long long)bounds[i].hi);
    return ENG_OK;
}

static enum eng_err fac_setup(struct rs_call *c, struct enc_combatant *who)
{
    for (int i = 0; i < who->nstats; i++) {
        enum eng_err err = fac_check_value(c, who->stats[i].name,
                                           who->stats[i].value);
        if (err != ENG_OK)
            return err;
    }
    if (fac_phases(c->e) && enc_stat(who, "wit") == NULL) {
        enc_fail(c->d, ENG_INVALID, "%s needs a wit score: fast and slow "
                 "phases are on", who->name);
        enc_hint(c->d, "stats:\"str=10 agi=10 wit=10 hp=8\"");
        return ENG_INVALID;
    }
    /* hp given as a stat becomes the hp track (current = maximum). */
    for (int i = 0; i < who->nstats; i++) {
        if (eng_text_casecmp(who->stats[i].name, "hp") != 0)
            continue;
        int64_t hp = who->stats[i].value;
        if (hp < 0)
            return enc_fail(c->d, ENG_RANGE, "hp cannot be negative");
        enum eng_err err = enc_track_set(who, "hp", hp, hp, c->d);
        if (err != ENG_OK)
            return err;
        memmove(&who->stats[i], &who->stats[i + 1],
                (size_t)(who->nstats - i - 1) * sizeof who->stats[0]);
        who->nstats--;
        break;
    }
    return ENG_OK;
}

/* Armour can't be changed during a fight: a player's change is refused
 * once it runs; the GM may still correct it. */
static enum eng_err fac_check_stat(struct rs_call *c,
                                   struct enc_combatant *who,
                                   const char *name, int64_t value)
{
    enum eng_err err = fac_check_value(c, name, value);
    if (err != ENG_OK || c->is_gm || c->e->status != ENC_ST_RUNNING ||
        eng_text_casecmp(name, FAC_STAT_ARMOUR) != 0 ||
        enc_stat_or(who, FAC_STAT_ARMOUR, 0) == value)
        return err;
    enc_fail(c->d, ENG_STATE, "armour can't be changed during a fight");
    enc_hint(c->d, "the GM can correct it");
    return ENG_STATE;
}

static enum eng_err fac_setting(struct rs_call *c, const char *key,
                                const char *value)
{
    bool on;
    if (eng_text_casecmp(key, "phases") == 0 ||
        eng_text_casecmp(key, "morale") == 0) {
        if (!eng_text_to_bool(value, &on))
            return enc_fail(c->d, ENG_INVALID, "%s must be on or off", key);
        return enc_setting_set(c->e, key, value, c->d);
    }
    if (eng_text_casecmp(key, "save") == 0) {
        if (eng_text_casecmp(value, "at-or-below") != 0 &&
            eng_text_casecmp(value, "below") != 0)
            return enc_fail(c->d, ENG_INVALID, "save must be at-or-below "
                            "or below");
        return enc_setting_set(c->e, key, value, c->d);
    }
    if (eng_text_casecmp(key, "impaired") == 0) {
        struct dice_expr *x = NULL;
        struct dice_diag dd;
        enum eng_err err = dice_parse(value, strlen(value), &x, &dd);
        dice_expr_free(x);
        if (err != ENG_OK)
            return enc_fail(c->d, err, "bad impaired dice `%.64s`: %s",
                            value, dd.msg);
        return enc_setting_set(c->e, key, value, c->d);
    }
    enc_fail(c->d, ENG_NOTFOUND, "unknown setting %.24s for factions", key);
    enc_hint(c->d, "settings:\"phases=on morale=on save=at-or-below "
             "impaired=1d4\"");
    return ENG_NOTFOUND;
}

/* Options of /combat begin: first (the faction holding the initiative) and
 * surprise (ambushers who start concealed: combatant or faction names,
 * comma-separated). Each combatant is listed once, so ids needs room for
 * every combatant. */
#define FAC_MAX_SURPRISE ENC_MAX_COMBATANTS

static enum eng_err fac_parse_surprise(struct rs_call *c, uint32_t *ids,
                                       int *n)
{
    *n = 0;
    const char *list = rs_opt(c->opts, c->nopts, "surprise");
    if (list == NULL)
        return ENG_OK;
    const char *p = list;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        const char *start = p;
        while (*p != '\0' && *p != ',')
            p++;
        size_t len = (size_t)(p - start);
        while (len > 0 && start[len - 1] == ' ')
            len--;
        char name[ENC_MAX_NAME + 1];
        if (len > ENC_MAX_NAME)
            return enc_fail(c->d, ENG_LIMIT, "surprise: a name is too long "
                            "(limit is %d bytes)", ENC_MAX_NAME);
        memcpy(name, start, len);
        name[len] = '\0';
        /* A faction's name stands for all its members. */
        int side = enc_side_find(c->e, name);
        for (int i = 0; i < c->e->ncs; i++) {
            struct enc_combatant *w = &c->e->cs[i];
            bool named = side >= 0 ? w->side == side :
                         enc_name_eq(w->name, name);
            if (!named)
                continue;
            bool dup = false;
            for (int k = 0; k < *n; k++)
                dup |= ids[k] == w->id;
            if (!dup)
                ids[(*n)++] = w->id;
            if (side < 0)
                break;
        }
        if (side < 0 && enc_by_name(c->e, name) == NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "surprise: no combatant or "
                            "faction named %s", name);
    }
    return ENG_OK;
}

static enum eng_err fac_begin(struct rs_call *c)
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
    int holder = -1;
    const char *first = rs_opt(c->opts, c->nopts, "first");
    if (first != NULL) {
        holder = enc_side_find(e, first);
        if (holder < 0 || fac_side_size(e, holder) == 0)
            return enc_fail(c->d, ENG_NOTFOUND, "first: no faction named "
                            "%.32s", first);
    }
    uint32_t ids[FAC_MAX_SURPRISE];
    int nsur;
    enum eng_err err = fac_parse_surprise(c, ids, &nsur);
    if (err != ENG_OK)
        return err;

    /* Validated: from here on the encounter changes. */
    if (holder < 0) {
        /* Nobody clearly started the fight: draw the holder at random,
         * openly, among the factions in side order. */
        int nf = fac_factions(e);
        char expr[16];
        snprintf(expr, sizeof expr, "1d%d", nf);
        struct rs_rolled r;
        err = rs_roll(c, NULL, "faction holding the initiative",
                      expr, &r);
        if (err != ENG_OK)
            return err;
        int k = 0;
        for (int s = 0; s < e->nsides; s++)
            if (fac_side_size(e, s) > 0 && ++k == r.total)
                holder = s;
    }
    for (int s = 0; s < e->nsides; s++)
        e->sides[s].rs[FAC_S_START] = fac_side_size(e, s);
    for (int i = 0; i < nsur; i++) {
        struct enc_cond_req q = {.name = FAC_COND_CONCEALED};
        err = enc_cond_add(e, enc_by_id(e, ids[i]), &q, c->r, c->d);
        if (err != ENG_OK)
            return err;
    }
    e->status = ENC_ST_RUNNING;
    e->round = 0;
    e->turn_idx = -1;
    e->current = 0;
    e->rs[FAC_E_HOLDER] = holder;
    e->rs[FAC_E_FIRST] = holder;
    enc_emit(c->r, ENC_EV_BEGIN, 0);
    fac_say(c, 0, false, "%s holds the initiative", e->sides[holder].name);

    bool ambush = false;
    for (int i = 0; i < e->ncs; i++)
        if (turn_can_act(&e->cs[i]) &&
            fac_has_cond(&e->cs[i], FAC_COND_CONCEALED))
            ambush = true;
    if (ambush) {
        fac_phase_open(e, FAC_PH_AMBUSH);
        fac_say(c, 0, false, "ambush: concealed characters take a bonus "
                "turn before round 1");
        return fac_flow(c, true);
    }
    bool go;
    err = fac_round_open(c, &go);
    if (err != ENG_OK || !go)
        return err;
    return fac_flow(c, true);
}

static enum eng_err fac_require_running(struct rs_call *c)
{
    if (c->e->status != ENC_ST_RUNNING)
        return enc_fail(c->d, ENG_STATE, "the fight has not begun");
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
    enc_fail(c->d, ENG_STATE, "%s's turn is still running", cur->name);
    enc_hint(c->d, "/combat next ends it");
    return ENG_STATE;
}

static enum eng_err fac_next(struct rs_call *c)
{
    struct encounter *e = c->e;
    /* A turn whose character left is over once caught up with: this
     * /combat next was meant to end it. */
    bool gone = e->status == ENC_ST_RUNNING && e->rs[FAC_E_TURN] != 0 &&
                e->current == 0;
    enum eng_err err = fac_sync(c);
    if (err == ENG_OK && gone)
        return ENG_OK;
    if (err == ENG_OK)
        err = fac_require_running(c);
    if (err != ENG_OK)
        return err;
    if (e->current == 0) {
        enc_fail(c->d, ENG_STATE, "no turn is running: %s picks who acts "
                 "or passes", e->sides[e->acting_side].name);
        enc_hint(c->d, "/combat pick name:<character> or /combat pass");
        return ENG_STATE;
    }
    return fac_end_turn(c);
}

enum eng_err fac_end_turn(struct rs_call *c)
{
    turn_end(c);
    c->e->rs[FAC_E_TURN] = 0;
    c->e->rs[FAC_E_PASSES] = 0;
    return fac_flow(c, false);
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

enum eng_err fac_activate(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = fac_require_deciding(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    if (who->side != e->acting_side)
        return enc_fail(c->d, ENG_STATE, "it is %s's decision now, not %s's",
                        e->sides[e->acting_side].name,
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
        return enc_fail(c->d, ENG_STATE, "%s's wit %lld is below the fast "
                        "action threshold %lld: wait for the slow phase",
                        who->name, (long long)enc_stat_or(who, "wit", 0),
                        (long long)e->rs[FAC_E_FAT]);
    }
    who->flags |= ENC_CF_ACTED;
    e->rs[FAC_E_PASSES] = 0;
    e->rs[FAC_E_PHASE_ACTS]++;
    e->rs[FAC_E_ROUND_ACTS]++;
    e->rs[FAC_E_TURN] = who->id;
    turn_start(c, who);
    return ENG_OK;
}

static enum eng_err fac_pick(struct rs_call *c, struct enc_combatant *who)
{
    enum eng_err err = fac_sync(c);
    return err != ENG_OK ? err : fac_activate(c, who);
}

static enum eng_err fac_pass(struct rs_call *c)
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
    fac_say(c, 0, false, "%s passes", e->sides[e->acting_side].name);
    e->rs[FAC_E_PASSES] |= (int64_t)1 << e->acting_side;
    e->rs[FAC_E_PHASE_PASSED]++;
    return fac_flow(c, false);
}

enum eng_err fac_cmd_first(struct rs_call *c)
{
    enum eng_err err = fac_sync(c);
    if (err == ENG_OK)
        err = fac_require_running(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    const char *name = rs_opt(c->opts, c->nopts, "side");
    if (name == NULL || name[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "side: is required");
    int side = enc_side_find(e, name);
    if (side < 0 || fac_side_size(e, side) == 0)
        return enc_fail(c->d, ENG_NOTFOUND, "no faction named %.32s", name);
    int holder = (int)e->rs[FAC_E_HOLDER];
    if (!fac_may_decide(c, holder))
        return enc_fail(c->d, ENG_PERM, "only the GM or a player of %s (it "
                        "holds the initiative) may choose", e->sides[holder].name);
    if (e->current != 0 || e->rs[FAC_E_PHASE_ACTS] > 0 ||
        e->rs[FAC_E_PHASE_PASSED] > 0)
        return enc_fail(c->d, ENG_STATE, "a faction has already acted or "
                        "passed in this %s", fac_phase_name(e->phase));
    e->rs[FAC_E_FIRST] = side;
    fac_phase_open(e, e->phase);
    fac_say(c, 0, false, "%s chooses %s to act first", e->sides[holder].name,
            e->sides[side].name);
    return fac_flow(c, true);
}

enum eng_err fac_cmd_fat(struct rs_call *c)
{
    enum eng_err err = fac_sync(c);
    if (err == ENG_OK)
        err = fac_require_running(c);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    if (!c->is_gm)
        return enc_fail(c->d, ENG_PERM, "only the GM sets the fast action "
                        "threshold");
    if (!fac_phases(e))
        return enc_fail(c->d, ENG_STATE, "fast and slow phases are off");
    if (e->phase != FAC_PH_FAST && e->phase != FAC_PH_SLOW)
        return enc_fail(c->d, ENG_STATE, "there is no threshold in the %s",
                        fac_phase_name(e->phase));
    if (e->current != 0 || e->rs[FAC_E_ROUND_ACTS] > 0)
        return enc_fail(c->d, ENG_STATE, "someone has already taken a turn "
                        "this round");
    int64_t v;
    err = rs_opt_int(c, "value", 1, 20, 0, &v);
    if (err != ENG_OK)
        return err;
    if (rs_opt(c->opts, c->nopts, "value") == NULL)
        return enc_fail(c->d, ENG_INVALID, "value: is required");
    e->rs[FAC_E_FAT] = v;
    fac_phase_open(e, FAC_PH_FAST);
    fac_say(c, 0, false, "fast action threshold set to %lld: fast phase for "
            "WIT %lld or more", (long long)v, (long long)v);
    return fac_flow(c, true);
}

/* surrender name: -- the character spends its turn giving up: its running
 * turn, or, when its faction is deciding, a turn taken for that. */
enum eng_err fac_cmd_surrender(struct rs_call *c)
{
    struct enc_combatant *who;
    enum eng_err err = fac_sync(c);
    if (err == ENG_OK)
        err = rs_opt_combatant(c, "name", &who);
    if (err != ENG_OK)
        return err;
    err = rs_require_actor(c, who);
    if (err != ENG_OK)
        return err;
    struct encounter *e = c->e;
    if (e->current != who->id) {
        err = fac_activate(c, who);
        if (err != ENG_OK)
            return err;
    }
    struct enc_cond_req q = {.name = FAC_COND_SURRENDERED, .source = who->id};
    err = enc_cond_add(e, who, &q, c->r, c->d);
    if (err != ENG_OK)
        return err;
    fac_say(c, who->id, false, "%s surrenders and wastes the turn",
            who->name);
    return fac_end_turn(c);
}

static enum eng_err fac_late_join(struct rs_call *c, struct enc_combatant *who)
{
    if (who->side >= 0)
        c->e->sides[who->side].rs[FAC_S_START]++;
    /* A newcomer has not acted: it may take a turn in this round. If its
     * faction is the one deciding, nothing changes; other factions meet it
     * when the decision comes round. */
    return ENG_OK;
}

static void fac_status_text(const struct encounter *e,
                       const struct enc_combatant *who, char *buf, size_t n)
{
    const char *acted = (who->flags & ENC_CF_ACTED) ?
        (who->rs[FAC_C_REACTED] == e->round ? "reacted" : "acted") : "";
    const char *morale = who->rs[FAC_C_MORALE] == FAC_MOR_STEADY ? "steady" :
        who->rs[FAC_C_MORALE] == FAC_MOR_BROKEN ? "broken" : "";
    const char *fast = "";
    if (e->phase == FAC_PH_FAST && !(who->flags & ENC_CF_ACTED))
        fast = fac_eligible(e, who) ? "fast" : "slow";
    const char *answer = e->rs[FAC_E_PEND_ATT] != 0 &&
                         e->rs[FAC_E_PEND_TGT] == who->id ?
                         "attacked: may react" : "";
    snprintf(buf, n, "%s%s%s%s%s%s%s", answer,
             answer[0] && acted[0] ? ", " : "", acted,
             acted[0] && morale[0] ? ", " : "", morale,
             (answer[0] || acted[0] || morale[0]) && fast[0] ? ", " : "",
             fast);
}

/* The tracker's extra line for who (the text form is kept short for a
 * phone's width). */
static void fac_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out)
{
    char buf[256];
    fac_status_text(e, who, buf, sizeof buf);
    eng_buf_add(out, buf);
}

const struct rs_ops fac_ops = {
    .version = RS_OPS_VERSION,
    .setup = fac_setup,               /* bounds; hp stat -> hp track */
    .check_stat = fac_check_stat,     /* str/agi/wit, armour, zone bounds */
    .setting = fac_setting,           /* phases, morale, save, impaired */
    .begin = fac_begin,               /* holder, ambush, round 1 */
    .next = fac_next,                 /* end the turn; next faction */
    .pick = fac_pick,                 /* activate a character */
    .pass = fac_pass,                 /* the deciding faction passes */
    .attack = fac_attack,             /* hit save, reactions, damage */
    .late_join = fac_late_join,       /* counts in the original number */
    .after_track = fac_after_track,   /* down at 0; harm ends surrender */
    .status = fac_status,             /* acted / reacted / morale / fast */
};

