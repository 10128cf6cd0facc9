/*
 * cfg_doc.c - the documents generated from the config schema (cfg.c): the
 * example file and the man page fray.conf(5).
 */
#include "cfg.h"

#include <string.h>

void cfg_write_example(FILE *f)
{
    struct cfg_key_doc k;
    const char *section = "";

    fputs("# fray.conf - configuration of `fray run --config PATH`.\n"
          "#\n"
          "# Generated from the schema in bot/daemon/cfg.c (tests/unit/bot/test_cfg.c\n"
          "# checks that it matches). Every key is optional; the value shown is\n"
          "# the default. Unknown keys are errors. The bot token is NOT set\n"
          "# here: use the systemd credential discord-token or $DISCORD_TOKEN.\n"
          "# Lines are limited to 198 bytes; repeat dev_guilds for more ids.\n\n",
          f);
    for (size_t i = 0; cfg_key_doc(i, &k); i++) {
        if (strcmp(section, k.section) != 0) {
            fprintf(f, "%s[%s]\n", i ? "\n" : "", k.section);
            section = k.section;
        }
        fprintf(f, "# %s\n", k.help);
        if (k.ranged)
            fprintf(f, "# range %lld..%lld\n", (long long)k.min,
                    (long long)k.max);
        fprintf(f, "%s = %s\n", k.name, k.def);
    }
}

/* Text for roff: a backslash is \e; a line never starts with . or ' (the
 * help strings are one line each, so only their first character). */
static void roff_text(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

void cfg_write_man(FILE *f)
{
    struct cfg_key_doc k;
    const char *section = "";

    fputs(".\\\" Generated from the schema in bot/daemon/cfg.c by cfg_write_man();\n"
          ".\\\" tests/unit/bot/test_cfg.c checks it (FRAY_REGEN=1 rewrites it).\n"
          ".TH FRAY.CONF 5 \"\" \"fray\" \"File Formats Manual\"\n"
          ".SH NAME\n"
          "fray.conf \\- configuration of the fray Discord bot\n"
          ".SH SYNOPSIS\n"
          ".I " FRAY_CONFDIR "/fray.conf\n"
          ".SH DESCRIPTION\n"
          ".B fray run \\-\\-config\n"
          ".I PATH\n"
          "reads its settings from an INI file:\n"
          ".B [section]\n"
          "lines, then\n"
          ".I key\n"
          "=\n"
          ".I value\n"
          "lines; a line starting with # or ; is a comment.\n"
          "The packaged service reads\n"
          ".IR " FRAY_CONFDIR "/fray.conf .\n"
          ".PP\n"
          "Every key is optional; the value shown below is the default.\n"
          "An unknown section or key is an error, and so is a value out of its\n"
          "range: fray refuses to start and names the file, the line and the key,\n"
          "so a typo never passes for a default.\n"
          "Lines are limited to 198 bytes.\n"
          ".B fray check \\-\\-config\n"
          ".I PATH\n"
          "checks a file without starting the bot.\n"
          ".PP\n"
          "The bot token is never set here: fray reads it from the systemd\n"
          "credential\n"
          ".B discord\\-token\n"
          "(which the service loads from\n"
          ".IR " FRAY_CONFDIR "/discord\\-token )\n"
          "or from\n"
          ".BR DISCORD_TOKEN .\n"
          "A PostgreSQL password belongs in\n"
          ".I ~/.pgpass\n"
          "or\n"
          ".BR PGPASSFILE ,\n"
          "not here.\n",
          f);
    for (size_t i = 0; cfg_key_doc(i, &k); i++) {
        if (strcmp(section, k.section) != 0) {
            fprintf(f, "%s[%s]\n", i ? ".SS " : ".SH KEYS\n.SS ", k.section);
            section = k.section;
        }
        fprintf(f, ".TP\n.B %s\n", k.name);
        roff_text(f, k.help);
        fputs(".\n.br\n", f);
        if (k.def[0]) {
            fputs("Default: ", f);
            roff_text(f, k.def);
        } else {
            fputs("Default: empty", f);
        }
        if (k.ranged)
            fprintf(f, "; range %lld to %lld", (long long)k.min,
                    (long long)k.max);
        fputs(".\n", f);
    }
    fputs(".SH FILES\n"
          ".TP\n"
          ".I " FRAY_CONFDIR "/fray.conf\n"
          "the service's configuration (a conffile of the Debian package)\n"
          ".TP\n"
          ".I " FRAY_CONFDIR "/discord\\-token\n"
          "the bot token, mode 0600, handed to the service as a credential\n"
          ".TP\n"
          ".I /usr/share/doc/fray/examples/fray.conf.example\n"
          "every key with its default, generated like this page\n"
          ".SH SEE ALSO\n"
          ".BR fray (1),\n"
          ".BR systemd.exec (5)\n",
          f);
}
