/* What the BTHome dissector's files share: the protocol, its expert infos, and the
 * functions each file offers the others.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PACKET_BTHOME_H
#define PACKET_BTHOME_H

#include <epan/packet.h>
#include <epan/column-info.h>
#include <epan/expert.h>

#include "bthome_audit.h"
#include "bthome_core.h"

extern int proto_bthome;

/* ---- packet-bthome.c: registration, called by the plugin's registration: Wireshark's
 * generated plugin.c in its tree, plugin/standalone_plugin.c otherwise ---- */

void proto_register_bthome(void);
void proto_reg_handoff_bthome(void);

extern expert_field ei_bthome_truncated;
extern expert_field ei_bthome_unknown_object;
extern expert_field ei_bthome_out_of_order;
extern expert_field ei_bthome_reserved_bits;
extern expert_field ei_bthome_invalid_utf8;
extern expert_field ei_bthome_bad_format;

/* The Info column text of one service data, as far as the column holds it. */
typedef struct {
    char text[COL_MAX_INFO_LEN];
    size_t len;
} bthome_summary_t;

static inline void bthome_summary_append(bthome_summary_t *summary, const char *text)
{
    size_t n = MIN(strlen(text), sizeof summary->text - 1 - summary->len);

    memcpy(summary->text + summary->len, text, n);
    summary->len += n;
    summary->text[summary->len] = '\0';
}

/* Whether an item of field hf can matter: a shown tree, or a filter or column that names
 * it. Wireshark 4.4+ builds every item below a real one, so the dissector asks before
 * adding items a hidden tree does not need. */
static inline bool bthome_wanted(proto_tree *tree, int hf)
{
    return tree && proto_field_is_referenced(tree, hf);
}

/* ---- packet-bthome-objects.c: object lists in the tree ---- */

typedef struct {
    packet_info *pinfo;
    proto_tree *tree;           /* the BTHome subtree, or NULL */
    proto_item *item;           /* the BTHome item: holds the expert infos of objects
                                   whose items nothing looks at */
    bthome_summary_t *summary;  /* the Info column text, appended to */
    wmem_array_t *readings;     /* bthome_reading_t for the tap, or NULL */
    bool cut;                   /* the capture's snap length cut the service data */
    unsigned listed;            /* objects in the summary so far */
} bthome_objects_ctx_t;

void bthome_register_object_fields(int proto);
/* Adds the objects from offset of tvb to its captured end, whose bytes are data (v2, or
 * v1 when version is 1); returns the packet id object's value, or -1 without one. */
int bthome_add_objects(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                       const uint8_t *data, unsigned version);

/* ---- bthome_device.c: per-device state and audit findings ---- */

typedef struct bthome_device bthome_device_t;

void bthome_register_devices(void);
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

/* ---- bthome_frame_search.c: Wireshark 4.0's hook ---- */

/* Registers the postdissector that finds BTHome service data in every frame, for a
 * Wireshark without the btcommon.eir_ad.entry.uuid table (4.0). */
void bthome_register_frame_search(dissector_handle_t v2, dissector_handle_t v1,
                                  dissector_handle_t v1_encrypted);

#endif
