/* The cards chapter's words where fray departed from them (issue 20), each
 * test written from the chapter (../shared/rules/cards.txt) and the rules
 * README's decisions, not from fray's output. They use only the fixture
 * and the commands, so the same file runs against older fray to show the
 * departure.
 *
 * - "two Maneuvers per turn, one slow and one fast": a creature with
 *   several cards gets that on each card's turn, not all at once;
 * - held: "cannot perform any actions other than breaking free or
 *   shouting", and a hand over the mouth stops the shout: a state the
 *   rules check, not a word in a label;
 * - fear: "the number of player characters present", the one testing
 *   included (README decision);
 * - the deal: every card drawn is shown, an extra draw's two cards and the
 *   one that went back; a draw is not an initiative roll;
 * - a creature's cards: the tracker says which one is up;
 * - the GM's pools (poison, falling) and big pools keep their dice. */
#include "support.h"

#include "test_rs_cards.h"
#include "turn.h"

/* Move on until it is name's turn (at most a few rounds). */
static void cf_until(struct cf *f, const char *name)
{
    for (int i = 0; i < 40 && strcmp(cf_current(f), name) != 0; i++)
        assert_int_equal(cf_next(f), ENG_OK);
    assert_string_equal(cf_current(f), name);
}

/* The card of the running turn. */
static int64_t cf_card_up(struct cf *f)
{
    const struct enc_slot *s = &f->e->order[f->e->turn_idx];
    return enc_by_id(f->e, s->id)->init[s->init_idx];
}

/* ---- maneuvers are counted per turn ---------------------------------------- */

static void test_maneuvers_per_turn_with_two_cards(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "finesse=0");
    cf_add(f, "Hydra", 0, "strike=1 damage=0 cards=2");
    assert_int_equal(cf_begin(f), ENG_OK);
    cf_until(f, "Hydra");
    int round = f->e->round;
    /* Its first card's turn: one slow maneuver (an attack) and one fast. */
    assert_int_equal(cf_attack(f, CF_GM, "Hydra", "Ana", "1", "0", NULL),
                     ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Hydra", "Ana", "1", "0", NULL),
                     ENG_STATE);
    cf_opts(f, "name", "Hydra", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    /* Its second card's turn, in the same round: the same again. */
    int64_t first = cf_card_up(f);
    assert_int_equal(cf_next(f), ENG_OK);
    cf_until(f, "Hydra");
    assert_int_equal(f->e->round, round);
    assert_true(cf_card_up(f) > first);
    assert_int_equal(cf_attack(f, CF_GM, "Hydra", "Ana", "1", "0", NULL),
                     ENG_OK);
    cf_opts(f, "name", "Hydra", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
}

static void test_two_fast_instead_of_slow_per_turn(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Hydra", 0, "cards=2");
    assert_int_equal(cf_begin(f), ENG_OK);
    cf_until(f, "Hydra");
    /* "a fast Maneuver instead of your slow one": two fast, no third. */
    cf_opts(f, "name", "Hydra", "kind", "fast", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_OK);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
    cf_opts(f, "name", "Hydra", "kind", "slow", NULL);
    assert_int_equal(cf_do(f, CF_GM, "maneuver"), ENG_STATE);
}

/* ---- a covered mouth cannot shout ----------------------------------------- */

/* Ana (user 10) held by the Orc; with the mouth covered when mouth. The
 * free attack's own dice all succeed: "3d6>=1". Returns on Ana's turn. */
static void cf_held(struct cf *f, bool mouth)
{
    cf_add(f, "Ana", 10, "force=1");
    cf_add(f, "Orc", 0, "force=3");
    assert_int_equal(cf_begin(f), ENG_OK);
    assert_int_equal(cf_attack(f, CF_GM, "Orc", "Ana", "3d6>=1", NULL,
                               mouth ? "grapple mouth free" : "grapple free"),
                     ENG_OK);
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_HELD));
    cf_until(f, "Ana");
}

static void test_held_may_shout(void **state)
{
    struct cf *f = *state;
    cf_held(f, false);
    assert_null(enc_cond_find(cf_who(f, "Ana"), CARDS_SILENCED));
    cf_opts(f, "name", "Ana", "kind", "shout", "label", "Help!", NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_OK);
}

