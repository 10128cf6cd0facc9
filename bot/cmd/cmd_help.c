/*
 * cmd_help.c - /help: short pages that fit one embed.
 *
 * The command list is drawn from the command table itself, so /help can
 * never disagree with what the bot accepts; the prose pages are ours.
 */
#include <stdio.h>
#include <string.h>

#include "cmd_run.h"
#include "eng_text.h"
#include "rs.h"
#include "sbuf.h"

/* Longest help page, in bytes: one embed description. */
#define HELP_MAX_PAGE 4000

struct help_page {
    const char *topic;
    const char *title;
    const char *text;
};

static const struct help_page pages[] = {
    {"quickstart", "fray in one minute",
     "**1.** The GM starts a fight: `/combat start system:generic`\n"
     "**2.** The GM adds NPCs: `/combat add name:Goblin count:3 hp:7 "
     "stats:\"ac=13 init=2\"`\n"
     "**3.** Players join: `/combat join name:Aria hp:24 "
     "stats:\"ac=15 init=3 attack=5\"`\n"
     "**4.** The GM rolls initiative: `/combat begin`\n"
     "**5.** On your turn: `/attack target:\"Goblin 1\" damage:1d8+3`, "
     "then `/combat next`\n"
     "**6.** Mistake? The GM uses `/combat undo`. Done? `/combat end`.\n\n"
     "More: `/help topic:dice`, `/help topic:combat`, "
     "`/help topic:permissions`, and one page per system "
     "(`/help topic:generic`)."},
    {"dice", "Dice",
     "`2d6+3` two six-sided dice plus 3 \xC2\xB7 `d20` one die \xC2\xB7 "
     "`d%` percentile \xC2\xB7 `4dF` Fudge dice \xC2\xB7 `3D+1` three d6 "
     "plus 1\n"
     "**Keep/drop:** `4d6kh3` keep the highest 3, `2d20kl1` keep the "
     "lowest, `dh`/`dl` drop \xC2\xB7 `1d20+5 adv` / `dis`\n"
     "**Exploding:** `3d6!` rolls again on a 6; `!>=5` on 5 or more\n"
     "**Rerolls:** `2d6r1` reroll ones (again and again), `ro1` only once, "
     "`r<3` below 3\n"
     "**Successes:** `10d10>=8` counts dice of 8 or more; add `f1` to "
     "subtract ones\n"
     "**Label and repeat:** `2d6+3 # longsword` \xC2\xB7 `6x 4d6kh3` six "
     "separate rolls\n"
     "Limits: 1000 dice per roll, 10000 sides, 256 characters."},
    {"permissions", "Who may do what",
     "The **GM** is whoever started the fight, and anyone with "
     "Administrator or Manage Channels. The GM may do everything.\n"
     "A **player** acts only for their own characters: join, end their "
     "own turn, attack with them, change their own hp, conditions and "
     "notes.\n"
     "Hidden NPCs show only a health label (healthy, hurt, bloodied, down) "
     "to players; the GM sees the numbers with `/combat status "
     "private:true`."},
};

size_t cmd_help_topics(const char **out, size_t max)
{
    size_t n = 0, nrs;
    for (size_t i = 0; i < sizeof pages / sizeof pages[0] && n < max; i++)
        out[n++] = pages[i].topic;
    if (n < max)
        out[n++] = "combat";
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t i = 0; i < nrs && n < max; i++)
        out[n++] = all[i]->id;
    return n;
}

/* How a turn goes in each ruleset, in a few lines (from docs/rulesets/). */
static const struct {
    const char *id;
    const char *turns;
} rs_turns[] = {
    {"generic",
     "Everyone rolls d20 + init once; turns go from the highest to the "
     "lowest, the same order every round. On your turn `/attack` rolls d20 + "
     "attack against the target's ac; `/combat next` ends it. A combatant at "
     "0 hp is down and skips their turns."},
    {"teams",
     "Each round the teams alternate: the team whose turn it is picks a "
     "member who has not acted (`/combat pick`); that member has three "
     "actions (`/act`, `/attack`) and one reaction out of turn (`/react`), "
     "then play passes to the next team (`/combat next`). Damage comes off "
     "endurance, then health; too much health lost means a test to stay "
     "conscious (`/test kind:fortify` or `/fall`)."},
    {"factions",
     "Factions take turns activating one character at a time "
     "(`/combat pick`) or pass (`/combat pass`); the round ends when every "
     "faction has passed or nobody is left to act. A reaction (`/react`) "
     "uses up the character's turn for the round. Saves roll 1d20 under "
     "STR, AGI or WIT (`/test`); morale is checked at the end of each "
     "round."},
    {"resolve",
     "Everyone acts once a round in a fixed order of initiative scores. A "
     "turn is a Move and an Action (`/move`, `/attack`, `/act`); attacks "
     "roll a d6 pool against Defense, and damage less armour comes off "
     "Resolve. At Resolve 0 a character is Wounded; hurt again, they face "
     "a Fallen Fate (`/fate`)."},
    {"cards",
     "Everyone draws a card from 1 to 10 when the fight begins and keeps "
     "it: the lowest card acts first, the same order every round. A turn is "
     "one slow and one fast maneuver, or two fast ones (`/maneuver`); "
     "reactions (`/react`) are fast maneuvers used any time in the round. "
     "Tests roll d6 pools and count the sixes."},
    {"tactical",
     "Initiative is rolled once; turns go from the highest to the lowest, "
     "the same order every round. Each turn has action points (3 unless the "
     "GM set `ap`) that attacks and actions spend (`/act`, `/attack`). "
     "Tests are d6 pools counting 4 or more; attack effects leave pending "
     "tests on the target (`/effect trigger`)."},
};

