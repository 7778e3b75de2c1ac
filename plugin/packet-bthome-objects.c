/* packet-bthome-objects.c
 * BTHome object lists in the protocol tree: one item per object, v2 and v1 alike (a v1
 * object is shown through its v2 view), with its text for the Info column and the tap.
 * The objects' own fields are packet-bthome-object-fields.c, generated from the object
 * table (core/bthome_objects.h). The expert infos of what is wrong with an object are
 * registered here; packet-bthome.c uses two of them for the header.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/expert.h>
#include <wsutil/str_util.h>

#include "bthome_core.h"
#include "bthome_tap.h"
#include "bthome_tree.h"
#include "bthome_v1.h"
#include "packet-bthome-object-fields.h"
#include "packet-bthome-objects.h"

static int hf_bthome_object_id = -1;
static int hf_bthome_dimmer_steps = -1;
static int hf_bthome_command_length = -1;
static int hf_bthome_command_args = -1;
static int hf_bthome_command_steps = -1;
static int hf_bthome_v1_length = -1;
static int hf_bthome_v1_format = -1;

static int ett_bthome_object = -1;

static expert_field ei_bthome_truncated = EI_INIT;
static expert_field ei_bthome_reserved_bits = EI_INIT;
static expert_field ei_bthome_unknown_object = EI_INIT;
static expert_field ei_bthome_out_of_order = EI_INIT;
static expert_field ei_bthome_invalid_utf8 = EI_INIT;
static expert_field ei_bthome_bad_format = EI_INIT;

static const value_string v1_format_vals[] = {
    { BTHOME_V1_UINT, "uint" },
    { BTHOME_V1_INT, "int" },
    { BTHOME_V1_FLOAT, "float" },
    { BTHOME_V1_STRING, "string" },
    { BTHOME_V1_MAC, "mac" },
    { BTHOME_V1_TIMESTAMP, "timestamp" },
    { 0, NULL }
};

/* "Temperature", or "Temperature 2" for the second one of its field. */
static const char *object_label(const bthome_object_t *obj, char *buf, size_t size)
{
    if (obj->def && obj->ordinal <= 1)
        return obj->def->name;
    bthome_format_label(obj, buf, size);
    return buf;
}

/* The object's value item, labelled "Temperature 2: 25.06 °C". The field's type decides
 * how the value goes in: a scaled number is a double, an event or state its raw value. */
static proto_item *add_value(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int start,
                             const bthome_object_t *obj, const char *label, const char *text)
{
    int hf = bthome_object_field(obj->id);
    int len = (int)obj->length;
    int value_start = start + (int)(obj->value_offset - obj->offset);
    int value_len = (int)obj->value_length;
    proto_tree *tree = ctx->tree;

    switch (proto_registrar_get_ftype(hf)) {
    case FT_DOUBLE:
        return proto_tree_add_double_format(tree, hf, tvb, start, len, obj->value,
                                            "%s: %s", label, text);
    case FT_BOOLEAN:
        return proto_tree_add_boolean_format(tree, hf, tvb, start, len, obj->raw != 0,
                                             "%s: %s", label, text);
    case FT_INT64:
        return proto_tree_add_int64_format(tree, hf, tvb, start, len, obj->raw,
                                           "%s: %s", label, text);
    case FT_ABSOLUTE_TIME: {
        nstime_t ts = { (time_t)obj->raw, 0 };
        return proto_tree_add_time_format(tree, hf, tvb, start, len, &ts, "%s: %s", label,
                                          text);
    }
    case FT_INT8: case FT_INT16: case FT_INT24: case FT_INT32:
        return proto_tree_add_int_format(tree, hf, tvb, start, len, (int32_t)obj->raw,
                                         "%s: %s", label, text);
    case FT_STRING:
        /* a text object keeps Wireshark's own UTF-8 reading; a firmware version is its
         * dotted text */
        return proto_tree_add_string_format(tree, hf, tvb, start, len,
            obj->def->kind == BTHOME_KIND_TEXT
                ? (const char *)tvb_get_string_enc(ctx->pinfo->pool, tvb, value_start,
                                                   value_len, ENC_UTF_8)
                : text, "%s: %s", label, text);
    case FT_BYTES:
        return proto_tree_add_bytes_format(tree, hf, tvb, value_start, value_len, NULL,
                                           "%s: %s", label, value_len ? text : "<empty>");
    default:
        return proto_tree_add_uint_format(tree, hf, tvb, start, len, (uint32_t)obj->raw,
                                          "%s: %s", label, text);
    }
}

