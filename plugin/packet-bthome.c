/* packet-bthome.c
 * Wireshark dissector for BTHome, the open BLE advertisement format for sensors: service
 * data UUID 0xFCD2 (v2), 0x181C and 0x181E (legacy v1, plain and encrypted).
 *
 * This file registers the protocol and hooks it to btcommon's service data, and dissects
 * one service data: header, encryption, device and audit findings. The format itself
 * (objects, crypto, audit rules) is the Wireshark-free core in core/; the objects' tree
 * is packet-bthome-objects.c (its fields packet-bthome-object-fields.c, generated),
 * per-device state bthome_device.c, the keys table bthome_keys.c, the statistics
 * bthome_stats.c and Wireshark 4.0's hook bthome_frame_search.c. This file uses them
 * through their headers; none of them uses this one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/tap.h>
#include <epan/dissectors/packet-bluetooth.h>

#include "bthome_audit.h"
#include "bthome_core.h"
#include "bthome_crypto.h"
#include "bthome_device.h"
#include "bthome_frame_search.h"
#include "bthome_keys.h"
#include "bthome_stats.h"
#include "bthome_summary.h"
#include "bthome_tap.h"
#include "bthome_tree.h"
#include "bthome_v1.h"
#include "packet-bthome-objects.h"
#include "packet-bthome.h"

#define BTHOME_UUID_TABLE "btcommon.eir_ad.entry.uuid"

static int proto_bthome = -1;
static int bthome_tap = -1;

static int hf_bthome_device = -1;
static int hf_bthome_device_name = -1;
static int hf_bthome_version = -1;
static int hf_bthome_info = -1;
static int hf_bthome_info_encrypted = -1;
static int hf_bthome_info_mac_included = -1;
static int hf_bthome_info_trigger_based = -1;
static int hf_bthome_info_reserved = -1;
static int hf_bthome_info_version = -1;
static int hf_bthome_mac = -1;
static int hf_bthome_encrypted = -1;
static int hf_bthome_encryption_ciphertext = -1;
static int hf_bthome_encryption_counter = -1;
static int hf_bthome_encryption_mic = -1;
static int hf_bthome_encryption_nonce = -1;
static int hf_bthome_encryption_decrypted = -1;
static int hf_bthome_encryption_key_mac = -1;
static int hf_bthome_encryption_prev_frame = -1;

static int ett_bthome = -1;
static int ett_bthome_info = -1;
static int ett_bthome_encryption = -1;

static expert_field ei_bthome_bad_version = EI_INIT;
static expert_field ei_bthome_too_short = EI_INIT;
static expert_field ei_bthome_no_address = EI_INIT;
static expert_field ei_bthome_no_key = EI_INIT;
static expert_field ei_bthome_mic_failure = EI_INIT;
static expert_field ei_bthome_counter_reuse = EI_INIT;
static expert_field ei_bthome_replay = EI_INIT;
static expert_field ei_bthome_duplicate = EI_INIT;
static expert_field ei_bthome_downgrade = EI_INIT;
static expert_field ei_bthome_legacy_v1 = EI_INIT;

static int * const info_bits[] = {
    &hf_bthome_info_version,
    &hf_bthome_info_reserved,
    &hf_bthome_info_trigger_based,
    &hf_bthome_info_mac_included,
    &hf_bthome_info_encrypted,
    NULL
};

/* One BTHome service data being dissected. */
typedef struct {
    tvbuff_t *tvb;              /* the service data after the UUID */
    const uint8_t *data;        /* its captured bytes */
    unsigned len;
    packet_info *pinfo;
    proto_tree *tree;           /* the BTHome subtree */
    proto_item *item;           /* the BTHome item */
    unsigned version;           /* 1 or 2 */
    unsigned report;            /* which BTHome service data of the frame, from 1: its
                                   BTHome layer (HCI events may hold several reports) */
    const uint8_t *advertiser;  /* the advertiser address, display order, or NULL */
    const uint8_t *device;      /* the included MAC, else the advertiser, or NULL */
    bthome_device_t *state;     /* what the capture told of the device so far */
    const char *device_name;
    bthome_v2_header_t hdr;
    bool cut;                   /* the capture's snap length cut the service data */
    bool mac_cut;               /* the announced MAC is missing: whose advert is unknown */
    bool decrypted;             /* a configured key verified the MIC */
    bool forged;                /* the MIC failed with the device's own key */
    bool duplicate;             /* the audit found a retransmission */
    bthome_audit_input_t audit;
    bthome_objects_ctx_t objects;
} report_t;

