/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the Wireshark-free core (core/bthome_core.c).
 *
 * Expected values come from the BTHome format specification (https://bthome.io/format/,
 * the "spec" below), not from the code. Plain C, no framework: each CHECK counts a pass or
 * prints file:line, the input bytes, the expected and the actual value. The last line of
 * output is "N passed, M failed"; the exit status is non-zero on any failure.
 */
#include "bthome_core.h"
#include "bthome_objects.h"
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *field_of(const bthome_object_t *obj)
{
    return obj->def ? obj->def->field : "(no def)";
}

/* Parses the hex as exactly one well-formed object, checks what every good lone object
 * shares (status, def, offsets, nothing after it) and returns it with its value text. */
static void parse_single(const char *hex, bthome_object_t *obj, char *text, size_t size)
{
    bthome_parser_t p;
    bthome_object_t end;
    load(hex);
    bthome_parser_init(&p, in, in_len);
    text[0] = '\0';
    CHECK(bthome_parser_next(&p, obj));
    CHECK_INT(obj->status, BTHOME_OBJ_OK);
    CHECK_INT(obj->id, in[0]);
    CHECK_PTR(obj->def, bthome_object_def(in[0]));
    CHECK_INT(obj->offset, 0);
    CHECK_INT(obj->length, in_len);
    CHECK_INT(obj->value_offset + obj->value_length, in_len);
    CHECK_INT(obj->ordinal, 1);
    CHECK_BOOL(obj->out_of_order, false);
    CHECK(bthome_format_value(obj, in, text, size));
    CHECK_BOOL(bthome_parser_next(&p, &end), false);
}

/* ------------------------------------------------- 1. spec examples: sensors */

typedef struct {
    const char *hex;
    const char *field;
    int64_t raw;
    double value;
    const char *text;   /* the spec's result, factor decimals, " unit" appended */
} number_case_t;

static const number_case_t sensor_examples[] = {
    { "00 09",             "packet_id",        9,          9,          "9" },
    { "01 61",             "battery",          97,         97,         "97 %" },
    { "02 ca 09",          "temperature",      2506,       25.06,      "25.06 °C" },
    { "03 bf 13",          "humidity",         5055,       50.55,      "50.55 %" },
    { "04 13 8a 01",       "pressure",         100883,     1008.83,    "1008.83 hPa" },
    { "05 13 8a 14",       "illuminance",      1346067,    13460.67,   "13460.67 lx" },
    { "06 5e 1f",          "mass_kg",          8030,       80.3,       "80.30 kg" },
    { "07 3e 1d",          "mass_lb",          7486,       74.86,      "74.86 lb" },
    { "08 ca 06",          "dewpoint",         1738,       17.38,      "17.38 °C" },
    { "09 60",             "count",            96,         96,         "96" },
    { "0a 13 8a 14",       "energy",           1346067,    1346.067,   "1346.067 kWh" },
    { "0b 02 1b 00",       "power",            6914,       69.14,      "69.14 W" },
    { "0c 02 0c",          "voltage",          3074,       3.074,      "3.074 V" },
    { "0d 12 0c",          "pm2_5",            3090,       3090,       "3090 µg/m³" },
    { "0e 02 1c",          "pm10",             7170,       7170,       "7170 µg/m³" },
    { "12 e2 04",          "co2",              1250,       1250,       "1250 ppm" },
    { "13 33 01",          "tvoc",             307,        307,        "307 µg/m³" },
    { "14 02 0c",          "moisture",         3074,       30.74,      "30.74 %" },
    { "2e 23",             "humidity",         35,         35,         "35 %" },
    { "2f 23",             "moisture",         35,         35,         "35 %" },
    { "3d 09 60",          "count",            24585,      24585,      "24585" },
    { "3e 2a 2c 09 60",    "count",            1611213866, 1611213866, "1611213866" },
    { "3f 02 0c",          "rotation",         3074,       307.4,      "307.4 °" },
    { "40 0c 00",          "distance_mm",      12,         12,         "12 mm" },
    { "41 4e 00",          "distance_m",       78,         7.8,        "7.8 m" },
    { "42 4e 34 00",       "duration",         13390,      13.39,      "13.390 s" },
    { "43 4e 34",          "current",          13390,      13.39,      "13.390 A" },
    { "44 4e 34",          "speed",            13390,      133.9,      "133.90 m/s" },
    { "45 11 01",          "temperature",      273,        27.3,       "27.3 °C" },
    { "46 32",             "uv_index",         50,         5.0,        "5.0" },
    { "47 87 56",          "volume",           22151,      2215.1,     "2215.1 L" },
    { "48 dc 87",          "volume_ml",        34780,      34780,      "34780 mL" },
    { "49 dc 87",          "volume_flow_rate", 34780,      34.78,      "34.780 m³/h" },
    { "4a 02 0c",          "voltage",          3074,       307.4,      "307.4 V" },
    { "4b 13 8a 14",       "gas",              1346067,    1346.067,   "1346.067 m³" },
    { "4c 41 01 8a 01",    "gas",              25821505,   25821.505,  "25821.505 m³" },
    { "4d 12 13 8a 14",    "energy",           344593170,  344593.17,  "344593.170 kWh" },
    { "4e 87 56 2a 01",    "volume",           19551879,   19551.879,  "19551.879 L" },
    { "4f 87 56 2a 01",    "water",            19551879,   19551.879,  "19551.879 L" },
    { "51 87 56",          "acceleration",     22151,      22.151,     "22.151 m/s²" },
    { "52 87 56",          "gyroscope",        22151,      22.151,     "22.151 °/s" },
    { "55 87 56 2a 01",    "volume_storage",   19551879,   19551.879,  "19551.879 L" },
    { "56 e8 03",          "conductivity",     1000,       1000,       "1000 µS/cm" },
    { "57 ea",             "temperature",      -22,        -22,        "-22 °C" },
    { "58 ea",             "temperature",      -22,        -7.7,       "-7.70 °C" },
    { "59 ea",             "count",            -22,        -22,        "-22" },
    { "5a ea ea",          "count",            -5398,      -5398,      "-5398" },
    { "5b ea 02 34 ea",    "count",            -365690134, -365690134, "-365690134" },
    { "5c 02 fb ff ff",    "power",            -1278,      -12.78,     "-12.78 W" },
    { "5d 02 ea",          "current",          -5630,      -5.63,      "-5.630 A" },
    { "5e 9f 8c",          "direction",        35999,      359.99,     "359.99 °" },
    { "5f a0 0f",          "precipitation",    4000,       400.0,      "400.0 mm" },
    { "60 01",             "channel",          1,          1,          "1" },
    { "61 ac 0d",          "rotational_speed", 3500,       3500,       "3500 rpm" },
    { "62 40 99 df ff",    "speed",            -2123456,   -2.123456,  "-2.123456 m/s" },
    { "63 00 57 d0 ff",    "acceleration",     -3123456,   -3.123456,  "-3.123456 m/s²" },
    { "65 03",             "settings_revision", 3,         3,          "3" },
    /* device information */
    { "f0 01 00",          "device_type_id",   1,          1,          "1" },
};

