# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin builds no BTHome tree when nothing would see it (a tree that is not shown
and has no BTHome or expert field in a filter). Whatever does look at it must still find
it: display filters on BTHome fields, on its expert infos (bthome.expert.*, and the
generic _ws.expert.* ones) and the expert tap (-z expert) give in a summary run what they
give when the whole tree is built and shown (-V), and custom columns of BTHome fields show
what -T fields prints.

    python3 -m pytest tests/tshark/tree_consumers_test.py -k errors
"""
import re
from pathlib import Path

import pytest

from tests.lib.wsrun import key_options

# the in-tree stage leaves them to fuzzshark, Windows and trixie's 4.4 to other versions
pytestmark = [pytest.mark.tshark, pytest.mark.summary_runs]

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"

FILTERS = [
    "bthome",
    "bthome.temperature > 25",
    "bthome.temperature#1 > 25",    # the fields' layer number: BTHome's first layer
    "bthome.info.encrypted == 1",
    "bthome.object_id == 0x02",
    "bthome.encryption.counter == 101",
    "bthome.encryption.prev_frame",
    "bthome.expert.duplicate",
    "bthome.expert.no_key",
    "bthome.expert.downgrade",
    "_ws.expert",
    '_ws.expert.message contains "Retransmission"',
    '_ws.expert.message contains "no key configured for"',
]
ERRORS_FILTERS = ["bthome.expert.out_of_order", "bthome.command.length",
                  "bthome.humidity > 50", "bthome.expert.truncated"]

# id: (capture, keys or None, filters or None for the built-in ones). The audit captures
# check everything with the built-in filters; the others with their own filters, where
# the expert tap need show no device and the Expert column may rate a single frame.
CASES = {
    "hci-h4": ("encrypted-audit-hci-h4.pcap", "encrypted-audit.keys", None),
    "nrf-sniffer": ("encrypted-audit-nrf-sniffer.pcap", "encrypted-audit.keys", None),
    # objects with fields beneath their value, and an object's own expert info
    "objects": ("all-objects-ll.pcap", None,
                ["bthome.dimmer.steps", "bthome.object_id == 0x3a"]),
    # malformed objects and headers show the same with a tree or without
    "errors-ll": ("errors-ll.pcap", None, ERRORS_FILTERS),
    "errors-hci-h4": ("errors-hci-h4.pcap", None, ERRORS_FILTERS),
    "v1": ("v1-examples-ll.pcap", None,
           ["bthome.v1.format == 2", "bthome.v1.length == 3", "bthome.temperature == 25.06",
            "bthome.expert.legacy_v1"]),
}


def case_args(case):
    """(capture path, key options, whether the case gives its own filters)."""
    capture, keys, filters = CASES[case]
    return (str(CAPTURES / capture), key_options(CAPTURES / keys if keys else None),
            filters is not None)


def summary_frames(ws, capture, options, dfilter):
    out = ws.run(["-n", "-r", capture, "-Y", dfilter, *options]).stdout
    return [int(line.split()[0]) for line in out.splitlines() if line.strip()]


def shown_tree_frames(ws, capture, options, dfilter):
    out = ws.run(["-n", "-V", "-r", capture, "-Y", dfilter, *options]).stdout
    return [int(n) for n in re.findall(r"^Frame (\d+):", out, re.M)]


def custom_column(ws, capture, options, field):
    """Frame number and a custom column of field, from summary lines."""
    column = f'gui.column.format:"No.","%m","Value","%Cus:{field}"'
    out = ws.run(["-n", "-r", capture, "-o", column, *options]).stdout
    rows = [line.split(None, 1) for line in out.splitlines() if line.strip()]
    return [row if len(row) == 2 else row + [""] for row in rows]


def without_unit(column_text):
    """A custom column's values without their unit: 4.2+ show "25.06 °C" or, for the
    units Wireshark writes without a space, "25.06°C" where -T fields prints 25.06."""
    def value(text):
        token = text.strip().split(" ")[0]
        m = re.fullmatch(r"(-?[0-9.]+(?:e[-+]?[0-9]+)?)([^0-9:.\-].*)?", token)
        return m.group(1) if m else token
    return ",".join(value(v) for v in column_text.split(","))


def field_values(ws, capture, options, field):
    out = ws.run(["-n", "-r", capture, "-T", "fields", "-e", "frame.number", "-e", field,
                  *options]).stdout
    return [line.split("\t") for line in out.splitlines()]


def expert_tap(ws, capture, options, dfilter=None):
    args = ["-n", "-q", "-z", "expert", "-r", capture, *options]
    if dfilter:
        args += ["-Y", dfilter]
    return ws.run(args).stdout


def expert_column(ws, capture, options, extra=()):
    """Frame number and the Expert column (the severity of the frame's expert infos)."""
    column = 'gui.column.format:"No.","%m","Expert","%a"'
    out = ws.run(["-n", "-r", capture, "-o", column, *options, *extra]).stdout
    return [line.split() for line in out.splitlines()
            if re.fullmatch(r"\s*\d+(\s+[A-Z][a-z]+)?\s*", line)]


@pytest.mark.parametrize("case, dfilter", [
    pytest.param(case, f, id=f"{case}:{f}")
    for case, (_, _, filters) in CASES.items() for f in filters or FILTERS])
def test_filter(ws, case, dfilter):
    capture, options, _ = case_args(case)
    quiet = summary_frames(ws, capture, options, dfilter)
    shown = shown_tree_frames(ws, capture, options, dfilter)
    assert shown, f"-Y '{dfilter}' finds no frame with the tree shown"
    assert quiet == shown, (f"-Y '{dfilter}': frames {quiet} in a summary run, "
                            f"{shown} with the tree shown")


@pytest.mark.parametrize("field", ["bthome.temperature", "bthome.device"])
@pytest.mark.parametrize("case", CASES)
def test_custom_column(ws, case, field):
    """A custom column of a BTHome field shows what -T fields prints."""
    capture, options, _ = case_args(case)
    column = [[n.strip(), without_unit(v)] for n, v in custom_column(ws, capture, options,
                                                                     field)]
    fields = [[n, v] for n, v in field_values(ws, capture, options, field)]
    assert any(v for _, v in fields), f"-T fields -e {field}: no frame with a value"
    diff = [f"  column {a}, -T fields {b}" for a, b in zip(column, fields) if a != b]
    assert column == fields, (f"custom column {field} ({len(column)} rows) differs from "
                              f"-T fields ({len(fields)} rows):\n" + "\n".join(diff[:10]))


@pytest.mark.parametrize("case", CASES)
def test_expert_tap(ws, case):
    """The same -z expert output whether or not a filter makes the tree be built; with
    the built-in filters, the BTHome lines name a device."""
    capture, options, own_filters = case_args(case)
    plain = expert_tap(ws, capture, options)
    built = expert_tap(ws, capture, options, "bthome || !bthome")
    assert plain == built, f"-z expert differs with the tree built:\n{plain}\n---\n{built}"
    texts = re.findall(r"BTHome\s+(.+)", plain)
    assert own_filters or any(re.search(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}", t) for t in texts), \
        f"-z expert: no BTHome line names a device in {len(texts)} lines:\n{plain}"


@pytest.mark.parametrize("case", CASES)
def test_expert_column(ws, case):
    """An Expert column reads every expert info, also where no tree and no expert tap
    listener would (the plugin spares those once their severity is reached)."""
    capture, options, own_filters = case_args(case)
    plain = expert_column(ws, capture, options)
    tapped = expert_column(ws, capture, options, ["-z", "expert"])
    diff = [f"  {a} / with the tap {b}" for a, b in zip(plain, tapped) if a != b]
    assert plain == tapped, ("Expert column differs with an expert tap listener:\n"
                             + "\n".join(diff[:10]))
    rated = sum(1 for row in plain if len(row) == 2)
    assert own_filters or rated > 1, f"Expert column: {rated} frames with a severity"
