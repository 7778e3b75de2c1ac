# SPDX-License-Identifier: GPL-2.0-or-later
"""Dissection tests: the real tshark with the plugin under test on each capture of
captures/, every bthome.* field and BTHome expert info compared with the expected output
of tests/tshark/expected.

captures/<set>-<link type>.* share their set's expected output, <set>.txt (the BTHome
fields in PDML) and <set>.info (the Info column of each frame), since every link type
carries the same adverts; a set whose HCI captures differ (an HCI event can hold several
adverts) has <set>-hci.* for them, and <set>-ll-ext.* holds btle's own Info for extended
adverts without BTHome. captures/<set>.tsv lists values as the spec states them, checked
as well; captures/<set>.keys holds the bthome_keys rows the set needs (one -o each).

    python3 -m pytest tests/tshark/dissect_test.py -k encrypted
    python3 -m pytest tests/tshark/dissect_test.py --update   (rewrite the expected files)

The lines compared are tests/lib/dissection.py's.
"""
import difflib
from pathlib import Path

import pytest

from tests.lib.dissection import check_spec, dissect, info_column
from tests.lib.wsrun import key_options

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
EXPECTED = ROOT / "tests" / "tshark" / "expected"
LINK_TYPES = ("ll", "ll-phdr", "ll-ext", "nrf-sniffer", "hci-h4", "hci-h4-ext", "btmon",
              "btsnoop", "btmon-snoop")
HCI_LINK_TYPES = ("hci-h4", "hci-h4-ext", "btmon", "btsnoop", "btmon-snoop")
# Link types whose frames reach the plugin the way another one's do: LL without the
# pseudo-header as LL with it (ll-phdr), HCI from btmon and btsnoop files as HCI H4. Only
# the host's suite runs them (where 4.0's frame search reads each file format's bytes).
LINK_VARIANTS = ("ll", "btmon", "btsnoop", "btmon-snoop")
CAPTURE_SUFFIXES = (".pcap", ".pcapng", ".log")
def split_name(capture):
    """(set, link type) of a capture's file name; the link type is "" for a capture
    without one (the demo)."""
    stem = capture.name.rsplit(".", 1)[0]
    for link in sorted(LINK_TYPES, key=len, reverse=True):
        if stem.endswith("-" + link):
            return stem[:-len(link) - 1], link
    return stem, ""


def expected_files(capture):
    """(expected PDML lines, expected Info column or None) of a capture: its set's, or
    the set's own for HCI or extended LL when there is one."""
    name, link = split_name(capture)
    candidates = [name]
    if link in HCI_LINK_TYPES:
        candidates.insert(0, f"{name}-hci")
    elif link == "ll-ext":
        candidates.insert(0, f"{name}-ll-ext")
    found = {}
    for suffix in (".txt", ".info"):
        found[suffix] = next((EXPECTED / (c + suffix) for c in candidates
                              if (EXPECTED / (c + suffix)).exists()), None)
    return found[".txt"], found[".info"]


def set_file(capture, suffix):
    path = CAPTURES / (split_name(capture)[0] + suffix)
    return path if path.exists() else None


def dissection_cases():
    """One case per capture (the many-devices set, thousands of frames, is checked by
    its statistics), then the keys in a profile and a run with snort disabled."""
    cases = []
    for capture in sorted(p for p in CAPTURES.iterdir() if p.suffix in CAPTURE_SUFFIXES):
        name, link = split_name(capture)
        if name == "many-devices":
            continue
        marks = [pytest.mark.link_variants] if link in LINK_VARIANTS else []
        cases.append(pytest.param(capture, {}, marks=marks, id=capture.stem))
    # Keys from the profile's bthome_keys file (what the GUI writes) work like -o rows.
    cases.append(pytest.param(CAPTURES / "encrypted-nrf-sniffer.pcap",
                              {"keys_in_profile": True}, id="keys-in-profile"))
    # With snort disabled, the one postdissector enabled by default besides MATE's plugin:
    # BTHome's 4.0 hook is a postdissector and must still run (Wireshark calls them only
    # when one is enabled).
    cases.append(pytest.param(CAPTURES / "all-objects-nrf-sniffer.pcap",
                              {"tshark_options": ["--disable-protocol=snort"],
                               "no_spec": True, "no_info": True}, id="snort-disabled"))
    return cases


def write_lines(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.mark.parametrize("capture, how", dissection_cases())
def test_dissection(ws, update, capture, how):
    expected, info_file = expected_files(capture)
    assert expected, f"no expected output for {capture.name} in {EXPECTED}"
    spec = None if how.get("no_spec") else set_file(capture, ".tsv")
    if how.get("no_info"):
        info_file = None
    keys = set_file(capture, ".keys")
    if how.get("keys_in_profile"):
        with open(keys, encoding="utf-8") as f:
            ws.write_config("bthome_keys", "".join(row.strip() + "\n" for row in f
                                                   if row.strip()))
        options = []
    else:
        options = key_options(keys)
    options += how.get("tshark_options", [])
    actual = dissect(ws, str(capture), options)
    info = info_column(ws, str(capture), options) if info_file else []
    if update:
        write_lines(expected, actual)
        if info_file:
            write_lines(info_file, info)
        pytest.skip(f"wrote {expected.name}" + (f" and {info_file.name}" if info_file else ""))
    failures = list(difflib.unified_diff(read_lines(expected), actual, str(expected),
                                         "tshark", lineterm=""))
    if spec:
        failures += check_spec(actual, spec)
    if info_file:
        failures += difflib.unified_diff(read_lines(info_file), info, str(info_file),
                                         "tshark (Info column)", lineterm="")
    frames = sum(1 for line in actual if line.startswith("# frame"))
    assert frames, f"{capture.name}: no frame"
    assert not failures, f"{capture.name} ({frames} frames):\n" + "\n".join(failures)
