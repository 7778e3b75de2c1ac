/* Pure-C core of the BTHome dissector: object table lookup, parsing and value
 * formatting, with no Wireshark dependency so it can be unit-tested and fuzzed alone.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_CORE_H
#define BTHOME_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTHOME_UUID_V2 0xFCD2
#define BTHOME_OBJECT_PACKET_ID 0x00   /* repeats of one advert share it */

typedef enum {
    BTHOME_KIND_NUMBER,
    BTHOME_KIND_BINARY,
    BTHOME_KIND_ENUM,
    BTHOME_KIND_EVENT,      /* named values that happen (button presses) */
    BTHOME_KIND_TIMESTAMP,
    BTHOME_KIND_TEXT,
    BTHOME_KIND_RAW,
    BTHOME_KIND_FIRMWARE,
    BTHOME_KIND_DIMMER,
    BTHOME_KIND_COMMAND,
} bthome_kind_t;

typedef enum {
    BTHOME_TYPE_U8,
    BTHOME_TYPE_S8,
    BTHOME_TYPE_U16,
    BTHOME_TYPE_S16,
    BTHOME_TYPE_U24,
    BTHOME_TYPE_U32,
    BTHOME_TYPE_S32,
    BTHOME_TYPE_BYTES,
    BTHOME_TYPE_LEN8,
    BTHOME_TYPE_CMD,
} bthome_type_t;

/* One row of core/bthome_objects.h. */
typedef struct {
    uint8_t id;
    const char *name;
    const char *field;
    bthome_kind_t kind;
    bthome_type_t type;
    uint8_t length;
    const char *factor;
    const char *unit;
    const char *words;
} bthome_object_def_t;

/* Works out what parsing needs of each row (its field's first ID, its factor as an
 * integer over a power of ten). Call once before parsing; calling again does nothing. */
void bthome_core_init(void);

/* NULL for an ID the table does not know. */
const bthome_object_def_t *bthome_object_def(uint8_t id);
/* Rows in ascending ID order; *count receives their number. */
const bthome_object_def_t *const *bthome_object_defs(size_t *count);

bool bthome_type_is_signed(bthome_type_t type);
/* Bytes of a wire integer type, 0 for BYTES/LEN8/CMD. */
unsigned bthome_type_size(bthome_type_t type);
/* Smallest and largest raw value of a wire integer type (a BYTES value reads as u8). */
void bthome_type_range(bthome_type_t type, int64_t *min, int64_t *max);
/* Decimal places of the row's factor ("0.01" -> 2) and its digits as an integer (1). */
unsigned bthome_factor_decimals(const bthome_object_def_t *def);
int64_t bthome_factor_digits(const bthome_object_def_t *def);
/* raw x factor, computed as an exact integer over a power of ten so that 2506 x 0.01
 * is the double nearest 25.06. */
double bthome_scale(const bthome_object_def_t *def, int64_t raw);
typedef struct {
    int64_t value;
    const char *word;   /* not NUL-terminated */
    size_t word_len;
} bthome_word_t;
/* Walks a row's words: start with *cursor = def->words and *position = 0. */
bool bthome_words_next(const char **cursor, int64_t *position, bthome_word_t *out);
/* Word for a value of a BINARY (0/1), ENUM, DIMMER or COMMAND row, copied into buf;
 * false when the value has no word. */
bool bthome_word(const bthome_object_def_t *def, int64_t value, char *buf, size_t size);

/* v2 device information byte. */
#define BTHOME_INFO_ENCRYPTED     0x01
#define BTHOME_INFO_MAC_INCLUDED  0x02
#define BTHOME_INFO_TRIGGER_BASED 0x04
#define BTHOME_INFO_RESERVED      0x18
#define BTHOME_INFO_VERSION       0xE0
#define BTHOME_INFO_VERSION_SHIFT 5
#define BTHOME_MAC_LEN            6

/* A MAC's bytes in the other order: the air and HCI carry it least significant first,
 * displays most significant first. */
void bthome_mac_reverse(uint8_t out[BTHOME_MAC_LEN], const uint8_t in[BTHOME_MAC_LEN]);

typedef struct {
    uint8_t info;
    unsigned version;
    bool encrypted, mac_included, trigger_based;
    uint8_t reserved;        /* bits 3-4, shifted down */
    bool has_mac;            /* included MAC present in full */
    uint8_t mac[BTHOME_MAC_LEN]; /* display order (the wire holds it reversed) */
    size_t mac_offset;
    size_t body_offset;      /* objects, or the encrypted payload */
} bthome_v2_header_t;

