/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the decryption core (core/bthome_crypto.c) and the device audit
 * (core/bthome_audit.c).
 *
 * Vectors: the spec's worked example (https://bthome.io/encryption/), and
 * NIST SP 800-38C example 1 (AES-CCM with a 4-byte tag), both independent of this code;
 * the round trips are sealed by seal.c, which shares nothing with the core.
 */
#include "bthome_audit.h"
#include "bthome_core.h"
#include "bthome_crypto.h"
#include "check.h"
#include "seal.h"

/* ------------------------------------------------------------- key and MAC text */

static void test_parse_mac(void)
{
    static const struct { const char *text; bool ok, wildcard; const char *mac; } cases[] = {
        { "54:48:E6:8F:80:A5", true, false, "5448e68f80a5" },
        { "54:48:e6:8f:80:a5", true, false, "5448e68f80a5" },
        { "54-48-E6-8F-80-A5", true, false, "5448e68f80a5" },
        { "*", true, true, NULL },
        { "", false, false, NULL },
        { "54:48:E6:8F:80", false, false, NULL },
        { "54:48:E6:8F:80:A5:00", false, false, NULL },
        { "54:48:E6:8F:80:G5", false, false, NULL },
        { "54.48.E6.8F.80.A5", false, false, NULL },
        { "5448E68F80A5", false, false, NULL },
        { "54:48:E6:8F:80:A", false, false, NULL },
        { "**", false, false, NULL },
        { " 54:48:E6:8F:80:A5", false, false, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t mac[6] = { 0 };
        bool wildcard = !cases[i].wildcard;
        cur = cases[i].text;
        CHECK_BOOL(bthome_parse_mac(cases[i].text, mac, &wildcard), cases[i].ok);
        if (!cases[i].ok)
            continue;
        CHECK_BOOL(wildcard, cases[i].wildcard);
        if (cases[i].mac)
            CHECK_HEX(mac, 6, cases[i].mac);
    }
    bool wildcard;
    uint8_t mac[6];
    cur = "NULL";
    CHECK_BOOL(bthome_parse_mac(NULL, mac, &wildcard), false);
}

static void test_parse_key(void)
{
    static const struct { const char *text; bool ok; } cases[] = {
        { "231d39c1d7cc1ab1aee224cd096db932", true },
        { "231D39C1D7CC1AB1AEE224CD096DB932", true },
        { "23:1d:39:c1:d7:cc:1a:b1:ae:e2:24:cd:09:6d:b9:32", true },
        { "23-1d-39-c1-d7-cc-1a-b1-ae-e2-24-cd-09-6d-b9-32", true },
        { "23 1d 39 c1 d7 cc 1a b1 ae e2 24 cd 09 6d b9 32", true },
        { "231d39c1d7cc1ab1aee224cd096db93", false },      /* 31 digits */
        { "231d39c1d7cc1ab1aee224cd096db9320", false },    /* 33 */
        { "231d39c1d7cc1ab1aee224cd096db93g", false },
        { "0x231d39c1d7cc1ab1aee224cd096db932", false },
        { "", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t key[16] = { 0 };
        cur = cases[i].text;
        CHECK_BOOL(bthome_parse_key(cases[i].text, key), cases[i].ok);
        if (cases[i].ok)
            CHECK_HEX(key, 16, "231d39c1d7cc1ab1aee224cd096db932");
    }
    uint8_t key[16];
    cur = "NULL";
    CHECK_BOOL(bthome_parse_key(NULL, key), false);
}

/* ------------------------------------------------ the spec's worked example */

static const char *const SPEC_KEY = "231d39c1d7cc1ab1aee224cd096db932";
static const uint8_t SPEC_MAC[6] = { 0x54, 0x48, 0xe6, 0x8f, 0x80, 0xa5 };
static const char *const SPEC_AIR = "41 e4 45 f3 c9 96 2b 33 22 11 00 6c 7c 45 19";

static bthome_cipher_t *spec_cipher(void)
{
    uint8_t key[16];
    bthome_parse_key(SPEC_KEY, key);
    return bthome_cipher_new(key);
}

static void test_spec_example(void)
{
    bthome_sealed_t sealed;
    uint8_t nonce[BTHOME_NONCE_V2_LEN], plain[16];
    bthome_cipher_t *cipher = spec_cipher();

    load(SPEC_AIR);
    CHECK(cipher != NULL);
    CHECK(bthome_split_sealed(in + 1, in_len - 1, &sealed));
    CHECK_INT(sealed.ciphertext_len, 6);
    CHECK_HEX(sealed.ciphertext, 6, "e445f3c9962b");
    CHECK_INT(sealed.counter_value, 0x00112233);
    CHECK_HEX(sealed.counter, 4, "33221100");
    CHECK_HEX(sealed.mic, 4, "6c7c4519");
    bthome_nonce_v2(SPEC_MAC, in[0], sealed.counter, nonce);
    CHECK_HEX(nonce, sizeof nonce, "5448e68f80a5d2fc4133221100");
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0, sealed.ciphertext,
                                 sealed.ciphertext_len, sealed.mic, plain), BTHOME_CRYPT_OK);
    CHECK_HEX(plain, 6, "02ca0903bf13");       /* 25.06 °C, 50.55 % */

    /* the same cipher handle serves the next packet */
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0, sealed.ciphertext,
                                 sealed.ciphertext_len, sealed.mic, plain), BTHOME_CRYPT_OK);

    /* and the tests' own sealing (seal.c) gives the spec's bytes */
    uint8_t key[16], out[14];
    static const uint8_t objects[] = { 0x02, 0xca, 0x09, 0x03, 0xbf, 0x13 };
    bthome_parse_key(SPEC_KEY, key);
    CHECK(seal_v2(key, SPEC_MAC, 0x41, 0x00112233, objects, sizeof objects, out));
    CHECK_HEX(out, sizeof out, "e445f3c9962b332211006c7c4519");
    bthome_cipher_free(cipher);
}

