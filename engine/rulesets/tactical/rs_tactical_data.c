/*
 * rs_tactical_data.c - the tactical ruleset's effects and conditions as
 * data: the built-in table, the parser for a group's effects file, and the
 * conditions they declare to the kit.
 *
 * The file is line based (docs/rulesets/tactical.md has the whole format):
 *
 *   # a comment
 *   reset                                  start from an empty table
 *   effect Knockdown resist test=endurance/fortitude cond=Prone
 *   condition Afraid shake=insight/willpower:2 help="..."
 *   condition "Strength Injury" attrs=strength disadvantage
 *   rename Knockdown Trip
 *   remove Seeker
 *
 * A line that names an existing effect or condition replaces it; a new name
 * adds one. Double quotes hold spaces (condition names, help). The parser
 * takes the text only: the front end reads the file.
 */
#include <stdio.h>
#include <string.h>

#include "eng_alloc.h"
#include "eng_buf.h"
#include "eng_text.h"
#include "rs_tactical.h"

/* ---- the built-in table ------------------------------------------------- */

#define EF "endurance", "fortitude"
#define IW "insight", "willpower"

#define FX(n, k, a, s, c, fl) \
    {.name = n, .kind = k, .test = {{a, s}}, .ntests = 1, .cond = c, \
     .flags = fl}
#define FXN(n, k, c, fl) {.name = n, .kind = k, .cond = c, .flags = fl}

/* A condition as the kit sees it; STK: it stacks. */
#define CS(n, fl, start, cap, rounds, help) \
    {n, fl, start, cap, rounds, ENC_EXPIRE_END, help}
#define STK RS_COND_STACKS
/* LST: it outlasts the fight until treated (a saved character keeps it). */
#define LST RS_COND_LASTS
/* TIM: the chapter fixes how long it lasts (the GM may not retime it). */
#define TIM RS_COND_TIMED
/* RST: it outlasts the fight until the character rests ("fully reset over
 * an 8 hour rest": /character rest). */
#define RST (RS_COND_LASTS | RS_COND_REST)
/* A pending test: bookkeeping, its value the difficulty. The parser writes
 * the same help (tac_pending_help). */
#define PEND(n) \
    {n " test", RS_COND_VALUE | RS_COND_SYSTEM, 0, 0, 0, ENC_EXPIRE_END, \
     "a pending " n " resist test; its value is the difficulty"}
#define PEND_HELP "a pending %s resist test; its value is the difficulty"

/* One wound or injury: a disadvantage on tests of one characteristic. */
#define HURT(a, wound) \
    {.attrs = {a}, .nattrs = 1, .becomes = wound, .flags = TAC_CDF_DISADV}

/* The conditions in table order, so cs[] and cd[] pair by name here. */
enum {
    TB_ACID, TB_AFRAID, TB_BERSERK, TB_BLINDED, TB_CHA_WOUND, TB_CORRODED,
    TB_DEX_INJURY, TB_DEX_WOUND, TB_DISTRACTED, TB_ENCOURAGED, TB_END_INJURY,
    TB_END_WOUND, TB_EXHAUSTED, TB_FATIGUED, TB_FLANKED, TB_GRAPPLED,
    TB_HIDDEN, TB_IMMOBILIZED, TB_INS_WOUND, TB_INT_WOUND, TB_MAGNETIZED,
    TB_PARALYZED, TB_POISONED, TB_PRONE, TB_SHUTDOWN, TB_SLOWED,
    TB_STR_INJURY, TB_STR_WOUND, TB_STUNNED, TB_SURPRISED, TB_TAUNTED,
    TB_UNCONSCIOUS, TB_VULNERABLE, TB_WARDED, TB_NCONDS
};

