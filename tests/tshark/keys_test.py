# SPDX-License-Identifier: GPL-2.0-or-later
"""The bthome_keys table refuses bad rows with a message saying what is wrong (tshark
prints it and exits 1), and accepts the spellings docs/encryption.md allows.

    python3 -m pytest tests/tshark/keys_test.py
"""
from pathlib import Path

import pytest

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURE = ROOT / "captures" / "encrypted-ll.pcap"
SPEC_KEY = "231d39c1d7cc1ab1aee224cd096db932"
ACCEPTED = {  # id: row, which decrypts the capture's first frame (25.06 °C)
    "upper-mac": f'"54:48:E6:8F:80:A5","{SPEC_KEY}","kitchen"',
    "lower-mac-upper-key": f'"54:48:e6:8f:80:a5","{SPEC_KEY.upper()}",""',
    "any-device-colon-key": '"*","23:1d:39:c1:d7:cc:1a:b1:ae:e2:24:cd:09:6d:b9:32","any"',
}
REFUSED = {  # id: row, text the refusal must contain
    "short-mac": (f'"54:48:E6:8F:80","{SPEC_KEY}","short MAC"', 'Bad MAC "54:48:E6:8F:80"'),
    "name-as-mac": (f'"kitchen","{SPEC_KEY}",""', "Bad MAC"),
    "31-digits": (f'"54:48:E6:8F:80:A5","{SPEC_KEY[:-1]}","31 digits"', "32 hex digits"),
    "not-hex": (f'"54:48:E6:8F:80:A5","{SPEC_KEY[:-1]}x","not hex"', "Bad key"),
}


def first_temperature(ws, row):
    return ws.run(["-n", "-r", str(CAPTURE), "-c", "1", "-T", "fields",
                   "-e", "bthome.temperature", "-o", "uat:bthome_keys:" + row], check=False)


@pytest.mark.parametrize("row", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(ws, row):
    proc = first_temperature(ws, row)
    assert proc.returncode == 0 and proc.stdout.strip() == "25.06", \
        (f"{row}: want accepted and 25.06, got exit {proc.returncode} "
         f"{proc.stdout.strip()!r} {proc.stderr.strip()!r}")


@pytest.mark.parametrize("row, message", REFUSED.values(), ids=REFUSED.keys())
def test_refused(ws, row, message):
    proc = first_temperature(ws, row)
    assert proc.returncode != 0 and message in proc.stderr, \
        (f"{row}: want refused with {message!r}, got exit {proc.returncode} "
         f"{proc.stderr.strip()!r}")
