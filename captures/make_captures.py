#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the BTHome test captures: the same advertisements framed for every BLE link type.

The object table comes from core/bthome_objects.h (the C X-macro table), so a row added
there shows up in the all-objects captures without touching this file. Output is
byte-identical on every run: fixed timestamps, no randomness. The encrypted sets are sealed
with python3-cryptography's AES-CCM, which shares no code with the plugin that opens them.

Usage: python3 captures/make_captures.py [--out DIR]
"""

import argparse
import json
import math
import random
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.ciphers.aead import AESCCM

HERE = Path(__file__).resolve().parent
OBJECTS_H = HERE.parent / "core" / "bthome_objects.h"

# ---------------------------------------------------------------------------
# The object table

INT_TYPES = {  # wire type -> (bytes, signed)
    "U8": (1, False), "S8": (1, True),
    "U16": (2, False), "S16": (2, True),
    "U24": (3, False),
    "U32": (4, False), "S32": (4, True),
}

ROW_RE = re.compile(
    r'X\(\s*(0x[0-9A-Fa-f]+)\s*,\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*(\w+)\s*,\s*(\w+)\s*,'
    r'\s*(\d+)\s*,\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*("[^"]*"|\w+)\s*\)')
STRING_MACRO_RE = re.compile(r'^#define\s+(\w+)\s+((?:"[^"]*"\s*)+)$', re.MULTILINE)


@dataclass(frozen=True)
class ObjectType:
    id: int
    name: str
    field: str
    kind: str
    type: str
    length: int
    factor: str
    unit: str
    words: tuple  # ((key, word), ...); BINARY rows get keys 0 and 1


def parse_words(text):
    words = []
    for i, part in enumerate(p for p in text.split("|") if p):
        key, sep, word = part.partition("=")
        words.append((int(key), word) if sep else (i, part))
    return tuple(words)


def load_object_table(path=OBJECTS_H):
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    macros = {name: "".join(re.findall(r'"([^"]*)"', body))
              for name, body in STRING_MACRO_RE.findall(text)}
    rows = []
    for m in ROW_RE.finditer(text):
        oid, name, field, kind, wtype, length, factor, unit, words = m.groups()
        words = words[1:-1] if words.startswith('"') else macros[words]
        rows.append(ObjectType(int(oid, 16), name, field, kind, wtype, int(length),
                               factor, unit, parse_words(words)))
    if not rows:
        raise SystemExit(f"no object rows found in {path}")
    return rows


def int_bytes(obj, raw):
    size, signed = INT_TYPES[obj.type]
    if size != obj.length:
        raise SystemExit(f"object 0x{obj.id:02x}: type {obj.type} but length {obj.length}")
    return raw.to_bytes(size, "little", signed=signed)


def int_bounds(wtype):
    size, signed = INT_TYPES[wtype]
    if signed:
        return -(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1
    return 0, (1 << (8 * size)) - 1


TYPICAL_RAW = {"U8": 42, "S8": -12, "U16": 1234, "S16": -1234, "U24": 123456,
               "U32": 12345678, "S32": -12345678}


def typical_value(obj):
    """Value bytes (after the ID) of a plausible reading for a table row."""
    second_word = obj.words[1][0] if len(obj.words) > 1 else 1
    if obj.type == "LEN8":
        data = b"BTHome" if obj.kind == "TEXT" else bytes([0xde, 0xad, 0xbe, 0xef])
        return bytes([len(data)]) + data
    if obj.type == "CMD":
        return bytes([1, 3, 5])  # 1 argument byte, opcode 3 (step up), 5 steps
    if obj.type == "BYTES":  # dimmer: event then steps; firmware: version bytes
        return bytes([second_word]) + bytes(range(3, 2 + obj.length))
    if obj.kind in ("BINARY", "ENUM", "EVENT"):
        return int_bytes(obj, second_word)
    if obj.kind == "TIMESTAMP":
        return int_bytes(obj, 1700000000)  # 2023-11-14 22:13:20 UTC
    return int_bytes(obj, TYPICAL_RAW[obj.type])


# ---------------------------------------------------------------------------
# Advertisements

BTHOME_V2 = 0xFCD2
BTHOME_V1 = 0x181C
BTHOME_V1_ENCRYPTED = 0x181E
FLAGS_AD = bytes([0x02, 0x01, 0x06])  # LE General Discoverable, BR/EDR not supported


def h(text):
    return bytes.fromhex(text)


def mac_le(mac):
    """A display-order MAC as the air and HCI carry it: least significant byte first."""
    return bytes.fromhex(mac.replace(":", ""))[::-1]


def ad(ad_type, data):
    return bytes([len(data) + 1, ad_type]) + data


def adv_data(service_data, name=None, uuid=BTHOME_V2):
    """Flags, optional Complete Local Name, then Service Data - 16 bit UUID."""
    name_ad = ad(0x09, name.encode()) if name else b""
    return FLAGS_AD + name_ad + ad(0x16, uuid.to_bytes(2, "little") + service_data)


@dataclass(frozen=True)
class Advert:
    mac: str             # display order, "AA:BB:CC:DD:EE:FF"
    data: bytes          # AdvData (the AD structures)
    rssi: int = -60
    random: bool = False       # TxAdd / address type: random
    connectable: bool = False  # ADV_IND instead of ADV_NONCONN_IND

    def __post_init__(self):
        if len(self.data) > 31:  # legacy advertising PDUs and LE Advertising Reports
            raise ValueError(f"{self.mac}: {len(self.data)} bytes of AdvData, 31 at most")

    def addr_le(self):
        return mac_le(self.mac)


@dataclass(frozen=True)
class Event:
    """What one receiver report carries: one advert, or several in one HCI event."""
    time_us: int
    adverts: tuple
    comment: str = None
    snap: int = None     # the capture keeps this many bytes after the last BTHome UUID


def one_per_event(adverts, start_us, step_us=100_000):
    return [Event(start_us + i * step_us, (a,)) for i, a in enumerate(adverts)]


# ---------------------------------------------------------------------------
# The sets

SET_START_US = 1704067200 * 1_000_000   # 2024-01-01 00:00:00 UTC
DEMO_START_US = 1717236000 * 1_000_000  # 2024-06-01 10:00:00 UTC

SPEC_MAC = "A4:C1:38:B7:4E:01"
OBJECTS_MAC = "A4:C1:38:B7:4E:02"
ERRORS_MAC = "E1:E2:E3:00:00:03"  # random static
ENCRYPTED_MAC = "54:48:E6:8F:80:A5"  # the spec's encryption example
WEATHER_MAC, DOOR_MAC, BUTTON_MAC = "A4:C1:38:00:00:01", "A4:C1:38:00:00:02", "A4:C1:38:00:00:03"

# Copied by hand from the spec: object bytes, then (filter field, value as the spec gives
# it). Text values are written without their quotes; event and device-info words are the
# dissector's value names (docs/fields.md).
SPEC_EXAMPLES = [
    ("00 09", [("packet_id", "9")]),
    ("01 61", [("battery", "97")]),
    ("02 ca 09", [("temperature", "25.06")]),
    ("03 bf 13", [("humidity", "50.55")]),
    ("04 13 8a 01", [("pressure", "1008.83")]),
    ("05 13 8a 14", [("illuminance", "13460.67")]),
    ("06 5e 1f", [("mass_kg", "80.3")]),
    ("07 3e 1d", [("mass_lb", "74.86")]),
    ("08 ca 06", [("dewpoint", "17.38")]),
    ("09 60", [("count", "96")]),
    ("0a 13 8a 14", [("energy", "1346.067")]),
    ("0b 02 1b 00", [("power", "69.14")]),
    ("0c 02 0c", [("voltage", "3.074")]),
    ("0d 12 0c", [("pm2_5", "3090")]),
    ("0e 02 1c", [("pm10", "7170")]),
    ("12 e2 04", [("co2", "1250")]),
    ("13 33 01", [("tvoc", "307")]),
    ("14 02 0c", [("moisture", "30.74")]),
    ("2e 23", [("humidity", "35")]),
    ("2f 23", [("moisture", "35")]),
    ("3d 09 60", [("count", "24585")]),
    ("3e 2a 2c 09 60", [("count", "1611213866")]),
    ("3f 02 0c", [("rotation", "307.4")]),
    ("40 0c 00", [("distance_mm", "12")]),
    ("41 4e 00", [("distance_m", "7.8")]),
    ("42 4e 34 00", [("duration", "13.390")]),
    ("43 4e 34", [("current", "13.390")]),
    ("44 4e 34", [("speed", "133.90")]),
    ("45 11 01", [("temperature", "27.3")]),
    ("46 32", [("uv_index", "5.0")]),
    ("47 87 56", [("volume", "2215.1")]),
    ("48 dc 87", [("volume_ml", "34780")]),
    ("49 dc 87", [("volume_flow_rate", "34.780")]),
    ("4a 02 0c", [("voltage", "307.4")]),
    ("4b 13 8a 14", [("gas", "1346.067")]),
    ("4c 41 01 8a 01", [("gas", "25821.505")]),
    ("4d 12 13 8a 14", [("energy", "344593.170")]),
    ("4e 87 56 2a 01", [("volume", "19551.879")]),
    ("4f 87 56 2a 01", [("water", "19551.879")]),
    ("50 5d 39 61 64", [("timestamp", "2023-05-14 19:41:17 UTC")]),
    ("51 87 56", [("acceleration", "22.151")]),
    ("52 87 56", [("gyroscope", "22.151")]),
    ("53 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", [("text", "Hello World!")]),
    ("54 0c 48 65 6c 6c 6f 20 57 6f 72 6c 64 21", [("raw", "48656c6c6f20576f726c6421")]),
    ("55 87 56 2a 01", [("volume_storage", "19551.879")]),
    ("56 e8 03", [("conductivity", "1000")]),
    ("57 ea", [("temperature", "-22")]),
    ("58 ea", [("temperature", "-7.7")]),
    ("59 ea", [("count", "-22")]),
    ("5a ea ea", [("count", "-5398")]),
    ("5b ea 02 34 ea", [("count", "-365690134")]),
    ("5c 02 fb ff ff", [("power", "-12.78")]),
    ("5d 02 ea", [("current", "-5.630")]),
    ("5e 9f 8c", [("direction", "359.99")]),
    ("5f a0 0f", [("precipitation", "400.0")]),
    ("60 01", [("channel", "1")]),
    ("61 ac 0d", [("rotational_speed", "3500")]),
    ("62 40 99 df ff", [("speed", "-2.123456")]),
    ("63 00 57 d0 ff", [("acceleration", "-3.123456")]),
    ("64 02", [("light_level", "2 (bright)")]),
    ("65 03", [("settings_revision", "3")]),
    ("3a 04", [("button", "long_press")]),
    ("3a 00 3a 01", [("button", "none"), ("button", "press")]),
    ("3c 01 03", [("dimmer", "rotate_left"), ("dimmer.steps", "3")]),
    ("3b 01 03 05", [("command.opcode", "step_up"), ("command.steps", "5")]),
    ("3b 00 01", [("command.opcode", "on")]),
    ("f0 01 00", [("device_type_id", "1")]),
    ("f1 00 01 02 04", [("firmware_version", "4.2.1.0")]),
    ("f2 00 01 06", [("firmware_version", "6.1.0")]),
]
# The spec's full v2 advertisement (its v1 examples are in SPEC_V1_EXAMPLES).
SPEC_FULL_V2 = ("02 c4 09 03 bf 13", [("temperature", "25.00"), ("humidity", "50.55")])


def spec_examples():
    """Adverts of the spec-examples set, and the TSV rows (frame, bytes, field, value)."""
    adverts = [Advert(SPEC_MAC, adv_data(b"\x40" + h(hexbytes)))
               for hexbytes, _ in SPEC_EXAMPLES]
    adverts += [
        Advert(SPEC_MAC, adv_data(b"\x40" + h(SPEC_FULL_V2[0]), "DIY-sensor"), connectable=True),
    ]
    examples = SPEC_EXAMPLES + [SPEC_FULL_V2]
    rows = [(frame, hexbytes, "bthome." + field, value)
            for frame, (hexbytes, expected) in enumerate(examples, 1)
            for field, value in expected]
    return one_per_event(adverts, SET_START_US), rows


def all_objects(table):
    """One advert per table row, boundary values, then header-bit and repetition cases."""
    objects = [bytes([o.id]) + typical_value(o) for o in table]
    payloads = [b"\x40" + obj for obj in objects]
    for o in table:
        if o.type in ("S8", "S16", "S32", "U24", "U32") and o.kind in ("NUMBER", "TIMESTAMP"):
            low, high = int_bounds(o.type)
            payloads.append(b"\x40" + bytes([o.id]) + int_bytes(o, low)
                            + bytes([o.id]) + int_bytes(o, high))
    payloads.append(b"\x40" + packed(objects, budget=23))
    payloads += [
        h("40 02 c4 09 02 ca 09 02 11 0b 3a 00 3a 01"),  # temperature 1-3, button 2 pressed
        h("44 00 07 3a 01"),                             # trigger-based device
        b"\x42" + mac_le(OBJECTS_MAC) + h("02 ca 09 03 bf 13"),  # MAC included
    ]
    return one_per_event([Advert(OBJECTS_MAC, adv_data(p)) for p in payloads], SET_START_US)


def packed(objects, budget):
    """As many leading objects as fit in budget bytes: a busy multi-sensor advert."""
    out = b""
    for obj in objects:
        if len(out) + len(obj) > budget:
            break
        out += obj
    return out


ERROR_PAYLOADS = [
    "40 02 ca",                 # temperature runs past the end
    "40 02 ca 09 a0 01 02 03",  # valid temperature, then unknown object 0xa0
    "40 03 bf 13 02 ca 09",     # IDs out of ascending order
    "60 02 ca 09",              # version 3
    "20 02 ca 09",              # version 1 in a v2 UUID
    "58 02 ca 09",              # reserved info bits 3-4 set, valid object after
    "40 53 03 ff fe 41",        # text that is not UTF-8
    "40 53 03 ff fe 41 57 ea",  # ... then a valid object after it
    "",                         # empty service data: AD 03 16 d2 fc
    "40",                       # info byte only
    "40 53 0c 48 65",           # text length overruns
    "40 54 09 01 02",           # raw length overruns
    "40 3b 05 03 01",           # command argument length overruns
    "40 3b 21 03 05",           # command reserved bits set
    "42 a5 80 8f",              # MAC included, but cut short
    "6f",                       # every info bit: encrypted, MAC cut, reserved, version 3
    "40 02 ca 09 02",           # two temperatures, the second cut after its ID
    "40 53",                    # text with no length byte
]


def errors():
    adverts = [Advert(ERRORS_MAC, adv_data(h(p)), random=True) for p in ERROR_PAYLOADS]
    return one_per_event(adverts, SET_START_US)


# ---------------------------------------------------------------------------
# Encryption (https://bthome.io/encryption/): AES-128-CCM with a 4-byte MIC. The nonce is
# the device MAC (display order), the UUID as on the wire, for v2 the info byte, then the
# counter (u32 LE); v1 (UUID 0x181E) adds the associated data 0x11. Service data carries
# ciphertext | counter | MIC.

def ccm_seal(key, mac, uuid_and_info, counter, plain, aad=None):
    """ciphertext | counter | MIC, the nonce being MAC, uuid_and_info and the counter."""
    ctr = struct.pack("<I", counter)
    nonce = bytes.fromhex(mac.replace(":", "")) + uuid_and_info + ctr
    sealed = AESCCM(bytes.fromhex(key), tag_length=4).encrypt(nonce, plain, aad)
    return sealed[:-4] + ctr + sealed[-4:]


def v2_seal(key, mac, info, counter, plain):
    """Encrypted v2 service data after the info byte (and included MAC)."""
    return ccm_seal(key, mac, struct.pack("<HB", BTHOME_V2, info), counter, plain)


def v1_seal(key, mac, counter, plain):
    """Encrypted v1 service data (UUID 0x181E)."""
    return ccm_seal(key, mac, struct.pack("<H", BTHOME_V1_ENCRYPTED), counter, plain,
                    aad=b"\x11")


SPEC_KEY = "231d39c1d7cc1ab1aee224cd096db932"
SPEC_ENCRYPTED = h("41 e4 45 f3 c9 96 2b 33 22 11 00 6c 7c 45 19")


@dataclass(frozen=True)
class Device:
    mac: str
    key: str          # the key the device encrypts with
    name: str = ""
    random: bool = False


SPEC_DEVICE = Device(ENCRYPTED_MAC, SPEC_KEY, "kitchen")
HALLWAY = Device("A4:C1:38:E0:00:02", "a1b2c3d4e5f60718293a4b5c6d7e8f90", "hallway")
GARAGE = Device("A4:C1:38:E0:00:03", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "garage")
ATTIC = Device("A4:C1:38:E0:00:04", "5555aaaa5555aaaa5555aaaa5555aaaa", "attic")
OFFICE = Device("A4:C1:38:E0:00:05", "00112233445566778899aabbccddeeff", "office")
ROAMER = Device("D2:4F:11:22:33:44", "fedcba98765432100123456789abcdef", "", random=True)
WRAPPER = Device("A4:C1:38:E0:00:06", "1234567890abcdef1234567890abcdef", "wrap")
RESETTER = Device("A4:C1:38:E0:00:07", "abcdef1234567890abcdef1234567890", "reset")
PLAIN = Device("A4:C1:38:E0:00:08", "", "plain")
KEYED_PLAIN = Device("A4:C1:38:E0:00:09", "99999999999999999999999999999999", "keyed")
WRONG_KEY = "deadbeefdeadbeefdeadbeefdeadbeef"


def key_row(mac, key, name):
    """One row of the bthome_keys UAT, as tshark's -o uat:bthome_keys:... takes it."""
    return f'"{mac}","{key}","{name}"'


