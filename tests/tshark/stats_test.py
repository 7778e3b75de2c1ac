# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics test: tshark -z bthome,tree and -z bthome,readings on a capture must give
the numbers the capture generator worked out from what it generated
(captures/<set>.stats.json), not numbers copied from the plugin's own output.

    python3 -m pytest tests/tshark/stats_test.py -k units

Captures: the demo, the many-devices set on two link types, and the units set (a row per
property and unit) on every link type.
"""
import json
import math
import re
from pathlib import Path

import pytest

from tests.lib.wsrun import key_options

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
LINK_RE = "ll|ll-phdr|ll-ext|nrf-sniffer|hci-h4|hci-h4-ext|btmon|btsnoop|btmon-snoop"

# Stats trees keep single-precision floats and print averages with 2 decimals; the
# readings table prints 6 significant digits.
REL = 1e-5
ABS = 0.006


def close(a, b):
    return math.isclose(float(a), float(b), rel_tol=REL, abs_tol=ABS)


def parse_tree(text):
    """{path tuple: [count, average, min, max]} from the stats tree's text output."""
    nodes, stack = {}, []
    for line in text.splitlines():
        m = re.match(r"^( *)(\S.*?)\s{2,}(\d+)\s+(.*)$", line)
        if not m or "|" in line or m.group(2).startswith(("Topic", "=", "-")):
            continue
        depth, name = len(m.group(1)), m.group(2)
        stack[depth:] = [name]
        numbers = m.group(4).split()
        stats = [int(m.group(3))] + [n for n in numbers[:3] if re.fullmatch(r"[\d.]+", n)]
        nodes[tuple(stack)] = stats
    return nodes


def parse_table(text):
    """Rows of the readings table: dicts keyed by column name."""
    rows, header = [], None
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 9:
            continue
        if cells[0] == "Device":
            header = cells
        elif header:
            rows.append(dict(zip(header, cells)))
    return rows


def check(want, tree, table):
    """The differences between the generator's numbers (want) and the stats tree and
    readings table tshark printed: a list of messages, empty when they agree."""
    return check_tree(want, tree) + check_readings(want, table)


def device_label(mac, dev):
    return f"{mac} {dev['name']}" if dev["name"] else mac


def check_tree(want, tree):
    errors = []
    for mac, dev in want["devices"].items():
        label = device_label(mac, dev)
        node = ("Devices", label)
        if node not in tree:
            errors.append(f"no device node {label!r} in the tree")
            continue
        if tree[node][0] != dev["adverts"]:
            errors.append(f"{label}: {tree[node][0]} advertisements, want {dev['adverts']}")
        for child, key in (("Duplicates", "duplicates"), ("Encrypted", "encrypted"),
                           ("Decrypted", "decrypted")):
            got = tree.get(node + (child,), [None])[0]
            if got != dev[key]:
                errors.append(f"{label}: {child} {got}, want {dev[key]}")
        for title, p in dev["properties"].items():     # "Mass (kg)": property and unit
            got = tree.get(node + (title,))
            want_row = [p["count"], p["avg"], p["min"], p["max"]]
            if not got or got[0] != p["count"] or not all(map(close, got[1:], want_row[1:])):
                errors.append(f"{label} {title}: tree {got}, want {want_row}")
        for state, count in dev["states"].items():
            got = tree.get(node + (state,), [None])[0]
            if got != count:
                errors.append(f"{label} {state}: {got}, want {count}")
    return errors


def check_readings(want, table):
    rows, errors = {}, []
    for r in table:     # one row per device, property and unit
        key = (r["Device"], r["Property"], r["Unit"])
        if key in rows:
            errors.append(f"two readings rows for {key}")
        rows[key] = r
    for mac, dev in want["devices"].items():
        for title, p in dev["properties"].items():
            row = rows.get((mac, p["property"], p["unit"]))
            if not row or int(row["Count"]) != p["count"] or \
                    not all(close(row[c], p[k]) for c, k in
                            (("Min", "min"), ("Average", "avg"), ("Max", "max"),
                             ("Last", "last"))):
                errors.append(f"{device_label(mac, dev)} {title}: readings row {row}, "
                              f"want {p}")
    wanted = {(mac, p["property"], p["unit"]) for mac, dev in want["devices"].items()
              for p in dev["properties"].values()}
    for key in sorted(set(rows) - wanted):
        errors.append(f"a readings row the generator did not make: {key}")
    return errors


def set_name(capture):
    """units-hci-h4.pcap -> units; bthome-demo.pcapng -> bthome-demo."""
    return re.sub(rf"(-({LINK_RE}))?\.(pcap|pcapng|log)$", "", capture)


STATS_CAPTURES = ["bthome-demo.pcapng", "many-devices-nrf-sniffer.pcap",
                  "many-devices-hci-h4.pcap"] + \
    sorted(p.name for p in CAPTURES.glob("units-*"))


@pytest.mark.parametrize("capture", STATS_CAPTURES)
def test_statistics(ws, capture):
    name = set_name(capture)
    with open(CAPTURES / f"{name}.stats.json", encoding="utf-8") as f:
        want = json.load(f)
    keys = CAPTURES / f"{name}.keys"
    out = ws.run(["-n", "-q", "-r", str(CAPTURES / capture), "-z", "bthome,tree",
                  "-z", "bthome,readings", *key_options(keys if keys.exists() else None)]
                 ).stdout
    errors = check(want, parse_tree(out), parse_table(out))
    assert not errors, (f"{capture}: {len(errors)} differences over {len(want['devices'])} "
                        "devices from the generator's statistics:\n" + "\n".join(errors[:40]))
