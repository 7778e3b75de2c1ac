#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tshark -2 (two passes; the second builds no protocol tree for summary lines) and the
GUI's packet list re-dissect frames later without a tree: the summary lines must be the
ones a single pass prints, BTHome Info and audit markers included. With a read filter
(-2 -R) the lines that pass are the ones -Y shows.

    two_pass_test.py --plugin bthome.so --capture captures/X.pcap [--keys captures/X.keys]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark, key_options  # noqa: E402


READ_FILTER = "bthome.temperature || bthome.humidity"


def from_protocol(out):
    """Summary lines from the protocol column on: numbers and times differ under -R."""
    return [line[line.index(" BTHome "):] for line in out.splitlines() if " BTHome " in line]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--keys")
    args = ap.parse_args()
    options = key_options(args.keys)
    with IsolatedTshark(args.plugin) as ws:
        one = ws.run(["-n", "-r", args.capture, *options]).stdout.splitlines()
        two = ws.run(["-2", "-n", "-r", args.capture, *options]).stdout.splitlines()
        # a read filter's first pass gives a dropped frame's number to the next frame
        shown = ws.run(["-n", "-r", args.capture, "-Y", READ_FILTER, *options]).stdout
        read = ws.run(["-2", "-n", "-r", args.capture, "-R", READ_FILTER, *options]).stdout
    shown, read = from_protocol(shown), from_protocol(read)
    if shown != read or not shown:
        print("\n".join(f"  -Y: {a}\n  -R: {b}" for a, b in zip(shown, read) if a != b))
        print(f"FAIL {args.capture}: -2 -R '{READ_FILTER}' shows {len(read)} BTHome lines, "
              f"-Y {len(shown)}, or they differ")
        return 1
    bthome = sum("BTHome" in line for line in one)
    diff = [f"frame {i + 1}:\n  one pass: {a}\n  two:      {b}"
            for i, (a, b) in enumerate(zip(one, two)) if a != b]
    if diff or len(one) != len(two) or not bthome:
        print("\n".join(diff[:10]))
        print(f"FAIL {args.capture}: {len(diff)} of {len(one)} lines differ, "
              f"{bthome} BTHome lines in one pass")
        return 1
    print(f"ok {args.capture}: {len(one)} lines, {bthome} BTHome, the same in two passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
