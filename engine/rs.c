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

static const struct rs_system *const rs_registry[] = {
    &rs_generic,
};

#define RS_COUNT (sizeof rs_registry / sizeof rs_registry[0])

const struct rs_system *rs_find(const char *id)
{
    for (size_t i = 0; i < RS_COUNT; i++)
        if (eng_text_casecmp(rs_registry[i]->id, id) == 0)
            return rs_registry[i];
    return NULL;
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
