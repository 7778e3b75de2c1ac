/* The Info column summary of one service data, which packet-bthome.c and
 * packet-bthome-objects.c append to. Header-only, and it includes no header of the
 * plugin's own, so that every file may use it without an arrow back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_SUMMARY_H
#define BTHOME_SUMMARY_H

#include <string.h>

#include <wireshark.h>
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

#endif
