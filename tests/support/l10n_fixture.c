/*
 * l10n_fixture.c - the translation tests' shared helpers (l10n_fixture.h).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l10n_fixture.h"
#include "render_enc.h"
#include "sbuf.h"

char *l10n_fx_events(const struct encounter *e, const struct enc_result *r,
                     enum i18n_lang lang)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_EVENTS_MAX);
    render_events_text(&b, e, r, false, lang);
    char *s = sbuf_take(&b);
    sbuf_cleanup(&b);
    assert_non_null(s);
    if (getenv("FRAY_TEST_DUMP") != NULL)
        fprintf(stderr, "--- %s\n%s\n", i18n_code(lang), s);
    return s;
}

void l10n_fx_has(const char *text, const char *want)
{
    if (strstr(text, want) == NULL)
        fail_msg("\"%s\" not in:\n%s", want, text);
}

void l10n_fx_lacks(const char *text, const char *bad)
{
    if (strstr(text, bad) != NULL)
        fail_msg("\"%s\" in:\n%s", bad, text);
}

const char *l10n_fx_diag_tr(const void *ctx, const char *fmt)
{
    return i18n_get(*(const enum i18n_lang *)ctx, fmt);
}