/* The HCI report's address, else the link layer's advertiser (AdvA: btle's source). */
static const uint8_t *advertiser_of(packet_info *pinfo, const bluetooth_eir_ad_data_t *ad)
{
    if (ad && ad->bd_addr)
        return ad->bd_addr;
    if (pinfo->src.type == AT_ETHER && pinfo->src.len == BTHOME_MAC_LEN)
        return (const uint8_t *)pinfo->src.data;
    return NULL;
}

/* v1 from the UUID, v2 from the device information byte (len 1). */
static void add_generated_version(report_t *r, unsigned version, bool encrypted, int len)
{
    proto_item *item;

    if (bthome_wanted(r->tree, hf_bthome_version)) {
        item = proto_tree_add_uint(r->tree, hf_bthome_version, r->tvb, 0, len, version);
        proto_item_set_generated(item);
    }
    if (bthome_wanted(r->tree, hf_bthome_encrypted)) {
        item = proto_tree_add_boolean(r->tree, hf_bthome_encrypted, r->tvb, 0, len, encrypted);
        proto_item_set_generated(item);
    }
}

/* The device: its included MAC, else the advertiser; and its name. */
static void add_device(report_t *r)
{
    proto_item *item;

    r->device = r->hdr.has_mac ? r->hdr.mac : r->advertiser;
    if (!r->device)
        return;
    if (bthome_wanted(r->tree, hf_bthome_device)) {
        item = proto_tree_add_ether(r->tree, hf_bthome_device, r->tvb, 0, 0, r->device);
        proto_item_set_generated(item);
    }
    r->state = bthome_device(r->device);
    r->device_name = bthome_device_name(r->state, r->tvb, r->pinfo, r->advertiser,
        bthome_wanted(r->tree, hf_bthome_device_name) || r->objects.readings);
    if (!r->device_name || !bthome_wanted(r->tree, hf_bthome_device_name))
        return;
    item = proto_tree_add_string(r->tree, hf_bthome_device_name, r->tvb, 0, 0, r->device_name);
    proto_item_set_generated(item);
    proto_item_append_text(r->item, ", %s", r->device_name);
}

static bool info_wanted(proto_tree *tree)
{
    if (bthome_wanted(tree, hf_bthome_info))
        return true;
    for (int *const *bit = info_bits; *bit; bit++)
        if (bthome_wanted(tree, **bit))
            return true;
    return false;
}

static bool encryption_wanted(proto_tree *tree)
{
    static int *const fields[] = {
        &hf_bthome_encryption_ciphertext, &hf_bthome_encryption_counter,
        &hf_bthome_encryption_mic, &hf_bthome_encryption_nonce,
        &hf_bthome_encryption_decrypted, &hf_bthome_encryption_key_mac, NULL
    };

    for (int *const *hf = fields; *hf; hf++)
        if (bthome_wanted(tree, **hf))
            return true;
    return false;
}

/* The v2 device information byte, and the MAC it may announce. */
static void add_v2_header(report_t *r, bthome_header_status_t status)
{
    const bthome_v2_header_t *hdr = &r->hdr;
    proto_item *item;

    add_generated_version(r, hdr->version, hdr->encrypted, 1);
    item = r->item;     /* the byte's expert infos hang on the bitmask, else here */
    if (info_wanted(r->tree))
        item = proto_tree_add_bitmask(r->tree, r->tvb, 0, hf_bthome_info, ett_bthome_info,
                                      info_bits, ENC_NA);
    if (hdr->version != 2)
        expert_add_info_format(r->pinfo, item, &ei_bthome_bad_version,
            "Version bits say %u, not 2: decoded as v2 anyway", hdr->version);
    if (hdr->reserved)
        bthome_expert_reserved_bits(r->pinfo, item, wmem_strdup_printf(r->pinfo->pool,
            "Reserved device information bits 3-4 set (0x%02x)", hdr->info & BTHOME_INFO_RESERVED));
    if (hdr->has_mac && bthome_wanted(r->tree, hf_bthome_mac))
        proto_tree_add_ether(r->tree, hf_bthome_mac, r->tvb, (int)hdr->mac_offset,
                             BTHOME_MAC_LEN, hdr->mac);
    else if (!hdr->has_mac && status == BTHOME_HEADER_MAC_CUT && !r->cut)
        bthome_expert_truncated(r->tree, r->pinfo, r->tvb, 1, (int)r->len - 1,
            wmem_strdup_printf(r->pinfo->pool,
                "Info bit 1 announces a 6-byte MAC, only %u bytes follow", r->len - 1));
}