/* The commands every fight uses; each system's own are on its page. */
static void help_commands(struct sbuf *b)
{
    size_t n;
    const struct cmd_spec *t = cmd_table(&n);
    for (size_t i = 0; i < n; i++)
        if (t[i].handler != cmd_rs_action)
            sbuf_addf(b, "`/%s%s%s` \xE2\x80\x94 %s\n", t[i].command,
                      t[i].sub ? " " : "", t[i].sub ? t[i].sub : "",
                      t[i].help);
    sbuf_add(b, "\nEach rule system has commands of its own: "
                "`/help topic:<system>`.");
}

/* A verb's one-line help from the table. A line shared by several systems
 * reads "Teams: this; cards: that": only this system's part is shown, and
 * a leading "<System>: " is dropped (the page is about that system). */
static void help_verb(struct sbuf *b, const struct rs_system *rs,
                      const char *verb)
{
    char command[32], sub[32] = "", part[128];
    if (sscanf(verb, "%31s %31s", command, sub) < 1)
        return;
    const struct cmd_spec *spec = cmd_table_find(command, sub[0] ? sub
                                                                 : NULL);
    const char *help = spec != NULL ? spec->help : "";
    size_t idlen = strlen(rs->id);
    for (const char *p = help; *p != '\0'; p++) {
        bool starts = p == help || (p - help >= 2 && p[-2] == ';' &&
                                    p[-1] == ' ');
        if (!starts || eng_text_ncasecmp(p, rs->id, idlen) != 0 ||
            strncmp(p + idlen, ": ", 2) != 0)
            continue;
        const char *start = p + idlen + 2;
        size_t n = strcspn(start, ";");
        snprintf(part, sizeof part, "%.*s", (int)n, start);
        if (part[0] >= 'a' && part[0] <= 'z')
            part[0] = (char)(part[0] - 'a' + 'A');
        help = part;
        break;
    }
    sbuf_addf(b, "`/%s`%s%s\n", verb, help[0] ? " \xE2\x80\x94 " : "", help);
}

static bool help_system(struct sbuf *b, const char *topic, const char **title)
{
    const struct rs_system *rs = rs_find(topic);
    if (rs == NULL)
        return false;
    *title = rs->title;
    sbuf_addf(b, "**In short:** %s.\n\n", rs->summary);
    const char *turns = NULL;
    for (size_t i = 0; i < sizeof rs_turns / sizeof rs_turns[0]; i++)
        if (eng_text_casecmp(rs_turns[i].id, rs->id) == 0)
            turns = rs_turns[i].turns;
    if (turns != NULL)
        sbuf_addf(b, "**Turns:** %s\n", turns);
    else if (rs->flags & RS_F_ALTERNATING)
        sbuf_add(b, "**Turns:** sides take turns: the acting side picks who "
                    "goes with `/combat pick name:`, or passes with "
                    "`/combat pass`.\n");
    else
        sbuf_add(b, "**Turns:** initiative order; `/combat next` ends the "
                    "current turn.\n");
    if (rs->verbs != NULL && rs->verbs[0] != NULL) {
        sbuf_add(b, "\n**Commands of this system:**\n");
        for (const char *const *v = rs->verbs; *v != NULL; v++)
            help_verb(b, rs, *v);
    }
    sbuf_addf(b, "\nStart one with `/combat start system:%s`; the commands "
                 "every fight uses: `/help topic:combat`.", rs->id);
    return true;
}

void cmd_help(struct cmd_run *run)
{
    const char *topic = cmd_req_opt(run->req, "topic");
    if (topic == NULL)
        topic = "quickstart";
    struct sbuf b;
    sbuf_init(&b, HELP_MAX_PAGE);
    const char *title = NULL;
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        if (eng_text_casecmp(pages[i].topic, topic) == 0) {
            title = pages[i].title;
            sbuf_add(&b, pages[i].text);
        }
    }
    if (title == NULL && (eng_text_casecmp(topic, "combat") == 0 ||
                          eng_text_casecmp(topic, "commands") == 0)) {
        title = "Commands";
        help_commands(&b);
    }
    if (title == NULL && !help_system(&b, topic, &title)) {
        char systems[128];
        rs_ids(systems, sizeof systems);
        cmd_fail(run, "no help on `%.32s`; topics are quickstart, dice, "
                 "combat, permissions, and the systems: %s", topic, systems);
        sbuf_cleanup(&b);
        return;
    }
    struct msg_embed *em = msg_add_embed(&run->reply->msg, MSG_STYLE_INFO,
                                         title);
    if (em != NULL)
        msg_embed_set_description(em, sbuf_str(&b));
    run->reply->ephemeral = true;
    sbuf_cleanup(&b);
}
