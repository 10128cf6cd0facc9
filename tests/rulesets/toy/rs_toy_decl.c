/*
 * rs_toy_decl.c - a seventh, toy rule system, to show that a system is one
 * folder: it declares a command, an option on a core command, /attack
 * tokens, a condition, a setting, its stats and typed state, and the
 * command layer, registration, autocomplete, /help and the command
 * reference pick all of it up. Linked only into the test build of fray
 * (fray-toy) and the toy's tests, with a registry generated from the
 * engine's folders and this one (CMakeLists.txt here).
 *
 * The game: everyone rolls 1d6 for initiative, lowest first. /attack rolls
 * 1d6 + grit against the target's guard; `lucky` rolls twice and keeps the
 * better. /poke makes someone Wobbly, which stacks.
 */
#include <stdio.h>
#include <string.h>

#include "rs.h"
#include "rs_kit.h"
#include "turn.h"

/* The toy's own state on each combatant and on the encounter. */
struct toy_comb {
    int64_t pokes;           /* times it poked someone */
    bool shiny;              /* /combat add shiny:true */
    char last_word[24];      /* what its last /poke said */
};
struct toy_enc {
    int64_t total_pokes;
};

/* Before typed state the toy kept these in slots 0, 1, 2.. and 0. */
static const struct rs_field toy_comb_fields[] = {
    RS_FIELD(struct toy_comb, pokes, RS_F_I64, 1),
    RS_FIELD(struct toy_comb, shiny, RS_F_BOOL, 2),
    RS_FIELD(struct toy_comb, last_word, RS_F_STR, 3),
};
static const struct rs_field toy_enc_fields[] = {
    RS_FIELD(struct toy_enc, total_pokes, RS_F_I64, 1),
};

#define TOY_WOBBLY "Wobbly"

static enum eng_err toy_setup(struct rs_call *c, struct enc_combatant *who)
{
    const int64_t *hp = enc_stat(who, "hp");
    if (hp != NULL) {
        enum eng_err err = enc_track_set(who, "hp", *hp, *hp, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, "hp");
    }
    RS_STATE(struct toy_comb, who)->shiny = rs_arg_bool(c, "shiny", false);
    return ENG_OK;
}

static int toy_cmp(const struct encounter *e, const struct enc_slot *a,
                   const struct enc_slot *b)
{
    const struct enc_combatant *x = enc_by_id_c(e, a->id);
    const struct enc_combatant *y = enc_by_id_c(e, b->id);
    if (x->init[0] != y->init[0])
        return x->init[0] < y->init[0] ? -1 : 1;
    return x->join_seq < y->join_seq ? -1 : 1;
}

static enum eng_err toy_begin(struct rs_call *c)
{
    for (int i = 0; i < c->e->ncs; i++) {
        enum eng_err err = rs_roll_initiative(c, &c->e->cs[i], "1d6");
        if (err != ENG_OK)
            return err;
    }
    return turn_fixed_start(c, toy_cmp);
}

static enum eng_err toy_attack(struct rs_call *c, const struct rs_attack *a)
{
    const struct rs_arg *lucky = rs_arg_in(a->args, a->nargs, "lucky");
    int64_t bonus = 0;
    const struct rs_arg *b = rs_arg_in(a->args, a->nargs, "bonus");
    if (b != NULL)
        bonus = b->i;
    int64_t grit = enc_stat_or(a->attacker, "grit", 0);
    int64_t guard = enc_stat_or(a->target, "guard", 3);
    char expr[32];
    snprintf(expr, sizeof expr, "1d6%+lld", (long long)(grit + bonus));
    struct rs_rolled r1, r2;
    enum eng_err err = rs_roll(c, a->attacker, "attack", expr, &r1);
    if (err == ENG_OK && lucky != NULL)
        err = rs_roll(c, a->attacker, "attack", expr, &r2);
    if (err != ENG_OK)
        return err;
    struct rs_rolled *kept = &r1;
    if (lucky != NULL) {
        kept = r2.total > r1.total ? &r2 : &r1;
        rs_roll_drop(c, kept == &r1 ? r2.roll_idx : r1.roll_idx);
    }
    bool hit = kept->total >= guard;
    struct enc_event *ev = rs_test_event(c, ENC_EV_ATTACK, a->attacker,
                                         a->target, NULL, kept->total, guard,
                                         hit ? "hit" : "miss");
    rs_ev_roll(c, ev, r1.roll_idx);
    if (lucky != NULL) {
        rs_ev_roll(c, ev, r2.roll_idx);
        rs_mod_note(c, ev, "lucky: best of 2");
    }
    if (grit != 0)
        rs_mod(c, ev, "grit", grit, "");
    if (bonus != 0)
        rs_mod(c, ev, "bonus", bonus, "");
    if (hit) {
        struct enc_track *hp = enc_track(a->target, "hp");
        if (hp != NULL) {
            int64_t before = hp->cur;
            hp->cur = hp->cur > 0 ? hp->cur - 1 : 0;
            struct enc_event *hv = enc_emit(c->r, ENC_EV_HP, a->target->id);
            hv->text = "hp";
            hv->a = before;
            hv->b = hp->cur;
            hv->secret = a->target->hidden;
            rs_default_after_track(c, a->target, "hp", before);
        }
    }
    return ENG_OK;
}

