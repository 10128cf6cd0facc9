/*
 * i18n_plural.c - a recursive-descent parser and evaluator for gettext's
 * Plural-Forms expressions (i18n_plural.h).
 */
#include "i18n_plural.h"

#include <stdio.h>
#include <string.h>

enum {
    OP_N, OP_NUM, OP_NOT, OP_COND,
    OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD
};

/* Numbers in an expression: nine digits keep the value in 32 bits. */
#define PLURAL_MAX_DIGITS 9

struct pp {
    const char *s;
    size_t len, pos;
    int depth;
    struct i18n_plural *out;
    char *err;
    size_t errlen;
    bool failed;
};

static bool fail(struct pp *p, const char *what)
{
    if (!p->failed)
        snprintf(p->err, p->errlen, "plural expression: %s at byte %zu",
                 what, p->pos);
    p->failed = true;
    return false;
}

static void skip_ws(struct pp *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

/* Whether the next token is tok; consumed when it is. A one-character
 * operator does not match the start of a longer one ("<" in "<="). */
static bool eat(struct pp *p, const char *tok)
{
    size_t n = strlen(tok);
    skip_ws(p);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, tok, n) != 0)
        return false;
    if (n == 1 && p->pos + 1 < p->len && p->s[p->pos + 1] == '=' &&
        strchr("<>!=", tok[0]) != NULL)
        return false;
    if (n == 1 && p->pos + 1 < p->len && (tok[0] == '|' || tok[0] == '&'))
        return false;
    p->pos += n;
    return true;
}

static int node(struct pp *p, int op, int a, int b, int c, uint32_t num)
{
    if (a < 0 || b < 0 || c < 0)
        return -1;
    if (p->out->n >= I18N_PLURAL_MAX_NODES) {
        fail(p, "too many terms (limit is 64)");
        return -1;
    }
    struct i18n_plural_node *nd = &p->out->node[p->out->n];
    nd->op = (uint8_t)op;
    nd->a = (uint8_t)a;
    nd->b = (uint8_t)b;
    nd->c = (uint8_t)c;
    nd->num = num;
    return p->out->n++;
}

static int cond(struct pp *p);

/* prim -> 'n' | NUM | '(' cond ')' | '!' prim */
static int prim(struct pp *p)
{
    skip_ws(p);
    if (p->pos >= p->len) {
        fail(p, "unexpected end");
        return -1;
    }
    char ch = p->s[p->pos];
    if (ch == 'n') {
        p->pos++;
        return node(p, OP_N, 0, 0, 0, 0);
    }
    if (ch >= '0' && ch <= '9') {
        uint32_t v = 0;
        int digits = 0;
        while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
            if (++digits > PLURAL_MAX_DIGITS) {
                fail(p, "number too long (limit is 9 digits)");
                return -1;
            }
            v = v * 10 + (uint32_t)(p->s[p->pos++] - '0');
        }
        return node(p, OP_NUM, 0, 0, 0, v);
    }
    if (ch == '(' || ch == '!') {
        if (++p->depth > I18N_PLURAL_MAX_DEPTH) {
            fail(p, "nested too deep (limit is 16)");
            return -1;
        }
        p->pos++;
        int r;
        if (ch == '!') {
            r = node(p, OP_NOT, prim(p), 0, 0, 0);
        } else {
            r = cond(p);
            if (r >= 0 && !eat(p, ")")) {
                fail(p, "')' expected");
                r = -1;
            }
        }
        p->depth--;
        return r;
    }
    fail(p, "unexpected character");
    return -1;
}

/* One left-associative level: sub (OP sub)*, OPs in toks/ops. */
static int level(struct pp *p, int (*sub)(struct pp *), const char *const *toks,
                 const int *ops)
{
    int l = sub(p);
    while (l >= 0) {
        int k = 0;
        while (toks[k] != NULL && !eat(p, toks[k]))
            k++;
        if (toks[k] == NULL)
            break;
        l = node(p, ops[k], l, sub(p), 0, 0);
    }
    return l;
}

static int mul(struct pp *p)
{
    static const char *const t[] = {"*", "/", "%", NULL};
    static const int o[] = {OP_MUL, OP_DIV, OP_MOD};
    return level(p, prim, t, o);
}

static int add(struct pp *p)
{
    static const char *const t[] = {"+", "-", NULL};
    static const int o[] = {OP_ADD, OP_SUB};
    return level(p, mul, t, o);
}

static int rel(struct pp *p)
{
    static const char *const t[] = {"<=", ">=", "<", ">", NULL};
    static const int o[] = {OP_LE, OP_GE, OP_LT, OP_GT};
    return level(p, add, t, o);
}

static int eq(struct pp *p)
{
    static const char *const t[] = {"==", "!=", NULL};
    static const int o[] = {OP_EQ, OP_NE};
    return level(p, rel, t, o);
}