/* Every single-bit change of ciphertext, counter, MIC, info byte or MAC fails the MIC. */
static void test_tampering(void)
{
    bthome_cipher_t *cipher = spec_cipher();
    uint8_t air[15], mac[6], nonce[BTHOME_NONCE_V2_LEN], plain[16];
    bthome_sealed_t sealed;

    load(SPEC_AIR);
    for (size_t byte = 0; byte < in_len + 6; byte++)
        for (int bit = 0; bit < 8; bit++) {
            memcpy(air, in, sizeof air);
            memcpy(mac, SPEC_MAC, sizeof mac);
            if (byte < in_len)
                air[byte] ^= (uint8_t)(1 << bit);
            else
                mac[byte - in_len] ^= (uint8_t)(1 << bit);
            describe("spec example, bit flipped in byte %u (15+ = MAC)", (unsigned)byte);
            bthome_split_sealed(air + 1, sizeof air - 1, &sealed);
            bthome_nonce_v2(mac, air[0], sealed.counter, nonce);
            CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0,
                                         sealed.ciphertext, sealed.ciphertext_len,
                                         sealed.mic, plain), BTHOME_CRYPT_MIC_FAILURE);
        }
    bthome_cipher_free(cipher);

    uint8_t wrong[16] = { 0 };
    cipher = bthome_cipher_new(wrong);
    load(SPEC_AIR);
    bthome_split_sealed(in + 1, in_len - 1, &sealed);
    bthome_nonce_v2(SPEC_MAC, in[0], sealed.counter, nonce);
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0, sealed.ciphertext,
                                 sealed.ciphertext_len, sealed.mic, plain),
              BTHOME_CRYPT_MIC_FAILURE);
    bthome_cipher_free(cipher);
}

static void test_split(void)
{
    bthome_sealed_t sealed;

    load("01 02 03 04 05 06 07");
    CHECK_BOOL(bthome_split_sealed(in, in_len, &sealed), false);
    CHECK_BOOL(bthome_split_sealed(in, 0, &sealed), false);
    load("ff ff ff ff 01 02 03 04");
    CHECK(bthome_split_sealed(in, in_len, &sealed));
    CHECK_INT(sealed.ciphertext_len, 0);
    CHECK_INT(sealed.counter_value, 0xFFFFFFFFu);
    CHECK_HEX(sealed.mic, 4, "01020304");
}

/* NIST SP 800-38C, appendix C, example 1: 7-byte nonce, 8 bytes of associated data,
 * 4-byte tag. Checks the CCM plumbing (lengths, AAD, tag size) independently of BTHome,
 * the core's opening and the tests' sealing alike. */
static void test_nist_vector(void)
{
    static const uint8_t key[16] = { 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
                                     0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f };
    static const uint8_t nonce[7] = { 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16 };
    static const uint8_t aad[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    static const uint8_t plain[4] = { 0x20, 0x21, 0x22, 0x23 };
    static const uint8_t ct[4] = { 0x71, 0x62, 0x01, 0x5b };
    static const uint8_t mic[4] = { 0x4d, 0xac, 0x25, 0x5d };
    uint8_t sealed[4], sealed_mic[4], back[4];
    bthome_cipher_t *cipher = bthome_cipher_new(key);

    cur = "NIST SP 800-38C example 1";
    CHECK(seal_ccm(key, nonce, 7, aad, 8, plain, 4, sealed, sealed_mic));
    CHECK_HEX(sealed, 4, "7162015b");
    CHECK_HEX(sealed_mic, 4, "4dac255d");
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, 7, aad, 8, ct, 4, mic, back), BTHOME_CRYPT_OK);
    CHECK_HEX(back, 4, "20212223");
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, 7, NULL, 0, ct, 4, mic, back),
              BTHOME_CRYPT_MIC_FAILURE);
    CHECK_INT(bthome_ccm_decrypt(cipher, nonce, 3, NULL, 0, ct, 4, mic, back),
              BTHOME_CRYPT_ERROR);   /* CCM nonces are 7 to 13 bytes */
    bthome_cipher_free(cipher);
}

/* Sealing then opening gives the plaintext back, for every length an advert can hold,
 * v2 (no AAD) and v1 (AAD 0x11, 12-byte nonce). */
static void test_round_trips(void)
{
    uint8_t key[16], plain[64], out[72], back[64], nonce[BTHOME_NONCE_V2_LEN];
    static const uint8_t aad = BTHOME_V1_AAD;
    bthome_sealed_t sealed;
    bthome_cipher_t *cipher;

    for (int i = 0; i < 16; i++)
        key[i] = (uint8_t)(0xA0 + i);
    for (int i = 0; i < 64; i++)
        plain[i] = (uint8_t)(i * 37 + 1);
    cipher = bthome_cipher_new(key);
    for (unsigned len = 0; len <= 40; len++) {
        describe("round trip of %u bytes", len);
        CHECK(seal_v2(key, SPEC_MAC, 0x45, 1000 + len, plain, len, out));
        CHECK(bthome_split_sealed(out, len + 8, &sealed));
        CHECK_INT(sealed.counter_value, 1000 + len);
        bthome_nonce_v2(SPEC_MAC, 0x45, sealed.counter, nonce);
        CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0, sealed.ciphertext,
                                     len, sealed.mic, back), BTHOME_CRYPT_OK);
        CHECK(memcmp(back, plain, len) == 0);
        /* the info byte is part of the nonce */
        bthome_nonce_v2(SPEC_MAC, 0x41, sealed.counter, nonce);
        CHECK_INT(bthome_ccm_decrypt(cipher, nonce, sizeof nonce, NULL, 0, sealed.ciphertext,
                                     len, sealed.mic, back), BTHOME_CRYPT_MIC_FAILURE);

        CHECK(seal_v1(key, SPEC_MAC, 7 * len, plain, len, out));
        CHECK(bthome_split_sealed(out, len + 8, &sealed));
        bthome_nonce_v1(SPEC_MAC, sealed.counter, nonce);
        CHECK_INT(bthome_ccm_decrypt(cipher, nonce, BTHOME_NONCE_V1_LEN, &aad, 1,
                                     sealed.ciphertext, len, sealed.mic, back), BTHOME_CRYPT_OK);
        CHECK(memcmp(back, plain, len) == 0);
        CHECK_INT(bthome_ccm_decrypt(cipher, nonce, BTHOME_NONCE_V1_LEN, NULL, 0,
                                     sealed.ciphertext, len, sealed.mic, back),
                  BTHOME_CRYPT_MIC_FAILURE);
    }
    bthome_cipher_free(cipher);

    uint8_t counter[4] = { 0x33, 0x22, 0x11, 0x00 };
    cur = "v1 nonce";
    bthome_nonce_v1(SPEC_MAC, counter, nonce);
    CHECK_HEX(nonce, BTHOME_NONCE_V1_LEN, "5448e68f80a51e1833221100");
}

/* ------------------------------------------------------------------ the audit */

typedef struct {
    const char *what;
    uint8_t payload;        /* stands for the service data bytes */
    bool encrypted;
    uint32_t counter;       /* used when encrypted */
    int packet_id;
    bool key_configured, trusted, forged;
    unsigned version;
    /* expected findings, in order: kind letters D(uplicate) C(ounter reuse)
     * R(eplay) G (downGrade), each with the earlier frame it names */
    const char *kinds;
    uint32_t prev[3];
    bthome_replay_kind_t replay;
} audit_step_t;

