/*
 * fuzz_interaction.c - the INTERACTION_CREATE decoder: interaction_decode()
 * on any JSON, then cmd_validate() on what it accepted (cmd_exec() starts
 * with the same check), and the custom_id and snowflake parsers.
 *
 * Input: the "d" of an INTERACTION_CREATE dispatch, as JSON text (any JSON
 * value: a gateway frame can carry "d": null or "d": 5). Bytes jansson
 * refuses end the run early; the decoder only ever sees parsed JSON.
 *
 * Properties checked (interaction.h):
 *  - a refusal writes a terminated reason and releases the payload (a
 *    leaked reference shows up as a leak);
 *  - an accepted interaction has a handled type, an id, a token and a
 *    command, at most CMD_MAX_OPTS options, and a known button/select for
 *    components; further choices of a select (req.picked) only on a
 *    picker's select, at most CMD_MAX_PICKED, none NULL;
 *    interaction_cleanup() releases it;
 *  - the custom_id parser never writes past its fields, and an id it
 *    accepts is rebuilt by custom_id_make() within
 *    CUSTOM_ID_MAX bytes; a button of any version ("*", a proposal's
 *    Approve and Reject) is rebuilt with "*" and the same value.
 */
#include <string.h>

#include "cmd.h"
#include "cmd_table.h"
#include "cmd_validate.h"
#include "fuzz.h"
#include "interaction.h"
#include "snowflake.h"

static void custom_id(const char *s)
{
    struct custom_id cid;
    char out[CUSTOM_ID_MAX + 1];

    if (!custom_id_parse(s, &cid))
        return;
    FUZZ_CHECK(fuzz_terminated(cid.command, sizeof cid.command));
    FUZZ_CHECK(fuzz_terminated(cid.sub, sizeof cid.sub));
    FUZZ_CHECK(fuzz_terminated(cid.opt_name, sizeof cid.opt_name));
    FUZZ_CHECK(fuzz_terminated(cid.opt_value, sizeof cid.opt_value));
    FUZZ_CHECK(cid.version >= 0 || cid.version == CUSTOM_ID_ANY_VERSION);
    if (custom_id_make(out, sizeof out, cid.command,
                                   cid.sub[0] ? cid.sub : NULL, cid.fight,
                                   cid.version,
                                   cid.opt_name[0] ? cid.opt_name : NULL,
                                   cid.has_value ? cid.opt_value : NULL))
        FUZZ_CHECK(strlen(out) <= CUSTOM_ID_MAX);
    /* a button of any version (a proposal's Approve) is rebuilt as such */
    if (cid.version == CUSTOM_ID_ANY_VERSION && !cid.select_name[0] &&
        cid.has_value &&
        custom_id_make(out, sizeof out, cid.command,
                       cid.sub[0] ? cid.sub : NULL, cid.fight, cid.version,
                       cid.opt_name, cid.opt_value)) {
        struct custom_id again;
        FUZZ_CHECK(custom_id_parse(out, &again));
        FUZZ_CHECK(again.version == CUSTOM_ID_ANY_VERSION);
        FUZZ_CHECK(strcmp(again.opt_value, cid.opt_value) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct interaction it;
    char why[256], err[CMD_VALIDATE_ERR_MAX], text[256];
    json_error_t jerr;
    json_t *d;
    uint64_t id;
    size_t n;

    /* the same bytes as a custom_id and a snowflake (both NUL-terminated
     * strings from JSON in real use; a NUL inside just ends them early) */
    n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    custom_id(text);
    if (snowflake_parse(text, &id))
        (void)interaction_snowflake_ms(id);

    d = json_loadb((const char *)data, size, JSON_DECODE_ANY, &jerr);
    if (!d)
        return 0;
    memset(why, 0x55, sizeof why);
    if (interaction_decode(d, INT64_C(1700000000000), &it, why,
                           sizeof why) != BOT_OK) {
        FUZZ_CHECK(fuzz_terminated(why, sizeof why));
        FUZZ_CHECK(why[0] != '\0');
        json_decref(d);
        return 0;
    }
    FUZZ_CHECK(it.type == INTERACTION_COMMAND ||
               it.type == INTERACTION_COMPONENT ||
               it.type == INTERACTION_AUTOCOMPLETE ||
               it.type == INTERACTION_MODAL_SUBMIT);
    FUZZ_CHECK(it.id && it.token && it.application_id);
    FUZZ_CHECK(it.req.command != NULL);
    FUZZ_CHECK(it.req.nopts >= 0 && it.req.nopts <= CMD_MAX_OPTS);
    for (int i = 0; i < it.req.nopts; i++)
        FUZZ_CHECK(it.req.opts[i].name && it.req.opts[i].value);
    if (it.type == INTERACTION_COMPONENT)
        FUZZ_CHECK(it.component_type == 2 || it.component_type == 3);
    /* a multi-select's further choices: a picker's select only, each a
     * string, at most CMD_MAX_PICKED */
    FUZZ_CHECK(it.req.npicked >= 0 && it.req.npicked <= CMD_MAX_PICKED);
    if (it.req.npicked > 0)
        FUZZ_CHECK(it.type == INTERACTION_COMPONENT &&
                   it.component_type == 3 && it.req.picker);
    for (int i = 0; i < it.req.npicked; i++)
        FUZZ_CHECK(it.req.picked[i] != NULL);
    struct cmd_spec spec;
    (void)cmd_validate(&it.req, &spec, err, sizeof err);
    interaction_cleanup(&it);
    json_decref(d);
    return 0;
}
