#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics test: tshark -z bthome,tree and -z bthome,readings on a capture must give
the numbers the capture generator worked out from what it generated
(captures/<set>.stats.json), not numbers copied from the plugin's own output.

    stats_test.py --plugin bthome.so --capture captures/bthome-demo.pcapng \
        --stats captures/bthome-demo.stats.json [--keys captures/X.keys]
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark, key_options  # noqa: E402

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
    rows, errors = {}, []
    for r in table:     # one row per device, property and unit
        key = (r["Device"], r["Property"], r["Unit"])
        if key in rows:
            errors.append(f"two readings rows for {key}")
        rows[key] = r
    for mac, dev in want["devices"].items():
        label = f"{mac} {dev['name']}" if dev["name"] else mac
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
            prop = p["property"]
            got = tree.get(node + (title,))
            want_row = [p["count"], p["avg"], p["min"], p["max"]]
            if not got or got[0] != p["count"] or not all(map(close, got[1:], want_row[1:])):
                errors.append(f"{label} {title}: tree {got}, want {want_row}")
            row = rows.get((mac, prop, p["unit"]))
            if not row or int(row["Count"]) != p["count"] or \
                    not all(close(row[c], p[k]) for c, k in
                            (("Min", "min"), ("Average", "avg"), ("Max", "max"),
                             ("Last", "last"))):
                errors.append(f"{label} {title}: readings row {row}, want {p}")
        for state, count in dev["states"].items():
            got = tree.get(node + (state,), [None])[0]
            if got != count:
                errors.append(f"{label} {state}: {got}, want {count}")
    wanted = {(mac, p["property"], p["unit"]) for mac, dev in want["devices"].items()
              for p in dev["properties"].values()}
    for key in sorted(set(rows) - wanted):
        errors.append(f"a readings row the generator did not make: {key}")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--stats", required=True)
    ap.add_argument("--keys")
    args = ap.parse_args()
    with open(args.stats, encoding="utf-8") as f:
        want = json.load(f)
    options = key_options(args.keys)
    with IsolatedTshark(args.plugin) as ws:
        out = ws.run(["-n", "-q", "-r", args.capture, "-z", "bthome,tree",
                      "-z", "bthome,readings", *options]).stdout
    errors = check(want, parse_tree(out), parse_table(out))
    devices = len(want["devices"])
    if errors:
        print("\n".join(errors[:40]))
        print(f"FAIL {args.capture}: {len(errors)} differences over {devices} devices")
        return 1
    print(f"ok {args.capture}: {devices} devices match the generator's statistics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
