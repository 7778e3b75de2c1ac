/* packet-bthome.c
 * Wireshark dissector for BTHome, the open BLE advertisement format for sensors
 * (service data UUID 0xFCD2).
 *
 * The format itself (object table, parsing, value text), the crypto and the device
 * audit live in the Wireshark-free core (bthome_core.c, bthome_crypto.c,
 * bthome_audit.c); this file registers fields, keys and expert infos, keeps the
 * per-file device state and builds the tree.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define WS_BUILD_DLL
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/column-info.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/exceptions.h>
#include <epan/show_exception.h>
#include <epan/tap.h>
#include <epan/unit_strings.h>
#include <epan/dissectors/packet-bluetooth.h>

#include "bthome_adv.h"
#include "bthome_audit.h"
#include "bthome_core.h"
#include "bthome_crypto.h"
#include "bthome_keys.h"
#include "bthome_objects.h"
#include "bthome_stats.h"
#include "bthome_tap.h"
#include "bthome_v1.h"
#include "ws_compat.h"

WS_DLL_PUBLIC_DEF const char plugin_version[] = PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);
#if WSC_AT_LEAST(4, 4)
#include <wsutil/plugins.h>
WS_DLL_PUBLIC uint32_t plugin_describe(void);
#endif

static int proto_bthome = -1;
/* The protocol's name: the Protocol column, expert infos and bounds marks show it. */
static const char bthome_short_name[] = "BTHome";
static int proto_bthome_search = -1;    /* the postdissector's handle (see handoff) */
static int bthome_tap = -1;

static int hf_device = -1;
static int hf_device_name = -1;
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
static int hf_enc_ciphertext = -1;
static int hf_enc_counter = -1;
static int hf_enc_mic = -1;
static int hf_enc_nonce = -1;
static int hf_enc_decrypted = -1;
static int hf_enc_key_mac = -1;
static int hf_enc_prev_frame = -1;
static int hf_v1_length = -1;
static int hf_v1_format = -1;

/* One filter field per distinct "field" of the object table, filled at registration. */
#define MAX_TABLE_FIELDS 96
static int hf_table[MAX_TABLE_FIELDS];
static enum ftenum table_field_type[MAX_TABLE_FIELDS];
static int table_field_of_id[256];

static int ett_bthome = -1;
static int ett_info = -1;
static int ett_object = -1;
static int ett_encryption = -1;

static expert_field ei_truncated = EI_INIT;
static expert_field ei_unknown_object = EI_INIT;
static expert_field ei_out_of_order = EI_INIT;
static expert_field ei_bad_version = EI_INIT;
static expert_field ei_reserved_bits = EI_INIT;
static expert_field ei_invalid_utf8 = EI_INIT;
static expert_field ei_too_short = EI_INIT;
static expert_field ei_no_address = EI_INIT;
static expert_field ei_no_key = EI_INIT;
static expert_field ei_mic_failure = EI_INIT;
static expert_field ei_counter_reuse = EI_INIT;
static expert_field ei_replay = EI_INIT;
static expert_field ei_duplicate = EI_INIT;
static expert_field ei_downgrade = EI_INIT;
static expert_field ei_legacy_v1 = EI_INIT;
static expert_field ei_bad_format = EI_INIT;

/* File scope: the severities are also read per advert (expert_text_needed). */
static ei_register_info expert_infos[] = {
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
    { &ei_no_address, { "bthome.expert.no_address", PI_DECRYPTION, PI_WARN,
        "No advertiser address to build the nonce: cannot decrypt", EXPFILL } },
    { &ei_no_key, { "bthome.expert.no_key", PI_DECRYPTION, PI_NOTE,
        "Encrypted: no key configured for this device", EXPFILL } },
    { &ei_mic_failure, { "bthome.expert.mic_failure", PI_DECRYPTION, PI_WARN,
        "MIC does not verify: wrong key or tampered frame", EXPFILL } },
    { &ei_counter_reuse, { "bthome.expert.counter_reuse", PI_SECURITY, PI_ERROR,
        "Counter reused with another ciphertext: nonce reuse", EXPFILL } },
    { &ei_replay, { "bthome.expert.replay", PI_SECURITY, PI_WARN,
        "Counter not greater than the highest seen from the device", EXPFILL } },
    { &ei_duplicate, { "bthome.expert.duplicate", PI_SEQUENCE, PI_NOTE,
        "Retransmission of the device's previous advertisement", EXPFILL } },
    { &ei_downgrade, { "bthome.expert.downgrade", PI_SECURITY, PI_WARN,
        "Plaintext from a device that encrypts", EXPFILL } },
    { &ei_legacy_v1, { "bthome.expert.legacy_v1", PI_DEPRECATED, PI_NOTE,
        "Device uses the deprecated BTHome v1 format", EXPFILL } },
    { &ei_bad_format, { "bthome.expert.bad_format", PI_MALFORMED, PI_WARN,
        "v1 object: format or size its object cannot take", EXPFILL } },
};

/* Fields of other dissectors the 4.0 postdissector reads (see dissect_bthome_post). */
static int hf_eir_ad_type = -1;
static int hf_hci_bd_addr = -1;
static int expert_tap = -1;

static int * const info_bits[] = {
    &hf_info_version,
    &hf_info_reserved,
    &hf_info_trigger_based,
    &hf_info_mac_included,
    &hf_info_encrypted,
    NULL
};

/* The Info column text of one report, in the packet's pool: a few appends per object of
 * every advert, so kept cheaper than wmem_strbuf's. */
typedef struct {
    char *text;
    size_t len, size;
    wmem_allocator_t *pool;
    bool untrusted;     /* holds text of the advert's own (a text object) */
} summary_t;

static void summary_init(summary_t *s, wmem_allocator_t *pool)
{
    s->pool = pool;
    s->size = 2 * BTHOME_VALUE_TEXT_MAX;    /* no growing for the usual few objects */
    s->len = 0;
    s->untrusted = false;
    s->text = (char *)wmem_alloc(pool, s->size);
    s->text[0] = '\0';
}

/* Room for n more characters and the NUL; returns where they go. */
static char *summary_reserve(summary_t *s, size_t n)
{
    if (s->len + n >= s->size) {
        s->size = MAX(s->size * 2, s->len + n + 1);
        s->text = (char *)wmem_realloc(s->pool, s->text, s->size);
    }
    return s->text + s->len;
}

static void summary_append_len(summary_t *s, const char *text, size_t n)
{
    memcpy(summary_reserve(s, n), text, n);
    s->len += n;
    s->text[s->len] = '\0';
}

static void summary_append(summary_t *s, const char *text)
{
    summary_append_len(s, text, strlen(text));
}

static void summary_append_printf(summary_t *s, const char *format, ...) G_GNUC_PRINTF(2, 3);
static void summary_append_printf(summary_t *s, const char *format, ...)
{
    char text[160];
    va_list ap;
    int n;

    va_start(ap, format);
    n = vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    if (n > 0)
        summary_append_len(s, text, MIN((size_t)n, sizeof text - 1));
}

typedef struct device device_t;

static int *const encryption_fields[] = {
    &hf_enc_ciphertext, &hf_enc_counter, &hf_enc_mic, &hf_enc_nonce, &hf_enc_decrypted,
    &hf_enc_key_mac, NULL
};

/* Where a service data (the bytes after the UUID) is: its own tvb, as btcommon's table
 * hands it over, or a span of the frame's bytes, as the postdissector finds it. */
typedef struct {
    tvbuff_t *tvb;              /* NULL for a span: made when an item or expert needs it */
    tvbuff_t *frame;            /* the span's frame */
    unsigned start;
    unsigned length;            /* on the wire: may pass the captured end */
    const uint8_t *frame_bytes; /* a span's: the frame's captured bytes, as the search */
    unsigned frame_captured;    /* read them (located_list_t) */
} sd_place_t;

/* One BTHome service data being dissected. */
typedef struct {
    unsigned version;           /* 1 or 2 */
    const uint8_t *data;        /* its bytes (read once: several steps need them) */
    unsigned len;
    packet_info *pinfo;
    proto_tree *tree;           /* the BTHome subtree */
    proto_item *item;           /* the BTHome item */
    unsigned report;            /* which BTHome service data of the frame, from 1 */
    const uint8_t *advertiser;  /* the frame's advertiser address, display order, or NULL */
    const uint8_t *device;      /* included MAC, else advertiser: the device's identity */
    const char *device_name;    /* Local Name, or NULL */
    device_t *state;            /* what the capture told of the device so far */
    bool authenticated;         /* a configured key verified the MIC */
    bool audit_skip;            /* MIC failed with the device's key: nothing to trust */
    bool duplicate;             /* the audit found a retransmission */
    bool cut;                   /* the capture's snap length cut the service data short */
    wmem_array_t *readings;     /* bthome_reading_t for the tap, when it has listeners */
    /* Not zeroed with the rest: each has its own initialiser, run before any use (zeroing
     * these too cost about 20 instructions per advert). */
    sd_place_t place;           /* read_place; read its tvb with report_tvb() */
    bthome_audit_input_t audit; /* dissect_bthome: what the device audit needs to know */
    summary_t summary;          /* summary_init: the Info column text */
    bthome_v2_header_t hdr;     /* bthome_parse_v2_header, or add_v1 */
} report_t;

#define REPORT_ZEROED_BYTES offsetof(report_t, place)

/* The service data's tvb. A span's is made on first use: a summary run without findings
 * never needs one, and a subset with its freeing costs about 350 instructions. */
static tvbuff_t *report_tvb(report_t *r)
{
    sd_place_t *at = &r->place;

    if (!at->tvb)
        at->tvb = tvb_new_subset_length(at->frame, (int)at->start, (int)at->length);
    return at->tvb;
}

/* The tvb of objects: a decrypted payload's own, or the service data's (NULL). */
static tvbuff_t *objects_tvb(report_t *r, tvbuff_t *tvb)
{
    return tvb ? tvb : report_tvb(r);
}

/* ---- Tree building ------------------------------------------------------------ */

/* BTHome's own header_field_info, by hf id from the first one registered. Wireshark
 * keeps pointers to them (they live in our arrays) and marks a filter's or column's
 * reference in their ref_type: reading it here spares a call per check, several per
 * object. Set at registration only. */
static header_field_info **own_hfinfo;
static unsigned own_hf_first, own_hf_count;

