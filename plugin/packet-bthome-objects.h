/* Object lists in the BTHome tree; see packet-bthome-objects.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PACKET_BTHOME_OBJECTS_H
#define PACKET_BTHOME_OBJECTS_H

#include <epan/packet.h>
#include <epan/expert.h>

#include "bthome_summary.h"

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

/* The objects' fields, subtree and expert infos, under proto. */
void bthome_register_objects(int proto);

/* Adds the objects from offset of tvb to its captured end, whose bytes are data (v2, or
 * v1 when version is 1); returns the packet id object's value, or -1 without one. */
int bthome_add_objects(bthome_objects_ctx_t *ctx, tvbuff_t *tvb, int offset,
                       const uint8_t *data, unsigned version);

/* The objects' expert infos the header uses too, with text as their message: a service
 * data cut short (bthome.expert.truncated), reserved bits set (bthome.expert.reserved_bits). */
void bthome_expert_truncated(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, int start,
                             int len, const char *text);
void bthome_expert_reserved_bits(packet_info *pinfo, proto_item *item, const char *text);

#endif
