/*
 * dice_json.c - dice results and errors as jansson values (see dice_json.h
 * for the shape).
 */
#include "dice_json.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render_dice.h"

/* Set o[key] = v, stealing v. Returns false if v is NULL (out of memory) or
 * the set fails; a NULL o is tolerated so that callers check once. */
static bool set(json_t *o, const char *key, json_t *v)
{
    if (o == NULL || v == NULL) {
        json_decref(v);
        return false;
    }
    return json_object_set_new(o, key, v) == 0;
}

static bool append(json_t *a, json_t *v)
{
    if (a == NULL || v == NULL) {
        json_decref(v);
        return false;
    }
    return json_array_append_new(a, v) == 0;
}

/* A JSON string from user bytes; bytes that are not valid UTF-8 or are
 * control characters become '?'. */
static json_t *user_string(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    if (j != NULL)
        return j;
    char *copy = malloc(n + 1);
    if (copy == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        copy[i] = (c < 0x20 || c >= 0x7F) ? '?' : (char)c;
    }
    j = json_stringn(copy, n);
    free(copy);
    return j;
}

/* Attach arr as o[key] if ok, stealing arr; otherwise free both. */
static json_t *finish(json_t *o, const char *key, json_t *arr, bool ok)
{
    if (ok && set(o, key, arr))
        return o;
    if (!ok)
        json_decref(arr);
    json_decref(o);
    return NULL;
}

static json_t *die_json(const struct render_dice_term *t,
                        const struct dice_die *d)
{
    static const struct {
        const char *name;
        unsigned flag;
    } flags[] = {
        {"dropped", DICE_DIE_DROPPED},   {"rerolled", DICE_DIE_REROLLED},
        {"exploded", DICE_DIE_EXPLODED}, {"bonus", DICE_DIE_BONUS},
        {"success", DICE_DIE_SUCCESS},   {"failure", DICE_DIE_FAILURE},
        {"max", DICE_DIE_MAX},           {"min", DICE_DIE_MIN},
        {"raised", DICE_DIE_RAISED},     {"lowered", DICE_DIE_LOWERED},
    };
    char shown[RENDER_DICE_DIE_MAX];
    render_dice_die(shown, sizeof shown, false, t, d);
    json_t *o = json_object();
    bool ok = set(o, "value", json_integer(d->value)) &&
              set(o, "rolled", json_integer(d->rolled)) &&
              set(o, "shown", json_string(shown)) &&
              set(o, "kept", json_boolean(!(d->flags & DICE_DIE_UNCOUNTED)));
    for (size_t i = 0; ok && i < sizeof flags / sizeof flags[0]; i++)
        ok = set(o, flags[i].name, json_boolean(d->flags & flags[i].flag));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *group_json(const char *src, const struct dice_result *r,
                          const struct dice_group *g)
{
    json_t *o = json_object(), *dice = json_array();
    bool ok = set(o, "text", user_string(src + g->pos, g->len)) &&
              set(o, "column", json_integer(g->pos + 1)) &&
              set(o, "sides", json_integer(g->sides)) &&
              set(o, "fudge", json_boolean(g->fudge)) &&
              set(o, "counting", json_boolean(g->counting)) &&
              set(o, "successes", json_integer(g->successes)) &&
              set(o, "failures", json_integer(g->failures)) &&
              set(o, "subtotal", json_integer(g->subtotal));
    struct render_dice_term t = {&r->dice[g->first], g->count, g->sides,
                                 g->fudge, g->counting};
    for (unsigned i = 0; ok && i < g->count; i++)
        ok = append(dice, die_json(&t, &r->dice[g->first + i]));
    return finish(o, "dice", dice, ok);
}

static json_t *roll_json(const char *src, const struct dice_result *r)
{
    json_t *o = json_object(), *terms = json_array();
    bool ok = set(o, "total", json_integer(r->total));
    for (unsigned i = 0; ok && i < r->n_groups; i++)
        ok = append(terms, group_json(src, r, &r->groups[i]));
    return finish(o, "terms", terms, ok);
}

json_t *dice_json_rolls(const char *src, size_t len,
                        const struct dice_result *res, size_t n)
{
    json_t *o = json_object(), *rolls = json_array();
    json_t *label = n > 0 && res[0].label != NULL
                        ? user_string(res[0].label, res[0].label_len)
                        : json_null();
    bool ok = set(o, "expr", user_string(src, len));
    ok = set(ok ? o : NULL, "label", label) && ok;
    for (size_t i = 0; ok && i < n; i++)
        ok = append(rolls, roll_json(src, &res[i]));
    return finish(o, "rolls", rolls, ok);
}

json_t *dice_json_error(const char *src, size_t len,
                        const struct dice_diag *diag)
{
    json_t *o = json_object(), *err = json_object();
    bool ok = set(err, "code", json_string(eng_errname(diag->code))) &&
              set(err, "message", json_string(diag->msg)) &&
              set(err, "column", json_integer(diag->pos + 1)) &&
              set(err, "length", json_integer(diag->len)) &&
              set(o, "expr", user_string(src, len));
    return finish(o, "error", err, ok);
}
