/* packet-bthome.c
 * Wireshark dissector for BTHome, the open BLE advertisement format for sensors
 * (service data UUID 0xFCD2).
 *
 * The format itself (object table, parsing, value text) lives in the Wireshark-free
 * core, bthome_core.c; this file only registers fields and builds the tree.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_BUILD_DLL
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/unit_strings.h>
#include <epan/dissectors/packet-bluetooth.h>

#include "bthome_core.h"
#include "bthome_objects.h"
#include "ws_compat.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);
#if WSC_AT_LEAST(4, 4)
#include <wsutil/plugins.h>
WS_DLL_PUBLIC uint32_t plugin_describe(void);
#endif

#define AD_TYPE_SERVICE_DATA_16 0x16
#define AD_SERVICE_DATA_HEADER  3   /* AD type + 16-bit UUID, counted by the AD length */

static int proto_bthome = -1;

static int hf_version = -1;
static int hf_info = -1;
static int hf_info_encrypted = -1;
static int hf_info_mac_included = -1;
static int hf_info_trigger_based = -1;
static int hf_info_reserved = -1;
static int hf_info_version = -1;
static int hf_mac = -1;
static int hf_encrypted = -1;
static int hf_object_id = -1;
static int hf_dimmer_steps = -1;
static int hf_command_length = -1;
static int hf_command_args = -1;
static int hf_command_steps = -1;

/* One filter field per distinct "field" of the object table, filled at registration. */
#define MAX_TABLE_FIELDS 96
static int hf_table[MAX_TABLE_FIELDS];
static enum ftenum table_field_type[MAX_TABLE_FIELDS];
static int table_field_of_id[256];

static int ett_bthome = -1;
static int ett_info = -1;
static int ett_object = -1;

static expert_field ei_truncated = EI_INIT;
static expert_field ei_unknown_object = EI_INIT;
static expert_field ei_out_of_order = EI_INIT;
static expert_field ei_bad_version = EI_INIT;
static expert_field ei_reserved_bits = EI_INIT;
static expert_field ei_invalid_utf8 = EI_INIT;
static expert_field ei_too_short = EI_INIT;

/* btcommon's AD type field, which the postdissector walks (see dissect_bthome_post). */
static int hf_eir_ad_type = -1;

static int * const info_bits[] = {
    &hf_info_version,
    &hf_info_reserved,
    &hf_info_trigger_based,
    &hf_info_mac_included,
    &hf_info_encrypted,
    NULL
};

/* ---- Tree building ------------------------------------------------------------ */

static proto_item *add_table_value(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                                   int start, const bthome_object_t *obj,
                                   const char *label, const char *text)
{
    int hf = hf_table[table_field_of_id[obj->id]];
    int len = (int)obj->length;
    int value_start = start + (int)(obj->value_offset - obj->offset);
    int value_len = (int)obj->value_length;

    switch (table_field_type[table_field_of_id[obj->id]]) {
    case FT_DOUBLE:
        return proto_tree_add_double_format(tree, hf, tvb, start, len, obj->value,
                                            "%s: %s", label, text);
    case FT_BOOLEAN:
        return proto_tree_add_boolean_format(tree, hf, tvb, start, len, obj->raw != 0,
                                             "%s: %s", label, text);
    case FT_INT8: case FT_INT16: case FT_INT24: case FT_INT32:
        return proto_tree_add_int_format(tree, hf, tvb, start, len, (int32_t)obj->raw,
                                         "%s: %s", label, text);
    case FT_INT64:
        return proto_tree_add_int64_format(tree, hf, tvb, start, len, obj->raw,
                                           "%s: %s", label, text);
    case FT_ABSOLUTE_TIME: {
        nstime_t ts = { (time_t)obj->raw, 0 };
        return proto_tree_add_time_format(tree, hf, tvb, start, len, &ts,
                                          "%s: %s", label, text);
    }
    case FT_STRING: {
        /* text keeps Wireshark's own UTF-8 reading; firmware is the dotted form */
        const char *value = obj->def->kind == BTHOME_KIND_TEXT
            ? (const char *)tvb_get_string_enc(pinfo->pool, tvb, value_start, value_len,
                                               ENC_UTF_8)
            : text;
        return proto_tree_add_string_format(tree, hf, tvb, start, len, value,
                                            "%s: %s", label, text);
    }
    case FT_BYTES: {
        proto_item *item = proto_tree_add_bytes_with_length(tree, hf, tvb, start, len,
            value_len ? tvb_get_ptr(tvb, value_start, value_len) : NULL, value_len);
        proto_item_set_text(item, "%s: %s", label, value_len ? text : "<empty>");
        return item;
    }
    default:
        return proto_tree_add_uint_format(tree, hf, tvb, start, len, (uint32_t)obj->raw,
                                          "%s: %s", label, text);
    }
}

