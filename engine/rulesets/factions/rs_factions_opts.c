/*
 * rs_factions_opts.c - the `factions` ruleset: the /attack options text.
 *
 * Words (melee, ranged, far, cover, blast...) set flags; key=value pairs
 * name reactions (react=dodge, counter=d6, guard=Dan, hide="Bandit 2",
 * dodge=Cat and by=Dan for blasts) and blast zones (zone=2,
 * neighbours=3/4). Every value is bounded; see rs_factions.h.
 */
#include "rs_factions.h"

#include <stddef.h>
#include <string.h>

#include "eng_text.h"

/* ---- attack options ---------------------------------------------------------- */


static const struct {
    const char *word;
    unsigned how;
    size_t flag;             /* offsetof the bool, or 0 for a how bit */
} fac_words[] = {
    {"melee", FAC_AT_MELEE, 0},
    {"ranged", FAC_AT_RANGED, 0},
    {"indirect", FAC_AT_INDIRECT, 0},
    {"far", FAC_AT_FAR, 0},
    {"moving", FAC_AT_MOVING, 0},
    {"unseen", FAC_AT_UNSEEN, 0},
    {"challenging", FAC_AT_CHALLENGING, 0},
    {"impaired", 0, offsetof(struct fac_atk, impaired)},
    {"concealment", 0, offsetof(struct fac_atk, impaired)},
    {"holdback", 0, offsetof(struct fac_atk, impaired)},
    {"unarmed", 0, offsetof(struct fac_atk, unarmed)},
    {"cover", 0, offsetof(struct fac_atk, cover)},
    {"penetrates", 0, offsetof(struct fac_atk, penetrates)},
    {"final", 0, offsetof(struct fac_atk, final)},
    {"opportunity", 0, offsetof(struct fac_atk, opportunity)},
    {"unaware", 0, offsetof(struct fac_atk, unaware)},
    {"damaged", 0, offsetof(struct fac_atk, damaged)},
    {"improvised", 0, offsetof(struct fac_atk, damaged)},
    {"disarm", 0, offsetof(struct fac_atk, disarm)},
    {"grapple", 0, offsetof(struct fac_atk, grapple)},
    {"blast", 0, offsetof(struct fac_atk, blast)},
    {"wait", 0, offsetof(struct fac_atk, wait)},
    {"stunt", 0, offsetof(struct fac_atk, stunt)},
    {"peek", 0, offsetof(struct fac_atk, peek)},
};