static const char *mac_text(packet_info *pinfo, const uint8_t *mac)
{
    char *text = (char *)wmem_alloc(pinfo->pool, BTHOME_MAC_TEXT_LEN);

    bthome_format_mac(mac, text);
    return text;
}

/* The plaintext as its own data source, dissected like a plaintext advertisement. */
static void add_decrypted(report_t *r, uint8_t *plain, size_t len)
{
    tvbuff_t *child = tvb_new_child_real_data(r->tvb, plain, (unsigned)len, (int)len);

    add_new_data_source(r->pinfo, child, "Decrypted BTHome");
    bthome_summary_append(r->objects.summary, "[decrypted] ");
    r->decrypted = true;
    r->audit.packet_id = bthome_add_objects(&r->objects, child, 0, plain, r->version);
}

/* The nonce item and the decryption with the keys table. */
static void decrypt(report_t *r, proto_tree *enc, proto_item *enc_item,
                    const bthome_sealed_t *sealed)
{
    uint8_t nonce[BTHOME_NONCE_V2_LEN];
    size_t nonce_len = r->version == 1 ? BTHOME_NONCE_V1_LEN : BTHOME_NONCE_V2_LEN;
    uint8_t *plain = (uint8_t *)wmem_alloc(r->pinfo->pool, sealed->ciphertext_len + 1);
    bthome_key_match_t key;
    proto_item *item;
    bool tried, decrypted;

    if (r->version == 1)
        bthome_nonce_v1(r->device, sealed->counter, nonce);
    else
        bthome_nonce_v2(r->device, r->hdr.info, sealed->counter, nonce);
    item = proto_tree_add_bytes_with_length(enc, hf_bthome_encryption_nonce, r->tvb, 0, 0,
                                            nonce, (int)nonce_len);
    proto_item_set_generated(item);
    decrypted = bthome_keys_decrypt(r->device, r->version, nonce, nonce_len, sealed, plain,
                                    &key, &tried);
    item = proto_tree_add_boolean(enc, hf_bthome_encryption_decrypted, r->tvb, 0, 0, decrypted);
    proto_item_set_generated(item);
    if (decrypted && enc) {
        item = proto_tree_add_string(enc, hf_bthome_encryption_key_mac, r->tvb, 0, 0,
                                     key.mac_text);
        if (key.name[0])
            proto_item_append_text(item, " (%s)", key.name);
        proto_item_set_generated(item);
        proto_item_append_text(r->item, " (decrypted)");
    }
    if (decrypted) {
        add_decrypted(r, plain, sealed->ciphertext_len);
    } else if (tried) {
        expert_add_info_format(r->pinfo, enc_item, &ei_bthome_mic_failure,
            "MIC does not verify with the key(s) for %s: wrong key or tampered frame",
            mac_text(r->pinfo, r->device));
        bthome_summary_append(r->objects.summary, "[encrypted, MIC failure]");
        r->forged = bthome_keys_device_has_key(r->device);
    } else {
        expert_add_info_format(r->pinfo, enc_item, &ei_bthome_no_key,
            "Encrypted: no key configured for %s", mac_text(r->pinfo, r->device));
        bthome_summary_append(r->objects.summary, "[encrypted, no key]");
    }
}

