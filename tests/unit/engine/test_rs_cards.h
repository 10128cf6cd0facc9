/* A fixture shared by the cards ruleset's tests: an encounter, a seeded
 * RNG, and helpers to add combatants and run ops and commands. */
#ifndef TEST_RS_CARDS_H
#define TEST_RS_CARDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rs.h"
#include "rs_cards.h"

extern const struct rs_system rs_cards;

#define CF_GM 1                  /* the GM's user id */

struct cf {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result *r;
    struct enc_diag d;
    struct rs_opt opts[12];
    int nopts;
    char log[2048];              /* "T:name " per turn start, "R:n " */
};

static inline int cf_setup(void **state)
{
    struct cf *f = test_calloc(1, sizeof *f);
    f->e = enc_new("cards", "test", CF_GM);
    f->r = test_malloc(sizeof *f->r);
    enc_result_init(f->r);
    eng_rng_seed(&f->rng, 1);
    *state = f;
    return 0;
}

static inline int cf_teardown(void **state)
{
    struct cf *f = *state;
    enc_free(f->e);
    test_free(f->r);
    test_free(f);
    return 0;
}

static inline struct rs_call cf_call(struct cf *f, uint64_t user)
{
    enc_result_init(f->r);
    memset(&f->d, 0, sizeof f->d);
    struct rs_call c = {
        .e = f->e, .rng = &f->rng, .r = f->r, .d = &f->d,
        .user = user, .is_gm = user == CF_GM, .opts = f->opts,
        .nopts = f->nopts,
    };
    return c;
}

/* Set the options: pairs of name, value, ended by NULL. */
static inline void cf_opts(struct cf *f, ...)
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
static inline void cf_log(struct cf *f)
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

/* Add count combatants (owner 0 = an NPC) on a side (NULL: none) with
 * stats text; group:true when grouped, as /combat add does. */
static inline struct enc_combatant *cf_add_n(struct cf *f, const char *name,
                                             int count, bool group,
                                             uint64_t owner, const char *side,
                                             const char *stats)
{
    uint32_t ids[ENC_MAX_COUNT];
    int s = -1;
    if (side != NULL)
        s = enc_side_get(f->e, side, &f->d);
    assert_int_equal(enc_add(f->e, name, count, owner, s, &f->d, ids),
                     ENG_OK);
    for (int k = 0; k < count; k++) {
        struct enc_combatant *who = enc_by_id(f->e, ids[k]);
        if (group && count > 1)
            who->group = ids[0];
        struct enc_kv kv[ENC_MAX_STATS];
        int n = 0;
        if (stats != NULL) {
            assert_int_equal(enc_parse_stats(stats, kv, ENC_MAX_STATS, &n,
                                             &f->d), ENG_OK);
            for (int i = 0; i < n; i++) {
                if (strcmp(kv[i].name, "hp") == 0) {
                    assert_int_equal(enc_track_set(who, "hp", kv[i].value,
                                                   kv[i].value, &f->d),
                                     ENG_OK);
                    continue;
                }
                struct rs_call c = cf_call(f, CF_GM);
                assert_int_equal(rs_cards.ops->check_stat(&c, who,
                                                          kv[i].name,
                                                          kv[i].value),
                                 ENG_OK);
                assert_int_equal(enc_stat_set(who, kv[i].name, kv[i].value,
                                              &f->d), ENG_OK);
            }
        }
        struct rs_call c = cf_call(f, CF_GM);
        assert_int_equal(rs_cards.ops->setup(&c, who), ENG_OK);
        if (f->e->status == ENC_ST_RUNNING) {
            c = cf_call(f, CF_GM);
            enum eng_err err = rs_cards.ops->late_join(&c, who);
            if (err != ENG_OK)
                return NULL;
            cf_log(f);
        }
    }
    return enc_by_id(f->e, ids[0]);
}

static inline struct enc_combatant *cf_add(struct cf *f, const char *name,
                                           uint64_t owner, const char *stats)
{
    return cf_add_n(f, name, 1, false, owner, NULL, stats);
}

static inline struct enc_combatant *cf_who(struct cf *f, const char *name)
{
    struct enc_combatant *who = enc_by_name(f->e, name);
    assert_non_null(who);
    return who;
}

/* Begin with the options set by cf_opts() (reset them first for none). */
static inline enum eng_err cf_begin(struct cf *f)
{
    struct rs_call c = cf_call(f, CF_GM);
    enum eng_err err = rs_cards.ops->begin(&c);
    cf_log(f);
    f->nopts = 0;
    return err;
}

static inline enum eng_err cf_next(struct cf *f)
{
    f->nopts = 0;
    struct rs_call c = cf_call(f, CF_GM);
    enum eng_err err = rs_cards.ops->next(&c);
    cf_log(f);
    return err;
}

/* Run a ruleset command with the options already set by cf_opts(). */
static inline enum eng_err cf_do(struct cf *f, uint64_t user, const char *verb)
{
    struct rs_call c = cf_call(f, user);
    enum eng_err err = rs_cards.ops->action(&c, verb);
    cf_log(f);
    return err;
}

static inline enum eng_err cf_attack(struct cf *f, uint64_t user,
                                     const char *atk, const char *tgt,
                                     const char *roll, const char *dmg,
                                     const char *options)
{
    f->nopts = 0;
    struct rs_call c = cf_call(f, user);
    struct rs_attack a = {
        .attacker = cf_who(f, atk), .target = cf_who(f, tgt),
        .roll = roll, .damage = dmg, .options = options,
    };
    enum eng_err err = rs_cards.ops->attack(&c, &a);
    cf_log(f);
    return err;
}

static inline const char *cf_current(struct cf *f)
{
    struct enc_combatant *who = enc_current(f->e);
    return who ? who->name : "";
}

/* The faces of the n-th roll (0-based) recorded under label into faces;
 * returns how many (-1 when there is no such roll). Details look like
 * "[3, **6**, 1 = 1 successes]>=6". */
static inline int cf_faces_n(struct cf *f, const char *label, int nth,
                             int *faces, int max)
{
    for (int i = 0; i < f->r->nrolls; i++) {
        if (strcmp(f->r->rolls[i].label, label) != 0 || nth-- > 0)
            continue;
        int n = 0;
        const char *p = strchr(f->r->rolls[i].detail, '[');
        if (p == NULL)
            return 0;
        p++;
        while (*p != '\0' && *p != ']' && *p != '=' && n < max) {
            if (*p >= '0' && *p <= '9')
                faces[n++] = (int)strtol(p, (char **)&p, 10);
            else
                p++;
        }
        return n;
    }
    return -1;
}

/* Successes the n-th roll under label shows, counted from its faces with
 * the default success face. */
static inline int cf_succ_n(struct cf *f, const char *label, int nth)
{
    int faces[64];
    int n = cf_faces_n(f, label, nth, faces, 64);
    assert_true(n >= 0);
    return cards_count(faces, n, cards_success(f->e));
}

static inline int cf_succ(struct cf *f, const char *label)
{
    return cf_succ_n(f, label, 0);
}

/* Whether the last call emitted an event whose text contains s. */
static inline bool cf_said(struct cf *f, const char *s)
{
    for (int i = 0; i < f->r->nev; i++)
        if (strstr(f->r->ev[i].text, s) != NULL)
            return true;
    return false;
}

static inline int64_t cf_harm(struct cf *f, const char *name,
                              const char *track)
{
    const struct enc_track *t = enc_track_c(cf_who(f, name), track);
    assert_non_null(t);
    return t->cur;
}

#endif
