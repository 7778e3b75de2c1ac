/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer targets: walk a v2 or v1 object list the way the dissector
 * does and check what the dissector relies on (every offset and length the core hands
 * out lies inside the buffer, value text is NUL-terminated within its buffer). A broken
 * invariant aborts, so libFuzzer keeps the input as a crash.
 */
#ifndef BTHOME_FUZZ_COMMON_H
#define BTHOME_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_ASSERT(cond) \
    ((cond) ? (void)0 : fuzz_fail(#cond, __FILE__, __LINE__))

void fuzz_fail(const char *what, const char *file, int line) __attribute__((noreturn));

/* Parses data as v2 objects, formats every value and label. */
void fuzz_v2_objects(const uint8_t *data, size_t len);
/* Parses data as a v1 object list, formats every value and label. */
void fuzz_v1_objects(const uint8_t *data, size_t len);

#endif
