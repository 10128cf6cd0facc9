/*
 * rs_resolve_sheet.c - a `resolve` character as fray keeps it
 * (rs_resolve_cmds.h): setting one up (Resolve is the hp track; major
 * NPCs), the stats only this system can check, and its tracker line.
 */
#include "rs_resolve_cmds.h"

#include "eng_buf.h"
#include "eng_text.h"

enum eng_err rsv_setup(struct rs_call *c, struct enc_combatant *who)
{
    /* Resolve lives in the hp track, so /combat hp works on it; a stat
     * named resolve (or hp) sets it. The declared stats bound both. */
    static const char *const names[] = {"resolve", "hp"};
    for (int i = 0; i < 2; i++) {
        const int64_t *v = enc_stat(who, names[i]);
        if (v == NULL)
            continue;
        int64_t n = *v;
        if (n < 0)
            return enc_fail(c->d, ENG_RANGE, "resolve cannot be negative");
        enum eng_err err = enc_track_set(who, RSV_RESOLVE, n, n, c->d);
        if (err != ENG_OK)
            return err;
        enc_stat_remove(who, names[i]);
    }
    /* major: is an option this system adds to /combat add (its ext);
     * operations get the command's options as given, and the command
     * layer has already checked it is a boolean. */
    bool major = false;
    enum eng_err err = rs_opt_bool(c, "major", false, &major);
    if (err != ENG_OK)
        return err;
    if (major || enc_stat_or(who, "major", 0) != 0)
        who->flags |= ENC_CF_MAJOR;
    if (who->init_expr[0] != '\0') {
        int64_t v;
        if (!eng_text_to_int(who->init_expr, &v) || v < -RSV_MAX_RANK ||
            v > RSV_MAX_RANK)
            return enc_fail(c->d, ENG_RANGE, "init: is the initiative rank, "
                            "a whole number from %d to %d", -RSV_MAX_RANK,
                            RSV_MAX_RANK);
    }
    return ENG_OK;
}

enum eng_err rsv_check_stat(struct rs_call *c, struct enc_combatant *who,
                            const char *name, int64_t value)
{
    (void)who;
    /* ar_<type> is the one family of names the declaration cannot list. */
    if (eng_text_ncasecmp(name, "ar_", 3) == 0 &&
        (value < 0 || value > RSV_MAX_ARMOR))
        return enc_fail(c->d, ENG_RANGE, "%s must be 0 to %d", name,
                        RSV_MAX_ARMOR);
    return ENG_OK;
}

/* The tracker's extra words for who, parts joined by " · " (kept short
 * for a phone's width), each in tr's language. */
void rsv_status(const struct encounter *e, const struct enc_combatant *who,
                struct eng_buf *out, enc_tr_fn tr, const void *tr_ctx)
{
    static const char *const outs[] = {
        [RSV_OUT_ESCAPED] = N_("escaped"),
        [RSV_OUT_REMOVED] = N_("out (Never the Same)"),
        [RSV_OUT_DEAD] = N_("dead"),
    };
    static const char *const holds[] = {
        [RSV_HELD_ATTACK] = N_("holding an attack"),
        [RSV_HELD_ITEM] = N_("holding an item"),
        [RSV_HELD_SKILL] = N_("holding a skill"),
    };
    const struct rsv_comb *s = rsv_st(who);
    const char *sep = "";
#define RSV_PART(fmt, ...)                                                   \
    do {                                                                     \
        eng_buf_add(out, sep);                                               \
        eng_buf_addf(out, enc_tr(tr, tr_ctx, fmt), __VA_ARGS__);             \
        sep = " \xC2\xB7 ";                                                  \
    } while (0)
    if (s->out > RSV_OUT_NONE && s->out <= RSV_OUT_DEAD)
        RSV_PART("%s", enc_tr(tr, tr_ctx, outs[s->out]));
    if (e->current == who->id && s->out == RSV_OUT_NONE)
        /* the move and momentum are words of one piece (literals: the
         * compiler checks each format) */
        RSV_PART(s->moved ? s->momentum
                                ? N_("move used, actions %d/%lld, total "
                                     "%d/%lld (momentum)")
                                : N_("move used, actions %d/%lld, total "
                                     "%d/%lld")
                 : s->momentum ? N_("move free, actions %d/%lld, total "
                                    "%d/%lld (momentum)")
                               : N_("move free, actions %d/%lld, total "
                                    "%d/%lld"),
                 (int)s->actions,
                 (long long)rsv_actions_max(e, who),
                 (int)(s->actions + s->frees),
                 (long long)rsv_total_max(e, who));
    if (s->held > RSV_HELD_NONE && s->held <= RSV_HELD_SKILL)
        RSV_PART("%s", enc_tr(tr, tr_ctx, holds[s->held]));
    if (s->help)
        /* TRANSLATORS: a readied Help and its bonus */
        RSV_PART(N_("help ready (+%d)"), (int)s->help_rank);
    if (s->fate != RSV_FATE_NONE)
        RSV_PART("%s", enc_tr(tr, tr_ctx, N_("must choose a Fallen Fate")));
    /* A hidden NPC's numbers are the GM's (the tracker line is
     * everyone's), and those who left the fight need none. */
    if (who->hidden || s->out != RSV_OUT_NONE)
        return;
    int64_t ign = rsv_ignores_of(who);
    if (rsv_is_pc(who) && ign > 0)
        /* TRANSLATORS: injuries a character may still ignore, of all */
        RSV_PART(N_("ignores %lld/%lld"), (long long)rsv_ignores_left(who),
                 (long long)ign);
    /* Force Points: every player character has some (0 is worth showing:
     * Tragic Demise gives them); an NPC only when given the stat. */
    const int64_t *fp = enc_stat((struct enc_combatant *)who, RSV_FP);
    if (fp != NULL || rsv_is_pc(who))
        /* TRANSLATORS: Force Points, short */
        RSV_PART(N_("FP %lld"), (long long)(fp != NULL ? *fp : 0));
#undef RSV_PART
}
