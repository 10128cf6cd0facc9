/*
 * test_fake_forms.c - fake-discord's modals and component interactions,
 * straight over HTTP and a raw gateway session (no bot): a modal (callback
 * 9) only as the first answer to a command or component, every rule of the
 * modal object with its modal_* violation, /_test/modal_submit building
 * the MODAL_SUBMIT from the opened modal (and refusing values it could not
 * produce unless forced), a raw MODAL_SUBMIT, and clicks and selections
 * checked against the message the bot sent.
 */
#include "fake_ix_util.h"

#define MODAL_OK                                                            \
    "{'type':9,'data':{'custom_id':'bug','title':'Report a bug',"          \
    "'components':[{'type':10,'content':'Tell us'},"                       \
    "{'type':18,'id':10,'label':'What happened','component':{'type':4,"    \
    "'id':11,'custom_id':'what','style':2,'min_length':3}},"               \
    "{'type':18,'label':'Where','component':{'type':3,'custom_id':'where'," \
    "'options':[{'label':'Tracker','value':'tracker'},{'label':'Dice',"    \
    "'value':'dice'}]}},"                                                  \
    "{'type':18,'label':'Screenshot','component':{'type':19,"              \
    "'custom_id':'shot','required':false,'min_values':0}},"                \
    "{'type':18,'label':'Urgent','component':{'type':23,"                  \
    "'custom_id':'urgent'}}]}}"

/* A command interaction answered with body; returns its d (new). */
static json_t *answered(struct fake_ws *w, int port, const char *desc,
                        const char *body, int want, const char *kind)
{
    char path[512];
    json_t *d = inject(w, port, desc);
    ix_path(path, sizeof path, d, "callback");
    json_decref(expect(port, "POST", path, body, want, kind));
    return d;
}

static void bad_modal(struct fake_ws *w, int port, const char *data,
                      const char *kind)
{
    char body[4096];
    snprintf(body, sizeof body, "{'type':9,'data':%s}", data);
    json_decref(answered(w, port, "{\"name\":\"report\"}", q(body), 400,
                         kind));
}

static void test_modal_rules(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    (void)state;
    session(&fp, &w);
    json_decref(answered(&w, fp.port, "{\"name\":\"report\"}", q(MODAL_OK),
                         204, NULL));
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'0123456789012345678"
              "901234567890123456789012345','components':[{'type':10,"
              "'content':'x'}]}", "modal_shape");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':10,'content':'1'},{'type':10,'content':'2'},{'type':"
              "10,'content':'3'},{'type':10,'content':'4'},{'type':10,"
              "'content':'5'},{'type':10,'content':'6'}]}", "modal_shape");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':2,'style':1,'custom_id':'b'}]}",
              "modal_component_type");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'0123456789012345678901234567890123456789"
              "012345','component':{'type':4,'custom_id':'a','style':1}}]}",
              "modal_label");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':14}}]}",
              "modal_component_type");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':4,'custom_id':'a',"
              "'style':1,'label':'old style'}}]}", "modal_text_input");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':4,'custom_id':'a',"
              "'style':1,'max_length':4001}}]}", "modal_text_input");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':5,'custom_id':'a',"
              "'disabled':false}}]}", "modal_disabled");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':5,'custom_id':'a',"
              "'min_values':0}}]}", "modal_required_min");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':3,'custom_id':'a',"
              "'options':[]}}]}", "modal_select");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':4,'style':1}}]}",
              "modal_custom_id");
    /* min_values 0 is fine once required is false */
    json_decref(answered(&w, fp.port, "{\"name\":\"report\"}",
                         q("{'type':9,'data':{'custom_id':'m','title':'t',"
                           "'components':[{'type':18,'label':'l',"
                           "'component':{'type':5,'custom_id':'a',"
                           "'min_values':0,'required':false}}]}}"), 204,
                         NULL));
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':21,'custom_id':"
              "'a','options':[{'label':'x','value':'x'}]}}]}",
              "modal_radio");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':23,'custom_id':"
              "'a','required':true}}]}", "modal_checkbox");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':22,'custom_id':"
              "'a','options':[{'label':'x','value':'x'}],'max_values':11}}"
              "]}", "modal_checkbox_group");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':19,'custom_id':"
              "'a','file_types':['.a','.b','.c','.d','.e','.f','.g','.h',"
              "'.i','.j','.k']}}]}", "modal_file_upload");
    bad_modal(&w, fp.port, "{'custom_id':'m','title':'t','components':[{"
              "'type':18,'label':'l','component':{'type':4,'custom_id':'a',"
              "'style':1}},{'type':18,'label':'k','component':{'type':4,"
              "'custom_id':'a','style':1}}]}", "modal_custom_id_dup");
    /* the deprecated Action Row around one Text Input still works */
    json_decref(answered(&w, fp.port, "{\"name\":\"report\"}",
                         q("{'type':9,'data':{'custom_id':'m','title':'t',"
                           "'components':[{'type':1,'components':[{'type':"
                           "4,'custom_id':'a','style':1,'label':'Name'}]}]}"
                           "}"), 204, NULL));
    done(&fp, &w);
}

