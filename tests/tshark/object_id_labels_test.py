# SPDX-License-Identifier: GPL-2.0-or-later
"""The object ID's value string, as Wireshark holds it (`tshark -G values`): one label
per row of the object table (core/bthome_objects.h), every label different (Wireshark's
check_typed_item_calls.py flags repeated labels), plain ASCII as its checkers read them.

    python3 -m pytest tests/tshark/object_id_labels_test.py
"""
import collections
import re
from pathlib import Path

import pytest

from tests.lib.wsrun import IsolatedTshark

# the labels come from the object table: the host's suite checks them
pytestmark = pytest.mark.source_only

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "core" / "bthome_objects.h"


@pytest.fixture(scope="module")
def labels(plugin):
    """{object ID: label} of the plugin's bthome.object_id value string."""
    with IsolatedTshark(plugin) as ws:
        rows = [line.split("\t") for line in ws.run(["-G", "values"]).stdout.splitlines()]
    return {int(r[2], 16): r[3] for r in rows if len(r) == 4 and r[1] == "bthome.object_id"}


def test_one_label_per_table_row(labels):
    ids = [int(m, 16) for m in re.findall(r"^\s*X\((0x[0-9A-Fa-f]{2}),",
                                          TABLE.read_text(encoding="utf-8"), re.M)]
    assert ids, f"no X(0x..) row in {TABLE}"
    assert sorted(labels) == sorted(ids), \
        f"IDs {[hex(i) for i in sorted(set(ids) ^ set(labels))]} differ between the value string and {TABLE.name}"
    # real labels, e.g. the first object and a later one
    assert labels[0x02] and labels[0x45], f"0x02 {labels.get(0x02)!r}, 0x45 {labels.get(0x45)!r}"


def test_labels_differ(labels):
    repeated = [f"{label!r} x{n}" for label, n in collections.Counter(labels.values()).items()
                if n > 1]
    assert not repeated, "repeated labels: " + ", ".join(repeated)


def test_labels_plain_ascii(labels):
    bad = [f"0x{i:02x} {label!r}" for i, label in labels.items()
           if not label.isascii() or "%" in label]
    assert not bad, "not plain ASCII (or with %): " + ", ".join(bad)
