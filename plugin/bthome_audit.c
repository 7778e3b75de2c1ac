/* Device crypto audit; see bthome_audit.h. */
#include "bthome_audit.h"

#include <string.h>

#define NEAR_ZERO        0xFF   /* where a wrapped or restarted counter lands */
#define RESET_RATIO      16     /* "far below the highest": under 1/16 of it */

void bthome_history_init(bthome_device_history_t *h)
{
    memset(h, 0, sizeof *h);
    h->last_packet_id = -1;
}

/* One step of the digest: a multiply spreads the word's bits upwards, the shift brings the
 * high half back down (splitmix64's finaliser). */
static inline uint64_t digest_mix(uint64_t h)
{
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

uint64_t bthome_digest(const uint8_t *data, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, tail = 0;
    uint32_t w4;
    uint16_t w2;

    for (; len >= 8; data += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, data, sizeof w);
        h = digest_mix(h ^ w);
    }
    /* the last 0-7 bytes in one word, by constant-size copies */
    if (len & 4) {
        memcpy(&w4, data, sizeof w4);
        tail = w4;
        data += 4;
    }
    if (len & 2) {
        memcpy(&w2, data, sizeof w2);
        tail = tail << 16 | w2;
        data += 2;
    }
    if (len & 1)
        tail = tail << 8 | data[0];
    /* digests are only compared, never used to spread keys over buckets: one step per
     * word keeps the last word's bits distinct (each step is a bijection), no extra
     * rounds of mixing */
    return digest_mix(h ^ tail);
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
    if (seen && seen->digest != in->digest) {
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
    if (!in->keep)
        return;
    if (!identical) {
        h->last_digest = in->digest;
        h->last_frame = in->frame;
        h->has_last = true;
    }
    h->last_packet_id = (int16_t)in->packet_id;
    if (in->encrypted)
        h->last_encrypted_frame = in->frame;
    if (!in->has_counter)
        return;
    if (!counter_recent) {
        h->recent[h->recent_next] = (bthome_counter_seen_t){ in->counter, in->frame, in->digest };
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
    bool identical = h->has_last && in->digest == h->last_digest;
    bool same_packet_id = h->has_last && !identical && in->packet_id >= 0 &&
                          in->packet_id == h->last_packet_id;
    /* one search serves the check and the record: the history does not change between */
    const bthome_counter_seen_t *seen = in->has_counter ? find_recent(h, in->counter) : NULL;

    out->count = 0;
    if (identical || same_packet_id)
        add_finding(out, BTHOME_FINDING_DUPLICATE, h->last_frame)->same_packet_id =
            same_packet_id;
    if (!in->encrypted && (in->key_configured || h->last_encrypted_frame))
        add_finding(out, BTHOME_FINDING_DOWNGRADE, h->last_encrypted_frame);
    if (in->has_counter && !identical)
        check_counter(h, in, seen, same_packet_id, out);
    record(h, in, identical, seen != NULL);
}