const struct tac_table tac_builtin = {
    .fx = {
        FX("Acid", TAC_FX_RESIST, "endurance", "fortitude", "Acid", 0),
        {.name = "Blinding", .kind = TAC_FX_RESIST,
         .test = {{EF}, {"insight", "perception"}}, .ntests = 2,
         .cond = "Blinded", .rounds = 1},
        FX("Corrosive", TAC_FX_RESIST, "endurance", "fortitude",
           "Corroded", 0),
        {.name = "Deadly", .kind = TAC_FX_RESIST,
         .test = {{"endurance", "vitality"}}, .ntests = 1, .max = 3,
         .cond = "Endurance Wound", .flags = TAC_FXF_CRIT_HP},
        FXN("Demolish", TAC_FX_NOTE, "", TAC_FXF_DEMOLISH),
        FX("Fear", TAC_FX_RESIST, "insight", "willpower", "Afraid", 0),
        FX("Frost", TAC_FX_DIRECT, "endurance", "fortitude", "Slowed", 0),
        FX("Gravitic", TAC_FX_RESIST, "endurance", "fortitude",
           "Prone", TAC_FXF_PULL),
        FXN("Grip", TAC_FX_APPLY, "Immobilized", TAC_FXF_NO_DAMAGE),
        FX("Knockback", TAC_FX_RESIST, "endurance", "fortitude",
           "", TAC_FXF_PUSH),
        FX("Knockdown", TAC_FX_RESIST, "endurance", "fortitude", "Prone", 0),
        {.name = "Knockout", .kind = TAC_FX_RESIST, .test = {{EF}},
         .ntests = 1, .max = 4, .cond = "Unconscious",
         .flags = TAC_FXF_ORGANIC | TAC_FXF_STUN_MAJOR},
        FXN("Magnetize", TAC_FX_APPLY, "Magnetized", 0),
        {.name = "Pulse", .kind = TAC_FX_RESIST, .test = {{EF}},
         .ntests = 1, .fixed = 3, .cond = "Stunned"},
        FX("Poison", TAC_FX_RESIST, "endurance", "fortitude", "Poisoned", 0),
        {.name = "Rage", .kind = TAC_FX_RESIST, .test = {{IW}}, .ntests = 1,
         .cond = "Berserk", .rounds = 1},
        FX("Scorch", TAC_FX_DIRECT, "insight", "willpower", "Afraid", 0),
        FXN("Seeker", TAC_FX_NOTE, "", 0),
        FXN("Serrated", TAC_FX_NOTE, "", TAC_FXF_CRIT_DIE),
        FX("Shock", TAC_FX_DIRECT, "endurance", "fortitude",
           "Stunned", TAC_FXF_MECH_DOUBLE),
        FX("Shutdown", TAC_FX_RESIST, "endurance", "fortitude", "Shutdown",
           TAC_FXF_MECH_ONLY | TAC_FXF_OUT_ROUNDS),
        FX("Slow", TAC_FX_RESIST, "endurance", "fortitude", "Slowed", 0),
        FX("Stun", TAC_FX_RESIST, "endurance", "fortitude", "Stunned", 0),
        FXN("Sunder", TAC_FX_APPLY, "Vulnerable", 0),
    },
    .nfx = 24,
    .cs = {
        [TB_ACID] = CS(NC_("condition", "Acid"), STK, 0, 3, 0,
            N_("1 direct damage per stack at the start of each of the "
               "holder's turns; after the fight, hp do not refill while it "
               "lasts")),
        [TB_AFRAID] = CS(NC_("condition", "Afraid"), 0, 0, 0, 0,
            N_("cannot move closer to what they fear, and tests against it "
               "have a major disadvantage; Insight(Willpower 2) at the end "
               "of each turn removes it")),
        [TB_BERSERK] = CS(NC_("condition", "Berserk"), 0, 0, 0, 0,
            N_("spends every AP attacking the closest enemy; "
               "Insight(Willpower 2) at the end of each turn removes it")),
        [TB_BLINDED] = CS(NC_("condition", "Blinded"), 0, 0, 0, 0,
            N_("a major disadvantage on tests that need sight; no ranged "
               "attacks")),
        [TB_CHA_WOUND] = CS(NC_("condition", "Charisma Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Charisma tests until treated; more wounds "
               "there do not add to it")),
        [TB_CORRODED] = CS(NC_("condition", "Corroded"), STK, 0, 3, 0,
            N_("each stack adds 1 damage to attacks against the holder")),
        [TB_DEX_INJURY] = CS(NC_("condition", "Dexterity Injury"),
                             LST, 0, 0, 0,
            N_("a disadvantage on Dexterity tests; a second one is a "
               "Dexterity Wound")),
        [TB_DEX_WOUND] = CS(NC_("condition", "Dexterity Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Dexterity tests until treated; more wounds "
               "there do not add to it")),
        [TB_DISTRACTED] = CS(NC_("condition", "Distracted"), 0, 0, 0, 0,
            N_("a disadvantage on the next test, then it ends")),
        [TB_ENCOURAGED] = CS(NC_("condition", "Encouraged"), TIM, 0, 0, 1,
            N_("may add an advantage to one test of their choice (adv:1) "
               "until the end of their next turn")),
        [TB_END_INJURY] = CS(NC_("condition", "Endurance Injury"),
                             LST, 0, 0, 0,
            N_("a disadvantage on Endurance tests; a second one is an "
               "Endurance Wound")),
        [TB_END_WOUND] = CS(NC_("condition", "Endurance Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Endurance tests until treated; more wounds "
               "there do not add to it")),
        [TB_EXHAUSTED] = CS(NC_("condition", "Exhausted"), STK | RST, 0, 5, 0,
            N_("a disadvantage per stack on Strength, Endurance and "
               "Dexterity tests; at 5, out of the fight")),
        [TB_FATIGUED] = CS(NC_("condition", "Fatigued"), STK | RST, 0, 5, 0,
            N_("a disadvantage per stack on Insight, Intelligence and "
               "Charisma tests; at 5, out of the fight")),
        [TB_FLANKED] = CS(NC_("condition", "Flanked"), 0, 0, 0, 0,
            N_("attacks against the holder have an advantage")),
        [TB_GRAPPLED] = CS(NC_("condition", "Grappled"), 0, 0, 0, 0,
            N_("a major disadvantage on Strength and Dexterity tests, except "
               "to break free; no reactions, no moving")),
        [TB_HIDDEN] = CS(NC_("condition", "Hidden"), 0, 0, 0, 0,
            N_("undetected: cannot be targeted directly")),
        [TB_IMMOBILIZED] = CS(NC_("condition", "Immobilized"), 0, 0, 0, 0,
            N_("cannot move; /act action:break against the captor may free "
               "them, once per round")),
        [TB_INS_WOUND] = CS(NC_("condition", "Insight Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Insight tests until treated; more wounds "
               "there do not add to it")),
        [TB_INT_WOUND] = CS(NC_("condition", "Intelligence Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Intelligence tests until treated; more "
               "wounds there do not add to it")),
        [TB_MAGNETIZED] = CS(NC_("condition", "Magnetized"), 0, 0, 0, 0,
            N_("conductor attacks hit automatically; /act action:unmagnetize "
               "(2 AP) clears it")),
        [TB_PARALYZED] = CS(NC_("condition", "Paralyzed"), 0, 0, 0, 0,
            N_("no actions or reactions; passive evasion 1; cannot evade an "
               "area attack")),
        [TB_POISONED] = CS(NC_("condition", "Poisoned"), STK | LST, 2, 5, 0,
            N_("a disadvantage on every test; the value is the difficulty to "
               "shake it off after 8 hours")),
        [TB_PRONE] = CS(NC_("condition", "Prone"), 0, 0, 0, 0,
            N_("melee attacks against the holder have a major advantage, "
               "ranged ones a disadvantage, and cover is one degree better; "
               "cannot evade an area attack")),
        [TB_SHUTDOWN] = CS(NC_("condition", "Shutdown"), 0, 0, 0, 0,
            N_("a shut-down machine: out of the fight until it runs out or "
               "the unit takes damage")),
        [TB_SLOWED] = CS(NC_("condition", "Slowed"), 0, 0, 0, 0,
            N_("moves at half speed, rounded up")),
        [TB_STR_INJURY] = CS(NC_("condition", "Strength Injury"), LST, 0, 0, 0,
            N_("a disadvantage on Strength tests; a second one is a Strength "
               "Wound")),
        [TB_STR_WOUND] = CS(NC_("condition", "Strength Wound"),
                            STK | LST, 0, 0, 0,
            N_("a disadvantage on Strength tests until treated; more wounds "
               "there do not add to it")),
        [TB_STUNNED] = CS(NC_("condition", "Stunned"), 0, 0, 0, 0,
            N_("loses 1 AP at the start of the next turn, then it ends")),
        [TB_SURPRISED] = CS(NC_("condition", "Surprised"), TIM, 0, 0, 1,
            N_("no actions or reactions, passive evasion 1, until the end of "
               "their next turn")),
        [TB_TAUNTED] = CS(NC_("condition", "Taunted"), 0, 0, 0, 0,
            N_("must attack whoever taunted them when that is safe and "
               "possible")),
        [TB_UNCONSCIOUS] = CS(NC_("condition", "Unconscious"), 0, 0, 0, 0,
            N_("knocked out: out of the fight until the GM clears it")),
        [TB_VULNERABLE] = CS(NC_("condition", "Vulnerable"),
                             STK | TIM, 0, 0, TAC_MINUTE_ROUNDS,
            N_("a sneak or take-your-time attack spends it for +1D damage "
               "per stack, at most +4D; lasts a minute or until spent")),
        [TB_WARDED] = CS(NC_("condition", "Warded"),
                         STK | TIM, 0, 4, TAC_MINUTE_ROUNDS,
            N_("the next hit deals 1D less damage per stack and spends it; "
               "lasts a minute or until spent")),
        PEND("Acid"), PEND("Blinding"), PEND("Corrosive"), PEND("Deadly"),
        PEND("Fear"), PEND("Frost"), PEND("Gravitic"), PEND("Knockback"),
        PEND("Knockdown"), PEND("Knockout"), PEND("Pulse"), PEND("Poison"),
        PEND("Rage"), PEND("Scorch"), PEND("Shock"), PEND("Shutdown"),
        PEND("Slow"), PEND("Stun"),
    },
    .cd = {
        [TB_ACID] = {.flags = TAC_CDF_DOT},
        [TB_AFRAID] = {.shake = {IW}, .shake_difficulty = 2},
        [TB_BERSERK] = {.shake = {IW}, .shake_difficulty = 2},
        [TB_CHA_WOUND] = HURT("charisma", ""),
        [TB_CORRODED] = {.flags = TAC_CDF_DMG_TAKEN},
        [TB_DEX_INJURY] = HURT("dexterity", "Dexterity Wound"),
        [TB_DEX_WOUND] = HURT("dexterity", ""),
        [TB_DISTRACTED] = {.flags = TAC_CDF_DISADV | TAC_CDF_NEXT_TEST},
        [TB_END_INJURY] = HURT("endurance", "Endurance Wound"),
        [TB_END_WOUND] = HURT("endurance", ""),
        [TB_EXHAUSTED] = {.out = 5,
                          .attrs = {"strength", "endurance", "dexterity"},
                          .nattrs = 3, .flags = TAC_CDF_PER_STACK},
        [TB_FATIGUED] = {.out = 5,
                         .attrs = {"insight", "intelligence", "charisma"},
                         .nattrs = 3, .flags = TAC_CDF_PER_STACK},
        [TB_FLANKED] = {.flags = TAC_CDF_FLANKED},
        [TB_GRAPPLED] = {.attrs = {"strength", "dexterity"}, .nattrs = 2,
                         .flags = TAC_CDF_DISADV | TAC_CDF_MAJOR |
                                  TAC_CDF_HELD},
        [TB_IMMOBILIZED] = {.flags = TAC_CDF_HELD},
        [TB_INS_WOUND] = HURT("insight", ""),
        [TB_INT_WOUND] = HURT("intelligence", ""),
        [TB_MAGNETIZED] = {.flags = TAC_CDF_MAGNET},
        [TB_PARALYZED] = {.flags = TAC_CDF_EVASION1 | TAC_CDF_NO_AP |
                                   TAC_CDF_NO_EVADE},
        [TB_POISONED] = {.flags = TAC_CDF_DISADV},
        [TB_PRONE] = {.flags = TAC_CDF_PRONE | TAC_CDF_NO_EVADE},
        [TB_SHUTDOWN] = {.out = 1},
        [TB_STR_INJURY] = HURT("strength", "Strength Wound"),
        [TB_STR_WOUND] = HURT("strength", ""),
        [TB_STUNNED] = {.flags = TAC_CDF_LOSE_AP},
        [TB_SURPRISED] = {.flags = TAC_CDF_EVASION1 | TAC_CDF_NO_AP},
        [TB_UNCONSCIOUS] = {.out = 1},
        [TB_VULNERABLE] = {.flags = TAC_CDF_VULNERABLE},
        [TB_WARDED] = {.flags = TAC_CDF_WARD},
    },
    .ncd = TB_NCONDS,
    .nspec = TB_NCONDS + 18,
};

