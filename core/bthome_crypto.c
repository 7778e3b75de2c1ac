/* BTHome encryption; see bthome_crypto.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_crypto.h"
#include "bthome_core.h"
#include "bthome_v1.h"

#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

struct bthome_cipher {
    gcry_cipher_hd_t hd;
};

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')       /* ASCII only, whatever the locale */
        return c - 'A' + 10;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool bthome_parse_mac(const char *text, uint8_t mac[6], bool *wildcard)
{
    uint8_t out[6];

    *wildcard = false;
    if (!text)
        return false;
    if (strcmp(text, "*") == 0) {
        *wildcard = true;
        return true;
    }
    /* exactly "hh:hh:hh:hh:hh:hh" (or with '-') */
    if (strlen(text) != 17)
        return false;
    for (int i = 0; i < 6; i++) {
        const char *p = text + 3 * i;
        int hi = hex_value((unsigned char)p[0]), lo = hex_value((unsigned char)p[1]);
        if (hi < 0 || lo < 0 || (i < 5 && p[2] != ':' && p[2] != '-'))
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    memcpy(mac, out, sizeof out);
    return true;
}

bool bthome_parse_key(const char *text, uint8_t key[BTHOME_KEY_LEN])
{
    uint8_t out[BTHOME_KEY_LEN];
    size_t digits = 0;

    if (!text)
        return false;
    for (const char *p = text; *p; p++) {
        int v = hex_value((unsigned char)*p);
        if (v < 0) {
            if (*p == ':' || *p == '-' || *p == ' ')
                continue;
            return false;
        }
        if (digits == 2 * BTHOME_KEY_LEN)
            return false;
        out[digits / 2] = digits % 2 ? (uint8_t)(out[digits / 2] | v) : (uint8_t)(v << 4);
        digits++;
    }
    if (digits != 2 * BTHOME_KEY_LEN)
        return false;
    memcpy(key, out, sizeof out);
    return true;
}

bool bthome_split_sealed(const uint8_t *payload, size_t len, bthome_sealed_t *out)
{
    if (len < BTHOME_SEALED_MIN)
        return false;
    out->ciphertext = payload;
    out->ciphertext_len = len - BTHOME_SEALED_MIN;
    out->counter = payload + out->ciphertext_len;
    out->counter_value = (uint32_t)out->counter[0] | (uint32_t)out->counter[1] << 8 |
                         (uint32_t)out->counter[2] << 16 | (uint32_t)out->counter[3] << 24;
    out->mic = out->counter + BTHOME_COUNTER_LEN;
    return true;
}

void bthome_nonce_v2(const uint8_t mac[6], uint8_t info, const uint8_t counter[4],
                     uint8_t nonce[BTHOME_NONCE_V2_LEN])
{
    memcpy(nonce, mac, 6);
    nonce[6] = BTHOME_UUID_V2 & 0xFF;
    nonce[7] = BTHOME_UUID_V2 >> 8;
    nonce[8] = info;
    memcpy(nonce + 9, counter, BTHOME_COUNTER_LEN);
}

void bthome_nonce_v1(const uint8_t mac[6], const uint8_t counter[4],
                     uint8_t nonce[BTHOME_NONCE_V1_LEN])
{
    memcpy(nonce, mac, 6);
    nonce[6] = BTHOME_UUID_V1_ENCRYPTED & 0xFF;     /* the UUID as on the wire */
    nonce[7] = BTHOME_UUID_V1_ENCRYPTED >> 8;
    memcpy(nonce + 8, counter, BTHOME_COUNTER_LEN);
}

bthome_cipher_t *bthome_cipher_new(const uint8_t key[BTHOME_KEY_LEN])
{
    bthome_cipher_t *cipher;

    /* Wireshark initialises libgcrypt before plugins register; the unit tests and the
     * fuzzers use the core alone and must do it themselves. */
    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        gcry_check_version(NULL);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
    /* libgcrypt's allocator: the core is used without Wireshark (no wmem/GLib), and
     * this memory is freed only by bthome_cipher_free */
    cipher = gcry_calloc(1, sizeof *cipher);
    if (!cipher)
        return NULL;
    if (gcry_cipher_open(&cipher->hd, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CCM, 0) ||
        gcry_cipher_setkey(cipher->hd, key, BTHOME_KEY_LEN)) {
        bthome_cipher_free(cipher);
        return NULL;
    }
    return cipher;
}

void bthome_cipher_free(bthome_cipher_t *cipher)
{
    if (!cipher)
        return;
    if (cipher->hd)
        gcry_cipher_close(cipher->hd);
    gcry_free(cipher);
}

/* CCM needs nonce, then all lengths, then the associated data before any payload. */
static bool ccm_start(bthome_cipher_t *cipher, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *aad, size_t aad_len, size_t len)
{
    uint64_t lengths[3] = { len, aad_len, BTHOME_MIC_LEN };

    return !gcry_cipher_reset(cipher->hd) &&
           !gcry_cipher_setiv(cipher->hd, nonce, nonce_len) &&
           !gcry_cipher_ctl(cipher->hd, GCRYCTL_SET_CCM_LENGTHS, lengths, sizeof lengths) &&
           (aad_len == 0 || !gcry_cipher_authenticate(cipher->hd, aad, aad_len));
}

bthome_crypt_status_t bthome_ccm_decrypt(bthome_cipher_t *cipher,
                                         const uint8_t *nonce, size_t nonce_len,
                                         const uint8_t *aad, size_t aad_len,
                                         const uint8_t *ciphertext, size_t len,
                                         const uint8_t mic[BTHOME_MIC_LEN], uint8_t *plain)
{
    uint8_t scratch;

    if (!ccm_start(cipher, nonce, nonce_len, aad, aad_len, len))
        return BTHOME_CRYPT_ERROR;
    /* An empty payload still has to pass through decrypt before the tag check. */
    if (gcry_cipher_decrypt(cipher->hd, len ? plain : &scratch, len,
                            len ? ciphertext : &scratch, len))
        return BTHOME_CRYPT_ERROR;
    return gcry_cipher_checktag(cipher->hd, mic, BTHOME_MIC_LEN) ? BTHOME_CRYPT_MIC_FAILURE
                                                                : BTHOME_CRYPT_OK;
}
