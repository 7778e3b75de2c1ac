/* The advertisement around a BTHome service data; see bthome_adv.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_adv.h"
#include "bthome_core.h"
#include "bthome_v1.h"

#include <string.h>

#define LL_LENGTH_BEFORE_ADVA   1   /* LL PDU header: its length byte precedes AdvA */
#define LL_ADVA_LEN             6
#define LL_EXT_BEFORE_ADVA      3   /* PDU length, extended header length, flags */
#define LL_EXT_FLAG_ADVA        0x01
#define LL_EXT_HEADER_LEN_MASK  0x3f
/* HCI LE Advertising Report: address, data length, data. */
#define HCI_LEGACY_LEN_OFFSET   6
/* HCI LE Extended Advertising Report: address, primary PHY, secondary PHY, SID, TX
 * power, RSSI, periodic interval (2), direct address type, direct address (6), data
 * length, data. */
#define HCI_EXT_LEN_OFFSET      20
#define HCI_EVT_LE_META         0x3e
#define HCI_SUB_ADV_REPORT      0x02
#define HCI_SUB_EXT_ADV_REPORT  0x0d
#define HCI_LEGACY_ADDR_OFFSET  2   /* event type, address type */
#define HCI_EXT_ADDR_OFFSET     3   /* event type (2), address type */

/* Where the frame's bytes are: captured holds them; wire, the frame's length on the air or
 * the HCI transport, is more when the capture's snap length cut it. */
typedef struct {
    const uint8_t *bytes;
    size_t captured, wire;
} frame_t;

static frame_t frame_of(const uint8_t *bytes, size_t captured, size_t wire)
{
    return (frame_t){ bytes, captured, wire > captured ? wire : captured };
}

/* Walking the AD structures from start lands on ad_pos and then exactly on end. A frame
 * cut short holds what the walk reaches before the cut; it must have passed ad_pos. */
static bool chains_through(const frame_t *f, size_t start, size_t end, size_t ad_pos)
{
    bool hit = false;
    size_t pos = start;

    while (pos < end) {
        if (pos >= f->captured)
            return hit;
        if (f->bytes[pos] == 0)     /* zero padding ends the significant part */
            return hit && pos > ad_pos;
        hit = hit || pos == ad_pos;
        pos += 1u + f->bytes[pos];
    }
    return hit && pos == end;
}

static bool try_span(const frame_t *f, size_t ad_pos, size_t start, size_t len,
                     bthome_adv_span_t *out)
{
    if (start > ad_pos || start + len > f->wire || start + len <= ad_pos ||
        !chains_through(f, start, start + len, ad_pos))
        return false;
    out->start = start;
    out->end = start + len;
    return true;
}

/* LE link layer extended advertising (AUX_ADV_IND and the like): the PDU length byte,
 * then the extended header (its length in 6 bits, AdvMode), its flags with AdvA present,
 * AdvA first of the optional fields; the AdvData follows the extended header and runs to
 * the end of the PDU. */
static bool ll_extended_span(const frame_t *f, size_t ad_pos, size_t a,
                             bthome_adv_span_t *out)
{
    const uint8_t *frame = f->bytes;
    size_t ext, start, end;

    if (a < LL_EXT_BEFORE_ADVA || !(frame[a - 1] & LL_EXT_FLAG_ADVA))
        return false;
    ext = a - 2;                                /* the extended header length byte */
    start = ext + 1 + (frame[ext] & LL_EXT_HEADER_LEN_MASK);
    end = ext + frame[ext - 1];
    return start >= a + LL_ADVA_LEN && end >= start &&
           try_span(f, ad_pos, start, end - start, out);
}

/* The address at a, then the AdvData in one of the layouts that carry one. */
static bool span_after_address(const frame_t *f, size_t ad_pos, size_t a,
                               bthome_adv_span_t *out)
{
    const uint8_t *frame = f->bytes;
    size_t after = a + LL_ADVA_LEN;

    out->address = a;

    /* LE link layer: the PDU length counts AdvA and AdvData */
    if (a >= LL_LENGTH_BEFORE_ADVA && frame[a - 1] >= LL_ADVA_LEN &&
        try_span(f, ad_pos, after, frame[a - 1] - (size_t)LL_ADVA_LEN, out))
        return true;
    if (ll_extended_span(f, ad_pos, a, out))
        return true;
    if (a + HCI_LEGACY_LEN_OFFSET < f->captured &&
        try_span(f, ad_pos, a + HCI_LEGACY_LEN_OFFSET + 1, frame[a + HCI_LEGACY_LEN_OFFSET],
                 out))
        return true;
    return a + HCI_EXT_LEN_OFFSET < f->captured &&
           try_span(f, ad_pos, a + HCI_EXT_LEN_OFFSET + 1, frame[a + HCI_EXT_LEN_OFFSET], out);
}

/* The last byte c in the first n of s, or NULL. */
static const uint8_t *last_byte(const uint8_t *s, uint8_t c, size_t n)
{
    while (n-- > 0)
        if (s[n] == c)
            return s + n;
    return NULL;
}

static bool locate_adv_data(const frame_t *f, size_t ad_pos, const uint8_t addr[6],
                            bthome_adv_span_t *out)
{
    uint8_t wire[6];
    const uint8_t *at;

    if (!f->bytes || !addr || ad_pos >= f->captured)
        return false;
    bthome_mac_reverse(wire, addr);
    /* the nearest address before the service data is the advert's own: found from its
     * first byte, searched backwards from the last place it can start */
    for (size_t end = ad_pos >= LL_ADVA_LEN ? ad_pos - LL_ADVA_LEN + 1 : 0;
         end > 0 && (at = last_byte(f->bytes, wire[0], end));) {
        size_t a = (size_t)(at - f->bytes);

        if (memcmp(at, wire, sizeof wire) == 0 && span_after_address(f, ad_pos, a, out))
            return true;
        end = a;
    }
    return false;
}