/* The encrypted payload from start: ciphertext | counter | MIC. */
static void add_encrypted(report_t *r, int start)
{
    unsigned len = r->len - (unsigned)start;
    bthome_sealed_t sealed;
    proto_item *enc_item;
    proto_tree *enc;

    if (r->cut) {   /* the counter and MIC end the payload: nothing to try */
        bthome_summary_append(r->objects.summary, "[encrypted]");
        return;
    }
    if (!bthome_split_sealed(r->data + start, len, &sealed)) {
        proto_tree_add_expert_format(r->tree, r->pinfo, &ei_bthome_too_short, r->tvb, start,
            (int)len, "Encrypted payload of %u bytes is shorter than counter + MIC (8)", len);
        bthome_summary_append(r->objects.summary, "[encrypted, too short]");
        return;
    }
    enc = NULL;
    enc_item = r->item;     /* holds the expert infos when the subtree is not built */
    if (encryption_wanted(r->tree)) {
        enc = proto_tree_add_subtree(r->tree, r->tvb, start, (int)len, ett_bthome_encryption,
                                     &enc_item, "Encrypted payload");
        if (sealed.ciphertext_len)
            proto_tree_add_item(enc, hf_bthome_encryption_ciphertext, r->tvb, start,
                                (int)sealed.ciphertext_len, ENC_NA);
        proto_tree_add_item(enc, hf_bthome_encryption_counter, r->tvb,
                            start + (int)sealed.ciphertext_len, BTHOME_COUNTER_LEN,
                            ENC_LITTLE_ENDIAN);
        proto_tree_add_item(enc, hf_bthome_encryption_mic, r->tvb,
                            start + (int)sealed.ciphertext_len + BTHOME_COUNTER_LEN,
                            BTHOME_MIC_LEN, ENC_NA);
    }
    r->audit.has_counter = true;
    r->audit.counter = sealed.counter_value;
    if (!r->device) {
        expert_add_info(r->pinfo, enc_item, &ei_bthome_no_address);
        bthome_summary_append(r->objects.summary, "[encrypted, no address]");
        return;
    }
    decrypt(r, enc, enc_item, &sealed);
}

static void add_v2(report_t *r)
{
    bthome_header_status_t status = bthome_parse_v2_header(r->data, r->len, &r->hdr);

    if (status == BTHOME_HEADER_EMPTY)
        return;     /* only the capture's cut leaves no info byte: the table never hands
                       over empty service data */
    add_device(r);
    add_v2_header(r, status);
    if (status == BTHOME_HEADER_MAC_CUT) {
        r->mac_cut = true;
        if (!r->cut)
            bthome_summary_append(r->objects.summary, "[MAC truncated]");
    } else if (r->hdr.encrypted) {
        add_encrypted(r, (int)r->hdr.body_offset);
    } else {
        r->audit.packet_id = bthome_add_objects(&r->objects, r->tvb, (int)r->hdr.body_offset,
                                                r->data + r->hdr.body_offset, 2);
    }
}

/* v1 has no header: the UUID says whether the objects are encrypted. */
static void add_v1(report_t *r, bool encrypted)
{
    r->hdr.encrypted = encrypted;
    add_device(r);
    expert_add_info_format(r->pinfo, r->item, &ei_bthome_legacy_v1,
        "Device uses the deprecated BTHome v1 format (UUID 0x%04X)",
        encrypted ? BTHOME_UUID_V1_ENCRYPTED : BTHOME_UUID_V1);
    add_generated_version(r, 1, encrypted, 0);
    if (encrypted)
        add_encrypted(r, 0);
    else
        r->audit.packet_id = bthome_add_objects(&r->objects, r->tvb, 0, r->data, 1);
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

static const char *finding_text(const report_t *r, const bthome_finding_t *f)
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
    [BTHOME_FINDING_DUPLICATE] = { &ei_bthome_duplicate, " [duplicate]" },
    [BTHOME_FINDING_COUNTER_REUSE] = { &ei_bthome_counter_reuse, " [counter reuse]" },
    [BTHOME_FINDING_REPLAY] = { &ei_bthome_replay, " [replay]" },
    [BTHOME_FINDING_DOWNGRADE] = { &ei_bthome_downgrade, " [downgrade]" },
};

/* The device audit (per advertiser, per capture file): what this advertisement tells
 * against the device's earlier ones. */
