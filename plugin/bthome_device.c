/* Per-device state of the BTHome dissector, for the current capture file: each device's
 * audit history and first Local Name, in a wmem map by address, and the audit findings
 * of each frame, kept with the frame (p_add_proto_data) for later passes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/proto_data.h>

#include "bthome_adv.h"
#include "bthome_device.h"

struct bthome_device {
    uint64_t address;           /* the MAC as a number: the map's key */
    const char *name;           /* the first Local Name seen, and in which frame */
    uint32_t name_frame;
    bthome_device_history_t history;
};

static wmem_map_t *devices;     /* emptied with the file scope */
static int proto_bthome = -1;   /* whose frame data holds the findings */

void bthome_register_devices(int proto)
{
    proto_bthome = proto;
    devices = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(), g_int64_hash,
                                     g_int64_equal);
}

bthome_device_t *bthome_device(const uint8_t mac[BTHOME_MAC_LEN])
{
    uint64_t mac_number = bthome_mac_number(mac);
    bthome_device_t *dev = (bthome_device_t *)wmem_map_lookup(devices, &mac_number);

    if (!dev) {
        dev = wmem_new0(wmem_file_scope(), bthome_device_t);
        dev->address = mac_number;
        bthome_history_init(&dev->history);
        wmem_map_insert(devices, &dev->address, dev);
    }
    return dev;
}

/* The Local Name of the advertisement around the service data in tvb, found in the bytes
 * of its frame (Wireshark hands the plugin only the service data). */
static const char *advert_name(tvbuff_t *tvb, packet_info *pinfo,
                               const uint8_t advertiser[BTHOME_MAC_LEN])
{
    tvbuff_t *frame = tvb_get_ds_tvb(tvb);
    unsigned frame_len = tvb_captured_length(frame);
    int start = tvb_raw_offset(tvb);    /* the service data's, after the UUID */
    size_t name_pos, name_len;
    const uint8_t *bytes;
    bthome_adv_span_t adv;

    if (!advertiser || start <= BTHOME_AD_SERVICE_DATA_HEADER || (unsigned)start > frame_len)
        return NULL;
    bytes = tvb_get_ptr(frame, 0, (int)frame_len);
    if (!bthome_locate_adv_data(bytes, frame_len, tvb_reported_length(frame),
                                (size_t)start - BTHOME_AD_SERVICE_DATA_HEADER - 1, advertiser,
                                &adv))
        return NULL;
    adv.end = MIN(adv.end, frame_len);      /* a name the capture cut off is none */
    if (!bthome_adv_local_name(bytes, &adv, &name_pos, &name_len))
        return NULL;
    return (const char *)tvb_get_string_enc(pinfo->pool, frame, (int)name_pos, (int)name_len,
                                            ENC_UTF_8);
}

const char *bthome_device_name(bthome_device_t *dev, tvbuff_t *tvb, packet_info *pinfo,
                               const uint8_t advertiser[BTHOME_MAC_LEN], bool wanted)
{
    const char *name = wanted || !dev->name ? advert_name(tvb, pinfo, advertiser) : NULL;

    /* names often come in other adverts, or scan responses, than the readings */
    if (name && (!dev->name || pinfo->num < dev->name_frame)) {
        dev->name = wmem_strdup(wmem_file_scope(), name);
        dev->name_frame = pinfo->num;
    }
    if (name)
        return name;
    return dev->name && dev->name_frame < pinfo->num ? dev->name : NULL;
}

const bthome_findings_t *bthome_device_audit(bthome_device_t *dev, packet_info *pinfo,
                                             unsigned report, const bthome_audit_input_t *in,
                                             bool unauthenticated)
{
    bthome_findings_t *findings;
    bthome_audit_result_t result;

    if (PINFO_FD_VISITED(pinfo))
        return (const bthome_findings_t *)p_get_proto_data(wmem_file_scope(), pinfo,
                                                           proto_bthome, report);
    bthome_audit_advert(&dev->history, in, &result);
    if (result.count == 0)
        return NULL;
    findings = wmem_new(wmem_file_scope(), bthome_findings_t);
    findings->result = result;
    findings->unauthenticated = unauthenticated;
    p_add_proto_data(wmem_file_scope(), pinfo, proto_bthome, report, findings);
    return findings;
}