static void test_held_label_is_not_a_shout(void **state)
{
    struct cf *f = *state;
    cf_held(f, false);
    /* Calling a maneuver a shout does not make it one. */
    cf_opts(f, "name", "Ana", "kind", "fast", "label", "shout and run",
            NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "held"));
}

static void test_covered_mouth_cannot_shout(void **state)
{
    struct cf *f = *state;
    cf_held(f, true);
    assert_non_null(enc_cond_find(cf_who(f, "Ana"), CARDS_SILENCED));
    cf_opts(f, "name", "Ana", "kind", "shout", NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_STATE);
    assert_non_null(strstr(f->d.msg, "mouth"));
    cf_opts(f, "name", "Ana", "kind", "fast", "label", "shout for help",
            NULL);
    assert_int_equal(cf_do(f, 10, "maneuver"), ENG_STATE);
}

/* ---- fear counts the one testing -------------------------------------------- */

/* The dice of the last call's roll labelled label. */
static int cf_dice(struct cf *f, const char *label)
{
    int faces[128];
    int n = cf_faces_n(f, label, 0, faces, 128);
    assert_true(n >= 0);
    return n;
}

static void test_fear_counts_the_one_testing(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "endure=1");
    cf_add(f, "Bo", 11, "endure=1");
    cf_add(f, "Orc", 0, "endure=1");
    /* Two player characters present, Ana one of them: Endure 1 + 2. */
    cf_opts(f, "name", "Ana", "value", "20", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice(f, "fear"), 3);
    /* An NPC is not a player character: the two still count. */
    cf_opts(f, "name", "Orc", "value", "20", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice(f, "fear"), 3);
    /* Severe Mental Harm: Ana does not count, even for herself. */
    enc_track(cf_who(f, "Ana"), CARDS_MENTAL)->cur = 0;
    struct enc_cond_req q = {.name = CARDS_SEVERE};
    assert_int_equal(enc_cond_add(f->e, cf_who(f, "Ana"), &q, f->r, &f->d),
                     ENG_OK);
    cf_opts(f, "name", "Ana", "value", "20", "position", "risky", NULL);
    assert_int_equal(cf_do(f, CF_GM, "fear"), ENG_OK);
    assert_int_equal(cf_dice(f, "fear"), 2);
}

/* ---- the deal is shown ------------------------------------------------------ */

/* The plain text of the first event of the last call containing s. */
static const char *cf_line(struct cf *f, const char *s, char *buf, size_t n)
{
    const struct enc_event *ev = rs_fx_find(&f->fx, RS_FX_ANY, s);
    assert_non_null(ev);
    return rs_fx_text(&f->fx, ev, buf, n);
}

static void test_deal_is_shown(void **state)
{
    struct cf *f = *state;
    cf_add_n(f, "Bandit", 2, false, 0, "Bandits", NULL);
    cf_add(f, "Ana", 10, NULL);
    cf_opts(f, "side", "Bandits", "auto", "true", NULL);
    assert_int_equal(cf_do(f, CF_GM, "ambush"), ENG_OK);
    f->nopts = 0;
    assert_int_equal(cf_begin(f), ENG_OK);
    /* A card drawn is not an initiative roll. */
    for (int i = 0; i < f->r->nev; i++)
        assert_int_not_equal(f->r->ev[i].kind, ENC_EV_INIT);
    /* Every card drawn is shown, the two of each extra draw too. */
    int cards = 0;
    for (int i = 0; i < f->r->nrolls; i++)
        cards += strcmp(f->r->rolls[i].label, "card") == 0;
    assert_int_equal(cards, 5);
    char line[256], want[64];
    snprintf(want, sizeof want, "Ana draws card %lld",
             (long long)cf_who(f, "Ana")->init[0]);
    assert_non_null(strstr(cf_line(f, "Ana draws", line, sizeof line),
                           want));
    for (int b = 1; b <= 2; b++) {
        char name[16], who[32];
        snprintf(name, sizeof name, "Bandit %d", b);
        snprintf(who, sizeof who, "%s draws cards ", name);
        const char *p = strstr(cf_line(f, who, line, sizeof line), who);
        long long kept, back, back2;
        assert_int_equal(sscanf(p + strlen(who), "%lld and %lld", &kept,
                                &back), 2);
        /* The best (lowest) is kept, and the other said to go back. */
        assert_int_equal(kept, cf_who(f, name)->init[0]);
        assert_true(kept < back);
        const char *ret = strstr(p, ": ");
        assert_non_null(ret);
        assert_int_equal(sscanf(ret + 2, "%lld goes back", &back2), 1);
        assert_int_equal(back2, back);
    }
}

