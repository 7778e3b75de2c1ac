/* Legacy BTHome v1 object lists (service UUID 0x181C plain, 0x181E encrypted), parsed
 * without Wireshark like bthome_core. Each object comes out with a v2-shaped view
 * (bthome_object_t) so the dissector can reuse its v2 tree code, bthome_format_label and,
 * for everything but floats and MACs, bthome_format_value.
 *
 * Wire format: `control, object ID, value`. Control bits 0-4 = length counting the ID
 * byte, bits 5-7 = value format. IDs and factors are those of the v2 table.
 *
 * What each format may carry (anything else is BAD_FORMAT, then BAD_SIZE on the length):
 *   format     object kinds (v2 table)        value bytes
 *   uint, int  NUMBER, BINARY, ENUM           1..8 (v1 widths are free; raw is an int64)
 *   uint       TIMESTAMP                      4
 *   uint, int  DIMMER, FIRMWARE               the v2 length; bytes read as in v2
 *   float      NUMBER                         2, 4, 8 (IEEE half, single, double)
 *   string     TEXT                           0..30, checked as UTF-8 (invalid_utf8)
 *   mac        RAW                            6 (reversed on the wire)
 *   timestamp  TIMESTAMP                      4 (u32 seconds since 1970)
 *
 * A v1 length is explicit, so a bad object (unknown ID, format 6/7 or one its kind cannot
 * take, a bad size, an integer beyond 64 bits) is reported and parsing CONTINUES. Only a
 * zero length (no ID byte) or a length running past the end stops it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_V1_H
#define BTHOME_V1_H

#include "bthome_core.h"

#define BTHOME_UUID_V1           0x181C
#define BTHOME_UUID_V1_ENCRYPTED 0x181E

#define BTHOME_V1_LENGTH_MASK    0x1F   /* control bits 0-4 */
#define BTHOME_V1_FORMAT_SHIFT   5      /* control bits 5-7 */

/* Values 0..5 as on the wire. */
typedef enum {
    BTHOME_V1_UINT,
    BTHOME_V1_INT,
    BTHOME_V1_FLOAT,
    BTHOME_V1_STRING,
    BTHOME_V1_MAC,
    BTHOME_V1_TIMESTAMP,
} bthome_v1_format_t;

/* "uint", "int", "float", "string", "mac", "timestamp"; NULL for 6, 7 and beyond. */
const char *bthome_v1_format_name(unsigned format);

typedef enum {
    BTHOME_V1_OK,
    BTHOME_V1_TRUNCATED,    /* stops: the length runs past the end of the data */
    BTHOME_V1_ZERO_LENGTH,  /* stops: length bits 0, not even an ID byte */
    BTHOME_V1_BAD_FORMAT,   /* format 6/7, or one the object's kind cannot take */
    BTHOME_V1_BAD_SIZE,     /* a value length the format does not allow (table above) */
    BTHOME_V1_UNKNOWN_ID,   /* ID not in the v2 table */
    BTHOME_V1_OUT_OF_RANGE, /* 8-byte integer whose raw, or raw x factor digits, does
                               not fit an int64: unsigned >= 2^63, or 0.35-factor rows */
} bthome_v1_status_t;

/* "ok", "truncated", "zero length", "bad format", "bad size", "unknown object ID",
 * "out of range". */
const char *bthome_v1_status_name(bthome_v1_status_t status);

typedef struct {
    bthome_v1_status_t status;
    size_t offset;          /* of the control byte in the parsed buffer */
    size_t length;          /* bytes of this object incl. the control byte (clamped to
                               what is available when truncated) */
    uint8_t control;
    uint8_t declared_length;    /* control bits 0-4: ID byte + value */
    uint8_t format;             /* control bits 5-7 */
    bool is_float;          /* the value came from an IEEE float */
    bool exceeds_type;      /* raw outside the range of the row's v2 wire type (a v1
                               width may be wider), or a non-finite float: a filter
                               field of that integer type cannot hold it */
    uint8_t mac[BTHOME_MAC_LEN]; /* MAC format: display order (the wire is reversed) */
    /* The v2-shaped view. obj.offset/length cover the ID byte and the value (from the
     * ID byte on, clamped when truncated; length 0 without an ID byte). obj.status is
     * BTHOME_OBJ_OK exactly when status is BTHOME_V1_OK, BTHOME_OBJ_UNKNOWN for an
     * unknown ID and BTHOME_OBJ_TRUNCATED otherwise, so bthome_format_value refuses
     * bad objects. For integers raw/value are as in v2 (value = bthome_scale(def, raw));
     * for floats value = float x factor and raw = the float before the factor, rounded
     * toward zero (clamped to int64, NaN -> 0). ordinal counts per field like v2, bad
     * objects with a known ID included; out_of_order is always false (v1 has no
     * ordering rule). */
    bthome_object_t obj;
} bthome_v1_object_t;

typedef struct {
    const uint8_t *data;
    size_t len;
    size_t pos;
    bool stopped;
    bthome_ordinals_t seen;
} bthome_v1_parser_t;

void bthome_v1_parser_init(bthome_v1_parser_t *p, const uint8_t *data, size_t len);
/* Next object; false at the end or after an object that stops parsing (TRUNCATED,
 * ZERO_LENGTH). Objects tile the buffer: each starts where the previous one ended. */
bool bthome_v1_parser_next(bthome_v1_parser_t *p, bthome_v1_object_t *out);

/* Whether service data under a v1 UUID is BTHome. The v1 UUIDs are Bluetooth SIG
 * services other devices advertise too (0x181C User Data, 0x181E Bond Management), so
 * only what reads as BTHome v1 is claimed:
 *   plain (0x181C)      the first object is whole and OK: a known object ID in a format
 *                       and size it takes (an object the capture cut, captured <
 *                       reported, counts as whole when it fits what was sent and
 *                       its ID, if captured, is known)
 *   encrypted (0x181E)  room for one object (control and ID), the counter and the MIC
 * Later objects may be bad: they are BTHome's errors, shown as such. */
bool bthome_v1_is_bthome(bool encrypted, const uint8_t *data, size_t captured,
                         size_t reported);

/* The value as text, data being the parsed buffer; false for an object that is not OK.
 *   integers   exactly as the same v2 object ("25.00 °C", "open", "long_press",
 *              "2023-05-14 19:41:17 UTC"), exact digits beyond 2^52 too
 *   floats     with the factor's decimals when that text reads back as the very same
 *              double, |value| < 2^53 and the text has at most 18 significant
 *              digits ("102.24 kg", "25.00 °C"); otherwise the shortest %g with at
 *              most 5/9/17 significant digits (half/single/double) that reads back within
 *              half a unit of the source precision ("25.06 °C" from single 25.06f,
 *              "5.96e-08" from the smallest half subnormal, whose precision is
 *              judged as a normal's: up to 5/9 digits); "inf", "-inf", "NaN";
 *              -0 reads 0; the unit appended as in v2
 *   strings    like v2 text (control characters and bad bytes escaped)
 *   MAC        display order, "54:48:e6:8f:80:a5" */
bool bthome_v1_format_value(const bthome_v1_object_t *o, const uint8_t *data,
                            char *buf, size_t size);

#endif
