#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics instances: two -z bthome,readings (or bthome,tree) with different filters
in one tshark run each print what they print alone, and the filtered one holds the
filtered device's numbers from the capture generator (captures/<set>.stats.json) and no
other device. Each instance (and each GUI window) has its own tables.

    stats_instances_test.py --plugin bthome.so --capture captures/bthome-demo.pcapng \
        --stats captures/bthome-demo.stats.json
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from stats_test import check, parse_table, parse_tree  # noqa: E402
from wsrun import IsolatedTshark  # noqa: E402

DEVICE = "A4:C1:38:00:00:03"
FILTER = f"bthome.device=={DEVICE.lower()}"


def reports(text):
    """The reports of a tshark -q -z run, each from its ==== banner on."""
    lines = text.splitlines()
    starts = [i - 1 for i, line in enumerate(lines)
              if i and re.fullmatch(r"=+", lines[i - 1]) and line.endswith(":")]
    return ["\n".join(lines[a:b]).strip() for a, b in zip(starts, starts[1:] + [len(lines)])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--stats", required=True)
    args = ap.parse_args()
    with open(args.stats, encoding="utf-8") as f:
        want = json.load(f)
    want_one = {"devices": {DEVICE: want["devices"][DEVICE]}}
    errors = []
    with IsolatedTshark(args.plugin) as ws:
        def run(*stats):
            opts = [a for s in stats for a in ("-z", s)]
            return ws.run(["-n", "-q", "-r", args.capture] + opts).stdout

        for kind in ("readings", "tree"):
            filtered, unfiltered = f"bthome,{kind},{FILTER}", f"bthome,{kind}"
            alone = [reports(run(s)) for s in (filtered, unfiltered)]
            both = reports(run(filtered, unfiltered))
            if len(both) != 2:
                errors.append(f"{kind}: {len(both)} reports from two instances, want 2")
            for s, lone in zip((filtered, unfiltered), alone):
                if len(lone) != 1 or lone[0] not in both:
                    errors.append(f"{kind}: the report of -z {s} differs from its lone run")
            # the filtered instance holds the filtered device's real numbers, alone
            report = alone[0][0] if alone[0] else ""
            table = parse_table(report) if kind == "readings" else []
            tree = parse_tree(report) if kind == "tree" else {}
            found = check(want_one, tree, table)
            if kind == "readings":
                found = [e for e in found if "readings row" in e]
                others = {r["Device"] for r in table} - {DEVICE}
            else:
                found = [e for e in found if "readings row" not in e]
                others = {k[1].split()[0] for k in tree if len(k) == 2 and k[0] == "Devices"}
                others -= {DEVICE}
            errors += [f"{kind} {FILTER}: {e}" for e in found]
            if others:
                errors.append(f"{kind} {FILTER}: other devices {sorted(others)}")
            # from both runs too: the combined report equals the lone run, checked above
    if errors:
        print("\n".join(errors))
        print(f"FAIL {len(errors)} problems")
        return 1
    battery = want_one["devices"][DEVICE]["properties"]["Battery (%)"]["count"]
    print(f"ok two instances per statistic each print their lone report; {FILTER}: "
          f"{DEVICE} alone, Battery count {battery}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
