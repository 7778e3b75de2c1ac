/* The plugin linked into Wireshark's own fuzz harness, fuzz/fuzzshark.c of its source
 * tree (tests/fuzz/run-fuzzshark.sh). fuzzshark loads no plugins (it calls epan_init
 * without them), so the plugin is registered before main, as the plugin loader would
 * register it; Wireshark then calls its registration and handoff routines.
 *
 * fuzzshark calls its target (FUZZSHARK_TARGET) as a postdissector registered after
 * every other. On 4.0 BTHome's own hook is a postdissector too (the frame search),
 * which in a capture runs after the link layer has dissected the frame. Called so,
 * nordic_ble would run after it, and BTHome would never see its frames. The target
 * bthome_fuzz_nordic_ble runs them in a capture's order: nordic_ble, then the frame
 * search where there is one (4.2+ reaches BTHome through btcommon's UUID table).
 *
 * fuzzshark's tree is not visible, as in a summary run: Wireshark then builds only the
 * items someone looks at, and so does BTHome. The target bthome keeps that; the nRF
 * path shows its tree, as Wireshark's packet details or tshark -V do, so that every
 * item of BTHome's tree is built too. The HCI path (hci_h4 -> bthci_evt -> BTHome)
 * likewise, and a tap listener makes BTHome queue its readings, as for its statistics.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <wireshark.h>
#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/tap.h>

void plugin_register(void);     /* plugin.c, which Wireshark's CMake writes */

static dissector_handle_t nordic_ble, hci_h4;
static int bthome_tap_id;

/* A frame as the link layer's dissector and then BTHome's frame search see it. */
static int dissect_frame(dissector_handle_t link, tvbuff_t *tvb, packet_info *pinfo,
                         proto_tree *tree)
{
    /* registered by BTHome's handoff, which may run after this harness's */
    dissector_handle_t frame_search = find_dissector("bthome_frame_search");
    gboolean was_visible = proto_tree_set_visible(tree, TRUE);
    int taken = call_dissector(link, tvb, pinfo, tree);

    if (frame_search)
        call_dissector_only(frame_search, tvb, pinfo, tree, NULL);
    proto_tree_set_visible(tree, was_visible);
    return taken;
}

static int dissect_nordic_ble_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                    void *data _U_)
{
    return dissect_frame(nordic_ble, tvb, pinfo, tree);
}

static int dissect_hci_h4_frame(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                                void *data _U_)
{
    return dissect_frame(hci_h4, tvb, pinfo, tree);
}

/* Each handle belongs to a helper of its link layer's protocol: enabled with it, no
 * layer of its own. */
static void register_link(const char *name, const char *link, dissector_t dissect)
{
    char *filter = g_strconcat("bthome_fuzz.", link, NULL);
    int proto = proto_register_protocol_in_name_only(name, name, filter,
                                                     proto_get_id_by_filter_name(link),
                                                     FT_PROTOCOL);

    register_dissector(name, dissect, proto);
}

static void register_harness(void)
{
    register_link("bthome_fuzz_nordic_ble", "nordic_ble", dissect_nordic_ble_frame);
    register_link("bthome_fuzz_hci_h4", "hci_h4", dissect_hci_h4_frame);
}

/* A tap listener, as a statistics window would have: BTHome then queues its readings. */
static tap_packet_status count_adverts(void *data _U_, packet_info *pinfo _U_,
                                       epan_dissect_t *edt _U_, const void *advert _U_,
                                       tap_flags_t flags _U_)
{
    return TAP_PACKET_DONT_REDRAW;
}

static void handoff_harness(void)
{
    GString *error;

    nordic_ble = find_dissector("nordic_ble");
    hci_h4 = find_dissector("hci_h4");
    error = register_tap_listener("bthome", &bthome_tap_id, NULL, TL_REQUIRES_NOTHING, NULL,
                                  count_adverts, NULL, NULL);
    if (error)
        g_error("fuzzshark_bthome: %s", error->str);
}

static const proto_plugin harness = { register_harness, handoff_harness };

__attribute__((constructor)) static void link_bthome(void)
{
    plugin_register();
    proto_register_plugin(&harness);
}
