/*
 * rs.c - the compiled-in registry of rulesets.
 *
 * One row per ruleset; no dlopen and no self-registration, so the list is
 * visible here and a test checks every row honours the rs_ops contract.
 */
#include "rs.h"

#include <string.h>

#include "eng_text.h"

extern const struct rs_system rs_generic;
extern const struct rs_system rs_teams;
extern const struct rs_system rs_factions;
extern const struct rs_system rs_resolve;
extern const struct rs_system rs_cards;
extern const struct rs_system rs_tactical;

static const struct rs_system *const rs_registry[] = {
    &rs_generic,
    &rs_teams,
    &rs_factions,
    &rs_resolve,
    &rs_cards,
    &rs_tactical,
};

#define RS_COUNT (sizeof rs_registry / sizeof rs_registry[0])

const struct rs_system *rs_find(const char *id)
{
    for (size_t i = 0; i < RS_COUNT; i++)
        if (eng_text_casecmp(rs_registry[i]->id, id) == 0)
            return rs_registry[i];
    return NULL;
}

int rs_index(const struct rs_system *s)
{
    for (size_t i = 0; i < RS_COUNT; i++)
        if (rs_registry[i] == s)
            return (int)i;
    return -1;
}

const struct rs_system *const *rs_all(size_t *n)
{
    *n = RS_COUNT;
    return rs_registry;
}

void rs_ids(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < RS_COUNT; i++) {
        const char *id = rs_registry[i]->id;
        size_t len = strlen(id);
        if (at + len + 3 > n)
            break;
        if (i > 0) {
            memcpy(buf + at, ", ", 2);
            at += 2;
        }
        memcpy(buf + at, id, len + 1);
        at += len;
    }
}

const char *rs_opt(const struct rs_opt *opts, int nopts, const char *name)
{
    for (int i = 0; i < nopts; i++)
        if (eng_text_casecmp(opts[i].name, name) == 0)
            return opts[i].value;
    return NULL;
}

void rs_default_after_track(struct rs_call *c, struct enc_combatant *who,
                            const char *track, int64_t before)
{
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
    (void)before;
}

bool rs_may_act(const struct rs_call *c, const struct enc_combatant *who)
{
    return c->is_gm || (who->owner != 0 && who->owner == c->user);
}

enum eng_err rs_require_actor(struct rs_call *c,
                              const struct enc_combatant *who)
{
    if (rs_may_act(c, who))
        return ENG_OK;
    if (who->owner == 0)
        return enc_fail(c->d, ENG_PERM, "only the GM may act for %s",
                        who->name);
    return enc_fail(c->d, ENG_PERM, "only %s's player or the GM may act for "
                    "them", who->name);
}

enum eng_err rs_opt_combatant(struct rs_call *c, const char *opt,
                              struct enc_combatant **out)
{
    const char *name = rs_opt(c->opts, c->nopts, opt);
    if (name == NULL || name[0] == '\0')
        return enc_fail(c->d, ENG_INVALID, "%s: is required", opt);
    struct enc_combatant *who = enc_by_name(c->e, name);
    if (who == NULL) {
        const char *close = enc_closest_name(c->e, name);
        if (close != NULL)
            return enc_fail(c->d, ENG_NOTFOUND, "no combatant named %.64s "
                            "(did you mean %s?)", name, close);
        return enc_fail(c->d, ENG_NOTFOUND, "no combatant named %.64s",
                        name);
    }
    *out = who;
    return ENG_OK;
}

enum eng_err rs_opt_int(struct rs_call *c, const char *opt, int64_t lo,
                        int64_t hi, int64_t dflt, int64_t *out)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL) {
        *out = dflt;
        return ENG_OK;
    }
    int64_t x;
    if (!eng_text_to_int(v, &x) || x < lo || x > hi)
        return enc_fail(c->d, ENG_RANGE, "%s: must be a whole number from "
                        "%lld to %lld", opt, (long long)lo, (long long)hi);
    *out = x;
    return ENG_OK;
}

enum eng_err rs_opt_bool(struct rs_call *c, const char *opt, bool dflt,
                         bool *out)
{
    const char *v = rs_opt(c->opts, c->nopts, opt);
    if (v == NULL) {
        *out = dflt;
        return ENG_OK;
    }
    if (!eng_text_to_bool(v, out))
        return enc_fail(c->d, ENG_INVALID, "%s: must be true or false", opt);
    return ENG_OK;
}
