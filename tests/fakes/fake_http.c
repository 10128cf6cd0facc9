/*
 * fake_http.c - the HTTP side of the one lws protocol: read a request (headers
 * in LWS_CALLBACK_HTTP, body in HTTP_BODY chunks), hand it to the control API
 * or the REST emulation, and write the prepared response from
 * LWS_CALLBACK_HTTP_WRITEABLE only, in chunks, optionally after a delay
 * scheduled with lws_sul (never by sleeping).
 */
#include "fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fake_meth_names[] = {
    [LWSHUMETH_GET] = "GET",         [LWSHUMETH_POST] = "POST",
    [LWSHUMETH_OPTIONS] = "OPTIONS", [LWSHUMETH_PUT] = "PUT",
    [LWSHUMETH_PATCH] = "PATCH",     [LWSHUMETH_DELETE] = "DELETE",
    [LWSHUMETH_CONNECT] = "CONNECT", [LWSHUMETH_HEAD] = "HEAD",
};

static void req_free(struct fake_http_req *r)
{
    if (r == NULL)
        return;
    if (r->srv)
        fake_att_forget(r->srv, r);
    lws_sul_cancel(&r->sul);
    free(r->body);
    free(r->resp);
    free(r);
}

void fake_add_header(struct fake_http_req *r, const char *name,
                     const char *value)
{
    for (int i = 0; i < r->nhdrs; i++)
        if (strcmp(r->hdrs[i].name, name) == 0) {
            snprintf(r->hdrs[i].value, sizeof r->hdrs[i].value, "%s", value);
            return;
        }
    if (r->nhdrs >= FAKE_MAX_RL_HEADERS)
        return;
    snprintf(r->hdrs[r->nhdrs].name, sizeof r->hdrs[0].name, "%s", name);
    snprintf(r->hdrs[r->nhdrs].value, sizeof r->hdrs[0].value, "%s", value);
    r->nhdrs++;
}

void fake_reply_json(struct fake_http_req *r, int status, json_t *body)
{
    free(r->resp);
    r->resp = NULL;
    r->resp_len = 0;
    r->status = status;
    if (body != NULL) {
        r->resp = fake_dump(body);
        r->resp_len = r->resp ? strlen(r->resp) : 0;
        json_decref(body);
    }
    r->ready = true;
}

void fake_reply_error(struct fake_http_req *r, int status, int code,
                      const char *message)
{
    fake_reply_json(r, status, json_pack("{s:s,s:i}", "message", message,
                                         "code", code));
}

json_t *fake_req_json(const struct fake_http_req *r)
{
    if (r->body == NULL || r->body_len == 0)
        return NULL;
    return json_loadb(r->body, r->body_len, JSON_DECODE_ANY, NULL);
}

const char *fake_query_arg(const struct fake_http_req *r, const char *name,
                           char *buf, size_t cap)
{
    size_t nl = strlen(name);
    const char *p = r->query;
    while (*p) {
        size_t n = strcspn(p, "&");
        if (n > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t vl = n - nl - 1;
            if (vl >= cap)
                vl = cap - 1;
            memcpy(buf, p + nl + 1, vl);
            buf[vl] = '\0';
            return buf;
        }
        p += n;
        if (*p == '&')
            p++;
    }
    return NULL;
}

static void copy_hdr(struct lws *wsi, char *dst, size_t cap,
                     enum lws_token_indexes h)
{
    if (lws_hdr_copy(wsi, dst, (int)cap, h) < 0)
        dst[0] = '\0';
}

static void copy_query(struct lws *wsi, char *dst, size_t cap)
{
    size_t used = 0;
    char frag[256];
    dst[0] = '\0';
    for (int i = 0; ; i++) {
        int n = lws_hdr_copy_fragment(wsi, frag, sizeof frag,
                                      WSI_TOKEN_HTTP_URI_ARGS, i);
        if (n <= 0)
            break;
        int w = snprintf(dst + used, cap - used, "%s%s", used ? "&" : "",
                         frag);
        if (w < 0 || (size_t)w >= cap - used)
            break;
        used += (size_t)w;
    }
}

static void dispatch(struct fake_server *s, struct fake_http_req *r)
{
    if (r->body_too_big)
        fake_reply_error(r, 413, 40005, "Request entity too large");
    else if (strncmp(r->path, FAKE_TEST_PREFIX, strlen(FAKE_TEST_PREFIX)) == 0)
        fake_control_handle(s, r);
    else if (fake_att_path(r->path))
        fake_att_serve(s, r);
    else
        fake_rest_handle(s, r);
    if (!r->ready)
        fake_reply_error(r, 500, 0, "500: Internal Server Error");
}

static void delay_done(lws_sorted_usec_list_t *sul)
{
    struct fake_http_req *r = lws_container_of(sul, struct fake_http_req,
                                               sul);
    r->delay_ms = 0;
    lws_callback_on_writable(r->wsi);
}

static int finish_request(struct fake_server *s, struct fake_http_req *r)
{
    dispatch(s, r);
    if (r->delay_ms > 0) {
        lws_set_timeout(r->wsi, NO_PENDING_TIMEOUT, 0);
        lws_sul_schedule(s->ctx, 0, &r->sul, delay_done,
                         (lws_usec_t)r->delay_ms * LWS_US_PER_MS);
    } else {
        lws_callback_on_writable(r->wsi);
    }
    return 0;
}

