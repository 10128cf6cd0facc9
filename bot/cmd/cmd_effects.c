/*
 * cmd_effects.c - changing combatants in a fight: hp, conditions, attacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_picker.h"
#include "cmd_run.h"
#include "cmd_srvcond.h"
#include "msg.h"
#include "sbuf.h"
#include "rs_kit.h"
#include "eng_text.h"
#include "rs.h"

struct enc_combatant *cmd_combatant_to_change(struct cmd_run *run,
                                              const char *opt)
{
    struct enc_combatant *who = cmd_combatant(run, opt);
    enum cmd_touch touch = who != NULL ? cmd_touch_of(run, who)
                                       : CMD_TOUCH_NO;
    if (touch == CMD_TOUCH_NO)
        return NULL;
    if (touch == CMD_TOUCH_PROPOSE)    /* tried, then sent (cmd_finish) */
        run->propose_for = who->id;
    return who;
}

void cmd_combat_hp(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    struct enc_combatant *who = cmd_combatant_to_change(run, "name");
    if (who == NULL)
        return;
    const char *change = cmd_req_opt(run->req, "change");
    const char *track = cmd_req_opt(run->req, "track");
    if (track == NULL)
        track = "hp";
    char op = change[0];
    int64_t n;
    if ((op != '+' && op != '-' && op != '=') ||
        !eng_text_to_int(change + 1, &n) || n < 0 || n > ENC_MAX_VALUE ||
        (change[1] == '+' || change[1] == '-')) {
        cmd_fail(run, i18n_get(lang, "change: should be -n (damage), +n "
                                     "(healing) or =n (set), with n from 0 to "
                                     "%d"), ENC_MAX_VALUE);
        return;
    }
    if (cmd_track_change(run, who, track, op, n))
        cmd_finish(run, NULL, false);
}

bool cmd_track_change(struct cmd_run *run, struct enc_combatant *who,
                      const char *track, char op, int64_t n)
{
    enum i18n_lang lang = run->req->lang;
    struct enc_track *t = enc_track(who, track);
    /* A pool (temporary hit points) has no maximum, and none is 0. */
    bool pool = rs_stat_kind(run->rs, track) == RS_POOL;
    if (t == NULL && op != '=' && !pool) {
        cmd_fail(run, i18n_get(lang, "%1$s has no %2$s yet\nTry: `/combat hp "
                                     "name:\"%1$s\" change:=10`"),
                 who->name, track);
        return false;
    }
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    /* Damage meets what soaks it first (temporary hit points). */
    if (op == '-' && n > 0 && run->rs->ops->soak != NULL) {
        n = run->rs->ops->soak(&c, who, track, n);
        t = enc_track(who, track);
        if (n == 0)
            return true;
    }
    int64_t before = t != NULL ? t->cur : 0;
    int64_t after = op == '=' ? n : op == '+' ? before + n : before - n;
    int64_t max = pool ? 0 : t != NULL ? t->max : n;
    /* Healing stops at the maximum; damage stops at 0. */
    if (op == '+' && max > 0 && after > max)
        after = before > max ? before : max;
    if (after < 0)
        after = 0;
    if (after > ENC_MAX_VALUE)
        after = ENC_MAX_VALUE;
    if (pool && after == 0)
        enc_track_remove(who, track);
    else if (enc_track_set(who, track, after, max, &run->diag) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return false;
    }
    struct enc_event *ev = enc_emit(run->res, ENC_EV_HP, who->id);
    ev->text = enc_result_strdup(run->res, track, ENC_MAX_STAT_NAME);
    ev->a = before;
    ev->b = after;
    ev->secret = who->hidden;
    if (run->rs->ops->after_track != NULL)
        run->rs->ops->after_track(&c, who, track, before);
    else
        rs_default_after_track(&c, who, track, before);
    return true;
}

/* Whether the GM may time the condition called name: false, said, when
 * the system's chapter fixes how long it lasts (RS_COND_TIMED) and
 * rounds:, until: or ends: was given. */
