/*
 * kit_rules.c - settings, permissions and the small rules every system
 * shares (rs_kit.h).
 */
#include "rs_kit.h"

#include <string.h>

#include "dice.h"
#include "eng_buf.h"
#include "eng_text.h"

/* ---- settings ---------------------------------------------------------------- */

static const struct rs_setting_spec *setting_find(const struct rs_system *s,
                                                  const char *key)
{
    for (const struct rs_setting_spec *p = s->settings; p && p->key; p++)
        if (eng_text_casecmp(p->key, key) == 0)
            return p;
    return NULL;
}

/* Parse value as setting p; the canonical text goes to out (size n). */
static enum eng_err setting_value(const struct rs_setting_spec *p,
                                  const char *value, int64_t *num,
                                  struct enc_diag *d)
{
    bool b;
    switch (p->type) {
    case RS_SET_INT:
        if (!eng_text_to_int(value, num) || *num < p->min || *num > p->max)
            return enc_fail(d, ENG_RANGE, "setting %s must be a whole number "
                            "from %lld to %lld", p->key, (long long)p->min,
                            (long long)p->max);
        return ENG_OK;
    case RS_SET_BOOL:
        if (!eng_text_to_bool(value, &b))
            return enc_fail(d, ENG_INVALID, "setting %s must be on or off",
                            p->key);
        *num = b;
        return ENG_OK;
    case RS_SET_CHOICE:
        for (int i = 0; p->choices && p->choices[i]; i++)
            if (eng_text_casecmp(p->choices[i], value) == 0) {
                *num = i;
                return ENG_OK;
            }
        {
            struct eng_buf list;
            eng_buf_init(&list, 300);
            for (int i = 0; p->choices && p->choices[i]; i++) {
                eng_buf_add(&list, i ? ", " : "");
                eng_buf_add(&list, p->choices[i]);
            }
            enc_fail(d, ENG_INVALID, "setting %s must be one of %s", p->key,
                     eng_buf_str(&list));
            eng_buf_cleanup(&list);
        }
        return ENG_INVALID;
    case RS_SET_DICE: {
        struct dice_expr *x = NULL;
        struct dice_diag dd;
        enc_diag_dice(d, &dd);
        enum eng_err err = dice_parse(value, strlen(value), &x, &dd);
        dice_expr_free(x);
        *num = 0;
        if (err != ENG_OK)
            return enc_fail(d, err, "setting %s must be dice, like 1d4: %s",
                            p->key, dd.msg);
        return ENG_OK;
    }
    }
    return ENG_INVALID;
}

static enum eng_err unknown_setting(const struct rs_system *s,
                                    const char *key, struct enc_diag *d)
{
    const char *names[64];
    int n = 0;
    for (const struct rs_setting_spec *p = s->settings; p && p->key && n < 64;
         p++)
        names[n++] = p->key;
    if (n == 0)
        return enc_fail(d, ENG_INVALID, "the %s system has no settings",
                        s->id);
    struct eng_buf list;
    eng_buf_init(&list, 400);
    for (int i = 0; i < n; i++) {
        eng_buf_add(&list, i ? ", " : "");
        eng_buf_add(&list, names[i]);
    }
    const char *close = rs_closest(key, names, n);
    if (close != NULL)
        enc_fail(d, ENG_INVALID, "the %s system has no setting %.24s (did "
                 "you mean %s?); its settings: %s", s->id, key, close,
                 eng_buf_str(&list));
    else
        enc_fail(d, ENG_INVALID, "the %s system has no setting %.24s; its "
                 "settings: %s", s->id, key, eng_buf_str(&list));
    eng_buf_cleanup(&list);
    return ENG_INVALID;
}

