# SPDX-License-Identifier: GPL-2.0-or-later
"""tshark -2 (two passes; the second builds no protocol tree for summary lines) and the
GUI's packet list re-dissect frames later without a tree: the summary lines must be the
ones a single pass prints, BTHome Info and audit markers included. With a read filter
(-2 -R) the lines that pass are the ones -Y shows.

    python3 -m pytest tests/tshark/two_pass_test.py
"""
import difflib
from pathlib import Path

import pytest

from tests.lib.wsrun import key_options

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
READ_FILTER = "bthome.temperature || bthome.humidity"
CASES = [("encrypted-audit", "hci-h4"), ("encrypted-audit", "ll"), ("multi-report", "btmon")]


def from_protocol(out):
    """Summary lines from the protocol column on: numbers and times differ under -R."""
    return [line[line.index(" BTHome "):] for line in out.splitlines() if " BTHome " in line]


@pytest.fixture(params=CASES, ids=[f"{s}-{link}" for s, link in CASES])
def case(request):
    """(capture, key options) of a case."""
    name, link = request.param
    return str(CAPTURES / f"{name}-{link}.pcap"), key_options(CAPTURES / f"{name}.keys")


def test_read_filter(ws, case):
    """-2 -R shows the BTHome lines -Y shows (a read filter's first pass gives a dropped
    frame's number to the next frame: compared from the protocol column on)."""
    capture, options = case
    shown = from_protocol(ws.run(["-n", "-r", capture, "-Y", READ_FILTER, *options]).stdout)
    read = from_protocol(ws.run(["-2", "-n", "-r", capture, "-R", READ_FILTER,
                                 *options]).stdout)
    assert shown, f"-Y '{READ_FILTER}' shows no BTHome line"
    diff = difflib.unified_diff(shown, read, "-Y", "-2 -R", lineterm="", n=1)
    assert shown == read, (f"-2 -R '{READ_FILTER}' shows {len(read)} BTHome lines, "
                           f"-Y {len(shown)}:\n" + "\n".join(list(diff)[:30]))


def test_two_passes(ws, case):
    capture, options = case
    one = ws.run(["-n", "-r", capture, *options]).stdout.splitlines()
    two = ws.run(["-2", "-n", "-r", capture, *options]).stdout.splitlines()
    bthome = sum("BTHome" in line for line in one)
    assert bthome, f"no BTHome line in one pass of {capture}"
    diff = [f"frame {i + 1}:\n  one pass: {a}\n  two:      {b}"
            for i, (a, b) in enumerate(zip(one, two)) if a != b]
    assert not diff and len(one) == len(two), \
        (f"{len(diff)} of {len(one)} lines differ ({len(two)} lines in two passes):\n"
         + "\n".join(diff[:10]))
