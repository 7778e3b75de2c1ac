/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sealing for the tests' inputs; see seal.h. */
#include "seal.h"

#include <string.h>

#include <gcrypt.h>

bool seal_ccm(const uint8_t key[16], const uint8_t *nonce, size_t nonce_len,
              const uint8_t *aad, size_t aad_len, const uint8_t *plain, size_t len,
              uint8_t *ciphertext, uint8_t mic[4])
{
    uint64_t lengths[3] = { len, aad_len, 4 };
    gcry_cipher_hd_t hd;
    uint8_t scratch = 0;
    bool ok;

    if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
        gcry_check_version(NULL);
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
    if (gcry_cipher_open(&hd, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CCM, 0))
        return false;
    /* CCM wants the nonce, then every length, then the associated data */
    ok = !gcry_cipher_setkey(hd, key, 16) && !gcry_cipher_setiv(hd, nonce, nonce_len) &&
         !gcry_cipher_ctl(hd, GCRYCTL_SET_CCM_LENGTHS, lengths, sizeof lengths) &&
         (aad_len == 0 || !gcry_cipher_authenticate(hd, aad, aad_len)) &&
         !gcry_cipher_encrypt(hd, len ? ciphertext : &scratch, len,
                              len ? plain : &scratch, len) &&
         !gcry_cipher_gettag(hd, mic, 4);
    gcry_cipher_close(hd);
    return ok;
}

/* nonce = MAC | UUID as on the wire | [info byte] | counter (u32 LE); out as in seal.h */
static bool seal(const uint8_t key[16], const uint8_t mac[6], uint16_t uuid, int info,
                 uint32_t counter, const uint8_t *plain, size_t len, uint8_t *out)
{
    static const uint8_t v1_aad = 0x11;
    uint8_t nonce[13], ctr[4] = { (uint8_t)counter, (uint8_t)(counter >> 8),
                                  (uint8_t)(counter >> 16), (uint8_t)(counter >> 24) };
    size_t n = 6;

    memcpy(nonce, mac, 6);
    nonce[n++] = (uint8_t)uuid;
    nonce[n++] = (uint8_t)(uuid >> 8);
    if (info >= 0)
        nonce[n++] = (uint8_t)info;
    memcpy(nonce + n, ctr, 4);
    n += 4;
    memcpy(out + len, ctr, 4);
    return seal_ccm(key, nonce, n, info >= 0 ? NULL : &v1_aad, info >= 0 ? 0 : 1, plain,
                    len, out, out + len + 4);
}

bool seal_v2(const uint8_t key[16], const uint8_t mac[6], uint8_t info, uint32_t counter,
             const uint8_t *plain, size_t len, uint8_t *out)
{
    return seal(key, mac, 0xFCD2, info, counter, plain, len, out);
}

bool seal_v1(const uint8_t key[16], const uint8_t mac[6], uint32_t counter,
             const uint8_t *plain, size_t len, uint8_t *out)
{
    return seal(key, mac, 0x181E, -1, counter, plain, len, out);
}
