#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The bthome_keys table refuses bad rows with a message saying what is wrong (tshark
prints it and exits 1), and accepts the spellings docs/encryption.md allows.

    keys_test.py --plugin bthome.so --capture captures/encrypted-ll.pcap
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wsrun import IsolatedTshark  # noqa: E402

SPEC_KEY = "231d39c1d7cc1ab1aee224cd096db932"
CASES = [  # row, accepted, text the refusal must contain
    (f'"54:48:E6:8F:80:A5","{SPEC_KEY}","kitchen"', True, None),
    (f'"54:48:e6:8f:80:a5","{SPEC_KEY.upper()}",""', True, None),
    (f'"*","23:1d:39:c1:d7:cc:1a:b1:ae:e2:24:cd:09:6d:b9:32","any"', True, None),
    (f'"54:48:E6:8F:80","{SPEC_KEY}","short MAC"', False, 'Bad MAC "54:48:E6:8F:80"'),
    (f'"kitchen","{SPEC_KEY}",""', False, "Bad MAC"),
    (f'"54:48:E6:8F:80:A5","{SPEC_KEY[:-1]}","31 digits"', False, "32 hex digits"),
    (f'"54:48:E6:8F:80:A5","{SPEC_KEY[:-1]}x","not hex"', False, "Bad key"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--capture", required=True)
    args = ap.parse_args()
    failures = []
    with IsolatedTshark(args.plugin) as ws:
        for row, accepted, message in CASES:
            proc = ws.run(["-n", "-r", args.capture, "-c", "1", "-T", "fields",
                           "-e", "bthome.temperature", "-o", "uat:bthome_keys:" + row],
                          check=False)
            if accepted and (proc.returncode != 0 or proc.stdout.strip() != "25.06"):
                failures.append(f"{row}: want accepted and 25.06, got exit {proc.returncode} "
                                f"{proc.stdout.strip()!r} {proc.stderr.strip()!r}")
            if not accepted and (proc.returncode == 0 or message not in proc.stderr):
                failures.append(f"{row}: want refused with {message!r}, got exit "
                                f"{proc.returncode} {proc.stderr.strip()!r}")
    if failures:
        print("\n".join(failures))
        print(f"FAIL: {len(failures)} of {len(CASES)} rows")
        return 1
    print(f"ok: {len(CASES)} rows accepted or refused as they should")
    return 0


if __name__ == "__main__":
    sys.exit(main())
