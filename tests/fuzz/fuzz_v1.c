/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: a legacy BTHome v1 object list (UUID 0x181C service data, or the
 * plaintext of 0x181E): control byte, object ID, value, repeated. */
#include "bthome_core.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bthome_core_init();
    fuzz_v1_objects(data, size);
    return 0;
}
