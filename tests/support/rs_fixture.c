/*
 * rs_fixture.c - the ruleset tests' shared fixture (see rs_fixture.h).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs_fixture.h"
#include "rs_kit.h"

void rs_fx_init(struct rs_fx *f, const struct rs_system *rs, uint64_t seed,
                struct enc_result *r)
{
    memset(f, 0, sizeof *f);
    f->rs = rs;
    f->e = enc_new(rs, "test", RS_FX_GM);
    assert_non_null(f->e);
    eng_rng_seed(&f->rng, seed);
    f->r = r;
    enc_result_init(f->r);
    f->c = (struct rs_call){.e = f->e, .rng = &f->rng, .r = f->r, .d = &f->d,
                            .user = RS_FX_GM, .is_gm = true};
}

void rs_fx_cleanup(struct rs_fx *f)
{
    enc_free(f->e);
    f->e = NULL;
    if (f->r != NULL)
        enc_result_cleanup(f->r);
}

void rs_fx_vopts(struct rs_fx *f, va_list ap)
{
    f->nopts = 0;
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (k == NULL)
            break;
        assert_true(f->nopts < RS_FX_MAX_OPTS);
        const char *v = va_arg(ap, const char *);
        f->opts[f->nopts++] = (struct rs_opt){k, v};
    }
}

void rs_fx_opts(struct rs_fx *f, ...)
{
    va_list ap;
    va_start(ap, f);
    rs_fx_vopts(f, ap);
    va_end(ap);
}

struct rs_call rs_fx_call(struct rs_fx *f, uint64_t user, bool is_gm)
{
    enc_result_reset(f->r);
    memset(&f->d, 0, sizeof f->d);
    return (struct rs_call){
        .e = f->e, .rng = &f->rng, .r = f->r, .d = &f->d,
        .user = user, .is_gm = is_gm, .opts = f->opts, .nopts = f->nopts,
    };
}

struct rs_call *rs_fx_standing(struct rs_fx *f, ...)
{
    va_list ap;
    va_start(ap, f);
    rs_fx_vopts(f, ap);
    va_end(ap);
    f->c = rs_fx_call(f, f->c.user, f->c.is_gm);
    return &f->c;
}

/* Set one "k=v" stat of who as rs_fx_add() describes. */
static void fx_stat(struct rs_fx *f, struct enc_combatant *who,
                    const struct enc_kv *kv, unsigned flags)
{
    if ((flags & RS_FX_HP_TRACK) && strcmp(kv->name, "hp") == 0) {
        assert_int_equal(enc_track_set(who, "hp", kv->value, kv->value,
                                       &f->d), ENG_OK);
        return;
    }
    if (flags & RS_FX_LIKE_ADD) {
        struct rs_call c = rs_fx_call(f, RS_FX_GM, true);
        assert_int_equal(f->rs->ops->check_stat(&c, who, kv->name,
                                                kv->value), ENG_OK);
    }
    assert_int_equal(enc_stat_set(who, kv->name, kv->value, &f->d), ENG_OK);
}

struct enc_combatant *rs_fx_add(struct rs_fx *f, const struct rs_fx_add *a)
{
    int count = a->count > 0 ? a->count : 1;
    int side = -1;
    if (a->side != NULL) {
        side = enc_side_get(f->e, a->side, &f->d);
        assert_true(side >= 0);
    }
    uint32_t ids[ENC_MAX_COUNT];
    assert_int_equal(enc_add(f->e, a->name, count, a->owner, side, &f->d,
                             ids), ENG_OK);
    for (int k = 0; k < count; k++) {
        struct enc_combatant *who = enc_by_id(f->e, ids[k]);
        if (a->group && count > 1)
            who->group = ids[0];
        struct enc_kv kv[ENC_MAX_STATS];
        int n = 0;
        if (a->stats != NULL)
            assert_int_equal(enc_parse_stats(a->stats, kv, ENC_MAX_STATS, &n,
                                             &f->d), ENG_OK);
        for (int i = 0; i < n; i++)
            fx_stat(f, who, &kv[i], a->flags);
        struct rs_call c = rs_fx_call(f, RS_FX_GM, true);
        assert_int_equal(f->rs->ops->setup(&c, who), ENG_OK);
        if ((a->flags & RS_FX_LIKE_ADD) && f->e->status == ENC_ST_RUNNING) {
            c = rs_fx_call(f, RS_FX_GM, true);
            if (f->rs->ops->late_join(&c, who) != ENG_OK)
                return NULL;
            rs_fx_log(f);
        }
    }
    return enc_by_id(f->e, ids[0]);
}

struct enc_combatant *rs_fx_who(struct rs_fx *f, const char *name)
{
    struct enc_combatant *who = enc_by_name(f->e, name);
    assert_non_null(who);
    return who;
}

const char *rs_fx_current(struct rs_fx *f)
{
    struct enc_combatant *who = enc_current(f->e);
    return who ? who->name : "";
}

int64_t rs_fx_track(struct rs_fx *f, const char *who, const char *track)
{
    const struct enc_track *t = enc_track_c(rs_fx_who(f, who), track);
    assert_non_null(t);
    return t->cur;
}

