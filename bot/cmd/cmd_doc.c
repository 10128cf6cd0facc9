/*
 * cmd_doc.c - command reference text from the declarations (cmd_doc.h).
 */
#include "cmd_doc.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "eng_text.h"
#include "rs_kit.h"

#define EM_DASH "\xE2\x80\x94"

/* What kind of value an option takes, in a few words. */
static void opt_kind(struct sbuf *b, const struct rs_opt_spec *o)
{
    switch (o->type) {
    case RS_OPT_INTEGER:
        if (o->val == RS_VAL_COUNT)
            sbuf_addf(b, "a word that may repeat (at most %" PRId64 ")",
                      o->max);
        else
            sbuf_addf(b, "a whole number, %" PRId64 " to %" PRId64, o->min,
                      o->max);
        return;
    case RS_OPT_BOOLEAN:
        sbuf_add(b, o->val == RS_VAL_FLAG ? "a word on its own"
                                          : "true or false");
        return;
    case RS_OPT_CHANNEL:
        sbuf_add(b, "a channel");
        return;
    case RS_OPT_ATTACHMENT:
        sbuf_add(b, "a JSON file: attached on Discord, a path in the "
                    "console");
        return;
    case RS_OPT_ROLE:
        sbuf_add(b, "a role");
        return;
    case RS_OPT_STRING:
        break;
    }
    switch (o->val) {
    case RS_VAL_CHOICE:
        sbuf_add(b, "one of ");
        for (int i = 0; o->choices && o->choices[i]; i++)
            sbuf_addf(b, "%s`%s`", i ? ", " : "", o->choices[i]);
        return;
    case RS_VAL_COMBATANT:
        sbuf_add(b, "a combatant");
        return;
    case RS_VAL_OWN:
        sbuf_add(b, "a combatant you act for");
        return;
    case RS_VAL_SIDE:
        sbuf_add(b, "a side of the fight");
        return;
    case RS_VAL_SIDE_ANY:
        sbuf_add(b, "a side (new or existing)");
        return;
    case RS_VAL_DICE:
        sbuf_add(b, "dice, like `2d6+3`");
        return;
    case RS_VAL_DICE_MACRO:
        sbuf_add(b, "dice, like `2d6+3`, or a saved roll, like `@stealth+2`");
        return;
    case RS_VAL_MACRO:
        sbuf_add(b, "the name of a saved roll");
        return;
    case RS_VAL_CONDITION:
        sbuf_add(b, "a condition");
        return;
    default:
        sbuf_addf(b, "text, at most %" PRId64 " bytes", o->max);
        return;
    }
}

static void opts_list(struct sbuf *b, const struct rs_opt_spec *opts,
                      enum cmd_doc_style style, const char *indent)
{
    for (int i = 0; opts != NULL && opts[i].name != NULL; i++) {
        const struct rs_opt_spec *o = &opts[i];
        if (style == CMD_DOC_FILE) {
            sbuf_addf(b, "%s- `%s`%s: %s (", indent, o->name,
                      o->required ? " (required)" : "", o->help);
            opt_kind(b, o);
            sbuf_add(b, ")\n");
        } else {
            sbuf_addf(b, "%s`%s`%s", i ? ", " : "", o->name,
                      o->required ? "*" : "");
        }
    }
}

void cmd_doc_command(struct sbuf *b, const struct cmd_spec *spec,
                     enum cmd_doc_style style)
{
    char name[64];
    cmd_spec_name(spec, name, sizeof name);
    if (style == CMD_DOC_HELP) {
        sbuf_addf(b, "`%s` " EM_DASH " %s", name, spec->help);
        if ((spec->flags & CMD_F_GM_ONLY) && strncmp(spec->help, "GM:", 3))
            sbuf_add(b, " (GM)");
        sbuf_addc(b, '\n');
        return;
    }
    size_t hl = strlen(spec->help);
    bool says_gm = strncmp(spec->help, "GM:", 3) == 0;
    sbuf_addf(b, "### `%s`\n\n%s%s%s\n\n    %s\n\n", name, spec->help,
              (spec->flags & CMD_F_GM_ONLY) && !says_gm ? " (the GM only)"
                                                        : "",
              hl > 0 && spec->help[hl - 1] == '.' ? "" : ".", spec->example);
    if (spec->opts != NULL && spec->opts[0].name != NULL) {
        sbuf_add(b, "Options:\n\n");
        opts_list(b, spec->opts, style, "");
        sbuf_addc(b, '\n');
    }
}

static void doc_conditions(struct sbuf *b, const struct rs_system *rs,
                           enum cmd_doc_style style)
{
    int n = 0;
    const struct rs_cond_spec *c = rs_cond_specs(rs, NULL, &n);
    if (n == 0)
        return;
    sbuf_add(b, style == CMD_DOC_FILE ? "## Conditions\n\n"
                                      : "\n**Conditions:** ");
    for (int i = 0; i < n; i++) {
        if (c[i].flags & RS_COND_SYSTEM)
            continue;
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s%s", i ? ", " : "", c[i].name);
            continue;
        }
        sbuf_addf(b, "- **%s**: %s", c[i].name, c[i].help);
        if (c[i].start != 0)
            sbuf_addf(b, "; starts at %d", (int)c[i].start);
        if (c[i].flags & RS_COND_STACKS)
            sbuf_add(b, "; stacks");
        if (c[i].cap > 0)
            sbuf_addf(b, " up to %d", (int)c[i].cap);
        if (c[i].rounds > 0)
            sbuf_addf(b, "; lasts %d round%s", (int)c[i].rounds,
                      c[i].rounds == 1 ? "" : "s");
        if (c[i].flags & RS_COND_LASTS)
            sbuf_add(b, (c[i].flags & RS_COND_REST)
                            ? "; outlasts the fight: a saved character "
                              "keeps it until it rests (`/character rest`)"
                            : "; outlasts the fight: a saved character "
                              "keeps it");
        if (c[i].flags & RS_COND_TIMED)
            sbuf_add(b, "; its rules fix how long it lasts, so `rounds:`, "
                     "`until:` and `ends:` are refused");
        sbuf_add(b, "\n");
    }
    sbuf_add(b, style == CMD_DOC_FILE ? "\n" : "\n");
}

/* What a saved character keeps (cmd_writeback.c): its tracks, lasting
 * conditions and the stats rs_system.lasts names, each with the chapter's
 * words. */
static void doc_lasts(struct sbuf *b, const struct rs_system *rs)
{
    sbuf_add(b, "## What a saved character keeps\n\n"
                "When a fight ends, a saved character that joined it keeps "
                "its tracks as the fight left them");
    int n = 0;
    const struct rs_cond_spec *c = rs_cond_specs(rs, NULL, &n);
    bool conds = false;
    for (int i = 0; i < n; i++)
        conds |= (c[i].flags & RS_COND_LASTS) != 0;
    sbuf_add(b, conds ? " and the conditions above that outlast the fight"
                      : "");
    if (rs->lasts == NULL || rs->lasts[0].stat == NULL) {
        sbuf_add(b, "; nothing else in this system's rules lasts.\n\n");
        return;
    }
    sbuf_add(b, ", and:\n\n");
    for (const struct rs_lasting *l = rs->lasts; l->stat != NULL; l++) {
        if (strcmp(l->stat, RS_LAST_ALL) == 0)
            sbuf_add(b, "- every stat on its sheet, as the fight left it");
        else if (l->stat[0] == '*')
            sbuf_addf(b, "- every `<name>%s` stat, as the fight left it",
                      l->stat + 1);
        else
            sbuf_addf(b, "- `%s`, as the fight left it (gone from the "
                         "sheet when the fight lost it)", l->stat);
        if (l->flags & RS_LAST_REST)
            sbuf_addf(b, ", until it rests: `/character rest` sets it to "
                         "%" PRId64, l->rest);
        sbuf_addf(b, ". The rules: \"%s\"\n", l->why);
    }
    sbuf_add(b, "\n");
}

/* Which tracks damage changes (rs_system.harm): what the end's summary
 * and /combat log count as damage taken. */
static void doc_harm(struct sbuf *b, const struct rs_system *rs)
{
    const struct rs_harm_spec *h = rs->harm;
    if (h == NULL || h[0].track == NULL)
        return;
    bool many = h[1].track != NULL;
    sbuf_addf(b, "\nDamage %s `%s`", h[0].up ? "adds to" : "takes",
              h[0].track);
    for (int k = 1; h[k].track != NULL; k++)
        sbuf_addf(b, "%s`%s`", h[0].up ? " or " : ", then ", h[k].track);
    sbuf_addf(b, "; the end's summary and `/combat log` count what %s %s as "
                 "damage taken%s.\n", many ? "each" : "it",
              h[0].up ? "gained" : "lost",
              many ? ", by track when more than one took some" : "");
}

static void doc_stats(struct sbuf *b, const struct rs_system *rs,
                      enum cmd_doc_style style)
{
    if (rs->stats == NULL || rs->stats[0].name == NULL)
        return;
    sbuf_add(b, style == CMD_DOC_FILE
                    ? "## Stats\n\nGiven as `stats:\"name=value ...\"` to "
                      "`/combat join`, `/combat add` or `/combat set`.\n\n"
                    : "\n**Stats** (`stats:`): ");
    for (const struct rs_stat_spec *p = rs->stats; p->name; p++) {
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s`%s`", p == rs->stats ? "" : ", ", p->name);
            continue;
        }
        sbuf_addf(b, "- `%s`: %s (%" PRId64 " to %" PRId64 "%s)\n", p->name,
                  p->help, p->min, p->max,
                  p->kind == RS_TRACK ? "; a track: its current value "
                                        "goes down and back up"
                  : p->kind == RS_POOL ? "; a pool with no maximum, gone "
                                         "when spent" : "");
    }
    if (style == CMD_DOC_FILE && (rs->flags & RS_F_OPEN_STATS))
        sbuf_add(b, "- any other name: kept as written, for the GM\n");
    if (style == CMD_DOC_FILE)
        doc_harm(b, rs);
    sbuf_add(b, "\n");
}

static void doc_settings(struct sbuf *b, const struct rs_system *rs,
                         enum cmd_doc_style style)
{
    if (rs->settings == NULL || rs->settings[0].key == NULL)
        return;
    sbuf_add(b, style == CMD_DOC_FILE
                    ? "## Settings\n\nGiven when the fight starts: "
                      "`/combat start settings:\"key=value\"`.\n\n"
                    : "\n**Settings** (`/combat start settings:`): ");
    for (const struct rs_setting_spec *p = rs->settings; p->key; p++) {
        if (style == CMD_DOC_HELP) {
            sbuf_addf(b, "%s`%s`", p == rs->settings ? "" : ", ", p->key);
            continue;
        }
        sbuf_addf(b, "- `%s`: %s", p->key, p->help);
        if (p->type == RS_SET_INT)
            sbuf_addf(b, " (%" PRId64 " to %" PRId64 ")", p->min, p->max);
        else if (p->type == RS_SET_BOOL)
            sbuf_add(b, " (on or off)");
        else if (p->type == RS_SET_DICE)
            sbuf_add(b, " (dice)");
        else
            for (int i = 0; p->choices && p->choices[i]; i++)
                sbuf_addf(b, "%s`%s`%s", i ? ", " : " (", p->choices[i],
                          p->choices[i + 1] ? "" : ")");
        if (p->dflt != NULL)
            sbuf_addf(b, "; default %s", p->dflt);
        sbuf_add(b, "\n");
    }
    sbuf_add(b, "\n");
}

static void doc_extensions(struct sbuf *b, const struct rs_system *rs,
                           enum cmd_doc_style style)
{
    if (rs->exts == NULL || rs->exts[0].command == NULL)
        return;
    if (style == CMD_DOC_FILE)
        sbuf_add(b, "## Options on the core commands\n\n");
    for (const struct rs_ext *x = rs->exts; x->command != NULL; x++) {
        if (style == CMD_DOC_FILE) {
            sbuf_addf(b, "`/%s`:\n\n", x->command);
            opts_list(b, x->opts, style, "");
            sbuf_addc(b, '\n');
        } else {
            sbuf_addf(b, "`/%s` also takes ", x->command);
            opts_list(b, x->opts, style, "");
            sbuf_addc(b, '\n');
        }
    }
}

/* What the system's area declaration (rs.h struct rs_area) means for
 * the target picker. */
static void doc_area(struct sbuf *b, const struct rs_system *rs,
                     enum cmd_doc_style style)
{
    const struct rs_area *a = rs->area;
    if (a == NULL)
        return;
    sbuf_add(b, style == CMD_DOC_FILE ? "**Area attacks.** "
                                      : "**Area attacks:** ");
    for (int i = 0; a->when[i] != NULL; i++)
        sbuf_addf(b, "%s`%s=`", i == 0 ? "" : a->when[i + 1] ? ", " : " or ",
                  a->when[i]);
    sbuf_addf(b, " make an attack hit several targets. Leave `target:` out "
                 "and the list lets you choose up to %d at once (fewer if "
                 "the list is shorter); the first you choose is `target:`, "
                 "the others go into `%s=`.\n%s", a->max_targets, a->more,
              style == CMD_DOC_FILE ? "\n" : "");
}

static void doc_attack_opts(struct sbuf *b, const struct rs_system *rs,
                            enum cmd_doc_style style)
{
    if (rs->attack_opts == NULL || rs->attack_opts[0].name == NULL)
        return;
    if (style == CMD_DOC_FILE) {
        sbuf_add(b, "## `/attack` options\n\nWritten in `options:` as words "
                    "and `key=value` pairs, like `options:\"");
        sbuf_addf(b, "%s\"`.\n\n", rs->attack_opts[0].name);
        opts_list(b, rs->attack_opts, style, "");
        sbuf_addc(b, '\n');
    } else {
        sbuf_add(b, "\n**`/attack options:`** ");
        opts_list(b, rs->attack_opts, style, "");
        sbuf_addc(b, '\n');
    }
    doc_area(b, rs, style);
}