static int http_begin(struct fake_server *s, struct fake_pss *pss,
                      struct lws *wsi, const char *uri)
{
    req_free(pss->req);
    struct fake_http_req *r = calloc(1, sizeof *r);
    if (r == NULL)
        return -1;
    pss->req = r;
    r->srv = s;
    r->wsi = wsi;
    r->rec = -1;
    r->t_us = fake_now_us();
    char *u;
    int ulen;
    r->method = lws_http_get_uri_and_method(wsi, &u, &ulen);
    if (r->method >= 0 && r->method <= LWSHUMETH_HEAD)
        snprintf(r->meth, sizeof r->meth, "%s", fake_meth_names[r->method]);
    else
        snprintf(r->meth, sizeof r->meth, "?");
    snprintf(r->path, sizeof r->path, "%s", uri ? uri : "/");
    copy_query(wsi, r->query, sizeof r->query);
    copy_hdr(wsi, r->auth, sizeof r->auth, WSI_TOKEN_HTTP_AUTHORIZATION);
    copy_hdr(wsi, r->ua, sizeof r->ua, WSI_TOKEN_HTTP_USER_AGENT);
    copy_hdr(wsi, r->ctype, sizeof r->ctype, WSI_TOKEN_HTTP_CONTENT_TYPE);

    char cl[32];
    r->content_length = -1;
    if (lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0) {
        char *end;
        long long v = strtoll(cl, &end, 10);
        if (end != cl && v >= 0)
            r->content_length = v;
    }
    /* lws only delivers HTTP_BODY(_COMPLETION) for a declared body, and for a
     * POST with an explicit zero length; everything else completes now. */
    bool body = r->content_length > 0 ||
                (r->content_length == 0 && r->method == LWSHUMETH_POST);
    if (body)
        return 0;
    /* A POST/PUT/PATCH without Content-Length has no body (RFC 9112), but
     * lws 4.1.6 then waits for one and would swallow the next request on
     * the connection: answer, then close it. */
    r->close_after = r->content_length < 0 &&
                     (r->method == LWSHUMETH_POST ||
                      r->method == LWSHUMETH_PUT ||
                      r->method == LWSHUMETH_PATCH);
    return finish_request(s, r);
}

static int http_body(struct fake_http_req *r, const void *in, size_t len)
{
    if (r == NULL || r->body_too_big)
        return 0;
    if (r->body_len + len > FAKE_MAX_BODY) {
        r->body_too_big = true;
        return 0;
    }
    if (r->body_len + len + 1 > r->body_cap) {
        size_t cap = r->body_cap ? r->body_cap : 1024;
        while (cap < r->body_len + len + 1)
            cap *= 2;
        char *nb = realloc(r->body, cap);
        if (nb == NULL)
            return -1;
        r->body = nb;
        r->body_cap = cap;
    }
    if (len)
        memcpy(r->body + r->body_len, in, len);
    r->body_len += len;
    r->body[r->body_len] = '\0';
    return 0;
}

static int write_headers(struct fake_http_req *r)
{
    unsigned char buf[LWS_PRE + 2048];
    unsigned char *start = buf + LWS_PRE, *p = start,
                  *end = buf + sizeof buf - 1;
    if (lws_add_http_common_headers(r->wsi, (unsigned)r->status,
                                    r->resp_ctype[0] ? r->resp_ctype
                                    : r->resp       ? "application/json"
                                                    : NULL,
                                    r->resp_len, &p, end))
        return -1;
    for (int i = 0; i < r->nhdrs; i++) {
        char name[48];
        snprintf(name, sizeof name, "%s:", r->hdrs[i].name);
        if (lws_add_http_header_by_name(r->wsi, (const unsigned char *)name,
                                        (const unsigned char *)r->hdrs[i].value,
                                        (int)strlen(r->hdrs[i].value), &p, end))
            return -1;
    }
    if (r->close_after &&
        lws_add_http_header_by_name(r->wsi, (const unsigned char *)
                                    "connection:",
                                    (const unsigned char *)"close", 5, &p,
                                    end))
        return -1;
    if (lws_finalize_write_http_header(r->wsi, start, &p, end))
        return -1;
    r->hdr_sent = true;
    return 0;
}

static int http_write(struct fake_pss *pss)
{
    struct fake_http_req *r = pss->req;
    if (r == NULL || !r->ready || r->delay_ms > 0)
        return 0;
    if (!r->hdr_sent) {
        if (write_headers(r))
            return -1;
        if (r->resp_len > 0) {
            lws_callback_on_writable(r->wsi);
            return 0;
        }
    } else {
        size_t n = r->resp_len - r->resp_off;
        if (n > FAKE_WRITE_CHUNK)
            n = FAKE_WRITE_CHUNK;
        unsigned char buf[LWS_PRE + FAKE_WRITE_CHUNK];
        memcpy(buf + LWS_PRE, r->resp + r->resp_off, n);
        bool last = r->resp_off + n == r->resp_len;
        if (lws_write(r->wsi, buf + LWS_PRE, n,
                      last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
            return -1;
        r->resp_off += n;
        if (!last) {
            lws_callback_on_writable(r->wsi);
            return 0;
        }
    }
    struct lws *wsi = r->wsi;
    bool close_after = r->close_after;
    req_free(r);
    pss->req = NULL;
    if (close_after || lws_http_transaction_completed(wsi))
        return -1;
    return 0;
}

int fake_http_callback(struct lws *wsi, enum lws_callback_reasons reason,
                       void *user, void *in, size_t len)
{
    struct fake_pss *pss = user;
    struct fake_server *s = lws_context_user(lws_get_context(wsi));

    switch (reason) {
    case LWS_CALLBACK_HTTP:
        return http_begin(s, pss, wsi, in);
    case LWS_CALLBACK_HTTP_BODY:
        return http_body(pss->req, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (pss->req == NULL)
            return -1;
        return finish_request(s, pss->req);
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return http_write(pss);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (pss != NULL) {
            req_free(pss->req);
            pss->req = NULL;
        }
        return 0;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}
