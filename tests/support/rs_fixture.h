/*
 * rs_fixture.h - the fixture the ruleset tests share: an encounter, a seeded
 * RNG, a result and a diagnostic, and helpers that make calls into a
 * ruleset's ops as the command layer does (engine/include/rs.h).
 *
 * A ruleset's own fixture (tests/unit/engine/test_rs_<id>.h) starts with
 * RS_FX_STATE: the shared state is then f->fx for the rs_fx_*() helpers and,
 * field by field, f->e, f->d.msg, f->log for its tests. Both name the same
 * bytes, as with the kernel's struct_group(). What stays in that header is
 * only what is the ruleset's own: its pool counts, its tracks, and the call
 * style its tests were written in.
 *
 * Include after support.h. Ownership: rs_fx_init() creates the encounter and
 * rs_fx_cleanup() frees it; the result storage is the caller's (the ruleset
 * fixture embeds it). Every other pointer argument is borrowed for the call;
 * option names and values are kept as pointers, so they must live until the
 * last call that uses them. Helpers fail the test (cmocka asserts) when the
 * fixture itself cannot be built, never when an op under test refuses.
 */
#ifndef TEST_RS_FIXTURE_H
#define TEST_RS_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "enc.h"
#include "eng_rng.h"
#include "rs.h"

#define RS_FX_GM 1               /* the GM's user id */
#define RS_FX_MAX_OPTS 12        /* options in one call */
#define RS_FX_MAX_LOG 2048       /* bytes of turn log, NUL included */
#define RS_FX_ANY (-1)           /* rs_fx_find(): an event of any kind */

/* The members of struct rs_fx but its result pointer; see RS_FX_STATE. */
#define RS_FX_FIELDS                                                         \
    const struct rs_system *rs;       /* the ruleset under test */           \
    struct encounter *e;                                                     \
    struct eng_rng rng;                                                      \
    struct enc_diag d;                /* the last call's diagnostic */       \
    struct rs_call c;                 /* the standing call, for fixtures   \
                                         that keep one: rs_fx_standing() */  \
    struct rs_opt opts[RS_FX_MAX_OPTS]; /* options of the next calls */      \
    int nopts;                                                               \
    char log[RS_FX_MAX_LOG];          /* "T:name " per turn start, "R:n "    \
                                         per new round */

struct rs_fx {
    RS_FX_FIELDS
    struct enc_result *r;             /* the last call's events and rolls */
};

/* The head of a ruleset fixture whose tests read the result through a
 * pointer (f->r->nev); result is the storage r points at. */
#define RS_FX_STATE                                                          \
    union {                                                                  \
        struct rs_fx fx;                                                     \
        struct { RS_FX_FIELDS struct enc_result *r; };                       \
    };                                                                       \
    struct enc_result result

/* The same for a fixture whose tests read the result by value (f->r.nev):
 * r is the storage, and fx.r points at it. */
#define RS_FX_STATE_BY_VALUE                                                 \
    union {                                                                  \
        struct rs_fx fx;                                                     \
        struct { RS_FX_FIELDS };                                             \
    };                                                                       \
    struct enc_result r

/* Start f for ruleset rs: a new encounter named "test" run by RS_FX_GM, the
 * RNG seeded with seed, no options, an empty log, calls writing into r
 * (borrowed: it must outlive f), and the standing call made as the GM. */
void rs_fx_init(struct rs_fx *f, const struct rs_system *rs, uint64_t seed,
                struct enc_result *r);

/* Free the encounter. f may be initialised again afterwards. */
void rs_fx_cleanup(struct rs_fx *f);

/* Set the options of the next calls: name, value pairs ended by NULL
 * (a lone NULL: none). */
void rs_fx_opts(struct rs_fx *f, ...);
void rs_fx_vopts(struct rs_fx *f, va_list ap);

/* Clear the result and the diagnostic and return a call as user (with GM
 * rights when is_gm) carrying the options set. */
struct rs_call rs_fx_call(struct rs_fx *f, uint64_t user, bool is_gm);

/* Set the options (as rs_fx_opts()), clear the result and the diagnostic,
 * and return the standing call f->c, made as whoever f->c.user and
 * f->c.is_gm say: the GM until a test changes them. */
struct rs_call *rs_fx_standing(struct rs_fx *f, ...);

/* How rs_fx_add() makes a combatant. */
enum {
    RS_FX_LIKE_ADD = 1 << 0,  /* as /combat add: each stat passes the
                                 ruleset's check_stat first, and in a running
                                 fight late_join follows setup */
    RS_FX_HP_TRACK = 1 << 1,  /* "hp=N" sets the hp track to N of N (the hp:
                                 option) rather than a stat */
};

struct rs_fx_add {
    const char *name;
    int count;                /* combatants "name 1".."name N"; 0 means 1 */
    bool group;               /* grouped, as group:true does */
    uint64_t owner;           /* the player's user id; 0: an NPC */
    const char *side;         /* joined or created; NULL: none */
    const char *stats;        /* "str=6 hp=12", or NULL */
    unsigned flags;           /* RS_FX_LIKE_ADD, RS_FX_HP_TRACK */
};

/* Add the combatants of a, set their stats and run the ruleset's setup as
 * the GM with the options set. Returns the first one, or NULL when
 * late_join (RS_FX_LIKE_ADD) refused it. The turn log gets what late_join
 * started. */
struct enc_combatant *rs_fx_add(struct rs_fx *f, const struct rs_fx_add *a);

/* The combatant called name; the test fails when there is none. */
struct enc_combatant *rs_fx_who(struct rs_fx *f, const char *name);

/* Whose turn it is, or "" between turns. */
const char *rs_fx_current(struct rs_fx *f);

/* The current value of track on the combatant called who; the test fails
 * when it has no such track. */
int64_t rs_fx_track(struct rs_fx *f, const char *who, const char *track);

/* Ops run by a call as user (GM rights when is_gm) with the options set,
 * their turn starts and new rounds appended to the log. The options stay
 * set. Each returns what the op returned. */
enum eng_err rs_fx_begin(struct rs_fx *f, uint64_t user, bool is_gm);
enum eng_err rs_fx_next(struct rs_fx *f, uint64_t user, bool is_gm);
enum eng_err rs_fx_pick(struct rs_fx *f, uint64_t user, bool is_gm,
                        const char *name);
enum eng_err rs_fx_pass(struct rs_fx *f, uint64_t user, bool is_gm);
enum eng_err rs_fx_action(struct rs_fx *f, uint64_t user, bool is_gm,
                          const char *verb);
/* /attack by the combatant called atk on tgt; roll, damage and options
 * may be NULL. options is bound to the system's attack_opts first, as the
 * command layer does, when the system declares them. */
enum eng_err rs_fx_attack(struct rs_fx *f, uint64_t user, bool is_gm,
                          const char *atk, const char *tgt, const char *roll,
                          const char *damage, const char *options);

/* Start f for rs with seed and build the sample fight the pack tests share:
 * two sides of four ("Red 1".."Red 4"; "Blue 1".."Blue 4", a player's),
 * each with "ac=13 init=2 attack=5" and 12 hp; one setting; the ruleset's
 * begin and two turn ends, whatever they say; a note and an initiative
 * expression on the first, a condition on the second. */
void rs_fx_sample(struct rs_fx *f, const struct rs_system *rs, uint64_t seed,
                  struct enc_result *r);

/* Append the turn starts and new rounds of the last call to f->log. */
void rs_fx_log(struct rs_fx *f);

/* The tracker status of who under rs, into buf (size n). */
void rs_fx_status(const struct rs_system *rs, const struct encounter *e,
                  const struct enc_combatant *who, char *buf, size_t n);

/* The plain text of ev (its sentence, word, outcome) into buf. */
const char *rs_fx_text(const struct rs_fx *f, const struct enc_event *ev,
                       char *buf, size_t n);

/* Roll r as "[14]+5" (each term's faces; counting terms add
 * " = N successes"), or "no dice"; a static buffer (tests only). */
const char *rs_fx_detail(const struct enc_roll *r);

/* The first event of the last call of kind (RS_FX_ANY: any) whose text
 * contains s, or NULL. */
const struct enc_event *rs_fx_find(const struct rs_fx *f, int kind,
                                   const char *s);

/* Whether any event of the last call has s in its text. */
bool rs_fx_said(const struct rs_fx *f, const char *s);

/* The index of the nth (from 0) roll of the last call labelled label, or
 * -1. */
int rs_fx_roll(const struct rs_fx *f, const char *label, int nth);

/* The faces of roll i of the last call: every die of its first term,
 * dropped ones too. Returns how many went to faces (at most max). */
int rs_fx_faces(const struct rs_fx *f, int i, int *faces, int max);

#endif