/* Where events of the order (/combat event) go in this system, from its
 * declaration (rs_system.entries): the reason and the defaults. */
static void doc_entries(struct sbuf *b, const struct rs_system *rs,
                        enum cmd_doc_style style)
{
    const struct rs_entry_spec *sp = rs->entries;
    if (sp == NULL)
        return;
    /* the reason is also a refusal's clause: capitalised here */
    sbuf_addf(b, style == CMD_DOC_FILE ? "## Events of the order\n\n%c%s. "
                                       : "**Events (`/combat event`):** "
                                         "%c%s. ",
              toupper((unsigned char)sp->why[0]), sp->why + 1);
    if (sp->counts && sp->lair_at != 0)
        sbuf_addf(b, "Without `at:` a lair action or a one-shot goes at "
                     "count %lld", (long long)sp->lair_at);
    else
        sbuf_add(b, "Without `at:` a lair action or a one-shot goes at "
                    "the start of the round");
    if (sp->counts && sp->unique)
        sbuf_add(b, ", and a hazard draws a card nobody holds");
    else if (sp->counts && sp->hazard_roll != NULL)
        sbuf_addf(b, ", and a hazard rolls `%s` for its count",
                  sp->hazard_roll);
    else if (sp->counts)
        sbuf_add(b, ", and a hazard needs its `at:`");
    else
        sbuf_add(b, ", a hazard too");
    sbuf_add(b, style == CMD_DOC_FILE ? ".\n\n" : ".\n");
}

void cmd_doc_system(struct sbuf *b, const struct rs_system *rs,
                    enum cmd_doc_style style)
{
    const struct rs_help *h = rs->help;
    if (style == CMD_DOC_FILE)
        sbuf_addf(b, "# %s (`%s`)\n\n<!-- Generated by `fray docs` from "
                     "the system's declaration; do not edit. -->\n\n",
                  rs->title, rs->id);
    if (h != NULL && h->kind != NULL)
        sbuf_addf(b, "%s\n\n", h->kind);
    else
        sbuf_addf(b, "%s.\n\n", rs->summary);
    if (h != NULL && h->turns != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## Turns\n\n%s\n\n"
                                           : "**Turns:** %s\n", h->turns);
    if (h != NULL && h->attacks != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## Attacks\n\n%s\n\n"
                                           : "**Attacks:** %s\n", h->attacks);
    if (h != NULL && h->clock != NULL)
        sbuf_addf(b, style == CMD_DOC_FILE ? "## Turn clock\n\n%s\n\n"
                                           : "**Turn clock:** %s\n", h->clock);
    doc_entries(b, rs, style);
    if (rs->ncmds > 0) {
        sbuf_add(b, style == CMD_DOC_FILE ? "## Commands\n\n"
                                          : "\n**Commands of this system:**\n");
        for (int i = 0; i < rs->ncmds; i++) {
            struct cmd_spec v;
            if (cmd_lookup(rs->cmds[i].verb, rs->cmds[i].sub, rs, &v))
                cmd_doc_command(b, &v, style);
        }
    }
    doc_extensions(b, rs, style);
    doc_attack_opts(b, rs, style);
    doc_conditions(b, rs, style);
    doc_stats(b, rs, style);
    if (style == CMD_DOC_FILE)
        doc_lasts(b, rs);
    doc_settings(b, rs, style);
    if (style == CMD_DOC_HELP)
        sbuf_addf(b, "\nStart one with `/combat start system:%s`; the "
                     "commands every fight uses: `/help topic:combat`.",
                  rs->id);
}

void cmd_doc_core(struct sbuf *b, enum cmd_doc_style style)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++)
        cmd_doc_command(b, &t[i], style);
    if (style == CMD_DOC_HELP)
        sbuf_add(b, "\nEach rule system has commands of its own: "
                    "`/help topic:<system>`.");
}

void cmd_doc_systems(struct sbuf *b, enum cmd_doc_style style)
{
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        const char *kind = all[i]->help && all[i]->help->kind
                               ? all[i]->help->kind : all[i]->summary;
        if (style == CMD_DOC_FILE)
            sbuf_addf(b, "- [%s](%s.md) (`%s`): %s\n", all[i]->title,
                      all[i]->id, all[i]->id, kind);
        else
            sbuf_addf(b, "**%s** (`%s`): %s\n", all[i]->title, all[i]->id,
                      kind);
    }
}