/* no key for the device: everything it sends is trusted */
#define ENC(p, c) (p), true, (c), -1, false, true, false, 2
#define PLAIN(p, pid) (p), false, 0, (pid), false, true, false, 2
#define PLAIN_V1(p) (p), false, 0, -1, false, true, false, 1
/* a key names the device: only what it verified is trusted */
#define KEYED_ENC(p, c) (p), true, (c), -1, true, true, false, 2
#define KEYED_PLAIN(p) (p), false, 0, -1, true, false, false, 2
#define FORGED(p, c) (p), true, (c), -1, true, false, true, 2

static void run_audit(const char *scenario, const audit_step_t *steps, size_t n)
{
    bthome_device_history_t h;
    bthome_history_init(&h);
    for (size_t i = 0; i < n; i++) {
        const audit_step_t *s = &steps[i];
        bthome_audit_input_t in;
        bthome_audit_result_t out;
        char kinds[4] = "";
        char what[200];

        memset(&in, 0, sizeof in);
        in.frame = (uint32_t)i + 1;
        in.version = s->version;
        bthome_fingerprint(&s->payload, 1, &in.fingerprint);
        in.encrypted = in.has_counter = s->encrypted;
        in.counter = s->counter;
        in.packet_id = s->packet_id;
        in.key_configured = s->key_configured;
        in.trusted = s->trusted;
        in.forged = s->forged;
        snprintf(what, sizeof what, "%s, frame %zu: %s", scenario, i + 1, s->what);
        cur = what;
        bthome_audit_advert(&h, &in, &out);
        for (unsigned k = 0; k < out.count && k < 3; k++)
            kinds[k] = "DCRG"[out.findings[k].kind];
        CHECK_STR(kinds, s->kinds);
        for (unsigned k = 0; k < out.count && k < strlen(s->kinds); k++) {
            CHECK_INT(out.findings[k].prev_frame, s->prev[k]);
            if (out.findings[k].kind == BTHOME_FINDING_REPLAY)
                CHECK_INT(out.findings[k].replay, s->replay);
        }
    }
}

