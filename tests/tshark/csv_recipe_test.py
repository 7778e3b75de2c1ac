#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The CSV recipe of the docs is one (issue 48): every tshark command of README.md and
docs/*.md that writes CSV (-E separator=,) is the same command, names the device as
bthome.device (which every link type has, unlike btle.advertising_address) and prints
it: run as written on the demo capture, and with its -r on a capture of every link type
(captures/spec-examples-<link>), every line of the CSV has the device's address.

    csv_recipe_test.py --plugin bthome.so --root .
"""
import argparse
import csv
import glob
import io
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import Checks, IsolatedTshark  # noqa: E402

MAC = re.compile(r"[0-9a-f]{2}(:[0-9a-f]{2}){5}")


def csv_recipes(root):
    """(file, command) of each CSV-writing tshark command in a ```sh block."""
    found = []
    for path in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs",
                                                                                  "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
            for command in block.replace("\\\n", " ").splitlines():
                if command.startswith("tshark ") and "separator=," in command:
                    found.append((os.path.relpath(path, root), " ".join(command.split())))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    check = Checks()
    recipes = csv_recipes(args.root)
    files = sorted({f for f, _ in recipes})
    check("README.md" in files and os.path.join("docs", "user-guide.md") in files,
          "README.md and docs/user-guide.md show a CSV recipe", str(recipes))
    commands = sorted({c for _, c in recipes})
    check(len(commands) == 1, "every CSV recipe of the docs is the same command",
          "\n".join(f"{f}: {c}" for f, c in recipes))
    for command in commands:
        words = shlex.split(command)
        fields = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-e"]
        check("bthome.device" in fields and not any(f.startswith(("btle.", "bthci_", "nordic"))
                                                    for f in fields),
              f"the recipe's device is bthome.device, no field of one link type: {fields}")
    captures = os.path.join(args.root, "captures")
    links = sorted(glob.glob(os.path.join(captures, "spec-examples-*")))
    with IsolatedTshark(args.plugin) as ws:
        for command in commands:
            words = shlex.split(command)[1:]
            fields = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-e"]
            column = fields.index("bthome.device") if "bthome.device" in fields else None
            for capture in [os.path.join(captures, "bthome-demo.pcapng")] + links:
                run = list(words)
                run[run.index("-r") + 1] = capture
                rows = list(csv.reader(io.StringIO(ws.run(run).stdout)))[1:]
                devices = [r[column] if column is not None and len(r) > column else ""
                           for r in rows]
                check(rows and all(MAC.fullmatch(d) for d in devices),
                      f"{os.path.basename(capture)}: {len(rows)} lines, each with the device",
                      f"{command}: devices {devices[:5]}...")
    return check.summary("csv-recipe")


if __name__ == "__main__":
    sys.exit(main())