class Sealer:
    """Builds encrypted adverts, and the rows of the set's TSV: what each frame must show."""

    def __init__(self):
        self.adverts = []
        self.rows = []

    def add(self, advert, *expect):
        self.adverts.append(advert)
        frame = len(self.adverts)
        self.rows += [(frame, "", f, v) for f, v in expect]
        return frame

    def sealed(self, dev, counter, plain, info=0x41, mac_included=None):
        """Encrypted v2 service data; mac_included puts the device MAC in the payload."""
        if mac_included:
            info |= 0x02
        body = v2_seal(dev.key, dev.mac, info, counter, plain)
        return bytes([info]) + (mac_le(dev.mac) if mac_included else b"") + body

    def sealed_v1(self, dev, counter, plain):
        return v1_seal(dev.key, dev.mac, counter, plain)

    def advert(self, dev, service_data, advertiser=None, uuid=BTHOME_V2):
        return Advert(advertiser or dev.mac, adv_data(service_data, uuid=uuid),
                      random=dev.random or advertiser is not None)


def encrypted():
    """Decryption outcomes, one device or key situation per frame."""
    s = Sealer()
    spec = s.sealed(SPEC_DEVICE, 0x00112233, h("02 ca 09 03 bf 13"))
    if spec != SPEC_ENCRYPTED:
        raise SystemExit(f"the sealing does not reproduce the spec's example: {spec.hex()}")
    s.add(s.advert(SPEC_DEVICE, spec), ("bthome.temperature", "25.06"),
          ("bthome.humidity", "50.55"), ("bthome.encryption.decrypted", "1"),
          ("bthome.encryption.counter", "1122867"),
          ("bthome.encryption.nonce", "5448e68f80a5d2fc4133221100"),
          ("bthome.encryption.key_mac", "54:48:E6:8F:80:A5"))
    s.add(s.advert(HALLWAY, s.sealed(HALLWAY, 1, h("00 01 01 5a 1a 01"))),
          ("bthome.packet_id", "1"), ("bthome.battery", "90"), ("bthome.binary.door", "1"),
          ("bthome.encryption.key_mac", "A4:C1:38:E0:00:02"))
    s.add(s.advert(GARAGE, s.sealed(GARAGE, 7, h("02 c4 09"))),   # its table row: wrong key
          ("bthome.encryption.decrypted", "0"), ("bthome.expert.mic_failure", "A4:C1:38:E0:00:03"))
    tampered = bytearray(spec)
    tampered[-1] ^= 0x01
    s.add(s.advert(SPEC_DEVICE, bytes(tampered)), ("bthome.encryption.decrypted", "0"),
          ("bthome.expert.mic_failure", "wrong key or tampered"))
    s.add(s.advert(ATTIC, s.sealed(ATTIC, 3, h("02 c4 09"))),     # no key row at all
          ("bthome.expert.no_key", "no key configured for A4:C1:38:E0:00:04"))
    s.add(s.advert(SPEC_DEVICE, h("41 01 02 03")), ("bthome.expert.too_short", ""))
    # MAC included: the nonce takes it, not the (random, rotating) advertiser address
    s.add(s.advert(OFFICE, s.sealed(OFFICE, 9, h("02 ca 09"), mac_included=True),
                   advertiser="7B:00:00:00:00:01"),
          ("bthome.mac", OFFICE.mac.lower()), ("bthome.temperature", "25.06"),
          ("bthome.encryption.key_mac", OFFICE.mac))
    s.add(s.advert(HALLWAY, s.sealed(HALLWAY, 2, b"")),           # counter and MIC only
          ("bthome.encryption.decrypted", "1"), ("!bthome.expert.truncated", ""))
    s.add(s.advert(HALLWAY, s.sealed(HALLWAY, 3, h("00 02 01 59 1a 00"))),
          ("bthome.packet_id", "2"), ("bthome.binary.door", "0"))
    keys = [key_row(SPEC_DEVICE.mac, SPEC_KEY, "kitchen"),
            key_row(HALLWAY.mac, HALLWAY.key.upper(), "hallway"),
            key_row(GARAGE.mac.lower(), WRONG_KEY, "garage"),
            key_row(OFFICE.mac, " ".join(OFFICE.key[i:i + 2] for i in range(0, 32, 2)), "office")]
    return s, keys