typedef enum {
    BTHOME_HEADER_OK,
    BTHOME_HEADER_EMPTY,       /* no device information byte */
    BTHOME_HEADER_MAC_CUT,     /* info bit 1 set, fewer than 6 MAC bytes follow */
} bthome_header_status_t;

bthome_header_status_t bthome_parse_v2_header(const uint8_t *data, size_t len,
                                              bthome_v2_header_t *hdr);

typedef enum {
    BTHOME_OBJ_OK,
    BTHOME_OBJ_TRUNCATED,      /* fixed-length value or length byte runs past the end */
    BTHOME_OBJ_LENGTH_OVERRUN, /* a variable length says more than remains */
    BTHOME_OBJ_UNKNOWN,        /* unknown ID: parsing stops, the rest is undecodable */
} bthome_obj_status_t;

#define BTHOME_VALUE_TEXT_MAX 1024 /* 255 bytes, each escaped at worst to "\\xff" */

typedef struct {
    const bthome_object_def_t *def; /* NULL when status is UNKNOWN */
    uint8_t id;
    bthome_obj_status_t status;
    size_t offset;          /* of the ID byte, relative to the parsed buffer */
    size_t length;          /* ID byte included; for a bad object, the bytes available */
    size_t value_offset;    /* first byte after the ID (and the length byte, if any) */
    size_t value_length;
    int64_t raw;            /* integer value: NUMBER, BINARY, ENUM, TIMESTAMP, the
                               event of DIMMER, the opcode of COMMAND */
    double value;           /* raw x factor for NUMBER */
    unsigned ordinal;       /* 1 for the first object of its field, 2 for the next ... */
    bool out_of_order;      /* ID lower than the previous object's */
    bool invalid_utf8;      /* TEXT that is not UTF-8 */
    bool reserved_bits;     /* COMMAND length byte bits 5-7 set */
    uint8_t steps;          /* DIMMER steps; COMMAND step up/down 1-byte argument */
    bool has_steps;
} bthome_object_t;

/* Objects so far per field in one object list, indexed by the field's first ID (an
 * object list holds at most 255 objects). */
typedef struct {
    uint8_t count[256];
} bthome_ordinals_t;

/* 1 for the first object of def's field in the list, 2 for the next, ... Shared by the
 * v2 and v1 parsers; start a list with a zeroed bthome_ordinals_t. */
unsigned bthome_next_ordinal(bthome_ordinals_t *seen, const bthome_object_def_t *def);

typedef struct {
    const uint8_t *data;
    size_t len;
    size_t pos;
    int prev_id;
    bool stopped;
    bthome_ordinals_t seen;
} bthome_parser_t;

void bthome_parser_init(bthome_parser_t *p, const uint8_t *data, size_t len);
/* Next object; false at the end or after an object that stops parsing (truncated,
 * length overrun, unknown). */
bool bthome_parser_next(bthome_parser_t *p, bthome_object_t *obj);

/* The object's value as the spec reads it ("25.06 °C", "long_press", "open",
 * "4.2.1.0", "2023-05-14 19:41:17 UTC"); data is the parsed buffer. False for an
 * object that did not decode. */
bool bthome_format_value(const bthome_object_t *obj, const uint8_t *data,
                         char *buf, size_t size);
/* scaled / 10^decimals with exactly that many decimals, then " unit" when unit is not
 * empty: "25.06 °C" from 2506, 2, "°C". Exact for every int64. */
void bthome_format_number(int64_t scaled, unsigned decimals, const char *unit,
                          char *buf, size_t size);
/* "Temperature", "Temperature 2", ... */
void bthome_format_label(const bthome_object_t *obj, char *buf, size_t size);

bool bthome_utf8_valid(const uint8_t *s, size_t len);

#define BTHOME_MAC_TEXT_LEN 18  /* "54:48:E6:8F:80:A5" and its NUL */
/* A display-order MAC as text, upper case with colons. */
void bthome_format_mac(const uint8_t mac[BTHOME_MAC_LEN], char out[BTHOME_MAC_TEXT_LEN]);
/* A display-order MAC as a number: a key for device tables. */
uint64_t bthome_mac_number(const uint8_t mac[BTHOME_MAC_LEN]);

#endif