enum eng_err rs_fx_begin(struct rs_fx *f, uint64_t user, bool is_gm)
{
    struct rs_call c = rs_fx_call(f, user, is_gm);
    enum eng_err err = f->rs->ops->begin(&c);
    rs_fx_log(f);
    return err;
}

enum eng_err rs_fx_next(struct rs_fx *f, uint64_t user, bool is_gm)
{
    struct rs_call c = rs_fx_call(f, user, is_gm);
    enum eng_err err = f->rs->ops->next(&c);
    rs_fx_log(f);
    return err;
}

enum eng_err rs_fx_pick(struct rs_fx *f, uint64_t user, bool is_gm,
                        const char *name)
{
    struct rs_call c = rs_fx_call(f, user, is_gm);
    enum eng_err err = f->rs->ops->pick(&c, rs_fx_who(f, name));
    rs_fx_log(f);
    return err;
}

enum eng_err rs_fx_pass(struct rs_fx *f, uint64_t user, bool is_gm)
{
    struct rs_call c = rs_fx_call(f, user, is_gm);
    enum eng_err err = f->rs->ops->pass(&c);
    rs_fx_log(f);
    return err;
}

enum eng_err rs_fx_action(struct rs_fx *f, uint64_t user, bool is_gm,
                          const char *verb)
{
    char cmd[32], sub[32] = "";
    const char *sp = strchr(verb, ' ');
    if (sp != NULL) {
        snprintf(cmd, sizeof cmd, "%.*s", (int)(sp - verb), verb);
        snprintf(sub, sizeof sub, "%s", sp + 1);
    } else {
        snprintf(cmd, sizeof cmd, "%s", verb);
    }
    struct rs_call c = rs_fx_call(f, user, is_gm);
    const struct rs_cmd *rc = rs_cmd_find(f->rs, cmd, sub[0] ? sub : NULL);
    if (rc == NULL)
        return enc_fail(&f->d, ENG_NOTFOUND, "the %s system has no command "
                        "/%s", f->rs->id, verb);
    /* The GM-only rule is the command layer's; the fixture keeps it. */
    if ((rc->flags & RS_CMD_GM_ONLY) && !is_gm)
        return enc_fail(&f->d, ENG_PERM, "only the GM may use /%s", verb);
    enum eng_err err = rs_cmd_run(&c, f->rs, rc);
    rs_fx_log(f);
    return err;
}

enum eng_err rs_fx_attack(struct rs_fx *f, uint64_t user, bool is_gm,
                          const char *atk, const char *tgt, const char *roll,
                          const char *damage, const char *options)
{
    struct rs_call c = rs_fx_call(f, user, is_gm);
    struct rs_attack a = {
        .attacker = rs_fx_who(f, atk), .target = rs_fx_who(f, tgt),
        .roll = roll, .damage = damage, .options = options,
    };
    /* The options bound to what the system declares, as /attack does. */
    struct rs_arg args[RS_MAX_TOKENS];
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    if (f->rs->attack_opts != NULL) {
        enum eng_err err = rs_bind_tokens(&c, "/attack options:",
                                          f->rs->attack_opts, options, buf,
                                          sizeof buf, args, RS_MAX_TOKENS,
                                          &a.nargs, &f->d);
        if (err != ENG_OK)
            return err;
        a.args = args;
    }
    enum eng_err err = f->rs->ops->attack(&c, &a);
    rs_fx_log(f);
    return err;
}

void rs_fx_log(struct rs_fx *f)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        char item[96] = "";
        if (ev->kind == ENC_EV_TURN)
            snprintf(item, sizeof item, "T:%s ",
                     enc_by_id(f->e, ev->who)->name);
        else if (ev->kind == ENC_EV_ROUND)
            snprintf(item, sizeof item, "R:%lld ", (long long)ev->a);
        strncat(f->log, item, sizeof f->log - strlen(f->log) - 1);
    }
}

void rs_fx_status(const struct rs_system *rs, const struct encounter *e,
                  const struct enc_combatant *who, char *buf, size_t n)
{
    struct eng_buf b;
    eng_buf_init(&b, 4096);
    rs->ops->status(e, who, &b, NULL, NULL);
    snprintf(buf, n, "%s", eng_buf_str(&b));
    eng_buf_cleanup(&b);
}

