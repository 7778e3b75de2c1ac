/* Device crypto audit, Wireshark-free: what the spec asks a receiver to check from one
 * advertisement of a device to the next (the counter must increase, no plaintext from an
 * encrypting device), plus nonce reuse and retransmissions.
 *
 * The caller keeps one history per device and feeds it every advertisement of the
 * device in capture order, once each. A history has a fixed size: counter reuse is
 * detected against the device's last BTHOME_AUDIT_RECENT_COUNTERS distinct counters,
 * replays against all of them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_AUDIT_H
#define BTHOME_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTHOME_AUDIT_RECENT_COUNTERS 16
#define BTHOME_FINGERPRINT_BYTES     32

/* What tells two service data apart: their bytes themselves when they fit (every legacy
 * advertisement does), else their SHA-256. Two fingerprints are equal exactly when the
 * bytes are, short of a SHA-256 collision. */
typedef struct {
    uint16_t length;            /* of the service data */
    uint8_t bytes[BTHOME_FINGERPRINT_BYTES];
} bthome_fingerprint_t;

void bthome_fingerprint(const uint8_t *data, size_t len, bthome_fingerprint_t *out);
bool bthome_fingerprint_equal(const bthome_fingerprint_t *a, const bthome_fingerprint_t *b);

typedef struct {
    uint32_t counter;
    uint32_t frame;
    bthome_fingerprint_t fingerprint;
} bthome_counter_seen_t;

/* Initialise with bthome_history_init. Frame numbers start at 1, so 0 means "none". */
typedef struct {
    /* the device's previous advertisement, whatever it was */
    bool has_last;
    uint8_t last_version;
    int16_t last_packet_id;     /* -1 when it had none */
    uint32_t last_frame;        /* first frame of the latest run of identical adverts */
    bthome_fingerprint_t last;
    /* what trusted advertisements told */
    uint32_t last_encrypted_frame;
    bool has_counter;
    uint32_t highest_counter;
    uint32_t highest_frame;
    uint8_t recent_count, recent_next;
    bthome_counter_seen_t recent[BTHOME_AUDIT_RECENT_COUNTERS];
} bthome_device_history_t;

void bthome_history_init(bthome_device_history_t *h);

typedef struct {
    uint32_t frame;
    unsigned version;           /* 1 or 2: the same bytes under another UUID differ */
    bthome_fingerprint_t fingerprint;   /* of the service data after the UUID */
    bool encrypted;
    bool has_counter;           /* encrypted and long enough to hold one */
    uint32_t counter;
    int packet_id;              /* packet id object (0x00) of the plaintext, or -1 */
    bool key_configured;        /* a key names this device */
    bool trusted;               /* its counter and encryption enter the history: the
                                   device's key verified it, or the device has no key */
    bool forged;                /* the device's own key failed: no finding, it only
                                   becomes the device's previous advertisement */
} bthome_audit_input_t;

typedef enum {
    BTHOME_FINDING_DUPLICATE,
    BTHOME_FINDING_COUNTER_REUSE,
    BTHOME_FINDING_REPLAY,
    BTHOME_FINDING_DOWNGRADE,
} bthome_finding_kind_t;

typedef enum {
    BTHOME_REPLAY_OF_FRAME,     /* the very bytes of an earlier, not the previous, advert */
    BTHOME_REPLAY_STALE,        /* counter not above the highest, close to it */
    BTHOME_REPLAY_RESET,        /* counter far below the highest: device restarted */
    BTHOME_REPLAY_WRAP,         /* highest was at the top of a 16- or 32-bit counter */
} bthome_replay_kind_t;

typedef struct {
    bthome_finding_kind_t kind;
    bthome_replay_kind_t replay;   /* for BTHOME_FINDING_REPLAY */
    uint32_t prev_frame;           /* the earlier frame contradicted; 0 when none */
    uint32_t prev_counter;         /* REPLAY: the highest counter seen */
    bool same_packet_id;           /* DUPLICATE by packet id, payload differs */
} bthome_finding_t;

typedef struct {
    bthome_finding_t findings[3];
    unsigned count;
} bthome_audit_result_t;

/* Checks one advertisement against the device's history, then records it. */
void bthome_audit_advert(bthome_device_history_t *h, const bthome_audit_input_t *in,
                         bthome_audit_result_t *out);

#endif
