/*
 * l10n_fixture.h - what the translation tests (tests/unit/bot/test_l10n_*)
 * share: a call's events as one language's table reads them, the asserts
 * that a text holds or lacks a piece (printing the whole text when not),
 * and a refusal's translator as the command layer sets it. Include after
 * support.h.
 *
 * Ownership: l10n_fx_events() returns a heap string the caller frees;
 * everything else borrows.
 */
#ifndef TEST_L10N_FIXTURE_H
#define TEST_L10N_FIXTURE_H

#include "i18n.h"

struct encounter;
struct enc_result;

/* r's events in e as lang's players read them (render_events_text, not
 * the GM's view); caller frees. With FRAY_TEST_DUMP set in the
 * environment, also printed to stderr under the language's code. */
char *l10n_fx_events(const struct encounter *e, const struct enc_result *r,
                     enum i18n_lang lang);

/* Fail the test unless text holds want; the message shows text whole. */
void l10n_fx_has(const char *text, const char *want);

/* Fail the test if text holds bad. */
void l10n_fx_lacks(const char *text, const char *bad);

/* A refusal's translator (struct enc_diag's tr) as cmd_diag_lang() sets
 * it: ctx points at the reader's enum i18n_lang. */
const char *l10n_fx_diag_tr(const void *ctx, const char *fmt);

#endif