bool bthome_locate_adv_data(const uint8_t *frame, size_t frame_len, size_t wire_len,
                            size_t ad_pos, const uint8_t addr[6], bthome_adv_span_t *out)
{
    const frame_t f = frame_of(frame, frame_len, wire_len);

    return locate_adv_data(&f, ad_pos, addr, out);
}

bool bthome_adv_local_name(const uint8_t *frame, const bthome_adv_span_t *adv,
                           size_t *name_pos, size_t *name_len)
{
    bool found = false;

    for (size_t pos = adv->start; pos < adv->end && frame[pos]; pos += 1u + frame[pos]) {
        uint8_t type;
        if (pos + 1u + frame[pos] > adv->end || frame[pos] < 2)
            continue;   /* runs past the end (the loop stops next), or an empty name */
        type = frame[pos + 1];
        if (type == BTHOME_AD_COMPLETE_NAME ||
            (type == BTHOME_AD_SHORT_NAME && !found)) {
            *name_pos = pos + 2;
            *name_len = frame[pos] - 1u;
            found = true;
            if (type == BTHOME_AD_COMPLETE_NAME)
                return true;
        }
    }
    return found;
}

/* The reports of one LE Meta event that starts at e and ends the frame. */
static bool report_around(const frame_t *f, size_t e, size_t ad_pos, bthome_adv_span_t *out)
{
    const uint8_t *frame = f->bytes;
    bool legacy = frame[e + 2] == HCI_SUB_ADV_REPORT;
    size_t pos = e + 4;

    for (unsigned i = 0; i < frame[e + 3]; i++) {
        size_t address = pos + (legacy ? HCI_LEGACY_ADDR_OFFSET : HCI_EXT_ADDR_OFFSET);
        size_t length_at = address + (legacy ? HCI_LEGACY_LEN_OFFSET : HCI_EXT_LEN_OFFSET);
        size_t start = length_at + 1, end;

        if (length_at >= f->captured || (end = start + frame[length_at]) > f->wire)
            return false;
        if (start <= ad_pos && ad_pos < end && chains_through(f, start, end, ad_pos)) {
            out->start = start;
            out->end = end;
            out->address = address;
            return true;
        }
        pos = end + (legacy ? 1 : 0);   /* a legacy report ends with its RSSI */
    }
    return false;
}

static bool locate_hci_report(const frame_t *f, size_t ad_pos, bthome_adv_span_t *out)
{
    const uint8_t *frame = f->bytes;

    if (!frame || ad_pos >= f->captured)
        return false;
    for (size_t e = 0; e + 4 <= ad_pos; e++)
        if (frame[e] == HCI_EVT_LE_META && frame[e + 1] == f->wire - e - 2 &&
            (frame[e + 2] == HCI_SUB_ADV_REPORT || frame[e + 2] == HCI_SUB_EXT_ADV_REPORT) &&
            report_around(f, e, ad_pos, out))
            return true;
    return false;
}

bool bthome_locate_hci_report(const uint8_t *frame, size_t frame_len, size_t wire_len,
                              size_t ad_pos, bthome_adv_span_t *out)
{
    const frame_t f = frame_of(frame, frame_len, wire_len);

    return locate_hci_report(&f, ad_pos, out);
}

bool bthome_is_service_uuid(unsigned uuid)
{
    return uuid == BTHOME_UUID_V2 || uuid == BTHOME_UUID_V1 || uuid == BTHOME_UUID_V1_ENCRYPTED;
}

/* The 16-bit UUID after the AD type byte at `at` (least significant byte first). */
static unsigned uuid_after(const uint8_t *frame, size_t at)
{
    return (unsigned)(frame[at + 1] | frame[at + 2] << 8);
}

/* Whether the AD type byte at `at` starts a candidate: a BTHome UUID after it, an AD
 * length before it that holds one. */
static bool service_data_candidate(const uint8_t *frame, size_t frame_len, size_t at)
{
    if (at == 0 || at + 2 >= frame_len || frame[at - 1] < BTHOME_AD_SERVICE_DATA_HEADER)
        return false;
    return bthome_is_service_uuid(uuid_after(frame, at));
}

bool bthome_next_service_data(const uint8_t *frame, size_t frame_len, size_t wire_len,
                              const uint8_t link_addr[6], size_t *pos,
                              bthome_service_data_t *out)
{
    const uint8_t *type;

    if (!frame)
        return false;
    while (*pos < frame_len &&
           (type = memchr(frame + *pos, BTHOME_AD_SERVICE_DATA_16, frame_len - *pos))) {
        size_t at = (size_t)(type - frame);

        *pos = at + 1;
        if (!service_data_candidate(frame, frame_len, at))
            continue;
        out->ad = at - 1;
        if (!(link_addr ? bthome_locate_adv_data(frame, frame_len, wire_len, out->ad, link_addr,
                                                 &out->adv)
                        : bthome_locate_hci_report(frame, frame_len, wire_len, out->ad,
                                                   &out->adv)))
            continue;
        /* the advertisement holds the whole AD structure (its end may be cut off) */
        out->start = out->ad + 1 + BTHOME_AD_SERVICE_DATA_HEADER;
        out->length = frame[out->ad] - (size_t)BTHOME_AD_SERVICE_DATA_HEADER;
        out->uuid = (uint16_t)uuid_after(frame, at);
        return true;
    }
    *pos = frame_len;
    return false;
}
