#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin's filter fields (name and type, from `tshark -G fields`) must be exactly
the checked-in list: they are the public interface, named as docs/fields.md says.

    fields_test.py --plugin bthome.so --expected tests/tshark/expected/fields.txt [--update]
"""
import argparse
import difflib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import bthome_glossary  # noqa: E402


def registered_fields(plugin):
    return [f"{r[2]}\t{r[3]}" for r in bthome_glossary(plugin)
            if not r[2].startswith("bthome.expert.")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    actual = registered_fields(args.plugin)
    if args.update:
        with open(args.expected, "w") as f:
            f.write("\n".join(actual) + "\n")
        return 0
    with open(args.expected) as f:
        expected = f.read().splitlines()
    diff = list(difflib.unified_diff(expected, actual, args.expected, "tshark -G fields",
                                     lineterm=""))
    if diff:
        print("\n".join(diff))
        return 1
    print(f"ok: {len(actual)} fields, names and types as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
