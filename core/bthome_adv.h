/* The advertisement around a BTHome service data, Wireshark-free: where its AdvData (the
 * list of AD structures) starts and ends in the captured frame, and its Local Name.
 *
 * Wireshark hands the plugin only the service data. The rest of the advertisement is
 * found from the frame bytes: the advertiser address sits right before the AdvData on the
 * LE link layer (AdvA; in extended advertising PDUs, first in the extended header that
 * precedes it), and a fixed number of bytes before it in HCI advertising reports, with a
 * length byte that bounds it. A candidate is accepted only when the AD structures
 * chain from its start, through the service data, to its end.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_ADV_H
#define BTHOME_ADV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTHOME_AD_SHORT_NAME    0x08
#define BTHOME_AD_COMPLETE_NAME 0x09

typedef struct {
    size_t start;   /* first byte of the first AD structure */
    size_t end;     /* one past the last */
    size_t address; /* offset of the advertiser address (wire order) */
} bthome_adv_span_t;

/* frame: the captured bytes holding the advertisement; wire_len: the frame's length before
 * the capture's snap length cut it to frame_len (or frame_len), so that the span's end
 * may lie past the captured bytes; ad_pos: offset of the service data AD structure (its
 * length byte); addr: the advertiser address, display order. */
bool bthome_locate_adv_data(const uint8_t *frame, size_t frame_len, size_t wire_len,
                            size_t ad_pos, const uint8_t addr[6], bthome_adv_span_t *out);

/* The same without knowing the address (wire_len likewise), for HCI: the LE Advertising Report or LE
 * Extended Advertising Report holding the service data, read from the LE Meta event
 * that ends the frame (its parameter length says so), report by report. */
bool bthome_locate_hci_report(const uint8_t *frame, size_t frame_len, size_t wire_len,
                              size_t ad_pos, bthome_adv_span_t *out);

#define BTHOME_AD_SERVICE_DATA_16 0x16
#define BTHOME_AD_SERVICE_DATA_HEADER 3     /* AD type + 16-bit UUID, in the AD length */

/* A BTHome service data UUID: v2 0xFCD2, v1 0x181C / 0x181E. */
bool bthome_is_service_uuid(unsigned uuid);

typedef struct {
    size_t ad;                  /* offset of its AD structure (the length byte) */
    size_t start, length;       /* the service data after the UUID */
    uint16_t uuid;
    bthome_adv_span_t adv;      /* the advertisement holding it */
} bthome_service_data_t;

/* The BTHome service data AD structures of a frame, one per call: start with *pos 0 and
 * call again while it returns true. Each must sit in an advertisement, placed by
 * bthome_locate_adv_data after link_addr (LE link layer) or, without it, by
 * bthome_locate_hci_report. wire_len: the frame's length before the capture's snap
 * length cut it to frame_len (or frame_len): the last service data may then run past
 * the captured bytes, its length still the AD structure's. */
bool bthome_next_service_data(const uint8_t *frame, size_t frame_len, size_t wire_len,
                              const uint8_t link_addr[6], size_t *pos,
                              bthome_service_data_t *out);

/* The Complete Local Name, else the Shortened one: offset and length in frame. adv->end
 * must lie within the captured bytes. */
bool bthome_adv_local_name(const uint8_t *frame, const bthome_adv_span_t *adv,
                           size_t *name_pos, size_t *name_len);

#endif