static void index_own_fields(hf_register_info *hf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned id = (unsigned)*hf[i].p_id, at;

        if (!own_hf_count)
            own_hf_first = id;
        if (id < own_hf_first)
            continue;       /* stays with proto_field_is_referenced */
        at = id - own_hf_first;
        if (at >= own_hf_count) {
            size_t entry = sizeof(header_field_info *);
            own_hfinfo = (header_field_info **)wmem_realloc(wmem_epan_scope(), own_hfinfo,
                                                            (at + 1) * entry);
            memset(own_hfinfo + own_hf_count, 0, (at + 1 - own_hf_count) * entry);
            own_hf_count = at + 1;
        }
        own_hfinfo[at] = &hf[i].hfinfo;
    }
}

/* Whether an item of field hf can matter. A tree that is not shown only feeds filters and
 * columns: Wireshark fakes the items they do not reference (4.0), or still builds those
 * below a real item (4.4+), at a cost per call, and BTHome adds several per object. */
static inline bool field_wanted(proto_tree *tree, int hf)
{
    unsigned at = (unsigned)hf - own_hf_first;

    if (!tree)
        return false;
    if (at < own_hf_count && own_hfinfo[at])
        return PTREE_DATA(tree)->visible || own_hfinfo[at]->ref_type != HF_REF_TYPE_NONE;
    return proto_field_is_referenced(tree, hf);
}

static bool any_field_wanted(proto_tree *tree, int *const *hfs)
{
    if (!tree)
        return false;
    for (; *hfs; hfs++)
        if (field_wanted(tree, **hfs))
            return true;
    return false;
}

/* The object's value item. Its label ("Temperature 2: 25.06 °C") is written only in a
 * tree that is shown: elsewhere (filters, columns) only the value counts. */
