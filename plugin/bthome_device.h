/* Per-device state of the BTHome dissector; see bthome_device.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_DEVICE_H
#define BTHOME_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include <epan/packet.h>

#include "bthome_audit.h"
#include "bthome_core.h"

typedef struct bthome_device bthome_device_t;

/* The device map; the findings are kept with each frame as proto's data. */
void bthome_register_devices(int proto);
/* The device of this address in the current capture file, made on first use. */
bthome_device_t *bthome_device(const uint8_t mac[BTHOME_MAC_LEN]);
/* Its Local Name: the one this advertisement (service data in tvb) carries, else the
 * first the device sent earlier in the capture; NULL without one. Unless wanted, only
 * looked for while the device has none. */
const char *bthome_device_name(bthome_device_t *dev, tvbuff_t *tvb, packet_info *pinfo,
                               const uint8_t advertiser[BTHOME_MAC_LEN], bool wanted);

typedef struct {
    bthome_audit_result_t result;
    bool unauthenticated;       /* its counters came from frames no key verified */
} bthome_findings_t;

/* The audit's findings for report number `report` of this frame, or NULL without any:
 * worked out from in on the first pass, in capture order, and kept for later passes
 * (the GUI dissects packets again in any order). */
const bthome_findings_t *bthome_device_audit(bthome_device_t *dev, packet_info *pinfo,
                                             unsigned report, const bthome_audit_input_t *in,
                                             bool unauthenticated);

#endif
