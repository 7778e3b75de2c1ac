/* The plugin linked into Wireshark's own fuzz harness, fuzz/fuzzshark.c of its source
 * tree (tests/fuzz/run-fuzzshark.sh). fuzzshark loads no plugins (it calls epan_init
 * without them), so the plugin is registered before main, as the plugin loader would
 * register it; Wireshark then calls its registration and handoff routines.
 *
 * fuzzshark hands each input to its target (FUZZSHARK_TARGET), a postdissector it
 * registers after every other, with the tree not shown, as in a summary run. The target
 * bthome is BTHome's dissector itself. For a link layer (bthome_fuzz_nordic_ble,
 * bthome_fuzz_hci_h4) the input is a whole frame of that link type, dissected as in a
 * capture: the harness registers a postdissector, before BTHome's handoff registers its
 * own, that sets the record's encapsulation and calls the wtap_encap table's dissector
 * for it as the frame dissector does, with the tree shown (tshark -V). On 4.0 BTHome's
 * hook, the frame search, is that next postdissector, so it runs after the link layer,
 * as in a capture; the target itself does nothing. A tap listener makes BTHome build
 * its tap records, as for its statistics.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/exceptions.h>
#include <epan/show_exception.h>
#include <epan/tap.h>
#include <wiretap/wtap.h>

void plugin_register(void);     /* plugin.c, which Wireshark's CMake writes */

typedef struct {
    const char *target;         /* FUZZSHARK_TARGET */
    const char *filter;         /* its helper protocol's filter name */
    const char *link;           /* the link layer's protocol */
    int encap;                  /* and encapsulation */
} link_target_t;

static const link_target_t links[] = {
    { "bthome_fuzz_nordic_ble", "bthome_fuzz.nordic_ble", "nordic_ble",
      WTAP_ENCAP_NORDIC_BLE },
    { "bthome_fuzz_hci_h4", "bthome_fuzz.hci_h4", "hci_h4", WTAP_ENCAP_BLUETOOTH_H4 },
};
static const link_target_t *fuzzed_link;
static int bthome_tap_id;

/* The frame as the frame dissector hands it to its link layer; an exception ends the
 * link layer only, and the postdissectors still run. */
static int dissect_link(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    dissector_handle_t link = dissector_get_uint_handle(find_dissector_table("wtap_encap"),
                                                        (guint32)fuzzed_link->encap);

    proto_tree_set_visible(tree, TRUE);
    pinfo->rec->rec_header.packet_header.pkt_encap = fuzzed_link->encap;
    TRY {
        call_dissector_with_data(link, tvb, pinfo, tree, pinfo->pseudo_header);
    }
    CATCH_BOUNDS_AND_DISSECTOR_ERRORS {
        show_exception(tvb, pinfo, tree, EXCEPT_CODE, GET_MESSAGE);
    }
    ENDTRY;
    return (int)tvb_captured_length(tvb);
}

static int dissect_nothing(tvbuff_t *tvb _U_, packet_info *pinfo _U_, proto_tree *tree _U_,
                           void *data _U_)
{
    return 0;
}

/* Each target's handle belongs to a helper of its link layer's protocol: enabled with
 * it, no layer of its own. */
static void register_harness(void)
{
    const char *target = g_getenv("FUZZSHARK_TARGET");

    for (size_t i = 0; i < G_N_ELEMENTS(links); i++) {
        int proto = proto_register_protocol_in_name_only(links[i].target, links[i].target,
            links[i].filter, proto_get_id_by_filter_name(links[i].link), FT_PROTOCOL);

        register_dissector(links[i].target, dissect_nothing, proto);
        if (target && strcmp(target, links[i].target) == 0) {
            fuzzed_link = &links[i];
            register_postdissector(create_dissector_handle(dissect_link, proto));
        }
    }
}

static tap_packet_status count_adverts(void *data _U_, packet_info *pinfo _U_,
                                       epan_dissect_t *edt _U_, const void *advert _U_,
                                       tap_flags_t flags _U_)
{
    return TAP_PACKET_DONT_REDRAW;
}

static void handoff_harness(void)
{
    GString *error = register_tap_listener("bthome", &bthome_tap_id, NULL,
                                           TL_REQUIRES_NOTHING, NULL, count_adverts, NULL,
                                           NULL);

    if (error)
        g_error("fuzzshark_bthome: %s", error->str);
}

static const proto_plugin harness = { register_harness, handoff_harness };

__attribute__((constructor)) static void link_bthome(void)
{
    plugin_register();
    proto_register_plugin(&harness);
}
