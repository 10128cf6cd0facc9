/*
 * cmd_recap.c - /combat recap and /combat log: the fight's history told in
 * full, as the sender may read it.
 *
 * Each change keeps what it showed (store.h, struct store_change_rec):
 * the public text with every roll's dice, and the GM's text when hidden
 * numbers made it differ. A player only ever gets the public text, and a
 * change that showed the players nothing at all is "a change only the GM
 * sees"; the GM gets the GM's text. Lines from before fray kept the text
 * fall back to the one-line summary /combat history shows.
 *
 * Recap remembers, per fight and user, the version it last showed them
 * (the store's key/value rows, RECAP_KEY), so "since your last command"
 * is the later of that mark and the user's own last change in the fight.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd_config.h"
#include "cmd_run.h"
#include "cmd_tally.h"
#include "msg.h"
#include "sbuf.h"
#include "store.h"

/* The recap's text: what one Discord message shows across its embeds
 * (6000 characters; bytes are never fewer), less room for the title and
 * the note on what was left out. */
#define RECAP_MAX_TEXT 5400
/* One change in a recap at most, so a single huge change (a count:50 add)
 * leaves room for the others; the log has it whole. */
#define RECAP_MAX_ENTRY 1800
/* Changes a recap lists at most; older ones are counted, not shown. */
#define RECAP_MAX_ENTRIES 100
/* The mark's key: "recap:<channel>:<fight>:<user>". */
#define RECAP_KEY_FIGHT "recap:%" PRIu64 ":%" PRIu64 ":"
#define RECAP_KEY RECAP_KEY_FIGHT "%" PRIu64
/* Marks deleted per scan when a fight ends (scans repeat until none). */
#define RECAP_FORGET_BATCH 64
#define RECAP_KEY_MAX 96
/* The log file's size when Discord did not say (attachment_size_limit):
 * its limit for a server without boosts (10 MiB), the least any allows. */
#define CMD_LOG_MAX_BYTES (10u * 1024 * 1024)
/* ... and at most, whatever it says: the file and its message must fit
 * Discord's request size (25 MiB). */
#define CMD_LOG_MAX_EVER (24u * 1024 * 1024)
/* Bytes of the fight's name in the file name, before "-log.md". */
#define CMD_LOG_NAME_MAX 48

#define ELLIPSIS "\xE2\x80\xA6"
#define SECRET_LINE N_("_a change only the GM sees_")

char *cmd_change_line(const struct store_change_rec *c, enum i18n_lang lang)
{
    long long v = 0, a = 0, b = 0;
    char line[STORE_MAX_CHANGE_TEXT * 4];
    const char *t = c->text;
    bool fold = lang != I18N_EN && c->by == 0 && c->by_name != NULL &&
                strcmp(c->by_name, STORE_FOLD_BY) == 0;
    /* The summary's numbers, read back by the format that wrote them: a
     * fight's bound gives three, a server's two (the fight's format reads
     * one of a server's text: they part after the version). */
    if (fold && sscanf(t, STORE_FOLD_FIGHT_TEXT, &v, &a, &b) == 3) {
        snprintf(line, sizeof line, i18n_get(lang, STORE_FOLD_FIGHT_TEXT), v,
                 a, b);
        t = line;
    } else if (fold && sscanf(t, STORE_FOLD_SERVER_TEXT, &v, &a) == 2) {
        snprintf(line, sizeof line, i18n_get(lang, STORE_FOLD_SERVER_TEXT),
                 v, a);
        t = line;
    }
    return msg_escape(t);
}

char *cmd_change_text(const struct store_change_rec *c, bool gm,
                      enum i18n_lang lang, bool *nomem)
{
    const char *t = NULL;
    if (gm && c->gm_detail != NULL && c->gm_detail[0] != '\0')
        t = c->gm_detail;
    else if (c->detail != NULL && c->detail[0] != '\0')
        t = c->detail;
    char *out;
    if (t != NULL)
        out = strdup(t);
    else if (c->secret && !gm)
        out = strdup(i18n_get(lang, SECRET_LINE));
    else
        out = cmd_change_line(c, lang);
    if (out == NULL)
        *nomem = true;
    return out;
}

/* The months as a recap's time shows them, short (strftime's %b would
 * speak the host's locale, English everywhere fray runs). */
static const char *const months[12] = {
    NC_("month", "Jan"), NC_("month", "Feb"), NC_("month", "Mar"),
    NC_("month", "Apr"), NC_("month", "May"), NC_("month", "Jun"),
    NC_("month", "Jul"), NC_("month", "Aug"), NC_("month", "Sep"),
    NC_("month", "Oct"), NC_("month", "Nov"), NC_("month", "Dec"),
};

/* at_ms as "28 Nov 09:14 UTC" in lang (a recap: this week), or with the
 * year "2026-11-28 09:14 UTC" (a log: kept for later, in every language). */
static void when(char *buf, size_t n, int64_t at_ms, bool year,
                 enum i18n_lang lang)
{
    time_t t = (time_t)(at_ms / 1000);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL || tm.tm_mon < 0 || tm.tm_mon > 11) {
        snprintf(buf, n, "?");
    } else if (year) {
        if (strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm) == 0)
            snprintf(buf, n, "?");
    } else {
        /* TRANSLATORS: a day, its month (the "month" words), hour and
         * minute: "28 Nov 09:14 UTC" */
        snprintf(buf, n, i18n_get(lang, "%1$02d %2$s %3$02d:%4$02d UTC"),
                 tm.tm_mday, i18n_pget(lang, "month", months[tm.tm_mon]),
                 tm.tm_hour, tm.tm_min);
    }
}

/* ---- recap --------------------------------------------------------------- */

struct recap {
    uint64_t user;
    bool gm;
    enum i18n_lang lang;         /* the reader's */
    int64_t mine;                /* the user's newest change, 0: none */
    char *entry[RECAP_MAX_ENTRIES]; /* newest first */
    size_t n;
    size_t bytes;
    size_t skipped;              /* newer ones that fit, older ones not */
    bool full;
    bool nomem;
};

static enum bot_err find_mine(void *ctx, const struct store_change_rec *c)
{
    struct recap *r = ctx;
    if (c->by == r->user && c->version > r->mine)
        r->mine = c->version;
    return BOT_OK;
}

/* Keep a long change's first lines, with a note where it was cut. */
static void entry_cut(struct sbuf *b, const char *text, enum i18n_lang lang)
{
    size_t n = strlen(text);
    if (n <= RECAP_MAX_ENTRY) {
        sbuf_add(b, text);
        return;
    }
    size_t keep = sbuf_utf8_cut(text, RECAP_MAX_ENTRY);
    for (size_t i = keep; i > keep / 2; i--)
        if (text[i - 1] == '\n') {
            keep = i;
            break;
        }
    sbuf_addn(b, text, keep);
    sbuf_add(b, keep > 0 && text[keep - 1] == '\n' ? "" : "\n");
    sbuf_add(b, i18n_get(lang, "_\xE2\x80\xA6 and more: /combat log has it "
                               "whole_"));
}

static enum bot_err recap_line(void *ctx, const struct store_change_rec *c)
{
    struct recap *r = ctx;
    if (r->full || r->n == RECAP_MAX_ENTRIES) {
        r->full = true;
        r->skipped++;
        return BOT_OK;
    }
    char at[40];
    when(at, sizeof at, c->at_ms, false, r->lang);
    char *text = cmd_change_text(c, r->gm, r->lang, &r->nomem);
    if (text == NULL)
        return BOT_OK;
    struct sbuf b;
    sbuf_init(&b, SIZE_MAX / 2);
    sbuf_addf(&b, "`v%" PRId64 "` <@%" PRIu64 "> \xC2\xB7 %s\n", c->version,
              c->by, at);
    entry_cut(&b, text, r->lang);
    free(text);
    char *e = sbuf_take(&b);
    sbuf_cleanup(&b);
    if (e == NULL) {
        r->nomem = true;
        return BOT_OK;
    }
    /* The newest always shows; older ones while they fit. */
    if (r->n > 0 && r->bytes + strlen(e) + 2 > RECAP_MAX_TEXT) {
        free(e);
        r->full = true;
        r->skipped++;
        return BOT_OK;
    }
    r->bytes += strlen(e) + 2;
    r->entry[r->n++] = e;
    return BOT_OK;
}

void cmd_combat_recap(struct cmd_run *run)
{
    const struct cmd_req *req = run->req;
    struct store *st = run->ctx->store;
    enum i18n_lang lang = req->lang;
    struct recap r = {.user = req->user_id, .gm = run->is_gm, .lang = lang};
    char key[RECAP_KEY_MAX], *mark = NULL;
    snprintf(key, sizeof key, RECAP_KEY, req->channel_id,
             run->enc->fight_id, req->user_id);
    int64_t since = 0;
    enum bot_err err = store_kv_get(st, key, &mark);
    if (err == BOT_OK) {
        since = strtoll(mark, NULL, 10);
        free(mark);
    } else if (err == BOT_NOTFOUND) {
        err = BOT_OK;
    }
    if (err == BOT_OK)
        err = store_change_list(st, req->channel_id, since, true, SIZE_MAX,
                                NULL, find_mine, &r);
    if (err == BOT_OK && r.mine > since)
        since = r.mine;
    if (err == BOT_OK)
        err = store_change_list(st, req->channel_id, since, true, SIZE_MAX,
                                NULL, recap_line, &r);
    struct sbuf b;
    sbuf_init(&b, SIZE_MAX / 2);
    if (r.skipped > 0)
        sbuf_addf(&b, i18n_nget(lang, "_\xE2\x80\xA6 %zu earlier change is "
                                      "not shown here: `/combat log` has the "
                                      "whole fight._",
                                "_\xE2\x80\xA6 %zu earlier changes are not "
                                "shown here: `/combat log` has the whole "
                                "fight._", r.skipped),
                  r.skipped);
    if (r.skipped > 0)
        sbuf_add(&b, "\n\n");
    for (size_t i = r.n; i-- > 0;) {
        sbuf_add(&b, r.entry[i]);
        sbuf_add(&b, i > 0 ? "\n\n" : "");
        free(r.entry[i]);
    }
    if (err != BOT_OK || r.nomem || sbuf_error(&b) != SBUF_OK) {
        sbuf_cleanup(&b);
        cmd_fail(run, i18n_get(lang, "the fight's history could not be read; "
                                     "try again"));
        return;
    }
    if (r.n == 0)
        sbuf_add(&b, since > 0 ? i18n_get(lang,
                                          "Nothing new since your last "
                                          "command in this fight.")
                               : i18n_get(lang,
                                          "Nothing has happened in this fight "
                                          "yet."));
    /* Seen up to the live version: the next recap starts after it. */
    char value[24];
    snprintf(value, sizeof value, "%" PRId64, run->enc->version);
    if (store_kv_set(st, key, value) != BOT_OK) {
        sbuf_cleanup(&b);
        cmd_fail(run, i18n_get(lang, "the bot could not remember what you "
                                     "have seen; nothing was changed, try "
                                     "again"));
        return;
    }
    run->keep = true;
    struct msg_embed *em = msg_add_embed(&run->reply->msg, MSG_STYLE_INFO,
                                         since > 0
                                             ? i18n_get(lang,
                                                        "Since your last "
                                                        "command")
                                             : i18n_get(lang,
                                                        "The fight so far"));
    if (em != NULL)
        msg_embed_set_description(em, sbuf_str(&b));
    run->reply->ephemeral = true;
    sbuf_cleanup(&b);
}

/* Keys of one fight's marks, a batch at a time. */
struct marks {
    char key[RECAP_FORGET_BATCH][RECAP_KEY_MAX];
    int n;
};

static enum bot_err take_mark(void *ctx, const char *key, const char *value)
{
    struct marks *m = ctx;
    (void)value;
    if (m->n == RECAP_FORGET_BATCH)
        return BOT_LIMIT;          /* enough for this batch */
    snprintf(m->key[m->n++], RECAP_KEY_MAX, "%s", key);
    return BOT_OK;
}

enum bot_err cmd_recap_forget(struct cmd_run *run)
{
    char prefix[RECAP_KEY_MAX];
    struct marks m;
    snprintf(prefix, sizeof prefix, RECAP_KEY_FIGHT, run->req->channel_id,
             run->enc->fight_id);
    do {
        m.n = 0;
        enum bot_err e = store_kv_scan(run->ctx->store, prefix, take_mark,
                                       &m);
        if (e != BOT_OK && e != BOT_LIMIT)
            return e;
        for (int i = 0; i < m.n; i++)
            if ((e = store_kv_delete(run->ctx->store, m.key[i])) != BOT_OK)
                return e;
    } while (m.n == RECAP_FORGET_BATCH);
    return BOT_OK;
}

/* ---- log ----------------------------------------------------------------- */

struct log_doc {
    struct sbuf b;
    bool gm;
    int64_t upto;                /* changes after it are left out */
    bool nomem;
    enum i18n_lang lang;         /* job's */
};

/* The heading of one change in the log: its version, time and author. */
#define LOG_HEAD_MAX (64 + 2 * STORE_MAX_CHANGE_NAME)
/* Room kept for the file's title and the note on what was left out. */
#define LOG_TOP_ROOM 1024

/* What change c takes in the log at most: its heading and its text
 * (escaping at most doubles a summary line). */
static size_t log_cost(const struct store_change_rec *c, bool gm)
{
    const char *t = gm && c->gm_detail[0] != '\0' ? c->gm_detail
                    : c->detail[0] != '\0'        ? c->detail
                                                  : NULL;
    return LOG_HEAD_MAX + (t != NULL ? strlen(t) : 2 * strlen(c->text));
}

/* Where the log starts: the changes newest first, kept while they fit. */
struct log_fit {
    bool gm;
    int64_t upto;                /* as log_doc's */
    size_t room;                 /* bytes for the changes */
    size_t used;
    int64_t cut;                 /* the newest change left out; 0: none */
    size_t left_out;
};

static enum bot_err log_fit_line(void *ctx, const struct store_change_rec *c)
{
    struct log_fit *f = ctx;
    if (c->version > f->upto)
        return BOT_OK;
    size_t cost = log_cost(c, f->gm);
    if (f->cut == 0 && f->used + cost <= f->room) {
        f->used += cost;
        return BOT_OK;
    }
    if (f->cut == 0)
        f->cut = c->version;
    f->left_out++;
    return BOT_OK;
}

static enum bot_err log_line(void *ctx, const struct store_change_rec *c)
{
    struct log_doc *d = ctx;
    if (c->version > d->upto)
        return BOT_OK;
    char at[40];
    when(at, sizeof at, c->at_ms, true, I18N_EN);
    char *text = cmd_change_text(c, d->gm, d->lang, &d->nomem);
    char *name = c->by_name != NULL && c->by_name[0] != '\0'
                 ? msg_escape(c->by_name) : NULL;
    sbuf_addf(&d->b, "## v%" PRId64 " \xC2\xB7 %s \xC2\xB7 ", c->version, at);
    if (name != NULL)
        sbuf_add(&d->b, name);
    else
        sbuf_addf(&d->b, i18n_get(d->lang, "user %llu"),
                  (unsigned long long)c->by);
    sbuf_addf(&d->b, "\n\n%s\n\n", text != NULL ? text : "");
    free(name);
    free(text);
    /* Past the limit the sbuf is cut; stop reading, the caller says so. */
    return sbuf_error(&d->b) == SBUF_OK ? BOT_OK : BOT_LIMIT;
}

/* "Bridge ambush" -> "Bridge-ambush-log.md": letters, digits, '-' and '_'
 * of the fight's name (others become '-', runs of them one), or "fight". */
static void log_file_name(const char *fight, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = fight; *p != '\0' && k < CMD_LOG_NAME_MAX; p++) {
        unsigned char ch = (unsigned char)*p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (ok)
            out[k++] = (char)ch;
        else if (k > 0 && out[k - 1] != '-')
            out[k++] = '-';
    }
    while (k > 0 && out[k - 1] == '-')
        k--;
    out[k] = '\0';
    snprintf(out + k, n - k, "%s-log.md", k == 0 ? "fight" : "");
}

struct cmd_log_cache {
    struct cmd_log_job key;      /* channel, fight, version, gm, max */
    char *data;                  /* the file (heap), NULL: none kept */
    size_t len;
};

struct cmd_log_cache *cmd_log_cache_new(void)
{
    return calloc(1, sizeof(struct cmd_log_cache));
}

void cmd_log_cache_free(struct cmd_log_cache *c)
{
    if (c != NULL)
        free(c->data);
    free(c);
}

/* Is c's file job's? The same fight at the same version for the same view
 * and room. */
static bool log_same(const struct cmd_log_job *a, const struct cmd_log_job *b)
{
    return a->channel == b->channel && a->fight == b->fight &&
           a->version == b->version && a->gm == b->gm && a->max == b->max &&
           a->lang == b->lang;
}

void cmd_log_cache_put(struct cmd_log_cache *c, const struct cmd_log_job *job,
                       const char *data, size_t len)
{
    if (c == NULL || data == NULL)
        return;
    free(c->data);
    c->key = *job;
    c->key.tally = NULL;         /* the job's own; the key needs none */
    c->len = len;
    c->data = malloc(len + 1);
    if (c->data != NULL)
        memcpy(c->data, data, len + 1);
}

void cmd_log_reply(const struct cmd_log_job *job, char *data, size_t len,
                   const char *why, struct cmd_reply *reply)
{
    char name[CMD_LOG_NAME_MAX + sizeof "-log.md" + 8];
    log_file_name(job->name, name, sizeof name);
    struct cmd_file *f = &reply->file;
    f->len = len;
    f->data = data;
    f->name = data != NULL ? strdup(name) : NULL;
    if (f->data == NULL || f->name == NULL) {
        free(f->data);
        f->data = NULL;
        msg_set_content(&reply->msg, "%s", why != NULL && why[0] != '\0'
                        ? why : i18n_get(job->lang,
                                         "the bot ran out of memory; nothing "
                                         "was changed"));
        reply->is_error = true;
        reply->ephemeral = true;
        return;
    }
    if (job->gm)
        msg_set_content(&reply->msg, i18n_get(job->lang,
                                              "The fight so far, as the GM "
                                              "sees it (hidden numbers "
                                              "included): `%s`"), name);
    else
        msg_set_content(&reply->msg, i18n_get(job->lang,
                                              "The fight so far, as everyone "
                                              "sees it: `%s`"), name);
    reply->ephemeral = job->gm;
}

enum bot_err cmd_log_write(struct store *st, const struct cmd_log_job *job,
                           char **data, size_t *len, char *why, size_t whylen)
{
    *data = NULL;
    *len = 0;
    /* Two passes over the history, neither holding it: the first finds
     * the oldest change that still fits, the second writes from there. */
    size_t max = job->max;
    size_t top = LOG_TOP_ROOM + (job->tally != NULL ? strlen(job->tally) : 0);
    struct log_fit fit = {.gm = job->gm, .upto = job->version,
                          .room = max > top ? max - top : 0};
    enum bot_err err = store_change_list(st, job->channel, 0, true, SIZE_MAX,
                                         NULL, log_fit_line, &fit);
    enum i18n_lang lang = job->lang;
    if (err != BOT_OK) {
        snprintf(why, whylen, "%s", i18n_get(lang,
                                             "the fight's log could not be "
                                             "written; try again"));
        return err;
    }
    if (fit.cut > 0 && fit.used == 0)
        err = BOT_LIMIT;     /* not even the newest change fits: refused */
    struct log_doc d = {.gm = job->gm, .upto = job->version, .lang = lang};
    sbuf_init(&d.b, max);
    char *title = msg_escape(job->name[0] != '\0'
                                 ? job->name : i18n_get(lang,
                                                        "A fight"));
    char now[40];
    when(now, sizeof now, job->now_ms, true, I18N_EN);
    /* the version as long long: a catalog's key cannot hold PRId64 */
    if (job->gm)
        sbuf_addf(&d.b, i18n_get(lang, "# %s\n\nSystem: %s \xC2\xB7 version "
                                       "%lld \xC2\xB7 written %s \xC2\xB7 "
                                       "**the GM's copy, with hidden "
                                       "numbers**"),
                  title != NULL ? title : "", job->ruleset,
                  (long long)job->version, now);
    else
        sbuf_addf(&d.b, i18n_get(lang, "# %s\n\nSystem: %s \xC2\xB7 version "
                                       "%lld \xC2\xB7 written %s"),
                  title != NULL ? title : "", job->ruleset,
                  (long long)job->version, now);
    sbuf_add(&d.b, "\n\n");
    free(title);
    if (fit.cut > 0)
        sbuf_addf(&d.b, i18n_nget(lang, "_The %zu oldest change (up to v%lld) "
                                        "is left out: a log holds at most %u "
                                        "KB._",
                                  "_The %zu oldest changes (up to v%lld) are "
                                  "left out: a log holds at most %u "
                                  "KB._", fit.left_out),
                  fit.left_out, (long long)fit.cut, (unsigned)(max / 1024));
    if (fit.cut > 0)
        sbuf_add(&d.b, "\n\n");
    if (err == BOT_OK)
        err = store_change_list(st, job->channel, fit.cut, false, SIZE_MAX,
                                NULL, log_line, &d);
    if (err == BOT_OK && job->tally != NULL)
        sbuf_add(&d.b, job->tally);
    if (err == BOT_LIMIT || sbuf_error(&d.b) == SBUF_TRUNCATED) {
        sbuf_cleanup(&d.b);
        snprintf(why, whylen, i18n_get(lang,
                                       "the fight's log is over %.1f MiB, "
                                       "more than Discord takes as one file "
                                       "in this server; /combat history shows "
                                       "it in parts"),
                 (double)max / (1024 * 1024));
        return BOT_LIMIT;
    }
    if (err != BOT_OK || d.nomem || sbuf_error(&d.b) != SBUF_OK) {
        sbuf_cleanup(&d.b);
        snprintf(why, whylen, "%s", i18n_get(lang,
                                             "the fight's log could not be "
                                             "written; try again"));
        return err != BOT_OK ? err : BOT_NOMEM;
    }
    *len = d.b.len;
    *data = sbuf_take(&d.b);
    sbuf_cleanup(&d.b);
    if (*data == NULL) {
        snprintf(why, whylen, "%s", i18n_get(lang,
                                             "the bot ran out of memory; "
                                             "nothing was changed"));
        return BOT_NOMEM;
    }
    return BOT_OK;
}

