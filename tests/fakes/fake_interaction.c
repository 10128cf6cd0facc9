/*
 * fake_interaction.c - INTERACTION_CREATE payloads built from a short test
 * description (or taken raw), the record of every interaction (dispatch and
 * callback times for latency), and the load generator behind /_test/load.
 */
#include "fake.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_LOAD_TICK_MS   50
#define FAKE_LOAD_MAX       1000000
#define FAKE_LOAD_RATE_MAX  1000000.0     /* interactions per second */
#define FAKE_LOAD_RATE_CAP  10000         /* default cap in rate mode */
#define FAKE_LOAD_WORST     10            /* slowest samples listed */

/* ---- records ---- */

static long ix_append(struct fake_server *s)
{
    if (s->nix == s->capix) {
        size_t cap = s->capix ? s->capix * 2 : 64;
        struct fake_ix *n = realloc(s->ix, cap * sizeof *n);
        if (n == NULL)
            return -1;
        s->ix = n;
        s->capix = cap;
    }
    memset(&s->ix[s->nix], 0, sizeof s->ix[0]);
    return (long)s->nix++;
}

struct fake_ix *fake_ix_find(struct fake_server *s, const char *id_or_token)
{
    json_t *v = json_object_get(s->ix_index, id_or_token);
    if (!json_is_integer(v))
        return NULL;
    json_int_t i = json_integer_value(v);
    return i >= 0 && (size_t)i < s->nix ? &s->ix[i] : NULL;
}

void fake_ix_dispatched(struct fake_server *s, long ix)
{
    if (ix >= 0 && (size_t)ix < s->nix && s->ix[ix].t_dispatch_us == 0)
        s->ix[ix].t_dispatch_us = fake_now_us();
}

static void lat_push(struct fake_server *s, double ms)
{
    if (s->nlat == s->caplat) {
        size_t cap = s->caplat ? s->caplat * 2 : 256;
        double *n = realloc(s->lat, cap * sizeof *n);
        if (n == NULL)
            return;
        s->lat = n;
        s->caplat = cap;
    }
    s->lat[s->nlat++] = ms;
}

static void load_pump(struct fake_server *s);
static void load_arm(struct fake_server *s);

void fake_ix_answered(struct fake_server *s, struct fake_ix *x)
{
    if (x->t_dispatch_us && x->t_callback_us)
        lat_push(s, (double)(x->t_callback_us - x->t_dispatch_us) / 1000.0);
    if (x->load && !x->missed && !x->load_counted && s->load.active) {
        x->load_counted = true;
        s->load.answered++;
        s->load.outstanding--;
        load_pump(s);
        if (s->load.rate > 0)
            load_arm(s);    /* a freed slot may let a due one through */
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pct(const double *v, size_t n, double p)
{
    size_t k = (size_t)ceil(p * (double)n);
    return v[k ? k - 1 : 0];
}

/* {count,min,p50,p90,p99,max,mean} of n samples; sorts v in place. */
static json_t *lat_summary(double *v, size_t n)
{
    if (n == 0)
        return json_pack("{s:i}", "count", 0);
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f}", "count", (json_int_t)n,
                     "min", v[0], "p50", pct(v, n, 0.5), "p90",
                     pct(v, n, 0.9), "p99", pct(v, n, 0.99), "max",
                     v[n - 1], "mean", sum / (double)n);
}

json_t *fake_latency_json(const struct fake_server *s)
{
    double *v = malloc((s->nlat ? s->nlat : 1) * sizeof *v);
    if (v == NULL)
        return json_pack("{s:i}", "count", 0);
    if (s->nlat)
        memcpy(v, s->lat, s->nlat * sizeof *v);
    json_t *j = lat_summary(v, s->nlat);
    free(v);
    return j;
}

/* ---- building ---- */

