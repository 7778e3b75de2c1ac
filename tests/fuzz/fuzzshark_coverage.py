#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Line coverage of plugin/ and core/ from a clang profile of fuzzshark-bthome-coverage
(tests/fuzz/run-fuzzshark.sh), and whether given functions ran.

    fuzzshark_coverage.py --binary B --profile P --tree T [--require FUNCTION ...]

T is the plugin's folder in the Wireshark tree the binary was built from. Prints one
line per folder; exits 1 when a required function never ran (a target that never
reaches BTHome fuzzes nothing of it).
"""
import argparse
import json
import subprocess
import sys


def export(binary, profile, paths):
    out = subprocess.run(["llvm-cov", "export", binary, f"-instr-profile={profile}", *paths],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["data"][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--require", action="append", default=[])
    ap.add_argument("--label", default="fuzzshark coverage")
    args = ap.parse_args()
    for folder in ("plugin", "core"):
        lines = export(args.binary, args.profile, [f"{args.tree}/{folder}"])["totals"]["lines"]
        print(f"{args.label}: {folder}/ {lines['covered']} of {lines['count']} lines "
              f"({lines['percent']:.1f} %)")
    if not args.require:
        return 0
    functions = export(args.binary, args.profile, [f"{args.tree}/plugin"])["functions"]
    # a static function's name is "file.c:name"
    ran = {f["name"].rpartition(":")[2] for f in functions if f["count"] > 0}
    missing = [name for name in args.require if name not in ran]
    for name in missing:
        print(f"{args.label}: {name} never ran")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
