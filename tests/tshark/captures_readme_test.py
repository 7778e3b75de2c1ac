#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The frame counts captures/README.md states are those of the captures: each row of its
table of sets (the frame column, against <set>-ll.pcap or, for a set without it, its
first .pcap; the HCI frame count of a set whose HCI events group adverts, against
<set>-hci-h4.pcap; the frame of "the spec's full" advertisement, the last one, and the
range before it) and the demo's "N frames". A row added to the object table changes
all-objects, spec-examples and v1-examples: this says which numbers to write.

    captures_readme_test.py --captures captures/
"""
import argparse
import glob
import os
import re
import struct
import sys


def pcap_frames(path):
    """Records of a classic libpcap file (either byte order)."""
    with open(path, "rb") as f:
        data = f.read()
    order = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    pos, count = 24, 0
    while pos + 16 <= len(data):
        incl_len = struct.unpack(order + "I", data[pos + 8:pos + 12])[0]
        pos += 16 + incl_len
        count += 1
    return count


def pcapng_frames(path):
    """Enhanced and simple packet blocks of a pcapng file."""
    with open(path, "rb") as f:
        data = f.read()
    order = "<" if data[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    pos, count = 0, 0
    while pos + 12 <= len(data):
        block_type, length = struct.unpack(order + "II", data[pos:pos + 8])
        count += block_type in (3, 6)
        pos += length
    return count


def set_rows(readme):
    """(set, stated frames, the whole row) of the table of sets (section "Sets")."""
    section = readme.split("\n## Sets\n", 1)[-1].split("\n## ", 1)[0]
    for line in section.splitlines():
        m = re.match(r"\| `([a-z0-9-]+)` \| (\d+)", line)
        if m:
            yield m.group(1), int(m.group(2)), line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--captures", required=True)
    args = ap.parse_args()
    with open(os.path.join(args.captures, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    problems, checked = [], 0

    def expect(what, stated, actual):
        nonlocal checked
        checked += 1
        if stated != actual:
            problems.append(f"{what}: README says {stated}, the capture has {actual}")

    rows = list(set_rows(readme))
    for name, stated, row in rows:
        files = sorted(glob.glob(os.path.join(args.captures, f"{name}-*.pcap")))
        ll = os.path.join(args.captures, f"{name}-ll.pcap")
        path = ll if ll in files else (files[0] if files else None)
        if path is None:
            problems.append(f"set {name}: no {name}-*.pcap in {args.captures}")
            continue
        frames = pcap_frames(path)
        expect(f"set {name}, frames ({os.path.basename(path)})", stated, frames)
        hci = re.search(r"in \*\*one\*\* event \((\d+) frames\)", row)
        if hci:
            expect(f"set {name}, HCI frames", int(hci.group(1)),
                   pcap_frames(os.path.join(args.captures, f"{name}-hci-h4.pcap")))
        full = re.search(r"(\d+):? the spec's full", row)
        if full:
            expect(f"set {name}, frame of the spec's full advertisement", int(full.group(1)),
                   frames)
            before = re.findall(r"\b\d+-(\d+)", row[:full.start()])
            expect(f"set {name}, the range before it ends at", int(before[-1]), frames - 1)
    if len(rows) < 10:
        problems.append(f"only {len(rows)} rows read from the table of sets")
    demo = re.search(r"`bthome-demo\.pcapng` \([^)]*?(\d+) frames", readme)
    if demo:
        expect("bthome-demo.pcapng", int(demo.group(1)),
               pcapng_frames(os.path.join(args.captures, "bthome-demo.pcapng")))
    else:
        problems.append("no \"N frames\" for bthome-demo.pcapng")
    if problems:
        print("\n".join(f"FAIL {p}" for p in problems))
        print(f"captures-readme: {len(problems)} problems: fix captures/README.md")
        return 1
    print(f"captures-readme: {checked} counts of {len(rows)} sets and the demo agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
