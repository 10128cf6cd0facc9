/* fake_util.c - time, ids, UTF-8 counting, Discord error trees, violations. */
#include "fake.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FAKE_DISCORD_EPOCH_MS 1420070400000ull

int64_t fake_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

double fake_rel_ms(const struct fake_server *s, int64_t us)
{
    return us ? (double)(us - s->t0_us) / 1000.0 : 0.0;
}

/* xorshift64*: ids and tokens only need to be unique and unpredictable
 * enough for a test, not cryptographic. */
uint64_t fake_rand(struct fake_server *s)
{
    uint64_t x = s->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    s->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

int64_t fake_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t fake_snowflake_ms(const char *id, int64_t fallback)
{
    char *end;
    unsigned long long v;
    if (id == NULL || *id < '0' || *id > '9')
        return fallback;
    errno = 0;
    v = strtoull(id, &end, 10);
    if (errno || *end || (v >> 22) == 0)
        return fallback;
    return (int64_t)(v >> 22) + (int64_t)FAKE_DISCORD_EPOCH_MS;
}

void fake_snowflake(struct fake_server *s, char out[24])
{
    fake_snowflake_aged(s, out, 0);
}

void fake_snowflake_aged(struct fake_server *s, char out[24], int64_t age_ms)
{
    uint64_t ms = (uint64_t)(fake_wall_ms() - age_ms);
    uint64_t id = ((ms - FAKE_DISCORD_EPOCH_MS) << 22) | (1ull << 17) |
                  (1ull << 12) | (s->snow++ & 0xFFF);
    snprintf(out, 24, "%llu", (unsigned long long)id);
}

void fake_random_hex(struct fake_server *s, char *out, size_t nhex)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < nhex; i++)
        out[i] = hex[fake_rand(s) & 15];
    out[nhex] = '\0';
}

size_t fake_utf8_len(const char *str)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)str; *p; p++)
        if ((*p & 0xC0) != 0x80)
            n++;
    return n;
}

/* Discord trims leading and trailing whitespace before counting. */
size_t fake_trimmed_len(const char *str)
{
    const char *b = str, *e = str + strlen(str);
    while (b < e && isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)b;
         p < (const unsigned char *)e; p++)
        if ((*p & 0xC0) != 0x80)
            n++;
    return n;
}

char *fake_dump(const json_t *j)
{
    return json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
}

void fake_pathf(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

void fake_log(const struct fake_server *s, const char *fmt, ...)
{
    if (!s->opt.verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("fake-discord: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void fake_err_add(json_t *errors, const char *path, const char *code,
                  const char *msg)
{
    json_t *node = errors;
    char part[64];
    const char *p = path;
    while (*p) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof part)
            n = sizeof part - 1;
        memcpy(part, p, n);
        part[n] = '\0';
        json_t *child = json_object_get(node, part);
        if (!json_is_object(child)) {
            child = json_object();
            json_object_set_new(node, part, child);
        }
        node = child;
        p += n;
        if (*p == '.')
            p++;
    }
    json_t *list = json_object_get(node, "_errors");
    if (!json_is_array(list)) {
        list = json_array();
        json_object_set_new(node, "_errors", list);
    }
    json_array_append_new(list, json_pack("{s:s,s:s}", "code", code,
                                          "message", msg));
}

json_t *fake_form_error(json_t *errors)
{
    return json_pack("{s:i,s:s,s:o}", "code", 50035, "message",
                     "Invalid Form Body", "errors", errors);
}

void fake_violation(struct fake_server *s, const char *kind, long req,
                    const char *fmt, ...)
{
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    json_t *v = json_pack("{s:I,s:s,s:s,s:f}", "seq",
                          (json_int_t)json_array_size(s->violations) + 1,
                          "kind", kind, "detail", detail, "t_ms",
                          fake_rel_ms(s, fake_now_us()));
    if (req >= 0)
        json_object_set_new(v, "request", json_integer(req + 1));
    json_array_append_new(s->violations, v);
    json_t *c = json_object_get(s->vcounts, kind);
    json_object_set_new(s->vcounts, kind,
                        json_integer(c ? json_integer_value(c) + 1 : 1));
    fake_log(s, "violation %s: %s", kind, detail);
}
