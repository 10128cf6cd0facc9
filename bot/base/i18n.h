/*
 * i18n.h - the translation layer: every text fray shows in a language
 * other than English comes from here (docs/internals/i18n.md).
 *
 * The catalogs are gettext's (po/<lang>.po, checked by msgfmt --check and
 * compiled to .mo by the build), embedded in the binary as bytes
 * (i18n_cat.c, generated): nothing depends on the host's installed
 * locales, setlocale() or a path, and each call names its language, so one
 * process answers every interaction in its own. A lookup is a binary search
 * of the catalog's sorted keys, O(log n) string compares; English is the
 * source text and costs one compare of the language. A missing message (or
 * a missing catalog) falls back to the English text, never to nothing.
 *
 * Marking a file for extraction (scripts/po-update runs xgettext with these
 * keywords): i18n_get(lang, "text"), i18n_pget(lang, "context", "text"),
 * i18n_nget(lang, "one", "many", n), and N_("text") / NC_("ctx", "text")
 * for strings kept in tables and looked up later. Translated formats are
 * c-format: msgfmt --check makes every translation take the same
 * conversions as the English text.
 *
 * No state, no allocation: every function reads constant data and is safe
 * from any thread. Returned strings are static (the catalog or msgid
 * itself) and live as long as the program.
 */
#ifndef I18N_H
#define I18N_H

#include <stdbool.h>
#include <stddef.h>

/* The languages fray speaks. Append only: a server's stored setting is the
 * code (i18n_code()), never the number. I18N_PSEUDO is the generated
 * pseudo-language (accented, 40 % longer) the tests read everything
 * through; it is never offered to Discord. */
enum i18n_lang {
    I18N_EN = 0,
    I18N_DE,
    I18N_FR,
    I18N_ES,
    I18N_PT_BR,
    I18N_PL,
    I18N_PSEUDO,
    I18N_COUNT
};

/* Markers for extraction only: the text stays as it is (English). */
#define N_(s) s
#define NC_(ctx, s) s

/* Contexts of the registration's strings (register.c): names follow
 * Discord's name rules, choices and menus their own. */
#define I18N_CTX_NAME "name"
#define I18N_CTX_CHOICE "choice"
#define I18N_CTX_MENU "menu"

/* The longest context plus message key a lookup builds, in bytes. */
#define I18N_KEY_MAX 512
/* Plural forms a catalog may declare (Polish and Czech need three,
 * Arabic six): more is refused by i18n_check(). */
#define I18N_PLURALS_MAX 6

const char *i18n__get(enum i18n_lang lang, const char *ctx, const char *id)
    __attribute__((format_arg(3)));

/* msgid in lang, or msgid itself when lang is English or the catalog does
 * not have it. */
static inline __attribute__((format_arg(2))) const char *
i18n_get(enum i18n_lang lang, const char *msgid)
{
    return lang == I18N_EN ? msgid : i18n__get(lang, NULL, msgid);
}

/* The same with a context (msgctxt). */
static inline __attribute__((format_arg(3))) const char *
i18n_pget(enum i18n_lang lang, const char *ctx, const char *msgid)
{
    return lang == I18N_EN ? msgid : i18n__get(lang, ctx, msgid);
}

/* The form of one/many for the count n, by lang's Plural-Forms; English
 * (and any miss) picks one for n == 1, else many. */
const char *i18n_nget(enum i18n_lang lang, const char *one, const char *many,
                      unsigned long n) __attribute__((format_arg(3)));

/* A translator for the engine's diagnostics (enc_diag.tr, dice_diag.tr):
 * ctx points at the reader's enum i18n_lang (borrowed for the call). */
const char *i18n_tr(const void *ctx, const char *fmt)
    __attribute__((format_arg(2)));

/* Whether lang has its own text for (ctx, msgid): the quality gates ask. */
bool i18n_has(enum i18n_lang lang, const char *ctx, const char *msgid);

/* "en", "de", "fr", "es-ES", "pt-BR", "pl", "qps": Discord's codes where
 * Discord has one; NULL for a value out of range. */
const char *i18n_code(enum i18n_lang lang);
/* The language of code (as i18n_code() writes it, case-insensitive), or
 * false. "es" and "pt" are taken for es-ES and pt-BR. */
bool i18n_from_code(const char *code, enum i18n_lang *out);
/* The language for a Discord locale ("de", "es-419", "en-US", NULL):
 * Discord's own fallbacks (es-419 reads es-ES), English otherwise. */
enum i18n_lang i18n_from_discord(const char *locale);

/* Check every embedded catalog: the .mo layout, sorted keys, bounds, and
 * a Plural-Forms header whose expression parses with nplurals forms.
 * Returns true when all are sound; else writes the first problem into err
 * (lowercase, no period). The daemon and the tests call it at start. */
bool i18n_check(char *err, size_t errlen);

/* The embedded .mo of lang (i18n_cat.c), or NULL with *len 0. */
const unsigned char *i18n_catalog(enum i18n_lang lang, size_t *len);

/* Test hooks: the same lookups over any .mo bytes. */
const char *i18n__mo_find(const unsigned char *mo, size_t len,
                          const char *ctx, const char *id, size_t *outlen);
bool i18n__mo_check(const unsigned char *mo, size_t len, char *err,
                    size_t errlen);
/* The plural form of n in lang by the rule of lang's embedded catalog,
 * written in C so a lookup parses no header (a parse was a tenth of a
 * Polish command's instructions); false for a language without one.
 * test_i18n checks each against its catalog's Plural-Forms header. */
bool i18n__plural_fixed(enum i18n_lang lang, unsigned long n,
                        unsigned long *form);
/* The number of messages (without the header) a catalog holds. */
size_t i18n__mo_count(const unsigned char *mo, size_t len);

#endif