def encrypted_wildcard():
    """'*' keys: tried on every device, after the device's own keys."""
    s = Sealer()
    # The first row is a '*' with hallway's key, listed before hallway's own row: the
    # exact row must still be the one reported.
    s.add(s.advert(HALLWAY, s.sealed(HALLWAY, 20, h("02 ca 09"))),
          ("bthome.encryption.key_mac", HALLWAY.mac), ("bthome.temperature", "25.06"))
    s.add(s.advert(ROAMER, s.sealed(Device(ROAMER.mac, HALLWAY.key), 1, h("03 bf 13"))),
          ("bthome.encryption.key_mac", "*"), ("bthome.humidity", "50.55"))
    # garage's own row is wrong, the '*' key is right
    s.add(s.advert(GARAGE, s.sealed(Device(GARAGE.mac, HALLWAY.key), 2, h("01 64"))),
          ("bthome.encryption.key_mac", "*"), ("bthome.battery", "100"))
    s.add(s.advert(ATTIC, s.sealed(ATTIC, 4, h("01 64"))),        # no key fits
          ("bthome.encryption.decrypted", "0"), ("bthome.expert.mic_failure", "A4:C1:38:E0:00:04"))
    keys = [key_row("*", HALLWAY.key, "any"),
            key_row(HALLWAY.mac, HALLWAY.key, "hallway"),
            key_row(GARAGE.mac, WRONG_KEY, "garage")]
    return s, keys


AUDIT_EXPERTS = ("duplicate", "counter_reuse", "replay", "downgrade")


def encrypted_audit():
    """One capture per audit condition (docs/encryption.md), device by device."""
    s = Sealer()
    a = SPEC_DEVICE
    first = s.sealed(a, 100, h("02 ca 09 03 bf 13"))
    f1 = s.add(s.advert(a, first), ("bthome.temperature", "25.06"))
    s.add(s.advert(a, first), ("bthome.expert.duplicate", f"frame {f1}"),
          ("bthome.encryption.prev_frame", str(f1)))
    f3 = s.add(s.advert(a, s.sealed(a, 101, h("02 cb 09 03 bf 13"))))
    s.add(s.advert(a, s.sealed(a, 101, h("02 cc 09 03 bf 13"))),   # nonce reuse
          ("bthome.expert.counter_reuse", f"frame {f3}"), ("bthome.encryption.prev_frame", str(f3)))
    s.add(s.advert(a, s.sealed(a, 50, h("02 cd 09 03 bf 13"))),
          ("bthome.expert.replay", f"not greater than 101 (frame {f3}): replay of an old frame"))
    s.add(s.advert(a, first), ("bthome.expert.replay", f"Replay of frame {f1}"))
    tampered = bytearray(s.sealed(a, 102, h("02 ce 09 03 bf 13")))
    tampered[3] ^= 0x80
    s.add(s.advert(a, bytes(tampered)), ("bthome.expert.mic_failure", ""),
          ("!bthome.expert.replay", ""), ("!bthome.expert.counter_reuse", ""))
    f8 = s.add(s.advert(a, s.sealed(a, 103, h("02 cf 09 03 bf 13"))),
               ("!bthome.expert.replay", ""))
    s.add(s.advert(a, h("40 02 ca 09 03 bf 13")), ("bthome.expert.downgrade", f"frame {f8}"))
    for counter, expect in ((0xFFFE, None), (0xFFFF, None), (0x0000, "likely a counter wrap")):
        f = s.add(s.advert(WRAPPER, s.sealed(WRAPPER, counter, h("01 50"))))
        if expect:
            s.rows.append((f, "", "bthome.expert.replay", expect))
            s.rows.append((f, "", "bthome.expert.replay", "counter unauthenticated"))
    for counter, expect in ((5000, None), (5001, None), (3, "likely a counter reset")):
        f = s.add(s.advert(RESETTER, s.sealed(RESETTER, counter, h("01 50"))))
        if expect:
            s.rows.append((f, "", "bthome.expert.replay", expect))
    p1 = s.add(s.advert(PLAIN, h("40 00 07 02 ca 09")))
    s.add(s.advert(PLAIN, h("40 00 07 02 ca 09")), ("bthome.expert.duplicate", f"frame {p1}"))
    s.add(s.advert(PLAIN, h("40 00 07 02 cb 09")),
          ("bthome.expert.duplicate", f"same packet id 7 as frame {p1}"))
    s.add(s.advert(PLAIN, h("40 00 08 02 cb 09")), ("!bthome.expert.duplicate", ""))
    s.add(s.advert(KEYED_PLAIN, h("40 02 ca 09")),
          ("bthome.expert.downgrade", "has a key configured"))
    keys = [key_row(a.mac, a.key, "kitchen"), key_row(KEYED_PLAIN.mac, KEYED_PLAIN.key, "keyed")]
    return s, keys


def encrypted_clean():
    """Well-behaved devices, keyed and not: no audit finding may show."""
    s = Sealer()
    for i in range(4):
        s.add(s.advert(SPEC_DEVICE, s.sealed(SPEC_DEVICE, 200 + i, h("02") +
                                              (2500 + i).to_bytes(2, "little"))))
        s.add(s.advert(HALLWAY, s.sealed(HALLWAY, 10 + 2 * i, bytes([0, i, 0x1a, i % 2]))))
        s.add(s.advert(ATTIC, s.sealed(ATTIC, 1000 + i, h("01 50"))))
        s.add(s.advert(PLAIN, bytes([0x40, 0, i, 0x02, i, 0x09])))
    for frame in range(1, len(s.adverts) + 1):
        s.rows += [(frame, "", "!bthome.expert." + e, "") for e in AUDIT_EXPERTS]
    keys = [key_row(SPEC_DEVICE.mac, SPEC_KEY, "kitchen"), key_row(HALLWAY.mac, HALLWAY.key, "")]
    return s, keys


# ---------------------------------------------------------------------------
# Legacy v1: control byte (length incl. ID in bits 0-4, format in bits 5-7), ID, value

V1_UINT, V1_INT, V1_FLOAT, V1_STRING, V1_MAC, V1_TIMESTAMP = range(6)
V1_MAC_DEVICE = "A4:C1:38:B7:4E:11"


def v1_object(oid, fmt, value):
    return bytes([(fmt << 5) | (len(value) + 1), oid]) + value


# The spec's v1 examples: object bytes, then (field, value) as the spec gives them.
SPEC_V1_EXAMPLES = [
    ("23 02 c4 09", [("temperature", "25.00")]),
    ("03 03 bf 13", [("humidity", "50.55")]),
    ("43 06 fe 70", [("mass_kg", "102.24")]),
]
SPEC_V1_FULL = ("23 02 c4 09 03 03 bf 13", [("temperature", "25.00"), ("humidity", "50.55")])
V1_FORMATS = [  # one object per format, values chosen to match the v2 examples
    (v1_object(0x02, V1_FLOAT, struct.pack("<f", 2506.0)), [("temperature", "25.06")]),
    (v1_object(0x03, V1_FLOAT, struct.pack("<d", 5055.0)), [("humidity", "50.55")]),
    (v1_object(0x02, V1_FLOAT, struct.pack("<e", -770.0)), [("temperature", "-7.7")]),
    (v1_object(0x53, V1_STRING, b"Hello World!"), [("text", "Hello World!")]),
    (v1_object(0x54, V1_MAC, mac_le("54:48:E6:8F:80:A5")), [("raw", "a5:80:8f:e6:48:54")]),
    (v1_object(0x50, V1_TIMESTAMP, h("5d 39 61 64")), [("timestamp", "2023-05-14 19:41:17 UTC")]),
    (v1_object(0x01, V1_UINT, h("61 00 00 00")), [("battery", "97")]),   # wider than v2's u8
    (v1_object(0x02, V1_INT, h("ea ff ff ff")), [("temperature", "-0.22")]),
]
V1_SKIPPED_KINDS = ("TEXT", "RAW", "COMMAND")  # v1 carries these in other formats


def v1_equivalents(table):
    """The v2 spec examples that v1 can carry, as v1 objects with the same value."""
    by_id = {o.id: o for o in table}
    out = []
    for hexbytes, expected in SPEC_EXAMPLES:
        data = h(hexbytes)
        objs, pos, ok = b"", 0, True
        while pos < len(data):
            o = by_id[data[pos]]
            size = o.length
            if o.kind in V1_SKIPPED_KINDS:
                ok = False
                break
            value = data[pos + 1:pos + 1 + size]
            fmt = V1_TIMESTAMP if o.kind == "TIMESTAMP" else \
                V1_INT if o.type in ("S8", "S16", "S32") else V1_UINT
            objs += v1_object(o.id, fmt, value)
            pos += 1 + size
        if ok:
            out.append((objs, expected))
    return out


def v1_examples(table):
    """Every spec v1 example, each format, then the v1 twin of every v2 spec example."""
    cases = [(h(x), e) for x, e in SPEC_V1_EXAMPLES] + V1_FORMATS + v1_equivalents(table)
    adverts = [Advert(V1_MAC_DEVICE, adv_data(objs, uuid=BTHOME_V1)) for objs, _ in cases]
    adverts.append(Advert(V1_MAC_DEVICE, adv_data(h(SPEC_V1_FULL[0]), "DIY-sensor",
                                                  uuid=BTHOME_V1), connectable=True))
    cases.append((h(SPEC_V1_FULL[0]), SPEC_V1_FULL[1]))
    rows = [(frame, objs.hex(" "), "bthome." + field, value)
            for frame, (objs, expected) in enumerate(cases, 1) for field, value in expected]
    rows += [(frame, "", "bthome.version", "1") for frame in range(1, len(cases) + 1)]
    rows += [(frame, "", "bthome.expert.legacy_v1", "deprecated")
             for frame in range(1, len(cases) + 1)]
    return one_per_event(adverts, SET_START_US), rows


# Each error follows a good first object (illuminance 13460.67 lx): service data under a
# v1 UUID is BTHome only when its first object is (bthome_v1_is_bthome); the last two
# are another device's User Data (0x181C), left to Wireshark.
V1_GOOD_FIRST = "04 05 13 8a 14"
V1_ERRORS = [  # payload, what the frame must show
    (V1_GOOD_FIRST + " 23 02 c4", [("bthome.expert.truncated", "only 2 remain")]),
    (V1_GOOD_FIRST + " 00 23 02 c4 09", [("bthome.expert.bad_format", "length 0"),
                                         ("!bthome.temperature", "")]),
    (V1_GOOD_FIRST + " c3 02 c4 09 03 03 bf 13",
     [("bthome.expert.bad_format", "unknown v1 format 6"), ("bthome.humidity", "50.55")]),
    (V1_GOOD_FIRST + " 44 02 00 00 00 03 03 bf 13",
     [("bthome.expert.bad_format", "(2, 4 or 8 bytes)"), ("bthome.humidity", "50.55")]),
    (V1_GOOD_FIRST + " 03 a0 01 02 03 03 bf 13",
     [("bthome.expert.unknown_object", "0xa0"), ("bthome.humidity", "50.55")]),
    (V1_GOOD_FIRST + " 63 02 c4 09",
     [("bthome.expert.bad_format", "cannot come in the v1 format string")]),
    ("64 53 ff fe 41", [("bthome.expert.invalid_utf8", "")]),
    ("", [("!bthome.version", "")]),     # not handed to BTHome (as on 4.2+)
    (V1_GOOD_FIRST + " 23 01 2c 01", [("bthome.expert.bad_format", "does not fit")]),
    (V1_GOOD_FIRST + " 41 02 23 02 c4 09", [("bthome.expert.bad_format", "0 value bytes"),
                                            ("bthome.temperature", "25.00")]),
    (V1_GOOD_FIRST + " ff", [("bthome.expert.truncated", "")]),
    ("01 00", [("!bthome.version", "")]),               # User Data: no value after an ID
    ("5a 7f 03 c1 88", [("!bthome.version", "")]),      # User Data: no v1 object at all
]


def v1_errors():
    adverts = [Advert(ERRORS_MAC, adv_data(h(p), uuid=BTHOME_V1), random=True)
               for p, _ in V1_ERRORS]
    rows = [(frame, p, field, value) for frame, (p, expect) in enumerate(V1_ERRORS, 1)
            for field, value in expect]
    return one_per_event(adverts, SET_START_US), rows


V1_DEVICE = Device("A4:C1:38:E1:00:01", "b1e2a3d4c5f60718293a4b5c6d7e8f91", "bparasite")
V1_NOKEY = Device("A4:C1:38:E1:00:02", "0123456789abcdef0123456789abcdef")


def v1_encrypted():
    """UUID 0x181E: AES-CCM with AAD 0x11 and a 12-byte nonce; same keys and audit as v2."""
    s = Sealer()
    d = V1_DEVICE
    first = s.sealed_v1(d, 1, h("23 02 c4 09 03 03 bf 13"))
    f1 = s.add(s.advert(d, first, uuid=BTHOME_V1_ENCRYPTED), ("bthome.temperature", "25.00"),
               ("bthome.humidity", "50.55"), ("bthome.encryption.decrypted", "1"),
               ("bthome.encryption.key_mac", d.mac), ("bthome.version", "1"),
               ("bthome.encryption.nonce", "a4c138e100011e1801000000"))
    s.add(s.advert(d, first, uuid=BTHOME_V1_ENCRYPTED), ("bthome.expert.duplicate", f"frame {f1}"))
    f3 = s.add(s.advert(d, s.sealed_v1(d, 2, h("23 02 c5 09")), uuid=BTHOME_V1_ENCRYPTED),
               ("bthome.temperature", "25.01"))
    s.add(s.advert(d, s.sealed_v1(d, 2, h("23 02 c6 09")), uuid=BTHOME_V1_ENCRYPTED),
          ("bthome.expert.counter_reuse", f"frame {f3}"))
    tampered = bytearray(s.sealed_v1(d, 3, h("23 02 c7 09")))
    tampered[0] ^= 0x01
    s.add(s.advert(d, bytes(tampered), uuid=BTHOME_V1_ENCRYPTED),
          ("bthome.expert.mic_failure", d.mac))
    # too short for counter, MIC and an object: another device's Bond Management data
    s.add(s.advert(d, h("01 02 03"), uuid=BTHOME_V1_ENCRYPTED), ("!bthome.version", ""))
    s.add(s.advert(V1_NOKEY, s.sealed_v1(V1_NOKEY, 5, h("23 02 c4 09")),
                   uuid=BTHOME_V1_ENCRYPTED), ("bthome.expert.no_key", V1_NOKEY.mac))
    s.add(s.advert(d, h("23 02 c4 09"), uuid=BTHOME_V1), ("bthome.expert.downgrade", "frame"),
          ("bthome.expert.legacy_v1", ""))
    # a v2 sensor and a v1 sensor side by side: the same reading, the same field
    s.add(s.advert(SPEC_DEVICE, s.sealed(SPEC_DEVICE, 0x00112233, h("02 ca 09 03 bf 13"))),
          ("bthome.temperature", "25.06"), ("bthome.version", "2"))
    return s, [key_row(d.mac, d.key, "bparasite"), key_row(SPEC_DEVICE.mac, SPEC_KEY, "kitchen")]


# ---------------------------------------------------------------------------
# Interop (issue 24): audit history across versions and devices, empty object lists, buttons


def interop_device(n, key="", name=""):
    """Device n of the interop set: random static address C7:1E:00:00:00:nn."""
    return Device(f"C7:1E:00:00:00:{n:02X}", key, name, random=True)


# replay after a downgrade (v2, v1), empty lists, buttons, then the history rules' devices
I_KD = interop_device(0x01, "4bd0e1f2a3b4c5d6e7f8091a2b3c4d01", "kd")
I_KV1 = interop_device(0x02, "4b1f2e3d4c5b6a79880a1b2c3d4e5f02", "kv1")
I_EMPTY = interop_device(0x03)
I_KE = interop_device(0x04, "4be0d1c2b3a4958677685a4b3c2d1e04", "ke")
I_BT = interop_device(0x05)
I_D1, I_D2 = interop_device(0x06), interop_device(0x07)
I_KM = interop_device(0x08, "4b08192a3b4c5d6e7f8091a2b3c4d508", "km")    # failed MIC
I_KR = interop_device(0x09, "4b99887766554433221100ffeeddcc09", "kr")    # nonce reuse
I_KP = interop_device(0x0A, "4b0a0a0a1b1b1b1b2c2c2c2c3d3d3d0a", "kp")    # replay ...
I_KQ = interop_device(0x0B, "4b0b0b0b1c1c1c1c2d2d2d2d3e3e3e0b", "kq")    # ... across KQ
I_U = interop_device(0x0C, "4b0c5a5a5a5a5a5a5a5a5a5a5a5a5a0c")          # key without row
I_W = interop_device(0x0D)                                              # v1 between v2
I_P1, I_P2 = interop_device(0x0E), interop_device(0x0F)                 # packet ids
# every expert info the dissector registers: frame 7 must carry none of them
ALL_EXPERTS = ("truncated", "unknown_object", "out_of_order", "bad_version", "reserved_bits",
               "invalid_utf8", "too_short", "no_address", "no_key", "mic_failure",
               "counter_reuse", "replay", "duplicate", "downgrade", "legacy_v1", "bad_format")


def interop():
    """Issue 24: the audit history across plaintext, v1 and other devices' adverts (a
    replay after a downgrade, a retransmission after a failed MIC, nonce reuse across a
    plaintext advert, ...), empty object lists, and button values beyond the named ones.
    One advert per frame on every link type."""
    s = Sealer()

    def no(*experts):
        return [("!bthome.expert." + e, "") for e in experts]

    clean = no(*AUDIT_EXPERTS)
    v1e = dict(uuid=BTHOME_V1_ENCRYPTED)
    v1 = dict(uuid=BTHOME_V1)
    # A. replay after a downgrade, v2
    kd1 = s.sealed(I_KD, 100, h("02 ca 09"))
    f1 = s.add(s.advert(I_KD, kd1), ("bthome.encryption.decrypted", "1"),
               ("bthome.temperature", "25.06"), *clean)
    s.add(s.advert(I_KD, h("40 02 cb 09")), ("bthome.expert.downgrade", f"frame {f1}"))
    s.add(s.advert(I_KD, kd1), ("bthome.expert.replay", f"frame {f1}"), *no("duplicate"))
    # B. the same for v1 (UUID 0x181E, then plaintext 0x181C)
    kv1 = s.sealed_v1(I_KV1, 5, h("23 02 c4 09"))
    f4 = s.add(s.advert(I_KV1, kv1, **v1e), ("bthome.encryption.decrypted", "1"),
               ("bthome.temperature", "25.00"), *clean)
    s.add(s.advert(I_KV1, h("23 02 c5 09"), **v1), ("bthome.expert.downgrade", f"frame {f4}"))
    s.add(s.advert(I_KV1, kv1, **v1e), ("bthome.expert.replay", f"frame {f4}"),
          *no("duplicate"))
    # C. empty object lists: never truncated
    s.add(s.advert(I_EMPTY, h("40")), *no(*ALL_EXPERTS), ("bthome.version", "2"))
    s.add(s.advert(I_EMPTY, h("00")), ("bthome.expert.bad_version", ""), *no("truncated"))
    s.add(s.advert(I_EMPTY, h("44")), *no("truncated"))
    s.add(s.advert(I_KE, s.sealed(I_KE, 1, b"")),           # info, counter and MIC only
          ("bthome.encryption.decrypted", "1"), *no("truncated", "too_short"))
    # D. button values: a vendor hold, hold_press, an unnamed one
    s.add(s.advert(I_BT, h("40 3a fe")), ("bthome.button", "254 (hold (vendor 0xfe))"))
    s.add(s.advert(I_BT, h("40 3a 80")), ("bthome.button", "128 (hold_press)"))
    s.add(s.advert(I_BT, h("40 3a 07")), ("bthome.button", "7 (unknown (0x07))"))
    # E. each history rule with an advert of another kind in between
    f14 = s.add(s.advert(I_D1, h("40 02 10 0a")), *clean)
    s.add(s.advert(I_D2, h("40 02 20 0a")), *clean)
    s.add(s.advert(I_D1, h("40 02 10 0a")), ("bthome.expert.duplicate", f"frame {f14}"))
    km = s.sealed(I_KM, 50, h("02 00 0a"))
    tampered = bytearray(km)
    tampered[-1] ^= 0x01                                    # a bit of the MIC
    f17 = s.add(s.advert(I_KM, km), ("bthome.encryption.decrypted", "1"), *clean)
    s.add(s.advert(I_KM, bytes(tampered)), ("bthome.expert.mic_failure", ""), *clean)
    s.add(s.advert(I_KM, km), ("bthome.expert.replay", f"frame {f17}"), *no("duplicate"))
    f20 = s.add(s.advert(I_KR, s.sealed(I_KR, 20, h("02 00 0b"))),
                ("bthome.encryption.decrypted", "1"), *clean)
    s.add(s.advert(I_KR, h("40 02 00 0b")), ("bthome.expert.downgrade", f"frame {f20}"))
    s.add(s.advert(I_KR, s.sealed(I_KR, 20, h("02 00 0c"))),
          ("bthome.expert.counter_reuse", f"frame {f20}"), *no("replay", "duplicate"))
    f23 = s.add(s.advert(I_KP, s.sealed(I_KP, 30, h("02 00 0d"))),
                ("bthome.encryption.decrypted", "1"), *clean)
    s.add(s.advert(I_KQ, s.sealed(I_KQ, 1, h("02 00 0e"))),
          ("bthome.encryption.decrypted", "1"), *clean)
    s.add(s.advert(I_KP, s.sealed(I_KP, 29, h("02 01 0d"))),
          ("bthome.expert.replay", f"frame {f23}"), *no("duplicate", "counter_reuse"))
    f26 = s.add(s.advert(I_U, s.sealed(I_U, 7, h("02 c4 09"))),
                ("bthome.encryption.decrypted", "0"), ("bthome.expert.no_key", I_U.mac))
    s.add(s.advert(I_U, h("23 02 c4 09"), **v1), ("bthome.expert.downgrade", f"frame {f26}"))
    s.add(s.advert(I_U, h("40 02 c4 09")), ("bthome.expert.downgrade", f"frame {f26}"))
    s.add(s.advert(I_W, h("40 02 11 0a")), *clean)
    s.add(s.advert(I_W, h("23 02 12 0a"), **v1))
    s.add(s.advert(I_W, h("40 02 11 0a")), *no("duplicate"))
    f32 = s.add(s.advert(I_P1, h("40 00 07 02 00 0a")), *clean)
    s.add(s.advert(I_P2, h("40 00 07 02 00 0b")), *clean)
    s.add(s.advert(I_P1, h("40 00 07 02 01 0a")), ("bthome.expert.duplicate", f"frame {f32}"))
    keys = [key_row(d.mac, d.key, d.name) for d in (I_KD, I_KV1, I_KE, I_KM, I_KR, I_KP, I_KQ)]
    return s, keys


def weather(pid, temp, hum, press, batt, rssi=-62):
    objs = (b"\x00" + bytes([pid]) + b"\x01" + bytes([batt])
            + b"\x02" + temp.to_bytes(2, "little", signed=True)
            + b"\x03" + hum.to_bytes(2, "little") + b"\x04" + press.to_bytes(3, "little"))
    return Advert(WEATHER_MAC, adv_data(b"\x40" + objs, "Weather"), rssi)


def door(pid, is_open):
    objs = bytes([0x00, pid, 0x01, 0x5a, 0x1a, int(is_open)])
    return Advert(DOOR_MAC, adv_data(b"\x40" + objs, "Door"), -71)


BUTTON_EVENTS = {"press": 1, "double_press": 2, "long_press": 4}


def button(pid, event):
    objs = bytes([0x00, pid, 0x01, 0x5f, 0x3a, BUTTON_EVENTS[event]])
    return Advert(BUTTON_MAC, adv_data(b"\x44" + objs, "Button"), -55)


def cut_short():
    """Frames the capture's snap length cut short (the record's captured length under its
    length on the wire), each within or just after a BTHome service data. Not on the nRF
    Sniffer link type: Wireshark's nordic_ble refuses a frame shorter than its header
    says, before any Bluetooth dissector sees it."""
    whole = weather(7, 2506, 5050, 100000, 90)
    encrypted = Advert(ENCRYPTED_MAC, adv_data(h("41 8e 01 23 45 67 89 ab cd ef 11 22 33 44")))
    v1 = Advert(WEATHER_MAC, adv_data(h("23 02 c4 09 03 03 bf 13"), uuid=BTHOME_V1))
    service = h("40 00 08 02 c3 09")
    name_after = Advert(WEATHER_MAC, FLAGS_AD + ad(0x16, BTHOME_V2.to_bytes(2, "little") + service)
                        + ad(0x09, b"Weather"))
    cuts = [  # (advert, bytes kept after the UUID, what the capture lost)
        (whole, 10, "cut in the humidity's value"),
        (whole, 1, "cut after the device information byte"),
        (whole, 0, "cut right after the UUID"),
        (encrypted, 6, "encrypted, cut before the counter and MIC"),
        (v1, 6, "v1, cut in the second object"),
        (name_after, len(service) + 3, "whole service data, the Local Name after it cut"),
        (whole, None, "not cut"),
    ]
    return [Event(SET_START_US + i * 100_000, (adv,), comment, snap)
            for i, (adv, snap, comment) in enumerate(cuts)]


def multi_report():
    """Several devices per HCI report event (LL link types: one frame per advert). The
    last event holds two encrypted devices: each report's own address makes its nonce."""
    s = Sealer()
    groups = [
        (weather(1, 2150, 4820, 101325, 87), door(1, False)),
        (button(1, "press"),),
        (weather(2, 2153, 4810, 101327, 87), door(2, True), button(2, "long_press")),
        (s.advert(HALLWAY, s.sealed(HALLWAY, 5, h("02 ca 09"))),
         s.advert(SPEC_DEVICE, SPEC_ENCRYPTED)),
    ]
    keys = [key_row(SPEC_DEVICE.mac, SPEC_KEY, "kitchen"),
            key_row(HALLWAY.mac, HALLWAY.key, "hallway")]
    return [Event(SET_START_US + i * 100_000, g) for i, g in enumerate(groups)], keys


UNITS_MAC = "A4:C1:38:00:00:10"


def units():
    """A scale and rangefinder that reports mass in kg (0x06) and in lb (0x07), distance in
    mm (0x40) and in m (0x41), and temperature at two resolutions of one unit (0x02,
    0.01 °C, and 0x45, 0.1 °C): the readings table keeps a row per property and unit, so
    four rows for mass and distance, one for temperature. Objects in ID order. The
    adverts, and the TSV rows (frame, object bytes, field, value)."""
    frames = [  # objects after the packet id, name, the values they carry
        (["02 69 08", "06 5e 1f", "40 fa 05"], "Scale",
         [("temperature", "21.53"), ("mass_kg", "80.3"), ("distance_mm", "1530")]),
        (["07 88 40", "41 4e 00", "45 dd 00"], None,
         [("mass_lb", "165.2"), ("distance_m", "7.8"), ("temperature", "22.1")]),
        (["06 3e 1d", "07 24 45", "40 0c 00", "41 7b 00"], None,
         [("mass_kg", "74.86"), ("mass_lb", "177"), ("distance_mm", "12"),
          ("distance_m", "12.3")]),
        (["02 70 08", "07 9a 42", "45 db 00"], None,
         [("temperature", "21.6"), ("mass_lb", "170.5"), ("temperature", "21.9")]),
    ]
    adverts, rows = [], []
    for frame, (objects, name, values) in enumerate(frames, 1):
        objs = bytes([0x00, frame]) + h(" ".join(objects))
        adverts.append(Advert(UNITS_MAC, adv_data(b"\x40" + objs, name), -58))
        rows += [(frame, hexbytes, "bthome." + field, value)
                 for hexbytes, (field, value) in zip(objects, values)]
    return one_per_event(adverts, SET_START_US), rows


def demo():
    """Weather station every 10 s, a door and a button, plus a TV and a heart rate belt."""
    ms = 1000
    events = []
    for i in range(10):  # every 10 s, drifting a little as real advertisers do
        w = weather(i + 1, 2150 + 3 * i, 4820 - 10 * i, 101325 + 2 * i, 87 if i < 7 else 86,
                    -62 - i % 3)
        events.append(Event(DEMO_START_US + (2000 + i * 10_037) * ms, (w,)))
    story = [(12_300, door(1, False), "Door: closed"), (41_700, door(2, True), "Door: opened"),
             (73_200, door(3, False), "Door: closed again"),
             (25_400, button(1, "press"), "Button: press"),
             (55_100, button(2, "long_press"), "Button: long press"),
             (88_900, button(3, "double_press"), "Button: double press")]
    for t, adv, comment in story:  # event devices send each advert twice, as they do
        events.append(Event(DEMO_START_US + t * ms, (adv,), comment))
        events.append(Event(DEMO_START_US + (t + 480) * ms, (adv,), comment + " (repeat)"))
    tv = Advert("7A:3F:91:2C:55:10", FLAGS_AD + ad(0x09, b"Kitchen TV"), -78, random=True,
                connectable=True)
    # Heart Rate service UUID, appearance "heart rate belt", TX power 4 dBm
    belt = Advert("C8:11:22:33:44:55", FLAGS_AD + h("03 03 0d 18 03 19 41 03 02 0a 04"), -84,
                  random=True, connectable=True)
    events += [Event(DEMO_START_US + t * ms, (a,)) for t, a in
               ((5000, tv), (35_200, tv), (65_400, tv), (18_600, belt), (78_100, belt))]
    return sorted(events, key=lambda e: e.time_us)


# ---------------------------------------------------------------------------
# Many devices, and the statistics every set must produce

MANY_START_US = 1719828000 * 1_000_000  # 2024-07-01 10:00:00 UTC
MANY_KINDS = ("TH", "TH", "BTN", "PWR", "ENC")  # device i has kind MANY_KINDS[i % 5]


def many_devices(devices=50, adverts=3000):
    """A house of sensors: thermometers, buttons (each press sent twice), power meters and
    encrypted thermometers, names in the first and every fourth advert."""
    rng = random.Random(4)
    s = Sealer()
    plain_of = {}  # id(advert) -> plaintext objects, for the expected statistics
    devs = [Device(f"A4:C1:38:{0xA0 + i // 256:02X}:{i % 256:02X}:{i:02X}",
                   f"{i:02x}" * 16, f"{MANY_KINDS[i % 5]}{i:02d}") for i in range(devices)]
    state = [{"n": 0, "pending": None} for _ in devs]
    keys = [key_row(d.mac, d.key, d.name) for i, d in enumerate(devs)
            if MANY_KINDS[i % 5] == "ENC"]
    for k in range(adverts):
        i = rng.randrange(devices)
        d, st, kind = devs[i], state[i], MANY_KINDS[i % 5]
        if st["pending"]:  # a button repeats its last advert
            adv, st["pending"] = st["pending"], None
            s.adverts.append(adv)
            continue
        st["n"] += 1
        pid = st["n"] % 256
        if kind == "BTN":
            objs = bytes([0x00, pid, 0x01, 90 + i % 10, 0x3A, rng.choice((1, 2, 4))])
        elif kind == "PWR":
            objs = (bytes([0x00, pid, 0x0A]) + (1000 * st["n"] + i).to_bytes(3, "little")
                    + b"\x0b" + rng.randrange(0, 300000).to_bytes(3, "little"))
        else:
            objs = (b"\x02" + rng.randrange(1500, 2800).to_bytes(2, "little", signed=True)
                    + b"\x03" + rng.randrange(3000, 7000).to_bytes(2, "little")
                    + bytes([0x01, rng.randrange(50, 101)]))
        name = d.name if st["n"] % 4 == 1 else None
        if kind == "ENC":
            data = s.sealed(d, st["n"], objs)
        else:
            data = b"\x40" + objs
        adv = Advert(d.mac, adv_data(data, name))
        plain_of[id(adv)] = objs
        s.adverts.append(adv)
        if kind == "BTN":
            st["pending"] = adv
    keyed = {d.mac for i, d in enumerate(devs) if MANY_KINDS[i % 5] == "ENC"}
    events = one_per_event(s.adverts, MANY_START_US, 20_000)
    return events, keys, expected_stats(s.adverts, plain_of, keyed)


def service_data(adv):
    """The BTHome service data of an advert built by adv_data()."""
    pos = 0
    while pos < len(adv.data):
        length, ad_type = adv.data[pos], adv.data[pos + 1]
        if ad_type == 0x16 and adv.data[pos + 2:pos + 4] == BTHOME_V2.to_bytes(2, "little"):
            return adv.data[pos + 4:pos + 1 + length]
        pos += 1 + length
    return None


def local_name(adv):
    pos = 0
    while pos < len(adv.data):
        length, ad_type = adv.data[pos], adv.data[pos + 1]
        if ad_type == 0x09:
            return adv.data[pos + 2:pos + 1 + length].decode()
        pos += 1 + length
    return None


def decode_objects(plain, by_id):
    """(row, raw) of each object of a well-formed plaintext object list."""
    out, pos = [], 0
    while pos < len(plain):
        o = by_id[plain[pos]]
        value = plain[pos + 1:pos + 1 + o.length]
        out.append((o, int.from_bytes(value, "little", signed=INT_TYPES[o.type][1])))
        pos += 1 + o.length
    return out


def scaled(o, raw):
    decimals = len(o.factor.partition(".")[2])
    return raw * int(o.factor.replace(".", "")) / 10 ** decimals


def expected_stats(adverts, plain_of=None, keyed=()):
    """What Statistics > BTHome must count, worked out from the adverts as generated: per
    device its adverts, retransmissions (the same bytes, or the same packet id, as its
    previous advert), encrypted and decrypted ones, and per property and unit ("Mass
    (kg)", "Mass (lb)") count, min, average, max and last value (retransmissions not
    counted again)."""
    by_id = {o.id: o for o in load_object_table()}
    devices, previous = {}, {}
    for adv in adverts:
        data = service_data(adv)
        if data is None:
            continue
        dev = devices.setdefault(adv.mac, {"name": None, "adverts": 0, "duplicates": 0,
                                           "encrypted": 0, "decrypted": 0,
                                           "properties": {}, "states": {}})
        dev["name"] = dev["name"] or local_name(adv)
        plain = (plain_of or {}).get(id(adv), data[1:])
        objects = decode_objects(plain, by_id)
        pid = next((raw for o, raw in objects if o.id == 0x00), None)
        prev = previous.get(adv.mac)
        duplicate = prev is not None and (prev[0] == data or (pid is not None and prev[1] == pid))
        previous[adv.mac] = (data if not (prev and prev[0] == data) else prev[0], pid)
        dev["adverts"] += 1
        dev["duplicates"] += duplicate
        encrypted = bool(data[0] & 1)
        dev["encrypted"] += encrypted
        dev["decrypted"] += encrypted and adv.mac in keyed
        if duplicate:
            continue
        for o, raw in objects:
            if o.id == 0x00:
                continue
            if o.kind == "NUMBER":  # one per property and unit, whatever the resolution
                title = f"{o.name} ({o.unit})" if o.unit else o.name
                p = dev["properties"].setdefault(title, {"property": o.name, "unit": o.unit,
                                                         "values": []})
                p["values"].append(scaled(o, raw))
            else:
                word = dict(o.words)[raw]
                key = f"{o.name}: {word}"
                dev["states"][key] = dev["states"].get(key, 0) + 1
    for dev in devices.values():
        for p in dev["properties"].values():
            v = p.pop("values")
            # fsum: correctly rounded whatever the Python version (3.12 changed sum())
            p.update(count=len(v), min=min(v), max=max(v), avg=math.fsum(v) / len(v),
                     last=v[-1])
    return {"devices": devices}


