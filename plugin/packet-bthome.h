/* The BTHome protocol's registration and handoff (packet-bthome.c), called by the
 * plugin's registration: Wireshark's generated plugin.c in its tree,
 * plugin/standalone_plugin.c otherwise.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PACKET_BTHOME_H
#define PACKET_BTHOME_H

void proto_register_bthome(void);
void proto_reg_handoff_bthome(void);

#endif
