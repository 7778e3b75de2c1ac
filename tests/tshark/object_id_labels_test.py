#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The object ID's value string, as Wireshark holds it (`tshark -G values`): one label
per row of the object table (core/bthome_objects.h), every label different (Wireshark's
check_typed_item_calls.py flags repeated labels), plain ASCII as its checkers read them.

    object_id_labels_test.py --plugin bthome.so --table core/bthome_objects.h
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--table", required=True)
    args = ap.parse_args()
    with open(args.table, encoding="utf-8") as f:
        ids = [int(m, 16) for m in re.findall(r"^\s*X\((0x[0-9A-Fa-f]{2}),", f.read(), re.M)]
    with IsolatedTshark(args.plugin) as ws:
        rows = [line.split("\t") for line in ws.run(["-G", "values"]).stdout.splitlines()]
    labels = {int(r[2], 16): r[3] for r in rows if len(r) == 4 and r[1] == "bthome.object_id"}
    errors = []
    if sorted(labels) != sorted(ids):
        errors.append(f"IDs {sorted(set(ids) ^ set(labels))} differ from the table")
    repeated = [f"{label!r} x{n}" for label, n in collections.Counter(labels.values()).items()
                if n > 1]
    if repeated:
        errors.append("repeated labels: " + ", ".join(repeated))
    errors += [f"0x{i:02x} {label!r} is not plain ASCII" for i, label in labels.items()
               if not label.isascii() or "%" in label]
    if errors:
        print("\n".join(errors))
        print(f"FAIL {len(errors)} problems")
        return 1
    print(f"ok: {len(labels)} object IDs, {len(set(labels.values()))} different labels, "
          f"e.g. 0x02 {labels[0x02]!r}, 0x45 {labels[0x45]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
