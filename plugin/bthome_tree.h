/* Whether a tree item matters, asked by packet-bthome.c and packet-bthome-objects.c.
 * Header-only, and it includes no header of the plugin's own, so that every file may use
 * it without an arrow back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_TREE_H
#define BTHOME_TREE_H

#include <stdbool.h>

#include <epan/packet.h>

/* Whether an item of field hf can matter: a shown tree, or a filter or column that names
 * it. Wireshark 4.4+ builds every item below a real one, so the dissector asks before
 * adding items a hidden tree does not need. */
static inline bool bthome_wanted(proto_tree *tree, int hf)
{
    return tree && proto_field_is_referenced(tree, hf);
}

#endif
