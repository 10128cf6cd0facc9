/* Tests for the factions ruleset: the turn structure (alternation, passes,
 * automatic passes, fast and slow phases, the ambush bonus turn) and the
 * chapter's fast/slow example. Fights are in test_rs_factions_fight.c. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"
#include "rs.h"
#include "rs_factions.h"
#include "turn.h"

extern const struct rs_system rs_factions;

struct fx {
    struct encounter *e;
    struct eng_rng rng;
    struct enc_result *r;
    struct enc_diag d;
    struct rs_opt opts[8];
    int nopts;
    char log[2048];          /* "T:name" per turn start, "R:n" per round */
};

static int fx_setup(void **state)
{
    struct fx *f = test_calloc(1, sizeof *f);
    f->e = enc_new("factions", "test", 1);
    f->r = test_malloc(sizeof *f->r);
    enc_result_init(f->r);
    eng_rng_seed(&f->rng, 1);
    *state = f;
    return 0;
}

static int fx_teardown(void **state)
{
    struct fx *f = *state;
    enc_free(f->e);
    test_free(f->r);
    test_free(f);
    return 0;
}

static struct rs_call fx_call(struct fx *f, bool gm, uint64_t user)
{
    enc_result_init(f->r);
    memset(&f->d, 0, sizeof f->d);
    struct rs_call c = {
        .e = f->e, .rng = &f->rng, .r = f->r, .d = &f->d,
        .user = user, .is_gm = gm, .opts = f->opts, .nopts = f->nopts,
    };
    return c;
}

static void fx_opts(struct fx *f, const char *k1, const char *v1,
                    const char *k2, const char *v2)
{
    f->nopts = 0;
    if (k1 != NULL)
        f->opts[f->nopts++] = (struct rs_opt){k1, v1};
    if (k2 != NULL)
        f->opts[f->nopts++] = (struct rs_opt){k2, v2};
}

/* Append the turn starts and new rounds of the last call to the log. */
static void fx_log(struct fx *f)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        char item[96] = "";
        if (ev->kind == ENC_EV_TURN)
            snprintf(item, sizeof item, "T:%s ",
                     enc_by_id(f->e, ev->who)->name);
        else if (ev->kind == ENC_EV_ROUND)
            snprintf(item, sizeof item, "R:%lld ", (long long)ev->a);
        strncat(f->log, item, sizeof f->log - strlen(f->log) - 1);
    }
}

static bool fx_has_text(const struct fx *f, const char *needle)
{
    for (int i = 0; i < f->r->nev; i++)
        if (f->r->ev[i].kind == ENC_EV_TEXT &&
            strstr(f->r->ev[i].text, needle) != NULL)
            return true;
    return false;
}

static struct enc_combatant *fx_add(struct fx *f, const char *name,
                                    const char *side, const char *stats,
                                    uint64_t owner)
{
    int s = enc_side_get(f->e, side, &f->d);
    assert_true(s >= 0);
    uint32_t id;
    assert_int_equal(enc_add(f->e, name, 1, owner, s, &f->d, &id), ENG_OK);
    struct enc_combatant *w = enc_by_id(f->e, id);
    struct enc_kv kv[ENC_MAX_STATS];
    int n;
    assert_int_equal(enc_parse_stats(stats, kv, ENC_MAX_STATS, &n, &f->d),
                     ENG_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(enc_stat_set(w, kv[i].name, kv[i].value, &f->d),
                         ENG_OK);
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->setup(&c, w), ENG_OK);
    return w;
}

static struct enc_combatant *fx_who(struct fx *f, const char *name)
{
    struct enc_combatant *w = enc_by_name(f->e, name);
    assert_non_null(w);
    return w;
}

static enum eng_err fx_begin(struct fx *f, const char *first)
{
    fx_opts(f, first ? "first" : NULL, first, NULL, NULL);
    struct rs_call c = fx_call(f, true, 1);
    enum eng_err err = rs_factions.ops->begin(&c);
    fx_log(f);
    f->nopts = 0;
    return err;
}

static enum eng_err fx_pick(struct fx *f, const char *name)
{
    struct rs_call c = fx_call(f, true, 1);
    enum eng_err err = rs_factions.ops->pick(&c, fx_who(f, name));
    fx_log(f);
    return err;
}

static enum eng_err fx_next(struct fx *f)
{
    struct rs_call c = fx_call(f, true, 1);
    enum eng_err err = rs_factions.ops->next(&c);
    fx_log(f);
    return err;
}