static proto_item *add_table_value(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                                   int start, const bthome_object_t *obj,
                                   const char *label, const char *text)
{
    int hf = hf_table[table_field_of_id[obj->id]];
    int len = (int)obj->length;
    int value_start = start + (int)(obj->value_offset - obj->offset);
    int value_len = (int)obj->value_length;
    proto_item *item;

    switch (table_field_type[table_field_of_id[obj->id]]) {
    case FT_DOUBLE:
        item = proto_tree_add_double(tree, hf, tvb, start, len, obj->value);
        break;
    case FT_BOOLEAN:
        item = proto_tree_add_boolean(tree, hf, tvb, start, len, obj->raw != 0);
        break;
    case FT_INT8: case FT_INT16: case FT_INT24: case FT_INT32:
        item = proto_tree_add_int(tree, hf, tvb, start, len, (int32_t)obj->raw);
        break;
    case FT_INT64:
        item = proto_tree_add_int64(tree, hf, tvb, start, len, obj->raw);
        break;
    case FT_ABSOLUTE_TIME: {
        nstime_t ts = { (time_t)obj->raw, 0 };
        item = proto_tree_add_time(tree, hf, tvb, start, len, &ts);
        break;
    }
    case FT_STRING:
        /* text keeps Wireshark's own UTF-8 reading; firmware is the dotted form */
        item = proto_tree_add_string(tree, hf, tvb, start, len,
            obj->def->kind == BTHOME_KIND_TEXT
                ? (const char *)tvb_get_string_enc(pinfo->pool, tvb, value_start, value_len,
                                                   ENC_UTF_8)
                : text);
        break;
    case FT_BYTES:
        item = proto_tree_add_bytes_with_length(tree, hf, tvb, start, len,
            value_len ? tvb_get_ptr(tvb, value_start, value_len) : NULL, value_len);
        if (!value_len)
            text = "<empty>";
        break;
    default:
        item = proto_tree_add_uint(tree, hf, tvb, start, len, (uint32_t)obj->raw);
        break;
    }
    if (PTREE_DATA(tree)->visible)
        proto_item_set_text(item, "%s: %s", label, text);
    return item;
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

/* What add_object_problems reports: an object without them needs no call in a run
 * without a tree. */
static inline bool object_has_problems(const bthome_object_t *obj)
{
    return obj->out_of_order || obj->invalid_utf8 || obj->reserved_bits;
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
        proto_tree_add_item(tree, hf_object_id, tvb, start, 1, ENC_NA);
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

static bool object_wanted(proto_tree *tree, const bthome_object_t *obj)
{
    static int *const event_fields[] = {
        &hf_dimmer_steps, &hf_command_length, &hf_command_args, &hf_command_steps, NULL
    };

    return field_wanted(tree, hf_table[table_field_of_id[obj->id]]) ||
           field_wanted(tree, hf_object_id) ||
           ((obj->def->kind == BTHOME_KIND_DIMMER || obj->def->kind == BTHOME_KIND_COMMAND) &&
            any_field_wanted(tree, event_fields));
}

/* A decoded object (v2, or the v2 view of a v1 object) starting with its ID byte at
 * start: the value item, with the ID beneath. Returns that subtree. */
static proto_tree *add_decoded_object(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                                      int start, const bthome_object_t *obj,
                                      const char *label, const char *text, int prev_id)
{
    proto_item *item;
    proto_tree *sub;

    if (!tree || !object_wanted(tree, obj)) {  /* per object: spare items nobody sees */
        add_object_problems(pinfo, tree ? proto_tree_get_parent(tree) : NULL, obj, prev_id);
        return NULL;
    }
    item = add_table_value(tree, pinfo, tvb, start, obj, label, text);
    sub = proto_item_add_subtree(item, ett_object);

    if (field_wanted(tree, hf_object_id))
        proto_tree_add_item(sub, hf_object_id, tvb, start, 1, ENC_NA);
    if (obj->def->kind == BTHOME_KIND_DIMMER || obj->def->kind == BTHOME_KIND_COMMAND)
        add_event_details(sub, tvb, start, obj);
    add_object_problems(pinfo, item, obj, prev_id);
    return sub;
}

/* A decoded value for the tap's listeners. */
static void add_reading(report_t *r, const bthome_object_t *obj, const char *label,
                        const char *text)
{
    bthome_reading_t reading;

    if (!r->readings)
        return;
    reading.def = obj->def;
    reading.label = wmem_strdup(r->pinfo->pool, label);
    reading.value = obj->def->kind == BTHOME_KIND_NUMBER ? obj->value : (double)obj->raw;
    reading.text = wmem_strdup(r->pinfo->pool, text);
    wmem_array_append_one(r->readings, reading);
}

/* Whether anything reads this expert info beyond the file's highest severity: a shown
 * tree, a filter or column on its field or the _ws.expert ones, the expert tap's
 * listeners (Expert Information, -z expert) or an Expert column. Only then is there
 * text to format. */
static bool expert_observed(const report_t *r, const expert_field *ei)
{
    const column_info *cinfo = r->pinfo->cinfo;

    if (r->tree && (PTREE_DATA(r->tree)->visible || field_wanted(r->tree, ei->hf) ||
                    (proto_expert > 0 && field_wanted(r->tree, proto_expert))))
        return true;
    return have_tap_listener(expert_tap) || (cinfo && cinfo->col_first[COL_EXPERT] >= 0);
}

static int expert_severity(const expert_field *ei)
{
    /* registration numbers the array's expert infos in a row: try that place first */
    size_t at = (size_t)(ei->ei - expert_infos[0].ids->ei);

    if (at < array_length(expert_infos) && expert_infos[at].ids == ei)
        return expert_infos[at].eiinfo.severity;
    for (size_t i = 0; i < array_length(expert_infos); i++)
        if (expert_infos[i].ids == ei)
            return expert_infos[i].eiinfo.severity;
    return PI_ERROR;
}

/* Whether the caller should add ei at pi with its formatted text. When nothing reads it
 * (see expert_observed), an expert info only raises the file's highest severity: it is
 * added bare until that severity is reached, then spared, as Wireshark's own cost of a
 * call (about 1,100 instructions on 4.6, per encrypted advert without a key) buys
 * nothing more. */
static bool expert_text_needed(const report_t *r, proto_item *pi, expert_field *ei)
{
    if (expert_observed(r, ei))
        return true;
    if (expert_get_highest_severity() < expert_severity(ei))
        expert_add_info(r->pinfo, pi, ei);
    return false;
}

/* Whether anything shows the objects' text: the Info column, a visible tree (item
 * labels) or the tap's listeners. tshark -T fields, and -Y in a run that prints no
 * columns, need none of it: the fields carry the values. */
static bool text_wanted(const report_t *r)
{
    return r->pinfo->cinfo || r->readings || (r->tree && PTREE_DATA(r->tree)->visible);
}

/* "Temperature", or "Temperature 2" for a second one: the name itself in the common case,
 * with no copy. *len: its length. */
static const char *object_label(const bthome_object_t *obj, char *buf, size_t size,
                                size_t *len)
{
    if (obj->def && obj->ordinal <= 1) {
        *len = obj->def->name_len;
        return obj->def->name;
    }
    bthome_format_label(obj, buf, size);
    *len = strlen(buf);
    return buf;
}

/* An object's label with its NUL (object_label), the row's padded one too. */
#define OBJECT_LABEL_MAX 64
G_STATIC_ASSERT(BTHOME_LABEL_SIZE <= OBJECT_LABEL_MAX);

/* Appends ", Label " (no comma for the first) to the Info column summary, with room for
 * the value's text after it: returns where the text goes, formatted in place (no copy:
 * this runs for every object of every advert). summary_end_reading counts it in. A
 * label that is the row's name goes as the row's padded label, at a constant size. */
static char *summary_begin_reading(summary_t *summary, bool first, const bthome_object_t *obj,
                                   const char *label, size_t label_len)
{
    size_t sep = first ? 0 : 2;
    /* the most any object takes, a constant: no sum of its parts per object */
    char *at = summary_reserve(summary, 2 + OBJECT_LABEL_MAX + BTHOME_VALUE_TEXT_MAX);

    if (sep) {
        at[0] = ',';
        at[1] = ' ';
    }
    if (label == obj->def->name) {
        memcpy(at + sep, obj->def->label, BTHOME_LABEL_SIZE);
    } else {
        memcpy(at + sep, label, label_len);
        at[sep + label_len] = ' ';
        at[sep + label_len + 1] = '\0';
    }
    return at + sep + label_len + 1;
}

static void summary_end_reading(summary_t *summary, const char *text, int text_len)
{
    summary->len = (size_t)(text - summary->text) + (size_t)MAX(text_len, 0);
}

/* Adds one v2 object, and its text to the Info column summary. tvb: as add_objects. */
static void add_object(report_t *r, tvbuff_t *tvb, int start, const bthome_object_t *obj,
                       const uint8_t *body, int prev_id, bool want_text)
{
    proto_tree *tree = r->tree;
    packet_info *pinfo = r->pinfo;
    char label_buf[OBJECT_LABEL_MAX];
    char own_text[BTHOME_VALUE_TEXT_MAX];
    size_t label_len;
    const char *label = object_label(obj, label_buf, sizeof label_buf, &label_len);
    char *text = own_text;
    int text_len = 0;

    if (obj->status != BTHOME_OBJ_OK) {
        add_bad_object(tree, pinfo, objects_tvb(r, tvb), start, obj, label);
        if (prev_id >= 0)
            summary_append(&r->summary, ", ");
        if (obj->status == BTHOME_OBJ_UNKNOWN)
            summary_append_printf(&r->summary, "[unknown object 0x%02x]", obj->id);
        else
            summary_append_printf(&r->summary, "[%s truncated]", label);
        return;
    }
    text[0] = '\0';
    /* the summary's text is the items' and the tap's too (they copy it) */
    if (want_text)
        text = summary_begin_reading(&r->summary, prev_id < 0, obj, label, label_len);
    /* firmware versions are string fields whose value is the text */
    if (want_text || obj->def->kind == BTHOME_KIND_FIRMWARE)
        text_len = bthome_format_value_len(obj, body, text, BTHOME_VALUE_TEXT_MAX);
    if (tree || object_has_problems(obj))
        add_decoded_object(tree, pinfo, objects_tvb(r, tvb), start, obj, label, text, prev_id);
    add_reading(r, obj, label, text);
    if (want_text) {
        summary_end_reading(&r->summary, text, text_len);
        r->summary.untrusted |= obj->def->kind == BTHOME_KIND_TEXT;
    }
}

/* ---- v1 objects: control byte, ID, value ------------------------------------------ */

static void add_v1_control(proto_tree *tree, tvbuff_t *tvb, int start)
{
    proto_tree_add_item(tree, hf_v1_length, tvb, start, 1, ENC_NA);
    proto_tree_add_item(tree, hf_v1_format, tvb, start, 1, ENC_NA);
}

/* Why a v1 object did not decode, for its expert info and the Info column. */
static const char *v1_problem(packet_info *pinfo, const bthome_v1_object_t *o,
                              const char *label, expert_field **ei)
{
    const char *format = bthome_v1_format_name(o->format);
    unsigned value_len = o->declared_length ? o->declared_length - 1u : 0;

    *ei = &ei_bad_format;
    switch (o->status) {
    case BTHOME_V1_TRUNCATED:
        *ei = &ei_truncated;
        return wmem_strdup_printf(pinfo->pool,
            "%s: control byte says %u bytes after it, only %u remain", label,
            o->declared_length, (unsigned)o->length - 1);
    case BTHOME_V1_ZERO_LENGTH:
        return wmem_strdup_printf(pinfo->pool,
            "Control byte 0x%02x gives length 0 (no object ID): parsing stopped", o->control);
    case BTHOME_V1_UNKNOWN_ID:
        *ei = &ei_unknown_object;
        return wmem_strdup_printf(pinfo->pool,
            "Unknown object ID 0x%02x: skipped, %u value byte%s undecoded", o->obj.id,
            value_len, value_len == 1 ? "" : "s");
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
static const char *add_bad_v1_object(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
                                     int start, const bthome_v1_object_t *o, const char *label)
{
    expert_field *ei;
    const char *problem = v1_problem(pinfo, o, label, &ei);
    proto_item *item;
    proto_tree *sub = proto_tree_add_subtree_format(tree, tvb, start, (int)o->length,
        ett_object, &item, "%s: [%s]", label, o->status == BTHOME_V1_OK
            ? "out of range" : bthome_v1_status_name(o->status));

    add_v1_control(sub, tvb, start);
    if (o->length > 1)
        proto_tree_add_item(sub, hf_object_id, tvb, start + 1, 1, ENC_NA);
    expert_add_info_format(pinfo, item, ei, "%s", problem);
    return wmem_strdup_printf(pinfo->pool, "[%s %s]", label,
        o->status == BTHOME_V1_OK ? "out of range" : bthome_v1_status_name(o->status));
}

/* Adds one v1 object; returns its text for the Info column. */
static const char *add_v1_object(report_t *r, tvbuff_t *tvb, int start,
                                 const bthome_v1_object_t *o, const uint8_t *body)
{
    proto_tree *tree = r->tree;
    packet_info *pinfo = r->pinfo;
    char label[64];
    char text[BTHOME_VALUE_TEXT_MAX];
    proto_tree *sub;

    if (o->obj.def)
        bthome_format_label(&o->obj, label, sizeof label);
    else
        snprintf(label, sizeof label, "Object 0x%02x", o->obj.id);
    /* a v1 width may exceed what the field's integer type holds; doubles hold it all */
    if (o->status != BTHOME_V1_OK || !o->obj.def ||
        (o->exceeds_type && table_field_type[table_field_of_id[o->obj.id]] != FT_DOUBLE))
        return add_bad_v1_object(tree, pinfo, tvb, start, o, label);
    bthome_v1_format_value(o, body, text, sizeof text);
    sub = add_decoded_object(tree, pinfo, tvb, start + 1, &o->obj, label, text, -1);
    add_reading(r, &o->obj, label, text);
    /* a filter may name the control byte's fields alone, without the object's */
    if (sub || field_wanted(tree, hf_v1_length) || field_wanted(tree, hf_v1_format))
        add_v1_control(sub ? sub : tree, tvb, start);
    return wmem_strdup_printf(pinfo->pool, "%s %s", label, text);
}


static void add_summary_item(report_t *r, const char *text, bool first)
{
    if (!first)
        summary_append(&r->summary, ", ");
    summary_append(&r->summary, text);
}

static int add_v1_objects(report_t *r, tvbuff_t *tvb, const uint8_t *body, int len)
{
    bthome_v1_parser_t parser;
    bthome_v1_object_t o;
    int packet_id = -1;

    bthome_v1_parser_init(&parser, body, (size_t)len);
    while (bthome_v1_parser_next(&parser, &o)) {
        if (r->cut && o.status == BTHOME_V1_TRUNCATED)
            break;      /* the capture's end, not the device's error */
        add_summary_item(r, add_v1_object(r, tvb, (int)o.offset, &o, body),
                         o.offset == 0);
        r->summary.untrusted |= o.obj.def && o.obj.def->kind == BTHOME_KIND_TEXT;
        if (o.status == BTHOME_V1_OK && o.obj.id == BTHOME_OBJECT_PACKET_ID && packet_id < 0)
            packet_id = (int)o.obj.raw;
    }
    return packet_id;
}

/* Whether an object runs past the end of the bytes (the parser's view of a cut). */
static bool object_cut(const bthome_object_t *obj)
{
    return obj->status == BTHOME_OBJ_TRUNCATED || obj->status == BTHOME_OBJ_LENGTH_OVERRUN;
}

/* Adds the objects from body_start of tvb (a decrypted payload), or of the service data
 * (NULL); returns the packet id, or -1 without one. Service data cut short by the
 * capture ends at its last whole object. */
static int add_objects(report_t *r, tvbuff_t *tvb, int body_start)
{
    int len = tvb ? tvb_captured_length_remaining(tvb, body_start)
                  : (int)r->len - body_start;
    const uint8_t *body = tvb ? tvb_get_ptr(tvb, body_start, len) : r->data + body_start;
    bthome_parser_t parser;
    bthome_object_t obj;
    int prev_id = -1, packet_id = -1;
    bool want_text;

    if (len == 0 && r->cut)
        return -1;
    if (len == 0) {
        proto_tree_add_expert_format(r->tree, r->pinfo, &ei_truncated, objects_tvb(r, tvb),
            0, -1,
            r->version == 1 ? "No objects" : "No objects after the device information byte");
        summary_append(&r->summary, "[no objects]");
        return -1;
    }
    if (r->version == 1)
        return add_v1_objects(r, objects_tvb(r, tvb), body, len);
    want_text = text_wanted(r);
    bthome_parser_init(&parser, body, (size_t)len);
    while (bthome_parser_next(&parser, &obj)) {
        if (r->cut && object_cut(&obj))
            break;
        add_object(r, tvb, body_start + (int)obj.offset, &obj, body, prev_id, want_text);
        if (obj.status == BTHOME_OBJ_OK && obj.id == BTHOME_OBJECT_PACKET_ID && packet_id < 0)
            packet_id = (int)obj.raw;
        prev_id = obj.id;
    }
    return packet_id;
}

/* The generated version and encrypted items (v2: over the device information byte). */
static void add_version_items(report_t *r, unsigned version, bool encrypted, int len)
{
    proto_item *item;

    if (field_wanted(r->tree, hf_version)) {
        item = proto_tree_add_uint(r->tree, hf_version, report_tvb(r), 0, len, version);
        proto_item_set_generated(item);
    }
    if (field_wanted(r->tree, hf_encrypted)) {
        item = proto_tree_add_boolean(r->tree, hf_encrypted, report_tvb(r), 0, len, encrypted);
        proto_item_set_generated(item);
    }
}

static void add_header(report_t *r, bthome_header_status_t status)
{
    const bthome_v2_header_t *hdr = &r->hdr;
    proto_item *item;

    add_version_items(r, hdr->version, hdr->encrypted, 1);
    /* the byte's expert infos hang on the bitmask, else on the BTHome item */
    if (field_wanted(r->tree, hf_info) || any_field_wanted(r->tree, info_bits))
        item = proto_tree_add_bitmask(r->tree, report_tvb(r), 0, hf_info, ett_info, info_bits,
                                      ENC_NA);
    else
        item = r->item;
    if (hdr->version != 2)
        expert_add_info_format(r->pinfo, item, &ei_bad_version,
            "Version bits say %u, not 2: decoded as v2 anyway", hdr->version);
    if (hdr->reserved)
        expert_add_info_format(r->pinfo, item, &ei_reserved_bits,
            "Reserved device information bits 3-4 set (0x%02x)", hdr->info & BTHOME_INFO_RESERVED);
    if (hdr->has_mac && r->tree)
        proto_tree_add_ether(r->tree, hf_mac, report_tvb(r), (int)hdr->mac_offset,
                             BTHOME_MAC_LEN, hdr->mac);
    else if (!hdr->has_mac && status == BTHOME_HEADER_MAC_CUT && !r->cut)
        proto_tree_add_expert_format(r->tree, r->pinfo, &ei_truncated, report_tvb(r), 1,
            (int)r->len - 1, "Info bit 1 announces a 6-byte MAC, only %u bytes follow",
            r->len - 1);
}

static const char *mac_text(packet_info *pinfo, const uint8_t *mac)
{
    char *text = (char *)wmem_alloc(pinfo->pool, BTHOME_MAC_TEXT_LEN);

    bthome_format_mac(mac, text);
    return text;
}

/* Shows the plaintext as its own data source and dissects it like a plaintext advert. */
static void add_decrypted(report_t *r, uint8_t *plain, size_t len)
{
    tvbuff_t *parent = r->place.tvb ? r->place.tvb : r->place.frame;   /* freed with it */
    tvbuff_t *child = tvb_new_child_real_data(parent, plain, (unsigned)len, (int)len);

    add_new_data_source(r->pinfo, child, "Decrypted BTHome");
    proto_item_append_text(r->item, " (decrypted)");
    summary_append(&r->summary, "[decrypted] ");
    r->authenticated = true;
    r->audit.packet_id = add_objects(r, child, 0);
}

/* The encrypted payload: ciphertext | counter | MIC, decrypted when a key verifies. */
static void add_encrypted(report_t *r)
{
    int start = (int)r->hdr.body_offset;
    unsigned len = r->len - (unsigned)start;
    bthome_sealed_t sealed;
    proto_tree *enc;
    proto_item *enc_item, *item;
    uint8_t nonce[BTHOME_NONCE_V2_LEN];
    size_t nonce_len;
    bthome_key_match_t key;
    uint8_t *plain;
    bool tried, decrypted;

    if (r->cut) {   /* the counter and MIC end the payload: nothing to try */
        summary_append(&r->summary, "[encrypted]");
        return;
    }
    if (!bthome_split_sealed(r->data + start, len, &sealed)) {
        proto_tree_add_expert_format(r->tree, r->pinfo, &ei_too_short, report_tvb(r), start,
            (int)len, "Encrypted payload of %u bytes is shorter than counter + MIC (8)", len);
        summary_append(&r->summary, "[encrypted, too short]");
        return;
    }
    enc = NULL;
    enc_item = r->item;     /* anchors the expert infos when the subtree is not built */
    if (any_field_wanted(r->tree, encryption_fields)) {
        tvbuff_t *tvb = report_tvb(r);

        enc = proto_tree_add_subtree(r->tree, tvb, start, (int)len, ett_encryption,
                                     &enc_item, "Encrypted payload");
        if (sealed.ciphertext_len)
            proto_tree_add_item(enc, hf_enc_ciphertext, tvb, start,
                                (int)sealed.ciphertext_len, ENC_NA);
        proto_tree_add_item(enc, hf_enc_counter, tvb, start + (int)sealed.ciphertext_len,
                            BTHOME_COUNTER_LEN, ENC_LITTLE_ENDIAN);
        proto_tree_add_item(enc, hf_enc_mic, tvb,
                            start + (int)sealed.ciphertext_len + BTHOME_COUNTER_LEN,
                            BTHOME_MIC_LEN, ENC_NA);
    }
    r->audit.has_counter = true;
    r->audit.counter = sealed.counter_value;

    if (!r->device) {
        expert_add_info(r->pinfo, enc_item, &ei_no_address);
        summary_append(&r->summary, "[encrypted, no address]");
        return;
    }
    if (r->version == 1)
        bthome_nonce_v1(r->device, sealed.counter, nonce);
    else
        bthome_nonce_v2(r->device, r->hdr.info, sealed.counter, nonce);
    nonce_len = r->version == 1 ? BTHOME_NONCE_V1_LEN : BTHOME_NONCE_V2_LEN;
    if (enc) {
        item = proto_tree_add_bytes_with_length(enc, hf_enc_nonce, report_tvb(r), 0, 0, nonce,
                                                (int)nonce_len);
        proto_item_set_generated(item);
    }

    plain = (uint8_t *)wmem_alloc(r->pinfo->pool, sealed.ciphertext_len + 1);
    decrypted = bthome_keys_decrypt(r->device, r->version, nonce, nonce_len, &sealed, plain,
                                    &key, &tried);
    if (enc) {
        item = proto_tree_add_boolean(enc, hf_enc_decrypted, report_tvb(r), 0, 0, decrypted);
        proto_item_set_generated(item);
    }
    if (decrypted && enc) {
        item = proto_tree_add_string(enc, hf_enc_key_mac, report_tvb(r), 0, 0, key.mac_text);
        if (key.name[0])
            proto_item_append_text(item, " (%s)", key.name);
        proto_item_set_generated(item);
    }
    if (decrypted) {
        add_decrypted(r, plain, sealed.ciphertext_len);
    } else if (tried) {
        if (expert_text_needed(r, enc_item, &ei_mic_failure))
            expert_add_info_format(r->pinfo, enc_item, &ei_mic_failure,
                "MIC does not verify with the key(s) for %s: wrong key or tampered frame",
                mac_text(r->pinfo, r->device));
        summary_append(&r->summary, "[encrypted, MIC failure]");
        r->audit_skip = bthome_keys_device_has_key(r->device);
    } else {
        if (expert_text_needed(r, enc_item, &ei_no_key))
            expert_add_info_format(r->pinfo, enc_item, &ei_no_key,
                "Encrypted: no key configured for %s", mac_text(r->pinfo, r->device));
        summary_append(&r->summary, "[encrypted, no key]");
    }
}

/* What follows the header: objects, or the encrypted payload. */
static void add_body(report_t *r, bthome_header_status_t status)
{
    if (status == BTHOME_HEADER_MAC_CUT) {
        if (!r->cut)
            summary_append(&r->summary, "[MAC truncated]");
    } else if (r->hdr.encrypted)
        add_encrypted(r);
    else
        r->audit.packet_id = add_objects(r, NULL, (int)r->hdr.body_offset);
}

/* ---- Device crypto audit ----------------------------------------------------------- */

/* Per capture file (init/cleanup routines): device address -> its history, in file
 * scope. A GHashTable, not a wmem_map: this lookup runs for every advert, and wmem_map's
 * seeded hash made its cost vary from run to run (one probe to several). */
static GHashTable *device_histories;
/* In front of it, per file too: the device last met per slot of its address's hash.
 * Captures hold a few dozen devices, so nearly every advert finds its own here, at a
 * tenth of a GHashTable lookup. */
#define DEVICE_CACHE_SLOTS 256
static device_t *device_cache[DEVICE_CACHE_SLOTS];

struct device {
    uint64_t address;
    const char *name;           /* the first Local Name seen, and in which frame */
    uint32_t name_frame;
    bthome_device_history_t history;
};

typedef struct {
    bthome_audit_result_t result;
    bool unauthenticated;       /* counters came from frames no key verified */
} audit_record_t;

static device_t *device_state(const uint8_t *mac)
{
    uint64_t address = bthome_mac_number(mac);
    device_t **slot = &device_cache[(address * UINT64_C(0x9E3779B97F4A7C15)) >> 56];
    device_t *dev = *slot;

    if (dev && dev->address == address)
        return dev;
    if (!device_histories)
        return NULL;
    dev = (device_t *)g_hash_table_lookup(device_histories, &address);
    if (!dev) {
        dev = wmem_new(wmem_file_scope(), device_t);
        dev->address = address;
        dev->name = NULL;
        dev->name_frame = 0;
        bthome_history_init(&dev->history);
        g_hash_table_insert(device_histories, &dev->address, dev);
    }
    *slot = dev;
    return dev;
}

/* Findings are worked out once, on the first pass in capture order, and kept per file:
 * the GUI re-dissects packets in any order. Kept packed, in 64 KiB pages that never move
 * (a growing array's reallocations left the room of its old copies in the heap, as much
 * again as the data): records of [frame (4), report, count | unauthenticated << 7], then
 * per finding [kind | replay << 2 | same_packet_id << 4, prev_frame (4), and for a replay
 * prev_counter (4)], 15 bytes with its index entry for a retransmission; an index of
 * their places, in frame order as the first pass meets them. */
#define AUDIT_PAGE_BYTES 65536u
#define AUDIT_INDEX_PER_PAGE (AUDIT_PAGE_BYTES / sizeof(uint32_t))
#define AUDIT_AT_REPORT 4
#define AUDIT_AT_COUNT 5
#define AUDIT_HEADER_BYTES 6
#define AUDIT_FINDING_MAX_BYTES 9
#define AUDIT_RECORD_MAX (AUDIT_HEADER_BYTES + \
    G_N_ELEMENTS(((bthome_audit_result_t *)NULL)->findings) * AUDIT_FINDING_MAX_BYTES)
#define AUDIT_UNAUTHENTICATED 0x80

typedef struct {
    GPtrArray *pages;           /* the records */
    GPtrArray *index_pages;     /* uint32_t places of the records: page << 16 | offset */
    unsigned count;             /* records */
    uint32_t end;               /* the place of the next record */
} audit_store_t;

static audit_store_t audit_store;   /* per file (init/cleanup routines) */

static uint32_t *audit_place(unsigned i)
{
    return (uint32_t *)g_ptr_array_index(audit_store.index_pages, i / AUDIT_INDEX_PER_PAGE) +
           i % AUDIT_INDEX_PER_PAGE;
}

static uint8_t *audit_at(uint32_t place)
{
    return (uint8_t *)g_ptr_array_index(audit_store.pages, place >> 16) + (place & 0xFFFF);
}

static uint32_t record_frame(const uint8_t *record)
{
    uint32_t frame;

    memcpy(&frame, record, sizeof frame);
    return frame;
}

static uint32_t audit_frame(unsigned i)
{
    return record_frame(audit_at(*audit_place(i)));
}

static size_t audit_pack(uint32_t frame, unsigned report, const audit_record_t *rec,
                         uint8_t packed[AUDIT_RECORD_MAX])
{
    size_t n = 0;

    memcpy(packed, &frame, 4);
    n += 4;
    packed[n++] = (uint8_t)report;
    packed[n++] = (uint8_t)(rec->result.count | (rec->unauthenticated ? AUDIT_UNAUTHENTICATED : 0));
    for (unsigned i = 0; i < rec->result.count; i++) {
        const bthome_finding_t *f = &rec->result.findings[i];
        if ((unsigned)f->kind > 3 || (unsigned)f->replay > 3)
            return 0;   /* 2 bits each: the enums have four values */
        packed[n++] = (uint8_t)(f->kind | f->replay << 2 | (f->same_packet_id ? 1 : 0) << 4);
        memcpy(packed + n, &f->prev_frame, 4);
        n += 4;
        if (f->kind == BTHOME_FINDING_REPLAY) {
            memcpy(packed + n, &f->prev_counter, 4);
            n += 4;
        }
    }
    return n;
}

static void audit_keep(uint32_t frame, unsigned report, const audit_record_t *rec)
{
    audit_store_t *s = &audit_store;
    uint8_t packed[AUDIT_RECORD_MAX];
    size_t n;

    if (!s->pages || rec->result.count > G_N_ELEMENTS(rec->result.findings))
        return;
    if (s->count && audit_frame(s->count - 1) > frame)
        return;     /* not in capture order: cannot be a first pass */
    n = audit_pack(frame, report, rec, packed);
    if (n == 0)
        return;
    if ((s->end & 0xFFFF) + n > AUDIT_PAGE_BYTES)
        s->end = ((s->end >> 16) + 1) << 16;    /* records do not straddle pages */
    if ((s->end >> 16) == 0xFFFF)
        return;     /* 4 GiB of findings */
    while (s->pages->len <= (s->end >> 16))
        g_ptr_array_add(s->pages, g_malloc(AUDIT_PAGE_BYTES));
    if (s->count / AUDIT_INDEX_PER_PAGE >= s->index_pages->len)
        g_ptr_array_add(s->index_pages, g_malloc(AUDIT_PAGE_BYTES));
    memcpy(audit_at(s->end), packed, n);
    *audit_place(s->count++) = s->end;
    s->end += (uint32_t)n;
}

/* Drops what was kept for this frame number from this report on: the first pass of
 * tshark -2 -R reuses the number of a frame its read filter dropped. */
static void audit_forget(uint32_t frame, unsigned report)
{
    audit_store_t *s = &audit_store;

    while (s->pages && s->count) {
        uint32_t place = *audit_place(s->count - 1);
        const uint8_t *p = audit_at(place);
        if (record_frame(p) != frame || p[AUDIT_AT_REPORT] < report)
            return;
        s->end = place;
        s->count--;
    }
}

static void audit_unpack(const uint8_t *p, audit_record_t *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->result.count = MIN(p[AUDIT_AT_COUNT] & 0x7Fu,
                            (unsigned)G_N_ELEMENTS(rec->result.findings));
    rec->unauthenticated = p[AUDIT_AT_COUNT] & AUDIT_UNAUTHENTICATED;
    p += AUDIT_HEADER_BYTES;
    for (unsigned i = 0; i < rec->result.count; i++) {
        bthome_finding_t *f = &rec->result.findings[i];
        f->kind = (bthome_finding_kind_t)(p[0] & 0x3);
        f->replay = (bthome_replay_kind_t)(p[0] >> 2 & 0x3);
        f->same_packet_id = p[0] >> 4 & 1;
        memcpy(&f->prev_frame, p + 1, 4);
        p += 5;
        if (f->kind == BTHOME_FINDING_REPLAY) {
            memcpy(&f->prev_counter, p, 4);
            p += 4;
        }
    }
}

static bool audit_kept(uint32_t frame, unsigned report, audit_record_t *rec)
{
    audit_store_t *s = &audit_store;
    unsigned lo = 0, hi = s->count;

    if (!s->pages)
        return false;
    while (lo < hi) {       /* first record of the frame */
        unsigned mid = lo + (hi - lo) / 2;
        if (audit_frame(mid) < frame)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->count && audit_frame(lo) == frame; lo++) {
        const uint8_t *p = audit_at(*audit_place(lo));
        if (p[AUDIT_AT_REPORT] == (uint8_t)report) {
            audit_unpack(p, rec);
            return true;
        }
    }
    return false;
}

static bool audit_report(report_t *r, audit_record_t *rec)
{
    bool keyed;

    if (PINFO_FD_VISITED(r->pinfo))
        return audit_kept(r->pinfo->num, r->report, rec);
    keyed = bthome_keys_device_has_key(r->device);
    r->audit.frame = r->pinfo->num;
    r->audit.digest = bthome_digest(r->data, r->len);
    r->audit.encrypted = r->hdr.encrypted;
    r->audit.key_configured = keyed;
    /* Only what a key verified enters a keyed device's history: a forged frame must not
     * poison it. */
    r->audit.keep = !keyed || r->authenticated;
    bthome_audit_advert(&r->state->history, &r->audit, &rec->result);
    if (rec->result.count == 0)
        return false;
    rec->unauthenticated = r->hdr.encrypted && !r->authenticated;
    audit_keep(r->pinfo->num, r->report, rec);
    return true;
}

static const char *replay_text(packet_info *pinfo, const bthome_finding_t *f, uint32_t counter)
{
    switch (f->replay) {
    case BTHOME_REPLAY_OF_FRAME:
        return wmem_strdup_printf(pinfo->pool,
            "Replay of frame %u: same counter %u and same payload", f->prev_frame, counter);
    case BTHOME_REPLAY_RESET:
        return wmem_strdup_printf(pinfo->pool,
            "Counter %u is not greater than %u (frame %u): likely a counter reset "
            "(device restarted, e.g. battery change)", counter, f->prev_counter, f->prev_frame);
    case BTHOME_REPLAY_WRAP:
        return wmem_strdup_printf(pinfo->pool,
            "Counter %u is not greater than %u (frame %u): likely a counter wrap",
            counter, f->prev_counter, f->prev_frame);
    default:
        return wmem_strdup_printf(pinfo->pool,
            "Counter %u is not greater than %u (frame %u): replay of an old frame",
            counter, f->prev_counter, f->prev_frame);
    }
}

static const char *finding_text(report_t *r, const bthome_finding_t *f)
{
    packet_info *pinfo = r->pinfo;

    switch (f->kind) {
    case BTHOME_FINDING_DUPLICATE:
        return f->same_packet_id
            ? wmem_strdup_printf(pinfo->pool, "Retransmission: same packet id %d as frame %u",
                                 r->audit.packet_id, f->prev_frame)
            : wmem_strdup_printf(pinfo->pool, "Retransmission of frame %u (identical payload)",
                                 f->prev_frame);
    case BTHOME_FINDING_COUNTER_REUSE:
        return wmem_strdup_printf(pinfo->pool,
            "Counter %u already used in frame %u with another ciphertext: nonce reuse "
            "leaks the plaintext", r->audit.counter, f->prev_frame);
    case BTHOME_FINDING_REPLAY:
        return replay_text(pinfo, f, r->audit.counter);
    default:
        return f->prev_frame
            ? wmem_strdup_printf(pinfo->pool,
                  "Plaintext from a device seen encrypted in frame %u", f->prev_frame)
            : "Plaintext from a device that has a key configured";
    }
}

static const struct {
    expert_field *ei;
    const char *marker;     /* appended to the Info column summary */
} finding_display[] = {
    [BTHOME_FINDING_DUPLICATE] = { &ei_duplicate, " [duplicate]" },
    [BTHOME_FINDING_COUNTER_REUSE] = { &ei_counter_reuse, " [counter reuse]" },
    [BTHOME_FINDING_REPLAY] = { &ei_replay, " [replay]" },
    [BTHOME_FINDING_DOWNGRADE] = { &ei_downgrade, " [downgrade]" },
};

static void add_findings(report_t *r, const audit_record_t *rec)
{
    for (unsigned i = 0; i < rec->result.count; i++) {
        const bthome_finding_t *f = &rec->result.findings[i];
        expert_field *ei = finding_display[f->kind].ei;
        proto_item *at = r->item;

        if (f->prev_frame && r->tree) {
            at = proto_tree_add_uint(r->tree, hf_enc_prev_frame, report_tvb(r), 0, 0,
                                     f->prev_frame);
            proto_item_set_generated(at);
        }
        if (expert_text_needed(r, at, ei)) {
            const char *text = finding_text(r, f);
            if (rec->unauthenticated && f->kind != BTHOME_FINDING_DUPLICATE)
                text = wmem_strdup_printf(r->pinfo->pool,
                    "%s (counter unauthenticated: no key for this device)", text);
            expert_add_info_format(r->pinfo, at, ei, "%s", text);
        }
        summary_append(&r->summary, finding_display[f->kind].marker);
    }
}

static void audit(report_t *r)
{
    audit_record_t rec;

    /* r->cut: no digest of part of an advert */
    if (!r->state || r->audit_skip || r->cut || !audit_report(r, &rec))
        return;
    add_findings(r, &rec);
    for (unsigned i = 0; i < rec.result.count; i++)
        r->duplicate = r->duplicate || rec.result.findings[i].kind == BTHOME_FINDING_DUPLICATE;
}

/* ---- Device identity --------------------------------------------------------------- */

/* Where the service data sits among the bytes of the frame it came from (its data
 * source); wire_len: the frame's length before the capture's snap length cut it. */
static bool locate_in_frame(const report_t *r, tvbuff_t **source, const uint8_t **frame,
                            size_t *frame_len, size_t *wire_len, size_t *pos)
{
    const sd_place_t *at = &r->place;
    tvbuff_t *ds = tvb_get_ds_tvb(at->tvb ? at->tvb : at->frame);
    unsigned ds_len = ds ? tvb_captured_length(ds) : 0;
    const uint8_t *data;
    uintptr_t mine, base;

    if (r->len == 0 || ds_len == 0)
        return false;
    data = tvb_get_ptr(ds, 0, (int)ds_len);
    mine = (uintptr_t)r->data;
    base = (uintptr_t)data;
    if (mine < base || mine + r->len > base + ds_len)
        return false;     /* not a view of the frame (e.g. a reassembled buffer) */
    *source = ds;
    *frame = data;
    *frame_len = ds_len;
    *wire_len = tvb_reported_length(ds);
    *pos = mine - base;
    return true;
}

/* The Local Name this very advertisement carries, if any. */
static const char *advert_name(report_t *r)
{
    tvbuff_t *source;
    const uint8_t *frame;
    size_t frame_len, wire_len, pos, name_pos, name_len;
    bthome_adv_span_t adv;

    if (!r->advertiser || !locate_in_frame(r, &source, &frame, &frame_len, &wire_len, &pos) ||
        pos < BTHOME_AD_SERVICE_DATA_HEADER + 1 ||
        !bthome_locate_adv_data(frame, frame_len, wire_len,
                                pos - BTHOME_AD_SERVICE_DATA_HEADER - 1, r->advertiser, &adv))
        return NULL;
    adv.end = MIN(adv.end, frame_len);      /* a name the capture cut off is none */
    if (!bthome_adv_local_name(frame, &adv, &name_pos, &name_len))
        return NULL;
    return (const char *)tvb_get_string_enc(r->pinfo->pool, source, (int)name_pos,
                                            (int)name_len, ENC_UTF_8);
}

/* The advertisement's own Local Name, else the first one the device sent earlier in the
 * capture (names often come in other adverts, or scan responses, than the readings). */
static const char *device_name(report_t *r, device_t *dev, bool shown)
{
    const char *name;

    /* Finding a name walks the advert's structures: skipped when nothing shows it and
     * the device already has its first one. */
    if (!shown && dev->name && dev->name_frame <= r->pinfo->num)
        return NULL;
    name = advert_name(r);

    if (name && (!dev->name || r->pinfo->num < dev->name_frame)) {
        dev->name = wmem_strdup(wmem_file_scope(), name);
        dev->name_frame = r->pinfo->num;
    }
    if (name)
        return name;
    return dev->name && dev->name_frame < r->pinfo->num ? dev->name : NULL;
}

static void add_device(report_t *r)
{
    proto_item *item;
    bool name_item;

    if (!r->device)
        return;
    if (field_wanted(r->tree, hf_device)) {
        item = proto_tree_add_ether(r->tree, hf_device, report_tvb(r), 0, 0, r->device);
        proto_item_set_generated(item);
    }
    name_item = field_wanted(r->tree, hf_device_name);
    r->state = device_state(r->device);
    r->device_name = r->state ? device_name(r, r->state, name_item || r->readings) : NULL;
    if (!r->device_name || !name_item)
        return;
    item = proto_tree_add_string(r->tree, hf_device_name, report_tvb(r), 0, 0, r->device_name);
    proto_item_set_generated(item);
    if (PTREE_DATA(r->tree)->visible)   /* the label is only read where it is shown */
        proto_item_append_text(r->item, ", %s", r->device_name);
}

/* One tap record per advertisement, for statistics and other listeners. */
static void queue_tap(report_t *r)
{
    bthome_advert_t *ad;

    if (!r->readings)
        return;
    ad = wmem_new0(r->pinfo->pool, bthome_advert_t);
    ad->frame = r->pinfo->num;
    ad->has_device = r->device != NULL;
    if (r->device)
        memcpy(ad->device, r->device, BTHOME_MAC_LEN);
    ad->device_name = r->device_name;
    ad->version = r->version;
    ad->encrypted = r->hdr.encrypted;
    ad->decrypted = r->authenticated;
    ad->duplicate = r->duplicate;
    ad->reading_count = wmem_array_get_count(r->readings);
    ad->readings = (const bthome_reading_t *)wmem_array_get_raw(r->readings);
    tap_queue_packet(bthome_tap, r->pinfo, ad);
}

static bool service_data_table_hooked;     /* 4.2+: btcommon's table calls the plugin */

/* Several BTHome service data in one frame (HCI reports): they are numbered, and every
 * summary stays in the Info column. Wireshark already counts each protocol's layers in a
 * frame (curr_proto_layer_num) as it calls dissectors: the table calls BTHome once per
 * service data; the postdissector's make one layer it sets up itself. Reading that count
 * is free; a counter of our own in the frame's proto data (a list walk and an allocation
 * per advert) is only kept for a call that added no layer. */
static bool called_as_layer(packet_info *pinfo)
{
    wmem_list_frame_t *last = pinfo->layers ? wmem_list_tail(pinfo->layers) : NULL;

    return last && GPOINTER_TO_INT(wmem_list_frame_data(last)) == proto_bthome;
}

static unsigned *own_report_counter(packet_info *pinfo, bool create)
{
    unsigned *reports = (unsigned *)p_get_proto_data(pinfo->pool, pinfo, proto_bthome, 0);

    if (!reports && create) {
        reports = wmem_new0(pinfo->pool, unsigned);
        p_add_proto_data(pinfo->pool, pinfo, proto_bthome, 0, reports);
    }
    return reports;
}

/* The number of service data handed over by btcommon's table (4.2+). */
static unsigned table_report(packet_info *pinfo)
{
    if (called_as_layer(pinfo))
        return pinfo->curr_proto_layer_num;
    return ++*own_report_counter(pinfo, true);
}

/* The BTHome layers Wireshark pushed for this frame: one per service data btcommon's
 * table handed over (4.2+). */
static unsigned table_layers(packet_info *pinfo)
{
    unsigned layers = 0;

    if (!service_data_table_hooked || !pinfo->layers)
        return 0;
    for (wmem_list_frame_t *f = wmem_list_head(pinfo->layers); f; f = wmem_list_frame_next(f))
        layers += GPOINTER_TO_INT(wmem_list_frame_data(f)) == proto_bthome;
    return layers;
}

/* The number of the first service data the postdissector decodes: after the table's. */
static unsigned first_post_report(packet_info *pinfo, unsigned layers)
{
    const unsigned *reports = service_data_table_hooked ? own_report_counter(pinfo, false)
                                                        : NULL;

    return (reports ? *reports : layers) + 1;
}

static void add_v2(report_t *r)
{
    bthome_header_status_t status = bthome_parse_v2_header(r->data, r->len, &r->hdr);

    if (status == BTHOME_HEADER_EMPTY) {
        if (!r->cut) {
            proto_tree_add_expert_format(r->tree, r->pinfo, &ei_truncated, report_tvb(r), 0, 0,
                "Empty service data: no device information byte");
            summary_append(&r->summary, "[empty]");
        }
        return;
    }
    r->device = r->hdr.has_mac ? r->hdr.mac : r->advertiser;
    add_device(r);
    add_header(r, status);
    add_body(r, status);
    if (status == BTHOME_HEADER_OK)
        audit(r);
}

/* v1 has no header: the UUID says whether the objects are encrypted. */
static void add_v1(report_t *r, bool encrypted)
{
    memset(&r->hdr, 0, sizeof r->hdr);
    r->device = r->advertiser;
    add_device(r);
    if (expert_text_needed(r, r->item, &ei_legacy_v1))
        expert_add_info_format(r->pinfo, r->item, &ei_legacy_v1,
            "Device uses the deprecated BTHome v1 format (UUID 0x%04X)",
            encrypted ? BTHOME_UUID_V1_ENCRYPTED : BTHOME_UUID_V1);
    add_version_items(r, 1, encrypted, 0);
    r->hdr.encrypted = encrypted;
    if (r->len == 0) {
        if (!r->cut) {
            proto_tree_add_expert_format(r->tree, r->pinfo, &ei_truncated, report_tvb(r), 0, 0,
                "Empty service data: no objects");
            summary_append(&r->summary, "[empty]");
        }
        return;
    }
    if (encrypted)
        add_encrypted(r);
    else
        r->audit.packet_id = add_objects(r, NULL, 0);
    audit(r);
}

/* BTHome's summary replaces the link layer's Info; later reports of the frame follow it.
 * The summary is in pinfo->pool, which lives as long as the column, and made of the
 * table's own text: the column can point at it instead of copying it through Wireshark's
 * escaping (on 4.6 that copy cost about as much as the rest of a summary run's BTHome
 * work). Text objects carry the advert's own bytes, and the column's limit still holds:
 * those go through the copy. */
static void set_info_column(packet_info *pinfo, const report_t *r)
{
    if (r->report > 1)
        col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", r->summary.text);
    else if (r->summary.untrusted || r->summary.len >= COL_MAX_INFO_LEN)
        col_add_str(pinfo->cinfo, COL_INFO, r->summary.text);
    else
        col_set_str(pinfo->cinfo, COL_INFO, r->summary.text);
}

/* The bytes of the service data at place, as far as the capture has them; whether it cut
 * the service data short. */
static bool read_place(report_t *r, const sd_place_t *place)
{
    unsigned wire_len;

    r->place = *place;
    if (place->tvb) {
        r->len = tvb_captured_length(place->tvb);
        wire_len = tvb_reported_length(place->tvb);
        r->data = r->len ? tvb_get_ptr(place->tvb, 0, (int)r->len) : NULL;
    } else {    /* a span of the bytes the frame's search read */
        r->len = place->start < place->frame_captured
                 ? MIN(place->length, place->frame_captured - place->start) : 0;
        wire_len = place->length;
        r->data = r->len ? place->frame_bytes + place->start : NULL;
    }
    return wire_len > r->len;
}

/* Dissects BTHome service data. advertiser: the frame's advertiser address in display
 * order, NULL when the link does not tell. Returns whether the capture cut the service
 * data short. */
static bool dissect_bthome(const sd_place_t *place, packet_info *pinfo, proto_tree *tree,
                           unsigned uuid, const uint8_t *advertiser, unsigned report)
{
    report_t r;

    /* A tree that shows nothing of BTHome (not visible, no BTHome or expert field in a
     * filter or column, the _ws.expert ones needing our expert items; 4.0 builds one for
     * every frame for its postdissectors): build none. */
    if (tree && !proto_field_is_referenced(tree, proto_bthome) &&
        (proto_expert <= 0 || !proto_field_is_referenced(tree, proto_expert)))
        tree = NULL;
    memset(&r, 0, REPORT_ZEROED_BYTES);
    r.version = uuid == BTHOME_UUID_V2 ? 2 : 1;
    r.cut = read_place(&r, place);
    r.pinfo = pinfo;
    r.report = report;
    if (!PINFO_FD_VISITED(pinfo))
        audit_forget(pinfo->num, r.report);
    r.advertiser = advertiser;
    summary_init(&r.summary, pinfo->pool);
    if (have_tap_listener(bthome_tap))
        r.readings = wmem_array_new(pinfo->pool, sizeof(bthome_reading_t));
    r.audit = (bthome_audit_input_t){ .packet_id = -1 };
    if (tree) {
        r.item = proto_tree_add_item(tree, proto_bthome, report_tvb(&r), 0, -1, ENC_NA);
        r.tree = proto_item_add_subtree(r.item, ett_bthome);
        proto_item_set_text(r.item, "BTHome v%u", r.version);
    }
    if (r.version == 2)
        add_v2(&r);
    else
        add_v1(&r, uuid == BTHOME_UUID_V1_ENCRYPTED);
    queue_tap(&r);
    col_set_str(pinfo->cinfo, COL_PROTOCOL, bthome_short_name);
    set_info_column(pinfo, &r);
    return r.cut;
}

/* The link layer's advertiser address: AdvA on LL captures (btle sets it as source). */
static const uint8_t *link_advertiser(packet_info *pinfo)
{
    return pinfo->src.type == AT_ETHER && pinfo->src.len == BTHOME_MAC_LEN
        ? (const uint8_t *)pinfo->src.data : NULL;
}

/* Wireshark 4.2+: btcommon hands over the service data of a BTHome UUID, with the HCI
 * report's address when there is one. */
static int dissect_service_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                void *data, unsigned uuid)
{
    const bluetooth_eir_ad_data_t *ad = (const bluetooth_eir_ad_data_t *)data;
    const sd_place_t place = { .tvb = tvb };

    /* Service data the capture cut short: everything captured is decoded; the bounds
     * exception is Wireshark's own mark of it ("[Packet size limited during capture]"),
     * as for any protocol */
    if (dissect_bthome(&place, pinfo, tree, uuid,
                       ad && ad->bd_addr ? ad->bd_addr : link_advertiser(pinfo),
                       table_report(pinfo)))
        tvb_ensure_bytes_exist(tvb, 0, (int)tvb_reported_length(tvb));
    return (int)tvb_captured_length(tvb);
}

static int dissect_v2_service_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                   void *data)
{
    return dissect_service_data(tvb, pinfo, tree, data, BTHOME_UUID_V2);
}

static int dissect_v1_service_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                   void *data)
{
    return dissect_service_data(tvb, pinfo, tree, data, BTHOME_UUID_V1);
}

