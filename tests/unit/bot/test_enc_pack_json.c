/*
 * A packed fight is the same fight: for every ruleset, the stored document
 * (enc_json_dump) of an encounter, of its enc_pack/enc_unpack round trip
 * and of the copy the encounter cache hands out once it has packed it are
 * the same bytes; the document read back (enc_json_load) packs and unpacks
 * to the same document too.
 *
 * The sample fight, made for each ruleset in rs_all(): two sides of four
 * ("Red 1".."Red 4", "Blue 1".."Blue 4", the blue ones a player's and the
 * last hidden), each with the stats "ac=13 init=2 attack=5" and 12 hp, a
 * note and an initiative expression on the first, a condition on the
 * second, one setting; the ruleset's setup for each, then its begin and two
 * turn ends, whatever they say.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "enc_cache.h"
#include "enc_json.h"
#include "enc_pack.h"
#include "rs.h"
#include "rs_fixture.h"

static void sample(struct rs_fx *f, const struct rs_system *rs,
                   struct enc_result *r)
{
    rs_fx_sample(f, rs, 5, r);
    struct encounter *e = f->e;
    e->cs[7].hidden = true;
    e->version = 9;
}

/* The document of e's pack and unpack, which must be want. */
static void same_after_round_trip(const struct encounter *e, const char *want)
{
    struct enc_pack *p = enc_pack(e);
    assert_non_null(p);
    struct encounter *u = enc_unpack(p);
    assert_non_null(u);
    char *got = enc_json_dump(u);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    enc_free(u);
    enc_pack_free(p);
}

static void test_enc_pack_json_every_ruleset(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        struct rs_fx f;
        struct enc_result r;
        sample(&f, all[i], &r);
        char *want = enc_json_dump(f.e);
        assert_non_null(want);
        same_after_round_trip(f.e, want);

        /* Read back from its document, as a command does on a miss. */
        struct encounter *loaded = NULL;
        char why[160];
        assert_int_equal(enc_json_load(want, &loaded, why, sizeof why),
                         BOT_OK);
        char *again = enc_json_dump(loaded);
        assert_non_null(again);
        same_after_round_trip(loaded, again);
        free(again);
        enc_free(loaded);

        /* Through the cache: put, packed when another channel is put,
         * copied out. */
        struct enc_cache *c = NULL;
        assert_int_equal(enc_cache_new(0, 0, &c), BOT_OK);
        enc_cache_put(c, 1, enc_clone(f.e), 0);
        enc_cache_put(c, 2, enc_new(all[i], "other", 1), 0);
        struct encounter *copy = NULL;
        assert_int_equal(enc_cache_copy(c, 1, 0, &copy), BOT_OK);
        assert_non_null(copy);
        char *cached = enc_json_dump(copy);
        assert_string_equal(cached, want);
        free(cached);
        enc_free(copy);
        enc_cache_free(c);

        free(want);
        rs_fx_cleanup(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enc_pack_json_every_ruleset),
    };
    return cmocka_run_group_tests_name("enc_pack_json", tests, NULL, NULL);
}
