/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the decryption path with a fixed key and device address (the spec's
 * worked example, so its capture frame is a seed that verifies). The first input byte
 * picks a mode:
 *   0  v2 service data as received: header, sealed payload, decrypt, parse the plaintext
 *   1  v2 plaintext pushed through the encrypted path: the rest is an info byte, the
 *      MAC when info bit 1 says so, then objects; it is sealed with the fixed key by
 *      tests/unit/seal.c (nothing shared with the core), then opened like mode 0, which
 *      must verify and give the same objects back. Without this the fuzzer could never
 *      forge a MIC to reach post-decryption parsing.
 *   2  v1 (UUID 0x181E) service data as received
 *   3  v1 plaintext sealed, then opened like mode 2
 *   4  key and MAC text, as typed into the keys table
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bthome_core.h"
#include "bthome_crypto.h"
#include "fuzz_common.h"
#include "seal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { RAW_V2, SEAL_V2, RAW_V1, SEAL_V1, KEY_TEXT, MODES };

static const uint8_t KEY[BTHOME_KEY_LEN] = {
    0x23, 0x1d, 0x39, 0xc1, 0xd7, 0xcc, 0x1a, 0xb1,
    0xae, 0xe2, 0x24, 0xcd, 0x09, 0x6d, 0xb9, 0x32,
};
static const uint8_t DEVICE[BTHOME_MAC_LEN] = { 0x54, 0x48, 0xe6, 0x8f, 0x80, 0xa5 };
static bthome_cipher_t *cipher;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cipher = bthome_cipher_new(KEY);
    FUZZ_ASSERT(cipher != NULL);
    return 0;
}

/* A decrypted plaintext: a heap copy of exactly its size, so ASan bounds the parser. */
typedef struct {
    uint8_t *data;
    size_t len;
} opened_t;

/* CCM-decrypts a split payload; on success out owns the plaintext. */
static int open_sealed(const bthome_sealed_t *sealed, const uint8_t *nonce, size_t nonce_len,
                       int v1, opened_t *out)
{
    static const uint8_t v1_aad = BTHOME_V1_AAD;
    uint8_t *plain = malloc(sealed->ciphertext_len ? sealed->ciphertext_len : 1);
    bthome_crypt_status_t st;

    FUZZ_ASSERT(plain != NULL);
    st = bthome_ccm_decrypt(cipher, nonce, nonce_len, v1 ? &v1_aad : NULL, v1 ? 1 : 0,
                            sealed->ciphertext, sealed->ciphertext_len, sealed->mic, plain);
    FUZZ_ASSERT(st != BTHOME_CRYPT_ERROR);
    if (st != BTHOME_CRYPT_OK) {
        free(plain);
        return 0;
    }
    out->data = plain;
    out->len = sealed->ciphertext_len;
    return 1;
}

static int split(const uint8_t *body, size_t len, bthome_sealed_t *sealed)
{
    if (!bthome_split_sealed(body, len, sealed))
        return 0;
    FUZZ_ASSERT(sealed->ciphertext == body);
    FUZZ_ASSERT(sealed->ciphertext_len + BTHOME_SEALED_MIN == len);
    return 1;
}

/* Mode 0, as packet-bthome.c add_v2/add_encrypted: the nonce takes the included MAC,
 * else the advertiser's address. */
static int open_v2(const uint8_t *sd, size_t len, opened_t *out)
{
    bthome_v2_header_t hdr;
    bthome_sealed_t sealed;
    uint8_t nonce[BTHOME_NONCE_V2_LEN];

    if (bthome_parse_v2_header(sd, len, &hdr) != BTHOME_HEADER_OK || !hdr.encrypted ||
        !split(sd + hdr.body_offset, len - hdr.body_offset, &sealed))
        return 0;
    bthome_nonce_v2(hdr.has_mac ? hdr.mac : DEVICE, hdr.info, sealed.counter, nonce);
    if (!open_sealed(&sealed, nonce, sizeof nonce, 0, out))
        return 0;
    fuzz_v2_objects(out->data, out->len);
    return 1;
}