static bool cond_time_free(struct cmd_run *run, const char *name)
{
    enum i18n_lang lang = run->req->lang;
    const struct cmd_req *req = run->req;
    if (cmd_req_opt(req, "rounds") == NULL &&
        cmd_req_opt(req, "until") == NULL && cmd_req_opt(req, "ends") == NULL)
        return true;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    const struct rs_cond_spec *sp = rs_cond_spec(&c, run->rs, name);
    if (sp == NULL || !(sp->flags & RS_COND_TIMED))
        return true;
    cmd_fail(run, i18n_get(lang, "the %s rules fix how long %s lasts (%s): "
                                 "leave out rounds:, until: and "
                                 "ends:"), run->rs->id,
             render_cond_name(sp->name, lang),
             sp->help != NULL ? i18n_get(lang, sp->help)
                              : i18n_get(lang, "see /help"));
    return false;
}

/* A name the system does not declare may be one of the server's own
 * conditions (cmd_srvcond.h): then it is given as a free-form condition
 * in its saved spelling, for its default rounds unless the GM timed it.
 * A system's own name never reaches the store. */
static void server_cond(struct cmd_run *run, struct rs_cond_give *q,
                        bool *custom, struct srvcond *keep)
{
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_cond_spec(&c, run->rs, q->name) != NULL ||
        !cmd_srvcond_find(run->ctx->store, run->req->guild_id, q->name,
                          keep))
        return;
    q->name = keep->name;
    *custom = true;
    if (q->rounds < 0 && keep->rounds > 0)
        q->rounds = keep->rounds;
}

void cmd_combat_condition(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    const struct cmd_req *req = run->req;
    struct enc_combatant *who = cmd_combatant(run, "name");
    enum cmd_touch touch = who != NULL ? cmd_touch_of(run, who)
                                       : CMD_TOUCH_NO;
    if (touch == CMD_TOUCH_NO)
        return;
    const char *name = cmd_req_opt(req, "condition");
    bool remove = false;
    if (!cmd_opt_bool(run, "remove", false, &remove))
        return;
    if (name == NULL) {
        cmd_condition_picker(run, who, remove);  /* choose, not type */
        return;
    }
    if (touch == CMD_TOUCH_PROPOSE)    /* tried, then sent (cmd_finish) */
        run->propose_for = who->id;
    if (remove) {
        if (enc_cond_remove(run->enc, who, name, run->res, &run->diag) !=
            ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        cmd_finish(run, NULL, false);
        return;
    }
    int64_t value = 0, rounds = -1, cap = 0;
    bool custom = false;
    if (!cmd_opt_int(run, "value", 0, &value) ||
        !cmd_opt_int(run, "rounds", -1, &rounds) ||
        !cmd_opt_int(run, "cap", 0, &cap) ||
        !cmd_opt_bool(run, "custom", false, &custom))
        return;
    /* The GM's condition and a rule's effect take the same path, so the
     * system's start values, stacks and caps hold however it arrives. */
    struct rs_cond_give q = {
        .name = name,
        .value = (int32_t)value,
        .value_given = cmd_req_opt(req, "value") != NULL,
        .rounds = (int32_t)rounds,
        .anchor = 0,
        .expire = ENC_EXPIRE_END,
        .source = run->enc->current,
        .cap = (int32_t)cap,
    };
    const char *ends = cmd_req_opt(req, "ends");
    if (!cond_time_free(run, name))
        return;
    if (ends != NULL) {
        q.expire_given = true;
        q.expire = eng_text_casecmp(ends, "start") == 0 ? ENC_EXPIRE_START
                                                         : ENC_EXPIRE_END;
    }
    if (cmd_req_opt(req, "until") != NULL) {
        struct enc_combatant *anchor = cmd_combatant(run, "until");
        if (anchor == NULL)
            return;
        q.anchor = anchor->id;
    }
    /* rounds:0 is a condition that never counts down: a turn to count on
     * would be dropped without a word. */
    if (q.rounds == 0 && (q.anchor != 0 || ends != NULL)) {
        cmd_fail(run, i18n_get(lang,
                               "rounds:0 lasts until the condition is "
                               "removed, so until: and ends: would count "
                               "nothing; give rounds:1 or more, or leave "
                               "rounds: out"));
        return;
    }
    /* until:Ann or ends:start without rounds: that turn's next one. */
    if (q.rounds < 0 && (q.anchor != 0 || ends != NULL))
        q.rounds = 1;
    struct srvcond keep = {0};
    server_cond(run, &q, &custom, &keep);
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    if (rs_cond_give(&c, run->rs, who, &q, custom) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    /* A server condition's description heads the reply; a hidden
     * holder's reply says nothing that tells what it was given. */
    char title[SRVCOND_NAME_MAX + SRVCOND_DESC_MAX + 3];
    bool described = keep.desc[0] != '\0' && !who->hidden;
    if (described)
        snprintf(title, sizeof title, "%s: %s", keep.name, keep.desc);
    cmd_finish(run, described ? title : NULL, false);
}

/* The attacker: named, or the combatant whose turn it is if the sender
 * controls it. */
static struct enc_combatant *pick_attacker(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (cmd_req_opt(run->req, "attacker") != NULL) {
        struct enc_combatant *who = cmd_combatant(run, "attacker");
        if (who == NULL || !cmd_may_act(run, who))
            return NULL;
        return who;
    }
    struct enc_combatant *cur = enc_current(run->enc);
    if (cur == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "it is nobody's turn; say who attacks with "
                               "attacker:<name>"));
        return NULL;
    }
    if (!rs_may_act(&(struct rs_call){.user = run->req->user_id,
                                      .is_gm = run->is_gm}, cur)) {
        if (cur->hidden)        /* a hidden one's name stays the GM's */
            cmd_fail(run, i18n_get(lang,
                                   "it is not the turn of one of yours; say "
                                   "who attacks with attacker:<name>"));
        else
            cmd_fail(run, i18n_get(lang,
                                   "it is %s's turn, not one of yours; say "
                                   "who attacks with attacker:<name>"),
                     cur->name);
        return NULL;
    }
    return cur;
}