static int dissect_v1_encrypted_service_data(tvbuff_t *tvb, packet_info *pinfo,
                                             proto_tree *tree, void *data)
{
    return dissect_service_data(tvb, pinfo, tree, data, BTHOME_UUID_V1_ENCRYPTED);
}

/* Other dissectors' fields in a shown tree (the fallback of locate_service_data): the
 * plugin asks for none, so that no run builds a tree for its sake. */
static GPtrArray *frame_fields(proto_tree *tree, int hf)
{
    return hf > 0 ? proto_find_finfo(tree, hf) : NULL;
}

static void free_frame_fields(GPtrArray *fields)
{
    if (fields)
        g_ptr_array_free(fields, TRUE);
}

/* HCI: the address of the advertising report holding the service data at start, i.e. the
 * nearest report address before it (on the wire least significant byte first). */
static int hci_report_address(proto_tree *tree, const tvbuff_t *ds, int start)
{
    GPtrArray *addrs = frame_fields(tree, hf_hci_bd_addr);
    int best = -1;

    for (unsigned i = 0; addrs && i < addrs->len; i++) {
        const field_info *fi = (const field_info *)g_ptr_array_index(addrs, i);
        if (fi->ds_tvb == ds && fi->length == BTHOME_MAC_LEN && fi->start < start &&
            fi->start > best)
            best = fi->start;
    }
    free_frame_fields(addrs);
    return best;
}

