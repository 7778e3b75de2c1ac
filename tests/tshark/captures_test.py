#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The committed captures are exactly what captures/make_captures.py writes today: a
drifted generator or object table fails here.

    captures_test.py --captures captures/
"""
import argparse
import filecmp
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--captures", required=True)
    args = ap.parse_args()
    generator = os.path.join(args.captures, "make_captures.py")
    with tempfile.TemporaryDirectory(prefix="bthome-captures-") as out:
        subprocess.run([sys.executable, generator, "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        written = sorted(os.listdir(out))
        committed = sorted(f for f in os.listdir(args.captures)
                           if f not in ("make_captures.py", "README.md", "__pycache__"))
        _, differ, missing = filecmp.cmpfiles(out, args.captures, written, shallow=False)
        extra = sorted(set(committed) - set(written))
    problems = [f"differs: {f}" for f in differ] + [f"not committed: {f}" for f in missing]
    problems += [f"not written by the generator: {f}" for f in extra]
    if problems:
        print("\n".join(problems))
        print(f"FAIL: rerun python3 captures/make_captures.py ({len(problems)} files)")
        return 1
    print(f"ok: {len(written)} files identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
