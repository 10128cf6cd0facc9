/*
 * dice_dialect.c - the names of the dialects (the bots whose dice fray
 * reads) and the words of the notes a result carries about them.
 */
#include "dice.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *name, *title;
} dialects[DICE_DIALECT_COUNT] = {
    [DICE_DIALECT_FRAY] = {"fray", "fray"},
    [DICE_DIALECT_DICE_MAIDEN] = {"dicemaiden", "Dice Maiden"},
    [DICE_DIALECT_ROLL20] = {"roll20", "Roll20"},
    [DICE_DIALECT_FOUNDRY] = {"foundry", "Foundry"},
    [DICE_DIALECT_AVRAE] = {"avrae", "Avrae"},
    [DICE_DIALECT_SIDEKICK] = {"sidekick", "Sidekick"},
};

const char *dice_dialect_name(enum dice_dialect d)
{
    return (unsigned)d < DICE_DIALECT_COUNT ? dialects[d].name : NULL;
}

const char *dice_dialect_title(enum dice_dialect d)
{
    return (unsigned)d < DICE_DIALECT_COUNT ? dialects[d].title : NULL;
}

bool dice_dialect_parse(const char *name, size_t len, enum dice_dialect *out)
{
    for (unsigned d = 0; d < DICE_DIALECT_COUNT; d++)
        if (strlen(dialects[d].name) == len &&
            strncasecmp(dialects[d].name, name, len) == 0) {
            *out = (enum dice_dialect)d;
            return true;
        }
    return false;
}

const char *dice_note_text(enum dice_note note)
{
#define DICE_NOTE_TEXT_(name, text) case name: return text;
    switch (note) {
    DICE_NOTES(DICE_NOTE_TEXT_)
    }
#undef DICE_NOTE_TEXT_
    return NULL;
}
