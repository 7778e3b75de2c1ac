# SPDX-License-Identifier: GPL-2.0-or-later
"""The frame counts captures/README.md states are those of the captures: each row of its
table of sets (the frame column, against <set>-ll.pcap or, for a set without it, its
first .pcap; the HCI frame count of a set whose HCI events group adverts, against
<set>-hci-h4.pcap; the frame of "the spec's full" advertisement, the last one, and the
range before it) and the demo's "N frames". A row added to the object table changes
all-objects, spec-examples and v1-examples: this says which numbers to write.
"""
import re
import struct
from pathlib import Path

import pytest

pytestmark = pytest.mark.source_only

CAPTURES = Path(__file__).resolve().parents[2] / "captures"
README = CAPTURES / "README.md"


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


ROWS = list(set_rows(README.read_text(encoding="utf-8")))


def test_table_of_sets_read():
    assert len(ROWS) >= 10, f"only {len(ROWS)} rows read from the table of sets of {README}"


@pytest.mark.parametrize("name, stated, row", [pytest.param(*r, id=r[0]) for r in ROWS])
def test_set_frames(name, stated, row):
    files = sorted(CAPTURES.glob(f"{name}-*.pcap"))
    ll = CAPTURES / f"{name}-ll.pcap"
    assert files, f"set {name}: no {name}-*.pcap in {CAPTURES}"
    path = ll if ll in files else files[0]
    frames = pcap_frames(path)
    problems = []

    def expect(what, stated, actual):
        if stated != actual:
            problems.append(f"{what}: README says {stated}, the capture has {actual}")

    expect(f"frames ({path.name})", stated, frames)
    hci = re.search(r"in \*\*one\*\* event \((\d+) frames\)", row)
    if hci:
        expect("HCI frames", int(hci.group(1)), pcap_frames(CAPTURES / f"{name}-hci-h4.pcap"))
    full = re.search(r"(\d+):? the spec's full", row)
    if full:
        expect("frame of the spec's full advertisement", int(full.group(1)), frames)
        before = re.findall(r"\b\d+-(\d+)", row[:full.start()])
        expect("the range before it ends at", int(before[-1]), frames - 1)
    assert not problems, f"set {name} in captures/README.md (fix it):\n" + "\n".join(problems)


def test_demo_frames():
    demo = re.search(r"`bthome-demo\.pcapng` \([^)]*?(\d+) frames",
                     README.read_text(encoding="utf-8"))
    assert demo, f"no \"N frames\" for bthome-demo.pcapng in {README}"
    actual = pcapng_frames(CAPTURES / "bthome-demo.pcapng")
    assert int(demo.group(1)) == actual, \
        f"bthome-demo.pcapng: README says {demo.group(1)} frames, the capture has {actual}"
