/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sealing for the tests' inputs: AES-128-CCM with a 4-byte MIC straight through
 * libgcrypt, nonces built here from the spec (https://bthome.io/encryption/), nothing
 * shared with core/bthome_crypto.c, which the tests then open. Used by the unit tests
 * (test_crypto.c) and the crypto fuzzer (tests/fuzz/fuzz_crypto.c).
 */
#ifndef BTHOME_TEST_SEAL_H
#define BTHOME_TEST_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ciphertext (len bytes) and the 4-byte MIC; aad may be NULL when aad_len is 0. */
bool seal_ccm(const uint8_t key[16], const uint8_t *nonce, size_t nonce_len,
              const uint8_t *aad, size_t aad_len, const uint8_t *plain, size_t len,
              uint8_t *ciphertext, uint8_t mic[4]);

/* Service data after the header: out receives ciphertext | counter (u32 LE) | MIC,
 * len + 8 bytes. mac in display order. v2's nonce holds the info byte; v1 (UUID 0x181E)
 * authenticates the byte 0x11. False on a libgcrypt error. */
bool seal_v2(const uint8_t key[16], const uint8_t mac[6], uint8_t info, uint32_t counter,
             const uint8_t *plain, size_t len, uint8_t *out);
bool seal_v1(const uint8_t key[16], const uint8_t mac[6], uint32_t counter,
             const uint8_t *plain, size_t len, uint8_t *out);

#endif