const char *rs_fx_text(const struct rs_fx *f, const struct enc_event *ev,
                       char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
#define FX_PUT(...)                                                          \
    do {                                                                     \
        int w_ = snprintf(buf + at, n - at, __VA_ARGS__);                    \
        if (w_ > 0)                                                          \
            at = at + (size_t)w_ < n ? at + (size_t)w_ : n - 1;              \
    } while (0)
    if (ev->kind == ENC_EV_TEST && ev->has_cmp) {
        /* The words tests were written against before tests were data. */
        const struct enc_combatant *w = enc_by_id_c(f->e, ev->who);
        FX_PUT("%s: %s %lld against %lld: %s", w != NULL ? w->name : "",
               ev->text != NULL ? ev->text : "", (long long)ev->value,
               (long long)ev->target, ev->outcome ? ev->outcome : "");
        return buf;
    }
    for (int i = 0; i < ev->nparts; i++) {
        const struct enc_part *p = &ev->parts[i];
        const struct enc_combatant *c;
        switch (p->kind) {
        case ENC_PART_WHO:
            c = enc_by_id_c(f->e, p->id);
            FX_PUT("%s", c != NULL ? c->name : p->s);
            break;
        case ENC_PART_NUM:
            FX_PUT("%lld", (long long)p->n);
            break;
        case ENC_PART_ROLL:
            FX_PUT("%lld", p->n >= 0 && p->n < f->r->nrolls
                               ? (long long)f->r->rolls[p->n].total : 0LL);
            break;
        default:
            FX_PUT("%s", p->s != NULL ? p->s : "");
            break;
        }
    }
    if (ev->text != NULL)
        FX_PUT("%s%s", at > 0 ? " " : "", ev->text);
    if (ev->outcome != NULL)
        FX_PUT(" %s", ev->outcome);
#undef FX_PUT
    return buf;
}

const struct enc_event *rs_fx_find(const struct rs_fx *f, int kind,
                                   const char *s)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        char text[1024];
        if ((kind == RS_FX_ANY || (int)ev->kind == kind) &&
            strstr(rs_fx_text(f, ev, text, sizeof text), s) != NULL)
            return ev;
    }
    return NULL;
}

const char *rs_fx_detail(const struct enc_roll *r)
{
    static char buf[1024];
    size_t at = 0, pos = 0, end = strlen(r->expr);
    buf[0] = '\0';
#define FX_PUT(...)                                                          \
    do {                                                                     \
        int w_ = snprintf(buf + at, sizeof buf - at, __VA_ARGS__);           \
        if (w_ > 0)                                                          \
            at = at + (size_t)w_ < sizeof buf ? at + (size_t)w_               \
                                              : sizeof buf - 1;              \
    } while (0)
    for (int g = 0; g < r->nterms; g++) {
        const struct enc_term *t = &r->terms[g];
        FX_PUT("%.*s[", (int)(t->pos - pos), r->expr + pos);
        for (int k = 0; k < t->count; k++)
            FX_PUT("%s%d", k ? ", " : "", (int)r->dice[t->first + k].value);
        if (t->counting)
            FX_PUT(" = %lld successes", (long long)t->subtotal);
        FX_PUT("]");
        pos = (size_t)t->pos + t->len;
    }
    if (pos < end)
        FX_PUT("%s", r->expr + pos);
    if (r->nterms == 0)
        FX_PUT("%s", "no dice");
#undef FX_PUT
    return buf;
}

bool rs_fx_said(const struct rs_fx *f, const char *s)
{
    return rs_fx_find(f, RS_FX_ANY, s) != NULL;
}

int rs_fx_roll(const struct rs_fx *f, const char *label, int nth)
{
    for (int i = 0; i < f->r->nrolls; i++)
        if (strcmp(f->r->rolls[i].label, label) == 0 && nth-- == 0)
            return i;
    return -1;
}

int rs_fx_faces(const struct rs_fx *f, int i, int *faces, int max)
{
    assert_true(i >= 0 && i < f->r->nrolls);
    const struct enc_roll *r = &f->r->rolls[i];
    if (r->nterms == 0)
        return 0;
    int n = 0;
    for (int k = 0; k < r->terms[0].count && n < max; k++)
        faces[n++] = r->dice[r->terms[0].first + k].value;
    return n;
}

void rs_fx_sample(struct rs_fx *f, const struct rs_system *rs, uint64_t seed,
                  struct enc_result *r)
{
    rs_fx_init(f, rs, seed, r);
    struct encounter *e = f->e;
    struct enc_diag d;
    assert_int_equal(enc_setting_set(e, "mode", "x", &d), ENG_OK);
    const struct rs_fx_add red = {.name = "Red", .count = 4, .side = "red",
                                  .stats = "ac=13 init=2 attack=5 hp=12",
                                  .flags = RS_FX_HP_TRACK};
    const struct rs_fx_add blue = {.name = "Blue", .count = 4, .owner = 55,
                                   .side = "blue",
                                   .stats = "ac=13 init=2 attack=5 hp=12",
                                   .flags = RS_FX_HP_TRACK};
    assert_non_null(rs_fx_add(f, &red));
    assert_non_null(rs_fx_add(f, &blue));
    (void)rs_fx_begin(f, RS_FX_GM, true);
    (void)rs_fx_next(f, RS_FX_GM, true);
    (void)rs_fx_next(f, RS_FX_GM, true);
    enc_copy(e->cs[0].note, sizeof e->cs[0].note, "carries the banner");
    enc_copy(e->cs[0].init_expr, sizeof e->cs[0].init_expr, "d20+3");
    struct enc_cond_req q = {.name = "poisoned", .value = 2, .rounds = 3,
                             .anchor = e->cs[1].id, .source = e->cs[4].id};
    enc_result_reset(f->r);
    assert_int_equal(enc_cond_set(e, &e->cs[1], &q, f->r, &d), ENG_OK);
}