static int infer_type(const json_t *o)
{
    const json_t *sub = json_object_get(o, "options");
    if (json_is_array(sub)) {
        size_t i;
        const json_t *c;
        json_array_foreach(sub, i, c)
            if (json_is_array(json_object_get(c, "options")))
                return 2;           /* SUB_COMMAND_GROUP */
        return 1;                   /* SUB_COMMAND */
    }
    const json_t *v = json_object_get(o, "value");
    if (json_is_string(v))
        return 3;
    if (json_is_integer(v))
        return 4;
    if (json_is_real(v))
        return 10;
    if (json_is_boolean(v))
        return 5;
    return 3;
}

void fake_ix_resolve_entity(json_t *resolved, int type, const char *id,
                            const char *guild_id)
{
    const char *kind = type == 6 ? "users" : type == 7 ? "channels"
                     : type == 8 ? "roles" : NULL;
    if (kind == NULL || id == NULL)
        return;
    json_t *map = json_object_get(resolved, kind);
    if (map == NULL) {
        map = json_object();
        json_object_set_new(resolved, kind, map);
    }
    char name[40];
    snprintf(name, sizeof name, "%s%.6s", type == 6 ? "user" : "res",
             id + (strlen(id) > 6 ? strlen(id) - 6 : 0));
    json_t *o = json_pack("{s:s,s:s}", "id", id, "name", name);
    if (type == 6) {
        json_object_set_new(o, "username", json_string(name));
        json_object_set_new(o, "discriminator", json_string("0"));
        json_object_set_new(o, "global_name", json_null());
        json_object_set_new(o, "avatar", json_null());
        if (guild_id) {
            json_t *mem = json_object_get(resolved, "members");
            if (mem == NULL) {
                mem = json_object();
                json_object_set_new(resolved, "members", mem);
            }
            json_object_set_new(mem, id, json_pack(
                "{s:[],s:n,s:s,s:s}", "roles", "nick", "joined_at",
                "2024-01-01T00:00:00.000000+00:00", "permissions",
                FAKE_DEFAULT_PERMS));
        }
    } else if (type == 7) {
        json_object_set_new(o, "type", json_integer(0));
        if (guild_id)
            json_object_set_new(o, "guild_id", json_string(guild_id));
        json_object_set_new(o, "permissions", json_string(FAKE_DEFAULT_PERMS));
    } else {
        json_object_set_new(o, "permissions", json_string("0"));
        json_object_set_new(o, "color", json_integer(0));
    }
    json_object_set_new(map, id, o);
}

int fake_select_option_type(int component_type)
{
    switch (component_type) {
    case 5:  return 6;              /* User Select: users (+ members) */
    case 6:  return 8;              /* Role Select: roles */
    case 7:  return 6;              /* Mentionable: taken as users */
    case 8:  return 7;              /* Channel Select: channels */
    default: return 0;
    }
}

/* The description's "resolved" over the built one: each entry's fields
 * replace or add to those of the entry with that id (a channel of another
 * type or server), and an entry with no option behind it is added. */
static void resolve_override(json_t *resolved, const json_t *extra)
{
    const char *kind, *id;
    json_t *map, *o;
    if (!json_is_object(extra))
        return;
    json_object_foreach((json_t *)extra, kind, map) {
        json_t *have = json_object_get(resolved, kind);
        if (!json_is_object(map))
            continue;
        if (have == NULL) {
            have = json_object();
            json_object_set_new(resolved, kind, have);
        }
        json_object_foreach(map, id, o) {
            json_t *e = json_object_get(have, id);
            if (e != NULL && json_is_object(o))
                json_object_update(e, o);
            else
                json_object_set_new(have, id, json_deep_copy(o));
        }
    }
}

static json_t *norm_options(const json_t *opts, json_t *resolved,
                            const char *guild_id)
{
    json_t *out = json_array();
    size_t i;
    const json_t *o;
    json_array_foreach(opts, i, o) {
        json_t *c = json_deep_copy(o);
        if (!json_is_object(c)) {
            json_decref(c);
            continue;
        }
        if (!json_is_integer(json_object_get(c, "type")))
            json_object_set_new(c, "type", json_integer(infer_type(c)));
        const json_t *sub = json_object_get(o, "options");
        if (json_is_array(sub))
            json_object_set_new(c, "options",
                                norm_options(sub, resolved, guild_id));
        int t = (int)json_integer_value(json_object_get(c, "type"));
        fake_ix_resolve_entity(resolved, t, json_string_value(
                                   json_object_get(c, "value")), guild_id);
        json_array_append_new(out, c);
    }
    return out;
}

