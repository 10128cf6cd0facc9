/*
 * render_modal.h - a form (form.h) as Discord's modal callback (type 9):
 * Labels holding Text Inputs, String Selects, Checkboxes and File Uploads
 * (discord-interface-2026.md section 2.2). The form's strings are already
 * within Discord's limits (the builder's job); this only writes them.
 *
 * Ownership: the form is borrowed; results are the caller's.
 */
#ifndef RENDER_MODAL_H
#define RENDER_MODAL_H

#include <jansson.h>
#include <stddef.h>

#include "form.h"

#define RENDER_MODAL_CALLBACK 9          /* MODAL */

/* {"type": 9, "data": {custom_id, title, components}}; NULL on no memory. */
json_t *render_modal(const struct form *f);
/* The same as text (heap, *len its bytes); NULL on no memory. */
char *render_modal_text(const struct form *f, size_t *len);

#endif