static void test_modal_only_first_answer(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    char path[512];
    (void)state;
    session(&fp, &w);
    /* autocomplete gets choices, never a modal */
    json_decref(answered(&w, fp.port, "{\"type\":\"autocomplete\",\"name\":"
                         "\"report\"}", q(MODAL_OK), 400,
                         "modal_not_allowed"));
    /* after a defer it is too late */
    json_t *d = answered(&w, fp.port, "{\"name\":\"report\"}",
                         "{\"type\":5}", 204, NULL);
    ix_path(path, sizeof path, d, "callback");
    long long before = fake_violations_of(fp.port, "modal_not_first");
    json_t *j = fake_rest(fp.port, NULL, "POST", path, q(MODAL_OK), NULL);
    assert_int_equal(json_integer_value(json_object_get(j, "code")), 40060);
    assert_int_equal(fake_violations_of(fp.port, "modal_not_first"),
                     before + 1);
    json_decref(j);
    json_decref(d);
    /* a modal submit cannot answer with another modal */
    d = answered(&w, fp.port, "{\"name\":\"report\"}", q(MODAL_OK), 204,
                 NULL);
    json_t *sub = fake_modal_submit(fp.port, id_of(d), "{\"what\":\"it "
                                    "broke\",\"where\":[\"dice\"]}", false,
                                    NULL);
    assert_non_null(sub);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    json_t *sd = json_object_get(ev, "d");
    ix_path(path, sizeof path, sd, "callback");
    json_decref(expect(fp.port, "POST", path, q(MODAL_OK), 400,
                       "modal_not_allowed"));
    json_decref(expect(fp.port, "POST", path, q("{'type':4,'data':{"
                       "'content':'thanks','flags':64,'allowed_mentions':{"
                       "'parse':[]}}}"), 204, NULL));
    json_decref(sub);
    json_decref(d);
    done(&fp, &w);
}