static enum eng_err fx_pass(struct fx *f)
{
    struct rs_call c = fx_call(f, true, 1);
    enum eng_err err = rs_factions.ops->pass(&c);
    fx_log(f);
    return err;
}

static enum eng_err fx_action(struct fx *f, const char *verb, bool gm,
                              uint64_t user)
{
    struct rs_call c = fx_call(f, gm, user);
    enum eng_err err = rs_factions.ops->action(&c, verb);
    fx_log(f);
    f->nopts = 0;
    return err;
}

static const char *fx_acting(struct fx *f)
{
    assert_true(f->e->acting_side >= 0);
    return f->e->sides[f->e->acting_side].name;
}

static void fx_setting(struct fx *f, const char *k, const char *v)
{
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->setting(&c, k, v), ENG_OK);
}

/* ---- the chapter's example -------------------------------------------- */

static void fx_example_cast(struct fx *f)
{
    fx_setting(f, "phases", "on");
    fx_add(f, "Balthasar", "Players", "str=10 agi=10 wit=12 hp=8", 0);
    fx_add(f, "Sybilla", "Players", "str=10 agi=10 wit=6 hp=8", 0);
    fx_add(f, "Theobald", "Players", "str=10 agi=10 wit=9 hp=8", 0);
    fx_add(f, "Bandit 1", "Bandits", "str=10 agi=20 wit=8 hp=6", 0);
    fx_add(f, "Bandit 2", "Bandits", "str=10 agi=10 wit=8 hp=6", 0);
    fx_add(f, "Leader", "Bandits", "str=10 agi=10 wit=10 hp=8", 0);
}

/* Seed 23 draws a 9 for round 1's fast action threshold: the first roll of
 * the fight (the Players hold the initiative, so no faction is drawn). */
enum { EXAMPLE_SEED = 23 };

/* Balthasar (WIT 12), Sybilla (6), Theobald (9) against two bandits (8) and
 * their leader (10); the Players have the initiative; the threshold is 9.
 * Fast: Theobald, then the leader; the Players pass though Balthasar could
 * act; a bandit dodges Theobald's attack out of turn. Slow: Sybilla, the
 * bandit who did not dodge, Balthasar. */