_Static_assert(TB_NCONDS + 18 == TAC_BUILTIN_NSPEC,
               "rs_tactical declares the built-in table's conditions");

#undef FX
#undef FXN
#undef CS
#undef STK
#undef PEND
#undef HURT
#undef EF
#undef IW

const struct tac_table *tac_table_builtin(void)
{
    return &tac_builtin;
}

const struct tac_table *tac_table_for(const struct rs_call *c)
{
    return c->data != NULL ? c->data : &tac_builtin;
}

enum eng_err tac_data_parse(const char *text, size_t len, void **out,
                            struct enc_diag *d)
{
    struct tac_table *t = NULL;
    enum eng_err err = tac_table_parse(text, len, &tac_builtin, &t, d);
    if (err == ENG_OK)
        *out = t;
    return err;
}

void tac_data_free(void *data)
{
    tac_table_free(data);
}

const struct rs_cond_spec *tac_data_conds(const void *data, int *n)
{
    const struct tac_table *t = data != NULL ? data : &tac_builtin;
    *n = t->nspec;
    return t->cs;
}

const struct tac_fx *tac_fx_find(const struct tac_table *t, const char *name)
{
    for (int i = 0; i < t->nfx; i++)
        if (eng_text_casecmp(t->fx[i].name, name) == 0)
            return &t->fx[i];
    return NULL;
}