enum eng_err rs_settings_apply(struct rs_call *c, const struct rs_system *s,
                               const char *text)
{
    char buf[RS_MAX_TOKENS_TEXT * 2 + 2];
    struct rs_token tok[RS_MAX_TOKENS];
    int n = 0;
    enum eng_err err = rs_tokens(text, buf, sizeof buf, tok, RS_MAX_TOKENS, &n,
                                 c->d);
    if (err != ENG_OK)
        return err;
    for (int i = 0; i < n; i++) {
        const char *key = tok[i].key, *value = tok[i].value;
        if (value[0] == '\0')
            return enc_fail(c->d, ENG_INVALID, "settings look like "
                            "\"key=value\"; `%.32s` has no value", key);
        const struct rs_setting_spec *p = setting_find(s, key);
        if (p == NULL && s->settings != NULL)
            return unknown_setting(s, key, c->d);
        if (p == NULL && s->ops->setting == NULL)
            return unknown_setting(s, key, c->d);
        int64_t num;
        if (p != NULL) {
            err = setting_value(p, value, &num, c->d);
            if (err != ENG_OK)
                return err;
            key = p->key;
            if (p->type == RS_SET_CHOICE)
                value = p->choices[num];
        }
        if (s->ops->setting != NULL) {
            err = s->ops->setting(c, key, value);
            if (err != ENG_OK)
                return err;
        }
        err = enc_setting_set(c->e, key, value, c->d);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

int64_t rs_setting_int(const struct encounter *e, const struct rs_system *s,
                       const char *key)
{
    const struct rs_setting_spec *p = setting_find(s, key);
    const char *v = enc_setting(e, key);
    int64_t num = 0;
    struct enc_diag d;
    if (p == NULL)
        return v != NULL && eng_text_to_int(v, &num) ? num : 0;
    if (v != NULL && setting_value(p, v, &num, &d) == ENG_OK)
        return num;
    if (p->dflt != NULL && setting_value(p, p->dflt, &num, &d) == ENG_OK)
        return num;
    return 0;
}

const char *rs_setting_text(const struct encounter *e,
                            const struct rs_system *s, const char *key)
{
    const char *v = enc_setting(e, key);
    const struct rs_setting_spec *p = setting_find(s, key);
    return v != NULL ? v : p != NULL ? p->dflt : NULL;
}

/* ---- stats ---------------------------------------------------------------------- */

enum eng_err rs_stat_check(struct rs_call *c, const struct rs_system *s,
                           struct enc_combatant *who, const char *name,
                           int64_t value)
{
    const struct rs_stat_spec *sp = NULL;
    for (const struct rs_stat_spec *p = s->stats; p && p->name; p++)
        if (eng_text_casecmp(p->name, name) == 0)
            sp = p;
    if (sp == NULL && s->stats != NULL && !(s->flags & RS_F_OPEN_STATS)) {
        const char *names[64];
        int n = 0;
        struct eng_buf list;
        eng_buf_init(&list, 400);
        for (const struct rs_stat_spec *p = s->stats; p->name && n < 64; p++) {
            names[n++] = p->name;
            eng_buf_add(&list, n > 1 ? ", " : "");
            eng_buf_add(&list, p->name);
        }
        const char *close = rs_closest(name, names, n);
        if (close != NULL)
            enc_fail(c->d, ENG_INVALID, "the %s system has no stat %.24s "
                     "(did you mean %s?); its stats: %s", s->id, name, close,
                     eng_buf_str(&list));
        else
            enc_fail(c->d, ENG_INVALID, "the %s system has no stat %.24s; "
                     "its stats: %s", s->id, name, eng_buf_str(&list));
        eng_buf_cleanup(&list);
        return ENG_INVALID;
    }
    if (sp != NULL && (value < sp->min || value > sp->max))
        return enc_fail(c->d, ENG_RANGE, "%s must be %lld to %lld", sp->name,
                        (long long)sp->min, (long long)sp->max);
    if (s->ops->check_stat != NULL)
        return s->ops->check_stat(c, who, name, value);
    return ENG_OK;
}

enum rs_stat_kind rs_stat_kind(const struct rs_system *s, const char *name)
{
    for (const struct rs_stat_spec *p = s->stats; p && p->name; p++)
        if (eng_text_casecmp(p->name, name) == 0)
            return p->kind;
    return RS_STAT;
}

enum eng_err rs_stat_pools(const struct rs_system *s,
                           struct enc_combatant *who, struct enc_diag *d)
{
    for (const struct rs_stat_spec *p = s->stats; p && p->name; p++) {
        const int64_t *v = p->kind == RS_POOL ? enc_stat(who, p->name) : NULL;
        if (v == NULL)
            continue;
        int64_t value = *v;
        enc_stat_remove(who, p->name);
        /* a pool at 0 is none: nothing left to show */
        if (value == 0)
            enc_track_remove(who, p->name);
        else if (enc_track_set(who, p->name, value, 0, d) != ENG_OK)
            return d->code;
    }
    return ENG_OK;
}

/* ---- small shared rules ---------------------------------------------------------- */

void rs_default_after_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t before)
{
    (void)before;
    if (eng_text_casecmp(track, "hp") != 0)
        return;
    const struct enc_track *t = enc_track_c(who, "hp");
    if (t == NULL)
        return;
    bool was_down = (who->flags & ENC_CF_DOWN) != 0;
    if (t->cur <= 0 && !was_down) {
        who->flags |= ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_DOWN, who->id)->secret = who->hidden;
    } else if (t->cur > 0 && was_down) {
        who->flags &= ~(uint32_t)ENC_CF_DOWN;
        enc_emit(c->r, ENC_EV_UP, who->id)->secret = who->hidden;
    }
}

const struct enc_combatant *rs_group_lead(const struct encounter *e,
                                          const struct enc_combatant *who)
{
    if (who->group == 0)
        return NULL;
    for (int k = 0; k < e->ncs && &e->cs[k] != who; k++)
        if (e->cs[k].group == who->group)
            return &e->cs[k];
    return NULL;
}

bool rs_list_next(const char **p, char *buf, size_t n, bool *too_long)
{
    const char *s = *p;
    *too_long = false;
    while (*s == ' ' || *s == ',')
        s++;
    if (*s == '\0') {
        *p = s;
        return false;
    }
    const char *end = strchr(s, ',');
    if (end == NULL)
        end = s + strlen(s);
    const char *last = end;
    while (last > s && last[-1] == ' ')
        last--;
    size_t len = (size_t)(last - s);
    *p = end;
    if (len + 1 > n) {
        *too_long = true;
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    return true;
}

bool rs_int_word(const char *s, int64_t *out)
{
    return eng_text_to_int(s, out);
}

int64_t rs_init_number(const struct enc_combatant *who)
{
    int64_t n;
    if (who->init_expr[0] != '\0' && eng_text_to_int(who->init_expr, &n))
        return n;
    return enc_stat_or(who, "init", 0);
}