/* The parts of a dimmer or command object that have fields of their own. */
static void add_event_details(proto_tree *tree, tvbuff_t *tvb, int start,
                              const bthome_object_t *obj)
{
    int value_start = start + (int)(obj->value_offset - obj->offset);

    if (obj->def->kind == BTHOME_KIND_DIMMER) {
        proto_tree_add_item(tree, hf_bthome_dimmer_steps, tvb, value_start + 1, 1, ENC_NA);
    } else if (obj->def->kind == BTHOME_KIND_COMMAND) {
        proto_tree_add_item(tree, hf_bthome_command_length, tvb, value_start - 1, 1, ENC_NA);
        if (obj->value_length > 1)
            proto_tree_add_item(tree, hf_bthome_command_args, tvb, value_start + 1,
                                (int)obj->value_length - 1, ENC_NA);
        if (obj->has_steps)
            proto_tree_add_item(tree, hf_bthome_command_steps, tvb, value_start + 1, 1,
                                ENC_NA);
    }
}

/* Whether anything looks at the object's items (bthome_wanted). */
static bool object_wanted(proto_tree *tree, const bthome_object_t *obj)
{
    if (bthome_wanted(tree, bthome_object_field(obj->id)) ||
        bthome_wanted(tree, hf_bthome_object_id))
        return true;
    if (obj->def->kind == BTHOME_KIND_DIMMER)
        return bthome_wanted(tree, hf_bthome_dimmer_steps);
    return obj->def->kind == BTHOME_KIND_COMMAND &&
           (bthome_wanted(tree, hf_bthome_command_length) ||
            bthome_wanted(tree, hf_bthome_command_args) ||
            bthome_wanted(tree, hf_bthome_command_steps));
}

/* A decoded object (v2, or the v2 view of a v1 object) whose ID byte is at start: its
 * value item with the ID beneath, and what the spec says is wrong with it. Returns the
 * item's subtree, NULL when nothing looks at its items. */
static proto_tree *add_decoded_object(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int start,
                                      const bthome_object_t *obj, const char *label,
                                      const char *text, int prev_id)
{
    proto_item *item = ctx->item;
    proto_tree *sub = NULL;

    if (object_wanted(ctx->tree, obj)) {
        item = add_value(ctx, tvb, start, obj, label, text);
        sub = proto_item_add_subtree(item, ett_bthome_object);
        if (bthome_wanted(ctx->tree, hf_bthome_object_id))
            proto_tree_add_item(sub, hf_bthome_object_id, tvb, start, 1, ENC_NA);
        add_event_details(sub, tvb, start, obj);
    }
    if (obj->out_of_order)
        expert_add_info_format(ctx->pinfo, item, &ei_bthome_out_of_order,
                               "Object ID 0x%02x follows 0x%02x: IDs should be ascending",
                               obj->id, prev_id);
    if (obj->invalid_utf8)
        expert_add_info(ctx->pinfo, item, &ei_bthome_invalid_utf8);
    if (obj->reserved_bits)
        expert_add_info_format(ctx->pinfo, item, &ei_bthome_reserved_bits,
                               "Command length byte has reserved bits 5-7 set");
    return sub;
}

/* ", Temperature 25.06 °C" on the Info column (no comma for the first). */
static void add_summary(bthome_objects_ctx_t *ctx, const char *label, const char *text)
{
    if (ctx->listed++)
        bthome_summary_append(ctx->summary, ", ");
    bthome_summary_append(ctx->summary, label);
    bthome_summary_append(ctx->summary, " ");
    bthome_summary_append(ctx->summary, text);
}

/* ", [unknown object 0x12]": an object that did not decode. */
static void add_summary_note(bthome_objects_ctx_t *ctx, const char *note)
{
    if (ctx->listed++)
        bthome_summary_append(ctx->summary, ", ");
    bthome_summary_append(ctx->summary, note);
}

