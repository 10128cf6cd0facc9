/*
 * proposal.h - a player's change to a combatant that is not theirs (its
 * hp, a condition), kept for the GM to approve or reject (issue 31, part
 * 5; docs/commands.md, "/combat proposal").
 *
 * A proposal is one row of the store's key/value table, written in the
 * proposing command's transaction, so an answered proposal is on disk:
 *
 *     proposal:<channel>:<id>   JSON: the typed command and who sent it,
 *                               the fight and the turn it was made in,
 *                               and a token its buttons carry
 *     proposal_seq:<channel>    the last id given
 *
 * Ids count up per channel. A button's reference (proposal_ref) names the
 * fight's channel, the id and the token: the GM channel's click finds the
 * fight through it, and a reference whose token is not the stored one (a
 * made-up custom_id) is refused. Rows of a fight that ended are forgotten
 * with it (proposal_forget_channel).
 *
 * Ownership: everything is borrowed; results go into the caller's
 * structs and buffers. No state.
 */
#ifndef PROPOSAL_H
#define PROPOSAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot_err.h"
#include "cmd.h"

struct store;
struct encounter;
struct eng_rng;

/* Proposals waiting in one fight at once: the GM's queue stays short
 * enough to read, and one channel's rows stay few. */
#define PROPOSAL_MAX_PER_FIGHT 20
/* ... and from one player: nobody fills the GM's queue alone. */
#define PROPOSAL_MAX_PER_PLAYER 3
/* Hex digits of a proposal's token (32 bits from the fight's generator):
 * a button names its proposal by channel, id and token. */
#define PROPOSAL_TOKEN_LEN 8
/* The proposer's display name kept with it, bytes. */
#define PROPOSAL_NAME_MAX 64
/* A reference as text: "<channel>-<id>-<token>", at most. */
#define PROPOSAL_REF_MAX 48
#define PROPOSAL_KV_PREFIX "proposal:"
/* proposal_seq:<channel>: the last id given in the channel's fight */
#define PROPOSAL_SEQ_PREFIX "proposal_seq:"

/* When a waiting proposal lapses (/config proposal-expiry:). Any
 * proposal lapses when its fight ends. */
enum proposal_expiry {
    PROPOSAL_EXPIRE_TURN = 0,   /* when the turn moves on (the default) */
    PROPOSAL_EXPIRE_ROUND,      /* when the round does */
    PROPOSAL_EXPIRE_NEVER,      /* only with the fight */
};

struct proposal {
    int64_t id;                          /* >= 1, per channel */
    char token[PROPOSAL_TOKEN_LEN + 1];
    uint64_t guild, channel, fight;      /* where: the fight's key */
    uint64_t user;                       /* who proposed */
    char user_name[PROPOSAL_NAME_MAX + 1];
    uint32_t target;                     /* the combatant's id ... */
    char target_name[CMD_MAX_OPT_VALUE + 1];  /* ... and name then */
    char sub[CMD_MAX_OPT_NAME + 1];      /* /combat's "hp" or "condition" */
    struct proposal_opt {
        char name[CMD_MAX_OPT_NAME + 1];
        char value[CMD_MAX_OPT_VALUE + 1];
    } opts[CMD_MAX_OPTS];                /* as typed */
    int nopts;
    uint64_t turn_seq;                   /* the fight's turn then */
    int32_t round;
    int64_t at_ms;
    uint64_t posted;                     /* where the GM was asked (the GM
                                            channel, or the fight's own) */
};

/* A proposal as a button or the GM names it: "3" typed, or
 * "<channel>-3-<token>" on a button. */
struct proposal_ref {
    uint64_t channel;                    /* 0: the channel it was sent in */
    int64_t id;
    char token[PROPOSAL_TOKEN_LEN + 1];  /* "" when typed */
};

/* Parse a reference; false when it is neither form. */
bool proposal_ref_parse(const char *s, struct proposal_ref *out);
/* p's reference as a button carries it, into out[PROPOSAL_REF_MAX + 1]. */
void proposal_ref_text(const struct proposal *p, char *out, size_t n);

/* "turn", "round", "never" <-> the value; parse is ASCII case-blind. */
bool proposal_expiry_parse(const char *s, enum proposal_expiry *out);
const char *proposal_expiry_name(enum proposal_expiry x);

/* Whether p no longer stands in e (NULL: no fight) under rule x: another
 * fight (or none), or the turn or round moved on as x says. */
bool proposal_expired(const struct proposal *p, const struct encounter *e,
                      enum proposal_expiry x);

/* Draw p's token (p's channel, id and time set) from rng's state,
 * without moving rng on: a proposal changes no later roll. */
void proposal_token(struct proposal *p, const struct eng_rng *rng);

/* p as the stored JSON text (heap; NULL on no memory), and back. Decoding
 * checks every field against the limits above: false for anything else. */
char *proposal_encode(const struct proposal *p);
bool proposal_decode(const char *text, struct proposal *p);

/* Store p (a new row, or over the same id). */
enum bot_err proposal_put(struct store *s, const struct proposal *p);
/* The proposal id of channel into *p: BOT_NOTFOUND when there is none
 * (or the row does not read as one). */
enum bot_err proposal_get(struct store *s, uint64_t channel, int64_t id,
                          struct proposal *p);
enum bot_err proposal_delete(struct store *s, uint64_t channel, int64_t id);

/* What channel holds, lapsed rows (under x, against e) deleted first:
 * how many wait, how many of them are user's, and the highest id ever
 * stored there that still is (new ids go above it). */
struct proposal_count {
    int waiting;
    int of_user;
    int64_t max_id;
    int lapsed;                          /* rows this sweep deleted */
};
enum bot_err proposal_sweep(struct store *s, uint64_t channel,
                            const struct encounter *e,
                            enum proposal_expiry x, uint64_t user,
                            struct proposal_count *out);

/* The next proposal id of channel, above `above` and every id given
 * there since its fight started (kept in proposal_seq:<channel>, so an
 * answered proposal's id is not given again). */
enum bot_err proposal_next_id(struct store *s, uint64_t channel,
                              int64_t above, int64_t *out);

/* Forget every proposal of channel (its fight ended). */
enum bot_err proposal_forget_channel(struct store *s, uint64_t channel);

/* The prune pass's part (daemon_prune.c): forget at most max rows (each
 * proposal, and a channel's id counter) of channels whose live fight is
 * not the one they were made in, or that have none; how many went into
 * *pruned. A fight that ends forgets its own as it ends; these are the
 * rows of one that went another way (its channel's fight gone from the
 * store without an end: a database put back from a copy, or edited), which
 * nothing else would ever delete. Rows of a live fight stay, lapsed or
 * not: its next proposal's sweep sees to them. */
enum bot_err proposal_prune(struct store *s, size_t max, int64_t *pruned);

#endif