static void audit(report_t *r)
{
    const bthome_findings_t *findings;
    bool keyed;

    if (!r->state || r->cut || r->mac_cut)  /* no fingerprint of part of an advert */
        return;
    keyed = bthome_keys_device_has_key(r->device);
    r->audit.frame = r->pinfo->num;
    r->audit.version = r->version;
    bthome_fingerprint(r->data, r->len, &r->audit.fingerprint);
    r->audit.encrypted = r->hdr.encrypted;
    r->audit.key_configured = keyed;
    r->audit.trusted = !keyed || r->decrypted;
    r->audit.forged = r->forged;
    findings = bthome_device_audit(r->state, r->pinfo, r->report, &r->audit,
                                   r->hdr.encrypted && !r->decrypted);
    for (unsigned i = 0; findings && i < findings->result.count; i++) {
        const bthome_finding_t *f = &findings->result.findings[i];
        const char *text = finding_text(r, f);
        proto_item *at = r->item;

        if (f->prev_frame && bthome_wanted(r->tree, hf_bthome_encryption_prev_frame)) {
            at = proto_tree_add_uint(r->tree, hf_bthome_encryption_prev_frame, r->tvb, 0, 0,
                                     f->prev_frame);
            proto_item_set_generated(at);
        }
        if (findings->unauthenticated && f->kind != BTHOME_FINDING_DUPLICATE)
            text = wmem_strdup_printf(r->pinfo->pool,
                "%s (counter unauthenticated: no key for this device)", text);
        expert_add_info_format(r->pinfo, at, finding_display[f->kind].ei, "%s", text);
        bthome_summary_append(r->objects.summary, finding_display[f->kind].marker);
        r->duplicate = r->duplicate || f->kind == BTHOME_FINDING_DUPLICATE;
    }
}

/* One tap record per advertisement, for statistics and other listeners. */
static void queue_tap(report_t *r)
{
    bthome_advert_t *ad;

    if (!r->objects.readings)
        return;
    ad = wmem_new0(r->pinfo->pool, bthome_advert_t);
    ad->frame = r->pinfo->num;
    ad->has_device = r->device != NULL;
    if (r->device)
        memcpy(ad->device, r->device, BTHOME_MAC_LEN);
    ad->device_name = r->device_name;
    ad->version = r->version;
    ad->encrypted = r->hdr.encrypted;
    ad->decrypted = r->decrypted;
    ad->duplicate = r->duplicate;
    ad->reading_count = wmem_array_get_count(r->objects.readings);
    ad->readings = (const bthome_reading_t *)wmem_array_get_raw(r->objects.readings);
    tap_queue_packet(bthome_tap, r->pinfo, ad);
}

/* A BTHome service data: tvb holds what follows the UUID. */
static int dissect_bthome(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data,
                          unsigned uuid)
{
    bthome_summary_t summary;
    report_t r;

    /* the v1 UUIDs are other services too: the rest is left to Wireshark */
    if (uuid != BTHOME_UUID_V2 &&
        !bthome_v1_is_bthome(uuid == BTHOME_UUID_V1_ENCRYPTED,
                             tvb_get_ptr(tvb, 0, (int)tvb_captured_length(tvb)),
                             tvb_captured_length(tvb), tvb_reported_length(tvb)))
        return 0;
    memset(&r, 0, sizeof r);
    summary.len = 0;
    summary.text[0] = '\0';
    r.tvb = tvb;
    r.len = tvb_captured_length(tvb);
    r.data = tvb_get_ptr(tvb, 0, (int)r.len);
    r.pinfo = pinfo;
    r.version = uuid == BTHOME_UUID_V2 ? 2 : 1;
    r.report = pinfo->curr_proto_layer_num;
    r.advertiser = advertiser_of(pinfo, (const bluetooth_eir_ad_data_t *)data);
    r.cut = tvb_reported_length(tvb) > r.len;
    r.audit.packet_id = -1;
    r.objects.pinfo = pinfo;
    r.objects.summary = &summary;
    r.objects.cut = r.cut;
    if (have_tap_listener(bthome_tap))
        r.objects.readings = wmem_array_new(pinfo->pool, sizeof(bthome_reading_t));

    col_set_str(pinfo->cinfo, COL_PROTOCOL, "BTHome");
    if (r.report == 1)
        col_clear(pinfo->cinfo, COL_INFO);
    r.item = proto_tree_add_item(tree, proto_bthome, tvb, 0, -1, ENC_NA);
    /* labels are written at once, even in a tree nobody shows: only with their items */
    if (bthome_wanted(tree, hf_bthome_version))
        proto_item_append_text(r.item, " v%u", r.version);
    r.tree = proto_item_add_subtree(r.item, ett_bthome);
    r.objects.tree = r.tree;
    r.objects.item = r.item;

    if (r.version == 2)
        add_v2(&r);
    else
        add_v1(&r, uuid == BTHOME_UUID_V1_ENCRYPTED);
    audit(&r);
    queue_tap(&r);
    col_append_sep_str(pinfo->cinfo, COL_INFO, " | ", summary.text);
    /* service data the capture cut short: everything captured is decoded, then
     * Wireshark's own mark follows ("[Packet size limited during capture]") */
    tvb_ensure_bytes_exist(tvb, 0, (int)tvb_reported_length(tvb));
    return (int)tvb_captured_length(tvb);
}

