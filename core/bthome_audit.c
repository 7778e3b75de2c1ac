/* Device crypto audit; see bthome_audit.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bthome_audit.h"

#include <string.h>

#include <gcrypt.h>

#define NEAR_ZERO        0xFF   /* where a wrapped or restarted counter lands */
#define RESET_RATIO      16     /* "far below the highest": under 1/16 of it */

void bthome_history_init(bthome_device_history_t *h)
{
    memset(h, 0, sizeof *h);
    h->last_packet_id = -1;
}

void bthome_fingerprint(const uint8_t *data, size_t len, bthome_fingerprint_t *out)
{
    memset(out, 0, sizeof *out);
    out->length = (uint16_t)len;
    if (len <= sizeof out->bytes)
        memcpy(out->bytes, data, len);
    else
        gcry_md_hash_buffer(GCRY_MD_SHA256, out->bytes, data, len);
}

bool bthome_fingerprint_equal(const bthome_fingerprint_t *a, const bthome_fingerprint_t *b)
{
    return a->length == b->length && memcmp(a->bytes, b->bytes, sizeof a->bytes) == 0;
}

static const bthome_counter_seen_t *find_recent(const bthome_device_history_t *h,
                                                uint32_t counter)
{
    /* every recent counter is at most the highest: a rising counter, the usual case,
     * needs no search */
    if (!h->has_counter || counter > h->highest_counter)
        return NULL;
    for (unsigned i = 0; i < h->recent_count; i++)
        if (h->recent[i].counter == counter)
            return &h->recent[i];
    return NULL;
}

static bthome_finding_t *add_finding(bthome_audit_result_t *out, bthome_finding_kind_t kind,
                                     uint32_t prev_frame)
{
    bthome_finding_t *f = &out->findings[out->count++];

    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->prev_frame = prev_frame;
    return f;
}

/* The top of a 16-, 24- or 32-bit counter. */
static bool at_counter_top(uint32_t counter)
{
    return (counter >= 0xFF00 && counter <= 0xFFFF) ||
           (counter >= 0xFFFF00 && counter <= 0xFFFFFF) || counter >= 0xFFFFFF00;
}

static bthome_replay_kind_t classify_replay(uint32_t counter, uint32_t highest)
{
    if (counter <= NEAR_ZERO && at_counter_top(highest))
        return BTHOME_REPLAY_WRAP;
    if (highest >= RESET_RATIO && counter <= highest / RESET_RATIO)
        return BTHOME_REPLAY_RESET;
    return BTHOME_REPLAY_STALE;
}

/* seen: the device's recent counter equal to the advert's, or NULL. */
static void check_counter(const bthome_device_history_t *h, const bthome_audit_input_t *in,
                          const bthome_counter_seen_t *seen, bool duplicate,
                          bthome_audit_result_t *out)
{
    if (seen && !bthome_fingerprint_equal(&seen->fingerprint, &in->fingerprint)) {
        add_finding(out, BTHOME_FINDING_COUNTER_REUSE, seen->frame);
    } else if (duplicate) {
        return;     /* a retransmission is no replay */
    } else if (seen) {
        add_finding(out, BTHOME_FINDING_REPLAY, seen->frame)->replay = BTHOME_REPLAY_OF_FRAME;
    } else if (h->has_counter && in->counter <= h->highest_counter) {
        bthome_finding_t *f = add_finding(out, BTHOME_FINDING_REPLAY, h->highest_frame);
        f->replay = classify_replay(in->counter, h->highest_counter);
        f->prev_counter = h->highest_counter;
    }
}

static void record(bthome_device_history_t *h, const bthome_audit_input_t *in, bool identical,
                   bool counter_recent)
{
    /* every advertisement is the device's previous one for the next */
    if (!identical) {
        h->last = in->fingerprint;
        h->last_version = (uint8_t)in->version;
        h->last_frame = in->frame;
        h->has_last = true;
    }
    h->last_packet_id = (int16_t)in->packet_id;
    if (!in->trusted || in->forged)
        return;     /* a forged frame must not poison the counters */
    if (in->encrypted)
        h->last_encrypted_frame = in->frame;
    if (!in->has_counter)
        return;
    if (!counter_recent) {
        h->recent[h->recent_next] = (bthome_counter_seen_t){ in->counter, in->frame,
                                                             in->fingerprint };
        h->recent_next = (uint8_t)((h->recent_next + 1) % BTHOME_AUDIT_RECENT_COUNTERS);
        if (h->recent_count < BTHOME_AUDIT_RECENT_COUNTERS)
            h->recent_count++;
    }
    if (!h->has_counter || in->counter > h->highest_counter) {
        h->has_counter = true;
        h->highest_counter = in->counter;
        h->highest_frame = in->frame;
    }
}

void bthome_audit_advert(bthome_device_history_t *h, const bthome_audit_input_t *in,
                         bthome_audit_result_t *out)
{
    bool identical = h->has_last && in->version == h->last_version &&
                     bthome_fingerprint_equal(&in->fingerprint, &h->last);
    bool same_packet_id = h->has_last && !identical && in->packet_id >= 0 &&
                          in->packet_id == h->last_packet_id;
    const bthome_counter_seen_t *seen = in->has_counter ? find_recent(h, in->counter) : NULL;

    out->count = 0;
    if (!in->forged) {
        if (identical || same_packet_id)
            add_finding(out, BTHOME_FINDING_DUPLICATE, h->last_frame)->same_packet_id =
                same_packet_id;
        if (!in->encrypted && (in->key_configured || h->last_encrypted_frame))
            add_finding(out, BTHOME_FINDING_DOWNGRADE, h->last_encrypted_frame);
        if (in->has_counter && !identical)
            check_counter(h, in, seen, same_packet_id, out);
    }
    record(h, in, identical, seen != NULL);
}