/* with: the attacker's saved attack fills in what roll:, damage: and
 * options: did not give (each given one replaces the saved one), so the
 * attack goes through the system's own path as if typed. */
static bool use_saved_attack(struct cmd_run *run,
                             const struct enc_combatant *attacker,
                             const char *with, struct rs_attack *a)
{
    enum i18n_lang lang = run->req->lang;
    if (with == NULL)
        return true;
    const struct enc_attack *w = enc_attack_find(attacker, with);
    if (w == NULL) {
        struct sbuf names;
        sbuf_init(&names, MSG_MAX_TEXT);
        for (int i = 0; i < attacker->nattacks; i++) {
            char *n = msg_escape(attacker->attacks[i].name);
            sbuf_addf(&names, "%s%s", i ? ", " : "", n ? n : "?");
            free(n);
        }
        char *who = msg_escape(attacker->name), *want = msg_escape(with);
        if (attacker->nattacks == 0)
            cmd_fail(run, i18n_get(lang,
                                   "%s carries no saved attacks (a saved "
                                   "character's attacks come with /combat "
                                   "join character:)"),
                     who ? who : "the attacker");
        else
            cmd_fail(run, i18n_get(lang,
                                   "%s has no attack named %s; theirs: %s"),
                     who ? who : "the attacker", want ? want : "that",
                     sbuf_str(&names));
        free(who);
        free(want);
        sbuf_cleanup(&names);
        return false;
    }
    if (a->roll == NULL && w->roll[0] != '\0')
        a->roll = w->roll;
    if (a->damage == NULL && w->damage[0] != '\0')
        a->damage = w->damage;
    if (a->options == NULL && w->options[0] != '\0')
        a->options = w->options;
    return true;
}

static void attack_run(struct cmd_run *run, struct rs_attack *a);