static int open_v1(const uint8_t *sd, size_t len, opened_t *out)
{
    bthome_sealed_t sealed;
    uint8_t nonce[BTHOME_NONCE_V1_LEN];

    if (!split(sd, len, &sealed))
        return 0;
    bthome_nonce_v1(DEVICE, sealed.counter, nonce);
    if (!open_sealed(&sealed, nonce, sizeof nonce, 1, out))
        return 0;
    fuzz_v1_objects(out->data, out->len);
    return 1;
}

/* Sealing then opening must give back the very plaintext. */
static void check_round_trip(const uint8_t *sd, size_t len, const uint8_t *plain, size_t n,
                             int v1)
{
    opened_t out;

    FUZZ_ASSERT(v1 ? open_v1(sd, len, &out) : open_v2(sd, len, &out));
    FUZZ_ASSERT(out.len == n && (n == 0 || memcmp(out.data, plain, n) == 0));
    free(out.data);
}

static uint32_t counter_of(const uint8_t *data, size_t size)
{
    return (uint32_t)size * 2654435761u ^ (size ? data[0] : 0);
}

/* Mode 1: info byte, [MAC as on the wire], objects. */
static void sealed_v2(const uint8_t *data, size_t size)
{
    uint8_t info, mac[BTHOME_MAC_LEN];
    size_t head;
    uint8_t *sd;

    if (size == 0)
        return;
    info = data[0] | BTHOME_INFO_ENCRYPTED;
    head = info & BTHOME_INFO_MAC_INCLUDED ? 1 + BTHOME_MAC_LEN : 1;
    if (size < head)
        return;
    for (size_t i = 0; i < BTHOME_MAC_LEN; i++)     /* the nonce wants display order */
        mac[i] = head > 1 ? data[BTHOME_MAC_LEN - i] : DEVICE[i];
    sd = malloc(size + BTHOME_SEALED_MIN);
    FUZZ_ASSERT(sd != NULL);
    memcpy(sd, data, head);
    sd[0] = info;
    FUZZ_ASSERT(seal_v2(KEY, mac, info, counter_of(data, size), data + head, size - head,
                        sd + head));
    check_round_trip(sd, size + BTHOME_SEALED_MIN, data + head, size - head, 0);
    free(sd);
}

/* Mode 3: a v1 object list. */
static void sealed_v1(const uint8_t *data, size_t size)
{
    uint8_t *sd = malloc(size + BTHOME_SEALED_MIN);

    FUZZ_ASSERT(sd != NULL);
    FUZZ_ASSERT(seal_v1(KEY, DEVICE, counter_of(data, size), data, size, sd));
    check_round_trip(sd, size + BTHOME_SEALED_MIN, data, size, 1);
    free(sd);
}

static void raw(const uint8_t *data, size_t size, int v1)
{
    opened_t out;

    if (v1 ? open_v1(data, size, &out) : open_v2(data, size, &out))
        free(out.data);
}

/* Mode 4: the text a user types into the keys table; an accepted MAC or key reads back
 * the same after printing it. */
static void key_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), again[48];
    uint8_t mac[BTHOME_MAC_LEN], mac2[BTHOME_MAC_LEN], key[BTHOME_KEY_LEN];
    uint8_t key2[BTHOME_KEY_LEN];
    bool wildcard;

    FUZZ_ASSERT(text != NULL);
    memcpy(text, data, size);
    text[size] = '\0';
    if (bthome_parse_mac(text, mac, &wildcard) && !wildcard) {
        snprintf(again, sizeof again, "%02x:%02x:%02x:%02x:%02x:%02x",
                 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
        FUZZ_ASSERT(bthome_parse_mac(again, mac2, &wildcard) && !memcmp(mac, mac2, sizeof mac));
    }
    if (bthome_parse_key(text, key)) {
        for (size_t i = 0; i < BTHOME_KEY_LEN; i++)
            snprintf(again + 2 * i, sizeof again - 2 * i, "%02x", key[i]);
        FUZZ_ASSERT(bthome_parse_key(again, key2) && !memcmp(key, key2, sizeof key));
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bthome_core_init();
    if (size == 0)
        return 0;
    switch (data[0] % MODES) {
    case RAW_V2: raw(data + 1, size - 1, 0); break;
    case SEAL_V2: sealed_v2(data + 1, size - 1); break;
    case RAW_V1: raw(data + 1, size - 1, 1); break;
    case SEAL_V1: sealed_v1(data + 1, size - 1); break;
    default: key_text(data + 1, size - 1); break;
    }
    return 0;
}
