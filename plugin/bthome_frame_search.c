/* Wireshark 4.0's hook for BTHome. Its btcommon dissector has no service data table
 * (btcommon.eir_ad.entry.uuid arrived with 4.2): a postdissector finds the BTHome service
 * data AD structures in each frame's bytes and calls the BTHome handles on them, as 4.2+
 * does through the table. Registered only where that table is missing, so that dropping
 * 4.0 is deleting this file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/exceptions.h>
#include <epan/show_exception.h>
#include <epan/dissectors/packet-bluetooth.h>

#include "bthome_adv.h"
#include "bthome_frame_search.h"
#include "bthome_v1.h"

static dissector_handle_t frame_search_handle;
static dissector_handle_t handle_v2, handle_v1, handle_v1_encrypted;

static dissector_handle_t handle_of(unsigned uuid)
{
    return uuid == BTHOME_UUID_V2 ? handle_v2
         : uuid == BTHOME_UUID_V1 ? handle_v1 : handle_v1_encrypted;
}

/* One service data: its own layer, like any protocol. An exception it raises (a frame
 * cut short) is shown there, and the frame's other service data and postdissectors
 * still run. Sets whether BTHome took it (v1 UUIDs are other services too) and
 * returns whether it raised an exception. */
static bool call_bthome(tvbuff_t *frame, const uint8_t *bytes, packet_info *pinfo,
                        proto_tree *tree, const bthome_service_data_t *sd,
                        const uint8_t *link_advertiser, bool *taken)
{
    tvbuff_t *tvb = tvb_new_subset_length(frame, (int)sd->start, (int)sd->length);
    uint8_t report_address[BTHOME_MAC_LEN];
    bluetooth_eir_ad_data_t ad;
    volatile bool raised = false;

    memset(&ad, 0, sizeof ad);
    if (!link_advertiser) {     /* HCI: the advertising report's own address */
        bthome_mac_reverse(report_address, bytes + sd->adv.address);
        ad.bd_addr = report_address;
    }
    TRY {
        /* only: what BTHome leaves is btcommon's, not a Data layer */
        *taken = call_dissector_only(handle_of(sd->uuid), tvb, pinfo, tree, &ad) > 0;
    }
    CATCH_NONFATAL_ERRORS {
        show_exception(tvb, pinfo, tree, EXCEPT_CODE, GET_MESSAGE);
        raised = true;
        *taken = true;
    }
    ENDTRY;
    return raised;
}

static int dissect_frame_search(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                void *data _U_)
{
    unsigned len = tvb_captured_length(tvb);
    const uint8_t *link_advertiser = NULL, *bytes;
    bthome_service_data_t sd;
    size_t pos = 0;
    bool found = false, raised = false;

    if (len == 0)
        return 0;
    if (pinfo->src.type == AT_ETHER && pinfo->src.len == BTHOME_MAC_LEN)
        link_advertiser = (const uint8_t *)pinfo->src.data;     /* btle: AdvA */
    bytes = tvb_get_ptr(tvb, 0, (int)len);
    while (bthome_next_service_data(bytes, len, tvb_reported_length(tvb), link_advertiser, &pos,
                                    &sd)) {
        /* 4.2+ hands no service data without bytes after the UUID to the table: alike */
        if (sd.length == 0)
            continue;
        bool taken = false;
        raised |= call_bthome(tvb, bytes, pinfo, tree, &sd, link_advertiser, &taken);
        found |= taken;
    }
    /* A frame cut short after its BTHome service data: BTHome's summary has replaced the
     * Info column that held the frame's mark of it; marked again (on 4.2+ BTHome runs
     * before the cut part, so the mark follows its summary) */
    if (found && !raised && tvb_reported_length(tvb) > len)
        show_exception(tvb, pinfo, NULL, BoundsError, NULL);
    return found ? (int)len : 0;
}

void bthome_register_frame_search(int proto)
{
    /* A helper protocol "in name only": its handle makes no layer (BTHome's own handles
     * do) and is enabled with BTHome, so it counts as an enabled postdissector. Wireshark
     * calls postdissectors only when one of them does (have_postdissector): a handle
     * without protocol would leave BTHome undecoded when the others are disabled (snort,
     * and MATE where its plugin is installed, are enabled by default). */
    int proto_frame_search = proto_register_protocol_in_name_only("BTHome frame search",
        "BTHome frame search", "bthome.frame_search", proto, FT_PROTOCOL);

    frame_search_handle = register_dissector("bthome_frame_search", dissect_frame_search,
                                             proto_frame_search);
}

void bthome_handoff_frame_search(dissector_handle_t v2, dissector_handle_t v1,
                                 dissector_handle_t v1_encrypted)
{
    handle_v2 = v2;
    handle_v1 = v1;
    handle_v1_encrypted = v1_encrypted;
    /* postdissectors run in the order added: those other protocols add in their
     * registration (fuzzshark's link-layer harness) run first, as the link layer would */
    register_postdissector(frame_search_handle);
}
