# SPDX-License-Identifier: GPL-2.0-or-later
"""The CSV recipe of the docs is one (issue 48): every tshark command of README.md and
docs/*.md that writes CSV (-E separator=,) is the same command, names the device as
bthome.device (which every link type has, unlike btle.advertising_address) and prints
it: run as written on the demo capture, and with its -r on a capture of every link type
(captures/spec-examples-<link>), every line of the CSV has the device's address.
"""
import csv
import io
import re
import shlex
from pathlib import Path

import pytest

pytestmark = pytest.mark.tshark

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "captures"
MAC = re.compile(r"[0-9a-f]{2}(:[0-9a-f]{2}){5}")


def csv_recipes(root=ROOT):
    """(file, command) of each CSV-writing tshark command in a ```sh block."""
    found = []
    for path in [root / "README.md"] + sorted((root / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
            for command in block.replace("\\\n", " ").splitlines():
                if command.startswith("tshark ") and "separator=," in command:
                    found.append((path.relative_to(root).as_posix(), " ".join(command.split())))
    return found


def fields(words):
    return [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-e"]


RECIPES = csv_recipes()
COMMANDS = sorted({c for _, c in RECIPES})


def test_readme_and_user_guide_show_it():
    files = {f for f, _ in RECIPES}
    assert {"README.md", "docs/user-guide.md"} <= files, \
        f"README.md and docs/user-guide.md should show a CSV recipe; found {RECIPES}"


def test_one_command():
    assert len(COMMANDS) == 1, "the CSV recipes of the docs differ:\n" + \
        "\n".join(f"{f}: {c}" for f, c in RECIPES)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: "recipe")
def test_device_is_bthome_device(command):
    names = fields(shlex.split(command))
    assert "bthome.device" in names and not any(
        f.startswith(("btle.", "bthci_", "nordic")) for f in names), \
        f"the recipe's device should be bthome.device, no field of one link type: {names}"


@pytest.mark.parametrize("capture", ["bthome-demo.pcapng"] + sorted(
    p.name for p in CAPTURES.glob("spec-examples-*")))
def test_every_line_has_the_device(ws, capture):
    assert COMMANDS, "no CSV recipe in README.md and docs/*.md"
    for command in COMMANDS:
        words = shlex.split(command)[1:]
        names = fields(words)
        column = names.index("bthome.device") if "bthome.device" in names else None
        run = list(words)
        run[run.index("-r") + 1] = str(CAPTURES / capture)
        rows = list(csv.reader(io.StringIO(ws.run(run).stdout)))[1:]
        devices = [r[column] if column is not None and len(r) > column else "" for r in rows]
        assert rows, f"{command}: no line on {capture}"
        bad = [(n, d) for n, d in enumerate(devices, 1) if not MAC.fullmatch(d)]
        assert not bad, f"{command}: on {capture}, lines without the device " \
            f"(line, device): {bad[:5]} of {len(rows)} lines"