static void test_audit(void)
{
    static const audit_step_t encrypted_device[] = {
        { "first", ENC(0xA1, 100), "", { 0 }, 0 },
        { "retransmission", ENC(0xA1, 100), "D", { 1 }, 0 },
        { "again", ENC(0xA1, 100), "D", { 1 }, 0 },
        { "next counter", ENC(0xA2, 101), "", { 0 }, 0 },
        { "same counter, other bytes", ENC(0xA3, 101), "C", { 4 }, 0 },
        { "lower counter", ENC(0xA4, 90), "R", { 4 }, BTHOME_REPLAY_STALE },
        { "old frame again", ENC(0xA1, 100), "R", { 1 }, BTHOME_REPLAY_OF_FRAME },
        { "higher", ENC(0xA5, 102), "", { 0 }, 0 },
        { "plaintext", PLAIN(0xB1, -1), "G", { 8 }, 0 },
        { "higher again", ENC(0xA6, 103), "", { 0 }, 0 },
    };
    static const audit_step_t wrap_and_reset[] = {
        { "near the 16-bit top", ENC(0xC1, 0xFFFE), "", { 0 }, 0 },
        { "top", ENC(0xC2, 0xFFFF), "", { 0 }, 0 },
        { "wrapped", ENC(0xC3, 0), "R", { 2 }, BTHOME_REPLAY_WRAP },
        { "still just past the wrap", ENC(0xC4, 1), "R", { 2 }, BTHOME_REPLAY_WRAP },
        { "further on", ENC(0xC5, 0x0800), "R", { 2 }, BTHOME_REPLAY_RESET },
        { "close below the top", ENC(0xC6, 0xFF00), "R", { 2 }, BTHOME_REPLAY_STALE },
    };
    static const audit_step_t reset[] = {
        { "5000", ENC(0xD1, 5000), "", { 0 }, 0 },
        { "restarted", ENC(0xD2, 2), "R", { 1 }, BTHOME_REPLAY_RESET },
        { "close below", ENC(0xD3, 4990), "R", { 1 }, BTHOME_REPLAY_STALE },
        { "counter 2 again, other bytes", ENC(0xD4, 2), "C", { 2 }, 0 },
        { "above", ENC(0xD5, 5001), "", { 0 }, 0 },
    };
    static const audit_step_t plaintext[] = {
        { "packet id 7", PLAIN(0xE1, 7), "", { 0 }, 0 },
        { "identical", PLAIN(0xE1, 7), "D", { 1 }, 0 },
        { "same packet id, other bytes", PLAIN(0xE2, 7), "D", { 1 }, 0 },
        { "packet id 8", PLAIN(0xE3, 8), "", { 0 }, 0 },
        { "no packet id", PLAIN(0xE4, -1), "", { 0 }, 0 },
        { "no packet id, other bytes", PLAIN(0xE5, -1), "", { 0 }, 0 },
        { "back to an earlier payload", PLAIN(0xE1, 7), "", { 0 }, 0 },
    };
    static const audit_step_t keyed[] = {
        { "plaintext, key configured", KEYED_PLAIN(0xF1), "G", { 0 }, 0 },
        { "same again: a retransmission, still a downgrade", KEYED_PLAIN(0xF1), "DG",
          { 1, 0 }, 0 },
        { "verified", KEYED_ENC(0xF2, 10), "", { 0 }, 0 },
        { "forged, counter 5: no finding", FORGED(0xF3, 5), "", { 0 }, 0 },
        { "counter 11 verified: the forged 5 left no trace", KEYED_ENC(0xF4, 11), "",
          { 0 }, 0 },
        { "counter 10 again, other bytes: nonce reuse", KEYED_ENC(0xF5, 10), "C", { 3 }, 0 },
    };
    /* Each rule with an advertisement of another kind between the two that matter: the
     * duplicate rule looks at the device's previous advertisement, whatever it was. */
    static const audit_step_t replay_after_downgrade[] = {
        { "encrypted", KEYED_ENC(0xA1, 100), "", { 0 }, 0 },
        { "plaintext", KEYED_PLAIN(0xB1), "G", { 1 }, 0 },
        { "the encrypted one again: no retransmission", KEYED_ENC(0xA1, 100), "R", { 1 },
          BTHOME_REPLAY_OF_FRAME },
    };
    static const audit_step_t replay_after_forgery[] = {
        { "encrypted", KEYED_ENC(0xA1, 50), "", { 0 }, 0 },
        { "forged", FORGED(0xA9, 50), "", { 0 }, 0 },
        { "the first again", KEYED_ENC(0xA1, 50), "R", { 1 }, BTHOME_REPLAY_OF_FRAME },
    };
    static const audit_step_t reuse_after_downgrade[] = {
        { "encrypted", KEYED_ENC(0xA1, 20), "", { 0 }, 0 },
        { "plaintext", KEYED_PLAIN(0xB1), "G", { 1 }, 0 },
        { "same counter, other bytes", KEYED_ENC(0xA2, 20), "C", { 1 }, 0 },
    };
    static const audit_step_t versions[] = {
        { "v2", PLAIN(0xE1, -1), "", { 0 }, 0 },
        { "v1, other bytes", PLAIN_V1(0xE2), "", { 0 }, 0 },
        { "the v2 again: not the previous one", PLAIN(0xE1, -1), "", { 0 }, 0 },
        { "the same bytes as v1: another advertisement", PLAIN_V1(0xE1), "", { 0 }, 0 },
        { "encrypted", ENC(0xA1, 1), "", { 0 }, 0 },
        { "v1 plaintext", PLAIN_V1(0xE3), "G", { 5 }, 0 },
    };
    run_audit("encrypted device", encrypted_device,
              sizeof encrypted_device / sizeof encrypted_device[0]);
    run_audit("16-bit wrap", wrap_and_reset, sizeof wrap_and_reset / sizeof wrap_and_reset[0]);
    run_audit("reset", reset, sizeof reset / sizeof reset[0]);
    run_audit("plaintext", plaintext, sizeof plaintext / sizeof plaintext[0]);
    run_audit("keyed", keyed, sizeof keyed / sizeof keyed[0]);
    run_audit("replay after a downgrade", replay_after_downgrade,
              sizeof replay_after_downgrade / sizeof replay_after_downgrade[0]);
    run_audit("replay after a forgery", replay_after_forgery,
              sizeof replay_after_forgery / sizeof replay_after_forgery[0]);
    run_audit("reuse after a downgrade", reuse_after_downgrade,
              sizeof reuse_after_downgrade / sizeof reuse_after_downgrade[0]);
    run_audit("v1 and v2", versions, sizeof versions / sizeof versions[0]);
}