static void test_modal_submit_mirrors_modal(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    int st = 0;
    char values[512];
    (void)state;
    session(&fp, &w);
    json_t *att = fake_post_json(fp.port, "/_test/attachment",
                                 "{\"filename\":\"bug.png\",\"content\":"
                                 "\"PNG\",\"content_type\":\"image/png\"}",
                                 &st);
    assert_int_equal(st, 200);
    json_t *d = answered(&w, fp.port, "{\"name\":\"report\",\"locale\":"
                         "\"fr\"}", q(MODAL_OK), 204, NULL);
    /* values it could not produce are refused */
    assert_null(fake_modal_submit(fp.port, id_of(d), "{\"what\":\"x\"}",
                                  false, &st));     /* min_length 3 */
    assert_int_equal(st, 400);
    assert_null(fake_modal_submit(fp.port, id_of(d), "{\"what\":\"long "
                                  "enough\",\"where\":[\"nowhere\"]}", false,
                                  &st));
    assert_int_equal(st, 400);
    assert_null(fake_modal_submit(fp.port, id_of(d), "{\"what\":\"long "
                                  "enough\",\"where\":[\"dice\"],\"nope\":"
                                  "\"x\"}", false, &st));
    assert_int_equal(st, 400);
    snprintf(values, sizeof values, "{\"what\":\"the tracker froze\","
             "\"where\":[\"tracker\"],\"shot\":[\"%s\"],\"urgent\":true}",
             id_of(att));
    json_t *sub = fake_modal_submit(fp.port, id_of(d), values, false, &st);
    assert_int_equal(st, 200);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    json_t *sd = json_object_get(ev, "d"), *data = json_object_get(sd,
                                                                   "data");
    assert_string_equal(id_of(sd), id_of(sub));
    assert_int_equal(json_integer_value(json_object_get(sd, "type")), 5);
    assert_string_equal(json_string_value(json_object_get(sd, "locale")),
                        "fr");
    assert_string_equal(json_string_value(json_object_get(data,
                                                          "custom_id")),
                        "bug");
    json_t *comps = json_object_get(data, "components");
    assert_int_equal(json_array_size(comps), 5);
    /* a Text Display comes back as {type:10, id} */
    json_t *c0 = json_array_get(comps, 0);
    assert_int_equal(json_integer_value(json_object_get(c0, "type")), 10);
    assert_null(json_object_get(c0, "content"));
    /* a Label as {type:18, id, component:{type, id, custom_id, value}} */
    json_t *c1 = json_array_get(comps, 1), *in = json_object_get(c1,
                                                                 "component");
    assert_int_equal(json_integer_value(json_object_get(c1, "id")), 10);
    assert_int_equal(json_integer_value(json_object_get(in, "type")), 4);
    assert_int_equal(json_integer_value(json_object_get(in, "id")), 11);
    assert_string_equal(json_string_value(json_object_get(in, "value")),
                        "the tracker froze");
    assert_null(json_object_get(in, "component_type"));
    in = json_object_get(json_array_get(comps, 2), "component");
    assert_string_equal(json_string_value(json_array_get(
                            json_object_get(in, "values"), 0)), "tracker");
    /* the upload: its id in values, the attachment in resolved, on the
     * fake's attachment host */
    in = json_object_get(json_array_get(comps, 3), "component");
    assert_int_equal(json_integer_value(json_object_get(in, "type")), 19);
    const char *aid = json_string_value(json_array_get(json_object_get(
                                            in, "values"), 0));
    assert_string_equal(aid, id_of(att));
    json_t *a = json_object_get(json_object_get(json_object_get(
                    data, "resolved"), "attachments"), aid);
    assert_non_null(strstr(json_string_value(json_object_get(a, "url")),
                           "127.0.0.1"));
    assert_true(json_is_true(json_object_get(a, "ephemeral")));
    in = json_object_get(json_array_get(comps, 4), "component");
    assert_true(json_is_true(json_object_get(in, "value")));
    json_decref(sub);
    /* forced: a forgery test sends what no client could */
    sub = fake_modal_submit(fp.port, id_of(d), "{\"what\":\"x\",\"where\":"
                            "[\"nowhere\"],\"nope\":\"x\"}", true, &st);
    assert_int_equal(st, 200);
    json_decref(sub);
    /* a raw MODAL_SUBMIT, any custom_id */
    sub = fake_inject(fp.port, "{\"type\":\"modal_submit\",\"custom_id\":"
                      "\"forged:1\",\"components\":[{\"type\":18,\"id\":1,"
                      "\"component\":{\"type\":4,\"id\":2,\"custom_id\":"
                      "\"x\",\"value\":\"y\"}}]}");
    assert_non_null(sub);
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    sd = json_object_get(ev, "d");
    assert_int_equal(json_integer_value(json_object_get(sd, "type")), 5);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(sd, "data"), "custom_id")),
                        "forged:1");
    json_decref(sub);
    json_decref(att);
    json_decref(d);
    /* no modal was opened: nothing to submit */
    d = answered(&w, fp.port, "{\"name\":\"roll\"}", q("{'type':4,'data':{"
                 "'content':'7','allowed_mentions':{'parse':[]}}}"), 204,
                 NULL);
    assert_null(fake_modal_submit(fp.port, id_of(d), NULL, false, &st));
    assert_int_equal(st, 409);
    json_decref(d);
    done(&fp, &w);
}

