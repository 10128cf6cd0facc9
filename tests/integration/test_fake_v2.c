/*
 * test_fake_v2.c - fake-discord's Components V2 checks, straight over HTTP
 * (no bot): for each rule a good body is accepted and a bad one gets 400
 * 50035 and the violation of its own kind, on channel messages, edits,
 * interaction callbacks (4, 5, 7), follow-ups and @original edits.
 */
#include "fake_ix_util.h"

static void post_ok(int port, const char *body)
{
    json_decref(expect(port, "POST", CHAN, body, 200, NULL));
}

static void post_bad(int port, const char *body, const char *kind)
{
    json_decref(expect(port, "POST", CHAN, body, 400, kind));
}

/* n components {type:14} in a row, as JSON text. */
static char *separators(int n)
{
    size_t cap = (size_t)n * 16 + 64, at = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    at += (size_t)snprintf(s, cap, "{\"flags\":32768,\"components\":[");
    for (int i = 0; i < n; i++)
        at += (size_t)snprintf(s + at, cap - at, "%s{\"type\":14}",
                               i ? "," : "");
    snprintf(s + at, cap - at, "],\"allowed_mentions\":{\"parse\":[]}}");
    return s;
}

static char *text_displays(size_t chars_each)
{
    size_t cap = 2 * chars_each + 256;
    char *t = malloc(chars_each + 1), *s = malloc(cap);
    assert_non_null(t);
    assert_non_null(s);
    memset(t, 'x', chars_each);
    t[chars_each] = '\0';
    snprintf(s, cap, "{\"flags\":32768,\"components\":[{\"type\":10,"
             "\"content\":\"%s\"},{\"type\":10,\"content\":\"%s\"}],"
             "\"allowed_mentions\":{\"parse\":[]}}", t, t);
    free(t);
    return s;
}

static void test_v2_flag_excludes_classic_fields(void **state)
{
    struct fake_proc fp;
    (void)state;
    start(&fp);
    /* the reference's example */
    post_ok(fp.port, q("{'flags':32768,'components':[{'type':17,"
                       "'accent_color':703487,'components':[{'type':9,"
                       "'components':[{'type':10,'content':'## Status'}],"
                       "'accessory':{'type':2,'style':2,'label':'Refresh',"
                       "'custom_id':'st:refresh'}},{'type':14,'divider':true,"
                       "'spacing':1},{'type':1,'components':[{'type':3,"
                       "'custom_id':'st:pick','options':[{'label':'A',"
                       "'value':'a'}]}]}]}]," AM "}"));
    post_bad(fp.port, q("{'flags':32768,'content':'hi','components':[{"
                        "'type':10,'content':'x'}]," AM "}"),
             "v2_with_content");
    post_bad(fp.port, q("{'flags':32768,'embeds':[{'title':'t'}],"
                        "'components':[{'type':10,'content':'x'}]," AM "}"),
             "v2_with_content");
    post_bad(fp.port, q("{'flags':32768,'poll':{},'components':[{"
                        "'type':10,'content':'x'}]," AM "}"),
             "v2_with_content");
    /* null and [] are no content */
    post_ok(fp.port, q("{'flags':32768,'content':null,'embeds':[],"
                       "'components':[{'type':10,'content':'x'}]," AM "}"));
    /* a V2 type in a classic message */
    post_bad(fp.port, q("{'content':'x','components':[{'type':17,"
                        "'components':[{'type':10,'content':'x'}]}]," AM
                        "}"),
             "v2_flag_missing");
    /* classic messages keep their rules */
    post_ok(fp.port, q("{'content':'x','components':[{'type':1,"
                       "'components':[{'type':2,'style':1,'custom_id':'a',"
                       "'label':'A'}]}]," AM "}"));
    assert_int_equal(fake_violations_of(fp.port, "invalid_form_body"), 0);
    fake_server_stop(&fp);
}

