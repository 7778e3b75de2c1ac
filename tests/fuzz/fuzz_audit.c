/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: the device audit fed a sequence of advertisements of one device,
 * 7 input bytes each: flags (bit 0 encrypted, 1 has a counter, 2 key configured,
 * 3 trusted, 4 has a packet id, 5 forged), counter (u32 LE), payload selector (one byte
 * of payload: few payloads, so identical ones recur), packet id. Findings must point at
 * earlier frames and never overflow the result. */
#include "bthome_audit.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RECORD 7

static void to_input(const uint8_t *r, uint32_t frame, bthome_audit_input_t *in)
{
    in->frame = frame;
    in->encrypted = r[0] & 1;
    in->has_counter = r[0] & 2;
    in->key_configured = r[0] & 4;
    in->trusted = r[0] & 8;
    in->forged = r[0] & 32;
    in->version = 2;
    in->counter = (uint32_t)r[1] | (uint32_t)r[2] << 8 | (uint32_t)r[3] << 16 |
                  (uint32_t)r[4] << 24;
    bthome_fingerprint(&r[5], 1, &in->fingerprint);
    in->packet_id = r[0] & 16 ? r[6] : -1;
}

static void check_result(const bthome_audit_result_t *out, uint32_t frame)
{
    FUZZ_ASSERT(out->count <= sizeof out->findings / sizeof out->findings[0]);
    for (unsigned i = 0; i < out->count; i++) {
        const bthome_finding_t *f = &out->findings[i];
        FUZZ_ASSERT(f->kind <= BTHOME_FINDING_DOWNGRADE);
        FUZZ_ASSERT(f->replay <= BTHOME_REPLAY_WRAP);
        FUZZ_ASSERT(f->prev_frame < frame);
        FUZZ_ASSERT(f->kind == BTHOME_FINDING_DOWNGRADE || f->prev_frame > 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bthome_device_history_t h;
    uint32_t frame = 0;

    bthome_history_init(&h);
    for (size_t off = 0; off + RECORD <= size; off += RECORD) {
        bthome_audit_input_t in;
        bthome_audit_result_t out;
        to_input(data + off, ++frame, &in);
        bthome_audit_advert(&h, &in, &out);
        check_result(&out, frame);
        FUZZ_ASSERT(h.recent_count <= BTHOME_AUDIT_RECENT_COUNTERS);
        FUZZ_ASSERT(h.recent_next < BTHOME_AUDIT_RECENT_COUNTERS);
        if (in.trusted && !in.forged && in.has_counter)      /* the highest counter is never forgotten */
            FUZZ_ASSERT(h.has_counter && h.highest_counter >= in.counter);
    }
    return 0;
}
