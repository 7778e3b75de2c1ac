#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""docs/encryption.md's example of Home Assistant's core.config_entries (issue 48) is one
bthome-keys reads: the doc's JSON block, as .storage/core.config_entries of a
configuration folder, gives exactly the -o row the doc shows after it, read from the
folder, the .storage folder and the file.

    ha_example_test.py --tool tools/bthome-keys --doc docs/encryption.md
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def blocks(text, lang):
    return re.findall(r"^```%s\n(.*?)^```" % lang, text, re.MULTILINE | re.DOTALL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--doc", required=True)
    args = ap.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()
    examples = [b for b in blocks(doc, "json") if '"core.config_entries"' in b]
    rows = [b for b in blocks(doc, "text") if b.startswith("-o 'uat:bthome_keys:")]
    if len(examples) != 1 or len(rows) != 1:
        print(f"FAIL: {args.doc} shows {len(examples)} core.config_entries examples (```json) "
              f"and {len(rows)} rows printed from one (```text -o ...), want one of each")
        return 1
    entries = json.loads(examples[0])["data"]["entries"]
    bthome = [e for e in entries if e.get("domain") == "bthome"]
    if not bthome or any("bindkey" not in e.get("data", {}) or ":" not in e.get("unique_id", "")
                         for e in bthome):
        print("FAIL: the example has no bthome entry with data.bindkey and a MAC as unique_id")
        return 1
    failures = 0
    with tempfile.TemporaryDirectory(prefix="bthome-ha-example-") as tmp:
        storage = os.path.join(tmp, ".storage")
        os.makedirs(storage)
        path = os.path.join(storage, "core.config_entries")
        with open(path, "w", encoding="utf-8") as f:
            f.write(examples[0])
        for source in (tmp, storage, path):
            proc = subprocess.run([sys.executable, args.tool, "--print-o", source],
                                  capture_output=True, text=True, check=False,
                                  env=dict(os.environ, LC_ALL="C.UTF-8"))
            if proc.returncode != 0 or proc.stdout != rows[0]:
                failures += 1
                print(f"FAIL {source}: exit {proc.returncode}, printed {proc.stdout!r}, "
                      f"the doc shows {rows[0]!r}; stderr {proc.stderr.strip()!r}")
    if failures:
        return 1
    print(f"ok: bthome-keys reads the example of {args.doc} as the doc shows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
