/* Every ruleset in the registry honours the rs_ops contract. */
#include "support.h"

#include <string.h>

#include "rs.h"

static void test_registry_contract(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    assert_true(n >= 1);
    for (size_t i = 0; i < n; i++) {
        const struct rs_system *s = all[i];
        assert_non_null(s->id);
        assert_true(strlen(s->id) <= ENC_MAX_RS_ID);
        assert_non_null(s->title);
        assert_non_null(s->summary);
        assert_non_null(s->ops);
        assert_true(s->ops->version >= 1 &&
                    s->ops->version <= RS_OPS_VERSION);
        assert_non_null(s->ops->setup);
        assert_non_null(s->ops->begin);
        assert_non_null(s->ops->next);
        if (s->flags & RS_F_ALTERNATING) {
            assert_non_null(s->ops->pick);
        }
        assert_ptr_equal(rs_find(s->id), s);
        for (size_t k = 0; k < i; k++)
            assert_string_not_equal(all[k]->id, s->id);
    }
    assert_null(rs_find("no-such-system"));
    assert_non_null(rs_find("GENERIC"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_contract),
    };
    return cmocka_run_group_tests_name("rs_registry", tests, NULL, NULL);
}
