/* Every ruleset in the registry honours the rs_ops contract. */
#include "support.h"

#include <stdio.h>
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
        assert_int_equal(rs_index(s), (int)i);
        for (size_t k = 0; k < i; k++)
            assert_string_not_equal(all[k]->id, s->id);
        /* listed by rank (the generated registry's order), no two alike */
        if (i > 0)
            assert_true(all[i - 1]->rank < s->rank);
    }
    assert_null(rs_find("no-such-system"));
    assert_non_null(rs_find("GENERIC"));
}

/* The attack option of s named name, or NULL. */
static const struct rs_opt_spec *attack_opt(const struct rs_system *s,
                                            const char *name)
{
    for (int i = 0; s->attack_opts != NULL && s->attack_opts[i].name; i++)
        if (strcmp(s->attack_opts[i].name, name) == 0)
            return &s->attack_opts[i];
    return NULL;
}

/* An area declaration names the system's own attack options: a list of
 * names for the others, at least one option that makes an attack an area
 * one, and room for two targets at least. The tactical blast and
 * template are the one such declaration among the six. */
static void test_registry_area_attacks(void **state)
{
    (void)state;
    size_t n;
    int with_area = 0;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        const struct rs_area *a = all[i]->area;
        if (a == NULL)
            continue;
        with_area++;
        const struct rs_opt_spec *more = attack_opt(all[i], a->more);
        assert_non_null(more);
        assert_int_equal(more->val, RS_VAL_NAMES);
        assert_non_null(a->when);
        assert_non_null(a->when[0]);
        for (int k = 0; a->when[k] != NULL; k++)
            assert_non_null(attack_opt(all[i], a->when[k]));
        assert_true(a->max_targets >= 2);
    }
    assert_int_equal(with_area, 1);
    assert_non_null(rs_find("tactical")->area);
}

/* The registry is generated from the folders: every
 * engine/rulesets/<id>/ with its rs_<id>_decl.c is a row, and each row
 * has its folder. */
/* Every track a system says damage changes is one of its declared tracks,
 * within ENC_MAX_HARM, named once. */
static void test_registry_harm_is_declared_tracks(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        const struct rs_harm_spec *h = all[i]->harm;
        assert_non_null(h);
        int k = 0;
        for (; h[k].track != NULL; k++) {
            assert_true(k < ENC_MAX_HARM);
            bool found = false;
            for (const struct rs_stat_spec *st = all[i]->stats;
                 st != NULL && st->name != NULL; st++)
                found |= strcmp(st->name, h[k].track) == 0 &&
                         st->kind != RS_STAT;
            if (!found)
                fail_msg("%s: harm track %s is not a declared track",
                         all[i]->id, h[k].track);
            for (int j = 0; j < k; j++)
                assert_string_not_equal(h[j].track, h[k].track);
        }
        assert_true(k >= 1);
    }
}

/* What a saved character keeps (rs_system.lasts): each entry is a stat
 * the system declares, or, in a system with open stats, every stat or
 * every stat with a suffix; each quotes its chapter. */
static void test_registry_lasts_are_declared_stats(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        const struct rs_system *s = all[i];
        for (const struct rs_lasting *l = s->lasts; l != NULL && l->stat;
             l++) {
            assert_non_null(l->why);
            assert_true(strlen(l->why) > 20);
            if (l->stat[0] == '*') {
                if (!(s->flags & RS_F_OPEN_STATS))
                    fail_msg("%s: %s needs open stats", s->id, l->stat);
                continue;
            }
            bool found = false;
            for (const struct rs_stat_spec *st = s->stats;
                 st != NULL && st->name != NULL; st++)
                found |= strcmp(st->name, l->stat) == 0 &&
                         st->kind == RS_STAT;
            if (!found)
                fail_msg("%s: lasting %s is not a declared stat", s->id,
                         l->stat);
        }
    }
}

static void test_registry_is_the_folders(void **state)
{
    (void)state;
    size_t n;
    const struct rs_system *const *all = rs_all(&n);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/engine/rulesets/%s/rs_%s_decl.c",
                 FRAY_SOURCE_DIR, all[i]->id, all[i]->id);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fclose(f);
    }
    assert_int_equal(n, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_contract),
        cmocka_unit_test(test_registry_harm_is_declared_tracks),
        cmocka_unit_test(test_registry_lasts_are_declared_stats),
        cmocka_unit_test(test_registry_is_the_folders),
        cmocka_unit_test(test_registry_area_attacks),
    };
    return cmocka_run_group_tests_name("rs_registry", tests, NULL, NULL);
}