int tac_fx_index(const struct tac_table *t, const struct tac_fx *fx)
{
    return (int)(fx - t->fx);
}

int tac_cond_index(const struct tac_table *t, const char *name)
{
    for (int i = 0; i < t->ncd; i++)
        if (eng_text_casecmp(t->cs[i].name, name) == 0)
            return i;
    return -1;
}

const struct tac_cond_def *tac_cond_def(const struct tac_table *t,
                                        const char *name)
{
    int i = tac_cond_index(t, name);
    return i >= 0 ? &t->cd[i] : NULL;
}

static bool tac_has_test(const struct tac_fx *fx)
{
    return fx->kind == TAC_FX_RESIST || fx->kind == TAC_FX_DIRECT;
}

const struct tac_fx *tac_pending_fx(const struct tac_table *t,
                                    const char *name)
{
    size_t n = strlen(name);
    if (n <= 5 || n > TAC_MAX_NAME + 5 || strcmp(name + n - 5, " test") != 0)
        return NULL;
    char base[TAC_MAX_NAME + 1];
    memcpy(base, name, n - 5);
    base[n - 5] = '\0';
    const struct tac_fx *fx = tac_fx_find(t, base);
    return fx != NULL && tac_has_test(fx) ? fx : NULL;
}

/* ---- a parsed table's text ------------------------------------------------ */

/* Point every cs[] at the table's own copies of its text. */
static void tac_point(struct tac_table *t)
{
    for (int i = 0; i < t->nspec; i++) {
        t->cs[i].name = t->names[i];
        t->cs[i].help = t->helps[i];
    }
}

/* Copy text cs[] points at elsewhere (a base table) into t, then point. */
static void tac_own(struct tac_table *t)
{
    for (int i = 0; i < t->nspec; i++) {
        if (t->cs[i].name != t->names[i])
            enc_copy(t->names[i], sizeof t->names[i], t->cs[i].name);
        if (t->cs[i].help != t->helps[i])
            enc_copy(t->helps[i], sizeof t->helps[i],
                     t->cs[i].help != NULL ? t->cs[i].help : "");
    }
    tac_point(t);
}

const char *tac_title(const char *s, char *buf, size_t n)
{
    enc_copy(buf, n, s);
    if (buf[0] >= 'a' && buf[0] <= 'z')
        buf[0] = (char)(buf[0] - 'a' + 'A');
    return buf;
}

/* What a condition from a file without help= does, from its rules (the
 * docs add its stacks, cap, start and duration themselves). */
static void tac_describe(const struct tac_cond_def *cd, char *out, size_t n)
{
    struct eng_buf b;
    eng_buf_init(&b, n - 1);
    char w[TAC_MAX_NAME + 1], w2[TAC_MAX_NAME + 1];
    const char *sep = "";
#define PHRASE(...) (eng_buf_add(&b, sep), eng_buf_addf(&b, __VA_ARGS__), \
                     sep = "; ")
    if (cd->flags & (TAC_CDF_DISADV | TAC_CDF_PER_STACK)) {
        PHRASE("%s%s", cd->flags & TAC_CDF_MAJOR ? "a major disadvantage"
                       : "a disadvantage",
               cd->flags & TAC_CDF_PER_STACK ? " per stack" : "");
        eng_buf_add(&b, cd->nattrs == 0 ? " on every test" : " on");
        for (int i = 0; i < cd->nattrs; i++)
            eng_buf_addf(&b, "%s %s", i == 0 ? "" : i + 1 == cd->nattrs ?
                         " and" : ",", tac_title(cd->attrs[i], w,
                                                    sizeof w));
        if (cd->nattrs > 0)
            eng_buf_add(&b, " tests");
        if (cd->flags & TAC_CDF_NEXT_TEST)
            eng_buf_add(&b, ", on the next one only");
    }
    if (cd->flags & TAC_CDF_DOT)
        PHRASE("1 direct damage per stack at the start of each turn");
    if (cd->flags & TAC_CDF_EVASION1)
        PHRASE("passive evasion 1");
    if (cd->flags & TAC_CDF_NO_AP)
        PHRASE("no actions");
    if (cd->flags & TAC_CDF_LOSE_AP)
        PHRASE("loses 1 AP at the start of the next turn, then it ends");
    if (cd->flags & TAC_CDF_DMG_TAKEN)
        PHRASE("each stack adds 1 damage to attacks against the holder");
    if (cd->flags & TAC_CDF_VULNERABLE)
        PHRASE("a sneak or take-your-time attack spends it for +1D per "
               "stack");
    if (cd->flags & TAC_CDF_WARD)
        PHRASE("the next hit deals 1D less per stack and spends it");
    if (cd->flags & TAC_CDF_FLANKED)
        PHRASE("attacks against the holder have an advantage");
    if (cd->flags & TAC_CDF_PRONE)
        PHRASE("melee attacks against the holder have a major advantage, "
               "ranged ones a disadvantage");
    if (cd->flags & TAC_CDF_NO_EVADE)
        PHRASE("cannot evade an area attack");
    if (cd->flags & TAC_CDF_HELD)
        PHRASE("/act action:break may free them");
    if (cd->flags & TAC_CDF_MAGNET)
        PHRASE("conductor attacks hit automatically");
    if (cd->out > 0)
        PHRASE("out of the fight at %d", cd->out);
    if (cd->shake_difficulty > 0)
        PHRASE("%s(%s %d) at the end of each turn removes it",
               tac_title(cd->shake.attr, w, sizeof w),
               tac_title(cd->shake.skill, w2, sizeof w2),
               cd->shake_difficulty);
    if (cd->becomes[0] != '\0')
        PHRASE("a second one is %s instead", cd->becomes);
    if (sep[0] == '\0')
        PHRASE("no rules of its own: the GM applies it");