static void add_reading(bthome_objects_ctx_t *ctx, const bthome_object_t *obj,
                        const char *label, const char *text)
{
    bthome_reading_t reading;

    if (!ctx->readings)
        return;
    reading.def = obj->def;
    reading.label = wmem_strdup(ctx->pinfo->pool, label);
    reading.value = obj->def->kind == BTHOME_KIND_NUMBER ? obj->value : (double)obj->raw;
    reading.text = wmem_strdup(ctx->pinfo->pool, text);
    wmem_array_append_one(ctx->readings, reading);
}

/* An object that did not decode: an unknown ID stops parsing, a truncated one ends the
 * list. */
static void add_bad_object(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int start,
                           const bthome_object_t *obj, const char *label)
{
    unsigned avail = (unsigned)obj->length - 1;
    proto_item *item;
    proto_tree *sub;

    if (obj->status == BTHOME_OBJ_UNKNOWN) {
        proto_tree_add_item(ctx->tree, hf_bthome_object_id, tvb, start, 1, ENC_NA);
        proto_tree_add_expert_format(ctx->tree, ctx->pinfo, &ei_bthome_unknown_object, tvb,
            start, (int)obj->length,
            "Unknown object ID 0x%02x: parsing stopped, %u byte%s undecoded",
            obj->id, avail, plurality(avail, "", "s"));
        add_summary_note(ctx, wmem_strdup_printf(ctx->pinfo->pool, "[unknown object 0x%02x]",
                                                 obj->id));
        return;
    }
    sub = proto_tree_add_subtree_format(ctx->tree, tvb, start, (int)obj->length,
                                        ett_bthome_object, &item, "%s: [truncated]", label);
    proto_tree_add_item(sub, hf_bthome_object_id, tvb, start, 1, ENC_NA);
    if (obj->status == BTHOME_OBJ_LENGTH_OVERRUN)
        expert_add_info_format(ctx->pinfo, item, &ei_bthome_truncated,
            "%s: length says %u value bytes, only %u remain", label,
            (unsigned)obj->value_length,
            (unsigned)(obj->length - (obj->value_offset - obj->offset)));
    else if (obj->def->length == 0)
        expert_add_info_format(ctx->pinfo, item, &ei_bthome_truncated,
            "%s: its length byte is missing", label);
    else
        expert_add_info_format(ctx->pinfo, item, &ei_bthome_truncated,
            "%s: needs %u value bytes, only %u remain", label, obj->def->length, avail);
    add_summary_note(ctx, wmem_strdup_printf(ctx->pinfo->pool, "[%s truncated]", label));
}

static int add_v2_objects(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                          const uint8_t *data, size_t len)
{
    bthome_parser_t parser;
    bthome_object_t obj;
    int prev_id = -1, packet_id = -1;

    bthome_parser_init(&parser, data, len);
    while (bthome_parser_next(&parser, &obj)) {
        char label_buf[64], text[BTHOME_VALUE_TEXT_MAX];
        const char *label = object_label(&obj, label_buf, sizeof label_buf);
        int start = offset + (int)obj.offset;
        bool cut = obj.status == BTHOME_OBJ_TRUNCATED ||
                   obj.status == BTHOME_OBJ_LENGTH_OVERRUN;

        if (cut && ctx->cut)
            break;      /* the capture's end, not the device's error */
        if (obj.status != BTHOME_OBJ_OK) {
            add_bad_object(ctx, tvb, start, &obj, label);
            break;
        }
        bthome_format_value(&obj, data, text, sizeof text);
        add_decoded_object(ctx, tvb, start, &obj, label, text, prev_id);
        add_summary(ctx, label, text);
        add_reading(ctx, &obj, label, text);
        if (obj.id == BTHOME_OBJECT_PACKET_ID && packet_id < 0)
            packet_id = (int)obj.raw;
        prev_id = obj.id;
    }
    return packet_id;
}

/* ---- v1: control byte, object ID, value -------------------------------------------- */

static void add_v1_control(proto_tree *tree, tvbuff_t *tvb, int start)
{
    proto_tree_add_item(tree, hf_bthome_v1_length, tvb, start, 1, ENC_NA);
    proto_tree_add_item(tree, hf_bthome_v1_format, tvb, start, 1, ENC_NA);
}

/* Why a v1 object did not decode, for its expert info. */
static const char *v1_problem(packet_info *pinfo, const bthome_v1_object_t *o,
                              const char *label, expert_field **ei)
{
    const char *format = bthome_v1_format_name(o->format);
    unsigned value_len = o->declared_length ? o->declared_length - 1u : 0;

    *ei = &ei_bthome_bad_format;
    switch (o->status) {
    case BTHOME_V1_TRUNCATED:
        *ei = &ei_bthome_truncated;
        return wmem_strdup_printf(pinfo->pool,
            "%s: control byte says %u bytes after it, only %u remain", label,
            o->declared_length, (unsigned)o->length - 1);
    case BTHOME_V1_ZERO_LENGTH:
        return wmem_strdup_printf(pinfo->pool,
            "Control byte 0x%02x gives length 0 (no object ID): parsing stopped", o->control);
    case BTHOME_V1_UNKNOWN_ID:
        *ei = &ei_bthome_unknown_object;
        return wmem_strdup_printf(pinfo->pool,
            "Unknown object ID 0x%02x: skipped, %u value byte%s undecoded", o->obj.id,
            value_len, plurality(value_len, "", "s"));
    case BTHOME_V1_BAD_FORMAT:
        return format
            ? wmem_strdup_printf(pinfo->pool, "%s cannot come in the v1 format %s", label, format)
            : wmem_strdup_printf(pinfo->pool, "%s: unknown v1 format %u", label, o->format);
    case BTHOME_V1_BAD_SIZE:
        return wmem_strdup_printf(pinfo->pool, "%s: %u value bytes do not fit the v1 format %s%s",
            label, value_len, format,
            o->format == BTHOME_V1_FLOAT ? " (2, 4 or 8 bytes)" : "");
    case BTHOME_V1_OUT_OF_RANGE:
        return wmem_strdup_printf(pinfo->pool, "%s: %u-byte integer out of range", label,
                                  value_len);
    default:    /* decoded, but wider than the field's type */
        return wmem_strdup_printf(pinfo->pool,
            "%s: value does not fit the type of its field (v1 %s of %u bytes)", label,
            format, value_len);
    }
}

/* A v1 object that did not decode, or does not fit its field: shown undecoded. */
static void add_bad_v1_object(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int start,
                              const bthome_v1_object_t *o, const char *label)
{
    const char *status = o->status == BTHOME_V1_OK ? "out of range"
                                                   : bthome_v1_status_name(o->status);
    expert_field *ei;
    const char *problem = v1_problem(ctx->pinfo, o, label, &ei);
    proto_item *item;
    proto_tree *sub = proto_tree_add_subtree_format(ctx->tree, tvb, start, (int)o->length,
        ett_bthome_object, &item, "%s: [%s]", label, status);

    add_v1_control(sub, tvb, start);
    if (o->length > 1)
        proto_tree_add_item(sub, hf_bthome_object_id, tvb, start + 1, 1, ENC_NA);
    expert_add_info_format(ctx->pinfo, item, ei, "%s", problem);
    add_summary_note(ctx, wmem_strdup_printf(ctx->pinfo->pool, "[%s %s]", label, status));
}

static void add_v1_object(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                          const bthome_v1_object_t *o, const uint8_t *data)
{
    int start = offset + (int)o->offset;
    char label[64], text[BTHOME_VALUE_TEXT_MAX];
    proto_tree *sub;

    if (o->obj.def)
        bthome_format_label(&o->obj, label, sizeof label);
    else
        snprintf(label, sizeof label, "Object 0x%02x", o->obj.id);
    /* a v1 width may exceed what the field's integer type holds; doubles hold it all */
    if (o->status != BTHOME_V1_OK || !o->obj.def ||
        (o->exceeds_type && proto_registrar_get_ftype(bthome_object_field(o->obj.id)) != FT_DOUBLE)) {
        add_bad_v1_object(ctx, tvb, start, o, label);
        return;
    }
    bthome_v1_format_value(o, data, text, sizeof text);
    sub = add_decoded_object(ctx, tvb, start + 1, &o->obj, label, text, -1);
    /* a filter may name the control byte's fields alone */
    if (sub || bthome_wanted(ctx->tree, hf_bthome_v1_length) ||
        bthome_wanted(ctx->tree, hf_bthome_v1_format))
        add_v1_control(sub ? sub : ctx->tree, tvb, start);
    add_summary(ctx, label, text);
    add_reading(ctx, &o->obj, label, text);
}

static int add_v1_objects(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                          const uint8_t *data, size_t len)
{
    bthome_v1_parser_t parser;
    bthome_v1_object_t o;
    int packet_id = -1;

    bthome_v1_parser_init(&parser, data, len);
    while (bthome_v1_parser_next(&parser, &o)) {
        if (ctx->cut && o.status == BTHOME_V1_TRUNCATED)
            break;
        add_v1_object(ctx, tvb, offset, &o, data);
        if (o.status == BTHOME_V1_OK && o.obj.id == BTHOME_OBJECT_PACKET_ID && packet_id < 0)
            packet_id = (int)o.obj.raw;
    }
    return packet_id;
}

int bthome_add_objects(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                       const uint8_t *data, unsigned version)
{
    int len = tvb_captured_length_remaining(tvb, offset);

    if (len <= 0) {
        /* an empty list is no error: nothing runs past the end */
        if (!ctx->cut)
            bthome_summary_append(ctx->summary, "[no objects]");
        return -1;
    }
    return version == 1 ? add_v1_objects(ctx, tvb, offset, data, (size_t)len)
                        : add_v2_objects(ctx, tvb, offset, data, (size_t)len);
}

void bthome_expert_truncated(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, int start,
                             int len, const char *text)
{
    proto_tree_add_expert_format(tree, pinfo, &ei_bthome_truncated, tvb, start, len, "%s",
                                 text);
}

void bthome_expert_reserved_bits(packet_info *pinfo, proto_item *item, const char *text)
{
    expert_add_info_format(pinfo, item, &ei_bthome_reserved_bits, "%s", text);
}

void bthome_register_objects(int proto)
{
    static hf_register_info hf[] = {
        { &hf_bthome_object_id,
          { "Object ID", "bthome.object_id", FT_UINT8, BASE_HEX, VALS(bthome_object_id_vals),
            0x0, NULL, HFILL } },
        { &hf_bthome_dimmer_steps,
          { "Steps", "bthome.dimmer.steps", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Dimmer steps", HFILL } },
        { &hf_bthome_command_length,
          { "Argument length", "bthome.command.length", FT_UINT8, BASE_DEC, NULL, 0x1F,
            NULL, HFILL } },
        { &hf_bthome_command_args,
          { "Arguments", "bthome.command.args", FT_BYTES, BASE_NONE, NULL, 0x0,
            NULL, HFILL } },
        { &hf_bthome_command_steps,
          { "Steps", "bthome.command.steps", FT_UINT8, BASE_DEC, NULL, 0x0,
            "Step up / step down steps", HFILL } },
        { &hf_bthome_v1_length,
          { "Length", "bthome.v1.length", FT_UINT8, BASE_DEC, NULL, BTHOME_V1_LENGTH_MASK,
            "v1 control byte: object length, ID byte included", HFILL } },
        { &hf_bthome_v1_format,
          { "Format", "bthome.v1.format", FT_UINT8, BASE_DEC, VALS(v1_format_vals), 0xE0,
            "v1 control byte: value format", HFILL } },
    };
    static int *ett[] = { &ett_bthome_object };
    static ei_register_info ei[] = {
        { &ei_bthome_truncated, { "bthome.expert.truncated", PI_MALFORMED, PI_ERROR,
            "Object runs past the end of the data", EXPFILL } },
        { &ei_bthome_unknown_object, { "bthome.expert.unknown_object", PI_UNDECODED, PI_WARN,
            "Unknown object ID: parsing stopped, rest undecoded", EXPFILL } },
        { &ei_bthome_out_of_order, { "bthome.expert.out_of_order", PI_PROTOCOL, PI_WARN,
            "Object ID lower than the previous one", EXPFILL } },
        { &ei_bthome_reserved_bits, { "bthome.expert.reserved_bits", PI_PROTOCOL, PI_WARN,
            "Reserved bits set", EXPFILL } },
        { &ei_bthome_invalid_utf8, { "bthome.expert.invalid_utf8", PI_PROTOCOL, PI_WARN,
            "Text object is not valid UTF-8", EXPFILL } },
        { &ei_bthome_bad_format, { "bthome.expert.bad_format", PI_MALFORMED, PI_WARN,
            "v1 object: format or size its object cannot take", EXPFILL } },
    };

    proto_register_field_array(proto, hf, array_length(hf));
    bthome_register_object_fields(proto);
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto), ei, array_length(ei));
}