static int and_(struct pp *p)
{
    static const char *const t[] = {"&&", NULL};
    static const int o[] = {OP_AND};
    return level(p, eq, t, o);
}

static int or_(struct pp *p)
{
    static const char *const t[] = {"||", NULL};
    static const int o[] = {OP_OR};
    return level(p, and_, t, o);
}

/* cond -> or ('?' cond ':' cond)? */
static int cond(struct pp *p)
{
    int c = or_(p);
    if (c < 0 || !eat(p, "?"))
        return c;
    if (++p->depth > I18N_PLURAL_MAX_DEPTH) {
        fail(p, "nested too deep (limit is 16)");
        return -1;
    }
    int a = cond(p);
    if (a >= 0 && !eat(p, ":")) {
        fail(p, "':' expected");
        a = -1;
    }
    int b = a >= 0 ? cond(p) : -1;
    p->depth--;
    return node(p, OP_COND, c, a, b, 0);
}

bool i18n_plural_parse(const char *expr, size_t len, struct i18n_plural *out,
                       char *err, size_t errlen)
{
    struct pp p = {expr, len, 0, 0, out, err, errlen, false};
    out->n = 0;
    if (len > I18N_PLURAL_MAX_LEN)
        return fail(&p, "too long (limit is 256 bytes)");
    if (memchr(expr, '\0', len) != NULL)
        return fail(&p, "NUL byte");
    int root = cond(&p);
    if (root < 0)
        return fail(&p, "bad expression");
    skip_ws(&p);
    if (p.pos != len)
        return fail(&p, "trailing text");
    out->root = (uint8_t)root;
    return true;
}

static unsigned long ev(const struct i18n_plural *p, int i, unsigned long n)
{
    const struct i18n_plural_node *d = &p->node[i];
    unsigned long a, b;
    switch (d->op) {
    case OP_N: return n;
    case OP_NUM: return d->num;
    case OP_NOT: return !ev(p, d->a, n);
    case OP_COND: return ev(p, d->a, n) ? ev(p, d->b, n) : ev(p, d->c, n);
    case OP_OR: return ev(p, d->a, n) || ev(p, d->b, n);
    case OP_AND: return ev(p, d->a, n) && ev(p, d->b, n);
    default: break;
    }
    a = ev(p, d->a, n);
    b = ev(p, d->b, n);
    switch (d->op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_GT: return a > b;
    case OP_LE: return a <= b;
    case OP_GE: return a >= b;
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return b ? a / b : 0;
    case OP_MOD: return b ? a % b : 0;
    default: return 0;
    }
}

unsigned long i18n_plural_eval(const struct i18n_plural *p, unsigned long n)
{
    return p->n == 0 ? 0 : ev(p, p->root, n);
}

/* The value after "key=" in the header's Plural-Forms line, up to ';' or
 * the line's end. */
static bool field(const char *line, size_t len, const char *key,
                  const char **v, size_t *vlen)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= len; i++) {
        if (memcmp(line + i, key, k) != 0 ||
            (i > 0 && line[i - 1] != ' ' && line[i - 1] != ';'))
            continue;
        size_t s = i + k, e = s;
        while (e < len && line[e] != ';' && line[e] != '\n')
            e++;
        *v = line + s;
        *vlen = e - s;
        return true;
    }
    return false;
}

bool i18n_plural_header(const char *header, size_t len, unsigned max,
                        unsigned *nplurals, struct i18n_plural *out,
                        char *err, size_t errlen)
{
    static const char tag[] = "Plural-Forms:";
    const char *line = NULL;
    for (size_t i = 0; i + sizeof tag - 1 <= len; i++)
        if ((i == 0 || header[i - 1] == '\n') &&
            memcmp(header + i, tag, sizeof tag - 1) == 0) {
            line = header + i + sizeof tag - 1;
            break;
        }
    if (line == NULL) {
        snprintf(err, errlen, "no Plural-Forms header");
        return false;
    }
    size_t llen = (size_t)(header + len - line);
    const char *nl = memchr(line, '\n', llen);
    if (nl != NULL)
        llen = (size_t)(nl - line);
    const char *v;
    size_t vlen;
    if (!field(line, llen, "nplurals=", &v, &vlen) || vlen != 1 ||
        v[0] < '1' || (unsigned)(v[0] - '0') > max) {
        snprintf(err, errlen, "Plural-Forms: nplurals must be 1..%u", max);
        return false;
    }
    *nplurals = (unsigned)(v[0] - '0');
    if (!field(line, llen, "plural=", &v, &vlen)) {
        snprintf(err, errlen, "Plural-Forms: no plural=");
        return false;
    }
    return i18n_plural_parse(v, vlen, out, err, errlen);
}