#undef PHRASE
    enc_copy(out, n, eng_buf_str(&b));
    eng_buf_cleanup(&b);
}

/* The pending tests: one declared condition per effect with a test, after
 * the table's conditions; helps for conditions a file gave none. */
static void tac_finish(struct tac_table *t)
{
    t->nspec = t->ncd;
    for (int i = 0; i < t->ncd; i++)
        if (t->helps[i][0] == '\0')
            tac_describe(&t->cd[i], t->helps[i], sizeof t->helps[i]);
    for (int i = 0; i < t->nfx; i++) {
        if (!tac_has_test(&t->fx[i]))
            continue;
        int k = t->nspec++;
        snprintf(t->names[k], sizeof t->names[k], "%s test", t->fx[i].name);
        snprintf(t->helps[k], sizeof t->helps[k], PEND_HELP, t->fx[i].name);
        t->cs[k] = (struct rs_cond_spec){
            .flags = RS_COND_VALUE | RS_COND_SYSTEM,
            .expire = ENC_EXPIRE_END,
        };
    }
    tac_point(t);
}

/* ---- the parser --------------------------------------------------------- */

struct tac_flagname {
    const char *word;
    unsigned flag;
};

static const struct tac_flagname tac_fx_flags[] = {
    {"crit-hp", TAC_FXF_CRIT_HP},       {"mech", TAC_FXF_MECH_ONLY},
    {"organic", TAC_FXF_ORGANIC},       {"mech-double", TAC_FXF_MECH_DOUBLE},
    {"stunned-major", TAC_FXF_STUN_MAJOR},
    {"out-rounds", TAC_FXF_OUT_ROUNDS}, {"push", TAC_FXF_PUSH},
    {"pull", TAC_FXF_PULL},             {"no-damage", TAC_FXF_NO_DAMAGE},
    {"crit-die", TAC_FXF_CRIT_DIE},     {"demolish", TAC_FXF_DEMOLISH},
};

static const struct tac_flagname tac_cd_flags[] = {
    {"dot", TAC_CDF_DOT},               {"evasion1", TAC_CDF_EVASION1},
    {"no-ap", TAC_CDF_NO_AP},           {"lose-ap", TAC_CDF_LOSE_AP},
    {"damage", TAC_CDF_DMG_TAKEN},      {"vulnerable", TAC_CDF_VULNERABLE},
    {"ward", TAC_CDF_WARD},             {"disadvantage", TAC_CDF_DISADV},
    {"next-test", TAC_CDF_NEXT_TEST},   {"per-stack", TAC_CDF_PER_STACK},
    {"major", TAC_CDF_MAJOR},           {"flanked", TAC_CDF_FLANKED},
    {"prone", TAC_CDF_PRONE},           {"no-evade", TAC_CDF_NO_EVADE},
    {"held", TAC_CDF_HELD},             {"magnet", TAC_CDF_MAGNET},
};

static const char *const tac_kinds[] = {"resist", "direct", "apply", "note"};

#define TAC_MAX_WORDS 24

/* A line split on blanks; words point into the line buffer, double quotes
 * removed (they keep blanks inside a word). */
struct tac_line {
    char buf[TAC_MAX_LINE + 1];
    char *w[TAC_MAX_WORDS];
    int n;
};

enum tac_split { TAC_SPLIT_OK, TAC_SPLIT_WORDS, TAC_SPLIT_QUOTE };

static enum tac_split tac_split(struct tac_line *l)
{
    l->n = 0;
    char *p = l->buf;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p == '\0' || *p == '#')
            return TAC_SPLIT_OK;
        if (l->n == TAC_MAX_WORDS)
            return TAC_SPLIT_WORDS;
        char *out = p;
        l->w[l->n++] = out;
        bool quoted = false;
        while (*p != '\0' && (quoted || (*p != ' ' && *p != '\t' &&
                                         *p != '\r'))) {
            if (*p == '"')
                quoted = !quoted;
            else
                *out++ = *p;
            p++;
        }
        if (quoted)
            return TAC_SPLIT_QUOTE;
        bool end = *p == '\0';
        *out = '\0';
        if (end)
            return TAC_SPLIT_OK;
        p++;
    }
}

/* A name: letters, digits, '-' and '_', starting with a letter; a
 * condition's may hold single spaces between words ("Strength Injury"). */
static bool tac_name_ok(const char *s, bool spaces)
{
    size_t n = strlen(s);
    if (n == 0 || n > TAC_MAX_NAME)
        return false;
    if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == ' ' && spaces && i + 1 < n && s[i + 1] != ' ')
            continue;
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'))
            return false;
    }
    return true;
}

static bool tac_small_int(const char *s, int lo, int hi, int *out)
{
    int64_t v;
    if (!eng_text_to_int(s, &v) || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* test -> attr '/' skill */
static bool tac_parse_test(char *s, struct tac_test_def *t)
{
    char *slash = strchr(s, '/');
    if (slash == NULL)
        return false;
    *slash = '\0';
    if (!tac_name_ok(s, false) || !tac_name_ok(slash + 1, false))
        return false;
    enc_copy(t->attr, sizeof t->attr, s);
    enc_copy(t->skill, sizeof t->skill, slash + 1);
    eng_text_lower(t->attr);
    eng_text_lower(t->skill);
    return true;
}

static enum eng_err tac_bad(struct enc_diag *d, int line, const char *what,
                            const char *word)
{
    return enc_fail(d, ENG_SYNTAX, "line %d: %s `%.40s`", line, what, word);
}

static bool tac_flag(const struct tac_flagname *f, size_t n, const char *w,
                     unsigned *flags)
{
    for (size_t i = 0; i < n; i++)
        if (eng_text_casecmp(f[i].word, w) == 0) {
            *flags |= f[i].flag;
            return true;
        }
    return false;
}

/* effect NAME KIND key=value... flag... */
static enum eng_err tac_parse_effect(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n < 3)
        return enc_fail(d, ENG_SYNTAX, "line %d: an effect needs a name and "
                        "a kind (resist, direct, apply or note)", line);
    if (!tac_name_ok(l->w[1], false))
        return tac_bad(d, line, "bad effect name", l->w[1]);
    struct tac_fx fx;
    memset(&fx, 0, sizeof fx);
    enc_copy(fx.name, sizeof fx.name, l->w[1]);
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (eng_text_casecmp(tac_kinds[i], l->w[2]) == 0)
            kind = i;
    if (kind < 0)
        return tac_bad(d, line, "unknown kind (resist, direct, apply or note)",
                       l->w[2]);
    fx.kind = (enum tac_fx_kind)kind;
    for (int i = 3; i < l->n; i++) {
        char *w = l->w[i];
        char *eq = strchr(w, '=');
        if (eq == NULL) {
            if (!tac_flag(tac_fx_flags, sizeof tac_fx_flags /
                          sizeof tac_fx_flags[0], w, &fx.flags))
                return tac_bad(d, line, "unknown flag", w);
            continue;
        }
        *eq = '\0';
        char *v = eq + 1;
        if (eng_text_casecmp(w, "test") == 0) {
            char *comma = strchr(v, ',');
            if (comma != NULL)
                *comma = '\0';
            if (!tac_parse_test(v, &fx.test[0]) ||
                (comma != NULL && !tac_parse_test(comma + 1, &fx.test[1])))
                return tac_bad(d, line, "test must be attribute/skill[,"
                               "attribute/skill], not", v);
            fx.ntests = comma != NULL ? 2 : 1;
        } else if (eng_text_casecmp(w, "max") == 0) {
            if (!tac_small_int(v, 1, TAC_MAX_DIFFICULTY, &fx.max))
                return tac_bad(d, line, "max must be 1 to 20, not", v);
        } else if (eng_text_casecmp(w, "fixed") == 0) {
            if (!tac_small_int(v, 1, TAC_MAX_DIFFICULTY, &fx.fixed))
                return tac_bad(d, line, "fixed must be 1 to 20, not", v);
        } else if (eng_text_casecmp(w, "cond") == 0) {
            if (!tac_name_ok(v, true))
                return tac_bad(d, line, "bad condition name", v);
            enc_copy(fx.cond, sizeof fx.cond, v);
        } else if (eng_text_casecmp(w, "rounds") == 0) {
            if (!tac_small_int(v, 0, ENC_MAX_ROUNDS, &fx.rounds))
                return tac_bad(d, line, "rounds must be 0 to 1000, not", v);
        } else {
            return tac_bad(d, line, "unknown key", w);
        }
    }
    if (tac_has_test(&fx) && fx.ntests == 0)
        return enc_fail(d, ENG_SYNTAX, "line %d: a %s effect needs "
                        "test=attribute/skill", line, tac_kinds[fx.kind]);
    if (fx.kind == TAC_FX_APPLY && fx.cond[0] == '\0')
        return enc_fail(d, ENG_SYNTAX, "line %d: an apply effect needs "
                        "cond=NAME", line);
    const struct tac_fx *old = tac_fx_find(t, fx.name);
    if (old != NULL) {
        t->fx[tac_fx_index(t, old)] = fx;
        return ENG_OK;
    }
    if (t->nfx >= TAC_MAX_EFFECTS)
        return enc_fail(d, ENG_LIMIT, "line %d: too many effects (limit is "
                        "%d)", line, TAC_MAX_EFFECTS);
    t->fx[t->nfx++] = fx;
    return ENG_OK;
}

/* One key=value of a condition line. */
static enum eng_err tac_cond_key(struct rs_cond_spec *cs,
                                 struct tac_cond_def *cd, char *help,
                                 char *w, char *v, int line,
                                 struct enc_diag *d)
{
    int x;
    if (eng_text_casecmp(w, "cap") == 0 || eng_text_casecmp(w, "start") == 0 ||
        eng_text_casecmp(w, "out") == 0) {
        if (!tac_small_int(v, 0, TAC_MAX_X, &x))
            return enc_fail(d, ENG_SYNTAX, "line %d: %s must be 0 to %d",
                            line, w, TAC_MAX_X);
        if (eng_text_casecmp(w, "cap") == 0)
            cs->cap = x;
        else if (eng_text_casecmp(w, "start") == 0)
            cs->start = x;
        else
            cd->out = x;
    } else if (eng_text_casecmp(w, "rounds") == 0) {
        if (!tac_small_int(v, 0, ENC_MAX_ROUNDS, &x))
            return enc_fail(d, ENG_SYNTAX, "line %d: rounds must be 0 to %d",
                            line, ENC_MAX_ROUNDS);
        cs->rounds = x;
    } else if (eng_text_casecmp(w, "attrs") == 0) {
        cd->nattrs = 0;
        char *save = NULL;
        for (char *a = strtok_r(v, ",", &save); a != NULL;
             a = strtok_r(NULL, ",", &save)) {
            if (cd->nattrs == 3 || !tac_name_ok(a, false))
                return tac_bad(d, line, "attrs must be up to 3 names, not",
                               a);
            enc_copy(cd->attrs[cd->nattrs], TAC_MAX_NAME + 1, a);
            eng_text_lower(cd->attrs[cd->nattrs++]);
        }
    } else if (eng_text_casecmp(w, "shake") == 0) {
        char *colon = strchr(v, ':');
        if (colon != NULL)
            *colon = '\0';
        if (colon == NULL || !tac_parse_test(v, &cd->shake) ||
            !tac_small_int(colon + 1, 1, TAC_MAX_DIFFICULTY,
                           &cd->shake_difficulty))
            return tac_bad(d, line, "shake must be attribute/skill:N, not",
                           v);
    } else if (eng_text_casecmp(w, "becomes") == 0) {
        if (!tac_name_ok(v, true))
            return tac_bad(d, line, "bad condition name", v);
        enc_copy(cd->becomes, sizeof cd->becomes, v);
    } else if (eng_text_casecmp(w, "help") == 0) {
        if (strlen(v) > TAC_MAX_HELP || !eng_text_valid_utf8(v, strlen(v)))
            return enc_fail(d, ENG_SYNTAX, "line %d: help is at most %d "
                            "bytes", line, TAC_MAX_HELP);
        enc_copy(help, TAC_MAX_HELP + 1, v);
    } else {
        return tac_bad(d, line, "unknown key", w);
    }
    return ENG_OK;
}

/* condition NAME key=value... flag... */
static enum eng_err tac_parse_cond(struct tac_table *t, struct tac_line *l,
                                   int line, struct enc_diag *d)
{
    if (l->n < 2)
        return enc_fail(d, ENG_SYNTAX, "line %d: a condition needs a name",
                        line);
    if (!tac_name_ok(l->w[1], true))
        return tac_bad(d, line, "bad condition name", l->w[1]);
    struct rs_cond_spec cs = {.expire = ENC_EXPIRE_END};
    struct tac_cond_def cd;
    char help[TAC_MAX_HELP + 1] = "";
    memset(&cd, 0, sizeof cd);
    for (int i = 2; i < l->n; i++) {
        char *w = l->w[i];
        char *eq = strchr(w, '=');
        if (eq != NULL) {
            *eq = '\0';
            enum eng_err err = tac_cond_key(&cs, &cd, help, w, eq + 1, line,
                                            d);
            if (err != ENG_OK)
                return err;
        } else if (eng_text_casecmp(w, "stacks") == 0) {
            cs.flags |= RS_COND_STACKS;
        } else if (eng_text_casecmp(w, "lasts") == 0) {
            /* until treated, not until the fight ends: a saved
             * character keeps it (the fight's write-back) */
            cs.flags |= RS_COND_LASTS;
        } else if (eng_text_casecmp(w, "timed") == 0) {
            /* the chapter fixes its duration: the GM may not retime it */
            cs.flags |= RS_COND_TIMED;
        } else if (eng_text_casecmp(w, "rest") == 0) {
            /* until the character rests: kept, and /character rest
             * ends it */
            cs.flags |= RS_COND_LASTS | RS_COND_REST;
        } else if (!tac_flag(tac_cd_flags, sizeof tac_cd_flags /
                             sizeof tac_cd_flags[0], w, &cd.flags)) {
            return tac_bad(d, line, "unknown flag", w);
        }
    }
    int k = tac_cond_index(t, l->w[1]);
    if (k < 0) {
        if (t->ncd >= TAC_MAX_CONDS)
            return enc_fail(d, ENG_LIMIT, "line %d: too many conditions "
                            "(limit is %d)", line, TAC_MAX_CONDS);
        k = t->ncd++;
        t->nspec = t->ncd;
    }
    t->cs[k] = cs;
    t->cd[k] = cd;
    enc_copy(t->names[k], sizeof t->names[k], l->w[1]);
    enc_copy(t->helps[k], sizeof t->helps[k], help);
    tac_point(t);
    return ENG_OK;
}

/* rename OLD NEW: an effect or a condition (references follow it). */
static enum eng_err tac_parse_rename(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n != 3)
        return enc_fail(d, ENG_SYNTAX, "line %d: rename needs the old and "
                        "the new name", line);
    const struct tac_fx *fx = tac_fx_find(t, l->w[1]);
    int k = tac_cond_index(t, l->w[1]);
    if (fx == NULL && k < 0)
        return tac_bad(d, line, "no effect or condition named", l->w[1]);
    if (!tac_name_ok(l->w[2], fx == NULL))
        return tac_bad(d, line, "bad name", l->w[2]);
    if (fx != NULL) {
        if (tac_fx_find(t, l->w[2]) != NULL)
            return tac_bad(d, line, "an effect already has the name",
                           l->w[2]);
        enc_copy(t->fx[tac_fx_index(t, fx)].name, TAC_MAX_NAME + 1, l->w[2]);
    }
    if (k >= 0) {
        if (tac_cond_index(t, l->w[2]) >= 0)
            return tac_bad(d, line, "a condition already has the name",
                           l->w[2]);
        for (int i = 0; i < t->nfx; i++)
            if (eng_text_casecmp(t->fx[i].cond, t->names[k]) == 0)
                enc_copy(t->fx[i].cond, sizeof t->fx[i].cond, l->w[2]);
        for (int i = 0; i < t->ncd; i++)
            if (eng_text_casecmp(t->cd[i].becomes, t->names[k]) == 0)
                enc_copy(t->cd[i].becomes, sizeof t->cd[i].becomes, l->w[2]);
        enc_copy(t->names[k], sizeof t->names[k], l->w[2]);
    }
    return ENG_OK;
}