static int dissect_bthome_v2(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    return dissect_bthome(tvb, pinfo, tree, data, BTHOME_UUID_V2);
}

static int dissect_bthome_v1(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
    return dissect_bthome(tvb, pinfo, tree, data, BTHOME_UUID_V1);
}

static int dissect_bthome_v1_encrypted(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                       void *data)
{
    return dissect_bthome(tvb, pinfo, tree, data, BTHOME_UUID_V1_ENCRYPTED);
}

void proto_register_bthome(void)
{
    static hf_register_info hf[] = {
        { &hf_bthome_device,
          { "Device", "bthome.device", FT_ETHER, BASE_NONE, NULL, 0x0,
            "The device: its included MAC, else the advertiser address", HFILL } },
        { &hf_bthome_device_name,
          { "Device name", "bthome.device_name", FT_STRING, BASE_NONE, NULL, 0x0,
            "Local Name of this advertisement, or of an earlier one of the device", HFILL } },
        { &hf_bthome_version,
          { "Version", "bthome.version", FT_UINT8, BASE_DEC, NULL, 0x0,
            "BTHome format version", HFILL } },
        { &hf_bthome_info,
          { "Device information", "bthome.info", FT_UINT8, BASE_HEX, NULL, 0x0,
            NULL, HFILL } },
        { &hf_bthome_info_encrypted,
          { "Encrypted", "bthome.info.encrypted", FT_BOOLEAN, 8, NULL, BTHOME_INFO_ENCRYPTED,
            NULL, HFILL } },
        { &hf_bthome_info_mac_included,
          { "MAC included", "bthome.info.mac_included", FT_BOOLEAN, 8, NULL,
            BTHOME_INFO_MAC_INCLUDED, "Legacy pre-release v2: device MAC follows", HFILL } },
        { &hf_bthome_info_trigger_based,
          { "Trigger based", "bthome.info.trigger_based", FT_BOOLEAN, 8, NULL,
            BTHOME_INFO_TRIGGER_BASED, "Advertises irregularly", HFILL } },
        { &hf_bthome_info_reserved,
          { "Reserved", "bthome.info.reserved", FT_UINT8, BASE_HEX, NULL, BTHOME_INFO_RESERVED,
            NULL, HFILL } },
        { &hf_bthome_info_version,
          { "Version", "bthome.info.version", FT_UINT8, BASE_DEC, NULL, BTHOME_INFO_VERSION,
            NULL, HFILL } },
        { &hf_bthome_mac,
          { "Device MAC", "bthome.mac", FT_ETHER, BASE_NONE, NULL, 0x0,
            "Device MAC included in the payload", HFILL } },
        { &hf_bthome_encrypted,
          { "Encrypted", "bthome.encrypted", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
            "Payload is encrypted", HFILL } },
        { &hf_bthome_encryption_ciphertext,
          { "Ciphertext", "bthome.encryption.ciphertext", FT_BYTES, BASE_NONE, NULL, 0x0,
            NULL, HFILL } },
        { &hf_bthome_encryption_counter,
          { "Counter", "bthome.encryption.counter", FT_UINT32, BASE_DEC_HEX, NULL, 0x0,
            "Must increase from one advertisement of the device to the next", HFILL } },
        { &hf_bthome_encryption_mic,
          { "MIC", "bthome.encryption.mic", FT_BYTES, BASE_NONE, NULL, 0x0,
            "4-byte AES-CCM tag", HFILL } },
        { &hf_bthome_encryption_nonce,
          { "Nonce", "bthome.encryption.nonce", FT_BYTES, BASE_NONE, NULL, 0x0,
            "Device MAC, UUID, device information byte, counter", HFILL } },
        { &hf_bthome_encryption_decrypted,
          { "Decrypted", "bthome.encryption.decrypted", FT_BOOLEAN, BASE_NONE, NULL, 0x0,
            "The MIC verified with a configured key", HFILL } },
        { &hf_bthome_encryption_key_mac,
          { "Key", "bthome.encryption.key_mac", FT_STRING, BASE_NONE, NULL, 0x0,
            "The key entry that decrypted it: its MAC, or *", HFILL } },
        { &hf_bthome_encryption_prev_frame,
          { "Earlier frame", "bthome.encryption.prev_frame", FT_FRAMENUM, BASE_NONE, NULL, 0x0,
            "The earlier frame of the device an audit finding refers to", HFILL } },
    };
    static int *ett[] = { &ett_bthome, &ett_bthome_info, &ett_bthome_encryption };
    static ei_register_info ei[] = {
        { &ei_bthome_bad_version, { "bthome.expert.bad_version", PI_PROTOCOL, PI_ERROR,
            "BTHome version bits are not 2", EXPFILL } },
        { &ei_bthome_too_short, { "bthome.expert.too_short", PI_MALFORMED, PI_ERROR,
            "Encrypted payload shorter than counter + MIC", EXPFILL } },
        { &ei_bthome_no_address, { "bthome.expert.no_address", PI_DECRYPTION, PI_WARN,
            "No advertiser address to build the nonce: cannot decrypt", EXPFILL } },
        { &ei_bthome_no_key, { "bthome.expert.no_key", PI_DECRYPTION, PI_NOTE,
            "Encrypted: no key configured for this device", EXPFILL } },
        { &ei_bthome_mic_failure, { "bthome.expert.mic_failure", PI_DECRYPTION, PI_WARN,
            "MIC does not verify: wrong key or tampered frame", EXPFILL } },
        { &ei_bthome_counter_reuse, { "bthome.expert.counter_reuse", PI_SECURITY, PI_ERROR,
            "Counter reused with another ciphertext: nonce reuse", EXPFILL } },
        { &ei_bthome_replay, { "bthome.expert.replay", PI_SECURITY, PI_WARN,
            "Counter not greater than the highest seen from the device", EXPFILL } },
        { &ei_bthome_duplicate, { "bthome.expert.duplicate", PI_SEQUENCE, PI_NOTE,
            "Retransmission of the device's previous advertisement", EXPFILL } },
        { &ei_bthome_downgrade, { "bthome.expert.downgrade", PI_SECURITY, PI_WARN,
            "Plaintext from a device that encrypts", EXPFILL } },
        { &ei_bthome_legacy_v1, { "bthome.expert.legacy_v1", PI_DEPRECATED, PI_NOTE,
            "Device uses the deprecated BTHome v1 format", EXPFILL } },
    };

    bthome_core_init();
    proto_bthome = proto_register_protocol("BTHome Sensor Data", "BTHome", "bthome");
    proto_register_field_array(proto_bthome, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto_bthome), ei, array_length(ei));
    bthome_register_objects(proto_bthome);
    bthome_register_keys(prefs_register_protocol(proto_bthome, NULL));
    bthome_register_devices(proto_bthome);
    bthome_tap = register_tap(BTHOME_TAP_NAME);
    register_dissector("bthome", dissect_bthome_v2, proto_bthome);
    register_dissector("bthome_v1", dissect_bthome_v1, proto_bthome);
    register_dissector("bthome_v1_encrypted", dissect_bthome_v1_encrypted, proto_bthome);
    bthome_register_stats();
    /* Wireshark 4.2+ hands service data over by UUID; 4.0 has no such table (btcommon,
     * built in, registers before any plugin) */
    if (!find_dissector_table(BTHOME_UUID_TABLE))
        bthome_register_frame_search(proto_bthome);
}

void proto_reg_handoff_bthome(void)
{
    dissector_handle_t v2 = find_dissector("bthome");
    dissector_handle_t v1 = find_dissector("bthome_v1");
    dissector_handle_t v1_encrypted = find_dissector("bthome_v1_encrypted");

    if (find_dissector_table(BTHOME_UUID_TABLE)) {
        dissector_add_string(BTHOME_UUID_TABLE, "fcd2", v2);
        dissector_add_string(BTHOME_UUID_TABLE, "181c", v1);
        dissector_add_string(BTHOME_UUID_TABLE, "181e", v1_encrypted);
    } else {
        bthome_handoff_frame_search(v2, v1, v1_encrypted);
    }
}
