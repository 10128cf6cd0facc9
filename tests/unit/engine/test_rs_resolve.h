/* A fixture shared by the resolve ruleset's tests: an encounter, a seeded
 * RNG, and helpers to add combatants and run ops and commands. */
#ifndef TEST_RS_RESOLVE_H
#define TEST_RS_RESOLVE_H

#include <stdio.h>
#include <string.h>

#include "rs.h"
#include "rs_resolve.h"

extern const struct rs_system rs_resolve;

#define RF_GM 1                  /* the GM's user id */

struct rf {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result *r;
    struct enc_diag d;
    struct rs_opt opts[8];
    int nopts;
    char log[2048];              /* "T:name " per turn start, "R:n " */
};

static inline int rf_setup(void **state)
{
    struct rf *f = test_calloc(1, sizeof *f);
    f->e = enc_new("resolve", "test", RF_GM);
    f->r = test_malloc(sizeof *f->r);
    enc_result_init(f->r);
    eng_rng_seed(&f->rng, 1);
    *state = f;
    return 0;
}

static inline int rf_teardown(void **state)
{
    struct rf *f = *state;
    enc_free(f->e);
    test_free(f->r);
    test_free(f);
    return 0;
}

static inline struct rs_call rf_call(struct rf *f, uint64_t user)
{
    enc_result_init(f->r);
    memset(&f->d, 0, sizeof f->d);
    struct rs_call c = {
        .e = f->e, .rng = &f->rng, .r = f->r, .d = &f->d,
        .user = user, .is_gm = user == RF_GM, .opts = f->opts,
        .nopts = f->nopts,
    };
    return c;
}

/* Set the options: pairs of name, value, ended by NULL. */
static inline void rf_opts(struct rf *f, ...)
{
    va_list ap;
    va_start(ap, f);
    f->nopts = 0;
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (k == NULL)
            break;
        const char *v = va_arg(ap, const char *);
        f->opts[f->nopts++] = (struct rs_opt){k, v};
    }
    va_end(ap);
}

/* Append the turn starts and new rounds of the last call to the log. */
static inline void rf_log(struct rf *f)
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

/* Add one combatant (owner 0 = an NPC) with stats text, through setup with
 * the current options (major:true). */
static inline struct enc_combatant *rf_add(struct rf *f, const char *name,
                                    uint64_t owner, const char *stats)
{
    uint32_t id;
    assert_int_equal(enc_add(f->e, name, 1, owner, -1, &f->d, &id), ENG_OK);
    struct enc_combatant *who = enc_by_id(f->e, id);
    struct enc_kv kv[ENC_MAX_STATS];
    int n = 0;
    if (stats != NULL) {
        assert_int_equal(enc_parse_stats(stats, kv, ENC_MAX_STATS, &n,
                                         &f->d), ENG_OK);
        struct rs_call c = rf_call(f, RF_GM);
        for (int i = 0; i < n; i++) {
            assert_int_equal(rs_resolve.ops->check_stat(&c, who, kv[i].name,
                                                        kv[i].value),
                             ENG_OK);
            assert_int_equal(enc_stat_set(who, kv[i].name, kv[i].value,
                                          &f->d), ENG_OK);
        }
    }
    struct rs_call c = rf_call(f, RF_GM);
    assert_int_equal(rs_resolve.ops->setup(&c, who), ENG_OK);
    if (f->e->status == ENC_ST_RUNNING) {
        c = rf_call(f, RF_GM);
        assert_int_equal(rs_resolve.ops->late_join(&c, who), ENG_OK);
        rf_log(f);
    }
    return enc_by_name(f->e, name);
}

static inline struct enc_combatant *rf_who(struct rf *f, const char *name)
{
    struct enc_combatant *who = enc_by_name(f->e, name);
    assert_non_null(who);
    return who;
}

static inline enum eng_err rf_begin(struct rf *f)
{
    f->nopts = 0;
    struct rs_call c = rf_call(f, RF_GM);
    enum eng_err err = rs_resolve.ops->begin(&c);
    rf_log(f);
    return err;
}

static inline enum eng_err rf_next(struct rf *f, uint64_t user)
{
    f->nopts = 0;
    struct rs_call c = rf_call(f, user);
    enum eng_err err = rs_resolve.ops->next(&c);
    rf_log(f);
    return err;
}

/* Run a ruleset command with the options already set by rf_opts(). */
static inline enum eng_err rf_do(struct rf *f, uint64_t user, const char *verb)
{
    struct rs_call c = rf_call(f, user);
    enum eng_err err = rs_resolve.ops->action(&c, verb);
    rf_log(f);
    return err;
}

static inline enum eng_err rf_attack(struct rf *f, uint64_t user, const char *atk,
                              const char *tgt, const char *roll,
                              const char *dmg, const char *options)
{
    f->nopts = 0;
    struct rs_call c = rf_call(f, user);
    struct rs_attack a = {
        .attacker = rf_who(f, atk), .target = rf_who(f, tgt),
        .roll = roll, .damage = dmg, .options = options,
    };
    enum eng_err err = rs_resolve.ops->attack(&c, &a);
    rf_log(f);
    return err;
}

static inline const char *rf_current(struct rf *f)
{
    struct enc_combatant *who = enc_current(f->e);
    return who ? who->name : "";
}

/* The faces of the roll recorded under label (first match) into faces;
 * returns how many. Details look like "[3, 5]+1". */
static inline int rf_faces(struct rf *f, const char *label, int *faces, int max)
{
    for (int i = 0; i < f->r->nrolls; i++) {
        if (strcmp(f->r->rolls[i].label, label) != 0)
            continue;
        int n = 0;
        const char *p = strchr(f->r->rolls[i].detail, '[');
        while (p != NULL && *p != ']' && *p != '\0' && n < max) {
            p++;
            while (*p == ' ' || *p == ',' || *p == '*')
                p++;
            if (*p >= '0' && *p <= '9') {
                faces[n++] = (int)strtol(p, (char **)&p, 10);
                while (*p == '*')
                    p++;
            }
        }
        return n;
    }
    return 0;
}

/* Whether the last call emitted a text event containing s. */
static inline bool rf_said(struct rf *f, const char *s)
{
    for (int i = 0; i < f->r->nev; i++)
        if (strstr(f->r->ev[i].text, s) != NULL)
            return true;
    return false;
}

static inline int64_t rf_resolve(struct rf *f, const char *name)
{
    const struct enc_track *t = enc_track_c(rf_who(f, name), RSV_RESOLVE);
    assert_non_null(t);
    return t->cur;
}

#endif