static enum eng_err fac_set_word(struct rs_call *c, struct fac_atk *o,
                                 const char *key, const char *val)
{
    if (val == NULL) {
        for (size_t i = 0; i < sizeof fac_words / sizeof fac_words[0]; i++) {
            if (eng_text_casecmp(key, fac_words[i].word) != 0)
                continue;
            if (fac_words[i].flag == 0)
                o->how |= fac_words[i].how;
            else
                *(bool *)((char *)o + fac_words[i].flag) = true;
            return ENG_OK;
        }
        if (eng_text_casecmp(key, "dodge") == 0 ||
            eng_text_casecmp(key, "counter") == 0) {
            enc_copy(o->react, sizeof o->react, key);
            eng_text_lower(o->react);
            return ENG_OK;
        }
        enc_fail(c->d, ENG_INVALID, "unknown attack option %.32s", key);
        enc_hint(c->d, "options:\"ranged far react=dodge\" (see /help "
                 "factions)");
        return ENG_INVALID;
    }
    if (eng_text_casecmp(key, "react") == 0) {
        if (eng_text_casecmp(val, "dodge") != 0 &&
            eng_text_casecmp(val, "counter") != 0 &&
            eng_text_casecmp(val, "none") != 0)
            return enc_fail(c->d, ENG_INVALID, "react must be dodge, counter "
                            "or none");
        enc_copy(o->react, sizeof o->react, val);
        eng_text_lower(o->react);
    } else if (eng_text_casecmp(key, "counter") == 0) {
        if (strlen(val) >= sizeof o->counter)
            return enc_fail(c->d, ENG_LIMIT, "counter dice too long (limit "
                            "is %zu bytes)", sizeof o->counter - 1);
        enc_copy(o->counter, sizeof o->counter, val);
        if (o->react[0] == '\0')
            enc_copy(o->react, sizeof o->react, "counter");
    } else if (eng_text_casecmp(key, "dodge") == 0) {
        /* A blast's target who dodges; one option per target. The words
         * count is bounded, so the list always has room. */
        if (strlen(val) > ENC_MAX_NAME)
            return enc_fail(c->d, ENG_LIMIT, "dodge: name too long");
        enc_copy(o->dodgers[o->ndodgers++], ENC_MAX_NAME + 1, val);
    } else if (eng_text_casecmp(key, "guard") == 0 ||
               eng_text_casecmp(key, "hide") == 0 ||
               eng_text_casecmp(key, "by") == 0) {
        char *dst = eng_text_casecmp(key, "guard") == 0 ? o->guard :
                    eng_text_casecmp(key, "hide") == 0 ? o->hide : o->by;
        if (strlen(val) > ENC_MAX_NAME)
            return enc_fail(c->d, ENG_LIMIT, "%s: name too long", key);
        enc_copy(dst, ENC_MAX_NAME + 1, val);
    } else if (eng_text_casecmp(key, "zone") == 0) {
        if (!eng_text_to_int(val, &o->zone) || o->zone < 0 ||
            o->zone > FAC_MAX_ZONE)
            return enc_fail(c->d, ENG_RANGE, "zone must be 0 to %d",
                            FAC_MAX_ZONE);
    } else if (eng_text_casecmp(key, "neighbours") == 0 ||
               eng_text_casecmp(key, "neighbors") == 0) {
        const char *p = val;
        while (*p != '\0') {
            int64_t z;
            const char *end = eng_text_parse_int(p, &z);
            if (end == NULL || z < 0 || z > FAC_MAX_ZONE ||
                (*end != '\0' && *end != '/'))
                return enc_fail(c->d, ENG_INVALID, "neighbours are zone "
                                "numbers 0 to %d joined by /, like 2/3/5",
                                FAC_MAX_ZONE);
            if (o->nneigh >= FAC_MAX_NEIGHBOURS)
                return enc_fail(c->d, ENG_LIMIT, "too many neighbours "
                                "(limit is %d)", FAC_MAX_NEIGHBOURS);
            o->neighbours[o->nneigh++] = z;
            p = *end == '/' ? end + 1 : end;
        }
    } else {
        enc_fail(c->d, ENG_INVALID, "unknown attack option %.32s", key);
        enc_hint(c->d, "options:\"react=counter counter=d6\"");
        return ENG_INVALID;
    }
    return ENG_OK;
}

/* options -> (word | key '=' (value | '"' text '"'))* separated by spaces
 * or commas */
enum eng_err fac_parse_atk(struct rs_call *c, const char *text,
                                  struct fac_atk *o)
{
    memset(o, 0, sizeof *o);
    o->zone = -1;
    if (text == NULL)
        return ENG_OK;
    if (strlen(text) > FAC_MAX_OPTIONS)
        return enc_fail(c->d, ENG_LIMIT, "attack options too long (limit is "
                        "%d bytes)", FAC_MAX_OPTIONS);
    const char *p = text;
    for (int words = 0;; words++) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        if (words >= FAC_MAX_WORDS)
            return enc_fail(c->d, ENG_LIMIT, "too many attack options "
                            "(limit is %d)", FAC_MAX_WORDS);
        char key[24], val[ENC_MAX_NAME + 1];
        size_t k = 0;
        while (*p != '\0' && *p != ' ' && *p != ',' && *p != '=') {
            if (k + 1 >= sizeof key)
                return enc_fail(c->d, ENG_INVALID, "unknown attack option");
            key[k++] = *p++;
        }
        key[k] = '\0';
        bool has_val = *p == '=';
        if (has_val) {
            p++;
            size_t v = 0;
            char quote = (*p == '"' || *p == '\'') ? *p++ : '\0';
            while (*p != '\0' &&
                   (quote ? *p != quote : (*p != ' ' && *p != ','))) {
                if (v + 1 >= sizeof val)
                    return enc_fail(c->d, ENG_LIMIT, "option %s: value too "
                                    "long (limit is %d bytes)", key,
                                    ENC_MAX_NAME);
                val[v++] = *p++;
            }
            if (quote && *p == quote)
                p++;
            val[v] = '\0';
        }
        enum eng_err err = fac_set_word(c, o, key, has_val ? val : NULL);
        if (err != ENG_OK)
            return err;
    }
    return ENG_OK;
}