/* ---- the tracker says which card is up ------------------------------------- */

static void test_tracker_names_the_card_up(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_add(f, "Hydra", 0, "cards=2");
    assert_int_equal(cf_begin(f), ENG_OK);
    for (int turn = 0; turn < 2; turn++) {
        if (turn > 0)
            assert_int_equal(cf_next(f), ENG_OK);
        cf_until(f, "Hydra");
        char buf[160], want[32];
        rs_fx_status(&rs_cards, f->e, cf_who(f, "Hydra"), buf, sizeof buf);
        snprintf(want, sizeof want, "on card %lld", (long long)cf_card_up(f));
        assert_non_null(strstr(buf, want));
    }
}

/* ---- pools keep their faces -------------------------------------------------- */

/* Whether roll idx is one some event of the last call shows. */
static bool cf_roll_shown(struct cf *f, int idx)
{
    for (int i = 0; i < f->r->nev; i++) {
        const struct enc_event *ev = &f->r->ev[i];
        for (int k = 0; k < ev->nrolls; k++)
            if (ev->rolls[k] == idx)
                return true;
        for (int k = 0; k < ev->nparts; k++)
            if (ev->parts[k].kind == ENC_PART_ROLL && ev->parts[k].n == idx)
                return true;
    }
    return false;
}

/* The GM's roll labelled label of the last call: n dice, on show. */
static void cf_gm_pool_shown(struct cf *f, const char *label, int n)
{
    int idx = rs_fx_roll(&f->fx, label, 0);
    assert_true(idx >= 0);
    assert_int_equal(cf_dice(f, label), n);
    assert_true(cf_roll_shown(f, idx));
}

static void test_gm_pools_keep_their_faces(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, "endure=2");
    cf_opts(f, "name", "Ana", "toxicity", "6", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard poison"), ENG_OK);
    cf_gm_pool_shown(f, "toxicity", 6);
    /* 20 feet: one die per 5 feet. */
    cf_opts(f, "name", "Ana", "feet", "20", NULL);
    assert_int_equal(cf_do(f, CF_GM, "hazard fall"), ENG_OK);
    cf_gm_pool_shown(f, "fall", 4);
}

static void test_big_pools_keep_their_faces(void **state)
{
    struct cf *f = *state;
    cf_add(f, "Ana", 10, NULL);
    cf_opts(f, "name", "Ana", "pool", "30", "label", "climb", NULL);
    assert_int_equal(cf_do(f, 10, "test"), ENG_OK);
    int idx = rs_fx_roll(&f->fx, "climb", 0);
    assert_true(idx >= 0);
    assert_true(cf_roll_shown(f, idx));
    int faces[64];
    assert_int_equal(rs_fx_faces(&f->fx, idx, faces, 64), 30);
    for (int i = 0; i < 30; i++)
        assert_true(faces[i] >= 1 && faces[i] <= 6);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, cf_setup, cf_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_maneuvers_per_turn_with_two_cards),
        T(test_two_fast_instead_of_slow_per_turn),
        T(test_held_may_shout),
        T(test_held_label_is_not_a_shout),
        T(test_covered_mouth_cannot_shout),
        T(test_fear_counts_the_one_testing),
        T(test_deal_is_shown),
        T(test_tracker_names_the_card_up),
        T(test_gm_pools_keep_their_faces),
        T(test_big_pools_keep_their_faces),
    };
    return cmocka_run_group_tests_name("rs_cards_chapter", tests, NULL,
                                       NULL);
}
