/* Wireshark 4.0's hook for BTHome; see bthome_frame_search.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_FRAME_SEARCH_H
#define BTHOME_FRAME_SEARCH_H

#include <epan/packet.h>

/* Registers the frame search, a helper protocol of proto with its dissector; from the
 * protocol's registration, for a Wireshark without the btcommon.eir_ad.entry.uuid table
 * (4.0). */
void bthome_register_frame_search(int proto);

/* Makes it the postdissector that finds BTHome service data in every frame and calls
 * these handles on them; from the protocol's handoff. */
void bthome_handoff_frame_search(dissector_handle_t v2, dissector_handle_t v1,
                                 dissector_handle_t v1_encrypted);

#endif