static void test_example_fast_and_slow(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, EXAMPLE_SEED);
    assert_int_equal(fx_begin(f, "Players"), ENG_OK);
    assert_int_equal(f->r->nrolls, 1);
    assert_string_equal(f->r->rolls[0].label, "fast action threshold");
    assert_string_equal(f->r->rolls[0].detail, "[9]");
    assert_int_equal(f->e->rs[FAC_E_FAT], 9);
    assert_int_equal(f->e->phase, FAC_PH_FAST);
    assert_string_equal(fx_acting(f), "Players");

    /* Sybilla's WIT 6 is below 9: not in the fast phase. */
    assert_int_equal(fx_pick(f, "Sybilla"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Theobald"), ENG_OK);
    /* Theobald attacks Bandit 1, who dodges although it could not act in
     * this phase (WIT 8 < 9); AGI 20 always passes. */
    struct rs_call c = fx_call(f, true, 1);
    struct rs_attack a = {fx_who(f, "Theobald"), fx_who(f, "Bandit 1"), NULL,
                          "1d6", "react=dodge"};
    assert_int_equal(rs_factions.ops->attack(&c, &a), ENG_OK);
    fx_log(f);
    assert_true(fx_who(f, "Bandit 1")->flags & ENC_CF_ACTED);
    assert_int_equal(f->e->current, fx_who(f, "Theobald")->id);
    assert_int_equal(fx_next(f), ENG_OK);

    assert_string_equal(fx_acting(f), "Bandits");
    assert_int_equal(fx_pick(f, "Bandit 2"), ENG_STATE);  /* WIT 8 */
    assert_int_equal(fx_pick(f, "Leader"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);

    assert_string_equal(fx_acting(f), "Players");
    assert_int_equal(fx_pass(f), ENG_OK);  /* Balthasar could act */
    /* The bandits have nobody fast left: they pass on their own, and with
     * both factions passing in a row the slow phase opens. */
    assert_true(fx_has_text(f, "Bandits passes: nobody left to act"));
    assert_int_equal(f->e->phase, FAC_PH_SLOW);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Players");

    assert_int_equal(fx_pick(f, "Sybilla"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Bandits");
    assert_int_equal(fx_pick(f, "Bandit 1"), ENG_STATE); /* it dodged */
    assert_int_equal(fx_pick(f, "Leader"), ENG_STATE);   /* it acted */
    assert_int_equal(fx_pick(f, "Bandit 2"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Players");
    assert_int_equal(fx_pick(f, "Balthasar"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Nobody is left: both factions pass automatically, round 2 opens. */
    assert_int_equal(f->e->round, 2);

    assert_string_equal(f->log, "R:1 T:Theobald T:Bandit 1 T:Leader "
                        "T:Sybilla "
                        "T:Bandit 2 T:Balthasar R:2 ");
}

/* The GM may give the threshold rolled at the table. */
static void test_fat_set_by_gm(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, 11);
    assert_int_equal(fx_begin(f, "Players"), ENG_OK);
    fx_opts(f, "value", "12", NULL, NULL);
    assert_int_equal(fx_action(f, "combat fat", false, 5), ENG_PERM);
    fx_opts(f, "value", "12", NULL, NULL);
    assert_int_equal(fx_action(f, "combat fat", true, 1), ENG_OK);
    assert_int_equal(f->e->rs[FAC_E_FAT], 12);
    assert_int_equal(f->e->phase, FAC_PH_FAST);
    /* Only Balthasar (12) is fast; the bandits pass on their own. */
    assert_int_equal(fx_pick(f, "Theobald"), ENG_STATE);
    assert_int_equal(fx_pick(f, "Balthasar"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->phase, FAC_PH_SLOW);
    assert_string_equal(fx_acting(f), "Players");
    /* Someone took a turn this round: too late to change it. */
    fx_opts(f, "value", "3", NULL, NULL);
    assert_int_equal(fx_action(f, "combat fat", true, 1), ENG_STATE);
}

/* Each round rolls a new threshold openly; a seed shows which. */
static void test_fat_rolled_each_round(void **state)
{
    struct fx *f = *state;
    fx_example_cast(f);
    eng_rng_seed(&f->rng, 5);
    assert_int_equal(fx_begin(f, "Bandits"), ENG_OK);
    int64_t fat = f->r->rolls[0].total;
    assert_int_equal(f->e->rs[FAC_E_FAT], fat);
    assert_true(fat >= 1 && fat <= 20);
    /* Everyone passes (manually or automatically) through both phases. */
    for (int i = 0; i < 8 && f->e->round == 1; i++)
        assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    int last = f->r->nrolls - 1;
    assert_string_equal(f->r->rolls[last].label, "fast action threshold");
    int64_t fat2 = f->r->rolls[last].total;
    assert_int_equal(f->e->rs[FAC_E_FAT], fat2);
    /* Nobody has WIT above 12: a higher threshold leaves the fast phase
     * empty, every faction passes on its own and the slow phase opens. */
    assert_int_equal(f->e->phase, fat2 > 12 ? FAC_PH_SLOW : FAC_PH_FAST);
}

/* ---- alternation and passes ---------------------------------------------- */

static void fx_two_sides(struct fx *f)
{
    fx_add(f, "Ann", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Ben", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    fx_add(f, "Dan", "Blue", "wit=10 hp=5", 0);
}

static void test_round_ends_when_all_pass_in_a_row(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(f->e->round, 1);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pass(f), ENG_OK);          /* Red passes */
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);   /* breaks the chain */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pass(f), ENG_OK);          /* 1 in a row */
    assert_int_equal(f->e->round, 1);
    /* Red's earlier pass forfeits nothing: Blue passing hands it back. */
    assert_int_equal(fx_pass(f), ENG_OK);          /* 2 in a row: ends */
    assert_int_equal(f->e->round, 2);
    assert_true(fx_has_text(f, "round 1 ends"));
    /* New round: everyone may act again; the holder decides first. */
    assert_string_equal(fx_acting(f), "Red");
    assert_false(fx_who(f, "Cat")->flags & ENC_CF_ACTED);
}

static void test_pass_does_not_forfeit_later_turns(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);           /* Red */
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);    /* Blue */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);    /* Red after passing */
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(f->log, "R:1 T:Cat T:Ann ");
}

static void test_automatic_pass(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Solo", "Red", "wit=10 hp=5", 0);
    fx_add(f, "Cat", "Blue", "wit=10 hp=5", 0);
    fx_add(f, "Dan", "Blue", "wit=10 hp=5", 0);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Solo"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Red has nobody left: it passes on its own, Blue decides again. */
    assert_true(fx_has_text(f, "Red passes: nobody left to act"));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(f->e->rs[FAC_E_PASSES], 1);
    assert_int_equal(fx_pick(f, "Dan"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Both have nobody: two automatic passes end the round. */
    assert_int_equal(f->e->round, 2);
    assert_string_equal(f->log, "R:1 T:Solo T:Cat T:Dan R:2 ");
}

static void test_three_factions_need_three_passes(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    fx_add(f, "Gus", "Green", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Green");
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(f->e->round, 1);
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
}

static void test_pick_and_pass_are_checked(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 42);
    fx_add(f, "Ben", "Red", "hp=5", 0);
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ann")), ENG_STATE);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    assert_int_equal(fx_pick(f, "Cat"), ENG_STATE);     /* not Blue's go */
    assert_string_equal(f->d.msg, "it is Red's decision now, not Blue's");
    assert_int_equal(fx_next(f), ENG_STATE);            /* nobody's turn */
    /* A player may pick their own character, not the GM's. */
    c = fx_call(f, false, 42);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ben")), ENG_PERM);
    c = fx_call(f, false, 7);
    assert_int_equal(rs_factions.ops->pass(&c), ENG_PERM);
    c = fx_call(f, false, 42);
    assert_int_equal(rs_factions.ops->pick(&c, fx_who(f, "Ann")), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_STATE);            /* turn running */
    assert_int_equal(fx_pick(f, "Ben"), ENG_STATE);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pass(f), ENG_OK);               /* Blue */
    assert_int_equal(fx_pick(f, "Ann"), ENG_STATE);     /* acted */
}

static void test_down_characters_pass_automatically(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    fx_who(f, "Cat")->flags |= ENC_CF_DOWN;
    fx_who(f, "Dan")->flags |= ENC_CF_DOWN;
    assert_int_equal(fx_begin(f, "Blue"), ENG_OK);
    /* Blue holds the initiative but nobody there can act. */
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_string_equal(fx_acting(f), "Red");
    assert_int_equal(fx_pick(f, "Ben"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(f->e->round, 2);
    /* If nobody at all can act, the fight waits instead of spinning. */
    fx_who(f, "Ann")->flags |= ENC_CF_DOWN;
    fx_who(f, "Ben")->flags |= ENC_CF_DOWN;
    assert_int_equal(fx_pass(f), ENG_OK);
    assert_true(fx_has_text(f, "nobody is able to act"));
    assert_int_equal(f->e->acting_side, -1);
    assert_int_equal(fx_pass(f), ENG_STATE);
}

static void test_holder_drawn_at_random(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    eng_rng_seed(&f->rng, 99);
    assert_int_equal(fx_begin(f, NULL), ENG_OK);
    assert_string_equal(f->r->rolls[0].label,
                        "faction holding the initiative");
    /* 1 is the first side made (Red), 2 the second (Blue). */
    const char *want = f->r->rolls[0].total == 1 ? "Red" : "Blue";
    assert_true(f->r->rolls[0].total == 1 || f->r->rolls[0].total == 2);
    assert_string_equal(fx_acting(f), want);
    assert_int_equal(f->e->rs[FAC_E_HOLDER], f->r->rolls[0].total - 1);
}

static void test_holder_chooses_first_faction(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 42);
    fx_add(f, "Cat", "Blue", "hp=5", 43);
    assert_int_equal(fx_begin(f, "Red"), ENG_OK);
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "combat first", false, 43), ENG_PERM);
    fx_opts(f, "side", "Blue", NULL, NULL);
    assert_int_equal(fx_action(f, "combat first", false, 42), ENG_OK);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    fx_opts(f, "side", "Red", NULL, NULL);
    assert_int_equal(fx_action(f, "combat first", true, 1), ENG_STATE);
    assert_int_equal(fx_next(f), ENG_OK);
    assert_int_equal(fx_pick(f, "Ann"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Next round the holder (Red) starts again unless it chooses. */
    assert_int_equal(f->e->round, 2);
    assert_string_equal(fx_acting(f), "Red");
}

static void test_ambush_bonus_turn(void **state)
{
    struct fx *f = *state;
    fx_two_sides(f);
    fx_opts(f, "first", "Blue", "surprise", "Cat");
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->begin(&c), ENG_OK);
    fx_log(f);
    f->nopts = 0;
    assert_int_equal(f->e->phase, FAC_PH_AMBUSH);
    assert_int_equal(f->e->round, 0);
    assert_non_null(enc_cond_find(fx_who(f, "Cat"), FAC_COND_CONCEALED));
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Dan"), ENG_STATE);   /* not concealed */
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_int_equal(fx_next(f), ENG_OK);
    /* Red has no ambusher, nor has Blue now: round 1 begins, and Cat may
     * act again in it. */
    assert_int_equal(f->e->round, 1);
    assert_int_equal(f->e->phase, FAC_PH_ROUND);
    assert_string_equal(fx_acting(f), "Blue");
    assert_int_equal(fx_pick(f, "Cat"), ENG_OK);
    assert_string_equal(f->log, "T:Cat R:1 T:Cat ");
}

static void test_begin_is_checked(void **state)
{
    struct fx *f = *state;
    fx_add(f, "Ann", "Red", "hp=5", 0);
    assert_int_equal(fx_begin(f, NULL), ENG_STATE);     /* one faction */
    fx_add(f, "Cat", "Blue", "hp=5", 0);
    assert_int_equal(fx_begin(f, "Green"), ENG_NOTFOUND);
    fx_opts(f, "surprise", "Ann, Nobody", NULL, NULL);
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->begin(&c), ENG_NOTFOUND);
    assert_int_equal(f->e->status, ENC_ST_SETUP);
    assert_int_equal(fx_who(f, "Ann")->nconds, 0);
}

static void test_settings_and_stats(void **state)
{
    struct fx *f = *state;
    struct rs_call c = fx_call(f, true, 1);
    assert_int_equal(rs_factions.ops->setting(&c, "phases", "maybe"),
                     ENG_INVALID);
    assert_int_equal(rs_factions.ops->setting(&c, "save", "under"),
                     ENG_INVALID);
    assert_int_equal(rs_factions.ops->setting(&c, "impaired", "1d"),
                     ENG_SYNTAX);
    assert_int_equal(rs_factions.ops->setting(&c, "colour", "red"),
                     ENG_NOTFOUND);
    assert_int_equal(rs_factions.ops->setting(&c, "impaired", "1d3"),
                     ENG_OK);
    assert_int_equal(rs_factions.ops->setting(&c, "phases", "on"), ENG_OK);
    /* With phases on, a combatant needs a wit score. */
    int s = enc_side_get(f->e, "Red", &f->d);
    uint32_t id;
    assert_int_equal(enc_add(f->e, "Ann", 1, 0, s, &f->d, &id), ENG_OK);
    struct enc_combatant *w = enc_by_id(f->e, id);
    assert_int_equal(rs_factions.ops->setup(&c, w), ENG_INVALID);
    assert_int_equal(enc_stat_set(w, "wit", 31, &f->d), ENG_OK);
    assert_int_equal(rs_factions.ops->setup(&c, w), ENG_RANGE);
    assert_int_equal(rs_factions.ops->check_stat(&c, w, "armour", 21),
                     ENG_RANGE);
    assert_int_equal(rs_factions.ops->check_stat(&c, w, "agi", 14), ENG_OK);
    assert_int_equal(rs_factions.ops->action(&c, "dance"), ENG_NOTFOUND);
}

/* ---- pure rules ------------------------------------------------------------ */

static void test_rule_fast(void **state)
{
    (void)state;
    assert_true(fac_rule_fast(9, 9));    /* matches */
    assert_true(fac_rule_fast(12, 9));
    assert_false(fac_rule_fast(8, 9));
    assert_false(fac_rule_fast(6, 9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(x) cmocka_unit_test_setup_teardown(x, fx_setup, fx_teardown)
        T(test_example_fast_and_slow),
        T(test_fat_set_by_gm),
        T(test_fat_rolled_each_round),
        T(test_round_ends_when_all_pass_in_a_row),
        T(test_pass_does_not_forfeit_later_turns),
        T(test_automatic_pass),
        T(test_three_factions_need_three_passes),
        T(test_pick_and_pass_are_checked),
        T(test_down_characters_pass_automatically),
        T(test_holder_drawn_at_random),
        T(test_holder_chooses_first_faction),
        T(test_ambush_bonus_turn),
        T(test_begin_is_checked),
        T(test_settings_and_stats),
        cmocka_unit_test(test_rule_fast),
#undef T
    };
    return cmocka_run_group_tests_name("rs_factions", tests, NULL, NULL);
}
