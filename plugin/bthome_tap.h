/* The "bthome" tap: one record per BTHome advertisement, with every decoded
 * measurement, so that statistics (bthome_stats.c) and other consumers need not
 * re-parse. Queued only while a listener is attached; all memory is the packet's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_TAP_H
#define BTHOME_TAP_H

#include <stdbool.h>
#include <stdint.h>

#include "bthome_core.h"

#define BTHOME_TAP_NAME "bthome"

typedef struct {
    const bthome_object_def_t *def;  /* property: def->name, def->field, def->unit */
    const char *label;               /* "Temperature", "Temperature 2" */
    double value;                    /* NUMBER: the value in def->unit; else the raw value */
    const char *text;                /* the value as shown: "25.06 °C", "long_press" */
} bthome_reading_t;

typedef struct {
    uint32_t frame;
    bool has_device;
    uint8_t device[6];               /* display order */
    const char *device_name;         /* Local Name, or NULL */
    unsigned version;                /* 1 or 2 */
    bool encrypted;
    bool decrypted;                  /* a configured key verified the MIC */
    bool duplicate;                  /* the audit found a retransmission */
    unsigned reading_count;
    const bthome_reading_t *readings;
} bthome_advert_t;

#endif