/* A BTHome service data in the frame: where (after the UUID), which UUID, whose. */
typedef struct {
    uint16_t start, length, uuid;
    uint16_t address_at;        /* 1 + offset of the HCI report address; 0: the link's */
    bool has_advertiser;
    uint8_t advertiser[BTHOME_MAC_LEN];
} located_t;

typedef struct {
    unsigned count;
    located_t *at;
    /* The frame's captured bytes, their number and the frame's on the wire, as
     * locate_in_bytes read them: set whenever the list holds service data (found in these
     * bytes, or in the shown tree of a frame they had candidates in). */
    const uint8_t *bytes;
    unsigned captured, wire;
} located_list_t;

/* Room for the service data of a frame of up to 256 bytes (one AD structure per 4 bytes
 * at most) on the caller's stack: a pool allocation per frame cost about 80 instructions
 * on 4.0, where every advert goes this way. Longer frames get room in the pool. */
#define LOCATED_ON_STACK 64

static void located_make_room(located_list_t *list, size_t needed, wmem_allocator_t *scope)
{
    if (needed > LOCATED_ON_STACK)
        list->at = (located_t *)wmem_alloc(scope, needed * sizeof(located_t));
}

/* The advertiser for a located service data: the HCI report's, else the link's
 * (link_advertiser). */