/* /poke: make someone Wobbly, through the toy's condition table. */
static enum eng_err toy_poke(struct rs_call *c)
{
    struct enc_combatant *who = rs_arg_who(c, "target");
    struct enc_combatant *by = rs_arg_who(c, "name");
    const char *word = rs_arg_text(c, "word", "boop");
    struct rs_cond_give q = {.name = TOY_WOBBLY, .rounds = -1,
                             .source = by ? by->id : 0};
    enum eng_err err = rs_cond_give(c, c->e->sys, who, &q, false);
    if (err != ENG_OK)
        return err;
    if (by != NULL) {
        struct toy_comb *st = RS_STATE(struct toy_comb, by);
        st->pokes++;
        snprintf(st->last_word, sizeof st->last_word, "%s", word);
    }
    RS_STATE(struct toy_enc, c->e)->total_pokes++;
    RS_SAY(c, by, "{} pokes {}: \"{}\" (poke number {} of the fight)",
           by ? RS_A_WHO(by) : RS_A_TEXT("The GM"), RS_A_WHO(who),
           RS_A_USER(word),
           RS_A_NUM(RS_STATE(struct toy_enc, c->e)->total_pokes));
    return ENG_OK;
}

/* English only: a ruleset outside the tree has no catalogs, so it
 * leaves tr alone. */
static void toy_status(const struct encounter *e,
                       const struct enc_combatant *who, struct eng_buf *out,
                       enc_tr_fn tr, const void *tr_ctx)
{
    (void)e;
    (void)tr;
    (void)tr_ctx;
    const struct toy_comb *st = RS_STATE(const struct toy_comb, who);
    if (st->pokes > 0)
        eng_buf_addf(out, "%lld poke%s", (long long)st->pokes,
                     st->pokes == 1 ? "" : "s");
    if (st->shiny)
        eng_buf_add(out, st->pokes > 0 ? ", shiny" : "shiny");
}

static const struct rs_ops toy_ops = {
    .version = RS_OPS_VERSION,
    .setup = toy_setup,
    .begin = toy_begin,
    .next = turn_op_next,
    .attack = toy_attack,
    .status = toy_status,
};

static const char *const toy_words[] = {"boop", "beep", "bonk", NULL};

static const struct rs_cmd toy_cmds[] = {
    {"poke", NULL, RS_CMD_RUNNING,
     "Poke someone: they wobble (Wobbly stacks up to 3)",
     "/poke name:Pip target:Nib word:bonk",
     toy_poke,
     {RS_OWN("name", false, "Who pokes"),
      RS_WHO("target", true, "Who is poked"),
      RS_CHOICE("word", false, toy_words, "What the poke says"),
      RS_OPT_END}},
};

static const struct rs_ext toy_exts[] = {
    {"combat add", {RS_BOOL("shiny", "Toy: a shiny NPC"), RS_OPT_END}},
    {NULL, {RS_OPT_END}},
};

static const struct rs_opt_spec toy_attack_opts[] = {
    RS_FLAG("lucky", "Roll twice, keep the better"),
    RS_INT("bonus", false, -5, 5, "Add to the roll"),
    RS_OPT_END,
};

static const struct rs_cond_spec toy_conds[] = {
    {TOY_WOBBLY, RS_COND_STACKS, 1, 3, 0, ENC_EXPIRE_END,
     "unsteady on its feet; stacks up to 3"},
};

static const struct rs_setting_spec toy_settings[] = {
    {"sides", RS_SET_INT, 2, 20, NULL, "6", "faces of the toy's die"},
    {NULL, RS_SET_INT, 0, 0, NULL, NULL, NULL},
};

static const struct rs_stat_spec toy_stats[] = {
    {"grit", RS_STAT, 0, 10, "added to attacks"},
    {"guard", RS_STAT, 0, 12, "what an attack must reach (default 3)"},
    {"hp", RS_TRACK, 0, 100, "hit points"},
    {NULL, RS_STAT, 0, 0, NULL},
};

static const struct rs_help toy_help = {
    .kind = "A toy system for fray's tests: 1d6 initiative, lowest first; "
            "attacks roll 1d6 + grit against guard.",
    .turns = "`/attack` on your turn, `/poke` to make someone wobble, "
             "`/combat next` to end the turn.",
    .attacks = NULL,
};

const struct rs_system rs_toy = {
    .version = RS_SYSTEM_VERSION,
    .id = "toy",
    .title = "Toy",
    .summary = "a test system: 1d6 lowest first, pokes and wobbles",
    .flags = 0,
    .ops = &toy_ops,
    .help = &toy_help,
    .cmds = toy_cmds,
    .ncmds = (int)(sizeof toy_cmds / sizeof toy_cmds[0]),
    .exts = toy_exts,
    .attack_opts = toy_attack_opts,
    .conds = toy_conds,
    .nconds = (int)(sizeof toy_conds / sizeof toy_conds[0]),
    .settings = toy_settings,
    .stats = toy_stats,
    .enc_state = {sizeof(struct toy_enc), toy_enc_fields,
                  (int)(sizeof toy_enc_fields / sizeof toy_enc_fields[0])},
    .comb_state = {sizeof(struct toy_comb), toy_comb_fields,
                   (int)(sizeof toy_comb_fields / sizeof toy_comb_fields[0])},
    .rank = 100,
};