static const char *str_or(const json_t *d, const char *key, const char *def)
{
    const char *v = json_string_value(json_object_get(d, key));
    return v ? v : def;
}

static const char *command_id(struct fake_server *s, const char *name,
                              int type, char buf[24])
{
    const char *scope;
    json_t *arr;
    json_object_foreach(s->commands, scope, arr) {
        size_t i;
        json_t *c;
        json_array_foreach(arr, i, c)
            if (strcmp(str_or(c, "name", ""), name) == 0 &&
                json_integer_value(json_object_get(c, "type")) == type)
                return str_or(c, "id", "0");
    }
    fake_snowflake(s, buf);
    return buf;
}

static json_t *make_user(const char *id, const char *username,
                         const char *global_name)
{
    return json_pack("{s:s,s:s,s:s,s:s?,s:n,s:i}", "id", id, "username",
                     username, "discriminator", "0", "global_name",
                     global_name, "avatar", "public_flags", 0);
}

static json_t *component_data(struct fake_server *s, const json_t *desc,
                              json_t *ix, const char *channel)
{
    json_t *data = json_pack("{s:s,s:i}", "custom_id",
                             str_or(desc, "custom_id", "button"),
                             "component_type",
                             json_is_integer(json_object_get(desc,
                                                             "component_type"))
                                 ? (int)json_integer_value(json_object_get(
                                       desc, "component_type"))
                                 : 2);
    json_t *values = json_object_get(desc, "values");
    if (json_is_array(values))
        json_object_set(data, "values", values);
    const char *mid = str_or(desc, "message_id", NULL);
    json_t *msg = json_object_get(desc, "message");
    json_t *stored = mid ? json_object_get(s->messages, mid) : NULL;
    if (json_is_object(msg))
        json_object_set_new(ix, "message", json_deep_copy(msg));
    else if (stored)
        json_object_set_new(ix, "message", json_deep_copy(stored));
    else {
        char id[24];
        fake_snowflake(s, id);
        json_object_set_new(ix, "message", json_pack(
            "{s:s,s:s,s:s,s:[],s:[],s:i,s:i,s:o}", "id", mid ? mid : id,
            "channel_id", channel, "content", "", "embeds", "components",
            "flags", 0, "type", 0, "author",
            make_user(s->opt.app_id, "fray", NULL)));
    }
    /* The message the component sits on is what UPDATE_MESSAGE and
     * @original edit, so the fake must know it. */
    const json_t *m = json_object_get(ix, "message");
    const char *id = str_or(m, "id", NULL);
    if (id && json_object_get(s->messages, id) == NULL)
        json_object_set_new(s->messages, id, json_deep_copy(m));
    return data;
}