static void located_set_advertiser(located_t *at, tvbuff_t *frame, const uint8_t *link)
{
    at->has_advertiser = at->address_at || link;
    if (at->address_at) {
        bthome_mac_reverse(at->advertiser,
                           tvb_get_ptr(frame, at->address_at - 1, BTHOME_MAC_LEN));
    } else if (link) {
        memcpy(at->advertiser, link, BTHOME_MAC_LEN);
    }
}

/* The BTHome service data AD structures btcommon dissected in this frame's shown tree,
 * when its bytes did not place them (4.2+: the empty ones only), into list (its room for
 * LOCATED_ON_STACK). */
static void locate_service_data(tvbuff_t *frame, packet_info *pinfo, proto_tree *tree,
                                located_list_t *list)
{
    GPtrArray *types = frame_fields(tree, hf_eir_ad_type);
    const uint8_t *link = link_advertiser(pinfo);
    unsigned n = 0;

    for (unsigned i = 0; types && i < types->len; i++) {
        field_info *fi = (field_info *)g_ptr_array_index(types, i);
        int start = fi->start;
        unsigned ad_len;
        int address;
        located_t *at;

        if (fi->ds_tvb != frame || start < 1 ||
            tvb_captured_length_remaining(frame, start) < BTHOME_AD_SERVICE_DATA_HEADER ||
            tvb_get_uint8(frame, start) != BTHOME_AD_SERVICE_DATA_16 ||
            !bthome_is_service_uuid(tvb_get_letohs(frame, start + 1)))
            continue;
        ad_len = tvb_get_uint8(frame, start - 1);
        if (ad_len < BTHOME_AD_SERVICE_DATA_HEADER ||
            (service_data_table_hooked && ad_len != BTHOME_AD_SERVICE_DATA_HEADER))
            continue;       /* 4.2+: the table had the others */
        if (n == 0)
            located_make_room(list, types->len, pinfo->pool);
        at = &list->at[n++];
        at->start = (uint16_t)(start + BTHOME_AD_SERVICE_DATA_HEADER);
        at->length = (uint16_t)MIN(tvb_captured_length_remaining(frame, at->start),
                                   (int)ad_len - BTHOME_AD_SERVICE_DATA_HEADER);
        at->uuid = tvb_get_letohs(frame, start + 1);
        address = hci_report_address(tree, frame, start);
        at->address_at = (uint16_t)(address >= 0 ? MIN(address + 1, 0xFFFF) : 0);
        located_set_advertiser(at, frame, link);
    }
    free_frame_fields(types);
    list->count = n;
}