void cmd_attack(struct cmd_run *run)
{
    enum i18n_lang lang = run->req->lang;
    if (run->enc->status == ENC_ST_ENDED) {
        cmd_fail(run, i18n_get(lang, "this fight is over"));
        return;
    }
    if (run->rs->ops->attack == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "the %1$s system has no /attack; see /help "
                               "topic:%1$s"), run->rs->id);
        return;
    }
    struct enc_combatant *attacker = pick_attacker(run);
    if (attacker == NULL)
        return;
    if (cmd_req_opt(run->req, "target") == NULL) {
        cmd_attack_picker(run, attacker);       /* choose instead of type */
        return;
    }
    struct enc_combatant *target = cmd_target(run, "target");
    if (target == NULL)
        return;
    if (run->req->picker && !cmd_attack_target_ok(run, attacker, target)) {
        /* chosen from a picker, but the fight has moved on since */
        char *t = msg_escape(target->name), *a = msg_escape(attacker->name);
        cmd_fail(run, i18n_get(lang,
                               "%s can no longer be attacked by %s (down, or "
                               "out of sight); try /attack "
                               "again"), t ? t : "that target",
                 a ? a : "the attacker");
        free(t);
        free(a);
        return;
    }
    if (target == attacker) {
        cmd_fail(run, i18n_get(lang,
                               "%s cannot attack themselves"), attacker->name);
        return;
    }
    struct rs_attack a = {
        .attacker = attacker,
        .target = target,
        .roll = cmd_req_opt(run->req, "roll"),
        .damage = cmd_req_opt(run->req, "damage"),
        .options = cmd_req_opt(run->req, "options"),
    };
    const char *with = cmd_req_opt(run->req, "with");
    /* The tracker's Attack button (a control of a shown version) names
     * the target alone: the attacker's saved attacks are offered as the
     * picker offers them, one is used, none is the plain attack. */
    if (with == NULL && run->req->expect_version >= 0 && !run->req->picker &&
        a.roll == NULL && a.damage == NULL && a.options == NULL) {
        if (attacker->nattacks > 1) {
            cmd_attack_with_picker(run, attacker, target);
            return;
        }
        if (attacker->nattacks == 1)
            with = attacker->attacks[0].name;
    }
    if (!use_saved_attack(run, attacker, with, &a))
        return;
    char *area_opts = NULL;
    if (run->req->npicked > 0) {
        area_opts = cmd_attack_area_options(run, attacker, target, with,
                                            a.options);
        if (area_opts == NULL)
            return;
        a.options = area_opts;
    }
    attack_run(run, &a);
    free(area_opts);
}

/* The attack a, its options bound to the system's, run and shown. */
static void attack_run(struct cmd_run *run, struct rs_attack *a)
{
    enum i18n_lang lang = run->req->lang;
    struct rs_opt opts[CMD_MAX_OPTS];
    struct rs_call c;
    cmd_rs_call(run, &c, opts);
    /* The system's attack options: one tokenizer, checked against what the
     * system declares, so nothing is accepted and then ignored. */
    struct rs_arg args[RS_MAX_TOKENS];
    char tokbuf[RS_MAX_TOKENS_TEXT * 2 + 2];
    if (a->options != NULL && run->rs->attack_opts == NULL) {
        cmd_fail(run, i18n_get(lang,
                               "attacks in the %1$s system take no options: "
                               "(see /help topic:%1$s)"), run->rs->id);
        return;
    }
    if (run->rs->attack_opts != NULL) {
        if (rs_bind_tokens(&c, "/attack options:", run->rs->attack_opts,
                           a->options, tokbuf, sizeof tokbuf, args,
                           RS_MAX_TOKENS, &a->nargs, &run->diag) != ENG_OK) {
            cmd_fail_diag(run, &run->diag);
            return;
        }
        a->args = args;
    }
    if (run->rs->ops->attack(&c, a) != ENG_OK) {
        cmd_fail_diag(run, &run->diag);
        return;
    }
    cmd_finish(run, NULL, false);
}