json_t *fake_ix_build(struct fake_server *s, const json_t *desc, long *ix_out,
                      const char **err)
{
    char id[24], token[128], hex[49];
    /* "age_ms": an id Discord made that long ago (a command held up in an
     * outage, delivered late) */
    json_int_t age = json_integer_value(json_object_get(desc, "age_ms"));
    fake_snowflake_aged(s, id, age > 0 ? (int64_t)age : 0);
    fake_random_hex(s, hex, 48);
    snprintf(token, sizeof token, "aW50ZXJhY3Rpb246%s%s", id, hex);

    json_t *ix;
    /* {"raw": {...}}, or a body that is itself an interaction (has data) */
    const json_t *raw = json_object_get(desc, "raw");
    if (raw == NULL && json_is_object(json_object_get(desc, "data")))
        raw = desc;
    if (json_is_object(raw)) {
        ix = json_deep_copy(raw);
    } else {
        const json_t *jt = json_object_get(desc, "type");
        int type = 2;
        const char *ts = json_string_value(jt);
        if (json_is_integer(jt))
            type = (int)json_integer_value(jt);
        else if (ts && strcmp(ts, "component") == 0)
            type = 3;
        else if (ts && strcmp(ts, "autocomplete") == 0)
            type = 4;
        else if (ts && strcmp(ts, "modal_submit") == 0)
            type = 5;
        else if (ts && strcmp(ts, "command") != 0) {
            *err = "type must be command, component, autocomplete or "
                   "modal_submit";
            return NULL;
        }
        if (type < 2 || type > 5) {
            *err = "only interaction types 2 to 5 are built";
            return NULL;
        }
        /* context 1 (the bot's DM) and 2 (other DMs, group DMs) have no
         * guild */
        json_int_t ctx = json_integer_value(json_object_get(desc,
                                                            "context"));
        bool dm = json_is_true(json_object_get(desc, "dm")) || ctx == 1 ||
                  ctx == 2;
        const char *guild = str_or(desc, "guild_id", s->opt.guild_id);
        const char *chan = str_or(desc, "channel_id", s->opt.channel_id);
        const char *uid = str_or(desc, "user_id", s->opt.user_id);
        const char *uname = str_or(desc, "username", "alice");
        const char *gname = str_or(desc, "global_name", "Alice");
        const char *perms = str_or(desc, "permissions", FAKE_DEFAULT_PERMS);
        const char *locale = str_or(desc, "locale", "en-US");
        const char *glocale = str_or(desc, "guild_locale", "en-US");
        ix = json_pack("{s:i,s:i,s:s,s:s,s:[],s:i}", "type", type, "version",
                       1, "locale", locale, "app_permissions",
                       fake_chan_perms(s, chan), "entitlements",
                       "attachment_size_limit", 10485760);
        json_object_set_new(ix, "channel_id", json_string(chan));
        if (dm) {
            json_int_t ct = json_integer_value(json_object_get(
                desc, "channel_type"));
            json_object_set_new(ix, "channel", json_pack(
                "{s:s,s:I}", "id", chan, "type",
                ct ? ct : ctx == 2 ? 3 : 1));  /* 3: a group DM */
            json_object_set_new(ix, "user", make_user(uid, uname, gname));
            json_object_set_new(ix, "context", json_integer(1));
            json_object_set_new(ix, "authorizing_integration_owners",
                                json_pack("{s:s}", "0", "0"));
        } else {
            json_t *roles = json_object_get(desc, "roles");
            json_object_set_new(ix, "guild_id", json_string(guild));
            json_object_set_new(ix, "guild", json_pack(
                "{s:s,s:s,s:[]}", "id", guild, "locale", glocale,
                "features"));
            /* a thread's interactions carry it, with its parent */
            json_t *th = fake_thread(s, chan);
            json_object_set_new(ix, "channel", json_pack(
                "{s:s,s:i,s:s,s:s,s:n,s:b,s:i,s:i,s:s}", "id", chan, "type",
                th ? (int)json_integer_value(json_object_get(th, "type")) : 0,
                "name", th ? json_string_value(json_object_get(th, "name"))
                           : "general", "guild_id", guild, "parent_id",
                "nsfw", 0, "position", 0, "flags", 0, "permissions",
                fake_chan_perms(s, chan)));
            if (th != NULL)
                json_object_set(json_object_get(ix, "channel"), "parent_id",
                                json_object_get(th, "parent_id"));
            json_object_set_new(ix, "member", json_pack(
                "{s:o,s:o,s:n,s:n,s:s,s:n,s:b,s:b,s:i,s:b,s:s,s:n}", "user",
                make_user(uid, uname, gname), "roles",
                json_is_array(roles) ? json_deep_copy(roles) : json_array(),
                "nick", "avatar", "joined_at",
                "2024-01-01T00:00:00.000000+00:00", "premium_since", "deaf", 0,
                "mute", 0, "flags", 0, "pending", 0, "permissions", perms,
                "communication_disabled_until"));
            json_object_set_new(ix, "guild_locale", json_string(glocale));
            json_object_set_new(ix, "context", json_integer(0));
            json_object_set_new(ix, "authorizing_integration_owners",
                                json_pack("{s:s}", "0", guild));
        }
        if ((*err = fake_ix_install(s, desc, ix)) != NULL ||
            (type == 3 &&
             (*err = fake_ix_component_message(s, desc)) != NULL)) {
            json_decref(ix);
            return NULL;
        }
        json_t *data;
        if (type == 3) {
            data = component_data(s, desc, ix, chan);
            *err = fake_ix_component_check(s, desc, ix, data);
        } else if (type == 5) {
            data = fake_ix_modal_data(s, desc, ix);
        } else {
            const char *name = str_or(desc, "name", NULL);
            if (name == NULL) {
                json_decref(ix);
                *err = "a command interaction needs a name";
                return NULL;
            }
            char cbuf[24];
            json_t *resolved = json_object();
            const json_t *opts = json_object_get(desc, "options");
            json_int_t ctype = json_integer_value(json_object_get(
                desc, "command_type"));
            if (ctype == 0)
                ctype = 1;
            data = json_pack("{s:s,s:s,s:I}", "id",
                             str_or(desc, "command_id",
                                    command_id(s, name, (int)ctype, cbuf)),
                             "name", name, "type", ctype);
            if (json_is_array(opts))
                json_object_set_new(data, "options",
                                    norm_options(opts, resolved,
                                                 dm ? NULL : guild));
            fake_att_resolve(s, json_object_get(data, "options"), resolved);
            resolve_override(resolved, json_object_get(desc, "resolved"));
            if (json_object_size(resolved))
                json_object_set_new(data, "resolved", resolved);
            else
                json_decref(resolved);
            if (!dm && json_is_true(json_object_get(desc, "guild_command")))
                json_object_set_new(data, "guild_id", json_string(guild));
            if (ctype == 2 || ctype == 3)
                *err = fake_ix_context_menu(s, desc, ix, data);
        }
        json_object_set_new(ix, "data", data);
        if (*err != NULL) {
            json_decref(ix);
            return NULL;
        }
    }
    return fake_ix_register(s, ix, id, token, ix_out, err);
}

json_t *fake_ix_register(struct fake_server *s, json_t *ix, const char *id,
                         const char *token, long *ix_out, const char **err)
{
    if (!json_is_string(json_object_get(ix, "id")))
        json_object_set_new(ix, "id", json_string(id));
    if (!json_is_string(json_object_get(ix, "token")))
        json_object_set_new(ix, "token", json_string(token));
    if (!json_is_string(json_object_get(ix, "application_id")))
        json_object_set_new(ix, "application_id", json_string(s->opt.app_id));
    if (!json_is_integer(json_object_get(ix, "version")))
        json_object_set_new(ix, "version", json_integer(1));

    long i = ix_append(s);
    if (i < 0) {
        json_decref(ix);
        *err = "out of memory";
        return NULL;
    }
    struct fake_ix *x = &s->ix[i];
    const json_t *owners = json_object_get(ix,
                                           "authorizing_integration_owners");
    x->user_only = json_object_get(owners, "1") != NULL &&
                   json_object_get(owners, "0") == NULL;
    x->payload = json_incref(ix);
    snprintf(x->id, sizeof x->id, "%s", str_or(ix, "id", ""));
    snprintf(x->token, sizeof x->token, "%s", str_or(ix, "token", ""));
    snprintf(x->channel_id, sizeof x->channel_id, "%s",
             str_or(ix, "channel_id", ""));
    x->type = (int)json_integer_value(json_object_get(ix, "type"));
    if (x->type == 3 || x->type == 5)   /* the message it came from */
        snprintf(x->orig_msg, sizeof x->orig_msg, "%s",
                 str_or(json_object_get(ix, "message"), "id", ""));
    x->t_inject_us = fake_now_us();
    x->created_ms = fake_snowflake_ms(x->id, fake_wall_ms());
    json_object_set_new(s->ix_index, x->id, json_integer(i));
    json_object_set_new(s->ix_index, x->token, json_integer(i));
    s->st.injected++;
    *ix_out = i;
    return ix;
}