static void test_components_checked_against_message(void **state)
{
    struct fake_proc fp;
    struct fake_ws w;
    int st = 0;
    (void)state;
    session(&fp, &w);
    json_t *m = expect(fp.port, "POST", CHAN, q(
        "{'content':'pick','components':[{'type':1,'components':[{'type':"
        "2,'style':1,'custom_id':'go','label':'Go'},{'type':2,'style':5,"
        "'url':'https://e.org','label':'Docs'}]},{'type':1,'components':[{"
        "'type':3,'custom_id':'pick','options':[{'label':'A','value':'a'},"
        "{'label':'B','value':'b'}]}]},{'type':1,'components':[{'type':5,"
        "'custom_id':'who','max_values':2}]}],'allowed_mentions':{'parse':"
        "[]}}"), 200, NULL);
    const char *mid = id_of(m);
    json_t *r = fake_inject_component(fp.port, mid, "pick", "[\"b\"]", false,
                                      "{\"user_id\":\"1100000000000000302\"}",
                                      &st);
    assert_int_equal(st, 200);
    json_t *ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    json_t *data = json_object_get(json_object_get(ev, "d"), "data");
    assert_int_equal(json_integer_value(json_object_get(data,
                                                        "component_type")),
                     3);
    assert_string_equal(json_string_value(json_array_get(json_object_get(
                            data, "values"), 0)), "b");
    assert_string_equal(id_of(json_object_get(json_object_get(ev, "d"),
                                              "message")), mid);
    json_t *who = json_object_get(json_object_get(json_object_get(ev, "d"),
                                                  "member"), "user");
    assert_string_equal(id_of(who), "1100000000000000302");
    json_decref(r);
    /* a user select: the users resolved */
    r = fake_inject_component(fp.port, mid, "who",
                              "[\"1100000000000000301\"]", false, NULL, &st);
    assert_int_equal(st, 200);
    ev = fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS);
    data = json_object_get(json_object_get(ev, "d"), "data");
    assert_int_equal(json_integer_value(json_object_get(data,
                                                        "component_type")),
                     5);
    assert_non_null(json_object_get(json_object_get(json_object_get(
        data, "resolved"), "users"), "1100000000000000301"));
    assert_non_null(json_object_get(json_object_get(json_object_get(
        data, "resolved"), "members"), "1100000000000000301"));
    json_decref(r);
    /* what no client sends: refused, unless forged */
    assert_null(fake_inject_component(fp.port, mid, "pick", "[\"z\"]", false,
                                      NULL, &st));
    assert_int_equal(st, 400);
    assert_null(fake_inject_component(fp.port, mid, "pick", "[\"a\",\"b\"]",
                                      false, NULL, &st));
    assert_int_equal(st, 400);
    assert_null(fake_inject_component(fp.port, mid, "ghost", NULL, false,
                                      NULL, &st));
    assert_int_equal(st, 400);
    assert_null(fake_inject_component(fp.port, mid, "go", "[\"a\"]", false,
                                      NULL, &st));
    assert_int_equal(st, 400);
    r = fake_inject_component(fp.port, mid, "ghost", NULL, true, NULL, &st);
    assert_int_equal(st, 200);
    json_decref(r);
    assert_non_null(fake_ws_expect(&w, 0, "INTERACTION_CREATE", WAIT_MS));
    /* a button the message no longer shows: a stale view still clicks */
    char path[160];
    snprintf(path, sizeof path, CHAN "/%s", mid);
    json_decref(expect(fp.port, "PATCH", path, q("{'components':[],"
                       "'allowed_mentions':{'parse':[]}}"), 200, NULL));
    r = fake_inject_component(fp.port, mid, "go", NULL, false, NULL, &st);
    assert_int_equal(st, 200);
    json_decref(r);
    /* a deleted message has no buttons */
    json_decref(expect(fp.port, "DELETE", path, NULL, 204, NULL));
    assert_null(fake_inject_component(fp.port, mid, "go", NULL, false,
                                      NULL, &st));
    assert_int_equal(st, 400);
    json_decref(m);
    done(&fp, &w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modal_rules),
        cmocka_unit_test(test_modal_only_first_answer),
        cmocka_unit_test(test_modal_submit_mirrors_modal),
        cmocka_unit_test(test_components_checked_against_message),
    };
    return cmocka_run_group_tests_name("fake_forms", tests, NULL, NULL);
}