static bthome_audit_input_t encrypted_input(uint32_t frame, uint32_t counter, uint32_t tag)
{
    bthome_audit_input_t in;
    uint8_t bytes[4] = { (uint8_t)tag, (uint8_t)(tag >> 8), (uint8_t)(tag >> 16), 0x5A };

    memset(&in, 0, sizeof in);
    in.frame = frame;
    in.version = 2;
    bthome_fingerprint(bytes, sizeof bytes, &in.fingerprint);
    in.encrypted = in.has_counter = true;
    in.counter = counter;
    in.packet_id = -1;
    in.trusted = true;
    return in;
}

/* Reuse is caught against the last BTHOME_AUDIT_RECENT_COUNTERS counters, no further. */
static void test_audit_window(void)
{
    bthome_device_history_t h;
    bthome_audit_result_t out;
    bthome_audit_input_t in;
    uint32_t frame = 0;

    bthome_history_init(&h);
    for (uint32_t c = 1; c <= BTHOME_AUDIT_RECENT_COUNTERS; c++) {
        in = encrypted_input(++frame, c, 0x100 + c);
        bthome_audit_advert(&h, &in, &out);
    }
    in = encrypted_input(++frame, 1, 0x999);
    cur = "reuse of the oldest counter still in the window";
    bthome_audit_advert(&h, &in, &out);
    CHECK_INT(out.count, 1);
    CHECK_INT(out.findings[0].kind, BTHOME_FINDING_COUNTER_REUSE);
    CHECK_INT(out.findings[0].prev_frame, 1);

    for (uint32_t c = 1000; c < 1002; c++) {     /* evict counters 1 and 2 */
        in = encrypted_input(++frame, c, 0x500 + c);
        bthome_audit_advert(&h, &in, &out);
    }
    in = encrypted_input(++frame, 2, 0x998);
    cur = "counter 2 has left the window: a replay, no longer a reuse";
    bthome_audit_advert(&h, &in, &out);
    CHECK_INT(out.count, 1);
    CHECK_INT(out.findings[0].kind, BTHOME_FINDING_REPLAY);
    CHECK_INT(out.findings[0].replay, BTHOME_REPLAY_RESET);
}

/* Two 16-byte payloads that differ in one bit: their fingerprints differ, and the audit
 * calls the second, under the same counter, a nonce reuse. */
static void test_fingerprint(void)
{
    uint8_t a[16], b[16], long_a[60], long_b[60];
    bthome_fingerprint_t fa, fb;
    bthome_device_history_t h;
    bthome_audit_result_t out;
    bthome_audit_input_t in;

    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (uint8_t)(i * 29 + 3);
    memcpy(b, a, sizeof b);
    b[15] ^= 0x80;
    cur = "fingerprint: 16-byte payloads one bit apart";
    bthome_fingerprint(a, sizeof a, &fa);
    bthome_fingerprint(b, sizeof b, &fb);
    CHECK(!bthome_fingerprint_equal(&fa, &fb));

    bthome_history_init(&h);
    in = encrypted_input(1, 7, 0);
    in.fingerprint = fa;
    bthome_audit_advert(&h, &in, &out);
    in.frame = 2;
    in.fingerprint = fb;
    bthome_audit_advert(&h, &in, &out);
    CHECK_INT(out.count, 1);
    CHECK_INT(out.findings[0].kind, BTHOME_FINDING_COUNTER_REUSE);

    cur = "fingerprint: longer payloads by SHA-256, exact in what they tell";
    for (size_t i = 0; i < sizeof long_a; i++)
        long_a[i] = (uint8_t)(i * 37 + 11);
    memcpy(long_b, long_a, sizeof long_b);
    bthome_fingerprint(long_a, sizeof long_a, &fa);
    bthome_fingerprint(long_b, sizeof long_b, &fb);
    CHECK(bthome_fingerprint_equal(&fa, &fb));
    long_b[59] ^= 1;
    bthome_fingerprint(long_b, sizeof long_b, &fb);
    CHECK(!bthome_fingerprint_equal(&fa, &fb));
    bthome_fingerprint(long_a, 32, &fb);    /* the bytes themselves: no SHA-256 */
    CHECK(memcmp(fb.bytes, long_a, 32) == 0);
    bthome_fingerprint(long_a, 33, &fa);    /* one more byte: another length */
    CHECK(!bthome_fingerprint_equal(&fa, &fb));
}

int main(void)
{
    bthome_core_init();
    test_parse_mac();
    test_parse_key();
    test_spec_example();
    test_tampering();
    test_split();
    test_nist_vector();
    test_round_trips();
    test_audit();
    test_audit_window();
    test_fingerprint();
    return check_summary();
}