/* The BTHome service data of the frame, from its bytes (bthome_next_service_data), in any
 * run: asking btcommon's fields for them (wanted hfids) would make tshark build a tree for
 * every frame of any protocol. HCI reports give their own address, else the link's is the
 * advertiser. empty_only (4.2+): the table has all the others. Into list, as
 * locate_service_data. */
static void locate_in_bytes(tvbuff_t *frame, packet_info *pinfo, bool empty_only,
                            bool *candidates, located_list_t *list)
{
    unsigned len = tvb_captured_length(frame), n = 0, wire_len;
    const uint8_t *bytes = len ? tvb_get_ptr(frame, 0, (int)len) : NULL;
    const uint8_t *link;
    bthome_service_data_t sd;
    size_t pos = 0;

    *candidates = false;
    list->count = 0;
    /* 4.2+ looks at every frame for the rare empty one: a first look spares the rest */
    if (empty_only && !bthome_has_service_data_candidate(bytes, len, true))
        return;
    wire_len = tvb_reported_length(frame);
    link = link_advertiser(pinfo);
    while (bthome_next_service_data(bytes, len, wire_len, link, empty_only, &pos, candidates,
                                    &sd)) {
        located_t *at;

        if (n == 0)     /* one AD structure per 4 bytes at most */
            located_make_room(list, len / 4 + 1, pinfo->pool);
        at = &list->at[n++];
        at->start = (uint16_t)sd.start;
        at->length = (uint16_t)sd.length;
        at->uuid = sd.uuid;
        at->address_at = (uint16_t)(link ? 0 : sd.adv.address + 1);
        located_set_advertiser(at, frame, link);
    }
    list->count = n;
    list->bytes = bytes;
    list->captured = len;
    list->wire = wire_len;
}

/* The located service data of one frame, as one BTHome layer. Called directly, not
 * through a BTHome handle: Wireshark would push that layer and pop it again (4.0: about
 * 600 instructions a frame, and no layer stays, as the call returns no length). What the
 * layer gives is set here: the protocol expert infos and bounds marks name, and the
 * fields' layer number (`bthome.temperature#1`). */
static void decode_located(tvbuff_t *frame, packet_info *pinfo, proto_tree *tree,
                           const located_list_t *list)
{
    const char *saved_proto = pinfo->current_proto;
    uint8_t saved_layer = pinfo->curr_proto_layer_num;
    unsigned layers = table_layers(pinfo);
    unsigned first = first_post_report(pinfo, layers);
    sd_place_t place = { .frame = frame, .frame_bytes = list->bytes,
                         .frame_captured = list->captured };
    bool last_cut = false;

    pinfo->current_proto = bthome_short_name;
    pinfo->curr_proto_layer_num = (uint8_t)MIN(layers + 1, UINT8_MAX);
    for (unsigned i = 0; i < list->count; i++) {
        const located_t *at = &list->at[i];
        place.start = at->start;
        place.length = at->length;
        last_cut = dissect_bthome(&place, pinfo, tree, at->uuid,
                                  at->has_advertiser ? at->advertiser : NULL, first + i);
    }
    /* A frame the capture cut short: its dissectors' bounds exception marked the Info
     * column, which BTHome's first summary has just replaced (later ones append); marked
     * again here, with the tree item over the last service data when it is BTHome that
     * lost bytes. No exception from a postdissector: the others would miss the frame. */
    if (first == 1 && list->wire > list->captured)   /* the snap length cut the frame */
        show_exception(last_cut && tree ? tvb_new_subset_length(frame, (int)place.start,
                                                                (int)place.length) : frame,
                       pinfo, last_cut ? tree : NULL, BoundsError, NULL);
    pinfo->current_proto = saved_proto;
    pinfo->curr_proto_layer_num = saved_layer;
}