static void test_v2_placement_and_types(void **state)
{
    struct fake_proc fp;
    (void)state;
    start(&fp);
    post_ok(fp.port, q("{'flags':32768,'components':[{'type':12,'items':[{"
                       "'media':{'url':'https://e.org/a.png'}}]},{'type':13,"
                       "'file':{'url':'attachment://a.txt'}}]," AM "}"));
    /* a Thumbnail only as an accessory; a Container inside a Container;
     * a Label (modals) in a message; an undocumented type */
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':11,'media':{"
                        "'url':'https://e.org/a.png'}}]," AM "}"),
             "v2_placement");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':17,"
                        "'components':[{'type':17,'components':[{'type':"
                        "10,'content':'x'}]}]}]," AM "}"),
             "v2_placement");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':18,'label':"
                        "'l','component':{'type':4,'custom_id':'t',"
                        "'style':1}}]," AM "}"),
             "v2_placement");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':15}]," AM
                        "}"),
             "v2_component_type");
    /* Section: 1-3 Text Displays and an accessory */
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':9,"
                        "'components':[{'type':10,'content':'a'},{'type':"
                        "10,'content':'b'},{'type':10,'content':'c'},{"
                        "'type':10,'content':'d'}],'accessory':{'type':11,"
                        "'media':{'url':'https://e.org/a.png'}}}]," AM "}"),
             "v2_section");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':9,"
                        "'components':[{'type':10,'content':'a'}]}]," AM
                        "}"),
             "v2_section");
    /* media: a File only from attachment://, 1-10 gallery items */
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':13,'file':{"
                        "'url':'https://e.org/a.txt'}}]," AM "}"),
             "v2_media");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':12,"
                        "'items':[]}]," AM "}"),
             "v2_media");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':14,"
                        "'spacing':3}]," AM "}"),
             "v2_separator");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':10}]," AM
                        "}"),
             "v2_text_display");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':14,'id':"
                        "'one'}]," AM "}"),
             "v2_id");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':17,"
                        "'accent_color':16777216,'components':[{'type':10,"
                        "'content':'x'}]}]," AM "}"),
             "v2_container");
    fake_server_stop(&fp);
}

static void test_v2_rows_buttons_selects(void **state)
{
    struct fake_proc fp;
    (void)state;
    start(&fp);
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':2,'style':1,'custom_id':'a',"
                        "'label':'A'},{'type':3,'custom_id':'s','options':[{"
                        "'label':'l','value':'v'}]}]}]," AM "}"),
             "v2_action_row");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[]}]," AM "}"),
             "v2_action_row");
    /* a link button has a url and no custom_id; a premium one only a
     * sku_id; the others a custom_id of 1-100 */
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':2,'style':5,'url':"
                        "'https://e.org','custom_id':'x'}]}]," AM "}"),
             "v2_button");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':2,'style':6,'sku_id':'1',"
                        "'label':'Buy'}]}]," AM "}"),
             "v2_button");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':2,'style':1,'label':'A'}]}],"
                        AM "}"),
             "v2_custom_id");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':2,'style':7,'custom_id':'a'"
                        "}]}]," AM "}"),
             "v2_button");
    /* custom ids unique across the message, ids too */
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':9,"
                        "'components':[{'type':10,'content':'a'}],"
                        "'accessory':{'type':2,'style':1,'custom_id':'dup'}"
                        "},{'type':1,'components':[{'type':2,'style':2,"
                        "'custom_id':'dup'}]}]," AM "}"),
             "v2_custom_id_dup");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':10,'id':7,"
                        "'content':'a'},{'type':14,'id':7}]," AM "}"),
             "v2_id_dup");
    post_ok(fp.port, q("{'flags':32768,'components':[{'type':10,'id':7,"
                       "'content':'a'},{'type':14,'id':0},{'type':14,"
                       "'id':0}]," AM "}"));
    /* selects: 1-25 options of <= 100 characters, min <= max */
    char opts[4096] = "", body[8192];
    int at = 0;
    for (int i = 0; i < 26; i++)
        at += snprintf(opts + at, sizeof opts - (size_t)at,
                       "%s{'label':'o%d','value':'v%d'}", i ? "," : "", i,
                       i);
    snprintf(body, sizeof body, "{'flags':32768,'components':[{'type':1,"
             "'components':[{'type':3,'custom_id':'s','options':[%s]}]}],"
             AM "}", opts);
    post_bad(fp.port, q(body), "v2_select");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':5,'custom_id':'u',"
                        "'min_values':3,'max_values':2}]}]," AM "}"),
             "v2_select");
    post_bad(fp.port, q("{'flags':32768,'components':[{'type':1,"
                        "'components':[{'type':6,'custom_id':'r',"
                        "'default_values':[{'id':'1','type':'user'}]}]}],"
                        AM "}"),
             "v2_select");
    post_ok(fp.port, q("{'flags':32768,'components':[{'type':1,"
                       "'components':[{'type':8,'custom_id':'c',"
                       "'channel_types':[0],'default_values':[{'id':'1',"
                       "'type':'channel'}]}]}]," AM "}"));
    fake_server_stop(&fp);
}