static enum eng_err tac_parse_remove(struct tac_table *t, struct tac_line *l,
                                     int line, struct enc_diag *d)
{
    if (l->n != 2)
        return enc_fail(d, ENG_SYNTAX, "line %d: remove needs one name",
                        line);
    const struct tac_fx *fx = tac_fx_find(t, l->w[1]);
    if (fx != NULL) {
        int i = tac_fx_index(t, fx);
        memmove(&t->fx[i], &t->fx[i + 1],
                (size_t)(t->nfx - i - 1) * sizeof t->fx[0]);
        t->nfx--;
        return ENG_OK;
    }
    int i = tac_cond_index(t, l->w[1]);
    if (i < 0)
        return tac_bad(d, line, "no effect or condition named", l->w[1]);
    size_t rest = (size_t)(t->ncd - i - 1);
    memmove(&t->cs[i], &t->cs[i + 1], rest * sizeof t->cs[0]);
    memmove(&t->cd[i], &t->cd[i + 1], rest * sizeof t->cd[0]);
    memmove(t->names[i], t->names[i + 1], rest * sizeof t->names[0]);
    memmove(t->helps[i], t->helps[i + 1], rest * sizeof t->helps[0]);
    t->nspec = --t->ncd;
    tac_point(t);
    return ENG_OK;
}