/* ---- load generator ---- */

static void load_tick(lws_sorted_usec_list_t *sul);

static void load_finish(struct fake_server *s)
{
    s->load.active = false;
    s->load.t_end_us = fake_now_us();
    lws_sul_cancel(&s->load.sul);
    fake_log(s, "load done: %ld answered, %ld missed", s->load.answered,
             s->load.missed);
}

/* Microseconds from one scheduled injection to the next: 1/rate, or an
 * exponential draw with that mean (a Poisson process, whose bursts are
 * what a busy server sees). */
static double load_gap_us(struct fake_server *s)
{
    double mean = 1e6 / s->load.rate;
    if (!s->load.poisson)
        return mean;
    /* u in (0, 1] from 53 random bits, so log(u) is finite */
    double u = ((double)(fake_rand(s) >> 11) + 1.0) / 9007199254740992.0;
    return -log(u) * mean;
}

static bool load_inject(struct fake_server *s)
{
    struct fake_load *L = &s->load;
    /* a list of descriptions is cycled through: a command mix */
    json_t *desc = json_deep_copy(json_array_get(
        L->command, (size_t)L->injected % json_array_size(L->command)));
    char chan[24];
    unsigned long long base = strtoull(s->opt.channel_id, NULL, 10);
    snprintf(chan, sizeof chan, "%llu",
             base + (unsigned long long)(L->injected % L->channels));
    json_object_set_new(desc, "channel_id", json_string(chan));
    const char *err = NULL;
    long ix = -1;
    json_t *d = fake_ix_build(s, desc, &ix, &err);
    json_decref(desc);
    if (d == NULL) {
        load_finish(s);
        return false;
    }
    s->ix[ix].load = true;
    json_decref(s->ix[ix].payload);     /* a long run keeps no payloads */
    s->ix[ix].payload = NULL;
    bool live;
    if (fake_gw_dispatch_routed(s, NULL, "INTERACTION_CREATE", d, ix,
                                &live) < 0) {
        load_finish(s);
        return false;
    }
    L->injected++;
    L->outstanding++;
    L->t_last_inject_us = fake_now_us();
    return true;
}

static void load_pump(struct fake_server *s)
{
    struct fake_load *L = &s->load;
    int64_t now = fake_now_us();
    while (L->active && L->injected < L->total) {
        if (L->rate > 0 && L->next_us > (double)now)
            break;
        if (L->outstanding >= L->concurrency) {
            if (L->rate > 0 && L->cap_counted != L->injected) {
                L->capped++;
                L->cap_counted = L->injected;
            }
            break;
        }
        if (L->rate > 0) {
            int64_t lag = now - (int64_t)L->next_us;
            if (lag > L->max_lag_us)
                L->max_lag_us = lag;
            L->next_us += load_gap_us(s);
        }
        if (!load_inject(s))
            return;
    }
    if (L->active && L->injected >= L->total && L->outstanding <= 0)
        load_finish(s);
}

/* The next wake-up: the deadline scan every FAKE_LOAD_TICK_MS, sooner when
 * the rate schedule has an injection due that the cap would let through
 * (while capped, an answer pumps instead). */
static void load_arm(struct fake_server *s)
{
    struct fake_load *L = &s->load;
    if (!L->active)
        return;
    int64_t now = fake_now_us();
    int64_t at = L->last_scan_us + (int64_t)FAKE_LOAD_TICK_MS * 1000;
    if (L->rate > 0 && L->injected < L->total &&
        L->outstanding < L->concurrency && (int64_t)L->next_us < at)
        at = (int64_t)L->next_us;
    lws_sul_schedule(s->ctx, 0, &L->sul, load_tick,
                     at > now ? at - now : 1);
}

/* Count the interactions of this run still unanswered 3 s after dispatch
 * as missed, and those a late callback already marked missed (the REST
 * side refuses it without telling the load generator). scan_ix skips the
 * counted prefix, so a long run costs only the last seconds' worth. */
