/*
 * cmd_help.c - /help: short pages that fit one embed.
 *
 * The command lists and each system's page are generated from the
 * declarations (cmd_doc.c), so /help can never disagree with what the bot
 * accepts; the prose pages are ours.
 *
 * /help is a private reply, so it speaks the reader's language
 * (req.lang, docs/internals/i18n.md; the console's --lang): every page,
 * and the command lists cmd_doc.c writes in that language. Command and
 * option names stay the English ones, which work in every language; a
 * list says once what the reader's Discord shows instead.
 */
#include <stdio.h>
#include <string.h>

#include "cmd_doc.h"
#include "cmd_run.h"
#include "cmd_srvcond.h"
#include "eng_text.h"
#include "rs.h"
#include "sbuf.h"

/* Longest help page, in bytes. A page longer than one embed is folded
 * into several by the Discord renderer. */
#define HELP_MAX_PAGE (64 * 1024)

struct help_page {
    const char *topic;
    const char *title;
    const char *text;
};

static const struct help_page pages[] = {
    {"quickstart", N_("fray in one minute"),
     N_("**1.** The GM starts a fight: `/combat start system:generic`\n"
     "**2.** The GM adds NPCs: `/combat add name:Goblin count:3 hp:7 "
     "stats:\"ac=13 init=2\"`\n"
     "**3.** Players join: `/combat join name:Aria hp:24 "
     "stats:\"ac=15 init=3 attack=5\"`\n"
     "**4.** The GM rolls initiative: `/combat begin`\n"
     "**5.** On your turn: `/attack target:\"Goblin 1\" damage:1d8+3` "
     "(or **Attack** on that goblin's row of the tracker), then "
     "`/combat next`\n"
     "**6.** Mistake? The GM uses `/combat undo`. Done? `/combat end`.\n"
     "**Forms:** send `/character create`, `/combat add`, `/combat join`, "
     "`/npc create`, `/macro save` or an import with no options and fray "
     "asks in a form.\n"
     "**A screen for the table or the stream:** the GM's `/combat share` "
     "gives a link to a live page of the fight, as players see it.\n\n"
     "More: `/help topic:dice`, `/help topic:combat`, "
     "`/help topic:permissions`, `/help topic:systems` and one page per "
     "system (`/help topic:generic`).")},
    {"dice", N_("Dice"),
     N_("`2d6+3` two six-sided dice plus 3 \xC2\xB7 `d20` one die \xC2\xB7 "
     "`d%` percentile \xC2\xB7 `4dF` Fudge dice \xC2\xB7 `3D+1` three d6 "
     "plus 1\n"
     "**Keep/drop:** `4d6kh3` keep the highest 3, `2d20kl1` keep the "
     "lowest, `dh`/`dl` drop \xC2\xB7 `1d20+5 adv` / `dis`\n"
     "**Exploding:** `3d6!` rolls again on a 6; `!>=5` on 5 or more\n"
     "**Rerolls:** `2d6r1` reroll ones (again and again), `ro1` only once, "
     "`r<3` below 3\n"
     "**Min/max:** `1d20min10` a die under 10 counts as 10, `2d6max4` "
     "over 4 as 4\n"
     "**Successes:** `10d10>=8` counts dice of 8 or more; add `f1` to "
     "subtract ones\n"
     "**Label and repeat:** `2d6+3 fire` or `2d6+3 # longsword` \xC2\xB7 "
     "`6x 4d6kh3` six separate rolls\n"
     "**Saved rolls:** `/macro save name:stealth dice:\"1d20+7 # "
     "Stealth\"`, then `/roll dice:@stealth`, `@stealth+2` or "
     "`@stealth adv`; yours work everywhere, DMs too, and server managers "
     "add `server:true` for everyone (`/macro list`, `/macro delete`)\n"
     "**A roll's menus:** right-click (long-press) a roll fray posted, "
     "then Apps: **Reroll** rolls its dice again with a link to it, "
     "**Explain** shows you alone every die, modifier and the total, "
     "**Apply damage** (the fight's GM) asks who takes the total (one "
     "or more) and "
     "applies it by the system's rules. fray keeps rolls for 7 days "
     "(the console: a channel's last 100). In the console: `/reroll`, "
     "`/explain`, `/apply`\n"
     "Limits: 1000 dice per roll, 10000 sides, 256 characters.")},
    {"permissions", N_("Who may do what"),
     N_("The **GM** is whoever started the fight, and anyone with "
     "Administrator, or Manage Channels in the fight's channel. The GM "
     "may do everything in that fight.\n"
     "**Server settings** (`/config`) need Manage Server or "
     "Administrator: Manage Channels may be granted on one channel only, "
     "so it never changes anything for the whole server. The same goes "
     "for server-wide saved rolls (`/macro save server:true`); a "
     "player's own saved rolls are theirs alone, and for a server's own "
     "conditions (`/config condition:`, `delete-condition:`, "
     "`export-conditions:`, `file:`): anyone reads them with `/help "
     "topic:conditions` and a GM gives them in a fight like any "
     "condition, for their saved rounds.\n"
     "A **player** acts only for their own characters: join, end their "
     "own turn, attack with them, change their own hp, conditions and "
     "notes. In a fight that trusts its players (`/combat settings "
     "trust:true`) they may also change the hp and conditions of anyone "
     "they can see. Otherwise such a change goes to the GM as a "
     "**proposal** with Approve and Reject buttons (`/combat proposal "
     "approve:N` typed); it lapses when the turn moves on, and servers "
     "choose with `/config proposals:` and `proposal-expiry:`.\n"
     "A roll's **Reroll** and **Explain** are anyone's who sees the roll "
     "(a secret roll only its roller's); **Apply damage** is the GM's.\n"
     "Hidden NPCs show only a health label (healthy, hurt, bloodied, down) "
     "to players; the GM sees the numbers with `/combat status "
     "private:true`.")},
};