/* ---------------------------------------------------- 3. integer boundaries */

static const number_case_t boundaries[] = {
    { "57 80",             "temperature",  -128,        -128,         "-128 °C" },
    { "57 7f",             "temperature",  127,         127,          "127 °C" },
    { "58 80",             "temperature",  -128,        -44.8,        "-44.80 °C" },
    { "58 7f",             "temperature",  127,         44.45,        "44.45 °C" },
    { "02 00 80",          "temperature",  -32768,      -327.68,      "-327.68 °C" },
    { "02 ff 7f",          "temperature",  32767,       327.67,       "327.67 °C" },
    { "02 ff ff",          "temperature",  -1,          -0.01,        "-0.01 °C" },
    { "02 00 00",          "temperature",  0,           0,            "0.00 °C" },
    { "5d ff ff",          "current",      -1,          -0.001,       "-0.001 A" },
    { "5b 00 00 00 80",    "count",        INT32_MIN,   INT32_MIN,    "-2147483648" },
    { "5b ff ff ff 7f",    "count",        INT32_MAX,   INT32_MAX,    "2147483647" },
    { "5c 00 00 00 80",    "power",        INT32_MIN,   -21474836.48, "-21474836.48 W" },
    { "04 ff ff ff",       "pressure",     0xffffff,    167772.15,    "167772.15 hPa" },
    { "0a ff ff ff",       "energy",       0xffffff,    16777.215,    "16777.215 kWh" },
    { "3e ff ff ff ff",    "count",        0xffffffff,  4294967295.0, "4294967295" },
    { "4d ff ff ff ff",    "energy",       0xffffffff,  4294967.295,  "4294967.295 kWh" },
    { "01 ff",             "battery",      255,         255,          "255 %" },
    { "46 ff",             "uv_index",     255,         25.5,         "25.5" },
    { "3d ff ff",          "count",        65535,       65535,        "65535" },
    { "03 ff ff",          "humidity",     65535,       655.35,       "655.35 %" },
    { "62 c0 66 20 00",    "speed",        2123456,     2.123456,     "2.123456 m/s" },
    { "62 40 99 df ff",    "speed",        -2123456,    -2.123456,    "-2.123456 m/s" },
    { "62 00 00 00 80",    "speed",        INT32_MIN,   -2147.483648, "-2147.483648 m/s" },
    { "63 01 00 00 00",    "acceleration", 1,           0.000001,     "0.000001 m/s²" },
    { "63 ff ff ff ff",    "acceleration", -1,          -0.000001,    "-0.000001 m/s²" },
};

static void check_number_cases(const number_case_t *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const number_case_t *c = &cases[i];
        bthome_object_t obj;
        char text[BTHOME_VALUE_TEXT_MAX];
        parse_single(c->hex, &obj, text, sizeof text);
        CHECK_STR(field_of(&obj), c->field);
        CHECK(obj.def && obj.def->kind == BTHOME_KIND_NUMBER);
        CHECK_INT(obj.value_offset, 1);
        CHECK_INT(obj.raw, c->raw);
        CHECK_DBL(obj.value, c->value);
        CHECK_STR(text, c->text);
    }
}

/* ------------------------------------------- 1. spec examples: binary sensors */

typedef struct {
    uint8_t id;
    const char *field, *no, *yes;   /* words for 0 and 1 */
} binary_case_t;

static const binary_case_t binary_examples[] = {
    { 0x0F, "binary.generic",          "off",          "on" },
    { 0x10, "binary.power",            "off",          "on" },
    { 0x11, "binary.opening",          "closed",       "open" },
    { 0x15, "binary.battery",          "normal",       "low" },
    { 0x16, "binary.battery_charging", "not charging", "charging" },
    { 0x17, "binary.carbon_monoxide",  "not detected", "detected" },
    { 0x18, "binary.cold",             "normal",       "cold" },
    { 0x19, "binary.connectivity",     "disconnected", "connected" },
    { 0x1A, "binary.door",             "closed",       "open" },
    { 0x1B, "binary.garage_door",      "closed",       "open" },
    { 0x1C, "binary.gas",              "clear",        "detected" },
    { 0x1D, "binary.heat",             "normal",       "hot" },
    { 0x1E, "binary.light",            "no light",     "light detected" },
    { 0x1F, "binary.lock",             "locked",       "unlocked" },
    { 0x20, "binary.moisture",         "dry",          "wet" },
    { 0x21, "binary.motion",           "clear",        "detected" },
    { 0x22, "binary.moving",           "not moving",   "moving" },
    { 0x23, "binary.occupancy",        "clear",        "detected" },
    { 0x24, "binary.plug",             "unplugged",    "plugged in" },
    { 0x25, "binary.presence",         "away",         "home" },
    { 0x26, "binary.problem",          "OK",           "problem" },
    { 0x27, "binary.running",          "not running",  "running" },
    { 0x28, "binary.safety",           "unsafe",       "safe" },
    { 0x29, "binary.smoke",            "clear",        "detected" },
    { 0x2A, "binary.sound",            "clear",        "detected" },
    { 0x2B, "binary.tamper",           "off",          "on" },
    { 0x2C, "binary.vibration",        "clear",        "detected" },
    { 0x2D, "binary.window",           "closed",       "open" },
};

static void test_binary_sensors(void)
{
    for (size_t i = 0; i < sizeof binary_examples / sizeof binary_examples[0]; i++) {
        const binary_case_t *c = &binary_examples[i];
        for (unsigned v = 0; v <= 2; v++) {
            char hex[8], text[BTHOME_VALUE_TEXT_MAX], word[32];
            bthome_object_t obj;
            snprintf(hex, sizeof hex, "%02x %02x", c->id, v);
            parse_single(hex, &obj, text, sizeof text);
            CHECK_STR(field_of(&obj), c->field);
            CHECK(obj.def && obj.def->kind == BTHOME_KIND_BINARY);
            CHECK_INT(obj.raw, v);
            if (v < 2) {
                CHECK_STR(text, v ? c->yes : c->no);
                CHECK(obj.def && bthome_word(obj.def, v, word, sizeof word));
                CHECK_STR(word, v ? c->yes : c->no);
            } else {    /* 2 is neither false nor true: no word */
                CHECK(obj.def && !bthome_word(obj.def, v, word, sizeof word));
                CHECK_STR(text, "unknown (0x02)");
            }
        }
    }
    cur = "";
}

/* ---------------------------------- 1. spec examples: events and enumerations */

typedef struct {
    const char *hex;
    const char *field;
    int64_t raw;            /* event, opcode or level */
    bool has_steps;
    unsigned steps;
    size_t value_length;
    const char *text;
} word_case_t;

static const word_case_t word_examples[] = {
    /* button 0x3A: every event of the spec, then one it does not define */
    { "3a 00",       "button", 0x00, false, 0, 1, "none" },
    { "3a 01",       "button", 0x01, false, 0, 1, "press" },
    { "3a 02",       "button", 0x02, false, 0, 1, "double_press" },
    { "3a 03",       "button", 0x03, false, 0, 1, "triple_press" },
    { "3a 04",       "button", 0x04, false, 0, 1, "long_press" },
    { "3a 05",       "button", 0x05, false, 0, 1, "long_double_press" },
    { "3a 06",       "button", 0x06, false, 0, 1, "long_triple_press" },
    { "3a 80",       "button", 0x80, false, 0, 1, "hold_press" },
    { "3a 07",       "button", 0x07, false, 0, 1, "unknown (0x07)" },
    { "3a ff",       "button", 0xff, false, 0, 1, "unknown (0xff)" },
    /* dimmer 0x3C: event byte, then steps */
    { "3c 01 03",    "dimmer", 1, true, 3, 2, "rotate_left, 3 steps" },
    { "3c 02 0a",    "dimmer", 2, true, 10, 2, "rotate_right, 10 steps" },
    /* command 0x3B: length byte (low 5 bits = argument length), opcode, arguments.
     * value_length counts the opcode and the arguments. */
    { "3b 01 03 05", "command.opcode", 3, true, 5, 2, "step_up, 5 steps" },
    { "3b 00 01",    "command.opcode", 1, false, 0, 1, "on" },
    { "3b 00 00",    "command.opcode", 0, false, 0, 1, "off" },
    { "3b 00 02",    "command.opcode", 2, false, 0, 1, "toggle" },
    { "3b 01 04 02", "command.opcode", 4, true, 2, 2, "step_down, 2 steps" },
    { "3b 00 03",    "command.opcode", 3, false, 0, 1, "step_up" },
    { "3b 00 09",    "command.opcode", 9, false, 0, 1, "unknown (0x09)" },
    /* light level 0x64 */
    { "64 00",       "light_level", 0, false, 0, 1, "dark" },
    { "64 01",       "light_level", 1, false, 0, 1, "twilight" },
    { "64 02",       "light_level", 2, false, 0, 1, "bright" },
    { "64 03",       "light_level", 3, false, 0, 1, "unknown (0x03)" },
};

static void test_word_examples(void)
{
    for (size_t i = 0; i < sizeof word_examples / sizeof word_examples[0]; i++) {
        const word_case_t *c = &word_examples[i];
        bthome_object_t obj;
        char text[BTHOME_VALUE_TEXT_MAX];
        parse_single(c->hex, &obj, text, sizeof text);
        CHECK_STR(field_of(&obj), c->field);
        CHECK_INT(obj.raw, c->raw);
        CHECK_BOOL(obj.has_steps, c->has_steps);
        CHECK_INT(obj.steps, c->steps);
        CHECK_INT(obj.value_length, c->value_length);
        CHECK_BOOL(obj.reserved_bits, false);
        CHECK_STR(text, c->text);
    }
    /* the spec's two-button example: "button 2 pressed" */
    bthome_parser_t p;
    bthome_object_t obj;
    char text[64], label[64];
    load("3a 00 3a 01");
    bthome_parser_init(&p, in, in_len);
    CHECK(bthome_parser_next(&p, &obj));
    bthome_format_label(&obj, label, sizeof label);
    CHECK_STR(label, "Button");
    CHECK(bthome_format_value(&obj, in, text, sizeof text));
    CHECK_STR(text, "none");
    CHECK(bthome_parser_next(&p, &obj));
    bthome_format_label(&obj, label, sizeof label);
    CHECK_STR(label, "Button 2");
    CHECK_INT(obj.ordinal, 2);
    CHECK(bthome_format_value(&obj, in, text, sizeof text));
    CHECK_STR(text, "press");
    CHECK_BOOL(bthome_parser_next(&p, &obj), false);
}

/* --------------------- 1. spec examples: timestamp, text, raw, firmware version */

static void test_other_examples(void)
{
    bthome_object_t obj;
    char text[BTHOME_VALUE_TEXT_MAX];

    parse_single("50 5d 39 61 64", &obj, text, sizeof text);
    CHECK_STR(field_of(&obj), "timestamp");
    CHECK_INT(obj.raw, 1684093277);
    CHECK_STR(text, "2023-05-14 19:41:17 UTC");
    parse_single("50 00 00 00 00", &obj, text, sizeof text);
    CHECK_STR(text, "1970-01-01 00:00:00 UTC");
    parse_single("50 ff ff ff ff", &obj, text, sizeof text);   /* u32: not a year-2038 cut */
    CHECK_INT(obj.raw, 0xffffffff);
    CHECK_STR(text, "2106-02-07 06:28:15 UTC");

    parse_single("53 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", &obj, text, sizeof text);
    CHECK_STR(field_of(&obj), "text");
    CHECK_INT(obj.value_offset, 2);
    CHECK_INT(obj.value_length, 12);
    CHECK_BOOL(obj.invalid_utf8, false);
    CHECK_STR(text, "Hello World!");
    parse_single("53 03 c2 b0 43", &obj, text, sizeof text);      /* UTF-8 kept as is */
    CHECK_BOOL(obj.invalid_utf8, false);
    CHECK_STR(text, "°C");
    parse_single("53 00", &obj, text, sizeof text);               /* empty text */
    CHECK_INT(obj.value_length, 0);
    CHECK_BOOL(obj.invalid_utf8, false);
    CHECK_STR(text, "");

    parse_single("54 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", &obj, text, sizeof text);
    CHECK_STR(field_of(&obj), "raw");
    CHECK_INT(obj.value_offset, 2);
    CHECK_INT(obj.value_length, 12);
    CHECK_STR(text, "48656c6c6f20576f726c6421");
    parse_single("54 00", &obj, text, sizeof text);
    CHECK_STR(text, "");

    parse_single("f1 00 01 02 04", &obj, text, sizeof text);
    CHECK_STR(field_of(&obj), "firmware_version");
    CHECK_INT(obj.value_length, 4);
    CHECK_STR(text, "4.2.1.0");
    parse_single("f2 00 01 06", &obj, text, sizeof text);
    CHECK_STR(field_of(&obj), "firmware_version");
    CHECK_INT(obj.value_length, 3);
    CHECK_STR(text, "6.1.0");
    parse_single("f1 ff fe 00 0a", &obj, text, sizeof text);
    CHECK_STR(text, "10.0.254.255");
}

/* Every row of the table has an example above, and every example ID is a table row. */
static void test_examples_cover_table(void)
{
    static const uint8_t others[] = { 0x50, 0x53, 0x54, 0xF1, 0xF2 };
    bool seen[256] = { false };
    for (size_t i = 0; i < sizeof sensor_examples / sizeof sensor_examples[0]; i++) {
        load(sensor_examples[i].hex);
        seen[in[0]] = true;
    }
    for (size_t i = 0; i < sizeof binary_examples / sizeof binary_examples[0]; i++)
        seen[binary_examples[i].id] = true;
    for (size_t i = 0; i < sizeof word_examples / sizeof word_examples[0]; i++) {
        load(word_examples[i].hex);
        seen[in[0]] = true;
    }
    for (size_t i = 0; i < sizeof others; i++)
        seen[others[i]] = true;
    for (unsigned id = 0; id < 256; id++) {
        describe("object ID 0x%02x (spec example vs table row)", id);
        CHECK_BOOL(bthome_object_def((uint8_t)id) != NULL, seen[id]);
    }
    cur = "";
}

/* ------------------------------------------------------------ 2. the table */

/* Wire integer types: size and range, as the spec's u8..s32 say. */
static void test_types(void)
{
    static const struct { bthome_type_t type; unsigned size; int64_t min, max; } types[] = {
        { BTHOME_TYPE_U8,  1, 0, 255 },
        { BTHOME_TYPE_S8,  1, -128, 127 },
        { BTHOME_TYPE_U16, 2, 0, 65535 },
        { BTHOME_TYPE_S16, 2, -32768, 32767 },
        { BTHOME_TYPE_U24, 3, 0, 16777215 },
        { BTHOME_TYPE_U32, 4, 0, 4294967295LL },
        { BTHOME_TYPE_S32, 4, -2147483648LL, 2147483647 },
        { BTHOME_TYPE_BYTES, 0, 0, 255 },
        { BTHOME_TYPE_LEN8, 0, 0, 255 },
        { BTHOME_TYPE_CMD, 0, 0, 255 },
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        int64_t min, max;
        describe("type %u", (unsigned)types[i].type);
        CHECK_INT(bthome_type_size(types[i].type), types[i].size);
        bthome_type_range(types[i].type, &min, &max);
        CHECK_INT(min, types[i].min);
        CHECK_INT(max, types[i].max);
    }
    cur = "";
}

/* The rows of the table itself, counted by its X-macro. */
#define COUNT_ROW(id, name, field, kind, type, length, factor, unit, words) +1
enum { TABLE_ROWS = 0 BTHOME_OBJECT_TABLE(COUNT_ROW) };

static void test_table(void)
{
    size_t n = 0;
    const bthome_object_def_t *const *rows = bthome_object_defs(&n);
    bool in_table[256] = { false };

    CHECK(rows != NULL);
    CHECK_INT(n, TABLE_ROWS);       /* every row, no more */
    for (size_t i = 0; i < n; i++) {
        const bthome_object_def_t *d = rows[i];
        describe("table row 0x%02x", d->id);
        in_table[d->id] = true;
        if (i > 0)
            CHECK(d->id > rows[i - 1]->id);         /* strictly ascending */
        CHECK_PTR(bthome_object_def(d->id), d);
        CHECK(d->name && d->name[0]);
        CHECK(d->field && d->field[0]);
        CHECK(d->unit != NULL && d->words != NULL && d->factor != NULL);

        unsigned size = bthome_type_size(d->type);
        if (size)
            CHECK_INT(d->length, size);
        else if (d->type == BTHOME_TYPE_BYTES)
            CHECK(d->length > 0);
        else                                        /* LEN8, CMD: variable */
            CHECK_INT(d->length, 0);

        /* factor: "1" or "0.<digits>", and a positive number */
        CHECK(bthome_factor_digits(d) > 0);
        CHECK(strcmp(d->factor, "1") == 0 || strncmp(d->factor, "0.", 2) == 0);

        size_t nwords = 0;
        const char *cursor = d->words;
        int64_t index = 0;
        bthome_word_t w;
        while (bthome_words_next(&cursor, &index, &w)) {
            CHECK(w.word_len > 0);
            nwords++;
        }
        if (d->kind == BTHOME_KIND_BINARY) {
            CHECK_INT(nwords, 2);
            CHECK_INT(d->type, BTHOME_TYPE_U8);
        } else if (d->kind == BTHOME_KIND_ENUM || d->kind == BTHOME_KIND_EVENT ||
                   d->kind == BTHOME_KIND_DIMMER ||
                   d->kind == BTHOME_KIND_COMMAND) {
            CHECK(nwords >= 2);
        } else {
            CHECK_INT(nwords, 0);
        }

        /* rows sharing a display-filter field read the same way */
        for (size_t j = 0; j < i; j++) {
            if (strcmp(rows[j]->field, d->field) != 0)
                continue;
            CHECK_INT(rows[j]->kind, d->kind);
            CHECK_STR(rows[j]->unit, d->unit);
        }
    }
    for (unsigned id = 0; id < 256; id++) {
        describe("bthome_object_def(0x%02x)", id);
        const bthome_object_def_t *d = bthome_object_def((uint8_t)id);
        CHECK_BOOL(d != NULL, in_table[id]);
        if (d)
            CHECK_INT(d->id, id);
    }
    cur = "0x30, 0x39, 0x66, 0xef, 0xf3, 0xff";
    CHECK_PTR(bthome_object_def(0x30), NULL);
    CHECK_PTR(bthome_object_def(0x39), NULL);
    CHECK_PTR(bthome_object_def(0x66), NULL);
    CHECK_PTR(bthome_object_def(0xEF), NULL);
    CHECK_PTR(bthome_object_def(0xF3), NULL);
    CHECK_PTR(bthome_object_def(0xFF), NULL);
    cur = "";
}

/* Factor helpers and words, straight on table rows. */
static void test_factor_and_words(void)
{
    const bthome_object_def_t *temp = bthome_object_def(0x02), *t035 = bthome_object_def(0x58),
                              *speed = bthome_object_def(0x62), *batt = bthome_object_def(0x01),
                              *button = bthome_object_def(0x3A), *lock = bthome_object_def(0x1F);
    char buf[32];
    cur = "table rows 0x01 0x02 0x1f 0x3a 0x58 0x62";
    if (!temp || !t035 || !speed || !batt || !button || !lock) {
        CHECK(!"table row missing");
        return;
    }
    CHECK_INT(bthome_factor_decimals(batt), 0);
    CHECK_INT(bthome_factor_decimals(temp), 2);
    CHECK_INT(bthome_factor_decimals(t035), 2);
    CHECK_INT(bthome_factor_decimals(speed), 6);
    CHECK_INT(bthome_factor_digits(temp), 1);
    CHECK_INT(bthome_factor_digits(t035), 35);
    CHECK_DBL(bthome_scale(temp, 2506), 25.06);
    CHECK_DBL(bthome_scale(temp, -2506), -25.06);
    CHECK_DBL(bthome_scale(t035, -22), -7.7);
    CHECK_DBL(bthome_scale(speed, -2123456), -2.123456);
    CHECK_DBL(bthome_scale(batt, 97), 97);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_S8), true);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_S16), true);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_S32), true);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_U8), false);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_U24), false);
    CHECK_BOOL(bthome_type_is_signed(BTHOME_TYPE_U32), false);

    CHECK(bthome_word(lock, 1, buf, sizeof buf));
    CHECK_STR(buf, "unlocked");
    CHECK(bthome_word(lock, 0, buf, sizeof buf));
    CHECK_STR(buf, "locked");
    CHECK(!bthome_word(lock, 2, buf, sizeof buf));
    CHECK(!bthome_word(lock, -1, buf, sizeof buf));
    CHECK(bthome_word(button, 128, buf, sizeof buf));
    CHECK_STR(buf, "hold_press");
    CHECK(!bthome_word(button, 7, buf, sizeof buf));
    CHECK(bthome_word(button, 128, buf, 5));            /* cut to the buffer */
    CHECK_STR(buf, "hold");
    CHECK(!bthome_word(batt, 0, buf, sizeof buf));      /* a NUMBER row has no words */
    cur = "";
}

/* ------------------------------------------------------------ 4. the parser */

/* Parses the hex into objs[]; returns how many objects parser_next gave. */
static size_t parse_all(const char *hex, bthome_object_t *objs, size_t max)
{
    bthome_parser_t p;
    size_t n = 0;
    load(hex);
    bthome_parser_init(&p, in, in_len);
    while (n < max && bthome_parser_next(&p, &objs[n]))
        n++;
    return n;
}

static void label_of(const bthome_object_t *obj, char *buf, size_t size)
{
    bthome_format_label(obj, buf, size);
}

static void test_parser_sequence(void)
{
    bthome_object_t o[16];
    char text[BTHOME_VALUE_TEXT_MAX], label[64];

    /* several objects of every length class in a row */
    static const struct { size_t offset, length; uint8_t id; const char *text; } seq[] = {
        { 0, 2, 0x00, "9" },        { 2, 2, 0x01, "97 %" },
        { 4, 3, 0x02, "25.06 °C" }, { 7, 3, 0x03, "50.55 %" },
        { 10, 2, 0x3A, "press" },   { 12, 4, 0x3B, "step_up, 2 steps" },
        { 16, 4, 0x53, "hi" },      { 20, 3, 0xF0, "1" },
    };
    size_t n = parse_all("00 09 01 61 02 ca 09 03 bf 13 3a 01 3b 01 03 02 53 02 68 69 f0 01 00",
                         o, 16);
    CHECK_INT(n, 8);
    for (size_t i = 0; i < n && i < 8; i++) {
        CHECK_INT(o[i].status, BTHOME_OBJ_OK);
        CHECK_INT(o[i].id, seq[i].id);
        CHECK_INT(o[i].offset, seq[i].offset);
        CHECK_INT(o[i].length, seq[i].length);
        CHECK_BOOL(o[i].out_of_order, false);
        CHECK(bthome_format_value(&o[i], in, text, sizeof text));
        CHECK_STR(text, seq[i].text);
    }

    /* v2 header followed by the objects of the spec's example advertisement */
    bthome_v2_header_t h;
    load("40 02 c4 09 03 bf 13");
    CHECK_INT(bthome_parse_v2_header(in, in_len, &h), BTHOME_HEADER_OK);
    bthome_parser_t p;
    bthome_parser_init(&p, in + h.body_offset, in_len - h.body_offset);
    CHECK(bthome_parser_next(&p, &o[0]));
    CHECK(bthome_format_value(&o[0], in + h.body_offset, text, sizeof text));
    CHECK_STR(text, "25.00 °C");
    CHECK(bthome_parser_next(&p, &o[0]));
    CHECK(bthome_format_value(&o[0], in + h.body_offset, text, sizeof text));
    CHECK_STR(text, "50.55 %");
    CHECK_BOOL(bthome_parser_next(&p, &o[0]), false);

    /* repeated objects: ordinals 1, 2, 3 */
    n = parse_all("02 ca 09 02 c4 09 02 00 80", o, 16);
    CHECK_INT(n, 3);
    static const char *const temps[] = { "Temperature", "Temperature 2", "Temperature 3" };
    for (size_t i = 0; i < n && i < 3; i++) {
        CHECK_INT(o[i].ordinal, i + 1);
        CHECK_INT(o[i].offset, 3 * i);
        CHECK_BOOL(o[i].out_of_order, false);       /* equal IDs are in order */
        label_of(&o[i], label, sizeof label);
        CHECK_STR(label, temps[i]);
    }
    CHECK_DBL(o[1].value, 25.0);
    CHECK_DBL(o[2].value, -327.68);

    /* ordinals count per field: 0x02 and 0x45 are both "temperature" */
    n = parse_all("02 ca 09 45 11 01", o, 16);
    CHECK_INT(n, 2);
    label_of(&o[0], label, sizeof label);
    CHECK_STR(label, "Temperature");
    label_of(&o[1], label, sizeof label);
    CHECK_STR(label, "Temperature 2");
    CHECK_INT(o[1].ordinal, 2);

    /* ... and different fields do not share a count */
    n = parse_all("02 ca 09 03 bf 13 45 11 01 2e 23", o, 16);
    CHECK_INT(n, 4);
    CHECK_INT(o[0].ordinal, 1);
    CHECK_INT(o[1].ordinal, 1);
    CHECK_INT(o[2].ordinal, 2);
    CHECK_INT(o[3].ordinal, 2);     /* 0x2E shares "humidity" with 0x03 */
    label_of(&o[3], label, sizeof label);
    CHECK_STR(label, "Humidity 2");

    /* out of order: an ID lower than the previous one, still parsed */
    n = parse_all("03 bf 13 02 ca 09", o, 16);
    CHECK_INT(n, 2);
    CHECK_BOOL(o[0].out_of_order, false);
    CHECK_BOOL(o[1].out_of_order, true);
    CHECK_INT(o[1].status, BTHOME_OBJ_OK);
    CHECK_DBL(o[1].value, 25.06);
    n = parse_all("02 ca 09 03 bf 13 02 c4 09 03 bf 13", o, 16);
    CHECK_INT(n, 4);
    CHECK_BOOL(o[1].out_of_order, false);
    CHECK_BOOL(o[2].out_of_order, true);
    CHECK_BOOL(o[3].out_of_order, false);  /* 0x03 after 0x02 */
}

/* Every one-byte field of the table (39 of them: more than the parser's 32 tracked
 * fields), each sent twice: the second of each pair is that field's 2nd occurrence
 * (spec: "the n-th occurrence is temperature 2"). */
static void test_many_fields(void)
{
    size_t nrows = 0;
    const bthome_object_def_t *const *rows = bthome_object_defs(&nrows);
    const char *used[64];
    size_t nused = 0, len = 0;
    static char hex[1024];
    for (size_t i = 0; i < nrows && nused < 64; i++) {
        const bthome_object_def_t *d = rows[i];
        bool dup = false;
        for (size_t j = 0; j < nused; j++)
            dup |= strcmp(used[j], d->field) == 0;
        if (dup || d->length != 1)
            continue;
        used[nused++] = d->field;
        len += (size_t)snprintf(hex + len, sizeof hex - len, "%02x 00 %02x 00 ", d->id, d->id);
    }
    bthome_object_t o[128];
    size_t n = parse_all(hex, o, 128);
    CHECK(nused > 32);
    CHECK_INT(n, 2 * nused);
    size_t wrong = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        CHECK_INT(o[i].ordinal, 1);
        if (o[i + 1].ordinal != 2 && wrong++ == 0)
            printf("  first pair with a wrong ordinal: #%zu (%s), ordinal %u\n", i / 2 + 1,
                   field_of(&o[i]), o[i + 1].ordinal);
    }
    CHECK_INT(wrong, 0);    /* pairs whose second object is not ordinal 2 */
    cur = "";
}

/* Where parsing stops: the last object's status, offset and length. */
typedef struct {
    const char *hex;
    size_t objects;             /* parser_next calls that return true */
    bthome_obj_status_t status; /* of the last one */
    size_t offset, length;      /* of the last one */
} stop_case_t;

static const stop_case_t stop_cases[] = {
    { "02 ca",                   1, BTHOME_OBJ_TRUNCATED,       0, 2 },
    { "02 ca 09 03 bf",          2, BTHOME_OBJ_TRUNCATED,       3, 2 },
    { "3e 01 02 03",             1, BTHOME_OBJ_TRUNCATED,       0, 4 }, /* u32, 3 bytes */
    { "02 ca 09 a0 01 02",       2, BTHOME_OBJ_UNKNOWN,         3, 3 }, /* rest: a0 01 02 */
    { "ff",                      1, BTHOME_OBJ_UNKNOWN,         0, 1 },
    { "53 0c 48 65",             1, BTHOME_OBJ_LENGTH_OVERRUN,  0, 4 },
    { "54 03 01 02 03 02 ca 09", 2, BTHOME_OBJ_OK,              5, 3 }, /* raw, then temp */
    { "54 05 01 02",             1, BTHOME_OBJ_LENGTH_OVERRUN,  0, 4 },
    { "53",                      1, BTHOME_OBJ_TRUNCATED,       0, 1 }, /* no length byte */
    { "02 ca 09 54",             2, BTHOME_OBJ_TRUNCATED,       3, 1 },
    { "3b 05 03 01",             1, BTHOME_OBJ_LENGTH_OVERRUN,  0, 4 },
    { "3b 01 03",                1, BTHOME_OBJ_LENGTH_OVERRUN,  0, 3 }, /* steps missing */
    { "3b 00",                   1, BTHOME_OBJ_TRUNCATED,       0, 2 }, /* opcode missing */
    { "3b",                      1, BTHOME_OBJ_TRUNCATED,       0, 1 },
    { "3b e0 01 02 ca 09",       2, BTHOME_OBJ_OK,              3, 3 }, /* reserved bits */
    { "",                        0, BTHOME_OBJ_OK,              0, 0 },
};

static void test_parser_errors(void)
{
    bthome_object_t o[8];
    char text[BTHOME_VALUE_TEXT_MAX], label[64];
    size_t n;

    for (size_t i = 0; i < sizeof stop_cases / sizeof stop_cases[0]; i++) {
        const stop_case_t *c = &stop_cases[i];
        n = parse_all(c->hex, o, 8);
        CHECK_INT(n, c->objects);
        if (n == 0 || n != c->objects)
            continue;
        CHECK_INT(o[n - 1].status, c->status);
        CHECK_INT(o[n - 1].offset, c->offset);
        CHECK_INT(o[n - 1].length, c->length);
        /* a bad object has no value text, and nothing before it is lost */
        CHECK_BOOL(bthome_format_value(&o[n - 1], in, text, sizeof text),
                   c->status == BTHOME_OBJ_OK);
        for (size_t k = 0; k + 1 < n; k++)
            CHECK_INT(o[k].status, BTHOME_OBJ_OK);
    }

    /* the bad object still names itself */
    parse_all("02 ca", o, 8);
    CHECK_PTR(o[0].def, bthome_object_def(0x02));
    label_of(&o[0], label, sizeof label);
    CHECK_STR(label, "Temperature");
    n = parse_all("02 ca 09 a0 01 02", o, 8);
    CHECK_DBL(o[0].value, 25.06);
    CHECK_PTR(o[1].def, NULL);
    CHECK_INT(o[1].id, 0xa0);
    label_of(&o[1], label, sizeof label);
    CHECK_STR(label, "Unknown object 0xa0");

    /* command reserved bits: flagged, still decoded */
    n = parse_all("3b 21 03 05", o, 8);
    CHECK_INT(n, 1);
    CHECK_INT(o[0].status, BTHOME_OBJ_OK);
    CHECK_BOOL(o[0].reserved_bits, true);
    CHECK_INT(o[0].raw, 3);
    CHECK_BOOL(o[0].has_steps, true);
    CHECK_INT(o[0].steps, 5);
    CHECK_INT(o[0].length, 4);
    CHECK(bthome_format_value(&o[0], in, text, sizeof text));
    CHECK_STR(text, "step_up, 5 steps");
    n = parse_all("3b e0 01 02 ca 09", o, 8);
    CHECK_BOOL(o[0].reserved_bits, true);
    CHECK_DBL(o[1].value, 25.06);

    /* invalid UTF-8 text: flagged, bad bytes escaped in the text */
    n = parse_all("53 03 ff fe 41", o, 8);
    CHECK_INT(n, 1);
    CHECK_INT(o[0].status, BTHOME_OBJ_OK);
    CHECK_BOOL(o[0].invalid_utf8, true);
    CHECK(bthome_format_value(&o[0], in, text, sizeof text));
    CHECK_STR(text, "\\xff\\xfeA");
    CHECK(bthome_utf8_valid((const uint8_t *)text, strlen(text)));
    n = parse_all("53 04 41 c3 28 42", o, 8);           /* bad continuation */
    CHECK_BOOL(o[0].invalid_utf8, true);
    CHECK(bthome_format_value(&o[0], in, text, sizeof text));
    CHECK_STR(text, "A\\xc3(B");
    n = parse_all("53 03 41 0a 7f", o, 8);              /* control characters: valid */
    CHECK_BOOL(o[0].invalid_utf8, false);               /* UTF-8, escaped for display */
    CHECK(bthome_format_value(&o[0], in, text, sizeof text));
    CHECK_STR(text, "A\\x0a\\x7f");

    /* a stopped parser stays stopped */
    bthome_parser_t p;
    load("02 ca");
    bthome_parser_init(&p, in, in_len);
    CHECK(bthome_parser_next(&p, &o[0]));
    CHECK_BOOL(bthome_parser_next(&p, &o[0]), false);
    CHECK_BOOL(bthome_parser_next(&p, &o[0]), false);
    cur = "";
}

/* Output buffers: never overrun, always terminated; the documented maximum fits. */
static void test_format_buffers(void)
{
    bthome_object_t obj;
    char text[BTHOME_VALUE_TEXT_MAX];
    char small[8];

    parse_single("02 ca 09", &obj, text, sizeof text);
    memset(small, 'X', sizeof small);
    CHECK(bthome_format_value(&obj, in, small, 5));
    CHECK_STR(small, "25.0");
    CHECK_INT(small[5], 'X');
    CHECK_BOOL(bthome_format_value(&obj, in, small, 0), false);
    CHECK_INT(small[0], '2');

    parse_single("53 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", &obj, text, sizeof text);
    memset(small, 'X', sizeof small);
    CHECK(bthome_format_value(&obj, in, small, 6));
    CHECK(strlen(small) < 6);
    CHECK_INT(small[6], 'X');

    parse_single("f1 ff fe fd fc", &obj, text, sizeof text);
    memset(small, 'X', sizeof small);
    CHECK(bthome_format_value(&obj, in, small, 6));
    CHECK(strlen(small) < 6);
    CHECK_INT(small[6], 'X');

    parse_single("54 04 01 02 03 04", &obj, text, sizeof text);
    memset(small, 'X', sizeof small);
    CHECK(bthome_format_value(&obj, in, small, 6));
    CHECK(strlen(small) < 6);
    CHECK_INT(small[6], 'X');

    /* The longest value: 255 text bytes, none printable as is. The header sizes
     * BTHOME_VALUE_TEXT_MAX for it, so the whole text must come out ("\xff" x 255). */
    static char hex[800];
    size_t len = (size_t)snprintf(hex, sizeof hex, "53 ff");
    for (int i = 0; i < 255; i++)
        len += (size_t)snprintf(hex + len, sizeof hex - len, " ff");
    static char expected[255 * 4 + 1];
    for (int i = 0; i < 255; i++)
        memcpy(expected + 4 * i, "\\xff", 4);
    expected[255 * 4] = '\0';
    parse_single(hex, &obj, text, sizeof text);
    cur = "53 ff ff*255 into char[BTHOME_VALUE_TEXT_MAX]";
    CHECK_BOOL(obj.invalid_utf8, true);
    CHECK_INT(strlen(text), strlen(expected));
    CHECK(strncmp(text, expected, strlen(text)) == 0);

    /* 255 raw bytes: 510 hex digits */
    len = (size_t)snprintf(hex, sizeof hex, "54 ff");
    for (int i = 0; i < 255; i++)
        len += (size_t)snprintf(hex + len, sizeof hex - len, " ab");
    parse_single(hex, &obj, text, sizeof text);
    CHECK_INT(strlen(text), 510);
    CHECK(strspn(text, "ab") == 510);
    cur = "";
}

/* ------------------------------------------------------------ 5. header */

typedef struct {
    const char *hex;
    bthome_header_status_t status;
    unsigned version;
    bool encrypted, mac_included, trigger_based, has_mac;
    unsigned reserved;
    size_t body_offset;
} header_case_t;

static const header_case_t header_cases[] = {
    /* hex                                  status                 ver enc   mac    trig  has_mac res body */
    { "40",                                 BTHOME_HEADER_OK,       2, false, false, false, false, 0, 1 },
    { "41 e4 45 f3 c9 96 2b 33 22 11 00 6c 7c 45 19",
                                            BTHOME_HEADER_OK,       2, true,  false, false, false, 0, 1 },
    { "44",                                 BTHOME_HEADER_OK,       2, false, false, true,  false, 0, 1 },
    { "58",                                 BTHOME_HEADER_OK,       2, false, false, false, false, 3, 1 },
    { "48",                                 BTHOME_HEADER_OK,       2, false, false, false, false, 1, 1 },
    { "60",                                 BTHOME_HEADER_OK,       3, false, false, false, false, 0, 1 },
    { "e5",                                 BTHOME_HEADER_OK,       7, true,  false, true,  false, 0, 1 },
    { "42 a5 80 8f e6 48 54 02 ca 09",      BTHOME_HEADER_OK,       2, false, true,  false, true,  0, 7 },
    { "43 a5 80 8f e6 48 54 e4 45",         BTHOME_HEADER_OK,       2, true,  true,  false, true,  0, 7 },
    { "42 a5 80 8f e6 48 54",               BTHOME_HEADER_OK,       2, false, true,  false, true,  0, 7 },
    { "42 a5 80",                           BTHOME_HEADER_MAC_CUT,  2, false, true,  false, false, 0, 3 },
    { "42 a5 80 8f e6 48",                  BTHOME_HEADER_MAC_CUT,  2, false, true,  false, false, 0, 6 },
};

static void test_header(void)
{
    static const uint8_t mac[6] = { 0x54, 0x48, 0xe6, 0x8f, 0x80, 0xa5 };
    bthome_v2_header_t h;

    for (size_t i = 0; i < sizeof header_cases / sizeof header_cases[0]; i++) {
        const header_case_t *c = &header_cases[i];
        load(c->hex);
        CHECK_INT(bthome_parse_v2_header(in, in_len, &h), c->status);
        CHECK_INT(h.info, in[0]);
        CHECK_INT(h.version, c->version);
        CHECK_BOOL(h.encrypted, c->encrypted);
        CHECK_BOOL(h.mac_included, c->mac_included);
        CHECK_BOOL(h.trigger_based, c->trigger_based);
        CHECK_BOOL(h.has_mac, c->has_mac);
        CHECK_INT(h.reserved, c->reserved);
        CHECK_INT(h.body_offset, c->body_offset);
        if (c->has_mac) {  /* reversed on the wire, display order in the header */
            CHECK(memcmp(h.mac, mac, sizeof mac) == 0);
            CHECK_INT(h.mac_offset, 1);
        }
    }
    load("");
    CHECK_INT(bthome_parse_v2_header(in, 0, &h), BTHOME_HEADER_EMPTY);
    cur = "";
}

/* ------------------------------------------------------------ 6. UTF-8 */

static void test_utf8(void)
{
    static const struct { const char *hex; bool valid; } cases[] = {
        { "",                         true },
        { "48 65 6c 6c 6f",           true },   /* ASCII */
        { "00",                       true },   /* NUL is a code point */
        { "c2 b0 43",                 true },   /* °C */
        { "c2 b5 67 2f 6d c2 b3",     true },   /* µg/m³ */
        { "e2 82 ac",                 true },   /* € */
        { "f0 9f 98 80",              true },   /* 😀 U+1F600 */
        { "c2 80",                    true },   /* U+0080, smallest 2-byte */
        { "df bf",                    true },   /* U+07FF */
        { "e0 a0 80",                 true },   /* U+0800, smallest 3-byte */
        { "ed 9f bf",                 true },   /* U+D7FF, just below the surrogates */
        { "ee 80 80",                 true },   /* U+E000, just above them */
        { "ef bf bf",                 true },   /* U+FFFF */
        { "f0 90 80 80",              true },   /* U+10000, smallest 4-byte */
        { "f4 8f bf bf",              true },   /* U+10FFFF, the last code point */
        { "c0 80",                    false },  /* overlong NUL */
        { "c1 bf",                    false },  /* overlong U+007F */
        { "e0 80 80",                 false },  /* overlong 3-byte */
        { "e0 9f bf",                 false },  /* overlong U+07FF */
        { "f0 80 80 80",              false },  /* overlong 4-byte */
        { "f0 8f bf bf",              false },  /* overlong U+FFFF */
        { "ed a0 80",                 false },  /* U+D800, surrogate */
        { "ed bf bf",                 false },  /* U+DFFF, surrogate */
        { "f4 90 80 80",              false },  /* U+110000 */
        { "f5 80 80 80",              false },
        { "f8 88 80 80 80",           false },  /* old 5-byte form */
        { "fe",                       false },
        { "ff",                       false },
        { "c2",                       false },  /* truncated sequences */
        { "e2 82",                    false },
        { "f0 9f 98",                 false },
        { "41 42 c2",                 false },
        { "80",                       false },  /* lone continuation bytes */
        { "bf",                       false },
        { "41 80 42",                 false },
        { "c2 b0 b0",                 false },  /* one continuation too many */
        { "c2 41",                    false },  /* lead byte without continuation */
        { "e2 28 a1",                 false },
        { "f0 9f 98 41",              false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        load(cases[i].hex);
        CHECK_BOOL(bthome_utf8_valid(in, in_len), cases[i].valid);
    }
    /* the length is what counts, not a NUL */
    load("c2 b0");
    CHECK_BOOL(bthome_utf8_valid(in, 1), false);
    CHECK_BOOL(bthome_utf8_valid(in, 0), true);
    cur = "";
}

static void test_mac_helpers(void)
{
    static const uint8_t mac[6] = { 0x54, 0x48, 0xe6, 0x8f, 0x80, 0xa5 };
    char text[BTHOME_MAC_TEXT_LEN];

    cur = "54:48:E6:8F:80:A5";
    bthome_format_mac(mac, text);
    CHECK_STR(text, "54:48:E6:8F:80:A5");
    CHECK(bthome_mac_number(mac) == 0x5448e68f80a5ULL);
}

/* Every integer value of every number row reads as raw x factor in decimal, as printf
 * of the integer and its remainder writes it: the boundaries of the wire type, the
 * digits' carries (9, 10, 99, 100, ...) and a pseudo-random sweep. */
static void check_number_text(const bthome_object_def_t *def, int64_t raw)
{
    unsigned size = bthome_type_size(def->type), decimals = bthome_factor_decimals(def);
    uint64_t mag = raw < 0 ? (uint64_t)0 - (uint64_t)raw : (uint64_t)raw, scale = 1;
    bthome_parser_t p;
    bthome_object_t obj;
    static char label[96];
    char text[BTHOME_VALUE_TEXT_MAX], want[96];
    int n;

    for (unsigned i = 0; i < decimals; i++)
        scale *= 10;
    n = snprintf(want, sizeof want, "%s%llu", raw < 0 ? "-" : "",
                 (unsigned long long)(mag / scale));
    if (decimals)
        n += snprintf(want + n, sizeof want - (size_t)n, ".%0*llu", (int)decimals,
                      (unsigned long long)(mag % scale));
    if (def->unit[0])
        snprintf(want + n, sizeof want - (size_t)n, " %s", def->unit);
    in[0] = def->id;
    for (unsigned i = 0; i < size; i++)
        in[1 + i] = (uint8_t)((uint64_t)raw >> (8 * i));
    in_len = 1 + size;
    snprintf(label, sizeof label, "%s raw %lld", def->field, (long long)raw);
    cur = label;
    bthome_parser_init(&p, in, in_len);
    CHECK(bthome_parser_next(&p, &obj));
    CHECK_INT(obj.raw, raw);
    CHECK(bthome_format_value(&obj, in, text, sizeof text));
    CHECK_STR(text, want);
    /* a buffer too short for the constant-size copy (32 bytes) takes the other path: the
     * same text */
    CHECK(bthome_format_value(&obj, in, text, 31));
    CHECK_STR(text, want);
}

static void test_number_text_sweep(void)
{
    size_t count;
    const bthome_object_def_t *const *defs = bthome_object_defs(&count);
    uint64_t lcg = 12345;

    for (size_t i = 0; i < count; i++) {
        const bthome_object_def_t *def = defs[i];
        int64_t min, max;
        if (def->kind != BTHOME_KIND_NUMBER || bthome_factor_digits(def) != 1 ||
            bthome_type_size(def->type) == 0)
            continue;   /* factors such as 0.35 are printf's own rounding, checked above */
        bthome_type_range(def->type, &min, &max);
        check_number_text(def, min);
        check_number_text(def, max);
        for (int64_t ten = 1; ten <= max; ten *= 10) {
            for (int64_t v = ten - 1; v <= ten + 1 && v <= max; v++) {
                check_number_text(def, v);
                if (-v >= min)
                    check_number_text(def, -v);
            }
        }
        for (int k = 0; k < 200; k++) {
            lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
            check_number_text(def, min + (int64_t)((lcg >> 11) % (uint64_t)(max - min + 1)));
        }
    }
    cur = "";
}

int main(void)
{
    bthome_core_init();
    check_number_cases(sensor_examples, sizeof sensor_examples / sizeof sensor_examples[0]);
    test_binary_sensors();
    test_word_examples();
    test_other_examples();
    test_examples_cover_table();
    test_types();
    test_table();
    test_factor_and_words();
    check_number_cases(boundaries, sizeof boundaries / sizeof boundaries[0]);
    test_number_text_sweep();
    test_parser_sequence();
    test_many_fields();
    test_parser_errors();
    test_format_buffers();
    test_header();
    test_utf8();
    test_mac_helpers();

    return check_summary();
}
