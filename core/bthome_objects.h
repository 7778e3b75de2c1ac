/* The BTHome v2 object table: the single source of truth for the format.
 *
 * One row per object ID. The rows drive the parser and value text (core/bthome_core.c),
 * the display-filter fields (tools/gen_object_fields.c writes them as
 * plugin/packet-bthome-object-fields.c), the capture generator (captures/make_captures.py
 * parses this file) and the field reference in the docs. Adding an object ID is adding a
 * row here and its spec example, then the steps of docs/design.md ("Adding an object ID").
 *
 * Columns:
 *   id      object ID
 *   name    tree label, as the spec names the property
 *   field   display-filter name after "bthome."; IDs sharing a quantity and unit share it
 *   kind    how the value reads: NUMBER (raw x factor), BINARY (0/1 with words), ENUM
 *           (named values), EVENT (named values that happen rather than last: counted
 *           as events), TIMESTAMP, TEXT, RAW, FIRMWARE, DIMMER, COMMAND
 *   type    wire integer type (U8 S8 U16 S16 U24 U32 S32), BYTES (fixed length, read by
 *           kind), LEN8 (next byte is the length), CMD (next byte's low 5 bits are the
 *           argument length, then an opcode)
 *   length  value bytes after the ID; 0 = variable, given by the type
 *   factor  decimal scale as written in the spec ("0.01"); the value is raw x factor
 *   unit    unit text, "" for none
 *   words   BINARY: "false|true"; ENUM, EVENT, DIMMER, COMMAND: "value=word|..."; else ""
 *
 * Keep the rows in ascending ID order (the unit tests check it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BTHOME_OBJECTS_H
#define BTHOME_OBJECTS_H

/* The spec's button events, and 0xFE: outside the spec, Shelly BLU buttons send it for
 * "hold"; every other value stays unknown. */
#define BTHOME_BUTTON_WORDS \
    "0=none|1=press|2=double_press|3=triple_press|4=long_press|5=long_double_press|" \
    "6=long_triple_press|128=hold_press|254=hold (vendor 0xfe)"

/*  id    name                    field                    kind       type   len factor      unit      words */
#define BTHOME_OBJECT_TABLE(X) \
  X(0x00, "Packet ID",            "packet_id",             NUMBER,    U8,    1, "1",        "",       "") \
  X(0x01, "Battery",              "battery",               NUMBER,    U8,    1, "1",        "%",      "") \
  X(0x02, "Temperature",          "temperature",           NUMBER,    S16,   2, "0.01",     "°C",     "") \
  X(0x03, "Humidity",             "humidity",              NUMBER,    U16,   2, "0.01",     "%",      "") \
  X(0x04, "Pressure",             "pressure",              NUMBER,    U24,   3, "0.01",     "hPa",    "") \
  X(0x05, "Illuminance",          "illuminance",           NUMBER,    U24,   3, "0.01",     "lx",     "") \
  X(0x06, "Mass",                 "mass_kg",               NUMBER,    U16,   2, "0.01",     "kg",     "") \
  X(0x07, "Mass",                 "mass_lb",               NUMBER,    U16,   2, "0.01",     "lb",     "") \
  X(0x08, "Dew point",            "dewpoint",              NUMBER,    S16,   2, "0.01",     "°C",     "") \
  X(0x09, "Count",                "count",                 NUMBER,    U8,    1, "1",        "",       "") \
  X(0x0A, "Energy",               "energy",                NUMBER,    U24,   3, "0.001",    "kWh",    "") \
  X(0x0B, "Power",                "power",                 NUMBER,    U24,   3, "0.01",     "W",      "") \
  X(0x0C, "Voltage",              "voltage",               NUMBER,    U16,   2, "0.001",    "V",      "") \
  X(0x0D, "PM2.5",                "pm2_5",                 NUMBER,    U16,   2, "1",        "µg/m³",  "") \
  X(0x0E, "PM10",                 "pm10",                  NUMBER,    U16,   2, "1",        "µg/m³",  "") \
  X(0x0F, "Generic boolean",      "binary.generic",        BINARY,    U8,    1, "1",        "",       "off|on") \
  X(0x10, "Power",                "binary.power",          BINARY,    U8,    1, "1",        "",       "off|on") \
  X(0x11, "Opening",              "binary.opening",        BINARY,    U8,    1, "1",        "",       "closed|open") \
  X(0x12, "CO2",                  "co2",                   NUMBER,    U16,   2, "1",        "ppm",    "") \
  X(0x13, "TVOC",                 "tvoc",                  NUMBER,    U16,   2, "1",        "µg/m³",  "") \
  X(0x14, "Moisture",             "moisture",              NUMBER,    U16,   2, "0.01",     "%",      "") \
  X(0x15, "Battery",              "binary.battery",        BINARY,    U8,    1, "1",        "",       "normal|low") \
  X(0x16, "Battery charging",     "binary.battery_charging", BINARY,  U8,    1, "1",        "",       "not charging|charging") \
  X(0x17, "Carbon monoxide",      "binary.carbon_monoxide", BINARY,   U8,    1, "1",        "",       "not detected|detected") \
  X(0x18, "Cold",                 "binary.cold",           BINARY,    U8,    1, "1",        "",       "normal|cold") \
  X(0x19, "Connectivity",         "binary.connectivity",   BINARY,    U8,    1, "1",        "",       "disconnected|connected") \
  X(0x1A, "Door",                 "binary.door",           BINARY,    U8,    1, "1",        "",       "closed|open") \
  X(0x1B, "Garage door",          "binary.garage_door",    BINARY,    U8,    1, "1",        "",       "closed|open") \
  X(0x1C, "Gas",                  "binary.gas",            BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x1D, "Heat",                 "binary.heat",           BINARY,    U8,    1, "1",        "",       "normal|hot") \
  X(0x1E, "Light",                "binary.light",          BINARY,    U8,    1, "1",        "",       "no light|light detected") \
  X(0x1F, "Lock",                 "binary.lock",           BINARY,    U8,    1, "1",        "",       "locked|unlocked") \
  X(0x20, "Moisture",             "binary.moisture",       BINARY,    U8,    1, "1",        "",       "dry|wet") \
  X(0x21, "Motion",               "binary.motion",         BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x22, "Moving",               "binary.moving",         BINARY,    U8,    1, "1",        "",       "not moving|moving") \
  X(0x23, "Occupancy",            "binary.occupancy",      BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x24, "Plug",                 "binary.plug",           BINARY,    U8,    1, "1",        "",       "unplugged|plugged in") \
  X(0x25, "Presence",             "binary.presence",       BINARY,    U8,    1, "1",        "",       "away|home") \
  X(0x26, "Problem",              "binary.problem",        BINARY,    U8,    1, "1",        "",       "OK|problem") \
  X(0x27, "Running",              "binary.running",        BINARY,    U8,    1, "1",        "",       "not running|running") \
  X(0x28, "Safety",               "binary.safety",         BINARY,    U8,    1, "1",        "",       "unsafe|safe") \
  X(0x29, "Smoke",                "binary.smoke",          BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x2A, "Sound",                "binary.sound",          BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x2B, "Tamper",               "binary.tamper",         BINARY,    U8,    1, "1",        "",       "off|on") \
  X(0x2C, "Vibration",            "binary.vibration",      BINARY,    U8,    1, "1",        "",       "clear|detected") \
  X(0x2D, "Window",               "binary.window",         BINARY,    U8,    1, "1",        "",       "closed|open") \
  X(0x2E, "Humidity",             "humidity",              NUMBER,    U8,    1, "1",        "%",      "") \
  X(0x2F, "Moisture",             "moisture",              NUMBER,    U8,    1, "1",        "%",      "") \
  X(0x3A, "Button",               "button",                EVENT,     U8,    1, "1",        "",       BTHOME_BUTTON_WORDS) \
  X(0x3B, "Command",              "command.opcode",        COMMAND,   CMD,   0, "1",        "",       "0=off|1=on|2=toggle|3=step_up|4=step_down") \
  X(0x3C, "Dimmer",               "dimmer",                DIMMER,    BYTES, 2, "1",        "",       "0=none|1=rotate_left|2=rotate_right") \
  X(0x3D, "Count",                "count",                 NUMBER,    U16,   2, "1",        "",       "") \
  X(0x3E, "Count",                "count",                 NUMBER,    U32,   4, "1",        "",       "") \
  X(0x3F, "Rotation",             "rotation",              NUMBER,    S16,   2, "0.1",      "°",      "") \
  X(0x40, "Distance",             "distance_mm",           NUMBER,    U16,   2, "1",        "mm",     "") \
  X(0x41, "Distance",             "distance_m",            NUMBER,    U16,   2, "0.1",      "m",      "") \
  X(0x42, "Duration",             "duration",              NUMBER,    U24,   3, "0.001",    "s",      "") \
  X(0x43, "Current",              "current",               NUMBER,    U16,   2, "0.001",    "A",      "") \
  X(0x44, "Speed",                "speed",                 NUMBER,    U16,   2, "0.01",     "m/s",    "") \
  X(0x45, "Temperature",          "temperature",           NUMBER,    S16,   2, "0.1",      "°C",     "") \
  X(0x46, "UV index",             "uv_index",              NUMBER,    U8,    1, "0.1",      "",       "") \
  X(0x47, "Volume",               "volume",                NUMBER,    U16,   2, "0.1",      "L",      "") \
  X(0x48, "Volume",               "volume_ml",             NUMBER,    U16,   2, "1",        "mL",     "") \
  X(0x49, "Volume flow rate",     "volume_flow_rate",      NUMBER,    U16,   2, "0.001",    "m³/h",   "") \
  X(0x4A, "Voltage",              "voltage",               NUMBER,    U16,   2, "0.1",      "V",      "") \
  X(0x4B, "Gas",                  "gas",                   NUMBER,    U24,   3, "0.001",    "m³",     "") \
  X(0x4C, "Gas",                  "gas",                   NUMBER,    U32,   4, "0.001",    "m³",     "") \
  X(0x4D, "Energy",               "energy",                NUMBER,    U32,   4, "0.001",    "kWh",    "") \
  X(0x4E, "Volume",               "volume",                NUMBER,    U32,   4, "0.001",    "L",      "") \
  X(0x4F, "Water",                "water",                 NUMBER,    U32,   4, "0.001",    "L",      "") \
  X(0x50, "Timestamp",            "timestamp",             TIMESTAMP, U32,   4, "1",        "",       "") \
  X(0x51, "Acceleration",         "acceleration",          NUMBER,    U16,   2, "0.001",    "m/s²",   "") \
  X(0x52, "Gyroscope",            "gyroscope",             NUMBER,    U16,   2, "0.001",    "°/s",    "") \
  X(0x53, "Text",                 "text",                  TEXT,      LEN8,  0, "1",        "",       "") \
  X(0x54, "Raw",                  "raw",                   RAW,       LEN8,  0, "1",        "",       "") \
  X(0x55, "Volume storage",       "volume_storage",        NUMBER,    U32,   4, "0.001",    "L",      "") \
  X(0x56, "Conductivity",         "conductivity",          NUMBER,    U16,   2, "1",        "µS/cm",  "") \
  X(0x57, "Temperature",          "temperature",           NUMBER,    S8,    1, "1",        "°C",     "") \
  X(0x58, "Temperature",          "temperature",           NUMBER,    S8,    1, "0.35",     "°C",     "") \
  X(0x59, "Count",                "count",                 NUMBER,    S8,    1, "1",        "",       "") \
  X(0x5A, "Count",                "count",                 NUMBER,    S16,   2, "1",        "",       "") \
  X(0x5B, "Count",                "count",                 NUMBER,    S32,   4, "1",        "",       "") \
  X(0x5C, "Power",                "power",                 NUMBER,    S32,   4, "0.01",     "W",      "") \
  X(0x5D, "Current",              "current",               NUMBER,    S16,   2, "0.001",    "A",      "") \
  X(0x5E, "Direction",            "direction",             NUMBER,    U16,   2, "0.01",     "°",      "") \
  X(0x5F, "Precipitation",        "precipitation",         NUMBER,    U16,   2, "0.1",      "mm",     "") \
  X(0x60, "Channel",              "channel",               NUMBER,    U8,    1, "1",        "",       "") \
  X(0x61, "Rotational speed",     "rotational_speed",      NUMBER,    U16,   2, "1",        "rpm",    "") \
  X(0x62, "Speed",                "speed",                 NUMBER,    S32,   4, "0.000001", "m/s",    "") \
  X(0x63, "Acceleration",         "acceleration",          NUMBER,    S32,   4, "0.000001", "m/s²",   "") \
  X(0x64, "Light level",          "light_level",           ENUM,      U8,    1, "1",        "",       "0=dark|1=twilight|2=bright") \
  X(0x65, "Settings revision",    "settings_revision",     NUMBER,    U8,    1, "1",        "",       "") \
  X(0xF0, "Device type ID",       "device_type_id",        NUMBER,    U16,   2, "1",        "",       "") \
  X(0xF1, "Firmware version",     "firmware_version",      FIRMWARE,  BYTES, 4, "1",        "",       "") \
  X(0xF2, "Firmware version",     "firmware_version",      FIRMWARE,  BYTES, 3, "1",        "",       "")

#endif