static void test_v2_counts(void **state)
{
    struct fake_proc fp;
    char *b;
    (void)state;
    start(&fp);
    b = separators(40);
    post_ok(fp.port, b);
    free(b);
    b = separators(41);
    post_bad(fp.port, b, "v2_component_count");
    free(b);
    /* nested ones count: a Container of 40 is 41 */
    char body[8192];
    int at = snprintf(body, sizeof body, "{\"flags\":32768,\"components\":"
                      "[{\"type\":17,\"components\":[");
    for (int i = 0; i < 40; i++)
        at += snprintf(body + at, sizeof body - (size_t)at,
                       "%s{\"type\":14}", i ? "," : "");
    snprintf(body + at, sizeof body - (size_t)at, "]}],\"allowed_mentions\":"
             "{\"parse\":[]}}");
    post_bad(fp.port, body, "v2_component_count");
    /* 4000 characters across all Text Displays (our reading) */
    b = text_displays(2000);
    post_ok(fp.port, b);
    free(b);
    b = text_displays(2001);
    post_bad(fp.port, b, "v2_text_total");
    free(b);
    fake_server_stop(&fp);
}

static void test_v2_edits(void **state)
{
    struct fake_proc fp;
    char path[160];
    (void)state;
    start(&fp);
    json_t *v2 = expect(fp.port, "POST", CHAN, q("{'flags':32768,"
                        "'components':[{'type':10,'content':'a'}]," AM "}"),
                        200, NULL);
    snprintf(path, sizeof path, CHAN "/%s", id_of(v2));
    /* V2 never goes back: no flag, or content on it */
    json_decref(expect(fp.port, "PATCH", path, q("{'flags':0,'content':'x',"
                       AM "}"), 400, "v2_to_classic"));
    json_decref(expect(fp.port, "PATCH", path, q("{'content':'x'," AM "}"),
                       400, "v2_with_content"));
    json_decref(expect(fp.port, "PATCH", path, q("{'components':[{'type':"
                       "10,'content':'b'}]," AM "}"), 200, NULL));
    /* classic -> V2 with the old fields emptied in the same request */
    json_t *old = expect(fp.port, "POST", CHAN, q("{'content':'hello',"
                         "'embeds':[{'title':'t'}]," AM "}"), 200, NULL);
    snprintf(path, sizeof path, CHAN "/%s", id_of(old));
    json_decref(expect(fp.port, "PATCH", path, q("{'flags':32768,"
                       "'components':[{'type':10,'content':'b'}]," AM "}"),
                       400, "v2_switch_not_emptied"));
    json_t *m = expect(fp.port, "PATCH", path, q("{'flags':32768,"
                       "'content':null,'embeds':[],'components':[{'type':"
                       "10,'content':'b'}]," AM "}"), 200, NULL);
    assert_int_equal(json_integer_value(json_object_get(m, "flags")), 32768);
    json_decref(m);
    json_decref(old);
    json_decref(v2);
    assert_int_equal(fake_violations_of(fp.port, "invalid_form_body"), 0);
    fake_server_stop(&fp);
}