/* Wireshark 4.0 has no service-data table: this finds every BTHome service data. 4.2+
 * has the table but does not consult it for empty service data: there this only reports
 * those. Both from the frame's bytes, the same in every pass. */
static int dissect_bthome_post(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                               void *data _U_)
{
    bool candidates;
    located_t room[LOCATED_ON_STACK];
    located_list_t list = { 0, room, NULL, 0, 0 };

    locate_in_bytes(tvb, pinfo, service_data_table_hooked, &candidates, &list);
    /* an advertisement whose layout the bytes do not tell (no known case: extended
     * advertising PDUs and frames cut short are placed too): a shown tree's btcommon
     * fields still do */
    if (!list.count && candidates && tree && PTREE_DATA(tree)->visible)
        locate_service_data(tvb, pinfo, tree, &list);
    if (list.count)
        decode_located(tvb, pinfo, tree, &list);
    return 0;
}

/* ---- Registration --------------------------------------------------------------- */

static void bthome_init(void)
{
    /* registered after the handoffs, so looked up here */
    expert_tap = find_tap_id("expert");
    audit_store.pages = g_ptr_array_new_with_free_func(g_free);
    audit_store.index_pages = g_ptr_array_new_with_free_func(g_free);
    audit_store.count = 0;
    audit_store.end = 0;
    device_histories = g_hash_table_new(g_int64_hash, g_int64_equal);
}

static void bthome_cleanup(void)
{
    if (audit_store.pages) {
        g_ptr_array_free(audit_store.pages, TRUE);
        g_ptr_array_free(audit_store.index_pages, TRUE);
    }
    memset(&audit_store, 0, sizeof audit_store);
    if (device_histories)       /* the histories themselves are in file scope */
        g_hash_table_destroy(device_histories);
    device_histories = NULL;
    memset(device_cache, 0, sizeof device_cache);
}

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
    value_string *vals = (value_string *)wmem_alloc0(wmem_epan_scope(),
                                                     (strlen(words) + 1) * sizeof *vals);

    while (bthome_words_next(&cursor, &index, &w)) {
        vals[n].value = (uint32_t)w.value;
        vals[n++].strptr = wmem_strndup(wmem_epan_scope(), w.word, w.word_len);
    }
    return vals;
}

static const true_false_string *words_to_tfs(const char *words)
{
    const char *cursor = words;
    int64_t index = 0;
    bthome_word_t w;
    true_false_string *tfs = wmem_new0(wmem_epan_scope(), true_false_string);

    while (bthome_words_next(&cursor, &index, &w))
        *(w.value ? &tfs->true_string : &tfs->false_string) =
            wmem_strndup(wmem_epan_scope(), w.word, w.word_len);
    return tfs;
}

static const void *unit_string(const char *unit)
{
    unit_name_string *u = wmem_new0(wmem_epan_scope(), unit_name_string);
    u->singular = wmem_strdup_printf(wmem_epan_scope(), " %s", unit);
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
    case BTHOME_KIND_ENUM: case BTHOME_KIND_EVENT: case BTHOME_KIND_DIMMER:
    case BTHOME_KIND_COMMAND:
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
    wmem_strbuf_t *blurb = wmem_strbuf_new(wmem_epan_scope(), "");
    size_t ids = 0;

    for (size_t i = first; i < n; i++)
        ids += strcmp(defs[i]->field, defs[first]->field) == 0;
    wmem_strbuf_append(blurb, ids > 1 ? "Object IDs" : "Object ID");
    ids = 0;
    for (size_t i = first; i < n; i++)
        if (strcmp(defs[i]->field, defs[first]->field) == 0)
            wmem_strbuf_append_printf(blurb, "%s 0x%02X", ids++ ? "," : "", defs[i]->id);
    if (defs[first]->unit[0])
        wmem_strbuf_append_printf(blurb, "; unit %s", defs[first]->unit);
    return wmem_strbuf_finalize(blurb);
}

/* One hf per distinct field of the object table. Wireshark keeps pointers into the
 * array and its strings until it shuts down: they live in the epan scope, freed then. */
static void register_table_fields(void)
{
    size_t n, nfields = 0;
    const bthome_object_def_t *const *defs = bthome_object_defs(&n);
    hf_register_info *hf = (hf_register_info *)wmem_alloc0(wmem_epan_scope(), n * sizeof *hf);
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
            wmem_strdup_printf(wmem_epan_scope(), "bthome.%s", defs[i]->field), FT_NONE,
            BASE_NONE, NULL, 0x0,
            field_blurb(defs, n, i), HFILL } };
        hf[f] = r;
        hf_table[f] = -1;
        describe_field(defs, n, i, &hf[f]);
        table_field_type[f] = hf[f].hfinfo.type;
    }
    proto_register_field_array(proto_bthome, hf, (int)nfields);
    index_own_fields(hf, nfields);
}

#define OBJECT_ID_NAME(id_, name_, ...) { id_, name_ },
static const value_string object_id_vals[] = {
    BTHOME_OBJECT_TABLE(OBJECT_ID_NAME)
    { 0, NULL }
};

/* v1 format names, from the core; filled at registration. */
static value_string v1_format_vals[8];

static void fill_v1_format_vals(void)
{
    unsigned n = 0;

    for (unsigned f = 0; f < array_length(v1_format_vals) - 1; f++)
        if (bthome_v1_format_name(f))
            v1_format_vals[n++] = (value_string){ f, bthome_v1_format_name(f) };
}

static void proto_register_bthome(void)
{
    static hf_register_info hf[] = {
        { &hf_device, { "Device", "bthome.device", FT_ETHER, BASE_NONE, NULL, 0x0,
            "The device: its included MAC, else the advertiser address", HFILL } },
        { &hf_device_name, { "Device name", "bthome.device_name", FT_STRING, BASE_NONE, NULL,
            0x0, "Local Name of this advertisement, or of an earlier one of the device",
            HFILL } },
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
        { &hf_enc_ciphertext, { "Ciphertext", "bthome.encryption.ciphertext", FT_BYTES,
            BASE_NONE, NULL, 0x0, NULL, HFILL } },
        { &hf_enc_counter, { "Counter", "bthome.encryption.counter", FT_UINT32, BASE_DEC_HEX,
            NULL, 0x0, "Must increase from one advertisement of the device to the next",
            HFILL } },
        { &hf_enc_mic, { "MIC", "bthome.encryption.mic", FT_BYTES, BASE_NONE, NULL, 0x0,
            "4-byte AES-CCM tag", HFILL } },
        { &hf_enc_nonce, { "Nonce", "bthome.encryption.nonce", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Device MAC, UUID, device information byte, counter", HFILL } },
        { &hf_enc_decrypted, { "Decrypted", "bthome.encryption.decrypted", FT_BOOLEAN,
            BASE_NONE, NULL, 0x0, "The MIC verified with a configured key", HFILL } },
        { &hf_enc_key_mac, { "Key", "bthome.encryption.key_mac", FT_STRING, BASE_NONE,
            NULL, 0x0, "The key entry that decrypted it: its MAC, or *", HFILL } },
        { &hf_enc_prev_frame, { "Earlier frame", "bthome.encryption.prev_frame", FT_FRAMENUM,
            BASE_NONE, NULL, 0x0, "The earlier frame of the device an audit finding refers to",
            HFILL } },
        { &hf_v1_length, { "Length", "bthome.v1.length", FT_UINT8, BASE_DEC, NULL,
            BTHOME_V1_LENGTH_MASK, "v1 control byte: object length, ID byte included", HFILL } },
        { &hf_v1_format, { "Format", "bthome.v1.format", FT_UINT8, BASE_DEC,
            VALS(v1_format_vals), 0xE0, "v1 control byte: value format", HFILL } },
    };
    static int *ett[] = { &ett_bthome, &ett_info, &ett_object, &ett_encryption };


    fill_v1_format_vals();
    proto_bthome = proto_register_protocol(bthome_short_name, bthome_short_name, "bthome");
    proto_bthome_search = proto_register_protocol_in_name_only("BTHome service data search",
        "BTHome search", "bthome.search", proto_bthome, FT_PROTOCOL);
    bthome_tap = register_tap(BTHOME_TAP_NAME);
    bthome_register_readings_table();
    proto_register_field_array(proto_bthome, hf, array_length(hf));
    index_own_fields(hf, array_length(hf));
    register_table_fields();
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto_bthome), expert_infos,
                                array_length(expert_infos));

    bthome_keys_register(prefs_register_protocol(proto_bthome, NULL));
    register_init_routine(bthome_init);
    register_cleanup_routine(bthome_cleanup);
}

static void proto_reg_handoff_bthome(void)
{
    /* The postdissector runs for every frame, of any protocol. Its handle belongs to a
     * helper protocol (enabled with BTHome) so that Wireshark does not push and pop a
     * BTHome layer for each frame (about 300 instructions on 4.6): the frames that hold
     * BTHome get the layer's marks from decode_located. */
    dissector_handle_t post = create_dissector_handle(dissect_bthome_post, proto_bthome_search);

    /* Decided at run time, so one source serves 4.0 (no table) and 4.2+. */
    service_data_table_hooked = find_dissector_table("btcommon.eir_ad.entry.uuid") != NULL;
    if (service_data_table_hooked) {
        dissector_add_string("btcommon.eir_ad.entry.uuid", "fcd2",
            create_dissector_handle(dissect_v2_service_data, proto_bthome));
        dissector_add_string("btcommon.eir_ad.entry.uuid", "181c",
            create_dissector_handle(dissect_v1_service_data, proto_bthome));
        dissector_add_string("btcommon.eir_ad.entry.uuid", "181e",
            create_dissector_handle(dissect_v1_encrypted_service_data, proto_bthome));
    }
    hf_eir_ad_type = proto_registrar_get_id_byname("btcommon.eir_ad.entry.type");
    hf_hci_bd_addr = proto_registrar_get_id_byname("bthci_evt.bd_addr");
    register_postdissector(post);
}

void plugin_register(void)
{
    static proto_plugin plugin_bthome;
    static tap_plugin plugin_stats;

    plugin_bthome.register_protoinfo = proto_register_bthome;
    plugin_bthome.register_handoff = proto_reg_handoff_bthome;
    proto_register_plugin(&plugin_bthome);
    plugin_stats.register_tap_listener = bthome_register_stats;
    tap_register_plugin(&plugin_stats);
}

#if WSC_AT_LEAST(4, 4)
uint32_t plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif
