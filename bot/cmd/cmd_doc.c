/*
 * cmd_doc.c - command reference text from the declarations (cmd_doc.h).
 *
 * Every sentence is one catalog message in the reader's language (lang):
 * numbers and names are its conversions, never spliced between translated
 * pieces; a property list's clauses ("; stacks") are each a message. The
 * declarations' own words (descriptions, a system's help) are looked up in
 * the catalogs as they are shown; a miss stays English.
 */
#include "cmd_doc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "render_enc.h"
#include "rs_kit.h"

#define EM_DASH "\xE2\x80\x94"

/* A declaration's text in lang ("" for none). */
static const char *tr(enum i18n_lang lang, const char *s)
{
    return s != NULL ? i18n_get(lang, s) : "";
}

/* What kind of value an option takes, in a few words. */
static void opt_kind(struct sbuf *b, const struct rs_opt_spec *o,
                     enum i18n_lang lang)
{
    switch (o->type) {
    case RS_OPT_INTEGER:
        if (o->val == RS_VAL_COUNT)
            sbuf_addf(b, i18n_get(lang, "a word that may repeat (at most "
                                  "%lld)"), (long long)o->max);
        else
            sbuf_addf(b, i18n_get(lang, "a whole number, %lld to %lld"),
                      (long long)o->min, (long long)o->max);
        return;
    case RS_OPT_BOOLEAN:
        sbuf_add(b, o->val == RS_VAL_FLAG
                        ? i18n_get(lang, "a word on its own")
                        : i18n_get(lang, "true or false"));
        return;
    case RS_OPT_CHANNEL:
        sbuf_add(b, i18n_get(lang, "a channel"));
        return;
    case RS_OPT_ATTACHMENT:
        sbuf_add(b, i18n_get(lang, "a JSON file: attached on Discord, a "
                             "path in the console"));
        return;
    case RS_OPT_ROLE:
        sbuf_add(b, i18n_get(lang, "a role"));
        return;
    case RS_OPT_STRING:
        break;
    }
    switch (o->val) {
    case RS_VAL_CHOICE: {
        struct sbuf l;
        sbuf_init(&l, SIZE_MAX / 2);
        for (int i = 0; o->choices && o->choices[i]; i++)
            sbuf_addf(&l, "%s`%s`", i ? ", " : "", o->choices[i]);
        sbuf_addf(b, i18n_get(lang, "one of %s"), sbuf_str(&l));
        sbuf_cleanup(&l);
        return;
    }
    case RS_VAL_COMBATANT:
        sbuf_add(b, i18n_get(lang, "a combatant"));
        return;
    case RS_VAL_OWN:
        sbuf_add(b, i18n_get(lang, "a combatant you act for"));
        return;
    case RS_VAL_SIDE:
        sbuf_add(b, i18n_get(lang, "a side of the fight"));
        return;
    case RS_VAL_SIDE_ANY:
        sbuf_add(b, i18n_get(lang, "a side (new or existing)"));
        return;
    case RS_VAL_DICE:
        sbuf_add(b, i18n_get(lang, "dice, like `2d6+3`"));
        return;
    case RS_VAL_DICE_MACRO:
        sbuf_add(b, i18n_get(lang, "dice, like `2d6+3`, or a saved roll, "
                             "like `@stealth+2`"));
        return;
    case RS_VAL_MACRO:
        sbuf_add(b, i18n_get(lang, "the name of a saved roll"));
        return;
    case RS_VAL_CONDITION:
        sbuf_add(b, i18n_get(lang, "a condition"));
        return;
    default:
        sbuf_addf(b, i18n_nget(lang, "text, at most %lld byte",
                               "text, at most %lld bytes",
                               (unsigned long)o->max), (long long)o->max);
        return;
    }
}

static void opts_list(struct sbuf *b, const struct rs_opt_spec *opts,
                      enum cmd_doc_style style, enum i18n_lang lang)
{
    for (int i = 0; opts != NULL && opts[i].name != NULL; i++) {
        const struct rs_opt_spec *o = &opts[i];
        if (style == CMD_DOC_FILE) {
            struct sbuf k;
            sbuf_init(&k, SIZE_MAX / 2);
            opt_kind(&k, o, lang);
            sbuf_addf(b, o->required
                             ? i18n_get(lang, "- `%s` (required): %s (%s)")
                             : i18n_get(lang, "- `%s`: %s (%s)"),
                      o->name, tr(lang, o->help), sbuf_str(&k));
            sbuf_addc(b, '\n');
            sbuf_cleanup(&k);
        } else {
            sbuf_addf(b, "%s`%s`%s", i ? ", " : "", o->name,
                      o->required ? "*" : "");
        }
    }
}

void cmd_doc_command(struct sbuf *b, const struct cmd_spec *spec,
                     enum cmd_doc_style style, enum i18n_lang lang)
{
    char name[64];
    const char *help = tr(lang, spec->help);
    bool says_gm = strncmp(spec->help, "GM:", 3) == 0;
    bool gm = (spec->flags & CMD_F_GM_ONLY) && !says_gm;
    cmd_spec_name(spec, name, sizeof name);
    if (style == CMD_DOC_HELP) {
        sbuf_addf(b, gm ? i18n_get(lang, "`%s` \xE2\x80\x94 %s (GM)")
                        : "`%s` " EM_DASH " %s", name, help);
        sbuf_addc(b, '\n');
        return;
    }
    size_t hl = strlen(help);
    sbuf_addf(b, "### `%s`\n\n", name);
    sbuf_addf(b, gm ? i18n_get(lang, "%s (the GM only)") : "%s", help);
    sbuf_addf(b, "%s\n\n    %s\n\n",
              hl > 0 && help[hl - 1] == '.' ? "" : ".", spec->example);
    if (spec->opts != NULL && spec->opts[0].name != NULL) {
        sbuf_addf(b, "%s\n\n", i18n_get(lang, "Options:"));
        opts_list(b, spec->opts, style, lang);
        sbuf_addc(b, '\n');
    }
}

static void doc_conditions(struct sbuf *b, const struct rs_system *rs,
                           enum cmd_doc_style style, enum i18n_lang lang)
{
    int n = 0;
    const struct rs_cond_spec *c = rs_cond_specs(rs, NULL, &n);
    if (n == 0)
        return;
    sbuf_addf(b, style == CMD_DOC_FILE ? "## %s\n\n" : "\n**%s:** ",
              i18n_get(lang, "Conditions"));
    for (int i = 0; i < n; i++) {
        if (c[i].flags & RS_COND_SYSTEM)
            continue;
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s%s", i ? ", " : "",
                      render_cond_name(c[i].name, lang));
            continue;
        }
        sbuf_addf(b, "- **%s**: %s", render_cond_name(c[i].name, lang),
                  tr(lang, c[i].help));
        if (c[i].start != 0)
            sbuf_addf(b, i18n_get(lang, "; starts at %d"), (int)c[i].start);
        if (c[i].flags & RS_COND_STACKS)
            sbuf_add(b, i18n_get(lang, "; stacks"));
        if (c[i].cap > 0)
            sbuf_addf(b, i18n_get(lang, " up to %d"), (int)c[i].cap);
        if (c[i].rounds > 0)
            sbuf_addf(b, i18n_nget(lang, "; lasts %d round",
                                   "; lasts %d rounds",
                                   (unsigned long)c[i].rounds),
                      (int)c[i].rounds);
        if (c[i].flags & RS_COND_LASTS)
            sbuf_add(b, (c[i].flags & RS_COND_REST)
                            ? i18n_get(lang, "; outlasts the fight: a saved "
                                       "character keeps it until it rests "
                                       "(`/character rest`)")
                            : i18n_get(lang, "; outlasts the fight: a saved "
                                       "character keeps it"));
        if (c[i].flags & RS_COND_TIMED)
            sbuf_add(b, i18n_get(lang, "; its rules fix how long it lasts, "
                                 "so `rounds:`, `until:` and `ends:` are "
                                 "refused"));
        sbuf_add(b, "\n");
    }
    sbuf_add(b, "\n");
}

/* What a saved character keeps (cmd_writeback.c): its tracks, lasting
 * conditions and the stats rs_system.lasts names, each with the chapter's
 * words. */
static void doc_lasts(struct sbuf *b, const struct rs_system *rs,
                      enum i18n_lang lang)
{
    sbuf_addf(b, "## %s\n\n", i18n_get(lang, "What a saved character "
                                       "keeps"));
    int n = 0;
    const struct rs_cond_spec *c = rs_cond_specs(rs, NULL, &n);
    bool conds = false;
    for (int i = 0; i < n; i++)
        conds |= (c[i].flags & RS_COND_LASTS) != 0;
    bool more = rs->lasts != NULL && rs->lasts[0].stat != NULL;
    if (conds && more)
        sbuf_add(b, i18n_get(lang, "When a fight ends, a saved character "
                             "that joined it keeps its tracks as the fight "
                             "left them and the conditions above that "
                             "outlast the fight, and:"));
    else if (conds)
        sbuf_add(b, i18n_get(lang, "When a fight ends, a saved character "
                             "that joined it keeps its tracks as the fight "
                             "left them and the conditions above that "
                             "outlast the fight; nothing else in this "
                             "system's rules lasts."));
    else if (more)
        sbuf_add(b, i18n_get(lang, "When a fight ends, a saved character "
                             "that joined it keeps its tracks as the fight "
                             "left them, and:"));
    else
        sbuf_add(b, i18n_get(lang, "When a fight ends, a saved character "
                             "that joined it keeps its tracks as the fight "
                             "left them; nothing else in this system's "
                             "rules lasts."));
    sbuf_add(b, "\n\n");
    if (!more)
        return;
    for (const struct rs_lasting *l = rs->lasts; l->stat != NULL; l++) {
        if (strcmp(l->stat, RS_LAST_ALL) == 0)
            sbuf_add(b, i18n_get(lang, "- every stat on its sheet, as the "
                                 "fight left it"));
        else if (l->stat[0] == '*')
            sbuf_addf(b, i18n_get(lang, "- every `<name>%s` stat, as the "
                                  "fight left it"), l->stat + 1);
        else
            sbuf_addf(b, i18n_get(lang, "- `%s`, as the fight left it (gone "
                                  "from the sheet when the fight lost it)"),
                      l->stat);
        if (l->flags & RS_LAST_REST)
            sbuf_addf(b, i18n_get(lang, ", until it rests: `/character "
                                  "rest` sets it to %lld"),
                      (long long)l->rest);
        sbuf_addf(b, i18n_get(lang, ". The rules: \"%s\""),
                  tr(lang, l->why));
        sbuf_addc(b, '\n');
    }
    sbuf_add(b, "\n");
}

/* Which tracks damage changes (rs_system.harm): what the end's summary
 * and /combat log count as damage taken. */
static void doc_harm(struct sbuf *b, const struct rs_system *rs,
                     enum i18n_lang lang)
{
    const struct rs_harm_spec *h = rs->harm;
    if (h == NULL || h[0].track == NULL)
        return;
    bool many = h[1].track != NULL;
    struct sbuf t;
    sbuf_init(&t, SIZE_MAX / 2);
    sbuf_addf(&t, "`%s`", h[0].track);
    for (int k = 1; h[k].track != NULL; k++)
        sbuf_addf(&t, h[0].up ? i18n_get(lang, " or `%s`")
                              : i18n_get(lang, ", then `%s`"), h[k].track);
    sbuf_addc(b, '\n');
    sbuf_addf(b, h[0].up
              ? (many ? i18n_get(lang, "Damage adds to %s; the end's summary "
                                 "and `/combat log` count what each gained "
                                 "as damage taken, by track when more than "
                                 "one took some.")
                      : i18n_get(lang, "Damage adds to %s; the end's summary "
                                 "and `/combat log` count what it gained as "
                                 "damage taken."))
              : (many ? i18n_get(lang, "Damage takes %s; the end's summary "
                                 "and `/combat log` count what each lost as "
                                 "damage taken, by track when more than one "
                                 "took some.")
                      : i18n_get(lang, "Damage takes %s; the end's summary "
                                 "and `/combat log` count what it lost as "
                                 "damage taken.")),
              sbuf_str(&t));
    sbuf_addc(b, '\n');
    sbuf_cleanup(&t);
}

static void doc_stats(struct sbuf *b, const struct rs_system *rs,
                      enum cmd_doc_style style, enum i18n_lang lang)
{
    if (rs->stats == NULL || rs->stats[0].name == NULL)
        return;
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "## %s\n\n%s\n\n", i18n_get(lang, "Stats"),
                  i18n_get(lang, "Given as `stats:\"name=value ...\"` to "
                           "`/combat join`, `/combat add` or `/combat "
                           "set`."));
    else
        sbuf_addf(b, "\n**%s** (`stats:`): ", i18n_get(lang, "Stats"));
    for (const struct rs_stat_spec *p = rs->stats; p->name; p++) {
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s`%s`", p == rs->stats ? "" : ", ", p->name);
            continue;
        }
        sbuf_addf(b, "- `%s`: %s (", p->name, tr(lang, p->help));
        sbuf_addf(b, i18n_get(lang, "%lld to %lld"), (long long)p->min,
                  (long long)p->max);
        sbuf_addf(b, "%s)\n",
                  p->kind == RS_TRACK ? i18n_get(lang, "; a track: its "
                                                 "current value goes down "
                                                 "and back up")
                  : p->kind == RS_POOL ? i18n_get(lang, "; a pool with no "
                                                  "maximum, gone when spent")
                  : "");
    }
    if (style == CMD_DOC_FILE && (rs->flags & RS_F_OPEN_STATS))
        sbuf_addf(b, "%s\n", i18n_get(lang, "- any other name: kept as "
                                       "written, for the GM"));
    if (style == CMD_DOC_FILE)
        doc_harm(b, rs, lang);
    sbuf_add(b, "\n");
}

static void doc_settings(struct sbuf *b, const struct rs_system *rs,
                         enum cmd_doc_style style, enum i18n_lang lang)
{
    if (rs->settings == NULL || rs->settings[0].key == NULL)
        return;
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "## %s\n\n%s\n\n", i18n_get(lang, "Settings"),
                  i18n_get(lang, "Given when the fight starts: `/combat "
                           "start settings:\"key=value\"`."));
    else
        sbuf_addf(b, "\n**%s** (`/combat start settings:`): ",
                  i18n_get(lang, "Settings"));
    for (const struct rs_setting_spec *p = rs->settings; p->key; p++) {
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s`%s`", p == rs->settings ? "" : ", ", p->key);
            continue;
        }
        sbuf_addf(b, "- `%s`: %s", p->key, tr(lang, p->help));
        if (p->type == RS_SET_INT) {
            sbuf_add(b, " (");
            sbuf_addf(b, i18n_get(lang, "%lld to %lld"), (long long)p->min,
                      (long long)p->max);
            sbuf_add(b, ")");
        } else if (p->type == RS_SET_BOOL) {
            sbuf_add(b, i18n_get(lang, " (on or off)"));
        } else if (p->type == RS_SET_DICE) {
            sbuf_add(b, i18n_get(lang, " (dice)"));
        } else {
            for (int i = 0; p->choices && p->choices[i]; i++)
                sbuf_addf(b, "%s`%s`%s", i ? ", " : " (", p->choices[i],
                          p->choices[i + 1] ? "" : ")");
        }
        if (p->dflt != NULL)
            sbuf_addf(b, i18n_get(lang, "; default %s"), p->dflt);
        sbuf_add(b, "\n");
    }
    sbuf_add(b, "\n");
}

static void doc_extensions(struct sbuf *b, const struct rs_system *rs,
                           enum cmd_doc_style style, enum i18n_lang lang)
{
    if (rs->exts == NULL || rs->exts[0].command == NULL)
        return;
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "## %s\n\n", i18n_get(lang, "Options on the core "
                                           "commands"));
    for (const struct rs_ext *x = rs->exts; x->command != NULL; x++) {
        if (style == CMD_DOC_FILE) {
            sbuf_addf(b, "`/%s`:\n\n", x->command);
            opts_list(b, x->opts, style, lang);
        } else {
            struct sbuf l;
            sbuf_init(&l, SIZE_MAX / 2);
            opts_list(&l, x->opts, style, lang);
            sbuf_addf(b, i18n_get(lang, "`/%s` also takes %s"), x->command,
                      sbuf_str(&l));
            sbuf_cleanup(&l);
        }
        sbuf_addc(b, '\n');
    }
}

/* What the system's area declaration (rs.h struct rs_area) means for
 * the target picker. */
static void doc_area(struct sbuf *b, const struct rs_system *rs,
                     enum cmd_doc_style style, enum i18n_lang lang)
{
    const struct rs_area *a = rs->area;
    if (a == NULL)
        return;
    struct sbuf w;
    sbuf_init(&w, SIZE_MAX / 2);
    for (int i = 0; a->when[i] != NULL; i++)
        sbuf_addf(&w, i == 0 ? "`%s=`"
                      : a->when[i + 1] ? ", `%s=`"
                      : i18n_get(lang, " or `%s=`"), a->when[i]);
    sbuf_add(b, style == CMD_DOC_FILE ? i18n_get(lang, "**Area attacks.**")
                                      : i18n_get(lang, "**Area attacks:**"));
    sbuf_addc(b, ' ');
    sbuf_addf(b, i18n_nget(lang, "%s make an attack hit several targets. "
                           "Leave `target:` out and the list lets you choose "
                           "up to %d at once (fewer if the list is shorter); "
                           "the first you choose is `target:`, the others go "
                           "into `%s=`.", "%s make an attack hit several "
                           "targets. Leave `target:` out and the list lets "
                           "you choose up to %d at once (fewer if the list "
                           "is shorter); the first you choose is `target:`, "
                           "the others go into `%s=`.",
                           (unsigned long)a->max_targets),
              sbuf_str(&w), a->max_targets, a->more);
    sbuf_add(b, style == CMD_DOC_FILE ? "\n\n" : "\n");
    sbuf_cleanup(&w);
}

static void doc_attack_opts(struct sbuf *b, const struct rs_system *rs,
                            enum cmd_doc_style style, enum i18n_lang lang)
{
    if (rs->attack_opts == NULL || rs->attack_opts[0].name == NULL)
        return;
    if (style == CMD_DOC_FILE) {
        sbuf_addf(b, "## %s\n\n", i18n_get(lang, "`/attack` options"));
        sbuf_addf(b, i18n_get(lang, "Written in `options:` as words and "
                              "`key=value` pairs, like `options:\"%s\"`."),
                  rs->attack_opts[0].name);
        sbuf_add(b, "\n\n");
        opts_list(b, rs->attack_opts, style, lang);
        sbuf_addc(b, '\n');
    } else {
        sbuf_add(b, "\n**`/attack options:`** ");
        opts_list(b, rs->attack_opts, style, lang);
        sbuf_addc(b, '\n');
    }
    doc_area(b, rs, style, lang);
}

/* Where events of the order (/combat event) go in this system, from its
 * declaration (rs_system.entries): the reason and the defaults. */
static void doc_entries(struct sbuf *b, const struct rs_system *rs,
                        enum cmd_doc_style style, enum i18n_lang lang)
{
    const struct rs_entry_spec *sp = rs->entries;
    if (sp == NULL)
        return;
    const char *why = tr(lang, sp->why);
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "## %s\n\n", i18n_get(lang, "Events of the order"));
    else
        sbuf_addf(b, "%s ", i18n_get(lang, "**Events (`/combat "
                                     "event`):**"));
    /* the reason is also a refusal's clause: capitalised here */
    sbuf_addf(b, "%c%s. ", toupper((unsigned char)why[0]), why + 1);
    const char *hazard_roll = sp->hazard_roll;
    if (!sp->counts)
        sbuf_add(b, i18n_get(lang, "Without `at:` a lair action or a "
                             "one-shot goes at the start of the round, a "
                             "hazard too."));
    else if (sp->lair_at != 0 && sp->unique)
        sbuf_addf(b, i18n_get(lang, "Without `at:` a lair action or a "
                              "one-shot goes at count %lld, and a hazard "
                              "draws a card nobody holds."),
                  (long long)sp->lair_at);
    else if (sp->lair_at != 0 && hazard_roll != NULL)
        sbuf_addf(b, i18n_get(lang, "Without `at:` a lair action or a "
                              "one-shot goes at count %lld, and a hazard "
                              "rolls `%s` for its count."),
                  (long long)sp->lair_at, hazard_roll);
    else if (sp->lair_at != 0)
        sbuf_addf(b, i18n_get(lang, "Without `at:` a lair action or a "
                              "one-shot goes at count %lld, and a hazard "
                              "needs its `at:`."), (long long)sp->lair_at);
    else if (sp->unique)
        sbuf_add(b, i18n_get(lang, "Without `at:` a lair action or a "
                             "one-shot goes at the start of the round, and a "
                             "hazard draws a card nobody holds."));
    else if (hazard_roll != NULL)
        sbuf_addf(b, i18n_get(lang, "Without `at:` a lair action or a "
                              "one-shot goes at the start of the round, and "
                              "a hazard rolls `%s` for its count."),
                  hazard_roll);
    else
        sbuf_add(b, i18n_get(lang, "Without `at:` a lair action or a "
                             "one-shot goes at the start of the round, and a "
                             "hazard needs its `at:`."));
    sbuf_add(b, style == CMD_DOC_FILE ? "\n\n" : "\n");
}

/* For a reader whose Discord shows the names translated: one line saying
 * so, since the pages write the English names (which work everywhere,
 * the console's too). English says nothing. */
static void doc_names_note(struct sbuf *b, enum cmd_doc_style style,
                           enum i18n_lang lang)
{
    if (lang == I18N_EN)
        return;
    sbuf_addf(b, i18n_get(lang, "_Your Discord shows the commands and "
                          "options in your language (`/%s` for `/combat`); "
                          "the English names written here work too._"),
              i18n_pget(lang, I18N_CTX_NAME, "combat"));
    sbuf_add(b, style == CMD_DOC_FILE ? "\n\n" : "\n");
}

void cmd_doc_system(struct sbuf *b, const struct rs_system *rs,
                    enum cmd_doc_style style, enum i18n_lang lang)
{
    const struct rs_help *h = rs->help;
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "# %s (`%s`)\n\n<!-- Generated by `fray docs` from "
                     "the system's declaration; do not edit. -->\n\n",
                  tr(lang, rs->title), rs->id);
    if (h != NULL && h->kind != NULL)
        sbuf_addf(b, "%s\n\n", tr(lang, h->kind));
    else
        sbuf_addf(b, "%s.\n\n", tr(lang, rs->summary));
    if (h != NULL && h->turns != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## %s\n\n%s\n\n" : "**%s:** %s\n",
                  i18n_get(lang, "Turns"), tr(lang, h->turns));
    if (h != NULL && h->attacks != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## %s\n\n%s\n\n" : "**%s:** %s\n",
                  i18n_get(lang, "Attacks"), tr(lang, h->attacks));
    if (h != NULL && h->clock != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## %s\n\n%s\n\n" : "**%s:** %s\n",
                  i18n_get(lang, "Turn clock"), tr(lang, h->clock));
    doc_entries(b, rs, style, lang);
    if (rs->ncmds > 0) {
        if (style == CMD_DOC_FILE)
            sbuf_addf(b, "## %s\n\n", i18n_get(lang, "Commands"));
        else
            sbuf_addf(b, "\n**%s**\n", i18n_get(lang, "Commands of this "
                                                "system:"));
        doc_names_note(b, style, lang);
        for (int i = 0; i < rs->ncmds; i++) {
            struct cmd_spec v;
            if (cmd_lookup(rs->cmds[i].verb, rs->cmds[i].sub, rs, &v))
                cmd_doc_command(b, &v, style, lang);
        }
    }
    doc_extensions(b, rs, style, lang);
    doc_attack_opts(b, rs, style, lang);
    doc_conditions(b, rs, style, lang);
    doc_stats(b, rs, style, lang);
    if (style == CMD_DOC_FILE)
        doc_lasts(b, rs, lang);
    doc_settings(b, rs, style, lang);
    if (style == CMD_DOC_HELP) {
        sbuf_addc(b, '\n');
        sbuf_addf(b, i18n_get(lang, "Start one with `/combat start "
                              "system:%s`; the commands every fight uses: "
                              "`/help topic:combat`."), rs->id);
    }
}

void cmd_doc_core(struct sbuf *b, enum cmd_doc_style style,
                  enum i18n_lang lang)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    doc_names_note(b, style, lang);
    for (size_t i = 0; i < n; i++)
        cmd_doc_command(b, &t[i], style, lang);
    if (style == CMD_DOC_HELP) {
        sbuf_addc(b, '\n');
        sbuf_add(b, i18n_get(lang, "Each rule system has commands of its "
                             "own: `/help topic:<system>`."));
    }
}

void cmd_doc_systems(struct sbuf *b, enum cmd_doc_style style,
                     enum i18n_lang lang)
{
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        const char *kind = all[i]->help && all[i]->help->kind
                               ? all[i]->help->kind : all[i]->summary;
        if (style == CMD_DOC_FILE)
            sbuf_addf(b, "- [%s](%s.md) (`%s`): %s\n",
                      tr(lang, all[i]->title), all[i]->id, all[i]->id,
                      tr(lang, kind));
        else
            sbuf_addf(b, "**%s** (`%s`): %s\n", tr(lang, all[i]->title),
                      all[i]->id, tr(lang, kind));
    }
}