static void test_v2_callbacks_and_webhooks(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    char path[512];
    (void)state;
    session(&fp, &w);

    /* callback 4: ephemeral V2 is 64 | 32768; content is refused */
    json_t *d = inject(&w, fp.port, "{\"name\":\"status\"}");
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':4,'data':{'flags':"
                       "32832,'content':'x','components':[{'type':10,"
                       "'content':'a'}]," AM "}}"), 400, "v2_with_content"));
    json_decref(expect(fp.port, "POST", path, q("{'type':4,'data':{'flags':"
                       "32832,'components':[{'type':10,'content':'a'},{"
                       "'type':1,'components':[{'type':2,'style':1,"
                       "'custom_id':'go','label':'Go'}]}]," AM "}}"), 204,
                       NULL));
    /* a follow-up: the same rules */
    hook_path(path, sizeof path, d, "");
    json_decref(expect(fp.port, "POST", path, q("{'flags':32768,"
                       "'components':[{'type':11,'media':{'url':"
                       "'https://e.org/a.png'}}]," AM "}"), 400,
                       "v2_placement"));
    json_t *f = expect(fp.port, "POST", path, q("{'flags':32768,"
                       "'components':[{'type':10,'content':'f'}]," AM "}"),
                       200, NULL);
    json_decref(d);

    /* callback 5 may carry only EPHEMERAL: V2 comes with the @original
     * edit */
    d = inject(&w, fp.port, "{\"name\":\"status\"}");
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':5,'data':{'flags':"
                       "32832}}"), 400, "v2_in_defer"));
    json_decref(d);
    d = inject(&w, fp.port, "{\"name\":\"status\"}");
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':5,'data':{'flags':"
                       "64}}"), 204, NULL));
    hook_path(path, sizeof path, d, "/messages/@original");
    json_t *m = expect(fp.port, "PATCH", path, q("{'flags':32768,"
                       "'components':[{'type':10,'content':'done'}]," AM
                       "}"), 200, NULL);
    json_decref(m);
    json_decref(expect(fp.port, "PATCH", path, q("{'flags':0,'content':'x',"
                       AM "}"), 400, "v2_to_classic"));
    json_decref(d);

    /* callback 7 on a V2 message edits it: the flag stays */
    char desc[256];
    snprintf(desc, sizeof desc, "{\"type\":\"component\",\"custom_id\":"
             "\"go\",\"message_id\":\"%s\"}", id_of(f));
    d = inject(&w, fp.port, desc);
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':7,'data':{"
                       "'content':'now classic'," AM "}}"), 400,
                       "v2_with_content"));
    json_decref(d);
    d = inject(&w, fp.port, desc);
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(fp.port, "POST", path, q("{'type':7,'data':{"
                       "'components':[{'type':10,'content':'next'}]," AM
                       "}}"), 204, NULL));
    json_decref(d);
    json_decref(f);
    assert_int_equal(fake_violations_of(fp.port, "invalid_form_body"), 0);
    done(&fp, &w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2_flag_excludes_classic_fields),
        cmocka_unit_test(test_v2_placement_and_types),
        cmocka_unit_test(test_v2_rows_buttons_selects),
        cmocka_unit_test(test_v2_counts),
        cmocka_unit_test(test_v2_edits),
        cmocka_unit_test(test_v2_callbacks_and_webhooks),
    };
    return cmocka_run_group_tests_name("fake_v2", tests, NULL, NULL);
}