static void load_scan(struct fake_server *s, int64_t now)
{
    struct fake_load *L = &s->load;
    while (L->scan_ix < s->nix) {
        const struct fake_ix *x = &s->ix[L->scan_ix];
        if (x->load && !x->load_counted)
            break;
        L->scan_ix++;
    }
    for (size_t i = L->scan_ix; i < s->nix; i++) {
        struct fake_ix *x = &s->ix[i];
        if (!x->load || x->load_counted || x->t_callback_us != 0)
            continue;
        if (x->missed || (x->t_dispatch_us &&
                          now - x->t_dispatch_us >
                              (int64_t)FAKE_IX_DEADLINE_MS * 1000)) {
            x->missed = true;
            x->load_counted = true;
            L->missed++;
            L->outstanding--;
        }
    }
}

static void load_tick(lws_sorted_usec_list_t *sul)
{
    struct fake_server *s = lws_container_of(sul, struct fake_server,
                                             load.sul);
    struct fake_load *L = &s->load;
    int64_t now = fake_now_us();
    if (now - L->last_scan_us >= (int64_t)FAKE_LOAD_TICK_MS * 1000) {
        L->last_scan_us = now;
        load_scan(s, now);
    }
    load_pump(s);
    load_arm(s);
}

/* Reads "rate" and "spacing" of a load request into L. */
static int load_rate_args(struct fake_load *L, const json_t *req,
                          const char **err)
{
    const json_t *rate = json_object_get(req, "rate");
    const char *spacing = json_string_value(json_object_get(req, "spacing"));
    L->rate = rate ? json_number_value(rate) : 0.0;
    if ((rate && !json_is_number(rate)) || L->rate < 0 ||
        L->rate > FAKE_LOAD_RATE_MAX) {
        *err = "rate must be a number 0..1000000 (0: closed loop)";
        return -1;
    }
    L->poisson = spacing == NULL || strcmp(spacing, "poisson") == 0;
    if (spacing && !L->poisson && strcmp(spacing, "fixed") != 0) {
        *err = "spacing must be poisson or fixed";
        return -1;
    }
    return 0;
}

int fake_load_start(struct fake_server *s, const json_t *req,
                    const char **err)
{
    struct fake_load *L = &s->load;
    if (L->active) {
        *err = "a load run is already active";
        return -1;
    }
    if (!fake_gw_ready(s)) {
        *err = "no ready gateway session";
        return -1;
    }
    json_int_t count = json_integer_value(json_object_get(req, "count"));
    json_int_t chans = json_integer_value(json_object_get(req, "channels"));
    json_int_t conc = json_integer_value(json_object_get(req, "concurrency"));
    if (count < 1 || count > FAKE_LOAD_MAX) {
        *err = "count must be 1..1000000";
        return -1;
    }
    if (load_rate_args(L, req, err))
        return -1;
    json_t *cmd = json_object_get(req, "command");
    json_t *cmds = json_object_get(req, "commands");
    if (cmds && (!json_is_array(cmds) || json_array_size(cmds) == 0)) {
        *err = "commands must be a non-empty array of descriptions";
        return -1;
    }
    json_decref(L->command);
    if (cmds)
        L->command = json_deep_copy(cmds);
    else if (json_is_object(cmd))
        L->command = json_pack("[o]", json_deep_copy(cmd));
    else
        L->command = json_pack("[{s:s,s:s,s:[{s:s,s:s}]}]", "type",
                               "command", "name", "roll", "options", "name",
                               "dice", "value", "1d20");
    L->total = (long)count;
    L->channels = chans > 0 ? (int)chans : 1;
    L->concurrency = conc > 0 ? (int)conc
                     : L->rate > 0 ? FAKE_LOAD_RATE_CAP : 1;
    L->injected = L->answered = L->missed = L->outstanding = 0;
    L->capped = L->max_lag_us = 0;
    L->cap_counted = -1;
    L->first_ix = L->scan_ix = s->nix;
    L->t_start_us = L->last_scan_us = fake_now_us();
    L->next_us = (double)L->t_start_us;
    L->t_end_us = L->t_last_inject_us = 0;
    L->active = true;
    load_pump(s);
    load_arm(s);
    return 0;
}

