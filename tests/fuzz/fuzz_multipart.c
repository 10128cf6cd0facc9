/*
 * fuzz_multipart.c - file uploads both ways: fray's builder
 * (bot/discord/multipart.c) and the fake Discord's parser
 * (tests/fakes/fake_multipart.c), which must read back exactly what the
 * builder wrote.
 *
 * Input: the first line is a Content-Type for the parser; the rest is fed
 * to fake_mp_parse() as a body under it (malformed bodies: refused with a
 * reason, never read past). Then the rest, split at its first NUL, is a
 * payload_json text and one file's bytes for mp_build(), whose body the
 * parser must accept with the two parts byte for byte.
 *
 * Properties checked: a parsed part lies inside the body and names a
 * field; a refusal is a non-empty reason; what mp_build() writes always
 * parses, with payload_json and files[0] (its name and bytes) intact.
 */
#include <string.h>

#include "fake_multipart.h"
#include "fuzz.h"
#include "multipart.h"

static void parse_raw(const char *ctype, const char *body, size_t len)
{
    struct fake_mp m;
    const char *why = fake_mp_parse(ctype, body, len, &m);
    if (why != NULL) {
        FUZZ_CHECK(why[0] != '\0');
        return;
    }
    for (int i = 0; i < m.nparts; i++) {
        FUZZ_CHECK(m.parts[i].name[0] != '\0');
        FUZZ_CHECK(m.parts[i].data >= body &&
                   m.parts[i].data + m.parts[i].len <= body + len);
    }
}

static void round_trip(const char *rest, size_t len)
{
    const char *nul = memchr(rest, '\0', len);
    size_t plen = nul != NULL ? (size_t)(nul - rest) : len;
    char *payload = malloc(plen + 1);
    if (payload == NULL)
        return;
    memcpy(payload, rest, plen);
    payload[plen] = '\0';
    const char *file = nul != NULL ? nul + 1 : rest + len;
    size_t flen = (size_t)(rest + len - file);
    struct mp_file f = {"fight-log.md", "text/markdown", file, flen};
    struct mp_body b;
    if (mp_build(payload, &f, 1, &b) == BOT_OK) {
        struct fake_mp m;
        FUZZ_CHECK(fake_mp_parse(b.content_type, b.data, b.len, &m) == NULL);
        const struct fake_mp_part *p = fake_mp_find(&m, "payload_json");
        FUZZ_CHECK(p != NULL && p->len == plen &&
                   memcmp(p->data, payload, plen) == 0);
        p = fake_mp_find(&m, "files[0]");
        FUZZ_CHECK(p != NULL && p->len == flen &&
                   (flen == 0 || memcmp(p->data, file, flen) == 0));
        FUZZ_CHECK(strcmp(p->filename, "fight-log.md") == 0);
        mp_body_free(&b);
    }
    free(payload);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    const char *eol = memchr(s, '\n', size);
    size_t clen = eol != NULL ? (size_t)(eol - s) : size;
    char ctype[256];
    if (clen >= sizeof ctype)
        clen = sizeof ctype - 1;
    memcpy(ctype, s, clen);
    ctype[clen] = '\0';
    const char *rest = eol != NULL ? eol + 1 : s + size;
    size_t rlen = (size_t)(s + size - rest);
    parse_raw(ctype, rest, rlen);
    round_trip(rest, rlen);
    return 0;
}
