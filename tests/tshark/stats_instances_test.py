# SPDX-License-Identifier: GPL-2.0-or-later
"""Statistics instances: two -z bthome,readings (or bthome,tree) with different filters
in one tshark run each print what they print alone, and the filtered one holds the
filtered device's numbers from the capture generator (captures/<set>.stats.json) and no
other device. Each instance (and each GUI window) has its own tables.

    python3 -m pytest tests/tshark/stats_instances_test.py
"""
import json
import re
from pathlib import Path

import pytest

from tests.tshark.stats_test import check_readings, check_tree, parse_table, parse_tree

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURE = ROOT / "captures" / "bthome-demo.pcapng"
STATS = ROOT / "captures" / "bthome-demo.stats.json"
DEVICE = "A4:C1:38:00:00:03"
FILTER = f"bthome.device=={DEVICE.lower()}"


def reports(text):
    """The reports of a tshark -q -z run, each from its ==== banner on."""
    lines = text.splitlines()
    starts = [i - 1 for i, line in enumerate(lines)
              if i and re.fullmatch(r"=+", lines[i - 1]) and line.endswith(":")]
    return ["\n".join(lines[a:b]).strip() for a, b in zip(starts, starts[1:] + [len(lines)])]


@pytest.mark.parametrize("kind", ["readings", "tree"])
def test_two_instances(ws, kind):
    with open(STATS, encoding="utf-8") as f:
        want_one = {"devices": {DEVICE: json.load(f)["devices"][DEVICE]}}

    def run(*stats):
        opts = [a for s in stats for a in ("-z", s)]
        return reports(ws.run(["-n", "-q", "-r", str(CAPTURE)] + opts).stdout)

    errors = []
    filtered, unfiltered = f"bthome,{kind},{FILTER}", f"bthome,{kind}"
    alone = [run(s) for s in (filtered, unfiltered)]
    both = run(filtered, unfiltered)
    if len(both) != 2:
        errors.append(f"{len(both)} reports from two instances, want 2")
    for s, lone in zip((filtered, unfiltered), alone):
        if len(lone) != 1 or lone[0] not in both:
            errors.append(f"the report of -z {s} differs from its lone run:\n"
                          f"alone: {lone}\ntogether: {both}")
    # the filtered instance holds the filtered device's real numbers, alone
    report = alone[0][0] if alone[0] else ""
    if kind == "readings":
        table = parse_table(report)
        found = check_readings(want_one, table)
        others = {r["Device"] for r in table} - {DEVICE}
    else:
        tree = parse_tree(report)
        found = check_tree(want_one, tree)
        others = {k[1].split()[0] for k in tree if len(k) == 2 and k[0] == "Devices"}
        others -= {DEVICE}
    errors += [f"-z {filtered}: {e}" for e in found]
    if others:
        errors.append(f"-z {filtered}: other devices {sorted(others)}")
    assert not errors, f"{kind}:\n" + "\n".join(errors)
