/* Helpers packet-bthome.c and packet-bthome-objects.c share for the tree and the Info
 * column. Header-only, and it includes no header of the plugin's own, so that every
 * file may use it without an arrow back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_TREE_H
#define BTHOME_TREE_H

#include <stdbool.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/column-info.h>

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

#endif
