/*
 * cmd_script.c - command matrices read from tests/data (cmd_script.h).
 */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "cmd_script.h"
#include "cmd_validate.h"
#include "render_text.h"
#include "sbuf.h"
#include "store.h"

int script_split_tabs(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            f[n++] = p + 1;
        }
    return n;
}

const struct script_setup *script_setup_find(const struct script_setups *ss,
                                             const char *name)
{
    for (int i = 0; i < ss->n; i++)
        if (strcmp(ss->s[i].name, name) == 0)
            return &ss->s[i];
    return NULL;
}

void script_setup_add(struct script_setups *ss, char *const *f)
{
    struct script_setup *s =
        (struct script_setup *)script_setup_find(ss, f[1]);
    if (s == NULL) {
        assert_true(ss->n < SCRIPT_MAX_SETUPS);
        s = &ss->s[ss->n++];
        snprintf(s->name, sizeof s->name, "%s", f[1]);
    }
    assert_true(s->n < SCRIPT_MAX_SETUP_LINES);
    snprintf(s->actor[s->n], sizeof s->actor[0], "%s", f[2]);
    s->line[s->n++] = f[3];
}

void script_text(const struct msg *m, char *out, size_t cap)
{
    struct sbuf b;
    sbuf_init(&b, RENDER_TEXT_MAX);
    render_text(m, NULL, &b);
    snprintf(out, cap, "%s", sbuf_error(&b) == SBUF_OK ? sbuf_str(&b) : "?");
    sbuf_cleanup(&b);
}

void script_req(struct cmd_parsed *p, const char *line, uint64_t user)
{
    char err[CMD_VALIDATE_ERR_MAX];
    if (!cmd_parse_line(p, line, strlen(line), err, sizeof err))
        fail_msg("cannot parse \"%s\": %s", line, err);
    p->req.source = CMD_SRC_DISCORD;
    p->req.channel_id = SCRIPT_CHANNEL;
    p->req.guild_id = SCRIPT_GUILD;
    p->req.user_id = user;
    p->req.user_name = "someone";
    p->req.perms = 0;
    p->req.perms_known = true;
    p->req.expect_version = -1;
    p->req.now_ms = SCRIPT_NOW_MS;
}

uint64_t script_actor(const char *name)
{
    if (strcmp(name, "gm") == 0)
        return SCRIPT_GM;
    if (strcmp(name, "p1") == 0)
        return SCRIPT_P1;
    if (strcmp(name, "p2") == 0)
        return SCRIPT_P2;
    if (strcmp(name, "admin") == 0)
        return SCRIPT_ADMIN;
    fail_msg("unknown actor %s", name);
    return 0;
}

void script_cell_step(struct script_cell *c, const char *line, uint64_t user,
                      script_reply_fn *check, void *arg)
{
    char text[4096];
    struct cmd_parsed p;
    struct cmd_reply r;

    script_req(&p, line, user);
    if (user == SCRIPT_ADMIN)
        p.req.perms = CMD_PERM_ADMINISTRATOR;
    cmd_reply_init(&r);
    assert_true(cmd_exec(&c->ctx, &p.req, &r));
    if (check != NULL)
        check(arg, line, user, &r);
    if (r.is_error) {
        script_text(&r.msg, text, sizeof text);
        fail_msg("\"%s\" as user %llu failed:\n%s", line,
                 (unsigned long long)user, text);
    }
    cmd_reply_cleanup(&r);
}

void script_cell_prepare_checked(struct script_cell *c,
                                 const struct script_setup *s, uint64_t seed,
                                 script_reply_fn *check, void *arg)
{
    char err[128];

    memset(c, 0, sizeof *c);
    assert_int_equal(store_open(":memory:", &c->store, err, sizeof err),
                     BOT_OK);
    eng_rng_seed(&c->rng, seed);
    c->ctx.store = c->store;
    c->ctx.rng = &c->rng;
    for (int i = 0; i < s->n; i++)
        script_cell_step(c, s->line[i], script_actor(s->actor[i]), check,
                         arg);
}

void script_cell_prepare(struct script_cell *c, const struct script_setup *s,
                         uint64_t seed)
{
    script_cell_prepare_checked(c, s, seed, NULL, NULL);
}

void script_cell_close(struct script_cell *c)
{
    store_close(c->store);
    c->store = NULL;
}