static bool load_sample(const struct fake_ix *x)
{
    return x->load && !x->missed && x->t_dispatch_us && x->t_callback_us;
}

static double ix_latency_ms(const struct fake_ix *x)
{
    return (double)(x->t_callback_us - x->t_dispatch_us) / 1000.0;
}

/* Dispatch -> callback latency of this run's answered interactions, and
 * when the slowest ones were dispatched (to tell one stall from a slow
 * steady state). */
static json_t *load_latency(const struct fake_server *s)
{
    const struct fake_load *L = &s->load;
    size_t n = 0, cap = s->nix > L->first_ix ? s->nix - L->first_ix : 1;
    double *v = malloc(cap * sizeof *v);
    if (v == NULL)
        return json_pack("{s:i}", "count", 0);
    for (size_t i = L->first_ix; i < s->nix; i++)
        if (load_sample(&s->ix[i]))
            v[n++] = ix_latency_ms(&s->ix[i]);
    json_t *j = lat_summary(v, n);
    json_t *worst = json_array();
    double floor_ms = n ? v[n - (n < FAKE_LOAD_WORST ? n : FAKE_LOAD_WORST)]
                        : 0;
    for (size_t i = L->first_ix; i < s->nix; i++) {
        const struct fake_ix *x = &s->ix[i];
        if (load_sample(x) && ix_latency_ms(x) >= floor_ms &&
            json_array_size(worst) < FAKE_LOAD_WORST)
            json_array_append_new(worst, json_pack(
                "{s:f,s:f,s:s}", "dispatched_ms",
                (double)(x->t_dispatch_us - L->t_start_us) / 1000.0,
                "latency_ms", ix_latency_ms(x), "channel_id",
                x->channel_id));
    }
    json_object_set_new(j, "worst", worst);
    free(v);
    return j;
}

json_t *fake_load_json(const struct fake_server *s)
{
    const struct fake_load *L = &s->load;
    int64_t end = L->t_end_us ? L->t_end_us : fake_now_us();
    double secs = L->t_start_us ? (double)(end - L->t_start_us) / 1e6 : 0.0;
    double inj_secs = L->t_last_inject_us > L->t_start_us
                          ? (double)(L->t_last_inject_us - L->t_start_us) / 1e6
                          : 0.0;
    json_t *j = json_pack(
        "{s:b,s:I,s:I,s:I,s:I,s:i,s:i,s:f,s:s,s:f,s:s,s:I,s:f,s:f,s:f}",
        "active", L->active, "total", (json_int_t)L->total, "injected",
        (json_int_t)L->injected, "answered", (json_int_t)L->answered,
        "missed", (json_int_t)L->missed, "concurrency", L->concurrency,
        "channels", L->channels, "elapsed_ms", secs * 1000.0, "mode",
        L->rate > 0 ? "rate" : "closed", "rate", L->rate, "spacing",
        L->poisson ? "poisson" : "fixed", "capped", (json_int_t)L->capped,
        "max_lag_ms", (double)L->max_lag_us / 1000.0, "per_second",
        secs > 0 ? (double)L->answered / secs : 0.0, "injected_per_second",
        inj_secs > 0 ? (double)(L->injected - 1) / inj_secs : 0.0);
    /* Sorting every sample is not free: only once the run is over, so
     * polling a run in progress does not slow the fake down. */
    if (!L->active && L->t_start_us)
        json_object_set_new(j, "latency_ms", load_latency(s));
    return j;
}

void fake_ix_reset(struct fake_server *s)
{
    for (size_t i = 0; i < s->nix; i++) {
        json_decref(s->ix[i].callback);
        json_decref(s->ix[i].payload);
    }
    s->nix = 0;
    s->nlat = 0;
    json_object_clear(s->ix_index);
    lws_sul_cancel(&s->load.sul);
    s->load.active = false;
    s->load.first_ix = 0;
}
