/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: BTHome v2 service data (after the UUID) as the dissector reads it,
 * the device information byte, an optional MAC, then objects. Objects are parsed even
 * when the encrypted bit is set: the parser must survive any body. */
#include "bthome_core.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bthome_core_init();
    bthome_v2_header_t hdr;
    bthome_header_status_t status = bthome_parse_v2_header(data, size, &hdr);

    if (status == BTHOME_HEADER_EMPTY)
        return 0;
    FUZZ_ASSERT(hdr.body_offset <= size);
    if (hdr.has_mac)
        FUZZ_ASSERT(hdr.mac_offset + BTHOME_MAC_LEN <= size);
    if (status == BTHOME_HEADER_OK)
        fuzz_v2_objects(data + hdr.body_offset, size - hdr.body_offset);
    return 0;
}
