/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Object-list walkers shared by the fuzz targets; see fuzz_common.h. */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bthome_core.h"
#include "bthome_v1.h"

void fuzz_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
    abort();
}

/* Value text into a heap buffer of exactly `size` bytes, so that ASan sees any write
 * past it; true when the core produced text. */
static int format_into(const void *obj, const uint8_t *data, size_t size, int v1)
{
    char *buf = malloc(size);
    int ok;

    FUZZ_ASSERT(buf != NULL);
    ok = v1 ? bthome_v1_format_value(obj, data, buf, size)
            : bthome_format_value(obj, data, buf, size);
    if (ok)
        FUZZ_ASSERT(memchr(buf, '\0', size) != NULL);
    free(buf);
    return ok;
}

/* Full-size buffer (what the dissector uses) and a cramped one (truncation paths). */
static void format_both(const void *obj, const bthome_object_t *view, const uint8_t *data,
                        size_t len, int v1)
{
    char label[64];
    int full = format_into(obj, data, BTHOME_VALUE_TEXT_MAX, v1);

    format_into(obj, data, 1 + len % 24, v1);
    FUZZ_ASSERT(full == (view->status == BTHOME_OBJ_OK && view->def != NULL));
    bthome_format_label(view, label, sizeof label);
    FUZZ_ASSERT(memchr(label, '\0', sizeof label) != NULL);
}

/* What the dissector's tree code reads of a v2 object (packet-bthome.c add_object). */
static void check_v2_object(const bthome_object_t *o, size_t len)
{
    FUZZ_ASSERT(o->length >= 1 && o->offset + o->length <= len);
    if (o->status != BTHOME_OBJ_OK)
        return;
    FUZZ_ASSERT(o->def != NULL);
    FUZZ_ASSERT(o->value_offset > o->offset && o->value_offset <= o->offset + 2);
    FUZZ_ASSERT(o->value_offset + o->value_length == o->offset + o->length);
    if (o->def->kind == BTHOME_KIND_DIMMER)
        FUZZ_ASSERT(o->value_length == 2);
    if (o->def->kind == BTHOME_KIND_COMMAND)
        FUZZ_ASSERT(o->value_length >= 1 && o->value_offset == o->offset + 2);
}

void fuzz_v2_objects(const uint8_t *data, size_t len)
{
    bthome_parser_t parser;
    bthome_object_t obj;
    size_t end = 0;

    bthome_parser_init(&parser, data, len);
    while (bthome_parser_next(&parser, &obj)) {
        FUZZ_ASSERT(obj.offset == end);         /* objects tile the buffer */
        check_v2_object(&obj, len);
        format_both(&obj, &obj, data, len, 0);
        end = obj.offset + obj.length;
    }
}

/* What add_v1_object and add_bad_v1_object read of a v1 object. */
static void check_v1_object(const bthome_v1_object_t *o, size_t len)
{
    const bthome_object_t *v = &o->obj;

    FUZZ_ASSERT(o->length >= 1 && o->offset + o->length <= len);
    FUZZ_ASSERT(v->offset == o->offset + 1 && v->offset + v->length <= len);
    FUZZ_ASSERT(v->length + 1 <= o->length);
    if (o->status != BTHOME_V1_OK)
        return;
    FUZZ_ASSERT(v->def != NULL && v->length >= 1);
    FUZZ_ASSERT(v->value_offset == v->offset + 1);
    FUZZ_ASSERT(v->value_offset + v->value_length == v->offset + v->length);
}

void fuzz_v1_objects(const uint8_t *data, size_t len)
{
    bthome_v1_parser_t parser;
    bthome_v1_object_t o;
    size_t end = 0;

    bthome_v1_parser_init(&parser, data, len);
    while (bthome_v1_parser_next(&parser, &o)) {
        FUZZ_ASSERT(o.offset == end);
        check_v1_object(&o, len);
        format_both(&o, &o.obj, data, len, 1);
        end = o.offset + o.length;
    }
}