/* The parts of an event object that have fields of their own. */
static void add_event_details(proto_tree *tree, tvbuff_t *tvb, int start,
                              const bthome_object_t *obj)
{
    int value_start = start + (int)(obj->value_offset - obj->offset);

    if (obj->def->kind == BTHOME_KIND_DIMMER) {
        proto_tree_add_item(tree, hf_dimmer_steps, tvb, value_start + 1, 1, ENC_NA);
        return;
    }
    proto_tree_add_item(tree, hf_command_length, tvb, value_start - 1, 1, ENC_NA);
    if (obj->value_length > 1)
        proto_tree_add_item(tree, hf_command_args, tvb, value_start + 1,
                            (int)obj->value_length - 1, ENC_NA);
    if (obj->has_steps)
        proto_tree_add_item(tree, hf_command_steps, tvb, value_start + 1, 1, ENC_NA);
}

static void add_object_problems(packet_info *pinfo, proto_item *item,
                                const bthome_object_t *obj, int prev_id)
{
    if (obj->out_of_order)
        expert_add_info_format(pinfo, item, &ei_out_of_order,
                               "Object ID 0x%02x follows 0x%02x: IDs should be ascending",
                               obj->id, prev_id);
    if (obj->invalid_utf8)
        expert_add_info(pinfo, item, &ei_invalid_utf8);
    if (obj->reserved_bits)
        expert_add_info_format(pinfo, item, &ei_reserved_bits,
                               "Command length byte has reserved bits 5-7 set");
}

static void add_bad_object(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, int start,
                           const bthome_object_t *obj, const char *label)
{
    proto_item *item;
    proto_tree *sub;
    unsigned avail = (unsigned)obj->length - 1;

    if (obj->status == BTHOME_OBJ_UNKNOWN) {
        item = proto_tree_add_item(tree, hf_object_id, tvb, start, 1, ENC_NA);
        proto_tree_add_expert_format(tree, pinfo, &ei_unknown_object, tvb, start,
            (int)obj->length, "Unknown object ID 0x%02x: parsing stopped, %u byte%s undecoded",
            obj->id, avail, avail == 1 ? "" : "s");
        return;
    }
    sub = proto_tree_add_subtree_format(tree, tvb, start, (int)obj->length, ett_object,
                                        &item, "%s: [truncated]", label);
    proto_tree_add_item(sub, hf_object_id, tvb, start, 1, ENC_NA);
    if (obj->status == BTHOME_OBJ_LENGTH_OVERRUN)
        expert_add_info_format(pinfo, item, &ei_truncated,
            "%s: length says %u value bytes, only %u remain", label,
            (unsigned)obj->value_length,
            (unsigned)(obj->length - (obj->value_offset - obj->offset)));
    else if (obj->def->length == 0)
        expert_add_info_format(pinfo, item, &ei_truncated,
            "%s: its length byte is missing", label);
    else
        expert_add_info_format(pinfo, item, &ei_truncated,
            "%s: needs %u value bytes, only %u remain", label, obj->def->length, avail);
}

/* Adds one object; returns its text for the Info column. */
static const char *add_object(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                              int start, const bthome_object_t *obj, const uint8_t *body,
                              int prev_id)
{
    char label[64];
    char text[BTHOME_VALUE_TEXT_MAX];
    proto_item *item;

    bthome_format_label(obj, label, sizeof label);
    if (obj->status != BTHOME_OBJ_OK) {
        add_bad_object(tree, pinfo, tvb, start, obj, label);
        return obj->status == BTHOME_OBJ_UNKNOWN
            ? wmem_strdup_printf(pinfo->pool, "[unknown object 0x%02x]", obj->id)
            : wmem_strdup_printf(pinfo->pool, "[%s truncated]", label);
    }
    bthome_format_value(obj, body, text, sizeof text);
    item = add_table_value(tree, pinfo, tvb, start, obj, label, text);
    proto_tree *sub = proto_item_add_subtree(item, ett_object);
    proto_tree_add_item(sub, hf_object_id, tvb, start, 1, ENC_NA);
    if (obj->def->kind == BTHOME_KIND_DIMMER || obj->def->kind == BTHOME_KIND_COMMAND)
        add_event_details(sub, tvb, start, obj);
    add_object_problems(pinfo, item, obj, prev_id);
    return wmem_strdup_printf(pinfo->pool, "%s %s", label, text);
}

static void add_objects(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, int body_start,
                        wmem_strbuf_t *summary)
{
    int len = tvb_captured_length_remaining(tvb, body_start);
    const uint8_t *body = tvb_get_ptr(tvb, body_start, len);
    bthome_parser_t parser;
    bthome_object_t obj;
    int prev_id = -1;

    bthome_parser_init(&parser, body, (size_t)len);
    while (bthome_parser_next(&parser, &obj)) {
        const char *text = add_object(tree, pinfo, tvb, body_start + (int)obj.offset, &obj,
                                      body, prev_id);
        wmem_strbuf_append_printf(summary, "%s%s",
                                  wmem_strbuf_get_len(summary) ? ", " : "", text);
        prev_id = obj.id;
    }
}

static void add_header(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                       const bthome_v2_header_t *hdr, bthome_header_status_t status)
{
    proto_item *item;

    item = proto_tree_add_uint(tree, hf_version, tvb, 0, 1, hdr->version);
    proto_item_set_generated(item);
    item = proto_tree_add_boolean(tree, hf_encrypted, tvb, 0, 1, hdr->encrypted);
    proto_item_set_generated(item);
    item = proto_tree_add_bitmask(tree, tvb, 0, hf_info, ett_info, info_bits, ENC_NA);
    if (hdr->version != 2)
        expert_add_info_format(pinfo, item, &ei_bad_version,
            "Version bits say %u, not 2: decoded as v2 anyway", hdr->version);
    if (hdr->reserved)
        expert_add_info_format(pinfo, item, &ei_reserved_bits,
            "Reserved device information bits 3-4 set (0x%02x)", hdr->info & BTHOME_INFO_RESERVED);
    if (hdr->has_mac)
        proto_tree_add_ether(tree, hf_mac, tvb, (int)hdr->mac_offset, BTHOME_MAC_LEN, hdr->mac);
    else if (status == BTHOME_HEADER_MAC_CUT)
        proto_tree_add_expert_format(tree, pinfo, &ei_truncated, tvb, 1,
            (int)tvb_captured_length(tvb) - 1,
            "Info bit 1 announces a 6-byte MAC, only %u bytes follow",
            tvb_captured_length(tvb) - 1);
}

/* What follows the header: objects, or the encrypted payload. */
static void add_body(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                     const bthome_v2_header_t *hdr, bthome_header_status_t status,
                     wmem_strbuf_t *summary)
{
    unsigned body = tvb_captured_length(tvb) - (unsigned)hdr->body_offset;

    if (status == BTHOME_HEADER_MAC_CUT) {
        wmem_strbuf_append(summary, "[MAC truncated]");
    } else if (hdr->encrypted) {
        /* ciphertext | counter (4) | MIC (4) */
        if (body < 8)
            proto_tree_add_expert_format(tree, pinfo, &ei_too_short, tvb,
                (int)hdr->body_offset, (int)body,
                "Encrypted payload of %u bytes is shorter than counter + MIC (8)", body);
        wmem_strbuf_append(summary, "[encrypted]");
    } else if (body == 0) {
        proto_tree_add_expert_format(tree, pinfo, &ei_truncated, tvb, 0, -1,
            "No objects after the device information byte");
        wmem_strbuf_append(summary, "[no objects]");
    } else {
        add_objects(tree, pinfo, tvb, (int)hdr->body_offset, summary);
    }
}

/* Several BTHome service data in one frame (HCI reports): keep every summary. */
static void add_info_summary(packet_info *pinfo, const char *summary)
{
    col_set_str(pinfo->cinfo, COL_PROTOCOL, "BTHome");
    if (!p_get_proto_data(pinfo->pool, pinfo, proto_bthome, 0)) {
        col_clear(pinfo->cinfo, COL_INFO);
        p_add_proto_data(pinfo->pool, pinfo, proto_bthome, 0, GINT_TO_POINTER(1));
    }
    col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", summary);
}

/* Dissects v2 service data (the bytes after the UUID). */
static int dissect_bthome_v2(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree)
{
    unsigned len = tvb_captured_length(tvb);
    bthome_v2_header_t hdr;
    bthome_header_status_t status = bthome_parse_v2_header(tvb_get_ptr(tvb, 0, len), len, &hdr);
    wmem_strbuf_t *summary = wmem_strbuf_new(pinfo->pool, "");
    proto_item *ti = proto_tree_add_item(tree, proto_bthome, tvb, 0, -1, ENC_NA);
    proto_tree *bt = proto_item_add_subtree(ti, ett_bthome);

    proto_item_set_text(ti, "BTHome v2");
    if (status == BTHOME_HEADER_EMPTY) {
        proto_tree_add_expert_format(bt, pinfo, &ei_truncated, tvb, 0, 0,
            "Empty service data: no device information byte");
        wmem_strbuf_append(summary, "[empty]");
    } else {
        add_header(bt, pinfo, tvb, &hdr, status);
        add_body(bt, pinfo, tvb, &hdr, status, summary);
    }
    add_info_summary(pinfo, wmem_strbuf_get_str(summary));
    return (int)len;
}

/* Wireshark 4.2+: btcommon hands over the service data of UUID 0xFCD2. */
static int dissect_bthome_service_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                       void *data _U_)
{
    return dissect_bthome_v2(tvb, pinfo, tree);
}

/* Wireshark 4.0 has no service-data table: find every AD structure "len 16 d2 fc ..."
 * that btcommon dissected and decode its service data. 4.2+ has the table but does not
 * consult it for empty service data, so there this only reports those. */
static bool service_data_table_hooked;

static int dissect_bthome_post(tvbuff_t *tvb _U_, packet_info *pinfo, proto_tree *tree,
                               void *data _U_)
{
    GPtrArray *types = proto_get_finfo_ptr_array(tree, hf_eir_ad_type);

    for (unsigned i = 0; types && i < types->len; i++) {
        field_info *fi = (field_info *)g_ptr_array_index(types, i);
        tvbuff_t *ds = fi->ds_tvb;
        int start = fi->start;
        int avail;
        unsigned ad_len;

        if (start < 1 || tvb_captured_length_remaining(ds, start) < AD_SERVICE_DATA_HEADER ||
            tvb_get_uint8(ds, start) != AD_TYPE_SERVICE_DATA_16 ||
            tvb_get_letohs(ds, start + 1) != BTHOME_UUID_V2)
            continue;
        ad_len = tvb_get_uint8(ds, start - 1);
        if (ad_len < AD_SERVICE_DATA_HEADER ||
            (service_data_table_hooked && ad_len != AD_SERVICE_DATA_HEADER))
            continue;
        avail = tvb_captured_length_remaining(ds, start + AD_SERVICE_DATA_HEADER);
        if (avail > (int)ad_len - AD_SERVICE_DATA_HEADER)
            avail = (int)ad_len - AD_SERVICE_DATA_HEADER;
        dissect_bthome_v2(tvb_new_subset_length(ds, start + AD_SERVICE_DATA_HEADER, avail),
                          pinfo, tree);
    }
    return 0;
}

/* ---- Registration --------------------------------------------------------------- */

/* Narrowest integer type holding every row of a field. */
static enum ftenum integer_type(int64_t min, int64_t max)
{
    if (min >= 0)
        return max <= 0xFF ? FT_UINT8 : max <= 0xFFFF ? FT_UINT16 :
               max <= 0xFFFFFF ? FT_UINT24 : FT_UINT32;
    return (min >= INT8_MIN && max <= INT8_MAX) ? FT_INT8 :
           (min >= INT16_MIN && max <= INT16_MAX) ? FT_INT16 :
           (min >= -0x800000 && max <= 0x7FFFFF) ? FT_INT24 :
           (min >= INT32_MIN && max <= INT32_MAX) ? FT_INT32 : FT_INT64;
}

static const value_string *words_to_vals(const char *words)
{
    const char *cursor = words;
    int64_t index = 0;
    bthome_word_t w;
    size_t n = 0;
    value_string *vals = g_new0(value_string, strlen(words) + 1);

    while (bthome_words_next(&cursor, &index, &w)) {
        vals[n].value = (uint32_t)w.value;
        vals[n++].strptr = g_strndup(w.word, w.word_len);
    }
    return vals;
}

static const true_false_string *words_to_tfs(const char *words)
{
    const char *cursor = words;
    int64_t index = 0;
    bthome_word_t w;
    true_false_string *tfs = g_new0(true_false_string, 1);

    while (bthome_words_next(&cursor, &index, &w))
        *(w.value ? &tfs->true_string : &tfs->false_string) = g_strndup(w.word, w.word_len);
    return tfs;
}

static const void *unit_string(const char *unit)
{
    unit_name_string *u = g_new0(unit_name_string, 1);
    u->singular = g_strdup_printf(" %s", unit);
    return u;
}

/* Field type, display and strings of the rows [first..] sharing first's field. */
static void describe_field(const bthome_object_def_t *const *defs, size_t n, size_t first,
                           hf_register_info *hf)
{
    const bthome_object_def_t *d = defs[first];
    int64_t min = 0, max = 0;
    bool scaled = false;

    for (size_t i = first; i < n; i++) {
        int64_t lo, hi;
        if (strcmp(defs[i]->field, d->field) != 0)
            continue;
        bthome_type_range(defs[i]->type, &lo, &hi);
        min = lo < min ? lo : min;
        max = hi > max ? hi : max;
        scaled = scaled || strcmp(defs[i]->factor, "1") != 0;
    }
    hf->hfinfo.display = BASE_NONE;
    switch (d->kind) {
    case BTHOME_KIND_NUMBER:
        hf->hfinfo.type = scaled ? FT_DOUBLE : integer_type(min, max);
        hf->hfinfo.display = scaled ? BASE_NONE : BASE_DEC;
        if (d->unit[0]) {
            hf->hfinfo.display |= BASE_UNIT_STRING;
            hf->hfinfo.strings = unit_string(d->unit);
        }
        break;
    case BTHOME_KIND_BINARY:
        hf->hfinfo.type = FT_BOOLEAN;
        hf->hfinfo.strings = words_to_tfs(d->words);
        break;
    case BTHOME_KIND_ENUM: case BTHOME_KIND_DIMMER: case BTHOME_KIND_COMMAND:
        hf->hfinfo.type = FT_UINT8;
        hf->hfinfo.display = BASE_DEC;
        hf->hfinfo.strings = words_to_vals(d->words);
        break;
    case BTHOME_KIND_TIMESTAMP:
        hf->hfinfo.type = FT_ABSOLUTE_TIME;
        hf->hfinfo.display = ABSOLUTE_TIME_UTC;
        break;
    case BTHOME_KIND_TEXT: case BTHOME_KIND_FIRMWARE:
        hf->hfinfo.type = FT_STRING;
        break;
    case BTHOME_KIND_RAW:
        hf->hfinfo.type = FT_BYTES;
        break;
    }
}

/* "Object IDs 0x02 0x45 0x57 0x58, unit °C": shown in the field help and the README. */
static const char *field_blurb(const bthome_object_def_t *const *defs, size_t n, size_t first)
{
    GString *blurb = g_string_new("Object ID");
    size_t ids = 0;

    for (size_t i = first; i < n; i++)
        if (strcmp(defs[i]->field, defs[first]->field) == 0)
            g_string_append_printf(blurb, "%s 0x%02X", ids++ ? "," : "", defs[i]->id);
    if (ids > 1)
        g_string_insert_c(blurb, 9, 's');
    if (defs[first]->unit[0])
        g_string_append_printf(blurb, "; unit %s", defs[first]->unit);
    return g_string_free(blurb, FALSE);
}

/* One hf per distinct field of the object table. */
static void register_table_fields(void)
{
    size_t n, nfields = 0;
    const bthome_object_def_t *const *defs = bthome_object_defs(&n);
    hf_register_info *hf = g_new0(hf_register_info, n);
    const char *names[MAX_TABLE_FIELDS];

    for (size_t i = 0; i < n; i++) {
        size_t f = 0;
        while (f < nfields && strcmp(names[f], defs[i]->field) != 0)
            f++;
        table_field_of_id[defs[i]->id] = (int)f;
        if (f < nfields)
            continue;
        DISSECTOR_ASSERT(nfields < MAX_TABLE_FIELDS);
        names[nfields++] = defs[i]->field;
        hf_register_info r = { &hf_table[f], { defs[i]->name,
            g_strdup_printf("bthome.%s", defs[i]->field), FT_NONE, BASE_NONE, NULL, 0x0,
            field_blurb(defs, n, i), HFILL } };
        hf[f] = r;
        hf_table[f] = -1;
        describe_field(defs, n, i, &hf[f]);
        table_field_type[f] = hf[f].hfinfo.type;
    }
    proto_register_field_array(proto_bthome, hf, (int)nfields);
}

#define OBJECT_ID_NAME(id_, name_, ...) { id_, name_ },
static const value_string object_id_vals[] = {
    BTHOME_OBJECT_TABLE(OBJECT_ID_NAME)
    { 0, NULL }
};

static void proto_register_bthome(void)
{
    static hf_register_info hf[] = {
        { &hf_version, { "Version", "bthome.version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "BTHome format version", HFILL } },
        { &hf_info, { "Device information", "bthome.info", FT_UINT8, BASE_HEX, NULL, 0x0,
            NULL, HFILL } },
        { &hf_info_encrypted, { "Encrypted", "bthome.info.encrypted", FT_BOOLEAN, 8,
            NULL, BTHOME_INFO_ENCRYPTED, NULL, HFILL } },
        { &hf_info_mac_included, { "MAC included", "bthome.info.mac_included", FT_BOOLEAN, 8,
            NULL, BTHOME_INFO_MAC_INCLUDED, "Legacy pre-release v2: device MAC follows", HFILL } },
        { &hf_info_trigger_based, { "Trigger based", "bthome.info.trigger_based", FT_BOOLEAN,
            8, NULL, BTHOME_INFO_TRIGGER_BASED, "Advertises irregularly", HFILL } },
        { &hf_info_reserved, { "Reserved", "bthome.info.reserved", FT_UINT8, BASE_HEX,
            NULL, BTHOME_INFO_RESERVED, NULL, HFILL } },
        { &hf_info_version, { "Version", "bthome.info.version", FT_UINT8, BASE_DEC,
            NULL, BTHOME_INFO_VERSION, NULL, HFILL } },
        { &hf_mac, { "Device MAC", "bthome.mac", FT_ETHER, BASE_NONE, NULL, 0x0,
            "Device MAC included in the payload", HFILL } },
        { &hf_encrypted, { "Encrypted", "bthome.encrypted", FT_BOOLEAN, BASE_NONE,
            NULL, 0x0, "Payload is encrypted", HFILL } },
        { &hf_object_id, { "Object ID", "bthome.object_id", FT_UINT8, BASE_HEX,
            VALS(object_id_vals), 0x0, NULL, HFILL } },
        { &hf_dimmer_steps, { "Steps", "bthome.dimmer.steps", FT_UINT8, BASE_DEC,
            NULL, 0x0, "Dimmer steps", HFILL } },
        { &hf_command_length, { "Argument length", "bthome.command.length", FT_UINT8,
            BASE_DEC, NULL, 0x1F, NULL, HFILL } },
        { &hf_command_args, { "Arguments", "bthome.command.args", FT_BYTES, BASE_NONE,
            NULL, 0x0, NULL, HFILL } },
        { &hf_command_steps, { "Steps", "bthome.command.steps", FT_UINT8, BASE_DEC,
            NULL, 0x0, "Step up / step down steps", HFILL } },
    };
    static int *ett[] = { &ett_bthome, &ett_info, &ett_object };
    static ei_register_info ei[] = {
        { &ei_truncated, { "bthome.expert.truncated", PI_MALFORMED, PI_ERROR,
            "Object runs past the end of the data", EXPFILL } },
        { &ei_unknown_object, { "bthome.expert.unknown_object", PI_UNDECODED, PI_WARN,
            "Unknown object ID: parsing stopped, rest undecoded", EXPFILL } },
        { &ei_out_of_order, { "bthome.expert.out_of_order", PI_PROTOCOL, PI_WARN,
            "Object ID lower than the previous one", EXPFILL } },
        { &ei_bad_version, { "bthome.expert.bad_version", PI_PROTOCOL, PI_ERROR,
            "BTHome version bits are not 2", EXPFILL } },
        { &ei_reserved_bits, { "bthome.expert.reserved_bits", PI_PROTOCOL, PI_WARN,
            "Reserved bits set", EXPFILL } },
        { &ei_invalid_utf8, { "bthome.expert.invalid_utf8", PI_PROTOCOL, PI_WARN,
            "Text object is not valid UTF-8", EXPFILL } },
        { &ei_too_short, { "bthome.expert.too_short", PI_MALFORMED, PI_ERROR,
            "Encrypted payload shorter than counter + MIC", EXPFILL } },
    };

    proto_bthome = proto_register_protocol("BTHome", "BTHome", "bthome");
    proto_register_field_array(proto_bthome, hf, array_length(hf));
    register_table_fields();
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto_bthome), ei, array_length(ei));
}

static void proto_reg_handoff_bthome(void)
{
    dissector_handle_t post = create_dissector_handle(dissect_bthome_post, proto_bthome);
    GArray *wanted = g_array_new(FALSE, FALSE, (unsigned)sizeof(int));

    /* Decided at run time, so one source serves 4.0 (no table) and 4.2+. */
    service_data_table_hooked = find_dissector_table("btcommon.eir_ad.entry.uuid") != NULL;
    if (service_data_table_hooked)
        dissector_add_string("btcommon.eir_ad.entry.uuid", "fcd2",
            create_dissector_handle(dissect_bthome_service_data, proto_bthome));
    /* Asking for btcommon's AD type field also makes tshark build the tree it lives in. */
    hf_eir_ad_type = proto_registrar_get_id_byname("btcommon.eir_ad.entry.type");
    g_array_append_val(wanted, hf_eir_ad_type);
    register_postdissector(post);
    set_postdissector_wanted_hfids(post, wanted);
}

void plugin_register(void)
{
    static proto_plugin plugin_bthome;

    plugin_bthome.register_protoinfo = proto_register_bthome;
    plugin_bthome.register_handoff = proto_reg_handoff_bthome;
    proto_register_plugin(&plugin_bthome);
}

#if WSC_AT_LEAST(4, 4)
uint32_t plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif
