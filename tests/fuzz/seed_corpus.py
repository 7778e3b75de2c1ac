#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seed corpora for the fuzz targets from the BTHome service data in captures/.

Reads every frame of captures/*.pcap, *.pcapng and *.log (btsnoop), finds the AD
structures "len 16 <BTHome UUID> data" in it and writes one file per distinct input:

    CORPUS/v2/      service data of UUID 0xFCD2 (info byte, objects or sealed payload)
    CORPUS/v1/      service data of UUID 0x181C (a v1 object list)
    CORPUS/crypto/  mode byte + input (see fuzz_crypto.c): mode 0 every v2 service data,
                    1 the plaintext v2 ones, 2 the 0x181E ones, 3 the 0x181C ones,
                    4 the MAC and key texts of captures/*.keys
    CORPUS/audit/   audit sequences (see fuzz_audit.c) made from the counters and
                    payloads of each set's encrypted devices, in capture order
    CORPUS/adv/     address + service data position + frame (see fuzz_adv.c), the
                    address taken where the LL, HCI and extended HCI layouts put it
    CORPUS/nordic_ble/  every frame of the nRF Sniffer captures (LINKTYPE 272), whole,
    CORPUS/hci_h4/  and of the HCI H4 captures (LINKTYPE 201 without its direction, 187):
                    fuzzshark's inputs for those targets (tests/fuzz/run-fuzzshark.sh)

    tests/fuzz/seed_corpus.py --captures captures --out build-fuzz/corpus
"""
import argparse
import csv
import hashlib
import struct
from pathlib import Path

UUIDS = {0xFCD2: "v2", 0x181C: "v1", 0x181E: "v1-encrypted"}
FRAMES_PER_CAPTURE = 200    # the large sets repeat themselves: enough for variety
MODES = {"v2": 0, "v2-plain": 1, "v1-encrypted": 2, "v1": 3, "text": 4}


LINKTYPE_NORDIC_BLE = 272
LINKTYPE_HCI_H4 = 187
LINKTYPE_HCI_H4_WITH_PHDR = 201     # a 4-byte direction before the H4 packet


def pcap_frames(blob):
    """(link type, frame) of each packet."""
    endian = "<" if blob[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    linktype = struct.unpack_from(endian + "I", blob, 20)[0]
    pos = 24
    while pos + 16 <= len(blob):
        incl = struct.unpack_from(endian + "I", blob, pos + 8)[0]
        yield linktype, blob[pos + 16:pos + 16 + incl]
        pos += 16 + incl


def pcapng_frames(blob):
    linktypes = []                              # by interface
    pos = 0
    while pos + 12 <= len(blob):
        block_type, length = struct.unpack_from("<II", blob, pos)
        if block_type == 1:                     # interface description block
            linktypes.append(struct.unpack_from("<H", blob, pos + 8)[0])
        elif block_type == 6:                   # enhanced packet block
            interface, = struct.unpack_from("<I", blob, pos + 8)
            incl = struct.unpack_from("<I", blob, pos + 20)[0]
            linktype = linktypes[interface] if interface < len(linktypes) else None
            yield linktype, blob[pos + 28:pos + 28 + incl]
        pos += max(length, 12)


def btsnoop_frames(blob):
    pos = 16
    while pos + 24 <= len(blob):
        incl = struct.unpack_from(">I", blob, pos + 4)[0]
        yield None, blob[pos + 24:pos + 24 + incl]
        pos += 24 + incl


def frames(path):
    blob = path.read_bytes()
    if blob.startswith(b"btsnoop\0"):
        return btsnoop_frames(blob)
    if blob[:4] == b"\x0a\x0d\x0d\x0a":
        return pcapng_frames(blob)
    return pcap_frames(blob)


def service_data(frame):
    """(position, uuid, data) of every 16-bit-UUID service data AD structure with a
    BTHome UUID. A byte scan, not a parse: a stray match only adds a harmless seed."""
    for i in range(len(frame) - 3):
        length, ad_type = frame[i], frame[i + 1]
        uuid = frame[i + 2] | frame[i + 3] << 8
        if ad_type == 0x16 and uuid in UUIDS and length >= 3 and i + 1 + length <= len(frame):
            yield i, uuid, frame[i + 4:i + 1 + length]


FLAGS_AD = b"\x02\x01\x06"
ADDRESS_BEFORE_ADV_DATA = (6, 7, 21)    # LL AdvA; HCI report; HCI extended report


def adv_seeds(frame, ad_pos):
    """fuzz_adv inputs: the 6 bytes where each layout keeps the address, given that the
    advertisement starts with the Flags AD structure nearest before the service data."""
    start = frame.rfind(FLAGS_AD, 0, ad_pos + 1)
    for back in ADDRESS_BEFORE_ADV_DATA if start >= 0 else ():
        if start >= back:
            address = frame[start - back:start - back + 6][::-1]   # display order
            yield address + ad_pos.to_bytes(2, "little") + frame


class Corpus:
    def __init__(self, out):
        self.out = out
        self.inputs = {}        # target -> distinct inputs

    def add(self, target, data):
        folder = self.out / target
        folder.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha1(data).hexdigest()
        self.inputs.setdefault(target, set()).add(name)
        if not (folder / name).exists():
            (folder / name).write_bytes(data)


def audit_record(data):
    """One fuzz_audit record of a v2 encrypted service data: flags, counter, payload
    selector, packet id."""
    counter = data[-8:-4] if len(data) >= 9 else bytes(4)
    flags = 0x01 | 0x08 | (0x02 if len(data) >= 9 else 0)
    return bytes([flags]) + counter + bytes([hashlib.sha1(data).digest()[0], 0])


def add_capture(corpus, path):
    audit = b""
    for _, (linktype, frame) in zip(range(FRAMES_PER_CAPTURE), frames(path)):
        if linktype == LINKTYPE_NORDIC_BLE:
            corpus.add("nordic_ble", frame)
        elif linktype == LINKTYPE_HCI_H4:
            corpus.add("hci_h4", frame)
        elif linktype == LINKTYPE_HCI_H4_WITH_PHDR:
            corpus.add("hci_h4", frame[4:])
        for pos, uuid, data in service_data(frame):
            for seed in adv_seeds(frame, pos):
                corpus.add("adv", seed)
            kind = UUIDS[uuid]
            if kind == "v2":
                corpus.add("v2", data)
                corpus.add("crypto", bytes([MODES["v2"]]) + data)
                if data and not data[0] & 1:
                    corpus.add("crypto", bytes([MODES["v2-plain"]]) + data)
                else:
                    audit += audit_record(data)
            else:
                corpus.add("v1", data)
                corpus.add("crypto", bytes([MODES[kind]]) + data)
    if audit:
        corpus.add("audit", audit)


def add_key_texts(corpus, captures):
    for keys in sorted(captures.glob("*.keys")):
        for row in csv.reader(keys.read_text(encoding="utf-8").splitlines()):
            for text in row[:2]:
                corpus.add("crypto", bytes([MODES["text"]]) + text.encode())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--captures", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    corpus = Corpus(args.out)
    paths = sorted(p for pattern in ("*.pcap", "*.pcapng", "*.log")
                   for p in args.captures.glob(pattern))
    for path in paths:
        add_capture(corpus, path)
    add_key_texts(corpus, args.captures)
    if not corpus.inputs.get("v2"):
        raise SystemExit(f"seed_corpus: no BTHome service data found in {args.captures}")
    print("seed corpus: " + ", ".join(f"{t} {len(n)}" for t, n in sorted(corpus.inputs.items())))


if __name__ == "__main__":
    main()