def write_stats(path, stats):
    path.write_text(json.dumps(stats, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# Link layer and HCI framing

ADV_ACCESS_ADDRESS = 0x8E89BED6
ADV_IND, ADV_NONCONN_IND = 0x0, 0x2
ADV_CHANNELS = (37, 38, 39)
RF_CHANNEL = {37: 0, 38: 12, 39: 39}  # LINKTYPE 256 wants the RF channel, not the index


def crc24(data, init=0x555555):
    """BLE CRC-24 (poly 0x65B), bits LSB first; the 3 bytes as they are in a capture."""
    state = int(f"{init:024b}"[::-1], 2)  # the reflected register
    for byte in data:
        for bit in range(8):
            feedback = (state ^ (byte >> bit)) & 1
            state >>= 1
            if feedback:
                state ^= 0xDA6000  # 0x65B reflected, with the top bit fed back
    return state.to_bytes(3, "little")


def ll_packet(adv):
    """Access address, advertising PDU header, AdvA, AdvData, CRC."""
    pdu_type = ADV_IND if adv.connectable else ADV_NONCONN_IND
    payload = adv.addr_le() + adv.data
    pdu = bytes([pdu_type | (0x40 if adv.random else 0), len(payload)]) + payload
    return struct.pack("<I", ADV_ACCESS_ADDRESS) + pdu + crc24(pdu)


def ll_phdr_packet(adv, seq, _time_us):
    """LE LL with the 10-byte RF pseudo header (CRC left unchecked: Wireshark checks it)."""
    flags = 0x0001 | 0x0002 | 0x0004  # dewhitened, signal power valid, noise power valid
    channel = RF_CHANNEL[ADV_CHANNELS[seq % 3]]
    return struct.pack("<BbbBIH", channel, adv.rssi, -95, 0, 0, flags) + ll_packet(adv)


AUX_RF_CHANNEL = 5  # a secondary channel (LINKTYPE 256 numbering): AUX_ADV_IND


def ll_ext_packet(adv, seq, _time_us):
    """Extended advertising, as after an ADV_EXT_IND: AUX_ADV_IND with an extended header
    holding AdvA and the ADI (SID 1), then the AdvData; RF header as for ll-phdr."""
    ext = bytes([0x01 | 0x08]) + adv.addr_le() + struct.pack("<H", 0x1000 | (seq & 0xFFF))
    adv_mode = 0x40 if adv.connectable else 0x00  # bits 6-7 of the extended header length
    payload = bytes([len(ext) | adv_mode]) + ext + adv.data
    pdu = bytes([0x07 | (0x40 if adv.random else 0), len(payload)]) + payload
    ll = struct.pack("<I", ADV_ACCESS_ADDRESS) + pdu + crc24(pdu)
    flags = 0x0001 | 0x0002 | 0x0004
    return struct.pack("<BbbBIH", AUX_RF_CHANNEL, adv.rssi, -95, 0, 0, flags) + ll


def nordic_packet(adv, seq, time_us):
    """nRF Sniffer for Bluetooth LE, UART protocol version 3, EVENT_PACKET_ADVERTISING."""
    ll = ll_packet(adv)
    firmware_us = (time_us - SET_START_US) % (1 << 32)  # the sniffer's free-running clock
    event = struct.pack("<BBBBHI", 10, 0x01, ADV_CHANNELS[seq % 3], -adv.rssi, 0, firmware_us)
    header = struct.pack("<HBHB", len(event) + len(ll), 3, seq & 0xFFFF, 0x02)
    return b"\x00" + header + event + ll  # board id 0


def hci_event(code, params):
    return bytes([code, len(params)]) + params


def le_adv_report(adverts):
    """HCI LE Meta event, LE Advertising Report (one report per advert)."""
    body = bytes([0x02, len(adverts)])
    for a in adverts:
        body += bytes([0x00 if a.connectable else 0x03, int(a.random)]) + a.addr_le()
        body += bytes([len(a.data)]) + a.data + struct.pack("b", a.rssi)
    return hci_event(0x3E, body)


def le_ext_adv_report(adverts):
    """HCI LE Meta event, LE Extended Advertising Report, legacy PDUs on LE 1M."""
    body = bytes([0x0D, len(adverts)])
    for a in adverts:
        event_type = 0x13 if a.connectable else 0x10  # legacy ADV_IND / ADV_NONCONN_IND
        body += struct.pack("<HB", event_type, int(a.random)) + a.addr_le()
        body += struct.pack("<BBBbbHB", 1, 0, 0xFF, 0x7F, a.rssi, 0, 0) + bytes(6)
        body += bytes([len(a.data)]) + a.data
    return hci_event(0x3E, body)


def h4(event):
    return b"\x04" + event  # H4 packet type: HCI event


def h4_phdr(event):
    return struct.pack(">I", 1) + h4(event)  # direction 1: received from the controller


def monitor(event):
    return struct.pack(">HH", 0, 3) + event  # adapter 0, opcode 3: HCI event packet


BTHOME_AD_HEADS = [b"\x16" + uuid.to_bytes(2, "little")
                   for uuid in (BTHOME_V2, BTHOME_V1, BTHOME_V1_ENCRYPTED)]


def record(t, frame, ev):
    """(time, captured bytes, comment, length on the wire): an event with a snap length
    loses the end of its frame, from that many bytes after its last BTHome UUID."""
    if ev.snap is None:
        return (t, frame, ev.comment, len(frame))
    uuid_end = max(frame.rfind(head) for head in BTHOME_AD_HEADS) + 3
    return (t, frame[:uuid_end + ev.snap], ev.comment, len(frame))


def per_advert(frame):
    """LL link types: every advert is its own frame, 1 ms apart within an event."""
    def records(events):
        out, seq = [], 0
        for ev in events:
            for j, adv in enumerate(ev.adverts):
                t = ev.time_us + j * 1000
                out.append(record(t, frame(adv, seq, t), ev))
                seq += 1
        return out
    return records


def per_event(frame):
    """HCI link types: one frame per event, carrying all its adverts as reports."""
    return lambda events: [record(ev.time_us, frame(ev.adverts), ev) for ev in events]


BTSNOOP_H4, BTSNOOP_MONITOR = ("btsnoop", 1002), ("btsnoop", 2001)  # btsnoop datalinks
LINK_TYPES = {  # name -> (pcap LINKTYPE or btsnoop datalink, records builder)
    "ll": (251, per_advert(lambda adv, seq, t: ll_packet(adv))),
    "ll-phdr": (256, per_advert(ll_phdr_packet)),
    "ll-ext": (256, per_advert(ll_ext_packet)),
    "nrf-sniffer": (272, per_advert(nordic_packet)),
    "hci-h4": (201, per_event(lambda advs: h4_phdr(le_adv_report(advs)))),
    "hci-h4-ext": (201, per_event(lambda advs: h4_phdr(le_ext_adv_report(advs)))),
    "btmon": (254, per_event(lambda advs: monitor(le_adv_report(advs)))),
    "btsnoop": (BTSNOOP_H4, per_event(lambda advs: h4(le_adv_report(advs)))),
    # btmon -w: btsnoop with the monitor datalink, the opcode and adapter in the flags
    "btmon-snoop": (BTSNOOP_MONITOR, per_event(le_adv_report)),
}

# ---------------------------------------------------------------------------
# File formats


def write_pcap(path, linktype, records):
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype)]
    for t, data, _, wire_len in records:
        out.append(struct.pack("<IIII", t // 1_000_000, t % 1_000_000, len(data), wire_len))
        out.append(data)
    path.write_bytes(b"".join(out))


def pcapng_option(code, value):
    return struct.pack("<HH", code, len(value)) + value + bytes(-len(value) % 4)


def pcapng_block(block_type, body):
    length = 12 + len(body)
    return struct.pack("<II", block_type, length) + body + struct.pack("<I", length)


def write_pcapng(path, linktype, records):
    end = pcapng_option(0, b"")
    shb = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
    shb += pcapng_option(4, b"captures/make_captures.py") + end  # shb_userappl
    out = [pcapng_block(0x0A0D0D0A, shb),
           pcapng_block(1, struct.pack("<HHI", linktype, 0, 65535))]
    for t, data, comment, wire_len in records:
        epb = struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), wire_len)
        epb += data + bytes(-len(data) % 4)
        if comment:
            epb += pcapng_option(1, comment.encode()) + end  # opt_comment
        out.append(pcapng_block(6, epb))
    path.write_bytes(b"".join(out))


BTSNOOP_EPOCH_DELTA_US = 0x00DCDDB30F2F8000  # 0 AD to 1970, as Android writes it


def write_btsnoop(path, records, datalink=1002):
    out = [b"btsnoop\0" + struct.pack(">II", 1, datalink)]  # version 1
    for t, data, _, wire_len in records:
        # flags, H4: bit 0 received, bit 1 command/event; monitor: adapter 0 (high 16
        # bits), opcode 3 (HCI event): the same 0x3
        out.append(struct.pack(">IIIIq", wire_len, len(data), 0x3, 0,
                               t + BTSNOOP_EPOCH_DELTA_US))
        out.append(data)
    path.write_bytes(b"".join(out))


def write_set(out_dir, name, events, skip_links=()):
    written = []
    for link, (linktype, builder) in LINK_TYPES.items():
        if link in skip_links:
            continue
        records = builder(events)
        if isinstance(linktype, tuple):
            path = out_dir / f"{name}-{link}.log"
            write_btsnoop(path, records, linktype[1])
        else:
            path = out_dir / f"{name}-{link}.pcap"
            write_pcap(path, linktype, records)
        written.append(path)
    return written


def write_tsv(path, rows):
    lines = ["frame\tobject_bytes\tfield\texpected"]
    lines += ["\t".join(map(str, row)) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_keys(path, rows):
    """The set's bthome_keys rows, one per line: the tests pass each as -o uat:bthome_keys:"""
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# Large captures for the benchmark (bench/): --large N [--devices M]. Written only with
# --large, and never into captures/: the committed captures above do not change.

LARGE_START_US = 1722506400 * 1_000_000  # 2024-08-01 10:00:00 UTC
LARGE_STEP_US = 20_000                   # 50 adverts a second: 1M adverts = 5.6 hours
# Device i has kind LARGE_KINDS[i % 10] (half TH stations, energy meters, buttons), and
# the encrypting devices are spread evenly over them: every device sends about as often,
# so with --encrypted-share 0.3 (the default) 30 % of the adverts are encrypted.
LARGE_KINDS = ("TH", "TH", "BTN", "PWR", "TH", "TH", "PWR", "TH", "BTN", "PWR")
LARGE_REPEAT = 0.05       # a sensor advert heard twice
LARGE_LINKS = ("nrf-sniffer", "hci-h4")


def large_devices(devices, encrypted_share=0.3):
    """(Device, kind, encrypts) of the large captures."""
    n_enc = round(devices * encrypted_share)
    out = []
    for i in range(devices):
        kind = LARGE_KINDS[i % len(LARGE_KINDS)]
        encrypts = (i * n_enc) // devices != ((i + 1) * n_enc) // devices
        mac = f"A4:C1:38:{0xB0 + ((i >> 16) & 0x0F):02X}:{(i >> 8) & 0xFF:02X}:{i & 0xFF:02X}"
        key = f"{(i * 7 + 3) & 0xFF:02x}" * 8 + f"{i & 0xFFFF:04x}" * 4
        name = f"{'E' if encrypts else ''}{kind[0]}{i % 1000:03d}"   # at most 5 characters
        out.append((Device(mac, key, name), kind, encrypts))
    return out


def large_adverts(adverts, devices, encrypted_share=0.3, seed=6):
    """Yields the adverts of a large capture: TH stations (packet id, battery, temperature,
    humidity), buttons (trigger-based, each press sent twice), energy meters (energy,
    power), encrypted variants of the three; names in a device's first and every tenth
    advert; LARGE_REPEAT of the sensor adverts heard twice."""
    rng = random.Random(seed)
    s = Sealer()
    devs = large_devices(devices, encrypted_share)
    count = [0] * len(devs)
    pending = [None] * len(devs)
    made = 0
    while made < adverts:
        i = rng.randrange(len(devs))
        if pending[i]:
            adv, pending[i] = pending[i], None
            made += 1
            yield adv
            continue
        d, kind, encrypts = devs[i]
        count[i] += 1
        n = count[i]
        batt = 60 + (i + n // 5000) % 40
        if kind == "BTN":
            objs = bytes([0x01, batt, 0x3A, rng.choice((1, 1, 1, 2, 4))])
            info = 0x44
        elif kind == "PWR":
            objs = (b"\x0a" + ((1000 * n + i) & 0xFFFFFF).to_bytes(3, "little")
                    + b"\x0b" + rng.randrange(0, 300000).to_bytes(3, "little"))
            info = 0x40
        else:
            objs = (bytes([0x01, batt]) + b"\x02"
                    + rng.randrange(1500, 3000).to_bytes(2, "little", signed=True)
                    + b"\x03" + rng.randrange(3000, 7000).to_bytes(2, "little"))
            info = 0x40
        name = d.name if n % 10 == 1 else None
        if encrypts:
            data = s.sealed(d, n, objs, info=info | 0x01)
        else:
            data = bytes([info, 0x00, n % 256]) + objs  # packet id first
        adv = Advert(d.mac, adv_data(data, name), rssi=-50 - (i * 13) % 40)
        if kind == "BTN" or rng.random() < LARGE_REPEAT:
            pending[i] = adv
        made += 1
        yield adv


def _crc24_table():
    table = []
    for byte in range(256):
        state = 0
        for bit in range(8):
            feedback = (state ^ (byte >> bit)) & 1
            state >>= 1
            if feedback:
                state ^= 0xDA6000
        table.append(state)
    return table


_CRC24 = _crc24_table()
_CRC24_INIT = int(f"{0x555555:024b}"[::-1], 2)


def crc24_fast(data):
    """crc24() with a byte table (same result, checked in write_large)."""
    state = _CRC24_INIT
    for byte in data:
        state = (state >> 8) ^ _CRC24[(state ^ byte) & 0xFF]
    return state.to_bytes(3, "little")


def large_nordic_packet(adv, seq, time_us):
    """nordic_packet() with the table CRC (the same bytes)."""
    pdu_type = ADV_IND if adv.connectable else ADV_NONCONN_IND
    payload = adv.addr_le() + adv.data
    pdu = bytes([pdu_type | (0x40 if adv.random else 0), len(payload)]) + payload
    ll = struct.pack("<I", ADV_ACCESS_ADDRESS) + pdu + crc24_fast(pdu)
    firmware_us = (time_us - SET_START_US) % (1 << 32)
    event = struct.pack("<BBBBHI", 10, 0x01, ADV_CHANNELS[seq % 3], -adv.rssi, 0, firmware_us)
    header = struct.pack("<HBHB", len(event) + len(ll), 3, seq & 0xFFFF, 0x02)
    return b"\x00" + header + event + ll


LARGE_FRAMES = {  # link -> (LINKTYPE, frame of one advert); one advert per frame and event
    "nrf-sniffer": (272, large_nordic_packet),
    "hci-h4": (201, lambda adv, seq, t: h4_phdr(le_adv_report((adv,)))),
}


def write_large(out_dir, adverts, devices, encrypted_share=0.3, links=LARGE_LINKS,
                tag=None):
    """large-<tag>-<link>.pcap (streamed, same record format as write_pcap) and
    large-<tag>.keys, the bthome_keys rows of the encrypting devices (also a valid UAT
    file). Returns the paths."""
    tag = tag or f"{adverts}-{devices}d-{round(encrypted_share * 100)}enc"
    out_dir.mkdir(parents=True, exist_ok=True)
    files, written = {}, []
    for link in links:
        path = out_dir / f"large-{tag}-{link}.pcap"
        f = path.open("wb")
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, LARGE_FRAMES[link][0]))
        files[link] = f
        written.append(path)
    for seq, adv in enumerate(large_adverts(adverts, devices, encrypted_share)):
        t = LARGE_START_US + seq * LARGE_STEP_US
        for link, f in files.items():
            data = LARGE_FRAMES[link][1](adv, seq, t)
            if seq < 64 and link == "nrf-sniffer" and data != nordic_packet(adv, seq, t):
                raise SystemExit("large_nordic_packet differs from nordic_packet")
            f.write(struct.pack("<IIII", t // 1_000_000, t % 1_000_000, len(data), len(data)))
            f.write(data)
    for f in files.values():
        f.close()
    keys = [key_row(d.mac, d.key, d.name)
            for d, _, encrypts in large_devices(devices, encrypted_share) if encrypts]
    written.append(write_keys(out_dir / f"large-{tag}.keys", keys or ["# no encrypted device"]))
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE,
                        help="output folder (default: the captures/ folder)")
    parser.add_argument("--large", type=int, metavar="N",
                        help="write only the large benchmark captures: N adverts "
                             "(e.g. 1000000) on the nRF Sniffer and HCI link types, into "
                             "--out (required, not captures/)")
    parser.add_argument("--devices", type=int, default=50,
                        help="--large: number of devices (default 50)")
    parser.add_argument("--encrypted-share", type=float, default=0.3,
                        help="--large: share of encrypting devices (default 0.3)")
    parser.add_argument("--links", default=",".join(LARGE_LINKS),
                        help=f"--large: link types (default {','.join(LARGE_LINKS)})")
    parser.add_argument("--tag", help="--large: file name tag (default N-Md-Penc)")
    args = parser.parse_args()
    if args.large is not None:
        if args.out.resolve() == HERE:
            parser.error("--large needs --out DIR outside captures/")
        for path in write_large(args.out, args.large, args.devices,
                                args.encrypted_share, args.links.split(","), args.tag):
            print(path)
        return
    args.out.mkdir(parents=True, exist_ok=True)

    table = load_object_table()
    spec_events, spec_rows = spec_examples()
    v1_events, v1_rows = v1_examples(table)
    v1_error_events, v1_error_rows = v1_errors()
    sets = {
        "spec-examples": spec_events,
        "all-objects": all_objects(table),
        "errors": errors(),
        "v1-examples": v1_events,
        "v1-errors": v1_error_events,
    }
    sets["multi-report"], multi_keys = multi_report()
    written = [write_keys(args.out / "multi-report.keys", multi_keys)]
    for name, make in (("encrypted", encrypted), ("encrypted-wildcard", encrypted_wildcard),
                       ("encrypted-audit", encrypted_audit),
                       ("encrypted-clean", encrypted_clean), ("v1-encrypted", v1_encrypted),
                       ("interop", interop)):
        sealer, keys = make()
        sets[name] = one_per_event(sealer.adverts, SET_START_US)
        written += [write_tsv(args.out / f"{name}.tsv", sealer.rows),
                    write_keys(args.out / f"{name}.keys", keys)]
    for name, events in sets.items():
        written += write_set(args.out, name, events)
    written += write_set(args.out, "cut-short", cut_short(), skip_links=("nrf-sniffer",))
    units_events, units_rows = units()
    written += write_set(args.out, "units", units_events)
    written += [write_tsv(args.out / "units.tsv", units_rows),
                write_stats(args.out / "units.stats.json", expected_stats(
                    [a for ev in units_events for a in ev.adverts]))]
    written += [write_tsv(args.out / "v1-examples.tsv", v1_rows),
                write_tsv(args.out / "v1-errors.tsv", v1_error_rows)]
    write_tsv(args.out / "spec-examples.tsv", spec_rows)
    demo_path = args.out / "bthome-demo.pcapng"
    demo_events = demo()
    write_pcapng(demo_path, 256, LINK_TYPES["ll-phdr"][1](demo_events))
    written.append(write_stats(args.out / "bthome-demo.stats.json", expected_stats(
        [a for ev in demo_events for a in ev.adverts])))
    many_events, many_keys, many_stats = many_devices()
    for link in ("nrf-sniffer", "hci-h4"):
        linktype, builder = LINK_TYPES[link]
        path = args.out / f"many-devices-{link}.pcap"
        write_pcap(path, linktype, builder(many_events))
        written.append(path)
    written += [write_keys(args.out / "many-devices.keys", many_keys),
                write_stats(args.out / "many-devices.stats.json", many_stats)]
    for path in written + [args.out / "spec-examples.tsv", demo_path]:
        print(path)


if __name__ == "__main__":
    main()