size_t cmd_help_topics(const char **out, size_t max)
{
    size_t n = 0, nrs;
    for (size_t i = 0; i < sizeof pages / sizeof pages[0] && n < max; i++)
        out[n++] = pages[i].topic;
    if (n < max)
        out[n++] = "combat";
    if (n < max)
        out[n++] = "conditions";
    if (n < max)
        out[n++] = "systems";
    const struct rs_system *const *all = rs_all(&nrs);
    for (size_t i = 0; i < nrs && n < max; i++)
        out[n++] = all[i]->id;
    return n;
}

void cmd_help(struct cmd_run *run)
{
    const char *topic = cmd_req_opt(run->req, "topic");
    enum i18n_lang lang = run->req->lang;
    if (topic == NULL)
        topic = "quickstart";
    struct sbuf b;
    sbuf_init(&b, HELP_MAX_PAGE);
    const char *title = NULL;
    const struct rs_system *rs = rs_find(topic);
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        if (eng_text_casecmp(pages[i].topic, topic) == 0) {
            title = i18n_get(lang, pages[i].title);
            sbuf_add(&b, i18n_get(lang, pages[i].text));
        }
    }
    if (title == NULL && eng_text_casecmp(topic, "conditions") == 0) {
        title = i18n_get(lang, "This server's conditions");
        cmd_srvcond_help(run->ctx, run->req->guild_id, &b);
    } else if (title == NULL && (eng_text_casecmp(topic, "combat") == 0 ||
                          eng_text_casecmp(topic, "commands") == 0)) {
        title = i18n_get(lang, "Commands");
        cmd_doc_core(&b, CMD_DOC_HELP, lang);
    } else if (title == NULL && eng_text_casecmp(topic, "systems") == 0) {
        title = i18n_get(lang, "Rule systems");
        cmd_doc_systems(&b, CMD_DOC_HELP, lang);
    } else if (title == NULL && rs != NULL) {
        title = i18n_get(lang, rs->title);
        cmd_doc_system(&b, rs, CMD_DOC_HELP, lang);
    }
    if (title == NULL) {
        char systems[256];
        cmd_system_ids(systems, sizeof systems);
        cmd_fail(run, i18n_get(lang, N_("no help on `%.32s`; topics are "
                                        "quickstart, dice, combat, "
                                        "permissions, systems, and each "
                                        "system: %s")),
                 topic, systems);
        sbuf_cleanup(&b);
        return;
    }
    /* Installed by the user alone, or a DM with the bot: no fight to
     * run there; say what works. */
    if (run->req->source == CMD_SRC_DISCORD && run->req->user_install &&
        run->req->guild_id != 0 && eng_text_casecmp(topic, "quickstart") == 0)
        msg_set_content(&run->reply->msg, "%s",
                        i18n_get(lang, N_("fray is installed here by you, "
                        "not in this server: you can `/roll` dice (and "
                        "Reroll or Explain them from the roll's menu), keep "
                        "your saved rolls (`/macro`), read your characters "
                        "(`/character show`, `/character list`) and `/help`. "
                        "Fights need fray added to the server.")));
    else if (run->req->source == CMD_SRC_DISCORD && run->req->guild_id == 0 &&
             eng_text_casecmp(topic, "quickstart") == 0)
        msg_set_content(&run->reply->msg, "%s",
                        i18n_get(lang, N_("Here, in a DM with fray, you can "
                        "`/roll` dice (Reroll and Explain are on a roll's "
                        "menu), keep your saved rolls (`/macro`) and "
                        "read `/help`. Fights run in a server's channel, as "
                        "below.")));
    struct msg_embed *em = msg_add_embed(&run->reply->msg, MSG_STYLE_INFO,
                                         title);
    if (em != NULL)
        msg_embed_set_description(em, sbuf_str(&b));
    run->reply->ephemeral = true;
    sbuf_cleanup(&b);
}
