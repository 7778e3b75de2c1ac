/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the legacy BTHome v1 parser (core/bthome_v1.c).
 *
 * Expected values come from the BTHome v1 (legacy) format specification
 * (https://bthome.io/v1/), the canonical parser's v1 test vectors, IEEE 754 bit
 * patterns worked out by hand (or with Python's struct) and the v2 core for what v1 must
 * share with it.
 * Same style as test_core.c: each CHECK counts a pass or prints file:line, the input, the
 * expected and the actual value; the last line is "N passed, M failed" and the exit
 * status is non-zero on any failure.
 */
#include "bthome_v1.h"
#include "check.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hex of a case built at run time; it stays the "input:" line of failures. */
static char cur_buf[2200];
static const char *hex_of(const uint8_t *b, size_t n)
{
    size_t used = 0;
    cur_buf[0] = '\0';
    for (size_t i = 0; i < n && used + 4 < sizeof cur_buf; i++)
        used += (size_t)snprintf(cur_buf + used, sizeof cur_buf - used, i ? " %02x" : "%02x",
                                 b[i]);
    return cur_buf;
}

static const char *field_of(const bthome_v1_object_t *o)
{
    return o->obj.def ? o->obj.def->field : "(no def)";
}

/* Parses the hex into objs[]; returns how many objects parser_next gave. */
static size_t parse_all(const char *hex, bthome_v1_object_t *objs, size_t max)
{
    bthome_v1_parser_t p;
    size_t n = 0;
    load(hex);
    bthome_v1_parser_init(&p, in, in_len);
    while (n < max && bthome_v1_parser_next(&p, &objs[n]))
        n++;
    return n;
}

/* Parses the hex as exactly one well-formed object, checks what every good lone object
 * shares (status, views, offsets, nothing after it) and returns it with its text. */
static void parse_single(const char *hex, bthome_v1_object_t *o, char *text, size_t size)
{
    bthome_v1_parser_t p;
    bthome_v1_object_t end;
    load(hex);
    bthome_v1_parser_init(&p, in, in_len);
    text[0] = '\0';
    CHECK(bthome_v1_parser_next(&p, o));
    CHECK_INT(o->status, BTHOME_V1_OK);
    CHECK_INT(o->obj.status, BTHOME_OBJ_OK);
    CHECK_INT(o->offset, 0);
    CHECK_INT(o->length, in_len);
    CHECK_INT(o->control, in[0]);
    CHECK_INT(o->declared_length, in[0] & 0x1f);
    CHECK_INT(o->format, in[0] >> 5);
    CHECK_INT(o->obj.id, in[1]);
    CHECK_PTR(o->obj.def, bthome_object_def(in[1]));
    CHECK_INT(o->obj.offset, 1);
    CHECK_INT(o->obj.length, in_len - 1);
    CHECK_INT(o->obj.value_offset, 2);
    CHECK_INT(o->obj.value_length, in_len - 2);
    CHECK_INT(o->obj.ordinal, 1);
    CHECK_BOOL(o->obj.out_of_order, false);
    CHECK(bthome_v1_format_value(o, in, text, size));
    CHECK_BOOL(bthome_v1_parser_next(&p, &end), false);
}

/* ------------------------------------------ 1. spec and canonical-parser examples */

typedef struct {
    const char *hex;
    const char *field;
    int64_t raw;
    double value;
    const char *text;
} number_case_t;

/* Integers, from the spec's v1 section and the canonical parser's v1 tests. */
static const number_case_t spec_numbers[] = {
    { "23 02 c4 09",    "temperature", 2500,    25.0,     "25.00 °C" },   /* spec */
    { "03 03 bf 13",    "humidity",    5055,    50.55,    "50.55 %" },    /* spec */
    { "23 02 ca 09",    "temperature", 2506,    25.06,    "25.06 °C" },
    { "23 02 5d 09",    "temperature", 2397,    23.97,    "23.97 °C" },
    { "03 03 b7 18",    "humidity",    6327,    63.27,    "63.27 %" },
    { "02 01 5d",       "battery",     93,      93,       "93 %" },
    { "04 04 13 8a 01", "pressure",    100883,  1008.83,  "1008.83 hPa" },
    { "04 05 13 8a 14", "illuminance", 1346067, 13460.67, "13460.67 lx" },
    { "03 07 3e 1d",    "mass_lb",     7486,    74.86,    "74.86 lb" },
    { "23 08 ca 06",    "dewpoint",    1738,    17.38,    "17.38 °C" },
    { "02 09 60",       "count",       96,      96,       "96" },
    { "04 0a 13 8a 14", "energy",      1346067, 1346.067, "1346.067 kWh" },
    { "04 0b 02 1b 00", "power",       6914,    69.14,    "69.14 W" },
    { "03 0c 02 0c",    "voltage",     3074,    3.074,    "3.074 V" },
    { "03 0d 12 0c",    "pm2_5",       3090,    3090,     "3090 µg/m³" },
    { "03 0e 02 1c",    "pm10",        7170,    7170,     "7170 µg/m³" },
    { "03 12 e2 04",    "co2",         1250,    1250,     "1250 ppm" },
    { "03 13 33 01",    "tvoc",        307,     307,      "307 µg/m³" },
    { "03 14 02 0c",    "moisture",    3074,    30.74,    "30.74 %" },
    { "02 00 b4",       "packet_id",   180,     180,      "180" },
    { "03 0c be 0b",    "voltage",     3006,    3.006,    "3.006 V" },
};

static void check_number_cases(const number_case_t *cases, size_t n, bool is_float)
{
    for (size_t i = 0; i < n; i++) {
        const number_case_t *c = &cases[i];
        bthome_v1_object_t o;
        char text[BTHOME_VALUE_TEXT_MAX];
        parse_single(c->hex, &o, text, sizeof text);
        CHECK_STR(field_of(&o), c->field);
        CHECK(o.obj.def && o.obj.def->kind == BTHOME_KIND_NUMBER);
        CHECK_BOOL(o.is_float, is_float);
        CHECK_INT(o.obj.raw, c->raw);
        CHECK_DBL(o.obj.value, c->value);
        CHECK_STR(text, c->text);
    }
}

typedef struct {
    const char *hex;
    const char *field;
    int64_t raw;
    const char *text;
} word_case_t;

static const word_case_t spec_words[] = {
    { "02 0f 01",          "binary.generic", 1,          "on" },
    { "02 10 01",          "binary.power",   1,          "on" },
    { "02 10 00",          "binary.power",   0,          "off" },
    { "02 11 00",          "binary.opening", 0,          "closed" },
    { "02 11 01",          "binary.opening", 1,          "open" },
    { "02 3a 04",          "button",         4,          "long_press" },
    { "02 3a 80",          "button",         0x80,       "hold_press" },
    { "03 3c 01 03",       "dimmer",         1,          "rotate_left, 3 steps" },
    { "23 3c 02 0a",       "dimmer",         2,          "rotate_right, 10 steps" },
    { "02 64 02",          "light_level",    2,          "bright" },
    /* timestamp: format 5 (canonical), and a 4-byte uint as in v2 */
    { "a5 50 5d 39 61 64", "timestamp",      1684093277, "2023-05-14 19:41:17 UTC" },
    { "a5 50 00 00 00 00", "timestamp",      0,          "1970-01-01 00:00:00 UTC" },
    { "a5 50 ff ff ff ff", "timestamp",      0xffffffff, "2106-02-07 06:28:15 UTC" },
    { "05 50 5d 39 61 64", "timestamp",      1684093277, "2023-05-14 19:41:17 UTC" },
    /* firmware rows: their v2 bytes, most significant last */
    { "05 f1 00 01 02 04", "firmware_version", 0,        "4.2.1.0" },
    { "04 f2 00 01 06",    "firmware_version", 0,        "6.1.0" },
};

static void test_spec_examples(void)
{
    check_number_cases(spec_numbers, sizeof spec_numbers / sizeof spec_numbers[0], false);

    for (size_t i = 0; i < sizeof spec_words / sizeof spec_words[0]; i++) {
        const word_case_t *c = &spec_words[i];
        bthome_v1_object_t o;
        char text[BTHOME_VALUE_TEXT_MAX];
        parse_single(c->hex, &o, text, sizeof text);
        CHECK_STR(field_of(&o), c->field);
        CHECK_INT(o.obj.raw, c->raw);
        CHECK_BOOL(o.exceeds_type, false);
        CHECK_STR(text, c->text);
    }
    bthome_v1_object_t o;
    char text[64];
    parse_single("03 3c 01 03", &o, text, sizeof text);
    CHECK_BOOL(o.obj.has_steps, true);
    CHECK_INT(o.obj.steps, 3);

    /* the spec's float example: half float 10224.0 x 0.01 */
    static const number_case_t mass[] = {
        { "43 06 fe 70", "mass_kg", 10224, 102.24, "102.24 kg" },
    };
    check_number_cases(mass, 1, true);

    /* whole payloads of the canonical tests */
    static const struct { const char *hex; size_t n; const char *texts[4]; } lists[] = {
        { "23 02 ca 09 03 03 bf 13",          2, { "25.06 °C", "50.55 %" } },
        { "23 02 5d 09 03 03 b7 18 02 01 5d", 3, { "23.97 °C", "63.27 %", "93 %" } },
        { "02 00 b4 02 10 00 03 0c be 0b",    3, { "180", "off", "3.006 V" } },
        { "03 0d 12 0c 03 0e 02 1c",          2, { "3090 µg/m³", "7170 µg/m³" } },
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        bthome_v1_object_t objs[8];
        size_t n = parse_all(lists[i].hex, objs, 8);
        CHECK_INT(n, lists[i].n);
        for (size_t k = 0; k < n && k < lists[i].n; k++) {
            CHECK_INT(objs[k].status, BTHOME_V1_OK);
            CHECK(bthome_v1_format_value(&objs[k], in, text, sizeof text));
            CHECK_STR(text, lists[i].texts[k]);
        }
    }
    cur = "";
}

/* The spec's full v1 advertisement: AD structures -> service data 0x181C -> objects. */
static void test_spec_advert(void)
{
    load("02 01 06 0b 09 44 49 59 2d 73 65 6e 73 6f 72 0b 16 1c 18 23 02 c4 09 03 03 bf 13");
    const uint8_t *sd = NULL;
    size_t sd_len = 0;
    for (size_t pos = 0; pos < in_len && in[pos] != 0 && pos + 1 + in[pos] <= in_len;
         pos += 1 + in[pos]) {
        if (in[pos + 1] == 0x16 && in[pos] >= 3 &&
            (in[pos + 2] | in[pos + 3] << 8) == BTHOME_UUID_V1) {
            sd = in + pos + 4;
            sd_len = in[pos] - 3u;
        }
    }
    CHECK(sd != NULL);
    CHECK_INT(sd_len, 8);
    if (!sd)
        return;
    CHECK_INT(sd - in, 19);

    static const struct { size_t offset; const char *label, *field, *text; } exp[] = {
        { 0, "Temperature", "temperature", "25.00 °C" },
        { 4, "Humidity",    "humidity",    "50.55 %" },
    };
    bthome_v1_parser_t p;
    bthome_v1_object_t o;
    char text[64], label[64];
    bthome_v1_parser_init(&p, sd, sd_len);
    for (size_t i = 0; i < 2; i++) {
        CHECK(bthome_v1_parser_next(&p, &o));
        CHECK_INT(o.status, BTHOME_V1_OK);
        CHECK_INT(o.offset, exp[i].offset);
        CHECK_INT(o.length, 4);
        CHECK_INT(o.obj.offset, exp[i].offset + 1);
        CHECK_STR(field_of(&o), exp[i].field);
        bthome_format_label(&o.obj, label, sizeof label);
        CHECK_STR(label, exp[i].label);
        CHECK(bthome_v1_format_value(&o, sd, text, sizeof text));
        CHECK_STR(text, exp[i].text);
    }
    CHECK_BOOL(bthome_v1_parser_next(&p, &o), false);
    CHECK_INT(BTHOME_UUID_V1_ENCRYPTED, 0x181E);
    cur = "";
}

/* -------------------------------------- 2. integers: the same as the v2 object */

/* Every integer-typed row of the table, with the v2 width and several byte patterns:
 * v1 (`control, id, bytes`) must give v2's (`id, bytes`) raw, value, text and label. */
static void test_integers_match_v2(void)
{
    static const uint8_t patterns[][4] = {
        { 0x00, 0x00, 0x00, 0x00 }, { 0xff, 0xff, 0xff, 0xff }, { 0x00, 0x00, 0x00, 0x80 },
        { 0xff, 0xff, 0xff, 0x7f }, { 0x01, 0x00, 0x00, 0x00 }, { 0xca, 0x09, 0x8a, 0x14 },
        { 0x5d, 0x39, 0x61, 0x64 }, { 0x02, 0x00, 0x00, 0x00 }, { 0x80, 0x00, 0x00, 0x00 },
    };
    size_t nrows = 0, compared = 0;
    const bthome_object_def_t *const *rows = bthome_object_defs(&nrows);
    for (size_t r = 0; r < nrows; r++) {
        const bthome_object_def_t *d = rows[r];
        unsigned size = bthome_type_size(d->type);
        if (!size)
            continue;
        for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
            uint8_t v1[8], v2[8];
            const uint8_t *pat = patterns[k] + (4 - size);   /* top byte last */
            v2[0] = v1[1] = d->id;
            v1[0] = (uint8_t)((bthome_type_is_signed(d->type) ? 0x20 : 0x00) | (size + 1));
            memcpy(v2 + 1, pat, size);
            memcpy(v1 + 2, pat, size);

            bthome_parser_t p2;
            bthome_object_t o2;
            bthome_v1_parser_t p1;
            bthome_v1_object_t o1;
            char t1[BTHOME_VALUE_TEXT_MAX], t2[BTHOME_VALUE_TEXT_MAX], l1[64], l2[64];
            cur = hex_of(v1, size + 2);
            bthome_parser_init(&p2, v2, size + 1);
            bthome_v1_parser_init(&p1, v1, size + 2);
            CHECK(bthome_parser_next(&p2, &o2));
            CHECK(bthome_v1_parser_next(&p1, &o1));
            CHECK_INT(o1.status, BTHOME_V1_OK);
            CHECK_PTR(o1.obj.def, o2.def);
            CHECK_INT(o1.obj.raw, o2.raw);
            CHECK_DBL(o1.obj.value, o2.value);
            CHECK_BOOL(o1.exceeds_type, false);
            CHECK_BOOL(o1.is_float, false);
            CHECK_INT(o1.obj.length, o2.length);
            CHECK_INT(o1.obj.value_length, o2.value_length);
            bool ok2 = bthome_format_value(&o2, v2, t2, sizeof t2);
            CHECK_BOOL(bthome_v1_format_value(&o1, v1, t1, sizeof t1), ok2);
            if (ok2)
                CHECK_STR(t1, t2);
            /* the v2 view is usable as it is by the v2 formatter */
            CHECK_BOOL(bthome_format_value(&o1.obj, v1, t1, sizeof t1), ok2);
            if (ok2)
                CHECK_STR(t1, t2);
            bthome_format_label(&o1.obj, l1, sizeof l1);
            bthome_format_label(&o2, l2, sizeof l2);
            CHECK_STR(l1, l2);
            compared++;
        }
    }
    cur = "integer rows of the table";
    CHECK(compared >= 80 * 9);
    cur = "";
}

/* --------------------------------------- 3. integer widths v1 allows beyond v2's */

typedef struct {
    const char *hex;
    bthome_v1_status_t status;
    int64_t raw;
    double value;
    bool exceeds_type;
    const char *text;           /* NULL: not OK, no text */
} width_case_t;

static const width_case_t width_cases[] = {
    /* temperature 0x02 is s16 in v2; v1 says width and signedness itself */
    { "05 02 c4 09 00 00", BTHOME_V1_OK, 2500, 25.0, false, "25.00 °C" },    /* u32 */
    { "25 02 3c f6 ff ff", BTHOME_V1_OK, -2500, -25.0, false, "-25.00 °C" }, /* s32 */
    { "05 02 00 00 01 00", BTHOME_V1_OK, 65536, 655.36, true, "655.36 °C" },
    { "03 02 c4 09",       BTHOME_V1_OK, 2500, 25.0, false, "25.00 °C" },    /* unsigned */
    { "03 02 00 80",       BTHOME_V1_OK, 32768, 327.68, true, "327.68 °C" }, /* u16 > s16 */
    { "23 02 00 80",       BTHOME_V1_OK, -32768, -327.68, false, "-327.68 °C" },
    { "02 02 c4",          BTHOME_V1_OK, 196, 1.96, false, "1.96 °C" },      /* u8 */
    { "02 02 80",          BTHOME_V1_OK, 128, 1.28, false, "1.28 °C" },
    { "22 02 80",          BTHOME_V1_OK, -128, -1.28, false, "-1.28 °C" },   /* s8 */
    { "22 02 7f",          BTHOME_V1_OK, 127, 1.27, false, "1.27 °C" },
    { "22 02 ff",          BTHOME_V1_OK, -1, -0.01, false, "-0.01 °C" },
    /* humidity 0x03 is u16: a signed v1 value may go below 0 */
    { "23 03 ff ff",       BTHOME_V1_OK, -1, -0.01, true, "-0.01 %" },
    { "24 04 ff ff ff",    BTHOME_V1_OK, -1, -0.01, true, "-0.01 hPa" },     /* s24 */
    { "24 04 ff ff 7f",    BTHOME_V1_OK, 8388607, 83886.07, false, "83886.07 hPa" },
    { "24 04 00 00 80",    BTHOME_V1_OK, -8388608, -83886.08, true, "-83886.08 hPa" },
    /* count 0x09 (u8, factor 1) over every width up to 8 bytes */
    { "03 09 00 01",       BTHOME_V1_OK, 256, 256, true, "256" },
    { "05 09 ff ff ff ff", BTHOME_V1_OK, 4294967295LL, 4294967295.0, true, "4294967295" },
    { "06 09 00 00 00 00 01", BTHOME_V1_OK, 4294967296LL, 4294967296.0, true, "4294967296" },
    { "07 09 ff ff ff ff ff ff", BTHOME_V1_OK, 281474976710655LL, 281474976710655.0, true,
      "281474976710655" },
    { "29 09 00 00 00 00 00 00 00 80", BTHOME_V1_OK, INT64_MIN, -9223372036854775808.0, true,
      "-9223372036854775808" },
    { "29 09 ff ff ff ff ff ff ff 7f", BTHOME_V1_OK, INT64_MAX, 9223372036854775807.0, true,
      "9223372036854775807" },
    { "29 09 ff ff ff ff ff ff ff ff", BTHOME_V1_OK, -1, -1, true, "-1" },
    { "09 09 ff ff ff ff ff ff ff 7f", BTHOME_V1_OK, INT64_MAX, 9223372036854775807.0, true,
      "9223372036854775807" },
    { "09 09 05 00 00 00 00 00 00 00", BTHOME_V1_OK, 5, 5, false, "5" },
    { "28 09 00 00 00 00 00 00 80", BTHOME_V1_OK, -36028797018963968LL,
      -36028797018963968.0, true, "-36028797018963968" },                   /* s56 min */
    /* 2^52 and past: v2 prints a double; v1 keeps every digit */
    { "08 3e ff ff ff ff ff ff 0f", BTHOME_V1_OK, 4503599627370495LL, 4503599627370495.0, true,
      "4503599627370495" },
    { "08 3e 00 00 00 00 00 00 10", BTHOME_V1_OK, 4503599627370496LL, 4503599627370496.0, true,
      "4503599627370496" },
    { "08 02 ff ff ff ff ff ff 0f", BTHOME_V1_OK, 4503599627370495LL, 45035996273704.95, true,
      "45035996273704.95 °C" },
    { "08 02 01 00 00 00 00 00 10", BTHOME_V1_OK, 4503599627370497LL, 45035996273704.97, true,
      "45035996273704.97 °C" },
    { "08 02 01 00 00 00 00 00 20", BTHOME_V1_OK, 9007199254740993LL, 9007199254740992.0 / 100,
      true,
      "90071992547409.93 °C" },
    { "29 02 00 00 00 00 00 00 00 80", BTHOME_V1_OK, INT64_MIN, -92233720368547758.08, true,
      "-92233720368547758.08 °C" },
    { "29 62 ff ff ff ff ff ff ff ff", BTHOME_V1_OK, -1, -0.000001, false, "-0.000001 m/s" },
    { "29 62 00 00 00 00 00 00 00 80", BTHOME_V1_OK, INT64_MIN, -9223372036854.775808, true,
      "-9223372036854.775808 m/s" },
    /* beyond int64: an unsigned 8-byte value with the top bit set */
    { "09 09 00 00 00 00 00 00 00 80", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    { "09 09 ff ff ff ff ff ff ff ff", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    { "09 11 ff ff ff ff ff ff ff ff", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    /* factor 0.35 (digits 35): raw x 35 must stay an int64; INT64_MAX / 35 =
     * 263524915338707880 (0x03a83a83a83a83a8) */
    { "29 58 a8 83 3a a8 83 3a a8 03", BTHOME_V1_OK, 263524915338707880LL,
      9223372036854775800.0 / 100, true, "92233720368547758.00 °C" },
    { "29 58 58 7c c5 57 7c c5 57 fc", BTHOME_V1_OK, -263524915338707880LL,
      -9223372036854775800.0 / 100, true, "-92233720368547758.00 °C" },
    { "29 58 a9 83 3a a8 83 3a a8 03", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    { "29 58 57 7c c5 57 7c c5 57 fc", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    { "29 58 00 00 00 00 00 00 00 80", BTHOME_V1_OUT_OF_RANGE, 0, 0, false, NULL },
    { "29 58 ea ff ff ff ff ff ff ff", BTHOME_V1_OK, -22, -7.7, false, "-7.70 °C" },
    /* binary and enum rows (u8 in v2) read any width; words only for 0/1 */
    { "03 11 01 00",       BTHOME_V1_OK, 1, 0, false, "open" },
    { "03 11 00 01",       BTHOME_V1_OK, 256, 0, true, "unknown (0x100)" },
    { "22 11 01",          BTHOME_V1_OK, 1, 0, false, "open" },
    { "22 11 ff",          BTHOME_V1_OK, -1, 0, true, "unknown (0xffffffffffffffff)" },
    { "05 3a 80 00 00 00", BTHOME_V1_OK, 0x80, 0, false, "hold_press" },
};

static void test_widths(void)
{
    for (size_t i = 0; i < sizeof width_cases / sizeof width_cases[0]; i++) {
        const width_case_t *c = &width_cases[i];
        bthome_v1_object_t o[2];
        char text[BTHOME_VALUE_TEXT_MAX];
        size_t n = parse_all(c->hex, o, 2);
        CHECK_INT(n, 1);
        CHECK_INT(o[0].status, c->status);
        CHECK_INT(o[0].length, in_len);
        CHECK_BOOL(o[0].is_float, false);
        CHECK_BOOL(bthome_v1_format_value(&o[0], in, text, sizeof text), c->text != NULL);
        if (!c->text) {
            CHECK_INT(o[0].obj.status, BTHOME_OBJ_TRUNCATED);   /* v2 view: unusable */
            CHECK_BOOL(bthome_format_value(&o[0].obj, in, text, sizeof text), false);
            continue;
        }
        CHECK_INT(o[0].obj.raw, c->raw);
        if (o[0].obj.def && o[0].obj.def->kind == BTHOME_KIND_NUMBER)
            CHECK_DBL(o[0].obj.value, c->value);
        CHECK_BOOL(o[0].exceeds_type, c->exceeds_type);
        CHECK_STR(text, c->text);
    }
    cur = "";
}

/* ------------------------------------------------------------------ 4. floats */

typedef struct {
    const char *hex;
    int64_t raw;            /* the float before the factor, toward zero, clamped */
    double value;           /* float x factor */
    bool exceeds_type;
    const char *text;
} float_case_t;

/* count 0x09 (u8, factor 1, no unit), temperature 0x02 (s16, 0.01 °C), 0x57 (s8, 1 °C),
 * mass 0x06 (u16, 0.01 kg). Half: 0x43 (float, 2 value bytes); single: 0x45; double:
 * 0x49. */
static const float_case_t float_cases[] = {
    /* half */
    { "43 06 fe 70", 10224, 102.24, false, "102.24 kg" },      /* the spec's example */
    { "43 02 e5 68", 2506, 25.06, false, "25.06 °C" },         /* 2506.0 */
    { "43 02 e2 70", 10000, 100.0, false, "100.00 °C" },       /* 10000.0 */
    { "43 02 00 3c", 1, 0.01, false, "0.01 °C" },              /* 1.0 */
    { "43 09 00 3c", 1, 1, false, "1" },
    { "43 09 00 c0", -2, -2, true, "-2" },                     /* u8 cannot hold -2 */
    { "43 09 00 38", 0, 0.5, false, "0.5" },                   /* toward zero */
    { "43 09 00 b8", 0, -0.5, false, "-0.5" },
    { "43 09 00 3e", 1, 1.5, false, "1.5" },
    { "43 09 00 be", -1, -1.5, true, "-1.5" },
    { "43 09 ff 7b", 65504, 65504, true, "65504" },            /* largest half */
    { "43 09 ff fb", -65504, -65504, true, "-65504" },
    { "43 09 00 04", 0, 6.103515625e-05, false, "6.104e-05" }, /* smallest normal 2^-14 */
    { "43 09 ff 03", 0, 6.097555160522461e-05, false, "6.098e-05" }, /* largest subnormal */
    { "43 09 01 00", 0, 5.9604644775390625e-08, false, "5.96e-08" }, /* smallest, 2^-24 */
    { "43 09 01 80", 0, -5.9604644775390625e-08, false, "-5.96e-08" },
    { "43 09 00 00", 0, 0, false, "0" },
    { "43 09 00 80", 0, 0, false, "0" },                       /* -0 reads 0 */
    { "43 02 00 80", 0, 0, false, "0.00 °C" },
    { "43 09 00 7c", INT64_MAX, INFINITY, true, "inf" },
    { "43 09 00 fc", INT64_MIN, -INFINITY, true, "-inf" },
    { "43 02 00 7c", INT64_MAX, INFINITY, true, "inf °C" },
    { "43 09 00 7e", 0, NAN, true, "NaN" },                    /* quiet NaN */
    { "43 09 01 7c", 0, NAN, true, "NaN" },                    /* signalling pattern */
    { "43 09 ff ff", 0, NAN, true, "NaN" },
    /* single */
    { "45 02 00 a0 1c 45", 2506, 25.06, false, "25.06 °C" },   /* 2506.0f x 0.01 */
    { "45 57 e1 7a c8 41", 25, 25.059999465942383, false, "25.06 °C" }, /* 25.06f */
    { "45 09 00 00 20 c0", -2, -2.5, true, "-2.5" },
    { "45 09 f9 02 15 50", 10000000000LL, 1e10, true, "10000000000" },
    { "45 09 ff ff 7f 7f", INT64_MAX, 3.4028234663852886e+38, true, "3.4028235e+38" },
    { "45 09 01 00 00 00", 0, 1.401298464324817e-45, false, "1.4012985e-45" },
    { "45 09 00 00 80 7f", INT64_MAX, INFINITY, true, "inf" },
    { "45 09 00 00 c0 ff", 0, NAN, true, "NaN" },
    /* double */
    { "49 57 8f c2 f5 28 5c 0f 39 40", 25, 25.06, false, "25.06 °C" },
    { "49 09 9a 99 99 99 99 99 b9 3f", 0, 0.1, false, "0.1" },
    { "49 06 00 00 00 00 00 f8 c3 40", 10224, 102.24, false, "102.24 kg" },
    { "49 09 00 00 00 00 00 00 40 43", 9007199254740992LL, 9007199254740992.0, true,
      "9007199254740992" },                                    /* 2^53 */
    { "49 09 00 00 00 00 00 00 e0 43", INT64_MAX, 9223372036854775808.0, true,
      "9.223372036854776e+18" },                               /* 2^63: clamped raw */
    { "49 09 00 00 00 00 00 00 e0 c3", INT64_MIN, -9223372036854775808.0, true,
      "-9.223372036854776e+18" },                              /* -2^63 fits exactly */
    { "49 09 9c 75 00 88 3c e4 37 7e", INT64_MAX, 1e300, true, "1e+300" },
    { "49 09 9c 75 00 88 3c e4 37 fe", INT64_MIN, -1e300, true, "-1e+300" },
    { "49 09 01 00 00 00 00 00 00 00", 0, 5e-324, false, "5e-324" },
    { "49 09 00 00 00 00 00 00 00 80", 0, 0, false, "0" },
    { "49 09 00 00 00 00 00 00 f8 7f", 0, NAN, true, "NaN" },
    { "49 02 00 00 00 00 00 00 f0 ff", INT64_MIN, -INFINITY, true, "-inf °C" },
};

static void test_floats(void)
{
    for (size_t i = 0; i < sizeof float_cases / sizeof float_cases[0]; i++) {
        const float_case_t *c = &float_cases[i];
        bthome_v1_object_t o;
        char text[BTHOME_VALUE_TEXT_MAX];
        parse_single(c->hex, &o, text, sizeof text);
        CHECK_BOOL(o.is_float, true);
        CHECK_INT(o.format, BTHOME_V1_FLOAT);
        CHECK_INT(o.obj.raw, c->raw);
        CHECK_DBL(o.obj.value, c->value);
        CHECK_BOOL(o.exceeds_type, c->exceeds_type);
        CHECK_STR(text, c->text);
    }
    /* an integral float gives exactly the v2 value of that raw (same arithmetic) */
    bthome_v1_object_t o;
    char text[64];
    parse_single("43 06 fe 70", &o, text, sizeof text);
    CHECK_DBL(o.obj.value, bthome_scale(o.obj.def, 10224));
    parse_single("45 02 00 a0 1c 45", &o, text, sizeof text);
    CHECK_DBL(o.obj.value, bthome_scale(o.obj.def, 2506));
    /* every finite half float decodes to the IEEE value (sign x 2^e x m), reads back */
    size_t wrong = 0;
    for (unsigned h = 0; h < 0x10000; h++) {
        uint8_t b[4] = { 0x43, 0x09, (uint8_t)h, (uint8_t)(h >> 8) };
        unsigned e = (h >> 10) & 0x1f, m = h & 0x3ff;
        if (e == 31)
            continue;
        double exp_v = e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
        if (h & 0x8000)
            exp_v = -exp_v;
        bthome_v1_parser_t p;
        bthome_v1_parser_init(&p, b, 4);
        if (!bthome_v1_parser_next(&p, &o) || o.status != BTHOME_V1_OK ||
            o.obj.value != exp_v || !bthome_v1_format_value(&o, b, text, sizeof text) ||
            (exp_v != 0 && fabs(strtod(text, NULL) - exp_v) > fabs(exp_v) / 2048)) {
            if (wrong++ == 0)
                printf("  first wrong half 0x%04x: %s\n", h, text);
        }
    }
    cur = "all 63488 finite half floats";
    CHECK_INT(wrong, 0);
    cur = "";
}

/* ------------------------------------------- 4b. float text without the locale */

/* The text the C library gives in the C locale, as the formatter once made it: the
 * factor's decimals when they read back as the value (below 2^53, with 18 significant
 * digits at most), else the shortest %g within half a unit of the source precision. */
static void reference_text(double v, unsigned decimals, int digits_max, int mant_bits,
                           char *num, size_t size)
{
    if (v == 0)
        v = 0;
    if (fabs(v) < 9007199254740992.0) {
        snprintf(num, size, "%.*f", (int)decimals, v);
        size_t digits = 0;      /* significant ones */
        for (const char *c = num; *c; c++)
            if ((*c >= '1' && *c <= '9') || (*c == '0' && digits))
                digits++;
        if (strtod(num, NULL) == v && digits <= 18)     /* 18 digits at most, as int64 */
            return;
    }
    for (int digits = 1; digits <= digits_max; digits++) {
        snprintf(num, size, "%.*g", digits, v);
        double back = strtod(num, NULL);
        int exp;
        frexp(v, &exp);
        if (back == v || fabs(back - v) < ldexp(1.0, exp - mant_bits - 2))
            return;
    }
}

static size_t compared;
static uint64_t float_rng_state = 0x9e3779b97f4a7c15u;
static uint64_t float_rng(void) /* xorshift64*: the same inputs on every run */
{
    float_rng_state ^= float_rng_state >> 12;
    float_rng_state ^= float_rng_state << 25;
    float_rng_state ^= float_rng_state >> 27;
    return float_rng_state * 0x2545f4914f6cdd1du;
}

/* One float object of 2, 4 or 8 bytes with the given object ID and bits; its text
 * compared with reference_text. Returns false (and prints the first) on a mismatch. */
static bool same_as_reference(uint8_t id, size_t width, uint64_t bits, size_t *mismatches)
{
    static const struct { int digits, mant_bits; } prec[] = {
        [2] = { 5, 10 }, [4] = { 9, 23 }, [8] = { 17, 52 },
    };
    uint8_t b[10] = { (uint8_t)(0x40 | (width + 1)), id };
    bthome_v1_parser_t p;
    bthome_v1_object_t o;
    char text[BTHOME_VALUE_TEXT_MAX], ref[BTHOME_VALUE_TEXT_MAX];

    for (size_t i = 0; i < width; i++)
        b[2 + i] = (uint8_t)(bits >> (8 * i));
    bthome_v1_parser_init(&p, b, width + 2);
    if (!bthome_v1_parser_next(&p, &o) || o.status != BTHOME_V1_OK ||
        !bthome_v1_format_value(&o, b, text, sizeof text))
        return true;        /* out of range etc.: not this test's business */
    if (isnan(o.obj.value) || isinf(o.obj.value))
        return true;
    reference_text(o.obj.value, bthome_factor_decimals(o.obj.def), prec[width].digits,
                   prec[width].mant_bits, ref, sizeof ref);
    if (o.obj.def->unit[0]) {
        size_t used = strlen(ref);
        snprintf(ref + used, sizeof ref - used, " %s", o.obj.def->unit);
    }
    compared++;
    if (strcmp(text, ref) == 0)
        return true;
    if ((*mismatches)++ < 12)
        printf("  first mismatch %s: %s, C library %s\n", hex_of(b, width + 2), text, ref);
    return false;
}

static void test_float_text(void)
{
    /* count (1), rotation (0.1), temperature (0.01), voltage (0.001), and a factor of
     * 0.000001 */
    static const uint8_t ids[] = { 0x09, 0x3F, 0x02, 0x0C, 0x62 };
    size_t mismatches = 0;

    for (size_t k = 0; k < sizeof ids; k++) {
        for (unsigned h = 0; h < 0x10000; h++)
            same_as_reference(ids[k], 2, h, &mismatches);
        for (unsigned i = 0; i < 20000; i++) {
            uint64_t r = float_rng();
            same_as_reference(ids[k], 4, r & 0xffffffffu, &mismatches);
            same_as_reference(ids[k], 8, r, &mismatches);
            /* near the decimals (25.06, 102.24 ...): small integers over 10^d */
            float f = (float)((double)(int)(r % 2000001 - 1000000) / 100.0);
            uint32_t fb;
            memcpy(&fb, &f, sizeof fb);
            same_as_reference(ids[k], 4, fb, &mismatches);
            double d = (double)(int64_t)(r % 20000001 - 10000000) / 1000.0;
            uint64_t db;
            memcpy(&db, &d, sizeof db);
            same_as_reference(ids[k], 8, db, &mismatches);
        }
    }
    cur = "float text against the C library's in the C locale";
    printf("  float text: %zu objects compared with the C library's\n", compared);
    CHECK(compared > 500000);
    CHECK_INT(mismatches, 0);
    cur = "";
}

/* The same text under a locale whose decimal mark is a comma: the one
 * BTHOME_TEST_LOCALE names (tests/tshark/locale_test.py generates de_DE.UTF-8
 * and sets it), else de_DE or fr_FR if installed. */
static void test_float_text_locale(void)
{
    const char *wanted = getenv("BTHOME_TEST_LOCALE");
    const char *locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8" };
    const char *chosen = NULL;
    bthome_v1_object_t o;
    char text[64];

    if (wanted) {
        chosen = setlocale(LC_ALL, wanted) ? wanted : NULL;
        cur = wanted;
        CHECK(chosen != NULL);
    }
    for (size_t i = 0; i < 3 && !chosen && !wanted; i++)
        chosen = setlocale(LC_ALL, locales[i]) ? locales[i] : NULL;
    if (!chosen) {
        printf("  float text under a comma locale: none here, skipped (locale_test.py "
               "runs it)\n");
        cur = "";
        return;
    }
    snprintf(text, sizeof text, "%.2f", 25.06);
    cur = chosen;
    CHECK_STR(text, "25,06");       /* the locale is really in effect */
    parse_single("43 06 fe 70", &o, text, sizeof text);
    CHECK_STR(text, "102.24 kg");
    parse_single("45 02 00 a0 1c 45", &o, text, sizeof text);  /* 2506.0f x 0.01 */
    CHECK_STR(text, "25.06 °C");
    parse_single("45 09 8f c2 c8 41", &o, text, sizeof text);  /* single 25.095f */
    CHECK_STR(text, "25.095");
    parse_single("43 09 01 00", &o, text, sizeof text);
    CHECK_STR(text, "5.96e-08");
    setlocale(LC_ALL, "C");
    cur = "";
}

/* ------------------------------------- 4c. what under a v1 UUID is BTHome */

static void test_is_bthome(void)
{
    static const struct {
        const char *hex;
        bool encrypted;
        size_t reported;        /* 0: all of it */
        bool bthome;
    } cases[] = {
        { "23 02 c4 09", false, 0, true },                  /* the spec's temperature */
        { "04 05 13 8a 14 ff", false, 0, true },            /* a bad object after a good one */
        { "64 53 ff fe 41", false, 0, true },               /* text, bad UTF-8: BTHome's error */
        { "01 00", false, 0, false },                       /* an ID without its value */
        { "5a 7f 03 c1 88", false, 0, false },              /* length past the end */
        { "23 02 c4", false, 0, false },                    /* first object cut */
        { "23 02 c4", false, 4, true },                     /* ... by the capture only */
        { "23 02 c4", false, 5, true },
        { "2f 02 c4", false, 5, false },                    /* longer than was sent */
        { "23 a0 01", false, 4, false },                    /* cut, its ID unknown */
        { "23", false, 4, true },                           /* cut before its ID */
        { "03 a0 01 02", false, 0, false },                 /* unknown object ID first */
        { "c3 02 c4 09", false, 0, false },                 /* format 6 first */
        { "23 01 2c 01", false, 0, true },                  /* battery 300: beyond v2 u8 */
        { "00 23 02 c4 09", false, 0, false },              /* zero length first */
        { "", false, 0, false },
        { "01 02 03", true, 0, false },                     /* no counter and MIC */
        { "01 02 03 04 05 06 07 08 09", true, 0, false },   /* no room for an object */
        { "01 02 03 04 05 06 07 08 09 0a", true, 0, true },
        { "01 02 03", true, 10, true },                     /* cut by the capture */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[32];
        size_t n = 0;
        for (const char *c = cases[i].hex; *c; c++)
            if (c[0] != ' ' && c[1] && c[1] != ' ') {
                unsigned v;
                sscanf(c, "%2x", &v);
                b[n++] = (uint8_t)v;
                c++;
            }
        cur = cases[i].hex;
        CHECK_BOOL(bthome_v1_is_bthome(cases[i].encrypted, b, n,
                                       cases[i].reported ? cases[i].reported : n),
                   cases[i].bthome);
    }
    cur = "";
}

/* ------------------------------------------ 5. strings, MAC, other formats */

static void test_strings_and_mac(void)
{
    bthome_v1_object_t o;
    char text[BTHOME_VALUE_TEXT_MAX];

    parse_single("6d 53 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", &o, text, sizeof text);
    CHECK_STR(field_of(&o), "text");
    CHECK_INT(o.format, BTHOME_V1_STRING);
    CHECK_INT(o.obj.value_length, 12);
    CHECK_BOOL(o.obj.invalid_utf8, false);
    CHECK_STR(text, "Hello World!");
    CHECK(bthome_format_value(&o.obj, in, text, sizeof text));  /* v2 view: same text */
    CHECK_STR(text, "Hello World!");
    parse_single("64 53 c2 b0 43", &o, text, sizeof text);
    CHECK_BOOL(o.obj.invalid_utf8, false);
    CHECK_STR(text, "°C");
    parse_single("61 53", &o, text, sizeof text);              /* length 1: empty */
    CHECK_INT(o.obj.value_length, 0);
    CHECK_BOOL(o.obj.invalid_utf8, false);
    CHECK_STR(text, "");
    parse_single("64 53 ff fe 41", &o, text, sizeof text);
    CHECK_BOOL(o.obj.invalid_utf8, true);
    CHECK_STR(text, "\\xff\\xfeA");
    parse_single("65 53 41 c3 28 42", &o, text, sizeof text);
    CHECK_BOOL(o.obj.invalid_utf8, true);
    CHECK_STR(text, "A\\xc3(B");
    parse_single("62 53 c2", &o, text, sizeof text);           /* cut sequence */
    CHECK_BOOL(o.obj.invalid_utf8, true);
    parse_single("64 53 41 0a 7f", &o, text, sizeof text);     /* valid, escaped */
    CHECK_BOOL(o.obj.invalid_utf8, false);
    CHECK_STR(text, "A\\x0a\\x7f");

    /* length 31, the largest: 30 text bytes */
    static char hex[200];
    size_t len = (size_t)snprintf(hex, sizeof hex, "7f 53");
    for (int i = 0; i < 30; i++)
        len += (size_t)snprintf(hex + len, sizeof hex - len, " %02x", 'a' + i % 26);
    parse_single(hex, &o, text, sizeof text);
    CHECK_INT(o.declared_length, 31);
    CHECK_INT(o.length, 32);
    CHECK_INT(o.obj.value_length, 30);
    CHECK_STR(text, "abcdefghijklmnopqrstuvwxyzabcd");

    /* MAC: 6 bytes reversed on the wire (the spec's 54:48:E6:8F:80:A5) */
    parse_single("87 54 a5 80 8f e6 48 54", &o, text, sizeof text);
    CHECK_STR(field_of(&o), "raw");
    CHECK_INT(o.format, BTHOME_V1_MAC);
    CHECK_STR(text, "54:48:e6:8f:80:a5");
    static const uint8_t mac[6] = { 0x54, 0x48, 0xe6, 0x8f, 0x80, 0xa5 };
    CHECK(memcmp(o.mac, mac, 6) == 0);
    CHECK(bthome_format_value(&o.obj, in, text, sizeof text));  /* v2 view: raw bytes */
    CHECK_STR(text, "a5808fe64854");
    cur = "";
}

/* ------------------------------------------ 6. bad objects: continue or stop */

typedef struct {
    bthome_v1_status_t status;
    size_t offset, length;
} expect_t;

typedef struct {
    const char *hex;
    size_t n;
    expect_t obj[4];
} list_case_t;

#define T02 "23 02 c4 09"   /* a good temperature, 25.00 °C */

static const list_case_t list_cases[] = {
    { "",                            0, { { 0 } } },
    /* continue: unknown ID, bad format, bad size, out of range */
    { "03 a0 01 02 " T02,            2, { { BTHOME_V1_UNKNOWN_ID, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "01 a0 " T02,                  2, { { BTHOME_V1_UNKNOWN_ID, 0, 2 }, { BTHOME_V1_OK, 2, 4 } } },
    { "e3 a0 01 02 " T02,            2, { { BTHOME_V1_UNKNOWN_ID, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "c3 02 c4 09 " T02,            2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "e3 02 c4 09 03 03 bf 13",     2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "63 02 41 42 " T02,            2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "87 02 01 02 03 04 05 06 " T02, 2, { { BTHOME_V1_BAD_FORMAT, 0, 8 }, { BTHOME_V1_OK, 8, 4 } } },
    { "a5 02 01 02 03 04 " T02,      2, { { BTHOME_V1_BAD_FORMAT, 0, 6 }, { BTHOME_V1_OK, 6, 4 } } },
    { "43 11 00 3c " T02,            2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "43 3a 00 3c " T02,            2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "25 50 5d 39 61 64 " T02,      2, { { BTHOME_V1_BAD_FORMAT, 0, 6 }, { BTHOME_V1_OK, 6, 4 } } },
    { "02 53 41 " T02,               2, { { BTHOME_V1_BAD_FORMAT, 0, 3 }, { BTHOME_V1_OK, 3, 4 } } },
    { "64 54 41 42 43 " T02,         2, { { BTHOME_V1_BAD_FORMAT, 0, 5 }, { BTHOME_V1_OK, 5, 4 } } },
    { "04 3b 00 01 05 " T02,         2, { { BTHOME_V1_BAD_FORMAT, 0, 5 }, { BTHOME_V1_OK, 5, 4 } } },
    { "44 02 01 02 03 " T02,         2, { { BTHOME_V1_BAD_SIZE, 0, 5 }, { BTHOME_V1_OK, 5, 4 } } },
    { "42 02 01 " T02,               2, { { BTHOME_V1_BAD_SIZE, 0, 3 }, { BTHOME_V1_OK, 3, 4 } } },
    { "41 02 " T02,                  2, { { BTHOME_V1_BAD_SIZE, 0, 2 }, { BTHOME_V1_OK, 2, 4 } } },
    { "46 02 01 02 03 04 05 " T02,   2, { { BTHOME_V1_BAD_SIZE, 0, 7 }, { BTHOME_V1_OK, 7, 4 } } },
    { "4a 02 01 02 03 04 05 06 07 08 09 " T02,
                                     2, { { BTHOME_V1_BAD_SIZE, 0, 11 }, { BTHOME_V1_OK, 11, 4 } } },
    { "21 02 " T02,                  2, { { BTHOME_V1_BAD_SIZE, 0, 2 }, { BTHOME_V1_OK, 2, 4 } } },
    { "01 02",                       1, { { BTHOME_V1_BAD_SIZE, 0, 2 } } },
    { "0a 09 01 02 03 04 05 06 07 08 09 " T02,
                                     2, { { BTHOME_V1_BAD_SIZE, 0, 11 }, { BTHOME_V1_OK, 11, 4 } } },
    { "a4 50 01 02 03 " T02,         2, { { BTHOME_V1_BAD_SIZE, 0, 5 }, { BTHOME_V1_OK, 5, 4 } } },
    { "a6 50 01 02 03 04 05 " T02,   2, { { BTHOME_V1_BAD_SIZE, 0, 7 }, { BTHOME_V1_OK, 7, 4 } } },
    { "03 50 01 02 " T02,            2, { { BTHOME_V1_BAD_SIZE, 0, 4 }, { BTHOME_V1_OK, 4, 4 } } },
    { "86 54 01 02 03 04 05 " T02,   2, { { BTHOME_V1_BAD_SIZE, 0, 7 }, { BTHOME_V1_OK, 7, 4 } } },
    { "88 54 01 02 03 04 05 06 07 " T02,
                                     2, { { BTHOME_V1_BAD_SIZE, 0, 9 }, { BTHOME_V1_OK, 9, 4 } } },
    { "02 3c 01 " T02,               2, { { BTHOME_V1_BAD_SIZE, 0, 3 }, { BTHOME_V1_OK, 3, 4 } } },
    { "04 f1 00 01 02 " T02,         2, { { BTHOME_V1_BAD_SIZE, 0, 5 }, { BTHOME_V1_OK, 5, 4 } } },
    { "09 09 00 00 00 00 00 00 00 80 02 09 05",
                                     2, { { BTHOME_V1_OUT_OF_RANGE, 0, 10 }, { BTHOME_V1_OK, 10, 3 } } },
    /* several bad objects in a row, then good ones */
    { "c3 02 c4 09 03 a0 01 02 44 02 01 02 03 " T02 " 03 03 bf 13",
                                     5, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_UNKNOWN_ID, 4, 4 },
                                          { BTHOME_V1_BAD_SIZE, 8, 5 }, { BTHOME_V1_OK, 13, 4 } } },
    /* stop: zero length */
    { "00",                          1, { { BTHOME_V1_ZERO_LENGTH, 0, 1 } } },
    { "00 " T02,                     1, { { BTHOME_V1_ZERO_LENGTH, 0, 1 } } },
    { "e0",                          1, { { BTHOME_V1_ZERO_LENGTH, 0, 1 } } },
    { T02 " 20 02 c4 09",            2, { { BTHOME_V1_OK, 0, 4 }, { BTHOME_V1_ZERO_LENGTH, 4, 1 } } },
    /* stop: truncated */
    { "23",                          1, { { BTHOME_V1_TRUNCATED, 0, 1 } } },
    { "23 02",                       1, { { BTHOME_V1_TRUNCATED, 0, 2 } } },
    { "23 02 c4",                    1, { { BTHOME_V1_TRUNCATED, 0, 3 } } },
    { T02 " 03 03 bf",               2, { { BTHOME_V1_OK, 0, 4 }, { BTHOME_V1_TRUNCATED, 4, 3 } } },
    { "23 a0",                       1, { { BTHOME_V1_TRUNCATED, 0, 2 } } },
    { "1f 02 01 02",                 1, { { BTHOME_V1_TRUNCATED, 0, 4 } } },
    { "ff",                          1, { { BTHOME_V1_TRUNCATED, 0, 1 } } },
    { "c3 02 c4 09 23 02",           2, { { BTHOME_V1_BAD_FORMAT, 0, 4 }, { BTHOME_V1_TRUNCATED, 4, 2 } } },
};

static void test_lists(void)
{
    for (size_t i = 0; i < sizeof list_cases / sizeof list_cases[0]; i++) {
        const list_case_t *c = &list_cases[i];
        bthome_v1_object_t o[8];
        char text[BTHOME_VALUE_TEXT_MAX];
        size_t n = parse_all(c->hex, o, 8);
        CHECK_INT(n, c->n);
        for (size_t k = 0; k < n && k < c->n && k < 4; k++) {
            const expect_t *e = &c->obj[k];
            CHECK_INT(o[k].status, e->status);
            CHECK_INT(o[k].offset, e->offset);
            CHECK_INT(o[k].length, e->length);
            CHECK_INT(o[k].obj.status, e->status == BTHOME_V1_OK ? BTHOME_OBJ_OK
                                       : e->status == BTHOME_V1_UNKNOWN_ID ? BTHOME_OBJ_UNKNOWN
                                       : BTHOME_OBJ_TRUNCATED);
            /* a bad object has no value text, through either view */
            CHECK_BOOL(bthome_v1_format_value(&o[k], in, text, sizeof text),
                       e->status == BTHOME_V1_OK);
            CHECK_BOOL(bthome_format_value(&o[k].obj, in, text, sizeof text),
                       e->status == BTHOME_V1_OK);
            CHECK_BOOL(o[k].obj.out_of_order, false);
        }
        /* the good temperature after bad objects still reads right */
        if (n >= 2 && o[n - 1].status == BTHOME_V1_OK && o[n - 1].obj.id == 0x02) {
            CHECK(bthome_v1_format_value(&o[n - 1], in, text, sizeof text));
            CHECK_STR(text, "25.00 °C");
        }
    }

    /* what a bad object still says about itself */
    bthome_v1_object_t o[4];
    char label[64];
    parse_all("03 a0 01 02", o, 4);
    CHECK_PTR(o[0].obj.def, NULL);
    CHECK_INT(o[0].obj.id, 0xa0);
    CHECK_INT(o[0].obj.ordinal, 0);
    bthome_format_label(&o[0].obj, label, sizeof label);
    CHECK_STR(label, "Unknown object 0xa0");
    parse_all("c3 02 c4 09", o, 4);
    CHECK_INT(o[0].format, 6);
    CHECK_INT(o[0].declared_length, 3);
    CHECK_PTR(o[0].obj.def, bthome_object_def(0x02));
    bthome_format_label(&o[0].obj, label, sizeof label);
    CHECK_STR(label, "Temperature");
    parse_all("23 02 c4", o, 4);                 /* truncated: the views, clamped */
    CHECK_INT(o[0].declared_length, 3);
    CHECK_INT(o[0].obj.offset, 1);
    CHECK_INT(o[0].obj.length, 2);
    CHECK_INT(o[0].obj.value_offset, 2);
    CHECK_INT(o[0].obj.value_length, 1);
    CHECK_PTR(o[0].obj.def, bthome_object_def(0x02));
    CHECK_INT(o[0].obj.ordinal, 1);
    parse_all("23", o, 4);                       /* no ID byte */
    CHECK_INT(o[0].obj.offset, 1);
    CHECK_INT(o[0].obj.length, 0);
    CHECK_INT(o[0].obj.value_length, 0);
    CHECK_PTR(o[0].obj.def, NULL);
    parse_all("23 a0", o, 4);                    /* unknown and cut: truncated wins */
    CHECK_INT(o[0].status, BTHOME_V1_TRUNCATED);
    CHECK_INT(o[0].obj.id, 0xa0);
    CHECK_PTR(o[0].obj.def, NULL);
    parse_all("00", o, 4);
    CHECK_INT(o[0].obj.length, 0);
    CHECK_PTR(o[0].obj.def, NULL);

    /* a stopped parser stays stopped; one past the end as well */
    bthome_v1_parser_t p;
    load("00 " T02);
    bthome_v1_parser_init(&p, in, in_len);
    CHECK(bthome_v1_parser_next(&p, &o[0]));
    CHECK_BOOL(bthome_v1_parser_next(&p, &o[0]), false);
    CHECK_BOOL(bthome_v1_parser_next(&p, &o[0]), false);
    load(T02);
    bthome_v1_parser_init(&p, in, in_len);
    CHECK(bthome_v1_parser_next(&p, &o[0]));
    CHECK_BOOL(bthome_v1_parser_next(&p, &o[0]), false);
    CHECK_BOOL(bthome_v1_parser_next(&p, &o[0]), false);
    bthome_v1_parser_init(&p, NULL, 0);
    CHECK_BOOL(bthome_v1_parser_next(&p, &o[0]), false);
    cur = "";
}

/* Every control byte in front of temperature 0x02 with plenty of bytes after it: the
 * length and status follow from bits 0-4 and 5-7 alone (the rules of bthome_v1.h). */
static void test_every_control_byte(void)
{
    for (unsigned control = 0; control < 256; control++) {
        uint8_t b[40] = { (uint8_t)control, 0x02 };
        unsigned len = control & 0x1f, fmt = control >> 5, n = len ? len - 1 : 0;
        bthome_v1_status_t exp;
        if (len == 0)
            exp = BTHOME_V1_ZERO_LENGTH;
        else if (fmt <= 1)      /* integers: 1..8 bytes */
            exp = n >= 1 && n <= 8 ? BTHOME_V1_OK : BTHOME_V1_BAD_SIZE;
        else if (fmt == 2)      /* floats: 2, 4, 8 */
            exp = n == 2 || n == 4 || n == 8 ? BTHOME_V1_OK : BTHOME_V1_BAD_SIZE;
        else                    /* a temperature is no string, MAC, timestamp; 6, 7 */
            exp = BTHOME_V1_BAD_FORMAT;
        bthome_v1_parser_t p;
        bthome_v1_object_t o;
        cur = hex_of(b, 2);
        bthome_v1_parser_init(&p, b, sizeof b);
        CHECK(bthome_v1_parser_next(&p, &o));
        CHECK_INT(o.status, exp);
        CHECK_INT(o.length, len ? len + 1 : 1);
        CHECK_INT(o.format, fmt);
        CHECK_INT(o.declared_length, len);
        /* objects with all-zero value bytes read 0 */
        if (exp == BTHOME_V1_OK)
            CHECK_DBL(o.obj.value, 0);
    }
    cur = "";
}

/* ------------------------------------- 7. truncated at every byte of a good list */

static void test_truncation(void)
{
    static const char *const objects[] = {
        "23 02 c4 09", "03 03 bf 13", "02 01 5d", "6d 53 48 65 6c 6c 6f 20 57 6f 72 6c 64 21",
        "87 54 a5 80 8f e6 48 54", "a5 50 5d 39 61 64", "43 06 fe 70",
        "49 57 8f c2 f5 28 5c 0f 39 40", "03 3c 01 03", "61 53",
    };
    enum { N = sizeof objects / sizeof objects[0] };
    static const char *const texts[N] = {
        "25.00 °C", "50.55 %", "93 %", "Hello World!", "54:48:e6:8f:80:a5",
        "2023-05-14 19:41:17 UTC", "102.24 kg", "25.06 °C", "rotate_left, 3 steps", "",
    };
    static char hex[600];
    size_t starts[N + 1], used = 0, total = 0;
    for (size_t i = 0; i < N; i++) {
        load(objects[i]);
        starts[i] = total;
        total += in_len;
        used += (size_t)snprintf(hex + used, sizeof hex - used, "%s ", objects[i]);
    }
    starts[N] = total;
    load(hex);
    static uint8_t full[256];
    memcpy(full, in, in_len);
    CHECK_INT(in_len, total);

    for (size_t cut = 0; cut <= total; cut++) {
        uint8_t *b = malloc(cut ? cut : 1);     /* exact size: ASan sees any overread */
        memcpy(b, full, cut);
        cur = hex_of(b, cut);
        size_t whole = 0;
        while (whole < N && starts[whole + 1] <= cut)
            whole++;
        bool partial = starts[whole] < cut;
        bthome_v1_parser_t p;
        bthome_v1_object_t o;
        char text[BTHOME_VALUE_TEXT_MAX];
        size_t n = 0;
        bthome_v1_parser_init(&p, b, cut);
        while (bthome_v1_parser_next(&p, &o)) {
            if (n < whole) {
                CHECK_INT(o.status, BTHOME_V1_OK);
                CHECK(bthome_v1_format_value(&o, b, text, sizeof text));
                CHECK_STR(text, texts[n]);
            } else {
                CHECK_INT(o.status, BTHOME_V1_TRUNCATED);
                CHECK_INT(o.offset, starts[n]);
                CHECK_INT(o.length, cut - starts[n]);
                CHECK_BOOL(bthome_v1_format_value(&o, b, text, sizeof text), false);
            }
            n++;
        }
        CHECK_INT(n, whole + partial);
        free(b);
    }
    cur = "";
}

/* ------------------------------------------------------------- 8. ordinals */

static void test_ordinals(void)
{
    bthome_v1_object_t o[8];
    char label[64];
    static const struct { const char *hex; size_t n; const char *labels[5]; } cases[] = {
        { "23 02 c4 09 23 02 ca 09 23 45 11 01", 3,
          { "Temperature", "Temperature 2", "Temperature 3" } },
        { "03 03 bf 13 02 2e 23 02 01 5d", 3, { "Humidity", "Humidity 2", "Battery" } },
        /* bad objects with a known ID count (the dissector labels them too) */
        { "c3 02 c4 09 23 02 c4 09", 2, { "Temperature", "Temperature 2" } },
        { "41 02 03 03 bf 13 23 02 c4 09", 3, { "Temperature", "Humidity", "Temperature 2" } },
        /* unknown IDs do not */
        { "03 a0 01 02 23 02 c4 09", 2, { "Unknown object 0xa0", "Temperature" } },
        /* two buttons, as the spec's "button 2 pressed" */
        { "02 3a 00 02 3a 01", 2, { "Button", "Button 2" } },
        /* a truncated one counts like in v2 */
        { "23 02 c4 09 23 45 11", 2, { "Temperature", "Temperature 2" } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = parse_all(cases[i].hex, o, 8);
        CHECK_INT(n, cases[i].n);
        for (size_t k = 0; k < n && k < cases[i].n; k++) {
            bthome_format_label(&o[k].obj, label, sizeof label);
            CHECK_STR(label, cases[i].labels[k]);
            CHECK_BOOL(o[k].obj.out_of_order, false);
        }
    }
    /* descending IDs: v1 has no ordering rule, nothing flagged */
    size_t n = parse_all("03 03 bf 13 23 02 c4 09 02 01 5d 02 00 01", o, 8);
    CHECK_INT(n, 4);
    for (size_t k = 0; k < n; k++)
        CHECK_BOOL(o[k].obj.out_of_order, false);

    /* 40 temperatures: ordinals keep counting */
    static char hex[400];
    size_t used = 0;
    for (int i = 0; i < 40; i++)
        used += (size_t)snprintf(hex + used, sizeof hex - used, "22 57 %02x ", i);
    bthome_v1_object_t many[48];
    n = parse_all(hex, many, 48);
    CHECK_INT(n, 40);
    CHECK_INT(many[39].obj.ordinal, 40);
    bthome_format_label(&many[39].obj, label, sizeof label);
    CHECK_STR(label, "Temperature 40");
    cur = "";
}

/* --------------------------------------------------- 9. names and buffers */

static void test_names(void)
{
    static const char *const formats[] = { "uint", "int", "float", "string", "mac",
                                           "timestamp" };
    cur = "bthome_v1_format_name";
    for (unsigned f = 0; f < 6; f++)
        CHECK_STR(bthome_v1_format_name(f), formats[f]);
    CHECK(bthome_v1_format_name(6) == NULL);
    CHECK(bthome_v1_format_name(7) == NULL);
    CHECK(bthome_v1_format_name(255) == NULL);
    CHECK_INT(BTHOME_V1_TIMESTAMP, 5);
    cur = "bthome_v1_status_name";
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_OK), "ok");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_TRUNCATED), "truncated");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_ZERO_LENGTH), "zero length");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_BAD_FORMAT), "bad format");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_BAD_SIZE), "bad size");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_UNKNOWN_ID), "unknown object ID");
    CHECK_STR(bthome_v1_status_name(BTHOME_V1_OUT_OF_RANGE), "out of range");
    CHECK_STR(bthome_v1_status_name((bthome_v1_status_t)99), "?");
    cur = "";
}

