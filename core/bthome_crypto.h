/* BTHome decryption, Wireshark-free: key and MAC text, nonces, AES-128-CCM with a
 * 4-byte tag through libgcrypt. The dissector only opens; what seals the test captures
 * (captures/make_captures.py) and the tests' inputs (tests/unit/seal.c) is not here.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_CRYPTO_H
#define BTHOME_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTHOME_KEY_LEN      16
#define BTHOME_COUNTER_LEN  4
#define BTHOME_MIC_LEN      4
#define BTHOME_SEALED_MIN   (BTHOME_COUNTER_LEN + BTHOME_MIC_LEN)
#define BTHOME_NONCE_V2_LEN 13   /* MAC, UUID, info byte, counter */
#define BTHOME_NONCE_V1_LEN 12   /* MAC, UUID, counter */
#define BTHOME_V1_AAD       0x11

/* "AA:BB:CC:DD:EE:FF" (any case, ':' or '-') into display-order bytes, or "*" for
 * "every device" (*wildcard set, mac untouched). */
bool bthome_parse_mac(const char *text, uint8_t mac[6], bool *wildcard);
/* 32 hex digits; ':', '-' and spaces between them are ignored. */
bool bthome_parse_key(const char *text, uint8_t key[BTHOME_KEY_LEN]);

/* An encrypted payload: ciphertext | counter (u32 LE) | MIC. */
typedef struct {
    const uint8_t *ciphertext;
    size_t ciphertext_len;
    const uint8_t *counter;   /* the 4 bytes as on the wire, as the nonce wants them */
    uint32_t counter_value;
    const uint8_t *mic;
} bthome_sealed_t;

/* False when the payload is shorter than counter + MIC. */
bool bthome_split_sealed(const uint8_t *payload, size_t len, bthome_sealed_t *out);

/* MAC in display order, UUID as on the wire. */
void bthome_nonce_v2(const uint8_t mac[6], uint8_t info, const uint8_t counter[4],
                     uint8_t nonce[BTHOME_NONCE_V2_LEN]);
void bthome_nonce_v1(const uint8_t mac[6], const uint8_t counter[4],
                     uint8_t nonce[BTHOME_NONCE_V1_LEN]);

/* A key with its AES context set up once, reused for every packet. */
typedef struct bthome_cipher bthome_cipher_t;
bthome_cipher_t *bthome_cipher_new(const uint8_t key[BTHOME_KEY_LEN]); /* NULL on error */
void bthome_cipher_free(bthome_cipher_t *cipher);

typedef enum {
    BTHOME_CRYPT_OK,
    BTHOME_CRYPT_MIC_FAILURE,   /* wrong key, wrong nonce or tampered data */
    BTHOME_CRYPT_ERROR,         /* libgcrypt refused the parameters */
} bthome_crypt_status_t;

/* AES-128-CCM, 4-byte tag; aad may be NULL when aad_len is 0. plain receives
 * len bytes (it may be NULL when len is 0). */
bthome_crypt_status_t bthome_ccm_decrypt(bthome_cipher_t *cipher,
                                         const uint8_t *nonce, size_t nonce_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *ciphertext, size_t len,
                                         const uint8_t mic[BTHOME_MIC_LEN], uint8_t *plain);

#endif