/* Every name an effect or condition refers to must be a condition. */
static enum eng_err tac_check_refs(const struct tac_table *t,
                                   struct enc_diag *d)
{
    for (int i = 0; i < t->nfx; i++)
        if (t->fx[i].cond[0] != '\0' &&
            tac_cond_index(t, t->fx[i].cond) < 0)
            return enc_fail(d, ENG_NOTFOUND, "effect %s gives condition %s, "
                            "which is not defined", t->fx[i].name,
                            t->fx[i].cond);
    for (int i = 0; i < t->ncd; i++) {
        if (t->cd[i].becomes[0] == '\0')
            continue;
        int k = tac_cond_index(t, t->cd[i].becomes);
        if (k < 0)
            return enc_fail(d, ENG_NOTFOUND, "condition %s becomes %s, which "
                            "is not defined", t->cs[i].name,
                            t->cd[i].becomes);
        /* One step only: a second dose of what a condition becomes must
         * not turn into something again, or a loop could never end. */
        if (t->cd[k].becomes[0] != '\0')
            return enc_fail(d, ENG_SYNTAX, "condition %s becomes %s, which "
                            "becomes %s in turn: one step only",
                            t->cs[i].name, t->cs[k].name, t->cd[k].becomes);
    }
    return ENG_OK;
}

static enum eng_err tac_parse_line(struct tac_table *t, struct tac_line *l,
                                   int line, struct enc_diag *d)
{
    enum tac_split s = tac_split(l);
    if (s == TAC_SPLIT_WORDS)
        return enc_fail(d, ENG_LIMIT, "line %d: too many words (limit is "
                        "%d)", line, TAC_MAX_WORDS);
    if (s == TAC_SPLIT_QUOTE)
        return enc_fail(d, ENG_SYNTAX, "line %d: a quote is not closed",
                        line);
    if (l->n == 0)
        return ENG_OK;
    const char *verb = l->w[0];
    if (eng_text_casecmp(verb, "effect") == 0)
        return tac_parse_effect(t, l, line, d);
    if (eng_text_casecmp(verb, "condition") == 0)
        return tac_parse_cond(t, l, line, d);
    if (eng_text_casecmp(verb, "rename") == 0)
        return tac_parse_rename(t, l, line, d);
    if (eng_text_casecmp(verb, "remove") == 0)
        return tac_parse_remove(t, l, line, d);
    if (eng_text_casecmp(verb, "reset") == 0 && l->n == 1) {
        t->nfx = t->ncd = t->nspec = 0;
        return ENG_OK;
    }
    return tac_bad(d, line, "expected effect, condition, rename, remove or "
                   "reset, not", verb);
}

enum eng_err tac_table_parse(const char *text, size_t len,
                             const struct tac_table *base,
                             struct tac_table **out, struct enc_diag *d)
{
    if (len > TAC_MAX_FILE)
        return enc_fail(d, ENG_LIMIT, "the effects file is too long (limit "
                        "is %d bytes)", TAC_MAX_FILE);
    if (!eng_text_valid_utf8(text, len))
        return enc_fail(d, ENG_SYNTAX, "the effects file is not valid UTF-8");
    struct tac_table *t = eng_malloc(sizeof *t);
    struct tac_line *l = eng_malloc(sizeof *l);
    if (t == NULL || l == NULL) {
        eng_free(t);
        eng_free(l);
        return enc_fail(d, ENG_NOMEM, "out of memory");
    }
    *t = base != NULL ? *base : tac_builtin;
    /* The pending tests are made again at the end, from the effects. */
    t->nspec = t->ncd;
    tac_own(t);
    enum eng_err err = ENG_OK;
    size_t at = 0;
    int line = 0;
    while (at < len && err == ENG_OK) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        if (end - at > TAC_MAX_LINE) {
            err = enc_fail(d, ENG_LIMIT, "line %d is too long (limit is %d "
                           "bytes)", line, TAC_MAX_LINE);
            break;
        }
        memcpy(l->buf, text + at, end - at);
        l->buf[end - at] = '\0';
        at = end + 1;
        err = tac_parse_line(t, l, line, d);
    }
    if (err == ENG_OK)
        err = tac_check_refs(t, d);
    eng_free(l);
    if (err != ENG_OK) {
        eng_free(t);
        return err;
    }
    tac_finish(t);
    *out = t;
    return ENG_OK;
}

void tac_table_free(struct tac_table *t)
{
    eng_free(t);
}