/* Output buffers: never overrun, always terminated. */
static void test_buffers(void)
{
    static const struct { const char *hex, *full; } cases[] = {
        { "43 06 fe 70", "102.24 kg" },                            /* float, fixed */
        { "45 09 ff ff 7f 7f", "3.4028235e+38" },                  /* float, %g */
        { "43 09 00 7e", "NaN" },
        { "87 54 a5 80 8f e6 48 54", "54:48:e6:8f:80:a5" },        /* MAC */
        { "29 02 00 00 00 00 00 00 00 80", "-92233720368547758.08 °C" }, /* exact digits */
        { "23 02 c4 09", "25.00 °C" },                             /* via the v2 core */
        { "6d 53 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", "Hello World!" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bthome_v1_object_t o;
        char text[BTHOME_VALUE_TEXT_MAX], small[40];
        parse_single(cases[i].hex, &o, text, sizeof text);
        CHECK_STR(text, cases[i].full);
        for (size_t size = 1; size <= 8; size++) {
            memset(small, 'X', sizeof small);
            CHECK(bthome_v1_format_value(&o, in, small, size));
            CHECK(strlen(small) < size);
            CHECK_INT(small[size], 'X');
            CHECK(strncmp(small, cases[i].full, strlen(small)) == 0);  /* a prefix */
        }
        memset(small, 'X', sizeof small);
        CHECK_BOOL(bthome_v1_format_value(&o, in, small, 0), false);
        CHECK_INT(small[0], 'X');
    }
    /* a bad object leaves the buffer alone */
    bthome_v1_object_t o[2];
    char buf[8] = "keep";
    parse_all("c3 02 c4 09", o, 2);
    CHECK_BOOL(bthome_v1_format_value(&o[0], in, buf, sizeof buf), false);
    CHECK_STR(buf, "keep");
    cur = "";
}

/* ------------------------------------------------------ 10. random inputs */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

enum { INV_TILE, INV_BOUNDS, INV_VIEW, INV_STOP, INV_TEXT, INV_STATUS, INV_COUNT };

static void fuzz_one(const uint8_t *b, size_t len, size_t *bad, size_t *statuses)
{
    bthome_v1_parser_t p;
    bthome_v1_object_t o;
    char text[BTHOME_VALUE_TEXT_MAX], small[6];
    size_t pos = 0;
    bool stopped = false;
    bthome_v1_parser_init(&p, b, len);
    while (bthome_v1_parser_next(&p, &o)) {
        bool stops = o.status == BTHOME_V1_TRUNCATED || o.status == BTHOME_V1_ZERO_LENGTH;
        bad[INV_TILE] += o.offset != pos || stopped;
        bad[INV_BOUNDS] += o.length == 0 || o.offset + o.length > len ||
                           (!stops && o.length != o.declared_length + 1u);
        bad[INV_VIEW] += o.obj.offset != o.offset + 1 || o.obj.offset + o.obj.length > len ||
                         (o.obj.length && o.obj.value_offset + o.obj.value_length > len) ||
                         o.obj.out_of_order;
        bad[INV_STATUS] += (o.status == BTHOME_V1_OK) != (o.obj.status == BTHOME_OBJ_OK) ||
                           (o.status == BTHOME_V1_OK && !o.obj.def);
        bool ok = bthome_v1_format_value(&o, b, text, sizeof text);
        bad[INV_TEXT] += ok != (o.status == BTHOME_V1_OK) ||
                         (ok && (strlen(text) >= sizeof text ||
                                 !bthome_utf8_valid((const uint8_t *)text, strlen(text))));
        if (ok) {   /* cut text: terminated, a prefix */
            bthome_v1_format_value(&o, b, small, sizeof small);
            bad[INV_TEXT] += strlen(small) >= sizeof small ||
                             strncmp(small, text, strlen(small)) != 0;
        }
        /* the v2 view through the v2 helpers must be safe as well */
        bthome_format_value(&o.obj, b, text, sizeof text);
        bthome_format_label(&o.obj, text, sizeof text);
        pos = o.offset + o.length;
        stopped = stops;
        bad[INV_COUNT]++;
        statuses[o.status < 7 ? o.status : 7]++;
    }
    bad[INV_STOP] += !stopped && pos != len;    /* a clean end consumes everything */
}

static void test_fuzz(void)
{
    enum { RUNS = 200000, MAXLEN = 48 };
    static const char *const names[] = { "objects tile the buffer", "object in bounds",
                                         "v2 view in bounds", "clean end at len",
                                         "text iff OK, terminated, UTF-8",
                                         "v2 status mirrors v1" };
    size_t bad[INV_COUNT + 1] = { 0 }, statuses[8] = { 0 };
    for (int run = 0; run < RUNS; run++) {
        size_t len = (size_t)(rng() % (MAXLEN + 1));
        uint8_t *b = malloc(len ? len : 1);     /* exact size: ASan sees any overread */
        for (size_t i = 0; i < len; i++)
            b[i] = (uint8_t)rng();
        /* half the runs: plausible control bytes and known IDs, to get deep */
        for (size_t i = 0; run % 2 && i + 1 < len;) {
            uint64_t r = float_rng();
            b[i] = (uint8_t)((r % 8) << 5 | (1 + (r >> 8) % 9));
            if ((r >> 16) % 4)
                b[i + 1] = (uint8_t)((r >> 24) % 0x66);
            i += 1 + (b[i] & 0x1f);
        }
        fuzz_one(b, len, bad, statuses);
        free(b);
    }
    printf("  fuzz: %d inputs, %zu objects\n", RUNS, bad[INV_COUNT]);
    for (int k = 0; k < INV_COUNT; k++) {
        cur = names[k];
        CHECK_INT(bad[k], 0);
    }
    /* the inputs reach every status, and often */
    for (unsigned st = 0; st < 7; st++) {
        cur = bthome_v1_status_name((bthome_v1_status_t)st);
        printf("  %-18s %zu\n", cur, statuses[st]);
        CHECK(statuses[st] > (st == BTHOME_V1_OUT_OF_RANGE ? 10u : 1000u));
    }
    CHECK_INT(statuses[7], 0);
    cur = "";
}

int main(void)
{
    bthome_core_init();
    test_spec_examples();
    test_spec_advert();
    test_integers_match_v2();
    test_widths();
    test_floats();
    test_float_text();
    test_float_text_locale();
    test_is_bthome();
    test_strings_and_mac();
    test_lists();
    test_every_control_byte();
    test_truncation();
    test_ordinals();
    test_names();
    test_buffers();
    test_fuzz();

    return check_summary();
}
