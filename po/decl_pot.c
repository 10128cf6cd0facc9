/*
 * decl_pot.c - fray-decl-pot: the registration's strings as a gettext
 * template (scripts/po-update, docs/internals/i18n.md).
 *
 * The commands' names, descriptions and choices are data in declarations
 * (bot/cmd/cmd_table.c and each system's rs_<id>_decl.c), not calls
 * xgettext could see, so this program reads them the way registration does:
 * it builds the Discord payload of the core commands and of each system
 * alone (register_build_in() with no locale) and writes every name
 * (msgctxt "name"), description, choice ("choice") and message menu
 * ("menu") once, with a comment giving Discord's rule for that field.
 * What registers is then what the catalogs hold, by construction.
 *
 * Writes the template to stdout; exits 1 when a build fails.
 *
 * `fray-decl-pot pseudo` is msgfilter's filter for the pseudo-language
 * (po/qps.po): it reads one message on stdin and writes it accented and
 * 40 % longer, so that a test sees any string that skips the catalogs
 * (it stays plain ASCII) and any that overflows a limit once translated.
 * A name (msgctxt "name", MSGFILTER_MSGCTXT) stays a valid Discord name:
 * lowercase accented letters padded with "x" up to 32 characters;
 * a menu label stops at 32 characters; other text is bracketed,
 * "[Ŕöļļ ðîçé ·····]", with printf conversions ("%s", "%1$d") untouched.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "register.h"
#include "rs.h"

static void po_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", stdout);
        else
            putchar(*s);
    }
    putchar('"');
}

static void emit(json_t *seen, const char *ctx, const char *id,
                 const char *rule)
{
    char key[I18N_KEY_MAX];
    if (id == NULL || *id == '\0')
        return;
    snprintf(key, sizeof key, "%s\x04%s", ctx ? ctx : "", id);
    if (json_object_get(seen, key) != NULL)
        return;
    json_object_set_new(seen, key, json_true());
    printf("#. %s\n#: registration\n", rule);
    if (strchr(id, '%') != NULL)
        puts("#, no-c-format");
    if (ctx != NULL) {
        fputs("msgctxt ", stdout);
        po_str(ctx);
        putchar('\n');
    }
    fputs("msgid ", stdout);
    po_str(id);
    fputs("\nmsgstr \"\"\n\n", stdout);
}

#define RULE_NAME "A Discord name: 1-32 lowercase letters, digits, - or _, " \
                  "no spaces, unique among its command's options"
#define RULE_DESC "A Discord description: 1-100 characters"

static void walk(json_t *seen, json_t *o, bool top)
{
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *d = json_string_value(json_object_get(o, "description"));
    bool menu = top && json_integer_value(json_object_get(o, "type")) == 3;
    if (menu)
        emit(seen, I18N_CTX_MENU, name,
             "A message menu's label: 1-32 characters, spaces allowed");
    else
        emit(seen, I18N_CTX_NAME, name, RULE_NAME);
    if (d != NULL && *d != '\0' && strcmp(d, name) != 0)
        emit(seen, NULL, d, RULE_DESC);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, "choices"), i, v)
        emit(seen, I18N_CTX_CHOICE,
             json_string_value(json_object_get(v, "name")),
             "A choice's label: 1-100 characters");
    json_array_foreach(json_object_get(o, "options"), i, v)
        walk(seen, v, false);
}

static bool dump(json_t *seen, const struct rs_system *const *sys, size_t n,
                 unsigned flags)
{
    json_t *cmds = register_build_in(sys, n, flags, NULL, 0);
    if (cmds == NULL)
        return false;
    size_t i;
    json_t *c;
    json_array_foreach(cmds, i, c)
        walk(seen, c, true);
    json_decref(cmds);
    return true;
}

/* One message for the pseudo-language at most this long, in bytes. */
#define PSEUDO_MAX_IN 8192
#define PSEUDO_NAME_MAX 32

static const char *const accent_lower[26] = {
    "á", "ƀ", "ç", "ð", "é", "ƒ", "ĝ", "ĥ", "î", "ĵ", "ķ", "ļ", "ɱ",
    "ñ", "ö", "þ", "ǫ", "ŕ", "š", "ţ", "ü", "ṽ", "ŵ", "ẋ", "ý", "ž"};
static const char *const accent_upper[26] = {
    "Á", "Ɓ", "Ç", "Ð", "É", "Ƒ", "Ĝ", "Ĥ", "Î", "Ĵ", "Ķ", "Ļ", "Ṁ",
    "Ñ", "Ö", "Þ", "Ǫ", "Ŕ", "Š", "Ţ", "Û", "Ṽ", "Ŵ", "Ẋ", "Ý", "Ž"};

static size_t chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

static int pseudo(void)
{
    static char in[PSEUDO_MAX_IN];
    size_t n = fread(in, 1, sizeof in - 1, stdin);
    in[n] = '\0';
    const char *ctx = getenv("MSGFILTER_MSGCTXT");
    bool name = ctx != NULL && strcmp(ctx, I18N_CTX_NAME) == 0;
    bool menu = ctx != NULL && strcmp(ctx, I18N_CTX_MENU) == 0;
    size_t len = chars(in, n), want = (len * 14 + 9) / 10, out = 0;
    if (!name && !menu)
        out += (size_t)printf("[");
    for (size_t i = 0; i < n; i++) {
        char c = in[i];
        if (c == '%' && !name && !menu) {   /* a conversion, as it is */
            size_t j = i + 1;
            while (j < n && strchr("0123456789$.*-+ #'lhzjtL", in[j]))
                j++;
            fwrite(in + i, 1, j < n ? j - i + 1 : j - i, stdout);
            i = j;
        } else if (c >= 'a' && c <= 'z') {
            fputs(accent_lower[c - 'a'], stdout);
        } else if (c >= 'A' && c <= 'Z') {
            fputs(name ? accent_lower[c - 'A'] : accent_upper[c - 'A'],
                  stdout);
        } else {
            putchar(c);
        }
    }
    if (name || menu) {
        if (want > PSEUDO_NAME_MAX)
            want = PSEUDO_NAME_MAX;
        for (size_t k = len; k < want; k++)
            putchar(menu ? '~' : 'x');
        return 0;
    }
    fputs(" ", stdout);
    for (size_t k = len + 3; k < want; k++)
        fputs("·", stdout);
    fputs("]", stdout);
    (void)out;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "pseudo") == 0)
        return pseudo();
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    json_t *seen = json_object();
    bool ok = seen != NULL && dump(seen, NULL, 0, REGISTER_CORE);
    for (size_t i = 0; ok && i < n; i++)
        ok = dump(seen, &all[i], 1, REGISTER_GUILD);
    json_decref(seen);
    if (!ok)
        fprintf(stderr, "fray-decl-pot: a registration build failed\n");
    return ok ? 0 : 1;
}
