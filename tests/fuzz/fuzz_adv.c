/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: finding the advertisement around a BTHome service data in the frame
 * bytes (bthome_adv.c), as the dissector does for device names. Input: the advertiser
 * address (6 bytes, display order), the position of the service data AD structure in
 * the frame (u16 LE), then the frame. What is found must lie inside the frame and hold
 * the service data; a name must lie inside the advertisement. The frame is also read as
 * an HCI event whose reports hold the service data (no address given), and searched for
 * every BTHome service data with and without the address. */
#include "bthome_adv.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER 8

static void check_name(const uint8_t *frame, const bthome_adv_span_t *adv)
{
    size_t name_pos, name_len;

    if (!bthome_adv_local_name(frame, adv, &name_pos, &name_len))
        return;
    FUZZ_ASSERT(name_len >= 1);
    FUZZ_ASSERT(name_pos >= adv->start + 2 && name_pos + name_len <= adv->end);
}

/* Every service data the search finds lies in its advertisement, inside the frame, and
 * the search moves forward. */
static void check_search(const uint8_t *frame, size_t frame_len, size_t wire_len,
                         const uint8_t *link)
{
    bthome_service_data_t sd;
    size_t pos = 0, last = 0;
    bool any = false;

    while (bthome_next_service_data(frame, frame_len, wire_len, link, &pos, &sd)) {
        FUZZ_ASSERT(pos > last && (!any || sd.ad >= last));
        FUZZ_ASSERT(sd.adv.start <= sd.ad && sd.start + sd.length <= sd.adv.end);
        FUZZ_ASSERT(sd.start <= frame_len && sd.adv.end <= wire_len);
        FUZZ_ASSERT(bthome_is_service_uuid(sd.uuid));
        last = pos;
        any = true;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *frame = data + HEADER;
    size_t frame_len, ad_pos;
    bthome_adv_span_t adv;

    if (size < HEADER)
        return 0;
    frame_len = size - HEADER;
    ad_pos = (size_t)data[6] | (size_t)data[7] << 8;
    check_search(frame, frame_len, frame_len, data);
    check_search(frame, frame_len, frame_len, NULL);
    /* the same bytes as the start of a longer frame the capture cut short */
    check_search(frame, frame_len, frame_len + data[7], data);
    check_search(frame, frame_len, frame_len + data[7], NULL);
    /* without the address, from the HCI event's reports: the address precedes the data */
    if (bthome_locate_hci_report(frame, frame_len, frame_len, ad_pos, &adv)) {
        FUZZ_ASSERT(adv.start <= ad_pos && ad_pos < adv.end && adv.end <= frame_len);
        FUZZ_ASSERT(adv.address + 6 < adv.start);
    }
    if (!bthome_locate_adv_data(frame, frame_len, frame_len, ad_pos, data, &adv))
        return 0;
    FUZZ_ASSERT(adv.start <= ad_pos && ad_pos < adv.end && adv.end <= frame_len);
    check_name(frame, &adv);
    return 0;
}