void cmd_log_job_clear(struct cmd_log_job *job)
{
    free(job->tally);
    job->tally = NULL;
}

/* The numbers section of the log of run's fight as this view reads it,
 * into job (none when memory ran out: the caller refuses). */
static bool log_tally(struct cmd_run *run, struct cmd_log_job *job)
{
    struct sbuf b;
    sbuf_init(&b, CMD_TALLY_LOG_ROOM);
    bool ok = cmd_tally_log(run->enc, job->gm, job->lang, &b) &&
              sbuf_error(&b) == SBUF_OK;
    job->tally = ok ? sbuf_take(&b) : NULL;
    sbuf_cleanup(&b);
    return job->tally != NULL;
}

void cmd_combat_log(struct cmd_run *run)
{
    const struct encounter *e = run->enc;
    bool gm = false;
    if (!cmd_opt_bool(run, "gm", false, &gm))
        return;
    if (gm && !run->is_gm) {
        cmd_fail(run, i18n_get(run->req->lang,
                               "only the GM may have the log with hidden "
                               "numbers (gm:true); without it you get "
                               "everyone's log"));
        return;
    }
    int64_t lim = run->req->attach_limit;
    size_t max = lim <= 0 ? CMD_LOG_MAX_BYTES
                 : lim > CMD_LOG_MAX_EVER ? CMD_LOG_MAX_EVER : (size_t)lim;
    if (max > CMD_LOG_CAP_BYTES)
        max = CMD_LOG_CAP_BYTES;
    struct cmd_log_job job = {.channel = run->req->channel_id,
                              .fight = e->fight_id, .version = e->version,
                              .gm = gm, .max = max,
                              .now_ms = run->req->now_ms,
                              .lang = gm ? run->req->lang
                                         : cmd_public_lang(run)};
    snprintf(job.name, sizeof job.name, "%s", e->name);
    snprintf(job.ruleset, sizeof job.ruleset, "%s", e->ruleset);
    const struct cmd_log_cache *kept = run->ctx->log_cache;
    if (kept != NULL && kept->data != NULL && log_same(&kept->key, &job)) {
        char *copy = malloc(kept->len + 1);
        if (copy != NULL)
            memcpy(copy, kept->data, kept->len + 1);
        cmd_log_reply(&job, copy, kept->len, NULL, run->reply);
        return;
    }
    if (!log_tally(run, &job)) {
        cmd_fail(run, i18n_get(run->req->lang,
                               "the bot ran out of memory; nothing was "
                               "changed"));
        return;
    }
    if (run->ctx->log_later) {   /* the front end has it written */
        run->reply->log_later = true;
        run->reply->log_job = job;       /* the reply holds the tally */
        run->reply->ephemeral = gm;
        return;
    }
    char *data = NULL, why[160] = "";
    size_t len = 0;
    enum bot_err err = cmd_log_write(run->ctx->store, &job, &data, &len, why,
                                     sizeof why);
    cmd_log_job_clear(&job);
    if (err != BOT_OK) {
        cmd_fail(run, "%s", why);
        return;
    }
    cmd_log_cache_put(run->ctx->log_cache, &job, data, len);
    cmd_log_reply(&job, data, len, NULL, run->reply);
}
